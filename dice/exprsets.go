package dice

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// The forms whose dice depend on each other: rpg-dice-roller's u and uo
// (unique: a die showing a face already rolled in its pool rolls again)
// and Roll20's mt (the total counts the sets of matching dice).

const (
	uniqueAll  = 1 // u: re-roll a duplicate until it is unique (at most depth times)
	uniqueOnce = 2 // uo: re-roll a duplicate once
)

// uniqueMod reads u or uo and an optional compare point: only duplicates
// on the point re-roll (4d6u=5 re-rolls a second 5, not a second 3).
func (p *parser) uniqueMod(t *diceTerm, at int) error {
	w := "u"
	if strings.HasPrefix(p.s[at:], "uo") {
		w = "uo"
	}
	if t.unique != 0 {
		return p.fail(at, "a second u: a pool re-rolls its duplicates one way")
	}
	p.i = at + len(w)
	t.unique = uniqueAll
	if w == "uo" {
		t.unique = uniqueOnce
	}
	if c := p.peek(); c == '=' || c == '<' || c == '>' || isDigit(c) {
		var err error
		t.uniqueAt, err = p.comparePoint("a unique (u)")
		return err
	}
	return nil
}

// matchMod reads Roll20's mt: mt counts sets of 2 or more equal dice, mtN
// sets of N or more, and a compare point after it restricts the faces
// whose sets count (4d6mt>3).
func (p *parser) matchMod(t *diceTerm, at int) error {
	if p.dialect == Avrae {
		return p.fail(at, "mt (Roll20's count of matching sets) is not in Avrae's grammar: read it in the Roll20 or Stakes dialect")
	}
	if t.match != 0 {
		return p.fail(at, "a second mt: a pool counts its sets once")
	}
	p.i = at + 2
	t.match = 2
	if isDigit(p.peek()) {
		nat := p.i
		n, err := p.number(MaxDice, "a set size for mt")
		if err != nil {
			return err
		}
		if n < 2 {
			return p.fail(nat, "mt%d: a set is 2 or more equal dice", n)
		}
		t.match = n
	}
	if c := p.peek(); c == '=' || c == '<' || c == '>' {
		var err error
		t.matchAt, err = p.comparePoint("a match (mt)")
		return err
	}
	return nil
}

// checkSets refuses u, uo and mt where they never act, never finish, or
// meet a modifier they are not read with.
func (p *parser) checkSets(t *diceTerm, at int) error {
	if t.unique == 0 && t.match == 0 {
		return nil
	}
	name := "mt"
	if t.unique != 0 {
		name = "u"
	}
	switch {
	case t.unique != 0 && t.match != 0:
		return p.fail(at, "u and mt do not combine: re-rolling duplicates leaves no sets to count")
	case len(t.groups) > 1:
		return p.fail(at, "%s takes dice of one size: roll each size as its own term", name)
	case t.faces != nil:
		return p.fail(at, "%s is not read with custom faces here: equal faces would make equal dice", name)
	case t.keep != keepAll || t.explode != noExplode || len(t.reroll) > 0 || t.success.op != noCmp ||
		t.failure.op != noCmp || t.hasMin || t.hasMax:
		return p.fail(at, "%s does not combine with a keep, drop, explosion, re-roll, success count, mi or ma here", name)
	}
	s := int(t.groups[0].die)
	lo, hi := t.rawSpan(s)
	die := t.groups[0].die.String()
	if t.fudge {
		die = "dF"
	}
	if t.unique != 0 {
		on := s
		if t.uniqueAt.op != noCmp {
			on = t.uniqueAt.count(lo, hi)
		}
		switch {
		case t.n == 1:
			return p.fail(at, "u on one die never acts: a die has no other to match")
		case on == 0:
			return p.fail(at, "u%s never acts: no face of a %s is on the point", t.uniqueAt.point(), die)
		case on == s && t.n > s && t.unique == uniqueAll:
			return p.fail(at, "%d%s u can never finish: %d dice cannot all differ on %d faces", t.n, die, t.n, s)
		}
		return nil
	}
	switch {
	case t.match > t.n:
		return p.fail(at, "mt%d never counts: %d dice hold no set of %d", t.match, t.n, t.match)
	case t.matchAt.op != noCmp && t.matchAt.count(lo, hi) == 0:
		return p.fail(at, "mt%s never counts: no face of a %s is on the point", t.matchAt.String(), die)
	}
	return nil
}

