package edge

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stakesrpg/stakes/dice"
)

// played returns the default chase's engine and a state a few steps in,
// with events recorded from there on by rec.
func played(t *testing.T, steps int) (*Engine, *State) {
	t.Helper()
	e, err := DefaultScenario().NewEngine()
	if err != nil {
		t.Fatal(err)
	}
	s := e.NewState()
	r := dice.NewSeeded(3)
	for range steps {
		if err := e.Step(s, r); err != nil {
			t.Fatal(err)
		}
	}
	return e, s
}

// runEvents plays s to the end with e and returns every event.
func runEvents(t *testing.T, e *Engine, s *State, seed uint64) []Event {
	t.Helper()
	rec := &Recorder{}
	e.Sink = rec.Record
	defer func() { e.Sink = nil }()
	if err := e.Play(s, dice.NewSeeded(seed)); err != nil {
		t.Fatal(err)
	}
	return rec.Events
}

// TestStateSavedAndRestoredIntoTheSameEnginePlaysOn: a state saved as
// JSON and read back is played on by the engine that made it, exactly as
// the state that was never saved.
func TestStateSavedAndRestoredIntoTheSameEnginePlaysOn(t *testing.T) {
	e, s := played(t, 3)
	raw, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var back State
	if err := json.Unmarshal(raw, &back); err != nil {
		t.Fatal(err)
	}
	if err := e.Check(&back); err != nil {
		t.Fatalf("the engine refuses its own saved state: %v", err)
	}
	want := runEvents(t, e, s, 9)
	got := runEvents(t, e, &back, 9)
	if len(want) == 0 {
		t.Fatal("no events")
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("restored state diverges (-never saved +restored):\n%s", d)
	}
}

// TestStepGivenAStateOfAnotherScenarioIsRefused: every step and query of
// an engine refuses a state of another scenario, changing nothing, and
// the state's own Scenario.NewEngine builds the engine that plays it.
func TestStepGivenAStateOfAnotherScenarioIsRefused(t *testing.T) {
	e, _ := played(t, 0)
	other := DefaultScenario()
	other.Parties[0].Members[0].Skills["vehicles"] = 2
	oe, err := other.NewEngine()
	if err != nil {
		t.Fatal(err)
	}
	s := oe.NewState()
	r := dice.NewSeeded(1)
	if err := oe.Start(s, r); err != nil {
		t.Fatal(err)
	}
	before, roller := s.Clone(), *r
	veh, _ := e.Skill("vehicles")
	d := &Declaration{Action: Action{Party: s.Initiative, Targets: []int{1 - s.Initiative}, Checks: []Use{{Skill: veh}}},
		Reactions: []Reaction{{Party: 1 - s.Initiative, Checks: []Use{{Skill: veh}}}}}
	steps := map[string]func() error{
		"Step":    func() error { return e.Step(s, r) },
		"Round":   func() error { return e.Round(s, r, d) },
		"Act":     func() error { return e.Act(s, &d.Action) },
		"Concede": func() error { return e.Concede(s, 0, Surrender) },
		"Abandon": func() error { return e.Abandon(s, 0, 0) },
		"Outside": func() error { return e.Outside(s, r, Factor{Skill: "reflex", DC: 30, Penalty: -1}) },
		"Play":    func() error { return e.Play(s, r) },
		"LegalActs": func() error {
			_, err := e.LegalActs(s, 0, 0)
			return err
		},
		"LegalTargets": func() error {
			_, err := e.LegalTargets(s, 0)
			return err
		},
	}
	for name, step := range steps {
		if err := step(); err == nil || !strings.Contains(err.Error(), "scenario") {
			t.Errorf("%s with a state of another scenario = %v, want a refusal naming the scenario", name, err)
		}
		if d := cmp.Diff(before, *s); d != "" || *r != roller {
			t.Errorf("refused %s changed the state or the roller:\n%s", name, d)
		}
	}
	re, err := s.Scenario.NewEngine()
	if err != nil {
		t.Fatal(err)
	}
	if err := re.Step(s, r); err != nil {
		t.Errorf("the restored engine refuses its state: %v", err)
	}
}

