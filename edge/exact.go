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
	return s.exact(ctx, false)
}

// exact is Exact; with ranked, each round's checks are weighed by how they
// rank (rankingsOf): the same answer to rounding, in a fraction of the
// time, within the decision process's larger bound on work.
func (s Scenario) exact(ctx context.Context, ranked bool) (markov.Answer, error) {
	x, err := s.exacter(ctx)
	if err != nil {
		return markov.Answer{}, err
	}
	if ranked {
		x.rankings, x.maxWork = map[string][]ranking{}, optimalWork
	}
	in := x.in
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
		if n := chain.Len(); n > maxDense {
			return markov.Answer{}, fmt.Errorf("%w: %w: %d states, a dense solve of at most %d", markov.ErrNoExact, markov.ErrTooLarge, n, maxDense)
		}
		// The round limit is checked first: it reads the chain sparsely,
		// where the solve is dense and could only be thrown away.
		dist, rest, err := chain.StepDist(maxSteps, 1e-13)
		if err != nil {
			return markov.Answer{}, err
		}
		switch {
		case in.rules.MaxRounds > 0 && rest > 1e-9:
			return markov.Answer{}, fmt.Errorf("%w: the interaction outlasts rules.max_rounds = %d with probability %.2g; --set rules.max_rounds=0 (no limit) gives the exact answer without it", markov.ErrNoExact, in.rules.MaxRounds, rest)
		case rest > 1e-9:
			// With no limit set, the GM still calls time after
			// MaxRoundLimit rounds: the answer without a limit is the
			// interaction's only where it is all but sure to end sooner.
			return markov.Answer{}, fmt.Errorf("%w: with rules.max_rounds 0 the interaction outlasts %d rounds with probability %.2g (it may never end: the GM calls time after %d)", markov.ErrNoExact, maxSteps, rest, MaxRoundLimit)
		}
		if err := ctx.Err(); err != nil {
			return markov.Answer{}, err
		}
		sol, err := solve(chain)
		if err != nil {
			return markov.Answer{}, err
		}
		for k, p := range sol.All() {
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

// maxDense bounds the transient states of a chain Exact solves (densely,
// in sim/markov, without a context): about a tenth of a second of work.
// A larger chain is refused before the solve with markov.ErrTooLarge.
const maxDense = 1200

// solve solves chain (at most maxDense states).
func solve(chain *markov.Chain[string]) (markov.Solution[string], error) {
	sol, err := chain.Solve()
	if err != nil {
		return sol, fmt.Errorf("%w: %v", markov.ErrNoExact, err)
	}
	return sol, nil
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
	ctx     context.Context
	work    int // check combinations enumerated so far
	maxWork int // at most this many in all
	// concede: a round's transitions include the parties' chance to
	// concede after it (Exact); without it they stop before (the decision
	// process makes conceding a state's choice).
	concede bool
	// tag goes before every key of a running interaction (the decision
	// process writes its phase and order of action there).
	tag []byte
	// rankings, when not nil, caches the rankings of a round's checks by
	// their modifiers (rankingsOf), and each round settles once per
	// ranking instead of once per combination of results.
	rankings map[string][]ranking
	in       *game
	saved    State // the state a round's outcomes are weighed from
	dist     dice.Dist
	nc       int
	order    []int
	err      error
	buf      []byte
	succ     map[string]int
	keys     []string
	probs    []float64
	odo      []int
	// twins, when not nil, are the deciding party's twin skills (decision
	// process only): its members are written in canonical form; canon is
	// scratch space for it.
	twins *twins
	canon [][]int
	// free is the party whose history for Can't Fool Me Twice the state
	// leaves out (the relaxation of the decision process's bound, see
	// bound), -1 for none.
	free int
	// members is the members' part of the keys of the round being
	// weighed, once membersKnown.
	members      []byte
	membersKnown bool
	// keyOf interns the keys of states (interned); dbuf is decode's.
	keyOf map[string]string
	dbuf  []byte
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
	b, done := x.encodeHead(b)
	if done {
		return b
	}
	return x.encodeMembers(b)
}

// encodeHead appends the key's head: the outcome category when over (and
// done), else the tag, the initiative and the edge dice.
func (x *exacter) encodeHead(b []byte) ([]byte, bool) {
	in := x.in
	st := in.s
	if st.Outcome.Done() {
		return append(b, '#', byte(category(st.Outcome, len(in.parties)))), true
	}
	b = append(b, x.tag...)
	b = append(b, '.', byte(st.Initiative))
	for p := range st.Parties {
		b = binary.AppendUvarint(b, uint64(st.Parties[p].Edge))
	}
	return b, false
}

// encodeMembers appends what each member's later checks read.
func (x *exacter) encodeMembers(b []byte) []byte {
	for g := range x.in.names {
		b = x.encodeMember(b, g)
	}
	return b
}

// encodeMember appends what member g's later checks read of its state:
// outside-factor penalties, group rank, stragglers, and for Can't Fool Me
// Twice the safe skill whose run the next round may go on (with the run's
// length) and the uses of each skill that is not safe, capped where the
// penalty stops growing. A member of the deciding party with twin skills
// (x.twins) is written in canonical form: each class's histories sorted.
func (x *exacter) encodeMember(b []byte, g int) []byte {
	in := x.in
	m := in.mem(g)
	b = binary.AppendVarint(b, int64(m.Penalty))
	b = append(b, byte(m.Rank))
	if m.Abandoned {
		b = append(b, 1)
	} else {
		b = append(b, 0)
	}
	if len(in.rules.Repetition) == 0 || in.parties[in.memberOf[g]].passive {
		return b
	}
	var classes [][]int
	var of []int
	if tw := x.twins; tw != nil && g >= tw.lo && g-tw.lo < len(tw.classes) {
		x.canon = tw.canonical(in, g-tw.lo, m, x.canon)
		classes, of = tw.classes[g-tw.lo], tw.of[g-tw.lo]
	}
	// place returns the skill whose history skill s's place holds.
	place := func(s int) int {
		if of == nil || of[s] < 0 {
			return s
		}
		c := of[s]
		return x.canon[c][slices.Index(classes[c], s)]
	}
	free := in.memberOf[g] == x.free
	if run := in.runOf(m); run >= 0 && !free {
		if of != nil && of[run] >= 0 {
			run = classes[of[run]][0] // the run's skill comes first in its class
		}
		b = append(b, byte(run+1), byte(min(m.Streak, len(in.rules.Repetition))))
	} else {
		b = append(b, 0, 0)
	}
	for s := 1; s < len(in.skills); s++ {
		if !in.safe.has(s) && !free {
			b = append(b, byte(min(m.Uses[place(s)], len(in.rules.Repetition))))
		}
	}
	return b
}

// interned returns x.buf as a string, one string for every round that
// leads to the same state (a state is reached from many others, and the
// process keeps every transition's key).
func (x *exacter) interned() string {
	if k, ok := x.keyOf[string(x.buf)]; ok {
		return k
	}
	k := string(x.buf)
	if x.keyOf == nil {
		x.keyOf = map[string]string{}
	}
	x.keyOf[k] = k
	return k
}

// decode sets x.in's state from a key made by encode (never a final one).
func (x *exacter) decode(k string) {
	in := x.in
	st := in.s
	st.resetTo(&in.initial)
	st.Started = true
	st.Round = roundBase
	st.Order = append(st.Order[:0], x.order...)
	x.dbuf = append(x.dbuf[:0], k...)
	b := x.dbuf
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
		free := in.memberOf[g] == x.free
		for s := 1; s < ns; s++ {
			if !in.safe.has(s) && !free {
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
	return x.round(ps, out)
}

// round appends the transitions of the round declared in ps, from the
// state x.in holds: every combination of check results is weighed, each
// followed by the parties' chance to concede when x.concede is set.
func (x *exacter) round(ps []participant, out []markov.Step[string]) []markov.Step[string] {
	in := x.in
	total := 1
	for range ps {
		total *= len(x.dist.P)
		if total > exactBudget {
			x.err = fmt.Errorf("%w: %w: %d checks a round of %d results each are too many to enumerate (at most %d combinations)",
				markov.ErrNoExact, markov.ErrTooLarge, len(ps), len(x.dist.P), exactBudget)
			return out
		}
	}
	if x.rankings != nil {
		total = 0 // rankingsOf counts its work
	}
	if x.work += total; x.work > x.maxWork {
		x.err = fmt.Errorf("%w: %w: more than %d combinations of checks to enumerate over the whole chain",
			markov.ErrNoExact, markov.ErrTooLarge, x.maxWork)
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
	x.membersKnown = false
	if x.rankings != nil {
		for _, rk := range x.rankingsOf(ps) {
			if x.err != nil {
				return out
			}
			x.work++
			for i := range ps {
				ps[i].total = x.dist.Min + rk.odo[i] + ps[i].mod
			}
			if !x.record(ps, rk.p) {
				return out
			}
		}
	} else if !x.each(ps) {
		return out
	}
	for i, key := range x.keys {
		out = append(out, markov.Step[string]{To: key, P: x.probs[i]})
	}
	return out
}

// each weighs every combination of check results of the round ps and
// records where each leads (record); false when it stopped on an error.
func (x *exacter) each(ps []participant) bool {
	x.odo = append(x.odo[:0], make([]int, len(ps))...)
	for n := 0; ; n++ {
		if n%4096 == 0 && x.ctx.Err() != nil {
			x.err = x.ctx.Err()
			return false
		}
		p := 1.0
		for i := range ps {
			v := x.odo[i]
			p *= x.dist.P[v]
			ps[i].total = x.dist.Min + v + ps[i].mod
		}
		if p > 0 && !x.record(ps, p) {
			return false
		}
		if !x.advance(len(ps)) {
			return true
		}
	}
}

// advance moves the odometer of n check results on; false once it has
// gone round.
func (x *exacter) advance(n int) bool {
	for i := range n {
		x.odo[i]++
		if x.odo[i] < len(x.dist.P) {
			return true
		}
		x.odo[i] = 0
	}
	return false
}

// record settles the round ps with its checks rolled, from the state
// saved before it, and adds p to the state it leads to (after the
// parties' chance to concede, when x.concede is set).
func (x *exacter) record(ps []participant, p float64) bool {
	in := x.in
	in.s.resetTo(&x.saved)
	in.settle(ps)
	if x.concede && !in.s.Outcome.Done() {
		if _, err := in.concessions(); err != nil {
			x.err = err
			return false
		}
	}
	// The members' part of the key is the same whatever the checks rolled
	// (how each member's history changes does not depend on its result):
	// it is written once a round.
	var done bool
	if x.buf, done = x.encodeHead(x.buf[:0]); !done {
		if !x.membersKnown {
			x.members, x.membersKnown = x.encodeMembers(x.members[:0]), true
		}
		x.buf = append(x.buf, x.members...)
	}
	i, ok := x.succ[string(x.buf)]
	if !ok {
		i = len(x.keys)
		k := x.interned()
		x.succ[k] = i
		x.keys = append(x.keys, k)
		x.probs = append(x.probs, 0)
	}
	x.probs[i] += p
	return true
}
