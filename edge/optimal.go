package edge

import (
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strings"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim/markov"
)

// Optimal play. Exact's chain asks each party's policy what to do; the
// decision process leaves the deciding party's choices open instead. Its
// states are Exact's own (edge dice, initiative, each member's skill
// history) at the start of a round, before anyone concedes, tagged with the
// order of action. In each, the deciding party, asked in its turn of the
// order, may surrender, walk away where the type allows it, or play on;
// playing on, it declares an action when it holds the initiative (which of
// its members wager a die, each with which skill) and reacts to the action
// its opponent's policy declares when it does not. Each option's
// transitions are Exact's: the same declaration code, with the deciding
// party's part fixed, and every check result weighed (by how the checks
// rank, rankingsOf).

// The deciding party's options for a round are one of two sets. The full
// set (where it fits: everyOptions) is every choice of members, up to its
// dice, each with every skill the engine's legal-choice query allows
// (game.choices, as LegalActs and LegalReactions answer). The bounded set
// is as the shipped policies choose: it wagers n dice (1 up to its members
// and its dice), played by its n best members, each with its best skill,
// where "best" is by the modifier this round (steady, cautious, canny) or
// by the plain modifier, Can't Fool Me Twice left out (reckless). Every
// legal skill multiplies the states of skill history (13 skills a member
// in a chase), so the full set fits only small scenarios.

// optimalWork bounds the check combinations enumerated over a whole
// decision process, as exactWork does for Exact's chain.
const optimalWork = 20_000_000

// everyWork bounds the options weighed (a round settled for each) over a
// whole process with the full set of options, and everyStates the states
// of its histories estimated before it is tried (twins.histories, times
// the ways edge dice, initiative and order of action can stand): past
// either the full set is given up for the bounded set and the relaxation.
const (
	everyWork   = 1 << 19
	everyStates = markov.MaxProcessStates
)

// The sets of options a process is solved over, as Optimal.Options and
// Solved.Method name them.
const (
	OptionsEvery = "every legal choice"
	OptionsBest  = "each member's best skills"
)

// The names of the deciding party's concessions in the process.
const (
	optSurrender = "surrender"
	optWalkAway  = "walk away"
	optContinue  = "play on" // only when the opponent concedes next
	optWager     = "wager"   // an action (named in full by describe)
	optReact     = "react"   // a reaction (named in full by describe)
)

// Optimal is the best (or worst) play of one party of a scenario for a
// goal, solved exactly.
type Optimal struct {
	// Optimum: the goal, the deciding party's name, the value, the exact
	// answer under this play and the size of the solved process.
	markov.Optimum
	// Policy plays the solved plan for the deciding party (concessions,
	// actions and reactions) and leaves its other choices (seizing,
	// abandoning stragglers) and every other party to the scenario's
	// policies. Use it in Play (in its party's place in Engine.Policies) or in a Runner
	// (Optimal.NewRunner).
	Policy Policy
	// Options says which of the deciding party's options were solved
	// over: OptionsEvery where that process fits the bounds, else
	// OptionsBest (see the package doc, Optimal play), and then Value is
	// the best (or worst) found, not the best over every legal choice.
	Options string
	// Bound bounds the value of play over every legal choice: no play
	// makes the goal more likely (Maximize) or less likely (Minimize). It
	// is Value where Options is OptionsEvery, else the value of a
	// relaxation (see the package doc), NaN where that too is too large
	// to solve.
	Bound float64

	m    *optimalModel
	plan *markov.Plan[string]
	aim  markov.Aim
}

// optimalModel is a scenario's decision process before it is solved.
type optimalModel struct {
	s       Scenario
	x       *exacter
	side    int // the deciding party
	goal    markov.Goal
	in      []bool // the goal's categories
	base    Policy // the deciding party's own policy
	fix     *fixed // stands in for it while the process is explored
	process *markov.Process[string]
	// set is the deciding party's options: the full set (every legal
	// skill for every choice of members), the bounded one, or the
	// relaxation whose value bounds the full set's (see bound).
	set     optionSet
	settled int // options weighed so far (each a round settled)
	// respond serves the relaxation (setBound): which skills the opponent
	// answers alike.
	respond *respond
	// decls holds, by state, the deciding party's checks for each option
	// (nil for a concession); answers, where it reacts, the checks of the
	// action its opponent's policy declares there.
	decls   map[string][][]Use
	answers map[string][]Use
	// groups: the deciding party has a group with stragglers, and sheds
	// holds, by state, the members that abandon them in each option.
	groups bool
	sheds  map[string][]uint16
	// steps is scratch space for the steps of one state's options.
	steps []markov.Step[string]
}

// Optimal solves the scenario for goal: the play of the deciding party
// (goal.Side names a party; "" is the first) that makes the goal most
// likely (markov.Maximize) or least likely (markov.Minimize), the other
// party playing its own policy. Goal outcomes are names of Categories;
// none means the deciding party's wins, outright or partial. The model is
// Exact's: two parties, no outside factors, only the initiative holder
// acting; other scenarios return an error wrapping markov.ErrNoExact that
// says why.
func (s Scenario) Optimal(ctx context.Context, goal markov.Goal, aim markov.Aim) (*Optimal, error) {
	m, relaxed, err := s.decisionProcess(ctx, goal)
	if err != nil {
		return nil, err
	}
	o, err := m.solve(ctx, aim)
	if err != nil {
		return nil, err
	}
	if o.Bound, err = relaxed.value(ctx, o.Value, aim); err != nil {
		return nil, err
	}
	return o, nil
}

