package dice

import "sync"

// Total rolls the expression with r and returns its value, recording no
// dice: it takes the same dice from the same draws as Roll, so from the
// same Roller state it returns Roll's Total, and it allocates nothing. It
// is the call for a simulation or a bot that shows only the total; Roll
// is the call that shows the dice. It fails only for a nil or zero Roller
// or an Expr that ParseExpr did not make.
//
// Plain dice summed are totalled straight from the Roller (SumN), and
// every other term rolls its dice into a buffer on the stack; a keep or
// drop over more than 64 dice that re-roll or explode borrows a buffer
// kept between calls.
func (e *Expr) Total(r *Roller) (int, error) {
	if e == nil || e.root == nil {
		return 0, errEmptyExpr
	}
	if r == nil || r.src == nil && r.script == nil {
		return 0, ErrNoRoller
	}
	return e.total(e.root, r), nil
}

func (e *Expr) total(n *node, r *Roller) int {
	switch n.kind {
	case numNode:
		return n.num
	case diceNode:
		return e.termTotal(n.term, r)
	case negNode:
		return -e.total(n.left, r)
	case tiersNode:
		return tierOf(n.cuts, e.total(n.left, r))
	case groupNode:
		return e.groupTotal(n, r)
	}
	a := e.total(n.left, r)
	return n.apply(a, e.total(n.right, r))
}

// stackDice is how many dice of a keep or drop Total ranks on the
// stack; chunk is how many faces it rolls into its buffer at once (the
// most one draw holds).
const (
	stackDice = 16
	chunk     = 24
)

// totalPath is how Total rolls a term: the cheapest way that takes the
// same draws as Roll.
type totalPath uint8

const (
	pathEach   totalPath = iota // die by die, each adding on its own
	pathSum                     // plain dice summed: SumN
	pathCount                   // plain numbered dice counted on one point at or above a face: RollCount
	pathRanked                  // a keep or drop of the highest or lowest, dice held
	pathBoom                    // numbered dice summed that explode (! or !!) on their top face
)

// totalPath works out the term's path, and for pathCount the least face
// that succeeds.
func (t *diceTerm) totalPath() (totalPath, int) {
	plain := len(t.reroll) == 0 && t.explode == noExplode && !t.hasMin && !t.hasMax && t.faces == nil
	switch {
	case t.keep != keepAll && t.keep != keepMatch && t.keep != dropMatch:
		return pathRanked, 0
	case plain && t.keep == keepAll && t.success.op == noCmp:
		return pathSum, 0
	case t.keep == keepAll && t.success.op == noCmp && len(t.reroll) == 0 && t.direct() &&
		(t.explode == explode || t.explode == compound) && t.boom.op == noCmp && !t.once1:
		// ! and !! add the same total; only the breakdown differs.
		return pathBoom, 0
	case plain && t.keep == keepAll && !t.fudge && t.failure.op == noCmp && len(t.more) == 0 && t.success.op == cmpGe:
		return pathCount, max(t.success.n, 1)
	case plain && t.keep == keepAll && !t.fudge && t.failure.op == noCmp && len(t.more) == 0 && t.success.op == cmpGt:
		return pathCount, max(t.success.n+1, 1)
	}
	return pathEach, 0
}

// termTotal is rollTerm without records.
func (e *Expr) termTotal(t *diceTerm, r *Roller) int {
	if t.unique != 0 || t.match > 0 {
		return e.totalSets(t, r)
	}
	switch t.path {
	case pathSum:
		// SumN totals the faces RollN would roll.
		v := 0
		for _, g := range t.groups {
			v += r.SumN(g.n, int(g.die)) + g.n*t.offset()
		}
		return v
	case pathCount:
		// RollCount rolls the faces RollN would roll, in runs of a draw.
		v := 0
		var buf [chunk]int
		for _, g := range t.groups {
			for run := newRuns(r, g.n, int(g.die)); run.n > 0; {
				m := min(run.n, run.k)
				run.n -= m
				_, c := r.RollCount(m, run.s, t.countAt, buf[:0])
				v += c
			}
		}
		return v
	case pathBoom:
		// Each die: a face, and another while the last shows the top.
		v := 0
		for _, g := range t.groups {
			s := int(g.die)
			for range g.n {
				face := r.Roll(s)
				v += face
				for n := 0; n < e.depth && face == s; n++ {
					face = r.Roll(s)
					v += face
				}
			}
		}
		return v
	case pathRanked:
		if t.n > stackDice {
			return e.termTotalPooled(t, r)
		}
		return e.rankedTotal(t, r)
	}
	// Each die adds or not on its own: no die is held.
	v := 0
	plain := len(t.reroll) == 0 && t.explode == noExplode
	match := t.keep == keepMatch || t.keep == dropMatch
	counts := t.success.op != noCmp
	boom := t.limit(e.depth)
	for _, g := range t.groups {
		s := int(g.die)
		if !plain {
			for range g.n {
				total, weight, exploded := e.dieTotal(t, s, boom, r)
				if exploded && t.addOnce {
					boom = 0 // rao: the pool has added its one roll
				}
				switch {
				case match:
					v += t.take(total, weight)
				case counts:
					v += weight
				default:
					v += total
				}
			}
			continue
		}
		var buf [chunk]int
		for run := newRuns(r, g.n, s); ; {
			faces := run.next(buf[:])
			if faces == nil {
				break
			}
			for _, f := range faces {
				x := t.read(f)
				v += t.take(x, t.weightOf(x))
			}
		}
	}
	return v
}

