package edge

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim/markov"
)

// duelOf is a social interaction of two one-member parties, A (persuasion
// +5) and B (persuasion +3), under rules.
func duelOf(rules Rules) Scenario {
	return Scenario{Rules: rules, Type: "social", Parties: []Party{
		one("A", map[string]int{"persuasion": 5, "perception": 4}),
		one("B", map[string]int{"persuasion": 3, "perception": 1}),
	}}
}

// persuade is a declaration of the holder of the initiative persuading the
// other of two parties, who answers in kind.
func persuade(t *testing.T, in *session) *Declaration {
	t.Helper()
	per := skill(t, in, "persuasion")
	a := in.Initiative()
	return &Declaration{Action: Action{Party: a, Targets: []int{1 - a}, Checks: []Use{{Member: 0, Skill: per}}},
		Reactions: []Reaction{{Party: 1 - a, Checks: []Use{{Member: 0, Skill: per}}}}}
}

// TestTieBreakSetting: B holds the initiative and both persuasion checks
// total 15 (A 10+5, B 12+3). By modifier A ranks higher: it wins B's die
// and, by the same ranking, the initiative (it used to win the die but not
// the initiative). Level: nothing moves and B keeps the initiative.
func TestTieBreakSetting(t *testing.T) {
	tests := []struct {
		tie        TieBreak
		edge       []int
		initiative int
	}{
		{ByModifier, []int{6, 4}, 0},
		{Level, []int{5, 5}, 1},
	}
	for _, tc := range tests {
		t.Run(tc.tie.String(), func(t *testing.T) {
			rules := DefaultRules()
			rules.TieBreak = tc.tie
			in := started(t, duelOf(rules), 1, 20) // perception: A 5, B 21
			if err := in.Round(dice.Scripted(12, 10), persuade(t, in)); err != nil {
				t.Fatal(err)
			}
			if got := []int{in.Edge(0), in.Edge(1)}; !cmp.Equal(got, tc.edge) || in.Initiative() != tc.initiative {
				t.Errorf("edge %v initiative %d, want %v and %d", got, in.Initiative(), tc.edge, tc.initiative)
			}
		})
	}
}

// TestInitiativeTieSetting: B starts first in the order of action, A takes
// the initiative in round 1; in round 2 the checks rank level (TieBreak
// Level, both total 15). The holder A keeps it, or B, earlier in the
// order, takes it.
func TestInitiativeTieSetting(t *testing.T) {
	for _, tc := range []struct {
		tie  InitiativeTie
		want int
	}{{HolderKeeps, 0}, {EarlierInOrder, 1}} {
		t.Run(tc.tie.String(), func(t *testing.T) {
			rules := DefaultRules()
			rules.TieBreak, rules.InitiativeTie = Level, tc.tie
			in := started(t, duelOf(rules), 1, 20)
			// Round 1: B 2+3 = 5, A 15+5 = 20.
			if err := in.Round(dice.Scripted(2, 15), persuade(t, in)); err != nil || in.Initiative() != 0 {
				t.Fatalf("round 1: %v, initiative %d", err, in.Initiative())
			}
			// Round 2: A 10+5 = 15, B 12+3 = 15.
			if err := in.Round(dice.Scripted(10, 12), persuade(t, in)); err != nil {
				t.Fatal(err)
			}
			if in.Initiative() != tc.want {
				t.Errorf("initiative %d, want %d", in.Initiative(), tc.want)
			}
		})
	}
}