// TestRulesChangedBetweenStepsAreRefused: a state whose rules (or any part
// of its scenario) changed since its engine was built is refused, not
// played by the engine's tables for the old rules; Scenario.NewEngine
// builds the engine of the new rules, which plays them. A step compares
// the scenario in full where it was replaced since the engine last stepped
// the state (here a changed copy put in its place), and refuses it,
// changing nothing; edited in place, it is refused by Check, which always
// compares in full.
func TestRulesChangedBetweenStepsAreRefused(t *testing.T) {
	for name, change := range map[string]func(*Scenario){
		"unpaired penalty": func(sc *Scenario) { sc.Rules.Unpaired = -3 },
		"a safe skill":     func(sc *Scenario) { sc.Rules.Types["chase"] = withSafe(sc.Rules.Types["chase"], "reflex") },
		"repetition":       func(sc *Scenario) { sc.Rules.Repetition[0] = -2 },
		"max rounds":       func(sc *Scenario) { sc.Rules.MaxRounds = 3 },
		"a member's skill": func(sc *Scenario) { sc.Parties[1].Members[0].Skills["vehicles"] = 0 },
	} {
		t.Run(name, func(t *testing.T) {
			e, s := played(t, 2)
			changed := s.Scenario.clone()
			change(&changed)
			s.Scenario = changed
			before := s.Clone()
			r := dice.NewSeeded(4)
			roller := *r
			if err := e.Step(s, r); err == nil || !strings.Contains(err.Error(), "scenario") {
				t.Errorf("step after the rules changed = %v, want a refusal", err)
			}
			if d := cmp.Diff(before, *s); d != "" || *r != roller {
				t.Errorf("refused step changed the state or the roller:\n%s", d)
			}
			ne, err := s.Scenario.NewEngine()
			if err != nil {
				t.Fatal(err)
			}
			if err := ne.Step(s, r); err != nil {
				t.Errorf("the engine of the new rules refuses the state: %v", err)
			}
			e, s = played(t, 2)
			change(&s.Scenario)
			if err := e.Check(s); err == nil || !strings.Contains(err.Error(), "scenario") {
				t.Errorf("Check after the rules changed in place = %v, want a refusal", err)
			}
		})
	}
}

func withSafe(t Type, skill string) Type {
	t.Safe = append(append([]string(nil), t.Safe...), skill)
	return t
}

// TestRulesChangedBetweenStepsArePlayed: a changed rule that takes effect
// through a new engine plays the new rule (the unpaired penalty).
func TestRulesChangedBetweenStepsArePlayed(t *testing.T) {
	sc := Scenario{Rules: DefaultRules(), Type: "chase", Parties: []Party{
		one("A", map[string]int{"reflex": 5}), one("B", map[string]int{"acrobatics": 2}),
	}}
	e, err := sc.NewEngine()
	if err != nil {
		t.Fatal(err)
	}
	s := e.NewState()
	if err := e.Start(s, dice.Scripted(20, 1)); err != nil {
		t.Fatal(err)
	}
	veh, _ := e.Skill("vehicles")
	acro, _ := e.Skill("acrobatics")
	a := &Action{Party: 0, Targets: []int{1}, Checks: []Use{{Skill: veh}}}
	mod := func(e *Engine) int {
		cs, err := e.LegalReactions(s, 1, 0, a)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cs {
			if c.Skill == acro {
				return c.Mod
			}
		}
		t.Fatal("acrobatics is no legal reaction")
		return 0
	}
	if m := mod(e); m != 2-1 {
		t.Errorf("acrobatics +2 unpaired at -1: %+d", m)
	}
	s.Scenario.Rules.Unpaired = -4
	ne, err := s.Scenario.NewEngine()
	if err != nil {
		t.Fatal(err)
	}
	if m := mod(ne); m != 2-4 {
		t.Errorf("acrobatics +2 unpaired at -4: %+d", m)
	}
}

