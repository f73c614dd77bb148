package workbench

import (
	crand "crypto/rand"
	"encoding/binary"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim"
	"github.com/stakesrpg/stakes/sim/markov"
)

// maxRolledDice bounds the dice one roll command rolls in all (dice in the
// pool times --times), so that the output stays within memory.
const maxRolledDice = 1_000_000

// maxTimes bounds --times: as many rolls as the dice bound allows, one die
// a roll.
const maxTimes = maxRolledDice

// cmdRoll rolls dice notation and shows every die.
func cmdRoll(e *env, args []string) error {
	fs := newFlags(e, "roll", "NOTATION [flags]",
		"Rolls the dice and shows every die, the total and the two highest (1s excluded).\n"+
			"Dice expressions (4d6kh3, 3d6!, 8d10>=7, 4dF, (2d6+3)*2; see go doc dice) show\n"+
			"each die as a chat bot does. Without --seed the seed is random and printed,\n"+
			"so a roll can be repeated.",
		`stakes roll 3d6`, `stakes roll "d12 d8 d6" --seed 7`, `stakes roll 4d6+2 --times 6 --json`,
		`stakes roll 4d6kh3 --times 6`)
	var seed uint64
	var times int
	var asJSON bool
	fs.Uint64Var(&seed, "seed", 0, "seed (0 = random, printed)")
	fs.IntVar(&times, "times", 1, "how many times to roll")
	fs.BoolVar(&asJSON, "json", false, "print JSON")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return usagef("roll: give dice notation, such as 3d6 or \"d12 d6\"")
	}
	if times < 1 || times > maxTimes {
		return usagef("roll: --times %d: allowed 1..%d", times, maxTimes)
	}
	// A plain pool rolls as it always has; anything else is an expression.
	notation := strings.Join(pos, " ")
	pool, err := dice.ParsePool(notation)
	var expr *dice.Expr
	count := pool.Len()
	if err != nil {
		if expr, err = dice.ParseExpr(notation); err != nil {
			return usageError{err.Error()}
		}
		count = expr.Dice()
	}
	if n := int64(count) * int64(times); n > maxRolledDice {
		return usagef("roll: %d dice %d times is %d dice; at most %d in one command", count, times, n, maxRolledDice)
	}
	if seed == 0 {
		var b [8]byte
		if _, err := crand.Read(b[:]); err != nil {
			return err
		}
		seed = binary.LittleEndian.Uint64(b[:]) | 1
	}
	r := dice.NewSeeded(seed)
	if expr != nil {
		return rollExpr(e, expr, r, seed, times, asJSON)
	}
	type rollOut struct {
		Faces      []int `json:"faces"`
		Total      int   `json:"total"`
		TwoHighest int   `json:"two_highest_no_ones"`
	}
	var outs []rollOut
	for i := 0; i < times; i++ {
		if err := e.ctx.Err(); err != nil {
			return errors.New("interrupted")
		}
		f := pool.Roll(r, nil)
		outs = append(outs, rollOut{f, pool.Total(f), dice.SumHighest(f, 2, dice.Faces(1))})
	}
	if asJSON {
		return writeJSON(e.stdout, map[string]any{"pool": pool.String(), "seed": seed, "rolls": outs})
	}
	fmt.Fprintf(e.stdout, "%s (seed %d)\n", pool, seed)
	ds := pool.Dice()
	for _, o := range outs {
		var parts []string
		for i, f := range o.Faces {
			parts = append(parts, fmt.Sprintf("%v:%d", ds[i], f))
		}
		mod := ""
		if m := pool.Modifier(); m != 0 {
			mod = fmt.Sprintf(" %+d", m)
		}
		fmt.Fprintf(e.stdout, "  %s%s  total %d  two highest (no 1s) %d\n", strings.Join(parts, " "), mod, o.Total, o.TwoHighest)
	}
	return nil
}

