package dramadeck

import (
	"fmt"

	"github.com/stakesrpg/stakes/named"
)

// EventKind says what happened.
type EventKind uint8

// Event kinds.
const (
	EvDeal         EventKind = iota // Who: player; Card drawn on entering play
	EvDraw                          // Who: player; Card drawn to hand
	EvReshuffle                     // Value: cards shuffled back from the discards
	EvFlip                          // Card turned onto the action stack
	EvMove                          // Who: player; Card moved hand to pool
	EvPlay                          // Who: player; Card played; Target character
	EvTrade                         // Who, Target: players; Value: cards each way
	EvDiscard                       // Who: player; Card discarded from hand
	EvStrip                         // Who: player; Card the GM removed from the pool
	EvRoll                          // Who: character; Roll, Value: effective skill; Success
	EvReroll                        // Who: character; Roll of a Luck or Possibility re-roll
	EvAction                        // Who: character; Act; Target
	EvContest                       // Who, Target; Act; Value: margin of victory; Success: Who won
	EvDamage                        // Who hit Target for Value HP
	EvEffect                        // Target suffers Effect
	EvTask                          // Who: player; Value: steps done; Roll; Success
	EvOutcome                       // Value: outcome
	EvPass                          // Who: player; Card passed by Leadership to player Target (Success: to his pool)
	EvMasterPlan                    // Who: player; Card Master Plan took from the discards into his hand (-1: none left)
	EvSetback                       // Who: player; Value: the task's special case (Bar) failed; Success: switched skill
	EvSubplotAward                  // Who: player; Value: Possibilities his subplots paid at the end of the Act
	EvAward                         // Who: player; Value: Possibilities awarded at the end of the adventure
	EvFumble                        // Who: character; critically failed his Act's roll (or his defence against Target's) and suffers Effect
)

var evText = [...]string{"deal", "draw", "reshuffle", "flip", "move", "play", "trade", "discard",
	"strip", "roll", "reroll", "action", "contest", "damage", "effect", "task", "outcome",
	"pass", "master_plan", "task_setback", "subplot_award", "award", "fumble"}

func (k EventKind) String() string {
	if int(k) < len(evText) {
		return evText[k]
	}
	return fmt.Sprintf("EventKind(%d)", int(k))
}

// Event is one thing that happened. Fields unused by a kind are zero (or
// -1 for Who, Card and Target). Name, TargetName and CardName spell out
// Who, Target and Card as the game named them when it happened (a player
// is named by his hero), so that String needs no State.
type Event struct {
	Kind       EventKind `json:"kind"`
	Round      int       `json:"round"`
	Who        int       `json:"who"`
	Target     int       `json:"target"`
	Card       int       `json:"card"`
	Name       string    `json:"name,omitempty"`
	TargetName string    `json:"target_name,omitempty"`
	CardName   string    `json:"card_name,omitempty"`
	Act        Act       `json:"act,omitempty"`
	Effect     Effect    `json:"effect,omitempty"`
	Roll       int       `json:"roll,omitempty"`
	Value      int       `json:"value,omitempty"`
	Success    bool      `json:"success,omitempty"`
}

