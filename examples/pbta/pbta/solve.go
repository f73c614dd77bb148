package pbta

import (
	"context"
	"fmt"
	"slices"

	"github.com/stakesrpg/stakes/sim/markov"
)

// Sides that may decide in Solve: the player (moves and costs) or the GM
// (hard moves).
var sides = []string{"player", "gm"}

// Solve finds how much decisions matter for goal: the player's (every
// move and every cost) or the GM's (every hard move), the other role
// playing its policy, over a decision process of the same points and steps
// as Exact. By default the player plays for victory, the GM for defeat.
func (sc Scenario) Solve(ctx context.Context, goal markov.Goal) (markov.Solved, error) {
	if err := sc.Validate(); err != nil {
		return markov.Solved{}, err
	}
	side, goal, err := goal.Resolve("pbta", sides, categories, func(side int) []string {
		return []string{categories[[]int{Victory, Defeat}[side]]}
	})
	if err != nil {
		return markov.Solved{}, err
	}
	in := make([]bool, len(categories))
	for _, o := range goal.Outcomes {
		in[slices.Index(categories, o)] = true
	}
	// The shipped policies' exact answers first: where the fight is too
	// long for them, Solve refuses with their reason.
	policies, err := sc.policyValues(ctx, side, in)
	if err != nil {
		return markov.Solved{}, err
	}
	m, err := sc.model()
	if err != nil {
		return markov.Solved{}, err
	}
	d := decider{model: m, player: side == 0}
	p, err := markov.ExploreProcess(ctx, pointOf(&m.start), d.choices)
	if err == nil {
		err = d.err
	}
	if err != nil {
		return markov.Solved{}, err
	}
	reward := func(pt point) float64 {
		if in[m.category(pt)] {
			return 1
		}
		return 0
	}
	best, plan, err := d.play(ctx, p, reward, in, markov.Maximize, "optimal")
	if err != nil {
		return markov.Solved{}, err
	}
	worst, _, err := d.play(ctx, p, reward, in, markov.Minimize, "worst")
	if err != nil {
		return markov.Solved{}, err
	}
	out := markov.ExactSolved(goal, goal.Side, p.Len(), p.Choices(), best, worst)
	out.Policies = policies
	own := sc.Player
	if side == 1 {
		own = sc.GM
	}
	if err := out.SetOwnPolicy(own); err != nil {
		return markov.Solved{}, err
	}
	out.Advice, err = d.advice(ctx, plan)
	return out, err
}

// decider builds the decision process: the deciding role chooses among
// every legal answer, the other answers by its policy.
type decider struct {
	*model
	player bool
	err    error
}

func (d *decider) choices(p point) []markov.Choice[point] {
	s := d.state(p)
	if s.Done() {
		return nil
	}
	var cs []markov.Choice[point]
	var err error
	switch s.Phase {
	case AwaitCost:
		var legal []Cost
		if legal, err = d.e.Costs(&s); err == nil {
			cs, err = options(&s, legal, d.e.PayCost)
		}
	case AwaitHardMove:
		var legal []HardMove
		if legal, err = d.e.HardMoves(&s); err == nil {
			cs, err = options(&s, legal, d.e.HardMove)
		}
	default:
		cs, err = d.moves(&s)
	}
	if err != nil && d.err == nil {
		d.err = err
	}
	return cs
}

// options makes one certain choice of each legal answer at s, applied by
// the step that takes it.
func options[T fmt.Stringer](s *State, legal []T, step func(*State, T) error) ([]markov.Choice[point], error) {
	var cs []markov.Choice[point]
	for _, a := range legal {
		n := *s
		if err := step(&n, a); err != nil {
			return nil, err
		}
		cs = append(cs, markov.Choice[point]{Name: a.String(), Steps: []markov.Step[point]{{To: pointOf(&n), P: 1}}})
	}
	return cs, nil
}