// scenarioFor returns the mechanic's scenario: the built-in one, or the
// one in --file, with --set overrides applied.
func (e *env) scenarioFor(name string, c *common) (scenario, string, error) {
	mech, variant, _ := strings.Cut(name, "/")
	m, err := e.lookup(mech)
	if err != nil {
		return nil, "", err
	}
	sc := m.fresh()
	if variant != "" {
		if err := useBuiltin(sc, variant); err != nil {
			return nil, "", err
		}
	}
	name = mech
	label := name
	if c.file != "" {
		lf, err := e.loadScenarioFile(c.file)
		if err != nil {
			return nil, "", err
		}
		if lf.scenario.mechanic() != name {
			return nil, "", usagef("--file %s is a %s scenario, not %s", c.file, lf.scenario.mechanic(), name)
		}
		sc, label = lf.scenario, lf.name
		if lf.seed != nil && !c.seedSet {
			c.seed = *lf.seed
		}
		if lf.trials != nil && !c.trialsSet {
			c.trials = *lf.trials
		}
	}
	if err := applySets(sc, c.sets); err != nil {
		return nil, "", err
	}
	return sc, label, nil
}

// simulate runs one scenario and pairs it with its exact answer.
func simulate(e *env, sc scenario, name string, c *common) (result, error) {
	spec, err := sc.spec(name)
	if err != nil {
		return result{}, err
	}
	p := newProgress(e, name)
	opts, err := c.runOptions(p)
	if err != nil {
		p.finish()
		return result{}, err
	}
	rep, err := sim.Run(e.ctx, spec, opts)
	p.finish()
	if err != nil {
		return result{}, err
	}
	stripRunEnv(rep, c.zeroTime)
	res := result{Mechanic: sc.mechanic(), Scenario: sc.describe(), Report: rep,
		File: c.file, Changed: append([]string(nil), c.sets...), Inert: sc.sim().Describe().Inert}
	if rep.Provenance.Partial {
		// Interrupted: stop now rather than start an exact computation.
		res.NoExact = "not computed: the run was interrupted"
		return res, nil
	}
	if ex, err := sc.exact(e.ctx); err == nil {
		res.Exact = ex
	} else {
		res.NoExact = err.Error()
	}
	return res, nil
}

func emit(e *env, c *common, res result) error {
	switch {
	case c.json:
		if err := writeJSON(e.stdout, res); err != nil {
			return err
		}
	case c.csv:
		if err := res.Report.WriteCSV(e.stdout); err != nil {
			return err
		}
		if err := writeExactCSV(e.stdout, res.Exact, res.NoExact); err != nil {
			return err
		}
	default:
		writeText(e.stdout, res)
		if c.explain {
			fmt.Fprintln(e.stdout)
			cats, mets := names(res.Report)
			writeLegend(e.stdout, res.Mechanic, e.terms(res.Mechanic), cats, mets)
		}
	}
	// An interrupted run draws nothing: the user asked to stop.
	if c.plot != "" && !res.Report.Provenance.Partial {
		if err := plotResult(c.plot, res); err != nil {
			return err
		}
	}
	if c.html != "" && !res.Report.Provenance.Partial {
		if err := writeHTMLFile(e, c.html, res, "stakes "+strings.Join(quoteArgs(e.args), " ")); err != nil {
			return err
		}
	}
	if res.Report.Provenance.Partial {
		return errors.New("the report above is partial")
	}
	return nil
}

func cmdSim(e *env, args []string) error {
	var c common
	fs := newFlags(e, "sim", "MECHANIC [flags]",
		"Monte Carlo of a mechanic's built-in scenario, or one from --file, changed by --set.\n"+
			"Prints outcome odds with Wilson 95% intervals, metric means with standard errors,\n"+
			"and the exact answer beside the sampled one where the mechanic has one.",
		`stakes sim edge`, `stakes sim edge --set rules.start_edge=6 --trials 200000`,
		`stakes sim contest --json --seed 7`, `stakes sim challenge --plot rounds.png`,
		`stakes sim dramadeck --explain`)
	c.register(fs.FlagSet, 100000, runFlags|outFlags|plotFlag|setFlag|fileFlag|shardFlag|explainFlag|htmlFlag)
	mech, err := c.parseMechanic(fs, args, "sim")
	if err != nil {
		return err
	}
	return study(e, mech, &c)
}

