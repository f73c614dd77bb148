package challenge

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim/markov"
)

// TestCrossModelWithoutCrossOffsIsDuel solves, in the model with
// cross-offs, the default scenario with Althesa's name on the owe list and
// never crossed off (the model follows every comparison) and with no list
// (the model plays Duel's rounds from the start), and checks both against
// Duel's chain over rounds to 1e-12.
func TestCrossModelWithoutCrossOffsIsDuel(t *testing.T) {
	ctx := context.Background()
	want, err := DefaultScenario().Exact(ctx)
	must(t, err)
	kept := DefaultScenario()
	kept.Owe = []Debt{{Name: "Althesa", Player: "Althesa"}}
	for _, s := range []Scenario{kept, DefaultScenario()} {
		c, policies, err := s.build()
		must(t, err)
		got, err := s.crossExact(ctx, c, policies, [2]bool{})
		must(t, err)
		for i := range want.P {
			if !near(got.P[i], want.P[i], 1e-12) {
				t.Errorf("%d names: P[%d] %.15f, Duel %.15f", len(s.Owe), i, got.P[i], want.P[i])
			}
		}
		if !near(got.MeanRounds, want.MeanRounds, 1e-9) {
			t.Errorf("%d names: mean rounds %v, Duel %v", len(s.Owe), got.MeanRounds, want.MeanRounds)
		}
		for r := 1; r < 6; r++ {
			if !near(got.Rounds[r], want.Rounds[r], 1e-12) {
				t.Errorf("%d names: Rounds[%d] %.15f, Duel %.15f", len(s.Owe), r, got.Rounds[r], want.Rounds[r])
			}
		}
	}
}

// d4CrossDuel is one d4 against one d4 (Art, asserting), an answer
// lower than the challenge always losing outright (DoubleFactor 1), the
// advantage die a d2, and side a holding one name it crosses off at once.
func d4CrossDuel() Scenario {
	s := d4Duel()
	s.Rules.DoubleFactor = 1
	s.Rules.AdvantageDie = dice.D2
	s.Owe = []Debt{{Name: "A", Player: "A"}}
	s.Sides[0].Play.CrossOff = "eager"
	return s
}

// TestCrossExactByHand solves d4CrossDuel by hand. With DoubleFactor 1
// an answer blocks (higher: it stands as the new challenge), ties (a new
// round) or loses outright; without names each side wins half. Side a
// crosses its name off at the first cast: its reading v = d4 + d2 is 2,
// 3, 4, 5, 6 with chances 1, 2, 2, 2, 1 in 8, against b's d4.
//
// Let Wa(S) (Wb(S)) be a's chance when a (b) challenges with S, names
// spent: Wa(5) = Wa(6) = 1; Wa(4) = 3/4 + 1/4 x 1/2 = 7/8, Wb(4) = 1/8;
// Wa(3) = (Wb(4) + 1/2 + 2)/4 = 21/32, Wb(3) = (Wa(4) + 1/2)/4 = 11/32;
// Wa(2) = (Wb(3) + Wb(4) + 1/2 + 1)/4 = 63/128.
//
// The cast: a challenges with v over b's roll (v=2 1/32, v=3 1/8, v=4
// 3/16, v=5 and v=6 3/8), b with 3 or 4 over v=2 (1/32 each) or 4 over
// v=3 (1/16), and 5/32 of casts tie and are recast without the name
// (a half each). So a wins
//
//	63/4096 + 21/256 + 21/128 + 3/8 + 11/1024 + 1/256 + 1/128 + 5/64 = 3019/4096.
func TestCrossExactByHand(t *testing.T) {
	s := d4CrossDuel()
	a, err := s.Exact(context.Background())
	must(t, err)
	if want := 3019.0 / 4096; !near(a.P[0], want, 1e-12) || !near(a.P[2], 1-want, 1e-12) {
		t.Errorf("P %v; a wins by hand %.15f", a.P, want)
	}
	must(t, a.Check(len(s.Categories())))
	// Crossing the name off is worth 3019/4096 - 1/2 to a.
	s.Sides[0].Play.CrossOff = "never"
	plain, err := s.Exact(context.Background())
	must(t, err)
	if !near(plain.P[0], 0.5, 1e-12) {
		t.Errorf("a never crossing off: %v", plain.P)
	}
}

