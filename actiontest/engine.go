package actiontest

import "github.com/stakesrpg/stakes/dice"

// Engine takes the steps of action tests on a State. It holds nothing but
// its Sink: the zero Engine is ready to use, and copies of it may run on
// other goroutines, each with its own State. Every step checks everything
// before it changes anything: a refused step returns an error and leaves
// the State and the dice.Roller exactly as they were. Steps read a State
// that passed Check (NewState and Restore return such states; check again
// after editing one by hand).
type Engine struct {
	// Sink, when non-nil, hears an Event for everything that happens; nil
	// builds none.
	Sink func(Event)
}

// Begin starts an action test, or a flashback (Test.Flashback): it checks
// the test, pays a Risk Peril cost, spends the carried bonus dice (and a
// flashback, for a flashback test) and rolls the pool into s.Attempt (or
// s.Flashback). A flashback of difficulty 0 rolls nothing and will
// succeed. A roll already in flight must be finished first (ErrInFlight):
// beginning again would be a free re-roll.
func (e Engine) Begin(s *State, r *dice.Roller, t Test) error { return e.on(s).Begin(r, t) }

// Retry re-rolls the action at the worse position its last roll's Worse
// Position consequence set ("Worse Position": you haven't failed, but you
// haven't succeeded yet; try again, re-rolling at the new, worse
// position). t is the re-roll's test: the same Action and difficulty at
// s.Attempt.NextPosition (Test.At of the last one, or changed as the
// table rules: help, equipment, a new Risk Peril deal). The re-roll
// belongs to the same action, so a push made before it counts (see
// Rules.RetryMayPush).
func (e Engine) Retry(s *State, r *dice.Roller, t Test) error { return e.on(s).Retry(r, t) }

// Push pushes the roll in flight ("Pushing the Roll"): the character
// takes a level PushHarm harm on the named track, and every die of the
// first roll that is not a success is re-rolled together with PushDice
// more dice; the successes stay. It may follow a success, but only once
// per action. By default the push's own harm does not shrink the re-roll
// (Rules.PushHarmShrinks).
func (e Engine) Push(s *State, r *dice.Roller, track string) error { return e.on(s).Push(r, track) }

// Finish reads the roll in flight against the position x outcome table,
// as the state's Director rules it, and applies it: the table's harm, dice
// carried to the next roll, a successful flashback's bonus, or a Worse
// Position retry.
func (e Engine) Finish(s *State) error { return e.on(s).Finish() }

// FinishOpposed reads the opposed roll in flight against the opponent's
// final successes ("Opposed Rolls": the most successes prevail; as many
// means neither succeeds nor fails, and against an NPC, npc, the Director
// may use a Consequence) and applies Rules.Opposed's outcome. Successes
// beyond the opponent's plus one are extra successes [ours].
func (e Engine) FinishOpposed(s *State, opponent int, npc bool) error {
	return e.on(s).FinishOpposed(opponent, npc)
}

// Spend buys the named effects with the finished action's extra
// successes, in order, and applies them: a heal clears the lowest harm, a
// bonus carries dice to the next roll, help and narrative effects are only
// recorded. The effects' cost may not exceed the extra successes not yet
// spent (Attempt.Extra - Attempt.Spent), every effect must be allowed by
// the test's Action, and a heal needs a harm to clear. Each effect is
// recorded in s.Attempt.Bought and, with a Sink, as an EvEffect event.
func (e Engine) Spend(s *State, names ...string) error { return e.on(s).Spend(names...) }

// SpendWith asks p how to spend the finished action's unspent extra
// successes and buys them (see Spend). A policy's illegal choice is an
// error and changes nothing.
func (e Engine) SpendWith(s *State, p Policy) error { return e.on(s).SpendWith(p) }

// Play runs one whole action with a policy: it may accept an offered Risk
// Peril, rolls, may push, and finishes; when the outcome asks for a Worse
// Position retry it re-rolls at the worse position (offering the deal
// again) until the action ends; then the policy spends the extra
// successes (a flashback's are not spent). A policy's illegal answer is an
// error, and the state is then as the last legal step left it.
func (e Engine) Play(s *State, r *dice.Roller, t Test, p Policy) error {
	return e.on(s).Play(r, t, p)
}

// TakeHarm marks harm of the given level on the named track: a full row
// passes it up a row, and harm past the top row is a critical injury. It
// returns the row filled (-1 for a critical injury).
func (e Engine) TakeHarm(s *State, level int, track string) (row int, err error) {
	return e.on(s).TakeHarm(level, track)
}

// Heal clears one harm of the given level (1: the bottom row) on the named
// track (the Director may let a surge of confidence heal a harm).
func (e Engine) Heal(s *State, track string, level int) error { return e.on(s).Heal(track, level) }

// NewDay restores the day's flashbacks.
func (e Engine) NewDay(s *State) { e.on(s).NewDay() }

// The queries below answer what may be done now, for menus and bots, from
// the checks the steps make; they roll nothing and change nothing.

// CanBegin reports why Begin would refuse t now, or nil.
func (s *State) CanBegin(t Test) error { return Engine{}.on(s).CanBegin(t) }

// CanRetry reports why Retry would refuse t now, or nil.
func (s *State) CanRetry(t Test) error { return Engine{}.on(s).CanRetry(t) }

// CanPush reports why the roll in flight may not be pushed now with the
// push's harm on the named track, or nil.
func (s *State) CanPush(track string) error { return Engine{}.on(s).CanPush(track) }

// PushTrack returns the track a push of the roll in flight would put its
// harm on by default — the Action's natural track if it has room, else
// the first track that does — or "" when the roll cannot be pushed.
func (s *State) PushTrack() string { return Engine{}.on(s).PushTrack() }

// HasSpace reports whether the named track can take a level PushHarm harm
// under the rules' PushSpace reading: under "track", a free slot in its
// row or any row above (the harm would not overflow the track); under
// "bottom_row", a free slot in its own row.
func (s *State) HasSpace(track string) bool { return Engine{}.on(s).HasSpace(track) }

// Rating returns the named Action's rating, its Attribute's rating, and
// the Attribute's name; for an Attribute's name (a roll no Action covers),
// 0, the Attribute's rating and its name.
func (s *State) Rating(action string) (act, attr int, attribute string, err error) {
	return Engine{}.on(s).Rating(action)
}

// NaturalTrack returns the harm track an Action (or an Attribute rolled
// alone) naturally risks.
func (s *State) NaturalTrack(action string) (string, error) {
	return Engine{}.on(s).NaturalTrack(action)
}

// Penalty returns the dice the character's harm costs: each filled slot
// costs its row's Penalty.
func (s *State) Penalty() int { return Engine{}.on(s).Penalty() }

// Incapacitated reports whether a filled incapacitating row (Severe harm)
// stops the character acting unless helped or pushing.
func (s *State) Incapacitated() bool { return Engine{}.on(s).Incapacitated() }

// View returns what a policy would be shown of the roll in flight, the
// action's or a flashback's, and whether one is in flight.
func (s *State) View() (View, bool) {
	c := Engine{}.on(s)
	at := c.inFlight()
	if at == nil {
		return View{}, false
	}
	return c.view(at), true
}

// Chances returns the exact odds of t for the character as it stands, when
// its choices are made by p. The state is not changed. An illegal choice
// by the policy on any possible roll is an error.
func (s *State) Chances(t Test, p Policy) (Chances, error) { return Engine{}.on(s).Chances(t, p) }
