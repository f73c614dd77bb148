package dramadeck

import (
	"testing"

	"github.com/stakesrpg/stakes/dice"
)

// Random calls with random (often nonsense) arguments: never a panic, every
// rejected step leaves the state as it was, cards are always conserved.
func TestRandomStepsNeverCorrupt(t *testing.T) {
	n := 1500
	if testing.Short() {
		n = 300
	}
	rnd := dice.NewSeeded(123)
	g, r := startedGame(t, 9)
	pol := mustPolicy(t, "default")
	pick := func(lo, hi int) int { return lo + rnd.IntN(hi-lo+1) }
	card := func() int {
		if rnd.IntN(4) == 0 {
			return pick(-3, 200)
		}
		p := g.State.Players[rnd.IntN(len(g.State.Players))]
		pile := p.Pool
		if rnd.IntN(2) == 0 {
			pile = p.Hand
		}
		if len(pile) == 0 {
			return pick(0, 155)
		}
		return pile[rnd.IntN(len(pile))]
	}
	play := func() Play {
		return Play{Card: card(), Target: Aim(pick(-1, 4)), Flip: rnd.IntN(2) == 0, Cards: [2]int{card(), card()},
			N: pick(0, 3), ToPlayer: pick(-1, 3), ToPool: rnd.IntN(2) == 0, Why: []string{"", "because"}[rnd.IntN(2)]}
	}
	ops := 0
	for i := 0; i < n; i++ {
		if g.State.Outcome != Ongoing {
			if err := g.EndScene(r, pol); err != nil {
				t.Fatal(err)
			}
			for j := range g.State.Heroes {
				g.State.Heroes[j] = DefaultScenario().Heroes[j]
			}
			for j := range g.State.Villains {
				g.State.Villains[j] = DefaultScenario().Villains[j]
			}
			if err := g.StartCombat(rnd.IntN(2) == 0); err != nil {
				t.Fatal(err)
			}
		}
		before := snapshot(t, g.State)
		var err error
		p := pick(-1, 3)
		switch rnd.IntN(10) {
		case 0:
			err = g.Declare(r, p, []Play{play(), play()}[:pick(0, 2)])
		case 1:
			err = g.CriticalMoment(r, p, []int{card()}[:pick(0, 1)], []Play{play()})
		case 2:
			err = g.MoveToPool(p, card())
		case 3:
			err = g.Trade(p, pick(-1, 3), []int{card(), card()}[:pick(0, 2)], []int{card()}[:pick(0, 1)])
		case 4:
			err = g.PlayFromHand(r, p, play())
		case 5:
			err = g.Act(r, pick(-1, 7), Choice{Act: Act(pick(0, 10)), Target: pick(-1, 7)}, pol, nil)
		case 6:
			err = g.AttemptSteps(r, pick(-1, len(g.State.Tasks)), Bar(pick(0, 11)), pick(-1, 4), pick(0, 3), pol)
		case 9:
			_, err = g.StartTask(p, Task{Skill: pick(-12, 20), Rounds: pick(0, 3)})
		case 7:
			err = g.Round(r, pol, pol)
		case 8:
			if g.State.Round == 0 || rnd.IntN(3) == 0 {
				err = g.BeginRound(r)
			}
		}
		ops++
		if err != nil {
			if d := stateDiff(t, before, g.State); d != "" {
				t.Fatalf("op %d: rejected (%v) but state changed (-before +after):\n%s", i, err, d)
			}
		}
		if err := g.CheckCards(); err != nil {
			t.Fatalf("op %d: %v", i, err)
		}
	}
}
