package dramadeck

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/dice/gof"
)

func TestJudge(t *testing.T) {
	c := DefaultCriticals()
	tests := []struct {
		roll, skill int
		want        Result
	}{
		{3, 3, Result{3, 3, true, true}},
		{4, 2, Result{4, 2, true, true}},       // 3-4 always succeed
		{5, 15, Result{5, 15, true, true}},     // 5 crit at 15+
		{5, 14, Result{5, 14, true, false}},    //
		{6, 16, Result{6, 16, true, true}},     // 6 crit at 16+
		{6, 15, Result{6, 15, true, false}},    //
		{10, 10, Result{10, 10, true, false}},  //
		{11, 10, Result{11, 10, false, false}}, //
		{17, 20, Result{17, 20, false, false}}, // 17 always fails, not critical above 15
		{17, 15, Result{17, 15, false, true}},  // 17 crit fail at 15 or less
		{18, 25, Result{18, 25, false, true}},  // 18 always critical failure
		{16, 6, Result{16, 6, false, true}},    // fail by 10
		{15, 6, Result{15, 6, false, false}},   //
	}
	for _, tt := range tests {
		if d := cmp.Diff(tt.want, c.Judge(tt.roll, tt.skill)); d != "" {
			t.Errorf("Judge(%d, %d) (-want +got):\n%s", tt.roll, tt.skill, d)
		}
	}
}

func TestQuickContest(t *testing.T) {
	c := DefaultCriticals()
	tests := []struct {
		a, b     Result
		win, mov int
	}{
		{c.Judge(10, 12), c.Judge(13, 12), 0, 3}, // success beats failure
		{c.Judge(14, 12), c.Judge(9, 12), 1, 5},  //
		{c.Judge(6, 12), c.Judge(9, 12), 0, 3},   // two successes: larger margin
		{c.Judge(14, 12), c.Judge(13, 12), 1, 1}, // two failures: smaller failure wins
		{c.Judge(8, 12), c.Judge(10, 14), -1, 0}, // equal margins: nobody
		{c.Judge(3, 12), c.Judge(5, 12), 0, 2},   // criticals do not decide
		{c.Judge(4, 2), c.Judge(13, 12), 0, 0},   // success with negative margin: mov floored at 0
	}
	for _, tt := range tests {
		w, m := QuickContest(tt.a, tt.b)
		if w != tt.win || m != tt.mov {
			t.Errorf("QuickContest(%+v, %+v) = %d, %d; want %d, %d", tt.a, tt.b, w, m, tt.win, tt.mov)
		}
	}
}

func TestLuckRoll(t *testing.T) {
	c := DefaultCriticals()
	// Best of three: 15, 12, 9 against 10 keeps 9.
	r := fixed(5, 5, 5, 4, 4, 4, 3, 3, 3)
	got := c.LuckRoll(r, 10, 3)
	if got.Roll != 9 || !got.Success || r.Remaining() != 0 {
		t.Errorf("LuckRoll = %+v, remaining %d; want roll 9 success, all nine dice used", got, r.Remaining())
	}
	// Exact chance vs brute force.
	for skill := 3; skill <= 18; skill++ {
		brute := 0
		for a := 1; a <= 6; a++ {
			for b := 1; b <= 6; b++ {
				for d := 1; d <= 6; d++ {
					if c.Judge(a+b+d, skill).Success {
						brute++
					}
				}
			}
		}
		if got := c.SuccessChance(skill); math.Abs(got-float64(brute)/216) > 1e-12 {
			t.Errorf("SuccessChance(%d) = %v, want %v", skill, got, float64(brute)/216)
		}
		q := 1 - float64(brute)/216
		if got := c.LuckChance(skill, 3); math.Abs(got-(1-q*q*q)) > 1e-12 {
			t.Errorf("LuckChance(%d) = %v", skill, got)
		}
	}
}

