package workbench

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/stakesrpg/stakes/sim"
)

// comparisonResult is a comparison as the command prints and encodes it:
// sim's comparison and each variant's exact answer where the mechanic has
// one.
//
// JSON: mechanic, scenario, file, changed, then sim's a, b and diff, then
// exact_a and exact_b (or no_exact_a and no_exact_b saying why there is
// none).
type comparisonResult struct {
	Mechanic string `json:"mechanic"`
	// Scenario describes the scenario both sides start from; File and
	// Changed say where it came from and what --set changed on both.
	Scenario string   `json:"scenario"`
	File     string   `json:"file,omitempty"`
	Changed  []string `json:"changed,omitempty"`
	*sim.Comparison
	ExactA   *exactView `json:"exact_a,omitempty"`
	ExactB   *exactView `json:"exact_b,omitempty"`
	NoExactA string     `json:"no_exact_a,omitempty"`
	NoExactB string     `json:"no_exact_b,omitempty"`
	// Verdicts say in words what B does to each outcome that happened on
	// either side and to each metric, against A.
	Verdicts []string `json:"verdicts"`
}

func cmdCompare(e *env, args []string) error {
	var c common
	var as, bs multi
	fs := newFlags(e, "compare", "MECHANIC --a key=value ... --b key=value ... [flags]",
		"Runs two variants of a scenario with common random numbers (trial i of A and of B\n"+
			"see the same random stream) and reports each side and the paired difference A-B\n"+
			"with its 95% interval, the exact odds of A, B and A-B where the mechanic has them,\n"+
			"and a verdict in words for each outcome. --set changes both; --a and --b change\n"+
			"one side each. --plot draws both sides' outcome odds and rounds side by side.",
		`stakes compare edge --a rules.start_edge=5 --b rules.start_edge=6`,
		`stakes compare edge --a rules.start_edge=5 --b rules.start_edge=6 --plot cmp.png`,
		`stakes compare actiontest --a policy=never --b policy=always_when_failed --json`)
	c.register(fs.FlagSet, 100000, runFlags|outFlags|plotFlag|setFlag|fileFlag|shardFlag)
	fs.Lookup("plot").Usage = "also draw both sides' outcome odds and rounds to `FILE` (.png or .svg)"
	fs.Var(&as, "a", "a setting of variant A: `key=value` (repeatable)")
	fs.Var(&bs, "b", "a setting of variant B: `key=value` (repeatable)")
	mech, err := c.parseMechanic(fs, args, "compare")
	if err != nil {
		return err
	}
	if len(as) == 0 && len(bs) == 0 {
		return usagef("compare: give at least one --a or --b setting, or the two variants are the same")
	}
	mk := func(extra multi) (scenario, sim.Spec, error) {
		cc := c
		cc.sets = append(slices.Clone(c.sets), extra...)
		sc, label, err := e.scenarioFor(mech, &cc)
		if err != nil {
			return nil, sim.Spec{}, err
		}
		sp, err := sc.spec(label)
		return sc, sp, err
	}
	base, _, err := e.scenarioFor(mech, &c)
	if err != nil {
		return err
	}
	scA, sa, err := mk(as)
	if err != nil {
		return err
	}
	scB, sb, err := mk(bs)
	if err != nil {
		return err
	}
	sa.Name, sb.Name = variantName("A", as), variantName("B", bs)
	p := newProgress(e, "compare")
	opts, err := c.runOptions(p)
	if err != nil {
		p.finish()
		return err
	}
	cmp, err := sim.Compare(e.ctx, sa, sb, opts)
	p.finish()
	if err != nil {
		return err
	}
	stripRunEnv(cmp.A, c.zeroTime)
	stripRunEnv(cmp.B, c.zeroTime)
	cr := comparisonResult{Mechanic: mech, Scenario: base.describe(), File: c.file,
		Changed: slices.Clone(c.sets), Comparison: cmp}
	cr.ExactA, cr.NoExactA = exactOf(e, scA, cmp.A)
	cr.ExactB, cr.NoExactB = exactOf(e, scB, cmp.B)
	return emitComparison(e, &c, cr)
}

// exactOf returns a scenario's exact answer, or why there is none; an
// interrupted run computes none.
func exactOf(e *env, sc scenario, rep *sim.Report) (*exactView, string) {
	if rep.Provenance.Partial || e.ctx.Err() != nil {
		return nil, "not computed: the run was interrupted"
	}
	ex, err := sc.exact(e.ctx)
	if err != nil {
		return nil, err.Error()
	}
	return ex, ""
}

// emitComparison prints a comparison as --json, --csv or a table, and
// draws it with --plot.
func emitComparison(e *env, c *common, cr comparisonResult) error {
	var err error
	switch {
	case c.json:
		cr.Verdicts = verdicts(cr, hiddenOutcomes(cr))
		err = writeJSON(e.stdout, cr)
	case c.csv:
		err = cr.WriteCSV(e.stdout)
	default:
		writeComparison(e.stdout, cr)
	}
	if err == nil && c.plot != "" && !cr.A.Provenance.Partial {
		err = plotComparison(c.plot, cr)
	}
	if err == nil && cr.A.Provenance.Partial {
		err = errors.New("the comparison above is partial")
	}
	return err
}

