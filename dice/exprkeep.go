package dice

import "fmt"

// keepPart is one size of die in a keep or drop: n dice, each with value
// distribution d, and adds(v): the distribution of what a kept die of this
// size adds to the term when its value is v, as its least outcome and the
// probabilities from there on, summing to 1. A die summed adds v itself; a
// die counted once adds its success or failure on v; a die of ! that
// counts each roll adds its rolls' successes, which its value does not
// fix.
type keepPart struct {
	n    int
	d    Dist
	adds func(v int) (lo int, p []float64)
}

// keepOf returns the distribution of what the k highest (or, with highest
// false, the k lowest) values of independent dice add, parts[g].n of them
// distributed as parts[g]; what one die adds lies in alo..ahi and spreads
// over at most width outcomes for one value; 1 <= k <= the number of dice.
// Of dice showing the same value, those of the earlier parts are kept
// first, as Roll keeps the earlier dice of a tie.
//
// It is KeepHighestOf's sweep for dice of any distributions: values are
// visited from the best down and, within a value, sizes in order; a die
// not yet placed is distributed as its own distribution conditioned on
// the values not yet visited, so the number of a size showing the
// current value is binomial. Every die placed so far is kept, so the
// state is how many of each size are kept (fewer than k in all) and what
// they add, and the cost is values x sizes x states x sums x the ways up
// to k dice can show one value and add: never an enumeration of rolls.
func keepOf(parts []keepPart, k int, highest bool, alo, ahi, width int) (Dist, error) {
	sw := newSweep(parts, k, highest)
	base := min(0, k*alo)
	sums := max(0, k*ahi) - base + 1
	cells := mulCapped(MaxCells, sw.states, sums)
	spread := mulCapped(MaxWork, k+1, mulCapped(MaxWork, k, width-1)+1)
	work := mulCapped(MaxWork, sw.hi-sw.lo+1, len(parts), cells, spread)
	if cells > MaxCells || work > MaxWork {
		return Dist{}, fmt.Errorf("%w: keep %d of %d dice of %d sizes over %d values takes more than %d cells or %d steps",
			ErrTooLarge, k, sw.n, len(parts), sw.hi-sw.lo+1, MaxCells, MaxWork)
	}
	sw.head = make([]float64, k)
	for m := range k + 1 {
		sw.pow = append(sw.pow, make([]float64, 0, m*(width-1)+1))
	}
	cur, nxt := make([]float64, cells), make([]float64, cells)
	final := make([]float64, sums)
	cur[-base] = 1 // state 0: no die kept yet, adding 0
	for step := range sw.hi - sw.lo + 1 {
		v := sw.lo + step
		if highest {
			v = sw.hi - step
		}
		if !sw.visit(v) {
			continue
		}
		for g := range parts {
			if sw.chance[g] == 0 {
				continue
			}
			sw.place(g, v, cur, nxt, final, sums)
			cur, nxt = nxt, cur
		}
	}
	return Dist{Min: base, P: final}.trim(), nil
}

// place moves every state from cur into nxt, or into final once k dice
// are kept, as the dice of size g not yet placed show value v or not: m
// of them show it with binomial probability, and the m add the m-fold
// sum of what one adds on v.
func (sw *sweep) place(g, v int, cur, nxt, final []float64, sums int) {
	lo := sw.powers(sw.parts[g].adds(v))
	clear(nxt)
	for idx := range sw.states {
		kept, own := 0, idx/sw.stride[g]%sw.radix[g]
		for h := range sw.parts {
			kept += idx / sw.stride[h] % sw.radix[h]
		}
		if kept >= sw.k {
			continue // no state: k dice kept are final
		}
		need := sw.k - kept
		head := sw.head[:need]
		clear(head)
		binomialHead(sw.parts[g].n-own, sw.chance[g], need, head)
		rest := binomialRest(sw.parts[g].n-own, sw.chance[g], need, head)
		row := cur[idx*sums : (idx+1)*sums]
		for s, q := range row {
			if q == 0 {
				continue
			}
			for m, p := range head {
				if p != 0 {
					to := idx + m*sw.stride[g]
					addShifted(nxt[to*sums:(to+1)*sums], sw.pow[m], s+m*lo, q*p)
				}
			}
			if rest > 0 {
				// need or more show v: the first need of them complete
				// the kept dice.
				addShifted(final, sw.pow[need], s+need*lo, q*rest)
			}
		}
	}
}

// powers sets pow[m] to the distribution of the sum of m independent
// draws from p (outcomes from lo), for m = 0..k, and returns lo.
func (sw *sweep) powers(lo int, p []float64) int {
	sw.pow[0] = append(sw.pow[0][:0], 1)
	for m := 1; m <= sw.k; m++ {
		prev := sw.pow[m-1]
		out := sw.pow[m][:len(prev)+len(p)-1]
		clear(out)
		for i, a := range prev {
			addShifted(out, p, i, a)
		}
		sw.pow[m] = out
	}
	return lo
}

// sweep is the working state of keepOf: the sizes, how much of each
// size's distribution is still unvisited, and the states (how many dice
// of each size are kept so far) in mixed radix.
type sweep struct {
	parts   []keepPart
	k, n    int
	highest bool
	lo, hi  int       // every value lies in lo..hi
	radix   []int     // radix[g]: 1 + the most dice of size g a state keeps
	stride  []int     // place value of size g in a state's index
	states  int       // product of radix
	rest    []float64 // rest[g]: P(a die of size g shows a value not yet visited)
	chance  []float64 // chance[g]: P(a die not yet placed shows the current value)
	head    []float64 // binomial probabilities of 0..need-1 dice on the value
	pow     [][]float64
}

func newSweep(parts []keepPart, k int, highest bool) *sweep {
	sw := &sweep{parts: parts, k: k, highest: highest, states: 1}
	sw.lo, sw.hi = parts[0].d.Min, parts[0].d.Max()
	for _, p := range parts {
		sw.n += p.n
		sw.lo, sw.hi = min(sw.lo, p.d.Min), max(sw.hi, p.d.Max())
		r := min(p.n, k-1) + 1
		sw.radix = append(sw.radix, r)
		sw.stride = append(sw.stride, sw.states)
		sw.states = mulCapped(MaxCells, sw.states, r)
		sw.rest = append(sw.rest, 1)
		sw.chance = append(sw.chance, 0)
	}
	return sw
}

// visit moves the sweep to value v, working out for each size the chance
// that a die not yet placed shows it; false when no die can.
func (sw *sweep) visit(v int) bool {
	some := false
	for g, p := range sw.parts {
		pv := p.d.Prob(v)
		last := v == p.d.Min
		if !sw.highest {
			last = v == p.d.Max()
		}
		switch {
		case pv == 0:
			sw.chance[g] = 0
		case last || pv >= sw.rest[g]:
			sw.chance[g] = 1 // the size's last value takes every die left
		default:
			sw.chance[g] = pv / sw.rest[g]
		}
		sw.rest[g] -= pv
		some = some || pv > 0
	}
	return some
}
