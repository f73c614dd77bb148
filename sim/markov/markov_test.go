package markov

import (
	"context"
	"math"
	"testing"
)

// Gambler's ruin: start with 2 of 4 coins, win a coin with p. Closed form:
// P(reach 4) = (1 - (q/p)^2) / (1 - (q/p)^4); with p = 1/2 it is 1/2 and the
// expected duration is i(N-i) = 4.
func ruin(p float64) func(int, []Step[int]) []Step[int] {
	return func(s int, buf []Step[int]) []Step[int] {
		if s == 0 || s == 4 {
			return buf
		}
		return append(buf, Step[int]{s + 1, p}, Step[int]{s - 1, 1 - p})
	}
}

func TestGamblersRuin(t *testing.T) {
	c, err := Explore(context.Background(), 2, ruin(0.5))
	if err != nil {
		t.Fatal(err)
	}
	sol, err := c.Solve()
	if err != nil {
		t.Fatal(err)
	}
	if got := sol.Absorb[4]; math.Abs(got-0.5) > 1e-12 {
		t.Errorf("P(win) = %v, want 0.5", got)
	}
	if math.Abs(sol.ExpectedSteps-4) > 1e-12 {
		t.Errorf("E[steps] = %v, want 4", sol.ExpectedSteps)
	}
	// Steps are 2 w.p. 1/2, 4 w.p. 1/4, 6 w.p. 1/8...: variance = 8.
	if math.Abs(sol.VarianceSteps-8) > 1e-9 {
		t.Errorf("Var[steps] = %v, want 8", sol.VarianceSteps)
	}
	p := 0.6
	c, _ = Explore(context.Background(), 2, ruin(p))
	sol, _ = c.Solve()
	r := (1 - p) / p
	want := (1 - r*r) / (1 - r*r*r*r)
	if math.Abs(sol.Absorb[4]-want) > 1e-12 {
		t.Errorf("biased P(win) = %v, want %v", sol.Absorb[4], want)
	}
	dist, rest, err := c.StepDist(200, 1e-15)
	if err != nil {
		t.Fatal(err)
	}
	mean, total := 0.0, rest
	for k, q := range dist {
		mean += float64(k) * q
		total += q
	}
	if math.Abs(total-1) > 1e-12 || math.Abs(mean-sol.ExpectedSteps) > 1e-9 {
		t.Errorf("step distribution total %v mean %v, want 1 and %v", total, mean, sol.ExpectedSteps)
	}
	if dist[1] != 0 || math.Abs(dist[2]-(p*p+(1-p)*(1-p))) > 1e-15 {
		t.Errorf("P(T=1), P(T=2) = %v, %v", dist[1], dist[2])
	}
	at, err := c.AbsorbAt(200)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(at[4][200]-sol.Absorb[4]) > 1e-12 || at[4][1] != 0 || math.Abs(at[4][2]-p*p) > 1e-15 {
		t.Errorf("AbsorbAt: by 2 %v, by 200 %v", at[4][2], at[4][200])
	}
}

func TestErrors(t *testing.T) {
	if _, err := Explore[int](context.Background(), 0, nil); err == nil {
		t.Error("nil transition function accepted")
	}
	bad := func(s int, buf []Step[int]) []Step[int] {
		if s == 1 {
			return buf
		}
		return append(buf, Step[int]{1, 0.7})
	}
	if _, err := Explore(context.Background(), 0, bad); err == nil {
		t.Error("probabilities summing to 0.7 accepted")
	}
	neg := func(s int, buf []Step[int]) []Step[int] {
		if s == 1 {
			return buf
		}
		return append(buf, Step[int]{1, 1.5}, Step[int]{2, -0.5})
	}
	if _, err := Explore(context.Background(), 0, neg); err == nil {
		t.Error("negative probability accepted")
	}
	// A cycle that never absorbs, next to an absorbing state it cannot reach.
	loop := func(s int, buf []Step[int]) []Step[int] {
		switch s {
		case 0:
			return append(buf, Step[int]{1, 0.5}, Step[int]{2, 0.5})
		case 1:
			return append(buf, Step[int]{1, 1})
		}
		return buf
	}
	c, err := Explore(context.Background(), 0, loop)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Solve(); err == nil {
		t.Error("a never-absorbing state was solved")
	}
	huge := func(s int, buf []Step[int]) []Step[int] { return append(buf, Step[int]{s + 1, 1}) }
	if _, err := Explore(context.Background(), 0, huge); err == nil {
		t.Error("an unbounded chain was explored")
	}
	c, _ = Explore(context.Background(), 2, ruin(0.5))
	if _, _, err := c.StepDist(0, 1e-9); err == nil {
		t.Error("maxSteps 0 accepted")
	}
	if _, _, err := c.StepDist(10, 0); err == nil {
		t.Error("tolerance 0 accepted")
	}
	if _, err := c.AbsorbAt(-1); err == nil {
		t.Error("negative steps accepted")
	}
}

func TestAbsorbingStart(t *testing.T) {
	c, err := Explore(context.Background(), 4, ruin(0.5))
	if err != nil {
		t.Fatal(err)
	}
	sol, err := c.Solve()
	if err != nil || sol.Absorb[4] != 1 || sol.ExpectedSteps != 0 {
		t.Errorf("absorbing start: %+v %v", sol, err)
	}
	if !c.Absorbing(4) || c.Len() != 1 {
		t.Errorf("Absorbing(4)=%v Len=%d", c.Absorbing(4), c.Len())
	}
}
