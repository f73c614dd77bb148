package actiontest

import "fmt"

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
	// EvHarm: harm was taken (Track, Level, Row filled, -1 a critical injury).
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
	EvEffect
)

var eventNames = [...]string{"roll", "push", "peril", "harm", "flashback", "outcome", "new_day", "effect"}

// String returns the kind's name.
func (k EventKind) String() string {
	if k < 0 || int(k) >= len(eventNames) {
		return fmt.Sprintf("event(%d)", int(k))
	}
	return eventNames[k]
}

// Event is one thing that happened. Dice aliases the engine's buffer: copy
// it to keep it past the call.
type Event struct {
	Kind      EventKind
	Dice      []int
	Pool      int
	Successes int
	Level     int
	Row       int
	Track     string
	Outcome   Kind
	Retry     bool
	Effect    string
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
		if e.Row < 0 {
			return fmt.Sprintf("level %d %s harm overflows: critical injury", e.Level, e.Track)
		}
		return fmt.Sprintf("level %d %s harm in row %d", e.Level, e.Track, e.Row+1)
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
			return fmt.Sprintf("extra success: %s (%s harm in row %d cleared)", e.Effect, e.Track, e.Row+1)
		case e.Pool != 0:
			return fmt.Sprintf("extra success: %s (+%d dice to the next roll)", e.Effect, e.Pool)
		}
		return "extra success: " + e.Effect
	}
	return e.Kind.String()
}

// Sink receives events. A nil Sink on a Character costs nothing.
type Sink interface {
	Event(e Event)
}

// Recorder is a Sink that keeps every event, copying their dice.
type Recorder struct {
	Events []Event
}

// Event records e.
func (r *Recorder) Event(e Event) {
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
