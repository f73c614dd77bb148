package dice

import (
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"
)

// Source is the random seam: anything with a Uint64 method returning uniformly
// distributed 64-bit values. It is math/rand/v2's Source, so rand.PCG,
// rand.ChaCha8 and golang.org/x/exp/rand sources all plug in unchanged.
type Source = rand.Source

// batchLimit bounds the product of die sizes taken from one 64-bit draw.
// A batch of dice whose sizes multiply to p is exactly Lemire's nearly
// divisionless method on the range [0, p), so it is rejected and redrawn with
// probability (2^64 mod p)/2^64 < p/2^64; keeping p at or under 2^56 keeps that
// below 1/256 while still taking 21 d6 or 12 d20 from one draw.
const batchLimit = 1 << 56

//go:generate go test -run TestTables -update-tables

// Roller draws exact, unbiased die faces from a Source. A Roller is not safe
// for concurrent use; give each goroutine its own, as with rand.Rand. The
// zero Roller has no Source and must not roll: it exists to be restored
// into (see UnmarshalBinary).
//
// A Roller takes several dice from each 64-bit draw when it can (see
// RollDice), and keeps the unused part of the last draw for more dice of the
// size it rolled last, so single rolls and small pools of one size cost a
// fraction of a draw. Every face of every die stays exactly equally likely
// and independent of every other.
type Roller struct {
	src Source
	pcg *rand.PCG // src, when it is a PCG, for a direct call

	// word is the part of the last accepted draw not yet turned into
	// faces of wordSides: left more faces, the next being the top word of
	// word*wordSides (see batch for why these digits are exact).
	word      uint64
	left      int
	wordSides int

	// script, when non-nil, replaces the source (see Scripted).
	script *script
}

type script struct {
	faces []int
	next  int
	err   *scriptError
	sizes *[]int // when set, the size of every die asked for, in order (tests enumerate rolls with it)
}

// ErrNilSource is returned by NewRoller when it is given no Source.
var ErrNilSource = errors.New("dice: nil Source (pass a generator such as rand.NewPCG(seed1, seed2))")

// ErrNilRoller is the error every step of every rule package returns when
// it is handed a nil *Roller: a step that may roll needs the caller's
// Roller, and never rolls from one of its own.
var ErrNilRoller = errors.New("dice: nil *Roller (make one with dice.NewRoller over your generator)")

// NewRoller returns a Roller that draws from src.
func NewRoller(src Source) (*Roller, error) {
	if src == nil {
		return nil, ErrNilSource
	}
	pcg, _ := src.(*rand.PCG)
	return &Roller{src: src, pcg: pcg}, nil
}

// NewSeeded returns a Roller over a math/rand/v2 PCG seeded with seed. It is a
// convenience for examples and tools; the same seed always gives the same rolls.
// Its Roller saves and restores like any Roller over a PCG (see MarshalBinary).
func NewSeeded(seed uint64) *Roller {
	pcg := rand.NewPCG(seed, 0x5eed_d1ce_5eed_d1ce)
	return &Roller{src: pcg, pcg: pcg}
}

// Scripted returns a Roller that yields faces in order instead of drawing
// random ones: every die rolled, by any method, takes the next face. It is
// for worked examples, tests, and tools where people roll physical dice and
// type the results in.
//
// A scripted Roller never panics: a face that is impossible for the die
// asked for (below 1 or above its sides) is clamped into range, and once the
// script runs out every die shows 1; both are recorded, and Err reports the
// first such problem.
func Scripted(faces ...int) *Roller {
	return &Roller{script: &script{faces: append([]int(nil), faces...)}}
}

// Err reports the first problem a scripted Roller met (an impossible face or
// an exhausted script). It is always nil for a Roller over a Source.
func (r *Roller) Err() error {
	if r.script == nil || r.script.err == nil {
		return nil
	}
	return r.script.err
}

// Remaining reports how many scripted faces are still unused (0 for a Roller
// over a Source).
func (r *Roller) Remaining() int {
	if r.script == nil {
		return 0
	}
	return len(r.script.faces) - r.script.next
}

// scriptError is the first problem a scripted Roller met, kept as data so
// that a saved Roller restores it.
type scriptError struct {
	ranOut bool // the script ran out after number faces
	// face, the number-th of the script (from 1), was impossible on a d(sides).
	face, number, sides int
}

func (e *scriptError) Error() string {
	if e.ranOut {
		return fmt.Sprintf("dice: scripted roller ran out after %d faces", e.number)
	}
	return fmt.Sprintf("dice: scripted face %d (number %d) is impossible on a d%d", e.face, e.number, e.sides)
}

