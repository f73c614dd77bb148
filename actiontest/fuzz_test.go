package actiontest

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stakesrpg/stakes/dice"
)

// FuzzRestore reads any bytes as a saved game: never a panic, and a game
// that restores saves to bytes that restore to the same bytes and play on.
func FuzzRestore(f *testing.F) {
	s := DefaultScenario()
	g, err := s.newGame()
	if err != nil {
		f.Fatal(err)
	}
	r := dice.NewSeeded(1)
	for !g.Done() {
		b, _ := g.Save()
		f.Add(b)
		if err := g.Step(r); err != nil {
			f.Fatal(err)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		g, err := s.restoreGame(b)
		if err != nil {
			return
		}
		saved, err := g.Save()
		if err != nil {
			t.Fatal(err)
		}
		back, err := s.restoreGame(saved)
		if err != nil {
			t.Fatalf("a restored game's save does not restore: %v", err)
		}
		if again, _ := back.Save(); !bytes.Equal(saved, again) {
			t.Fatal("save(restore(save)) differs")
		}
		r := dice.NewSeeded(2)
		for i := 0; i < 1000 && !back.Done(); i++ {
			if err := back.Step(r); err != nil {
				t.Fatalf("a restored game cannot step: %v", err)
			}
		}
	})
}

// FuzzScenario reads any JSON as a scenario: Validate never panics, and a
// valid one plays a trial.
func FuzzScenario(f *testing.F) {
	for _, s := range []Scenario{DefaultScenario(), opposedChase()} {
		b, _ := json.Marshal(s)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var s Scenario
		if len(b) > maxSave || json.Unmarshal(b, &s) != nil || s.Validate() != nil {
			return
		}
		rn, err := s.NewRunner()
		if err != nil {
			t.Fatalf("valid, yet no runner: %v", err)
		}
		m := make([]int, numMetrics)
		if _, err := rn.Trial(dice.NewSeeded(1), m); err != nil {
			t.Fatalf("a valid scenario's trial: %v", err)
		}
	})
}
