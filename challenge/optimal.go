package challenge

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/stakesrpg/stakes/sim/markov"
)

// Optimal play. In a two-sided conflict the choices that change how it
// ends are the answerer's stance, hang in (the challenger carries an
// advantage die into the next round) or give (out, without injury), and
// each side's cross-offs. The choice of which die sizes an injury takes
// changes the sheet for later conflicts but not how this one ends (it is
// over once the sizes are taken), and target and interference are no
// choices with two sides.
//
// With no names to cross off, the decision process is Duel's chain over
// rounds with the deciding side's stance left open: in each round, by who
// carries the advantage die into it, the side chooses to hang in or to
// give whenever it must choose in that round. What follows either choice
// does not depend on the dice showing when it is made (a hang-in starts
// the next round, a give ends the conflict), so choosing once a round is
// choosing at every stance. With names to cross off the process is the
// model with cross-offs (cross.go), in which the deciding side chooses at
// each comparison with both rolls showing. With three sides it is the
// model of three sides (three.go), in which the side also names whom it
// challenges or drops out, and interferes or not.

// The deciding side's options in a round, in the order the process offers
// them (among equally good options the cheaper, then the first).
const (
	optHangIn = "hang in"
	optGive   = "give"
)

// Optimal is the best (or worst) play of a scenario for one side, solved
// exactly.
type Optimal struct {
	// Optimum: the goal, the deciding side's name, the value, the exact
	// answer under this play and the size of the solved process.
	markov.Optimum
	// Policy plays the solved plan for the deciding side, and every choice
	// the plan does not make as the scenario's policy for that side. Use
	// it in Play or in a Runner (Runner.SetPolicy).
	Policy Policy

	plan  *markov.Plan[duelState]
	xplan *markov.Plan[xstate]
	tplan *markov.Plan[tstate]
	three *threeModel
	side  int
}

// optimalModel is a scenario's decision process before it is solved.
type optimalModel struct {
	s        Scenario
	side     int // the deciding side
	goal     markov.Goal
	in       []bool // the goal's outcomes, by category
	policies []Policy
	own      [2]bool // each side's stance under its own policy
	process  *markov.Process[duelState]
	// outs[k][adv] is one round from adv when the deciding side takes
	// option k (hang in, give) whenever it must choose in it.
	outs [2][3]roundOut
	// cross and crossing are the model with cross-offs and its process,
	// for a scenario in which a side may cross a name off (then process
	// is nil).
	cross    *crossModel
	crossing *markov.Process[xstate]
	// three and threes are the model of three sides and its process,
	// for a scenario of three sides.
	three  *threeModel
	threes *markov.Process[tstate]
}

// Optimal solves the scenario for goal: the play of the deciding side
// (goal.Side names a side; "" is the first) that makes the goal most
// likely (markov.Maximize) or least likely (markov.Minimize), every other
// side playing its own policies. Goal outcomes are names of Categories;
// none means the deciding side's wins (outright, given and, with three
// sides, by drop). The deciding side's stances are left open; with two
// sides, when it has names to cross off (or may come to have), its
// cross-offs too; with three, its targets, dropping out and interference.
// Scenarios the exact models leave out (see the package doc) return an
// error wrapping markov.ErrNoExact that says why.
func (s Scenario) Optimal(ctx context.Context, goal markov.Goal, aim markov.Aim) (*Optimal, error) {
	m, err := s.optimalModel(ctx, goal)
	if err != nil {
		return nil, err
	}
	return m.solve(ctx, aim)
}

