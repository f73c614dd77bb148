package actiontest

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stakesrpg/stakes/dice"
)

func TestLookups(t *testing.T) {
	c := newChar(t, DefaultRules())
	act, attr, name, err := c.Rating("Persuade")
	if err != nil || act != 1 || attr != 3 || name != "Presence" {
		t.Errorf("Rating(Persuade) = %d %d %q %v", act, attr, name, err)
	}
	if _, _, _, err := c.Rating("Juggle"); err == nil {
		t.Error("unknown action rated")
	}
	if tr, err := c.NaturalTrack("Persuade"); err != nil || tr != 1 {
		t.Errorf("Persuade risks track %d (%v), want 1 (mental)", tr, err)
	}
	if tr, err := c.NaturalTrack("Force"); err != nil || tr != 0 {
		t.Errorf("Force risks track %d (%v), want 0 (physical)", tr, err)
	}
	if _, err := c.NaturalTrack("Juggle"); err == nil {
		t.Error("unknown action has a track")
	}
	if c.Rules().PerilDice != 3 {
		t.Error("Rules() is not the character's rules")
	}
	if _, err := c.Rules().PositionIndex("comfy"); err == nil {
		t.Error("unknown position found")
	}
	if p, err := c.Rules().PositionIndex("desperate"); err != nil || p != Desperate {
		t.Errorf("desperate = %d %v", p, err)
	}
}

func TestHealAndSpace(t *testing.T) {
	c := newChar(t, DefaultRules())
	c.State.Harm[1] = []int{2, 2, 1}
	c.HarmChanged()
	if c.HasSpace(1) || !c.HasSpace(0) || c.HasSpace(2) {
		t.Errorf("space: mental %v physical %v track 2 %v", c.HasSpace(1), c.HasSpace(0), c.HasSpace(2))
	}
	if err := c.Heal(1, 2); err != nil || !c.HasSpace(1) || c.Incapacitated() {
		t.Errorf("heal severe: %v, space %v, incapacitated %v", err, c.HasSpace(1), c.Incapacitated())
	}
	for _, bad := range [][2]int{{1, 2}, {2, 0}, {0, 3}, {-1, 0}} {
		before := c.State.Clone()
		if err := c.Heal(bad[0], bad[1]); err == nil {
			t.Errorf("Heal(%d, %d) accepted", bad[0], bad[1])
		}
		if d := cmp.Diff(before, c.State); d != "" {
			t.Errorf("rejected heal changed state:\n%s", d)
		}
	}
}

// Table harm lands on the named track, peril and flashbacks are narrated.
func TestEventsAllKinds(t *testing.T) {
	c := newChar(t, DefaultRules())
	c.State.Harm[1] = []int{2, 2, 1}
	c.HarmChanged()
	var rec Recorder
	c.Sink = &rec
	var at Attempt
	// Risky failure, harm on the full mental track: a critical injury.
	if err := c.Begin(dice.Scripted(1, 1), Test{Action: "Prowl", Position: Risky, Difficulty: 1,
		Peril: true, HarmTrack: "mental", Helpers: 1}, &at); err != nil {
		t.Fatal(err)
	}
	if err := c.Finish(&at); err != nil {
		t.Fatal(err)
	}
	if at.HarmRow != -1 || c.State.Critical[1] != 1 {
		t.Errorf("harm row %d, mental criticals %d; want -1, 1", at.HarmRow, c.State.Critical[1])
	}
	c.NewDay()
	if err := c.Begin(dice.Scripted(), Test{Action: "Persuade", Position: Risky, Flashback: true, Helpers: 1}, &at); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"risk peril: +3 dice, harm level 0",
		"roll 2 dice [1 1]: 0 successes",
		"level 2 mental harm overflows: critical injury",
		"0 successes of 1: things_go_badly",
		"new day",
		"flashback, difficulty 0",
	}
	if d := cmp.Diff(want, rec.Lines()); d != "" {
		t.Errorf("events (-want +got):\n%s", d)
	}
	if EventKind(99).String() != "event(99)" || (Event{Kind: 99}).String() != "event(99)" {
		t.Error("unknown event kind not named")
	}
	if err := c.Push(dice.Scripted(1), &at, 0); err == nil {
		t.Error("pushed a flashback with no roll")
	}
}

