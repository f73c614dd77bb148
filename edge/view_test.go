package edge

import (
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stakesrpg/stakes/dice"
)

// TestCheckSetting: the check is a setting; 2d10+1 replaces the d20.
func TestCheckSetting(t *testing.T) {
	s := DefaultScenario()
	pool, err := dice.ParsePool("2d10+1")
	if err != nil {
		t.Fatal(err)
	}
	s.Rules.Check = pool
	in, err := newSession(s)
	if err != nil {
		t.Fatal(err)
	}
	rec := &Recorder{}
	in.Sink = rec.Record
	// Start: Becky 9+8+1+3 = 21, Joe 1+1+1+4 = 7. Round: Becky 2+2+1+6 = 11,
	// Joe 10+10+1+7 = 28.
	r := dice.Scripted(9, 8, 1, 1, 2, 2, 10, 10)
	if err := in.Start(r); err != nil {
		t.Fatal(err)
	}
	veh := skill(t, in, "vehicles")
	if err := in.Play(r, &Declaration{Action: Action{Party: 0, Targets: []int{1}, Checks: []Use{{Member: 0, Skill: veh}}},
		Reactions: []Reaction{{Party: 1, Checks: []Use{{Member: 0, Skill: veh}}}}}); err != nil {
		t.Fatal(err)
	}
	var totals []int
	for _, e := range rec.Events {
		if e.Kind == EvStart || e.Kind == EvCheck {
			totals = append(totals, e.Total)
		}
	}
	if d := cmp.Diff([]int{21, 7, 11, 28}, totals); d != "" {
		t.Errorf("totals (-want +got):\n%s", d)
	}
	if in.Edge(0) != 4 || in.Edge(1) != 7 || in.Initiative() != 1 || r.Remaining() != 0 {
		t.Errorf("edge %d/%d initiative %d", in.Edge(0), in.Edge(1), in.Initiative())
	}
}

// spy is a policy that records what its view shows and defers to steady.
type spy struct {
	Style
	seen []string
}

func (s *spy) Concede(v *View, p int) Concession {
	o := 1 - p
	s.seen = append(s.seen, strings.Join([]string{
		v.Name(p), v.Name(o), boolStr(v.Passive(o)), itoa(v.Members(p)), itoa(v.Edge(p)), boolStr(v.Out(o)),
		itoa(v.Initiative()), itoa(v.Round()), boolStr(v.CanWalkAway()), itoa(len(v.Known(p, 0))),
		v.SkillName(v.Known(p, 0)[0]), boolStr(v.Skills() > 10), itoa(v.Parties()),
	}, " "))
	return Continue
}

func boolStr(b bool) string {
	if b {
		return "y"
	}
	return "n"
}

func itoa(i int) string { return strconv.Itoa(i) }

func TestView(t *testing.T) {
	in, err := newSession(DefaultScenario())
	if err != nil {
		t.Fatal(err)
	}
	sp := &spy{}
	if err := in.SetPolicy(1, sp); err != nil {
		t.Fatal(err)
	}
	r := dice.Scripted(20, 1, 20, 1)
	for range 2 {
		if err := in.Step(r); err != nil {
			t.Fatal(err)
		}
	}
	// Joe's view before round 1: the lead car holds the initiative.
	if d := cmp.Diff([]string{"pursuer lead car n 1 6 n 0 0 n 4 reflex y 2"}, sp.seen); d != "" {
		t.Errorf("view (-want +got):\n%s", d)
	}
	if in.Rules().StartEdge != 5 {
		t.Error("Rules() lost the rules")
	}
}

// TestDescribe narrates every kind of event.
func TestDescribe(t *testing.T) {
	s := Scenario{Rules: DefaultRules(), Type: "social", Parties: []Party{
		{Name: "court", Members: []Member{{Name: "courtiers", Size: 30, Skills: map[string]int{"wits": 2, "endurance": 1}}}},
		one("fop", map[string]int{"persuasion": 3}),
		one("wit", map[string]int{"deception": 3}),
	}}
	in, err := newSession(s)
	if err != nil {
		t.Fatal(err)
	}
	rec := &Recorder{}
	in.Sink = rec.Record
	r := dice.Scripted(20, 1, 1, 20, 1, 5, 5)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(in.Start(r))
	must(in.Abandon(0, 0))
	must(in.Outside(r, Factor{Skill: "endurance", DC: 10, Penalty: -1, Parties: []string{"court", "fop"}}))
	must(in.Play(r, &Declaration{Action: Action{Party: 0, Targets: []int{1}, Checks: []Use{{Member: 0, Skill: skill(t, in, "wits")}}},
		Reactions: []Reaction{{Party: 1, Checks: []Use{{Member: 0, Skill: skill(t, in, "persuasion")}}}}, Seize: []int{2}}))
	must(in.Concede(1, Surrender))
	must(in.Concede(2, WalkAway))
	var got []string
	for _, e := range rec.Events {
		got = append(got, in.Describe(e))
	}
	want := []string{
		`start: courtiers ("court") rolls perception 20+5 = 25`,
		`start: fop ("fop") rolls perception 1+0 = 1`,
		`start: wit ("wit") rolls perception 1+0 = 1`,
		`round 0: "court" has the initiative`,
		`round 0: courtiers abandons its stragglers`,
		`after round 0: courtiers checks endurance: 20+1 = 21, passes`,
		`after round 0: fop checks endurance: 1+0 = 1, fails (-1 from now on)`,
		`round 1: courtiers wagers a die on wits: 5+6 = 11`,
		// persuasion 3, the failed endurance check -1, unpaired against wits -1.
		`round 1: fop wagers a die on persuasion: 5+1 = 6`,
		`round 1: wit tries to seize the initiative with wits: 1+0 = 1`,
		`round 1: fop gives 1 edge die to courtiers`,
		`round 1: "fop" surrenders 4 edge dice to "court"`,
		`round 1: "fop" is out of edge dice`,
		`round 1: "wit" walks away`,
		`end after 1 rounds (walked_away): "court" wins, but not outright`,
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("narration (-want +got):\n%s", d)
	}
	for k := EvStart; k <= EvEnd+1; k++ {
		if k.String() == "" {
			t.Errorf("kind %d has no name", k)
		}
	}
	if Concession(7).String() == "" || End(9).String() == "" {
		t.Error("unknown values have no names")
	}
}
