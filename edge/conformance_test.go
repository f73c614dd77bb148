package edge

import (
	"testing"

	"github.com/stakesrpg/stakes/sim"
	"github.com/stakesrpg/stakes/sim/simtest"
)

// TestConformance runs the conformance kit, every check of it, on each
// shape of kitScenarios.
func TestConformance(t *testing.T) {
	for name, s := range kitScenarios() {
		t.Run(name, func(t *testing.T) {
			if err := simtest.TestMechanic(sim.Adapt[*Runner]("edge", &s), simtest.Options{}); err != nil {
				t.Error(err)
			}
		})
	}
}
