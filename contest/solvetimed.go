package contest

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/named"
	"github.com/stakesrpg/stakes/sim/markov"
)

// Optimal play of a timed action. The actor's side decides: in each gap
// between steps, whether the first helper still able tries to buy time
// (the one Play asks, Engine.helperFor); finished with zero beats left,
// between the objective and a clean getaway ("Completing the Action");
// and, under Rules.TimedTroubleOff, which dice a step won against the
// Trouble Pool takes off it. Or the GM decides (the side named GMSide):
// how many of each roll's 1s to buy, each growing the Trouble Pool a
// later step or helper rolls against. Every transition is the timed
// chain's own (timedChain).

// GMSide names the GM as the deciding side of a timed action's Goal.
const GMSide = "GM"

// The names of a timed decision process's choices.
const (
	noTimeChoice    = "buy no time"
	objectiveChoice = "choose the objective"
	getawayChoice   = "choose a clean getaway"
)

func buyTimeChoice(name string) string { return name + " buys time" }

func troubleOffChoice(d dice.Die) string { return fmt.Sprintf("take a %v off the Trouble Pool", d) }

// optimalTimed solves the decision process of the scenario's timed action
// for goal and aim. goal.Side is the actor's name ("" too), whose helpers
// decide with it, or GMSide; goal.Outcomes default to the action's
// successes (completed, getaway, objective) for the actor, to out_of_time
// for the GM.
func (s Scenario) optimalTimed(ctx context.Context, goal markov.Goal, aim markov.Aim) (*Optimal, error) {
	m, start, err := s.timedModel(ctx)
	if err != nil {
		return nil, err
	}
	o := &Optimal{scenario: s, tmodel: m, aim: aim}
	actor := m.sc.Characters[m.b.actor].Name
	outcomes := goal.Outcomes
	switch goal.Side {
	case "", actor:
		m.decides, o.Side, o.base = true, actor, m.b.table.of(m.b.actor)
		if len(outcomes) == 0 {
			outcomes = []string{"completed", "getaway", "objective"}
		}
	case GMSide:
		if m.actorOnes == nil && (m.troubleFrom[0] || m.helpersRollTrouble()) {
			return nil, noExact(keepOnes, s.Rules.Keep)
		}
		m.gmDecides, o.Side, o.base = true, GMSide, m.b.table.gm()
		if len(outcomes) == 0 {
			outcomes = []string{"out_of_time"}
		}
	default:
		return nil, fmt.Errorf("contest: deciding side %q: a timed action's sides are its actor's (its helpers decide with it) and the GM's: allowed %s", goal.Side, named.Allowed([]string{actor, GMSide}))
	}
	if o.wins, err = s.goalCategories(outcomes, o.Side); err != nil {
		return nil, err
	}
	o.Goal = markov.Goal{Outcomes: s.categoryNames(o.wins), Side: o.Side, Ties: goal.Ties}
	reward := func(st tstate) float64 {
		if st.done && slices.Contains(o.wins, int(st.cat)) {
			return 1
		}
		return 0
	}
	p, err := markov.ExploreProcess(ctx, start, m.choices)
	if m.err != nil {
		return nil, m.err
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, noExact("%v", err)
	}
	o.States, o.Choices = p.Len(), p.Choices()
	p.Ties = o.Goal.TieBreak()
	if o.tplan, err = p.Solve(ctx, reward, aim); err != nil {
		return nil, err
	}
	// Every step but a choice at the end or in the middle of a step is a
	// roll of the actor's, as Exact counts them.
	o.Answer, err = o.tplan.Answer(ctx, len(s.Categories()), func(st tstate) int { return int(st.cat) }, tround)
	if err != nil {
		return nil, err
	}
	for k, q := range o.Answer.P {
		o.Value += q * reward(tstate{done: true, cat: int8(k)})
	}
	return o, nil
}

// tround reports whether st begins a round of a timed action: a roll of
// the actor's (with any help before it).
func tround(st tstate) bool { return !st.choose && st.ask == askNone }

