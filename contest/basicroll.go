package contest

import (
	"errors"
	"fmt"

	"github.com/stakesrpg/stakes/dice"
)

// BasicResult is what Engine.BasicRoll reports of a basic action rolled
// between two bare pools. BasicRoll keeps the storage of the two face
// slices from call to call, so a caller that passes the same BasicResult
// each time allocates nothing once the slices are big enough.
type BasicResult struct {
	// StakesFaces and Faces are the opposition's and the actor's faces, in
	// the order of their pools.
	StakesFaces []int `json:"stakes_faces"`
	Faces       []int `json:"faces"`
	// Stakes and Total are the two rolls read as the rules read them (the
	// Keep highest, 1s left out).
	Stakes int `json:"stakes"`
	Total  int `json:"total"`
	// Margin is Total less Stakes: above 0 when the actor wins. A tie
	// (Margin 0) is a loss, as the actor must beat the stakes.
	Margin int `json:"margin"`
	// Won reports whether the actor beat the stakes.
	Won bool `json:"won"`
	// Extraordinary reports that the winner won by Rules.Extraordinary or
	// more: the losing character is Knocked Out and takes Trauma, unless
	// it makes a Final Push (a step of Engine's scene actions).
	Extraordinary bool `json:"extraordinary"`
	// Ones counts the 1s the actor rolled, opportunities the GM may buy
	// when the actor is a player character.
	Ones int `json:"ones"`
}

// errNoActorDice is BasicRoll's answer to an empty actor's pool.
var errNoActorDice = errors.New("contest: the actor's pool is empty: a pool always holds one of the roller's Values")

// BasicRoll rolls a basic action between two pools of trait dice with no
// scene behind it: the opposition rolls stakes first (an empty stakes pool,
// such as an emptied Trouble Pool, sets stakes of 0), then the actor rolls
// pool and must beat them ("Basic Actions"). It is the resolution alone,
// for a caller that keeps its own characters, such as a chat bot rolling
// "d10 d8 d6 against d8 d6 d10": Plot Points, aid, the Final Push and the
// Complication the loser takes are steps of a Scene's action (Begin, Roll,
// Push, Inflict), which rolls the same faces from the same Roller state.
//
// Each die must be on the ladder d4..d12; an empty pool or a die off the
// ladder is an error, and then nothing is drawn and out is left as it was.
func (e *Engine) BasicRoll(r *dice.Roller, stakes, pool []dice.Die, out *BasicResult) error {
	if r == nil || out == nil || len(pool) == 0 {
		return basicRollErr(r, out, stakes, pool)
	}
	ks, oks := ladderKey(stakes)
	ka, oka := ladderKey(pool)
	if !oks || !oka {
		return basicRollErr(r, out, stakes, pool)
	}
	// The usual case in a straight line: two pools of up to four dice
	// whose tables the Engine has built (the second time it rolls each),
	// faces with room, the shipped reading. The rest goes through
	// rollRead, the same draw and faces the longer way.
	ls, la := e.tabs.slot[slotOf(ks)], e.tabs.slot[slotOf(ka)]
	if ls == nil || la == nil || ls.key != ks || la.key != ka || ls.nch|la.nch != 1 ||
		cap(out.StakesFaces) < len(stakes) || cap(out.Faces) < len(pool) ||
		e.Rules.Keep != 2 || !e.Rules.ExcludeOnes || r.Remaining() != 0 {
		e.basicRollAny(r, stakes, pool, out)
		return nil
	}
	es := ls.ch[0].tab[r.IntN(ls.prod)]
	ea := la.ch[0].tab[r.IntN(la.prod)]
	out.StakesFaces, out.Faces = out.StakesFaces[:len(stakes)], out.Faces[:len(pool)]
	unpack(es, out.StakesFaces)
	unpack(ea, out.Faces)
	out.settle(entTotal(es), entTotal(ea), entOnesOf(ea), e.Rules.Extraordinary)
	return nil
}

// basicRollAny is BasicRoll the general way, once the pools are checked.
func (e *Engine) basicRollAny(r *dice.Roller, stakes, pool []dice.Die, out *BasicResult) {
	var st, total, ones int
	out.StakesFaces, st, _ = e.rollRead(r, stakes, out.StakesFaces)
	out.Faces, total, ones = e.rollRead(r, pool, out.Faces)
	out.settle(st, total, ones, e.Rules.Extraordinary)
}

// settle fills in the result of stakes st against total (with ones 1s)
// under the Extraordinary margin xo.
func (out *BasicResult) settle(st, total, ones, xo int) {
	d := total - st
	out.Stakes, out.Total, out.Margin, out.Ones = st, total, d, ones
	out.Won = d > 0
	out.Extraordinary = absMargin(d) >= xo
}

// ladderKey is poolKey for a pool whose dice must be on the ladder
// d4..d12: ok is false when one is not. The key of more than 16 dice
// wraps, which only the tables read, and they never cover such a pool.
func ladderKey(ds []dice.Die) (key uint64, ok bool) {
	// Each size less 4 is one of 0, 2, 4, 6, 8: at most 8 and even.
	top, odd := uint(0), uint(0)
	for _, d := range ds {
		x := uint(d) - 4
		top, odd = max(top, x), odd|x
		key = key<<4 | uint64(d-1)
	}
	return key, top <= 8 && odd&1 == 0
}

// basicRollErr is BasicRoll's error for its arguments, which it has found
// wanting.
func basicRollErr(r *dice.Roller, out *BasicResult, stakes, pool []dice.Die) error {
	switch {
	case r == nil:
		return errors.New("contest: BasicRoll needs a Roller")
	case out == nil:
		return errors.New("contest: BasicRoll needs a BasicResult to fill")
	case len(pool) == 0:
		return errNoActorDice
	}
	if err := checkLadder("stakes", stakes); err != nil {
		return err
	}
	return checkLadder("actor's", pool)
}

// checkLadder returns an error naming the pool (whose) unless every die in
// ds is d4..d12.
func checkLadder(whose string, ds []dice.Die) error {
	for i, d := range ds {
		if err := d.CheckLadder(); err != nil {
			return fmt.Errorf("contest: the %s pool, die %d: %w", whose, i+1, err)
		}
	}
	return nil
}
