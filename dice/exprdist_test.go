package dice

import (
	"errors"
	"math"
	"testing"
)

func exprDist(t *testing.T, s string) (Dist, float64) {
	t.Helper()
	e, err := ParseExpr(s)
	if err != nil {
		t.Fatal(err)
	}
	d, trunc, err := e.Dist()
	if err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	if math.Abs(d.Total()-1) > 1e-9 {
		t.Errorf("%s: probabilities add up to %v", s, d.Total())
	}
	return d, trunc
}

// The closed forms of issue 23, and a few more worked by hand.
func TestExprClosedForms(t *testing.T) {
	tests := []struct {
		expr string
		what string
		got  func(d Dist) float64
		want float64
	}{
		{"4d6kh3", "mean", Dist.Mean, 15869.0 / 1296},
		{"4d6dl1", "mean", Dist.Mean, 15869.0 / 1296},
		{"2d20kl1", "mean", Dist.Mean, 287.0 / 40},
		// The higher of 2d20: E = sum (1 - ((v-1)/20)^2) over v = 1..20.
		{"2d20kh1", "mean", Dist.Mean, 553.0 / 40},
		{"4dF", "P(0)", func(d Dist) float64 { return d.Prob(0) }, 19.0 / 81},
		{"4dF", "P(4)", func(d Dist) float64 { return d.Prob(4) }, 1.0 / 81},
		{"8d10>=7", "mean", Dist.Mean, 16.0 / 5},
		{"8d10>6", "variance", Dist.Variance, 8 * 0.4 * 0.6},
		// A success on 8+ (3 in 10) less a failure on 1 (1 in 10).
		{"d10>=8f1", "mean", Dist.Mean, 0.2},
		{"d10>=8f1", "P(-1)", func(d Dist) float64 { return d.Prob(-1) }, 0.1},
		{"d%", "mean", Dist.Mean, 50.5},
		// Re-roll 1s once: a 1 stands 1 time in 36, each other face 7 in 36.
		{"d6ro1", "P(1)", func(d Dist) float64 { return d.Prob(1) }, 1.0 / 36},
		{"d6ro1", "P(6)", func(d Dist) float64 { return d.Prob(6) }, 7.0 / 36},
		// Re-roll 1s up to 10 times: a 1 stands only if eleven rolls show 1.
		{"d6r1", "P(1)", func(d Dist) float64 { return d.Prob(1) }, math.Pow(6, -11)},
		{"d6r1", "mean", Dist.Mean, 4 - 3*math.Pow(6, -11)},
		// Bounded at 10 extra rolls: 3.5 (1 + 1/6 + ... + 1/6^10).
		{"d6!", "mean", Dist.Mean, 4.2 * (1 - math.Pow(6, -11))},
		{"d6!!", "mean", Dist.Mean, 4.2 * (1 - math.Pow(6, -11))},
		// Each extra roll of a penetrating d6 counts one less: 3.5 + 2.5
		// (1/6 + ... + 1/6^10).
		{"d6!p", "mean", Dist.Mean, 3.5 + 2.5*(1-math.Pow(6, -10))/5},
		{"d6!", "P(6)", func(d Dist) float64 { return d.Prob(6) }, 0},
		{"d6!", "P(8)", func(d Dist) float64 { return d.Prob(8) }, 1.0 / 36},
		// Successes on each roll of an exploding d10, 8+ succeeding: the
		// count is 1 on 8 or 9, and 1 more than the next roll's on a 10.
		{"d10! >=8", "mean", Dist.Mean, 0.3 * (1 - math.Pow(0.1, 11)) / 0.9},
		{"(2d6+3)*2", "mean", Dist.Mean, 20},
		{"d6*d6", "mean", Dist.Mean, 12.25},
		{"d6*d6", "P(12)", func(d Dist) float64 { return d.Prob(12) }, 4.0 / 36},
		{"d20/d4", "P(0)", func(d Dist) float64 { return d.Prob(0) }, (0.0 + 1 + 2 + 3) / 80},
		{"-7/2", "P(-3)", func(d Dist) float64 { return d.Prob(-3) }, 1},
		{"d6-d6", "mean", Dist.Mean, 0},
		{"d12 d8 d6kh1", "P(12)", func(d Dist) float64 { return d.Prob(12) }, 1.0 / 12},
		{"2d6kh0", "P(0)", func(d Dist) float64 { return d.Prob(0) }, 1},
	}
	for _, tt := range tests {
		d, _ := exprDist(t, tt.expr)
		if got := tt.got(d); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("%s: %s = %.15g, want %.15g", tt.expr, tt.what, got, tt.want)
		}
	}
}

