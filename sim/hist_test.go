package sim

import (
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stakesrpg/stakes/dice"
)

func TestHistogramAdd(t *testing.T) {
	var h Histogram
	vals := []int{5, 7, 5, -3, 40, 5, 0}
	for _, v := range vals {
		if err := h.Add(v); err != nil {
			t.Fatal(err)
		}
	}
	if h.N() != int64(len(vals)) {
		t.Errorf("N = %d", h.N())
	}
	for _, tc := range []struct {
		v    int
		want int64
	}{{5, 3}, {7, 1}, {-3, 1}, {40, 1}, {0, 1}, {1, 0}, {-100, 0}, {1000, 0}} {
		if got := h.Count(tc.v); got != tc.want {
			t.Errorf("Count(%d) = %d, want %d", tc.v, got, tc.want)
		}
	}
	c := h.canonical()
	if c.Min != -3 || c.Max() != 40 || c.Counts[0] != 1 || c.Counts[len(c.Counts)-1] != 1 {
		t.Errorf("canonical %+v", c)
	}
	// Canonical form does not depend on how the values arrived.
	var g Histogram
	for i := len(vals) - 1; i >= 0; i-- {
		g.Add(vals[i])
	}
	if d := cmp.Diff(c, g.canonical()); d != "" {
		t.Errorf("order changed the histogram (-want +got):\n%s", d)
	}
	if d := cmp.Diff(Histogram{Counts: []int64{}}, (Histogram{Min: 9, Counts: make([]int64, 4)}).canonical()); d != "" {
		t.Errorf("empty canonical:\n%s", d)
	}
}

func TestHistogramLimits(t *testing.T) {
	var h Histogram
	if err := h.Add(MaxMetricValue); err != nil {
		t.Fatal(err)
	}
	if err := h.Add(-MaxMetricValue); err == nil || !strings.Contains(err.Error(), "span more than") {
		t.Errorf("wide span: %v", err)
	}
	for _, v := range []int{MaxMetricValue + 1, -MaxMetricValue - 1, math.MinInt, math.MaxInt} {
		if err := h.Add(v); err == nil || !strings.Contains(err.Error(), "outside the allowed") {
			t.Errorf("Add(%d): %v", v, err)
		}
	}
	if h.N() != 1 || len(h.Counts) > MaxSpan {
		t.Errorf("failed adds changed h: N %d, span %d", h.N(), len(h.Counts))
	}
	// Exactly MaxSpan values wide is allowed.
	var w Histogram
	if w.Add(0) != nil || w.Add(MaxSpan-1) != nil || w.Add(MaxSpan) == nil {
		t.Error("span limit is not exactly MaxSpan")
	}
	if len(w.Counts) > MaxSpan {
		t.Errorf("span %d", len(w.Counts))
	}
}

func TestHistogramMerge(t *testing.T) {
	a := Histogram{Min: 2, Counts: []int64{1, 0, 3}}
	if err := a.Merge(Histogram{Min: -1, Counts: []int64{0, 2, 0, 5, 0}}); err != nil {
		t.Fatal(err)
	}
	want := Histogram{Min: 0, Counts: []int64{2, 0, 6, 0, 3}}
	if d := cmp.Diff(want, a.canonical()); d != "" {
		t.Errorf("merge (-want +got):\n%s", d)
	}
	before := Histogram{Min: a.Min, Counts: append([]int64(nil), a.Counts...)}
	for _, tc := range []struct {
		o    Histogram
		want string
	}{
		{Histogram{Min: 1, Counts: []int64{-1}}, "negative count"},
		{Histogram{Min: MaxMetricValue, Counts: []int64{0, 1}}, "outside the allowed"},
		{Histogram{Min: MaxSpan, Counts: []int64{1}}, "span more than"},
	} {
		if err := a.Merge(tc.o); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Merge(%+v): %v, want %q", tc.o, err, tc.want)
		}
		if d := cmp.Diff(before, a); d != "" {
			t.Errorf("failed merge changed h:\n%s", d)
		}
	}
	if err := a.Merge(Histogram{}); err != nil || !cmp.Equal(before, a) {
		t.Errorf("empty merge: %v", err)
	}
}

