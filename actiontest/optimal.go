package actiontest

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/named"
	"github.com/stakesrpg/stakes/sim/markov"
)

// Optimal play. A pursuit is a decision process: between two of the
// Runner's steps the character stands in some situation, and the next step
// either asks the player a question — take the Risk Peril deal before a
// roll, push a roll (and onto which track) after it — or is a plain roll of
// the dice. The model below is built by playing the Runner's own steps from
// every situation, with every legal answer (found with the legal-choice
// queries CanBegin, CanRetry and CanPush) and every count of successes the
// dice can show, so it follows the same rules as a trial. Where the
// scenario offers the day's flashback (Scenario.Flashback) the character
// may call it or keep it for a later failure, and pushing a flashback's
// roll is a choice like any other push; extra successes are spent as the
// scenario says (Scenario.Spend).

// situation is where a pursuit stands between two steps, as the decision
// process sees it: the pursuit's progress, position, hurt and pending
// retry or flashback (or how it ended), the character's harm, carried dice
// and flashbacks used, and the roll in flight.
type situation struct {
	progress, pos, bonus, flash int8
	hurt, retry, pushed, due    bool
	// end is the category + 1 once the pursuit has ended (every other
	// field is then zero).
	end int8
	// fly is the roll in flight: 0 none, 1 the action's, 2 a flashback's;
	// with its Risk Peril deal, whether it must be pushed, whether the
	// action was pushed before a retry, its dice and its successes.
	fly                       int8
	peril, must, actionPushed bool
	dice, hits                int8
	harm                      [maxHarmCells]int8
}

// situationOf reads the situation of a pursuit g played on st.
func situationOf(st *State, g *Pursuit) situation {
	if g.Ended {
		return situation{end: int8(g.Category) + 1}
	}
	rl := &st.Rules
	k := situation{progress: int8(g.Progress), pos: int8(rl.positionAt(g.Position)), bonus: int8(st.Bonus),
		flash: int8(st.FlashbacksUsed), hurt: g.Hurt, retry: g.Retry, due: g.FlashbackDue}
	nr := len(rl.HarmRows)
	for i, h := range st.Harm {
		for j, n := range h.Rows {
			if i*nr+j < maxHarmCells {
				k.harm[i*nr+j] = int8(n)
			}
		}
	}
	if g.Retry {
		k.pushed = st.Attempt.Pushed || st.Attempt.ActionPushed
	}
	at := &st.Attempt
	switch {
	case st.Attempt.Stage == Rolled:
		k.fly = 1
	case st.Flashback.Stage == Rolled:
		k.fly, at = 2, &st.Flashback
	default:
		return k
	}
	k.peril, k.must, k.actionPushed = at.Test.Peril, at.MustPush, at.ActionPushed
	k.dice, k.hits = int8(at.Pool.Dice), int8(at.Successes)
	return k
}

// The names of the choices, as a person reads them.
const (
	choiceTakePeril     = "take the Risk Peril deal"
	choiceDeclinePeril  = "decline the Risk Peril deal"
	choiceRoll          = "roll"
	choiceCannotAct     = "cannot act"
	choiceFlashback     = "call the flashback"
	choiceKeepFlashback = "keep the flashback for later"
	choiceNoFlashback   = "cannot call the flashback"
	choiceKeep          = "keep the roll"
	choicePushOn        = "push (harm on "
)

// answer is what the solver answers the step it plays.
type answer struct {
	peril, push, flashback bool
	track                  string
}

// forced is the policy the solver plays the Runner's steps with: it gives
// the answer being explored and spends as the scenario does.
type forced struct {
	a     answer
	order SpendOrder
}

// Name returns "solver".
func (forced) Name() string { return "solver" }

// Peril answers as explored.
func (f forced) Peril(*View) bool { return f.a.peril }

// Push answers as explored.
func (f forced) Push(*View) (bool, string) { return f.a.push, f.a.track }

// Spend spends as the scenario does.
func (f forced) Spend(v *View, buf []int) []int { return f.order.Choose(v, buf) }

// Flashback answers as explored.
func (f forced) Flashback(*View) bool { return f.a.flashback }

// model is a scenario's decision process under construction: a Runner
// whose state the situations are loaded into, and what exploring found.
type model struct {
	s     *Scenario
	rn    *Runner
	order SpendOrder // how the scenario spends extra successes
	hit   float64    // the chance of a success on one die
	// trans holds each situation's choices, tests whether its step begins
	// an action's test (a test counted in the mean).
	trans map[situation][]markov.Choice[situation]
	tests map[situation]bool
	err   error
}

