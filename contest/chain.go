package contest

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim/markov"
)

// xstate is a state of the exact chain of a two-sided action: whose roll
// is next, the stakes and their holder, which sides have rolled, the gangs
// left, the Plot Points, and the extras each side last bought (a Final
// Push may only lower traits that were rolled). Ended actions collapse to
// one state per category (done, cat).
type xstate struct {
	done   bool
	cat    int8
	open   bool // the opening: side turn rolls to set the stakes
	turn   int8
	holder int8
	stakes int16
	v0     int16 // all-roll opening: side 0's result while side 1 rolls
	rolled uint8
	gang   [2]int8
	pp     [2]int16
	n      [2]int8
	aid    int16 // the aiding die waiting for the side to act
	aided  uint8 // sides whose aider has rolled
	inter  bool  // the interferer has stepped in
	brawl  int8  // 1: the brawl awaits side 0's roll; 2: side 1's (v0 holds side 0's)
	// ask is a choice of a decision process's deciding side waiting in
	// the middle of a step (askOnes, askInterfere, askGoOn, askPush); ones
	// the 1s of the last roll on offer, the roller being side 1-turn. The
	// deciding side about to take Trauma (askPush) holds only cat, the
	// category it ends in without a push, and steps, the Final Push steps
	// that would save it.
	ask   int8
	ones  int8
	steps int8
	// bought is the dice the GM's 1s bought have added to the Trouble
	// Pool in this action, where its room (Rules.MaxTrouble) may run out
	// (chainModel.roomBinds); 0 where it cannot.
	bought int16
}

// ended reports whether the action of st has ended: it is done, or only
// the deciding side's Final Push is left to choose.
func (st xstate) ended() bool { return st.done || st.ask == askPush }

// The choices of a deciding side that come in the middle of a chain step.
const (
	askNone      = iota
	askOnes      // the GM, deciding, buys 0.. of the last roll's 1s
	askInterfere // the interferer, deciding, steps in or stays out
	askGoOn      // a side, deciding, pays to go on after an interference or stops
	askPush      // the deciding side, beaten by the margin, makes a Final Push or takes Trauma
	askOff       // a timed action's actor, deciding, takes a die off the Trouble Pool
)

// interferer is the decider of a decision process in which the
// interferer decides (it is no side of the action).
const interferer = 2

// chainModel holds what the chain's transition function needs: a scratch
// scene whose action mirrors the state, so the policies see exactly the
// View the engine would give them.
type chainModel struct {
	e     Engine
	sc    *State
	b     *built
	basic bool
	all   bool
	gangs [2][]dice.Die
	aids  [2]*dice.Dist // the aiding die of each aided side
	inter *dice.Dist    // the interferer's result, if there is one
	dists map[poolKey][][]float64
	// distBytes is what the cached distributions hold, bounded by
	// maxDistBytes before each is made.
	distBytes int
	// ctx stops the model: every transition and every distribution it
	// makes checks it first, so a cancel is seen within one state's work.
	ctx context.Context
	err error
	// decider is the side whose choices a decision process (Solve) makes,
	// -1 when every side plays its policy (Exact). The decider buys extras
	// dice, Gives In only as a choice of its state (never inside a step),
	// and chooses its Final Push in a state of its own (askPush).
	decider int
	extras  int
	// trouble is the scene's Trouble Pool with room for every die the
	// GM's 1s may add, where tracked (bought): mirror lays out its first
	// len(start)+bought dice.
	trouble   []dice.Die
	trouble0  int
	roomBinds bool
}

func (s Scenario) exactAction(ctx context.Context) (markov.Answer, error) {
	m, start, err := s.chainModel(ctx)
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
	// One absorbing state a category (xstate{done, cat}), so the sums
	// are the same bits on every call.
	ex, err := markov.AnswerOf(ctx, chain, len(s.Categories()), func(st xstate) int { return int(st.cat) }, 1000)
	if err != nil {
		return markov.Answer{}, fmt.Errorf("contest: solving the chain: %w", err)
	}
	return ex, nil
}

