package contest

import "github.com/stakesrpg/stakes/dice"

// EventKind says what happened.
type EventKind uint8

// Event kinds, in rough order of a contest.
const (
	EvRolled       EventKind = iota + 1 // Side's character rolled Faces of Dice for Value (its total)
	EvStakes                            // Side set the opening stakes to Value
	EvRaised                            // Side raised the stakes to Value
	EvFailed                            // Side failed to beat the stakes, short by Value
	EvGaveIn                            // Side gave in; Value is the Plot Points paid (Die: the Complication taken)
	EvAided                             // Char aided Side with a die showing Value
	EvInterfered                        // Char interfered with a result of Value
	EvStopped                           // the interference stopped the contest
	EvContinued                         // Side paid Value Plot Points to go on despite interference
	EvPushed                            // Side made a Final Push stepping Char's trait Name down to Die
	EvMookOff                           // Side lost a gang die (Die)
	EvComplication                      // Char took (or raised) Complication Name to Die
	EvTrauma                            // Char took (or raised) Trauma Name to Die
	EvKnockedOut                        // Char was Knocked Out
	EvOutOfStory                        // Char's Trauma passed d12: out of the story
	EvReflection                        // Char earned Value Reflection Points (spent, when negative)
	EvPlotPoints                        // Char spent (negative) or got Value Plot Points
	EvBoughtOnes                        // the GM bought Value 1s from Side
	EvTrouble                           // the Trouble Pool changed by Value dice (Die added or removed)
	EvBeats                             // a timed action's beats changed by Value
	EvTimedStep                         // a timed action finished step Value
	EvWon                               // Side won the action
	EvRebought                          // Char bought trait Name back up to Die for Value Reflection Points
)

// Event is one thing that happened. Fields not used by a kind are zero;
// Side and Char are -1 when they do not apply. Faces and Dice alias the
// engine's buffers: copy them if you keep them past the call.
type Event struct {
	Kind  EventKind
	Side  int
	Char  int
	Value int
	Die   dice.Die
	Name  string
	Dice  []dice.Die
	Faces []int
}

// Sink receives events. An Engine with a nil Sink builds no events at all.
type Sink interface {
	Event(Event)
}

// Recorder is a Sink that keeps every event (copying Faces and Dice).
type Recorder struct {
	Events []Event
}

// Event implements Sink.
func (r *Recorder) Event(e Event) {
	if e.Faces != nil {
		e.Faces = append([]int(nil), e.Faces...)
	}
	if e.Dice != nil {
		e.Dice = append([]dice.Die(nil), e.Dice...)
	}
	r.Events = append(r.Events, e)
}

// Kinds returns the kinds of the recorded events, in order.
func (r *Recorder) Kinds() []EventKind {
	out := make([]EventKind, len(r.Events))
	for i, e := range r.Events {
		out[i] = e.Kind
	}
	return out
}