func (s Scenario) optimalModel(ctx context.Context, goal markov.Goal) (*optimalModel, error) {
	c, policies, err := s.build()
	if err != nil {
		return nil, err
	}
	if err := exactSides(len(c.Sides)); err != nil {
		return nil, err
	}
	m := &optimalModel{s: s, policies: policies}
	names := make([]string, len(s.Sides))
	for i, sd := range s.Sides {
		names[i] = sd.Name
	}
	cats, per := s.Categories(), perSide(len(s.Sides))
	if m.side, m.goal, err = goal.Resolve("challenge", names, cats, func(i int) []string {
		return cats[i*per : (i+1)*per] // the side's wins
	}); err != nil {
		return nil, err
	}
	m.in = make([]bool, len(cats))
	for e, cat := range cats {
		m.in[e] = slices.Contains(m.goal.Outcomes, cat)
	}
	if len(c.Sides) == 3 {
		return m.withThree(ctx, c)
	}
	m.own = stances(c, policies)
	for i := range 2 {
		// The deciding side may cross off whatever it has, whatever its
		// own policy says; the other side as its policy says.
		if s.crossing(c, i, i == m.side) != "" {
			return m.withCrossOffs(ctx, c)
		}
	}
	model, err := newDuelModel(ctx, s.Rules, c.Sides[0].Dice, c.Sides[1].Dice)
	if err != nil {
		return nil, err
	}
	// The deciding side's play is open: both hanging in is the longest.
	if err := model.checkExchanges([2]bool{true, true}); err != nil {
		return nil, err
	}
	for k := range 2 {
		hang := m.own
		hang[m.side] = k == 0
		if m.outs[k], err = model.rounds(hang); err != nil {
			return nil, err
		}
	}
	m.process, err = markov.ExploreProcess(ctx, roundStart(0), func(st duelState) []markov.Choice[duelState] {
		if st.end >= 0 {
			return nil
		}
		return []markov.Choice[duelState]{
			{Name: optHangIn, Steps: m.outs[0][st.adv].steps(nil), Cost: exposure(s.Rules)},
			{Name: optGive, Steps: m.outs[1][st.adv].steps(nil)},
		}
	})
	if err != nil {
		return nil, err
	}
	m.process.Ties = m.goal.TieBreak()
	return m, nil
}

// exposure is the cost of a choice that keeps the side in the conflict,
// or puts it into an exchange, where an outright loss would take
// Rules.InjurySizes die sizes: hanging in, challenging, interfering. A
// choice that stands aside (giving, dropping out, letting the named side
// answer) costs nothing, and one that crosses a name off the owe list
// costs the name (nameCost).
func exposure(r Rules) float64 { return float64(r.InjurySizes) }

// nameCost is the cost of crossing a name off the owe list: the name.
const nameCost = 1

// exactSides refuses, wrapping markov.ErrNoExact, a conflict of more sides
// than the exact models take.
func exactSides(n int) error {
	if n > 3 {
		return fmt.Errorf("%w: %d sides; the exact models take two or three: with more, a later turn of a round may be interfered with by every side yet to challenge or answer, so a state would hold all their casts whole (some 50 readings each for two dice a side, 50^3 situations and more at every turn)",
			markov.ErrNoExact, n)
	}
	return nil
}

// withThree builds the model of three sides, the deciding side's targets,
// interference and stances left open.
func (m *optimalModel) withThree(ctx context.Context, c *State) (*optimalModel, error) {
	var err error
	if m.three, err = m.s.newThreeModel(ctx, c, m.policies, m.side); err != nil {
		return nil, err
	}
	if m.threes, err = m.three.process(ctx, m.goal.TieBreak()); err != nil {
		return nil, err
	}
	return m, nil
}

// withCrossOffs builds the model with cross-offs, the deciding side's
// cross-offs and stance left open.
func (m *optimalModel) withCrossOffs(ctx context.Context, c *State) (*optimalModel, error) {
	var err error
	if m.cross, err = m.s.newCrossModel(ctx, c, m.policies, m.side, m.s.nevers()); err != nil {
		return nil, err
	}
	if m.crossing, err = m.cross.process(ctx); err != nil {
		return nil, noExact(err)
	}
	m.crossing.Ties = m.goal.TieBreak()
	return m, nil
}

