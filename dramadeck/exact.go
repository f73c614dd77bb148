package dramadeck

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"math"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim/markov"
)

// Hypergeometric returns the distribution of how many of marked special
// cards turn up in draws cards taken without replacement from total.
func Hypergeometric(total, marked, draws int) (dice.Dist, error) {
	if total < 1 || marked < 0 || marked > total || draws < 0 || draws > total {
		return dice.Dist{}, fmt.Errorf("hypergeometric: need 0 <= marked (%d) <= total (%d) and 0 <= draws (%d) <= total", marked, total, draws)
	}
	lo, hi := max(0, draws-(total-marked)), min(draws, marked)
	p := make([]float64, hi-lo+1)
	for k := lo; k <= hi; k++ {
		p[k-lo] = math.Exp(lchoose(marked, k) + lchoose(total-marked, draws-k) - lchoose(total, draws))
	}
	return dice.Dist{Min: lo, P: p}, nil
}

func lchoose(n, k int) float64 {
	a, _ := math.Lgamma(float64(n + 1))
	b, _ := math.Lgamma(float64(k + 1))
	c, _ := math.Lgamma(float64(n - k + 1))
	return a - b - c
}

// DrawOdds returns the exact distribution of how many cards matching pred
// appear in draws cards from a full shuffled deck (for draws = 1, the
// single-draw odds are P(1)).
func DrawOdds(d *Deck, pred func(*Card) bool, draws int) (dice.Dist, error) {
	if d == nil || pred == nil {
		return dice.Dist{}, errors.New("DrawOdds needs a deck and a predicate")
	}
	k := 0
	for i := range d.Cards {
		if pred(&d.Cards[i]) {
			k++
		}
	}
	return Hypergeometric(len(d.Cards), k, draws)
}

// BarOdds returns the chance that one flip shows each skill bar entry.
func (d *Deck) BarOdds() []float64 {
	p := make([]float64, numBars)
	for _, c := range d.Cards {
		p[c.Bar] += 1 / float64(len(d.Cards))
	}
	return p
}

// TaskExact is the exact behaviour of a Dramatic Skill Resolution.
type TaskExact struct {
	P         float64   // chance to complete, last-ditch effort included
	ByRound   []float64 // ByRound[t]: completed on round t by steps (t = 1..Rounds)
	LastDitch float64   // chance to complete by the last-ditch effort
}

// Within returns the chance of completing by steps within n rounds.
func (e TaskExact) Within(n int) float64 {
	s := 0.0
	for t := 1; t <= n && t < len(e.ByRound); t++ {
		s += e.ByRound[t]
	}
	return s
}

type taskNode struct {
	done, worse, round int
	using              int  // the skill worked with (TaskState.Using)
	end                int8 // 0 transient, 1 finished, 2 failed
	ditch              bool
}

// TaskChance solves a Dramatic Skill Resolution exactly by an absorbing
// Markov chain over (steps done, Complication penalty, rounds used, skill
// in use), for a hero with no bonus cards and no Possibilities, when each
// round's skill bar is drawn independently with the probabilities bars
// (Deck.BarOdds; a real deck draws without replacement, which this treats
// as a reshuffle each round). pol makes the task decisions.
func TaskChance(rules Rules, t Task, bars []float64, pol Policy) (TaskExact, error) {
	if err := rules.Validate(); err != nil {
		return TaskExact{}, err
	}
	if err := t.Check(); err != nil {
		return TaskExact{}, err
	}
	if t.Rounds > 20 {
		return TaskExact{}, fmt.Errorf("%w: task.rounds %d, the exact chain handles up to 20", markov.ErrNoExact, t.Rounds)
	}
	if len(bars) != int(numBars) || pol == nil {
		return TaskExact{}, fmt.Errorf("TaskChance needs %d bar probabilities and a policy", numBars)
	}
	c := &taskChain{rules: rules, t: t, bars: bars, pol: pol}
	ch, err := markov.Explore(context.Background(), taskNode{}, c.next)
	if c.bad != nil {
		return TaskExact{}, c.bad
	}
	if err != nil {
		return TaskExact{}, err
	}
	sol, err := ch.Solve()
	if err != nil {
		return TaskExact{}, err
	}
	return taskAnswer(t, sol.All()), nil
}

