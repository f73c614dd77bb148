package dramadeck

import (
	"testing"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim"
	"github.com/stakesrpg/stakes/sim/simtest"
)

// FuzzRestore reads any bytes as a saved game of the built-in scenario
// (the kit's target: never a panic; what restores saves and plays on),
// games waiting on a question asked as a step among its seeds.
func FuzzRestore(f *testing.F) {
	sc := DefaultScenario()
	r := dice.NewSeeded(3)
	g, err := sc.Start(r)
	if err != nil {
		f.Fatal(err)
	}
	gm := g.(*Game)
	gm.Ask(Heroes, AskAll)
	gm.Ask(Villains, AskAll)
	for i := 0; i < 60 && !gm.Done(); i++ {
		if gm.Question() != nil && i%6 == 0 {
			b, err := gm.Save()
			if err != nil {
				f.Fatal(err)
			}
			f.Add(b)
		}
		if err := gm.Step(r); err != nil {
			f.Fatal(err)
		}
	}
	simtest.FuzzRestore(f, sim.Adapt[*Runner]("dramadeck", &sc))
}
