package dice_test

// The samplers against the exact distributions by Pearson's chi-square
// test, from package dice/gof: an external test package, so that dice
// itself links no statistics library.

import (
	"math/bits"
	"testing"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/dice/gof"
)

// Sampled frequencies agree with the exact distributions (chi-square,
// fixed seeds, so the outcome is the same on every run).
func TestSamplersMatchExact(t *testing.T) {
	const n = 60000
	type reading struct {
		name  string
		exact func(ds []dice.Die) (dice.Dist, error)
		read  func(faces []int) int
	}
	readings := []reading{
		{"sum", dice.SumOf, dice.Sum},
		{"highest", dice.HighestOf, dice.Highest},
		{"sixes", func(ds []dice.Die) (dice.Dist, error) { return dice.SuccessesOf(ds, 6) }, func(f []int) int { return dice.CountAtLeast(f, 6) }},
		{"two highest no 1s", func(ds []dice.Die) (dice.Dist, error) { return dice.KeepHighestOf(ds, 2, dice.Faces(1)) },
			func(f []int) int { return dice.SumHighest(f, 2, dice.Faces(1)) }},
	}
	pools := [][]dice.Die{
		{dice.D6, dice.D6, dice.D6, dice.D6},
		{dice.D12, dice.D10, dice.D8, dice.D6, dice.D4},
		{dice.D20, dice.D6, dice.D6},
		{dice.D6, dice.D6, dice.D6, dice.D6, dice.D6, dice.D6, dice.D6, dice.D6, dice.D6, dice.D6},
		{dice.D100, dice.D3},
	}
	for pi, ds := range pools {
		for _, rd := range readings {
			exact, err := rd.exact(ds)
			if err != nil {
				t.Fatal(err)
			}
			r := dice.NewSeeded(uint64(1000 + pi))
			counts := map[int]int64{}
			var buf []int
			for i := 0; i < n; i++ {
				buf = r.RollDice(ds, buf)
				counts[rd.read(buf)]++
			}
			fit, err := gof.ChiSquare(exact, counts)
			if err != nil {
				t.Fatal(err)
			}
			if fit.PValue < 1e-4 {
				t.Errorf("%v %s: chi-square %.1f on %d df, p = %.2g", ds, rd.name, fit.Stat, fit.DF, fit.PValue)
			}
		}
	}
}

// Single rolls through the cache, every size, and pairs of consecutive
// rolls: faces are uniform and consecutive faces independent.
func TestRollUniformAndIndependent(t *testing.T) {
	for _, sides := range []int{2, 3, 4, 6, 7, 10, 12, 20, 100, 255, 256, 257, 1000} {
		r := dice.NewSeeded(uint64(sides))
		n := 200 * sides
		if sides > 300 {
			n = 100 * sides
		}
		counts := map[int]int64{}
		for i := 0; i < n; i++ {
			counts[r.Roll(sides)]++
		}
		u, _ := dice.Uniform(dice.Die(sides))
		if fit, _ := gof.ChiSquare(u, counts); fit.PValue < 1e-4 {
			t.Errorf("d%d: p = %.2g", sides, fit.PValue)
		}
	}
	// Pairs: 36 cells of (first, second) for consecutive d6 and for
	// RollN batches crossing the 21-dice boundary of one draw.
	pairs := map[int]int64{}
	r := dice.NewSeeded(9)
	var buf []int
	for i := 0; i < 20000; i++ {
		buf = r.RollN(23, 6, buf)
		pairs[(buf[20]-1)*6+buf[21]-1]++ // last of one draw, first of the next
		pairs[(buf[0]-1)*6+buf[1]-1]++
	}
	u, _ := dice.Uniform(36)
	shifted := map[int]int64{}
	for k, v := range pairs {
		shifted[k+1] = v
	}
	if fit, _ := gof.ChiSquare(u, shifted); fit.PValue < 1e-4 {
		t.Errorf("d6 pairs: p = %.2g", fit.PValue)
	}
}

