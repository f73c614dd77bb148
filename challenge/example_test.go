package challenge_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/stakesrpg/stakes/challenge"
	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim"
	"github.com/stakesrpg/stakes/sim/markov"
)

// The text's example: Althesa (Art d10 d8) comes to kill Irin (Guts d12
// d6), with the dice the text names.
func Example() {
	althesa := challenge.Standard("Althesa",
		challenge.MustStat(dice.D10, dice.D8), challenge.MustStat(dice.D6, dice.D6), challenge.MustStat(dice.D12, dice.D4),
		[5]string{challenge.Art, challenge.Grace, challenge.Guts, challenge.Guts, challenge.Art})
	althesa.Endeavors["warrior_priestessing"] = challenge.Art
	irin := challenge.Standard("Irin",
		challenge.MustStat(dice.D8, dice.D6), challenge.MustStat(dice.D10, dice.D4), challenge.MustStat(dice.D12, dice.D6),
		[5]string{challenge.Art, challenge.Guts, challenge.Grace, challenge.Grace, challenge.Art})

	c, err := challenge.NewState(challenge.DefaultRules(), []challenge.Party{
		{Name: "Althesa", Members: []challenge.Entry{{Character: althesa, Endeavor: "warrior_priestessing"}}},
		{Name: "Irin", Members: []challenge.Entry{{Character: irin, Endeavor: challenge.Defending}}},
	}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	eng := challenge.Engine{Sink: func(e challenge.Event) {
		switch e.Kind {
		case challenge.EvRoll:
			fmt.Printf("%s rolls %v, reads %d\n", c.Sides[e.Side].Name, e.Faces, e.Value)
		case challenge.EvChallenge, challenge.EvHangIn, challenge.EvDouble:
			fmt.Printf("%s: %v %s\n", c.Sides[e.Side].Name, e.Kind, c.Sides[e.Other].Name)
		case challenge.EvLoss:
			fmt.Printf("%s loses %v from %s\n", c.Sides[e.Side].Members[e.Member].Name, e.Loss.Sizes, e.Loss.Stat)
		}
	}}
	r := dice.Scripted(8, 3, 4, 2, 7, 5, 9, 4, 6, 11, 3, 6, 1)
	if err := eng.Play(c, r); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("Irin's Grace is now", c.Sides[1].Members[0].Stats[1])
	// Output:
	// Althesa rolls [8 3], reads 8
	// Irin rolls [4 2], reads 4
	// Althesa: challenge Irin
	// Irin rolls [7 5], reads 7
	// Irin: hang_in Althesa
	// Althesa rolls [9 4], reads 15
	// Irin rolls [11 3], reads 11
	// Althesa: challenge Irin
	// Irin rolls [6 1], reads 6
	// Irin: double Althesa
	// Irin loses [2 0 0 0] from grace
	// Irin's Grace is now d6 d4
}

// ExchangeOdds gives the exact chances of one exchange.
func ExampleExchangeOdds() {
	o, err := challenge.ExchangeOdds(challenge.DefaultRules(),
		[]dice.Die{dice.D10, dice.D8}, []dice.Die{dice.D12, dice.D6}, false, false)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("block %.4f  tie %.4f  double %.4f  over half %.4f\n", o.Block, o.Tie, o.Double, o.Over)
	// Output:
	// block 0.5193  tie 0.0177  double 0.1486  over half 0.3144
}

// Duel solves a whole two-sided conflict exactly.
func ExampleDuel() {
	d, err := challenge.Duel(challenge.DefaultRules(),
		[]dice.Die{dice.D10, dice.D8}, []dice.Die{dice.D12, dice.D6}, true, true)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("d10 d8 wins %.3f, d12 d6 wins %.3f; %.2f rounds, %.2f exchanges\n",
		d.P[challenge.AOutright], d.P[challenge.BOutright], d.MeanRounds, d.MeanExchanges)
	// Output:
	// d10 d8 wins 0.365, d12 d6 wins 0.635; 2.64 rounds, 3.53 exchanges
}

// A Scenario's Runner samples whole conflicts for the simulator.
func ExampleScenario() {
	s := challenge.DefaultScenario()
	rn, err := s.NewRunner()
	if err != nil {
		fmt.Println(err)
		return
	}
	r := dice.NewSeeded(1)
	wins := make([]int, len(s.Categories()))
	m := make([]int, len(s.Metrics()))
	for range 10000 {
		cat, err := rn.Trial(r, m)
		if err != nil {
			fmt.Println(err)
			return
		}
		wins[cat]++
	}
	ex, _ := s.Exact(context.Background())
	for i, c := range s.Categories()[:4] {
		fmt.Printf("%-16s sampled %.2f exact %.2f\n", c, float64(wins[i])/10000, ex.P[i])
	}
	// Output:
	// althesa_outright sampled 0.36 exact 0.36
	// althesa_given    sampled 0.00 exact 0.00
	// irin_outright    sampled 0.64 exact 0.64
	// irin_given       sampled 0.00 exact 0.00
}

// Characters lose die sizes and move them around, never adding any.
func ExampleCharacter_Move() {
	r := challenge.DefaultRules()
	c := challenge.Standard("Ben",
		challenge.MustStat(dice.D8, dice.D6), challenge.MustStat(dice.D10, dice.D4), challenge.MustStat(dice.D12, dice.D6),
		[5]string{challenge.Art, challenge.Guts, challenge.Grace, challenge.Grace, challenge.Art})
	// "Your character loses three Guts and gains one Art."
	if err := c.Lose(r, challenge.Loss{Stat: challenge.Guts, Sizes: [challenge.MaxDice]int{3}}); err != nil {
		fmt.Println(err)
	}
	if err := c.Move(r, challenge.Move{From: challenge.Grace, FromDie: 1, To: challenge.Art, ToDie: 1, Sizes: 1}); err != nil {
		fmt.Println(err)
	}
	fmt.Println(c.Stats[challenge.Art], "|", c.Stats[challenge.Grace], "|", c.Stats[challenge.Guts])
	err := c.Move(r, challenge.Move{From: challenge.Guts, FromDie: 0, To: challenge.Art, ToDie: 0, Sizes: 3})
	fmt.Println(err)
	// Output:
	// d8 d8 | d10 | d6 d6
	// challenge: Ben: moving 3 sizes from a d6, which has 2
}

// Solve tells how much Althesa's choices matter when she plays to win: the
// best play, the worst, their gap, and the decisions that matter most.
func ExampleScenario_Solve() {
	sv, err := challenge.DefaultScenario().Solve(context.Background(), markov.Goal{Side: "althesa"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s wins: best %.4f, own play (%s) %.4f, worth %+.4f\n", sv.Side, sv.Best.Value, sv.Own.Name, sv.Own.Value, sv.Worth)
	for _, a := range sv.Advice[:2] {
		fmt.Printf("%s: %s rather than %s, worth %.4f\n", a.When, a.Do, a.Else, a.Worth)
	}
	// Output:
	// althesa wins: best 0.3648, own play (default) 0.3648, worth +0.0000
	// answering lower but more than half, irin carrying the advantage die: hang in rather than give, worth 0.0673
	// answering lower but more than half, nobody carrying the advantage die: hang in rather than give, worth 0.0567
}

// With both names on the owe list, Althesa's cross-off is hers to time:
// Solve sets her best and worst play beside each shipped stance and
// cross-off part, and tells her best play by situation.
func ExampleOweScenario() {
	sv, err := challenge.OweScenario().Solve(context.Background(), markov.Goal{Side: "althesa"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s wins: best %.4f, worst %.4f, gap %.4f over %d states\n", sv.Side, sv.Best.Value, sv.Worst.Value, sv.Gap, sv.States)
	for _, p := range sv.Policies {
		fmt.Printf("%s %.4f\n", p.Name, p.Value)
	}
	for _, a := range sv.Advice {
		if strings.HasPrefix(a.When, "at a cast, your cast higher") || strings.HasPrefix(a.When, "answering, the answer") {
			fmt.Printf("%s: %s\n", a.When, a.Do)
		}
	}
	// Output:
	// althesa wins: best 0.4922, worst 0.1410, gap 0.3512 over 42805 states
	// stance/hang_in 0.1886
	// stance/give 0.1415
	// stance/outclassed 0.1886
	// cross_off/never 0.1886
	// cross_off/when_close 0.4123
	// cross_off/eager 0.3967
	// answering, the answer lower but more than half: cross a name off
	// at a cast, your cast higher: keep the names
	// answering, the answer half or less: cross a name off
	// answering, the answer higher: keep the names
}

// A Scenario starts a Game, the package's sim.Game: step it under the
// scenario's policies, hear each event as a sentence, save it, and read
// the save back to play on.
func ExampleScenario_Start() {
	s := challenge.DefaultScenario()
	r := dice.Scripted(8, 3, 4, 2, 7, 5, 9, 4, 6, 11, 3, 6, 1)
	g, err := s.Start(r)
	if err != nil {
		fmt.Println(err)
		return
	}
	g.Listen(func(e sim.Event) { fmt.Println(e) })
	for range 5 {
		if err := g.Step(r); err != nil {
			fmt.Println(err)
			return
		}
	}
	saved, err := g.Save()
	if err != nil {
		fmt.Println(err)
		return
	}
	g, err = s.Restore(saved)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("(saved and restored)")
	g.Listen(func(e sim.Event) { fmt.Println(e) })
	for !g.Done() {
		if err := g.Step(r); err != nil {
			fmt.Println(err)
			return
		}
	}
	cat, _ := g.Outcome(nil)
	fmt.Println("outcome:", s.Categories()[cat])
	// Output:
	// Althesa rolls 8 and 3, reading 8.
	// Irin rolls 4 and 2, reading 4.
	// Althesa challenges Irin.
	// Irin rolls 7 and 5, reading 7.
	// (saved and restored)
	// Irin hangs in: Althesa rolls an advantage die through the next round.
	// Round 2 begins.
	// Althesa rolls 9 and 4, plus 6 on the advantage die, reading 15.
	// Irin rolls 11 and 3, reading 11.
	// Althesa challenges Irin.
	// Irin rolls 6 and 1, reading 6.
	// Irin's answer is half Althesa's roll or less: Althesa wins outright.
	// Irin loses 2 die sizes of grace to Althesa, exhausted or injured.
	// The conflict is over: Althesa wins.
	// outcome: althesa_outright
}
