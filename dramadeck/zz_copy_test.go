package dramadeck

import (
	"testing"

	"github.com/stakesrpg/stakes/dice"
)

func BenchmarkZZCopy(b *testing.B) {
	r := dice.NewSeeded(1)
	gm, _ := DefaultScenario().Start(r)
	g := gm.(*Game)
	for range 30 {
		g.Step(r)
	}
	s := g.State()
	var c State
	for b.Loop() {
		c.copyFrom(s)
	}
}
