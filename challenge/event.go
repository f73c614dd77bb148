package challenge

import (
	"fmt"
	"strings"

	"github.com/stakesrpg/stakes/named"
)

// EventKind says what happened.
type EventKind uint8

// Event kinds, in the order a conflict produces them.
const (
	EvRound     EventKind = iota // a round begins; Round
	EvRoll                       // Side rolled Faces (+Bonus); Value: the read; Member: the speaker
	EvRecast                     // the cast truly tied at the top; everyone recasts
	EvCrossOff                   // Side crossed Name off the owe list and rolled Value on an advantage die
	EvChallenge                  // Side challenges Other
	EvInterfere                  // Side interferes and answers Other's challenge instead
	EvBlock                      // Side's answer beat Other's roll: Side blocks and now challenges
	EvTie                        // Side's answer truly tied Other's roll: blocked, no advantage
	EvHangIn                     // Side hangs in; Other carries an advantage die into the next round
	EvGive                       // Side gives to Other: out of the conflict, no injury
	EvDouble                     // Side's answer is half or less of Other's roll: Other wins outright
	EvLoss                       // Member of Side loses Loss (exhaustion or injury)
	EvSettle                     // Side accepts a negotiated outcome from Other; Name: the note
	EvDrop                       // Side drops out of the conflict
	EvOwe                        // Name goes on the owe list
	EvEnd                        // the conflict is over; Side: the winner (-1 none)
)

var eventNames = named.Enum[EventKind]{"round", "roll", "recast", "cross_off", "challenge", "interfere", "block",
	"tie", "hang_in", "give", "double", "loss", "settle", "drop", "owe", "end"}

// String returns the kind's name.
func (k EventKind) String() string { return eventNames.String(k) }

// MarshalText writes the kind's name.
func (k EventKind) MarshalText() ([]byte, error) { return eventNames.Marshal(k) }

// UnmarshalText reads a kind's name.
func (k *EventKind) UnmarshalText(b []byte) error { return eventNames.Unmarshal(b, k) }

// Event is one thing that happened in a conflict. Side and Other are side
// indexes (-1 when unused). An event owns its Faces and Loss: a sink may
// keep it.
type Event struct {
	Kind     EventKind `json:"kind"`
	Round    int       `json:"round"`
	Exchange int       `json:"exchange"`
	Side     int       `json:"side"`
	Other    int       `json:"other"`
	Member   int       `json:"member"`
	Faces    []int     `json:"faces,omitempty"`
	Bonus    int       `json:"bonus,omitempty"`
	Value    int       `json:"value,omitempty"`
	Name     string    `json:"name,omitempty"`
	Loss     *Loss     `json:"loss,omitempty"`
}

// String renders the event on one line for logs and tests.
func (e Event) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "r%d x%d %v side=%d", e.Round, e.Exchange, e.Kind, e.Side)
	if e.Other >= 0 {
		fmt.Fprintf(&b, " other=%d", e.Other)
	}
	if e.Faces != nil {
		fmt.Fprintf(&b, " faces=%v+%d read=%d speaker=%d", e.Faces, e.Bonus, e.Value, e.Member)
	} else if e.Value != 0 {
		fmt.Fprintf(&b, " value=%d", e.Value)
	}
	if e.Name != "" {
		fmt.Fprintf(&b, " name=%q", e.Name)
	}
	if e.Loss != nil {
		fmt.Fprintf(&b, " member=%d loss=%s%v", e.Member, e.Loss.Stat, e.Loss.Sizes)
	}
	return b.String()
}

// Log records events; its Record method is an Engine Sink.
type Log struct {
	Events []Event
}

// Record appends e.
func (l *Log) Record(e Event) { l.Events = append(l.Events, e) }

// Kinds returns the kinds of the recorded events, in order.
func (l *Log) Kinds() []EventKind {
	ks := make([]EventKind, len(l.Events))
	for i, e := range l.Events {
		ks[i] = e.Kind
	}
	return ks
}
