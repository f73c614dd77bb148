package contest

import (
	"fmt"

	"github.com/stakesrpg/stakes/dice"
)

// RebuyChoice is a Policy's answer to Rebuy, as a Chooser sees it: which
// lowered trait to buy back (an index into the character's Traits) and by
// how many steps (0 buys nothing).
type RebuyChoice struct {
	Trait int `json:"trait"`
	Steps int `json:"steps"`
}

// chosen is a game's policy with its Chooser standing between it and the
// steps: every answer goes through g.choose, and an answer of another type
// is recorded in g.bad, which fails the step (Game.Step puts everything
// back).
type chosen struct {
	p Policy
	g *Game
}

// choice passes answer (to the question asked from v) through g's
// Chooser and returns what it chose, or answer with g.bad set when the
// Chooser answered with another type.
func choice[T any](g *Game, p Policy, question string, v *View, answer T) T {
	out := g.choose(v, answer)
	t, ok := out.(T)
	if !ok {
		if g.bad == nil {
			g.bad = fmt.Errorf("policy %s: the answer to %s is a %T, not a %T", p.Name(), question, out, answer)
		}
		return answer
	}
	return t
}

// refused is the error of the answer policy p just gave when its Chooser
// answered with another type than the question's, nil for any other: the
// step asking stops there, before it changes anything or rolls a die.
func refused(p Policy) error {
	if c, ok := p.(chosen); ok {
		return c.g.bad
	}
	return nil
}

func (c chosen) Name() string { return c.p.Name() }
func (c chosen) GiveIn(v *View) bool {
	return choice(c.g, c.p, "GiveIn", v, c.p.GiveIn(v))
}
func (c chosen) Pay(v *View) Payment { return choice(c.g, c.p, "Pay", v, c.p.Pay(v)) }
func (c chosen) Extras(v *View) int  { return choice(c.g, c.p, "Extras", v, c.p.Extras(v)) }
func (c chosen) Push(v *View) bool   { return choice(c.g, c.p, "Push", v, c.p.Push(v)) }
func (c chosen) BuyOnes(v *View) int { return choice(c.g, c.p, "BuyOnes", v, c.p.BuyOnes(v)) }
func (c chosen) Onto(v *View, target *Character) int {
	return choice(c.g, c.p, "Onto", v, c.p.Onto(v, target))
}
func (c chosen) UseEffect(v *View, t *Trait) bool {
	return choice(c.g, c.p, "UseEffect", v, c.p.UseEffect(v, t))
}
func (c chosen) Waive(v *View) bool     { return choice(c.g, c.p, "Waive", v, c.p.Waive(v)) }
func (c chosen) Continue(v *View) bool  { return choice(c.g, c.p, "Continue", v, c.p.Continue(v)) }
func (c chosen) Interfere(v *View) bool { return choice(c.g, c.p, "Interfere", v, c.p.Interfere(v)) }
func (c chosen) BuyTime(v *View) bool   { return choice(c.g, c.p, "BuyTime", v, c.p.BuyTime(v)) }
func (c chosen) Objective(v *View) bool { return choice(c.g, c.p, "Objective", v, c.p.Objective(v)) }
func (c chosen) Cash(v *View) int       { return choice(c.g, c.p, "Cash", v, c.p.Cash(v)) }
func (c chosen) PushStep(v *View, opts []PushOption) int {
	return choice(c.g, c.p, "PushStep", v, c.p.PushStep(v, opts))
}
func (c chosen) TroubleOff(v *View, trouble []dice.Die) int {
	return choice(c.g, c.p, "TroubleOff", v, c.p.TroubleOff(v, trouble))
}
func (c chosen) Rebuy(v *View, ch *Character) (int, int) {
	t, n := c.p.Rebuy(v, ch)
	a := choice(c.g, c.p, "Rebuy", v, RebuyChoice{Trait: t, Steps: n})
	return a.Trait, a.Steps
}