// taskChain is the chain TaskChance explores: a round turns a bar (with
// its probability in bars) and plays it as TaskStep would, under rules,
// for task t, with pol's decisions.
type taskChain struct {
	rules Rules
	t     Task
	bars  []float64
	pol   Policy
	bad   error // pol's first illegal answer
}

// next appends the rounds that may follow node s, bar by bar.
func (c *taskChain) next(s taskNode, buf []markov.Step[taskNode]) []markov.Step[taskNode] {
	if s.end != 0 {
		return buf
	}
	ts := TaskState{Task: c.t, Done: s.done, Worse: s.worse, Round: s.round, Using: s.using}
	for b, pb := range c.bars {
		if pb == 0 {
			continue
		}
		bar := Bar(b)
		avail := StepAvail(bar, s.done, c.rules.TaskSteps)
		v := ts.view(&c.rules, avail)
		switch {
		case avail > 0:
			k := c.pol.Steps(&v)
			if k < 1 || k > avail {
				c.bad = fmt.Errorf("policy %s: %d steps at once, allowed 1..%d", c.pol.Name(), k, avail)
				return buf[:0]
			}
			buf = c.attempt(s, &v, k, pb, buf)
		case bar.Special():
			buf = c.special(s, &v, bar, pb, buf)
		default:
			buf = c.emit(s, s.done, s.worse, s.using, pb, buf) // the round passes
		}
	}
	return buf
}

// attempt appends the outcomes of k steps tried together (each at
// MultiStep per extra step), in order: the first failure stops the rest.
func (c *taskChain) attempt(s taskNode, v *TaskView, k int, pb float64, buf []markov.Step[taskNode]) []markov.Step[taskNode] {
	reach := pb
	for i := 0; i < k; i++ {
		ps := c.rules.Criticals.SuccessChance(v.Skill + c.t.Modifiers[s.done+i] - s.worse + c.rules.MultiStep*(k-1))
		buf = c.emit(s, s.done+i, s.worse, s.using, reach*(1-ps), buf)
		reach *= ps
	}
	return c.emit(s, s.done+k, s.worse, s.using, reach, buf)
}

// special appends the outcomes of a roll against a special case: on a
// failure Possible Setback loses a step, Complication worsens the
// difficulty, and a Critical Problem switches skill or starts again, as
// pol decides.
func (c *taskChain) special(s taskNode, v *TaskView, bar Bar, pb float64, buf []markov.Step[taskNode]) []markov.Step[taskNode] {
	ps := c.rules.Criticals.SuccessChance(v.Skill + v.Modifier)
	buf = c.emit(s, s.done, s.worse, s.using, pb*ps, buf)
	switch {
	case bar == PossibleSetback:
		return c.emit(s, max(s.done-1, 0), s.worse, s.using, pb*(1-ps), buf)
	case bar == Complication:
		return c.emit(s, s.done, s.worse+c.rules.Complication, s.using, pb*(1-ps), buf)
	case c.pol.Switch(v):
		return c.emit(s, s.done, s.worse, (s.using+1)%c.t.skills(), pb*(1-ps), buf)
	}
	return c.emit(s, 0, s.worse, s.using, pb*(1-ps), buf)
}

