package simtest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync/atomic"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim"
	"github.com/stakesrpg/stakes/sim/markov"
)

// The toy mechanic, written as a mechanic from outside stakes would be: a
// scenario that satisfies sim.Scenario, a game that satisfies sim.Game,
// and nothing written for the kit. Two sides, a and b, race to Target
// successes. On its turn a side rolls between 1 and MaxDice dice of Sides
// sides, its style choosing how many ("cautious" rolls 1, "bold" rolls
// MaxDice); each face of SuccessOn or more is a success. The first side to
// reach Target wins. Its one question (how many dice?) is answered by an
// int from a view, so a Chooser can answer it illegally; it has events, a
// JSON state with integers, arrays and names, and an exact answer from
// sim/markov.
type rules struct {
	Target    int `json:"target"`
	Sides     int `json:"sides"`
	SuccessOn int `json:"success_on"`
	MaxDice   int `json:"max_dice"`
}

var styles = []string{"cautious", "bold"}

// state is the whole game, and what Save writes: rules, scores, whose
// turn, steps taken, the faces of the last roll, and the styles.
type state struct {
	Rules  rules    `json:"rules"`
	Scores []int    `json:"scores"`
	Turn   int      `json:"turn"`
	Steps  int      `json:"steps"`
	Last   []int    `json:"last"`
	Styles []string `json:"styles"`
}

// view is what a side's style is asked from: the answer is the number of
// dice to roll, an int.
type view struct {
	Side    int
	Scores  []int
	MaxDice int
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
	// text, for the broken toys, replaces the narration.
	text string
}

func (e event) String() string {
	if e.text != "" {
		return e.text[1:] // the first byte marks it set, so "" can be said
	}
	return fmt.Sprintf("%s rolls %d dice: %d successes, %d in all", [...]string{"a", "b"}[e.Side], e.Dice, e.Successes, e.Score)
}

// callback is an event JSON cannot encode at all.
type callback struct {
	Side int    `json:"side"`
	Then func() `json:"then"`
}

func (callback) String() string { return "a callback" }

// faulty is an event that does not survive JSON: its note is unexported.
type faulty struct {
	Side int `json:"side"`
	note string
}

func (f faulty) String() string { return "a faulty event " + f.note }

// Ways the toy can be broken, each caught by a check of the kit.
const (
	fine            = ""
	runnerCounter   = "a runner reads a shared counter"
	saveDrops       = "Save drops the turn"
	refusedWrites   = "a refused step counts a step"
	refusedRolls    = "a refused step rolls a die"
	unsizedScores   = "Restore lets any number of scores through"
	unboundedTurn   = "Restore lets any turn through"
	trustedSteps    = "Restore trusts the step count to size a buffer"
	swappedExact    = "Exact swaps the winners"
	exactVaries     = "Exact answers with other bits on every call"
	secretEvent     = "events carry an unexported field"
	staleSave       = "Save returns the bytes the game was restored from"
	refusesEnd      = "Restore refuses a finished game"
	nilEvent        = "a step hears a nil event"
	funcEvent       = "an event holds a func"
	silentEvent     = "an event narrates nothing"
	twoLineEvent    = "an event narrates on two lines"
	clampsIllegal   = "an illegal answer is quietly clamped"
	wrongTypeTaken  = "an answer of another type is taken as the style's"
	acceptsMoreDice = "a step takes up to 20 dice, which Restore refuses"
	unknownStyles   = "Restore lets unknown styles through"
	anyTarget       = "Restore lets any target through"
	exactFails      = "Exact fails"
	roundsFromOne   = "the runner counts rounds from one"
	outcomeEarly    = "Outcome answers before the end"
	outcomeRange    = "Outcome gives a category past the last"
	shortMetrics    = "Outcome writes metrics past a short slice"
	stepAfterDone   = "Step on a finished game succeeds"
	nilRollerPanics = "Step with a nil Roller panics"
	nilRollerSteps  = "Step with a nil Roller counts a step"
	listenerMatters = "a game without a listener counts steps twice"
	chooserRefused  = "a step under any Chooser fails"
	outcomeCached   = "Outcome reads a winner the save does not hold"
	missingTerm     = "Describe says nothing of rounds"
	emptyTitle      = "Describe has no title"
	chooserIgnored  = "Intercept keeps no Chooser"
)

// A scenario of the toy, satisfying sim.Scenario[*runner].
type scenario struct {
	Rules  rules    `json:"rules"`
	Styles []string `json:"styles"`
	broken string
	made   *atomic.Int64 // runners made, for runnerCounter
	exacts *atomic.Int64 // Exact calls, for exactVaries
	hang   chan struct{} // never closed while a test runs, for unboundedTurn
}

func newScenario(broken string) *scenario {
	return &scenario{
		Rules:  rules{Target: 4, Sides: 6, SuccessOn: 5, MaxDice: 3},
		Styles: []string{"cautious", "bold"},
		broken: broken,
		made:   new(atomic.Int64),
		exacts: new(atomic.Int64),
		hang:   make(chan struct{}),
	}
}

