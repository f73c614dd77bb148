package contest

import (
	"context"
	"fmt"
	"slices"

	"github.com/stakesrpg/stakes/named"
	"github.com/stakesrpg/stakes/sim/markov"
)

// Optimal play of a timed action. The actor's side decides: in each gap
// between steps, whether the first helper still able tries to buy time
// (the one Play asks, Engine.helperFor), and, finished with zero beats
// left, between the objective and a clean getaway ("Completing the
// Action"). Every transition is the timed chain's own (timedChain).

// The names of a timed decision process's choices.
const (
	noTimeChoice    = "buy no time"
	objectiveChoice = "choose the objective"
	getawayChoice   = "choose a clean getaway"
)

func buyTimeChoice(name string) string { return name + " buys time" }

// optimalTimed solves the decision process of the scenario's timed action
// for goal and aim. goal.Side is the actor's name ("" too); its helpers
// decide with it. goal.Outcomes default to the action's successes
// (completed, getaway, objective).
func (s Scenario) optimalTimed(ctx context.Context, goal markov.Goal, aim markov.Aim) (*Optimal, error) {
	m, start, err := s.timedModel(ctx)
	if err != nil {
		return nil, err
	}
	m.decides = true
	o := &Optimal{scenario: s, tmodel: m, aim: aim}
	o.Side = m.sc.Characters[m.b.actor].Name
	if goal.Side != "" && goal.Side != o.Side {
		return nil, fmt.Errorf("contest: deciding side %q: a timed action's side is its actor's (its helpers decide with it): allowed %s", goal.Side, named.Allowed([]string{o.Side}))
	}
	outcomes := goal.Outcomes
	if len(outcomes) == 0 {
		outcomes = []string{"completed", "getaway", "objective"}
	}
	if o.wins, err = s.goalCategories(outcomes, o.Side); err != nil {
		return nil, err
	}
	o.Goal = markov.Goal{Outcomes: s.categoryNames(o.wins), Side: o.Side}
	o.base = m.b.table.of(m.b.actor)
	reward := func(st tstate) float64 {
		if st.done && slices.Contains(o.wins, int(st.cat)) {
			return 1
		}
		return 0
	}
	p, err := markov.ExploreProcess(ctx, start, m.choices)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, noExact("%v", err)
	}
	o.States, o.Choices = p.Len(), p.Choices()
	if o.tplan, err = p.Solve(ctx, reward, aim); err != nil {
		return nil, err
	}
	// Every step but the choice at the end is a roll of the actor's, as
	// Exact counts them.
	o.Answer, err = o.tplan.Answer(ctx, len(s.Categories()), func(st tstate) int { return int(st.cat) },
		func(st tstate) bool { return !st.choose })
	if err != nil {
		return nil, err
	}
	for k, q := range o.Answer.P {
		o.Value += q * reward(tstate{done: true, cat: int8(k)})
	}
	return o, nil
}

// choices are the options of the actor's side at st: whether the first
// able helper buys time in a gap, objective or getaway at the end; else
// the chain's one step.
func (m *timedChain) choices(st tstate) []markov.Choice[tstate] {
	switch {
	case st.done:
		return nil
	case st.choose:
		return []markov.Choice[tstate]{
			{Name: objectiveChoice, Steps: []markov.Step[tstate]{{To: tstate{done: true, cat: 2}, P: 1}}},
			{Name: getawayChoice, Steps: []markov.Step[tstate]{{To: tstate{done: true, cat: 1}, P: 1}}},
		}
	}
	roll := m.roll(st, int(st.beats), 1, nil)
	h := m.helper(st)
	if h < 0 {
		return []markov.Choice[tstate]{{Steps: roll}}
	}
	return []markov.Choice[tstate]{
		{Name: noTimeChoice, Steps: roll},
		{Name: buyTimeChoice(m.sc.Characters[m.b.helper[h].Char].Name), Steps: m.help(st, h, nil)},
	}
}

// stateOf is the chain's state of timed action t in a gap.
func (m *timedChain) stateOf(t *Timed) tstate {
	st := tstate{step: int16(t.Step), beats: int16(t.Beats), gap: true}
	for h := range t.Helpers {
		if t.Helpers[h].Out {
			st.out |= 1 << h
		}
	}
	return st
}

// timedAdvice writes the plan's decisions in words (markov.Lines).
func (o *Optimal) timedAdvice(ctx context.Context) ([]markov.Advice, error) {
	ds, err := o.tplan.Decisions(ctx)
	if err != nil {
		return nil, err
	}
	n := len(o.tmodel.b.steps)
	key := func(d markov.Decision[tstate], do, alt markov.Option) markov.Said {
		when := "finished with no beats left"
		if !d.State.choose {
			when = fmt.Sprintf("before step %d of %d, %d beats left", d.State.step+1, n, d.State.beats)
		}
		return markov.Said{When: when, Do: do.Name, Else: alt.Name}
	}
	return markov.Lines(ds, o.aim, key, func(k markov.Said, _ []markov.Decision[tstate]) markov.Said { return k }), nil
}

// BuyTime follows the plan in a timed action's gap.
func (p *planned) BuyTime(v *View) bool {
	if v.State != nil && v.State.Timed != nil && p.o.tplan != nil {
		if t := v.State.Timed; t.Phase == TimedGap && !t.Bought {
			if _, name, ok := p.o.tplan.Choice(p.o.tmodel.stateOf(t)); ok {
				return name != noTimeChoice
			}
		}
	}
	return p.Policy.BuyTime(v)
}

// Objective follows the plan at the end of a timed action.
func (p *planned) Objective(v *View) bool {
	if p.o.tplan != nil {
		if _, name, ok := p.o.tplan.Choice(tstate{choose: true}); ok {
			return name == objectiveChoice
		}
	}
	return p.Policy.Objective(v)
}
