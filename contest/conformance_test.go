package contest

import (
	"testing"

	"github.com/stakesrpg/stakes/sim"
	"github.com/stakesrpg/stakes/sim/simtest"
)

// The conformance kit passes for every scenario shape (see shapes).
func TestConformance(t *testing.T) {
	for name, sc := range shapes() {
		t.Run(name, func(t *testing.T) {
			if err := simtest.TestMechanic(sim.Adapt[*Runner]("contest", &sc), simtest.Options{}); err != nil {
				t.Fatal(err)
			}
		})
	}
}
