package markov

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
)

// A decision process is a chain in which some states offer a choice: each
// choice leads on by its own transitions. Solving one finds, in every
// state, the choice that makes a goal most (or least) likely; the mechanics
// use it to ask how much playing well matters.

// Choice is one option open in a state of a decision process. Name is how a
// person reads it ("push", "wager 2 with Athletics"); Steps are where it
// leads, with probabilities summing to 1. Cost is what taking it spends
// that the goal does not count (harm taken, Trauma risked, points or dice
// spent), in the mechanic's own units, 0 for nothing: among equally good
// choices the plan takes the cheapest (see Ties).
type Choice[S comparable] struct {
	Name  string
	Steps []Step[S]
	Cost  float64
}

// Ties says which of a state's equally good choices a plan takes.
type Ties int

const (
	// Cheapest takes the equally good choice of least Cost, and of those
	// the first listed: a player who gains nothing by spending does not
	// spend. It is the default.
	Cheapest Ties = iota
	// FirstListed takes the first equally good choice in the order the
	// mechanic lists them, whatever it costs.
	FirstListed
)

// TiesNames are the names of the tie-breaks, in the order of their values:
// what Goal.Ties takes.
var TiesNames = []string{"cheapest", "first"}

func (t Ties) String() string {
	if t >= 0 && int(t) < len(TiesNames) {
		return TiesNames[t]
	}
	return fmt.Sprintf("Ties(%d)", int(t))
}

// MaxChoices bounds the choices one state may offer.
const MaxChoices = 256

// MaxTransitions bounds the transitions a Process holds, summed over every
// state and choice (transitions of one choice to the same state count once).
const MaxTransitions = 1 << 22

// MaxSolveWork bounds the work of one Solve: transitions read, summed over
// the sweeps of value iteration. A process that has not settled by then is
// refused with ErrTooLarge rather than left running.
const MaxSolveWork = 1 << 32

// Process is an explored finite Markov decision process over states of type
// S: the states reachable from a start under any choices, each with its
// options. A state with no options is absorbing.
type Process[S comparable] struct {
	graph[S]
	options     [][]option
	transitions int
	// Ties is how Solve breaks ties between equally good choices; the zero
	// value is Cheapest.
	Ties Ties
}

type option struct {
	name string
	out  []edge
	cost float64
}

// ExploreProcess builds the process reachable from start. choices returns
// the options of s: none makes s absorbing, one is a plain chance step.
// Each option's Steps are copied before choices is called again, so it may
// reuse one buffer for every state. A
// choice's transitions to the same state add. Probabilities must be >= 0
// and sum to 1 within 1e-9. More than MaxProcessStates states, MaxChoices choices
// in a state or MaxTransitions transitions is an error wrapping
// ErrTooLarge; a cancelled ctx stops the walk with ctx's error.
func ExploreProcess[S comparable](ctx context.Context, start S, choices func(s S) []Choice[S]) (*Process[S], error) {
	if choices == nil {
		return nil, errors.New("markov: nil choice function")
	}
	p := &Process[S]{graph: newGraph(start, MaxProcessStates)}
	for i := 0; i < len(p.states); i++ {
		if i%64 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		s := p.states[i]
		cs := choices(s)
		if len(cs) > MaxChoices {
			return nil, fmt.Errorf("%w: state %v offers %d choices; at most %d", ErrTooLarge, s, len(cs), MaxChoices)
		}
		opts := make([]option, 0, len(cs))
		for _, c := range cs {
			if len(c.Steps) == 0 {
				return nil, fmt.Errorf("markov: choice %q of state %v leads nowhere", c.Name, s)
			}
			if !(c.Cost >= 0) || math.IsInf(c.Cost, 1) {
				return nil, fmt.Errorf("markov: choice %q of state %v costs %v; want a finite number >= 0", c.Name, s, c.Cost)
			}
			out, err := p.edges(s, c.Steps)
			if err != nil {
				return nil, err
			}
			out = merged(out)
			p.transitions += len(out)
			if p.transitions > MaxTransitions {
				return nil, fmt.Errorf("%w: more than %d transitions; narrow the process", ErrTooLarge, MaxTransitions)
			}
			opts = append(opts, option{c.Name, out, c.Cost})
		}
		p.options = append(p.options, opts)
	}
	return p, nil
}

// merged adds up the transitions of one choice that lead to the same state.
func merged(out []edge) []edge {
	slices.SortFunc(out, func(a, b edge) int { return cmp.Compare(a.to, b.to) })
	n := 0
	for _, e := range out {
		if n > 0 && out[n-1].to == e.to {
			out[n-1].p += e.p
			continue
		}
		out[n] = e
		n++
	}
	return out[:n]
}

