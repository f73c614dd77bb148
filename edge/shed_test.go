package edge

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim/markov"
)

// stragglers is a test of stamina: endurance is the only skill, and a mob
// of two (rank 2 on the progression: +2 on other checks, -2 on endurance)
// meets a lone runner, one edge die each, no repetition penalties.
func stragglers() Scenario {
	s := duel()
	s.Type = "chase"
	s.Rules.StartEdge = 1
	s.Rules.Types["chase"] = Type{Start: "endurance", Seize: "endurance", Skills: []string{"endurance"}}
	s.Parties[0] = Party{Name: "mob", Members: []Member{{Name: "mob", Size: 2, Skills: map[string]int{"endurance": 0}}}}
	s.Parties[1].Members[0].Skills = map[string]int{"endurance": 0}
	return s
}

// TestOptimalAbandonsStragglers: abandoning stragglers is the plan's
// choice. By hand: the mob checks endurance at 0 - 2 against the runner's
// 0, so a round goes its way when its d20 beats the runner's by 3 or more:
// sum over the runner's y = 1..17 of 18 - y, 153 of 400; level totals rank
// by modifier, the runner's. With one die each that round ends it: 0.3825.
// Having abandoned its stragglers the mob checks at 0 like the runner: it
// wins 190 of 400, loses 190, and level results (20) move nothing, so it
// wins 1/2. The best play abandons before the first check: 1/2; the worst
// surrenders: 0. Of the shipped policies reckless and canny shed (1/2),
// steady does not (0.3825), cautious surrenders on its last die (0).
func TestOptimalAbandonsStragglers(t *testing.T) {
	ctx := context.Background()
	s := stragglers()
	sv, err := s.Solve(ctx, markov.Goal{})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(sv.Best.Value-0.5) > 1e-12 || sv.Worst.Value != 0 || sv.Method != "exact: "+OptionsEvery {
		t.Errorf("best %.15f, worst %v, method %q; want 1/2 and 0 over every legal choice", sv.Best.Value, sv.Worst.Value, sv.Method)
	}
	want := map[string]float64{"reckless": 0.5, "canny": 0.5, "steady": 0.3825, "cautious": 0}
	for _, p := range sv.Policies {
		if math.Abs(p.Value-want[p.Name]) > 1e-12 {
			t.Errorf("%s: %.15f, want %v", p.Name, p.Value, want[p.Name])
		}
	}
	if len(sv.Advice) == 0 || !strings.HasSuffix(sv.Advice[0].Do, "; mob abandons its stragglers") {
		t.Errorf("advice %+v; want the mob abandoning its stragglers first", sv.Advice)
	}
	// The plan plays through the engine's own steps: its Policy sheds
	// before the first check.
	o, err := s.Optimal(ctx, markov.Goal{}, markov.Maximize)
	if err != nil {
		t.Fatal(err)
	}
	e, err := s.NewEngine()
	if err != nil {
		t.Fatal(err)
	}
	e.Policies[0] = o.Policy
	st := e.NewState()
	r := dice.NewSeeded(5)
	for st.Round == 0 && !st.Done() {
		if err := e.Step(st, r); err != nil {
			t.Fatal(err)
		}
	}
	if !st.Parties[0].Members[0].Abandoned || st.Parties[0].Members[0].Rank != 1 {
		t.Errorf("after the first round the mob has abandoned %v at rank %d; want it shed, rank 1", st.Parties[0].Members[0].Abandoned, st.Parties[0].Members[0].Rank)
	}
}

// TestOptimalKeepsStragglers: where the mob need not check endurance its
// stragglers cost nothing and shedding them costs a rank, so the plan never
// sheds. By hand: one die each, the mob runs (might) at +2 against the
// runner's +0 and wins the round when its d20 + 2 is at least the runner's
// d20 (level totals rank by modifier): 1 - 153/400. Shedding and checking
// endurance at 0 wins 1/2 (see above); shedding and running at +1 wins
// 1 - 171/400; endurance at -2 unshed 153/400.
func TestOptimalKeepsStragglers(t *testing.T) {
	ctx := context.Background()
	s := stragglers()
	s.Rules.Types["chase"] = Type{Start: "might", Seize: "might", Skills: []string{"might", "endurance"}}
	s.Parties[0].Members[0].Skills = map[string]int{"might": 0, "endurance": 0}
	s.Parties[1].Members[0].Skills = map[string]int{"might": 0}
	o, err := s.Optimal(ctx, markov.Goal{}, markov.Maximize)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(o.Value-(1-153.0/400)) > 1e-12 {
		t.Errorf("best %.15f, want %v", o.Value, 1-153.0/400)
	}
	for k, sh := range o.m.sheds {
		if c, _, ok := o.plan.Choice(k); ok && c < len(sh) && sh[c] != 0 {
			t.Errorf("state %q: the plan sheds the stragglers", k)
		}
	}
}