// The truncated mass is the chance some die reached the depth bound, and
// the unbounded answer lies within it.
func TestExprTruncation(t *testing.T) {
	tests := []struct {
		expr  string
		depth int
		want  float64
	}{
		{"3d6", 10, 0},
		{"d6ro1", 10, 0},
		{"d6!", 10, math.Pow(6, -11)},
		{"d6!", 3, math.Pow(6, -4)},
		{"3d6!", 10, 1 - math.Pow(1-math.Pow(6, -11), 3)},
		{"d6!>=5", 10, math.Pow(3, -11)},
		{"d6r<3", 10, math.Pow(3, -11)},
		// A first 6 after re-rolling 1s has chance (1 - 6^-11)/5.
		{"d6r1!", 10, 1 - (1-math.Pow(6, -11))*(1-(1-math.Pow(6, -11))/5*math.Pow(6, -10))},
	}
	for _, tt := range tests {
		e, err := ParseExpr(tt.expr)
		if err != nil {
			t.Fatal(err)
		}
		if e, err = e.WithDepth(tt.depth); err != nil {
			t.Fatal(err)
		}
		_, trunc, err := e.Dist()
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(trunc-tt.want) > 1e-15+1e-9*tt.want {
			t.Errorf("%s at depth %d: truncated %.6g, want %.6g", tt.expr, tt.depth, trunc, tt.want)
		}
	}
	// The unbounded exploding d6 has mean 4.2; the bounded answer is within
	// the truncated mass times the largest outcome.
	d, trunc := exprDist(t, "d6!")
	if trunc <= 0 || math.Abs(d.Mean()-4.2) > trunc*float64(d.Max()) {
		t.Errorf("d6!: mean %v, truncated %v: not within reach of 4.2", d.Mean(), trunc)
	}
}

