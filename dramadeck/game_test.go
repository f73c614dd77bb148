package dramadeck

import (
	"bytes"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim"
)

// startGame starts the built-in scenario's game with seed.
func startGame(t *testing.T, sc Scenario, seed uint64) (*Game, *dice.Roller) {
	t.Helper()
	r := dice.NewSeeded(seed)
	g, err := sc.Start(r)
	if err != nil {
		t.Fatal(err)
	}
	return g.(*Game), r
}

// A game played through the contract ends as the Runner's trial on the
// same seed ends: the same category and the same metrics.
func TestGameOutcomeIsTheTrials(t *testing.T) {
	sc := DefaultScenario()
	rn, err := sc.NewRunner()
	if err != nil {
		t.Fatal(err)
	}
	for seed := uint64(1); seed <= 20; seed++ {
		g, r := startGame(t, sc, seed)
		for !g.Done() {
			if err := g.Step(r); err != nil {
				t.Fatal(err)
			}
		}
		got := make([]int, len(sc.Metrics()))
		k, err := g.Outcome(got)
		if err != nil {
			t.Fatal(err)
		}
		want := make([]int, len(sc.Metrics()))
		wk := mustTrial(t, rn, dice.NewSeeded(seed), want)
		if k != wk || !slices.Equal(got, want) {
			t.Errorf("seed %d: game %d %v, trial %d %v", seed, k, got, wk, want)
		}
	}
}

// Outcome of a game still going is an error, not a category.
func TestGameOutcomeBeforeTheEndIsAnError(t *testing.T) {
	g, _ := startGame(t, DefaultScenario(), 1)
	if _, err := g.Outcome(nil); err == nil {
		t.Fatal("Outcome of a game just begun: no error")
	}
}

// A saved game restores into one that saves to the same bytes and plays
// on exactly as the original does.
func TestGameSaveRestorePlaysOn(t *testing.T) {
	sc := DefaultScenario()
	g, r := startGame(t, sc, 5)
	for range 25 {
		if err := g.Step(r); err != nil {
			t.Fatal(err)
		}
	}
	b, err := g.Save()
	if err != nil {
		t.Fatal(err)
	}
	rb, _ := r.MarshalBinary()
	h, err := sc.Restore(b)
	if err != nil {
		t.Fatal(err)
	}
	b2, _ := h.Save()
	if !bytes.Equal(b, b2) {
		t.Fatal("save(restore(save)) differs")
	}
	r2 := dice.NewSeeded(0)
	if err := r2.UnmarshalBinary(rb); err != nil {
		t.Fatal(err)
	}
	for !g.Done() {
		if err := g.Step(r); err != nil {
			t.Fatal(err)
		}
		if err := h.Step(r2); err != nil {
			t.Fatal(err)
		}
	}
	if !h.Done() {
		t.Fatal("the restored game did not end with the original")
	}
	e1, _ := g.Save()
	e2, _ := h.Save()
	if !bytes.Equal(e1, e2) {
		t.Error("the restored game ended elsewhere")
	}
}

// Restore refuses an unknown field, a second value, a state no step could
// reach, and an oversized save, with the reason.
func TestGameRestoreRefusesBadSaves(t *testing.T) {
	sc := DefaultScenario()
	g, _ := startGame(t, sc, 1)
	b, _ := g.Save()
	cases := map[string][]byte{
		"unknown field":  bytes.Replace(b, []byte(`"scenario":{`), []byte(`"scenario":{"colour":1,`), 1),
		"unknown state":  bytes.Replace(b, []byte(`"state":{`), []byte(`"state":{"colour":1,`), 1),
		"two values":     append(slices.Clone(b), []byte(` {}`)...),
		"bad state":      bytes.Replace(b, []byte(`"hp":`), []byte(`"hp":-`), 1),
		"bad scenario":   bytes.Replace(b, []byte(`"max_rounds":30`), []byte(`"max_rounds":0`), 1),
		"not json":       []byte("{"),
		"too large":      make([]byte, maxSave+1),
		"missing cards":  bytes.Replace(b, []byte(`"draw":[`), []byte(`"draw":[9999,`), 1),
		"empty":          nil,
		"null scenario":  []byte(`{"scenario":null,"state":null}`),
		"wrong nesting":  []byte(`[]`),
		"string instead": []byte(`"dramadeck"`),
		"another study":  bytes.Replace(b, []byte(`"scenario":{`), []byte(`"scenario":{"study":"adventure","acts":1,"scenes_per_act":1,`), 1),
	}
	for name, data := range cases {
		if _, err := sc.Restore(data); err == nil {
			t.Errorf("%s: restored", name)
		} else if len(err.Error()) > 400 {
			t.Errorf("%s: an error of %d bytes", name, len(err.Error()))
		}
	}
}

