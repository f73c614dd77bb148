package edge_test

import (
	"context"
	"fmt"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/edge"
	"github.com/stakesrpg/stakes/sim"
	"github.com/stakesrpg/stakes/sim/markov"
)

// The rule text's car chase: Becky (Vehicles) and Bob (Ranged Attack) in
// the lead car against Joe (Vehicles), with results 21, 14 and 19.
func ExampleEngine_Round() {
	e, err := edge.DefaultScenario().NewEngine()
	if err != nil {
		fmt.Println(err)
		return
	}
	s := e.NewState()
	rec := &edge.Recorder{}
	e.Sink = rec.Record
	// Reflex to start (Becky 17+3, Joe 10+4), then the round's checks.
	r := dice.Scripted(17, 10, 15, 9, 12)
	if err := e.Start(s, r); err != nil {
		fmt.Println(err)
		return
	}
	veh, _ := e.Skill("vehicles")
	shoot, _ := e.Skill("ranged attack")
	err = e.Round(s, r, &edge.Declaration{
		Action:    edge.Action{Party: 0, Targets: []int{1}, Checks: []edge.Use{{Member: 0, Skill: veh}, {Member: 1, Skill: shoot}}},
		Reactions: []edge.Reaction{{Party: 1, Checks: []edge.Use{{Member: 0, Skill: veh}}}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, ev := range rec.Events {
		fmt.Println(ev.String())
	}
	fmt.Println("edge dice:", s.Parties[0].Edge, s.Parties[1].Edge)
	// Output:
	// Before the first round, Becky (lead car) rolls reflex for the order of action: 17 + 3 = 20.
	// Before the first round, Joe (pursuer) rolls reflex for the order of action: 10 + 4 = 14.
	// Lead car acts first.
	// Round 1: Becky (lead car) wagers an edge die on vehicles: 15 + 6 = 21.
	// Round 1: Bob (lead car) wagers an edge die on ranged attack: 9 + 5 = 14.
	// Round 1: Joe (pursuer) wagers an edge die on vehicles: 12 + 7 = 19.
	// Round 1: Bob (lead car) loses an edge die to Joe (pursuer), who rolled higher.
	// Round 1: Joe (pursuer) loses an edge die to Becky (lead car), who rolled higher.
	// edge dice: 5 6
}

// Exact odds of the default scenario: a cautious lead car against a
// reckless pursuer.
func ExampleScenario_Exact() {
	s := edge.DefaultScenario()
	ex, err := s.Exact(context.Background())
	if err != nil {
		fmt.Println(err)
		return
	}
	for i, c := range s.Categories() {
		fmt.Printf("%s %.3f\n", c, ex.P[i])
	}
	fmt.Printf("mean rounds %.1f\n", ex.MeanRounds)
	// Output:
	// lead_car_wins 0.286
	// pursuer_wins 0.714
	// lead_car_partial 0.000
	// pursuer_partial 0.000
	// draw 0.000
	// mean rounds 22.2
}

// A whole social battle decided by the policies.
func ExampleEngine_Play() {
	s := edge.Scenario{Rules: edge.DefaultRules(), Type: "social", Parties: []edge.Party{
		{Name: "duchess", Policy: "canny", Members: []edge.Member{{Name: "Duchess", Skills: map[string]int{"persuasion": 6, "perception": 3}}}},
		{Name: "upstart", Policy: "reckless", Members: []edge.Member{{Name: "Upstart", Skills: map[string]int{"deception": 5, "wits": 4}}}},
	}}
	e, err := s.NewEngine()
	if err != nil {
		fmt.Println(err)
		return
	}
	st := e.NewState()
	if err := e.Play(st, dice.NewSeeded(42)); err != nil {
		fmt.Println(err)
		return
	}
	o := st.Outcome
	// Neither policy surrenders, so the duchess walks away three dice
	// ahead or one side runs out; either way somebody wins and every edge
	// die is still in play.
	fmt.Println(o.End == edge.WalkedAway || o.End == edge.RanOut, o.Winner >= 0, st.Parties[0].Edge+st.Parties[1].Edge)
	// Output: true true 10
}

// How much playing well matters for the lead car in the built-in chase:
// its best and worst play, and the decisions that matter most.
func ExampleScenario_Solve() {
	sv, err := edge.DefaultScenario().Solve(context.Background(), markov.Goal{Side: "lead car"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s wins %.4f with best play, %.4f with the worst: decisions are worth %.4f\n",
		sv.Side, sv.Best.Value, sv.Worst.Value, sv.Gap)
	for _, p := range sv.Policies {
		fmt.Printf("%s %.4f\n", p.Name, p.Value)
	}
	for _, a := range sv.Advice[:2] {
		fmt.Printf("%s: %s\n", a.When, a.Do)
	}
	// Output:
	// lead car wins 0.3045 with best play, 0.0000 with the worst: decisions are worth 0.3045
	// canny 0.0241
	// cautious 0.2864
	// reckless 0.0038
	// steady 0.0061
	// pursuer holds the initiative, lead car 5 edge dice to pursuer 6: react with 1 die: Becky with vehicles
	// lead car holds the initiative, lead car 6 edge dice to pursuer 5: wager 1 die, most often Becky with vehicles
}

// A game played through the game contract, as code that knows no rule
// package plays it: started, stepped to its end hearing every event, and
// scored as a trial is.
func ExampleScenario_Start() {
	s := edge.DefaultScenario()
	g, err := s.Start(dice.NewSeeded(3))
	if err != nil {
		fmt.Println(err)
		return
	}
	events := 0
	g.Listen(func(e sim.Event) {
		if events < 4 {
			fmt.Println(e)
		}
		events++
	})
	r := dice.NewSeeded(3)
	for !g.Done() {
		if err := g.Step(r); err != nil {
			fmt.Println(err)
			return
		}
	}
	metrics := make([]int, len(s.Metrics()))
	c, err := g.Outcome(metrics)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s.Categories()[c], "after", metrics[0], "rounds")
	// Output:
	// Before the first round, Becky (lead car) rolls reflex for the order of action: 4 + 3 = 7.
	// Before the first round, Joe (pursuer) rolls reflex for the order of action: 3 + 4 = 7.
	// Pursuer acts first.
	// Round 1: Joe (pursuer) wagers an edge die on vehicles: 15 + 7 = 22.
	// lead_car_wins after 12 rounds
}
