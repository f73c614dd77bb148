package dice

import (
	"strconv"
	"strings"
)

// Limits on dice expressions, checked while parsing, before any roll or
// exact construction: no expression a chat user types can exhaust memory
// or run for long.
const (
	// MaxExprLen bounds the length of an expression, in bytes.
	MaxExprLen = 1000
	// MaxNesting bounds how deeply parentheses and unary minus signs nest.
	MaxNesting = 32
	// DefaultDepth is how many extra rolls an exploding die makes at most,
	// and how many times a die re-rolls at most, unless WithDepth says
	// otherwise.
	DefaultDepth = 10
	// MaxDepth bounds the depth WithDepth accepts.
	MaxDepth = 100
	// MaxValue bounds the absolute value of every number an expression can
	// produce, its parts included, so that no arithmetic overflows (2^53:
	// every such integer is exact in a float64 too).
	MaxValue = 1 << 53
)

// Expr is a parsed dice expression, such as "4d6kh3+2", "8d10>=7" or
// "(2d6+3)*2": a tree of dice terms, numbers and arithmetic. Expressions
// are immutable once parsed and safe to share between goroutines; Roll
// needs a Roller and an ExprResult of the caller's own.
//
// The package documentation gives the grammar.
type Expr struct {
	root    *node
	depth   int
	dice    int // dice in all terms
	terms   []*diceTerm
	text    string // canonical form
	comment string // the text after #, kept for the breakdown
}

type nodeKind uint8

const (
	numNode nodeKind = iota
	diceNode
	negNode
	addNode
	subNode
	mulNode
	divNode
	modNode   // left % right: the remainder of a division toward zero
	powNode   // left ^ right: a power, right >= 0
	cmpNode   // a whole check: left op right, 1 if it holds, else 0
	tiersNode // the tier of left: how many of cuts it is above
	groupNode // a group, {a, b}: kids kept, dropped or counted by total (term holds the modifiers)
)

// Rounding of a division: / rounds toward zero; floor() and ceil() round
// down and up.
const (
	roundZero uint8 = iota
	roundFloor
	roundCeil
)

// node is one part of an expression. lo and hi bound its values (every
// outcome lies in lo..hi); they are worked out when parsing, and keep every
// intermediate result within ±MaxValue.
type node struct {
	kind        nodeKind
	num         int
	term        *diceTerm
	left, right *node // right only for binary nodes, left for negNode
	lo, hi      int
	op          cmpOp   // cmpNode: the comparison
	cuts        []int   // tiersNode: the tiers' upper bounds, rising
	round       uint8   // divNode: roundZero, roundFloor or roundCeil
	kids        []*node // groupNode: the group's expressions
}

// divide returns a / b rounded as the node says (b != 0).
func (n *node) divide(a, b int) int {
	q := a / b
	if r := a % b; r != 0 {
		switch {
		case n.round == roundFloor && (r < 0) != (b < 0):
			q--
		case n.round == roundCeil && (r < 0) == (b < 0):
			q++
		}
	}
	return q
}

// keepKind says which dice a keep or drop modifier keeps.
type keepKind uint8

const (
	keepAll keepKind = iota
	keepHigh
	keepLow
	dropHigh
	dropLow
	keepMatch // keep the dice on a compare point (Avrae's k>3, k3)
	dropMatch // drop the dice on a compare point (Avrae's p<3, p1)
)

// explodeKind is the kind of explosion of a dice term.
type explodeKind uint8

const (
	noExplode explodeKind = iota
	explode               // "!": every extra roll is a roll of its own
	compound              // "!!": the extra rolls add into one value
	penetrate             // "!p": every extra roll counts one less
)

// cmpOp is the operator of a compare point.
type cmpOp uint8

const (
	noCmp cmpOp = iota
	cmpEq
	cmpGt
	cmpGe
	cmpLt
	cmpLe
	cmpNe // only in a whole check: d20 != 1
)

// compare is a compare point: "=5", ">=5", "<3". The zero value matches
// nothing.
type compare struct {
	op cmpOp
	n  int
}

// has reports whether v satisfies the compare point.
func (c compare) has(v int) bool {
	switch c.op {
	case cmpEq:
		return v == c.n
	case cmpGt:
		return v > c.n
	case cmpGe:
		return v >= c.n
	case cmpLt:
		return v < c.n
	case cmpLe:
		return v <= c.n
	case cmpNe:
		return v != c.n
	}
	return false
}

// cmpText spells each operator.
var cmpText = [...]string{"", "=", ">", ">=", "<", "<=", "!="}

