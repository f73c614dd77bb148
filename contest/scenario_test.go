package contest

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"

	"github.com/stakesrpg/stakes/dice"
)

func TestDefaultScenarioRuns(t *testing.T) {
	sc := DefaultScenario()
	if err := sc.Validate(); err != nil {
		t.Fatal(err)
	}
	rn, err := sc.NewRunner()
	if err != nil {
		t.Fatal(err)
	}
	r := dice.NewSeeded(1)
	m := make([]int, len(sc.Metrics()))
	counts := make([]int, len(sc.Categories()))
	for i := 0; i < 2000; i++ {
		c := rn.Trial(r, m)
		if c < 0 {
			t.Fatal("trial rejected")
		}
		counts[c]++
		if m[0] < 1 {
			t.Fatalf("a contest with %d rolls", m[0])
		}
	}
	t.Log(sc.Categories(), counts)
	allocs := testing.AllocsPerRun(200, func() { rn.Trial(r, m) })
	if allocs != 0 {
		t.Errorf("Trial allocates %v per run", allocs)
	}
}

func TestScenarioJSON(t *testing.T) {
	sc := DefaultScenario()
	b, err := json.Marshal(sc)
	if err != nil {
		t.Fatal(err)
	}
	var back Scenario
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&back); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	if err := back.Validate(); err != nil {
		t.Fatal(err)
	}
}

// A base pool that costs a Plot Point every roll fails once the points run
// out; the runner says why instead of only returning -1.
func TestRunnerErrSaysWhy(t *testing.T) {
	s := DefaultScenario()
	s.Aspects = []Trait{{Name: "Rain", Kind: Aspect, Die: dice.D8}}
	s.Sides[1].Pool = append(s.Sides[1].Pool, "aspect:Rain") // a fourth trait: one Plot Point a roll
	rn, err := s.NewRunner()
	if err != nil {
		t.Fatal(err)
	}
	if rn.Err() != nil {
		t.Fatalf("fresh runner has error %v", rn.Err())
	}
	r := dice.NewSeeded(5)
	m := make([]int, len(s.Metrics()))
	for i := 0; i < 1000; i++ {
		if c := rn.Trial(r, m); c < 0 {
			if err := rn.Err(); err == nil || !errors.Is(err, ErrPlotPoints) {
				t.Fatalf("trial %d failed with Err() = %v, want ErrPlotPoints", i, err)
			}
			return
		}
	}
	t.Fatal("no trial ran out of Plot Points")
}