// study simulates the named mechanic's scenario as c sets it, beside its
// exact answer, and prints the result: the work of sim and run.
func study(e *env, mech string, c *common) error {
	sc, label, err := e.scenarioFor(mech, c)
	if err != nil {
		return err
	}
	res, err := simulate(e, sc, label, c)
	if err != nil {
		return err
	}
	return emit(e, c, res)
}

func cmdRun(e *env, args []string) error {
	var c common
	fs := newFlags(e, "run", "FILE [flags]",
		"Runs a scenario file: JSON with // comments, naming the mechanic and laying settings\n"+
			"over its built-in scenario (see examples/scenarios). Seed and trials in the file are\n"+
			"used unless --seed or --trials is given.",
		`stakes run examples/scenarios/edge.jsonc`, `stakes run my.jsonc --json --trials 1000000`)
	c.register(fs.FlagSet, 100000, runFlags|outFlags|plotFlag|setFlag|shardFlag|explainFlag|htmlFlag)
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if err := c.check(fs); err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("run: give one scenario file")
	}
	lf, err := e.loadScenarioFile(pos[0])
	if err != nil {
		return err
	}
	c.file = pos[0]
	return study(e, lf.scenario.mechanic(), &c)
}

func cmdOdds(e *env, args []string) error {
	var c common
	fs := newFlags(e, "odds", "MECHANIC [flags]   |   stakes odds contest POOL vs STAKES   |   stakes odds EXPR [vs EXPR]",
		"Exact answers, no sampling: the mechanic's own exact tables for the scenario\n"+
			"(changed by --set or --file), and the scenario's exact outcome odds and rounds.\n"+
			"For contest, POOL vs STAKES (STAKES a pool or a number) gives the chance to beat\n"+
			"the stakes and to beat them by the Extraordinary margin. A dice expression\n"+
			"(3d6, 4d6kh3, 3d6!) gives its exact distribution; EXPR vs EXPR the chance\n"+
			"that each side is higher and the distribution of the margin.",
		`stakes odds actiontest --set pool=4 --set position=desperate`,
		`stakes odds contest "d10 d8 d6" vs "d8 d8"`, `stakes odds contest "d12 d6" vs 9`,
		`stakes odds edge --set rules.start_edge=6 --json`, `stakes odds challenge --plot challenge-odds.png`,
		`stakes odds 4d6kh3 --plot 4d6kh3.png`, `stakes odds 2d20kh1 vs d20+5`)
	c.register(fs.FlagSet, 1, jsonFlag|plotFlag|setFlag|fileFlag)
	fs.Lookup("plot").Usage = "also draw the exact odds to `FILE` (.png or .svg): a scenario's outcome odds and rounds, or an expression's distribution"
	fs.Var(&c.dialect, "dialect", "how to read dice notation where the references differ: `stakes` (> is strict), roll20 (> means at least) or avrae (see go doc dice.Dialect)")
	fs.StringVar(&c.view, "view", "equal", "what --plot draws of an expression: `equal`, at_least or at_most")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if err := c.check(fs); err != nil {
		return err
	}
	if len(pos) < 1 {
		return usagef("odds: name one mechanic (%s) or give dice notation", strings.Join(mechanicNames(e.mechs), ", "))
	}
	if _, ok := e.mechanic(pos[0]); !ok && looksLikeDice(pos[0]) {
		return exprOdds(e, pos, &c)
	}
	sc, _, err := e.scenarioFor(pos[0], &c)
	if err != nil {
		return err
	}
	if c.plot != "" && len(pos) > 1 {
		return usagef("odds: --plot draws a scenario's exact odds; give the mechanic alone (with --set or --file)")
	}
	if err := mechanicOdds(e, sc, pos[1:], c.json); err != nil {
		return err
	}
	return plotOdds(e, c.plot, sc)
}

