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

// TestSavesRoundTripUnderEveryShippedMix runs the kit's save/restore check
// on both built-in shapes under every shipped policy, way of spending and
// Director: a game saved after any step restores to the very bytes it was
// saved as and plays on exactly.
func TestSavesRoundTripUnderEveryShippedMix(t *testing.T) {
	for name, base := range map[string]Scenario{"rooftop": DefaultScenario(), "opposed": opposedChase()} {
		for _, pol := range PolicyNames() {
			for _, spend := range SpendOrders() {
				for _, dir := range Directors() {
					sc := base
					sc.Policy, sc.Spend, sc.Director = pol, spend, dir
					opt := simtest.Options{Games: 2, Only: []string{simtest.CheckSaveRestore}}
					if err := simtest.TestMechanic(sim.Adapt[*Runner]("actiontest", &sc), opt); err != nil {
						t.Errorf("%s, %s/%s/%s: %v", name, pol, spend, dir, err)
					}
				}
			}
		}
	}
}
