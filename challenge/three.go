package challenge

import (
	"context"
	"fmt"
	"math"
	"math/bits"
	"slices"

	"github.com/stakesrpg/stakes/sim/markov"
)

// The exact model of a conflict of three sides ("There are more than two
// of us involved in a conflict": legitimately more than two sides). Every
// side casts; the highest roll challenges first and names its answerer,
// or drops out; the side not named may interfere and answer instead if
// its cast beats the named side's; the two play their exchange through
// to a tie, an outright win or a stance; then the side yet to challenge
// or answer challenges with its cast standing, naming one of those left
// (or dropping out), and after that exchange a new round begins. With two
// sides left a round is one exchange, as in a duel, but a challenger whose
// declared target is gone is asked whether to turn on the other or drop
// out.
//
// Within one exchange nobody chooses until it ends (in a tie, an outright
// win or an answer over half), and how it ends hangs only on the standing
// roll it began with: so an exchange is solved once for every standing
// roll (exchangeTable), and the model's states are the points where a
// choice is made or a turn begins. A state holds what the rest of the
// round reads: the sides in, the advantage dice of the round and those won
// for the next, and the rolls still to be read whole: at the round's
// first challenge every side's cast (the challenger's stands, the others'
// decide interference and the last turn), later only the cast of the side
// yet to challenge. How the two other sides' rolls compare is kept where
// the last challenger's target part may read it (the shipped parts that
// read rolls, weakest and strongest, compare them and no more).
//
// A side's policy answers from a State set up as the Engine's would be at
// that point (phase, sides in, challenger and answerer, turns taken, the
// advantage dice, the rolls showing as read); a stance is asked once for
// an exchange's end, without the rolls, which the shipped stances do not
// read. The deciding side of an Optimal makes its choices in states of
// its own: which side to challenge or to drop out (at each of its turns
// where the Engine asks), whether to interfere, and whether to hang in or
// give.

// Kinds of state of the three-sided model.
const (
	tCast      uint8 = iota // a round about to be cast by every side in
	tFirst                  // the deciding side, highest at the cast, names its answerer or drops out
	tInterfere              // the deciding side may interfere with the challenge of side c on side a
	tLast                   // side c's turn to challenge, the round's last
	tStance                 // the deciding side (a) answered side c lower but over half: hang in or give
	tEnd                    // the conflict over, in category end
)

// tstate is a state of the three-sided model. Fields a kind does not use
// are zero, so each situation is one state.
type tstate struct {
	kind uint8
	in   uint8 // bit i: side i is in
	// c and a: the challenger and the answerer (tInterfere: the named
	// one; tStance: the deciding side); ord: at tLast, how the showing
	// rolls of the two sides other than c compare, the lower-numbered
	// against the other (1, 0, -1); later: at tStance, the third side's
	// last turn is yet to come, its cast in keys.
	c, a, ord int8
	later     bool
	end       int8
	adv, next [3]int8 // advantage dice rolled this round, and won for the next
	keys      [3]key  // the rolls to be read whole, by side
}

// Events that end one exchange, between the side that challenged first (c)
// and its answerer (a).
const (
	evTie   = iota // a true tie
	evCWins        // c doubles a: a is out, exhausted or injured
	evAWins        // a, having blocked, doubles c
	evAOver        // a answers c lower but over half: a's stance
	evCOver        // c, blocked, answers a lower but over half: c's stance
	numEvents
)

type events [numEvents]float64

// exchangeTable is how an exchange ends between c and a (each rolling its
// round's advantage dice) from each standing roll: from[0][i] when c
// stands with c's reading i, from[1][j] when a stands with a's reading j
// (after a block), each event weighed by z per answer rolled.
type exchangeTable struct{ from [2][]events }

// newExchangeTable solves every exchange between readings dc and da, from
// the highest standing roll down, so that every answer that blocks has
// been solved before the roll it blocks (the roles swap on a block).
func newExchangeTable(ctx context.Context, r Rules, dc, da *readDist, z float64) (*exchangeTable, error) {
	ds := [2]*readDist{dc, da}
	t := &exchangeTable{from: [2][]events{make([]events, len(dc.keys)), make([]events, len(da.keys))}}
	df := int16(r.DoubleFactor)
	i, j := len(dc.keys)-1, len(da.keys)-1
	for n := 1; i >= 0 || j >= 0; n++ {
		if n%64 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		x, k := 0, i
		if j >= 0 && (i < 0 || da.keys[j].cmp(dc.keys[i]) > 0) {
			x, k = 1, j
			j--
		} else {
			i--
		}
		s, y := ds[x].keys[k], 1-x
		v := &t.from[x][k]
		for jj, ans := range ds[y].keys {
			p := z * ds[y].p[jj]
			switch c := ans.cmp(s); {
			case c > 0:
				for e, q := range t.from[y][jj] {
					v[e] += p * q
				}
			case c == 0:
				v[evTie] += p
			case df*ans[0] <= s[0]:
				v[evCWins+x] += p // x doubles y
			default:
				v[evAOver+x] += p // y answers x over half
			}
		}
	}
	return t, nil
}

// threeModel is a three-sided scenario's model.
type threeModel struct {
	r        Rules
	deciding int // the side whose choices are left open; -1: none
	policies []Policy
	// c is a State set up as the scenario's start, on which the sides'
	// policies are asked (pose).
	c      *State
	dists  map[[2]int]*readDist      // by side and advantage dice
	tables map[[4]int]*exchangeTable // by challenger, answerer and their advantage dice
	err    error                     // the first illegal answer of a policy, or a bound passed
	ctx    context.Context
	// The steps of the option being laid out, one per successor (at[s]
	// its place).
	out []markov.Step[tstate]
	at  map[tstate]int
}

