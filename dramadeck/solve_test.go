package dramadeck

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

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
	if len(sv.Policies) != len(PolicyNames()) || len(sv.Advice) != len(knobsOf(s)) {
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

// Solve stops within 100 ms of its context's deadline, whatever the
// study (it used to overrun a 2 s deadline by 1.7 s): the trials look at
// the context before each one.
func TestSolveHonoursItsDeadlineWithin100ms(t *testing.T) {
	heavy := unkillable(Builtins()["adventure"])
	heavy.Acts, heavy.ScenesPerAct, heavy.MaxRounds = maxScenes, maxScenes, 1000
	studies := map[string]Scenario{"encounter": DefaultScenario(), "adventure": Builtins()["adventure"], "heavy": heavy}
	for name, sc := range studies {
		const deadline = 150 * time.Millisecond
		ctx, cancel := context.WithTimeout(context.Background(), deadline)
		start := time.Now()
		_, err := sc.Solve(ctx, markov.Goal{})
		took := time.Since(start)
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("%s: %v", name, err)
		}
		if took > deadline+100*time.Millisecond {
			t.Errorf("%s: Solve took %v under a %v deadline", name, took, deadline)
		}
	}
}

// Solve advises only on the choices that arise in the study: a task out of
// combat has no Critical Moment, no All-Out Attack and no Drama to hold,
// and gives the GM no choice.
func TestSolveAdvisesOnlyOnChoicesThatArise(t *testing.T) {
	if testing.Short() {
		t.Skip("plays tens of thousands of tasks")
	}
	sc := Builtins()["task"]
	sv, err := sc.Solve(context.Background(), markov.Goal{})
	if err != nil {
		t.Fatal(err)
	}
	if sv.Goal.Outcomes[0] != "finished" || len(sv.Advice) != 3 {
		t.Fatalf("goal %v, %d lines of advice", sv.Goal, len(sv.Advice))
	}
	for _, a := range sv.Advice {
		if strings.Contains(a.When, "Drama") || strings.Contains(a.When, "attacking") || strings.Contains(a.When, "combat cards") {
			t.Errorf("advice on a choice a task never asks: %+v", a)
		}
	}
	if _, err := sc.Solve(context.Background(), markov.Goal{Side: "gm"}); err == nil {
		t.Error("the GM's side of a task out of combat: solved")
	}
}
