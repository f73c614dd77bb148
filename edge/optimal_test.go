package edge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim/markov"
)

// duel is one character against one in a social battle, 2 edge dice each,
// no repetition penalties and no skill better than another, so a round is
// a fair coin: each side's check is a d20 and the lower one's die goes to
// the higher; level checks move nothing and leave the initiative where it
// is. The only decision that matters is when to walk away.
func duel() Scenario {
	s := Scenario{Rules: DefaultRules(), Type: "social", Parties: []Party{
		{Name: "Ann", Members: []Member{{Name: "Ann", Skills: map[string]int{"persuasion": 0}}}},
		{Name: "Bo", Members: []Member{{Name: "Bo", Skills: map[string]int{"persuasion": 0}}}},
	}}
	s.Rules.StartEdge = 2
	s.Rules.Repetition = nil
	return s
}

// TestOptimalDuelByHand solves the duel for Ann winning outright or in
// part. A round moves a die to Ann with p = 19/40 (her d20 higher), to Bo
// with q = 19/40, and nothing with r = 1/20. Let V(a) be Ann's chance
// holding a of the 4 dice at the start of a round. Ahead 3 to 1 she walks
// away, Bo holding fewer: a partial win, V(3) = 1. Level, walking away is
// a draw (0), so she plays on: V(2) = p + q V(1) + r V(2). Behind 1 to 3,
// walking away or surrendering loses: V(1) = p V(2) + r V(1). With
// p/(1-r) = 1/2: V(1) = V(2)/2 and V(2) = 1/2 + V(2)/4, so V(2) = 2/3.
// The worst play surrenders at once: 0. The shipped policies never walk
// away while level, so each plays the fair walk to 1/2 at best: cautious
// walks away 2 ahead (3 to 1, winning) but surrenders on its last die
// (losing), 1/2; steady and reckless play to the end, 1/2 by symmetry;
// canny walks away 3 ahead, which never comes before the end, 1/2.
// Walking away 3 to 1 is worth 1 against playing on's p + q V(2) + r =
// 101/120, and play comes there with probability V(2) = 2/3: the advice
// line is worth 2/3 x 19/120 = 19/180 a game.
func TestOptimalDuelByHand(t *testing.T) {
	ctx := context.Background()
	sv, err := duel().Solve(ctx, markov.Goal{})
	if err != nil {
		t.Fatal(err)
	}
	if err := sv.Check(); err != nil {
		t.Fatal(err)
	}
	if math.Abs(sv.Best.Value-2.0/3) > 1e-12 || math.Abs(sv.Worst.Value) > 1e-12 {
		t.Errorf("best %.15f, worst %.15f; want 2/3 and 0", sv.Best.Value, sv.Worst.Value)
	}
	if want := []string{"ann_wins", "ann_partial"}; !slices.Equal(sv.Goal.Outcomes, want) || sv.Side != "Ann" {
		t.Errorf("goal %+v, side %q; want Ann's %v", sv.Goal, sv.Side, want)
	}
	for _, p := range sv.Policies {
		if math.Abs(p.Value-0.5) > 1e-12 {
			t.Errorf("%s: %.15f, want 1/2", p.Name, p.Value)
		}
	}
	// Playing on while level or behind, and walking away 3 to 1.
	walk := slices.IndexFunc(sv.Advice, func(a markov.Advice) bool {
		return a.Do == "walk away" && a.Else == "wager 1 die" && strings.HasSuffix(a.When, "Ann 3 edge dice to Bo 1") &&
			math.Abs(a.Worth-19.0/180) < 1e-9
	})
	if len(sv.Advice) != 4 || walk < 0 || sv.Advice[0].Do != "wager 1 die: Ann with persuasion" {
		t.Errorf("advice %+v; want 4 lines, playing on level first, walking away 3 to 1", sv.Advice)
	}
	p := sv.Best.Answer.P
	if math.Abs(p[0]+p[2]-2.0/3) > 1e-12 || math.Abs(p[0]+p[1]+p[2]+p[3]+p[4]-1) > 1e-12 {
		t.Errorf("best answer %v: Ann's wins should sum to 2/3 and all to 1", p)
	}
}