// TestPassiveStakeSetting: two searchers check against a passive party
// and both beat it; it loses a die per check, or one a round.
func TestPassiveStakeSetting(t *testing.T) {
	for _, tc := range []struct {
		stake PassiveStake
		want  []int
	}{{PerCheck, []int{7, 3}}, {PerRound, []int{6, 4}}} {
		t.Run(tc.stake.String(), func(t *testing.T) {
			rules := DefaultRules()
			rules.Types["search"] = Type{Start: "perception", Seize: "perception", Skills: []string{"perception"}}
			rules.PassiveStake = tc.stake
			in := started(t, Scenario{Rules: rules, Type: "search", Parties: []Party{
				{Name: "squad", Members: []Member{{Name: "Ann", Skills: map[string]int{"perception": 3}}, {Name: "Ben", Skills: map[string]int{"perception": 3}}}},
				{Name: "bombs", Passive: true, Members: []Member{{Name: "bomb", Skills: map[string]int{"stealth": 1}}}},
			}}, 20)
			per := skill(t, in, "perception")
			d := &Declaration{Action: Action{Party: 0, Targets: []int{1}, Checks: []Use{{Member: 0, Skill: per}, {Member: 1, Skill: per}}}}
			if err := in.Round(dice.Scripted(15, 15, 2, 2), d); err != nil {
				t.Fatal(err)
			}
			if got := []int{in.Edge(0), in.Edge(1)}; !cmp.Equal(got, tc.want) {
				t.Errorf("edge %v, want %v", got, tc.want)
			}
		})
	}
}

// TestSurrenderToSetting: A holds the initiative with 5 dice, C holds 7;
// B surrenders its 5.
func TestSurrenderToSetting(t *testing.T) {
	for _, tc := range []struct {
		to   SurrenderTo
		want []int
	}{{ToInitiative, []int{10, 0, 7}}, {ToMostDice, []int{5, 0, 12}}} {
		t.Run(tc.to.String(), func(t *testing.T) {
			rules := DefaultRules()
			rules.SurrenderTo = tc.to
			s := Scenario{Rules: rules, Type: "social", Parties: []Party{one("A", nil), one("B", nil), {Name: "C", BonusEdge: 2, Members: []Member{{Name: "C"}}}}}
			in := started(t, s, 20, 1, 1)
			if err := in.Concede(1, Surrender); err != nil {
				t.Fatal(err)
			}
			if got := []int{in.Edge(0), in.Edge(1), in.Edge(2)}; !cmp.Equal(got, tc.want) {
				t.Errorf("edge %v, want %v", got, tc.want)
			}
		})
	}
}

// TestPartyCheckSetting: a party of a weak first member (reflex +0) and a
// strong second (+6) makes its starting check with one or the other.
func TestPartyCheckSetting(t *testing.T) {
	for _, tc := range []struct {
		who    PartyCheck
		member string
		total  int
	}{{BestMember, "strong", 16}, {FirstMember, "weak", 10}} {
		t.Run(tc.who.String(), func(t *testing.T) {
			rules := DefaultRules()
			rules.PartyCheck = tc.who
			in, err := newSession(Scenario{Rules: rules, Type: "chase", Parties: []Party{
				{Name: "car", Members: []Member{{Name: "weak"}, {Name: "strong", Skills: map[string]int{"reflex": 6}}}},
				one("bike", map[string]int{"reflex": 2}),
			}})
			if err != nil {
				t.Fatal(err)
			}
			rec := &Recorder{}
			in.Sink = rec.Record
			if err := in.Start(dice.Scripted(10, 10)); err != nil {
				t.Fatal(err)
			}
			e := rec.Of(EvStart)[0]
			if e.Member != tc.member || e.Total != tc.total {
				t.Errorf("starting check by member %q totalling %d, want %q and %d", e.Member, e.Total, tc.member, tc.total)
			}
		})
	}
}

// TestFactorPenaltySetting: an outside factor nobody passes (DC 30, -1)
// before round 1; after round 1 the penalty stands or is gone.
func TestFactorPenaltySetting(t *testing.T) {
	for _, tc := range []struct {
		lasts FactorPenalty
		after int
	}{{Lasting, -1}, {NextRound, 0}} {
		t.Run(tc.lasts.String(), func(t *testing.T) {
			s := thiefChase(Factor{After: 0, Skill: "endurance", DC: 30, Penalty: -1})
			s.Rules.FactorPenalty = tc.lasts
			in := started(t, s, 20, 1)
			if err := in.Factors(dice.Scripted(1, 1)); err != nil {
				t.Fatal(err)
			}
			rec := &Recorder{}
			in.Sink = rec.Record
			if err := in.Round(dice.Scripted(10, 10), athletics(t, in)); err != nil {
				t.Fatal(err)
			}
			if mods := []int{rec.Of(EvCheck)[0].Mod, rec.Of(EvCheck)[1].Mod}; !cmp.Equal(mods, []int{4, 2}) {
				t.Errorf("round 1 modifiers %v, want [4 2]: athletics less the penalty", mods)
			}
			if got := in.State().Parties[0].Members[0].Penalty; got != tc.after {
				t.Errorf("penalty after round 1: %d, want %d", got, tc.after)
			}
		})
	}
}