// newThreeModel builds the model of a scenario of three sides, its sides'
// policies answering for them except deciding's (-1: none).
func (s Scenario) newThreeModel(ctx context.Context, c *State, policies []Policy, deciding int) (*threeModel, error) {
	if err := exactRules(s.Rules); err != nil {
		return nil, err
	}
	m := &threeModel{r: s.Rules, deciding: deciding, policies: policies, c: c, ctx: ctx,
		dists: map[[2]int]*readDist{}, tables: map[[4]int]*exchangeTable{}, at: map[tstate]int{}}
	for i := range 3 {
		if why := s.crossing(c, i, i == deciding); why != "" {
			return nil, fmt.Errorf("%w: %s; the exact model of three sides has no cross-offs (a cross-off at a cast is asked with every side's roll showing, which the model keeps whole only at the round's first challenge)", markov.ErrNoExact, why)
		}
	}
	if err := m.checkSize(); err != nil {
		return nil, err
	}
	if err := m.checkBounds(); err != nil {
		return nil, err
	}
	return m, nil
}

// checkSize refuses, wrapping markov.ErrNoExact, a model past its bounds,
// before any of it is built: casts that read more than maxCastTuples ways
// together, or a deciding side choosing at the round's first challenge in
// more situations than markov.MaxProcessStates. It chooses there with
// every cast showing (whom to challenge when it cast highest, whether to
// interfere when its cast beats the named side's), so it has a state for
// each cast in which it may: for sides of two dice each, some 10^5 for
// every way the advantage dice may lie.
func (m *threeModel) checkSize() error {
	in := m.start()
	if in.inSides() < 3 {
		return nil
	}
	n := m.r.AdvantageDice + 1
	configs := make([][3]*readDist, 0, n*n*n)
	for code := range n * n * n {
		var ds [3]*readDist
		tuples := 1
		for i, c := 0, code; i < 3; i, c = i+1, c/n {
			d, err := m.dist(i, c%n)
			if err != nil {
				return err
			}
			ds[i], tuples = d, tuples*len(d.keys)
		}
		if tuples > maxCastTuples {
			return fmt.Errorf("%w: the sides' casts read %d ways together; the exact model of three sides takes up to %d", markov.ErrNoExact, tuples, maxCastTuples)
		}
		configs = append(configs, ds)
	}
	if m.deciding < 0 {
		return nil
	}
	situations := 0
	for _, ds := range configs {
		if situations += choosing(ds, m.deciding); situations > markov.MaxProcessStates {
			return fmt.Errorf("%w: side %s chooses with every cast showing at the round's first challenge (whom to challenge, or whether to interfere) in more than %d situations, the most the exact model holds; it takes sides of one die, or two small ones (d6 d4), and Exact answers this scenario",
				markov.ErrNoExact, m.c.Sides[m.deciding].Name, markov.MaxProcessStates)
		}
	}
	return nil
}

// choosing counts the casts, readings ds of the three sides, in which side
// d may choose at the round's first challenge: its reading above both
// others', or above one of them.
func choosing(ds [3]*readDist, d int) int {
	x, y := ds[(d+1)%3], ds[(d+2)%3]
	n := 0
	for _, k := range ds[d].keys {
		bx, by := lower(x, k), lower(y, k)
		n += bx*len(y.keys) + (len(x.keys)-bx)*by
	}
	return n
}

// lower counts the readings of d below k.
func lower(d *readDist, k key) int {
	i, _ := slices.BinarySearchFunc(d.keys, k, key.cmp)
	return i
}

// dist is side i's reading with n advantage dice.
func (m *threeModel) dist(i, n int) (*readDist, error) {
	if d, ok := m.dists[[2]int{i, n}]; ok {
		return d, nil
	}
	d, err := readDistOf(m.ctx, m.c.Sides[i].Dice, m.r.AdvantageDie, n)
	if err != nil {
		return nil, err
	}
	m.dists[[2]int{i, n}] = &d
	return &d, nil
}

// table is the exchange table of c challenging a with their advantage
// dice of the round in adv.
func (m *threeModel) table(c, a int, adv [3]int8) (*exchangeTable, error) {
	k := [4]int{c, a, int(adv[c]), int(adv[a])}
	if t, ok := m.tables[k]; ok {
		return t, nil
	}
	dc, err := m.dist(c, k[2])
	if err != nil {
		return nil, err
	}
	da, err := m.dist(a, k[3])
	if err != nil {
		return nil, err
	}
	t, err := newExchangeTable(m.ctx, m.r, dc, da, 1)
	if err != nil {
		return nil, err
	}
	m.tables[k] = t
	return t, nil
}

// start is the model's first state: the first cast, by every side that can
// roll.
func (m *threeModel) start() tstate {
	var in uint8
	for i := range m.c.Sides {
		if m.c.Sides[i].Status == StatusIn {
			in |= 1 << i
		}
	}
	return tstate{kind: tCast, in: in, c: -1, a: -1}
}

