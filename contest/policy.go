package contest

import (
	"fmt"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/named"
)

// View is what a policy sees when asked for a decision. The engine fills
// only the fields that matter for the question; the rest are zero. A
// policy receives a pointer to it, and to any character or pool it is
// shown, to read, never to change.
type View struct {
	Kind ActionKind
	// Side and Char: the deciding side and character (-1 when not one).
	Side, Char int
	// Stakes is the result to beat; Holder the side holding it.
	Stakes, Holder int
	// Rolled: the deciding side has rolled dice in this action.
	Rolled bool
	// PlotPoints the decider holds.
	PlotPoints int
	// Best is the highest total the side's planned pool (with its gang and
	// any aid waiting) could make; BestAll the same with every extra pick
	// it can afford; Affordable is how many extra picks that is.
	Best, BestAll, Affordable int
	// Margin: how far the decider is losing by (Final Push); Pushes the
	// Final Push steps chosen so far.
	Margin, Pushes int
	// Ones: the 1s the GM may buy.
	Ones int
	// Target is the character a Complication is about to land on, and
	// Trauma says it is Trauma.
	Target int
	Trauma bool
	// Reflection: the Reflection Points of the character in question;
	// RebuyCost what buying back one step of a lowered trait costs.
	Reflection, RebuyCost int
	// TroubleRoom is how many more dice the Trouble Pool may take (see
	// Rules.MaxTrouble): what bounds buying 1s and cashing Reflection.
	TroubleRoom int
	// Price is what paying for the decision at hand costs in Plot Points:
	// Giving In after rolling (Pay), going on after interference.
	Price int
	// Beats left and steps left in a timed action.
	Beats, StepsLeft int
	// State is the whole state, to read and never to change, when a side
	// is to Give In or roll, the GM to buy the 1s of an action roll or a
	// timed action's roll, an interferer to step in, a side to answer an
	// interference, or a timed action's side to decide (a solved plan
	// reads it); nil elsewhere.
	State *State
}

// Policy makes every choice the text leaves to someone. The same policy
// value may serve a player character, a GM character and the GM. An
// illegal answer stops Play with an error; it is never fixed silently.
type Policy interface {
	// Name is the policy's registry name.
	Name() string
	// GiveIn: Give In now instead of rolling?
	GiveIn(v *View) bool
	// Pay: how to pay for Giving In after having rolled.
	Pay(v *View) Payment
	// Extras: how many extra picks (in the side's order) to buy for the
	// coming roll, 0..v.Affordable.
	Extras(v *View) int
	// Push: make a Final Push (as far as needed) rather than take Trauma?
	Push(v *View) bool
	// BuyOnes: how many of v.Ones the GM buys, 0..min(v.Ones, v.TroubleRoom).
	BuyOnes(v *View) int
	// Onto: which of the target's Complications (or Trauma) to pile onto,
	// as an index into its Traits, or -1 for the inflicter's own label.
	Onto(v *View, target *Character) int
	// UseEffect: use the Effect of Distinction t, rolled in the winning
	// pool, on the Complication Pool about to be rolled against v.Target?
	UseEffect(v *View, t *Trait) bool
	// Waive: as the GM who won a basic action, let the actor off its
	// Complication?
	Waive(v *View) bool
	// Continue: pay to go on after interference?
	Continue(v *View) bool
	// Interfere: the planned interferer steps in now?
	Interfere(v *View) bool
	// BuyTime: the next helper tries to buy time in this gap?
	BuyTime(v *View) bool
	// Objective: finished a timed action with zero beats: the objective
	// (true) or the clean getaway (false)?
	Objective(v *View) bool
	// Cash: as the GM, how many of GM character v.Char's v.Reflection
	// points to turn into Trouble Pool dice, 0..min(v.Reflection,
	// v.TroubleRoom).
	Cash(v *View) int
	// PushStep: which trait the next Final Push step lowers, as an index
	// into the pusher's Traits. opts lists every trait of its own the
	// side rolled, each at the rating it has once the steps already
	// chosen (v.Pushes of them) are taken; a choice outside opts, or one
	// already Gone, is an error.
	PushStep(v *View, opts []PushOption) int
	// TroubleOff: which die of the Trouble Pool a win against it removes
	// (a basic action's, or a timed step's under Rules.TimedTroubleOff),
	// as an index into trouble (the pool as it stands).
	TroubleOff(v *View, trouble []dice.Die) int
	// Rebuy: after an action, which of character c's lowered traits (see
	// Trait.Original) to buy back with v.Reflection points, and by how
	// many steps; steps 0 buys nothing. Asked again after each purchase.
	Rebuy(v *View, c *Character) (trait, steps int)
}

// PushOption is one trait a Final Push may lower: Trait indexes the
// pusher's Traits and Die is the rating it would be lowered from.
type PushOption struct {
	Trait int      `json:"trait"`
	Kind  Kind     `json:"kind"`
	Die   dice.Die `json:"die"`
}