// emit appends the move, with probability p, from s to the end of its
// round with done steps, penalty worse and skill using: finished once
// every step is done; once time runs out, the last-ditch effort if pol
// makes it (finished, or failed); else on to the next round.
func (c *taskChain) emit(s taskNode, done, worse, using int, p float64, buf []markov.Step[taskNode]) []markov.Step[taskNode] {
	if p == 0 {
		return buf
	}
	r := s.round + 1
	switch {
	case done >= c.rules.TaskSteps:
		return append(buf, markov.Step[taskNode]{To: taskNode{round: r, end: 1}, P: p})
	case r >= c.t.Rounds:
		v := (&TaskState{Task: c.t, Done: done, Worse: worse, Round: r, Using: using}).view(&c.rules, 0)
		pl := 0.0
		if c.pol.LastDitch(&v) {
			pl = c.rules.Criticals.SuccessChance(lastDitch(&c.rules, c.t, done, worse, using))
		}
		buf = append(buf, markov.Step[taskNode]{To: taskNode{round: r, end: 1, ditch: true}, P: p * pl})
		return append(buf, markov.Step[taskNode]{To: taskNode{end: 2}, P: p * (1 - pl)})
	}
	return append(buf, markov.Step[taskNode]{To: taskNode{done: done, worse: worse, round: r, using: using}, P: p})
}

// taskAnswer reads TaskExact off the chain's absorbing states.
func taskAnswer(t Task, absorb iter.Seq2[taskNode, float64]) TaskExact {
	e := TaskExact{ByRound: make([]float64, t.Rounds+1)}
	for s, p := range absorb {
		if s.end != 1 {
			continue
		}
		e.P += p
		if s.ditch {
			e.LastDitch += p
		} else {
			e.ByRound[s.round] += p
		}
	}
	return e
}

// NameOdds returns the exact distribution of how many cards named n turn
// up in draws cards from a full shuffled deck of composition comp.
func NameOdds(comp []Count, n Name, draws int) (dice.Dist, error) {
	total, err := checkComposition(comp)
	if err != nil {
		return dice.Dist{}, err
	}
	k := 0
	for _, c := range comp {
		if c.Name == n {
			k += c.Count
		}
	}
	return Hypergeometric(total, k, draws)
}

// SampleTask estimates a task's behaviour by Monte Carlo on the real deck:
// each trial shuffles the whole deck, then plays TaskRound (one card turned
// per round, without replacement) until the task ends. Its fields mean what
// TaskChance's do; the hero has no cards and no Possibilities.
func SampleTask(rules Rules, d *Deck, t Task, pol Policy, r *dice.Roller, trials int) (TaskExact, error) {
	if trials < 1 || trials > 1e8 {
		return TaskExact{}, fmt.Errorf("trials %d, must be 1..1e8", trials)
	}
	hero := Character{Name: "worker", MaxHP: 10, MaxFP: 10}
	st, err := NewState(rules, d, []Character{hero}, nil)
	if err != nil {
		return TaskExact{}, err
	}
	g := &game{State: st}
	if err := t.Check(); err != nil {
		return TaskExact{}, err
	}
	if pol == nil {
		return TaskExact{}, errors.New("SampleTask needs a policy")
	}
	e := TaskExact{ByRound: make([]float64, t.Rounds+1)}
	s := g.State
	w := 1 / float64(trials)
	for range trials {
		s.Draw = s.Draw[:0]
		for i := range d.Cards {
			s.Draw = append(s.Draw, i)
		}
		s.Discard, s.Stack = s.Discard[:0], s.Stack[:0]
		s.Players[0] = Player{Hand: s.Players[0].Hand[:0], Pool: s.Players[0].Pool[:0]}
		s.Heroes[0] = hero.Fresh()
		g.Shuffle(r)
		s.Tasks = append(s.Tasks[:0], TaskState{Task: t})
		ts := &s.Tasks[0]
		for !ts.Finished && !ts.Failed {
			if err := g.TaskRound(r, 0, pol); err != nil {
				return TaskExact{}, err
			}
		}
		if ts.Finished {
			e.P += w
			if ts.LastDitch {
				e.LastDitch += w
			} else {
				e.ByRound[ts.Round] += w
			}
		}
	}
	return e, nil
}
