package challenge

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim/markov"
)

// d4Duel is two characters of one d4 each (both act by asserting, Art d4),
// sides "a" and "b", with Rules.AdvantageDice 0: a hang-in carries no
// advantage die, so every round starts alike.
func d4Duel() Scenario {
	mk := func(name string) Character {
		return Standard(name, MustStat(dice.D4), MustStat(dice.D6, dice.D6), MustStat(dice.D8, dice.D6),
			[5]string{Art, Grace, Guts, Guts, Art})
	}
	r := DefaultRules()
	r.AdvantageDice = 0
	return Scenario{Rules: r, Sides: []ScenarioSide{
		{Name: "a", Members: []Entry{{Character: mk("A"), Endeavor: Asserting}}},
		{Name: "b", Members: []Entry{{Character: mk("B"), Endeavor: Asserting}}},
	}}
}

// TestOptimalD4DuelByHand solves the d4 duel for side b, goal "b wins"
// (b_outright or b_given), side a always hanging in, and checks the values
// derived by hand.
//
// Best: giving loses the goal and hanging in only starts a new round, so b
// hangs in, and the two sides play alike: by symmetry b wins 1/2.
//
// Worst: b gives whenever it may. Let R be b's chance at a round's start,
// aS (bS) its chance when a (b) challenges with standing roll S. An answer
// k to standing S blocks (k > S: the answerer challenges with k), ties
// (k = S: new round), doubles (2k <= S: the challenger wins) or is over
// half (b gives and loses; a hangs in: new round). Each k is 1/4:
//
//	a4 = R/4                     (k=4 tie; 1, 2 double; 3 over, b gives)
//	a3 = b4/4 + R/4              (k=4 block, 3 tie; 1 double; 2 over, gives)
//	a2 = (b3 + b4)/4 + R/4       (k=3, 4 block; 2 tie; 1 double)
//	b4 = R/4 + 1/2 + R/4         (k=4 tie; 1, 2 double; 3 over, a hangs in)
//	b3 = a4/4 + R/4 + 1/4 + R/4  (k=4 block, 3 tie, 1 double, 2 over)
//	b2 = (a3 + a4)/4 + R/4 + 1/4 (k=3, 4 block; 2 tie; 1 double)
//
// A cast ties 4/16 of the time and is recast; of the 12 other casts the
// higher roll challenges with 2 once, 3 twice and 4 three times, each side
// alike: R = (a2 + 2a3 + 3a4 + b2 + 2b3 + 3b4)/12. Solving,
// R = 174/445, a4 = 87/890, b4 = 619/890.
func TestOptimalD4DuelByHand(t *testing.T) {
	s := d4Duel()
	ctx := context.Background()
	goal := markov.Goal{Side: "b"}
	for _, tc := range []struct {
		aim  markov.Aim
		want float64
	}{{markov.Maximize, 0.5}, {markov.Minimize, 174.0 / 445}} {
		o, err := s.Optimal(ctx, goal, tc.aim)
		must(t, err)
		if !near(o.Value, tc.want, 1e-12) {
			t.Errorf("%v: value %.15f, by hand %.15f", tc.aim, o.Value, tc.want)
		}
		if got := o.Answer.P[2] + o.Answer.P[3]; !near(got, tc.want, 1e-12) {
			t.Errorf("%v: the plan's answer gives b %.15f", tc.aim, got)
		}
		if o.Side != "B" || strings.Join(o.Goal.Outcomes, " ") != "b_outright b_given" {
			t.Errorf("%v: side %q, goal %v", tc.aim, o.Side, o.Goal.Outcomes)
		}
	}
	// The worst play is giving: Duel with b giving agrees with the hand.
	d, err := Duel(s.Rules, []dice.Die{dice.D4}, []dice.Die{dice.D4}, true, false)
	must(t, err)
	if got := d.P[BOutright] + d.P[BGiven]; !near(got, 174.0/445, 1e-12) {
		t.Errorf("Duel with b giving: %.15f", got)
	}
}

// goals are goals of the default scenario worth solving: each side's win,
// and Irin staying unhurt (giving is then as good as winning).
func goals() []markov.Goal {
	return []markov.Goal{
		{},
		{Side: "irin"},
		{Side: "irin", Outcomes: []string{"althesa_given", "irin_outright", "irin_given"}},
		{Side: "althesa", Outcomes: []string{"irin_given", "althesa_outright", "althesa_given"}},
		{Side: "althesa", Outcomes: []string{"irin_outright"}},
	}
}

