package contest

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim/markov"
)

// TestSolveBoundsEveryShippedPolicy: for each side of the built-in
// scenario, the best play is at least and the worst at most every shipped
// policy's exact value.
func TestSolveBoundsEveryShippedPolicy(t *testing.T) {
	s := DefaultScenario()
	for _, side := range []string{"Villain", "Detective"} {
		sv, err := s.Solve(context.Background(), markov.Goal{Side: side})
		if err != nil {
			t.Fatal(err)
		}
		if err := sv.Check(); err != nil {
			t.Fatal(err)
		}
		if sv.Side != side || len(sv.Policies) != len(PolicyNames()) || len(sv.Advice) == 0 || sv.Gap <= 0 {
			t.Errorf("%s: side %q, %d policies, %d lines of advice, gap %v", side, sv.Side, len(sv.Policies), len(sv.Advice), sv.Gap)
		}
		for _, p := range sv.Policies {
			if p.Value > sv.Best.Value+1e-12 || p.Value < sv.Worst.Value-1e-12 {
				t.Errorf("%s: policy %s at %.15f outside [%.15f, %.15f]", side, p.Name, p.Value, sv.Worst.Value, sv.Best.Value)
			}
		}
	}
}

// TestOptimalPolicySamplesItsExactValue plays the solved plan through the
// engine's own Play and checks its win rate against the plan's exact value.
func TestOptimalPolicySamplesItsExactValue(t *testing.T) {
	s := DefaultScenario()
	o, err := s.Optimal(context.Background(), markov.Goal{}, markov.Maximize)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"villain_wins", "villain_wins_extraordinary", "villain_wins_give_in"}; o.Side != "Villain" ||
		o.Goal.Side != "Villain" || !slices.Equal(o.Goal.Outcomes, want) {
		t.Errorf("solved for %s, goal %+v; want Villain, %v", o.Side, o.Goal, want)
	}
	if got, half := sampledWinRate(t, o, 7); math.Abs(got-o.Value) > half {
		t.Errorf("optimal play won %.4f of 40000 trials; exact %.4f +- %.4f", got, o.Value, half)
	}
}

// sampledWinRate plays o's plan in a Runner for 40,000 trials from seed
// and returns how often it met o's goal and the 99.9% half-width of the
// interval around o's exact value the rate should fall in.
func sampledWinRate(t *testing.T, o *Optimal, seed uint64) (got, half float64) {
	t.Helper()
	return sampledShare(t, o, seed, func(cat int) bool { return slices.Contains(o.wins, cat) }, o.Value)
}

// sampledShare plays o's plan in a Runner for 40,000 trials from seed and
// returns the share of them whose category meets hit, and the 99.9%
// half-width of the interval around p (the exact probability the caller
// expects) that share should fall in; 1e-9 when p is 0 or 1.
func sampledShare(t *testing.T, o *Optimal, seed uint64, hit func(cat int) bool, p float64) (got, half float64) {
	t.Helper()
	rn, err := o.NewRunner()
	if err != nil {
		t.Fatal(err)
	}
	const n = 40000
	r := dice.NewSeeded(seed)
	metrics := make([]int, len(o.scenario.Metrics()))
	hits := 0
	for range n {
		if hit(trial(t, rn, r, metrics)) {
			hits++
		}
	}
	return float64(hits) / n, 3.29*math.Sqrt(p*(1-p)/n) + 1e-9
}

// duel is two characters with one d4 each and nothing to spend: the only
// choice is whether to Give In.
func duel() Scenario {
	s := DefaultScenario()
	s.Cast = []Member{
		{Character: Character{Name: "Ann", Traits: []Trait{{Name: "Grit", Kind: Value, Die: dice.D4}}}},
		{Character: Character{Name: "Bea", Traits: []Trait{{Name: "Grit", Kind: Value, Die: dice.D4}}}},
	}
	s.Sides = []SideSpec{{Character: "Ann", Pool: []string{"Grit"}}, {Character: "Bea", Pool: []string{"Grit"}}}
	s.Initiator = 0
	return s
}

