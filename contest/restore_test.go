package contest

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"sync"
	"testing"

	"github.com/stakesrpg/stakes/dice"
)

// midContest is the test scene with a two-sided contest under way: the
// villain (with a gang of two and an aider planned for the hero) has set
// the stakes and the hero is to answer.
func midContest(t *testing.T) (*Engine, *State) {
	t.Helper()
	e := mustEngine(t)
	s := testScene()
	hs := side(hero, heroPool())
	hs.Aider, hs.AidPicks = Ref(sidekick), []Pick{{sidekick, 0}}
	vs := side(villain, villainPool())
	vs.Gang = []dice.Die{dice.D6, dice.D8}
	must(t, e.Begin(s, Contested, []SideSetup{vs, hs}, 0))
	s.Action.Planned, s.Action.IPicks = Ref(bystander), []Pick{{bystander, 0}}
	must(t, e.Roll(s, dice.Scripted(5, 4, 2, 3, 3), villainPool()))
	return e, s
}

// restore decodes JSON into a fresh State and checks it, as a tool
// restoring a saved game does.
func restore(b []byte) (*State, error) {
	var s State
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, err
	}
	return &s, s.Check()
}

// edit saves s as JSON, applies f to the decoded tree and encodes it again.
func edit(t *testing.T, s *State, f func(m map[string]any)) []byte {
	t.Helper()
	b, err := json.Marshal(s)
	must(t, err)
	var m map[string]any
	must(t, json.Unmarshal(b, &m))
	f(m)
	b, err = json.Marshal(m)
	must(t, err)
	return b
}

func action(m map[string]any) map[string]any { return m["action"].(map[string]any) }
func sideOf(m map[string]any, i int) map[string]any {
	return action(m)["sides"].([]any)[i].(map[string]any)
}

