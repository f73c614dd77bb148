package actiontest

import (
	"bytes"
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim"
	"github.com/stakesrpg/stakes/sim/markov"
)

// A game stepped to its end reports the category and metrics a trial on
// the same dice does, and saving at every step and restoring plays on to
// the same bytes.
func TestGameOutcomeIsTheTrials(t *testing.T) {
	s := DefaultScenario()
	rn, err := s.NewRunner()
	if err != nil {
		t.Fatal(err)
	}
	for seed := range uint64(30) {
		want := make([]int, numMetrics)
		cat, err := rn.Trial(dice.NewSeeded(seed), want)
		if err != nil {
			t.Fatal(err)
		}
		g, err := s.Start(dice.NewSeeded(seed))
		if err != nil {
			t.Fatal(err)
		}
		r := dice.NewSeeded(seed)
		for !g.Done() {
			saved, err := g.Save()
			if err != nil {
				t.Fatal(err)
			}
			back, err := s.Restore(saved)
			if err != nil {
				t.Fatalf("seed %d: restore: %v", seed, err)
			}
			again, _ := back.Save()
			if !bytes.Equal(saved, again) {
				t.Fatalf("seed %d: save(restore(save)) differs:\n%s\n%s", seed, saved, again)
			}
			if err := back.Step(r); err != nil {
				t.Fatal(err)
			}
			g = back
		}
		got := make([]int, numMetrics)
		c, err := g.Outcome(got)
		if err != nil || c != cat {
			t.Errorf("seed %d: outcome %d (%v), trial %d", seed, c, err, cat)
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("seed %d: metrics (-trial +game):\n%s", seed, d)
		}
		if err := g.Step(r); !errors.Is(err, ErrStage) {
			t.Errorf("step after the end: %v", err)
		}
	}
}

// A game still going has no outcome.
func TestGameOutcomeBeforeTheEndIsAnError(t *testing.T) {
	g, err := DefaultScenario().newGame()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.Outcome(nil); !errors.Is(err, ErrStage) {
		t.Errorf("outcome of a fresh game: %v", err)
	}
}

// Restore reads strictly: unknown fields, trailing data and huge saves
// are refused with a short message.
func TestGameRestoreIsStrict(t *testing.T) {
	s := DefaultScenario()
	g, _ := s.newGame()
	saved, _ := g.Save()
	for name, b := range map[string][]byte{
		"unknown field": bytes.Replace(saved, []byte(`"pursuit":{`), []byte(`"pursuit":{"bogus":1,`), 1),
		"trailing data": append(append([]byte(nil), saved...), []byte(` {}`)...),
		"huge":          append(append([]byte(nil), saved...), bytes.Repeat([]byte(" "), maxSave)...),
		"not json":      []byte(strings.Repeat("x", 100000)),
	} {
		_, err := s.Restore(b)
		if err == nil {
			t.Errorf("%s: accepted", name)
			continue
		}
		if len(err.Error()) > 400 {
			t.Errorf("%s: %d-byte error", name, len(err.Error()))
		}
	}
}

// Every step of the package refuses a nil Roller with dice.ErrNilRoller.
func TestNilRollerIsAnErrorInEveryStep(t *testing.T) {
	c := newChar(t, DefaultRules())
	tst := Test{Action: "Prowl", Position: Risky, Difficulty: 1}
	rn, _ := DefaultScenario().NewRunner()
	g, _ := DefaultScenario().newGame()
	for name, step := range map[string]func() error{
		"ActionTest": func() error { return eng.ActionTest(c, nil, tst) },
		"Begin":      func() error { return eng.Begin(c, nil, tst) },
		"Retry":      func() error { return eng.Retry(c, nil, tst) },
		"Push":       func() error { return eng.Push(c, nil, "physical") },
		"Step":       func() error { return eng.Step(c, nil) },
		"Play":       func() error { return eng.Play(c, nil) },
		"Trial":      func() error { _, err := rn.Trial(nil, nil); return err },
		"Start":      func() error { _, err := DefaultScenario().Start(nil); return err },
		"Game.Step":  func() error { return g.Step(nil) },
	} {
		if err := step(); !errors.Is(err, dice.ErrNilRoller) {
			t.Errorf("%s: %v, want dice.ErrNilRoller", name, err)
		}
	}
}

