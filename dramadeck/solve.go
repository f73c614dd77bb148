package dramadeck

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"

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
// the worst play, lowering them), every candidate measured on the same
// trials (common random numbers, so a difference between two styles is the
// styles' and not the dice's). The best and the worst of the styles found
// and the shipped ones are chosen on fresh trials; then the chosen two and
// the shipped ones are measured again on trials independent of every
// earlier one, and those values are reported with their 95% half-widths:
// a value measured on the trials it was chosen on would lean its way (the
// best of several noisy measures is too high).

// SearchTrials is how many trials measure each candidate style during the
// search (and each style of the advice); CheckTrials how many choose the
// best and the worst play, and then measure the styles reported.
const (
	SearchTrials = 1000
	CheckTrials  = 10000
)

// The trial streams, seeds from each start: the search from 0, the choice
// of the best and the worst from chooseSeed, the values reported from
// reportSeed, the advice from adviceSeed. Each is far past the others'
// trials, so no trial of one is a trial of another.
const (
	chooseSeed = 1 << 32
	reportSeed = 2 << 32
	adviceSeed = 3 << 32
)

// knob is one setting of a Style the search turns, with the situation it
// governs in words, the settings of the scenario its choice trades on
// (keys: a knob whose setting is inert in the scenario, Scenario.Inert,
// governs nothing there), and whether it is a player's choice only (the
// GM holds no cards and works no task).
type knob struct {
	when, on, off string
	turn          func(*Style)
	is            func(*Style) bool
	keys          []string
	players       bool
	// needs, if set, is a rule the choice needs besides: a Possibility
	// re-rolls a defence only where the cards help defences.
	needs func(Scenario) bool
}

// knobs are the Style's settings, in the order Advice lists them.
var knobs = []knob{
	{when: "a card in hand that can be played", on: "play cards and move them to the pool", off: "keep them in hand",
		turn: func(s *Style) { s.PlayCards = !s.PlayCards }, is: func(s *Style) bool { return s.PlayCards },
		keys: []string{"deck"}, players: true},
	{when: "Drama cards in hand", on: "hold them for the end of the adventure", off: "play them",
		turn: func(s *Style) { s.KeepDrama = !s.KeepDrama }, is: func(s *Style) bool { return s.KeepDrama },
		keys: []string{"rules.drama_worth"}, players: true},
	{when: "two combat cards in hand", on: "declare a Critical Moment", off: "do not",
		turn: func(s *Style) { s.CriticalMoment = !s.CriticalMoment }, is: func(s *Style) bool { return s.CriticalMoment },
		keys: []string{"rules.bonus"}, players: true},
	{when: "a failed roll of one's own action", on: "spend Possibilities on it", off: "keep them",
		turn: func(s *Style) { s.SpendPossibilities = !s.SpendPossibilities }, is: func(s *Style) bool { return s.SpendPossibilities },
		keys: []string{"heroes"}},
	{when: "a failed defence or resistance", on: "spend Possibilities on defence", off: "keep them",
		turn: func(s *Style) { s.SpendOnDefence = !s.SpendOnDefence }, is: func(s *Style) bool { return s.SpendOnDefence },
		keys: []string{"rules.defence_takes_cards"}, needs: func(s Scenario) bool { return s.Rules.DefenceTakesCards }},
	{when: "attacking", on: "make an All-Out Attack", off: "attack normally",
		turn: func(s *Style) { s.AllOut = !s.AllOut }, is: func(s *Style) bool { return s.AllOut },
		keys: []string{"rules.all_out_attack_bonus"}},
	{when: "a contest skill at least the attack skill", on: "trick, test, taunt, intimidate or maneuver", off: "attack",
		turn: func(s *Style) { s.Contests = !s.Contests }, is: func(s *Style) bool { return s.Contests },
		keys: []string{"rules.margins"}},
	{when: "a task showing several steps", on: "attempt them all at once", off: "one step at a time",
		turn: func(s *Style) { s.MultiStep = !s.MultiStep }, is: func(s *Style) bool { return s.MultiStep },
		keys: []string{"rules.multi_step"}, players: true},
	{when: "own HP below a third", on: "defend", off: "fight on",
		turn: func(s *Style) { s.DefendBelow = map[bool]int{true: 0, false: 34}[s.DefendBelow > 0] },
		is:   func(s *Style) bool { return s.DefendBelow > 0 }, keys: []string{"rules.defend_bonus"}},
}