// chainModel lays out the exact chain of a two-sided action: the model and
// its start state. It refuses (markov.ErrNoExact) what the chain does not
// follow.
func (s Scenario) chainModel(ctx context.Context) (*chainModel, xstate, error) {
	b, err := s.build()
	if err != nil {
		return nil, xstate{}, err
	}
	if err := ctx.Err(); err != nil {
		return nil, xstate{}, err
	}
	if len(b.sides) != 2 {
		return nil, xstate{}, noExact("the chain covers two sides, not %d", len(b.sides))
	}
	if s.Rules.Keep > 2 {
		return nil, xstate{}, noExact("the chain reads totals of at most 2 dice, not %d", s.Rules.Keep)
	}
	m := &chainModel{b: b, basic: s.Kind == KindBasic, dists: map[poolKey][][]float64{}, decider: -1, ctx: ctx}
	m.sc = b.scene.Clone()
	kind := Contested
	if m.basic {
		kind = Basic
	}
	if err := m.e.Begin(m.sc, kind, b.sides, b.init); err != nil {
		return nil, xstate{}, err
	}
	m.all = m.sc.Action.AllRoll
	for _, sd := range b.sides {
		if sd.Char == TroublePool && !m.basic && b.table.gm().BuyOnes(&View{Ones: 1, TroubleRoom: 1}) > 0 {
			return nil, xstate{}, noExact("the GM buys 1s, growing the Trouble Pool that contests; the chain keeps it fixed")
		}
	}
	if err := s.exactRulings(b); err != nil {
		return nil, xstate{}, err
	}
	m.trackRoom()
	if b.iChar >= 0 && s.Rules.Interferences > 0 {
		if c, _ := m.sc.cost(b.iChar, b.iPicks); c > 0 {
			return nil, xstate{}, noExact("the interferer pays %d Plot Points for its pool; the chain needs a free one", c)
		}
		d, err := TotalDist(m.sc.sideDice(&Side{}, b.iPicks, nil), s.Rules)
		if err != nil {
			return nil, xstate{}, err
		}
		m.inter = &d
		m.sc.Action.Planned = Ref(b.iChar)
	}
	for i, sd := range b.sides {
		if !sd.Aider.Set {
			continue
		}
		if c, _ := m.sc.cost(sd.Aider.Index, sd.AidPicks); c > 0 {
			return nil, xstate{}, noExact("side %d's aider pays %d Plot Points for its pool; the chain needs a free one", i, c)
		}
		r1 := s.Rules
		r1.Keep = 1
		d, err := TotalDist(m.sc.sideDice(&Side{}, sd.AidPicks, nil), r1)
		if err != nil {
			return nil, xstate{}, err
		}
		m.aids[i] = &d
	}
	start := xstate{open: true, turn: int8(m.sc.Action.Turn), holder: -1}
	for i := range 2 {
		m.gangs[i] = slices.Clone(m.sc.Action.Sides[i].Gang)
		start.gang[i] = int8(len(m.gangs[i]))
		if c := b.sides[i].Char; c >= 0 {
			start.pp[i] = int16(m.sc.Characters[c].PlotPoints)
		}
	}
	return m, start, nil
}

// exactRulings refuses the rulings the chain does not follow: an aiding
// die that lasts, more than one interference, and the GM buying the 1s of
// aid and interference rolls. Every other ruling either is read by the
// chain or cannot change a two-sided action's outcome: the turn order
// past two sides, where a Give In's Plot Point goes (the action ends
// there), the brawl's Trauma (it ends the action with the same winner).
func (s Scenario) exactRulings(b *built) error {
	aided := false
	for _, sd := range b.sides {
		aided = aided || sd.Aider.Set
	}
	switch {
	case s.Rules.AidLasts && aided:
		return noExact("rules.aid_lasts: the chain adds an aiding die to one total only")
	case s.Rules.Interferences > 1 && b.iChar >= 0:
		return noExact("rules.interferences %d: the chain follows one interference", s.Rules.Interferences)
	case s.Rules.OnesOfEveryRoll && (aided || b.iChar >= 0) && b.table.gm().BuyOnes(&View{Ones: 1, TroubleRoom: 1}) > 0:
		return noExact("rules.ones_of_every_roll: the GM buys the 1s of aid and interference rolls, which the chain does not follow")
	}
	return nil
}

// mirror makes the scratch action look like state st.
func (m *chainModel) mirror(st xstate) *Action {
	a := m.sc.Action
	for i := range 2 {
		sd := &a.Sides[i]
		sd.Gang = append(sd.Gang[:0], m.gang(i, int(st.gang[i]))...)
		sd.Rolled = st.rolled&(1<<i) != 0
		sd.Aid = 0
		if i == int(st.turn) {
			sd.Aid = int(st.aid)
		}
		if c := sd.Char; c >= 0 {
			m.sc.Characters[c].PlotPoints = int(st.pp[i])
		}
		sd.Picks = append(append(sd.Picks[:0], sd.Base...), sd.Extra[:st.n[i]]...)
		if sd.Char == TroublePool {
			sd.Picks = sd.Picks[:0]
		}
	}
	if m.roomBinds {
		m.sc.Trouble = m.trouble[:m.trouble0+int(st.bought)]
	}
	a.Stakes, a.Holder, a.Turn = int(st.stakes), int(st.holder), int(st.turn)
	if st.open {
		a.Stakes, a.Phase = 0, PhaseOpen
	} else {
		a.Phase = PhaseTurn
	}
	return a
}