func (c compare) String() string {
	if c.op == noCmp {
		return ""
	}
	return cmpText[c.op] + strconv.Itoa(c.n)
}

// point prints a compare point after r, ro, f or an explosion, where a
// bare number means "equal to": "r1", "!5", "f<=2".
func (c compare) point() string {
	if c.op == cmpEq {
		return strconv.Itoa(c.n)
	}
	return c.String()
}

// diceTerm is a pool of dice with its modifiers: "4d6kh3", "d12 d8 d6",
// "3d6!", "8d10>=7f1", "4dF".
type diceTerm struct {
	groups []group // sizes largest first; a Fudge term holds one group of d3
	fudge  bool    // the dice are Fudge dice: faces -1, 0, +1
	faces  []int   // custom faces, d{1,1,2,3}: a die of len(faces) sides reads faces[f-1]
	n      int     // dice in the term
	index  int     // the term's place in the expression, from 0

	keep           keepKind
	keepN          int
	keepAt         compare // keepMatch, dropMatch: the dice kept or dropped
	explode        explodeKind
	boom           compare   // explodes on this point; none: on each die's top face
	once1          bool      // "ra": a die explodes at most once (re-roll and add)
	addOnce        bool      // "rao", Avrae's ra: with once1, only the first die on the point adds a roll
	reroll         []compare // re-rolls on any of these points; none: no re-roll
	once           bool      // "ro": re-roll at most once
	minV, maxV     int       // "mi", "ma": a roll reads at least minV, at most maxV
	hasMin, hasMax bool      // whether mi and ma were given
	success        compare   // counts successes; none: the term sums its dice
	more           []compare // further success points: a die counts one more for each it meets
	failure        compare   // subtracts a failure for each die on this point
	label          string    // a label, [fire], kept in the breakdown
	path           totalPath // how Total rolls the term, worked out once when parsed
	countAt        int       // pathCount: the least face that succeeds
	sorted         bool      // a sort mark was given
	marks          string    // sort and crit marks, canonical ("sd", "cs>=19"): they change no odds
	unique         uint8     // rpg-dice-roller's u (uniqueAll) or uo (uniqueOnce): re-roll duplicates
	uniqueAt       compare   // only duplicates on this point re-roll; none: every duplicate
	match          int       // Roll20's mt: the total counts sets of at least match equal dice; 0: none
	matchAt        compare   // only sets whose face is on this point count; none: every set
}

// offset is what a face of the term's dice reads as, less the face rolled:
// a Fudge die rolls a d3 and reads it as -1, 0, +1.
func (t *diceTerm) offset() int {
	if t.fudge {
		return -2
	}
	return 0
}

// kept returns how many dice the keep or drop modifier keeps.
func (t *diceTerm) kept() int {
	switch t.keep {
	case keepMatch, dropMatch:
		return t.n // each die is kept or not by its value (see matchKept)
	case keepHigh, keepLow:
		return min(t.keepN, t.n)
	case dropHigh, dropLow:
		return max(t.n-t.keepN, 0)
	}
	return t.n
}

// keepsHighest reports whether the kept dice are the highest ones.
func (t *diceTerm) keepsHighest() bool { return t.keep == keepHigh || t.keep == dropLow }

// explodes reports whether a die of the term explodes on value v (a face
// read as the term reads it).
func (t *diceTerm) explodes(v int, sides int) bool {
	if t.explode == noExplode {
		return false
	}
	if t.boom.op == noCmp {
		return v == sides
	}
	return t.boom.has(v)
}

// rerolls reports whether a first roll of value v is rolled again.
func (t *diceTerm) rerolls(v int) bool {
	for _, c := range t.reroll {
		if c.has(v) {
			return true
		}
	}
	return false
}

// read returns the value a roll showing face reads as: the face, less 2
// for a Fudge die, held within mi and ma.
func (t *diceTerm) read(face int) int {
	v := t.shown(face)
	if t.hasMin {
		v = max(v, t.minV)
	}
	if t.hasMax {
		v = min(v, t.maxV)
	}
	return v
}

// direct reports whether a face reads as itself: numbered dice with no
// mi or ma.
func (t *diceTerm) direct() bool {
	return !t.fudge && t.faces == nil && !t.hasMin && !t.hasMax
}

// shown returns the number on a rolled face: the face, less 2 for a
// Fudge die, or the custom face.
func (t *diceTerm) shown(face int) int {
	if t.faces != nil {
		return t.faces[face-1]
	}
	return face + t.offset()
}

