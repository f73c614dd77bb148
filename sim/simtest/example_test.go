package simtest_test

import (
	"fmt"

	"github.com/stakesrpg/stakes/sim/simtest"
)

// A mechanic whose refused steps still roll a die (the toy race of this
// package's tests, broken on purpose) fails the atomic check, game by game.
func ExampleTestMechanic() {
	err := simtest.TestMechanic(toy{newScenario(refusedRolls)}, simtest.Options{Games: 3, Mutants: 100})
	fmt.Println(err)
	// Output:
	// atomic: game 0 before step 0: a refused step (-1 dice; allowed 1..3) drew from the Roller
	// atomic: game 1 before step 2: a refused step (-1 dice; allowed 1..3) drew from the Roller
	// atomic: game 2 before step 0: a refused step (4 dice; allowed 1..3) drew from the Roller
}

func ExampleEvents() {
	type roll struct{ Face int }
	fmt.Println(simtest.Events([]roll{{3}, {6}}))
	// Output: [{3} {6}]
}