// crossing says why side i might cross a name off the owe list in this
// conflict ("" when it never can): a name of one of its players on the
// list as it stands, or, unless names wait for the next conflict, a name
// of one of its players that goes on the list after a pair's first
// exchange (a side whose dice another side's outclass). free: the side
// may cross off whatever it has; otherwise only as its cross-off policy
// (never, or any other) allows.
func (s Scenario) crossing(c *State, i int, free bool) string {
	if !free && s.Sides[i].Play.neverCrosses() {
		return ""
	}
	mine := func(player string) bool {
		return slices.ContainsFunc(c.Sides[i].Members, func(m Member) bool { return m.Player == player })
	}
	for _, d := range c.Owe {
		if mine(d.Player) {
			return fmt.Sprintf("side %s may cross %s off the owe list", c.Sides[i].Name, d.Name)
		}
	}
	if c.Rules.OweWaitsForNextConflict {
		return ""
	}
	for j := range c.Sides {
		for k := range c.Sides {
			if k == j || !c.outclasses(c.Sides[k].TotalSides, c.Sides[j].TotalSides, true) {
				continue
			}
			for _, m := range c.Sides[j].Members {
				if mine(m.Player) {
					return fmt.Sprintf("%s may go on the owe list and side %s may then cross it off", m.Name, c.Sides[i].Name)
				}
			}
		}
	}
	return ""
}

// stances returns each side's stance under its policy. The shipped stances
// depend only on the two sides' dice, so one question each tells.
func stances(c *State, policies []Policy) [2]bool {
	var hang [2]bool
	for i := range 2 {
		c.Challenger = 1 - i
		hang[i] = policies[i].HangIn(&View{c}, i)
	}
	c.Challenger = -1
	return hang
}

// solve solves the process for the aim and reads the plan's answer.
func (m *optimalModel) solve(ctx context.Context, aim markov.Aim) (*Optimal, error) {
	if m.cross != nil {
		return m.solveCross(ctx, aim)
	}
	if m.three != nil {
		return m.solveThree(ctx, aim)
	}
	plan, err := m.process.Solve(ctx, m.reward, aim)
	if err != nil {
		return nil, err
	}
	chain, err := plan.Chain(ctx)
	if err != nil {
		return nil, err
	}
	ans, err := markov.AnswerOf(ctx, chain, len(m.s.Categories()), func(st duelState) int { return int(st.end) }, 100000)
	if err != nil {
		return nil, err
	}
	exchanges, err := chain.ExpectedReward(func(st duelState) float64 {
		k, _, _ := plan.Choice(st)
		return m.outs[k][st.adv].exchanges
	})
	if err != nil {
		return nil, err
	}
	ans.Means = map[string]float64{"exchanges": exchanges}
	side := m.s.label(m.side)
	return &Optimal{
		Optimum: markov.Optimum{Goal: m.goal, Side: side, Value: plan.Start(), Answer: ans,
			States: m.process.Len(), Choices: m.process.Choices()},
		Policy: &planned{Policy: m.policies[m.side], side: m.side, plan: plan}, plan: plan, side: m.side,
	}, nil
}

// solveCross solves the model with cross-offs for the aim. The plan's
// Answer is that of the model in which the deciding side follows the plan
// (its Policy plays the same plan in a Runner).
func (m *optimalModel) solveCross(ctx context.Context, aim markov.Aim) (*Optimal, error) {
	plan, err := m.crossing.Solve(ctx, func(st xstate) float64 {
		return float64(b2i(st.kind == xEnd && m.in[st.end]))
	}, aim)
	if err != nil {
		return nil, err
	}
	c, policies, err := m.s.build()
	if err != nil {
		return nil, err
	}
	under, err := m.s.newCrossModel(ctx, c, policies, m.side, m.s.nevers())
	if err != nil {
		return nil, err
	}
	under.plan = plan
	ans, err := under.answer(ctx)
	if err != nil {
		return nil, err
	}
	p := &crossPlanned{Policy: m.policies[m.side], side: m.side, plan: plan, never: under.never, owesNone: under.owesNone()}
	return &Optimal{
		Optimum: markov.Optimum{Goal: m.goal, Side: m.s.label(m.side), Value: plan.Start(), Answer: ans,
			States: m.crossing.Len(), Choices: m.crossing.Choices()},
		Policy: p, xplan: plan, side: m.side,
	}, nil
}

