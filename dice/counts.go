package dice

import (
	"fmt"
	"math"
)

// Binomial returns the exact distribution of the number of successes in n
// independent trials that each succeed with probability p:
// P(k) = C(n, k) p^k (1-p)^(n-k), k = 0..n (how many of n d6 show a 6,
// with p = 1/6). n must be 0..MaxOutcomes-1 and p in [0, 1].
func Binomial(n int, p float64) (Dist, error) {
	if n < 0 || n >= MaxOutcomes {
		return Dist{}, fmt.Errorf("%w: Binomial(%d, p): n must be 0..%d", ErrTooLarge, n, MaxOutcomes-1)
	}
	if !(p >= 0 && p <= 1) {
		return Dist{}, fmt.Errorf("dice: Binomial(n, %v): p must be a probability in [0, 1]", p)
	}
	return binomialDist(n, p), nil
}

// binomialDist is Binomial for arguments already checked.
func binomialDist(n int, p float64) Dist {
	switch {
	case p <= 0:
		return Point(0)
	case p >= 1:
		return Point(n)
	}
	if n <= directBinomial {
		return binomialDirect(n, p)
	}
	// Successive terms differ by the factor (n-k)/(k+1) x p/(1-p).
	odds := p / (1 - p)
	mode := min(int(float64(n+1)*p), n)
	return fromMode(0, n, mode, func(k int) float64 {
		return float64(n-k) / float64(k+1) * odds
	})
}

// directBinomial is the largest n whose Binomial terms are computed
// straight from C(n, k) p^k (1-p)^(n-k): the coefficients are exact
// integers in a float64 up to here, so each term is within a few
// roundings of the true value.
const directBinomial = 50

// binomialDist for n <= directBinomial and 0 < p < 1.
func binomialDirect(n int, p float64) Dist {
	out := make([]float64, n+1)
	c := 1.0 // C(n, k)
	for k := 0; k <= n; k++ {
		out[k] = c * math.Pow(p, float64(k)) * math.Pow(1-p, float64(n-k))
		c = c * float64(n-k) / float64(k+1)
	}
	return Dist{Min: 0, P: out}.trim()
}

// Hypergeometric returns the exact distribution of how many of the marked
// items turn up when draws items are taken without replacement from a
// population holding successes marked ones (how many of the 4 aces a
// 5-card hand from a 52-card deck holds):
// P(k) = C(successes, k) C(population-successes, draws-k) / C(population, draws).
// It needs 0 <= successes <= population and 0 <= draws <= population; the
// outcomes it spans, at most min(successes, draws)+1, must be fewer than
// MaxOutcomes.
func Hypergeometric(population, successes, draws int) (Dist, error) {
	if population < 0 || successes < 0 || successes > population || draws < 0 || draws > population {
		return Dist{}, fmt.Errorf("dice: Hypergeometric(%d, %d, %d): need 0 <= successes <= population and 0 <= draws <= population",
			population, successes, draws)
	}
	failures := population - successes
	lo := max(0, draws-failures)
	hi := min(draws, successes)
	if hi-lo >= MaxOutcomes {
		return Dist{}, fmt.Errorf("%w: Hypergeometric(%d, %d, %d) spans %d outcomes, more than %d",
			ErrTooLarge, population, successes, draws, hi-lo+1, MaxOutcomes)
	}
	if lo == hi {
		return Point(lo), nil
	}
	// The mode is near (draws+1)(successes+1)/(population+2); successive
	// terms differ by (successes-k)(draws-k) / ((k+1)(failures-draws+k+1)).
	m := (float64(draws) + 1) * (float64(successes) + 1) / (float64(population) + 2)
	mode := min(max(int(m), lo), hi)
	return fromMode(lo, hi, mode, func(k int) float64 {
		return float64(successes-k) * float64(draws-k) / (float64(k+1) * float64(failures-draws+k+1))
	}), nil
}

// fromMode returns the distribution on lo..hi whose successive
// probabilities have the ratios P(k+1)/P(k) = ratio(k), built outward from
// the most likely outcome so no term overflows, then normalised. Tails too
// small for a float64 are dropped.
func fromMode(lo, hi, mode int, ratio func(k int) float64) Dist {
	p := make([]float64, hi-lo+1)
	p[mode-lo] = 1
	sum := 1.0
	for k := mode; k < hi; k++ {
		v := p[k-lo] * ratio(k)
		if v == 0 || math.IsNaN(v) {
			break
		}
		p[k+1-lo] = v
		sum += v
	}
	for k := mode - 1; k >= lo; k-- {
		v := p[k+1-lo] / ratio(k)
		if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
			break
		}
		p[k-lo] = v
		sum += v
	}
	for i := range p {
		p[i] /= sum
	}
	return Dist{Min: lo, P: p}.trim()
}
