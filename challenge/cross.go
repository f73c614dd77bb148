package challenge

import (
	"context"
	"errors"
	"fmt"

	"github.com/stakesrpg/stakes/sim/markov"
)

// The exact model with cross-offs. A side may cross a name off the owe
// list "whenever you're comparing dice with an opponent" and roll an
// advantage die onto its roll at once; whether it does hangs on the two
// rolls showing. So this model follows a two-sided conflict step by step,
// as the Engine plays it: a cast with both rolls showing, the sides asked
// in turn whether to cross a name off (at a cast side A then side B, at an
// answer the answerer then the challenger), the comparison read, and the
// standing roll of whoever challenges next. Its states hold what the
// choices need: the rolls showing, each as the rules read it (the high die
// with every advantage die added, then the other dice high to low), the
// names each side may still cross off, and whether the pair's first
// exchange has put names on the list yet.
//
// A side's policy answers from a State set up as the Engine's would be at
// that point: the phase, who challenges and answers, the round's
// advantage dice, the owe list's names the sides may cross off, and the
// rolls showing as read (the high face carrying the advantage dice, Bonus
// 0). A policy that reads the rolls as the rules do (View.Read and
// View.Compare, as every shipped part does) chooses as it does in play;
// one that reads the faces otherwise, or the round, is outside the model.
// Once no name is left to cross off, a round is Duel's, and a stance is
// asked once for the round with no rolls showing (the shipped stances read
// the sides' dice, not their rolls). The deciding side of an Optimal makes
// its cross-off and stance choices in states of their own, left open to
// the solver.

// Kinds of state of the model with cross-offs.
const (
	xCast     uint8 = iota // a cast about to be rolled (recast: not a new round)
	xShown                 // both rolls showing, side ask's turn to cross a name off
	xStanding              // the challenger's roll standing, the answerer about to roll
	xStance                // the answerer, lower but over half, hangs in or gives
	xEnd                   // the conflict over with Ending end
)

// xstate is a state of the model with cross-offs. Fields a kind does not
// use are zero, so each situation is one state.
type xstate struct {
	kind uint8
	// adv is who carries the advantage die this round: 0 nobody, 1+i side
	// i. c is the challenger (-1 at a cast); ask the position in the
	// order of asking of the side asked (xShown), crossed how many names
	// it has crossed off at this comparison.
	adv, c, ask, crossed int8
	// met: the pair's first exchange has had its say on the owe list.
	// recast: this cast is a recast within the round.
	met, recast bool
	end         int8
	// names[i] is how many names on the owe list side i may cross off.
	names [2]int16
	// keys are the rolls showing, side A's and side B's (xShown); at
	// xStanding only the challenger's.
	keys [2]key
}

func xEnded(e Ending) xstate { return xstate{kind: xEnd, c: -1, end: int8(e)} }

// crossModel is a two-sided scenario's model with cross-offs.
type crossModel struct {
	r        Rules
	deciding int // the side whose choices are left open; -1: none
	// plan, when set, makes the deciding side's choices as it does, so
	// that the process has one choice in every state.
	plan *markov.Plan[xstate]
	// duel is the sides' dice for Duel's rounds, played once no name can
	// be crossed off; rounds[2*hangA+hangB] its rounds under the stances
	// (each solved when first needed).
	duel     *duelModel
	rounds   [4]*[3]roundOut
	policies []Policy
	owed     [2]int // names side i puts on the list when outclassed
	// owedAnswering: names side i puts on the list only when it answers
	// the first exchange (Rules.OweOnEqualSides, sides equal in total).
	owedAnswering [2]int
	names         [2]int16 // names side i may cross off at the start
	never         [2]bool  // side i never crosses a name off: it holds none
	// c is a State set up as the scenario's start, on which the sides'
	// policies are asked; debt[i] is an owe-list entry side i may cross
	// off.
	c    *State
	debt [2]Debt
	err  error // the first illegal answer of a policy
}

