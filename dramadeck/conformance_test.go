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

// TestSavesRoundTripUnderEveryPolicyMix runs the kit's save/restore check
// on the built-in encounter with every pair of shipped policies for the
// heroes and the GM: a game saved after any step restores to the very
// bytes it was saved as and plays on exactly, whoever plays it.
func TestSavesRoundTripUnderEveryPolicyMix(t *testing.T) {
	if testing.Short() {
		t.Skip("plays every policy mix; the full run (and CI's plain pass) checks it")
	}
	for _, heroes := range PolicyNames() {
		for _, gm := range PolicyNames() {
			sc := DefaultScenario()
			sc.HeroPolicy, sc.GMPolicy = heroes, gm
			opt := simtest.Options{Games: 2, Only: []string{simtest.CheckSaveRestore}}
			if err := simtest.TestMechanic(sim.Adapt[*Runner]("dramadeck", &sc), opt); err != nil {
				t.Errorf("heroes %s, GM %s: %v", heroes, gm, err)
			}
		}
	}
}