// mechanicOdds prints a scenario's exact answer and the tables of its own
// it offers (sim.Tabler). With words after the mechanic's name it prints
// only the tables those words ask for.
func mechanicOdds(e *env, sc scenario, args []string, asJSON bool) error {
	var tables []sim.Table
	tabler, ok := sc.ptr().(sim.Tabler)
	switch {
	case ok:
		if err := sc.validate(); err != nil {
			return err
		}
		t, err := tabler.Tables(e.ctx, args)
		if errors.Is(err, sim.ErrInvalid) {
			return usageError{fmt.Sprintf("odds %s: %s", sc.mechanic(), strings.TrimPrefix(err.Error(), sim.ErrInvalid.Error()+": "))}
		}
		if err != nil {
			return err
		}
		tables = t
	case len(args) > 0:
		return usagef("odds %s: takes no words after the mechanic's name (got %q); change the scenario with --set", sc.mechanic(), clip(args[0]))
	}
	var ex *exactView
	var why string
	if len(args) == 0 {
		var err error
		ex, err = sc.exact(e.ctx)
		switch {
		case errors.Is(err, markov.ErrNoExact) && len(tables) > 0:
			why = err.Error()
		case err != nil:
			return err
		}
	}
	if asJSON {
		out := map[string]any{"mechanic": sc.mechanic(), "scenario": sc.describe()}
		if ex != nil {
			out["exact"] = ex
		}
		if why != "" {
			out["no_exact"] = why
		}
		if len(tables) > 0 {
			out["tables"] = tables
		}
		return writeJSON(e.stdout, out)
	}
	fmt.Fprintf(e.stdout, "%s: %s\n", sc.mechanic(), sc.describe())
	for _, t := range tables {
		writeSimTable(e, t)
	}
	if ex != nil {
		writeExact(e, sc, ex)
	}
	if why != "" {
		fmt.Fprintf(e.stdout, "  no exact answer for the whole scenario: %s\n", oneLine(why))
	}
	return nil
}

func writeExact(e *env, sc scenario, ex *exactView) {
	fmt.Fprintf(e.stdout, "  exact odds of the scenario's outcomes:\n")
	wd := 16
	for _, name := range ex.Categories {
		wd = max(wd, len(name))
	}
	for i, name := range ex.Categories {
		if i < len(ex.P) {
			fmt.Fprintf(e.stdout, "  %-*s %.6f\n", wd, name, ex.P[i])
		}
	}
	if ex.MeanRounds != 0 {
		fmt.Fprintf(e.stdout, "  %-*s %.4f\n", wd, "expected rounds", ex.MeanRounds)
	}
	if len(ex.Rounds) > 0 {
		cum := 0.0
		fmt.Fprintf(e.stdout, "  rounds  P(=k)     P(<=k)\n")
		for k, p := range ex.Rounds {
			cum += p
			if p < 1e-6 && cum > 0.999 {
				break
			}
			if p == 0 && cum == 0 {
				continue
			}
			fmt.Fprintf(e.stdout, "  %6d  %.6f  %.6f\n", k, p, cum)
		}
	}
}

