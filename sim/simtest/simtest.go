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
// The checks:
//
//  1. Determinism: the same seed gives byte-identical reports (timing and
//     worker count aside) on 1, 2 and 7 workers.
//  2. Save and restore: games played step by step, with the state saved as
//     JSON and the Roller as bytes after every step and restored into fresh
//     values, produce the same events as the uninterrupted games.
//  3. Atomic steps: at random points a step is answered with an illegal
//     choice; it must return an error, leave the saved state byte-identical
//     and draw nothing from the Roller.
//  4. Mutated saved states (integers set to -1, 0, 2^31 and 2^53, arrays
//     emptied and duplicated, names replaced by unknown ones, keys dropped)
//     are either refused by Restore or play to their end within
//     Options.MaxSteps steps, with no panic, no hang and no allocation
//     beyond Options.MaxAlloc.
//  5. Sampled against exact: where the scenario's Exact answers, a
//     fixed-seed sample of its categories passes a chi-square test against
//     it.
//  6. Events survive a JSON round trip into their own type.
package simtest

import (
	"math/rand/v2"

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
	// Trials is the sample for the determinism and chi-square checks
	// (default 20,000).
	Trials int64
	// Mutants bounds how many mutated states are tried (default 2,000).
	Mutants int
	// MaxAlloc bounds the bytes one mutated state may allocate while it is
	// restored and played to its end (default 64 MiB).
	MaxAlloc int64
}
