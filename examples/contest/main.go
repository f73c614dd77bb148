// Command contest prints exact Cortex-style odds (Gotham Reborn, Scenes
// and Actions): the chance that a pool, totalling its two highest dice
// with 1s excluded, beats the stakes a GM's pool sets, and beats them by
// the Extraordinary margin; then it rolls one matchup 100,000 times through
// Rules.BasicRoll, the way a table tool would, beside its exact odds; and
// last it narrates one game of the built-in contest, played step by step
// through the game contract (Scenario.Start, Game.Step), as a bot would.
//
//	go run ./examples/contest
package main

import (
	"fmt"
	"os"

	"github.com/stakesrpg/stakes/contest"
	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim"
)

func main() {
	rules := contest.DefaultRules()
	pools := []string{"d8 d6", "d8 d6 d6", "d10 d8 d6", "d10 d8 d8 d6", "d12 d10 d8 d6"}
	stakes := []string{"2d6", "d8 d6", "d8 d8", "d10 d8 d6", "d12 d10 d8"}
	dist := func(s string) dice.Dist {
		p, err := dice.ParsePool(s)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		d, err := contest.TotalDist(p.Dice(), rules)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		return d
	}
	fmt.Println("P(player's total beats the stakes) / P(beats them by 5 or more: Extraordinary)")
	fmt.Printf("%-15s", "pool \\ stakes")
	for _, s := range stakes {
		fmt.Printf(" %14s", s)
	}
	fmt.Println()
	for _, p := range pools {
		a := dist(p)
		fmt.Printf("%-15s", p)
		for _, s := range stakes {
			b := dist(s)
			fmt.Printf("    %.3f/%.3f", a.Greater(b), a.BeatsBy(b, rules.Extraordinary))
		}
		fmt.Printf("   mean %.2f\n", a.Mean())
	}

	// The same odds sampled: a bot or a table tool rolls basic actions
	// between bare pools with Rules.BasicRoll (seeded here, so the output
	// is the same every run).
	pool, stake := pools[2], stakes[3]
	a, b := dist(pool), dist(stake) // these parse: dist has checked them
	pp, _ := dice.ParsePool(pool)
	sp, _ := dice.ParsePool(stake)
	pd, sd := pp.Dice(), sp.Dice()
	r := dice.NewSeeded(1)
	var res contest.BasicResult
	const n = 100000
	won, xo := 0, 0
	for range n {
		if err := rules.BasicRoll(r, pd, sd, &res); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		if res.Won {
			won++
			if res.Extraordinary {
				xo++
			}
		}
	}
	fmt.Printf("\n%s against %s, %d rolls through BasicRoll: won %.3f (exact %.3f), Extraordinary %.3f (exact %.3f)\n",
		pool, stake, n, float64(won)/n, a.Greater(b), float64(xo)/n, a.BeatsBy(b, rules.Extraordinary))

	narrate()
}

// narrate plays one game of the built-in scenario, a step at a time,
// printing each event as its sentence and then how the game ended.
func narrate() {
	sc := contest.DefaultScenario()
	r := dice.NewSeeded(3)
	g, err := sc.Start(r)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("\n%s\n", sc.Describe().Title)
	g.Listen(func(e sim.Event) { fmt.Println(" ", e) })
	for !g.Done() {
		if err := g.Step(r); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	cat, err := g.Outcome(nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println("outcome:", sc.Categories()[cat])
}
