package edge

import (
	"fmt"
	"strings"

	"github.com/stakesrpg/stakes/internal/named"
)

// EventKind says what an Event reports.
type EventKind int

// The kinds of events an interaction reports.
const (
	// EvStart: a party's starting check (Party, Member, Skill, Roll, Mod, Total).
	EvStart EventKind = iota
	// EvInitiative: Party now holds the initiative.
	EvInitiative
	// EvCheck: a check in a round; Staked tells a wagered check from a
	// check to seize the initiative.
	EvCheck
	// EvTransfer: one edge die passes from Party/Member to To/ToMember.
	EvTransfer
	// EvOut: Party has no edge dice left and is out.
	EvOut
	// EvConcede: Party surrenders (Dice go to To) or walks away.
	EvConcede
	// EvAbandon: group Member of Party abandons its stragglers.
	EvAbandon
	// EvOutside: an outside-factor check; Failed members take Dice as a penalty.
	EvOutside
	// EvEnd: the interaction ended (End); Party is the winner or -1, To the
	// party that conceded or -1.
	EvEnd
)

var kindNames = named.Enum[EventKind]{"start", "initiative", "check", "transfer", "out", "concede", "abandon", "outside", "end"}

func (k EventKind) String() string                { return kindNames.String(k) }
func (k EventKind) MarshalText() ([]byte, error)  { return kindNames.Marshal(k) }
func (k *EventKind) UnmarshalText(b []byte) error { return kindNames.Unmarshal(b, k) }

// Event is one thing that happened. Parties and members are indices
// (members within their party); -1 means none. Interaction.Describe turns an
// event into a sentence.
type Event struct {
	Kind   EventKind `json:"kind"`             // what happened
	Round  int       `json:"round"`            // the round it happened in (0 before the first)
	Party  int       `json:"party"`            // the party it concerns
	Member int       `json:"member"`           // the member within Party, or -1
	Skill  int       `json:"skill"`            // the skill checked, or -1
	Roll   int       `json:"roll,omitempty"`   // the check's dice before modifiers
	Mod    int       `json:"mod,omitempty"`    // the check's total modifier
	Total  int       `json:"total,omitempty"`  // Roll + Mod
	Staked bool      `json:"staked,omitempty"` // the check wagered an edge die
	Failed bool      `json:"failed,omitempty"` // an outside-factor check failed
	// To and ToMember receive dice in transfers and surrenders.
	To       int `json:"to"`
	ToMember int `json:"to_member"`
	// Dice counts dice moved, or an outside factor's penalty.
	Dice       int        `json:"dice,omitempty"`
	Concession Concession `json:"concession,omitempty"` // the choice of an EvConcede
	End        End        `json:"end,omitempty"`        // how an EvEnd ended
}

// Recorder keeps every event in order: set an Interaction's Sink to its
// Record method.
type Recorder struct {
	Events []Event
}

// Record appends e.
func (r *Recorder) Record(e Event) { r.Events = append(r.Events, e) }

// Of returns the recorded events of one kind.
func (r *Recorder) Of(k EventKind) []Event {
	var out []Event
	for _, e := range r.Events {
		if e.Kind == k {
			out = append(out, e)
		}
	}
	return out
}

func (in *Interaction) mname(p, m int) string {
	if g := in.member(p, m); g >= 0 {
		return in.names[g]
	}
	return in.pname(p)
}

// Describe returns a one-line account of e in this interaction.
func (in *Interaction) Describe(e Event) string {
	switch e.Kind {
	case EvStart:
		return fmt.Sprintf("start: %s (%s) rolls %s %d%+d = %d", in.mname(e.Party, e.Member), in.pname(e.Party), in.SkillName(e.Skill), e.Roll, e.Mod, e.Total)
	case EvInitiative:
		return fmt.Sprintf("round %d: %s has the initiative", e.Round, in.pname(e.Party))
	case EvCheck:
		what := "wagers a die on"
		if !e.Staked {
			what = "tries to seize the initiative with"
		}
		return fmt.Sprintf("round %d: %s %s %s: %d%+d = %d", e.Round, in.mname(e.Party, e.Member), what, in.SkillName(e.Skill), e.Roll, e.Mod, e.Total)
	case EvTransfer:
		return fmt.Sprintf("round %d: %s gives %d edge die to %s", e.Round, in.mname(e.Party, e.Member), e.Dice, in.mname(e.To, e.ToMember))
	case EvOut:
		return fmt.Sprintf("round %d: %s is out of edge dice", e.Round, in.pname(e.Party))
	case EvConcede:
		if e.Concession == Surrender {
			return fmt.Sprintf("round %d: %s surrenders %d edge dice to %s", e.Round, in.pname(e.Party), e.Dice, in.pname(e.To))
		}
		return fmt.Sprintf("round %d: %s walks away", e.Round, in.pname(e.Party))
	case EvAbandon:
		return fmt.Sprintf("round %d: %s abandons its stragglers", e.Round, in.mname(e.Party, e.Member))
	case EvOutside:
		res := "passes"
		if e.Failed {
			res = fmt.Sprintf("fails (%+d from now on)", e.Dice)
		}
		return fmt.Sprintf("after round %d: %s checks %s: %d%+d = %d, %s", e.Round, in.mname(e.Party, e.Member), in.SkillName(e.Skill), e.Roll, e.Mod, e.Total, res)
	case EvEnd:
		var b strings.Builder
		fmt.Fprintf(&b, "end after %d rounds (%s): ", e.Round, e.End)
		if e.Party < 0 {
			b.WriteString("nobody wins")
		} else {
			fmt.Fprintf(&b, "%s wins", in.pname(e.Party))
			if e.End == WalkedAway || e.End == TimeUp {
				b.WriteString(", but not outright")
			}
		}
		return b.String()
	}
	return fmt.Sprintf("%+v", e)
}
