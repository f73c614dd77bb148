package dice_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/stakesrpg/stakes/dice"
)

func ExampleNewRoller() {
	// The caller owns the generator; the same seed gives the same rolls.
	r, err := dice.NewRoller(rand.NewPCG(1, 2))
	if err != nil {
		fmt.Println(err)
		return
	}
	a := r.RollN(3, 6, nil)
	r2, _ := dice.NewRoller(rand.NewPCG(1, 2))
	b := r2.RollN(3, 6, nil)
	fmt.Println(len(a), fmt.Sprint(a) == fmt.Sprint(b))
	// Output: 3 true
}

func ExampleScripted() {
	// A scripted roller plays back faces: worked examples, tests, or dice
	// rolled at a real table and typed in.
	r := dice.Scripted(6, 2, 5)
	pool, _ := dice.ParsePool("3d6")
	faces := pool.Roll(r, nil)
	fmt.Println(faces, dice.CountAtLeast(faces, 6), r.Err())
	// Output: [6 2 5] 1 <nil>
}

func ExampleParsePool() {
	p, err := dice.ParsePool("d6 d12 + 2")
	fmt.Println(p, p.Len(), p.Modifier(), err)
	_, err = dice.ParsePool("d7x")
	fmt.Println(err)
	// Output:
	// d12 d6+2 2 2 <nil>
	// dice: "d7x": unexpected "x" after a term: a term is NdS (like 3d6) or a whole number
}

func ExampleSumHighest() {
	// A Cortex-family total: the two highest dice, 1s excluded.
	faces := []int{1, 7, 4, 1, 9}
	fmt.Println(dice.SumHighest(faces, 2, dice.Faces(1)))
	fmt.Println(dice.SumHighest([]int{1, 1}, 2, dice.Faces(1)))
	// Output:
	// 16
	// 0
}

func ExampleCompareBonus() {
	// Art, Grace & Guts: high die first, ties broken by the next dice; an
	// advantage die adds to the high die. 8+4 against 11 and 2:
	fmt.Println(dice.CompareBonus([]int{8, 5}, 4, []int{11, 2}, 0))
	// 6 and 3 against 6 and 2: the second dice break the tie.
	fmt.Println(dice.Compare([]int{6, 3}, []int{6, 2}))
	// Output:
	// 1
	// 1
}

func ExampleDie_Step() {
	d, ok := dice.D10.Step(1)
	fmt.Println(d, ok)
	d, ok = dice.D12.StepUp()
	fmt.Println(d, ok) // nothing above d12
	d, ok = dice.D6.Step(-2)
	fmt.Println(d, ok) // stepped below d4: gone
	// Output:
	// d12 true
	// d12 false
	// gone true
}

func ExampleKeepHighestOf() {
	// 4d6 drop the lowest, exactly.
	ds := []dice.Die{dice.D6, dice.D6, dice.D6, dice.D6}
	d, _ := dice.KeepHighestOf(ds, 3, dice.FaceSet{})
	fmt.Printf("mean %.4f, P(18) = %.4f, median %d\n", d.Mean(), d.Prob(18), d.Quantile(0.5))
	// Output: mean 12.2446, P(18) = 0.0162, median 12
}

func ExampleSuccessesOf() {
	// P(at least one six on 4d6) = 1 - (5/6)^4.
	ds := []dice.Die{dice.D6, dice.D6, dice.D6, dice.D6}
	s, _ := dice.SuccessesOf(ds, 6)
	fmt.Printf("%.4f\n", s.AtLeast(1))
	// Output: 0.5177
}

func ExampleDist_Greater() {
	// Which wins more often: d12 d6 or d8 d8, both totalling the two
	// highest with 1s excluded?
	a, _ := dice.KeepHighestOf([]dice.Die{dice.D12, dice.D6}, 2, dice.Faces(1))
	b, _ := dice.KeepHighestOf([]dice.Die{dice.D8, dice.D8}, 2, dice.Faces(1))
	fmt.Printf("P(a > b) = %.4f, P(b > a) = %.4f\n", a.Greater(b), b.Greater(a))
	// Output: P(a > b) = 0.5362, P(b > a) = 0.3941
}

func ExampleParseExpr() {
	e, err := dice.ParseExpr("4D6 kh3 + 2")
	fmt.Println(e, err)
	_, err = dice.ParseExpr("4d6kx3")
	fmt.Println(err)
	// Output:
	// 4d6kh3+2 <nil>
	// dice: "4d6kx3": at 4: unknown modifier "kx": want kh, kl, k, dh, dl, ph, pl, p, !, !!, !p, e, r, rr, ro, ra, mi, ma, min, max, u, uo, mt, >=, >, =, <=, <, f, s, sa, sd, cs, cf, [label]
}

func ExampleExpr_Roll() {
	// Scripted faces, as a table rolling real dice would type them in.
	e, _ := dice.ParseExpr("4d6kh3")
	var res dice.ExprResult
	if err := e.Roll(dice.Scripted(6, 5, 3, 1), &res); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.String())
	e, _ = dice.ParseExpr("3d6!")
	_ = e.Roll(dice.Scripted(6, 6, 2, 3, 1), &res)
	fmt.Println(res.String())
	// Output:
	// 4d6kh3: [6, 5, 3, ~~1~~] = 14
	// 3d6!: [6!, 6!, 2, 3, 1] = 18
}

func ExampleExpr_Dist() {
	e, _ := dice.ParseExpr("d6!")
	d, truncated, err := e.Dist()
	fmt.Printf("mean %.6f, P(8) = %.6f, truncated %.2g, %v\n", d.Mean(), d.Prob(8), truncated, err)
	e, _ = dice.ParseExpr("8d10>=7")
	d, _, _ = e.Dist()
	fmt.Printf("successes: mean %.1f, P(at least 4) = %.4f\n", d.Mean(), d.AtLeast(4))
	// Output:
	// mean 4.200000, P(8) = 0.027778, truncated 2.8e-09, <nil>
	// successes: mean 3.2, P(at least 4) = 0.4059
}
