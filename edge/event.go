package edge

import (
	"fmt"
	"strings"

	"github.com/stakesrpg/stakes/named"
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

// Event is one thing that happened. Parties, members and skills are
// named ("" for none), in Go as in JSON, so a log reads without counting.
// Describe turns an event into a sentence.
type Event struct {
	Kind   EventKind `json:"kind"`             // what happened
	Round  int       `json:"round"`            // the round it happened in (0 before the first)
	Party  string    `json:"party,omitempty"`  // the party it concerns
	Member string    `json:"member,omitempty"` // the member of Party, or ""
	Skill  string    `json:"skill,omitempty"`  // the skill checked, or ""
	Roll   int       `json:"roll,omitempty"`   // the check's dice before modifiers
	Mod    int       `json:"mod,omitempty"`    // the check's total modifier
	Total  int       `json:"total,omitempty"`  // Roll + Mod
	Staked bool      `json:"staked,omitempty"` // the check wagered an edge die
	Failed bool      `json:"failed,omitempty"` // an outside-factor check failed
	// To and ToMember receive dice in transfers and surrenders; To is the
	// party that conceded in an EvEnd.
	To       string `json:"to,omitempty"`
	ToMember string `json:"to_member,omitempty"`
	// Dice counts dice moved, or an outside factor's penalty.
	Dice       int        `json:"dice,omitempty"`
	Concession Concession `json:"concession,omitempty"` // the choice of an EvConcede
	End        End        `json:"end,omitempty"`        // how an EvEnd ended
}

// event is an Event as the steps make it: parties, members (within their
// party) and skills by number, -1 for none.
type event struct {
	Kind                 EventKind
	Round                int
	Party, Member, Skill int
	Roll, Mod, Total     int
	Staked, Failed       bool
	To, ToMember         int
	Dice                 int
	Concession           Concession
	End                  End
}

// emit names e's parties, members and skill and hands it to the Sink.
func (in *Engine) emit(e event) {
	out := Event{Kind: e.Kind, Round: e.Round, Party: in.partyName(e.Party), Member: in.memberName(e.Party, e.Member),
		Roll: e.Roll, Mod: e.Mod, Total: e.Total, Staked: e.Staked, Failed: e.Failed,
		To: in.partyName(e.To), ToMember: in.memberName(e.To, e.ToMember), Dice: e.Dice, Concession: e.Concession, End: e.End}
	if e.Skill >= 0 && e.Skill < len(in.skills) {
		out.Skill = in.skills[e.Skill]
	}
	in.Sink(out)
}

// partyName is party p's name, "" for none.
func (in *Engine) partyName(p int) string {
	if p < 0 || p >= len(in.parties) {
		return ""
	}
	return in.parties[p].name
}

// memberName is the name of member m of party p, "" for none.
func (in *Engine) memberName(p, m int) string {
	if g := in.member(p, m); g >= 0 {
		return in.names[g]
	}
	return ""
}

// Recorder keeps every event in order: set an Engine's Sink to its
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

// who names a member as "Becky", or a party as "lead car" (quoted) when no
// member is named.
func who(party, member string) string {
	if member != "" {
		return member
	}
	return fmt.Sprintf("%q", party)
}

// Describe returns a one-line account of e.
func Describe(e Event) string {
	party := fmt.Sprintf("%q", e.Party)
	switch e.Kind {
	case EvStart:
		return fmt.Sprintf("start: %s (%s) rolls %s %d%+d = %d", who(e.Party, e.Member), party, e.Skill, e.Roll, e.Mod, e.Total)
	case EvInitiative:
		return fmt.Sprintf("round %d: %s has the initiative", e.Round, party)
	case EvCheck:
		what := "wagers a die on"
		if !e.Staked {
			what = "tries to seize the initiative with"
		}
		return fmt.Sprintf("round %d: %s %s %s: %d%+d = %d", e.Round, who(e.Party, e.Member), what, e.Skill, e.Roll, e.Mod, e.Total)
	case EvTransfer:
		return fmt.Sprintf("round %d: %s gives %d edge die to %s", e.Round, who(e.Party, e.Member), e.Dice, who(e.To, e.ToMember))
	case EvOut:
		return fmt.Sprintf("round %d: %s is out of edge dice", e.Round, party)
	case EvConcede:
		if e.Concession == Surrender {
			return fmt.Sprintf("round %d: %s surrenders %d edge dice to %q", e.Round, party, e.Dice, e.To)
		}
		return fmt.Sprintf("round %d: %s walks away", e.Round, party)
	case EvAbandon:
		return fmt.Sprintf("round %d: %s abandons its stragglers", e.Round, who(e.Party, e.Member))
	case EvOutside:
		res := "passes"
		if e.Failed {
			res = fmt.Sprintf("fails (%+d from now on)", e.Dice)
		}
		return fmt.Sprintf("after round %d: %s checks %s: %d%+d = %d, %s", e.Round, who(e.Party, e.Member), e.Skill, e.Roll, e.Mod, e.Total, res)
	case EvEnd:
		var b strings.Builder
		fmt.Fprintf(&b, "end after %d rounds (%s): ", e.Round, e.End)
		if e.Party == "" {
			b.WriteString("nobody wins")
		} else {
			fmt.Fprintf(&b, "%s wins", party)
			if e.End == WalkedAway || e.End == TimeUp {
				b.WriteString(", but not outright")
			}
		}
		return b.String()
	}
	return fmt.Sprintf("%+v", e)
}
