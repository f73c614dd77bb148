package markov

import (
	"context"
	"fmt"
)

// Answer reads play under the plan as an Answer, without the dense solve a
// Chain needs, so it serves a process of any size ExploreProcess admits.
// category maps each absorbing state to its outcome category,
// 0..categories-1. round reports whether a state begins a round: the
// rounds of an answer are the round-beginning states play passes through
// before it ends, however many steps a round takes (a roll, a choice, a
// reaction). A nil round counts every step as a round, as AnswerOf does.
//
// Play is followed round by round from the start: Rounds[t] is the
// probability that play ends after exactly t rounds, until less than
// RoundsTolerance is unended (Tail holds what is left); P and MeanRounds
// are summed along the way, so they lie within that tolerance of the
// exact values. A plan that has not ended play within 2^28 transitions
// read is refused with ErrTooLarge; a cancelled ctx stops it.
func (pl *Plan[S]) Answer(ctx context.Context, categories int, category func(S) int, round func(S) bool) (Answer, error) {
	if categories < 1 || category == nil {
		return Answer{}, fmt.Errorf("markov: answer needs at least one category and a category function")
	}
	w := planWalk[S]{pl: pl, category: category, round: round, a: Answer{P: make([]float64, categories)}}
	if pl.choice[0] < 0 {
		if err := w.end(pl.p.states[0], 1); err != nil {
			return Answer{}, err
		}
		w.a.Rounds = []float64{1}
		return w.a, nil
	}
	n := len(pl.p.states)
	w.here, w.next, w.begun = make([]float64, n), make([]float64, n), make([]float64, n)
	w.here[0] = 1
	w.a.Rounds, w.a.MeanRounds = []float64{0}, 1
	for left := 1.0; left > RoundsTolerance; {
		ended, err := w.toNextRounds(ctx)
		if err != nil {
			return Answer{}, err
		}
		w.a.Rounds = append(w.a.Rounds, ended)
		left = 0
		for i, m := range w.begun {
			left += m
			w.here[i] = m
		}
		w.a.MeanRounds += left
		clear(w.begun)
	}
	w.a.Tail = 1
	for _, q := range w.a.Rounds {
		w.a.Tail -= q
	}
	w.a.Tail = max(w.a.Tail, 0)
	return w.a, nil
}

// planWalk follows play under a plan. here holds the probability of being
// in each state now, within the current round; begun what has reached a
// state that begins the next round.
type planWalk[S comparable] struct {
	pl         *Plan[S]
	category   func(S) int
	round      func(S) bool
	a          Answer
	here, next []float64
	begun      []float64
	work       int
}

// toNextRounds plays one round: it moves play on from here (the states
// beginning this round) step by step until all of it has either ended
// (what ended is returned, and added to P) or reached a state that begins
// the next round (left in begun). Play still inside the round once less
// than a millionth of RoundsTolerance remains is left to the Tail.
func (w *planWalk[S]) toNextRounds(ctx context.Context) (ended float64, err error) {
	p := w.pl.p
	for first, left := true, 1.0; left > RoundsTolerance*1e-6; first = false {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		if w.work += p.transitions; w.work > maxVisitWork {
			return 0, fmt.Errorf("%w: play under the plan has not ended after %d transitions read", ErrTooLarge, w.work)
		}
		clear(w.next)
		left = 0
		for i, m := range w.here {
			if m == 0 {
				continue
			}
			s := p.states[i]
			if w.pl.choice[i] < 0 {
				if err := w.end(s, m); err != nil {
					return 0, err
				}
				ended += m
				continue
			}
			if !first && (w.round == nil || w.round(s)) {
				w.begun[i] += m
				continue
			}
			for _, e := range p.options[i][w.pl.choice[i]].out {
				w.next[e.to] += m * e.p
				left += m * e.p
			}
		}
		w.here, w.next = w.next, w.here
	}
	clear(w.here)
	return ended, nil
}

// end adds probability m of play ending in absorbing state s to its
// category.
func (w *planWalk[S]) end(s S, m float64) error {
	k := w.category(s)
	if k < 0 || k >= len(w.a.P) {
		return fmt.Errorf("markov: absorbing state %v maps to category %d; allowed 0..%d", s, k, len(w.a.P)-1)
	}
	w.a.P[k] += m
	return nil
}
