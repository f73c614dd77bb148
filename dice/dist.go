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
// A Dist built by hand must keep its outcomes in the int range
// (Min+len(P)-1 <= math.MaxInt); every Dist this package builds does.
type Dist struct {
	Min int
	P   []float64
}

// Limits on exact constructions, checked before anything is allocated, so
// that no argument can exhaust memory or run for hours: building past them
// is an error wrapping ErrTooLarge. The largest uses the package is meant
// for fit well inside: 10000d6 summed (about 1.5e9 steps, a second or
// two), 10000d6 keep 3, 100d6 keep lowest 3, twenty mixed d4..d12 keep 2.
const (
	// MaxOutcomes bounds how many distinct outcomes an exact
	// distribution may span.
	MaxOutcomes = 1 << 24
	// MaxCells bounds the working table of a keep-highest or keep-lowest
	// construction, in probabilities held at once (32 MB each).
	MaxCells = 1 << 22
	// MaxWork bounds the multiply-adds of one exact construction.
	MaxWork = 1 << 31
)

// ErrTooLarge is wrapped by errors for exact constructions past the limits
// above, and for outcomes that would leave the int range.
var ErrTooLarge = errors.New("dice: distribution too large")

// mulCapped returns the product of xs (each >= 0), or limit+1 once it
// passes limit, so that no count of work or memory overflows.
func mulCapped(limit int, xs ...int) int {
	p := 1
	for _, x := range xs {
		if x != 0 && p > limit/x {
			return limit + 1
		}
		p *= x
	}
	return p
}

// addInt returns a+b and whether it fits in an int.
func addInt(a, b int) (int, bool) {
	c := a + b
	return c, (c > a) == (b > 0)
}

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

// offset returns x - Min, as the index of x in P when 0 <= it < len(P):
// -1 for an x below Min and len(P) for one above the last outcome, with no
// overflow for any x.
func (d Dist) offset(x int) int {
	if x < d.Min {
		return -1
	}
	// x >= Min, so their difference fits in a uint.
	if u := uint(x) - uint(d.Min); u < uint(len(d.P)) {
		return int(u)
	}
	return len(d.P)
}

// Prob returns P(X = x).
func (d Dist) Prob(x int) float64 {
	i := d.offset(x)
	if i < 0 || i >= len(d.P) {
		return 0
	}
	return d.P[i]
}

