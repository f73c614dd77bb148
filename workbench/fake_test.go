package workbench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/stakesrpg/stakes/actiontest"
	"github.com/stakesrpg/stakes/challenge"
	"github.com/stakesrpg/stakes/contest"
	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/dramadeck"
	"github.com/stakesrpg/stakes/edge"
	"github.com/stakesrpg/stakes/sim"
	"github.com/stakesrpg/stakes/sim/markov"
)

// coinScenario is a test-only mechanic: two sides race to a number of
// heads, one coin each per round. It has the same face as the rule
// packages' scenarios, so the CLI's plumbing is tested on it alone.
type coinScenario struct {
	Target int     `json:"target"`
	Sides  int     `json:"sides"` // die size; a head is the top face
	Label  string  `json:"label"`
	Inner  coinSub `json:"inner"`
	// Fields of every other kind a setting can have, for the --set and
	// --file tests; the race ignores them.
	Weight float64        `json:"weight,omitempty"`
	Loud   bool           `json:"loud,omitempty"`
	Tags   map[string]int `json:"tags,omitempty"`
	Big    int64          `json:"big,omitempty"`
	Teams  []coinTeam     `json:"teams,omitempty"`
}

type coinSub struct {
	Bonus []int `json:"bonus"`
}

type coinTeam struct {
	Name  string `json:"name"`
	Bonus int    `json:"bonus,omitempty"`
	Size  int    `json:"size,omitempty"`
}

var errNoExactCoin = fmt.Errorf("%w: coin: sides other than 2", markov.ErrNoExact)

func (s coinScenario) Validate() error {
	if s.Target < 1 || s.Target > 50 {
		return fmt.Errorf("coin: target %d: allowed 1..50", s.Target)
	}
	if s.Sides < 2 {
		return fmt.Errorf("coin: sides %d: at least 2", s.Sides)
	}
	return nil
}
func (s coinScenario) Categories() []string { return []string{"a_wins", "b_wins", "tie"} }
func (s coinScenario) Metrics() []string    { return []string{"rounds"} }
func (s coinScenario) NewRunner() (*coinRunner, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return &coinRunner{s: s}, nil
}

type coinRunner struct{ s coinScenario }

func (c *coinRunner) Trial(r *dice.Roller, m []int) (int, error) {
	if c.s.Label == "illegal" {
		// A policy of the designer's that answers what the rules refuse.
		return -1, errors.New("coin: side a's policy staked 7 coins; allowed 1..2")
	}
	a, b, rounds := 0, 0, 0
	for a < c.s.Target && b < c.s.Target {
		rounds++
		if r.Roll(c.s.Sides) == c.s.Sides {
			a++
		}
		if r.Roll(c.s.Sides) == c.s.Sides {
			b++
		}
	}
	m[0] = rounds
	switch {
	case a > b:
		return 0, nil
	case b > a:
		return 1, nil
	}
	return 2, nil
}

func (s coinScenario) Exact(context.Context) (markov.Answer, error) {
	if s.Sides != 2 || s.Target != 1 {
		return markov.Answer{}, errNoExactCoin
	}
	// Target 1 with fair coins: each round ends with probability 3/4,
	// split 1/3 each way.
	return markov.Answer{P: []float64{1.0 / 3, 1.0 / 3, 1.0 / 3}, MeanRounds: 4.0 / 3}, nil
}

// coin is the test-only mechanic beside our five.
var coin = Of[*coinRunner]("coin", func() coinScenario {
	return coinScenario{Target: 1, Sides: 2, Label: "race", Weight: 0.5, Loud: true,
		Tags: map[string]int{"a": 1, "b": 2}, Big: 7,
		Teams: []coinTeam{{Name: "reds", Bonus: 1, Size: 3}, {Name: "blues", Bonus: 2, Size: 4}}}
})

// testMechanics are the mechanics the command line's tests run: ours, in
// the stakes command's order, and the coin race.
var testMechanics = []Mechanic{
	Of[*edge.Runner]("edge", edge.DefaultScenario),
	Of[*challenge.Runner]("challenge", challenge.DefaultScenario),
	Of[*dramadeck.Runner]("dramadeck", dramadeck.DefaultScenario),
	Of[*actiontest.Runner]("actiontest", actiontest.DefaultScenario),
	Of[*contest.Runner]("contest", contest.DefaultScenario),
	coin,
}

// reportOrder is the order of the balance report in the tests: our five.
var reportOrder = []string{"edge", "challenge", "dramadeck", "actiontest", "contest"}

func (s coinScenario) Describe() sim.Description {
	return sim.Description{
		Summary: "test-only: two sides race to a number of heads",
		Title:   fmt.Sprintf("race to %d heads on d%d", s.Target, s.Sides),
		Terms: []sim.Term{{Key: "*_wins", Text: "side * reached the target first"},
			{Key: "tie", Text: "both sides reached the target in the same round"},
			{Key: "rounds", Text: "rounds of coin tosses"}},
	}
}

// coinGame is a coin race in progress, for the Game contract.
type coinGame struct {
	S      coinScenario `json:"scenario"`
	A      int          `json:"a"`
	B      int          `json:"b"`
	Rounds int          `json:"rounds"`
	sink   func(sim.Event)
}

