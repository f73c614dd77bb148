package edge

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim/markov"
)

// duelCase is a duel and the parties it is solved for.
type duelCase struct {
	name  string
	s     Scenario
	sides []int
}

// everyDuels are one-a-side duels small enough for the brute-force solver:
// the fool duel with and without the default opposed pairs, the duel of
// issue 37 where each member's best skills fell 1.8e-4 short (opposed60),
// a chase where three skills Ann does not list are twins, and duels drawn
// at random (fixed seed) over two appropriate skills and the default
// opposed pairs (the two whose brute force takes seconds left out).
func everyDuels() []duelCase {
	f := fool()
	f.Rules.Opposed = DefaultRules().Opposed
	out := []duelCase{{"fool", fool(), []int{0, 1}}, {"opposed60", opposed60(), []int{0, 1}},
		{"twins", twinChase(), []int{0}}, {"fool+opposed", f, []int{0}}}
	rng := rand.New(rand.NewPCG(1, 2))
	names := []string{"persuasion", "deception", "insight", "perception", "willpower", "wits"}
	pols := PolicyNames()
	for c := range 8 {
		s := fool()
		s.Rules.Opposed = DefaultRules().Opposed
		typ := Type{Start: "persuasion", Seize: "wits", Skills: []string{"persuasion", "deception"}, WalkAway: rng.IntN(2) == 0}
		if rng.IntN(2) == 0 {
			typ.Safe = []string{"wits"}
		}
		s.Rules.Types["social"] = typ
		s.Rules.Repetition = [][]int{{-2}, {-1, -3}}[rng.IntN(2)]
		for p := range 2 {
			sk := map[string]int{}
			for range 1 + rng.IntN(2) {
				sk[names[rng.IntN(len(names))]] = rng.IntN(5)
			}
			s.Parties[p].Members[0].Skills = sk
			s.Parties[p].Policy = pols[rng.IntN(len(pols))]
		}
		if c != 2 && c != 5 {
			out = append(out, duelCase{fmt.Sprint("random", c), s, []int{0, 1}})
		}
	}
	return out
}

// opposed60 is a social duel with the default opposed pairs in which only
// persuasion and deception are appropriate: Ann (perception +0, wits +1)
// against Bo (wits +1), both cautious, 2 edge dice each.
func opposed60() Scenario {
	s := fool()
	s.Rules.Opposed = DefaultRules().Opposed
	s.Rules.Types["social"] = Type{Start: "persuasion", Seize: "wits", Skills: []string{"persuasion", "deception"}, WalkAway: true}
	s.Parties[0].Members[0].Skills = map[string]int{"perception": 0, "wits": 1}
	s.Parties[1].Members[0].Skills = map[string]int{"wits": 1}
	s.Parties[0].Policy, s.Parties[1].Policy = "cautious", "cautious"
	return s
}

// twinChase is a chase of four appropriate skills, none safe or opposed:
// Ann lists run +3 and Bo (reckless, so he never answers with a skill he
// does not list) run +2; climb, hide and dodge are twins for Ann.
func twinChase() Scenario {
	s := fool()
	s.Rules.Opposed = nil
	s.Rules.Types["social"] = Type{Start: "run", Seize: "run", Skills: []string{"run", "climb", "hide", "dodge"}}
	s.Parties[0].Members[0].Skills = map[string]int{"run": 3}
	s.Parties[1].Members[0].Skills = map[string]int{"run": 2}
	s.Parties[1].Policy = "reckless"
	return s
}

// TestEveryLegalChoiceAgreesWithBruteForce: where the process over every
// legal choice fits, Optimal solves it (Options OptionsEvery, Bound equal
// to Value), and its value for each side of each duel is the independent
// brute-force solver's to 1e-12. The twins duel is solved with Ann's twin
// skills in canonical form, over fewer states than the brute force's.
func TestEveryLegalChoiceAgreesWithBruteForce(t *testing.T) {
	ctx := context.Background()
	for _, c := range everyDuels() {
		name, s := c.name, c.s
		for _, side := range c.sides {
			b := newBrute(t, s, side)
			want, states := b.solve(t)
			o, err := s.Optimal(ctx, markov.Goal{Side: s.Parties[side].Name}, markov.Maximize)
			if err != nil {
				t.Fatalf("%s, side %d: %v", name, side, err)
			}
			if o.Options != OptionsEvery || o.Bound != o.Value {
				t.Errorf("%s, side %d: options %q, bound %v for value %v; want every legal choice, the bound the value", name, side, o.Options, o.Bound, o.Value)
			}
			if math.Abs(o.Value-want) > 1e-12 {
				t.Errorf("%s, side %d: Optimal %.15f, brute force %.15f (%d states)", name, side, o.Value, want, states)
			}
			if name == "twins" && side == 0 && (o.m.x.twins == nil || o.States >= states) {
				t.Errorf("twins: Ann's twin skills not found (%v), or %d states against the brute force's %d", o.m.x.twins, o.States, states)
			}
		}
	}
}

