package actiontest

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim"
)

// Game is a pursuit of a Scenario in progress, a step at a time: the
// sim.Game contract over the character's State and the Pursuit. Scenario
// Start and Restore make one (a *Game, as a sim.Game: assert it for the
// typed accessors). Its steps are the Runner's, so a game played
// by hand, a trial and the exact odds play the same rules. A Game is used
// by one goroutine at a time.
type Game struct {
	rn *Runner
	// player is the policy the steps ask: the scenario's, or SetPlayer's.
	player Policy
	// custom says player is the caller's own, whose answers may be
	// illegal.
	custom  bool
	chooser sim.Chooser
	ask     chosen
	// undo keeps the character's play before a step that may ask for
	// spending with a Chooser or a policy of the caller's: the one
	// question asked after the step has read the roll.
	undo State
	// sink is the listener; held keeps the events of a step that may
	// still be refused at its spending, heard only once it is taken.
	sink    func(sim.Event)
	holding bool
	held    []Event
}

// maxSave bounds a saved game Restore reads.
const maxSave = 1 << 20

// savedGame is a game as Save writes it: the scenario, the character's
// state and where the pursuit stands.
type savedGame struct {
	Scenario Scenario `json:"scenario"`
	State    State    `json:"state"`
	Pursuit  Pursuit  `json:"pursuit"`
}

// Start validates the scenario and begins a pursuit at its start (it
// rolls nothing yet; r must not be nil).
func (s Scenario) Start(r *dice.Roller) (sim.Game, error) {
	if r == nil {
		return nil, dice.ErrNilRoller
	}
	return s.newGame()
}

// newGame validates the scenario and returns a pursuit at its start.
func (s Scenario) newGame() (*Game, error) {
	rn, err := s.NewRunner()
	if err != nil {
		return nil, err
	}
	return &Game{rn: rn, player: rn.policy}, nil
}

// Restore reads a game that Game.Save wrote, strictly (unknown fields,
// trailing data and saves over 1 MiB are refused), and checks it whole:
// the scenario (Validate), the state against its rules (State.Check) and
// the scenario's character and Director, and the pursuit against both.
// The scenario's Directors (which JSON does not carry) are s's.
func (s Scenario) Restore(saved []byte) (sim.Game, error) {
	g, err := s.restoreGame(saved)
	if err != nil {
		return nil, err
	}
	return g, nil
}

// RestoreGame is Restore returning the *Game.
func (s Scenario) restoreGame(saved []byte) (*Game, error) {
	if len(saved) > maxSave {
		return nil, fmt.Errorf("actiontest: a saved game of %d bytes, at most %d", len(saved), maxSave)
	}
	var sg savedGame
	if err := sim.DecodeStrict(saved, &sg); err != nil {
		return nil, fmt.Errorf("actiontest: reading a saved game: %w", clipErr(err))
	}
	sg.Scenario.Directors = s.Directors
	rn, err := sg.Scenario.NewRunner()
	if err != nil {
		return nil, fmt.Errorf("actiontest: saved scenario: %w", err)
	}
	if err := rn.checkState(&sg.State); err != nil {
		return nil, fmt.Errorf("actiontest: saved state: %w", err)
	}
	rn.c.State.copyPlay(&sg.State)
	if err := rn.checkPursuit(&sg.Pursuit); err != nil {
		return nil, fmt.Errorf("actiontest: saved pursuit: %w", err)
	}
	rn.Pursuit = sg.Pursuit
	return &Game{rn: rn, player: rn.policy}, nil
}

// clipErr shortens a decoding error that quotes the input.
func clipErr(err error) error {
	if msg := err.Error(); len(msg) > 200 {
		return errors.New(msg[:200] + "...")
	}
	return err
}

// Step takes the pursuit's next step under its policy: finish or push the
// roll in flight, call the due flashback, or begin the next test, or end
// the pursuit when no test is left to take. A refused step (a nil r, a
// finished game, an illegal answer) returns an error and changes neither
// the game nor r.
func (g *Game) Step(r *dice.Roller) error {
	if r == nil {
		return dice.ErrNilRoller
	}
	rn := g.rn
	if rn.Pursuit.Ended {
		return fmt.Errorf("%w: the pursuit has ended (%s)", ErrStage, rn.Pursuit.Category)
	}
	if g.chooser == nil && !g.custom {
		return rn.step(r, g.player)
	}
	// Every answer is checked where it is given, before the step changes
	// anything or rolls a die, except the spending: it is asked once the
	// roll is read (and read rolls no die), so a step that may ask it
	// keeps the character's play to put back.
	var p Policy = g.player
	if g.chooser != nil {
		g.ask.p, g.ask.c, g.ask.err = g.player, g.chooser, nil
		p = &g.ask
	}
	keep := rn.c.maySpend()
	if keep {
		g.undo.copyPlay(rn.c.State)
		g.holding = g.sink != nil
	}
	err := rn.step(r, p)
	if err != nil && keep {
		rn.c.State.copyPlay(&g.undo)
	}
	g.release(err == nil)
	return err
}

// release ends holding a step's events: the listener hears them when
// the step was taken, and never when it was refused.
func (g *Game) release(taken bool) {
	if !g.holding {
		return
	}
	g.holding = false
	if taken {
		for _, e := range g.held {
			g.sink(e)
		}
	}
	clear(g.held)
	g.held = g.held[:0]
}

// Done reports whether the pursuit has ended.
func (g *Game) Done() bool { return g.rn.Pursuit.Ended }