func (s Scenario) optimalModel(ctx context.Context, goal markov.Goal, set optionSet) (*optimalModel, error) {
	x, err := s.exacter(ctx)
	if err != nil {
		return nil, err
	}
	if total := x.in.parties[0].start + x.in.parties[1].start; total > maxSolveEdge {
		return nil, fmt.Errorf("%w: %w: %d edge dice in all; best and worst play are solved for at most %d", markov.ErrNoExact, markov.ErrTooLarge, total, maxSolveEdge)
	}
	m := &optimalModel{s: s, x: x, set: set, decls: map[string][][]Use{}, answers: map[string][]Use{}}
	names := make([]string, len(s.Parties))
	for i, p := range s.Parties {
		names[i] = p.Name
	}
	cats := s.Categories()
	if m.side, m.goal, err = goal.Resolve("edge", names, cats, func(i int) []string {
		return []string{cats[i], cats[len(names)+i]} // its wins, outright and partial
	}); err != nil {
		return nil, err
	}
	if x.in.rules.WagerBeyondPool {
		return nil, fmt.Errorf("%w: the options solved over wager at most the dice a party holds (rules.wager_beyond_pool is on)", markov.ErrNoExact)
	}
	if x.in.parties[m.side].passive {
		return nil, fmt.Errorf("%w: %s is passive and makes no choices", markov.ErrNoExact, x.in.pname(m.side))
	}
	m.in = make([]bool, len(cats))
	for _, o := range m.goal.Outcomes {
		m.in[slices.Index(cats, o)] = true
	}
	m.base = x.in.Policies[m.side]
	m.fix = &fixed{Policy: m.base}
	for g := x.in.parties[m.side].lo; g < x.in.parties[m.side].hi; g++ {
		m.groups = m.groups || x.in.size[g] > 1
	}
	m.sheds = map[string][]uint16{}
	x.in.Policies[m.side] = m.fix
	switch set {
	case setEvery, setBest:
		x.twins = x.in.newTwins(m.side, 1-m.side)
	case setBound:
		x.free = m.side
		m.respond = x.in.newRespond(m.side, 1-m.side)
	}
	x.maxWork, x.concede, x.rankings = optimalWork, false, map[string][]ranking{}
	m.process, err = markov.ExploreProcess(ctx, "s", m.choices)
	if x.err != nil {
		return nil, x.err
	}
	if m.process != nil {
		m.process.Ties = m.goal.TieBreak()
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("%w: %w", markov.ErrNoExact, err)
	}
	return m, nil
}

// decisionProcess is the scenario's decision process over the full set of
// options where it fits the bounds (markov.MaxProcessStates,
// markov.MaxTransitions, markov.MaxChoices in a state, everyWork), and no
// relaxation; else over the bounded set, with the relaxation whose value
// bounds the full set's (nil where it does not fit either). The full set
// is not tried where its histories alone would pass everyStates (the
// built-in chase's: some 10^15).
func (s Scenario) decisionProcess(ctx context.Context, goal markov.Goal) (*optimalModel, *optimalModel, error) {
	if fits, err := s.everyFits(ctx, goal); err != nil {
		return nil, nil, err
	} else if fits {
		m, err := s.optimalModel(ctx, goal, setEvery)
		if !errors.Is(err, markov.ErrTooLarge) {
			return m, nil, err
		}
	}
	bounded, err := s.optimalModel(ctx, goal, setBest)
	if err != nil {
		return nil, nil, err
	}
	relaxed, err := s.optimalModel(ctx, goal, setBound)
	if errors.Is(err, markov.ErrTooLarge) {
		return bounded, &optimalModel{}, nil // no bound
	}
	return bounded, relaxed, err
}

// everyFits reports whether the full set's process is small enough by
// estimate to be tried (everyStates).
func (s Scenario) everyFits(ctx context.Context, goal markov.Goal) (bool, error) {
	x, err := s.exacter(ctx)
	if err != nil {
		return false, err
	}
	names := make([]string, len(s.Parties))
	for i, p := range s.Parties {
		names[i] = p.Name
	}
	side, _, err := goal.Resolve("edge", names, s.Categories(), func(int) []string { return nil })
	if err != nil {
		return false, err
	}
	in := x.in
	total := in.parties[0].start + in.parties[1].start
	tw := in.newTwins(side, 1-side)
	return in.histories(side, 1-side, tw)*float64(total+1)*4 <= everyStates, nil
}

// value is the relaxation m's value for aim, a bound on play over every
// legal choice: bound itself where m is nil (the process solved was the
// full set's), NaN where m was too large to build.
func (m *optimalModel) value(ctx context.Context, bound float64, aim markov.Aim) (float64, error) {
	switch {
	case m == nil:
		return bound, nil
	case m.process == nil:
		return math.NaN(), nil
	}
	plan, err := m.process.Solve(ctx, m.reward, aim)
	if err != nil {
		return 0, err
	}
	return plan.Start(), nil
}

