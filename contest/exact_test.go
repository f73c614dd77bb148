package contest

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/dice/gof"
	"github.com/stakesrpg/stakes/sim/markov"
)

// basicScenario: the detective against the Trouble Pool or a GM character.
func basicScenario(opp string) Scenario {
	sc := DefaultScenario()
	sc.Kind = KindBasic
	sc.Sides[0], sc.Sides[1] = sc.Sides[1], sc.Sides[0]
	sc.Sides[0], sc.Sides[1] = sc.Sides[1], sc.Sides[0]
	if opp == "trouble" {
		sc.Sides[0] = SideSpec{Character: "trouble"}
		sc.Trouble = []dice.Die{dice.D6, dice.D6, dice.D8}
	}
	return sc
}

func timedScenario() Scenario {
	sc := DefaultScenario()
	sc.Kind = KindTimed
	sc.Sides = nil
	sc.Cast = append(sc.Cast, Member{Character: Character{Name: "Oracle", Traits: []Trait{
		{Name: "Truth", Kind: Value, Die: dice.D8}, {Name: "Network", Kind: Relationship, Die: dice.D10}}}})
	d := []dice.Die{dice.D8, dice.D8}
	sc.Timed = &TimedSpec{Actor: "Detective", Pool: []string{"Justice", "Gotham", "World's Greatest"}, Beats: 4,
		Steps:   []TimedStep{{Stakes: d}, {Stakes: []dice.Die{dice.D10, dice.D8, dice.D6}}, {}, {Stakes: d}},
		Helpers: []HelperSpec{{Character: "Oracle", Pool: []string{"Truth", "Network"}}}}
	return sc
}

// aided: Robin aids the detective (both sides may Give In: default policies).
func aided(kind string, init int) Scenario {
	sc := DefaultScenario()
	sc.Kind, sc.Initiator = kind, init
	sc.Cast[1].Policy = "default"
	sc.Cast = append(sc.Cast, Member{Character: Character{Name: "Robin", Traits: []Trait{
		{Name: "Duty", Kind: Value, Die: dice.D6}, {Name: "Detective", Kind: Relationship, Die: dice.D8}}}})
	sc.Sides[1].Aider, sc.Sides[1].AidPool = "Robin", []string{"Duty", "Detective"}
	if init < 0 {
		sc.Sides[0].Aider, sc.Sides[0].AidPool = "Robin", []string{"Duty"}
		sc.Sides[0].Gang = nil
		sc.GMPolicy = "frugal"
	}
	return sc
}

// interfered: a cop with Plot Points to spare steps into the default contest.
func interfered(det, vil string) Scenario {
	sc := DefaultScenario()
	sc.Cast[0].Policy, sc.Cast[1].Policy = det, vil
	sc.Cast[0].PlotPoints, sc.Cast[1].PlotPoints = 1, 2 // the detective has rules.start_plot_points (1) on top
	sc.Cast = append(sc.Cast, Member{Character: Character{Name: "Cop", PlotPoints: 1, Traits: []Trait{
		{Name: "Law", Kind: Value, Die: dice.D8}, {Name: "Badge", Kind: Resource, Die: dice.D8}}}})
	sc.Interferer, sc.InterferePool = "Cop", []string{"Law", "Badge"}
	return sc
}

// timedTroubleOff: the timed scenario under rules.timed_trouble_off, with
// a Trouble Pool of a d10 and a d6, a second step against it and two dice
// off for an Extraordinary win; the GM buys the 1s.
func timedTroubleOff() Scenario {
	sc := timedScenario()
	sc.Trouble = []dice.Die{dice.D10, dice.D6}
	sc.Rules.TimedTroubleOff, sc.Rules.TroubleOffOnExtraordinary = true, 2
	sc.Timed.Steps = append(sc.Timed.Steps, TimedStep{})
	sc.Timed.Beats = 5
	return sc
}

// troubleContest: the Trouble Pool contests the detective
// (rules.trouble_in_contests); the GM buys no 1s, which would grow it.
func troubleContest() Scenario {
	sc := frugalGM(DefaultScenario())
	sc.Rules.TroubleInContests = true
	sc.Sides[0] = SideSpec{Character: "trouble"}
	return sc
}

