package challenge

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/dice/gof"
	"github.com/stakesrpg/stakes/sim/markov"
)

func TestScenarioJSON(t *testing.T) {
	s := DefaultScenario()
	b, err := json.Marshal(s)
	must(t, err)
	var back Scenario
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	must(t, dec.Decode(&back))
	if d := cmp.Diff(s, back); d != "" {
		t.Errorf("round trip (-want +got):\n%s", d)
	}
	must(t, back.Validate())
	if d := cmp.Diff([]string{"althesa_outright", "althesa_given", "irin_outright", "irin_given", "stalemate"}, s.Categories()); d != "" {
		t.Errorf("categories (-want +got):\n%s", d)
	}
	if m := s.Metrics(); len(m) > 8 || m[0] != "rounds" {
		t.Errorf("metrics %v", m)
	}
}

func TestScenarioValidate(t *testing.T) {
	cases := []struct {
		name string
		edit func(*Scenario)
		want string
	}{
		{"one side", func(s *Scenario) { s.Sides = s.Sides[:1] }, "sides: 1 sides"},
		{"bad stance", func(s *Scenario) { s.Sides[1].Play.Stance = "sulk" }, "unknown policy \"stance/sulk\""},
		{"unknown endeavor", func(s *Scenario) { s.Sides[0].Members[0].Endeavor = "juggling" }, "has no endeavor \"juggling\""},
		{"die off the ladder", func(s *Scenario) {
			s.Sides[0].Members[0].Character.Stats = map[string]Stat{Art: {dice.D20}, Grace: {}, Guts: {}}
		}, "allowed d4, d6, d8, d10, d12"},
		{"bad rules", func(s *Scenario) { s.Rules.DoubleFactor = 0 }, "rules.double_factor"},
		{"bad target", func(s *Scenario) { s.Sides[0].Target = "nobody" }, "targets \"nobody\""},
		{"owe entry", func(s *Scenario) { s.Owe = []Debt{{Name: "Irin"}} }, "owe[0]"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := DefaultScenario()
			// Deep copy through JSON so edits don't leak between cases.
			b, _ := json.Marshal(s)
			var sc Scenario
			must(t, json.Unmarshal(b, &sc))
			tc.edit(&sc)
			err := sc.Validate()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
			if _, err := sc.NewRunner(); err == nil {
				t.Error("NewRunner accepted it")
			}
		})
	}
}

// TestRunnerMatchesExact samples the default scenario (and a giving
// variant) with the Runner and checks categories, rounds and exchanges
// against Exact at a fixed seed.
func TestRunnerMatchesExact(t *testing.T) {
	trials := 200000
	if testing.Short() {
		trials = 40000
	}
	for _, stance := range []string{"hang_in", "outclassed", "give"} {
		t.Run(stance, func(t *testing.T) {
			s := DefaultScenario()
			s.Sides[1].Play.Stance = stance
			s.Sides[0].Members[0].Character.Stats[Art] = MustStat(dice.D12, dice.D8) // outclass Irin
			ex, err := s.Exact(context.Background())
			must(t, err)
			rn, err := s.NewRunner()
			must(t, err)
			r := dice.NewSeeded(7)
			cats := map[int]int64{}
			rounds := map[int]int64{}
			m := make([]int, len(s.Metrics()))
			ex1 := 0.0
			for range trials {
				cats[trial(t, rn, r, m)]++
				rounds[m[0]]++
				ex1 += float64(m[1])
				if m[2] != 0 && m[2] != 2 {
					t.Fatalf("sizes lost %d: standard injury takes 2", m[2])
				}
			}
			fit, err := gof.ChiSquare(dice.Dist{Min: 0, P: ex.P}, cats)
			if err != nil || fit.PValue < 1e-4 {
				t.Errorf("categories %v vs %v: p=%v %v", cats, ex.P, fit.PValue, err)
			}
			fit, err = gof.ChiSquare(dice.Dist{Min: 1, P: ex.Rounds[1:]}, rounds)
			if err != nil || fit.PValue < 1e-4 {
				t.Errorf("rounds: p=%v %v", fit.PValue, err)
			}
			if mean := ex1 / float64(trials); !near(mean, ex.Means["exchanges"], 0.02*ex.Means["exchanges"]) {
				t.Errorf("exchanges %v, exact %v", mean, ex.Means["exchanges"])
			}
		})
	}
}

func TestRunnerNoAllocs(t *testing.T) {
	for _, s := range []Scenario{DefaultScenario(), threeWay()} {
		rn, err := s.NewRunner()
		must(t, err)
		r := dice.NewSeeded(1)
		m := make([]int, 5)
		if n := testing.AllocsPerRun(2000, func() { trial(t, rn, r, m) }); n != 0 {
			t.Errorf("%v: %v allocs per trial", s.Categories(), n)
		}
	}
}

