package dice

import "math/bits"

// Readings on rolled faces. Each takes faces as RollDice returns them, does
// not modify them, and allocates nothing.

// Highest returns the largest face, or 0 for no faces.
func Highest(faces []int) int {
	h := 0
	for _, f := range faces {
		if f > h {
			h = f
		}
	}
	return h
}

// Sum returns the sum of the faces.
func Sum(faces []int) int {
	s := 0
	for _, f := range faces {
		s += f
	}
	return s
}

// CountAtLeast returns how many faces are >= target (for example the sixes
// in a pool where a 6 is a success).
func CountAtLeast(faces []int, target int) int {
	n := 0
	for _, f := range faces {
		if f >= target {
			n++
		}
	}
	return n
}

// FaceSet is a set of face values, used to exclude faces from a reading
// (Cortex-family pools ignore 1s). It holds faces 1..128; larger faces are
// never members. The zero value is the empty set.
type FaceSet struct{ bits [2]uint64 }

// Faces returns the set holding the given faces; faces outside 1..128 are
// ignored.
func Faces(faces ...int) FaceSet {
	var s FaceSet
	for _, f := range faces {
		if f >= 1 && f <= 128 {
			s.bits[(f-1)>>6] |= 1 << uint((f-1)&63)
		}
	}
	return s
}

// Has reports whether face f is in the set.
func (s FaceSet) Has(f int) bool {
	if f < 1 || f > 128 {
		return false
	}
	return s.bits[(f-1)>>6]&(1<<uint((f-1)&63)) != 0
}

// zero returns 0 for a face in the set whose words are lo and hi, and f
// otherwise: an excluded face reads as no die at all.
func zero(lo, hi uint64, f int) int {
	i := uint(f - 1)
	w := lo
	if i >= 64 {
		w = hi
	}
	if i >= 128 {
		w = 0
	}
	return f &^ -int(w>>(i&63)&1)
}

// Empty reports whether the set has no faces.
func (s FaceSet) Empty() bool { return s.bits[0]|s.bits[1] == 0 }

// SumHighest returns the sum of the k highest faces that are not in exclude;
// if fewer than k faces remain it sums those (so "the two highest, 1s
// excluded" of a roll of all 1s is 0). k <= 0 gives 0, and a face below 1
// (no die shows one) never counts.
func SumHighest(faces []int, k int, exclude FaceSet) int {
	switch {
	case k <= 0:
		return 0
	case k <= 2:
		// Faces 1..64, the usual case: mark each face in a word, and a
		// second time in twice when it was marked already, then read the
		// top two from the words with no branch on the faces' values.
		var seen, twice uint64
		var all uint // every face less one, or-ed: below 64 when all fit
		for _, f := range faces {
			i := uint(f - 1)
			all |= i
			b := uint64(1) << (i & 63)
			twice |= seen & b
			seen |= b
		}
		if all < 64 {
			seen &^= exclude.bits[0]
			top := bits.Len64(seen)
			if k == 1 {
				return top
			}
			// The second highest is the top face again when it was
			// marked twice, else the highest face below it. With no
			// face left (top 0) every word is empty and it reads 0.
			h := uint64(1) << ((top - 1) & 63)
			return top + bits.Len64(seen&^h|twice&h&^exclude.bits[0])
		}
	}
	switch {
	case k == 1:
		h := 0
		lo, hi := exclude.bits[0], exclude.bits[1]
		for _, f := range faces {
			h = max(h, zero(lo, hi, f))
		}
		return h
	case k == 2:
		// An excluded face reads 0, which never enters the top two; a
		// reads the highest face so far and b the second.
		a, b := 0, 0
		lo, hi := exclude.bits[0], exclude.bits[1]
		for _, f := range faces {
			f = zero(lo, hi, f)
			b = max(b, min(a, f))
			a = max(a, f)
		}
		return a + b
	}
	// General k: walk distinct values from the top, taking as many of each as
	// are still wanted. O(len(faces) * distinct values taken), no scratch.
	sum, want := 0, k
	limit := int(^uint(0) >> 1)
	for want > 0 {
		v, c := 0, 0
		for _, f := range faces {
			if f >= limit || exclude.Has(f) {
				continue
			}
			if f > v {
				v, c = f, 1
			} else if f == v {
				c++
			}
		}
		if c == 0 || v <= 0 {
			break
		}
		t := min(c, want)
		sum += t * v
		want -= t
		limit = v
	}
	return sum
}

// Compare compares two rolls the way Art, Grace & Guts reads dice: high die
// against high die, ties broken by the next highest dice in turn, a missing
// die counting as 0 (so an extra die wins a tie). It returns +1 if a is
// higher, -1 if b is, and 0 for a true tie (every die equal).
func Compare(a, b []int) int { return CompareBonus(a, 0, b, 0) }

// CompareBonus is Compare with a bonus added to each roll's high die (an
// advantage die is added straight to the high die). It allocates nothing.
func CompareBonus(a []int, bonusA int, b []int, bonusB int) int {
	// The high dice first, each with its bonus (one die carries it): they
	// decide most comparisons. A roll with no dice reads 0.
	if d := (Highest(a) + bonusA) - (Highest(b) + bonusB); d != 0 {
		return sign(d)
	}
	// A tie: walk both multisets from the top, past the high dice. va/vb is
	// the current value, na/nb how many dice of it are still unmatched.
	const top = int(^uint(0) >> 1)
	va, na := nextBelow(a, top)
	vb, nb := nextBelow(b, top)
	va, na = consume(a, va, na, 1)
	vb, nb = consume(b, vb, nb, 1)
	for na > 0 || nb > 0 {
		if va != vb {
			return sign(va - vb)
		}
		m := min(na, nb)
		va, na = consume(a, va, na, m)
		vb, nb = consume(b, vb, nb, m)
	}
	return 0
}

// consume removes m dice of value v (of which n remain) and returns the next
// value and its count once v is used up. A side with no dice left reads as
// value 0, count 0.
func consume(faces []int, v, n, m int) (int, int) {
	if n == 0 {
		return 0, 0
	}
	n -= m
	if n > 0 {
		return v, n
	}
	return nextBelow(faces, v)
}

// nextBelow returns the largest face below limit and how many dice show it;
// (0, 0) when there is none.
func nextBelow(faces []int, limit int) (int, int) {
	v, c := 0, 0
	for _, f := range faces {
		if f >= limit {
			continue
		}
		if f > v {
			v, c = f, 1
		} else if f == v && f > 0 {
			c++
		}
	}
	return v, c
}

func sign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}