// TestEngineCopiedByValueServesGoroutines: one engine, copied by value into
// eight goroutines, each playing its own state, plays exactly what the
// engine plays alone (run with -race).
func TestEngineCopiedByValueServesGoroutines(t *testing.T) {
	e, _ := played(t, 0)
	want := make([]Outcome, 8)
	for i := range want {
		s := e.NewState()
		if err := e.Play(s, dice.NewSeeded(uint64(i))); err != nil {
			t.Fatal(err)
		}
		want[i] = s.Outcome
	}
	got := make([]Outcome, 8)
	errs := make([]error, 8)
	var wg sync.WaitGroup
	for i := range got {
		c := *e
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 20 {
				s := c.NewState()
				errs[i] = c.Play(s, dice.NewSeeded(uint64(i)))
				got[i] = s.Outcome
			}
		}()
	}
	wg.Wait()
	for i := range got {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("copies of the engine on goroutines (-alone +copies):\n%s", d)
	}
}

// TestPoliciesAssignedAnewChangeOnlyTheirEngine: a copy made before its
// Policies were replaced keeps the policies it had.
func TestPoliciesAssignedAnewChangeOnlyTheirEngine(t *testing.T) {
	e, _ := played(t, 0)
	c := *e
	e.Policies = []Policy{&Style{NoSeize: true, Wager: 2}, e.Policies[1]}
	if _, ok := c.Policies[0].(*Style); !ok || *c.Policies[0].(*Style) != styles["cautious"] {
		t.Errorf("the copy's policy changed: %+v", c.Policies[0])
	}
}

// TestScenarioChangedInAnyFieldIsAnotherScenario: changing any one field
// of a scenario, however deep (a rule, a type's skill list, a member's
// skill, a factor's party), makes it another scenario to the engine's
// check, so no field a step depends on can change unseen. The fields are
// found by reflection, so a field added later is covered too.
func TestScenarioChangedInAnyFieldIsAnotherScenario(t *testing.T) {
	base := DefaultScenario()
	base.Circumstances = map[string]int{"vehicles": 1}
	base.Factors = []Factor{{After: 1, Every: 2, Skill: "endurance", DC: 10, Penalty: -1, Parties: []string{"pursuer"}}}
	var paths []string
	walk(reflect.ValueOf(&base).Elem(), "scenario", func(path string, change func(reflect.Value)) {
		paths = append(paths, path)
		c := base.clone()
		change(reflect.ValueOf(&c).Elem())
		if base.same(&c) {
			t.Errorf("changing %s leaves the same scenario", path)
		}
		if !base.same(&base) {
			t.Fatalf("a scenario is not the same as itself")
		}
	})
	if len(paths) < 40 {
		t.Errorf("only %d fields changed: %v", len(paths), paths)
	}
	// An empty list or map and none are the same, as in JSON.
	c, d := base.clone(), base.clone()
	c.Circumstances, d.Circumstances = nil, map[string]int{}
	c.Factors[0].Parties, d.Factors[0].Parties = nil, []string{}
	if !c.same(&d) || !d.same(&c) {
		t.Error("an empty list or map is not the same as none")
	}
}

// walk calls visit for every field reachable from v (through structs, the
// first element of slices and every value of maps), with a function that
// changes that field in a value of the same shape.
func walk(v reflect.Value, path string, visit func(string, func(reflect.Value))) {
	at := func(root reflect.Value) reflect.Value { return root }
	walkAt(v, path, at, visit)
}

