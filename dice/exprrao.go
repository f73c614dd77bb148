package dice

// addOnceDist returns the distribution of a term of rao, Avrae's re-roll
// and add: n dice of one size summed, the first whose standing face is
// on the point adding one more roll, once a pool; and the chance that
// its re-rolls reached their bound.
//
// Each die's standing face has the distribution f of its first roll
// after re-rolls; split f into its faces on the point and off it. A
// pool's sum splits the same way, into the part where no die is on the
// point and the part where some die is. A pool of a+b dice has none on
// the point when neither part has, none = none_a * none_b, and some
// otherwise, some = some_a * all_b + none_a * some_b (all = none + some),
// so n dice take about log2 n doublings of three convolutions, every
// term a sum of products of chances, never a difference that would lose
// a tiny one. The answer is none + some * U, U the added roll, uniform
// on the die's faces (re-rolls act on a die's first roll only).
func (t *diceTerm) addOnceDist(depth int) (Dist, float64, error) {
	s := int(t.groups[0].die)
	first, stop := t.firstFaces(s, depth)
	var one splitSum
	one.none = Dist{Min: 1, P: make([]float64, s)}
	one.some = Dist{Min: 1, P: make([]float64, s)}
	for f := 1; f <= s; f++ {
		if t.explodes(f, s) {
			one.some.P[f-1] = first[f-1]
		} else {
			one.none.P[f-1] = first[f-1]
		}
	}
	pool := splitSum{none: Point(0), some: Dist{Min: 0, P: []float64{0}}}
	for n := t.n; n > 0; n >>= 1 {
		var err error
		if n&1 == 1 {
			if pool, err = pool.join(one); err != nil {
				return Dist{}, 0, err
			}
		}
		if n > 1 {
			if one, err = one.join(one); err != nil {
				return Dist{}, 0, err
			}
		}
	}
	u, err := Uniform(Die(s))
	if err != nil {
		return Dist{}, 0, err
	}
	added, err := pool.some.Add(u)
	if err != nil {
		return Dist{}, 0, err
	}
	return sumParts(pool.none, added).trim(), anyOf(stop, t.n), nil
}

// splitSum is the distribution of a pool's sum split by whether some
// die of it is on a point: the two parts' chances add up to the sum's.
type splitSum struct{ none, some Dist }

// join returns the split sum of two independent pools.
func (a splitSum) join(b splitSum) (splitSum, error) {
	none, err := a.none.Add(b.none)
	if err != nil {
		return splitSum{}, err
	}
	x, err := a.some.Add(sumParts(b.none, b.some))
	if err != nil {
		return splitSum{}, err
	}
	y, err := a.none.Add(b.some)
	if err != nil {
		return splitSum{}, err
	}
	return splitSum{none: none, some: sumParts(x, y)}, nil
}

// sumParts returns the outcome-by-outcome sum of two parts of one
// distribution (their chances add; neither need total 1).
func sumParts(a, b Dist) Dist {
	lo, hi := min(a.Min, b.Min), max(a.Max(), b.Max())
	out := make([]float64, hi-lo+1)
	for i, p := range a.P {
		out[a.Min-lo+i] += p
	}
	for i, p := range b.P {
		out[b.Min-lo+i] += p
	}
	return Dist{Min: lo, P: out}
}
