package sim_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim"
	"github.com/stakesrpg/stakes/sim/markov"
	"github.com/stakesrpg/stakes/sim/simtest"
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

func (r *raceRunner) Trial(d *dice.Roller, m []int) (int, error) {
	g := raceGame{s: raceState{Sides: r.sides, Round: 1}}
	for !g.Done() {
		if err := g.Step(d); err != nil {
			return 0, err
		}
	}
	return g.Outcome(m)
}

// raceState is a race in progress: the side to roll in the round, and the
// winner (1 for a, 2 for b) once one rolled the top face.
type raceState struct {
	Sides  int `json:"sides"`
	Round  int `json:"round"`
	Turn   int `json:"turn"`
	Winner int `json:"winner"`
}

// raceRoll is the race's one event: a side rolled a face.
type raceRoll struct {
	Side int `json:"side"`
	Face int `json:"face"`
}

func (e raceRoll) String() string {
	return fmt.Sprintf("%s rolls %d", [...]string{"a", "b"}[e.Side], e.Face)
}

// raceGame is a race satisfying sim.Game. The race asks no question, so
// it has no policy for a Chooser to stand in front of.
type raceGame struct {
	s    raceState
	sink func(sim.Event)
}

func (s raceScenario) Start(*dice.Roller) (sim.Game, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return &raceGame{s: raceState{Sides: s.Sides, Round: 1}}, nil
}

func (raceScenario) Restore(b []byte) (sim.Game, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	var st raceState
	if err := d.Decode(&st); err != nil || d.More() {
		return nil, fmt.Errorf("race: a saved race does not decode: %v", err)
	}
	switch {
	case st.Sides < 2 || st.Sides > 100:
		return nil, fmt.Errorf("race: sides %d; allowed 2..100", st.Sides)
	case st.Round < 1 || st.Round > 1<<30:
		return nil, fmt.Errorf("race: round %d; allowed 1..%d", st.Round, 1<<30)
	case st.Turn < 0 || st.Turn > 1:
		return nil, fmt.Errorf("race: turn %d; allowed 0 or 1", st.Turn)
	case st.Winner < 0 || st.Winner > 2 || st.Winner > 0 && st.Winner != st.Turn+1:
		return nil, fmt.Errorf("race: winner %d on turn %d; a winner is the side that rolled last", st.Winner, st.Turn)
	}
	return &raceGame{s: st}, nil
}

func (s raceScenario) Describe() sim.Description {
	return sim.Description{
		Summary: "A race: two sides take turns rolling one die, and the first to roll its top face wins.",
		Title:   fmt.Sprintf("a against b on a d%d, a first", s.Sides),
		Terms: []sim.Term{
			{Key: "*_wins", Text: "* rolls the top face first"},
			{Key: "rounds", Text: "rounds played, the last one included"},
		},
	}
}

func (g *raceGame) Done() bool { return g.s.Winner != 0 }

func (g *raceGame) Step(r *dice.Roller) error {
	switch {
	case r == nil:
		return dice.ErrNilRoller
	case g.Done():
		return errors.New("race: the race is over")
	case g.s.Turn == 1 && g.s.Round == 1<<30:
		return errors.New("race: the race is out of rounds")
	}
	face := r.Roll(g.s.Sides)
	if g.sink != nil {
		g.sink(raceRoll{Side: g.s.Turn, Face: face})
	}
	switch {
	case face == g.s.Sides:
		g.s.Winner = g.s.Turn + 1
	case g.s.Turn == 0:
		g.s.Turn = 1
	default:
		g.s.Turn, g.s.Round = 0, g.s.Round+1
	}
	return nil
}

func (g *raceGame) Outcome(metrics []int) (int, error) {
	if !g.Done() {
		return 0, errors.New("race: the race is still going")
	}
	if len(metrics) > 0 {
		metrics[0] = g.s.Round
	}
	return g.s.Winner - 1, nil
}

func (g *raceGame) Save() ([]byte, error)       { return json.Marshal(g.s) }
func (g *raceGame) Listen(sink func(sim.Event)) { g.sink = sink }
func (g *raceGame) Intercept(sim.Chooser)       {}

// TestRaceConforms runs the conformance kit on the race through Adapt: a
// mechanic's whole conformance test. The race asks its players nothing.
func TestRaceConforms(t *testing.T) {
	m := sim.Adapt[*raceRunner]("race", &raceScenario{Sides: 6})
	if err := simtest.TestMechanic(m, simtest.Options{Games: 8, Trials: 5000, Mutants: 200, NoChoices: true}); err != nil {
		t.Fatal(err)
	}
}

// TestAdaptStartsValidGamesOnly shows that the Mechanic validates the
// scenario before it starts a game, and hands Restore and Describe through.
func TestAdaptStartsValidGamesOnly(t *testing.T) {
	s := raceScenario{Sides: 1}
	m := sim.Adapt[*raceRunner]("race", &s)
	if g, err := m.Start(nil); g != nil || err == nil || !strings.Contains(err.Error(), "allowed 2..100") {
		t.Errorf("Start of an invalid scenario: %v, %v", g, err)
	}
	if g, err := m.Restore([]byte(`{"sides":1,"round":1}`)); g != nil || err == nil {
		t.Errorf("Restore of an invalid race: %v, %v", g, err)
	}
	g, err := m.Restore([]byte(`{"sides":6,"round":3,"turn":1,"winner":2}`))
	if err != nil {
		t.Fatal(err)
	}
	metrics := []int{0}
	if c, err := g.Outcome(metrics); c != 1 || err != nil || metrics[0] != 3 {
		t.Errorf("restored race won by b in round 3: category %d, rounds %d, %v", c, metrics[0], err)
	}
	if d := m.Describe(); d.Title != "a against b on a d1, a first" {
		t.Errorf("Describe gives %+v", d)
	}
	s.Sides = 6
	if _, err := m.Solve(context.Background(), markov.Goal{}); !errors.Is(err, markov.ErrNoExact) {
		t.Errorf("Solve of a scenario with no solver: %v, want ErrNoExact", err)
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