// rankedTotal is termTotal for a keep or drop of the highest or lowest,
// at most stackDice dice: every die is held, then all but the kept drop.
func (e *Expr) rankedTotal(t *diceTerm, r *Roller) int {
	if len(t.reroll) == 0 && t.explode == noExplode {
		return t.plainRanked(r)
	}
	var keys [stackDice]dieKey
	kept := keys[:0]
	for _, g := range t.groups {
		for range g.n {
			total, weight, _ := e.dieTotal(t, int(g.die), t.limit(e.depth), r)
			kept = append(kept, dieKey{total: total, weight: weight})
		}
	}
	if k := t.kept(); k < len(kept) {
		t.drop(kept, k)
	}
	v := 0
	for _, d := range kept {
		if !d.dropped {
			v += t.counted(d.total, d.weight)
		}
	}
	return v
}

// plainRanked is rankedTotal for dice that neither re-roll nor explode:
// a die's weight follows from its value, so which of equal dice is kept
// changes nothing, and the values are sorted and the kept end summed.
func (t *diceTerm) plainRanked(r *Roller) int {
	var buf [stackDice]int
	n := 0
	for _, g := range t.groups {
		faces := r.RollN(g.n, int(g.die), buf[n:n])
		if !t.direct() {
			for i, f := range faces {
				faces[i] = t.read(f)
			}
		}
		n += len(faces)
	}
	vals := buf[:n]
	k := t.kept()
	high := t.keepsHighest()
	if t.success.op == noCmp && n-k <= k {
		// Few dropped: the sum less the dropped, found one by one (one
		// drop, 4d6 keep 3 or advantage, is the sum less the extreme).
		v, lo, hi := 0, vals[0], vals[0]
		for _, x := range vals {
			v += x
			lo, hi = min(lo, x), max(hi, x)
		}
		switch {
		case n-k == 1 && high:
			return v - lo
		case n-k == 1:
			return v - hi
		}
		for range n - k {
			w := 0
			for i := 1; i < len(vals); i++ {
				if high && vals[i] < vals[w] || !high && vals[i] > vals[w] {
					w = i
				}
			}
			v -= vals[w]
			vals[w] = vals[len(vals)-1]
			vals = vals[:len(vals)-1]
		}
		return v
	}
	// Insertion sort, rising: at most stackDice values.
	for i := 1; i < len(vals); i++ {
		for j := i; j > 0 && vals[j] < vals[j-1]; j-- {
			vals[j], vals[j-1] = vals[j-1], vals[j]
		}
	}
	if high {
		vals = vals[len(vals)-k:]
	} else {
		vals = vals[:k]
	}
	v := 0
	for _, x := range vals {
		v += t.counted(x, t.weightOf(x))
	}
	return v
}

// runs rolls n dice of s sides, the faces RollN(n, s) would roll, in
// runs that fit a buffer at least chunk long: a roll longer than one
// draw holds is taken in whole draws, as RollN and SumN take it.
type runs struct {
	r       *Roller
	n, s, k int
}

func newRuns(r *Roller, n, s int) runs {
	k := chunk
	if s <= 256 && r.script == nil {
		if n > batchSize[s] {
			r.left = 0
		}
		k = batchSize[s]
	}
	return runs{r: r, n: n, s: s, k: k}
}

// next rolls the next run into buf and returns it; nil when all are
// rolled.
func (u *runs) next(buf []int) []int {
	if u.n <= 0 {
		return nil
	}
	m := min(u.n, u.k)
	u.n -= m
	return u.r.RollN(m, u.s, buf[:0])
}

