package edge

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stakesrpg/stakes/dice"
)

func chase(t *testing.T, parties ...Party) *session {
	t.Helper()
	in, err := newSession(Scenario{Rules: DefaultRules(), Type: "chase", Parties: parties})
	if err != nil {
		t.Fatal(err)
	}
	return in
}

// TestRepetition: Can't Fool Me Twice, for acting and reacting, safe and
// unsafe skills.
func TestRepetition(t *testing.T) {
	tests := []struct {
		name   string
		skills []string // A's skill each round
		want   []int    // A's modifier each round
	}{
		{"unsafe repeated", []string{"acrobatics", "acrobatics", "acrobatics", "acrobatics", "acrobatics"}, []int{0, -1, -2, -3, -3}},
		{"safe consecutive", []string{"vehicles", "vehicles", "vehicles", "vehicles"}, []int{0, -1, -2, -3}},
		{"safe alternating", []string{"vehicles", "acrobatics", "vehicles", "acrobatics", "vehicles"}, []int{0, 0, 0, -1, 0}},
		{"safe after a break", []string{"vehicles", "vehicles", "acrobatics", "vehicles"}, []int{0, -1, 0, 0}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := one("A", map[string]int{"reflex": 5})
			b := one("B", nil)
			b.BonusEdge = 10
			in := chase(t, a, b)
			rec := &Recorder{}
			in.Sink = rec.Record
			faces := []int{20, 1}
			for range tc.skills {
				faces = append(faces, 20, 1)
			}
			r := dice.Scripted(faces...)
			if err := in.Start(r); err != nil {
				t.Fatal(err)
			}
			veh := skill(t, in, "vehicles")
			for _, name := range tc.skills {
				d := &Declaration{Action: Action{Party: 0, Targets: []int{1}, Checks: []Use{{Member: 0, Skill: skill(t, in, name)}}},
					Reactions: []Reaction{{Party: 1, Checks: []Use{{Member: 0, Skill: veh}}}}}
				if err := in.Round(r, d); err != nil {
					t.Fatal(err)
				}
			}
			var gotA, gotB []int
			for _, e := range rec.Of(EvCheck) {
				if e.Party == "A" {
					gotA = append(gotA, e.Mod)
				} else {
					gotB = append(gotB, e.Mod)
				}
			}
			if d := cmp.Diff(tc.want, gotA); d != "" {
				t.Errorf("A's modifiers (-want +got):\n%s", d)
			}
			// B reacts with vehicles, a safe skill, every round running.
			wantB := []int{0, -1, -2, -3, -3}[:len(tc.skills)]
			if d := cmp.Diff(wantB, gotB); d != "" {
				t.Errorf("B's modifiers (-want +got):\n%s", d)
			}
		})
	}
}

