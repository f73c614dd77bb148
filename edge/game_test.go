package edge

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim"
)

// startGame starts a *Game of s.
func startGame(t *testing.T, s Scenario) *Game {
	t.Helper()
	g, err := s.Start(dice.NewSeeded(1))
	if err != nil {
		t.Fatal(err)
	}
	return g.(*Game)
}

// TestEveryStepRefusesANilRoller: every step that may roll, the Game's and
// the Runner's included, returns dice.ErrNilRoller for a nil Roller and
// changes nothing.
func TestEveryStepRefusesANilRoller(t *testing.T) {
	in, _ := defaultStarted(t)
	e, s := in.Engine, in.s
	before := s.Clone()
	veh, _ := e.Skill("vehicles")
	d := &Declaration{Action: Action{Party: s.Initiative, Targets: []int{1 - s.Initiative}, Checks: []Use{{Skill: veh}}},
		Reactions: []Reaction{{Party: 1 - s.Initiative, Checks: []Use{{Skill: veh}}}}}
	rn, err := DefaultScenario().NewRunner()
	if err != nil {
		t.Fatal(err)
	}
	g := startGame(t, DefaultScenario())
	steps := map[string]func() error{
		"Engine.Start":   func() error { return e.Start(e.NewState(), nil) },
		"Engine.Factors": func() error { return e.Factors(s, nil) },
		"Engine.React":   func() error { return e.React(s, nil, d.Reactions, nil) },
		"Engine.Round":   func() error { return e.Round(s, nil, d) },
		"Engine.Outside": func() error { return e.Outside(s, nil, Factor{Skill: "reflex", DC: 10}) },
		"Engine.Step":    func() error { return e.Step(s, nil) },
		"Engine.Play":    func() error { return e.Play(s, nil) },
		"Runner.Trial":   func() error { _, err := rn.Trial(nil, nil); return err },
		"Scenario.Start": func() error { _, err := DefaultScenario().Start(nil); return err },
		"Game.Step":      func() error { return g.Step(nil) },
	}
	for name, step := range steps {
		if err := step(); !errors.Is(err, dice.ErrNilRoller) {
			t.Errorf("%s with a nil Roller = %v, want dice.ErrNilRoller", name, err)
		}
	}
	if diff := cmp.Diff(before, *s); diff != "" {
		t.Errorf("a refused step changed the state:\n%s", diff)
	}
}

// TestTrialReturnsTheErrorOfAnIllegalPolicy: a trial whose policy answers
// illegally returns that error and no category, never a plausible outcome.
func TestTrialReturnsTheErrorOfAnIllegalPolicy(t *testing.T) {
	rn, err := DefaultScenario().NewRunner()
	if err != nil {
		t.Fatal(err)
	}
	rn.in.Policies = []Policy{badPolicy{&Style{}}, badPolicy{&Style{}}}
	c, err := rn.Trial(dice.NewSeeded(1), make([]int, 8))
	if err == nil || !strings.Contains(err.Error(), "targets itself") || c != -1 {
		t.Errorf("trial with an illegal policy = %d, %v; want -1 and the reason", c, err)
	}
}

// TestGameOutcomeIsTheRunnersTrial: a game stepped through the contract
// from the start ends in the category and metrics a Runner's trial with
// the same dice reports.
func TestGameOutcomeIsTheRunnersTrial(t *testing.T) {
	for name, s := range kitScenarios() {
		rn, err := s.NewRunner()
		if err != nil {
			t.Fatal(err)
		}
		for seed := range uint64(20) {
			want := make([]int, len(s.Metrics()))
			wc, err := rn.Trial(dice.NewSeeded(seed), want)
			if err != nil {
				t.Fatal(err)
			}
			g := startGame(t, s)
			r := dice.NewSeeded(seed)
			for !g.Done() {
				if err := g.Step(r); err != nil {
					t.Fatal(err)
				}
			}
			got := make([]int, len(s.Metrics()))
			gc, err := g.Outcome(got)
			if err != nil || gc != wc || !slices.Equal(got, want) {
				t.Fatalf("%s seed %d: game %d %v (%v), trial %d %v", name, seed, gc, got, err, wc, want)
			}
		}
	}
}

