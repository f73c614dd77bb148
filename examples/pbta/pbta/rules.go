package pbta

import (
	"errors"
	"fmt"
)

// ErrInvalid is wrapped by every error about rules, a cast or a saved
// state that cannot be played.
var ErrInvalid = errors.New("pbta: invalid")

// ErrIllegal is wrapped by every error about a choice the rules do not
// allow now (a policy's answer, or a step called out of turn).
var ErrIllegal = errors.New("pbta: illegal choice")

// Bounds of the settings: wide enough for any hack of the 2d6 engine,
// narrow enough that no total or harm can overflow and every exact model
// stays small.
const (
	maxDice      = 4
	maxSides     = 20
	maxTarget    = 100
	maxTrack     = 12
	maxCapacity  = 20
	maxHarm      = 10
	maxStat      = 5
	maxExchanges = 1000
	maxName      = 40
)

// Rules are the numbers of the fight: the roll, its bands and the harm
// moves. Every number is a setting; DefaultRules gives Apocalypse World's
// where the game fixes one [text], and ours otherwise [ours].
type Rules struct {
	// Dice is how many dice a move rolls: 2 in every Powered by the
	// Apocalypse game (2d6) [text]. Allowed 1..4.
	Dice int `json:"dice"`
	// Sides is the size of those dice: 6 [text]. Allowed 2..20.
	Sides int `json:"sides"`
	// FullAt is the total (dice plus stat) of a full success, "on a 10+"
	// [text]. Allowed rules.partial_at..100.
	FullAt int `json:"full_at"`
	// PartialAt is the least total of a success at a cost, "on a 7-9"
	// [text]; below it the move misses and the GM makes a hard move.
	// Allowed 1..rules.full_at.
	PartialAt int `json:"partial_at"`
	// Track is the number of segments on a player character's harm
	// clock: 6, and the character is out when it fills [text]. Allowed
	// 1..12.
	Track int `json:"track"`
	// TerribleHarm is the extra harm going in hard deals on a hit, like
	// "inflict terrible harm (+1harm)" [text]. Allowed 0..10.
	TerribleHarm int `json:"terrible_harm"`
	// HoldBack is the harm withheld when the player pays for a 7-9 by
	// holding back instead of trading blows [ours]. Allowed 0..10.
	HoldBack int `json:"hold_back"`
	// Regroup is the harm the threat shakes off when the GM's hard move is
	// to regroup (fall back, bind wounds, call a friend) [ours]. Allowed
	// 0..10.
	Regroup int `json:"regroup"`
	// MaxExchanges is the most exchanges the fight lasts; then it breaks
	// off, a standoff [ours]. Allowed 1..1000.
	MaxExchanges int `json:"max_exchanges"`
}

// DefaultRules returns the rules of an Apocalypse World fight: 2d6, 10+ a
// full success, 7-9 a success at a cost, a harm clock of 6, terrible harm
// +1; ours: holding back withholds 1 harm, regrouping clears 1, and the
// fight breaks off after 20 exchanges.
func DefaultRules() Rules {
	return Rules{Dice: 2, Sides: 6, FullAt: 10, PartialAt: 7, Track: 6,
		TerribleHarm: 1, HoldBack: 1, Regroup: 1, MaxExchanges: 20}
}

// Validate reports whether the rules are playable, saying which number is
// out of bounds and what is allowed.
func (rl Rules) Validate() error {
	checks := []struct {
		name      string
		v, lo, hi int
	}{
		{"dice", rl.Dice, 1, maxDice},
		{"sides", rl.Sides, 2, maxSides},
		{"partial_at", rl.PartialAt, 1, maxTarget},
		{"full_at", rl.FullAt, max(rl.PartialAt, 1), maxTarget},
		{"track", rl.Track, 1, maxTrack},
		{"terrible_harm", rl.TerribleHarm, 0, maxHarm},
		{"hold_back", rl.HoldBack, 0, maxHarm},
		{"regroup", rl.Regroup, 0, maxHarm},
		{"max_exchanges", rl.MaxExchanges, 1, maxExchanges},
	}
	for _, c := range checks {
		if err := inRange("rules."+c.name, c.v, c.lo, c.hi); err != nil {
			return err
		}
	}
	return nil
}

func inRange(name string, v, lo, hi int) error {
	if v < lo || v > hi {
		return fmt.Errorf("%w: %s is %d; allowed %d..%d", ErrInvalid, name, v, lo, hi)
	}
	return nil
}

// Character is the player character in the fight.
type Character struct {
	// Name is how the narration calls the character (1..40 bytes).
	Name string `json:"name"`
	// Hard is the stat added to the roll when the character goes in hard
	// (Apocalypse World's Hard) [text]. Allowed -5..5.
	Hard int `json:"hard"`
	// Cool is the stat added to the roll when the character plays it cool
	// (Apocalypse World's Cool) [text]. Allowed -5..5.
	Cool int `json:"cool"`
	// Harm is the harm the character's weapon deals on a hit, before the
	// threat's armor. Allowed 0..10.
	Harm int `json:"harm"`
	// Armor is subtracted from every harm the character suffers [text].
	// Allowed 0..10.
	Armor int `json:"armor"`
}

// Threat is the non-player character the GM fights with.
type Threat struct {
	// Name is how the narration calls the threat (1..40 bytes).
	Name string `json:"name"`
	// Harm is the harm the threat deals when it hits, before the
	// character's armor. Allowed 0..10.
	Harm int `json:"harm"`
	// Armor is subtracted from every harm the threat suffers. Allowed
	// 0..10.
	Armor int `json:"armor"`
	// Capacity is the harm that takes the threat out of the fight.
	// Allowed 1..20.
	Capacity int `json:"capacity"`
}

// Validate reports whether the character can fight.
func (c Character) Validate() error {
	if err := checkName("pc.name", c.Name); err != nil {
		return err
	}
	return firstErr(inRange("pc.hard", c.Hard, -maxStat, maxStat),
		inRange("pc.cool", c.Cool, -maxStat, maxStat),
		inRange("pc.harm", c.Harm, 0, maxHarm),
		inRange("pc.armor", c.Armor, 0, maxHarm))
}

// Validate reports whether the threat can fight.
func (t Threat) Validate() error {
	if err := checkName("threat.name", t.Name); err != nil {
		return err
	}
	return firstErr(inRange("threat.harm", t.Harm, 0, maxHarm),
		inRange("threat.armor", t.Armor, 0, maxHarm),
		inRange("threat.capacity", t.Capacity, 1, maxCapacity))
}

func checkName(key, name string) error {
	if name == "" || len(name) > maxName {
		return fmt.Errorf("%w: %s %q: give a name of 1..%d bytes", ErrInvalid, key, clip(name), maxName)
	}
	return nil
}

func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

func clip(s string) string {
	if len(s) > maxName {
		return s[:maxName] + "..."
	}
	return s
}
