package edge

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/dice/gof"
	"github.com/stakesrpg/stakes/sim/markov"
)

func TestExactMatchesRunner(t *testing.T) {
	s := DefaultScenario()
	ex, err := s.Exact(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	sum := 0.0
	for _, p := range ex.P {
		sum += p
	}
	if math.Abs(sum-1) > 1e-9 {
		t.Fatalf("category probabilities sum to %v", sum)
	}
	t.Logf("exact: %v mean rounds %.4f", ex.P, ex.MeanRounds)
	rn, err := s.NewRunner()
	if err != nil {
		t.Fatal(err)
	}
	n := 40000
	if testing.Short() || raceOn {
		n = 10000
	}
	r := dice.NewSeeded(7)
	counts := make([]int, len(ex.P))
	rounds := map[int]int64{}
	metrics := make([]int, len(s.Metrics()))
	total := 0
	for range n {
		c, err := rn.Trial(r, metrics)
		if err != nil {
			t.Fatal(err)
		}
		counts[c]++
		rounds[metrics[0]]++
		total += metrics[0]
	}
	for c, p := range ex.P {
		got := float64(counts[c]) / float64(n)
		se := math.Sqrt(p*(1-p)/float64(n)) + 1e-12
		if math.Abs(got-p) > 4*se {
			t.Errorf("%s: sampled %.4f, exact %.4f (%.1f standard errors)", s.Categories()[c], got, p, math.Abs(got-p)/se)
		}
	}
	mean := float64(total) / float64(n)
	if math.Abs(mean-ex.MeanRounds) > 0.05*ex.MeanRounds {
		t.Errorf("mean rounds sampled %.3f, exact %.3f", mean, ex.MeanRounds)
	}
	fit, err := gof.ChiSquare(dice.Dist{Min: 0, P: ex.Rounds}, rounds)
	if err != nil {
		t.Fatal(err)
	}
	if fit.PValue < 1e-4 {
		t.Errorf("rounds distribution: chi-square p = %g", fit.PValue)
	}
	// The test can fail: a distribution shifted by one round is rejected.
	bad, err := gof.ChiSquare(dice.Dist{Min: 1, P: ex.Rounds}, rounds)
	if err == nil && bad.PValue > 1e-4 {
		t.Errorf("a shifted rounds distribution passed: p = %g", bad.PValue)
	}
}

func TestExactRefuses(t *testing.T) {
	three := DefaultScenario()
	three.Parties = append(three.Parties, Party{Name: "cops", Members: []Member{{Name: "Sam"}}})
	factor := DefaultScenario()
	factor.Factors = []Factor{{After: 2, Skill: "endurance", DC: 12, Penalty: -1}}
	big := DefaultScenario()
	for i := range 3 {
		big.Parties[1].Members = append(big.Parties[1].Members, Member{Name: string(rune('K' + i))})
	}
	big.Parties[1].Policy = "steady"
	for name, s := range map[string]Scenario{"three parties": three, "outside factor": factor, "too many checks": big} {
		if _, err := s.Exact(context.Background()); !errors.Is(err, markov.ErrNoExact) {
			t.Errorf("%s: err = %v, want markov.ErrNoExact", name, err)
		}
	}
}

// TestExactConcessions: a social battle where the cautious side walks away
// when two dice ahead and surrenders on its last die, against a passive
// party in a search; both matched by sampling.
func TestExactConcessions(t *testing.T) {
	rules := DefaultRules()
	rules.Types["search"] = Type{Start: "perception", Seize: "perception", Skills: []string{"perception"}}
	// The check is a setting: a d6 keeps four checks a round cheap to enumerate.
	d6, err := dice.ParsePool("d6")
	if err != nil {
		t.Fatal(err)
	}
	rules.Check = d6
	scenarios := map[string]Scenario{
		"walk away": {Rules: DefaultRules(), Type: "social", Parties: []Party{
			{Name: "diplomat", Policy: "cautious", Members: []Member{{Name: "d", Skills: map[string]int{"persuasion": 4, "perception": 2}}}},
			{Name: "rival", Policy: "canny", Members: []Member{{Name: "r", Skills: map[string]int{"deception": 5, "insight": 3, "wits": 2}}}},
		}},
		"temptation": {Rules: DefaultRules(), Type: "temptation", Parties: []Party{
			{Name: "hero", Policy: "canny", Members: []Member{{Name: "h", Skills: map[string]int{"willpower": 4, "insight": 2}}}},
			{Name: "devil", Tempter: true, Policy: "reckless", BonusEdge: 2, Members: []Member{{Name: "d", Skills: map[string]int{"persuasion": 6, "deception": 5}}}},
		}},
		"passive": {Rules: rules, Type: "search", Parties: []Party{
			{Name: "squad", Policy: "steady", Members: []Member{{Name: "a", Skills: map[string]int{"perception": 3}}, {Name: "b", Skills: map[string]int{"perception": 1}}}},
			{Name: "bombs", Passive: true, Members: []Member{{Name: "bomb", Skills: map[string]int{"stealth": 1}}}},
		}},
	}
	for name, s := range scenarios {
		t.Run(name, func(t *testing.T) {
			ex, err := s.Exact(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			rn, err := s.NewRunner()
			if err != nil {
				t.Fatal(err)
			}
			n := 20000
			if raceOn {
				n = 4000
			}
			r := dice.NewSeeded(3)
			counts := make([]int, len(ex.P))
			rounds := map[int]int64{}
			metrics := make([]int, 8)
			for range n {
				c, err := rn.Trial(r, metrics)
				if err != nil {
					t.Fatal(err)
				}
				counts[c]++
				rounds[metrics[0]]++
			}
			nonzero := 0
			for c, p := range ex.P {
				if p > 1e-12 {
					nonzero++
				}
				got := float64(counts[c]) / float64(n)
				se := math.Sqrt(p*(1-p)/float64(n)) + 1e-9
				if math.Abs(got-p) > 4.5*se {
					t.Errorf("%s: sampled %.4f, exact %.4f", s.Categories()[c], got, p)
				}
			}
			if nonzero < 2 {
				t.Errorf("only %d outcomes possible: %v", nonzero, ex.P)
			}
			fit, err := gof.ChiSquare(dice.Dist{P: ex.Rounds}, rounds)
			if err != nil || fit.PValue < 1e-4 {
				t.Errorf("rounds: %v, p = %g", err, fit.PValue)
			}
			t.Logf("%v mean %.2f", ex.P, ex.MeanRounds)
		})
	}
}