// TestCheckModifiers: a check's modifier adds the skill, the scenario's
// circumstance for the skill, the party's bonus and the bonus or penalty
// for that one check ("Resolving a Wager": a slick roof).
func TestCheckModifiers(t *testing.T) {
	s := Scenario{Rules: DefaultRules(), Type: "chase", Circumstances: map[string]int{"acrobatics": -2}, Parties: []Party{
		{Name: "thief", Bonus: 1, Members: []Member{{Name: "thief", Skills: map[string]int{"acrobatics": 6}}}},
		{Name: "guard", Members: []Member{{Name: "guard", Skills: map[string]int{"acrobatics": 2}}}},
	}}
	in := started(t, s, 20, 1)
	rec := &Recorder{}
	in.Sink = rec.Record
	acro := skill(t, in, "acrobatics")
	d := &Declaration{Action: Action{Party: 0, Targets: []int{1}, Checks: []Use{{Member: 0, Skill: acro, Mod: -3}}},
		Reactions: []Reaction{{Party: 1, Checks: []Use{{Member: 0, Skill: acro, Mod: 2}}}}}
	if err := in.Round(dice.Scripted(10, 10), d); err != nil {
		t.Fatal(err)
	}
	var mods []int
	for _, e := range rec.Of(EvCheck) {
		mods = append(mods, e.Mod)
	}
	// Thief 6 - 2 + 1 - 3 = 2; guard 2 - 2 + 2 = 2.
	if !cmp.Equal(mods, []int{2, 2}) {
		t.Errorf("modifiers %v, want [2 2]", mods)
	}
	d.Action.Checks[0].Mod = MaxModifier + 1
	if err := in.Round(dice.Scripted(10, 10), d); err == nil || !strings.Contains(err.Error(), "modifier for this check") {
		t.Errorf("a per-check modifier beyond the bounds: %v", err)
	}
}

// TestRulingsReadAsNames: the rulings write and read as names, and a
// number that is no setting is refused.
func TestRulingsReadAsNames(t *testing.T) {
	r := DefaultRules()
	r.TieBreak, r.InitiativeTie, r.PassiveStake = Level, EarlierInOrder, PerRound
	r.SurrenderTo, r.PartyCheck, r.FactorPenalty = ToMostDice, FirstMember, NextRound
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{`"tie_break":"level"`, `"initiative_tie":"earlier_in_order"`, `"passive_stake":"per_round"`,
		`"surrender_to":"most_dice"`, `"party_check":"first_member"`, `"factor_penalty":"next_round"`} {
		if !strings.Contains(string(b), name) {
			t.Errorf("rules JSON lacks %s", name)
		}
	}
	var back Rules
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.TieBreak != Level || back.FactorPenalty != NextRound || back.Validate() != nil {
		t.Errorf("rulings did not round-trip: %+v", back)
	}
	r.SurrenderTo = 9
	if err := r.Validate(); err == nil || !strings.Contains(err.Error(), "surrender_to") {
		t.Errorf("surrender_to 9: %v", err)
	}
	if err := json.Unmarshal([]byte(`{"tie_break":"coin"}`), &back); err == nil {
		t.Error("an unknown tie_break name was read")
	}
}

