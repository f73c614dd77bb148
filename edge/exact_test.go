package edge

import (
	"errors"
	"math"
	"testing"

	"github.com/stakesrpg/stakes/dice"
)

func TestExactMatchesRunner(t *testing.T) {
	s := DefaultScenario()
	ex, err := s.Exact()
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
		c := rn.Trial(r, metrics)
		counts[c]++
		rounds[metrics[0]]++
		total += metrics[0]
	}
	if rn.Err != nil {
		t.Fatal(rn.Err)
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
	fit, err := dice.ChiSquare(dice.Dist{Min: 0, P: ex.Rounds}, rounds)
	if err != nil {
		t.Fatal(err)
	}
	if fit.PValue < 1e-4 {
		t.Errorf("rounds distribution: chi-square p = %g", fit.PValue)
	}
	// The test can fail: a distribution shifted by one round is rejected.
	bad, err := dice.ChiSquare(dice.Dist{Min: 1, P: ex.Rounds}, rounds)
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
		if _, err := s.Exact(); !errors.Is(err, ErrNoExact) {
			t.Errorf("%s: err = %v, want ErrNoExact", name, err)
		}
	}
}
