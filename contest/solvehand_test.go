package contest

import (
	"context"
	"math"
	"testing"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim/markov"
)

// gmOnes is a timed action of Ann's d4 Value, 3 beats, against a d4 and
// then the Trouble Pool (a d4); the GM buys 1s with a d12
// (rules.trouble_die) and plays frugal, buying none, unless it decides.
func gmOnes() Scenario {
	s := oneStep()
	s.Rules.TroubleDie = dice.D12
	s.Trouble = []dice.Die{dice.D4}
	s.Timed.Beats = 3
	s.Timed.Steps = append(s.Timed.Steps, TimedStep{})
	return s
}

// TestSolveTheGMsOnesInATimedActionByHand: the GM plays for out_of_time,
// which comes when the second step fails (a success, by 1 to 4, leaves a
// beat, or none and the objective; a failure leaves none or fewer). A d4
// reads 0 (a 1), 2, 3 or 4; Ann fails against the d4 in 10 of 16 pairs.
// Her first roll shows a 1 a quarter of the time: bought, it adds a d12
// to the Trouble Pool, whose total S is then 0 in 1/48 (two 1s), 2 or 3
// in 2/48 each and 4 or more in 43/48, so she fails (a <= S) in
// (48 + 47 + 45 + 43)/192 = 183/192. Buying is the GM's best play:
// 3/4 * 10/16 + 1/4 * 183/192 = 543/768; the worst buys nothing: 10/16.
// Each 1 bought costs the GM a Plot Point handed over, so the worst
// play, for which buying changes nothing, buys none.
func TestSolveTheGMsOnesInATimedActionByHand(t *testing.T) {
	ctx := context.Background()
	sv, err := gmOnes().Solve(ctx, markov.Goal{Side: GMSide})
	if err != nil {
		t.Fatal(err)
	}
	if err := sv.Check(); err != nil {
		t.Fatal(err)
	}
	if math.Abs(sv.Best.Value-543.0/768) > 1e-12 || math.Abs(sv.Worst.Value-10.0/16) > 1e-12 {
		t.Errorf("best %v, worst %v; want 543/768 = %v and 10/16", sv.Best.Value, sv.Worst.Value, 543.0/768)
	}
	if sv.Side != GMSide || sv.Own.Name != "frugal" || math.Abs(sv.Worth-63.0/768) > 1e-12 {
		t.Errorf("side %q, own %q, worth %v; want GM, frugal, 63/768", sv.Side, sv.Own.Name, sv.Worth)
	}
	// One line: the 1 comes a quarter of the time and buying it is worth
	// 183/192 - 120/192 there: 63/768 a game.
	want := markov.Advice{When: "the actor rolled a 1; before step 2 of 2, 1 beat left, the Trouble Pool d4",
		Do: "buy 1 of the 1s", Else: "buy 0 of the 1s", Worth: 63.0 / 768, Reach: 0.25, States: 1}
	if len(sv.Advice) != 1 || sv.Advice[0].When != want.When || sv.Advice[0].Do != want.Do || sv.Advice[0].Else != want.Else ||
		math.Abs(sv.Advice[0].Worth-want.Worth) > 1e-12 || math.Abs(sv.Advice[0].Reach-want.Reach) > 1e-12 || sv.Advice[0].States != 1 {
		t.Errorf("advice %+v; want %+v", sv.Advice, want)
	}
	sc := gmOnes()
	sc.GMPolicy = "default" // buys one 1 a roll: the best play here
	ex, err := sc.Exact(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(ex.P[3]-543.0/768) > 1e-12 {
		t.Errorf("the default GM: out of time %v; want 543/768", ex.P[3])
	}
	for _, aim := range []markov.Aim{markov.Maximize, markov.Minimize} {
		o, err := gmOnes().Optimal(ctx, markov.Goal{Side: GMSide}, aim)
		if err != nil {
			t.Fatal(err)
		}
		if got, half := sampledWinRate(t, o, 51); math.Abs(got-o.Value) > half {
			t.Errorf("%v: the plan's Policy ran Ann out of time in %.4f of the trials; exact %.4f +- %.4f", aim, got, o.Value, half)
		}
	}
}

// troubleChoice is a timed action under rules.timed_trouble_off: Ann
// rolls her d8 Value twice against the Trouble Pool (a d4 and a d12) with
// 2 beats; a win takes one die off (an Extraordinary one too); the GM
// buys no 1s.
func troubleChoice() Scenario {
	s := oneStep()
	s.Rules.TimedTroubleOff = true
	s.Cast[0].Traits[0].Die = dice.D8
	s.Trouble = []dice.Die{dice.D4, dice.D12}
	s.Timed.Beats = 2
	s.Timed.Steps = []TimedStep{{}, {}}
	return s
}

// reading is what one die showing f adds to a total: nothing for a 1.
func reading(f int) int {
	if f == 1 {
		return 0
	}
	return f
}

// TestSolveWhichTroubleDieComesOffByHand: Ann succeeds only by winning
// both steps (a first step lost leaves no beat; a second lost leaves
// none and the step undone). Between them she takes the d4 or the d12
// off. Her d8 reads a = 0 (a 1) or 2..8; it beats a lone d4 in
// (0 + 1/4 + 2/4 + 3/4 + 4)/8 = 11/16, a lone d12 in (1 + ... + 7)/96 =
// 7/24. P(the first win) w is counted below by brute force over the
// faces; the best play takes the d12 off (w * 11/16), the worst the d4
// (w * 7/24), as the default and trouble_smallest policies do.
func TestSolveWhichTroubleDieComesOffByHand(t *testing.T) {
	ctx := context.Background()
	wins := 0
	for a := 1; a <= 8; a++ {
		for f4 := 1; f4 <= 4; f4++ {
			for f12 := 1; f12 <= 12; f12++ {
				if reading(a) > reading(f4)+reading(f12) {
					wins++
				}
			}
		}
	}
	w := float64(wins) / (8 * 4 * 12)
	best, worst := w*11/16, w*7/24
	sv, err := troubleChoice().Solve(ctx, markov.Goal{})
	if err != nil {
		t.Fatal(err)
	}
	if err := sv.Check(); err != nil {
		t.Fatal(err)
	}
	if math.Abs(sv.Best.Value-best) > 1e-12 || math.Abs(sv.Worst.Value-worst) > 1e-12 {
		t.Errorf("best %v, worst %v; want %v and %v", sv.Best.Value, sv.Worst.Value, best, worst)
	}
	for _, p := range sv.Policies {
		want := best
		if p.Name == "trouble_smallest" {
			want = worst
		}
		if math.Abs(p.Value-want) > 1e-12 {
			t.Errorf("policy %s: %v; want %v", p.Name, p.Value, want)
		}
	}
	// One line for each count of beats left (an Extraordinary first win
	// costs none), the two worth all that decides between best and worst.
	sum := 0.0
	for _, a := range sv.Advice {
		sum += a.Worth
		if a.Do != "take a d12 off the Trouble Pool" || a.Else != "take a d4 off the Trouble Pool" {
			t.Errorf("advice %+v; want the d12 rather than the d4", a)
		}
	}
	if len(sv.Advice) != 2 || math.Abs(sum-(best-worst)) > 1e-12 {
		t.Errorf("%d lines of advice worth %v in all; want 2 worth %v", len(sv.Advice), sum, best-worst)
	}
	for _, aim := range []markov.Aim{markov.Maximize, markov.Minimize} {
		o, err := troubleChoice().Optimal(ctx, markov.Goal{}, aim)
		if err != nil {
			t.Fatal(err)
		}
		if got, half := sampledWinRate(t, o, 61); math.Abs(got-o.Value) > half {
			t.Errorf("%v: the plan's Policy won %.4f of the trials; exact %.4f +- %.4f", aim, got, o.Value, half)
		}
	}
}

// TestSolveATimedActionWithEveryDecision: in the timed scenario under
// rules.timed_trouble_off, where the GM's 1s grow the Trouble Pool two
// steps roll, the Detective's side (buying time, the dice off, objective
// or getaway) and the GM (its 1s) each decide: best and worst bound
// every shipped policy, each kind of choice is one the plan makes
// somewhere, and the plans' Policies sample inside their exact values.
func TestSolveATimedActionWithEveryDecision(t *testing.T) {
	ctx := context.Background()
	sc := timedTroubleOff()
	for i, c := range []struct {
		side string
		want []string
	}{
		{"Detective", []string{noTimeChoice, "take a d10 off the Trouble Pool", "take a d6 off the Trouble Pool"}},
		{GMSide, []string{"buy 1 of the 1s"}},
	} {
		sv, err := sc.Solve(ctx, markov.Goal{Side: c.side})
		if err != nil {
			t.Fatal(err)
		}
		if err := sv.Check(); err != nil {
			t.Fatalf("%s: %v", c.side, err)
		}
		if sv.Gap <= 0 || len(sv.Advice) == 0 {
			t.Errorf("%s: gap %v, %d lines of advice", c.side, sv.Gap, len(sv.Advice))
		}
		for _, aim := range []markov.Aim{markov.Maximize, markov.Minimize} {
			o, err := sc.Optimal(ctx, markov.Goal{Side: c.side}, aim)
			if err != nil {
				t.Fatal(err)
			}
			if aim == markov.Maximize {
				offered := map[string]bool{}
				ds, err := o.tplan.Decisions(ctx)
				if err != nil {
					t.Fatal(err)
				}
				for _, d := range ds {
					for _, op := range d.Options {
						offered[op.Name] = true
					}
				}
				for _, w := range c.want {
					if !offered[w] {
						t.Errorf("%s: no decision offers %q", c.side, w)
					}
				}
			}
			if got, half := sampledWinRate(t, o, uint64(71+i)); math.Abs(got-o.Value) > half {
				t.Errorf("%s, %v: the plan's Policy met its goal in %.4f of the trials; exact %.4f +- %.4f", c.side, aim, got, o.Value, half)
			}
		}
	}
}

// copDuel is the duel of d4s (Ann opens) with Cop, a d4 of its own,
// free to interfere once; nobody starts with a Plot Point beyond the
// Cop's one (rules.start_plot_points 0), and the GM buys no 1s.
func copDuel() Scenario {
	s := duel()
	s.GMPolicy = "frugal"
	s.Rules.StartPlotPoints = 0
	s.Cast = append(s.Cast, Member{Character: Character{Name: "Cop", PlotPoints: 1, Traits: []Trait{{Name: "Law", Kind: Value, Die: dice.D4}}}})
	s.Interferer, s.InterferePool = "Cop", []string{"Law"}
	return s
}

// TestSolveInterferenceByHand: the Cop plays to stop the duel. Its d4
// beats stakes s (strictly) with q(s) = 3/4, 1/2, 1/4, 0 for s = 0, 2, 3,
// 4, and, nobody able to pay to go on, beating them stops the contest.
// After each escalating roll it may step in (q(s), its one chance) or
// wait for the next raise, which beats s with the next roller's d4: V(4)
// = 0, V(3) = max(1/4, 0), V(2) = max(1/2, V(3)/4 + V(4)/4 = 1/16), V(0)
// = max(3/4, V(2)/4 + V(3)/4 = 3/16): it steps in at once, after Ann's
// opening, for (3/4 + 1/2 + 1/4 + 0)/4 = 3/8. Staying out for good stops
// nothing. At 4 both choices are worth 0: the Cop keeps its Plot Point.
func TestSolveInterferenceByHand(t *testing.T) {
	ctx := context.Background()
	sv, err := copDuel().Solve(ctx, markov.Goal{Side: "Cop"})
	if err != nil {
		t.Fatal(err)
	}
	if err := sv.Check(); err != nil {
		t.Fatal(err)
	}
	if math.Abs(sv.Best.Value-3.0/8) > 1e-12 || sv.Worst.Value != 0 {
		t.Errorf("best %v, worst %v; want 3/8 and 0", sv.Best.Value, sv.Worst.Value)
	}
	o, err := copDuel().Optimal(ctx, markov.Goal{Side: "Cop"}, markov.Maximize)
	if err != nil {
		t.Fatal(err)
	}
	ds, err := o.plan.Decisions(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range ds {
		want := interfereChoice
		if d.State.stakes == 4 {
			want = stayOutChoice
		}
		if d.State.ask != askInterfere || d.Choice != want {
			t.Errorf("at %+v the Cop chose %q; want %q", d.State, d.Choice, want)
		}
	}
}

// TestSolveGoingOnByHand: Ann plays to win the duel; the Cop steps in
// after her opening (its default) and beats her stakes s with q(s) as
// above; Bea (stubborn) pays to go on, and so may Ann, each with the one
// Plot Point given them here. Going on, the brawl rerolls both d4s, a tie
// to Ann, the holder: she wins it in 10 of 16. Stopped, she wins nothing;
// if the Cop fails the duel goes on with Ann holding s: she wins W(s) =
// 27/64, 9/16, 3/4, 1 (TestSolveADuelByHand). So the best play goes on:
// (q W' + (1-q) W(s)) over s, with W' = 10/16, is (147 + 152 + 184 +
// 256)/1024 = 739/1024; letting the contest stop gives 499/1024.
func TestSolveGoingOnByHand(t *testing.T) {
	ctx := context.Background()
	s := copDuel()
	s.Cast[0].PlotPoints, s.Cast[1].PlotPoints = 1, 1
	s.Cast[1].Policy, s.Cast[2].Policy = "stubborn", "default"
	o, err := s.Optimal(ctx, markov.Goal{Side: "Ann"}, markov.Maximize)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(o.Value-739.0/1024) > 1e-12 {
		t.Errorf("best %v; want 739/1024 = %v", o.Value, 739.0/1024)
	}
	ds, err := o.plan.Decisions(ctx)
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, d := range ds {
		if d.State.ask != askGoOn {
			continue
		}
		seen++
		if d.Choice != goOnChoice || len(d.Options) != 2 || math.Abs(d.Options[0].Value-10.0/16) > 1e-12 || d.Options[1].Value != 0 {
			t.Errorf("at %+v Ann chose %q of %+v; want to go on, worth 10/16 against 0", d.State, d.Choice, d.Options)
		}
	}
	if seen == 0 {
		t.Error("Ann never answers an interference")
	}
	s.Cast[0].Policy = "frugal" // never pays to go on; Gives In only where she cannot win
	ex, err := s.Exact(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := ex.P[0] + ex.P[1] + ex.P[2]; math.Abs(got-499.0/1024) > 1e-12 {
		t.Errorf("Ann never going on wins %v; want 499/1024", got)
	}
}