// newCrossModel builds the model of a two-sided scenario, its sides'
// policies answering for them except deciding's (-1: none). A side that
// never crosses a name off (never[i]: its cross-off part is "never")
// holds none in the model, so that once the other side has none left
// either, the rest of the conflict is Duel's rounds.
func (s Scenario) newCrossModel(ctx context.Context, c *State, policies []Policy, deciding int, never [2]bool) (*crossModel, error) {
	if err := exactRules(s.Rules); err != nil {
		return nil, err
	}
	m := &crossModel{r: s.Rules, deciding: deciding, policies: policies, c: c}
	var err error
	if m.duel, err = newDuelModel(ctx, s.Rules, c.Sides[0].Dice, c.Sides[1].Dice); err != nil {
		return nil, err
	}
	// A cast lays out every pair of readings, each a step: bound them
	// before any is built.
	for adv := range 3 {
		pairs := len(m.duel.dists[0][b2i(adv == 1)].keys) * len(m.duel.dists[1][b2i(adv == 2)].keys)
		if pairs > maxCastPairs {
			return nil, fmt.Errorf("%w: the two sides' rolls read %d ways together; the exact model with cross-offs takes up to %d", markov.ErrNoExact, pairs, maxCastPairs)
		}
	}
	if err := m.duel.checkBounds(); err != nil {
		return nil, err
	}
	for i := range 2 {
		if p := playerOnBoth(c); p != "" {
			return nil, fmt.Errorf("%w: player %s has characters on both sides; the exact model keeps each side's names apart", markov.ErrNoExact, p)
		}
		if c.outclasses(c.Sides[1-i].TotalSides, c.Sides[i].TotalSides, false) {
			m.owed[i] = len(c.Sides[i].Members)
		} else if c.outclasses(c.Sides[1-i].TotalSides, c.Sides[i].TotalSides, true) {
			m.owedAnswering[i] = len(c.Sides[i].Members)
		}
		if s.Rules.OweWaitsForNextConflict {
			m.owed[i], m.owedAnswering[i] = 0, 0 // not to be crossed off in this conflict
		}
		n := ownNames(c, i)
		if never[i] && i != deciding {
			n, m.owed[i], m.owedAnswering[i] = 0, 0, 0
		}
		m.never[i] = never[i] && i != deciding
		if n+m.owed[i]+m.owedAnswering[i] > maxNames {
			return nil, fmt.Errorf("%w: side %s may cross off %d names; the exact model counts up to %d", markov.ErrNoExact, c.Sides[i].Name, n+m.owed[i]+m.owedAnswering[i], maxNames)
		}
		m.names[i] = int16(n)
		mem := c.Sides[i].Members[0]
		m.debt[i] = Debt{Name: mem.Name, Player: mem.Player}
	}
	return m, nil
}

// maxCastPairs bounds the pairs of readings one cast of the model with
// cross-offs lays out (the default match-up's are about 20,000).
const maxCastPairs = 1 << 20

// maxNames bounds the names a side may cross off in the exact model (each
// one more multiplies its states).
const maxNames = 64

// playerOnBoth returns a player with characters on both sides of a
// two-sided conflict, or "".
func playerOnBoth(c *State) string {
	for _, a := range c.Sides[0].Members {
		for _, b := range c.Sides[1].Members {
			if a.Player == b.Player {
				return a.Player
			}
		}
	}
	return ""
}

// ownNames counts the owe-list entries side i may cross off: those of its
// players' characters.
func ownNames(c *State, i int) int {
	n := 0
	for _, d := range c.Owe {
		for _, m := range c.Sides[i].Members {
			if m.Player == d.Player {
				n++
				break
			}
		}
	}
	return n
}

// start is the model's first state: the first cast, with the owe list as
// the scenario sets it.
func (m *crossModel) start() xstate {
	return m.roundCast(xstate{names: m.names}, 0)
}

// roundCast is the cast that begins a new round after st: the advantage
// die to nobody (adv 0) or to side adv-1. When the pair's first exchange
// puts no name on the list (neither side's dice outclass the other's, as
// in the text's match-up), the owe list's look is no matter: every state
// counts as met.
func (m *crossModel) roundCast(st xstate, adv int) xstate {
	return xstate{kind: xCast, c: -1, adv: int8(adv), met: st.met || m.owesNone(), names: st.names}
}

// owesNone reports whether the pair's first exchange puts no name on the
// owe list that the model counts.
func (m *crossModel) owesNone() bool { return m.owed == [2]int{} && m.owedAnswering == [2]int{} }

// spent reports whether cast st begins a round in which no name can be
// crossed off: then the rest of the conflict is Duel's chain over rounds.
func (m *crossModel) spent(st xstate) bool {
	return st.kind == xCast && !st.recast && st.met && st.names == [2]int16{}
}

