package edge

import (
	"encoding/json"
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
	e      *Engine
	in     *game // e at work on the game's State
	base   []Policy
	choose sim.Chooser
	// ask is what the policies' answers reach the Chooser through, made
	// at the first Intercept.
	ask *asking
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
// each answer first handed to the Chooser set with Intercept, if any. Every
// answer is checked where it is given, before the step changes anything or
// rolls a die: a refused step (an answer of another type than the
// question's, an illegal one, a finished game, a nil r) changes neither
// the game nor r, and a listener hears none of it.
func (g *Game) Step(r *dice.Roller) error {
	if r == nil {
		return noRoller("Step")
	}
	g.in.w.refused = nil
	return g.in.step(r)
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
// none (and no event is built). A step is heard only once it can no longer
// be refused.
func (g *Game) Listen(sink func(sim.Event)) {
	if sink == nil {
		g.e.Sink = nil
		return
	}
	g.e.Sink = func(e Event) { sink(e) }
}

// Intercept sets a Chooser that sees each answer of the scenario's
// policies (the questions and answer types are in the package doc) and
// returns the answer the step takes; nil leaves the policies alone. The
// *Question, and the Action or Reaction answer, it is handed are the
// game's, good only during the call: a Chooser that keeps one keeps a
// copy. It may return the answer it was handed, changed or not.
func (g *Game) Intercept(c sim.Chooser) {
	g.choose = c
	if c == nil {
		g.e.Policies = g.base
		return
	}
	if g.ask == nil {
		g.ask = newAsking(g)
	}
	g.e.Policies = g.ask.pols
}

// Question is the view a Chooser is handed with each answer: the View the
// policy was asked from, the party asked, and for Abandon the member, for
// React the action answered (a copy).
type Question struct {
	View   *View
	Party  int
	Member int     // the group asked to abandon its stragglers, or -1
	Action *Action // the action a reaction answers, or nil
}

// asking hands the answers of a game's policies to its Chooser. The
// answers it hands most, an Action or a Reaction written into the step's
// working space, are boxed once per game over that space, so that handing
// one over allocates nothing: acts[actAt[p]+(nt-1)*(k+1)+nc] is party p's
// action of nt targets and nc checks (k is p's members), reacts[reactAt[p]+nc]
// its reaction of nc checks.
type asking struct {
	g    *Game
	pols []Policy // the parties' policies, each answering through the Chooser
	q    Question
	// act is the copy of the action a reaction answers, for q.Action.
	act     Action
	targets [MaxParties]int
	checks  [MaxMembers]Use

	maxTargets     int
	acts, reacts   []any
	actAt, reactAt []int
}

// newAsking wraps g's policies and boxes the answers about its working
// space.
func newAsking(g *Game) *asking {
	k := &asking{g: g, pols: make([]Policy, len(g.base))}
	for p, pol := range g.base {
		k.pols[p] = &chosen{Policy: pol, k: k}
	}
	in, w := g.in, g.in.w
	k.maxTargets = 1
	if in.rules.MultiTarget {
		k.maxTargets = len(in.parties) - 1
	}
	for p, pi := range in.parties {
		n := pi.hi - pi.lo
		k.actAt = append(k.actAt, len(k.acts))
		for nt := 1; nt <= k.maxTargets; nt++ {
			for nc := range n + 1 {
				k.acts = append(k.acts, Action{Party: p, Targets: w.targets[:nt], Checks: w.checks[:nc]})
			}
		}
		k.reactAt = append(k.reactAt, len(k.reacts))
		for nc := range n + 1 {
			k.reacts = append(k.reacts, Reaction{Party: p, Checks: w.reactionChecks[p][:nc]})
		}
	}
	return k
}

// question is the Question of party p (member m, the action a) asked
// from v.
func (k *asking) question(v *View, p, m int, a *Action) *Question {
	k.q = Question{View: v, Party: p, Member: m}
	if a != nil {
		k.act.Party = a.Party
		k.act.Targets = append(k.targets[:0], a.Targets...)
		k.act.Checks = append(k.checks[:0], a.Checks...)
		k.q.Action = &k.act
	}
	return &k.q
}

// action is the policy's action a, asked from v, boxed.
func (k *asking) action(v *View, a *Action) any {
	in := v.in
	if p, nt, nc := a.Party, len(a.Targets), len(a.Checks); in == k.g.in && p >= 0 && p < len(in.parties) &&
		nt >= 1 && nt <= k.maxTargets && nc <= in.parties[p].hi-in.parties[p].lo &&
		over(a.Targets, &in.w.targets[0]) && over(a.Checks, &in.w.checks[0]) {
		return k.acts[k.actAt[p]+(nt-1)*(in.parties[p].hi-in.parties[p].lo+1)+nc]
	}
	return *a
}

// reaction is the policy's reaction r, asked from v, boxed.
func (k *asking) reaction(v *View, r *Reaction) any {
	in := v.in
	if p, nc := r.Party, len(r.Checks); in == k.g.in && p >= 0 && p < len(in.parties) &&
		nc <= in.parties[p].hi-in.parties[p].lo && over(r.Checks, &in.w.reactionChecks[p][0]) {
		return k.reacts[k.reactAt[p]+nc]
	}
	return *r
}

// over reports whether list s begins at first.
func over[T any](s []T, first *T) bool { return cap(s) > 0 && &s[:1][0] == first }

// chosen hands each answer of a party's policy to the game's Chooser.
type chosen struct {
	Policy
	k *asking
}

// refuse refuses the step in progress (v's) at an answer of the wrong
// type: it stops at this question.
func refuse(v *View, q string, want, got any) {
	if v.in.w.refused == nil {
		v.in.w.refused = fmt.Errorf("edge: the answer to %s is a %T: want a %T", q, got, want)
	}
}

func (c *chosen) Concede(v *View, p int) Concession {
	ans := c.Policy.Concede(v, p)
	got := c.k.g.choose(c.k.question(v, p, -1, nil), ans)
	if x, ok := got.(Concession); ok {
		return x
	}
	refuse(v, "Concede", ans, got)
	return ans
}

func (c *chosen) Act(v *View, p int, a *Action) {
	c.Policy.Act(v, p, a)
	got := c.k.g.choose(c.k.question(v, p, -1, nil), c.k.action(v, a))
	x, ok := got.(Action)
	if !ok {
		refuse(v, "Act", Action{}, got)
		return
	}
	// Into the step's own lists (a self-copy when x is the answer handed).
	a.Party = x.Party
	a.Targets = append(a.Targets[:0], x.Targets...)
	a.Checks = append(a.Checks[:0], x.Checks...)
}

func (c *chosen) React(v *View, p int, a *Action, r *Reaction) {
	c.Policy.React(v, p, a, r)
	got := c.k.g.choose(c.k.question(v, p, -1, a), c.k.reaction(v, r))
	x, ok := got.(Reaction)
	if !ok {
		refuse(v, "React", Reaction{}, got)
		return
	}
	r.Party = x.Party
	r.Checks = append(r.Checks[:0], x.Checks...)
}

func (c *chosen) Seize(v *View, p int) bool {
	ans := c.Policy.Seize(v, p)
	got := c.k.g.choose(c.k.question(v, p, -1, nil), ans)
	if x, ok := got.(bool); ok {
		return x
	}
	refuse(v, "Seize", ans, got)
	return ans
}

func (c *chosen) Abandon(v *View, p, m int) bool {
	ans := c.Policy.Abandon(v, p, m)
	got := c.k.g.choose(c.k.question(v, p, m, nil), ans)
	if x, ok := got.(bool); ok {
		return x
	}
	refuse(v, "Abandon", ans, got)
	return ans
}
