package dice

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"testing"
)

// choose returns C(n, k) exactly.
func choose(n, k int) *big.Rat {
	return new(big.Rat).SetInt(new(big.Int).Binomial(int64(n), int64(k)))
}

func ratFloat(r *big.Rat) float64 { f, _ := r.Float64(); return f }

// Binomial against its closed form C(n,k) p^k (1-p)^(n-k), computed in
// exact rationals.
func TestBinomialClosedForm(t *testing.T) {
	for _, tc := range []struct {
		n    int
		p, q *big.Rat // p and 1-p
	}{
		{0, big.NewRat(1, 2), big.NewRat(1, 2)},
		{1, big.NewRat(1, 6), big.NewRat(5, 6)},
		{10, big.NewRat(1, 6), big.NewRat(5, 6)},
		{30, big.NewRat(1, 2), big.NewRat(1, 2)},
		{25, big.NewRat(3, 10), big.NewRat(7, 10)},
		{60, big.NewRat(9, 10), big.NewRat(1, 10)},
	} {
		pf := ratFloat(tc.p)
		got, err := Binomial(tc.n, pf)
		if err != nil {
			t.Fatal(err)
		}
		want := map[int]float64{}
		for k := 0; k <= tc.n; k++ {
			v := choose(tc.n, k)
			for range k {
				v.Mul(v, tc.p)
			}
			for range tc.n - k {
				v.Mul(v, tc.q)
			}
			want[k] = ratFloat(v)
		}
		assertDist(t, fmt.Sprintf("Binomial(%d, %v)", tc.n, pf), got, want)
		if !near(got.Mean(), float64(tc.n)*pf) {
			t.Errorf("Binomial(%d, %v) mean %v", tc.n, pf, got.Mean())
		}
	}
	for _, tc := range []struct {
		n    int
		p    float64
		want Dist
	}{
		{7, 0, Point(0)},
		{7, 1, Point(7)},
		{0, 0.3, Point(0)},
	} {
		if got, err := Binomial(tc.n, tc.p); err != nil || got.Min != tc.want.Min || len(got.P) != 1 {
			t.Errorf("Binomial(%d, %v) = %+v, %v, want %+v", tc.n, tc.p, got, err, tc.want)
		}
	}
	// A large n keeps its bulk exact: Binomial(10^6, 1/2) has mean 5e5,
	// variance 2.5e5, and its tails vanish into trimmed zeros.
	big, err := Binomial(1_000_000, 0.5)
	if err != nil || !near(big.Total(), 1) || math.Abs(big.Mean()-5e5) > 1e-6 || math.Abs(big.Variance()-2.5e5) > 1e-4 {
		t.Errorf("Binomial(1e6, 1/2): total %v mean %v variance %v, %v", big.Total(), big.Mean(), big.Variance(), err)
	}
}

// Hypergeometric against its closed form in exact rationals, and against
// enumerating every hand of a small deck.
func TestHypergeometric(t *testing.T) {
	for _, tc := range []struct{ pop, succ, draws int }{
		{52, 4, 5}, {52, 13, 13}, {10, 3, 4}, {10, 7, 8}, {5, 5, 3}, {5, 0, 3}, {6, 2, 0}, {6, 2, 6}, {0, 0, 0},
	} {
		got, err := Hypergeometric(tc.pop, tc.succ, tc.draws)
		if err != nil {
			t.Fatal(err)
		}
		want := map[int]float64{}
		all := choose(tc.pop, tc.draws)
		for k := 0; k <= tc.draws; k++ {
			if k > tc.succ || tc.draws-k > tc.pop-tc.succ {
				continue
			}
			v := new(big.Rat).Mul(choose(tc.succ, k), choose(tc.pop-tc.succ, tc.draws-k))
			want[k] = ratFloat(v.Quo(v, all))
		}
		assertDist(t, fmt.Sprintf("Hypergeometric(%d, %d, %d)", tc.pop, tc.succ, tc.draws), got, want)
	}
	// Every 4-card hand from 9 cards, the first 3 marked.
	want := map[int]float64{}
	for hand := 0; hand < 1<<9; hand++ {
		if popcount(hand) == 4 {
			want[popcount(hand&7)] += 1.0 / 126
		}
	}
	got, _ := Hypergeometric(9, 3, 4)
	assertDist(t, "every hand of 4 from 9", got, want)
}

