package pbta

import "fmt"

// viewOf fills the engine's View from s and returns it.
func (e *Engine) viewOf(s *State) *View {
	v := &e.view
	*v = View{Exchange: s.Exchanges, MaxExchanges: s.Rules.MaxExchanges,
		PCHarm: s.PCHarm, Track: s.Rules.Track, ThreatHarm: s.ThreatHarm, Capacity: s.Threat.Capacity,
		Incoming: e.Incoming(), Move: s.Move, Total: s.Total}
	if s.Phase == AwaitMove {
		v.Exchange++
	}
	for m := range numMoves {
		v.Outgoing[m], v.Stat[m] = e.Outgoing(m), m.stat(&s.PC)
	}
	return v
}

// answer passes a policy's answer through the Chooser, when one is set,
// refusing an answer of another type.
func answer[T any](e *Engine, v *View, a T, question string) (T, error) {
	if e.choose == nil {
		return a, nil
	}
	got, ok := e.choose(v, a).(T)
	if !ok {
		var zero T
		return zero, fmt.Errorf("%w: the answer to %s must be a %T", ErrIllegal, question, zero)
	}
	return got, nil
}

func (e *Engine) askMove(s *State) (Move, error) {
	p := e.Policies.Player
	if p == nil {
		return 0, fmt.Errorf("%w: no player policy in Engine.Policies", ErrInvalid)
	}
	v := e.viewOf(s)
	return answer(e, v, p.Move(v), "the move")
}

func (e *Engine) askCost(s *State) (Cost, error) {
	p := e.Policies.Player
	if p == nil {
		return 0, fmt.Errorf("%w: no player policy in Engine.Policies", ErrInvalid)
	}
	v := e.viewOf(s)
	return answer(e, v, p.Cost(v), "the cost")
}

func (e *Engine) askHard(s *State) (HardMove, error) {
	g := e.Policies.GM
	if g == nil {
		return 0, fmt.Errorf("%w: no GM policy in Engine.Policies", ErrInvalid)
	}
	v := e.viewOf(s)
	return answer(e, v, g.HardMove(v), "the hard move")
}
