package contest

import (
	"fmt"

	"github.com/stakesrpg/stakes/dice"
)

// The quiet pass: the raise loop of a two-sided action without the step
// engine's layers.
//
// Between the opening roll and the first loss of a two-sided action (no
// aider, no interferer planned, no event sink, the shipped reading of the
// two highest dice) nothing changes a trait's
// rating: rolls spend and earn Plot Points, raises knock dice off gangs,
// and that is all until a side loses, which ends the loop (a Final Push,
// harm to inflict, or the end). So quietTurns reads both sides' planned
// dice once and then plays turn after turn from them, asking the shipped
// policies directly, where decide would build a View, look every rating
// up again and re-check the plan for each turn. It makes the same calls
// decide makes (spend, rollSide, rolled, BuyOnes) with the same
// arguments, in the same order, so the random draws and the scene come
// out the same (TestQuietAsDecide plays the two ways against each other).
// Whatever it does not cover (another policy, a gone trait, a Give In, a
// choice that would be an error, the other phases) it leaves to decide.

// polCode names a shipped policy's turn decisions: the policies that
// embed Sensible without overriding GiveIn, Extras or BuyOnes decide as
// Sensible does.
type polCode uint8

const (
	polOther polCode = iota // not a shipped policy: ask through decide
	polSensible
	polStubborn
	polFrugal
	polCautious
)

// codeOf is p's polCode.
func codeOf(p Policy) polCode {
	switch p.(type) {
	case Sensible, PileOn, PushLargest, TroubleSmallest:
		return polSensible
	case Stubborn:
		return polStubborn
	case Frugal:
		return polFrugal
	case Cautious:
		return polCautious
	}
	return polOther
}

// giveIn, extras and buyOnes are the shipped policies' decisions from
// just what they read of a View (TestQuietPolicies holds them to the
// Policy methods).
func (k polCode) giveIn(stakes, best, bestAll int) bool {
	switch k {
	case polStubborn:
		return false
	case polCautious:
		return 4*stakes >= 3*best
	}
	return stakes >= bestAll // Sensible's, and Frugal's
}

func (k polCode) extras(stakes, best, affordable int) int {
	switch k {
	case polStubborn:
		return affordable
	case polFrugal, polCautious:
		return 0
	}
	if affordable > 0 && 3*stakes >= 2*best {
		return 1
	}
	return 0
}

func (k polCode) buyOnes(ones int) int {
	switch k {
	case polStubborn:
		return ones
	case polFrugal:
		return 0
	}
	return min(1, ones) // Sensible's, and Cautious's
}

// quietDice is the most planned dice (base and extras) a side may have
// for the quiet pass.
const quietDice = 12

// quietSide is what the quiet pass knows of one side for the whole loop.
type quietSide struct {
	pol polCode
	// ds: the ratings of Base, then of the first nx Extra picks, each
	// still there and priced by the plan (as readAffordable counts them).
	ds     [quietDice]dice.Die
	nb, nx int
	// a >= b: the two largest sizes of the base dice.
	a, b int
	pl   *sidePlan
	// picks: Base then those Extra picks; key[n] and all[n] pack the
	// dice of Base + Extra[:n] for the tables as rollSide does.
	picks [quietDice]Pick
	key   [quietDice + 1]uint64
	all   [quietDice + 1]uint
	// The gang as read: raises only ever knock dice off its end, so
	// through the loop a side's gang is its first k dice. gx[k] >= gy[k]
	// are the two largest sizes of the base dice and those k, and
	// gkey[k] and gall[k] pack the k dice as key and all do.
	ng   int
	gkey [quietGang + 1]uint64
	gall [quietGang + 1]uint
	// best[k][j]: the sum of the two largest sizes of the base dice,
	// the gang's first k and the first j extras.
	best [quietGang + 1][quietDice + 1]int
}

// quietGang is the largest gang the quiet pass covers.
const quietGang = 4

// quietMemo is the quiet pass's reading of both sides (see quietRead);
// ok says it is that of a Runner trial's start.
type quietMemo struct {
	ok bool
	gm polCode
	sd [2]quietSide
}

// quietRead fills e.quiet with what the quiet pass needs of s's action
// and tb's policies, or reports false when it does not cover them.
func (e *Engine) quietRead(s *Scene, tb *Table) bool {
	a := s.Action
	m := &e.quiet
	if m.gm = codeOf(tb.gm()); m.gm == polOther {
		return false
	}
	for t := range m.sd {
		sd := &a.Sides[t]
		if sd.Char < 0 || sd.Aider >= 0 {
			return false
		}
		q := &m.sd[t]
		if q.pol = codeOf(tb.of(sd.Char)); q.pol == polOther {
			return false
		}
		if e.trustPlans {
			q.pl = &e.plans[t]
		} else {
			q.pl = e.planOf(s, t)
		}
		q.nb = len(sd.Base)
		if q.nb+len(sd.Extra) > quietDice || len(q.pl.cost) == 0 {
			return false
		}
		if !readSizes(s, sd.Base, q.ds[:q.nb]) {
			return false
		}
		q.a, q.b = addTop2(0, 0, q.ds[:q.nb])
		// The extras a side could ever afford, whatever its points: the
		// ones still there, priced by the plan.
		q.nx = readAffordable(s, sd.Extra, q.pl.cost, int(^uint(0)>>1), q.ds[q.nb:])
		copy(q.picks[:], sd.Base)
		copy(q.picks[q.nb:], sd.Extra[:q.nx])
		key, all := uint64(0), uint(0)
		for i, d := range q.ds[:q.nb+q.nx] {
			all |= uint(d - 2)
			key = key<<4 | uint64(d-1)
			if n := i + 1 - q.nb; n >= 0 {
				q.key[n], q.all[n] = key, all
			}
		}
		if q.nb == 0 {
			q.key[0], q.all[0] = 0, 0
		}
		if q.ng = len(sd.Gang); q.ng > quietGang {
			return false
		}
		key, all = 0, 0
		for k := 0; k <= q.ng; k++ {
			if k > 0 {
				d := sd.Gang[k-1]
				all |= uint(d - 2)
				key = key<<4 | uint64(d-1)
			}
			q.gkey[k], q.gall[k] = key, all
			x, y := addTop2(q.a, q.b, sd.Gang[:k])
			q.best[k][0] = x + y
			for j, d := range q.ds[q.nb : q.nb+q.nx] {
				x, y = addTop2(x, y, []dice.Die{d})
				q.best[k][j+1] = x + y
			}
		}
	}
	return true
}

