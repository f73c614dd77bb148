package actiontest

import (
	"fmt"
	"sort"
)

// Policy makes a character's choices in a test: whether to accept an offered
// Risk Peril deal (asked before the roll, with Successes 0) and whether to
// push the roll, paying harm on which track (asked after the roll). A
// policy must be deterministic in its View: the exact odds ask it about
// every possible roll.
type Policy interface {
	Name() string
	Peril(v View) bool
	Push(v View) (push bool, track int)
}

// Never never pushes and never risks peril, except that a character who can
// act only by pushing pushes.
type Never struct{}

// Name returns "never".
func (Never) Name() string { return "never" }

// Peril declines.
func (Never) Peril(View) bool { return false }

// Push pushes only when it must.
func (Never) Push(v View) (bool, int) { return v.MustPush && v.PushTrack >= 0, v.PushTrack }

// WhenFailed pushes every failed roll it can (on the natural harm track if
// it has room) and never risks peril.
type WhenFailed struct{}

// Name returns "always_when_failed".
func (WhenFailed) Name() string { return "always_when_failed" }

// Peril declines.
func (WhenFailed) Peril(View) bool { return false }

// Push pushes a failed roll when there is room for the harm.
func (WhenFailed) Push(v View) (bool, int) {
	return (v.MustPush || v.Failed()) && v.PushTrack >= 0, v.PushTrack
}

// Threshold pushes while the roll has fewer than Required+Extra successes
// and the character's harm costs at most MaxPenalty dice, and accepts an
// offered Risk Peril when the pool is below PerilBelow dice (0: never).
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
func (t Threshold) Peril(v View) bool { return v.Pool < t.PerilBelow && !v.MustPush }

// Push pushes short rolls while the harm penalty is bearable.
func (t Threshold) Push(v View) (bool, int) {
	if v.PushTrack < 0 {
		return false, -1
	}
	if v.MustPush {
		return true, v.PushTrack
	}
	return v.Successes < v.Required+t.Extra && v.Penalty <= t.MaxPenalty, v.PushTrack
}

// registry maps scenario names to policies.
var registry = map[string]Policy{
	"never":              Never{},
	"always_when_failed": WhenFailed{},
	// threshold: chase a bonus success (push unless one above the
	// requirement) until hurt for 2 or more dice; no peril.
	"threshold": Threshold{Extra: 1, MaxPenalty: 1},
	// cautious: push only a failure, and only while unhurt.
	"cautious": Threshold{Extra: 0, MaxPenalty: 0},
	// daring: risk peril on pools under 4 dice, push failures while the
	// harm costs at most 2 dice.
	"daring": Threshold{Extra: 0, MaxPenalty: 2, PerilBelow: 4},
}

// PolicyByName returns a registered policy.
func PolicyByName(name string) (Policy, error) {
	p, ok := registry[name]
	if !ok {
		return nil, fmt.Errorf("actiontest: unknown policy %q (allowed: %v)", name, Policies())
	}
	return p, nil
}

// Policies returns the registered policy names, sorted.
func Policies() []string {
	out := make([]string, 0, len(registry))
	for n := range registry {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