// Keep and drop over dice that are not plain numbered dice, checked by
// brute force over every roll.
func TestExprKeepBruteForce(t *testing.T) {
	// Values and their chances for one die of each kind.
	fudge := map[int]float64{-1: 1.0 / 3, 0: 1.0 / 3, 1: 1.0 / 3}
	d4 := map[int]float64{1: .25, 2: .25, 3: .25, 4: .25}
	rerollOnce := map[int]float64{1: 1.0 / 36, 2: 7.0 / 36, 3: 7.0 / 36, 4: 7.0 / 36, 5: 7.0 / 36, 6: 7.0 / 36}
	d6 := map[int]float64{1: 1.0 / 6, 2: 1.0 / 6, 3: 1.0 / 6, 4: 1.0 / 6, 5: 1.0 / 6, 6: 1.0 / 6}
	// A d6 exploding at most once (depth 1): 6 then 1..6 more.
	d6x := map[int]float64{1: 1.0 / 6, 2: 1.0 / 6, 3: 1.0 / 6, 4: 1.0 / 6, 5: 1.0 / 6,
		7: 1.0 / 36, 8: 1.0 / 36, 9: 1.0 / 36, 10: 1.0 / 36, 11: 1.0 / 36, 12: 1.0 / 36}
	d4x := map[int]float64{1: .25, 2: .25, 3: .25, 5: 1.0 / 16, 6: 1.0 / 16, 7: 1.0 / 16, 8: 1.0 / 16}
	n := func(k int, d map[int]float64) []map[int]float64 {
		var ds []map[int]float64
		for range k {
			ds = append(ds, d)
		}
		return ds
	}
	sum := func(v []int) int { return sumOf(v) }
	tests := []struct {
		expr  string
		depth int
		dice  []map[int]float64
		read  func(sorted []int) int // faces sorted high to low
	}{
		{"4dFkh2", 10, n(4, fudge), func(v []int) int { return sum(v[:2]) }},
		{"4dFkl1", 10, n(4, fudge), func(v []int) int { return v[3] }},
		{"5dFdh2", 10, n(5, fudge), func(v []int) int { return sum(v[2:]) }},
		{"3d6ro1kh2", 10, n(3, rerollOnce), func(v []int) int { return sum(v[:2]) }},
		{"3d6ro1kl2", 10, n(3, rerollOnce), func(v []int) int { return sum(v[1:]) }},
		// Successes on 3+ less failures on 1, among the two highest.
		{"4d4>=3f1kh2", 10, n(4, d4), func(v []int) int { return score(v[:2]) }},
		{"4d4>=3f1dh3", 10, n(4, d4), func(v []int) int { return score(v[3:]) }},
		{"3d4>=3f1", 10, n(3, d4), score},
		// Mixed sizes; an explosion is every die's.
		{"d6 d4 d4>=3f1kh2", 10, append(n(1, d6), n(2, d4)...), func(v []int) int { return score(v[:2]) }},
		{"2d6 d4!kh2", 1, append(n(2, d6x), n(1, d4x)...), func(v []int) int { return sum(v[:2]) }},
		{"d6 2d4!kl1", 1, append(n(1, d6x), n(2, d4x)...), func(v []int) int { return v[2] }},
		{"2d6 2d4!dl1", 1, append(n(2, d6x), n(2, d4x)...), func(v []int) int { return sum(v[:3]) }},
	}
	for _, tt := range tests {
		want := map[int]float64{}
		faces := make([]int, len(tt.dice))
		var rec func(i int, p float64)
		rec = func(i int, p float64) {
			if i == len(tt.dice) {
				s := append([]int(nil), faces...)
				sortDown(s)
				want[tt.read(s)] += p
				return
			}
			for f, q := range tt.dice[i] {
				faces[i] = f
				rec(i+1, p*q)
			}
		}
		rec(0, 1)
		e, err := ParseExpr(tt.expr)
		if err != nil {
			t.Fatal(err)
		}
		if e, err = e.WithDepth(tt.depth); err != nil {
			t.Fatal(err)
		}
		got, _, err := e.Dist()
		if err != nil {
			t.Fatalf("%s: %v", tt.expr, err)
		}
		assertDist(t, tt.expr, got, want)
	}
}

// Keep and drop over dice of ! that count successes on each roll (World
// of Darkness's ten-again under a keep), checked by brute force over every
// chain of rolls of every die: dice are kept by their totals, and of equal
// totals the earlier die (the larger, as the term prints) is kept.
func TestExprKeepEachRollBruteForce(t *testing.T) {
	tests := []struct {
		expr  string
		depth int
		sides []int // the dice in the order the term prints them
		k     int
		high  bool
		score func(face int) int // a roll's success (1) or failure (-1)
	}{
		{"3d4! >=3kh2", 2, []int{4, 4, 4}, 2, true, func(f int) int { return b2i(f >= 3) }},
		{"3d4! >=3f1kl2", 2, []int{4, 4, 4}, 2, false, func(f int) int { return b2i(f >= 3) - b2i(f == 1) }},
		{"d4 2d3! >=3kh1", 2, []int{4, 3, 3}, 1, true, func(f int) int { return b2i(f >= 3) }},
		{"d4 2d3! >=3dh1", 3, []int{4, 3, 3}, 2, false, func(f int) int { return b2i(f >= 3) }},
		{"d4 d3!>=2 =2kh1", 2, []int{4, 3}, 1, true, func(f int) int { return b2i(f == 2) }},
		{"2d4 d3r1! >=3f1dl1", 2, []int{4, 4, 3}, 2, true, func(f int) int { return b2i(f >= 3) - b2i(f == 1) }},
	}
	for _, tt := range tests {
		e, err := ParseExpr(tt.expr)
		if err != nil {
			t.Fatal(err)
		}
		if e, err = e.WithDepth(tt.depth); err != nil {
			t.Fatal(err)
		}
		want := map[int]float64{}
		dice := make([][]rollChain, len(tt.sides))
		for i, s := range tt.sides {
			dice[i] = rollChains(e.terms[0], s, tt.depth, tt.score)
		}
		picked := make([]rollChain, len(dice))
		var rec func(i int, p float64)
		rec = func(i int, p float64) {
			if i == len(dice) {
				want[keepScore(picked, tt.k, tt.high)] += p
				return
			}
			for _, c := range dice[i] {
				picked[i] = c
				rec(i+1, p*c.p)
			}
		}
		rec(0, 1)
		got, _, err := e.Dist()
		if err != nil {
			t.Fatalf("%s: %v", tt.expr, err)
		}
		assertDist(t, tt.expr, got, want)
	}
}

