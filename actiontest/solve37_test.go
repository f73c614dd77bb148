package actiontest

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stakesrpg/stakes/sim/markov"
)

// randomScenario is a small pursuit drawn from rng: the built-in one with
// its test, clock, deals, flashback, policy, Director, spending, starting
// harm and rulings drawn, an opposed one now and then.
func randomScenario(rng *rand.Rand) Scenario {
	s := DefaultScenario()
	pick := func(names []string) string { return names[rng.IntN(len(names))] }
	s.Position = Position(pick(s.Rules.Positions))
	s.Difficulty, s.Goal = 1+rng.IntN(2), 1+rng.IntN(4)
	s.Escalate, s.ResetPosition = rng.IntN(2) == 0, rng.IntN(2) == 0
	s.PerilOffered, s.PerilHarm = rng.IntN(2) == 0, []int{0, 2, 3}[rng.IntN(3)]
	s.Flashback, s.FlashbackDifficulty = rng.IntN(2) == 0, rng.IntN(3)
	s.FlashbackPosition = Position(pick(append([]string{""}, s.Rules.Positions...)))
	s.Policy, s.Director, s.Spend = pick(PolicyNames()), pick(Directors()), pick(SpendOrders())
	s.Pool, s.Helpers, s.Equipment = rng.IntN(5), rng.IntN(2), rng.IntN(2)
	s.Rules.RetryMayPush, s.Rules.PushHarmShrinks = rng.IntN(2) == 0, rng.IntN(2) == 0
	s.Rules.PushSpace = []SpaceRule{SpaceTrack, SpaceBottomRow}[rng.IntN(2)]
	if rng.IntN(4) == 0 {
		s.Opponent, s.OpponentPC = 1+rng.IntN(3), rng.IntN(2) == 0
	}
	if rng.IntN(2) == 0 {
		s.State = &State{Harm: []TrackHarm{
			{Track: "physical", Rows: []int{rng.IntN(3), rng.IntN(2), 0}},
			{Track: "mental", Rows: []int{rng.IntN(3), 0, 0}}}}
	}
	return s
}

// Best play is at least the scenario's own play, which is at least the
// worst, in 40 scenarios drawn with a fixed seed (Solved.Check), and the
// best and the worst play's answers carry their distribution of tests:
// it sums to 1 with its Tail, and its mean is MeanRounds.
func TestSolveBestOwnWorstInRandomScenarios(t *testing.T) {
	n := 40
	if testing.Short() {
		n = 12
	}
	rng := rand.New(rand.NewPCG(37, 1))
	goals := []markov.Goal{reach, {Outcomes: []string{"clean"}}, {Outcomes: []string{"lost", "out"}}}
	solved := 0
	for i := range n {
		s := randomScenario(rng)
		goal := goals[rng.IntN(len(goals))]
		sv, err := s.Solve(context.Background(), goal)
		if errors.Is(err, markov.ErrNoExact) {
			t.Logf("scenario %d: %v", i, err)
			continue
		}
		if err != nil {
			t.Fatalf("scenario %d (%+v): %v", i, s, err)
		}
		solved++
		if err := sv.Check(); err != nil {
			t.Errorf("scenario %d: %v", i, err)
		}
		if !(sv.Best.Value >= sv.Own.Value-1e-12 && sv.Own.Value >= sv.Worst.Value-1e-12) || sv.Own.Name != s.Policy {
			t.Errorf("scenario %d: best %v, own %s %v, worst %v", i, sv.Best.Value, sv.Own.Name, sv.Own.Value, sv.Worst.Value)
		}
		for _, v := range []markov.PolicyValue{sv.Best, sv.Worst} {
			sum, mean := v.Answer.Tail, 0.0
			for k, q := range v.Answer.Rounds {
				sum += q
				mean += float64(k) * q
			}
			if math.Abs(sum-1) > 1e-12 || math.Abs(mean-v.Answer.MeanRounds) > 1e-9 || v.Answer.Tail > markov.RoundsTolerance {
				t.Errorf("scenario %d, %s: tests %v (tail %v) sum to %v, average %v; mean %v",
					i, v.Name, v.Answer.Rounds, v.Answer.Tail, sum, mean, v.Answer.MeanRounds)
			}
		}
	}
	if solved < n*3/4 {
		t.Errorf("only %d of %d scenarios solved", solved, n)
	}
}

