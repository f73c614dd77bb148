package dramadeck

import (
	"testing"

	"github.com/stakesrpg/stakes/sim"
	"github.com/stakesrpg/stakes/sim/simtest"
)

// FuzzRestore reads any bytes as a saved game of the built-in scenario
// (the kit's target: never a panic; what restores saves and plays on).
func FuzzRestore(f *testing.F) {
	sc := DefaultScenario()
	simtest.FuzzRestore(f, sim.Adapt[*Runner]("dramadeck", &sc))
}
