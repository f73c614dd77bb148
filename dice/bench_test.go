package dice

import (
	"math/rand/v2"
	"testing"
)

// Each benchmark sits beside a straightforward math/rand/v2 version of the
// same work (rand.IntN per die, sorting or enumerating where the obvious
// code would), so every run shows the ratio.

var sink int

func naiveRand() *rand.Rand { return rand.New(rand.NewPCG(1, 2)) }

func BenchmarkD6(b *testing.B) {
	r := NewSeeded(1)
	b.ReportAllocs()
	s := 0
	for b.Loop() {
		s += r.Roll(6)
	}
	sink = s
}

func BenchmarkD6Naive(b *testing.B) {
	r := naiveRand()
	b.ReportAllocs()
	s := 0
	for b.Loop() {
		s += r.IntN(6) + 1
	}
	sink = s
}

// 4d6 rolled into a buffer and summed, for when the faces are wanted too.
func BenchmarkRollN4d6Sum(b *testing.B) {
	r := NewSeeded(1)
	buf := make([]int, 0, 4)
	b.ReportAllocs()
	s := 0
	for b.Loop() {
		buf = r.RollN(4, 6, buf)
		s += Sum(buf)
	}
	sink = s
}

// A 4d6 total through SumN, the API for it, which totals straight from
// the roller.
func BenchmarkSum4d6(b *testing.B) {
	r := NewSeeded(1)
	b.ReportAllocs()
	s := 0
	for b.Loop() {
		s += r.SumN(4, 6)
	}
	sink = s
}

func BenchmarkSum4d6Naive(b *testing.B) {
	r := naiveRand()
	b.ReportAllocs()
	s := 0
	for b.Loop() {
		for i := 0; i < 4; i++ {
			s += r.IntN(6) + 1
		}
	}
	sink = s
}

// 10d6 rolled and the sixes counted in one pass, with RollCount (the
// faces are written too).
func BenchmarkSixes10d6(b *testing.B) {
	r := NewSeeded(1)
	buf := make([]int, 0, 10)
	b.ReportAllocs()
	s := 0
	for b.Loop() {
		var c int
		buf, c = r.RollCount(10, 6, 6, buf)
		s += c
	}
	sink = s
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/10, "ns/die")
}

// The same as a Pool rolled, then read by CountAtLeast.
func BenchmarkSixes10d6Pool(b *testing.B) {
	r := NewSeeded(1)
	p, _ := Of(10, D6)
	buf := make([]int, 0, 10)
	b.ReportAllocs()
	s := 0
	for b.Loop() {
		buf = p.Roll(r, buf)
		s += CountAtLeast(buf, 6)
	}
	sink = s
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/10, "ns/die")
}

func BenchmarkSixes10d6Naive(b *testing.B) {
	r := naiveRand()
	b.ReportAllocs()
	s := 0
	for b.Loop() {
		for i := 0; i < 10; i++ {
			if r.IntN(6) == 5 {
				s++
			}
		}
	}
	sink = s
}

var cortex = []Die{D4, D6, D8, D10, D12}

// The pool as a Pool, the library's type for it: it knows its one-draw
// product from when it was made.
func BenchmarkTwoHighestNo1s(b *testing.B) {
	r := NewSeeded(1)
	p, _ := NewPool(cortex...)
	buf := make([]int, 0, 5)
	ex := Faces(1)
	b.ReportAllocs()
	s := 0
	for b.Loop() {
		buf = p.Roll(r, buf)
		s += SumHighest(buf, 2, ex)
	}
	sink = s
}

// The same dice given as a plain slice to RollDice, which works their
// product out each time.
func BenchmarkTwoHighestNo1sRollDice(b *testing.B) {
	r := NewSeeded(1)
	buf := make([]int, 0, 5)
	ex := Faces(1)
	b.ReportAllocs()
	s := 0
	for b.Loop() {
		buf = r.RollDice(cortex, buf)
		s += SumHighest(buf, 2, ex)
	}
	sink = s
}