// Sensible is the default policy. It spends one Plot Point on an extra die
// when the stakes reach two thirds of its best total, Gives In only when
// even every affordable die could not beat the stakes (paying a Plot Point
// if it can), always makes a Final Push, lowering its smallest rolled trait
// each step and a Value last, lands each Complication on its own label (one
// named after it), uses every Distinction effect, never waives a
// Complication, takes the largest die off a beaten Trouble Pool, buys one
// 1 a roll as the GM, goes on after interference only while holding the
// stakes, interferes at the first chance, buys time when the beats left do
// not cover the steps left, takes the objective, buys back lowered traits
// (Values first, then the largest original rating) as soon as its
// Reflection Points allow, and as GM lets its characters keep their
// Reflection Points.
type Sensible struct{}

// Name implements Policy.
func (Sensible) Name() string { return "default" }

// Cash implements Policy.
func (Sensible) Cash(*View) int { return 0 }

// GiveIn implements Policy.
func (Sensible) GiveIn(v *View) bool { return v.Stakes >= v.BestAll }

// Pay implements Policy.
func (Sensible) Pay(v *View) Payment {
	if v.PlotPoints >= v.Price {
		return PayPlotPoint
	}
	return PayComplication
}

// Extras implements Policy.
func (Sensible) Extras(v *View) int {
	if v.Affordable > 0 && 3*v.Stakes >= 2*v.Best {
		return 1
	}
	return 0
}

// Push implements Policy.
func (Sensible) Push(*View) bool { return true }

// BuyOnes implements Policy.
func (Sensible) BuyOnes(v *View) int { return min(1, v.Ones, v.TroubleRoom) }

// Onto implements Policy.
func (Sensible) Onto(*View, *Character) int { return -1 }

// UseEffect implements Policy.
func (Sensible) UseEffect(*View, *Trait) bool { return true }

// Waive implements Policy.
func (Sensible) Waive(*View) bool { return false }

// Continue implements Policy.
func (Sensible) Continue(v *View) bool { return v.Holder == v.Side }

// Interfere implements Policy.
func (Sensible) Interfere(*View) bool { return true }

// BuyTime implements Policy.
func (Sensible) BuyTime(v *View) bool { return v.Beats <= v.StepsLeft }

// Objective implements Policy.
func (Sensible) Objective(*View) bool { return true }

// PushStep implements Policy: the smallest trait still standing, a Value
// only when nothing else is left (the least the character can give up).
func (Sensible) PushStep(_ *View, opts []PushOption) int {
	best, bd := -1, 0
	for _, o := range opts {
		if o.Die == dice.Gone {
			continue
		}
		d := int(o.Die)
		if o.Kind == Value {
			d += 100
		}
		if best < 0 || d < bd {
			best, bd = o.Trait, d
		}
	}
	return best
}

// TroubleOff implements Policy: the largest die.
func (Sensible) TroubleOff(_ *View, trouble []dice.Die) int { return largest(trouble) }

// largest is the index of the first largest die, -1 for none.
func largest(ds []dice.Die) int {
	k := -1
	for i, d := range ds {
		if k < 0 || d > ds[k] {
			k = i
		}
	}
	return k
}

// Rebuy implements Policy: one step of the first lowered Value, else of the
// lowered trait with the largest original rating, while points last.
func (Sensible) Rebuy(v *View, c *Character) (trait, steps int) {
	if v.Reflection < v.RebuyCost {
		return -1, 0
	}
	best := -1
	for i := range c.Traits {
		t := &c.Traits[i]
		if !t.Lowered() {
			continue
		}
		if best < 0 || t.Kind == Value && c.Traits[best].Kind != Value ||
			(t.Kind == Value) == (c.Traits[best].Kind == Value) && t.Original > c.Traits[best].Original {
			best = i
		}
	}
	if best < 0 {
		return -1, 0
	}
	return best, 1
}

// Stubborn never Gives In, spends every Plot Point it can on dice, always
// pushes, always goes on after interference, and as GM buys every 1 and
// turns every Reflection Point of its characters into Trouble (as far as
// the Trouble Pool has room).
type Stubborn struct{ Sensible }

// Name implements Policy.
func (Stubborn) Name() string { return "stubborn" }

// Cash implements Policy.
func (Stubborn) Cash(v *View) int { return min(v.Reflection, v.TroubleRoom) }

// GiveIn implements Policy.
func (Stubborn) GiveIn(*View) bool { return false }

// Extras implements Policy.
func (Stubborn) Extras(v *View) int { return v.Affordable }

// BuyOnes implements Policy.
func (Stubborn) BuyOnes(v *View) int { return min(v.Ones, v.TroubleRoom) }

// Continue implements Policy.
func (Stubborn) Continue(*View) bool { return true }