// exactDiff returns the exact A-B of outcome i, if both sides have it.
func (cr comparisonResult) exactDiff(i int) (a, b float64, ok bool) {
	a, okA := exactP(cr.ExactA, i)
	b, okB := exactP(cr.ExactB, i)
	return a, b, okA && okB
}

func writeComparison(w io.Writer, cr comparisonResult) {
	cmp := cr.Comparison
	partial := ""
	if cmp.A.Provenance.Partial {
		partial = fmt.Sprintf(" (PARTIAL: interrupted after %d of %d)", cmp.A.Trials, cmp.A.Provenance.Planned)
	}
	base := result{File: cr.File, Changed: cr.Changed}
	fmt.Fprintf(w, "%s: %s\n  scenario: %s\n  %s\n  %s\n  %d paired trials, seed %d, generator %s%s\n",
		cr.Mechanic, cr.Scenario, base.source(), cmp.A.Name, cmp.B.Name,
		cmp.A.Trials, cmp.A.Provenance.Seed, cmp.A.Provenance.Generator, partial)
	both := cr.ExactA != nil && cr.ExactB != nil
	wd := nameWidth(cmp.A.Categories)
	for _, m := range cmp.A.Metrics {
		wd = max(wd, len(m.Name))
	}
	line := func(format string, args ...any) {
		fmt.Fprintln(w, strings.TrimRight(fmt.Sprintf(format, args...), " "))
	}
	head := fmt.Sprintf("  %-*s %8s %8s %9s  %-20s", wd, "outcome", "A", "B", "A-B", "95% interval of A-B")
	if both {
		head += fmt.Sprintf(" %8s %8s %10s", "exact A", "exact B", "exact A-B")
	}
	line("%s", head)
	hidden := hiddenOutcomes(cr)
	for i, d := range cmp.Diff.Categories {
		if slices.Contains(hidden, d.Name) {
			continue
		}
		a, b, ok := cr.exactDiff(i)
		ex := ""
		if both && ok {
			ex = fmt.Sprintf(" %8.4f %8.4f %+10.4f", a, b, a-b)
		}
		line("  %-*s %8.4f %8.4f %+9.4f  %-20s%s", wd, d.Name, cmp.A.Categories[i].P, cmp.B.Categories[i].P,
			d.Diff, fmt.Sprintf("[%+.4f, %+.4f]", d.Lo, d.Hi), ex)
	}
	for i, d := range cmp.Diff.Metrics {
		ex := ""
		if a, b, ok := cr.exactMeans(i); ok {
			ex = fmt.Sprintf(" %8.3f %8.3f %+10.3f", a, b, a-b)
		}
		line("  %-*s %8.3f %8.3f %+9.3f  %-20s%s", wd, d.Name, cmp.A.Metrics[i].Mean, cmp.B.Metrics[i].Mean,
			d.Mean, fmt.Sprintf("[%+.3f, %+.3f]", d.Lo, d.Hi), ex)
	}
	if len(hidden) > 0 {
		fmt.Fprintf(w, "  (hidden: %s that never happened on either side: %s)\n", count(len(hidden), "outcome"), listSome(hidden))
	}
	if !both {
		fmt.Fprintf(w, "  exact: none for %s\n", noExactSides(cr))
	}
	writeVerdicts(w, cr, hidden)
}

// exactMeans returns the exact means of metric i on both sides, if both
// have them: the exact answer gives the mean of the first metric, rounds.
func (cr comparisonResult) exactMeans(i int) (a, b float64, ok bool) {
	if i != 0 || cr.ExactA == nil || cr.ExactB == nil || cr.ExactA.MeanRounds == 0 || cr.ExactB.MeanRounds == 0 {
		return 0, 0, false
	}
	return cr.ExactA.MeanRounds, cr.ExactB.MeanRounds, true
}

// noExactSides says which sides lack an exact answer, and why (once when
// the reason is the same).
func noExactSides(cr comparisonResult) string {
	switch {
	case cr.ExactA == nil && cr.ExactB == nil && cr.NoExactA == cr.NoExactB:
		return "either side (" + cr.NoExactA + ")"
	case cr.ExactA == nil && cr.ExactB == nil:
		return "A (" + cr.NoExactA + ") or B (" + cr.NoExactB + ")"
	case cr.ExactA == nil:
		return "A (" + cr.NoExactA + ")"
	}
	return "B (" + cr.NoExactB + ")"
}

// writeVerdicts says in words what B does to each shown outcome and metric
// compared with A, or that no difference is detectable, with the exact
// difference where both sides have one.
func writeVerdicts(w io.Writer, cr comparisonResult, hidden []string) {
	fmt.Fprintln(w, "  verdict (B against A):")
	for _, v := range verdicts(cr, hidden) {
		fmt.Fprintf(w, "    %s\n", v)
	}
}