// Outcome reports how the finished pursuit ended: its category's index in
// Categories and its metrics (Metrics order) written into metrics, as a
// trial counts them.
func (g *Game) Outcome(metrics []int) (int, error) {
	if !g.rn.Pursuit.Ended {
		return -1, fmt.Errorf("%w: the pursuit is still going", ErrStage)
	}
	copy(metrics, g.rn.Pursuit.Metrics[:])
	return int(g.rn.Pursuit.Category), nil
}

// Save returns the game as JSON: the scenario, the character's state and
// the pursuit. Scenario.Restore reads it back, and saving the restored
// game gives the same bytes.
func (g *Game) Save() ([]byte, error) {
	return json.Marshal(savedGame{Scenario: g.rn.s, State: *g.rn.c.State, Pursuit: g.rn.Pursuit})
}

// Listen sets the function that hears every event from now on; nil hears
// none (and no event is built). Each Event is the listener's to keep (its
// Dice are a copy). A step's events are heard only when the step is
// taken: a refused step is never heard.
func (g *Game) Listen(sink func(sim.Event)) {
	g.sink = sink
	if sink == nil {
		g.rn.c.Sink = nil
		return
	}
	g.rn.c.Sink = func(e Event) {
		e.Dice = slices.Clone(e.Dice)
		if g.holding {
			g.held = append(g.held, e)
			return
		}
		sink(e)
	}
}

// Intercept sets a Chooser that sees every answer the player's policy
// gives and returns the answer the step uses (see the package doc for the
// questions and their answers' types); nil leaves the policy alone. The
// *View and a spending answer the Chooser is handed are the game's, good
// only during the call: a Chooser keeps copies. A step whose answer is
// refused changes nothing.
func (g *Game) Intercept(c sim.Chooser) {
	g.chooser = c
	if c != nil && g.ask.push == nil {
		g.ask.box(g.rn.c.State)
	}
}

// SetPlayer has p make the player's choices from now on, in place of the
// scenario's policy (nil puts it back). The steps check p's answers, and a
// step p answers illegally is refused and changes nothing.
func (g *Game) SetPlayer(p Policy) {
	g.player, g.custom = p, p != nil
	if p == nil {
		g.player = g.rn.policy
	}
}

// State returns the character's state (the game's own: read it, but play
// it only through the game).
func (g *Game) State() *State { return g.rn.c.State }

// Pursuit returns where the pursuit stands.
func (g *Game) Pursuit() Pursuit { return g.rn.Pursuit }

// Scenario returns the scenario the game plays.
func (g *Game) Scenario() Scenario { return g.rn.s }

// PushAnswer is the answer to the push question as a Chooser sees it:
// whether to push, and the track the push's harm goes on.
type PushAnswer struct {
	Push  bool
	Track string
}

// chosen is a policy whose every answer passes through a Chooser; an
// answer of the wrong type is kept as err (the step is then refused) and
// read as the safest answer.
type chosen struct {
	p   Policy
	c   sim.Chooser
	err error
	// The answers a Chooser is handed most, boxed once per game so that
	// handing them over allocates nothing: push[2i+b] is the push answer
	// {b == 1, tracks[i]} (tracks are the harm tracks, then ""), and
	// spend[n] is buf[:n], the state's spending buffer.
	tracks []string
	push   []any
	buf    *[len(State{}.spendBuf)]int
	spend  [len(State{}.spendBuf) + 1]any
}

// box boxes the answers about state st.
func (q *chosen) box(st *State) {
	q.tracks = append(slices.Clip(st.Rules.HarmTracks), "")
	q.push = make([]any, 0, 2*len(q.tracks))
	for _, t := range q.tracks {
		q.push = append(q.push, PushAnswer{Track: t}, PushAnswer{Push: true, Track: t})
	}
	q.buf = &st.spendBuf
	for n := range q.spend {
		q.spend[n] = q.buf[:n]
	}
}

// pushAnswer is the push answer a, boxed.
func (q *chosen) pushAnswer(a PushAnswer) any {
	i := slices.Index(q.tracks, a.Track)
	if i < 0 {
		return a
	}
	if a.Push {
		return q.push[2*i+1]
	}
	return q.push[2*i]
}

// spendAnswer is the spending idx, boxed.
func (q *chosen) spendAnswer(idx []int) any {
	if cap(idx) == len(q.buf) && &idx[:1][0] == &q.buf[0] {
		return q.spend[len(idx)]
	}
	return idx
}

func (q *chosen) Name() string { return q.p.Name() }

func (q *chosen) wrong(question string, got any) {
	if q.err == nil {
		q.err = fmt.Errorf("actiontest: policy %s: the %s answer is a %T, not the question's type", q.p.Name(), question, got)
	}
}

func (q *chosen) Peril(v *View) bool {
	got := q.c(v, q.p.Peril(v))
	a, ok := got.(bool)
	if !ok {
		q.wrong("peril", got)
	}
	return a
}

func (q *chosen) Push(v *View) (bool, string) {
	push, track := q.p.Push(v)
	got := q.c(v, q.pushAnswer(PushAnswer{Push: push, Track: track}))
	a, ok := got.(PushAnswer)
	if !ok {
		q.wrong("push", got)
		return false, ""
	}
	return a.Push, a.Track
}

func (q *chosen) Spend(v *View, buf []int) []int {
	got := q.c(v, q.spendAnswer(q.p.Spend(v, buf)))
	a, ok := got.([]int)
	if !ok {
		q.wrong("spend", got)
		return buf[:0]
	}
	return a
}

func (q *chosen) Flashback(v *View) bool {
	got := q.c(v, q.p.Flashback(v))
	a, ok := got.(bool)
	if !ok {
		q.wrong("flashback", got)
	}
	return a
}
