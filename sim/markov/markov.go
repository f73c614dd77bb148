// Package markov solves absorbing Markov chains exactly: the probability of
// ending in each absorbing state, the expected number of steps, and the
// distribution of the number of steps.
//
// Rule packages use it for exact answers to multi-round mechanics (an edge
// interaction over edge counts and initiative, a contested action over
// stakes and whose turn). It imports no rule package and no batch runner, so
// any package can build its chain on it.
//
// A chain is described by a start state and a transition function over any
// comparable state type; Explore walks every state reachable from the start.
// States with no outgoing transitions are absorbing.
//
// A decision process (Process, built by ExploreProcess) is a chain in which
// some states offer choices, each leading on by its own transitions. Its
// Solve finds the play that makes a goal most (or least) likely: value
// iteration to within Accuracy, with a Plan giving the best choice and the
// value of every choice in every state, play under the plan read as an
// exact Answer (Plan.Answer, rounds counted however many steps a round
// takes; or the plan's Chain, for a small one), and the decisions that
// matter most. A process may be far larger than a chain (MaxProcessStates
// against MaxStates): it is solved by sweeps, never by a dense solve. Goal, Solved
// and Advice are what a mechanic's Solve reports to the CLI.
package markov

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"math"

	"gonum.org/v1/gonum/mat"
)

// Step is one outgoing transition: to state To with probability P.
type Step[S comparable] struct {
	To S
	P  float64
}

// MaxStates bounds the number of states Explore will visit; past it Explore
// fails rather than exhausting memory (the exact solve is dense).
const MaxStates = 5000

// MaxProcessStates bounds the states ExploreProcess will visit. A process
// is solved by sweeps over its transitions, never by a dense solve, so it
// may be far larger than a chain; MaxTransitions bounds it too.
const MaxProcessStates = 1 << 18

// Chain is an explored absorbing Markov chain over states of type S.
type Chain[S comparable] struct {
	graph[S]
	out [][]edge // out[i]: transitions of state i; empty = absorbing
}

type edge struct {
	to int
	p  float64
}

// graph numbers the states found so far, the start first.
type graph[S comparable] struct {
	states []S
	index  map[S]int
	limit  int // the most states it may number
}

func newGraph[S comparable](start S, limit int) graph[S] {
	return graph[S]{states: []S{start}, index: map[S]int{start: 0}, limit: limit}
}

// edges checks the transitions out of state from (probabilities >= 0,
// summing to 1 within 1e-9), numbers the states they reach for the first
// time, and returns them as edges, leaving out those of probability 0.
func (g *graph[S]) edges(from S, steps []Step[S]) ([]edge, error) {
	total := 0.0
	es := make([]edge, 0, len(steps))
	for _, st := range steps {
		if st.P < 0 || math.IsNaN(st.P) {
			return nil, fmt.Errorf("markov: transition %v -> %v has probability %v", from, st.To, st.P)
		}
		total += st.P
		if st.P == 0 {
			continue
		}
		j, ok := g.index[st.To]
		if !ok {
			if len(g.states) >= g.limit {
				return nil, fmt.Errorf("%w: more than %d states reachable; narrow the chain", ErrTooLarge, g.limit)
			}
			j = len(g.states)
			g.index[st.To] = j
			g.states = append(g.states, st.To)
		}
		es = append(es, edge{j, st.P})
	}
	if math.Abs(total-1) > 1e-9 {
		return nil, fmt.Errorf("markov: transitions from %v sum to %v, not 1", from, total)
	}
	return es, nil
}

// Explore builds the chain reachable from start. next appends the outgoing
// transitions of s to buf and returns it; returning none marks s absorbing.
// Transitions to the same state may repeat (they add); probabilities must be
// >= 0 and sum to 1 within 1e-9 for every non-absorbing state. More than
// MaxStates reachable states is an error wrapping ErrTooLarge; a cancelled
// ctx stops the walk with ctx's error.
func Explore[S comparable](ctx context.Context, start S, next func(s S, buf []Step[S]) []Step[S]) (*Chain[S], error) {
	if next == nil {
		return nil, errors.New("markov: nil transition function")
	}
	c := &Chain[S]{graph: newGraph(start, MaxStates)}
	var buf []Step[S]
	for i := 0; i < len(c.states); i++ {
		if i%64 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		buf = next(c.states[i], buf[:0])
		if len(buf) == 0 {
			c.out = append(c.out, nil)
			continue
		}
		es, err := c.edges(c.states[i], buf)
		if err != nil {
			return nil, err
		}
		c.out = append(c.out, es)
	}
	return c, nil
}

