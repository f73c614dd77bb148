package dice

import (
	"errors"
	"math"
	"testing"
)

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-12 }

func TestClosedForms(t *testing.T) {
	// P(at least one six in N d6) = 1 - (5/6)^N.
	for n := 1; n <= 30; n++ {
		ds := make([]Die, n)
		for i := range ds {
			ds[i] = D6
		}
		s, err := SuccessesOf(ds, 6)
		if err != nil {
			t.Fatal(err)
		}
		if want := 1 - math.Pow(5.0/6, float64(n)); !near(s.AtLeast(1), want) {
			t.Errorf("P(a six in %dd6) = %.15f, want %.15f", n, s.AtLeast(1), want)
		}
		h, _ := HighestOf(ds)
		if !near(h.Prob(6), 1-math.Pow(5.0/6, float64(n))) {
			t.Errorf("P(highest of %dd6 = 6) = %v", n, h.Prob(6))
		}
	}
	// 4d6 drop lowest has mean 15869/1296.
	k, err := KeepHighestOf([]Die{D6, D6, D6, D6}, 3, FaceSet{})
	if err != nil {
		t.Fatal(err)
	}
	if !near(k.Mean(), 15869.0/1296) {
		t.Errorf("4d6 drop lowest mean = %.15f, want %.15f", k.Mean(), 15869.0/1296)
	}
	if !near(k.Prob(18), 21.0/1296) || !near(k.Prob(3), 1.0/1296) {
		t.Errorf("4d6 drop lowest P(18)=%v P(3)=%v", k.Prob(18), k.Prob(3))
	}
	// 3d6: P(10) = 27/216, mean 10.5, variance 3 * 35/12.
	s, _ := SumOf([]Die{D6, D6, D6})
	if !near(s.Prob(10), 27.0/216) || !near(s.Mean(), 10.5) || !near(s.Variance(), 35.0/4) {
		t.Errorf("3d6: P(10)=%v mean=%v var=%v", s.Prob(10), s.Mean(), s.Variance())
	}
	if !near(s.CDF(10), 0.5) || !near(s.AtLeast(11), 0.5) || s.Quantile(0.5) != 10 || s.Quantile(1) != 18 || s.Quantile(0) != 3 {
		t.Errorf("3d6: CDF(10)=%v AtLeast(11)=%v median=%d", s.CDF(10), s.AtLeast(11), s.Quantile(0.5))
	}
	if s.CDF(2) != 0 || s.CDF(18) != 1 || s.AtLeast(3) != 1 || s.AtLeast(19) != 0 || s.Prob(99) != 0 {
		t.Error("3d6 tails")
	}
	// Two highest of d6 d6 with 1s excluded: P(0) = 1/36 (both 1s).
	c, _ := KeepHighestOf([]Die{D6, D6}, 2, Faces(1))
	if !near(c.Prob(0), 1.0/36) || !near(c.Prob(6), 5.0/36) {
		t.Errorf("2d6 1s excluded: P(0)=%v P(6)=%v", c.Prob(0), c.Prob(6))
	}
}

func TestDistMethods(t *testing.T) {
	d6, _ := Uniform(D6)
	d4, _ := Uniform(D4)
	// P(d6 > d4) = (0+1+2+3+4+4... ) computed by hand: sum over y of P(d6 > y)/4.
	want := (5.0/6 + 4.0/6 + 3.0/6 + 2.0/6) / 4
	if !near(d6.Greater(d4), want) {
		t.Errorf("P(d6 > d4) = %v, want %v", d6.Greater(d4), want)
	}
	if !near(d6.AtLeastDist(d6), 21.0/36) || !near(d6.Greater(d6), 15.0/36) {
		t.Errorf("P(d6 >= d6) = %v, P(d6 > d6) = %v", d6.AtLeastDist(d6), d6.Greater(d6))
	}
	sum, err := d6.Add(d4)
	if err != nil || sum.Min != 2 || sum.Max() != 10 || !near(sum.Prob(5), 4.0/24) {
		t.Errorf("d6+d4: %+v %v", sum, err)
	}
	sh, err := d6.Shift(5)
	if err != nil || sh.Min != 6 || !near(sh.Mean(), 8.5) || &sh.P[0] == &d6.P[0] {
		t.Errorf("Shift: %+v", sh)
	}
	if !near(d6.StdDev(), math.Sqrt(35.0/12)) {
		t.Errorf("StdDev %v", d6.StdDev())
	}
	if p := Point(3); p.Mean() != 3 || p.Variance() != 0 || p.Quantile(0.3) != 3 {
		t.Errorf("Point: %+v", p)
	}
	if _, err := d6.Add(Dist{}); err == nil {
		t.Error("adding an empty distribution")
	}
	big := Dist{Min: 0, P: make([]float64, MaxOutcomes)}
	if _, err := big.Add(d6); !errors.Is(err, ErrTooLarge) {
		t.Errorf("oversized Add: %v", err)
	}
}

