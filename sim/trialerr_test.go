package sim

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"github.com/stakesrpg/stakes/dice"
)

// illegalAnswer is an error a rule package's trial might return: a policy
// answered a question illegally.
type illegalAnswer struct {
	Policy string
	Answer int
}

func (e *illegalAnswer) Error() string {
	return fmt.Sprintf("policy %q answered %d dice; allowed 1..3", e.Policy, e.Answer)
}

// failingSpec plays d6 trials and fails the failAt-th trial each worker
// plays (counting from 1), or every trial when failAt is 0.
func failingSpec(name string, failAt int) Spec {
	return Spec{Name: name, Categories: []string{"low", "high"}, Metrics: []string{"face"},
		New: func() (Trial, error) {
			n := 0
			return func(r *dice.Roller, o *Outcome) error {
				n++
				if failAt == 0 || n == failAt {
					return &illegalAnswer{Policy: "reckless", Answer: 7}
				}
				o.Metrics[0] = r.Roll(6)
				if o.Metrics[0] > 3 {
					o.Category = 1
				}
				return nil
			}, nil
		}}
}

// wantTrialError checks that err is the trial's error, reachable by
// errors.As, and says where and what.
func wantTrialError(t *testing.T, what string, err error, says ...string) {
	t.Helper()
	var ill *illegalAnswer
	if !errors.As(err, &ill) || ill.Answer != 7 {
		t.Fatalf("%s: error %v does not wrap the trial's *illegalAnswer", what, err)
	}
	if errors.Is(err, ErrInvalid) {
		t.Errorf("%s: a trial's error is counted as bad input (ErrInvalid): %v", what, err)
	}
	for _, s := range append(says, `policy "reckless" answered 7 dice; allowed 1..3`) {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("%s: error %q does not say %q", what, err, s)
		}
	}
}

// TestRunStopsWithTheTrialsError: a trial that fails (a policy's illegal
// answer, say) stops the run, with no report, and the error names the
// spec, the chunk and the trial. On one worker the chunks run in order,
// so the 137th trial is trial 36 of chunk 2 (both counted from 0).
func TestRunStopsWithTheTrialsError(t *testing.T) {
	rep, err := Run(context.Background(), failingSpec("reckless", 137), Options{Trials: 1000, Workers: 1, ChunkSize: 50})
	if rep != nil {
		t.Errorf("a failed run gave a report of %d trials", rep.Trials)
	}
	wantTrialError(t, "1 worker", err, "sim: reckless: trial 36 of chunk 2: ")
	// On several workers every trial fails: whichever fails first is named.
	_, err = Run(context.Background(), failingSpec("reckless", 0), Options{Trials: 10_000, Workers: 4, ChunkSize: 100})
	wantTrialError(t, "4 workers", err, "sim: reckless: trial 0 of chunk ")
}

// TestFromRunnerCarriesTheRunnersError: a rule package's Runner returns
// its error with no category, and the run stops with it.
func TestFromRunnerCarriesTheRunnersError(t *testing.T) {
	spec := Spec{Name: "pair", Categories: []string{"doubles", "other"}, Metrics: []string{"first", "second"},
		New: FromRunner(func() (*failingRunner, error) { return &failingRunner{}, nil }, 2)}
	_, err := Run(context.Background(), spec, Options{Trials: 100, Workers: 1, ChunkSize: 10})
	wantTrialError(t, "runner", err, "sim: pair: trial 4 of chunk 1: ")
}

// failingRunner fails its 15th trial.
type failingRunner struct{ n int }

func (f *failingRunner) Trial(r *dice.Roller, metrics []int) (int, error) {
	if f.n++; f.n == 15 {
		return 1, &illegalAnswer{Policy: "reckless", Answer: 7}
	}
	metrics[0], metrics[1] = r.Roll(6), r.Roll(6)
	return 0, nil
}

// TestCompareStopsWithTheTrialsError: the comparison stops with the
// failing variant's error, naming the variant.
func TestCompareStopsWithTheTrialsError(t *testing.T) {
	ok := failingSpec("careful", -1) // never fails
	bad := failingSpec("reckless", 61)
	c, err := Compare(context.Background(), ok, bad, Options{Trials: 1000, Workers: 1, ChunkSize: 20})
	if c != nil {
		t.Error("a failed comparison gave a result")
	}
	wantTrialError(t, "variant B", err, "sim: compare careful vs reckless: trial 0 of chunk 3, variant B: ")
	_, err = Compare(context.Background(), bad, ok, Options{Trials: 1000, Workers: 1, ChunkSize: 20})
	wantTrialError(t, "variant A", err, "trial 0 of chunk 3, variant A: ")
}

// TestSweepStopsWithTheTrialsError: the sweep stops at the cell whose
// trial failed, naming the cell, the chunk and the trial.
func TestSweepStopsWithTheTrialsError(t *testing.T) {
	axes := []Axis{{Name: "policy", Values: []string{"careful", "reckless"}}}
	build := func(c Cell) (Spec, error) {
		if c["policy"] == "reckless" {
			return failingSpec("reckless", 5), nil
		}
		return failingSpec("careful", -1), nil
	}
	sr, err := Sweep(context.Background(), axes, build, Options{Trials: 200, Workers: 1, ChunkSize: 50})
	if sr != nil {
		t.Error("a failed sweep gave a result")
	}
	wantTrialError(t, "sweep", err, `sweep cell ["reckless"]: sim: reckless: trial 4 of chunk 0: `)
}

