package actiontest

import (
	"math/bits"
	"sync"

	"github.com/stakesrpg/stakes/dice"
)

// drawLimit bounds sides^n for a pool taken from one 64-bit draw, as the
// dice package bounds its batches: the draw is then rejected with
// probability below sides^n/2^64 <= 1/256.
const drawLimit = 1 << 56

// maxDraw is the most dice one draw may hold: 3^35 <= 2^56 < 3^36.
const maxDraw = 35

// quad is how many dice one table entry reads.
const quad = 4

// maxQuadSides is the largest die a quad table serves (7^4 = 2401 runs,
// within quadCells).
const maxQuadSides = 7

// draws is what rolling a pool of the rules' dice from one 64-bit draw
// needs, worked out once per character.
type draws struct {
	// most is the largest pool one draw holds (0: never; see setDraws).
	most int
	// pow[n] is sides^n; rej[n] is 2^64 mod sides^n, the bound under which
	// Lemire's method rejects a draw's low product for the range
	// [0, sides^n).
	pow, rej [64]uint64
	// quads is the shared table of every run of four dice (see
	// quadTable).
	quads *quadTab
}

// setDraws fills d for dice of the given sides where faces of at least
// success succeed. Dice of more than maxQuadSides sides and dice whose
// size is a power of two roll through the dice package alone.
func (d *draws) setDraws(sides, success int) {
	*d = draws{}
	if sides < 3 || sides > maxQuadSides || sides&(sides-1) == 0 {
		// A power of two divides 2^64: no draw would ever be rejected, so
		// a draw of 0 (what a scripted roller gives) could not be told
		// apart.
		return
	}
	p := uint64(1)
	for d.most < maxDraw && p <= drawLimit/uint64(sides) {
		p *= uint64(sides)
		d.most++
		d.pow[d.most] = p
		d.rej[d.most] = -p % p
	}
	d.quads = quadTable(sides, success)
}

// quadCells is the room of a quad table: a power of two at least
// maxQuadSides^4, so that an index masked with quadCells-1 needs no bounds
// check (every index used is below sides^4 already). A table takes 160 KB,
// of which a d6's runs use 52 KB; there is one for each die and success
// face in use, shared by every character.
const quadCells = 4096

// quadRun is a run of four faces, as ints to be copied whole, and its
// successes: byte m of k counts them among the first m faces (1 <= m <=
// 4), and bit j of byte 0 says whether face j succeeds.
type quadRun struct {
	faces [quad]int
	k     uint64
}

// quadTab is a quad table.
type quadTab [quadCells]quadRun

// quadTables holds one table per (sides, success face), built once and
// then only read.
var (
	quadMu     sync.Mutex
	quadTables = map[[2]int]*quadTab{}
)

// quadTable returns the table for four dice of the given sides: entry v
// (v < sides^4) holds the faces for the base-sides digits of v, most
// significant first (face = digit+1), and their successes.
func quadTable(sides, success int) *quadTab {
	quadMu.Lock()
	defer quadMu.Unlock()
	key := [2]int{sides, success}
	if t, ok := quadTables[key]; ok {
		return t
	}
	t := new(quadTab)
	for v := range sides * sides * sides * sides {
		q, w := &t[v], v
		for j := quad - 1; j >= 0; j-- {
			q.faces[j] = w%sides + 1
			w /= sides
		}
		k := 0
		for j, f := range q.faces {
			if f >= success {
				k++
				q.k |= 1 << j
			}
			q.k |= uint64(k) << (8 * (j + 1))
		}
	}
	quadTables[key] = t
	return t
}