// solveCases are small and built-in scenarios, each solved for every
// party that makes choices (a passive one makes none).
func solveCases() map[string]Scenario {
	social := DefaultScenario()
	social.Type = "social"
	social.Parties = slices.Clone(social.Parties)
	social.Parties[0].Members = []Member{{Name: "Becky", Skills: map[string]int{"persuasion": 4, "perception": 3}}}
	social.Parties[1].Members = []Member{{Name: "Joe", Skills: map[string]int{"deception": 3, "wits": 2}}}
	social.Parties[1].Policy = "canny"
	bombs := duel()
	bombs.Type = "chase"
	bombs.Parties = slices.Clone(bombs.Parties)
	bombs.Parties[0].Members = []Member{
		{Name: "Ann", Skills: map[string]int{"infiltration": 3, "perception": 2}},
		{Name: "Cy", Skills: map[string]int{"athletics": 1, "infiltration": 1}},
	}
	bombs.Parties[1] = Party{Name: "bombs", Passive: true, Members: []Member{{Name: "bombs", Skills: map[string]int{"stealth": 2}}}}
	bombs.Rules.StartEdge = 3
	return map[string]Scenario{"duel": duel(), "chase": DefaultScenario(), "social": social, "bombs": bombs, "fool": fool()}
}

// fool is a social duel under Can't Fool Me Twice with two appropriate
// skills and none naturally opposed: Ann persuasion +3 and deception +2
// against Bo's persuasion +3, 2 edge dice each. Small enough to solve
// over every legal skill.
func fool() Scenario {
	s := duel()
	s.Rules = DefaultRules()
	s.Rules.StartEdge = 2
	s.Rules.Opposed = nil
	s.Rules.Types["social"] = Type{Start: "persuasion", Seize: "persuasion", Skills: []string{"persuasion", "deception"}, WalkAway: true}
	s.Parties = []Party{
		{Name: "Ann", Members: []Member{{Name: "Ann", Skills: map[string]int{"persuasion": 3, "deception": 2}}}},
		{Name: "Bo", Members: []Member{{Name: "Bo", Skills: map[string]int{"persuasion": 3}}}},
	}
	return s
}

// TestSolveBoundsEveryShippedPolicy: the best play is at least and the
// worst at most every shipped policy's exact value, for each party of each
// case, and the Solved is consistent.
func TestSolveBoundsEveryShippedPolicy(t *testing.T) {
	for name, s := range solveCases() {
		for _, side := range s.Parties {
			if side.Passive {
				continue
			}
			sv, err := s.Solve(context.Background(), markov.Goal{Side: side.Name})
			if err != nil {
				t.Fatalf("%s, %s: %v", name, side.Name, err)
			}
			if err := sv.Check(); err != nil {
				t.Errorf("%s, %s: %v", name, side.Name, err)
			}
			if sv.Side != side.Name || len(sv.Policies) != len(PolicyNames()) || len(sv.Advice) == 0 || len(sv.Advice) > markov.MaxAdvice {
				t.Errorf("%s, %s: side %q, %d policies, %d lines of advice", name, side.Name, sv.Side, len(sv.Policies), len(sv.Advice))
			}
			for _, p := range sv.Policies {
				if p.Value > sv.Best.Value+1e-12 || p.Value < sv.Worst.Value-1e-12 {
					t.Errorf("%s, %s: policy %s at %.15f outside [%.15f, %.15f]", name, side.Name, p.Name, p.Value, sv.Worst.Value, sv.Best.Value)
				}
			}
		}
	}
}