// order returns the side asked at position k of a comparison: at a cast
// side A then side B, at an answer the answerer then the challenger (as
// Step asks them).
func (st *xstate) order(k int) int {
	if st.c < 0 {
		return k
	}
	if k == 0 {
		return 1 - int(st.c)
	}
	return int(st.c)
}

// process explores the model as a decision process: the deciding side's
// choices are its states' options; every other state has one.
func (m *crossModel) process(ctx context.Context) (*markov.Process[xstate], error) {
	// Each state's steps are built in the model's buffers, which
	// ExploreProcess reads before it asks for the next state's.
	var bufs [2][]markov.Step[xstate]
	var choices [2]markov.Choice[xstate]
	p, err := markov.ExploreProcess(ctx, m.start(), func(st xstate) []markov.Choice[xstate] {
		if m.err != nil {
			return nil
		}
		switch st.kind {
		case xEnd:
			return nil
		case xShown:
			// Keeping the names comes first and costs nothing, so that
			// where crossing one off changes nothing the plan keeps them,
			// whatever the goal's Ties.
			bufs[0] = m.settle(st.passed(), 1, bufs[0][:0])
			bufs[1] = m.crossed(st, 1, m.deciding, bufs[1][:0])
			choices[0] = markov.Choice[xstate]{Name: optKeep, Steps: bufs[0]}
			choices[1] = markov.Choice[xstate]{Name: optCross, Steps: bufs[1], Cost: nameCost}
			return choices[:]
		case xCast:
			if !m.spent(st) {
				break
			}
			if m.deciding < 0 || m.plan != nil {
				bufs[0] = m.round(st, m.planned(st), bufs[0][:0])
				choices[0] = markov.Choice[xstate]{Name: "round", Steps: bufs[0]}
				return choices[:1]
			}
			bufs[0] = m.round(st, true, bufs[0][:0])
			bufs[1] = m.round(st, false, bufs[1][:0])
			choices[0] = markov.Choice[xstate]{Name: optHangIn, Steps: bufs[0], Cost: exposure(m.r)}
			choices[1] = markov.Choice[xstate]{Name: optGive, Steps: bufs[1]}
			return choices[:]
		case xStance:
			bufs[0] = m.stance(st, true, 1, bufs[0][:0])
			bufs[1] = m.stance(st, false, 1, bufs[1][:0])
			choices[0] = markov.Choice[xstate]{Name: optHangIn, Steps: bufs[0], Cost: exposure(m.r)}
			choices[1] = markov.Choice[xstate]{Name: optGive, Steps: bufs[1]}
			return choices[:]
		}
		bufs[0] = m.roll(st, bufs[0][:0])
		choices[0] = markov.Choice[xstate]{Name: "roll", Steps: bufs[0]}
		return choices[:1]
	})
	if m.err != nil {
		return nil, m.err
	}
	return p, err
}

// Options of the deciding side at a comparison.
const (
	optCross = "cross a name off"
	optKeep  = "keep the names"
)

// roll appends what follows a cast (xCast) or an answer (xStanding) to
// out: every reading of the roll, each settled. A cast that comes to a
// true tie with nothing crossed off is recast as it was, so the cast's
// steps are those of the casts that do not (the recasts' chance spread
// over them): the same end, without the loop.
func (m *crossModel) roll(st xstate, out []markov.Step[xstate]) []markov.Step[xstate] {
	if st.kind == xCast {
		da, db := m.duel.dists[0][b2i(st.adv == 1)], m.duel.dists[1][b2i(st.adv == 2)]
		for i, ka := range da.keys {
			for j, kb := range db.keys {
				sh := xstate{kind: xShown, c: -1, adv: st.adv, met: st.met, names: st.names, keys: [2]key{ka, kb}}
				out = m.settle(sh, da.p[i]*db.p[j], out)
			}
		}
		again := st
		again.recast = true
		return withoutLoop(out, again)
	}
	a := 1 - int(st.c)
	da := m.duel.dists[a][b2i(int(st.adv) == 1+a)]
	for j, k := range da.keys {
		sh := st
		sh.kind = xShown
		sh.keys[a] = k
		out = m.settle(sh, da.p[j], out)
	}
	return out
}

// withoutLoop removes the steps of out to state again and spreads their
// chance over the others, in proportion: play that comes back to the same
// situation until it leaves ends where it would have.
func withoutLoop(out []markov.Step[xstate], again xstate) []markov.Step[xstate] {
	loop, n := 0.0, 0
	for _, st := range out {
		if st.To == again {
			loop += st.P
			continue
		}
		out[n] = st
		n++
	}
	out = out[:n]
	if loop > 0 && loop < 1 {
		for i := range out {
			out[i].P /= 1 - loop
		}
	}
	return out
}

