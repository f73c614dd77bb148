package dice

import (
	"fmt"
	"math"
)

// Dist returns the exact distribution of the expression's value as Roll
// rolls it, explosions and re-rolls stopped at the expression's depth, and
// truncated: the probability that a roll reaches that bound somewhere
// (an exploding die's last allowed extra roll explodes again, or a
// re-rolling die is still on its re-roll point after its last allowed
// re-roll). Without the bound, only that much probability would move, so
// each P(X = x) of the unbounded game differs from the answer by at most
// truncated. An expression with no explosions and no r re-rolls gives 0.
//
// Keep and drop work face by face with binomial counts, never by
// enumerating rolls; sums of independent terms are convolutions; a term
// times or divided by a number is a map of outcomes; the product or
// quotient of two random terms is enumerated over their outcomes. Every
// step bounds its work before it allocates and fails past the limits with
// an error wrapping ErrTooLarge.
func (e *Expr) Dist() (d Dist, truncated float64, err error) {
	if e == nil || e.root == nil {
		return Dist{}, 0, errEmptyExpr
	}
	d, cut, err := e.root.dist(e.depth)
	if err != nil {
		return Dist{}, 0, err
	}
	return d, cut, nil
}

// dist returns n's distribution and the probability that a depth bound
// was reached in it. The chance is carried as itself, never as one less
// the chance of no bound, so that a chance far below 1e-16 (d100! cuts
// off 1e-22) is not lost to rounding.
func (n *node) dist(depth int) (Dist, float64, error) {
	switch n.kind {
	case numNode:
		return Point(n.num), 0, nil
	case diceNode:
		return n.term.dist(depth)
	case negNode:
		d, w, err := n.left.dist(depth)
		return negate(d), w, err
	case groupNode:
		return n.groupDist(depth)
	case tiersNode:
		d, w, err := n.left.dist(depth)
		if err != nil {
			return Dist{}, 0, err
		}
		return mapDist(d, func(v int) int { return tierOf(n.cuts, v) }), w, nil
	}
	a, wa, err := n.left.dist(depth)
	if err != nil {
		return Dist{}, 0, err
	}
	b, wb, err := n.right.dist(depth)
	if err != nil {
		return Dist{}, 0, err
	}
	var d Dist
	switch n.kind {
	case addNode:
		d, err = a.Add(b)
	case subNode:
		d, err = a.Add(negate(b))
	case cmpNode:
		// left - right against 0: one convolution, then a map.
		if d, err = a.Add(negate(b)); err == nil {
			c := compare{op: n.op}
			d = mapDist(d, func(v int) int { return b2i(c.has(v)) })
		}
	default:
		d, err = combine(a, b, n)
	}
	return d, either(wa, wb), err
}

// either returns the chance that at least one of two independent events
// of chances a and b happens, without cancellation for tiny chances.
func either(a, b float64) float64 { return a + b - a*b }

// anyOf returns the chance that at least one of n independent events of
// chance p happens: 1-(1-p)^n, as -expm1(n log1p(-p)) so that tiny
// chances keep their digits.
func anyOf(p float64, n int) float64 {
	if p >= 1 {
		return 1
	}
	return -math.Expm1(float64(n) * math.Log1p(-p))
}

// negate returns the distribution of -X.
func negate(d Dist) Dist {
	p := make([]float64, len(d.P))
	for i, q := range d.P {
		p[len(p)-1-i] = q
	}
	return Dist{Min: -d.Max(), P: p}
}

// combine returns the distribution of X*Y, X/Y (rounded as n says), X%Y
// or X^Y
// for independent X ~ a and Y ~ b, enumerating their outcomes. Parsing
// bounded every product and refused divisors that can be 0.
func combine(a, b Dist, n *node) (Dist, error) {
	op := n.apply
	if w := mulCapped(MaxWork, len(a.P), len(b.P)); w > MaxWork {
		return Dist{}, fmt.Errorf("%w: combining distributions of %d and %d outcomes takes more than %d steps", ErrTooLarge, len(a.P), len(b.P), MaxWork)
	}
	lo, hi := math.MaxInt, math.MinInt
	if n.kind == mulNode || n.kind == divNode {
		// Each is monotone in each argument for a fixed sign of the
		// other, so the extremes lie at the corners.
		for _, x := range [2]int{a.Min, a.Max()} {
			for _, y := range [2]int{b.Min, b.Max()} {
				lo, hi = min(lo, op(x, y)), max(hi, op(x, y))
			}
		}
	} else {
		// A remainder or a power: every pair, once to find the range.
		for i, p := range a.P {
			for j, q := range b.P {
				if p != 0 && q != 0 {
					v := op(a.Min+i, b.Min+j)
					lo, hi = min(lo, v), max(hi, v)
				}
			}
		}
	}
	if hi-lo >= MaxOutcomes {
		return Dist{}, fmt.Errorf("%w: a product, quotient, remainder or power spanning %d outcomes exceeds %d", ErrTooLarge, hi-lo+1, MaxOutcomes)
	}
	out := make([]float64, hi-lo+1)
	for i, p := range a.P {
		if p == 0 {
			continue
		}
		for j, q := range b.P {
			out[op(a.Min+i, b.Min+j)-lo] += p * q
		}
	}
	return Dist{Min: lo, P: out}.trim(), nil
}

