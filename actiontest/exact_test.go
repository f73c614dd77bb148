package actiontest

import (
	"math"
	"testing"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/dice/gof"
)

// faces6 calls f with every sequence of n d6 faces and its probability.
func faces6(n int, f func(faces []int, p float64)) {
	faces := make([]int, n)
	var rec func(i int)
	rec = func(i int) {
		if i == n {
			f(faces, math.Pow(1.0/6, float64(n)))
			return
		}
		for v := 1; v <= 6; v++ {
			faces[i] = v
			rec(i + 1)
		}
	}
	rec(0)
}

// sixCounts enumerates every sequence of n d6 faces and counts how many
// show each number of sixes (integer counts, so no rounding).
func sixCounts(n int) []int64 {
	out := make([]int64, n+1)
	faces6(n, func(f []int, _ float64) { out[dice.CountAtLeast(f, 6)]++ })
	return out
}

// bruteSuccesses enumerates every first roll and every re-roll.
func bruteSuccesses(n int, push func(int) bool) map[int]float64 {
	out := map[int]float64{}
	first := sixCounts(n)
	for s, cs := range first {
		p := float64(cs) / math.Pow(6, float64(n))
		if !push(s) {
			out[s] += p
			continue
		}
		m := n - s + 2
		for k, ck := range sixCounts(m) {
			out[s+k] += p * float64(ck) / math.Pow(6, float64(m))
		}
	}
	return out
}

func TestSuccessDistBruteForce(t *testing.T) {
	rl := DefaultRules()
	pushes := map[string]func(int) bool{
		"never":     func(int) bool { return false },
		"failed<2":  func(s int) bool { return s < 2 },
		"always":    func(int) bool { return true },
		"only at 1": func(s int) bool { return s == 1 },
	}
	for n := 1; n <= 4; n++ {
		for name, push := range pushes {
			got, err := rl.SuccessDist(n, push)
			if err != nil {
				t.Fatal(err)
			}
			want := bruteSuccesses(n, push)
			for k := 0; k <= n+2; k++ {
				if math.Abs(got.Prob(k)-want[k]) > 1e-12 {
					t.Errorf("n=%d %s: P(%d) = %v, brute force %v", n, name, k, got.Prob(k), want[k])
				}
			}
		}
	}
	if _, err := rl.SuccessDist(-1, nil); err == nil {
		t.Error("negative pool accepted")
	}
	// Closed form: no push, P(no six in n dice) = (5/6)^n.
	d, _ := rl.SuccessDist(7, nil)
	if math.Abs(d.Prob(0)-math.Pow(5.0/6, 7)) > 1e-15 || math.Abs(d.Mean()-7.0/6) > 1e-12 {
		t.Errorf("7 dice: P(0) %v mean %v", d.Prob(0), d.Mean())
	}
}

// Sampled tests played with each policy match the exact odds, by
// chi-square at fixed seeds, over pools, positions and difficulties.
func TestChancesMatchSampled(t *testing.T) {
	trials := 40000
	if testing.Short() {
		trials = 10000
	}
	type cfg struct {
		test   Test
		harm   []TrackHarm
		policy string
	}
	var cases []cfg
	for _, pol := range PolicyNames() {
		for _, tst := range []Test{
			{Action: "Prowl", Position: Risky, Difficulty: 1},
			{Action: "Persuade", Position: Desperate, Difficulty: 2, Helpers: 2},
			{Action: "Force", Position: Controlled, Difficulty: 3, Equipment: 1, PerilOffered: true},
			{Action: "Prowl", Position: Risky, Difficulty: 1, PerilOffered: true, PerilHarm: 2},
		} {
			cases = append(cases, cfg{tst, nil, pol})
		}
		cases = append(cases, cfg{Test{Action: "Prowl", Position: Risky, Difficulty: 2}, harmOf([3]int{1, 0, 1}, [3]int{}), pol})
	}
	for i, tc := range cases {
		c := newChar(t, DefaultRules())
		if tc.harm != nil {
			c.Harm = tc.harm
		}
		p, _ := PolicyByName(tc.policy)
		ch, err := chances(c, tc.test, p)
		if err != nil {
			t.Fatalf("%s %+v: %v", tc.policy, tc.test, err)
		}
		start := c.Clone()
		r := dice.NewSeeded(uint64(1000 + i))
		obs := map[int]int64{}
		var kinds [numKinds]int64
		pushed := 0
		at := &c.Attempt
		for range trials {
			c.copyPlay(start)
			if err := play(c, r, tc.test, p); err != nil {
				t.Fatalf("%s %+v: %v", tc.policy, tc.test, err)
			}
			obs[at.Successes]++
			kinds[at.Outcome.Kind]++
			if at.Pushed {
				pushed++
			}
		}
		fit, err := gof.ChiSquare(ch.Successes, obs)
		if err != nil || fit.PValue < 1e-4 {
			t.Errorf("%s %+v: successes fit p=%v err=%v", tc.policy, tc.test, fit.PValue, err)
		}
		kd := dice.Dist{P: ch.Kind[:]}
		kobs := map[int]int64{}
		for k, n := range kinds {
			kobs[k] = n
		}
		if fit, err := gof.ChiSquare(kd, kobs); err != nil || fit.PValue < 1e-4 {
			t.Errorf("%s %+v: kinds fit p=%v err=%v", tc.policy, tc.test, fit.PValue, err)
		}
		se := math.Sqrt(ch.Pushed*(1-ch.Pushed)/float64(trials)) + 1e-9
		if math.Abs(float64(pushed)/float64(trials)-ch.Pushed) > 5*se {
			t.Errorf("%s %+v: pushed %v of trials, exact %v", tc.policy, tc.test, float64(pushed)/float64(trials), ch.Pushed)
		}
	}
}