// solveThree solves the model of three sides for the aim; the plan's
// Answer is play under it.
func (m *optimalModel) solveThree(ctx context.Context, aim markov.Aim) (*Optimal, error) {
	plan, err := m.threes.Solve(ctx, func(st tstate) float64 {
		return float64(b2i(st.kind == tEnd && m.in[st.end]))
	}, aim)
	if err != nil {
		return nil, noExact(err)
	}
	ans, err := threeAnswer(ctx, plan)
	if err != nil {
		return nil, err
	}
	return &Optimal{
		Optimum: markov.Optimum{Goal: m.goal, Side: m.s.label(m.side), Value: plan.Start(), Answer: ans,
			States: m.threes.Len(), Choices: m.threes.Choices()},
		Policy: &threePlanned{Policy: m.policies[m.side], side: m.side, m: m.three, plan: plan},
		tplan:  plan, three: m.three, side: m.side,
	}, nil
}

func (m *optimalModel) reward(st duelState) float64 {
	if st.end >= 0 && m.in[st.end] {
		return 1
	}
	return 0
}

// planned is the Policy of an Optimal: the deciding side's stance read from
// the plan, every other choice (and every other side's) as the side's own
// policy.
type planned struct {
	Policy
	side int
	plan *markov.Plan[duelState]
}

// HangIn answers the stance as the plan chooses in this round: the round's
// state is who carries the advantage die into it.
func (p *planned) HangIn(v *View, side int) bool {
	if side != p.side || v.Sides() != 2 {
		return p.Policy.HangIn(v, side)
	}
	adv := 0
	for i := range 2 {
		if v.s.Sides[i].Advantage > 0 {
			adv = 1 + i
		}
	}
	k, _, ok := p.plan.Choice(roundStart(adv))
	if !ok {
		return p.Policy.HangIn(v, side)
	}
	return k == 0
}

// stanceNames are the shipped stances Solve compares: with two sides and
// no cross-offs, the only part of a Style that changes how a conflict
// ends.
var stanceNames = []string{"hang_in", "give", "outclassed"}

// Solve reports how much decisions matter for goal (see Optimal for the
// goal and the deciding side): the goal's probability under the best play,
// the worst play and each shipped stance of the deciding side, the gap
// between best and worst, and the best play's decisions in words. Its
// errors are Optimal's.
func (s Scenario) Solve(ctx context.Context, goal markov.Goal) (markov.Solved, error) {
	m, err := s.optimalModel(ctx, goal)
	if err != nil {
		return markov.Solved{}, err
	}
	best, err := m.solve(ctx, markov.Maximize)
	if err != nil {
		return markov.Solved{}, err
	}
	worst, err := m.solve(ctx, markov.Minimize)
	if err != nil {
		return markov.Solved{}, err
	}
	out := markov.ExactSolved(m.goal, best.Side, best.States, best.Choices,
		markov.PolicyValue{Value: best.Value, Answer: best.Answer}, markov.PolicyValue{Value: worst.Value, Answer: worst.Answer})
	if m.cross != nil {
		return m.solvedCross(ctx, out, best)
	}
	if m.three != nil {
		return m.solvedThree(ctx, out, best)
	}
	c, _, err := s.build()
	if err != nil {
		return markov.Solved{}, err
	}
	for _, name := range stanceNames {
		p, err := PolicyByName(KindStance + "/" + name)
		if err != nil {
			return markov.Solved{}, err
		}
		hang := m.own
		hang[m.side] = stances(c, []Policy{p, p})[m.side]
		d, err := duelOdds(ctx, s.Rules, c.Sides[0].Dice, c.Sides[1].Dice, hang[0], hang[1])
		if err != nil {
			return markov.Solved{}, err
		}
		out.Policies = append(out.Policies, markov.ValueOf(KindStance+"/"+name, duelAnswer(d), m.in))
	}
	d, err := duelOdds(ctx, s.Rules, c.Sides[0].Dice, c.Sides[1].Dice, m.own[0], m.own[1])
	if err != nil {
		return markov.Solved{}, err
	}
	out.SetOwn(markov.ValueOf(s.ownName(m.side, KindStance), duelAnswer(d), m.in))
	if out.Advice, err = best.advice(ctx, s); err != nil {
		return markov.Solved{}, err
	}
	return out, nil
}