func walkAt(v reflect.Value, path string, at func(reflect.Value) reflect.Value, visit func(string, func(reflect.Value))) {
	if v.Type() == reflect.TypeOf(dice.Pool{}) {
		visit(path, func(root reflect.Value) {
			d6, _ := dice.NewPool(dice.D6)
			at(root).Set(reflect.ValueOf(d6))
		})
		return
	}
	switch v.Kind() {
	case reflect.Struct:
		for i := range v.NumField() {
			i := i
			walkAt(v.Field(i), path+"."+v.Type().Field(i).Name, func(root reflect.Value) reflect.Value { return at(root).Field(i) }, visit)
		}
	case reflect.Slice:
		visit(path+"+", func(root reflect.Value) {
			f := at(root)
			f.Set(reflect.Append(f, reflect.Zero(f.Type().Elem())))
		})
		if v.Len() > 0 {
			walkAt(v.Index(0), path+"[0]", func(root reflect.Value) reflect.Value { return at(root).Index(0) }, visit)
		}
	case reflect.Map:
		visit(path+"+", func(root reflect.Value) {
			f := at(root)
			if f.IsNil() {
				f.Set(reflect.MakeMap(f.Type()))
			}
			f.SetMapIndex(reflect.ValueOf("added"), reflect.Zero(f.Type().Elem()))
		})
		for _, k := range v.MapKeys() {
			walkMapValue(v, k, path, at, visit)
		}
	case reflect.Int:
		visit(path, func(root reflect.Value) { f := at(root); f.SetInt(f.Int() + 1) })
	case reflect.String:
		visit(path, func(root reflect.Value) { f := at(root); f.SetString(f.String() + "x") })
	case reflect.Bool:
		visit(path, func(root reflect.Value) { f := at(root); f.SetBool(!f.Bool()) })
	case reflect.Array:
		for i := range v.Len() {
			walkAt(v.Index(i), fmt.Sprintf("%s[%d]", path, i), func(root reflect.Value) reflect.Value { return at(root).Index(i) }, visit)
		}
	default:
		panic("walk: unhandled kind " + v.Kind().String() + " at " + path)
	}
}

// walkMapValue visits the fields of map value m[k]: a map value cannot be
// set in place, so a change copies it out, changes it and stores it back.
func walkMapValue(m, k reflect.Value, path string, at func(reflect.Value) reflect.Value, visit func(string, func(reflect.Value))) {
	elem := m.MapIndex(k)
	self := func(v reflect.Value) reflect.Value { return v }
	walkAt(elem, fmt.Sprintf("%s[%v]", path, k), self, func(p string, change func(reflect.Value)) {
		visit(p, func(root reflect.Value) {
			mm := at(root)
			c := reflect.New(elem.Type()).Elem()
			c.Set(mm.MapIndex(k))
			change(c)
			mm.SetMapIndex(k, c)
		})
	})
}

// kitScenarios are the scenarios the conformance kit checks: the text's
// car chase (exact answers exist), the same with a crowd among the
// pursuers and a scheduled outside factor, and a court of three where
// every party acts in turn, so that every kind of step is taken (and the
// same court where a character checks once a round).
func kitScenarios() map[string]Scenario {
	factors := DefaultScenario()
	factors.Parties[1].Members = append(factors.Parties[1].Members, Member{Name: "bikers", Size: 12, Skills: map[string]int{"vehicles": 2}})
	factors.Factors = []Factor{{After: 2, Every: 4, Skill: "endurance", DC: 11, Penalty: -1}}
	court := Scenario{Rules: DefaultRules(), Type: "social", Parties: []Party{
		{Name: "duke", Policy: "canny", Members: []Member{{Name: "duke", Skills: map[string]int{"persuasion": 4, "wits": 2}}, {Name: "page", Skills: map[string]int{"insight": 1}}}},
		{Name: "envoy", Policy: "cautious", Members: []Member{{Name: "envoy", Skills: map[string]int{"deception": 3, "perception": 2}}}},
		{Name: "jester", Policy: "reckless", Members: []Member{{Name: "jester", Skills: map[string]int{"performance": 5}}}},
	}}
	court.Rules.Turns = EveryParty
	once := court.clone()
	once.Rules.OnceARound = true
	return map[string]Scenario{"chase": DefaultScenario(), "crowd and factors": factors, "every party": court, "every party, once a round": once}
}
