package contest

import (
	"bytes"
	"errors"

	"slices"
	"strings"
	"testing"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim"
)

// start begins a game of sc, failing t if it cannot.
func start(t *testing.T, sc Scenario) *Game {
	t.Helper()
	g, err := sc.Start(dice.NewSeeded(0))
	if err != nil {
		t.Fatal(err)
	}
	return g.(*Game)
}

// A game played step by step from Scenario.Start ends in the category and
// metrics a Runner's trial reports for the same dice, and saving it at any
// step, restoring and saving again gives the same bytes.
func TestGameMatchesTrialAndSavesRoundTrip(t *testing.T) {
	for name, sc := range shapes() {
		t.Run(name, func(t *testing.T) {
			rn, err := sc.NewRunner()
			if err != nil {
				t.Fatal(err)
			}
			m, gm := make([]int, len(sc.Metrics())), make([]int, len(sc.Metrics()))
			for seed := range uint64(30) {
				want := trial(t, rn, dice.NewSeeded(seed), m)
				g, r := start(t, sc), dice.NewSeeded(seed)
				for n := 0; !g.Done(); n++ {
					if n > maxPlaySteps {
						t.Fatal("the game does not end")
					}
					b, err := g.Save()
					if err != nil {
						t.Fatal(err)
					}
					back, err := sc.Restore(b)
					if err != nil {
						t.Fatalf("seed %d step %d: restoring %s: %v", seed, n, b, err)
					}
					if b2, _ := back.Save(); !bytes.Equal(b, b2) {
						t.Fatalf("seed %d step %d: saved again as\n%s\nnot\n%s", seed, n, b2, b)
					}
					if err := g.Step(r); err != nil {
						t.Fatal(err)
					}
				}
				got, err := g.Outcome(gm)
				if err != nil || got != want || !slices.Equal(gm, m) {
					t.Fatalf("seed %d: game ended %d %v (%v), the trial %d %v", seed, got, gm, err, want, m)
				}
			}
		})
	}
}

// Outcome of a game still going, and Step of a finished one, are errors.
func TestGameOutcomeOnlyWhenDone(t *testing.T) {
	g := start(t, DefaultScenario())
	if _, err := g.Outcome(nil); !errors.Is(err, ErrPhase) {
		t.Errorf("Outcome of a game just begun: %v", err)
	}
	r := dice.NewSeeded(3)
	for !g.Done() {
		must(t, g.Step(r))
	}
	if err := g.Step(r); !errors.Is(err, ErrPhase) {
		t.Errorf("Step of a finished game: %v", err)
	}
}

// Every answer goes through the Chooser, with the View it was asked from;
// a Chooser that hands the answers back unchanged plays the same game.
func TestInterceptSeesEveryAnswer(t *testing.T) {
	for name, sc := range shapes() {
		t.Run(name, func(t *testing.T) {
			plain, seen := start(t, sc), start(t, sc)
			asked := 0
			seen.Intercept(func(view, answer any) any {
				if _, ok := view.(*View); !ok {
					t.Fatalf("view %T, not a *View", view)
				}
				asked++
				return answer
			})
			r1, r2 := dice.NewSeeded(5), dice.NewSeeded(5)
			for !plain.Done() {
				must(t, plain.Step(r1))
				must(t, seen.Step(r2))
			}
			a, _ := plain.Save()
			b, _ := seen.Save()
			if !seen.Done() || !bytes.Equal(a, b) || asked == 0 {
				t.Errorf("asked %d times; with the Chooser the game saved\n%s\nwithout\n%s", asked, b, a)
			}
		})
	}
}

// An answer of another type than the policy's is refused, and the step
// changes neither the game nor the Roller and reports no event.
func TestInterceptWrongTypeChangesNothing(t *testing.T) {
	g := start(t, DefaultScenario())
	heard := 0
	g.Listen(func(sim.Event) { heard++ })
	g.Intercept(func(_, answer any) any { return "bogus" })
	r := dice.NewSeeded(9)
	before, _ := g.Save()
	rb, _ := r.MarshalBinary()
	err := g.Step(r)
	after, _ := g.Save()
	ra, _ := r.MarshalBinary()
	if err == nil || !strings.Contains(err.Error(), "string") || !bytes.Equal(before, after) || !bytes.Equal(rb, ra) || heard != 0 {
		t.Errorf("err %v, %d events; state changed %v, roller changed %v", err, heard, !bytes.Equal(before, after), !bytes.Equal(rb, ra))
	}
}

