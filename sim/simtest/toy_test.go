package simtest_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync/atomic"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim"
	"github.com/stakesrpg/stakes/sim/markov"
	"github.com/stakesrpg/stakes/sim/simtest"
)

// The toy mechanic: two sides, a and b, race to Target successes. On its
// turn a side rolls between 1 and MaxDice dice of Sides sides, its style
// choosing how many ("cautious" rolls 1, "bold" rolls MaxDice); each face
// of SuccessOn or more is a success. The first side to reach Target wins.
// It has a choice that can be answered illegally (the number of dice),
// events, a JSON state with integers, arrays and names, and an exact
// answer from sim/markov.
type rules struct {
	Target    int `json:"target"`
	Sides     int `json:"sides"`
	SuccessOn int `json:"success_on"`
	MaxDice   int `json:"max_dice"`
}

var styles = []string{"cautious", "bold"}

// state is the whole game: rules, scores, whose turn, steps taken, styles.
type state struct {
	Rules  rules    `json:"rules"`
	Scores []int    `json:"scores"`
	Turn   int      `json:"turn"`
	Steps  int      `json:"steps"`
	Styles []string `json:"styles"`
}

// event is what one step did.
type event struct {
	Side      int `json:"side"`
	Dice      int `json:"dice"`
	Successes int `json:"successes"`
	Score     int `json:"score"`
	// Bonus is always empty: omitempty drops it, and it decodes as nil,
	// which the kit counts as equal.
	Bonus []int `json:"bonus,omitempty"`
}

// callback is an event JSON cannot encode at all.
type callback struct {
	Side int    `json:"side"`
	Then func() `json:"then"`
}

// faulty is an event that does not survive JSON: its note is unexported.
type faulty struct {
	Side int `json:"side"`
	note string
}

// Ways the toy can be broken, one per check of the kit.
const (
	fine          = ""
	runnerCounter = "a runner reads a shared counter"
	saveDrops     = "Save drops the turn"
	refusedWrites = "a refused step counts a step"
	refusedRolls  = "a refused step rolls a die"
	unsizedScores = "Restore lets any number of scores through"
	unboundedTurn = "Restore lets any turn through"
	trustedSteps  = "Restore trusts the step count to size a buffer"
	swappedExact  = "Exact swaps the winners"
	secretEvent   = "events carry an unexported field"
	staleSave     = "Save returns the bytes the game was restored from"
	refusesEnd    = "Restore refuses a finished game"
	nilEvent      = "a step returns a nil event"
	funcEvent     = "an event holds a func"
	clampsIllegal = "an illegal answer is quietly ignored"
	unknownStyles = "Restore lets unknown styles through"
	anyTarget     = "Restore lets any target through"
	exactFails    = "Exact fails"
	roundsFromOne = "the runner counts rounds from one"
)

// A scenario of the toy, satisfying sim.Scenario.
type scenario struct {
	Rules  rules    `json:"rules"`
	Styles []string `json:"styles"`
	broken string
	made   *atomic.Int64 // runners made, for runnerCounter
	hang   chan struct{} // never closed while a test runs, for unboundedTurn
}

func newScenario(broken string) *scenario {
	return &scenario{
		Rules:  rules{Target: 4, Sides: 6, SuccessOn: 5, MaxDice: 3},
		Styles: []string{"cautious", "bold"},
		broken: broken,
		made:   new(atomic.Int64),
		hang:   make(chan struct{}),
	}
}

func (sc *scenario) Validate() error {
	return check(&state{Rules: sc.Rules, Scores: []int{0, 0}, Styles: sc.Styles}, fine)
}

func (sc *scenario) Categories() []string { return []string{"a_wins", "b_wins"} }
func (sc *scenario) Metrics() []string    { return []string{"rounds"} }

func (sc *scenario) start() *state {
	return &state{Rules: sc.Rules, Scores: []int{0, 0}, Styles: slices.Clone(sc.Styles)}
}

