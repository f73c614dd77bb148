package challenge

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim/markov"
)

// crossAt is a cross-off policy that always answers k.
type crossAt struct{ k int }

func (p crossAt) CrossOff(*View, int) int { return p.k }

// rollerBytes is the Roller's saved state, to show a step drew nothing.
func rollerBytes(t *testing.T, r *dice.Roller) []byte {
	t.Helper()
	b, err := r.MarshalBinary()
	must(t, err)
	return b
}

// wantRefused runs step and checks that it fails with an error containing
// want and changes neither the state nor the Roller.
func wantRefused(t *testing.T, c *State, r *dice.Roller, want string, step func() error) {
	t.Helper()
	before, rb := snapshot(t, c), rollerBytes(t, r)
	wantErr(t, step(), want)
	if after := snapshot(t, c); after != before {
		t.Errorf("a refused step changed the state:\nbefore %s\nafter  %s", before, after)
	}
	if !bytes.Equal(rollerBytes(t, r), rb) {
		t.Errorf("a refused step drew from the Roller")
	}
}

// oweDuel is the text's duel with Althesa and Irin both on the owe list,
// played with passing cross-off policies up to Irin's first answer:
// Althesa casts 8 3 against Irin's 4 2, challenges, and Irin answers 7 5.
func oweDuel(t *testing.T, r *dice.Roller) *State {
	t.Helper()
	c, err := NewState(DefaultRules(), []Party{
		{Name: "althesa", Members: []Entry{{Character: althesa(), Endeavor: "warrior_priestessing"}}},
		{Name: "irin", Members: []Entry{{Character: irin(), Endeavor: Defending}}},
	}, []Debt{{Name: "Althesa", Player: "Althesa"}, {Name: "Irin", Player: "Irin"}})
	must(t, err)
	pass := []Policy{&Style{Cross: crossAt{-1}}, &Style{Cross: crossAt{-1}}}
	for c.Phase != PhaseAnswered {
		must(t, Engine{Policies: pass}.Step(c, r))
	}
	if c.Challenger != 0 || c.Answerer != 1 || !cmp.Equal(c.Sides[1].Faces, []int{7, 5}) {
		t.Fatalf("challenger %d answerer %d faces %v: want Althesa challenging and Irin's 7 5", c.Challenger, c.Answerer, c.Sides[1].Faces)
	}
	return c
}

// TestIllegalCrossOffLeavesEarlierSideCrossOffAsItsOwnStep: each side's
// cross-off is a step of its own, so when the answerer's legal cross-off
// is followed by the challenger's illegal one, the answerer's stands as
// the step it was and the refused step changes nothing (no owe entry gone,
// no advantage die rolled, CrossOffs unchanged).
func TestIllegalCrossOffLeavesEarlierSideCrossOffAsItsOwnStep(t *testing.T) {
	r := dice.Scripted(8, 3, 4, 2, 7, 5, 3)
	c := oweDuel(t, r)
	plays := []Policy{&Style{Cross: crossAt{1}}, &Style{Cross: crossAt{1}}}
	must(t, Engine{Policies: plays}.Step(c, r)) // Irin crosses himself off and rolls a 3
	if c.CrossOffs != 1 || c.Sides[1].Bonus != 3 || len(c.Owe) != 1 || c.Owe[0].Name != "Althesa" {
		t.Fatalf("after Irin's cross-off: %d cross-offs, bonus %d, owe %v", c.CrossOffs, c.Sides[1].Bonus, c.Owe)
	}
	// Althesa answers entry 1, which no longer exists.
	wantRefused(t, c, r, "owe entry 1 does not exist", func() error { return Engine{Policies: plays}.Step(c, r) })
}

// TestCrossOffAnswerBelowMinusOneIsRefused: only -1 means "none"; any
// other negative answer is an error, not a silent pass.
func TestCrossOffAnswerBelowMinusOneIsRefused(t *testing.T) {
	r := dice.Scripted(8, 3, 4, 2, 7, 5)
	c := oweDuel(t, r)
	wantRefused(t, c, r, "answered -5: give an owe-list index 0..1 or -1 for none", func() error {
		return Engine{Policies: []Policy{&Style{}, &Style{Cross: crossAt{-5}}}}.Step(c, r)
	})
}

// TestSecondCrossOffInOneComparisonIsRefused: at most one name per side
// per comparison [ours].
func TestSecondCrossOffInOneComparisonIsRefused(t *testing.T) {
	r := dice.Scripted(8, 3, 4, 2, 7, 5, 3)
	c := oweDuel(t, r)
	c.Owe = append(c.Owe, Debt{Name: "Irin", Player: "Irin"})
	must(t, Engine{}.CrossOff(c, r, 1, 1))
	wantRefused(t, c, r, "already crossed 1 names off in this comparison: rules.cross_offs_per_comparison allows 1", func() error { return Engine{}.CrossOff(c, r, 1, 1) })
}