// String narrates the event as one sentence a player understands.
func (e Event) String() string {
	who, tgt, card := e.who(), e.target(), e.card()
	switch e.Kind {
	case EvDeal:
		return fmt.Sprintf("%s's player is dealt %s as his hero enters play.", who, card)
	case EvDraw:
		return fmt.Sprintf("%s's player draws %s.", who, card)
	case EvReshuffle:
		return fmt.Sprintf("The draw pile is empty: the discards are shuffled into a new one of %s.", cards(e.Value))
	case EvFlip:
		return fmt.Sprintf("Round %d: the GM turns %s onto the action stack.", e.Round, card)
	case EvMove:
		return fmt.Sprintf("%s's player moves %s from his hand to his pool.", who, card)
	case EvPlay:
		if e.Target >= 0 {
			return fmt.Sprintf("%s's player plays %s on %s.", who, card, tgt)
		}
		return fmt.Sprintf("%s's player plays %s.", who, card)
	case EvTrade:
		return fmt.Sprintf("%s's and %s's players trade %s each way.", who, tgt, cards(e.Value))
	case EvDiscard:
		return fmt.Sprintf("%s's player discards %s at the end of the scene.", who, card)
	case EvStrip:
		return fmt.Sprintf("The GM strips %s from %s's player's pool.", card, who)
	case EvRoll:
		return e.rollText(who, tgt)
	case EvReroll:
		return fmt.Sprintf("%s rolls again (a Possibility, a card or Luck): %d against %d, %s.", who, e.Roll, e.Value, verdict(e.Success))
	case EvAction:
		if e.Act == Defend || e.Target < 0 {
			return fmt.Sprintf("%s takes %s.", who, e.Act)
		}
		return fmt.Sprintf("%s takes %s against %s.", who, e.Act, tgt)
	case EvContest:
		return e.contestText(who, tgt)
	case EvDamage:
		return fmt.Sprintf("%s hits %s for %d HP.", who, tgt, e.Value)
	case EvEffect:
		return e.effectText(who, tgt)
	case EvTask:
		return fmt.Sprintf("%s's player works on the task: rolled %d, %s; %d of its steps done.", who, e.Roll, verdict(e.Success), e.Value)
	case EvOutcome:
		return fmt.Sprintf("The encounter ends: %s.", Outcome(e.Value).phrase())
	case EvPass:
		return fmt.Sprintf("%s's player passes %s by Leadership to %s's player's %s.", who, card, tgt, map[bool]string{true: "pool", false: "hand"}[e.Success])
	case EvMasterPlan:
		if e.Card < 0 {
			return fmt.Sprintf("%s's player's Master Plan finds no discard beneath it: the discards were shuffled into the draw pile.", who)
		}
		return fmt.Sprintf("%s's player's Master Plan takes %s from the discards into his hand.", who, card)
	case EvSetback:
		return e.setbackText(who)
	case EvSubplotAward:
		return fmt.Sprintf("The Act ends: %s's player's subplots pay %s.", who, possibilities(e.Value))
	case EvFumble:
		if e.Target >= 0 {
			return fmt.Sprintf("%s fails his defence against %s's %s critically: %s.", who, tgt, e.Act, fumbleCost(e.Effect))
		}
		return fmt.Sprintf("%s fails his %s critically: %s.", who, e.Act, fumbleCost(e.Effect))
	case EvAward:
		return fmt.Sprintf("The adventure ends: %s's player is awarded %s (Drama cards held, Glory played).", who, possibilities(e.Value))
	}
	return fmt.Sprintf("Round %d: %v.", e.Round, e.Kind)
}

func (e Event) rollText(who, tgt string) string {
	if e.Target >= 0 {
		return fmt.Sprintf("%s resists %s: rolled %d against %d, %s.", who, tgt, e.Roll, e.Value, verdict(e.Success))
	}
	return fmt.Sprintf("%s rolls %d against %d: %s.", who, e.Roll, e.Value, verdict(e.Success))
}

func (e Event) contestText(who, tgt string) string {
	switch {
	case e.Success:
		return fmt.Sprintf("%s wins the %s contest against %s by %d.", who, e.Act, tgt, e.Value)
	case e.Value == 0:
		return fmt.Sprintf("%s's %s against %s: a tie, nobody wins.", who, e.Act, tgt)
	}
	return fmt.Sprintf("%s loses the %s contest against %s by %d.", who, e.Act, tgt, e.Value)
}

func (e Event) effectText(who, tgt string) string {
	switch {
	case e.Effect == NoEffect && e.Value == int(OpponentFails):
		return fmt.Sprintf("%s plays Opponent Fails: %s's success against him fails.", tgt, who)
	case e.Target < 0 && e.Effect == Setback:
		return "Setback: an event the GM prepared takes place instead."
	case e.Target < 0:
		return fmt.Sprintf("The action stack brings %s.", e.Effect)
	}
	switch e.Effect {
	case Up:
		return fmt.Sprintf("%s is Up: a free Possibility this round.", tgt)
	case Flurry, Inspiration:
		return fmt.Sprintf("%s gains %s.", tgt, e.Effect)
	}
	return fmt.Sprintf("%s suffers %s.", tgt, e.Effect)
}

