package challenge

import (
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim/markov"
)

// Each ruling of the package is a setting of Rules: these tests show that
// changing each one changes what happens.

// threeSides is a, b and c rolling asserting with Art d6 d6, each acting
// against the next (c against a).
func threeSides(t *testing.T, rules Rules, a, b, c Character) *State {
	t.Helper()
	s, err := NewState(rules, []Party{
		{Name: "a", Members: []Entry{{Character: a, Endeavor: Asserting}}, Target: "b"},
		{Name: "b", Members: []Entry{{Character: b, Endeavor: Asserting}}, Target: "c"},
		{Name: "c", Members: []Entry{{Character: c, Endeavor: Asserting}}, Target: "a"},
	}, nil)
	must(t, err)
	return s
}

// TestShortRollTiesSetting: a lone 5 against 5 3. An extra die wins the
// tie by default; with Rules.ShortRollTies the rolls truly tie and are
// recast. The exact model refuses that reading.
func TestShortRollTiesSetting(t *testing.T) {
	lone := Standard("Lone", MustStat(dice.D6), MustStat(dice.D10, dice.D8), MustStat(dice.D12, dice.D6, dice.D4),
		[5]string{Art, Grace, Guts, Guts, Art})
	for _, short := range []bool{false, true} {
		rules := DefaultRules()
		rules.ShortRollTies = short
		c, err := NewState(rules, []Party{
			{Name: "lone", Members: []Entry{{Character: lone, Endeavor: Asserting}}},
			{Name: "althesa", Members: []Entry{{Character: althesa(), Endeavor: Asserting}}},
		}, nil)
		must(t, err)
		r := dice.Scripted(5, 5, 3)
		must(t, Engine{}.Roll(c, r))
		must(t, Engine{}.Resolve(c))
		switch {
		case !short && (c.Phase != PhaseChallenge || c.Challenger != 1):
			t.Errorf("default reading: phase %v challenger %d, want Althesa's extra die to win", c.Phase, c.Challenger)
		case short && (c.Phase != PhaseCast || c.Recasts != 1):
			t.Errorf("short-roll ties: phase %v recasts %d, want a true tie recast", c.Phase, c.Recasts)
		}
	}
	rules := DefaultRules()
	rules.ShortRollTies = true
	if _, err := Duel(rules, []dice.Die{dice.D6}, []dice.Die{dice.D6, dice.D4}, true, true); !errors.Is(err, markov.ErrNoExact) {
		t.Errorf("Duel with short-roll ties: %v, want ErrNoExact", err)
	}
	s := DefaultScenario()
	s.Rules.ShortRollTies = true
	if _, err := s.Exact(context.Background()); !errors.Is(err, markov.ErrNoExact) {
		t.Errorf("Exact with short-roll ties: %v, want ErrNoExact", err)
	}
}

// TestOweOnEqualSidesPutsOnlyTheAnswererOnTheList: in the text's example Althesa's d10 d8 and
// Irin's d12 d6 both have 18 sides. By the text's rule nobody goes on the
// owe list; following its example (Rules.OweOnEqualSides) Irin, who
// answered the first exchange, does, and Althesa does not.
func TestOweOnEqualSidesPutsOnlyTheAnswererOnTheList(t *testing.T) {
	for _, equal := range []bool{false, true} {
		rules := DefaultRules()
		rules.OweOnEqualSides = equal
		c := duel(t, althesa(), irin(), "warrior_priestessing", Defending)
		c.Rules = rules
		r := dice.Scripted(8, 3, 4, 2, 7, 5)
		for c.Phase != PhaseStance {
			must(t, Engine{Policies: make([]Policy, 2)}.Step(c, r))
		}
		var want []Debt
		if equal {
			want = []Debt{{Name: "Irin", Player: "Irin", Fresh: true}}
		}
		if c.Owed != len(want) || !cmp.Equal(c.Owe, want, cmpopts.EquateEmpty()) {
			t.Errorf("owe_on_equal_sides %v: %d owed %v, want %v", equal, c.Owed, c.Owe, want)
		}
	}
}

