package dramadeck

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/named"
	"github.com/stakesrpg/stakes/sim/markov"
)

// How much do decisions matter under the Drama Deck? Hands, pools, targets
// and hit points make far too many states for an exact decision process
// (the other mechanics' Solve), so Solve compares ways of playing by
// simulation instead. The ways are the Style's settings: a hill-climb from
// the best shipped style turns one setting at a time, keeping the change
// that raises the goal's odds most while one does (and from the worst, for
// the worst play, lowering them), every candidate
// measured on the same trials (common random numbers, so a difference
// between two styles is the styles' and not the dice's). The best and worst
// styles found and the shipped ones are then measured again on fresh
// trials, and reported with 95% half-widths.

// SearchTrials is how many trials measure each candidate style during the
// search; CheckTrials how many measure the styles reported.
const (
	SearchTrials = 1000
	CheckTrials  = 10000
)

// knob is one setting of a Style the search turns, with the situation it
// governs in words, and the studies in which the situation arises.
type knob struct {
	when, on, off string
	turn          func(*Style)
	is            func(*Style) bool
	arises        func(Scenario) bool
}

// knobs are the Style's settings, in the order Advice lists them.
var knobs = []knob{
	{"a card in hand that can be played", "play cards and move them to the pool", "keep them in hand",
		func(s *Style) { s.PlayCards = !s.PlayCards }, func(s *Style) bool { return s.PlayCards }, always},
	{"Drama cards in hand", "hold them for the end of the adventure", "play them",
		func(s *Style) { s.KeepDrama = !s.KeepDrama }, func(s *Style) bool { return s.KeepDrama }, fights},
	{"two combat cards in hand", "declare a Critical Moment", "do not",
		func(s *Style) { s.CriticalMoment = !s.CriticalMoment }, func(s *Style) bool { return s.CriticalMoment }, fights},
	{"a failed roll of one's own action", "spend Possibilities on it", "keep them",
		func(s *Style) { s.SpendPossibilities = !s.SpendPossibilities }, func(s *Style) bool { return s.SpendPossibilities }, always},
	{"a failed defence or resistance", "spend Possibilities on defence", "keep them",
		func(s *Style) { s.SpendOnDefence = !s.SpendOnDefence }, func(s *Style) bool { return s.SpendOnDefence }, fights},
	{"attacking", "make an All-Out Attack", "attack normally",
		func(s *Style) { s.AllOut = !s.AllOut }, func(s *Style) bool { return s.AllOut }, fights},
	{"a contest skill at least the attack skill", "trick, test, taunt, intimidate or maneuver", "attack",
		func(s *Style) { s.Contests = !s.Contests }, func(s *Style) bool { return s.Contests }, fights},
	{"a task showing several steps", "attempt them all at once", "one step at a time",
		func(s *Style) { s.MultiStep = !s.MultiStep }, func(s *Style) bool { return s.MultiStep }, tasks},
	{"own HP below a third", "defend", "fight on",
		func(s *Style) { s.DefendBelow = map[bool]int{true: 0, false: 34}[s.DefendBelow > 0] },
		func(s *Style) bool { return s.DefendBelow > 0 }, fights},
}

// knobsOf are the knobs whose situation arises in s: the only ones the
// search turns and Advice speaks of.
func knobsOf(s Scenario) []knob {
	var out []knob
	for _, k := range knobs {
		if k.arises(s) {
			out = append(out, k)
		}
	}
	return out
}

// solveSides are the sides that may decide, and the outcome each plays for
// by default, by study.
var solveSides = map[string][numStudies]string{
	"heroes": {"heroes_win", "finished", "heroes_win", "triumph"},
	"gm":     {"villains_win", "failed", "villains_win", "defeat"},
}

