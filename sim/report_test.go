package sim

import (
	"math"
	"testing"
)

func TestWilson(t *testing.T) {
	for _, tc := range []struct {
		k, n   int64
		lo, hi float64
	}{
		// Published values of the Wilson score interval at 95%.
		{5, 10, 0.236593, 0.763407},
		{0, 10, 0, 0.277533},
		{10, 10, 0.722467, 1},
		{1, 20, 0.008880, 0.236130},
		{0, 0, 0, 1},
	} {
		lo, hi := wilson(tc.k, tc.n)
		if math.Abs(lo-tc.lo) > 5e-6 || math.Abs(hi-tc.hi) > 5e-6 {
			t.Errorf("wilson(%d, %d) = [%.6f, %.6f], want [%.6f, %.6f]", tc.k, tc.n, lo, hi, tc.lo, tc.hi)
		}
	}
	// Against the closed form at a large n.
	k, n := int64(3000), int64(10000)
	p, z := 0.3, z95
	c := (p + z*z/(2*float64(n))) / (1 + z*z/float64(n))
	h := z / (1 + z*z/float64(n)) * math.Sqrt(p*(1-p)/float64(n)+z*z/(4*float64(n*n)))
	if lo, hi := wilson(k, n); math.Abs(lo-(c-h)) > 1e-15 || math.Abs(hi-(c+h)) > 1e-15 {
		t.Errorf("wilson(3000, 10000) = [%v, %v], want [%v, %v]", lo, hi, c-h, c+h)
	}
}

func TestPairedStatistics(t *testing.T) {
	// Four paired trials, categories x and y: (A, B) = (x, y), (x, y),
	// (x, x), (y, y). For x the differences are 1, 1, 0, 0.
	pt := newPairTally(2, 1)
	outcomes := [][2]Outcome{
		{{Category: 0, Metrics: [MaxMetrics]int{5}}, {Category: 1, Metrics: [MaxMetrics]int{3}}},
		{{Category: 0, Metrics: [MaxMetrics]int{4}}, {Category: 1, Metrics: [MaxMetrics]int{4}}},
		{{Category: 0, Metrics: [MaxMetrics]int{2}}, {Category: 0, Metrics: [MaxMetrics]int{3}}},
		{{Category: 1, Metrics: [MaxMetrics]int{6}}, {Category: 1, Metrics: [MaxMetrics]int{2}}},
	}
	for _, o := range outcomes {
		if err := pt.record(&o[0], &o[1]); err != nil {
			t.Fatal(err)
		}
	}
	pt.a.n, pt.b.n = 4, 4
	p := pt.paired([]string{"x", "y"}, []string{"m"})
	x := p.Categories[0]
	if x.AOnly != 2 || x.BOnly != 0 || x.Diff != 0.5 || math.Abs(x.SE-math.Sqrt(1.0/12)) > 1e-15 {
		t.Errorf("x: %+v, want diff 0.5 and SE sqrt(1/12)", x)
	}
	if y := p.Categories[1]; y.AOnly != 0 || y.BOnly != 2 || y.Diff != -0.5 {
		t.Errorf("y: %+v", y)
	}
	// Metric differences 2, 0, -1, 4: mean 1.25, sample variance 4.916...
	m := p.Metrics[0]
	if m.Mean != 1.25 || math.Abs(m.SE-math.Sqrt(59.0/12/4)) > 1e-12 {
		t.Errorf("metric difference %+v, want mean 1.25 and SE %v", m, math.Sqrt(59.0/12/4))
	}
	if p.Joint[0][1] != 2 || p.Joint[0][0] != 1 || p.Joint[1][1] != 1 || p.Joint[1][0] != 0 {
		t.Errorf("joint %v", p.Joint)
	}
}
