package challenge

import (
	"math"
	"testing"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/dice/gof"
)

// bruteExchange enumerates every face of both rolls and classifies them
// with dice.CompareBonus, independently of the key-based solver.
func bruteExchange(r Rules, ch, an []dice.Die, chAdv, anAdv bool) Odds {
	all := append(append([]dice.Die{}, ch...), an...)
	if chAdv {
		all = append(all, r.AdvantageDie)
	}
	if anAdv {
		all = append(all, r.AdvantageDie)
	}
	faces := make([]int, len(all))
	for i := range faces {
		faces[i] = 1
	}
	var o Odds
	n := 0.0
	for {
		cf, af := faces[:len(ch)], faces[len(ch):len(ch)+len(an)]
		cb, ab, k := 0, 0, len(ch)+len(an)
		if chAdv {
			cb = faces[k]
			k++
		}
		if anAdv {
			ab = faces[k]
		}
		cr, ar := dice.Highest(cf)+cb, dice.Highest(af)+ab
		switch c := dice.CompareBonus(af, ab, cf, cb); {
		case c > 0:
			o.Block++
		case c == 0:
			o.Tie++
		case r.DoubleFactor*ar <= cr:
			o.Double++
		default:
			o.Over++
		}
		n++
		i := 0
		for i < len(all) {
			faces[i]++
			if faces[i] <= int(all[i]) {
				break
			}
			faces[i] = 1
			i++
		}
		if i == len(all) {
			break
		}
	}
	return Odds{o.Block / n, o.Tie / n, o.Double / n, o.Over / n}
}

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

func TestExchangeOddsMatchBruteForce(t *testing.T) {
	r := DefaultRules()
	cases := []struct {
		ch, an       []dice.Die
		chAdv, anAdv bool
	}{
		{[]dice.Die{dice.D10, dice.D8}, []dice.Die{dice.D12, dice.D6}, false, false},
		{[]dice.Die{dice.D10, dice.D8}, []dice.Die{dice.D12, dice.D6}, true, false},
		{[]dice.Die{dice.D4}, []dice.Die{dice.D12, dice.D12}, false, true},
		{[]dice.Die{dice.D6, dice.D6, dice.D4}, []dice.Die{dice.D8, dice.D6}, true, true},
		{[]dice.Die{dice.D12, dice.D10, dice.D8}, []dice.Die{dice.D6, dice.D4, dice.D4}, false, false},
	}
	for _, tc := range cases {
		got, err := ExchangeOdds(r, tc.ch, tc.an, tc.chAdv, tc.anAdv)
		if err != nil {
			t.Fatal(err)
		}
		want := bruteExchange(r, tc.ch, tc.an, tc.chAdv, tc.anAdv)
		if !near(got.Block, want.Block, 1e-12) || !near(got.Tie, want.Tie, 1e-12) ||
			!near(got.Double, want.Double, 1e-12) || !near(got.Over, want.Over, 1e-12) {
			t.Errorf("%v%v vs %v%v: got %+v want %+v", tc.ch, tc.chAdv, tc.an, tc.anAdv, got, want)
		}
		if s := got.Block + got.Tie + got.Double + got.Over; !near(s, 1, 1e-12) {
			t.Errorf("odds sum to %v", s)
		}
	}
}

func TestAnswerOdds(t *testing.T) {
	r := DefaultRules()
	// Standing 8 3 (Althesa's first cast) against Irin's d12 d6: he
	// blocks with 9..12 (4/12), or with an 8 and a 4..6 above her 3 (1/12
	// x 3/6); ties with 8 and 3 (1/72); is doubled when both dice show
	// 1..4 (4/12 x 4/6).
	got, err := AnswerOdds(r, []int{8, 3}, 0, []dice.Die{dice.D12, dice.D6}, false)
	if err != nil {
		t.Fatal(err)
	}
	want := Odds{Block: 4.0/12 + 3.0/72, Tie: 1.0 / 72, Double: 16.0 / 72}
	want.Over = 1 - want.Block - want.Tie - want.Double
	if !near(got.Block, want.Block, 1e-12) || !near(got.Tie, want.Tie, 1e-12) || !near(got.Double, want.Double, 1e-12) {
		t.Errorf("got %+v want %+v", got, want)
	}
	if _, err := AnswerOdds(r, nil, 0, []dice.Die{dice.D6}, false); err == nil {
		t.Error("empty standing roll accepted")
	}
}

