package actiontest

import (
	"errors"
	"fmt"

	"github.com/stakesrpg/stakes/internal/named"
)

// EffectKind says what buying an Effect does.
type EffectKind string

// Effect kinds.
const (
	// EffectHelp helps another character who failed the same kind of
	// Action test. The help itself is the caller's to apply (the ally is
	// not this character); it is recorded on the Attempt and as an event.
	EffectHelp EffectKind = "help"
	// EffectHeal clears the character's lowest harm: the lowest row that
	// holds any, on the Action's natural track when it has harm in that row,
	// else on the first track that does.
	EffectHeal EffectKind = "heal"
	// EffectBonus carries Dice more dice to the character's next roll.
	EffectBonus EffectKind = "bonus"
	// EffectNarrative changes nothing the rules track; it is only recorded.
	EffectNarrative EffectKind = "narrative"
)

// Effect is something extra successes can buy ("Multiple Successes": some
// Actions let a character spend extra successes on effects, one success
// each, with the Director's leave).
type Effect struct {
	Name string     `json:"name"`
	Kind EffectKind `json:"kind"`
	// Cost is the extra successes it takes, 1 [text].
	Cost int `json:"cost"`
	// Dice is what an EffectBonus carries to the next roll.
	Dice int `json:"dice,omitempty"`
	// Actions are the Actions that allow it; empty means every Action.
	Actions []string `json:"actions,omitempty"`
}

// DefaultEffects are the effects the rule text names: helping an ally who
// failed the same Action [text], healing a harm in a surge of confidence
// [text, which leaves it to the Director], and a die carried to the next
// roll [ours]; one success each [text]. Every Action allows each [ours]:
// the text says only that "some" Actions do, and our Action list is a
// stand-in for the game's.
func DefaultEffects() []Effect {
	return []Effect{
		{Name: "help_ally", Kind: EffectHelp, Cost: 1},
		{Name: "heal_harm", Kind: EffectHeal, Cost: 1},
		{Name: "bonus_die", Kind: EffectBonus, Cost: 1, Dice: 1},
	}
}

// maxEffects bounds Rules.Effects so an Action's allowed effects fit a
// bit set.
const maxEffects = 64

// checkEffects says what is wrong with rl.Effects.
func checkEffects(rl *Rules) error {
	if len(rl.Effects) > maxEffects {
		return rulesErr("effects: %d, at most %d", len(rl.Effects), maxEffects)
	}
	for i, e := range rl.Effects {
		if e.Name == "" {
			return rulesErr("effects[%d]: empty name", i)
		}
		for j := range i {
			if rl.Effects[j].Name == e.Name {
				return rulesErr("effects[%d]: name %q repeated", i, e.Name)
			}
		}
		switch e.Kind {
		case EffectHelp, EffectHeal, EffectNarrative:
			if e.Dice != 0 {
				return rulesErr("effects[%d] (%s): dice %d, only a %q effect carries dice", i, e.Name, e.Dice, EffectBonus)
			}
		case EffectBonus:
			if e.Dice < 1 || e.Dice > 20 {
				return rulesErr("effects[%d] (%s): dice %d, must be 1..20", i, e.Name, e.Dice)
			}
		default:
			return rulesErr("effects[%d] (%s): unknown kind %q (allowed: help, heal, bonus, narrative)", i, e.Name, e.Kind)
		}
		if e.Cost < 1 || e.Cost > 20 {
			return rulesErr("effects[%d] (%s): cost %d, must be 1..20", i, e.Name, e.Cost)
		}
		for _, a := range e.Actions {
			if _, err := rl.ActionIndex(a); err != nil {
				return rulesErr("effects[%d] (%s): %v", i, e.Name, err)
			}
		}
	}
	return nil
}

// allowedEffects returns, for each Action, the bit set of the effects it
// allows.
func allowedEffects(rl *Rules) []uint64 {
	out := make([]uint64, len(rl.Actions))
	for i, e := range rl.Effects {
		for a, x := range rl.Actions {
			if len(e.Actions) == 0 || containsName(e.Actions, x.Name) {
				out[a] |= 1 << i
			}
		}
	}
	return out
}

// allowedFor returns the bit set of the effects a test of name allows: its
// Action's, or, for an Attribute rolled alone, the effects every Action
// allows (those that name no Actions).
func (c *Character) allowedFor(name string) (uint64, error) {
	act, _, err := c.rules.Subject(name)
	if err != nil {
		return 0, err
	}
	if act >= 0 {
		return c.allowed[act], nil
	}
	var all uint64
	for i, e := range c.rules.Effects {
		if len(e.Actions) == 0 {
			all |= 1 << i
		}
	}
	return all, nil
}

