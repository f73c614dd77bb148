package dramadeck

import (
	"encoding/json"
	"math"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/dice/gof"
)

// taskGame starts task 0, returned, for hero 0 out of combat.
func taskGame(t *testing.T) (*game, *TaskState) {
	g := testGame(t)
	g.State.Heroes[0].Possibilities = 0
	i, err := g.StartTask(0, Task{Skill: 12, Alternate: 10, Rounds: 6})
	if err != nil {
		t.Fatal(err)
	}
	return g, &g.State.Tasks[i]
}

// Steps in order, pairs at -2 each, special cases and the side roll, scripted.
func TestTaskSteps(t *testing.T) {
	bold, careful := mustPolicy(t, "default"), mustPolicy(t, "passive")
	g, ts := taskGame(t)
	g.State.Rules.TaskDrawsOutOfCombat = true // the side roll draws, as section 2.3 has it
	var tr Trace
	g.Sink = tr.Add
	steps := []struct {
		bar   Bar
		pol   Policy
		faces []int
		done  int
		worse int
		skill int // effective skill of the last task roll
	}{
		{BarB, bold, []int{1, 1, 1}, 0, 0, 12},                       // B not the next step, no special: side roll draws a card
		{BarAB, bold, []int{3, 3, 4, 3, 3, 5}, 1, 0, 10},             // A and B at once, -2 each: 10 then 11 fails
		{Complication, careful, []int{6, 6, 6}, 1, 1, 12},            // failed: modifiers one worse from now on
		{BarBC, careful, []int{3, 3, 4}, 2, 1, 11},                   // B alone
		{PossibleSetback, careful, []int{6, 6, 5}, 1, 1, 11},         // failed: lose a step
		{CriticalProblem, careful, []int{6, 6, 6, 6, 6, 6}, 1, 1, 1}, // failed: switch skill (a step is done); time is up: last ditch at 10+0-1-4-4 = 1 fails
	}
	for i, st := range steps {
		r := fixed(st.faces...)
		if err := g.TaskStep(r, 0, st.bar, st.pol); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		if ts.Done != st.done || ts.Worse != st.worse || r.Remaining() != 0 {
			t.Errorf("step %d (%v): done %d worse %d left %d; want %d %d", i, st.bar, ts.Done, ts.Worse, r.Remaining(), st.done, st.worse)
		}
		last := -1
		for _, e := range tr.Events {
			if e.Kind == EvRoll {
				last = e.Value
			}
		}
		want(t, last, st.skill)
	}
	want(t, len(g.State.Players[0].Hand)+len(g.State.Players[0].Pool), 1) // the side roll drew a card (the default policy may pool it)
	if ts.Using != 1 || !ts.Failed || !ts.LastDitch || ts.Finished {
		t.Errorf("want switched, failed after the last-ditch effort: %+v", ts)
	}
	// A Critical Problem with nothing done and a weaker alternate restarts.
	i2, err := g.StartTask(0, Task{Skill: 12, Alternate: 8, Rounds: 5})
	if err != nil {
		t.Fatal(err)
	}
	if err := g.TaskStep(fixed(6, 6, 6), i2, CriticalProblem, careful); err != nil || g.State.Tasks[i2].Restarts != 1 || g.State.Tasks[i2].Using != 0 {
		t.Errorf("restart: %+v %v", g.State.Tasks[i2], err)
	}
	mustFail(t, g, "task over", func() error { return g.TaskStep(fixed(), 0, BarA, bold) })
}

func TestTaskLastDitchAndSwitch(t *testing.T) {
	g, ts := taskGame(t)
	ts.Task.Rounds = 1
	ts.Task.Modifiers = [4]int{0, -1, -3, 0}
	ts.Done = 1
	// A Critical Problem fails; the default policy switches to the other skill
	// (steps done > 0); the time runs out; last ditch: alternate 10 + hardest
	// remaining -3, multi-step -2*2, -4 = -1: only a 3 or 4 succeeds.
	r := fixed(6, 6, 6, 1, 1, 2)
	if err := g.TaskStep(r, 0, CriticalProblem, mustPolicy(t, "default")); err != nil {
		t.Fatal(err)
	}
	if ts.Using != 1 || !ts.Finished || !ts.LastDitch || r.Remaining() != 0 {
		t.Errorf("%+v", ts)
	}
	want(t, g.lastDitchSkill(&TaskState{Task: ts.Task, Done: 1, Using: 1}), -1)
}