// A nil Roller is dice.ErrNilRoller from every step that may roll.
func TestNilRollerIsAnErrorFromEveryStep(t *testing.T) {
	sc := DefaultScenario()
	g, _ := startGame(t, sc, 1)
	s := g.State()
	pol, _ := sc.Policies()
	e := Engine{Policies: pol}
	rn, _ := sc.NewRunner()
	steps := map[string]func() error{
		"Start":          func() error { _, err := sc.Start(nil); return err },
		"Game.Step":      func() error { return g.Step(nil) },
		"Trial":          func() error { _, err := rn.Trial(nil, nil); return err },
		"Step":           func() error { return e.Step(s, nil) },
		"Round":          func() error { return e.Round(s, nil) },
		"Play":           func() error { return e.Play(s, nil) },
		"Act":            func() error { return e.Act(s, nil, 0, Choice{Act: Defend}) },
		"EnterPlay":      func() error { return e.EnterPlay(s, nil, 0) },
		"AddPlayer":      func() error { _, err := e.AddPlayer(s, nil, sc.Heroes[0]); return err },
		"Draw":           func() error { return e.Draw(s, nil, 0) },
		"PlayFromHand":   func() error { return e.PlayFromHand(s, nil, 0, Play{}) },
		"Declare":        func() error { return e.Declare(s, nil, 0, nil) },
		"PlayHaste":      func() error { return e.PlayHaste(s, nil, 0, 0) },
		"CriticalMoment": func() error { return e.CriticalMoment(s, nil, 0, nil, nil) },
		"Search":         func() error { _, err := e.Search(s, nil, 0, 10); return err },
		"EndScene":       func() error { return e.EndScene(s, nil) },
		"BeginRound":     func() error { return e.BeginRound(s, nil) },
		"Shuffle":        func() error { return e.Shuffle(s, nil) },
		"TaskRound":      func() error { return e.TaskRound(s, nil, 0) },
		"TaskStep":       func() error { return e.TaskStep(s, nil, 0, BarA) },
		"AttemptSteps":   func() error { return e.AttemptSteps(s, nil, 0, BarA, 0, 1) },
	}
	before, _ := s.Save()
	for name, step := range steps {
		if err := step(); !errors.Is(err, dice.ErrNilRoller) {
			t.Errorf("%s with a nil Roller: %v", name, err)
		}
	}
	if after, _ := s.Save(); !bytes.Equal(before, after) {
		t.Error("a step refused for a nil Roller changed the state")
	}
}

// Steps under policies refuse an Engine missing one, changing nothing.
func TestStepNeedsBothPolicies(t *testing.T) {
	g, r := startGame(t, DefaultScenario(), 1)
	pol := mustPolicy(t, "default")
	for _, tb := range []Table{{}, {Heroes: pol}, {GM: pol}} {
		if err := (Engine{Policies: tb}).Step(g.State(), r); err == nil {
			t.Errorf("%+v: stepped", tb)
		}
		if _, err := NewEngine(tb); err == nil {
			t.Errorf("NewEngine(%+v): no error", tb)
		}
	}
}

