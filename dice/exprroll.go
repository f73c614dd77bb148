package dice

import (
	"errors"
	"slices"
	"strconv"
	"strings"
)

// ExprResult is one roll of an expression: its total and every die rolled,
// re-rolled faces and explosions included. Roll fills it, reusing its
// buffers, so a result kept between rolls makes rolling allocate nothing.
// It prints the way a chat bot shows a roll (String) and encodes as JSON
// with the field names below.
type ExprResult struct {
	Expr  string      `json:"expr"`  // the expression, canonical
	Total int         `json:"total"` // the value of the expression
	Dice  []RolledDie `json:"dice"`  // every roll, term by term, die by die

	expr  *Expr
	terms []span   // terms[i]: the records of dice term i
	keys  []dieKey // the dice of the term being rolled
	kids  []dieKey // the expressions of the groups being rolled, a stack
	faces []int    // faces of a plain group, rolled together
}

// RolledDie is one roll of one die. A die that re-rolls or explodes rolls
// several times and has one record a roll, all with the same Term and Die.
type RolledDie struct {
	Term  int  `json:"term"`            // the dice term, from 0, in the order the expression prints
	Die   int  `json:"die"`             // the die within its term, from 0, largest dice first
	Sides int  `json:"sides"`           // its size (3 for a Fudge die)
	Fudge bool `json:"fudge,omitempty"` // a Fudge die: faces -1, 0, +1
	Face  int  `json:"face"`            // the face rolled
	// Value is what the roll adds to its die: the face, one less for a
	// penetrating extra roll, nothing for a re-rolled face.
	Value    int  `json:"value"`
	Rerolled bool `json:"rerolled,omitempty"` // rolled again: it counts nothing
	Exploded bool `json:"exploded,omitempty"` // it set off another roll
	Extra    bool `json:"extra,omitempty"`    // rolled by an explosion
	Dropped  bool `json:"dropped,omitempty"`  // its die was dropped by a keep or drop
	Success  bool `json:"success,omitempty"`  // counted as a success
	// Successes is how many successes the roll counts when it meets
	// several success points (10d10>=8>=10: a 10 counts 2); else 0.
	Successes uint8 `json:"successes,omitempty"`
	Failure   bool  `json:"failure,omitempty"` // counted as a failure
}

type span struct{ from, to int }

// dieKey is one die of a term while its term decides which dice it keeps.
type dieKey struct {
	total, weight int  // the die's value, and its successes less failures
	from, to      int  // its records
	dropped       bool // dropped by a keep or drop
}

// errEmptyExpr is returned for an Expr that ParseExpr did not make.
var errEmptyExpr = errors.New("dice: an empty expression: make one with ParseExpr")

// ErrNoRoller is returned by Roll for a nil or zero Roller.
var ErrNoRoller = errors.New("dice: no Roller: make one with NewRoller, NewSeeded or Scripted")

// Roll rolls the expression with r into res, replacing what res held, and
// returns nil; it fails, changing nothing, only when r or res is nil, r is
// the zero Roller or e was not made by ParseExpr. With res reused it
// allocates nothing once res has grown to the expression's size.
//
// Dice roll left to right as the expression prints, each die's re-rolls
// and explosions before the next die. A Fudge die rolls a d3 and reads 1,
// 2, 3 as -1, 0, +1, so a scripted Roller gives it faces 1..3.
func (e *Expr) Roll(r *Roller, res *ExprResult) error {
	if e == nil || e.root == nil {
		return errEmptyExpr
	}
	if r == nil || r.src == nil && r.script == nil {
		return ErrNoRoller
	}
	if res == nil {
		return errors.New("dice: Roll needs an ExprResult to fill")
	}
	res.Expr, res.expr = e.text, e
	res.Dice = res.Dice[:0]
	if cap(res.terms) < len(e.terms) {
		res.terms = make([]span, len(e.terms))
	}
	res.terms = res.terms[:len(e.terms)]
	res.Total = e.eval(e.root, r, res)
	return nil
}

