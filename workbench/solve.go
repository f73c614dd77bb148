package workbench

import (
	"fmt"
	"slices"
	"strings"

	"github.com/stakesrpg/stakes/sim/markov"
)

// solveResult is what "stakes solve" prints and encodes.
type solveResult struct {
	Mechanic string `json:"mechanic"`
	Scenario string `json:"scenario"`
	markov.Solved
}

func cmdSolve(e *env, args []string) error {
	var c common
	var goal, side, ties string
	fs := newFlags(e, "solve", "MECHANIC [--goal OUTCOME,...] [--side NAME] [flags]",
		"How much decisions matter: what playing well is worth over how the side plays now\n"+
			"(the best play's odds of the goal less its own policy's), then the exact odds under\n"+
			"the best play, each shipped policy and the worst play (the one that makes the goal\n"+
			"least likely), and the gap between best and worst. Then the best play's decisions\n"+
			"in words, each with what it is worth a game, the most worth first. Among equally\n"+
			"good choices the best play takes the cheapest (--ties).\n"+
			"One side decides (--side; the mechanic's first side by default); every other side\n"+
			"plays the scenario's own policies. The goal is to end in one of the named outcomes\n"+
			"(--goal; the deciding side's win by default).",
		`stakes solve actiontest`, `stakes solve actiontest --goal clean`, `stakes solve challenge --json`,
		`stakes solve contest --side Detective --set cast.1.plot_points=3`, `stakes solve edge --side pursuer`,
		`stakes solve dramadeck`)
	c.register(fs.FlagSet, 1, jsonFlag|setFlag|fileFlag)
	fs.StringVar(&goal, "goal", "", "the outcomes the deciding side plays for, by name: `a,b` (default: the mechanic's)")
	fs.StringVar(&side, "side", "", "who decides, by the mechanic's `NAME` for a side, party or character (default: the first)")
	fs.StringVar(&ties, "ties", "", "among equally good choices the best play takes: cheapest (what spends least: harm, Trauma, points, dice; the default) or first (the first the mechanic lists)")
	mech, err := c.parseMechanic(fs, args, "solve")
	if err != nil {
		return err
	}
	sc, _, err := e.scenarioFor(mech, &c)
	if err != nil {
		return err
	}
	g := goalOf(goal, side, ties)
	if err := checkTies(ties); err != nil {
		return err
	}
	if err := checkOutcomes("--goal", g.Outcomes, sc.sim().Categories()); err != nil {
		return err
	}
	sv, err := sc.solve(e.ctx, g)
	if err != nil {
		return err
	}
	res := solveResult{Mechanic: mech, Scenario: sc.describe(), Solved: sv}
	if c.json {
		return writeJSON(e.stdout, res)
	}
	writeSolved(e, res)
	return nil
}

// goalOf reads --goal (outcome names, comma-separated) and --side.
func goalOf(goal, side, ties string) markov.Goal {
	g := markov.Goal{Side: side, Ties: ties}
	if goal != "" {
		for _, o := range strings.Split(goal, ",") {
			g.Outcomes = append(g.Outcomes, strings.TrimSpace(o))
		}
	}
	return g
}

// writeSolved prints the value of decisions: what playing well is worth
// over the side's own play, the table of plays, the gap between best and
// worst, a bound where the best is only the best found, and the advice.
func writeSolved(e *env, r solveResult) {
	w := e.stdout
	fmt.Fprintf(w, "%s: %s\n", r.Mechanic, r.Scenario)
	goal := strings.Join(r.Goal.Outcomes, " or ")
	fmt.Fprintf(w, "goal: end in %s, decided by %s\n%s\n\n", goal, r.Side, solvedHow(r.Solved))
	best := "the best play"
	if r.Bound != nil {
		best = "the best play found"
	}
	fmt.Fprintf(w, "playing well is worth %+.1f points of P(goal) over how %s plays now\n(%s %.4f against its own play, %s, %.4f)\n\n",
		100*r.Worth, r.Side, best, r.Best.Value, r.Own.Name, r.Own.Value)
	writePlays(e, r.Solved)
	fmt.Fprintf(w, "\nbest against worst: %.1f points of P(goal) (the worst play often gives up at once)\n", 100*r.Gap)
	if r.Bound != nil {
		fmt.Fprintf(w, "the best play was not proved best: no play passes %.4f, so the optimum lies between %.4f and %.4f\n",
			*r.Bound, r.Best.Value, *r.Bound)
	}
	writeAdvice(e, r.Advice)
}

