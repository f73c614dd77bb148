package edge

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim/markov"
)

// TestBonusEdgeNearMaxIntIsRefusedByValidate: a bonus that would wrap
// start_edge + bonus_edge past the largest int is refused by Validate, not
// passed on to fail every trial.
func TestBonusEdgeNearMaxIntIsRefusedByValidate(t *testing.T) {
	for _, bonus := range []int{math.MaxInt, math.MaxInt - 4, MaxEdge} {
		s := DefaultScenario()
		s.Parties[1].BonusEdge = bonus
		if err := s.Validate(); err == nil || !strings.Contains(err.Error(), "bonus_edge") {
			t.Errorf("bonus_edge %d: %v", bonus, err)
		}
	}
}

// TestCheckRefusesCountersTheNextStepWouldWrap: a restored state whose
// round, transfers, initiative changes, factored round or last round are
// near the largest int is refused by State.Check.
func TestCheckRefusesCountersTheNextStepWouldWrap(t *testing.T) {
	_, s := played(t, 3)
	for name, set := range map[string]func(*State){
		"round":              func(s *State) { s.Round = math.MaxInt },
		"transfers":          func(s *State) { s.Transfers = math.MaxInt },
		"initiative_changes": func(s *State) { s.InitiativeChanges = math.MaxInt - 1 },
		"factored":           func(s *State) { s.Factored = math.MaxInt },
		"last_round":         func(s *State) { s.Parties[0].Members[0].LastRound = math.MaxInt },
	} {
		c := s.Clone()
		set(&c)
		if err := c.Check(); err == nil {
			t.Errorf("%s near the largest int passes Check", name)
		} else if len(err.Error()) > 300 {
			t.Errorf("%s: an error of %d bytes", name, len(err.Error()))
		}
	}
	if err := s.Check(); err != nil {
		t.Errorf("the state itself: %v", err)
	}
}

// TestNamesLongerThanMaxNameAreRefused: a megabyte member name (or party,
// skill, type or policy name) is refused by Validate with an error of a
// few hundred bytes at most, before any work is done with it.
func TestNamesLongerThanMaxNameAreRefused(t *testing.T) {
	long := strings.Repeat("x", 1<<20)
	for name, set := range map[string]func(*Scenario){
		"member":       func(s *Scenario) { s.Parties[0].Members[0].Name = long },
		"party":        func(s *Scenario) { s.Parties[0].Name = long },
		"skill":        func(s *Scenario) { s.Parties[0].Members[0].Skills[long] = 1 },
		"type":         func(s *Scenario) { s.Type = long },
		"policy":       func(s *Scenario) { s.Parties[0].Policy = long },
		"rules type":   func(s *Scenario) { s.Rules.Types[long] = s.Rules.Types["chase"] },
		"opposed":      func(s *Scenario) { s.Rules.Opposed = append(s.Rules.Opposed, [2]string{"a", long}) },
		"circumstance": func(s *Scenario) { s.Circumstances = map[string]int{long: 1} },
		"factor":       func(s *Scenario) { s.Factors = []Factor{{Skill: "reflex", DC: 10, Parties: []string{long}}} },
	} {
		s := DefaultScenario()
		set(&s)
		err := s.Validate()
		if err == nil || !strings.Contains(err.Error(), "names are at most") {
			t.Errorf("%s name of 1 MB: %.200v", name, err)
			continue
		}
		if len(err.Error()) > 300 {
			t.Errorf("%s: an error of %d bytes", name, len(err.Error()))
		}
	}
	s := DefaultScenario()
	s.Parties[0].Members[0].Name = strings.Repeat("x", MaxName)
	if err := s.Validate(); err != nil {
		t.Errorf("a name of MaxName bytes: %v", err)
	}
}

// TestSavedNameErrorsStayShort: a saved game naming a megabyte member is
// refused with an error of a few hundred bytes.
func TestSavedNameErrorsStayShort(t *testing.T) {
	g := startGame(t, DefaultScenario())
	if err := g.Step(dice.NewSeeded(1)); err != nil {
		t.Fatal(err)
	}
	saved, err := g.Save()
	if err != nil {
		t.Fatal(err)
	}
	bad := strings.Replace(string(saved), `"name":"Becky","last_round"`, `"name":"`+strings.Repeat("y", 500_000)+`","last_round"`, 1)
	if _, err := (Scenario{}).Restore([]byte(bad)); err == nil || len(err.Error()) > 300 {
		t.Errorf("restoring a long unknown member: %.300v (%d bytes)", err, len(err.Error()))
	}
}

// TestExactAndSolveRefuseHugePoolsBeforeAnyWork: odds of start_edge 240
// and a solve of start_edge 100 are refused at once (markov.ErrTooLarge),
// where they ground for 15 and over 60 seconds.
func TestExactAndSolveRefuseHugePoolsBeforeAnyWork(t *testing.T) {
	for _, c := range []struct {
		edge  int
		solve bool
	}{{240, false}, {100, true}, {12, true}} {
		s := DefaultScenario()
		s.Rules.StartEdge = c.edge
		start := time.Now()
		var err error
		if c.solve {
			_, err = s.Solve(context.Background(), markov.Goal{})
		} else {
			_, err = s.Exact(context.Background())
		}
		if !errors.Is(err, markov.ErrTooLarge) || !errors.Is(err, markov.ErrNoExact) {
			t.Errorf("start_edge %d (solve %v): %v, want ErrTooLarge", c.edge, c.solve, err)
		}
		if d := time.Since(start); d > time.Second {
			t.Errorf("start_edge %d (solve %v) refused after %v", c.edge, c.solve, d)
		}
	}
}

// TestExactAndSolveHonourTheirContext: cancelled while at work, Exact of
// the built-in chase and Solve of a larger one return the context's error
// well within a second of the cancel (the bound is measured, not timed
// against a loaded machine's clock beyond that second).
func TestExactAndSolveHonourTheirContext(t *testing.T) {
	big := DefaultScenario()
	big.Rules.StartEdge = 10
	for _, c := range []struct {
		name string
		run  func(context.Context) error
	}{
		{"Exact", func(ctx context.Context) error { _, err := DefaultScenario().Exact(ctx); return err }},
		{"Solve", func(ctx context.Context) error { _, err := big.Solve(ctx, markov.Goal{}); return err }},
	} {
		for _, after := range []time.Duration{time.Millisecond, 30 * time.Millisecond, 150 * time.Millisecond} {
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() { done <- c.run(ctx) }()
			time.Sleep(after)
			cancelled := time.Now()
			cancel()
			err := <-done
			d := time.Since(cancelled)
			t.Logf("%s cancelled after %v: returned in %v", c.name, after, d)
			if d > time.Second {
				t.Errorf("%s cancelled after %v returned %v later", c.name, after, d)
			}
			if err != nil && !errors.Is(err, context.Canceled) {
				t.Errorf("%s cancelled after %v: %v", c.name, after, err)
			}
		}
	}
}