func TestExactErrors(t *testing.T) {
	if _, err := Uniform(Die(1)); err == nil {
		t.Error("Uniform(d1)")
	}
	if _, err := SumOf([]Die{D6, Die(0)}); err == nil {
		t.Error("SumOf with Gone")
	}
	if _, err := HighestOf([]Die{Die(-1)}); err == nil {
		t.Error("HighestOf(d-1)")
	}
	if _, err := SuccessesOf(make([]Die, MaxDice+1), 6); err == nil {
		t.Error("SuccessesOf too many")
	}
	if _, err := KeepHighestOf([]Die{D6, D6}, 3, FaceSet{}); err == nil {
		t.Error("keep 3 of 2")
	}
	if _, err := KeepHighestOf([]Die{D6}, 0, FaceSet{}); err == nil {
		t.Error("keep 0")
	}
	if _, err := KeepHighestOf(nil, 1, FaceSet{}); err == nil {
		t.Error("keep 1 of none")
	}
	// The highest of one d100000 is the die: one row of one sum a face.
	if d, err := KeepHighestOf([]Die{100000}, 1, FaceSet{}); err != nil || math.Abs(d.Mean()-50000.5) > 1e-8 || !near(d.Prob(7), 1e-5) {
		t.Errorf("keep 1 of a d100000: mean %v, %v", d.Mean(), err)
	}
	// 100 d4096 keep 100 needs 100 rows of 99 x 4096 sums; 200 d1000 keep
	// 50 fits its table but not its work.
	if _, err := KeepHighestOf(shapeDice(100, 4096), 100, FaceSet{}); !errors.Is(err, ErrTooLarge) {
		t.Errorf("keep 100 of 100 d4096: %v", err)
	}
	if _, err := KeepHighestOf(shapeDice(200, 1000), 50, FaceSet{}); !errors.Is(err, ErrTooLarge) {
		t.Errorf("keep 50 of 200 d1000: %v", err)
	}
	ds := make([]Die, 100)
	for i := range ds {
		ds[i] = MaxSides
	}
	if _, err := SumOf(ds); !errors.Is(err, ErrTooLarge) {
		t.Errorf("SumOf(100d1000000): %v", err)
	}
	if h, err := HighestOf(nil); err != nil || h.Mean() != 0 {
		t.Errorf("HighestOf(nil) = %+v, %v", h, err)
	}
}

// Large pools stay exact: 100d6 keep 3 against the closed form of its top:
// P(three sixes kept) = P(at least three sixes among 100).
func TestLargePools(t *testing.T) {
	ds := make([]Die, 100)
	for i := range ds {
		ds[i] = D6
	}
	k, err := KeepHighestOf(ds, 3, FaceSet{})
	if err != nil {
		t.Fatal(err)
	}
	s, _ := SuccessesOf(ds, 6)
	if !near(k.Prob(18), s.AtLeast(3)) || !near(k.Total(), 1) {
		t.Errorf("100d6 keep 3: P(18) = %v, want %v (total %v)", k.Prob(18), s.AtLeast(3), k.Total())
	}
	mixed := mixed20()
	two, err := KeepHighestOf(mixed, 2, Faces(1))
	if err != nil {
		t.Fatal(err)
	}
	h, _ := HighestOf(mixed)
	// The two highest total 24 exactly when two d12s both show 12.
	if !near(two.Prob(24), 1-math.Pow(11.0/12, 4)-4*(1.0/12)*math.Pow(11.0/12, 3)) || !near(two.Total(), 1) {
		t.Errorf("mixed P(24) = %v", two.Prob(24))
	}
	if !near(h.Prob(12), 1-math.Pow(11.0/12, 4)) {
		t.Errorf("mixed highest P(12) = %v", h.Prob(12))
	}
}

// mixed20 is the twenty-die pool of the issue: four each of d4..d12.
func mixed20() []Die {
	var ds []Die
	for _, d := range Ladder {
		for i := 0; i < 4; i++ {
			ds = append(ds, d)
		}
	}
	return ds
}
