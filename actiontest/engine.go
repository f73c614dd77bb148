package actiontest

import (
	"fmt"

	"github.com/stakesrpg/stakes/dice"
)

// Table is who answers the choices at the table: the player's Policy
// (risk peril, push, spend, call the flashback) and the Director, who
// rules on what a roll costs. They are two roles, so an Engine holds them
// as one Table rather than one policy per side.
type Table struct {
	// Player makes the player's choices; nil is Never.
	Player Policy
	// Director rules on the outcome table's consequences; nil is the
	// shipped Director the State names (State.Director). A Director of
	// your own goes here: no registry is needed.
	Director Director
}

// Engine takes the steps of action tests on a State. Its Policies answer
// every choice the steps ask (the one way policies reach it), and its Sink
// hears every event. The zero Engine is ready to use (Never playing, the
// state's Director ruling), and copies of it may run on other goroutines,
// each with its own State. Every step checks everything before it changes
// anything: a refused step returns an error and leaves the State and the
// dice.Roller exactly as they were. Steps read a State that passed Check
// (NewState and Scenario.Restore make such states; check again after
// editing its rules or sheet by hand): what a step needs from the rules,
// the sheet and the state's Director (the Director's ruling on every cell
// of the outcome table) is worked out once when the state is made or
// checked, and a name a test rolls is resolved once for the steps of its
// action, so a step looks nothing up by name and allocates nothing. Naming
// another shipped Director (State.Director) takes effect at the next step.
type Engine struct {
	// Policies answer the player's and the Director's choices.
	Policies Table
	// Sink, when non-nil, hears an Event for everything that happens; nil
	// builds none.
	Sink func(Event)
}

// NewEngine returns an Engine under t. It checks nothing more than the
// zero Engine would: the rules travel with each State and are checked by
// State.Check.
func NewEngine(t Table) *Engine { return &Engine{Policies: t} }

// ActionTest plays one whole action test ("Action Tests") under
// e.Policies: it begins t, the player taking an offered Risk Peril deal or
// not, then steps (Play) until the action ends: the player may push, the
// roll is read against the table, a Worse Position retry is rolled at the
// worse position (its deal offered afresh), and the player spends the
// extra successes (a flashback's are not spent). A policy's illegal answer
// is an error, and the state is then as the last legal step left it.
func (e Engine) ActionTest(s *State, r *dice.Roller, t Test) error {
	if r == nil {
		return dice.ErrNilRoller
	}
	return e.on(s).actionTest(r, t)
}

// Step takes the next step of the action under way, under e.Policies:
// push or finish the roll in flight (the action's or a flashback's; a
// finished action's extra successes are spent in the same step), or roll
// the Worse Position retry an outcome asked for. A state with no action
// under way (State.Done) is refused. A policy's illegal answer is an
// error, and nothing changes.
func (e Engine) Step(s *State, r *dice.Roller) error {
	if r == nil {
		return dice.ErrNilRoller
	}
	return e.on(s).step(r)
}

// Play steps (Step) until the action under way ends (State.Done): a state
// already done is left as it is.
func (e Engine) Play(s *State, r *dice.Roller) error {
	if r == nil {
		return dice.ErrNilRoller
	}
	c := e.on(s)
	for !s.Done() {
		if err := c.step(r); err != nil {
			return err
		}
	}
	return nil
}

// Done reports whether no action is under way: no roll in flight and no
// Worse Position retry waiting. A finished action's extra successes are
// spent in the step that finished it.
func (s *State) Done() bool {
	return s.Attempt.Stage != Rolled && s.Flashback.Stage != Rolled &&
		!(s.Attempt.Stage == Finished && s.Attempt.Retry)
}

// Begin starts an action test, or a flashback (Test.Flashback): it checks
// the test, pays a Risk Peril cost, spends the carried bonus dice (and a
// flashback, for a flashback test) and rolls the pool into s.Attempt (or
// s.Flashback). A flashback of difficulty 0 rolls nothing and will
// succeed. A roll already in flight must be finished first (ErrInFlight):
// beginning again would be a free re-roll. The deal is taken only when
// t.Peril says so (Begin asks no policy).
func (e Engine) Begin(s *State, r *dice.Roller, t Test) error {
	if r == nil {
		return dice.ErrNilRoller
	}
	return e.on(s).Begin(r, t)
}