// Each restored state the issue found sending a step out of bounds or
// Play into an endless loop is refused by Check (or by decoding), saying
// what is wrong.
func TestRestoredBrokenStatesAreRefused(t *testing.T) {
	for _, c := range []struct {
		name string
		f    func(m map[string]any)
		want string
	}{
		{"phase empty", func(m map[string]any) { action(m)["phase"] = "" }, "unknown"},
		{"phase none", func(m map[string]any) { action(m)["phase"] = "none" }, "phase"},
		{"turn out of range", func(m map[string]any) { action(m)["turn"] = 5 }, "turn 5"},
		{"holder out of range", func(m map[string]any) { action(m)["holder"] = -2 }, "holder -2"},
		{"turn is the holder", func(m map[string]any) { action(m)["turn"] = 0 }, "holder"},
		{"side to act marked out", func(m map[string]any) { sideOf(m, 1)["out"] = true }, "must be in"},
		{"holder marked out", func(m map[string]any) { sideOf(m, 0)["out"] = true }, "must be in"},
		{"side character out of range", func(m map[string]any) { sideOf(m, 1)["char"] = 40 }, "no character 40"},
		{"pick out of range", func(m map[string]any) {
			sideOf(m, 1)["base"] = []any{map[string]any{"owner": 0, "trait": 99}}
		}, "no trait 99"},
		{"faces without dice", func(m map[string]any) { sideOf(m, 0)["faces"] = []any{3} }, "faces"},
		{"face above its die", func(m map[string]any) { sideOf(m, 0)["faces"] = []any{11, 4, 2, 3, 3} }, "face 11"},
		{"aider out of range", func(m map[string]any) { sideOf(m, 1)["aider"] = -3 }, "no character -3"},
		{"interferer out of range", func(m map[string]any) { action(m)["planned"] = 2147483648 }, "no character"},
		{"harm from no side", func(m map[string]any) {
			action(m)["phase"] = "inflict"
			action(m)["harms"] = []any{map[string]any{"from": 7, "to": 0}}
		}, "from side 7"},
		{"inflict with no harm", func(m map[string]any) { action(m)["phase"] = "inflict" }, "no harm"},
		{"interfere with both decided", func(m map[string]any) {
			action(m)["phase"] = "interfere"
			action(m)["interferer"] = bystander
			action(m)["interfered"] = 1
			sideOf(m, 0)["decided"] = true
			sideOf(m, 1)["decided"] = true
		}, "both sides decided"},
		{"interfere without an interferer", func(m map[string]any) { action(m)["phase"] = "interfere" }, "interferer"},
		{"an interferer never counted", func(m map[string]any) { action(m)["interferer"] = bystander }, "interfered 0 times"},
		{"ones of a GM character's aid", func(m map[string]any) {
			action(m)["ones"] = 1
			action(m)["ones_char"] = villain
		}, "only a player character's roll"},
		{"ones of no character", func(m map[string]any) {
			action(m)["ones"] = 1
			action(m)["ones_char"] = 99
		}, "only a player character's roll"},
		{"unsorted gang", func(m map[string]any) { sideOf(m, 0)["gang"] = []any{8, 6} }, "sorted"},
		{"gang die off the ladder", func(m map[string]any) { sideOf(m, 0)["gang"] = []any{7} }, "ladder"},
		{"stakes beyond bounds", func(m map[string]any) { action(m)["stakes"] = 1 << 53 }, "stakes"},
		{"reflection 2^31", func(m map[string]any) {
			m["characters"].([]any)[villain].(map[string]any)["reflection"] = 1 << 31
		}, "reflection points"},
		{"plot points negative", func(m map[string]any) {
			m["characters"].([]any)[hero].(map[string]any)["plot_points"] = -1
		}, "plot points"},
		{"an action and a timed action at once", func(m map[string]any) {
			m["timed"] = map[string]any{"actor": 0, "picks": []any{map[string]any{"owner": 0, "trait": 0}},
				"start": 3, "beats": 3, "steps": []any{map[string]any{}}, "step": 0, "phase": "step", "rolls": 0, "stakes": 0, "total": 0}
		}, "one at a time"},
		{"timed phase bogus", func(m map[string]any) {
			action(m)["phase"] = "done"
			m["timed"] = map[string]any{"actor": 0, "start": 3, "beats": 3, "steps": []any{map[string]any{}}, "phase": "bogus"}
		}, "unknown"},
		{"timed step past the last", func(m map[string]any) {
			action(m)["phase"] = "done"
			m["timed"] = map[string]any{"actor": 0, "start": 3, "beats": 3, "steps": []any{map[string]any{}}, "step": 1, "phase": "gap"}
		}, "every step taken"},
		{"kind none", func(m map[string]any) { action(m)["kind"] = "none" }, "kind"},
		{"reflecting mid-action", func(m map[string]any) { action(m)["reflecting"] = 1 }, "reflecting 1"},
		{"reflecting with 1s unanswered", func(m map[string]any) {
			action(m)["phase"], action(m)["ones"], action(m)["reflecting"] = "done", 1, 1
		}, "reflecting 1"},
		{"reflecting past the questions", func(m map[string]any) {
			action(m)["phase"], action(m)["reflecting"] = "done", 5
		}, "reflecting 5: 0, or 1..4"},
		{"reflecting negative", func(m map[string]any) {
			action(m)["phase"], action(m)["reflecting"] = "done", -1
		}, "reflecting -1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, s := midContest(t)
			_, err := restore(edit(t, s, c.f))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("restored: %v; want an error saying %q", err, c.want)
			}
		})
	}
}

// The unchanged state restores, and plays on exactly as the original.
func TestRestoredStatePlaysOnAsTheOriginal(t *testing.T) {
	e, s := midContest(t)
	back, err := restore(edit(t, s, func(map[string]any) {}))
	must(t, err)
	r1, r2 := dice.NewSeeded(3), dice.NewSeeded(3)
	must(t, playWith(e, s, r1, &Table{}))
	must(t, playWith(e, back, r2, &Table{}))
	if d := diff(s, back); d != "" {
		t.Errorf("played on differently (-original +restored):\n%s", d)
	}
}

