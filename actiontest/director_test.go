package actiontest

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stakesrpg/stakes/dice"
)

// Each shipped Director on the same scripted rolls: what consequences the
// outcome lists and what harm the character takes.
func TestDirectors(t *testing.T) {
	none := harmOf([3]int{}, [3]int{})
	type want struct {
		cons []Consequence
		harm []TrackHarm
	}
	for _, tc := range []struct {
		director Director
		pos      Position
		faces    []int
		noHarm   bool
		want     want
	}{
		// A Desperate success: the table's complication only.
		{TableDirector{}, Desperate, []int{6, 2, 1, 1}, false, want{[]Consequence{{Kind: Complication}}, none}},
		// Harsh adds a moderate harm (the cell's severity) to it...
		{HarshDirector{}, Desperate, []int{6, 2, 1, 1}, false, want{[]Consequence{{Kind: Complication}, {Kind: Harm, Level: 2}}, harmOf([3]int{0, 1, 0}, [3]int{})}},
		// ...but not when the test risks no harm,
		{HarshDirector{}, Desperate, []int{6, 2, 1, 1}, true, want{[]Consequence{{Kind: Complication}, {Kind: Harm, Level: 2}}, none}},
		// and a clean success stays clean.
		{HarshDirector{}, Controlled, []int{6, 6, 1, 1}, false, want{nil, none}},
		// A Risky failure: the table's moderate harm...
		{TableDirector{}, Risky, []int{5, 2, 1, 1}, false, want{[]Consequence{{Kind: Complication}, {Kind: Harm, Level: 2}, {Kind: LostOpportunity}}, harmOf([3]int{0, 1, 0}, [3]int{})}},
		{HarshDirector{}, Risky, []int{5, 2, 1, 1}, false, want{[]Consequence{{Kind: Complication}, {Kind: Harm, Level: 2}, {Kind: LostOpportunity}}, harmOf([3]int{0, 1, 0}, [3]int{})}},
		// ...that Gentle leaves out: the complication and the lost chance stay.
		{GentleDirector{}, Risky, []int{5, 2, 1, 1}, false, want{[]Consequence{{Kind: Complication}, {Kind: LostOpportunity}}, none}},
		// The worst outcome's severe harm becomes a serious complication.
		{GentleDirector{}, Desperate, []int{5, 2, 1, 1}, false, want{[]Consequence{{Kind: Complication, Serious: true}, {Kind: LostOpportunity}}, none}},
		{TableDirector{}, Desperate, []int{5, 2, 1, 1}, false, want{[]Consequence{{Kind: Complication, Serious: true}, {Kind: Harm, Level: 3}, {Kind: LostOpportunity}}, harmOf([3]int{0, 0, 1}, [3]int{})}},
	} {
		c := newChar(t, DefaultRules())
		c.Director = tc.director.Name()
		at := &c.Attempt
		tst := Test{Action: "Prowl", Position: tc.pos, Difficulty: 1, NoHarm: tc.noHarm}
		if err := play(c, dice.Scripted(tc.faces...), tst, Never{}); err != nil {
			t.Fatal(err)
		}
		got := want{at.Outcome.Consequences, c.Harm}
		if d := cmp.Diff(tc.want, got, cmp.AllowUnexported(want{})); d != "" {
			t.Errorf("%s at position %s, %v (-want +got):\n%s", tc.director.Name(), tc.pos, tc.faces, d)
		}
		if at.HarmTaken != (!tc.noHarm && hasKind(tc.want.cons, Harm)) {
			t.Errorf("%s at position %s, %v: harm taken %v", tc.director.Name(), tc.pos, tc.faces, at.HarmTaken)
		}
	}
}

