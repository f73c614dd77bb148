package sim

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

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
	wantTrialError(t, "sweep", err, "sweep cell [reckless]: sim: reckless: trial 4 of chunk 0: ")
}