// dist returns the term's distribution and the probability that none of
// its dice reached a depth bound.
func (t *diceTerm) dist(depth int) (Dist, float64, error) {
	if t.unique != 0 || t.match > 0 {
		return t.setsDist(depth)
	}
	if t.addOnce {
		return t.addOnceDist(depth)
	}
	k := t.kept()
	if k == 0 {
		return Point(0), 0, nil
	}
	if d, ok, err := t.plainDist(k); ok {
		return d, 0, err
	}
	if k < t.n {
		return t.keepDist(k, depth)
	}
	cut := 0.0
	total := Point(0)
	for _, g := range t.groups {
		value, weight, stop, err := t.dieDist(int(g.die), depth)
		if err != nil {
			return Dist{}, 0, err
		}
		cut = either(cut, anyOf(stop, g.n))
		var d Dist
		if t.success.op != noCmp {
			d, err = power(weight, g.n)
		} else {
			d, err = power(value, g.n)
		}
		if err == nil {
			total, err = total.Add(d)
		}
		if err != nil {
			return Dist{}, 0, err
		}
	}
	return total, cut, nil
}

// keepDist returns the distribution of a keep or drop of k dice of the
// term, its dice compared by their values, and the probability that none
// of its dice reached a depth bound.
func (t *diceTerm) keepDist(k, depth int) (Dist, float64, error) {
	if err := t.checkKeepParts(depth); err != nil {
		return Dist{}, 0, err
	}
	cut := 0.0
	parts := make([]keepPart, 0, len(t.groups))
	lo, hi := math.MaxInt, math.MinInt
	one := []float64{1}
	for _, g := range t.groups {
		var part keepPart
		var stop float64
		var err error
		if t.success.op != noCmp && t.explode == explode {
			part, stop, err = t.jointPart(int(g.die), depth)
		} else {
			part.d, _, stop, err = t.dieDist(int(g.die), depth)
		}
		if err != nil {
			return Dist{}, 0, err
		}
		part.n = g.n
		cut = either(cut, anyOf(stop, g.n))
		lo, hi = min(lo, part.d.Min), max(hi, part.d.Max())
		parts = append(parts, part)
	}
	var d Dist
	var err error
	switch {
	case t.success.op == noCmp:
		// A kept die adds its value.
		for i := range parts {
			parts[i].adds = func(v int) (int, []float64) { return v, one }
		}
		d, err = keepOf(parts, k, t.keepsHighest(), lo, hi, 1)
	case t.explode == explode:
		// A kept die adds the successes of its rolls, up to one a roll;
		// the bounds of the work are those the dice can really reach.
		alo, ahi, width := 0, 0, 1
		for _, p := range parts {
			for v := p.d.Min; v <= p.d.Max(); v++ {
				if p.d.Prob(v) > 0 {
					lo, q := p.adds(v)
					alo, ahi, width = min(alo, lo), max(ahi, lo+len(q)-1), max(width, len(q))
				}
			}
		}
		d, err = keepOf(parts, k, t.keepsHighest(), alo, ahi, width)
	default:
		for i := range parts {
			parts[i].adds = func(v int) (int, []float64) { return t.weightOf(v), one }
		}
		d, err = keepOf(parts, k, t.keepsHighest(), -1, 1+len(t.more), 1)
	}
	if err != nil {
		return Dist{}, 0, err
	}
	return d, cut, nil
}