// moves are the choices between exchanges: every move when the player
// decides, else the player's policy's; then the roll, a cost or hard move
// left for the decider to choose and the other answered by its policy.
func (d *decider) moves(s *State) ([]markov.Choice[point], error) {
	legal, err := d.e.Moves(s)
	if err != nil {
		return nil, err
	}
	if !d.player {
		mv, err := d.e.askMove(s)
		if err == nil {
			err = d.e.moveOK(s, mv)
		}
		legal = []Move{mv}
		if err != nil {
			return nil, err
		}
	}
	var cs []markov.Choice[point]
	for _, mv := range legal {
		c := markov.Choice[point]{Name: mv.String()}
		dist := d.totals[mv]
		for i, q := range dist.P {
			n := *s
			if err := d.roll(&n, mv, dist.Min+i, d.player, !d.player); err != nil {
				return nil, err
			}
			d.pool(&n)
			c.Steps = append(c.Steps, markov.Step[point]{To: pointOf(&n), P: q})
		}
		cs = append(cs, c)
	}
	return cs, nil
}

// pool makes the decider's choices after a 7-9, or after a miss, one
// state whatever the total: the total only shows in the View, which the
// deciding side does not consult, and paying a cost or striking reads
// none of it. It stands at the band's least total the move can roll.
func (d *decider) pool(s *State) {
	if s.Phase == AwaitMove {
		return
	}
	lo := d.totals[s.Move].Min
	if s.Phase == AwaitCost {
		lo = max(lo, s.Rules.PartialAt)
	}
	s.Total = lo
}

// play solves the process for aim and reads the plan as an exact answer.
func (d *decider) play(ctx context.Context, p *markov.Process[point], reward func(point) float64, in []bool,
	aim markov.Aim, name string) (markov.PolicyValue, *markov.Plan[point], error) {
	plan, err := p.Solve(ctx, reward, aim)
	if err != nil {
		return markov.PolicyValue{}, nil, err
	}
	a, err := plan.Answer(ctx, len(categories), d.category, func(pt point) bool { return pt.phase == AwaitMove })
	if err != nil {
		return markov.PolicyValue{}, nil, err
	}
	v := markov.ValueOf(name, a, in)
	v.Value = plan.Start()
	return v, plan, nil
}

// policyValues is the goal's exact value under each shipped policy of the
// deciding role.
func (sc Scenario) policyValues(ctx context.Context, side int, in []bool) ([]markov.PolicyValue, error) {
	names := PolicyNames()
	if side == 1 {
		names = GMPolicyNames()
	}
	var out []markov.PolicyValue
	for _, n := range names {
		alt := sc
		if side == 0 {
			alt.Player = n
		} else {
			alt.GM = n
		}
		a, err := alt.Exact(ctx)
		if err != nil {
			return nil, err
		}
		out = append(out, markov.ValueOf(n, a, in))
	}
	return out, nil
}

// advice says the plan's decisions in words, through markov.Lines as
// every mechanic says them.
func (d *decider) advice(ctx context.Context, plan *markov.Plan[point]) ([]markov.Advice, error) {
	ds, err := plan.Decisions(ctx)
	if err != nil {
		return nil, err
	}
	key := func(dc markov.Decision[point], do, alt markov.Option) markov.Said {
		return markov.Said{When: d.when(dc.State), Do: do.Name, Else: alt.Name}
	}
	return markov.Lines(ds, plan.Aim(), key, markov.AsSaid[point]), nil
}

// when describes a point as a situation of the fight.
func (d *decider) when(p point) string {
	s := d.state(p)
	at := fmt.Sprintf("%s at %d/%d harm, %s at %d/%d", s.PC.Name, s.PCHarm, s.Rules.Track, s.Threat.Name, s.ThreatHarm, s.Threat.Capacity)
	switch s.Phase {
	case AwaitCost:
		return fmt.Sprintf("exchange %d, %s: %s rolled a success at a cost", s.Exchanges, at, s.Move)
	case AwaitHardMove:
		return fmt.Sprintf("exchange %d, %s: %s missed", s.Exchanges, at, s.Move)
	}
	return fmt.Sprintf("exchange %d, %s", s.Exchanges+1, at)
}
