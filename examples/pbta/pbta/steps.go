package pbta

import (
	"fmt"
	"slices"

	"github.com/stakesrpg/stakes/dice"
)

// Exchange is the character's move: it rolls the dice plus the move's stat
// and reads the total. On a full success (Rules.FullAt or more) the threat
// takes the move's harm and the exchange is over; on a success at a cost
// (Rules.PartialAt or more) the exchange waits for the player's cost
// (PayCost); on a miss, for the GM's hard move (HardMove). Apocalypse
// World, "the basic moves".
func (e *Engine) Exchange(s *State, r *dice.Roller, m Move) error {
	if r == nil {
		return dice.ErrNilRoller
	}
	if err := e.expect(s, AwaitMove); err != nil {
		return err
	}
	return e.exchange(s, r, m)
}

// exchange is Exchange on a state known to wait for a move.
func (e *Engine) exchange(s *State, r *dice.Roller, m Move) error {
	if err := e.moveOK(s, m); err != nil {
		return err
	}
	var faces [maxDice]int
	total := m.stat(&s.PC)
	for i := range s.Rules.Dice {
		faces[i] = r.Roll(s.Rules.Sides)
		total += faces[i]
	}
	e.roll(s, m, total, faces[:s.Rules.Dice])
	return nil
}

// PayCost pays for a success at a cost with c: trading blows deals the
// move's harm and takes the threat's; holding back deals Rules.HoldBack
// less and takes none.
func (e *Engine) PayCost(s *State, c Cost) error {
	if err := e.expect(s, AwaitCost); err != nil {
		return err
	}
	return e.payCost(s, c)
}

// payCost is PayCost on a state known to wait for a cost.
func (e *Engine) payCost(s *State, c Cost) error {
	if err := e.costOK(s, c); err != nil {
		return err
	}
	e.pay(s, c)
	return nil
}

// HardMove is the GM's answer to a miss, "as hard as you like": the
// threat inflicts its harm, or regroups and shakes off Rules.Regroup harm.
func (e *Engine) HardMove(s *State, h HardMove) error {
	if err := e.expect(s, AwaitHardMove); err != nil {
		return err
	}
	return e.hardMove(s, h)
}

// hardMove is HardMove on a state known to wait for a hard move.
func (e *Engine) hardMove(s *State, h HardMove) error {
	if err := e.hardOK(s, h); err != nil {
		return err
	}
	e.strike(s, h)
	return nil
}

// roll applies a rolled total of move m. faces are for the narration.
func (e *Engine) roll(s *State, m Move, total int, faces []int) {
	s.Exchanges++
	band := s.Rules.BandOf(total)
	ev := Event{Kind: "roll", Move: m, Stat: m.stat(&s.PC), Total: total, Band: band}
	switch band {
	case Full:
		ev.Dealt = mark(&s.ThreatHarm, e.Outgoing(m), s.Threat.Capacity)
	case Partial:
		s.Phase, s.Move, s.Total = AwaitCost, m, total
	default:
		s.Misses++
		s.Phase, s.Move, s.Total = AwaitHardMove, m, total
	}
	if e.Sink != nil {
		ev.Dice = slices.Clone(faces)
		e.emit(s, ev)
	}
}

// pay applies cost c to the pending 7-9.
func (e *Engine) pay(s *State, c Cost) {
	ev := Event{Kind: "cost", Move: s.Move, Stat: s.Move.stat(&s.PC), Total: s.Total, Band: Partial, Cost: c}
	out := e.Outgoing(s.Move)
	if c == HoldBack {
		out = max(0, out-s.Rules.HoldBack)
	} else {
		ev.Taken = mark(&s.PCHarm, e.Incoming(), s.Rules.Track)
	}
	ev.Dealt = mark(&s.ThreatHarm, out, s.Threat.Capacity)
	s.Phase, s.Move, s.Total = AwaitMove, 0, 0
	e.emit(s, ev)
}

// strike applies the GM's hard move h to the pending miss.
func (e *Engine) strike(s *State, h HardMove) {
	ev := Event{Kind: "hard_move", Move: s.Move, Stat: s.Move.stat(&s.PC), Total: s.Total, Band: Miss, Hard: h}
	if h == Regroup {
		ev.Cleared = min(s.ThreatHarm, s.Rules.Regroup)
		s.ThreatHarm -= ev.Cleared
	} else {
		ev.Taken = mark(&s.PCHarm, e.Incoming(), s.Rules.Track)
	}
	s.Phase, s.Move, s.Total = AwaitMove, 0, 0
	e.emit(s, ev)
}

// mark adds harm n to *h, up to full, and returns what it marked.
func mark(h *int, n, full int) int {
	n = min(n, full-*h)
	*h += n
	return n
}

func (e *Engine) emit(s *State, ev Event) {
	if e.Sink == nil {
		return
	}
	ev.Exchange, ev.PC, ev.Threat = s.Exchanges, s.PC.Name, s.Threat.Name
	ev.PCHarm, ev.Track, ev.ThreatHarm, ev.Capacity = s.PCHarm, s.Rules.Track, s.ThreatHarm, s.Threat.Capacity
	e.Sink(ev)
}

// Step takes the fight's next step under Engine.Policies: between
// exchanges the player's move (Exchange), after a 7-9 the player's cost
// (PayCost), after a miss the GM's hard move (HardMove). A policy's
// illegal answer is refused with an error wrapping ErrIllegal, and changes
// nothing.
func (e *Engine) Step(s *State, r *dice.Roller) error {
	if r == nil {
		return dice.ErrNilRoller
	}
	if err := e.fits(s); err != nil {
		return err
	}
	return e.step(s, r)
}

// step is Step on a state of this fight known to be in bounds.
func (e *Engine) step(s *State, r *dice.Roller) error {
	if s.Done() {
		return fmt.Errorf("%w: the fight is over", ErrIllegal)
	}
	switch s.Phase {
	case AwaitCost:
		c, err := e.askCost(s)
		if err != nil {
			return err
		}
		return e.payCost(s, c)
	case AwaitHardMove:
		h, err := e.askHard(s)
		if err != nil {
			return err
		}
		return e.hardMove(s, h)
	}
	m, err := e.askMove(s)
	if err != nil {
		return err
	}
	return e.exchange(s, r, m)
}

// Play steps until the fight is over. The state is checked once: only
// the engine's own steps change it after that.
func (e *Engine) Play(s *State, r *dice.Roller) error {
	if r == nil {
		return dice.ErrNilRoller
	}
	if err := e.fits(s); err != nil {
		return err
	}
	for !s.Done() {
		if err := e.step(s, r); err != nil {
			return err
		}
	}
	return nil
}