// mechanic is the toy as the kit takes it: adapted, as every mechanic is.
func mechanic(broken string) (sim.Mechanic, *scenario) {
	sc := newScenario(broken)
	return sim.Adapt[*runner]("race", sc), sc
}

func (sc *scenario) Validate() error {
	return check(sc.start(), fine)
}

func (sc *scenario) Categories() []string { return []string{"a_wins", "b_wins"} }
func (sc *scenario) Metrics() []string    { return []string{"rounds"} }

func (sc *scenario) start() *state {
	return &state{Rules: sc.Rules, Scores: []int{0, 0}, Last: []int{}, Styles: slices.Clone(sc.Styles)}
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
	case len(s.Last) > r.MaxDice:
		return fmt.Errorf("%d faces in the last roll; allowed 0..%d", len(s.Last), r.MaxDice)
	case len(s.Styles) != 2:
		return fmt.Errorf("%d styles; allowed 2", len(s.Styles))
	}
	for _, f := range s.Last {
		if f < 1 || f > r.Sides {
			return fmt.Errorf("a face of %d in the last roll; allowed 1..%d", f, r.Sides)
		}
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

// step rolls for the side to move, asking its style how many dice, and
// the Chooser c (when set) for the answer it takes. It validates, then
// applies, so a refused step changes nothing without a snapshot.
func (sc *scenario) step(s *state, r *dice.Roller, c sim.Chooser, sink func(sim.Event)) error {
	if r == nil {
		if sc.broken == nilRollerPanics {
			r.Roll(6)
		}
		if sc.broken == nilRollerSteps {
			s.Steps++
		}
		return dice.ErrNilRoller
	}
	if s.done() && sc.broken != stepAfterDone {
		return errors.New("the race is over")
	}
	if s.done() {
		return nil
	}
	if st := s.Styles[s.Turn]; !slices.Contains(styles, st) {
		return fmt.Errorf("style %q; allowed %q", st, styles)
	}
	n, err := sc.answer(s, c)
	if err != nil {
		return err
	}
	switch sc.broken {
	case refusedWrites:
		s.Steps++
	case refusedRolls:
		r.Roll(6)
	}
	if n, err = sc.legalDice(s, n); err != nil {
		return err
	}
	sc.roll(s, r, n, sink)
	return nil
}

// answer is the style's number of dice, or the Chooser's answer in its
// place.
func (sc *scenario) answer(s *state, c sim.Chooser) (int, error) {
	n := s.choice()
	if c == nil || sc.broken == chooserIgnored {
		return n, nil
	}
	if sc.broken == chooserRefused {
		return 0, errors.New("this race takes no Chooser")
	}
	a := c(view{Side: s.Turn, Scores: slices.Clone(s.Scores), MaxDice: s.Rules.MaxDice}, n)
	got, ok := a.(int)
	if !ok && sc.broken != wrongTypeTaken {
		return 0, fmt.Errorf("an answer of type %T; a style answers with an int, the number of dice", a)
	}
	if ok {
		n = got
	}
	return n, nil
}

// legalDice refuses a number of dice out of range (or, broken, lets it
// through).
func (sc *scenario) legalDice(s *state, n int) (int, error) {
	switch {
	case n >= 1 && n <= s.Rules.MaxDice:
		return n, nil
	case sc.broken == clampsIllegal:
		return min(max(n, 1), s.Rules.MaxDice), nil
	case sc.broken == acceptsMoreDice && n >= 1 && n <= 20:
		return n, nil
	}
	return 0, fmt.Errorf("%d dice; allowed 1..%d", n, s.Rules.MaxDice)
}

// roll applies a legal step: n dice for the side to move.
func (sc *scenario) roll(s *state, r *dice.Roller, n int, sink func(sim.Event)) {
	s.Last = s.Last[:0]
	hits := 0
	for range n {
		f := r.Roll(s.Rules.Sides)
		s.Last = append(s.Last, f)
		if f >= s.Rules.SuccessOn {
			hits++
		}
	}
	side := s.Turn
	s.Scores[side] = min(s.Rules.Target, s.Scores[side]+hits)
	s.Turn = 1 - s.Turn
	if sc.broken != refusedWrites {
		s.Steps++
	}
	if sink != nil {
		sc.tell(sink, event{Side: side, Dice: n, Successes: hits, Score: s.Scores[side], Bonus: []int{}})
	}
}

// tell hands e to sink, with the broken toys' faulty events.
func (sc *scenario) tell(sink func(sim.Event), e event) {
	switch sc.broken {
	case secretEvent:
		sink(faulty{Side: e.Side, note: "unsaid"})
	case nilEvent:
		sink(nil)
	case funcEvent:
		sink(callback{Side: e.Side})
	case silentEvent:
		e.text = "-"
	case twoLineEvent:
		e.text = "-a rolls\nand rolls"
	}
	sink(e)
}

// runner plays whole games for sim.
type runner struct {
	sc     *scenario
	number int64
}

func (sc *scenario) NewRunner() (*runner, error) {
	return &runner{sc: sc, number: sc.made.Add(1)}, nil
}

func (rn *runner) Trial(r *dice.Roller, metrics []int) (int, error) {
	s := rn.sc.start()
	if rn.sc.broken == runnerCounter && (rn.number == 2 || rn.number == 3) {
		s.Scores[1] = 1 // the second and third runners made give b a head start
	}
	for !s.done() {
		if err := rn.sc.step(s, r, nil, nil); err != nil {
			return 0, err
		}
	}
	metrics[0] = s.Steps
	if rn.sc.broken == roundsFromOne {
		metrics[0]++
	}
	return s.winner(), nil
}

// winner is the category of a finished race.
func (s *state) winner() int {
	if s.Scores[0] >= s.Rules.Target {
		return 0
	}
	return 1
}

// Start begins a race; the toy rolls nothing before its first step.
func (sc *scenario) Start(*dice.Roller) (sim.Game, error) {
	if err := sc.Validate(); err != nil {
		return nil, err
	}
	return &game{sc: sc, s: sc.start()}, nil
}

// Restore reads a saved race strictly (no unknown field, nothing after
// it) and checks it whole.
func (sc *scenario) Restore(b []byte) (sim.Game, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	var s state
	if err := d.Decode(&s); err != nil {
		return nil, fmt.Errorf("a saved race: %w", err)
	}
	if d.More() {
		return nil, errors.New("a saved race: data after the race")
	}
	if err := check(&s, sc.broken); err != nil {
		return nil, fmt.Errorf("a saved race: %w", err)
	}
	if s.Last == nil {
		s.Last = []int{}
	}
	g := &game{sc: sc, s: &s}
	if sc.broken == staleSave {
		g.raw = b
	}
	if sc.broken == trustedSteps {
		g.history = make([]byte, 0, min(max(s.Steps, 0), 2<<20))
	}
	return g, nil
}

func (sc *scenario) Describe() sim.Description {
	d := sim.Description{
		Summary: "A dice race: each side rolls d-sided dice on its turn, and the first to enough successes wins (the kit's toy).",
		Title: fmt.Sprintf("a (%s) against b (%s): up to %d d%d, success on %d+, first to %d",
			sc.Styles[0], sc.Styles[1], sc.Rules.MaxDice, sc.Rules.Sides, sc.Rules.SuccessOn, sc.Rules.Target),
		Terms: []sim.Term{
			{Key: "*_wins", Text: "* reaches the target first"},
			{Key: "rounds", Text: "turns taken, both sides' counted"},
		},
	}
	switch sc.broken {
	case missingTerm:
		d.Terms = d.Terms[:1]
	case emptyTitle:
		d.Title = ""
	}
	return d
}

// game is a race in progress, satisfying sim.Game.
type game struct {
	sc      *scenario
	s       *state
	sink    func(sim.Event)
	chooser sim.Chooser
	winner  int    // for outcomeCached: set by the step that ends the race
	history []byte // for trustedSteps
	raw     []byte // for staleSave
}

func (g *game) Done() bool { return g.s.done() }

func (g *game) Step(r *dice.Roller) error {
	if g.sc.broken == unboundedTurn && g.s.Turn != 0 && g.s.Turn != 1 {
		<-g.sc.hang // waits for a side that is not there
	}
	err := g.sc.step(g.s, r, g.chooser, g.sink)
	if err == nil && g.sink == nil && g.sc.broken == listenerMatters {
		g.s.Steps++
	}
	if err == nil && g.s.done() {
		g.winner = g.s.winner()
	}
	return err
}

func (g *game) Outcome(metrics []int) (int, error) {
	if !g.s.done() && g.sc.broken != outcomeEarly {
		return 0, errors.New("the race is still going")
	}
	if len(metrics) > 0 || g.sc.broken == shortMetrics {
		metrics[0] = g.s.Steps
	}
	switch g.sc.broken {
	case outcomeRange:
		return 2, nil
	case outcomeCached:
		return g.winner, nil
	}
	return g.s.winner(), nil
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

func (g *game) Listen(sink func(sim.Event)) { g.sink = sink }
func (g *game) Intercept(c sim.Chooser)     { g.chooser = c }

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
	c, err := markov.Explore(ctx, pos{}, next)
	if err != nil {
		return markov.Answer{}, err
	}
	ans, err := markov.AnswerOf(ctx, c, 2, func(q pos) int {
		if q.a >= r.Target {
			return 0
		}
		return 1
	}, 10_000)
	switch {
	case err != nil:
		return ans, err
	case sc.broken == swappedExact:
		ans.P[0], ans.P[1] = ans.P[1], ans.P[0]
	case sc.broken == exactVaries && sc.exacts.Add(1)%2 == 0:
		ans.P[0] = math.Nextafter(ans.P[0], 1)
	}
	return ans, nil
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
