package edge

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stakesrpg/stakes/sim"

	"github.com/stakesrpg/stakes/dice"
)

// TestNextRoundPenaltyLastsTheWholeRoundWhenEveryPartyActs: every party
// acting in turn under factor_penalty next_round, a member penalised
// before round 1 who acts in the round's second turn still carries the
// penalty; it is gone once the round has ended.
func TestNextRoundPenaltyLastsTheWholeRoundWhenEveryPartyActs(t *testing.T) {
	rules := DefaultRules()
	rules.Turns, rules.FactorPenalty = EveryParty, NextRound
	s := Scenario{Rules: rules, Type: "social", Parties: []Party{
		one("A", map[string]int{"persuasion": 3}), one("B", map[string]int{"persuasion": 2}), one("C", map[string]int{"persuasion": 4}),
	}, Factors: []Factor{{After: 0, Skill: "willpower", DC: 30, Penalty: -2, Parties: []string{"C"}}}}
	in := started(t, s, 20, 1, 10) // order A, C, B
	if err := in.Factors(dice.Scripted(1)); err != nil {
		t.Fatal(err)
	}
	per := skill(t, in, "persuasion")
	rec := &Recorder{}
	in.Sink = rec.Record
	for _, turn := range [][2]int{{0, 1}, {2, 1}, {1, 0}} {
		d := &Declaration{Action: Action{Party: turn[0], Targets: []int{turn[1]}, Checks: []Use{{Member: 0, Skill: per}}},
			Reactions: []Reaction{{Party: turn[1], Checks: []Use{{Member: 0, Skill: per}}}}}
		if err := in.Round(dice.Scripted(10, 5), d); err != nil {
			t.Fatal(err)
		}
	}
	// C's check in the second turn: persuasion 4 less the penalty 2.
	if c := rec.Of(EvCheck)[2]; c.Member != "C" || c.Mod != 2 {
		t.Errorf("C's check in its turn: %+v, want modifier +2 (4 - 2)", c)
	}
	if in.Played() != 1 || in.s.Parties[2].Members[0].Penalty != 0 {
		t.Errorf("after round %d C's penalty is %d, want gone after round 1", in.Played(), in.s.Parties[2].Members[0].Penalty)
	}
}

// TestSurrenderEndsAsSurrenderedNamingTheParty: the end event of a
// surrender says surrendered and names the party that conceded, as the
// saved outcome does.
func TestSurrenderEndsAsSurrenderedNamingTheParty(t *testing.T) {
	in := started(t, thiefChase(), 20, 1)
	rec := &Recorder{}
	in.Sink = rec.Record
	if err := in.Concede(1, Surrender); err != nil {
		t.Fatal(err)
	}
	ends := rec.Of(EvEnd)
	if len(ends) != 1 || ends[0].End != Surrendered || ends[0].To != "guard" || ends[0].Party != "thief" {
		t.Fatalf("end events %+v, want one: surrendered by the guard, the thief winning", ends)
	}
	if o := in.Outcome(); o.End != Surrendered || o.By != 1 || o.Winner != 0 {
		t.Errorf("outcome %+v", o)
	}
	if got, want := ends[0].String(), "The interaction ends after 0 rounds: guard surrendered, and thief wins."; got != want {
		t.Errorf("narration %q, want %q", got, want)
	}
}

