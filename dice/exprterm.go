package dice

import (
	"math"
	"slices"
	"strings"
)

// pool reads a dice term: one or more dice groups separated by spaces
// ("3d6", "d12 d8 d6", "4dF", "d%"), then its modifiers.
func (p *parser) pool() (*node, error) {
	at := p.i
	t := &diceTerm{}
	var gs []group
	for {
		gat := p.i
		g, fudge, faces, err := p.group()
		if err != nil {
			return nil, err
		}
		switch {
		case len(gs) > 0 && fudge != t.fudge:
			return nil, p.fail(gat, "Fudge dice and numbered dice cannot share a pool: add them, as in 4dF+d6")
		case len(gs) > 0 && !slices.Equal(faces, t.faces):
			return nil, p.fail(gat, "dice of other faces cannot share a pool with custom dice: add them, as in 2d{1,1,2}+d6")
		}
		t.fudge, t.faces = fudge, faces
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
	return isDigit(c) || c == '%' || c == 'f' || c == '{'
}

// group reads NdS, dS, Nd%, NdF (dF.2, and dF.1, rpg-dice-roller's
// Fudge die of one -1 and one +1) or a die of custom faces, d{1,1,2,3},
// at p.i, which holds a digit or 'd'.
func (p *parser) group() (g group, fudge bool, faces []int, err error) {
	at := p.i
	count := 1
	if isDigit(p.peek()) {
		n, err := p.number(MaxDice, "a count of dice")
		if err != nil {
			return group{}, false, nil, err
		}
		if n < 1 {
			return group{}, false, nil, p.fail(at, "%dd: the count must be at least 1", n)
		}
		count = n
	}
	p.i++ // the 'd'
	sides := 0
	switch c := p.peek(); {
	case c == '%':
		sides = 100
		p.i++
	case c == 'f':
		sides, fudge = 3, true
		p.i++
		if strings.HasPrefix(p.s[p.i:], ".2") {
			p.i += 2
		} else if strings.HasPrefix(p.s[p.i:], ".1") {
			p.i += 2
			sides, fudge, faces = 6, false, []int{-1, 0, 0, 0, 0, 1}
		}
	case c == '{':
		if faces, err = p.faces(); err != nil {
			return group{}, false, nil, err
		}
		sides = len(faces)
	case isDigit(c):
		sat := p.i
		n, err := p.number(MaxSides, "a number of sides")
		if err != nil {
			return group{}, false, nil, err
		}
		if n < 2 {
			return group{}, false, nil, p.fail(sat, "d%d: sides must be 2..%d", n, MaxSides)
		}
		sides = n
	default:
		return group{}, false, nil, p.fail(p.i, "'d' must be followed by the number of sides (as in d6), %%, F or faces in braces (d{1,1,2})")
	}
	if p.dice+count > MaxDice {
		return group{}, false, nil, p.fail(at, "more than %d dice in one expression", MaxDice)
	}
	p.dice += count
	return group{Die(sides), count}, fudge, faces, nil
}

// faces reads a custom die's faces, {1,1,2,3}: at least two numbers
// within ±MaxModifier, each face equally likely.
func (p *parser) faces() ([]int, error) {
	at := p.i
	p.i++ // the '{'
	var faces []int
	for {
		p.skip()
		neg := p.peek() == '-'
		if neg {
			p.i++
		}
		n, err := p.number(MaxModifier, "a face")
		if err != nil {
			return nil, err
		}
		if neg {
			n = -n
		}
		faces = append(faces, n)
		p.skip()
		if p.peek() == '}' {
			p.i++
			break
		}
		if p.peek() != ',' {
			return nil, p.fail(p.i, "want ',' or '}' to close the faces at %d", at+1)
		}
		p.i++
	}
	if len(faces) < 2 {
		return nil, p.fail(at, "a die of custom faces needs two faces or more")
	}
	return faces, nil
}

// modifiers reads the modifiers after a pool's dice, in any order, each
// at most once (re-roll points may be several).
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
		case c == 'k' || c == 'p' || c == 'd' && (next == 'h' || next == 'l'):
			err = p.keepMod(t, at)
		case c == 'd' && isDigit(next) && at == start:
			err = p.dropShort(t, at)
		case c == '!' && !(next == '=' && p.dialect == Avrae):
			err = p.explodeMod(t, at)
		case c == 'e' && p.word(at) == "e":
			err = p.avraeExplode(t, at)
		case c == 'r':
			err = p.rerollMod(t, at)
		case c == 'm' && next == 't':
			err = p.matchMod(t, at)
		case c == 'm':
			err = p.clampMod(t, at)
		case c == 's' || c == 'c':
			err = p.markMod(t, at)
		case c == '[':
			err = p.labelMod(t, at)
		case (c == '>' || c == '<' || c == '=' || c == '!' && next == '=') && p.dialect == Avrae:
			// Avrae compares the pool's total: a whole check.
			p.i = start
			return nil
		case c == '>' || c == '<' || c == '=':
			var c compare
			c, err = p.comparePoint("a success count")
			switch {
			case t.success.op == noCmp:
				t.success = c
			case t.failure.op != noCmp:
				return p.fail(at, "a success point after the failure count: give every success point first")
			case len(t.more) == 7:
				return p.fail(at, "more than 8 success points")
			default:
				// Each further point a die meets counts one more success.
				t.more = append(t.more, c)
			}
		case c == 'f':
			err = p.failureMod(t, at)
		case c == 'u':
			err = p.uniqueMod(t, at)
		case c == 't' && p.word(at) == "tiers":
			p.i = start
			return nil
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

// keepMod reads a keep or drop: kh N, kl N, k N, dh N, dl N (N defaults
// to 1), Avrae's drops ph N and pl N, and the selectors k P and p P that
// keep or drop the dice on a compare point P (k>3, p<2, k=6). A bare
// number after k is kh N, but in the Avrae dialect the dice showing it.
func (p *parser) keepMod(t *diceTerm, at int) error {
	kinds := map[string]keepKind{"k": keepHigh, "kh": keepHigh, "kl": keepLow, "dh": dropHigh, "dl": dropLow,
		"p": dropMatch, "ph": dropHigh, "pl": dropLow}
	w := p.word(at)
	kind, ok := kinds[w]
	if !ok {
		return p.unknown(at)
	}
	if t.keep != keepAll {
		return p.fail(at, "a second keep or drop: a pool takes one")
	}
	p.i = at + len(w)
	c := p.peek()
	op := c == '=' || c == '<' || c == '>'
	switch {
	case w == "k" && (op || p.dialect == Avrae && isDigit(c)), w == "p" && (op || isDigit(c)):
		t.keep = keepMatch
		if w == "p" {
			t.keep = dropMatch
		}
		var err error
		t.keepAt, err = p.comparePoint("a keep or drop selector")
		return err
	case w == "p":
		return p.fail(at, "p drops the dice on a selector: write ph1, pl1, p1 or p<3")
	}
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

// dropShort reads Roll20's dN, drop the N lowest, which the other
// dialects refuse with the form they read.
func (p *parser) dropShort(t *diceTerm, at int) error {
	if p.dialect != Roll20 {
		alt := "dl"
		if p.dialect == Avrae {
			alt = "pl"
		}
		return p.fail(at, "%q drops the lowest dice only in the Roll20 dialect: write %s%s", p.s[at:p.i+1+len(p.digitsAt(at+1))], alt, p.digitsAt(at+1))
	}
	if t.keep != keepAll {
		return p.fail(at, "a second keep or drop: a pool takes one")
	}
	p.i = at + 1
	n, err := p.number(MaxDice, "a count of dice")
	if err != nil {
		return err
	}
	t.keep, t.keepN = dropLow, n
	return nil
}

// digitsAt returns the run of digits at j.
func (p *parser) digitsAt(j int) string {
	k := j
	for k < len(p.s) && isDigit(p.s[k]) {
		k++
	}
	return p.s[j:k]
}

// explodeMod reads !, !! or !p and an optional compare point written
// right after it.
func (p *parser) explodeMod(t *diceTerm, at int) error {
	if t.explode != noExplode {
		return p.fail(at, "a second explosion: a pool explodes one way")
	}
	if err := p.noExplosion(t, at); err != nil {
		return err
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

// avraeExplode reads Avrae's e P: explode on the point P, as !P.
func (p *parser) avraeExplode(t *diceTerm, at int) error {
	if t.explode != noExplode {
		return p.fail(at, "a second explosion: a pool explodes one way")
	}
	if err := p.noExplosion(t, at); err != nil {
		return err
	}
	p.i = at + 1
	var err error
	t.explode = explode
	t.boom, err = p.comparePoint("an explosion (e)")
	return err
}

// rerollMod reads r, rr (Avrae's r), ro, ra or rao and its compare
// point. r and rr may be given several times (2d8r1r3 re-rolls 1s and
// 3s). ra, re-roll and add, rolls each die on the point once more and
// adds it; rao, and ra in Avrae's dialect, adds one roll for the first
// die on the point, once a pool (Avrae's d20 library: "rerolls up to
// one matched value once, keeping the original roll").
func (p *parser) rerollMod(t *diceTerm, at int) error {
	w := p.word(at)
	switch w {
	case "r", "rr", "ro":
	case "ra", "rao":
		if t.explode != noExplode {
			return p.fail(at, "%s adds a roll as an explosion does: a pool explodes one way", w)
		}
		if err := p.noExplosion(t, at); err != nil {
			return err
		}
		p.i = at + len(w)
		var err error
		t.explode, t.once1 = explode, true
		t.addOnce = w == "rao" || p.dialect == Avrae
		t.boom, err = p.comparePoint("a re-roll and add (" + w + ")")
		return err
	default:
		return p.unknown(at)
	}
	once := w == "ro"
	if len(t.reroll) > 0 && t.once != once {
		return p.fail(at, "ro re-rolls once and r until the face is off the point: a pool re-rolls one way")
	}
	if len(t.reroll) >= 8 {
		return p.fail(at, "more than 8 re-roll points")
	}
	p.i = at + len(w)
	t.once = once
	c, err := p.comparePoint("a re-roll")
	t.reroll = append(t.reroll, c)
	return err
}

// clampMod reads mi N, ma N (Avrae) or min N, max N (rpg-dice-roller): a
// roll below N reads N, or above N reads N.
func (p *parser) clampMod(t *diceTerm, at int) error {
	w := p.word(at)
	if !slices.Contains([]string{"mi", "ma", "min", "max"}, w) {
		// Roll20's match mark m, which another mark may follow at once
		// ("msa", as a roll's canonical form prints "m" then "sa").
		w = w[:1]
	}
	var set *bool
	var v *int
	switch w {
	case "mi", "min":
		set, v = &t.hasMin, &t.minV
	case "ma", "max":
		set, v = &t.hasMax, &t.maxV
	case "m":
		// Roll20's m (mN): marks dice that match, no change in odds.
		if strings.Contains(t.marks, "m") {
			return p.fail(at, "a second m: a pool marks its matches once")
		}
		p.i = at + 1
		t.marks += "m" + p.digitsAt(p.i)
		p.i += len(p.digitsAt(p.i))
		return nil
	default:
		return p.unknown(at)
	}
	if *set {
		return p.fail(at, "a second %s: a pool takes one", w)
	}
	p.i = at + len(w)
	neg := p.peek() == '-'
	if neg {
		p.i++
	}
	n, err := p.number(MaxModifier, "a bound for "+w)
	if err != nil {
		return err
	}
	if neg {
		n = -n
	}
	*set, *v = true, n
	return nil
}

// markMod reads Roll20's sort marks (s, sa, sd) and critical marks (cs P,
// cf P), which change no odds; they are kept in the canonical form.
func (p *parser) markMod(t *diceTerm, at int) error {
	w := p.s[at : at+1]
	if at+1 < len(p.s) {
		switch p.s[at : at+2] {
		case "sa", "sd", "cs", "cf":
			w = p.s[at : at+2]
		}
	}
	switch w {
	case "s", "sa", "sd":
		if t.sorted {
			return p.fail(at, "a second sort: a pool sorts one way")
		}
		p.i = at + len(w)
		if w == "s" {
			w = "sa"
		}
		t.sorted = true
		t.marks += w
		return nil
	case "cs", "cf":
		p.i = at + 2
		c, err := p.comparePoint("a critical mark")
		if err != nil {
			return err
		}
		t.marks += w + c.point()
		return nil
	}
	return p.unknown(at)
}

// labelMod reads a label in brackets, [fire], kept with the term.
func (p *parser) labelMod(t *diceTerm, at int) error {
	end := strings.IndexByte(p.s[at:], ']')
	if end < 0 {
		return p.fail(at, "'[' opens a label that no ']' closes")
	}
	if t.label != "" {
		return p.fail(at, "a second label: a term takes one")
	}
	label := strings.TrimSpace(p.src[at+1 : at+end])
	if label == "" || strings.ContainsAny(label, "[#") {
		return p.fail(at, "a label is text in brackets, as in 2d6[fire]")
	}
	t.label = label
	p.i = at + end + 1
	return nil
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
// negative. In the Roll20 dialect > and < include N.
func (p *parser) comparePoint(what string) (compare, error) {
	at := p.i
	c := compare{op: p.compareOp()}
	if c.op == noCmp {
		c.op = cmpEq
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

// compareOp reads a comparison operator at p.i, as the dialect reads it;
// noCmp if there is none.
func (p *parser) compareOp() cmpOp {
	ops := []struct {
		s  string
		op cmpOp
	}{{">=", cmpGe}, {"<=", cmpLe}, {"==", cmpEq}, {">", cmpGt}, {"<", cmpLt}, {"=", cmpEq}}
	for _, o := range ops {
		if strings.HasPrefix(p.s[p.i:], o.s) {
			p.i += len(o.s)
			switch {
			case p.dialect == Roll20 && o.op == cmpGt:
				return cmpGe
			case p.dialect == Roll20 && o.op == cmpLt:
				return cmpLe
			}
			return o.op
		}
	}
	return noCmp
}

// count returns how many integers in lo..hi satisfy the compare point.
func (c compare) count(lo, hi int) int {
	a, b := lo, hi
	switch c.op {
	case cmpNe:
		return hi - lo + 1 - compare{op: cmpEq, n: c.n}.count(lo, hi)
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
// A modifier that can never act is an error that says why.
func (p *parser) termNode(t *diceTerm, at int) (*node, error) {
	t.n = 0
	for _, g := range t.groups {
		t.n += g.n
	}
	if err := p.checkActs(t, at); err != nil {
		return nil, err
	}
	if err := p.checkSets(t, at); err != nil {
		return nil, err
	}
	if t.match > 0 {
		t.path = pathEach
		return &node{kind: diceNode, term: t, lo: 0, hi: t.n / t.match}, nil
	}
	// The largest die bounds every die's value.
	top := int(t.groups[0].die)
	lo, hi := t.span(top)
	limit := t.limit(p.depth)
	switch t.explode {
	case explode, compound:
		hi = top * (limit + 1)
	case penetrate:
		hi = top + limit*(top-1)
	}
	if t.success.op != noCmp {
		rolls := 1 + len(t.more) // a die meeting every point
		if t.explode == explode {
			rolls *= limit + 1 // each roll of the chain counts
		}
		lo, hi = 0, rolls
		if t.failure.op != noCmp {
			lo = -rolls
		}
	}
	if t.keep == keepMatch || t.keep == dropMatch {
		lo, hi = min(lo, 0), max(hi, 0) // a die not kept adds 0
	}
	k := t.kept()
	t.path, t.countAt = t.totalPath()
	return &node{kind: diceNode, term: t, lo: k * lo, hi: k * hi}, nil
}

// checkActs refuses modifiers that can never act on the term's dice, and
// combinations the package does not read.
func (p *parser) checkActs(t *diceTerm, at int) error {
	switch {
	case (t.keep == keepHigh || t.keep == keepLow) && t.keepN >= t.n:
		return p.fail(at, "keeping %d of %d dice keeps every die: the keep never acts", t.keepN, t.n)
	case (t.keep == dropHigh || t.keep == dropLow) && t.keepN == 0:
		return p.fail(at, "dropping 0 dice never acts")
	}
	if (t.hasMin || t.hasMax) && t.explode != noExplode {
		return p.fail(at, "mi, ma and min, max do not combine with explosions here: a clamped die's top face is ambiguous")
	}
	if t.hasMin && t.hasMax && t.minV > t.maxV {
		return p.fail(at, "mi%d is above ma%d: no roll could read both", t.minV, t.maxV)
	}
	if (t.keep == keepMatch || t.keep == dropMatch) && t.success.op != noCmp && t.explode == explode {
		return p.fail(at, "a keep or drop by selector with successes counted on every exploded roll is not read here: count with !! or without the selector")
	}
	if t.addOnce && (t.keep != keepAll || t.success.op != noCmp || len(t.groups) > 1) {
		return p.fail(at, "rao (Avrae's ra) adds one die to a pool of one size, summed: it does not combine with a keep, a drop, a success count or mixed sizes here")
	}
	for _, g := range t.groups {
		s := int(g.die)
		flo, fhi := t.rawSpan(s)
		if t.hasMin && t.minV <= flo {
			return p.fail(at, "mi%d never acts: no %v rolls below %d", t.minV, g.die, flo)
		}
		if t.hasMax && t.maxV >= fhi {
			return p.fail(at, "ma%d never acts: no %v rolls above %d", t.maxV, g.die, fhi)
		}
		if t.explode != noExplode && t.boom.op != noCmp {
			switch t.boom.count(1, s) {
			case s:
				if t.once1 {
					break // ra adds one roll a die, or a pool, whatever it shows
				}
				return p.fail(at, "%v explodes on every face of a %v: it would never stop", t.boom, g.die)
			case 0:
				return p.fail(at, "the explosion on %v never acts: no face of a %v is %v", t.boom, g.die, t.boom)
			}
		}
		for _, c := range t.reroll {
			if t.facesOn(s, []compare{c}) == 0 {
				return p.fail(at, "r%v never acts: no roll of a %v reads %v", c.point(), g.die, c)
			}
		}
		if len(t.reroll) > 0 && t.facesOn(s, t.reroll) == s {
			return p.fail(at, "the re-roll points cover every face of a %v: no face would stand", g.die)
		}
	}
	return p.checkCounts(t, at)
}

// checkCounts refuses a success count, failure count or selector that no
// die of the term can meet.
func (p *parser) checkCounts(t *diceTerm, at int) error {
	// The values a die is compared by: each roll for !, else its total.
	lo, hi := math.MaxInt, math.MinInt
	for _, g := range t.groups {
		s := int(g.die)
		a, b := t.span(s)
		switch t.explode {
		case compound:
			b = s * (t.limit(p.depth) + 1)
		case penetrate:
			b = s + t.limit(p.depth)*(s-1)
		}
		lo, hi = min(lo, a), max(hi, b)
	}
	if t.explode == compound || t.explode == penetrate {
		lo = t.read(1) // totals fill lo..hi but for gaps the count ignores
	}
	type point struct {
		c    compare
		what string
	}
	points := []point{{t.success, "success count"}, {t.failure, "failure count"}, {t.keepAt, "selector"}}
	for _, c := range t.more {
		points = append(points, point{c, "success count"})
	}
	for _, x := range points {
		if x.c.op != noCmp && x.c.count(lo, hi) == 0 {
			hint := ""
			if x.what == "success count" {
				hint = ": to compare the total, put the pool in parentheses, as in (3d6)>=10"
			}
			return p.fail(at, "the %s %v never acts: the dice read %d..%d%s", x.what, x.c, lo, hi, hint)
		}
	}
	return nil
}

// coversAll reports whether every integer in lo..hi is on one of the
// points: each point is an interval, and the walk steps from lo past the
// furthest end of the intervals holding it.
func coversAll(cs []compare, lo, hi int) bool {
	for cur := lo; cur <= hi; {
		end := cur - 1
		for _, c := range cs {
			a, b := c.interval()
			if a <= cur && cur <= b {
				end = max(end, b)
			}
		}
		if end < cur || end >= hi {
			return end >= hi
		}
		cur = end + 1
	}
	return true
}

// interval returns the integers the point holds, as a..b (math.MinInt,
// math.MaxInt for no bound).
func (c compare) interval() (a, b int) {
	switch c.op {
	case cmpEq:
		return c.n, c.n
	case cmpGt:
		return c.n + 1, math.MaxInt
	case cmpGe:
		return c.n, math.MaxInt
	case cmpLt:
		return math.MinInt, c.n - 1
	case cmpLe:
		return math.MinInt, c.n
	}
	return 1, 0
}

// groupOf reads the rest of a group after its first expression x, up to
// close: more expressions after commas, then modifiers. Roll20's group of
// one pool of plain dice, {4d6+3d8}k4, is that pool kept as a whole;
// otherwise the group keeps, drops or counts its expressions by their
// totals: {3d6, 4d4+1}kh1 is the higher total, {3d20+5}>21 a success or
// not, (1d20, 1d20)kh1 Avrae's advantage.
func (p *parser) groupOf(x *node, at int, close byte) (*node, error) {
	kids := []*node{x}
	for {
		p.skip()
		c := p.peek()
		if c == close {
			p.i++
			break
		}
		if c != ',' {
			return nil, p.fail(p.i, "want ',' or '%c' to close the '%c' at %d", close, p.s[at], at+1)
		}
		p.i++
		if len(kids) == 256 {
			return nil, p.fail(at, "more than 256 expressions in one group")
		}
		k, err := p.chain()
		if err != nil {
			return nil, err
		}
		kids = append(kids, k)
	}
	if len(kids) == 1 && close == '}' && x.kind == diceNode && x.term.bare() {
		return p.wholePool(x, at)
	}
	t := &diceTerm{n: len(kids)}
	if err := p.modifiers(t); err != nil {
		return nil, err
	}
	switch {
	case len(t.reroll) > 0 || t.explode != noExplode || t.hasMin || t.hasMax || t.unique != 0 || t.match > 0:
		return nil, p.fail(at, "a group keeps, drops and counts its expressions; re-rolls, explosions, mi, ma, u and mt act on dice: put them on the dice inside")
	case (t.keep == keepHigh || t.keep == keepLow) && t.keepN >= t.n:
		return nil, p.fail(at, "keeping %d of %d expressions keeps every one: the keep never acts", t.keepN, t.n)
	case (t.keep == dropHigh || t.keep == dropLow) && t.keepN == 0:
		return nil, p.fail(at, "dropping 0 expressions never acts")
	}
	n := &node{kind: groupNode, kids: kids, term: t}
	if err := p.groupBounds(n, at); err != nil {
		return nil, err
	}
	return n, nil
}

// groupBounds checks a group's modifiers against its expressions' values
// and works out the bounds of the group's value.
func (p *parser) groupBounds(n *node, at int) error {
	t := n.term
	lo, hi := math.MaxInt, math.MinInt
	los, his := make([]int, len(n.kids)), make([]int, len(n.kids))
	for i, k := range n.kids {
		lo, hi = min(lo, k.lo), max(hi, k.hi)
		los[i], his[i] = k.lo, k.hi
	}
	for _, x := range []struct {
		c    compare
		what string
	}{{t.success, "success count"}, {t.failure, "failure count"}, {t.keepAt, "selector"}} {
		if x.c.op != noCmp && x.c.count(lo, hi) == 0 {
			return p.fail(at, "the group's %s %v never acts: its expressions' totals lie in %d..%d", x.what, x.c, lo, hi)
		}
	}
	k := t.kept()
	slices.Sort(los)
	slices.SortFunc(his, func(a, b int) int { return b - a })
	switch {
	case t.success.op != noCmp:
		n.lo, n.hi = 0, k*(1+len(t.more))
		if t.failure.op != noCmp {
			n.lo = -k
		}
	case t.keep == keepMatch || t.keep == dropMatch:
		for i := range los {
			n.lo, n.hi = n.lo+min(los[i], 0), n.hi+max(his[i], 0)
		}
	default:
		// Any k of the expressions: at least the k least lows, at most
		// the k greatest highs.
		for i := range k {
			n.lo, n.hi = n.lo+los[i], n.hi+his[i]
		}
	}
	if n.lo < -MaxValue || n.hi > MaxValue {
		return p.fail(at, "values could reach %d..%d: at most ±%d", n.lo, n.hi, MaxValue)
	}
	return nil
}

// rawSpan returns the least and greatest numbers on a die of s sides'
// faces, before mi and ma.
func (t *diceTerm) rawSpan(s int) (lo, hi int) {
	if t.faces == nil {
		return t.shown(1), t.shown(s)
	}
	return slices.Min(t.faces), slices.Max(t.faces)
}

// facesOn returns how many faces of a die of s sides read a value on one
// of the points: for numbered dice by intervals, the values read being
// the integers of a span; for custom faces one by one.
func (t *diceTerm) facesOn(s int, cs []compare) int {
	if t.faces != nil {
		n := 0
		for f := 1; f <= s; f++ {
			for _, c := range cs {
				if c.has(t.read(f)) {
					n++
					break
				}
			}
		}
		return n
	}
	lo, hi := t.span(s)
	switch {
	case len(cs) == 1 && cs[0].count(lo, hi) == 0:
		return 0
	case coversAll(cs, lo, hi):
		return s
	}
	return 1 // some, not all: the callers ask no more
}

// noExplosion refuses an explosion of Fudge dice and custom faces, which
// have no top face to explode on.
func (p *parser) noExplosion(t *diceTerm, at int) error {
	switch {
	case t.fudge:
		return p.fail(at, "Fudge dice do not explode")
	case t.faces != nil:
		return p.fail(at, "custom faces do not explode")
	}
	return nil
}
