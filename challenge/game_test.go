package challenge

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim"
)

// shapes are the scenario shapes the game tests play: the text's duel,
// the duel with both names on the owe list, a three-way conflict with
// helpers and interference, one of three sides the exact model answers
// (with policies that read the rolls and drop out), and a duel whose
// stats are written smallest die first (a save must keep that order).
func shapes() map[string]Scenario {
	unsorted := DefaultScenario()
	irin := &unsorted.Sides[1].Members[0].Character
	irin.Stats[Guts] = MustStat(dice.D6, dice.D12)
	irin.Stats[Grace] = MustStat(dice.D4, dice.D10)
	return map[string]Scenario{"default": DefaultScenario(), "owe": OweScenario(), "three_way": threeWay(), "three_exact": mixedThree(), "unsorted": unsorted}
}

func start(t *testing.T, s Scenario) *Game {
	t.Helper()
	g, err := s.Start(dice.NewSeeded(0))
	must(t, err)
	return g.(*Game)
}

func save(t *testing.T, g sim.Game) []byte {
	t.Helper()
	b, err := g.Save()
	must(t, err)
	return b
}

// TestSaveRestoreRoundTripsByteForByte saves every state reached in 40
// games of each shape, restores it, and wants the same bytes saved again;
// the restored game, with the Roller's bytes, plays on to the same end.
func TestSaveRestoreRoundTripsByteForByte(t *testing.T) {
	for name, s := range shapes() {
		roundTrips(t, name, s, 40)
	}
}

// TestSaveRoundTripsByteForByteUnderEveryShippedPart plays the three-way
// conflict (helpers, interference, cross-offs) with every side playing
// each shipped policy part in turn, and wants every state reached to save,
// restore and save again to the same bytes.
func TestSaveRoundTripsByteForByteUnderEveryShippedPart(t *testing.T) {
	for _, name := range PolicyNames() {
		s := threeWay()
		kind, part, _ := strings.Cut(name, "/")
		for i := range s.Sides {
			p := &s.Sides[i].Play
			switch kind {
			case KindStance:
				p.Stance = part
			case KindCross:
				p.CrossOff = part
			case KindLoss:
				p.Loss = part
			case KindTarget:
				p.Target = part
			case KindInterfere:
				p.Interfere = part
			}
		}
		roundTrips(t, name, s, 8)
	}
}

// roundTrips saves every state reached in games of s from seeds 0..n-1,
// restores it, and wants the same bytes saved again; the restored game,
// with the Roller's bytes, plays on to the same end.
func roundTrips(t *testing.T, name string, s Scenario, n uint64) {
	t.Helper()
	for seed := range n {
		g, r := start(t, s), dice.NewSeeded(seed)
		for steps := 0; !g.Done(); steps++ {
			if steps > 10_000 {
				t.Fatalf("%s seed %d: no end", name, seed)
			}
			b := save(t, g)
			back, err := s.Restore(b)
			if err != nil {
				t.Fatalf("%s seed %d: restoring %s: %v", name, seed, b, err)
			}
			if again := save(t, back); !bytes.Equal(again, b) {
				t.Fatalf("%s seed %d step %d: saved\n%s\nrestored and saved\n%s", name, seed, steps, b, again)
			}
			// Play on from the restored game, on a copy of the Roller.
			rc := dice.NewSeeded(0)
			must(t, rc.UnmarshalBinary(rollerBytes(t, r)))
			must(t, g.Step(r))
			must(t, back.Step(rc))
			if a, b := save(t, g), save(t, back); !bytes.Equal(a, b) {
				t.Fatalf("%s seed %d step %d: the restored game played on differently", name, seed, steps)
			}
		}
	}
}

// TestStatKeepsItsOrderThroughText: a stat written smallest die first
// reads back in that order (ParsePool would sort it).
func TestStatKeepsItsOrderThroughText(t *testing.T) {
	for _, text := range []string{"d4 d6", "d6 d4", "d4 2d8", "d12"} {
		var s Stat
		must(t, s.UnmarshalText([]byte(text)))
		want := strings.ReplaceAll(text, "2d8", "d8 d8")
		if s.String() != want {
			t.Errorf("%q read back as %q", text, s.String())
		}
	}
	var s Stat
	wantErr(t, s.UnmarshalText([]byte("d4 d4 d4 d4 d4")), "at most")
	wantErr(t, s.UnmarshalText([]byte(strings.Repeat("d4 ", 1000))), "at most")
}

