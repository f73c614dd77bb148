package edge

import (
	"github.com/stakesrpg/stakes/dice"
)

// session is one Engine with one State, as the tests play them: each
// method is the Engine's step of the same name on the session's State.
type session struct {
	*Engine
	s *State
}

func newSession(sc Scenario) (*session, error) {
	e, err := sc.NewEngine()
	if err != nil {
		return nil, err
	}
	return &session{Engine: e, s: e.NewState()}, nil
}

// restoreSession plays on from a saved state, checked whole, with its
// scenario's engine.
func restoreSession(st State) (*session, error) {
	s := st.Clone()
	e, err := s.Scenario.NewEngine()
	if err != nil {
		return nil, err
	}
	if err := e.Check(&s); err != nil {
		return nil, err
	}
	return &session{Engine: e, s: &s}, nil
}

func (x *session) Start(r *dice.Roller) error                 { return x.Engine.Start(x.s, r) }
func (x *session) Factors(r *dice.Roller) error               { return x.Engine.Factors(x.s, r) }
func (x *session) Act(a *Action) error                        { return x.Engine.Act(x.s, a) }
func (x *session) Round(r *dice.Roller, d *Declaration) error { return x.Engine.Round(x.s, r, d) }
func (x *session) Concede(p int, c Concession) error          { return x.Engine.Concede(x.s, p, c) }
func (x *session) Abandon(p, m int) error                     { return x.Engine.Abandon(x.s, p, m) }
func (x *session) Outside(r *dice.Roller, f Factor) error     { return x.Engine.Outside(x.s, r, f) }
func (x *session) Step(r *dice.Roller) error                  { return x.Engine.Step(x.s, r) }

// Play plays to the end and returns the outcome.
func (x *session) Play(r *dice.Roller) (Outcome, error) {
	err := x.Engine.Play(x.s, r)
	return x.s.Outcome, err
}

func (x *session) React(r *dice.Roller, rs []Reaction, seize []int) error {
	return x.Engine.React(x.s, r, rs, seize)
}

func (x *session) Edge(p int) int   { return x.s.Parties[p].Edge }
func (x *session) Initiative() int  { return x.s.Initiative }
func (x *session) Played() int      { return x.s.Round }
func (x *session) Outcome() Outcome { return x.s.Outcome }
func (x *session) State() State     { return x.s.Clone() }

// SetState replaces the session's state with st after checking it against
// the engine; a state that does not fit changes nothing.
func (x *session) SetState(st State) error {
	c := st.Clone()
	if err := x.Engine.Check(&c); err != nil {
		return err
	}
	x.s = &c
	return nil
}

// Reset returns the session to its state before Start.
func (x *session) Reset() { x.s.resetTo(&x.initial) }

func (x *session) View() *View {
	v, err := x.Engine.View(x.s)
	if err != nil {
		panic(err)
	}
	return v
}

func (x *session) Pending() (Action, bool) {
	if x.s.Pending == nil {
		return Action{}, false
	}
	return x.s.Pending.clone(), true
}

func (x *session) LegalActs(p, m int) []Choice {
	out, err := x.Engine.LegalActs(x.s, p, m)
	if err != nil {
		panic(err)
	}
	return out
}

func (x *session) LegalReactions(p, m int, a *Action) []Choice {
	out, err := x.Engine.LegalReactions(x.s, p, m, a)
	if err != nil {
		panic(err)
	}
	return out
}

func (x *session) LegalTargets(p int) []int {
	out, err := x.Engine.LegalTargets(x.s, p)
	if err != nil {
		panic(err)
	}
	return out
}
