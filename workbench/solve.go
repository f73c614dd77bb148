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
	var goal, side string
	fs := newFlags(e, "solve", "MECHANIC [--goal OUTCOME,...] [--side NAME] [flags]",
		"How much decisions matter: the exact odds of the goal under the best play, under\n"+
			"each shipped policy and under the worst play (the one that makes the goal least\n"+
			"likely), and the gap between best and worst, one number to compare across house\n"+
			"rules. Then the best play's decisions in words, the most consequential first.\n"+
			"One side decides (--side; the mechanic's first side by default); every other side\n"+
			"plays the scenario's own policies. The goal is to end in one of the named outcomes\n"+
			"(--goal; the deciding side's win by default).",
		`stakes solve actiontest`, `stakes solve actiontest --goal clean`, `stakes solve challenge --json`,
		`stakes solve contest --side Detective --set cast.1.plot_points=3`, `stakes solve edge --side pursuer`,
		`stakes solve dramadeck`)
	c.register(fs.FlagSet, 1, jsonFlag|setFlag|fileFlag)
	fs.StringVar(&goal, "goal", "", "the outcomes the deciding side plays for, by name: `a,b` (default: the mechanic's)")
	fs.StringVar(&side, "side", "", "who decides, by the mechanic's `NAME` for a side, party or character (default: the first)")
	mech, err := c.parseMechanic(fs, args, "solve")
	if err != nil {
		return err
	}
	sc, _, err := e.scenarioFor(mech, &c)
	if err != nil {
		return err
	}
	g := goalOf(goal, side)
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
func goalOf(goal, side string) markov.Goal {
	g := markov.Goal{Side: side}
	if goal != "" {
		for _, o := range strings.Split(goal, ",") {
			g.Outcomes = append(g.Outcomes, strings.TrimSpace(o))
		}
	}
	return g
}

// writeSolved prints the value of decisions as a table and the advice.
func writeSolved(e *env, r solveResult) {
	w := e.stdout
	fmt.Fprintf(w, "%s: %s\n", r.Mechanic, r.Scenario)
	goal := strings.Join(r.Goal.Outcomes, " or ")
	fmt.Fprintf(w, "goal: end in %s, decided by %s\n%s\n\n", goal, r.Side, solvedHow(r.Solved))
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
	side("best", r.Best)
	for _, v := range r.Policies {
		add("policy "+v.Name, v)
	}
	side("worst", r.Worst)
	writeTable(e, []string{"play", "P(goal)", "mean rounds"}, rows)
	for _, n := range named {
		fmt.Fprintf(w, "  %s\n", n)
	}
	fmt.Fprintf(w, "\nvalue of decisions (best - worst): %.4f, %.1f points of P(goal)\n", r.Gap, 100*r.Gap)
	if len(r.Advice) == 0 {
		fmt.Fprintf(w, "no decision changes the odds\n")
		return
	}
	fmt.Fprintf(w, "\nbest play, most consequential first (gain: P(goal) over the worst choice there;\nreached: times a game comes to it under best play, where the solver follows play):\n")
	for _, a := range r.Advice {
		line := fmt.Sprintf("  - %s: %s", a.When, a.Do)
		if a.Else != "" {
			line += " [else " + a.Else + "]"
		}
		line += fmt.Sprintf("; gain %.4f", a.Gain)
		if a.Reach > 0 {
			line += fmt.Sprintf(", reached %.3g", a.Reach)
		}
		fmt.Fprintln(w, line)
	}
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