// An out-of-range answer (more extra dice than affordable) is refused and
// the step put back whole, Roller included.
func TestInterceptIllegalAnswerChangesNothing(t *testing.T) {
	g := start(t, DefaultScenario())
	g.Intercept(func(view, answer any) any {
		if n, ok := answer.(int); ok {
			return n + 99
		}
		return answer
	})
	r := dice.NewSeeded(9)
	before, _ := g.Save()
	rb, _ := r.MarshalBinary()
	err := g.Step(r)
	after, _ := g.Save()
	ra, _ := r.MarshalBinary()
	if err == nil || !bytes.Equal(before, after) || !bytes.Equal(rb, ra) {
		t.Errorf("err %v; state changed %v, roller changed %v", err, !bytes.Equal(before, after), !bytes.Equal(rb, ra))
	}
}

// Listen hears each event with its own dice and faces, narrated.
func TestListenHearsNarratedEvents(t *testing.T) {
	g := start(t, DefaultScenario())
	var heard []sim.Event
	g.Listen(func(e sim.Event) { heard = append(heard, e) })
	r := dice.NewSeeded(2)
	for !g.Done() {
		must(t, g.Step(r))
	}
	if len(heard) == 0 {
		t.Fatal("no events")
	}
	i := slices.IndexFunc(heard, func(e sim.Event) bool { return e.(Event).Kind == EvRolled })
	if i < 0 || !strings.HasPrefix(heard[i].String(), "Villain rolled") {
		t.Errorf("events %q", heard)
	}
}

// Restore refuses what no Save wrote: unknown fields, data after the
// game, too many bytes, a missing state, and a state that is not a game of
// its scenario.
func TestRestoreRefusesWhatNoGameSaved(t *testing.T) {
	sc := DefaultScenario()
	good, err := start(t, sc).Save()
	must(t, err)
	other, err := start(t, threeWay()).Save()
	must(t, err)
	timed, err := start(t, timedScenario()).Save()
	must(t, err)
	swap := func(b []byte, from, to string) []byte { return bytes.Replace(b, []byte(from), []byte(to), 1) }
	for name, c := range map[string]struct {
		b    []byte
		want string
	}{
		"unknown field":   {swap(good, `{"scenario"`, `{"extra":1,"scenario"`), "unknown field"},
		"trailing data":   {append(slices.Clone(good), "{}"...), "data after the JSON value"},
		"too large":       {make([]byte, maxSaved+1), "at most"},
		"no state":        {swap(good, `"state":{`, `"statx":{`), "unknown field"},
		"null state":      {[]byte(`{"scenario":` + string(mustJSON(t, sc)) + `,"state":null}`), "no state"},
		"other sides":     {swap(other, `"state":`, `"state_":`), "unknown field"},
		"timed in action": {[]byte(`{"scenario":` + string(mustJSON(t, sc)) + `,"state":` + stateOf(t, timed) + `}`), ""},
		"bad scenario":    {swap(good, `"kind":"contested"`, `"kind":"brawl"`), "kind"},
	} {
		t.Run(name, func(t *testing.T) {
			g, err := sc.Restore(c.b)
			if err == nil || g != nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Restore = %v, %v; want an error saying %q", g, err, c.want)
			}
			if len(err.Error()) > 400 {
				t.Errorf("an error of %d bytes", len(err.Error()))
			}
		})
	}
}

// stateOf is the "state" member of a saved game.
func stateOf(t *testing.T, saved []byte) string {
	t.Helper()
	i := bytes.Index(saved, []byte(`"state":`))
	if i < 0 {
		t.Fatal("no state")
	}
	return string(saved[i+len(`"state":`) : len(saved)-1])
}