// newModel validates the scenario for the decision process: within the
// exact model's bounds (as Exact).
func (s *Scenario) newModel() (*model, error) {
	if s.Opponent > 0 {
		return nil, fmt.Errorf("%w: the solver does not model an opposed pursuit's opponent (Exact does)", markov.ErrNoExact)
	}
	rn, err := s.NewRunner()
	if err != nil {
		return nil, err
	}
	rl := rn.c.rules
	if err := s.exactBounds(rl, rn.st); err != nil {
		return nil, err
	}
	order, _ := SpendOrderByName(s.Spend)
	return &model{s: s, rn: rn, order: order, hit: rl.hitChance(),
		trans: map[situation][]markov.Choice[situation]{}, tests: map[situation]bool{}}, nil
}

// load puts the runner in situation k: the scenario's start with k's
// harm, dice and flashbacks, k's pursuit, and the records the next step
// reads — the finished roll a retry follows, the roll in flight.
func (m *model) load(k situation) {
	rn := m.rn
	rn.reset()
	st, rl, g := rn.c.State, rn.c.rules, &rn.Pursuit
	nr := len(rl.HarmRows)
	for i, h := range st.Harm {
		for j := range h.Rows {
			h.Rows[j] = int(k.harm[i*nr+j])
		}
	}
	st.Bonus, st.FlashbacksUsed = int(k.bonus), int(k.flash)
	g.Progress, g.Position, g.Hurt = int(k.progress), Position(rl.Positions[k.pos]), k.hurt
	g.Retry, g.FlashbackDue = k.retry, k.due
	if k.retry {
		last := rn.test
		last.Position = Position(rl.Positions[k.pos-1])
		st.Attempt = Attempt{Test: last, Stage: Finished, Retry: true, NextPosition: g.Position, ActionPushed: k.pushed}
	}
	if k.fly == 0 {
		return
	}
	t, at := rn.test, &st.Attempt
	t.Position, t.Peril = g.Position, k.peril
	if k.fly == 2 {
		t, at = rn.fb, &st.Flashback
	}
	*at = Attempt{Test: t, Stage: Rolled, Pool: Pool{Dice: int(k.dice)}, Dice: rl.faces(nil, int(k.dice), int(k.hits)),
		Successes: int(k.hits), MustPush: k.must, ActionPushed: k.actionPushed}
}

// choices explores situation k: the step's legal answers, each with where
// the dice take it.
func (m *model) choices(k situation) []markov.Choice[situation] {
	if k.end != 0 {
		return nil
	}
	if cs, ok := m.trans[k]; ok {
		return cs
	}
	// The legal answers are found first, on the situation loaded once;
	// playing each then moves the runner on.
	type option struct {
		name string
		a    answer
	}
	var opts []option
	m.load(k)
	rn := m.rn
	g := &rn.Pursuit
	switch at := rn.c.inFlight(); {
	case at != nil:
		// Keeping comes first, so that where pushing gains nothing the
		// plan keeps the roll (ties go to the first choice).
		if !at.MustPush {
			opts = append(opts, option{choiceKeep, answer{}})
		}
		for _, tr := range rn.c.rules.HarmTracks {
			if rn.c.CanPush(tr) == nil {
				opts = append(opts, option{choicePushOn + tr + ")", answer{push: true, track: tr}})
			}
		}
	case g.FlashbackDue:
		if _, err := rn.c.callsFlashback(&rn.fb, rn.sub, forced{}); err != nil {
			opts = append(opts, option{choiceNoFlashback, answer{}})
			break
		}
		opts = append(opts, option{choiceKeepFlashback, answer{}}, option{choiceFlashback, answer{flashback: true}})
	default:
		for _, peril := range []bool{false, true} { // declining first, as keeping
			if (peril && !rn.test.PerilOffered) || m.refused(peril) != nil {
				continue
			}
			switch {
			case !rn.test.PerilOffered:
				opts = append(opts, option{choiceRoll, answer{}})
			case peril:
				opts = append(opts, option{choiceTakePeril, answer{peril: true}})
			default:
				opts = append(opts, option{choiceDeclinePeril, answer{}})
			}
		}
		m.tests[k] = len(opts) > 0
		if len(opts) == 0 {
			opts = append(opts, option{choiceCannotAct, answer{}})
		}
	}
	cs := make([]markov.Choice[situation], len(opts))
	for i, o := range opts {
		cs[i] = markov.Choice[situation]{Name: o.name, Steps: m.play(k, o.a)}
	}
	m.trans[k] = cs
	return cs
}

