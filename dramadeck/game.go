package dramadeck

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim"
)

// maxSave bounds a saved game Scenario.Restore reads: a full deck of
// MaxCards cards with both GM lines, the largest cast and every task fit
// well inside it.
const maxSave = 8 << 20

// Game is one encounter of a Scenario in progress, played step by step
// under the scenario's policies: the sim.Game that Scenario.Start and
// Scenario.Restore return. Its State is the whole game; State() lends it
// (for reading, or for a designer's change between steps).
type Game struct {
	sc    Scenario
	pol   Table  // the scenario's policies
	eng   Engine // the policies the steps ask: pol, or pol through the Chooser
	state *State
	sink  func(sim.Event)
	ask   *asking // the Chooser every answer passes through, or nil
}

// Start deals a game of the scenario as a trial does (the deck shuffled,
// the hands dealt, combat begun), to play by Game.Step. The game it
// returns is a *Game.
func (s Scenario) Start(r *dice.Roller) (sim.Game, error) {
	if r == nil {
		return nil, dice.ErrNilRoller
	}
	st, err := s.newState()
	if err != nil {
		return nil, err
	}
	s.begin(&game{State: st}, r)
	return s.game(st)
}

// game wraps st as a Game of the scenario under its policies.
func (s Scenario) game(st *State) (*Game, error) {
	pol, err := s.Policies()
	if err != nil {
		return nil, err
	}
	g := &Game{sc: s, pol: pol, state: st}
	g.eng.Policies = pol
	return g, nil
}

// saved is a game as Game.Save writes it.
type saved struct {
	Scenario Scenario        `json:"scenario"`
	State    json.RawMessage `json:"state"`
}

// Restore reads a game Game.Save wrote: the scenario (validated) and its
// state, decoded strictly (an unknown field is an error) and checked
// whole (State.Check). The game it returns is a *Game, ready to play on
// with the dice.Roller saved beside it.
func (s Scenario) Restore(data []byte) (sim.Game, error) {
	if len(data) > maxSave {
		return nil, fmt.Errorf("dramadeck: saved game of %d bytes; at most %d", len(data), maxSave)
	}
	var sv saved
	if err := sim.DecodeStrict(data, &sv); err != nil {
		return nil, fmt.Errorf("dramadeck: reading a saved game: %w", err)
	}
	if err := sv.Scenario.Validate(); err != nil {
		return nil, fmt.Errorf("dramadeck: saved game's scenario: %w", err)
	}
	st, err := restoreState(sv.State)
	if err != nil {
		return nil, err
	}
	if study := studyOf(st); study != sv.Scenario.Study || st.Plan != nil && st.Plan.InCombat != sv.Scenario.TaskInCombat {
		return nil, fmt.Errorf("dramadeck: saved game refused: its state plays a %v, its scenario a %v", study, sv.Scenario.Study)
	}
	return sv.Scenario.game(st)
}

// studyOf is the study a state plays.
func studyOf(st *State) Study {
	if st.Plan == nil {
		return StudyEncounter
	}
	return st.Plan.Study
}

// State returns the game's state.
func (g *Game) State() *State { return g.state }

// Scenario returns the scenario the game plays.
func (g *Game) Scenario() Scenario { return g.sc }

// Step takes the encounter's next step (Engine.Step) under the scenario's
// policies, each answer passing through the Chooser if one is set. A
// refused step (a nil r, a finished game, an illegal or wrong-typed
// answer) changes neither the game nor r, and a listener hears none of
// its events.
//
// With questions asked as steps (Game.Ask), Step stops at the first such
// question, which waits in State.Question for Game.Reply; Step with a
// question pending has its policy answer it (Engine.Step).
func (g *Game) Step(r *dice.Roller) error {
	if err := g.eng.readyToAsk(g.state, r); err != nil {
		return err
	}
	return g.eng.step(g.state, r, g.ask != nil)
}

// Ask has the steps ask side's questions in set (Heroes: the players';
// Villains: the GM's) as steps of their own, rather than of the
// scenario's policies (Engine.Ask); AskSet(0) asks none again.
func (g *Game) Ask(side Side, set AskSet) {
	if side <= Villains {
		g.eng.Ask[side] = set
	}
}

// Question returns the question the game waits on, or nil: the game's
// own, good until the step after the one that answers it
// (State.Question).
func (g *Game) Question() *Question { return g.state.Question }

// Reply answers the question the game waits on (Engine.Reply), the
// rest of the step asking the policies as Step does (through the
// Chooser, if one is set); a refused answer changes nothing.
func (g *Game) Reply(r *dice.Roller, a Reply) error {
	return g.eng.Reply(g.state, r, a)
}

// Done reports whether the encounter is over.
func (g *Game) Done() bool { return g.state.Done() }

// Outcome reports how the encounter ended, as a trial counts it: the index
// of its category (Scenario.Categories) and its metrics in metrics.
func (g *Game) Outcome(metrics []int) (int, error) {
	if !g.Done() {
		return 0, errors.New("dramadeck: the encounter is still going")
	}
	return outcome(g.state, metrics)
}

// Save returns the scenario and the state as JSON; Scenario.Restore reads
// it back. The dice.Roller is saved apart (Roller.MarshalBinary).
func (g *Game) Save() ([]byte, error) {
	st, err := json.Marshal(g.state)
	if err != nil {
		return nil, err
	}
	return json.Marshal(saved{Scenario: g.sc, State: st})
}

// Listen sets the function that hears every Event from now on; nil hears
// none. A step's events are heard once it is taken: a refused step is
// never heard.
func (g *Game) Listen(sink func(sim.Event)) {
	g.sink = sink
	g.eng.Sink = nil
	if sink != nil {
		g.eng.Sink = func(e Event) { g.sink(e) }
	}
}

// Intercept sets the Chooser every policy answer passes through (see the
// package doc for the questions and their answer types); nil leaves the
// scenario's policies alone. The view the Chooser is handed, and a slice
// answer (Critical's cards, Declare's plays), are the game's, good only
// during the call: a Chooser keeps copies.
func (g *Game) Intercept(c sim.Chooser) {
	if c == nil {
		g.ask, g.eng.Policies = nil, g.pol
		return
	}
	g.ask = newAsking(c, g.state)
	g.eng.Policies = Table{
		Heroes: &chosen{Policy: g.pol.Heroes, ask: g.ask},
		GM:     &chosen{Policy: g.pol.GM, ask: g.ask},
	}
}
