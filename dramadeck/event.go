package dramadeck

import (
	"fmt"

	"github.com/stakesrpg/stakes/named"
)

// EventKind says what happened.
type EventKind uint8

// Event kinds.
const (
	EvDeal      EventKind = iota // Who: player; Card drawn on entering play
	EvDraw                       // Who: player; Card drawn to hand
	EvReshuffle                  // Value: cards shuffled back from the discards
	EvFlip                       // Card turned onto the action stack
	EvMove                       // Who: player; Card moved hand to pool
	EvPlay                       // Who: player; Card played; Target character
	EvTrade                      // Who, Target: players; Value: cards each way
	EvDiscard                    // Who: player; Card discarded from hand
	EvStrip                      // Who: player; Card the GM removed from the pool
	EvRoll                       // Who: character; Roll, Value: effective skill; Success
	EvReroll                     // Who: character; Roll of a Luck or Possibility re-roll
	EvAction                     // Who: character; Act; Target
	EvContest                    // Who, Target; Act; Value: margin of victory; Success: Who won
	EvDamage                     // Who hit Target for Value HP
	EvEffect                     // Target suffers Effect
	EvTask                       // Who: player; Value: steps done; Roll; Success
	EvOutcome                    // Value: outcome
)

var evText = [...]string{"deal", "draw", "reshuffle", "flip", "move", "play", "trade", "discard",
	"strip", "roll", "reroll", "action", "contest", "damage", "effect", "task", "outcome"}

func (k EventKind) String() string {
	if int(k) < len(evText) {
		return evText[k]
	}
	return fmt.Sprintf("EventKind(%d)", int(k))
}

// Event is one thing that happened. Fields unused by a kind are zero (or
// -1 for Card and Target).
type Event struct {
	Kind    EventKind `json:"kind"`
	Round   int       `json:"round"`
	Who     int       `json:"who"`
	Target  int       `json:"target"`
	Card    int       `json:"card"`
	Act     Act       `json:"act,omitempty"`
	Effect  Effect    `json:"effect,omitempty"`
	Roll    int       `json:"roll,omitempty"`
	Value   int       `json:"value,omitempty"`
	Success bool      `json:"success,omitempty"`
}

func (e Event) String() string {
	return fmt.Sprintf("r%d %v who=%d target=%d card=%d act=%v effect=%v roll=%d value=%d ok=%v",
		e.Round, e.Kind, e.Who, e.Target, e.Card, e.Act, e.Effect, e.Roll, e.Value, e.Success)
}

// MarshalText writes the kind name.
func (k EventKind) MarshalText() ([]byte, error) { return evNames.Marshal(k) }

// UnmarshalText reads a kind name.
func (k *EventKind) UnmarshalText(b []byte) error { return evNames.Unmarshal(b, k) }

var evNames = named.Enum[EventKind](evText[:])

// Trace is a recorder: pass t.Add as an Engine's Sink.
type Trace struct{ Events []Event }

// Add appends e.
func (t *Trace) Add(e Event) { t.Events = append(t.Events, e) }

// emit sends e to the sink. Call sites test g.Sink != nil first, so that
// with no sink no Event is even built (the compiler fills the struct before
// an inlined call would test it).
func (g *game) emit(e Event) {
	if g.Sink != nil {
		e.Round = g.State.Round
		g.Sink(e)
	}
}
