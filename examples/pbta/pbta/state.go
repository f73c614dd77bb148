package pbta

import (
	"fmt"

	"github.com/stakesrpg/stakes/named"
)

// State is one fight in progress: the rules and cast it is fought under
// and everything that changes, as plain data that encodes to JSON as is.
// A State saved between any two steps resumes exactly, once checked.
type State struct {
	Rules  Rules     `json:"rules"`
	PC     Character `json:"pc"`
	Threat Threat    `json:"threat"`
	// PCHarm is the segments of the character's harm clock marked;
	// ThreatHarm the harm the threat has taken.
	PCHarm     int `json:"pc_harm"`
	ThreatHarm int `json:"threat_harm"`
	// Exchanges is the number of moves rolled so far (the exchange under
	// way included); Misses how many of them missed.
	Exchanges int `json:"exchanges"`
	Misses    int `json:"misses"`
	// Phase is what the exchange under way waits for; Move and Total are
	// the move rolled and its total while it waits for a cost or a hard
	// move (zero while it waits for a move).
	Phase Phase `json:"phase"`
	Move  Move  `json:"move"`
	Total int   `json:"total"`
}

// PCOut reports whether the character's harm clock is full.
func (s *State) PCOut() bool { return s.PCHarm >= s.Rules.Track }

// ThreatOut reports whether the threat has taken its capacity of harm.
func (s *State) ThreatOut() bool { return s.ThreatHarm >= s.Threat.Capacity }

// Done reports whether the fight is over: between exchanges, someone is
// out or the fight has lasted Rules.MaxExchanges exchanges.
func (s *State) Done() bool {
	return s.Phase == AwaitMove && (s.PCOut() || s.ThreatOut() || s.Exchanges >= s.Rules.MaxExchanges)
}

// Check validates a state whole, as a restored one must be before any step
// reads it: the rules and cast, every count in bounds, and a phase that
// some play could have reached.
func (s *State) Check() error {
	if err := firstErr(s.Rules.Validate(), s.PC.Validate(), s.Threat.Validate()); err != nil {
		return err
	}
	return s.checkPlay()
}

// checkPlay validates what changes in play, the rules and cast being
// known good.
func (s *State) checkPlay() error {
	err := firstErr(inRange("pc_harm", s.PCHarm, 0, s.Rules.Track),
		inRange("threat_harm", s.ThreatHarm, 0, s.Threat.Capacity),
		inRange("exchanges", s.Exchanges, 0, s.Rules.MaxExchanges),
		inRange("misses", s.Misses, 0, s.Exchanges))
	if err != nil {
		return err
	}
	if s.Exchanges == 0 && (s.PCHarm != 0 || s.ThreatHarm != 0) {
		return fmt.Errorf("%w: harm marked before the first exchange", ErrInvalid)
	}
	switch s.Phase {
	case AwaitMove:
		if s.Move != 0 || s.Total != 0 {
			return fmt.Errorf("%w: a move and total recorded with no exchange under way", ErrInvalid)
		}
		return nil
	case AwaitCost, AwaitHardMove:
		return s.checkPending()
	}
	return fmt.Errorf("%w: phase %d; allowed %q, %q, %q", ErrInvalid, int(s.Phase), AwaitMove, AwaitCost, AwaitHardMove)
}

// checkPending validates an exchange waiting for a cost or a hard move:
// the move rolled, a total the dice could show, in the band the phase
// answers, and nobody out yet.
func (s *State) checkPending() error {
	if !s.Move.valid() {
		return fmt.Errorf("%w: move %d; allowed %s", ErrInvalid, int(s.Move), named.Allowed(moveNames))
	}
	if s.Exchanges < 1 || s.PCOut() || s.ThreatOut() {
		return fmt.Errorf("%w: an exchange waits for its %s with none rolled or someone out", ErrInvalid, s.Phase)
	}
	stat := s.Move.stat(&s.PC)
	lo, hi := s.Rules.Dice+stat, s.Rules.Dice*s.Rules.Sides+stat
	if err := inRange("total", s.Total, lo, hi); err != nil {
		return err
	}
	want := Partial
	if s.Phase == AwaitHardMove {
		want = Miss
	}
	if b := s.Rules.BandOf(s.Total); b != want {
		return fmt.Errorf("%w: total %d is a %s, but the exchange waits for a %s", ErrInvalid, s.Total, b, s.Phase)
	}
	return nil
}
