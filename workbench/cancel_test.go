package workbench

import (
	"context"
	"testing"
	"time"

	"github.com/stakesrpg/stakes/sim"
	"github.com/stakesrpg/stakes/sim/markov"
)

// TestEveryComputationStopsWhenAsked: for every mechanic's built-in
// scenario and a few heavy but valid ones, a simulation, the exact answer
// and best play each return within a second of a cancel that comes 100 ms
// in (whatever they had finished, or the context's error). The bound is
// measured here, once per computation, not against a loaded machine's
// clock elsewhere.
func TestEveryComputationStopsWhenAsked(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every mechanic's heavy computations")
	}
	type tc struct {
		name string
		sets []string
	}
	var cases []tc
	for _, m := range testMechanics {
		cases = append(cases, tc{m.Name, nil})
	}
	cases = append(cases,
		tc{"edge", []string{"rules.start_edge=30"}},
		tc{"challenge", []string{"rules.double_factor=20"}},
		tc{"actiontest", []string{"goal=40"}},
	)
	for _, c := range cases {
		sc := termsMechanic(c.name)
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
				t.Errorf("%s %v: %s still running a second after its cancel", c.name, c.sets, job.what)
				<-done
			}
			if late := time.Since(start); late > time.Second {
				t.Logf("%s %v: %s took %v after its cancel", c.name, c.sets, job.what, late)
			}
		}
	}
}
