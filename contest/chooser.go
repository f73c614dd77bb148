package contest

import (
	"fmt"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim"
)

// RebuyChoice is a Policy's answer to Rebuy, as a Chooser sees it: which
// lowered trait to buy back (an index into the character's Traits) and by
// how many steps (0 buys nothing).
type RebuyChoice struct {
	Trait int `json:"trait"`
	Steps int `json:"steps"`
}

// asker is a Game's Chooser with what it keeps for it: the refusal of an
// answer of another type than its question's, and the answers handed to
// it that would otherwise be boxed anew each time.
type asker struct {
	choose sim.Chooser
	// bad is the first answer of the step under way of another type than
	// its question's: the step stops there, before it changes anything.
	bad error
	// Boxed once per game: none is the answer -1 (Onto: the inflicting
	// side's own label); rebuy[0] is RebuyChoice{-1, 0} (nothing bought)
	// and rebuy[1+i] is RebuyChoice{i, 1}, for every trait index i of the
	// cast (a Final Push lowers only traits a character starts with).
	none  any
	rebuy []any
}

// box boxes the common answers about the characters of s.
func (q *asker) box(s *State) {
	n := 0
	for i := range s.Characters {
		n = max(n, len(s.Characters[i].Traits))
	}
	q.none = -1
	q.rebuy = make([]any, n+1)
	q.rebuy[0] = RebuyChoice{Trait: -1}
	for i := range n {
		q.rebuy[1+i] = RebuyChoice{Trait: i, Steps: 1}
	}
}

// index is the answer i (a trait, a die, a count), boxed.
func (q *asker) index(i int) any {
	if i == -1 {
		return q.none
	}
	return i
}

// rebuyAnswer is the answer to Rebuy, boxed.
func (q *asker) rebuyAnswer(a RebuyChoice) any {
	switch {
	case a == RebuyChoice{Trait: -1}:
		return q.rebuy[0]
	case a.Steps == 1 && a.Trait >= 0 && a.Trait+1 < len(q.rebuy):
		return q.rebuy[1+a.Trait]
	}
	return a
}

// chosen is a game's policy with its Chooser standing between it and the
// steps: every answer goes through q.choose, and an answer of another
// type is kept in q.bad, which refuses the step (see refused).
type chosen struct {
	p Policy
	q *asker
}

// choice hands answer (to the question asked from v), boxed as boxed, to
// c's Chooser and returns what it chose; or, when the Chooser answered
// with another type, answer, with the refusal kept.
func choice[T any](c chosen, question string, v *View, answer T, boxed any) T {
	out := c.q.choose(v, boxed)
	t, ok := out.(T)
	if !ok {
		if c.q.bad == nil {
			c.q.bad = fmt.Errorf("contest: policy %s: the answer to %s is a %T, not a %T", c.p.Name(), question, out, answer)
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
		return c.q.bad
	}
	return nil
}

func (c chosen) Name() string { return c.p.Name() }

func (c chosen) GiveIn(v *View) bool {
	a := c.p.GiveIn(v)
	return choice(c, "GiveIn", v, a, a)
}

func (c chosen) Pay(v *View) Payment {
	a := c.p.Pay(v)
	return choice(c, "Pay", v, a, a)
}

func (c chosen) Extras(v *View) int {
	a := c.p.Extras(v)
	return choice(c, "Extras", v, a, c.q.index(a))
}

func (c chosen) Push(v *View) bool {
	a := c.p.Push(v)
	return choice(c, "Push", v, a, a)
}

func (c chosen) BuyOnes(v *View) int {
	a := c.p.BuyOnes(v)
	return choice(c, "BuyOnes", v, a, c.q.index(a))
}

func (c chosen) Onto(v *View, target *Character) int {
	a := c.p.Onto(v, target)
	return choice(c, "Onto", v, a, c.q.index(a))
}

func (c chosen) UseEffect(v *View, t *Trait) bool {
	a := c.p.UseEffect(v, t)
	return choice(c, "UseEffect", v, a, a)
}

func (c chosen) Waive(v *View) bool {
	a := c.p.Waive(v)
	return choice(c, "Waive", v, a, a)
}

func (c chosen) Continue(v *View) bool {
	a := c.p.Continue(v)
	return choice(c, "Continue", v, a, a)
}

func (c chosen) Interfere(v *View) bool {
	a := c.p.Interfere(v)
	return choice(c, "Interfere", v, a, a)
}

func (c chosen) BuyTime(v *View) bool {
	a := c.p.BuyTime(v)
	return choice(c, "BuyTime", v, a, a)
}

func (c chosen) Objective(v *View) bool {
	a := c.p.Objective(v)
	return choice(c, "Objective", v, a, a)
}

func (c chosen) Cash(v *View) int {
	a := c.p.Cash(v)
	return choice(c, "Cash", v, a, c.q.index(a))
}

func (c chosen) PushStep(v *View, opts []PushOption) int {
	a := c.p.PushStep(v, opts)
	return choice(c, "PushStep", v, a, c.q.index(a))
}

func (c chosen) TroubleOff(v *View, trouble []dice.Die) int {
	a := c.p.TroubleOff(v, trouble)
	return choice(c, "TroubleOff", v, a, c.q.index(a))
}

func (c chosen) Rebuy(v *View, ch *Character) (int, int) {
	t, n := c.p.Rebuy(v, ch)
	a := RebuyChoice{Trait: t, Steps: n}
	a = choice(c, "Rebuy", v, a, c.q.rebuyAnswer(a))
	return a.Trait, a.Steps
}