// TestReactionLegality: same, opposed, safe, unpaired (-1) and illegal.
func TestReactionLegality(t *testing.T) {
	in := chase(t, one("A", map[string]int{"reflex": 5}), one("B", map[string]int{"acrobatics": 2, "defense": 1}))
	if err := in.Start(dice.Scripted(20, 1)); err != nil {
		t.Fatal(err)
	}
	v := in.View()
	fresh := in.State()
	for _, tc := range []struct {
		act, react string
		mod        int
		ok         bool
	}{
		{"vehicles", "vehicles", 0, true},        // same skill
		{"ranged attack", "defense", 1, true},    // naturally opposed
		{"stealth", "perception", 0, true},       // naturally opposed
		{"ranged attack", "athletics", 0, true},  // safe in a chase
		{"vehicles", "acrobatics", 2 - 1, true},  // appropriate, unpaired
		{"vehicles", "persuasion", 0, false},     // not a chase skill
		{"stealth", "deception", 0, false},       // not a chase skill
		{"might", "ranged attack", 0 - 1, true},  // appropriate, unpaired
		{"infiltration", "perception", 0, true},  // opposed [text]
		{"melee attack", "defense", 1, true},     // opposed
		{"acrobatics", "melee attack", -1, true}, // unpaired
	} {
		if err := in.SetState(fresh); err != nil {
			t.Fatal(err)
		}
		a := &Action{Party: 0, Targets: []int{1}, Checks: []Use{{Member: 0, Skill: skill(t, in, tc.act)}}}
		mod, ok := v.ReactMod(1, 0, skill(t, in, tc.react), a)
		if mod != tc.mod || ok != tc.ok {
			t.Errorf("%s against %s: (%d, %v), want (%d, %v)", tc.react, tc.act, mod, ok, tc.mod, tc.ok)
		}
		before := in.State()
		err := in.Round(dice.Scripted(10, 10), &Declaration{Action: *a,
			Reactions: []Reaction{{Party: 1, Checks: []Use{{Member: 0, Skill: skill(t, in, tc.react)}}}}})
		if tc.ok {
			if err != nil {
				t.Errorf("%s against %s refused: %v", tc.react, tc.act, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), "cannot react") {
			t.Errorf("%s against %s: err = %v, want a refusal", tc.react, tc.act, err)
		}
		if d := cmp.Diff(before, in.State()); d != "" {
			t.Errorf("refused reaction changed the state:\n%s", d)
		}
	}
	if _, ok := v.ActMod(0, 0, skill(t, in, "persuasion")); ok {
		t.Error("acting with persuasion in a chase is allowed")
	}
}

// TestLargeParty: the group modifier, its penalty on endurance checks,
// abandoning stragglers and outside factors.
func TestLargeParty(t *testing.T) {
	mob := Party{Name: "mob", Members: []Member{{Name: "citizens", Size: 25, Skills: map[string]int{"perception": 1, "endurance": 2}}}}
	in := chase(t, one("criminal", map[string]int{"athletics": 4, "endurance": 3}), mob)
	v := in.View()
	per, end := skill(t, in, "perception"), skill(t, in, "endurance")
	mods := func() []int {
		a, _ := v.ActMod(1, 0, per)
		b, _ := v.ActMod(1, 0, end)
		return []int{a, b}
	}
	if d := cmp.Diff([]int{1 + 5, 2 - 5}, mods()); d != "" {
		t.Errorf("25 citizens (-want +got):\n%s", d)
	}
	if err := in.Abandon(1, 0); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]int{1 + 4, 2}, mods()); d != "" {
		t.Errorf("after abandoning stragglers (-want +got):\n%s", d)
	}
	if err := in.Abandon(1, 0); err == nil {
		t.Error("abandoned stragglers twice")
	}
	if err := in.Abandon(0, 0); err == nil || !strings.Contains(err.Error(), "not a group") {
		t.Errorf("a lone criminal abandoned stragglers: %v", err)
	}
	// The GM's endurance check: the mob (2) rolls 5 = 7 and fails DC 10;
	// the criminal rolls 9+3 = 12 and passes.
	rec := &Recorder{}
	in.Sink = rec.Record
	if err := in.Outside(dice.Scripted(9, 5), Factor{Skill: "endurance", DC: 10, Penalty: -2}); err != nil {
		t.Fatal(err)
	}
	// Both of the mob's modifiers (5 and 2) drop by 2.
	if d := cmp.Diff([]int{3, 0}, mods()); d != "" {
		t.Errorf("after the failed endurance check (-want +got):\n%s", d)
	}
	if m, _ := v.ActMod(0, 0, skill(t, in, "athletics")); m != 4 {
		t.Errorf("the criminal passed but has modifier %d", m)
	}
	var failed []bool
	for _, e := range rec.Of(EvOutside) {
		failed = append(failed, e.Failed)
	}
	if d := cmp.Diff([]bool{false, true}, failed); d != "" {
		t.Errorf("outside checks failed (-want +got):\n%s", d)
	}
	for _, f := range []Factor{{Skill: "juggling", DC: 10}, {Skill: "endurance", Penalty: 2}, {Skill: "endurance", Parties: []string{"nobody"}}} {
		before := in.State()
		if err := in.Outside(dice.Scripted(1, 1), f); err == nil {
			t.Errorf("outside factor %+v accepted", f)
		}
		if d := cmp.Diff(before, in.State()); d != "" {
			t.Errorf("refused factor changed the state:\n%s", d)
		}
	}
}

// TestScheduledFactors: Step makes the outside checks when due, and a
// shedding policy abandons stragglers before an endurance check.
func TestScheduledFactors(t *testing.T) {
	s := Scenario{Rules: DefaultRules(), Type: "chase", Parties: []Party{
		{Name: "thief", Members: []Member{{Name: "thief", Skills: map[string]int{"athletics": 5}}}},
		{Name: "guards", Policy: "reckless", Members: []Member{{Name: "guards", Size: 10, Skills: map[string]int{"athletics": 1}}}},
	}, Factors: []Factor{{After: 1, Every: 2, Skill: "endurance", DC: 30, Penalty: -1}}}
	in, err := newSession(s)
	if err != nil {
		t.Fatal(err)
	}
	rec := &Recorder{}
	in.Sink = rec.Record
	r := dice.NewSeeded(3)
	for range 6 {
		if err := in.Step(r); err != nil || in.Outcome().Done() {
			break
		}
	}
	// Start, round 1, factor, round 2, round 3, factor, round 4...
	rounds := []int{}
	for _, e := range rec.Of(EvOutside) {
		rounds = append(rounds, e.Round)
	}
	if len(rounds) < 2 || rounds[0] != 1 || rounds[len(rounds)-1] != 3 {
		t.Errorf("outside checks after rounds %v, want 1 and 3 (each party)", rounds)
	}
	if n := len(rec.Of(EvAbandon)); n != 1 {
		t.Errorf("%d abandon events, want 1 (reckless guards shed stragglers once)", n)
	}
	if st := in.State(); st.Parties[0].Members[0].Penalty != -2 || st.Parties[1].Members[0].Rank != 3 {
		t.Errorf("penalty %d (want -2: DC 30 always fails), guards' rank %d (want 3: 10 is rank 4, less one)", st.Parties[0].Members[0].Penalty, st.Parties[1].Members[0].Rank)
	}
}

