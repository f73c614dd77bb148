// Command edge narrates one car chase under the Dramatic Interaction rules
// of d20 Advanced, then prints the exact odds of the same chase.
//
//	go run ./examples/edge [-seed N]
package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/edge"
)

func main() {
	seed := flag.Uint64("seed", 3, "seed for the dice")
	flag.Parse()
	sc := edge.DefaultScenario()
	e, err := sc.NewEngine()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	var rec edge.Recorder
	e.Sink = rec.Record
	st := e.NewState()
	if err := e.Play(st, dice.NewSeeded(*seed)); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("One chase (seed %d), event by event:\n", *seed)
	for i, ev := range rec.Events {
		if i == 40 {
			fmt.Printf("  ... %d more events\n", len(rec.Events)-40)
			break
		}
		fmt.Println("  " + ev.String())
	}
	fmt.Printf("Result: %+v after %d rounds\n\n", st.Outcome, st.Round)

	ex, err := sc.Exact(context.Background())
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println("Exact odds of this chase (absorbing Markov chain over edge dice and initiative):")
	for i, name := range sc.Categories() {
		if ex.P[i] > 0 {
			fmt.Printf("  %-14s %.4f\n", name, ex.P[i])
		}
	}
	fmt.Printf("  expected rounds %.2f\n", ex.MeanRounds)
}