// maxExactEdge and maxSolveEdge bound the edge dice in all (both parties'
// starting pools) of a scenario Exact answers and Optimal and Solve solve:
// the states and the rounds a game lasts grow with them, and past these
// the work runs to many seconds (and, at the default rules.max_rounds,
// the play would outlast the round limit anyway). Such a scenario is
// refused at once, before any work, with markov.ErrTooLarge.
const (
	maxExactEdge = 100
	maxSolveEdge = 22
)

// exacter returns the exact model of s, checked to fit it: two parties,
// no outside factors, only the initiative holder acting.
func (s Scenario) exacter(ctx context.Context) (*exacter, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	e, err := s.NewEngine()
	if err != nil {
		return nil, err
	}
	in := e.lend(e.NewState())
	if len(in.parties) != 2 {
		return nil, fmt.Errorf("%w: the chain covers two parties, not %d", markov.ErrNoExact, len(in.parties))
	}
	if len(in.factors) > 0 {
		return nil, fmt.Errorf("%w: outside factors depend on the round number", markov.ErrNoExact)
	}
	if in.rules.Turns != HolderActs {
		return nil, fmt.Errorf("%w: the chain covers rounds where only the initiative holder acts (rules.turns holder_acts)", markov.ErrNoExact)
	}
	if total := in.parties[0].start + in.parties[1].start; total > maxExactEdge {
		return nil, fmt.Errorf("%w: %w: %d edge dice in all; the exact answer covers at most %d", markov.ErrNoExact, markov.ErrTooLarge, total, maxExactEdge)
	}
	dist, err := dice.SumOf(in.rules.Check.Dice())
	if err != nil {
		return nil, fmt.Errorf("%w: %v", markov.ErrNoExact, err)
	}
	if dist, err = dist.Shift(in.rules.Check.Modifier()); err != nil {
		return nil, fmt.Errorf("%w: %v", markov.ErrNoExact, err)
	}
	return &exacter{ctx: ctx, in: in, dist: dist, nc: 2*len(in.parties) + 1, maxWork: exactWork, concede: true, free: -1}, nil
}

// fixed stands in for the deciding party's policy while the process is
// explored: its concession and checks are the option being weighed; it
// notes whether it was asked to concede.
type fixed struct {
	Policy
	concession Concession
	asked      bool
	checks     []Use
	shed       uint16 // the members (a bit each) that abandon their stragglers
}

// Abandon is the option's: whether the group abandons its stragglers
// before its endurance-type check.
func (f *fixed) Abandon(_ *View, _, m int) bool { return f.shed&(1<<m) != 0 }

func (f *fixed) Concede(*View, int) Concession {
	f.asked = true
	return f.concession
}

func (f *fixed) Act(v *View, p int, a *Action) {
	in := v.in
	for q := range in.parties {
		if q != p && !in.s.Parties[q].Out {
			a.Targets = append(a.Targets, q)
		}
	}
	a.Checks = append(a.Checks, f.checks...)
}

func (f *fixed) React(_ *View, _ int, _ *Action, r *Reaction) {
	r.Checks = append(r.Checks, f.checks...)
}

// setOrder decodes state k of the process into x.in: "r", the first party
// in the order of action, then Exact's key.
func (m *optimalModel) setOrder(k string) {
	x := m.x
	first := int(k[1])
	x.order = append(x.order[:0], first)
	if !x.in.parties[1-first].passive {
		x.order = append(x.order, 1-first)
	}
	x.tag = append(x.tag[:0], k[:2]...)
	x.decode(k[2:])
}

// choices are the options of state k of the process.
func (m *optimalModel) choices(k string) []markov.Choice[string] {
	x := m.x
	if x.err != nil || k[0] == '#' {
		return nil
	}
	if k == "s" {
		return m.starts()
	}
	in := x.in
	m.steps = m.steps[:0]
	// Play on: the parties before the deciding one in the order, then it,
	// then those after it, as Exact asks them.
	m.setOrder(k)
	m.fix.concession, m.fix.asked = Continue, false
	conceded, err := in.concessions()
	if err != nil {
		x.err = err
		return nil
	}
	if !m.fix.asked {
		// A party before the deciding one in the order conceded.
		return []markov.Choice[string]{{Steps: []markov.Step[string]{{To: x.key(), P: 1}}}}
	}
	var playOn []markov.Choice[string]
	if conceded {
		// The opponent concedes once the deciding party plays on.
		playOn = []markov.Choice[string]{{Name: optContinue, Steps: []markov.Step[string]{{To: x.key(), P: 1}}}}
	}
	cs, decls := m.concessions(k)
	if x.err != nil {
		return nil
	}
	if playOn != nil {
		m.decls[k] = append(decls, nil)
		return append(cs, playOn...)
	}
	return m.rounds(k, cs, decls)
}

