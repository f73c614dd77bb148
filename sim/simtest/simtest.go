// Package simtest is the conformance kit for mechanics: one call checks a
// rule package (ours or a third party's) against the whole contract the
// rest of stakes relies on, and reports every way it falls short, in the
// manner of testing/fstest.
//
// A mechanic's tests hand the kit a small adapter, a Mechanic, and call
// TestMechanic:
//
//	func TestConformance(t *testing.T) {
//		if err := simtest.TestMechanic(adapter{}, simtest.Options{}); err != nil {
//			t.Fatal(err)
//		}
//	}
//
// The adapter's Game wraps the package's State and steps; Events turns a
// slice of the package's events into what Game.Step returns.
//
// The checks, and the name that begins each of their errors:
//
//  1. determinism: the scenario's Spec (Mechanic.Scenario) run by sim.Run
//     with one seed on 1, 2 and 7 workers gives byte-identical report JSON
//     once the wall time (Report.Elapsed) and the worker count
//     (Provenance.Workers) are zeroed. The runs are of at most 2,000 trials
//     in chunks of 64, so every worker gets chunks.
//  2. save/restore: Options.Games games are played to their end, game g on
//     its own Roller, dice.NewRoller(rand.NewPCG(Seed, g)), recording the
//     events of every step. Each is played again, and before its first
//     step and after every step its state (Game.Save) and Roller
//     (MarshalBinary) are saved, restored into fresh values
//     (Mechanic.Restore, and UnmarshalBinary into a zero dice.Roller) and
//     play goes on from those; each step must give the same events and the
//     same Done as before. Events are compared field by field, unexported
//     fields included, with a nil slice or map equal to an empty one.
//     Saving the restored game must give the very bytes it was restored
//     from (Save writes one encoding of a state, as encoding/json does), and the bytes handed to Restore are overwritten once it
//     returns, so a game that keeps them instead of copying shows it. A
//     game that fails a step, or is still going after Options.MaxSteps
//     steps, fails here.
//  3. atomic: each game is played once more; before about one step in
//     three (a seeded choice) StepIllegal is asked for an illegal answer.
//     When tried it must return an error, Save must give the same bytes as
//     before, and the Roller's saved bytes must be unchanged (nothing drawn).
//  4. mutation: the states of the first three games, saved before steps
//     0, 1, 2, 4, 8, ... and at the end, are decoded (numbers kept exact)
//     and mutated one change at a time: each number set to -1, 0, 2^31 and
//     2^53, each string to "bogus", each boolean flipped, each non-empty
//     array emptied and given a copy of its first element at its end, each
//     object key dropped. At most Options.Mutants of them, a seeded sample,
//     are handed to Restore. A refusal is the wanted outcome; a state
//     Restore accepts must play to its end within Options.MaxSteps steps
//     with no step refusing it (a restored state is checked whole). A
//     panic, a hang (Options.MutantTimeout), or more than Options.MaxAlloc
//     bytes allocated between the start of Restore and the end of play
//     fails. The bytes are counted by runtime.MemStats.TotalAlloc, which
//     counts the whole process: run the kit outside parallel tests. The
//     bound is checked after the fact; an allocation of gigabytes may end
//     the process first. A hung game's goroutine is left behind.
//  5. exact: where Exact answers (an error wrapping markov.ErrNoExact
//     skips the check; any other error fails it), Options.Trials trials at
//     Options.Seed must fit its category probabilities by a chi-square
//     test (gof.ChiSquare, sparse cells pooled) with a p-value of at least
//     1e-4. Where the answer gives the rounds, metric 0 must fit them too:
//     its mean within 5 standard errors of MeanRounds, its histogram
//     against Rounds by the same chi-square test. The seed is fixed, so the
//     check never flakes.
//  6. events: every event the games of the save/restore check produced is
//     non-nil and, encoded by json.Marshal and decoded into a new value of
//     its own type, equals the original (compared as in the save/restore
//     check). Each event type is reported once.
//
// Each check reports at most five shortfalls, then how many more it found;
// the mutation check stops at five, since each may have cost a timeout.
// A panic in the mechanic fails the check it happened in, naming the
// functions where it happened. With the default options the kit plays
// about 60 games step by step, up to 1,000 mutated ones, and 26,000
// trials: under a second for a mechanic whose game is about 200 steps,
// about five seconds under the race detector.
package simtest

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim"
)