func TestSuccessRollSampled(t *testing.T) {
	r := dice.NewSeeded(11)
	obs := map[int]int64{}
	for range 50000 {
		obs[Roll3d6(r)]++
	}
	fit, err := gof.ChiSquare(Dist3d6(), obs)
	if err != nil || fit.PValue < 1e-4 {
		t.Errorf("3d6 fit %+v, %v", fit, err)
	}
	// The test can fail: a 2d6+3 model is rejected.
	wrong, _ := dice.SumOf([]dice.Die{dice.D6, dice.D6})
	wrong, _ = wrong.Shift(3)
	if fit, _ := gof.ChiSquare(wrong, obs); fit.PValue > 1e-4 {
		t.Errorf("wrong model accepted: %+v", fit)
	}
}

// TestSuccessRollFollowsRules: changing State.Rules.Criticals mid-game takes
// effect from the next step (the engine's table is rebuilt): Search here,
// and an attack through Act.
func TestSuccessRollFollowsRules(t *testing.T) {
	g := testGame(t)
	if res, err := g.Search(dice.Scripted(6, 6, 5), 0, 18); err != nil || res.Success {
		t.Fatalf("17 at skill 18 under the GURPS limits: %+v, %v; want a failure", res, err)
	}
	g.State.Rules.Criticals.AlwaysFail = 19
	if res, err := g.Search(dice.Scripted(6, 6, 5), 0, 18); err != nil || !res.Success {
		t.Fatalf("17 at skill 18 with always_fail 19: %+v, %v; want a success", res, err)
	}
	// An attack at skill 3 hits only on the always-succeed totals: 3-4 by
	// GURPS, up to 6 once AlwaysSucceed is 6.
	g.State.Heroes[0].Attack.Level = 3
	g.State.Villains[0].Defense = -20 // never defends
	if err := g.StartCombat(false); err != nil {
		t.Fatal(err)
	}
	hp := g.State.Villains[0].HP
	turnOf(g, 0)
	if err := g.Act(dice.Scripted(2, 2, 2, 1, 1), 0, Choice{Act: Attack, Target: 2}, &Style{}, nil); err != nil {
		t.Fatal(err)
	}
	if got := g.State.Villains[0].HP; got != hp {
		t.Fatalf("6 at attack 3 hit under the GURPS limits: HP %d -> %d", hp, got)
	}
	g.State.Rules.Criticals.AlwaysSucceed = 6
	turnOf(g, 0)
	if err := g.Act(dice.Scripted(2, 2, 2, 1, 6, 1, 1, 1), 0, Choice{Act: Attack, Target: 2}, &Style{}, nil); err != nil {
		t.Fatal(err)
	}
	if got := g.State.Villains[0].HP; got >= hp {
		t.Fatalf("6 at attack 3 with always_succeed 6 missed: HP %d -> %d", hp, got)
	}
}

// The Quick Contest's rule is a setting: criticals do not decide contests
// as published [src]; with CriticalsDecide a critical success beats a
// better ordinary success and a critical failure loses to a worse failure.
func TestQuickContestCriticalsAreASetting(t *testing.T) {
	c := DefaultCriticals()
	crit := c.Judge(4, 10)    // a critical success, margin 6
	better := c.Judge(3, 20)  // a critical success too, margin 17
	plain := c.Judge(9, 20)   // an ordinary success, margin 11
	fumble := c.Judge(18, 16) // a critical failure, margin -2
	poor := c.Judge(14, 8)    // an ordinary failure, margin -6
	for _, tc := range []struct {
		rules      ContestRules
		a, b       Result
		winner, mv int
	}{
		{ContestRules{}, crit, plain, 1, 5},
		{ContestRules{CriticalsDecide: true}, crit, plain, 0, 0},
		{ContestRules{CriticalsDecide: true}, crit, better, 1, 11},
		{ContestRules{}, fumble, poor, 0, 4},
		{ContestRules{CriticalsDecide: true}, fumble, poor, 1, 0},
	} {
		if w, mv := tc.rules.Decide(tc.a, tc.b); w != tc.winner || mv != tc.mv {
			t.Errorf("%+v: %v vs %v: winner %d by %d, want %d by %d", tc.rules, tc.a, tc.b, w, mv, tc.winner, tc.mv)
		}
	}
}