// A nil Roller is dice.ErrNilRoller from every step that rolls, from Step
// and Play, from a trial and from Start, before anything changes.
func TestNilRollerIsAnErrorInEveryStep(t *testing.T) {
	e := mustEngine(t)
	begun := func() *State {
		s := testScene()
		must(t, e.Begin(s, Contested, []SideSetup{side(villain, villainPool()), side(hero, heroPool())}, 0))
		return s
	}
	timed := func() *State {
		s := testScene()
		must(t, e.BeginTimed(s, hero, heroPool(), 3, []TimedStep{{Stakes: []dice.Die{dice.D6}}}, nil))
		return s
	}
	rn, err := DefaultScenario().NewRunner()
	must(t, err)
	rules := DefaultRules()
	for name, step := range map[string]func() error{
		"Play":         func() error { return e.Play(begun(), nil) },
		"Step":         func() error { return e.Step(begun(), nil) },
		"Step timed":   func() error { return e.Step(timed(), nil) },
		"Roll":         func() error { return e.Roll(begun(), nil, villainPool()) },
		"Aid":          func() error { return e.Aid(begun(), nil, 0, sidekick, nil) },
		"Interfere":    func() error { return e.Interfere(begun(), nil, bystander, nil) },
		"Brawl":        func() error { return e.Brawl(begun(), nil) },
		"Inflict":      func() error { return e.Inflict(begun(), nil, -1, nil) },
		"TimedRoll":    func() error { return e.TimedRoll(timed(), nil, nil) },
		"BuyTime":      func() error { return e.BuyTime(timed(), nil, 0) },
		"TimedInflict": func() error { return e.TimedInflict(timed(), nil, -1) },
		"BasicRoll":    func() error { return rules.BasicRoll(nil, []dice.Die{dice.D6}, []dice.Die{dice.D6}, &BasicResult{}) },
		"Trial":        func() error { _, err := rn.Trial(nil, nil); return err },
		"Start":        func() error { _, err := DefaultScenario().Start(nil); return err },
		"Game.Step":    func() error { return start(t, DefaultScenario()).Step(nil) },
	} {
		if err := step(); !errors.Is(err, dice.ErrNilRoller) {
			t.Errorf("%s with a nil Roller: %v", name, err)
		}
	}
}

// Every event kind narrates as a sentence naming who did it.
func TestEventStringNarratesEveryKind(t *testing.T) {
	for k := EvRolled; k <= EvWaived; k++ {
		e := Event{Kind: k, Side: 0, Char: 1, Value: 2, Die: dice.D8, Name: "Justice", Who: "Hero", SideName: "Villain",
			Dice: []dice.Die{dice.D8, dice.D6}, Faces: []int{5, 1}}
		s := e.String()
		if !strings.HasSuffix(s, ".") || strings.HasPrefix(s, "Event") || !(strings.Contains(s, "Hero") || strings.Contains(s, "Villain") || strings.Contains(s, "Trouble")) {
			t.Errorf("%v: %q", k, s)
		}
	}
	for _, c := range []struct {
		e    Event
		want string
	}{
		{Event{Kind: EvRolled, Side: 1, Char: 0, Value: 9, Who: "Hero", Dice: []dice.Die{dice.D8, dice.D6}, Faces: []int{5, 4}}, "Hero rolled d8 d6 (5, 4) for a total of 9."},
		{Event{Kind: EvGaveIn, Side: 1, Char: 0, Value: 1, Who: "Hero", SideName: "Hero"}, "Hero gave in, paying 1 Plot Point to the opposition."},
		{Event{Kind: EvStakes, Side: 0, Char: -1, Value: 7}, "The GM set the stakes at 7."},
		{Event{Kind: EvTrouble, Side: -1, Char: -1, Value: -1, Die: dice.D8}, "The Trouble Pool lost a d8."},
		{Event{Kind: EvAided, Side: 1, Char: 2, Value: 6, Who: "Sidekick", SideName: "Hero"}, "Sidekick aided Hero with a die showing 6."},
	} {
		if got := c.e.String(); got != c.want {
			t.Errorf("%v: %q, want %q", c.e.Kind, got, c.want)
		}
	}
}