// gang returns the n dice of side i's gang left after raises knocked
// the others off (the largest first, by Rules.MookOffLargest).
func (m *chainModel) gang(i, n int) []dice.Die {
	g := m.gangs[i]
	if m.sc.Rules.MookOffLargest {
		return g[:n]
	}
	return g[len(g)-n:]
}

// joint returns P(total, ones) for dice ds, cached.
func (m *chainModel) joint(ds []dice.Die) [][]float64 {
	var k poolKey
	top := 0
	for _, d := range ds {
		k[d/2]++ // ladder sizes only: d4..d12 (Check)
		top = max(top, int(d))
	}
	if d, ok := m.dists[k]; ok {
		return d
	}
	if err := m.ctx.Err(); err != nil {
		m.fail(err)
		return nil
	}
	if m.distBytes += (2*top + 1) * (len(ds) + 1) * 8; m.distBytes > maxDistBytes {
		m.fail(noExact("the pools' distributions would need more than %d MiB: too many different pools (gangs, extras) or pools too large", maxDistBytes>>20))
		return nil
	}
	d := jointTotalOnes(ds, m.sc.Rules)
	m.dists[k] = d
	return d
}

// poolKey names a pool by how many dice of each size it holds (indexed by
// size/2): its total's distribution depends on nothing else.
type poolKey [7]uint16

// maxDistBytes bounds the memory the exact chain's pool distributions
// take: far above any pool a table rolls, and a scenario past it is
// refused before it allocates. [ours]
const maxDistBytes = 64 << 20

func (m *chainModel) fail(err error) []markov.Step[xstate] {
	if m.err == nil {
		m.err = err
	}
	return nil
}

func (m *chainModel) next(st xstate, buf []markov.Step[xstate]) []markov.Step[xstate] {
	if st.done || m.err != nil {
		return buf
	}
	if err := m.ctx.Err(); err != nil {
		return m.fail(err)
	}
	if st.brawl > 0 {
		return m.brawlRoll(st, buf)
	}
	t := int(st.turn)
	if d := m.aids[t]; d != nil && st.open && st.aided&(1<<t) == 0 {
		// The opening roller's aider rolls first; no choice to give in
		// comes between, so the aid is part of this roll's step. A
		// deciding side sees the aid before it buys its extras: the aid
		// is then a step of its own.
		for i, pa := range d.P {
			if pa == 0 {
				continue
			}
			y := st
			y.aid, y.aided = int16(d.Min+i), st.aided|1<<t
			if t == m.decider {
				buf = append(buf, markov.Step[xstate]{To: y, P: pa})
				continue
			}
			buf = m.roll(y, pa, buf)
		}
		return buf
	}
	return m.roll(st, 1, buf)
}