// Solve compares the best and the worst Style found by the search with the
// shipped policies, for goal: the deciding side ("heroes", the default, or
// "gm") plays each style while the other plays the scenario's policy.
func (s Scenario) Solve(ctx context.Context, goal markov.Goal) (markov.Solved, error) {
	side, wins, err := s.solveGoal(goal)
	if err != nil {
		return markov.Solved{}, err
	}
	m := measurer{s: s, side: side, wins: wins}
	var found []Style
	for _, aim := range []markov.Aim{markov.Maximize, markov.Minimize} {
		start, err := m.shippedFor(ctx, aim)
		if err != nil {
			return markov.Solved{}, err
		}
		st, err := m.climb(ctx, start, aim)
		if err != nil {
			return markov.Solved{}, err
		}
		found = append(found, st)
	}
	out := markov.Solved{Goal: goal, Side: side, Method: fmt.Sprintf("sampling: a hill-climb over the Style's %d settings "+
		"from the best (and, for the worst play, the worst) shipped policy, %d trials a candidate on common random numbers; every value below "+
		"measured again on %d fresh trials (95%% half-widths)", len(knobsOf(s)), SearchTrials, CheckTrials)}
	if out.Goal.Side == "" {
		out.Goal.Side = side
	}
	if len(out.Goal.Outcomes) == 0 {
		out.Goal.Outcomes = []string{s.Categories()[wins[0]]}
	}
	return m.report(ctx, out, found)
}

// solveGoal reads who decides and which categories are the goal.
func (s Scenario) solveGoal(goal markov.Goal) (string, []int, error) {
	if err := s.Validate(); err != nil {
		return "", nil, err
	}
	side := goal.Side
	if side == "" {
		side = "heroes"
	}
	def, ok := solveSides[side]
	if !ok {
		return "", nil, fmt.Errorf("dramadeck: side %q: allowed %s", side, named.Allowed([]string{"gm", "heroes"}))
	}
	if side == "gm" && !fights(s) {
		return "", nil, errors.New("dramadeck: side \"gm\": a task out of combat leaves the GM no choice")
	}
	outcomes := goal.Outcomes
	if len(outcomes) == 0 {
		outcomes = []string{def[s.Study]}
	}
	var wins []int
	for _, o := range outcomes {
		k := slices.Index(s.Categories(), o)
		if k < 0 {
			return "", nil, fmt.Errorf("dramadeck: goal outcome %q: allowed %s", o, named.Allowed(s.Categories()))
		}
		wins = append(wins, k)
	}
	return side, wins, nil
}

// measurer plays trials of a scenario with one side's policy replaced.
type measurer struct {
	s    Scenario
	side string
	wins []int
}

// odds returns the share of n trials, seeded first, first+1, ..., that end
// in the goal with the deciding side playing p.
func (m measurer) odds(ctx context.Context, p Policy, first uint64, n int) (float64, error) {
	rn, err := m.s.NewRunner()
	if err != nil {
		return 0, err
	}
	if m.side == "gm" {
		rn.pol.GM = p
	} else {
		rn.pol.Heroes = p
	}
	metrics := make([]int, len(m.s.Metrics()))
	won := 0
	for i := range n {
		// A trial of a large scenario may take milliseconds: look at ctx
		// before each, so that Solve stops within one trial of a cancel.
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		k, err := rn.trial(ctx, dice.NewSeeded(first+uint64(i)), metrics)
		if err != nil {
			return 0, err
		}
		if slices.Contains(m.wins, k) {
			won++
		}
	}
	return float64(won) / float64(n), nil
}

// checkSeed is where the trials of the final measurements start, past
// every search trial.
const checkSeed = 1 << 32

// shippedFor returns the shipped style with the best odds for aim on the
// search trials: where the climb for aim starts.
func (m measurer) shippedFor(ctx context.Context, aim markov.Aim) (Style, error) {
	var best Style
	bestV := 0.0
	for i, name := range PolicyNames() {
		p, _ := PolicyByName(name)
		v, err := m.odds(ctx, p, 0, SearchTrials)
		if err != nil {
			return best, err
		}
		if i == 0 || aim == markov.Maximize && v > bestV || aim == markov.Minimize && v < bestV {
			best, bestV = *p.(*Style), v
		}
	}
	return best, nil
}