// writeSets prints u, uo or mt in canonical form.
func (t *diceTerm) writeSets(b *strings.Builder) {
	switch t.unique {
	case uniqueAll:
		b.WriteString("u" + t.uniqueAt.point())
	case uniqueOnce:
		b.WriteString("uo" + t.uniqueAt.point())
	}
	if t.match > 0 {
		b.WriteString("mt")
		if t.match != 2 {
			b.WriteString(strconv.Itoa(t.match))
		}
		b.WriteString(t.matchAt.String())
	}
}

// uniqueLimit is how many times a duplicate re-rolls at most.
func (t *diceTerm) uniqueLimit(depth int) int {
	if t.unique == uniqueOnce {
		return 1
	}
	return depth
}

// rolled is the set of faces a pool of u has kept so far, 1..s, a bit
// a face.
type rolled []uint64

// makeRolled returns an empty set for faces 1..s, in buf when it holds
// enough words.
func makeRolled(s int, buf []uint64) rolled {
	if s/64 < len(buf) {
		buf = buf[:s/64+1]
		clear(buf)
		return buf
	}
	return make(rolled, s/64+1)
}

func (u rolled) add(f int)      { u[f/64] |= 1 << (f % 64) }
func (u rolled) has(f int) bool { return u[f/64]&(1<<(f%64)) != 0 }

// dup reports whether face, among the faces kept, is a duplicate u
// re-rolls.
func (t *diceTerm) dup(face int, kept rolled) bool {
	if t.uniqueAt.op != noCmp && !t.uniqueAt.has(t.shown(face)) {
		return false
	}
	return kept.has(face)
}

// uniqueFace rolls a die of a u pool: its face, rolled again while it
// is a duplicate, at most limit times. For u, a die still on a
// duplicate then takes a face drawn from those that are not, each as
// likely: the face that re-rolling without end would stop on, in
// bounded work, so u never keeps a duplicate. uo keeps it. rec, when
// not nil, records each re-rolled face.
func (t *diceTerm) uniqueFace(r *Roller, s, limit int, kept rolled, rec func(face int)) int {
	face := r.Roll(s)
	for n := 0; n < limit && t.dup(face, kept); n++ {
		if rec != nil {
			rec(face)
		}
		face = r.Roll(s)
	}
	if t.unique != uniqueAll || !t.dup(face, kept) {
		return face
	}
	if rec != nil {
		rec(face)
	}
	free := 0
	for f := 1; f <= s; f++ {
		if !t.dup(f, kept) {
			free++
		}
	}
	j := r.Roll(free)
	for f := 1; ; f++ {
		if !t.dup(f, kept) {
			if j--; j == 0 {
				return f
			}
		}
	}
}

// inSet reports whether a die showing face is in a set mt counts, among
// all the faces rolled, sorted.
func (t *diceTerm) inSet(face int, sorted []int) bool {
	if t.matchAt.op != noCmp && !t.matchAt.has(t.shown(face)) {
		return false
	}
	i, _ := slices.BinarySearch(sorted, face)
	j, _ := slices.BinarySearch(sorted, face+1)
	return j-i >= t.match
}

// sets counts the sets mt counts among faces; it reorders faces.
func (t *diceTerm) sets(faces []int) int {
	slices.Sort(faces)
	v := 0
	for i := 0; i < len(faces); {
		j := i
		for j < len(faces) && faces[j] == faces[i] {
			j++
		}
		if j-i >= t.match && (t.matchAt.op == noCmp || t.matchAt.has(t.shown(faces[i]))) {
			v++
		}
		i = j
	}
	return v
}