// goroutineID reads the running goroutine's number from its stack header.
func goroutineID() string {
	buf := make([]byte, 64)
	buf = buf[:runtime.Stack(buf, false)]
	id, _, _ := strings.Cut(strings.TrimPrefix(string(buf), "goroutine "), " ")
	return id
}

// TestNewRunsOnEachWorker: each worker's New runs on that worker's own
// goroutine (not the caller's), one call at a time, before any trial.
func TestNewRunsOnEachWorker(t *testing.T) {
	caller := goroutineID()
	var mu sync.Mutex
	ids := map[string]bool{}
	var inNew, trials atomic.Int32
	spec := Spec{Name: "where", Categories: []string{"a"}, New: func() (Trial, error) {
		if inNew.Add(1) != 1 {
			t.Error("two New calls at once")
		}
		defer inNew.Add(-1)
		if trials.Load() != 0 {
			t.Error("New called after a trial ran")
		}
		mu.Lock()
		ids[goroutineID()] = true
		mu.Unlock()
		time.Sleep(time.Millisecond) // a second call would overlap this one
		return func(*dice.Roller, *Outcome) error { trials.Add(1); return nil }, nil
	}}
	if _, err := Run(context.Background(), spec, Options{Trials: 1000, Workers: 4, ChunkSize: 10}); err != nil {
		t.Fatal(err)
	}
	if len(ids) != 4 || ids[caller] {
		t.Errorf("New ran on goroutines %v (the caller is %s); want 4 workers' own", ids, caller)
	}
}

// TestNewFailingStopsBeforeAnyTrial: an error, a panic or a Goexit in one
// worker's New stops the run (Run and Compare) before any trial, with
// the error as New gave it, or naming the panic.
func TestNewFailingStopsBeforeAnyTrial(t *testing.T) {
	bad := errors.New("no scenario")
	for _, tc := range []struct {
		name string
		fail func() error
		want string
	}{
		{"error", func() error { return bad }, "sim: failing: New: no scenario"},
		{"panic", func() error { panic("bad table") }, "panicked: bad table"},
		{"goexit", func() error { runtime.Goexit(); return nil }, "ended its goroutine (runtime.Goexit)"},
	} {
		var calls, trials atomic.Int32
		spec := Spec{Name: "failing", Categories: []string{"a"}, New: func() (Trial, error) {
			if calls.Add(1) == 3 {
				if err := tc.fail(); err != nil {
					return nil, err
				}
			}
			return func(*dice.Roller, *Outcome) error { trials.Add(1); return nil }, nil
		}}
		rep, err := Run(context.Background(), spec, Options{Trials: 100_000, Workers: 4})
		if rep != nil || err == nil || !strings.Contains(err.Error(), tc.want) || trials.Load() != 0 {
			t.Errorf("%s: Run gave %v, %v after %d trials; want %q and no trial", tc.name, rep, err, trials.Load(), tc.want)
		}
		if tc.name == "error" && !errors.Is(err, bad) {
			t.Errorf("error: %v does not wrap New's error", err)
		}
		calls.Store(0)
		c, err := Compare(context.Background(), spec, spec, Options{Trials: 100_000, Workers: 2})
		if c != nil || err == nil || !strings.Contains(err.Error(), tc.want) || trials.Load() != 0 {
			t.Errorf("%s: Compare gave %v, %v after %d trials; want %q and no trial", tc.name, c, err, trials.Load(), tc.want)
		}
	}
}

// TestWorkersScratchApart: the scratch two workers' New makes lies at
// least two cache lines apart (so the workers do not fight over a line on
// every trial), in all but a rare run where the allocator reuses a freed
// place; made one after another on one goroutine, it lay side by side in
// 198 runs of 200.
func TestWorkersScratchApart(t *testing.T) {
	for _, size := range []string{"8 bytes", "48 bytes", "48 bytes with pointers", "200 bytes"} {
		near := 0
		for range 100 {
			var mu sync.Mutex
			var addrs []unsafe.Pointer // keeps the scratch on the heap
			spec := Spec{Name: "apart", Categories: []string{"a"}, New: func() (Trial, error) {
				var p unsafe.Pointer
				switch size {
				case "8 bytes":
					p = unsafe.Pointer(new(int64))
				case "48 bytes":
					p = unsafe.Pointer(new([6]int))
				case "48 bytes with pointers":
					p = unsafe.Pointer(new([6]*int))
				default:
					p = unsafe.Pointer(new([25]int))
				}
				mu.Lock()
				addrs = append(addrs, p)
				mu.Unlock()
				return func(*dice.Roller, *Outcome) error { return nil }, nil
			}}
			if _, err := Run(context.Background(), spec, Options{Trials: 1000, ChunkSize: 100, Workers: 2}); err != nil {
				t.Fatal(err)
			}
			if d := int64(uintptr(addrs[0])) - int64(uintptr(addrs[1])); d > -128 && d < 128 {
				near++
			}
		}
		if near > 5 {
			t.Errorf("%s: %d runs of 100 put the two workers' scratch within 128 bytes", size, near)
		}
	}
}