// process explores the model as a decision process: the deciding side's
// choices are its states' options; every other state has one.
func (m *threeModel) process(ctx context.Context, ties markov.Ties) (*markov.Process[tstate], error) {
	var bufs [4][]markov.Step[tstate]
	var choices [4]markov.Choice[tstate]
	p, err := markov.ExploreProcess(ctx, m.start(), func(st tstate) []markov.Choice[tstate] {
		if m.err != nil || st.kind == tEnd {
			return nil
		}
		opts := m.options(st)
		for k, o := range opts {
			m.begin(bufs[k][:0])
			o.steps(m, st)
			bufs[k] = m.out
			choices[k] = markov.Choice[tstate]{Name: o.name, Steps: bufs[k], Cost: o.cost}
		}
		return choices[:len(opts)]
	})
	if m.err != nil {
		return nil, m.err
	}
	if err != nil {
		return nil, noExact(err)
	}
	p.Ties = ties
	return p, nil
}

// threeOption is one option of a state of the model: its words, its cost
// and the steps it leads to.
type threeOption struct {
	name  string
	cost  float64
	steps func(m *threeModel, st tstate)
	// to is the side it challenges (Drop to drop out) or, for a stance
	// or interference, whether it hangs in or interferes (1) or not (0).
	to int
}

// options lists the options of state st: one chance step where nobody
// chooses; for the deciding side, each side it may challenge in order
// and dropping out, interfering and letting the named side answer, or
// hanging in and giving.
func (m *threeModel) options(st tstate) []threeOption {
	exposed := exposure(m.r)
	switch st.kind {
	case tCast:
		return []threeOption{{name: "cast", steps: (*threeModel).cast}}
	case tFirst, tLast:
		if st.kind == tLast && (int(st.c) != m.deciding || m.sole(st)) {
			return []threeOption{{name: "turn", steps: (*threeModel).turn}}
		}
		var opts []threeOption
		for j := range 3 {
			if j != int(st.c) && st.in&(1<<j) != 0 {
				opts = append(opts, threeOption{name: "challenge " + m.c.label(j), cost: exposed, to: j,
					steps: func(m *threeModel, st tstate) { m.challenge(st, j, 1) }})
			}
		}
		return append(opts, threeOption{name: "drop out", to: Drop, steps: func(m *threeModel, st tstate) { m.drop(st, 1) }})
	case tInterfere:
		k := 3 - int(st.c) - int(st.a)
		return []threeOption{
			{name: "interfere", cost: exposed, to: 1, steps: func(m *threeModel, st tstate) {
				m.exchange(st, int(st.c), k, int(st.a), st.keys[st.a], 1)
			}},
			{name: "let " + m.c.label(int(st.a)) + " answer", steps: func(m *threeModel, st tstate) {
				m.exchange(st, int(st.c), int(st.a), k, st.keys[k], 1)
			}},
		}
	}
	return []threeOption{
		{name: optHangIn, cost: exposed, to: 1, steps: func(m *threeModel, st tstate) { m.stanceTaken(st, true, 1) }},
		{name: optGive, steps: func(m *threeModel, st tstate) { m.stanceTaken(st, false, 1) }},
	}
}

// begin starts the steps of a state in buf.
func (m *threeModel) begin(buf []markov.Step[tstate]) {
	m.out = buf
	clear(m.at)
}

// add adds probability p of going to state to.
func (m *threeModel) add(to tstate, p float64) {
	if p == 0 {
		return
	}
	if k, ok := m.at[to]; ok {
		m.out[k].P += p
		return
	}
	m.at[to] = len(m.out)
	m.out = append(m.out, markov.Step[tstate]{To: to, P: p})
}

func (m *threeModel) fail(err error) {
	if m.err == nil {
		m.err = err
	}
}

func (st tstate) inSides() int { return bits.OnesCount8(st.in) }

func (st tstate) has(i int) bool { return st.in&(1<<i) != 0 }

// round is the cast beginning the next round after st: every side in
// rolls the advantage dice it won in st's round.
func (st tstate) round() tstate {
	n := tstate{kind: tCast, in: st.in, c: -1, a: -1}
	for i := range 3 {
		if st.has(i) {
			n.adv[i] = st.next[i]
		}
	}
	return n
}

// maxCastTuples bounds the readings one cast of three sides lays out.
const maxCastTuples = 1 << 21

// cast lays out every cast of the sides in: the highest roll challenges
// (a true tie at the top is recast, its chance spread over the casts that
// do not tie, as in the model with cross-offs).
func (m *threeModel) cast(st tstate) {
	var ds [3]*readDist
	n := 1
	for i := range 3 {
		if !st.has(i) {
			continue
		}
		d, err := m.dist(i, int(st.adv[i]))
		if err != nil {
			m.fail(err)
			return
		}
		ds[i], n = d, n*len(d.keys)
	}
	if n > maxCastTuples {
		m.fail(fmt.Errorf("%w: the sides' casts read %d ways together; the exact model of three sides takes up to %d", markov.ErrNoExact, n, maxCastTuples))
		return
	}
	var tie float64
	if st.inSides() == 2 {
		tie = m.castTwo(st, ds)
	} else {
		tie = m.castThree(st, ds)
	}
	if m.err != nil {
		return
	}
	if left := math.Pow(tie, float64(m.r.MaxRecasts+1)); m.r.RecastTies && left > maxRecastLeft {
		m.fail(fmt.Errorf("%w: %d casts in a row tie at the top with a chance of %.2g (rules.max_recasts = %d), and the exact model recasts without limit; raise it",
			markov.ErrNoExact, m.r.MaxRecasts+1, left, m.r.MaxRecasts))
		return
	}
	if tie > 0 && tie < 1 {
		for k := range m.out {
			m.out[k].P /= 1 - tie
		}
	}
}