func (s *script) take(sides int) int {
	if s.sizes != nil {
		*s.sizes = append(*s.sizes, sides)
	}
	if s.next >= len(s.faces) {
		if s.err == nil {
			s.err = &scriptError{ranOut: true, number: len(s.faces)}
		}
		return 1
	}
	f := s.faces[s.next]
	s.next++
	if f < 1 || f > sides {
		if s.err == nil {
			s.err = &scriptError{face: f, number: s.next, sides: sides}
		}
		f = min(max(f, 1), sides)
	}
	return f
}

// Uint64 returns a uniformly distributed 64-bit value from the Source (0 for
// a scripted Roller).
func (r *Roller) Uint64() uint64 {
	if r.script != nil {
		return 0
	}
	return r.next()
}

// uint64n is the Roller's one bounded draw: every face, every IntN and
// every batch of dice comes from it. It returns a word x from the Source
// accepted for the range [0, n), n >= 1, and v = floor(x*n / 2^64), which
// is then exactly uniform on [0, n).
//
// This is Lemire's nearly divisionless method ("Fast Random Integer
// Generation in an Interval", 2019), as math/rand/v2's uint64n. The 2^64
// words x map onto [0, n) by v = floor(x*n / 2^64); the words giving one v
// are those whose product x*n falls in [v*2^64, (v+1)*2^64), and counted
// by the low word of that product they are the residues l = x*n mod 2^64
// in steps of n, so each v has floor(2^64/n) or one more of them. Rejecting
// the words whose low product is below t = 2^64 mod n takes exactly one
// word from each v that has the extra one, leaving floor(2^64/n) words a
// value: every v equally likely. Since t < n, a low product of n or more
// is accepted without working t out, so the division (t is -n % n in
// 64-bit arithmetic) is paid only on the rare draw whose low product is
// below n, a chance of n/2^64.
//
// The accepted x serves callers that take several faces from one draw:
// for n the product of the dice sizes s_1 s_2 ... s_k, v is uniform on
// [0, n), so its mixed-radix digits (the faces less one) are independent
// and uniform, and digit i is the top word of (x s_1 ... s_i mod 2^64)
// times s_(i+1) (see chain and digits), one multiply a die.
func (r *Roller) uint64n(n uint64) (x, v uint64) {
	// The Source is called here rather than through next, so that a
	// PCG's step is inlined into the draw.
	if r.pcg != nil {
		x = r.pcg.Uint64()
	} else {
		x = r.src.Uint64()
	}
	v, lo := bits.Mul64(x, n)
	if lo < n {
		return r.uint64nSlow(n, x, v, lo)
	}
	return x, v
}

// uint64nSlow finishes uint64n for a first word x whose low product lo
// is below n: it redraws while lo is below the threshold 2^64 mod n.
func (r *Roller) uint64nSlow(n, x, v, lo uint64) (uint64, uint64) {
	t := -n % n
	for lo < t {
		x = r.next()
		v, lo = bits.Mul64(x, n)
	}
	return x, v
}

// IntN returns a uniform value in [0, n). It returns 0 when n <= 0, rather
// than panicking as rand.IntN does. A scripted Roller treats it as a roll of
// a d(n) and returns face-1.
func (r *Roller) IntN(n int) int {
	if n <= 1 || r.script != nil {
		return r.intNSlow(n)
	}
	_, v := r.uint64n(uint64(n))
	return int(v)
}

func (r *Roller) intNSlow(n int) int {
	if n <= 1 {
		return 0
	}
	return r.script.take(n) - 1
}

// Shuffle permutes n elements uniformly (Fisher-Yates), calling swap to
// exchange elements i and j. It does nothing when n < 2.
func (r *Roller) Shuffle(n int, swap func(i, j int)) {
	for i := n - 1; i > 0; i-- {
		j := r.IntN(i + 1)
		swap(i, j)
	}
}

// Roll returns a face of a die with the given number of sides, uniform in
// 1..sides. A "die" with fewer than 2 sides is not random: Roll returns 1 and
// draws nothing (Die.Valid tells valid sizes apart).
func (r *Roller) Roll(sides int) int {
	// Fast path: the next digit of the kept draw. A scripted roller never
	// keeps one, so it always takes rollSlow.
	if r.left > 0 && sides == r.wordSides {
		r.left--
		hi, lo := bits.Mul64(r.word, uint64(sides))
		r.word = lo
		return int(hi) + 1
	}
	return r.rollSlow(sides)
}