// sampledWithin plays n trials of s (side's policy p when p is not nil)
// and checks that each category's sampled rate lies inside the 99.9%
// interval of its exact chance, and the mean rounds within 4 standard
// errors.
func sampledWithin(t *testing.T, name string, s Scenario, side int, p Policy, exact markov.Answer, seed uint64) []float64 {
	t.Helper()
	rn, err := s.NewRunner()
	must(t, err)
	if p != nil {
		must(t, rn.SetPolicy(side, p))
	}
	r := dice.NewSeeded(seed)
	const n = 40000
	counts := make([]float64, len(exact.P))
	rounds, rounds2 := 0.0, 0.0
	m := make([]int, len(s.Metrics()))
	for range n {
		counts[trial(t, rn, r, m)]++
		rounds += float64(m[0])
		rounds2 += float64(m[0] * m[0])
	}
	for k, pk := range exact.P {
		got, half := counts[k]/n, 3.29*math.Sqrt(pk*(1-pk)/n)
		if math.Abs(got-pk) > half+1e-12 {
			t.Errorf("%s: category %d sampled %.4f, exact %.4f +- %.4f", name, k, got, pk, half)
		}
		counts[k] = got
	}
	mean := rounds / n
	se := math.Sqrt((rounds2/n - mean*mean) / n)
	if math.Abs(mean-exact.MeanRounds) > 4*se {
		t.Errorf("%s: mean rounds sampled %.4f, exact %.4f (se %.4f)", name, mean, exact.MeanRounds, se)
	}
	return counts
}

// TestCrossExactSampled checks Exact with cross-offs against the Runner
// (fixed seeds, 99.9% intervals) for scenarios in which names are
// crossed off, and that the same test rejects the answer of a model that
// ignores them.
func TestCrossExactSampled(t *testing.T) {
	ctx := context.Background()
	outclassed := DefaultScenario() // Guts d12 d4 (16 sides) against Irin's 18: her name goes on the list
	outclassed.Sides[0].Members[0].Endeavor = Defending
	outclassed.Sides[0].Play.CrossOff = "when_close"
	helped := OweScenario()
	helped.Sides[1].Play.Stance = "give"
	helped.Owe = append(helped.Owe, Debt{Name: "Mitch", Player: "Irin"})
	twice := OweScenario() // three names for Althesa, two crossed off a comparison
	twice.Rules.CrossOffsPerComparison = 2
	twice.Owe = append(twice.Owe, Debt{Name: "Althesa", Player: "Althesa"}, Debt{Name: "Althesa", Player: "Althesa"})
	for i, tc := range []struct {
		name string
		s    Scenario
	}{{"owe", OweScenario()}, {"goes on the list", outclassed}, {"two names, giving", helped}, {"two a comparison", twice}, {"d4 by hand", d4CrossDuel()}} {
		ex, err := tc.s.Exact(ctx)
		must(t, err)
		must(t, ex.Check(len(tc.s.Categories())))
		got := sampledWithin(t, tc.name, tc.s, 0, nil, ex, uint64(100+i))
		// The answer of a model without cross-offs lies outside the
		// sampled intervals: the check can fail.
		c, _, err := tc.s.build()
		must(t, err)
		hang := stances(c, []Policy{&Style{}, &Style{}})
		if tc.s.Sides[1].Play.Stance == "give" {
			hang[1] = false
		}
		d, err := Duel(tc.s.Rules, c.Sides[0].Dice, c.Sides[1].Dice, hang[0], hang[1])
		must(t, err)
		far := false
		for k, p := range duelAnswer(d).P {
			far = far || math.Abs(got[k]-p) > 3.29*math.Sqrt(p*(1-p)/40000)
		}
		if !far {
			t.Errorf("%s: the answer without cross-offs %v fits the sample %v", tc.name, duelAnswer(d).P, got)
		}
	}
}

