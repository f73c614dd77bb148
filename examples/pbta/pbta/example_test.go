package pbta_test

import (
	"context"
	"fmt"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/examples/pbta/pbta"
)

// One fight of the built-in scenario, narrated step by step.
func Example() {
	sc := pbta.DefaultScenario()
	e, err := sc.NewEngine()
	if err != nil {
		fmt.Println(err)
		return
	}
	e.Sink = func(ev pbta.Event) { fmt.Println(ev) }
	s := e.NewState()
	if err := e.Play(s, dice.NewSeeded(7)); err != nil {
		fmt.Println(err)
		return
	}
	k, _ := s.Outcome(nil)
	fmt.Println("Outcome:", sc.Categories()[k])
	// Output:
	// Exchange 1: Rook goes in hard, rolling 5+5+1 = 11, a full success: the raider takes 3 harm (3/5); Rook takes nothing.
	// Exchange 2: Rook goes in hard, rolling 1+3+1 = 5, a miss: the GM makes a hard move.
	// The GM has the raider strike: Rook takes 3 harm (3/6).
	// Exchange 3: Rook plays it cool, rolling 4+2+2 = 8, a success at a cost.
	// Rook holds back: the raider takes 1 harm (4/5); Rook takes nothing.
	// Exchange 4: Rook plays it cool, rolling 4+1+2 = 7, a success at a cost.
	// Rook holds back: the raider takes 1 harm (5/5) and is out of the fight; Rook takes nothing.
	// Outcome: victory
}

// The exact odds of the built-in fight, and how they move with the GM's
// policy.
func ExampleScenario_Exact() {
	for _, gm := range pbta.GMPolicyNames() {
		sc := pbta.DefaultScenario()
		sc.GM = gm
		a, err := sc.Exact(context.Background())
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("GM %-9s victory %.4f, defeat %.4f, %.2f exchanges\n", gm, a.P[pbta.Victory], a.P[pbta.Defeat], a.MeanRounds)
	}
	// Output:
	// GM merciful  victory 0.9485, defeat 0.0515, 3.42 exchanges
	// GM ruthless  victory 0.7450, defeat 0.2550, 2.81 exchanges
	// GM tactical  victory 0.8845, defeat 0.1155, 3.14 exchanges
}

// Playing a fight by hand: the player's move, then the cost of a 7-9,
// each step checked against the legal choices.
func ExampleEngine_Exchange() {
	e, _ := pbta.DefaultScenario().NewEngine()
	s := e.NewState()
	r := dice.Scripted(3, 4) // the dice, as rolled at the table
	if err := e.Exchange(s, r, pbta.PlayItCool); err != nil {
		fmt.Println(err)
		return
	}
	costs, _ := e.Costs(s)
	fmt.Println("rolled", s.Total, "- the player picks among", costs)
	if err := e.PayCost(s, pbta.HoldBack); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("harm: Rook %d/%d, the raider %d/%d\n", s.PCHarm, s.Rules.Track, s.ThreatHarm, s.Threat.Capacity)
	// Output:
	// rolled 9 - the player picks among [trade_blows hold_back]
	// harm: Rook 0/6, the raider 1/5
}