// castTwo lays out a cast of two sides: the higher roll's turn, the
// round's last. It returns the chance of a true tie (recast).
func (m *threeModel) castTwo(st tstate, ds [3]*readDist) float64 {
	x, y := -1, -1
	for i := range 3 {
		if st.has(i) {
			x, y = y, i
		}
	}
	x, y = min(x, y), max(x, y)
	tie := 0.0
	for i, kx := range ds[x].keys {
		for j, ky := range ds[y].keys {
			p := ds[x].p[i] * ds[y].p[j]
			c, k := x, kx
			switch kx.cmp(ky) {
			case 0:
				if m.r.RecastTies {
					tie += p
					continue
				}
			case -1:
				c, k = y, ky
			}
			m.add(m.lastTurn(st, c, k, 0), p)
		}
	}
	return tie
}

// castThree lays out a cast of three sides: the highest roll challenges
// first. Casts that lead to a choice of the deciding side are states of
// their own; the others are gathered by who challenges, answers and waits
// and by the challenger's and the waiting side's readings (all an
// exchange and the turn after it read), then played out. It returns the
// chance of a true tie at the top (recast).
func (m *threeModel) castThree(st tstate, ds [3]*readDist) float64 {
	// gathered[c][a][i][j]: c challenges with its reading i, a answers
	// and the third side waits with its reading j.
	var gathered [3][3][][]float64
	tie := 0.0
	var keys [3]key
	var at [3]int
	for i, k0 := range ds[0].keys {
		if i%16 == 0 && m.ctx.Err() != nil {
			m.fail(m.ctx.Err())
			return 0
		}
		keys[0], at[0] = k0, i
		for j, k1 := range ds[1].keys {
			keys[1], at[1] = k1, j
			for l, k2 := range ds[2].keys {
				keys[2], at[2] = k2, l
				p := ds[0].p[i] * ds[1].p[j] * ds[2].p[l]
				c, tied := top(keys)
				if tied && m.r.RecastTies {
					tie += p
					continue
				}
				a, t := m.firstTurn(st, c, keys, p)
				if a < 0 {
					continue
				}
				g := &gathered[c][a]
				if *g == nil {
					*g = make([][]float64, len(ds[c].keys))
					for r := range *g {
						(*g)[r] = make([]float64, len(ds[t].keys))
					}
				}
				(*g)[at[c]][at[t]] += p
			}
		}
	}
	for c := range 3 {
		for a := range 3 {
			if g := gathered[c][a]; g != nil {
				m.playGathered(st, c, a, ds, g)
			}
		}
	}
	return tie
}

// top returns the side of the highest cast, the first listed among equals,
// and whether another side's cast truly ties it.
func top(keys [3]key) (int, bool) {
	c, tied := 0, false
	for i := 1; i < 3; i++ {
		switch keys[i].cmp(keys[c]) {
		case 1:
			c, tied = i, false
		case 0:
			tied = true
		}
	}
	return c, tied
}

// playGathered plays out the gathered first exchanges of c against a, the
// third side waiting.
func (m *threeModel) playGathered(st tstate, c, a int, ds [3]*readDist, g [][]float64) {
	tb, err := m.table(c, a, st.adv)
	if err != nil {
		m.fail(err)
		return
	}
	t := 3 - c - a
	for i, row := range g {
		for j, p := range row {
			if p > 0 {
				m.ended(st, c, a, t, ds[t].keys[j], &tb.from[0][i], p)
			}
		}
	}
}

// firstTurn settles the round's first challenge, of c over all three
// casts: a choice of the deciding side becomes its state; otherwise c's
// policy names its answerer (or drops out) and the side not named may
// interfere. It returns the answerer and the waiting side when the
// exchange is to be played, or -1 when it has been laid out.
func (m *threeModel) firstTurn(st tstate, c int, keys [3]key, p float64) (int, int) {
	if c == m.deciding {
		m.add(tstate{kind: tFirst, in: st.in, c: int8(c), a: -1, adv: st.adv, keys: keys}, p)
		return -1, -1
	}
	j := m.policies[c].Target(m.pose(PhaseChallenge, st, c, -1, keys, 0), c)
	if j == Drop {
		m.dropFirst(st, c, keys, p)
		return -1, -1
	}
	if j < 0 || j >= 3 || j == c || !st.has(j) {
		m.fail(fmt.Errorf("challenge: side %s's target policy named side %d: name another side in, or Drop", m.c.Sides[c].Name, j))
		return -1, -1
	}
	a, t, open := m.answering(st, c, j, keys)
	if open {
		m.add(tstate{kind: tInterfere, in: st.in, c: int8(c), a: int8(j), adv: st.adv, keys: keys}, p)
		return -1, -1
	}
	return a, t
}

// answering returns who answers c's first challenge of the round on j,
// the casts showing keys, and who waits: the side not named answers
// instead when its cast beats j's and its policy interferes. open: that
// side is the deciding side, whose choice it is.
func (m *threeModel) answering(st tstate, c, j int, keys [3]key) (a, t int, open bool) {
	k := 3 - c - j
	switch {
	case keys[k].cmp(keys[j]) <= 0:
	case k == m.deciding:
		return -1, -1, true
	case m.policies[k].Interfere(m.pose(PhaseInterfere, st, c, j, keys, 0), k):
		return k, j, false
	}
	return j, k, false
}

