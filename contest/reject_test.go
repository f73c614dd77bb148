package contest

import (
	"errors"
	"strings"
	"testing"

	"github.com/stakesrpg/stakes/dice"
)

// Every rejected step leaves the scene exactly as it was.
func TestRejectedStepsChangeNothing(t *testing.T) {
	opened := func() (*Engine, *State) {
		e := mustEngine(t)
		s := testScene()
		must(t, e.Begin(s, Contested, []SideSetup{side(villain, villainPool()), side(hero, heroPool())}, 0))
		must(t, e.Roll(s, dice.Scripted(5, 4, 2), villainPool()))
		// The hero has rolled before (and is out of Plot Points): giving in
		// now costs, and costs what it lacks.
		s.Action.Sides[1].Rolled = true
		s.Characters[hero].PlotPoints = 0
		return e, s
	}
	bp := []Pick{{bystander, 0}, {bystander, 1}}
	for _, c := range []struct {
		name string
		step func(e *Engine, s *State) error
	}{
		{"roll without a value", func(e *Engine, s *State) error {
			return e.Roll(s, dice.Scripted(1, 1), []Pick{{hero, gordon}})
		}},
		{"roll reusing a trait unpaid", func(e *Engine, s *State) error {
			return e.Roll(s, dice.Scripted(1, 1), []Pick{{hero, justice}, {hero, justice}, {hero, justice}, {hero, justice}})
		}},
		{"roll someone else's value", func(e *Engine, s *State) error {
			return e.Roll(s, dice.Scripted(1, 1), []Pick{{hero, justice}, {villain, chaos}})
		}},
		{"give in for free after rolling", func(e *Engine, s *State) error {
			return e.GiveIn(s, PayNothing)
		}},
		{"unknown payment", func(e *Engine, s *State) error {
			return e.GiveIn(s, Payment(9))
		}},
		{"give in with points one lacks", func(e *Engine, s *State) error {
			return e.GiveIn(s, PayPlotPoint)
		}},
		{"aid by a side", func(e *Engine, s *State) error { return e.Aid(s, dice.Scripted(3), 1, villain, villainPool()) }},
		{"aid an unknown side", func(e *Engine, s *State) error { return e.Aid(s, dice.Scripted(3), 5, sidekick, nil) }},
		{"aid with a bad pool", func(e *Engine, s *State) error {
			return e.Aid(s, dice.Scripted(3), 1, sidekick, []Pick{{sidekick, 1}})
		}},
		{"interfere without points", func(e *Engine, s *State) error {
			return e.Interfere(s, dice.Scripted(3, 3), sidekick, []Pick{{sidekick, 0}, {sidekick, 0}})
		}},
		{"interfere as a side", func(e *Engine, s *State) error { return e.Interfere(s, dice.Scripted(3, 3), villain, villainPool()) }},
		{"interfere with no such character", func(e *Engine, s *State) error { return e.Interfere(s, dice.Scripted(3, 3), 42, bp) }},
		{"continue before interference", func(e *Engine, s *State) error { return e.Continue(s, 0, true) }},
		{"buy more 1s than rolled", func(e *Engine, s *State) error { return e.BuyOnes(s, 1) }},
		{"buy negative 1s", func(e *Engine, s *State) error { return e.BuyOnes(s, -1) }},
		{"push outside a push", func(e *Engine, s *State) error { return e.Push(s, nil) }},
		{"inflict with nothing to inflict", func(e *Engine, s *State) error { return e.Inflict(s, dice.Scripted(), -1, nil) }},
		{"begin over an action", func(e *Engine, s *State) error {
			return e.Begin(s, Basic, []SideSetup{side(TroublePool, nil), side(hero, heroPool())}, 0)
		}},
		{"take a Trouble die outside an inflict", func(e *Engine, s *State) error { return e.TakeTrouble(s, 0) }},
		{"waive outside an inflict", func(e *Engine, s *State) error { return e.Waive(s) }},
		{"inflict with an effect outside an inflict", func(e *Engine, s *State) error {
			return e.Inflict(s, dice.Scripted(), -1, []Pick{{villain, mad}})
		}},
		{"push steps outside a push", func(e *Engine, s *State) error { return e.Push(s, []Pick{{hero, gordon}}) }},
		{"step past d12", func(e *Engine, s *State) error { return s.Characters[villain].Step(chaos, 2) }},
		{"step a missing trait", func(e *Engine, s *State) error { return s.Characters[villain].Step(9, -1) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			e, s := opened()
			before := s.Clone()
			if err := c.step(e, s); err == nil {
				t.Fatal("accepted")
			}
			if d := diff(before, s); d != "" {
				t.Errorf("changed the scene (-want +got):\n%s", d)
			}
		})
	}
	// Paying to Give In before ever rolling.
	e, s := opened()
	s.Action.Sides[1].Rolled = false
	before := s.Clone()
	if err := e.GiveIn(s, PayComplication); err == nil {
		t.Error("paid to give in before rolling")
	}
	if d := diff(before, s); d != "" {
		t.Errorf("rejected give in changed the scene (-want +got):\n%s", d)
	}
	// An inflict onto a trait that is not a Complication.
	e, s = opened()
	s.Characters[hero].PlotPoints = 2
	must(t, e.Roll(s, dice.Scripted(2, 2, 2), heroPool()))
	before = s.Clone()
	for _, onto := range []int{justice, 99, -2} {
		if err := e.Inflict(s, dice.Scripted(3, 3, 3), onto, nil); err == nil {
			t.Errorf("inflict onto %d accepted", onto)
		}
	}
	if d := diff(before, s); d != "" {
		t.Errorf("rejected inflict changed the scene (-want +got):\n%s", d)
	}
	// Timed steps.
	e = mustEngine(t)
	s = testScene()
	hp := []Helper{{Char: sidekick, Picks: []Pick{{sidekick, 0}}}}
	must(t, e.BeginTimed(s, hero, heroPool(), 3, []TimedStep{{}, {}}, hp))
	before = s.Clone()
	for name, f := range map[string]func() error{
		"buy time before a gap":  func() error { return e.BuyTime(s, dice.Scripted(1, 1, 1), 0) },
		"choose before the end":  func() error { return e.Choose(s, true) },
		"inflict before the end": func() error { return e.TimedInflict(s, dice.Scripted(), -1) },
		"roll a bad pool":        func() error { return e.TimedRoll(s, dice.Scripted(), []Pick{{hero, gordon}}) },
	} {
		if err := f(); err == nil {
			t.Errorf("%s: accepted", name)
		}
		if d := diff(before, s); d != "" {
			t.Errorf("%s changed the scene (-want +got):\n%s", name, d)
		}
	}
	must(t, e.TimedRoll(s, dice.Scripted(2, 2, 6, 6, 6), nil))
	before = s.Clone()
	if err := e.BuyTime(s, dice.Scripted(), 3); err == nil {
		t.Error("buy time by a missing helper accepted")
	}
	if d := diff(before, s); d != "" {
		t.Errorf("rejected buy changed the scene (-want +got):\n%s", d)
	}
}

