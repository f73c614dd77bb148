package workbench

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/stakesrpg/stakes/dice"
)

// rollExpr rolls a dice expression times times and shows each roll as a
// chat bot does, or as JSON with every die.
func rollExpr(e *env, expr *dice.Expr, r *dice.Roller, seed uint64, times int, asJSON bool) error {
	rolls := make([]*dice.ExprResult, 0, times)
	for range times {
		if err := e.ctx.Err(); err != nil {
			return err
		}
		res := new(dice.ExprResult)
		if err := expr.Roll(r, res); err != nil {
			return err
		}
		rolls = append(rolls, res)
	}
	if asJSON {
		shown := make([]string, len(rolls))
		for i, res := range rolls {
			shown[i] = res.String()
		}
		return writeJSON(e.stdout, map[string]any{"expr": expr.String(), "seed": seed, "rolls": rolls, "shown": shown})
	}
	fmt.Fprintf(e.stdout, "%s (seed %d)\n", expr, seed)
	for _, res := range rolls {
		fmt.Fprintf(e.stdout, "  %s\n", res)
	}
	return nil
}

// looksLikeDice reports whether an argument of odds reads as dice
// notation rather than a mechanic's name: it starts as a term does.
func looksLikeDice(arg string) bool {
	arg = strings.TrimSpace(arg)
	return arg != "" && strings.ContainsRune("0123456789dD(-", rune(arg[0]))
}

// exprSide is one side of odds EXPR [vs EXPR]: its exact distribution.
type exprSide struct {
	expr  *dice.Expr
	dist  dice.Dist
	trunc float64
	view  string // what a plot draws: "equal", "at_least" or "at_most"
}

// views are what --view may ask a plot of a distribution to draw.
var views = []string{"equal", "at_least", "at_most"}

// value is what the side's view draws at x: P(X = x), P(X >= x) or
// P(X <= x).
func (s exprSide) value(x int) float64 {
	switch s.view {
	case "at_least":
		return s.dist.AtLeast(x)
	case "at_most":
		return 1 - s.dist.AtLeast(x+1)
	}
	return s.dist.Prob(x)
}

// viewLabel names the view's axis.
func (s exprSide) viewLabel() string {
	return map[string]string{"at_least": "P(>= value)", "at_most": "P(<= value)"}[s.view]
}

func exactSide(notation string, c *common) (exprSide, error) {
	x, err := dice.Parser{Dialect: c.dialect}.Parse(notation)
	if err != nil {
		return exprSide{}, usageError{err.Error()}
	}
	d, trunc, err := x.Dist()
	if err != nil {
		return exprSide{}, fmt.Errorf("odds %s: %w", x, err)
	}
	return exprSide{x, d, trunc, c.view}, nil
}

// exprOdds prints the exact distribution of a dice expression, or with
// "vs", the chances that one expression is higher than another and the
// distribution of the margin.
func exprOdds(e *env, pos []string, c *common) error {
	if len(c.sets) > 0 || c.file != "" {
		return usagef("odds %s: --set and --file are for mechanics; a dice expression takes --json and --plot only", strings.Join(pos, " "))
	}
	left, right, versus := pos, []string(nil), false
	for i, p := range pos {
		if strings.EqualFold(p, "vs") {
			left, right, versus = pos[:i], pos[i+1:], true
			break
		}
	}
	if versus && (len(left) == 0 || len(right) == 0) {
		return usagef(`odds: give EXPR vs EXPR, such as 2d20kh1 vs "d20+5"`)
	}
	if !slices.Contains(views, c.view) {
		return usagef("odds: --view %q: allowed %s", clip(c.view), strings.Join(views, ", "))
	}
	a, err := exactSide(strings.Join(left, " "), c)
	if err != nil {
		return err
	}
	if !versus {
		if c.plot != "" {
			if err := plotExprDist(c.plot, a); err != nil {
				return fmt.Errorf("--plot %s: %w", c.plot, err)
			}
		}
		return writeExprDist(e, a, c.json)
	}
	b, err := exactSide(strings.Join(right, " "), c)
	if err != nil {
		return err
	}
	if c.plot != "" {
		if err := plotExprVersus(c.plot, a, b); err != nil {
			return fmt.Errorf("--plot %s: %w", c.plot, err)
		}
	}
	return writeExprVersus(e, a, b, c.json)
}

// distRow is one row of a distribution: P(X = v), P(X >= v), P(X <= v).
type distRow struct {
	Value   int     `json:"value"`
	P       float64 `json:"p"`
	AtLeast float64 `json:"at_least"`
	AtMost  float64 `json:"at_most"`
	// Fraction is P(X = v) exactly, where the expression's denominator
	// fits (dice.Expr.Fractions).
	Fraction string `json:"fraction,omitempty"`
}