// Retry re-rolls the action at the worse position its last roll's Worse
// Position consequence set ("Worse Position": you haven't failed, but you
// haven't succeeded yet; try again, re-rolling at the new, worse
// position). t is the re-roll's test: RetryTest returns the one ActionTest
// and Step roll (the last test at s.Attempt.NextPosition, its Risk Peril
// deal not taken again: a deal is paid for once, when it is made); change
// its help, equipment or bonus as the table rules, or set Peril to make a
// new deal. The re-roll belongs to the same action, so a push made before
// it counts (see Rules.RetryMayPush).
func (e Engine) Retry(s *State, r *dice.Roller, t Test) error {
	if r == nil {
		return dice.ErrNilRoller
	}
	return e.on(s).Retry(r, t)
}

// RetryTest returns the test of the Worse Position retry the finished
// action asks for: its test at the next worse position with the Risk
// Peril deal offered afresh but not taken (Peril false), which is what
// ActionTest and Step roll. It is an error when no retry is asked for.
func (e Engine) RetryTest(s *State) (Test, error) {
	last := &s.Attempt
	if last.Stage != Finished || !last.Retry {
		return Test{}, fmt.Errorf("%w: a retry follows a finished roll whose outcome asks for one", ErrStage)
	}
	return e.on(s).retryTest(), nil
}

// Push pushes the roll in flight ("Pushing the Roll"): the character
// takes a level PushHarm harm on the named track, and every die of the
// first roll that is not a success is re-rolled together with PushDice
// more dice; the successes stay. It may follow a success, but only once
// per action. By default the push's own harm does not shrink the re-roll
// (Rules.PushHarmShrinks).
func (e Engine) Push(s *State, r *dice.Roller, track string) error {
	if r == nil {
		return dice.ErrNilRoller
	}
	return e.on(s).Push(r, track)
}

// Finish reads the roll in flight against the position x outcome table,
// as the Director rules it (e.Policies.Director, or the state's), and
// applies it: the table's harm, dice carried to the next roll, a
// successful flashback's bonus, or a Worse Position retry.
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

// SpendExtra asks e.Policies.Player how to spend the finished action's
// unspent extra successes and buys them (see Spend). A policy's illegal
// choice is an error and changes nothing.
func (e Engine) SpendExtra(s *State) error { return e.on(s).SpendExtra() }

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
func (e Engine) CanBegin(s *State, t Test) error { return e.on(s).CanBegin(t) }

// CanRetry reports why Retry would refuse t now, or nil.
func (e Engine) CanRetry(s *State, t Test) error { return e.on(s).CanRetry(t) }

// CanPush reports why the roll in flight may not be pushed now with the
// push's harm on the named track, or nil.
func (e Engine) CanPush(s *State, track string) error { return e.on(s).CanPush(track) }

// PushTrack returns the track a push of the roll in flight would put its
// harm on by default — the Action's natural track if it has room, else
// the first track that does — or "" when the roll cannot be pushed.
func (e Engine) PushTrack(s *State) string { return e.on(s).PushTrack() }

// HasSpace reports whether the named track can take a level PushHarm harm
// under the rules' PushSpace reading: under "track", a free slot in its
// row or any row above (the harm would not overflow the track); under
// "bottom_row", a free slot in its own row.
func (e Engine) HasSpace(s *State, track string) bool { return e.on(s).HasSpace(track) }

// Buyable returns the effects (Rules.Effects names) the finished action's
// unspent extra successes can buy now, one at a time: each allowed by the
// test's Action, costing no more than the extra successes left, and doing
// something (a heal needs a harm to clear). It is empty when nothing can
// be bought, or no action is finished.
func (e Engine) Buyable(s *State) []string { return e.on(s).buyable() }

// CanSpend reports why Spend would refuse the named effects now, or nil.
func (e Engine) CanSpend(s *State, names ...string) error { return e.on(s).canSpendNames(names) }

// View returns what the player's policy would be shown of the roll in
// flight, the action's or a flashback's, and whether one is in flight.
func (e Engine) View(s *State) (View, bool) {
	c := e.on(s)
	at := c.inFlight()
	if at == nil {
		return View{}, false
	}
	return c.view(at), true
}

// Chances returns the exact odds of t for the character as it stands, its
// choices made by e.Policies.Player. The state is not changed. An illegal
// choice by the policy on any possible roll is an error.
func (e Engine) Chances(s *State, t Test) (Chances, error) { return e.on(s).Chances(t, e.player()) }

// player is the player's policy: e.Policies.Player, or Never.
func (e Engine) player() Policy {
	if e.Policies.Player == nil {
		return Never{}
	}
	return e.Policies.Player
}

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