// rollSets is rollTerm for u, uo and mt: one die at a time, each through
// the Roller's Roll. A re-rolled duplicate is recorded as re-rolled; a
// die in a counted set is marked a success.
func (e *Expr) rollSets(t *diceTerm, r *Roller, res *ExprResult) int {
	from := len(res.Dice)
	s := int(t.groups[0].die)
	seen := res.faces[:0]
	limit := t.uniqueLimit(e.depth)
	var buf [16]uint64 // dice of up to 1023 sides
	kept := makeRolled(s, buf[:])
	for die := range t.n {
		var face int
		if t.unique != 0 {
			face = t.uniqueFace(r, s, limit, kept, func(f int) {
				res.record(t, s, die, t.shown(f)).Rerolled = true
			})
			kept.add(face)
		} else {
			face = r.Roll(s)
		}
		seen = append(seen, face)
		d := res.record(t, s, die, t.shown(face))
		d.Value = d.Face
	}
	res.faces = seen
	res.terms[t.index] = span{from, len(res.Dice)}
	if t.match == 0 {
		return t.count(res.Dice[from:])
	}
	v := t.sets(seen) // sorts seen
	for i := from; i < len(res.Dice); i++ {
		res.Dice[i].Success = t.inSet(res.Dice[i].Face-t.offset(), seen)
	}
	return v
}

// totalSets is rollSets without records.
func (e *Expr) totalSets(t *diceTerm, r *Roller) int {
	var buf [64]int
	seen := buf[:0]
	if t.n > len(buf) && t.match > 0 {
		seen = make([]int, 0, t.n)
	}
	s := int(t.groups[0].die)
	limit := t.uniqueLimit(e.depth)
	var words [16]uint64 // dice of up to 1023 sides
	kept := makeRolled(s, words[:])
	v := 0
	for range t.n {
		var face int
		if t.unique != 0 {
			face = t.uniqueFace(r, s, limit, kept, nil)
			kept.add(face)
		} else {
			face = r.Roll(s)
			seen = append(seen, face)
		}
		v += t.shown(face)
	}
	if t.match == 0 {
		return v
	}
	return t.sets(seen)
}

// setsDist is dist for u, uo and mt.
func (t *diceTerm) setsDist(depth int) (Dist, float64, error) {
	if t.match > 0 {
		d, err := t.matchDist()
		return d, 0, err
	}
	return t.uniqueDist(depth)
}

// matchDist returns the distribution of mt's count: face by face, the
// dice showing it among those left are binomial, one over the faces left.
func (t *diceTerm) matchDist() (Dist, error) {
	s, n := int(t.groups[0].die), t.n
	top := n/t.match + 1
	if w := float64(s) * float64(n+1) * float64(n+1) * float64(top); w > MaxWork {
		return Dist{}, fmt.Errorf("%w: counting sets of %d d%d takes more than %d steps", ErrTooLarge, n, s, MaxWork)
	}
	// dp[r*top+m]: r dice left for the faces to come, m sets counted.
	dp := make([]float64, (n+1)*top)
	next := make([]float64, len(dp))
	dp[n*top] = 1
	pmf := make([]float64, n+1)
	for f := 1; f <= s; f++ {
		clear(next)
		left := s - f + 1
		on := t.matchAt.op == noCmp || t.matchAt.has(t.shown(f))
		for r := 0; r <= n; r++ {
			row := dp[r*top : (r+1)*top]
			if !slices.ContainsFunc(row, func(p float64) bool { return p != 0 }) {
				continue
			}
			binomialPMF(pmf[:r+1], r, 1/float64(left))
			for c := 0; c <= r; c++ {
				q := pmf[c]
				if q == 0 {
					continue
				}
				add := 0
				if on && c >= t.match {
					add = 1
				}
				for m, p := range row {
					if p != 0 {
						next[(r-c)*top+m+add] += p * q
					}
				}
			}
		}
		dp, next = next, dp
	}
	return Dist{Min: 0, P: slices.Clone(dp[:top])}.trim(), nil
}