// TestCrossOffsPerComparisonSetting: a second name crossed off at one
// comparison is refused by default and taken, with its advantage die,
// when Rules.CrossOffsPerComparison is 2.
func TestCrossOffsPerComparisonSetting(t *testing.T) {
	r := dice.Scripted(8, 3, 4, 2, 7, 5, 3, 4)
	c := oweDuel(t, r)
	c.Owe = append(c.Owe, Debt{Name: "Irin", Player: "Irin"})
	c.Rules.CrossOffsPerComparison = 2
	must(t, Engine{}.CrossOff(c, r, 1, 1))
	must(t, Engine{}.CrossOff(c, r, 1, 1))
	if c.Sides[1].Bonus != 7 || c.CrossOffs != 2 || len(c.Owe) != 1 {
		t.Errorf("bonus %d, %d cross-offs, owe %v: want 3+4, 2 and Althesa left", c.Sides[1].Bonus, c.CrossOffs, c.Owe)
	}
	wantErr(t, Engine{}.CrossOff(c, r, 1, 0), "already crossed 2 names off")
}

// TestAdvantageDiceSetting: a side that seizes the advantage twice in one
// round (possible with three sides) carries one advantage die by default
// and two with Rules.AdvantageDice 2, rolling both onto its high die.
func TestAdvantageDiceSetting(t *testing.T) {
	for _, most := range []int{1, 2} {
		rules := DefaultRules()
		rules.AdvantageDice = most
		c := threeSides(t, rules, threeD6("A", "a"), threeD6("B", "b"), threeD6("C", "c"))
		must(t, Engine{}.Roll(c, dice.Scripted(6, 6, 5, 1, 4, 1)))
		for _, answerer := range []int{1, 2} {
			c.Phase, c.Challenger, c.Answerer = PhaseStance, 0, answerer
			must(t, Engine{}.Stance(c, true))
		}
		if c.Phase != PhaseCast || c.Sides[0].Advantage != most {
			t.Fatalf("advantage_dice %d: phase %v, a carries %d", most, c.Phase, c.Sides[0].Advantage)
		}
		must(t, Engine{}.Roll(c, dice.Scripted(2, 1, 3, 4, 5, 1, 1, 1)))
		if want := []int{0, 3, 7}[most]; c.Sides[0].Bonus != want {
			t.Errorf("advantage_dice %d: bonus %d, want %d", most, c.Sides[0].Bonus, want)
		}
	}
}

// TestTieEndsRoundSetting: with three sides a true tie between a and c
// ends their exchange and b challenges next; with Rules.TieEndsRound a new
// round begins for everyone.
func TestTieEndsRoundSetting(t *testing.T) {
	for _, ends := range []bool{false, true} {
		rules := DefaultRules()
		rules.TieEndsRound = ends
		c := threeSides(t, rules, threeD6("A", "a"), threeD6("B", "b"), threeD6("C", "c"))
		// a 6 5 challenges c (2 1), who answers 6 5: a true tie.
		r := dice.Scripted(6, 5, 4, 1, 2, 1, 6, 5)
		must(t, Engine{}.Roll(c, r))
		must(t, Engine{}.Resolve(c))
		must(t, Engine{}.Challenge(c, 2))
		must(t, Engine{}.Interfere(c, -1))
		must(t, Engine{}.Roll(c, r))
		must(t, Engine{}.Resolve(c))
		switch {
		case !ends && (c.Phase != PhaseChallenge || c.Challenger != 1 || c.Round != 1):
			t.Errorf("default: phase %v challenger %d round %d, want b to challenge in round 1", c.Phase, c.Challenger, c.Round)
		case ends && (c.Phase != PhaseCast || c.Round != 2):
			t.Errorf("tie_ends_round: phase %v round %d, want a new round", c.Phase, c.Round)
		}
	}
}

