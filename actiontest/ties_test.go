package actiontest

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim/markov"
)

// lesserFull is oneTest with the thief's physical Lesser row full (two
// harms, two dice off the pool): Prowl 2 + Dexterity 2 - 2 = 2 dice.
func lesserFull() Scenario {
	s := oneTest()
	s.State = &State{Harm: []TrackHarm{{Track: "physical", Rows: []int{2, 0, 0}}, {Track: "mental", Rows: []int{0, 0, 0}}}}
	return s
}

// A tie by hand. The thief's first roll, 2 dice, fails with chance
// (5/6)^2; a push re-rolls both with two more, 4 dice, and its harm cannot
// change the one test's end, so pushing onto either track reaches the
// clock with chance 1 - (5/6)^4, and the best play reaches it with
// 1 - (5/6)^2 (5/6)^4 = 1 - (5/6)^6. The two pushes tie; the physical
// track (Prowl's own, listed first) is full in its Lesser row, so its harm
// fills a Moderate slot (cost 2), where the mental track takes a Lesser
// one (cost 1). The plan takes the mental track, and under Ties "first"
// the physical one.
func TestTiedPushesTakeTheCheaperTrackUnlessTiesFirst(t *testing.T) {
	s := lesserFull()
	want := 1 - math.Pow(5.0/6, 6)
	for _, tc := range []struct {
		ties, track      string
		physical, mental []int
	}{
		{"", "mental", []int{2, 0, 0}, []int{1, 0, 0}},
		{"cheapest", "mental", []int{2, 0, 0}, []int{1, 0, 0}},
		{"first", "physical", []int{2, 1, 0}, []int{0, 0, 0}},
	} {
		goal := reach
		goal.Ties = tc.ties
		o, err := s.Optimal(context.Background(), goal, markov.Maximize)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(o.Value-want) > 1e-12 || o.Goal.Ties != tc.ties {
			t.Errorf("ties %q: value %.15f, by hand %.15f (goal %+v)", tc.ties, o.Value, want, o.Goal)
		}
		// The situation after a roll of no success, once the push is chosen.
		failed := situationOf(o.m.rn.st, &Pursuit{Position: Risky})
		failed.fly, failed.dice = 1, 2
		if _, c, ok := o.plan.Choice(failed); !ok || c != choicePush {
			t.Errorf("ties %q: after a failed roll the plan chooses %q, want %q", tc.ties, c, choicePush)
		}
		failed.track = true
		opts := o.plan.Options(failed)
		if len(opts) != 2 || opts[0].Name != choiceHarmOn+"physical" || opts[0].Value != opts[1].Value {
			t.Fatalf("ties %q: the track's options %+v; want physical then mental, equally good", tc.ties, opts)
		}
		if _, c, _ := o.plan.Choice(failed); c != choiceHarmOn+tc.track {
			t.Errorf("ties %q: the plan puts the harm %q, want on %s", tc.ties, c, tc.track)
		}
		if cs := o.m.trans[failed]; cs[0].Cost != 2 || cs[1].Cost != 1 {
			t.Errorf("costs %v and %v; want 2 (a Moderate slot) and 1 (a Lesser one)", cs[0].Cost, cs[1].Cost)
		}
		// The plan's Policy plays it in a game: two blanks, then a push.
		st := playPlan(t, s, o.Policy, 1, 1, 1, 1, 1, 6)
		if !st.Attempt.Pushed || st.Attempt.PushTrack != tc.track || !slices.Equal(st.Harm[0].Rows, tc.physical) || !slices.Equal(st.Harm[1].Rows, tc.mental) {
			t.Errorf("ties %q: the game pushed %v onto %q, harm %+v; want physical %v, mental %v", tc.ties, st.Attempt.Pushed, st.Attempt.PushTrack, st.Harm, tc.physical, tc.mental)
		}
	}
	if _, err := s.Optimal(context.Background(), markov.Goal{Ties: "dearest"}, markov.Maximize); err == nil || !strings.Contains(err.Error(), `"cheapest", "first"`) {
		t.Errorf("an unknown tie-break: %v", err)
	}
	if _, err := s.Solve(context.Background(), markov.Goal{Ties: strings.Repeat("x", 1<<16)}); err == nil || len(err.Error()) > 300 {
		t.Errorf("a long unknown tie-break: %.300v", err)
	}
}

// playPlan plays a game of s under p with the scripted faces until it ends
// and returns the character's state.
func playPlan(t *testing.T, s Scenario, p Policy, faces ...int) *State {
	t.Helper()
	g, err := s.newGame()
	if err != nil {
		t.Fatal(err)
	}
	g.SetPlayer(p)
	r := dice.Scripted(faces...)
	for !g.Done() {
		if err := g.Step(r); err != nil {
			t.Fatal(err)
		}
	}
	if r.Remaining() != 0 || r.Err() != nil {
		t.Fatalf("%d faces left, %v", r.Remaining(), r.Err())
	}
	return g.State()
}

// needless adds up, over a plan's decisions, how often per game play comes
// to one where the plan's choice costs more than an equally good one there
// (to the plan's own tie tolerance), and the harm levels so spent.
func needless(t *testing.T, o *Optimal) (visits, levels float64) {
	t.Helper()
	ds, err := o.plan.Decisions(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range ds {
		cs := o.m.trans[d.State]
		chosen, _, _ := d.Rank(o.plan.Aim())
		least := cs[chosen].Cost
		for k, x := range d.Options {
			if math.Abs(x.Value-d.Options[chosen].Value) <= 8*markov.Tolerance {
				least = min(least, cs[k].Cost)
			}
		}
		if cs[chosen].Cost > least {
			visits += d.Visits
			levels += d.Visits * (cs[chosen].Cost - least)
		}
	}
	return visits, levels
}

// On the rooftop chase the best play never spends where an equally good
// choice spends less. Listing order alone (Ties "first", the only
// tie-break before choices had costs) puts a desperate push's harm on the
// physical track, Prowl's own, where it fills a Moderate or Severe slot,
// when the mental track would take it in a Lesser one and do as well:
// 0.0279 times a game, 0.0404 harm levels a game more than needed (the
// plan before this tie-break: 0.0288 and 0.0426).
func TestRooftopChaseTakesNoNeedlessHarm(t *testing.T) {
	for _, tc := range []struct {
		ties         string
		visits, harm float64
	}{
		{"cheapest", 0, 0},
		{"first", 0.0279, 0.0404},
	} {
		goal := reach
		goal.Ties = tc.ties
		o, err := DefaultScenario().Optimal(context.Background(), goal, markov.Maximize)
		if err != nil {
			t.Fatal(err)
		}
		visits, levels := needless(t, o)
		t.Logf("ties %s: %.6f needless costs a game, %.6f harm levels", tc.ties, visits, levels)
		if math.Abs(visits-tc.visits) > 5e-5 || math.Abs(levels-tc.harm) > 5e-5 {
			t.Errorf("ties %s: %.6f needless costs a game (%.6f harm levels), want %.4f (%.4f)", tc.ties, visits, levels, tc.visits, tc.harm)
		}
	}
}
