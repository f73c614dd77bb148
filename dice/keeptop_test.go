package dice

import (
	"fmt"
	"math"
	"math/big"
	"testing"
)

// keepTop gives the table sweep's answers (the way KeepHighestOf took
// before it, kept for exclusions that are not the lowest faces) on pools
// too large to enumerate: one size, mixed sizes, the lowest faces out.
func TestKeepTopMatchesSweep(t *testing.T) {
	cases := []struct {
		ds      []Die
		k       int
		exclude FaceSet
	}{
		{shapeDice(100, D6), 3, FaceSet{}},
		{shapeDice(100, D6), 3, Faces(1)},
		{mixed20(), 3, Faces(1)},
		{mixed20(), 5, FaceSet{}},
		{append(shapeDice(10, D20), shapeDice(10, D4)...), 4, Faces(1, 2)},
		{append(shapeDice(7, D12), D2, D2, D3), 6, Faces(1, 2)},
		{[]Die{D100, D20, D6}, 2, Faces(1)},
	}
	for _, c := range cases {
		name := fmt.Sprintf("%d dice keep %d excluding %v", len(c.ds), c.k, c.exclude)
		got, err := KeepHighestOf(c.ds, c.k, c.exclude)
		countPatterns = false
		want, err2 := KeepHighestOf(c.ds, c.k, c.exclude)
		countPatterns = true
		if err != nil || err2 != nil {
			t.Fatalf("%s: %v, %v", name, err, err2)
		}
		for v := min(got.Min, want.Min); v <= max(got.Max(), want.Max()); v++ {
			if g, w := got.Prob(v), want.Prob(v); math.Abs(g-w) > 1e-12*max(w, 1e-3) {
				t.Errorf("%s: P(%d) = %v, sweep %v", name, v, g, w)
			}
		}
		if !near(got.Total(), 1) {
			t.Errorf("%s: total %v", name, got.Total())
		}
	}
}

// The smallest chances keep their digits: the three highest of 100d6
// total 3 only when every die shows 1 (6^-100, about 1.5e-78), and 4
// when one shows 2 and the rest 1 (100 x 6^-100); 20d6 keep 3 totals 17
// when exactly two dice show 6 and the rest at most 5, one at least,
// and 18 with three or more 6s, against exact rationals.
func TestKeepTopTails(t *testing.T) {
	d, err := KeepHighestOf(shapeDice(100, D6), 3, FaceSet{})
	if err != nil {
		t.Fatal(err)
	}
	all1 := new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Exp(big.NewInt(6), big.NewInt(100), nil))
	one2 := new(big.Rat).Mul(all1, big.NewRat(100, 1))
	for _, c := range []struct {
		v    int
		want *big.Rat
	}{{3, all1}, {4, one2}} {
		w, _ := c.want.Float64()
		if g := d.Prob(c.v); math.Abs(g-w) > 1e-12*w {
			t.Errorf("100d6 keep 3: P(%d) = %v, exactly %v", c.v, g, w)
		}
	}
	d, err = KeepHighestOf(shapeDice(20, D6), 3, FaceSet{})
	if err != nil {
		t.Fatal(err)
	}
	// P(17) = C(20,2) (5^18 - 4^18) / 6^20.
	pow := func(b, e int64) *big.Int { return new(big.Int).Exp(big.NewInt(b), big.NewInt(e), nil) }
	n := new(big.Int).Mul(big.NewInt(190), new(big.Int).Sub(pow(5, 18), pow(4, 18)))
	p17, _ := new(big.Rat).SetFrac(n, pow(6, 20)).Float64()
	if g := d.Prob(17); math.Abs(g-p17) > 1e-12*p17 {
		t.Errorf("20d6 keep 3: P(17) = %v, exactly %v", g, p17)
	}
	sixes, _ := Binomial(20, 1.0/6)
	if g := d.Prob(18); !near(g, sixes.AtLeast(3)) {
		t.Errorf("20d6 keep 3: P(18) = %v, want %v", g, sixes.AtLeast(3))
	}
}

// Which exclusions keepTop takes: none, or the lowest faces up to some
// face, whatever lies above the largest die.
func TestLowFaces(t *testing.T) {
	for _, c := range []struct {
		ex   FaceSet
		top  int
		e    int
		ok   bool
		what string
	}{
		{FaceSet{}, 6, 0, true, "none"},
		{Faces(1), 6, 1, true, "the 1s"},
		{Faces(1, 2), 12, 2, true, "1s and 2s"},
		{Faces(1, 3), 6, 0, false, "a gap"},
		{Faces(6), 6, 0, false, "the top face"},
		{Faces(1, 9), 6, 1, true, "a face no die shows"},
		{Faces(1, 2, 3, 4), 3, 3, true, "every face"},
		{Faces(2), 200, 0, false, "a face above one kept, on a large die"},
	} {
		e, ok := lowFaces(c.ex, c.top)
		if e != c.e || ok != c.ok {
			t.Errorf("%s: lowFaces = %d, %v; want %d, %v", c.what, e, ok, c.e, c.ok)
		}
	}
}
