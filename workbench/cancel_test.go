package workbench

import (
	"context"
	"testing"
	"time"

	"github.com/stakesrpg/stakes/sim"
	"github.com/stakesrpg/stakes/sim/markov"
)

// TestEveryComputationStopsWhenAsked: for every mechanic's built-in
// scenarios (its variants too) and a few heavy or pathological but valid
// ones, a simulation, the exact answer
// and best play each return within a second of a cancel that comes 100 ms
// in (whatever they had finished, or the context's error). The bound is
// measured here, once per computation, not against a loaded machine's
// clock elsewhere.
func TestEveryComputationStopsWhenAsked(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every mechanic's heavy computations")
	}
	type tc struct {
		name, variant string
		sets          []string
	}
	var cases []tc
	for _, m := range testMechanics {
		cases = append(cases, tc{name: m.Name})
		if b, ok := m.New().Scenario().(sim.Builtins); ok {
			for _, v := range b.BuiltinNames() {
				cases = append(cases, tc{name: m.Name, variant: v})
			}
		}
	}
	cases = append(cases,
		tc{name: "edge", sets: []string{"rules.start_edge=30"}},
		tc{name: "edge", sets: []string{"rules.start_edge=45", "rules.max_rounds=0"}},
		tc{name: "challenge", sets: []string{"rules.double_factor=20"}},
		tc{name: "actiontest", sets: []string{"goal=40"}},
		tc{name: "actiontest", sets: []string{"goal=100", "max_tests=100000"}},
		tc{name: "contest", sets: []string{"cast.0.plot_points=9", "cast.1.plot_points=9"}},
	)
	for _, c := range cases {
		sc := termsMechanic(c.name)
		if c.variant != "" {
			if err := useBuiltin(adapted{sc}, c.variant); err != nil {
				t.Fatalf("%s/%s: %v", c.name, c.variant, err)
			}
		}
		if err := applySets(adapted{sc}, c.sets); err != nil {
			t.Fatalf("%s %v: %v", c.name, c.sets, err)
		}
		for _, job := range []struct {
			what string
			run  func(ctx context.Context) error
		}{
			{"sim", func(ctx context.Context) error {
				spec, err := sc.Spec(c.name)
				if err == nil {
					_, err = sim.Run(ctx, spec, sim.Options{Trials: sim.MaxTrials, Seed: 1})
				}
				return err
			}},
			{"exact", func(ctx context.Context) error { _, err := sc.Exact(ctx); return err }},
			{"solve", func(ctx context.Context) error { _, err := sc.Solve(ctx, markov.Goal{}); return err }},
		} {
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan struct{})
			go func() {
				_ = job.run(ctx)
				close(done)
			}()
			time.Sleep(100 * time.Millisecond)
			cancel()
			start := time.Now()
			select {
			case <-done:
			case <-time.After(time.Second):
				t.Errorf("%s%s %v: %s still running a second after its cancel", c.name, slash(c.variant), c.sets, job.what)
				<-done
			}
			if late := time.Since(start); late > time.Second {
				t.Logf("%s%s %v: %s took %v after its cancel", c.name, slash(c.variant), c.sets, job.what, late)
			}
		}
	}
}

// slash is "/v" for a variant v, "" for none.
func slash(v string) string {
	if v == "" {
		return ""
	}
	return "/" + v
}
