package actiontest

import (
	"fmt"
	"strconv"
	"strings"

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
	// EvOpponent: the opponent of an opposed roll rolled (Dice, Pool
	// dice, Successes; NPC).
	EvOpponent
)

var eventNames = named.Enum[EventKind]{"roll", "push", "peril", "harm", "flashback", "outcome", "new_day", "effect", "opponent"}

// String returns the kind's name.
func (k EventKind) String() string { return eventNames.String(k) }

// MarshalText writes the kind's name.
func (k EventKind) MarshalText() ([]byte, error) { return eventNames.Marshal(k) }

// UnmarshalText reads a kind name.
func (k *EventKind) UnmarshalText(b []byte) error { return eventNames.Unmarshal(b, k) }

// Event is one thing that happened; it writes as JSON and reads back the
// same. Dice aliases the engine's buffer: copy it to keep it past the
// call. Who is the character's name (Sheet.Name), Action what the test
// rolls and Position where it stands.
type Event struct {
	Kind      EventKind `json:"kind"`
	Who       string    `json:"who,omitempty"`
	Action    string    `json:"action,omitempty"`
	Position  Position  `json:"position,omitempty"`
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
	// Opposed marks an opposed roll's outcome, read against the
	// Opponent's successes.
	Opposed  bool `json:"opposed,omitempty"`
	Opponent int  `json:"opponent,omitempty"`
	NPC      bool `json:"npc,omitempty"`
	// Flashback marks a flashback's roll.
	Flashback bool `json:"flashback,omitempty"`
}

// String narrates the event as a sentence a player understands.
func (e Event) String() string {
	who := e.Who
	if who == "" {
		who = "The character"
	}
	switch e.Kind {
	case EvRoll:
		what := e.Action
		if e.Flashback {
			what = "a flashback of " + e.Action
		}
		return fmt.Sprintf("%s rolls %s for %s at a %s position: %s, %s.", who, count(e.Pool, "die", "dice"), what, e.Position, faces(e.Dice), count(e.Successes, "success", "successes"))
	case EvPush:
		return fmt.Sprintf("%s pushes the roll, paying with %s harm, and re-rolls %s: %s, %s in all.", who, e.Track, count(e.Pool, "die", "dice"), faces(e.Dice), count(e.Successes, "success", "successes"))
	case EvPeril:
		if e.Level == 0 {
			return fmt.Sprintf("%s risks peril for %s more, a price paid whatever happens.", who, count(e.Pool, "die", "dice"))
		}
		return fmt.Sprintf("%s risks peril for %s more, at the price of a level %d harm.", who, count(e.Pool, "die", "dice"), e.Level)
	case EvHarm:
		if e.Critical {
			return fmt.Sprintf("%s takes level %d %s harm, but the track is full: a critical injury.", who, e.Level, e.Track)
		}
		return fmt.Sprintf("%s takes level %d %s harm, marked in the %s row.", who, e.Level, e.Track, e.Row)
	case EvFlashback:
		return fmt.Sprintf("%s calls a flashback of difficulty %d.", who, e.Level)
	case EvOutcome:
		return e.outcome(who)
	case EvOpponent:
		opp := "The opponent"
		if e.NPC {
			opp = "The opposing NPC"
		}
		return fmt.Sprintf("%s rolls %s against %s: %s, %s.", opp, count(e.Pool, "die", "dice"), who, faces(e.Dice), count(e.Successes, "success", "successes"))
	case EvNewDay:
		return fmt.Sprintf("A new day begins: %s has the day's flashbacks again.", who)
	case EvEffect:
		switch {
		case e.Track != "":
			return fmt.Sprintf("%s spends an extra success on %s, clearing a %s harm from the %s row.", who, words(e.Effect), e.Track, e.Row)
		case e.Pool != 0:
			return fmt.Sprintf("%s spends an extra success on %s: %s more on the next roll.", who, words(e.Effect), count(e.Pool, "die", "dice"))
		}
		return fmt.Sprintf("%s spends an extra success on %s.", who, words(e.Effect))
	}
	return fmt.Sprintf("%s: %s.", who, e.Kind)
}

// outcome narrates an EvOutcome.
func (e Event) outcome(who string) string {
	got := count(e.Successes, "success", "successes")
	switch {
	case e.Opposed:
		return fmt.Sprintf("%s has %s against the opponent's %d: %s.", who, got, e.Opponent, kindPhrase(e.Outcome))
	case e.Retry:
		return fmt.Sprintf("%s has %s of the %d needed, and the position worsens to %s: not failed, not yet succeeded, %s tries again.", who, got, e.Level, e.Position, who)
	}
	return fmt.Sprintf("%s has %s of the %d needed: %s.", who, got, e.Level, kindPhrase(e.Outcome))
}

// kindPhrase reads an outcome kind as the table says it.
func kindPhrase(k Kind) string {
	switch k {
	case SuccessBonus:
		return "a success with a bonus"
	case Success:
		return "a success"
	case SuccessConsequence:
		return "a success with a consequence"
	case Worst:
		return "the worst outcome"
	case Neither:
		return "neither success nor failure"
	}
	return words(k.String())
}

// count writes n with its noun: "1 die", "3 dice".
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// faces writes dice faces as "6 3 1", or "no dice".
func faces(d []int) string {
	if len(d) == 0 {
		return "no dice"
	}
	b := make([]byte, 0, 3*len(d))
	for i, f := range d {
		if i > 0 {
			b = append(b, ' ')
		}
		b = strconv.AppendInt(b, int64(f), 10)
	}
	return string(b)
}

// words turns a snake_case name into words: "success_with_bonus" reads
// "success with bonus".
func words(name string) string { return strings.ReplaceAll(name, "_", " ") }

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
