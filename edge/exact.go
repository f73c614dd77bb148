package edge

import (
	"context"
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim/markov"
)

// exactBudget bounds the check combinations enumerated per state, and
// exactWork those enumerated in all: beyond them Exact answers
// markov.ErrTooLarge (wrapped with markov.ErrNoExact) in about a second
// instead of grinding.
const (
	exactBudget = 200_000
	exactWork   = 4_000_000
)

// roundBase is the round number chain states are decoded at; only "used
// in the round just played" matters, so any large value serves.
const roundBase = 1 << 20

// Exact computes win odds, expected rounds and the distribution of rounds
// for a two-party scenario without outside factors, as an absorbing Markov
// chain over edge dice, initiative and each member's skill history, under
// the scenario's (deterministic) policies. Each round's checks are
// enumerated exactly, so it needs few enough checks per round (about four
// d20 checks). Scenarios outside the model return an error wrapping
// markov.ErrNoExact.
func (s Scenario) Exact(ctx context.Context) (markov.Answer, error) {
	e, err := s.NewEngine()
	if err != nil {
		return markov.Answer{}, err
	}
	in := e.lend(e.NewState())
	if len(in.parties) != 2 {
		return markov.Answer{}, fmt.Errorf("%w: the chain covers two parties, not %d", markov.ErrNoExact, len(in.parties))
	}
	if len(in.factors) > 0 {
		return markov.Answer{}, fmt.Errorf("%w: outside factors depend on the round number", markov.ErrNoExact)
	}
	if in.rules.Turns != HolderActs {
		return markov.Answer{}, fmt.Errorf("%w: the chain covers rounds where only the initiative holder acts (rules.turns holder_acts)", markov.ErrNoExact)
	}
	dist, err := dice.SumOf(in.rules.Check.Dice())
	if err != nil {
		return markov.Answer{}, fmt.Errorf("%w: %v", markov.ErrNoExact, err)
	}
	if dist, err = dist.Shift(in.rules.Check.Modifier()); err != nil {
		return markov.Answer{}, fmt.Errorf("%w: %v", markov.ErrNoExact, err)
	}
	x := &exacter{ctx: ctx, in: in, dist: dist, nc: 2*len(in.parties) + 1}
	res := markov.Answer{P: make([]float64, x.nc)}
	starts, err := x.starts()
	if err != nil {
		return markov.Answer{}, err
	}
	maxSteps := in.rules.MaxRounds
	if maxSteps == 0 {
		maxSteps = 100_000
	}
	for _, st := range starts {
		in.s.resetTo(&in.initial)
		in.s.Started = true
		in.s.Order = append(in.s.Order[:0], st.order...)
		in.s.Initiative = st.order[0]
		if conceded, err := in.concessions(); err != nil {
			return markov.Answer{}, err
		} else if conceded {
			res.P[category(in.s.Outcome, 2)] += st.p
			res.Rounds = addAt(res.Rounds, 0, st.p)
			continue
		}
		x.order = st.order
		chain, err := markov.Explore(ctx, x.key(), x.next)
		if x.err != nil {
			return markov.Answer{}, x.err
		}
		if ctx.Err() != nil {
			return markov.Answer{}, ctx.Err()
		}
		if err != nil {
			return markov.Answer{}, fmt.Errorf("%w: %w", markov.ErrNoExact, err)
		}
		sol, err := chain.Solve()
		if err != nil {
			return markov.Answer{}, fmt.Errorf("%w: %v", markov.ErrNoExact, err)
		}
		dist, rest, err := chain.StepDist(maxSteps, 1e-13)
		if err != nil {
			return markov.Answer{}, err
		}
		if in.rules.MaxRounds > 0 && rest > 1e-9 {
			return markov.Answer{}, fmt.Errorf("%w: the interaction outlasts rules.max_rounds = %d with probability %.2g", markov.ErrNoExact, in.rules.MaxRounds, rest)
		}
		for k, p := range sol.Absorb {
			c := int(k[1])
			res.P[c] += st.p * p
		}
		res.MeanRounds += st.p * sol.ExpectedSteps
		for t, p := range dist {
			res.Rounds = addAt(res.Rounds, t, st.p*p)
		}
	}
	return res, nil
}

func addAt(xs []float64, i int, p float64) []float64 {
	for len(xs) <= i {
		xs = append(xs, 0)
	}
	xs[i] += p
	return xs
}

type start struct {
	order []int
	p     float64
}

type exacter struct {
	ctx   context.Context
	work  int // check combinations enumerated so far
	in    *game
	saved State // the state a round's outcomes are weighed from
	dist  dice.Dist
	nc    int
	order []int
	err   error
	buf   []byte
	succ  map[string]int
	keys  []string
	probs []float64
	odo   []int
}

// starts returns the possible orders of action with their probabilities.
func (x *exacter) starts() ([]start, error) {
	in := x.in
	if in.startSkill < 0 || in.parties[0].passive || in.parties[1].passive {
		in.s.resetTo(&in.initial)
		if err := in.starting(dice.Scripted()); err != nil {
			return nil, err
		}
		return []start{{order: slices.Clone(in.s.Order), p: 1}}, nil
	}
	in.s.resetTo(&in.initial)
	_, m0 := in.leader(0, in.startSkill)
	_, m1 := in.leader(1, in.startSkill)
	first := 0.0 // P(party 0 first): it ranks above party 1, or level, listed first
	for a := x.dist.Min; a <= x.dist.Max(); a++ {
		for b := x.dist.Min; b <= x.dist.Max(); b++ {
			if !in.rules.outranks(b+m1, m1, a+m0, m0) {
				first += x.dist.Prob(a) * x.dist.Prob(b)
			}
		}
	}
	var out []start
	if first > 0 {
		out = append(out, start{order: []int{0, 1}, p: first})
	}
	if first < 1 {
		out = append(out, start{order: []int{1, 0}, p: 1 - first})
	}
	return out, nil
}