// concessions are the deciding party's options of conceding in state k,
// with no checks each.
func (m *optimalModel) concessions(k string) ([]markov.Choice[string], [][]Use) {
	x, in := m.x, m.x.in
	var cs []markov.Choice[string]
	var decls [][]Use
	for _, c := range []Concession{Surrender, WalkAway} {
		if c == WalkAway && !in.typ.WalkAway {
			continue
		}
		m.setOrder(k)
		name, cost := optSurrender, float64(in.s.Parties[m.side].Edge) // every die handed over
		if c == WalkAway {
			name, cost = optWalkAway, 0
		}
		if err := in.concede(m.side, c); err != nil {
			x.err = err
			return nil, nil
		}
		cs = append(cs, markov.Choice[string]{Name: name, Steps: []markov.Step[string]{{To: x.key(), P: 1}}, Cost: cost})
		decls = append(decls, nil)
	}
	return cs, decls
}

// rounds appends to cs (and decls) the deciding party's options of
// playing a round in state k, each with its checks, and records the
// checks of every option of k.
func (m *optimalModel) rounds(k string, cs []markov.Choice[string], decls [][]Use) []markov.Choice[string] {
	x, in := m.x, m.x.in
	m.setOrder(k)
	acting := in.actor() == m.side
	options, answered := m.declarations()
	if !acting {
		m.answers[k] = answered
	}
	options, sheds := m.withSheds(options)
	if len(cs)+len(options) > markov.MaxChoices {
		x.err = fmt.Errorf("%w: %w: %s has %d options in one round: at most %d",
			markov.ErrNoExact, markov.ErrTooLarge, in.pname(m.side), len(cs)+len(options), markov.MaxChoices)
		return nil
	}
	if m.settled += len(options); m.set != setBest && m.settled > everyWork {
		x.err = fmt.Errorf("%w: %w: more than %d options to weigh", markov.ErrNoExact, markov.ErrTooLarge, everyWork)
		return nil
	}
	for i, us := range options {
		m.setOrder(k)
		m.fix.checks, m.fix.shed = us, sheds[i]
		ps, err := in.declare()
		if err != nil {
			x.err = err
			return nil
		}
		// The process copies each option's steps: they are written in
		// scratch space shared by the options of every state.
		n := len(m.steps)
		m.steps = x.round(ps, m.steps)
		steps := m.steps[n:len(m.steps):len(m.steps)]
		if x.err != nil {
			return nil
		}
		name := optReact
		if acting {
			name = optWager
		}
		cs = append(cs, markov.Choice[string]{Name: name, Steps: steps, Cost: cost(us, sheds[i])})
		decls = append(decls, us)
	}
	m.decls[k] = decls
	if m.groups {
		m.sheds[k] = append(make([]uint16, len(decls)-len(options)), sheds...)
	}
	return cs
}

// cost is what an option of playing a round spends that the goal does
// not count: a die for each check (each wagers one), and one more for each
// group abandoning its stragglers (a rank given up for good). Among equally
// good options the plan takes the cheapest (Goal.Ties).
func cost(us []Use, sheds uint16) float64 {
	return float64(len(us) + bits.OnesCount16(sheds))
}

// withSheds adds to options, for each check of a group of the deciding
// party that still has its stragglers and checks an endurance-type skill,
// the same checks with the group abandoning its stragglers first ("Large
// Parties": from then on one rank less, and no penalty on such checks),
// and returns for each option the members (a bit each) that abandon.
// Checks of groups seldom are endurance-type, so an option seldom has more
// than one such variant.
func (m *optimalModel) withSheds(options [][]Use) ([][]Use, []uint16) {
	sheds := make([]uint16, len(options))
	if !m.groups {
		return options, sheds
	}
	in := m.x.in
	lo := in.parties[m.side].lo
	n := len(options)
	for i := range n {
		var can uint16
		for _, u := range options[i] {
			if in.size[lo+u.Member] > 1 && in.endurance.has(u.Skill) && !in.s.Parties[m.side].Members[u.Member].Abandoned {
				can |= 1 << u.Member
			}
		}
		// Every nonempty subset of the groups that may abandon.
		for sub := can; sub != 0; sub = (sub - 1) & can {
			options = append(options, options[i])
			sheds = append(sheds, sub)
		}
	}
	return options, sheds
}

// starts is the start of the process: the starting checks' orders of
// action, each with its probability.
func (m *optimalModel) starts() []markov.Choice[string] {
	x := m.x
	in := x.in
	starts, err := x.starts()
	if err != nil {
		x.err = err
		return nil
	}
	var steps []markov.Step[string]
	for _, st := range starts {
		in.s.resetTo(&in.initial)
		in.s.Started = true
		in.s.Order = append(in.s.Order[:0], st.order...)
		in.s.Initiative = st.order[0]
		x.tag = append(x.tag[:0], 'r', byte(st.order[0]))
		steps = append(steps, markov.Step[string]{To: x.key(), P: st.p})
	}
	return []markov.Choice[string]{{Steps: steps}}
}

