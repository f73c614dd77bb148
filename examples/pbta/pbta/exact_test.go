package pbta_test

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/dice/gof"
	"github.com/stakesrpg/stakes/examples/pbta/pbta"
	"github.com/stakesrpg/stakes/sim/markov"
)

const tol = 1e-12

func near(a, b float64) bool { return math.Abs(a-b) <= tol }

// TestOddsByStat holds the bands of 2d6 + stat to a count of the 36 rolls:
// 2d6 shows 2..12 in 1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1 ways.
func TestOddsByStat(t *testing.T) {
	for _, c := range []struct {
		stat                int
		full, partial, miss float64 // out of 36
	}{
		{-2, 1, 9, 26},  // 12; 9..11; 8-
		{-1, 3, 12, 21}, // 11+; 8..10; 7-
		{0, 6, 15, 15},  // 10+; 7..9; 6-
		{1, 10, 16, 10}, // 9+; 6..8; 5-
		{2, 15, 15, 6},  // 8+; 5..7; 4-
		{3, 21, 12, 3},  // 7+; 4..6; 3-
		{5, 30, 6, 0},   // 5+; 2..4; never
	} {
		got, err := pbta.DefaultRules().Odds(c.stat)
		if err != nil {
			t.Fatal(err)
		}
		want := [3]float64{c.miss / 36, c.partial / 36, c.full / 36}
		for b := range got {
			if !near(got[b], want[b]) {
				t.Errorf("stat %+d: P(%s) = %v, want %v", c.stat, pbta.Band(b), got[b], want[b])
			}
		}
	}
	if _, err := pbta.DefaultRules().Odds(6); !errors.Is(err, pbta.ErrInvalid) {
		t.Errorf("stat +6: err %v, want ErrInvalid", err)
	}
}

// oneBlow is a fight decided in its first exchange: a hit takes the
// threat out, one blow of the threat takes the character out.
func oneBlow() pbta.Scenario {
	sc := pbta.DefaultScenario()
	sc.PC = pbta.Character{Name: "Rook", Hard: 0, Cool: 0, Harm: 1, Armor: 0}
	sc.Threat = pbta.Threat{Name: "the raider", Harm: 6, Armor: 0, Capacity: 1}
	sc.Player, sc.GM = "aggressive", "ruthless"
	return sc
}