// span returns the least and greatest values a roll of a die of s sides
// reads.
func (t *diceTerm) span(s int) (lo, hi int) {
	if t.faces == nil {
		return t.read(1), t.read(s)
	}
	lo, hi = t.read(1), t.read(1)
	for f := 2; f <= s; f++ {
		lo, hi = min(lo, t.read(f)), max(hi, t.read(f))
	}
	return lo, hi
}

// limit returns how many extra rolls an exploding die of the term makes
// at most, at the expression's depth.
func (t *diceTerm) limit(depth int) int {
	if t.once1 {
		return 1
	}
	return depth
}

// bare reports whether the term is a plain pool: dice summed, no
// modifiers, as ParsePool reads them.
func (t *diceTerm) bare() bool {
	return t.keep == keepAll && t.explode == noExplode && len(t.reroll) == 0 && t.success.op == noCmp && !t.hasMin && !t.hasMax && t.label == "" && t.marks == "" && t.faces == nil && t.unique == 0 && t.match == 0
}

// String returns the expression in canonical form: dice groups largest
// first, modifiers in the order re-roll, explode, keep, success, failure,
// no spaces but between the dice of a pool, and parentheses only where
// they matter. ParseExpr reads it back to the same expression.
func (e *Expr) String() string { return e.text }

// Depth returns the most extra rolls an exploding die makes, and the most
// re-rolls of one die (DefaultDepth unless set by WithDepth).
func (e *Expr) Depth() int { return e.depth }

// Dice returns how many dice the expression rolls, before any explosion or
// re-roll.
func (e *Expr) Dice() int { return e.dice }

// MarshalText implements encoding.TextMarshaler: the canonical form.
func (e *Expr) MarshalText() ([]byte, error) { return []byte(e.text), nil }

// UnmarshalText implements encoding.TextUnmarshaler; on error e is
// unchanged. The depth is DefaultDepth.
func (e *Expr) UnmarshalText(text []byte) error {
	f, err := ParseExpr(string(text))
	if err != nil {
		return err
	}
	*e = *f
	return nil
}

// Set implements flag.Value, so an Expr can be a command-line flag.
func (e *Expr) Set(s string) error { return e.UnmarshalText([]byte(s)) }

// WithDepth returns the expression with explosions and re-rolls bounded at
// depth (1..MaxDepth) instead: an exploding die makes at most depth extra
// rolls and a die re-rolls at most depth times. Deeper bounds make the
// exact answer's truncated mass smaller and its work larger.
func (e *Expr) WithDepth(depth int) (*Expr, error) {
	return parseExpr(e.text, depth, Stakes) // the canonical form reads the same in every dialect
}

// write prints n in canonical form, in parentheses if its precedence is
// below prec (0: checks and tiers, 1: + and -, 2: *, / and %, 3: unary
// minus, 4: ^, 5: atoms).
func (n *node) write(b *strings.Builder, prec int) {
	n.writeTree(b, prec, (*diceTerm).write, "")
}

// writeTree prints n as write does, each dice term by term and each binary
// operator with sep on both sides: the expression's canonical form and a
// roll's breakdown share this one walk.
func (n *node) writeTree(b *strings.Builder, prec int, term func(*diceTerm, *strings.Builder), sep string) {
	p := n.prec()
	if p < prec {
		b.WriteByte('(')
	}
	switch n.kind {
	case numNode:
		b.WriteString(strconv.Itoa(n.num))
	case diceNode:
		term(n.term, b)
	case negNode:
		b.WriteByte('-')
		n.left.writeTree(b, 3, term, sep)
	case cmpNode:
		lp := 1
		if n.left.endsInDice() {
			// A comparison right after a pool would count successes.
			lp = 6
		}
		n.left.writeTree(b, lp, term, sep)
		b.WriteString(sep + cmpText[n.op] + sep)
		n.right.writeTree(b, 1, term, sep)
	case groupNode:
		b.WriteByte('{')
		for i, k := range n.kids {
			if i > 0 {
				b.WriteString(", ")
			}
			// A braced group's members are sums: a check or tiers among
			// them (Avrae's set, (d10=1, 0)) is printed in parentheses.
			k.writeTree(b, 1, term, sep)
		}
		b.WriteByte('}')
		n.term.write(b) // its modifiers: a group's term holds no dice
	case tiersNode:
		n.left.writeTree(b, 1, term, sep)
		b.WriteString(" tiers ")
		for i, c := range n.cuts {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.Itoa(c))
		}
	case powNode:
		// Right-associative: 2^3^2 is 2^(3^2).
		n.left.writeTree(b, p+1, term, sep)
		b.WriteString(sep + "^" + sep)
		n.right.writeTree(b, p, term, sep)
	case divNode:
		if n.round != roundZero {
			b.WriteString([...]string{"", "floor(", "ceil("}[n.round])
			n.left.writeTree(b, 2, term, sep)
			b.WriteString(sep + "/" + sep)
			n.right.writeTree(b, 3, term, sep)
			b.WriteByte(')')
			break
		}
		fallthrough
	default:
		n.left.writeTree(b, p, term, sep)
		b.WriteString(sep + n.opString() + sep)
		// The right operand of a left-associative operator takes
		// parentheses at its own level: a-(b-c), a/(b*c).
		n.right.writeTree(b, p+1, term, sep)
	}
	if p < prec {
		b.WriteByte(')')
	}
}