// declarations lists the deciding party's options for the round from the
// state x.in holds: its action when it holds the initiative, else its
// reaction to the action its opponent's policy declares (answered). The
// bounded set is n dice, its n best members by either rule (see above);
// the full set every choice of members and, for each, every skill the
// engine's legal-choice query allows it (choices, as LegalActs and
// LegalReactions answer), twins aside (distinct); the relaxation's, see
// bound. No option is listed twice.
func (m *optimalModel) declarations() (options [][]Use, answered []Use) {
	in := m.x.in
	p := m.side
	acting := in.actor() == p
	var acted skillSet
	if !acting {
		var a Action
		a.Party = in.actor()
		in.Policies[a.Party].Act(&in.w.view, a.Party, &a)
		acted, answered = in.skillsOf(&a), a.Checks
	}
	if m.set == setBound {
		return m.relaxed(acting, acted), answered
	}
	// The bounded set first (the plan keeps the first of equal options:
	// the best skills, as a player would choose), then the rest.
	for _, ignoreRep := range []bool{false, true} {
		var rk ranked
		members, lo := in.s.Parties[p].Members, in.parties[p].lo
		for mb := range members {
			if best, mod := in.bestSkill(lo+mb, &members[mb], !acting, acted, ignoreRep); best >= 0 {
				rk.add(mb, best, mod)
			}
		}
		for n := 1; n <= min(rk.n, in.s.Parties[p].Edge); n++ {
			us := rk.take(nil, n)
			if !slices.ContainsFunc(options, func(o []Use) bool { return slices.Equal(o, us) }) {
				options = append(options, us)
			}
		}
	}
	if m.set == setEvery {
		legal := make([][]Choice, len(in.s.Parties[p].Members))
		for mb := range legal {
			legal[mb] = m.distinct(mb, in.choices(p, mb, acting, acted))
		}
		best := len(options)
		for _, us := range m.everyOption(legal, in.s.Parties[p].Edge) {
			if !slices.ContainsFunc(options[:best], func(o []Use) bool { return m.same(o, us) }) {
				options = append(options, us)
			}
		}
	}
	return options, answered
}

// same reports whether checks a and b are the same declaration: the same
// members with the same skills (in any order), or twins of the same
// history in their stead.
func (m *optimalModel) same(a, b []Use) bool {
	if len(a) != len(b) {
		return false
	}
	in, tw := m.x.in, m.x.twins
	for _, u := range a {
		if !slices.ContainsFunc(b, func(v Use) bool {
			if u.Member != v.Member {
				return false
			}
			if u.Skill == v.Skill {
				return true
			}
			if tw == nil || tw.of[u.Member][u.Skill] < 0 || tw.of[u.Member][u.Skill] != tw.of[v.Member][v.Skill] {
				return false
			}
			ms := &in.s.Parties[m.side].Members[u.Member]
			run := in.runOf(ms)
			return in.history(ms, u.Skill, run) == in.history(ms, v.Skill, run)
		}) {
			return false
		}
	}
	return true
}

// distinct leaves out of member mb's legal choices each twin skill (see
// twins) whose history equals that of a twin listed before it: either
// leads to the same state.
func (m *optimalModel) distinct(mb int, legal []Choice) []Choice {
	tw, in := m.x.twins, m.x.in
	if tw == nil {
		return legal
	}
	of := tw.of[mb]
	ms := &in.s.Parties[m.side].Members[mb]
	run := in.runOf(ms)
	var out []Choice
	for i, c := range legal {
		if of[c.Skill] < 0 || !slices.ContainsFunc(legal[:i], func(e Choice) bool {
			return of[e.Skill] == of[c.Skill] && in.history(ms, e.Skill, run) == in.history(ms, c.Skill, run)
		}) {
			out = append(out, c)
		}
	}
	return out
}

// everyOption returns every declaration of up to edge dice in which each
// wagering member (in member order) uses one of its legal skills, stopping
// once more than markov.MaxChoices have been made (the process refuses so
// many in a state, and the full set with it).
func (m *optimalModel) everyOption(legal [][]Choice, edge int) [][]Use {
	var out [][]Use
	var walk func(mb int, us []Use)
	walk = func(mb int, us []Use) {
		if len(out) > markov.MaxChoices {
			return
		}
		if mb == len(legal) {
			if len(us) > 0 {
				out = append(out, slices.Clone(us))
			}
			return
		}
		walk(mb+1, us) // this member does not wager
		if len(us) == edge {
			return
		}
		for _, c := range legal[mb] {
			walk(mb+1, append(us, Use{Member: mb, Skill: c.Skill}))
		}
	}
	walk(0, nil)
	return out
}

// shedding says which groups abandon their stragglers in option i of
// state k ("", none).
func (m *optimalModel) shedding(k string, i int) string {
	sheds := m.sheds[k]
	if i >= len(sheds) || sheds[i] == 0 {
		return ""
	}
	in := m.x.in
	var b strings.Builder
	for mb := range in.parties[m.side].hi - in.parties[m.side].lo {
		if sheds[i]&(1<<mb) != 0 {
			fmt.Fprintf(&b, "; %s abandons its stragglers", in.names[in.parties[m.side].lo+mb])
		}
	}
	return b.String()
}

// describe names an option: "wager 2 dice: Becky with vehicles, Bob with
// ranged attack" when acting, "react with 1 die: Joe with defense" when
// reacting. Advice reads the part before the colon.
func (m *optimalModel) describe(us []Use, acting bool) string {
	in := m.x.in
	var b strings.Builder
	if acting {
		b.WriteString("wager ")
	} else {
		b.WriteString("react with ")
	}
	if len(us) == 1 {
		b.WriteString("1 die: ")
	} else {
		fmt.Fprintf(&b, "%d dice: ", len(us))
	}
	for i, u := range us {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s with %s", in.names[in.parties[m.side].lo+u.Member], in.skills[u.Skill])
	}
	return b.String()
}