// roll appends the transitions of the side to act rolling from st, each
// weighted by w.
func (m *chainModel) roll(st xstate, w float64, buf []markov.Step[xstate]) []markov.Step[xstate] {
	a := m.mirror(st)
	t := int(st.turn)
	sd := &a.Sides[t]
	tb := &m.b.table
	p := tb.of(sd.Char)
	n, cost := 0, 0
	if sd.Char != TroublePool {
		var v View
		m.e.turnView(m.sc, t, &v)
		n = p.Extras(&v)
		if t == m.decider {
			n = m.extras
		}
		if n < 0 || n > v.Affordable {
			return m.fail(fmt.Errorf("policy %s: %d extra dice: 0..%d affordable", p.Name(), n, v.Affordable))
		}
		var err error
		if cost, err = m.sc.cost(sd.Char, m.sc.plan(sd, n)); err != nil {
			return m.fail(err)
		}
	}
	ds := slices.Clone(m.sc.sideDice(sd, m.sc.plan(sd, n), nil))
	jt := m.joint(ds)
	buys := sd.Char != TroublePool && !m.sc.Characters[sd.Char].GM
	room := m.sc.troubleRoom()
	for total, row := range jt {
		for ones, q := range row {
			if q == 0 {
				continue
			}
			y := st
			y.n[t] = int8(n)
			y.pp[t] -= int16(cost)
			y.rolled |= 1 << t
			gmAsks := buys && ones > 0 && m.gmDecides()
			if buys && ones > 0 && !gmAsks {
				g := tb.gm()
				k := g.BuyOnes(&View{Kind: a.Kind, Side: t, Char: -1, Ones: ones, Target: -1, TroubleRoom: room})
				if k < 0 || k > min(ones, room) {
					return m.fail(fmt.Errorf("policy %s buying %d of %d 1s with room for %d", g.Name(), k, ones, room))
				}
				y = m.buy(y, t, k)
			}
			y.aid = 0
			y, more := m.after(y, t, total+int(st.aid))
			if gmAsks && !y.ended() {
				// The deciding GM answers the 1s once the roll is
				// answered; once the action has ended they change
				// nothing the chain follows.
				y.ask, y.ones = askOnes, int8(min(ones, maxDice))
				buf = append(buf, markov.Step[xstate]{To: y, P: w * q})
				continue
			}
			if !more {
				buf = append(buf, markov.Step[xstate]{To: y, P: w * q})
				continue
			}
			if buf = m.fold(y, w*q, buf); m.err != nil {
				return nil
			}
		}
	}
	return buf
}

// after applies side t's roll of total to state y (already charged).
func (m *chainModel) after(y xstate, t, total int) (xstate, bool) {
	X := m.sc.Rules.Extraordinary
	if y.open {
		switch {
		case !m.all:
			y.open, y.holder, y.stakes, y.turn = false, int8(t), int16(total), int8(1-t)
		case t == 0:
			y.v0, y.turn = int16(total), 1
			return y, false
		default:
			v0 := int(y.v0)
			y.v0 = 0
			switch {
			case v0 == total && m.sc.Rules.AllRollTieReroll:
				y.turn = 0
				return y, false
			case v0 >= total:
				y.open, y.holder, y.stakes, y.turn = false, 0, int16(v0), 1
			default:
				y.open, y.holder, y.stakes, y.turn = false, 1, int16(total), 0
			}
			if m.sc.Rules.AllRollGiveInFree {
				y.rolled = 1 << y.holder // the other may Give In right away, free
			}
		}
		return y, true
	}
	h := int(y.holder)
	cf, hf := m.sc.Rules.floors()
	if m.sc.Rules.beats(total, int(y.stakes)) {
		mg := total - int(y.stakes)
		if m.basic {
			return m.loss(y, h, mg, hf, 0), false // the opposition beaten: success, or extraordinary
		}
		off := m.sc.Rules.MookOff
		if mg >= X {
			off = m.sc.Rules.MookOffExtraordinary
		}
		y.gang[h] = int8(max(0, int(y.gang[h])-off))
		y.holder, y.stakes, y.turn = int8(t), int16(total), int8(1-t)
		return y, true
	}
	lose := int8(3 * h) // the holder wins
	if m.basic {
		lose = 2 // failure, or knocked_out
	}
	return m.loss(y, t, int(y.stakes)-total, cf, lose), false
}

// loss is where side l's loss by margin mg (floor as in the engine) ends
// the action: in category pushed when it loses by less than the
// Extraordinary margin or makes a Final Push that saves it from Trauma, in
// pushed+1 (Knocked Out, Trauma) otherwise. A deciding side that may push
// chooses in a state of its own (askPush).
func (m *chainModel) loss(y xstate, l, mg, floor int, pushed int8) xstate {
	not := xstate{done: true, cat: pushed + 1}
	if mg < m.sc.Rules.Extraordinary {
		return xstate{done: true, cat: pushed}
	}
	a := m.mirror(y)
	need, ok := m.e.pushReach(m.sc, l, mg, floor)
	switch {
	case !ok:
		return not
	case l == m.decider:
		return xstate{ask: askPush, cat: not.cat, steps: int8(min(need, math.MaxInt8))}
	}
	sd := &a.Sides[l]
	v := View{Kind: a.Kind, Side: l, Char: sd.Char, Stakes: a.Stakes, Holder: a.Holder, Rolled: true, Margin: mg, Target: -1}
	if m.b.table.of(sd.Char).Push(&v) {
		return xstate{done: true, cat: pushed}
	}
	return not
}

