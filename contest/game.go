package contest

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim"
)

// maxSaved bounds the bytes Scenario.Restore reads: a state at every bound
// of Check (100 characters of 200 traits each) saves in well under it.
// [ours]
const maxSaved = 8 << 20

// Game is one game of a scenario in progress: its action (or timed action)
// begun on a State, played step by step under the scenario's policies. It
// satisfies sim.Game, so code that knows no rule package can start, step,
// save, restore, narrate and score it. Scenario.Start and Scenario.Restore
// make one, its buffers sized for the steps to come: its steps, through a
// Chooser or not, allocate nothing. A Game is used by one goroutine at a
// time.
type Game struct {
	sc    Scenario
	e     Engine
	s     *State
	table Table // the scenario's policies, as built
	basic bool
	ncat  int
	// ask is the Chooser set with Intercept; asked is table with ask
	// standing between each policy and the steps, made at the first
	// Intercept.
	ask   asker
	asked Table
}

// savedGame is what Game.Save writes: the scenario (rules, cast and
// policies by name) and the state.
type savedGame struct {
	Scenario Scenario `json:"scenario"`
	State    *State   `json:"state"`
}

// Start begins a game of the scenario: its action (or timed action) begun
// on the scenario's start, ready for its first step. It rolls nothing, but
// like every step it refuses a nil r (dice.ErrNilRoller).
func (s Scenario) Start(r *dice.Roller) (sim.Game, error) {
	if r == nil {
		return nil, fmt.Errorf("contest: start: %w", dice.ErrNilRoller)
	}
	b, err := s.build()
	if err != nil {
		return nil, err
	}
	return s.game(b, b.start.Clone()), nil
}

// game makes the Game of scenario s (built as b) playing state st, its
// buffers grown for every step to come (State.reserve).
func (s Scenario) game(b *built, st *State) *Game {
	st.reserve()
	g := &Game{sc: s, s: st, table: b.table, basic: s.Kind == KindBasic, ncat: len(s.Categories())}
	g.e.Policies = b.table
	return g
}

// Restore reads back a game Game.Save wrote: strictly (unknown fields,
// trailing data and more than 8 MiB are refused), the scenario validated
// and the state checked whole (State.Check) and against the scenario (its
// cast, the kind and sides of its action, its interferer), so that a saved
// game no step could have reached is refused with the reason.
func (s Scenario) Restore(saved []byte) (sim.Game, error) {
	if len(saved) > maxSaved {
		return nil, fmt.Errorf("contest: a saved game of %d bytes: at most %d", len(saved), maxSaved)
	}
	var sv savedGame
	if err := sim.DecodeStrict(saved, &sv); err != nil {
		return nil, fmt.Errorf("contest: reading a saved game: %w", err)
	}
	b, err := sv.Scenario.build()
	if err != nil {
		return nil, fmt.Errorf("contest: the saved game's scenario: %w", err)
	}
	if sv.State == nil {
		return nil, errors.New("contest: the saved game has no state")
	}
	if err := sv.State.Check(); err != nil {
		return nil, err
	}
	if err := sv.Scenario.fits(sv.State, b); err != nil {
		return nil, err
	}
	return sv.Scenario.game(b, sv.State), nil
}