// TestSeize: a party not targeted rolls to seize the initiative, risking
// nothing.
func TestSeize(t *testing.T) {
	in := social(t, one("A", map[string]int{"persuasion": 2}), one("B", nil), one("C", map[string]int{"wits": 3}))
	rec := &Recorder{}
	in.Sink = rec.Record
	// Start: A 20, B 1, C 1. A 10+2 vs B 5; C seizes with wits 19+3.
	r := dice.Scripted(20, 1, 1, 10, 5, 19)
	if err := in.Start(r); err != nil {
		t.Fatal(err)
	}
	per := skill(t, in, "persuasion")
	d := &Declaration{Action: Action{Party: 0, Targets: []int{1}, Checks: []Use{{Member: 0, Skill: per}}},
		Reactions: []Reaction{{Party: 1, Checks: []Use{{Member: 0, Skill: per}}}}, Seize: []int{2}}
	if err := in.Round(r, d); err != nil {
		t.Fatal(err)
	}
	if got := []int{in.Edge(0), in.Edge(1), in.Edge(2), in.Initiative()}; !cmp.Equal(got, []int{6, 4, 5, 2}) {
		t.Errorf("edge and initiative %v, want [6 4 5 2]", got)
	}
	if cs := rec.Of(EvCheck); len(cs) != 3 || cs[2].Staked || cs[2].Total != 22 {
		t.Errorf("seize check %+v", cs)
	}
}

// TestPassive: a passive party stakes one die against each check, never
// takes the initiative and never suffers repetition penalties.
func TestPassive(t *testing.T) {
	rules := DefaultRules()
	rules.Types["search"] = Type{Start: "perception", Seize: "perception", Skills: []string{"perception", "knowledge"}}
	s := Scenario{Rules: rules, Type: "search", Parties: []Party{
		{Name: "squad", Members: []Member{{Name: "Ann", Skills: map[string]int{"perception": 3}}, {Name: "Ben", Skills: map[string]int{"perception": 3}}}},
		{Name: "bombs", Passive: true, BonusEdge: 1, Members: []Member{{Name: "bomb", Skills: map[string]int{"infiltration": 4}}}},
	}}
	in, err := newSession(s)
	if err != nil {
		t.Fatal(err)
	}
	rec := &Recorder{}
	in.Sink = rec.Record
	// Squad 15+3, 5+3; bombs 10+4, 19+4; then again 12, 12 vs 1, 1.
	r := dice.Scripted(1, 15, 5, 10, 19, 12, 12, 1, 1)
	if err := in.Start(r); err != nil {
		t.Fatal(err)
	}
	per := skill(t, in, "perception")
	d := &Declaration{Action: Action{Party: 0, Targets: []int{1}, Checks: []Use{{Member: 0, Skill: per}, {Member: 1, Skill: per}}}}
	for range 2 {
		if err := in.Round(r, d); err != nil {
			t.Fatal(err)
		}
		if in.Initiative() != 0 {
			t.Fatal("a passive party took the initiative")
		}
	}
	if in.Edge(0) != 4+2 || in.Edge(1) != 7-2 {
		t.Errorf("edge %d/%d, want 6/5", in.Edge(0), in.Edge(1))
	}
	var bombMods []int
	for _, e := range rec.Of(EvCheck) {
		if e.Party == "bombs" {
			bombMods = append(bombMods, e.Mod)
		}
	}
	if d := cmp.Diff([]int{4, 4, 4, 4}, bombMods); d != "" {
		t.Errorf("passive modifiers (-want +got):\n%s", d)
	}
	bad := &Declaration{Action: d.Action, Reactions: []Reaction{{Party: 1, Checks: []Use{{Member: 0, Skill: per}}}}}
	if err := in.Round(r, bad); err == nil || !strings.Contains(err.Error(), "passive") {
		t.Errorf("a reaction for a passive party: %v", err)
	}
	if err := in.Concede(1, Surrender); err == nil {
		t.Error("a passive party surrendered")
	}
}

