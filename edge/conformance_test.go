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

// TestSavesRoundTripUnderEveryPolicyMix runs the kit's save/restore check
// on the built-in chase with every pair of shipped policies: a game saved
// after any step restores to the very bytes it was saved as and plays on
// exactly, whoever plays it.
func TestSavesRoundTripUnderEveryPolicyMix(t *testing.T) {
	for _, a := range PolicyNames() {
		for _, b := range PolicyNames() {
			s := DefaultScenario()
			s.Parties[0].Policy, s.Parties[1].Policy = a, b
			opt := simtest.Options{Games: 3, Only: []string{simtest.CheckSaveRestore}}
			if err := simtest.TestMechanic(sim.Adapt[*Runner]("edge", &s), opt); err != nil {
				t.Errorf("%s against %s: %v", a, b, err)
			}
		}
	}
}
