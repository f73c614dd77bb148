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

// giveIn, extras and buyOnes are the shipped decisions, each the very
// method the policy's exported one calls.
func (k polCode) giveIn(v *View) bool {
	switch k {
	case polStubborn:
		return Stubborn{}.giveIn(v)
	case polFrugal:
		return Frugal{}.giveIn(v)
	case polCautious:
		return Cautious{}.giveIn(v)
	}
	return Sensible{}.giveIn(v)
}

func (k polCode) extras(v *View) int {
	switch k {
	case polStubborn:
		return Stubborn{}.extras(v)
	case polFrugal:
		return Frugal{}.extras(v)
	case polCautious:
		return Cautious{}.extras(v)
	}
	return Sensible{}.extras(v)
}

func (k polCode) buyOnes(v *View) int {
	switch k {
	case polStubborn:
		return Stubborn{}.buyOnes(v)
	case polFrugal:
		return Frugal{}.buyOnes(v)
	case polCautious:
		return Cautious{}.buyOnes(v)
	}
	return Sensible{}.buyOnes(v)
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
}

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
	}
	return true
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
		// The View turnView fills.
		var v View
		v.Kind, v.Side, v.Char, v.Stakes, v.Holder, v.Rolled, v.Target = a.Kind, t, sd.Char, a.Stakes, a.Holder, sd.Rolled, -1
		v.PlotPoints, v.Affordable = pts, aff
		x, y := addTop2(q.a, q.b, sd.Gang)
		v.Best = sd.Aid + x + y
		x, y = addTop2(x, y, q.ds[q.nb:q.nb+aff])
		v.BestAll = sd.Aid + x + y
		if a.Phase == PhaseTurn && q.pol.giveIn(&v) {
			return took, nil
		}
		n := q.pol.extras(&v)
		if n < 0 || n > aff || n < q.pl.lo || n > q.pl.hi || cost[n] > pts {
			return took, nil
		}
		if c := cost[n]; c != 0 {
			ch.PlotPoints -= c // spend, with no sink to tell
		}
		total, ones := e.rollSide(r, sd, sd.Base, sd.Extra[:n], q.ds[:q.nb+n])
		e.rolled(s, r, t, total, ones)
		took = true
		if a.Ones > 0 {
			v = View{Kind: a.Kind, Side: a.OnesSide, Char: -1, Ones: a.Ones, Target: -1}
			if err := e.BuyOnes(s, gm.buyOnes(&v)); err != nil {
				return took, fmt.Errorf("policy %s buying 1s: %w", tb.gm().Name(), err)
			}
		}
	}
	return took, nil
}