func (r *Roller) rollSlow(sides int) int {
	if sides < 2 {
		return 1
	}
	if r.script != nil {
		return r.script.take(sides)
	}
	if sides > 256 {
		_, v := r.uint64n(uint64(sides))
		return int(v) + 1
	}
	r.refill(sides)
	r.left--
	hi, lo := bits.Mul64(r.word, uint64(sides))
	r.word = lo
	return int(hi) + 1
}

// next returns the next 64-bit word from the Source (a PCG is called as
// itself, any other Source through the interface).
func (r *Roller) next() uint64 {
	if r.pcg != nil {
		return r.pcg.Uint64()
	}
	return r.src.Uint64()
}

// refill replaces the kept draw with a fresh accepted one holding
// batchSize[sides] faces of a die with 2..256 sides. Faces not taken from
// the old draw are dropped; which are dropped depends only on how many were
// asked for, never on their values, so the rest stay exact.
func (r *Roller) refill(sides int) {
	k := batchSize[sides]
	r.word, r.left, r.wordSides = r.accepted(powers[sides][k]), k, sides
}

// accepted returns a draw accepted for the range [0, p) (see uint64n),
// whose digits give the faces of dice whose sizes multiply to p.
func (r *Roller) accepted(p uint64) uint64 {
	x, _ := r.uint64n(p)
	return x
}

// digits writes len(dst) faces of a d(s) taken from the kept draw word
// and returns what is left of it. Face i is the top word of
// (word*s^i mod 2^64)*s: the i-th mixed-radix digit, read straight from
// the i-th power of s.
func digits(word uint64, pw *[25]uint64, s uint64, dst []int) uint64 {
	pw2 := pw[:len(dst)+1]
	for i := range dst {
		hi, _ := bits.Mul64(word*pw2[i], s)
		dst[i] = int(hi) + 1
	}
	return word * pw2[len(dst)]
}

// batch fills dst (at most batchSize[sides] long) with faces of one size
// from a single accepted 64-bit word.
func (r *Roller) batch(sides int, dst []int) {
	s := uint64(sides)
	pw := powers[sides][:len(dst)+1]
	x := r.accepted(pw[len(dst)])
	// The faces are the mixed-radix digits of floor(x s^len(dst) / 2^64):
	// die i is the top word of (x s^i mod 2^64) * s. Multiplying a
	// remainder by s yields the next die in its top word and the next
	// remainder in its low word. Long batches are read as four runs of
	// digits, each started at its own power of s (digit i of the word is
	// digit 0 of x*s^i), which gives the same faces as one run.
	if n := len(dst); n < 8 {
		digits(x, &powers[sides], s, dst)
	} else {
		q := n / 4
		a, b, c, d := dst[:q], dst[q:2*q], dst[2*q:3*q], dst[3*q:]
		xa, xb, xc, xd := x, x*pw[q], x*pw[2*q], x*pw[3*q]
		b, c = b[:len(a)], c[:len(a)]
		var h uint64
		for i := range a {
			h, xa = bits.Mul64(xa, s)
			a[i] = int(h) + 1
			h, xb = bits.Mul64(xb, s)
			b[i] = int(h) + 1
			h, xc = bits.Mul64(xc, s)
			c[i] = int(h) + 1
			h, xd = bits.Mul64(xd, s)
			d[i] = int(h) + 1
		}
		for i := len(a); i < len(d); i++ {
			h, xd = bits.Mul64(xd, s)
			d[i] = int(h) + 1
		}
	}
}

// grow returns out[:0] extended by n elements, reusing its array when the
// capacity allows.
func grow(out []int, n int) []int {
	if cap(out) >= n {
		return out[:n]
	}
	return make([]int, n)
}

// RollDice rolls each die in ds and writes the faces, in the same order,
// into out[:len(ds)], returning it; given an out with enough capacity it
// allocates nothing. Dice with fewer than 2 sides show 1.
//
// Mixed sizes share draws: consecutive dice are taken from one 64-bit value
// while the product of their sizes stays within 2^56, each batch exact by the
// same argument as a single die.
func (r *Roller) RollDice(ds []Die, out []int) []int {
	out = grow(out, len(ds))
	if len(ds) <= 7 && r.script == nil {
		// The common case: a small pool of dice of 2..129 sides, whose
		// sizes multiply to less than 2^50, all from one draw.
		c := uint64(1)
		var all uint // every size less two, or-ed; sizes below 2 wrap round to huge
		for _, d := range ds {
			all |= uint(d - 2)
			c *= uint64(d)
		}
		if all < 128 {
			chain(r.accepted(c), ds, out)
			return out
		}
	}
	return r.rollDiceSlow(ds, out)
}