// A side's turn in Play rolls its planned pool priced in the walk its view
// is read from; a Base it may not roll (edited in by hand, past Check) is
// refused there with the error Roll gives for the same picks, and the
// step changes neither the scene nor the dice.
func TestPlayTurnRefusesABaseItMayNotRoll(t *testing.T) {
	for _, c := range []struct {
		name string
		base []Pick
		want error
	}{
		{"without a value", []Pick{{hero, gordon}}, ErrNoValue},
		{"a repeat it cannot pay for", []Pick{{hero, justice}, {hero, justice}}, ErrPlotPoints},
		{"someone else's value", []Pick{{hero, justice}, {villain, chaos}}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := mustEngine(t)
			s := testScene()
			s.Characters[hero].PlotPoints = 0
			if err := e.Begin(s.Clone(), Contested, []SideSetup{side(villain, villainPool()), side(hero, c.base)}, 1); err == nil {
				t.Error("Begin accepted the plan")
			}
			must(t, e.Begin(s, Contested, []SideSetup{side(villain, villainPool()), side(hero, heroPool())}, 1))
			s.Action.Sides[1].Base = c.base
			roller := dice.NewSeeded(5)
			r0, err := roller.MarshalBinary()
			must(t, err)
			before := s.Clone()
			stepErr := stepWith(e, s, roller, &Table{})
			rollErr := e.Roll(s, roller, c.base)
			if stepErr == nil || rollErr == nil {
				t.Fatalf("step: %v, roll: %v; want both refused", stepErr, rollErr)
			}
			if c.want != nil && (!errors.Is(stepErr, c.want) || !errors.Is(rollErr, c.want)) {
				t.Errorf("step: %v, roll: %v; want %v", stepErr, rollErr, c.want)
			}
			if !strings.HasSuffix(stepErr.Error(), rollErr.Error()) {
				t.Errorf("step says %q, Roll %q", stepErr, rollErr)
			}
			if d := diff(before, s); d != "" {
				t.Errorf("changed the scene (-want +got):\n%s", d)
			}
			if r1, _ := roller.MarshalBinary(); string(r1) != string(r0) {
				t.Error("rolled dice")
			}
		})
	}
}
