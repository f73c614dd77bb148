package contest

import (
	"context"
	"fmt"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim/markov"
)

// margins returns P(a - s >= x), P(0 < a - s < x) and P(a <= s) for
// independent totals a and s.
func margins(a, s dice.Dist, x int, tieWins bool) (xo, win, lose float64) {
	for i, pa := range a.P {
		va := a.Min + i
		for j, ps := range s.P {
			q := pa * ps
			switch d := va - (s.Min + j); {
			case d >= x:
				xo += q
			case d > 0 || (d == 0 && tieWins):
				win += q
			default:
				lose += q
			}
		}
	}
	return xo, win, lose
}

// tstate is a state of a timed action's chain. choose is the actor of a
// decision process choosing between its objective and a clean getaway
// (finished with zero beats left).
type tstate struct {
	done   bool
	cat    int8
	step   int16
	beats  int16
	out    uint32 // helpers who failed
	gap    bool
	choose bool
}

// timedChain holds what the chain of a timed action needs: the actor's,
// the helpers' and the stakes' totals, and whether the actor's side (the
// actor and its helpers) decides as a decision process's decider.
type timedChain struct {
	b                    *built
	sc                   *State
	actor                dice.Dist
	helpers              []dice.Dist
	stakes, helperStakes []dice.Dist
	decides              bool
}

// timedModel lays out the chain of the scenario's timed action and its
// start state. It refuses (markov.ErrNoExact) what the chain does not
// follow.
func (s Scenario) timedModel(ctx context.Context) (*timedChain, tstate, error) {
	b, err := s.build()
	if err != nil {
		return nil, tstate{}, err
	}
	m := &timedChain{b: b, sc: &b.scene}
	sc := m.sc
	if c, _ := sc.cost(b.actor, b.picks); c > 0 {
		return nil, tstate{}, noExact("the actor's pool costs %d Plot Points a roll; the chain needs a free pool", c)
	}
	if len(b.helper) > 32 {
		return nil, tstate{}, noExact("%d helpers: the chain takes at most 32", len(b.helper))
	}
	if m.actor, err = TotalDist(sc.sideDice(&Side{}, b.picks, nil), s.Rules); err != nil {
		return nil, tstate{}, err
	}
	m.helpers = make([]dice.Dist, len(b.helper))
	for i, h := range b.helper {
		if c, _ := sc.cost(h.Char, h.Picks); c > 0 {
			return nil, tstate{}, noExact("helper %d's pool costs Plot Points; the chain needs free pools", i)
		}
		if m.helpers[i], err = TotalDist(sc.sideDice(&Side{}, h.Picks, nil), s.Rules); err != nil {
			return nil, tstate{}, err
		}
	}
	if b.table.gm().BuyOnes(&View{Side: -1, Char: -1, Ones: 1, Target: -1, TroubleRoom: sc.troubleRoom()}) > 0 {
		if s.Rules.HelpersRollTrouble && len(b.helper) > 0 {
			return nil, tstate{}, noExact("the GM buys 1s, growing the Trouble Pool helpers roll against (rules.helpers_roll_trouble); the chain keeps it fixed")
		}
		for _, st := range b.steps {
			if len(st.Stakes) == 0 {
				return nil, tstate{}, noExact("the GM buys 1s, growing the Trouble Pool a later step rolls; the chain keeps it fixed")
			}
		}
	}
	m.stakes = make([]dice.Dist, len(b.steps))
	for i, st := range b.steps {
		if err := ctx.Err(); err != nil {
			return nil, tstate{}, err
		}
		ds := st.Stakes
		if len(ds) == 0 {
			ds = sc.Trouble
		}
		if m.stakes[i], err = TotalDist(ds, s.Rules); err != nil {
			return nil, tstate{}, err
		}
	}
	// A helper rolls against the step the actor faces next, or the
	// Trouble Pool.
	m.helperStakes = m.stakes
	if s.Rules.HelpersRollTrouble && len(b.helper) > 0 {
		trouble, err := TotalDist(sc.Trouble, s.Rules)
		if err != nil {
			return nil, tstate{}, err
		}
		m.helperStakes = make([]dice.Dist, len(m.stakes))
		for i := range m.helperStakes {
			m.helperStakes[i] = trouble
		}
	}
	return m, tstate{beats: int16(b.beats)}, nil
}

