package main

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/stakesrpg/stakes/sim"
)

// scenario is one mechanic's scenario value behind a uniform face, so the
// subcommands need not know the rule packages.
type scenario interface {
	mechanic() string
	// ptr returns a pointer to the package's Scenario, for JSON decoding.
	ptr() any
	validate() error
	describe() string
	spec(name string) (sim.Spec, error)
	// exact returns the exact answer, or an error wrapping the package's
	// ErrNoExact when the scenario is outside the exact model.
	exact() (*exactView, error)
}

// exactView is the common shape of the rule packages' Exact values.
type exactView struct {
	Categories []string  `json:"categories"`
	P          []float64 `json:"p"`
	MeanRounds float64   `json:"mean_rounds"`
	Rounds     []float64 `json:"rounds,omitempty"`
}

// pkgScenario is the face every rule package's Scenario exposes.
type pkgScenario[R sim.Runner, E any] interface {
	Validate() error
	Categories() []string
	Metrics() []string
	NewRunner() (R, error)
	Exact() (E, error)
}

// box adapts one package's Scenario type S.
type box[S pkgScenario[R, E], R sim.Runner, E any] struct {
	name  string
	s     S
	conv  func(E) exactView
	descr func(S) string
}

func (b *box[S, R, E]) mechanic() string { return b.name }
func (b *box[S, R, E]) ptr() any         { return &b.s }
func (b *box[S, R, E]) validate() error  { return b.s.Validate() }
func (b *box[S, R, E]) describe() string { return b.descr(b.s) }

func (b *box[S, R, E]) spec(name string) (sim.Spec, error) {
	if err := b.s.Validate(); err != nil {
		return sim.Spec{}, err
	}
	s := b.s
	cats, mets := s.Categories(), s.Metrics()
	settings, err := json.Marshal(s)
	if err != nil {
		return sim.Spec{}, fmt.Errorf("encoding the scenario: %w", err)
	}
	return sim.Spec{
		Name:       name,
		Categories: cats,
		Metrics:    mets,
		Settings:   map[string]string{"mechanic": b.name, "scenario": string(settings)},
		New:        sim.FromRunner(s.NewRunner, len(mets)),
	}, nil
}

func (b *box[S, R, E]) exact() (*exactView, error) {
	if err := b.s.Validate(); err != nil {
		return nil, err
	}
	e, err := b.s.Exact()
	if err != nil {
		return nil, err
	}
	v := b.conv(e)
	v.Categories = b.s.Categories()
	return &v, nil
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
