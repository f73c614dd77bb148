package dice

// keepCounted answers KeepHighestOf and KeepLowestOf by counting
// patterns, when that is the cheaper way: ok is false when the table
// sweep would take less work, and the caller sweeps.
//
// The patterns: faces are visited from the best down (the highest for a
// keep of the highest). Until k dice are kept, every die that showed a
// face already visited is kept, so the state is only how many dice of
// each size are kept so far (fewer than k in all) and their sum; the
// dice of a size not yet placed are each, given that they show no face
// visited yet, uniform over the rest, so the number of them showing the
// current face is binomial, and m of them on face v add m*v. Dice of one
// size share all their work: 100d6 keep 3 has 3 states a face, where
// the table sweep has 101 x 3. An excluded face reads as a value past
// the worst, visited last, where a die adds nothing, so the k best
// counted faces are summed, or all of them when fewer are counted. It is
// keepOf, the sweep Expr.Dist uses for any dice, with the faces of
// numbered dice; its cost is faces x sizes x states x sums x k, states
// being the product over sizes of 1 + min(dice, k-1).
func keepCounted(gs []group, k int, exclude FaceSet, highest bool, sweepWork int) (Dist, bool, error) {
	if !countPatterns {
		return Dist{}, false, nil
	}
	top := int(gs[0].die)
	states := 1
	for _, g := range gs {
		states = mulCapped(MaxCells, states, min(g.n, k-1)+1)
	}
	sums := mulCapped(MaxCells, k, top) + 1
	cells := mulCapped(MaxCells, states, sums)
	work := mulCapped(MaxWork, top+1, len(gs), cells, k+1)
	if cells > MaxCells || work > MaxWork || work >= sweepWork {
		return Dist{}, false, nil
	}
	// The excluded faces' value: past the worst face, so visited last.
	out := 0
	if !highest {
		out = top + 1
	}
	one := []float64{1}
	adds := func(v int) (int, []float64) {
		if v == out {
			return 0, one
		}
		return v, one
	}
	parts := make([]keepPart, len(gs))
	for i, g := range gs {
		s := int(g.die)
		lo, hi := min(1, out), max(s, out)
		d := Dist{Min: lo, P: make([]float64, hi-lo+1)}
		for f := 1; f <= s; f++ {
			v := f
			if exclude.Has(f) {
				v = out
			}
			d.P[v-lo] += 1 / float64(s)
		}
		parts[i] = keepPart{n: g.n, d: d.trim(), adds: adds}
	}
	d, err := keepOf(parts, k, highest, 0, top, 1)
	return d, true, err
}

// countPatterns lets tests compare keepCounted with the table sweeps.
var countPatterns = true
