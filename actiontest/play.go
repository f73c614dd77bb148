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
// again) until the action ends. A policy's illegal answer is an error,
// and the state is then as the last legal step left it.
func (c *Character) Play(r *dice.Roller, t Test, p Policy) error {
	if err := c.canBegin(&t); err != nil {
		return err
	}
	if t.Opposed {
		return fmt.Errorf("%w: an opposed roll is played with Begin, Push and FinishOpposed", ErrStage)
	}
	if err := c.beginWith(r, t, false, p); err != nil {
		return err
	}
	for {
		if at := c.inFlight(); at != nil {
			if err := c.resolveWith(r, at, p); err != nil {
				return err
			}
			continue
		}
		if t.Flashback || !c.State.Attempt.Retry {
			return nil
		}
		rt := c.retryTest()
		pushed, err := c.canRetry(&rt)
		if err != nil {
			return err
		}
		if err := c.beginWith(r, rt, pushed, p); err != nil {
			return err
		}
	}
}

// retryTest is the test of the retry the finished roll asks for: the same
// test at the worse position, its Risk Peril deal offered afresh.
func (c *Character) retryTest() Test {
	t := c.State.Attempt.Test
	t.Position, t.Peril = c.State.Attempt.NextPosition, false
	return t
}

// beginWith asks p about an offered Risk Peril deal and begins test t
// (checked by canBegin or canRetry; pushed says the action was pushed
// before a retry). On error nothing changes.
func (c *Character) beginWith(r *dice.Roller, t Test, pushed bool, p Policy) error {
	if t.PerilOffered && !t.Peril {
		pool, must, err := c.count(&t, pushed)
		if err != nil {
			return err
		}
		c.seen = c.viewOf(&t, pool, must, pushed, 0, nil)
		t.Peril = p.Peril(&c.seen)
	}
	pool, must, err := c.count(&t, pushed)
	if err != nil {
		return err
	}
	c.roll(r, &t, pool, must, pushed)
	return nil
}

// resolveWith asks p whether to push the roll in flight and pushes it, or
// finishes it. When no push is possible there is no choice to make, and p
// is not asked. On error nothing changes.
func (c *Character) resolveWith(r *dice.Roller, at *Attempt, p Policy) error {
	c.seen = c.view(at)
	if c.seen.PushTrack != "" {
		if push, track := p.Push(&c.seen); push {
			if err := c.Push(r, track); err != nil {
				return fmt.Errorf("policy %s: %w", p.Name(), err)
			}
			return nil
		}
	}
	if at.MustPush && !at.Pushed {
		return fmt.Errorf("policy %s: %w", p.Name(), ErrMustPush)
	}
	if at.Test.Opposed {
		return fmt.Errorf("%w: an opposed roll is finished against the opponent's successes (FinishOpposed)", ErrStage)
	}
	c.finish(at)
	return nil
}

// view is the View of the roll at.
func (c *Character) view(at *Attempt) View {
	return c.viewOf(&at.Test, at.Pool, at.MustPush, at.ActionPushed, at.Successes, at)
}

// viewOf is the View of test t (checked) with its pool counted and s
// successes rolled so far: at, the roll, or nil before it.
func (c *Character) viewOf(t *Test, pool Pool, must, pushed bool, s int, at *Attempt) View {
	v := View{Pool: pool.Dice, Required: t.Difficulty, Successes: s,
		Position: t.Position, Penalty: pool.Penalty, MustPush: must, Rules: c.rules}
	tr := c.pushTrack(c.naturalTrack(t))
	bar := c.testPushBar(t, pushed, tr)
	if at != nil {
		bar = c.pushBarOf(at, tr)
	}
	if tr >= 0 && bar == noBar {
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