func (s Scenario) exactTimed(ctx context.Context) (markov.Answer, error) {
	m, start, err := s.timedModel(ctx)
	if err != nil {
		return markov.Answer{}, err
	}
	chain, err := markov.Explore(ctx, start, m.next)
	if err != nil {
		if ctx.Err() != nil {
			return markov.Answer{}, ctx.Err()
		}
		return markov.Answer{}, noExact("%v", err)
	}
	// One absorbing state an outcome, so the sums are the same bits on
	// every call.
	ex, err := markov.AnswerOf(ctx, chain, 4, func(st tstate) int { return int(st.cat) }, 1000)
	if err != nil {
		return markov.Answer{}, fmt.Errorf("contest: solving the timed chain: %w", err)
	}
	return ex, nil
}

// view is what the actor's side sees at state st, beats bt.
func (m *timedChain) view(st tstate, bt int) View {
	return View{Side: -1, Char: m.b.actor, Beats: bt, StepsLeft: len(m.b.steps) - int(st.step), Target: -1, PlotPoints: m.sc.Characters[m.b.actor].PlotPoints}
}

// roll appends the transitions of the actor rolling step st.step with
// probability w, from beats bt.
func (m *timedChain) roll(st tstate, bt int, w float64, buf []markov.Step[tstate]) []markov.Step[tstate] {
	R := &m.sc.Rules
	nsteps := len(m.b.steps)
	xo, win, lose := margins(m.actor, m.stakes[st.step], R.Extraordinary, !R.TiesToHolder)
	for k, q := range [3]float64{xo, win, lose} {
		if q == 0 {
			continue
		}
		cost := R.BeatsPerRoll
		ok := k < 2
		switch k {
		case 0:
			cost = R.BeatsOnExtraordinary
		case 2:
			cost += R.BeatsOnFailure
		}
		y := tstate{step: st.step + 1, beats: int16(bt - cost), out: st.out, gap: true}
		if !ok && !R.FailedLastStepCompletes && int(y.step) == nsteps {
			y.step-- // the last obstacle still stands
		}
		last := int(y.step) == nsteps
		switch {
		case y.beats < 0 || (y.beats == 0 && (!last || !ok)):
			y = tstate{done: true, cat: 3}
		case last && y.beats == 0 && m.decides:
			y = tstate{choose: true}
		case last && y.beats == 0:
			v := m.view(y, 0)
			y = tstate{done: true, cat: 1}
			if m.b.table.of(m.b.actor).Objective(&v) {
				y.cat = 2
			}
		case last:
			y = tstate{done: true, cat: 0}
		}
		buf = append(buf, markov.Step[tstate]{To: y, P: w * q})
	}
	return buf
}

// helper returns the helper who may try to buy time at gap state st: the
// first one still able, as Play asks (Engine.helperFor); -1 if none.
func (m *timedChain) helper(st tstate) int {
	if !st.gap {
		return -1
	}
	for h := range m.b.helper {
		if st.out&(1<<h) == 0 && !m.sc.Characters[m.b.helper[h].Char].Out() {
			return h
		}
	}
	return -1
}

// help appends, with weight 1, helper h trying to buy time at st and the
// actor's roll after it.
func (m *timedChain) help(st tstate, h int, buf []markov.Step[tstate]) []markov.Step[tstate] {
	R := &m.sc.Rules
	bt := int(st.beats)
	xo, win, lose := margins(m.helpers[h], m.helperStakes[st.step], R.Extraordinary, !R.TiesToHolder)
	g2 := max(0, min(R.BuyTimeExtraordinary, R.beatsCap(m.b.beats)-bt))
	g1 := max(0, min(R.BuyTime, R.beatsCap(m.b.beats)-bt))
	buf = m.roll(st, bt+g2, xo, buf)
	buf = m.roll(st, bt+g1, win, buf)
	st2 := st
	st2.out |= 1 << h
	return m.roll(st2, bt, lose, buf)
}

// next is the chain's step from st, every choice made by the policies.
func (m *timedChain) next(st tstate, buf []markov.Step[tstate]) []markov.Step[tstate] {
	if st.done {
		return buf
	}
	if h := m.helper(st); h >= 0 {
		v := m.view(st, int(st.beats))
		if m.b.table.of(m.b.helper[h].Char).BuyTime(&v) {
			return m.help(st, h, buf)
		}
	}
	return m.roll(st, int(st.beats), 1, buf)
}