// TestCrossExactRefuses checks the scenarios the model with cross-offs
// leaves out.
func TestCrossExactRefuses(t *testing.T) {
	shared := OweScenario()
	shared.Sides[1].Members[0].Character.Player = "Althesa"
	many := OweScenario()
	for range 64 {
		many.Owe = append(many.Owe, Debt{Name: "Althesa", Player: "Althesa"})
	}
	// Each side helped by two more rolling as it does: six dice a side
	// read too many ways together for a cast laid out pair by pair.
	crowd := OweScenario()
	for i := range 2 {
		for _, name := range []string{"Mitch", "Ben"} {
			h := crowd.Sides[i].Members[0]
			h.Character.Name = name + crowd.Sides[i].Name
			crowd.Sides[i].Members = append(crowd.Sides[i].Members, h)
		}
	}
	for _, tc := range []struct {
		name string
		s    Scenario
		want string
	}{
		{"a player on both sides", shared, "player Althesa has characters on both sides"},
		{"rolls too varied", crowd, "the exact model with cross-offs takes up to 1048576"},
		{"too many names", many, "side althesa may cross off 65 names; the exact model counts up to 64"},
	} {
		_, err := tc.s.Exact(context.Background())
		_, err2 := tc.s.Optimal(context.Background(), markov.Goal{}, markov.Maximize)
		for _, e := range []error{err, err2} {
			if !errors.Is(e, markov.ErrNoExact) || !strings.Contains(e.Error(), tc.want) {
				t.Errorf("%s: %v; want %q", tc.name, e, tc.want)
			}
		}
	}
}

// TestSolveANameThatGoesOnTheList solves for Althesa when her own name
// goes on the owe list after the first exchange (her Guts d12 d4, 16
// sides, against Irin's 18) and she may cross it off later in the same
// conflict: her best play bounds every shipped part, and is worth more
// than never crossing it off.
func TestSolveANameThatGoesOnTheList(t *testing.T) {
	s := DefaultScenario()
	s.Sides[0].Members[0].Endeavor = Defending
	sv, err := s.Solve(context.Background(), markov.Goal{})
	must(t, err)
	must(t, sv.Check())
	for _, p := range sv.Policies {
		if p.Value > sv.Best.Value+1e-12 || p.Value < sv.Worst.Value-1e-12 {
			t.Errorf("%s %.12f outside worst %.12f .. best %.12f", p.Name, p.Value, sv.Worst.Value, sv.Best.Value)
		}
		if p.Name == "cross_off/never" && sv.Best.Value < p.Value+0.005 {
			t.Errorf("best %.4f, never crossing off %.4f", sv.Best.Value, p.Value)
		}
	}
}

// TestSolveWithCrossOffsBoundsEveryShippedPart solves the owe scenario
// for each side's win, the deciding side's cross-offs and stance left
// open: the best play is at least, and the worst at most, every shipped
// stance and cross-off part's exact value, each value is that of its
// answer, and the plan's value is its answer's.
func TestSolveWithCrossOffsBoundsEveryShippedPart(t *testing.T) {
	s := OweScenario()
	for _, g := range []markov.Goal{{}, {Side: "irin"}} {
		sv, err := s.Solve(context.Background(), g)
		must(t, err)
		must(t, sv.Check())
		if len(sv.Policies) != len(crossParts) || sv.States < 1000 {
			t.Fatalf("%v: %d policies, %d states", g, len(sv.Policies), sv.States)
		}
		in := map[string]bool{}
		for _, o := range sv.Goal.Outcomes {
			in[o] = true
		}
		for _, pv := range append([]markov.PolicyValue{sv.Best, sv.Worst}, sv.Policies...) {
			if pv.Value > sv.Best.Value+1e-12 || pv.Value < sv.Worst.Value-1e-12 {
				t.Errorf("%v: %s %.12f outside worst %.12f .. best %.12f", g, pv.Name, pv.Value, sv.Worst.Value, sv.Best.Value)
			}
			must(t, pv.Answer.Check(len(s.Categories())))
			v := 0.0
			for k, c := range s.Categories() {
				if in[c] {
					v += pv.Answer.P[k]
				}
			}
			if !near(v, pv.Value, 1e-9) {
				t.Errorf("%v: %s: value %.15f, its answer's %.15f", g, pv.Name, pv.Value, v)
			}
		}
		t.Logf("%v: best %.4f worst %.4f gap %.4f, %d states, %d choices", g, sv.Best.Value, sv.Worst.Value, sv.Gap, sv.States, sv.Choices)
		for _, p := range sv.Policies {
			t.Logf("  %s %.4f", p.Name, p.Value)
		}
	}
}