// TestExactRankedMatchesExact: weighing a round's checks by how they rank
// (as the decision process and Solve's shipped policies do) gives Exact's
// answers to rounding, for every shipped policy in the first party's place.
func TestExactRankedMatchesExact(t *testing.T) {
	for name, s := range solveCases() {
		for _, pol := range PolicyNames() {
			alt := s.clone()
			alt.Parties[0].Policy = pol
			want, err := alt.Exact(context.Background())
			if errors.Is(err, markov.ErrTooLarge) {
				continue // Exact's own bound on work; the ranked one goes further
			}
			if err != nil {
				t.Fatal(err)
			}
			got, err := alt.exact(context.Background(), true)
			if err != nil {
				t.Fatal(err)
			}
			for k := range want.P {
				if math.Abs(got.P[k]-want.P[k]) > 1e-12 {
					t.Errorf("%s, %s: P[%d] ranked %.15f, Exact %.15f", name, pol, k, got.P[k], want.P[k])
				}
			}
			if math.Abs(got.MeanRounds-want.MeanRounds) > 1e-9 {
				t.Errorf("%s, %s: mean rounds ranked %v, Exact %v", name, pol, got.MeanRounds, want.MeanRounds)
			}
		}
	}
}

// TestOptimalPolicySampled plays the optimal Policy in a Runner (fixed
// seed) and checks that the sampled rate of the goal falls inside a 99.9%
// interval of its exact value, for each party of the chase and the duel.
func TestOptimalPolicySampled(t *testing.T) {
	n := 20000
	if raceOn {
		n = 2000
	}
	for name, s := range solveCases() {
		for _, side := range s.Parties {
			if side.Passive {
				continue
			}
			o, err := s.Optimal(context.Background(), markov.Goal{Side: side.Name}, markov.Maximize)
			if err != nil {
				t.Fatal(err)
			}
			rn, err := o.NewRunner()
			if err != nil {
				t.Fatal(err)
			}
			cats := s.Categories()
			r := dice.NewSeeded(24)
			hits := 0
			for range n {
				c, err := rn.Trial(r, nil)
				if err != nil {
					t.Fatalf("%s, %s: %v", name, side.Name, err)
				}
				if slices.Contains(o.Goal.Outcomes, cats[c]) {
					hits++
				}
			}
			got := float64(hits) / float64(n)
			half := 3.29*math.Sqrt(o.Value*(1-o.Value)/float64(n)) + 1e-12
			if math.Abs(got-o.Value) > half {
				t.Errorf("%s, %s: optimal play reached the goal in %.4f of %d trials; exact %.4f +- %.4f", name, side.Name, got, n, o.Value, half)
			}
		}
	}
}

// TestOptimalPolicyInPlay: the plan plays through an Engine's own steps
// (Engine.Policies, Play) and, ahead 3 to 1 in the duel, walks away.
func TestOptimalPolicyInPlay(t *testing.T) {
	s := duel()
	o, err := s.Optimal(context.Background(), markov.Goal{}, markov.Maximize)
	if err != nil {
		t.Fatal(err)
	}
	e, err := s.NewEngine()
	if err != nil {
		t.Fatal(err)
	}
	e.Policies[0] = o.Policy
	st := e.NewState()
	if err := e.Start(st, dice.NewSeeded(1)); err != nil {
		t.Fatal(err)
	}
	st.Parties[0].Edge, st.Parties[1].Edge, st.Initiative = 3, 1, 0
	v, err := e.View(st)
	if err != nil {
		t.Fatal(err)
	}
	if c := o.Policy.Concede(v, 0); c != WalkAway {
		t.Errorf("ahead 3 to 1 the plan chose %v, want walk_away", c)
	}
	if err := e.Play(st, dice.NewSeeded(2)); err != nil {
		t.Fatal(err)
	}
	out := st.Outcome
	if out.End != WalkedAway || out.Winner != 0 || !out.Partial {
		t.Errorf("outcome %+v: want Ann walking away a partial winner", out)
	}
}