// Choices returns the number of choices summed over the states.
func (p *Process[S]) Choices() int {
	n := 0
	for _, o := range p.options {
		n += len(o)
	}
	return n
}

// Aim says whether Solve looks for the best play or the worst.
type Aim int

const (
	// Maximize finds the play that makes the reward largest.
	Maximize Aim = iota
	// Minimize finds the play that makes it smallest.
	Minimize
)

func (a Aim) String() string {
	if a == Minimize {
		return "minimize"
	}
	return "maximize"
}

// Prefers reports whether value x is better than y for the aim.
func (a Aim) Prefers(x, y float64) bool {
	if a == Minimize {
		return x < y
	}
	return x > y
}

// Accuracy is how close to the exact values Solve's value iteration
// settles, times the largest reward.
const Accuracy = 1e-13

// Tolerance is the least move value iteration can see (two units in the
// last place, times the largest reward): values are then as exact as
// rounding allows. Two choices whose values lie within a few of it are a
// tie, settled for the lower-numbered one.
const Tolerance = 0x1p-51

// settling is how small the moves of value iteration must be before their
// ratio from sweep to sweep is trusted to tell how far the values still go.
const settling = 1e-9

// Plan is a solved process: the best (or worst) value of every state and a
// choice in each that attains it.
type Plan[S comparable] struct {
	p      *Process[S]
	aim    Aim
	value  []float64
	choice []int   // -1 in an absorbing state
	scale  float64 // the largest reward, at least 1
	tie    float64
}

// Solve finds, for every state, the largest (Maximize) or smallest
// (Minimize) expected reward collected when play ends, where ending in
// absorbing state s pays reward(s) >= 0 and play that never ends pays
// nothing; and a choice in each state that attains it. With a reward of 1
// for the goal's outcomes and 0 otherwise the value is the goal's
// probability.
//
// It runs value iteration from zero (Gauss-Seidel sweeps) until the values
// lie within Accuracy of where they settle; ties between equally good
// choices are broken as p.Ties says (the cheapest, then the first listed,
// by default). The plan is then repaired so that, where some equally good choice ends play,
// the plan does not circle forever. A process that does not settle within
// MaxSolveWork is refused with ErrTooLarge; ctx is checked every sweep.
func (p *Process[S]) Solve(ctx context.Context, reward func(S) float64, aim Aim) (*Plan[S], error) {
	if reward == nil {
		return nil, errors.New("markov: nil reward function")
	}
	if aim != Maximize && aim != Minimize {
		return nil, fmt.Errorf("markov: aim %d; allowed Maximize (0) or Minimize (1)", int(aim))
	}
	pl := &Plan[S]{p: p, aim: aim, value: make([]float64, len(p.states)), choice: make([]int, len(p.states))}
	top := 0.0
	for i, s := range p.states {
		pl.choice[i] = -1
		if len(p.options[i]) > 0 {
			continue
		}
		r := reward(s)
		if !(r >= 0) || math.IsInf(r, 1) {
			return nil, fmt.Errorf("markov: reward of %v is %v; want a finite number >= 0", s, r)
		}
		pl.value[i] = r
		top = max(top, r)
	}
	pl.scale = max(top, 1)
	pl.tie = Tolerance * pl.scale
	if err := pl.iterate(ctx); err != nil {
		return nil, err
	}
	for i := range p.states {
		if len(p.options[i]) > 0 {
			pl.choice[i] = pl.firstBest(i)
		}
	}
	pl.repair()
	return pl, nil
}

// iterate sweeps the states, last discovered first (play mostly moves on to
// states discovered later), setting each to its best choice's value. The
// largest move of a sweep shrinks by a ratio r a sweep, and the values
// still lie up to move*r/(1-r) from where they settle; r is measured over
// the last 16 sweeps, since single moves near rounding are coarse. iterate
// stops once that distance is within Accuracy, once the moves are down to
// rounding (Tolerance), or once they have not shrunk in 1024 sweeps while
// within Accuracy (rounding going round in circles).
func (pl *Plan[S]) iterate(ctx context.Context) error {
	const short, long = 16, 1024
	var moves [long]float64
	for sweep, work := 0, 0; ; sweep++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		moved := pl.sweep()
		if moved <= pl.tie {
			return nil
		}
		if sweep >= short {
			r := math.Pow(moved/moves[(sweep-short)%long], 1.0/short)
			if moved <= settling*pl.scale && r < 1 && moved*r/(1-r) <= Accuracy*pl.scale {
				return nil
			}
		}
		if sweep >= long && moved >= moves[sweep%long] && moved <= Accuracy*pl.scale {
			return nil
		}
		moves[sweep%long] = moved
		if work += pl.p.transitions; work > MaxSolveWork {
			return fmt.Errorf("%w: values still moving by %.3g after %d transitions read", ErrTooLarge, moved, work)
		}
	}
}