// houseRules: the default contest with every ruling the chain reads
// changed (ties beat the stakes, the smallest gang die goes, a tied
// all-roll opening goes to the first side, the brawl tie to the
// challenger) and an interferer, opening all at once; and the rulings the
// chain holds cannot change a two-sided contest's outcome changed too
// (the raise answered by the beaten side, a Give In's point to the GM,
// the brawl's Trauma).
func houseRules() Scenario {
	sc := interfered("stubborn", "stubborn")
	sc.Initiator = -1
	sc.Sides[0].Gang = []dice.Die{dice.D4, dice.D10}
	sc.Rules.TiesToHolder = false
	sc.Rules.MookOffLargest = false
	sc.Rules.AllRollTieReroll = false
	sc.Rules.BrawlTieToHolder = false
	sc.Rules.RaiseAnsweredByBeaten = true
	sc.Rules.GiveInPointToHolder = false
	sc.Rules.BrawlTrauma = true
	return sc
}

func frugalGM(sc Scenario) Scenario {
	sc.GMPolicy = "frugal"
	return sc
}

func threeWay() Scenario {
	sc := DefaultScenario()
	sc.Initiator = -1
	sc.Cast[0].Policy = "cautious"
	sc.Cast[1].Policy = "default"
	sc.GMPolicy = "frugal"
	return sc
}

// Sampled categories and rounds match the exact chain (chi-square, fixed
// seeds) for every kind of scenario the chain covers.
func TestExactMatchesSampling(t *testing.T) {
	n := 40000
	if testing.Short() {
		n = 10000
	}
	for name, sc := range map[string]Scenario{
		"default":                       DefaultScenario(),
		"all roll":                      threeWay(),
		"basic trouble":                 basicScenario("trouble"),
		"basic villain":                 basicScenario("villain"),
		"timed":                         frugalGM(timedScenario()),
		"timed, 1s bought":              timedScenario(),
		"timed, 1s bought, trouble off": timedTroubleOff(),
		"timed, helpers against a pool the wins empty": func() Scenario {
			sc := timedTroubleOff()
			sc.Rules.HelpersRollTrouble, sc.Rules.TroubleOffOnWin = true, 2
			return sc
		}(),
		"timed, helpers against a growing Trouble Pool": func() Scenario {
			sc := timedScenario()
			sc.Rules.HelpersRollTrouble = true
			sc.Timed.Steps[2].Stakes = []dice.Die{dice.D6}
			return sc
		}(),
		"aided":           aided(KindContested, 0),
		"aided all roll":  aided(KindContested, -1),
		"aided basic":     aided(KindBasic, 0),
		"interfered":      interfered("default", "default"),
		"brawls":          interfered("stubborn", "stubborn"),
		"trouble contest": troubleContest(),
		"house rules":     houseRules(),
		"timed house rules": func() Scenario {
			sc := frugalGM(timedScenario())
			sc.Rules.FailedLastStepCompletes, sc.Rules.TiesToHolder = false, false
			sc.Rules.BuyTimeCapped, sc.Rules.HelpersRollTrouble = false, true
			sc.Rules.OutOfTimeComplication = dice.D8
			return sc
		}(),
		"all roll, giving in right away free": func() Scenario {
			sc := aided(KindContested, -1)
			sc.Rules.AllRollGiveInFree = true
			return sc
		}(),
		"basic villain, a push may tie": func() Scenario {
			sc := basicScenario("villain")
			sc.Rules.PushTieLoses = true
			return sc
		}(),
		"no interference": func() Scenario {
			sc := interfered("stubborn", "stubborn")
			sc.Rules.Interferences = 0
			return sc
		}(),
	} {
		t.Run(name, func(t *testing.T) {
			ex, err := sc.Exact(context.Background())
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			sum := 0.0
			for _, p := range ex.P {
				sum += p
			}
			if math.Abs(sum-1) > 1e-9 {
				t.Errorf("%s: exact probabilities sum to %v", name, sum)
			}
			rn, err := sc.NewRunner()
			if err != nil {
				t.Fatal(err)
			}
			r := dice.NewSeeded(42)
			m := make([]int, 8)
			cats, rounds := map[int]int64{}, map[int]int64{}
			total := 0
			for i := 0; i < n; i++ {
				c := trial(t, rn, r, m)
				if c < 0 {
					t.Fatalf("%s: trial rejected", name)
				}
				cats[c]++
				rounds[m[0]]++
				total += m[0]
			}
			fit, err := gof.ChiSquare(dice.Dist{Min: 0, P: ex.P}, cats)
			if err != nil || fit.PValue < 1e-4 {
				t.Errorf("%s: categories %v vs exact %v: p = %v (%v)", name, cats, ex.P, fit.PValue, err)
			}
			fit, err = gof.ChiSquare(dice.Dist{Min: 0, P: ex.Rounds}, rounds)
			if err != nil || fit.PValue < 1e-4 {
				t.Errorf("%s: rounds %v vs exact %v: p = %v (%v)", name, rounds, ex.Rounds, fit.PValue, err)
			}
			mean := float64(total) / float64(n)
			if math.Abs(mean-ex.MeanRounds) > 0.05*ex.MeanRounds {
				t.Errorf("%s: mean rounds %v vs exact %v", name, mean, ex.MeanRounds)
			}
			t.Logf("%s: %v %v mean %.3f", name, sc.Categories(), ex.P, ex.MeanRounds)
			// The test can fail: a distribution off by a few points is rejected.
			wrong := append([]float64(nil), ex.P...)
			hi := 0
			for i := range wrong {
				if wrong[i] > wrong[hi] {
					hi = i
				}
			}
			lo := (hi + 1) % len(wrong)
			wrong[hi] -= 0.03
			wrong[lo] += 0.03
			if fit, _ := gof.ChiSquare(dice.Dist{Min: 0, P: wrong}, cats); fit.PValue > 1e-4 {
				t.Errorf("%s: a distribution 3 points off passed (p = %v)", name, fit.PValue)
			}
		})
	}
}

