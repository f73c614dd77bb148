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

// Roller draws exact, unbiased die faces from a Source. A Roller is not safe
// for concurrent use; give each goroutine its own, as with rand.Rand.
//
// A Roller takes several dice from each 64-bit draw when it can (see
// RollDice) and keeps a few pre-drawn faces of the die size it rolled last, so
// single rolls of one size cost a fraction of a draw. Every face of every die
// stays exactly equally likely and independent of every other.
type Roller struct {
	src Source

	// cache holds pre-drawn faces of cacheSides, consumed from the back.
	cache      [24]uint8
	cacheN     int
	cacheSides int

	// script, when non-nil, replaces the source (see Scripted).
	script *script
}

type script struct {
	faces []int
	next  int
	err   error
}

// ErrNilSource is returned by NewRoller when it is given no Source.
var ErrNilSource = errors.New("dice: nil Source (pass a generator such as rand.NewPCG(seed1, seed2))")

// NewRoller returns a Roller that draws from src.
func NewRoller(src Source) (*Roller, error) {
	if src == nil {
		return nil, ErrNilSource
	}
	return &Roller{src: src}, nil
}

// NewSeeded returns a Roller over a math/rand/v2 PCG seeded with seed. It is a
// convenience for examples and tools; the same seed always gives the same rolls.
func NewSeeded(seed uint64) *Roller {
	return &Roller{src: rand.NewPCG(seed, 0x5eed_d1ce_5eed_d1ce)}
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
	if r.script == nil {
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

func (s *script) take(sides int) int {
	if s.next >= len(s.faces) {
		if s.err == nil {
			s.err = fmt.Errorf("dice: scripted roller ran out after %d faces", len(s.faces))
		}
		return 1
	}
	f := s.faces[s.next]
	s.next++
	if f < 1 || f > sides {
		if s.err == nil {
			s.err = fmt.Errorf("dice: scripted face %d (number %d) is impossible on a d%d", f, s.next, sides)
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
	return r.src.Uint64()
}

// below returns a uniform value in [0, n) for n >= 1, by Lemire's nearly
// divisionless method: exact, with a division only on the rare path.
func (r *Roller) below(n uint64) uint64 {
	hi, lo := bits.Mul64(r.src.Uint64(), n)
	if lo < n {
		thresh := -n % n
		for lo < thresh {
			hi, lo = bits.Mul64(r.src.Uint64(), n)
		}
	}
	return hi
}

// IntN returns a uniform value in [0, n). It returns 0 when n <= 0, rather
// than panicking as rand.IntN does. A scripted Roller treats it as a roll of
// a d(n) and returns face-1.
func (r *Roller) IntN(n int) int {
	if n <= 1 {
		return 0
	}
	if r.script != nil {
		return r.script.take(n) - 1
	}
	return int(r.below(uint64(n)))
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
	if sides < 2 {
		return 1
	}
	if r.script != nil {
		return r.script.take(sides)
	}
	if sides == r.cacheSides && r.cacheN > 0 {
		r.cacheN--
		return int(r.cache[r.cacheN]) + 1
	}
	if sides > 256 {
		return int(r.below(uint64(sides))) + 1
	}
	return r.refill(sides)
}

// refill draws a whole batch of faces of one size (sides <= 256), returns one
// and caches the rest.
func (r *Roller) refill(sides int) int {
	s := uint64(sides)
	k := batchSize[sides]
	p := batchProduct[sides]
	for {
		x := r.src.Uint64()
		var hi uint64
		for i := 0; i < k; i++ {
			hi, x = bits.Mul64(x, s)
			r.cache[i] = uint8(hi)
		}
		// The chained products equal one multiplication by p = s^k, so the
		// low word left over is Lemire's remainder for the range [0, p).
		if x >= p || x >= -p%p {
			break
		}
	}
	r.cacheSides = sides
	r.cacheN = k - 1
	return int(r.cache[k-1]) + 1
}

// batchSize[s] is how many d(s) one 64-bit draw yields (s^k <= batchLimit,
// at most len(Roller.cache)); batchProduct[s] is s^k.
var batchSize [257]int
var batchProduct [257]uint64

func init() {
	for s := 2; s <= 256; s++ {
		p, k := uint64(1), 0
		for k < 24 && p*uint64(s) <= batchLimit {
			p *= uint64(s)
			k++
		}
		batchSize[s], batchProduct[s] = k, p
	}
}

// RollDice rolls each die in ds and appends the faces, in the same order, to
// out[:0], returning the extended slice. Given an out with enough capacity it
// allocates nothing. Dice with fewer than 2 sides show 1.
//
// Mixed sizes share draws: consecutive dice are taken from one 64-bit value
// while the product of their sizes stays within 2^56, each batch exact by the
// same argument as a single die.
func (r *Roller) RollDice(ds []Die, out []int) []int {
	out = out[:0]
	if r.script != nil {
		for _, d := range ds {
			if d < 2 {
				out = append(out, 1)
				continue
			}
			out = append(out, r.script.take(int(d)))
		}
		return out
	}
	i := 0
	for i < len(ds) {
		// Find the longest run ds[i:j] whose sizes multiply to at most the limit.
		p := uint64(1)
		j := i
		for j < len(ds) {
			s := uint64(ds[j])
			if ds[j] < 2 {
				s = 1
			}
			hi, lo := bits.Mul64(p, s)
			if hi != 0 || lo > batchLimit {
				break
			}
			p = lo
			j++
		}
		if j == i {
			// A single die too large to batch.
			out = append(out, int(r.below(uint64(ds[i])))+1)
			i++
			continue
		}
		start := len(out)
		for {
			out = out[:start]
			x := r.src.Uint64()
			var hi uint64
			for _, d := range ds[i:j] {
				if d < 2 {
					out = append(out, 1)
					continue
				}
				hi, x = bits.Mul64(x, uint64(d))
				out = append(out, int(hi)+1)
			}
			if x >= p || x >= -p%p {
				break
			}
		}
		i = j
	}
	return out
}

// RollN rolls n dice of one size and appends the faces to out[:0]. With
// enough capacity in out it allocates nothing.
func (r *Roller) RollN(n, sides int, out []int) []int {
	out = out[:0]
	if n <= 0 {
		return out
	}
	if sides < 2 {
		for ; n > 0; n-- {
			out = append(out, 1)
		}
		return out
	}
	if r.script != nil {
		for ; n > 0; n-- {
			out = append(out, r.script.take(sides))
		}
		return out
	}
	if sides > 256 {
		for ; n > 0; n-- {
			out = append(out, int(r.below(uint64(sides)))+1)
		}
		return out
	}
	s := uint64(sides)
	k, p := batchSize[sides], batchProduct[sides]
	for n > 0 {
		m := min(k, n)
		pp := p
		if m < k {
			pp = pow(s, m)
		}
		start := len(out)
		for {
			out = out[:start]
			x := r.src.Uint64()
			var hi uint64
			for i := 0; i < m; i++ {
				hi, x = bits.Mul64(x, s)
				out = append(out, int(hi)+1)
			}
			if x >= pp || x >= -pp%pp {
				break
			}
		}
		n -= m
	}
	return out
}

func pow(s uint64, k int) uint64 {
	p := uint64(1)
	for ; k > 0; k-- {
		p *= s
	}
	return p
}
