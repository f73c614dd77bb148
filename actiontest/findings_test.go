package actiontest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stakesrpg/stakes/dice"
)

// rolledState is a character's state after Begin of a Risky Prowl test on
// faces (Prowl 2 + Dexterity 2: four dice), saved as JSON.
func rolledState(t *testing.T, faces ...int) []byte {
	t.Helper()
	c := newChar(t, DefaultRules())
	if err := eng.Begin(c, dice.Scripted(faces...), Test{Action: "Prowl", Position: Risky, Difficulty: 1}); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// restoreEdited decodes a saved state, edits it and checks it, as Restore
// does.
func restoreEdited(t *testing.T, saved []byte, edit func(*State)) error {
	t.Helper()
	var s State
	if err := json.Unmarshal(saved, &s); err != nil {
		t.Fatal(err)
	}
	edit(&s)
	return s.Check()
}

// An attempt restored with successes -2^31 once made Push re-roll about
// 2^31 dice (17 GB); the state check refuses it, and a push of such an
// attempt set by hand is refused before anything is rolled.
func TestRestoredAttemptWithAbsurdSuccessesIsRefused(t *testing.T) {
	saved := rolledState(t, 6, 1, 1, 1)
	for _, n := range []int{-1 << 31, -1, 2, 5, 1 << 31} {
		err := restoreEdited(t, saved, func(s *State) { s.Attempt.Successes = n })
		if err == nil || !strings.Contains(err.Error(), "successes") {
			t.Errorf("successes %d: %v, want a refusal naming the successes", n, err)
		}
	}
	c := newChar(t, DefaultRules())
	if err := eng.Begin(c, dice.Scripted(6, 1, 1, 1), Test{Action: "Prowl", Position: Risky, Difficulty: 1}); err != nil {
		t.Fatal(err)
	}
	c.Attempt.Successes = -1 << 31
	r := dice.Scripted(1, 1, 1, 1, 1, 1)
	if err := eng.Push(c, r, "physical"); err == nil || r.Remaining() != 6 || c.Harm[0].Rows[0] != 0 {
		t.Errorf("push of a corrupt attempt: %v, %d dice drawn, harm %v", err, 6-r.Remaining(), c.Harm)
	}
}

// An attempt restored with 2^31 extra successes once made SpendWith append
// 2^31 effect indices; the state check refuses it, and SpendWith refuses
// such an attempt set by hand without asking the policy.
func TestRestoredAttemptWithAbsurdExtraIsRefused(t *testing.T) {
	c := newChar(t, DefaultRules())
	if err := play(c, dice.Scripted(6, 6, 1, 1), Test{Action: "Prowl", Position: Risky, Difficulty: 1, NoHarm: true}, Never{}); err != nil {
		t.Fatal(err)
	}
	saved, _ := json.Marshal(c)
	for _, n := range []int{-1, 2, 1 << 31} {
		err := restoreEdited(t, saved, func(s *State) { s.Attempt.Extra = n })
		if err == nil || !strings.Contains(err.Error(), "extra") {
			t.Errorf("extra %d: %v, want a refusal naming the extra successes", n, err)
		}
	}
	c.Attempt.Extra = 1 << 31
	before := c.Clone()
	if err := spendWith(c, countingSpender{t: t}); err == nil {
		t.Error("SpendWith accepted 2^31 extra successes")
	}
	if d := cmp.Diff(before, c, cmpState); d != "" {
		t.Errorf("refused SpendWith changed the state:\n%s", d)
	}
}

// countingSpender fails the test if it is ever asked to spend.
type countingSpender struct {
	Never
	t *testing.T
}

func (countingSpender) Name() string { return "counting" }
func (s countingSpender) Spend(*View, []int) []int {
	s.t.Error("the policy was asked to spend on a corrupt attempt")
	return nil
}

// Attempt JSON once decoded unchecked; a restored state's attempt must now
// agree with itself and the rules in every field the steps read.
func TestRestoredAttemptIsCheckedWhole(t *testing.T) {
	saved := rolledState(t, 6, 1, 1, 1)
	for name, edit := range map[string]func(*State){
		"face 7":                     func(s *State) { s.Attempt.Dice[1] = 7 },
		"face 0":                     func(s *State) { s.Attempt.Dice[1] = 0 },
		"fewer dice than pool":       func(s *State) { s.Attempt.Dice = s.Attempt.Dice[:2] },
		"pool too large":             func(s *State) { s.Attempt.Pool.Dice = 1 << 31 },
		"unknown action":             func(s *State) { s.Attempt.Test.Action = "Juggle" },
		"unknown position":           func(s *State) { s.Attempt.Test.Position = "comfy" },
		"position unresolved":        func(s *State) { s.Attempt.Test.Position = "" },
		"stage 7":                    func(s *State) { s.Attempt.Stage = 7 },
		"push without re-roll":       func(s *State) { s.Attempt.Pushed, s.Attempt.PushTrack = true, "physical" },
		"push record unpushed":       func(s *State) { s.Attempt.Kept = 1 },
		"rolled with a result":       func(s *State) { s.Attempt.Required = 1 },
		"flashback in the test slot": func(s *State) { s.Attempt.Test.Flashback = true },
		"two rolls in flight": func(s *State) {
			s.Flashback = s.Attempt
			s.Flashback.Test.Flashback = true
		},
		"critical 2^31": func(s *State) { s.Harm[0].Critical = 1 << 31 },
	} {
		if err := restoreEdited(t, saved, edit); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if err := restoreEdited(t, saved, func(*State) {}); err != nil {
		t.Errorf("the unedited state: %v", err)
	}
	if err := json.Unmarshal([]byte(`{"attempt":{"stage":"halfway"}}`), new(State)); err == nil {
		t.Error("an unknown stage decoded")
	}
}

// "Level of Difficulty 3 (or more)": a flashback of difficulty 4 is an
// elaborate action like one of 3, no longer refused.
func TestFlashbackOfDifficultyFourIsAllowed(t *testing.T) {
	c := newChar(t, DefaultRules())
	// Persuade 1 + Presence 3: four dice, four sixes.
	fb := Test{Action: "Persuade", Position: Risky, Difficulty: 4, Flashback: true}
	if err := play(c, dice.Scripted(6, 6, 6, 6), fb, Never{}); err != nil {
		t.Fatal(err)
	}
	at := &c.Flashback
	if !at.Outcome.Succeeded || at.Required != 4 || c.Bonus != 1 || c.FlashbacksUsed != 1 {
		t.Errorf("difficulty 4 flashback: succeeded %v, required %d, bonus %d, used %d", at.Outcome.Succeeded, at.Required, c.Bonus, c.FlashbacksUsed)
	}
}

// Begin over a rolled, unfinished test once discarded the roll (a free
// re-roll); it is refused, and the roll stays to be finished.
func TestBeginOverARolledTestIsRefused(t *testing.T) {
	c := newChar(t, DefaultRules())
	tst := Test{Action: "Prowl", Position: Risky, Difficulty: 1}
	if err := eng.Begin(c, dice.Scripted(1, 1, 1, 1), tst); err != nil {
		t.Fatal(err)
	}
	r := dice.Scripted(6, 6, 6, 6)
	if err := eng.Begin(c, r, tst); !errors.Is(err, ErrInFlight) || r.Remaining() != 4 {
		t.Fatalf("second Begin: %v, %d dice drawn", err, 4-r.Remaining())
	}
	if err := play(c, r, tst, Never{}); !errors.Is(err, ErrInFlight) {
		t.Errorf("Play over a roll in flight: %v", err)
	}
	if err := eng.Finish(c); err != nil || c.Attempt.Outcome.Kind != Badly {
		t.Errorf("the first roll finishes as rolled: %v, %v", err, c.Attempt.Outcome.Kind)
	}
}

// "This can only be done once per action": the retry after a Worse
// Position consequence is the same action, so a push before it forbids
// another; Rules.RetryMayPush restores the old reading.
func TestPushIsOncePerActionAcrossARetry(t *testing.T) {
	for _, may := range []bool{false, true} {
		rl := DefaultRules()
		rl.RetryMayPush = may
		c := newChar(t, rl)
		tst := Test{Action: "Prowl", Position: Risky, Difficulty: 1, Escalate: true}
		r := dice.Scripted(1, 1, 1, 1 /* push: */, 1, 1, 1, 1, 1, 1 /* retry: */, 1, 1, 1)
		if err := eng.Begin(c, r, tst); err != nil {
			t.Fatal(err)
		}
		if err := eng.Push(c, r, "physical"); err != nil {
			t.Fatal(err)
		}
		if err := eng.Finish(c); err != nil || !c.Attempt.Retry {
			t.Fatalf("escalated failure: %v, retry %v", err, c.Attempt.Retry)
		}
		if err := eng.Retry(c, r, tst.At(c.Attempt.NextPosition)); err != nil {
			t.Fatal(err)
		}
		// The legal-choice query agrees with the step.
		if got := eng.PushTrack(c); (got != "") != may {
			t.Errorf("retry_may_push %v: PushTrack %q", may, got)
		}
		err := eng.Push(c, dice.Scripted(1, 1, 1, 1, 1), "physical")
		if may != (err == nil) || (!may && !errors.Is(err, ErrPushTwice)) {
			t.Errorf("retry_may_push %v: push of the retry: %v", may, err)
		}
	}
}

// Escalate once needed a failed cell, and a Controlled failure is "success
// with a consequence": escalation now keys on the failed roll, so a
// Controlled failure moves the test to Risky.
func TestEscalateMovesControlledToRisky(t *testing.T) {
	c := newChar(t, DefaultRules())
	tst := Test{Action: "Prowl", Position: Controlled, Difficulty: 1, Escalate: true}
	if err := eng.Begin(c, dice.Scripted(1, 1, 1, 1), tst); err != nil {
		t.Fatal(err)
	}
	if err := eng.Finish(c); err != nil {
		t.Fatal(err)
	}
	at := &c.Attempt
	if !at.Retry || at.NextPosition != Risky || at.HarmTaken || c.Harm[0].Rows[0] != 0 {
		t.Errorf("controlled failure with escalation: retry %v next %q harm %v", at.Retry, at.NextPosition, c.Harm)
	}
}

// "Suffer Harm (Moderate or greater)": a Risk Peril deal priced in harm
// costs at least Rules.MinPerilHarm.
func TestPerilHarmBelowModerateIsRefused(t *testing.T) {
	c := newChar(t, DefaultRules())
	tst := Test{Action: "Prowl", Position: Risky, Difficulty: 1, Peril: true, PerilHarm: 1}
	if err := eng.Begin(c, dice.Scripted(1, 1, 1, 1, 1, 1, 1), tst); err == nil {
		t.Error("a lesser harm as the peril's price accepted")
	}
	tst.PerilHarm = 2
	if err := eng.Begin(c, dice.Scripted(1, 1, 1, 1, 1, 1, 1), tst); err != nil || c.Harm[0].Rows[1] != 1 {
		t.Errorf("a moderate harm as the price: %v, harm %v", err, c.Harm)
	}
	s := DefaultScenario()
	s.PerilHarm = 1
	if err := s.Validate(); err == nil || !strings.Contains(err.Error(), "peril_harm") {
		t.Errorf("scenario with peril_harm 1: %v", err)
	}
}

// A state saves as one value — rules, sheet, Director, harm, the test in
// flight — and the Director no longer reverts to the table's on restore.
func TestSavedStateKeepsItsDirector(t *testing.T) {
	c := newChar(t, DefaultRules())
	c.Director = "harsh"
	if err := c.Check(); err != nil {
		t.Fatal(err)
	}
	if err := eng.Begin(c, dice.Scripted(6, 2, 3, 4), Test{Action: "Prowl", Position: Desperate, Difficulty: 1}); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	c2, err := restoreState(b)
	if err != nil {
		t.Fatal(err)
	}
	if c2.Director != "harsh" {
		t.Errorf("restored director %q", c2.Director)
	}
	// A Desperate success: harsh adds a moderate harm to the complication.
	if err := eng.Finish(c2); err != nil || c2.Harm[0].Rows[1] != 1 {
		t.Errorf("restored finish: %v, harm %v", err, c2.Harm)
	}
	c2.Director = "lenient"
	b, _ = json.Marshal(c2)
	if _, err := restoreState(b); err == nil || !strings.Contains(err.Error(), `"lenient"`) {
		t.Errorf("an unknown director restored: %v", err)
	}
}

// Each ruling is a setting, and changing it changes what happens.
func TestRulingsAreSettings(t *testing.T) {
	tst := Test{Action: "Prowl", Position: Risky, Difficulty: 2, NoHarm: true}
	for _, tc := range []struct {
		name  string
		set   func(*Rules)
		faces []int
		check func(c *State) string
	}{
		{"zero_flashback_rolls", func(rl *Rules) { rl.ZeroFlashbackRolls = true }, []int{6, 6, 1, 1},
			func(c *State) string {
				if err := play(c, dice.Scripted(6, 6, 1, 1), Test{Action: "Prowl", Position: Risky, Flashback: true}, Never{}); err != nil {
					return err.Error()
				}
				if len(c.Flashback.Dice) != 4 || c.Flashback.Extra != 2 {
					return "a difficulty-0 flashback did not roll"
				}
				return ""
			}},
		{"push_harm_shrinks", func(rl *Rules) { rl.PushHarmShrinks = true }, nil,
			func(c *State) string {
				r := dice.Scripted(1, 1, 1, 1, 1, 1, 1, 1, 1, 1)
				_ = eng.Begin(c, r, tst)
				_ = eng.Push(c, r, "physical")
				if n := len(c.Attempt.Rerolled); n != 5 { // 4 misses + 2 - 1 for the new lesser harm
					return fmt.Sprintf("re-rolled %d dice, want 5", n)
				}
				return ""
			}},
		{"multiple_over", func(rl *Rules) { rl.MultipleOver = 2 }, nil,
			func(c *State) string {
				_ = play(c, dice.Scripted(6, 6, 6, 1), tst, Never{})
				if at := &c.Attempt; at.Band != BandSuccess || at.Extra != 1 {
					return "three sixes of two required: band " + at.Band.String()
				}
				return ""
			}},
		{"retry_may_push", func(rl *Rules) { rl.RetryMayPush = true }, nil,
			func(c *State) string {
				r := dice.Scripted(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1)
				esc := Test{Action: "Prowl", Position: Risky, Difficulty: 1, Escalate: true}
				if err := play(c, r, esc, WhenFailed{}); err != nil {
					return err.Error()
				}
				if !c.Attempt.Pushed || c.Attempt.Test.Position != Desperate {
					return "the Desperate retry was not pushed"
				}
				return ""
			}},
	} {
		rl := DefaultRules()
		tc.set(&rl)
		if msg := tc.check(newChar(t, rl)); msg != "" {
			t.Errorf("%s set: %s", tc.name, msg)
		}
		if msg := tc.check(newChar(t, DefaultRules())); msg == "" {
			t.Errorf("%s: the default plays the same as the setting", tc.name)
		}
	}
	// The rooftop chase: once per action moves the exact answer; the old
	// reading gives the old one.
	s := DefaultScenario()
	ex, _ := s.Exact(context.Background())
	s.Rules.RetryMayPush = true
	old, _ := s.Exact(context.Background())
	if math.Abs(old.P[catHurt]-0.47250521925584965) > 1e-12 || math.Abs(ex.P[catHurt]-old.P[catHurt]) < 1e-4 {
		t.Errorf("hurt: once per action %v, retry_may_push %v", ex.P[catHurt], old.P[catHurt])
	}
}

// "If you attempt something that is not covered by a specific Action ...
// you simply roll the number of dice indicated by the relevant Attribute":
// a test may name an Attribute, which rolls alone and risks its own track.
func TestAttributeOnlyRoll(t *testing.T) {
	c := newChar(t, DefaultRules()) // Presence 3
	tst := Test{Action: "Presence", Position: Risky, Difficulty: 1}
	if err := play(c, dice.Scripted(1, 1, 1), tst, Never{}); err != nil {
		t.Fatal(err)
	}
	at := &c.Attempt
	if d := cmp.Diff(Pool{Attribute: 3, Dice: 3}, at.Pool); d != "" {
		t.Errorf("pool (-want +got):\n%s", d)
	}
	// Risky failure: moderate harm on Presence's mental track.
	if c.Harm[1].Rows[1] != 1 || c.Harm[0].Rows[1] != 0 {
		t.Errorf("harm %v, want a moderate mental harm", c.Harm)
	}
	if act, attr, name, err := c.Rating("Presence"); err != nil || act != 0 || attr != 3 || name != "Presence" {
		t.Errorf("Rating(Presence) = %d %d %q %v", act, attr, name, err)
	}
	if err := eng.Begin(c, dice.Scripted(6), Test{Action: "Luck", Position: Risky, Difficulty: 1}); err == nil {
		t.Error("a name that is neither an Action nor an Attribute accepted")
	}
}

// "Opposed Rolls": each side rolls (and may push), the most successes
// prevail, a tie means neither succeeds nor fails, and against an NPC a
// tie gets what you want, but something goes wrong.
func TestOpposedRollIsAStep(t *testing.T) {
	opp := Test{Action: "Prowl", Position: Risky, Opposed: true}
	for _, tc := range []struct {
		faces    []int
		opponent int
		npc      bool
		want     Outcome
		extra    int
	}{
		{[]int{6, 6, 1, 1}, 1, false, Outcome{Kind: Success, Succeeded: true}, 0},
		{[]int{6, 6, 6, 1}, 1, true, Outcome{Kind: Success, Succeeded: true}, 1},
		{[]int{6, 1, 1, 1}, 1, false, Outcome{Kind: Neither}, 0},
		{[]int{6, 1, 1, 1}, 1, true, Outcome{Kind: SuccessConsequence, Succeeded: true, Consequences: []Consequence{{Kind: Complication}}}, 0},
		{[]int{1, 1, 1, 1}, 1, true, Outcome{Kind: Badly, Consequences: []Consequence{{Kind: LostOpportunity}}}, 0},
	} {
		c := newChar(t, DefaultRules())
		if err := eng.Begin(c, dice.Scripted(tc.faces...), opp); err != nil {
			t.Fatal(err)
		}
		if err := eng.Finish(c); !errors.Is(err, ErrStage) {
			t.Errorf("Finish of an opposed roll: %v", err)
		}
		if err := eng.FinishOpposed(c, tc.opponent, tc.npc); err != nil {
			t.Fatal(err)
		}
		at := &c.Attempt
		if d := cmp.Diff(tc.want, at.Outcome); d != "" || at.Extra != tc.extra || at.Retry {
			t.Errorf("%v against %d (npc %v): extra %d, outcome (-want +got):\n%s", tc.faces, tc.opponent, tc.npc, at.Extra, d)
		}
		if err := c.Clone().Check(); err != nil {
			t.Errorf("a finished opposed roll does not restore: %v", err)
		}
	}
	c := newChar(t, DefaultRules())
	if err := eng.Begin(c, dice.Scripted(6), Test{Action: "Prowl", Opposed: true, Difficulty: 1}); err == nil {
		t.Error("an opposed roll with a difficulty accepted")
	}
	if err := play(c, dice.Scripted(6, 6, 6, 6), opp, Never{}); !errors.Is(err, ErrStage) {
		t.Errorf("Play of an opposed roll: %v", err)
	}
	if err := eng.FinishOpposed(c, 1, false); !errors.Is(err, ErrStage) {
		t.Errorf("FinishOpposed with no roll: %v", err)
	}
	// A pushed opposed roll: the failure is pushed, then compared.
	r := dice.Scripted(1, 1, 1, 1, 6, 6, 1, 1, 1, 1)
	if err := eng.Begin(c, r, opp); err != nil {
		t.Fatal(err)
	}
	if err := eng.Push(c, r, "physical"); err != nil {
		t.Fatal(err)
	}
	if err := eng.FinishOpposed(c, -1, false); err == nil {
		t.Error("negative opponent successes accepted")
	}
	if err := eng.FinishOpposed(c, 1, false); err != nil || !c.Attempt.Outcome.Succeeded {
		t.Errorf("pushed opposed roll: %v, %+v", err, c.Attempt.Outcome)
	}
}

// "Usually, Risky is the default": a test that names no position is
// Risky, as Rules.DefaultPosition says, and the attempt records it so.
func TestZeroPositionIsTheDefault(t *testing.T) {
	for _, tc := range []struct {
		def  Position
		kind Kind
	}{{Risky, Badly}, {Controlled, SuccessConsequence}} {
		rl := DefaultRules()
		rl.DefaultPosition = tc.def
		c := newChar(t, rl)
		if err := play(c, dice.Scripted(1, 1, 1, 1), Test{Action: "Prowl", Difficulty: 1}, Never{}); err != nil {
			t.Fatal(err)
		}
		if at := &c.Attempt; at.Test.Position != tc.def || at.Outcome.Kind != tc.kind {
			t.Errorf("default %q: recorded position %q, outcome %v", tc.def, at.Test.Position, at.Outcome.Kind)
		}
	}
	rl := DefaultRules()
	for _, def := range []Position{"comfy", ""} {
		rl.DefaultPosition = def
		if err := rl.Validate(); err == nil {
			t.Errorf("default position %q accepted", def)
		}
	}
}

// The legal-choice queries answer as the steps do.
func TestLegalChoiceQueriesAgreeWithTheSteps(t *testing.T) {
	c := newChar(t, DefaultRules())
	tst := Test{Action: "Prowl", Position: Risky, Difficulty: 1, Escalate: true}
	for _, bad := range []Test{{Action: "Juggle", Difficulty: 1}, {Action: "Prowl", Difficulty: 0}, {Action: "Prowl", Difficulty: 1, Flashback: true, Helpers: -1}} {
		if eng.CanBegin(c, bad) == nil || eng.Begin(c, dice.Scripted(1, 1, 1, 1), bad) == nil {
			t.Errorf("%+v: CanBegin or Begin accepted it", bad)
		}
	}
	if err := eng.CanBegin(c, tst); err != nil {
		t.Fatal(err)
	}
	if err := eng.CanRetry(c, tst.At(Desperate)); !errors.Is(err, ErrStage) {
		t.Errorf("CanRetry before any roll: %v", err)
	}
	if err := eng.Begin(c, dice.Scripted(1, 1, 1, 1), tst); err != nil {
		t.Fatal(err)
	}
	if err := eng.CanBegin(c, tst); !errors.Is(err, ErrInFlight) {
		t.Errorf("CanBegin with a roll in flight: %v", err)
	}
	if eng.PushTrack(c) != "physical" || eng.CanPush(c, "physical") != nil || eng.CanPush(c, "astral") == nil {
		t.Errorf("push queries: track %q, physical %v, astral %v", eng.PushTrack(c), eng.CanPush(c, "physical"), eng.CanPush(c, "astral"))
	}
	if err := eng.Finish(c); err != nil {
		t.Fatal(err)
	}
	if eng.PushTrack(c) != "" || !errors.Is(eng.CanPush(c, "physical"), ErrStage) {
		t.Errorf("push queries after Finish: %q %v", eng.PushTrack(c), eng.CanPush(c, "physical"))
	}
	if err := eng.CanRetry(c, tst.At(Desperate)); err != nil {
		t.Errorf("CanRetry after an escalated failure: %v", err)
	}
	if err := eng.CanRetry(c, tst); !errors.Is(err, ErrStage) {
		t.Errorf("CanRetry at the same position: %v", err)
	}
}

// An Engine copied by value plays a state cloned from another apart from
// the original, from another goroutine (run with -race).
func TestEngineCopiesPlayClonedStatesApart(t *testing.T) {
	c := newChar(t, DefaultRules())
	d := c.Clone()
	tst := Test{Action: "Prowl", Position: Risky, Difficulty: 2}
	done := make(chan error)
	play := func(eng Engine, x *State, seed uint64) {
		r := dice.NewSeeded(seed)
		for range 200 {
			if err := play(x, r, tst, WhenFailed{}); err != nil && !errors.Is(err, ErrIncapacitated) {
				done <- err
				return
			}
			if x.Attempt.Extra > 0 {
				_ = spendWith(x, Spending{Never{}, SpendOrder{Label: "bonus", Order: []string{"bonus_die"}}})
			}
			restart(t, x)
		}
		done <- nil
	}
	go play(eng, c, 1)
	go play(Engine{}, d, 2)
	for range 2 {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}

// The steps allocate nothing once a character's buffers have grown.
func TestStepsDoNotAllocate(t *testing.T) {
	c := newChar(t, DefaultRules())
	r := dice.NewSeeded(3)
	tst := Test{Action: "Prowl", Position: Risky, Difficulty: 1, NoHarm: true, Escalate: true}
	run := func() {
		_ = eng.Begin(c, r, tst)
		_ = eng.Push(c, r, "physical")
		_ = eng.Finish(c)
		if c.Attempt.Retry {
			_ = eng.Retry(c, r, c.Attempt.Test.At(c.Attempt.NextPosition))
			_ = eng.Finish(c)
		}
		heal := func() {
			for c.Harm[0].Rows[0] > 0 {
				if err := eng.Heal(c, "physical", 1); err != nil {
					t.Fatal(err)
				}
			}
		}
		heal()
		if err := play(c, r, tst, Threshold{Extra: 1, MaxPenalty: 9}); err != nil {
			t.Fatal(err)
		}
		heal()
	}
	run()
	if n := testing.AllocsPerRun(200, run); n != 0 {
		t.Errorf("%v allocations a round", n)
	}
}

// A saved pursuit is checked whole: the scenario, the state and where the
// pursuit stands must agree, so every restored game can play to its end.
func TestRestoredPursuitIsCheckedWhole(t *testing.T) {
	game, err := DefaultScenario().newGame()
	if err != nil {
		t.Fatal(err)
	}
	r := dice.NewSeeded(7)
	// Play until a retry is pending, so every field has something to say.
	for !game.rn.Pursuit.Retry && !game.Done() {
		if err := game.Step(r); err != nil {
			t.Fatal(err)
		}
		if game.Done() {
			game.rn.reset()
		}
	}
	saved, err := game.Save()
	if err != nil {
		t.Fatal(err)
	}
	check := func(g *savedGame) error {
		b, err := json.Marshal(g)
		if err != nil {
			return err
		}
		_, err = DefaultScenario().Restore(b)
		return err
	}
	for name, edit := range map[string]func(*savedGame){
		"progress past the goal":   func(g *savedGame) { g.Pursuit.Progress = 1 << 31 },
		"no position":              func(g *savedGame) { g.Pursuit.Position = "" },
		"unknown position":         func(g *savedGame) { g.Pursuit.Position = "comfy" },
		"tests past max_tests":     func(g *savedGame) { g.Pursuit.Metrics[metTests] = 1 << 31 },
		"retry without a roll":     func(g *savedGame) { g.State.Attempt.Retry = false; g.State.Attempt.NextPosition = "" },
		"flashback due, none left": func(g *savedGame) { g.Pursuit.FlashbackDue, g.State.FlashbacksUsed = true, 1 },
		"ended with a retry":       func(g *savedGame) { g.Pursuit.Ended = true },
		"scenario goal 0":          func(g *savedGame) { g.Scenario.Goal = 0 },
		"category 9":               func(g *savedGame) { g.Pursuit.Category = 9 },
		"state's own rules":        func(g *savedGame) { g.State.Rules.PushDice = 3 },
		"state's own sheet":        func(g *savedGame) { g.State.Sheet.Actions = map[string]int{"Prowl": 5} },
		"state's own director":     func(g *savedGame) { g.State.Director = "harsh" },
	} {
		var g savedGame
		if err := json.Unmarshal(saved, &g); err != nil {
			t.Fatal(err)
		}
		edit(&g)
		if err := check(&g); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	var g savedGame
	if err := json.Unmarshal(saved, &g); err != nil {
		t.Fatal(err)
	}
	if err := check(&g); err != nil {
		t.Errorf("the saved pursuit itself: %v", err)
	}
}

// A scenario's starting state plays by the scenario's rules, character and
// Director: one that brings its own is refused rather than silently
// overridden, and its play (harm here) is what the pursuit starts from.
func TestScenarioStartingStateWithItsOwnRulesIsRefused(t *testing.T) {
	st, err := NewState(DefaultRules(), testSheet)
	if err != nil {
		t.Fatal(err)
	}
	s := DefaultScenario()
	s.State = st
	if err := s.Validate(); err == nil || !strings.Contains(err.Error(), "leave its rules, sheet and director empty") {
		t.Errorf("a starting state with its own rules: %v", err)
	}
	s.State = &State{Harm: harmOf([3]int{1, 0, 0}, [3]int{})}
	rn, err := s.NewRunner()
	if err != nil {
		t.Fatal(err)
	}
	if got := rn.c.State.Harm[0].Rows[0]; got != 1 || rn.c.State.Penalty() != 1 || rn.c.State.Director != "table" {
		t.Errorf("starting harm %d, penalty %d, director %q; want 1, 1, table", got, rn.c.State.Penalty(), rn.c.State.Director)
	}
}

// Play ends an action by asking the policy to spend its extra successes,
// the third of the player's choices.
func TestPlaySpendsWithThePolicy(t *testing.T) {
	c := newChar(t, DefaultRules())
	c.Harm[0].Rows[0] = 1
	p := Spending{Policy: Never{}, Order: SpendOrder{Label: "heal", Order: []string{"heal_harm"}}}
	// 4 - 1 = 3 dice, three sixes against 1: two extra, one heal bought.
	if err := play(c, dice.Scripted(6, 6, 6), Test{Action: "Prowl", Position: Risky, Difficulty: 1}, p); err != nil {
		t.Fatal(err)
	}
	if at := c.Attempt; at.Spent != 1 || len(at.Bought) != 1 || c.Harm[0].Rows[0] != 0 || p.Name() != "never+heal" {
		t.Errorf("spent %d, bought %v, harm %v (policy %s); want one heal", at.Spent, at.Bought, c.Harm[0].Rows, p.Name())
	}
}

// The exact answers of the old engine, taken from it for the rooftop chase
// under each shipped policy: with the old reading of "once per action"
// (Rules.RetryMayPush) the one engine gives them to 1e-12.
func TestExactMatchesTheOldEngineUnderItsReading(t *testing.T) {
	old := map[string]struct {
		p    []float64
		mean float64
	}{
		"threshold":          {[]float64{0.01807913237311386, 0.47250521925584965, 0.50941564837103748, 0, 0}, 3.1657086065372853},
		"never":              {[]float64{0.32605468880556582, 0.11487362693737799, 0.55907168425705711, 0, 0}, 3.7674438444480955},
		"always_when_failed": {[]float64{0.12589255970401764, 0.65337357426561049, 0.12379125808053189, 0.096942607949841136, 0}, 3.6862492788929404},
		"daring":             {[]float64{0.12589255970401764, 0.53665089447827474, 0.16724792280464579, 0.17020862301306297, 0}, 3.6540609042199725},
		"cautious":           {[]float64{0.12589255970401764, 0.40387389013550912, 0.4702335501604743, 0, 0}, 3.6449098383134588},
	}
	for pol, want := range old {
		s := DefaultScenario()
		s.Policy, s.Rules.RetryMayPush = pol, true
		ex, err := s.Exact(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for i := range want.p {
			if math.Abs(ex.P[i]-want.p[i]) > 1e-12 {
				t.Errorf("%s: P[%s] = %v, the old engine's %v", pol, s.Categories()[i], ex.P[i], want.p[i])
			}
		}
		if math.Abs(ex.MeanRounds-want.mean) > 1e-12 {
			t.Errorf("%s: mean tests %v, the old engine's %v", pol, ex.MeanRounds, want.mean)
		}
	}
}