// Cautious Gives In before risking a roll whenever the stakes reach three
// quarters of its best total, pays in Complications to keep its Plot
// Points, never buys dice and takes the clean getaway.
type Cautious struct{ Sensible }

// Name implements Policy.
func (Cautious) Name() string { return "cautious" }

// GiveIn implements Policy.
func (Cautious) GiveIn(v *View) bool { return 4*v.Stakes >= 3*v.Best }

// Pay implements Policy.
func (Cautious) Pay(*View) Payment { return PayComplication }

// Extras implements Policy.
func (Cautious) Extras(*View) int { return 0 }

// Continue implements Policy.
func (Cautious) Continue(*View) bool { return false }

// Interfere implements Policy.
func (Cautious) Interfere(*View) bool { return false }

// Objective implements Policy.
func (Cautious) Objective(*View) bool { return false }

// BuyTime implements Policy.
func (Cautious) BuyTime(v *View) bool { return v.Beats <= v.StepsLeft+1 }

// Frugal never spends Plot Points (not on dice, Giving In, going on or
// interfering), never makes a Final Push, keeps its Reflection Points
// rather than buy traits back, and as GM never buys 1s.
type Frugal struct{ Sensible }

// Name implements Policy.
func (Frugal) Name() string { return "frugal" }

// Rebuy implements Policy.
func (Frugal) Rebuy(*View, *Character) (int, int) { return -1, 0 }

// Pay implements Policy.
func (Frugal) Pay(*View) Payment { return PayComplication }

// Extras implements Policy.
func (Frugal) Extras(*View) int { return 0 }

// Push implements Policy.
func (Frugal) Push(*View) bool { return false }

// BuyOnes implements Policy.
func (Frugal) BuyOnes(*View) int { return 0 }

// Continue implements Policy.
func (Frugal) Continue(*View) bool { return false }

// Interfere implements Policy.
func (Frugal) Interfere(*View) bool { return false }

// PileOn is Sensible except that it lands each Complication (or Trauma) on
// the target's largest existing one, driving it toward d12 and a knockout.
type PileOn struct{ Sensible }

// Name implements Policy.
func (PileOn) Name() string { return "pile_on" }

// Onto implements Policy.
func (PileOn) Onto(v *View, c *Character) int {
	k := Complication
	if v.Trauma {
		k = Trauma
	}
	best := -1
	for i, t := range c.Traits {
		if t.Kind == k && t.Die != 0 && (best < 0 || t.Die > c.Traits[best].Die) {
			best = i
		}
	}
	return best
}

// PushLargest is Sensible except that its Final Push lowers its largest
// rolled trait that is not a Value each step: it keeps every trait in play
// as long as it can (a d4 is never the one to go while a larger die could
// step down) and spares its Values while anything else is left.
type PushLargest struct{ Sensible }

// Name implements Policy.
func (PushLargest) Name() string { return "push_largest" }

// PushStep implements Policy: the largest non-Value trait still standing,
// then the largest Value.
func (PushLargest) PushStep(_ *View, opts []PushOption) int {
	best, bd := -1, 0
	for _, o := range opts {
		if o.Die == dice.Gone {
			continue
		}
		d := int(o.Die)
		if o.Kind != Value {
			d += 100
		}
		if best < 0 || d > bd {
			best, bd = o.Trait, d
		}
	}
	return best
}

// TroubleSmallest is Sensible except that a win against the Trouble Pool
// takes its smallest die off, leaving the GM the big ones (a harder table).
type TroubleSmallest struct{ Sensible }

// Name implements Policy.
func (TroubleSmallest) Name() string { return "trouble_smallest" }

// TroubleOff implements Policy: the smallest die.
func (TroubleSmallest) TroubleOff(_ *View, trouble []dice.Die) int {
	k := -1
	for i, d := range trouble {
		if k < 0 || d < trouble[k] {
			k = i
		}
	}
	return k
}

var policies = named.Registry[Policy]{Kind: "policy", Make: map[string]func() Policy{
	"default":          func() Policy { return Sensible{} },
	"stubborn":         func() Policy { return Stubborn{} },
	"cautious":         func() Policy { return Cautious{} },
	"frugal":           func() Policy { return Frugal{} },
	"pile_on":          func() Policy { return PileOn{} },
	"push_largest":     func() Policy { return PushLargest{} },
	"trouble_smallest": func() Policy { return TroubleSmallest{} },
}}

// PolicyByName returns a shipped policy by its name; "" means "default".
func PolicyByName(name string) (Policy, error) {
	if name == "" {
		name = "default"
	}
	p, err := policies.ByName(name)
	if err != nil {
		return nil, fmt.Errorf("contest: %w", err)
	}
	return p, nil
}

// PolicyNames returns the shipped policies' names, sorted.
func PolicyNames() []string { return policies.Names() }