// TestPassiveShortPool: a passive party stakes no more dice than it holds.
func TestPassiveShortPool(t *testing.T) {
	s := Scenario{Rules: DefaultRules(), Type: "chase", Parties: []Party{
		{Name: "hunters", Members: []Member{{Name: "a"}, {Name: "b"}, {Name: "c"}}},
		{Name: "maze", Passive: true, Members: []Member{{Name: "walls", Skills: map[string]int{"stealth": 2}}}},
	}}
	in, err := newSession(s)
	if err != nil {
		t.Fatal(err)
	}
	st := in.State()
	st.Started, st.Order, st.Initiative = true, []int{0}, 0
	st.Parties[0].Edge, st.Parties[1].Edge = 8, 2
	if err := in.SetState(st); err != nil {
		t.Fatal(err)
	}
	rec := &Recorder{}
	in.Sink = rec.Record
	ath := skill(t, in, "athletics")
	d := &Declaration{Action: Action{Party: 0, Targets: []int{1}, Checks: []Use{{Member: 0, Skill: ath}, {Member: 1, Skill: ath}, {Member: 2, Skill: ath}}}}
	if err := in.Round(dice.Scripted(20, 20, 20, 1, 1), d); err != nil {
		t.Fatal(err)
	}
	if n := len(rec.Of(EvCheck)); n != 5 {
		t.Errorf("%d checks, want 3 + 2 (the maze holds 2 dice)", n)
	}
	if o := in.Outcome(); o.End != RanOut || o.Winner != 0 || in.Edge(0) != 10 {
		t.Errorf("outcome %+v, edge %d; want the hunters to win with all 10", o, in.Edge(0))
	}
	if err := in.Round(dice.Scripted(1), d); !errors.Is(err, ErrOver) {
		t.Errorf("play after the end: %v", err)
	}
}

func TestConcessions(t *testing.T) {
	started := func(t *testing.T, typ string, edges ...int) *session {
		var ps []Party
		for i := range edges {
			ps = append(ps, one(string(rune('A'+i)), nil))
		}
		in, err := newSession(Scenario{Rules: DefaultRules(), Type: typ, Parties: ps})
		if err != nil {
			t.Fatal(err)
		}
		st := in.State()
		st.Started, st.Initiative = true, 0
		for i, e := range edges {
			st.Order = append(st.Order, i)
			st.Parties[i].Edge, st.Parties[i].Out = e, e == 0
		}
		if err := in.SetState(st); err != nil {
			t.Fatal(err)
		}
		return in
	}
	tests := []struct {
		name  string
		typ   string
		edges []int
		p     int
		c     Concession
		want  Outcome
		after []int
	}{
		{"surrender", "chase", []int{3, 7}, 1, Surrender, Outcome{End: Surrendered, Winner: 0, By: 1}, []int{10, 0}},
		{"surrender of the holder", "chase", []int{3, 7}, 0, Surrender, Outcome{End: Surrendered, Winner: 1, By: 0}, []int{0, 10}},
		{"surrender among three", "social", []int{3, 2, 5}, 1, Surrender, Outcome{Winner: -1, By: -1}, []int{5, 0, 5}},
		{"walk away ahead", "social", []int{3, 7}, 1, WalkAway, Outcome{End: WalkedAway, Winner: 1, Partial: true, By: 1}, []int{3, 7}},
		{"walk away behind", "social", []int{3, 7}, 0, WalkAway, Outcome{End: WalkedAway, Winner: 1, Partial: true, By: 0}, []int{3, 7}},
		{"walk away level", "social", []int{5, 5}, 0, WalkAway, Outcome{End: WalkedAway, Winner: -1, By: 0}, []int{5, 5}},
		{"continue", "social", []int{5, 5}, 0, Continue, Outcome{Winner: -1, By: -1}, []int{5, 5}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := started(t, tc.typ, tc.edges...)
			if err := in.Concede(tc.p, tc.c); err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, in.Outcome()); d != "" {
				t.Errorf("outcome (-want +got):\n%s", d)
			}
			var got []int
			for p := range tc.edges {
				got = append(got, in.Edge(p))
			}
			if d := cmp.Diff(tc.after, got); d != "" {
				t.Errorf("edge (-want +got):\n%s", d)
			}
		})
	}
	in := started(t, "chase", 5, 5)
	before := in.State()
	for _, tc := range []struct {
		p    int
		c    Concession
		want string
	}{{0, WalkAway, "cannot walk away"}, {2, Surrender, "does not exist"}, {0, Concession(9), "unknown concession"}} {
		if err := in.Concede(tc.p, tc.c); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Concede(%d, %v) = %v, want %q", tc.p, tc.c, err, tc.want)
		}
	}
	if d := cmp.Diff(before, in.State()); d != "" {
		t.Errorf("refused concessions changed the state:\n%s", d)
	}
}