// TestGameOutcomeOfARunningGameIsAnError: no outcome before the end.
func TestGameOutcomeOfARunningGameIsAnError(t *testing.T) {
	g := startGame(t, DefaultScenario())
	if c, err := g.Outcome(nil); err == nil || c != -1 {
		t.Errorf("outcome of a running game = %d, %v", c, err)
	}
}

// TestGameSavedRestoredSavesTheSameBytesAndPlaysOn: at every step, saving,
// restoring and saving again gives the same bytes, and the restored game
// (with the Roller's bytes) narrates what the uninterrupted one does.
func TestGameSavedRestoredSavesTheSameBytesAndPlaysOn(t *testing.T) {
	for name, s := range kitScenarios() {
		g := startGame(t, s)
		r := dice.NewSeeded(5)
		for step := 0; !g.Done(); step++ {
			saved, err := g.Save()
			if err != nil {
				t.Fatal(err)
			}
			back, err := s.Restore(saved)
			if err != nil {
				t.Fatalf("%s step %d: %v", name, step, err)
			}
			again, err := back.Save()
			if err != nil || !bytes.Equal(saved, again) {
				t.Fatalf("%s step %d: the restored game saves other bytes (%v):\n%s\n%s", name, step, err, saved, again)
			}
			var rb dice.Roller
			if err := rb.UnmarshalBinary(rollerBytes(t, r)); err != nil {
				t.Fatal(err)
			}
			var want, got []string
			g.Listen(func(e sim.Event) { want = append(want, e.String()) })
			back.Listen(func(e sim.Event) { got = append(got, e.String()) })
			if err := g.Step(r); err != nil {
				t.Fatal(err)
			}
			if err := back.Step(&rb); err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Fatalf("%s step %d: restored game diverges:\n%s", name, step, d)
			}
		}
	}
}

// TestRestoreRefusesWhatNoSaveHolds: unknown fields, trailing values,
// oversized input, names the scenario lacks and states no step reaches are
// refused with the reason.
func TestRestoreRefusesWhatNoSaveHolds(t *testing.T) {
	g := startGame(t, DefaultScenario())
	if err := g.Step(dice.NewSeeded(1)); err != nil {
		t.Fatal(err)
	}
	saved, err := g.Save()
	if err != nil {
		t.Fatal(err)
	}
	s := string(saved)
	for name, c := range map[string]struct{ in, want string }{
		"unknown field":  {strings.Replace(s, `"round":`, `"bogus":1,"round":`, 1), "unknown field"},
		"trailing value": {s + " {}", "data after the JSON value"},
		"unknown member": {strings.Replace(s, `"name":"Becky","last_round"`, `"name":"Nobody","last_round"`, 1), "Nobody"},
		"negative edge":  {strings.Replace(s, `"edge":5`, `"edge":-5`, 1), "edge"},
		"too large":      {s + strings.Repeat(" ", MaxSave), "at most"},
		"not json":       {"{", "reading a saved game"},
	} {
		if _, err := (Scenario{}).Restore([]byte(c.in)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error containing %q", name, err, c.want)
		}
	}
}

// TestInterceptedAnswerOfAnotherTypeChangesNothing: a Chooser answering
// with a value of another type fails the step, and the state and the
// Roller are as before it.
func TestInterceptedAnswerOfAnotherTypeChangesNothing(t *testing.T) {
	for _, q := range []string{"Concession", "Action", "Reaction"} {
		g := startGame(t, DefaultScenario())
		r := dice.NewSeeded(3)
		if err := g.Step(r); err != nil {
			t.Fatal(err)
		}
		g.Intercept(func(view, answer any) any {
			if _, ok := view.(*Question); !ok {
				t.Fatalf("the Chooser was handed a %T", view)
			}
			if strings.HasSuffix(strings.TrimPrefix(typeName(answer), "edge."), q) {
				return "bogus"
			}
			return answer
		})
		before, draws := g.State().Clone(), rollerBytes(t, r)
		if err := g.Step(r); err == nil || !strings.Contains(err.Error(), "want a") {
			t.Errorf("%s answered with a string: %v", q, err)
		}
		if d := cmp.Diff(before, *g.State()); d != "" || !bytes.Equal(draws, rollerBytes(t, r)) {
			t.Errorf("%s: the refused step changed the state or the Roller:\n%s", q, d)
		}
		g.Intercept(nil)
		if err := g.Step(r); err != nil {
			t.Errorf("%s: the policies alone again: %v", q, err)
		}
	}
}