func containsName(names []string, n string) bool {
	for _, m := range names {
		if m == n {
			return true
		}
	}
	return false
}

// EffectIndex returns the index of the named effect, or an error listing
// the effects.
func (rl *Rules) EffectIndex(name string) (int, error) {
	for i, e := range rl.Effects {
		if e.Name == name {
			return i, nil
		}
	}
	names := make([]string, len(rl.Effects))
	for i, e := range rl.Effects {
		names[i] = e.Name
	}
	return 0, fmt.Errorf("actiontest: unknown effect %q (allowed: %v)", name, names)
}

// Bought is one effect bought with extra successes, as the Attempt records
// it. Track and Row name the harm a heal cleared.
type Bought struct {
	Effect string `json:"effect"`
	Track  string `json:"track,omitempty"`
	Row    string `json:"row,omitempty"`
}

// Errors of Spend; the returned errors wrap them and say more.
var (
	ErrExtra      = errors.New("actiontest: not enough extra successes")
	ErrNotAllowed = errors.New("actiontest: the Action does not allow that effect")
	ErrNoHarm     = errors.New("actiontest: no harm to heal")
)

// Spend buys the named effects with at's extra successes, in order, and
// applies them: a heal clears the lowest harm, a bonus carries dice to the
// next roll, help and narrative effects are only recorded. at must be
// finished; the effects' cost may not exceed the extra successes not yet
// spent (Attempt.Extra - Attempt.Spent), every effect must be allowed by
// at's Action, and a heal needs a harm to clear. Each effect is recorded in
// at.Bought and, with a Sink, as an EvEffect event. On error nothing
// changes.
func (c *Character) Spend(names ...string) error {
	var buf [8]int
	idx := buf[:0]
	for _, n := range names {
		i, err := c.rules.EffectIndex(n)
		if err != nil {
			return err
		}
		idx = append(idx, i)
	}
	return c.spend(&c.State.Attempt, idx)
}

// spend is Spend by effect index.
func (c *Character) spend(at *Attempt, idx []int) error {
	if err := c.canSpend(at, idx); err != nil {
		return err
	}
	for _, i := range idx {
		c.buy(at, i)
	}
	return nil
}

// canSpend says why at cannot buy the effects idx, or nil.
func (c *Character) canSpend(at *Attempt, idx []int) error {
	rl := c.rules
	if at.Stage != Finished {
		return fmt.Errorf("%w: extra successes are spent on a finished test (stage %q)", ErrStage, at.Stage.String())
	}
	allowed, err := c.allowedFor(at.Test.Action)
	if err != nil {
		return err
	}
	cost, heals := 0, 0
	for _, i := range idx {
		if i < 0 || i >= len(rl.Effects) {
			return fmt.Errorf("actiontest: effect %d, allowed 0..%d", i, len(rl.Effects)-1)
		}
		e := &rl.Effects[i]
		if allowed&(1<<i) == 0 {
			return fmt.Errorf("%w: %s does not allow %s (allowed by %v)", ErrNotAllowed, at.Test.Action, e.Name, e.Actions)
		}
		cost += e.Cost
		if e.Kind == EffectHeal {
			heals++
		}
	}
	if left := at.Extra - at.Spent; cost > left {
		return fmt.Errorf("%w: the effects cost %d, %d of %d extra successes are left", ErrExtra, cost, left, at.Extra)
	}
	if heals > 0 && heals > harmHeld(&c.State) {
		return fmt.Errorf("%w: %d heals bought, %d harms held", ErrNoHarm, heals, harmHeld(&c.State))
	}
	return nil
}

// harmHeld counts the harms on the tracks (critical injuries aside).
func harmHeld(s *State) int {
	n := 0
	for _, h := range s.Harm {
		for _, k := range h.Rows {
			n += k
		}
	}
	return n
}

// buy applies effect i, checked, to the state and records it on at.
func (c *Character) buy(at *Attempt, i int) {
	rl := c.rules
	e := &rl.Effects[i]
	at.Spent += e.Cost
	b := Bought{Effect: e.Name}
	ev := Event{Kind: EvEffect, Effect: e.Name}
	switch e.Kind {
	case EffectHeal:
		t, row := c.lowestHarm(c.naturalTrack(&at.Test))
		c.healed(t, row)
		b.Track, b.Row = rl.HarmTracks[t], rl.HarmRows[row].Name
		ev.Track, ev.Row = b.Track, b.Row
	case EffectBonus:
		c.State.Bonus += e.Dice
		ev.Pool = e.Dice
	}
	at.Bought = append(at.Bought, b)
	if c.Sink != nil {
		c.emit(ev)
	}
}

