package actiontest

import (
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim/markov"
)

// reach is the goal of reaching the clock, hurt or not.
var reach = markov.Goal{Outcomes: []string{"clean", "hurt"}}

// oneTest is a pursuit of a single Risky test: Prowl 2 + Dexterity 2, four
// dice, normal difficulty, one segment; a failure loses the chance (the
// Risky failure's lost opportunity), no Worse Position, no deal, no
// flashback.
func oneTest() Scenario {
	s := DefaultScenario()
	s.Goal, s.Escalate, s.PerilOffered, s.Flashback = 1, false, false, false
	return s
}

// A single test with one push, solved by hand. Four dice fail with chance
// (5/6)^4; a push keeps the (no) successes and re-rolls all four with two
// more, six dice failing with chance (5/6)^6. A push can only add
// successes, and its lesser harm cannot end a one-test pursuit, so the
// best play pushes every failure: P = 1 - (5/6)^4 (5/6)^6 = 1 - (5/6)^10.
// The worst play never pushes: P = 1 - (5/6)^4.
func TestOptimalOneTestMatchesTheHandDerivedValue(t *testing.T) {
	s := oneTest()
	best, err := s.Optimal(context.Background(), reach, markov.Maximize)
	if err != nil {
		t.Fatal(err)
	}
	worst, err := s.Optimal(context.Background(), reach, markov.Minimize)
	if err != nil {
		t.Fatal(err)
	}
	if g := best.Goal; g.Side != s.Character.Name || best.Side != g.Side || !slices.Equal(g.Outcomes, []string{"clean", "hurt"}) {
		t.Errorf("solved goal %+v for %q; want the character's clean or hurt", g, best.Side)
	}
	if want := 1 - math.Pow(5.0/6, 10); math.Abs(best.Value-want) > 1e-12 {
		t.Errorf("best %.15f, by hand %.15f", best.Value, want)
	}
	if want := 1 - math.Pow(5.0/6, 4); math.Abs(worst.Value-want) > 1e-12 {
		t.Errorf("worst %.15f, by hand %.15f", worst.Value, want)
	}
	// The best play pushes failures only (a success has nothing to gain):
	// the hurt outcome is the pushed failures that came good, 1 - (5/6)^6
	// of the (5/6)^4 failures.
	if want := math.Pow(5.0/6, 4) * (1 - math.Pow(5.0/6, 6)); math.Abs(best.Answer.P[catHurt]-want) > 1e-12 || best.Answer.MeanRounds != 1 {
		t.Errorf("best play: hurt %.15f (by hand %.15f), mean tests %v", best.Answer.P[catHurt], want, best.Answer.MeanRounds)
	}
	if r := best.Answer.Rounds; len(r) != 2 || r[0] != 0 || math.Abs(r[1]-1) > 1e-15 {
		t.Errorf("best play's tests: %v, want every play ending after one", r)
	}
}

// The best play is at least, and the worst at most, every shipped
// policy's exact odds, on the built-in scenario and on variants that give
// the choices other weights.
func TestOptimalBoundsEveryShippedPolicy(t *testing.T) {
	variants := map[string]func(*Scenario){
		"rooftop chase":       func(*Scenario) {},
		"challenging":         func(s *Scenario) { s.Difficulty = 2 },
		"heal first":          func(s *Scenario) { s.Spend, s.Goal = "heal_first", 3 },
		"retries may push":    func(s *Scenario) { s.Rules.RetryMayPush = true },
		"harsh, no reset":     func(s *Scenario) { s.Director, s.ResetPosition = "harsh", false },
		"one test":            func(s *Scenario) { *s = oneTest() },
		"peril of no harm":    func(s *Scenario) { s.PerilHarm = 0 },
		"zero-roll flashback": func(s *Scenario) { s.FlashbackDifficulty = 0 },
	}
	for name, edit := range variants {
		s := DefaultScenario()
		edit(&s)
		for _, goal := range []markov.Goal{reach, {Outcomes: []string{"clean"}}, {Outcomes: []string{"out", "lost"}}} {
			sv, err := s.Solve(context.Background(), goal)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if err := sv.Check(); err != nil {
				t.Errorf("%s %v: %v", name, goal.Outcomes, err)
			}
			for _, p := range sv.Policies {
				if p.Value > sv.Best.Value+1e-12 || p.Value < sv.Worst.Value-1e-12 {
					t.Errorf("%s %v: %s's %.15f outside worst %.15f .. best %.15f", name, goal.Outcomes, p.Name, p.Value, sv.Worst.Value, sv.Best.Value)
				}
			}
			total := 0.0
			for _, p := range sv.Best.Answer.P {
				total += p
			}
			if math.Abs(total-1) > 1e-12 || sv.Gap < 0 {
				t.Errorf("%s %v: best answer sums to %v, gap %v", name, goal.Outcomes, total, sv.Gap)
			}
			// The plan's answer counts its tests as Exact does: the mean
			// of its distribution is its mean.
			mean := 0.0
			for k, q := range sv.Best.Answer.Rounds {
				mean += float64(k) * q
			}
			if math.Abs(mean-sv.Best.Answer.MeanRounds) > 1e-9 || sv.Best.Answer.Tail > markov.RoundsTolerance {
				t.Errorf("%s %v: tests %v average %v, mean %v", name, goal.Outcomes, sv.Best.Answer.Rounds, mean, sv.Best.Answer.MeanRounds)
			}
		}
	}
}

