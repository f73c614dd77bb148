package markov

import (
	"context"
	"math"
	"strings"
	"testing"
)

// fairBets is betting on a fair coin with the stakes offered largest first,
// each costing what it stakes. On a fair coin every way of playing wins with
// probability i/4 from i coins, so every choice ties.
func fairBets(i int) []Choice[int] {
	var cs []Choice[int]
	for _, c := range betting(0.5)(i) {
		cs = append([]Choice[int]{c}, cs...)
	}
	for k := range cs {
		cs[k].Cost = float64(len(cs) - k)
	}
	return cs
}

// TestTiesGoToTheCheapestChoice: with 2 coins of 4 on a fair coin,
// staking 1 and staking 2 are equally good; the plan stakes 1 (it risks
// less) under Cheapest and 2 (listed first) under FirstListed.
func TestTiesGoToTheCheapestChoice(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		ties Ties
		want string
	}{{Cheapest, "stake 1"}, {FirstListed, "stake 2"}} {
		p, err := ExploreProcess(ctx, 2, fairBets)
		if err != nil {
			t.Fatal(err)
		}
		p.Ties = c.ties
		pl, err := p.Solve(ctx, wins, Maximize)
		if err != nil {
			t.Fatal(err)
		}
		if _, name, _ := pl.Choice(2); name != c.want || math.Abs(pl.Start()-0.5) > 1e-12 {
			t.Errorf("%v: chose %q, value %v; want %q and 1/2", c.ties, name, pl.Start(), c.want)
		}
	}
	if _, err := ExploreProcess(ctx, 2, func(i int) []Choice[int] {
		cs := fairBets(i)
		cs[0].Cost = math.NaN()
		return cs
	}); err == nil || !strings.Contains(err.Error(), "costs NaN") {
		t.Errorf("a NaN cost: %v", err)
	}
}

// TestGoalTies: Goal.Ties names a tie-break; Resolve refuses others and
// keeps the name; TieBreak reads it.
func TestGoalTies(t *testing.T) {
	sides, cats := []string{"a"}, []string{"a_wins"}
	wins := func(int) []string { return cats }
	if _, _, err := (Goal{Ties: "dearest"}).Resolve("m", sides, cats, wins); err == nil ||
		!strings.Contains(err.Error(), `ties "dearest": allowed "cheapest", "first"`) {
		t.Errorf("unknown ties: %v", err)
	}
	_, g, err := (Goal{Ties: "first"}).Resolve("m", sides, cats, wins)
	if err != nil || g.Ties != "first" || g.TieBreak() != FirstListed || (Goal{}).TieBreak() != Cheapest {
		t.Errorf("resolved %+v, %v", g, err)
	}
}

// TestLinesSetTheChoiceAgainstTheNextBest solves bold play on a subfair
// coin (p = 0.4) and checks each line by hand. With 2 coins, staking 2 is
// worth 0.4 and staking 1 is worth 0.4 V(3) + 0.6 V(1), where V(3) = 0.4 +
// 0.6 V(2) = 0.64 and V(1) = 0.4 V(2) = 0.16: 0.352. Play starts there
// once: the line is worth 0.048. With 1 or 3 coins there is one choice, no
// line.
func TestLinesSetTheChoiceAgainstTheNextBest(t *testing.T) {
	ctx := context.Background()
	p, err := ExploreProcess(ctx, 2, betting(0.4))
	if err != nil {
		t.Fatal(err)
	}
	pl, err := p.Solve(ctx, wins, Maximize)
	if err != nil {
		t.Fatal(err)
	}
	ds, err := pl.Decisions(ctx)
	if err != nil {
		t.Fatal(err)
	}
	lines := Lines(ds, Maximize, func(d Decision[int], do, alt Option) Said {
		return Said{When: "holding coins", Do: do.Name, Else: alt.Name}
	}, AsSaid[int])
	if len(lines) != 1 {
		t.Fatalf("lines %+v", lines)
	}
	a := lines[0]
	if a.Do != "stake 2" || a.Else != "stake 1" || math.Abs(a.Worth-0.048) > 1e-12 || math.Abs(a.Reach-1) > 1e-12 || a.States != 1 {
		t.Errorf("line %+v; want stake 2 rather than stake 1, worth 0.048, reached once", a)
	}
}

// TestLinesGroupAndRank: decisions with one key share a line whose Worth
// and Reach are sums; lines come worth most first; ties make no line.
func TestLinesGroupAndRank(t *testing.T) {
	d := func(s int, visits, do, alt float64) Decision[int] {
		return Decision[int]{State: s, Choice: "a", Visits: visits,
			Options: []Option{{"a", do}, {"b", alt}}}
	}
	ds := []Decision[int]{d(1, 0.5, 0.6, 0.5), d(2, 1, 0.9, 0.3), d(3, 0.25, 0.8, 0.4), d(4, 2, 0.5, 0.5), d(5, math.Inf(1), 1, 0)}
	key := func(d Decision[int], do, alt Option) int { return d.State % 2 }
	var groups []int
	lines := Lines(ds, Maximize, key, func(k int, g []Decision[int]) Said {
		groups = append(groups, len(g))
		return Said{When: []string{"even", "odd"}[k], Do: "a", Else: "b"}
	})
	if len(lines) != 2 || lines[0].When != "even" || lines[1].When != "odd" {
		t.Fatalf("lines %+v", lines)
	}
	if even := lines[0]; math.Abs(even.Worth-0.6) > 1e-12 || even.Reach != 1 || even.States != 1 {
		t.Errorf("even %+v: want worth 0.6 from state 2 alone (state 4 ties)", even)
	}
	if odd := lines[1]; math.Abs(odd.Worth-0.15) > 1e-12 || odd.Reach != 0.75 || odd.States != 2 {
		t.Errorf("odd %+v: want worth 0.05 + 0.1, reach 0.75, 2 states", odd)
	}
	if groups[0] != 1 || groups[1] != 2 {
		t.Errorf("say got groups of %v", groups)
	}
}

// TestSolvedOwnAndBound: SetOwnPolicy takes a valued policy and refuses
// others; Check holds Worth to Best - Own and a Bound at or above Best.
func TestSolvedOwnAndBound(t *testing.T) {
	s := ExactSolved(Goal{}, "a", 1, 1, PolicyValue{Value: 0.6}, PolicyValue{Value: 0.1})
	s.Policies = []PolicyValue{{Name: "steady", Value: 0.4}}
	if err := s.SetOwnPolicy("bold"); err == nil || !strings.Contains(err.Error(), `"bold" is not among the policies valued: "steady"`) {
		t.Errorf("unknown own policy: %v", err)
	}
	if err := s.SetOwnPolicy("steady"); err != nil || s.Own.Name != "steady" || math.Abs(s.Worth-0.2) > 1e-15 {
		t.Errorf("own %+v worth %v, %v", s.Own, s.Worth, err)
	}
	if err := s.Check(); err != nil {
		t.Error(err)
	}
	s.Worth = 0.3
	if err := s.Check(); err == nil || !strings.Contains(err.Error(), "worth") {
		t.Errorf("a wrong worth passed: %v", err)
	}
	s.Worth = 0.2
	low := 0.5
	s.Bound = &low
	if err := s.Check(); err == nil || !strings.Contains(err.Error(), "bound 0.5 lies below") {
		t.Errorf("a bound below the best passed: %v", err)
	}
}
