package dice

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Limits on pools, so that no input (a flag, a JSON file, a chat command)
// can ask for a pool that exhausts memory.
const (
	// MaxDice is the most dice a Pool may hold.
	MaxDice = 10_000
	// MaxModifier bounds the absolute value of a pool's flat modifier.
	MaxModifier = 1_000_000
)

// Pool is a multiset of dice of mixed sizes plus a flat modifier, such as
// "2d8 d4" or "4d6+2". The zero value is the empty pool. Pools are values:
// methods that change a pool return a new one and never alias the old.
//
// A Pool keeps its dice largest first, so two pools with the same dice are
// equal whatever order they were given in, and it reads and writes as dice
// notation (it implements encoding.TextMarshaler and TextUnmarshaler, so it
// works in JSON and as a flag value).
type Pool struct {
	dice []Die // sorted largest first
	mod  int

	// draw is the product of the sizes when the dice are of mixed sizes
	// and one draw holds them all (at most 2^56, see Roller.RollDice), and
	// 0 otherwise: Roll then takes the whole pool from one accepted draw
	// without working the product out again.
	draw uint64
}

// NewPool returns a pool of the given dice with no modifier. Every die must
// be valid and there may be at most MaxDice.
func NewPool(ds ...Die) (Pool, error) {
	if len(ds) > MaxDice {
		return Pool{}, fmt.Errorf("dice: a pool of %d dice is too large: at most %d", len(ds), MaxDice)
	}
	for _, d := range ds {
		if err := d.Check(); err != nil {
			return Pool{}, err
		}
	}
	p := Pool{dice: slices.Clone(ds)}
	slices.SortFunc(p.dice, func(a, b Die) int { return int(b) - int(a) })
	if n := len(p.dice); n > 1 && p.dice[0] != p.dice[n-1] && p.dice[0] <= 256 {
		c := uint64(1)
		for _, d := range p.dice {
			if c > batchLimit/uint64(d) {
				c = 0
				break
			}
			c *= uint64(d)
		}
		p.draw = c
	}
	return p, nil
}

// Of returns a pool of n dice of one size; it is NewPool with n copies of d.
func Of(n int, d Die) (Pool, error) {
	if n < 0 {
		return Pool{}, fmt.Errorf("dice: %d dice: the count must not be negative", n)
	}
	if n > MaxDice {
		return Pool{}, fmt.Errorf("dice: a pool of %d dice is too large: at most %d", n, MaxDice)
	}
	if err := d.Check(); err != nil {
		return Pool{}, err
	}
	ds := make([]Die, n)
	for i := range ds {
		ds[i] = d
	}
	return Pool{dice: ds}, nil
}

// WithModifier returns p with its flat modifier set to m.
func (p Pool) WithModifier(m int) (Pool, error) {
	if m > MaxModifier || m < -MaxModifier {
		return p, fmt.Errorf("dice: modifier %d is out of range: at most ±%d", m, MaxModifier)
	}
	p.mod = m
	return p, nil
}

// Add returns p with more dice.
func (p Pool) Add(ds ...Die) (Pool, error) {
	all := make([]Die, 0, len(p.dice)+len(ds))
	all = append(append(all, p.dice...), ds...)
	q, err := NewPool(all...)
	if err != nil {
		return p, err
	}
	q.mod = p.mod
	return q, nil
}

// Len returns the number of dice.
func (p Pool) Len() int { return len(p.dice) }

// Modifier returns the flat modifier.
func (p Pool) Modifier() int { return p.mod }

// Dice returns a copy of the dice, largest first.
func (p Pool) Dice() []Die { return slices.Clone(p.dice) }

// Die returns the i-th die, largest first (0 <= i < Len).
func (p Pool) Die(i int) Die { return p.dice[i] }

// Equal reports whether p and q hold the same dice and modifier.
func (p Pool) Equal(q Pool) bool { return p.mod == q.mod && slices.Equal(p.dice, q.dice) }

// Roll rolls every die of p, largest first, into out[:0] and returns it;
// with enough capacity in out it allocates nothing. The modifier is not a
// die; Total adds it.
func (p Pool) Roll(r *Roller, out []int) []int {
	// The dice are sorted, so equal ends mean one size throughout.
	if p.draw != 0 && r.script == nil {
		// The faces RollDice gives these dice, from one draw.
		out = grow(out, len(p.dice))
		chain(r.accepted(p.draw), p.dice, out)
		return out
	}
	if n := len(p.dice); n > 0 && p.dice[0] == p.dice[n-1] {
		return r.RollN(n, int(p.dice[0]), out)
	}
	return r.RollDice(p.dice, out)
}

// Total returns the sum of faces plus the modifier.
func (p Pool) Total(faces []int) int { return Sum(faces) + p.mod }

// Sides returns the total number of sides of all the dice (Art, Grace &
// Guts compares pools by it for the owe list).
func (p Pool) Sides() int {
	n := 0
	for _, d := range p.dice {
		n += int(d)
	}
	return n
}

