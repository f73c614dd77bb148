package contest

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/stakesrpg/stakes/dice"
)

// troubleTimed is the test scene with rules.timed_trouble_off, a Trouble
// Pool of d6, d10, d4, and a timed action of two steps, the first against
// the Trouble Pool, the second against 2d6, with 3 beats.
func troubleTimed(t *testing.T) (*Engine, *State) {
	t.Helper()
	e := mustEngine(t)
	s := testScene()
	s.Rules.TimedTroubleOff = true
	s.Rules.TroubleOffOnExtraordinary = 2
	s.Trouble = []dice.Die{dice.D6, dice.D10, dice.D4}
	steps := []TimedStep{{}, {Stakes: []dice.Die{dice.D6, dice.D6}}}
	must(t, e.BeginTimed(s, hero, heroPool(), 3, steps, nil))
	return e, s
}

// TestTimedTroubleOff: under rules.timed_trouble_off a step won against
// the Trouble Pool takes rules.trouble_off_on_win dice off it (on an
// Extraordinary success rules.trouble_off_on_extraordinary), each the
// actor's pick, before the action moves on; a step against other dice, a
// failed step, or the setting off, takes none.
func TestTimedTroubleOff(t *testing.T) {
	// Trouble rolls 2, 3, 2: stakes 5; the hero 6+4 = 10 (d8 6, d6 4,
	// d10 3): won by 5, Extraordinary: two dice owed.
	e, s := troubleTimed(t)
	tm := s.Timed
	must(t, e.TimedRoll(s, dice.Scripted(2, 3, 2, 6, 4, 3), nil))
	if tm.Phase != TimedTroublePhase || tm.Off != 2 || tm.Beats != 3 || tm.Step != 1 {
		t.Fatalf("phase %s, off %d, beats %d, step %d; want trouble, 2, 3, 1", tm.Phase, tm.Off, tm.Beats, tm.Step)
	}
	must(t, s.Check())
	for _, bad := range []struct {
		name string
		step func() error
		want string
	}{
		{"die out of range", func() error { return e.TakeTrouble(s, 3) }, "the pool has dice 0..2"},
		{"die below range", func() error { return e.TakeTrouble(s, -1) }, "the pool has dice 0..2"},
		{"roll on", func() error { return e.TimedRoll(s, dice.Scripted(1, 1, 1, 1, 1), nil) }, "phase trouble"},
		{"choose", func() error { return e.Choose(s, true) }, "phase trouble"},
	} {
		before, _ := json.Marshal(s)
		if err := bad.step(); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%s: %v; want %q", bad.name, err, bad.want)
		}
		if after, _ := json.Marshal(s); string(after) != string(before) {
			t.Errorf("%s: a refused step changed the state", bad.name)
		}
	}
	must(t, e.TakeTrouble(s, 1)) // the d10
	if tm.Phase != TimedTroublePhase || tm.Off != 1 || !slices.Equal(s.Trouble, []dice.Die{dice.D6, dice.D4}) {
		t.Fatalf("after one die: phase %s, off %d, trouble %v", tm.Phase, tm.Off, s.Trouble)
	}
	must(t, e.TakeTrouble(s, 1)) // the d4
	if tm.Phase != TimedGap || tm.Off != 0 || !slices.Equal(s.Trouble, []dice.Die{dice.D6}) {
		t.Fatalf("after two dice: phase %s, off %d, trouble %v; want gap, 0, [d6]", tm.Phase, tm.Off, s.Trouble)
	}
	// Step 1 against 2d6 (3+3 = 6), the hero 5+4 = 9: a win by 3 costs
	// a beat, takes nothing off, and completes the action.
	must(t, e.TimedRoll(s, dice.Scripted(3, 3, 5, 4, 2), nil))
	if tm.Phase != TimedDone || tm.Outcome != TimedCompleted || len(s.Trouble) != 1 {
		t.Errorf("phase %s, outcome %s, trouble %v", tm.Phase, tm.Outcome, s.Trouble)
	}

	for _, c := range []struct {
		name  string
		set   func(s *State)
		faces []int
		off   int
	}{
		// Stakes 2+3 = 5, the hero 5+4 = 9: won by 4, one die off.
		{"won by 4", nil, []int{2, 3, 2, 5, 4, 3}, 1},
		// Stakes 5+9 = 14 (d6 5, d10 9), the hero 6+4 = 10: failed.
		{"failed", nil, []int{5, 9, 2, 6, 4, 3}, 0},
		{"setting off", func(s *State) { s.Rules.TimedTroubleOff = false }, []int{2, 3, 2, 6, 4, 3}, 0},
		// An Extraordinary win owes 2, but the pool holds 1.
		{"pool of one", func(s *State) { s.Trouble = []dice.Die{dice.D6} }, []int{2, 6, 4, 3}, 1},
	} {
		e, s := troubleTimed(t)
		if c.set != nil {
			c.set(s)
		}
		must(t, e.TimedRoll(s, dice.Scripted(c.faces...), nil))
		want := TimedGap
		if c.off > 0 {
			want = TimedTroublePhase
		}
		if s.Timed.Off != c.off || s.Timed.Phase != want {
			t.Errorf("%s: off %d, phase %s; want %d, %s", c.name, s.Timed.Off, s.Timed.Phase, c.off, want)
		}
	}
}