func exact(t *testing.T, sc pbta.Scenario) markov.Answer {
	t.Helper()
	a, err := sc.Exact(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestExactOneBlow(t *testing.T) {
	a := exact(t, oneBlow())
	// 10+ (6/36): victory; 7-9 (15/36): traded blows, both down; 6- (15/36):
	// the GM strikes, defeat. Always one exchange.
	want := []float64{6.0 / 36, 15.0 / 36, 15.0 / 36, 0}
	for k := range want {
		if !near(a.P[k], want[k]) {
			t.Errorf("P[%d] = %v, want %v", k, a.P[k], want[k])
		}
	}
	if !near(a.MeanRounds, 1) || len(a.Rounds) != 2 || !near(a.Rounds[1], 1) {
		t.Errorf("rounds: mean %v, dist %v; want exactly 1", a.MeanRounds, a.Rounds)
	}
	if !near(a.Means["misses"], 15.0/36) || !near(a.Means["pc_harm"], 30.0/36*6) || !near(a.Means["threat_harm"], 21.0/36) {
		t.Errorf("means %v", a.Means)
	}
}

// TestExactHarmless: a threat that cannot hurt the character is fought
// until a hit lands (21/36 an exchange with no stat: 7+), or the fight
// breaks off after MaxExchanges misses in a row.
func TestExactHarmless(t *testing.T) {
	sc := oneBlow()
	sc.Threat.Harm = 0
	sc.Rules.MaxExchanges = 5
	a := exact(t, sc)
	q := 15.0 / 36
	standoff := math.Pow(q, 5)
	mean := 0.0
	for k := range 5 {
		mean += math.Pow(q, float64(k))
	}
	if !near(a.P[pbta.Victory], 1-standoff) || !near(a.P[pbta.Standoff], standoff) || a.P[pbta.Defeat] != 0 {
		t.Errorf("P = %v, want victory %v, standoff %v", a.P, 1-standoff, standoff)
	}
	if !near(a.MeanRounds, mean) {
		t.Errorf("mean exchanges %v, want %v", a.MeanRounds, mean)
	}
	for k := 1; k <= 5; k++ {
		want := math.Pow(q, float64(k-1)) * (1 - q)
		if k == 5 {
			want = math.Pow(q, 4) // the fifth exchange ends it either way
		}
		if !near(a.Rounds[k], want) {
			t.Errorf("P(%d exchanges) = %v, want %v", k, a.Rounds[k], want)
		}
	}
}

// TestExactHoldBack: careful play holds back on every 7-9, so with a
// 1-harm hit held back to nothing only 10+ hurts the threat.
func TestExactHoldBack(t *testing.T) {
	sc := oneBlow()
	sc.Player = "careful"
	sc.Threat.Harm = 0
	sc.Rules.MaxExchanges = 1
	a := exact(t, sc)
	if !near(a.P[pbta.Victory], 6.0/36) || !near(a.P[pbta.Standoff], 30.0/36) {
		t.Errorf("P = %v, want victory 6/36, standoff 30/36", a.P)
	}
}

func TestExactSameBits(t *testing.T) {
	sc := pbta.DefaultScenario()
	sc.GM = "tactical"
	a, b := exact(t, sc), exact(t, sc)
	for k := range a.P {
		if math.Float64bits(a.P[k]) != math.Float64bits(b.P[k]) {
			t.Errorf("P[%d]: %v then %v", k, a.P[k], b.P[k])
		}
	}
}

// longFight can last to its last exchange: the threat cannot hurt the
// character and regroups whenever it is half spent.
func longFight() pbta.Scenario {
	sc := pbta.DefaultScenario()
	sc.Threat.Harm, sc.Threat.Capacity, sc.GM = 0, 20, "tactical"
	sc.Rules.Track, sc.Rules.MaxExchanges = 12, 1000
	return sc
}

func TestExactTooLarge(t *testing.T) {
	sc := longFight()
	_, err := sc.Exact(context.Background())
	if !errors.Is(err, markov.ErrNoExact) {
		t.Fatalf("err %v, want ErrNoExact", err)
	}
	// The built-in fight ends within a few exchanges whatever the most:
	// every exchange marks harm on someone.
	sc = pbta.DefaultScenario()
	sc.Rules.MaxExchanges = 1000
	if _, err := sc.Exact(context.Background()); err != nil {
		t.Errorf("built-in fight of at most 1000 exchanges: %v", err)
	}
}

// TestSampledFitsExact runs the built-in fight and two variants and
// tests the outcome counts against the exact answer.
func TestSampledFitsExact(t *testing.T) {
	for _, gm := range []string{"ruthless", "merciful", "tactical"} {
		sc := pbta.DefaultScenario()
		sc.GM = gm
		a := exact(t, sc)
		rn, err := sc.NewRunner()
		if err != nil {
			t.Fatal(err)
		}
		r := dice.NewSeeded(42)
		obs := map[int]int64{}
		m := make([]int, len(sc.Metrics()))
		for range 40000 {
			k, err := rn.Trial(r, m)
			if err != nil {
				t.Fatal(err)
			}
			obs[k]++
		}
		fit, err := gof.ChiSquare(dice.Dist{Min: 0, P: a.P}, obs)
		if err != nil {
			t.Fatal(err)
		}
		if fit.PValue < 1e-4 {
			t.Errorf("GM %s: sampled %v against exact %v: p = %g", gm, obs, a.P, fit.PValue)
		}
	}
}

func TestTrialAllocatesNothing(t *testing.T) {
	rn, err := pbta.DefaultScenario().NewRunner()
	if err != nil {
		t.Fatal(err)
	}
	r := dice.NewSeeded(1)
	m := make([]int, 4)
	if n := testing.AllocsPerRun(1000, func() { _, _ = rn.Trial(r, m) }); n != 0 {
		t.Errorf("%v allocations a trial", n)
	}
	if _, err := rn.Trial(nil, m); !errors.Is(err, dice.ErrNilRoller) {
		t.Errorf("nil Roller: %v", err)
	}
}

func BenchmarkTrial(b *testing.B) {
	rn, err := pbta.DefaultScenario().NewRunner()
	if err != nil {
		b.Fatal(err)
	}
	r := dice.NewSeeded(1)
	m := make([]int, 4)
	for b.Loop() {
		if _, err := rn.Trial(r, m); err != nil {
			b.Fatal(err)
		}
	}
}