// Mechanic is what a rule package hands the kit: a scenario to sample and
// solve, and games of it to play step by step.
type Mechanic interface {
	// Scenario returns the scenario under test, adapted with sim.Adapt.
	Scenario() sim.Mechanic
	// NewGame starts a game of that scenario at its beginning. It may roll
	// with r (a shuffle, a deal).
	NewGame(r *dice.Roller) (Game, error)
	// Restore decodes a state that Game.Save wrote, checks it whole as the
	// package's state check does, and returns the game it holds. A state
	// the package refuses is an error; Restore never panics.
	Restore(state []byte) (Game, error)
}

// Game is one game in progress.
type Game interface {
	// Done reports whether the game has ended.
	Done() bool
	// Step takes the next step, with the package's shipped policies making
	// any choice it asks for, and returns the events it produced (values of
	// the package's event type).
	Step(r *dice.Roller) ([]any, error)
	// StepIllegal takes the next step with a policy that answers its
	// choice illegally, chaos choosing how. It reports tried false, and
	// does nothing, when the next step asks no choice that can be answered
	// illegally. When tried, the step must fail and leave the game and r
	// exactly as they were.
	StepIllegal(r *dice.Roller, chaos *rand.Rand) (tried bool, err error)
	// Save returns the whole state of the game as JSON: with the Roller's
	// saved bytes, all that is needed to play on.
	Save() ([]byte, error)
}

// Options tunes the kit. The zero value of each field picks its default.
type Options struct {
	// Seed fixes every random choice of the kit (default 1).
	Seed uint64
	// Games is how many games are played step by step for the save,
	// atomicity and mutation checks (default 20).
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

// The names of the checks, which begin each error TestMechanic reports.
const (
	CheckDeterminism = "determinism"
	CheckSaveRestore = "save/restore"
	CheckAtomic      = "atomic"
	CheckMutation    = "mutation"
	CheckExact       = "exact"
	CheckEvents      = "events"
)

// TestMechanic runs every check of the package doc against m and returns
// nil, or an error joining (errors.Join) one error per shortfall found, each
// beginning with its check's name ("determinism: ", "save/restore: ",
// "atomic: ", "mutation: ", "exact: ", "events: ") and saying which game,
// step, state or value fell short. Each check reports at most a few
// shortfalls, then how many more it found (the mutation check stops at the
// cap, since each of its shortfalls may cost a MutantTimeout). A panic in
// the mechanic during a check is reported as a shortfall of that check.
func TestMechanic(m Mechanic, opt Options) error {
	if m == nil {
		return errors.New("simtest: nil Mechanic")
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
		{CheckAtomic, (*kit).atomic},
		{CheckMutation, (*kit).mutation},
		{CheckExact, (*kit).exact},
	}
	var errs []error
	for _, c := range checks {
		s := &shortfalls{check: c.name}
		s.protect(func() { c.run(k, s) })
		errs = append(errs, s.err())
	}
	return errors.Join(errs...)
}

// kit holds what the checks share: the mechanic, the options with their
// defaults, and the games played uninterrupted (played once, read by the
// save/restore and events checks).
type kit struct {
	m      Mechanic
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

// Events returns evs as the []any that Game.Step returns, for adapters
// whose engine reports a slice of its own event type.
func Events[E any](evs []E) []any {
	out := make([]any, len(evs))
	for i, e := range evs {
		out[i] = e
	}
	return out
}
