package pbta_test

import (
	"testing"

	"github.com/stakesrpg/stakes/examples/pbta/pbta"
	"github.com/stakesrpg/stakes/sim"
	"github.com/stakesrpg/stakes/sim/simtest"
)

// TestConformance runs the kit every mechanic of stakes passes, over the
// built-in fight and fights where every policy and both hard moves come
// up.
func TestConformance(t *testing.T) {
	variants := map[string]func(*pbta.Scenario){
		"default": func(*pbta.Scenario) {},
		"careful vs tactical": func(sc *pbta.Scenario) {
			sc.Player, sc.GM = "careful", "tactical"
		},
		"aggressive vs merciful, short fight": func(sc *pbta.Scenario) {
			sc.Player, sc.GM = "aggressive", "merciful"
			sc.Rules.MaxExchanges = 3
		},
	}
	for name, change := range variants {
		t.Run(name, func(t *testing.T) {
			sc := pbta.DefaultScenario()
			change(&sc)
			if err := simtest.TestMechanic(sim.Adapt[*pbta.Runner]("pbta", &sc), simtest.Options{}); err != nil {
				t.Fatal(err)
			}
		})
	}
}
