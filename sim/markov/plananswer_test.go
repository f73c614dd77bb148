package markov

import (
	"context"
	"errors"
	"math"
	"testing"
)

func near(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol {
		t.Errorf("%s = %.15g, want %.15g", what, got, want)
	}
}

// timidPlan is the worst play of the betting process: one coin a bet.
func timidPlan(t *testing.T) *Plan[int] {
	t.Helper()
	ctx := context.Background()
	p, err := ExploreProcess(ctx, 2, betting(0.4))
	if err != nil {
		t.Fatal(err)
	}
	pl, err := p.Solve(ctx, wins, Minimize)
	if err != nil {
		t.Fatal(err)
	}
	return pl
}

// TestPlanAnswerCountingEveryStepIsAnswerOfItsChain: with every step a
// round, a plan's Answer is AnswerOf the plan's chain: timid play from 2 of
// 4 coins wins 1.25/4.0625, takes 4 + ... bets on average, and ends after
// exactly 2 bets with probability 0.4^2 + 0.6^2 = 0.52.
func TestPlanAnswerCountingEveryStepIsAnswerOfItsChain(t *testing.T) {
	ctx := context.Background()
	pl := timidPlan(t)
	got, err := pl.Answer(ctx, 2, func(i int) int { return i / 4 }, nil)
	if err != nil {
		t.Fatal(err)
	}
	c, err := pl.Chain(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want, err := AnswerOf(ctx, c, 2, func(i int) int { return i / 4 }, 100000)
	if err != nil {
		t.Fatal(err)
	}
	near(t, "P(win)", got.P[1], 1.25/4.0625, 1e-12)
	near(t, "P(ruin)", got.P[0], want.P[0], 1e-12)
	near(t, "mean bets", got.MeanRounds, want.MeanRounds, 1e-12)
	near(t, "P(2 bets)", got.Rounds[2], 0.52, 1e-12)
	if len(got.Rounds) != len(want.Rounds) {
		t.Fatalf("%d round entries, AnswerOf %d", len(got.Rounds), len(want.Rounds))
	}
	for r := range got.Rounds {
		near(t, "Rounds", got.Rounds[r], want.Rounds[r], 1e-15)
	}
	if err := got.Check(2); err != nil {
		t.Error(err)
	}
}

// bet is a state of betting played in two steps a round: first the stake
// is chosen, then the coin falls.
type bet struct{ coins, stake int }

func twoStepBetting(p float64) func(bet) []Choice[bet] {
	return func(s bet) []Choice[bet] {
		switch {
		case s.coins == 0 || s.coins == 4:
			return nil
		case s.stake > 0:
			return []Choice[bet]{{Name: "coin", Steps: []Step[bet]{{bet{s.coins + s.stake, 0}, p}, {bet{s.coins - s.stake, 0}, 1 - p}}}}
		}
		var cs []Choice[bet]
		for b := 1; b <= min(s.coins, 4-s.coins); b++ {
			cs = append(cs, Choice[bet]{Name: "stake", Steps: []Step[bet]{{bet{s.coins, b}, 1}}})
		}
		return cs
	}
}

// TestPlanAnswerCountsRoundsNotSteps: the same betting in two steps a bet
// has the same answer when a round is a bet (a state where the stake is
// still to choose), and twice the steps when every step counts.
func TestPlanAnswerCountsRoundsNotSteps(t *testing.T) {
	ctx := context.Background()
	one, err := timidPlan(t).Answer(ctx, 2, func(i int) int { return i / 4 }, nil)
	if err != nil {
		t.Fatal(err)
	}
	p, err := ExploreProcess(ctx, bet{2, 0}, twoStepBetting(0.4))
	if err != nil {
		t.Fatal(err)
	}
	pl, err := p.Solve(ctx, func(s bet) float64 { return float64(s.coins / 4) }, Minimize)
	if err != nil {
		t.Fatal(err)
	}
	category := func(s bet) int { return s.coins / 4 }
	rounds, err := pl.Answer(ctx, 2, category, func(s bet) bool { return s.stake == 0 })
	if err != nil {
		t.Fatal(err)
	}
	steps, err := pl.Answer(ctx, 2, category, nil)
	if err != nil {
		t.Fatal(err)
	}
	near(t, "P(win)", rounds.P[1], one.P[1], 1e-12)
	near(t, "mean rounds", rounds.MeanRounds, one.MeanRounds, 1e-12)
	near(t, "mean steps", steps.MeanRounds, 2*one.MeanRounds, 1e-12)
	for r := range one.Rounds {
		near(t, "Rounds", rounds.Rounds[r], one.Rounds[r], 1e-15)
		if 2*r < len(steps.Rounds) {
			near(t, "Rounds by steps", steps.Rounds[2*r], one.Rounds[r], 1e-15)
		}
	}
}

// TestPlanAnswerServesAProcessTooLargeForAChain: a line of 6,000 states,
// each passed with probability 0.999, is past MaxStates for a chain; its
// plan's answer is still exact: the end is reached with probability
// 0.999^5999, and play stops at round t < 6000 with probability
// 0.999^(t-1) * 0.001.
func TestPlanAnswerServesAProcessTooLargeForAChain(t *testing.T) {
	ctx := context.Background()
	const n = 6000
	line := func(i int) []Choice[int] {
		if i < 0 || i == n {
			return nil
		}
		return []Choice[int]{{Name: "on", Steps: []Step[int]{{i + 1, 0.999}, {-1, 0.001}}}}
	}
	p, err := ExploreProcess(ctx, 1, line)
	if err != nil {
		t.Fatal(err)
	}
	if p.Len() <= MaxStates {
		t.Fatalf("%d states; the test needs more than MaxStates", p.Len())
	}
	pl, err := p.Solve(ctx, func(i int) float64 { return float64(i / n) }, Maximize)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pl.Chain(ctx); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("the plan's chain: %v; want ErrTooLarge", err)
	}
	a, err := pl.Answer(ctx, 2, func(i int) int { return max(i, 0) / n }, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := math.Pow(0.999, n-1)
	near(t, "P(end)", a.P[1], want, 1e-12)
	near(t, "plan value", pl.Start(), want, 1e-12)
	near(t, "P(stop at 10)", a.Rounds[10], math.Pow(0.999, 9)*0.001, 1e-15)
	// Mean rounds: sum over t of P(round t begins) = sum_{k<n-1} 0.999^k.
	near(t, "mean rounds", a.MeanRounds, (1-want)/0.001, 1e-9)
}

func TestPlanAnswerRefusals(t *testing.T) {
	ctx := context.Background()
	pl := timidPlan(t)
	if _, err := pl.Answer(ctx, 2, func(int) int { return 2 }, nil); err == nil {
		t.Error("a category out of range was accepted")
	}
	if _, err := pl.Answer(ctx, 0, func(int) int { return 0 }, nil); err == nil {
		t.Error("no categories was accepted")
	}
	if _, err := pl.Answer(ctx, 2, nil, nil); err == nil {
		t.Error("a nil category function was accepted")
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := pl.Answer(cancelled, 2, func(i int) int { return i / 4 }, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	// A start that ends play at once ends after no rounds.
	p, err := ExploreProcess(ctx, 4, betting(0.4))
	if err != nil {
		t.Fatal(err)
	}
	done, err := p.Solve(ctx, wins, Maximize)
	if err != nil {
		t.Fatal(err)
	}
	a, err := done.Answer(ctx, 2, func(i int) int { return i / 4 }, nil)
	if err != nil {
		t.Fatal(err)
	}
	if a.P[1] != 1 || len(a.Rounds) != 1 || a.Rounds[0] != 1 || a.MeanRounds != 0 {
		t.Errorf("answer from an absorbing start: %+v", a)
	}
}