// refused says why the next test, with or without a Risk Peril deal,
// cannot begin now (the runner loaded with a situation between tests).
func (m *model) refused(peril bool) error {
	rn := m.rn
	if rn.Pursuit.Retry {
		t := rn.c.retryTest()
		t.Peril = peril
		return rn.c.CanRetry(t)
	}
	t := rn.test
	t.Position, t.Peril = rn.Pursuit.Position, peril
	return rn.c.CanBegin(t)
}

// play takes the runner's next step from situation k with answer a, every
// way the dice can fall: first with dice that all fail, to learn how many
// it rolls, then once for each count of successes, with its chance.
func (m *model) play(k situation, a answer) []markov.Step[situation] {
	rl := m.rn.c.rules
	m.load(k)
	probe := dice.Scripted(rl.faces(nil, maxDice, 0)...)
	m.step(probe, a)
	n := maxDice - probe.Remaining()
	var out []markov.Step[situation]
	for hits, p := range binom(n, m.hit) {
		if p == 0 {
			continue
		}
		m.load(k)
		r := dice.Scripted(rl.faces(nil, n, hits)...)
		m.step(r, a)
		if r.Remaining() != 0 || r.Err() != nil {
			m.err = errors.Join(m.err, fmt.Errorf("actiontest: solver: a step from %+v rolled differently from its probe", k))
		}
		out = append(out, markov.Step[situation]{To: situationOf(m.rn.c.State, &m.rn.Pursuit), P: p})
	}
	return out
}

// step takes one Runner step with answer a, then finishes a roll left in
// flight that offers no choice (one that cannot be pushed, or was).
func (m *model) step(r *dice.Roller, a answer) {
	rn := m.rn
	if err := rn.step(r, forced{a, m.order}); err != nil {
		m.err = errors.Join(m.err, err)
		return
	}
	for !rn.Pursuit.Ended {
		at := rn.c.inFlight()
		if at == nil || (at.MustPush && !at.Pushed) || rn.c.PushTrack() != "" {
			return
		}
		if err := rn.step(dice.Scripted(), forced{order: m.order}); err != nil {
			m.err = errors.Join(m.err, err)
			return
		}
	}
}

// explore builds the scenario's decision process and checks that every
// play of it ends within MaxTests tests (else the stalled category would
// need the tests counted, which the situations leave out).
func (m *model) explore(ctx context.Context) (*markov.Process[situation], error) {
	root := situationOf(m.rn.st, &Pursuit{Position: m.rn.test.Position})
	proc, err := markov.ExploreProcess(ctx, root, m.choices)
	if m.err != nil {
		return nil, m.err
	}
	if err != nil {
		if errors.Is(err, markov.ErrTooLarge) {
			return nil, fmt.Errorf("%w: %w", markov.ErrNoExact, err)
		}
		return nil, err
	}
	depth, err := m.longest(root)
	if err != nil {
		return nil, err
	}
	if depth > m.s.MaxTests {
		return nil, fmt.Errorf("%w: a pursuit can take %d tests, more than max_tests %d", markov.ErrNoExact, depth, m.s.MaxTests)
	}
	return proc, nil
}

// longest returns the most tests any play takes; a situation play can
// return to is an error wrapping markov.ErrNoExact.
func (m *model) longest(root situation) (int, error) {
	const open, done = 1, 2
	color, depth := map[situation]int{}, map[situation]int{}
	var visit func(k situation) error
	visit = func(k situation) error {
		color[k] = open
		best := 0
		for _, c := range m.trans[k] {
			for _, st := range c.Steps {
				switch color[st.To] {
				case open:
					return fmt.Errorf("%w: the rules let a pursuit return to an earlier situation, so only max_tests ends it", markov.ErrNoExact)
				case 0:
					if err := visit(st.To); err != nil {
						return err
					}
				}
				best = max(best, depth[st.To])
			}
		}
		if m.tests[k] {
			best++
		}
		color[k], depth[k] = done, best
		return nil
	}
	if err := visit(root); err != nil {
		return 0, err
	}
	return depth[root], nil
}

// Optimal is the best (or worst) play of a scenario for a goal.
type Optimal struct {
	// Optimum: the goal, the character's name, the value, the exact
	// answer under this play (its rounds are the tests) and the size of
	// the solved process.
	markov.Optimum
	// Policy plays the plan: in a pursuit of the scenario (a Game's, set
	// with Game.SetPlayer; its View carries the State and the Pursuit) it answers as the plan
	// does; asked outside one it declines the deal and pushes only when it
	// must. It spends as the scenario does.
	Policy Policy

	plan *markov.Plan[situation]
	m    *model
}

