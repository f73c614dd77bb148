package contest

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stakesrpg/stakes/dice"
)

func TestPolicyRegistry(t *testing.T) {
	for _, n := range PolicyNames() {
		p, err := PolicyByName(n)
		if err != nil || p.Name() != n {
			t.Errorf("%s: %v %v", n, p, err)
		}
	}
	if p, err := PolicyByName(""); err != nil || p.Name() != "default" {
		t.Errorf("empty name: %v %v", p, err)
	}
	if _, err := PolicyByName("berserk"); err == nil || !strings.Contains(err.Error(), "stubborn") {
		t.Errorf("unknown policy: %v", err)
	}
	hopeless := View{Stakes: 20, Best: 10, BestAll: 12, Affordable: 1, PlotPoints: 1, Ones: 3, Margin: 9, Price: 1, TroubleRoom: 10}
	for _, c := range []struct {
		name         string
		giveIn, push bool
		extras, buy  int
		pay          Payment
	}{
		{"default", true, true, 1, 1, PayPlotPoint},
		{"stubborn", false, true, 1, 3, PayPlotPoint},
		{"cautious", true, true, 0, 1, PayComplication},
		{"frugal", true, false, 0, 0, PayComplication},
		{"pile_on", true, true, 1, 1, PayPlotPoint},
	} {
		p, _ := PolicyByName(c.name)
		got := []any{p.GiveIn(&hopeless), p.Push(&hopeless), p.Extras(&hopeless), p.BuyOnes(&hopeless), p.Pay(&hopeless)}
		want := []any{c.giveIn, c.push, c.extras, c.buy, c.pay}
		if d := diff(want, got); d != "" {
			t.Errorf("%s (-want +got):\n%s", c.name, d)
		}
	}
	if got := (Sensible{}).Pay(&View{PlotPoints: 1, Price: 2}); got != PayComplication {
		t.Errorf("default pays %q with 1 Plot Point against a price of 2", got)
	}
	ch := &Character{Traits: []Trait{{Name: "a", Kind: Complication, Die: dice.D6}, {Name: "b", Kind: Complication, Die: dice.D10}, {Name: "c", Kind: Trauma, Die: dice.D4}}}
	if got := (PileOn{}).Onto(&View{}, ch); got != 1 {
		t.Errorf("pile_on onto %d, want 1", got)
	}
	if got := (PileOn{}).Onto(&View{Trauma: true}, ch); got != 2 {
		t.Errorf("pile_on trauma onto %d, want 2", got)
	}
	if got := (Sensible{}).Onto(&View{}, ch); got != -1 {
		t.Errorf("default onto %d, want -1", got)
	}
}