// mutate calls f with every variant of the JSON tree v the conformance kit
// tries: numbers set to -1, 0, 2^31 and 2^53, strings replaced, arrays
// emptied and doubled, keys dropped.
func mutate(v any, set func(any), f func()) {
	switch x := v.(type) {
	case map[string]any:
		for k, val := range x {
			delete(x, k)
			f()
			x[k] = val
			mutate(val, func(n any) { x[k] = n }, f)
			x[k] = val
		}
	case []any:
		set([]any{})
		f()
		set(append(append([]any{}, x...), x...))
		f()
		set(x)
		for i, val := range x {
			mutate(val, func(n any) { x[i] = n }, f)
			x[i] = val
		}
	case float64:
		for _, n := range []float64{-1, 0, 1 << 31, 1 << 53} {
			set(n)
			f()
		}
		set(x)
	case string:
		set("bogus")
		f()
		set(x)
	}
}

// Every mutation of saved states mid-contest, mid-push, mid-interference
// and mid-timed-action is refused by Check or plays to its end: no panic,
// no endless loop, no Trouble Pool past its bound.
func TestMutatedRestoredStatesNeverPanicOrHang(t *testing.T) {
	e, contest := midContest(t)
	push := pushAt(t, e, 11)
	inter, _ := midContest(t)
	_, is := midContest(t)
	is.Characters[bystander].PlotPoints = 5
	must(t, inter.Roll(is, dice.Scripted(6, 6, 6), heroPool()))                                          // the hero raises to 12
	must(t, inter.Interfere(is, dice.Scripted(6, 6), bystander, []Pick{{bystander, 0}, {bystander, 1}})) // 12 does not beat 12
	timed := testScene()
	must(t, e.BeginTimed(timed, hero, heroPool(), 3, []TimedStep{{}, {Stakes: []dice.Die{dice.D8}}}, []Helper{{Char: sidekick, Picks: []Pick{{sidekick, 0}}}}))
	must(t, e.TimedRoll(timed, dice.Scripted(2, 2, 5, 5, 5), nil))
	stubborn := &Table{Chars: []Policy{Stubborn{}, Stubborn{}, Stubborn{}, Stubborn{}}, GM: Stubborn{}}
	tried, played := 0, 0
	for _, s := range []*State{contest, push, is, timed} {
		b, err := json.Marshal(s)
		must(t, err)
		var tree map[string]any
		must(t, json.Unmarshal(b, &tree))
		mutate(tree, func(any) {}, func() {
			tried++
			b, err := json.Marshal(tree)
			must(t, err)
			st, err := restore(b)
			if err != nil {
				return
			}
			played++
			r := dice.NewSeeded(uint64(tried))
			if st.Action != nil && st.Action.Phase != PhaseDone {
				_ = playWith(e, st, r, stubborn)
			} else if st.Timed != nil && st.Timed.Phase != TimedDone {
				_ = playWith(e, st, r, stubborn)
			}
			if len(st.Trouble) > maxDice {
				t.Fatalf("%s: a Trouble Pool of %d dice", b, len(st.Trouble))
			}
		})
	}
	t.Logf("%d mutations tried, %d restored and played", tried, played)
	if tried < 500 || played == 0 {
		t.Fatalf("%d mutations tried, %d played", tried, played)
	}
}

// A GM character holding a huge count of Reflection Points under the
// stubborn policy cashes no more than the Trouble Pool has room for.
func TestCashingHugeReflectionIsBoundedByMaxTrouble(t *testing.T) {
	e := mustEngine(t)
	s := testScene()
	s.Characters[villain].Reflection = maxPoints
	if err := e.CashReflection(s, villain, maxPoints); err == nil || len(s.Trouble) != 2 {
		t.Fatalf("cashing %d: %v, trouble %d", maxPoints, err, len(s.Trouble))
	}
	must(t, e.Begin(s, Basic, []SideSetup{side(villain, villainPool()), side(hero, heroPool())}, 0))
	// Villain 2+2, hero 8+6: the villain loses, and the GM cashes.
	must(t, playWith(e, s, dice.Scripted(2, 2, 2, 8, 6, 1, 1), &Table{GM: Stubborn{}}))
	if len(s.Trouble) != s.Rules.MaxTrouble {
		t.Errorf("trouble %d dice, want the bound %d", len(s.Trouble), s.Rules.MaxTrouble)
	}
	s.Characters[villain].Reflection = math.MaxInt32
	if err := s.Check(); err == nil {
		t.Error("a state with 2^31 Reflection Points passed Check")
	}
}