func TestOptimalRefuses(t *testing.T) {
	ctx := context.Background()
	s := duel()
	for _, c := range []struct {
		goal markov.Goal
		want string
	}{
		{markov.Goal{Side: "Cid"}, `goal side "Cid": allowed "Ann", "Bo"`},
		{markov.Goal{Outcomes: []string{"ann_won"}}, `goal outcome "ann_won": allowed "ann_wins", "bo_wins", "ann_partial", "bo_partial", "draw"`},
	} {
		if _, err := s.Solve(ctx, c.goal); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.goal, err, c.want)
		}
		if _, err := s.Optimal(ctx, c.goal, markov.Maximize); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Optimal %+v: %v, want %q", c.goal, err, c.want)
		}
	}
	three := duel()
	three.Parties = append(slices.Clone(three.Parties), Party{Name: "Cy", Members: []Member{{Name: "Cy"}}})
	every := duel()
	every.Rules.Turns = EveryParty
	passive := duel()
	passive.Parties = slices.Clone(passive.Parties)
	passive.Parties[0].Passive = true
	factors := duel()
	factors.Factors = []Factor{{After: 1, Skill: "wits", DC: 10, Penalty: -1}}
	short := duel()
	short.Rules.MaxRounds = 3
	if _, err := short.Solve(ctx, markov.Goal{}); !errors.Is(err, markov.ErrNoExact) || !strings.Contains(err.Error(), "outlasts rules.max_rounds = 3") {
		t.Errorf("round limit: %v, want markov.ErrNoExact saying play outlasts it", err)
	}
	for name, bad := range map[string]Scenario{"three parties": three, "every party acts": every, "passive decider": passive, "outside factors": factors} {
		if _, err := bad.Solve(ctx, markov.Goal{}); !errors.Is(err, markov.ErrNoExact) {
			t.Errorf("%s: %v, want markov.ErrNoExact", name, err)
		}
	}
	invalid := duel()
	invalid.Type = "joust"
	if _, err := invalid.Solve(ctx, markov.Goal{}); err == nil || errors.Is(err, markov.ErrNoExact) {
		t.Errorf("an invalid scenario: %v, want its validation error", err)
	}
	// Three members a side varying among skills that are not safe: five
	// checks a round, too many results to enumerate.
	large := DefaultScenario()
	large.Type = "social"
	large.Parties = slices.Clone(large.Parties)
	becky := Member{Name: "Becky", Skills: map[string]int{"persuasion": 4, "insight": 2, "wits": 1}}
	joe := Member{Name: "Joe", Skills: map[string]int{"deception": 3, "perception": 3, "willpower": 2}}
	large.Parties[0].Members = []Member{becky, becky, becky}
	large.Parties[1].Members = []Member{joe, joe, joe}
	for k := 1; k < 3; k++ {
		large.Parties[0].Members[k].Name = fmt.Sprint("Becky ", k)
		large.Parties[1].Members[k].Name = fmt.Sprint("Joe ", k)
	}
	large.Parties[1].Policy = "canny"
	if _, err := large.Solve(ctx, markov.Goal{}); !errors.Is(err, markov.ErrTooLarge) || !errors.Is(err, markov.ErrNoExact) {
		t.Errorf("too large: %v, want markov.ErrTooLarge and markov.ErrNoExact", err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := DefaultScenario().Solve(cancelled, markov.Goal{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v, want context.Canceled", err)
	}
}

// BenchmarkSolve solves the built-in chase for the lead car (the default
// side): the bounded set, the relaxation's bounds and the four shipped
// policies.
func BenchmarkSolve(b *testing.B) { benchSolve(b, DefaultScenario(), "") }

// BenchmarkSolvePursuer solves the built-in chase for the pursuer.
func BenchmarkSolvePursuer(b *testing.B) { benchSolve(b, DefaultScenario(), "pursuer") }

// BenchmarkSolveCourt solves the example court scenario
// (examples/scenarios/edge.jsonc) for the court: a noble with a mob of 25.
func BenchmarkSolveCourt(b *testing.B) { benchSolve(b, courtScenario(b), "") }

// BenchmarkSolveFool solves the fool duel over every legal choice.
func BenchmarkSolveFool(b *testing.B) { benchSolve(b, fool(), "") }

func benchSolve(b *testing.B, s Scenario, side string) {
	for b.Loop() {
		if _, err := s.Solve(context.Background(), markov.Goal{Side: side}); err != nil {
			b.Fatal(err)
		}
	}
}

// courtScenario reads the example edge scenario file (JSON with comments)
// over the default rules.
func courtScenario(tb testing.TB) Scenario {
	b, err := os.ReadFile("../examples/scenarios/edge.jsonc")
	if err != nil {
		tb.Fatal(err)
	}
	b = regexp.MustCompile(`(?m)//.*$`).ReplaceAll(b, nil)
	var f struct{ Scenario json.RawMessage }
	if err := json.Unmarshal(b, &f); err != nil {
		tb.Fatal(err)
	}
	s := Scenario{Rules: DefaultRules()}
	if err := json.Unmarshal(f.Scenario, &s); err != nil {
		tb.Fatal(err)
	}
	return s
}

// TestOptimalAnswerMatchesChain: the plan's answer read round by round
// (Plan.Answer) matches the old dense reading of the plan's chain, P and
// MeanRounds to 1e-12 (relative), and its distribution of rounds sums to 1 with the
// same mean, on every solve case for both aims.
func TestOptimalAnswerMatchesChain(t *testing.T) {
	ctx := context.Background()
	for name, s := range solveCases() {
		for _, aim := range []markov.Aim{markov.Maximize, markov.Minimize} {
			o, err := s.Optimal(ctx, markov.Goal{}, aim)
			if err != nil {
				t.Fatalf("%s, %v: %v", name, aim, err)
			}
			chain, err := o.plan.Chain(ctx)
			if err != nil {
				t.Fatal(err)
			}
			sol, err := chain.Solve()
			if err != nil {
				t.Fatal(err)
			}
			p := make([]float64, len(o.Answer.P))
			for k, q := range sol.Absorb {
				p[k[1]] += q
			}
			mean, err := chain.ExpectedReward(func(k string) float64 {
				if _, n, ok := o.plan.Choice(k); ok && isRound(n) {
					return 1
				}
				return 0
			})
			if err != nil {
				t.Fatal(err)
			}
			for i := range p {
				if math.Abs(p[i]-o.Answer.P[i]) > 1e-12 {
					t.Errorf("%s, %v: P[%d] %.15f, chain %.15f", name, aim, i, o.Answer.P[i], p[i])
				}
			}
			// Relative: the mean is summed round by round, the rounds cut
			// where less than markov.RoundsTolerance is unended.
			if math.Abs(mean-o.Answer.MeanRounds) > 1e-12*mean {
				t.Errorf("%s, %v: mean rounds %.15f, chain %.15f", name, aim, o.Answer.MeanRounds, mean)
			}
			sum, m := o.Answer.Tail, 0.0
			for r, q := range o.Answer.Rounds {
				sum, m = sum+q, m+float64(r)*q
			}
			if math.Abs(sum-1) > 1e-12 || math.Abs(m-mean) > 1e-9 || o.Answer.Check(len(p)) != nil {
				t.Errorf("%s, %v: rounds sum to %.15f with mean %.15f; want 1 and %.15f", name, aim, sum, m, mean)
			}
		}
	}
}

// TestOptimalEveryLegalSkill: where the process over every legal skill
// fits (fool), Optimal solves it and does strictly better than the
// bounded set: Ann acting or reacting with deception while persuasion is
// still fresh, keeping persuasion's repetition penalty for later, wins
// 0.7075 where her best skill each round wins 0.6934. Where it does not
// fit (the built-in chase: more than everyOptions options to weigh), the
// bounded set is solved, and Solve says which.
func TestOptimalEveryLegalSkill(t *testing.T) {
	ctx := context.Background()
	bounded, err := fool().optimalModel(ctx, markov.Goal{}, setBest)
	if err != nil {
		t.Fatal(err)
	}
	ob, err := bounded.solve(ctx, markov.Maximize)
	if err != nil {
		t.Fatal(err)
	}
	o, err := fool().Optimal(ctx, markov.Goal{}, markov.Maximize)
	if err != nil {
		t.Fatal(err)
	}
	if o.Options != OptionsEvery || ob.Options != OptionsBest {
		t.Errorf("options %q and %q; want %q and %q", o.Options, ob.Options, OptionsEvery, OptionsBest)
	}
	if math.Abs(ob.Value-0.6933731468) > 1e-9 || math.Abs(o.Value-0.7074676058) > 1e-9 || o.States <= ob.States {
		t.Errorf("every legal skill %.10f over %d states, best skills %.10f over %d; want 0.7074676058 above 0.6933731468",
			o.Value, o.States, ob.Value, ob.States)
	}
	// Every option the full set offers is legal by the engine's own query
	// (what LegalActs and LegalReactions answer, read on the process's
	// state), at most one check a member and no more than Ann's dice.
	for k, decls := range o.m.decls {
		o.m.setOrder(k)
		in := o.m.x.in
		acting := in.actor() == 0
		acted := in.skillsOf(&Action{Party: 1, Checks: o.m.answers[k]})
		for _, us := range decls {
			if len(us) > in.s.Parties[0].Edge || len(us) > 1 {
				t.Fatalf("state %q: %+v wagers more than Ann can", k, us)
			}
			for _, u := range us {
				legal := in.choices(0, u.Member, acting, acted)
				if !slices.ContainsFunc(legal, func(c Choice) bool { return c.Skill == u.Skill }) {
					t.Fatalf("state %q: %+v not among the legal %v", k, u, legal)
				}
			}
		}
	}
	// With two members (the passive bombs' chase), every choice of
	// members up to the dice held, each with each legal skill, twins
	// counted once. At the start neither has checked: Ann (infiltration
	// +3, perception +2) acts with any of the 13 skills of a chase, but
	// acrobatics, might and reflex are twins for her (+0, appropriate, not
	// safe, naturally opposed to nothing), and so are ranged and melee
	// attack (+0, opposed to defense alone) and the safe athletics,
	// vehicles and ride (+0): 8 options. Cy (athletics +1, infiltration
	// +1) has the same twins but for athletics: 9. Both wager: 8 * 9.
	bombs, err := solveCases()["bombs"].Optimal(ctx, markov.Goal{}, markov.Maximize)
	if err != nil || bombs.Options != OptionsEvery {
		t.Fatalf("bombs: %v, options %q", err, bombs.Options)
	}
	in := bombs.m.x.in
	in.s.resetTo(&in.initial)
	in.s.Started, in.s.Initiative, in.s.Order = true, 0, []int{0}
	start := bombs.m.x.key()
	got := 0
	for _, us := range bombs.m.decls["r\x00"+start[2:]] {
		if len(us) > 0 {
			got++
		}
	}
	if want := 8 + 9 + 8*9; got != want {
		t.Errorf("bombs at the start: %d options to wager, want %d", got, want)
	}
	for name, c := range map[string]struct {
		s    Scenario
		want string
	}{"fool": {fool(), "exact: " + OptionsEvery}, "bombs": {solveCases()["bombs"], "exact: " + OptionsEvery},
		"chase": {DefaultScenario(), "solving exactly over " + OptionsBest}, "social": {solveCases()["social"], "solving exactly over " + OptionsBest}} {
		sv, err := c.s.Solve(ctx, markov.Goal{})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(sv.Method, c.want) {
			t.Errorf("%s: method %q, want %q", name, sv.Method, c.want)
		}
	}
}
