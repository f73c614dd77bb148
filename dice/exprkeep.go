package dice

import "fmt"

// keepPart is one size of die in a keep or drop: n dice, each with value
// distribution d.
type keepPart struct {
	n int
	d Dist
}

// keepOf returns the distribution of the sum of w(v) over the k highest
// (or, with highest false, the k lowest) values v of independent dice,
// parts[g].n of them distributed as parts[g].d; w takes values in
// wlo..whi, and 1 <= k <= the number of dice.
//
// It is KeepHighestOf's sweep for dice of any distributions: values are
// visited from the best down, and a die not yet placed is distributed as
// its own distribution conditioned on the values not yet visited, so the
// number of each size showing the current value is binomial. Every die
// placed so far is kept, so the state is how many of each size are kept
// (fewer than k in all) and the sum of their w, and the cost is values x
// states x sums x the ways fewer than k dice can show one value: never an
// enumeration of rolls.
func keepOf(parts []keepPart, k int, highest bool, w func(int) int, wlo, whi int) (Dist, error) {
	sw := newSweep(parts, k, highest)
	base := min(0, k*wlo)
	sums := max(0, k*whi) - base + 1
	cells := mulCapped(MaxCells, sw.states, sums)
	work := mulCapped(MaxWork, sw.hi-sw.lo+1, cells, sw.states)
	if cells > MaxCells || work > MaxWork {
		return Dist{}, fmt.Errorf("%w: keep %d of %d dice of %d sizes over %d values takes more than %d cells or %d steps",
			ErrTooLarge, k, sw.n, len(parts), sw.hi-sw.lo+1, MaxCells, MaxWork)
	}
	for range parts {
		sw.heads = append(sw.heads, make([]float64, k))
	}
	cur, nxt := make([]float64, cells), make([]float64, cells)
	final := make([]float64, sums)
	cur[-base] = 1 // state 0: no die kept yet, their sum 0
	for step := range sw.hi - sw.lo + 1 {
		v := sw.lo + step
		if highest {
			v = sw.hi - step
		}
		if !sw.visit(v) {
			continue
		}
		wv := w(v)
		clear(nxt)
		for idx := range sw.states {
			ways, rest, ok := sw.ways(idx)
			if !ok {
				continue
			}
			need := k - sw.kept
			row := cur[idx*sums : (idx+1)*sums]
			for s, q := range row {
				if q == 0 {
					continue
				}
				for _, m := range ways {
					nxt[m.to*sums+s+m.dice*wv] += q * m.p
				}
				if rest > 0 {
					// need or more show v: the kept dice are complete.
					final[s+need*wv] += q * rest
				}
			}
		}
		cur, nxt = nxt, cur
	}
	return Dist{Min: base, P: final}.trim(), nil
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
	heads   [][]float64
	list    []way
	kept    int // dice kept in the state ways last decoded
}

// way is one way for fewer dice than still needed to show the current
// value: how many, the state it leads to, and its probability.
type way struct {
	dice, to int
	p        float64
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

// ways decodes state idx and lists the ways fewer dice than still needed
// show the current value, with the probability that enough do (rest); ok
// is false for an index that is no state (k or more dice kept).
func (sw *sweep) ways(idx int) (ways []way, rest float64, ok bool) {
	sw.kept = 0
	for g := range sw.parts {
		sw.kept += idx / sw.stride[g] % sw.radix[g]
	}
	if sw.kept >= sw.k {
		return nil, 0, false
	}
	need := sw.k - sw.kept
	for g, p := range sw.parts {
		h := sw.heads[g][:need]
		clear(h)
		binomialHead(p.n-idx/sw.stride[g]%sw.radix[g], sw.chance[g], need, h)
	}
	sw.list = sw.list[:0]
	sw.add(0, 0, idx, 1, need)
	rest = 1
	for _, m := range sw.list {
		rest -= m.p
	}
	return sw.list, rest, true
}

// add lists the ways sizes g.. can show the current value with fewer than
// need dice in all, given dice already from the sizes before g.
func (sw *sweep) add(g, dice, to int, p float64, need int) {
	if g == len(sw.parts) {
		sw.list = append(sw.list, way{dice, to, p})
		return
	}
	for m := 0; dice+m < need; m++ {
		if q := sw.heads[g][m]; q != 0 {
			sw.add(g+1, dice+m, to+m*sw.stride[g], p*q, need)
		}
	}
}
