package markov

import (
	"context"
	"errors"
	"fmt"
	"math"
)

// ErrNoExact is wrapped by the error of every mechanic's Exact whose
// scenario falls outside its exact model (too many parties, a rule the
// chain does not follow, a chain too large); the error says why. Check for
// it with errors.Is.
var ErrNoExact = errors.New("no exact answer for this scenario")

// ErrTooLarge is wrapped by Explore's error when more than MaxStates
// states are reachable (ExploreProcess's: MaxProcessStates or
// MaxTransitions), and by a solve that would not settle within its bound:
// the model is too large to solve exactly.
var ErrTooLarge = errors.New("markov: chain too large")

// Answer is the exact behaviour of a scenario, the value every mechanic's
// Exact returns: the probability of each outcome category, and the
// expected value and distribution of its first metric, the number of
// rounds.
type Answer struct {
	// P[i] is the probability of outcome category i, aligned with the
	// scenario's Categories; the entries sum to 1.
	P []float64 `json:"p"`
	// MeanRounds is the expected number of rounds.
	MeanRounds float64 `json:"mean_rounds"`
	// Rounds[t] is the probability that the scenario ends after exactly t
	// rounds. It stops where the mass still unended falls below a tiny
	// tolerance (documented by each mechanic); Tail holds that mass.
	Rounds []float64 `json:"rounds,omitempty"`
	// Tail is the probability cut off the end of Rounds.
	Tail float64 `json:"tail,omitempty"`
	// Means holds the expected value of other metrics the exact model
	// knows, by metric name (Chain.ExpectedReward computes such means).
	Means map[string]float64 `json:"means,omitempty"`
}

// Check reports whether a holds one probability per category (n of them),
// each in [0, 1], summing to 1 within 1e-9, and a finite mean.
func (a Answer) Check(n int) error {
	if len(a.P) != n {
		return fmt.Errorf("markov: answer has %d probabilities for %d categories", len(a.P), n)
	}
	total := 0.0
	for i, p := range a.P {
		if !(p >= -1e-12 && p <= 1+1e-12) {
			return fmt.Errorf("markov: answer's probability %d is %v, outside [0, 1]", i, p)
		}
		total += p
	}
	if math.Abs(total-1) > 1e-9 {
		return fmt.Errorf("markov: answer's probabilities sum to %v, not 1", total)
	}
	if math.IsNaN(a.MeanRounds) || math.IsInf(a.MeanRounds, 0) || a.MeanRounds < 0 {
		return fmt.Errorf("markov: answer's mean rounds is %v", a.MeanRounds)
	}
	return nil
}

// RoundsTolerance is where AnswerOf cuts the distribution of rounds: it
// stops once less than this much probability is still unended.
const RoundsTolerance = 1e-13

// AnswerOf solves a chain in which one transition is one round and reads
// it as an Answer: category maps each absorbing state to its outcome
// category, 0..categories-1. Rounds runs until less than RoundsTolerance
// is unended, or to maxRounds. A category out of range is an error. Each
// category's probability is summed in the chain's state order
// (Solution.All), so the answer has the same bits on every call.
func AnswerOf[S comparable](ctx context.Context, c *Chain[S], categories int, category func(S) int, maxRounds int) (Answer, error) {
	sol, err := c.Solve()
	if err != nil {
		return Answer{}, err
	}
	a := Answer{P: make([]float64, categories), MeanRounds: sol.ExpectedSteps}
	for s, p := range sol.All() {
		k := category(s)
		if k < 0 || k >= categories {
			return Answer{}, fmt.Errorf("markov: absorbing state %v maps to category %d; allowed 0..%d", s, k, categories-1)
		}
		a.P[k] += p
	}
	if err := ctx.Err(); err != nil {
		return Answer{}, err
	}
	a.Rounds, a.Tail, err = c.StepDist(maxRounds, RoundsTolerance)
	if err != nil {
		return Answer{}, err
	}
	return a, nil
}

// ExpectedReward returns the expected total reward collected before
// absorption, starting from the start state, when each visit to transient
// state s earns reward(s): the vector N r of the fundamental matrix
// N = (I - Q)^-1, read at the start. With reward 1 everywhere it is the
// expected number of steps. It fails as Solve does when some state can
// never be absorbed.
func (c *Chain[S]) ExpectedReward(reward func(S) float64) (float64, error) {
	if reward == nil {
		return 0, errors.New("markov: nil reward function")
	}
	if len(c.out[0]) == 0 {
		return 0, nil
	}
	f, trans, err := c.factor()
	if err != nil {
		return 0, err
	}
	r := make([]float64, len(trans))
	for a, i := range trans {
		r[a] = reward(c.states[i])
	}
	x, err := f.solveVec(r)
	if err != nil {
		return 0, fmt.Errorf("markov: solving for the expected reward: %w", err)
	}
	return x[0], nil
}