// take returns what one die of value total and weight adds to a term
// that keeps every die or keeps by selector (a die off it adds nothing).
func (t *diceTerm) take(total, weight int) int {
	if (t.keep == keepMatch || t.keep == dropMatch) && t.keepAt.has(total) != (t.keep == keepMatch) {
		return 0
	}
	return t.counted(total, weight)
}

// counted is what a kept die adds: its value, or its weight when the term
// counts successes.
func (t *diceTerm) counted(total, weight int) int {
	if t.success.op != noCmp {
		return weight
	}
	return total
}

// dieTotal is rollDie without records: the die's value and its weight,
// and whether it exploded.
func (e *Expr) dieTotal(t *diceTerm, s, boom int, r *Roller) (total, weight int, exploded bool) {
	face := r.Roll(s)
	if len(t.reroll) > 0 {
		limit := e.depth
		if t.once {
			limit = 1
		}
		for n := 0; n < limit && t.rerolls(t.read(face)); n++ {
			face = r.Roll(s)
		}
	}
	total = t.read(face)
	counts := t.success.op != noCmp
	each := counts && t.explode == explode // "!": every roll counts on its own
	if each {
		weight = t.weightOf(face)
	}
	if t.explode != noExplode {
		for n := 0; n < boom && t.explodes(face, s); n++ {
			exploded = true
			face = r.Roll(s)
			x := face
			if t.explode == penetrate {
				x--
			}
			if each {
				weight += t.weightOf(face)
			}
			total += x
		}
	}
	if counts && !each {
		weight = t.weightOf(total)
	}
	return total, weight, exploded
}

// scratch lends Total an ExprResult for terms too large for the stack.
var scratch = sync.Pool{New: func() any { return new(ExprResult) }}

// termTotalPooled rolls a large ranked term with records, into a
// borrowed result: the same draws, and no allocation once the pool holds
// a result of the term's size.
func (e *Expr) termTotalPooled(t *diceTerm, r *Roller) int {
	res := scratch.Get().(*ExprResult)
	res.Dice = res.Dice[:0]
	if cap(res.terms) < len(e.terms) {
		res.terms = make([]span, len(e.terms))
	}
	res.terms = res.terms[:len(e.terms)]
	v := e.rollTerm(t, r, res)
	scratch.Put(res)
	return v
}

// Cache parses expressions once and keeps them, so a bot that rolls the
// same few texts again and again parses each once: Roll of a text seen
// before looks it up and rolls it, allocating nothing. It holds at most
// CacheSize expressions and forgets them all when full. A Cache is safe
// for concurrent use; its zero value reads as ParseExpr does, and Parser
// sets the dialect and depth before first use.
type Cache struct {
	Parser Parser

	mu sync.Mutex
	m  map[string]*Expr
}

// CacheSize bounds how many expressions a Cache holds.
const CacheSize = 1024

// Parse returns the expression s reads as, parsing it only if the cache
// does not hold it. Errors are not kept.
func (c *Cache) Parse(s string) (*Expr, error) {
	c.mu.Lock()
	e, ok := c.m[s]
	c.mu.Unlock()
	if ok {
		return e, nil
	}
	e, err := c.Parser.Parse(s)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	if c.m == nil || len(c.m) >= CacheSize {
		c.m = make(map[string]*Expr)
	}
	c.m[s] = e
	c.mu.Unlock()
	return e, nil
}

// Roll parses s (or finds it) and returns its Total rolled with r.
func (c *Cache) Roll(r *Roller, s string) (int, error) {
	e, err := c.Parse(s)
	if err != nil {
		return 0, err
	}
	return e.Total(r)
}

// groupTotal is rollGroup without records.
func (e *Expr) groupTotal(n *node, r *Roller) int {
	t := n.term
	if len(n.kids) > stackDice {
		res := scratch.Get().(*ExprResult)
		res.Dice, res.kids = res.Dice[:0], res.kids[:0]
		if cap(res.terms) < len(e.terms) {
			res.terms = make([]span, len(e.terms))
		}
		res.terms = res.terms[:len(e.terms)]
		v := e.rollGroup(n, r, res)
		scratch.Put(res)
		return v
	}
	var keys [stackDice]dieKey
	kept := keys[:0]
	for _, k := range n.kids {
		v := e.total(k, r)
		kept = append(kept, dieKey{total: v, weight: t.weightOf(v)})
	}
	v := 0
	switch {
	case t.keep == keepMatch || t.keep == dropMatch:
		for _, d := range kept {
			v += t.take(d.total, d.weight)
		}
		return v
	case t.kept() < len(kept):
		t.drop(kept, t.kept())
	}
	for _, d := range kept {
		if !d.dropped {
			v += t.counted(d.total, d.weight)
		}
	}
	return v
}
