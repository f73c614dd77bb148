package edge

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim"
)

// MaxSave bounds the bytes Scenario.Restore reads: a saved interaction at
// the package's largest bounds (MaxParties parties of MaxMembers members,
// MaxSkills skills) is far smaller.
const MaxSave = 1 << 20

// Game is one interaction in progress under its scenario's policies: the
// sim.Game that Scenario.Start and Scenario.Restore return (as *Game). It
// plays through the same steps as Engine.Step, on an Engine and a State of
// its own, the State checked once when the game is made. A Game is used by
// one goroutine at a time.
type Game struct {
	e       *Engine
	in      *game // e at work on the game's State
	base    []Policy
	choose  sim.Chooser
	illegal error // the first answer of the wrong type in this step
	listen  func(sim.Event)
	held    []Event // a step's events under a Chooser, heard once it succeeds
}

// Start begins an interaction of s before its starting checks (the first
// Step makes them). It refuses an invalid scenario and a nil Roller.
func (s Scenario) Start(r *dice.Roller) (sim.Game, error) {
	if r == nil {
		return nil, noRoller("Start")
	}
	e, err := s.NewEngine()
	if err != nil {
		return nil, err
	}
	return newGame(e, e.NewState()), nil
}

// Restore reads back a game that Game.Save wrote, strictly (an unknown
// field, a name the scenario lacks or more than MaxSave bytes are refused)
// and checks it whole (State.Check): it plays the saved scenario, with the
// policies it names, from the saved state.
func (Scenario) Restore(saved []byte) (sim.Game, error) {
	if len(saved) > MaxSave {
		return nil, fmt.Errorf("edge: a saved game of %d bytes: at most %d", len(saved), MaxSave)
	}
	var st State
	if err := sim.DecodeStrict(saved, &st); err != nil {
		return nil, fmt.Errorf("edge: reading a saved game: %w", err)
	}
	e, err := st.Scenario.NewEngine()
	if err != nil {
		return nil, fmt.Errorf("edge: state.scenario: %w", err)
	}
	in, err := e.begin(&st)
	if err != nil {
		return nil, err
	}
	e.release(in)
	return newGame(e, &st), nil
}

func newGame(e *Engine, s *State) *Game {
	g := &Game{e: e, base: e.Policies}
	g.in = e.lend(s)
	return g
}

// State returns the game's State, to read (a step's legal choices, the
// dice each party holds); changing it is the steps' work alone.
func (g *Game) State() *State { return g.in.s }

// Engine returns the engine the game plays on, for its legal-choice
// queries and its by-hand steps on State.
func (g *Game) Engine() *Engine { return g.e }

// Step plays the next step under the scenario's policies (Engine.Step),
// each answer first handed to the Chooser set with Intercept, if any. A
// refused step changes neither the game nor r: with a Chooser set, the
// state and r are put back as they were before it.
func (g *Game) Step(r *dice.Roller) error {
	if r == nil {
		return noRoller("Step")
	}
	if g.choose == nil {
		return g.in.step(r)
	}
	saved, err := r.MarshalBinary()
	if err != nil {
		return fmt.Errorf("edge: a step with a Chooser must be able to put the Roller back: %w", err)
	}
	before := g.in.s.Clone()
	g.illegal, g.held = nil, g.held[:0]
	err = g.in.step(r)
	if err == nil {
		err = g.illegal
	}
	if err != nil {
		// The step is undone, and nobody hears its events.
		*g.in.s = before
		if uerr := r.UnmarshalBinary(saved); uerr != nil {
			return errors.Join(err, uerr)
		}
		return err
	}
	for _, e := range g.held {
		g.listen(e)
	}
	return nil
}

// Done reports whether the interaction has ended.
func (g *Game) Done() bool { return g.in.s.Done() }

// Outcome reports the category of a finished interaction (an index into
// Scenario.Categories) and writes its metrics (Scenario.Metrics), as a
// Runner's trial does.
func (g *Game) Outcome(metrics []int) (int, error) {
	s := g.in.s
	if !s.Done() {
		return -1, fmt.Errorf("edge: the interaction is still running after %d rounds: no outcome yet", s.Round)
	}
	writeMetrics(s, len(g.e.parties), metrics)
	return category(s.Outcome, len(g.e.parties)), nil
}