// buyErr is decide's error for the GM's illegal purchase of 1s, out of
// quietTurns's way.
func buyErr(tb *Table, err error) error {
	return fmt.Errorf("policy %s buying 1s: %w", tb.gm().Name(), err)
}

// quietTurns plays side turns of s's action (in PhaseOpen or PhaseTurn)
// as decide would, for as long as the quiet pass covers them. It reports
// whether it took any step; a step it declines, having changed nothing,
// is decide's to take.
func (e *Engine) quietTurns(s *Scene, r *dice.Roller, tb *Table) (bool, error) {
	a := s.Action
	if e.loud || e.Sink != nil || len(a.Sides) != 2 || a.Planned >= 0 || e.Rules.Keep != 2 {
		return false, nil
	}
	// A Runner's trial opens on its start scene with the sides it laid
	// out last time (trustPlans): what the first such trial read holds
	// for every other, so it is read only once.
	m := &e.quiet
	start := e.trustPlans && a.Phase == PhaseOpen && a.Rolls == 0
	if !start || !m.ok {
		m.ok = false
		if !e.quietRead(s, tb) {
			return false, nil
		}
		m.ok = start
	}
	gm, qs := m.gm, &m.sd
	took := false
	basic := a.Kind == Basic
	for a.Phase == PhaseOpen || a.Phase == PhaseTurn {
		t := a.Turn
		sd := &a.Sides[t]
		q := &qs[t]
		ch := &s.Characters[sd.Char]
		pts := ch.PlotPoints
		cost := q.pl.cost
		aff := 0
		for aff < q.nx && cost[aff+1] <= pts {
			aff++
		}
		g := sd.Gang
		k := len(g)
		if k > q.ng {
			return took, nil // not the gang read (no raise adds dice)
		}
		// The best totals turnView works out.
		best := sd.Aid + q.best[k][0]
		bestAll := sd.Aid + q.best[k][aff]
		if a.Phase == PhaseTurn && q.pol.giveIn(a.Stakes, best, bestAll) {
			return took, nil
		}
		n := q.pol.extras(a.Stakes, best, aff)
		if n < 0 || n > aff || n < q.pl.lo || n > q.pl.hi || cost[n] > pts {
			return took, nil
		}
		if c := cost[n]; c != 0 {
			ch.PlotPoints -= c // spend, with no sink to tell
		}
		// rollSide, from the keys worked out once.
		np := q.nb + n
		m := np + k
		key, all := q.key[n]<<(4*k)|q.gkey[k], q.all[n]|q.gall[k]
		var total, ones int
		if l := e.tabs.slot[slotOf(key)]; l != nil && l.key == key && all <= 14 && m <= fastDice && r.Remaining() == 0 &&
			cap(sd.Picks) >= np && cap(sd.Dice) >= m && cap(sd.Faces) >= m {
			// Loops rather than copy: a call to memmove costs more than
			// a few picks.
			// Reslicing in place stores only the lengths.
			sd.Picks, sd.Dice, sd.Faces = sd.Picks[:np], sd.Dice[:m], sd.Faces[:m]
			dp, dd := sd.Picks, sd.Dice
			for i, p := range q.picks[:len(dp)] {
				dp[i] = p
			}
			//lint:ignore S1001 a loop, as the comment above says
			for i, d := range q.ds[:np] {
				dd[i] = d
			}
			for i, d := range g {
				dd[np+i] = d
			}
			total, ones = l.roll(r, sd.Faces)
			if !e.Rules.ExcludeOnes {
				total = e.total(sd.Faces)
			}
		} else {
			total, ones = e.rollSide(r, sd, sd.Base, sd.Extra[:n], q.ds[:np])
		}
		took = true
		// rolled, for a character's side with no sink.
		sd.Total = total + sd.Aid
		sd.Aid = 0
		sd.Rolled = true
		a.Rolls++
		a.Ones = 0
		if !ch.GM {
			a.Ones, a.OnesSide = ones, t
		}
		switch {
		case a.Phase == PhaseOpen:
			e.opened(s, t)
		case !basic && sd.Total > a.Stakes:
			// answer's raise: the gang of the side that held the stakes
			// loses dice.
			off := e.Rules.MookOff
			if sd.Total-a.Stakes >= e.Rules.Extraordinary {
				off = e.Rules.MookOffExtraordinary
			}
			hs := &a.Sides[a.Holder]
			if k := min(off, len(hs.Gang)); k > 0 {
				hs.Gang = hs.Gang[:len(hs.Gang)-k]
			}
			a.Holder, a.Stakes, a.Escalated = t, sd.Total, true
			a.Raises++
			a.Turn = a.next(t)
		default:
			e.answer(s, r, t)
		}
		if a.Ones > 0 {
			if err := e.BuyOnes(s, gm.buyOnes(a.Ones)); err != nil {
				return took, buyErr(tb, err)
			}
		}
	}
	return took, nil
}