// TestTimedTroubleOffInPlay: Play asks the GM about the roll's 1s first
// (a d6 joins the pool), then the actor's policy which die comes off:
// the default takes the largest (the d10), trouble_smallest the smallest
// (the d4).
func TestTimedTroubleOffInPlay(t *testing.T) {
	for _, c := range []struct {
		policy Policy
		want   []dice.Die
	}{
		{Sensible{}, []dice.Die{dice.D6, dice.D4, dice.D6}},
		{TroubleSmallest{}, []dice.Die{dice.D6, dice.D10, dice.D6}},
	} {
		e, s := troubleTimed(t)
		// Stakes 2+3 = 5; the hero 6+1+3: 6+3 = 9, won by 4, with a 1.
		must(t, e.TimedRoll(s, dice.Scripted(2, 3, 2, 6, 1, 3), nil))
		tb := &Table{Chars: []Policy{c.policy}, GM: Sensible{}}
		must(t, stepWith(e, s, dice.Scripted(), tb)) // the GM buys the 1
		if s.Timed.Phase != TimedTroublePhase || len(s.Trouble) != 4 {
			t.Fatalf("%s: phase %s, trouble %v after the 1 bought", c.policy.Name(), s.Timed.Phase, s.Trouble)
		}
		must(t, stepWith(e, s, dice.Scripted(), tb))
		if s.Timed.Phase != TimedGap || !slices.Equal(s.Trouble, c.want) {
			t.Errorf("%s: phase %s, trouble %v; want gap, %v", c.policy.Name(), s.Timed.Phase, s.Trouble, c.want)
		}
	}
}

// TestCheckRefusesTroubleOwedWrongly: Check refuses Trouble dice owed in
// another phase, owed without the setting, more than a win takes off or
// than the pool holds.
func TestCheckRefusesTroubleOwedWrongly(t *testing.T) {
	e, s := troubleTimed(t)
	must(t, e.TimedRoll(s, dice.Scripted(2, 3, 2, 6, 4, 3), nil)) // 2 owed
	for _, c := range []struct {
		name string
		edit func(s *State)
		want string
	}{
		{"owed in a gap", func(s *State) { s.Timed.Phase = TimedGap }, "timed off 2 in phase gap"},
		{"setting off", func(s *State) { s.Rules.TimedTroubleOff = false }, "needs rules.timed_trouble_off"},
		{"more than a win", func(s *State) { s.Timed.Off = 3 }, "owing 3 Trouble dice"},
		{"more than the pool", func(s *State) { s.Trouble = s.Trouble[:1] }, "owing 2 Trouble dice: needs rules.timed_trouble_off and 1..1"},
		{"none owed", func(s *State) { s.Timed.Off = 0 }, "owing 0 Trouble dice"},
	} {
		bad := s.Clone()
		c.edit(bad)
		if err := bad.Check(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v; want %q", c.name, err, c.want)
		}
		if err := e.Play(bad, dice.NewSeeded(1)); err == nil {
			t.Errorf("%s: Play played a state Check refuses", c.name)
		}
	}
	if err := e.TakeTrouble(testScene(), 0); !errors.Is(err, ErrPhase) {
		t.Errorf("no action under way: %v", err)
	}
}

