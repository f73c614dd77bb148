package contest

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/stakesrpg/stakes/dice"
)

func TestDefaultScenarioRuns(t *testing.T) {
	sc := DefaultScenario()
	if err := sc.Validate(); err != nil {
		t.Fatal(err)
	}
	rn, err := sc.NewRunner()
	if err != nil {
		t.Fatal(err)
	}
	r := dice.NewSeeded(1)
	m := make([]int, len(sc.Metrics()))
	counts := make([]int, len(sc.Categories()))
	for i := 0; i < 2000; i++ {
		c := trial(t, rn, r, m)
		if c < 0 {
			t.Fatal("trial rejected")
		}
		counts[c]++
		if m[0] < 1 {
			t.Fatalf("a contest with %d rolls", m[0])
		}
	}
	t.Log(sc.Categories(), counts)
	allocs := testing.AllocsPerRun(200, func() { rn.Trial(r, m) })
	if allocs != 0 {
		t.Errorf("Trial allocates %v per run", allocs)
	}
}

func TestScenarioJSON(t *testing.T) {
	sc := DefaultScenario()
	b, err := json.Marshal(sc)
	if err != nil {
		t.Fatal(err)
	}
	var back Scenario
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&back); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	if err := back.Validate(); err != nil {
		t.Fatal(err)
	}
}

// A scenario whose pool costs Plot Points every roll (a trait named twice,
// or one past the free ones) is refused when it is validated, saying why
// and what to do, rather than failing trial after trial in a simulation.
func TestScenarioPoolNamingATraitTwiceIsRefused(t *testing.T) {
	for _, pool := range [][]string{
		{"Justice", "Gotham", "Justice"},
		{"Justice", "Gotham", "World's Greatest", "aspect:Rain"},
	} {
		s := DefaultScenario()
		s.Aspects = []Trait{{Name: "Rain", Kind: Aspect, Die: dice.D8}}
		s.Sides[1].Pool = pool
		for _, err := range []error{s.Validate(), func() error { _, err := s.NewRunner(); return err }()} {
			if err == nil || !strings.Contains(err.Error(), "sides[1].pool costs 1 Plot Points") || !strings.Contains(err.Error(), "extra") {
				t.Errorf("pool %v: %v", pool, err)
			}
		}
		if _, err := s.Exact(context.Background()); err == nil {
			t.Errorf("pool %v: exact odds given", pool)
		}
	}
}

// A Runner lays its scenario's action out once; each trial starts from
// that state reset, so whatever the trials before it changed (Plot Points,
// Complications, lowered traits, the Trouble Pool, knocked-off gang dice,
// the action's phase and rolls), the reset state is the scene with the
// action just begun, as Begin leaves it on a fresh copy of the scene.
func TestTrialStartsFromTheActionJustBegun(t *testing.T) {
	for name, sc := range map[string]Scenario{
		"default":         DefaultScenario(),
		"all roll":        threeWay(),
		"basic trouble":   basicScenario("trouble"),
		"aided":           aided(KindContested, 0),
		"brawls":          interfered("stubborn", "stubborn"),
		"trouble contest": troubleContest(),
		"house rules":     houseRules(),
	} {
		t.Run(name, func(t *testing.T) {
			rn, err := sc.NewRunner()
			if err != nil {
				t.Fatal(err)
			}
			b := rn.b
			want := b.scene.Clone()
			kind := Contested
			if sc.Kind == KindBasic {
				kind = Basic
			}
			var e Engine
			must(t, e.Begin(want, kind, b.sides, b.init))
			if b.iChar >= 0 {
				want.Action.Planned, want.Action.IPicks = Ref(b.iChar), b.iPicks
			}
			r := dice.NewSeeded(3)
			m := make([]int, 8)
			for i := range 300 {
				if _, err := rn.Trial(r, m); err != nil {
					t.Fatalf("trial %d: %v", i, err)
				}
				rn.s.reset(b.start)
				if d := diff(want, &rn.s, cmpopts.EquateEmpty()); d != "" {
					t.Fatalf("after trial %d the reset state differs from the begun action (-want +got):\n%s", i, d)
				}
			}
		})
	}
}