type badSteps struct{ Style }

func (b *badSteps) Steps(v *TaskView) int { return 3 }

func TestTaskErrors(t *testing.T) {
	g, _ := taskGame(t)
	// Step C before B: the bar C does not let a task with nothing done attempt C;
	// a policy that asks for more steps than shown is an error.
	if StepAvail(BarC, 0, 4) != 0 || StepAvail(BarCD, 1, 4) != 0 || StepAvail(BarBC, 1, 4) != 2 || StepAvail(BarCD, 3, 4) != 1 {
		t.Error("StepAvail")
	}
	mustFail(t, g, "policy attempts more steps than shown", func() error {
		return g.TaskStep(fixed(), 0, BarAB, &badSteps{})
	})
	mustFail(t, g, "bad bar", func() error { return g.TaskStep(fixed(), 0, Bar(99), mustPolicy(t, "default")) })
	if _, err := g.StartTask(0, Task{Skill: 12, Rounds: 0}); err == nil {
		t.Error("zero rounds accepted")
	}
}

// The exact chain agrees with the engine driven by independent flips from
// the deck's bar frequencies (chi-square on rounds-to-finish, fixed seed).
func TestTaskChanceMatchesSampling(t *testing.T) {
	d, err := DefaultDeck()
	if err != nil {
		t.Fatal(err)
	}
	task := Task{Skill: 13, Alternate: 11, Modifiers: [4]int{0, -1, -1, -2}, Rounds: 8}
	for _, name := range []string{"default", "passive"} {
		pol := mustPolicy(t, name)
		ex, err := TaskChance(DefaultRules(), task, d.BarOdds(), pol)
		if err != nil {
			t.Fatal(err)
		}
		// Outcome index: round finished by steps 1..8, 9 = last ditch, 0 = failed.
		p := make([]float64, task.Rounds+2)
		copy(p, ex.ByRound)
		p[0] = 1 - ex.P
		p[task.Rounds+1] = ex.LastDitch
		exact := dice.Dist{Min: 0, P: p}
		g, err := newGame(DefaultRules(), d, DefaultScenario().Heroes[:1], nil)
		if err != nil {
			t.Fatal(err)
		}
		r := dice.NewSeeded(99)
		obs := map[int]int64{}
		n := 20000
		if testing.Short() {
			n = 4000
		}
		for range n {
			g.State.Tasks = append(g.State.Tasks[:0], TaskState{Task: task})
			ts := &g.State.Tasks[0]
			g.State.Players[0].Hand = g.State.Players[0].Hand[:0]
			g.State.Players[0].Pool = g.State.Players[0].Pool[:0]
			g.State.Draw = g.State.Draw[:0]
			for i := range d.Cards {
				g.State.Draw = append(g.State.Draw, i)
			}
			g.State.Discard = g.State.Discard[:0]
			for !ts.Finished && !ts.Failed {
				bar := d.Cards[r.IntN(len(d.Cards))].Bar
				if err := g.TaskStep(r, 0, bar, pol); err != nil {
					t.Fatal(err)
				}
			}
			switch {
			case ts.Failed:
				obs[0]++
			case ts.LastDitch:
				obs[task.Rounds+1]++
			default:
				obs[ts.Round]++
			}
		}
		fit, err := gof.ChiSquare(exact, obs)
		if err != nil || fit.PValue < 1e-4 {
			t.Errorf("%s: sampled vs exact %+v %v (exact P=%.4f)", name, fit, err, ex.P)
		}
		// It can fail: the chain for skill 11 is rejected.
		task2 := task
		task2.Skill = 11
		ex2, _ := TaskChance(DefaultRules(), task2, d.BarOdds(), pol)
		p2 := make([]float64, task.Rounds+2)
		copy(p2, ex2.ByRound)
		p2[0], p2[task.Rounds+1] = 1-ex2.P, ex2.LastDitch
		if fit, _ := gof.ChiSquare(dice.Dist{P: p2}, obs); fit.PValue > 1e-4 {
			t.Errorf("%s: wrong chain accepted %+v", name, fit)
		}
	}
}

