package dice

import (
	"fmt"
	"math"
	"math/big"
)

// Fractions is an exact distribution: P(X = Min+i) = Num[i]/Den, every
// fraction over one common denominator.
type Fractions struct {
	Min int
	Num []int64
	Den int64
}

// Rat returns P(X = v) as a fraction in lowest terms.
func (f Fractions) Rat(v int) *big.Rat {
	i := v - f.Min
	if f.Den == 0 || i < 0 || i >= len(f.Num) {
		return new(big.Rat)
	}
	return big.NewRat(f.Num[i], f.Den)
}

// MaxDenominator bounds the common denominator Expr.Fractions answers
// with (2^36, about 6.9e10: 10d10 and 13d6 fit, 20d6 does not).
const MaxDenominator = 1 << 36

// Fractions returns the exact distribution of what Roll rolls, as
// fractions over one denominator, when that denominator fits in
// MaxDenominator: the product, over every die the expression may roll,
// of its sides to the power of the most rolls it makes (its first, its
// re-rolls and its extra rolls at the expression's depth), so every
// path of rolls has a probability that is a whole multiple of one over
// it. Each numerator is the exact distribution's probability times the
// denominator, rounded; the float64 answer is within a few parts in 1e15
// of the truth, so below 2^36 it is within 1e-4 of a whole number, and
// Fractions checks that each is, and that the numerators add up to the
// denominator exactly, before it answers. An expression whose
// denominator does not fit (3d6! at depth 10 has 6^33) is an error
// wrapping ErrTooLarge; a smaller depth (WithDepth) may fit.
func (e *Expr) Fractions() (Fractions, error) {
	if e == nil || e.root == nil {
		return Fractions{}, errEmptyExpr
	}
	den, ok := e.root.denominator(e.depth)
	if !ok {
		return Fractions{}, fmt.Errorf("%w: the exact fractions of %s need a denominator above %d", ErrTooLarge, e.text, int64(MaxDenominator))
	}
	d, _, err := e.Dist()
	if err != nil {
		return Fractions{}, err
	}
	f := Fractions{Min: d.Min, Num: make([]int64, len(d.P)), Den: int64(den)}
	sum := int64(0)
	for i, p := range d.P {
		x := p * float64(den)
		n := math.Round(x)
		if math.Abs(x-n) > 1e-3 {
			return Fractions{}, fmt.Errorf("dice: %s: P(%d) times %d is %v, not a whole number (a bug: please report it)", e.text, d.Min+i, den, x)
		}
		f.Num[i] = int64(n)
		sum += f.Num[i]
	}
	if sum != f.Den {
		return Fractions{}, fmt.Errorf("dice: %s: the numerators add up to %d, not %d (a bug: please report it)", e.text, sum, den)
	}
	return f, nil
}

// denominator returns the common denominator of n's outcomes, false past
// MaxDenominator.
func (n *node) denominator(depth int) (uint64, bool) {
	switch n.kind {
	case numNode:
		return 1, true
	case diceNode:
		return n.term.denominator(depth)
	}
	d := uint64(1)
	for _, k := range [...]*node{n.left, n.right} {
		if k == nil {
			continue
		}
		kd, ok := k.denominator(depth)
		if !ok || kd > MaxDenominator/d {
			return 0, false
		}
		d *= kd
	}
	for _, k := range n.kids {
		kd, ok := k.denominator(depth)
		if !ok || kd > MaxDenominator/d {
			return 0, false
		}
		d *= kd
	}
	return d, true
}

// denominator returns the product over the term's dice of sides to the
// most rolls a die makes.
func (t *diceTerm) denominator(depth int) (uint64, bool) {
	if t.unique == uniqueAll {
		return t.uniqueDenominator()
	}
	rolls := 1
	if len(t.reroll) > 0 {
		if t.once {
			rolls++
		} else {
			rolls += depth
		}
	}
	if t.explode != noExplode && !t.addOnce {
		rolls += t.limit(depth)
	}
	if t.unique != 0 {
		rolls += t.uniqueLimit(depth)
	}
	d := uint64(1)
	if t.addOnce {
		d = uint64(t.groups[0].die) // the one roll the pool may add
	}
	for _, g := range t.groups {
		for range g.n * rolls {
			if uint64(g.die) > MaxDenominator/d {
				return 0, false
			}
			d *= uint64(g.die)
		}
	}
	return d, true
}

// uniqueDenominator returns a common denominator of a u pool's sum, as
// uniqueAllDist reads it: the chance of keeping B faces on the point
// (exact, from the chain), over the C(p, B) sets of them, times o^(n-B)
// rolls of the dice off it, for every B; false past MaxDenominator.
func (t *diceTerm) uniqueDenominator() (uint64, bool) {
	s, n := int(t.groups[0].die), t.n
	p := 0
	for f := 1; f <= s; f++ {
		if t.uniqueAt.op == noCmp || t.uniqueAt.has(t.shown(f)) {
			p++
		}
	}
	o, most := s-p, min(n, p)
	limit := new(big.Int).SetUint64(MaxDenominator)
	chain := make([]*big.Rat, most+1)
	for b := range chain {
		chain[b] = new(big.Rat)
	}
	chain[0].SetInt64(1)
	for range n {
		for b := most; b >= 0; b-- {
			next := new(big.Rat)
			if o+p-b > 0 {
				next.Mul(chain[b], big.NewRat(int64(o), int64(o+p-b)))
			}
			if b > 0 {
				next.Add(next, new(big.Rat).Mul(chain[b-1], big.NewRat(int64(p-b+1), int64(o+p-b+1))))
			}
			if next.Denom().Cmp(limit) > 0 {
				return 0, false
			}
			chain[b] = next
		}
	}
	den := big.NewInt(1)
	for b, c := range chain {
		if c.Sign() == 0 {
			continue
		}
		d := new(big.Int).Binomial(int64(p), int64(b))
		d.Mul(d, new(big.Int).Exp(big.NewInt(int64(max(o, 1))), big.NewInt(int64(n-b)), nil))
		d.Mul(d, c.Denom())
		g := new(big.Int).GCD(nil, nil, den, d)
		den.Mul(den, d.Quo(d, g))
		if den.Cmp(limit) > 0 {
			return 0, false
		}
	}
	return den.Uint64(), true
}