// String returns the pool in dice notation, largest dice first: "2d8 d4",
// "4d6+2", "d20-1". The empty pool with no modifier is "".
func (p Pool) String() string {
	var b strings.Builder
	for i := 0; i < len(p.dice); {
		j := i
		for j < len(p.dice) && p.dice[j] == p.dice[i] {
			j++
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		if j-i > 1 {
			b.WriteString(strconv.Itoa(j - i))
		}
		b.WriteByte('d')
		b.WriteString(strconv.Itoa(int(p.dice[i])))
		i = j
	}
	switch {
	case p.mod > 0:
		b.WriteByte('+')
		b.WriteString(strconv.Itoa(p.mod))
	case p.mod < 0:
		b.WriteString(strconv.Itoa(p.mod))
	}
	return b.String()
}

// MarshalText implements encoding.TextMarshaler.
func (p Pool) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler; on error p is unchanged.
func (p *Pool) UnmarshalText(text []byte) error {
	q, err := ParsePool(string(text))
	if err != nil {
		return err
	}
	*p = q
	return nil
}

// Set implements flag.Value, so a Pool can be a command-line flag.
func (p *Pool) Set(s string) error { return p.UnmarshalText([]byte(s)) }

// ErrEmptyNotation is returned when a notation holds no dice.
var ErrEmptyNotation = errors.New("dice: empty notation: give dice such as 3d6, d12 d6 or 4d6+2")

// ParsePool reads dice notation. A notation is one or more terms separated
// by spaces or '+': a term is NdS (N dice of S sides; N defaults to 1, so
// "d6" is one d6) or a whole number, a flat modifier, which may also follow a
// '-'. Letters are case-insensitive. Examples: "3d6", "d12 d6", "2d8 d4",
// "4d6+2", "d20+5", "2d6 + d4 - 1". At least one die is required; counts add
// up to at most MaxDice, sides are 2..MaxSides and the modifier is within
// ±MaxModifier.
func ParsePool(s string) (Pool, error) {
	fail := func(format string, args ...any) (Pool, error) {
		return Pool{}, fmt.Errorf("dice: %q: "+format, append([]any{s}, args...)...)
	}
	if len(s) > 4096 {
		return Pool{}, fmt.Errorf("dice: notation of %d bytes is too long: at most 4096", len(s))
	}
	var ds []Die
	mod := 0
	i := 0
	neg := false // the pending term was introduced by '-'
	sawTerm := false
	for i < len(s) {
		c := s[i]
		switch {
		case c == ' ' || c == '\t':
			i++
			continue
		case c == '+' || c == '-':
			if !sawTerm && c == '+' {
				return fail("'+' must join two terms")
			}
			neg = c == '-'
			i++
			// a sign must be followed by a term
			j := i
			for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
				j++
			}
			if j == len(s) || s[j] == '+' || s[j] == '-' {
				return fail("%q must be followed by a term", string(c))
			}
			continue
		}
		// Each term below ends at a separator or the end (checked after
		// it), so terms are always separated.
		// A term: digits, optionally 'd' and more digits.
		j := i
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		count, hasCount := -1, j > i
		if hasCount {
			n, err := atoiLimited(s[i:j])
			if err != nil {
				return fail("number %s is too large", s[i:j])
			}
			count = n
		}
		if j < len(s) && (s[j] == 'd' || s[j] == 'D') {
			if neg {
				return fail("dice cannot be subtracted; only a flat modifier may follow '-'")
			}
			k := j + 1
			for k < len(s) && s[k] >= '0' && s[k] <= '9' {
				k++
			}
			if k == j+1 {
				return fail("'d' must be followed by the number of sides, as in d6")
			}
			sides, err := atoiLimited(s[j+1 : k])
			if err != nil || sides < 2 || sides > MaxSides {
				return fail("d%s: sides must be 2..%d", s[j+1:k], MaxSides)
			}
			if !hasCount {
				count = 1
			}
			if count < 1 {
				return fail("%dd%d: the count must be at least 1", count, sides)
			}
			if len(ds)+count > MaxDice {
				return fail("more than %d dice", MaxDice)
			}
			for n := 0; n < count; n++ {
				ds = append(ds, Die(sides))
			}
			i = k
		} else {
			if !hasCount {
				return fail("unexpected %q: a term is NdS (like 3d6) or a whole number", string(s[j]))
			}
			if count > MaxModifier {
				return fail("modifier %d is out of range: at most ±%d", count, MaxModifier)
			}
			if neg {
				mod -= count
			} else {
				mod += count
			}
			if mod > MaxModifier || mod < -MaxModifier {
				return fail("modifier total is out of range: at most ±%d", MaxModifier)
			}
			i = j
		}
		if i < len(s) && s[i] != ' ' && s[i] != '\t' && s[i] != '+' && s[i] != '-' {
			return fail("unexpected %q after a term: a term is NdS (like 3d6) or a whole number", string(s[i]))
		}
		neg = false
		sawTerm = true
	}
	if len(ds) == 0 {
		if strings.TrimSpace(s) == "" {
			return Pool{}, ErrEmptyNotation
		}
		return fail("no dice: give at least one term such as d6")
	}
	p, err := NewPool(ds...)
	if err != nil {
		return Pool{}, err
	}
	p.mod = mod
	return p, nil
}

// atoiLimited parses a run of at most 9 digits.
func atoiLimited(s string) (int, error) {
	if len(s) > 9 {
		return 0, errors.New("too large")
	}
	return strconv.Atoi(s)
}