// solve solves the process for the aim and reads the plan's answer.
func (m *optimalModel) solve(ctx context.Context, aim markov.Aim) (*Optimal, error) {
	plan, err := m.process.Solve(ctx, m.reward, aim)
	if err != nil {
		return nil, err
	}
	o := &Optimal{Optimum: markov.Optimum{Goal: m.goal, Side: m.s.Parties[m.side].Name, Value: plan.Start(),
		States: m.process.Len(), Choices: m.process.Choices()}, m: m, plan: plan, aim: aim, Options: OptionsBest}
	if m.set == setEvery {
		o.Options = OptionsEvery
	}
	if o.Answer, err = m.answerOf(ctx, plan); err != nil {
		return nil, err
	}
	if mr := m.x.in.rules.MaxRounds; mr > 0 {
		// As Exact: play that outlasts the round limit is not modelled.
		rest := o.Answer.Tail
		for _, q := range o.Answer.Rounds[min(mr+1, len(o.Answer.Rounds)):] {
			rest += q
		}
		if rest > 1e-9 {
			return nil, fmt.Errorf("%w: under this play the interaction outlasts rules.max_rounds = %d with probability %.2g", markov.ErrNoExact, mr, rest)
		}
	}
	o.Policy = &planned{Policy: m.base, o: o}
	return o, nil
}

// answerOf reads play under plan as an Answer (Plan.Answer, without the
// dense chain): a round is counted where the plan plays one, as Exact
// counts rounds played (a concession before any round is 0 rounds).
func (m *optimalModel) answerOf(ctx context.Context, plan *markov.Plan[string]) (markov.Answer, error) {
	a, err := plan.Answer(ctx, len(m.in), func(k string) int { return int(k[1]) }, func(k string) bool {
		_, name, ok := plan.Choice(k)
		return ok && isRound(name)
	})
	if err != nil {
		return markov.Answer{}, err
	}
	// Plan.Answer counts the process's start (the opening checks, before
	// any round) as a round begun; Exact does not.
	if len(a.Rounds) > 0 {
		a.Rounds = a.Rounds[1:]
	}
	a.MeanRounds--
	return a, nil
}

// isRound reports whether the process's option named name plays a round.
func isRound(name string) bool { return name == optWager || name == optReact }

// named names the options of decision d in words (the process names a
// round only "wager" or "react": its checks are spelled out here, for the
// few states advice reads, not for every option explored).
func (m *optimalModel) named(d *markov.Decision[string], chosen int) {
	for i := range d.Options {
		if x := &d.Options[i]; isRound(x.Name) {
			x.Name = m.describe(m.decls[d.State][i], x.Name == optWager) + m.shedding(d.State, i)
		}
	}
	d.Choice = d.Options[chosen].Name
}

func (m *optimalModel) reward(k string) float64 {
	if k[0] == '#' && m.in[k[1]] {
		return 1
	}
	return 0
}

// NewRunner returns a Runner of the scenario in which the deciding party
// plays the plan (Policy) and the other its own policy: the sampled odds
// of the plan, to set beside its exact Value.
func (o *Optimal) NewRunner() (*Runner, error) {
	e, err := o.m.s.NewEngine()
	if err != nil {
		return nil, err
	}
	e.Policies[o.m.side] = o.Policy
	return &Runner{in: e.lend(e.NewState()), parties: len(o.m.s.Parties)}, nil
}

// planned plays a solved plan for the deciding party: it reads the state
// the View shows as the process's state. Where the plan does not know the
// state, or the opponent's action is not the one the plan answers, it
// follows the party's own policy.
type planned struct {
	Policy
	o *Optimal
}

// choice is the plan's option where the deciding party p sees v, and the
// state's key.
func (pl *planned) choice(v *View, p int) (int, string, string, bool) {
	in := v.in
	if p != pl.o.m.side || len(in.parties) != 2 || !in.s.Started || in.s.Outcome.Done() || len(in.s.Order) == 0 {
		return 0, "", "", false
	}
	x := exacter{in: in, tag: []byte{'r', byte(in.s.Order[0])}, twins: pl.o.m.x.twins, free: -1}
	k := x.key()
	i, name, ok := pl.o.plan.Choice(k)
	return i, name, k, ok
}

func (pl *planned) Concede(v *View, p int) Concession {
	_, name, _, ok := pl.choice(v, p)
	switch {
	case !ok:
		return pl.Policy.Concede(v, p)
	case name == optSurrender:
		return Surrender
	case name == optWalkAway:
		return WalkAway
	}
	return Continue
}

// checks returns the plan's checks where p sees v, if it declares any.
func (pl *planned) checks(v *View, p int) ([]Use, bool) {
	i, name, k, ok := pl.choice(v, p)
	if !ok || !isRound(name) {
		return nil, false
	}
	return pl.o.m.real(v.in, pl.o.m.decls[k][i]), true
}