// TestSolveBoundsEveryShippedStance checks that the best play is at least,
// and the worst at most, every shipped stance's exact value, that the
// values are those of their answers, and that the gap is best - worst.
func TestSolveBoundsEveryShippedStance(t *testing.T) {
	for _, g := range goals() {
		sv, err := DefaultScenario().Solve(context.Background(), g)
		must(t, err)
		must(t, sv.Check())
		// Three round states of two choices each, and the endings play
		// can reach.
		if len(sv.Policies) != len(stanceNames) || sv.Method != "exact" || sv.States < 5 || sv.Choices != 6 {
			t.Fatalf("%v: %d policies, method %q, %d states, %d choices", g, len(sv.Policies), sv.Method, sv.States, sv.Choices)
		}
		for _, p := range sv.Policies {
			if p.Value > sv.Best.Value+1e-12 || p.Value < sv.Worst.Value-1e-12 {
				t.Errorf("%v: %s %.12f outside worst %.12f .. best %.12f", g, p.Name, p.Value, sv.Worst.Value, sv.Best.Value)
			}
		}
		for _, pv := range append([]markov.PolicyValue{sv.Best, sv.Worst}, sv.Policies...) {
			must(t, pv.Answer.Check(5))
			v := 0.0
			for _, o := range sv.Goal.Outcomes {
				for i, c := range DefaultScenario().Categories() {
					if c == o {
						v += pv.Answer.P[i]
					}
				}
			}
			if !near(v, pv.Value, 1e-12) {
				t.Errorf("%v: %s: value %.15f, its answer's %.15f", g, pv.Name, pv.Value, v)
			}
		}
		if sv.Gap != sv.Best.Value-sv.Worst.Value || sv.Gap <= 0 {
			t.Errorf("%v: gap %v", g, sv.Gap)
		}
	}
}

// TestSolveDefaultScenario reads the default scenario's solution: to win,
// Althesa always hangs in (the shipped default, whose exact answer the
// best play's is) and giving always is the worst; to stay unhurt, Irin
// gives, far above hanging in.
func TestSolveDefaultScenario(t *testing.T) {
	ctx := context.Background()
	s := DefaultScenario()
	sv, err := s.Solve(ctx, markov.Goal{})
	must(t, err)
	ex, err := s.Exact(ctx)
	must(t, err)
	for i := range ex.P {
		if !near(sv.Best.Answer.P[i], ex.P[i], 1e-12) {
			t.Errorf("best play's P[%d] %.15f, Exact (hang in) %.15f", i, sv.Best.Answer.P[i], ex.P[i])
		}
	}
	if !near(sv.Best.Answer.MeanRounds, ex.MeanRounds, 1e-9) || !near(sv.Best.Answer.Means["exchanges"], ex.Means["exchanges"], 1e-9) {
		t.Errorf("best play's means %v %v, Exact's %v %v", sv.Best.Answer.MeanRounds, sv.Best.Answer.Means, ex.MeanRounds, ex.Means)
	}
	if sv.Side != "Althesa" || !near(sv.Worst.Value, sv.Policies[1].Value, 1e-12) || sv.Policies[1].Name != "stance/give" {
		t.Errorf("side %q, worst %v, give %+v", sv.Side, sv.Worst.Value, sv.Policies[1])
	}
	if len(sv.Advice) != 3 || sv.Advice[0].Do != optHangIn || !strings.Contains(sv.Advice[0].When, "Irin carrying the advantage die") {
		t.Errorf("advice %+v", sv.Advice)
	}
	unhurt, err := s.Solve(ctx, goals()[2])
	must(t, err)
	if !near(unhurt.Best.Value, unhurt.Policies[1].Value, 1e-12) || unhurt.Best.Value < unhurt.Policies[0].Value+0.2 || unhurt.Advice[0].Do != optGive {
		t.Errorf("unhurt: best %v, give %v, advice %+v", unhurt.Best.Value, unhurt.Policies[1].Value, unhurt.Advice)
	}
}

