package actiontest

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stakesrpg/stakes/dice"
)

// finished plays a NoHarm test of Prowl on the scripted faces and finishes
// it.
func finished(t *testing.T, c *State, tst Test, faces ...int) *Attempt {
	t.Helper()
	at := &c.Attempt
	if err := play(c, dice.Scripted(faces...), tst, Never{}); err != nil {
		t.Fatal(err)
	}
	return at
}

func setHarm(t *testing.T, c *State, phys, ment [3]int) {
	t.Helper()
	c.Harm = harmOf(phys, ment)
	if err := c.Check(); err != nil {
		t.Fatal(err)
	}
}

// Two extra successes buy a heal and a die for the next roll.
func TestSpendEffects(t *testing.T) {
	c := newChar(t, DefaultRules())
	setHarm(t, c, [3]int{1, 0, 0}, [3]int{})
	var rec Recorder
	eng := Engine{Sink: rec.Record}
	// 4 + 2 bonus - 1 harm = 5 dice; 4 sixes against 2 required: 2 extra.
	at := finished(t, c, Test{Action: "Prowl", Position: Risky, Difficulty: 2, Bonus: 2, NoHarm: true}, 6, 6, 6, 6, 1)
	if at.Extra != 2 {
		t.Fatalf("extra = %d, want 2", at.Extra)
	}
	rec.Events = nil
	if err := eng.Spend(c, "heal_harm", "bonus_die"); err != nil {
		t.Fatal(err)
	}
	want := []Bought{{Effect: "heal_harm", Track: "physical", Row: "lesser"}, {Effect: "bonus_die"}}
	if d := cmp.Diff(want, at.Bought); d != "" {
		t.Errorf("bought (-want +got):\n%s", d)
	}
	if at.Spent != 2 || c.Bonus != 1 || harmHeld(c) != 0 || c.Penalty() != 0 {
		t.Errorf("spent %d, bonus %d, harm %d, penalty %d; want 2, 1, 0, 0", at.Spent, c.Bonus, harmHeld(c), c.Penalty())
	}
	lines := []string{
		"Vex spends an extra success on heal harm, clearing a physical harm from the lesser row.",
		"Vex spends an extra success on bonus die: 1 die more on the next roll.",
	}
	if d := cmp.Diff(lines, rec.Lines()); d != "" {
		t.Errorf("events (-want +got):\n%s", d)
	}
	// Nothing is left to spend.
	if err := eng.Spend(c, "help_ally"); !errors.Is(err, ErrExtra) {
		t.Errorf("third effect: %v, want ErrExtra", err)
	}
	// The record survives JSON.
	b, err := json.Marshal(at)
	if err != nil {
		t.Fatal(err)
	}
	var back Attempt
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(at, &back, cmpAttempt); d != "" {
		t.Errorf("JSON round trip (-want +got):\n%s", d)
	}
	// The next test carries the bought die and starts with nothing bought.
	if err := eng.Begin(c, dice.Scripted(1, 1, 1, 1, 1), Test{Action: "Prowl", Position: Risky, Difficulty: 1, NoHarm: true}); err != nil {
		t.Fatal(err)
	}
	if at.Pool.Carried != 1 || at.Pool.Dice != 5 || at.Spent != 0 || len(at.Bought) != 0 {
		t.Errorf("next test: carried %d, dice %d, spent %d, bought %v", at.Pool.Carried, at.Pool.Dice, at.Spent, at.Bought)
	}
}