func (e Event) who() string    { return nameOr(e.Name, "character", e.Who) }
func (e Event) target() string { return nameOr(e.TargetName, "character", e.Target) }
func (e Event) card() string   { return nameOr(e.CardName, "card", e.Card) }

// nameOr is name, or the thing's number when the event carries no name.
func nameOr(name, thing string, i int) string {
	if name != "" {
		return name
	}
	return fmt.Sprintf("%s %d", thing, i)
}

func (e Event) setbackText(who string) string {
	switch b := Bar(e.Value); {
	case b == PossibleSetback:
		return fmt.Sprintf("%s's player fails the task's Possible Setback: a step done is undone.", who)
	case b == Complication:
		return fmt.Sprintf("%s's player fails the task's Complication: the task grows harder.", who)
	case b == CriticalProblem && e.Success:
		return fmt.Sprintf("%s's player fails the task's Critical Problem and switches to the other skill.", who)
	case b == CriticalProblem:
		return fmt.Sprintf("%s's player fails the task's Critical Problem and starts the task again.", who)
	}
	return fmt.Sprintf("%s's player fails a special case of the task.", who)
}

// fumbleCost is what a critical failure's Effect costs, in words.
func fumbleCost(e Effect) string {
	switch e {
	case Setback:
		return "he loses his next action"
	case Stymied:
		return "his next Possibility or bonus card is lost"
	case Unskilled:
		return "his next action is at default"
	case Fatigued:
		return "he loses FP"
	}
	return fmt.Sprintf("he suffers %s", e)
}

func possibilities(n int) string {
	if n == 1 {
		return "1 Possibility"
	}
	return fmt.Sprintf("%d Possibilities", n)
}

func verdict(ok bool) string {
	if ok {
		return "success"
	}
	return "failure"
}

func cards(n int) string {
	if n == 1 {
		return "1 card"
	}
	return fmt.Sprintf("%d cards", n)
}

// phrase is the outcome as the end of a sentence.
func (o Outcome) phrase() string {
	switch o {
	case HeroesWin:
		return "the heroes win"
	case VillainsWin:
		return "the villains win"
	case Escaped:
		return "the heroes escape"
	case TimedOut:
		return "time runs out with neither side beaten"
	}
	return "still going"
}

// MarshalText writes the kind name.
func (k EventKind) MarshalText() ([]byte, error) { return evNames.Marshal(k) }

// UnmarshalText reads a kind name.
func (k *EventKind) UnmarshalText(b []byte) error { return evNames.Unmarshal(b, k) }

var evNames = named.Enum[EventKind](evText[:])

// Trace is a recorder: pass t.Add as an Engine's Sink.
type Trace struct{ Events []Event }

// Add appends e.
func (t *Trace) Add(e Event) { t.Events = append(t.Events, e) }

// emit sends e to the sink, or holds it while the step may still be
// refused (game.hold), to be heard only once the step is taken. Call sites
// test g.Sink != nil first, so that with no sink no Event is even built.
func (g *game) emit(e Event) {
	if g.Sink != nil {
		s := g.State
		e.Round = s.Round
		e.Name, e.TargetName = s.nameOf(e.Who), s.nameOf(e.Target)
		if e.Card >= 0 && e.Card < len(s.Deck.Cards) {
			e.CardName = s.Deck.Cards[e.Card].Name.String()
		}
		if g.hold {
			s.lend.held = append(s.lend.held, e)
			return
		}
		g.Sink(e)
	}
}

// nameOf is character ci's name (player ci's, for a player), or "".
func (s *State) nameOf(ci int) string {
	if ci < 0 || ci >= len(s.Heroes)+len(s.Villains) {
		return ""
	}
	return s.char(ci).Name
}