// check validates a state whole, as a restored state must be. The broken
// variants skip one part of it.
func check(s *state, broken string) error {
	r := s.Rules
	switch {
	case (r.Target < 1 || r.Target > 20) && broken != anyTarget:
		return fmt.Errorf("target %d; allowed 1..20", r.Target)
	case r.Sides < 2 || r.Sides > 20:
		return fmt.Errorf("sides %d; allowed 2..20", r.Sides)
	case r.SuccessOn < 2 || r.SuccessOn > r.Sides:
		return fmt.Errorf("success on %d; allowed 2..%d", r.SuccessOn, r.Sides)
	case r.MaxDice < 1 || r.MaxDice > 5:
		return fmt.Errorf("max dice %d; allowed 1..5", r.MaxDice)
	case len(s.Scores) != 2 && broken != unsizedScores:
		return fmt.Errorf("%d scores; allowed 2", len(s.Scores))
	case (s.Turn < 0 || s.Turn > 1) && broken != unboundedTurn:
		return fmt.Errorf("turn %d; allowed 0 or 1", s.Turn)
	case (s.Steps < 0 || s.Steps > 1_000_000) && broken != trustedSteps:
		return fmt.Errorf("steps %d; allowed 0..1000000", s.Steps)
	case len(s.Styles) != 2:
		return fmt.Errorf("%d styles; allowed 2", len(s.Styles))
	}
	for i, v := range s.Scores {
		if v < 0 || v > r.Target {
			return fmt.Errorf("score %d is %d; allowed 0..%d", i, v, r.Target)
		}
	}
	if broken == refusesEnd && s.done() {
		return errors.New("the game is over")
	}
	for _, st := range s.Styles {
		if !slices.Contains(styles, st) && broken != unknownStyles {
			return fmt.Errorf("style %q; allowed %q", st, styles)
		}
	}
	return nil
}

func (s *state) done() bool {
	return slices.ContainsFunc(s.Scores, func(v int) bool { return v >= s.Rules.Target })
}

// choice is the number of dice the side to move rolls by its style.
func (s *state) choice() int {
	if s.Styles[s.Turn] == "bold" {
		return s.Rules.MaxDice
	}
	return 1
}

// step rolls n dice for the side to move: it validates, then applies.
func (sc *scenario) step(s *state, r *dice.Roller, n int) (event, error) {
	if s.done() {
		return event{}, errors.New("the game is over")
	}
	if st := s.Styles[s.Turn]; !slices.Contains(styles, st) {
		return event{}, fmt.Errorf("style %q; allowed %q", st, styles)
	}
	if n < 1 || n > s.Rules.MaxDice {
		return event{}, fmt.Errorf("%d dice; allowed 1..%d", n, s.Rules.MaxDice)
	}
	hits := 0
	for range n {
		if r.Roll(s.Rules.Sides) >= s.Rules.SuccessOn {
			hits++
		}
	}
	side := s.Turn
	s.Scores[side] = min(s.Rules.Target, s.Scores[side]+hits)
	s.Turn = 1 - s.Turn
	s.Steps++
	return event{Side: side, Dice: n, Successes: hits, Score: s.Scores[side], Bonus: []int{}}, nil
}

// runner plays whole games for sim.
type runner struct {
	sc     *scenario
	number int64
}

func (sc *scenario) NewRunner() (*runner, error) {
	return &runner{sc: sc, number: sc.made.Add(1)}, nil
}

func (rn *runner) Trial(r *dice.Roller, metrics []int) int {
	s := rn.sc.start()
	if rn.sc.broken == runnerCounter && (rn.number == 2 || rn.number == 3) {
		s.Scores[1] = 1 // the second and third runners made give b a head start
	}
	for !s.done() {
		if _, err := rn.sc.step(s, r, s.choice()); err != nil {
			panic(err) // a fresh game never refuses its own policy's choice
		}
	}
	metrics[0] = s.Steps
	if rn.sc.broken == roundsFromOne {
		metrics[0]++
	}
	if s.Scores[0] >= s.Rules.Target {
		return 0
	}
	return 1
}

// pos is a chain state of the exact model.
type pos struct{ a, b, turn int }