// passed is st once its asked side passes: the next side's turn.
func (st xstate) passed() xstate {
	st.ask++
	st.crossed = 0
	return st
}

// settle continues the comparison st shows with probability p: each side
// yet to be asked in turn, then the comparison read. The deciding side's
// turn is a state of its own; any other side's policy answers at once.
func (m *crossModel) settle(st xstate, p float64, out []markov.Step[xstate]) []markov.Step[xstate] {
	for ; st.ask < 2; st = st.passed() {
		i := st.order(int(st.ask))
		if st.names[i] == 0 || int(st.crossed) >= m.r.CrossOffsPerComparison {
			continue
		}
		if i == m.deciding {
			st = st.last()
			if m.plan == nil {
				return append(out, markov.Step[xstate]{To: st, P: p})
			}
		}
		if i == m.deciding && m.planned(st) || i != m.deciding && m.asks(st, i) {
			return m.crossed(st, p, i, out)
		}
	}
	return m.read(st, p, out)
}

// last is xShown state st, at side ask's turn, with the challenger's
// standing roll kept only as far as what follows can tell, when no side is
// asked after this one in the comparison (the answerer is asked first, the
// challenger last): the answer then meets the standing roll once more,
// and only its high die (with its advantage dice) and how its lower dice
// compare with the answer's count. So the standing roll's lower dice
// become the answer's, raised or lowered in the last place as they
// compare: one state for every standing roll that plays alike.
func (st xstate) last() xstate {
	if st.c < 0 {
		return st
	}
	c, a := int(st.c), 1-int(st.c)
	if st.ask == 0 && st.names[c] > 0 {
		return st
	}
	s, ans := &st.keys[c], st.keys[a]
	var tail int16
	for i := 1; i < keyLen && tail == 0; i++ {
		switch {
		case s[i] > ans[i]:
			tail = 1
		case s[i] < ans[i]:
			tail = -1
		}
	}
	copy(s[1:], ans[1:])
	s[keyLen-1] += tail
	return st
}

// crossed is side i crossing a name off at comparison st: an advantage
// die rolled onto its roll, each face settled on.
func (m *crossModel) crossed(st xstate, p float64, i int, out []markov.Step[xstate]) []markov.Step[xstate] {
	st.names[i]--
	st.crossed++
	faces := int(m.r.AdvantageDie)
	for f := 1; f <= faces; f++ {
		next := st
		next.keys[i][0] += int16(f)
		out = m.settle(next, p/float64(faces), out)
	}
	return out
}

// asks asks side i's policy whether it crosses a name off at comparison
// st, on the model's State set up as the Engine's would be.
func (m *crossModel) asks(st xstate, i int) bool {
	c := m.c
	m.show(st)
	c.Sides[i].Crossed = int(st.crossed)
	k := m.policies[i].CrossOff(&View{c}, i)
	if k == -1 {
		return false
	}
	if err := c.checkCross(i, k); err != nil && m.err == nil {
		m.err = fmt.Errorf("challenge: side %s's cross-off policy: %w", c.Sides[i].Name, err)
	}
	return true
}

// show sets the model's State to comparison st: the phase, who challenges
// and answers, the rolls showing, the advantage dice of the round and the
// owe list's names the sides may cross off.
func (m *crossModel) show(st xstate) {
	c := m.c
	c.Phase, c.Challenger, c.Answerer = PhaseCastRolled, -1, -1
	if st.c >= 0 {
		c.Phase, c.Challenger, c.Answerer = PhaseAnswered, int(st.c), 1-int(st.c)
	}
	c.First, c.Met = !st.met, 0
	if st.met {
		c.Met = pairBit(0, 1)
	}
	c.Owe = c.Owe[:0]
	for i := range 2 {
		s := &c.Sides[i]
		s.Faces = s.Faces[:0]
		for _, f := range st.keys[i][:len(s.Dice)] {
			s.Faces = append(s.Faces, int(f))
		}
		s.Bonus, s.Crossed, s.Asked = 0, 0, false
		s.Advantage = b2i(int(st.adv) == 1+i)
		for range st.names[i] {
			c.Owe = append(c.Owe, m.debt[i])
		}
	}
}

