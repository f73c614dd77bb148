package contest

import (
	"testing"

	"github.com/stakesrpg/stakes/dice"
)

func BenchmarkTrialDefault(b *testing.B) {
	sc := DefaultScenario()
	rn, _ := sc.NewRunner()
	r := dice.NewSeeded(1)
	m := make([]int, 8)
	b.ReportAllocs()
	for b.Loop() {
		rn.Trial(r, m)
	}
}
