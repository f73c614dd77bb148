package contest

import (
	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/named"
)

// EventKind says what happened. It reads and writes as its name.
type EventKind uint8

// Event kinds, in rough order of a contest.
const (
	evNone         EventKind = iota // the zero kind: never sent
	EvRolled                        // Side's character rolled Faces of Dice for Value (its total)
	EvStakes                        // Side set the opening stakes to Value
	EvRaised                        // Side raised the stakes to Value
	EvFailed                        // Side failed to beat the stakes, short by Value
	EvGaveIn                        // Side gave in; Value is the Plot Points paid
	EvAided                         // Char aided Side with a die showing Value
	EvInterfered                    // Char interfered with a result of Value
	EvStopped                       // the interference stopped the contest
	EvContinued                     // Side paid Value Plot Points to go on despite interference
	EvPushed                        // Side made a Final Push stepping Char's trait Name down to Die
	EvMookOff                       // Side lost a gang die (Die)
	EvComplication                  // Char took (or raised) Complication Name to Die
	EvTrauma                        // Char took (or raised) Trauma Name to Die
	EvKnockedOut                    // Char was Knocked Out
	EvOutOfStory                    // Char's Trauma passed d12: out of the story
	EvReflection                    // Char earned Value Reflection Points (spent, when negative)
	EvPlotPoints                    // Char spent (negative) or got Value Plot Points
	EvBoughtOnes                    // the GM bought Value 1s from Char
	EvTrouble                       // the Trouble Pool changed by Value dice (Die added or removed)
	EvBeats                         // a timed action's beats changed by Value
	EvTimedStep                     // a timed action finished step Value
	EvWon                           // Side won the action
	EvRebought                      // Char bought trait Name back up to Die for Value Reflection Points
	EvWaived                        // the GM (Side) waived Char's Complication of a failed basic action
)

var eventKindNames = named.Enum[EventKind]{"none", "rolled", "stakes", "raised", "failed", "gave_in", "aided",
	"interfered", "stopped", "continued", "pushed", "mook_off", "complication", "trauma", "knocked_out",
	"out_of_story", "reflection", "plot_points", "bought_ones", "trouble", "beats", "timed_step", "won",
	"rebought", "waived"}

// String returns the kind's name.
func (k EventKind) String() string { return eventKindNames.String(k) }

// MarshalText writes the kind's name.
func (k EventKind) MarshalText() ([]byte, error) { return eventKindNames.Marshal(k) }

// UnmarshalText reads a kind's name.
func (k *EventKind) UnmarshalText(b []byte) error { return eventKindNames.Unmarshal(b, k) }

// Event is one thing that happened. Fields not used by a kind are zero;
// Side and Char are -1 when they do not apply. Faces and Dice alias the
// state's buffers: copy them if you keep them past the call.
type Event struct {
	Kind  EventKind  `json:"kind"`
	Side  int        `json:"side"`
	Char  int        `json:"char"`
	Value int        `json:"value,omitempty"`
	Die   dice.Die   `json:"die,omitempty"`
	Name  string     `json:"name,omitempty"`
	Dice  []dice.Die `json:"dice,omitempty"`
	Faces []int      `json:"faces,omitempty"`
	// Who is Char's name and SideName the name of Side's character (or
	// label), filled in by the engine so that String can narrate the
	// event on its own.
	Who      string `json:"who,omitempty"`
	SideName string `json:"side_name,omitempty"`
}

// Recorder keeps every event it hears (copying Faces and Dice); its
// Record method is a Sink.
type Recorder struct {
	Events []Event
}

// Record keeps e.
func (r *Recorder) Record(e Event) { r.Events = append(r.Events, e.own()) }

// Kinds returns the kinds of the recorded events, in order.
func (r *Recorder) Kinds() []EventKind {
	out := make([]EventKind, len(r.Events))
	for i, e := range r.Events {
		out[i] = e.Kind
	}
	return out
}