// choices are the options of the deciding side at st: whether the first
// able helper buys time in a gap, objective or getaway at the end, which
// die comes off the Trouble Pool, or, for the GM, how many 1s to buy;
// else the chain's one step.
func (m *timedChain) choices(st tstate) []markov.Choice[tstate] {
	switch {
	case st.done || m.err != nil:
		return nil
	case st.ask == askOnes:
		return m.onesChoices(st)
	case st.ask == askOff:
		return m.offChoices(st)
	case st.choose:
		return []markov.Choice[tstate]{
			{Name: objectiveChoice, Steps: []markov.Step[tstate]{{To: tstate{done: true, cat: 2}, P: 1}}},
			{Name: getawayChoice, Steps: []markov.Step[tstate]{{To: tstate{done: true, cat: 1}, P: 1}}},
		}
	}
	h := m.helper(st)
	if !m.decides || h < 0 {
		return []markov.Choice[tstate]{{Steps: m.next(st, nil)}}
	}
	return []markov.Choice[tstate]{
		{Name: noTimeChoice, Steps: m.roll(st, int(st.beats), 1, nil)},
		{Name: buyTimeChoice(m.sc.Characters[m.b.helper[h].Char].Name), Steps: m.help(st, h, nil)},
	}
}

// onesChoices are the GM's: buy 0 to as many of st.ones 1s as the Trouble
// Pool has room for, each handing the roller Plot Points; then any dice
// the step's win owes come off (after the actor's roll) or the actor
// rolls (after a helper's).
func (m *timedChain) onesChoices(st tstate) []markov.Choice[tstate] {
	most := min(int(st.ones), m.room(st.trouble))
	cs := make([]markov.Choice[tstate], 0, most+1)
	for k := range most + 1 {
		z := m.bought(st, k)
		z.ask, z.ones = askNone, 0
		var steps []markov.Step[tstate]
		if z.gap {
			steps = []markov.Step[tstate]{{To: m.takeOff(z), P: 1}}
		} else {
			steps = m.roll(z, int(z.beats), 1, nil)
		}
		cs = append(cs, markov.Choice[tstate]{Name: buyChoice(k), Steps: steps, Cost: float64(k*m.sc.Rules.OnePlotPoints) * costPoint})
	}
	return cs
}

// offChoices are the actor's: which size of die comes off the Trouble
// Pool next, the largest listed first.
func (m *timedChain) offChoices(st tstate) []markov.Choice[tstate] {
	var cs []markov.Choice[tstate]
	for i := len(st.trouble) - 1; i >= 0; i-- {
		if st.trouble[i] == 0 {
			continue
		}
		z := st
		z.trouble[i]--
		if z.off--; z.off == 0 || z.trouble.size() == 0 {
			z = m.canon(tstate{step: z.step, beats: z.beats, out: z.out, gap: true, trouble: z.trouble})
		}
		cs = append(cs, markov.Choice[tstate]{Name: troubleOffChoice(dice.Die(2*i + 4)), Steps: []markov.Step[tstate]{{To: z, P: 1}}})
	}
	return cs
}

// stateOf is the chain's state of s's timed action as the GM answers its
// last roll's 1s, the actor takes a die off the Trouble Pool, or a helper
// may buy time; ok is false where the chain has no state to match.
func (m *timedChain) stateOf(s *State) (tstate, bool) {
	t := s.Timed
	st := tstate{step: int16(t.Step), beats: int16(t.Beats), gap: true, trouble: troubleOf(s.Trouble)}
	for h := range t.Helpers {
		if t.Helpers[h].Out {
			st.out |= 1 << h
		}
	}
	switch {
	case t.Ones > 0 && t.Phase == TimedGap && t.Bought:
		st.gap, st.ask, st.ones = false, askOnes, int8(min(t.Ones, maxDice)) // after a helper's roll
	case t.Ones > 0 && (t.Phase == TimedGap || t.Phase == TimedTroublePhase):
		st.ask, st.ones, st.off = askOnes, int8(min(t.Ones, maxDice)), int8(min(t.Off, maxDice))
	case t.Phase == TimedTroublePhase:
		st.ask, st.off = askOff, int8(min(t.Off, maxDice))
	case t.Phase == TimedGap && !t.Bought:
		return m.canon(st), true
	default:
		return tstate{}, false
	}
	return st, true
}

