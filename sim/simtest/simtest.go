// Package simtest is the conformance kit for mechanics: one call checks a
// mechanic (ours or a third party's) against the whole contract the rest
// of stakes relies on, and reports every way it falls short, in the manner
// of testing/fstest.
//
// The kit knows no rule package and needs no adapter: it drives the
// mechanic only through sim.Mechanic (Spec, Exact, Start, Restore,
// Describe) and the games it makes, through sim.Game. A mechanic's
// conformance test is its scenario adapted with sim.Adapt:
//
//	func TestConformance(t *testing.T) {
//		m := sim.Adapt[*race.Runner]("race", race.DefaultScenario())
//		if err := simtest.TestMechanic(m, simtest.Options{}); err != nil {
//			t.Fatal(err)
//		}
//	}
//
// Game g of a check is started with m.Start on its own Roller,
// dice.NewRoller(rand.NewPCG(Seed, g)). The checks, and the name that
// begins each of their errors:
//
//  1. determinism: the scenario's Spec run by sim.Run with one seed on 1,
//     2 and 7 workers gives byte-identical report JSON once the wall time
//     (Report.Elapsed) and the worker count (Provenance.Workers) are
//     zeroed. The runs are of at most 2,000 trials in chunks of 64, so
//     every worker gets chunks.
//  2. save/restore: Options.Games games are played to their end, hearing
//     the events of every step with Game.Listen. Each is played again, and
//     before its first step and after every step the game (Game.Save) and
//     its Roller (MarshalBinary) are saved and restored into fresh values
//     (m.Restore, and UnmarshalBinary into a zero dice.Roller), and play
//     goes on from those; each step must give the same events and the same
//     Done as before. Events are compared field by field, unexported
//     fields included, with a nil slice or map equal to an empty one.
//     Saving the restored game must give the very bytes it was restored
//     from (Save writes one encoding of a game, as encoding/json does), and
//     the bytes handed to Restore are overwritten once it returns, so a
//     game that keeps them instead of copying shows it. A game that fails
//     a step, or is still going after Options.MaxSteps steps, fails here.
//  3. events: every event those games produced is non-nil; its String is
//     one line, not empty; and, encoded by json.Marshal and decoded into a
//     new value of its own dynamic type (reflect.New), it equals the
//     original (compared as in the save/restore check). Each event type is
//     reported once for each way it falls short.
//  4. outcome: each game is played once more, without a listener. Before
//     every step, Outcome must be an error (the game is still going), and
//     before steps 0, 1, 2, 4, 8, ..., Step with a nil Roller must be an
//     error that changes nothing (Save gives the same bytes). At the end, Outcome must give a category in
//     range of the scenario's Categories and fill a metrics slice of any
//     length up to the scenario's Metrics without panicking (a shorter
//     slice gets the first values); Step on the finished game, with a
//     Roller or without, must be an error that changes neither the game
//     nor the Roller; the game restored from its save must give the same
//     outcome; and the game must end in the same state as when it was
//     played with a listener (hearing events changes no play).
//  5. atomic: each game is played once more; before about one step in
//     three (a seeded choice) the kit sets a Chooser with Game.Intercept,
//     takes the step, and clears it. The Chooser hands back about half of
//     the policies' answers mutated by reflection (on a copy, so nothing
//     the game holds is touched): integers set to -1, to a length found in
//     the view or the answer itself plus 1 to 5, to the largest value of
//     their type and to the smallest; unsigned integers likewise, where
//     they can go; floats to NaN, -1 and +Inf; strings to "bogus"; booleans
//     flipped; slices emptied, grown by a copy of one of their elements, or
//     with one element mutated; arrays with one element mutated; structs
//     with one exported field mutated; pointers pointing to a mutated copy
//     of what they pointed to. A value it cannot mutate (a nil pointer, an
//     empty slice, a map, a func) is handed back as it is and not counted.
//     On about one chaos step in four the Chooser instead answers with a
//     value of a type no mechanic uses (or nil). A step the Chooser made
//     fail must change nothing: Save gives the same bytes, the Roller
//     the same MarshalBinary bytes, and a listener set with Game.Listen
//     hears none of its events. A step that succeeded with a mutated
//     answer (a mutation can be legal) must leave a game that saves and
//     whose save Restore accepts. An answer of the wrong type must be
//     refused, and a step whose answers came back unchanged must succeed.
//     Over all games, if any answer was mutated, some step must have been
//     refused: a mechanic that takes whatever it is told fails.
//  6. mutation: the games saved by the first three games before steps 0,
//     1, 2, 4, 8, ... and at the end are decoded (numbers kept exact) and
//     mutated one change at a time: each number set to -1, 0, 2^31 and
//     2^53, each string to "bogus", each boolean flipped, each non-empty
//     array emptied and given a copy of its first element at its end, each
//     object key dropped. At most Options.Mutants of them, a seeded sample,
//     are handed to Restore. A refusal is the wanted outcome; a game
//     Restore accepts must play to its end within Options.MaxSteps steps
//     with no step refusing it (a restored game is checked whole). A
//     panic, a hang (Options.MutantTimeout), or more than Options.MaxAlloc
//     bytes allocated between the start of Restore and the end of play
//     fails. The bytes are counted by runtime.MemStats.TotalAlloc, which
//     counts the whole process: run the kit outside parallel tests. The
//     bound is checked after the fact; an allocation of gigabytes may end
//     the process first. A hung game's goroutine is left behind.
//  7. exact: where Exact answers (an error wrapping markov.ErrNoExact
//     skips the check; any other error fails it), it must answer with the
//     same bits on three calls (every float compared by math.Float64bits),
//     and Options.Trials trials at Options.Seed must fit its category
//     probabilities by a chi-square test (gof.ChiSquare, sparse cells
//     pooled) with a p-value of at least 1e-4. Where the answer gives the
//     rounds, metric 0 must fit them too: its mean within 5 standard
//     errors of MeanRounds, its histogram against Rounds by the same
//     chi-square test. The seed is fixed, so the check never flakes.
//  8. describe: Describe's Summary and Title are each one line, not empty;
//     every Term has a Key and a Text; and every category and metric name
//     of the scenario is covered by a Term, its exact Key or a "*suffix"
//     Key matching a longer name that ends in the suffix.
//
// Each check reports at most five shortfalls, then how many more it found;
// the mutation check stops at five, since each may have cost a timeout.
// A panic in the mechanic fails the check it happened in, naming the
// functions where it happened. With the default options the kit plays
// about 80 games step by step, up to 1,000 mutated ones, and 26,000
// trials: about a second for a mechanic whose game is about 200 steps,
// several seconds under the race detector.
package simtest