// TestBadDeclarations: each illegal round is refused with a reason and
// leaves the state exactly as it was.
func TestBadDeclarations(t *testing.T) {
	in := social(t,
		Party{Name: "A", Members: []Member{{Name: "A1", Skills: map[string]int{"persuasion": 2}}, {Name: "A2"}}},
		one("B", nil), one("C", nil))
	if err := in.Round(dice.Scripted(1), &Declaration{}); !errors.Is(err, ErrNotStarted) {
		t.Errorf("before Start: %v", err)
	}
	if err := in.Concede(0, Surrender); !errors.Is(err, ErrNotStarted) {
		t.Errorf("surrender before Start: %v", err)
	}
	if err := in.Start(dice.Scripted(20, 2, 1)); err != nil {
		t.Fatal(err)
	}
	// Take C out and leave A with one die.
	st := in.State()
	st.Parties[0].Edge, st.Parties[1].Edge, st.Parties[2].Edge, st.Parties[2].Out = 1, 14, 0, true
	if err := in.SetState(st); err != nil {
		t.Fatal(err)
	}
	per := skill(t, in, "persuasion")
	ok := func() *Declaration {
		return &Declaration{Action: Action{Party: 0, Targets: []int{1}, Checks: []Use{{Member: 0, Skill: per}}},
			Reactions: []Reaction{{Party: 1, Checks: []Use{{Member: 0, Skill: per}}}}}
	}
	tests := []struct {
		name string
		mod  func(d *Declaration)
		want string
	}{
		{"not the initiative", func(d *Declaration) { d.Action.Party = 1 }, "turn to act"},
		{"no target", func(d *Declaration) { d.Action.Targets = nil }, "no target"},
		{"target oneself", func(d *Declaration) { d.Action.Targets = []int{0} }, "targets itself"},
		{"target out", func(d *Declaration) { d.Action.Targets = []int{2} }, "out of the interaction"},
		{"target missing", func(d *Declaration) { d.Action.Targets = []int{7} }, "does not exist"},
		{"target twice", func(d *Declaration) { d.Action.Targets = []int{1, 1} }, "targeted twice"},
		{"wager more than held", func(d *Declaration) { d.Action.Checks = []Use{{Member: 0, Skill: per}, {Member: 1, Skill: per}} }, "holds 1"},
		{"no checks", func(d *Declaration) { d.Action.Checks = nil }, "at least one member"},
		{"no such member", func(d *Declaration) { d.Action.Checks = []Use{{Member: 5, Skill: per}} }, "no member 5"},
		{"no such skill", func(d *Declaration) { d.Action.Checks = []Use{{Member: 0, Skill: 99}} }, "does not exist"},
		{"act with an unfit skill", func(d *Declaration) { d.Action.Checks = []Use{{Member: 0, Skill: skill(t, in, "stealth")}} }, "cannot act"},
		{"illegal reaction", func(d *Declaration) { d.Reactions[0].Checks = []Use{{Member: 0, Skill: skill(t, in, "stealth")}} }, "cannot react"},
		{"missing reaction", func(d *Declaration) { d.Reactions = nil }, "must react"},
		{"untargeted reaction", func(d *Declaration) { d.Reactions[0].Party = 2 }, "was not targeted"},
		{"double reaction", func(d *Declaration) { d.Reactions = append(d.Reactions, d.Reactions[0]) }, "reacts twice"},
		{"member twice", func(d *Declaration) {
			d.Reactions[0].Checks = []Use{{Member: 0, Skill: per}, {Member: 0, Skill: per}}
		}, "checks twice"},
		{"seize while targeted", func(d *Declaration) { d.Seize = []int{1} }, "cannot also seize"},
		{"seize while out", func(d *Declaration) { d.Seize = []int{2} }, "out of the interaction"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := in.State()
			d := ok()
			tc.mod(d)
			r := dice.Scripted(10, 10, 10)
			err := in.Round(r, d)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
			if d := cmp.Diff(before, in.State()); d != "" {
				t.Errorf("refused round changed the state:\n%s", d)
			}
			if r.Remaining() != 3 {
				t.Errorf("refused round rolled dice")
			}
		})
	}
	if err := in.Round(dice.Scripted(10, 10), ok()); err != nil {
		t.Errorf("the legal round: %v", err)
	}
}