// Every pairing of policies plays the default contest (with an aider and
// an interferer) to its end without a rejected step, conserving Plot
// Points (every change is an event) and keeping every rating on the
// ladder.
func TestPlayInvariants(t *testing.T) {
	trials := 300
	if testing.Short() {
		trials = 60
	}
	for _, pa := range PolicyNames() {
		for _, pb := range PolicyNames() {
			sc := DefaultScenario()
			sc.Cast[0].Policy, sc.Cast[1].Policy, sc.GMPolicy = pa, pb, pb
			sc.Cast = append(sc.Cast,
				Member{Character: Character{Name: "Robin", PlotPoints: 1, Traits: []Trait{{Name: "Duty", Kind: Value, Die: dice.D6}}}, Policy: pa},
				Member{Character: Character{Name: "Cop", PlotPoints: 1, Traits: []Trait{{Name: "Law", Kind: Value, Die: dice.D8}, {Name: "Badge", Kind: Resource, Die: dice.D8}}}, Policy: pb})
			sc.Sides[1].Aider, sc.Sides[1].AidPool = "Robin", []string{"Duty"}
			sc.Interferer, sc.InterferePool = "Cop", []string{"Law", "Badge"}
			b, err := sc.build()
			if err != nil {
				t.Fatal(err)
			}
			var e Engine
			r := dice.NewSeeded(uint64(len(pa)*31 + len(pb)))
			for i := 0; i < trials; i++ {
				s := b.scene.Clone()
				rec := &Recorder{}
				e.Sink = rec.Record
				must(t, e.Begin(s, Contested, b.sides, b.init))
				if b.iChar >= 0 {
					s.Action.Planned, s.Action.IPicks = Ref(b.iChar), b.iPicks
				}
				before := pp(s)
				if err := playWith(&e, s, r, &b.table); err != nil {
					t.Fatalf("%s v %s: %v", pa, pb, err)
				}
				delta := 0
				for _, ev := range rec.Events {
					switch ev.Kind {
					case EvPlotPoints, EvBoughtOnes:
						delta += ev.Value
					}
				}
				if got := pp(s); got != before+delta {
					t.Fatalf("%s v %s: plot points %d -> %d, events say %+d", pa, pb, before, got, delta)
				}
				for _, c := range s.Characters {
					for _, tr := range c.Traits {
						if tr.Die != dice.Gone && !tr.Die.OnLadder() {
							t.Fatalf("%s: %q rated %v", c.Name, tr.Name, tr.Die)
						}
					}
					if c.PlotPoints < 0 {
						t.Fatalf("%s has %d plot points", c.Name, c.PlotPoints)
					}
				}
				if a := s.Action; a.Phase != PhaseDone || (a.Winner < 0) != (a.End == EndStopped) {
					t.Fatalf("ended in phase %s, winner %d, end %s", a.Phase, a.Winner, a.End)
				}
			}
		}
	}
}

func pp(s *State) int {
	n := s.GMPlotPoints
	for _, c := range s.Characters {
		n += c.PlotPoints
	}
	return n
}

// A policy that returns an illegal choice gets an error, not a fix.
type greedy struct{ Sensible }

func (greedy) Name() string               { return "greedy" }
func (greedy) Extras(*View) int           { return 5 }
func (greedy) GiveIn(*View) bool          { return false }
func (greedy) BuyOnes(*View) int          { return 9 }
func (greedy) Onto(*View, *Character) int { return 0 }

func TestIllegalPolicyChoice(t *testing.T) {
	e := mustEngine(t)
	s := testScene()
	hs := side(hero, heroPool())
	hs.Extra = []Pick{{hero, gadgets}}
	must(t, e.Begin(s, Contested, []SideSetup{side(villain, villainPool()), hs}, 1))
	if err := playWith(e, s, dice.NewSeeded(1), &Table{Chars: []Policy{greedy{}}}); err == nil || !strings.Contains(err.Error(), "greedy") {
		t.Errorf("greedy extras: %v", err)
	}
	// Buying more 1s than rolled.
	s = testScene()
	must(t, e.Begin(s, Basic, []SideSetup{side(TroublePool, nil), side(hero, heroPool())}, 0))
	if err := playWith(e, s, dice.Scripted(3, 3, 1, 4, 5), &Table{GM: greedy{}}); err == nil || !strings.Contains(err.Error(), "1s") {
		t.Errorf("greedy GM: %v", err)
	}
	// Landing a Complication on a trait that is not one.
	s = testScene()
	must(t, e.Begin(s, Basic, []SideSetup{side(TroublePool, nil), side(hero, heroPool())}, 0))
	if err := playWith(e, s, dice.Scripted(6, 6, 2, 2, 2, 3, 3), &Table{GM: greedy{}}); err == nil || !strings.Contains(err.Error(), "not a complication") {
		t.Errorf("greedy onto: %v", err)
	}
}