// ownName names side i's own play in the scenario, as Solved.Own shows it:
// the parts of its Style of the kinds the solve tells apart, each by its
// registry name, the defaults spelled out ("stance/hang_in";
// "stance/hang_in, cross_off/eager").
func (s Scenario) ownName(i int, kinds ...string) string {
	n := s.Sides[i].Play
	parts := make([]string, len(kinds))
	for k, kind := range kinds {
		name := map[string]string{KindStance: cmp.Or(n.Stance, "hang_in"), KindCross: cmp.Or(n.CrossOff, "never"),
			KindLoss: cmp.Or(n.Loss, "deepest"), KindTarget: cmp.Or(n.Target, "sworn"), KindInterfere: cmp.Or(n.Interfere, "aloof")}[kind]
		parts[k] = kind + "/" + name
	}
	return strings.Join(parts, ", ")
}

// threeParts are the shipped parts Solve compares in a conflict of three
// sides: the stances, targets and interference, each with the defaults
// for every other kind (as PolicyByName makes them).
var threeParts = []struct {
	name  string
	names StyleNames
}{
	{"stance/hang_in", StyleNames{Stance: "hang_in"}},
	{"stance/give", StyleNames{Stance: "give"}},
	{"stance/outclassed", StyleNames{Stance: "outclassed"}},
	{"target/sworn", StyleNames{Target: "sworn"}},
	{"target/turncoat", StyleNames{Target: "turncoat"}},
	{"target/weakest", StyleNames{Target: "weakest"}},
	{"target/strongest", StyleNames{Target: "strongest"}},
	{"interfere/aloof", StyleNames{Interfere: "aloof"}},
	{"interfere/meddle", StyleNames{Interfere: "meddle"}},
	{"interfere/guard", StyleNames{Interfere: "guard"}},
}

// solvedThree completes Solve's report for a conflict of three sides: each
// shipped stance, target and interference part played by the deciding
// side, the side's own play, each solved exactly in the model of three
// sides, and the best play's decisions in words.
func (m *optimalModel) solvedThree(ctx context.Context, out markov.Solved, best *Optimal) (markov.Solved, error) {
	seen := map[StyleNames]markov.Answer{}
	for _, part := range threeParts {
		// Names of the same parts play alike: "stance/hang_in" and
		// "target/sworn" are both the defaults.
		key := StyleNames{Stance: cmp.Or(part.names.Stance, "hang_in"), Target: cmp.Or(part.names.Target, "sworn"),
			Interfere: cmp.Or(part.names.Interfere, "aloof")}
		a, ok := seen[key]
		if !ok {
			style, err := part.names.Style()
			if err != nil {
				return markov.Solved{}, err
			}
			if a, err = m.threeExact(ctx, &style); err != nil {
				return markov.Solved{}, err
			}
			seen[key] = a
		}
		out.Policies = append(out.Policies, markov.ValueOf(part.name, a, m.in))
	}
	own, err := m.threeExact(ctx, nil)
	if err != nil {
		return markov.Solved{}, err
	}
	out.SetOwn(markov.ValueOf(m.s.ownName(m.side, KindStance, KindTarget, KindInterfere), own, m.in))
	if out.Advice, err = best.threeAdvice(ctx); err != nil {
		return markov.Solved{}, err
	}
	return out, nil
}

