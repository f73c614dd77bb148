package actiontest

import (
	"fmt"

	"github.com/stakesrpg/stakes/dice"
)

// hitChance is the chance one die is a success.
func (rl *Rules) hitChance() float64 {
	return float64(rl.Sides-rl.SuccessFace+1) / float64(rl.Sides)
}

// binom returns Binomial(n, p) probabilities on 0..n.
func binom(n int, p float64) []float64 {
	out := make([]float64, n+1)
	out[0] = 1
	for i := 1; i <= n; i++ {
		// Multiply the previous row by (q + p x).
		for k := i; k >= 1; k-- {
			out[k] = out[k]*(1-p) + out[k-1]*p
		}
		out[0] *= 1 - p
	}
	return out
}

// SuccessDist returns the exact distribution of a test's final successes
// for a pool of n dice, where push(s) says whether a first roll of s
// successes is pushed (nil: never). A pushed roll keeps its s successes and
// re-rolls the n-s other dice with PushDice more, so its final count is s
// plus a Binomial(n-s+PushDice) count of new successes.
func (rl *Rules) SuccessDist(n int, push func(s int) bool) (dice.Dist, error) {
	if n < 0 || n+rl.PushDice > maxDice {
		return dice.Dist{}, fmt.Errorf("actiontest: pool %d, allowed 0..%d", n, maxDice-rl.PushDice)
	}
	p := rl.hitChance()
	first := binom(n, p)
	out := make([]float64, n+rl.PushDice+1)
	for s, ps := range first {
		if push == nil || !push(s) {
			out[s] += ps
			continue
		}
		for k, pk := range binom(n-s+rl.PushDice, p) {
			out[s+k] += ps * pk
		}
	}
	return trimDist(out), nil
}

func trimDist(p []float64) dice.Dist {
	hi := len(p)
	for hi > 1 && p[hi-1] == 0 {
		hi--
	}
	return dice.Dist{Min: 0, P: p[:hi]}
}

// Chances is the exact distribution of one test's result.
type Chances struct {
	// Pool is the dice rolled; Peril says the policy took the Risk Peril
	// deal.
	Pool  int
	Peril bool
	// Successes is the distribution of the final success count.
	Successes dice.Dist
	// Band[b] is P(band b); Kind[k] is P(outcome kind k); Succeeded is
	// P(the character gets what they were after).
	Band      [3]float64
	Kind      [numKinds]float64
	Succeeded float64
	// Pushed is P(the roll is pushed); Retry P(a Worse Position re-roll).
	Pushed float64
	Retry  float64
}

// Chances returns the exact odds of t for the character as it stands, when
// its choices are made by p. The state is not changed. An illegal
// choice by the policy on any possible roll is an error.
func (c *game) Chances(t Test, p Policy) (Chances, error) {
	sc := c.scratch()
	var ch Chances
	succ := make([]float64, maxDice+1)
	top := 0
	err := sc.outcomes(t, false, p, func(q float64, _ *State, a *Attempt) {
		ch.Pool, ch.Peril = a.Pool.Dice, a.Test.Peril
		succ[a.Successes] += q
		top = max(top, a.Successes)
		ch.Band[a.Band] += q
		ch.Kind[a.Outcome.Kind] += q
		if a.Outcome.Succeeded {
			ch.Succeeded += q
		}
		if a.Retry {
			ch.Retry += q
		}
		if a.Pushed {
			ch.Pushed += q
		}
	})
	if err != nil {
		return Chances{}, err
	}
	ch.Successes = dice.Dist{Min: 0, P: succ[:top+1]}
	return ch, nil
}

// outcomes plays one roll of t every possible way, through the steps'
// own checks and state changes: it takes the policy's peril choice,
// begins (or, for retry, re-rolls the finished roll's action), and for
// each first-roll success count asks the policy about a push and finishes
// (for a push, once for each re-roll success count), calling f with each
// branch's probability, the state it leaves and the finished attempt. The
// dice recorded are one roll of each count (successes first). c's state
// is used as scratch and left changed.
func (c *game) outcomes(t Test, retry bool, p Policy, f func(q float64, st *State, a *Attempt)) error {
	var (
		pushed bool
		s      subject
		err    error
	)
	if retry {
		if pushed, err = c.canRetry(&t); err == nil {
			s, err = c.subjectOf(t.Action)
		}
	} else {
		s, err = c.canBegin(&t)
	}
	if err != nil {
		return err
	}
	if t.PerilOffered && !t.Peril {
		var pool Pool
		must, err := c.count(&pool, &t, s, pushed)
		if err != nil {
			return err
		}
		c.viewOf(&c.State.v, &t, s, &pool, must, pushed, 0, nil)
		t.Peril = p.Peril(&c.State.v)
	}
	var pool Pool
	must, err := c.count(&pool, &t, s, pushed)
	if err != nil {
		return err
	}
	at := c.slot(&t)
	if !c.start(at, &t, s, &pool, must, pushed) {
		if err := c.finish(at, s); err != nil {
			return err
		}
		f(1, c.State, at)
		return nil
	}
	base := c.State.playClone()
	afterPush := c.State.playClone()
	hit := c.rules.hitChance()
	// An opposed roll's opponent rolls beside the character: every count
	// of the opponent's successes, with its chance.
	opp := []float64{1}
	if t.Opposed && t.Opponent > 0 {
		opp = binom(t.Opponent, hit)
	}
	for o, po := range opp {
		if po == 0 {
			continue
		}
		base.Attempt.Opponent = o
		if err := c.rolls(&t, base, afterPush, s, p, po, f); err != nil {
			return err
		}
	}
	return nil
}

