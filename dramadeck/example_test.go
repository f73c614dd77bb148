package dramadeck_test

import (
	"context"
	"strings"

	"fmt"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/dramadeck"
	"github.com/stakesrpg/stakes/sim"
)

// A Quick Contest of Taunt 15 against Will 14: the taunter rolls 3 (margin
// 12), the target 17 (margin -3); the margin of victory is 15, which the
// margin table turns into Up for the taunter and Setback for the target.
func ExampleQuickContest() {
	c := dramadeck.DefaultCriticals()
	a, b := c.Judge(3, 15), c.Judge(17, 14)
	w, mov := dramadeck.QuickContest(a, b)
	band, _ := dramadeck.DefaultMargins().Lookup(dramadeck.Taunt, mov)
	fmt.Println(w, mov, band.Actor, band.Target)
	// Output: 0 15 [Up] [Setback]
}

// Second Chance: two re-rolls, best of three, against skill 10.
func ExampleCriticals_LuckRoll() {
	c := dramadeck.DefaultCriticals()
	r := dice.Scripted(6, 6, 5, 4, 4, 4, 2, 3, 4)
	res := c.LuckRoll(r, 10, 3)
	fmt.Println(res.Roll, res.Success, res.Margin())
	fmt.Printf("P(success) at 10: one roll %.3f, Luck %.3f\n", c.SuccessChance(10), c.LuckChance(10, 3))
	// Output:
	// 9 true 1
	// P(success) at 10: one roll 0.500, Luck 0.875
}

// The shipped deck and the exact odds of a single flip.
func ExampleDefaultDeck() {
	d, err := dramadeck.DefaultDeck()
	if err != nil {
		panic(err)
	}
	flurry, _ := dramadeck.DrawOdds(d, func(c *dramadeck.Card) bool {
		return c.Standard.Hero == dramadeck.Flurry || c.Standard.Villain == dramadeck.Flurry
	}, 1)
	drama, _ := dramadeck.DrawOdds(d, func(c *dramadeck.Card) bool { return c.Name == dramadeck.Drama }, 4)
	fmt.Println(d.Len(), d.Count(dramadeck.Adrenalin))
	fmt.Printf("P(Flurry on a Standard flip) = %.4f\n", flurry.Prob(1))
	fmt.Printf("P(at least one Drama in a four-card hand) = %.4f\n", drama.AtLeast(1))
	// Output:
	// 156 16
	// P(Flurry on a Standard flip) = 0.0513
	// P(at least one Drama in a four-card hand) = 0.2964
}

// The chance to finish a four-step Dramatic Skill Resolution at skill 14
// within N rounds, exactly, for the default deck's skill bars.
func ExampleTaskChance() {
	d, _ := dramadeck.DefaultDeck()
	pol, _ := dramadeck.PolicyByName("default")
	task := dramadeck.Task{Skill: 14, Alternate: 12, Rounds: 10}
	e, err := dramadeck.TaskChance(dramadeck.DefaultRules(), task, d.BarOdds(), pol)
	if err != nil {
		panic(err)
	}
	for _, n := range []int{4, 6, 8, 10} {
		fmt.Printf("within %2d rounds: %.3f\n", n, e.Within(n))
	}
	fmt.Printf("with the last-ditch effort: %.3f\n", e.P)
	// Output:
	// within  4 rounds: 0.038
	// within  6 rounds: 0.112
	// within  8 rounds: 0.216
	// within 10 rounds: 0.333
	// with the last-ditch effort: 0.507
}

// Playing an encounter step by step: a round at a time under the default
// policies, with the state visible between rounds.
func ExampleEngine_Round() {
	sc := dramadeck.DefaultScenario()
	d, _ := dramadeck.DefaultDeck()
	s, err := dramadeck.NewState(sc.Rules, d, sc.Heroes, sc.Villains)
	if err != nil {
		panic(err)
	}
	pol, _ := dramadeck.PolicyByName("default")
	e, err := dramadeck.NewEngine(dramadeck.Table{Heroes: pol, GM: pol})
	if err != nil {
		panic(err)
	}
	r := dice.NewSeeded(2)
	_ = e.Shuffle(s, r)
	for p := range s.Players {
		_ = e.EnterPlay(s, r, p)
	}
	fmt.Println("hand sizes:", len(s.Players[0].Hand), len(s.Players[1].Hand), len(s.Players[2].Hand))
	_ = e.StartCombat(s, false)
	for s.Outcome == dramadeck.Ongoing && s.Round < 30 {
		if err := e.Round(s, r); err != nil {
			panic(err)
		}
	}
	fmt.Println(s.CheckCards() == nil, s.Outcome != dramadeck.Ongoing)
	// Output:
	// hand sizes: 4 4 4
	// true true
}

// A game of the built-in scenario through the game contract, narrated:
// the first events of the first round, then the whole encounter played out.
func ExampleScenario_Start() {
	sc := dramadeck.DefaultScenario()
	r := dice.NewSeeded(7)
	g, err := sc.Start(r)
	if err != nil {
		panic(err)
	}
	n := 0
	g.Listen(func(e sim.Event) {
		if n < 3 {
			fmt.Println(e)
		}
		n++
	})
	for !g.Done() {
		if err := g.Step(r); err != nil {
			panic(err)
		}
	}
	k, _ := g.Outcome(nil)
	fmt.Println(sc.Categories()[k], n > 3)
	// Output:
	// Round 1: the GM turns Presence onto the action stack.
	// Brick is Up: a free Possibility this round.
	// Face is Up: a free Possibility this round.
	// villains_win true
}

// The Scenario face: categories and metrics of the built-in encounter.
func ExampleScenario() {
	s := dramadeck.DefaultScenario()
	fmt.Println(s.Categories())
	fmt.Println(s.Metrics())
	_, err := s.Exact(context.Background())
	fmt.Println(err != nil)
	// Output:
	// [heroes_win villains_win escaped timed_out]
	// [rounds flurry_rounds cards_played cards_drawn heroes_down villains_down flips]
	// true
}

// A designer's deck as a bare composition: the GM faces are generated from
// the seed; unknown names and bad counts are errors.
func ExampleParseDeck() {
	comp := "# a lean deck\n20 Action\n20 Hero\n8 Drama\n"
	d, err := dramadeck.ParseDeck(strings.NewReader(comp), 7)
	if err != nil {
		panic(err)
	}
	fmt.Println(d.Len(), d.Count(dramadeck.Hero))
	_, err = dramadeck.ParseDeck(strings.NewReader("3 Fireball\n"), 7)
	fmt.Println(err)
	_, err = dramadeck.ParseDeck(strings.NewReader("0 Hero\n"), 7)
	fmt.Println(err)
	// Output:
	// 48 20
	// deck line 1: unknown card "Fireball"; allowed "Action", "Adrenalin", "Willpower", "Presence", "Coup de Grace", "Drama", "Escape", "Glory" and 21 more
	// deck line 1: bad count "0" (must be a whole number >= 1)
}