// CDF returns P(X <= x).
func (d Dist) CDF(x int) float64 {
	i := d.offset(x)
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
	i := d.offset(x)
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

// Shift returns the distribution of X + k (a flat modifier on a roll). It
// fails, wrapping ErrTooLarge, when an outcome would leave the int range.
func (d Dist) Shift(k int) (Dist, error) {
	lo, ok1 := addInt(d.Min, k)
	last, ok2 := addInt(d.Min, len(d.P)-1)
	_, ok3 := addInt(last, k)
	if !ok1 || !ok2 || !ok3 {
		return Dist{}, fmt.Errorf("%w: shifting outcomes from %d by %d leaves the int range", ErrTooLarge, d.Min, k)
	}
	return Dist{Min: lo, P: slices.Clone(d.P)}, nil
}

// Add returns the distribution of X + Y for independent X ~ d and Y ~ e
// (their convolution). It fails when either is empty, and wraps ErrTooLarge
// when the result would span more than MaxOutcomes values, take more than
// MaxWork steps, or hold outcomes outside the int range.
func (d Dist) Add(e Dist) (Dist, error) {
	if len(d.P) == 0 || len(e.P) == 0 {
		return Dist{}, errors.New("dice: adding an empty distribution")
	}
	n := len(d.P) + len(e.P) - 1
	if n > MaxOutcomes {
		return Dist{}, fmt.Errorf("%w: a sum spanning %d outcomes exceeds %d", ErrTooLarge, n, MaxOutcomes)
	}
	// Both lengths are below MaxOutcomes now, so their product is exact.
	if w := len(d.P) * len(e.P); w > MaxWork {
		return Dist{}, fmt.Errorf("%w: adding distributions of %d and %d outcomes takes more than %d steps", ErrTooLarge, len(d.P), len(e.P), MaxWork)
	}
	lo, ok1 := addInt(d.Min, e.Min)
	_, ok2 := addInt(lo, n-1)
	if !ok1 || !ok2 {
		return Dist{}, fmt.Errorf("%w: the sum of outcomes from %d and from %d leaves the int range", ErrTooLarge, d.Min, e.Min)
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
	return Dist{Min: lo, P: out}, nil
}

// Greater returns P(X > Y) for independent X ~ d and Y ~ e.
func (d Dist) Greater(e Dist) float64 { return d.compare(e, false) }

// AtLeastDist returns P(X >= Y) for independent X ~ d and Y ~ e.
func (d Dist) AtLeastDist(e Dist) float64 { return d.compare(e, true) }

func (d Dist) compare(e Dist, orEqual bool) float64 {
	if orEqual {
		return d.BeatsBy(e, 0)
	}
	return d.BeatsBy(e, 1)
}

// BeatsBy returns P(X - Y >= m) for independent X ~ d and Y ~ e: the
// chance to win by m or more (m = 5: "win by 5 or more"; m = 1 is Greater,
// m = 0 AtLeastDist, and a negative m allows a loss by up to -m). Any m
// is allowed; no outcome overflows.
func (d Dist) BeatsBy(e Dist, m int) float64 {
	// Sweep Y's outcomes y, adding P(Y = y) P(X >= y + m).
	s := 0.0
	for j, q := range e.P {
		if q == 0 {
			continue
		}
		y := e.Min + j
		t, ok := addInt(y, m)
		switch {
		case ok:
			s += q * d.AtLeast(t)
		case m < 0:
			s += q // y + m is below every int, so every X reaches it
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

// countDice validates a list of dice, as checkDice, and returns the
// largest (0 for none), counting the dice of each size smaller than
// len(counts) into counts[size].
func countDice(ds []Die, counts []int) (int, error) {
	if len(ds) > MaxDice {
		return 0, checkDice(ds)
	}
	top := 0
	for _, d := range ds {
		if !d.Valid() {
			return 0, d.Check()
		}
		top = max(top, int(d))
		if int(d) < len(counts) {
			counts[d]++
		}
	}
	return top, nil
}

// SumOf returns the exact distribution of the sum of the dice.
func SumOf(ds []Die) (Dist, error) {
	if err := checkDice(ds); err != nil {
		return Dist{}, err
	}
	// Adding a die of s sides to a sum spanning w outcomes takes w x s
	// steps; dice and sizes are bounded, so neither count overflows.
	span, work := 1, 0
	for _, d := range ds {
		work += span * int(d)
		span += int(d) - 1
		if span > MaxOutcomes {
			return Dist{}, fmt.Errorf("%w: the sum of %d dice spans more than %d outcomes", ErrTooLarge, len(ds), MaxOutcomes)
		}
		if work > MaxWork {
			return Dist{}, fmt.Errorf("%w: the sum of %d dice takes more than %d steps (10000d6 is about 1.5e9)", ErrTooLarge, len(ds), MaxWork)
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

// KeepHighestOf returns the exact distribution of the sum of the k highest
// faces among the dice, with faces in exclude not counted (they are read as
// if the die were not there). If fewer than k dice show counted faces, those
// are summed, so the two highest of a roll of all 1s with 1s excluded is 0.
// k must be between 1 and the number of dice.
//
// It never enumerates rolls. It counts patterns face by face from the
// top: until k dice are kept, every die that showed a face already
// visited is kept. When the faces excluded are none or the lowest ones
// (the 1s, as Cortex reads a pool), that is all the state needs: j dice
// kept so far and their sum. The dice that can show the current face v
// and are not yet kept are each uniform on 1..v, whatever their size,
// so the number showing v is binomial; the cost is about faces x k x
// sums x k, whatever the number of dice and sizes (keepTop states it in
// full): 100d6 keep 3 and the three highest of twenty mixed d4..d12
// take a few microseconds.
//
// Other exclusions (a 6 not counted) take one of two sweeps, whichever
// is less work: once a size's excluded faces are set aside, every die
// still unassigned is uniform over the counted faces at or below the
// current one, so the state is (dice still unassigned, dice kept so far,
// their sum), at a cost of about faces x dice x k x (k x top face); or
// the state is how many dice of each size are kept so far and their sum,
// at faces x sizes x states x sums x k. All three ways give the same
// answer to 1e-12.
func KeepHighestOf(ds []Die, k int, exclude FaceSet) (Dist, error) {
	var small [130]int
	top, err := countDice(ds, small[:])
	if err != nil {
		return Dist{}, err
	}
	if k < 1 || k > len(ds) {
		return Dist{}, fmt.Errorf("dice: keep %d of %d dice: k must be 1..%d", k, len(ds), len(ds))
	}
	if e, ok := lowFaces(exclude, top); ok && countPatterns {
		return keepTop(ds, small[:], top, k, e)
	}
	gs := groups(ds)
	n := len(ds)
	sums, err := keepSums("highest", k, top)
	if err != nil {
		return Dist{}, err
	}
	// The table is (dice unassigned, dice kept, sum); each face moves
	// each cell to at most k others, and a group of g dice joining moves
	// the cells of the dice already joined to g+1 others.
	cells := mulCapped(MaxCells, n+1, k, sums)
	work := mulCapped(MaxWork, top, cells, k)
	joined := 0
	for _, g := range gs {
		work += mulCapped(MaxWork, joined+1, k, sums, g.n+1)
		joined += g.n
	}
	if d, ok, err := keepCounted(gs, k, exclude, true, work); ok {
		return d, err
	}
	if err := checkKeep("highest", n, k, top, cells, work); err != nil {
		return Dist{}, err
	}
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
						for i, pb := range b.P {
							if pb != 0 {
								nxt[idx(r+b.Min+i, j, s)] += q * pb
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
				need := k - j
				tail := -1.0 // binomialRest(r, pv, need, pmf), once a cell needs it
				for s := 0; s <= maxSum; s++ {
					q := cur[base+s]
					if q == 0 {
						continue
					}
					if tail < 0 {
						tail = binomialRest(r, pv, need, pmf)
					}
					for m := 0; m < need && m <= r; m++ {
						pm := pmf[m]
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

// keepSums returns how many totals k kept dice up to d(top) span
// (0..k x top), or an error when that passes MaxOutcomes.
func keepSums(which string, k, top int) (int, error) {
	sums := mulCapped(MaxOutcomes, k, top) + 1
	if sums > MaxOutcomes {
		return 0, fmt.Errorf("%w: keep %s %d of dice up to d%d spans more than %d totals", ErrTooLarge, which, k, top, MaxOutcomes)
	}
	return sums, nil
}

// checkKeep bounds a keep-highest or keep-lowest construction of k of n
// dice up to d(top), whose table holds cells probabilities and which takes
// work steps, before it allocates.
func checkKeep(which string, n, k, top, cells, work int) error {
	if cells > MaxCells {
		return fmt.Errorf("%w: keep %s %d of %d dice up to d%d needs a table of more than %d cells", ErrTooLarge, which, k, n, top, MaxCells)
	}
	if work > MaxWork {
		return fmt.Errorf("%w: keep %s %d of %d dice up to d%d takes more than %d steps", ErrTooLarge, which, k, n, top, MaxWork)
	}
	return nil
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

// binomialRest returns P(Binomial(n, p) >= k), given pmf[m] for m < k as
// binomialHead fills it. Where the head holds nearly all the mass, one
// less the head would round a tail below 1e-16 away (three exploding
// dice all at their bound: 2.3e-17), so the tail is summed term by term
// instead, from pmf[k-1] on, until the terms no longer change the sum;
// the terms fall geometrically there (the head's mass means the mode lies
// below k), and at most 64 are taken.
func binomialRest(n int, p float64, k int, pmf []float64) float64 {
	if k > n {
		return 0
	}
	rest := 1.0
	for m := 0; m < k; m++ {
		rest -= pmf[m]
	}
	if rest > 1e-3 || p <= 0 || p >= 1 || k == 0 {
		return max(rest, 0)
	}
	q := 1 - p
	var term float64
	if k == 1 {
		term = -math.Expm1(float64(n) * math.Log1p(-p)) // P(X >= 1) outright
		return term
	}
	term = pmf[k-1] * float64(n-k+1) / float64(k) * p / q // P(X = k)
	sum := 0.0
	for m := k; m <= n && m < k+64; m++ {
		sum += term
		if term <= sum*1e-18 {
			break
		}
		term *= float64(n-m) / float64(m+1) * p / q
	}
	return sum
}
