package edge

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

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
// String narrates an event as a sentence.
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

// who names a member with its party, as "Becky (lead car)", or the party
// alone when no member is named.
func who(party, member string) string {
	if member == "" || member == party {
		return party
	}
	return member + " (" + party + ")"
}

// someDice counts n edge dice in words: "an edge die", "3 edge dice".
func someDice(n int) string {
	if n == 1 {
		return "an edge die"
	}
	return edgeDice(n)
}

// check writes a check's roll as "13 + 6 = 19".
func check(roll, mod, total int) string {
	if mod < 0 {
		return fmt.Sprintf("%d - %d = %d", roll, -mod, total)
	}
	return fmt.Sprintf("%d + %d = %d", roll, mod, total)
}

// String narrates e as one sentence a player understands: who did what,
// with which skill and numbers, and what came of it.
func (e Event) String() string {
	s := e.sentence()
	if r, n := utf8.DecodeRuneInString(s); unicode.IsLower(r) {
		return string(unicode.ToUpper(r)) + s[n:]
	}
	return s
}

// sentence is String before its first letter is made a capital.
func (e Event) sentence() string {
	when := fmt.Sprintf("Round %d: ", e.Round)
	if e.Round == 0 {
		when = "Before the first round, "
	}
	switch e.Kind {
	case EvStart:
		return fmt.Sprintf("%s%s rolls %s for the order of action: %s.", when, who(e.Party, e.Member), e.Skill, check(e.Roll, e.Mod, e.Total))
	case EvInitiative:
		if e.Round == 0 {
			return fmt.Sprintf("%s acts first.", e.Party)
		}
		return fmt.Sprintf("%s%s has the highest check of the round and takes the initiative.", when, e.Party)
	case EvCheck:
		if !e.Staked {
			return fmt.Sprintf("%s%s rolls %s to seize the initiative, risking nothing: %s.", when, who(e.Party, e.Member), e.Skill, check(e.Roll, e.Mod, e.Total))
		}
		return fmt.Sprintf("%s%s wagers an edge die on %s: %s.", when, who(e.Party, e.Member), e.Skill, check(e.Roll, e.Mod, e.Total))
	case EvTransfer:
		return fmt.Sprintf("%s%s loses %s to %s, who rolled higher.", when, who(e.Party, e.Member), someDice(e.Dice), who(e.To, e.ToMember))
	case EvOut:
		return fmt.Sprintf("%s%s has no edge dice left and is out.", when, e.Party)
	case EvConcede:
		if e.Concession == Surrender {
			return fmt.Sprintf("%s%s surrenders, handing %s to %s.", when, e.Party, someDice(e.Dice), e.To)
		}
		return fmt.Sprintf("%s%s walks away from the interaction.", when, e.Party)
	case EvAbandon:
		return fmt.Sprintf("%s%s abandons its stragglers: one rank less, but no longer slowed on endurance checks.", when, who(e.Party, e.Member))
	case EvOutside:
		res := "passes"
		if e.Failed {
			res = fmt.Sprintf("fails: %d on every later check", e.Dice)
		}
		after := fmt.Sprintf("After round %d", e.Round)
		if e.Round == 0 {
			after = "Before the first round"
		}
		return fmt.Sprintf("%s, an outside factor: %s rolls %s, %s, and %s.", after, who(e.Party, e.Member), e.Skill, check(e.Roll, e.Mod, e.Total), res)
	case EvEnd:
		return e.ending()
	}
	return fmt.Sprintf("Round %d: %s.", e.Round, e.Kind)
}

// ending narrates an EvEnd: how the interaction ended and who won.
func (e Event) ending() string {
	var b strings.Builder
	rounds := "rounds"
	if e.Round == 1 {
		rounds = "round"
	}
	fmt.Fprintf(&b, "The interaction ends after %d %s: ", e.Round, rounds)
	switch e.End {
	case RanOut:
		fmt.Fprintf(&b, "%s wins, every other party having run out of edge dice.", e.Party)
		return b.String()
	case Surrendered:
		fmt.Fprintf(&b, "%s surrendered, and %s wins.", e.To, e.Party)
		return b.String()
	case WalkedAway:
		fmt.Fprintf(&b, "%s walked away, and ", e.To)
	case TimeUp:
		b.WriteString("the round limit is reached, and ")
	}
	if e.Party == "" {
		b.WriteString("no party holds more edge dice than every other, so nobody wins.")
	} else {
		fmt.Fprintf(&b, "%s, holding the most edge dice, wins, though not outright.", e.Party)
	}
	return b.String()
}
