package dramadeck

import (
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stakesrpg/stakes/dice"
)

// TestCardsConserved: through 10^4 random encounters under every policy
// pairing, every card stays in exactly one place, checked after every round.
func TestCardsConserved(t *testing.T) {
	n := 10000
	if testing.Short() {
		n = 1000
	}
	s := DefaultScenario()
	pols := PolicyNames()
	r := dice.NewSeeded(7)
	counts := make([]int, len(s.Categories()))
	for i := 0; i < n; i++ {
		s.HeroPolicy, s.GMPolicy = pols[i%len(pols)], pols[(i/len(pols))%len(pols)]
		s.Dramatic = i%2 == 1
		rn, err := s.NewRunner()
		if err != nil {
			t.Fatal(err)
		}
		rn.reset()
		g := rn.g
		deal(t, g, r, s.Dramatic)
		for g.State.Outcome == Ongoing && g.State.Round < s.MaxRounds {
			if err := g.Round(r, rn.pol.Heroes, rn.pol.GM); err != nil {
				t.Fatalf("trial %d: %v", i, err)
			}
			if err := g.CheckCards(); err != nil {
				t.Fatalf("trial %d round %d: %v", i, g.State.Round, err)
			}
		}
		if err := g.EndScene(r, rn.pol.Heroes); err != nil {
			t.Fatal(err)
		}
		if err := g.CheckCards(); err != nil {
			t.Fatalf("trial %d after scene: %v", i, err)
		}
		counts[g.State.Outcome]++
	}
	t.Logf("outcomes by index (ongoing, heroes, villains, escaped, timed out): %v", counts)
	if counts[HeroesWin] == 0 || counts[VillainsWin] == 0 {
		t.Errorf("the default encounter should be contested, got %v", counts)
	}
}

// TestSideOrder: each side acts by decreasing Speed, ties in index order,
// and the kept order follows changed speeds and a restored state of another
// size.
func TestSideOrder(t *testing.T) {
	g := testGame(t)
	s := g.State
	nh := len(s.Heroes)
	want := func(side Side) []int {
		var o []int
		lo, hi := 0, nh
		if side == Villains {
			lo, hi = nh, nh+len(s.Villains)
		}
		for ci := lo; ci < hi; ci++ {
			o = append(o, ci)
		}
		sort.SliceStable(o, func(a, b int) bool { return g.char(o[a]).Speed > g.char(o[b]).Speed })
		return o
	}
	check := func(what string) {
		t.Helper()
		for _, side := range []Side{Heroes, Villains} {
			if d := cmp.Diff(want(side), g.appendBySpeed(nil, side)); d != "" {
				t.Errorf("%s, %v (-want +got):\n%s", what, side, d)
			}
		}
	}
	check("start")
	check("again (kept)")
	for i := range s.Heroes {
		s.Heroes[i].Speed = 10 // all tied: index order
	}
	check("tied heroes")
	s.Heroes[len(s.Heroes)-1].Speed = 99
	s.Villains[0].Speed = -5
	check("changed speeds")
	s.Villains = append(s.Villains, s.Villains[0], s.Villains[0])
	s.Villains[len(s.Villains)-1].Speed = 1000
	check("more villains")
	s.Villains = s.Villains[:1]
	check("one villain")
}
