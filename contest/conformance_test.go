package contest

import (
	"slices"
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

// TestSavesRoundTripUnderEveryPolicyMix runs the kit's save/restore check
// on every scenario shape with every shipped policy for the whole cast and
// for the GM: a game saved after any step restores to the very bytes it was
// saved as and plays on exactly, whoever plays it.
func TestSavesRoundTripUnderEveryPolicyMix(t *testing.T) {
	if testing.Short() {
		t.Skip("plays every policy mix; the full run (and CI's plain pass) checks it")
	}
	for name, base := range shapes() {
		for _, cast := range PolicyNames() {
			for _, gm := range PolicyNames() {
				sc := base
				sc.Cast = slices.Clone(base.Cast)
				for i := range sc.Cast {
					sc.Cast[i].Policy = cast
				}
				sc.GMPolicy = gm
				if sc.Validate() != nil {
					continue // a shape whose sides a policy cannot play
				}
				opt := simtest.Options{Games: 2, Only: []string{simtest.CheckSaveRestore}}
				if err := simtest.TestMechanic(sim.Adapt[*Runner]("contest", &sc), opt); err != nil {
					t.Errorf("%s, cast %s, GM %s: %v", name, cast, gm, err)
				}
			}
		}
	}
}
