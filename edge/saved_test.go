package edge

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stakesrpg/stakes/dice"
)

// TestSavedStateNamesPartiesMembersAndSkills: a save names the initiative,
// the order of action and the pending action's parties, members and
// skills, and reads back to the same State.
func TestSavedStateNamesPartiesMembersAndSkills(t *testing.T) {
	in, err := newSession(DefaultScenario())
	if err != nil {
		t.Fatal(err)
	}
	in.s.Started, in.s.Initiative = true, 1
	in.s.Order = append(in.s.Order[:0], 1, 0)
	ranged := skill(t, in, "ranged attack")
	if err := in.Act(&Action{Party: 1, Targets: []int{0}, Checks: []Use{{Member: 0, Skill: ranged, Mod: -2}}}); err != nil {
		t.Fatal(err)
	}
	saved, err := json.Marshal(in.State())
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`"initiative":"pursuer"`,
		`"order":["pursuer","lead car"]`,
		`"pending":{"party":"pursuer","targets":["lead car"],"checks":[{"member":"Joe","skill":"ranged attack","mod":-2}]}`,
		`"outcome":{"end":"running"}`,
	} {
		if !strings.Contains(string(saved), want) {
			t.Errorf("the save lacks %s: %s", want, saved)
		}
	}
	var back State
	if err := json.Unmarshal(saved, &back); err != nil {
		t.Fatal(err)
	}
	again, err := json.Marshal(back)
	if err != nil {
		t.Fatal(err)
	}
	if string(again) != string(saved) {
		t.Errorf("the save does not read back the same:\n%s\n%s", saved, again)
	}
	if back.Initiative != 1 || back.Pending == nil || back.Pending.Checks[0] != (Use{Member: 0, Skill: ranged, Mod: -2}) {
		t.Errorf("read back initiative %d, pending %+v", back.Initiative, back.Pending)
	}
}

// TestSavedStateWithAnUnknownNameIsRefused: a name that is not the
// scenario's is refused, naming the field and the names allowed.
func TestSavedStateWithAnUnknownNameIsRefused(t *testing.T) {
	in, err := newSession(DefaultScenario())
	if err != nil {
		t.Fatal(err)
	}
	in.s.Started, in.s.Initiative = true, 0
	in.s.Order = append(in.s.Order[:0], 0, 1)
	if err := in.Act(&Action{Party: 0, Targets: []int{1}, Checks: []Use{{Member: 0, Skill: skill(t, in, "vehicles")}}}); err != nil {
		t.Fatal(err)
	}
	saved, err := json.Marshal(in.State())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ from, to, want string }{
		{`"initiative":"lead car"`, `"initiative":"lead van"`, `state.initiative: party "lead van" does not exist: want one of "lead car", "pursuer"`},
		{`"order":["lead car"`, `"order":["nobody"`, `state.order: party "nobody" does not exist`},
		{`"member":"Becky"`, `"member":"Joe"`, `state.pending.checks: "lead car" has no member "Joe": want one of "Becky", "Bob"`},
		{`"skill":"vehicles"}`, `"skill":"flying"}`, `state.pending.checks: skill "flying" does not exist`},
		{`"targets":["pursuer"]`, `"targets":["police"]`, `state.pending.targets: party "police" does not exist`},
		{`"outcome":{"end":"running"}`, `"outcome":{"end":"running","winner":"Joe"}`, `state.outcome.winner: party "Joe" does not exist`},
	} {
		bad := strings.Replace(string(saved), c.from, c.to, 1)
		if bad == string(saved) {
			t.Fatalf("%s is not in the save", c.from)
		}
		var st State
		err := json.Unmarshal([]byte(bad), &st)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error with %q", c.to, err, c.want)
		}
	}
}

// TestStateWithANumberOutOfRangeDoesNotSave: a State built by hand with a
// party number its scenario lacks cannot be written by name.
func TestStateWithANumberOutOfRangeDoesNotSave(t *testing.T) {
	in, err := newSession(DefaultScenario())
	if err != nil {
		t.Fatal(err)
	}
	st := in.State()
	st.Initiative = 7
	if _, err := json.Marshal(st); err == nil || !strings.Contains(err.Error(), "state.initiative: party 7 does not exist") {
		t.Errorf("got %v", err)
	}
}

// TestEventJSONNamesPartiesMembersAndSkills: the text's car chase round
// logs its checks and transfers by name.
func TestEventJSONNamesPartiesMembersAndSkills(t *testing.T) {
	in, err := newSession(DefaultScenario())
	if err != nil {
		t.Fatal(err)
	}
	rec := &Recorder{}
	in.Sink = rec.Record
	in.s.Started, in.s.Initiative = true, 0
	in.s.Order = append(in.s.Order[:0], 0, 1)
	veh, ranged := skill(t, in, "vehicles"), skill(t, in, "ranged attack")
	d := &Declaration{
		Action:    Action{Party: 0, Targets: []int{1}, Checks: []Use{{Member: 0, Skill: veh}, {Member: 1, Skill: ranged}}},
		Reactions: []Reaction{{Party: 1, Checks: []Use{{Member: 0, Skill: veh}}}},
	}
	if err := in.Round(dice.Scripted(15, 9, 12), d); err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	for _, e := range rec.Events {
		b, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		log.Write(b)
		log.WriteByte('\n')
	}
	for _, want := range []string{
		`{"kind":"check","round":1,"party":"lead car","member":"Bob","skill":"ranged attack","roll":9,"mod":5,"total":14,"staked":true}`,
		`{"kind":"transfer","round":1,"party":"lead car","member":"Bob","to":"pursuer","to_member":"Joe","dice":1}`,
	} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("the log lacks %s:\n%s", want, log.String())
		}
	}
}