// jointPart returns the keep part of a die of s sides that explodes with
// ! and counts successes on each roll, and the probability that it
// reached a depth bound. Its value and its successes both add roll by
// roll, so one exploding chain carries them together as the number
// value*(2*depth+3) + successes: successes less failures lie within
// ±(depth+1), less than half the multiplier, so each such number names
// one pair, and the pairs of one value lie side by side.
func (t *diceTerm) jointPart(s, depth int) (keepPart, float64, error) {
	first, stopReroll := t.firstFaces(s, depth)
	half := (1 + len(t.more)) * (t.limit(depth) + 1) // the most successes a chain counts
	scale := 2*half + 1
	pair := func(f int) int { return f*scale + t.weightOf(f) }
	explodes := func(f int) bool { return t.explodes(f, s) }
	joint, stopExplode, err := chainDist(first, s, explodes, pair, pair, t.limit(depth))
	if t.once1 {
		stopExplode = 0
	}
	if err != nil {
		return keepPart{}, 0, err
	}
	// Every value is at least 1, so every pair number is positive.
	valueOf := func(c int) int { return (c + half) / scale }
	lo, hi := valueOf(joint.Min), valueOf(joint.Max())
	value := Dist{Min: lo, P: make([]float64, hi-lo+1)}
	for i, p := range joint.P {
		value.P[valueOf(joint.Min+i)-lo] += p
	}
	cond := make([]float64, scale)
	adds := func(v int) (int, []float64) {
		// The pairs of value v, from the fewest successes up.
		from := max(v*scale-half-joint.Min, 0)
		to := min(v*scale+half-joint.Min+1, len(joint.P))
		row := joint.P[from:to]
		a, b := 0, len(row)
		for a < b && row[a] == 0 {
			a++
		}
		for b > a && row[b-1] == 0 {
			b--
		}
		pv := value.Prob(v)
		out := cond[:b-a]
		for i, p := range row[a:b] {
			out[i] = p / pv
		}
		return joint.Min + from + a - v*scale, out
	}
	stop := either(stopReroll, stopExplode)
	return keepPart{d: value.trim(), adds: adds}, stop, nil
}

// checkKeepParts bounds the distributions a keep holds at once, one for
// each size of die, before any is built.
func (t *diceTerm) checkKeepParts(depth int) error {
	held := 0
	for _, g := range t.groups {
		span := int(g.die)
		if t.explode != noExplode {
			span = mulCapped(MaxOutcomes, span, depth+1)
		}
		if t.explode == explode && t.success.op != noCmp {
			// Each value's successes are held beside it.
			span = mulCapped(MaxOutcomes, span, 2*depth+3)
		}
		if held += span; held > MaxOutcomes {
			return fmt.Errorf("%w: keeping among %d sizes of dice holds more than %d outcomes", ErrTooLarge, len(t.groups), MaxOutcomes)
		}
	}
	return nil
}

// plainDist answers the terms the package's pool constructors answer
// directly: plain numbered dice summed, kept or counted as successes on
// a point at or above a face. ok is false for every other term.
func (t *diceTerm) plainDist(k int) (d Dist, ok bool, err error) {
	if t.fudge || t.faces != nil || len(t.more) > 0 || len(t.reroll) > 0 || t.explode != noExplode || t.hasMin || t.hasMax || t.keep == keepMatch || t.keep == dropMatch {
		return Dist{}, false, nil
	}
	var ds []Die
	for _, g := range t.groups {
		for range g.n {
			ds = append(ds, g.die)
		}
	}
	switch {
	case t.success.op == noCmp && k == t.n:
		d, err = SumOf(ds)
	case t.success.op == noCmp && t.keepsHighest():
		d, err = KeepHighestOf(ds, k, FaceSet{})
	case t.success.op == noCmp:
		d, err = KeepLowestOf(ds, k, FaceSet{})
	case k == t.n && t.failure.op == noCmp && t.success.op == cmpGe:
		d, err = SuccessesOf(ds, t.success.n)
	case k == t.n && t.failure.op == noCmp && t.success.op == cmpGt:
		d, err = SuccessesOf(ds, t.success.n+1)
	default:
		return Dist{}, false, nil
	}
	return d, true, err
}

// weightOf returns a die's successes less failures for value v, when the
// die is compared once.
func (t *diceTerm) weightOf(v int) int {
	w := 0
	if t.success.has(v) {
		w = 1
	}
	for _, c := range t.more {
		if c.has(v) {
			w++
		}
	}
	if w == 0 && t.failure.has(v) {
		return -1
	}
	return w
}

