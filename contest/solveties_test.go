package contest

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim/markov"
)

// pushDuel is a basic action: Bea (a d4 Value, the opposition) sets the
// stakes and Ann (a d12 Value) rolls against them; nobody has anything to
// spend. Beaten by 6 to 9, Bea may push her d4 away (one step) to lose by
// less than 5; beaten by exactly 5 she may not (a stakes holder pushing
// must still lose), nor by 10 or more (two steps, and she has one).
func pushDuel() Scenario {
	s := DefaultScenario()
	s.Kind, s.GMPolicy = KindBasic, "frugal"
	s.Cast = []Member{
		{Character: Character{Name: "Bea", GM: true, Traits: []Trait{{Name: "Grit", Kind: Value, Die: dice.D4}}}},
		{Character: Character{Name: "Ann", Traits: []Trait{{Name: "Grit", Kind: Value, Die: dice.D12}}}, Policy: "stubborn"},
	}
	s.Sides = []SideSpec{{Character: "Bea", Pool: []string{"Grit"}}, {Character: "Ann", Pool: []string{"Grit"}}}
	return s
}

// TestSolvePushesWhenThePushCostsNothingTheGoalCounts: Bea plays for
// Ann's failure, which her Final Push cannot change, so every push is a
// tie between Trauma and a push. A d4 reads 0 (a 1), 2, 3 or 4 and a d12
// 0 or 2..12, each face alike: of the 48 pairs Ann fails (a <= b) in 10;
// she wins by 5 or more in 23 (b = 0: a 5..12, b = 2: 7..12, b = 3:
// 8..12, b = 4: 9..12), by 10 or more in 4 and by exactly 5 in 4. Taking
// the cheaper choice Bea pushes whenever she may, so she is Knocked Out
// (extraordinary) only by 5 or by 10 or more: 8/48; listing Trauma first,
// "first" takes it every time: 23/48. The goal's value is 10/48 either
// way, and the plan's Policy plays the same in Play.
func TestSolvePushesWhenThePushCostsNothingTheGoalCounts(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		ties string
		ko   float64
	}{{"", 8.0 / 48}, {"cheapest", 8.0 / 48}, {"first", 23.0 / 48}} {
		goal := markov.Goal{Side: "Bea", Outcomes: []string{"failure", "knocked_out", "gave_in"}, Ties: c.ties}
		o, err := pushDuel().Optimal(ctx, goal, markov.Maximize)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(o.Value-10.0/48) > 1e-12 || math.Abs(o.Answer.P[1]-c.ko) > 1e-12 {
			t.Errorf("ties %q: value %v, P(extraordinary) %v; want 10/48 and %v", c.ties, o.Value, o.Answer.P[1], c.ko)
		}
		if o.Goal.Ties != c.ties {
			t.Errorf("ties %q: the goal solved reads ties %q", c.ties, o.Goal.Ties)
		}
		if got, half := sampledRate(t, o, 1, 31); math.Abs(got-c.ko) > half {
			t.Errorf("ties %q: the plan's Policy was Knocked Out in %.4f of the trials; exact %.4f +- %.4f", c.ties, got, c.ko, half)
		}
	}
}

// sampledRate plays o's plan in a Runner for 40,000 trials from seed
// and returns how often it ended in category cat and the 99.9% half-width
// of the interval around p the rate should fall in (p being the exact
// probability the caller expects; 1e-9 when it is 0 or 1).
func sampledRate(t *testing.T, o *Optimal, cat int, seed uint64) (got, half float64) {
	t.Helper()
	return sampledShare(t, o, seed, func(c int) bool { return c == cat }, o.Answer.P[cat])
}

// TestSolveTheDetectiveTakesNoNeedlessTrauma: in the built-in contest the
// Detective's best play used to take Trauma (the Villain winning
// extraordinarily) in 14.2% of games, never pushing, where a push changes
// nothing the goal counts; taking the cheaper of equal choices it now
// never does, with the same value to 1e-12, and so its Policy in Play.
// Under ties "first" the old play comes back, Trauma and all. The
// Villain's best play likewise stops taking needless Trauma.
func TestSolveTheDetectiveTakesNoNeedlessTrauma(t *testing.T) {
	ctx := context.Background()
	s := DefaultScenario()
	for _, side := range []struct {
		name string
		ko   int // the category of the side's Trauma
		old  float64
	}{{"Detective", 1, 0.14235842845357627}, {"Villain", 4, 0.11150298044943399}} {
		cheap, err := s.Optimal(ctx, markov.Goal{Side: side.name}, markov.Maximize)
		if err != nil {
			t.Fatal(err)
		}
		first, err := s.Optimal(ctx, markov.Goal{Side: side.name, Ties: "first"}, markov.Maximize)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(cheap.Value-first.Value) > 1e-12 {
			t.Errorf("%s: best %.15f taking the cheaper choice, %.15f the first", side.name, cheap.Value, first.Value)
		}
		if cheap.Answer.P[side.ko] != 0 || math.Abs(first.Answer.P[side.ko]-side.old) > 1e-9 {
			t.Errorf("%s: P(Trauma) %v taking the cheaper choice (want 0), %v the first (want %v)", side.name,
				cheap.Answer.P[side.ko], first.Answer.P[side.ko], side.old)
		}
		if side.name != "Detective" {
			continue
		}
		if got, _ := sampledRate(t, cheap, side.ko, 41); got != 0 {
			t.Errorf("%s: the plan's Policy took Trauma in %.4f of the trials", side.name, got)
		}
		if got, half := sampledRate(t, first, side.ko, 43); math.Abs(got-side.old) > half {
			t.Errorf("%s, ties first: the plan's Policy took Trauma in %.4f of the trials; exact %.4f +- %.4f", side.name, got, side.old, half)
		}
	}
}