// pose sets the model's State as the Engine's would stand when a policy
// is asked in phase ph: the sides in (the others out), challenger ch and
// answerer an, the sides that have had their turn this round (turned),
// the advantage dice of the round and those won for the next, and the
// rolls showing as read (the high face carrying the advantage dice).
func (m *threeModel) pose(ph Phase, st tstate, ch, an int, shows [3]key, turned uint8) *View {
	c := m.c
	c.Phase, c.Challenger, c.Answerer = ph, ch, an
	for i := range c.Sides {
		s := &c.Sides[i]
		s.Status = StatusIn
		if !st.has(i) {
			s.Status = StatusInjured
		}
		s.Advantage, s.Next, s.Turned = int(st.adv[i]), int(st.next[i]), turned&(1<<i) != 0
		s.Faces, s.Bonus = s.Faces[:0], 0
		for _, f := range shows[i][:min(len(s.Dice), keyLen)] {
			s.Faces = append(s.Faces, int(f))
		}
	}
	return &View{c}
}

// dropFirst is the round's first challenger c dropping out: the higher
// cast of the other two takes its turn, the round's last (the first
// listed of equals).
func (m *threeModel) dropFirst(st tstate, c int, keys [3]key, p float64) {
	st.in &^= 1 << c
	x, y := (c+1)%3, (c+2)%3
	x, y = min(x, y), max(x, y)
	if keys[y].cmp(keys[x]) > 0 {
		x = y
	}
	m.add(m.lastTurn(st, x, keys[x], 0), p)
}

// lastTurn is side c's turn to challenge with standing roll k, the
// round's last, after st; ord is how the other two sides' showing rolls
// compare. It keeps ord only where c's policy is asked.
func (m *threeModel) lastTurn(st tstate, c int, k key, ord int) tstate {
	n := tstate{kind: tLast, in: st.in, c: int8(c), a: -1, adv: st.adv, next: st.next}
	n.keys[c] = k
	if c != m.deciding && st.inSides() == 3 {
		n.ord = int8(ord)
	}
	return n
}

// sole reports whether the challenger of tLast state st has no choice to
// make (State.soleAnswerer): one other side in, its declared target or
// none declared.
func (m *threeModel) sole(st tstate) bool {
	if st.inSides() != 2 {
		return false
	}
	t := m.c.Sides[st.c].Target
	return t < 0 || st.has(t)
}

// turn plays tLast state st for a side that is not deciding or has no
// choice: it names its answerer as its policy says, or drops out.
func (m *threeModel) turn(st tstate) {
	c := int(st.c)
	j := m.onlyOther(st, c)
	if !m.sole(st) {
		j = m.policies[c].Target(m.pose(PhaseChallenge, st, c, -1, m.lastShows(st), m.turned(st)), c)
	}
	if j == Drop {
		m.drop(st, 1)
		return
	}
	if j < 0 || j >= 3 || j == c || !st.has(j) {
		m.fail(fmt.Errorf("challenge: side %s's target policy named side %d: name another side in, or Drop", m.c.Sides[c].Name, j))
		return
	}
	m.challenge(st, j, 1)
}

// onlyOther returns the side in other than c when two are in, the
// highest-numbered one otherwise.
func (m *threeModel) onlyOther(st tstate, c int) int {
	j := -1
	for i := range 3 {
		if i != c && st.has(i) {
			j = i
		}
	}
	return j
}

// turned is the sides that have had their turn before the round's last:
// with three in, the two other than its challenger.
func (m *threeModel) turned(st tstate) uint8 {
	if st.inSides() == 3 {
		return st.in &^ (1 << st.c)
	}
	return 0
}

// lastShows is the rolls showing at tLast state st: the challenger's
// standing, and for the other two sides rolls that compare as st.ord
// says.
func (m *threeModel) lastShows(st tstate) [3]key {
	var shows [3]key
	x, y := (int(st.c)+1)%3, (int(st.c)+2)%3
	x, y = min(x, y), max(x, y)
	for _, i := range []int{x, y} {
		for f := range shows[i] {
			shows[i][f] = 1
		}
	}
	switch st.ord {
	case 1:
		shows[x][0] = 2
	case -1:
		shows[y][0] = 2
	}
	shows[st.c] = st.keys[st.c]
	return shows
}

// challenge is st's challenger naming j: at the round's first challenge
// (the deciding side's) the side not named may interfere; at its last
// turn j answers.
func (m *threeModel) challenge(st tstate, j int, p float64) {
	c := int(st.c)
	if st.kind == tLast {
		m.exchange(st, c, j, -1, key{}, p)
		return
	}
	a, t, _ := m.answering(st, c, j, st.keys)
	m.exchange(st, c, a, t, st.keys[t], p)
}

// drop is st's challenger dropping out.
func (m *threeModel) drop(st tstate, p float64) {
	c := int(st.c)
	if st.kind == tFirst {
		m.dropFirst(st, c, st.keys, p)
		return
	}
	m.out1(st, c, -1, StatusDropped, -1, key{}, p)
}

// exchange plays c's challenge with its standing roll of st against a, t
// waiting with cast kt for the round's last turn (-1: none).
func (m *threeModel) exchange(st tstate, c, a, t int, kt key, p float64) {
	tb, err := m.table(c, a, st.adv)
	if err != nil {
		m.fail(err)
		return
	}
	d, err := m.dist(c, int(st.adv[c]))
	if err != nil {
		m.fail(err)
		return
	}
	i, ok := slices.BinarySearchFunc(d.keys, st.keys[c], key.cmp)
	if !ok {
		m.fail(fmt.Errorf("challenge: side %s's standing roll %v is not a reading of its dice", m.c.Sides[c].Name, st.keys[c]))
		return
	}
	m.ended(st, c, a, t, kt, &tb.from[0][i], p)
}