func popcount(x int) int {
	n := 0
	for ; x != 0; x &= x - 1 {
		n++
	}
	return n
}

func TestCountErrors(t *testing.T) {
	for _, tc := range []struct {
		name    string
		err     error
		tooLarg bool
	}{
		{"Binomial(-1)", second(Binomial(-1, 0.5)), true},
		{"Binomial(MaxOutcomes)", second(Binomial(MaxOutcomes, 0.5)), true},
		{"Binomial(MaxInt)", second(Binomial(math.MaxInt, 0.5)), true},
		{"Binomial p -0.1", second(Binomial(3, -0.1)), false},
		{"Binomial p 1.5", second(Binomial(3, 1.5)), false},
		{"Binomial p NaN", second(Binomial(3, math.NaN())), false},
		{"Hypergeometric negative", second(Hypergeometric(-1, 0, 0)), false},
		{"Hypergeometric successes > population", second(Hypergeometric(5, 6, 1)), false},
		{"Hypergeometric draws > population", second(Hypergeometric(5, 2, 6)), false},
		{"Hypergeometric MinInt draws", second(Hypergeometric(5, 2, math.MinInt)), false},
		{"Hypergeometric huge", second(Hypergeometric(math.MaxInt, math.MaxInt/2, math.MaxInt/2)), true},
	} {
		if tc.err == nil || errors.Is(tc.err, ErrTooLarge) != tc.tooLarg {
			t.Errorf("%s: err = %v, want an error (ErrTooLarge %v)", tc.name, tc.err, tc.tooLarg)
		}
	}
	// A huge population with a small hand is fine, and exact.
	d, err := Hypergeometric(math.MaxInt, 1, 1)
	if err != nil || d.Prob(1) != 1/float64(math.MaxInt) {
		t.Errorf("one marked of MaxInt: %+v, %v", d, err)
	}
}

func second[T any](_ T, err error) error { return err }

func TestSumLowest(t *testing.T) {
	for _, tc := range []struct {
		faces []int
		k     int
		excl  FaceSet
		want  int
	}{
		{[]int{5, 2, 6, 2}, 1, FaceSet{}, 2},
		{[]int{5, 2, 6, 2}, 2, FaceSet{}, 4},
		{[]int{5, 2, 6, 2}, 3, FaceSet{}, 9},
		{[]int{5, 2, 6, 2}, 9, FaceSet{}, 15},
		{[]int{5, 2, 6, 2}, 2, Faces(2), 11},
		{[]int{1, 1, 1}, 2, Faces(1), 0},
		{[]int{20, 3}, 1, FaceSet{}, 3}, // the lowest of 2d20: disadvantage
		{[]int{4, 0, -3, 4}, 1, FaceSet{}, 4},
		{[]int{200, 100}, 1, Faces(100), 200},
		{nil, 3, FaceSet{}, 0},
		{[]int{3}, 0, FaceSet{}, 0},
		{[]int{3}, -2, FaceSet{}, 0},
	} {
		if got := SumLowest(tc.faces, tc.k, tc.excl); got != tc.want {
			t.Errorf("SumLowest(%v, %d, %v) = %d, want %d", tc.faces, tc.k, tc.excl, got, tc.want)
		}
	}
	if n := testing.AllocsPerRun(100, func() { sink = SumLowest([]int{3, 1, 4, 1, 5}, 3, Faces(1)) }); n != 0 {
		t.Errorf("SumLowest allocates %v times", n)
	}
}

