package contest

import "github.com/stakesrpg/stakes/dice"

// rollBasic is Roll (which is only a call to it). It takes the usual
// step of a basic action with no Sink itself: side Turn, a character,
// rolls exactly its planned base pool (plan free: checked when the action
// began, costing nothing) of one table chunk and no gang, not having
// rolled yet. It does in one function what
// rollPlanned, rolled, opened, answer, lose, settle and afterLoss do one
// after the other, and leaves the same scene after the same draw
// (TestRollBasicAsGeneral plays the two ways against each other).
// Anything else, and a pick that no longer names a trait to roll, it
// hands to rollAny, the general way, having changed nothing and drawn
// nothing.
func (e *Engine) rollBasic(s *Scene, r *dice.Roller, picks []Pick) error {
	a := s.Action
	if a == nil || e.planAct != a || e.planFor != s || e.Sink != nil || e.general {
		return e.rollAny(s, r, picks)
	}
	t := a.Turn
	// PhaseOpen and PhaseTurn are next to each other: one compare.
	if a.Phase-PhaseOpen > PhaseTurn-PhaseOpen || len(a.Sides) != 2 || uint(t) >= 2 || uint(t) >= uint(len(e.plans)) || a.AllRoll || a.Kind != Basic {
		return e.rollAny(s, r, picks)
	}
	sd, pl := &a.Sides[t], &e.plans[t]
	n := len(picks)
	// The side's roll buffers are empty (it has not rolled in this
	// action), so readFree may write past their ends before it knows the
	// roll goes ahead.
	if n != pl.free || pl.char != sd.Char || len(sd.Gang)|len(sd.Picks)|len(sd.Dice)|len(sd.Faces) != 0 ||
		cap(sd.Picks) < n || cap(sd.Dice) < n || cap(sd.Faces) < n ||
		e.Rules.Keep != 2 || !e.Rules.ExcludeOnes || r.Remaining() != 0 {
		return e.rollAny(s, r, picks)
	}
	chars := s.Characters
	if uint(sd.Char) >= uint(len(chars)) {
		return e.rollAny(s, r, picks)
	}
	ch := &chars[sd.Char]
	if len(pl.picks) < n {
		return e.rollAny(s, r, picks)
	}
	var key uint64
	var ok bool
	if n == 3 {
		// The usual pool, written out: readFree's reading of it.
		plan, dp, dd := pl.picks[:3], sd.Picks[:3], sd.Dice[:3]
		p0, p1, p2 := picks[0], picks[1], picks[2]
		d0, ok0 := pickDie(chars, p0, plan[0])
		d1, ok1 := pickDie(chars, p1, plan[1])
		d2, ok2 := pickDie(chars, p2, plan[2])
		if ok = ok0 && ok1 && ok2; ok {
			dp[0], dp[1], dp[2] = p0, p1, p2
			dd[0], dd[1], dd[2] = d0, d1, d2
			key = uint64(d0-1)<<8 | uint64(d1-1)<<4 | uint64(d2-1)
		}
	} else {
		key, ok = readFree(s, picks, pl, sd)
	}
	l := e.tabs.slot[slotOf(key)]
	if !ok || l == nil || l.key != key || l.nch != 1 {
		return e.rollAny(s, r, picks)
	}
	// The roll: the faces of one table entry.
	sd.Picks, sd.Dice, sd.Faces = sd.Picks[:n], sd.Dice[:n], sd.Faces[:n]
	ent := l.ch[0].tab[r.IntN(l.prod)]
	if f := sd.Faces; len(f) == 3 {
		f[0], f[1], f[2] = int(ent&15)+1, int(ent>>4&15)+1, int(ent>>8&15)+1
	} else {
		unpack(ent, f)
	}
	total := entTotal(ent) + sd.Aid
	e.basicRolls++
	// rolled
	sd.Total, sd.Aid, sd.Rolled = total, 0, true
	a.Rolls++
	a.Ones = 0
	if !ch.GM {
		a.Ones, a.OnesSide = entOnesOf(ent), t
	}
	o := 1 - t // the other side
	if a.Phase == PhaseOpen {
		// opened: this side holds the stakes; the turn passes on.
		a.Holder, a.Stakes, a.Phase, a.Escalated = t, total, PhaseTurn, true
		if a.Sides[o].Out {
			o = t
		}
		a.Turn = o
		return nil
	}
	// answer: beating the stakes, the actor wins and the holder loses;
	// else the actor loses.
	// Which side loses, and by how much, is down to the dice: worked out
	// without a branch, which the processor could not foresee.
	d := total - a.Stakes
	lost := (d - 1) >> 63 // -1 when the actor fails to beat the stakes, else 0
	m := absMargin(d)
	loser, floor := a.Holder^(a.Holder^t)&lost, 1+lost
	a.Escalated = a.Escalated && lost == 0
	if uint(loser) >= 2 {
		e.lose(s, r, loser, m, floor) // a holder a tool has set out of the action
		return nil
	}
	ld := &a.Sides[loser]
	if ld.Char == TroublePool || len(ld.Aiders) != 0 || uint(ld.Char) >= uint(len(chars)) {
		e.lose(s, r, loser, m, floor)
		return nil
	}
	xo := m >= e.Rules.Extraordinary
	if xo && m-e.Rules.PushBonus >= floor && s.canPush(a, loser) {
		a.Phase, a.Turn, a.Margin, a.PushFloor = PhasePush, loser, m, floor
		return nil
	}
	// settle and afterLoss.
	w := a.Holder
	if w == loser {
		w = 1
	}
	ld.Out = true
	a.Harms = append(a.Harms, Harm{From: w, To: ld.Char, Trauma: xo})
	chars[ld.Char].Reflection += e.Rules.ReflectionOnLoss
	if !a.Sides[1-loser].Out {
		a.Winner = 1 - loser
	}
	// EndExtraordinary follows EndBeaten: no branch on the dice.
	a.End = EndBeaten + End(b2u8(xo))
	a.Phase = PhaseInflict
	return nil
}