func TestHistogramStatistics(t *testing.T) {
	// Values 1,1,2,3,3,3,10 (n = 7).
	h := Histogram{Min: 1, Counts: []int64{2, 1, 3, 0, 0, 0, 0, 0, 0, 1}}
	vals := []float64{1, 1, 2, 3, 3, 3, 10}
	mean := 0.0
	for _, v := range vals {
		mean += v
	}
	mean /= 7
	ss := 0.0
	for _, v := range vals {
		ss += (v - mean) * (v - mean)
	}
	if math.Abs(h.Mean()-mean) > 1e-15 || math.Abs(h.Variance()-ss/6) > 1e-12 || math.Abs(h.SE()-math.Sqrt(ss/6/7)) > 1e-12 {
		t.Errorf("mean %v var %v se %v; want %v %v", h.Mean(), h.Variance(), h.SE(), mean, ss/6)
	}
	// 0.28*25 is 7.000000000000001 in floating point; the 28% quantile of
	// 1..25 is still the 7th value.
	var ones Histogram
	for v := 1; v <= 25; v++ {
		ones.Add(v)
	}
	if got := ones.Quantile(0.28); got != 7 {
		t.Errorf("28%% of 1..25 = %d, want 7", got)
	}
	for _, tc := range []struct {
		q    float64
		want int
	}{{0, 1}, {-1, 1}, {2.0 / 7, 1}, {0.29, 2}, {3.0 / 7, 2}, {0.5, 3}, {6.0 / 7, 3}, {0.9, 10}, {1, 10}, {5, 10}} {
		if got := h.Quantile(tc.q); got != tc.want {
			t.Errorf("Quantile(%v) = %d, want %d", tc.q, got, tc.want)
		}
	}
	for _, tc := range []struct {
		k    int
		want float64
	}{{0, 0}, {1, 2.0 / 7}, {2, 3.0 / 7}, {5, 6.0 / 7}, {10, 1}, {99, 1}} {
		if got := h.AtMost(tc.k); got != tc.want {
			t.Errorf("AtMost(%d) = %v, want %v", tc.k, got, tc.want)
		}
	}
	if d := cmp.Diff(map[int]int64{1: 2, 2: 1, 3: 3, 10: 1}, h.Observed()); d != "" {
		t.Errorf("observed (-want +got):\n%s", d)
	}
	// Sums stay exact where float64 accumulation would not: 2^40 copies of
	// each of two values near the limit.
	big := Histogram{Min: MaxMetricValue - 1, Counts: []int64{1 << 40, 1 << 40}}
	if got, want := big.Mean(), float64(MaxMetricValue)-0.5; got != want {
		t.Errorf("big mean %v, want %v", got, want)
	}
	if got := big.Variance(); math.Abs(got-0.25) > 1e-12 {
		t.Errorf("big variance %v", got)
	}
	var empty Histogram
	if empty.Mean() != 0 || empty.Variance() != 0 || empty.SE() != 0 || empty.Quantile(0.5) != 0 || empty.AtMost(3) != 0 || empty.N() != 0 {
		t.Error("empty histogram statistics are not 0")
	}
	one := Histogram{Min: 4, Counts: []int64{1}}
	if one.Mean() != 4 || one.Variance() != 0 || one.SE() != 0 {
		t.Error("single value statistics")
	}
}

func TestHistogramFit(t *testing.T) {
	d6, _ := dice.Uniform(dice.D6)
	r := dice.NewSeeded(77)
	var h Histogram
	for range 6000 {
		h.Add(r.Roll(6))
	}
	fit, err := h.Fit(d6)
	if err != nil || fit.PValue < 1e-4 || fit.N != 6000 || fit.DF != 5 {
		t.Errorf("d6 vs uniform: %+v, %v", fit, err)
	}
	// A loaded die is rejected.
	loaded := dice.Dist{Min: 1, P: []float64{0.1, 0.1, 0.1, 0.1, 0.1, 0.5}}
	if fit, err := h.Fit(loaded); err != nil || fit.PValue > 1e-6 {
		t.Errorf("d6 fits a loaded die: %+v, %v", fit, err)
	}
	// A value the exact distribution cannot produce is an error.
	h.Add(7)
	if _, err := h.Fit(d6); err == nil {
		t.Error("a 7 on a d6 fitted")
	}
}

// Spare room kept for growth never counts against the span limit.
func TestHistogramSpareRoom(t *testing.T) {
	var h Histogram
	h.Add(0) // leaves room below 0 and above
	if h.Min >= 0 {
		t.Fatalf("expected spare room below 0, Min %d", h.Min)
	}
	if err := h.Merge(Histogram{Min: MaxSpan - 1, Counts: []int64{2}}); err != nil {
		t.Fatal(err)
	}
	if h.Count(0) != 1 || h.Count(MaxSpan-1) != 2 || len(h.Counts) > MaxSpan {
		t.Errorf("after merge: min %d span %d", h.Min, len(h.Counts))
	}
	var g Histogram
	g.Add(MaxSpan - 1)
	if err := g.Add(0); err != nil || g.Count(0) != 1 || len(g.Counts) > MaxSpan {
		t.Errorf("growing down to the limit: %v, span %d", err, len(g.Counts))
	}
}
