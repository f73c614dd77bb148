package workbench

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/stakesrpg/stakes/sim"
	"github.com/stakesrpg/stakes/sim/markov"
)

// sweepResult is a sweep as the command prints and encodes it: sim's
// report of every cell, where the base scenario came from, and each
// cell's exact answer where the mechanic has one.
//
// JSON: mechanic, scenario, file, changed, then sim's axes, cells and
// partial, then exact: one entry a cell, in the cells' order, holding the
// cell's axis values and its exact answer or why there is none.
type sweepResult struct {
	Mechanic string   `json:"mechanic"`
	Scenario string   `json:"scenario"`
	File     string   `json:"file,omitempty"`
	Changed  []string `json:"changed,omitempty"`
	// Inert names the settings that cannot change any number of the base
	// scenario, as the mechanic says.
	Inert []string `json:"inert,omitempty"`
	*sim.SweepReport
	Exact []cellExact `json:"exact"`
	// Solve is each cell's value of decisions, with --solve.
	Solve []cellSolve `json:"solve,omitempty"`
}

// UnmarshalJSON reads a sweep as it is encoded: the fields of its own, and
// sim's sweep beside them, which sim reads itself (its lists bounded).
func (sr *sweepResult) UnmarshalJSON(b []byte) error {
	var own struct {
		Mechanic string      `json:"mechanic"`
		Scenario string      `json:"scenario"`
		File     string      `json:"file"`
		Changed  []string    `json:"changed"`
		Inert    []string    `json:"inert"`
		Exact    []cellExact `json:"exact"`
		Solve    []cellSolve `json:"solve"`
	}
	if err := json.Unmarshal(b, &own); err != nil {
		return err
	}
	rep := new(sim.SweepReport)
	if err := json.Unmarshal(b, rep); err != nil {
		return err
	}
	*sr = sweepResult{Mechanic: own.Mechanic, Scenario: own.Scenario, File: own.File, Changed: own.Changed,
		Inert: own.Inert, SweepReport: rep, Exact: own.Exact, Solve: own.Solve}
	return nil
}

// cellSolve is one sweep cell's value of decisions: the goal's probability
// under the best play, the side's own play and the worst play; what
// playing well is worth over the own play, and the gap between best and
// worst; how the best was found, and a bound where it is not proved best.
type cellSolve struct {
	Values  []string `json:"values"`
	Best    float64  `json:"best"`
	Own     float64  `json:"own"`
	Worth   float64  `json:"worth"`
	Worst   float64  `json:"worst"`
	Gap     float64  `json:"gap"`
	Bound   *float64 `json:"bound,omitempty"`
	Method  string   `json:"method,omitempty"`
	NoSolve string   `json:"no_solve,omitempty"`
}

// cellExact is one sweep cell's exact answer.
type cellExact struct {
	Values  []string   `json:"values"`
	Exact   *exactView `json:"exact,omitempty"`
	NoExact string     `json:"no_exact,omitempty"`
}

