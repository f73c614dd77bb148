package contest

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim/markov"
)

// randomScenario draws a small scenario from r: a basic, contested or
// timed action between characters of one to three traits rated d4 to
// d12, with Plot Points, extras, gangs, aid, an interferer, helpers, a
// Trouble Pool and house rules drawn too, each cast member and the GM
// playing a shipped policy; and a side that may decide in it.
func randomScenario(r *rand.Rand) (Scenario, string) {
	die := func() dice.Die { return dice.Die(4 + 2*r.IntN(5)) }
	policies := PolicyNames()
	s := Scenario{Rules: DefaultRules(), GMPolicy: policies[r.IntN(len(policies))]}
	s.Rules.TiesToHolder = r.IntN(4) > 0
	s.Rules.MookOffLargest = r.IntN(2) == 0
	s.Rules.TimedTroubleOff = r.IntN(2) == 0
	s.Rules.StartPlotPoints = r.IntN(2)
	for i := range 4 {
		c := Member{Character: Character{Name: fmt.Sprintf("C%d", i), GM: i == 1, PlotPoints: r.IntN(3)}, Policy: policies[r.IntN(len(policies))]}
		c.Traits = []Trait{{Name: "V", Kind: Value, Die: die()}, {Name: "R", Kind: Relationship, Die: die()}, {Name: "X", Kind: Resource, Die: die()}}
		s.Cast = append(s.Cast, c)
	}
	pool := func() []string { return []string{"V", "R"}[:1+r.IntN(2)] }
	switch r.IntN(3) {
	case 0:
		s.Kind = KindTimed
		s.Trouble = []dice.Die{die(), die()}
		t := &TimedSpec{Actor: "C0", Pool: pool(), Beats: 1 + r.IntN(4)}
		for range 1 + r.IntN(3) {
			st := TimedStep{}
			if r.IntN(2) == 0 {
				st.Stakes = []dice.Die{die(), die()}
			}
			t.Steps = append(t.Steps, st)
		}
		if r.IntN(2) == 0 {
			t.Helpers = []HelperSpec{{Character: "C2", Pool: pool()}}
		}
		s.Timed = t
		return s, []string{"C0", GMSide}[r.IntN(2)]
	case 1:
		s.Kind = KindBasic
	default:
		s.Kind = KindContested
		s.Initiator = r.IntN(3) - 1
	}
	// The GM buys no 1s of a two-sided action unless it decides: each 1
	// bought is a Plot Point more in the chain's state, which a long
	// contest multiplies past what a test should solve.
	s.GMPolicy = "frugal"
	s.Sides = []SideSpec{{Character: "C1", Pool: pool()}, {Character: "C0", Pool: pool()}}
	for i := range s.Sides {
		if r.IntN(2) == 0 {
			s.Sides[i].Extra = []string{"X"}
		}
	}
	if r.IntN(3) == 0 {
		s.Sides[0].Gang = []dice.Die{die()}
	}
	if r.IntN(4) == 0 {
		s.Sides[1].Aider, s.Sides[1].AidPool = "C2", []string{"V"}
	}
	deciders := []string{"C1", "C0"}
	if s.Kind == KindContested && r.IntN(3) == 0 {
		s.Interferer, s.InterferePool = "C3", []string{"V"}
		deciders = append(deciders, "C3")
	}
	return s, deciders[r.IntN(len(deciders))]
}

