package actiontest

import (
	"fmt"

	"github.com/stakesrpg/stakes/named"
)

// EventKind says what an Event reports.
type EventKind int

// Event kinds.
const (
	// EvRoll: the pool was rolled (Dice, Pool dice, Successes).
	EvRoll EventKind = iota
	// EvPush: the roll was pushed (Dice re-rolled, Pool of them, Successes
	// now, Track of the harm paid).
	EvPush
	// EvPeril: a Risk Peril deal was made (Pool bonus dice, Level of harm
	// cost, 0 if none).
	EvPeril
	// EvHarm: harm was taken (Track, Level, the Row filled or Critical: a
	// critical injury).
	EvHarm
	// EvFlashback: a flashback was spent (Level is its difficulty).
	EvFlashback
	// EvOutcome: the test was read (Successes, Level = required, Outcome,
	// Retry).
	EvOutcome
	// EvNewDay: flashbacks were restored.
	EvNewDay
	// EvEffect: extra successes bought an Effect (Effect; Track and Row of
	// a heal's harm; Pool of a bonus's dice).
	//
	// Tracks and rows are named as Rules.HarmTracks and Rules.HarmRows name
	// them.
	EvEffect
)

var eventNames = named.Enum[EventKind]{"roll", "push", "peril", "harm", "flashback", "outcome", "new_day", "effect"}

// String returns the kind's name.
func (k EventKind) String() string { return eventNames.String(k) }

// MarshalText writes the kind's name.
func (k EventKind) MarshalText() ([]byte, error) { return eventNames.Marshal(k) }

// UnmarshalText reads a kind name.
func (k *EventKind) UnmarshalText(b []byte) error { return eventNames.Unmarshal(b, k) }

// Event is one thing that happened; it writes as JSON and reads back the
// same. Dice aliases the engine's buffer: copy it to keep it past the
// call.
type Event struct {
	Kind      EventKind `json:"kind"`
	Dice      []int     `json:"dice,omitempty"`
	Pool      int       `json:"pool,omitempty"`
	Successes int       `json:"successes,omitempty"`
	Level     int       `json:"level,omitempty"`
	Row       string    `json:"row,omitempty"`
	Critical  bool      `json:"critical,omitempty"`
	Track     string    `json:"track,omitempty"`
	Outcome   Kind      `json:"outcome,omitempty"`
	Retry     bool      `json:"retry,omitempty"`
	Effect    string    `json:"effect,omitempty"`
}

// String narrates the event in one line.
func (e Event) String() string {
	switch e.Kind {
	case EvRoll:
		return fmt.Sprintf("roll %d dice %v: %d successes", e.Pool, e.Dice, e.Successes)
	case EvPush:
		return fmt.Sprintf("push (harm on %s): re-roll %d dice %v: %d successes", e.Track, e.Pool, e.Dice, e.Successes)
	case EvPeril:
		return fmt.Sprintf("risk peril: +%d dice, harm level %d", e.Pool, e.Level)
	case EvHarm:
		if e.Critical {
			return fmt.Sprintf("level %d %s harm overflows: critical injury", e.Level, e.Track)
		}
		return fmt.Sprintf("level %d %s harm in the %s row", e.Level, e.Track, e.Row)
	case EvFlashback:
		return fmt.Sprintf("flashback, difficulty %d", e.Level)
	case EvOutcome:
		s := fmt.Sprintf("%d successes of %d: %s", e.Successes, e.Level, e.Outcome)
		if e.Retry {
			s += ", worse position: re-roll"
		}
		return s
	case EvNewDay:
		return "new day"
	case EvEffect:
		switch {
		case e.Track != "":
			return fmt.Sprintf("extra success: %s (%s harm in the %s row cleared)", e.Effect, e.Track, e.Row)
		case e.Pool != 0:
			return fmt.Sprintf("extra success: %s (+%d dice to the next roll)", e.Effect, e.Pool)
		}
		return "extra success: " + e.Effect
	}
	return e.Kind.String()
}

// Recorder keeps every event it hears, copying their dice: set a
// character's Sink to its Record method.
type Recorder struct {
	Events []Event
}

// Record records e.
func (r *Recorder) Record(e Event) {
	e.Dice = append([]int(nil), e.Dice...)
	r.Events = append(r.Events, e)
}

// Lines returns every event narrated.
func (r *Recorder) Lines() []string {
	out := make([]string, len(r.Events))
	for i, e := range r.Events {
		out[i] = e.String()
	}
	return out
}
