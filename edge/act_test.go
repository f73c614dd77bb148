package edge

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stakesrpg/stakes/dice"
)

// TestActionAwaitsReactionAcrossASave is the text's car chase played as a
// chat table would: the lead car declares (Act), the game is saved while
// Joe's player thinks, and restored with nothing but the saved state; Joe
// answers (React) and the round comes out as the text says.
func TestActionAwaitsReactionAcrossASave(t *testing.T) {
	in := carChase(t)
	if err := in.Start(dice.Scripted(17, 10)); err != nil { // Becky 20, Joe 14
		t.Fatal(err)
	}
	veh, ranged := skill(t, in, "vehicles"), skill(t, in, "ranged attack")
	r := dice.Scripted(15, 9, 12) // Becky 21, Bob 14, Joe 19
	if err := in.Act(&Action{Party: 0, Targets: []int{1}, Checks: []Use{{Member: 0, Skill: veh}, {Member: 1, Skill: ranged}}}); err != nil {
		t.Fatal(err)
	}
	if r.Remaining() != 3 {
		t.Fatal("Act rolled dice")
	}
	saved, err := json.Marshal(in.State())
	if err != nil {
		t.Fatal(err)
	}
	wantSaved := `"pending":{"party":"lead car","targets":["pursuer"],"checks":[{"member":"Becky","skill":"vehicles"},{"member":"Bob","skill":"ranged attack"}]}`
	if !strings.Contains(string(saved), wantSaved) {
		t.Errorf("the saved state lacks the pending action by name %s: %s", wantSaved, saved)
	}
	var st State
	if err := json.Unmarshal(saved, &st); err != nil {
		t.Fatal(err)
	}
	back, err := restoreSession(st)
	if err != nil {
		t.Fatal(err)
	}
	rec := &Recorder{}
	back.Sink = rec.Record
	if err := back.React(r, []Reaction{{Party: 1, Checks: []Use{{Member: 0, Skill: veh}}}}, nil); err != nil {
		t.Fatal(err)
	}
	want := []Event{
		{Kind: EvTransfer, Round: 1, Party: "lead car", Member: "Bob", To: "pursuer", ToMember: "Joe", Dice: 1},
		{Kind: EvTransfer, Round: 1, Party: "pursuer", Member: "Joe", To: "lead car", ToMember: "Becky", Dice: 1},
	}
	if d := cmp.Diff(want, rec.Of(EvTransfer)); d != "" {
		t.Errorf("transfers (-want +got):\n%s", d)
	}
	if _, ok := back.Pending(); ok || back.Initiative() != 0 || back.Played() != 1 {
		t.Errorf("after the round: pending %v, initiative %d, round %d", ok, back.Initiative(), back.Played())
	}
}

// TestStepAnswersAPendingAction: an action declared by hand is answered by
// the target's policy when the game steps on.
func TestStepAnswersAPendingAction(t *testing.T) {
	in := carChase(t)
	if err := in.Start(dice.Scripted(17, 10)); err != nil {
		t.Fatal(err)
	}
	veh := skill(t, in, "vehicles")
	if err := in.Act(&Action{Party: 0, Targets: []int{1}, Checks: []Use{{Member: 0, Skill: veh}}}); err != nil {
		t.Fatal(err)
	}
	rec := &Recorder{}
	in.Sink = rec.Record
	// Becky 15+6 = 21 against Joe (reckless: his favourite, vehicles) 1+7.
	if err := in.Step(dice.Scripted(15, 1)); err != nil {
		t.Fatal(err)
	}
	checks := rec.Of(EvCheck)
	if len(checks) != 2 || checks[1].Party != "pursuer" || checks[1].Member != "Joe" || checks[1].Skill != "vehicles" || checks[1].Total != 8 {
		t.Errorf("checks %+v, want Joe's vehicles 1+7 answering Becky", checks)
	}
	if in.Edge(0) != 6 || in.Edge(1) != 4 {
		t.Errorf("edge %d/%d, want 6/4", in.Edge(0), in.Edge(1))
	}
}