// binomialPMF fills out with P(c of r trials succeed), each with chance p.
func binomialPMF(out []float64, r int, p float64) {
	clear(out)
	if p >= 1 {
		out[r] = 1
		return
	}
	lr, _ := math.Lgamma(float64(r + 1))
	for c := 0; c <= r; c++ {
		lc, _ := math.Lgamma(float64(c + 1))
		lrc, _ := math.Lgamma(float64(r - c + 1))
		out[c] = math.Exp(lr - lc - lrc + float64(c)*math.Log(p) + float64(r-c)*math.Log1p(-p))
	}
}

// uniqueAllDist returns the distribution of a u pool's sum.
//
// Every die of u ends on a face drawn evenly from those acceptable: the
// faces off the point, and those on it that no earlier die kept (the
// re-rolls stop on each as likely, and the last draw, if it comes to
// that, is even over them). So whether a die keeps a new face on the
// point depends only on how many the pool holds already, b: with
// chance (p-b)/(o+p-b), for p faces on the point and o off it. A chain
// over the dice gives the chance that the pool keeps B faces on the
// point; those faces are then a set of B of them, every set as likely,
// and the other n-B dice are independent and even over the faces off
// it. The sum of an even B-set of the faces is a count of sets by sum,
// built face by face with probabilities: after f faces, a set of j of
// them holds the f-th face with chance j/f. The answer is the sum over
// B of the chain's chance times that count's distribution plus n-B dice
// off the point. Without a point, B is n: 8d20u is the sum of 8
// different faces of 20, every set as likely. Nothing is cut off.
func (t *diceTerm) uniqueAllDist() (Dist, float64, error) {
	s, n := int(t.groups[0].die), t.n
	var on, off []int // the values of the faces on the point and off it
	for f := 1; f <= s; f++ {
		if v := t.shown(f); t.uniqueAt.op == noCmp || t.uniqueAt.has(v) {
			on = append(on, v)
		} else {
			off = append(off, v)
		}
	}
	p, o := len(on), len(off)
	lo, hi := t.rawSpan(s)
	most := min(n, p) // the most faces on the point a pool keeps
	width := most*(hi-lo) + 1
	cells := mulCapped(MaxCells, most+1, width)
	work := mulCapped(MaxWork, p, cells)
	work += mulCapped(MaxWork, n+1, n*(hi-lo)+1, n*(hi-lo)+1)
	if cells > MaxCells || work > MaxWork {
		return Dist{}, 0, fmt.Errorf("%w: %dd%d u takes more than %d cells or %d steps", ErrTooLarge, n, s, MaxCells, MaxWork)
	}
	chain := keptOnPoint(n, p, o)
	sets := evenSets(on, most, lo, width)
	total := Dist{Min: n * lo, P: make([]float64, n*(hi-lo)+1)}
	offDist := Point(0) // the sum of n-B dice off the point, B from n down
	var each Dist
	if o > 0 {
		each = Dist{Min: 0, P: make([]float64, hi-lo+1)}
		for _, v := range off {
			each.P[v-lo] += 1 / float64(o)
		}
	}
	for b := n; b >= 0; b-- {
		if b < n {
			var err error
			if o == 0 {
				break
			}
			if offDist, err = offDist.Add(each); err != nil {
				return Dist{}, 0, err
			}
		}
		if b > most || chain[b] == 0 {
			continue
		}
		// The B-set's sums from B*lo, and the off dice's from (n-B)*lo.
		for i, q := range offDist.P {
			if q == 0 {
				continue
			}
			addShifted(total.P, sets[b*width:b*width+b*(hi-lo)+1], offDist.Min+i, q*chain[b])
		}
	}
	return total.trim(), 0, nil
}

// keptOnPoint returns chain[b], for b up to min(n, p): the chance that
// n dice of u keep b faces of the p on the point, o faces being off it.
// A die keeps a new face on it with chance (p-b)/(o+p-b).
func keptOnPoint(n, p, o int) []float64 {
	chain := make([]float64, min(n, p)+1)
	chain[0] = 1
	for range n {
		for b := len(chain) - 1; b >= 0; b-- {
			stay := 0.0
			if o+p-b > 0 {
				stay = chain[b] * float64(o) / float64(o+p-b)
			}
			if b > 0 {
				stay += chain[b-1] * float64(p-b+1) / float64(o+p-b+1)
			}
			chain[b] = stay
		}
	}
	return chain
}

