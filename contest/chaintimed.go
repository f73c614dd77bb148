package contest

import (
	"context"
	"fmt"
	"math"
	"strings"

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

// troubleKey is a Trouble Pool as a count of each ladder size: d4, d6,
// d8, d10, d12. Its total's distribution depends on nothing else.
type troubleKey [5]uint8

func troubleOf(ds []dice.Die) troubleKey {
	var k troubleKey
	for _, d := range ds {
		k[d/2-2]++ // ladder sizes only (Check)
	}
	return k
}

// size is the number of dice in the pool.
func (k troubleKey) size() int {
	n := 0
	for _, c := range k {
		n += int(c)
	}
	return n
}

// dice appends the pool's dice to buf, largest first.
func (k troubleKey) dice(buf []dice.Die) []dice.Die {
	for i := len(k) - 1; i >= 0; i-- {
		for range k[i] {
			buf = append(buf, dice.Die(2*i+4))
		}
	}
	return buf
}

// String writes the pool as counts of each size, largest first: "d10+2d6".
func (k troubleKey) String() string {
	var parts []string
	for i := len(k) - 1; i >= 0; i-- {
		switch k[i] {
		case 0:
		case 1:
			parts = append(parts, dice.Die(2*i+4).String())
		default:
			parts = append(parts, fmt.Sprintf("%d%v", k[i], dice.Die(2*i+4)))
		}
	}
	return strings.Join(parts, "+")
}

// tstate is a state of a timed action's chain. choose is the actor of a
// decision process choosing between its objective and a clean getaway
// (finished with zero beats left). A state with gap unset is the actor
// about to roll with no help to come (the first step, or after a helper
// tried). trouble is the Trouble Pool where a roll still to come reads it
// (zero where none does). ask is a choice of a decision process's
// deciding side in the middle of a step: the GM buying some of the ones
// just rolled (askOnes; after the actor's roll, off Trouble dice are then
// owed), or the actor taking one of off dice off the Trouble Pool
// (askOff).
type tstate struct {
	done    bool
	cat     int8
	step    int16
	beats   int16
	out     uint32 // helpers who failed
	gap     bool
	choose  bool
	trouble troubleKey
	ask     int8
	ones    int8
	off     int8
}

// timedChain holds what the chain of a timed action needs: the actor's,
// the helpers' and the fixed stakes' totals, and who decides as a
// decision process's decider: the actor's side (the actor and its
// helpers) or the GM.
type timedChain struct {
	b       *built
	sc      *State
	actor   dice.Dist
	helpers []dice.Dist
	// actorOnes and helperOnes are P(total, 1s) of each pool (jointTotalOnes),
	// read where the GM's 1s may grow a Trouble Pool a later roll reads.
	actorOnes  [][]float64
	helperOnes [][][]float64
	// stakes are each step's fixed stakes (a step against the Trouble
	// Pool reads it from the state); troubleFrom[i] says whether step i
	// or a later one rolls the Trouble Pool.
	stakes      []dice.Dist
	troubleFrom []bool
	troubles    map[troubleKey]dice.Dist
	decides     bool // the actor's side decides
	gmDecides   bool // the GM decides (its 1s)
	ctx         context.Context
	err         error
}

// timedModel lays out the chain of the scenario's timed action and its
// start state. It refuses (markov.ErrNoExact) what the chain does not
// follow.
func (s Scenario) timedModel(ctx context.Context) (*timedChain, tstate, error) {
	b, err := s.build()
	if err != nil {
		return nil, tstate{}, err
	}
	m := &timedChain{b: b, sc: &b.scene, troubles: map[troubleKey]dice.Dist{}, ctx: ctx}
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
	m.stakes = make([]dice.Dist, len(b.steps))
	m.troubleFrom = make([]bool, len(b.steps)+1)
	for i := len(b.steps) - 1; i >= 0; i-- {
		if err := ctx.Err(); err != nil {
			return nil, tstate{}, err
		}
		st := b.steps[i]
		m.troubleFrom[i] = m.troubleFrom[i+1] || len(st.Stakes) == 0
		if len(st.Stakes) > 0 {
			if m.stakes[i], err = TotalDist(st.Stakes, s.Rules); err != nil {
				return nil, tstate{}, err
			}
		}
	}
	if err := m.onesModel(); err != nil {
		return nil, tstate{}, err
	}
	start := tstate{beats: int16(b.beats), trouble: troubleOf(sc.Trouble)}
	return m, m.canon(start), nil
}

// onesModel reads the pools' joint distributions of total and 1s, where
// the GM's 1s can grow a Trouble Pool a later roll reads.
func (m *timedChain) onesModel() error {
	if !m.troubleFrom[0] && !m.helpersRollTrouble() {
		return nil
	}
	if m.sc.Rules.Keep > 2 {
		if m.b.table.gm().BuyOnes(&View{Side: -1, Char: -1, Ones: 1, Target: -1, TroubleRoom: 1}) > 0 {
			return noExact(keepOnes, m.sc.Rules.Keep)
		}
		return nil // the GM buys none: 1s change nothing
	}
	m.actorOnes = jointTotalOnes(m.sc.sideDice(&Side{}, m.b.picks, nil), m.sc.Rules)
	for _, h := range m.b.helper {
		m.helperOnes = append(m.helperOnes, jointTotalOnes(m.sc.sideDice(&Side{}, h.Picks, nil), m.sc.Rules))
	}
	return nil
}

// keepOnes says why the chain refuses to follow 1s in totals of more
// than 2 dice.
const keepOnes = "the chain reads the 1s that grow the Trouble Pool in totals of at most 2 dice, not %d"

// helpersRollTrouble reports whether helpers roll against the Trouble Pool.
func (m *timedChain) helpersRollTrouble() bool {
	return m.sc.Rules.HelpersRollTrouble && len(m.b.helper) > 0
}

// reads reports whether a roll still to come at st reads the Trouble Pool:
// a step against it, or a helper able to try against it.
func (m *timedChain) reads(st tstate) bool {
	if st.done || st.choose || int(st.step) >= len(m.b.steps) {
		return false
	}
	if m.troubleFrom[st.step] {
		return true
	}
	return m.helpersRollTrouble() && m.firstHelper(st.out) >= 0
}

// canon is st with its Trouble Pool forgotten where no roll to come reads
// it, so that states differing only there are one.
func (m *timedChain) canon(st tstate) tstate {
	if st.ask == askNone && !m.reads(st) {
		st.trouble = troubleKey{}
	}
	return st
}

// stakesOf is the distribution of the stakes step i rolls at st: its
// dice, or the Trouble Pool (trouble, for a helper under
// rules.helpers_roll_trouble).
func (m *timedChain) stakesOf(st tstate, i int, trouble bool) dice.Dist {
	if !trouble && len(m.b.steps[i].Stakes) > 0 {
		return m.stakes[i]
	}
	if d, ok := m.troubles[st.trouble]; ok {
		return d
	}
	if err := m.ctx.Err(); err != nil {
		m.fail(err)
		return dice.Point(0)
	}
	if len(m.troubles) >= maxTroublePools {
		m.fail(noExact("more than %d different Trouble Pools: the timed action is too long to follow its 1s", maxTroublePools))
		return dice.Point(0)
	}
	d, err := TotalDist(st.trouble.dice(nil), m.sc.Rules)
	if err != nil {
		m.fail(err)
	}
	m.troubles[st.trouble] = d
	return d
}

// maxTroublePools bounds the Trouble Pools whose totals the chain keeps:
// far more than a timed action's 1s and wins can make. [ours]
const maxTroublePools = 1 << 14

func (m *timedChain) fail(err error) {
	if m.err == nil {
		m.err = err
	}
}

func (s Scenario) exactTimed(ctx context.Context) (markov.Answer, error) {
	m, start, err := s.timedModel(ctx)
	if err != nil {
		return markov.Answer{}, err
	}
	chain, err := markov.Explore(ctx, start, m.next)
	if m.err != nil {
		return markov.Answer{}, m.err
	}
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
// probability w, from beats bt: each way the step can go, then the GM's
// answer to the roll's 1s and the dice the win takes off the Trouble
// Pool, where a later roll reads it.
func (m *timedChain) roll(st tstate, bt int, w float64, buf []markov.Step[tstate]) []markov.Step[tstate] {
	R := &m.sc.Rules
	stakes := m.stakesOf(st, int(st.step), false)
	if m.actorOnes == nil || !m.reads(st) {
		xo, win, lose := margins(m.actor, stakes, R.Extraordinary, !R.TiesToHolder)
		for k, q := range [3]float64{xo, win, lose} {
			if q > 0 {
				buf = m.landed(st, bt, k, 0, w*q, buf)
			}
		}
		return buf
	}
	for ones, d := range byOnes(m.actorOnes) {
		xo, win, lose := margins(d, stakes, R.Extraordinary, !R.TiesToHolder)
		for k, q := range [3]float64{xo, win, lose} {
			if q > 0 {
				buf = m.landed(st, bt, k, ones, w*q, buf)
			}
		}
	}
	return buf
}

// byOnes splits a joint distribution p[total][ones] into the
// (unnormalised) distributions of the total for each count of 1s.
func byOnes(p [][]float64) []dice.Dist {
	n := 0
	for _, row := range p {
		n = max(n, len(row))
	}
	out := make([]dice.Dist, n)
	for j := range out {
		out[j] = dice.Dist{P: make([]float64, len(p))}
		for t, row := range p {
			if j < len(row) {
				out[j].P[t] = row[j]
			}
		}
	}
	return out
}

// landed appends, with weight w, where the actor's roll of step st.step
// from beats bt goes when it comes out k (0: Extraordinary, 1: a success,
// 2: a failure) with ones 1s.
func (m *timedChain) landed(st tstate, bt, k, ones int, w float64, buf []markov.Step[tstate]) []markov.Step[tstate] {
	R := &m.sc.Rules
	nsteps := len(m.b.steps)
	cost := R.BeatsPerRoll
	ok := k < 2
	switch k {
	case 0:
		cost = R.BeatsOnExtraordinary
	case 2:
		cost += R.BeatsOnFailure
	}
	y := tstate{step: st.step + 1, beats: int16(bt - cost), out: st.out, gap: true, trouble: st.trouble}
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
	if !m.reads(y) {
		return append(buf, markov.Step[tstate]{To: m.canon(y), P: w})
	}
	off := min(R.timedTroubleOff(ok, k == 0, m.b.steps[st.step]), y.trouble.size())
	y.off = int8(min(off, math.MaxInt8))
	if ones > 0 && m.gmDecides {
		y.ask, y.ones = askOnes, int8(min(ones, math.MaxInt8))
		return append(buf, markov.Step[tstate]{To: y, P: w})
	}
	y = m.bought(y, m.gmBuys(ones, y.trouble))
	return append(buf, markov.Step[tstate]{To: m.takeOff(y), P: w})
}

// gmBuys is how many of ones 1s the GM's policy buys with the Trouble
// Pool at trouble.
func (m *timedChain) gmBuys(ones int, trouble troubleKey) int {
	if ones == 0 {
		return 0
	}
	g := m.b.table.gm()
	room := m.room(trouble)
	k := g.BuyOnes(&View{Side: -1, Char: -1, Target: -1, Ones: ones, TroubleRoom: room})
	if k < 0 || k > min(ones, room) {
		m.fail(fmt.Errorf("policy %s buying %d of %d 1s with room for %d", g.Name(), k, ones, room))
		return 0
	}
	return k
}

// room is how many dice the Trouble Pool at trouble may still grow by.
func (m *timedChain) room(trouble troubleKey) int {
	return max(0, min(m.sc.Rules.MaxTrouble, maxDice)-trouble.size())
}

// bought is y once the GM has bought k 1s: a Rules.TroubleDie each.
func (m *timedChain) bought(y tstate, k int) tstate {
	y.trouble[m.sc.Rules.TroubleDie/2-2] += uint8(k)
	return y
}

// takeOff is y once the dice y.off owes are off the Trouble Pool: the
// actor's choice where it decides (askOff), else its policy's.
func (m *timedChain) takeOff(y tstate) tstate {
	if y.off > 0 && y.trouble.size() > 0 && m.decides {
		y.ask = askOff
		return y
	}
	p := m.b.table.of(m.b.actor)
	var buf [maxDice]dice.Die
	for ; y.off > 0 && y.trouble.size() > 0; y.off-- {
		ds := y.trouble.dice(buf[:0])
		v := m.view(y, int(y.beats))
		k := p.TroubleOff(&v, ds)
		if k < 0 || k >= len(ds) {
			m.fail(fmt.Errorf("policy %s taking Trouble die %d of %d", p.Name(), k, len(ds)))
			break
		}
		y.trouble[ds[k]/2-2]--
	}
	y.off, y.ask, y.ones = 0, askNone, 0
	return m.canon(y)
}

// helper returns the helper who may try to buy time at gap state st: the
// first one still able, as Play asks (Engine.helperFor); -1 if none.
func (m *timedChain) helper(st tstate) int {
	if !st.gap || st.ask != askNone {
		return -1
	}
	return m.firstHelper(st.out)
}

// firstHelper is the first helper not in out and still in the scene, or
// -1.
func (m *timedChain) firstHelper(out uint32) int {
	for h := range m.b.helper {
		if out&(1<<h) == 0 && !m.sc.Characters[m.b.helper[h].Char].Out() {
			return h
		}
	}
	return -1
}

// help appends, with weight 1, helper h trying to buy time at st and the
// actor's roll after it; the GM answers the helper's 1s between the two.
func (m *timedChain) help(st tstate, h int, buf []markov.Step[tstate]) []markov.Step[tstate] {
	R := &m.sc.Rules
	bt := int(st.beats)
	stakes := m.stakesOf(st, int(st.step), R.HelpersRollTrouble)
	g2 := max(0, min(R.BuyTimeExtraordinary, R.beatsCap(m.b.beats)-bt))
	g1 := max(0, min(R.BuyTime, R.beatsCap(m.b.beats)-bt))
	rolls := []dice.Dist{m.helpers[h]}
	if m.helperOnes != nil && m.reads(st) {
		rolls = byOnes(m.helperOnes[h])
	}
	for ones, d := range rolls {
		xo, win, lose := margins(d, stakes, R.Extraordinary, !R.TiesToHolder)
		for k, q := range [3]float64{xo, win, lose} {
			if q == 0 {
				continue
			}
			z := st
			z.gap = false
			switch k {
			case 0:
				z.beats += int16(g2)
			case 1:
				z.beats += int16(g1)
			default:
				z.out |= 1 << h
			}
			if ones > 0 && m.gmDecides {
				z.ask, z.ones = askOnes, int8(min(ones, math.MaxInt8))
				buf = append(buf, markov.Step[tstate]{To: z, P: q})
				continue
			}
			buf = m.roll(m.bought(z, m.gmBuys(ones, z.trouble)), int(z.beats), q, buf)
		}
	}
	return buf
}

// next is the chain's step from st, every choice made by the policies.
func (m *timedChain) next(st tstate, buf []markov.Step[tstate]) []markov.Step[tstate] {
	if st.done || m.err != nil {
		return buf
	}
	if err := m.ctx.Err(); err != nil {
		m.fail(err)
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