// ended lays out how an exchange of c on a ends, by ev, t waiting with kt.
func (m *threeModel) ended(st tstate, c, a, t int, kt key, ev *events, p float64) {
	for e, q := range ev {
		if q == 0 {
			continue
		}
		q *= p
		switch e {
		case evTie:
			if m.r.TieEndsRound {
				m.add(base(st).round(), q)
				continue
			}
			m.after(st, c, a, 0, t, kt, q)
		case evCWins:
			m.out1(st, a, c, StatusInjured, t, kt, q)
		case evAWins:
			m.out1(st, c, a, StatusInjured, t, kt, q)
		case evAOver:
			m.stance(st, c, a, t, kt, q)
		case evCOver:
			m.stance(st, a, c, t, kt, q)
		}
	}
}

// base is st's sides in and advantage dice, with no situation.
func base(st tstate) tstate {
	return tstate{in: st.in, c: -1, a: -1, adv: st.adv, next: st.next}
}

// after goes on from an exchange of x and y that both came through, x's
// roll comparing with y's as d: to t's last turn with kt, or a new round.
func (m *threeModel) after(st tstate, x, y, d, t int, kt key, p float64) {
	if t < 0 {
		m.add(base(st).round(), p)
		return
	}
	if x > y {
		d = -d
	}
	m.add(m.lastTurn(st, t, kt, d), p)
}

// stance is an, answering ch lower but over half: the deciding side's
// state, or its policy asked (once for the exchange, with no rolls
// showing).
func (m *threeModel) stance(st tstate, ch, an, t int, kt key, p float64) {
	if an == m.deciding {
		n := base(st)
		n.kind, n.c, n.a, n.later = tStance, int8(ch), int8(an), t >= 0
		if t >= 0 {
			n.keys[t] = kt
		}
		m.add(n, p)
		return
	}
	v := m.pose(PhaseStance, st, ch, an, [3]key{}, 0)
	m.hang(st, ch, an, m.policies[an].HangIn(v, an), t, kt, p)
}

// stanceTaken is the deciding side's stance at tStance state st.
func (m *threeModel) stanceTaken(st tstate, hangIn bool, p float64) {
	t := -1
	if st.later {
		t = 3 - int(st.c) - int(st.a)
	}
	var kt key
	if t >= 0 {
		kt = st.keys[t]
	}
	m.hang(st, int(st.c), int(st.a), hangIn, t, kt, p)
}

// hang is an hanging in (ch carries an advantage die into the next round,
// up to Rules.AdvantageDice) or giving.
func (m *threeModel) hang(st tstate, ch, an int, hangIn bool, t int, kt key, p float64) {
	if !hangIn {
		m.out1(st, an, ch, StatusGave, t, kt, p)
		return
	}
	st.next[ch] = min(st.next[ch]+1, int8(m.r.AdvantageDice))
	m.after(st, ch, an, 1, t, kt, p)
}

// out1 puts side x out (beaten outright by w, given to w, or dropped):
// the conflict ends with one side left, and otherwise goes on to t's last
// turn with kt or a new round.
func (m *threeModel) out1(st tstate, x, w int, how Status, t int, kt key, p float64) {
	st.in &^= 1 << x
	st.adv[x], st.next[x] = 0, 0
	if st.inSides() == 1 {
		winner := bits.TrailingZeros8(st.in)
		cat := 3 * winner
		switch how {
		case StatusGave:
			cat++
		case StatusDropped:
			cat += 2
		}
		m.add(tstate{kind: tEnd, c: -1, a: -1, end: int8(cat)}, p)
		return
	}
	if t >= 0 {
		m.add(m.lastTurn(st, t, kt, 0), p)
		return
	}
	m.add(base(st).round(), p)
}

// checkBounds refuses, wrapping markov.ErrNoExact, a conflict that may
// outlast Rules.MaxExchanges answers with a chance over maxStalemate under
// some play: the model counts no answers, so it leaves the stalemate out.
// The chance is bounded by Chernoff's inequality, P(X > n) <= E[z^X] /
// z^(n+1) for any z > 1, X the answers rolled, with E[z^X] bounded over
// every play (longestPlay) for a few z, the least bound kept.
func (m *threeModel) checkBounds() error {
	n := m.r.MaxExchanges
	best := 1.0
	for z := 1 + 1.0/1024; z < 4; z = 1 + 2*(z-1) {
		g, err := m.longestPlay(z)
		if err != nil {
			return err
		}
		if math.IsInf(g, 1) {
			break // E[z^X] may be infinite for this z and every larger one
		}
		if best = min(best, math.Exp(math.Log(g)-float64(n+1)*math.Log(z))); best <= maxStalemate {
			return nil
		}
	}
	return fmt.Errorf("%w: the conflict may outlast rules.max_exchanges = %d (a stalemate the exact model leaves out) with a chance up to %.2g under some play; raise it",
		markov.ErrNoExact, n, best)
}