// fold appends, with weight w, what follows an escalating roll before the
// next roll: the planned interferer may step in (once), then the aider of
// the side to act rolls (once), and the side may Give In. None of these is
// a roll of the sides, so none is a step of its own.
func (m *chainModel) fold(y xstate, w float64, buf []markov.Step[xstate]) []markov.Step[xstate] {
	if m.inter != nil && !y.inter && !m.basic {
		a := m.mirror(y)
		ch := &m.sc.Characters[m.b.iChar]
		if ch.PlotPoints >= m.sc.Rules.InterfereCost {
			if m.decider == interferer {
				y.ask = askInterfere
				return append(buf, markov.Step[xstate]{To: y, P: w})
			}
			v := View{Kind: a.Kind, Side: -1, Char: m.b.iChar, Stakes: a.Stakes, Holder: a.Holder, PlotPoints: ch.PlotPoints, Target: -1}
			if m.b.table.of(m.b.iChar).Interfere(&v) {
				return m.interfere(y, w, buf)
			}
		}
	}
	return m.aidGiveIn(y, w, buf)
}

// interfere appends, with weight w, the interferer stepping in at y: if
// its result beats the stakes the sides answer (goOn), else play goes on.
func (m *chainModel) interfere(y xstate, w float64, buf []markov.Step[xstate]) []markov.Step[xstate] {
	y.inter = true
	// The interference must beat the stakes, as a raise must.
	least := int(y.stakes) + 1
	if !m.sc.Rules.TiesToHolder {
		least = int(y.stakes)
	}
	beat := m.inter.AtLeast(least)
	if beat > 0 {
		buf = append(buf, markov.Step[xstate]{To: m.goOn(y), P: w * beat})
	}
	if w *= 1 - beat; w <= 0 {
		return buf
	}
	return m.aidGiveIn(y, w, buf)
}

// goOn settles the answers to an interference that beat the stakes: the
// contest stops unless both sides pay to go on, and then comes the brawl.
// A deciding side that may pay answers as a choice of its own (askGoOn)
// once the other side goes on.
func (m *chainModel) goOn(y xstate) xstate {
	a := m.mirror(y)
	asks := false
	for t := range a.Sides {
		sd := &a.Sides[t]
		ch := &m.sc.Characters[sd.Char]
		if ch.PlotPoints < m.sc.Rules.ContinueCost {
			return m.stopped()
		}
		if t == m.decider {
			asks = true
			continue
		}
		v := View{Kind: a.Kind, Side: t, Char: sd.Char, Stakes: a.Stakes, Holder: a.Holder, Rolled: sd.Rolled, PlotPoints: ch.PlotPoints, Target: -1, Price: m.sc.Rules.ContinueCost}
		if !m.b.table.of(sd.Char).Continue(&v) {
			return m.stopped()
		}
	}
	if asks {
		y.ask = askGoOn
		return y
	}
	return m.brawls(y)
}

// brawls is state y once both sides have paid to go on: the brawl.
func (m *chainModel) brawls(y xstate) xstate {
	y.brawl, y.v0, y.ask = 1, 0, askNone
	return y
}

// stopped is where an interference that stopped the contest ends it.
func (m *chainModel) stopped() xstate {
	return xstate{done: true, cat: int8(3 * len(m.b.sides))}
}

// gmDecides reports whether the deciding side of a decision process is a
// character of the GM's, whose choices include buying the 1s of the
// players' rolls.
func (m *chainModel) gmDecides() bool {
	if m.decider < 0 || m.decider >= len(m.b.sides) {
		return false
	}
	c := m.b.sides[m.decider].Char
	return c != TroublePool && m.sc.Characters[c].GM
}

// buy is y once the GM has bought k 1s of side t's roll: the side's Plot
// Points grow by Rules.OnePlotPoints each (within what the state holds),
// and the Trouble Pool by a die each, where its room is tracked.
func (m *chainModel) buy(y xstate, t, k int) xstate {
	y.pp[t] = int16(min(int(y.pp[t])+k*m.sc.Rules.OnePlotPoints, maxPoints, math.MaxInt16))
	if m.roomBinds {
		y.bought += int16(k)
	}
	return y
}