// TestVulnerableToTargetSetting: a's specialization is vulnerable to
// "ward", which only c holds; a acts against b. By default c's sheet
// cancels it; with Rules.VulnerableToTarget only b's would.
func TestVulnerableToTargetSetting(t *testing.T) {
	a, cc := threeD6("A", "a"), threeD6("C", "c")
	a.Specializations = []Specialization{{Name: "blade", Endeavor: Asserting, Stat: Guts, VulnerableTo: "ward"}}
	cc.Specializations = []Specialization{{Name: "ward", Endeavor: Defending, Stat: Grace}}
	for _, target := range []bool{false, true} {
		rules := DefaultRules()
		rules.VulnerableToTarget = target
		c, err := NewState(rules, []Party{
			{Name: "a", Members: []Entry{{Character: a, Endeavor: Asserting, Specialization: "blade"}}, Target: "b"},
			{Name: "b", Members: []Entry{{Character: threeD6("B", "b"), Endeavor: Asserting}}},
			{Name: "c", Members: []Entry{{Character: cc, Endeavor: Asserting}}},
		}, nil)
		must(t, err)
		if got := c.Sides[0].Members[0].Cancelled; got == target {
			t.Errorf("vulnerable_to_target %v: cancelled %v", target, got)
		}
	}
}

// TestEmptyStatReadsZeroSetting: Pip's Art is empty. By default a
// character who must roll it is out, so with one opponent there is no
// conflict; with Rules.EmptyStatReadsZero Pip stays in, reads 0, and any
// challenge doubles him.
func TestEmptyStatReadsZeroSetting(t *testing.T) {
	pip := Standard("Pip", Stat{}, MustStat(dice.D12, dice.D10, dice.D6), MustStat(dice.D8, dice.D6, dice.D4),
		[5]string{Art, Grace, Guts, Guts, Art})
	parties := []Party{
		{Name: "pip", Members: []Entry{{Character: pip, Endeavor: Asserting}}},
		{Name: "althesa", Members: []Entry{{Character: althesa(), Endeavor: Asserting}}},
	}
	_, err := NewState(DefaultRules(), parties, nil)
	wantErr(t, err, "only 1 side can roll")
	rules := DefaultRules()
	rules.EmptyStatReadsZero = true
	c, err := NewState(rules, parties, nil)
	must(t, err)
	r := dice.Scripted(2, 1)
	for c.Phase != PhaseConsequence {
		must(t, Engine{Policies: make([]Policy, 2)}.Step(c, r))
	}
	if c.Challenger != 1 || c.Answerer != 0 || c.Sides[0].Read() != 0 {
		t.Errorf("challenger %d answerer %d, Pip reads %d: want Althesa's 2 to double Pip's 0", c.Challenger, c.Answerer, c.Sides[0].Read())
	}
	must(t, c.Check())
}

// TestD4StaysSetting: Irin, doubled, loses two sizes from Grace d10 d4. By
// default the d4 may take one and be gone; with Rules.D4Stays it has none
// to lose, so both come off the d10: the loss that finishes dice leaves
// d8 by default and d6 d4 with D4Stays.
func TestD4StaysSetting(t *testing.T) {
	for _, stays := range []bool{false, true} {
		rules := DefaultRules()
		rules.D4Stays = stays
		c := doubledDuel(t, rules)
		got, err := Engine{}.Losses(c, 0)
		must(t, err)
		want := []Loss{{Stat: Grace, Sizes: [MaxDice]int{1, 1}}, {Stat: Grace, Sizes: [MaxDice]int{2, 0}}}
		if stays {
			want = want[1:]
			wantErr(t, Engine{}.Injure(c, want[:0:0]), "1 characters")
			wantErr(t, Engine{}.Injure(c, []Loss{{Stat: Grace, Sizes: [MaxDice]int{1, 1}}}), "a d4 has only 0 sizes to lose")
		}
		if !cmp.Equal(got, want) {
			t.Errorf("d4_stays %v: losses %v, want %v", stays, got, want)
		}
		// Finish takes from the smallest die first.
		must(t, Engine{Policies: []Policy{&Style{Losses: Finish{}}, &Style{}}}.Play(c, dice.NewSeeded(1)))
		after := map[bool]Stat{false: MustStat(dice.D8), true: MustStat(dice.D6, dice.D4)}[stays]
		if s := c.Sides[1].Members[0].Stats[1]; s != after {
			t.Errorf("d4_stays %v: Grace %v after the finishing loss, want %v", stays, s, after)
		}
	}
}