// fits checks that st, a whole state, is a game of scenario s: the same
// cast, and one action of the scenario's kind with its sides (and no
// interference where the scenario has no interferer).
func (s Scenario) fits(st *State, b *built) error {
	if len(st.Characters) != len(s.Cast) {
		return fmt.Errorf("contest: the saved state has %d characters and its scenario's cast %d", len(st.Characters), len(s.Cast))
	}
	if s.Kind == KindTimed {
		if st.Timed == nil || st.Action != nil {
			return errors.New("contest: a saved timed game holds one timed action and no other")
		}
		return nil
	}
	a := st.Action
	if a == nil || st.Timed != nil {
		return fmt.Errorf("contest: a saved %s game holds one action and no timed action", s.Kind)
	}
	if (a.Kind == Basic) != (s.Kind == KindBasic) || len(a.Sides) != len(b.sides) {
		return fmt.Errorf("contest: the saved action (%v, %d sides) is not the scenario's (%s, %d sides)", a.Kind, len(a.Sides), s.Kind, len(b.sides))
	}
	for i := range a.Sides {
		if a.Sides[i].Char != b.sides[i].Char {
			return fmt.Errorf("contest: the saved action's side %d is character %d, the scenario's %d", i, a.Sides[i].Char, b.sides[i].Char)
		}
	}
	if b.iChar < 0 && (a.Planned.Set || a.Interferer.Set || a.End == EndStopped) {
		return errors.New("contest: the saved action has an interferer and its scenario none")
	}
	if b.iChar >= 0 && ((a.Planned.Set && !a.Planned.Is(b.iChar)) || (a.Interferer.Set && !a.Interferer.Is(b.iChar))) {
		return fmt.Errorf("contest: the saved action's interferer is not the scenario's %s", s.Interferer)
	}
	return nil
}

// State returns the game's state, to read (and to change only between
// steps, at the risk of making a game no step could reach).
func (g *Game) State() *State { return g.s }

// Scenario returns the scenario the game plays.
func (g *Game) Scenario() Scenario { return g.sc }

// Done reports whether the game has ended (State.Done).
func (g *Game) Done() bool { return g.s.Done() }

// Step plays the game's next step (Engine.Step) under the scenario's
// policies, or the Chooser's answers. Each answer is checked where it is
// given, before the step changes anything or rolls a die: a step refused
// for an answer of another type or an illegal one leaves the state, r and
// a listener untouched.
func (g *Game) Step(r *dice.Roller) error {
	g.ask.bad = nil
	return g.e.Step(g.s, r)
}

// Outcome reports how the finished game ended, as its Runner would count a
// trial: the category's index in the scenario's Categories, and its
// Metrics written into metrics (a shorter slice gets the first ones).
func (g *Game) Outcome(metrics []int) (int, error) {
	if !g.Done() {
		return 0, fmt.Errorf("%w: the game is still going", ErrPhase)
	}
	clear(metrics)
	c := outcome(g.s, g.basic, g.ncat, metrics)
	if c < 0 || c >= g.ncat {
		return 0, fmt.Errorf("contest: the game ended in category %d of %d", c, g.ncat)
	}
	return c, nil
}

// Save returns the game as JSON: the scenario it plays and its state.
// Scenario.Restore reads it back, and saving the restored game gives the
// same bytes.
func (g *Game) Save() ([]byte, error) {
	return json.Marshal(savedGame{Scenario: g.sc, State: g.s})
}

// Listen sets the function that hears every event from now on, each an
// Event (with its own copies of the dice and faces); nil hears none. A
// refused step is never heard: no step emits an event before its last
// answer is checked.
func (g *Game) Listen(sink func(sim.Event)) {
	g.e.Sink = nil
	if sink != nil {
		g.e.Sink = func(ev Event) { sink(ev.own()) }
	}
}

// Intercept sets a Chooser that is handed every answer a policy gives
// (with the *View it was asked from; the questions and their answer types
// are listed in the package doc) and returns the answer the step takes; nil
// leaves the scenario's policies alone. The *View is the game's, good only
// during the call. The common answers are boxed once per game, so that a
// step through a Chooser allocates nothing.
func (g *Game) Intercept(c sim.Chooser) {
	g.ask.choose = c
	g.e.Policies = g.table
	if c == nil {
		return
	}
	if g.asked.GM == nil {
		g.ask.box(g.s)
		g.asked = Table{Chars: make([]Policy, len(g.s.Characters)), GM: chosen{g.table.gm(), &g.ask}}
		for i := range g.asked.Chars {
			g.asked.Chars[i] = chosen{g.table.of(i), &g.ask}
		}
	}
	g.e.Policies = g.asked
}

// own returns e with its own copies of the dice and faces, which alias
// the state's buffers.
func (e Event) own() Event {
	if e.Faces != nil {
		e.Faces = append([]int(nil), e.Faces...)
	}
	if e.Dice != nil {
		e.Dice = append([]dice.Die(nil), e.Dice...)
	}
	return e
}