// writePlays prints the table of plays: best, each shipped policy (the
// side's own marked), worst.
func writePlays(e *env, s markov.Solved) {
	var rows [][]string
	var named []string // long names of the best and worst play, printed below the table
	add := func(label string, v markov.PolicyValue) {
		p := fmt.Sprintf("%.6f", v.Value)
		if v.HalfWidth > 0 {
			p = fmt.Sprintf("%.4f ± %.4f", v.Value, v.HalfWidth)
		}
		rounds := "-"
		if v.Answer.MeanRounds > 0 {
			rounds = fmt.Sprintf("%.2f", v.Answer.MeanRounds)
		}
		rows = append(rows, []string{label, p, rounds})
	}
	side := func(label string, v markov.PolicyValue) {
		if len(v.Name) > 24 {
			named = append(named, fmt.Sprintf("%s play: %s", label, v.Name))
			add(label, v)
			return
		}
		add(label+": "+v.Name, v)
	}
	side("best", s.Best)
	for _, v := range s.Policies {
		label := "policy " + v.Name
		if v.Name == s.Own.Name {
			label += " (own)"
		}
		add(label, v)
	}
	if !slices.ContainsFunc(s.Policies, func(v markov.PolicyValue) bool { return v.Name == s.Own.Name }) && s.Own.Name != "" {
		side("own", s.Own)
	}
	side("worst", s.Worst)
	writeTable(e, []string{"play", "P(goal)", "mean rounds"}, rows)
	for _, n := range named {
		fmt.Fprintf(e.stdout, "  %s\n", n)
	}
}

// writeAdvice prints the best play's decisions, one figure a line: what
// the line is worth a game (markov.Advice.Worth), largest first.
func writeAdvice(e *env, advice []markov.Advice) {
	w := e.stdout
	if len(advice) == 0 {
		fmt.Fprintf(w, "no decision changes the odds\n")
		return
	}
	if advice[0].Reach > 0 {
		fmt.Fprintf(w, "\nbest play, the decisions worth most first (worth: P(goal) a game loses, to first order,\n"+
			"by taking the alternative every time play comes there; visits: times a game comes there):\n")
	} else {
		fmt.Fprintf(w, "\nbest play, the decisions worth most first (worth: P(goal) lost, as measured,\n"+
			"by taking the alternative instead):\n")
	}
	for _, a := range advice {
		line := fmt.Sprintf("  - %s: %s rather than %s: worth %.4f a game", a.When, a.Do, a.Else, a.Worth)
		switch {
		case a.Reach > 0 && a.States > 1:
			line += fmt.Sprintf(" (%s over %d situations)", visits(a.Reach), a.States)
		case a.Reach > 0:
			line += fmt.Sprintf(" (%s)", visits(a.Reach))
		}
		fmt.Fprintln(w, line)
	}
}

// checkTies refuses a --ties the solvers do not know.
func checkTies(ties string) error {
	if ties != "" && !slices.Contains(markov.TiesNames, ties) {
		return usagef("--ties %s: allowed %s", clip(ties), listSome(markov.TiesNames))
	}
	return nil
}

// visits says how often a game comes to an advice line's situations.
func visits(v float64) string {
	if s := fmt.Sprintf("%.3g", v); s != "1" {
		return s + " visits a game"
	}
	return "1 visit a game"
}

// solvedHow says how the values were found, and over how large a process.
func solvedHow(s markov.Solved) string {
	if s.Method == "exact" {
		return fmt.Sprintf("solved exactly over %d states and %d choices", s.States, s.Choices)
	}
	if over, ok := strings.CutPrefix(s.Method, "exact: "); ok {
		return fmt.Sprintf("solved exactly over %d states and %d choices (options: %s)", s.States, s.Choices, over)
	}
	return "found by " + s.Method
}

// checkOutcomes refuses outcome names the scenario does not have, naming
// the nearest one and the ones it has.
func checkOutcomes(flag string, names, cats []string) error {
	for _, n := range names {
		if slices.Contains(cats, n) {
			continue
		}
		hint := ""
		if near := nearest(n, cats); near != "" {
			hint = fmt.Sprintf("; did you mean %s?", near)
		}
		return usagef("%s %s: the scenario has no outcome %q%s (its outcomes: %s)", flag, clip(n), clip(n), hint, listSome(cats))
	}
	return nil
}
