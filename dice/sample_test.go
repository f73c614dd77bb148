package dice

import (
	"math/bits"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

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
		// A smaller roll from a fresh roller keeps the rest of the same
		// accepted draw: its faces are the draw's leading digits, and the
		// next roll of that size continues with the following ones.
		src = &fakeSource{words: []uint64{rejected, accepted}}
		r, _ = NewRoller(src)
		two := append(r.RollN(2, sides, nil), r.Roll(sides))
		if d := cmp.Diff(got[:3], two); d != "" || src.i != 2 {
			t.Errorf("d%d: a short roll from the kept draw (-want +got, %d draws):\n%s", sides, src.i, d)
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

// RollDice's one-draw path for small pools gives exactly the faces of its
// general loop, draw for draw, including pools it must refuse.
func TestSmallPoolsMatchTheGeneralLoop(t *testing.T) {
	a, b := NewSeeded(3), NewSeeded(3)
	pick := NewSeeded(4)
	var fa, fb []int
	for i := 0; i < 20000; i++ {
		ds := make([]Die, 1+pick.IntN(7))
		for k := range ds {
			ds[k] = Die(2 + pick.IntN(255))
		}
		if i%10 == 0 { // now and then a size it must refuse
			ds[pick.IntN(len(ds))] = Die([]int{0, 1, 257, 1000}[pick.IntN(4)])
		}
		fa = a.RollDice(ds, fa)
		fb = b.rollDice(ds, grow(fb, len(ds)))
		if d := cmp.Diff(fb, fa); d != "" {
			t.Fatalf("pool %v (-general +RollDice):\n%s", ds, d)
		}
	}
}

// A Pool of mixed sizes that one draw holds rolls from the product it
// worked out when it was made, giving exactly RollDice's faces for its
// dice, draw for draw; others roll as before.
func TestPoolOneDrawMatchesRollDice(t *testing.T) {
	a, b := NewSeeded(5), NewSeeded(5)
	pick := NewSeeded(6)
	var fa, fb []int
	oneDraw := 0
	for i := 0; i < 20000; i++ {
		ds := make([]Die, 1+pick.IntN(12))
		top := []int{4, 12, 20, 100, 256, 1000}[pick.IntN(6)]
		for k := range ds {
			ds[k] = Die(2 + pick.IntN(top-1))
		}
		p, err := NewPool(ds...)
		if err != nil {
			t.Fatal(err)
		}
		if p.draw != 0 {
			oneDraw++
			c := uint64(1)
			for _, d := range p.dice {
				c *= uint64(d)
			}
			if c != p.draw || c > batchLimit {
				t.Fatalf("pool %v: draw %d, product %d", p, p.draw, c)
			}
		}
		if p.dice[0] == p.dice[p.Len()-1] {
			// One size rolls through RollN, from the kept draw, which
			// TestMixedCallsUniformAndIndependent covers.
			continue
		}
		fa = p.Roll(a, fa)
		fb = b.RollDice(p.dice, fb)
		if d := cmp.Diff(fb, fa); d != "" {
			t.Fatalf("pool %v (-RollDice +Pool.Roll):\n%s", p, d)
		}
	}
	if oneDraw < 5000 {
		t.Errorf("only %d of 20000 pools took one draw", oneDraw)
	}
	// The modifier does not change how a pool rolls.
	p, _ := NewPool(D12, D10, D8)
	q, _ := p.WithModifier(3)
	if p.draw != 960 || q.draw != 960 {
		t.Errorf("d12 d10 d8: draw %d, with modifier %d; want 960", p.draw, q.draw)
	}
}

// RollCount rolls what RollN rolls, draw for draw, and counts what
// CountAtLeast counts, for any mixture of sizes, counts and targets.
func TestRollCountIsRollNCounted(t *testing.T) {
	a, b := NewSeeded(7), NewSeeded(7)
	pick := NewSeeded(8)
	var fa, fb []int
	for i := 0; i < 20000; i++ {
		n := pick.IntN(30) - 2
		sides := []int{1, 2, 6, 6, 6, 10, 20, 256, 300}[pick.IntN(9)]
		target := pick.IntN(sides+4) - 1
		if pick.IntN(4) == 0 {
			fa, fb = fa[:0:0], fb[:0:0] // now and then no room in out
		}
		var got int
		fa, got = a.RollCount(n, sides, target, fa)
		fb = b.RollN(n, sides, fb)
		if d := cmp.Diff(fb, fa); d != "" {
			t.Fatalf("RollCount(%d, %d, %d) faces (-RollN +RollCount):\n%s", n, sides, target, d)
		}
		if want := CountAtLeast(fb, target); got != want {
			t.Fatalf("RollCount(%d, %d, %d) on %v counted %d, want %d", n, sides, target, fb, got, want)
		}
	}
	s := Scripted(6, 2, 6, 5)
	if f, c := s.RollCount(4, 6, 6, nil); c != 2 || !slices.Equal(f, []int{6, 2, 6, 5}) {
		t.Errorf("scripted RollCount = %v, %d", f, c)
	}
}
