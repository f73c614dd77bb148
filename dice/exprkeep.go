package dice

import "fmt"

// keepIID returns the distribution of the sum of w(v) over the k highest
// (or, with highest false, the k lowest) values of n independent dice that
// each take value v with probability d.Prob(v); w takes values in
// wlo..whi. 1 <= k <= n.
//
// It is KeepHighestOf's sweep for dice of any one distribution: values are
// visited from the best down, and a die not yet placed is distributed as d
// conditioned on the values not yet visited, so the number showing the
// current value is binomial. Every die placed so far is kept, so the state
// is only (dice kept so far, their sum), and the cost is values x k x k x
// sums, never an enumeration of rolls.
func keepIID(d Dist, n, k int, highest bool, w func(int) int, wlo, whi int) (Dist, error) {
	d = d.trim() // the sweep's last value then has probability
	base := min(0, k*wlo)
	sums := max(0, k*whi) - base + 1
	cells := mulCapped(MaxCells, k, sums)
	work := mulCapped(MaxWork, len(d.P), cells, k)
	which := "lowest"
	if highest {
		which = "highest"
	}
	if cells > MaxCells || work > MaxWork {
		return Dist{}, fmt.Errorf("%w: keep %s %d of %d dice of %d outcomes takes more than %d cells or %d steps",
			ErrTooLarge, which, k, n, len(d.P), MaxCells, MaxWork)
	}
	cur, nxt := make([]float64, k*sums), make([]float64, k*sums)
	final := make([]float64, sums)
	pmf := make([]float64, k)
	cur[0-base] = 1
	rest := 1.0 // P(a die shows a value not yet visited)
	for step := range d.P {
		i := step
		if highest {
			i = len(d.P) - 1 - step
		}
		p := d.P[i]
		if p == 0 {
			continue
		}
		// The chance that a die not yet placed shows this value; the last
		// value with any probability takes them all.
		c := 1.0
		if p < rest && step < len(d.P)-1 {
			c = p / rest
		}
		rest -= p
		wv := w(d.Min + i)
		clear(nxt)
		for j := range k {
			r := n - j
			binomialHead(r, c, k-j, pmf)
			for s := range sums {
				q := cur[j*sums+s]
				if q == 0 {
					continue
				}
				tail := 1.0
				for m := 0; m < k-j && m <= r; m++ {
					tail -= pmf[m]
					nxt[(j+m)*sums+s+m*wv] += q * pmf[m]
				}
				if tail > 0 {
					// k-j or more show this value: the kept dice are
					// complete.
					final[s+(k-j)*wv] += q * tail
				}
			}
		}
		cur, nxt = nxt, cur
	}
	return Dist{Min: base, P: final}.trim(), nil
}