// readFree is rollBasic's reading of picks: each must be the first
// len(picks) of plan pl's picks and name a character's trait of a size
// the tables cover (not Gone). It writes the picks into sd.Picks and
// their ratings into sd.Dice, past their ends (as long as picks: the
// caller has made sure they have room), and returns the ratings' key for
// the tables as poolKey packs it. A small function of few arguments, so
// that its loop keeps every value in a register.
func readFree(s *Scene, picks []Pick, pl *sidePlan, sd *Side) (key uint64, ok bool) {
	n := len(picks)
	plan, dp, dd, chars := pl.picks[:n], sd.Picks[:n], sd.Dice[:n], s.Characters
	for i, p := range picks {
		if p != plan[i] || uint(p.Owner) >= uint(len(chars)) {
			return 0, false
		}
		ts := chars[p.Owner].Traits
		if uint(p.Trait) >= uint(len(ts)) {
			return 0, false
		}
		d := ts[p.Trait].Die
		if uint(d-2) > 14 {
			return 0, false
		}
		dp[i], dd[i] = p, d
		key = key<<4 | uint64(d-1)
	}
	return key, true
}

// pickDie is readFree's reading of one pick p that must be q: its rating,
// and whether it names a character's trait of a size the tables cover.
func pickDie(chars []Character, p, q Pick) (dice.Die, bool) {
	if p != q || uint(p.Owner) >= uint(len(chars)) {
		return 0, false
	}
	ts := chars[p.Owner].Traits
	if uint(p.Trait) >= uint(len(ts)) {
		return 0, false
	}
	d := ts[p.Trait].Die
	return d, uint(d-2) <= 14
}

// b2u8 is 1 for true and 0 for false, without a branch.
func b2u8(b bool) uint8 {
	var u uint8
	if b {
		u = 1
	}
	return u
}