// Engine.Step plays an action a step at a time under Engine.Policies, and
// Play steps until State.Done: a failed roll is pushed, read, and the
// extra successes spent, all under the engine's player.
func TestEngineStepPlaysTheActionUnderItsPolicies(t *testing.T) {
	c := newChar(t, DefaultRules())
	e := Engine{Policies: Table{Player: Spending{WhenFailed{}, SpendOrder{Label: "bonus", Order: []string{"bonus_die"}}}}}
	if !c.Done() {
		t.Fatal("a fresh state has an action under way")
	}
	if err := e.Step(c, dice.Scripted()); !errors.Is(err, ErrStage) {
		t.Errorf("step with no action: %v", err)
	}
	tst := Test{Action: "Prowl", Position: Risky, Difficulty: 1, NoHarm: true}
	if err := e.Begin(c, dice.Scripted(1, 1, 1, 1), tst); err != nil {
		t.Fatal(err)
	}
	if c.Done() {
		t.Fatal("a roll in flight is done")
	}
	// The push re-rolls four misses and two more: three sixes.
	if err := e.Step(c, dice.Scripted(6, 6, 6, 1, 1, 1)); err != nil {
		t.Fatal(err)
	}
	if !c.Attempt.Pushed || c.Attempt.Stage != Rolled {
		t.Fatalf("the first step pushed %v, stage %s", c.Attempt.Pushed, c.Attempt.Stage)
	}
	if err := e.Play(c, dice.Scripted()); err != nil {
		t.Fatal(err)
	}
	if !c.Done() || c.Attempt.Extra != 2 || c.Attempt.Spent != 2 || c.Bonus != 2 {
		t.Errorf("done %v, extra %d, spent %d, bonus %d; want done, 2, 2, 2", c.Done(), c.Attempt.Extra, c.Attempt.Spent, c.Bonus)
	}
}

// A policy's illegal spending in Engine.Step is refused and the step,
// which read the roll, is put back: nothing changes.
func TestEngineStepIllegalSpendingChangesNothing(t *testing.T) {
	c := newChar(t, DefaultRules())
	e := Engine{Policies: Table{Player: greedySpender{}}}
	tst := Test{Action: "Prowl", Position: Risky, Difficulty: 1, NoHarm: true}
	if err := e.Begin(c, dice.Scripted(6, 6, 1, 1), tst); err != nil {
		t.Fatal(err)
	}
	before := c.Clone()
	if err := e.Step(c, dice.Scripted()); err == nil {
		t.Fatal("illegal spending accepted")
	}
	if d := cmp.Diff(before, c, cmpState); d != "" {
		t.Errorf("refused step changed the state:\n%s", d)
	}
}

// With a Chooser, every answer passes through it; a wrong-typed or
// illegal answer refuses the step, and the game and the Roller are as
// they were.
func TestGameInterceptRefusesWrongAnswersAtomically(t *testing.T) {
	s := DefaultScenario()
	s.Policy = "always_when_failed"
	for name, ch := range map[string]sim.Chooser{
		"wrong type": func(_, a any) any { return 7 },
		"bogus track": func(_, a any) any {
			p, ok := a.(PushAnswer)
			if ok {
				p.Push, p.Track = true, "bogus"
				return p
			}
			return a
		},
	} {
		g, _ := s.newGame()
		r := dice.NewSeeded(5)
		refused := false
		for i := 0; i < 200 && !g.Done() && !refused; i++ {
			g.Intercept(ch)
			before, _ := g.Save()
			rb, _ := r.MarshalBinary()
			if err := g.Step(r); err != nil {
				refused = true
				after, _ := g.Save()
				ra, _ := r.MarshalBinary()
				if !bytes.Equal(before, after) || !bytes.Equal(rb, ra) {
					t.Errorf("%s: a refused step changed the game or the Roller", name)
				}
			}
			g.Intercept(nil)
			if !refused {
				if err := g.Step(r); err != nil {
					t.Fatal(err)
				}
			}
		}
		if !refused {
			t.Errorf("%s: never refused", name)
		}
	}
}