// sweep sets every state to its best choice's value once, and returns the
// largest move.
func (pl *Plan[S]) sweep() float64 {
	p := pl.p
	moved := 0.0
	for i := len(p.states) - 1; i >= 0; i-- {
		if len(p.options[i]) == 0 {
			continue
		}
		best := pl.worth(p.options[i][0])
		for _, o := range p.options[i][1:] {
			if q := pl.worth(o); pl.aim.Prefers(q, best) {
				best = q
			}
		}
		moved = max(moved, math.Abs(best-pl.value[i]))
		pl.value[i] = best
	}
	return moved
}

// worth is the expected value of taking option o, at the current values.
func (pl *Plan[S]) worth(o option) float64 {
	q := 0.0
	for _, e := range o.out {
		q += e.p * pl.value[e.to]
	}
	return q
}

// best is the worth of state i's best option. Value iteration leaves the
// state's value up to Accuracy short of where it settles, so choices are
// weighed against the best option's worth, not against the value.
func (pl *Plan[S]) best(i int) float64 {
	opts := pl.p.options[i]
	best := pl.worth(opts[0])
	for _, o := range opts[1:] {
		if q := pl.worth(o); pl.aim.Prefers(q, best) {
			best = q
		}
	}
	return best
}

// good reports whether option o is as good as the best option of its
// state, whose worth is best, within the tie tolerance.
func (pl *Plan[S]) good(o option, best float64) bool {
	return math.Abs(pl.worth(o)-best) <= 8*pl.tie
}

// firstBest is the option of state i the plan takes among those as good as
// its best: the lowest-numbered, or under Cheapest the lowest-numbered of
// least cost.
func (pl *Plan[S]) firstBest(i int) int {
	best := pl.best(i)
	pick := -1
	for k, o := range pl.p.options[i] {
		if !pl.good(o, best) {
			continue
		}
		if pick < 0 || pl.p.Ties == Cheapest && o.cost < pl.p.options[i][pick].cost {
			pick = k
		}
	}
	return max(pick, 0)
}

// repair changes the plan's choice in states from which it would never end
// play (a choice looping back as good as any other, say) to an equally good
// choice that leads to a state from which play ends (the cheapest such,
// under Cheapest), until none is left.
func (pl *Plan[S]) repair() {
	p := pl.p
	ends := make([]bool, len(p.states))
	for {
		pl.markEnding(ends)
		changed := false
		for i, opts := range p.options {
			if ends[i] || len(opts) < 2 {
				continue
			}
			best, pick := pl.best(i), -1
			for k, o := range opts {
				if k == pl.choice[i] || !pl.good(o, best) || !slices.ContainsFunc(o.out, func(e edge) bool { return ends[e.to] }) {
					continue
				}
				if pick < 0 || p.Ties == Cheapest && o.cost < opts[pick].cost {
					pick = k
				}
			}
			if pick >= 0 {
				pl.choice[i], changed = pick, true
			}
		}
		if !changed {
			return
		}
	}
}

// markEnding sets ends[i] for every state from which the plan can reach an
// absorbing state (so, the process being finite, reaches one with
// probability 1).
func (pl *Plan[S]) markEnding(ends []bool) {
	p := pl.p
	clear(ends)
	for i := range p.states {
		ends[i] = len(p.options[i]) == 0
	}
	for grew := true; grew; {
		grew = false
		for i := range p.states {
			if ends[i] {
				continue
			}
			if slices.ContainsFunc(p.options[i][pl.choice[i]].out, func(e edge) bool { return ends[e.to] }) {
				ends[i], grew = true, true
			}
		}
	}
}

// Start returns the solved value of the start state.
func (pl *Plan[S]) Start() float64 { return pl.value[0] }

// Aim returns what the plan was solved for.
func (pl *Plan[S]) Aim() Aim { return pl.aim }

// Value returns the solved value of state s; ok is false for a state the
// process never reaches.
func (pl *Plan[S]) Value(s S) (v float64, ok bool) {
	i, ok := pl.p.index[s]
	if !ok {
		return 0, false
	}
	return pl.value[i], true
}

// Choice returns the plan's choice in state s, by number and name; ok is
// false for an absorbing state or one the process never reaches.
func (pl *Plan[S]) Choice(s S) (k int, name string, ok bool) {
	i, found := pl.p.index[s]
	if !found || pl.choice[i] < 0 {
		return 0, "", false
	}
	k = pl.choice[i]
	return k, pl.p.options[i][k].name, true
}

