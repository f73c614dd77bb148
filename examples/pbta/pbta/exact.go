package pbta

import (
	"context"
	"errors"
	"fmt"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim/markov"
)

// point is a fight as the exact models see it: the harm on both sides, the
// exchanges rolled, and the phase with its pending move and total. Misses
// are left out (a metric only), so a point is a State with Misses zeroed.
type point struct {
	pc, th, n int
	phase     Phase
	move      Move
	total     int
}

func pointOf(s *State) point {
	return point{pc: s.PCHarm, th: s.ThreatHarm, n: s.Exchanges, phase: s.Phase, move: s.Move, total: s.Total}
}

// model holds what the exact models need: the engine whose steps they
// take, and each move's distribution of totals.
type model struct {
	e      *Engine
	start  State
	totals [numMoves]dice.Dist
}

func (sc Scenario) model() (*model, error) {
	e, err := sc.NewEngine()
	if err != nil {
		return nil, err
	}
	sum, err := sc.Rules.sum()
	if err != nil {
		return nil, err
	}
	m := &model{e: e, start: *e.NewState()}
	for mv := range numMoves {
		if m.totals[mv], err = sum.Shift(mv.stat(&sc.PC)); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// sum is the distribution of the dice a move rolls, before the stat.
func (rl Rules) sum() (dice.Dist, error) {
	d, err := dice.NewDie(rl.Sides)
	if err != nil {
		return dice.Dist{}, fmt.Errorf("%w: rules.sides: %v", ErrInvalid, err)
	}
	ds := make([]dice.Die, rl.Dice)
	for i := range ds {
		ds[i] = d
	}
	return dice.SumOf(ds)
}

// state returns the State at point p.
func (m *model) state(p point) State {
	s := m.start
	s.PCHarm, s.ThreatHarm, s.Exchanges, s.Phase, s.Move, s.Total = p.pc, p.th, p.n, p.phase, p.move, p.total
	return s
}

// Odds returns the chance of each band of a move with stat added to the
// dice: P[Miss], P[Partial], P[Full].
func (rl Rules) Odds(stat int) ([3]float64, error) {
	var out [3]float64
	if err := firstErr(rl.Validate(), inRange("stat", stat, -maxStat, maxStat)); err != nil {
		return out, err
	}
	sum, err := rl.sum()
	if err != nil {
		return out, err
	}
	for i, p := range sum.P {
		out[rl.BandOf(sum.Min+i+stat)] += p
	}
	return out, nil
}

// roll applies total t of move mv at s, then lets the policies answer a
// pending cost or hard move unless decide says that side chooses itself
// (the exact chain decides nothing; Solve's process decides for one side).
func (m *model) roll(s *State, mv Move, t int, decideCost, decideHard bool) error {
	m.e.roll(s, mv, t, nil)
	switch {
	case s.Phase == AwaitCost && !decideCost:
		c, err := m.e.askCost(s)
		if err == nil {
			err = m.e.PayCost(s, c)
		}
		return err
	case s.Phase == AwaitHardMove && !decideHard:
		h, err := m.e.askHard(s)
		if err == nil {
			err = m.e.HardMove(s, h)
		}
		return err
	}
	return nil
}

// category is the outcome of a finished point.
func (m *model) category(p point) int {
	s := m.state(p)
	k, _ := s.Outcome(nil)
	return k
}

// Exact returns the exact answer: the fight is an absorbing chain over
// both sides' harm and the exchanges rolled, one transition an exchange
// (the roll and whatever answers it), each policy asked at every point as
// in play. Beside P and the exchanges it gives the mean harm on each side
// at the end and the mean misses. Policies are assumed to answer from the
// View alone, as the shipped ones do.
func (sc Scenario) Exact(ctx context.Context) (markov.Answer, error) {
	if err := sc.Validate(); err != nil {
		return markov.Answer{}, err
	}
	m, err := sc.model()
	if err != nil {
		return markov.Answer{}, err
	}
	var stepErr error
	c, err := markov.Explore(ctx, pointOf(&m.start), func(p point, buf []markov.Step[point]) []markov.Step[point] {
		out, err := m.exchange(p, buf)
		if err != nil && stepErr == nil {
			stepErr = err
		}
		return out
	})
	if err == nil {
		err = stepErr
	}
	if errors.Is(err, markov.ErrTooLarge) {
		return markov.Answer{}, fmt.Errorf("%w: pbta: more than %d points of harm and exchanges a fight of %d exchanges can reach; set rules.max_exchanges lower",
			markov.ErrNoExact, markov.MaxStates, sc.Rules.MaxExchanges)
	}
	if err != nil {
		return markov.Answer{}, err
	}
	return m.answer(ctx, c)
}

// exchange appends the transitions of one exchange from p, under the
// policies; none when the fight at p is over.
func (m *model) exchange(p point, buf []markov.Step[point]) ([]markov.Step[point], error) {
	s := m.state(p)
	if s.Done() {
		return buf, nil
	}
	mv, err := m.e.askMove(&s)
	if err == nil {
		err = m.e.moveOK(&s, mv)
	}
	if err != nil {
		return buf, err
	}
	d := m.totals[mv]
	for i, q := range d.P {
		next := s
		if err := m.roll(&next, mv, d.Min+i, false, false); err != nil {
			return buf, err
		}
		buf = append(buf, markov.Step[point]{To: pointOf(&next), P: q})
	}
	return buf, nil
}

// answer reads the chain as an Answer, summing in the chain's own order of
// states (Solution.All) so that every call gives the same bits.
func (m *model) answer(ctx context.Context, c *markov.Chain[point]) (markov.Answer, error) {
	sol, err := c.Solve()
	if err != nil {
		return markov.Answer{}, err
	}
	a := markov.Answer{P: make([]float64, len(categories)), MeanRounds: sol.ExpectedSteps,
		Means: map[string]float64{"pc_harm": 0, "threat_harm": 0}}
	for p, q := range sol.All() {
		a.P[m.category(p)] += q
		a.Means["pc_harm"] += q * float64(p.pc)
		a.Means["threat_harm"] += q * float64(p.th)
	}
	if a.Means["misses"], err = c.ExpectedReward(m.missChance); err != nil {
		return markov.Answer{}, err
	}
	if err := ctx.Err(); err != nil {
		return markov.Answer{}, err
	}
	a.Rounds, a.Tail, err = c.StepDist(m.start.Rules.MaxExchanges, markov.RoundsTolerance)
	if err != nil {
		return markov.Answer{}, err
	}
	return a, nil
}

// missChance is the chance the exchange from p misses.
func (m *model) missChance(p point) float64 {
	s := m.state(p)
	mv, err := m.e.askMove(&s)
	if err != nil || !mv.valid() {
		return 0
	}
	d, miss := m.totals[mv], 0.0
	for i, q := range d.P {
		if s.Rules.BandOf(d.Min+i) == Miss {
			miss += q
		}
	}
	return miss
}