// Rejected spending says why and changes nothing.
func TestSpendRejected(t *testing.T) {
	rl := DefaultRules()
	rl.Effects = append(rl.Effects, Effect{Name: "rally", Kind: EffectNarrative, Cost: 2, Actions: []string{"Persuade", "Command"}})
	c := newChar(t, rl)
	prowl := Test{Action: "Prowl", Position: Risky, Difficulty: 1, NoHarm: true}
	for _, tc := range []struct {
		name    string
		test    Test
		faces   []int
		effects []string
		want    error
		msg     string
	}{
		// Difficulty 2 and two successes: no extra success.
		{"challenging", Test{Action: "Prowl", Position: Risky, Difficulty: 2, NoHarm: true}, []int{6, 6, 1, 1}, []string{"bonus_die"}, ErrExtra, "0 of 0"},
		{"overspend", prowl, []int{6, 6, 6, 1}, []string{"bonus_die", "help_ally", "bonus_die"}, ErrExtra, "cost 3, 2 of 2"},
		{"not allowed", prowl, []int{6, 6, 6, 1}, []string{"rally"}, ErrNotAllowed, "Prowl does not allow rally"},
		{"no harm", prowl, []int{6, 6, 1, 1}, []string{"heal_harm"}, ErrNoHarm, "1 heals bought, 0 harms"},
		{"unknown", prowl, []int{6, 6, 1, 1}, []string{"fly"}, nil, `"help_ally", "heal_harm", "bonus_die", "rally"`},
	} {
		at := finished(t, c, tc.test, tc.faces...)
		before, atBefore := c.Clone(), *at
		err := eng.Spend(c, tc.effects...)
		if err == nil || (tc.want != nil && !errors.Is(err, tc.want)) || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%s: Spend = %v, want %v saying %q", tc.name, err, tc.want, tc.msg)
		}
		if d := cmp.Diff(before, c, cmpState); d != "" {
			t.Errorf("%s: state changed:\n%s", tc.name, d)
		}
		if d := cmp.Diff(&atBefore, at, cmpAttempt); d != "" {
			t.Errorf("%s: attempt changed:\n%s", tc.name, d)
		}
	}
	// The rally needs two extra successes and a Persuade or Command test.
	at := finished(t, c, Test{Action: "Persuade", Position: Risky, Difficulty: 1, NoHarm: true}, 6, 6, 6, 1)
	if err := eng.Spend(c, "rally"); err != nil || at.Spent != 2 {
		t.Errorf("rally on Persuade: %v, spent %d", err, at.Spent)
	}
	// Only a finished test has extra successes to spend.
	if err := eng.Begin(c, dice.Scripted(6, 6, 6, 6), prowl); err != nil {
		t.Fatal(err)
	}
	if err := eng.Spend(c, "bonus_die"); !errors.Is(err, ErrStage) {
		t.Errorf("spend before finish: %v, want ErrStage", err)
	}
}

// A heal clears the lowest row holding harm, on the Action's own track
// when that row has harm there.
func TestHealLowestHarm(t *testing.T) {
	for _, tc := range []struct {
		action     string
		phys, ment [3]int
		wantP      [3]int
		wantM      [3]int
	}{
		{"Prowl", [3]int{0, 1, 0}, [3]int{1, 0, 0}, [3]int{0, 1, 0}, [3]int{}},    // lowest row first, whatever the track
		{"Persuade", [3]int{1, 0, 0}, [3]int{1, 0, 0}, [3]int{1, 0, 0}, [3]int{}}, // the mental Action's own track
		{"Prowl", [3]int{1, 0, 0}, [3]int{1, 0, 0}, [3]int{}, [3]int{1, 0, 0}},    // the physical Action's own track
		{"Persuade", [3]int{0, 0, 1}, [3]int{0, 2, 0}, [3]int{0, 0, 1}, [3]int{0, 1, 0}},
	} {
		c := newChar(t, DefaultRules())
		setHarm(t, c, tc.phys, tc.ment)
		// A helper, so Severe harm does not force a push; every die a six.
		sixes := make([]int, 40)
		for i := range sixes {
			sixes[i] = 6
		}
		at := finished(t, c, Test{Action: tc.action, Position: Risky, Difficulty: 1, NoHarm: true, Helpers: 1, Bonus: 4}, sixes...)
		if at.Pushed || at.Extra < 1 {
			t.Fatalf("pushed %v, extra %d", at.Pushed, at.Extra)
		}
		if err := eng.Spend(c, "heal_harm"); err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(harmOf(tc.wantP, tc.wantM), c.Harm); d != "" {
			t.Errorf("%s with %v/%v (-want +got):\n%s", tc.action, tc.phys, tc.ment, d)
		}
	}
}