// One line of advice by hand. In a single Risky test of four dice with no
// deal and no flashback (oneTest), the one decision that matters is after
// a roll of no success, which comes (5/6)^4 of the time: pushing re-rolls
// six dice and reaches the clock with chance 1 - (5/6)^6, keeping never
// does. Everywhere else the choices tie (a success kept or pushed reaches
// the clock; either track takes the push's harm alike), so the advice is
// that one line, worth (5/6)^4 (1 - (5/6)^6) a game.
func TestAdviceWorthByHand(t *testing.T) {
	sv, err := oneTest().Solve(context.Background(), reach)
	if err != nil {
		t.Fatal(err)
	}
	if len(sv.Advice) != 1 {
		t.Fatalf("advice %+v; want one line", sv.Advice)
	}
	a := sv.Advice[0]
	reachIt := math.Pow(5.0/6, 4)
	want := reachIt * (1 - math.Pow(5.0/6, 6))
	if a.When != "a risky roll 1 success short, unhurt" || a.Do != choicePush || a.Else != choiceKeep || a.States != 1 ||
		math.Abs(a.Worth-want) > 1e-12 || math.Abs(a.Reach-reachIt) > 1e-12 {
		t.Errorf("advice %+v; want push rather than keep after a failed roll, worth %.15f, reached %.15f", a, want, reachIt)
	}
}

// healOrFill is a pursuit of two segments by a character whose one harm
// slot is full: one harm track, one row of one slot costing a die, so
// that no push has room; a gentle Director, no deal, no flashback, no
// Worse Position. Pool 3 less the harm's die: 2 dice a roll.
func healOrFill() Scenario {
	s := DefaultScenario()
	rl := &s.Rules
	for i := range rl.Attributes {
		rl.Attributes[i].Harm = "physical"
	}
	rl.HarmTracks, rl.HarmRows = []string{"physical"}, []HarmRow{{Name: "lesser", Slots: 1, Penalty: 1}}
	rl.MinPerilHarm = 1
	for i := range rl.Table {
		for b := BandMultiple; b <= BandFailure; b++ {
			for j, q := range rl.Table[i].Cell(b).Consequences {
				if q.Kind == Harm {
					rl.Table[i].Cell(b).Consequences[j].Level = 1
				}
			}
		}
	}
	s.Director, s.Pool, s.Goal, s.Spend = "gentle", 3, 2, "none"
	s.Escalate, s.PerilOffered, s.PerilHarm, s.Flashback = false, false, 0, false
	s.State = &State{Harm: []TrackHarm{{Track: "physical", Rows: []int{1}}}}
	return s
}

// Spending extra successes on a heal is a choice, by hand. Both dice of
// the first roll come up six (1/36): the extra success either fills the
// clock (two segments: the goal, reached) or heals the harm, leaving one
// segment to go with three dice a roll and room to push, which reaches
// it with chance 1 - (5/6)^3 (5/6)^5 (a failed roll pushed re-rolls all
// three with two more). The best play fills the clock; the worst heals,
// and its Policy does so in a game (then keeps a failed
// roll rather than push it).
func TestHealingWithExtraSuccessesIsAChoice(t *testing.T) {
	s := healOrFill()
	best, err := s.Optimal(context.Background(), reach, markov.Maximize)
	if err != nil {
		t.Fatal(err)
	}
	worst, err := s.Optimal(context.Background(), reach, markov.Minimize)
	if err != nil {
		t.Fatal(err)
	}
	rn := best.m.rn
	rn.reset()
	k := situationOf(rn.c.State, &rn.Pursuit)
	k.fly, k.hits, k.outcome = 3, 1, outSucceeded
	opts := best.plan.Options(k)
	heal := 1 - math.Pow(5.0/6, 8)
	if len(opts) != 2 || opts[0].Name != choiceBuyNothing || opts[1].Name != "buy heal_harm" ||
		opts[0].Value != 1 || math.Abs(opts[1].Value-heal) > 1e-12 {
		t.Fatalf("after two sixes: %+v; want filling the clock (1) or a heal (%.15f)", opts, heal)
	}
	if _, c, _ := best.plan.Choice(k); c != choiceBuyNothing {
		t.Errorf("best play %q", c)
	}
	if _, c, _ := worst.plan.Choice(k); c != "buy heal_harm" {
		t.Errorf("worst play %q", c)
	}
	// The first roll: 2 dice, one success 10/36 (one segment, then one
	// more roll of 2 dice: 11/36), two 1/36 (the clock filled).
	if want := 10.0/36*11/36 + 1.0/36; math.Abs(best.Value-want) > 1e-12 {
		t.Errorf("best %.15f, by hand %.15f", best.Value, want)
	}
	st := playPlan(t, s, worst.Policy, 6, 6, 1, 1, 1)
	if st.Harm[0].Rows[0] != 0 || st.Attempt.Pushed || st.Attempt.Outcome.Succeeded {
		t.Errorf("the worst play's game: harm %v, last roll %+v; want the harm healed, then a failure kept", st.Harm, st.Attempt)
	}
}

