package edge

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stakesrpg/stakes/dice"
)

// carChase is the text's example: Becky drives the lead car, Bob shoots
// from its window, Joe chases alone ("Resolving a Wager").
func carChase(t *testing.T) *session {
	t.Helper()
	s := DefaultScenario()
	s.Parties[1].BonusEdge = 0
	in, err := newSession(s)
	if err != nil {
		t.Fatal(err)
	}
	return in
}

func skill(t *testing.T, in *session, name string) int {
	t.Helper()
	s, ok := in.Skill(name)
	if !ok {
		t.Fatalf("no skill %q", name)
	}
	return s
}

func TestCarChase(t *testing.T) {
	in := carChase(t)
	rec := &Recorder{}
	in.Sink = rec.Record
	// Starting checks, opposed Reflex: Becky (+3) rolls 17 = 20, Joe (+4)
	// rolls 10 = 14, so the lead car dictates the chase.
	// The round: Becky Vehicles 15+6 = 21, Bob Ranged Attack 9+5 = 14, Joe
	// Vehicles 12+7 = 19.
	r := dice.Scripted(17, 10, 15, 9, 12)
	if err := in.Start(r); err != nil {
		t.Fatal(err)
	}
	if in.Initiative() != 0 {
		t.Fatalf("initiative = %d, want the lead car", in.Initiative())
	}
	veh, ranged := skill(t, in, "vehicles"), skill(t, in, "ranged attack")
	d := &Declaration{
		Action:    Action{Party: 0, Targets: []int{1}, Checks: []Use{{Member: 0, Skill: veh}, {Member: 1, Skill: ranged}}},
		Reactions: []Reaction{{Party: 1, Checks: []Use{{Member: 0, Skill: veh}}}},
	}
	if err := in.Round(r, d); err != nil {
		t.Fatal(err)
	}
	if err := r.Err(); err != nil || r.Remaining() != 0 {
		t.Fatalf("script: %v, %d left", err, r.Remaining())
	}
	var totals []int
	for _, e := range rec.Of(EvCheck) {
		totals = append(totals, e.Total)
	}
	if d := cmp.Diff([]int{21, 14, 19}, totals); d != "" {
		t.Errorf("totals (-want +got):\n%s", d)
	}
	// Bob surrenders one die to Joe; Joe gives his to the lead car
	// (Becky); Becky keeps the initiative.
	want := []Event{
		{Kind: EvTransfer, Round: 1, Party: "lead car", Member: "Bob", To: "pursuer", ToMember: "Joe", Dice: 1},
		{Kind: EvTransfer, Round: 1, Party: "pursuer", Member: "Joe", To: "lead car", ToMember: "Becky", Dice: 1},
	}
	if d := cmp.Diff(want, rec.Of(EvTransfer)); d != "" {
		t.Errorf("transfers (-want +got):\n%s", d)
	}
	if in.Edge(0) != 5 || in.Edge(1) != 5 || in.Initiative() != 0 {
		t.Errorf("after the round: edge %d/%d, initiative %d; want 5/5 and the lead car", in.Edge(0), in.Edge(1), in.Initiative())
	}
	for _, e := range rec.Events {
		if e.String() == "" {
			t.Errorf("no description for %+v", e)
		}
	}
}
