package edge

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stakesrpg/stakes/dice"
)

// social builds a social interaction of one-member parties with the given
// names and skills.
func social(t *testing.T, parties ...Party) *session {
	t.Helper()
	s := Scenario{Rules: DefaultRules(), Type: "social", Parties: parties}
	in, err := newSession(s)
	if err != nil {
		t.Fatal(err)
	}
	return in
}

func one(name string, skills map[string]int) Party {
	return Party{Name: name, Members: []Member{{Name: name, Skills: skills}}}
}

// TestFlirt is the text's multiple-target example ("Multiple Parties"): a
// socialite flirts with two boyfriends' girlfriends at once; she beats one
// boyfriend's Persuasion and loses to the other's.
func TestFlirt(t *testing.T) {
	in := social(t,
		one("socialite", map[string]int{"persuasion": 5, "perception": 2}),
		one("Alan", map[string]int{"persuasion": 3, "perception": 1}),
		one("Carl", map[string]int{"persuasion": 4, "perception": 3}),
	)
	rec := &Recorder{}
	in.Sink = rec.Record
	// Perception to start: 18+2, 5+1, 10+3. Then Persuasion: the
	// socialite 10+5 = 15, Alan 7+3 = 10, Carl 14+4 = 18.
	r := dice.Scripted(18, 5, 10, 10, 7, 14)
	if err := in.Start(r); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]int{0, 2, 1}, in.State().Order); d != "" {
		t.Errorf("order of action (-want +got):\n%s", d)
	}
	per := skill(t, in, "persuasion")
	d := &Declaration{
		Action: Action{Party: 0, Targets: []int{1, 2}, Checks: []Use{{Member: 0, Skill: per}}},
		Reactions: []Reaction{
			{Party: 1, Checks: []Use{{Member: 0, Skill: per}}},
			{Party: 2, Checks: []Use{{Member: 0, Skill: per}}},
		},
	}
	if err := in.Round(r, d); err != nil {
		t.Fatal(err)
	}
	want := []Event{
		{Kind: EvTransfer, Round: 1, Party: "socialite", Member: "socialite", To: "Carl", ToMember: "Carl", Dice: 1},
		{Kind: EvTransfer, Round: 1, Party: "Alan", Member: "Alan", To: "socialite", ToMember: "socialite", Dice: 1},
	}
	if d := cmp.Diff(want, rec.Of(EvTransfer)); d != "" {
		t.Errorf("transfers (-want +got):\n%s", d)
	}
	got := []int{in.Edge(0), in.Edge(1), in.Edge(2), in.Initiative()}
	if d := cmp.Diff([]int{5, 4, 6, 2}, got); d != "" {
		t.Errorf("edge and initiative (-want +got):\n%s", d)
	}
}