// TestTurnsSetting: three courtiers. With every party acting, each takes a
// turn (A, then C, then B, the order of action) before the round ends, and
// the round's highest single result, C's 23 in its own turn, takes the
// initiative. Only the holder acting, the round ends after A's exchange.
func TestTurnsSetting(t *testing.T) {
	three := func(turns Turns) *session {
		rules := DefaultRules()
		rules.Turns = turns
		return started(t, Scenario{Rules: rules, Type: "social", Parties: []Party{
			one("A", map[string]int{"persuasion": 3}), one("B", map[string]int{"persuasion": 2}), one("C", map[string]int{"persuasion": 4}),
		}}, 20, 1, 10) // perception: A 20, B 1, C 10
	}
	decl := func(in *session, actor, target int) *Declaration {
		per := skill(t, in, "persuasion")
		return &Declaration{Action: Action{Party: actor, Targets: []int{target}, Checks: []Use{{Member: 0, Skill: per}}},
			Reactions: []Reaction{{Party: target, Checks: []Use{{Member: 0, Skill: per}}}}}
	}
	in := three(EveryParty)
	turns := []struct {
		actor, target int
		faces         []int
	}{
		{0, 1, []int{15, 5}},  // A 18 beats B 7
		{2, 0, []int{19, 12}}, // C 23 beats A 14 (persuasion again, -1)
		{1, 2, []int{17, 2}},  // B 19 beats C 5
	}
	for i, tc := range turns {
		if in.Played() != 0 {
			t.Fatalf("turn %d: round %d, want 0 until every party has acted", i, in.Played())
		}
		wrong := decl(in, (tc.actor+1)%3, tc.actor)
		if err := in.Round(dice.Scripted(tc.faces...), wrong); err == nil || !strings.Contains(err.Error(), "turn to act") {
			t.Fatalf("turn %d: party %d acted out of turn: %v", i, wrong.Action.Party, err)
		}
		if err := in.Round(dice.Scripted(tc.faces...), decl(in, tc.actor, tc.target)); err != nil {
			t.Fatalf("turn %d: %v", i, err)
		}
	}
	if in.Played() != 1 || in.Initiative() != 2 {
		t.Errorf("after three turns: round %d, initiative %d; want 1 and C", in.Played(), in.Initiative())
	}
	if got := []int{in.Edge(0), in.Edge(1), in.Edge(2)}; !cmp.Equal(got, []int{5, 5, 5}) {
		t.Errorf("edge %v, want [5 5 5]: each party won one die and lost one", got)
	}
	seize := decl(in, 2, 0)
	seize.Seize = []int{1}
	if err := in.Round(dice.Scripted(1, 1, 1), seize); err == nil || !strings.Contains(err.Error(), "nobody seizes") {
		t.Errorf("seizing while every party acts: %v", err)
	}

	in = three(HolderActs)
	if err := in.Round(dice.Scripted(15, 5), decl(in, 0, 1)); err != nil {
		t.Fatal(err)
	}
	if in.Played() != 1 || in.Initiative() != 0 {
		t.Errorf("holder acts: round %d, initiative %d; want 1 and A", in.Played(), in.Initiative())
	}
}

// TestEveryPartyPlaysToItsEndAndRestoresMidRound: with the policies
// choosing, every party acting in turn plays to an end, and a state saved
// between two turns of a round restores and plays on alike.
func TestEveryPartyPlaysToItsEndAndRestoresMidRound(t *testing.T) {
	s := Scenario{Rules: DefaultRules(), Type: "social", Parties: []Party{
		one("A", map[string]int{"persuasion": 3, "wits": 1}), one("B", map[string]int{"deception": 2}), one("C", map[string]int{"persuasion": 4}),
	}}
	s.Rules.Turns = EveryParty
	if _, err := s.Exact(context.Background()); !errors.Is(err, markov.ErrNoExact) {
		t.Errorf("Exact with every party acting: %v, want ErrNoExact", err)
	}
	in, err := newSession(s)
	if err != nil {
		t.Fatal(err)
	}
	r := dice.NewSeeded(6)
	midRound := 0
	for steps := 0; !in.Outcome().Done(); steps++ {
		if steps > 10_000 {
			t.Fatal("no end")
		}
		if err := in.Step(r); err != nil {
			t.Fatal(err)
		}
		st := in.State()
		if len(st.Acted) > 0 {
			midRound++
			if raw, err := json.Marshal(st); err != nil || !strings.Contains(string(raw), `"round_best"`) {
				t.Fatalf("mid-round state without the round's best check: %s %v", raw, err)
			}
		}
		if in, err = restoreSession(st); err != nil {
			t.Fatalf("step %d: %v", steps, err)
		}
	}
	if midRound == 0 {
		t.Error("no state was saved between two turns of a round")
	}
}

