package actiontest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/stakesrpg/stakes/named"
	"github.com/stakesrpg/stakes/sim/markov"
)

// Optimal is the best (or worst) play of a scenario for a goal.
type Optimal struct {
	// Optimum: the goal, the character's name, the value, the exact
	// answer under this play (its rounds are the tests) and the size of
	// the solved process.
	markov.Optimum
	// Policy plays the plan: in a pursuit of the scenario (a Game's, set
	// with Game.SetPlayer; its View carries the State and the Pursuit) it
	// answers as the plan does; asked outside one it declines the deal,
	// pushes only when it must and spends as the scenario does.
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
	if goal.Ties != "" && !slices.Contains(markov.TiesNames, goal.Ties) {
		return goal, nil, fmt.Errorf("actiontest: goal ties %.40q (allowed: %s)", goal.Ties, named.Allowed(markov.TiesNames))
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
// which track, whether to call the flashback when it is offered, and how
// many heals to buy with extra successes (see the package doc). The
// character decides (goal.Side "" or its name); goal names outcomes among
// Categories, and its Ties how equally good choices are broken (the
// cheapest by default). A scenario outside the exact model, or too large,
// is an error wrapping markov.ErrNoExact (and markov.ErrTooLarge when too
// large); ctx is honoured.
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
	proc.Ties = goal.TieBreak()
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

// Push pushes where the plan does, onto the track the plan then chooses.
func (p planned) Push(v *View) (bool, string) {
	if v.State == nil || v.Pursuit == nil {
		return v.MustPush, v.PushTrack
	}
	k := situationOf(v.State, v.Pursuit)
	_, c, ok := p.plan.Choice(k)
	switch {
	case !ok:
		return v.MustPush, v.PushTrack
	case c != choicePush:
		return false, ""
	}
	k.track = true
	if _, c, ok := p.plan.Choice(k); ok {
		if track, ok := strings.CutPrefix(c, choiceHarmOn); ok {
			return true, track
		}
	}
	return true, v.PushTrack
}

// Spend buys what the plan does (outside the plan, spends as the scenario
// does).
func (p planned) Spend(v *View, buf []int) []int {
	if v.State == nil || v.Pursuit == nil || critical(v.State) {
		return p.order.Choose(v, buf)
	}
	k, _, ok := p.plan.Choice(spendSituation(v.State, v.Pursuit))
	if !ok {
		return p.order.Choose(v, buf)
	}
	ways, err := spendWays(v, p.order)
	if err != nil || k >= len(ways) {
		return p.order.Choose(v, buf)
	}
	return append(buf, ways[k]...)
}

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
	return markov.Lines(ds, o.plan.Aim(), key, markov.AsSaid[situation]), nil
}
