package dice

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// Dist is an exact probability distribution over a range of integers:
// P[i] is the probability of the outcome Min+i. Distributions built by this
// package sum to 1 up to rounding (about 1e-15) and carry no zero tail at
// either end, except that a point mass at 0 is Point(0).
//
// A Dist is a plain value, like gonum's distuv types: the methods answer
// questions about it and never change it.
type Dist struct {
	Min int
	P   []float64
}

// MaxOutcomes bounds how many distinct outcomes an exact distribution may
// span; building a larger one is an error, not an out-of-memory crash.
const MaxOutcomes = 1 << 24

// ErrTooLarge is wrapped by errors for distributions wider than MaxOutcomes.
var ErrTooLarge = errors.New("dice: distribution too large")

// Point returns the distribution that is v with certainty.
func Point(v int) Dist { return Dist{Min: v, P: []float64{1}} }

// Uniform returns the distribution of one die: 1..sides, each 1/sides.
func Uniform(d Die) (Dist, error) {
	if err := d.Check(); err != nil {
		return Dist{}, err
	}
	p := make([]float64, int(d))
	for i := range p {
		p[i] = 1 / float64(d)
	}
	return Dist{Min: 1, P: p}, nil
}

// Max returns the largest outcome with a probability entry.
func (d Dist) Max() int { return d.Min + len(d.P) - 1 }

// Prob returns P(X = x).
func (d Dist) Prob(x int) float64 {
	i := x - d.Min
	if i < 0 || i >= len(d.P) {
		return 0
	}
	return d.P[i]
}

// CDF returns P(X <= x).
func (d Dist) CDF(x int) float64 {
	i := x - d.Min
	if i < 0 {
		return 0
	}
	if i >= len(d.P)-1 {
		return 1
	}
	s := 0.0
	for _, p := range d.P[:i+1] {
		s += p
	}
	return min(s, 1)
}

// AtLeast returns P(X >= x).
func (d Dist) AtLeast(x int) float64 {
	i := x - d.Min
	if i <= 0 {
		return 1
	}
	if i >= len(d.P) {
		return 0
	}
	s := 0.0
	for _, p := range d.P[i:] {
		s += p
	}
	return min(s, 1)
}

// Mean returns E[X] = sum of x P(x).
func (d Dist) Mean() float64 {
	m := 0.0
	for i, p := range d.P {
		m += float64(d.Min+i) * p
	}
	return m
}

// Variance returns E[(X - E[X])^2].
func (d Dist) Variance() float64 {
	mu := d.Mean()
	v := 0.0
	for i, p := range d.P {
		x := float64(d.Min+i) - mu
		v += x * x * p
	}
	return v
}

// StdDev returns the square root of the variance.
func (d Dist) StdDev() float64 { return math.Sqrt(d.Variance()) }

// Quantile returns the smallest x with P(X <= x) >= q, for 0 <= q <= 1
// (q outside is clamped). Quantile(0.5) is the median.
func (d Dist) Quantile(q float64) int {
	if len(d.P) == 0 {
		return d.Min
	}
	q = min(max(q, 0), 1)
	s := 0.0
	for i, p := range d.P {
		s += p
		// Allow for rounding so that Quantile(1) is the largest outcome
		// with positive probability.
		if s >= q-1e-12 && p > 0 || s >= q+1e-12 {
			return d.Min + i
		}
	}
	return d.Max()
}

// Total returns the sum of the probabilities (1 up to rounding).
func (d Dist) Total() float64 {
	s := 0.0
	for _, p := range d.P {
		s += p
	}
	return s
}

// Shift returns the distribution of X + k.
func (d Dist) Shift(k int) Dist { return Dist{Min: d.Min + k, P: slices.Clone(d.P)} }

// Add returns the distribution of X + Y for independent X ~ d and Y ~ e
// (their convolution). It fails only when the result would span more than
// MaxOutcomes values.
func (d Dist) Add(e Dist) (Dist, error) {
	if len(d.P) == 0 || len(e.P) == 0 {
		return Dist{}, errors.New("dice: adding an empty distribution")
	}
	n := len(d.P) + len(e.P) - 1
	if n > MaxOutcomes {
		return Dist{}, fmt.Errorf("%w: a sum spanning %d outcomes exceeds %d", ErrTooLarge, n, MaxOutcomes)
	}
	out := make([]float64, n)
	for i, p := range d.P {
		if p == 0 {
			continue
		}
		for j, q := range e.P {
			out[i+j] += p * q
		}
	}
	return Dist{Min: d.Min + e.Min, P: out}, nil
}

// Greater returns P(X > Y) for independent X ~ d and Y ~ e.
func (d Dist) Greater(e Dist) float64 { return d.compare(e, false) }

// AtLeastDist returns P(X >= Y) for independent X ~ d and Y ~ e.
func (d Dist) AtLeastDist(e Dist) float64 { return d.compare(e, true) }

