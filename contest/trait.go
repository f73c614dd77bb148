package contest

import (
	"fmt"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/named"
)

// Kind is what sort of trait a die rating belongs to. It reads and writes
// as its name; the zero Kind ("none") is no kind, and Check refuses it.
type Kind uint8

// The trait kinds of Scenes and Actions, "Managing Traits". A character's
// own kinds come first, Value to Resource.
const (
	kindUnset    Kind = iota // the zero Kind: never valid
	Value                    // "value"
	Relationship             // "relationship"
	Distinction              // "distinction"
	Ability                  // "ability"
	Resource                 // "resource"
	Aspect                   // a scene's trait, anyone may roll it: "aspect"
	Complication             // on a character; the opposition may roll it: "complication"
	Trauma                   // like a Complication, from being Knocked Out: "trauma"
)

var kindNames = named.Enum[Kind]{"none", "value", "relationship", "distinction", "ability", "resource", "aspect", "complication", "trauma"}

// String returns the kind's name.
func (k Kind) String() string { return kindNames.String(k) }

// MarshalText writes the kind's name.
func (k Kind) MarshalText() ([]byte, error) { return kindNames.Marshal(k) }

// UnmarshalText reads a kind's name.
func (k *Kind) UnmarshalText(b []byte) error { return kindNames.Unmarshal(b, k) }

// Own reports whether a character rolls traits of this kind as its own
// (and may sacrifice them in a Final Push).
func (k Kind) Own() bool { return k >= Value && k <= Resource }

func (k Kind) valid() bool { return k >= Value && k <= Trauma }

// Effect is what a Distinction may do to its owner's Complication Pool
// before it is rolled ("Some Distinctions allow you to fiddle with the
// dice pool by stepping up or stepping back dice, or even adding or
// removing dice"). It reads and writes as its name. The owner chooses
// whether to use it each time (Policy.UseEffect), and only when the
// Distinction was in the pool that won.
type Effect uint8

// Distinction effects.
const (
	EffectNone Effect = iota // no effect: "none"
	// StepUpLowest steps up the lowest die of the Complication Pool (the
	// text's Vicious): "step_up_lowest".
	StepUpLowest
	// StepBackHighest steps back the highest die (gone below d4): a
	// merciful Distinction, "step_back_highest".
	StepBackHighest
	// AddDie adds a die of the Distinction's own rating: "add_die".
	AddDie
	// RemoveLowest removes the lowest die, never the last one:
	// "remove_lowest".
	RemoveLowest
)

var effectNames = named.Enum[Effect]{"none", "step_up_lowest", "step_back_highest", "add_die", "remove_lowest"}

// String returns the effect's name.
func (x Effect) String() string { return effectNames.String(x) }

// MarshalText writes the effect's name.
func (x Effect) MarshalText() ([]byte, error) { return effectNames.Marshal(x) }

// UnmarshalText reads an effect's name.
func (x *Effect) UnmarshalText(b []byte) error { return effectNames.Unmarshal(b, x) }

// apply fiddles Complication Pool comp by the effect of a Distinction
// rated d.
func (x Effect) apply(comp []dice.Die, d dice.Die) []dice.Die {
	lo, hi := 0, 0
	for i, c := range comp {
		if c < comp[lo] {
			lo = i
		}
		if c > comp[hi] {
			hi = i
		}
	}
	switch {
	case x == StepUpLowest && len(comp) > 0:
		if up, ok := comp[lo].StepUp(); ok {
			comp[lo] = up
		}
	case x == StepBackHighest && len(comp) > 0:
		if down, _ := comp[hi].StepDown(); down != dice.Gone {
			comp[hi] = down
		} else {
			comp = append(comp[:hi], comp[hi+1:]...)
		}
	case x == AddDie && len(comp) < maxDice:
		comp = append(comp, d)
	case x == RemoveLowest && len(comp) > 1:
		comp = append(comp[:lo], comp[lo+1:]...)
	}
	return comp
}

// Trait is one rated trait. A trait stepped below d4 has Die dice.Gone and
// can no longer be rolled; it keeps its place so references stay valid.
type Trait struct {
	Name string   `json:"name"`
	Kind Kind     `json:"kind"`
	Die  dice.Die `json:"die"`
	// Effect is an optional Distinction effect, such as StepUpLowest.
	Effect Effect `json:"effect,omitzero"`
	// Original is the rating a Final Push first lowered the trait from;
	// zero (Gone) while it is not lowered. The lost steps stay lost until
	// bought back with Reflection Points (Engine.Rebuy), and then Original
	// is cleared ("Final Push").
	Original dice.Die `json:"original,omitempty"`
}

// Lowered reports whether a Final Push has left the trait below its
// original rating.
func (t *Trait) Lowered() bool { return t.Original != dice.Gone && t.Die < t.Original }

