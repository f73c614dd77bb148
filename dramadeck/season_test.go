package dramadeck

import (
	"testing"

	"github.com/stakesrpg/stakes/dice"
)

// season plays n encounters of the built-in scenario and counts, by card
// name, the cards played from a pool or hand (subplots: moved into play),
// and the trades made.
func season(t *testing.T, policy string, n int) (played map[Name]int, trades int) {
	t.Helper()
	s := DefaultScenario()
	s.HeroPolicy = policy
	rn, err := s.NewRunner()
	if err != nil {
		t.Fatal(err)
	}
	g := rn.g
	played = map[Name]int{}
	g.Sink = func(e Event) {
		switch {
		case e.Kind == EvPlay:
			played[g.State.Deck.Cards[e.Card].Name]++
		case e.Kind == EvMove && g.State.Deck.Cards[e.Card].Name.Kind() == Subplot:
			played[g.State.Deck.Cards[e.Card].Name]++
		case e.Kind == EvTrade:
			trades++
		}
	}
	r := dice.NewSeeded(2026)
	m := make([]int, len(s.Metrics()))
	for range n {
		mustTrial(t, rn, r, m)
	}
	return played, trades
}

// A season of encounters under the shipped policies plays every card of
// the deck (the default policy keeps its Drama cards for their worth at
// the adventure's end; the aggressive one spends them), and the players
// trade.
func TestSeasonPlaysEveryCardType(t *testing.T) {
	all := map[Name]int{}
	for _, policy := range []string{"default", "aggressive", "cautious"} {
		played, trades := season(t, policy, 400)
		t.Logf("%s: played %v, %d trades", policy, played, trades)
		if trades == 0 && policy != "aggressive" {
			t.Errorf("%s: no trade in a season", policy)
		}
		for n, k := range played {
			all[n] += k
		}
	}
	for _, n := range Names() {
		if all[n] == 0 {
			t.Errorf("%v never played in a season", n)
		}
	}
}
