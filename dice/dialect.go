package dice

import (
	"fmt"
	"strings"
)

// Dialect names the reference a dice expression is read by, where the
// references disagree. Every dialect reads every form the others read;
// only these forms change meaning:
//
//	form      Stakes (default)          Roll20                  Avrae
//	>N, <N    strictly above, below N   N or more, N or less    strictly above, below N
//	4d6d1     an error: write 4d6dl1    drop the lowest 1       an error: write 4d6pl1
//	4d6k3     keep the highest 3        keep the highest 3      keep the dice showing 3
//	3d6>=4    count dice on 4+          count dice on 4+        the total is 4 or more: 1, else 0
//	2d6ra6    each 6 adds a roll        each 6 adds a roll      one roll added if any die is 6 (rao)
//
// A compare point prints canonically with its operator spelled out
// (Roll20's >4 prints >=4), and the breakdown of a roll starts with that
// canonical form, so the reading taken is always shown. The canonical
// form means the same in every dialect. The package documentation lists
// every form with its reading in each dialect.
type Dialect uint8

const (
	// Stakes is the default: > and < are strict, as in rpg-dice-roller,
	// Avrae and arithmetic, and a keep or drop names its side (kh, kl,
	// dh, dl).
	Stakes Dialect = iota
	// Roll20 reads the Roll20 Dice Reference: compare points > and < are
	// inclusive ("3d6!>4 explodes on 4 or more"), kN keeps and dN drops
	// the lowest.
	Roll20
	// Avrae reads Avrae's d20 grammar: selectors after k, p, rr, ro, ra,
	// e, mi and ma, a bare N among them meaning the dice showing N, and a
	// comparison after a lone pool compares its total.
	Avrae
)

var dialectNames = [...]string{"stakes", "roll20", "avrae"}

// String returns the dialect's name: stakes, roll20 or avrae.
func (d Dialect) String() string {
	if int(d) < len(dialectNames) {
		return dialectNames[d]
	}
	return fmt.Sprintf("Dialect(%d)", d)
}

// MarshalText implements encoding.TextMarshaler.
func (d Dialect) MarshalText() ([]byte, error) {
	if int(d) >= len(dialectNames) {
		return nil, fmt.Errorf("dice: unknown dialect %d", d)
	}
	return []byte(d.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler (names as String
// prints them, any case); on error d is unchanged.
func (d *Dialect) UnmarshalText(text []byte) error {
	for i, n := range dialectNames {
		if strings.EqualFold(string(text), n) {
			*d = Dialect(i)
			return nil
		}
	}
	return fmt.Errorf("dice: unknown dialect %q: want stakes, roll20 or avrae", text)
}

// Set implements flag.Value, so a Dialect can be a command-line flag.
func (d *Dialect) Set(s string) error { return d.UnmarshalText([]byte(s)) }

// Parser reads dice expressions with options. Its zero value reads as
// ParseExpr does: the Stakes dialect, explosions and re-rolls bounded at
// DefaultDepth.
type Parser struct {
	Dialect Dialect // how forms the references read differently are read
	Depth   int     // the bound on explosions and re-rolls, 1..MaxDepth; 0 is DefaultDepth
}

// Parse reads s in the parser's dialect (see ParseExpr for the grammar).
func (p Parser) Parse(s string) (*Expr, error) {
	depth := p.Depth
	if depth == 0 {
		depth = DefaultDepth
	}
	if int(p.Dialect) >= len(dialectNames) {
		return nil, fmt.Errorf("dice: unknown dialect %d", p.Dialect)
	}
	return parseExpr(s, depth, p.Dialect)
}