// TestBoundHoldsOverBruteForce: the relaxation's value (each check of the
// deciding party paying the repetition penalty it picks) is at least the
// brute force's best over every legal choice, and the best over each
// member's best skills at most it, for each side of each duel.
func TestBoundHoldsOverBruteForce(t *testing.T) {
	ctx := context.Background()
	for _, c := range everyDuels() {
		name, s := c.name, c.s
		for _, side := range c.sides {
			goal := markov.Goal{Side: s.Parties[side].Name}
			best, _ := newBrute(t, s, side).solve(t)
			relaxed, err := s.optimalModel(ctx, goal, setBound)
			if err != nil {
				t.Fatal(err)
			}
			hi, err := relaxed.value(ctx, math.NaN(), markov.Maximize)
			if err != nil {
				t.Fatal(err)
			}
			bounded, err := s.optimalModel(ctx, goal, setBest)
			if err != nil {
				t.Fatal(err)
			}
			lo, err := bounded.solve(ctx, markov.Maximize)
			if err != nil {
				t.Fatal(err)
			}
			if hi < best-1e-12 || lo.Value > best+1e-12 {
				t.Errorf("%s, side %d: bound %.15f, brute force %.15f, best skills %.15f: want them in that order", name, side, hi, best, lo.Value)
			}
		}
	}
}

// TestBestSkillsMissedUnlistedOpposedSkills explains the 1.8e-4 of issue
// 37: in opposed60 the bounded set (each member's best skills, as the
// shipped policies choose: the skills a member lists, the safe ones and
// the actor's) never offers Bo perception or willpower, which he does not
// list but which are naturally opposed to persuasion: a fresh reaction at
// +0 where answering persuasion with persuasion again pays Can't Fool Me
// Twice. Solve had fallen back on that set once the default opposed pairs
// made the full set too large for its old bound; the full set now fits and
// gives the brute force's value.
func TestBestSkillsMissedUnlistedOpposedSkills(t *testing.T) {
	ctx := context.Background()
	s := opposed60()
	goal := markov.Goal{Side: "Bo"}
	bounded, err := s.optimalModel(ctx, goal, setBest)
	if err != nil {
		t.Fatal(err)
	}
	ob, err := bounded.solve(ctx, markov.Maximize)
	if err != nil {
		t.Fatal(err)
	}
	sv, err := s.Solve(ctx, goal)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := newBrute(t, s, 1).solve(t)
	if math.Abs(ob.Value-0.49991390625) > 1e-12 || math.Abs(sv.Best.Value-want) > 1e-12 || math.Abs(want-ob.Value-1.8125e-4) > 1e-12 {
		t.Errorf("best skills %.15f, Solve %.15f, brute force %.15f; want 0.49991390625, the brute force's, 1.8125e-4 apart", ob.Value, sv.Best.Value, want)
	}
	if sv.Method != "exact: "+OptionsEvery || sv.Best.Name != "optimal" {
		t.Errorf("method %q, best %q; want exact over every legal choice, optimal", sv.Method, sv.Best.Name)
	}
	e, _ := s.NewEngine()
	opposed := func(m *optimalModel) bool {
		for _, decls := range m.decls {
			for _, us := range decls {
				for _, u := range us {
					if n := e.SkillName(u.Skill); n == "perception" || n == "willpower" {
						return true
					}
				}
			}
		}
		return false
	}
	o, err := s.Optimal(ctx, goal, markov.Maximize)
	if err != nil {
		t.Fatal(err)
	}
	if opposed(bounded) || !opposed(o.m) {
		t.Error("want perception or willpower offered over every legal choice only")
	}
}