// Any mixture of Roll, RollN and SumN calls, sizes switching, draws
// exact faces: every position of the pattern is uniform, and consecutive
// faces across the calls' boundaries (including a fresh draw after the
// kept one ran short or was dropped) are independent.
func TestMixedCallsUniformAndIndependent(t *testing.T) {
	r := dice.NewSeeded(77)
	pos := make([]map[int]int64, 6)
	for i := range pos {
		pos[i] = map[int]int64{}
	}
	pairs := [4]map[int]int64{{}, {}, {}, {}}
	var a, b, c []int
	const rounds = 30000
	for i := 0; i < rounds; i++ {
		a = r.RollN(4, 6, a)  // from the kept d6 draw or a fresh one
		x := r.Roll(6)        // the next digit
		y := r.Roll(6)        // and the next
		b = r.RollN(3, 8, b)  // another size: the d6 draw is dropped
		s := r.SumN(2, 8)     // the kept d8 draw
		c = r.RollN(19, 6, c) // rarely fits what is left of a d6 draw
		pos[0][a[0]]++
		pos[1][a[3]]++
		pos[2][x]++
		pos[3][b[0]]++
		pos[4][c[0]]++
		pos[5][c[18]]++
		pairs[0][(a[3]-1)*6+x]++
		pairs[1][(b[2]-1)*15+s-2]++ // s is 2..16: 8 x 15 cells
		pairs[2][(x-1)*6+y]++
		pairs[3][(y-1)*6+c[0]]++
	}
	d6, _ := dice.Uniform(dice.D6)
	d8, _ := dice.Uniform(dice.D8)
	for i, counts := range pos {
		u := d6
		if i == 3 {
			u = d8
		}
		if fit, _ := gof.ChiSquare(u, counts); fit.PValue < 1e-4 {
			t.Errorf("position %d: p = %.2g", i, fit.PValue)
		}
	}
	u36, _ := dice.Uniform(36)
	for _, k := range []int{0, 2, 3} {
		if fit, _ := gof.ChiSquare(u36, pairs[k]); fit.PValue < 1e-4 {
			t.Errorf("pairs %d: p = %.2g", k, fit.PValue)
		}
	}
	// (d8, 2d8 sum) pairs against the product of the exact laws.
	sum2, _ := dice.SumOf([]dice.Die{dice.D8, dice.D8})
	prod := map[int]float64{}
	for f := 1; f <= 8; f++ {
		for t := 2; t <= 16; t++ {
			prod[(f-1)*15+t-2] = sum2.Prob(t) / 8
		}
	}
	var chi float64
	for k, p := range prod {
		e := p * rounds
		d := float64(pairs[1][k]) - e
		chi += d * d / e
	}
	// 119 degrees of freedom: the 1e-4 upper quantile is about 183.
	if chi > 183 {
		t.Errorf("d8 then 2d8: chi-square %.1f on 119 degrees of freedom", chi)
	}
}

// IntN is Lemire's method on [0, n): for odd n it rejects exactly the word
// whose low product is one below the threshold 2^64 mod n and accepts the
// one at it, and its values are uniform.
func TestIntNRejectsExactlyTheExcess(t *testing.T) {
	for _, n := range []uint64{3, 7, 1001, 1<<40 + 1, 1<<62 + 1} {
		thresh := -n % n
		inv := n
		for i := 0; i < 6; i++ {
			inv *= 2 - n*inv
		}
		rejected, accepted := (thresh-1)*inv, thresh*inv
		src := &fakeSource{words: []uint64{rejected, accepted}}
		r, _ := dice.NewRoller(src)
		want, _ := bits.Mul64(accepted, n)
		if got := r.IntN(int(n)); uint64(got) != want || src.i != 2 {
			t.Errorf("IntN(%d) = %d after %d draws, want %d after 2", n, got, src.i, want)
		}
	}
	r := dice.NewSeeded(5)
	counts := map[int]int64{}
	for i := 0; i < 70000; i++ {
		counts[r.IntN(7)+1]++
	}
	u, _ := dice.Uniform(7)
	if fit, _ := gof.ChiSquare(u, counts); fit.PValue < 1e-4 {
		t.Errorf("IntN(7): p = %.2g", fit.PValue)
	}
}

