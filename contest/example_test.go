package contest_test

import (
	"context"
	"fmt"

	"github.com/stakesrpg/stakes/contest"
	"github.com/stakesrpg/stakes/dice"
)

// A basic action against the Trouble Pool, with the dice scripted so the
// example always reads the same.
func Example() {
	s := &contest.State{
		Rules: contest.DefaultRules(),
		Characters: []contest.Character{{Name: "Detective", PlotPoints: 1, Traits: []contest.Trait{
			{Name: "Justice", Kind: contest.Value, Die: dice.D8},
			{Name: "Gotham", Kind: contest.Relationship, Die: dice.D6},
			{Name: "World's Greatest", Kind: contest.Distinction, Die: dice.D10},
		}}},
		Trouble: []dice.Die{dice.D6, dice.D6},
	}
	var e contest.Engine
	pool := []contest.Pick{{Owner: 0, Trait: 0}, {Owner: 0, Trait: 1}, {Owner: 0, Trait: 2}}
	_ = e.Begin(s, contest.Basic, []contest.SideSetup{
		{Char: contest.TroublePool},
		{Char: 0, Base: pool},
	}, 0)
	r := dice.Scripted(4, 3, 5, 1, 9)
	_ = e.Roll(s, r, nil)   // the Trouble Pool sets the stakes: 4 + 3
	_ = e.Roll(s, r, pool)  // the detective: 5 + 9, the 1 left out
	_ = e.TakeTrouble(s, 0) // the win takes a die (the first d6) off the Trouble Pool
	a := s.Action
	fmt.Println("stakes", a.Stakes, "total", a.Sides[1].Total, "end", a.End)
	fmt.Println("trouble left", s.Trouble, "1s the GM may buy", a.Ones)
	// Output:
	// stakes 7 total 14 end extraordinary
	// trouble left [d6] 1s the GM may buy 1
}

// Exact odds of the built-in scenario: a villain with two thugs against the
// detective.
func ExampleScenario_Exact() {
	sc := contest.DefaultScenario()
	ex, err := sc.Exact(context.Background())
	if err != nil {
		fmt.Println(err)
		return
	}
	for i, c := range sc.Categories() {
		fmt.Printf("%-29s %.3f\n", c, ex.P[i])
	}
	fmt.Printf("mean rolls %.2f\n", ex.MeanRounds)
	// Output:
	// villain_wins                  0.648
	// villain_wins_extraordinary    0.000
	// villain_wins_give_in          0.017
	// detective_wins                0.335
	// detective_wins_extraordinary  0.000
	// detective_wins_give_in        0.000
	// mean rolls 2.48
}

// The exact distribution of a pool's total: two highest dice, 1s out.
func ExampleTotalDist() {
	d, _ := contest.TotalDist([]dice.Die{dice.D8, dice.D6}, contest.DefaultRules())
	fmt.Printf("P(0) = %.4f  P(total >= 10) = %.4f  mean %.3f\n", d.Prob(0), d.AtLeast(10), d.Mean())
	p, _ := contest.PBeat([]dice.Die{dice.D8, dice.D6}, []dice.Die{dice.D6, dice.D6}, 0, contest.DefaultRules())
	fmt.Printf("P(d8 d6 beats 2d6) = %.4f\n", p)
	// Output:
	// P(0) = 0.0208  P(total >= 10) = 0.3125  mean 7.708
	// P(d8 d6 beats 2d6) = 0.5503
}

// Policies are chosen by name in scenario files.
func ExamplePolicyByName() {
	fmt.Println(contest.PolicyNames())
	p, _ := contest.PolicyByName("stubborn")
	fmt.Println(p.Name(), p.GiveIn(&contest.View{Stakes: 30, BestAll: 10}))
	// Output:
	// [cautious default frugal pile_on push_largest stubborn trouble_smallest]
	// stubborn false
}

