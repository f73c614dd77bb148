// Command contest prints exact Cortex-style odds (Gotham Reborn, Scenes
// and Actions): the chance that a pool, totalling its two highest dice
// with 1s excluded, beats the stakes a GM's pool sets, and beats them by
// the Extraordinary margin.
//
//	go run ./examples/contest
package main

import (
	"fmt"
	"os"

	"github.com/stakesrpg/stakes/contest"
	"github.com/stakesrpg/stakes/dice"
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
			fmt.Printf("    %.3f/%.3f", a.Greater(b), a.Greater(b.Shift(rules.Extraordinary-1)))
		}
		fmt.Printf("   mean %.2f\n", a.Mean())
	}
}