// rollCount rolls n dice into out[:n] and counts the successes, as
// Roller.RollCount does; but a pool of at most d.most dice, when out has
// room for it, comes from one fresh 64-bit draw x. Its faces less one are
// the base-sides digits of floor(x*sides^n/2^64), most significant first,
// exactly uniform when Lemire's method accepts x for sides^n (see read).
// A rejected draw is not drawn again: the pool comes from RollCount
// instead, an independent uniform roll, so the result stays exact. A
// scripted roller's Uint64 is 0, which is always rejected (sides^n is not
// a power of two, so 2^64 mod sides^n is not 0), so scripted faces still
// arrive die by die through RollCount.
func (c *Character) rollCount(r *dice.Roller, n int, out []int) ([]int, int) {
	d := &c.draws
	if uint(n-1) < uint(d.most) && n <= cap(out) {
		x := r.Uint64()
		if _, lo := bits.Mul64(x, d.pow[n&63]); lo >= d.rej[n&63] {
			if n <= quad && cap(out) >= quad {
				// read for one run of four, written out.
				h, _ := bits.Mul64(x, d.pow[quad])
				q := &d.quads[h&(quadCells-1)]
				*(*[quad]int)(out[:quad]) = q.faces
				if n == quad {
					// A branch, not a shift by n: the count then waits
					// on the draw alone, not on the pool (which waits
					// on the dice carried from the last test).
					return out[:quad], q.all()
				}
				return out[:n], q.succ(n)
			}
			return d.read(x, n, out)
		}
	}
	return r.RollCount(n, c.sides, c.successFace, out[:0])
}

// rerollCount is rollCount for a push's re-roll, whose size varies from
// push to push: it takes no branch on the size below eight dice. A pool
// that read takes as eight dice has its draw accepted for eight, which
// leaves the first n digits exactly uniform too, and spares a product
// (see Push).
func (c *Character) rerollCount(r *dice.Roller, n int, out []int) ([]int, int) {
	d := &c.draws
	if uint(n-1) < uint(d.most) && n <= cap(out) {
		x := r.Uint64()
		k := n
		if n <= 2*quad && cap(out) >= 2*quad {
			k = 2 * quad // d.most >= 8 whenever it is not 0
		}
		if _, lo := bits.Mul64(x, d.pow[k&63]); lo >= d.rej[k&63] {
			return d.read(x, n, out)
		}
	}
	return r.RollCount(n, c.sides, c.successFace, out[:0])
}

// read writes the n faces of an accepted draw x into out[:n] (n <= cap)
// and counts the successes. The digits are read four at a time from the
// table: the top word of the draw times sides^4 is the next four digits,
// its low word what is left of the draw. A pool of up to eight dice reads
// eight digits, whatever n is, so that the work does not depend on the
// roll (a push re-rolls a varying number of dice, and a loop that stops
// at a varying point costs a mispredicted branch); the digits past n are
// written to out's spare room and never used.
func (d *draws) read(x uint64, n int, out []int) ([]int, int) {
	t, p4 := d.quads, d.pow[quad]
	if n <= 2*quad && cap(out) >= 2*quad {
		h, y := bits.Mul64(x, p4)
		g, _ := bits.Mul64(y, p4)
		q, u := &t[h&(quadCells-1)], &t[g&(quadCells-1)]
		o := (*[2 * quad]int)(out[:2*quad])
		*(*[quad]int)(o[:quad]) = q.faces
		*(*[quad]int)(o[quad:]) = u.faces
		return out[:n], succ8(q, u, n)
	}
	out = out[:n]
	k, i := 0, 0
	for ; i+quad <= n; i += quad {
		var h uint64
		h, x = bits.Mul64(x, p4)
		q := &t[h&(quadCells-1)]
		*(*[quad]int)(out[i:]) = q.faces
		k += q.all()
	}
	if m := n - i; m > 0 {
		// The first m digits of the next four are the last dice.
		h, _ := bits.Mul64(x, p4)
		q := &t[h&(quadCells-1)]
		copy(out[i:], q.faces[:m])
		k += q.succ(m)
	}
	return out, k
}

// succ8 is the successes among the first n (1..8) faces of run q followed
// by run u: the two runs' success bits side by side, the last 8-n shifted
// out, counted. It takes no branch and no shift on n's run boundary.
func succ8(q, u *quadRun, n int) int {
	b := uint8(q.k) | uint8(u.k)<<quad
	return bits.OnesCount8(b << (uint(-n) & 7))
}

// succ is the successes among the run's first m (1..4) faces.
func (q *quadRun) succ(m int) int {
	return int(q.k >> (8 * uint(m) & 63) & 0xff)
}

// all is the successes among the run's four faces.
func (q *quadRun) all() int {
	return int(q.k >> (8 * quad))
}