// TestSolveADuelByHand: a d4 reads 0 (a 1), 2, 3 or 4, each 1/4; Ann
// opens, a raise must beat the stakes (a tie holds). Let W(s) be Ann's
// chance holding s with Bea to roll and L(t) with Bea holding t and Ann to
// roll: W(4) = 1, L(4) = 0, W(3) = 3/4, L(3) = 1/4 W(4) = 1/4,
// W(2) = 2/4 + 1/4 L(3) = 9/16, L(2) = 1/4 (W(3) + W(4)) = 7/16,
// W(0) = 1/4 + 1/4 (L(2) + L(3)) = 27/64. Never Giving In wins
// (W(0) + W(2) + W(3) + W(4)) / 4 = 175/256; the worst play Gives In at
// Ann's first turn, winning only when Bea's first roll fails: 10/16.
func TestSolveADuelByHand(t *testing.T) {
	s := duel()
	ctx := context.Background()
	goal := markov.Goal{Side: "Ann"}
	best, err := s.Optimal(ctx, goal, markov.Maximize)
	if err != nil {
		t.Fatal(err)
	}
	worst, err := s.Optimal(ctx, goal, markov.Minimize)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(best.Value-175.0/256) > 1e-12 || math.Abs(worst.Value-10.0/16) > 1e-12 {
		t.Errorf("best %v worst %v; want 175/256 = %v and 10/16", best.Value, worst.Value, 175.0/256)
	}
}