// verdicts are the sentences of writeVerdicts, one per shown outcome and
// metric.
func verdicts(cr comparisonResult, hidden []string) []string {
	var out []string
	d := cr.Diff
	for i, c := range d.Categories {
		if slices.Contains(hidden, c.Name) {
			continue
		}
		exact := math.NaN()
		if a, b, ok := cr.exactDiff(i); ok {
			exact = (b - a) * 100
		}
		// B - A is the negated A - B; probabilities read as percentage points.
		out = append(out, verdict(c.Name, -c.Diff*100, -c.Hi*100, -c.Lo*100, exact, "points", 1))
	}
	for i, m := range d.Metrics {
		exact := math.NaN()
		if a, b, ok := cr.exactMeans(i); ok {
			exact = b - a
		}
		out = append(out, verdict("mean "+m.Name, -m.Mean, -m.Hi, -m.Lo, exact, "", 2))
	}
	return out
}

// verdict says how B changes a quantity by diff (B - A) with 95% interval
// lo..hi, in unit, at the given decimals, and the exact change unless it
// is NaN (in the verdict's direction: "lowers ... by 4.7 ...; exact 5.0").
func verdict(name string, diff, lo, hi, exact float64, unit string, decimals int) string {
	if unit != "" {
		unit = " " + unit
	}
	diff, lo, hi, exact = unsigned(diff), unsigned(lo), unsigned(hi), unsigned(exact)
	ex := func(sign float64, format string) string {
		if math.IsNaN(exact) {
			return ""
		}
		return fmt.Sprintf(format, decimals, sign*exact)
	}
	if lo <= 0 && hi >= 0 {
		return fmt.Sprintf("%s: no difference detectable at this many trials (the interval %.*f to %.*f%s spans 0%s)",
			name, decimals, lo, decimals, hi, unit, ex(1, "; exact %+.*f"))
	}
	verb, sign := "raises", 1.0
	if diff < 0 {
		verb, sign, diff, lo, hi = "lowers", -1, -diff, -hi, -lo
	}
	return fmt.Sprintf("B %s %s by %.*f%s (95%% interval %.*f to %.*f%s)", verb, name, decimals, diff, unit,
		decimals, lo, decimals, hi, ex(sign, "; exact %.*f"))
}

// WriteCSV writes sim's long table of the comparison, then the exact rows
// where the sides have exact answers: side "exact_a", "exact_b" or
// "exact_diff" (A - B, where both have one), kind "category" with the
// probability in p, or kind "metric" with the exact mean of the first
// metric (rounds) in mean.
func (cr comparisonResult) WriteCSV(w io.Writer) error {
	if err := cr.Comparison.WriteCSV(w); err != nil {
		return err
	}
	cw := csv.NewWriter(w)
	cats, mets := names(cr.A)
	row := func(side, kind, name, p, mean string) {
		_ = cw.Write([]string{side, kind, name, "", "", p, "", "", mean, "", ""})
	}
	side := func(label string, ex *exactView) {
		if ex == nil {
			return
		}
		for i, name := range cats {
			if p, ok := exactP(ex, i); ok {
				row(label, "category", name, ftoa(p), "")
			}
		}
		if len(mets) > 0 && ex.MeanRounds != 0 {
			row(label, "metric", mets[0], "", ftoa(ex.MeanRounds))
		}
	}
	side("exact_a", cr.ExactA)
	side("exact_b", cr.ExactB)
	if cr.ExactA != nil && cr.ExactB != nil {
		diff := &exactView{MeanRounds: cr.ExactA.MeanRounds - cr.ExactB.MeanRounds}
		for i := range cats {
			a, b, _ := cr.exactDiff(i)
			diff.P = append(diff.P, a-b)
		}
		if cr.ExactA.MeanRounds == 0 || cr.ExactB.MeanRounds == 0 {
			diff.MeanRounds = 0
		}
		side("exact_diff", diff)
	}
	cw.Flush()
	return cw.Error()
}

func ftoa(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// unsigned returns x, with a negative zero made plain zero so that it
// prints as 0.0.
func unsigned(x float64) float64 {
	if x == 0 {
		return 0
	}
	return x
}

// variantName names a variant by its settings.
func variantName(side string, sets []string) string {
	if len(sets) == 0 {
		return side + ": unchanged"
	}
	return side + ": " + strings.Join(sets, " ")
}

// hiddenOutcomes are the outcomes that happened on neither side and have
// no exact chance on either: the tables leave them out and count them.
func hiddenOutcomes(cr comparisonResult) []string {
	var hidden []string
	for i, d := range cr.Diff.Categories {
		a, b, ok := cr.exactDiff(i)
		if cr.A.Categories[i].Count == 0 && cr.B.Categories[i].Count == 0 && (!ok || a == 0 && b == 0) {
			hidden = append(hidden, d.Name)
		}
	}
	return hidden
}