// The chi-square check has teeth: a push's exact odds do not fit sampled
// unpushed rolls.
func TestChancesRejectWrongModel(t *testing.T) {
	c := newChar(t, DefaultRules())
	tst := Test{Action: "Prowl", Position: Risky, Difficulty: 1}
	ch, err := chances(c, tst, WhenFailed{})
	if err != nil {
		t.Fatal(err)
	}
	r := dice.NewSeeded(7)
	obs := map[int]int64{}
	start := c.Clone()
	at := &c.Attempt
	for range 20000 {
		c.copyPlay(start)
		if err := play(c, r, tst, Never{}); err != nil {
			t.Fatal(err)
		}
		obs[at.Successes]++
	}
	if fit, _ := gof.ChiSquare(ch.Successes, obs); fit.PValue > 1e-6 {
		t.Errorf("unpushed rolls fit the pushed model: p=%v", fit.PValue)
	}
}

func TestChancesClosedForm(t *testing.T) {
	c := newChar(t, DefaultRules())
	// Prowl 2 + Dexterity 2 = 4 dice, risky, normal: success iff a six.
	ch, err := chances(c, Test{Action: "Prowl", Position: Risky, Difficulty: 1}, Never{})
	if err != nil {
		t.Fatal(err)
	}
	q := math.Pow(5.0/6, 4)
	if math.Abs(ch.Band[BandFailure]-q) > 1e-12 || math.Abs(ch.Succeeded-(1-q)) > 1e-12 || ch.Pushed != 0 {
		t.Errorf("4 dice: %+v, want failure %v", ch, q)
	}
	// Always pushing a failure: fail only if the first 4 and the 6 re-rolled
	// dice all miss.
	ch, _ = chances(c, Test{Action: "Prowl", Position: Risky, Difficulty: 1}, WhenFailed{})
	if want := math.Pow(5.0/6, 10); math.Abs(ch.Band[BandFailure]-want) > 1e-12 || math.Abs(ch.Pushed-q) > 1e-12 {
		t.Errorf("pushed: failure %v pushed %v, want %v %v", ch.Band[BandFailure], ch.Pushed, want, q)
	}
	// Escalation: a risky failure becomes a retry.
	ch, _ = chances(c, Test{Action: "Prowl", Position: Risky, Difficulty: 1, Escalate: true}, Never{})
	if math.Abs(ch.Retry-q) > 1e-12 {
		t.Errorf("retry %v, want %v", ch.Retry, q)
	}
	// Risk peril taken by the daring policy: 7 dice, no push.
	ch, _ = chances(c, Test{Action: "Persuade", Position: Risky, Difficulty: 1, PerilOffered: true}, Threshold{PerilBelow: 5})
	if !ch.Peril || ch.Pool != 7 || ch.Pushed != 0 {
		t.Errorf("peril: %+v", ch)
	}
}

func TestOpposedOdds(t *testing.T) {
	rl := DefaultRules()
	for _, tc := range [][2]int{{1, 1}, {2, 3}, {4, 1}, {0, 2}} {
		win, tie, lose, err := rl.OpposedOdds(tc[0], tc[1])
		if err != nil {
			t.Fatal(err)
		}
		var bw, bt, bl float64
		faces6(tc[0]+tc[1], func(f []int, p float64) {
			a, b := dice.CountAtLeast(f[:tc[0]], 6), dice.CountAtLeast(f[tc[0]:], 6)
			switch {
			case a > b:
				bw += p
			case a == b:
				bt += p
			default:
				bl += p
			}
		})
		if math.Abs(win-bw)+math.Abs(tie-bt)+math.Abs(lose-bl) > 1e-12 {
			t.Errorf("%v: %v %v %v, brute %v %v %v", tc, win, tie, lose, bw, bt, bl)
		}
	}
	// Sampled through the engine.
	c := newChar(t, DefaultRules())
	d, _ := NewState(DefaultRules(), Sheet{Attributes: map[string]int{"Presence": 2}, Actions: map[string]int{"Persuade": 1}})
	win, tie, lose, _ := rl.OpposedOdds(4, 3)
	r := dice.NewSeeded(99)
	obs := map[int]int64{}
	for range 30000 {
		// Risky and no harm at stake: finishing changes neither state.
		_ = eng.Begin(c, r, Test{Action: "Prowl", Position: Risky, Difficulty: 1, NoHarm: true})
		_ = eng.Begin(d, r, Test{Action: "Persuade", Position: Risky, Difficulty: 1, NoHarm: true})
		o, _ := Opposed(&c.Attempt, &d.Attempt)
		obs[o]++
		_, _ = eng.Finish(c), eng.Finish(d)
	}
	fit, err := gof.ChiSquare(dice.Dist{Min: -1, P: []float64{lose, tie, win}}, obs)
	if err != nil || fit.PValue < 1e-4 {
		t.Errorf("opposed 4 vs 3: p=%v err=%v obs=%v", fit.PValue, err, obs)
	}
	if _, _, _, err := rl.OpposedOdds(-1, 2); err == nil {
		t.Error("negative pool accepted")
	}
}

