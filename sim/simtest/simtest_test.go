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
		m, _ := mechanic(fine)
		if err := simtest.TestMechanic(m, opt); err != nil {
			t.Errorf("options %+v: the toy mechanic fails the kit:\n%v", opt, err)
		}
	}
}

func TestBrokenToysFail(t *testing.T) {
	quickHang := small
	quickHang.MutantTimeout = 100 * time.Millisecond
	shortGames := small
	shortGames.MaxSteps = 300
	const (
		determinism = simtest.CheckDeterminism
		saveRestore = simtest.CheckSaveRestore
		events      = simtest.CheckEvents
		outcome     = simtest.CheckOutcome
		atomic      = simtest.CheckAtomic
		mutation    = simtest.CheckMutation
		exact       = simtest.CheckExact
		describe    = simtest.CheckDescribe
	)
	tests := []struct {
		broken string
		opt    simtest.Options
		checks []string // the checks that fail, in sorted order
		says   string   // a part of some shortfall's message
	}{
		{runnerCounter, small, []string{determinism}, "report on 2 workers differs from the one on 1 worker"},
		{saveDrops, small, []string{saveRestore}, "after restoring, the step's events differ"},
		{refusedWrites, small, []string{atomic}, "changed the game: first difference"},
		{refusedRolls, small, []string{atomic}, "drew from the Roller"},
		{unsizedScores, small, []string{mutation}, "$.scores emptied: the mechanic panicked: runtime error: index out of range [0] with length 0 at simtest_test.(*scenario).roll (toy_test.go:"},
		{unboundedTurn, quickHang, []string{mutation}, "$.turn set to 2^31: hang"},
		{trustedSteps, small, []string{mutation}, "$.steps set to 2^31: restoring and playing it allocated"},
		{swappedExact, small, []string{exact}, "do not fit the exact answer"},
		{exactVaries, small, []string{exact}, "Exact call 2 answers with other bits than call 1: P[0] is"},
		{chooserIgnored, small, []string{atomic}, "no policy answer reached the Chooser"},
		{secretEvent, small, []string{events}, `(simtest_test.faulty): decoded from {"side":0} it differs from the original`},
		{staleSave, small, []string{saveRestore}, "before step 0: the restored game's Save gives the bytes handed to Restore, overwritten since"},
		{refusesEnd, small, []string{outcome, saveRestore}, "the state Save wrote was refused by Restore: a saved race: the game is over"},
		{refusesEnd, small, []string{outcome, saveRestore}, "at its end: restoring its save gave game <nil>, error a saved race: the game is over"},
		{nilEvent, small, []string{events}, "a nil event"},
		{funcEvent, small, []string{events}, "(simtest_test.callback): json.Marshal: json: unsupported type: func()"},
		{silentEvent, small, []string{events}, "(simtest_test.event): String() is empty"},
		{twoLineEvent, small, []string{events}, `(simtest_test.event): String() runs over more than one line: "a rolls\nand rolls"`},
		{clampsIllegal, small, []string{atomic}, "no step refused one: illegal answers are never refused"},
		{wrongTypeTaken, small, []string{atomic}, "an answer of another type than the policy's must be refused"},
		{acceptsMoreDice, small, []string{atomic}, "and succeeded, but Restore refuses the game it left: a saved race:"},
		{unknownStyles, small, []string{mutation}, `set to "bogus": accepted by Restore, it was refused by step 0`},
		{anyTarget, shortGames, []string{mutation}, "$.rules.target set to 2^31: accepted by Restore, it is still going after 300 steps"},
		{exactFails, small, []string{exact}, "exact: Exact: the chain is not ready"},
		{roundsFromOne, small, []string{exact}, "standard errors from the exact mean of rounds"},
		{roundsFromOne, small, []string{exact}, "do not fit the exact distribution of rounds"},
		{outcomeEarly, small, []string{outcome}, "before step 0: Outcome of a game still going gave category 1 and no error"},
		{outcomeRange, small, []string{outcome}, "at its end: its Outcome gave category 2; the scenario has 2 (0..1)"},
		{shortMetrics, small, []string{outcome}, "the mechanic panicked: runtime error: index out of range [0] with length 0 at simtest_test.(*game).Outcome"},
		{stepAfterDone, small, []string{outcome}, "at its end: a Step on a finished game returned no error"},
		{nilRollerPanics, small, []string{outcome}, "the mechanic panicked"},
		{nilRollerSteps, small, []string{outcome}, "before step 0: a Step with a nil Roller changed the game"},
		{listenerMatters, small, []string{outcome}, "ends in another game without a listener than with one"},
		{chooserRefused, small, []string{atomic}, "a step under a Chooser that handed back every answer as it was failed: this race takes no Chooser"},
		{outcomeCached, small, []string{outcome}, "restored, the finished game's Outcome is category 0, metrics"},
		{missingTerm, small, []string{describe}, `no Term says what metric "rounds" means`},
		{emptyTitle, small, []string{describe}, "Description.Title is empty"},
	}
	for _, tt := range tests {
		t.Run(tt.broken+"/"+tt.says, func(t *testing.T) {
			m, sc := mechanic(tt.broken)
			defer close(sc.hang)
			err := simtest.TestMechanic(m, tt.opt)
			t.Logf("the report:\n%v", err)
			checks, msgs := failed(err)
			if !slices.Equal(checks, tt.checks) {
				t.Fatalf("failed checks %q, want %q; the report:\n%v", checks, tt.checks, err)
			}
			if !slices.ContainsFunc(msgs, func(m string) bool { return strings.Contains(m, tt.says) }) {
				t.Errorf("no shortfall says %q; the report:\n%v", tt.says, err)
			}
			if len(msgs) > 6*len(tt.checks) {
				t.Errorf("%d shortfalls reported for %d checks; want at most 5 each and a count of the rest:\n%v", len(msgs), len(tt.checks), err)
			}
		})
	}
}