// The Director never changes who succeeded, the kind or the carried dice,
// and the rules' own table is left alone, however many tests it rules on.
func TestDirectorKeepsTheTable(t *testing.T) {
	rl := DefaultRules()
	for _, name := range Directors() {
		d, err := DirectorByName(name)
		if err != nil {
			t.Fatal(err)
		}
		if d.Name() != name {
			t.Errorf("director %q reports %q", name, d.Name())
		}
		c := newChar(t, rl)
		c.Director = name
		table, err := ruledTable(&c.Rules, d)
		if err != nil {
			t.Fatal(err)
		}
		r := dice.NewSeeded(5)
		for i := range 60 {
			tst := Test{Action: "Persuade", Position: Position(rl.Positions[i%3]), Difficulty: 1 + i%2, NoHarm: true}
			if err := play(c, r, tst, Never{}); err != nil {
				t.Fatal(err)
			}
		}
		for i := range rl.Table {
			for b := BandMultiple; b <= BandFailure; b++ {
				o, p := table[i][b], *rl.Table[i].Cell(b)
				if o.Kind != p.Kind || o.Succeeded != p.Succeeded || o.NextBonus != p.NextBonus {
					t.Errorf("%s changed cell %d/%d: %+v from %+v", name, i, b, o, p)
				}
			}
		}
		if d := cmp.Diff(DefaultRules().Table, c.Rules.Table); d != "" {
			t.Errorf("%s changed the rules' table:\n%s", name, d)
		}
	}
}

// badDirector rules a harm level the rules do not have.
type badDirector struct{}

func (badDirector) Name() string { return "bad" }
func (badDirector) Rule(*DirectorView) Ruling {
	return Ruling{Consequences: []Consequence{{Kind: Harm, Level: 9}}}
}

func TestBadDirector(t *testing.T) {
	rl := DefaultRules()
	if _, err := ruledTable(&rl, badDirector{}); err == nil || !strings.Contains(err.Error(), "harm level 9") {
		t.Fatalf("ruling with a bad director = %v, want an error about harm level 9", err)
	}
	if _, err := DirectorByName("cruel"); err == nil || !strings.Contains(err.Error(), `"gentle", "harsh", "table"`) {
		t.Errorf("DirectorByName(cruel) = %v, want the allowed names", err)
	}
	c := newChar(t, rl)
	c.Director = "cruel"
	if err := c.Check(); err == nil || !strings.Contains(err.Error(), `"gentle", "harsh", "table"`) {
		t.Errorf("a state ruled by an unknown director: Check = %v, want the allowed names", err)
	}
}

// The scenario's "director" field picks the Director for the runner and the
// exact model; an unknown name is an error naming the field and listing
// the choices.
func TestScenarioDirector(t *testing.T) {
	base := DefaultScenario()
	// No pushes, peril or flashbacks: harm comes only from the table.
	base.Policy, base.PerilOffered, base.Flashback = "never", false, false
	b, err := json.Marshal(base)
	if err != nil {
		t.Fatal(err)
	}
	load := func(director string) Scenario {
		t.Helper()
		var s Scenario
		if err := json.Unmarshal(b, &s); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(`{"director":"`+director+`"}`), &s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	hurt := map[string]float64{}
	for _, name := range []string{"table", "harsh", "gentle", ""} {
		s := load(name)
		ex, err := s.Exact(context.Background())
		if err != nil {
			t.Fatalf("%q: %v", name, err)
		}
		hurt[name] = ex.P[catHurt] + ex.P[catOut]
		rn, err := s.NewRunner()
		if err != nil {
			t.Fatal(err)
		}
		r := dice.NewSeeded(3)
		harmed := 0
		m := make([]int, numMetrics)
		for range 2000 {
			rn.Trial(r, m)
			if m[metHarm] > 0 {
				harmed++
			}
		}
		if name == "gentle" && harmed != 0 {
			t.Errorf("gentle director: %d of 2000 trials took harm", harmed)
		}
		if name != "gentle" && harmed == 0 {
			t.Errorf("%q director: no trial took harm", name)
		}
	}
	// Gentle never hurts; harsh hurts more often than the table (its
	// Desperate successes cost harm too); "" is the table.
	if hurt["gentle"] != 0 || !(hurt["harsh"] > hurt["table"]+0.01) || hurt[""] != hurt["table"] {
		t.Errorf("P(hurt or out) by director: %v", hurt)
	}
	bad := load("cruel")
	err = bad.Validate()
	if err == nil || !strings.HasPrefix(err.Error(), "director") || !strings.Contains(err.Error(), `"gentle", "harsh", "table"`) {
		t.Errorf("unknown director: Validate = %v, want an error naming the field and the choices", err)
	}
	if _, err := bad.NewRunner(); err == nil {
		t.Error("NewRunner accepted an unknown director")
	}
}
