package actiontest

import (
	"context"
	"testing"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/dice/gof"
)

// opposedChase is the rooftop chase against a guard rolling three dice:
// the thief must outroll the guard four times.
func opposedChase() Scenario {
	s := DefaultScenario()
	s.Name, s.Opponent = "outrunning the guard", 3
	return s
}

// An opposed pursuit has exact odds, and the sampled trials follow them.
func TestOpposedScenarioHasExactOdds(t *testing.T) {
	s := opposedChase()
	ex, err := s.Exact(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	rn, err := s.NewRunner()
	if err != nil {
		t.Fatal(err)
	}
	r := dice.NewSeeded(11)
	cats := map[int]int64{}
	m := make([]int, numMetrics)
	for range 20000 {
		c, err := rn.Trial(r, m)
		if err != nil {
			t.Fatal(err)
		}
		cats[c]++
	}
	fit, err := gof.ChiSquare(dice.Dist{P: ex.P}, cats)
	if err != nil || fit.PValue < 1e-4 {
		t.Errorf("categories p=%v err=%v; exact %v, sampled %v", fit.PValue, err, ex.P, cats)
	}
}

// The opposed settings act: a loss that loses the chance ends pursuits
// "lost", and a loss that costs nothing more does not.
func TestOpposedRulesChangeTheOdds(t *testing.T) {
	s := opposedChase()
	lost, err := s.Exact(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	s.Rules.Opposed.Lose.Consequences = []Consequence{{Kind: Harm, Level: 3}}
	hurt, err := s.Exact(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if lost.P[catLost] < 0.1 || hurt.P[catLost] != 0 || hurt.P[catOut] < 0.1 {
		t.Errorf("lost %v, harmed %v: rules.opposed.lose changed nothing", lost.P, hurt.P)
	}
}

// One opposed test with scripted dice: the thief's two sixes beat the
// guard's one, and a second test ties the NPC guard: a success with a
// complication.
func TestOpposedScenarioScripted(t *testing.T) {
	s := opposedChase()
	s.Goal, s.Policy, s.PerilOffered = 2, "never", false
	rn, err := s.NewRunner()
	if err != nil {
		t.Fatal(err)
	}
	r := dice.Scripted(6, 6, 1, 1 /* guard */, 6, 1, 1, 6, 1, 1, 1 /* guard */, 6, 1, 1)
	m := make([]int, numMetrics)
	cat, err := rn.Trial(r, m)
	if err != nil || r.Remaining() != 0 {
		t.Fatalf("trial: %v, %d dice left", err, r.Remaining())
	}
	if Category(cat) != catClean || m[metTests] != 2 {
		t.Errorf("category %s after %d tests, want clean after 2", Category(cat), m[metTests])
	}
	if o := rn.c.State.Attempt.Outcome; o.Kind != SuccessConsequence || !o.Succeeded {
		t.Errorf("the tie against the guard: %+v", o)
	}
}