// threeWay is a three-sided scenario with helpers and an owe list.
func threeWay() Scenario {
	s := DefaultScenario()
	mitch := Standard("Mitch", MustStat(dice.D6, dice.D4), MustStat(dice.D12, dice.D10), MustStat(dice.D8, dice.D6),
		[5]string{Art, Grace, Guts, Guts, Art})
	mitch.Player = "ann"
	kell := Standard("Kell", MustStat(dice.D12, dice.D6), MustStat(dice.D8, dice.D4), MustStat(dice.D10, dice.D6),
		[5]string{Art, Grace, Guts, Guts, Art})
	s.Sides[1].Members[0].Character.Player = "ann"
	s.Sides[1].Members = append(s.Sides[1].Members, Entry{Character: mitch, Endeavor: Defending})
	s.Sides[1].Target = ""
	s.Sides[1].Play = StyleNames{CrossOff: "when_close", Interfere: "guard"}
	s.Sides = append(s.Sides, ScenarioSide{Name: "kell", Members: []Entry{{Character: kell, Endeavor: Asserting}},
		Target: "althesa", Play: StyleNames{Target: "turncoat", Stance: "outclassed", Loss: "spread", CrossOff: "eager"}})
	s.Owe = []Debt{{Name: "Irin", Player: "ann"}, {Name: "Kell", Player: "Kell"}}
	return s
}

func TestThreeWayScenario(t *testing.T) {
	s := threeWay()
	must(t, s.Validate())
	if _, err := s.Exact(context.Background()); !errors.Is(err, markov.ErrNoExact) {
		t.Errorf("Exact of three sides: %v", err)
	}
	rn, err := s.NewRunner()
	must(t, err)
	r := dice.NewSeeded(3)
	counts := make([]int, len(s.Categories()))
	m := make([]int, 5)
	crossed := 0
	for range 20000 {
		counts[trial(t, rn, r, m)]++
		crossed += m[3]
	}
	// Every side wins sometimes; crossing off happens.
	for i, side := range s.Sides {
		n := counts[3*i] + counts[3*i+1] + counts[3*i+2]
		if n == 0 {
			t.Errorf("%s never wins: %v", side.Name, counts)
		}
	}
	if crossed == 0 {
		t.Error("nobody crossed a name off")
	}
	if counts[len(counts)-1] != 0 {
		t.Errorf("%d stalemates", counts[len(counts)-1])
	}
}

// TestExactCountsCrossOffs checks that Exact follows a side crossing a
// name off (Irin, eagerly): his chances rise over a list nobody crosses,
// which Exact solves as Duel does. (TestCrossExactSampled holds such
// answers to the Runner.)
func TestExactCountsCrossOffs(t *testing.T) {
	ctx := context.Background()
	s := DefaultScenario()
	s.Owe = []Debt{{Name: "Irin", Player: "Irin"}}
	s.Sides[1].Play.CrossOff = "eager"
	crossing, err := s.Exact(ctx)
	must(t, err)
	s.Sides[1].Play.CrossOff = "never"
	kept, err := s.Exact(ctx)
	must(t, err)
	plain, err := DefaultScenario().Exact(ctx)
	must(t, err)
	if kept.P[2] != plain.P[2] || crossing.P[2] < kept.P[2]+0.01 {
		t.Errorf("Irin outright: crossing off %.4f, keeping the name %.4f, no list %.4f", crossing.P[2], kept.P[2], plain.P[2])
	}
}

// TestRunnerTrialsAreFresh checks that a Runner, which resets only what a
// conflict changes, plays every trial exactly as a conflict built afresh
// from the scenario and run on the same dice.
func TestRunnerTrialsAreFresh(t *testing.T) {
	for _, s := range []Scenario{DefaultScenario(), threeWay()} {
		rn, err := s.NewRunner()
		must(t, err)
		r1, r2 := dice.NewSeeded(5), dice.NewSeeded(5)
		m := make([]int, 5)
		injured := 0
		for k := range 1000 {
			trial(t, rn, r1, m)
			c, plays, err := s.build()
			must(t, err)
			must(t, Engine{Policies: plays}.Play(c, r2))
			if got, want := snapshot(t, &rn.c), snapshot(t, c); got != want {
				t.Fatalf("%v trial %d:\nrunner %s\nfresh  %s", s.Categories(), k, got, want)
			}
			injured += b2i(c.SizesLost > 0)
		}
		if injured == 0 {
			t.Errorf("%v: no trial injured anyone, so none tested the reset of stats", s.Categories())
		}
	}
}

// TestRunnerResetKnowsEveryField pins the fields of State, Side and Member
// that Runner.reset restores and those play leaves alone: a field added to
// any of them fails here until it is placed in one list or the other (and
// restored by reset if play changes it).
func TestRunnerResetKnowsEveryField(t *testing.T) {
	for _, tc := range []struct {
		v               any
		restored, fixed string
	}{
		{State{},
			"Owe Consequences Phase Round Exchanges Recasts Challenger Answerer Met First CrossOffs Owed SizesLost Winner Stalemate",
			"Rules Sides sink view losses"}, // sink and view are lent for a step, losses asked afresh
		{Side{}, "Status Faces Bonus Speaker Advantage Next Turned Crossed Asked", "Name Members Target Dice Of TotalSides"},
		{Member{}, "Stats", "Name Player InjuryStats Endeavor Endeavors Specialization Cancelled Dice Out"},
	} {
		typ := reflect.TypeOf(tc.v)
		var got []string
		for i := range typ.NumField() {
			got = append(got, typ.Field(i).Name)
		}
		want := strings.Fields(tc.restored + " " + tc.fixed)
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s has fields %v; reset knows %v", typ.Name(), got, want)
		}
	}
}

// trial plays one trial of rn and fails t if it stops with an error.
func trial(t testing.TB, rn *Runner, r *dice.Roller, metrics []int) int {
	t.Helper()
	cat, err := rn.Trial(r, metrics)
	if err != nil {
		t.Fatalf("trial: %v", err)
	}
	return cat
}
