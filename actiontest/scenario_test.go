package actiontest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/dice/gof"
	"github.com/stakesrpg/stakes/sim/markov"
)

func TestScenarioJSON(t *testing.T) {
	s := DefaultScenario()
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var got Scenario
	if err := dec.Decode(&got); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(s, got, cmpopts.EquateEmpty()); d != "" {
		t.Errorf("round trip (-want +got):\n%s", d)
	}
	dec = json.NewDecoder(bytes.NewReader([]byte(`{"name":"x","bogus":1}`)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&got); err == nil {
		t.Error("unknown field accepted")
	}
}

func TestScenarioValidate(t *testing.T) {
	if err := DefaultScenario().Validate(); err != nil {
		t.Fatal(err)
	}
	for field, f := range map[string]func(*Scenario){
		"rules":                func(s *Scenario) { s.Rules.Sides = 0 },
		"character":            func(s *Scenario) { s.Character.Actions["Prowl"] = 9 },
		"state":                func(s *Scenario) { s.State = &State{} },
		"action":               func(s *Scenario) { s.Action = "Fly" },
		"position":             func(s *Scenario) { s.Position = "comfy" },
		"difficulty":           func(s *Scenario) { s.Difficulty = 0 },
		"helpers":              func(s *Scenario) { s.Helpers = -1 },
		"equipment":            func(s *Scenario) { s.Equipment = 4 },
		"goal":                 func(s *Scenario) { s.Goal = 0 },
		"peril_harm":           func(s *Scenario) { s.PerilHarm = 5 },
		"policy":               func(s *Scenario) { s.Policy = "yolo" },
		"max_tests":            func(s *Scenario) { s.MaxTests = 0 },
		"flashback_difficulty": func(s *Scenario) { s.FlashbackDifficulty = 21 },
		"flashback_position":   func(s *Scenario) { s.FlashbackPosition = "comfy" },
		"pool":                 func(s *Scenario) { s.Pool = -1 },
		"director":             func(s *Scenario) { s.Director = "cruel" },
		"spend":                func(s *Scenario) { s.Spend = "hoard" },
	} {
		s := DefaultScenario()
		s.Character.Actions = map[string]int{"Prowl": 2}
		f(&s)
		err := s.Validate()
		if err == nil || !bytes.HasPrefix([]byte(err.Error()), []byte(field)) {
			t.Errorf("%s: Validate = %v, want an error naming the field", field, err)
		}
		if _, err := s.NewRunner(); err == nil {
			t.Errorf("%s: NewRunner accepted", field)
		}
		if _, err := s.Exact(context.Background()); err == nil {
			t.Errorf("%s: Exact accepted", field)
		}
	}
}

// A one-segment chase with no pushing has a closed form: success at Risky,
// else one more try at Desperate, whose failure loses the chance.
func TestScenarioExactClosedForm(t *testing.T) {
	s := DefaultScenario()
	s.Goal, s.Policy, s.PerilOffered, s.Flashback = 1, "never", false, false
	ex, err := s.Exact(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	q := math.Pow(5.0/6, 4) // Prowl 2 + Dexterity 2
	s2 := s
	s2.Pool, s2.Character.Actions = 4, map[string]int{}
	if ex2, err := s2.Exact(context.Background()); err != nil || cmp.Diff(ex, ex2) != "" {
		t.Errorf("pool 4 on an unrated sheet differs from Prowl 2 + Dexterity 2: %v %v", ex2, err)
	}
	want := markov.Answer{P: []float64{1 - q*q, 0, q * q, 0, 0}, MeanRounds: 1 + q, Rounds: []float64{0, 1 - q, q}}
	if d := cmp.Diff(want, ex, cmpopts.EquateApprox(0, 1e-12)); d != "" {
		t.Errorf("exact (-want +got):\n%s", d)
	}

	// With the flashback: after the Risky failure a Risky flashback of 4
	// dice either adds a die to the Desperate try (5 dice) or fails badly,
	// costing a moderate harm (-2 dice: 2 dice, and hurt).
	s.Flashback, s.FlashbackPosition = true, "risky"
	if ex, err = s.Exact(context.Background()); err != nil {
		t.Fatal(err)
	}
	q5, q2 := math.Pow(5.0/6, 5), math.Pow(5.0/6, 2)
	want.P = []float64{(1 - q) + q*(1-q)*(1-q5), q * q * (1 - q2), q*(1-q)*q5 + q*q*q2, 0, 0}
	if d := cmp.Diff(want, ex, cmpopts.EquateApprox(0, 1e-12)); d != "" {
		t.Errorf("exact with flashback (-want +got):\n%s", d)
	}
}

func TestScenarioExactMatchesRunner(t *testing.T) {
	trials := 60000
	if testing.Short() {
		trials = 15000
	}
	variants := map[string]func(*Scenario){
		"default":     func(*Scenario) {},
		"daring":      func(s *Scenario) { s.Policy = "daring"; s.Character.Actions["Prowl"] = 1 },
		"when failed": func(s *Scenario) { s.Policy = "always_when_failed"; s.Difficulty = 2; s.Goal = 2 },
		"no reset":    func(s *Scenario) { s.ResetPosition = false; s.Position = "controlled"; s.Policy = "cautious" },
		"hurt start": func(s *Scenario) {
			st := State{Harm: harmOf([3]int{2, 1, 0}, [3]int{})}
			s.State = &st
		},
		"heal first": func(s *Scenario) {
			st := State{Harm: harmOf([3]int{2, 1, 0}, [3]int{})}
			s.State, s.Spend, s.Goal = &st, "heal_first", 3
		},
		"hurt then healed": func(s *Scenario) {
			// Controlled failures hurt but still succeed; extras heal.
			s.Position, s.Spend, s.Goal, s.Pool = "controlled", "heal_first", 4, 6
		},
		"bonus dice": func(s *Scenario) { s.Spend = "bonus_dice"; s.Policy = "always_when_failed" },
		"harsh":      func(s *Scenario) { s.Director = "harsh" },
		"gentle":     func(s *Scenario) { s.Director = "gentle"; s.Policy = "daring" },
	}
	seed := uint64(40)
	for name, f := range variants {
		seed++
		s := DefaultScenario()
		s.Character.Actions = map[string]int{"Prowl": 2, "Athletics": 1}
		f(&s)
		ex, err := s.Exact(context.Background())
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if tot := sum(ex.P); math.Abs(tot-1) > 1e-9 {
			t.Errorf("%s: category odds sum to %v", name, tot)
		}
		rn, err := s.NewRunner()
		if err != nil {
			t.Fatal(err)
		}
		r := dice.NewSeeded(seed)
		cats, rounds := map[int]int64{}, map[int]int64{}
		m := make([]int, len(s.Metrics()))
		total := 0
		for range trials {
			c, err := rn.Trial(r, m)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			cats[c]++
			rounds[m[0]]++
			total += m[0]
		}
		fit, err := gof.ChiSquare(dice.Dist{P: ex.P}, cats)
		if err != nil || fit.PValue < 1e-4 {
			t.Errorf("%s: categories p=%v err=%v; exact %v, sampled %v", name, fit.PValue, err, ex.P, cats)
		}
		fit, err = gof.ChiSquare(dice.Dist{P: ex.Rounds}, rounds)
		if err != nil || fit.PValue < 1e-4 {
			t.Errorf("%s: tests taken p=%v err=%v", name, fit.PValue, err)
		}
		mean := 0.0
		for k, p := range ex.Rounds {
			mean += float64(k) * p
		}
		if math.Abs(mean-ex.MeanRounds) > 1e-9 {
			t.Errorf("%s: mean of Rounds %v, MeanRounds %v", name, mean, ex.MeanRounds)
		}
		if got := float64(total) / float64(trials); math.Abs(got-ex.MeanRounds) > 0.05*ex.MeanRounds {
			t.Errorf("%s: sampled mean tests %v, exact %v", name, got, ex.MeanRounds)
		}
	}
}

func sum(p []float64) float64 {
	t := 0.0
	for _, x := range p {
		t += x
	}
	return t
}

// A table whose failure neither ends the pursuit nor changes anything lets
// it loop: the sampler stops at max_tests, and Exact says it cannot answer.
func TestScenarioNoExact(t *testing.T) {
	s := DefaultScenario()
	s.Escalate = false
	s.Rules.Table[1].Failure = Outcome{Kind: Badly} // risky, the scenario's position
	if _, err := s.Exact(context.Background()); !errors.Is(err, markov.ErrNoExact) {
		t.Errorf("looping pursuit: Exact error %v", err)
	}
	s = DefaultScenario()
	s.MaxTests = 2
	if _, err := s.Exact(context.Background()); !errors.Is(err, markov.ErrNoExact) {
		t.Errorf("max_tests too short: Exact error %v", err)
	}
}

func TestScenarioOut(t *testing.T) {
	// Severe on both tracks, every row full: no push possible, so out at once.
	s := DefaultScenario()
	s.State = &State{Harm: harmOf([3]int{2, 2, 1}, [3]int{2, 2, 1})}
	ex, err := s.Exact(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := markov.Answer{P: []float64{0, 0, 0, 1, 0}, MeanRounds: 0, Rounds: []float64{1}}
	if d := cmp.Diff(want, ex); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	rn, _ := s.NewRunner()
	m := make([]int, 7)
	if c, err := rn.Trial(dice.NewSeeded(1), m); err != nil || Category(c) != catOut || m[0] != 0 {
		t.Errorf("trial: category %d tests %d", c, m[0])
	}
}

func TestTrialAllocs(t *testing.T) {
	for _, f := range []func(*Scenario){
		func(*Scenario) {},
		func(s *Scenario) { s.Spend, s.Director = "heal_first", "harsh" },
		func(s *Scenario) { s.Spend, s.Director = "bonus_dice", "gentle" },
	} {
		s := DefaultScenario()
		f(&s)
		rn, err := s.NewRunner()
		if err != nil {
			t.Fatal(err)
		}
		r := dice.NewSeeded(3)
		m := make([]int, 6)
		rn.Trial(r, m) // the first trial may size the spender's buffers
		if a := testing.AllocsPerRun(1000, func() { rn.Trial(r, m) }); a != 0 {
			t.Errorf("spend %q, director %q: Trial allocates %v per run", s.Spend, s.Director, a)
		}
	}
}

// One chase step by step with scripted dice: a Risky miss worsens the
// position, the Controlled flashback lands exactly (+1 next roll, +1 for
// the flashback), and the Desperate try rolls 6 dice.
func TestScenarioTrialScripted(t *testing.T) {
	s := DefaultScenario()
	s.Goal, s.Policy = 1, "never"
	rn, err := s.NewRunner()
	if err != nil {
		t.Fatal(err)
	}
	r := dice.Scripted(1, 1, 1, 1 /* flashback */, 6, 1, 1, 1 /* desperate */, 6, 1, 1, 1, 1, 1)
	m := make([]int, len(s.Metrics()))
	cat, err := rn.Trial(r, m)
	if err != nil || r.Err() != nil || r.Remaining() != 0 {
		t.Fatalf("script: %v, %d left", r.Err(), r.Remaining())
	}
	if s.Categories()[cat] != "clean" {
		t.Errorf("category %s, want clean", s.Categories()[cat])
	}
	// tests, pushes, harm, successes, escalations, perils, flashbacks
	if d := cmp.Diff([]int{2, 0, 0, 1, 1, 0, 1}, m); d != "" {
		t.Errorf("metrics %v (-want +got):\n%s", s.Metrics(), d)
	}
}
