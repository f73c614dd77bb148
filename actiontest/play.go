package actiontest

import (
	"errors"
	"fmt"

	"github.com/stakesrpg/stakes/dice"
)

// View is what a Policy sees when it decides. Policies must treat it as
// read-only.
type View struct {
	// Pool is the dice of the roll (before Risk Peril, when asked about it).
	Pool int
	// Required is the successes needed; Successes those rolled so far (0
	// before the roll).
	Required, Successes int
	// Position is the roll's position, resolved: never "".
	Position Position
	// Penalty is the dice the character's harm costs this roll.
	Penalty int
	// MustPush says the character can act only by pushing.
	MustPush bool
	// Extra is the extra successes left to spend, when Spend is asked.
	Extra int
	// Allowed has bit i set when the test's Action allows Rules.Effects[i]
	// (when Spend is asked).
	Allowed uint64
	// Harm is how many harms the character holds (what heals can clear;
	// when Spend is asked).
	Harm int
	// Succeeded says whether the finished test got what it was after
	// (when Spend is asked).
	Succeeded bool
	// PushTrack is the natural harm track if a push may put its harm
	// there, else another track it may, else "" (no push possible). It is
	// worked out with the checks Push makes.
	PushTrack string
	// Rules are the rules in force (read-only).
	Rules *Rules
	// State is the character's state as the step found it (read-only):
	// harm, flashbacks, carried dice, the roll in flight.
	State *State
	// Pursuit is where the scenario's pursuit stands when a Runner asks
	// (read-only); nil outside a pursuit.
	Pursuit *Pursuit
}

// Failed reports whether the roll so far falls short.
func (v *View) Failed() bool { return v.Successes < v.Required }

// actionTest begins t under the game's player and steps until the
// action ends (Engine.ActionTest).
func (c *game) actionTest(r *dice.Roller, t Test) error {
	s, err := c.canBegin(&t)
	if err != nil {
		return err
	}
	if t.Opposed && t.Opponent == 0 {
		return fmt.Errorf("%w: an opposed roll against successes rolled elsewhere is played with Begin, Push and FinishOpposed", ErrStage)
	}
	if err := c.beginWith(r, &t, s, false, c.player); err != nil {
		return err
	}
	// A flashback called during an action ends with its own roll; the
	// action it interrupted goes on after it.
	for (t.Flashback && c.State.Flashback.Stage == Rolled) || (!t.Flashback && !c.State.Done()) {
		if err := c.step(r); err != nil {
			return err
		}
	}
	return nil
}

// step takes the next step of the action under way under the game's
// player (Engine.Step): push or finish the roll in flight, spending a
// finished action's extra successes, or roll the Worse Position retry.
func (c *game) step(r *dice.Roller) error {
	p := c.player
	if at := c.inFlight(); at != nil {
		s, err := c.subjectOf(at.Test.Action)
		if err != nil {
			return err
		}
		return c.resolveAndSpend(r, at, s, p)
	}
	if c.State.Attempt.Stage == Finished && c.State.Attempt.Retry {
		rt := c.retryTest()
		pushed, err := c.canRetry(&rt)
		if err != nil {
			return err
		}
		s, _ := c.subjectOf(rt.Action)
		return c.beginWith(r, &rt, s, pushed, p)
	}
	return fmt.Errorf("%w: no action is under way (begin one with ActionTest or Begin)", ErrStage)
}

// resolveAndSpend pushes or finishes the roll in flight as p chooses and,
// when that finishes the action, has p spend its extra successes. The
// spending is asked after the roll is read, so the state is kept first
// (into the state's own undo record, made once) and put back when p's
// spending is illegal: the step then changes nothing.
func (c *game) resolveAndSpend(r *dice.Roller, at *Attempt, s subject, p Policy) error {
	action := at == &c.State.Attempt
	if c.maySpend() {
		if c.State.undo == nil {
			c.State.undo = &State{}
		}
		c.State.undo.copyPlay(c.State)
	}
	if err := c.resolveWith(r, at, s, p); err != nil {
		return err
	}
	if !action || at.Stage != Finished || at.Retry {
		return nil
	}
	if at.Extra == 0 {
		return nil
	}
	if err := c.spendWith(p, c.allowedBy(s)); err != nil {
		c.State.copyPlay(c.State.undo)
		return err
	}
	return nil
}

// maySpend says whether the next step may ask for spending: the
// action's roll in flight is already past its requirement (a push is a
// step of its own, so the roll finishes with the successes it has; an
// opposed roll, of difficulty 0, needs more than its opponent's).
func (c *game) maySpend() bool {
	at := &c.State.Attempt
	return at.Stage == Rolled && at.Successes > at.Test.Difficulty
}

// callsFlashback shows p the flashback test t (checked), which rolls s,
// and returns whether p calls it now; an error says it cannot begin (a
// character who cannot act, or no flashback left).
func (c *game) callsFlashback(t *Test, s subject, p Policy) (bool, error) {
	var pool Pool
	must, err := c.count(&pool, t, s, false)
	if err != nil {
		return false, err
	}
	c.viewOf(&c.State.v, t, s, &pool, must, false, 0, nil)
	return p.Flashback(&c.State.v), nil
}