import (
	"errors"
	"fmt"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/stakesrpg/stakes/named"
	"github.com/stakesrpg/stakes/sim"
)

// Options tunes the kit. The zero value of each field picks its default.
type Options struct {
	// NoChoices says the mechanic's games ask their policies nothing, so
	// the atomic check does not require answers to reach the Chooser.
	NoChoices bool
	// Seed fixes every random choice of the kit (default 1).
	Seed uint64
	// Games is how many games are played step by step for the
	// save/restore, outcome, atomic and mutation checks (default 20).
	Games int
	// MaxSteps bounds the steps of one game, restored or not (default
	// 10,000): a game still going after it fails the check.
	MaxSteps int
	// Trials is the sample of the chi-square checks (default 20,000); the
	// determinism check runs at most 2,000 of them on each worker count.
	Trials int64
	// Mutants bounds how many mutated states are tried (default 1,000): a
	// seeded sample when there are more.
	Mutants int
	// MaxAlloc bounds the bytes one mutated state may allocate while it is
	// restored and played to its end (default 64 MiB).
	MaxAlloc int64
	// MutantTimeout bounds the wall time one mutated state may take to be
	// restored and played to its end (default 10 s); past it the state
	// counts as a hang.
	MutantTimeout time.Duration
	// Only, when set, names the checks to run (CheckSaveRestore, ...);
	// every check runs when it is empty. A mechanic's tests use it to run
	// one check over many variants of a scenario, such as the save/restore
	// check under every mix of its shipped policies.
	Only []string
}