// TestSolveBoundsRandomScenarios: in 40 scenarios drawn from a fixed seed
// (10 with -short), for a side drawn too, Solve's best play is at least
// and its worst at most the side's own policy and every shipped one
// (Solved.Check), Worth is best less own, the advice comes ranked by
// Worth, and the best and worst answers' rounds (with their Tail) sum to
// 1 and have their mean.
func TestSolveBoundsRandomScenarios(t *testing.T) {
	n := 40
	if testing.Short() {
		n = 10
	}
	r := rand.New(rand.NewPCG(37, 5))
	ctx := context.Background()
	solved := 0
	for i := 0; solved < n && i < 4*n; i++ {
		s, side := randomScenario(r)
		if err := s.Validate(); err != nil {
			t.Fatalf("scenario %d: %v", i, err)
		}
		sv, err := s.Solve(ctx, markov.Goal{Side: side})
		if errors.Is(err, markov.ErrNoExact) {
			continue // e.g. the GM growing a Trouble Pool that contests
		}
		if err != nil {
			t.Fatalf("scenario %d, %s deciding: %v", i, side, err)
		}
		solved++
		name := fmt.Sprintf("scenario %d (%s, %s deciding)", i, s.Kind, side)
		if err := sv.Check(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if sv.Own.Name == "" || sv.Own.Value > sv.Best.Value+1e-12 || sv.Own.Value < sv.Worst.Value-1e-12 {
			t.Errorf("%s: own %q at %v outside [%v, %v]", name, sv.Own.Name, sv.Own.Value, sv.Worst.Value, sv.Best.Value)
		}
		for k := 1; k < len(sv.Advice); k++ {
			if sv.Advice[k].Worth > sv.Advice[k-1].Worth {
				t.Errorf("%s: advice line %d worth %v after %v", name, k, sv.Advice[k].Worth, sv.Advice[k-1].Worth)
			}
		}
		checkRounds(t, name+", best", sv.Best.Answer)
		checkRounds(t, name+", worst", sv.Worst.Answer)
	}
	if solved < n {
		t.Errorf("only %d of the scenarios drawn could be solved; want %d", solved, n)
	}
}

// checkRounds holds an answer's distribution of rounds to its own sums:
// with the Tail it adds to 1, and its mean is MeanRounds (the Tail, below
// markov.RoundsTolerance, moving it by less than 1e-9).
func checkRounds(t *testing.T, name string, a markov.Answer) {
	t.Helper()
	sum, mean := a.Tail, 0.0
	for k, q := range a.Rounds {
		sum += q
		mean += float64(k) * q
	}
	if len(a.Rounds) == 0 || math.Abs(sum-1) > 1e-12 || math.Abs(mean-a.MeanRounds) > 1e-9 {
		t.Errorf("%s: %d rounds summing with the tail %v to %v, mean %v against MeanRounds %v", name, len(a.Rounds), a.Tail, sum, mean, a.MeanRounds)
	}
}

// TestSolveAnswersCarryTheirRounds: the best and worst play of every
// built-in shape and deciding side carry a distribution of rounds, as
// Exact counts them (the sides' rolls, or the actor's in a timed action):
// with the Tail it sums to 1 and its mean is MeanRounds. Where the best
// play is a shipped policy's (in the pushing duel Bea's default pushes
// wherever the plan does), the plan's answer is the policy's Exact one.
func TestSolveAnswersCarryTheirRounds(t *testing.T) {
	ctx := context.Background()
	shapes := solvedScenarios()
	shapes = append(shapes, struct {
		name  string
		sc    Scenario
		sides []string
	}{"timed", timedTroubleOff(), []string{"Detective", GMSide}})
	for _, c := range shapes {
		for _, side := range c.sides {
			sv, err := c.sc.Solve(ctx, markov.Goal{Side: side})
			if err != nil {
				t.Fatal(err)
			}
			checkRounds(t, c.name+", "+side+", best", sv.Best.Answer)
			checkRounds(t, c.name+", "+side+", worst", sv.Worst.Answer)
		}
	}
	sv, err := pushDuel().Solve(ctx, markov.Goal{Side: "Bea", Outcomes: []string{"failure", "knocked_out", "gave_in"}})
	if err != nil {
		t.Fatal(err)
	}
	own := sv.Own.Answer
	if sv.Own.Name != "default" || !closeAll(sv.Best.Answer.Rounds, own.Rounds) || !closeAll(sv.Best.Answer.P, own.P) ||
		math.Abs(sv.Best.Answer.MeanRounds-own.MeanRounds) > 1e-12 {
		t.Errorf("the plan's answer %+v; Bea's default (%q) %+v", sv.Best.Answer, sv.Own.Name, own)
	}
}

// closeAll reports whether a and b have the same length and agree to 1e-12.
func closeAll(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if math.Abs(a[k]-b[k]) > 1e-12 {
			return false
		}
	}
	return true
}