func cmdSweep(e *env, args []string) error {
	var c common
	var axes multi
	var outcomes, goal, side, ties string
	var solve bool
	fs := newFlags(e, "sweep", "MECHANIC --axis key=values ... [flags]",
		"Runs one report per cell of a grid over scenario settings and prints a table: the\n"+
			"axis values, then for each outcome its sampled odds, their 95% interval and the\n"+
			"exact odds where the mechanic has them (\"-\" where it has none), then the mean\n"+
			"rounds. Outcomes that are zero in every cell are left out; --outcomes chooses.\n"+
			"An axis is key=lo..hi (whole numbers) or key=v1,v2,v3 (any values).\n"+
			"--csv and --json keep every number: CSV adds <outcome>_exact and exact_mean_rounds\n"+
			"columns after sim's, JSON an \"exact\" list with one entry a cell.\n"+
			"--plot draws the chosen outcomes' odds against the first axis: sampled points\n"+
			"with their 95% intervals and the exact line; a second axis gives one line per value.\n"+
			"--solve adds the value of decisions per cell (as stakes solve): what playing well\n"+
			"is worth over the side's own play, the goal's odds under the best, the own and\n"+
			"the worst play, and the gap between best and worst.",
		`stakes sweep edge --axis rules.start_edge=3..8`,
		`stakes sweep edge --axis rules.start_edge=3..8 --plot edge.png`,
		`stakes sweep actiontest --axis pool=1..6 --axis difficulty=1,2,3 --outcomes clean,hurt,tests`,
		`stakes sweep actiontest --axis pool=2..4 --csv`,
		`stakes sweep actiontest --axis pool=1..4 --solve`)
	c.register(fs.FlagSet, 20000, runFlags|outFlags|plotFlag|setFlag|fileFlag|shardFlag)
	fs.Var(&axes, "axis", "a grid axis: `key=lo..hi` or key=v1,v2,... (repeatable)")
	fs.StringVar(&outcomes, "outcomes", "", "the outcomes and metrics the table and plot show, by name: `a,b` (default: the outcomes not zero everywhere, and rounds)")
	fs.Lookup("plot").Usage = "also draw the outcomes' odds against the first axis to `FILE` (.png or .svg)"
	fs.BoolVar(&solve, "solve", false, "add each cell's value of decisions: what playing well is worth, best, own and worst play (see stakes solve)")
	fs.StringVar(&goal, "goal", "", "with --solve, the outcomes the deciding side plays for: `a,b` (default: the mechanic's)")
	fs.StringVar(&side, "side", "", "with --solve, who decides, by the mechanic's `NAME` (default: the first side)")
	fs.StringVar(&ties, "ties", "", "with --solve, among equally good choices the best play takes: cheapest (the default) or first")
	mech, err := c.parseMechanic(fs, args, "sweep")
	if err != nil {
		return err
	}
	if err := checkTies(ties); err != nil {
		return err
	}
	if !solve && (goal != "" || side != "" || ties != "") {
		return usagef("sweep: --goal, --side and --ties go with --solve")
	}
	if solve && c.shard != "" {
		return usagef("sweep: --solve runs once over the whole sweep; leave out --shard")
	}
	base, simAxes, cells, err := checkSweep(e, mech, &c, axes, outcomes)
	if err != nil {
		return err
	}
	build := func(cell sim.Cell) (sim.Spec, error) {
		sc, label, err := cellScenario(e, mech, c, simAxes, cell)
		if err != nil {
			return sim.Spec{}, err
		}
		return sc.spec(label)
	}
	p := newProgress(e, "sweep")
	opts, err := c.runOptions(p)
	if err != nil {
		p.finish()
		return err
	}
	rep, err := sim.Sweep(e.ctx, simAxes, build, opts)
	p.finish()
	if err != nil {
		return err
	}
	for i := range rep.Cells {
		stripRunEnv(rep.Cells[i].Report, c.zeroTime)
	}
	sr := sweepResult{Mechanic: mech, Scenario: base.describe(), File: c.file,
		Changed: append([]string(nil), c.sets...), SweepReport: rep, Inert: base.sim().Describe().Inert}
	sr.Exact = sweepExact(e, mech, c, rep)
	if solve {
		sr.Solve = sweepSolve(e, mech, c, rep, goalOf(goal, side, ties))
	}
	return emitSweep(e, &c, sr, cells, outcomes)
}

// checkSweep checks a sweep before anything runs: the axes, the base
// scenario, the chosen columns and whether --plot can draw them. It
// returns the base scenario, the axes and the number of cells.
func checkSweep(e *env, mech string, c *common, axes []string, outcomes string) (scenario, []sim.Axis, int, error) {
	if len(axes) == 0 {
		return nil, nil, 0, usagef("sweep: give at least one --axis, such as --axis rules.start_edge=3..8")
	}
	simAxes, cells, err := parseAxes(axes)
	if err != nil {
		return nil, nil, 0, err
	}
	base, label, err := e.scenarioFor(mech, c)
	if err != nil {
		return nil, nil, 0, err
	}
	spec, err := base.spec(label)
	if err != nil {
		return nil, nil, 0, err
	}
	cols, err := chooseColumns(outcomes, spec.Categories, spec.Metrics, nil)
	if err != nil {
		return nil, nil, 0, err
	}
	if c.plot != "" {
		// Whether the plot can tell its lines apart, as far as it is known
		// before the run: without --outcomes, the outcomes drawn are those
		// the run finds not zero, at least one.
		n := len(cols.cats)
		if outcomes == "" {
			n = 1
		}
		if err := plotFits(n, simAxes); err != nil {
			return nil, nil, 0, err
		}
	}
	return base, simAxes, cells, nil
}

