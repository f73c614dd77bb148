package dramadeck

import (
	"slices"
	"testing"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim"
	"github.com/stakesrpg/stakes/sim/simtest"
)

// The conformance kit on every built-in study beyond the encounter (which
// TestConformance runs): save and restore at every stage, atomic steps,
// mutated saves, determinism.
func TestConformanceOfEveryStudy(t *testing.T) {
	if testing.Short() {
		t.Skip("the kit on four more studies takes minutes")
	}
	for _, name := range []string{"task", "task_in_combat", "scene", "adventure"} {
		sc := Builtins()[name]
		if err := simtest.TestMechanic(sim.Adapt[*Runner]("dramadeck", &sc), simtest.Options{Games: 10}); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
}

// trials plays n trials of sc from seed and returns the category counts
// and the metrics of each trial.
func trials(t *testing.T, sc Scenario, seed uint64, n int) ([]int, [][]int) {
	t.Helper()
	rn, err := sc.NewRunner()
	if err != nil {
		t.Fatal(err)
	}
	r := dice.NewSeeded(seed)
	counts := make([]int, len(sc.Categories()))
	var ms [][]int
	for range n {
		m := make([]int, len(sc.Metrics()))
		counts[mustTrial(t, rn, r, m)]++
		ms = append(ms, m)
	}
	return counts, ms
}

// Every built-in study plays to its end, and its metrics keep their
// meaning: a finished task did all its steps within its time, a failed
// one used all its rounds; a scene's held hands are refilled to the hand
// size; an adventure's scenes add up and triumph means every scene won.
func TestStudiesEndAsTheirCategoriesSay(t *testing.T) {
	steps, hand := DefaultRules().TaskSteps, DefaultRules().HandSize
	for name, sc := range Builtins() {
		counts, ms := trials(t, sc, 7, 300)
		t.Logf("%s: %v %v", name, sc.Categories(), counts)
		switch sc.Study {
		case StudyTask:
			for _, m := range ms {
				if m[0] > sc.Task.Rounds || m[1] > steps {
					t.Fatalf("%s: %v past the task's limits", name, m)
				}
			}
			if counts[0] == 0 || counts[2] == 0 {
				t.Errorf("%s: %v: finished and failed should both happen", name, counts)
			}
			if !sc.TaskInCombat && counts[3] != 0 {
				t.Errorf("%s: a task out of combat abandoned %d times", name, counts[3])
			}
		case StudyScene:
			for _, m := range ms {
				if m[5] != hand*len(sc.Heroes) || m[1] > 1 {
					t.Fatalf("%s: %v: hands after the scene's end should hold %d cards each", name, m, hand)
				}
			}
		case StudyAdventure:
			scenes := sc.Acts * sc.ScenesPerAct
			for _, m := range ms {
				if m[1]+m[2] > scenes {
					t.Fatalf("%s: %v: more scenes than %d", name, m, scenes)
				}
			}
			if counts[0] == 0 || counts[1] == 0 {
				t.Errorf("%s: %v: triumphs and mixed adventures should both happen", name, counts)
			}
		}
	}
}

// The adventure's awards are the text's: with subplots paying nothing,
// every Possibility awarded is a Drama card held (drama_worth each) or a
// Glory played (glory_award to every character, each player's hero here).
func TestAdventureAwardsDramaHeldAndGloryPlayed(t *testing.T) {
	sc := Builtins()["adventure"]
	sc.Rules.SubplotAward = 0
	_, ms := trials(t, sc, 3, 300)
	glory, drama := 0, 0
	for _, m := range ms {
		want := m[4]*sc.Rules.DramaWorth + m[5]*sc.Rules.GloryAward*len(sc.Heroes)
		if m[3] != want {
			t.Fatalf("awarded %d, want %d Drama x %d + %d Glory x %d x %d heroes", m[3], m[4], sc.Rules.DramaWorth, m[5], sc.Rules.GloryAward, len(sc.Heroes))
		}
		glory += m[5]
		drama += m[4]
	}
	if glory == 0 || drama == 0 {
		t.Errorf("no Glory (%d) or no Drama held (%d) in 300 adventures", glory, drama)
	}
	// Subplots in play pay at each Act's end.
	sc.Rules.SubplotAward = 1
	_, paid := trials(t, sc, 3, 300)
	more := 0
	for i := range paid {
		if paid[i][3] > ms[i][3] {
			more++
		}
	}
	if more == 0 {
		t.Error("subplot_award 1 paid nothing more in 300 adventures")
	}
}

// The built-ins are named and valid, and each study refuses another
// study's settings.
func TestBuiltinsAndStudySettings(t *testing.T) {
	names := []string{"adventure", "encounter", "scene", "task", "task_in_combat"}
	var got []string
	for name, sc := range Builtins() {
		got = append(got, name)
		if err := sc.Validate(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	slices.Sort(got)
	if !slices.Equal(got, names) {
		t.Errorf("built-ins %v, want %v", got, names)
	}
	bad := []func(*Scenario){
		func(s *Scenario) { s.Acts = 2 },
		func(s *Scenario) { s.Task = BombDisposal() },
		func(s *Scenario) { s.TaskInCombat = true },
		func(s *Scenario) { s.Study = numStudies },
	}
	for i, f := range bad {
		sc := DefaultScenario()
		f(&sc)
		if sc.Validate() == nil {
			t.Errorf("encounter with setting %d of another study: valid", i)
		}
	}
	adv := Builtins()["adventure"]
	adv.ScenesPerAct = maxScenes + 1
	if adv.Validate() == nil {
		t.Error("an adventure of 21 scenes an Act: valid")
	}
}

// Every study reports its rounds first, as sim's mechanic contract asks
// (the faces read metric 0 as rounds): the combat rounds of an encounter,
// a scene or an adventure (all its scenes'), the task's rounds of a task.
func TestEveryStudyCountsItsRoundsFirst(t *testing.T) {
	for name, sc := range Builtins() {
		first := sc.Metrics()[0]
		if first != "rounds" && first != "task_rounds" {
			t.Errorf("%s: first metric %q", name, first)
		}
		rn, err := sc.NewRunner()
		if err != nil {
			t.Fatal(err)
		}
		r := dice.NewSeeded(11)
		for range 20 {
			m := make([]int, len(sc.Metrics()))
			mustTrial(t, rn, r, m)
			s := rn.State()
			want := s.Round
			switch {
			case sc.Study == StudyTask:
				want = s.Tasks[0].Round
			case s.Plan != nil:
				want = s.Plan.Rounds
			}
			if m[0] != want || m[0] < 1 {
				t.Errorf("%s: first metric %d, rounds played %d", name, m[0], want)
			}
		}
	}
}