// rollChain is one way a die's rolls can go: its total, its successes less
// failures, and its probability.
type rollChain struct {
	total, score int
	p            float64
}

// rollChains lists every chain of rolls of a d(s) of term t to the depth:
// its first face re-rolled as t says, then another roll while the last
// explodes.
func rollChains(t *diceTerm, s, depth int, score func(int) int) []rollChain {
	var out []rollChain
	var explode func(total, sc, n int, p float64)
	explode = func(total, sc, n int, p float64) {
		for f := 1; f <= s; f++ {
			c := rollChain{total + f, sc + score(f), p / float64(s)}
			if n < depth && t.explodes(f, s) {
				explode(c.total, c.score, n+1, c.p)
			} else {
				out = append(out, c)
			}
		}
	}
	var first func(n int, p float64)
	first = func(n int, p float64) {
		for f := 1; f <= s; f++ {
			q := p / float64(s)
			limit := depth
			if t.once {
				limit = 1
			}
			switch {
			case n < limit && t.rerolls(f):
				first(n+1, q)
			case t.explodes(f, s):
				explode(f, score(f), 1, q)
			default:
				out = append(out, rollChain{f, score(f), q})
			}
		}
	}
	first(0, 1)
	return out
}

// keepScore keeps k of the dice by total, the earlier of equal dice
// first, and adds the kept dice's scores.
func keepScore(dice []rollChain, k int, high bool) int {
	order := make([]int, len(dice))
	for i := range order {
		order[i] = i
	}
	better := func(a, b rollChain) bool { return high && a.total > b.total || !high && a.total < b.total }
	// A stable insertion sort: a later die passes an earlier one only
	// when it is strictly better.
	for i := 1; i < len(order); i++ {
		for j := i; j > 0 && better(dice[order[j]], dice[order[j-1]]); j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
	s := 0
	for _, i := range order[:k] {
		s += dice[i].score
	}
	return s
}

func sumOf(v []int) int {
	s := 0
	for _, x := range v {
		s += x
	}
	return s
}

// score counts 3+ as a success and 1 as a failure.
func score(v []int) int {
	s := 0
	for _, x := range v {
		switch {
		case x >= 3:
			s++
		case x == 1:
			s--
		}
	}
	return s
}

func sortDown(v []int) {
	for i := range v {
		for j := i + 1; j < len(v); j++ {
			if v[j] > v[i] {
				v[i], v[j] = v[j], v[i]
			}
		}
	}
}

// What the exact engine refuses, it refuses with a reason.
func TestExprDistRefuses(t *testing.T) {
	tests := []struct {
		expr string
		want error
	}{
		{"2d100000! >=5kh1", ErrTooLarge},
		{"1000d6! >=5kl500", ErrTooLarge},
		{"1000d1000 d999kh500", ErrTooLarge},
		{"d1000000 d999999 d999998 d999997 d999996 d999995 d999994 d999993 d999992 d999991 d999990 d999989 d999988 d999987 d999986 d999985 d999984 d999983r1kh1", ErrTooLarge},
		{"d1000000!", ErrTooLarge},
		{"10000d1000", ErrTooLarge},
		{"d1000000*d1000000", ErrTooLarge},
	}
	for _, tt := range tests {
		e, err := ParseExpr(tt.expr)
		if err != nil {
			t.Fatal(err)
		}
		if tt.expr == "d1000000!" {
			if e, err = e.WithDepth(MaxDepth); err != nil {
				t.Fatal(err)
			}
		}
		if _, _, err := e.Dist(); !errors.Is(err, tt.want) {
			t.Errorf("%s: %v, want %v", tt.expr, err, tt.want)
		}
	}
}
