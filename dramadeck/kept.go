package dramadeck

import "github.com/stakesrpg/stakes/dice"

// keptDice holds six-sided dice drawn ahead during PlayRound. A round rolls
// 3d6 a dozen times and a few damage dice; one IntN over 6^21 gives 21
// exactly uniform, independent faces (the base-6 digits of a uniform value
// in [0, 6^21)), so most rolls are a division by a constant and a table
// read instead of a call into the roller. Faces are taken lowest digit
// first; those left at the end of the round, or too few for a 3d6, are
// dropped, which depends only on how many were used, never on their values,
// so the rest stay exact.
//
// Outside PlayRound (on false) and for a scripted roller with faces left,
// every roll goes to the roller die by die as before, so a script reads
// the same either way (TestPlayRoundMatchesSteps replays a fast round's
// faces as a script). A script already used up draws faces of 1 either
// way, with the same error.
type keptDice struct {
	x  uint64 // the faces left, less one each, as base-6 digits
	n  int    // how many faces x holds
	on bool   // PlayRound is under way: a roll short of faces draws more
	// log, when non-nil (tests), receives every face taken from x and
	// every shuffle draw made while on, in order: the script that replays
	// the round die by die.
	log *[]int
}

const (
	keptFaces = 21
	keptRange = 21936950640377856 // 6^21, below 2^56: a redraw is rarer than 1 in 800
)

// sum3d6 is the total of the 3d6 whose faces less one are the base-6
// digits of the index.
var sum3d6 = func() (t [216]uint8) {
	for v := range t {
		t[v] = uint8(v%6 + v/6%6 + v/36 + 3)
	}
	return t
}()

// refill draws 21 new faces if the roller is a random one (or a script
// already used up) and a round is under way; it reports false when the
// caller must roll die by die instead.
func (k *keptDice) refill(r *dice.Roller) bool {
	if !k.on || r.Remaining() != 0 {
		return false
	}
	k.x, k.n = uint64(r.IntN(keptRange)), keptFaces
	return true
}

// roll3d6 rolls 3d6 and returns the total.
func (g *Game) roll3d6(r *dice.Roller) int {
	k := &g.kd
	if k.n < 3 && !k.refill(r) {
		return r.SumN(3, 6)
	}
	v := k.x % 216
	k.x /= 216
	k.n -= 3
	if k.log != nil {
		*k.log = append(*k.log, int(v%6)+1, int(v/6%6)+1, int(v/36)+1)
	}
	return int(sum3d6[v])
}

// sumFirst[n][v] is the total of the first n (0..2) of the two d6 whose
// faces less one are the base-6 digits of v, lowest first.
var sumFirst = func() (t [3][36]uint8) {
	for v := range 36 {
		t[1][v] = uint8(v%6 + 1)
		t[2][v] = uint8(v%6 + v/6 + 2)
	}
	return t
}()

// rollD6 rolls n six-sided dice and returns the total.
func (g *Game) rollD6(r *dice.Roller, n int) int {
	k := &g.kd
	if uint(n) <= 2 && k.n >= 2 {
		// Up to two dice (a damage roll, mostly): two faces taken and
		// the first n used, with no loop.
		v := k.x % 36
		k.x /= 36
		k.n -= 2
		if k.log != nil {
			*k.log = append(*k.log, []int{int(v%6) + 1, int(v/6) + 1}[:n]...)
		}
		return int(sumFirst[n][v])
	}
	t := 0
	for range n {
		if k.n == 0 && !k.refill(r) {
			t += r.Roll(6)
			continue
		}
		f := int(k.x%6) + 1
		k.x /= 6
		k.n--
		if k.log != nil {
			*k.log = append(*k.log, f)
		}
		t += f
	}
	return t
}
