package dice

import (
	"math/bits"
	"testing"
)

// Sampled frequencies agree with the exact distributions (chi-square,
// fixed seeds, so the outcome is the same on every run).
func TestSamplersMatchExact(t *testing.T) {
	const n = 60000
	type reading struct {
		name  string
		exact func(ds []Die) (Dist, error)
		read  func(faces []int) int
	}
	readings := []reading{
		{"sum", SumOf, Sum},
		{"highest", HighestOf, Highest},
		{"sixes", func(ds []Die) (Dist, error) { return SuccessesOf(ds, 6) }, func(f []int) int { return CountAtLeast(f, 6) }},
		{"two highest no 1s", func(ds []Die) (Dist, error) { return KeepHighestOf(ds, 2, Faces(1)) },
			func(f []int) int { return SumHighest(f, 2, Faces(1)) }},
	}
	pools := [][]Die{
		{D6, D6, D6, D6},
		{D12, D10, D8, D6, D4},
		{D20, D6, D6},
		{D6, D6, D6, D6, D6, D6, D6, D6, D6, D6},
		{D100, D3},
	}
	for pi, ds := range pools {
		for _, rd := range readings {
			exact, err := rd.exact(ds)
			if err != nil {
				t.Fatal(err)
			}
			r := NewSeeded(uint64(1000 + pi))
			counts := map[int]int64{}
			var buf []int
			for i := 0; i < n; i++ {
				buf = r.RollDice(ds, buf)
				counts[rd.read(buf)]++
			}
			fit, err := ChiSquare(exact, counts)
			if err != nil {
				t.Fatal(err)
			}
			if fit.PValue < 1e-4 {
				t.Errorf("%v %s: chi-square %.1f on %d df, p = %.2g", ds, rd.name, fit.Stat, fit.DF, fit.PValue)
			}
		}
	}
}

// The test above can fail: a biased die is caught.
func TestChiSquareRejectsBias(t *testing.T) {
	exact, _ := Uniform(D6)
	r := NewSeeded(3)
	counts := map[int]int64{}
	for i := 0; i < 60000; i++ {
		f := r.Roll(6)
		if f == 1 && r.IntN(20) == 0 { // one 1 in twenty becomes a 6
			f = 6
		}
		counts[f]++
	}
	fit, err := ChiSquare(exact, counts)
	if err != nil {
		t.Fatal(err)
	}
	if fit.PValue > 1e-6 {
		t.Errorf("a 5%% bias on 1s went unnoticed: p = %v", fit.PValue)
	}
	if _, err := ChiSquare(exact, map[int]int64{7: 3}); err == nil {
		t.Error("an impossible outcome was accepted")
	}
	if _, err := ChiSquare(exact, nil); err == nil {
		t.Error("no observations accepted")
	}
	if _, err := ChiSquare(exact, map[int]int64{1: -1}); err == nil {
		t.Error("a negative count accepted")
	}
}

// Single rolls through the cache, every size, and pairs of consecutive
// rolls: faces are uniform and consecutive faces independent.
func TestRollUniformAndIndependent(t *testing.T) {
	for _, sides := range []int{2, 3, 4, 6, 7, 10, 12, 20, 100, 255, 256, 257, 1000} {
		r := NewSeeded(uint64(sides))
		n := 200 * sides
		if sides > 300 {
			n = 100 * sides
		}
		counts := map[int]int64{}
		for i := 0; i < n; i++ {
			counts[r.Roll(sides)]++
		}
		u, _ := Uniform(Die(sides))
		if fit, _ := ChiSquare(u, counts); fit.PValue < 1e-4 {
			t.Errorf("d%d: p = %.2g", sides, fit.PValue)
		}
	}
	// Pairs: 36 cells of (first, second) for consecutive d6 and for
	// RollN batches crossing the 21-dice boundary of one draw.
	pairs := map[int]int64{}
	r := NewSeeded(9)
	var buf []int
	for i := 0; i < 20000; i++ {
		buf = r.RollN(23, 6, buf)
		pairs[(buf[20]-1)*6+buf[21]-1]++ // last of one draw, first of the next
		pairs[(buf[0]-1)*6+buf[1]-1]++
	}
	u, _ := Uniform(36)
	shifted := map[int]int64{}
	for k, v := range pairs {
		shifted[k+1] = v
	}
	if fit, _ := ChiSquare(u, shifted); fit.PValue < 1e-4 {
		t.Errorf("d6 pairs: p = %.2g", fit.PValue)
	}
}

// fakeSource replays fixed words, to drive the batched draw through its
// rejection path.
type fakeSource struct {
	words []uint64
	i     int
}

func (f *fakeSource) Uint64() uint64 {
	w := f.words[f.i%len(f.words)]
	f.i++
	return w
}

// The batched draw is exact. A batch of dice whose sizes multiply to p is
// Lemire's method on [0, p) ("Fast Random Integer Generation in an
// Interval", 2019): the word x gives the mixed-radix digits of
// floor(x p / 2^64), and words whose low product x p mod 2^64 falls below
// t = 2^64 mod p are rejected, which leaves every digit tuple exactly
// floor(2^64 / p) words. This test pins the boundary: for odd p
// (invertible mod 2^64) it builds the word whose low product is t-1, which
// must be rejected, and the one whose low product is t, which must be
// accepted and decode to the expected faces.
func TestBatchRejectsExactlyTheExcess(t *testing.T) {
	checked := 0
	for sides := 3; sides <= 255; sides += 2 {
		k, p := batchSize[sides], powers[sides][batchSize[sides]]
		thresh := -p % p
		inv := p // Newton's iteration for p^-1 mod 2^64
		for i := 0; i < 6; i++ {
			inv *= 2 - p*inv
		}
		if p*inv != 1 {
			t.Fatalf("d%d: no inverse", sides)
		}
		rejected, accepted := (thresh-1)*inv, thresh*inv
		src := &fakeSource{words: []uint64{rejected, accepted}}
		r, _ := NewRoller(src)
		got := r.RollN(k, sides, nil)
		if src.i != 2 {
			t.Errorf("d%d: %d draws, want the boundary word rejected then one more", sides, src.i)
		}
		// The accepted word's digits are floor(accepted*p/2^64) in base sides.
		hi, _ := bits.Mul64(accepted, p)
		for i := k - 1; i >= 0; i-- {
			if want := int(hi%uint64(sides)) + 1; got[i] != want {
				t.Errorf("d%d: die %d shows %d, want %d", sides, i, got[i], want)
			}
			hi /= uint64(sides)
		}
		// And one word of low product exactly t is accepted at once.
		src = &fakeSource{words: []uint64{accepted}}
		r, _ = NewRoller(src)
		r.RollN(k, sides, nil)
		if src.i != 1 {
			t.Errorf("d%d: the word at the threshold was rejected", sides)
		}
		checked++
	}
	if checked != 127 {
		t.Errorf("checked %d sizes", checked)
	}
}