// The optimal Policy plays the plan in the Runner: its sampled rate of
// reaching the clock falls within a 99.9% interval of the exact value.
func TestOptimalPolicySampledMatchesItsExactValue(t *testing.T) {
	s := DefaultScenario()
	o, err := s.Optimal(context.Background(), reach, markov.Maximize)
	if err != nil {
		t.Fatal(err)
	}
	rn, err := s.NewRunner()
	if err != nil {
		t.Fatal(err)
	}
	r := dice.NewSeeded(24)
	const trials = 40000
	hits := 0
	for range trials {
		rn.reset()
		for !rn.Pursuit.Ended {
			if err := rn.step(r, o.Policy); err != nil {
				t.Fatal(err)
			}
		}
		if c := rn.Pursuit.Category; c == catClean || c == catHurt {
			hits++
		}
	}
	got := float64(hits) / trials
	half := 3.29 * math.Sqrt(o.Value*(1-o.Value)/trials)
	if math.Abs(got-o.Value) > half {
		t.Errorf("sampled %.4f, exact %.4f ± %.4f", got, o.Value, half)
	}
	// Outside a pursuit the policy has no plan: it declines and pushes
	// only when it must.
	v := View{MustPush: true, PushTrack: "mental"}
	if push, track := o.Policy.Push(&v); !push || track != "mental" || o.Policy.Peril(&v) {
		t.Errorf("outside a pursuit: push %v on %q", push, track)
	}
}

// Solve on the built-in scenario: decisions matter (a gap of more than
// half the odds), and the advice opens with declining the Risk Peril deal
// before the first test, where the most rides on it.
func TestSolveRooftopChase(t *testing.T) {
	sv, err := DefaultScenario().Solve(context.Background(), reach)
	if err != nil {
		t.Fatal(err)
	}
	if sv.Side != "Vex" || sv.Method != "exact" || len(sv.Policies) != len(PolicyNames()) || sv.Gap < 0.5 || sv.States == 0 || sv.Choices <= sv.States {
		t.Errorf("solved %+v", sv)
	}
	if len(sv.Advice) == 0 || len(sv.Advice) > markov.MaxAdvice {
		t.Fatalf("%d lines of advice", len(sv.Advice))
	}
	if sv.Own.Name != DefaultScenario().Policy || sv.Worth <= 0 || sv.Worth >= sv.Gap {
		t.Errorf("own play %q worth %v (gap %v)", sv.Own.Name, sv.Worth, sv.Gap)
	}
	for i, a := range sv.Advice[1:] {
		if a.Worth > sv.Advice[i].Worth {
			t.Errorf("advice %d worth %v above the line before it (%v)", i+1, a.Worth, sv.Advice[i].Worth)
		}
	}
	first := sv.Advice[0]
	if !strings.Contains(first.When, "Risk Peril deal before a risky test, unhurt") || first.Do != choiceDeclinePeril || first.Worth <= 0 || first.Reach < 1 {
		t.Errorf("first advice %+v", first)
	}
}

