package dramadeck

import (
	"testing"

	"github.com/stakesrpg/stakes/dice"
)

func TestRunnerDefault(t *testing.T) {
	s := DefaultScenario()
	rn, err := s.NewRunner()
	if err != nil {
		t.Fatal(err)
	}
	r := dice.NewSeeded(1)
	m := make([]int, len(s.Metrics()))
	counts := make([]int, len(s.Categories()))
	sums := make([]int, len(m))
	const n = 4000
	for range n {
		c := rn.Trial(r, m)
		counts[c]++
		for i := range m {
			sums[i] += m[i]
		}
	}
	t.Logf("categories %v: %v", s.Categories(), counts)
	for i, name := range s.Metrics() {
		t.Logf("mean %s = %.3f", name, float64(sums[i])/n)
	}
}