// TestHelpersAgainstATroublePoolTheWinsEmptied: under
// rules.timed_trouble_off with rules.helpers_roll_trouble, a win may take
// the pool's last die; a helper then rolls against nothing (stakes 0),
// and the state passes Check, where a pool empty from the start is
// refused.
func TestHelpersAgainstATroublePoolTheWinsEmptied(t *testing.T) {
	e := mustEngine(t)
	s := testScene()
	s.Rules.TimedTroubleOff, s.Rules.HelpersRollTrouble = true, true
	s.Trouble = []dice.Die{dice.D6}
	steps := []TimedStep{{}, {Stakes: []dice.Die{dice.D6, dice.D6}}}
	must(t, e.BeginTimed(s, hero, heroPool(), 3, steps, []Helper{{Char: sidekick, Picks: []Pick{{sidekick, 0}}}}))
	// The d6 shows 4; the hero 6+5 = 11 (a 2 left out) wins by 7.
	must(t, e.TimedRoll(s, dice.Scripted(4, 6, 5, 2), nil))
	must(t, e.TakeTrouble(s, 0))
	if len(s.Trouble) != 0 || s.Timed.Phase != TimedGap || s.Timed.Beats != 3 {
		t.Fatalf("trouble %v, phase %s, beats %d; want none, gap, 3", s.Trouble, s.Timed.Phase, s.Timed.Beats)
	}
	must(t, s.Check())
	// The sidekick's d6 shows 2 against nothing (against the 4 the pool
	// last rolled it would fail): bought, nothing past the start.
	must(t, e.BuyTime(s, dice.Scripted(2), 0))
	if len(s.Timed.SDice) != 0 || s.Timed.Helpers[0].Out {
		t.Errorf("stakes rolled from %v, helper out %v; want no dice, still in", s.Timed.SDice, s.Timed.Helpers[0].Out)
	}
	s.Rules.TimedTroubleOff = false
	if err := s.Check(); err == nil || !strings.Contains(err.Error(), "helpers_roll_trouble") {
		t.Errorf("an empty pool without rules.timed_trouble_off: %v", err)
	}
}

// TestTimedActionsThatMightNeverEndAreRefused: with rules.keep 10 and 1s
// counted (exclude_ones off), ten d4s set stakes of at least 10, which
// the hero's Justice alone (a d8) never beats. Made the last step, tried
// again after each failure (failed_last_step_completes off), with a
// helper who may buy back the 2 beats a failure costs, the action might
// never end: BeginTimed, and so Validate, refuse it. A last step that
// completes when failed, one the pool can beat, or no helper, and it
// ends.
func TestTimedActionsThatMightNeverEndAreRefused(t *testing.T) {
	e := mustEngine(t)
	ten := []dice.Die{dice.D4, dice.D4, dice.D4, dice.D4, dice.D4, dice.D4, dice.D4, dice.D4, dice.D4, dice.D4}
	helpers := []Helper{{Char: sidekick, Picks: []Pick{{sidekick, 0}}}}
	for _, c := range []struct {
		name    string
		set     func(r *Rules)
		pool    []Pick
		helpers []Helper
		refused bool
	}{
		{"endless", nil, []Pick{{hero, justice}}, helpers, true},
		{"the last step completes", func(r *Rules) { r.FailedLastStepCompletes = true }, []Pick{{hero, justice}}, helpers, false},
		{"a pool that can beat it", nil, heroPool(), helpers, false},
		{"nobody buys time", nil, []Pick{{hero, justice}}, nil, false},
		{"buying less than a failure costs", func(r *Rules) { r.BuyTime, r.BuyTimeExtraordinary = 1, 1 }, []Pick{{hero, justice}}, helpers, false},
	} {
		s := testScene()
		s.Rules.Keep, s.Rules.ExcludeOnes, s.Rules.FailedLastStepCompletes = 10, false, false
		if c.set != nil {
			c.set(&s.Rules)
		}
		err := e.BeginTimed(s, hero, c.pool, 5, []TimedStep{{Stakes: []dice.Die{dice.D4}}, {Stakes: ten}}, c.helpers)
		if c.refused != (err != nil) || err != nil && !strings.Contains(err.Error(), "might never end") {
			t.Errorf("%s: %v; refused %v", c.name, err, c.refused)
		}
	}
	sc := timedScenario()
	sc.Rules.Keep, sc.Rules.ExcludeOnes, sc.Rules.FailedLastStepCompletes = 10, false, false
	sc.Timed.Pool = []string{"Justice"}
	sc.Timed.Steps = append(sc.Timed.Steps, TimedStep{Stakes: ten})
	if err := sc.Validate(); err == nil || !strings.Contains(err.Error(), "might never end") {
		t.Errorf("Validate: %v", err)
	}
}