// lowestHarm returns the lowest row holding harm, on the natural track if
// it has harm in that row, else the first track that does. The state must
// hold some harm.
func (c *Character) lowestHarm(natural int) (track, row int) {
	for row := range c.rules.HarmRows {
		if c.State.Harm[natural].Rows[row] > 0 {
			return natural, row
		}
		for t, h := range c.State.Harm {
			if h.Rows[row] > 0 {
				return t, row
			}
		}
	}
	return -1, -1
}

// SpendView is what a Spender sees when it decides how to spend extra
// successes.
type SpendView struct {
	// Extra is the extra successes left to spend.
	Extra int
	// Allowed has bit i set when the Action allows Rules.Effects[i].
	Allowed uint64
	// Harm is how many harms the character holds (what heals can clear).
	Harm int
	// Succeeded says whether the test got what it was after.
	Succeeded bool
	// Rules are the rules in force (read-only).
	Rules *Rules
}

// Spender decides how a character spends extra successes — the Director
// having the final say, a Spender stands for the table's agreement. It
// appends the indices of the effects to buy (into Rules.Effects) to buf.
// It must be deterministic in its view, which it must not change.
type Spender interface {
	Name() string
	Spend(v *SpendView, buf []int) []int
}

// SpendNone keeps every extra success (the extras only count toward a
// scenario's progress).
type SpendNone struct{}

// Name returns "none".
func (SpendNone) Name() string { return "none" }

// Spend buys nothing.
func (SpendNone) Spend(_ *SpendView, buf []int) []int { return buf }

// SpendInOrder spends extra successes one effect at a time, each time on
// the first effect of Order (effect names) that the Action allows, that is
// affordable and that would do something (a heal needs harm to clear),
// until none fits.
type SpendInOrder struct {
	Label string
	Order []string
}

// Name returns the label.
func (s SpendInOrder) Name() string { return s.Label }

// Spend picks effects in order of preference.
func (s SpendInOrder) Spend(v *SpendView, buf []int) []int {
	left, harm := v.Extra, v.Harm
	for left > 0 {
		picked := false
		for _, name := range s.Order {
			i, err := v.Rules.EffectIndex(name)
			if err != nil || v.Allowed&(1<<i) == 0 {
				continue
			}
			e := &v.Rules.Effects[i]
			if e.Cost > left || (e.Kind == EffectHeal && harm == 0) {
				continue
			}
			if e.Kind == EffectHeal {
				harm--
			}
			left -= e.Cost
			buf = append(buf, i)
			picked = true
			break
		}
		if !picked {
			break
		}
	}
	return buf
}

// spenders are the shipped Spenders by name.
var spenders = named.Registry[Spender]{Kind: "spender", Make: map[string]func() Spender{
	"none": func() Spender { return SpendNone{} },
	// heal_first: heal harm while any is held, then carry dice.
	"heal_first": func() Spender {
		return SpendInOrder{Label: "heal_first", Order: []string{"heal_harm", "bonus_die"}}
	},
	// bonus_dice: every extra success becomes a die on the next roll.
	"bonus_dice": func() Spender { return SpendInOrder{Label: "bonus_dice", Order: []string{"bonus_die"}} },
}}

// SpenderByName returns a shipped Spender; "" is "none".
func SpenderByName(name string) (Spender, error) {
	if name == "" {
		name = "none"
	}
	s, err := spenders.ByName(name)
	if err != nil {
		return nil, fmt.Errorf("actiontest: %w", err)
	}
	return s, nil
}

// Spenders returns the shipped Spenders' names, sorted.
func Spenders() []string { return spenders.Names() }

// SpendWith asks s how to spend at's unspent extra successes and buys
// them (see Spend). A Spender's illegal choice is an error and changes
// nothing.
func (c *Character) SpendWith(s Spender) error {
	at := &c.State.Attempt
	if at.Stage != Finished {
		return fmt.Errorf("%w: extra successes are spent on a finished test (stage %q)", ErrStage, at.Stage.String())
	}
	if at.Extra > maxDice || at.Spent < 0 || at.Spent > at.Extra {
		return fmt.Errorf("actiontest: %d of %d extra successes spent: the attempt is corrupt (see State.Check)", at.Spent, at.Extra)
	}
	if at.Extra-at.Spent == 0 {
		return nil
	}
	allowed, err := c.allowedFor(at.Test.Action)
	if err != nil {
		return err
	}
	c.spendSeen = SpendView{Extra: at.Extra - at.Spent, Allowed: allowed, Harm: harmHeld(&c.State),
		Succeeded: at.Outcome.Succeeded, Rules: c.rules}
	idx := s.Spend(&c.spendSeen, c.spendBuf[:0])
	if err := c.spend(at, idx); err != nil {
		return fmt.Errorf("spender %s: %w", s.Name(), err)
	}
	return nil
}