// defaultGoal is what a goal naming no outcome plays for: the pursuit won,
// hurt or not.
var defaultGoal = []string{"clean", "hurt"}

// goalCategories checks goal against the scenario: known outcome names
// (none: defaultGoal) and the character (by its name, or "") deciding. It
// returns the goal filled in (its outcomes, the deciding side's name) and
// the categories it is met in.
func (s *Scenario) goalCategories(goal markov.Goal) (markov.Goal, []bool, error) {
	if goal.Side != "" && goal.Side != s.Character.Name {
		return goal, nil, fmt.Errorf("actiontest: unknown side %.40q; the character decides (allowed: %s)",
			goal.Side, named.Allowed([]string{"", s.Character.Name}))
	}
	if len(goal.Outcomes) == 0 {
		goal.Outcomes = defaultGoal
	}
	in := make([]bool, len(categoryNames))
	for _, o := range goal.Outcomes {
		c, err := categoryNames.Parse(o)
		if err != nil {
			return goal, nil, fmt.Errorf("actiontest: goal: %w", err)
		}
		in[c] = true
	}
	goal.Side = s.Character.Name
	if goal.Side == "" {
		goal.Side = "character"
	}
	return goal, in, nil
}

// Optimal solves the scenario's pursuit as a decision process and returns
// the play that makes goal most likely (aim markov.Maximize) or least
// likely (markov.Minimize): whether to take each Risk Peril deal offered,
// whether to push each roll (the action's or a flashback's) and onto
// which track, and whether to call the flashback when it is offered. The character decides (goal.Side "" or its name); goal
// names outcomes among Categories. A scenario outside the exact model, or
// too large, is an error wrapping markov.ErrNoExact (and
// markov.ErrTooLarge when too large); ctx is honoured.
func (s Scenario) Optimal(ctx context.Context, goal markov.Goal, aim markov.Aim) (*Optimal, error) {
	goal, in, err := s.goalCategories(goal)
	if err != nil {
		return nil, err
	}
	// The chain of the scenario's own play is far smaller than the whole
	// process and as long: a pursuit it finds too long, or looping, rules
	// out the process before it is built.
	if _, err := s.Exact(ctx); err != nil && !errors.Is(err, markov.ErrTooLarge) {
		return nil, err
	}
	m, err := s.newModel()
	if err != nil {
		return nil, err
	}
	proc, err := m.explore(ctx)
	if err != nil {
		return nil, err
	}
	return m.solve(ctx, proc, goal, in, aim)
}

// solve solves an explored process for the goal's categories in.
func (m *model) solve(ctx context.Context, proc *markov.Process[situation], goal markov.Goal, in []bool, aim markov.Aim) (*Optimal, error) {
	plan, err := proc.Solve(ctx, func(k situation) float64 {
		if k.end != 0 && in[k.end-1] {
			return 1
		}
		return 0
	}, aim)
	if err != nil {
		return nil, err
	}
	// A round of an answer is a test: the situations where one begins.
	a, err := plan.Answer(ctx, len(categoryNames), func(k situation) int { return int(k.end) - 1 },
		func(k situation) bool { return m.tests[k] })
	if err != nil {
		return nil, err
	}
	name := "optimal"
	if aim == markov.Minimize {
		name = "worst"
	}
	pol := planned{name: name, plan: plan, order: m.order}
	return &Optimal{Optimum: markov.Optimum{Goal: goal, Side: goal.Side, Value: plan.Start(), Answer: a,
		States: proc.Len(), Choices: proc.Choices()}, Policy: pol, plan: plan, m: m}, nil
}

// planned plays a solved plan: it reads the situation from the View's
// State and Pursuit and answers with the plan's choice there.
type planned struct {
	name  string
	plan  *markov.Plan[situation]
	order SpendOrder
}

// Name returns "optimal" (or "worst").
func (p planned) Name() string { return p.name }

// choice is the plan's choice in the situation v shows, or "" outside the
// plan.
func (p planned) choice(v *View) string {
	if v.State == nil || v.Pursuit == nil {
		return ""
	}
	_, name, _ := p.plan.Choice(situationOf(v.State, v.Pursuit))
	return name
}

// Peril takes the deal where the plan does.
func (p planned) Peril(v *View) bool { return p.choice(v) == choiceTakePeril }

// Push pushes where the plan does, onto the plan's track.
func (p planned) Push(v *View) (bool, string) {
	c := p.choice(v)
	if track, ok := strings.CutPrefix(c, choicePushOn); ok {
		return true, strings.TrimSuffix(track, ")")
	}
	if c == "" {
		return v.MustPush, v.PushTrack
	}
	return false, ""
}

