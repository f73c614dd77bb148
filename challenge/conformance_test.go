package challenge

import (
	"testing"

	"github.com/stakesrpg/stakes/sim"
	"github.com/stakesrpg/stakes/sim/simtest"
)

// TestConformance runs the conformance kit on the default scenario, on
// one where both sides cross names off the owe list, on the three-sided
// conflict with helpers and interference, on one of three sides whose
// exact answer the kit samples against, and on a duel whose stats are
// written smallest die first.
func TestConformance(t *testing.T) {
	for name, s := range shapes() {
		t.Run(name, func(t *testing.T) {
			if err := simtest.TestMechanic(sim.Adapt[*Runner]("challenge", &s), simtest.Options{}); err != nil {
				t.Fatal(err)
			}
		})
	}
}
