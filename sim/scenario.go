package sim

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim/markov"
)

// Scenario is the mechanic contract: what a rule package's Scenario type
// offers so that sim, the conformance kit (sim/simtest) and the stakes
// command line can run it without knowing its rules. R is the package's
// runner type; the rule package needs to import neither sim nor its
// runner, only sim/markov for the Answer.
//
//   - Validate reports whether the scenario is playable, with an error that
//     says what is wrong and what is allowed.
//   - Categories names the outcome categories a trial ends in; Metrics names
//     the integer metrics it reports, the number of rounds first.
//   - NewRunner builds a runner that plays one trial at a time from the
//     scenario's start; each goroutine gets its own.
//   - Exact returns the exact answer, or an error wrapping
//     markov.ErrNoExact that says why the scenario is outside the exact
//     model. It stops with ctx's error when ctx is cancelled.
//   - Start and Restore (Starter) make games of the scenario to play step
//     by step through the Game contract.
//   - Describe (Describer) says what the mechanic, the scenario as set and
//     each outcome and metric mean, for the faces to show.
//
// A Scenario is plain data that encodes to JSON: the command line reads
// scenario files and --set flags into it.
type Scenario[R Runner] interface {
	Validate() error
	Categories() []string
	Metrics() []string
	NewRunner() (R, error)
	Exact(ctx context.Context) (markov.Answer, error)
	Starter
	Describer
}

// Mechanic is a Scenario with its runner type put away, so that callers
// can hold the scenarios of several mechanics side by side. Adapt makes
// one.
type Mechanic interface {
	// Name is the mechanic's name, such as "contest".
	Name() string
	// Scenario returns the pointer to the scenario value Adapt was given,
	// for decoding JSON into it or reading its fields.
	Scenario() any
	Validate() error
	Categories() []string
	Metrics() []string
	// Spec validates the scenario and makes a Spec of it, labelled label,
	// whose settings record the mechanic and the scenario as JSON.
	Spec(label string) (Spec, error)
	// Exact validates the scenario and returns its exact answer, checked
	// to hold one probability per category.
	Exact(ctx context.Context) (markov.Answer, error)
	// Solve validates the scenario and returns how much decisions matter
	// in it for goal: the best, the worst and each shipped policy's value,
	// checked (markov.Solved.Check). A scenario that is no Solver returns
	// an error wrapping markov.ErrNoExact.
	Solve(ctx context.Context, goal markov.Goal) (markov.Solved, error)
	// Start validates the scenario and begins a game of it.
	Start(r *dice.Roller) (Game, error)
	// Restore reads back a game that Game.Save wrote, checked whole.
	Restore(saved []byte) (Game, error)
	// Describe says what the mechanic and its outcomes and metrics mean.
	Describe() Description
}

// Solver is a Scenario that can find its best and worst play for a goal
// (sim/markov's decision processes, or a search where those are too large).
type Solver interface {
	Solve(ctx context.Context, goal markov.Goal) (markov.Solved, error)
}

// Adapt makes a Mechanic named name of the scenario s points to. Name the
// runner type and let the scenario's be inferred:
//
//	m := sim.Adapt[*contest.Runner]("contest", &scenario)
//
// The Mechanic reads *s at every call, so changes made through s (or
// through Scenario) take effect.
func Adapt[R Runner, S Scenario[R]](name string, s S) Mechanic {
	return adapted[R, S]{name: name, s: s}
}

type adapted[R Runner, S Scenario[R]] struct {
	name string
	s    S
}

func (a adapted[R, S]) Name() string         { return a.name }
func (a adapted[R, S]) Scenario() any        { return a.s }
func (a adapted[R, S]) Validate() error      { return a.s.Validate() }
func (a adapted[R, S]) Categories() []string { return a.s.Categories() }
func (a adapted[R, S]) Metrics() []string    { return a.s.Metrics() }

func (a adapted[R, S]) Spec(label string) (Spec, error) {
	if err := a.s.Validate(); err != nil {
		return Spec{}, err
	}
	settings, err := json.Marshal(a.s)
	if err != nil {
		return Spec{}, fmt.Errorf("%w: encoding the %s scenario: %v", ErrInvalid, a.name, err)
	}
	metrics := a.s.Metrics()
	return Spec{
		Name:       label,
		Categories: a.s.Categories(),
		Metrics:    metrics,
		Settings:   map[string]string{"mechanic": a.name, "scenario": string(settings)},
		New:        FromRunner(a.s.NewRunner, len(metrics)),
	}, nil
}

func (a adapted[R, S]) Exact(ctx context.Context) (markov.Answer, error) {
	if err := a.s.Validate(); err != nil {
		return markov.Answer{}, err
	}
	ans, err := a.s.Exact(ctx)
	if err != nil {
		return markov.Answer{}, err
	}
	if err := ans.Check(len(a.s.Categories())); err != nil {
		return markov.Answer{}, fmt.Errorf("%s: exact answer: %w", a.name, err)
	}
	return ans, nil
}

func (a adapted[R, S]) Solve(ctx context.Context, goal markov.Goal) (markov.Solved, error) {
	if err := a.s.Validate(); err != nil {
		return markov.Solved{}, err
	}
	sv, ok := any(a.s).(Solver)
	if !ok {
		return markov.Solved{}, fmt.Errorf("%w: %s has no solver for its decisions", markov.ErrNoExact, a.name)
	}
	out, err := sv.Solve(ctx, goal)
	if err != nil {
		return markov.Solved{}, err
	}
	if err := out.Check(); err != nil {
		return markov.Solved{}, fmt.Errorf("%s: solve: %w", a.name, err)
	}
	return out, nil
}

func (a adapted[R, S]) Start(r *dice.Roller) (Game, error) {
	if err := a.s.Validate(); err != nil {
		return nil, err
	}
	return a.s.Start(r)
}

func (a adapted[R, S]) Restore(saved []byte) (Game, error) { return a.s.Restore(saved) }

func (a adapted[R, S]) Describe() Description { return a.s.Describe() }