// doubledDuel is the text's duel played to Althesa's outright win over
// Irin (PhaseConsequence).
func doubledDuel(t *testing.T, rules Rules) *State {
	t.Helper()
	c, err := NewState(rules, []Party{
		{Name: "althesa", Members: []Entry{{Character: althesa(), Endeavor: "warrior_priestessing"}}},
		{Name: "irin", Members: []Entry{{Character: irin(), Endeavor: Defending}}},
	}, nil)
	must(t, err)
	r := dice.Scripted(8, 3, 4, 2, 7, 5, 9, 4, 6, 11, 3, 6, 1)
	plays := make([]Policy, 2)
	for c.Phase != PhaseConsequence {
		must(t, Engine{Policies: plays}.Step(c, r))
	}
	return c
}

// TestSettlementNamingAnEndeavorTheLoserLacksIsRefused: a remap or a
// gained specialization must name an endeavor on the loser's sheet, so a
// settled conflict can always be finished into its campaign.
func TestSettlementNamingAnEndeavorTheLoserLacksIsRefused(t *testing.T) {
	r := dice.NewSeeded(1)
	for _, tc := range []struct {
		name string
		s    Settlement
		want string
	}{
		{"remap", Settlement{Remaps: []Remap{{Member: 0, Endeavor: "juggling", Stat: Grace}}}, `Irin has no endeavor "juggling"`},
		{"gain", Settlement{Gains: []Gain{{Member: 0, Specialization: Specialization{Name: "demon-marked", Endeavor: "demonology", Stat: Guts}}}},
			`Irin has no endeavor "demonology"`},
		{"remap to no stat", Settlement{Remaps: []Remap{{Member: 0, Endeavor: Defending, Stat: "luck"}}}, `name a stat of`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := doubledDuel(t, DefaultRules())
			wantRefused(t, c, r, tc.want, func() error { return Engine{}.Settle(c, tc.s) })
		})
	}
}

// TestNoInjurySizesEndsConflictWithoutLoss: with Rules.InjurySizes 0 an
// outright win takes nothing, under every shipped loss policy.
func TestNoInjurySizesEndsConflictWithoutLoss(t *testing.T) {
	for _, loss := range []string{"deepest", "spread", "finish"} {
		t.Run(loss, func(t *testing.T) {
			s := DefaultScenario()
			s.Rules.InjurySizes = 0
			s.Sides[0].Play.Loss, s.Sides[1].Play.Loss = loss, loss
			rn, err := s.NewRunner()
			must(t, err)
			r := dice.NewSeeded(3)
			m := make([]int, len(s.Metrics()))
			outright := 0
			for range 2000 {
				cat := trial(t, rn, r, m)
				if m[2] != 0 {
					t.Fatalf("sizes lost %d with InjurySizes 0", m[2])
				}
				if strings.HasSuffix(s.Categories()[cat], "_outright") {
					outright++
				}
			}
			if outright == 0 {
				t.Fatal("no outright wins")
			}
		})
	}
}

// TestMaxExchangesEndsInStalemate: once Rules.MaxExchanges answers have
// been rolled, the next answer ends the conflict with no winner.
func TestMaxExchangesEndsInStalemate(t *testing.T) {
	rules := DefaultRules()
	rules.MaxExchanges = 1
	c, err := NewState(rules, []Party{
		{Name: "althesa", Members: []Entry{{Character: althesa(), Endeavor: "warrior_priestessing"}}},
		{Name: "irin", Members: []Entry{{Character: irin(), Endeavor: Defending}}},
	}, nil)
	must(t, err)
	// Althesa 8 3 challenges Irin's 4 2; Irin answers 7 5 and hangs in;
	// the new round's cast (9 4 + advantage 6 against 11 3) has Althesa
	// challenge again, and the second answer is the stalemate.
	r := dice.Scripted(8, 3, 4, 2, 7, 5, 9, 4, 6, 11, 3)
	must(t, Engine{Policies: make([]Policy, 2)}.Play(c, r))
	if !c.Stalemate || c.Winner != -1 || c.Exchanges != 1 || c.Round != 2 {
		t.Fatalf("stalemate %v winner %d exchanges %d round %d: want a stalemate after one exchange, in round 2",
			c.Stalemate, c.Winner, c.Exchanges, c.Round)
	}
	s := DefaultScenario()
	s.Rules.MaxExchanges = 1
	rn, err := s.NewRunner()
	must(t, err)
	cats := map[string]int{}
	for range 500 {
		cats[s.Categories()[trial(t, rn, dice.NewSeeded(uint64(len(cats))), nil)]]++
	}
	if cats["stalemate"] == 0 {
		t.Errorf("no stalemate in 500 trials with MaxExchanges 1: %v", cats)
	}
}