func BenchmarkTwoHighestNo1sNaive(b *testing.B) {
	r := naiveRand()
	sides := []int{4, 6, 8, 10, 12}
	b.ReportAllocs()
	s := 0
	for b.Loop() {
		faces := make([]int, 0, 5)
		for _, n := range sides {
			if f := r.IntN(n) + 1; f != 1 {
				faces = append(faces, f)
			}
		}
		// sort descending and take two
		for i := range faces {
			for j := i + 1; j < len(faces); j++ {
				if faces[j] > faces[i] {
					faces[i], faces[j] = faces[j], faces[i]
				}
			}
		}
		for i := 0; i < len(faces) && i < 2; i++ {
			s += faces[i]
		}
	}
	sink = s
}

// Many d6 inside one pool roll: the per-die cost of RollN.
func BenchmarkPool100d6(b *testing.B) {
	r := NewSeeded(1)
	buf := make([]int, 0, 100)
	b.ReportAllocs()
	for b.Loop() {
		buf = r.RollN(100, 6, buf)
	}
	sink = buf[0]
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/100, "ns/die")
}

func BenchmarkExactKeep3Of100d6(b *testing.B) {
	ds := make([]Die, 100)
	for i := range ds {
		ds[i] = D6
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := KeepHighestOf(ds, 3, FaceSet{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkExactTwoHighestMixed20(b *testing.B) {
	ds := mixed20()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := KeepHighestOf(ds, 2, Faces(1)); err != nil {
			b.Fatal(err)
		}
	}
}

// The naive exact answer enumerates every roll; feasible only for a small
// pool, so compare on d4 d6 d8 d10 d12 (23040 rolls).
func BenchmarkExactTwoHighestCortex(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := KeepHighestOf(cortex, 2, Faces(1)); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkExactTwoHighestCortexNaive(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		m := map[int]float64{}
		enumerate(cortex, func(f []int, p float64) { m[SumHighest(f, 2, Faces(1))] += p })
		sink = len(m)
	}
}

func BenchmarkExactSum10d6(b *testing.B) {
	ds := make([]Die, 10)
	for i := range ds {
		ds[i] = D6
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := SumOf(ds); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkExactSixes10d6(b *testing.B) {
	ds := make([]Die, 10)
	for i := range ds {
		ds[i] = D6
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := SuccessesOf(ds, 6); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkExactHighestMixed20(b *testing.B) {
	ds := mixed20()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := HighestOf(ds); err != nil {
			b.Fatal(err)
		}
	}
}

// The lowest two of twenty mixed d4..d12, 1s out: the mirror of
// BenchmarkExactTwoHighestMixed20, whose state also counts the dice of
// sizes not yet reached.
func BenchmarkExactTwoLowestMixed20(b *testing.B) {
	ds := mixed20()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := KeepLowestOf(ds, 2, Faces(1)); err != nil {
			b.Fatal(err)
		}
	}
}

// The successes of a 1000-die pool with hits on 5+ on a d6.
func BenchmarkExactBinomial1000(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Binomial(1000, 1.0/3); err != nil {
			b.Fatal(err)
		}
	}
}

// The draws a trial makes outside the batched small dice: a deck of 52
// shuffled (IntN, as dramadeck deals), a d1000 (one bounded draw each),
// and a mixed pool RollDice takes through its general loop.
func BenchmarkShuffle52(b *testing.B) {
	r := NewSeeded(1)
	deck := make([]int, 52)
	for i := range deck {
		deck[i] = i
	}
	b.ReportAllocs()
	for b.Loop() {
		r.ShuffleInts(deck)
	}
	sink = deck[0]
}

func BenchmarkD1000(b *testing.B) {
	r := NewSeeded(1)
	b.ReportAllocs()
	s := 0
	for b.Loop() {
		s += r.Roll(1000)
	}
	sink = s
}

func BenchmarkRollDiceMixed12(b *testing.B) {
	r := NewSeeded(1)
	ds := []Die{D20, D12, D12, D10, D10, D8, D8, D8, D6, D6, D4, 300}
	buf := make([]int, 0, len(ds))
	b.ReportAllocs()
	s := 0
	for b.Loop() {
		buf = r.RollDice(ds, buf)
		s += buf[0]
	}
	sink = s
}
