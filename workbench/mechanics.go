package workbench

import (
	"context"
	"strings"

	"github.com/stakesrpg/stakes/sim"
	"github.com/stakesrpg/stakes/sim/markov"
)

// scenario is one mechanic's scenario as the commands use it.
type scenario interface {
	mechanic() string
	// sim returns sim's mechanic contract over the scenario, whose
	// Describe says what the faces print about it.
	sim() sim.Mechanic
	// ptr returns a pointer to the package's Scenario, for JSON decoding.
	ptr() any
	validate() error
	// describe is the scenario as it is set now, in a line.
	describe() string
	spec(label string) (sim.Spec, error)
	// exact returns the exact answer, or an error wrapping
	// markov.ErrNoExact when the scenario is outside the exact model.
	exact(ctx context.Context) (*exactView, error)
	// solve returns how much decisions matter for goal, or an error
	// wrapping markov.ErrNoExact when the mechanic has no solver.
	solve(ctx context.Context, goal markov.Goal) (markov.Solved, error)
}

// adapted is a scenario over sim's mechanic contract.
type adapted struct {
	m sim.Mechanic
}

func (s adapted) mechanic() string                    { return s.m.Name() }
func (s adapted) sim() sim.Mechanic                   { return s.m }
func (s adapted) ptr() any                            { return s.m.Scenario() }
func (s adapted) validate() error                     { return s.m.Validate() }
func (s adapted) describe() string                    { return s.m.Describe().Title }
func (s adapted) spec(label string) (sim.Spec, error) { return s.m.Spec(label) }

// exactView is the exact answer as the commands print and encode it.
type exactView struct {
	Categories []string  `json:"categories"`
	P          []float64 `json:"p"`
	MeanRounds float64   `json:"mean_rounds"`
	Rounds     []float64 `json:"rounds,omitempty"`
}

func (s adapted) exact(ctx context.Context) (*exactView, error) {
	a, err := s.m.Exact(ctx)
	if err != nil {
		return nil, err
	}
	return &exactView{Categories: s.m.Categories(), P: a.P, MeanRounds: a.MeanRounds, Rounds: a.Rounds}, nil
}

func (s adapted) solve(ctx context.Context, goal markov.Goal) (markov.Solved, error) {
	return s.m.Solve(ctx, goal)
}

// fresh returns m's built-in scenario.
func (m Mechanic) fresh() scenario { return adapted{m.New()} }

// mechanicNames returns the names of mechs, in their order.
func mechanicNames(mechs []Mechanic) []string {
	ns := make([]string, len(mechs))
	for i, m := range mechs {
		ns[i] = m.Name
	}
	return ns
}

// mechanic returns the mechanic named name.
func (e *env) mechanic(name string) (Mechanic, bool) {
	for _, m := range e.mechs {
		if m.Name == name {
			return m, true
		}
	}
	return Mechanic{}, false
}

// lookup returns the mechanic named name, or a usage error naming the
// nearest one and every one there is.
func (e *env) lookup(name string) (Mechanic, error) {
	if m, ok := e.mechanic(name); ok {
		return m, nil
	}
	names := mechanicNames(e.mechs)
	hint := ""
	if near := nearest(name, names); near != "" {
		hint = "; did you mean " + `"` + near + `"?`
	}
	return Mechanic{}, usagef("unknown mechanic %q%s (one of %s)", clip(name), hint, strings.Join(names, ", "))
}