// TestInterceptedIllegalActionChangesNothing: a Chooser turning the
// action on its own party fails the step with the rules' reason, and the
// step changes nothing; a Chooser passing answers through plays as the
// policies do.
func TestInterceptedIllegalActionChangesNothing(t *testing.T) {
	g := startGame(t, DefaultScenario())
	r := dice.NewSeeded(3)
	if err := g.Step(r); err != nil {
		t.Fatal(err)
	}
	g.Intercept(func(_, answer any) any {
		if a, ok := answer.(Action); ok {
			a.Targets = []int{a.Party}
			return a
		}
		return answer
	})
	before, draws := g.State().Clone(), rollerBytes(t, r)
	if err := g.Step(r); err == nil || !strings.Contains(err.Error(), "targets itself") {
		t.Errorf("action on itself: %v", err)
	}
	if d := cmp.Diff(before, *g.State()); d != "" || !bytes.Equal(draws, rollerBytes(t, r)) {
		t.Errorf("the refused step changed the state or the Roller:\n%s", d)
	}
	g.Intercept(func(_, answer any) any { return answer })
	for !g.Done() {
		if err := g.Step(r); err != nil {
			t.Fatal(err)
		}
	}
}

func typeName(v any) string { return fmt.Sprintf("%T", v) }

// TestDescribeHasATermForEveryName: every category and metric of the
// built-in chase and of every shape the kit checks has a Term, and the
// title changes with the settings.
func TestDescribeHasATermForEveryName(t *testing.T) {
	for name, s := range kitScenarios() {
		d := s.Describe()
		if d.Summary == "" || d.Title == "" {
			t.Errorf("%s: %+v", name, d)
		}
		for _, n := range append(s.Categories(), s.Metrics()...) {
			if !slices.ContainsFunc(d.Terms, func(tm sim.Term) bool { return matches(tm.Key, n) }) {
				t.Errorf("%s: no term for %q", name, n)
			}
		}
	}
	s := DefaultScenario()
	before := s.Describe().Title
	s.Parties[1].BonusEdge = 3
	s.Parties[0].Policy = "reckless"
	if after := s.Describe().Title; after == before || !strings.Contains(after, "+3 edge") || !strings.Contains(after, "reckless") {
		t.Errorf("title after the settings changed: %q (before %q)", after, before)
	}
}

// matches reports whether a Term's key names n ("*_wins" matches
// "lead_car_wins").
func matches(key, n string) bool {
	if rest, ok := strings.CutPrefix(key, "*"); ok {
		return strings.HasSuffix(n, rest) && len(n) > len(rest)
	}
	return key == n
}

// TestARefusedStepIsHeardByNobody: under a Chooser, a step refused at the
// scheduled outside factors (whose groups are asked whether they shed
// their stragglers, answered with a string, before any die is rolled)
// reaches no listener; played again with the policies' answers, it is
// heard.
func TestARefusedStepIsHeardByNobody(t *testing.T) {
	s := kitScenarios()["crowd and factors"]
	g := startGame(t, s)
	r := dice.NewSeeded(3)
	var heard []Event
	g.Listen(func(e sim.Event) { heard = append(heard, e.(Event)) })
	bogus := func(_, answer any) any {
		if _, ok := answer.(bool); ok {
			return "bogus"
		}
		return answer
	}
	g.Intercept(bogus)
	for !g.Done() {
		n := len(heard)
		err := g.Step(r)
		if err == nil {
			continue
		}
		if len(heard) != n {
			t.Fatalf("a refused step was heard: %v", heard[n:])
		}
		g.Intercept(func(_, answer any) any { return answer })
		if err := g.Step(r); err != nil {
			t.Fatal(err)
		}
		if !slices.ContainsFunc(heard[n:], func(e Event) bool { return e.Kind == EvOutside }) {
			t.Fatalf("the step played again is not the outside factors: %v", heard[n:])
		}
		return
	}
	t.Error("no step was refused: the test tried nothing")
}