// TestLossChosenBeforeSavePointsAtSameDie: a loss picked from the choices
// of a game before it was saved takes the same die from the restored
// game's sheet.
func TestLossChosenBeforeSavePointsAtSameDie(t *testing.T) {
	s := shapes()["unsorted"]
	for seed := range uint64(200) {
		g, r := start(t, s), dice.NewSeeded(seed)
		for !g.Done() && g.s.Phase != PhaseConsequence {
			must(t, g.Step(r))
		}
		if g.Done() {
			continue
		}
		losses, err := Engine{}.Losses(g.s, 0)
		must(t, err)
		back, err := s.Restore(save(t, g))
		must(t, err)
		for _, l := range losses {
			a, b := cloned(g.s), cloned(back.(*Game).s)
			must(t, Engine{}.Injure(a, []Loss{l}))
			must(t, Engine{}.Injure(b, []Loss{l}))
			if a.Sides[a.Answerer].Members[0].Stats != b.Sides[b.Answerer].Members[0].Stats {
				t.Fatalf("seed %d: loss %v took other dice after a restore", seed, l)
			}
		}
		return
	}
	t.Fatal("no game reached a consequence")
}

// TestNilRollerIsAnErrorFromEveryStep: every step that rolls, or may,
// returns dice.ErrNilRoller for a nil Roller and changes nothing.
func TestNilRollerIsAnErrorFromEveryStep(t *testing.T) {
	s := OweScenario()
	if _, err := s.Start(nil); !errors.Is(err, dice.ErrNilRoller) {
		t.Errorf("Start: %v", err)
	}
	g := start(t, s)
	c := g.s
	before := snapshot(t, c)
	for name, step := range map[string]func() error{
		"Game.Step":       func() error { return g.Step(nil) },
		"Engine.Step":     func() error { return Engine{}.Step(c, nil) },
		"Engine.Play":     func() error { return Engine{}.Play(c, nil) },
		"Engine.Roll":     func() error { return Engine{}.Roll(c, nil) },
		"Engine.CrossOff": func() error { return Engine{}.CrossOff(c, nil, 0, 0) },
		"Runner.Trial": func() error {
			rn, err := s.NewRunner()
			must(t, err)
			_, err = rn.Trial(nil, nil)
			return err
		},
	} {
		if err := step(); !errors.Is(err, dice.ErrNilRoller) {
			t.Errorf("%s: %v, want dice.ErrNilRoller", name, err)
		}
	}
	if snapshot(t, c) != before {
		t.Error("a step with a nil Roller changed the state")
	}
}

// TestGameOutcomeIsTheRunners: a game played step by step ends in the
// category and metrics the Runner's trial gives on the same dice.
func TestGameOutcomeIsTheRunners(t *testing.T) {
	for name, s := range shapes() {
		rn, err := s.NewRunner()
		must(t, err)
		for seed := range uint64(50) {
			want := make([]int, len(s.Metrics()))
			wantCat := trial(t, rn, dice.NewSeeded(seed), want)
			g, r := start(t, s), dice.NewSeeded(seed)
			if _, err := g.Outcome(nil); !errors.Is(err, ErrPhase) {
				t.Fatalf("Outcome of a game just begun: %v", err)
			}
			for !g.Done() {
				must(t, g.Step(r))
			}
			got := make([]int, len(want))
			cat, err := g.Outcome(got)
			must(t, err)
			if cat != wantCat || !slices.Equal(got, want) {
				t.Fatalf("%s seed %d: game %d %v, runner %d %v", name, seed, cat, got, wantCat, want)
			}
			if err := g.Step(r); !errors.Is(err, ErrPhase) {
				t.Fatalf("Step on a finished game: %v", err)
			}
		}
	}
}

// TestChooserAnswerOfWrongTypeIsRefusedAndChangesNothing: a Chooser that
// answers every question with a string has every step that asks one
// refused, the game and the Roller as they were; steps that ask nothing
// go on.
func TestChooserAnswerOfWrongTypeIsRefusedAndChangesNothing(t *testing.T) {
	for name, s := range shapes() {
		g, r := start(t, s), dice.NewSeeded(7)
		var asked []any
		g.Intercept(func(v, a any) any {
			if _, ok := v.(*View); !ok {
				t.Fatalf("the chooser was shown a %T", v)
			}
			asked = append(asked, a)
			return "bogus"
		})
		refused := 0
		for steps := 0; steps < 200 && !g.Done(); steps++ {
			b, rb := save(t, g), rollerBytes(t, r)
			asked = asked[:0]
			err := g.Step(r)
			if len(asked) == 0 {
				must(t, err)
				continue
			}
			if err == nil || !strings.Contains(err.Error(), "chooser answered") {
				t.Fatalf("%s: a string answer to %T was taken: %v", name, asked[0], err)
			}
			if !bytes.Equal(save(t, g), b) || !bytes.Equal(rollerBytes(t, r), rb) {
				t.Fatalf("%s: a refused step changed the game or the Roller", name)
			}
			refused++
			g.Intercept(nil) // answer this one with the policies, then refuse again
			must(t, g.Step(r))
			g.Intercept(func(v, a any) any { asked = append(asked, a); return "bogus" })
		}
		if refused == 0 {
			t.Errorf("%s: no question was put to the chooser", name)
		}
	}
}