// power returns the distribution of the sum of n independent copies of d,
// by repeated doubling.
func power(d Dist, n int) (Dist, error) {
	out := Point(0)
	for n > 0 {
		var err error
		if n&1 == 1 {
			if out, err = out.Add(d); err != nil {
				return Dist{}, err
			}
		}
		n >>= 1
		if n > 0 {
			if d, err = d.Add(d); err != nil {
				return Dist{}, err
			}
		}
	}
	return out.trim(), nil
}

// dieDist returns, for one die of s sides in the term, the distributions
// of its value and of its weight (successes less failures, when the term
// counts them), and the probability that it reached a depth bound.
func (t *diceTerm) dieDist(s, depth int) (value, weight Dist, stop float64, err error) {
	off := t.offset()
	first, stopReroll := t.firstFaces(s, depth)
	face := func(f int) int { return f + off }
	explodes := func(f int) bool { return t.explodes(f, s) }
	stopExplode := 0.0
	switch {
	case t.explode == noExplode && (t.hasMin || t.hasMax || t.faces != nil):
		value = mapDist(Dist{Min: 1, P: first}, t.read)
	case t.explode == noExplode:
		value = Dist{Min: 1 + off, P: first}.trim()
	default:
		extra := face
		if t.explode == penetrate {
			extra = func(f int) int { return f - 1 }
		}
		value, stopExplode, err = chainDist(first, s, explodes, face, extra, t.limit(depth))
		if err != nil {
			return Dist{}, Dist{}, 0, err
		}
		if t.once1 {
			stopExplode = 0 // "ra" adds one roll by the rule: nothing is cut off
		}
	}
	switch {
	case t.success.op == noCmp:
	case t.explode == explode:
		// "!": every roll of the chain is compared on its own.
		w := func(f int) int { return t.weightOf(f) }
		weight, _, err = chainDist(first, s, explodes, w, w, t.limit(depth))
	default:
		weight = mapDist(value, t.weightOf)
	}
	if t.keep == keepMatch || t.keep == dropMatch {
		// A die off the selector adds nothing; the weight is a function
		// of the value here (checkActs refuses !'s per-roll counts).
		kept := func(v int) bool { return t.keepAt.has(v) == (t.keep == keepMatch) }
		if t.success.op != noCmp {
			weight = mapDist(value, func(v int) int {
				if kept(v) {
					return t.weightOf(v)
				}
				return 0
			})
		}
		value = mapDist(value, func(v int) int {
			if kept(v) {
				return v
			}
			return 0
		})
	}
	return value, weight, either(stopReroll, stopExplode), err
}

// firstFaces returns the distribution of a die's first standing face
// (faces 1..s) and the probability that it reached the re-roll bound.
// With r, a face on the re-roll point is rolled again up to depth times,
// and the last face stands whatever it shows; with ro, once. A face off
// the point stands on the first roll or after any of the re-rolls:
// (1 + q + ... + q^m)/s for a point covering q of the faces and m
// re-rolls, and a face on it only when every roll was on it: q^m/s.
func (t *diceTerm) firstFaces(s, depth int) ([]float64, float64) {
	p := make([]float64, s)
	if len(t.reroll) == 0 {
		for i := range p {
			p[i] = 1 / float64(s)
		}
		return p, 0
	}
	m := depth
	if t.once {
		m = 1
	}
	on := 0
	for f := 1; f <= s; f++ {
		if t.rerolls(t.read(f)) {
			on++
		}
	}
	q := float64(on) / float64(s)
	stand := (1 - math.Pow(q, float64(m+1))) / (1 - q) / float64(s)
	again := math.Pow(q, float64(m)) / float64(s)
	for i := range p {
		if t.rerolls(t.read(i + 1)) {
			p[i] = again
		} else {
			p[i] = stand
		}
	}
	if t.once {
		return p, 0 // "ro" is once by the rule: nothing is cut off
	}
	return p, math.Pow(q, float64(m+1))
}