// Unknown outcomes and sides are refused, naming what is allowed; a
// cancelled context stops the solve; a scenario outside the exact model
// says so.
func TestSolveRefusals(t *testing.T) {
	s := DefaultScenario()
	ctx := context.Background()
	for _, tc := range []struct {
		goal markov.Goal
		want string
	}{
		{markov.Goal{Outcomes: []string{"rich"}}, `"clean", "hurt", "lost", "out", "stalled"`},
		{markov.Goal{Outcomes: []string{"clean"}, Side: "the quarry"}, `"", "Vex"`},
	} {
		if _, err := s.Solve(ctx, tc.goal); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("goal %+v: %v, want %s", tc.goal, err, tc.want)
		}
		if _, err := s.Optimal(ctx, tc.goal, markov.Maximize); err == nil {
			t.Errorf("Optimal accepted goal %+v", tc.goal)
		}
	}
	if _, err := s.Solve(ctx, markov.Goal{Outcomes: []string{"clean"}, Side: "Vex"}); err != nil {
		t.Errorf("the character by name: %v", err)
	}
	// No outcome named plays for the pursuit won, hurt or not.
	sv, err := s.Solve(ctx, markov.Goal{})
	if want, _ := s.Solve(ctx, reach); err != nil || !slices.Equal(sv.Goal.Outcomes, []string{"clean", "hurt"}) || sv.Best.Value != want.Best.Value {
		t.Errorf("default goal %v best %v (%v); want clean and hurt at %v", sv.Goal.Outcomes, sv.Best.Value, err, want.Best.Value)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := s.Solve(cancelled, reach); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	loop := s
	loop.Director, loop.Escalate = "gentle", false // failures neither end nor hurt: only max_tests ends it
	for i := range loop.Rules.Table {
		loop.Rules.Table[i].Failure.Consequences = []Consequence{{Kind: Complication}}
	}
	if _, err := loop.Solve(ctx, reach); !errors.Is(err, markov.ErrNoExact) {
		t.Errorf("a pursuit that can loop: %v", err)
	}
}

// A pursuit whose decision process passes markov.MaxProcessStates is
// refused, saying so, before any plan is solved. (Exploring that far takes
// seconds: left out of -short runs.)
func TestSolveOfTooLargeAPursuitIsRefused(t *testing.T) {
	if testing.Short() {
		t.Skip("explores a quarter of a million states")
	}
	s := DefaultScenario()
	s.Goal, s.Rules.HarmRows[0].Slots, s.Rules.HarmRows[1].Slots = 50, 4, 4
	_, err := s.Solve(context.Background(), reach)
	if !errors.Is(err, markov.ErrTooLarge) || !errors.Is(err, markov.ErrNoExact) {
		t.Errorf("a 50-segment clock with 4-slot rows: %v, want ErrTooLarge", err)
	}
}

// Each built-in scenario solved well under a second.
func BenchmarkSolve(b *testing.B) {
	s := DefaultScenario()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Solve(context.Background(), reach); err != nil {
			b.Fatal(err)
		}
	}
}

// keepsFlashback plays as Never but never calls the flashback.
type keepsFlashback struct{ Never }

func (keepsFlashback) Flashback(*View) bool { return false }

// Calling the flashback is the policy's choice: a Runner offers it after a
// worsening failure and rolls it only when called, and the solver weighs
// calling it against keeping it.
func TestFlashbackIsThePolicysChoice(t *testing.T) {
	s := DefaultScenario()
	rn, err := s.NewRunner()
	if err != nil {
		t.Fatal(err)
	}
	r := dice.NewSeeded(5)
	count := func(p Policy) (offered, called int) {
		for range 2000 {
			rn.reset()
			for !rn.Pursuit.Ended {
				due := rn.Pursuit.FlashbackDue
				if err := rn.step(r, p); err != nil {
					t.Fatal(err)
				}
				if due {
					offered++
				}
			}
			called += rn.Pursuit.Metrics[metFlashbacks]
		}
		return offered, called
	}
	if offered, called := count(Never{}); offered == 0 || called != offered {
		t.Errorf("never: offered %d, called %d; want every offer called", offered, called)
	}
	if offered, called := count(keepsFlashback{}); offered == 0 || called != 0 {
		t.Errorf("keeps the flashback: offered %d, called %d; want none called", offered, called)
	}
	o, err := s.Optimal(context.Background(), reach, markov.Maximize)
	if err != nil {
		t.Fatal(err)
	}
	weighed := false
	ds, err := o.plan.Decisions(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range ds {
		weighed = weighed || (len(d.Options) == 2 && d.Options[0].Name == choiceKeepFlashback && d.Options[1].Name == choiceFlashback)
	}
	if !weighed {
		t.Error("the solver never weighs calling the flashback against keeping it")
	}
}