// Scenario errors name the field at fault; unknown JSON fields are refused.
func TestScenarioValidate(t *testing.T) {
	for _, c := range []struct {
		field string
		edit  func(*Scenario)
	}{
		{"kind", func(s *Scenario) { s.Kind = "duel" }},
		{"cast", func(s *Scenario) { s.Cast = nil }},
		{"cast[1]", func(s *Scenario) { s.Cast[1].Name = "Detective" }},
		{"cast[0].policy", func(s *Scenario) { s.Cast[0].Policy = "berserk" }},
		{"gm_policy", func(s *Scenario) { s.GMPolicy = "berserk" }},
		{"rules", func(s *Scenario) { s.Rules.Extraordinary = 0 }},
		{"sides[1].character", func(s *Scenario) { s.Sides[1].Character = "Nobody" }},
		{"sides[0].pool", func(s *Scenario) { s.Sides[0].Pool = []string{"Henchmen"} }},
		{"sides[1].extra", func(s *Scenario) { s.Sides[1].Extra = []string{"Batarang"} }},
		{"sides", func(s *Scenario) { s.Sides = s.Sides[:1] }},
		{"sides", func(s *Scenario) { s.Sides[0].Gang = []dice.Die{dice.D20} }},
		{"sides[1].aider", func(s *Scenario) { s.Sides[1].Aider = "Nobody" }},
		{"interferer", func(s *Scenario) { s.Interferer = "Villain"; s.InterferePool = []string{"Chaos"} }},
		{"interfere_pool", func(s *Scenario) { s.InterferePool = []string{"Chaos"} }},
		{"cast", func(s *Scenario) { s.Cast[0].Traits[0].Die = dice.D20 }},
		{"timed", func(s *Scenario) { s.Kind = KindTimed }},
		{"timed.actor", func(s *Scenario) { *s = timedScenario(); s.Timed.Actor = "Nobody" }},
		{"timed", func(s *Scenario) { *s = timedScenario(); s.Timed.Beats = 0 }},
		{"timed.helpers[0]", func(s *Scenario) { *s = timedScenario(); s.Timed.Helpers[0].Character = "Nobody" }},
		{"sides[0]", func(s *Scenario) { s.Kind = KindBasic; s.Sides[0].Character = "trouble" }},
	} {
		t.Run(c.field, func(t *testing.T) {
			sc := DefaultScenario()
			c.edit(&sc)
			err := sc.Validate()
			if err == nil || !strings.Contains(err.Error(), c.field) {
				t.Errorf("error %v does not name %s", err, c.field)
			}
			if _, err := sc.NewRunner(); err == nil {
				t.Error("NewRunner accepted it")
			}
			if _, err := sc.Exact(context.Background()); err == nil {
				t.Error("Exact accepted it")
			}
		})
	}
	dec := json.NewDecoder(strings.NewReader(`{"kind":"basic","hats":1}`))
	dec.DisallowUnknownFields()
	var sc Scenario
	if err := dec.Decode(&sc); err == nil {
		t.Error("unknown field accepted")
	}
}

// Scenarios of every shape run through the Runner: three sides, an
// interferer, a timed action; categories and metrics stay in range.
func TestRunnerShapes(t *testing.T) {
	three := DefaultScenario()
	three.Cast = append(three.Cast, Member{Character: Character{Name: "Catwoman", Traits: []Trait{{Name: "Greed", Kind: Value, Die: dice.D10}, {Name: "Whip", Kind: Ability, Die: dice.D8}}}})
	three.Sides = append(three.Sides, SideSpec{Character: "Catwoman", Pool: []string{"Greed", "Whip"}})
	three.Initiator = -1
	inter := DefaultScenario()
	inter.Cast = three.Cast
	inter.Interferer, inter.InterferePool = "Catwoman", []string{"Greed", "Whip"}
	inter.Cast[2].PlotPoints = 2 // and rules.start_plot_points on top
	for name, sc := range map[string]Scenario{"three": three, "interfere": inter, "timed": timedScenario(), "basic": basic3v3()} {
		rn, err := sc.NewRunner()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		cats := sc.Categories()
		if len(sc.Metrics()) > 8 || sc.Metrics()[0] != "rolls" {
			t.Errorf("%s: metrics %v", name, sc.Metrics())
		}
		seen := make([]int, len(cats))
		m := make([]int, len(sc.Metrics()))
		r := dice.NewSeeded(9)
		for i := 0; i < 3000; i++ {
			c := trial(t, rn, r, m)
			if c < 0 || c >= len(cats) {
				t.Fatalf("%s: category %d", name, c)
			}
			seen[c]++
		}
		t.Logf("%s: %v %v", name, cats, seen)
		if name == "interfere" && seen[len(cats)-1] == 0 {
			t.Error("interference never stopped a contest")
		}
		if a := testing.AllocsPerRun(100, func() { rn.Trial(r, m) }); a != 0 {
			t.Errorf("%s: %v allocs per trial", name, a)
		}
	}
	var buf bytes.Buffer
	if err := json.NewEncoder(&buf).Encode(three); err != nil {
		t.Fatal(err)
	}
}

