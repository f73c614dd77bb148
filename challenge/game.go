package challenge

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim"
)

// MaxSave is the size of the largest saved game Scenario.Restore reads.
const MaxSave = 1 << 20

// Game is one conflict of a Scenario in progress, played step by step
// under the scenario's policies: the sim.Game of this package. Scenario
// Start and Restore make one. A Game is used by one goroutine at a time.
type Game struct {
	sc    Scenario
	s     *State
	eng   Engine
	plays []Policy // the scenario's policies, one per side
	per   int      // categories per side

	// With a Chooser set, every policy answer goes through it (asked).
	// An answer of another type than the question's is kept as refusal,
	// and the step asking stops there, before it changes anything.
	choose  sim.Chooser
	asked   []Policy
	refusal error
	// The answers a Chooser is handed that would be boxed anew at each
	// question, boxed once per game: -1 (no name crossed off; Drop), and
	// the losses the policies have chosen, up to maxBoxedLosses of them (a
	// side's sheets change only as it goes out, so a policy chooses the
	// same losses game after game).
	none   any
	losses []boxedLoss
}

// maxBoxedLosses bounds the losses a Game keeps boxed.
const maxBoxedLosses = 64

// boxedLoss is a loss and the same loss boxed for a Chooser.
type boxedLoss struct {
	l   Loss
	box any
}

var _ sim.Game = (*Game)(nil)

// Start begins a conflict of the scenario at its start, every side still
// to cast. It rolls nothing, but like every step it needs a Roller.
func (s Scenario) Start(r *dice.Roller) (sim.Game, error) {
	if r == nil {
		return nil, nilRoller("Start")
	}
	c, plays, err := s.build()
	if err != nil {
		return nil, err
	}
	return newGame(s, c, plays), nil
}

func newGame(sc Scenario, c *State, plays []Policy) *Game {
	g := &Game{sc: sc, s: c, plays: plays, per: perSide(len(c.Sides))}
	g.eng.Policies = plays
	return g
}

// State returns the conflict as it stands: the game's own. Change it only
// through an Engine's steps (or Step), and Check it after editing it by
// hand: the game's steps take it as checked.
func (g *Game) State() *State { return g.s }

// Scenario returns the scenario the game plays.
func (g *Game) Scenario() Scenario { return g.sc }

// Policies returns the scenario's policies the game plays, one per side.
func (g *Game) Policies() []Policy { return slices.Clone(g.plays) }

// Done reports whether the conflict is over.
func (g *Game) Done() bool { return g.s.Done() }

// Step takes the conflict's next step under the scenario's policies (and
// the Chooser, if one is set). A refused step (a nil r, a finished
// conflict, an illegal answer or one of another type than the question's)
// changes neither the game nor r, and a listener hears none of it: every
// answer is checked where it is given, before the step changes anything
// or rolls a die.
func (g *Game) Step(r *dice.Roller) error {
	if r == nil {
		return nilRoller("Step")
	}
	if g.s.Done() {
		return fmt.Errorf("%w: Step: the conflict is over", ErrPhase)
	}
	// The conflict was checked whole when the game began or was restored,
	// and only steps have changed it since (State), so the step reads it
	// without checking whose turn it is again, as an Engine's, handed any
	// State, does.
	c := g.s
	g.refusal = nil
	c.sink, c.view.s = g.eng.Sink, c
	err := c.step(r, g.eng.Policies)
	c.unlend()
	return err
}

// Outcome reports how the finished conflict ended, as a Runner counts a
// trial: the index of its category in the scenario's Categories, and its
// metrics (Metrics' order) written into metrics.
func (g *Game) Outcome(metrics []int) (int, error) {
	if !g.s.Done() {
		return -1, fmt.Errorf("%w: Outcome: the conflict is still going (phase %v)", ErrPhase, g.s.Phase)
	}
	return outcome(g.s, g.per, metrics), nil
}

// Listen has sink hear every event from now on; nil hears none.
func (g *Game) Listen(sink func(sim.Event)) {
	if sink == nil {
		g.eng.Sink = nil
		return
	}
	g.eng.Sink = func(e Event) { sink(e) }
}

// Intercept has c see every policy answer before the step takes it (see
// the package doc for the questions and the type of each answer); nil
// leaves the scenario's policies alone. The *View c is handed is the
// game's, good only during the call.
func (g *Game) Intercept(c sim.Chooser) {
	g.choose = c
	if c == nil {
		g.eng.Policies = g.plays
		return
	}
	if g.asked == nil {
		g.asked = make([]Policy, len(g.plays))
		for i, p := range g.plays {
			if p == nil {
				p = (*Style)(nil)
			}
			g.asked[i] = &chosen{p: p, g: g}
		}
		g.none = -1
	}
	g.eng.Policies = g.asked
}

// saved is a saved game: the scenario and the conflict as it stands.
type saved struct {
	Scenario Scenario        `json:"scenario"`
	State    json.RawMessage `json:"state"`
}

// Save returns the game as JSON: the scenario (rules, sides, policies by
// name) and the conflict's State. Scenario.Restore reads it back.
func (g *Game) Save() ([]byte, error) {
	st, err := json.Marshal(g.s)
	if err != nil {
		return nil, err
	}
	return json.Marshal(saved{Scenario: g.sc, State: st})
}

