package contest

import (
	"github.com/stakesrpg/stakes/dice"
)

// asking is a Policy that answers as p does and logs, in *log, each
// question it is asked before it answers: a Chooser standing behind it
// (chosen asks the policy first) reads there which question its answer
// is to.
type asking struct {
	p   Policy
	log *[]string
}

func (a asking) ask(q string) Policy { *a.log = append(*a.log, q); return a.p }

func (a asking) Name() string           { return a.p.Name() }
func (a asking) GiveIn(v *View) bool    { return a.ask("GiveIn").GiveIn(v) }
func (a asking) Pay(v *View) Payment    { return a.ask("Pay").Pay(v) }
func (a asking) Extras(v *View) int     { return a.ask("Extras").Extras(v) }
func (a asking) Push(v *View) bool      { return a.ask("Push").Push(v) }
func (a asking) BuyOnes(v *View) int    { return a.ask("BuyOnes").BuyOnes(v) }
func (a asking) Waive(v *View) bool     { return a.ask("Waive").Waive(v) }
func (a asking) Continue(v *View) bool  { return a.ask("Continue").Continue(v) }
func (a asking) Interfere(v *View) bool { return a.ask("Interfere").Interfere(v) }
func (a asking) BuyTime(v *View) bool   { return a.ask("BuyTime").BuyTime(v) }
func (a asking) Objective(v *View) bool { return a.ask("Objective").Objective(v) }
func (a asking) Cash(v *View) int       { return a.ask("Cash").Cash(v) }
func (a asking) Onto(v *View, c *Character) int {
	return a.ask("Onto").Onto(v, c)
}
func (a asking) UseEffect(v *View, t *Trait) bool {
	return a.ask("UseEffect").UseEffect(v, t)
}
func (a asking) PushStep(v *View, opts []PushOption) int {
	return a.ask("PushStep").PushStep(v, opts)
}
func (a asking) TroubleOff(v *View, trouble []dice.Die) int {
	return a.ask("TroubleOff").TroubleOff(v, trouble)
}
func (a asking) Rebuy(v *View, c *Character) (int, int) {
	return a.ask("Rebuy").Rebuy(v, c)
}

// logging is tb with each policy logging its questions in *log.
func logging(tb Table, n int, log *[]string) Table {
	out := Table{Chars: make([]Policy, n), GM: asking{tb.gm(), log}}
	for i := range out.Chars {
		out.Chars[i] = asking{tb.of(i), log}
	}
	return out
}