// climb turns one setting at a time from st while a turn improves the odds
// for aim, on the search trials, and returns where it stops.
func (m measurer) climb(ctx context.Context, st Style, aim markov.Aim) (Style, error) {
	st.Label = "search"
	cur, err := m.odds(ctx, &st, 0, SearchTrials)
	if err != nil {
		return st, err
	}
	ks := knobsOf(m.s)
	for steps := 0; steps < 2*len(ks); steps++ {
		best, bestV := st, cur
		for _, k := range ks {
			next := st
			k.turn(&next)
			v, err := m.odds(ctx, &next, 0, SearchTrials)
			if err != nil {
				return st, err
			}
			if aim == markov.Maximize && v > bestV || aim == markov.Minimize && v < bestV {
				best, bestV = next, v
			}
		}
		if bestV == cur {
			return st, nil
		}
		st, cur = best, bestV
	}
	return st, nil
}

// report measures the shipped policies and the styles found on fresh
// trials, and fills in the best, the worst, the gap and the advice.
func (m measurer) report(ctx context.Context, out markov.Solved, found []Style) (markov.Solved, error) {
	value := func(st Style, name string) (markov.PolicyValue, error) {
		v, err := m.odds(ctx, &st, checkSeed, CheckTrials)
		return markov.PolicyValue{Name: name, Value: v, HalfWidth: 1.96 * math.Sqrt(v*(1-v)/CheckTrials)}, err
	}
	named := map[Style]string{} // each style measured, without its label, by name
	styles := map[string]Style{}
	var cands []markov.PolicyValue
	add := func(st Style, name string) error {
		st.Label = ""
		if _, seen := named[st]; seen {
			return nil
		}
		v, err := value(st, name)
		named[st], styles[name] = name, st
		cands = append(cands, v)
		return err
	}
	for _, name := range PolicyNames() {
		p, _ := PolicyByName(name)
		if err := add(*p.(*Style), name); err != nil {
			return out, err
		}
		out.Policies = append(out.Policies, cands[len(cands)-1])
	}
	for _, st := range found {
		if err := add(st, describeStyle(st)); err != nil {
			return out, err
		}
	}
	byValue := func(a, b markov.PolicyValue) int { return cmp.Compare(a.Value, b.Value) }
	out.Best, out.Worst = slices.MaxFunc(cands, byValue), slices.MinFunc(cands, byValue)
	out.Gap = out.Best.Value - out.Worst.Value
	advice, err := m.advise(ctx, styles[out.Best.Name])
	out.Advice = advice
	return out, err
}

// advise says, setting by setting, what the best style does and how much
// the goal's odds fall (on the search trials) when that one setting is
// turned, the largest fall first.
func (m measurer) advise(ctx context.Context, best Style) ([]markov.Advice, error) {
	base, err := m.odds(ctx, &best, 0, SearchTrials)
	if err != nil {
		return nil, err
	}
	var out []markov.Advice
	for _, k := range knobsOf(m.s) {
		other := best
		k.turn(&other)
		v, err := m.odds(ctx, &other, 0, SearchTrials)
		if err != nil {
			return nil, err
		}
		do, alt := k.on, k.off
		if !k.is(&best) {
			do, alt = alt, do
		}
		out = append(out, markov.Advice{When: k.when, Do: do, Else: alt, Worth: base - v, States: 1})
	}
	slices.SortStableFunc(out, func(a, b markov.Advice) int { return cmp.Compare(b.Worth, a.Worth) })
	return out, nil
}

// describeStyle names a style by the settings it has on.
func describeStyle(st Style) string {
	var on []string
	for _, k := range knobs {
		if k.is(&st) {
			on = append(on, k.on)
		}
	}
	if len(on) == 0 {
		return "style: none of the settings"
	}
	return "style: " + strings.Join(on, ", ")
}
