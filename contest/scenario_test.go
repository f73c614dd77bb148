package contest

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
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

// A scenario whose pool costs Plot Points every roll (a trait named twice,
// or one past the free ones) is refused when it is validated, saying why
// and what to do, rather than failing trial after trial in a simulation.
func TestScenarioPoolNamingATraitTwiceIsRefused(t *testing.T) {
	for _, pool := range [][]string{
		{"Justice", "Gotham", "Justice"},
		{"Justice", "Gotham", "World's Greatest", "aspect:Rain"},
	} {
		s := DefaultScenario()
		s.Aspects = []Trait{{Name: "Rain", Kind: Aspect, Die: dice.D8}}
		s.Sides[1].Pool = pool
		for _, err := range []error{s.Validate(), func() error { _, err := s.NewRunner(); return err }()} {
			if err == nil || !strings.Contains(err.Error(), "sides[1].pool costs 1 Plot Points") || !strings.Contains(err.Error(), "extra") {
				t.Errorf("pool %v: %v", pool, err)
			}
		}
		if _, err := s.Exact(context.Background()); err == nil {
			t.Errorf("pool %v: exact odds given", pool)
		}
	}
}
