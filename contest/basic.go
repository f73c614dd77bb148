package contest

import "github.com/stakesrpg/stakes/dice"

// rollBasic is Roll for the usual step of a basic action with no Sink:
// side Turn, a character, rolls exactly its planned base pool (plan
// free: checked when the action began, costing nothing) of one table
// chunk and no gang. It does in one function what rollPlanned, rolled,
// opened, answer, lose, settle and afterLoss do one after the other, and
// leaves the same scene after the same draw (TestRollBasicAsGeneral plays
// the two ways against each other). It reports false, having changed
// nothing and drawn nothing, for anything else, and for a pick that no
// longer names a trait to roll, so that the general way reports it.
func (e *Engine) rollBasic(s *Scene, a *Action, r *dice.Roller, picks []Pick) bool {
	t := a.Turn
	if len(a.Sides) != 2 || uint(t) >= 2 || uint(t) >= uint(len(e.plans)) || a.AllRoll || a.Kind != Basic {
		return false
	}
	sd, pl := &a.Sides[t], &e.plans[t]
	n := len(picks)
	if !pl.free || n != pl.base || pl.char != sd.Char || len(sd.Gang) != 0 ||
		cap(sd.Picks) < n || cap(sd.Dice) < n || cap(sd.Faces) < n ||
		e.Rules.Keep != 2 || !e.Rules.ExcludeOnes || r.Remaining() != 0 {
		return false
	}
	chars := s.Characters
	key, all, ok := readFree(chars, picks, pl.picks)
	if !ok {
		return false
	}
	l := e.tabs.slot[slotOf(key)]
	if l == nil || l.key != key || all > 14 || l.nch != 1 || uint(sd.Char) >= uint(len(chars)) {
		return false
	}
	// The roll: the picks, their dice (read back from the key) and the
	// faces of one table entry.
	sd.Picks, sd.Dice, sd.Faces = sd.Picks[:n], sd.Dice[:n], sd.Faces[:n]
	copyFree(sd.Picks, sd.Dice, picks, key)
	ent := l.ch[0].tab[r.IntN(l.prod)]
	unpack(ent, sd.Faces)
	total := int(ent>>entTop1&31+ent>>entTop2&31) + sd.Aid
	e.basicRolls++
	// rolled
	sd.Total, sd.Aid, sd.Rolled = total, 0, true
	a.Rolls++
	a.Ones = 0
	if !chars[sd.Char].GM {
		a.Ones, a.OnesSide = int(ent>>entOnes&7), t
	}
	o := 1 - t // the other side
	if a.Phase == PhaseOpen {
		// opened: this side holds the stakes; the turn passes on.
		a.Holder, a.Stakes, a.Phase, a.Escalated = t, total, PhaseTurn, true
		if a.Sides[o].Out {
			o = t
		}
		a.Turn = o
		return true
	}
	// answer: beating the stakes, the actor wins and the holder loses;
	// else the actor loses.
	loser, m, floor := a.Holder, total-a.Stakes, 1
	if m <= 0 {
		a.Escalated = false
		loser, m, floor = t, -m, 0
	}
	if m >= e.Rules.Extraordinary || uint(loser) >= 2 {
		// A Final Push or Trauma to weigh (or a holder a tool has set
		// out of the action): lose's way.
		e.lose(s, r, loser, m, floor)
		return true
	}
	ld := &a.Sides[loser]
	if ld.Char == TroublePool || len(ld.Aiders) != 0 || uint(ld.Char) >= uint(len(chars)) {
		e.settle(s, loser, m)
		return true
	}
	// settle, by less than the Extraordinary margin, and afterLoss.
	w := a.Holder
	if w == loser {
		w = 1
	}
	ld.Out = true
	a.Harms = append(a.Harms, Harm{From: w, To: ld.Char})
	chars[ld.Char].Reflection += e.Rules.ReflectionOnLoss
	if !a.Sides[1-loser].Out {
		a.Winner = 1 - loser
	}
	a.End = EndBeaten
	a.Phase = PhaseInflict
	return true
}

// readFree is rollBasic's reading of picks: each must be the first
// len(picks) of plan and name a character's trait. It returns their
// ratings' key for the tables as poolKey packs it (a Gone rating, or any
// size the tables do not cover, makes all above 14). A small function of
// its own, so that its loop keeps every value in a register.
func readFree(chars []Character, picks, plan []Pick) (key uint64, all uint, ok bool) {
	if len(picks) > len(plan) {
		return 0, 0, false
	}
	plan = plan[:len(picks)]
	for i, p := range picks {
		if p != plan[i] || uint(p.Owner) >= uint(len(chars)) {
			return 0, 0, false
		}
		ts := chars[p.Owner].Traits
		if uint(p.Trait) >= uint(len(ts)) {
			return 0, 0, false
		}
		d := ts[p.Trait].Die
		all |= uint(d - 2)
		key = key<<4 | uint64(d-1)
	}
	return key, all, true
}

// copyFree writes picks and their dice, read back from their key, into
// dp and dd (as long as picks).
func copyFree(dp []Pick, dd []dice.Die, picks []Pick, key uint64) {
	dp, dd = dp[:len(picks)], dd[:len(picks)]
	for i := len(picks) - 1; i >= 0; i-- {
		dp[i] = picks[i]
		dd[i] = dice.Die(key&15 + 1)
		key >>= 4
	}
}