// The question nobody has published: the chance to finish a four-step DSR
// within N rounds at skill S, by the exact chain (independent flips) and by
// Monte Carlo on the real deck (without replacement), which must agree
// closely.
func TestTaskWithinNRounds(t *testing.T) {
	d, _ := DefaultDeck()
	pol := mustPolicy(t, "default")
	for _, skill := range []int{10, 12, 14, 16} {
		task := Task{Skill: skill, Alternate: skill - 2, Rounds: 10}
		ex, err := TaskChance(DefaultRules(), task, d.BarOdds(), pol)
		if err != nil {
			t.Fatal(err)
		}
		mc, err := SampleTask(DefaultRules(), d, task, pol, dice.NewSeeded(uint64(skill)), 4000)
		if err != nil {
			t.Fatal(err)
		}
		line := ""
		for nr := 4; nr <= 10; nr++ {
			if math.Abs(mc.Within(nr)-ex.Within(nr)) > 0.04 {
				t.Errorf("skill %d within %d: deck MC %.3f vs exact %.3f", skill, nr, mc.Within(nr), ex.Within(nr))
			}
			line += " " + ftoa(mc.Within(nr)) + "/" + ftoa(ex.Within(nr))
		}
		t.Logf("skill %d: P(done within 4..10 rounds), real deck / independent flips =%s; with last ditch %.3f/%.3f", skill, line, mc.P, ex.P)
	}
	if _, err := SampleTask(DefaultRules(), d, Task{Skill: 10, Rounds: 5}, pol, dice.NewSeeded(1), 0); err == nil {
		t.Error("zero trials accepted")
	}
}

func ftoa(x float64) string { b, _ := json.Marshal(math.Round(x*1000) / 1000); return string(b) }

func TestHypergeometric(t *testing.T) {
	d, _ := DefaultDeck()
	// Single draw: P(an Adrenalin) = 16/156.
	h, err := DrawOdds(d, func(c *Card) bool { return c.Name == Adrenalin }, 1)
	if err != nil || math.Abs(h.Prob(1)-16.0/156) > 1e-12 {
		t.Errorf("single draw %v %v", h, err)
	}
	// Brute force for a small case: 5 cards, 2 marked, draw 3.
	h, _ = Hypergeometric(5, 2, 3)
	if d := cmp.Diff([]float64{0.1, 0.6, 0.3}, h.P, cmp.Comparer(func(a, b float64) bool { return math.Abs(a-b) < 1e-12 })); d != "" || h.Min != 0 {
		t.Errorf("hypergeometric (-want +got):\n%s min %d", d, h.Min)
	}
	// Four-card hands dealt by the engine vs the exact count of Drama cards.
	ex, _ := NameOdds(DefaultComposition(), Drama, 4)
	r := dice.NewSeeded(5)
	g, _ := newGame(DefaultRules(), d, DefaultScenario().Heroes[:1], nil)
	obs := map[int]int64{}
	for range 20000 {
		s := g.State
		s.Draw = s.Draw[:0]
		for i := range d.Cards {
			s.Draw = append(s.Draw, i)
		}
		s.Players[0].Hand = s.Players[0].Hand[:0]
		g.Shuffle(r)
		if err := g.EnterPlay(r, 0); err != nil {
			t.Fatal(err)
		}
		k := 0
		for _, id := range s.Players[0].Hand {
			if d.Cards[id].Name == Drama {
				k++
			}
		}
		obs[k]++
	}
	if fit, err := gof.ChiSquare(ex, obs); err != nil || fit.PValue < 1e-4 {
		t.Errorf("sampled hands %+v %v", fit, err)
	}
	// It can fail: the odds for Adrenalin (16 cards) are rejected.
	wrong, _ := NameOdds(DefaultComposition(), Adrenalin, 4)
	if fit, _ := gof.ChiSquare(wrong, obs); fit.PValue > 1e-4 {
		t.Errorf("wrong odds accepted %+v", fit)
	}
	if _, err := Hypergeometric(5, 6, 1); err == nil {
		t.Error("marked > total accepted")
	}
}

func TestAttemptSteps(t *testing.T) {
	g, ts := taskGame(t)
	pol := mustPolicy(t, "passive")
	mustFail(t, g, "step C before B", func() error { return g.AttemptSteps(fixed(), 0, BarC, 2, 1, pol) })
	mustFail(t, g, "steps not on the bar", func() error { return g.AttemptSteps(fixed(), 0, BarB, 0, 1, pol) })
	mustFail(t, g, "three steps on a pair", func() error { return g.AttemptSteps(fixed(), 0, BarAB, 0, 3, pol) })
	// A and B together at -2: 10 and 10 both succeed.
	if err := g.AttemptSteps(fixed(3, 3, 4, 4, 3, 3), 0, BarAB, 0, 2, pol); err != nil {
		t.Fatal(err)
	}
	want(t, ts.Done, 2)
}

