package actiontest

import (
	"errors"
	"fmt"

	"github.com/stakesrpg/stakes/named"
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
				return rulesErr("effects[%d]: name %.40q repeated", i, e.Name)
			}
		}
		switch e.Kind {
		case EffectHelp, EffectHeal, EffectNarrative:
			if e.Dice != 0 {
				return rulesErr("effects[%d] (%s): dice %d, only a %.40q effect carries dice", i, e.Name, e.Dice, EffectBonus)
			}
		case EffectBonus:
			if e.Dice < 1 || e.Dice > 20 {
				return rulesErr("effects[%d] (%s): dice %d, must be 1..20", i, e.Name, e.Dice)
			}
		default:
			return rulesErr("effects[%d] (%s): unknown kind %.40q (allowed: help, heal, bonus, narrative)", i, e.Name, e.Kind)
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

// allowedBy returns the bit set of the effects a test rolling s allows:
// those that name no Actions, and, for an Action, those that name it (an
// Attribute rolled alone allows only the first).
func (c *game) allowedBy(s subject) uint64 {
	var out uint64
	for i, e := range c.rules.Effects {
		if len(e.Actions) == 0 || (s.act >= 0 && containsName(e.Actions, c.rules.Actions[s.act].Name)) {
			out |= 1 << i
		}
	}
	return out
}

func containsName(names []string, n string) bool {
	for _, m := range names {
		if m == n {
			return true
		}
	}
	return false
}

// effectAt returns the index of the named effect, -1 if none.
func (rl *Rules) effectAt(name string) int {
	for i, e := range rl.Effects {
		if e.Name == name {
			return i
		}
	}
	return -1
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
	return 0, fmt.Errorf("actiontest: unknown effect %.40q (allowed: %s)", name, named.Allowed(names))
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
func (c *game) Spend(names ...string) error {
	if len(names) > maxDice {
		return fmt.Errorf("actiontest: %d effects named, at most %d", len(names), maxDice)
	}
	var buf [8]int
	idx := buf[:0]
	for _, n := range names {
		i, err := c.rules.EffectIndex(n)
		if err != nil {
			return err
		}
		idx = append(idx, i)
	}
	at := &c.State.Attempt
	if at.Stage != Finished {
		return fmt.Errorf("%w: extra successes are spent on a finished test (stage %.40q)", ErrStage, at.Stage.String())
	}
	s, err := c.subjectOf(at.Test.Action)
	if err != nil {
		return err
	}
	return c.spend(at, idx, s)
}

// spend is Spend by effect index, on finished attempt at, whose test
// rolls s.
func (c *game) spend(at *Attempt, idx []int, s subject) error {
	if err := c.canSpend(at, idx, c.allowedBy(s)); err != nil {
		return err
	}
	for _, i := range idx {
		c.buy(at, i)
	}
	return nil
}

// canSpend says why finished attempt at, whose Action allows the
// effects allowed, cannot buy the effects idx, or nil.
func (c *game) canSpend(at *Attempt, idx []int, allowed uint64) error {
	rl := c.rules
	if len(idx) > maxDice {
		return fmt.Errorf("actiontest: %d effects chosen, at most %d", len(idx), maxDice)
	}
	cost, heals := 0, 0
	for _, i := range idx {
		if i < 0 || i >= len(rl.Effects) {
			return fmt.Errorf("actiontest: effect %d, allowed 0..%d", i, len(rl.Effects)-1)
		}
		e := &rl.Effects[i]
		if allowed&(1<<i) == 0 {
			return fmt.Errorf("%w: %s does not allow %s (allowed by %s)", ErrNotAllowed, at.Test.Action, e.Name, named.Allowed(e.Actions))
		}
		cost += e.Cost
		if e.Kind == EffectHeal {
			heals++
		}
	}
	if left := at.Extra - at.Spent; cost > left {
		return fmt.Errorf("%w: the effects cost %d, %d of %d extra successes are left", ErrExtra, cost, left, at.Extra)
	}
	if heals > 0 && heals > harmHeld(c.State) {
		return fmt.Errorf("%w: %d heals bought, %d harms held", ErrNoHarm, heals, harmHeld(c.State))
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
func (c *game) buy(at *Attempt, i int) {
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
func (c *game) lowestHarm(natural int) (track, row int) {
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

// SpendOrder is a way of spending extra successes: one effect at a time,
// each time on the first effect of Order (effect names) that the Action
// allows, that is affordable and that would do something (a heal needs
// harm to clear), until none fits. An empty Order spends nothing. A
// Policy spends so by carrying one (see Spending).
type SpendOrder struct {
	Label string
	Order []string
}

// Choose appends the effects to buy, by index into Rules.Effects, to buf.
func (s SpendOrder) Choose(v *View, buf []int) []int {
	left, harm := v.Extra, v.Harm
	for left > 0 {
		picked := false
		for _, name := range s.Order {
			i := v.Rules.effectAt(name)
			if i < 0 || v.Allowed&(1<<i) == 0 {
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

// spendOrders are the shipped ways of spending by name.
var spendOrders = named.Registry[SpendOrder]{Kind: "spending", Make: map[string]func() SpendOrder{
	// none: keep every extra success (the extras only count toward a
	// scenario's progress).
	"none": func() SpendOrder { return SpendOrder{Label: "none"} },
	// heal_first: heal harm while any is held, then carry dice.
	"heal_first": func() SpendOrder {
		return SpendOrder{Label: "heal_first", Order: []string{"heal_harm", "bonus_die"}}
	},
	// bonus_dice: every extra success becomes a die on the next roll.
	"bonus_dice": func() SpendOrder { return SpendOrder{Label: "bonus_dice", Order: []string{"bonus_die"}} },
}}

// SpendOrderByName returns a shipped way of spending; "" is "none".
func SpendOrderByName(name string) (SpendOrder, error) {
	if name == "" {
		name = "none"
	}
	s, err := spendOrders.ByName(name)
	if err != nil {
		return SpendOrder{}, fmt.Errorf("actiontest: %w", err)
	}
	return s, nil
}

// SpendOrders returns the shipped ways of spending's names, sorted.
func SpendOrders() []string { return spendOrders.Names() }

// SpendExtra asks the game's player how to spend the action's unspent
// extra successes and buys them (see Spend). A policy's illegal choice is
// an error and changes nothing.
func (c *game) SpendExtra() error { return c.SpendWith(c.player) }

// SpendWith is SpendExtra asking p.
func (c *game) SpendWith(p Policy) error {
	s, err := c.subjectOf(c.State.Attempt.Test.Action)
	if err != nil && c.State.Attempt.Stage == Finished {
		return err
	}
	return c.spendWith(p, c.allowedBy(s))
}

// buyable lists the effects the finished action's unspent extra
// successes can buy now, one at a time (Engine.Buyable).
func (c *game) buyable() []string {
	at := &c.State.Attempt
	if at.Stage != Finished {
		return nil
	}
	s, err := c.subjectOf(at.Test.Action)
	if err != nil {
		return nil
	}
	allowed := c.allowedBy(s)
	var out []string
	for i := range c.rules.Effects {
		if c.canSpend(at, []int{i}, allowed) == nil {
			out = append(out, c.rules.Effects[i].Name)
		}
	}
	return out
}

// canSpendNames says why Spend would refuse the named effects now.
func (c *game) canSpendNames(names []string) error {
	if len(names) > maxDice {
		return fmt.Errorf("actiontest: %d effects named, at most %d", len(names), maxDice)
	}
	idx := make([]int, 0, len(names))
	for _, n := range names {
		i, err := c.rules.EffectIndex(n)
		if err != nil {
			return err
		}
		idx = append(idx, i)
	}
	at := &c.State.Attempt
	if at.Stage != Finished {
		return fmt.Errorf("%w: extra successes are spent on a finished test (stage %.40q)", ErrStage, at.Stage.String())
	}
	s, err := c.subjectOf(at.Test.Action)
	if err != nil {
		return err
	}
	return c.canSpend(at, idx, c.allowedBy(s))
}

// spendWith is SpendWith for an attempt whose test's Action allows the
// effects allowed (allowedBy).
func (c *game) spendWith(p Policy, allowed uint64) error {
	at := &c.State.Attempt
	if at.Stage != Finished {
		return fmt.Errorf("%w: extra successes are spent on a finished test (stage %.40q)", ErrStage, at.Stage.String())
	}
	if at.Extra > maxDice || at.Spent < 0 || at.Spent > at.Extra {
		return fmt.Errorf("actiontest: %d of %d extra successes spent: the attempt is corrupt (see State.Check)", at.Spent, at.Extra)
	}
	if at.Extra-at.Spent == 0 {
		return nil
	}
	idx := p.Spend(c.spendView(at, allowed), c.State.spendBuf[:0])
	if err := refused(p); err != nil {
		return err
	}
	if len(idx) == 0 {
		return nil
	}
	if err := c.canSpend(at, idx, allowed); err != nil {
		return fmt.Errorf("policy %s: %w", p.Name(), err)
	}
	for _, i := range idx {
		c.buy(at, i)
	}
	return nil
}

// spendView fills the state's lent View with what a policy is shown when
// it spends finished attempt at's extra successes, its Action allowing
// the effects allowed.
func (c *game) spendView(at *Attempt, allowed uint64) *View {
	v := &c.State.v
	v.Pool, v.Required, v.Successes, v.Penalty, v.MustPush = at.Pool.Dice, at.Required, at.Successes, at.Pool.Penalty, false
	v.Position, v.PushTrack, v.Rules = at.Test.Position, "", c.rules
	v.State, v.Pursuit = c.State, c.pursuit
	v.Extra, v.Allowed, v.Harm, v.Succeeded = at.Extra-at.Spent, allowed, harmHeld(c.State), at.Outcome.Succeeded
	return v
}