// Save returns the game as JSON: its State, which holds its scenario
// (rules, parties and their policies by name). Scenario.Restore reads it.
func (g *Game) Save() ([]byte, error) { return json.Marshal(g.in.s) }

// Listen sets the function that hears every event from now on; nil hears
// none (and no event is built).
func (g *Game) Listen(sink func(sim.Event)) {
	g.listen = sink
	g.setSink()
}

// setSink points the engine's Sink at the listener: directly, or, with a
// Chooser set, through the step's held events (a refused step is heard by
// nobody).
func (g *Game) setSink() {
	switch {
	case g.listen == nil:
		g.e.Sink = nil
	case g.choose != nil:
		g.e.Sink = func(e Event) { g.held = append(g.held, e) }
	default:
		sink := g.listen
		g.e.Sink = func(e Event) { sink(e) }
	}
}

// Intercept sets a Chooser that sees each answer of the scenario's
// policies (the questions and answer types are in the package doc) and
// returns the answer the step takes; nil leaves the policies alone.
func (g *Game) Intercept(c sim.Chooser) {
	g.choose = c
	g.setSink()
	if c == nil {
		g.e.Policies = g.base
		return
	}
	pols := make([]Policy, len(g.base))
	for p, pol := range g.base {
		pols[p] = &chosen{Policy: pol, g: g}
	}
	g.e.Policies = pols
}

// Question is the view a Chooser is handed with each answer: the View the
// policy was asked from, the party asked, and for Abandon the member, for
// React the action answered.
type Question struct {
	View   *View
	Party  int
	Member int     // the group asked to abandon its stragglers, or -1
	Action *Action // the action a reaction answers, or nil
}

// chosen hands each answer of a party's policy to the game's Chooser.
type chosen struct {
	Policy
	g *Game
}

// refuse records the first answer of the wrong type in this step.
func (c *chosen) refuse(q string, want, got any) {
	if c.g.illegal == nil {
		c.g.illegal = fmt.Errorf("edge: the answer to %s is a %T: want a %T", q, got, want)
	}
}

func (c *chosen) Concede(v *View, p int) Concession {
	ans := c.Policy.Concede(v, p)
	got := c.g.choose(Question{View: v, Party: p, Member: -1}, ans)
	if a, ok := got.(Concession); ok {
		return a
	}
	c.refuse("Concede", ans, got)
	return ans
}

func (c *chosen) Act(v *View, p int, a *Action) {
	c.Policy.Act(v, p, a)
	got := c.g.choose(Question{View: v, Party: p, Member: -1}, a.clone())
	if x, ok := got.(Action); ok {
		*a = x
		return
	}
	c.refuse("Act", Action{}, got)
}

func (c *chosen) React(v *View, p int, a *Action, r *Reaction) {
	c.Policy.React(v, p, a, r)
	ans := Reaction{Party: r.Party, Checks: append([]Use(nil), r.Checks...)}
	act := a.clone()
	got := c.g.choose(Question{View: v, Party: p, Member: -1, Action: &act}, ans)
	if x, ok := got.(Reaction); ok {
		*r = x
		return
	}
	c.refuse("React", ans, got)
}

func (c *chosen) Seize(v *View, p int) bool {
	ans := c.Policy.Seize(v, p)
	got := c.g.choose(Question{View: v, Party: p, Member: -1}, ans)
	if x, ok := got.(bool); ok {
		return x
	}
	c.refuse("Seize", ans, got)
	return ans
}

func (c *chosen) Abandon(v *View, p, m int) bool {
	ans := c.Policy.Abandon(v, p, m)
	got := c.g.choose(Question{View: v, Party: p, Member: m}, ans)
	if x, ok := got.(bool); ok {
		return x
	}
	c.refuse("Abandon", ans, got)
	return ans
}