// rolls plays the begun roll of test t (base, the state after its start)
// every way the character's dice can fall, the branches' chances
// scaled by q.
func (c *game) rolls(t *Test, base, afterPush *State, s subject, p Policy, q float64, f func(q float64, st *State, a *Attempt)) error {
	rl := c.rules
	hit := rl.hitChance()
	at := c.slot(t)
	n0 := at.Pool.Dice
	for first, ps := range binom(n0, hit) {
		ps *= q
		c.State.copyPlay(base)
		at.Dice, at.Successes = rl.faces(at.Dice[:0], n0, first), first
		c.viewOf(&c.State.v, &at.Test, s, &at.Pool, at.MustPush, at.ActionPushed, at.Successes, at)
		push, track := false, ""
		if c.State.v.PushTrack != "" {
			push, track = p.Push(&c.State.v)
		}
		if !push {
			if at.MustPush {
				return fmt.Errorf("policy %s after %d successes: %w", p.Name(), first, ErrMustPush)
			}
			if err := c.finish(at, s); err != nil {
				return err
			}
			f(ps, c.State, at)
			continue
		}
		ti, err := rl.TrackIndex(track)
		if err == nil {
			err = c.canPush(at, ti)
		}
		if err != nil {
			return fmt.Errorf("policy %s after %d successes: %w", p.Name(), first, err)
		}
		_, n := c.payPush(at, ti)
		afterPush.copyPlay(c.State)
		for k, pk := range binom(n, hit) {
			c.State.copyPlay(afterPush)
			at.Rerolled, at.Successes = rl.faces(at.Rerolled[:0], n, k), first+k
			if err := c.finish(at, s); err != nil {
				return err
			}
			f(ps*pk, c.State, at)
		}
	}
	return nil
}

// faces appends one roll of n dice with k successes to out: k success
// faces, then faces that fail.
func (rl *Rules) faces(out []int, n, k int) []int {
	for i := range n {
		f := 1
		if i < k {
			f = rl.SuccessFace
		}
		out = append(out, f)
	}
	return out
}

// scratch returns a copy of c with its own state and no sink.
func (c *game) scratch() *game {
	sc := &game{State: c.State.Clone(), table: c.table}
	sc.rules = &sc.State.Rules
	return sc
}

// OpposedOdds returns the exact chances that a pool of a dice rolls more
// successes than a pool of b (win), the same (tie: neither succeeds), or
// fewer (lose).
func (rl *Rules) OpposedOdds(a, b int) (win, tie, lose float64, err error) {
	if a < 0 || b < 0 || a > maxDice || b > maxDice {
		return 0, 0, 0, fmt.Errorf("actiontest: opposed pools %d and %d, allowed 0..%d", a, b, maxDice)
	}
	pa, pb := binom(a, rl.hitChance()), binom(b, rl.hitChance())
	for i, x := range pa {
		for j, y := range pb {
			switch {
			case i > j:
				win += x * y
			case i == j:
				tie += x * y
			default:
				lose += x * y
			}
		}
	}
	return win, tie, lose, nil
}

// Odds returns the exact odds of a test rolling pool dice at the given
// position and difficulty by an unharmed character whose choices are made
// by p (nil: Never): the position x outcome table for any pool.
func (rl *Rules) Odds(pool int, pos Position, difficulty int, p Policy) (Chances, error) {
	if err := rl.Validate(); err != nil {
		return Chances{}, err
	}
	if pool < max(rl.MinDice, 1) || pool > maxDice/4 {
		return Chances{}, fmt.Errorf("actiontest: pool %d, allowed %d..%d", pool, max(rl.MinDice, 1), maxDice/4)
	}
	if p == nil {
		p = Never{}
	}
	s, err := NewState(*rl, Sheet{})
	if err != nil {
		return Chances{}, err
	}
	return Engine{Policies: Table{Player: p}}.Chances(s, Test{Action: rl.Actions[0].Name, Position: pos, Difficulty: difficulty, Bonus: pool})
}

// OpposedOf returns the chances that a side whose final successes follow a
// beats, ties or loses to a side following b — for example the Successes of
// two Chances, so each side's push policy is taken into account.
func OpposedOf(a, b dice.Dist) (win, tie, lose float64) {
	win, lose = a.Greater(b), b.Greater(a)
	return win, max(1-win-lose, 0), lose
}
