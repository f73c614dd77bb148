package actiontest

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/stakesrpg/stakes/dice"
)

// renamedRules are the default rules with positions of their own names, so
// a test can tell a name read from the rules from one built in.
func renamedRules() Rules {
	rl := DefaultRules()
	rl.Positions = []string{"safe", "edgy", "dire"}
	for i, p := range rl.Positions {
		rl.Table[i].Position = Position(p)
	}
	rl.DefaultPosition = "edgy"
	return rl
}

// Positions are names of Rules.Positions in every saved value: a test's,
// the retry's next position, the rules' default and a pursuit's; they read
// back to the same character, and "" is the rules' default.
func TestPositionsReadAndWriteAsNames(t *testing.T) {
	c := newChar(t, renamedRules())
	// A failure at the default position, escalated: the attempt records
	// the default resolved and the retry one position worse.
	if err := eng.Begin(c, dice.Scripted(1, 1, 1, 1), Test{Action: "Prowl", Difficulty: 1, Escalate: true}); err != nil {
		t.Fatal(err)
	}
	if err := eng.Finish(c); err != nil {
		t.Fatal(err)
	}
	at := &c.Attempt
	if at.Test.Position != "edgy" || !at.Retry || at.NextPosition != "dire" {
		t.Fatalf("recorded position %q, retry %v at %q; want edgy, a retry at dire", at.Test.Position, at.Retry, at.NextPosition)
	}
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"default_position":"edgy"`, `"position":"edgy"`, `"next_position":"dire"`, `"positions":["safe","edgy","dire"]`, `"table":[{"position":"safe","multiple":`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("saved character lacks %s:\n%s", want, b)
		}
	}
	back, err := restoreState(b)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(c, back, cmpState, cmpopts.EquateEmpty()); d != "" {
		t.Errorf("state after a round trip (-saved +restored):\n%s", d)
	}
	// The restored character plays the retry at the named position.
	if err := eng.Retry(back, dice.Scripted(6, 1, 1, 1), Test{Action: "Prowl", Position: "dire", Difficulty: 1}); err != nil {
		t.Fatal(err)
	}
	if err := eng.Finish(back); err != nil || back.Attempt.Outcome.Kind != SuccessConsequence {
		t.Errorf("retry at dire: %v, outcome %v, want %v", err, back.Attempt.Outcome.Kind, SuccessConsequence)
	}

	// A scenario and a pursuit name their positions too; "" in a scenario
	// is the rules' default.
	s := DefaultScenario()
	s.Rules = renamedRules()
	s.Position, s.FlashbackPosition = "", "safe"
	game, err := s.newGame()
	if err != nil {
		t.Fatal(err)
	}
	if game.Pursuit().Position != "edgy" {
		t.Errorf("pursuit starts at %q, want the default edgy", game.Pursuit().Position)
	}
	b, err = game.Save()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"pursuit":{"progress":0,"position":"edgy"`) {
		t.Errorf("saved pursuit does not name its position:\n%s", b)
	}
	if _, err := s.Restore(b); err != nil {
		t.Errorf("saved pursuit: %v", err)
	}
}

// A position the rules do not list is refused wherever it appears, and the
// error names the positions allowed; a refused step changes nothing.
func TestUnknownPositionNameIsRefused(t *testing.T) {
	const allowed = `"safe", "edgy", "dire"`
	c := newChar(t, renamedRules())
	r := dice.Scripted(6, 6, 6, 6)
	for _, p := range []Position{"risky", "Edgy", "2"} {
		err := eng.Begin(c, r, Test{Action: "Prowl", Position: p, Difficulty: 1})
		if err == nil || !strings.Contains(err.Error(), allowed) {
			t.Errorf("Begin at %q: %v, want a refusal naming %s", p, err, allowed)
		}
		if err := eng.CanBegin(c, Test{Action: "Prowl", Position: p, Difficulty: 1}); err == nil {
			t.Errorf("CanBegin at %q accepted", p)
		}
	}
	if r.Remaining() != 4 || c.Attempt.Stage != NotBegun {
		t.Errorf("refused steps drew %d dice and left stage %q", 4-r.Remaining(), c.Attempt.Stage)
	}

	rl := renamedRules()
	for _, p := range []Position{"risky", ""} {
		rl.DefaultPosition = p
		if err := rl.Validate(); !errors.Is(err, ErrRules) || !strings.Contains(err.Error(), allowed) {
			t.Errorf("default position %q: %v", p, err)
		}
	}
	rl = renamedRules()
	if _, err := rl.PositionIndex("risky"); err == nil || !strings.Contains(err.Error(), allowed) {
		t.Errorf("PositionIndex(risky): %v", err)
	}
	if _, err := rl.Worse("dire"); err == nil {
		t.Error("a position worse than the worst")
	}
	if p, err := rl.Worse(""); err != nil || p != "dire" {
		t.Errorf("worse than the default: %q %v, want dire", p, err)
	}

	// Saved states: an attempt's position, a retry's next position.
	if err := eng.Begin(c, dice.Scripted(1, 1, 1, 1), Test{Action: "Prowl", Position: "safe", Difficulty: 1, Escalate: true}); err != nil {
		t.Fatal(err)
	}
	if err := eng.Finish(c); err != nil {
		t.Fatal(err)
	}
	for name, edit := range map[string]func(*State){
		"attempt position":        func(s *State) { s.Attempt.Test.Position = "risky" },
		"next position unknown":   func(s *State) { s.Attempt.NextPosition = "risky" },
		"next position not worse": func(s *State) { s.Attempt.NextPosition = "dire" },
		"next position, no retry": func(s *State) { s.Attempt.Retry = false },
	} {
		st := c.Clone()
		edit(st)
		if err := st.Check(); err == nil {
			t.Errorf("%s: saved state accepted", name)
		}
	}
	// A number where a name belongs is a JSON error, not a position.
	var tst Test
	if err := json.Unmarshal([]byte(`{"action":"Prowl","position":2,"difficulty":1}`), &tst); err == nil {
		t.Error("a numbered position read as JSON")
	}
	// Scenarios and pursuits.
	s := DefaultScenario()
	s.Position = "edgy"
	if err := s.Validate(); err == nil || !strings.Contains(err.Error(), `"controlled", "risky", "desperate"`) {
		t.Errorf("scenario at an unknown position: %v", err)
	}
	s = DefaultScenario()
	s.FlashbackPosition = "edgy"
	if err := s.Validate(); err == nil {
		t.Error("scenario flashback at an unknown position accepted")
	}
}

// Harm rows are named in saved attempts and events, as the rules name
// them; a critical injury is marked as one. An unknown row is refused.
func TestHarmRowsReadAndWriteAsNames(t *testing.T) {
	c := newChar(t, DefaultRules())
	var rec Recorder
	eng := Engine{Sink: rec.Record}
	// A Risky failure: a level 2 harm, in the moderate row.
	if err := eng.ActionTest(c, dice.Scripted(1, 1, 1, 1), Test{Action: "Prowl", Position: Risky, Difficulty: 1}); err != nil {
		t.Fatal(err)
	}
	at := &c.Attempt
	if !at.HarmTaken || at.HarmRow != "moderate" || at.HarmCritical {
		t.Fatalf("harm row %q critical %v, want moderate", at.HarmRow, at.HarmCritical)
	}
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"harm_row":"moderate"`) {
		t.Errorf("saved attempt does not name its harm row:\n%s", b)
	}
	var harm *Event
	for i := range rec.Events {
		if rec.Events[i].Kind == EvHarm {
			harm = &rec.Events[i]
		}
	}
	if harm == nil || harm.Row != "moderate" || harm.Critical {
		t.Fatalf("harm event %+v, want the moderate row", harm)
	}
	if eb, _ := json.Marshal(harm); !strings.Contains(string(eb), `"row":"moderate"`) {
		t.Errorf("harm event JSON %s does not name its row", eb)
	}
	for name, edit := range map[string]func(*State){
		"unknown row":        func(s *State) { s.Attempt.HarmRow = "grave" },
		"row and critical":   func(s *State) { s.Attempt.HarmCritical = true },
		"neither":            func(s *State) { s.Attempt.HarmRow = "" },
		"row, no harm taken": func(s *State) { s.Attempt.HarmTaken = false },
	} {
		st := c.Clone()
		edit(st)
		if err := st.Check(); err == nil {
			t.Errorf("%s: saved state accepted", name)
		}
	}
	// What a heal bought names its track and row.
	c = newChar(t, DefaultRules())
	c.Harm[0].Rows[0] = 1
	if err := play(c, dice.Scripted(6, 6, 1, 1), Test{Action: "Prowl", Position: Risky, Difficulty: 1}, Never{}); err != nil {
		t.Fatal(err)
	}
	if err := eng.Spend(c, "heal_harm"); err != nil {
		t.Fatal(err)
	}
	if got := c.Attempt.Bought; len(got) != 1 || got[0].Track != "physical" || got[0].Row != "lesser" {
		t.Fatalf("bought %+v, want a heal of physical lesser harm", got)
	}
	if err := c.Check(); err != nil {
		t.Fatal(err)
	}
	for name, edit := range map[string]func(*Bought){
		"bought unknown row":   func(b *Bought) { b.Row = "grave" },
		"bought unknown track": func(b *Bought) { b.Track = "astral" },
	} {
		st := c.Clone()
		edit(&st.Attempt.Bought[0])
		if err := st.Check(); err == nil {
			t.Errorf("%s: saved state accepted", name)
		}
	}
	rl := DefaultRules()
	rl.HarmRows[2].Name = "lesser"
	if err := rl.Validate(); err == nil {
		t.Error("two harm rows of one name accepted")
	}
}

// A saved pursuit's metrics are keyed by name and read back the same; an
// unknown or missing metric is refused.
func TestPursuitMetricsReadAndWriteAsNames(t *testing.T) {
	want := Tally{1, 2, 3, 4, 5, 6, 7}
	b, err := json.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	const written = `{"escalations":5,"flashbacks":7,"harm":3,"perils":6,"pushes":2,"successes":4,"tests":1}`
	if string(b) != written {
		t.Errorf("tally writes %s, want %s", b, written)
	}
	var got Tally
	if err := json.Unmarshal(b, &got); err != nil || got != want {
		t.Errorf("tally reads back %v (%v), want %v", got, err, want)
	}
	for _, bad := range []string{
		`{"escalations":5,"flashbacks":7,"harm":3,"perils":6,"pushes":2,"successes":4,"tests":1,"wins":1}`,
		`{"escalations":5,"flashbacks":7,"harm":3,"perils":6,"pushes":2,"successes":4}`,
		`[1,2,3,4,5,6,7]`,
	} {
		var m Tally
		if err := json.Unmarshal([]byte(bad), &m); err == nil {
			t.Errorf("%s: accepted", bad)
		}
	}
}

// A saved state names each harm track it holds harm on, in the rules'
// order; a track out of order or unknown is refused with the tracks
// allowed.
func TestHarmTracksReadAndWriteAsNames(t *testing.T) {
	c := newChar(t, DefaultRules())
	if _, err := eng.TakeHarm(c, 1, "mental"); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	const want = `"harm":[{"track":"physical","rows":[0,0,0],"critical":0},{"track":"mental","rows":[1,0,0],"critical":0}]`
	if !strings.Contains(string(b), want) {
		t.Errorf("saved state %s lacks %s", b, want)
	}
	back, err := restoreState(b)
	if err != nil || back.Penalty() != 1 {
		t.Fatalf("restored state: %v, want a penalty of 1", err)
	}
	for name, edit := range map[string]func(*State){
		"tracks swapped": func(s *State) { s.Harm[0], s.Harm[1] = s.Harm[1], s.Harm[0] },
		"unknown track":  func(s *State) { s.Harm[1].Track = "astral" },
		"unnamed track":  func(s *State) { s.Harm[0].Track = "" },
	} {
		st := c.Clone()
		edit(st)
		err := st.Check()
		if err == nil || !strings.Contains(err.Error(), `"physical", "mental"`) {
			t.Errorf("%s: %v, want a refusal naming the tracks", name, err)
		}
	}
}