// shownRowP is the smallest probability a text table shows a row for: rarer
// outcomes print as 0.000000 and are counted below the table instead.
const shownRowP = 5e-7

// distRows returns the outcomes of d with any probability, with the
// cumulative chances from each end.
func distRows(d dice.Dist) []distRow {
	var out []distRow
	below := 0.0
	total := d.Total()
	for i, p := range d.P {
		if p > 0 {
			out = append(out, distRow{Value: d.Min + i, P: p, AtLeast: math.Max(total-below, 0), AtMost: math.Min(below+p, 1)})
		}
		below += p
	}
	return out
}

func writeExprDist(e *env, s exprSide, asJSON bool) error {
	d := s.dist
	rows := distRows(d)
	fr, err := s.expr.Fractions()
	if err == nil {
		for i := range rows {
			rows[i].Fraction = fr.Rat(rows[i].Value).RatString()
		}
	}
	if asJSON {
		out := map[string]any{
			"expr": s.expr.String(), "depth": s.expr.Depth(), "truncated": s.trunc,
			"mean": d.Mean(), "sd": d.StdDev(), "outcomes": rows,
		}
		if err == nil {
			out["denominator"] = fr.Den
		}
		return writeJSON(e.stdout, out)
	}
	fmt.Fprintf(e.stdout, "%s: exact distribution\n", s.expr)
	fmt.Fprintf(e.stdout, "  mean %.4f  sd %.4f\n", round4(d.Mean()), d.StdDev())
	writeExprTrunc(e, s.expr, s.trunc)
	writeDistRows(e, "value", rows)
	return nil
}

// writeExprTrunc says how much chance the depth bound cuts off, if any.
func writeExprTrunc(e *env, x *dice.Expr, trunc float64) {
	if trunc > 0 {
		fmt.Fprintf(e.stdout, "  explosions and re-rolls stop at depth %d: the unbounded odds differ by at most %.3g\n", x.Depth(), trunc)
	}
}

func writeDistRows(e *env, label string, rs []distRow) {
	exactly := ""
	if len(rs) > 0 && rs[0].Fraction != "" {
		exactly = "  exactly"
	}
	fmt.Fprintf(e.stdout, "  %6s  %-9s %-9s %-9s%s\n", label, "P(=)", "P(>=)", "P(<=)", exactly)
	hidden, mass := 0, 0.0
	for _, r := range rs {
		if r.P < shownRowP {
			hidden++
			mass += r.P
			continue
		}
		line := fmt.Sprintf("  %6d  %.6f  %.6f  %.6f", r.Value, r.P, r.AtLeast, r.AtMost)
		if r.Fraction != "" {
			line += "  " + r.Fraction
		}
		fmt.Fprintln(e.stdout, line)
	}
	if hidden > 0 {
		fmt.Fprintf(e.stdout, "  (%d rarer outcomes, together %.2g, not shown)\n", hidden, mass)
	}
}

func writeExprVersus(e *env, a, b exprSide, asJSON bool) error {
	margin, err := a.dist.Add(negatedDist(b.dist))
	if err != nil {
		return err
	}
	higher, lower := a.dist.Greater(b.dist), b.dist.Greater(a.dist)
	tie := math.Max(1-higher-lower, 0)
	trunc := 1 - (1-a.trunc)*(1-b.trunc)
	if asJSON {
		return writeJSON(e.stdout, map[string]any{
			"a": a.expr.String(), "b": b.expr.String(), "depth": a.expr.Depth(), "truncated": trunc,
			"a_higher": higher, "tie": tie, "b_higher": lower,
			"margin": map[string]any{"mean": margin.Mean(), "sd": margin.StdDev(), "outcomes": distRows(margin)},
		})
	}
	fmt.Fprintf(e.stdout, "%s vs %s: exact\n", a.expr, b.expr)
	fmt.Fprintf(e.stdout, "  P(A > B) %.6f\n  P(A = B) %.6f\n  P(A < B) %.6f\n", higher, tie, lower)
	fmt.Fprintf(e.stdout, "  margin A-B: mean %.4f  sd %.4f\n", round4(margin.Mean()), margin.StdDev())
	writeExprTrunc(e, a.expr, trunc)
	writeDistRows(e, "A-B", distRows(margin))
	return nil
}

// negatedDist returns the distribution of -X.
func negatedDist(d dice.Dist) dice.Dist {
	p := make([]float64, len(d.P))
	for i, q := range d.P {
		p[len(p)-1-i] = q
	}
	return dice.Dist{Min: -d.Max(), P: p}
}

// round4 rounds x to 4 decimals, so that a mean of 0 up to rounding does
// not print as -0.0000.
func round4(x float64) float64 {
	x = math.Round(x*1e4) / 1e4
	if x == 0 {
		return 0
	}
	return x
}