// BeatsBy against enumerating both dice, and the "win by 5" of the issue.
func TestBeatsBy(t *testing.T) {
	a, _ := SumOf([]Die{D8, D6})
	b, _ := SumOf([]Die{D10})
	for m := -20; m <= 20; m++ {
		want := 0.0
		enumerate([]Die{D8, D6, D10}, func(f []int, p float64) {
			if f[0]+f[1]-f[2] >= m {
				want += p
			}
		})
		if got := a.BeatsBy(b, m); math.Abs(got-want) > 1e-12 {
			t.Errorf("P(d8+d6 - d10 >= %d) = %v, enumerated %v", m, got, want)
		}
	}
	d6, _ := Uniform(D6)
	if got := d6.BeatsBy(d6, 5); !near(got, 1.0/36) {
		t.Errorf("d6 beats d6 by 5: %v, want 1/36", got)
	}
	for _, tc := range []struct {
		m    int
		want float64
	}{{math.MaxInt, 0}, {math.MinInt, 1}, {math.MaxInt - 3, 0}, {math.MinInt + 3, 1}} {
		if got := d6.BeatsBy(d6, tc.m); !near(got, tc.want) {
			t.Errorf("BeatsBy(d6, %d) = %v, want %v", tc.m, got, tc.want)
		}
	}
	// Outcomes at the ends of the int range compare without wrapping.
	hi := Dist{Min: math.MaxInt - 1, P: []float64{0.5, 0.5}}
	lo := Dist{Min: math.MinInt, P: []float64{0.5, 0.5}}
	if hi.Greater(lo) != 1 || lo.Greater(hi) != 0 || hi.BeatsBy(hi, 1) != 0.25 || hi.AtLeastDist(hi) != 0.75 {
		t.Errorf("extreme comparisons: %v %v %v %v", hi.Greater(lo), lo.Greater(hi), hi.BeatsBy(hi, 1), hi.AtLeastDist(hi))
	}
}

// No integer argument overflows a Dist's arithmetic.
func TestDistExtremes(t *testing.T) {
	d6, _ := Uniform(D6)
	neg, _ := d6.Shift(-10) // -9..-4
	for _, tc := range []struct {
		name      string
		got, want float64
	}{
		{"AtLeast(MaxInt)", d6.AtLeast(math.MaxInt), 0},
		{"AtLeast(MinInt)", d6.AtLeast(math.MinInt), 1},
		{"CDF(MaxInt)", d6.CDF(math.MaxInt), 1},
		{"CDF(MinInt)", d6.CDF(math.MinInt), 0},
		{"Prob(MaxInt)", d6.Prob(math.MaxInt), 0},
		{"Prob(MinInt)", d6.Prob(math.MinInt), 0},
		{"neg AtLeast(MaxInt)", neg.AtLeast(math.MaxInt), 0},
		{"neg CDF(MaxInt)", neg.CDF(math.MaxInt), 1},
		{"neg Prob(MinInt+1)", neg.Prob(math.MinInt + 1), 0},
		{"neg Prob(MaxInt)", neg.Prob(math.MaxInt), 0},
		{"neg Prob(-9)", neg.Prob(-9), 1.0 / 6},
	} {
		if tc.got != tc.want {
			t.Errorf("%s = %v, want %v", tc.name, tc.got, tc.want)
		}
	}
	for _, tc := range []struct {
		name string
		d    Dist
		k    int
	}{
		{"d6 + MaxInt", d6, math.MaxInt},
		{"d6 + MaxInt-5", d6, math.MaxInt - 5},
		{"neg + MinInt", neg, math.MinInt},
		{"neg + MinInt+3", neg, math.MinInt + 3},
	} {
		if _, err := tc.d.Shift(tc.k); !errors.Is(err, ErrTooLarge) {
			t.Errorf("Shift %s: err = %v, want ErrTooLarge", tc.name, err)
		}
	}
	if top, err := d6.Shift(math.MaxInt - 6); err != nil || top.Max() != math.MaxInt || top.AtLeast(math.MaxInt) != 1.0/6 {
		t.Errorf("Shift to the top of the range: %+v, %v", top, err)
	}
	top, _ := d6.Shift(math.MaxInt - 6)
	if _, err := top.Add(d6); !errors.Is(err, ErrTooLarge) {
		t.Errorf("Add past MaxInt: %v", err)
	}
	bottom := Dist{Min: math.MinInt, P: []float64{1}}
	if _, err := bottom.Add(neg); !errors.Is(err, ErrTooLarge) {
		t.Errorf("Add past MinInt: %v", err)
	}
	wide := Dist{P: make([]float64, 1<<16)}
	if _, err := wide.Add(Dist{P: make([]float64, 1<<16)}); !errors.Is(err, ErrTooLarge) {
		t.Errorf("Add of 2^32 steps: %v", err)
	}
}

