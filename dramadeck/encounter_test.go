package dramadeck

import (
	"testing"

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
	pols := Policies()
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
		g.Shuffle(r)
		for p := range g.State.Players {
			if err := g.EnterPlay(r, p); err != nil {
				t.Fatal(err)
			}
		}
		if err := g.StartCombat(s.Dramatic); err != nil {
			t.Fatal(err)
		}
		for g.State.Outcome == Ongoing && g.State.Round < s.MaxRounds {
			if err := g.PlayRound(r, rn.hp, rn.gm); err != nil {
				t.Fatalf("trial %d: %v", i, err)
			}
			if err := g.CheckCards(); err != nil {
				t.Fatalf("trial %d round %d: %v", i, g.State.Round, err)
			}
		}
		if err := g.EndScene(r, rn.hp); err != nil {
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