// retryTest is the test of the retry the finished roll asks for: the same
// test at the worse position, its Risk Peril deal offered afresh.
func (c *game) retryTest() Test {
	t := c.State.Attempt.Test
	t.Position, t.Peril = c.State.Attempt.NextPosition, false
	return t
}

// errPeril marks a Risk Peril deal a policy took that the test cannot
// take (one that forbids the push a character with severe harm needs to
// act, or makes the pool too large): an illegal answer, which refuses the
// step, not the character's incapacity, which ends a pursuit.
var errPeril = errors.New("a Risk Peril deal the test cannot take")

// beginWith asks p about an offered Risk Peril deal and begins test t
// (checked by canBegin or canRetry; pushed says the action was pushed
// before a retry). On error nothing changes.
func (c *game) beginWith(r *dice.Roller, t *Test, s subject, pushed bool, p Policy) error {
	var pool Pool
	must, err := c.count(&pool, t, s, pushed)
	if err != nil {
		return err
	}
	if t.PerilOffered && !t.Peril {
		c.viewOf(&c.State.v, t, s, &pool, must, pushed, 0, nil)
		peril := p.Peril(&c.State.v)
		if err := refused(p); err != nil {
			return err
		}
		if peril {
			t.Peril = true
			if must, err = c.count(&pool, t, s, pushed); err != nil {
				return fmt.Errorf("policy %s took %w: %w", p.Name(), errPeril, err)
			}
		}
	}
	c.roll(r, t, s, &pool, must, pushed)
	return nil
}

// resolveWith asks p whether to push the roll in flight and pushes it, or
// finishes it. When no push is possible there is no choice to make, and p
// is not asked. On error nothing changes.
func (c *game) resolveWith(r *dice.Roller, at *Attempt, s subject, p Policy) error {
	// The view names no PushTrack when the roll cannot be pushed: then
	// there is nothing to ask.
	c.viewOf(&c.State.v, &at.Test, s, &at.Pool, at.MustPush, at.ActionPushed, at.Successes, at)
	if c.State.v.PushTrack != "" {
		push, track := p.Push(&c.State.v)
		if err := refused(p); err != nil {
			return err
		}
		if push {
			if err := c.Push(r, track); err != nil {
				return fmt.Errorf("policy %s: %w", p.Name(), err)
			}
			return nil
		}
	}
	if at.MustPush && !at.Pushed {
		return fmt.Errorf("policy %s: %w", p.Name(), ErrMustPush)
	}
	return c.finish(at, s)
}

// view is the View of the roll at.
func (c *game) view(at *Attempt) View {
	var v View
	c.viewInto(&v, at)
	return v
}

// viewInto fills v with the View of the roll at.
func (c *game) viewInto(v *View, at *Attempt) {
	s, _ := c.subjectOf(at.Test.Action)
	c.viewOf(v, &at.Test, s, &at.Pool, at.MustPush, at.ActionPushed, at.Successes, at)
}

// viewOf fills v with the View of test t (checked), which rolls s, with
// its pool counted and n successes rolled so far: at, the roll, or nil
// before it. PushTrack comes from the checks Push makes: the roll's (when
// at is given) and the test's, then the tracks' room.
func (c *game) viewOf(v *View, t *Test, s subject, pool *Pool, must, pushed bool, n int, at *Attempt) {
	v.Pool, v.Required, v.Successes, v.Penalty, v.MustPush = pool.Dice, t.Difficulty, n, pool.Penalty, must
	v.Position, v.PushTrack, v.Rules = c.rules.position(t.Position), "", c.rules
	v.State, v.Pursuit = c.State, c.pursuit
	v.Extra, v.Allowed, v.Harm, v.Succeeded = 0, 0, 0, false
	bar := c.testBar(t, pushed)
	if at != nil && bar == noBar {
		bar = attemptBar(at, c.rules)
	}
	if bar != noBar {
		return
	}
	if tr := c.pushTrack(s.track); tr >= 0 {
		v.PushTrack = c.rules.HarmTracks[tr]
	}
}

// PushTrack returns the track a push of the roll in flight would put its
// harm on by default — the Action's natural track if it has room, else
// the first track that does — or "" when the roll cannot be pushed.
func (c *game) PushTrack() string {
	at := c.inFlight()
	if at == nil {
		return ""
	}
	return c.view(at).PushTrack
}

// Opposed compares two rolled (or finished) attempts: +1 if a has more
// successes, -1 if b has, 0 if equal (neither succeeds).
func Opposed(a, b *Attempt) (int, error) {
	if a.Stage == NotBegun || b.Stage == NotBegun {
		return 0, fmt.Errorf("%w: both sides must roll before an opposed test is read", ErrStage)
	}
	switch {
	case a.Successes > b.Successes:
		return 1, nil
	case a.Successes < b.Successes:
		return -1, nil
	}
	return 0, nil
}

// refused is the error of a policy that refused its own answer (a Game's
// Chooser answering with the wrong type), nil for any other: the step
// asking it stops before it rolls a die.
func refused(p Policy) error {
	if q, ok := p.(*chosen); ok {
		return q.err
	}
	return nil
}