// TestFactorsDueTellsABotWhenOutsideFactorsAreDue: FactorsDue is true
// exactly while the scheduled factors wait to be made, and false before
// the start and after they are made.
func TestFactorsDueTellsABotWhenOutsideFactorsAreDue(t *testing.T) {
	in, err := newSession(thiefChase(Factor{After: 1, Every: 2, Skill: "endurance", DC: 10, Penalty: -1}))
	if err != nil {
		t.Fatal(err)
	}
	due := func() bool {
		t.Helper()
		d, err := in.FactorsDue(in.s)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	if due() {
		t.Error("due before the start")
	}
	if err := in.Start(dice.Scripted(20, 1)); err != nil {
		t.Fatal(err)
	}
	if due() {
		t.Error("due before round 1, scheduled after round 1")
	}
	if err := in.Round(dice.Scripted(10, 10), athletics(t, in)); err != nil {
		t.Fatal(err)
	}
	if !due() {
		t.Fatal("not due before round 2")
	}
	if err := in.Act(&athletics(t, in).Action); err == nil {
		t.Error("an action while factors are due")
	}
	if err := in.Factors(dice.Scripted(10, 10)); err != nil {
		t.Fatal(err)
	}
	if due() {
		t.Error("still due once made")
	}
}

// TestWagerBeyondPoolSetting: by default a party with one die left cannot
// wager two members; with rules.wager_beyond_pool it can, and a die it no
// longer holds is not paid.
func TestWagerBeyondPoolSetting(t *testing.T) {
	for _, beyond := range []bool{false, true} {
		rules := DefaultRules()
		rules.StartEdge, rules.WagerBeyondPool = 1, beyond
		s := Scenario{Rules: rules, Type: "chase", Parties: []Party{
			{Name: "car", BonusEdge: 0, Members: []Member{{Name: "Ann", Skills: map[string]int{"vehicles": 2}}, {Name: "Bea", Skills: map[string]int{"vehicles": 1}}}},
			{Name: "cop", BonusEdge: 3, Members: []Member{{Name: "Cy", Skills: map[string]int{"vehicles": 3}}}},
		}}
		in := started(t, s, 20, 1)
		veh := skill(t, in, "vehicles")
		d := &Declaration{Action: Action{Party: 0, Targets: []int{1}, Checks: []Use{{Member: 0, Skill: veh}, {Member: 1, Skill: veh}}},
			Reactions: []Reaction{{Party: 1, Checks: []Use{{Member: 0, Skill: veh}}}}}
		// Ann 3, Bea 2, Cy 20: both of the car's checks lose to Cy's.
		err := in.Round(dice.Scripted(1, 1, 17), d)
		if !beyond {
			if err == nil {
				t.Error("two dice wagered from a pool of one")
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if in.Edge(0) != 0 || in.Edge(1) != 5 || in.s.Transfers != 1 || in.Outcome().Winner != 1 {
			t.Errorf("edge %d/%d, transfers %d, outcome %+v: want the car's one die paid and the cop winning",
				in.Edge(0), in.Edge(1), in.s.Transfers, in.Outcome())
		}
	}
}

// TestLoneRankSetting: a lone individual has no group modifier by
// default, and rank 1 (+1) when rules.lone_rank reads the table for it.
func TestLoneRankSetting(t *testing.T) {
	r := DefaultRules()
	if r.GroupRank(1) != 0 || r.GroupRank(0) != 0 || r.GroupRank(25) != 5 {
		t.Errorf("default ranks %d %d %d, want 0 0 5", r.GroupRank(0), r.GroupRank(1), r.GroupRank(25))
	}
	r.LoneRank = true
	if r.GroupRank(1) != 1 || r.GroupRank(0) != 1 || r.GroupRank(25) != 5 {
		t.Errorf("lone_rank ranks %d %d %d, want 1 1 5", r.GroupRank(0), r.GroupRank(1), r.GroupRank(25))
	}
}

// TestEmptyUseNamesNoSkillAndIsRefused: a Use left empty names skill 0,
// none, and an action or reaction with it is refused with the reason,
// changing nothing.
func TestEmptyUseNamesNoSkillAndIsRefused(t *testing.T) {
	in := started(t, thiefChase(), 20, 1)
	ath := skill(t, in, "athletics")
	if ath == 0 {
		t.Fatal("a skill numbered 0")
	}
	before := in.State()
	for name, d := range map[string]*Declaration{
		"action": {Action: Action{Party: 0, Targets: []int{1}, Checks: []Use{{}}},
			Reactions: []Reaction{{Party: 1, Checks: []Use{{Member: 0, Skill: ath}}}}},
		"reaction": {Action: Action{Party: 0, Targets: []int{1}, Checks: []Use{{Member: 0, Skill: ath}}},
			Reactions: []Reaction{{Party: 1, Checks: []Use{{}}}}},
	} {
		if err := in.Round(dice.Scripted(10, 10), d); err == nil || !strings.Contains(err.Error(), "names no skill") {
			t.Errorf("an empty Use in the %s: %v", name, err)
		}
		if name == "action" {
			if err := in.Act(&d.Action); err == nil {
				t.Error("Act took an empty Use")
			}
		}
	}
	if d := cmp.Diff(before, in.State()); d != "" {
		t.Errorf("refused rounds changed the state:\n%s", d)
	}
	if cs := in.LegalActs(0, 0); slices.ContainsFunc(cs, func(c Choice) bool { return c.Skill == 0 }) {
		t.Errorf("skill 0 among the legal acts: %+v", cs)
	}
}

// TestOnceARoundLetsACharacterCheckOnceARound: every party acting in turn,
// by default C reacts in A's turn and acts again in its own; with
// rules.once_a_round C, having reacted, cannot act, its party passes its
// turn, and a policy-played round never checks a character twice.
func TestOnceARoundLetsACharacterCheckOnceARound(t *testing.T) {
	for _, once := range []bool{false, true} {
		rules := DefaultRules()
		rules.Turns, rules.OnceARound = EveryParty, once
		s := Scenario{Rules: rules, Type: "social", Parties: []Party{
			one("A", map[string]int{"persuasion": 3}), one("B", map[string]int{"persuasion": 2}), one("C", map[string]int{"persuasion": 4}),
		}}
		in := started(t, s, 20, 1, 10) // order A, C, B
		per := skill(t, in, "persuasion")
		turn := func(actor, target int) error {
			return in.Round(dice.Scripted(10, 5), &Declaration{Action: Action{Party: actor, Targets: []int{target}, Checks: []Use{{Member: 0, Skill: per}}},
				Reactions: []Reaction{{Party: target, Checks: []Use{{Member: 0, Skill: per}}}}})
		}
		if err := turn(0, 2); err != nil { // A acts, C reacts
			t.Fatal(err)
		}
		err := turn(2, 1) // C's turn
		if !once {
			if err != nil {
				t.Errorf("default: C acting after reacting: %v", err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), "turn to act") {
			t.Errorf("once_a_round: C acting after reacting: %v, want its turn passed", err)
		}
		// B's turn: it targets A, who has checked already and stakes
		// nothing; the round then ends.
		if err := in.Round(dice.Scripted(10), &Declaration{Action: Action{Party: 1, Targets: []int{0}, Checks: []Use{{Member: 0, Skill: per}}},
			Reactions: []Reaction{{Party: 0}}}); err != nil {
			t.Fatal(err)
		}
		if in.Played() != 1 || in.s.Transfers != 1 {
			t.Errorf("round %d, transfers %d: want round 1 over with only C's win over A", in.Played(), in.s.Transfers)
		}
		// Under the policies no character checks twice in a round.
		g := startGame(t, s)
		var seen map[string]int
		round := -1
		g.Listen(func(e sim.Event) {
			ev := e.(Event)
			if ev.Kind != EvCheck || !ev.Staked {
				return
			}
			if ev.Round != round {
				round, seen = ev.Round, map[string]int{}
			}
			if seen[ev.Member]++; seen[ev.Member] > 1 {
				t.Fatalf("round %d: %s checks twice", ev.Round, ev.Member)
			}
		})
		r := dice.NewSeeded(2)
		for !g.Done() {
			if err := g.Step(r); err != nil {
				t.Fatal(err)
			}
		}
	}
}