func (d Dist) compare(e Dist, orEqual bool) float64 {
	// Sweep Y's outcomes, keeping P(X > y) (or >= y) from X's tail.
	s := 0.0
	for j, q := range e.P {
		if q == 0 {
			continue
		}
		y := e.Min + j
		if orEqual {
			s += q * d.AtLeast(y)
		} else {
			s += q * d.AtLeast(y+1)
		}
	}
	return s
}

// trim drops zero-probability entries at both ends.
func (d Dist) trim() Dist {
	lo, hi := 0, len(d.P)
	for lo < hi-1 && d.P[lo] == 0 {
		lo++
	}
	for hi-1 > lo && d.P[hi-1] == 0 {
		hi--
	}
	return Dist{Min: d.Min + lo, P: d.P[lo:hi]}
}

// checkDice validates a list of dice for the exact constructors.
func checkDice(ds []Die) error {
	if len(ds) > MaxDice {
		return fmt.Errorf("dice: %d dice is too many: at most %d", len(ds), MaxDice)
	}
	for _, d := range ds {
		if err := d.Check(); err != nil {
			return err
		}
	}
	return nil
}

// SumOf returns the exact distribution of the sum of the dice.
func SumOf(ds []Die) (Dist, error) {
	if err := checkDice(ds); err != nil {
		return Dist{}, err
	}
	span := 1
	for _, d := range ds {
		span += int(d) - 1
		if span > MaxOutcomes {
			return Dist{}, fmt.Errorf("%w: the sum of %d dice spans more than %d outcomes", ErrTooLarge, len(ds), MaxOutcomes)
		}
	}
	out := Point(0)
	for _, g := range groups(ds) {
		u, _ := Uniform(g.die)
		// Repeated squaring would save little here; plain convolution is
		// exact and the span check above bounds the work.
		for i := 0; i < g.n; i++ {
			var err error
			if out, err = out.Add(u); err != nil {
				return Dist{}, err
			}
		}
	}
	return out, nil
}

type group struct {
	die Die
	n   int
}

// groups returns the distinct sizes of ds, largest first, with counts.
func groups(ds []Die) []group {
	s := slices.Clone(ds)
	slices.SortFunc(s, func(a, b Die) int { return int(b) - int(a) })
	var gs []group
	for _, d := range s {
		if len(gs) > 0 && gs[len(gs)-1].die == d {
			gs[len(gs)-1].n++
			continue
		}
		gs = append(gs, group{d, 1})
	}
	return gs
}

// HighestOf returns the exact distribution of the highest face among the
// dice (0 for no dice): P(max <= v) is the product over dice of P(die <= v).
func HighestOf(ds []Die) (Dist, error) {
	if err := checkDice(ds); err != nil {
		return Dist{}, err
	}
	if len(ds) == 0 {
		return Point(0), nil
	}
	gs := groups(ds)
	top := int(gs[0].die)
	cdf := func(v int) float64 {
		c := 1.0
		for _, g := range gs {
			if v < int(g.die) {
				c *= math.Pow(float64(v)/float64(g.die), float64(g.n))
			}
		}
		return c
	}
	p := make([]float64, top)
	prev := 0.0
	for v := 1; v <= top; v++ {
		c := cdf(v)
		p[v-1] = c - prev
		prev = c
	}
	return Dist{Min: 1, P: p}.trim(), nil
}

// SuccessesOf returns the exact distribution of how many dice show target
// or more (a Poisson-binomial over the sizes, built group by group from
// binomial counts).
func SuccessesOf(ds []Die, target int) (Dist, error) {
	if err := checkDice(ds); err != nil {
		return Dist{}, err
	}
	out := Point(0)
	for _, g := range groups(ds) {
		hit := 0.0
		switch {
		case target <= 1:
			hit = 1
		case target <= int(g.die):
			hit = float64(int(g.die)-target+1) / float64(g.die)
		}
		b := binomialDist(g.n, hit)
		var err error
		if out, err = out.Add(b); err != nil {
			return Dist{}, err
		}
	}
	return out.trim(), nil
}

// binomialDist returns Binomial(n, p) on 0..n.
func binomialDist(n int, p float64) Dist {
	out := make([]float64, n+1)
	switch {
	case p <= 0:
		out[0] = 1
	case p >= 1:
		out[n] = 1
	default:
		lp, lq := math.Log(p), math.Log1p(-p)
		for k := 0; k <= n; k++ {
			out[k] = math.Exp(logChoose(n, k) + float64(k)*lp + float64(n-k)*lq)
		}
	}
	return Dist{Min: 0, P: out}
}

func logChoose(n, k int) float64 {
	a, _ := math.Lgamma(float64(n + 1))
	b, _ := math.Lgamma(float64(k + 1))
	c, _ := math.Lgamma(float64(n - k + 1))
	return a - b - c
}