// parseAxes reads the --axis flags and counts the cells of their grid.
func parseAxes(axes []string) ([]sim.Axis, int, error) {
	var simAxes []sim.Axis
	cells := 1
	for _, a := range axes {
		ax, err := parseAxis(a)
		if err != nil {
			return nil, 0, err
		}
		cells *= len(ax.Values)
		if cells > sim.MaxCells {
			return nil, 0, usagef("sweep: more than %d cells; narrow the axes", sim.MaxCells)
		}
		simAxes = append(simAxes, ax)
	}
	return simAxes, cells, nil
}

// cellScenario returns the scenario of one cell: the base scenario with
// the cell's axis values set after the --set ones.
func cellScenario(e *env, mech string, c common, axes []sim.Axis, cell sim.Cell) (scenario, string, error) {
	c.sets = slices.Clone(c.sets)
	for _, ax := range axes {
		c.sets = append(c.sets, ax.Name+"="+cell[ax.Name])
	}
	return e.scenarioFor(mech, &c)
}

// sweepExact computes every cell's exact answer through the scenario's
// Exact. An interrupted sweep computes none.
func sweepExact(e *env, mech string, c common, rep *sim.SweepReport) []cellExact {
	out := make([]cellExact, len(rep.Cells))
	why := forCells(e, mech, c, rep, func(i int, sc scenario) (err error) {
		out[i].Exact, err = sc.exact(e.ctx)
		return err
	})
	for i, cell := range rep.Cells {
		out[i].Values, out[i].NoExact = slices.Clone(cell.Values), why[i]
	}
	return out
}

// sweepSolve computes every cell's value of decisions through the
// scenario's Solve. An interrupted sweep computes none.
func sweepSolve(e *env, mech string, c common, rep *sim.SweepReport, goal markov.Goal) []cellSolve {
	out := make([]cellSolve, len(rep.Cells))
	why := forCells(e, mech, c, rep, func(i int, sc scenario) error {
		sv, err := sc.solve(e.ctx, goal)
		out[i] = cellSolve{Best: sv.Best.Value, Own: sv.Own.Value, Worth: sv.Worth, Worst: sv.Worst.Value,
			Gap: sv.Gap, Bound: sv.Bound, Method: sv.Method}
		return err
	})
	for i, cell := range rep.Cells {
		out[i].Values, out[i].NoSolve = slices.Clone(cell.Values), why[i]
	}
	return out
}

// forCells calls do with the scenario of each cell of a sweep, in order,
// and returns why a cell has no answer: the sweep was interrupted (then do
// is called for none), its scenario could not be made, or do failed.
func forCells(e *env, mech string, c common, rep *sim.SweepReport, do func(i int, sc scenario) error) []string {
	why := make([]string, len(rep.Cells))
	for i, cell := range rep.Cells {
		if rep.Partial || e.ctx.Err() != nil {
			why[i] = "not computed: the sweep was interrupted"
			continue
		}
		cl := sim.Cell{}
		for j, ax := range rep.Axes {
			cl[ax.Name] = cell.Values[j]
		}
		sc, _, err := cellScenario(e, mech, c, rep.Axes, cl)
		if err == nil {
			err = do(i, sc)
		}
		if err != nil {
			why[i] = err.Error()
		}
	}
	return why
}