// TestPlayChecksPlans: Play rolls a plan its policy view has checked
// without pricing it again, so every plan Roll would refuse must still be
// refused, with Roll's error and the scene untouched; plans Roll accepts
// play the same rolls either way.
func TestPlayChecksPlans(t *testing.T) {
	for _, c := range []struct {
		name        string
		base, extra []Pick
		err         string
	}{
		{"no value", []Pick{{hero, gordon}, {hero, detective}}, nil, "Value"},
		{"gone", []Pick{{hero, justice}, {hero, gordon}}, nil, "gone"},
		{"another's own trait", []Pick{{hero, justice}, {villain, chaos}}, nil, "only another character's complications"},
		{"own complication", []Pick{{hero, justice}, {hero, 5}}, nil, "rolls only its values"},
		{"base too dear", []Pick{{hero, justice}, {hero, gordon}, {hero, detective}, {hero, gadgets}, {hero, cave}, {hero, justice}, {hero, justice}}, nil, "Plot Points"},
		{"fine", heroPool(), []Pick{{hero, gadgets}, {hero, justice}}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := mustEngine(t)
			s := testScene()
			s.Characters[hero].Traits = append(s.Characters[hero].Traits, Trait{Name: "Hurt", Kind: Complication, Die: dice.D6})
			if c.name == "gone" {
				s.Characters[hero].Traits[gordon].Die = dice.Gone
			}
			hs := side(hero, c.base)
			hs.Extra = c.extra
			// Begin refuses a plan Check would refuse; edited in by hand
			// past Begin, Play still refuses it.
			if err := e.Begin(s.Clone(), Contested, []SideSetup{hs, side(villain, villainPool())}, 0); (err == nil) != (c.err == "") || err != nil && !strings.Contains(err.Error(), c.err) {
				t.Errorf("Begin: %v; want an error saying %q", err, c.err)
			}
			must(t, e.Begin(s, Contested, []SideSetup{side(hero, []Pick{{hero, justice}}), side(villain, villainPool())}, 0))
			s.Action.Sides[0].Base, s.Action.Sides[0].Extra = c.base, c.extra
			before := s.Clone()
			// Rolling the same plan by hand must agree with Play's first
			// step (the stubborn hero opens with every extra it can buy).
			sr := s.Clone()
			want := e.Roll(sr, dice.NewSeeded(3), append(append([]Pick(nil), c.base...), c.extra...))
			err := e.decide(s, dice.NewSeeded(3), &Table{Chars: []Policy{Stubborn{}, Stubborn{}}})
			if c.err == "" {
				if err != nil || want != nil {
					t.Fatalf("Play: %v; Roll: %v", err, want)
				}
				if d := diff(sr, s); d != "" {
					t.Errorf("Play's roll differs from Roll's (-Roll +Play):\n%s", d)
				}
				return
			}
			if err == nil || want == nil || !strings.Contains(err.Error(), want.Error()) || !strings.Contains(err.Error(), c.err) {
				t.Fatalf("Play: %v; Roll: %v; want both to say %q", err, want, c.err)
			}
			if d := diff(before, s); d != "" {
				t.Errorf("a refused roll changed the scene (-before +after):\n%s", d)
			}
		})
	}
}
