package dramadeck

import (
	"errors"
	"fmt"
	"slices"

	"github.com/stakesrpg/stakes/named"
)

// Ask names one of the questions the rules leave to the people at the
// table, by the Policy method that answers it.
type Ask uint8

// The questions, one per Policy method.
const (
	AskCritical  Ask = iota // hand cards poured into the pool for a Critical Moment
	AskDeclare              // the pool cards a player plays this round
	AskTrade                // a one-for-one swap of pool cards before declaring
	AskHaste                // a Haste card to play as a character's action comes up
	AskMove                 // a hand card to move to the pool after the hero's action
	AskChoose               // a character's action
	AskSpend                // spend a Possibility to re-roll a failure
	AskCancel               // spend a waiting Opponent Fails on a success
	AskStrip                // the pool card the GM strips after a villain's approved success
	AskCall                 // the result of a Player's Call
	AskDiscard              // a hand card to discard at a scene's end
	AskSteps                // task steps to attempt at once
	AskSwitch               // switch skill (or start again) on a Critical Problem
	AskLastDitch            // make the last-ditch effort
	AskSideRoll             // roll the task's extra approved action
	numAsks
)

var askNames = named.Enum[Ask]{"critical", "declare", "trade", "haste", "move", "choose", "spend",
	"cancel", "strip", "call", "discard", "steps", "switch", "last_ditch", "side_roll"}

func (a Ask) String() string                { return askNames.String(a) }
func (a Ask) MarshalText() ([]byte, error)  { return askNames.Marshal(a) }
func (a *Ask) UnmarshalText(b []byte) error { return askNames.Unmarshal(b, a) }

// field is the field of a Reply that answers a.
func (a Ask) field() string {
	switch a {
	case AskCritical:
		return "cards"
	case AskDeclare:
		return "plays"
	case AskTrade:
		return "swap"
	case AskChoose:
		return "choice"
	case AskCall:
		return "effect"
	case AskSpend, AskCancel, AskSwitch, AskLastDitch, AskSideRoll:
		return "yes"
	}
	return "index"
}

// late reports the questions the rules place after a step's dice: a
// step asks every other question before it acts (undo.go).
func (a Ask) late() bool {
	return a == AskSpend || a == AskCancel || a == AskSwitch || a == AskLastDitch
}

// onTask reports the questions asked about a task (shown a TaskView).
func (a Ask) onTask() bool { return a >= AskSteps && a <= AskSideRoll }

// AskSet is a set of questions (Engine.Ask).
type AskSet uint16

// AskAll is every question.
const AskAll AskSet = 1<<numAsks - 1

// Asking returns the set of the questions asks.
func Asking(asks ...Ask) AskSet {
	var s AskSet
	for _, a := range asks {
		if a < numAsks {
			s |= 1 << a
		}
	}
	return s
}

// Has reports whether a is in the set.
func (s AskSet) Has(a Ask) bool { return a < numAsks && s&(1<<a) != 0 }

// Reply is the answer to a Question: its Ask and the one field that
// Ask reads (the others stay zero, and a step refuses an answer that sets
// one): Cards for Critical (hand cards to pour into the pool), Plays for
// Declare, Swap for Trade (With -1: none), Choice for Choose, Effect for
// Call, Yes for Spend, Cancel, Switch, LastDitch and SideRoll, and Index
// for the rest: a card id for Haste and Move, an index into the pool
// (Strip) or the hand (Discard) as the question shows it, -1 for none;
// how many steps for Steps.
type Reply struct {
	Ask    Ask    `json:"ask"`
	Cards  []int  `json:"cards,omitempty"`
	Plays  []Play `json:"plays,omitempty"`
	Swap   Swap   `json:"swap,omitzero"`
	Choice Choice `json:"choice,omitzero"`
	Index  int    `json:"index,omitempty"`
	Yes    bool   `json:"yes,omitempty"`
	Effect Effect `json:"effect,omitempty"`
}

// check refuses an answer to no question, and one that sets a field its
// question does not read.
func (a *Reply) check() error {
	if a.Ask >= numAsks {
		return fmt.Errorf("answer to question %d: no such question (allowed: %s)", a.Ask, named.Allowed(askNames))
	}
	if len(a.Cards) > MaxCards || len(a.Plays) > MaxCards {
		return fmt.Errorf("answer to %v: more than %d cards", a.Ask, MaxCards)
	}
	for _, f := range [...]struct {
		name string
		set  bool
	}{{"cards", len(a.Cards) > 0}, {"plays", len(a.Plays) > 0}, {"swap", a.Swap != Swap{}},
		{"choice", a.Choice != Choice{}}, {"index", a.Index != 0}, {"yes", a.Yes}, {"effect", a.Effect != NoEffect}} {
		if f.set && f.name != a.Ask.field() {
			return fmt.Errorf("the answer to %v is its %s: leave %s zero", a.Ask, a.Ask.field(), f.name)
		}
	}
	return nil
}

// same reports whether a and b give the same answer to one question.
func (a *Reply) same(b *Reply) bool {
	return a.Ask == b.Ask && slices.Equal(a.Cards, b.Cards) && slices.Equal(a.Plays, b.Plays) &&
		a.Swap == b.Swap && a.Choice == b.Choice && a.Index == b.Index && a.Yes == b.Yes && a.Effect == b.Effect
}