// Spend spends as the scenario does.
func (p planned) Spend(v *View, buf []int) []int { return p.order.Choose(v, buf) }

// Flashback calls the flashback where the plan does (and, outside the
// plan, whenever it is offered).
func (p planned) Flashback(v *View) bool {
	c := p.choice(v)
	return c == choiceFlashback || c == ""
}

// Solve finds how much the character's decisions matter in the scenario
// for goal: the goal's probability under the best play (Optimal with
// markov.Maximize), the worst play (markov.Minimize) and each shipped
// policy (its exact odds, Scenario.Exact), the gap between best and
// worst, and the best play's decisions in words, most consequential first
// (situations alike grouped into one line). Bounded as Optimal is.
func (s Scenario) Solve(ctx context.Context, goal markov.Goal) (markov.Solved, error) {
	goal, in, err := s.goalCategories(goal)
	if err != nil {
		return markov.Solved{}, err
	}
	// Solve reports the scenario's own policy's exact odds: when they
	// cannot be had, nothing else is built.
	if _, err := s.Exact(ctx); err != nil {
		return markov.Solved{}, err
	}
	m, err := s.newModel()
	if err != nil {
		return markov.Solved{}, err
	}
	proc, err := m.explore(ctx)
	if err != nil {
		return markov.Solved{}, err
	}
	best, err := m.solve(ctx, proc, goal, in, markov.Maximize)
	if err != nil {
		return markov.Solved{}, err
	}
	worst, err := m.solve(ctx, proc, goal, in, markov.Minimize)
	if err != nil {
		return markov.Solved{}, err
	}
	out := markov.ExactSolved(goal, goal.Side, best.States, best.Choices,
		markov.PolicyValue{Value: best.Value, Answer: best.Answer}, markov.PolicyValue{Value: worst.Value, Answer: worst.Answer})
	for _, name := range PolicyNames() {
		ps := s
		ps.Policy = name
		a, err := ps.Exact(ctx)
		if err != nil {
			return markov.Solved{}, fmt.Errorf("policy %s: %w", name, err)
		}
		out.Policies = append(out.Policies, markov.ValueOf(name, a, in))
	}
	if err := out.SetOwnPolicy(s.Policy); err != nil {
		return markov.Solved{}, fmt.Errorf("actiontest: %w", err)
	}
	if out.Advice, err = best.advice(ctx); err != nil {
		return markov.Solved{}, err
	}
	return out, nil
}

// advice writes the plan's decisions for a designer (markov.Lines): each
// situation in words (what is asked, at which position, how the roll
// stands, what the harm costs), alike situations with the same choice and
// alternative sharing a line.
func (o *Optimal) advice(ctx context.Context) ([]markov.Advice, error) {
	ds, err := o.plan.Decisions(ctx)
	if err != nil {
		return nil, err
	}
	key := func(d markov.Decision[situation], do, alt markov.Option) markov.Said {
		return markov.Said{When: o.m.describe(d.State), Do: do.Name, Else: alt.Name}
	}
	return markov.Lines(ds, o.plan.Aim(), key, func(k markov.Said, _ []markov.Decision[situation]) markov.Said { return k }), nil
}

// describe puts a situation with a choice in words: what is asked, the
// position, how the roll stands against the difficulty, and what the harm
// held costs (the clock's progress is left out, so that alike situations
// share a line).
func (m *model) describe(k situation) string {
	m.load(k)
	st, rl := m.rn.c.State, m.rn.c.rules
	harm := "unhurt"
	if pen := st.Penalty(); pen == 1 {
		harm = "harm costing 1 die"
	} else if pen > 1 {
		harm = fmt.Sprintf("harm costing %d dice", pen)
	} else if harmHeld(st) > 0 {
		harm = "harm that costs no dice"
	}
	pos := rl.Positions[k.pos]
	switch k.fly {
	case 0:
		return fmt.Sprintf("offered a Risk Peril deal before a %s test, %s", pos, harm)
	case 2:
		return fmt.Sprintf("a flashback roll %s, %s", short(int(k.hits), m.rn.fb.Difficulty), harm)
	}
	return fmt.Sprintf("a %s roll %s, %s", pos, short(int(k.hits), m.s.Difficulty), harm)
}

// short says how a roll's successes stand against what it needs.
func short(hits, need int) string {
	switch {
	case hits < need:
		return fmt.Sprintf("%d success%s short", need-hits, plural(need-hits))
	case hits == need:
		return "exactly made"
	}
	return fmt.Sprintf("made with %d to spare", hits-need)
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "es"
}
