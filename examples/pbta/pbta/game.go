package pbta

import (
	"encoding/json"
	"fmt"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim"
)

// Game is a fight in progress, played step by step through sim.Game: the
// scenario's engine and a State. Its questions, for a sim.Chooser: the
// player's move (a Move), the player's cost after a 7-9 (a Cost) and the
// GM's hard move after a miss (a HardMove), each asked with a *View.
type Game struct {
	sc Scenario
	e  *Engine
	s  State
}

// savedGame is a Game as Save writes it: the policies by name and the
// state, which holds the rules and the cast.
type savedGame struct {
	Player string `json:"player"`
	GM     string `json:"gm"`
	State  State  `json:"state"`
}

// Start begins a fight of the scenario. It rolls nothing.
func (sc Scenario) Start(*dice.Roller) (sim.Game, error) {
	e, err := sc.NewEngine()
	if err != nil {
		return nil, err
	}
	return &Game{sc: sc, e: e, s: *e.NewState()}, nil
}

// maxSaved bounds the bytes Restore reads: a saved fight is well under a
// kilobyte.
const maxSaved = 1 << 16

// Restore reads a fight Save wrote, strictly (no unknown fields, nothing
// after it), and checks it whole.
func (Scenario) Restore(saved []byte) (sim.Game, error) {
	if len(saved) > maxSaved {
		return nil, fmt.Errorf("%w: a saved fight of %d bytes; at most %d", ErrInvalid, len(saved), maxSaved)
	}
	var sg savedGame
	if err := sim.DecodeStrict(saved, &sg); err != nil {
		return nil, fmt.Errorf("%w: reading a saved fight: %v", ErrInvalid, err)
	}
	sc := Scenario{Rules: sg.State.Rules, PC: sg.State.PC, Threat: sg.State.Threat, Player: sg.Player, GM: sg.GM}
	e, err := sc.NewEngine()
	if err != nil {
		return nil, err
	}
	if err := sg.State.Check(); err != nil {
		return nil, err
	}
	return &Game{sc: sc, e: e, s: sg.State}, nil
}

// State returns the fight's state; changing it changes the game.
func (g *Game) State() *State { return &g.s }

// Engine returns the engine the game steps with.
func (g *Game) Engine() *Engine { return g.e }

// Scenario returns the scenario the game plays.
func (g *Game) Scenario() Scenario { return g.sc }

// Step takes the fight's next step (Engine.Step).
func (g *Game) Step(r *dice.Roller) error { return g.e.Step(&g.s, r) }

// Done reports whether the fight is over.
func (g *Game) Done() bool { return g.s.Done() }

// Outcome reports how the finished fight ended.
func (g *Game) Outcome(m []int) (int, error) { return g.s.Outcome(m) }

// Save returns the fight as JSON.
func (g *Game) Save() ([]byte, error) {
	return json.Marshal(savedGame{Player: g.sc.Player, GM: g.sc.GM, State: g.s})
}

// Listen sets the function that hears every Event from now on.
func (g *Game) Listen(sink func(sim.Event)) {
	if sink == nil {
		g.e.Sink = nil
		return
	}
	g.e.Sink = func(ev Event) { sink(ev) }
}

// Intercept sets the Chooser every policy answer passes through. The steps
// validate each answer before they roll or change anything, so a refused
// answer leaves the game and the Roller as they were.
func (g *Game) Intercept(c sim.Chooser) {
	if c == nil {
		g.e.choose = nil
		return
	}
	g.e.choose = c
}