// Sampled readings match the new exact distributions (fixed seeds).
func TestNewSamplersMatchExact(t *testing.T) {
	r := dice.NewSeeded(16)
	const trials = 40000
	pool := []dice.Die{dice.D10, dice.D8, dice.D6, dice.D6}
	lowest, _ := dice.KeepLowestOf(pool, 2, dice.Faces(1))
	binom, _ := dice.Binomial(10, 3.0/6) // d6 showing 4+
	hyper, _ := dice.Hypergeometric(52, 13, 5)
	obsLow, obsBin, obsHyp := map[int]int64{}, map[int]int64{}, map[int]int64{}
	deck := make([]int, 52)
	buf := make([]int, 0, 10)
	for range trials {
		obsLow[dice.SumLowest(r.RollDice(pool, buf), 2, dice.Faces(1))]++
		_, c := r.RollCount(10, 6, 4, buf)
		obsBin[c]++
		for i := range deck {
			deck[i] = i
		}
		r.Shuffle(len(deck), func(i, j int) { deck[i], deck[j] = deck[j], deck[i] })
		hearts := 0
		for _, c := range deck[:5] {
			if c < 13 {
				hearts++
			}
		}
		obsHyp[hearts]++
	}
	for _, tc := range []struct {
		name string
		d    dice.Dist
		obs  map[int]int64
	}{{"lowest 2 of d10 d8 2d6, 1s out", lowest, obsLow}, {"4+ on 10d6", binom, obsBin}, {"hearts in 5 cards", hyper, obsHyp}} {
		fit, err := gof.ChiSquare(tc.d, tc.obs)
		if err != nil || fit.PValue < 1e-4 {
			t.Errorf("%s: %+v, %v", tc.name, fit, err)
		}
	}
	// The test can fail: the lowest two read as the highest two is rejected.
	highest, _ := dice.KeepHighestOf(pool, 2, dice.Faces(1))
	if fit, _ := gof.ChiSquare(highest, obsLow); fit.PValue > 1e-4 {
		t.Errorf("keep-highest accepted for keep-lowest samples: %+v", fit)
	}
}

// Sampled rolls agree with the exact distribution for every modifier
// (chi-square at fixed seeds, so the outcome is the same on every run).
func TestExprSamplesMatchExact(t *testing.T) {
	exprs := []string{
		"4d6kh3", "2d20kl1", "4d6dh1", "5d6dl2", "10d10kh3", "d12 d8 d6kh2", "d12 d8 d6kl1",
		"3d6!", "2d6!!", "2d6!p", "3d10!>=9", "d12 d8!", "2d4!<2",
		"4d6r1", "4d6r<3kh3", "3d8ro1", "d10 d6r1", "3d6r1!kh2", "6d6!kh3", "4d6!!dl1",
		"d12 d8!kh1", "d12 d8r1kl1", "4d10! >=8kh2", "d12 d8! >=5kh1", "6d10! >=8f1kl3", "12d10! >=8kh6", "d10 2d6r1! >=5dl1", "d12 d8 d6>=5kh2", "d10 2d6!!dl1", "d8 d6 d4!p kh2",
		"8d10>=7", "6d10>=8f1", "5d10! >=8f1", "5d6kh3>=5", "4dF>=1f-1", "d10!p<=2 =5",
		"4dF", "4dFkh2", "d%", "(2d6+3)*2", "d20/d4", "-d20/3", "d6*d6", "d6-d6", "2d6 d4-1",
	}
	const n = 30000
	var res dice.ExprResult
	for i, s := range exprs {
		e, err := dice.ParseExpr(s)
		if err != nil {
			t.Fatal(err)
		}
		exact, _, err := e.Dist()
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		r := dice.NewSeeded(uint64(7000 + i))
		counts := map[int]int64{}
		for range n {
			if err := e.Roll(r, &res); err != nil {
				t.Fatal(err)
			}
			counts[res.Total]++
		}
		fit, err := gof.ChiSquare(exact, counts)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if fit.PValue < 1e-4 {
			t.Errorf("%s: sampled against exact: chi-square %.1f on %d df, p = %.2g", s, fit.Stat, fit.DF, fit.PValue)
		}
	}
}

// fakeSource replays fixed words, to drive a draw through its rejection
// path.
type fakeSource struct {
	words []uint64
	i     int
}

func (f *fakeSource) Uint64() uint64 {
	w := f.words[f.i%len(f.words)]
	f.i++
	return w
}

// 3d6 through SumN matches the exact distribution.
func TestSumNMatchesExact(t *testing.T) {
	exact, _ := dice.SumOf([]dice.Die{dice.D6, dice.D6, dice.D6})
	r := dice.NewSeeded(4)
	counts := map[int]int64{}
	for i := 0; i < 50000; i++ {
		counts[r.SumN(3, 6)]++
	}
	if fit, _ := gof.ChiSquare(exact, counts); fit.PValue < 1e-4 {
		t.Errorf("3d6 by SumN: p = %v", fit.PValue)
	}
}
