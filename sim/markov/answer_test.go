package markov

import (
	"context"
	"errors"
	"math"
	"slices"
	"testing"
)

// In a fair gambler's ruin from 2 of 4 coins, each side wins with 1/2, the
// game lasts 4 steps on average, and it ends after exactly 2t steps with
// probability 2^-t (t >= 1).
func TestAnswerOfGamblersRuin(t *testing.T) {
	c, err := Explore(context.Background(), 2, ruin(0.5))
	if err != nil {
		t.Fatal(err)
	}
	cat := func(s int) int { return s / 4 } // 0: ruined, 1: reached 4
	a, err := AnswerOf(context.Background(), c, 2, cat, 1000)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Check(2); err != nil {
		t.Fatal(err)
	}
	for i, want := range []float64{0.5, 0.5} {
		if math.Abs(a.P[i]-want) > 1e-12 {
			t.Errorf("P[%d] = %v, want %v", i, a.P[i], want)
		}
	}
	if math.Abs(a.MeanRounds-4) > 1e-12 {
		t.Errorf("mean rounds %v, want 4", a.MeanRounds)
	}
	for n, p := range a.Rounds {
		want := 0.0
		if n > 0 && n%2 == 0 {
			want = math.Pow(2, -float64(n/2))
		}
		if math.Abs(p-want) > 1e-15 {
			t.Errorf("P(%d rounds) = %v, want %v", n, p, want)
		}
	}
	if a.Tail <= 0 || a.Tail >= RoundsTolerance {
		t.Errorf("tail %v, want in (0, %v)", a.Tail, RoundsTolerance)
	}
}

func TestAnswerOfRejectsCategoryOutOfRange(t *testing.T) {
	c, _ := Explore(context.Background(), 2, ruin(0.5))
	if _, err := AnswerOf(context.Background(), c, 1, func(s int) int { return s / 4 }, 100); err == nil {
		t.Error("a state in category 1 of 1 accepted")
	}
}

func TestAnswerCheck(t *testing.T) {
	for _, tc := range []struct {
		name string
		a    Answer
		n    int
		ok   bool
	}{
		{"whole", Answer{P: []float64{0.25, 0.75}, MeanRounds: 3}, 2, true},
		{"too few", Answer{P: []float64{1}}, 2, false},
		{"short of one", Answer{P: []float64{0.25, 0.5}}, 2, false},
		{"negative", Answer{P: []float64{-0.5, 1.5}}, 2, false},
		{"NaN", Answer{P: []float64{math.NaN(), 1}}, 2, false},
		{"NaN mean", Answer{P: []float64{1}, MeanRounds: math.NaN()}, 1, false},
		{"endless mean", Answer{P: []float64{1}, MeanRounds: math.Inf(1)}, 1, false},
	} {
		if err := tc.a.Check(tc.n); (err == nil) != tc.ok {
			t.Errorf("%s: Check = %v, want ok %v", tc.name, err, tc.ok)
		}
	}
}

// A reward of 1 in every state is the expected number of steps; a reward
// only in state 1 counts the expected visits there. From 2 in the fair
// ruin of 4, state 1 is visited 1 time on average (N[2][1] = 1).
func TestExpectedReward(t *testing.T) {
	c, _ := Explore(context.Background(), 2, ruin(0.5))
	steps, err := c.ExpectedReward(func(int) float64 { return 1 })
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(steps-4) > 1e-12 {
		t.Errorf("expected steps by reward %v, want 4", steps)
	}
	visits, err := c.ExpectedReward(func(s int) float64 {
		if s == 1 {
			return 1
		}
		return 0
	})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(visits-1) > 1e-12 {
		t.Errorf("expected visits to 1: %v, want 1", visits)
	}
	if _, err := c.ExpectedReward(nil); err == nil {
		t.Error("nil reward accepted")
	}
}

func TestExploreTooLargeAndCancelled(t *testing.T) {
	huge := func(s int, buf []Step[int]) []Step[int] { return append(buf, Step[int]{s + 1, 1}) }
	if _, err := Explore(context.Background(), 0, huge); !errors.Is(err, ErrTooLarge) {
		t.Errorf("unbounded chain: %v, want ErrTooLarge", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Explore(ctx, 0, huge); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled walk: %v, want context.Canceled", err)
	}
}

// TestAnswerOfSameBits: a walk on 0..4 that may also stop on any step in
// one of three ways per side ends in ten absorbing states, five per
// category, with probabilities of many magnitudes. Summed in a map's
// order their total changed in its last bits from call to call; summed in
// the chain's state order (Solution.All) every call gives the same bits.
func TestAnswerOfSameBits(t *testing.T) {
	type st struct{ pos, end int } // end 0: going; 1..5: stopped
	next := func(s st, buf []Step[st]) []Step[st] {
		if s.end != 0 || s.pos == 0 || s.pos == 4 {
			return buf
		}
		w := []float64{0.31, 0.29, 0.017, 0.23, 0.0131, 0.1399}
		buf = append(buf, Step[st]{To: st{pos: s.pos - 1}, P: w[0]}, Step[st]{To: st{pos: s.pos + 1}, P: w[1]})
		for k, p := range w[2:] {
			buf = append(buf, Step[st]{To: st{pos: s.pos, end: k + 1}, P: p})
		}
		return buf
	}
	c, err := Explore(context.Background(), st{pos: 2}, next)
	if err != nil {
		t.Fatal(err)
	}
	// Category 0: stopped on the low half or ruined; 1: the rest.
	cat := func(s st) int {
		if s.pos == 0 || s.end != 0 && (s.pos+s.end)%2 == 0 {
			return 0
		}
		return 1
	}
	first, err := AnswerOf(context.Background(), c, 2, cat, 1000)
	if err != nil {
		t.Fatal(err)
	}
	perCat := [2]int{}
	sol, _ := c.Solve()
	for s := range sol.All() {
		perCat[cat(s)]++
	}
	if perCat[0] < 3 || perCat[1] < 3 {
		t.Fatalf("absorbing states per category %v; the test needs several in each", perCat)
	}
	for call := range 200 {
		a, err := AnswerOf(context.Background(), c, 2, cat, 1000)
		if err != nil {
			t.Fatal(err)
		}
		for k := range a.P {
			if math.Float64bits(a.P[k]) != math.Float64bits(first.P[k]) {
				t.Fatalf("call %d: P[%d] = %v (bits %#x); the first call gave %v (bits %#x)",
					call, k, a.P[k], math.Float64bits(a.P[k]), first.P[k], math.Float64bits(first.P[k]))
			}
		}
	}
}

// TestSolutionAllInStateOrder: All yields every state of Absorb once, in
// the order Explore found them.
func TestSolutionAllInStateOrder(t *testing.T) {
	c, err := Explore(context.Background(), 2, ruin(0.3))
	if err != nil {
		t.Fatal(err)
	}
	sol, err := c.Solve()
	if err != nil {
		t.Fatal(err)
	}
	var got []int
	for s, p := range sol.All() {
		if p != sol.Absorb[s] {
			t.Errorf("All gives %v for state %d; Absorb %v", p, s, sol.Absorb[s])
		}
		got = append(got, s)
	}
	var want []int
	for _, s := range c.States() {
		if _, ok := sol.Absorb[s]; ok {
			want = append(want, s)
		}
	}
	if len(got) != len(sol.Absorb) || !slices.Equal(got, want) {
		t.Errorf("All yields %v; the absorbing states in the chain's order are %v", got, want)
	}
	for range sol.All() {
		break // stopping early is allowed
	}
}