// TestRecastRulings: a truly tied cast is recast while Rules.RecastTies
// holds and Rules.MaxRecasts allows; after that, or with RecastTies false,
// the earlier-listed side challenges.
func TestRecastRulings(t *testing.T) {
	for _, tc := range []struct {
		name       string
		recast     bool
		max        int
		faces      []int
		recasts    int
		challenger int
	}{
		{"no recasts", false, 40, []int{5, 3, 5, 3}, 0, 0},
		{"one recast allowed", true, 1, []int{5, 3, 5, 3, 6, 2, 6, 2}, 1, 0},
		{"recast then higher", true, 40, []int{5, 3, 5, 3, 4, 2, 6, 2}, 1, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rules := DefaultRules()
			rules.RecastTies, rules.MaxRecasts = tc.recast, tc.max
			c, err := NewState(rules, []Party{
				{Name: "a", Members: []Entry{{Character: althesa(), Endeavor: "warrior_priestessing"}}},
				{Name: "b", Members: []Entry{{Character: althesa(), Endeavor: "warrior_priestessing"}}},
			}, nil)
			must(t, err)
			r := dice.Scripted(tc.faces...)
			for c.Phase != PhaseChallenge {
				must(t, Engine{Policies: make([]Policy, 2)}.Step(c, r))
			}
			if c.Recasts != tc.recasts || c.Challenger != tc.challenger {
				t.Fatalf("recasts %d challenger %d, want %d and %d", c.Recasts, c.Challenger, tc.recasts, tc.challenger)
			}
		})
	}
}

// TestOpponentsFormalChallenges: the challenger may use its own
// specialization's formal challenges and the answerer's specialization's
// opponent challenges ("Someone uses a specialization").
func TestOpponentsFormalChallenges(t *testing.T) {
	a, i := althesa(), irin()
	a.Specializations = []Specialization{{Name: "blade", Endeavor: "warrior_priestessing", Stat: Guts,
		Challenges: []string{"open the throat"}, OpponentChallenges: []string{"disarm"}}}
	i.Specializations = []Specialization{{Name: "watchful", Endeavor: Defending, Stat: Art,
		Challenges: []string{"turn the blade"}, OpponentChallenges: []string{"catch him asleep"}}}
	c, err := NewState(DefaultRules(), []Party{
		{Name: "A", Members: []Entry{{Character: a, Endeavor: "warrior_priestessing", Specialization: "blade"}}},
		{Name: "I", Members: []Entry{{Character: i, Endeavor: Defending, Specialization: "watchful"}}},
	}, nil)
	must(t, err)
	c.Challenger, c.Answerer = 0, 1
	if d := cmp.Diff([]string{"open the throat", "catch him asleep"}, c.Challenges()); d != "" {
		t.Errorf("Althesa challenging (-want +got):\n%s", d)
	}
	c.Challenger, c.Answerer = 1, 0
	if d := cmp.Diff([]string{"turn the blade", "disarm"}, c.Challenges()); d != "" {
		t.Errorf("Irin challenging (-want +got):\n%s", d)
	}
}