// TestStepsRefusedWhileAnActionAwaitsReactions: nothing that starts a round
// or ends it may come between an action and its reactions, and an illegal
// reaction leaves the action waiting, with the state and Roller untouched.
func TestStepsRefusedWhileAnActionAwaitsReactions(t *testing.T) {
	in := carChase(t)
	if err := in.Start(dice.Scripted(17, 10)); err != nil {
		t.Fatal(err)
	}
	veh, def := skill(t, in, "vehicles"), skill(t, in, "defense")
	act := &Action{Party: 0, Targets: []int{1}, Checks: []Use{{Member: 0, Skill: veh}}}
	if err := in.React(dice.Scripted(1, 1), nil, nil); err == nil {
		t.Error("React with no action declared was accepted")
	}
	if err := in.Act(act); err != nil {
		t.Fatal(err)
	}
	r := dice.NewSeeded(1)
	before, rb := in.State(), rollerBytes(t, r)
	refused := map[string]error{
		"act again":      in.Act(act),
		"play":           in.Round(r, &Declaration{Action: *act, Reactions: []Reaction{{Party: 1, Checks: []Use{{Member: 0, Skill: veh}}}}}),
		"surrender":      in.Concede(1, Surrender),
		"no reaction":    in.React(r, nil, nil),
		"illegal skill":  in.React(r, []Reaction{{Party: 1, Checks: []Use{{Member: 0, Skill: def + 100}}}}, nil),
		"wrong party":    in.React(r, []Reaction{{Party: 0, Checks: []Use{{Member: 0, Skill: veh}}}}, nil),
		"seize by actor": in.React(r, []Reaction{{Party: 1, Checks: []Use{{Member: 0, Skill: veh}}}}, []int{0}),
	}
	for name, err := range refused {
		if err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if !errors.Is(refused["act again"], ErrInFlight) || !errors.Is(refused["surrender"], ErrInFlight) {
		t.Errorf("act again: %v; surrender: %v; want ErrInFlight", refused["act again"], refused["surrender"])
	}
	if d := cmp.Diff(before, in.State()); d != "" || !cmp.Equal(rb, rollerBytes(t, r)) {
		t.Errorf("refused steps changed the state or the Roller:\n%s", d)
	}
	if _, ok := in.Pending(); !ok {
		t.Error("the action no longer awaits its reactions")
	}
}

// TestRestoredStateWithIllegalPendingActionIsRefused: a saved pending
// action is checked as Act checks one.
func TestRestoredStateWithIllegalPendingActionIsRefused(t *testing.T) {
	in := carChase(t)
	if err := in.Start(dice.Scripted(17, 10)); err != nil {
		t.Fatal(err)
	}
	veh := skill(t, in, "vehicles")
	good := in.State()
	for name, a := range map[string]*Action{
		"not the initiative holder": {Party: 1, Targets: []int{0}, Checks: []Use{{Member: 0, Skill: veh}}},
		"targets itself":            {Party: 0, Targets: []int{0}, Checks: []Use{{Member: 0, Skill: veh}}},
		"no such member":            {Party: 0, Targets: []int{1}, Checks: []Use{{Member: 7, Skill: veh}}},
		"too many checks":           {Party: 0, Targets: []int{1}, Checks: make([]Use, MaxMembers+1)},
	} {
		st := good
		st.Pending = a
		if err := st.Check(); err == nil || !strings.Contains(err.Error(), "pending") {
			t.Errorf("%s: Check = %v, want a refusal naming state.pending", name, err)
		}
	}
	st := good
	st.Pending = &Action{Party: 0, Targets: []int{1}, Checks: []Use{{Member: 0, Skill: veh}}}
	if err := st.Check(); err != nil {
		t.Errorf("a legal pending action: %v", err)
	}
}

// TestLegalReactions: against a deception in a social battle, the rival
// may use deception itself (the same skill), insight (naturally opposed),
// perception and wits (safe), and the other social skills at -1; stealth
// (a skill of another type) is not open to it. Each listed choice is one
// React accepts.
func TestLegalReactions(t *testing.T) {
	in := social(t, one("A", map[string]int{"deception": 5}), one("B", map[string]int{"insight": 3, "persuasion": 2}))
	if err := in.Start(dice.Scripted(20, 1)); err != nil {
		t.Fatal(err)
	}
	a := &Action{Party: 0, Targets: []int{1}, Checks: []Use{{Member: 0, Skill: skill(t, in, "deception")}}}
	got := map[string]int{}
	for _, c := range in.LegalReactions(1, 0, a) {
		got[c.Name] = c.Mod
	}
	want := map[string]int{"deception": 0, "insight": 3, "perception": 0, "wits": 0,
		"persuasion": 1, "intimidation": -1, "knowledge": -1, "performance": -1, "willpower": -1}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("legal reactions (-want +got):\n%s", d)
	}
	if err := in.Act(a); err != nil {
		t.Fatal(err)
	}
	for _, c := range in.LegalReactions(1, 0, a) {
		st := in.State()
		if err := in.React(dice.Scripted(10, 10), []Reaction{{Party: 1, Checks: []Use{{Member: 0, Skill: c.Skill}}}}, nil); err != nil {
			t.Errorf("React with listed %s: %v", c.Name, err)
		}
		if err := in.SetState(st); err != nil {
			t.Fatal(err)
		}
	}
	if err := in.React(dice.Scripted(10, 10), []Reaction{{Party: 1, Checks: []Use{{Member: 0, Skill: skill(t, in, "stealth")}}}}, nil); err == nil {
		t.Error("stealth was accepted as a social reaction")
	}
	if acts := in.LegalActs(0, 0); len(acts) != 9 {
		t.Errorf("%d legal social actions, want the 9 social skills: %v", len(acts), acts)
	}
	if in.LegalActs(0, 5) != nil || !cmp.Equal(in.LegalTargets(0), []int{1}) {
		t.Error("legal choices of a member that does not exist, or targets")
	}
}

// TestUseOfNamesMembersAndSkills: the text's car chase declared by names.
func TestUseOfNamesMembersAndSkills(t *testing.T) {
	in := carChase(t)
	lead, ok := in.Party("lead car")
	if !ok || lead != 0 {
		t.Fatalf("Party(lead car) = %d, %v", lead, ok)
	}
	bob, err := in.UseOf(lead, "Bob", "ranged attack")
	if err != nil || bob != (Use{Member: 1, Skill: skill(t, in, "ranged attack")}) {
		t.Errorf("UseOf(Bob, ranged attack) = %+v, %v", bob, err)
	}
	for _, bad := range [][2]string{{"Bobby", "vehicles"}, {"Bob", "flying"}} {
		if _, err := in.UseOf(lead, bad[0], bad[1]); err == nil {
			t.Errorf("UseOf(%q, %q) accepted", bad[0], bad[1])
		}
	}
	if _, err := in.UseOf(5, "Bob", "vehicles"); err == nil {
		t.Error("UseOf a party that does not exist accepted")
	}
	if _, ok := in.Party("police"); ok {
		t.Error("Party(police) found")
	}
}