// chainDist returns the distribution of an exploding die's count: c0 of
// its first face (distributed as first, faces 1..s), plus, while the last
// face explodes, c1 of another uniform roll, at most depth of them; and
// the probability that the last allowed roll exploded too, the mass the
// bound cuts off. It works backwards from the last allowed roll, so the
// cost is depth x exploding faces x outcomes.
func chainDist(first []float64, s int, explodes func(int) bool, c0, c1 func(int) int, depth int) (Dist, float64, error) {
	c0lo, c0hi, c1lo, c1hi := math.MaxInt, math.MinInt, math.MaxInt, math.MinInt
	boom := 0
	for f := 1; f <= s; f++ {
		c0lo, c0hi = min(c0lo, c0(f)), max(c0hi, c0(f))
		c1lo, c1hi = min(c1lo, c1(f)), max(c1hi, c1(f))
		if explodes(f) {
			boom++
		}
	}
	// Every partial count lies in lo..hi.
	lo := min(c0lo, 0) + depth*min(c1lo, 0)
	hi := max(c0hi, 0) + depth*max(c1hi, 0)
	size := hi - lo + 1
	if size > MaxOutcomes {
		return Dist{}, 0, fmt.Errorf("%w: an exploding d%d to depth %d spans more than %d outcomes", ErrTooLarge, s, depth, MaxOutcomes)
	}
	if w := mulCapped(MaxWork, depth, boom+1, size); w > MaxWork {
		return Dist{}, 0, fmt.Errorf("%w: an exploding d%d to depth %d takes more than %d steps", ErrTooLarge, s, depth, MaxWork)
	}
	u := 1 / float64(s)
	// tail: the count from the j-th extra roll on; the last allowed extra
	// roll adds its own count and stops.
	tail, next := make([]float64, size), make([]float64, size)
	for f := 1; f <= s; f++ {
		tail[c1(f)-lo] += u
	}
	for j := depth - 1; j >= 1; j-- {
		clear(next)
		for f := 1; f <= s; f++ {
			if explodes(f) {
				addShifted(next, tail, c1(f), u)
			} else {
				next[c1(f)-lo] += u
			}
		}
		tail, next = next, tail
	}
	out := next
	clear(out)
	hit := 0.0
	for f := 1; f <= s; f++ {
		p := first[f-1]
		if explodes(f) {
			hit += p
			addShifted(out, tail, c0(f), p)
		} else {
			out[c0(f)-lo] += p
		}
	}
	stop := hit * math.Pow(float64(boom)/float64(s), float64(depth))
	return Dist{Min: lo, P: out}.trim(), stop, nil
}

// addShifted adds p times src, moved up by k places, into dst: the
// outcomes of src plus k. The caller keeps every moved entry in range.
func addShifted(dst, src []float64, k int, p float64) {
	for i, q := range src {
		if q != 0 {
			dst[i+k] += q * p
		}
	}
}

// mapDist returns the distribution of f(X) for X ~ d, f taking d's
// outcomes to a small range.
func mapDist(d Dist, f func(int) int) Dist {
	lo, hi := math.MaxInt, math.MinInt
	for i := range d.P {
		lo, hi = min(lo, f(d.Min+i)), max(hi, f(d.Min+i))
	}
	out := make([]float64, hi-lo+1)
	for i, p := range d.P {
		out[f(d.Min+i)-lo] += p
	}
	return Dist{Min: lo, P: out}.trim()
}

// groupDist returns the distribution of a group's value: its expressions
// are independent (each rolls its own dice), so a keep or drop of them is
// keepOf over their distributions, one part each, and a count or a keep
// by selector maps each and adds them.
func (n *node) groupDist(depth int) (Dist, float64, error) {
	t := n.term
	cut := 0.0
	parts := make([]keepPart, len(n.kids))
	lo, hi := math.MaxInt, math.MinInt
	for i, k := range n.kids {
		d, c, err := k.dist(depth)
		if err != nil {
			return Dist{}, 0, err
		}
		cut = either(cut, c)
		parts[i] = keepPart{n: 1, d: d}
		lo, hi = min(lo, d.Min), max(hi, d.Max())
	}
	k := t.kept()
	counts := t.success.op != noCmp
	match := t.keep == keepMatch || t.keep == dropMatch
	if k == 0 {
		return Point(0), cut, nil
	}
	if k < len(parts) && !match {
		one := []float64{1}
		for i := range parts {
			parts[i].adds = func(v int) (int, []float64) {
				if counts {
					return t.weightOf(v), one
				}
				return v, one
			}
		}
		alo, ahi := lo, hi
		if counts {
			alo, ahi = -1, 1+len(t.more)
		}
		d, err := keepOf(parts, k, t.keepsHighest(), alo, ahi, 1)
		return d, cut, err
	}
	total := Point(0)
	for _, part := range parts {
		d := mapDist(part.d, func(v int) int {
			if match && t.keepAt.has(v) != (t.keep == keepMatch) {
				return 0
			}
			if counts {
				return t.weightOf(v)
			}
			return v
		})
		var err error
		if total, err = total.Add(d); err != nil {
			return Dist{}, 0, err
		}
	}
	return total, cut, nil
}