// writeSweepSolve prints the value of decisions of every cell: what
// playing well is worth over the side's own play first, then best, own,
// worst and the gap; a bound where a cell's best is only the best found,
// and how each cell was solved where the cells differ.
func writeSweepSolve(e *env, sr sweepResult) {
	if len(sr.Solve) == 0 {
		return
	}
	fmt.Fprintf(e.stdout, "\nvalue of decisions per cell (worth: P(goal) of the best play over the side's own;\n"+
		"then P(goal) under the best, the own and the worst play, and the gap best - worst):\n")
	var header []string
	for _, a := range sr.Axes {
		header = append(header, a.Name)
	}
	header = append(header, "worth", "best", "own", "worst", "gap")
	bounded, methods := false, map[string]bool{}
	for _, c := range sr.Solve {
		bounded = bounded || c.Bound != nil
		if c.NoSolve == "" {
			methods[c.Method] = true
		}
	}
	if bounded {
		header = append(header, "bound")
	}
	if len(methods) > 1 {
		header = append(header, "solved")
	}
	var rows [][]string
	for _, c := range sr.Solve {
		rows = append(rows, solveRow(c, bounded, len(methods) > 1))
	}
	writeTable(e, header, rows)
}

// solveRow is one cell's row of writeSweepSolve's table.
func solveRow(c cellSolve, bounded, method bool) []string {
	row := slices.Clone(c.Values)
	if c.NoSolve != "" {
		return append(row, "-", "-", "-", "-", "- ("+clip(c.NoSolve)+")")
	}
	row = append(row, fmt.Sprintf("%+.4f", c.Worth), fmt.Sprintf("%.4f", c.Best), fmt.Sprintf("%.4f", c.Own),
		fmt.Sprintf("%.4f", c.Worst), fmt.Sprintf("%.4f", c.Gap))
	if bounded {
		b := "-"
		if c.Bound != nil {
			b = fmt.Sprintf("%.4f", *c.Bound)
		}
		row = append(row, b)
	}
	if method {
		row = append(row, c.Method)
	}
	return row
}

// emitSweep prints a sweep of cells cells as --json, --csv or a table of
// the chosen outcomes, and draws it with --plot.
func emitSweep(e *env, c *common, sr sweepResult, cells int, outcomes string) error {
	var err error
	switch {
	case c.json:
		err = writeJSON(e.stdout, sr)
	case c.csv:
		err = writeSweepCSV(e, sr)
	default:
		err = writeSweepText(e, sr, outcomes)
		if err == nil {
			writeSweepSolve(e, sr)
		}
		if err == nil && sr.Partial {
			fmt.Fprintf(e.stdout, "PARTIAL: %d of %d cells shown, the last one cut short\n", len(sr.Cells), cells)
		}
	}
	if err == nil && c.plot != "" && !sr.Partial && len(sr.Cells) > 0 {
		err = plotSweep(c.plot, sr, outcomes)
	}
	if err == nil && sr.Partial {
		err = errors.New("the sweep above is partial")
	}
	return err
}

// writeSweepCSV writes sim's sweep table with the exact columns after it:
// <outcome>_exact for each outcome and exact_mean_rounds, empty where a
// cell has no exact answer.
func writeSweepCSV(e *env, sr sweepResult) error {
	w := csv.NewWriter(e.stdout)
	header := sr.Header()
	var cats []string
	if len(sr.Cells) > 0 {
		for _, cat := range sr.Cells[0].Report.Categories {
			cats = append(cats, cat.Name)
			header = append(header, cat.Name+"_exact")
		}
		header = append(header, "exact_mean_rounds")
	}
	_ = w.Write(header)
	for i, row := range sr.Table() {
		ex := sr.exactAt(i)
		for j := range cats {
			row = append(row, formatExact(ex, func(x *exactView) (float64, bool) { return exactP(x, j) }))
		}
		row = append(row, formatExact(ex, func(x *exactView) (float64, bool) { return x.MeanRounds, x.MeanRounds != 0 }))
		_ = w.Write(row)
	}
	w.Flush()
	return w.Error()
}

