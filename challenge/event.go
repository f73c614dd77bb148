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
// indexes (-1 when unused), Who and Whom their names as players know them
// (the characters', joined with "and" for a side with helpers). Name is
// the name crossed off (EvCrossOff) or put on the owe list (EvOwe), the
// settlement's note (EvSettle), and for a side of several characters the
// one whose die speaks (EvRoll) or who takes the loss (EvLoss). An event
// owns its Faces and Loss: a sink may keep it.
type Event struct {
	Kind     EventKind `json:"kind"`
	Round    int       `json:"round"`
	Exchange int       `json:"exchange"`
	Side     int       `json:"side"`
	Other    int       `json:"other"`
	Who      string    `json:"who,omitempty"`
	Whom     string    `json:"whom,omitempty"`
	Member   int       `json:"member"`
	Faces    []int     `json:"faces,omitempty"`
	Bonus    int       `json:"bonus,omitempty"`
	Value    int       `json:"value,omitempty"`
	Name     string    `json:"name,omitempty"`
	Loss     *Loss     `json:"loss,omitempty"`
}

// String narrates the event as a sentence a player understands.
func (e Event) String() string {
	who, whom := e.Who, e.Whom
	switch e.Kind {
	case EvRound:
		return fmt.Sprintf("Round %d begins.", e.Round)
	case EvRoll:
		return e.rolled()
	case EvRecast:
		return fmt.Sprintf("%s and %s tie at the top of the cast, die for die: everyone casts again.", who, whom)
	case EvCrossOff:
		return fmt.Sprintf("%s crosses %s off the owe list and rolls %d on an advantage die.", who, e.Name, e.Value)
	case EvChallenge:
		return fmt.Sprintf("%s challenges %s.", who, whom)
	case EvInterfere:
		return fmt.Sprintf("%s interferes and answers %s's challenge instead.", who, whom)
	case EvBlock:
		return fmt.Sprintf("%s's answer beats %s's roll: %s blocks and now challenges.", who, whom, who)
	case EvTie:
		return fmt.Sprintf("%s's answer ties %s's roll die for die: blocked, and nobody gains an advantage.", who, whom)
	case EvHangIn:
		return fmt.Sprintf("%s hangs in: %s rolls an advantage die through the next round.", who, whom)
	case EvGive:
		return fmt.Sprintf("%s gives: out of the conflict, unhurt, and %s has the better of it.", who, whom)
	case EvDouble:
		return fmt.Sprintf("%s's answer is half %s's roll or less: %s wins outright.", who, whom, whom)
	case EvLoss:
		return e.lost()
	case EvSettle:
		if e.Name == "" {
			return fmt.Sprintf("%s accepts the outcome %s proposes in place of injury.", who, whom)
		}
		return fmt.Sprintf("%s accepts the outcome %s proposes in place of injury: %s.", who, whom, e.Name)
	case EvDrop:
		return fmt.Sprintf("%s drops out of the conflict.", who)
	case EvOwe:
		return fmt.Sprintf("%s goes on the owe list, facing more dice than %s's own and not doubled in the first exchange.", e.Name, who)
	case EvEnd:
		if e.Side < 0 {
			return fmt.Sprintf("The conflict ends after %d exchanges with nobody the winner.", e.Exchange)
		}
		return fmt.Sprintf("The conflict is over: %s wins.", who)
	}
	return fmt.Sprintf("Event %v.", e.Kind)
}

// rolled narrates an EvRoll: "Althesa rolls 8 and 3, plus 4 on the
// advantage die, reading 12."
func (e Event) rolled() string {
	var b strings.Builder
	b.WriteString(e.Who)
	if e.Name != "" {
		fmt.Fprintf(&b, " (%s's die speaking)", e.Name)
	}
	b.WriteString(" rolls ")
	for i, f := range e.Faces {
		switch {
		case i == 0:
		case i == len(e.Faces)-1:
			b.WriteString(" and ")
		default:
			b.WriteString(", ")
		}
		fmt.Fprint(&b, f)
	}
	if len(e.Faces) == 0 {
		b.WriteString("no dice")
	}
	if e.Bonus != 0 {
		fmt.Fprintf(&b, ", plus %d on the advantage die", e.Bonus)
	}
	fmt.Fprintf(&b, ", reading %d.", e.Value)
	return b.String()
}

// lost narrates an EvLoss: "Irin loses 2 sizes of Grace to Althesa."
func (e Event) lost() string {
	who := e.Who
	if e.Name != "" {
		who = e.Name
	}
	if e.Loss == nil {
		return fmt.Sprintf("%s loses nothing to %s.", who, e.Whom)
	}
	n := e.Loss.Total()
	unit := "sizes"
	if n == 1 {
		unit = "size"
	}
	return fmt.Sprintf("%s loses %d die %s of %s to %s, exhausted or injured.", who, n, unit, e.Loss.Stat, e.Whom)
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