// read reads comparison st once every side has been asked: after a cast
// the higher roll challenges (a true tie recasts); after an answer, a
// higher answer blocks and stands, a true tie starts a new round, half or
// less loses outright, and otherwise the answerer hangs in or gives. A
// tie or an answer over half that is the pair's first exchange puts the
// outclassed side's names on the owe list.
func (m *crossModel) read(st xstate, p float64, out []markov.Step[xstate]) []markov.Step[xstate] {
	step := func(to xstate) []markov.Step[xstate] { return append(out, markov.Step[xstate]{To: to, P: p}) }
	if st.c < 0 {
		c := 0
		switch st.keys[0].cmp(st.keys[1]) {
		case 0:
			if m.r.RecastTies {
				next := m.roundCast(st, int(st.adv))
				next.recast = true
				return step(next)
			}
		case -1:
			c = 1
		}
		return step(standing(st, c, st.keys[c]))
	}
	c, a := int(st.c), 1-int(st.c)
	switch d := st.keys[a].cmp(st.keys[c]); {
	case d > 0:
		return step(standing(st, a, st.keys[a]))
	case d == 0:
		return step(m.roundCast(m.owe(st), 0))
	case int16(m.r.DoubleFactor)*st.keys[a][0] <= st.keys[c][0]:
		return step(xEnded(AOutright + 2*Ending(c)))
	case a == m.deciding:
		at := xstate{kind: xStance, c: int8(c), names: m.owe(st).names, met: true}
		if m.plan == nil {
			return step(at)
		}
		return m.stance(at, hangsAsPlanned(m.plan, at, int(st.adv)), p, out)
	}
	st = m.owe(st)
	return m.stance(st, m.hangs(st, a), p, out)
}

// planned is the plan's choice in a state of the deciding side: whether
// it crosses a name off (xShown) or hangs in (xStance, or a round with no
// names left, xCast); false without a plan.
func (m *crossModel) planned(st xstate) bool {
	if m.plan == nil {
		return false
	}
	_, name, ok := m.plan.Choice(st)
	return ok && (name == optCross || name == optHangIn)
}

// hangsAsPlanned is the stance plan pl takes at xStance state st in a
// round whose advantage die is adv's: once no name is left to cross off,
// its choice for the whole round where the plan has one (a round that
// begins with none left), so that play, which cannot tell such a round
// from one in which the last name went, stands as the model does.
func hangsAsPlanned(pl *markov.Plan[xstate], st xstate, adv int) bool {
	if st.names == [2]int16{} {
		if _, name, ok := pl.Choice(xstate{kind: xCast, c: -1, adv: int8(adv), met: true}); ok {
			return name == optHangIn
		}
	}
	_, name, ok := pl.Choice(st)
	return ok && name == optHangIn
}

// round appends the steps of a whole round from cast st once no name can
// be crossed off, when the deciding side (if any) hangs in (hangIn) or
// gives whenever it must choose in it and every other side as its policy
// says: Duel's round, to an ending or the next round's cast.
func (m *crossModel) round(st xstate, hangIn bool, out []markov.Step[xstate]) []markov.Step[xstate] {
	var hang [2]bool
	for a := range 2 {
		if a == m.deciding {
			hang[a] = hangIn
			continue
		}
		hang[a] = m.hangs(xstate{kind: xStance, c: int8(1 - a), met: true}, a)
	}
	k := 2*b2i(hang[0]) + b2i(hang[1])
	if m.rounds[k] == nil {
		outs, err := m.duel.rounds(hang)
		if err != nil {
			m.err = err
			return out
		}
		m.rounds[k] = &outs
	}
	o := &m.rounds[k][st.adv]
	for e, p := range o.end {
		out = append(out, markov.Step[xstate]{To: xEnded(Ending(e)), P: p})
	}
	for n, p := range o.next {
		out = append(out, markov.Step[xstate]{To: m.roundCast(st, n), P: p})
	}
	return out
}

// hangs asks side a's policy whether it hangs in after answering lower
// than the challenge but more than half in st, on the model's State set
// up as the Engine's would be.
func (m *crossModel) hangs(st xstate, a int) bool {
	m.show(st)
	m.c.Phase = PhaseStance
	return m.policies[a].HangIn(&View{m.c}, a)
}