// A contest played to its end by policies, narrated from its events. A
// default detective would Give In facing 18 (its best is 14); a stubborn one
// rolls, falls far short, and makes a Final Push to escape Trauma; after
// the contest it buys its Value back with the Reflection Point it earned.
func ExampleEngine_Play() {
	s := &contest.State{Rules: contest.DefaultRules(), Characters: []contest.Character{
		{Name: "Detective", Traits: []contest.Trait{
			{Name: "Justice", Kind: contest.Value, Die: dice.D8},
			{Name: "Gotham", Kind: contest.Relationship, Die: dice.D6}}},
		{Name: "Villain", GM: true, Traits: []contest.Trait{
			{Name: "Chaos", Kind: contest.Value, Die: dice.D10},
			{Name: "Henchmen", Kind: contest.Relationship, Die: dice.D8}}},
	}}
	stubborn, _ := contest.PolicyByName("stubborn")
	e := contest.Engine{Policies: contest.Table{Chars: []contest.Policy{stubborn}}}
	e.Sink = func(ev contest.Event) { fmt.Println(ev) }
	det := []contest.Pick{{Owner: 0, Trait: 0}, {Owner: 0, Trait: 1}}
	vil := []contest.Pick{{Owner: 1, Trait: 0}, {Owner: 1, Trait: 1}}
	_ = e.Begin(s, contest.Contested, []contest.SideSetup{
		{Char: 1, Base: vil}, {Char: 0, Base: det}}, 0)
	// Villain 6+3, detective 7+5, villain 10+8, detective 2+1; then the
	// villain's Complication Pool (d10 d8) rolls 4 and 6.
	r := dice.Scripted(6, 3, 7, 5, 10, 8, 2, 1, 4, 6)
	if err := e.Play(s, r); err != nil {
		fmt.Println(err)
	}
	// Output:
	// Villain rolled d10 d8 (6, 3) for a total of 9.
	// Villain set the stakes at 9.
	// Detective rolled d8 d6 (7, 5) for a total of 12.
	// Detective raised the stakes to 12.
	// Villain rolled d10 d8 (10, 8) for a total of 18.
	// Villain raised the stakes to 18.
	// Detective rolled d8 d6 (2, 1) for a total of 2.
	// Detective failed to beat the stakes, 16 short, and is beaten.
	// The GM bought a 1 Detective rolled, giving Detective a Plot Point.
	// The Trouble Pool grew by a d6.
	// Detective made a Final Push, stepping Gotham down to d4.
	// Detective made a Final Push, giving up Gotham for good.
	// Detective made a Final Push, stepping Justice down to d6.
	// Detective earned 1 Reflection Point for losing without giving in.
	// Villain won the action.
	// Detective now has the Complication "Villain" at d8.
	// Detective spent 1 Reflection Point.
	// Detective bought Justice back up to d8 for 1 Reflection Point.
}

// A trait a Final Push lowered stays lowered until its owner buys the lost
// steps back with Reflection Points, one a step by default, never above the
// rating it was lowered from.
func ExampleEngine_Rebuy() {
	s := &contest.State{Rules: contest.DefaultRules(), Characters: []contest.Character{{Name: "Detective", Reflection: 2, Traits: []contest.Trait{
		{Name: "Justice", Kind: contest.Value, Die: dice.D8},
		{Name: "Gotham", Kind: contest.Relationship, Die: dice.D4, Original: dice.D8},
	}}}}
	var e contest.Engine
	fmt.Println(e.Rebuy(s, 0, 1, 3))
	fmt.Println(e.Rebuy(s, 0, 1, 2), s.Characters[0].Traits[1].Die, "reflection", s.Characters[0].Reflection)
	// Output:
	// contest: buying Detective's "Gotham" back 3 steps: it is d4, lowered from d8, so 1..2
	// <nil> d8 reflection 0
}

// A basic action between two bare pools, as a chat bot might roll it: the
// villain's d10 d8 d6 set the stakes and the detective's d8 d6 d10 must
// beat them. The Roller is seeded, so the example always reads the same.
func ExampleRules_BasicRoll() {
	rules := contest.DefaultRules()
	r := dice.NewSeeded(7)
	villain := []dice.Die{dice.D10, dice.D8, dice.D6}
	detective := []dice.Die{dice.D8, dice.D6, dice.D10}
	var res contest.BasicResult // reused: its face slices are kept
	for range 3 {
		if err := rules.BasicRoll(r, detective, villain, &res); err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("stakes %v = %d, roll %v = %d: won %v, Extraordinary %v, 1s %d\n",
			res.StakesFaces, res.Stakes, res.Faces, res.Total, res.Won, res.Extraordinary, res.Ones)
	}
	// A d20 is not a trait die.
	fmt.Println(rules.BasicRoll(r, []dice.Die{dice.D20}, villain, &res))
	// Output:
	// stakes [8 7 3] = 15, roll [1 1 6] = 6: won false, Extraordinary true, 1s 2
	// stakes [2 6 1] = 8, roll [3 5 5] = 10: won true, Extraordinary false, 1s 0
	// stakes [9 2 1] = 11, roll [7 5 5] = 12: won true, Extraordinary false, 1s 0
	// contest: the actor's pool, die 1: dice: d20 is not a ladder size: allowed are d4, d6, d8, d10, d12
}
