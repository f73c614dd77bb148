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
	if err := in.Round(r, &Declaration{Action: Action{Party: 0, Targets: []int{1}, Checks: []Use{{Member: 0, Skill: veh}}},
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
	in.Policies[1] = sp
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

// TestEventStringNarratesEveryKind: every kind of event reads as a
// sentence naming who did what, with which skill and numbers.
func TestEventStringNarratesEveryKind(t *testing.T) {
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
	must(in.Round(r, &Declaration{Action: Action{Party: 0, Targets: []int{1}, Checks: []Use{{Member: 0, Skill: skill(t, in, "wits")}}},
		Reactions: []Reaction{{Party: 1, Checks: []Use{{Member: 0, Skill: skill(t, in, "persuasion")}}}}, Seize: []int{2}}))
	must(in.Concede(1, Surrender))
	must(in.Concede(2, WalkAway))
	var got []string
	for _, e := range rec.Events {
		got = append(got, e.String())
	}
	want := []string{
		"Before the first round, courtiers (court) rolls perception for the order of action: 20 + 5 = 25.",
		"Before the first round, fop rolls perception for the order of action: 1 + 0 = 1.",
		"Before the first round, wit rolls perception for the order of action: 1 + 0 = 1.",
		"Court acts first.",
		"Before the first round, courtiers (court) abandons its stragglers: one rank less, but no longer slowed on endurance checks.",
		"Before the first round, an outside factor: courtiers (court) rolls endurance, 20 + 1 = 21, and passes.",
		"Before the first round, an outside factor: fop rolls endurance, 1 + 0 = 1, and fails: -1 on every later check.",
		"Round 1: courtiers (court) wagers an edge die on wits: 5 + 6 = 11.",
		// persuasion 3, the failed endurance check -1, unpaired against wits -1.
		"Round 1: fop wagers an edge die on persuasion: 5 + 1 = 6.",
		"Round 1: wit rolls wits to seize the initiative, risking nothing: 1 + 0 = 1.",
		"Round 1: fop loses an edge die to courtiers (court), who rolled higher.",
		"Round 1: fop surrenders, handing 4 edge dice to court.",
		"Round 1: fop has no edge dice left and is out.",
		"Round 1: wit walks away from the interaction.",
		"The interaction ends after 1 round: wit walked away, and court, holding the most edge dice, wins, though not outright.",
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