func TestMultiTargetOff(t *testing.T) {
	rules := DefaultRules()
	rules.MultiTarget = false
	in, err := newSession(Scenario{Rules: rules, Type: "social", Parties: []Party{one("A", nil), one("B", nil), one("C", nil)}})
	if err != nil {
		t.Fatal(err)
	}
	if err := in.Start(dice.Scripted(20, 1, 1)); err != nil {
		t.Fatal(err)
	}
	per := skill(t, in, "persuasion")
	err = in.Round(dice.Scripted(1, 1, 1), &Declaration{Action: Action{Party: 0, Targets: []int{1, 2}, Checks: []Use{{Member: 0, Skill: per}}},
		Reactions: []Reaction{{Party: 1, Checks: []Use{{Member: 0, Skill: per}}}, {Party: 2, Checks: []Use{{Member: 0, Skill: per}}}}})
	if err == nil || !strings.Contains(err.Error(), "multi_target") {
		t.Errorf("two targets with multi_target off: %v", err)
	}
}

func TestBadScenarios(t *testing.T) {
	tests := []struct {
		name string
		mod  func(s *Scenario)
		want string
	}{
		{"empty party", func(s *Scenario) { s.Parties[0].Members = nil }, "parties[0] (\"lead car\") has no members"},
		{"negative bonus edge", func(s *Scenario) { s.Parties[1].BonusEdge = -2 }, "parties[1].bonus_edge"},
		{"zero start edge", func(s *Scenario) { s.Rules.StartEdge = 0 }, "rules.start_edge"},
		{"one party", func(s *Scenario) { s.Parties = s.Parties[:1] }, "needs 2.."},
		{"unknown type", func(s *Scenario) { s.Type = "duel" }, "type \"duel\""},
		{"unknown policy", func(s *Scenario) { s.Parties[0].Policy = "timid" }, "parties[0].policy"},
		{"same names", func(s *Scenario) { s.Parties[1].Name = "lead car" }, "used twice"},
		{"empty name", func(s *Scenario) { s.Parties[1].Name = "" }, "parties[1].name"},
		{"all passive", func(s *Scenario) { s.Parties[0].Passive, s.Parties[1].Passive = true, true }, "every party is passive"},
		{"no tempter", func(s *Scenario) { s.Type = "temptation" }, "tempter"},
		{"positive repetition", func(s *Scenario) { s.Rules.Repetition = []int{1} }, "rules.repetition[0]"},
		{"no check dice", func(s *Scenario) { s.Rules.Check = dice.Pool{} }, "rules.check"},
		{"negative size", func(s *Scenario) { s.Parties[0].Members[0].Size = -3 }, "members[0].size"},
		{"huge modifier", func(s *Scenario) { s.Parties[0].Members[0].Skills["vehicles"] = 1e6 }, "skills[vehicles]"},
		{"bad factor", func(s *Scenario) { s.Factors = []Factor{{Skill: "endurance", Penalty: 3}} }, "outside_factors[0].penalty"},
		{"factor party", func(s *Scenario) { s.Factors = []Factor{{Skill: "endurance", Parties: []string{"x"}}} }, "outside_factors[0].parties"},
		{"progression", func(s *Scenario) { s.Rules.Progression = []int{1, 5, 3} }, "rules.progression[2]"},
		{"max rounds", func(s *Scenario) { s.Rules.MaxRounds = -1 }, "rules.max_rounds"},
		{"opposed pair", func(s *Scenario) { s.Rules.Opposed = [][2]string{{"a", "a"}} }, "rules.opposed[0]"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := DefaultScenario()
			tc.mod(&s)
			err := s.Validate()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
			if _, err := s.NewRunner(); err == nil {
				t.Error("NewRunner accepted it")
			}
		})
	}
}

func TestTempterFirst(t *testing.T) {
	s := Scenario{Rules: DefaultRules(), Type: "temptation", Parties: []Party{
		one("hero", map[string]int{"willpower": 4}),
		{Name: "devil", Tempter: true, Members: []Member{{Name: "devil", Skills: map[string]int{"persuasion": 6}}}},
	}}
	in, err := newSession(s)
	if err != nil {
		t.Fatal(err)
	}
	r := dice.Scripted()
	if err := in.Start(r); err != nil || in.Initiative() != 1 || r.Err() != nil {
		t.Errorf("start: %v, initiative %d, rolled %v; want the devil first without a roll", err, in.Initiative(), r.Err())
	}
	if err := in.Start(r); err == nil {
		t.Error("started twice")
	}
}