// Describe names every category and metric of the default scenario with
// a Term, and its title follows the settings.
func TestDescribeHasATermForEveryName(t *testing.T) {
	for _, sc := range []Scenario{DefaultScenario(), opposedChase()} {
		have := map[string]bool{}
		for _, term := range sc.Describe().Terms {
			have[term.Key] = true
		}
		for _, name := range append(sc.Categories(), sc.Metrics()...) {
			if !have[name] {
				t.Errorf("%s: no term for %q", sc.Name, name)
			}
		}
	}
	if title := opposedChase().Describe().Title; !strings.Contains(title, "opposed by an NPC rolling 3 dice") {
		t.Errorf("opposed title %q", title)
	}
	s := DefaultScenario()
	d := s.Describe()
	if d.Summary == "" || !strings.Contains(d.Title, "Vex") {
		t.Errorf("summary %q, title %q", d.Summary, d.Title)
	}
	s.Policy, s.Goal = "daring", 6
	if t2 := s.Describe().Title; t2 == d.Title || !strings.Contains(t2, "daring") || !strings.Contains(t2, "goal 6") {
		t.Errorf("title did not follow the settings: %q", t2)
	}
}

// A step played by hand allocates nothing: the Game's, and the Engine's
// on a bare State (after its first spending, which makes the state's undo
// record once).
func TestHandStepsAllocateNothing(t *testing.T) {
	g, err := DefaultScenario().newGame()
	if err != nil {
		t.Fatal(err)
	}
	r := dice.NewSeeded(2)
	if a := testing.AllocsPerRun(2000, func() {
		if g.Done() {
			g.rn.reset()
		}
		if err := g.Step(r); err != nil {
			t.Fatal(err)
		}
	}); a != 0 {
		t.Errorf("Game.Step allocates %v a step", a)
	}
	c := newChar(t, DefaultRules())
	e := Engine{Policies: Table{Player: Spending{WhenFailed{}, SpendOrder{Label: "bonus", Order: []string{"bonus_die"}}}}}
	tst := Test{Action: "Prowl", Position: Risky, Difficulty: 1, NoHarm: true}
	step := func() {
		if c.Done() {
			c.Harm[0].Rows[0], c.Bonus = 0, 0
			if err := e.Begin(c, r, tst); err != nil {
				t.Fatal(err)
			}
			return
		}
		if err := e.Step(c, r); err != nil {
			t.Fatal(err)
		}
	}
	for range 200 {
		step()
	}
	if a := testing.AllocsPerRun(2000, step); a != 0 {
		t.Errorf("Engine.Step allocates %v a step", a)
	}
}

// The best play found by Optimal plays in a Game through SetPlayer, and
// wins the chase about as often as its value says.
func TestOptimalPolicyPlaysInAGame(t *testing.T) {
	s := DefaultScenario()
	o, err := s.Optimal(context.Background(), markov.Goal{}, markov.Maximize)
	if err != nil {
		t.Fatal(err)
	}
	r := dice.NewSeeded(8)
	wins := 0
	const games = 2000
	for range games {
		g, err := s.newGame()
		if err != nil {
			t.Fatal(err)
		}
		g.SetPlayer(o.Policy)
		for !g.Done() {
			if err := g.Step(r); err != nil {
				t.Fatal(err)
			}
		}
		if c, _ := g.Outcome(nil); Category(c) == catClean || Category(c) == catHurt {
			wins++
		}
	}
	// 2,000 games: a standard error of about 0.009.
	if got := float64(wins) / games; math.Abs(got-o.Value) > 0.04 {
		t.Errorf("won %.3f of games, the plan's value is %.3f", got, o.Value)
	}
}
