package edge

import (
	"testing"

	"github.com/stakesrpg/stakes/dice"
)

// TestNoAllocs: trials and rounds allocate nothing with events off.
func TestNoAllocs(t *testing.T) {
	if raceOn {
		t.Skip("the race detector allocates")
	}
	rn, err := DefaultScenario().NewRunner()
	if err != nil {
		t.Fatal(err)
	}
	r := dice.NewSeeded(1)
	metrics := make([]int, 8)
	if n := testing.AllocsPerRun(200, func() { _, _ = rn.Trial(r, metrics) }); n != 0 {
		t.Errorf("Trial allocates %v times", n)
	}
	rn5, err := five().NewRunner()
	if err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(50, func() { _, _ = rn5.Trial(r, metrics) }); n != 0 {
		t.Errorf("5v5 Trial allocates %v times", n)
	}
	// A hand-played step of a Game (no Listen, no Intercept) allocates
	// nothing either.
	g := startGame(t, DefaultScenario())
	step := func() {
		if g.Done() {
			g.in.s.resetTo(&g.in.initial)
		}
		if err := g.Step(r); err != nil {
			t.Fatal(err)
		}
	}
	if n := testing.AllocsPerRun(500, step); n != 0 {
		t.Errorf("Game.Step allocates %v times", n)
	}
}

// TestTrialMetrics: the metrics add up.
func TestTrialMetrics(t *testing.T) {
	s := DefaultScenario()
	rn, err := s.NewRunner()
	if err != nil {
		t.Fatal(err)
	}
	r := dice.NewSeeded(8)
	metrics := make([]int, len(s.Metrics()))
	for range 200 {
		c, err := rn.Trial(r, metrics)
		if err != nil {
			t.Fatal(err)
		}
		if metrics[3]+metrics[4] != 11 {
			t.Fatalf("final edge %d + %d, want 11", metrics[3], metrics[4])
		}
		if metrics[0] < 1 || metrics[1] < 1 || metrics[2] > metrics[0] {
			t.Fatalf("metrics %v", metrics)
		}
		winner := metrics[3] == 11 || (metrics[4] != 11 && metrics[3] > metrics[4])
		if (c == 0) != winner {
			t.Fatalf("category %d with final edge %v", c, metrics[3:])
		}
	}
}