// TestBarSteps: each skill bar entry shows its steps (first, count), special
// cases and unknown bars none.
func TestBarSteps(t *testing.T) {
	want := map[Bar][2]int{BarA: {0, 1}, BarB: {1, 1}, BarC: {2, 1}, BarD: {3, 1},
		BarAB: {0, 2}, BarBC: {1, 2}, BarCD: {2, 2}, PossibleSetback: {0, 0},
		Complication: {0, 0}, CriticalProblem: {0, 0}, numBars: {0, 0}, 255: {0, 0}}
	for b, w := range want {
		if f, n := b.Steps(); f != w[0] || n != w[1] {
			t.Errorf("%v.Steps() = %d, %d; want %d, %d", b, f, n, w[0], w[1])
		}
	}
}

// The side roll (the extra approved action when the bar shows neither the
// next step nor a special case) is the player's to make ("may"), and out
// of combat draws nothing unless Rules.TaskDrawsOutOfCombat (The Player
// Side: out of combat no additional cards are drawn).
func TestTaskSideRollIsOptionalAndDrawsNothingOutOfCombat(t *testing.T) {
	for _, tc := range []struct {
		policy string
		draws  bool // Rules.TaskDrawsOutOfCombat
		rolls  int  // dice rolled
		hand   int  // cards drawn
	}{
		{"default", false, 0, 0}, // out of combat: no roll offered
		{"default", true, 3, 1},  // the setting: the roll draws
		{"passive", true, 0, 0},  // the passive player declines
	} {
		g, ts := taskGame(t)
		g.State.Rules.TaskDrawsOutOfCombat = tc.draws
		r := fixed(1, 1, 1)
		if err := g.TaskStep(r, 0, BarB, mustPolicy(t, tc.policy)); err != nil {
			t.Fatal(err)
		}
		if used := 3 - r.Remaining(); used != tc.rolls || len(g.State.Players[0].Hand) != tc.hand || ts.Round != 1 {
			t.Errorf("%+v: %d dice, %d cards drawn, round %d; want %d, %d, 1", tc, used, len(g.State.Players[0].Hand), ts.Round, tc.rolls, tc.hand)
		}
	}
}

// A design change of Rules between steps is checked by the next task
// step: TaskSteps = 6 (the bar names steps A to D) is refused, not a panic.
func TestRulesChangedBetweenStepsAreChecked(t *testing.T) {
	g, _ := taskGame(t)
	g.State.Rules.TaskSteps = 6
	mustFail(t, g, "task step under 6 task steps", func() error { return g.TaskStep(fixed(), 0, BarD, mustPolicy(t, "default")) })
	g.State.Rules.TaskSteps = 4
	g.State.Rules.MaxLeadership = 3
	if err := g.StartCombat(false); err != nil {
		t.Fatal(err)
	}
	mustFail(t, g, "a round under max_leadership 3", func() error { return g.BeginRound(fixed()) })
}

// In combat, work on a task is the hero's action: only on his turn, once
// a round, and not at all under a Monologue; a lost action (Setback) is a
// round of the task gone with no roll.
func TestTaskInCombatTakesTheHerosAction(t *testing.T) {
	g, ts := taskGame(t)
	pol := mustPolicy(t, "default")
	if err := g.StartCombat(false); err != nil {
		t.Fatal(err)
	}
	mustFail(t, g, "task before the round begins", func() error { return g.TaskRound(fixed(), 0, pol) })
	if err := g.BeginRound(dice.NewSeeded(1)); err != nil {
		t.Fatal(err)
	}
	declareNothing(t, g)
	for g.Turn() != 0 {
		ci := g.Turn()
		if err := g.Act(fixed(), ci, Choice{Act: Defend}, pol, nil); err != nil {
			t.Fatal(err)
		}
	}
	g.State.Heroes[0].Status.LoseAction = true
	r := fixed(1, 1, 1, 1, 1, 1)
	if err := g.TaskRound(r, 0, pol); err != nil {
		t.Fatal(err)
	}
	if r.Remaining() != 6 || ts.Round != 1 || ts.Done != 0 {
		t.Errorf("lost action: %d dice used, round %d, done %d; want none, 1, 0", 6-r.Remaining(), ts.Round, ts.Done)
	}
	mustFail(t, g, "a second task round in the round", func() error { return g.TaskRound(fixed(), 0, pol) })
}

