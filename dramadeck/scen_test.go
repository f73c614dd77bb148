package dramadeck

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stakesrpg/stakes/dice"
)

func TestRunnerDefault(t *testing.T) {
	s := DefaultScenario()
	run := func(seed uint64, n int) ([]int, []int) {
		rn, err := s.NewRunner()
		if err != nil {
			t.Fatal(err)
		}
		r := dice.NewSeeded(seed)
		m := make([]int, len(s.Metrics()))
		counts := make([]int, len(s.Categories()))
		sums := make([]int, len(m))
		for range n {
			c := mustTrial(t, rn, r, m)
			counts[c]++
			for i := range m {
				sums[i] += m[i]
			}
			if m[0] < 1 || m[6] < 1 || m[4] > len(s.Heroes) || m[5] > len(s.Villains) {
				t.Fatalf("inconsistent metrics %v", m)
			}
			switch c {
			case 1: // (heroes may win with villains standing: Martyr)
				if m[4] != len(s.Heroes) {
					t.Fatalf("villains won with heroes standing: %v", m)
				}
			}
		}
		return counts, sums
	}
	const n = 4000
	counts, sums := run(1, n)
	t.Logf("categories %v: %v", s.Categories(), counts)
	for i, name := range s.Metrics() {
		t.Logf("mean %s = %.3f", name, float64(sums[i])/n)
	}
	if counts[0] < n/5 || counts[1] < n/5 {
		t.Errorf("the built-in encounter should be contested: %v", counts)
	}
	// Same seed, same results: no state carried between trials.
	c2, s2 := run(1, n)
	if d := cmp.Diff(counts, c2); d != "" {
		t.Errorf("not reproducible (-first +second):\n%s", d)
	}
	if d := cmp.Diff(sums, s2); d != "" {
		t.Errorf("metrics not reproducible (-first +second):\n%s", d)
	}
}