func cmdMechanics(e *env, args []string) error {
	fs := newFlags(e, "mechanics", "[MECHANIC] [--json]",
		"Without a name, lists the mechanics. With one, lists every setting of its built-in\n"+
			"scenario (the key --set takes, the built-in value and what it means), then what each\n"+
			"outcome and metric of its reports means. With --json,\n"+
			"prints the built-in scenario as JSON, the \"scenario\" of a scenario file.",
		`stakes mechanics`, `stakes mechanics edge`, `stakes mechanics contest --json`)
	var asJSON bool
	fs.BoolVar(&asJSON, "json", false, "print the built-in scenario as JSON")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		for _, m := range e.mechs {
			sc := m.New()
			d := sc.Describe()
			fmt.Fprintf(e.stdout, "%-11s %s\n            built-in: %s\n", m.Name, d.Summary, d.Title)
			if b, ok := sc.Scenario().(sim.Builtins); ok {
				fmt.Fprintf(e.stdout, "            also: %s/%s\n", m.Name, strings.Join(b.BuiltinNames(), ", "+m.Name+"/"))
			}
		}
		return nil
	}
	m, err := e.lookup(pos[0])
	if err != nil {
		return err
	}
	if asJSON {
		return writeJSON(e.stdout, m.fresh().ptr())
	}
	sc := m.New()
	writeSettings(e.stdout, m.Name, settingsOf(sc.Scenario(), sc.Describe().Docs))
	if b, ok := sc.Scenario().(sim.Builtins); ok {
		fmt.Fprintf(e.stdout, "\nbuilt-in scenarios: %s (run one as %s/NAME, such as stakes sim %s/%s)\n",
			strings.Join(b.BuiltinNames(), ", "), m.Name, m.Name, b.BuiltinNames()[len(b.BuiltinNames())-1])
	}
	fmt.Fprintln(e.stdout)
	writeLegend(e.stdout, m.Name, sc.Describe().Terms, sc.Categories(), sc.Metrics())
	return nil
}

// cmdReport is the main job: a balance report over every mechanic from its
// built-in scenario.
func cmdReport(e *env, args []string) error {
	var c common
	fs := newFlags(e, "", "[flags]",
		"The balance report: each mechanic's built-in scenario, simulated, with exact odds beside.",
		`stakes`, `stakes --trials 100000 --json`)
	c.register(fs.FlagSet, 100000, runFlags|outFlags|explainFlag)
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("unknown command %q (commands: %s)", pos[0], commandNames())
	}
	if err := c.check(fs); err != nil {
		return err
	}
	var results []result
	for _, m := range e.mechs {
		res, err := simulate(e, m.fresh(), m.Name, &c)
		if err != nil {
			return fmt.Errorf("%s: %w", m.Name, err)
		}
		results = append(results, res)
		if res.Report.Provenance.Partial {
			break
		}
	}
	switch {
	case c.json:
		if err := writeJSON(e.stdout, results); err != nil {
			return err
		}
	case c.csv:
		w := csv.NewWriter(e.stdout)
		_ = w.Write([]string{"mechanic", "category", "count", "p", "lo", "hi", "exact"})
		for _, r := range results {
			for i, cat := range r.Report.Categories {
				ex := ""
				if r.Exact != nil && i < len(r.Exact.P) {
					ex = strconv.FormatFloat(r.Exact.P[i], 'g', -1, 64)
				}
				_ = w.Write([]string{r.Mechanic, cat.Name, strconv.FormatInt(cat.Count, 10),
					strconv.FormatFloat(cat.P, 'g', -1, 64), strconv.FormatFloat(cat.Lo, 'g', -1, 64),
					strconv.FormatFloat(cat.Hi, 'g', -1, 64), ex})
			}
		}
		w.Flush()
		if err := w.Error(); err != nil {
			return err
		}
	default:
		fmt.Fprintf(e.stdout, "stakes balance report: built-in scenarios, %d trials each, seed %d\n", c.trials, c.seed)
		fmt.Fprintf(e.stdout, "(95%% Wilson intervals; \"exact\" is computed, not sampled)\n\n")
		for _, r := range results {
			writeText(e.stdout, r)
			fmt.Fprintln(e.stdout)
		}
		if !c.explain {
			fmt.Fprintf(e.stdout, "What each outcome and metric above means: stakes --explain; every setting of a mechanic and its meaning: stakes mechanics NAME.\n")
		}
		if c.explain {
			for _, r := range results {
				cats, mets := names(r.Report)
				writeLegend(e.stdout, r.Mechanic, e.terms(r.Mechanic), cats, mets)
				fmt.Fprintln(e.stdout)
			}
		}
	}
	if len(results) > 0 && results[len(results)-1].Report.Provenance.Partial {
		return errors.New("the report above is partial")
	}
	return nil
}

