package challenge

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stakesrpg/stakes/dice"
)

// Wrappers that hide a built-in policy's type, so the engine takes its
// general path (ask the policy, check the answer) instead of any shortcut
// it has for a built-in.
type (
	hiddenStance    struct{ StancePolicy }
	hiddenCross     struct{ CrossPolicy }
	hiddenLoss      struct{ LossPolicy }
	hiddenTarget    struct{ TargetPolicy }
	hiddenInterfere struct{ InterferePolicy }
)

// hide returns plays with every policy wrapped, the nil defaults made
// explicit first.
func hide(plays []Play) []Play {
	out := make([]Play, len(plays))
	for i, p := range plays {
		if p.Stance == nil {
			p.Stance = HangIn{}
		}
		if p.Cross == nil {
			p.Cross = Never{}
		}
		if p.Loss == nil {
			p.Loss = Deepest{}
		}
		if p.Target == nil {
			p.Target = Sworn{}
		}
		if p.Interfere == nil {
			p.Interfere = Aloof{}
		}
		out[i] = Play{Stance: hiddenStance{p.Stance}, Cross: hiddenCross{p.Cross}, Loss: hiddenLoss{p.Loss},
			Target: hiddenTarget{p.Target}, Interfere: hiddenInterfere{p.Interfere}, Negotiate: p.Negotiate}
	}
	return out
}

// TestShortcutsMatchGeneralPath plays the same conflicts, from the same
// seeds, with the built-in policies as they are (the engine's shortcuts
// for them) and hidden behind wrappers (the general path), and checks
// that every event and the final state agree.
func TestShortcutsMatchGeneralPath(t *testing.T) {
	helpers := DefaultScenario()
	helpers.Sides[0].Members = append(helpers.Sides[0].Members, Entry{Character: threeD6("Mitch", "mitch"), Endeavor: Defending})
	for _, tc := range []struct {
		name string
		s    Scenario
	}{
		{"default", DefaultScenario()},
		{"helpers", helpers},
		{"three_way", threeWay()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			kinds := map[EventKind]int{}
			for seed := range uint64(300) {
				var got [2]string
				var logs [2]Log
				for k := range 2 {
					c, plays, err := tc.s.build()
					must(t, err)
					if k == 1 {
						plays = hide(plays)
					}
					c.Trace = logs[k].Record
					must(t, c.Run(dice.NewSeeded(seed), plays))
					c.Trace = nil
					got[k] = snapshot(t, c)
				}
				if d := cmp.Diff(logs[1].Events, logs[0].Events); d != "" {
					t.Fatalf("seed %d: events (-general +shortcut):\n%s", seed, d)
				}
				if d := cmp.Diff(got[1], got[0]); d != "" {
					t.Fatalf("seed %d: final state (-general +shortcut):\n%s", seed, d)
				}
				for _, e := range logs[0].Events {
					kinds[e.Kind]++
				}
			}
			// The comparison must have covered the paths it is about.
			for _, k := range []EventKind{EvRoll, EvChallenge, EvBlock, EvHangIn, EvDouble, EvLoss, EvEnd} {
				if kinds[k] == 0 {
					t.Errorf("no %v events in 300 conflicts: %v", k, fmt.Sprint(kinds))
				}
			}
		})
	}
}

// TestRunIsStepByStep checks that Run, which takes the commonest steps
// without going through Step, plays exactly as Step called in a loop.
func TestRunIsStepByStep(t *testing.T) {
	for _, s := range []Scenario{DefaultScenario(), threeWay()} {
		steps := 0
		for seed := range uint64(200) {
			var got [2]string
			var logs [2]Log
			for k := range 2 {
				c, plays, err := s.build()
				must(t, err)
				c.Trace = logs[k].Record
				r := dice.NewSeeded(seed)
				if k == 0 {
					must(t, c.Run(r, plays))
				} else {
					for !c.Done() {
						must(t, c.Step(r, plays))
						steps++
					}
				}
				c.Trace = nil
				got[k] = snapshot(t, c)
			}
			if d := cmp.Diff(logs[1].Events, logs[0].Events); d != "" {
				t.Fatalf("seed %d: events (-Step +Run):\n%s", seed, d)
			}
			if d := cmp.Diff(got[1], got[0]); d != "" {
				t.Fatalf("seed %d: final state (-Step +Run):\n%s", seed, d)
			}
		}
		if steps < 200*5 {
			t.Errorf("only %d steps in 200 conflicts", steps)
		}
	}
}