// standing is the state of side c challenging with roll k in the round of
// st.
func standing(st xstate, c int, k key) xstate {
	next := xstate{kind: xStanding, c: int8(c), adv: st.adv, met: st.met, names: st.names}
	next.keys[c] = k
	return next
}

// owe is st after its exchange, not a block, has had its say on the owe
// list: at the pair's first, each side whose opponent's dice outclass its
// own goes on it (an outright loss ends the conflict, so it is not asked).
func (m *crossModel) owe(st xstate) xstate {
	if !st.met {
		st.met = true
		for i := range 2 {
			st.names[i] += int16(m.owed[i])
			if i != int(st.c) {
				st.names[i] += int16(m.owedAnswering[i])
			}
		}
	}
	return st
}

// stance is the answerer hanging in (the challenger carries an advantage
// die into the next round) or giving, after an answer over half in st
// (its owe list settled).
func (m *crossModel) stance(st xstate, hangIn bool, p float64, out []markov.Step[xstate]) []markov.Step[xstate] {
	c := int(st.c)
	if !hangIn {
		return append(out, markov.Step[xstate]{To: xEnded(AGiven + 2*Ending(c)), P: p})
	}
	return append(out, markov.Step[xstate]{To: m.roundCast(st, carried(m.r, c)), P: p})
}

// crossAnswer reads the model under plan pl as an Answer in Categories'
// order, with its rounds: a round begins at a cast that is not a recast.
func crossAnswer(ctx context.Context, pl *markov.Plan[xstate]) (markov.Answer, error) {
	return pl.Answer(ctx, int(numEndings)+1, func(st xstate) int { return int(st.end) },
		func(st xstate) bool { return st.kind == xCast && !st.recast })
}

// crossExact solves a two-sided scenario in the model with cross-offs,
// side i playing policies[i], which never crosses a name off if never[i].
func (s Scenario) crossExact(ctx context.Context, c *State, policies []Policy, never [2]bool) (markov.Answer, error) {
	m, err := s.newCrossModel(ctx, c, policies, -1, never)
	if err != nil {
		return markov.Answer{}, err
	}
	return m.answer(ctx)
}

// answer explores the model, in which no choice is left open (the
// deciding side, if any, following its plan), and reads it as an Answer.
func (m *crossModel) answer(ctx context.Context) (markov.Answer, error) {
	p, err := m.process(ctx)
	if err != nil {
		return markov.Answer{}, noExact(err)
	}
	pl, err := p.Solve(ctx, func(xstate) float64 { return 0 }, markov.Maximize)
	if err != nil {
		return markov.Answer{}, err
	}
	return crossAnswer(ctx, pl)
}

// nevers reports which sides of the scenario never cross a name off by
// their policies: cross_off "never" (the default).
func (s Scenario) nevers() [2]bool {
	var never [2]bool
	for i := range min(len(s.Sides), 2) {
		never[i] = s.Sides[i].Play.neverCrosses()
	}
	return never
}

// neverCrosses reports whether the names choose the cross-off part that
// never crosses a name off.
func (n StyleNames) neverCrosses() bool { return n.CrossOff == "" || n.CrossOff == "never" }

// noExact wraps a model too large to solve as markov.ErrNoExact, and
// returns any other error as it is.
func noExact(err error) error {
	if errors.Is(err, markov.ErrTooLarge) {
		return fmt.Errorf("%w: %w", markov.ErrNoExact, err)
	}
	return err
}

// shown reads side d's turn to cross a name off in a conflict being played
// as the model's state: the comparison pending (a cast, or an answer and
// who challenges), the advantage die of the round, the rolls showing as
// read, the names each side may cross off and whether the pair's first
// exchange has had its say on the owe list.
func (p *crossPlanned) shown(c *State, d int) xstate {
	st := xstate{kind: xShown, c: -1, ask: int8(d), crossed: int8(c.Sides[d].Crossed), met: p.owesNone || c.Met&pairBit(0, 1) != 0}
	if c.Phase == PhaseAnswered {
		st.c = int8(c.Challenger)
		st.ask = int8(b2i(d == c.Challenger))
	}
	for i := range 2 {
		s := &c.Sides[i]
		if s.Advantage > 0 {
			st.adv = int8(1 + i)
		}
		if !p.never[i] {
			st.names[i] = int16(ownNames(c, i))
		}
		st.keys[i] = readKey(s.Faces, s.Bonus)
	}
	return st.last()
}