// chain writes the faces of ds from x, a draw accepted for the product of
// their sizes: the mixed-radix digits of floor(x*product/2^64), one
// multiply a die (len(out) >= len(ds)).
func chain(x uint64, ds []Die, out []int) {
	out = out[:len(ds)]
	for i, d := range ds {
		var hi uint64
		hi, x = bits.Mul64(x, uint64(d))
		out[i] = int(hi) + 1
	}
}

// rollDiceSlow is RollDice for a scripted roller and for pools the
// common case does not take.
func (r *Roller) rollDiceSlow(ds []Die, out []int) []int {
	if r.script != nil {
		for i, d := range ds {
			if d < 2 {
				out[i] = 1
				continue
			}
			out[i] = r.script.take(int(d))
		}
		return out
	}
	return r.rollDice(ds, out)
}

// rollDice is RollDice's general loop, for a Source and an out of
// len(ds): it takes consecutive dice into one draw while the product of
// their sizes stays within batchLimit, draws once for that product, and
// reads the faces as its digits.
func (r *Roller) rollDice(ds []Die, out []int) []int {
	i := 0
	for i < len(ds) {
		c, j := uint64(1), i // c: the product of the sizes of ds[i:j]
		for ; j < len(ds); j++ {
			d := ds[j]
			if uint(d-2) > MaxSides-2 {
				// Not a valid die: below d2 shows 1, as a one-sided
				// die would; a larger one is rolled on its own below.
				if d < 2 {
					continue
				}
				break
			}
			// Sizes are below 2^20, so while c <= 2^36 the product stays
			// within the 2^56 limit without checking.
			if c > 1<<36 {
				if hi, lo := bits.Mul64(c, uint64(d)); hi != 0 || lo > batchLimit {
					break
				}
			}
			c *= uint64(d)
		}
		if j == i {
			// A die too large to share a draw.
			_, v := r.uint64n(uint64(ds[i]))
			out[i] = int(v) + 1
			i++
			continue
		}
		x := r.accepted(c)
		for ; i < j; i++ {
			if ds[i] < 2 {
				out[i] = 1
				continue
			}
			var f uint64
			f, x = bits.Mul64(x, uint64(ds[i]))
			out[i] = int(f) + 1
		}
	}
	return out
}

// RollN rolls n dice of one size into out[:n] and returns it. With enough
// capacity in out it allocates nothing.
//
// Dice come from the kept draw while it has enough faces left (21 d6, 12
// d20 a draw); otherwise from fresh draws.
func (r *Roller) RollN(n, sides int, out []int) []int {
	// Fast path. A negative n fails the unsigned compare and goes to rollN,
	// and wordSides is 2..256 whenever left > 0.
	if n <= cap(out) && sides == r.wordSides {
		if uint(n) > uint(r.left) {
			// Not enough left of the kept draw: a fresh one, when one
			// draw holds the whole roll.
			if uint(n-1) >= uint(batchSize[sides]) {
				return r.rollN(n, sides, out)
			}
			r.refill(sides)
		}
		out = out[:n]
		r.word = digits(r.word, &powers[sides], uint64(sides), out)
		r.left -= n
		return out
	}
	return r.rollN(n, sides, out)
}

// RollCount is RollN that also counts the dice showing target or more:
// the faces are those RollN would roll, written into out[:n], and the
// count is CountAtLeast of them, in one pass (a pool of d6 where sixes
// succeed, or d10s that hit on 8).
func (r *Roller) RollCount(n, sides, target int, out []int) ([]int, int) {
	if n <= cap(out) && sides == r.wordSides {
		if uint(n) > uint(r.left) {
			if uint(n-1) >= uint(batchSize[sides]) {
				out = r.rollN(n, sides, out)
				return out, CountAtLeast(out, target)
			}
			r.refill(sides)
		}
		// digits, counting: a face f is at least target when its digit
		// f-1 is at least t = target-1, that is when t-1-digit is
		// negative.
		out = out[:n]
		t1 := uint64(max(target-1, 0)) - 1
		w, s, pw := r.word, uint64(sides), powers[sides][:n+1]
		c := uint64(0)
		for i := range out {
			hi, _ := bits.Mul64(w*pw[i], s)
			out[i] = int(hi) + 1
			c += (t1 - hi) >> 63
		}
		r.word = w * pw[n]
		r.left -= n
		return out, int(c)
	}
	out = r.rollN(n, sides, out)
	return out, CountAtLeast(out, target)
}