// Odds for any pool, position and difficulty agree with SuccessDist given
// each policy's push rule, and the table reads the bands.
func TestOddsGrid(t *testing.T) {
	rl := DefaultRules()
	pushes := map[string]func(s, d int) bool{
		"never":              func(int, int) bool { return false },
		"always_when_failed": func(s, d int) bool { return s < d },
		"threshold":          func(s, d int) bool { return s < d+1 },
		"cautious":           func(s, d int) bool { return s < d },
	}
	for name, rule := range pushes {
		p, _ := PolicyByName(name)
		for pool := 1; pool <= 8; pool++ {
			for d := 1; d <= 3; d++ {
				want, _ := rl.SuccessDist(pool, func(s int) bool { return rule(s, d) })
				for _, pos := range []Position{Controlled, Risky, Desperate} {
					ch, err := rl.Odds(pool, pos, d, p)
					if err != nil {
						t.Fatal(err)
					}
					for k := 0; k <= pool+2; k++ {
						if math.Abs(ch.Successes.Prob(k)-want.Prob(k)) > 1e-12 {
							t.Fatalf("%s pool %d difficulty %d: P(%d) %v, want %v", name, pool, d, k, ch.Successes.Prob(k), want.Prob(k))
						}
					}
					fail := want.CDF(d - 1)
					if math.Abs(ch.Band[BandFailure]-fail) > 1e-12 || math.Abs(ch.Band[BandMultiple]-want.AtLeast(d+1)) > 1e-12 {
						t.Errorf("%s pool %d difficulty %d: bands %v", name, pool, d, ch.Band)
					}
					wantSucc := 1 - fail
					if pos == Controlled {
						wantSucc = 1 // the text's controlled failure is still a success
					}
					if math.Abs(ch.Succeeded-wantSucc) > 1e-12 {
						t.Errorf("%s pool %d difficulty %d position %s: succeeded %v, want %v", name, pool, d, pos, ch.Succeeded, wantSucc)
					}
				}
			}
		}
	}
	for _, bad := range []int{0, 65} {
		if _, err := rl.Odds(bad, Risky, 1, nil); err == nil {
			t.Errorf("pool %d accepted", bad)
		}
	}
	if _, err := rl.Odds(3, Risky, 0, nil); err == nil {
		t.Error("difficulty 0 accepted")
	}
}

func TestOpposedOf(t *testing.T) {
	rl := DefaultRules()
	a, _ := rl.Odds(4, Risky, 1, nil)
	b, _ := rl.Odds(3, Risky, 1, nil)
	w, ti, l := OpposedOf(a.Successes, b.Successes)
	ww, wt, wl, _ := rl.OpposedOdds(4, 3)
	if math.Abs(w-ww)+math.Abs(ti-wt)+math.Abs(l-wl) > 1e-12 {
		t.Errorf("OpposedOf %v %v %v, OpposedOdds %v %v %v", w, ti, l, ww, wt, wl)
	}
	// A side that pushes every failure does better against the same foe.
	p, _ := rl.Odds(3, Risky, 1, WhenFailed{})
	if pw, _, _ := OpposedOf(p.Successes, a.Successes); pw <= l {
		t.Errorf("pushing 3 dice wins %v against 4, not pushing %v", pw, l)
	}
}

// A flashback of difficulty 0 always succeeds; of difficulty 2 it is a test
// like any other.
func TestFlashbackChances(t *testing.T) {
	c := newChar(t, DefaultRules())
	ch, err := chances(c, Test{Action: "Persuade", Position: Risky, Flashback: true}, Never{})
	if err != nil || ch.Succeeded != 1 || ch.Pool != 4 {
		t.Errorf("difficulty 0: %+v %v", ch, err)
	}
	ch, _ = chances(c, Test{Action: "Persuade", Position: Risky, Flashback: true, Difficulty: 2}, Never{})
	rl := DefaultRules()
	d, _ := rl.SuccessDist(4, nil)
	if math.Abs(ch.Succeeded-d.AtLeast(2)) > 1e-12 {
		t.Errorf("difficulty 2: succeeded %v, want %v", ch.Succeeded, d.AtLeast(2))
	}
	c.FlashbacksUsed = 1
	if _, err := chances(c, Test{Action: "Persuade", Position: Risky, Flashback: true}, Never{}); err == nil {
		t.Error("flashback odds with none left")
	}
}