// timedAdvice writes the plan's decisions in words (markov.Lines).
func (o *Optimal) timedAdvice(ctx context.Context) ([]markov.Advice, error) {
	ds, err := o.tplan.Decisions(ctx)
	if err != nil {
		return nil, err
	}
	key := func(d markov.Decision[tstate], do, alt markov.Option) markov.Said {
		return markov.Said{When: o.tmodel.describe(d.State), Do: do.Name, Else: alt.Name}
	}
	return markov.Lines(ds, o.aim, key, markov.AsSaid[tstate]), nil
}

// describe says what the deciding side sees at st.
func (m *timedChain) describe(st tstate) string {
	if st.choose {
		return "finished with no beats left"
	}
	n := len(m.b.steps)
	var b strings.Builder
	switch st.ask {
	case askOnes:
		who := "the actor"
		if !st.gap {
			who = "a helper"
		}
		if st.ones == 1 {
			fmt.Fprintf(&b, "%s rolled a 1; ", who)
		} else {
			fmt.Fprintf(&b, "%s rolled %d 1s; ", who, st.ones)
		}
	case askOff:
		if st.off == 1 {
			b.WriteString("won against the Trouble Pool, a die to take off; ")
		} else {
			fmt.Fprintf(&b, "won against the Trouble Pool, %d dice to take off; ", st.off)
		}
	}
	beats := "1 beat"
	if st.beats != 1 {
		beats = fmt.Sprintf("%d beats", st.beats)
	}
	if int(st.step) < n {
		fmt.Fprintf(&b, "before step %d of %d, %s left", st.step+1, n, beats)
	} else {
		fmt.Fprintf(&b, "every step done, %s left", beats)
	}
	if st.trouble.size() > 0 && st.ask != askNone {
		fmt.Fprintf(&b, ", the Trouble Pool %v", st.trouble)
	}
	return b.String()
}

// BuyTime follows the plan in a timed action's gap.
func (p *planned) BuyTime(v *View) bool {
	if name, ok := p.timedChoice(v, TimedGap); ok && p.o.tmodel.decides {
		return name != noTimeChoice
	}
	return p.Policy.BuyTime(v)
}

// timedChoice is the plan's choice where the timed action v shows is in
// phase, if the plan has one.
func (p *planned) timedChoice(v *View, phase TimedPhase) (string, bool) {
	if v.State == nil || v.State.Timed == nil || p.o.tplan == nil || v.State.Timed.Phase != phase {
		return "", false
	}
	st, ok := p.o.tmodel.stateOf(v.State)
	if !ok {
		return "", false
	}
	_, name, ok := p.o.tplan.Choice(st)
	return name, ok
}

// Objective follows the plan at the end of a timed action.
func (p *planned) Objective(v *View) bool {
	if p.o.tplan != nil && p.o.tmodel.decides {
		if _, name, ok := p.o.tplan.Choice(tstate{choose: true}); ok {
			return name == objectiveChoice
		}
	}
	return p.Policy.Objective(v)
}

// TroubleOff follows the plan where the deciding actor takes a die off
// the Trouble Pool: the first die of the size the plan takes.
func (p *planned) TroubleOff(v *View, trouble []dice.Die) int {
	if name, ok := p.timedChoice(v, TimedTroublePhase); ok && p.o.tmodel.decides {
		for k, d := range trouble {
			if name == troubleOffChoice(d) {
				return k
			}
		}
	}
	return p.Policy.TroubleOff(v, trouble)
}