// readKey is a roll as the rules read it: faces high to low, the bonus
// added to the high die.
func readKey(faces []int, bonus int) key {
	var k key
	for _, f := range faces[:min(len(faces), keyLen)] {
		// Insert f, keeping k high to low.
		v := int16(min(f, 1000))
		for j := range k {
			if v > k[j] {
				k[j], v = v, k[j]
			}
		}
	}
	k[0] += int16(min(max(bonus, 0), 1000))
	return k
}

// crossPlanned is the Policy of an Optimal solved with cross-offs: the
// deciding side's cross-offs and stance read from the plan, every other
// choice (and every other side's) as the side's own policy.
type crossPlanned struct {
	Policy
	side int
	plan *markov.Plan[xstate]
	// never and owesNone are the model's: the sides it holds no names
	// for, and whether the first exchange puts none on the list.
	never    [2]bool
	owesNone bool
}

// CrossOff crosses the first name the side may cross off when the plan
// crosses one off in the comparison showing.
func (p *crossPlanned) CrossOff(v *View, side int) int {
	c := v.s
	if side != p.side || len(c.Sides) != 2 {
		return p.Policy.CrossOff(v, side)
	}
	_, name, ok := p.plan.Choice(p.shown(c, side))
	if !ok {
		return p.Policy.CrossOff(v, side)
	}
	if name != optCross {
		return -1
	}
	return c.firstCrossable(side)
}

// HangIn hangs in or gives as the plan does with the names left.
func (p *crossPlanned) HangIn(v *View, side int) bool {
	c := v.s
	if side != p.side || len(c.Sides) != 2 {
		return p.Policy.HangIn(v, side)
	}
	st := xstate{kind: xStance, c: int8(c.Challenger), met: true}
	adv := 0
	for i := range 2 {
		if !p.never[i] {
			st.names[i] = int16(ownNames(c, i))
		}
		if c.Sides[i].Advantage > 0 {
			adv = 1 + i
		}
	}
	return hangsAsPlanned(p.plan, st, adv)
}

// crossAdvice writes the plan's decisions in words (markov.Lines). Its
// cross-off choices are as many as the rolls that may show, so they are
// told by situation: whose turn to cross off it is (at a cast, answering,
// challenging) and how the comparison stands before the name is crossed
// off. Its stances are told one by one, by the names each side has left.
func (o *Optimal) crossAdvice(ctx context.Context, s Scenario) ([]markov.Advice, error) {
	ds, err := o.xplan.Decisions(ctx)
	if err != nil {
		return nil, err
	}
	key := func(d markov.Decision[xstate], do, alt markov.Option) markov.Said {
		if d.State.kind == xShown {
			return markov.Said{When: crossSituation(d.State, o.side, s.Rules.DoubleFactor), Do: do.Name, Else: alt.Name}
		}
		// A stance, asked as it comes or once for a round with no names
		// left.
		when := fmt.Sprintf("answering lower but more than half, %s", namesLeft(s, d.State))
		if d.State.kind == xCast {
			who := "nobody"
			if d.State.adv > 0 {
				who = s.label(int(d.State.adv) - 1)
			}
			when = "answering lower but more than half, no names left, " + who + " carrying the advantage die"
		}
		return markov.Said{When: when, Do: do.Name, Else: alt.Name}
	}
	return markov.Lines(ds, o.xplan.Aim(), key, markov.AsSaid[xstate]), nil
}

// crossSituation says, for a cross-off choice of side d, whose turn it is
// and how the comparison stands before the name is crossed off.
func crossSituation(st xstate, d, double int) string {
	o := 1 - d
	if st.c < 0 {
		return "at a cast, " + [3]string{"the casts truly tied", "your cast higher", "your cast lower"}[(3+st.keys[d].cmp(st.keys[o]))%3]
	}
	c, a := int(st.c), 1-int(st.c)
	stands := "the answer lower but more than half"
	switch d := st.keys[a].cmp(st.keys[c]); {
	case d > 0:
		stands = "the answer higher"
	case d == 0:
		stands = "a true tie"
	case int16(double)*st.keys[a][0] <= st.keys[c][0]:
		stands = "the answer half or less"
	}
	if d == a {
		return "answering, " + stands
	}
	return "challenging, " + stands
}

// namesLeft says how many names each side may still cross off.
func namesLeft(s Scenario, st xstate) string {
	return fmt.Sprintf("names left to cross off: %s %d, %s %d", s.label(0), st.names[0], s.label(1), st.names[1])
}