// Defaults of Options.
const (
	DefaultSeed          = 1
	DefaultGames         = 20
	DefaultMaxSteps      = 10_000
	DefaultTrials        = 20_000
	DefaultMutants       = 1_000
	DefaultMaxAlloc      = 64 << 20
	DefaultMutantTimeout = 10 * time.Second
)

// maxShortfalls caps the errors one check reports, so that a badly broken
// mechanic still gives a readable report.
const maxShortfalls = 5

// withDefaults fills the zero fields of o and refuses negative ones.
func (o Options) withDefaults() (Options, error) {
	if o.Games < 0 || o.MaxSteps < 0 || o.Trials < 0 || o.Mutants < 0 || o.MaxAlloc < 0 || o.MutantTimeout < 0 {
		return o, fmt.Errorf("simtest: negative option in %+v; every option is 0 (its default) or positive", o)
	}
	for _, c := range o.Only {
		if !slices.Contains(checkNames, c) {
			return o, fmt.Errorf("simtest: Options.Only names check %q; allowed %s", named.Clip(c), named.Allowed(checkNames))
		}
	}
	if o.Seed == 0 {
		o.Seed = DefaultSeed
	}
	if o.Games == 0 {
		o.Games = DefaultGames
	}
	if o.MaxSteps == 0 {
		o.MaxSteps = DefaultMaxSteps
	}
	if o.Trials == 0 {
		o.Trials = DefaultTrials
	}
	if o.Mutants == 0 {
		o.Mutants = DefaultMutants
	}
	if o.MaxAlloc == 0 {
		o.MaxAlloc = DefaultMaxAlloc
	}
	if o.MutantTimeout == 0 {
		o.MutantTimeout = DefaultMutantTimeout
	}
	return o, nil
}

// runs reports whether the check named name runs under o: every check when
// Only is empty, else those it names, and the save/restore check also when
// the events or the outcome check runs, since they read its games.
func (o Options) runs(name string) bool {
	if len(o.Only) == 0 || slices.Contains(o.Only, name) {
		return true
	}
	return name == CheckSaveRestore && (slices.Contains(o.Only, CheckEvents) || slices.Contains(o.Only, CheckOutcome))
}

// checkNames are the checks' names, in the order they run.
var checkNames = []string{CheckDeterminism, CheckSaveRestore, CheckEvents, CheckOutcome, CheckAtomic,
	CheckMutation, CheckExact, CheckDescribe}

// The names of the checks, which begin each error TestMechanic reports.
const (
	CheckDeterminism = "determinism"
	CheckSaveRestore = "save/restore"
	CheckEvents      = "events"
	CheckOutcome     = "outcome"
	CheckAtomic      = "atomic"
	CheckMutation    = "mutation"
	CheckExact       = "exact"
	CheckDescribe    = "describe"
)

