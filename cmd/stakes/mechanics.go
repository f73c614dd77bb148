//go:generate go run ./internal/gensettings actiontest challenge contest dramadeck edge dice

package main

import (
	"context"
	"sort"
	"strings"

	"github.com/stakesrpg/stakes/sim"
	"github.com/stakesrpg/stakes/sim/markov"
)

// scenario is one mechanic's scenario behind a uniform face, so the
// subcommands need not know the rule packages.
type scenario interface {
	mechanic() string
	// ptr returns a pointer to the package's Scenario, for JSON decoding.
	ptr() any
	validate() error
	describe() string
	spec(label string) (sim.Spec, error)
	// exact returns the exact answer, or an error wrapping
	// markov.ErrNoExact when the scenario is outside the exact model.
	exact(ctx context.Context) (*exactView, error)
	// solve returns how much decisions matter for goal, or an error
	// wrapping markov.ErrNoExact when the mechanic has no solver.
	solve(ctx context.Context, goal markov.Goal) (markov.Solved, error)
}

// adapted is a scenario over sim's mechanic contract, with the one-line
// description the reports print.
type adapted struct {
	m     sim.Mechanic
	descr func() string
}

// adapt registers a scenario value for the commands: m is the contract
// over it (sim.Adapt) and descr describes it as it stands now (a closure
// over the same value, so --set and --file changes show).
func adapt(m sim.Mechanic, descr func() string) scenario {
	return &adapted{m: m, descr: descr}
}

func (s *adapted) mechanic() string { return s.m.Name() }

func (s *adapted) ptr() any         { return s.m.Scenario() }
func (s *adapted) validate() error  { return s.m.Validate() }
func (s *adapted) describe() string { return s.descr() }

func (s *adapted) spec(label string) (sim.Spec, error) { return s.m.Spec(label) }

// exactView is the exact answer as the commands print and encode it.
type exactView struct {
	Categories []string  `json:"categories"`
	P          []float64 `json:"p"`
	MeanRounds float64   `json:"mean_rounds"`
	Rounds     []float64 `json:"rounds,omitempty"`
}

func (s *adapted) exact(ctx context.Context) (*exactView, error) {
	a, err := s.m.Exact(ctx)
	if err != nil {
		return nil, err
	}
	return &exactView{Categories: s.m.Categories(), P: a.P, MeanRounds: a.MeanRounds, Rounds: a.Rounds}, nil
}

func (s *adapted) solve(ctx context.Context, goal markov.Goal) (markov.Solved, error) {
	return s.m.Solve(ctx, goal)
}

// mechanicInfo registers one mechanic.
type mechanicInfo struct {
	name    string
	summary string
	// fresh returns the built-in scenario.
	fresh func() scenario
	// odds answers "stakes odds NAME" beyond the scenario's Exact, or is nil.
	odds func(e *env, sc scenario, args oddsArgs) error
}

var registry = map[string]mechanicInfo{}

func register(m mechanicInfo) { registry[m.name] = m }

func mechanicNames() []string {
	var ns []string
	for n := range registry {
		ns = append(ns, n)
	}
	sort.Strings(ns)
	return ns
}

// reportOrder is the order of the balance report.
var reportOrder = []string{"edge", "challenge", "dramadeck", "actiontest", "contest"}

func lookup(name string) (mechanicInfo, error) {
	m, ok := registry[name]
	if !ok {
		return m, usagef("unknown mechanic %q: choose one of %s", name, strings.Join(mechanicNames(), ", "))
	}
	return m, nil
}
