package dramadeck

import (
	"testing"

	"github.com/stakesrpg/stakes/sim"
	"github.com/stakesrpg/stakes/sim/simtest"
)

// TestConformance runs the conformance kit on the built-in encounter, and
// on a Dramatic scene of the cautious style.
func TestConformance(t *testing.T) {
	dramatic := DefaultScenario()
	dramatic.Dramatic, dramatic.HeroPolicy = true, "cautious"
	for _, sc := range []Scenario{DefaultScenario(), dramatic} {
		if err := simtest.TestMechanic(sim.Adapt[*Runner]("dramadeck", &sc), simtest.Options{}); err != nil {
			t.Fatal(err)
		}
	}
}
