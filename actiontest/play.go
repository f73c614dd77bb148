package actiontest

import (
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
	Position            Position
	// Penalty is the dice the character's harm costs this roll.
	Penalty int
	// MustPush says the character can act only by pushing.
	MustPush bool
	// PushTrack is the natural harm track if a push may put its harm
	// there, else another track it may, else "" (no push possible). It is
	// worked out with the checks Push makes.
	PushTrack string
	// Rules are the rules in force (read-only).
	Rules *Rules
}

// Failed reports whether the roll so far falls short.
func (v *View) Failed() bool { return v.Successes < v.Required }

// Play runs one whole action with a policy: it may accept an offered Risk
// Peril, rolls, may push, and finishes; when the outcome asks for a Worse
// Position retry it re-rolls at the worse position (offering the deal
// again) until the action ends. A policy's illegal choice is an error,
// and the state is then as the last legal step left it.
func (c *Character) Play(r *dice.Roller, t Test, p Policy) error {
	if err := c.playFirst(r, t, p); err != nil {
		return err
	}
	for !t.Flashback && c.State.Attempt.Retry {
		if err := c.playRetry(r, p); err != nil {
			return err
		}
	}
	return nil
}

// playFirst plays the first roll of an action, or a flashback.
func (c *Character) playFirst(r *dice.Roller, t Test, p Policy) error {
	if err := c.canBegin(&t); err != nil {
		return err
	}
	return c.playRoll(r, &t, false, p)
}

// playRetry plays the Worse Position re-roll of the finished roll.
func (c *Character) playRetry(r *dice.Roller, p Policy) error {
	t := c.State.Attempt.Test
	t.Position, t.Peril = c.State.Attempt.NextPosition, false
	pushed, err := c.canRetry(&t)
	if err != nil {
		return err
	}
	return c.playRoll(r, &t, pushed, p)
}

// playRoll asks p about an offered Risk Peril deal, rolls the checked test
// t, asks p about a push and finishes.
func (c *Character) playRoll(r *dice.Roller, t *Test, pushed bool, p Policy) error {
	if t.PerilOffered && !t.Peril {
		pool, must, err := c.count(t, pushed)
		if err != nil {
			return err
		}
		c.seen = c.viewOf(t, pool, must, pushed, 0)
		t.Peril = p.Peril(&c.seen)
	}
	pool, must, err := c.count(t, pushed)
	if err != nil {
		return err
	}
	c.roll(r, t, pool, must, pushed)
	at := c.slot(t)
	if err := c.maybePush(r, at, p); err != nil {
		return err
	}
	if at.MustPush && !at.Pushed {
		return fmt.Errorf("policy %s: %w", p.Name(), ErrMustPush)
	}
	c.finish(at)
	return nil
}

// view is the View of the roll at.
func (c *Character) view(at *Attempt) View {
	return c.viewOf(&at.Test, at.Pool, at.MustPush, at.ActionPushed, at.Successes)
}

// viewOf is the View of test t (checked) with its pool counted and s
// successes rolled so far.
func (c *Character) viewOf(t *Test, pool Pool, must, pushed bool, s int) View {
	act, _ := c.rules.ActionIndex(t.Action)
	v := View{Pool: pool.Dice, Required: t.Difficulty, Successes: s,
		Position: t.Position, Penalty: pool.Penalty, MustPush: must, Rules: c.rules}
	if tr := c.pushTrack(c.harm[c.link[act]]); tr >= 0 && c.testPushBar(t, pushed, tr) == noBar {
		v.PushTrack = c.rules.HarmTracks[tr]
	}
	return v
}

// PushTrack returns the track a push of the roll in flight would put its
// harm on by default — the Action's natural track if it has room, else
// the first track that does — or "" when the roll cannot be pushed.
func (c *Character) PushTrack() string {
	at := c.inFlight()
	if at == nil {
		return ""
	}
	return c.view(at).PushTrack
}

// maybePush asks p whether to push at's roll and on which track, and
// pushes. When no push is possible there is no choice to make, and p is
// not asked.
func (c *Character) maybePush(r *dice.Roller, at *Attempt, p Policy) error {
	c.seen = c.view(at)
	if c.seen.PushTrack == "" {
		return nil
	}
	push, track := p.Push(&c.seen)
	if !push {
		return nil
	}
	if err := c.Push(r, track); err != nil {
		return fmt.Errorf("policy %s: %w", p.Name(), err)
	}
	return nil
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
