package dice

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// modifierList names every modifier, for errors.
const modifierList = "kh, kl, k, dh, dl, ph, pl, p, !, !!, !p, e, r, rr, ro, ra, mi, ma, min, max, u, uo, mt, >=, >, =, <=, <, f, s, sa, sd, cs, cf, [label]"

// ParseExpr reads a dice expression (see the package documentation for the
// grammar and its limits). Letters are case-insensitive and spaces may
// stand between terms, operators and modifiers. An error names the
// position in s (from 1) and what is allowed there:
//
//	dice: "4d6kx3": at 4: unknown modifier "kx": want kh, kl, dh, dl, ...
//
// Explosions and re-rolls are bounded at DefaultDepth; see WithDepth.
func ParseExpr(s string) (*Expr, error) { return parseExpr(s, DefaultDepth, Stakes) }

func parseExpr(s string, depth int, dialect Dialect) (*Expr, error) {
	if depth < 1 || depth > MaxDepth {
		return nil, fmt.Errorf("dice: depth %d: explosions and re-rolls may be bounded at 1..%d", depth, MaxDepth)
	}
	if len(s) > MaxExprLen {
		return nil, fmt.Errorf("dice: an expression of %d bytes is too long: at most %d", len(s), MaxExprLen)
	}
	comment := ""
	if i := strings.IndexByte(s, '#'); i >= 0 {
		// A comment runs to the end; it is kept for the breakdown.
		s, comment = s[:i], strings.TrimSpace(s[i+1:])
	}
	p := &parser{src: s, s: lowerASCII(s), depth: depth, dialect: dialect}
	p.skip()
	if p.i == len(p.s) {
		return nil, ErrEmptyNotation
	}
	root, err := p.check()
	if err != nil {
		return nil, err
	}
	p.skip()
	if p.i < len(p.s) {
		if p.s[p.i] == ')' {
			return nil, p.fail(p.i, "')' closes no '('")
		}
		return nil, p.fail(p.i, "unexpected %q: want an operator (+, -, *, /)", p.s[p.i:p.i+1])
	}
	e := &Expr{root: root, depth: depth, dice: p.dice, comment: comment}
	e.terms = numberTerms(root, nil)
	var b strings.Builder
	root.write(&b, 0)
	if comment != "" {
		b.WriteString(" # " + comment)
	}
	e.text = b.String()
	return e, nil
}

// numberTerms lists the dice terms in the order they print, numbering
// them from 0.
func numberTerms(n *node, ts []*diceTerm) []*diceTerm {
	switch n.kind {
	case diceNode:
		n.term.index = len(ts)
		return append(ts, n.term)
	case negNode, tiersNode:
		return numberTerms(n.left, ts)
	case numNode:
		return ts
	case groupNode:
		for _, k := range n.kids {
			ts = numberTerms(k, ts)
		}
		return ts
	}
	return numberTerms(n.right, numberTerms(n.left, ts))
}

// lowerASCII lowers ASCII letters only, so every byte keeps its position.
func lowerASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + ('a' - 'A')
		}
	}
	return string(b)
}

type parser struct {
	src     string // as given, for errors
	s       string // lowered
	i       int
	depth   int // explosion and re-roll bound
	dialect Dialect
	nest    int // parentheses and signs open
	dice    int // dice so far
}

// fail returns an error at byte offset at (printed from 1).
func (p *parser) fail(at int, format string, args ...any) error {
	return fmt.Errorf("dice: %q: at %d: %s", p.src, at+1, fmt.Sprintf(format, args...))
}

func (p *parser) skip() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t') {
		p.i++
	}
}

