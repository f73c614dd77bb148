package sim

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/dice/gof"
)

// Histogram counts integer values: Counts[i] is how many times the value
// Min+i occurred. Counts are exact integers, so histograms merge exactly.
// Reports keep histograms trimmed (no zero count at either end), which makes
// them canonical: the same values give the same Histogram however they were
// gathered.
type Histogram struct {
	Min    int     `json:"min"`
	Counts []int64 `json:"counts"`
}

// N returns the number of values counted.
func (h Histogram) N() int64 {
	var n int64
	for _, c := range h.Counts {
		n += c
	}
	return n
}

// Max returns the largest value with a slot (Min-1 when h is empty).
func (h Histogram) Max() int { return h.Min + len(h.Counts) - 1 }

// Count returns how many times v occurred.
func (h Histogram) Count(v int) int64 {
	i := v - h.Min
	if i < 0 || i >= len(h.Counts) {
		return 0
	}
	return h.Counts[i]
}

// AtMost returns the observed P(X <= k), for example P(finished by round k).
// It is 0 for an empty histogram.
func (h Histogram) AtMost(k int) float64 {
	n := h.N()
	if n == 0 {
		return 0
	}
	var s int64
	for i, c := range h.Counts {
		if h.Min+i > k {
			break
		}
		s += c
	}
	return float64(s) / float64(n)
}

// Quantile returns the smallest value v with observed P(X <= v) >= q (q is
// clamped to [0, 1]); Quantile(0.5) is the median. It is 0 for an empty
// histogram. Counts are compared as integers against ceil(q*n).
func (h Histogram) Quantile(q float64) int {
	n := h.N()
	if n == 0 {
		return 0
	}
	q = min(max(q, 0), 1)
	// Smallest v with count(X <= v) >= ceil(q*n), at least 1. The tiny
	// relative slack keeps q*n that should be an integer but rounded up
	// (0.28*25 = 7.000000000000001) from asking for one count too many.
	need := int64(math.Ceil(q * float64(n) * (1 - 1e-12)))
	need = min(max(need, 1), n)
	var s int64
	for i, c := range h.Counts {
		s += c
		if s >= need {
			return h.Min + i
		}
	}
	return h.Max()
}

// Mean returns the average value (0 for an empty histogram). The sum is
// taken exactly in integers, so the result is the correctly rounded
// quotient whenever the sum fits in 53 bits.
func (h Histogram) Mean() float64 {
	n := h.N()
	if n == 0 {
		return 0
	}
	hi, lo := h.offsetSum128()
	if hi == 0 && lo < 1<<62 && n < 1<<31 {
		// |Min| < 2^31, so Min*n + lo fits in an int64.
		return float64(int64(lo)+int64(h.Min)*n) / float64(n)
	}
	return float64(h.Min) + (float64(hi)*0x1p64+float64(lo))/float64(n)
}

// offsetSum128 returns sum of count*(value-Min) exactly, as a 128-bit
// unsigned integer (every term is non-negative).
func (h Histogram) offsetSum128() (hi, lo uint64) {
	for i, c := range h.Counts {
		ph, pl := bits.Mul64(uint64(c), uint64(i))
		var carry uint64
		lo, carry = bits.Add64(lo, pl, 0)
		hi += ph + carry
	}
	return hi, lo
}

// offsetSum is offsetSum128 rounded to float64.
func (h Histogram) offsetSum() float64 {
	hi, lo := h.offsetSum128()
	return float64(hi)*0x1p64 + float64(lo)
}

// Variance returns the sample variance (divisor n-1; 0 when fewer than two
// values), by a second pass over the values around the exact mean.
func (h Histogram) Variance() float64 {
	n := h.N()
	if n < 2 {
		return 0
	}
	mu := h.offsetSum() / float64(n)
	ss := 0.0
	for i, c := range h.Counts {
		if c == 0 {
			continue
		}
		d := float64(i) - mu
		ss += float64(c) * d * d
	}
	return ss / float64(n-1)
}

// SE returns the standard error of the mean, sqrt(Variance/n) (0 when
// fewer than two values).
func (h Histogram) SE() float64 {
	n := h.N()
	if n < 2 {
		return 0
	}
	return math.Sqrt(h.Variance() / float64(n))
}

// Observed returns the counts as a map from value to count (values never
// seen are left out), the form gof.ChiSquare takes.
func (h Histogram) Observed() map[int]int64 {
	m := make(map[int]int64)
	for i, c := range h.Counts {
		if c != 0 {
			m[h.Min+i] = c
		}
	}
	return m
}