// threeExact is the exact answer of the scenario of three sides with the
// deciding side playing p (nil: its own policy).
func (m *optimalModel) threeExact(ctx context.Context, p Policy) (markov.Answer, error) {
	c, policies, err := m.s.build()
	if err != nil {
		return markov.Answer{}, err
	}
	if p != nil {
		policies[m.side] = p
	}
	tm, err := m.s.newThreeModel(ctx, c, policies, -1)
	if err != nil {
		return markov.Answer{}, err
	}
	return tm.answer(ctx)
}

// crossParts are the shipped parts Solve compares when a side may cross
// names off: the stances and the cross-off parts, each with the defaults
// for every other kind (as PolicyByName makes them).
var crossParts = []struct {
	name  string
	names StyleNames
}{
	{"stance/hang_in", StyleNames{Stance: "hang_in"}},
	{"stance/give", StyleNames{Stance: "give"}},
	{"stance/outclassed", StyleNames{Stance: "outclassed"}},
	{"cross_off/never", StyleNames{CrossOff: "never"}},
	{"cross_off/when_close", StyleNames{CrossOff: "when_close"}},
	{"cross_off/eager", StyleNames{CrossOff: "eager"}},
}

// solvedCross completes Solve's report for a scenario with cross-offs:
// each shipped stance and cross-off part played by the deciding side,
// solved exactly in the model with cross-offs, and the best play's
// decisions in words.
func (m *optimalModel) solvedCross(ctx context.Context, out markov.Solved, best *Optimal) (markov.Solved, error) {
	seen := map[StyleNames]markov.Answer{}
	for _, part := range crossParts {
		// Two names of the same parts play alike: "stance/hang_in" and
		// "cross_off/never" are both the defaults.
		key := part.names
		key.Stance, key.CrossOff = cmp.Or(key.Stance, "hang_in"), cmp.Or(key.CrossOff, "never")
		if a, ok := seen[key]; ok {
			out.Policies = append(out.Policies, markov.ValueOf(part.name, a, m.in))
			continue
		}
		style, err := part.names.Style()
		if err != nil {
			return markov.Solved{}, err
		}
		c, policies, err := m.s.build()
		if err != nil {
			return markov.Solved{}, err
		}
		policies[m.side] = &style
		never := m.s.nevers()
		never[m.side] = part.names.neverCrosses()
		a, err := m.s.crossExact(ctx, c, policies, never)
		if err != nil {
			return markov.Solved{}, err
		}
		seen[key] = a
		out.Policies = append(out.Policies, markov.ValueOf(part.name, a, m.in))
	}
	c, policies, err := m.s.build()
	if err != nil {
		return markov.Solved{}, err
	}
	own, err := m.s.crossExact(ctx, c, policies, m.s.nevers())
	if err != nil {
		return markov.Solved{}, err
	}
	out.SetOwn(markov.ValueOf(m.s.ownName(m.side, KindStance, KindCross), own, m.in))
	if out.Advice, err = best.crossAdvice(ctx, m.s); err != nil {
		return markov.Solved{}, err
	}
	return out, nil
}

// advice writes the plan's decisions that change the goal's value
// (markov.Lines): one a round state, by who carries the advantage die.
func (o *Optimal) advice(ctx context.Context, s Scenario) ([]markov.Advice, error) {
	ds, err := o.plan.Decisions(ctx)
	if err != nil {
		return nil, err
	}
	key := func(d markov.Decision[duelState], do, alt markov.Option) markov.Said {
		who := "nobody"
		if d.State.adv > 0 {
			who = s.label(int(d.State.adv) - 1)
		}
		return markov.Said{When: "answering lower but more than half, " + who + " carrying the advantage die",
			Do: do.Name, Else: alt.Name}
	}
	return markov.Lines(ds, o.plan.Aim(), key, markov.AsSaid[duelState]), nil
}