// The findings of the issue: requests that asked for 33 GB or ran for hours
// are refused at once, and the largest legitimate uses still work.
func TestExactBounds(t *testing.T) {
	n := func(k int, d Die) []Die {
		ds := make([]Die, k)
		for i := range ds {
			ds[i] = d
		}
		return ds
	}
	for _, tc := range []struct {
		name string
		err  error
	}{
		{"KeepHighestOf(100 x d4096, 100)", second(KeepHighestOf(n(100, 4096), 100, FaceSet{}))},
		{"KeepHighestOf(10000 x d1000, 50)", second(KeepHighestOf(n(10000, 1000), 50, FaceSet{}))},
		{"KeepLowestOf(1000 x d4096, 500)", second(KeepLowestOf(n(1000, 4096), 500, FaceSet{}))},
		{"KeepLowestOf(100 x d4096, 100)", second(KeepLowestOf(n(100, 4096), 100, FaceSet{}))},
		{"KeepLowestOf(2 x d1000000, 1)", second(KeepLowestOf(n(2, MaxSides), 1, FaceSet{}))},
		{"SumOf(10000 x d1677)", second(SumOf(n(10000, 1677)))},
		{"SumOf(3000 x d100)", second(SumOf(n(3000, 100)))},
	} {
		if !errors.Is(tc.err, ErrTooLarge) {
			t.Errorf("%s: err = %v, want ErrTooLarge", tc.name, tc.err)
		}
	}
	if testing.Short() {
		t.Skip("the largest legitimate uses take a few seconds")
	}
	ones, _ := Binomial(100, 1.0/6)
	for _, tc := range []struct {
		name  string
		build func() (Dist, error)
		check func(Dist) float64 // must be 0
	}{
		// Mean 3.5 a die, and symmetric about it.
		{"SumOf(10000d6)", func() (Dist, error) { return SumOf(n(10000, D6)) },
			func(d Dist) float64 { return (d.Mean()-35000)/35000 + d.Prob(34990) - d.Prob(35010) }},
		// Three sixes kept unless fewer than three of 10000 dice show 6.
		{"KeepHighestOf(10000d6, 3)", func() (Dist, error) { return KeepHighestOf(n(10000, D6), 3, FaceSet{}) },
			func(d Dist) float64 { return d.Prob(18) - 1 }},
		// Three 1s kept when at least three of 100 dice show 1.
		{"KeepLowestOf(100d6, 3)", func() (Dist, error) { return KeepLowestOf(n(100, D6), 3, FaceSet{}) },
			func(d Dist) float64 { return d.Prob(3) - ones.AtLeast(3) }},
		// 1s out, the reading is 0 only when every die shows 1.
		{"KeepLowestOf(20 mixed, 2)", func() (Dist, error) { return KeepLowestOf(mixed20(), 2, Faces(1)) },
			func(d Dist) float64 { return d.Prob(0)/math.Pow(4*6*8*10*12, -4) - 1 }},
	} {
		d, err := tc.build()
		if err != nil || !near(d.Total(), 1) || !near(tc.check(d), 0) {
			t.Errorf("%s: total %v check %v, %v", tc.name, d.Total(), tc.check(d), err)
		}
	}
}
