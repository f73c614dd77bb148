package dramadeck

import (
	"fmt"

	"github.com/stakesrpg/stakes/sim"
)

// asking is the Chooser a Game's policies answer through, and the first
// answer of the wrong type it returned during the step (which refuses
// the step).
type asking struct {
	c   sim.Chooser
	err error
}

// chosen is a Policy whose every answer passes through a Chooser: the
// Chooser sees the view the question was asked from and the policy's
// answer, and its answer is the one the step takes.
type chosen struct {
	Policy
	ask *asking
}

// pass hands the Chooser the view and answer and returns its answer, or
// the policy's if the Chooser's is of another type (the step is then
// refused).
func pass[T any](a *asking, question string, view any, ans T) T {
	got, ok := a.c(view, ans).(T)
	if !ok {
		if a.err == nil {
			a.err = fmt.Errorf("dramadeck: the answer to %s is not a %T", question, ans)
		}
		return ans
	}
	return got
}

func (p *chosen) Critical(v *View, buf []int) []int {
	return pass(p.ask, "Critical", v, p.Policy.Critical(v, buf))
}

func (p *chosen) Declare(v *View, buf []Play, moved []int) []Play {
	return pass(p.ask, "Declare", v, p.Policy.Declare(v, buf, moved))
}

func (p *chosen) Trade(v *View) Swap { return pass(p.ask, "Trade", v, p.Policy.Trade(v)) }

func (p *chosen) Haste(v *View, next int) int {
	return pass(p.ask, "Haste", v, p.Policy.Haste(v, next))
}

func (p *chosen) Move(v *View) int { return pass(p.ask, "Move", v, p.Policy.Move(v)) }

func (p *chosen) Choose(v *View) Choice { return pass(p.ask, "Choose", v, p.Policy.Choose(v)) }

func (p *chosen) Spend(v *View, r Result) bool {
	return pass(p.ask, "Spend", v, p.Policy.Spend(v, r))
}

func (p *chosen) Cancel(v *View, actor int, a Act) bool {
	return pass(p.ask, "Cancel", v, p.Policy.Cancel(v, actor, a))
}

func (p *chosen) Strip(v *View) int { return pass(p.ask, "Strip", v, p.Policy.Strip(v)) }

func (p *chosen) Call(v *View, target int, a Act) Effect {
	return pass(p.ask, "Call", v, p.Policy.Call(v, target, a))
}

func (p *chosen) Discard(v *View, must bool) int {
	return pass(p.ask, "Discard", v, p.Policy.Discard(v, must))
}

func (p *chosen) Steps(v *TaskView) int { return pass(p.ask, "Steps", v, p.Policy.Steps(v)) }

func (p *chosen) Switch(v *TaskView) bool { return pass(p.ask, "Switch", v, p.Policy.Switch(v)) }

func (p *chosen) LastDitch(v *TaskView) bool {
	return pass(p.ask, "LastDitch", v, p.Policy.LastDitch(v))
}

func (p *chosen) SideRoll(v *TaskView) bool {
	return pass(p.ask, "SideRoll", v, p.Policy.SideRoll(v))
}