// Question is a choice asked as a step of its own (Engine.Ask): what is
// asked (Ask), of whom (Side: Heroes for the players, Villains for the
// GM; Who as the policy's View.Who: the player, or the character), what
// it is about, and the legal answers (Options). State.Question holds it
// between the step that reached it and the answer (Engine.Reply).
//
// The state it stands in is the game as the step found it: the step is
// taken again, whole, when the question is answered, its dice falling as
// they fell and its earlier questions answered as they were (Given), so
// what the question is about is written here: the failed roll (Spend),
// the success and its actor (Cancel), the pool (Strip) or the hand
// (Discard) as they stand when asked, the task as its policy sees it.
type Question struct {
	Ask  Ask  `json:"ask"`
	Side Side `json:"side"`
	Who  int  `json:"who"`
	// Result is the failed roll a Possibility would re-roll (Spend), and
	// Resisting says whether it is a defence or a resistance.
	Result    Result `json:"result,omitzero"`
	Resisting bool   `json:"resisting,omitempty"`
	// Actor and Act are the success Opponent Fails would cancel (Cancel);
	// Target and Act the contest whose Player's Call is asked (Call); Next
	// the character whose action comes up (Haste).
	Actor  int `json:"actor,omitempty"`
	Target int `json:"target,omitempty"`
	Act    Act `json:"act,omitempty"`
	Next   int `json:"next,omitempty"`
	// Must: the hand is over the hand size, so a card must go (Discard).
	Must bool `json:"must,omitempty"`
	// Cards are the player's pool (Strip) or hand (Discard, Critical) as
	// they stand when asked, or the cards a Critical Moment is pouring into
	// the pool (Declare).
	Cards []int `json:"cards,omitempty"`
	// Task is the task as its policy sees it (Steps, Switch, LastDitch,
	// SideRoll).
	Task *TaskView `json:"task,omitempty"`
	// Options are the legal answers. With Many, the answer combines any of
	// them, each at most once, or none (Critical's cards, Declare's
	// plays); Declare lists each play the player could make on its own,
	// at every target, but not Leadership, whose cards, receiver and
	// explanation the player names (Play).
	Options []Reply `json:"options,omitempty"`
	Many    bool    `json:"many,omitempty"`
	// Given are the answers the step received before it reached the
	// question, in order, both sides', which it receives again when it is
	// taken again.
	Given []Reply `json:"given,omitempty"`
}

// Bounds of a question a saved state may hold.
const (
	// maxOptions bounds a question's legal answers: every swap of a pool
	// card for another player's fits.
	maxOptions = MaxCards * MaxCards / 4
	// maxGiven bounds the answers a step received before its question.
	maxGiven = 1 << 20
)

// check validates the question s holds, against s.
func (q *Question) check(s *State) error {
	n := len(s.Heroes) + len(s.Villains)
	switch {
	case q.Ask >= numAsks:
		return fmt.Errorf("question.ask: %d is no question (allowed: %s)", q.Ask, named.Allowed(askNames))
	case q.Side > Villains:
		return fmt.Errorf("question.side: %d (allowed: Heroes, Villains)", q.Side)
	case q.Who < 0 || q.Who >= n || q.Actor < 0 || q.Actor >= n || q.Target < 0 || q.Target >= n || q.Next < 0 || q.Next >= n:
		return fmt.Errorf("question: who, actor, target and next must be characters 0..%d", n-1)
	case len(q.Options) > maxOptions || len(q.Given) > maxGiven || len(q.Cards) > MaxCards:
		return fmt.Errorf("question: at most %d options, %d answers given and %d cards", maxOptions, maxGiven, MaxCards)
	case (q.Task != nil) != q.Ask.onTask():
		return fmt.Errorf("question.task: a %v question %s a task", q.Ask, map[bool]string{true: "needs", false: "has no"}[q.Ask.onTask()])
	case q.Result.Roll < 0 || q.Result.Roll > 18 || q.Result.Skill < -maxCount || q.Result.Skill > maxCount:
		return errors.New("question.result: a 3d6 roll (0..18) against a skill within bounds")
	case s.Done():
		return errors.New("question: the game is over, so no step is waiting for an answer")
	}
	for i := range q.Options {
		if err := q.Options[i].check(); err != nil || q.Options[i].Ask != q.Ask {
			return fmt.Errorf("question.options[%d]: not an answer to %v (%v)", i, q.Ask, err)
		}
	}
	for i := range q.Given {
		if err := q.Given[i].check(); err != nil {
			return fmt.Errorf("question.given[%d]: %w", i, err)
		}
	}
	return nil
}

// accepts reports why a is no answer to q, or nil. An answer that
// combines options (Many) is checked by the step it answers, as a
// policy's is.
func (q *Question) accepts(a *Reply) error {
	if a.Ask != q.Ask {
		return fmt.Errorf("the question is %v, not %v", q.Ask, a.Ask)
	}
	if err := a.check(); err != nil {
		return err
	}
	if q.Many {
		return nil
	}
	for i := range q.Options {
		if q.Options[i].same(a) {
			return nil
		}
	}
	return fmt.Errorf("%v: not one of the %d legal answers the question lists", a.Ask, len(q.Options))
}