// Check returns an error unless the trait has a name, a known kind and a
// rating d4..d12 (or Gone, a trait lost by stepping down).
func (t Trait) Check() error {
	if t.Name == "" {
		return fmt.Errorf("contest: a %s trait needs a name", t.Kind)
	}
	if len(t.Name) > maxName {
		return fmt.Errorf("contest: trait %q: a name of %d bytes: at most %d", clip(t.Name), len(t.Name), maxName)
	}
	if !t.Kind.valid() {
		return fmt.Errorf("contest: trait %q: kind %v unknown: use value, relationship, distinction, ability, resource, aspect, complication or trauma", t.Name, t.Kind)
	}
	if t.Die != dice.Gone {
		if err := t.Die.CheckLadder(); err != nil {
			return fmt.Errorf("contest: trait %q: %w", t.Name, err)
		}
	}
	if t.Original != dice.Gone {
		if err := t.Original.CheckLadder(); err != nil {
			return fmt.Errorf("contest: trait %q: original: %w", t.Name, err)
		}
		if !t.Kind.Own() || t.Original <= t.Die {
			return fmt.Errorf("contest: trait %q: original %v: only a character's own trait lowered below it (now %v) has one", t.Name, t.Original, t.Die)
		}
	}
	if !effectNames.Valid(t.Effect) {
		return fmt.Errorf("contest: trait %q: effect %d unknown; allowed %s", t.Name, t.Effect, named.Allowed(effectNames))
	}
	if t.Effect != EffectNone && t.Kind != Distinction {
		return fmt.Errorf("contest: trait %q: effect %v: only a distinction may carry an effect", t.Name, t.Effect)
	}
	return nil
}

// Character is one character's sheet and standing in the scene.
type Character struct {
	Name string `json:"name"`
	// GM marks a character the GM runs (a Supporting Character or
	// villain); the GM may buy the 1s of the others.
	GM bool `json:"gm,omitempty"`
	// Traits holds the sheet (values, relationships, distinctions,
	// abilities, resources) and the Complications and Trauma it carries.
	Traits []Trait `json:"traits"`
	// PlotPoints are the Plot Points the character holds. At the start of
	// an episode (NewState, a Scenario's start) a player character gets
	// Rules.StartPlotPoints on top of these.
	PlotPoints int  `json:"plot_points"`
	Reflection int  `json:"reflection"`
	KnockedOut bool `json:"knocked_out,omitempty"`
	OutOfStory bool `json:"out_of_story,omitempty"`
}

// Check validates the sheet.
func (c *Character) Check() error {
	if c.Name == "" {
		return fmt.Errorf("contest: a character needs a name")
	}
	if len(c.Name) > maxName {
		return fmt.Errorf("contest: character %q: a name of %d bytes: at most %d", clip(c.Name), len(c.Name), maxName)
	}
	if len(c.Traits) > maxTraits {
		return fmt.Errorf("contest: %s has %d traits: at most %d", c.Name, len(c.Traits), maxTraits)
	}
	for _, t := range c.Traits {
		if err := t.Check(); err != nil {
			return fmt.Errorf("%s: %w", c.Name, err)
		}
		if t.Kind == Aspect {
			return fmt.Errorf("contest: %s: trait %q: aspects belong to the scene, not a character", c.Name, t.Name)
		}
	}
	if c.PlotPoints < 0 || c.Reflection < 0 || c.PlotPoints > maxPoints || c.Reflection > maxPoints {
		return fmt.Errorf("contest: %s: plot points (%d) and reflection points (%d) must be 0..%d", c.Name, c.PlotPoints, c.Reflection, maxPoints)
	}
	return nil
}

// Find returns the index of the character's trait with the given name, or -1.
func (c *Character) Find(name string) int {
	for i := range c.Traits {
		if c.Traits[i].Name == name {
			return i
		}
	}
	return -1
}

// lowered reports whether any of c's traits is Lowered.
func (c *Character) lowered() bool {
	for i := range c.Traits {
		if c.Traits[i].Lowered() {
			return true
		}
	}
	return false
}

// Out reports whether the character can no longer act in the scene.
func (c *Character) Out() bool { return c.KnockedOut || c.OutOfStory }

// Step moves trait i of character c by k rungs (k < 0 steps down); below d4
// the trait is lost (Gone). Stepping past d12 is an error; c is unchanged
// on error.
func (c *Character) Step(i, k int) error {
	if i < 0 || i >= len(c.Traits) {
		return fmt.Errorf("contest: %s has no trait %d (it has %d)", c.Name, i, len(c.Traits))
	}
	t := c.Traits[i]
	if t.Die == dice.Gone {
		return fmt.Errorf("contest: %s's %q is gone and cannot be stepped", c.Name, t.Name)
	}
	d, ok := t.Die.Step(k)
	if !ok {
		return fmt.Errorf("contest: %s's %q is %v: stepping it by %d passes d12", c.Name, t.Name, t.Die, k)
	}
	c.Traits[i].Die = d
	if t.Original != dice.Gone && d >= t.Original {
		c.Traits[i].Original = dice.Gone // back where it was: no longer lowered
	}
	return nil
}

// Pick names one trait for a pool. Owner is the index of the character
// whose trait it is, or SceneOwner (-1) for one of the scene's Aspects;
// Trait is the index in that character's Traits (or the scene's Aspects).
type Pick struct {
	Owner int `json:"owner"`
	Trait int `json:"trait"`
}

// SceneOwner as a Pick's Owner: the trait is one of the scene's Aspects.
const SceneOwner = -1

// TroublePool as a side's character: the side is the Trouble Pool.
const TroublePool = -1

// clip shortens a name quoted back in an error to 40 bytes, so that an
// error stays a line whatever it was handed.
func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}
