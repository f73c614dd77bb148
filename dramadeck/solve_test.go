package dramadeck

import (
	"context"
	"strings"
	"testing"

	"github.com/stakesrpg/stakes/sim/markov"
)

func TestSolveComparesStylesOnCommonTrials(t *testing.T) {
	if testing.Short() {
		t.Skip("plays about 300,000 encounters")
	}
	s := DefaultScenario()
	sv, err := s.Solve(context.Background(), markov.Goal{})
	if err != nil {
		t.Fatal(err)
	}
	if err := sv.Check(); err != nil {
		t.Fatal(err)
	}
	if sv.Side != "heroes" || sv.Goal.Outcomes[0] != "heroes_win" || !strings.HasPrefix(sv.Method, "sampling") {
		t.Errorf("side %q goal %v method %q", sv.Side, sv.Goal, sv.Method)
	}
	if len(sv.Policies) != len(PolicyNames()) || len(sv.Advice) != len(knobs) {
		t.Errorf("%d policies, %d lines of advice", len(sv.Policies), len(sv.Advice))
	}
	for _, v := range sv.Policies {
		if v.Value > sv.Best.Value || v.Value < sv.Worst.Value || v.HalfWidth <= 0 || v.HalfWidth > 0.01 {
			t.Errorf("policy %+v outside best %v and worst %v", v, sv.Best.Value, sv.Worst.Value)
		}
	}
	// The search starts from every shipped policy and keeps only
	// improvements, on the same trials: a climbed style is measured again.
	if sv.Gap <= 0 {
		t.Errorf("gap %v: styles should differ", sv.Gap)
	}
}

func TestSolveRefusesUnknownSidesAndOutcomes(t *testing.T) {
	s := DefaultScenario()
	for _, g := range []markov.Goal{{Side: "villains"}, {Outcomes: []string{"heroes_won"}}} {
		if _, err := s.Solve(context.Background(), g); err == nil || !strings.Contains(err.Error(), "allowed") {
			t.Errorf("goal %+v: %v", g, err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.Solve(ctx, markov.Goal{}); err != context.Canceled {
		t.Errorf("cancelled: %v", err)
	}
}

func BenchmarkSolve(b *testing.B) {
	s := DefaultScenario()
	for b.Loop() {
		if _, err := s.Solve(context.Background(), markov.Goal{}); err != nil {
			b.Fatal(err)
		}
	}
}
