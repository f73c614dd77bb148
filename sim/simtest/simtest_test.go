package simtest_test

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stakesrpg/stakes/sim/simtest"
)

// small keeps the kit's own tests quick, under the race detector too.
var small = simtest.Options{Games: 6, Trials: 4000, Mutants: 300, MaxAlloc: 1 << 20}

// failed returns the names of the checks err reports shortfalls of, and
// the messages of those shortfalls.
func failed(err error) (checks []string, msgs []string) {
	var walk func(error)
	walk = func(err error) {
		if j, ok := err.(interface{ Unwrap() []error }); ok {
			for _, e := range j.Unwrap() {
				walk(e)
			}
			return
		}
		msg := err.Error()
		msgs = append(msgs, msg)
		name, _, _ := strings.Cut(msg, ": ")
		if !slices.Contains(checks, name) {
			checks = append(checks, name)
		}
	}
	if err != nil {
		walk(err)
	}
	slices.Sort(checks)
	return checks, msgs
}

func TestToyPasses(t *testing.T) {
	for _, opt := range []simtest.Options{{}, small, {Seed: 7, Games: 3, Trials: 20_000, Mutants: 50}} {
		if err := simtest.TestMechanic(toy{newScenario(fine)}, opt); err != nil {
			t.Errorf("options %+v: the toy mechanic fails the kit:\n%v", opt, err)
		}
	}
}

func TestBrokenToysFail(t *testing.T) {
	quickHang := small
	quickHang.MutantTimeout = 100 * time.Millisecond
	tests := []struct {
		broken string
		opt    simtest.Options
		check  string
		says   string // a part of some shortfall's message
	}{
		{runnerCounter, small, simtest.CheckDeterminism, "report on 2 workers differs from the one on 1"},
		{saveDrops, small, simtest.CheckSaveRestore, "after restoring, the step's events differ"},
		{refusedWrites, small, simtest.CheckAtomic, "changed the state"},
		{refusedRolls, small, simtest.CheckAtomic, "drew from the Roller"},
		{unsizedScores, small, simtest.CheckMutation, "$.scores emptied: the mechanic panicked"},
		{unboundedTurn, quickHang, simtest.CheckMutation, "$.turn set to 2^31: hang"},
		{trustedSteps, small, simtest.CheckMutation, "$.steps set to 2^31: restoring and playing it allocated"},
		{swappedExact, small, simtest.CheckExact, "do not fit the exact answer"},
		{secretEvent, small, simtest.CheckEvents, "(simtest_test.faulty): decoded from"},
	}
	for _, tt := range tests {
		t.Run(tt.broken, func(t *testing.T) {
			sc := newScenario(tt.broken)
			defer close(sc.hang)
			err := simtest.TestMechanic(toy{sc}, tt.opt)
			t.Logf("the report:\n%v", err)
			checks, msgs := failed(err)
			if !slices.Equal(checks, []string{tt.check}) {
				t.Fatalf("failed checks %q, want only %q; the report:\n%v", checks, tt.check, err)
			}
			if !slices.ContainsFunc(msgs, func(m string) bool { return strings.Contains(m, tt.says) }) {
				t.Errorf("no shortfall says %q; the report:\n%v", tt.says, err)
			}
			if len(msgs) > 7 {
				t.Errorf("%d shortfalls reported for one check; want at most 5 and a count of the rest:\n%v", len(msgs), err)
			}
		})
	}
}

func TestOptionsRefused(t *testing.T) {
	for _, opt := range []simtest.Options{{Games: -1}, {MaxSteps: -1}, {Trials: -1}, {Mutants: -1}, {MaxAlloc: -1}, {MutantTimeout: -1}} {
		if err := simtest.TestMechanic(toy{newScenario(fine)}, opt); err == nil || !strings.Contains(err.Error(), "negative option") {
			t.Errorf("options %+v: error %v, want a refusal of the negative option", opt, err)
		}
	}
	if err := simtest.TestMechanic(nil, simtest.Options{}); err == nil {
		t.Error("a nil Mechanic passed")
	}
}

// errorsJoined checks that failed reads errors.Join trees as the kit makes them.
func TestFailedReadsJoins(t *testing.T) {
	err := errors.Join(errors.Join(errors.New("atomic: x"), errors.New("atomic: y")), errors.New("exact: z"))
	checks, msgs := failed(err)
	if !slices.Equal(checks, []string{"atomic", "exact"}) || len(msgs) != 3 {
		t.Errorf("failed gives %q and %q", checks, msgs)
	}
}