// An opposed pursuit is solved too, by hand: four dice against an NPC's
// two, one segment; a tie against an NPC gets what the character wants
// (with a complication), a loss loses the chance. After seeing both rolls
// the best play pushes exactly when behind (a push keeps the sixes and
// re-rolls the rest with two more), and the worst never pushes.
func TestOpposedPursuitSolvedByHand(t *testing.T) {
	s := oneTest()
	s.Opponent = 2
	best, err := s.Optimal(context.Background(), reach, markov.Maximize)
	if err != nil {
		t.Fatal(err)
	}
	worst, err := s.Optimal(context.Background(), reach, markov.Minimize)
	if err != nil {
		t.Fatal(err)
	}
	b := func(n, k int) float64 {
		c := 1.0
		for i := range k {
			c = c * float64(n-i) / float64(i+1)
		}
		return c * math.Pow(1.0/6, float64(k)) * math.Pow(5.0/6, float64(n-k))
	}
	wantBest, wantWorst := 0.0, 0.0
	for h := 0; h <= 4; h++ {
		for o := 0; o <= 2; o++ {
			p := b(4, h) * b(2, o)
			if h >= o {
				wantBest += p
				wantWorst += p
				continue
			}
			for more := o - h; more <= 6-h; more++ {
				wantBest += p * b(6-h, more)
			}
		}
	}
	if math.Abs(best.Value-wantBest) > 1e-12 || math.Abs(worst.Value-wantWorst) > 1e-12 {
		t.Errorf("best %.15f (by hand %.15f), worst %.15f (by hand %.15f)", best.Value, wantBest, worst.Value, wantWorst)
	}
	sv, err := s.Solve(context.Background(), reach)
	if err != nil {
		t.Fatal(err)
	}
	if err := sv.Check(); err != nil {
		t.Error(err)
	}
	// Its Policy plays the plan: a roll of one six against two pushes.
	st := playPlan(t, s, best.Policy, 6, 1, 1, 1, 6, 6, 6, 1, 1, 1, 1)
	if !st.Attempt.Pushed || st.Attempt.Successes != 2 || !st.Attempt.Outcome.Succeeded {
		t.Errorf("behind 1 to 2, the plan's game: %+v", st.Attempt)
	}
}

// The solver stops a step where the player may spend extra successes on
// a heal (a situation of its own) and plays the spending as the next
// step: taking the scenario's own way there must lead exactly where the
// Runner's whole step goes. Checked for every choice of every situation
// of 12 scenarios drawn with a fixed seed (a critical injury taken with
// the roll once went missing across the stop).
func TestSpendingStopChangesNothing(t *testing.T) {
	rng := rand.New(rand.NewPCG(38, 2))
	for i := range 12 {
		s := randomScenario(rng)
		s.Spend = "none"
		m, err := s.newModel()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := m.explore(context.Background()); err != nil {
			continue // a pursuit that loops
		}
		for k, cs := range m.trans {
			if k.fly == 3 {
				continue
			}
			for _, c := range cs {
				a, ok := answerOf(c.Name)
				if !ok {
					continue
				}
				m.noPause = true
				whole := m.play(k, a)
				m.noPause = false
				want, got := map[situation]float64{}, map[situation]float64{}
				for _, st := range whole {
					want[st.To] += st.P
				}
				for _, st := range c.Steps {
					if st.To.fly != 3 {
						got[st.To] += st.P
						continue
					}
					for _, then := range m.trans[st.To][0].Steps {
						got[then.To] += st.P * then.P
					}
				}
				for to, p := range want {
					if math.Abs(got[to]-p) > 1e-15 {
						t.Fatalf("scenario %d, from %+v, %s: %v to %+v, stopping to spend %v", i, k, c.Name, p, to, got[to])
					}
				}
			}
		}
	}
}

// answerOf is the answer a choice named name plays, outside spending;
// false for choosing to push (which only leads to choosing the track).
func answerOf(name string) (answer, bool) {
	switch {
	case name == choicePush:
		return answer{}, false
	case name == choiceTakePeril:
		return answer{peril: true}, true
	case name == choiceFlashback:
		return answer{flashback: true}, true
	case strings.HasPrefix(name, choiceHarmOn):
		return answer{push: true, track: strings.TrimPrefix(name, choiceHarmOn)}, true
	}
	return answer{}, true
}