func TestCastOdds(t *testing.T) {
	a, b, tie, err := CastOdds(DefaultRules(), []dice.Die{dice.D6}, []dice.Die{dice.D6}, false, false)
	if err != nil {
		t.Fatal(err)
	}
	if !near(a, 15.0/36, 1e-12) || !near(b, 15.0/36, 1e-12) || !near(tie, 6.0/36, 1e-12) {
		t.Errorf("d6 vs d6: %v %v %v", a, b, tie)
	}
}

// TestDuelByHand: d2 against d2, always giving. A round: a true tie
// recasts; the high roll (2) challenges; the answer ties (1/2, new round)
// or is doubled (1/2). So each side wins outright with 1/2, and rounds
// and exchanges are geometric with mean 2.
func TestDuelByHand(t *testing.T) {
	r := DefaultRules()
	d, err := Duel(r, []dice.Die{dice.D2}, []dice.Die{dice.D2}, false, false)
	if err != nil {
		t.Fatal(err)
	}
	if !near(d.P[AOutright], 0.5, 1e-12) || !near(d.P[BOutright], 0.5, 1e-12) || d.P[AGiven] != 0 {
		t.Errorf("P %v", d.P)
	}
	if !near(d.MeanRounds, 2, 1e-9) || !near(d.MeanExchanges, 2, 1e-9) {
		t.Errorf("means %v %v", d.MeanRounds, d.MeanExchanges)
	}
	if !near(d.Rounds[1], 0.5, 1e-12) || !near(d.Rounds[3], 0.125, 1e-12) {
		t.Errorf("rounds %v", d.Rounds[:4])
	}
}

// TestDuelMatchesEngine plays the engine many times and checks the
// endings (chi-square), rounds (chi-square) and mean exchanges against
// Duel, for both stances.
func TestDuelMatchesEngine(t *testing.T) {
	trials := 200000
	if testing.Short() {
		trials = 40000
	}
	for _, tc := range []struct {
		name         string
		hangA, hangB bool
	}{{"hang in", true, true}, {"irin gives", true, false}} {
		t.Run(tc.name, func(t *testing.T) {
			rules := DefaultRules()
			a, b := althesa(), irin()
			ex, err := Duel(rules, []dice.Die{dice.D10, dice.D8}, []dice.Die{dice.D12, dice.D6}, tc.hangA, tc.hangB)
			if err != nil {
				t.Fatal(err)
			}
			stance := func(h bool) StancePolicy {
				if h {
					return HangIn{}
				}
				return Give{}
			}
			plays := []Policy{&Style{Stance: stance(tc.hangA)}, &Style{Stance: stance(tc.hangB)}}
			start := duel(t, a, b, "warrior_priestessing", Defending)
			rng := dice.NewSeeded(42)
			ends := map[int]int64{}
			rounds := map[int]int64{}
			var exch float64
			for range trials {
				c := *start
				c.Sides = append([]Side(nil), start.Sides...)
				for i := range c.Sides {
					c.Sides[i].Members = append([]Member(nil), start.Sides[i].Members...)
					c.Sides[i].Faces = make([]int, 0, 2)
				}
				if err := (Engine{Policies: plays}).Play(&c, rng); err != nil {
					t.Fatal(err)
				}
				e := 2 * c.Winner
				if c.Consequences[0].Status == StatusGave {
					e++
				}
				ends[e]++
				rounds[c.Round]++
				exch += float64(c.Exchanges)
			}
			fit, err := gof.ChiSquare(dice.Dist{Min: 0, P: ex.P[:]}, ends)
			if err != nil || fit.PValue < 1e-4 {
				t.Errorf("endings %v vs %v: p=%v err %v", ends, ex.P, fit.PValue, err)
			}
			rd := dice.Dist{Min: 1, P: ex.Rounds[1:]}
			fit, err = gof.ChiSquare(rd, rounds)
			if err != nil || fit.PValue < 1e-4 {
				t.Errorf("rounds: p=%v err %v", fit.PValue, err)
			}
			mean := exch / float64(trials)
			if !near(mean, ex.MeanExchanges, 0.02*ex.MeanExchanges) {
				t.Errorf("mean exchanges %v, exact %v", mean, ex.MeanExchanges)
			}
			// The test can fail: a skewed distribution is rejected.
			skew := ex.P
			skew[0], skew[2] = skew[0]+0.02, skew[2]-0.02
			if fit, _ := gof.ChiSquare(dice.Dist{Min: 0, P: skew[:]}, ends); fit.PValue > 1e-4 {
				t.Errorf("a 2-point skew was not rejected: p=%v", fit.PValue)
			}
		})
	}
}
