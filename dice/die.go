package dice

import (
	"fmt"
	"strconv"
)

// Die is a die size: the number of sides, each face 1..sides equally likely.
// Any size from 2 to MaxSides is a valid die; the zero value, Gone, is no die
// at all (what a d4 becomes when stepped down).
type Die int

// Common sizes.
const (
	Gone Die = 0
	D2   Die = 2
	D3   Die = 3
	D4   Die = 4
	D6   Die = 6
	D8   Die = 8
	D10  Die = 10
	D12  Die = 12
	D20  Die = 20
	D100 Die = 100
)

// MaxSides is the largest die size the package accepts (a d1000000).
const MaxSides = 1_000_000

// NewDie returns the die with the given number of sides, or an error unless
// 2 <= sides <= MaxSides.
func NewDie(sides int) (Die, error) {
	d := Die(sides)
	if err := d.Check(); err != nil {
		return Gone, err
	}
	return d, nil
}

// Valid reports whether d is a usable die (2..MaxSides sides).
func (d Die) Valid() bool { return d >= 2 && d <= MaxSides }

// Check returns nil for a valid die and otherwise an error saying what sizes
// are allowed.
func (d Die) Check() error {
	if d.Valid() {
		return nil
	}
	return d.invalid()
}

func (d Die) invalid() error {
	return fmt.Errorf("dice: a d%d is not a die: sides must be 2..%d", int(d), MaxSides)
}

// Sides returns the number of sides.
func (d Die) Sides() int { return int(d) }

// String returns the usual name, such as "d6"; Gone prints as "gone".
func (d Die) String() string {
	if d == Gone {
		return "gone"
	}
	return "d" + strconv.Itoa(int(d))
}

// Ladder is the step ladder of die sizes, smallest first. Stepping a die up
// or down moves it one rung; stepping the smallest rung down leaves no die.
// Cortex-family games (contest) and Art, Grace & Guts (challenge) both use it.
var Ladder = [...]Die{D4, D6, D8, D10, D12}

func ladderIndex(d Die) int {
	switch d {
	case D4:
		return 0
	case D6:
		return 1
	case D8:
		return 2
	case D10:
		return 3
	case D12:
		return 4
	}
	return -1
}

// OnLadder reports whether d is one of d4, d6, d8, d10, d12.
func (d Die) OnLadder() bool { return ladderIndex(d) >= 0 }

// Step moves d by k rungs of the ladder (k < 0 steps down). Stepping below
// d4 gives Gone with ok true: the die is lost. ok is false, and d is returned
// unchanged, when d is not on the ladder or the step would pass d12; callers
// decide what passing the top means (in contest, being Knocked Out).
func (d Die) Step(k int) (stepped Die, ok bool) {
	i := ladderIndex(d)
	if i < 0 {
		return d, false
	}
	j := i + k
	switch {
	case j < 0:
		return Gone, true
	case j >= len(Ladder):
		return d, false
	}
	return Ladder[j], true
}

// StepUp is Step(1).
func (d Die) StepUp() (Die, bool) { return d.Step(1) }

// StepDown is Step(-1); a d4 steps down to Gone.
func (d Die) StepDown() (Die, bool) { return d.Step(-1) }

// CheckLadder returns an error unless d is on the ladder d4..d12.
func (d Die) CheckLadder() error {
	if d.OnLadder() {
		return nil
	}
	return fmt.Errorf("dice: %v is not a ladder size: allowed are d4, d6, d8, d10, d12", d)
}