// endsInDice reports whether n, printed, ends with a dice term or a group:
// "2%d2" and "{d6, d8}kh1" do, so a comparison printed after it would read
// as that pool's success count.
func (n *node) endsInDice() bool {
	switch n.kind {
	case diceNode, groupNode:
		return true
	case negNode:
		return n.left.endsInDice()
	case addNode, subNode, mulNode, modNode, powNode:
		return n.right.endsInDice()
	case divNode:
		return n.round == roundZero && n.right.endsInDice()
	}
	return false
}

func (n *node) prec() int {
	switch n.kind {
	case cmpNode, tiersNode:
		return 0
	case divNode:
		if n.round != roundZero {
			return 5 // floor(...) and ceil(...) are atoms
		}
		return 2
	case addNode, subNode:
		return 1
	case mulNode, modNode:
		return 2
	case negNode:
		return 3
	case numNode:
		if n.num < 0 {
			return 3 // prints with a sign, as a unary minus would
		}
	case powNode:
		return 4
	}
	return 5
}

func (n *node) opString() string {
	switch n.kind {
	case addNode:
		return "+"
	case subNode:
		return "-"
	case mulNode:
		return "*"
	case modNode:
		return "%"
	case powNode:
		return "^"
	}
	return "/"
}

// write prints the term: its dice, then its modifiers in canonical order.
func (t *diceTerm) write(b *strings.Builder) {
	for i, g := range t.groups {
		if i > 0 {
			b.WriteByte(' ')
		}
		if g.n > 1 {
			b.WriteString(strconv.Itoa(g.n))
		}
		switch {
		case t.faces != nil:
			b.WriteString("d{")
			for i, f := range t.faces {
				if i > 0 {
					b.WriteByte(',')
				}
				b.WriteString(strconv.Itoa(f))
			}
			b.WriteByte('}')
		case t.fudge:
			b.WriteString("dF")
		default:
			b.WriteByte('d')
			b.WriteString(strconv.Itoa(int(g.die)))
		}
	}
	for _, c := range t.reroll {
		b.WriteString("r")
		if t.once {
			b.WriteString("o")
		}
		b.WriteString(c.point())
	}
	if t.hasMin {
		b.WriteString("mi" + strconv.Itoa(t.minV))
	}
	if t.hasMax {
		b.WriteString("ma" + strconv.Itoa(t.maxV))
	}
	switch {
	case t.addOnce:
		b.WriteString("rao")
	case t.once1:
		b.WriteString("ra")
	case t.explode == explode:
		b.WriteString("!")
	case t.explode == compound:
		b.WriteString("!!")
	case t.explode == penetrate:
		b.WriteString("!p")
	}
	b.WriteString(t.boom.point())
	if t.explode != noExplode && t.boom.op == noCmp && t.keep == keepAll && t.success.op != noCmp ||
		t.explode == explode && t.boom.op == noCmp && t.keep == dropMatch {
		// "3d6!>=5" would explode on 5 and 6, "d10!p=1" penetrate on 1; a
		// space ends the explosion.
		b.WriteByte(' ')
	}
	switch t.keep {
	case keepAll:
	case keepMatch:
		b.WriteString("k" + t.keepAt.String())
	case dropMatch:
		b.WriteString("p" + t.keepAt.String())
	default:
		b.WriteString([...]string{"", "kh", "kl", "dh", "dl"}[t.keep])
		b.WriteString(strconv.Itoa(t.keepN))
	}
	b.WriteString(t.success.String())
	for _, c := range t.more {
		b.WriteString(c.String())
	}
	if t.failure.op != noCmp {
		b.WriteString("f")
		b.WriteString(t.failure.point())
	}
	t.writeSets(b)
	b.WriteString(t.marks)
	if t.label != "" {
		b.WriteString("[" + t.label + "]")
	}
}