// longestPlay bounds E[z^X] over every play, X the answers rolled, round
// by round. While three sides are in, a round's first exchange weighs at
// most W1 (over the casts, the answer and stance that weigh most) and its
// last at most W2 (the most any standing roll weighs against any side);
// counting only the ends in which every side stays in, K1 and K2. So a
// round that keeps all three in weighs at most A3 = K1 K2 and any round
// T3 = W1 W2, and play with three in at most T3 / (1 - A3); with two in,
// T2 / (1 - A2) likewise, each round one exchange. It returns +Inf where
// a round may keep every side in with a weight of 1 or more.
func (m *threeModel) longestPlay(z float64) (float64, error) {
	tables := map[[4]int]*exchangeTable{}
	table := func(c, a, nc, na int) (*exchangeTable, error) {
		k := [4]int{c, a, nc, na}
		if t, ok := tables[k]; ok {
			return t, nil
		}
		dc, err := m.dist(c, nc)
		if err != nil {
			return nil, err
		}
		da, err := m.dist(a, na)
		if err != nil {
			return nil, err
		}
		t, err := newExchangeTable(m.ctx, m.r, dc, da, z)
		tables[k] = t
		return t, err
	}
	var in []int
	for i := range 3 {
		if m.start().has(i) {
			in = append(in, i)
		}
	}
	g := 1.0
	if len(in) == 3 {
		w1, k1, err := m.castWeights(in, table)
		if err != nil {
			return 0, err
		}
		w2, k2, err := m.standingWeights(table)
		if err != nil {
			return 0, err
		}
		if k1*k2 >= 1 {
			return math.Inf(1), nil
		}
		g = w1 * w2 / (1 - k1*k2)
	}
	w, k := 0.0, 0.0
	for x := range in {
		for _, y := range in[x+1:] {
			wp, kp, err := m.castWeights([]int{in[x], y}, table)
			if err != nil {
				return 0, err
			}
			w, k = max(w, wp), max(k, kp)
		}
	}
	if k >= 1 {
		return math.Inf(1), nil
	}
	return g * w / (1 - k), nil
}

// castWeights is the most a round's first exchange among sides weighs, over
// every advantage dice the sides may roll: over the casts, the highest
// challenging with its cast (a recast spread over the rest), against the
// answerer whose exchange weighs most (w), or most when counting only its
// ends in which both sides stay in (k).
func (m *threeModel) castWeights(sides []int, table func(c, a, nc, na int) (*exchangeTable, error)) (w, k float64, err error) {
	n := m.r.AdvantageDice + 1
	for code := range int(math.Pow(float64(n), float64(len(sides)))) {
		var adv [3]int
		for x, c := 0, code; x < len(sides); x, c = x+1, c/n {
			adv[sides[x]] = c % n
		}
		tops, wc, kc := 0.0, 0.0, 0.0
		for _, c := range sides {
			dc, err := m.dist(c, adv[c])
			if err != nil {
				return 0, 0, err
			}
			for i, kcast := range dc.keys {
				p := dc.p[i]
				for _, o := range sides {
					if o != c {
						do, err := m.dist(o, adv[o])
						if err != nil {
							return 0, 0, err
						}
						p *= below(do, kcast, !m.r.RecastTies && o > c)
					}
				}
				if p == 0 {
					continue
				}
				tops += p
				bw, bk := 0.0, 0.0
				for _, a := range sides {
					if a == c {
						continue
					}
					t, err := table(c, a, adv[c], adv[a])
					if err != nil {
						return 0, 0, err
					}
					tot, keep := weigh(&t.from[0][i])
					bw, bk = max(bw, tot), max(bk, keep)
				}
				wc, kc = wc+p*bw, kc+p*bk
			}
		}
		if tops > 0 {
			w, k = max(w, wc/tops), max(k, kc/tops)
		}
	}
	return w, k, nil
}

// standingWeights is the most one exchange weighs from any standing roll
// of any side against any other, with any advantage dice (w), or counting
// only its ends in which both sides stay in (k); at least 1 each, for a
// round whose last exchange is not played.
func (m *threeModel) standingWeights(table func(c, a, nc, na int) (*exchangeTable, error)) (w, k float64, err error) {
	w, k = 1, 1
	for c := range 3 {
		for a := range 3 {
			if a == c || !m.start().has(a) || !m.start().has(c) {
				continue
			}
			for nc := range m.r.AdvantageDice + 1 {
				for na := range m.r.AdvantageDice + 1 {
					t, err := table(c, a, nc, na)
					if err != nil {
						return 0, 0, err
					}
					for i := range t.from[0] {
						tot, keep := weigh(&t.from[0][i])
						w, k = max(w, tot), max(k, keep)
					}
				}
			}
		}
	}
	return w, k, nil
}

// weigh is an exchange's weight over all its ends, and over those in which
// both sides stay in (a tie, or an answer over half that hangs in).
func weigh(ev *events) (tot, keep float64) {
	for e, q := range ev {
		tot += q
		if e == evTie || e == evAOver || e == evCOver {
			keep += q
		}
	}
	return tot, keep
}

// below is the chance that a reading of d is lower than k (or equal, when
// orEqual).
func below(d *readDist, k key, orEqual bool) float64 {
	p := 0.0
	for i, x := range d.keys {
		if c := x.cmp(k); c < 0 || orEqual && c == 0 {
			p += d.p[i]
		}
	}
	return p
}

// answer explores the model, built with no deciding side (every side
// playing its policies), and reads it as an Answer: the chance of each
// category and the rounds (a round begins at a cast).
func (m *threeModel) answer(ctx context.Context) (markov.Answer, error) {
	p, err := m.process(ctx, markov.Cheapest)
	if err != nil {
		return markov.Answer{}, err
	}
	pl, err := p.Solve(ctx, func(tstate) float64 { return 0 }, markov.Maximize)
	if err != nil {
		return markov.Answer{}, noExact(err)
	}
	return threeAnswer(ctx, pl)
}