// The shipped ways of spending on the same roll.
func TestSpendOrders(t *testing.T) {
	if d := cmp.Diff([]string{"bonus_dice", "heal_first", "none"}, SpendOrders()); d != "" {
		t.Errorf("spend orders (-want +got):\n%s", d)
	}
	if _, err := SpendOrderByName("hoard"); err == nil || !strings.Contains(err.Error(), `"bonus_dice", "heal_first", "none"`) {
		t.Errorf("unknown spend order: %v", err)
	}
	for _, tc := range []struct {
		name      string
		bonus     int
		harm      int
		spent     int
		boughtLen int
	}{
		{"none", 0, 1, 0, 0},
		{"heal_first", 2, 0, 3, 3},
		{"bonus_dice", 3, 1, 3, 3},
	} {
		c := newChar(t, DefaultRules())
		setHarm(t, c, [3]int{}, [3]int{1, 0, 0}) // a mental harm: -1 die
		order, err := SpendOrderByName(tc.name)
		if err != nil {
			t.Fatal(err)
		}
		sp := Spending{Policy: Never{}, Order: order}
		// 4 - 1 + 1 = 4 dice, all sixes: 3 extra.
		at := finished(t, c, Test{Action: "Prowl", Position: Risky, Difficulty: 1, Bonus: 1, NoHarm: true}, 6, 6, 6, 6)
		if err := spendWith(c, sp); err != nil {
			t.Fatal(err)
		}
		if c.Bonus != tc.bonus || harmHeld(c) != tc.harm || at.Spent != tc.spent || len(at.Bought) != tc.boughtLen {
			t.Errorf("%s: bonus %d harm %d spent %d bought %v; want %d %d %d %d", tc.name,
				c.Bonus, harmHeld(c), at.Spent, at.Bought, tc.bonus, tc.harm, tc.spent, tc.boughtLen)
		}
	}
}

// A policy that spends on what the rules forbid is refused.
type greedySpender struct{ Never }

func (greedySpender) Name() string { return "greedy" }
func (greedySpender) Spend(v *View, buf []int) []int {
	return append(buf, 2, 2, 2, 2, 2, 2)
}

func TestIllegalSpendingIsRefused(t *testing.T) {
	c := newChar(t, DefaultRules())
	at := finished(t, c, Test{Action: "Prowl", Position: Risky, Difficulty: 1, NoHarm: true}, 6, 6, 1, 1)
	err := spendWith(c, greedySpender{})
	if !errors.Is(err, ErrExtra) || !strings.Contains(err.Error(), "greedy") || c.Bonus != 0 || at.Spent != 0 {
		t.Errorf("greedy spender: %v, bonus %d, spent %d", err, c.Bonus, at.Spent)
	}
}

func TestEffectsCheck(t *testing.T) {
	for name, f := range map[string]func(*Rules){
		"effects[0]: empty name":    func(rl *Rules) { rl.Effects[0].Name = "" },
		"repeated":                  func(rl *Rules) { rl.Effects[1].Name = rl.Effects[0].Name },
		"unknown kind":              func(rl *Rules) { rl.Effects[0].Kind = "teleport" },
		"cost 0":                    func(rl *Rules) { rl.Effects[0].Cost = 0 },
		"dice 0, must be 1..20":     func(rl *Rules) { rl.Effects[2].Dice = 0 },
		"only a \"bonus\" effect":   func(rl *Rules) { rl.Effects[0].Dice = 1 },
		"unknown action \"Juggle\"": func(rl *Rules) { rl.Effects[0].Actions = []string{"Juggle"} },
	} {
		rl := DefaultRules()
		f(&rl)
		err := rl.Validate()
		if !errors.Is(err, ErrRules) || !strings.Contains(err.Error(), name) {
			t.Errorf("%s: Check = %v", name, err)
		}
	}
	rl := DefaultRules()
	rl.Effects = nil
	if err := rl.Validate(); err != nil {
		t.Errorf("rules without effects: %v", err)
	}
}

// Spending extra successes slows the clock, which fills only with the
// extras kept: a scenario that spends every extra success on dice takes
// more tests than one that keeps them, and the exact model agrees.
func TestScenarioSpend(t *testing.T) {
	mean := map[string]float64{}
	for _, sp := range []string{"none", "bonus_dice"} {
		s := DefaultScenario()
		s.Spend, s.Policy, s.PerilOffered = sp, "always_when_failed", false
		ex, err := s.Exact(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		mean[sp] = ex.MeanRounds
		rn, err := s.NewRunner()
		if err != nil {
			t.Fatal(err)
		}
		r := dice.NewSeeded(9)
		m := make([]int, numMetrics)
		for range 200 {
			if _, err := rn.Trial(r, m); err != nil {
				t.Fatalf("%s: %v", sp, err)
			}
		}
	}
	if !(mean["bonus_dice"] > mean["none"]+0.01) {
		t.Errorf("mean tests: %v; spending extras should take longer", mean)
	}
}