// Len returns the number of states explored.
func (g *graph[S]) Len() int { return len(g.states) }

// States returns the explored states in discovery order (the start first).
func (g *graph[S]) States() []S { return append([]S(nil), g.states...) }

// Absorbing reports whether s is an explored absorbing state.
func (c *Chain[S]) Absorbing(s S) bool {
	i, ok := c.index[s]
	return ok && len(c.out[i]) == 0
}

// Solution is the exact behaviour of a chain from its start state.
type Solution[S comparable] struct {
	// Absorb gives the probability of ending in each absorbing state. A
	// map's order changes from one range to the next, and a sum of floats
	// depends on its order: to add up its probabilities (by outcome, say),
	// range over All, which gives the same bits on every call.
	Absorb map[S]float64
	// ExpectedSteps is the mean number of transitions before absorption.
	ExpectedSteps float64
	// VarianceSteps is the variance of that number.
	VarianceSteps float64
	// order holds the keys of Absorb in the chain's state order.
	order []S
}

// All yields each absorbing state the chain may end in with its
// probability, as Absorb holds them, in the chain's state order (the
// order Explore found them in), the same on every call.
func (sol Solution[S]) All() iter.Seq2[S, float64] {
	return func(yield func(S, float64) bool) {
		for _, s := range sol.order {
			if !yield(s, sol.Absorb[s]) {
				return
			}
		}
	}
}

// Solve returns the absorption probabilities and the mean and variance of
// the number of steps from the start state, by the fundamental matrix
// N = (I - Q)^-1 of the transient part: B = N R, t = N 1, and
// Var = (2N - I) t - t*t. It fails if some reachable state can never be
// absorbed.
func (c *Chain[S]) Solve() (Solution[S], error) {
	sol := Solution[S]{Absorb: map[S]float64{}}
	if len(c.out[0]) == 0 {
		sol.Absorb[c.states[0]] = 1
		sol.order = []S{c.states[0]}
		return sol, nil
	}
	f, trans, err := c.factor()
	if err != nil {
		return sol, err
	}
	// R: one-step probabilities from each transient state into each
	// absorbing one.
	absIdx := make([]int, len(c.states))
	var abs []int
	for i := range c.states {
		if len(c.out[i]) == 0 {
			absIdx[i] = len(abs)
			abs = append(abs, i)
		}
	}
	nt, na := len(trans), len(abs)
	r := mat.NewDense(nt, na, nil)
	for a, i := range trans {
		for _, e := range c.out[i] {
			if len(c.out[e.to]) == 0 {
				j := absIdx[e.to]
				r.Set(a, j, r.At(a, j)+e.p)
			}
		}
	}
	var b mat.Dense
	if err := f.lu.SolveTo(&b, false, r); err != nil {
		return sol, fmt.Errorf("markov: solving for absorption: %w", err)
	}
	ones := make([]float64, nt)
	for i := range ones {
		ones[i] = 1
	}
	t, err := f.solveVec(ones)
	if err != nil {
		return sol, fmt.Errorf("markov: solving for expected steps: %w", err)
	}
	// Var = (2N - I) t - t^2 = 2 N t - t - t^2.
	nt2, err := f.solveVec(t)
	if err != nil {
		return sol, fmt.Errorf("markov: solving for variance: %w", err)
	}
	for j, i := range abs {
		if p := b.At(0, j); p != 0 {
			sol.Absorb[c.states[i]] = p
			sol.order = append(sol.order, c.states[i])
		}
	}
	sol.ExpectedSteps = t[0]
	sol.VarianceSteps = 2*nt2[0] - t[0] - t[0]*t[0]
	return sol, nil
}

// factored is the LU factorisation of I - Q, the transient part of a chain.
// The start state, when transient, is row 0.
type factored struct {
	lu mat.LU
	n  int
}