// TestExchange covers the exchange's corner cases with scripted results.
func TestExchange(t *testing.T) {
	tests := []struct {
		name  string
		faces []int // start A, start B, then A's checks, then B's
		nA    int   // A's members checking
		nB    int
		edge  []int
		init  int
	}{
		// A 10 vs B 10 with equal modifiers: no die moves, A keeps the
		// initiative.
		{"full tie", []int{20, 1, 10, 10}, 1, 1, []int{5, 5}, 0},
		// A1 20, A2 3, B 12: A2 loses to B, B loses to A1.
		{"chain", []int{20, 1, 20, 3, 12}, 2, 1, []int{5, 5}, 0},
		// A1 5, A2 6, B 20: two dice
		// go to B, B's own die is safe.
		{"sweep", []int{20, 1, 5, 6, 20}, 2, 1, []int{3, 7}, 1},
		// B1 and B2 both beat A: A's die goes to the next higher (B1 at 12),
		// B2's 18 takes the initiative.
		{"next higher", []int{20, 1, 8, 12, 18}, 1, 2, []int{4, 6}, 1},
		// Equal totals at the top: no die moves between them (A2 still loses
		// to B) and the holder keeps the initiative.
		{"initiative tie", []int{20, 1, 15, 4, 15}, 2, 1, []int{4, 6}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := social(t,
				Party{Name: "A", Members: []Member{{Name: "A1", Skills: map[string]int{"persuasion": 0}}, {Name: "A2"}}},
				Party{Name: "B", Members: []Member{{Name: "B1", Skills: map[string]int{"persuasion": 0}}, {Name: "B2"}}},
			)
			r := dice.Scripted(tc.faces...)
			if err := in.Start(r); err != nil {
				t.Fatal(err)
			}
			per := skill(t, in, "persuasion")
			d := &Declaration{Action: Action{Party: 0, Targets: []int{1}}, Reactions: []Reaction{{Party: 1}}}
			for m := range tc.nA {
				d.Action.Checks = append(d.Action.Checks, Use{Member: m, Skill: per})
			}
			for m := range tc.nB {
				d.Reactions[0].Checks = append(d.Reactions[0].Checks, Use{Member: m, Skill: per})
			}
			if err := in.Round(r, d); err != nil {
				t.Fatal(err)
			}
			if r.Remaining() != 0 || r.Err() != nil {
				t.Fatalf("script: %d left, %v", r.Remaining(), r.Err())
			}
			if d := cmp.Diff(tc.edge, []int{in.Edge(0), in.Edge(1)}); d != "" {
				t.Errorf("edge (-want +got):\n%s", d)
			}
			if in.Initiative() != tc.init {
				t.Errorf("initiative %d, want %d", in.Initiative(), tc.init)
			}
		})
	}
}

// TestTieByModifier: equal totals, the higher modifier wins the die.
func TestTieByModifier(t *testing.T) {
	in := social(t,
		one("A", map[string]int{"persuasion": 5, "perception": 9}),
		one("B", map[string]int{"persuasion": 2}),
	)
	r := dice.Scripted(20, 1, 10, 13) // A 10+5 = 15, B 13+2 = 15
	if err := in.Start(r); err != nil {
		t.Fatal(err)
	}
	per := skill(t, in, "persuasion")
	d := &Declaration{Action: Action{Party: 0, Targets: []int{1}, Checks: []Use{{Member: 0, Skill: per}}},
		Reactions: []Reaction{{Party: 1, Checks: []Use{{Member: 0, Skill: per}}}}}
	if err := in.Round(r, d); err != nil {
		t.Fatal(err)
	}
	if in.Edge(0) != 6 || in.Edge(1) != 4 {
		t.Errorf("edge %d/%d, want 6/4: the higher modifier wins a tie", in.Edge(0), in.Edge(1))
	}
}

func TestGroupRank(t *testing.T) {
	r := DefaultRules()
	for _, tc := range []struct{ size, rank int }{
		{0, 0}, {1, 0}, {2, 2}, {4, 2}, {5, 3}, {25, 5}, {30, 5}, {50, 6}, {2500000, 20}, {9999999, 20},
	} {
		if got := r.GroupRank(tc.size); got != tc.rank {
			t.Errorf("GroupRank(%d) = %d, want %d", tc.size, got, tc.rank)
		}
	}
}

func TestScenarioJSON(t *testing.T) {
	s := DefaultScenario()
	s.Factors = []Factor{{After: 3, Every: 2, Skill: "endurance", DC: 12, Penalty: -1}}
	s.Circumstances = map[string]int{"acrobatics": -2}
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var got Scenario
	if err := dec.Decode(&got); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(s, got, cmp.Comparer(func(a, b dice.Pool) bool { return a.Equal(b) })); d != "" {
		t.Errorf("round trip (-want +got):\n%s", d)
	}
	if err := got.Validate(); err != nil {
		t.Error(err)
	}
	for _, want := range []string{`"start_edge":5`, `"check":"d20"`, `"outside_factors"`, `"bonus_edge":1`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("JSON lacks %s", want)
		}
	}
	cats := s.Categories()
	if d := cmp.Diff([]string{"lead_car_wins", "pursuer_wins", "lead_car_partial", "pursuer_partial", "draw"}, cats); d != "" {
		t.Errorf("categories (-want +got):\n%s", d)
	}
	if m := s.Metrics(); m[0] != "rounds" || len(m) > 8 {
		t.Errorf("metrics %v", m)
	}
}