// TestStateRoundTrip: save mid-interaction as JSON, restore into a fresh
// interaction, and both continue identically.
func TestStateRoundTrip(t *testing.T) {
	s := DefaultScenario()
	s.Factors = []Factor{{After: 2, Every: 3, Skill: "endurance", DC: 11, Penalty: -1}}
	a, err := newSession(s)
	if err != nil {
		t.Fatal(err)
	}
	r := dice.NewSeeded(11)
	for range 4 {
		if err := a.Step(r); err != nil {
			t.Fatal(err)
		}
	}
	b1, err := json.Marshal(a.State())
	if err != nil {
		t.Fatal(err)
	}
	var st State
	if err := json.Unmarshal(b1, &st); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(a.State(), st); d != "" {
		t.Fatalf("JSON round trip (-want +got):\n%s", d)
	}
	b, err := newSession(s)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.SetState(st); err != nil {
		t.Fatal(err)
	}
	ra, rb := &Recorder{}, &Recorder{}
	a.Sink = ra.Record
	b.Sink = rb.Record
	oa, errA := a.Play(dice.NewSeeded(5))
	ob, errB := b.Play(dice.NewSeeded(5))
	if errA != nil || errB != nil {
		t.Fatal(errA, errB)
	}
	if d := cmp.Diff(ra.Events, rb.Events); d != "" || len(ra.Events) == 0 {
		t.Errorf("restored interaction diverged (-orig +restored):\n%s", d)
	}
	if d := cmp.Diff(oa, ob); d != "" {
		t.Errorf("outcomes (-orig +restored):\n%s", d)
	}
	for _, bad := range []func(*State){
		func(s *State) { s.Parties[0].Edge = -1 },
		func(s *State) { s.Parties = s.Parties[:1] },
		func(s *State) { s.Parties[0].Members[0].Last = 99 },
		func(s *State) { s.Initiative = 5 },
		func(s *State) { s.Order = []int{0, 0} },
		func(s *State) { s.Parties[1].Name = "x" },
		func(s *State) { s.Parties[0].Members[0].Uses[0] = -1 },
		func(s *State) { s.Parties[0].Members[0].Uses = s.Parties[0].Members[0].Uses[:1] },
		// A party is out exactly when it holds no dice (settle relies on it).
		func(s *State) { s.Parties[0].Edge, s.Parties[0].Out = 0, false },
		func(s *State) { s.Parties[1].Edge, s.Parties[1].Out = 3, true },
	} {
		c := b.State()
		var mod State
		raw, _ := json.Marshal(c)
		_ = json.Unmarshal(raw, &mod)
		bad(&mod)
		if err := b.SetState(mod); err == nil {
			t.Errorf("SetState accepted a bad state")
		}
		if d := cmp.Diff(c, b.State()); d != "" {
			t.Errorf("refused state changed the interaction:\n%s", d)
		}
	}
}

// badPolicy targets its own party.
type badPolicy struct{ *Style }

func (badPolicy) Act(v *View, p int, a *Action) {
	a.Targets = append(a.Targets, p)
	a.Checks = append(a.Checks, Use{Member: 0, Skill: 0})
}

// defaultStarted is the built-in chase after its first step (the
// starting checks), with the Roller that rolled them, seeded 1.
func defaultStarted(t *testing.T) (*session, *dice.Roller) {
	t.Helper()
	in, err := newSession(DefaultScenario())
	if err != nil {
		t.Fatal(err)
	}
	r := dice.NewSeeded(1)
	if err := in.Step(r); err != nil {
		t.Fatal(err)
	}
	return in, r
}

func TestPolicies(t *testing.T) {
	if d := cmp.Diff([]string{"canny", "cautious", "reckless", "steady"}, PolicyNames()); d != "" {
		t.Errorf("policies (-want +got):\n%s", d)
	}
	if _, err := PolicyByName("timid"); err == nil || !strings.Contains(err.Error(), "steady") {
		t.Errorf("unknown policy: %v", err)
	}
	if p, err := PolicyByName(""); err != nil || *p.(*Style) != styles["steady"] {
		t.Errorf("default policy: %v %v", p, err)
	}
	// A policy's illegal choice is refused, not fixed, and changes nothing.
	in, r := defaultStarted(t)
	in.Policies[in.Initiative()] = badPolicy{&Style{}}
	before := in.State()
	if err := in.Step(r); err == nil || !strings.Contains(err.Error(), "targets itself") {
		t.Errorf("illegal policy choice: %v", err)
	}
	if d := cmp.Diff(before, in.State()); d != "" {
		t.Errorf("refused step changed the state:\n%s", d)
	}
	in.Policies[0] = nil
	if err := in.Step(r); err == nil || !strings.Contains(err.Error(), "Policies[0]") {
		t.Errorf("a nil policy: %v", err)
	}
	in.Policies = in.Policies[:1]
	if _, err := in.Play(r); err == nil || !strings.Contains(err.Error(), "1 policies for 2 parties") {
		t.Errorf("one policy for two parties: %v", err)
	}
}

