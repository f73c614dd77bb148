package contest

import (
	"fmt"
	"slices"

	"github.com/stakesrpg/stakes/dice"
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
	// PushStep: which trait the next Final Push step lowers, as an index
	// into the pusher's Traits. opts lists every trait of its own the
	// side rolled, each at the rating it has once the steps already
	// chosen (v.Pushes of them) are taken; a choice outside opts, or one
	// already Gone, is an error.
	PushStep(v View, opts []PushOption) int
	// TroubleOff: which die of the Trouble Pool a win against it removes,
	// as an index into trouble (the pool as it stands).
	TroubleOff(v View, trouble []dice.Die) int
	// Rebuy: after an action, which of character c's lowered traits (see
	// Trait.Original) to buy back with v.Reflection points, and by how
	// many steps; steps 0 buys nothing. Asked again after each purchase.
	Rebuy(v View, c *Character) (trait, steps int)
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
// named after it), takes the largest die off a beaten Trouble Pool, buys
// one 1 a roll as the GM, goes on after interference only while holding
// the stakes, interferes at the first chance, buys time when the beats left
// do not cover the steps left, takes the objective, buys back lowered
// traits (Values first, then the largest original rating) as soon as its
// Reflection Points allow, and as GM lets its characters keep their
// Reflection Points.
type Sensible struct{}

// Name implements Policy.
func (Sensible) Name() string { return "default" }

// Cash implements Policy.
func (p Sensible) Cash(v View) int { return p.cash(&v) }

func (Sensible) cash(*View) int { return 0 }

// GiveIn implements Policy.
func (p Sensible) GiveIn(v View) bool { return p.giveIn(&v) }

func (Sensible) giveIn(v *View) bool { return v.Stakes >= v.BestAll }

// Pay implements Policy.
func (Sensible) Pay(v View) Payment {
	if v.PlotPoints >= v.Price {
		return PayPlotPoint
	}
	return PayComplication
}

// Extras implements Policy.
func (p Sensible) Extras(v View) int { return p.extras(&v) }

func (Sensible) extras(v *View) int {
	if v.Affordable > 0 && 3*v.Stakes >= 2*v.Best {
		return 1
	}
	return 0
}

// Push implements Policy.
func (p Sensible) Push(v View) bool { return p.push(&v) }

func (Sensible) push(*View) bool { return true }

// BuyOnes implements Policy.
func (p Sensible) BuyOnes(v View) int { return p.buyOnes(&v) }

func (Sensible) buyOnes(v *View) int { return min(1, v.Ones) }

// Onto implements Policy.
func (p Sensible) Onto(v View, c *Character) int { return p.onto(&v, c) }

func (Sensible) onto(*View, *Character) int { return -1 }

// Continue implements Policy.
func (Sensible) Continue(v View) bool { return v.Holder == v.Side }

// Interfere implements Policy.
func (Sensible) Interfere(View) bool { return true }

// BuyTime implements Policy.
func (Sensible) BuyTime(v View) bool { return v.Beats <= v.StepsLeft }

// Objective implements Policy.
func (Sensible) Objective(View) bool { return true }

// PushStep implements Policy: the smallest trait still standing, a Value
// only when nothing else is left (the least the character can give up).
func (p Sensible) PushStep(v View, opts []PushOption) int { return p.pushStep(&v, opts) }

func (Sensible) pushStep(_ *View, opts []PushOption) int {
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
func (Sensible) TroubleOff(_ View, trouble []dice.Die) int { return largest(trouble) }

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
func (p Sensible) Rebuy(v View, c *Character) (trait, steps int) { return p.rebuy(&v, c) }

func (Sensible) rebuy(v *View, c *Character) (trait, steps int) {
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
// turns every Reflection Point of its characters into Trouble.
type Stubborn struct{ Sensible }

// Name implements Policy.
func (Stubborn) Name() string { return "stubborn" }

// Cash implements Policy.
func (p Stubborn) Cash(v View) int { return p.cash(&v) }

func (Stubborn) cash(v *View) int { return v.Reflection }

// GiveIn implements Policy.
func (p Stubborn) GiveIn(v View) bool { return p.giveIn(&v) }

func (Stubborn) giveIn(*View) bool { return false }

// Extras implements Policy.
func (p Stubborn) Extras(v View) int { return p.extras(&v) }

func (Stubborn) extras(v *View) int { return v.Affordable }

// BuyOnes implements Policy.
func (p Stubborn) BuyOnes(v View) int { return p.buyOnes(&v) }

func (Stubborn) buyOnes(v *View) int { return v.Ones }

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
func (p Cautious) GiveIn(v View) bool { return p.giveIn(&v) }

func (Cautious) giveIn(v *View) bool { return 4*v.Stakes >= 3*v.Best }

// Pay implements Policy.
func (Cautious) Pay(View) Payment { return PayComplication }

// Extras implements Policy.
func (p Cautious) Extras(v View) int { return p.extras(&v) }

func (Cautious) extras(*View) int { return 0 }

// Continue implements Policy.
func (Cautious) Continue(View) bool { return false }

// Interfere implements Policy.
func (Cautious) Interfere(View) bool { return false }

// Objective implements Policy.
func (Cautious) Objective(View) bool { return false }

// BuyTime implements Policy.
func (Cautious) BuyTime(v View) bool { return v.Beats <= v.StepsLeft+1 }

// Frugal never spends Plot Points (not on dice, Giving In, going on or
// interfering), never makes a Final Push, keeps its Reflection Points
// rather than buy traits back, and as GM never buys 1s.
type Frugal struct{ Sensible }

// Rebuy implements Policy.
func (p Frugal) Rebuy(v View, c *Character) (int, int) { return p.rebuy(&v, c) }

func (Frugal) rebuy(*View, *Character) (int, int) { return -1, 0 }

// Name implements Policy.
func (Frugal) Name() string { return "frugal" }

// Pay implements Policy.
func (Frugal) Pay(View) Payment { return PayComplication }

// Extras implements Policy.
func (p Frugal) Extras(v View) int { return p.extras(&v) }

func (Frugal) extras(*View) int { return 0 }

// Push implements Policy.
func (p Frugal) Push(v View) bool { return p.push(&v) }

func (Frugal) push(*View) bool { return false }

// BuyOnes implements Policy.
func (p Frugal) BuyOnes(v View) int { return p.buyOnes(&v) }

func (Frugal) buyOnes(*View) int { return 0 }

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
func (p PileOn) Onto(v View, c *Character) int { return p.onto(&v, c) }

func (PileOn) onto(v *View, c *Character) int {
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
func (p PushLargest) PushStep(v View, opts []PushOption) int { return p.pushStep(&v, opts) }

func (PushLargest) pushStep(_ *View, opts []PushOption) int {
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
func (TroubleSmallest) TroubleOff(_ View, trouble []dice.Die) int {
	k := -1
	for i, d := range trouble {
		if k < 0 || d < trouble[k] {
			k = i
		}
	}
	return k
}

var registry = map[string]Policy{
	"default":          Sensible{},
	"stubborn":         Stubborn{},
	"cautious":         Cautious{},
	"frugal":           Frugal{},
	"pile_on":          PileOn{},
	"push_largest":     PushLargest{},
	"trouble_smallest": TroubleSmallest{},
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

// The engine asks the policies several times a turn. For the shipped
// policies it calls their decisions directly, passing the View by pointer
// (an interface call copies the whole View); any other Policy is asked
// through the interface. Each shipped exported method is its unexported
// twin, so the two cannot disagree (TestFastPolicies checks every one).

func askGiveIn(p Policy, v *View) bool {
	switch q := p.(type) {
	case Sensible:
		return q.giveIn(v)
	case Stubborn:
		return q.giveIn(v)
	case Frugal:
		return q.giveIn(v)
	case Cautious:
		return q.giveIn(v)
	case PileOn:
		return q.giveIn(v)
	case PushLargest:
		return q.giveIn(v)
	case TroubleSmallest:
		return q.giveIn(v)
	}
	return p.GiveIn(*v)
}

func askExtras(p Policy, v *View) int {
	switch q := p.(type) {
	case Sensible:
		return q.extras(v)
	case Stubborn:
		return q.extras(v)
	case Frugal:
		return q.extras(v)
	case Cautious:
		return q.extras(v)
	case PileOn:
		return q.extras(v)
	case PushLargest:
		return q.extras(v)
	case TroubleSmallest:
		return q.extras(v)
	}
	return p.Extras(*v)
}

func askBuyOnes(p Policy, v *View) int {
	switch q := p.(type) {
	case Sensible:
		return q.buyOnes(v)
	case Stubborn:
		return q.buyOnes(v)
	case Frugal:
		return q.buyOnes(v)
	case Cautious:
		return q.buyOnes(v)
	case PileOn:
		return q.buyOnes(v)
	case PushLargest:
		return q.buyOnes(v)
	case TroubleSmallest:
		return q.buyOnes(v)
	}
	return p.BuyOnes(*v)
}

func askPush(p Policy, v *View) bool {
	switch q := p.(type) {
	case Sensible:
		return q.push(v)
	case Stubborn:
		return q.push(v)
	case Frugal:
		return q.push(v)
	case Cautious:
		return q.push(v)
	case PileOn:
		return q.push(v)
	case PushLargest:
		return q.push(v)
	case TroubleSmallest:
		return q.push(v)
	}
	return p.Push(*v)
}

// ownLabel reports whether p is a shipped policy that lands every
// Complication on the inflicter's own label (Onto always -1), so that
// nothing need be asked.
func ownLabel(p Policy) bool {
	switch p.(type) {
	case Sensible, Stubborn, Frugal, Cautious, PushLargest, TroubleSmallest:
		return true
	}
	return false
}

func askOnto(p Policy, v *View, c *Character) int {
	switch q := p.(type) {
	case Sensible:
		return q.onto(v, c)
	case Stubborn:
		return q.onto(v, c)
	case Frugal:
		return q.onto(v, c)
	case Cautious:
		return q.onto(v, c)
	case PileOn:
		return q.onto(v, c)
	case PushLargest:
		return q.onto(v, c)
	case TroubleSmallest:
		return q.onto(v, c)
	}
	return p.Onto(*v, c)
}

func askCash(p Policy, v *View) int {
	switch q := p.(type) {
	case Sensible:
		return q.cash(v)
	case Stubborn:
		return q.cash(v)
	case Frugal:
		return q.cash(v)
	case Cautious:
		return q.cash(v)
	case PileOn:
		return q.cash(v)
	case PushLargest:
		return q.cash(v)
	case TroubleSmallest:
		return q.cash(v)
	}
	return p.Cash(*v)
}

func askRebuy(p Policy, v *View, c *Character) (int, int) {
	switch q := p.(type) {
	case Sensible:
		return q.rebuy(v, c)
	case Stubborn:
		return q.rebuy(v, c)
	case Frugal:
		return q.rebuy(v, c)
	case Cautious:
		return q.rebuy(v, c)
	case PileOn:
		return q.rebuy(v, c)
	case PushLargest:
		return q.rebuy(v, c)
	case TroubleSmallest:
		return q.rebuy(v, c)
	}
	return p.Rebuy(*v, c)
}

func askPushStep(p Policy, v *View, opts []PushOption) int {
	switch q := p.(type) {
	case Sensible:
		return q.pushStep(v, opts)
	case Stubborn:
		return q.pushStep(v, opts)
	case Frugal:
		return q.pushStep(v, opts)
	case Cautious:
		return q.pushStep(v, opts)
	case PileOn:
		return q.pushStep(v, opts)
	case PushLargest:
		return q.pushStep(v, opts)
	case TroubleSmallest:
		return q.pushStep(v, opts)
	}
	return p.PushStep(*v, opts)
}