// factor numbers the transient states (the start first) and factorises
// I - Q over them. It fails if some reachable state can never be absorbed.
func (c *Chain[S]) factor() (*factored, []int, error) {
	tIdx := make([]int, len(c.states))
	var trans []int
	absorbing := 0
	for i := range c.states {
		if len(c.out[i]) == 0 {
			absorbing++
			continue
		}
		tIdx[i] = len(trans)
		trans = append(trans, i)
	}
	if absorbing == 0 {
		return nil, nil, errors.New("markov: the chain has no absorbing state")
	}
	nt := len(trans)
	iq := mat.NewDense(nt, nt, nil)
	for a, i := range trans {
		iq.Set(a, a, 1)
		for _, e := range c.out[i] {
			if len(c.out[e.to]) != 0 {
				b := tIdx[e.to]
				iq.Set(a, b, iq.At(a, b)-e.p)
			}
		}
	}
	f := &factored{n: nt}
	f.lu.Factorize(iq)
	if cond := f.lu.Cond(); math.IsInf(cond, 1) || cond > 1e14 {
		return nil, nil, errors.New("markov: some states can never be absorbed (I - Q is singular)")
	}
	return f, trans, nil
}

// solveVec returns N v, that is the x with (I - Q) x = v.
func (f *factored) solveVec(v []float64) ([]float64, error) {
	var x mat.VecDense
	if err := f.lu.SolveVecTo(&x, false, mat.NewVecDense(f.n, v)); err != nil {
		return nil, err
	}
	return x.RawVector().Data, nil
}

// StepDist returns P(absorbed at step t) for t = 0..len-1 by iterating the
// chain from its start, stopping when the unabsorbed mass falls below tol or
// after maxSteps steps; rest is the mass still unabsorbed at the end. The
// entries plus rest sum to 1.
func (c *Chain[S]) StepDist(maxSteps int, tol float64) (dist []float64, rest float64, err error) {
	if maxSteps < 1 {
		return nil, 0, fmt.Errorf("markov: maxSteps %d must be >= 1", maxSteps)
	}
	if tol <= 0 {
		return nil, 0, fmt.Errorf("markov: tolerance %v must be > 0", tol)
	}
	n := len(c.states)
	cur := make([]float64, n)
	nxt := make([]float64, n)
	cur[0] = 1
	if len(c.out[0]) == 0 {
		return []float64{1}, 0, nil
	}
	dist = []float64{0}
	left := 1.0
	for t := 1; t <= maxSteps && left > tol; t++ {
		clear(nxt)
		absorbed := 0.0
		for i, p := range cur {
			if p == 0 {
				continue
			}
			for _, e := range c.out[i] {
				q := p * e.p
				if len(c.out[e.to]) == 0 {
					absorbed += q
				} else {
					nxt[e.to] += q
				}
			}
		}
		dist = append(dist, absorbed)
		left -= absorbed
		cur, nxt = nxt, cur
	}
	rest = 0
	for _, p := range cur {
		rest += p
	}
	return dist, rest, nil
}

// AbsorbAt returns, for each absorbing state, P(absorbed there by step t)
// for t = 0..steps: the finishing-time curve of each outcome.
func (c *Chain[S]) AbsorbAt(steps int) (map[S][]float64, error) {
	if steps < 0 {
		return nil, fmt.Errorf("markov: steps %d must be >= 0", steps)
	}
	n := len(c.states)
	cur := make([]float64, n)
	nxt := make([]float64, n)
	cur[0] = 1
	res := map[S][]float64{}
	for i := range c.states {
		if len(c.out[i]) == 0 {
			res[c.states[i]] = make([]float64, steps+1)
		}
	}
	for t := 0; t <= steps; t++ {
		for i, p := range cur {
			if len(c.out[i]) == 0 {
				res[c.states[i]][t] = p
			}
		}
		if t == steps {
			break
		}
		clear(nxt)
		for i, p := range cur {
			if p == 0 {
				continue
			}
			if len(c.out[i]) == 0 {
				nxt[i] += p
				continue
			}
			for _, e := range c.out[i] {
				nxt[e.to] += p * e.p
			}
		}
		cur, nxt = nxt, cur
	}
	return res, nil
}
