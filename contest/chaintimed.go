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

// tstate is a state of a timed action's chain.
type tstate struct {
	done  bool
	cat   int8
	step  int16
	beats int16
	out   uint32 // helpers who failed
	gap   bool
}

func (s Scenario) exactTimed(ctx context.Context) (markov.Answer, error) {
	b, err := s.build()
	if err != nil {
		return markov.Answer{}, err
	}
	sc := &b.scene
	if c, _ := sc.cost(b.actor, b.picks); c > 0 {
		return markov.Answer{}, noExact("the actor's pool costs %d Plot Points a roll; the chain needs a free pool", c)
	}
	if len(b.helper) > 32 {
		return markov.Answer{}, noExact("%d helpers: the chain takes at most 32", len(b.helper))
	}
	actor, err := TotalDist(sc.sideDice(&Side{}, b.picks, nil), s.Rules)
	if err != nil {
		return markov.Answer{}, err
	}
	helpers := make([]dice.Dist, len(b.helper))
	for i, h := range b.helper {
		if c, _ := sc.cost(h.Char, h.Picks); c > 0 {
			return markov.Answer{}, noExact("helper %d's pool costs Plot Points; the chain needs free pools", i)
		}
		if helpers[i], err = TotalDist(sc.sideDice(&Side{}, h.Picks, nil), s.Rules); err != nil {
			return markov.Answer{}, err
		}
	}
	if b.table.gm().BuyOnes(&View{Side: -1, Char: -1, Ones: 1, Target: -1, TroubleRoom: sc.troubleRoom()}) > 0 {
		if s.Rules.HelpersRollTrouble && len(b.helper) > 0 {
			return markov.Answer{}, noExact("the GM buys 1s, growing the Trouble Pool helpers roll against (rules.helpers_roll_trouble); the chain keeps it fixed")
		}
		for _, st := range b.steps {
			if len(st.Stakes) == 0 {
				return markov.Answer{}, noExact("the GM buys 1s, growing the Trouble Pool a later step rolls; the chain keeps it fixed")
			}
		}
	}
	stakes := make([]dice.Dist, len(b.steps))
	for i, st := range b.steps {
		ds := st.Stakes
		if len(ds) == 0 {
			ds = sc.Trouble
		}
		if stakes[i], err = TotalDist(ds, s.Rules); err != nil {
			return markov.Answer{}, err
		}
	}
	// A helper rolls against the step the actor faces next, or the
	// Trouble Pool.
	helperStakes := stakes
	if s.Rules.HelpersRollTrouble && len(b.helper) > 0 {
		trouble, err := TotalDist(sc.Trouble, s.Rules)
		if err != nil {
			return markov.Answer{}, err
		}
		helperStakes = make([]dice.Dist, len(stakes))
		for i := range helperStakes {
			helperStakes[i] = trouble
		}
	}
	R := s.Rules
	actorP := b.table.of(b.actor)
	nsteps := len(b.steps)
	// roll appends the transitions of the actor rolling step st.step with
	// probability w, from beats bt.
	roll := func(st tstate, bt int, w float64, buf []markov.Step[tstate]) []markov.Step[tstate] {
		xo, win, lose := margins(actor, stakes[st.step], R.Extraordinary, !R.TiesToHolder)
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
			case last && y.beats == 0:
				v := View{Side: -1, Char: b.actor, Beats: 0, StepsLeft: 0, Target: -1, PlotPoints: sc.Characters[b.actor].PlotPoints}
				y = tstate{done: true, cat: 1}
				if actorP.Objective(&v) {
					y.cat = 2
				}
			case last:
				y = tstate{done: true, cat: 0}
			}
			buf = append(buf, markov.Step[tstate]{To: y, P: w * q})
		}
		return buf
	}
	next := func(st tstate, buf []markov.Step[tstate]) []markov.Step[tstate] {
		if st.done {
			return buf
		}
		bt := int(st.beats)
		if st.gap {
			v := View{Side: -1, Char: b.actor, Beats: bt, StepsLeft: nsteps - int(st.step), Target: -1, PlotPoints: sc.Characters[b.actor].PlotPoints}
			for h := range b.helper {
				if st.out&(1<<h) != 0 || sc.Characters[b.helper[h].Char].Out() {
					continue
				}
				if !b.table.of(b.helper[h].Char).BuyTime(&v) {
					break
				}
				xo, win, lose := margins(helpers[h], helperStakes[st.step], R.Extraordinary, !R.TiesToHolder)
				g2 := max(0, min(R.BuyTimeExtraordinary, R.beatsCap(b.beats)-bt))
				g1 := max(0, min(R.BuyTime, R.beatsCap(b.beats)-bt))
				buf = roll(st, bt+g2, xo, buf)
				buf = roll(st, bt+g1, win, buf)
				st2 := st
				st2.out |= 1 << h
				return roll(st2, bt, lose, buf)
			}
		}
		return roll(st, bt, 1, buf)
	}
	chain, err := markov.Explore(ctx, tstate{beats: int16(b.beats)}, next)
	if err != nil {
		return markov.Answer{}, noExact("%v", err)
	}
	sol, err := chain.Solve()
	if err != nil {
		return markov.Answer{}, fmt.Errorf("contest: solving the timed chain: %w", err)
	}
	ex := markov.Answer{P: make([]float64, 4), MeanRounds: sol.ExpectedSteps}
	for st, p := range sol.Absorb {
		ex.P[st.cat] += p
	}
	ex.Rounds, _, err = chain.StepDist(1000, 1e-13)
	return ex, err
}