// TestExactFollowsOweOnEqualSides: with the example's reading, the side
// that answers the first exchange of two equal sides goes on the owe list
// and may cross itself off later; Exact follows it, as a sample does.
func TestExactFollowsOweOnEqualSides(t *testing.T) {
	s := DefaultScenario()
	s.Rules.OweOnEqualSides = true
	s.Sides[0].Play.CrossOff, s.Sides[1].Play.CrossOff = "eager", "eager"
	got, err := s.Exact(context.Background())
	must(t, err)
	plain, err := DefaultScenario().Exact(context.Background())
	must(t, err)
	if math.Abs(got.P[0]-plain.P[0]) < 1e-3 {
		t.Errorf("P(althesa_outright) %.4f with the owe list as without: the setting changed nothing", got.P[0])
	}
	rn, err := s.NewRunner()
	must(t, err)
	r, n := dice.NewSeeded(36), 100_000
	counts := make([]int, len(s.Categories()))
	m := make([]int, len(s.Metrics()))
	owed := 0
	for range n {
		counts[trial(t, rn, r, m)]++
		owed += m[4]
	}
	for k, p := range got.P {
		if q, sd := float64(counts[k])/float64(n), math.Sqrt(p*(1-p)/float64(n)); math.Abs(q-p) > 4*sd+1e-9 {
			t.Errorf("%s: sampled %.4f, exact %.4f", s.Categories()[k], q, p)
		}
	}
	if owed == 0 || owed > n {
		t.Errorf("%d names owed in %d conflicts: want at most one each, and some", owed, n)
	}
}

// TestOweWaitsForNextConflictSetting: Althesa defending with Guts d12 d4
// (16 sides) against Irin's d12 d6 (18) goes on the owe list after the
// first exchange. By default she may cross her name off at the next
// comparison of the same conflict, and best play gains by it; with
// Rules.OweWaitsForNextConflict the name waits for a later conflict: the
// step refuses it, the cross-off parts pass, and her best play is that of
// never crossing off.
func TestOweWaitsForNextConflictSetting(t *testing.T) {
	s := DefaultScenario()
	s.Sides[0].Members[0].Endeavor = Defending
	s.Sides[0].Play.CrossOff = "eager"
	var best [2]float64
	for _, wait := range []bool{false, true} {
		s.Rules.OweWaitsForNextConflict = wait
		g, err := s.Start(dice.NewSeeded(0))
		must(t, err)
		c := g.(*Game).State()
		// Casts 8 3 against 4 2: Althesa challenges; Irin answers 7 5, over
		// half: Irin hangs in; her name goes on (his dice have more sides).
		r := dice.Scripted(8, 3, 4, 2, 7, 5, 9, 4, 6, 11, 3, 6, 1, 2, 2, 2, 2)
		for c.Owed == 0 {
			must(t, g.Step(r))
		}
		for c.Phase != PhaseCastRolled {
			must(t, g.Step(r))
		}
		k := slices.IndexFunc(c.Owe, func(d Debt) bool { return d.Name == "Althesa" })
		if k < 0 || !c.Owe[k].Fresh {
			t.Fatalf("owe list %v: Althesa's name not fresh on it", c.Owe)
		}
		err = Engine{}.CrossOff(c, r, 0, k)
		if wait {
			wantErr(t, err, "went on the owe list in this conflict")
			if got := (Engine{}).Crossables(c, 0); len(got) != 0 {
				t.Errorf("crossables %v while the name waits", got)
			}
		} else {
			must(t, err)
		}
		sv, err := s.Solve(context.Background(), markov.Goal{})
		must(t, err)
		best[b2i(wait)] = sv.Best.Value
		for _, p := range sv.Policies {
			if wait && strings.HasPrefix(p.Name, "cross_off/") {
				t.Errorf("wait: Solve weighs %s, with no name to cross off", p.Name)
			}
		}
	}
	if best[0] < best[1]+0.005 {
		t.Errorf("Althesa's best play: %.4f crossing her fresh name off, %.4f waiting", best[0], best[1])
	}
	// A name carried in from an earlier conflict is never fresh.
	c, err := NewState(DefaultRules(), []Party{{Name: "a", Members: []Entry{{Character: althesa(), Endeavor: Defending}}},
		{Name: "i", Members: []Entry{{Character: irin(), Endeavor: Defending}}}}, []Debt{{Name: "Althesa", Player: "Althesa", Fresh: true}})
	must(t, err)
	if c.Owe[0].Fresh {
		t.Error("a name from an earlier conflict came in fresh")
	}
}