// KeepHighestOf returns the exact distribution of the sum of the k highest
// faces among the dice, with faces in exclude not counted (they are read as
// if the die were not there). If fewer than k dice show counted faces, those
// are summed, so the two highest of a roll of all 1s with 1s excluded is 0.
// k must be between 1 and the number of dice.
//
// It never enumerates rolls. It works face by face from the top: once a
// size's excluded faces are set aside, every die still unassigned is
// uniform over the counted faces at or below the current one, whatever its
// size, so the number showing the current face is binomial and the state is
// only (dice still unassigned, dice kept so far, their sum). The cost is
// about faces x dice x k x (k x top face), well under a millisecond for
// 100d6 keep 3 or the two highest of twenty mixed d4..d12.
func KeepHighestOf(ds []Die, k int, exclude FaceSet) (Dist, error) {
	if err := checkDice(ds); err != nil {
		return Dist{}, err
	}
	if k < 1 || k > len(ds) {
		return Dist{}, fmt.Errorf("dice: keep %d of %d dice: k must be 1..%d", k, len(ds), len(ds))
	}
	gs := groups(ds)
	top := int(gs[0].die)
	if top*k > MaxOutcomes {
		return Dist{}, fmt.Errorf("%w: keep %d of dice up to d%d", ErrTooLarge, k, top)
	}
	if top > 4096 {
		return Dist{}, fmt.Errorf("%w: face-by-face evaluation supports dice up to d4096, not d%d", ErrTooLarge, top)
	}
	n := len(ds)
	maxSum := k * top
	// final[s] collects probability of finished readings with sum s.
	final := make([]float64, maxSum+1)
	// cur[r][j][s]: r dice unassigned (active or not yet active), j kept
	// (j < k), sum s. Stored flat.
	idx := func(r, j, s int) int { return (r*k+j)*(maxSum+1) + s }
	size := (n + 1) * k * (maxSum + 1)
	cur := make([]float64, size)
	nxt := make([]float64, size)

	// Counted faces at or below v, for the conditional uniform.
	countedUpTo := make([]int, top+1)
	for v := 1; v <= top; v++ {
		countedUpTo[v] = countedUpTo[v-1]
		if !exclude.Has(v) {
			countedUpTo[v]++
		}
	}

	// Activation: when the sweep reaches a group's top face, each of its dice
	// is excluded (shows an excluded face) with probability e/s, otherwise it
	// joins the unassigned dice uniform on counted faces <= s. inactive counts
	// dice of smaller sizes, which are waiting.
	cur[idx(0, 0, 0)] = 1
	inactive := n
	gi := 0
	pmf := make([]float64, n+1)
	for v := top; v >= 1; v-- {
		// Activate groups whose size is v.
		for gi < len(gs) && int(gs[gi].die) == v {
			g := gs[gi]
			gi++
			inactive -= g.n
			excl := float64(v-countedUpTo[v]) / float64(v)
			b := binomialDist(g.n, 1-excl) // number of this group's dice that join
			clear(nxt)
			for r := 0; r <= n-inactive-g.n; r++ {
				for j := 0; j < k; j++ {
					for s := 0; s <= maxSum; s++ {
						q := cur[idx(r, j, s)]
						if q == 0 {
							continue
						}
						for a, pb := range b.P {
							if pb != 0 {
								nxt[idx(r+a, j, s)] += q * pb
							}
						}
					}
				}
			}
			cur, nxt = nxt, cur
		}
		if exclude.Has(v) {
			continue
		}
		c := countedUpTo[v]
		pv := 1 / float64(c)
		clear(nxt)
		for r := 0; r <= n; r++ {
			// pmf of m ~ Binomial(r, 1/c) for m < k, the rest lumped.
			binomialHead(r, pv, k, pmf)
			for j := 0; j < k; j++ {
				base := idx(r, j, 0)
				for s := 0; s <= maxSum; s++ {
					q := cur[base+s]
					if q == 0 {
						continue
					}
					need := k - j
					tail := 1.0
					for m := 0; m < need && m <= r; m++ {
						pm := pmf[m]
						tail -= pm
						if pm == 0 {
							continue
						}
						if m == 0 {
							nxt[base+s] += q * pm
						} else {
							nxt[idx(r-m, j+m, s+m*v)] += q * pm
						}
					}
					if need <= r && tail > 0 {
						// need or more show v: the reading is complete.
						final[s+need*v] += q * tail
					}
				}
			}
		}
		cur, nxt = nxt, cur
	}
	// Whatever is left has fewer than k counted dice: its sum stands.
	for r := 0; r <= n; r++ {
		for j := 0; j < k; j++ {
			for s := 0; s <= maxSum; s++ {
				final[s] += cur[idx(r, j, s)]
			}
		}
	}
	return Dist{Min: 0, P: final}.trim(), nil
}

// binomialHead fills pmf[m] = P(Binomial(n, p) = m) for m < k (and m <= n).
func binomialHead(n int, p float64, k int, pmf []float64) {
	if p >= 1 {
		for m := 0; m < k && m <= n; m++ {
			pmf[m] = 0
		}
		if n < k {
			pmf[n] = 1
		}
		return
	}
	q := 1 - p
	pm := math.Pow(q, float64(n))
	for m := 0; m < k && m <= n; m++ {
		pmf[m] = pm
		pm *= float64(n-m) / float64(m+1) * p / q
	}
}
