package actiontest

import (
	"testing"

	"github.com/stakesrpg/stakes/sim"
	"github.com/stakesrpg/stakes/sim/simtest"
)

// TestConformance hands the kit each built-in shape: the rooftop chase,
// and the same chase under the opposed mode.
func TestConformance(t *testing.T) {
	for name, sc := range map[string]Scenario{"rooftop": DefaultScenario(), "opposed": opposedChase()} {
		t.Run(name, func(t *testing.T) {
			if err := simtest.TestMechanic(sim.Adapt[*Runner]("actiontest", &sc), simtest.Options{}); err != nil {
				t.Fatal(err)
			}
		})
	}
}