// Describe has a Term for every category and metric of every built-in
// shape, and its Title changes when the scenario's settings do.
func TestDescribeHasATermForEveryName(t *testing.T) {
	for name, sc := range shapes() {
		d := sc.Describe()
		if d.Summary == "" || d.Title == "" {
			t.Errorf("%s: %+v", name, d)
		}
		for _, n := range append(sc.Categories(), sc.Metrics()...) {
			if !hasTerm(d.Terms, n) {
				t.Errorf("%s: no term for %q", name, n)
			}
		}
	}
	sc := DefaultScenario()
	before := sc.Describe().Title
	sc.Cast[1].Policy = "default"
	mid := sc.Describe().Title
	sc.Sides[1].Pool = sc.Sides[1].Pool[:2]
	if after := sc.Describe().Title; before == mid || mid == after {
		t.Errorf("titles %q, %q, %q", before, mid, after)
	}
	if want := "Detective [1 PP, default]"; !strings.Contains(before, want) {
		t.Errorf("title %q does not show %q (the Plot Points he plays with)", before, want)
	}
}

// hasTerm reports whether terms explain name (a "*" key matching any
// name that ends in the rest).
func hasTerm(terms []sim.Term, name string) bool {
	for _, tm := range terms {
		if end, ok := strings.CutPrefix(tm.Key, "*"); tm.Key == name || ok && strings.HasSuffix(name, end) && len(name) > len(end) {
			return true
		}
	}
	return false
}

var _ sim.Game = (*Game)(nil)

// A clone shares no buffer with its state: the timed action's stakes dice
// and faces, which the next step rolls into, are the clone's own.
func TestCloneOfATimedActionSharesNoDice(t *testing.T) {
	g := start(t, timedScenario())
	must(t, g.Step(dice.NewSeeded(4)))
	s := g.State()
	if len(s.Timed.SDice) == 0 || len(s.Timed.SFaces) == 0 {
		t.Fatal("no stakes rolled")
	}
	c := s.Clone()
	c.Timed.SDice[0], c.Timed.SFaces[0] = dice.D12, 99
	if s.Timed.SDice[0] == dice.D12 || s.Timed.SFaces[0] == 99 {
		t.Errorf("the clone shares the stakes dice or faces: %v %v", s.Timed.SDice, s.Timed.SFaces)
	}
}

// A hand-played step allocates nothing once the game's buffers have grown,
// in every scenario shape.
func TestStepAllocatesNothing(t *testing.T) {
	for name, sc := range shapes() {
		st := newStepper(t, sc)
		r := dice.NewSeeded(7)
		for range 200 {
			st.step(t, r)
		}
		if n := testing.AllocsPerRun(500, func() { st.step(t, r) }); n != 0 {
			t.Errorf("%s: %v allocations a step", name, n)
		}
	}
}

// Restore never panics: what it refuses it refuses with an error, and what
// it accepts saves back to the same bytes it would write and plays to its
// end (or refuses a step) within the Play bound.
func FuzzRestore(f *testing.F) {
	sc := DefaultScenario()
	for _, shape := range shapes() {
		g, err := shape.Start(dice.NewSeeded(0))
		if err != nil {
			f.Fatal(err)
		}
		r := dice.NewSeeded(1)
		for i := 0; i < 3 && !g.Done(); i++ {
			b, _ := g.Save()
			f.Add(b)
			if err := g.Step(r); err != nil {
				f.Fatal(err)
			}
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		g, err := sc.Restore(b)
		if err != nil {
			return
		}
		saved, err := g.Save()
		if err != nil {
			t.Fatal(err)
		}
		back, err := sc.Restore(saved)
		if err != nil {
			t.Fatalf("a restored game's save is refused: %v", err)
		}
		if again, _ := back.Save(); !bytes.Equal(saved, again) {
			t.Fatalf("saves differ:\n%s\n%s", saved, again)
		}
		r := dice.NewSeeded(2)
		for n := 0; !g.Done() && n < maxPlaySteps; n++ {
			if g.Step(r) != nil {
				return
			}
		}
	})
}