// TestChooserAnswersAreTaken: the Chooser's answer, of the right type,
// is the one the step takes: giving where the policy hangs in ends the
// conflict at the first stance, a give.
func TestChooserAnswersAreTaken(t *testing.T) {
	gave := 0
	for seed := range uint64(20) {
		g, r := start(t, DefaultScenario()), dice.NewSeeded(seed)
		stances := 0
		g.Intercept(func(v, a any) any {
			if v.(*View).Phase() == PhaseStance {
				stances++
				if a != true {
					t.Fatalf("the policy answered %v; the default hangs in", a)
				}
				return false
			}
			return a
		})
		for !g.Done() {
			must(t, g.Step(r))
		}
		if stances == 0 {
			continue
		}
		if cq := g.s.Consequences; stances != 1 || len(cq) != 1 || cq[0].Status != StatusGave {
			t.Fatalf("seed %d: %d stances, consequences %+v; want one give", seed, stances, cq)
		}
		gave++
	}
	if gave == 0 {
		t.Fatal("no game came to a stance")
	}
}

// TestRestoreRefusesWhatNoGameWrote: unknown fields, data after the
// save, a save over MaxSave, a state whose rules or sides are not the
// scenario's, and a state that fails Check.
func TestRestoreRefusesWhatNoGameWrote(t *testing.T) {
	s := DefaultScenario()
	g := start(t, s)
	must(t, g.Step(dice.NewSeeded(1)))
	good := string(save(t, g))
	for _, tc := range []struct{ name, data, want string }{
		{"unknown field", strings.Replace(good, `"owe":`, `"owed_to":[],"owe":`, 1), "unknown field"},
		{"unknown state field", strings.Replace(good, `"phase":`, `"mood":"grim","phase":`, 1), "unknown field"},
		{"trailing data", good + "{}", "data after the JSON value"},
		{"too big", good + strings.Repeat(" ", MaxSave), "at most"},
		{"other rules", strings.Replace(good, `"max_recasts":40`, `"max_recasts":41`, 1), "rules are not the scenario's"},
		{"other side name", strings.Replace(good, `"name":"irin"`, `"name":"irina"`, 1), "scenario"},
		{"bad state", strings.Replace(good, `"round":1`, `"round":-4`, 1), "round"},
		{"not json", "{", "unexpected"},
	} {
		if tc.data == good {
			t.Fatalf("%s: the case changed nothing", tc.name)
		}
		_, err := s.Restore([]byte(tc.data))
		if err == nil {
			t.Errorf("%s: restored", tc.name)
			continue
		}
		wantErr(t, err, tc.want)
		if len(err.Error()) > 600 {
			t.Errorf("%s: error of %d bytes", tc.name, len(err.Error()))
		}
	}
}

// TestDescribeHasATermForEveryOutcomeAndMetric, and a title that names
// each character and changes with the settings.
func TestDescribeHasATermForEveryOutcomeAndMetric(t *testing.T) {
	for name, s := range shapes() {
		d := s.Describe()
		if d.Summary == "" || !strings.Contains(d.Summary, "Art, Grace & Guts") {
			t.Errorf("%s: summary %q", name, d.Summary)
		}
		for _, key := range append(s.Categories(), s.Metrics()...) {
			found := false
			for _, term := range d.Terms {
				found = found || term.Key == key || strings.HasPrefix(term.Key, "*") && strings.HasSuffix(key, term.Key[1:])
			}
			if !found {
				t.Errorf("%s: no term for %q", name, key)
			}
		}
		for _, sd := range s.Sides {
			if !strings.Contains(d.Title, sd.Members[0].Character.Name) {
				t.Errorf("%s: title %q does not name %s", name, d.Title, sd.Members[0].Character.Name)
			}
		}
	}
	s := DefaultScenario()
	before := s.Describe().Title
	if before != "Althesa (warrior priestessing: d10 d8) vs Irin (defending myself: d12 d6)" {
		t.Errorf("title %q", before)
	}
	s.Sides[1].Play.Stance = "give"
	if after := s.Describe().Title; after == before || !strings.Contains(after, "stance give") {
		t.Errorf("title %q after Irin's stance became give", after)
	}
}

// cloned is a copy of conflict c sharing nothing play changes.
func cloned(c *State) *State {
	d := *c
	d.Sides = slices.Clone(c.Sides)
	for i := range d.Sides {
		d.Sides[i].Members = slices.Clone(c.Sides[i].Members)
		d.Sides[i].Faces = slices.Clone(c.Sides[i].Faces)
	}
	d.Owe = slices.Clone(c.Owe)
	d.Consequences = slices.Clone(c.Consequences)
	return &d
}
