package actiontest

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"runtime"
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

// Every list of the rules and of a state is counted before it is read:
// a million entries in any one is refused with a short error, and the
// check allocates next to nothing on the way (not a copy of the list, nor
// names gathered from it).
func TestEveryListIsCountedBeforeItIsRead(t *testing.T) {
	const n = 1_000_000
	many := make([]string, n)
	for i := range many {
		many[i] = "p"
	}
	rules := map[string]func(*Rules){
		"attributes":       func(rl *Rules) { rl.Attributes = make([]Attribute, n) },
		"actions":          func(rl *Rules) { rl.Actions = make([]ActionDef, n) },
		"harm_tracks":      func(rl *Rules) { rl.HarmTracks = many },
		"harm_rows":        func(rl *Rules) { rl.HarmRows = make([]HarmRow, n) },
		"positions":        func(rl *Rules) { rl.Positions = many },
		"table":            func(rl *Rules) { rl.Table = make([]TableRow, n) },
		"effects":          func(rl *Rules) { rl.Effects = make([]Effect, n) },
		"effect's actions": func(rl *Rules) { rl.Effects[0].Actions = many },
		"consequences":     func(rl *Rules) { rl.Table[0].Failure.Consequences = make([]Consequence, n) },
		"opposed":          func(rl *Rules) { rl.Opposed.Lose.Consequences = make([]Consequence, n) },
	}
	for name, edit := range rules {
		c := newChar(t, DefaultRules())
		edit(&c.Rules)
		refusedSmall(t, "rules "+name, c.Check)
	}
	state := map[string]func(*State){
		"harm":      func(c *State) { c.Harm = make([]TrackHarm, n) },
		"harm rows": func(c *State) { c.Harm[0].Rows = make([]int, n) },
		"equipment": func(c *State) { c.Sheet.Equipment = many },
		"dice": func(c *State) {
			c.Attempt = Attempt{Test: Test{Action: "Prowl", Position: Risky, Difficulty: 1}, Stage: Rolled, Pool: Pool{Dice: 4}, Dice: make([]int, n)}
		},
		"bought": func(c *State) {
			c.Attempt = Attempt{Test: Test{Action: "Prowl", Position: Risky, Difficulty: 1}, Stage: Finished, Pool: Pool{Dice: 1},
				Dice: []int{6}, Successes: 1, Required: 1, Band: BandSuccess, Bought: make([]Bought, n)}
		},
	}
	for name, edit := range state {
		c := newChar(t, DefaultRules())
		edit(c)
		refusedSmall(t, "state "+name, c.Check)
	}
}

// refusedSmall says that check refuses, with a short error, allocating
// less than 64 KiB.
func refusedSmall(t *testing.T, name string, check func() error) {
	t.Helper()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	err := check()
	runtime.ReadMemStats(&after)
	if err == nil || len(err.Error()) > 300 {
		t.Errorf("%s: %.300v", name, err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 64<<10 {
		t.Errorf("%s: refused after allocating %d bytes", name, got)
	}
}

// The solver's work is bounded before it is done: a pursuit whose
// decision process passes maxSituations situations (a clock of 100
// segments, once 28 s and 347 MB before a refusal) or needs more than
// maxPlays steps played to explore (pools of 50 dice, with and without an
// opponent of 32) is refused, wrapping markov.ErrNoExact and
// markov.ErrTooLarge, having explored no more than the bounds allow.
func TestSolverRefusesPastItsBoundsWithinThem(t *testing.T) {
	bigPools := func(s *Scenario) {
		s.Pool, s.Helpers, s.Rules.HelpDice, s.Rules.MaxHelp = 32, 3, 6, 18
		s.Goal, s.Difficulty, s.MaxTests = 10, 10, 100000
	}
	for name, edit := range map[string]func(*Scenario){
		"a clock of 100": func(s *Scenario) { s.Goal, s.MaxTests = 100, 100000 },
		"pools of 50":    bigPools,
		"pools of 50 against 32": func(s *Scenario) {
			bigPools(s)
			s.Opponent = 32
		},
	} {
		if testing.Short() && name != "a clock of 100" {
			continue // each explores for a second or more
		}
		s := DefaultScenario()
		edit(&s)
		m, err := s.newModel()
		if err != nil {
			t.Fatal(err)
		}
		_, err = m.explore(context.Background())
		if !errors.Is(err, markov.ErrNoExact) || !errors.Is(err, markov.ErrTooLarge) {
			t.Errorf("%s: %v", name, err)
		}
		// One choice plays at most one probe and a roll of each count.
		if len(m.trans) > maxSituations || m.plays > maxPlays+2*(maxModelDice+1)*(maxDice/8+1) {
			t.Errorf("%s: explored %d situations, played %d steps", name, len(m.trans), m.plays)
		}
	}
}

// A trial ends in bounded work: max_tests is at most 100,000, and the
// longest valid pursuit (one no failure ends, whose difficulty its pool
// of 55 dice hardly ever meets) stalls after exactly that many tests.
func TestTrialsEndWithinMaxTests(t *testing.T) {
	s := DefaultScenario()
	s.Director, s.Escalate, s.PerilOffered = "gentle", false, false
	s.Goal, s.Difficulty, s.MaxTests, s.Pool, s.Helpers, s.Equipment = 100, 20, 100000, 32, 20, 3
	s.Rules.MaxHelp, s.Rules.HelpDice = 20, 20
	for i := range s.Rules.Table {
		s.Rules.Table[i].Failure.Consequences = []Consequence{{Kind: Complication}}
	}
	rn, err := s.NewRunner()
	if err != nil {
		t.Fatal(err)
	}
	m := make([]int, numMetrics)
	if c, err := rn.Trial(dice.NewSeeded(38), m); err != nil || Category(c) != catStalled || m[metTests] != s.MaxTests {
		t.Errorf("category %v after %d tests (%v); want stalled after %d", Category(c), m[metTests], err, s.MaxTests)
	}
	s.MaxTests = 100001
	if err := s.Validate(); err == nil || !strings.Contains(err.Error(), "max_tests") {
		t.Errorf("max_tests 100001: %v", err)
	}
}
