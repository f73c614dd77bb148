package dramadeck

import (
	"testing"

	"github.com/stakesrpg/stakes/sim"
	"github.com/stakesrpg/stakes/sim/simtest"
)

// The kit on the built-in encounter and small, odd decks (one of each card; no Master Plan).
func TestConformance(t *testing.T) {
	one, noPlan := DefaultScenario(), DefaultScenario()
	one.Deck, one.HeroPolicy = deckOf(1), "aggressive"
	noPlan.Deck, noPlan.HeroPolicy, noPlan.Dramatic = deckOf(1, MasterPlan), "cautious", true
	for _, sc := range []Scenario{DefaultScenario(), one, noPlan} {
		if err := simtest.TestMechanic(sim.Adapt[*Runner]("dramadeck", &sc), simtest.Options{}); err != nil {
			t.Fatal(err)
		}
	}
}