func (sc *scenario) Exact(ctx context.Context) (markov.Answer, error) {
	if sc.broken == exactFails {
		return markov.Answer{}, errors.New("the chain is not ready")
	}
	if sc.Rules.Target > 10 {
		return markov.Answer{}, fmt.Errorf("%w: target %d is above 10", markov.ErrNoExact, sc.Rules.Target)
	}
	r := sc.Rules
	p := float64(r.Sides-r.SuccessOn+1) / float64(r.Sides)
	start := pos{}
	next := func(q pos, buf []markov.Step[pos]) []markov.Step[pos] {
		if q.a >= r.Target || q.b >= r.Target {
			return buf
		}
		s := state{Rules: r, Styles: sc.Styles, Turn: q.turn}
		n := s.choice()
		for k := 0; k <= n; k++ {
			to := q
			if q.turn == 0 {
				to.a = min(r.Target, q.a+k)
			} else {
				to.b = min(r.Target, q.b+k)
			}
			to.turn = 1 - q.turn
			buf = append(buf, markov.Step[pos]{To: to, P: binomial(n, k, p)})
		}
		return buf
	}
	c, err := markov.Explore(ctx, start, next)
	if err != nil {
		return markov.Answer{}, err
	}
	ans, err := markov.AnswerOf(ctx, c, 2, func(q pos) int {
		if q.a >= r.Target {
			return 0
		}
		return 1
	}, 10_000)
	if sc.broken == swappedExact {
		ans.P[0], ans.P[1] = ans.P[1], ans.P[0]
	}
	return ans, err
}

func binomial(n, k int, p float64) float64 {
	c := 1.0
	for i := range k {
		c = c * float64(n-i) / float64(i+1)
	}
	for range k {
		c *= p
	}
	for range n - k {
		c *= 1 - p
	}
	return c
}

// toy is the adapter the kit is handed.
type toy struct{ sc *scenario }

func (t toy) Scenario() sim.Mechanic { return sim.Adapt[*runner]("race", t.sc) }

func (t toy) NewGame(*dice.Roller) (simtest.Game, error) {
	return &game{sc: t.sc, s: t.sc.start()}, nil
}

func (t toy) Restore(b []byte) (simtest.Game, error) {
	var s state
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, err
	}
	if err := check(&s, t.sc.broken); err != nil {
		return nil, err
	}
	g := &game{sc: t.sc, s: &s}
	if t.sc.broken == staleSave {
		g.raw = b
	}
	if t.sc.broken == trustedSteps {
		g.history = make([]byte, 0, min(max(s.Steps, 0), 2<<20))
	}
	return g, nil
}

type game struct {
	sc      *scenario
	s       *state
	history []byte
	raw     []byte // for staleSave
}

func (g *game) Done() bool { return g.s.done() }

func (g *game) Step(r *dice.Roller) ([]any, error) {
	if g.sc.broken == unboundedTurn && g.s.Turn != 0 && g.s.Turn != 1 {
		<-g.sc.hang // waits for a side that is not there
	}
	e, err := g.sc.step(g.s, r, g.s.choice())
	if err != nil {
		return nil, err
	}
	switch g.sc.broken {
	case secretEvent:
		return []any{e, faulty{Side: e.Side, note: "unsaid"}}, nil
	case nilEvent:
		return []any{e, nil}, nil
	case funcEvent:
		return []any{e, callback{Side: e.Side}}, nil
	}
	return simtest.Events([]event{e}), nil
}

func (g *game) StepIllegal(r *dice.Roller, chaos *rand.Rand) (bool, error) {
	if g.s.done() {
		return false, nil
	}
	switch g.sc.broken {
	case refusedWrites:
		g.s.Steps++
	case refusedRolls:
		r.Roll(6)
	case clampsIllegal:
		return true, nil
	}
	illegal := []int{0, -1, g.s.Rules.MaxDice + 1}[chaos.IntN(3)]
	_, err := g.sc.step(g.s, r, illegal)
	return true, err
}

func (g *game) Save() ([]byte, error) {
	if g.raw != nil {
		return g.raw, nil
	}
	s := *g.s
	if g.sc.broken == saveDrops {
		s.Turn = 0
	}
	return json.Marshal(s)
}
