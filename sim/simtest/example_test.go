package simtest_test

import (
	"fmt"

	"github.com/stakesrpg/stakes/sim"
	"github.com/stakesrpg/stakes/sim/simtest"
)

// A mechanic's conformance test is its scenario, adapted, and the options.
// This one is the toy race of this package's tests, broken on purpose: its
// refused steps still roll a die, so it fails the atomic check, game by
// game.
func ExampleTestMechanic() {
	m := sim.Adapt[*runner]("race", newScenario(refusedRolls))
	err := simtest.TestMechanic(m, simtest.Options{Games: 3, Mutants: 100})
	fmt.Println(err)
	// Output:
	// atomic: game 0 before step 0: a step refused (the int answer 1 changed to -1: -1 dice; allowed 1..3) drew from the Roller
	// atomic: game 1 before step 2: a step refused (the int answer 1 changed to 4: 4 dice; allowed 1..3) drew from the Roller
}