// key encodes the current state of x.in: the outcome category when over,
// else edge dice, initiative and what each member's checks depend on, with
// counts capped where more no longer changes a penalty.
func (x *exacter) key() string {
	x.buf = x.encode(x.buf[:0])
	return string(x.buf)
}

func (x *exacter) encode(b []byte) []byte {
	in := x.in
	st := in.s
	if st.Outcome.Done() {
		return append(b, '#', byte(category(st.Outcome, len(in.parties))))
	}
	b = append(b, '.', byte(st.Initiative))
	for p := range st.Parties {
		b = binary.AppendUvarint(b, uint64(st.Parties[p].Edge))
	}
	ns := len(in.skills)
	repLen := len(in.rules.Repetition)
	capN := func(n int) byte { return byte(min(n, repLen)) }
	for g := range in.names {
		m := in.mem(g)
		b = binary.AppendVarint(b, int64(m.Penalty))
		b = append(b, byte(m.Rank))
		if m.Abandoned {
			b = append(b, 1)
		} else {
			b = append(b, 0)
		}
		if len(in.rules.Repetition) == 0 || in.parties[in.memberOf[g]].passive {
			continue
		}
		if m.LastRound == st.Round && m.Last >= 0 {
			b = append(b, byte(m.Last+1), capN(m.Streak))
		} else {
			b = append(b, 0, 0)
		}
		for s := range ns {
			if !in.kind[s].safe {
				b = append(b, capN(m.Uses[s]))
			}
		}
	}
	return b
}

// decode sets x.in's state from a key made by encode (never a final one).
func (x *exacter) decode(k string) {
	in := x.in
	st := in.s
	st.resetTo(&in.initial)
	st.Started = true
	st.Round = roundBase
	st.Order = append(st.Order[:0], x.order...)
	b := []byte(k)
	st.Initiative = int(b[1])
	b = b[2:]
	for p := range st.Parties {
		v, n := binary.Uvarint(b)
		st.Parties[p].Edge, st.Parties[p].Out = int(v), v == 0
		b = b[n:]
	}
	ns := len(in.skills)
	for g := range in.names {
		m := in.mem(g)
		v, n := binary.Varint(b)
		m.Penalty = int(v)
		b = b[n:]
		m.Rank, m.Abandoned = int(b[0]), b[1] == 1
		b = b[2:]
		if len(in.rules.Repetition) == 0 || in.parties[in.memberOf[g]].passive {
			continue
		}
		m.Last, m.Streak, m.LastRound = -1, 0, -1
		if b[0] > 0 {
			m.Last, m.Streak, m.LastRound = int(b[0])-1, int(b[1]), roundBase
		}
		b = b[2:]
		for s := range ns {
			if !in.kind[s].safe {
				m.Uses[s] = int(b[0])
				b = b[1:]
			}
		}
	}
}

// next lists the transitions of one round from state k: the policies
// declare, every combination of check results is weighed, and each result
// is followed by the parties' chance to concede before the next round.
func (x *exacter) next(k string, out []markov.Step[string]) []markov.Step[string] {
	if k[0] == '#' || x.err != nil {
		return out
	}
	in := x.in
	x.decode(k)
	ps, err := in.declare()
	if err != nil {
		x.err = err
		return out
	}
	total := 1
	for range ps {
		total *= len(x.dist.P)
		if total > exactBudget {
			x.err = fmt.Errorf("%w: %w: %d checks a round of %d results each are too many to enumerate (at most %d combinations)",
				markov.ErrNoExact, markov.ErrTooLarge, len(ps), len(x.dist.P), exactBudget)
			return out
		}
	}
	if x.work += total; x.work > exactWork {
		x.err = fmt.Errorf("%w: %w: more than %d combinations of checks to enumerate over the whole chain",
			markov.ErrNoExact, markov.ErrTooLarge, exactWork)
		return out
	}
	if x.saved.Parties == nil {
		x.saved = in.s.Clone()
	}
	x.saved.resetTo(in.s)
	if x.succ == nil {
		x.succ = map[string]int{}
	}
	clear(x.succ)
	x.keys, x.probs = x.keys[:0], x.probs[:0]
	x.odo = append(x.odo[:0], make([]int, len(ps))...)
	for n := 0; ; n++ {
		if n%4096 == 0 && x.ctx.Err() != nil {
			x.err = x.ctx.Err()
			return out
		}
		p := 1.0
		for i := range ps {
			v := x.odo[i]
			p *= x.dist.P[v]
			ps[i].total = x.dist.Min + v + ps[i].mod
		}
		if p > 0 {
			in.s.resetTo(&x.saved)
			in.settle(ps)
			if !in.s.Outcome.Done() {
				if _, err := in.concessions(); err != nil {
					x.err = err
					return out
				}
			}
			x.buf = x.encode(x.buf[:0])
			i, ok := x.succ[string(x.buf)]
			if !ok {
				i = len(x.keys)
				x.succ[string(x.buf)] = i
				x.keys = append(x.keys, string(x.buf))
				x.probs = append(x.probs, 0)
			}
			x.probs[i] += p
		}
		// Advance the odometer.
		i := 0
		for ; i < len(ps); i++ {
			x.odo[i]++
			if x.odo[i] < len(x.dist.P) {
				break
			}
			x.odo[i] = 0
		}
		if i == len(ps) {
			break
		}
	}
	for i, key := range x.keys {
		out = append(out, markov.Step[string]{To: key, P: x.probs[i]})
	}
	return out
}
