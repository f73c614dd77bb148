package actiontest

import (
	"bytes"
	"encoding/json"
	"strings"
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
	if tr, err := c.NaturalTrack("Persuade"); err != nil || tr != "mental" {
		t.Errorf("Persuade risks track %q (%v), want mental", tr, err)
	}
	if tr, err := c.NaturalTrack("Force"); err != nil || tr != "physical" {
		t.Errorf("Force risks track %q (%v), want physical", tr, err)
	}
	if _, err := c.NaturalTrack("Juggle"); err == nil {
		t.Error("unknown action has a track")
	}
	if c.Rules.PerilDice != 3 {
		t.Error("the state's rules are not the rules it was made with")
	}
	if _, err := c.Rules.PositionIndex("comfy"); err == nil {
		t.Error("unknown position found")
	}
	if i, err := c.Rules.PositionIndex("desperate"); err != nil || i != 2 {
		t.Errorf("desperate = %d %v", i, err)
	}
}

func TestHealAndSpace(t *testing.T) {
	c := newChar(t, DefaultRules())
	c.Harm[1].Rows = []int{2, 2, 1}
	if eng.HasSpace(c, "mental") || !eng.HasSpace(c, "physical") || eng.HasSpace(c, "astral") {
		t.Errorf("space: mental %v physical %v astral %v", eng.HasSpace(c, "mental"), eng.HasSpace(c, "physical"), eng.HasSpace(c, "astral"))
	}
	if err := eng.Heal(c, "mental", 3); err != nil || !eng.HasSpace(c, "mental") || c.Incapacitated() {
		t.Errorf("heal severe: %v, space %v, incapacitated %v", err, eng.HasSpace(c, "mental"), c.Incapacitated())
	}
	for _, bad := range []struct {
		track string
		level int
	}{{"mental", 3}, {"astral", 1}, {"physical", 4}, {"physical", 0}, {"physical", 1}} {
		before := c.Clone()
		if err := eng.Heal(c, bad.track, bad.level); err == nil {
			t.Errorf("Heal(%q, %d) accepted", bad.track, bad.level)
		}
		if d := cmp.Diff(before, c, cmpState); d != "" {
			t.Errorf("rejected heal changed state:\n%s", d)
		}
	}
}

// Table harm lands on the named track, peril and flashbacks are narrated.
func TestEventsAllKinds(t *testing.T) {
	c := newChar(t, DefaultRules())
	c.Harm[1].Rows = []int{2, 2, 1}
	var rec Recorder
	eng := Engine{Sink: rec.Record}
	at := &c.Attempt
	// Risky failure, harm on the full mental track: a critical injury.
	if err := eng.Begin(c, dice.Scripted(1, 1), Test{Action: "Prowl", Position: Risky, Difficulty: 1,
		Peril: true, HarmTrack: "mental", Helpers: 1}); err != nil {
		t.Fatal(err)
	}
	if err := eng.Finish(c); err != nil {
		t.Fatal(err)
	}
	if !at.HarmCritical || at.HarmRow != "" || c.Harm[1].Critical != 1 {
		t.Errorf("harm row %q critical %v, mental criticals %d; want a critical injury", at.HarmRow, at.HarmCritical, c.Harm[1].Critical)
	}
	eng.NewDay(c)
	if err := eng.Begin(c, dice.Scripted(), Test{Action: "Persuade", Position: Risky, Flashback: true, Helpers: 1}); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"Vex risks peril for 3 dice more, a price paid whatever happens.",
		"Vex rolls 2 dice for Prowl at a risky position: 1 1, 0 successes.",
		"Vex takes level 2 mental harm, but the track is full: a critical injury.",
		"Vex has 0 successes of the 1 needed: things go badly.",
		"A new day begins: Vex has the day's flashbacks again.",
		"Vex calls a flashback of difficulty 0.",
	}
	if d := cmp.Diff(want, rec.Lines()); d != "" {
		t.Errorf("events (-want +got):\n%s", d)
	}
	if EventKind(99).String() != "actiontest.EventKind(99)" || !strings.Contains((Event{Kind: 99}).String(), "actiontest.EventKind(99)") {
		t.Error("unknown event kind not named")
	}
	if err := eng.Push(c, dice.Scripted(1), "physical"); err == nil {
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
	if d := cmp.Diff([]string{"success_with_bonus", "success", "success_with_consequence", "things_go_badly", "worst_outcome", "neither"}, Kinds()); d != "" {
		t.Errorf("Kinds (-want +got):\n%s", d)
	}
	if Band(5).String() != "actiontest.Band(5)" || Kind(9).String() != "actiontest.Kind(9)" || Stage(9).String() != "actiontest.Stage(9)" || BandFailure.String() != "failure" {
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
	at := &c.Attempt
	r := dice.Scripted(6, 2, 6, 1, 1, 1, 1, 1)
	if err := eng.Begin(c, r, Test{Action: "Persuade", Position: Risky, Difficulty: 3}); err != nil {
		t.Fatal(err)
	}
	if err := eng.Push(c, r, "mental"); err != nil {
		t.Fatal(err)
	}
	if !at.Pushed || at.Kept != 2 || at.PushTrack != "mental" || len(at.Rerolled) != 4 || at.Successes != 2 {
		t.Errorf("push record: pushed %v kept %d track %q rerolled %v successes %d", at.Pushed, at.Kept, at.PushTrack, at.Rerolled, at.Successes)
	}
}
