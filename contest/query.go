package contest

import (
	"errors"
	"fmt"
	"slices"

	"github.com/stakesrpg/stakes/dice"
)

// The legal-choice queries: what the side to act may do now, for bots and
// menus. Each is built from the same code the step it asks about
// validates with.

// GiveInCost is what Giving In costs the side to act ("Giving In").
type GiveInCost struct {
	// Free: the side has not rolled, so Giving In is free (PayNothing is
	// then the only payment).
	Free bool `json:"free"`
	// PlotPoints is the price in Plot Points after rolling, to the
	// opposition; CanPayPoints says whether the side holds them.
	PlotPoints   int  `json:"plot_points"`
	CanPayPoints bool `json:"can_pay_points"`
	// Complication is the Complication it may take instead (Gone for the
	// Trouble Pool, which can take none).
	Complication dice.Die `json:"complication"`
}

// GiveInCost returns what Giving In costs side Turn now, in PhaseTurn.
func (e *Engine) GiveInCost(s *State) (GiveInCost, error) {
	a, err := e.action(s, "give in", PhaseTurn)
	if err != nil {
		return GiveInCost{}, err
	}
	sd := &a.Sides[a.Turn]
	if !sd.Rolled {
		return GiveInCost{Free: true}, nil
	}
	gc := GiveInCost{PlotPoints: s.Rules.GiveInPlotPoints}
	if sd.Char != TroublePool {
		gc.CanPayPoints = s.Characters[sd.Char].PlotPoints >= gc.PlotPoints
		gc.Complication = s.Rules.GiveInComplication
	}
	return gc, nil
}

// Allows returns an error unless pay is a legal payment at this cost.
func (gc GiveInCost) allows(pay Payment) error {
	switch {
	case !paymentNames.Valid(pay):
		return fmt.Errorf("contest: payment %v: use plot_point or complication (or nothing before rolling)", pay)
	case gc.Free && pay != PayNothing:
		return fmt.Errorf("contest: payment %v: Giving In before rolling is free", pay)
	case !gc.Free && pay == PayNothing:
		return ErrPayRequired
	case pay == PayPlotPoint && !gc.CanPayPoints:
		return fmt.Errorf("%w: Giving In costs %d Plot Points", ErrPlotPoints, gc.PlotPoints)
	case pay == PayComplication && gc.Complication == dice.Gone:
		return errors.New("contest: the Trouble Pool cannot take a Complication to Give In")
	}
	return nil
}

// PoolCost returns the Plot Points character c's pool of picks costs, or
// why it is not a pool c may roll ("Choosing Character Traits").
func (e *Engine) PoolCost(s *State, c int, picks []Pick) (int, error) {
	if _, err := s.char(c); err != nil {
		return 0, err
	}
	return s.cost(c, picks)
}

// Affordable returns how many of side Turn's planned extra picks
// (Side.Extra, in order) it can add to its planned pool (Side.Base) for
// its coming roll: the most n for which Base + Extra[:n] is a pool it may
// roll (PoolCost accepts it) and holds the Plot Points for. Base is free
// and holds a Value (Begin and Check refuse any other plan), so each
// longer pool costs at least as much as the one before. The Trouble Pool
// buys none.
func (e *Engine) Affordable(s *State) (int, error) {
	a, err := e.action(s, "roll", PhaseOpen, PhaseTurn)
	if err != nil {
		return 0, err
	}
	return e.affordableExtras(s, &a.Sides[a.Turn]), nil
}

// affordableExtras is Affordable for side sd.
func (e *Engine) affordableExtras(s *State, sd *Side) int {
	if sd.Char == TroublePool {
		return 0
	}
	return len(s.planPool(sd).costs) - 1
}

// pricedPool is a side's planned pool (Base, then Extra) priced for its
// coming roll in one walk over its picks (State.planPool): the view of the
// side to act is read from it, and Play's turn rolls from it.
type pricedPool struct {
	dice []dice.Die // the ratings of the picks, up to the first it may not roll
	// costs[n] is what Base and the first n extras cost, for n from 0 to
	// the extras the side may roll and pay for (Affordable).
	costs []int
	err   error // why Base alone may not be rolled now, or nil
}

