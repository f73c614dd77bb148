package actiontest

import (
	"fmt"

	"github.com/stakesrpg/stakes/named"
)

// Policy makes the player's choices for a character, the text's four:
// whether to accept an offered Risk Peril deal (Peril, asked before the
// roll, with Successes 0); whether to push the roll, paying harm on which
// track (Push, asked after the roll, only when a push is possible:
// View.PushTrack names a track that may take the harm); which effects to
// buy with a finished test's extra successes (Spend, asked only when some
// are left: it appends indices into Rules.Effects to buf, which the
// View's Extra, Allowed and Harm say what may be bought with); and whether
// to call the day's flashback now (Flashback, asked by a Runner when its
// scenario offers one, shown the flashback's test). A policy must be
// deterministic in its View, which it must not change: the exact odds ask
// it about every possible roll.
type Policy interface {
	Name() string
	Peril(v *View) bool
	Push(v *View) (push bool, track string)
	Spend(v *View, buf []int) []int
	Flashback(v *View) bool
}

// Spending is Policy with its extra successes spent as Order says; Policy
// makes every other choice.
type Spending struct {
	Policy
	Order SpendOrder
}

// Name returns the policy's name and the order's label: "threshold+heal_first".
func (p Spending) Name() string { return p.Policy.Name() + "+" + p.Order.Label }

// Spend buys effects in Order's preference.
func (p Spending) Spend(v *View, buf []int) []int { return p.Order.Choose(v, buf) }

// Never never pushes, never risks peril and keeps its extra successes, except that a character who can
// act only by pushing pushes.
type Never struct{}

// Name returns "never".
func (Never) Name() string { return "never" }

// Peril declines.
func (Never) Peril(*View) bool { return false }

// Push pushes only when it must.
func (Never) Push(v *View) (bool, string) { return v.MustPush, v.PushTrack }

// Spend keeps every extra success.
func (Never) Spend(_ *View, buf []int) []int { return buf }

// Flashback calls the flashback whenever it is offered.
func (Never) Flashback(*View) bool { return true }

// WhenFailed pushes every failed roll it can (on the natural harm track if
// it has room), never risks peril and keeps its extra successes.
type WhenFailed struct{}

// Name returns "always_when_failed".
func (WhenFailed) Name() string { return "always_when_failed" }

// Peril declines.
func (WhenFailed) Peril(*View) bool { return false }

// Push pushes a failed roll.
func (WhenFailed) Push(v *View) (bool, string) {
	return v.MustPush || v.Failed(), v.PushTrack
}

// Spend keeps every extra success.
func (WhenFailed) Spend(_ *View, buf []int) []int { return buf }

// Flashback calls the flashback whenever it is offered.
func (WhenFailed) Flashback(*View) bool { return true }

// Threshold pushes while the roll has fewer than Required+Extra successes
// and the character's harm costs at most MaxPenalty dice, and accepts an
// offered Risk Peril when the pool is below PerilBelow dice (0: never); it
// keeps its extra successes.
type Threshold struct {
	Extra      int
	MaxPenalty int
	PerilBelow int
}

// Name returns "threshold(extra,max_penalty,peril_below)".
func (t Threshold) Name() string {
	return fmt.Sprintf("threshold(%d,%d,%d)", t.Extra, t.MaxPenalty, t.PerilBelow)
}

// Peril accepts when the pool is short.
func (t Threshold) Peril(v *View) bool { return v.Pool < t.PerilBelow && !v.MustPush }

// Push pushes short rolls while the harm penalty is bearable.
func (t Threshold) Push(v *View) (bool, string) {
	if v.MustPush {
		return true, v.PushTrack
	}
	return v.Successes < v.Required+t.Extra && v.Penalty <= t.MaxPenalty, v.PushTrack
}

// Spend keeps every extra success.
func (Threshold) Spend(_ *View, buf []int) []int { return buf }

// Flashback calls the flashback whenever it is offered.
func (Threshold) Flashback(*View) bool { return true }

// policies are the shipped policies by scenario name.
var policies = named.Registry[Policy]{Kind: "policy", Make: map[string]func() Policy{
	"never":              func() Policy { return Never{} },
	"always_when_failed": func() Policy { return WhenFailed{} },
	// threshold: chase a bonus success (push unless one above the
	// requirement) until hurt for 2 or more dice; no peril.
	"threshold": func() Policy { return Threshold{Extra: 1, MaxPenalty: 1} },
	// cautious: push only a failure, and only while unhurt.
	"cautious": func() Policy { return Threshold{Extra: 0, MaxPenalty: 0} },
	// daring: risk peril on pools under 4 dice, push failures while the
	// harm costs at most 2 dice.
	"daring": func() Policy { return Threshold{Extra: 0, MaxPenalty: 2, PerilBelow: 4} },
}}

// PolicyByName returns a shipped policy.
func PolicyByName(name string) (Policy, error) {
	p, err := policies.ByName(name)
	if err != nil {
		return nil, fmt.Errorf("actiontest: %w", err)
	}
	return p, nil
}

// PolicyNames returns the shipped policies' names, sorted.
func PolicyNames() []string { return policies.Names() }