// Restore reads a game Save wrote, strictly (an unknown field is an
// error; at most MaxSave bytes), checks it whole (State.Check, and the
// conflict's rules and sides must be the saved scenario's) and returns it
// ready to play on under the saved scenario's policies. The receiver's own
// settings play no part: the save carries its scenario.
func (Scenario) Restore(data []byte) (sim.Game, error) {
	if len(data) > MaxSave {
		return nil, fmt.Errorf("challenge: Restore: %d bytes: a saved game is at most %d", len(data), MaxSave)
	}
	var sv saved
	if err := sim.DecodeStrict(data, &sv); err != nil {
		return nil, fmt.Errorf("challenge: Restore: %w", err)
	}
	_, plays, err := sv.Scenario.build()
	if err != nil {
		return nil, fmt.Errorf("challenge: Restore: %w", err)
	}
	type plain State // decoded without State.UnmarshalJSON, which is not strict
	var st plain
	if err := sim.DecodeStrict(sv.State, &st); err != nil {
		return nil, fmt.Errorf("challenge: Restore: state: %w", err)
	}
	c := (*State)(&st)
	if err := c.Check(); err != nil {
		return nil, fmt.Errorf("challenge: Restore: %w", err)
	}
	if err := sv.Scenario.owns(c); err != nil {
		return nil, fmt.Errorf("challenge: Restore: %w", err)
	}
	return newGame(sv.Scenario, c, plays), nil
}

// owns checks that conflict c is one of this scenario: the same rules,
// and the same sides by name in the same order.
func (s Scenario) owns(c *State) error {
	a, err := json.Marshal(s.Rules)
	if err != nil {
		return err
	}
	b, err := json.Marshal(c.Rules)
	if err != nil {
		return err
	}
	if !bytes.Equal(a, b) {
		return errors.New("the conflict's rules are not the scenario's")
	}
	if len(c.Sides) != len(s.Sides) {
		return fmt.Errorf("the conflict has %d sides, the scenario %d", len(c.Sides), len(s.Sides))
	}
	for i := range c.Sides {
		if c.Sides[i].Name != s.Sides[i].Name {
			return fmt.Errorf("side %d is %q in the conflict, %q in the scenario", i, c.Sides[i].Name, s.Sides[i].Name)
		}
	}
	return nil
}

// chosen is a side's policy with the game's Chooser between it and the
// step: each answer goes to the Chooser with the View it was asked from,
// and the Chooser's answer is the one the step takes. An answer of
// another type is an illegal answer: it refuses the step (refused).
type chosen struct {
	p Policy
	g *Game
}

// answer hands the Chooser answer a, boxed as box, and returns the
// Chooser's answer as a T; one of another type refuses the step, which
// then stops at this question.
func answer[T any](d *chosen, v *View, question string, a T, box any) T {
	ans := d.g.choose(v, box)
	got, ok := ans.(T)
	if !ok {
		if d.g.refusal == nil {
			d.g.refusal = fmt.Errorf("challenge: the chooser answered %s with a %T: want a %T", question, ans, a)
		}
		return a
	}
	return got
}

// refused is the error of a Game's policy whose Chooser answered the
// question just asked with another type than the question's, nil for any
// other policy: the step asking stops there, before it changes anything.
func refused(p Policy) error {
	if d, ok := p.(*chosen); ok {
		return d.g.refusal
	}
	return nil
}

// index is an owe-list or side index (or -1) boxed for the Chooser.
func (g *Game) index(k int) any {
	if k == -1 {
		return g.none
	}
	return k
}

// loss is loss l boxed for the Chooser.
func (g *Game) loss(l *Loss) any {
	for i := range g.losses {
		if g.losses[i].l == *l {
			return g.losses[i].box
		}
	}
	if len(g.losses) == maxBoxedLosses {
		return *l
	}
	g.losses = append(g.losses, boxedLoss{l: *l, box: *l})
	return g.losses[len(g.losses)-1].box
}

func (d *chosen) HangIn(v *View, side int) bool {
	a := d.p.HangIn(v, side)
	return answer(d, v, "the stance (hang in?)", a, a)
}

func (d *chosen) CrossOff(v *View, side int) int {
	k := d.p.CrossOff(v, side)
	return answer(d, v, "the cross-off (owe-list index or -1)", k, d.g.index(k))
}

func (d *chosen) Target(v *View, challenger int) int {
	t := d.p.Target(v, challenger)
	return answer(d, v, "the target (side index or Drop)", t, d.g.index(t))
}

func (d *chosen) Interfere(v *View, side int) bool {
	a := d.p.Interfere(v, side)
	return answer(d, v, "the interference (interfere?)", a, a)
}

func (d *chosen) Loss(v *View, loser, m int, l *Loss) {
	d.p.Loss(v, loser, m, l)
	*l = answer(d, v, "the loss", *l, d.g.loss(l))
}

func (d *chosen) Propose(v *View) *Settlement {
	s := d.p.Propose(v)
	return answer(d, v, "the proposal (*Settlement or nil)", s, s)
}

func (d *chosen) Accept(v *View, s *Settlement) bool {
	a := d.p.Accept(v, s)
	return answer(d, v, "the acceptance (accept?)", a, a)
}