// TestOptimalWithCrossOffsSampled plays the best and the worst play of
// the owe scenario through the Runner: the sampled rate of the goal falls
// inside the 99.9% interval of its exact value (fixed seed).
func TestOptimalWithCrossOffsSampled(t *testing.T) {
	s := OweScenario()
	for side, g := range []markov.Goal{{}, {Side: "irin"}} {
		for _, aim := range []markov.Aim{markov.Maximize, markov.Minimize} {
			o, err := s.Optimal(context.Background(), g, aim)
			must(t, err)
			got := sampledWithin(t, g.Side+" "+aim.String(), s, side, o.Policy, o.Answer, uint64(7+side))
			if v := got[2*side] + got[2*side+1]; math.Abs(v-o.Value) > 3.29*math.Sqrt(o.Value*(1-o.Value)/40000) {
				t.Errorf("%s %v: sampled %.4f, exact %.4f", g.Side, aim, v, o.Value)
			}
		}
	}
	// Althesa's own name goes on the list after the first exchange.
	outclassed := DefaultScenario()
	outclassed.Sides[0].Members[0].Endeavor = Defending
	o, err := outclassed.Optimal(context.Background(), markov.Goal{}, markov.Maximize)
	must(t, err)
	sampledWithin(t, "outclassed", outclassed, 0, o.Policy, o.Answer, 11)
}

// TestSolveWithCrossOffsAdvice reads the owe scenario's best play for
// Althesa's win in words: a line for each situation of her cross-offs and
// for her stances, the most consequential first, each reached.
func TestSolveWithCrossOffsAdvice(t *testing.T) {
	sv, err := OweScenario().Solve(context.Background(), markov.Goal{})
	must(t, err)
	kinds := map[string]bool{}
	for _, a := range sv.Advice {
		t.Logf("%s: %s [%s] worth %.4f reach %.3g", a.When, a.Do, a.Else, a.Worth, a.Reach)
		if a.Reach <= 0 || a.Worth <= 0 {
			t.Errorf("advice %+v", a)
		}
		kinds[strings.SplitN(a.When, ",", 2)[0]] = true
	}
	for _, k := range []string{"at a cast", "answering", "challenging", "answering lower but more than half"} {
		if !kinds[k] {
			t.Errorf("no advice %q among %v", k, kinds)
		}
	}
	// Each situation's reach is the visits of its states: a true tie at a
	// cast is rare.
	for _, a := range sv.Advice {
		if strings.HasPrefix(a.When, "at a cast, the casts truly tied") && a.Reach > 0.05 {
			t.Errorf("%s reached %v", a.When, a.Reach)
		}
	}
}

// missCounter is an Optimal's Policy that counts the choices of the
// deciding side whose situation its plan does not hold (where the Policy
// falls back on the side's own policy).
type missCounter struct {
	*crossPlanned
	asked, missed int
}

func (m *missCounter) CrossOff(v *View, side int) int {
	if side == m.side {
		m.asked++
		if _, _, ok := m.plan.Choice(m.shown(v.s, side)); !ok {
			m.missed++
		}
	}
	return m.crossPlanned.CrossOff(v, side)
}

// TestOptimalPolicyFindsEveryChoiceInItsPlan plays the Optimal's Policy
// through the Engine and checks that every cross-off it is asked for is a
// state of its plan: play and the model meet the same situations.
func TestOptimalPolicyFindsEveryChoiceInItsPlan(t *testing.T) {
	outclassed := DefaultScenario()
	outclassed.Sides[0].Members[0].Endeavor = Defending
	for _, tc := range []struct {
		s    Scenario
		side int
	}{{OweScenario(), 0}, {OweScenario(), 1}, {outclassed, 0}} {
		o, err := tc.s.Optimal(context.Background(), markov.Goal{Side: tc.s.Sides[tc.side].Name}, markov.Maximize)
		must(t, err)
		mc := &missCounter{crossPlanned: o.Policy.(*crossPlanned)}
		rn, err := tc.s.NewRunner()
		must(t, err)
		must(t, rn.SetPolicy(tc.side, mc))
		r := dice.NewSeeded(3)
		for range 3000 {
			trial(t, rn, r, nil)
		}
		if mc.asked < 1000 || mc.missed > 0 {
			t.Errorf("side %d: %d of %d cross-off choices not in the plan", tc.side, mc.missed, mc.asked)
		}
	}
}
