package pbta

import (
	"fmt"

	"github.com/stakesrpg/stakes/named"
)

// Engine plays the rules of one fight (rules, character, threat) on States
// of it. NewEngine checks them once; every step then checks that the
// State it is handed is of this fight and in bounds, validates the choice,
// and only then rolls and applies. An Engine holds the View its policies
// are shown, so it serves one goroutine at a time.
type Engine struct {
	// Policies answer the fight's questions when Step or Play asks them.
	Policies Table
	// Sink hears every event; nil builds none.
	Sink func(Event)

	rules  Rules
	pc     Character
	threat Threat
	// choose, set by Game.Intercept, sees every policy answer.
	choose func(view, answer any) any
	view   View
}

// NewEngine checks the rules and the cast and returns an engine for their
// fight, with t answering its questions.
func NewEngine(rl Rules, pc Character, th Threat, t Table) (*Engine, error) {
	if err := firstErr(rl.Validate(), pc.Validate(), th.Validate()); err != nil {
		return nil, err
	}
	return &Engine{Policies: t, rules: rl, pc: pc, threat: th}, nil
}

// NewState returns the fight at its start: nobody hurt, no exchange yet.
func (e *Engine) NewState() *State {
	return &State{Rules: e.rules, PC: e.pc, Threat: e.threat}
}

// fits refuses a state of another fight, or one out of bounds.
func (e *Engine) fits(s *State) error {
	switch {
	case s == nil:
		return fmt.Errorf("%w: nil *State", ErrInvalid)
	case s.Rules != e.rules || s.PC != e.pc || s.Threat != e.threat:
		return fmt.Errorf("%w: the state is of another fight than the engine's", ErrInvalid)
	}
	return s.checkPlay()
}

// Incoming is the harm one blow of the threat marks on the character.
func (e *Engine) Incoming() int { return max(0, e.threat.Harm-e.pc.Armor) }

// Outgoing is the harm a hit with move m deals the threat, after armor.
func (e *Engine) Outgoing(m Move) int {
	h := e.pc.Harm
	if m == GoInHard {
		h += e.rules.TerribleHarm
	}
	return max(0, h-e.threat.Armor)
}

// expect refuses a step the state is not waiting for.
func (e *Engine) expect(s *State, p Phase) error {
	if err := e.fits(s); err != nil {
		return err
	}
	switch {
	case s.Done():
		return fmt.Errorf("%w: the fight is over", ErrIllegal)
	case s.Phase != p:
		return fmt.Errorf("%w: the exchange waits for a %s, not a %s", ErrIllegal, s.Phase, p)
	}
	return nil
}

// Moves lists the moves the character may make now: every move, between
// exchanges of a fight still going.
func (e *Engine) Moves(s *State) ([]Move, error) {
	return legal(e, s, AwaitMove, numMoves, e.moveOK)
}

// Costs lists the costs the player may pay now: both, after a 7-9.
func (e *Engine) Costs(s *State) ([]Cost, error) {
	return legal(e, s, AwaitCost, numCosts, e.costOK)
}

// HardMoves lists the GM's hard moves open now, after a miss: inflicting
// harm always, regrouping once the threat is hurt.
func (e *Engine) HardMoves(s *State) ([]HardMove, error) {
	return legal(e, s, AwaitHardMove, numHardMoves, e.hardOK)
}

// legal lists the choices ok allows in a state waiting in phase p.
func legal[T ~int](e *Engine, s *State, p Phase, n T, ok func(*State, T) error) ([]T, error) {
	if err := e.expect(s, p); err != nil {
		return nil, err
	}
	var out []T
	for v := range n {
		if ok(s, v) == nil {
			out = append(out, v)
		}
	}
	return out, nil
}

func (e *Engine) moveOK(_ *State, m Move) error {
	if !m.valid() {
		return fmt.Errorf("%w: move %d; allowed %s", ErrIllegal, int(m), named.Allowed(moveNames))
	}
	return nil
}

func (e *Engine) costOK(_ *State, c Cost) error {
	if !c.valid() {
		return fmt.Errorf("%w: cost %d; allowed %s", ErrIllegal, int(c), named.Allowed(costNames))
	}
	return nil
}

func (e *Engine) hardOK(s *State, h HardMove) error {
	switch {
	case !h.valid():
		return fmt.Errorf("%w: hard move %d; allowed %s", ErrIllegal, int(h), named.Allowed(hardMoveNames))
	case h == Regroup && s.ThreatHarm == 0:
		return fmt.Errorf("%w: %s cannot regroup unhurt; allowed %q", ErrIllegal, s.Threat.Name, InflictHarm)
	}
	return nil
}