// The exact model refuses what it does not cover. (A timed pool that costs
// Plot Points a roll is refused by Validate itself: the actor would run
// out part way.)
func TestExactRefuses(t *testing.T) {
	aid := DefaultScenario()
	aid.Cast = append(aid.Cast, Member{Character: Character{Name: "Robin", Traits: []Trait{{Name: "Duty", Kind: Value, Die: dice.D6}}}})
	aid.Sides[1].Aider, aid.Sides[1].AidPool = "Robin", []string{"Duty", "Duty"}
	inter := DefaultScenario()
	inter.Cast = aid.Cast
	inter.Interferer, inter.InterferePool = "Robin", []string{"Duty", "Duty"}
	three := DefaultScenario()
	three.Cast = aid.Cast
	three.Sides = append(three.Sides, SideSpec{Character: "Robin", Pool: []string{"Duty"}})
	keep3 := DefaultScenario()
	keep3.Rules.Keep = 3
	timedKeep3 := timedScenario() // the GM buys 1s, growing the Trouble Pool a step rolls
	timedKeep3.Rules.Keep = 3
	for name, sc := range map[string]Scenario{"timed with 1s bought, keep 3": timedKeep3, "paid aid": aid, "paid interference": inter, "three sides": three, "keep 3": keep3,
		"trouble contest with 1s bought": func() Scenario { sc := troubleContest(); sc.GMPolicy = ""; return sc }()} {
		if err := sc.Validate(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if _, err := sc.Exact(context.Background()); !errors.Is(err, markov.ErrNoExact) {
			t.Errorf("%s: %v, want markov.ErrNoExact", name, err)
		}
	}
	// A ruling the chain does not follow is refused by name; with the
	// default ruling the same scenario is solved.
	for _, c := range []struct {
		setting string
		sc      Scenario
		set     func(*Rules)
	}{
		{"rules.aid_lasts", aided(KindContested, 0), func(r *Rules) { r.AidLasts = true }},
		{"rules.interferences", interfered("default", "default"), func(r *Rules) { r.Interferences = 2 }},
		{"rules.ones_of_every_roll", aided(KindContested, 0), func(r *Rules) { r.OnesOfEveryRoll = true }},
	} {
		if _, err := c.sc.Exact(context.Background()); err != nil {
			t.Errorf("%s at its default: %v", c.setting, err)
		}
		c.set(&c.sc.Rules)
		_, err := c.sc.Exact(context.Background())
		if !errors.Is(err, markov.ErrNoExact) || !strings.Contains(err.Error(), c.setting) {
			t.Errorf("%s changed: %v, want markov.ErrNoExact naming it", c.setting, err)
		}
	}
}

// Exact pool totals against brute-force enumeration, and P(success) of a
// basic action against a direct double sum.
func TestTotalDistBruteForce(t *testing.T) {
	rules := DefaultRules()
	pools := [][]dice.Die{
		{dice.D8}, {dice.D4, dice.D12}, {dice.D8, dice.D6, dice.D10}, {dice.D6, dice.D6, dice.D6, dice.D4},
		{dice.D12, dice.D10, dice.D8, dice.D6, dice.D4},
	}
	for _, ds := range pools {
		got, err := TotalDist(ds, rules)
		if err != nil {
			t.Fatal(err)
		}
		want := map[int]float64{}
		faces := make([]int, len(ds))
		var walk func(i int, p float64)
		walk = func(i int, p float64) {
			if i == len(ds) {
				want[rules.total(faces)] += p
				return
			}
			for f := 1; f <= int(ds[i]); f++ {
				faces[i] = f
				walk(i+1, p/float64(ds[i]))
			}
		}
		walk(0, 1)
		for v, p := range want {
			if math.Abs(got.Prob(v)-p) > 1e-12 {
				t.Errorf("%v: P(%d) = %v, want %v", ds, v, got.Prob(v), p)
			}
		}
		jt := jointTotalOnes(ds, rules)
		for v, row := range jt {
			s := 0.0
			for _, q := range row {
				s += q
			}
			if math.Abs(s-want[v]) > 1e-12 {
				t.Errorf("%v: joint marginal at %d = %v, want %v", ds, v, s, want[v])
			}
		}
	}
	// A d6 against a d6: P(win) = P(a > b) with 1s read as 0: 15/36.
	p, err := PBeat([]dice.Die{dice.D6}, []dice.Die{dice.D6}, 0, rules)
	if err != nil || math.Abs(p-15.0/36) > 1e-12 {
		t.Errorf("PBeat d6 v d6 = %v (%v), want 15/36", p, err)
	}
	// Aid of +3 against a d4: the actor's d4 + 3 > d4.
	p, _ = PBeat([]dice.Die{dice.D4}, []dice.Die{dice.D4}, 3, rules)
	want := 0.0
	for a := 1; a <= 4; a++ {
		for b := 1; b <= 4; b++ {
			va, vb := a, b
			if va == 1 {
				va = 0
			}
			if vb == 1 {
				vb = 0
			}
			if va+3 > vb {
				want += 1.0 / 16
			}
		}
	}
	if math.Abs(p-want) > 1e-12 {
		t.Errorf("PBeat with aid = %v, want %v", p, want)
	}
	if p, err := PBeatValue([]dice.Die{dice.D6}, 4, 0, rules); err != nil || math.Abs(p-2.0/6) > 1e-12 {
		t.Errorf("PBeatValue d6 over 4 = %v (%v), want 1/3", p, err)
	}
	if p, _ := PBeatValue([]dice.Die{dice.D6, dice.D6}, 11, 1, rules); math.Abs(p-3.0/36) > 1e-12 {
		t.Errorf("PBeatValue 2d6+1 over 11 = %v, want 3/36", p)
	}
	if _, err := PBeatValue([]dice.Die{dice.D20}, 4, 0, rules); err == nil {
		t.Error("PBeatValue with a d20 accepted")
	}
	if _, err := TotalDist([]dice.Die{dice.D20}, rules); err == nil {
		t.Error("a d20 pool accepted")
	}
}
