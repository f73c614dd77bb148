package contest

import (
	"fmt"
	"slices"
)

// View is what a policy sees when asked for a decision. The engine fills
// only the fields that matter for the question; the rest are zero.
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
	// Margin: how far the decider is losing by (Final Push).
	Margin int
	// Ones: the 1s the GM may buy.
	Ones int
	// Target is the character a Complication is about to land on, and
	// Trauma says it is Trauma.
	Target int
	Trauma bool
	// Reflection: the Reflection Points of the GM character in question.
	Reflection int
	// Price is what paying for the decision at hand costs in Plot Points:
	// Giving In after rolling (Pay), going on after interference.
	Price int
	// Beats left and steps left in a timed action.
	Beats, StepsLeft int
}

// Policy makes every choice the text leaves to someone. The same policy
// value may serve a player character, a GM character and the GM.
type Policy interface {
	// Name is the policy's registry name.
	Name() string
	// GiveIn: Give In now instead of rolling?
	GiveIn(v View) bool
	// Pay: how to pay for Giving In after having rolled.
	Pay(v View) Payment
	// Extras: how many extra picks (in the side's order) to buy for the
	// coming roll, 0..v.Affordable.
	Extras(v View) int
	// Push: make a Final Push (as far as needed) rather than take Trauma?
	Push(v View) bool
	// BuyOnes: how many of v.Ones the GM buys, 0..v.Ones.
	BuyOnes(v View) int
	// Onto: which of the target's Complications (or Trauma) to pile onto,
	// as an index into its Traits, or -1 for the inflicter's own label.
	Onto(v View, target *Character) int
	// Continue: pay to go on after interference?
	Continue(v View) bool
	// Interfere: the planned interferer steps in now?
	Interfere(v View) bool
	// BuyTime: the next helper tries to buy time in this gap?
	BuyTime(v View) bool
	// Objective: finished a timed action with zero beats: the objective
	// (true) or the clean getaway (false)?
	Objective(v View) bool
	// Cash: as the GM, how many of GM character v.Char's v.Reflection
	// points to turn into Trouble Pool dice, 0..v.Reflection.
	Cash(v View) int
}

// Sensible is the default policy. It spends one Plot Point on an extra die
// when the stakes reach two thirds of its best total, Gives In only when
// even every affordable die could not beat the stakes (paying a Plot Point
// if it can), always makes a Final Push, lands each Complication on its own
// label (one named after it), buys one 1 a roll as the GM, goes on after interference only
// while holding the stakes, interferes at the first chance, buys time when
// the beats left do not cover the steps left, takes the objective, and as
// GM lets its characters keep their Reflection Points.
type Sensible struct{}

// Name implements Policy.
func (Sensible) Name() string { return "default" }

// Cash implements Policy.
func (Sensible) Cash(View) int { return 0 }

// GiveIn implements Policy.
func (Sensible) GiveIn(v View) bool {
	return v.Stakes >= v.BestAll
}

// Pay implements Policy.
func (Sensible) Pay(v View) Payment {
	if v.PlotPoints >= v.Price {
		return PayPlotPoint
	}
	return PayComplication
}

// Extras implements Policy.
func (Sensible) Extras(v View) int {
	if v.Affordable > 0 && 3*v.Stakes >= 2*v.Best {
		return 1
	}
	return 0
}

// Push implements Policy.
func (Sensible) Push(View) bool { return true }

// BuyOnes implements Policy.
func (Sensible) BuyOnes(v View) int { return min(1, v.Ones) }

// Onto implements Policy.
func (Sensible) Onto(View, *Character) int { return -1 }

// Continue implements Policy.
func (Sensible) Continue(v View) bool { return v.Holder == v.Side }

// Interfere implements Policy.
func (Sensible) Interfere(View) bool { return true }

// BuyTime implements Policy.
func (Sensible) BuyTime(v View) bool { return v.Beats <= v.StepsLeft }

// Objective implements Policy.
func (Sensible) Objective(View) bool { return true }

// Stubborn never Gives In, spends every Plot Point it can on dice, always
// pushes, always goes on after interference, and as GM buys every 1 and
// turns every Reflection Point of its characters into Trouble.
type Stubborn struct{ Sensible }

// Name implements Policy.
func (Stubborn) Name() string { return "stubborn" }

// Cash implements Policy.
func (Stubborn) Cash(v View) int { return v.Reflection }

// GiveIn implements Policy.
func (Stubborn) GiveIn(View) bool { return false }

// Extras implements Policy.
func (Stubborn) Extras(v View) int { return v.Affordable }

// BuyOnes implements Policy.
func (Stubborn) BuyOnes(v View) int { return v.Ones }

// Continue implements Policy.
func (Stubborn) Continue(View) bool { return true }

// Objective implements Policy.
func (Stubborn) Objective(View) bool { return true }

// Cautious Gives In before risking a roll whenever the stakes reach three
// quarters of its best total, pays in Complications to keep its Plot
// Points, never buys dice and takes the clean getaway.
type Cautious struct{ Sensible }

// Name implements Policy.
func (Cautious) Name() string { return "cautious" }

// GiveIn implements Policy.
func (Cautious) GiveIn(v View) bool { return 4*v.Stakes >= 3*v.Best }

// Pay implements Policy.
func (Cautious) Pay(View) Payment { return PayComplication }

// Extras implements Policy.
func (Cautious) Extras(View) int { return 0 }

// Continue implements Policy.
func (Cautious) Continue(View) bool { return false }

// Interfere implements Policy.
func (Cautious) Interfere(View) bool { return false }

// Objective implements Policy.
func (Cautious) Objective(View) bool { return false }

// BuyTime implements Policy.
func (Cautious) BuyTime(v View) bool { return v.Beats <= v.StepsLeft+1 }

// Frugal never spends Plot Points (not on dice, Giving In, going on or
// interfering), never makes a Final Push, and as GM never buys 1s.
type Frugal struct{ Sensible }

// Name implements Policy.
func (Frugal) Name() string { return "frugal" }

// Pay implements Policy.
func (Frugal) Pay(View) Payment { return PayComplication }

// Extras implements Policy.
func (Frugal) Extras(View) int { return 0 }

// Push implements Policy.
func (Frugal) Push(View) bool { return false }

// BuyOnes implements Policy.
func (Frugal) BuyOnes(View) int { return 0 }

// Continue implements Policy.
func (Frugal) Continue(View) bool { return false }

// Interfere implements Policy.
func (Frugal) Interfere(View) bool { return false }

// PileOn is Sensible except that it lands each Complication (or Trauma) on
// the target's largest existing one, driving it toward d12 and a knockout.
type PileOn struct{ Sensible }

// Name implements Policy.
func (PileOn) Name() string { return "pile_on" }

// Onto implements Policy.
func (PileOn) Onto(v View, c *Character) int {
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

var registry = map[string]Policy{
	"default":  Sensible{},
	"stubborn": Stubborn{},
	"cautious": Cautious{},
	"frugal":   Frugal{},
	"pile_on":  PileOn{},
}

// PolicyByName returns a registered policy; "" means "default".
func PolicyByName(name string) (Policy, error) {
	if name == "" {
		name = "default"
	}
	p, ok := registry[name]
	if !ok {
		return nil, fmt.Errorf("contest: unknown policy %q: known are %v", name, Policies())
	}
	return p, nil
}

// Policies returns the registered policy names, sorted.
func Policies() []string {
	out := make([]string, 0, len(registry))
	for n := range registry {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}