// real turns checks us declared in the canonical form of in's state (see
// twins) into in's own: a twin skill's place in its class is taken by the
// skill with that place's history.
func (m *optimalModel) real(in *game, us []Use) []Use {
	tw := m.x.twins
	if tw == nil {
		return us
	}
	out := slices.Clone(us)
	var order [][]int
	for i, u := range out {
		c := tw.of[u.Member][u.Skill]
		if c < 0 {
			continue
		}
		order = tw.canonical(in, u.Member, &in.s.Parties[m.side].Members[u.Member], order)
		out[i].Skill = order[c][slices.Index(tw.classes[u.Member][c], u.Skill)]
	}
	return out
}

// Abandon follows the plan where it declares the round: the group
// abandons its stragglers before its endurance-type check where the
// plan's option says so.
func (pl *planned) Abandon(v *View, p, m int) bool {
	i, name, k, ok := pl.choice(v, p)
	if !ok || !isRound(name) {
		return pl.Policy.Abandon(v, p, m)
	}
	sheds := pl.o.m.sheds[k]
	return i < len(sheds) && sheds[i]&(1<<m) != 0
}

func (pl *planned) Act(v *View, p int, a *Action) {
	us, ok := pl.checks(v, p)
	if !ok || v.in.actor() != p {
		pl.Policy.Act(v, p, a)
		return
	}
	(&fixed{checks: us}).Act(v, p, a)
}

func (pl *planned) React(v *View, p int, a *Action, r *Reaction) {
	i, name, k, ok := pl.choice(v, p)
	answered, known := pl.o.m.answers[k]
	if !ok || !isRound(name) || !known || v.in.actor() == p || !slices.Equal(a.Checks, answered) {
		pl.Policy.React(v, p, a, r)
		return
	}
	r.Checks = append(r.Checks, pl.o.m.real(v.in, pl.o.m.decls[k][i])...)
}

// ranking is one way the checks of a round can rank against each other
// (each pair: one above, the other above, or level): its probability, and
// check results (places in the check's distribution) that rank so.
type ranking struct {
	p   float64
	odo []int
}

// rankingsOf returns the rankings of the checks of round ps, by their
// modifiers, every combination of results weighed as Exact weighs them.
// Settling a round reads the checks only by how they rank (Rules.outranks:
// the exchange, the initiative), so the rounds whose checks rank alike end
// alike, and settling one of them stands for all.
func (x *exacter) rankingsOf(ps []participant) []ranking {
	// Shifting every modifier alike ranks the checks alike: the key is
	// the modifiers less the first.
	var key []byte
	for i := range ps {
		key = binary.AppendVarint(key, int64(ps[i].mod-ps[0].mod))
	}
	if rs, ok := x.rankings[string(key)]; ok {
		return rs
	}
	n := 1
	for range ps {
		n *= len(x.dist.P)
	}
	if x.work += n; x.work > x.maxWork {
		x.err = fmt.Errorf("%w: %w: more than %d combinations of checks to enumerate over the whole process",
			markov.ErrNoExact, markov.ErrTooLarge, x.maxWork)
		return nil
	}
	var rs []ranking
	idx := map[string]int{}
	tot := make([]int, len(ps))
	var sig []byte
	x.odo = append(x.odo[:0], make([]int, len(ps))...)
	for n := 0; ; n++ {
		if n%4096 == 0 && x.ctx.Err() != nil {
			x.err = x.ctx.Err()
			return nil
		}
		p := 1.0
		for i := range ps {
			p *= x.dist.P[x.odo[i]]
			tot[i] = x.dist.Min + x.odo[i] + ps[i].mod
		}
		if p > 0 {
			sig = sig[:0]
			for i := range ps {
				for j := i + 1; j < len(ps); j++ {
					c := byte(0)
					switch {
					case x.in.rules.outranks(tot[i], ps[i].mod, tot[j], ps[j].mod):
						c = 1
					case x.in.rules.outranks(tot[j], ps[j].mod, tot[i], ps[i].mod):
						c = 2
					}
					sig = append(sig, c)
				}
			}
			k, ok := idx[string(sig)]
			if !ok {
				k = len(rs)
				idx[string(sig)] = k
				rs = append(rs, ranking{odo: slices.Clone(x.odo)})
			}
			rs[k].p += p
		}
		if !x.advance(len(ps)) {
			break
		}
	}
	x.rankings[string(key)] = rs
	return rs
}

// Solve reports how much decisions matter for goal (see Optimal for the
// goal and the deciding party): the goal's probability under the best
// play, the worst play and each shipped policy in the deciding party's
// place (exact, the other party keeping its own), the gap between best
// and worst, and the best play's most consequential decisions in words.
// Its errors are Optimal's, and Exact's for a shipped policy.
func (s Scenario) Solve(ctx context.Context, goal markov.Goal) (markov.Solved, error) {
	m, relaxed, err := s.decisionProcess(ctx, goal)
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
	out.Method += ": " + best.Options
	if relaxed != nil {
		if err := relaxed.bounds(ctx, &out); err != nil {
			return markov.Solved{}, err
		}
	}
	for _, name := range PolicyNames() {
		alt := s.clone()
		alt.Parties[m.side].Policy = name
		a, err := alt.exact(ctx, true)
		if err != nil {
			return markov.Solved{}, fmt.Errorf("edge: policy %s in %s's place: %w", name, best.Side, err)
		}
		out.Policies = append(out.Policies, markov.ValueOf(name, a, m.in))
	}
	if err := out.SetOwnPolicy(cmp.Or(s.Parties[m.side].Policy, DefaultPolicy)); err != nil {
		return markov.Solved{}, fmt.Errorf("edge: %w", err)
	}
	if out.Advice, err = best.advice(ctx); err != nil {
		return markov.Solved{}, err
	}
	return out, nil
}

