// Command actiontest prints exact odds for d6-pool action tests (Einfelst
// Wilds, Action Tests): the chance to get the successes a test needs, by
// pool size and difficulty, without pushing and when a failed roll is
// always pushed (re-roll every non-six with two more dice).
//
//	go run ./examples/actiontest
package main

import (
	"fmt"
	"os"

	"github.com/stakesrpg/stakes/actiontest"
)

func main() {
	rules := actiontest.DefaultRules()
	fmt.Println("P(at least the required sixes): no push / push when failed")
	fmt.Printf("%-6s", "pool")
	for _, d := range []string{"normal (1)", "challenging (2)", "difficult (3)"} {
		fmt.Printf(" %17s", d)
	}
	fmt.Println()
	for n := 1; n <= 8; n++ {
		fmt.Printf("%-6d", n)
		for need := 1; need <= 3; need++ {
			plain, err := rules.SuccessDist(n, nil)
			if err != nil {
				fail(err)
			}
			pushed, err := rules.SuccessDist(n, func(s int) bool { return s < need })
			if err != nil {
				fail(err)
			}
			fmt.Printf("      %.3f/%.3f", plain.AtLeast(need), pushed.AtLeast(need))
		}
		fmt.Println()
	}
	win, tie, lose, err := rules.OpposedOdds(4, 3)
	if err != nil {
		fail(err)
	}
	fmt.Printf("\nOpposed, 4 dice against 3: win %.3f, neither %.3f, lose %.3f\n", win, tie, lose)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, err)
	os.Exit(1)
}