func TestSolveRefusesWhatItDoesNotModel(t *testing.T) {
	ctx := context.Background()
	s := duel()
	for _, c := range []struct {
		goal markov.Goal
		want string
	}{
		{markov.Goal{Side: "Cid"}, `deciding side "Cid": allowed "Ann", "Bea"`},
		{markov.Goal{Outcomes: []string{"ann_won"}}, `goal outcome "ann_won": allowed "ann_wins", "ann_wins_extraordinary"`},
	} {
		if _, err := s.Solve(ctx, c.goal); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.goal, err, c.want)
		}
	}
	timed := timedScenario() // the GM buys 1s, growing the Trouble Pool a step rolls
	timed.Rules.Keep = 3
	if _, err := timed.Solve(ctx, markov.Goal{}); !errors.Is(err, markov.ErrNoExact) || !strings.Contains(err.Error(), "at most 2 dice, not 3") {
		t.Errorf("timed with 1s bought, keep 3: %v, want ErrNoExact", err)
	}
	if _, err := frugalGM(timed).Solve(ctx, markov.Goal{}); err != nil {
		t.Errorf("timed with no 1s bought, keep 3: %v", err)
	}
	if _, err := frugalGM(timed).Solve(ctx, markov.Goal{Side: GMSide}); !errors.Is(err, markov.ErrNoExact) || !strings.Contains(err.Error(), "at most 2 dice, not 3") {
		t.Errorf("timed, the GM deciding, keep 3: %v, want ErrNoExact", err)
	}
	if _, err := frugalGM(timedScenario()).Solve(ctx, markov.Goal{Side: "Oracle"}); err == nil ||
		!strings.Contains(err.Error(), `deciding side "Oracle"`) || !strings.Contains(err.Error(), `allowed "Detective", "GM"`) {
		t.Errorf("timed, a helper deciding alone: %v", err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := DefaultScenario().Solve(cancelled, markov.Goal{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

// BenchmarkSolve solves each built-in scenario shape (Solve: the best and
// the worst play and every shipped policy's exact odds).
func BenchmarkSolve(b *testing.B) {
	for _, c := range append(solvedScenarios(), struct {
		name  string
		sc    Scenario
		sides []string
	}{"timed", frugalGM(timedScenario()), []string{"Detective"}}, struct {
		name  string
		sc    Scenario
		sides []string
	}{"timed trouble off", timedTroubleOff(), []string{"Detective", GMSide}}) {
		for _, side := range c.sides {
			b.Run(strings.ReplaceAll(c.name, " ", "_")+"/"+side, func(b *testing.B) {
				for b.Loop() {
					if _, err := c.sc.Solve(context.Background(), markov.Goal{Side: side}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

func ExampleScenario_Solve() {
	sv, err := DefaultScenario().Solve(context.Background(), markov.Goal{Side: "Detective"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s wins %.4f with best play, %.4f with the worst: decisions are worth %.4f\n",
		sv.Side, sv.Best.Value, sv.Worst.Value, sv.Gap)
	for _, a := range sv.Advice[:2] {
		fmt.Printf("%s: %s\n", a.When, a.Do)
	}
	// Output:
	// Detective wins 0.3817 with best play, 0.0000 with the worst: decisions are worth 0.3817
	// the other side holds the stakes at 0 to 17, 1 Plot Point, 2 gang dice against you: roll with 1 extra die
	// the other side holds the stakes at 5 to 17, 0 Plot Points, 1 gang dice against you: roll with 0 extra dice
}

// solvedScenarios are the scenarios the solver tests run, with the sides
// that decide in them.
func solvedScenarios() []struct {
	name  string
	sc    Scenario
	sides []string
} {
	return []struct {
		name  string
		sc    Scenario
		sides []string
	}{
		{"default", DefaultScenario(), []string{"Villain", "Detective"}},
		{"basic 3 v 3", basic3v3(), []string{"Villain", "Detective"}},
		{"aided", aided(KindContested, 1), []string{"Villain", "Detective"}},
		{"interfered", interfered("default", "default"), []string{"Cop", "Villain", "Detective"}},
	}
}

// TestOptimalAnswerIsThePlansChain holds Optimal's Answer (Plan.Answer) to
// the plan's chain solved densely: the same outcome probabilities, and the
// same mean of rolls (no Give In, no aid rolled before the decider buys,
// no choice in the middle of a step counted), to 1e-12; the rounds'
// distribution has that mean.
func TestOptimalAnswerIsThePlansChain(t *testing.T) {
	ctx := context.Background()
	for _, c := range solvedScenarios() {
		for _, side := range c.sides {
			for _, aim := range []markov.Aim{markov.Maximize, markov.Minimize} {
				o, err := c.sc.Optimal(ctx, markov.Goal{Side: side}, aim)
				if err != nil {
					t.Fatalf("%s, %s: %v", c.name, side, err)
				}
				checkPlanAnswer(t, fmt.Sprintf("%s, %s, %v", c.name, side, aim), o.plan, o.Answer,
					func(st xstate) int { return int(st.cat) },
					func(st xstate) bool {
						_, name, ok := o.plan.Choice(st)
						return st.ask == askNone && !(ok && (name == giveInChoice || name == aidChoice))
					})
			}
		}
	}
	for _, c := range []struct {
		sc   Scenario
		goal markov.Goal
	}{
		{frugalGM(timedScenario()), markov.Goal{}},
		{frugalGM(timedScenario()), markov.Goal{Outcomes: []string{"objective"}}},
		{timedTroubleOff(), markov.Goal{}},
		{timedTroubleOff(), markov.Goal{Side: GMSide}},
	} {
		for _, aim := range []markov.Aim{markov.Maximize, markov.Minimize} {
			o, err := c.sc.Optimal(ctx, c.goal, aim)
			if err != nil {
				t.Fatal(err)
			}
			checkPlanAnswer(t, fmt.Sprintf("timed, %s, %v, %v", o.Side, c.goal.Outcomes, aim), o.tplan, o.Answer,
				func(st tstate) int { return int(st.cat) }, tround)
		}
	}
}

// checkPlanAnswer holds answer, the plan's Answer, to the plan's chain
// solved densely: P to 1e-12, and the mean of the steps from states that
// rolls says are rolls, which the rounds' distribution has too.
func checkPlanAnswer[S comparable](t *testing.T, name string, plan *markov.Plan[S], answer markov.Answer, cat func(S) int, rolls func(S) bool) {
	t.Helper()
	ctx := context.Background()
	chain, err := plan.Chain(ctx)
	if err != nil {
		t.Fatal(err)
	}
	sol, err := chain.Solve()
	if err != nil {
		t.Fatal(err)
	}
	p := make([]float64, len(answer.P))
	for st, q := range sol.Absorb {
		p[cat(st)] += q
	}
	mean, err := chain.ExpectedReward(func(st S) float64 {
		if rolls(st) {
			return 1
		}
		return 0
	})
	if err != nil {
		t.Fatal(err)
	}
	rounds := 0.0
	for k, q := range answer.Rounds {
		rounds += float64(k) * q
	}
	for k := range p {
		if math.Abs(p[k]-answer.P[k]) > 1e-12 {
			t.Errorf("%s: P[%d] %.15f, the chain's %.15f", name, k, answer.P[k], p[k])
		}
	}
	if math.Abs(mean-answer.MeanRounds) > 1e-12 || math.Abs(rounds-mean) > 1e-9 {
		t.Errorf("%s: mean rolls %.15f (the rounds' mean %.15f), the chain's %.15f", name, answer.MeanRounds, rounds, mean)
	}
}

// TestSolveLeavesEveryModelledChoiceToTheDecider: with an interferer, the
// interferer, the GM's villain (who buys the detective's 1s) and the
// detective (who answers an interference) each decide; the best play
// bounds every shipped policy from above and the worst from below, and
// each kind of choice is one the plan makes somewhere.
func TestSolveLeavesEveryModelledChoiceToTheDecider(t *testing.T) {
	ctx := context.Background()
	sc := interfered("default", "default")
	for side, want := range map[string]string{"Cop": interfereChoice, "Villain": "buy 1 of the 1s", "Detective": goOnChoice} {
		sv, err := sc.Solve(ctx, markov.Goal{Side: side})
		if err != nil {
			t.Fatal(err)
		}
		if err := sv.Check(); err != nil {
			t.Fatal(err)
		}
		for _, p := range sv.Policies {
			if p.Value > sv.Best.Value+1e-12 || p.Value < sv.Worst.Value-1e-12 {
				t.Errorf("%s: policy %s at %.15f outside [%.15f, %.15f]", side, p.Name, p.Value, sv.Worst.Value, sv.Best.Value)
			}
		}
		o, err := sc.Optimal(ctx, markov.Goal{Side: side}, markov.Maximize)
		if err != nil {
			t.Fatal(err)
		}
		ds, err := o.plan.Decisions(ctx)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, d := range ds {
			for _, op := range d.Options {
				found = found || op.Name == want
			}
		}
		if !found {
			t.Errorf("%s: no decision offers %q", side, want)
		}
	}
}

// TestOptimalPolicySamplesItsExactValueDeciding plays the solved plan of
// each new kind of decider through Play (the interferer, the GM buying
// 1s, a side answering an interference): its win rate falls inside the
// 99.9% interval of its exact value.
func TestOptimalPolicySamplesItsExactValueDeciding(t *testing.T) {
	for i, c := range []struct {
		sc   Scenario
		side string
	}{{interfered("default", "default"), "Cop"}, {interfered("default", "default"), "Villain"},
		{interfered("default", "default"), "Detective"}} {
		sc, side := c.sc, c.side
		for _, aim := range []markov.Aim{markov.Maximize, markov.Minimize} {
			o, err := sc.Optimal(context.Background(), markov.Goal{Side: side}, aim)
			if err != nil {
				t.Fatal(err)
			}
			if got, half := sampledWinRate(t, o, uint64(11+i)); math.Abs(got-o.Value) > half {
				t.Errorf("%s, %v: the plan won %.4f of 40000 trials; exact %.4f +- %.4f", side, aim, got, o.Value, half)
			}
		}
	}
}

// oneStep is a timed action of one step, a d4 against the actor's d4,
// with one beat: a success by 1 to 4 spends it and leaves the choice
// between objective and getaway; nobody helps.
func oneStep() Scenario {
	s := DefaultScenario()
	s.Kind, s.Sides, s.GMPolicy = KindTimed, nil, "frugal"
	s.Cast = []Member{{Character: Character{Name: "Ann", Traits: []Trait{{Name: "Grit", Kind: Value, Die: dice.D4}}}}}
	s.Timed = &TimedSpec{Actor: "Ann", Pool: []string{"Grit"}, Beats: 1, Steps: []TimedStep{{Stakes: []dice.Die{dice.D4}}}}
	return s
}

// TestSolveATimedChoiceByHand: a d4 reads 0, 2, 3 or 4, each 1/4, and a
// tie holds, so Ann succeeds 6/16 = 3/8 of the time, never by 5: every
// success leaves zero beats and the choice. Aiming at the objective, the
// best play chooses it (3/8) and the worst the getaway (0); aiming at any
// success, the choice cannot matter (3/8 both).
func TestSolveATimedChoiceByHand(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		goal        markov.Goal
		best, worst float64
	}{
		{markov.Goal{Outcomes: []string{"objective"}}, 3.0 / 8, 0},
		{markov.Goal{Side: "Ann"}, 3.0 / 8, 3.0 / 8},
	} {
		best, err := oneStep().Optimal(ctx, c.goal, markov.Maximize)
		if err != nil {
			t.Fatal(err)
		}
		worst, err := oneStep().Optimal(ctx, c.goal, markov.Minimize)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(best.Value-c.best) > 1e-12 || math.Abs(worst.Value-c.worst) > 1e-12 {
			t.Errorf("%v: best %v worst %v; want %v and %v", c.goal.Outcomes, best.Value, worst.Value, c.best, c.worst)
		}
	}
}

// TestSolveATimedAction: the actor's side decides whether Oracle buys
// time and, at the end, objective or getaway; the best bounds every
// shipped policy (played by the actor and its helper) from above and the
// worst from below; the plans sample inside their exact values.
func TestSolveATimedAction(t *testing.T) {
	ctx := context.Background()
	sc := frugalGM(timedScenario())
	for i, goal := range []markov.Goal{{}, {Outcomes: []string{"objective"}}} {
		sv, err := sc.Solve(ctx, goal)
		if err != nil {
			t.Fatal(err)
		}
		if err := sv.Check(); err != nil {
			t.Fatal(err)
		}
		if sv.Side != "Detective" || len(sv.Policies) != len(PolicyNames()) || sv.Gap <= 0 || len(sv.Advice) == 0 {
			t.Errorf("%v: side %q, %d policies, gap %v, %d lines of advice", goal.Outcomes, sv.Side, len(sv.Policies), sv.Gap, len(sv.Advice))
		}
		for _, p := range sv.Policies {
			if p.Value > sv.Best.Value+1e-12 || p.Value < sv.Worst.Value-1e-12 {
				t.Errorf("%v: policy %s at %.15f outside [%.15f, %.15f]", goal.Outcomes, p.Name, p.Value, sv.Worst.Value, sv.Best.Value)
			}
		}
		for _, aim := range []markov.Aim{markov.Maximize, markov.Minimize} {
			o, err := sc.Optimal(ctx, goal, aim)
			if err != nil {
				t.Fatal(err)
			}
			if got, half := sampledWinRate(t, o, uint64(21+i)); math.Abs(got-o.Value) > half {
				t.Errorf("%v, %v: the plan won %.4f of 40000 trials; exact %.4f +- %.4f", goal.Outcomes, aim, got, o.Value, half)
			}
		}
	}
}

// TestOptimalPolicyBuysTheOnesThePlanBuys: wherever the villain's plan
// (its own policy buying one 1 a roll) buys a number of the detective's
// 1s that matters, the plan's Policy,
// shown that state through the engine's View, buys that many.
func TestOptimalPolicyBuysTheOnesThePlanBuys(t *testing.T) {
	ctx := context.Background()
	sc := DefaultScenario()
	sc.Cast[1].Policy = "default" // buys one 1 a roll
	for _, aim := range []markov.Aim{markov.Maximize, markov.Minimize} {
		o, err := sc.Optimal(ctx, markov.Goal{Side: "Villain"}, aim)
		if err != nil {
			t.Fatal(err)
		}
		ds, err := o.plan.Decisions(ctx)
		if err != nil {
			t.Fatal(err)
		}
		p, m, seen := o.Policy(), o.model, 0
		for _, d := range ds {
			if d.State.ask != askOnes || d.Stake <= 1e-12 {
				continue
			}
			seen++
			st := d.State
			st.ask, st.ones = askNone, 0
			a := m.mirror(st)
			a.Ones, a.OnesSide, a.OnesChar = int(d.State.ones), 1-a.Turn, NoOne
			v := &View{Kind: a.Kind, Side: a.OnesSide, Char: -1, Target: -1, Ones: a.Ones, TroubleRoom: m.sc.troubleRoom(), State: m.sc}
			if got := p.BuyOnes(v); buyChoice(got) != d.Choice {
				t.Errorf("%v at %+v: the Policy buys %d, the plan says %q", aim, d.State, got, d.Choice)
			}
			a.Ones = 0
		}
		if seen == 0 && aim == markov.Maximize { // the worst play Gives In at once
			t.Errorf("%v: no decision to buy 1s matters", aim)
		}
	}
}

// TestChainPaysOnePlotPointsPerOneBought: with rules.one_plot_points 3,
// the detective's roll after the villain opens leaves him his Plot Points
// less the extras' price, plus 3 when the GM (buying one 1 a roll) buys
// one of his 1s, and nothing else.
func TestChainPaysOnePlotPointsPerOneBought(t *testing.T) {
	sc := DefaultScenario()
	sc.Rules.OnePlotPoints = 3
	m, start, err := sc.chainModel(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	st := start
	st.open, st.turn, st.holder, st.stakes, st.rolled = false, 1, 0, 12, 1
	sd := &m.sc.Action.Sides[1]
	bought := 0
	for _, s := range m.next(st, nil) {
		y := s.To
		if y.done {
			continue
		}
		cost, err := m.sc.cost(sd.Char, m.sc.plan(sd, int(y.n[1])))
		if err != nil {
			t.Fatal(err)
		}
		switch y.pp[1] - (st.pp[1] - int16(cost)) {
		case 0:
		case 3:
			bought++
		default:
			t.Errorf("after the roll the detective holds %d Plot Points, from %d less %d", y.pp[1], st.pp[1], cost)
		}
	}
	if bought == 0 {
		t.Error("no roll of the detective's had a 1 bought")
	}
}

// TestChainBuysOnlyWhileTheTroubleHasRoom: with rules.max_trouble 3 the
// built-in scene's Trouble Pool (2d6) has room for one die, so the GM
// (buying one 1 a roll) buys at most one of the Detective's 1s in the
// whole action: from a state where none was bought, some of his rolls
// bring him a Plot Point and fill the room; once one was, none does.
func TestChainBuysOnlyWhileTheTroubleHasRoom(t *testing.T) {
	sc := DefaultScenario()
	sc.Rules.MaxTrouble = 3
	m, start, err := sc.chainModel(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !m.roomBinds {
		t.Fatal("the chain does not follow a room of one die")
	}
	for bought, want := range []bool{true, false} {
		st := start
		st.open, st.turn, st.holder, st.stakes, st.rolled, st.bought = false, 1, 0, 12, 1, int16(bought)
		sd := &m.sc.Action.Sides[1]
		got := false
		for _, s := range m.next(st, nil) {
			y := s.To
			if y.done {
				continue
			}
			cost, err := m.sc.cost(sd.Char, m.sc.plan(sd, int(y.n[1])))
			if err != nil {
				t.Fatal(err)
			}
			paid := y.pp[1] - (st.pp[1] - int16(cost))
			got = got || paid > 0
			if int(y.bought) != bought+int(paid) || y.bought > 1 {
				t.Errorf("bought %d before: a roll leaves %d bought and pays %d", bought, y.bought, paid)
			}
		}
		if got != want {
			t.Errorf("bought %d before: a 1 bought %v; want %v", bought, got, want)
		}
	}
	sc.Rules.MaxTrouble = 100
	if m, _, err = sc.chainModel(context.Background()); err != nil || m.roomBinds {
		t.Errorf("room for 98 dice: followed %v (%v); the action's 1s cannot fill it", m.roomBinds, err)
	}
}