// stripRunEnv clears what describes the run rather than the study. The
// worker count never changes a number, so it is always left out and the
// same seed prints the same bytes for any --workers; the wall time goes
// too with --no-time.
func stripRunEnv(r *sim.Report, noTime bool) {
	r.Provenance.Workers = 0
	if noTime {
		r.Elapsed = 0
	}
}

// writeSimTable prints a mechanic's table under its title, probabilities
// to six places.
func writeSimTable(e *env, t sim.Table) {
	fmt.Fprintf(e.stdout, "  %s\n", t.Title)
	rows := make([][]string, len(t.Rows))
	for i, r := range t.Rows {
		rows[i] = make([]string, len(r))
		for j, v := range r {
			switch v := v.(type) {
			case float64:
				rows[i][j] = strconv.FormatFloat(v, 'f', 6, 64)
			default:
				rows[i][j] = fmt.Sprint(v)
			}
		}
	}
	var buf strings.Builder
	writeTable(&env{stdout: &buf}, t.Columns, rows)
	for _, l := range strings.Split(strings.TrimRight(buf.String(), "\n"), "\n") {
		fmt.Fprintf(e.stdout, "    %s\n", l)
	}
}

// writeExactCSV adds the exact answer to sim's CSV, in its columns: a row
// of kind "exact" per outcome (p), one for the mean rounds (mean), one of
// kind "exact_rounds" per round count (value k, p, at_most), or one row
// "no_exact" saying why there is none.
func writeExactCSV(w io.Writer, ex *exactView, why string) error {
	cw := csv.NewWriter(w)
	row := func(kind, name, value, p, mean, atMost string) {
		_ = cw.Write([]string{kind, name, value, "", p, "", "", mean, "", atMost})
	}
	ftoa := func(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
	switch {
	case ex == nil && why != "":
		row("no_exact", "reason", oneLine(why), "", "", "")
	case ex != nil:
		for i, name := range ex.Categories {
			if i < len(ex.P) {
				row("exact", name, "", ftoa(ex.P[i]), "", "")
			}
		}
		if ex.MeanRounds != 0 {
			row("exact", "mean_rounds", "", "", ftoa(ex.MeanRounds), "")
		}
		cum := 0.0
		for k, p := range ex.Rounds {
			cum += p
			if p > 0 {
				row("exact_rounds", "rounds", strconv.Itoa(k), ftoa(p), "", ftoa(cum))
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// useBuiltin makes sc the mechanic's built-in variant named variant
// (sim.Builtins), or says which variants there are.
func useBuiltin(sc scenario, variant string) error {
	b, ok := sc.ptr().(sim.Builtins)
	if !ok {
		return usagef("%s has one built-in scenario; %s/%s names none", sc.mechanic(), sc.mechanic(), clip(variant))
	}
	v, ok := b.Builtin(variant)
	dst := reflect.ValueOf(sc.ptr()).Elem()
	if !ok || reflect.TypeOf(v) != dst.Type() {
		hint := ""
		if near := nearest(variant, b.BuiltinNames()); near != "" {
			hint = fmt.Sprintf("; did you mean %s/%s?", sc.mechanic(), near)
		}
		return usagef("%s has no built-in scenario %q%s (it has %s)", sc.mechanic(), clip(variant), hint, strings.Join(b.BuiltinNames(), ", "))
	}
	dst.Set(reflect.ValueOf(v))
	return nil
}