// knobsOf are the knobs of side's play whose settings act in s: the only
// ones the search turns and Advice speaks of. Whether a setting acts is
// read from the scenario's Inert list with side playing a style that uses
// every setting (aggressive, its cards played and its attacks all-out),
// since the search tries such styles whatever side's own policy.
func knobsOf(s Scenario, side string) []knob {
	open := s
	if side == "gm" {
		open.GMPolicy = "aggressive"
	} else {
		open.HeroPolicy = "aggressive"
	}
	inert := open.Inert()
	var out []knob
	for _, k := range knobs {
		acts := !(k.players && side == "gm") && (k.needs == nil || k.needs(s))
		for _, key := range k.keys {
			acts = acts && !slices.Contains(inert, key)
		}
		if acts {
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
	return measurer{s: s, side: side, wins: wins, search: SearchTrials, check: CheckTrials}.solve(ctx, goal)
}

// solve is Solve for m's scenario, side and goal.
func (m measurer) solve(ctx context.Context, goal markov.Goal) (markov.Solved, error) {
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
	out := markov.Solved{Goal: goal, Side: m.side, Method: m.method()}
	if out.Goal.Side == "" {
		out.Goal.Side = m.side
	}
	if len(out.Goal.Outcomes) == 0 {
		out.Goal.Outcomes = []string{m.s.Categories()[m.wins[0]]}
	}
	return m.report(ctx, out, found)
}

// method says how Solve found its values.
func (m measurer) method() string {
	return fmt.Sprintf("sampling: a hill-climb over the %d settings of the Style that act in this scenario, "+
		"from the best (and, for the worst play, the worst) shipped policy, %d trials a candidate on common random numbers; "+
		"the best and the worst play chosen among the styles found and the shipped policies on %d fresh trials, "+
		"then every value below measured again on %d further trials, independent of those it was chosen on (95%% half-widths); "+
		"each line of advice on %d more, common to the two styles it compares",
		len(knobsOf(m.s, m.side)), m.search, m.check, m.check, m.search)
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

// measurer plays trials of a scenario with one side's policy replaced:
// search trials a candidate during the search and the advice, check
// trials to choose the best and the worst play and to measure what is
// reported.
type measurer struct {
	s             Scenario
	side          string
	wins          []int
	search, check int
}

// odds returns the share of n trials, seeded first, first+1, ..., that end
// in the goal with the deciding side playing p, the trials shared among one
// worker per CPU.
func (m measurer) odds(ctx context.Context, p Policy, first uint64, n int) (float64, error) {
	workers := max(1, min(runtime.GOMAXPROCS(0), n/64))
	won, errs := make([]int, workers), make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			won[w], errs[w] = m.share(ctx, p, first, n, w, workers)
		}()
	}
	wg.Wait()
	total := 0
	for w := range workers {
		if errs[w] != nil {
			return 0, errs[w]
		}
		total += won[w]
	}
	return float64(total) / float64(n), nil
}

// share plays worker w's share of odds's trials, every workers-th from
// trial w, on a Runner of its own, and counts those that end in the goal.
// Each trial has its own seed, so the count over all the shares is the same
// on any number of cores; a Style only reads itself, so the workers share p.
func (m measurer) share(ctx context.Context, p Policy, first uint64, n, w, workers int) (int, error) {
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
	for i := w; i < n; i += workers {
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
	return won, nil
}

// shippedFor returns the shipped style with the best odds for aim on the
// search trials: where the climb for aim starts.
func (m measurer) shippedFor(ctx context.Context, aim markov.Aim) (Style, error) {
	var best Style
	bestV := 0.0
	for i, name := range PolicyNames() {
		p, _ := PolicyByName(name)
		v, err := m.odds(ctx, p, 0, m.search)
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
	cur, err := m.odds(ctx, &st, 0, m.search)
	if err != nil {
		return st, err
	}
	ks := knobsOf(m.s, m.side)
	for steps := 0; steps < 2*len(ks); steps++ {
		best, bestV := st, cur
		for _, k := range ks {
			next := st
			k.turn(&next)
			v, err := m.odds(ctx, &next, 0, m.search)
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

// report chooses the best and the worst of the shipped policies and the
// styles found, on the choosing trials, then measures the two and the
// shipped policies on the reporting trials, and fills in the best, the
// worst, the gap and the advice.
func (m measurer) report(ctx context.Context, out markov.Solved, found []Style) (markov.Solved, error) {
	cands, err := m.candidates(found)
	if err != nil {
		return out, err
	}
	chosen := make([]float64, len(cands))
	for i := range cands {
		if chosen[i], err = m.odds(ctx, &cands[i].style, chooseSeed, m.check); err != nil {
			return out, err
		}
	}
	best, worst := 0, 0
	for i, v := range chosen {
		if v > chosen[best] {
			best = i
		}
		if v < chosen[worst] {
			worst = i
		}
	}
	value := func(c candidate) (markov.PolicyValue, error) {
		v, err := m.odds(ctx, &c.style, reportSeed, m.check)
		return markov.PolicyValue{Name: c.name, Value: v, HalfWidth: 1.96 * math.Sqrt(v*(1-v)/float64(m.check))}, err
	}
	for _, c := range cands[:len(PolicyNames())] {
		v, err := value(c)
		if err != nil {
			return out, err
		}
		out.Policies = append(out.Policies, v)
	}
	if out.Best, err = value(cands[best]); err != nil {
		return out, err
	}
	if out.Worst, err = value(cands[worst]); err != nil {
		return out, err
	}
	out.Gap = out.Best.Value - out.Worst.Value
	own := m.s.HeroPolicy
	if m.side == "gm" {
		own = m.s.GMPolicy
	}
	if err := out.SetOwnPolicy(own); err != nil {
		return out, fmt.Errorf("dramadeck: %w", err)
	}
	out.Advice, err = m.advise(ctx, cands[best].style)
	return out, err
}

// candidate is a style in the running for the best or the worst play.
type candidate struct {
	name  string
	style Style
}

// candidates are the shipped policies, by name and first, then each
// style found that is none of them, named by its settings.
func (m measurer) candidates(found []Style) ([]candidate, error) {
	var out []candidate
	seen := func(st Style) bool {
		return slices.ContainsFunc(out, func(c candidate) bool { return c.style == st })
	}
	for _, name := range PolicyNames() {
		p, err := PolicyByName(name)
		if err != nil {
			return nil, err
		}
		st := *p.(*Style)
		st.Label = ""
		out = append(out, candidate{name: name, style: st})
	}
	for _, st := range found {
		if st.Label = ""; !seen(st) {
			out = append(out, candidate{name: describeStyle(st, knobsOf(m.s, m.side)), style: st})
		}
	}
	return out, nil
}

// advise says, setting by setting, what the best style does and how much
// the goal's odds fall when that one setting is turned, the largest fall
// first: both measured on the advice's own trials, common to the two.
func (m measurer) advise(ctx context.Context, best Style) ([]markov.Advice, error) {
	base, err := m.odds(ctx, &best, adviceSeed, m.search)
	if err != nil {
		return nil, err
	}
	var out []markov.Advice
	for _, k := range knobsOf(m.s, m.side) {
		other := best
		k.turn(&other)
		v, err := m.odds(ctx, &other, adviceSeed, m.search)
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

// describeStyle names a style by the settings it has on of ks.
func describeStyle(st Style, ks []knob) string {
	var on []string
	for _, k := range ks {
		if k.is(&st) {
			on = append(on, k.on)
		}
	}
	if len(on) == 0 {
		return "style: none of the settings"
	}
	return "style: " + strings.Join(on, ", ")
}
