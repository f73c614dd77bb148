package contest

import "slices"

// sidePlan is what cannot change about a side's planned pool while an
// action runs, worked out once when it begins (Engine.prepare) instead of
// at every roll: which pools Base + Extra[:n] pass every check of cost
// except "no trait is gone" (the traits exist, their kinds may be rolled
// by the side, a Value is among them, at most 50 picks), and what each
// costs. Only the ratings can change during an action (Final Push,
// Complications landing, a tool stepping a trait), so a roll of the plan
// re-reads just the dice and checks none is gone.
type sidePlan struct {
	// picks is Base then Extra as they were when the plan was made, so a
	// side whose plan a tool has since edited is noticed.
	picks []Pick
	base  int
	char  int
	// cost[n] is the Plot Points Base + Extra[:n] costs, for every n whose
	// picks all name a trait; the pool passes the checks for lo <= n <= hi
	// (none when hi < lo).
	cost   []int
	lo, hi int
	// free is base when Base alone passed the checks, costs nothing and
	// is 1..fastDice picks of a character's side, so that Roll may take
	// rollBasic for it; -1 otherwise.
	free int
}

// valid reports whether Base + Extra[:n] passed the checks.
func (pl *sidePlan) valid(n int) bool { return pl.lo <= n && n <= pl.hi }

// fill works out the plan of side sd (character c) in scene s.
func (pl *sidePlan) fill(s *Scene, r *Rules, sd *Side) {
	pl.check(s, r, sd)
	pl.free = -1
	if pl.char != TroublePool && pl.valid(0) && pl.cost[0] == 0 && pl.base >= 1 && pl.base <= fastDice {
		pl.free = pl.base
	}
}

// check is fill but for free.
func (pl *sidePlan) check(s *Scene, r *Rules, sd *Side) {
	pl.picks = append(append(pl.picks[:0], sd.Base...), sd.Extra...)
	pl.base, pl.char = len(sd.Base), sd.Char
	pl.cost = pl.cost[:0]
	pl.lo, pl.hi = 0, -1
	c := sd.Char
	if c == TroublePool {
		return
	}
	ok, value, spent, distinct := true, false, 0, 0
	seen := pickSet{c: c}
	for k := 0; ; k++ {
		if k >= pl.base {
			n := k - pl.base
			pl.cost = append(pl.cost, spent)
			if ok && value && k <= 50 {
				if pl.hi < pl.lo {
					pl.lo = n
				}
				pl.hi = n
			}
		}
		if k == len(pl.picks) {
			return
		}
		p := pl.picks[k]
		t := s.traitPtr(p)
		if t == nil {
			return // no pool with this pick is valid, nor priced
		}
		kok, kv := kindOK(p, c, t)
		ok, value = ok && kok, value || kv
		if dup, known := seen.add(p); dup || !known && slices.Contains(pl.picks[:k], p) {
			spent += r.ReuseCost
		} else if distinct++; distinct > r.FreeTraits {
			spent += r.ExtraDieCost
		}
	}
}

// prepare works out the plans of s's action's sides.
func (e *Engine) prepare(s *Scene) {
	a := s.Action
	n := len(a.Sides)
	if cap(e.plans) < n {
		e.plans = append(e.plans[:cap(e.plans)], make([]sidePlan, n-cap(e.plans))...)
	}
	e.plans = e.plans[:n]
	for i := range a.Sides {
		e.plans[i].fill(s, &e.Rules, &a.Sides[i])
	}
	e.planFor, e.planAct = s, a
}

// planOf returns side t's plan, working it out again if it is not that of
// s's action as it stands (another scene or action, or a side another
// Begin or a tool has changed since).
func (e *Engine) planOf(s *Scene, t int) *sidePlan {
	a := s.Action
	if e.planFor != s || e.planAct != a || len(e.plans) != len(a.Sides) {
		e.prepare(s)
	}
	pl := &e.plans[t]
	sd := &a.Sides[t]
	if sd.Char != pl.char || len(sd.Base) != pl.base || len(sd.Extra) != len(pl.picks)-pl.base ||
		!slices.Equal(sd.Base, pl.picks[:pl.base]) || !slices.Equal(sd.Extra, pl.picks[pl.base:]) {
		pl.fill(s, &e.Rules, sd)
	}
	return pl
}
