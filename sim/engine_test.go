package sim

import (
	"context"
	"errors"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stakesrpg/stakes/dice"
)

// order is a test accumulator that records which chunks were merged into
// it, in the order they were.
type order struct{ chunks []int64 }

// orderPlan is a plan over order accumulators whose workers run chunk
// through run; it counts the accumulators it allocates.
func orderPlan(cfg config, workers int, run chunkFunc[*order]) (*plan[*order], *atomic.Int64) {
	var allocated atomic.Int64
	p := &plan[*order]{
		cfg:     cfg,
		workers: workers,
		start:   func(int) (chunkFunc[*order], error) { return run, nil },
		newAcc:  func() *order { allocated.Add(1); return new(order) },
		reset:   func(o *order) { o.chunks = o.chunks[:0] },
		merge:   func(dst, src *order) error { dst.chunks = append(dst.chunks, src.chunks...); return nil },
		total:   new(order),
	}
	return p, &allocated
}

func mustResolve(t *testing.T, opt Options) config {
	t.Helper()
	cfg, err := opt.resolve()
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// One worker is stalled inside a trial of its first chunk; the others run
// every other chunk meanwhile, rerunning the stalled chunk once the window
// is full, so the whole run is counted, in chunk order, before the stalled
// worker is let go; it then drops its chunk. Memory stays within
// maxAccumulators. Nothing here is timed: the stall lasts until the run
// has been counted to the end.
func TestStalledWorkerDoesNotHoldOthers(t *testing.T) {
	for _, tc := range []struct{ workers, chunks int }{
		{2, 5},   // within the window: the others never need to rerun it
		{2, 40},  // far beyond the window: the stalled chunk is rerun
		{3, 40},  // a third worker waits while one reruns the late chunk
		{7, 100}, // many workers
	} {
		cfg := mustResolve(t, Options{Trials: int64(tc.chunks) * 10, ChunkSize: 10, Workers: tc.workers})
		rerun := int64(tc.chunks) > windowFor(tc.workers)
		release := make(chan struct{})
		var stalled atomic.Bool  // one worker has stalled
		var resumed atomic.Int64 // trials the stalled worker ran after its stall
		var others atomic.Int64  // chunks the other workers finished
		run := func(chunk int64, n int, o *order, stop *atomic.Bool) (bool, error) {
			mine := stalled.CompareAndSwap(false, true)
			for k := range n {
				if stop.Load() {
					return false, nil
				}
				if mine && k == 0 {
					select {
					case <-release:
					case <-time.After(time.Minute):
						// Carry on, so that a failure ends the test rather than hangs it.
						t.Errorf("%+v: the stalled worker was never released: the others did not finish the run", tc)
					}
				}
				if mine {
					resumed.Add(1)
				}
			}
			o.chunks = append(o.chunks, chunk)
			// Within the window the stalled chunk is never rerun, so
			// release it once the others have run every other chunk.
			if !mine && others.Add(1) == int64(tc.chunks-1) && !rerun {
				close(release)
			}
			return true, nil
		}
		if rerun {
			// Beyond the window the stalled chunk is rerun by another
			// worker: release it once the whole run has been counted.
			cfg.Progress = func(done, total int64) {
				if done == total {
					close(release)
				}
			}
		}
		p, allocated := orderPlan(cfg, tc.workers, run)
		end, stop, err := p.execute(context.Background())
		if err != nil || stop != StopDone || end != int64(tc.chunks) {
			t.Fatalf("%+v: end %d, stop %q, err %v", tc, end, stop, err)
		}
		want := make([]int64, tc.chunks)
		for i := range want {
			want[i] = int64(i)
		}
		if !slices.Equal(p.total.chunks, want) {
			t.Errorf("%+v: chunks merged in order %v", tc, p.total.chunks)
		}
		if got := resumed.Load(); rerun && got != 1 || !rerun && got != 10 {
			t.Errorf("%+v: the stalled worker ran %d trials after its stall (rerun elsewhere: %v)", tc, got, rerun)
		}
		if n := allocated.Load(); n > maxAccumulators(tc.workers)-1 {
			t.Errorf("%+v: %d accumulators allocated besides the total; the bound is %d", tc, n, maxAccumulators(tc.workers)-1)
		}
	}
}

// Chunks that finish in scrambled order are still merged in chunk order,
// and a precision stop falls on the same chunk for any number of workers.
func TestCountedInChunkOrder(t *testing.T) {
	for _, workers := range []int{1, 2, 3, 7, 16} {
		cfg := mustResolve(t, Options{Trials: 2000, ChunkSize: 10, Workers: workers})
		run := func(chunk int64, n int, o *order, stop *atomic.Bool) (bool, error) {
			for range (chunk * 7919) % 13 { // chunks take uneven time
				runtime.Gosched()
			}
			o.chunks = append(o.chunks, chunk)
			return true, nil
		}
		p, _ := orderPlan(cfg, workers, run)
		p.enough = func(total *order, trials int64) bool { return len(total.chunks) == 150 }
		end, stop, err := p.execute(context.Background())
		if err != nil || stop != StopPrecision || end != 150 {
			t.Fatalf("%d workers: end %d, stop %q, err %v", workers, end, stop, err)
		}
		for i, c := range p.total.chunks {
			if c != int64(i) {
				t.Fatalf("%d workers: merge %d was chunk %d", workers, i, c)
			}
		}
	}
}

// A cancel reaches a worker in the middle of a chunk: it drops the chunk
// before its next trial.
func TestCancelReachesWorkersMidChunk(t *testing.T) {
	cfg := mustResolve(t, Options{Trials: 1 << 30, ChunkSize: MaxChunkSize, Workers: 3})
	var inside sync.WaitGroup
	inside.Add(3)
	run := func(chunk int64, n int, o *order, stop *atomic.Bool) (bool, error) {
		inside.Done()
		for !stop.Load() {
			runtime.Gosched()
		}
		return false, nil
	}
	p, _ := orderPlan(cfg, 3, run)
	ctx, cancel := context.WithCancel(context.Background())
	go func() { inside.Wait(); cancel() }()
	end, stop, err := p.execute(ctx)
	if err != nil || stop != StopCancelled || end != 0 {
		t.Errorf("end %d, stop %q, err %v", end, stop, err)
	}
}

// A worker looks at the stop flag before every trial, so a cancel during
// a slow trial costs at most that trial, in Run and in Compare alike.
func TestStopSeenBeforeEveryTrial(t *testing.T) {
	var stop atomic.Bool
	calls := 0
	trial := func(r *dice.Roller, o *Outcome) error {
		calls++
		if calls == 3 {
			stop.Store(true) // a cancel arriving during the third trial
		}
		return nil
	}
	ok, err := runChunks(trial, newStream(PCG, 1))(0, 1000, newTally(1, 0), &stop)
	if ok || err != nil || calls != 3 {
		t.Errorf("Run's chunk: ok %v, err %v after %d trials; want it dropped after 3", ok, err, calls)
	}
	stop.Store(false)
	calls = 0
	ok, err = pairChunks(trial, trial, newStream(PCG, 1), 1000)(0, 1000, newPairTally(1, 0), &stop)
	// Compare plays each trial as a pair, A then B: the pair under way
	// when the stop came is finished, no further pair is started.
	if ok || err != nil || calls != 4 {
		t.Errorf("Compare's chunk: ok %v, err %v after %d trial calls; want it dropped after 2 pairs", ok, err, calls)
	}
}

// Trials that take 20 ms each: a cancelled Run starts no trial after the
// ones under way when the cancel reached it. (Looking at the flag every 64
// trials, as the runner once did, it would start 128: 2.5 s more work.)
func TestCancelDuringSlowTrials(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var started atomic.Int64
	spec := Spec{Name: "slow", Categories: []string{"only"}, New: func() (Trial, error) {
		return func(r *dice.Roller, o *Outcome) error {
			if started.Add(1) == 4 {
				cancel()
			}
			time.Sleep(20 * time.Millisecond)
			return nil
		}, nil
	}}
	r, err := Run(ctx, spec, Options{Trials: 1000, ChunkSize: 500, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if r.Trials != 0 || !r.Provenance.Partial {
		t.Errorf("counted %d trials, partial %v", r.Trials, r.Provenance.Partial)
	}
	// Two workers, each finishing the trial it is in: about 5 started.
	// The margin allows the cancel to take half a second to reach them on
	// a loaded machine.
	if n := started.Load(); n > 60 {
		t.Errorf("%d trials started", n)
	}
	t.Logf("%d trials started", started.Load())
}

// A trial or Progress callback that ends its goroutine (runtime.Goexit,
// as t.FailNow does) ends the run with an error instead of hanging it.
func TestGoexitEndsRun(t *testing.T) {
	trialExits := Spec{Name: "exits", Categories: []string{"a"}, New: func() (Trial, error) {
		n := 0
		return func(r *dice.Roller, o *Outcome) error {
			if n++; n == 50 {
				runtime.Goexit()
			}
			return nil
		}, nil
	}}
	progressExits := Options{Trials: 1000, ChunkSize: 10, Workers: 2, Progress: func(done, _ int64) {
		if done == 100 {
			runtime.Goexit()
		}
	}}
	for _, tc := range []struct {
		name string
		spec Spec
		opt  Options
		want string
	}{
		{"trial", trialExits, Options{Trials: 1000, ChunkSize: 10, Workers: 2}, "a trial in chunk"},
		{"progress", diceSpec(), progressExits, "the Progress callback ended its goroutine (runtime.Goexit) after chunk 9"},
	} {
		r, err := Run(context.Background(), tc.spec, tc.opt)
		if r != nil || err == nil || !strings.Contains(err.Error(), "runtime.Goexit") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, %v; want an error naming runtime.Goexit and saying %q", tc.name, r, err, tc.want)
		}
	}
}

// The same seed gives the same report on any number of workers, with
// chunks small enough that they finish far out of order, for Run (with and
// without a precision stop), for shards of it, and for Compare.
func TestSameReportAnyWorkers(t *testing.T) {
	opts := map[string]Options{
		"plain":     {Seed: 11, Trials: 30_000, ChunkSize: 37},
		"precision": {Seed: 11, Trials: 1_000_000, ChunkSize: 37, Precision: 0.01},
		"shard":     {Seed: 11, Trials: 30_000, ChunkSize: 37, ChunkLo: 101, ChunkHi: 700},
		"chacha8":   {Seed: 11, Trials: 10_000, ChunkSize: 37, Generator: ChaCha8},
	}
	for name, opt := range opts {
		var first *Report
		for _, w := range []int{1, 2, 3, 7, 16} {
			opt.Workers = w
			r := mustRun(t, diceSpec(), opt)
			if first == nil {
				first = r
				continue
			}
			if d := cmp.Diff(first, r, sameNumbers); d != "" {
				t.Errorf("%s: %d workers differ from 1 (-1 +%d):\n%s", name, w, w, d)
			}
		}
		if name == "precision" && first.Provenance.Stop != StopPrecision {
			t.Errorf("precision run stopped: %q", first.Provenance.Stop)
		}
	}
	var first *Comparison
	for _, w := range []int{1, 2, 3, 7, 16} {
		c, err := Compare(context.Background(), diceSpec(), bonusSpec(1, false), Options{Seed: 4, Trials: 5000, ChunkSize: 37, Workers: w})
		if err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first = c
			continue
		}
		if d := cmp.Diff(first, c, sameNumbers); d != "" {
			t.Errorf("compare: %d workers differ from 1:\n%s", w, d)
		}
	}
}

// An error in a trial stops every worker and is returned whatever the
// window holds.
func TestErrorStopsRun(t *testing.T) {
	cfg := mustResolve(t, Options{Trials: 100_000, ChunkSize: 10, Workers: 3})
	boom := errors.New("boom")
	run := func(chunk int64, n int, o *order, stop *atomic.Bool) (bool, error) {
		if chunk == 57 {
			return false, boom
		}
		o.chunks = append(o.chunks, chunk)
		return true, nil
	}
	p, _ := orderPlan(cfg, 3, run)
	if _, _, err := p.execute(context.Background()); !errors.Is(err, boom) {
		t.Errorf("got %v, want boom", err)
	}
}
