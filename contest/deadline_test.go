package contest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim/markov"
)

// heavyChain is a valid scenario whose exact chain and decision process
// take seconds: forty extra dice a side can buy with a thousand Plot
// Points, against a gang of fifty d12s (every pool a distribution of its
// own).
func heavyChain() Scenario {
	sc := DefaultScenario()
	sc.Cast[0].PlotPoints, sc.Cast[1].PlotPoints, sc.Cast[1].Policy = 1000, 1000, "default"
	for range 40 {
		sc.Sides[0].Extra = append(sc.Sides[0].Extra, "Fear Gas")
		sc.Sides[1].Extra = append(sc.Sides[1].Extra, "Gadgets")
	}
	sc.Sides[0].Gang = make([]dice.Die, 50)
	for i := range sc.Sides[0].Gang {
		sc.Sides[0].Gang[i] = dice.D12
	}
	return sc
}

// Exact and Solve, model building included, stop with the context's error
// soon after its deadline (a loaded machine gets a second of slack; each
// state's work checks the context, so on an idle one it is a few
// milliseconds), and a cancelled context stops them before any work.
func TestExactAndSolveHonourTheirDeadline(t *testing.T) {
	sc := heavyChain()
	for name, run := range map[string]func(context.Context) error{
		"Exact": func(ctx context.Context) error { _, err := sc.Exact(ctx); return err },
		"Solve": func(ctx context.Context) error { _, err := sc.Solve(ctx, markov.Goal{}); return err },
		"timed Solve": func(ctx context.Context) error {
			_, err := frugalGM(timedScenario()).Solve(ctx, markov.Goal{})
			return err
		},
	} {
		for _, d := range []time.Duration{0, 30 * time.Millisecond, 300 * time.Millisecond, time.Second} {
			ctx, cancel := context.WithTimeout(context.Background(), d)
			start := time.Now()
			err := run(ctx)
			late := time.Since(start) - d
			cancel()
			if err == nil && late <= 0 {
				continue // finished in time
			}
			if !errors.Is(err, context.DeadlineExceeded) || late > time.Second {
				t.Errorf("%s under a %v deadline: %v, returned %v after it", name, d, err, late)
			}
		}
	}
}

// The exact chain's pool distributions are bounded before one is made: a
// model whose cache is full refuses the next pool with markov.ErrNoExact
// and makes nothing.
func TestExactBoundsItsPoolDistributions(t *testing.T) {
	m, _, err := DefaultScenario().chainModel(context.Background())
	must(t, err)
	m.distBytes = maxDistBytes - 100
	if jt := m.joint([]dice.Die{dice.D12, dice.D12, dice.D10}); jt != nil || !errors.Is(m.err, markov.ErrNoExact) || len(m.dists) != 0 {
		t.Errorf("joint %v, err %v, %d cached", jt, m.err, len(m.dists))
	}
}

// A pool's distribution is cached by its dice as a multiset: the same
// dice in another order read the same entry.
func TestExactCachesAPoolByItsDice(t *testing.T) {
	m, _, err := DefaultScenario().chainModel(context.Background())
	must(t, err)
	a := m.joint([]dice.Die{dice.D6, dice.D12, dice.D6})
	b := m.joint([]dice.Die{dice.D12, dice.D6, dice.D6})
	if len(m.dists) != 1 || &a[0] != &b[0] {
		t.Errorf("%d entries for one pool", len(m.dists))
	}
}

// Names and lists past their bounds are refused with an error of a few
// hundred bytes at most, whatever they hold: a megabyte name in the cast,
// in a side, in a pool, on a trait of a saved state; a million sides.
func TestOversizedInputRefusedBriefly(t *testing.T) {
	huge := strings.Repeat("x", 1<<20)
	cases := map[string]func(*Scenario){
		"cast name":  func(sc *Scenario) { sc.Cast[0].Name = huge },
		"side name":  func(sc *Scenario) { sc.Sides[0].Character = huge },
		"pool name":  func(sc *Scenario) { sc.Sides[0].Pool[0] = huge },
		"trait name": func(sc *Scenario) { sc.Cast[1].Traits[0].Name = huge },
		"kind":       func(sc *Scenario) { sc.Kind = huge },
		"sides":      func(sc *Scenario) { sc.Sides = make([]SideSpec, 1e6) },
		"pool":       func(sc *Scenario) { sc.Sides[0].Extra = make([]string, 1e6) },
	}
	for name, set := range cases {
		sc := DefaultScenario()
		set(&sc)
		err := sc.Validate()
		if err == nil || len(err.Error()) > 300 {
			t.Errorf("%s: %d bytes of error: %.300v", name, len(fmt.Sprint(err)), err)
		}
	}
	saved, err := start(t, DefaultScenario()).Save()
	must(t, err)
	big := bytes.Replace(saved, []byte(`"name":"Gadgets"`), []byte(`"name":"`+strings.Repeat("g", 1<<16)+`"`), 1)
	if _, err := DefaultScenario().Restore(big); err == nil || len(err.Error()) > 300 {
		t.Errorf("a saved state with a 64 KiB trait name: %.300v", err)
	}
}