// TestSolveGivesInRatherThanLoseForNothing: in a duel of d4s, Bea holding
// 4 after Ann opened, Ann can no longer win (4 is a d4's best and a tie
// holds): Giving In (her Plot Point) and rolling into a certain loss (a
// Complication) are equally good for her goal, and Giving In is the
// cheaper. Without the Plot Point, Giving In costs a d6 Complication, as
// dear as the loss, and is listed first.
func TestSolveGivesInRatherThanLoseForNothing(t *testing.T) {
	ctx := context.Background()
	s := duel()
	o, err := s.Optimal(ctx, markov.Goal{Side: "Ann"}, markov.Maximize)
	if err != nil {
		t.Fatal(err)
	}
	ds, err := o.plan.Decisions(ctx)
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, d := range ds {
		if st := d.State; st.ask == askNone && !st.open && st.turn == 0 && st.stakes == 4 {
			seen++
			if d.Choice != giveInChoice {
				t.Errorf("Ann facing 4 with %d Plot Points chose %q; want to give in", st.pp[0], d.Choice)
			}
		}
	}
	if seen == 0 {
		t.Error("the plan never faces 4")
	}
}

// TestSolveTakesTheCheaperOfEqualAnswers: playing for a goal no answer
// can change, the interferer stays out (interfering costs a Plot Point)
// and a side answering an interference that beat the stakes lets the
// contest stop (going on costs one); under ties "first" each takes the
// first listed: interfere, pay to go on.
func TestSolveTakesTheCheaperOfEqualAnswers(t *testing.T) {
	ctx := context.Background()
	sc := interfered("default", "default")
	all := sc.Categories()
	var noGiveIn []string // every outcome but the Detective Giving In
	for _, c := range all {
		if c != "villain_wins_give_in" {
			noGiveIn = append(noGiveIn, c)
		}
	}
	for _, c := range []struct {
		side     string
		outcomes []string
		ask      int8
		cheap    string
		first    string
	}{
		{"Cop", all, askInterfere, stayOutChoice, interfereChoice},
		{"Detective", noGiveIn, askGoOn, stopChoice, goOnChoice},
	} {
		for ties, want := range map[string]string{"cheapest": c.cheap, "first": c.first} {
			o, err := sc.Optimal(ctx, markov.Goal{Side: c.side, Outcomes: c.outcomes, Ties: ties}, markov.Maximize)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(o.Value-1) > 1e-12 {
				t.Fatalf("%s, ties %s: value %v; want 1", c.side, ties, o.Value)
			}
			ds, err := o.plan.Decisions(ctx)
			if err != nil {
				t.Fatal(err)
			}
			seen := 0
			for _, d := range ds {
				if d.State.ask == c.ask {
					seen++
					if d.Choice != want {
						t.Errorf("%s, ties %s: chose %q at %+v; want %q", c.side, ties, d.Choice, d.State, want)
					}
				}
			}
			if seen == 0 {
				t.Errorf("%s, ties %s: the plan never answers", c.side, ties)
			}
		}
	}
}

// TestSolveRefusesAnUnknownTieBreak: Goal.Ties names one of
// markov.TiesNames.
func TestSolveRefusesAnUnknownTieBreak(t *testing.T) {
	_, err := duel().Solve(context.Background(), markov.Goal{Ties: "dearest"})
	if err == nil || !strings.Contains(err.Error(), `goal ties "dearest": allowed "cheapest", "first"`) {
		t.Errorf("ties dearest: %v", err)
	}
}

// TestSolveTheOppositionPlaysForItsOwnWins: in a basic action the goal a
// side's wins by default: the actor's success (and extraordinary), the
// opposition's the actor's failure, Knocked Out or Giving In.
func TestSolveTheOppositionPlaysForItsOwnWins(t *testing.T) {
	for side, want := range map[string][]string{"Ann": {"success", "extraordinary"}, "Bea": {"failure", "knocked_out", "gave_in"}} {
		o, err := pushDuel().Optimal(context.Background(), markov.Goal{Side: side}, markov.Maximize)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(o.Goal.Outcomes, want) {
			t.Errorf("%s plays for %v; want %v", side, o.Goal.Outcomes, want)
		}
	}
}