// TestExactSkipped shows that a scenario outside the exact model skips the
// exact check: the swapped answer is never given, so nothing fails.
func TestExactSkipped(t *testing.T) {
	m, sc := mechanic(swappedExact)
	sc.Rules.Target = 12
	if err := simtest.TestMechanic(m, small); err != nil {
		t.Errorf("a scenario whose Exact wraps markov.ErrNoExact fails:\n%v", err)
	}
}

// TestCapped shows that each check reports five shortfalls and counts the
// rest: the save check fails in every one of 20 games.
func TestCapped(t *testing.T) {
	opt := small
	opt.Games = 20
	m, _ := mechanic(saveDrops)
	_, msgs := failed(simtest.TestMechanic(m, opt))
	if len(msgs) != 6 || msgs[5] != "save/restore: 15 more not shown" {
		t.Errorf("the shortfalls of 20 failed games are reported as %d messages, the last %q; want 5 and \"save/restore: 15 more not shown\"", len(msgs), msgs[len(msgs)-1])
	}
}

// panicky is a mechanic whose Spec panics: the checks that sample it
// fail, naming the panic, and the others still run.
type panicky struct{ sim.Mechanic }

func (panicky) Spec(string) (sim.Spec, error) { panic("no spec today") }

func TestPanicFailsItsCheck(t *testing.T) {
	m, _ := mechanic(fine)
	err := simtest.TestMechanic(panicky{m}, small)
	checks, msgs := failed(err)
	if want := []string{simtest.CheckDeterminism, simtest.CheckExact}; !slices.Equal(checks, want) {
		t.Fatalf("failed checks %q, want %q; the report:\n%v", checks, want, err)
	}
	for _, m := range msgs {
		if !strings.Contains(m, ": the mechanic panicked: no spec today at simtest_test.panicky.Spec (simtest_test.go:") {
			t.Errorf("shortfall %q does not name the panic and where it happened", m)
		}
	}
}

func TestOptionsRefused(t *testing.T) {
	m, _ := mechanic(fine)
	for _, opt := range []simtest.Options{{Games: -1}, {MaxSteps: -1}, {Trials: -1}, {Mutants: -1}, {MaxAlloc: -1}, {MutantTimeout: -1}} {
		if err := simtest.TestMechanic(m, opt); err == nil || !strings.Contains(err.Error(), "negative option") {
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

// TestOnlyRunsTheNamedChecks: Options.Only runs the checks it names (the
// save/restore check too when the events or outcome check reads its
// games), so a mechanic broken elsewhere passes, and an unknown name is
// refused.
func TestOnlyRunsTheNamedChecks(t *testing.T) {
	for _, c := range []struct {
		only []string
		want []string
	}{
		{[]string{simtest.CheckDescribe}, nil},
		{[]string{simtest.CheckOutcome}, []string{"outcome"}},
	} {
		m, sc := mechanic(stepAfterDone)
		opt := small
		opt.Only = c.only
		err := simtest.TestMechanic(m, opt)
		close(sc.hang)
		if checks, _ := failed(err); !slices.Equal(checks, c.want) {
			t.Errorf("only %q: failed %q, want %q:\n%v", c.only, checks, c.want, err)
		}
	}
	m, sc := mechanic(stepAfterDone)
	defer close(sc.hang)
	opt := small
	opt.Only = []string{"speed"}
	if err := simtest.TestMechanic(m, opt); err == nil || !strings.Contains(err.Error(), `Options.Only names check "speed"; allowed`) {
		t.Errorf("an unknown check: %v", err)
	}
}