// threeAnswer reads play under plan pl as an Answer in the Categories of
// three sides.
func threeAnswer(ctx context.Context, pl *markov.Plan[tstate]) (markov.Answer, error) {
	a, err := pl.Answer(ctx, 3*3+1, func(st tstate) int { return int(st.end) },
		func(st tstate) bool { return st.kind == tCast })
	return a, noExact(err)
}

// threePlanned is the Policy of an Optimal of three sides: the deciding
// side's targets, interference and stances read from the plan, every
// other choice (and every other side's) as the side's own policy.
type threePlanned struct {
	Policy
	side int
	m    *threeModel
	plan *markov.Plan[tstate]
}

// threeAt reads a conflict of three sides as the model sees it: the sides in,
// and the advantage dice of the round and those won for the next.
func threeAt(c *State) tstate {
	st := tstate{c: -1, a: -1}
	for i := range 3 {
		if c.In(i) {
			st.in |= 1 << i
			st.adv[i], st.next[i] = int8(c.Sides[i].Advantage), int8(c.Sides[i].Next)
		}
	}
	return st
}

// showing is side i's showing roll as the rules read it.
func showing(c *State, i int) key { return readKey(c.Sides[i].Faces, c.Sides[i].Bonus) }

// choice returns the option the plan takes in st, or false where the plan
// has none.
func (p *threePlanned) choice(st tstate) (threeOption, bool) {
	k, _, ok := p.plan.Choice(st)
	opts := p.m.options(st)
	if !ok || k >= len(opts) {
		return threeOption{}, false
	}
	return opts[k], true
}

// Target names the side the plan challenges (or Drop): at the round's
// first challenge with every cast showing, at its last turn with its own.
func (p *threePlanned) Target(v *View, ch int) int {
	c := v.s
	if ch != p.side || len(c.Sides) != 3 {
		return p.Policy.Target(v, ch)
	}
	st := threeAt(c)
	st.c = int8(ch)
	turned := slices.ContainsFunc(c.Sides, func(s Side) bool { return s.Turned })
	if st.inSides() == 3 && !turned {
		st.kind, st.next = tFirst, [3]int8{}
		for i := range 3 {
			st.keys[i] = showing(c, i)
		}
	} else {
		st.kind = tLast
		st.keys[ch] = showing(c, ch)
	}
	if o, ok := p.choice(st); ok {
		return o.to
	}
	return p.Policy.Target(v, ch)
}

// Interfere interferes as the plan does with every cast showing.
func (p *threePlanned) Interfere(v *View, side int) bool {
	c := v.s
	if side != p.side || len(c.Sides) != 3 {
		return p.Policy.Interfere(v, side)
	}
	st := threeAt(c)
	st.kind, st.c, st.a, st.next = tInterfere, int8(c.Challenger), int8(c.Answerer), [3]int8{}
	for i := range 3 {
		st.keys[i] = showing(c, i)
	}
	if o, ok := p.choice(st); ok {
		return o.to == 1
	}
	return p.Policy.Interfere(v, side)
}

// HangIn hangs in or gives as the plan does, knowing whether the third
// side's turn is yet to come and its cast.
func (p *threePlanned) HangIn(v *View, side int) bool {
	c := v.s
	if side != p.side || len(c.Sides) != 3 {
		return p.Policy.HangIn(v, side)
	}
	st := threeAt(c)
	st.kind, st.c, st.a = tStance, int8(c.Challenger), int8(side)
	if t := 3 - c.Challenger - side; c.In(t) && !c.Sides[t].Turned {
		st.later, st.keys[t] = true, showing(c, t)
	}
	if o, ok := p.choice(st); ok {
		return o.to == 1
	}
	return p.Policy.HangIn(v, side)
}

// threeAdvice writes the plan's decisions in words (markov.Lines), told by
// situation: whose turn and how the casts showing stand.
func (o *Optimal) threeAdvice(ctx context.Context) ([]markov.Advice, error) {
	ds, err := o.tplan.Decisions(ctx)
	if err != nil {
		return nil, err
	}
	m := o.three
	key := func(d markov.Decision[tstate], do, alt markov.Option) markov.Said {
		return markov.Said{When: m.situation(d.State), Do: do.Name, Else: alt.Name}
	}
	return markov.Lines(ds, o.tplan.Aim(), key, markov.AsSaid[tstate]), nil
}

// situation says, for a state of the deciding side, where it stands.
func (m *threeModel) situation(st tstate) string {
	name := m.c.label
	switch st.kind {
	case tFirst:
		x, y := (int(st.c)+1)%3, (int(st.c)+2)%3
		x, y = min(x, y), max(x, y)
		how := [3]string{name(x) + "'s and " + name(y) + "'s casts tied", name(x) + "'s cast above " + name(y) + "'s", name(y) + "'s cast above " + name(x) + "'s"}
		return "challenging first, " + how[(3+st.keys[x].cmp(st.keys[y]))%3]
	case tInterfere:
		return fmt.Sprintf("%s challenging %s, your cast above %s's", name(int(st.c)), name(int(st.a)), name(int(st.a)))
	case tLast:
		if st.inSides() == 2 {
			return "challenging, two sides left"
		}
		return "challenging last in the round"
	}
	left := ", the round's last exchange"
	switch {
	case st.later:
		left = ", " + name(3-int(st.c)-int(st.a)) + " yet to challenge"
	case st.inSides() == 2:
		left = ", two sides left"
	}
	return fmt.Sprintf("answering %s lower but more than half%s", name(int(st.c)), left)
}
