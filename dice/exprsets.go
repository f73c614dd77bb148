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

// dup reports whether face, among the faces seen, is a duplicate u
// re-rolls.
func (t *diceTerm) dup(face int, seen []int) bool {
	if t.uniqueAt.op != noCmp && !t.uniqueAt.has(t.shown(face)) {
		return false
	}
	return slices.Contains(seen, face)
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
	for die := range t.n {
		face := r.Roll(s)
		for n := 0; t.unique != 0 && n < limit && t.dup(face, seen); n++ {
			res.record(t, s, die, t.shown(face)).Rerolled = true
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
	if t.n > len(buf) {
		seen = make([]int, 0, t.n)
	}
	s := int(t.groups[0].die)
	limit := t.uniqueLimit(e.depth)
	v := 0
	for range t.n {
		face := r.Roll(s)
		for n := 0; t.unique != 0 && n < limit && t.dup(face, seen); n++ {
			face = r.Roll(s)
		}
		seen = append(seen, face)
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

// uniqueDist returns the distribution of a u or uo pool's sum, die by
// die over the set of faces already rolled on the point, and the
// probability that a die kept a duplicate because it ran out of re-rolls
// (0 for uo, which re-rolls once by design).
func (t *diceTerm) uniqueDist(depth int) (Dist, float64, error) {
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