// TestPolicyChoices: cautious wagers one die, reckless all and ignores
// repetition, canny wagers one when behind, cautious walks away ahead.
func TestPolicyChoices(t *testing.T) {
	s := Scenario{Rules: DefaultRules(), Type: "social", Parties: []Party{
		{Name: "A", Members: []Member{{Name: "A1", Skills: map[string]int{"persuasion": 5, "deception": 4}}, {Name: "A2", Skills: map[string]int{"persuasion": 1}}, {Name: "A3"}}},
		one("B", map[string]int{"perception": 2}),
	}}
	in, err := newSession(s)
	if err != nil {
		t.Fatal(err)
	}
	st := in.State()
	st.Started, st.Order, st.Initiative = true, []int{0, 1}, 0
	st.Parties[0].Members[0].Uses[skill(t, in, "persuasion")] = 3
	if err := in.SetState(st); err != nil {
		t.Fatal(err)
	}
	per, dec := skill(t, in, "persuasion"), skill(t, in, "deception")
	act := func(name string) []Use {
		pol, _ := PolicyByName(name)
		a := &Action{Party: 0}
		pol.Act(in.View(), 0, a)
		if !cmp.Equal(a.Targets, []int{1}) {
			t.Errorf("%s targets %v", name, a.Targets)
		}
		return a.Checks
	}
	if d := cmp.Diff([]Use{{Member: 0, Skill: dec}}, act("cautious")); d != "" {
		t.Errorf("cautious (-want +got):\n%s", d)
	}
	// Reckless keeps its favourite skill: persuasion +5 though used 3 times.
	if d := cmp.Diff(per, act("reckless")[0].Skill); d != "" {
		t.Errorf("reckless skill (-want +got):\n%s", d)
	}
	if n := len(act("reckless")); n != 3 {
		t.Errorf("reckless wagers %d dice, want 3", n)
	}
	st.Parties[0].Edge, st.Parties[1].Edge = 3, 7
	if err := in.SetState(st); err != nil {
		t.Fatal(err)
	}
	if n := len(act("canny")); n != 1 {
		t.Errorf("canny behind wagers %d, want 1", n)
	}
	cautious, _ := PolicyByName("cautious")
	if c := cautious.Concede(in.View(), 1); c != WalkAway {
		t.Errorf("cautious 4 dice ahead in a social: %v, want walk_away", c)
	}
	st.Parties[0].Edge, st.Parties[1].Edge = 9, 1
	if err := in.SetState(st); err != nil {
		t.Fatal(err)
	}
	if c := cautious.Concede(in.View(), 1); c != Surrender {
		t.Errorf("cautious on its last die: %v, want surrender", c)
	}
	// Reacting to deception: perception is neither same nor opposed but
	// safe in a social; B reacts with it at no penalty.
	r := &Reaction{Party: 1}
	cautious.React(in.View(), 1, &Action{Party: 0, Targets: []int{1}, Checks: []Use{{Member: 0, Skill: dec}}}, r)
	if d := cmp.Diff([]Use{{Member: 0, Skill: skill(t, in, "perception")}}, r.Checks); d != "" {
		t.Errorf("reaction (-want +got):\n%s", d)
	}
}

// swapPolicy reacts as the party after it (renaming its reaction) or, with
// bad set, with a skill that does not exist.
type swapPolicy struct {
	*Style
	bad bool
}

func (s swapPolicy) React(v *View, p int, a *Action, r *Reaction) {
	s.Style.React(v, p, a, r)
	if s.bad {
		r.Checks[0].Skill = v.Skills() + 1
		return
	}
	r.Party = (p + 1) % v.Parties()
}

// TestPolicyReactionIsCheckedAsGiven: a reacting policy's answer is checked
// as the step asks for it: one that renames the reacting party or uses a
// skill that does not exist is refused, and the refused step changes
// neither the state nor the Roller.
func TestPolicyReactionIsCheckedAsGiven(t *testing.T) {
	for _, c := range []struct {
		bad  bool
		want string
	}{{false, "reaction is given as party"}, {true, "does not exist"}} {
		in, r := defaultStarted(t)
		target := 1 - in.Initiative()
		in.Policies[target] = swapPolicy{&Style{}, c.bad}
		before, draws := in.State(), rollerBytes(t, r)
		err := in.Step(r)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "illegal round") {
			t.Errorf("bad=%v: %v, want an illegal round: %q", c.bad, err, c.want)
		}
		if d := cmp.Diff(before, in.State()); d != "" {
			t.Errorf("bad=%v: refused step changed the state:\n%s", c.bad, d)
		}
		if !bytes.Equal(rollerBytes(t, r), draws) {
			t.Errorf("bad=%v: refused step rolled dice", c.bad)
		}
	}
}
