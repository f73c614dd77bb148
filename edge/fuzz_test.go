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

// FuzzState: no saved state makes Restore panic, and a state it accepts
// (its check passed) plays on without any step refusing it.
func FuzzState(f *testing.F) {
	for _, s := range kitScenarios() {
		in, _ := newSession(s)
		r := dice.NewSeeded(4)
		for range 4 {
			b, _ := json.Marshal(in.State())
			f.Add(b)
			_ = in.Step(r)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var st State
		if json.Unmarshal(data, &st) != nil {
			return
		}
		in, err := restoreSession(st)
		if err != nil {
			return
		}
		r := dice.NewSeeded(2)
		for i := 0; i < 200 && !in.Outcome().Done(); i++ {
			if err := in.Step(r); err != nil {
				t.Fatalf("step %d refused a restored state its check accepted: %v", i, err)
			}
		}
	})
}
