package dramadeck

import (
	"context"
	"errors"
	"fmt"
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
	cr := rules.Criticals
	steps := rules.TaskSteps
	var bad error
	next := func(s taskNode, buf []markov.Step[taskNode]) []markov.Step[taskNode] {
		if s.end != 0 {
			return buf
		}
		ts := TaskState{Task: t, Done: s.done, Worse: s.worse, Round: s.round, Using: s.using}
		emit := func(done, worse, using int, p float64) {
			if p == 0 {
				return
			}
			r := s.round + 1
			switch {
			case done >= steps:
				buf = append(buf, markov.Step[taskNode]{To: taskNode{round: r, end: 1}, P: p})
			case r >= t.Rounds:
				v := (&TaskState{Task: t, Done: done, Worse: worse, Round: r, Using: using}).view(&rules, 0)
				pl := 0.0
				if pol.LastDitch(&v) {
					pl = cr.SuccessChance(lastDitch(&rules, t, done, worse, using))
				}
				buf = append(buf, markov.Step[taskNode]{To: taskNode{round: r, end: 1, ditch: true}, P: p * pl})
				buf = append(buf, markov.Step[taskNode]{To: taskNode{end: 2}, P: p * (1 - pl)})
			default:
				buf = append(buf, markov.Step[taskNode]{To: taskNode{done: done, worse: worse, round: r, using: using}, P: p})
			}
		}
		for b, pb := range bars {
			if pb == 0 {
				continue
			}
			bar := Bar(b)
			avail := StepAvail(bar, s.done, steps)
			v := ts.view(&rules, avail)
			switch {
			case avail > 0:
				k := pol.Steps(&v)
				if k < 1 || k > avail {
					bad = fmt.Errorf("policy %s: %d steps at once, allowed 1..%d", pol.Name(), k, avail)
					return buf[:0]
				}
				reach := pb
				for i := 0; i < k; i++ {
					ps := cr.SuccessChance(v.Skill + t.Modifiers[s.done+i] - s.worse + rules.MultiStep*(k-1))
					emit(s.done+i, s.worse, s.using, reach*(1-ps))
					reach *= ps
				}
				emit(s.done+k, s.worse, s.using, reach)
			case bar.Special():
				ps := cr.SuccessChance(v.Skill + v.Modifier)
				emit(s.done, s.worse, s.using, pb*ps)
				switch bar {
				case PossibleSetback:
					emit(max(s.done-1, 0), s.worse, s.using, pb*(1-ps))
				case Complication:
					emit(s.done, s.worse+rules.Complication, s.using, pb*(1-ps))
				default:
					if pol.Switch(&v) {
						emit(s.done, s.worse, (s.using+1)%t.skills(), pb*(1-ps))
					} else {
						emit(0, s.worse, s.using, pb*(1-ps))
					}
				}
			default:
				emit(s.done, s.worse, s.using, pb)
			}
		}
		return buf
	}
	ch, err := markov.Explore(context.Background(), taskNode{}, next)
	if bad != nil {
		return TaskExact{}, bad
	}
	if err != nil {
		return TaskExact{}, err
	}
	sol, err := ch.Solve()
	if err != nil {
		return TaskExact{}, err
	}
	e := TaskExact{ByRound: make([]float64, t.Rounds+1)}
	for s, p := range sol.Absorb {
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
	return e, nil
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