// TestRoundBestOfAPartyGoneOutLeavesTheInitiative: every party acting in
// turn, B makes the round's best check (22) in A's turn and then runs out
// of dice in its own; the initiative stays with A instead of passing to a
// party that is out (the conformance kit found such a state refused).
func TestRoundBestOfAPartyGoneOutLeavesTheInitiative(t *testing.T) {
	rules := DefaultRules()
	rules.Turns, rules.StartEdge = EveryParty, 1
	in := started(t, Scenario{Rules: rules, Type: "social", Parties: []Party{
		{Name: "A", BonusEdge: 4, Members: []Member{{Name: "A", Skills: map[string]int{"persuasion": 3}}}},
		one("B", map[string]int{"persuasion": 2}),
		{Name: "C", BonusEdge: 4, Members: []Member{{Name: "C", Skills: map[string]int{"persuasion": 4}}}},
	}}, 20, 1, 10) // order A, C, B
	per := skill(t, in, "persuasion")
	for i, turn := range []struct{ actor, target, rollA, rollT int }{
		{0, 1, 2, 20}, // A 5 against B 22: B wins A's die
		{2, 1, 15, 2}, // C 19 against B 3: C wins B's die
		{1, 2, 1, 10}, // B 1 against C 13: B loses its last die
	} {
		d := &Declaration{Action: Action{Party: turn.actor, Targets: []int{turn.target}, Checks: []Use{{Member: 0, Skill: per}}},
			Reactions: []Reaction{{Party: turn.target, Checks: []Use{{Member: 0, Skill: per}}}}}
		if err := in.Round(dice.Scripted(turn.rollA, turn.rollT), d); err != nil {
			t.Fatalf("turn %d: %v", i, err)
		}
	}
	if in.Played() != 1 || in.Initiative() != 0 || in.Edge(1) != 0 {
		t.Errorf("round %d, initiative %d, B's dice %d; want 1, A and 0", in.Played(), in.Initiative(), in.Edge(1))
	}
	st := in.State()
	if err := st.Check(); err != nil {
		t.Errorf("the state after the round fails its check: %v", err)
	}
}

// TestSurrenderOfTheLastPartyToActEndsTheRound: every party acting in
// turn, A and C have acted when B, the last to act, surrenders; the round
// ends there (it was left open with nobody to act, and the next step
// failed).
func TestSurrenderOfTheLastPartyToActEndsTheRound(t *testing.T) {
	rules := DefaultRules()
	rules.Turns = EveryParty
	in := started(t, Scenario{Rules: rules, Type: "social", Parties: []Party{
		one("A", map[string]int{"persuasion": 3}), one("B", map[string]int{"persuasion": 2}), one("C", map[string]int{"persuasion": 4}),
	}}, 20, 1, 10) // order A, C, B
	per := skill(t, in, "persuasion")
	for _, turn := range [][2]int{{0, 2}, {2, 0}} {
		d := &Declaration{Action: Action{Party: turn[0], Targets: []int{turn[1]}, Checks: []Use{{Member: 0, Skill: per}}},
			Reactions: []Reaction{{Party: turn[1], Checks: []Use{{Member: 0, Skill: per}}}}}
		if err := in.Round(dice.Scripted(10, 5), d); err != nil {
			t.Fatal(err)
		}
	}
	if err := in.Concede(1, Surrender); err != nil {
		t.Fatal(err)
	}
	if in.Played() != 1 {
		t.Errorf("round %d after the last party to act surrendered, want 1", in.Played())
	}
	st := in.State()
	if err := st.Check(); err != nil {
		t.Errorf("the state fails its check: %v", err)
	}
	if err := in.Step(dice.NewSeeded(1)); err != nil {
		t.Errorf("the next step: %v", err)
	}
}