// planPool prices side sd's planned pool (a character's) for its coming
// roll, pick by pick: Base, then Extra in order for as long as each longer
// pool is one the character may roll and pay for.
func (s *State) planPool(sd *Side) *pricedPool {
	pl := &s.buf.plan
	pl.dice, pl.costs, pl.err = pl.dice[:0], pl.costs[:0], nil
	pp := s.Characters[sd.Char].PlotPoints
	pt := poolTally{c: sd.Char}
	if len(sd.Base) > maxPicks {
		pl.err = fmt.Errorf("contest: a pool of %d picks: at most %d", len(sd.Base), maxPicks)
		pl.costs = append(pl.costs, 0)
		return pl
	}
	for i, p := range sd.Base {
		t := s.take(&pt, p, slices.Contains(sd.Base[:i], p))
		if t == nil {
			// A pick of Base it may not roll: no pool holding it may be
			// rolled.
			pl.err, pl.costs = s.unusable(p, sd.Char), append(pl.costs, 0)
			return pl
		}
		pl.dice = append(pl.dice, t.Die)
	}
	cost, err := s.tallied(&pt)
	if err == nil {
		err = s.canPay(sd.Char, cost)
	}
	pl.costs, pl.err = append(pl.costs, cost), err
	for j, p := range sd.Extra[:min(len(sd.Extra), maxPicks-len(sd.Base))] {
		t := s.take(&pt, p, slices.Contains(sd.Base, p) || slices.Contains(sd.Extra[:j], p))
		if t == nil {
			break
		}
		pl.dice = append(pl.dice, t.Die)
		cost := pt.cost(&s.Rules)
		if !pt.hasValue || cost > pp {
			break
		}
		pl.costs = append(pl.costs, cost)
	}
	return pl
}

// plan returns side sd's planned pool with n extras, in scratch space.
func (s *State) plan(sd *Side, n int) []Pick {
	s.buf.picks = append(append(s.buf.picks[:0], sd.Base...), sd.Extra[:n]...)
	return s.buf.picks
}

// PushNeed returns how many Final Push steps side Turn, in PhasePush,
// needs to get under the Extraordinary margin, and whether its rolled
// traits can pay for that many without winning ("Final Push").
func (e *Engine) PushNeed(s *State) (need int, ok bool, err error) {
	a, err := e.action(s, "make a Final Push", PhasePush)
	if err != nil {
		return 0, false, err
	}
	need, ok = e.pushReach(s, a.Turn, a.Margin, a.PushFloor)
	return need, ok, nil
}

// PushOptions returns the traits side Turn, in PhasePush, may lower in a
// Final Push: the distinct traits of its own it rolled, at their ratings
// now.
func (e *Engine) PushOptions(s *State) ([]PushOption, error) {
	a, err := e.action(s, "make a Final Push", PhasePush)
	if err != nil {
		return nil, err
	}
	return pushOpts(s, &a.Sides[a.Turn], nil), nil
}

// pushReach is how many Final Push steps side t, losing by m with floor
// floor, needs to get under the Extraordinary margin, and whether its
// rolled traits can pay for them without the push winning.
func (e *Engine) pushReach(s *State, t, m, floor int) (need int, ok bool) {
	x, b := s.Rules.Extraordinary, s.Rules.PushBonus
	if m < x {
		return 0, false
	}
	need = (m-x)/b + 1
	sd := &s.Action.Sides[t]
	if m-need*b < floor || sd.Char == TroublePool {
		return need, false
	}
	return need, pushSteps(s, sd) >= need
}

