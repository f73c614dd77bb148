package challenge

import (
	"fmt"
	"maps"
	"math/bits"
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

// words is a Source that yields chosen words, then a fixed filler.
type words struct {
	w []uint64
	i int
}

func (s *words) Uint64() uint64 {
	if s.i < len(s.w) {
		s.i++
		return s.w[s.i-1]
	}
	s.i++
	return 0x9e3779b97f4a7c15 * uint64(s.i)
}

// wordFor returns a word from which r.IntN(n) draws v at once: the middle
// of v's share of the 64-bit range, which the method never rejects.
func wordFor(v, n uint64) uint64 {
	x, _ := bits.Div64((2*v+1)>>1, ((2*v+1)&1)<<63, n)
	return x
}

// TestFastRollsReadAsScripted checks the two-dice fast paths (an answer,
// and a two-sided cast drawing both pairs at once) against the general
// path a scripted roller takes, die by die: for chosen pairs of faces,
// with and without advantage dice, the sides must show the same faces,
// speaker, bonus and packed key, and the trace must say the same.
func TestFastRollsReadAsScripted(t *testing.T) {
	type setup struct {
		cast bool
		adv  [2]bool
	}
	// Irin's side rolls d12 d6 either way; in the second scenario each
	// die is a different character's, so the speaker matters.
	scenarios := []Scenario{DefaultScenario(), DefaultScenario()}
	split := &scenarios[1].Sides[1]
	irin := split.Members[0].Character
	irin.Stats = maps.Clone(irin.Stats)
	irin.Stats[Guts] = MustStat(dice.D12)
	helper := threeD6("Mitch", "mitch")
	helper.Stats = maps.Clone(helper.Stats)
	helper.Stats[Guts] = MustStat(dice.D6)
	helper.Endeavors = maps.Clone(helper.Endeavors)
	helper.Endeavors[Defending] = Guts
	split.Members = []Entry{{Character: irin, Endeavor: Defending}, {Character: helper, Endeavor: Defending}}
	var sc Scenario
	run := func(su setup, r *dice.Roller) (*Conflict, []Event) {
		c, _, err := sc.build()
		must(t, err)
		c.Met = ^uint64(0)
		if !su.cast {
			c.Phase, c.Challenger, c.Answerer = PhaseAnswer, 0, 1
		}
		c.Sides[0].Advantage, c.Sides[1].Advantage = su.adv[0], su.adv[1]
		var l Log
		c.Trace = l.Record
		must(t, c.Roll(r))
		c.Trace = nil
		return c, l.Events
	}
	check := func(su setup, fast *dice.Roller) {
		t.Helper()
		c1, ev1 := run(su, fast)
		var script []int
		for i, s := range c1.Sides {
			if su.cast || i == 1 {
				script = append(script, s.Faces...)
				if s.Advantage {
					script = append(script, s.Bonus)
				}
			}
		}
		c2, ev2 := run(su, dice.Scripted(script...))
		if d := cmp.Diff(ev2, ev1); d != "" {
			t.Fatalf("%+v, faces %v: events (-scripted +fast):\n%s", su, script, d)
		}
		if got, want := snapshot(t, c1), snapshot(t, c2); got != want {
			t.Fatalf("%+v, faces %v:\nfast     %s\nscripted %s", su, script, got, want)
		}
		for i := range c1.Sides {
			if c1.Sides[i].key != c2.Sides[i].key {
				t.Fatalf("%+v, faces %v: side %d key %x, scripted %x", su, script, i, c1.Sides[i].key, c2.Sides[i].key)
			}
		}
	}
	seen := map[[2]int]bool{}
	speakers := map[int]bool{}
	for k, adv := range []bool{false, true, false, true} {
		sc = scenarios[k/2]
		// Irin answers with d12 d6: every pair of faces.
		for v := range uint64(72) {
			r, _ := dice.NewRoller(&words{w: []uint64{wordFor(v, 72)}})
			check(setup{adv: [2]bool{false, adv}}, r)
			if k >= 2 {
				r, _ = dice.NewRoller(&words{w: []uint64{wordFor(v, 72)}})
				c, _ := run(setup{}, r)
				speakers[c.Sides[1].Speaker] = true
			}
		}
		// Althesa (d10 d8) and Irin cast together: a spread of pairs.
		for v := uint64(0); v < 80*72; v += 7 {
			r, _ := dice.NewRoller(&words{w: []uint64{wordFor(v, 80*72)}})
			c, _ := run(setup{cast: true}, r)
			seen[[2]int{c.Sides[0].Faces[0], c.Sides[1].Faces[1]}] = true
			r, _ = dice.NewRoller(&words{w: []uint64{wordFor(v, 80*72)}})
			check(setup{cast: true, adv: [2]bool{adv, !adv}}, r)
		}
	}
	if len(speakers) != 2 {
		t.Errorf("speakers %v: both of the split side's characters should speak sometimes", speakers)
	}
	if len(seen) != 10*6 {
		t.Errorf("the casts showed %d of the 60 pairs of Althesa's first die and Irin's second", len(seen))
	}
}
