package dice

// pool reads a dice term: one or more dice groups separated by spaces
// ("3d6", "d12 d8 d6", "4dF", "d%"), then its modifiers.
func (p *parser) pool() (*node, error) {
	at := p.i
	t := &diceTerm{}
	var gs []group
	for {
		gat := p.i
		g, fudge, err := p.group()
		if err != nil {
			return nil, err
		}
		if len(gs) > 0 && fudge != t.fudge {
			return nil, p.fail(gat, "Fudge dice and numbered dice cannot share a pool: add them, as in 4dF+d6")
		}
		t.fudge = fudge
		gs = append(gs, g)
		j := p.i
		for j < len(p.s) && (p.s[j] == ' ' || p.s[j] == '\t') {
			j++
		}
		if j == p.i || !groupAt(p.s, j) {
			break
		}
		p.i = j
	}
	t.groups = mergeGroups(gs)
	if err := p.modifiers(t); err != nil {
		return nil, err
	}
	return p.termNode(t, at)
}

// groupAt reports whether a dice group ("3d6", "d%", "4dF") starts at s[j].
func groupAt(s string, j int) bool {
	for j < len(s) && isDigit(s[j]) {
		j++
	}
	if j+1 >= len(s) || s[j] != 'd' {
		return false
	}
	c := s[j+1]
	return isDigit(c) || c == '%' || c == 'f'
}

// group reads NdS, dS, Nd% or NdF at p.i, which holds a digit or 'd'.
func (p *parser) group() (group, bool, error) {
	at := p.i
	count := 1
	if isDigit(p.peek()) {
		n, err := p.number(MaxDice, "a count of dice")
		if err != nil {
			return group{}, false, err
		}
		if n < 1 {
			return group{}, false, p.fail(at, "%dd: the count must be at least 1", n)
		}
		count = n
	}
	p.i++ // the 'd'
	sides, fudge := 0, false
	switch c := p.peek(); {
	case c == '%':
		sides = 100
		p.i++
	case c == 'f':
		sides, fudge = 3, true
		p.i++
	case isDigit(c):
		sat := p.i
		n, err := p.number(MaxSides, "a number of sides")
		if err != nil {
			return group{}, false, err
		}
		if n < 2 {
			return group{}, false, p.fail(sat, "d%d: sides must be 2..%d", n, MaxSides)
		}
		sides = n
	default:
		return group{}, false, p.fail(p.i, "'d' must be followed by the number of sides (as in d6), %% or F")
	}
	if p.dice+count > MaxDice {
		return group{}, false, p.fail(at, "more than %d dice in one expression", MaxDice)
	}
	p.dice += count
	return group{Die(sides), count}, fudge, nil
}