// trackRoom decides whether the chain follows the Trouble Pool's room as
// the GM buys 1s (roomBinds): where the 1s of an action could fill it.
// Each raise beating the stakes, the sides roll at most a few times more
// than the highest stakes any side can set, each roll with at most as
// many 1s as the most dice a player's side rolls; a room past that many
// cannot run out. Where ties beat the stakes (TiesToHolder off) or a tied
// opening is rolled again, an action may run longer only by further ties,
// and the chain does not follow a room past that bound.
func (m *chainModel) trackRoom() {
	R := &m.sc.Rules
	most, top := 0, 0
	for i := range m.sc.Action.Sides {
		sd := &m.sc.Action.Sides[i]
		ds := m.sc.sideDice(sd, m.sc.plan(sd, len(sd.Extra)), nil)
		if sd.Char != TroublePool && !m.sc.Characters[sd.Char].GM {
			most = max(most, len(ds))
		}
		slices.Sort(ds)
		set := 0
		for _, d := range ds[max(0, len(ds)-R.Keep):] {
			set += int(d)
		}
		if m.aids[i] != nil {
			set += m.aids[i].Max()
		}
		top = max(top, set)
	}
	if (top+3)*most <= m.sc.troubleRoom() {
		return
	}
	m.roomBinds, m.trouble0 = true, len(m.sc.Trouble)
	m.trouble = slices.Clone(m.sc.Trouble)
	for range m.sc.troubleRoom() {
		m.trouble = append(m.trouble, R.TroubleDie)
	}
}

// brawlRoll is one side's roll of the brawl: its last pool (its planned
// one if it never rolled), free; the higher result wins, a tie going to
// the stakes holder.
func (m *chainModel) brawlRoll(st xstate, buf []markov.Step[xstate]) []markov.Step[xstate] {
	a := m.mirror(st)
	t := int(st.brawl) - 1
	sd := &a.Sides[t]
	picks := sd.Base
	if st.rolled&(1<<t) != 0 {
		picks = m.sc.plan(sd, int(st.n[t]))
	}
	jt := m.joint(slices.Clone(m.sc.sideDice(sd, picks, nil)))
	for total, row := range jt {
		q := 0.0
		for _, p := range row {
			q += p
		}
		if q == 0 {
			continue
		}
		y := st
		if t == 0 {
			y.brawl, y.v0 = 2, int16(total)
		} else {
			w := int(st.holder)
			tot := [2]int{int(st.v0), total}
			if tot[1-w] > tot[w] || (tot[1-w] == tot[w] && !m.sc.Rules.BrawlTieToHolder) {
				w = 1 - w
			}
			y = xstate{done: true, cat: int8(3 * w)}
		}
		buf = append(buf, markov.Step[xstate]{To: y, P: q})
	}
	return buf
}

// aidGiveIn appends, with weight w, the aider's roll for the side to act
// at y (once) and the side's choice to Give In.
func (m *chainModel) aidGiveIn(y xstate, w float64, buf []markov.Step[xstate]) []markov.Step[xstate] {
	t := int(y.turn)
	if d := m.aids[t]; d != nil && y.aided&(1<<t) == 0 {
		for i, pa := range d.P {
			if pa == 0 {
				continue
			}
			z := y
			z.aid, z.aided = int16(d.Min+i), y.aided|1<<t
			buf = append(buf, markov.Step[xstate]{To: m.giveIn(z), P: w * pa})
		}
		return buf
	}
	return append(buf, markov.Step[xstate]{To: m.giveIn(y), P: w})
}

// giveIn settles a Give In decided at state y. The deciding side of a
// decision process Gives In as a choice of state y instead.
func (m *chainModel) giveIn(y xstate) xstate {
	a := m.mirror(y)
	t := int(y.turn)
	sd := &a.Sides[t]
	if sd.Char == TroublePool || t == m.decider {
		return y
	}
	var v View
	m.e.turnView(m.sc, t, &v)
	if m.b.table.of(sd.Char).GiveIn(&v) {
		return m.gaveIn(y)
	}
	return y
}

// gaveIn is where a Give In at state y ends the action.
func (m *chainModel) gaveIn(y xstate) xstate {
	if m.basic {
		return xstate{done: true, cat: 4}
	}
	return xstate{done: true, cat: int8(3*int(y.holder) + 2)}
}

// Exact returns the exact outcome distribution where the scenario fits the
// model: a basic or two-sided contested action (any pools, gangs, free aid
// and interference, policies, Plot Points and 1s bought), or a timed action
// whose pools cost no Plot Points. Other scenarios get an error wrapping
// markov.ErrNoExact.
func (s Scenario) Exact(ctx context.Context) (markov.Answer, error) {
	if err := s.Validate(); err != nil {
		return markov.Answer{}, err
	}
	switch s.Kind {
	case KindTimed:
		return s.exactTimed(ctx)
	}
	return s.exactAction(ctx)
}
