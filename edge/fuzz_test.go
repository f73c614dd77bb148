package edge

import (
	"encoding/json"
	"testing"

	"github.com/stakesrpg/stakes/dice"
)

// FuzzScenario: no scenario file makes the package panic; a scenario that
// validates plays to the end.
func FuzzScenario(f *testing.F) {
	b, _ := json.Marshal(DefaultScenario())
	f.Add(b)
	s := DefaultScenario()
	s.Type = "social"
	s.Parties = append(s.Parties, Party{Name: "crowd", Passive: true, Members: []Member{{Name: "c", Size: 40}}})
	s.Factors = []Factor{{After: 1, Every: 1, Skill: "endurance", DC: 15, Penalty: -1}}
	b, _ = json.Marshal(s)
	f.Add(b)
	f.Add([]byte(`{"type":"chase","parties":[{"name":"a","members":[{"name":"x"}]},{"name":"b","members":[]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var s Scenario
		if json.Unmarshal(data, &s) != nil {
			return
		}
		if s.Rules.MaxRounds == 0 || s.Rules.MaxRounds > 100 {
			s.Rules.MaxRounds = 100
		}
		rn, err := s.NewRunner()
		if err != nil {
			return
		}
		metrics := make([]int, 8)
		if _, err := rn.Trial(dice.NewSeeded(1), metrics); err != nil {
			t.Fatalf("a valid scenario failed: %v", err)
		}
	})
}

// FuzzRestore: no saved game makes Scenario.Restore panic; a game it
// accepts saves the same bytes it would save again after another restore,
// and plays on without any step refusing it.
func FuzzRestore(f *testing.F) {
	for _, s := range kitScenarios() {
		g, _ := s.Start(dice.NewSeeded(4))
		r := dice.NewSeeded(4)
		for range 4 {
			b, _ := g.Save()
			f.Add(b)
			_ = g.Step(r)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := (Scenario{}).Restore(data)
		if err != nil {
			return
		}
		saved, err := g.Save()
		if err != nil {
			t.Fatalf("a restored game does not save: %v", err)
		}
		again, err := (Scenario{}).Restore(saved)
		if err != nil {
			t.Fatalf("a game's own save is refused: %v", err)
		}
		if b, _ := again.Save(); string(b) != string(saved) {
			t.Fatalf("save, restore, save gives other bytes:\n%s\n%s", saved, b)
		}
		r := dice.NewSeeded(2)
		for i := 0; i < 200 && !g.Done(); i++ {
			if err := g.Step(r); err != nil {
				t.Fatalf("step %d refused a restored game: %v", i, err)
			}
		}
	})
}
