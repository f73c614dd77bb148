// Command challenge prints exact odds for Art, Grace & Guts conflicts
// (Action & Consequence): how one exchange goes for common pairs of stat
// dice, with and without the advantage die, and who wins a whole duel;
// then plays the text's own conflict once, told event by event.
//
//	go run ./examples/challenge
package main

import (
	"fmt"
	"os"

	"github.com/stakesrpg/stakes/challenge"
	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim"
)

func main() {
	r := challenge.DefaultRules()
	stats := []struct {
		name string
		ds   []dice.Die
	}{
		{"d12 d10", []dice.Die{dice.D12, dice.D10}},
		{"d12 d4", []dice.Die{dice.D12, dice.D4}},
		{"d10 d8", []dice.Die{dice.D10, dice.D8}},
		{"d8 d6", []dice.Die{dice.D8, dice.D6}},
		{"d6 d6", []dice.Die{dice.D6, dice.D6}},
		{"d6 d4", []dice.Die{dice.D6, dice.D4}},
	}
	fmt.Println("One exchange: the answerer rerolls against the challenger's standing roll.")
	fmt.Println("P(challenger doubles the answer: an outright win), without / with the advantage die")
	fmt.Printf("%-12s", "chal \\ ans")
	for _, b := range stats {
		fmt.Printf(" %13s", b.name)
	}
	fmt.Println()
	for _, a := range stats {
		fmt.Printf("%-12s", a.name)
		for _, b := range stats {
			plain, err := challenge.ExchangeOdds(r, a.ds, b.ds, false, false)
			if err != nil {
				fail(err)
			}
			adv, err := challenge.ExchangeOdds(r, a.ds, b.ds, true, false)
			if err != nil {
				fail(err)
			}
			fmt.Printf("   %.3f/%.3f", plain.Double, adv.Double)
		}
		fmt.Println()
	}
	fmt.Println()
	fmt.Println("Whole duels, both sides hanging in when they can (exact, Markov chain over rounds):")
	fmt.Printf("  %-19s %9s %9s %8s %10s\n", "A vs B", "A wins", "B wins", "rounds", "exchanges")
	for _, pair := range [][2]int{{0, 5}, {2, 3}, {1, 2}, {4, 4}} {
		a, b := stats[pair[0]], stats[pair[1]]
		d, err := challenge.Duel(r, a.ds, b.ds, true, true)
		if err != nil {
			fail(err)
		}
		fmt.Printf("  %-19s %9.4f %9.4f %8.2f %10.2f\n", a.name+" vs "+b.name,
			d.P[challenge.AOutright]+d.P[challenge.AGiven], d.P[challenge.BOutright]+d.P[challenge.BGiven],
			d.MeanRounds, d.MeanExchanges)
	}
	fmt.Println()
	sc := challenge.DefaultScenario()
	fmt.Println("One conflict of the text's example:", sc.Describe().Title)
	roller := dice.NewSeeded(2006)
	g, err := sc.Start(roller)
	if err != nil {
		fail(err)
	}
	g.Listen(func(e sim.Event) { fmt.Println("  " + e.String()) })
	for !g.Done() {
		if err := g.Step(roller); err != nil {
			fail(err)
		}
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, err)
	os.Exit(1)
}
