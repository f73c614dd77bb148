// Command dramadeck answers two questions about the Drama Deck (Roger
// Bell_West's GURPS adaptation of the Torg Drama Deck) that nobody has
// published: the chance to finish a four-step Dramatic Skill Resolution
// within N rounds at skill S (exact chain, and the real deck sampled), and
// how many Flurry rounds an encounter sees.
//
//	go run ./examples/dramadeck
package main

import (
	"fmt"
	"os"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/dramadeck"
)

func main() {
	rules := dramadeck.DefaultRules()
	deck, err := dramadeck.DefaultDeck()
	if err != nil {
		fail(err)
	}
	pol, err := dramadeck.PolicyByName("default")
	if err != nil {
		fail(err)
	}
	fmt.Println("Four-step skill resolution, chance to finish within N rounds (exact):")
	fmt.Printf("%-6s", "skill")
	rounds := []int{4, 6, 8, 10, 12}
	for _, n := range rounds {
		fmt.Printf(" %8s", fmt.Sprintf("N=%d", n))
	}
	fmt.Printf(" %12s\n", "+last ditch")
	for skill := 10; skill <= 16; skill++ {
		t := dramadeck.Task{Skill: skill, Alternate: skill - 2, Rounds: 12}
		te, err := dramadeck.TaskChance(rules, t, deck.BarOdds(), pol)
		if err != nil {
			fail(err)
		}
		fmt.Printf("%-6d", skill)
		for _, n := range rounds {
			fmt.Printf(" %8.3f", te.Within(n))
		}
		fmt.Printf(" %12.3f\n", te.P)
	}

	sc := dramadeck.DefaultScenario()
	rn, err := sc.NewRunner()
	if err != nil {
		fail(err)
	}
	metrics := make([]int, len(sc.Metrics()))
	flurry := 0
	for i, m := range sc.Metrics() {
		if m == "flurry_rounds" {
			flurry = i
		}
	}
	r := dice.NewSeeded(1)
	const n = 20000
	total, wins := 0, make([]int, len(sc.Categories()))
	for i := 0; i < n; i++ {
		k, err := rn.Trial(r, metrics)
		if err != nil {
			fail(err)
		}
		wins[k]++
		total += metrics[flurry]
	}
	fmt.Printf("\nBuilt-in encounter, %d trials: %.3f Flurry rounds per encounter\n", n, float64(total)/n)
	for i, c := range sc.Categories() {
		fmt.Printf("  %-13s %.3f\n", c, float64(wins[i])/n)
	}

	// The other studies: the bomb disposal out of combat and under fire,
	// a scene, an adventure.
	for _, name := range []string{"task", "task_in_combat", "scene", "adventure"} {
		st := dramadeck.Builtins()[name]
		rn, err := st.NewRunner()
		if err != nil {
			fail(err)
		}
		metrics := make([]int, len(st.Metrics()))
		counts := make([]int, len(st.Categories()))
		for range 2000 {
			k, err := rn.Trial(r, metrics)
			if err != nil {
				fail(err)
			}
			counts[k]++
		}
		fmt.Printf("\n%s (%s), 2000 trials:\n", name, st.Describe().Title)
		for i, c := range st.Categories() {
			fmt.Printf("  %-13s %.3f\n", c, float64(counts[i])/2000)
		}
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, err)
	os.Exit(1)
}
