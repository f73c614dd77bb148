package actiontest_test

import (
	"context"
	"fmt"
	"math"

	"github.com/stakesrpg/stakes/actiontest"
	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim"
	"github.com/stakesrpg/stakes/sim/markov"
)

// A risky Prowl test, rolled with dice typed in by hand: no six, so the
// thief pushes, takes a lesser Physical harm and re-rolls the four misses
// with two more dice.
func Example() {
	c, err := actiontest.NewState(actiontest.DefaultRules(), actiontest.Sheet{
		Name:       "Vex",
		Attributes: map[string]int{"Dexterity": 2},
		Actions:    map[string]int{"Prowl": 2},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	var rec actiontest.Recorder
	eng := actiontest.Engine{Sink: rec.Record}
	r := dice.Scripted(3, 1, 5, 2 /* push: */, 6, 4, 2, 6, 1, 3)
	at := &c.Attempt
	t := actiontest.Test{Action: "Prowl", Position: actiontest.Risky, Difficulty: 1}
	if err := eng.Begin(c, r, t); err != nil {
		fmt.Println(err)
		return
	}
	if err := eng.Push(c, r, "physical"); err != nil {
		fmt.Println(err)
		return
	}
	if err := eng.Finish(c); err != nil {
		fmt.Println(err)
		return
	}
	for _, line := range rec.Lines() {
		fmt.Println(line)
	}
	fmt.Println("extra successes:", at.Extra, "physical harm:", c.Harm[0].Rows)
	// Output:
	// Vex rolls 4 dice for Prowl at a risky position: 3 1 5 2, 0 successes.
	// Vex takes level 1 physical harm, marked in the lesser row.
	// Vex pushes the roll, paying with physical harm, and re-rolls 6 dice: 6 4 2 6 1 3, 2 successes in all.
	// Vex has 2 successes of the 1 needed: a success with a bonus.
	// extra successes: 1 physical harm: [1 0 0]
}

// Exact odds of a challenging test from five dice, with and without pushing
// every failure.
func ExampleEngine_Chances() {
	c, _ := actiontest.NewState(actiontest.DefaultRules(), actiontest.Sheet{
		Attributes: map[string]int{"Presence": 3},
		Actions:    map[string]int{"Persuade": 2},
	})
	t := actiontest.Test{Action: "Persuade", Position: actiontest.Desperate, Difficulty: 2}
	for _, name := range []string{"never", "always_when_failed"} {
		p, _ := actiontest.PolicyByName(name)
		ch, _ := actiontest.Engine{Policies: actiontest.Table{Player: p}}.Chances(c, t)
		fmt.Printf("%-18s succeed %.4f  worst outcome %.4f  pushed %.4f\n",
			name, ch.Succeeded, ch.Kind[actiontest.Worst], ch.Pushed)
	}
	// Output:
	// never              succeed 0.1962  worst outcome 0.8038  pushed 0.0000
	// always_when_failed succeed 0.5962  worst outcome 0.4038  pushed 0.8038
}

// The odds of an opposed test between four dice and three.
func ExampleRules_OpposedOdds() {
	rl := actiontest.DefaultRules()
	win, tie, lose, _ := rl.OpposedOdds(4, 3)
	fmt.Printf("win %.4f tie %.4f lose %.4f\n", win, tie, lose)
	// Output:
	// win 0.3466 tie 0.4211 lose 0.2323
}

// The built-in rooftop chase, solved exactly.
func ExampleScenario_Exact() {
	s := actiontest.DefaultScenario()
	ex, err := s.Exact(context.Background())
	if err != nil {
		fmt.Println(err)
		return
	}
	for i, name := range s.Categories() {
		fmt.Printf("%-8s %.4f\n", name, ex.P[i])
	}
	fmt.Printf("mean tests %.3f\n", ex.MeanRounds)
	// Output:
	// clean    0.0181
	// hurt     0.4716
	// lost     0.5103
	// out      0.0000
	// stalled  0.0000
	// mean tests 3.157
}

// Sampling the rooftop chase with a Runner: one Runner per goroutine, one
// trial per call, no allocation.
func ExampleScenario_NewRunner() {
	s := actiontest.DefaultScenario()
	s.Policy = "never"
	rn, err := s.NewRunner()
	if err != nil {
		fmt.Println(err)
		return
	}
	r := dice.NewSeeded(2026)
	counts := make([]int, len(s.Categories()))
	metrics := make([]int, len(s.Metrics()))
	tests := 0
	const trials = 10000
	for range trials {
		c, err := rn.Trial(r, metrics)
		if err != nil {
			fmt.Println(err)
			return
		}
		counts[c]++
		tests += metrics[0]
	}
	ex, _ := s.Exact(context.Background())
	for i, name := range s.Categories()[:3] {
		got := float64(counts[i]) / trials
		fmt.Printf("%-6s exact %.3f, sampled within 0.02: %v\n", name, ex.P[i], math.Abs(got-ex.P[i]) < 0.02)
	}
	fmt.Printf("tests  exact %.3f, sampled within 0.1: %v\n", ex.MeanRounds, math.Abs(float64(tests)/trials-ex.MeanRounds) < 0.1)
	// Output:
	// clean  exact 0.326, sampled within 0.02: true
	// hurt   exact 0.115, sampled within 0.02: true
	// lost   exact 0.559, sampled within 0.02: true
	// tests  exact 3.767, sampled within 0.1: true
}

// Three sixes against a normal test: two extra successes, spent on healing
// the lesser harm the thief carries and on a die for the next roll.
func ExampleEngine_Spend() {
	var eng actiontest.Engine
	c, err := actiontest.NewState(actiontest.DefaultRules(), actiontest.Sheet{
		Attributes: map[string]int{"Dexterity": 2},
		Actions:    map[string]int{"Prowl": 2},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	if _, err := eng.TakeHarm(c, 1, "physical"); err != nil { // a lesser physical harm: -1 die
		fmt.Println(err)
		return
	}
	at := &c.Attempt
	t := actiontest.Test{Action: "Prowl", Position: actiontest.Risky, Difficulty: 1}
	if err := eng.ActionTest(c, dice.Scripted(6, 6, 6), t); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("extra successes:", at.Extra)
	if err := eng.Spend(c, "heal_harm", "bonus_die"); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("bought:", at.Bought)
	fmt.Println("physical harm:", c.Harm[0].Rows, "dice carried:", c.Bonus)
	fmt.Println(eng.Spend(c, "help_ally"))
	// Output:
	// extra successes: 2
	// bought: [{heal_harm physical lesser} {bonus_die  }]
	// physical harm: [0 0 0] dice carried: 1
	// actiontest: not enough extra successes: the effects cost 1, 0 of 2 extra successes are left
}

// Two Desperate rolls — one six (a success with a consequence) and none
// (the worst outcome) — under each Director the state names: "harsh" adds
// a moderate harm to the success's complication, "gentle" turns the
// failure's severe harm into part of its serious complication.
func ExampleDirectorByName() {
	var eng actiontest.Engine
	for _, name := range []string{"table", "harsh", "gentle"} {
		for _, faces := range [][]int{{6, 2, 3, 4}, {1, 2, 3, 4}} {
			c, err := actiontest.NewState(actiontest.DefaultRules(), actiontest.Sheet{
				Attributes: map[string]int{"Dexterity": 2},
				Actions:    map[string]int{"Prowl": 2},
			})
			if err != nil {
				fmt.Println(err)
				return
			}
			c.Director = name
			at := &c.Attempt
			t := actiontest.Test{Action: "Prowl", Position: actiontest.Desperate, Difficulty: 1}
			if err := eng.ActionTest(c, dice.Scripted(faces...), t); err != nil {
				fmt.Println(err)
				return
			}
			fmt.Printf("%-6s %v: %v, harm %v\n", name, faces, at.Outcome.Consequences, c.Harm[0].Rows)
		}
	}
	// Output:
	// table  [6 2 3 4]: [{complication false 0}], harm [0 0 0]
	// table  [1 2 3 4]: [{complication true 0} {harm false 3} {lost_opportunity false 0}], harm [0 0 1]
	// harsh  [6 2 3 4]: [{complication false 0} {harm false 2}], harm [0 1 0]
	// harsh  [1 2 3 4]: [{complication true 0} {harm false 3} {lost_opportunity false 0}], harm [0 0 1]
	// gentle [6 2 3 4]: [{complication false 0}], harm [0 0 0]
	// gentle [1 2 3 4]: [{complication true 0} {lost_opportunity false 0}], harm [0 0 0]
}

// How much the thief's decisions matter in the rooftop chase: the odds of
// reaching the clock under the best play, the worst play and the gap
// between them, and the two decisions worth most.
func ExampleScenario_Solve() {
	s := actiontest.DefaultScenario()
	sv, err := s.Solve(context.Background(), markov.Goal{Outcomes: []string{"clean", "hurt"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("best %.3f, own play (%s) %.3f: playing well is worth %+.3f\n", sv.Best.Value, sv.Own.Name, sv.Own.Value, sv.Worth)
	fmt.Printf("worst %.3f, gap %.3f\n", sv.Worst.Value, sv.Gap)
	for _, p := range sv.Policies {
		fmt.Printf("  %-18s %.3f\n", p.Name, p.Value)
	}
	for _, a := range sv.Advice[:2] {
		fmt.Printf("%s: %s rather than %s, worth %.3f per game\n", a.When, a.Do, a.Else, a.Worth)
	}
	// Output:
	// best 0.781, own play (threshold) 0.490: playing well is worth +0.291
	// worst 0.163, gap 0.618
	//   always_when_failed 0.627
	//   cautious           0.530
	//   daring             0.618
	//   never              0.441
	//   threshold          0.490
	// offered a Risk Peril deal before a risky test, unhurt: decline the Risk Peril deal rather than take the Risk Peril deal, worth 0.353 per game
	// offered a Risk Peril deal before a desperate test, unhurt: decline the Risk Peril deal rather than take the Risk Peril deal, worth 0.157 per game
}

// A rooftop chase played a step at a time through the game contract, each
// event narrated as it happens.
func ExampleScenario_Start() {
	s := actiontest.DefaultScenario()
	r := dice.NewSeeded(12)
	g, err := s.Start(r)
	if err != nil {
		fmt.Println(err)
		return
	}
	g.Listen(func(e sim.Event) { fmt.Println(e) })
	for !g.Done() {
		if err := g.Step(r); err != nil {
			fmt.Println(err)
			return
		}
	}
	cat, _ := g.Outcome(nil)
	fmt.Println("outcome:", s.Categories()[cat], "after", g.(*actiontest.Game).Pursuit().Metrics[0], "tests")
	// Output:
	// Vex rolls 4 dice for Prowl at a risky position: 4 4 4 1, 0 successes.
	// Vex takes level 1 physical harm, marked in the lesser row.
	// Vex pushes the roll, paying with physical harm, and re-rolls 6 dice: 2 4 1 1 2 1, 0 successes in all.
	// Vex has 0 successes of the 1 needed, and the position worsens to desperate: not failed, not yet succeeded, Vex tries again.
	// Vex calls a flashback of difficulty 1.
	// Vex rolls 3 dice for a flashback of Prowl at a controlled position: 3 2 3, 0 successes.
	// Vex takes level 1 physical harm, marked in the lesser row.
	// Vex pushes the roll, paying with physical harm, and re-rolls 5 dice: 6 3 4 6 4, 2 successes in all.
	// Vex has 2 successes of the 1 needed: a success with a bonus.
	// Vex rolls 3 dice for Prowl at a desperate position: 5 6 6, 2 successes.
	// Vex has 2 successes of the 1 needed: a success.
	// Vex rolls 2 dice for Prowl at a risky position: 3 3, 0 successes.
	// Vex has 0 successes of the 1 needed, and the position worsens to desperate: not failed, not yet succeeded, Vex tries again.
	// Vex rolls 2 dice for Prowl at a desperate position: 6 1, 1 success.
	// Vex has 1 success of the 1 needed: a success with a consequence.
	// Vex rolls 2 dice for Prowl at a risky position: 3 3, 0 successes.
	// Vex has 0 successes of the 1 needed, and the position worsens to desperate: not failed, not yet succeeded, Vex tries again.
	// Vex rolls 2 dice for Prowl at a desperate position: 1 6, 1 success.
	// Vex has 1 success of the 1 needed: a success with a consequence.
	// outcome: hurt after 6 tests
}
