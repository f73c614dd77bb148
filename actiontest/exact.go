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
// its choices are made by p. The character is not changed. An illegal
// choice by the policy on any possible roll is an error.
func (c *Character) Chances(t Test, p Policy) (Chances, error) {
	sc := c.scratch()
	var at Attempt
	if t.PerilOffered && !t.Peril {
		if err := sc.plan(&t, &at); err != nil {
			return Chances{}, err
		}
		t.Peril = p.Peril(sc.view(&at))
	}
	if err := sc.plan(&t, &at); err != nil {
		return Chances{}, err
	}
	sc.start(&at)
	ch := Chances{Pool: at.Pool.Dice, Peril: t.Peril}
	rl := sc.rules
	var dist dice.Dist
	if t.Flashback && t.Difficulty == 0 {
		dist = dice.Point(0)
	} else {
		canPush := !t.Peril
		var perr error
		decide := func(s int) bool {
			if !canPush {
				return false
			}
			at.Successes = s
			push, track := p.Push(sc.view(&at))
			switch {
			case push:
				if err := sc.CanPush(&at, track); err != nil && perr == nil {
					perr = fmt.Errorf("policy %s after %d successes: %w", p.Name(), s, err)
				}
			case at.MustPush && perr == nil:
				perr = fmt.Errorf("policy %s after %d successes: %w", p.Name(), s, ErrMustPush)
			}
			if push {
				ch.Pushed += rl.binomAt(at.Pool.Dice, s)
			}
			return push
		}
		var err error
		if dist, err = rl.SuccessDist(at.Pool.Dice, decide); err != nil {
			return Chances{}, err
		}
		if perr != nil {
			return Chances{}, perr
		}
	}
	ch.Successes = dist
	last := len(rl.Positions) - 1
	for i, q := range dist.P {
		b := BandOf(dist.Min+i, t.Difficulty)
		o := rl.Table[t.Position][b]
		ch.Band[b] += q
		ch.Kind[o.Kind] += q
		switch {
		case o.Succeeded:
			ch.Succeeded += q
		case t.Escalate && int(t.Position) < last:
			ch.Retry += q
		}
	}
	return ch, nil
}

// binomAt is P(Binomial(n) = s) for the rules' dice.
func (rl *Rules) binomAt(n, s int) float64 { return binom(n, rl.hitChance())[s] }

// scratch returns a copy of c with its own state and no sink.
func (c *Character) scratch() *Character {
	sc := *c
	sc.Sink = nil
	sc.State = c.State.Clone()
	return &sc
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