// modifiers reads the modifiers after a pool's dice, in any order, each
// at most once.
func (p *parser) modifiers(t *diceTerm) error {
	for {
		start := p.i
		p.skip()
		at := p.i
		c, next := p.peek(), byte(0)
		if at+1 < len(p.s) {
			next = p.s[at+1]
		}
		var err error
		switch {
		case c == 'k' || c == 'd' && (next == 'h' || next == 'l'):
			err = p.keepMod(t, at)
		case c == '!':
			err = p.explodeMod(t, at)
		case c == 'r':
			err = p.rerollMod(t, at)
		case c == '>' || c == '<' || c == '=':
			if t.success.op != noCmp {
				return p.fail(at, "a second success count: a pool counts successes once")
			}
			t.success, err = p.comparePoint("a success count")
		case c == 'f':
			err = p.failureMod(t, at)
		case c >= 'a' && c <= 'z' && !(c == 'd' && (isDigit(next) || next == '%')):
			return p.unknown(at)
		default:
			p.i = start
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// word returns the run of letters at at.
func (p *parser) word(at int) string {
	j := at
	for j < len(p.s) && p.s[j] >= 'a' && p.s[j] <= 'z' {
		j++
	}
	return p.s[at:j]
}

func (p *parser) unknown(at int) error {
	return p.fail(at, "unknown modifier %q: want %s", p.word(at), modifierList)
}

// keepMod reads kh N, kl N, k N (kh N), dh N or dl N; N defaults to 1.
func (p *parser) keepMod(t *diceTerm, at int) error {
	kinds := map[string]keepKind{"k": keepHigh, "kh": keepHigh, "kl": keepLow, "dh": dropHigh, "dl": dropLow}
	w := p.word(at)
	kind, ok := kinds[w]
	if !ok {
		return p.unknown(at)
	}
	if t.keep != keepAll {
		return p.fail(at, "a second keep or drop: a pool takes one")
	}
	p.i = at + len(w)
	t.keep, t.keepN = kind, 1
	if isDigit(p.peek()) {
		n, err := p.number(MaxDice, "a count of dice")
		if err != nil {
			return err
		}
		t.keepN = n
	}
	return nil
}

// explodeMod reads !, !! or !p and an optional compare point written
// right after it.
func (p *parser) explodeMod(t *diceTerm, at int) error {
	if t.explode != noExplode {
		return p.fail(at, "a second explosion: a pool explodes one way")
	}
	if t.fudge {
		return p.fail(at, "Fudge dice do not explode")
	}
	p.i++
	t.explode = explode
	switch p.peek() {
	case '!':
		t.explode = compound
		p.i++
	case 'p':
		t.explode = penetrate
		p.i++
	}
	if c := p.peek(); c == '=' || c == '<' || c == '>' || isDigit(c) {
		var err error
		t.boom, err = p.comparePoint("an explosion")
		return err
	}
	return nil
}

// rerollMod reads r or ro and its compare point.
func (p *parser) rerollMod(t *diceTerm, at int) error {
	w := p.word(at)
	if w != "r" && w != "ro" {
		return p.unknown(at)
	}
	if t.reroll.op != noCmp {
		return p.fail(at, "a second re-roll: a pool re-rolls one way")
	}
	p.i = at + len(w)
	t.once = w == "ro"
	var err error
	t.reroll, err = p.comparePoint("a re-roll")
	return err
}

// failureMod reads f and its compare point.
func (p *parser) failureMod(t *diceTerm, at int) error {
	if w := p.word(at); w != "f" {
		return p.unknown(at)
	}
	if t.success.op == noCmp {
		return p.fail(at, "f counts failures against successes: give the success count first, as in 8d10>=7f1")
	}
	if t.failure.op != noCmp {
		return p.fail(at, "a second failure count: a pool counts failures once")
	}
	p.i++
	var err error
	t.failure, err = p.comparePoint("a failure count")
	return err
}

// comparePoint reads =N, >N, >=N, <N, <=N or a bare N (=N); N may be
// negative.
func (p *parser) comparePoint(what string) (compare, error) {
	at := p.i
	ops := []struct {
		s  string
		op cmpOp
	}{{">=", cmpGe}, {"<=", cmpLe}, {">", cmpGt}, {"<", cmpLt}, {"=", cmpEq}}
	c := compare{op: cmpEq}
	for _, o := range ops {
		if len(p.s)-p.i >= len(o.s) && p.s[p.i:p.i+len(o.s)] == o.s {
			c.op = o.op
			p.i += len(o.s)
			break
		}
	}
	neg := p.peek() == '-'
	if neg {
		p.i++
	}
	if !isDigit(p.peek()) {
		return compare{}, p.fail(at, "want a compare point for %s, such as =1, >=5 or <3", what)
	}
	n, err := p.number(MaxModifier, "a compare point")
	if err != nil {
		return compare{}, err
	}
	if neg {
		n = -n
	}
	c.n = n
	return c, nil
}

// count returns how many integers in lo..hi satisfy the compare point.
func (c compare) count(lo, hi int) int {
	a, b := lo, hi
	switch c.op {
	case cmpEq:
		a, b = c.n, c.n
	case cmpGt:
		a = c.n + 1
	case cmpGe:
		a = c.n
	case cmpLt:
		b = c.n - 1
	case cmpLe:
		b = c.n
	default:
		return 0
	}
	a, b = max(a, lo), min(b, hi)
	return max(b-a+1, 0)
}

// termNode checks a term whole and works out the bounds of its values.
func (p *parser) termNode(t *diceTerm, at int) (*node, error) {
	t.n = 0
	for _, g := range t.groups {
		t.n += g.n
	}
	off := t.offset()
	for _, g := range t.groups {
		s := int(g.die)
		if t.explode != noExplode && t.boom.op != noCmp && t.boom.count(1, s) == s {
			return nil, p.fail(at, "%v explodes on every face of a %v: it would never stop", t.boom, g.die)
		}
		if t.reroll.op != noCmp && t.reroll.count(1+off, s+off) == s {
			return nil, p.fail(at, "r%v re-rolls every face of a %v: no face would stand", t.reroll, g.die)
		}
	}
	// The largest die bounds every die's value.
	top := int(t.groups[0].die)
	lo, hi := 1+off, top+off
	switch t.explode {
	case explode, compound:
		hi = top * (p.depth + 1)
	case penetrate:
		hi = top + p.depth*(top-1)
	}
	if t.success.op != noCmp {
		rolls := 1
		if t.explode == explode {
			rolls = p.depth + 1 // each roll of the chain counts
		}
		lo, hi = 0, rolls
		if t.failure.op != noCmp {
			lo = -rolls
		}
	}
	k := t.kept()
	return &node{kind: diceNode, term: t, lo: k * lo, hi: k * hi}, nil
}