// Option is one choice of a state with the value of taking it and then
// following the plan.
type Option struct {
	Name  string  `json:"name"`
	Value float64 `json:"value"`
}

// Options returns every choice of state s with its value, in the order the
// process offered them; nil for an absorbing or unknown state.
func (pl *Plan[S]) Options(s S) []Option {
	i, ok := pl.p.index[s]
	if !ok {
		return nil
	}
	var out []Option
	for _, o := range pl.p.options[i] {
		out = append(out, Option{o.name, pl.worth(o)})
	}
	return out
}

// Chain returns the chain of play under the plan: the states reachable from
// the start when every state takes the plan's choice. AnswerOf reads it as
// an Answer.
func (pl *Plan[S]) Chain(ctx context.Context) (*Chain[S], error) {
	p := pl.p
	return Explore(ctx, p.states[0], func(s S, buf []Step[S]) []Step[S] {
		i := p.index[s]
		if pl.choice[i] < 0 {
			return buf
		}
		for _, e := range p.options[i][pl.choice[i]].out {
			buf = append(buf, Step[S]{p.states[e.to], e.p})
		}
		return buf
	})
}

// Decision is a state in which the plan chooses among two or more options.
type Decision[S comparable] struct {
	State S
	// Choice is the plan's option; Options every option with its value.
	Choice  string
	Options []Option
	// Visits is the expected number of times play under the plan comes
	// to this state (+Inf where the plan never ends play).
	Visits float64
	// Stake is Visits times the spread between the best and the worst
	// option: how much the whole game's value rides on this decision.
	Stake float64
}

// Rank returns, for aim, the index of d's chosen option, of the best
// option besides it (-1 when there is none), and the worst option's
// value: what a line of advice sets beside the choice.
func (d Decision[S]) Rank(aim Aim) (chosen, next int, worst float64) {
	chosen = slices.IndexFunc(d.Options, func(x Option) bool { return x.Name == d.Choice })
	next, worst = -1, d.Options[chosen].Value
	for k, x := range d.Options {
		if aim.Prefers(worst, x.Value) {
			worst = x.Value
		}
		if k != chosen && (next < 0 || aim.Prefers(x.Value, d.Options[next].Value)) {
			next = k
		}
	}
	return chosen, next, worst
}

// VisitTolerance is where Decisions stops following play: less than this
// much probability is still unended.
const VisitTolerance = 1e-12

// Decisions returns the states with two or more options that play under the
// plan reaches, the most consequential (largest Stake) first. Visits are
// summed round by round until less than VisitTolerance of play is unended
// or 2^28 transitions have been read.
func (pl *Plan[S]) Decisions(ctx context.Context) ([]Decision[S], error) {
	visits, err := pl.visits(ctx)
	if err != nil {
		return nil, err
	}
	var out []Decision[S]
	for i, s := range pl.p.states {
		if visits[i] == 0 || len(pl.p.options[i]) < 2 {
			continue
		}
		opts := pl.Options(s)
		lo, hi := opts[0].Value, opts[0].Value
		for _, o := range opts[1:] {
			lo, hi = min(lo, o.Value), max(hi, o.Value)
		}
		stake := 0.0
		if hi > lo {
			stake = visits[i] * (hi - lo)
		}
		out = append(out, Decision[S]{State: s, Choice: opts[pl.choice[i]].Name, Options: opts,
			Visits: visits[i], Stake: stake})
	}
	slices.SortStableFunc(out, func(a, b Decision[S]) int { return cmp.Compare(b.Stake, a.Stake) })
	return out, nil
}

// visits follows play under the plan from the start, adding up how often
// each state is reached. A state from which the plan never ends play is
// visited without end: its count is +Inf and play is not followed further.
func (pl *Plan[S]) visits(ctx context.Context) ([]float64, error) {
	p := pl.p
	n := len(p.states)
	ends := make([]bool, n)
	pl.markEnding(ends)
	total := make([]float64, n)
	cur, next := make([]float64, n), make([]float64, n)
	cur[0] = 1
	for work, left := 0, 1.0; left > VisitTolerance && work <= maxVisitWork; work += p.transitions {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		clear(next)
		left = 0
		for i, m := range cur {
			switch {
			case m == 0:
				continue
			case !ends[i]:
				total[i] = math.Inf(1)
				continue
			}
			total[i] += m
			if pl.choice[i] < 0 {
				continue
			}
			for _, e := range p.options[i][pl.choice[i]].out {
				next[e.to] += m * e.p
				left += m * e.p
			}
		}
		cur, next = next, cur
	}
	return total, nil
}

// maxVisitWork bounds the transitions Decisions reads while following play
// (a plan that circles forever without ending would otherwise never stop).
const maxVisitWork = 1 << 28