// shapes are the scenario shapes the package's tests run whole: the
// default contest, a basic action against the Trouble Pool, an interfered
// and an aided contest, a timed action, house rules (and the rulings the
// exact chain refuses), a contesting Trouble Pool and an all-roll opening.
func shapes() map[string]Scenario {
	past := aided(KindContested, 0)
	cop := interfered("default", "default")
	past.Cast = append(past.Cast, cop.Cast[len(cop.Cast)-1])
	past.Cast[len(past.Cast)-1].PlotPoints = 3
	past.Interferer, past.InterferePool = cop.Interferer, cop.InterferePool
	past.Rules.AidLasts, past.Rules.Interferences, past.Rules.OnesOfEveryRoll = true, 3, true
	timedHouse := timedScenario()
	timedHouse.Rules.BuyTimeCapped, timedHouse.Rules.HelpersRollTrouble = false, true
	timedHouse.Rules.OutOfTimeComplication = dice.D10
	troubleOff := timedScenario()
	troubleOff.Rules.TimedTroubleOff, troubleOff.Rules.TroubleOffOnWin, troubleOff.Rules.TroubleOffOnExtraordinary = true, 2, 2
	troubleOff.Rules.HelpersRollTrouble = true // against a pool the wins may empty
	troubleOff.Timed.Steps = append(troubleOff.Timed.Steps, TimedStep{})
	return map[string]Scenario{
		"contested":            DefaultScenario(),
		"basic":                basicScenario("trouble"),
		"interfere":            interfered("default", "stubborn"),
		"aided":                aided(KindContested, 0),
		"timed":                timedScenario(),
		"house":                houseRules(),
		"house past the chain": past,
		"timed house":          timedHouse,
		"timed trouble off":    troubleOff,
		"trouble":              troubleContest(),
		"all roll":             threeWay(),
	}
}

// Plot Points mean one thing: what a character holds. A player character
// starts an episode with Rules.StartPlotPoints on top of its sheet's, in
// NewState as in a Scenario's start, and Describe shows what it plays with.
func TestPlotPointsOneMeaning(t *testing.T) {
	sc := DefaultScenario()
	sc.Cast[0].PlotPoints = 2 // the Detective's sheet
	g, err := sc.Start(dice.NewSeeded(0))
	must(t, err)
	st := g.(*Game).State()
	s, err := NewState(sc.Rules, []Character{sc.Cast[0].Character, sc.Cast[1].Character}, nil)
	must(t, err)
	for name, got := range map[string][2]int{
		"Start":    {st.Characters[0].PlotPoints, st.Characters[1].PlotPoints},
		"NewState": {s.Characters[0].PlotPoints, s.Characters[1].PlotPoints},
	} {
		if got != [2]int{3, 1} {
			t.Errorf("%s: Detective %d, Villain %d Plot Points; want 3 (2 + rules.start_plot_points) and 1 (a GM character's own)", name, got[0], got[1])
		}
	}
	if title := sc.Describe().Title; !strings.Contains(title, "Detective [3 PP") || !strings.Contains(title, "Villain [1 PP") {
		t.Errorf("title %q", title)
	}
}

// TestScenarioListsAreBoundedBeforeBuilding: every list a scenario holds
// is refused past what a state may hold, naming it, before anything is
// built from it.
func TestScenarioListsAreBoundedBeforeBuilding(t *testing.T) {
	many := make([]dice.Die, maxDice+1)
	for i := range many {
		many[i] = dice.D6
	}
	for _, c := range []struct {
		name string
		edit func(s *Scenario)
		want string
	}{
		{"trouble", func(s *Scenario) { s.Trouble = many }, "a Trouble Pool of 129 dice: at most 128"},
		{"gang", func(s *Scenario) { s.Sides[0].Gang = many[:maxGang+1] }, "sides[0]: a gang of 51 dice: at most 50"},
		{"cast", func(s *Scenario) { s.Cast = make([]Member, maxChars+1) }, "101 cast members"},
		{"pool", func(s *Scenario) { s.Sides[1].Extra = make([]string, maxPicks+1) }, "a pool of 51 picks: at most 50"},
		{"timed stakes", func(s *Scenario) {
			*s = timedScenario()
			s.Timed.Steps[0].Stakes = many
		}, "timed.steps[0]: stakes of 129 dice: at most 128"},
		{"timed steps", func(s *Scenario) {
			*s = timedScenario()
			s.Timed.Steps = make([]TimedStep, maxSteps+1)
		}, "101 steps: at most"},
	} {
		s := DefaultScenario()
		c.edit(&s)
		if err := s.Validate(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v; want %q", c.name, err, c.want)
		}
	}
}
