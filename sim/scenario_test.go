package sim_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim"
	"github.com/stakesrpg/stakes/sim/markov"
)

// raceScenario is a small mechanic on the contract: a d(Sides) shows its
// top face or not; the first of two sides to do so wins, A rolling first.
type raceScenario struct {
	Sides int `json:"sides"`
	// Wrong makes Exact answer with probabilities that do not sum to 1.
	Wrong bool `json:"wrong"`
}

func (s raceScenario) Validate() error {
	if s.Sides < 2 || s.Sides > 100 {
		return fmt.Errorf("race: sides %d; allowed 2..100", s.Sides)
	}
	return nil
}
func (s raceScenario) Categories() []string { return []string{"a_wins", "b_wins"} }
func (s raceScenario) Metrics() []string    { return []string{"rounds"} }
func (s raceScenario) NewRunner() (*raceRunner, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return &raceRunner{sides: s.Sides}, nil
}

// Exact: A wins with p/(1-q^2) where p = 1/s and q = 1-p, since each
// round A wins with p, B with q p, and otherwise it repeats.
func (s raceScenario) Exact(ctx context.Context) (markov.Answer, error) {
	if s.Sides > 50 {
		return markov.Answer{}, fmt.Errorf("%w: race: sides above 50", markov.ErrNoExact)
	}
	p := 1 / float64(s.Sides)
	q := 1 - p
	a := p / (1 - q*q)
	ans := markov.Answer{P: []float64{a, 1 - a}, MeanRounds: 1 / (1 - q*q)}
	if s.Wrong {
		ans.P[0] /= 2
	}
	return ans, nil
}

type raceRunner struct{ sides int }

func (r *raceRunner) Trial(d *dice.Roller, m []int) int {
	for round := 1; ; round++ {
		m[0] = round
		if d.Roll(r.sides) == r.sides {
			return 0
		}
		if d.Roll(r.sides) == r.sides {
			return 1
		}
	}
}

func TestAdaptMakesASpecAndAnExactAnswer(t *testing.T) {
	s := raceScenario{Sides: 6}
	m := sim.Adapt[*raceRunner]("race", &s)
	if m.Name() != "race" || m.Scenario() != any(&s) {
		t.Fatalf("Name %q, Scenario %v", m.Name(), m.Scenario())
	}
	spec, err := m.Spec("race/d6")
	if err != nil {
		t.Fatal(err)
	}
	if spec.Name != "race/d6" || spec.Settings["mechanic"] != "race" || spec.Settings["scenario"] != `{"sides":6,"wrong":false}` {
		t.Errorf("spec %q settings %v", spec.Name, spec.Settings)
	}
	rep, err := sim.Run(context.Background(), spec, sim.Options{Seed: 3, Trials: 20000, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	ans, err := m.Exact(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if want := 6.0 / 11; math.Abs(ans.P[0]-want) > 1e-12 {
		t.Errorf("exact P(a) = %v, want 6/11", ans.P[0])
	}
	if c := rep.Categories[0]; ans.P[0] < c.Lo || ans.P[0] > c.Hi {
		t.Errorf("exact %v outside the sampled interval [%v, %v]", ans.P[0], c.Lo, c.Hi)
	}
	// The Mechanic reads the scenario through its pointer.
	s.Sides = 60
	if _, err := m.Exact(context.Background()); !errors.Is(err, markov.ErrNoExact) {
		t.Errorf("d60: %v, want ErrNoExact", err)
	}
	if spec, err = m.Spec("race/d60"); err != nil || !strings.Contains(spec.Settings["scenario"], `"sides":60`) {
		t.Errorf("d60 spec %v, %v", spec.Settings, err)
	}
}

func TestAdaptRefusesInvalidScenariosAndBadAnswers(t *testing.T) {
	s := raceScenario{Sides: 1}
	m := sim.Adapt[*raceRunner]("race", &s)
	if _, err := m.Spec("x"); err == nil || !strings.Contains(err.Error(), "allowed 2..100") {
		t.Errorf("Spec of an invalid scenario: %v", err)
	}
	if _, err := m.Exact(context.Background()); err == nil || !strings.Contains(err.Error(), "allowed 2..100") {
		t.Errorf("Exact of an invalid scenario: %v", err)
	}
	s = raceScenario{Sides: 6, Wrong: true}
	if _, err := m.Exact(context.Background()); err == nil || !strings.Contains(err.Error(), "sum to") {
		t.Errorf("Exact whose probabilities do not sum to 1: %v", err)
	}
}