func (r *Roller) rollN(n, sides int, out []int) []int {
	if n <= 0 {
		return out[:0]
	}
	out = grow(out, n)
	switch {
	case sides < 2:
		for i := range out {
			out[i] = 1
		}
		return out
	case r.script != nil:
		for i := range out {
			out[i] = r.script.take(sides)
		}
		return out
	case sides > 256:
		for i := range out {
			_, v := r.uint64n(uint64(sides))
			out[i] = int(v) + 1
		}
		return out
	case n <= r.left && sides == r.wordSides:
		// The fast path's case, reached with a short out.
		r.word = digits(r.word, &powers[sides], uint64(sides), out)
		r.left -= n
		return out
	}
	// Whole draws straight into out; the last few dice come from a fresh
	// kept draw, whose other faces wait for the next roll of this size.
	k := batchSize[sides]
	i := 0
	for ; n-i > k; i += k {
		r.batch(sides, out[i:i+k])
	}
	r.refill(sides)
	r.word = digits(r.word, &powers[sides], uint64(sides), out[i:])
	r.left -= n - i
	return out
}

// SumN rolls n dice of one size and returns their total without writing
// the faces anywhere: a 3d6 check or a 4d6 damage roll in one call. The
// total is that of the faces RollN would have rolled. It returns 0 for
// n <= 0; a "die" with fewer than 2 sides counts 1.
func (r *Roller) SumN(n, sides int) int {
	// Fast path: up to sumDigits[sides] dice of
	// d2..d20 from the kept draw. The top word of word*s^n is the n-digit
	// number whose base-s digits are the next n faces less one, and the
	// table holds its digit sum. (n <= 12 here, so n&15 is n.)
	if uint(sides) <= maxSumSides && uint(n) <= uint(sumDigits[sides]) && uint(n) <= uint(r.left) && sides == r.wordSides {
		hi, lo := bits.Mul64(r.word, powers[sides][n&15])
		r.word, r.left = lo, r.left-n
		return n - digitZero + int(digitSums[sides][hi])
	}
	return r.sumN(n, sides)
}

// sumKept is SumN for dice the kept draw holds, more than one table
// lookup's worth or larger than a d20.
func (r *Roller) sumKept(n, sides int) int {
	t := n
	w := r.word
	if sides <= maxSumSides {
		tab, k := digitSums[sides], sumDigits[sides]
		pw := &powers[sides]
		for left := n; left > 0; left -= k {
			m := min(left, k)
			var hi uint64
			hi, w = bits.Mul64(w, pw[m])
			t += int(tab[hi]) - digitZero
		}
	} else {
		s := uint64(sides)
		pw := powers[sides][:n+1]
		for _, q := range pw[:n] {
			hi, _ := bits.Mul64(w*q, s)
			t += int(hi)
		}
		w *= pw[n]
	}
	r.word = w
	r.left -= n
	return t
}

// maxSumSides is the largest die SumN totals by table.
const maxSumSides = 20

// sumCells bounds each digit-sum table (see tables.go):
// s^sumDigits[s] <= sumCells.
const sumCells = 4096

// digitZero is the byte of a digit sum of 0 in digitSums: digit sums
// (at most 45, three digits of a d16) are written as the bytes from it,
// '(' to 'U', printable and never a quote or a backslash.
const digitZero = '('

func (r *Roller) sumN(n, sides int) int {
	if n > 0 && n <= r.left && sides == r.wordSides {
		return r.sumKept(n, sides)
	}
	if r.script == nil && sides >= 2 && sides <= 256 && n > 0 && n <= batchSize[sides] {
		// A fresh draw holds them all, as RollN would take it.
		r.refill(sides)
		return r.SumN(n, sides)
	}
	var buf [32]int
	// Take the dice as RollN would: in whole draws, then the rest.
	k := len(buf)
	if sides >= 2 && sides <= 256 && r.script == nil {
		if n > batchSize[sides] {
			r.left = 0 // as rollN drops the kept draw for a roll this large
		}
		k = batchSize[sides]
	}
	t := 0
	for n > 0 {
		m := min(n, k)
		t += Sum(r.rollN(m, sides, buf[:m]))
		n -= m
	}
	return t
}