// coinEvent narrates one round.
type coinEvent struct {
	Round int  `json:"round"`
	A     bool `json:"a"`
	B     bool `json:"b"`
}

func (e coinEvent) String() string {
	return fmt.Sprintf("round %d: a %s, b %s", e.Round, heads(e.A), heads(e.B))
}

func heads(h bool) string {
	if h {
		return "heads"
	}
	return "tails"
}

func (s coinScenario) Start(*dice.Roller) (sim.Game, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return &coinGame{S: s}, nil
}

func (s coinScenario) Restore(saved []byte) (sim.Game, error) {
	g := &coinGame{}
	if err := json.Unmarshal(saved, g); err != nil {
		return nil, err
	}
	if err := g.S.Validate(); err != nil {
		return nil, err
	}
	if g.A < 0 || g.B < 0 || g.A > g.S.Target || g.B > g.S.Target || g.Rounds < 0 || g.Rounds > 1<<20 {
		return nil, errors.New("coin: counts out of range")
	}
	return g, nil
}

func (g *coinGame) Done() bool { return g.A >= g.S.Target || g.B >= g.S.Target }

func (g *coinGame) Step(r *dice.Roller) error {
	switch {
	case r == nil:
		return dice.ErrNilRoller
	case g.Done():
		return errors.New("coin: the race is over")
	}
	ev := coinEvent{Round: g.Rounds + 1, A: r.Roll(g.S.Sides) == g.S.Sides, B: r.Roll(g.S.Sides) == g.S.Sides}
	g.Rounds++
	if ev.A {
		g.A++
	}
	if ev.B {
		g.B++
	}
	if g.sink != nil {
		g.sink(ev)
	}
	return nil
}

func (g *coinGame) Outcome(m []int) (int, error) {
	if !g.Done() {
		return 0, errors.New("coin: the race is still going")
	}
	if len(m) > 0 {
		m[0] = g.Rounds
	}
	switch {
	case g.A > g.B:
		return 0, nil
	case g.B > g.A:
		return 1, nil
	}
	return 2, nil
}

func (g *coinGame) Save() ([]byte, error)       { return json.Marshal(g) }
func (g *coinGame) Listen(sink func(sim.Event)) { g.sink = sink }
func (g *coinGame) Intercept(sim.Chooser)       {}

// Solve gives the coin race a decision for the CLI's solve tests: side a,
// holding 2 of 4 coins, stakes 1 or 2 on a coin won with probability 0.4
// until it holds 0 or 4 (gambler's ruin). Bold play wins 0.4; timid play
// 1.25/4.0625.
func (s coinScenario) Solve(ctx context.Context, goal markov.Goal) (markov.Solved, error) {
	if len(goal.Outcomes) > 0 && (len(goal.Outcomes) != 1 || goal.Outcomes[0] != "a_wins") {
		return markov.Solved{}, fmt.Errorf("coin: goal %v: allowed a_wins", goal.Outcomes)
	}
	if goal.Side != "" && goal.Side != "a" {
		return markov.Solved{}, fmt.Errorf("coin: side %q: allowed a", goal.Side)
	}
	p, err := markov.ExploreProcess(ctx, 2, func(i int) []markov.Choice[int] {
		var cs []markov.Choice[int]
		for b := 1; i > 0 && i < 4 && b <= min(i, 4-i); b++ {
			cs = append(cs, markov.Choice[int]{Name: fmt.Sprintf("stake %d", b),
				Steps: []markov.Step[int]{{To: i + b, P: 0.4}, {To: i - b, P: 0.6}}})
		}
		return cs
	})
	if err != nil {
		return markov.Solved{}, err
	}
	win := func(i int) float64 { return float64(i / 4) }
	value := func(aim markov.Aim, name string) (markov.PolicyValue, *markov.Plan[int], error) {
		pl, err := p.Solve(ctx, win, aim)
		if err != nil {
			return markov.PolicyValue{}, nil, err
		}
		return markov.PolicyValue{Name: name, Value: pl.Start()}, pl, nil
	}
	best, plan, err := value(markov.Maximize, "optimal")
	if err != nil {
		return markov.Solved{}, err
	}
	worst, _, err := value(markov.Minimize, "worst")
	if err != nil {
		return markov.Solved{}, err
	}
	ds, err := plan.Decisions(ctx)
	if err != nil {
		return markov.Solved{}, err
	}
	out := markov.Solved{Goal: markov.Goal{Outcomes: []string{"a_wins"}, Side: goal.Side}, Side: "a",
		Method: "exact", States: p.Len(), Choices: p.Choices(), Best: best, Worst: worst,
		Policies: []markov.PolicyValue{{Name: "timid", Value: 1.25 / 4.0625}}, Gap: best.Value - worst.Value}
	if err := out.SetOwnPolicy("timid"); err != nil {
		return markov.Solved{}, err
	}
	out.Advice = markov.Lines(ds, markov.Maximize, func(d markov.Decision[int], do, alt markov.Option) markov.Said {
		return markov.Said{When: fmt.Sprintf("holding %d coins", d.State), Do: do.Name, Else: alt.Name}
	}, markov.AsSaid[int])
	return out, nil
}

// testEnv is an environment over the test mechanics, for tests of the
// commands' parts.
func testEnv() *env {
	return &env{ctx: context.Background(), stdout: io.Discard, stderr: io.Discard, mechs: testMechanics}
}