// TestChaseReportsBestFoundAndBound: in the built-in chase the full set
// is too large, for either party: Solve names its best and worst "best
// found" and "worst found" over each member's best skills, never optimal,
// and its Method gives the relaxation's bounds on play over every legal
// choice, which hold the values found (and every shipped policy's).
func TestChaseReportsBestFoundAndBound(t *testing.T) {
	ctx := context.Background()
	s := DefaultScenario()
	for _, side := range []string{"lead car", "pursuer"} {
		sv, err := s.Solve(ctx, markov.Goal{Side: side})
		if err != nil {
			t.Fatal(err)
		}
		if sv.Best.Name != "best found over "+OptionsBest || sv.Worst.Name != "worst found over "+OptionsBest {
			t.Errorf("%s: best %q, worst %q", side, sv.Best.Name, sv.Worst.Name)
		}
		hi, lo, ok := boundsOf(sv.Method)
		if !ok || hi < sv.Best.Value || lo > sv.Worst.Value || hi > 1 || lo < 0 {
			t.Errorf("%s: method %q: want bounds around best %v and worst %v", side, sv.Method, sv.Best.Value, sv.Worst.Value)
		}
		for _, p := range sv.Policies {
			if p.Value > hi || p.Value < lo {
				t.Errorf("%s: policy %s at %v outside the bounds", side, p.Name, p.Value)
			}
		}
		o, err := s.Optimal(ctx, markov.Goal{Side: side}, markov.Maximize)
		if err != nil {
			t.Fatal(err)
		}
		if o.Options != OptionsBest || o.Value != sv.Best.Value || math.Abs(o.Bound-hi) > 5e-5 {
			t.Errorf("%s: Optimal over %q: %v, bound %v; want the best found and the bound %v", side, o.Options, o.Value, o.Bound, hi)
		}
	}
}

// boundsOf reads the bounds Solve writes in Method.
func boundsOf(method string) (hi, lo float64, ok bool) {
	_, rest, found := strings.Cut(method, "P(goal) is at most ")
	if !found {
		return 0, 0, false
	}
	n, err := fmt.Sscanf(rest, "%f and at least %f", &hi, &lo)
	return hi, lo, err == nil && n == 2
}

// TestSolveOrdersBestOwnWorst: in every duel drawn at random (and the
// others), for each side, the best play is at least the side's own policy
// and every shipped one, the worst at most them (Solved.Check), what
// playing well is worth is best less own, and a bound, where there is one,
// is at least the best.
func TestSolveOrdersBestOwnWorst(t *testing.T) {
	ctx := context.Background()
	for _, c := range everyDuels() {
		for side := range 2 {
			sv, err := c.s.Solve(ctx, markov.Goal{Side: c.s.Parties[side].Name})
			if err != nil {
				t.Fatalf("%s, side %d: %v", c.name, side, err)
			}
			if err := sv.Check(); err != nil {
				t.Errorf("%s, side %d: %v", c.name, side, err)
			}
			own := cmp.Or(c.s.Parties[side].Policy, DefaultPolicy)
			if sv.Own.Name != own || math.Abs(sv.Worth-(sv.Best.Value-sv.Own.Value)) > 1e-12 || sv.Own.Value > sv.Best.Value+1e-12 || sv.Own.Value < sv.Worst.Value-1e-12 {
				t.Errorf("%s, side %d: own %s %v, worth %v, best %v, worst %v", c.name, side, sv.Own.Name, sv.Own.Value, sv.Worth, sv.Best.Value, sv.Worst.Value)
			}
			if sv.Bound != nil && *sv.Bound < sv.Best.Value {
				t.Errorf("%s, side %d: bound %v under the best %v", c.name, side, *sv.Bound, sv.Best.Value)
			}
		}
	}
}

// TestTiesGoToTheCheapestConcession: Ann plays for Bo's win, outright or
// partial, in the duel. Behind 1 to 3 surrendering (Bo wins) and walking
// away (Bo, holding more dice, wins in part) are both sure: the plan walks
// away, which hands over nothing, where surrendering hands over Ann's last
// die; with Goal.Ties "first" it takes the option listed first, surrender.
func TestTiesGoToTheCheapestConcession(t *testing.T) {
	ctx := context.Background()
	s := duel()
	for ties, want := range map[string]Concession{"": WalkAway, "cheapest": WalkAway, "first": Surrender} {
		goal := markov.Goal{Side: "Ann", Outcomes: []string{"bo_wins", "bo_partial"}, Ties: ties}
		o, err := s.Optimal(ctx, goal, markov.Maximize)
		if err != nil {
			t.Fatal(err)
		}
		e, err := s.NewEngine()
		if err != nil {
			t.Fatal(err)
		}
		st := e.NewState()
		if err := e.Start(st, dice.NewSeeded(1)); err != nil {
			t.Fatal(err)
		}
		st.Parties[0].Edge, st.Parties[1].Edge, st.Initiative, st.Order = 1, 3, 1, []int{0, 1}
		v, err := e.View(st)
		if err != nil {
			t.Fatal(err)
		}
		if got := o.Policy.Concede(v, 0); got != want {
			t.Errorf("ties %q: behind 1 to 3 the plan chose %v, want %v", ties, got, want)
		}
	}
}