// pushSteps is how many Final Push steps the traits of its own side sd
// rolled can pay for: each one, counted once, as many times as it can be
// lowered before it is gone.
func pushSteps(s *State, sd *Side) int {
	ts := s.Characters[sd.Char].Traits
	have := 0
	for i, p := range sd.Picks {
		if p.Owner == sd.Char && ts[p.Trait].Kind.Own() && !containsPick(sd.Picks[:i], p) {
			have += stepsLeft(ts[p.Trait].Die)
		}
	}
	return have
}

// pushOpts appends to dst the distinct traits of its own side sd rolled,
// at their ratings now.
func pushOpts(s *State, sd *Side, dst []PushOption) []PushOption {
	ts := s.Characters[sd.Char].Traits
outer:
	for _, p := range sd.Picks {
		if p.Owner != sd.Char || !ts[p.Trait].Kind.Own() {
			continue
		}
		for _, o := range dst {
			if o.Trait == p.Trait {
				continue outer
			}
		}
		dst = append(dst, PushOption{Trait: p.Trait, Kind: ts[p.Trait].Kind, Die: ts[p.Trait].Die})
	}
	return dst
}

// CanWaive reports whether the harm waiting, in PhaseInflict, is the
// Complication of a failed basic action, which the GM may waive.
func (e *Engine) CanWaive(s *State) bool {
	a := s.Action
	if a == nil || a.Phase != PhaseInflict || len(a.Harms) == 0 || a.Kind != Basic {
		return false
	}
	h := a.Harms[0]
	return h.From == 0 && h.To != TroublePool && h.To == a.Sides[1].Char && !h.Trauma && h.Fixed == dice.Gone
}

// turnView fills v with what side t sees before rolling or Giving In:
// the stakes, its points, and the best totals its planned pool (with its
// gang and any aid waiting) could make, without and with the extras it
// can afford.
func (e *Engine) turnView(s *State, t int, v *View) {
	a := s.Action
	sd := &a.Sides[t]
	*v = View{}
	v.Kind, v.Side, v.Char, v.Target = a.Kind, t, sd.Char, -1
	v.Stakes, v.Holder, v.Rolled, v.State = a.Stakes, a.Holder, sd.Rolled, s
	if sd.Char == TroublePool {
		return
	}
	v.PlotPoints = s.Characters[sd.Char].PlotPoints
	pl := s.planPool(sd)
	v.Affordable = len(pl.costs) - 1
	if sd.Rolled {
		v.Price = s.Rules.GiveInPlotPoints
	}
	// The highest total a pool could make is the sum of its Keep largest
	// sizes.
	best := largestSizes{keep: min(max(s.Rules.Keep, 0), len(largestSizes{}.top))}
	nb := min(len(sd.Base), len(pl.dice))
	best.add(pl.dice[:nb]...)
	best.add(sd.Gang...)
	v.Best = sd.Aid + best.sum()
	best.add(pl.dice[nb : nb+v.Affordable]...)
	v.BestAll = sd.Aid + best.sum()
}

// largestSizes keeps the keep largest die sizes it has been given,
// largest first.
type largestSizes struct {
	top  [10]int // Rules.Keep is at most 10
	keep int
}

// add takes in sizes ds.
func (l *largestSizes) add(ds ...dice.Die) {
	for _, d := range ds {
		// x goes in above every kept size smaller than it, the smallest
		// kept size moving down a place (out, from the last place).
		x := int(d)
		for i := l.keep - 1; i >= 0 && x > l.top[i]; i-- {
			if i+1 < l.keep {
				l.top[i+1] = l.top[i]
			}
			l.top[i] = x
		}
	}
}

// sum is the sum of the sizes kept.
func (l *largestSizes) sum() int {
	n := 0
	for _, x := range l.top[:l.keep] {
		n += x
	}
	return n
}

// OnesToBuy returns how many 1s the GM may buy now (BuyOnes accepts 0
// up to it): the 1s of the last roll on offer, at most as many as the
// Trouble Pool has room for.
func (e *Engine) OnesToBuy(s *State) (int, error) {
	left, _, _, err := e.onesOnOffer(s)
	if err != nil || left == nil {
		return 0, err
	}
	return min(*left, s.troubleRoom()), nil
}
