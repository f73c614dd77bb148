package dramadeck

import (
	"sync"
	"testing"

	"github.com/stakesrpg/stakes/dice"
)

// An Engine holds nothing but its policies and Sink, so copies of one play encounters
// on several goroutines at once, each on its own State, and each ends as
// the same encounter played alone ends (run under -race, a shared buffer
// or view shows up as a race).
func TestEngineCopiesPlayOnTheirOwnGoroutines(t *testing.T) {
	const n = 4
	sc := DefaultScenario()
	play := func(e Engine, seed uint64) (Outcome, []byte, int, error) {
		r := dice.NewSeeded(seed)
		gm, err := sc.Start(r)
		if err != nil {
			return Ongoing, nil, 0, err
		}
		s := gm.(*Game).State()
		events := 0
		e.Sink = func(Event) { events++ }
		if e.Policies, err = sc.Policies(); err != nil {
			return Ongoing, nil, 0, err
		}
		if err := e.Play(s, r); err != nil {
			return s.Outcome, nil, 0, err
		}
		b, err := s.Save()
		return s.Outcome, b, events, err
	}
	type result struct {
		o      Outcome
		saved  string
		events int
	}
	var e Engine
	alone := make([]result, n)
	for i := range alone {
		o, b, ev, err := play(e, uint64(i+1))
		if err != nil {
			t.Fatal(err)
		}
		alone[i] = result{o, string(b), ev}
	}
	together := make([]result, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range together {
		wg.Go(func() {
			copied := e
			o, b, ev, err := play(copied, uint64(i+1))
			together[i], errs[i] = result{o, string(b), ev}, err
		})
	}
	wg.Wait()
	for i := range together {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		if together[i] != alone[i] {
			t.Errorf("encounter %d: %v after %d events on its goroutine, %v after %d alone", i, together[i].o, together[i].events, alone[i].o, alone[i].events)
		}
		if alone[i].events == 0 || alone[i].o == Ongoing {
			t.Errorf("encounter %d: %d events, outcome %v: nothing was played", i, alone[i].events, alone[i].o)
		}
	}
}