// evenSets returns sets[j*width+x], for j up to most: the chance that a
// set of j of the values, every such set as likely, sums to j*lo+x. Face
// by face: after f values, a j-set holds the f-th with chance j/f.
func evenSets(values []int, most, lo, width int) []float64 {
	sets := make([]float64, (most+1)*width)
	sets[0] = 1
	for f, v := range values {
		for j := min(f+1, most); j >= 1; j-- {
			row, below := sets[j*width:(j+1)*width], sets[(j-1)*width:j*width]
			in, out := float64(j)/float64(f+1), float64(f+1-j)/float64(f+1)
			for x := len(row) - 1; x >= 0; x-- {
				row[x] *= out
				if y := x - (v - lo); y >= 0 && below[y] != 0 {
					row[x] += below[y] * in
				}
			}
		}
	}
	return sets
}

// uniqueDist returns the distribution of a u or uo pool's sum, and the
// probability that a die kept a duplicate because it ran out of
// re-rolls (0 for uo, which re-rolls once by design). u is
// uniqueAllDist; uo goes die by die over the set of faces already rolled
// on the point.
func (t *diceTerm) uniqueDist(depth int) (Dist, float64, error) {
	if t.unique == uniqueAll {
		return t.uniqueAllDist()
	}
	s, n := int(t.groups[0].die), t.n
	var on []int // bit of each face on the point, else -1
	bits := 0
	for f := 1; f <= s; f++ {
		b := -1
		if t.uniqueAt.op == noCmp || t.uniqueAt.has(t.shown(f)) {
			b = bits
			bits++
		}
		on = append(on, b)
	}
	lo, hi := t.rawSpan(s)
	width := n*(hi-lo) + 1
	states := 1.0
	for k := range min(n, bits) {
		states = states * float64(bits-k) / float64(k+1)
		if bits > 63 || states*float64(width) > MaxCells || states*float64(width)*float64(s) > MaxWork {
			return Dist{}, 0, fmt.Errorf("%w: %dd%d u tracks more than %d sets of faces rolled", ErrTooLarge, n, s, MaxCells/width)
		}
	}
	type state struct {
		sums  []float64 // sums[i]: P(sum = n*lo + i, this set)
		clean float64   // P(this set, no die out of re-rolls)
	}
	cur := map[uint64]*state{0: {sums: make([]float64, width), clean: 1}}
	cur[0].sums[0] = 1
	limit := t.uniqueLimit(depth)
	for range n {
		next := map[uint64]*state{}
		get := func(m uint64) *state {
			st := next[m]
			if st == nil {
				st = &state{sums: make([]float64, width)}
				next[m] = st
			}
			return st
		}
		for m, st := range cur {
			b := 0
			for x := m; x != 0; x &= x - 1 {
				b++
			}
			q := float64(b) / float64(s)
			bad := math.Pow(q, float64(limit)) / float64(s) // every roll a duplicate, the last this face
			good := 0.0                                     // (1/s)(1 + q + ... + q^limit)
			for j := 0; j <= limit; j++ {
				good += math.Pow(q, float64(j))
			}
			good /= float64(s)
			for f := 1; f <= s; f++ {
				v := t.shown(f) - lo
				to, p, clean := m, good, true
				switch {
				case on[f-1] >= 0 && m&(1<<on[f-1]) != 0:
					p, clean = bad, t.unique == uniqueOnce
				case on[f-1] >= 0:
					to = m | 1<<on[f-1]
				}
				if p == 0 {
					continue
				}
				dst := get(to)
				addShifted(dst.sums, st.sums[:len(st.sums)-v], v, p)
				if clean {
					dst.clean += st.clean * p
				}
			}
		}
		cur = next
	}
	out := make([]float64, width)
	kept := 0.0
	for _, st := range cur {
		for i, p := range st.sums {
			out[i] += p
		}
		kept += st.clean
	}
	return Dist{Min: n * lo, P: out}.trim(), max(1-kept, 0), nil
}