// eval rolls n, left to right, and returns its value. Parsing bounded every
// value, so no step overflows and no divisor is 0.
func (e *Expr) eval(n *node, r *Roller, res *ExprResult) int {
	switch n.kind {
	case numNode:
		return n.num
	case diceNode:
		return e.rollTerm(n.term, r, res)
	case negNode:
		return -e.eval(n.left, r, res)
	case tiersNode:
		return tierOf(n.cuts, e.eval(n.left, r, res))
	case groupNode:
		return e.rollGroup(n, r, res)
	}
	a := e.eval(n.left, r, res)
	return n.apply(a, e.eval(n.right, r, res))
}

// apply returns the value of binary node n on its operands' values a, b.
func (n *node) apply(a, b int) int {
	switch n.kind {
	case addNode:
		return a + b
	case subNode:
		return a - b
	case mulNode:
		return a * b
	case modNode:
		return a % b
	case powNode:
		return ipow(a, b)
	case cmpNode:
		return b2i(compare{op: n.op, n: b}.has(a))
	}
	return n.divide(a, b) // toward zero, or as floor() or ceil() says
}

// tierOf returns how many of the rising cuts v is above.
func tierOf(cuts []int, v int) int {
	t := 0
	for t < len(cuts) && v > cuts[t] {
		t++
	}
	return t
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// rollTerm rolls every die of t, decides which it keeps, and returns the
// term's value: the sum of the kept dice, or their successes less failures.
func (e *Expr) rollTerm(t *diceTerm, r *Roller, res *ExprResult) int {
	if t.unique != 0 || t.match > 0 {
		return e.rollSets(t, r, res)
	}
	from := len(res.Dice)
	plain := len(t.reroll) == 0 && t.explode == noExplode
	keys := res.keys[:0]
	die := 0
	boom := t.limit(e.depth)
	for _, g := range t.groups {
		if plain {
			e.rollPlain(t, g, die, r, res)
			die += g.n
			continue
		}
		for range g.n {
			keys = append(keys, dieKey{})
			if e.rollDie(t, int(g.die), die, boom, r, res, &keys[len(keys)-1]) && t.addOnce {
				boom = 0 // rao: the pool has added its one roll
			}
			die++
		}
	}
	res.terms[t.index] = span{from, len(res.Dice)}
	k := t.kept()
	match := t.keep == keepMatch || t.keep == dropMatch
	if plain {
		if k == t.n && !match {
			return t.count(res.Dice[from:])
		}
		// One record a die.
		keys = slices.Grow(keys, t.n)[:t.n]
		for i := range keys {
			d, rec := &keys[i], &res.Dice[from+i]
			d.total, d.weight, d.from, d.to, d.dropped = rec.Value, weight(rec), from+i, from+i+1, false
		}
	}
	res.keys = keys
	return t.settle(res, keys, k)
}

// settle drops all but k of the term's dice, marks their records, and
// returns the kept dice's sum, or their successes less failures.
func (t *diceTerm) settle(res *ExprResult, keys []dieKey, k int) int {
	switch {
	case t.keep == keepMatch || t.keep == dropMatch:
		for i := range keys {
			keys[i].dropped = t.keepAt.has(keys[i].total) != (t.keep == keepMatch)
		}
	case k < len(keys):
		t.drop(keys, k)
	}
	v := 0
	for _, d := range keys {
		switch {
		case d.dropped:
			for i := d.from; i < d.to; i++ {
				res.Dice[i].Dropped = true
				res.Dice[i].Success, res.Dice[i].Failure, res.Dice[i].Successes = false, false, 0
			}
		case t.success.op != noCmp:
			v += d.weight
		default:
			v += d.total
		}
	}
	return v
}

// count returns the value of plain dice all kept: their sum, or their
// successes less failures.
func (t *diceTerm) count(recs []RolledDie) int {
	v := 0
	if t.success.op != noCmp {
		for i := range recs {
			v += weight(&recs[i])
		}
		return v
	}
	for i := range recs {
		v += recs[i].Value
	}
	return v
}

// weight is a record's successes, -1 for a failure, or 0.
func weight(d *RolledDie) int {
	switch {
	case d.Successes > 0:
		return int(d.Successes)
	case d.Success:
		return 1
	case d.Failure:
		return -1
	}
	return 0
}

// drop marks all but k of the dice dropped: the lowest for keep highest
// and drop lowest, the highest otherwise. Of equal dice the later is
// dropped first, so the order of the dice decides ties the same way on
// every roll.
func (t *diceTerm) drop(keys []dieKey, k int) {
	if n := len(keys); min(k, n-k) > 8 {
		// Many dice on both sides: sort once.
		if t.keepsHighest() {
			slices.SortStableFunc(keys, byTotalDown)
		} else {
			slices.SortStableFunc(keys, byTotalUp)
		}
		for i := k; i < n; i++ {
			keys[i].dropped = true
		}
		return
	}
	high := t.keepsHighest()
	if k <= len(keys)-k {
		// Pick the kept dice one by one; the rest drop.
		for i := range keys {
			keys[i].dropped = true
		}
		for range k {
			best := -1
			for i, d := range keys {
				if d.dropped && (best < 0 || high && d.total > keys[best].total || !high && d.total < keys[best].total) {
					best = i
				}
			}
			keys[best].dropped = false
		}
		return
	}
	for range len(keys) - k {
		worst := -1
		for i, d := range keys {
			if !d.dropped && (worst < 0 || high && d.total <= keys[worst].total || !high && d.total >= keys[worst].total) {
				worst = i
			}
		}
		keys[worst].dropped = true
	}
}

func byTotalDown(a, b dieKey) int { return b.total - a.total }
func byTotalUp(a, b dieKey) int   { return a.total - b.total }

// rollPlain rolls a group of dice with no re-roll or explosion, all from
// the Roller's batched draws, one record a die.
func (e *Expr) rollPlain(t *diceTerm, g group, die int, r *Roller, res *ExprResult) {
	s := int(g.die)
	res.faces = r.RollN(g.n, s, res.faces[:0])
	from := len(res.Dice)
	res.Dice = slices.Grow(res.Dice, g.n)[:from+g.n]
	recs := res.Dice[from:]
	counts := t.success.op != noCmp
	direct := t.direct()
	for i, f := range res.faces {
		shown, v := f, f
		if !direct {
			shown, v = t.shown(f), t.read(f)
		}
		d := &recs[i]
		*d = RolledDie{}
		d.Term, d.Die, d.Sides, d.Fudge, d.Face, d.Value = t.index, die+i, s, t.fudge, shown, v
		switch {
		case !counts:
		case len(t.more) > 0:
			t.mark(d, v)
		case t.success.has(v):
			d.Success = true
		case t.failure.has(v):
			d.Failure = true
		}
	}
}

// mark flags rec as a success or failure on value v and returns its
// weight: 1 for a success, -1 for a failure, 0 otherwise.
func (t *diceTerm) mark(rec *RolledDie, v int) int {
	if len(t.more) == 0 {
		// One success point: rec is fresh, so only a hit is marked.
		switch {
		case t.success.has(v):
			rec.Success = true
			return 1
		case t.failure.has(v):
			rec.Failure = true
			return -1
		}
		return 0
	}
	w := t.weightOf(v)
	rec.Success, rec.Failure = w > 0, w < 0
	if w > 1 {
		rec.Successes = uint8(w) // at most 8 points
	}
	return w
}

// rollDie rolls one die of a term with re-rolls or explosions: its first
// face is rolled again while it is on the re-roll point (at most depth
// times, or once for ro), then each face on the explosion point adds
// another roll (at most boom of them). It reports whether the die
// exploded.
func (e *Expr) rollDie(t *diceTerm, s, die, boom int, r *Roller, res *ExprResult, key *dieKey) bool {
	from := len(res.Dice)
	face := r.Roll(s)
	if len(t.reroll) > 0 {
		limit := e.depth
		if t.once {
			limit = 1
		}
		for n := 0; n < limit && t.rerolls(t.read(face)); n++ {
			res.record(t, s, die, t.shown(face)).Rerolled = true
			face = r.Roll(s)
		}
	}
	shown, v := face, face
	if !t.direct() {
		shown, v = t.shown(face), t.read(face)
	}
	d := res.record(t, s, die, shown)
	d.Value = v
	total, weight := v, 0
	counts := t.success.op != noCmp
	if counts && t.explode == explode {
		weight = t.mark(d, d.Face) // "!": every roll counts on its own
	}
	exploded := false
	for n := 0; n < boom && t.explode != noExplode && t.explodes(face, s); n++ {
		exploded = true
		res.Dice[len(res.Dice)-1].Exploded = true
		face = r.Roll(s)
		x := res.record(t, s, die, face)
		x.Value, x.Extra = face, true
		if t.explode == penetrate {
			x.Value--
		}
		if counts && t.explode == explode {
			weight += t.mark(x, face)
		}
		total += x.Value
	}
	if counts && t.explode != explode {
		// The die's value is compared once, on its last record.
		weight = t.mark(&res.Dice[len(res.Dice)-1], total)
	}
	key.total, key.weight, key.from, key.to, key.dropped = total, weight, from, len(res.Dice), false
	return exploded
}

// record adds a record of a roll showing face on die number die of t, and
// returns it to be filled in.
func (res *ExprResult) record(t *diceTerm, s, die, face int) *RolledDie {
	res.Dice = append(res.Dice, RolledDie{})
	d := &res.Dice[len(res.Dice)-1]
	d.Term, d.Die, d.Sides, d.Fudge, d.Face = t.index, die, s, t.fudge, face
	return d
}

// String shows the roll as a chat bot does: each term's dice in brackets,
// struck through when dropped (~~1~~), 6! for a face that exploded, 1r for
// a face rolled again, a compounded die as one value with !!, * after a
// success and _ after a failure, a term's label after its dice; then the
// total, a whole check as 1 or 0, and the comment:
//
//	4d6kh3+2: [6, 5, 3, ~~1~~] + 2 = 16
//	d20+5>=15 # to hit: [12] + 5 >= 15 = 1 # to hit
func (res *ExprResult) String() string {
	if res.expr == nil {
		return ""
	}
	var b strings.Builder
	e := res.expr
	text := e.text
	if e.comment != "" {
		text = text[:len(text)-len(e.comment)-3] // less " # " and the comment
	}
	b.WriteString(text)
	b.WriteString(": ")
	e.root.writeTree(&b, 0, func(t *diceTerm, b *strings.Builder) { res.writeTerm(b, t) }, " ")
	b.WriteString(" = ")
	b.WriteString(strconv.Itoa(res.Total))
	if e.comment != "" {
		b.WriteString(" # " + e.comment)
	}
	return b.String()
}

func (res *ExprResult) writeTerm(b *strings.Builder, t *diceTerm) {
	sp := res.terms[t.index]
	recs := res.Dice[sp.from:sp.to]
	b.WriteByte('[')
	for i := 0; i < len(recs); i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		d := recs[i]
		v := d.Value
		mark := ""
		switch {
		case d.Rerolled:
			v, mark = d.Face, "r"
		case t.explode == compound:
			// The die's extra rolls add into one value.
			for i+1 < len(recs) && recs[i+1].Extra {
				i++
				v += recs[i].Value
				mark = "!!"
			}
			d = recs[i]
		case d.Exploded:
			mark = "!"
		}
		switch {
		case d.Success:
			mark += strings.Repeat("*", max(int(d.Successes), 1))
		case d.Failure:
			mark += "_"
		}
		s := strconv.Itoa(v) + mark
		if d.Dropped {
			s = "~~" + s + "~~"
		}
		b.WriteString(s)
	}
	b.WriteByte(']')
	if t.label != "" {
		b.WriteString("[" + t.label + "]")
	}
}

// rollGroup rolls a group's expressions in order, then keeps, drops or
// counts them by their totals as a term does its dice; the dice of an
// expression dropped are marked dropped.
func (e *Expr) rollGroup(n *node, r *Roller, res *ExprResult) int {
	t := n.term
	base := len(res.kids)
	for _, k := range n.kids {
		from := len(res.Dice)
		v := e.eval(k, r, res)
		res.kids = append(res.kids, dieKey{total: v, weight: t.weightOf(v), from: from, to: len(res.Dice)})
	}
	v := t.settle(res, res.kids[base:], t.kept())
	res.kids = res.kids[:base]
	return v
}