func TestRulesJSON(t *testing.T) {
	rl := DefaultRules()
	b, err := json.Marshal(rl)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte(`"kind":"worst_outcome"`)) {
		t.Errorf("kinds not written by name: %s", b)
	}
	var got Rules
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(rl, got); d != "" {
		t.Errorf("round trip (-want +got):\n%s", d)
	}
	if err := json.Unmarshal([]byte(`{"table":[[{"kind":"meh"},{},{}]]}`), &got); err == nil {
		t.Error("unknown kind decoded")
	}
	if _, err := Kind(9).MarshalText(); err == nil {
		t.Error("kind 9 encoded")
	}
	if _, err := Stage(9).MarshalText(); err == nil {
		t.Error("stage 9 encoded")
	}
	var st Stage
	if err := st.UnmarshalText([]byte("halfway")); err == nil {
		t.Error("unknown stage decoded")
	}
	if d := cmp.Diff([]string{"success_with_bonus", "success", "success_with_consequence", "things_go_badly", "worst_outcome"}, Kinds()); d != "" {
		t.Errorf("Kinds (-want +got):\n%s", d)
	}
	if Band(5).String() != "band(5)" || Kind(9).String() != "kind(9)" || Stage(9).String() != "stage(9)" || BandFailure.String() != "failure" {
		t.Error("String of out-of-range values")
	}
	for _, p := range []Policy{Never{}, WhenFailed{}, Threshold{1, 2, 3}} {
		if p.Name() == "" {
			t.Errorf("%T has no name", p)
		}
	}
	if (Threshold{1, 2, 3}).Name() != "threshold(1,2,3)" {
		t.Error("threshold name")
	}
}

// A push records what it kept and why it re-rolled.
func TestPushRecord(t *testing.T) {
	c := newChar(t, DefaultRules())
	var at Attempt
	r := dice.Scripted(6, 2, 6, 1, 1, 1, 1, 1)
	if err := c.Begin(r, Test{Action: "Persuade", Position: Risky, Difficulty: 3}, &at); err != nil {
		t.Fatal(err)
	}
	if err := c.Push(r, &at, 1); err != nil {
		t.Fatal(err)
	}
	if !at.Pushed || at.Kept != 2 || at.PushTrack != "mental" || len(at.Rerolled) != 4 || at.Successes != 2 {
		t.Errorf("push record: pushed %v kept %d track %q rerolled %v successes %d", at.Pushed, at.Kept, at.PushTrack, at.Rerolled, at.Successes)
	}
}

// The harm's cost is kept between changes: after any mix of harm taken,
// healed, spent away and set, it equals the cost worked out afresh.
func TestHarmLoadCache(t *testing.T) {
	for _, rule := range []SpaceRule{SpaceTrack, SpaceBottomRow} {
		rl := DefaultRules()
		rl.PushSpace = rule
		harmLoadCache(t, newChar(t, rl))
	}
}

func harmLoadCache(t *testing.T, c *Character) {
	r := dice.NewSeeded(5)
	var at Attempt
	for i := range 3000 {
		switch k := r.IntN(10); {
		case k < 4:
			if _, err := c.TakeHarm(1+r.IntN(3), r.IntN(2)); err != nil {
				t.Fatal(err)
			}
		case k < 7:
			_ = c.Heal(r.IntN(2), r.IntN(3))
		case k < 8 && i%2 == 0:
			// The exact odds play on a copy of the character, never on it.
			if _, err := c.Chances(Test{Action: "Prowl", Position: Risky, Difficulty: 1, Helpers: 1}, Threshold{Extra: 20, MaxPenalty: 99}); err != nil {
				t.Fatal(err)
			}
		case k < 8:
			s := c.FreshState()
			s.Harm[r.IntN(2)][r.IntN(3)] = 1
			if err := c.SetState(s); err != nil {
				t.Fatal(err)
			}
		default:
			// A test that may push (harm), then heal with its extras.
			tst := Test{Action: "Prowl", Position: Position(r.IntN(3)), Difficulty: 1, Helpers: 1, Bonus: 3}
			if err := c.Play(r, tst, WhenFailed{}, &at); err != nil {
				if errors.Is(err, ErrIncapacitated) {
					continue
				}
				t.Fatal(err)
			}
			if at.Extra > 0 && harmHeld(&c.State) > 0 {
				if err := c.Spend(&at, "heal_harm"); err != nil {
					t.Fatal(err)
				}
			}
		}
		pen, incap := c.load()
		wantPen, wantIncap := c.loadHarm()
		if pen != wantPen || incap != wantIncap {
			t.Fatalf("step %d, harm %v: cached %d %v, afresh %d %v", i, c.State.Harm, pen, incap, wantPen, wantIncap)
		}
		for tr := range c.State.Harm {
			if got, want := c.HasSpace(tr), hasSpace(c.rules, &c.State, tr); got != want {
				t.Fatalf("step %d, %s rule, harm %v: track %d space cached %v, afresh %v", i, c.rules.PushSpace, c.State.Harm, tr, got, want)
			}
		}
	}
}