// Fit checks the sampled distribution against the exact distribution d
// with Pearson's chi-square test (gof.ChiSquare: sparse outcomes pooled so
// each cell expects at least 5). A value d gives no probability fails the
// fit with an error. Use it at a fixed seed, so the check is deterministic.
func (h Histogram) Fit(d dice.Dist) (gof.Fit, error) {
	return gof.ChiSquare(d, h.Observed())
}

// Add counts one occurrence of v. Values must lie within ±MaxMetricValue
// and the histogram may span at most MaxSpan values.
func (h *Histogram) Add(v int) error {
	i := v - h.Min
	if uint(i) < uint(len(h.Counts)) {
		h.Counts[i]++
		return nil
	}
	return h.addSlow(v)
}

func (h *Histogram) addSlow(v int) error {
	if v < -MaxMetricValue || v > MaxMetricValue {
		return fmt.Errorf("value %d is outside the allowed ±%d", v, MaxMetricValue)
	}
	// The span limit is on the values seen, not on spare room.
	t := h.trim()
	lo, hi := v, v
	if len(t.Counts) > 0 {
		lo, hi = min(t.Min, v), max(t.Max(), v)
	}
	if hi-lo >= MaxSpan {
		return fmt.Errorf("values %d..%d span more than %d", lo, hi, MaxSpan)
	}
	if len(h.Counts) > 0 && max(hi, h.Max())-min(lo, h.Min) >= MaxSpan {
		*h = t // drop spare room that would break the span limit
	}
	// Leave room to grow in the direction values are heading, so a run
	// regrows only a handful of times.
	slack := max(16, (hi-lo+1)/2)
	var newLo, newHi int
	switch {
	case len(h.Counts) == 0:
		newLo, newHi = max(v-4, -MaxMetricValue), min(v+slack, MaxMetricValue)
	case v < h.Min:
		newHi = h.Max()
		newLo = max(v-slack, -MaxMetricValue, newHi-MaxSpan+1)
	default:
		newLo = h.Min
		newHi = min(v+slack, MaxMetricValue, newLo+MaxSpan-1)
	}
	h.widen(newLo, newHi)
	h.Counts[v-h.Min]++
	return nil
}

// widen makes room for the values lo..hi (which include the current range).
func (h *Histogram) widen(lo, hi int) {
	if len(h.Counts) > 0 {
		lo, hi = min(lo, h.Min), max(hi, h.Max())
		if lo == h.Min && hi == h.Max() {
			return
		}
	}
	c := padded(hi - lo + 1)
	if len(h.Counts) > 0 {
		copy(c[h.Min-lo:], h.Counts)
	}
	h.Min, h.Counts = lo, c
}

// Merge adds the counts of o to h. It fails, leaving h unchanged, if the
// result would break the limits of Add or a count is negative.
func (h *Histogram) Merge(o Histogram) error {
	o = o.trim()
	if len(o.Counts) == 0 {
		return nil
	}
	for i, c := range o.Counts {
		if c < 0 {
			return fmt.Errorf("negative count %d for value %d", c, o.Min+i)
		}
	}
	if o.Min < -MaxMetricValue || o.Max() > MaxMetricValue {
		return fmt.Errorf("values %d..%d fall outside the allowed ±%d", o.Min, o.Max(), MaxMetricValue)
	}
	lo, hi := o.Min, o.Max()
	if t := h.trim(); len(t.Counts) > 0 {
		lo, hi = min(lo, t.Min), max(hi, t.Max())
	}
	if hi-lo >= MaxSpan {
		return fmt.Errorf("values %d..%d span more than %d", lo, hi, MaxSpan)
	}
	if len(h.Counts) > 0 && max(hi, h.Max())-min(lo, h.Min) >= MaxSpan {
		*h = h.trim() // drop zero padding that would break the span limit
	}
	h.widen(lo, hi)
	off := o.Min - h.Min
	for i, c := range o.Counts {
		h.Counts[off+i] += c
	}
	return nil
}

// trim returns h without zero counts at either end (sharing storage).
func (h Histogram) trim() Histogram {
	a, b := 0, len(h.Counts)
	for a < b && h.Counts[a] == 0 {
		a++
	}
	for b > a && h.Counts[b-1] == 0 {
		b--
	}
	if a == b {
		return Histogram{}
	}
	return Histogram{Min: h.Min + a, Counts: h.Counts[a:b]}
}

// canonical returns a trimmed copy that shares nothing with h.
func (h Histogram) canonical() Histogram {
	t := h.trim()
	if len(t.Counts) == 0 {
		return Histogram{Counts: []int64{}}
	}
	return Histogram{Min: t.Min, Counts: append([]int64(nil), t.Counts...)}
}

// padded returns n zero counters with 64 unused bytes on each side, so
// counters that different workers update never share a cache line.
func padded(n int) []int64 {
	return make([]int64, n+16)[8 : 8+n : 8+n]
}