// TestOptimalPolicySampled plays the best and the worst play through the
// Runner and checks that the sampled rate of the goal falls inside a
// 99.9% interval of its exact value (fixed seed).
func TestOptimalPolicySampled(t *testing.T) {
	s := DefaultScenario()
	goal := goals()[2] // Irin unhurt: the best play gives, the worst hangs in
	in := map[int]bool{1: true, 2: true, 3: true}
	for _, aim := range []markov.Aim{markov.Maximize, markov.Minimize} {
		o, err := s.Optimal(context.Background(), goal, aim)
		must(t, err)
		rn, err := s.NewRunner()
		must(t, err)
		must(t, rn.SetPolicy(1, o.Policy))
		r := dice.NewSeeded(24)
		const n = 40000
		hits := 0
		for range n {
			hits += b2i(in[trial(t, rn, r, nil)])
		}
		got, half := float64(hits)/n, 3.29*math.Sqrt(o.Value*(1-o.Value)/n)
		if math.Abs(got-o.Value) > half {
			t.Errorf("%v: sampled %.4f, exact %.4f +- %.4f", aim, got, o.Value, half)
		}
	}
}

// TestOptimalRefuses checks the goals, sides and scenarios Optimal and
// Solve refuse, and what they say.
func TestOptimalRefuses(t *testing.T) {
	ctx := context.Background()
	three := threeWay()
	four := threeWay()
	four.Sides = append(four.Sides, ScenarioSide{Name: "bran", Members: []Entry{{Character: althesa(), Endeavor: Asserting}}})
	shared := OweScenario()
	shared.Sides[1].Members[0].Character.Player = "Althesa"
	for _, tc := range []struct {
		name string
		s    Scenario
		goal markov.Goal
		want string
		is   error
	}{
		{"unknown outcome", DefaultScenario(), markov.Goal{Outcomes: []string{"althesa_wins"}}, `goal outcome "althesa_wins": allowed`, nil},
		{"unknown side", DefaultScenario(), markov.Goal{Side: "mitch"}, `goal side "mitch": allowed "althesa", "irin"`, nil},
		{"three sides crossing names off", three, markov.Goal{}, "the exact model of three sides has no cross-offs", markov.ErrNoExact},
		{"four sides", four, markov.Goal{}, "4 sides; the exact models take two or three", markov.ErrNoExact},
		{"a player on both sides", shared, markov.Goal{}, "player Althesa has characters on both sides", markov.ErrNoExact},
		{"bad rules", Scenario{Rules: Rules{}, Sides: DefaultScenario().Sides}, markov.Goal{}, "rules", nil},
	} {
		_, err := tc.s.Optimal(ctx, tc.goal, markov.Maximize)
		_, err2 := tc.s.Solve(ctx, tc.goal)
		for _, e := range []error{err, err2} {
			if e == nil || !strings.Contains(e.Error(), tc.want) || tc.is != nil && !errors.Is(e, tc.is) {
				t.Errorf("%s: %v; want %q", tc.name, e, tc.want)
			}
		}
	}
	// A cancelled context stops the solve.
	done, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := DefaultScenario().Solve(done, markov.Goal{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	rn, err := DefaultScenario().NewRunner()
	must(t, err)
	if err := rn.SetPolicy(2, nil); err == nil {
		t.Error("SetPolicy accepted side 2 of two")
	}
}

// TestExactWithoutAdvantageDice checks Rules.AdvantageDice 0 in the exact
// model against the Runner: a hang-in then carries nothing.
func TestExactWithoutAdvantageDice(t *testing.T) {
	s := DefaultScenario()
	s.Rules.AdvantageDice = 0
	ex, err := s.Exact(context.Background())
	must(t, err)
	with, err := DefaultScenario().Exact(context.Background())
	must(t, err)
	if near(ex.P[0], with.P[0], 1e-3) {
		t.Fatalf("no advantage dice changed nothing: %v", ex.P)
	}
	rn, err := s.NewRunner()
	must(t, err)
	r := dice.NewSeeded(7)
	const n = 40000
	wins := 0
	for range n {
		wins += b2i(trial(t, rn, r, nil) == 0)
	}
	got, half := float64(wins)/n, 3.29*math.Sqrt(ex.P[0]*(1-ex.P[0])/n)
	if math.Abs(got-ex.P[0]) > half {
		t.Errorf("sampled %.4f, exact %.4f +- %.4f", got, ex.P[0], half)
	}
}

// BenchmarkSolve times Solve on the default scenario, on the owe
// scenario, whose deciding side's cross-offs are solved too, and on a
// conflict of three sides of one die each.
func BenchmarkSolve(b *testing.B) {
	for _, s := range []struct {
		name string
		s    Scenario
	}{{"default", DefaultScenario()}, {"owe", OweScenario()}, {"three_sides", mixedThree()}} {
		b.Run(s.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := s.s.Solve(context.Background(), markov.Goal{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestExactCountsANameThatGoesOnTheOweListAndIsCrossedOff checks that
// Exact follows a weaker side whose name goes on the owe list after the
// first exchange and which crosses it off later in the same conflict (it
// was once taken as exact without the cross-off): crossing it off changes
// the answer from that of a side that never does.
func TestExactCountsANameThatGoesOnTheOweListAndIsCrossedOff(t *testing.T) {
	s := DefaultScenario()
	s.Sides[0].Members[0].Endeavor = Defending // Guts d12 d4: 16 sides against Irin's 18
	s.Sides[0].Play.CrossOff = "eager"
	eager, err := s.Exact(context.Background())
	must(t, err)
	s.Sides[0].Play.CrossOff = "never"
	never, err := s.Exact(context.Background())
	must(t, err)
	if eager.P[0]+eager.P[1] < never.P[0]+never.P[1]+0.005 {
		t.Errorf("Althesa wins %.4f crossing her name off, %.4f never", eager.P[0]+eager.P[1], never.P[0]+never.P[1])
	}
}

// TestTiesGoToTheCheaperChoice solves goals no play can reach, so that
// every choice is as good as every other (worth 0), and reads the plans.
// In the d4 duel side a always hangs in, so "b_given" (a gives) never happens
// whatever b does: under Ties "cheapest" (the default) b gives wherever it
// must choose, since hanging in costs the die sizes an outright loss would
// take and giving costs nothing; under "first" it hangs in, the first
// option listed. Of three sides, a stalemate never happens in the model:
// cheapest, s1 drops out rather than challenge, lets the named side answer
// rather than interfere and gives rather than hang in; first, it
// challenges the first side listed, interferes and hangs in. Keeping the
// names costs nothing and comes first, so it is kept under either.
func TestTiesGoToTheCheaperChoice(t *testing.T) {
	ctx := context.Background()
	for ties, want := range map[string]string{"": optGive, "cheapest": optGive, "first": optHangIn} {
		o, err := d4Duel().Optimal(ctx, markov.Goal{Side: "b", Outcomes: []string{"b_given"}, Ties: ties}, markov.Maximize)
		must(t, err)
		if o.Value != 0 {
			t.Fatalf("ties %q: value %v, want 0", ties, o.Value)
		}
		c, _, err := d4Duel().build()
		must(t, err)
		c.Phase, c.Challenger, c.Answerer = PhaseStance, 0, 1
		if hang := o.Policy.HangIn(&View{c}, 1); hang != (want == optHangIn) {
			t.Errorf("ties %q: the plan hangs in %v, want %s", ties, hang, want)
		}
	}
	// With a name of b's to cross off, in the model with cross-offs:
	// keeping the names is listed first and costs nothing, so the plan
	// keeps them either way; its stances go as in the duel.
	owes := d4Duel()
	owes.Owe = []Debt{{Name: "B", Player: "B"}}
	for ties, want := range map[string]string{"cheapest": optGive, "first": optHangIn} {
		o, err := owes.Optimal(ctx, markov.Goal{Side: "b", Outcomes: []string{"b_given"}, Ties: ties}, markov.Maximize)
		must(t, err)
		ds, err := o.xplan.Decisions(ctx)
		must(t, err)
		kinds := map[uint8]bool{}
		for _, d := range ds {
			kinds[d.State.kind] = true
			if w := map[bool]string{true: optKeep, false: want}[d.State.kind == xShown]; d.Choice != w {
				t.Errorf("ties %q: in %+v the plan takes %q, want %q", ties, d.State, d.Choice, w)
			}
		}
		if !kinds[xShown] || !kinds[xStance] {
			t.Errorf("ties %q: the plan chose in %v only", ties, kinds)
		}
	}
	for ties, want := range map[string]map[uint8]string{
		"cheapest": {tFirst: "drop out", tLast: "drop out", tInterfere: "let ", tStance: optGive},
		"first":    {tFirst: "challenge A", tLast: "challenge", tInterfere: "interfere", tStance: optHangIn},
	} {
		o, err := mixedThree().Optimal(ctx, markov.Goal{Side: "s1", Outcomes: []string{"stalemate"}, Ties: ties}, markov.Maximize)
		must(t, err)
		ds, err := o.tplan.Decisions(ctx)
		must(t, err)
		seen := map[uint8]bool{}
		for _, d := range ds {
			seen[d.State.kind] = true
			if w := want[d.State.kind]; !strings.HasPrefix(d.Choice, w) {
				t.Errorf("ties %q: in %+v the plan takes %q, want %q", ties, d.State, d.Choice, w)
			}
		}
		if len(seen) != 4 {
			t.Errorf("ties %q: the plan chose in %d kinds of state, want 4", ties, len(seen))
		}
	}
}

// TestEveryPlayCarriesItsRounds: in Solve's report for a duel, a duel with
// cross-offs and a conflict of three sides, the best and the worst play,
// the side's own and each shipped policy carry the distribution of rounds:
// none ends before its first round, the chances and the tail cut off sum
// to 1, and their mean is the answer's mean rounds.
func TestEveryPlayCarriesItsRounds(t *testing.T) {
	for name, s := range map[string]Scenario{"duel": DefaultScenario(), "owe": OweScenario(), "three sides": mixedThree()} {
		sv, err := s.Solve(context.Background(), markov.Goal{})
		must(t, err)
		for _, pv := range append([]markov.PolicyValue{sv.Best, sv.Worst, sv.Own}, sv.Policies...) {
			a := pv.Answer
			if len(a.Rounds) < 3 || a.Rounds[0] != 0 || a.Tail < 0 || a.Tail > 1e-12 {
				t.Errorf("%s, %s: %d rounds from %v, tail %v", name, pv.Name, len(a.Rounds), a.Rounds[:min(len(a.Rounds), 2)], a.Tail)
				continue
			}
			total, mean := a.Tail, 0.0
			for r, p := range a.Rounds {
				total += p
				mean += float64(r) * p
			}
			if !near(total, 1, 1e-12) || !near(mean, a.MeanRounds, 1e-9) {
				t.Errorf("%s, %s: rounds sum to %.15f with the tail, mean %.12f against %.12f", name, pv.Name, total, mean, a.MeanRounds)
			}
		}
	}
}

// TestSolveNamesSidesAndOwnPlayAsTheScenarioSpellsThem: the deciding side
// reads by its characters' names, as play narrates it and the scenario's
// title spells it (helpers included), in Solved.Side and in the advice;
// its own play reads by the parts that act, the defaults spelled out, and
// is the shipped policy of the same name where there is one.
func TestSolveNamesSidesAndOwnPlayAsTheScenarioSpellsThem(t *testing.T) {
	helped := DefaultScenario()
	mitch := Standard("Mitch", MustStat(dice.D6, dice.D4), MustStat(dice.D12, dice.D10), MustStat(dice.D8, dice.D6),
		[5]string{Art, Grace, Guts, Guts, Art})
	helped.Sides[1].Members = append(helped.Sides[1].Members, Entry{Character: mitch, Endeavor: Defending})
	three := mixedThree()
	for _, tc := range []struct {
		s          Scenario
		goal       markov.Goal
		side, own  string
		inPolicies bool
	}{
		{DefaultScenario(), markov.Goal{}, "Althesa", "stance/hang_in", true},
		{helped, markov.Goal{Side: "irin"}, "Irin and Mitch", "stance/hang_in", true},
		{OweScenario(), markov.Goal{}, "Althesa", "stance/hang_in, cross_off/eager", false},
		{three, markov.Goal{}, "A", "stance/hang_in, target/weakest, interfere/meddle", false},
		{three, markov.Goal{Side: "s1"}, "B", "stance/hang_in, target/sworn, interfere/aloof", false},
	} {
		sv, err := tc.s.Solve(context.Background(), tc.goal)
		must(t, err)
		must(t, sv.Check())
		in := slices.ContainsFunc(sv.Policies, func(v markov.PolicyValue) bool { return v.Name == sv.Own.Name })
		if sv.Side != tc.side || sv.Own.Name != tc.own || in != tc.inPolicies {
			t.Errorf("side %q, own %q (among the policies: %v); want %q, %q", sv.Side, sv.Own.Name, in, tc.side, tc.own)
		}
		for _, a := range sv.Advice {
			for _, sd := range tc.s.Sides {
				if strings.Contains(a.When, " "+sd.Name+" ") || strings.HasSuffix(a.When, " "+sd.Name) {
					t.Errorf("%s: advice names side %q as the goal does, not by its characters: %q", tc.side, sd.Name, a.When)
				}
			}
		}
	}
}

// randomScenario draws a small scenario from rng: two sides (sometimes
// with names on the owe list to cross off) or three, each side one
// character acting by a stat of one or two dice, with random policy parts,
// declared targets and rules variants.
func randomScenario(rng *rand.Rand) Scenario {
	pick := func(names ...string) string { return names[rng.IntN(len(names))] }
	ladder := []dice.Die{dice.D4, dice.D6, dice.D8, dice.D10, dice.D12}
	n := 2 + rng.IntN(2)
	s := smallThree(slices.Repeat([]dice.Die{dice.D4}, n)...)
	s.Rules.OweWaitsForNextConflict = n == 3 || rng.IntN(2) == 0
	s.Rules.AdvantageDice = rng.IntN(2)
	s.Rules.DoubleFactor = 2 + rng.IntN(2)
	s.Rules.TieEndsRound = rng.IntN(2) == 0
	s.Rules.OweOnEqualSides = rng.IntN(2) == 0
	for i := range s.Sides {
		sd := &s.Sides[i]
		dies := []dice.Die{ladder[rng.IntN(3)]}
		if n == 2 && rng.IntN(2) == 0 {
			dies = append(dies, ladder[rng.IntN(len(ladder))])
		}
		sd.Members[0].Character.Stats[Art] = MustStat(dies...)
		sd.Play.Stance = pick("", "hang_in", "give", "outclassed")
		if n == 2 {
			sd.Play.CrossOff = pick("", "never", "when_close", "eager")
			if rng.IntN(3) == 0 {
				s.Owe = append(s.Owe, Debt{Name: sd.Members[0].Character.Name, Player: sd.Members[0].Character.Name})
			}
			continue
		}
		sd.Play.Target = pick("", "sworn", "turncoat", "weakest", "strongest")
		sd.Play.Interfere = pick("", "aloof", "meddle", "guard")
		if rng.IntN(2) == 0 {
			sd.Target = s.Sides[(i+1+rng.IntN(2))%3].Name
		}
	}
	return s
}

// TestBestAtLeastOwnAtLeastWorstInRandomScenarios solves random scenarios
// (fixed seed) for a random side and goal: Solved.Check holds (the best
// play at least, the worst at most, the side's own and every shipped
// policy), every answer is a distribution over the categories, and the
// best play's Answer gives its value.
func TestBestAtLeastOwnAtLeastWorstInRandomScenarios(t *testing.T) {
	rng := rand.New(rand.NewPCG(37, 5))
	n := 40
	if testing.Short() {
		n = 10
	}
	var shapes [3]int // duels, duels with names on the owe list, three sides
	for k := range n {
		s := randomScenario(rng)
		must(t, s.Validate())
		shapes[min(len(s.Sides)-2, 1)*2+b2i(len(s.Sides) == 2 && len(s.Owe) > 0)]++
		cats := s.Categories()
		g := markov.Goal{Side: s.Sides[rng.IntN(len(s.Sides))].Name, Ties: []string{"", "first"}[rng.IntN(2)]}
		if rng.IntN(2) == 0 {
			for _, c := range cats[:len(cats)-1] {
				if rng.IntN(3) == 0 {
					g.Outcomes = append(g.Outcomes, c)
				}
			}
		}
		sv, err := s.Solve(context.Background(), g)
		if err != nil {
			t.Fatalf("scenario %d (%+v): %v", k, s, err)
		}
		if err := sv.Check(); err != nil {
			t.Errorf("scenario %d: %v", k, err)
		}
		if sv.Own.Value > sv.Best.Value+1e-9 || sv.Own.Value < sv.Worst.Value-1e-9 {
			t.Errorf("scenario %d: own %.12f outside worst %.12f .. best %.12f", k, sv.Own.Value, sv.Worst.Value, sv.Best.Value)
		}
		for _, pv := range append([]markov.PolicyValue{sv.Best, sv.Worst, sv.Own}, sv.Policies...) {
			if err := pv.Answer.Check(len(cats)); err != nil {
				t.Errorf("scenario %d, %s: %v", k, pv.Name, err)
			}
		}
		if v := markov.ValueOf("", sv.Best.Answer, inGoal(cats, sv.Goal)).Value; !near(v, sv.Best.Value, 1e-9) {
			t.Errorf("scenario %d: the best play's answer gives %.12f, its value %.12f", k, v, sv.Best.Value)
		}
	}
	if slices.Min(shapes[:]) == 0 {
		t.Errorf("duels, duels with names to cross off, three sides: %v; want some of each", shapes)
	}
	t.Logf("duels, duels with names to cross off, three sides: %v", shapes)
}

// inGoal marks the categories the goal names.
func inGoal(cats []string, g markov.Goal) []bool {
	in := make([]bool, len(cats))
	for i, c := range cats {
		in[i] = slices.Contains(g.Outcomes, c)
	}
	return in
}