// bounds marks out, solved over the bounded set, as the best and worst
// found, and sets its Bound (and in its Method the bound on the worst) by
// the relaxation m on play over every legal choice.
func (m *optimalModel) bounds(ctx context.Context, out *markov.Solved) error {
	out.Best.Name = "best found over " + OptionsBest
	out.Worst.Name = "worst found over " + OptionsBest
	hi, err := m.value(ctx, math.NaN(), markov.Maximize)
	if err != nil {
		return err
	}
	lo, err := m.value(ctx, math.NaN(), markov.Minimize)
	if err != nil {
		return err
	}
	out.Method = fmt.Sprintf("solving exactly over %s, every legal choice being too many to solve: the best and worst found", OptionsBest)
	if math.IsNaN(hi) {
		out.Method += "; no bound on play over every legal choice (its relaxation is too large as well)"
		return nil
	}
	out.Bound = &hi
	out.Method += fmt.Sprintf("; over every legal choice P(goal) is at most %.4f and at least %.4f (bounds: a relaxation in which %s picks the repetition penalty each of its checks pays)",
		hi, lo, out.Side)
	return nil
}

// situation is a group of the plan's decision states that read alike: the
// same kind of choice (surrender, walk away, wager or react with so many
// dice) set against the same other kind, with the same edge dice on each
// side and the same party holding the initiative; the skill histories
// differ.
type situation struct {
	holding      bool
	mine, theirs int
	do, alt      string
}

// advice writes the plan's decisions in words (markov.Lines), gathered by
// situation. Options are told by kind, each kind worth its best option: the
// next best option is often the same kind with another skill, worth as
// much, which says little. A line names the full option (members and
// skills) where all its states choose it, else the one chosen most.
func (o *Optimal) advice(ctx context.Context) ([]markov.Advice, error) {
	ds, err := o.plan.Decisions(ctx)
	if err != nil {
		return nil, err
	}
	m := o.m
	chosen := map[string]string{} // a state's full option chosen
	for i, d := range ds {
		c, _, _ := o.plan.Choice(d.State)
		m.named(&d, c)
		chosen[d.State] = d.Choice
		ds[i] = o.byKind(d)
	}
	key := func(d markov.Decision[string], do, alt markov.Option) situation {
		m.setOrder(d.State)
		st := m.x.in.s
		return situation{holding: st.Initiative == m.side, mine: st.Parties[m.side].Edge,
			theirs: st.Parties[1-m.side].Edge, do: do.Name, alt: alt.Name}
	}
	say := func(k situation, group []markov.Decision[string]) markov.Said {
		visits := map[string]float64{}
		for _, d := range group {
			visits[chosen[d.State]] += d.Visits
		}
		return markov.Said{When: k.describe(m.s, m.side), Do: mostChosen(visits, k.do), Else: k.alt}
	}
	return markov.Lines(ds, o.aim, key, say), nil
}

// byKind returns d with its options gathered by kind of choice (the name
// before the colon), each kind worth its best option.
func (o *Optimal) byKind(d markov.Decision[string]) markov.Decision[string] {
	var opts []markov.Option
	for _, x := range d.Options {
		kind, _, _ := strings.Cut(x.Name, ":")
		k := slices.IndexFunc(opts, func(y markov.Option) bool { return y.Name == kind })
		switch {
		case k < 0:
			opts = append(opts, markov.Option{Name: kind, Value: x.Value})
		case o.aim.Prefers(x.Value, opts[k].Value):
			opts[k].Value = x.Value
		}
	}
	d.Choice, _, _ = strings.Cut(d.Choice, ":")
	d.Options = opts
	return d
}

// mostChosen names a line's choice: the full option where every state of
// the line chooses it, else the kind of choice and the one played most.
func mostChosen(visits map[string]float64, kind string) string {
	most, v := "", -1.0
	for name, x := range visits {
		if x > v || x == v && name < most {
			most, v = name, x
		}
	}
	if len(visits) == 1 || most == kind {
		return most
	}
	_, rest, _ := strings.Cut(most, ": ")
	return kind + ", most often " + rest
}

// describe says what the deciding party sees in situation k.
func (k situation) describe(s Scenario, side int) string {
	who := s.Parties[1-side].Name
	if k.holding {
		who = s.Parties[side].Name
	}
	return fmt.Sprintf("%s holds the initiative, %s %s to %s %d", who, s.Parties[side].Name, edgeDice(k.mine), s.Parties[1-side].Name, k.theirs)
}

func edgeDice(n int) string {
	if n == 1 {
		return "1 edge die"
	}
	return fmt.Sprintf("%d edge dice", n)
}