func (p *parser) peek() byte {
	if p.i < len(p.s) {
		return p.s[p.i]
	}
	return 0
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// chain reads terms joined by + and -, and, as ParsePool does, plain pools
// and numbers joined by spaces alone ("d12 d6", "3d6 4").
func (p *parser) chain() (*node, error) {
	p.skip()
	begin := p.i
	left, err := p.product()
	if err != nil {
		return nil, err
	}
	last := left
	for {
		start := p.i
		p.skip()
		c := p.peek()
		kind := addNode
		switch {
		case c == '+':
			p.i++
		case c == '-':
			kind = subNode
			p.i++
		case (isDigit(c) || c == 'd' || c == '(') && p.i > start:
			// Juxtaposed terms add, as in ParsePool, when both are plain.
			at := p.i
			right, err := p.product()
			if err != nil {
				return nil, err
			}
			if !plain(last) || !plain(right) {
				return nil, p.fail(at, "want an operator (+, -, *, /) between terms; only plain pools and numbers may stand side by side")
			}
			if left, err = p.binary(addNode, left, right, at); err != nil {
				return nil, err
			}
			last = right
			continue
		default:
			p.i = start
			return p.fold(left, begin)
		}
		at := p.i - 1
		right, err := p.product()
		if err != nil {
			return nil, err
		}
		if left, err = p.binary(kind, left, right, at); err != nil {
			return nil, err
		}
		last = right
	}
}

// plain reports whether n is a number or a plain pool.
func plain(n *node) bool {
	return n.kind == numNode || n.kind == diceNode && n.term.bare()
}

// product reads factors joined by * and /.
func (p *parser) product() (*node, error) {
	left, err := p.factor()
	if err != nil {
		return nil, err
	}
	for {
		start := p.i
		p.skip()
		c := p.peek()
		if c != '*' && c != '/' && c != '%' {
			p.i = start
			return left, nil
		}
		at := p.i
		p.i++
		floorDiv := c == '/' && p.peek() == '/' // Avrae's //: floor(a/b)
		if floorDiv {
			p.i++
		}
		right, err := p.factor()
		if err != nil {
			return nil, err
		}
		kind := mulNode
		switch c {
		case '/':
			kind = divNode
		case '%':
			kind = modNode
		}
		if left, err = p.binary(kind, left, right, at); err != nil {
			return nil, err
		}
		if floorDiv {
			left.round = roundFloor
			left.rounded()
		}
	}
}

// factor reads a number, a pool, a parenthesised expression or a negated
// factor, raised to a power if ^ or ** follows: the power binds tighter
// than a minus sign (-2^2 is -4) and from the right (2^3^2 is 2^9).
func (p *parser) factor() (*node, error) {
	p.skip()
	negated := p.peek() == '-'
	x, err := p.atom()
	if err != nil || negated {
		return x, err // a negation read its own power
	}
	start := p.i
	p.skip()
	at := p.i
	switch {
	case strings.HasPrefix(p.s[p.i:], "**"):
		p.i += 2
	case p.peek() == '^':
		p.i++
	default:
		p.i = start
		return x, nil
	}
	y, err := p.factor()
	if err != nil {
		return nil, err
	}
	return p.power(x, y, at)
}

// power joins a base and an exponent, refusing a negative exponent (a
// fraction) and powers past ±MaxValue.
func (p *parser) power(a, b *node, at int) (*node, error) {
	if b.lo < 0 {
		return nil, p.fail(at, "the exponent can be negative (its values lie in %d..%d): a power here is a whole number", b.lo, b.hi)
	}
	m := float64(max(-a.lo, a.hi, 1))
	if b.hi > 0 && math.Pow(m, float64(b.hi)) > MaxValue {
		return nil, p.fail(at, "values could reach %g: at most ±%d", math.Pow(m, float64(b.hi)), MaxValue)
	}
	top := ipow(int(m), b.hi)
	n := &node{kind: powNode, left: a, right: b, lo: 0, hi: max(top, 1)}
	if a.lo < 0 {
		n.lo = -top
	}
	return n, nil
}

// ipow returns a^b for b >= 0 (0^0 is 1), by squaring: the exponent of
// a base of -1, 0 or 1 may be as large as MaxValue. Parsing bounded the
// result; a square past it is only taken when no bit of b needs it.
func ipow(a, b int) int {
	switch a {
	case 0:
		if b == 0 {
			return 1
		}
		return 0
	case 1:
		return 1
	case -1:
		return 1 - 2*(b&1)
	}
	v := 1
	for b > 0 {
		if b&1 == 1 {
			v *= a
		}
		b >>= 1
		if b > 0 {
			a *= a
		}
	}
	return v
}

// atom reads what factor reads, before any power.
func (p *parser) atom() (*node, error) {
	p.skip()
	at := p.i
	c := p.peek()
	switch {
	case c == '+':
		// A unary plus (Avrae's +d20) changes nothing.
		if p.nest >= MaxNesting {
			return nil, p.fail(at, "nested too deeply: at most %d parentheses and signs", MaxNesting)
		}
		p.nest++
		defer func() { p.nest-- }()
		p.i++
		return p.factor()
	case c == '-' || c == '(':
		if p.nest >= MaxNesting {
			return nil, p.fail(at, "nested too deeply: at most %d parentheses and signs", MaxNesting)
		}
		p.nest++
		defer func() { p.nest-- }()
		p.i++
		if c == '-' {
			x, err := p.factor()
			if err != nil {
				return nil, err
			}
			if x.kind == numNode {
				return &node{kind: numNode, num: -x.num, lo: -x.num, hi: -x.num}, nil
			}
			if x.kind == cmpNode || x.kind == tiersNode {
				return nil, p.fail(at, "a check or tiers cannot be negated")
			}
			return &node{kind: negNode, left: x, lo: -x.hi, hi: -x.lo}, nil
		}
		x, err := p.check()
		if err != nil {
			return nil, err
		}
		p.skip()
		if p.peek() == ',' {
			// Avrae's set, (1d20, 1d20): a group.
			return p.groupOf(x, at, ')')
		}
		if p.peek() != ')' {
			return nil, p.fail(p.i, "want ')' to close the '(' at %d", at+1)
		}
		p.i++
		return p.wholePool(x, at)
	case c == '{':
		if p.nest >= MaxNesting {
			return nil, p.fail(at, "nested too deeply: at most %d parentheses and signs", MaxNesting)
		}
		p.nest++
		defer func() { p.nest-- }()
		p.i++
		x, err := p.chain()
		if err != nil {
			return nil, err
		}
		return p.groupOf(x, at, '}')
	case isDigit(c):
		j := p.i
		for j < len(p.s) && isDigit(p.s[j]) {
			j++
		}
		if j < len(p.s) && p.s[j] == 'd' {
			return p.pool()
		}
		n, err := p.number(MaxModifier, "a number")
		if err != nil {
			return nil, err
		}
		return &node{kind: numNode, num: n, lo: n, hi: n}, nil
	case c == 'd':
		return p.pool()
	case c == 'f' || c == 'c':
		return p.rounding(at)
	case c == 0:
		return nil, p.fail(at, "the expression ends too soon: want a number, dice such as 3d6, '(' or '-'")
	}
	return nil, p.fail(at, "unexpected %q: want a number, dice such as 3d6, '(' or '-'", p.s[at:at+1])
}

// number reads digits at p.i as a count of at most limit.
func (p *parser) number(limit int, what string) (int, error) {
	at := p.i
	for p.i < len(p.s) && isDigit(p.s[p.i]) {
		p.i++
	}
	if p.i == at {
		return 0, p.fail(at, "want %s", what)
	}
	n, err := atoiLimited(p.s[at:p.i])
	if err != nil || n > limit {
		return 0, p.fail(at, "%s %s is too large: at most %d", what, p.s[at:p.i], limit)
	}
	return n, nil
}

// binary joins two parts, working out the bounds of the result and
// refusing a divisor that can be 0 or values past ±MaxValue.
func (p *parser) binary(kind nodeKind, a, b *node, at int) (*node, error) {
	n := &node{kind: kind, left: a, right: b}
	switch kind {
	case addNode:
		n.lo, n.hi = a.lo+b.lo, a.hi+b.hi
	case subNode:
		n.lo, n.hi = a.lo-b.hi, a.hi-b.lo
	case modNode:
		if b.lo <= 0 && b.hi >= 0 {
			return nil, p.fail(at, "the divisor can be 0 (its values lie in %d..%d): divide by a term that cannot", b.lo, b.hi)
		}
		// The remainder takes the sign of a and is smaller than |b|.
		m := max(-b.lo, b.hi) - 1
		n.lo, n.hi = max(-m, min(a.lo, 0)), min(m, max(a.hi, 0))
	case mulNode, divNode:
		if kind == divNode && b.lo <= 0 && b.hi >= 0 {
			return nil, p.fail(at, "the divisor can be 0 (its values lie in %d..%d): divide by a term that cannot", b.lo, b.hi)
		}
		n.lo, n.hi = math.MaxInt, math.MinInt
		for _, x := range [2]int{a.lo, a.hi} {
			for _, y := range [2]int{b.lo, b.hi} {
				if kind == mulNode && math.Abs(float64(x)*float64(y)) > MaxValue {
					return nil, p.fail(at, "values could reach %g: at most ±%d", float64(x)*float64(y), MaxValue)
				}
				v := x * y
				if kind == divNode {
					v = x / y
				}
				n.lo, n.hi = min(n.lo, v), max(n.hi, v)
			}
		}
	}
	if n.lo < -MaxValue || n.hi > MaxValue {
		return nil, p.fail(at, "values could reach %d..%d: at most ±%d", n.lo, n.hi, MaxValue)
	}
	return n, nil
}

// fold turns a sum of plain pools and numbers into one pool and a flat
// modifier, as ParsePool reads it: "2d6 + d4 - 1" is "2d6 d4-1", and
// "1+2" is 3. Any other sum is left as written.
func (p *parser) fold(n *node, at int) (*node, error) {
	var gs []group
	fudge, sawDice, flat := false, false, 0
	ok := true
	var walk func(n *node, sign int)
	walk = func(n *node, sign int) {
		switch {
		case !ok:
		case n.kind == addNode || n.kind == subNode:
			walk(n.left, sign)
			if n.kind == subNode {
				sign = -sign
			}
			walk(n.right, sign)
		case n.kind == numNode:
			flat += sign * n.num
		case n.kind == diceNode && n.term.bare() && sign > 0 && (!sawDice || fudge == n.term.fudge):
			sawDice, fudge = true, n.term.fudge
			gs = append(gs, n.term.groups...)
		default:
			ok = false
		}
	}
	walk(n, 1)
	if !ok || n.kind != addNode && n.kind != subNode {
		return n, nil
	}
	if flat > MaxModifier || flat < -MaxModifier {
		return nil, p.fail(at, "the flat modifiers add up to %d: at most ±%d", flat, MaxModifier)
	}
	num := &node{kind: numNode, num: flat, lo: flat, hi: flat}
	if !sawDice {
		return num, nil
	}
	pool, err := p.termNode(&diceTerm{groups: mergeGroups(gs), fudge: fudge}, at)
	if err != nil || flat == 0 {
		return pool, err
	}
	if flat < 0 {
		num.num, num.lo, num.hi = -flat, -flat, -flat
		return p.binary(subNode, pool, num, at)
	}
	return p.binary(addNode, pool, num, at)
}

// mergeGroups sorts dice groups largest first and joins equal sizes.
func mergeGroups(gs []group) []group {
	slices.SortStableFunc(gs, func(a, b group) int { return int(b.die) - int(a.die) })
	var out []group
	for _, g := range gs {
		if len(out) > 0 && out[len(out)-1].die == g.die {
			out[len(out)-1].n += g.n
			continue
		}
		out = append(out, g)
	}
	return out
}

// check reads a whole expression, then, optionally, a whole check against
// another ("d20+5>=15": 1 if it holds, else 0) or tiers ("2d6+1 tiers
// 6,9": 0 for 6 or less, 1 for 7..9, 2 for 10 or more).
func (p *parser) check() (*node, error) {
	left, err := p.chain()
	if err != nil {
		return nil, err
	}
	start := p.i
	p.skip()
	at := p.i
	op := p.compareOp()
	if op == noCmp && strings.HasPrefix(p.s[p.i:], "!=") {
		op = cmpNe
		p.i += 2
	}
	if op != noCmp {
		right, err := p.chain()
		if err != nil {
			return nil, err
		}
		n := &node{kind: cmpNode, op: op, left: left, right: right, lo: 0, hi: 1}
		if always, never := n.settled(); always || never {
			return nil, p.fail(at, "the check %s never changes: the two sides span %d..%d and %d..%d", cmpText[op], left.lo, left.hi, right.lo, right.hi)
		}
		return n, nil
	}
	if p.word(at) == "tiers" {
		p.i = at + len("tiers")
		return p.tiers(left, at)
	}
	p.i = start
	return left, nil
}

// settled reports whether a check holds on every outcome its sides'
// bounds allow, or on none.
func (n *node) settled() (always, never bool) {
	lo, hi := n.left.lo-n.right.hi, n.left.hi-n.right.lo // left - right
	c := compare{op: n.op}
	k := c.count(lo, hi)
	return k == hi-lo+1, k == 0
}

// tiers reads the cuts after "tiers": numbers, rising, joined by commas.
func (p *parser) tiers(left *node, at int) (*node, error) {
	var cuts []int
	for {
		p.skip()
		neg := p.peek() == '-'
		if neg {
			p.i++
		}
		n, err := p.number(MaxModifier, "a tier's upper bound")
		if err != nil {
			return nil, err
		}
		if neg {
			n = -n
		}
		if len(cuts) > 0 && n <= cuts[len(cuts)-1] {
			return nil, p.fail(at, "tiers' bounds must rise: %d after %d", n, cuts[len(cuts)-1])
		}
		if len(cuts) == 100 {
			return nil, p.fail(at, "more than 100 tiers")
		}
		cuts = append(cuts, n)
		p.skip()
		if p.peek() != ',' {
			break
		}
		p.i++
	}
	if cuts[0] >= left.hi || cuts[len(cuts)-1] < left.lo {
		return nil, p.fail(at, "the tiers never change: the value spans %d..%d", left.lo, left.hi)
	}
	return &node{kind: tiersNode, left: left, cuts: cuts, lo: 0, hi: len(cuts)}, nil
}

// rounding reads floor(a/b) or ceil(a/b): a division rounded down or up
// rather than toward zero.
func (p *parser) rounding(at int) (*node, error) {
	w := p.word(at)
	mode := map[string]uint8{"floor": roundFloor, "ceil": roundCeil}[w]
	if mode == roundZero || at+len(w) >= len(p.s) || p.s[at+len(w)] != '(' {
		return nil, p.fail(at, "unexpected %q: want a number, dice such as 3d6, '(', '-', floor( or ceil(", w)
	}
	p.i = at + len(w)
	x, err := p.factor() // the parenthesised argument
	if err != nil {
		return nil, err
	}
	if x.kind != divNode || x.round != roundZero {
		return nil, p.fail(at, "%s(...) never acts on a whole number: it rounds one division, as in %s(d20/3)", w, w)
	}
	x.round = mode
	x.rounded()
	return x, nil
}

// rounded works out a division's bounds again for its rounding: the
// extremes lie at the corners of its operands' bounds.
func (x *node) rounded() {
	x.lo, x.hi = math.MaxInt, math.MinInt
	for _, a := range [2]int{x.left.lo, x.left.hi} {
		for _, b := range [2]int{x.right.lo, x.right.hi} {
			v := x.divide(a, b)
			x.lo, x.hi = min(x.lo, v), max(x.hi, v)
		}
	}
}

// wholePool reads modifiers written right after a parenthesised pool of
// plain dice: (2d6+2d8)kh2 keeps the 2 highest of the four dice, a mixed
// pool kept as a whole, as d8 d8 d6 d6kh2 does.
func (p *parser) wholePool(x *node, at int) (*node, error) {
	c := p.peek()
	if !(c == '!' || c == '[' || c >= 'a' && c <= 'z' && c != 't') || strings.HasPrefix(p.s[p.i:], "!=") {
		return x, nil
	}
	if x.kind != diceNode || !x.term.bare() {
		return nil, p.fail(p.i, "modifiers after ')' act on a pool of plain dice with no number added, as in (2d6+2d8)kh2")
	}
	if err := p.modifiers(x.term); err != nil {
		return nil, err
	}
	return p.termNode(x.term, at)
}
