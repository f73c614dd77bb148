package simtest_test

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stakesrpg/stakes/sim"
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
	for _, opt := range []simtest.Options{{}, small, {Seed: 7, Games: 3, Trials: 20_000, Mutants: 50}, {MaxSteps: 100, MutantTimeout: time.Minute, MaxAlloc: 8 << 20}} {
		if err := simtest.TestMechanic(toy{newScenario(fine)}, opt); err != nil {
			t.Errorf("options %+v: the toy mechanic fails the kit:\n%v", opt, err)
		}
	}
}

func TestBrokenToysFail(t *testing.T) {
	quickHang := small
	quickHang.MutantTimeout = 100 * time.Millisecond
	shortGames := small
	shortGames.MaxSteps = 300
	tests := []struct {
		broken string
		opt    simtest.Options
		check  string
		says   string // a part of some shortfall's message
	}{
		{runnerCounter, small, simtest.CheckDeterminism, "report on 2 workers differs from the one on 1 worker"},
		{saveDrops, small, simtest.CheckSaveRestore, "after restoring, the step's events differ"},
		{refusedWrites, small, simtest.CheckAtomic, "changed the state"},
		{refusedRolls, small, simtest.CheckAtomic, "drew from the Roller"},
		{unsizedScores, small, simtest.CheckMutation, "$.scores emptied: the mechanic panicked: runtime error: index out of range [0] with length 0 at simtest_test.(*scenario).step (toy_test.go:"},
		{unboundedTurn, quickHang, simtest.CheckMutation, "$.turn set to 2^31: hang"},
		{trustedSteps, small, simtest.CheckMutation, "$.steps set to 2^31: restoring and playing it allocated"},
		{swappedExact, small, simtest.CheckExact, "do not fit the exact answer"},
		{secretEvent, small, simtest.CheckEvents, `(simtest_test.faulty): decoded from {"side":0} it differs from the original`},
		{staleSave, small, simtest.CheckSaveRestore, "before step 0: the restored game's Save gives the bytes handed to Restore, overwritten since"},
		{refusesEnd, small, simtest.CheckSaveRestore, "the state Save wrote was refused by Restore: the game is over"},
		{nilEvent, small, simtest.CheckEvents, "a nil event"},
		{funcEvent, small, simtest.CheckEvents, "(simtest_test.callback): json.Marshal: json: unsupported type: func()"},
		{clampsIllegal, small, simtest.CheckAtomic, "a step answered illegally returned no error"},
		{unknownStyles, small, simtest.CheckMutation, `set to "bogus": accepted by Restore, it was refused by step 0`},
		{anyTarget, shortGames, simtest.CheckMutation, "$.rules.target set to 2^31: accepted by Restore, it is still going after 300 steps"},
		{exactFails, small, simtest.CheckExact, "exact: Exact: the chain is not ready"},
		{roundsFromOne, small, simtest.CheckExact, "standard errors from the exact mean of rounds"},
		{roundsFromOne, small, simtest.CheckExact, "do not fit the exact distribution of rounds"},
	}
	for _, tt := range tests {
		t.Run(tt.broken+"/"+tt.says, func(t *testing.T) {
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
			if len(msgs) > 6 {
				t.Errorf("%d shortfalls reported for one check; want at most 5 and a count of the rest:\n%v", len(msgs), err)
			}
		})
	}
}

// TestExactSkipped shows that a scenario outside the exact model skips the
// exact check: the swapped answer is never given, so nothing fails.
func TestExactSkipped(t *testing.T) {
	sc := newScenario(swappedExact)
	sc.Rules.Target = 12
	if err := simtest.TestMechanic(toy{sc}, small); err != nil {
		t.Errorf("a scenario whose Exact wraps markov.ErrNoExact fails:\n%v", err)
	}
}

// TestCapped shows that each check reports five shortfalls and counts the
// rest: the save check fails in every one of 20 games.
func TestCapped(t *testing.T) {
	opt := small
	opt.Games = 20
	_, msgs := failed(simtest.TestMechanic(toy{newScenario(saveDrops)}, opt))
	if len(msgs) != 6 || msgs[5] != "save/restore: 15 more not shown" {
		t.Errorf("the shortfalls of 20 failed games are reported as %d messages, the last %q; want 5 and \"save/restore: 15 more not shown\"", len(msgs), msgs[len(msgs)-1])
	}
}

// panicky is a toy whose Scenario panics: the checks that sample it fail,
// naming the panic, and the others still run.
type panicky struct{ toy }

func (panicky) Scenario() sim.Mechanic { panic("no scenario today") }

func TestPanicFailsItsCheck(t *testing.T) {
	err := simtest.TestMechanic(panicky{toy{newScenario(fine)}}, small)
	checks, msgs := failed(err)
	if want := []string{simtest.CheckDeterminism, simtest.CheckExact}; !slices.Equal(checks, want) {
		t.Fatalf("failed checks %q, want %q; the report:\n%v", checks, want, err)
	}
	for _, m := range msgs {
		if !strings.Contains(m, ": the mechanic panicked: no scenario today at simtest_test.panicky.Scenario (simtest_test.go:") {
			t.Errorf("shortfall %q does not name the panic and where it happened", m)
		}
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