// TestPairFaces checks the two-dice fast path's reading of one number
// below a*b: every pair of faces of a d(a) and a d(b) comes from exactly
// one number, so the pair is exactly uniform when the number is.
func TestPairFaces(t *testing.T) {
	sizes := []dice.Die{dice.D4, dice.D6, dice.D8, dice.D10, dice.D12, 20, 63}
	for _, a := range sizes {
		for _, b := range sizes {
			s := Side{Dice: []dice.Die{a, b}, Of: []int{0, 1}}
			s.prep()
			if s.two.n != uint64(a)*uint64(b) {
				t.Fatalf("d%d d%d: prep gave n=%d", a, b, s.two.n)
			}
			seen := map[[2]int]bool{}
			for v := range s.two.n {
				x, y := s.two.faces(v)
				if x < 1 || x > int(a) || y < 1 || y > int(b) || seen[[2]int{x, y}] {
					t.Fatalf("d%d d%d: %d reads as %d %d (out of range or repeated)", a, b, v, x, y)
				}
				seen[[2]int{x, y}] = true
			}
		}
	}
	for _, ds := range [][]dice.Die{{dice.D6}, {dice.D6, dice.D6, dice.D6}, {64, dice.D6}, {dice.D6, 1}} {
		s := Side{Dice: ds, Of: make([]int, len(ds))}
		s.prep()
		if s.two.n != 0 {
			t.Errorf("%v: prep set the two-dice path up", ds)
		}
	}
}

// TestScriptedRollsOneDieAtATime checks that a scripted roller gives each
// die of a two-dice roll its own face, and that once the script runs out
// the dice show 1 and the roller reports it, as with any roll.
func TestScriptedRollsOneDieAtATime(t *testing.T) {
	c, _, err := DefaultScenario().build()
	must(t, err)
	r := dice.Scripted(7, 2, 11, 5)
	must(t, c.Roll(r))
	if got := [][]int{c.Sides[0].Faces, c.Sides[1].Faces}; !cmp.Equal(got, [][]int{{7, 2}, {11, 5}}) {
		t.Fatalf("cast shows %v, want [[7 2] [11 5]]", got)
	}
	must(t, c.Resolve()) // Irin's 11 beats Althesa's 7: Irin challenges
	must(t, c.Step(r, make([]Play, 2)))
	if c.Phase != PhaseAnswer || c.Answerer != 0 {
		t.Fatalf("phase %v answerer %d, want Althesa to answer", c.Phase, c.Answerer)
	}
	must(t, c.Roll(r))
	if got := c.Sides[0].Faces; !cmp.Equal(got, []int{1, 1}) || r.Err() == nil {
		t.Fatalf("after the script ran out: faces %v, roller error %v; want [1 1] and an error", got, r.Err())
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
			rn.Trial(r1, m)
			c, plays, err := s.build()
			must(t, err)
			must(t, c.Run(r2, plays))
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

// TestDiv checks the reciprocal division the two-dice path reads faces
// with, against plain division, for every number below the product of two
// sides' pairs of ladder dice (the most a two-sided cast draws).
func TestDiv(t *testing.T) {
	var pairs []uint64
	for _, a := range []uint64{4, 6, 8, 10, 12} {
		for _, b := range []uint64{4, 6, 8, 10, 12} {
			pairs = append(pairs, a*b)
		}
	}
	for _, n := range append(pairs, 2, 3, 5, 7, 63, 63*63) {
		rec := reciprocal(n)
		for v := range 144 * 144 * n {
			if q := div(v, rec); q != v/n {
				t.Fatalf("div(%d, reciprocal(%d)) = %d, want %d", v, n, q, v/n)
			}
		}
	}
}
