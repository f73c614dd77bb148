package dice

import (
	"math/bits"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
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

// Any mixture of Roll, RollN and SumN calls, sizes switching, draws
// exact faces: every position of the pattern is uniform, and consecutive
// faces across the calls' boundaries (including a fresh draw after the
// kept one ran short or was dropped) are independent.
func TestMixedCallsUniformAndIndependent(t *testing.T) {
	r := NewSeeded(77)
	pos := make([]map[int]int64, 6)
	for i := range pos {
		pos[i] = map[int]int64{}
	}
	pairs := [4]map[int]int64{{}, {}, {}, {}}
	var a, b, c []int
	const rounds = 30000
	for i := 0; i < rounds; i++ {
		a = r.RollN(4, 6, a)  // from the kept d6 draw or a fresh one
		x := r.Roll(6)        // the next digit
		y := r.Roll(6)        // and the next
		b = r.RollN(3, 8, b)  // another size: the d6 draw is dropped
		s := r.SumN(2, 8)     // the kept d8 draw
		c = r.RollN(19, 6, c) // rarely fits what is left of a d6 draw
		pos[0][a[0]]++
		pos[1][a[3]]++
		pos[2][x]++
		pos[3][b[0]]++
		pos[4][c[0]]++
		pos[5][c[18]]++
		pairs[0][(a[3]-1)*6+x]++
		pairs[1][(b[2]-1)*15+s-2]++ // s is 2..16: 8 x 15 cells
		pairs[2][(x-1)*6+y]++
		pairs[3][(y-1)*6+c[0]]++
	}
	d6, _ := Uniform(D6)
	d8, _ := Uniform(D8)
	for i, counts := range pos {
		u := d6
		if i == 3 {
			u = d8
		}
		if fit, _ := ChiSquare(u, counts); fit.PValue < 1e-4 {
			t.Errorf("position %d: p = %.2g", i, fit.PValue)
		}
	}
	u36, _ := Uniform(36)
	for _, k := range []int{0, 2, 3} {
		if fit, _ := ChiSquare(u36, pairs[k]); fit.PValue < 1e-4 {
			t.Errorf("pairs %d: p = %.2g", k, fit.PValue)
		}
	}
	// (d8, 2d8 sum) pairs against the product of the exact laws.
	sum2, _ := SumOf([]Die{D8, D8})
	prod := map[int]float64{}
	for f := 1; f <= 8; f++ {
		for t := 2; t <= 16; t++ {
			prod[(f-1)*15+t-2] = sum2.Prob(t) / 8
		}
	}
	var chi float64
	for k, p := range prod {
		e := p * rounds
		d := float64(pairs[1][k]) - e
		chi += d * d / e
	}
	// 119 degrees of freedom: the 1e-4 upper quantile is about 183.
	if chi > 183 {
		t.Errorf("d8 then 2d8: chi-square %.1f on 119 degrees of freedom", chi)
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

// IntN is Lemire's method on [0, n): for odd n it rejects exactly the word
// whose low product is one below the threshold 2^64 mod n and accepts the
// one at it, and its values are uniform.
func TestIntNRejectsExactlyTheExcess(t *testing.T) {
	for _, n := range []uint64{3, 7, 1001, 1<<40 + 1, 1<<62 + 1} {
		thresh := -n % n
		inv := n
		for i := 0; i < 6; i++ {
			inv *= 2 - n*inv
		}
		rejected, accepted := (thresh-1)*inv, thresh*inv
		src := &fakeSource{words: []uint64{rejected, accepted}}
		r, _ := NewRoller(src)
		want, _ := bits.Mul64(accepted, n)
		if got := r.IntN(int(n)); uint64(got) != want || src.i != 2 {
			t.Errorf("IntN(%d) = %d after %d draws, want %d after 2", n, got, src.i, want)
		}
	}
	r := NewSeeded(5)
	counts := map[int]int64{}
	for i := 0; i < 70000; i++ {
		counts[r.IntN(7)+1]++
	}
	u, _ := Uniform(7)
	if fit, _ := ChiSquare(u, counts); fit.PValue < 1e-4 {
		t.Errorf("IntN(7): p = %.2g", fit.PValue)
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
