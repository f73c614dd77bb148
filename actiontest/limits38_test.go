package actiontest

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/stakesrpg/stakes/dice"

	"github.com/stakesrpg/stakes/sim/markov"
)

// Every list of the rules is bounded, and checked before anything walks
// it: rules of 10^6 positions (or actions, tracks, consequences) are
// refused at once with a short error, and so is a saved state carrying
// them.
func TestRulesListsOfAMillionAreRefusedAtOnce(t *testing.T) {
	const n = 1_000_000
	many := make([]string, n)
	for i := range many {
		many[i] = "p"
	}
	for name, edit := range map[string]func(*Rules){
		"positions":        func(rl *Rules) { rl.Positions = many },
		"harm_tracks":      func(rl *Rules) { rl.HarmTracks = many },
		"actions":          func(rl *Rules) { rl.Actions = make([]ActionDef, n) },
		"attributes":       func(rl *Rules) { rl.Attributes = make([]Attribute, n) },
		"consequences":     func(rl *Rules) { rl.Table[0].Failure.Consequences = make([]Consequence, n) },
		"effect's actions": func(rl *Rules) { rl.Effects[0].Actions = many },
		"a long name":      func(rl *Rules) { rl.Actions[0].Name = strings.Repeat("x", 1<<20) },
	} {
		rl := DefaultRules()
		edit(&rl)
		start := time.Now()
		err := rl.Validate()
		if err == nil || !errors.Is(err, ErrRules) || len(err.Error()) > 300 {
			t.Errorf("%s: %.300v", name, err)
		}
		if d := time.Since(start); d > time.Second {
			t.Errorf("%s: refused after %v", name, d)
		}
	}
	c := newChar(t, DefaultRules())
	c.Rules.Positions = many[:1000]
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := restoreState(b); err == nil || len(err.Error()) > 300 {
		t.Errorf("a saved state with 1,000 positions: %.300v", err)
	}
}

// An unknown name among many allowed ones gives an error of a few hundred
// bytes, listing a few names and counting the rest.
func TestUnknownNameErrorsStayShort(t *testing.T) {
	rl := DefaultRules()
	for i := len(rl.Actions); i < maxList; i++ {
		rl.Actions = append(rl.Actions, ActionDef{Name: strings.Repeat("a", maxName-4) + string(rune('A'+i/26)) + string(rune('a'+i%26)), Attribute: "Strength"})
	}
	if err := rl.Validate(); err != nil {
		t.Fatal(err)
	}
	huge := strings.Repeat("y", 100_000)
	c, err := NewState(rl, Sheet{})
	if err != nil {
		t.Fatal(err)
	}
	for name, err := range map[string]error{
		"action":   eng.CanBegin(c, Test{Action: huge, Difficulty: 1}),
		"track":    eng.CanPush(c, huge),
		"effect":   eng.Spend(c, huge),
		"position": eng.CanBegin(c, Test{Action: "Prowl", Position: Position(huge), Difficulty: 1}),
		"sheet":    func() error { _, err := NewState(rl, Sheet{Actions: map[string]int{huge: 1}}); return err }(),
		"director": func() error { _, err := DirectorByName(huge); return err }(),
	} {
		if err == nil || len(err.Error()) > 400 {
			t.Errorf("%s: %d-byte error %.400v", name, len(err.Error()), err)
		}
	}
}

// Solve refuses a goal of 100 (a pursuit longer than max_tests) before it
// builds the decision process: in well under a second, not 28.
func TestSolveRefusesAGoalOf100BeforeBuilding(t *testing.T) {
	s := DefaultScenario()
	s.Goal = 100
	start := time.Now()
	_, err := s.Solve(context.Background(), markov.Goal{})
	if !errors.Is(err, markov.ErrNoExact) {
		t.Errorf("goal 100: %v", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("refused after %v", d)
	}
}

// Exact and Solve stop within a second of a cancel (the bound is 100 ms on
// an idle machine): Solve of a goal of 100 takes seconds uncancelled.
func TestExactAndSolveStopWhenCancelled(t *testing.T) {
	s := DefaultScenario()
	s.Goal, s.MaxTests = 100, 100000
	for name, run := range map[string]func(context.Context) error{
		"exact": func(ctx context.Context) error { _, err := s.Exact(ctx); return err },
		"solve": func(ctx context.Context) error { _, err := s.Solve(ctx, markov.Goal{}); return err },
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
		start := time.Now()
		err := run(ctx)
		cancel()
		if d := time.Since(start); d > time.Second+20*time.Millisecond {
			t.Errorf("%s: stopped %v after the cancel", name, d-20*time.Millisecond)
		}
		if err != nil && !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("%s: %v, want the deadline (or an answer found first)", name, err)
		}
	}
}

// Exact gives the same bits on every call: the walk adds in the
// transitions' order, never a map's.
func TestExactGivesTheSameBitsEveryCall(t *testing.T) {
	for _, s := range []Scenario{DefaultScenario(), opposedChase()} {
		first, err := s.Exact(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for range 50 {
			again, err := s.Exact(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			for i := range first.P {
				if math.Float64bits(first.P[i]) != math.Float64bits(again.P[i]) {
					t.Fatalf("%s: P[%d] %v then %v", s.Name, i, first.P[i], again.P[i])
				}
			}
			if math.Float64bits(first.MeanRounds) != math.Float64bits(again.MeanRounds) {
				t.Fatalf("%s: mean %v then %v", s.Name, first.MeanRounds, again.MeanRounds)
			}
		}
	}
}

// State.Check bounds every count a step adds to, so that no sum in a
// check or a step wraps: a pool of 2^63-6 dice (which once passed "pool +
// push dice <= 256" by wrapping) and pool terms near 2^63 are refused.
func TestCheckRefusesCountsThatWouldWrap(t *testing.T) {
	for name, edit := range map[string]func(*State){
		"pool dice":    func(c *State) { c.Attempt.Pool.Dice = math.MaxInt - 5 },
		"pool penalty": func(c *State) { c.Attempt.Pool.Penalty = math.MaxInt },
		"pool help":    func(c *State) { c.Attempt.Pool.Help = math.MinInt },
		"critical":     func(c *State) { c.Harm[0].Critical = math.MaxInt },
		"bonus":        func(c *State) { c.Bonus = math.MaxInt },
		"opponent":     func(c *State) { c.Attempt.Opponent = math.MaxInt },
		"successes":    func(c *State) { c.Attempt.Successes = math.MaxInt },
		"flashbacks":   func(c *State) { c.FlashbacksUsed = math.MinInt },
		"spent":        func(c *State) { c.Attempt.Spent = math.MaxInt },
	} {
		c := newChar(t, DefaultRules())
		if err := eng.Begin(c, dice.Scripted(6, 6, 1, 1), Test{Action: "Prowl", Position: Risky, Difficulty: 1, NoHarm: true}); err != nil {
			t.Fatal(err)
		}
		if err := eng.Finish(c); err != nil {
			t.Fatal(err)
		}
		edit(c)
		if err := c.Check(); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