// TestRestoredStateOutOfBoundsIsRefused: Check (run as a save is decoded)
// refuses a state that would send a step out of bounds or into a loop
// that never ends, and says what is allowed.
func TestRestoredStateOutOfBoundsIsRefused(t *testing.T) {
	r := dice.Scripted(8, 3, 4, 2, 7, 5)
	c := oweDuel(t, r) // PhaseAnswered: Althesa challenging, Irin answered 7 5
	good := snapshot(t, c)
	var back State
	must(t, json.Unmarshal([]byte(good), &back))
	for _, tc := range []struct{ name, from, to, want string }{
		{"turn out of range", `"answerer":1`, `"answerer":9`, "answerer 9: allowed -1..1"},
		{"answerer is the challenger", `"answerer":1`, `"answerer":0`, "a different answerer"},
		{"one side in", `"status":"in","dice":[12,6]`, `"status":"injured","dice":[12,6]`, "has 1 sides in"},
		{"challenger out", `"status":"in","dice":[10,8]`, `"status":"gave","dice":[10,8]`, "has 1 sides in"},
		{"face above its die", `"faces":[7,5]`, `"faces":[7,9]`, "shows 9 on a d6"},
		{"missing faces", `"faces":[7,5]`, `"faces":[7]`, "shows 1 faces for 2 dice"},
		{"bonus beyond three advantage dice", `"faces":[7,5],"bonus":0`, `"faces":[7,5],"bonus":19`, "bonus 19: allowed 0..18"},
		{"negative round", `"round":1`, `"round":-1`, "round out of range"},
		{"exchanges past the limit", `"exchanges":1`, `"exchanges":10001`, "exchanges out of range"},
		{"total sides", `"total_sides":18`, `"total_sides":99`, "total_sides 99"},
		{"target itself", `"target":-1`, `"target":0`, "target 0"},
		{"unsorted endeavors", `"warrior_priestessing","endeavors":["asserting_myself","defending_myself"`,
			`"warrior_priestessing","endeavors":["defending_myself","asserting_myself"`, "must be sorted"},
		{"no injury stat", `"injury_stats":[false,true,false,false,false,false]`, `"injury_stats":[false,false,false,false,false,false]`, "no stat exhaustion or injury"},
		{"owe entry without player", `"player":"Althesa"}`, `"player":""}`, "needs a name and a player"},
		{"empty side", `"members":[{"name":"Althesa"`, `"members":[],"x":[{"name":"Althesa"`, "has 0 characters"},
		{"unknown phase", `"phase":"answered"`, `"phase":"nap"`, `unknown challenge.Phase "nap"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bad := strings.Replace(good, tc.from, tc.to, 1)
			if bad == good {
				t.Fatalf("%s not in the save %s", tc.from, good)
			}
			var s State
			wantErr(t, json.Unmarshal([]byte(bad), &s), tc.want)
		})
	}
}

// TestEveryStateOfPlayPassesCheck: the states the steps make are the
// states Check accepts, at every step of many games. Among them, Althesa
// holds many names and crosses one off at every comparison she can, so a
// standing roll carries the round's advantage die, the name crossed off
// at the cast that set it and the one crossed off at the answer it meets
// (it was refused as a bonus beyond two dice).
func TestEveryStateOfPlayPassesCheck(t *testing.T) {
	many := OweScenario()
	for range 8 {
		many.Owe = append(many.Owe, Debt{Name: "Althesa", Player: "Althesa"})
	}
	for _, s := range []Scenario{DefaultScenario(), threeWay(), many} {
		for seed := range uint64(50) {
			c, plays, err := s.build()
			must(t, err)
			r := dice.NewSeeded(seed)
			for !c.Done() {
				must(t, Engine{Policies: plays}.Step(c, r))
				if err := c.Check(); err != nil {
					t.Fatalf("seed %d, phase %v: %v\n%s", seed, c.Phase, err, snapshot(t, c))
				}
			}
		}
	}
}

// TestLegalLossesAreTheLossesInjureTakes: Losses lists every way to take
// two sizes from Irin's Grace d10 d4 (his stat for exerting and enduring),
// and Injure takes each of them.
func TestLegalLossesAreTheLossesInjureTakes(t *testing.T) {
	c := doubledDuel(t, DefaultRules())
	got, err := Engine{}.Losses(c, 0)
	must(t, err)
	want := []Loss{{Stat: Grace, Sizes: [MaxDice]int{1, 1}}, {Stat: Grace, Sizes: [MaxDice]int{2, 0}}}
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("losses (-want +got):\n%s", d)
	}
	after := []Stat{MustStat(dice.D8), MustStat(dice.D6, dice.D4)}
	for k, l := range got {
		d := doubledDuel(t, DefaultRules())
		must(t, Engine{}.Injure(d, []Loss{l}))
		if s := d.Sides[1].Members[0].Stats[1]; s != after[k] {
			t.Errorf("%v leaves Grace %v, want %v", l, s, after[k])
		}
	}
	_, err = Engine{}.Losses(c, 1)
	wantErr(t, err, "member 1: side irin has members 0..0")
}

// TestCrossablesListTheLegalCrossOffs: at Irin's answer each side may
// cross off only its own player's names.
func TestCrossablesListTheLegalCrossOffs(t *testing.T) {
	c := oweDuel(t, dice.Scripted(8, 3, 4, 2, 7, 5))
	if a, i := (Engine{}).Crossables(c, 0), (Engine{}).Crossables(c, 1); !cmp.Equal(a, []int{0}) || !cmp.Equal(i, []int{1}) {
		t.Errorf("crossables: Althesa %v, Irin %v; want [0] and [1]", a, i)
	}
}

// TestGainNeedsALossInReturn: a settlement may give the loser a
// specialization only in exchange for die sizes lost in it
// (Rules.GainCost, 1 a specialization); with GainCost 0 a gain is free.
func TestGainNeedsALossInReturn(t *testing.T) {
	r := dice.NewSeeded(1)
	marked := Gain{Member: 0, Specialization: Specialization{Name: "demon-marked", Endeavor: Enduring, Stat: Guts}}
	c := doubledDuel(t, DefaultRules())
	wantRefused(t, c, r, "Irin gains 1 specializations but loses 0 die sizes: rules.gain_cost asks 1", func() error {
		return Engine{}.Settle(c, Settlement{Gains: []Gain{marked}})
	})
	must(t, Engine{}.Settle(c, Settlement{Gains: []Gain{marked},
		Changes: []Change{{Member: 0, Lose: Loss{Stat: Guts, Sizes: [MaxDice]int{1}}}}}))
	free := DefaultRules()
	free.GainCost = 0
	c = doubledDuel(t, free)
	must(t, Engine{}.Settle(c, Settlement{Gains: []Gain{marked}}))
}

// TestNextChapterAddsToTheSheet: at the setup of a new chapter a sheet may
// gain endeavors and specializations and move sizes; a bad addition is
// refused and changes nothing.
func TestNextChapterAddsToTheSheet(t *testing.T) {
	cp := &Campaign{Rules: DefaultRules(), Characters: []Character{althesa(), irin()}}
	must(t, cp.NextChapter(Chapter{Character: "Irin",
		Endeavors:       map[string]string{"courting_priestesses": Art, Defending: Grace},
		Specializations: []Specialization{{Name: "demon-marked", Endeavor: "courting_priestesses", Stat: Guts}},
		Moves:           []Move{{From: Guts, FromDie: 1, To: Art, ToDie: 1, Sizes: 1}},
	}))
	irin := cp.Characters[1]
	if irin.Endeavors["courting_priestesses"] != Art || irin.Endeavors[Defending] != Grace || len(irin.Specializations) != 1 ||
		irin.Stats[Guts] != MustStat(dice.D12, dice.D4) || irin.Stats[Art] != MustStat(dice.D8, dice.D8) {
		t.Errorf("after the chapter: %+v", irin)
	}
	before, err := json.Marshal(cp)
	must(t, err)
	for _, tc := range []struct {
		ch   Chapter
		want string
	}{
		{Chapter{Character: "Mitch"}, `no character "Mitch"`},
		{Chapter{Character: "Irin", Endeavors: map[string]string{"juggling": "luck"}}, `maps to unknown stat "luck"`},
		{Chapter{Character: "Irin", Specializations: []Specialization{{Name: "demon-marked", Endeavor: Defending, Stat: Art}}}, "already has"},
		{Chapter{Character: "Irin", Moves: []Move{{From: Guts, FromDie: 0, To: Art, ToDie: 0, Sizes: 5}}}, "would pass d12"},
	} {
		wantErr(t, cp.NextChapter(tc.ch), tc.want)
		if after, _ := json.Marshal(cp); !bytes.Equal(after, before) {
			t.Errorf("a refused chapter changed the campaign:\n%s\n%s", before, after)
		}
	}
}

// TestStateEditedByHandIsRefusedNotIndexed: the State's fields are
// exported; a step refuses a state whose turn does not fit its phase
// instead of reading out of range.
func TestStateEditedByHandIsRefusedNotIndexed(t *testing.T) {
	r := dice.NewSeeded(1)
	for _, tc := range []struct {
		name string
		edit func(c *State)
		want string
	}{
		{"challenger gone", func(c *State) { c.Phase, c.Challenger = PhaseChallenge, -1 }, "needs a challenger still in"},
		{"answerer out of range", func(c *State) { c.Phase, c.Answerer = PhaseStance, 7 }, "answerer 7: allowed -1..1"},
		{"faces lost", func(c *State) { c.Phase, c.Sides[0].Faces = PhaseCastRolled, nil }, "shows 0 faces for 2 dice"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := duel(t, althesa(), irin(), "warrior_priestessing", Defending)
			must(t, Engine{}.Roll(c, dice.Scripted(8, 3, 4, 2)))
			tc.edit(c)
			wantRefused(t, c, r, tc.want, func() error { return Engine{Policies: make([]Policy, 2)}.Step(c, r) })
			wantRefused(t, c, r, tc.want, func() error { return Engine{Policies: make([]Policy, 2)}.Play(c, r) })
		})
	}
}

// TestInjuryTakesAllAStatHasWhenShort: exhaustion or injury takes
// Rules.InjurySizes sizes, or all the stat has when it has fewer; an empty
// stat is a choice only when every injury stat is empty.
func TestInjuryTakesAllAStatHasWhenShort(t *testing.T) {
	gi, ui := 1, 2 // Grace and Guts in DefaultRules().Stats
	for _, tc := range []struct {
		name         string
		grace, guts  Stat
		gutsInjury   bool
		loss         Loss
		want         string // error text; "" for accepted
		graceAfter   Stat
		wantSizeLost int
	}{
		{"a d4 gives its one size", MustStat(dice.D4), Stat{}, false, Loss{Stat: Grace, Sizes: [MaxDice]int{1}}, "", Stat{}, 1},
		{"a d4 cannot be spared", MustStat(dice.D4), Stat{}, false, Loss{Stat: Grace}, "must lose 1 sizes", MustStat(dice.D4), 0},
		{"two sizes from a d6", MustStat(dice.D6), Stat{}, false, Loss{Stat: Grace, Sizes: [MaxDice]int{2}}, "", Stat{}, 2},
		{"three sizes are too many", MustStat(dice.D8), Stat{}, false, Loss{Stat: Grace, Sizes: [MaxDice]int{3}}, "must lose 2 sizes", MustStat(dice.D8), 0},
		{"empty with nothing else", Stat{}, MustStat(dice.D8), false, Loss{Stat: Grace}, "", Stat{}, 0},
		{"empty while guts has dice", Stat{}, MustStat(dice.D8), true, Loss{Stat: Grace}, "take from guts", Stat{}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := doubledDuel(t, DefaultRules())
			mem := &c.Sides[1].Members[0]
			mem.Stats[gi], mem.Stats[ui] = tc.grace, tc.guts
			mem.InjuryStats[ui] = tc.gutsInjury
			err := Engine{}.Injure(c, []Loss{tc.loss})
			if tc.want != "" {
				wantErr(t, err, tc.want)
				wantPhase(t, c, PhaseConsequence)
			} else {
				must(t, err)
				wantPhase(t, c, PhaseDone)
			}
			if mem.Stats[gi] != tc.graceAfter || c.SizesLost != tc.wantSizeLost {
				t.Errorf("grace %v, sizes lost %d; want %v, %d", mem.Stats[gi], c.SizesLost, tc.graceAfter, tc.wantSizeLost)
			}
		})
	}
}

// TestExactModelsMaxRecasts: Exact follows the Engine's limit on recasts
// (after the last, the earlier-listed side challenges): with none, the
// answer is that of RecastTies off, and it matches a sample; the model
// with cross-offs refuses a limit that matters.
func TestExactModelsMaxRecasts(t *testing.T) {
	s := DefaultScenario()
	s.Rules.MaxRecasts = 0
	got, err := s.Exact(context.Background())
	must(t, err)
	off := DefaultScenario()
	off.Rules.RecastTies = false
	want, err := off.Exact(context.Background())
	must(t, err)
	if math.Abs(got.P[0]-want.P[0]) > 1e-12 || math.Abs(got.P[0]-0.36721426940133134) > 1e-12 {
		t.Errorf("max_recasts 0: P(althesa_outright) %.15g; RecastTies off %.15g; want 0.367214269401331", got.P[0], want.P[0])
	}
	rn, err := s.NewRunner()
	must(t, err)
	r, n, wins := dice.NewSeeded(35), 100_000, 0
	for range n {
		wins += b2i(trial(t, rn, r, nil) == 0)
	}
	if p, sd := float64(wins)/float64(n), math.Sqrt(got.P[0]*(1-got.P[0])/float64(n)); math.Abs(p-got.P[0]) > 4*sd {
		t.Errorf("sampled %.4f, exact %.4f", p, got.P[0])
	}
	// The default limit changes nothing at 1e-12.
	def, err := DefaultScenario().Exact(context.Background())
	must(t, err)
	if math.Abs(def.P[0]-0.36477541232123106) > 1e-12 {
		t.Errorf("default P(althesa_outright) %.15g", def.P[0])
	}
	owe := OweScenario()
	owe.Rules.MaxRecasts = 3
	if _, err := owe.Exact(context.Background()); !errors.Is(err, markov.ErrNoExact) || !strings.Contains(err.Error(), "max_recasts = 3") {
		t.Errorf("owe scenario, max_recasts 3: %v", err)
	}
}

// TestExactAndSolveRefuseWhenMaxExchangesMatters: a limit of exchanges a
// conflict may well reach (one: a stalemate 78% of the time) is refused by
// Exact and Solve alike, with the reason; the default limit is not.
func TestExactAndSolveRefuseWhenMaxExchangesMatters(t *testing.T) {
	for name, s := range map[string]Scenario{"default": DefaultScenario(), "owe": OweScenario()} {
		for _, n := range []int{1, 20, 100} {
			s.Rules.MaxExchanges = n
			if _, err := s.Exact(context.Background()); !errors.Is(err, markov.ErrNoExact) || !strings.Contains(err.Error(), "max_exchanges") {
				t.Errorf("%s, max_exchanges %d: Exact: %v", name, n, err)
			}
			if _, err := s.Solve(context.Background(), markov.Goal{}); !errors.Is(err, markov.ErrNoExact) {
				t.Errorf("%s, max_exchanges %d: Solve: %v", name, n, err)
			}
		}
		s.Rules.MaxExchanges = 1
		rn, err := s.NewRunner()
		must(t, err)
		stalemates := 0
		for seed := range uint64(1000) {
			stalemates += b2i(s.Categories()[trial(t, rn, dice.NewSeeded(seed), nil)] == "stalemate")
		}
		if stalemates < 500 {
			t.Errorf("%s: %d stalemates in 1000 with max_exchanges 1: the refusal guards nothing", name, stalemates)
		}
		s.Rules.MaxExchanges = DefaultRules().MaxExchanges
		if _, err := s.Exact(context.Background()); err != nil {
			t.Errorf("%s, default max_exchanges: %v", name, err)
		}
	}
}

// heavyDuel is the text's duel with four d12 against four dice: about
// three seconds of exact work on an idle machine.
func heavyDuel() Scenario {
	s := DefaultScenario()
	s.Sides[0].Members[0].Character.Stats[Art] = MustStat(dice.D12, dice.D12, dice.D12, dice.D12)
	s.Sides[1].Members[0].Character.Stats[Guts] = MustStat(dice.D12, dice.D12, dice.D12, dice.D10)
	return s
}

// heavyThree is three sides of d8 d6 d4 each, a d2 advantage die: about a
// second and a half of exact work for the model of three sides.
func heavyThree() Scenario {
	s := smallThree(dice.D4, dice.D4, dice.D4)
	s.Rules.DicePerStat = 3
	s.Rules.Allotment = []dice.Die{dice.D12, dice.D10, dice.D8, dice.D6, dice.D6, dice.D4, dice.D4, dice.D4, dice.D4}
	s.Rules.AdvantageDie = dice.D2
	for i := range s.Sides {
		s.Sides[i].Members[0].Character.Stats[Art] = MustStat(dice.D8, dice.D6, dice.D4)
	}
	return s
}

// TestExactAndSolveStopWithinATenthOfASecondOfTheirDeadline: Exact and
// Solve of a duel whose rounds take seconds to solve, and Exact and Solve
// of three sides whose casts take as long to lay out, return the
// context's error soon after it is done (the test allows a second, for a
// loaded machine; the work between checks is a few milliseconds).
func TestExactAndSolveStopWithinATenthOfASecondOfTheirDeadline(t *testing.T) {
	if testing.Short() {
		t.Skip("seconds of exact work")
	}
	s, three, pairs := heavyDuel(), heavyThree(), smallThree(dice.D4, dice.D4, dice.D4)
	for i := range pairs.Sides {
		pairs.Sides[i].Members[0].Character.Stats[Art] = MustStat(dice.D6, dice.D4)
	}
	for name, run := range map[string]func(context.Context) error{
		"Exact": func(ctx context.Context) error { _, err := s.Exact(ctx); return err },
		"Exact of three sides": func(ctx context.Context) error {
			_, err := three.Exact(ctx)
			return err
		},
		"Solve of three sides": func(ctx context.Context) error {
			_, err := pairs.Solve(ctx, markov.Goal{})
			return err
		},
		"Solve": func(ctx context.Context) error { _, err := s.Solve(ctx, markov.Goal{}); return err },
		"Optimal": func(ctx context.Context) error {
			_, err := s.Optimal(ctx, markov.Goal{}, markov.Maximize)
			return err
		},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		start := time.Now()
		err := run(ctx)
		late := time.Since(start) - 50*time.Millisecond
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("%s: %v, want the deadline's error", name, err)
		}
		t.Logf("%s: returned %v after its deadline", name, late)
		if late > time.Second {
			t.Errorf("%s: returned %v after its deadline", name, late)
		}
	}
}

// TestValidateRefusesTrialsWithoutBoundedWork: a scenario whose conflicts
// can never be won outright (double_factor 100) and may run 10^8
// exchanges is refused with the reason; the longest conflict Validate
// allows plays out in well under a second.
func TestValidateRefusesTrialsWithoutBoundedWork(t *testing.T) {
	s := DefaultScenario()
	s.Rules.DoubleFactor, s.Rules.MaxExchanges = 100, 100_000_000
	wantErr(t, s.Validate(), "rules.max_exchanges 100000000 with rules.max_recasts 40: a conflict may take 4200000041 rolls before it must end; allowed at most 524288")
	s.Rules.MaxExchanges, s.Rules.MaxRecasts = 10_000, 1_000_000
	wantErr(t, s.Validate(), "lower either")
	must(t, DefaultScenario().Validate())
	// The longest allowed: no recasts, and every exchange a hang-in.
	s.Rules.MaxRecasts, s.Rules.MaxExchanges = 0, maxTrialRolls/2-1
	rn, err := s.NewRunner()
	must(t, err)
	m := make([]int, len(s.Metrics()))
	start := time.Now()
	if cat := trial(t, rn, dice.NewSeeded(1), m); s.Categories()[cat] != "stalemate" || m[1] != s.Rules.MaxExchanges {
		t.Errorf("%s after %d exchanges, want a stalemate after %d", s.Categories()[cat], m[1], s.Rules.MaxExchanges)
	}
	// (Timed only in full runs: the race detector slows play tenfold.)
	if d := time.Since(start); d > time.Second && !testing.Short() {
		t.Errorf("the longest conflict allowed took %v", d)
	}
}

// TestErrorsStayShortWhateverTheNames: names past MaxName are refused
// without being quoted, and an unknown endeavor among many lists a few
// and counts the rest.
func TestErrorsStayShortWhateverTheNames(t *testing.T) {
	long := strings.Repeat("x", 1<<20)
	for name, edit := range map[string]func(*Scenario){
		"side":      func(s *Scenario) { s.Sides[0].Name = long },
		"character": func(s *Scenario) { s.Sides[0].Members[0].Character.Name = long },
		"endeavor":  func(s *Scenario) { s.Sides[0].Members[0].Character.Endeavors[long] = Art },
		"owe":       func(s *Scenario) { s.Owe = []Debt{{Name: long, Player: "Irin"}} },
		"stat":      func(s *Scenario) { s.Rules.Stats = append(s.Rules.Stats, long) },
		"asked for": func(s *Scenario) { s.Sides[0].Members[0].Endeavor = long },
	} {
		s := DefaultScenario()
		a := &s.Sides[0].Members[0].Character
		a.Endeavors = maps.Clone(a.Endeavors)
		edit(&s)
		err := s.Validate()
		if err == nil || len(err.Error()) > 400 {
			t.Errorf("%s: %d bytes of error: %.200v", name, len(fmt.Sprint(err)), err)
		}
	}
	c := althesa()
	for i := range 2000 {
		c.Endeavors[fmt.Sprintf("endeavor_%d", i)] = Art
	}
	_, err := c.EndeavorStat("sailing")
	wantErr(t, err, "and 2001 more")
	if len(err.Error()) > 400 {
		t.Errorf("%d bytes of error", len(err.Error()))
	}
}

// TestValidateRefusesConflictsThatMayRollTooManyDice: eight sides of four
// characters, each rolling two dice, may roll some 30 million dice in one
// conflict under the default rules (10,000 exchanges, 40 recasts a
// round): Validate refuses it with the count and what to lower; without
// recasts it is accepted, and its longest conflict (no answer ever
// doubled) ends in a stalemate.
func TestValidateRefusesConflictsThatMayRollTooManyDice(t *testing.T) {
	s := DefaultScenario()
	s.Sides = nil
	for i := range MaxSides {
		sd := ScenarioSide{Name: fmt.Sprintf("side%d", i)}
		for m := range MaxMembers {
			ch := althesa()
			ch.Name, ch.Player = fmt.Sprintf("C%d_%d", i, m), fmt.Sprintf("p%d", i)
			sd.Members = append(sd.Members, Entry{Character: ch, Endeavor: Asserting})
		}
		s.Sides = append(s.Sides, sd)
	}
	wantErr(t, s.Validate(), "a conflict may roll 29633840 dice before it must end (410328 casts of 72 dice, 10000 answers of up to 9): allowed at most 8388608; lower rules.max_exchanges or rules.max_recasts, or roll fewer dice")
	s.Rules.MaxRecasts, s.Rules.DoubleFactor = 0, 100
	must(t, s.Validate())
	rn, err := s.NewRunner()
	must(t, err)
	m := make([]int, len(s.Metrics()))
	if cat := trial(t, rn, dice.NewSeeded(1), m); s.Categories()[cat] != "stalemate" || m[1] != s.Rules.MaxExchanges {
		t.Errorf("%s after %d exchanges, want a stalemate after %d", s.Categories()[cat], m[1], s.Rules.MaxExchanges)
	}
}

// TestAStatSavedSmallestDieFirstRestoresToTheSameBytes: a game whose
// sheets hold stats written smallest die first ("d4 d10", "d6 d12") saves
// them so, and its save restores and saves again to the same bytes (the
// notation once read back sorted, "d10 d4", and 54 of 11,326 reached
// states saved other bytes).
func TestAStatSavedSmallestDieFirstRestoresToTheSameBytes(t *testing.T) {
	s := shapes()["unsorted"]
	g := start(t, s)
	b := save(t, g)
	if !bytes.Contains(b, []byte(`"d6 d12"`)) || !bytes.Contains(b, []byte(`"d4 d10"`)) {
		t.Fatalf("the save does not keep the stats as written: %s", b)
	}
	back, err := s.Restore(b)
	must(t, err)
	if again := save(t, back); !bytes.Equal(again, b) {
		t.Errorf("saved\n%s\nrestored and saved\n%s", b, again)
	}
}