func formatExact(ex *exactView, get func(*exactView) (float64, bool)) string {
	if ex == nil {
		return ""
	}
	v, ok := get(ex)
	if !ok {
		return ""
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// exactAt returns cell i's exact answer, or nil.
func (sr sweepResult) exactAt(i int) *exactView {
	if i < len(sr.Exact) {
		return sr.Exact[i].Exact
	}
	return nil
}

// exactP returns the exact probability of outcome j, if the answer has it.
func exactP(ex *exactView, j int) (float64, bool) {
	if ex == nil || j >= len(ex.P) {
		return 0, false
	}
	return ex.P[j], true
}

// columns are the outcomes and metrics a table shows, as indices.
type columns struct{ cats, mets []int }

// chooseColumns reads --outcomes, names of outcomes or metrics separated by
// commas. Empty, it chooses every outcome that is not zero in every cell
// (sampled and exact; all of them when zero is nil) and the first metric.
func chooseColumns(flag string, cats, mets []string, zero func(j int) bool) (columns, error) {
	var cols columns
	if flag == "" {
		for j := range cats {
			if zero == nil || !zero(j) {
				cols.cats = append(cols.cats, j)
			}
		}
		if len(mets) > 0 {
			cols.mets = []int{0}
		}
		return cols, nil
	}
	for _, name := range strings.Split(flag, ",") {
		name = strings.TrimSpace(name)
		if j := slices.Index(cats, name); j >= 0 {
			cols.cats = append(cols.cats, j)
		} else if j := slices.Index(mets, name); j >= 0 {
			cols.mets = append(cols.mets, j)
		} else {
			hint := ""
			if near := nearest(name, append(slices.Clone(cats), mets...)); near != "" {
				hint = fmt.Sprintf("did you mean %q? ", near)
			}
			return cols, usagef("--outcomes: no outcome or metric %q; %sthe outcomes are %s", clip(name), hint, listSome(cats))
		}
	}
	return cols, nil
}

// count writes n things, "1 outcome" or "3 outcomes".
func count(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// listSome names the first few names and how many there are in all.
func listSome(names []string) string {
	const few = 6
	if len(names) <= few {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s, ... (%d in all)", strings.Join(names[:few], ", "), len(names))
}

// zeroEverywhere reports whether outcome j never happened in any cell and
// has exact probability 0 (or no exact answer) in every cell.
func (sr sweepResult) zeroEverywhere(j int) bool {
	for i, cell := range sr.Cells {
		if cell.Report.Categories[j].Count > 0 {
			return false
		}
		if p, ok := exactP(sr.exactAt(i), j); ok && p > 0 {
			return false
		}
	}
	return true
}

// writeSweepText prints the designer's table of a sweep.
func writeSweepText(e *env, sr sweepResult, outcomes string) error {
	if len(sr.Cells) == 0 {
		fmt.Fprintf(e.stdout, "%s: %s\n  no cells finished\n", sr.Mechanic, sr.Scenario)
		return nil
	}
	first := sr.Cells[0].Report
	cats, mets := names(first)
	cols, err := chooseColumns(outcomes, cats, mets, sr.zeroEverywhere)
	if err != nil {
		return err
	}
	hasExact := slices.ContainsFunc(sr.Exact, func(x cellExact) bool { return x.Exact != nil })
	writeSweepHeader(e, sr, first, hasExact)
	header, rows, outside := sweepRows(sr, cols, hasExact)
	writeTable(e, header, rows)
	if outside > 0 {
		fmt.Fprintf(e.stdout, "  * exact value outside the sampled 95%% interval (%d of %d; about 1 in 20 is expected, and since every cell plays the same random streams, misses tend to come together)\n",
			outside, len(sr.Cells)*len(cols.cats))
	}
	if hasExact || len(sr.Exact) > 0 {
		writeNoExactReasons(e, sr)
	}
	for _, ax := range sr.Axes {
		if slices.Contains(sr.Inert, ax.Name) {
			fmt.Fprintf(e.stdout, "  NOTE: %s does not act in this scenario: every difference across it is chance\n", ax.Name)
		}
	}
	writeInert(e.stdout, sr.Inert)
	if outcomes == "" {
		var hidden []string
		for j := range cats {
			if !slices.Contains(cols.cats, j) {
				hidden = append(hidden, cats[j])
			}
		}
		if len(hidden) > 0 {
			fmt.Fprintf(e.stdout, "  (hidden: %s zero in every cell: %s)\n", count(len(hidden), "outcome"), listSome(hidden))
		}
	}
	return nil
}

func names(r *sim.Report) (cats, mets []string) {
	for _, c := range r.Categories {
		cats = append(cats, c.Name)
	}
	for _, m := range r.Metrics {
		mets = append(mets, m.Name)
	}
	return cats, mets
}

func writeSweepHeader(e *env, sr sweepResult, first *sim.Report, hasExact bool) {
	w := e.stdout
	fmt.Fprintf(w, "%s: %s\n", sr.Mechanic, sr.Scenario)
	res := result{File: sr.File, Changed: sr.Changed}
	var swept []string
	for _, a := range sr.Axes {
		swept = append(swept, a.Name+"="+axisRange(a))
	}
	fmt.Fprintf(w, "  scenario: %s; swept: %s\n", res.source(), strings.Join(swept, " "))
	pv := first.Provenance
	fmt.Fprintf(w, "  %d trials a cell, seed %d, generator %s (the same random streams in every cell)\n",
		pv.Planned, pv.Seed, pv.Generator)
	what := "  each outcome: sampled odds and their 95% interval"
	if hasExact {
		what += `, then the exact odds ("-": no exact answer for that cell)`
	}
	fmt.Fprintln(w, what)
}

// axisRange writes an axis's values as lo..hi when they are consecutive
// whole numbers, else as a list.
func axisRange(a sim.Axis) string {
	lo, err1 := strconv.Atoi(a.Values[0])
	hi, err2 := strconv.Atoi(a.Values[len(a.Values)-1])
	if err1 == nil && err2 == nil && len(a.Values) > 2 && hi-lo+1 == len(a.Values) {
		return fmt.Sprintf("%d..%d", lo, hi)
	}
	return strings.Join(a.Values, ",")
}

// sweepRows builds the table: axis values, each chosen outcome's odds,
// interval and exact odds, each chosen metric's mean, half-width and
// exact mean. It returns how many exact values lie outside their interval.
func sweepRows(sr sweepResult, cols columns, hasExact bool) (header []string, rows [][]string, outside int) {
	for _, a := range sr.Axes {
		header = append(header, a.Name)
	}
	first := sr.Cells[0].Report
	varied := slices.ContainsFunc(sr.Cells, func(c sim.SweepCell) bool { return c.Report.Trials != first.Trials })
	if varied {
		header = append(header, "trials")
	}
	for _, j := range cols.cats {
		header = append(header, first.Categories[j].Name, "95% interval")
		if hasExact {
			header = append(header, "exact")
		}
	}
	for _, j := range cols.mets {
		header = append(header, "mean "+first.Metrics[j].Name, "±95%")
		if hasExact && j == 0 {
			header = append(header, "exact")
		}
	}
	for i, cell := range sr.Cells {
		r := cell.Report
		row := slices.Clone(cell.Values)
		if varied {
			row = append(row, strconv.FormatInt(r.Trials, 10))
		}
		ex := sr.exactAt(i)
		for _, j := range cols.cats {
			c := r.Categories[j]
			row = append(row, fmt.Sprintf("%.4f", c.P), fmt.Sprintf("%.4f-%.4f", c.Lo, c.Hi))
			if hasExact {
				p, ok := exactP(ex, j)
				switch {
				case !ok:
					row = append(row, "-")
				case outsideInterval(p, c):
					row = append(row, fmt.Sprintf("%.4f*", p))
					outside++
				default:
					row = append(row, fmt.Sprintf("%.4f", p))
				}
			}
		}
		for _, j := range cols.mets {
			m := r.Metrics[j]
			row = append(row, fmt.Sprintf("%.2f", m.Mean), fmt.Sprintf("%.2f", 1.96*m.SE))
			if hasExact && j == 0 {
				if ex != nil && ex.MeanRounds != 0 {
					row = append(row, fmt.Sprintf("%.2f", ex.MeanRounds))
				} else {
					row = append(row, "-")
				}
			}
		}
		rows = append(rows, row)
	}
	return header, rows, outside
}

// writeTable prints rows under a header in aligned columns: text to the
// left, numbers to the right.
func writeTable(e *env, header []string, rows [][]string) {
	widths := make([]int, len(header))
	numeric := make([]bool, len(header))
	for i, h := range header {
		widths[i] = len(h)
		numeric[i] = true
	}
	for _, r := range rows {
		for i, v := range r {
			if i < len(widths) {
				widths[i] = max(widths[i], len(v))
				numeric[i] = numeric[i] && isNumber(v)
			}
		}
	}
	line := func(r []string) {
		var b strings.Builder
		for i, v := range r {
			if i > 0 {
				b.WriteString("  ")
			}
			if numeric[i] {
				fmt.Fprintf(&b, "%*s", widths[i], v)
			} else {
				fmt.Fprintf(&b, "%-*s", widths[i], v)
			}
		}
		fmt.Fprintln(e.stdout, strings.TrimRight(b.String(), " "))
	}
	line(header)
	for _, r := range rows {
		line(r)
	}
}

// isNumber reports whether a table cell reads as a number (or a range or
// a marked number, or "-" for none).
func isNumber(s string) bool {
	if s == "-" {
		return true
	}
	s = strings.TrimSuffix(s, "*")
	if lo, hi, ok := strings.Cut(s, "-"); ok && lo != "" {
		return isNumber(lo) && isNumber(hi)
	}
	_, err := strconv.ParseFloat(s, 64)
	return err == nil
}

// parseAxis reads key=lo..hi or key=v1,v2.
func parseAxis(s string) (sim.Axis, error) {
	key, vals, ok := strings.Cut(s, "=")
	if !ok || key == "" || vals == "" {
		return sim.Axis{}, usagef("--axis %q: want key=lo..hi or key=v1,v2", clip(s))
	}
	if lo, hi, ok := strings.Cut(vals, ".."); ok {
		a, err1 := strconv.Atoi(lo)
		b, err2 := strconv.Atoi(hi)
		if err1 != nil || err2 != nil || b < a || b-a >= sim.MaxCells {
			return sim.Axis{}, usagef("--axis %q: lo..hi must be whole numbers with lo <= hi, at most %d values", clip(s), sim.MaxCells)
		}
		return sim.IntAxis(key, a, b), nil
	}
	if !strings.Contains(vals, ",") {
		if hint := rangeHint(vals); hint != "" {
			return sim.Axis{}, usagef("--axis %q: %q is one value%s, or list values as a,b,c", clip(s), clip(vals), hint)
		}
	}
	return sim.Axis{Name: key, Values: strings.Split(vals, ",")}, nil
}

// outsideInterval reports whether an exact probability lies outside a
// sampled interval, beyond the rounding of the exact sum.
func outsideInterval(p float64, c sim.Category) bool {
	const slack = 1e-9
	return p < c.Lo-slack || p > c.Hi+slack
}

// writeNoExactReasons says, once per distinct reason, why cells show "-"
// for the exact odds, and which cells.
func writeNoExactReasons(e *env, sr sweepResult) {
	var reasons []string
	cells := map[string][]string{}
	for _, x := range sr.Exact {
		if x.Exact != nil || x.NoExact == "" {
			continue
		}
		if _, ok := cells[x.NoExact]; !ok {
			reasons = append(reasons, x.NoExact)
		}
		cells[x.NoExact] = append(cells[x.NoExact], strings.Join(x.Values, ","))
	}
	for _, why := range reasons {
		fmt.Fprintf(e.stdout, "  - no exact answer for %s (%s): %s\n", count(len(cells[why]), "cell"), listSome(cells[why]), oneLine(why))
	}
}