// Restoring a saved state into the very *State an Engine played before
// leaves nothing stale behind: the restored pools are checked afresh (the
// old engine kept a plan keyed by the pointer and rolled the character's
// own Complication).
func TestRestoringIntoTheSameStateKeepsNothingStale(t *testing.T) {
	e := mustEngine(t)
	s := testScene()
	must(t, e.Begin(s, Contested, []SideSetup{side(hero, heroPool()), side(villain, villainPool())}, 0))
	saved := edit(t, s, func(m map[string]any) {
		// The hero's Gordon is a Complication in the saved game.
		m["characters"].([]any)[hero].(map[string]any)["traits"].([]any)[gordon].(map[string]any)["kind"] = "complication"
	})
	must(t, json.Unmarshal(saved, s))
	// Check refuses the hero's planned pool now, and so does Roll.
	if err := s.Check(); err == nil || !strings.Contains(err.Error(), "rolls only its values") {
		t.Fatalf("Check passed a plan holding the hero's own Complication: %v", err)
	}
	err := e.Roll(s, dice.Scripted(1, 1, 1), heroPool())
	if err == nil || !strings.Contains(err.Error(), "rolls only its values") {
		t.Fatalf("rolled a pool holding the hero's own Complication: %v", err)
	}
}

// Rules changed after Begin take effect at the next step: nothing was
// worked out from them when the action began.
func TestRulesChangedAfterBeginApply(t *testing.T) {
	e := mustEngine(t)
	s := testScene()
	must(t, e.Begin(s, Contested, []SideSetup{side(hero, heroPool()), side(villain, villainPool())}, 0))
	s.Rules.FreeTraits = 2 // the third trait now costs a Plot Point
	must(t, e.Roll(s, dice.Scripted(3, 3, 3), heroPool()))
	if pp := s.Characters[hero].PlotPoints; pp != 1 {
		t.Errorf("hero has %d Plot Points, want 1 (2 less the third trait)", pp)
	}
}

// Copies of one Engine, each on its own goroutine with its own State, play
// without sharing anything (run with -race).
func TestEngineCopiesPlayOnTheirOwnGoroutines(t *testing.T) {
	e := mustEngine(t)
	var wg sync.WaitGroup
	results := make([][]Trait, 8)
	for g := range 8 {
		wg.Add(1)
		go func(own Engine) {
			defer wg.Done()
			s := testScene()
			r := dice.NewSeeded(42)
			for range 200 {
				if s.Action != nil {
					s.Action.Phase = PhaseDone
				}
				s.Characters[hero].KnockedOut, s.Characters[villain].KnockedOut = false, false
				s.Characters[hero].OutOfStory, s.Characters[villain].OutOfStory = false, false
				if err := own.Begin(s, Contested, []SideSetup{side(hero, heroPool()), side(villain, villainPool())}, 0); err != nil {
					t.Error(err)
					return
				}
				if err := playWith(&own, s, r, &Table{}); err != nil {
					t.Error(err)
					return
				}
			}
			results[g] = s.Characters[hero].Traits
		}(*e)
	}
	wg.Wait()
	for g := 1; g < 8; g++ {
		if d := diff(results[0], results[g]); d != "" {
			t.Errorf("goroutine %d played differently (-0 +%d):\n%s", g, g, d)
		}
	}
}

// A step refused for the state it found changes nothing.
func TestStepsOnAHandEditedActionAreRefused(t *testing.T) {
	e, s := midContest(t)
	s.Action.Turn = 9
	before := s.Clone()
	r := dice.NewSeeded(1)
	for name, step := range map[string]func() error{
		"roll":   func() error { return e.Roll(s, r, heroPool()) },
		"aid":    func() error { return e.Aid(s, r, 1, sidekick, []Pick{{sidekick, 0}}) },
		"afford": func() error { _, err := e.Affordable(s); return err },
	} {
		if err := step(); err == nil {
			t.Errorf("%s on turn 9 of 2 sides: no error", name)
		}
	}
	if d := diff(before, s); d != "" {
		t.Errorf("refused steps changed the state:\n%s", d)
	}
	if !errors.Is(e.GiveIn(s, PayPlotPoint), ErrPhase) && e.GiveIn(s, PayPlotPoint) == nil {
		t.Error("gave in on turn 9")
	}
}