// TestMechanic runs every check of the package doc against m, through m
// and the games it makes alone, and returns nil, or an error joining
// (errors.Join) one error per shortfall found, each beginning with its
// check's name ("determinism: ", "save/restore: ", "events: ", "outcome: ",
// "atomic: ", "mutation: ", "exact: ", "describe: ") and saying which game,
// step, state or value fell short. Each check reports at most a few
// shortfalls, then how many more it found (the mutation check stops at the
// cap, since each of its shortfalls may cost a MutantTimeout). A panic in
// the mechanic during a check is reported as a shortfall of that check.
func TestMechanic(m sim.Mechanic, opt Options) error {
	if m == nil {
		return errors.New("simtest: nil sim.Mechanic")
	}
	o, err := opt.withDefaults()
	if err != nil {
		return err
	}
	k := &kit{m: m, opt: o}
	checks := []struct {
		name string
		run  func(*kit, *shortfalls)
	}{
		{CheckDeterminism, (*kit).determinism},
		{CheckSaveRestore, (*kit).saveRestore},
		{CheckEvents, (*kit).events},
		{CheckOutcome, (*kit).outcome},
		{CheckAtomic, (*kit).atomic},
		{CheckMutation, (*kit).mutation},
		{CheckExact, (*kit).exact},
		{CheckDescribe, (*kit).describe},
	}
	var errs []error
	for _, c := range checks {
		if !o.runs(c.name) {
			continue
		}
		s := &shortfalls{check: c.name}
		s.protect(func() { c.run(k, s) })
		errs = append(errs, s.err())
	}
	return errors.Join(errs...)
}

// kit holds what the checks share: the mechanic, the options with their
// defaults, and the games played uninterrupted (played once by the
// save/restore check, read by the events and outcome checks).
type kit struct {
	m      sim.Mechanic
	opt    Options
	played []playthrough
}

// shortfalls collects the errors of one check, up to maxShortfalls, and
// counts the rest.
type shortfalls struct {
	check string
	errs  []error
	more  int
	// stopped is set by a check that stopped at the cap without looking
	// further.
	stopped bool
}

// add records one shortfall; format and args say what fell short.
func (s *shortfalls) add(format string, args ...any) {
	if len(s.errs) >= maxShortfalls {
		s.more++
		return
	}
	s.errs = append(s.errs, fmt.Errorf("%s: %w", s.check, fmt.Errorf(format, args...)))
}

// full reports whether the check has reported all the shortfalls it may.
func (s *shortfalls) full() bool { return len(s.errs) >= maxShortfalls }

func (s *shortfalls) err() error {
	errs := s.errs
	if s.more > 0 {
		errs = append(errs, fmt.Errorf("%s: %d more not shown", s.check, s.more))
	}
	if s.stopped {
		errs = append(errs, fmt.Errorf("%s: stopped after %d shortfalls without trying the rest", s.check, len(s.errs)))
	}
	return errors.Join(errs...)
}

// protect runs f, reporting a panic in it (the mechanic's, since the kit's
// own code does not panic) as a shortfall of the check.
func (s *shortfalls) protect(f func()) {
	defer func() {
		if p := recover(); p != nil {
			s.add("the mechanic panicked: %v %s", p, panicSite(debug.Stack()))
		}
	}()
	f()
}

// panicSite reads a stack taken while panicking (debug.Stack in a
// deferred recover) and names the few functions where the panic happened,
// innermost first, with their files and lines: "at f (file.go:12), called
// by g (file.go:34)".
func panicSite(stack []byte) string {
	lines := strings.Split(string(stack), "\n")
	var frames []string
	seenPanic := false
	for i := 1; i+1 < len(lines) && len(frames) < 3; i += 2 {
		fn, loc := lines[i], strings.TrimSpace(lines[i+1])
		if strings.HasPrefix(fn, "panic(") {
			seenPanic = true
			continue
		}
		if !seenPanic || strings.HasPrefix(fn, "runtime.") {
			continue
		}
		if j := strings.LastIndexByte(fn, '/'); j >= 0 {
			fn = fn[j+1:]
		}
		if j := strings.LastIndexByte(fn, '('); j > 0 && strings.HasSuffix(fn, ")") {
			fn = fn[:j] // the arguments
		}
		if j := strings.LastIndexByte(loc, ' '); j >= 0 {
			loc = loc[:j] // the program counter offset
		}
		frames = append(frames, fmt.Sprintf("%s (%s)", fn, filepath.Base(loc)))
	}
	if len(frames) == 0 {
		return ""
	}
	return "at " + strings.Join(frames, ", called by ")
}