// With a Chooser set, every policy answer passes through it with the view
// it was asked from; an answer of the wrong type refuses the step, which
// leaves the game and the Roller as they were.
func TestChooserWrongTypeRefusesTheStepWhole(t *testing.T) {
	g, r := startGame(t, DefaultScenario(), 3)
	asked := 0
	g.Intercept(func(view, answer any) any {
		if _, ok := view.(*View); !ok {
			if _, ok := view.(*TaskView); !ok {
				t.Errorf("view of type %T", view)
			}
		}
		asked++
		return answer
	})
	for range 40 {
		if err := g.Step(r); err != nil {
			t.Fatal(err)
		}
	}
	if asked == 0 {
		t.Fatal("the Chooser was never asked")
	}
	var heard []sim.Event
	g.Listen(func(e sim.Event) { heard = append(heard, e) })
	refused := 0
	g.Intercept(func(view, answer any) any { return struct{}{} })
	for range 20 {
		before, _ := g.Save()
		rb, _ := r.MarshalBinary()
		n := len(heard)
		err := g.Step(r)
		if err == nil {
			continue // a step that asked nothing (the flip, the round's end)
		}
		refused++
		after, _ := g.Save()
		ra, _ := r.MarshalBinary()
		if !bytes.Equal(before, after) || !bytes.Equal(rb, ra) || len(heard) != n {
			t.Fatalf("refused step (%v) changed the game, the Roller or was heard", err)
		}
		if !strings.Contains(err.Error(), "not a") {
			t.Errorf("refusal names no type: %v", err)
		}
		break
	}
	if refused == 0 {
		t.Fatal("no wrong-typed answer was refused")
	}
	g.Intercept(nil)
	for !g.Done() {
		if err := g.Step(r); err != nil {
			t.Fatal(err)
		}
	}
}

// Every event kind narrates as a sentence naming who did what, never as
// field dumps.
func TestEventStringNarratesEveryKind(t *testing.T) {
	for k := EvDeal; k <= EvFumble; k++ {
		e := Event{Kind: k, Round: 2, Who: 0, Target: 1, Card: 3, Name: "Brick", TargetName: "Boss", CardName: "Hero",
			Act: Attack, Effect: Setback, Roll: 9, Value: int(HeroesWin), Success: true}
		s := e.String()
		if !strings.HasSuffix(s, ".") || strings.Contains(s, "=") || strings.Contains(s, "%!") {
			t.Errorf("%v: %q", k, s)
		}
		if e.Who >= 0 && k != EvReshuffle && k != EvFlip && k != EvOutcome && k != EvSubplotAward && k != EvAward && !strings.Contains(s, "Brick") && !strings.Contains(s, "Boss") {
			t.Errorf("%v names nobody: %q", k, s)
		}
	}
	// A played game's events name its characters and cards.
	g, r := startGame(t, DefaultScenario(), 4)
	var lines []string
	g.Listen(func(e sim.Event) { lines = append(lines, e.String()) })
	for !g.Done() {
		if err := g.Step(r); err != nil {
			t.Fatal(err)
		}
	}
	all := strings.Join(lines, "\n")
	for _, want := range []string{"Round 1: the GM turns", "Brick", "Boss", "The encounter ends"} {
		if !strings.Contains(all, want) {
			t.Errorf("no %q in the narration", want)
		}
	}
}

// Every category and metric of the built-in scenarios has a Term, and the
// title changes with the settings.
func TestDescribeHasATermForEveryName(t *testing.T) {
	titles := map[string]string{}
	for name, sc := range Builtins() {
		d := sc.Describe()
		if d.Summary == "" || d.Title == "" {
			t.Fatalf("%s: %+v", name, d)
		}
		if other, ok := titles[d.Title]; ok {
			t.Errorf("%s and %s have one title %q", name, other, d.Title)
		}
		titles[d.Title] = name
		keys := map[string]bool{}
		for _, tm := range d.Terms {
			keys[tm.Key] = tm.Text != "" && tm.Text != tm.Key
		}
		for _, n := range append(sc.Categories(), sc.Metrics()...) {
			if !keys[n] {
				t.Errorf("%s: no term for %q", name, n)
			}
		}
	}
	sc := DefaultScenario()
	d := sc.Describe()
	other := sc
	other.Dramatic, other.HeroPolicy = true, "cautious"
	if other.Describe().Title == d.Title {
		t.Error("the title does not change with the settings")
	}
}

// The Chooser's questions are the Policy's methods: each one passes
// through it (checked by name, so a new question cannot be left out).
func TestChooserCoversEveryQuestion(t *testing.T) {
	pt := reflect.TypeFor[Policy]()
	for i := range pt.NumMethod() {
		m := pt.Method(i)
		if m.Name == "Name" {
			continue
		}
		// chosen declares its questions on its pointer: one it left out
		// would be promoted from the embedded Policy, in chosen's own
		// method set too, and would skip the Chooser.
		if _, promoted := reflect.TypeFor[chosen]().MethodByName(m.Name); promoted {
			t.Errorf("%s does not pass through the Chooser", m.Name)
		}
	}
}