// A Critical Problem is not limited to one alternate skill: each switch
// takes up the next of Alternate and Others, then Skill again (the text:
// the player describes how a different skill can be used).
func TestCriticalProblemSwitchesThroughEverySkill(t *testing.T) {
	g := testGame(t)
	i, err := g.StartTask(0, Task{Skill: 12, Alternate: 11, Others: []int{13}, Rounds: 9})
	if err != nil {
		t.Fatal(err)
	}
	ts := &g.State.Tasks[i]
	ts.Done = 1 // a step done: the default policy switches rather than restart
	g.State.Heroes[0].Possibilities = 0
	pol := mustPolicy(t, "default")
	for k, want := range []int{11, 13, 12} {
		if err := g.TaskStep(fixed(6, 6, 6), i, CriticalProblem, pol); err != nil {
			t.Fatal(err)
		}
		if got := g.taskView(ts, 0).Skill; got != want {
			t.Errorf("after Critical Problem %d: working at skill %d, want %d", k+1, got, want)
		}
	}
	if _, err := g.StartTask(0, Task{Skill: 12, Alternate: 11, Others: make([]int, 9), Rounds: 9}); err == nil {
		t.Error("a task with nine further skills started")
	}
}

// The Player Side: each round a PC takes an action that may move the scene
// onwards, whether or not it succeeds, one card may go from hand to pool.
// Work on a task in combat that rolls counts, even when the roll fails; a
// round whose action was lost does not.
func TestTaskWorkInCombatOpensTheMoveToThePool(t *testing.T) {
	for _, lost := range []bool{false, true} {
		g, _ := taskGame(t)
		pol := mustPolicy(t, "passive")
		if err := g.StartCombat(false); err != nil {
			t.Fatal(err)
		}
		if err := g.BeginRound(dice.NewSeeded(1)); err != nil {
			t.Fatal(err)
		}
		declareNothing(t, g)
		for g.Turn() != 0 {
			if err := g.Act(fixed(), g.Turn(), Choice{Act: Defend}, pol, nil); err != nil {
				t.Fatal(err)
			}
		}
		top := g.State.Stack[len(g.State.Stack)-1]
		g.State.Deck.Cards[top].Bar = BarA // the bar shows the next step
		g.State.Heroes[0].Status.LoseAction = lost
		if err := g.TaskRound(fixed(6, 6, 6), 0, pol); err != nil { // 18: the step fails
			t.Fatal(err)
		}
		if got := g.State.Players[0].MayMove; got == lost {
			t.Errorf("action lost %v: may move %v", lost, got)
		}
	}
}

// Work on a task is a choice of the hero who holds it, listed among his
// Choices on his turn and checked as any action: another character's
// Work on it, or Work on a task that does not exist, is refused and
// changes nothing.
func TestWorkIsTheTaskHerosChoice(t *testing.T) {
	g, ts := taskGame(t)
	pol := mustPolicy(t, "passive")
	if err := g.StartCombat(false); err != nil {
		t.Fatal(err)
	}
	if err := g.BeginRound(dice.NewSeeded(1)); err != nil {
		t.Fatal(err)
	}
	declareNothing(t, g)
	for g.Turn() != 0 {
		ci := g.Turn()
		if ci == 1 {
			mustFail(t, g, "Work on another's task", func() error { return g.Act(fixed(), 1, Choice{Act: Work, Target: 0}, pol, nil) })
		}
		if err := g.Act(fixed(), ci, Choice{Act: Defend}, pol, nil); err != nil {
			t.Fatal(err)
		}
	}
	if !slices.Contains(g.Choices(0, nil), Choice{Act: Work, Target: 0}) {
		t.Errorf("choices %v lack Work on task 0", g.Choices(0, nil))
	}
	if err := g.CheckChoice(0, Choice{Act: Work, Target: 0}); err != nil {
		t.Errorf("CheckChoice: %v", err)
	}
	mustFail(t, g, "Work on task 5", func() error { return g.Act(fixed(), 0, Choice{Act: Work, Target: 5}, pol, nil) })
	if err := g.Act(fixed(3, 3, 3), 0, Choice{Act: Work, Target: 0}, pol, nil); err != nil {
		t.Fatal(err)
	}
	if ts.Round != 1 || g.Turn() == 0 {
		t.Errorf("after Work: task round %d, turn %d", ts.Round, g.Turn())
	}
}
