package actiontest

import (
	"errors"
	"slices"
	"testing"

	"github.com/stakesrpg/stakes/dice"
)

// Engine.Retry's recipe: the retry RetryTest gives does not take the
// Risk Peril deal a second time, so its harm is paid once; the last
// test's own Test.At would charge it again.
func TestRetryTestDoesNotTakeThePerilDealAgain(t *testing.T) {
	tst := Test{Action: "Prowl", Position: Risky, Difficulty: 1, Escalate: true, Peril: true, PerilHarm: 2}
	for _, tc := range []struct {
		name     string
		retry    func(c *State) Test
		moderate int
	}{
		{"RetryTest", func(c *State) Test { rt, _ := eng.RetryTest(c); return rt }, 1},
		{"Test.At", func(c *State) Test { return c.Attempt.Test.At(c.Attempt.NextPosition) }, 2},
	} {
		c := newChar(t, DefaultRules())
		if err := eng.Begin(c, dice.Scripted(1, 1, 1, 1, 1, 1, 1), tst); err != nil {
			t.Fatal(err)
		}
		if err := eng.Finish(c); err != nil || !c.Attempt.Retry {
			t.Fatalf("finish: %v, retry %v", err, c.Attempt.Retry)
		}
		rt := tc.retry(c)
		if err := eng.Retry(c, dice.Scripted(6, 1, 1, 1, 1, 1, 1), rt); err != nil {
			t.Fatal(err)
		}
		if got := c.Harm[0].Rows[1]; got != tc.moderate {
			t.Errorf("%s: %d moderate harms after the retry, want %d", tc.name, got, tc.moderate)
		}
	}
	c := newChar(t, DefaultRules())
	if _, err := eng.RetryTest(c); !errors.Is(err, ErrStage) {
		t.Errorf("RetryTest with no retry asked: %v", err)
	}
}

// A tie against an NPC is "You get what you want, but something goes
// wrong" by default; a tie between player characters is neither's.
func TestOpposedTieAgainstAnNPCGetsWhatYouWantButSomethingGoesWrong(t *testing.T) {
	for _, npc := range []bool{true, false} {
		c := newChar(t, DefaultRules())
		if err := eng.Begin(c, dice.Scripted(6, 1, 1, 1), Test{Action: "Prowl", Opposed: true}); err != nil {
			t.Fatal(err)
		}
		if err := eng.FinishOpposed(c, 1, npc); err != nil {
			t.Fatal(err)
		}
		o := c.Attempt.Outcome
		want := npc && o.Kind == SuccessConsequence && hasKind(o.Consequences, Complication)
		if o.Succeeded != npc || (npc && !want) || (!npc && o.Kind != Neither) {
			t.Errorf("npc %v: tie reads %+v", npc, o)
		}
	}
}

// A Controlled failure the Director answers with Worse Position is
// neither won nor lost: not a "success with a consequence" that did not
// succeed.
func TestEscalatedControlledFailureIsNeitherWonNorLost(t *testing.T) {
	c := newChar(t, DefaultRules())
	tst := Test{Action: "Prowl", Position: Controlled, Difficulty: 1, Escalate: true}
	if err := eng.Begin(c, dice.Scripted(1, 1, 1, 1), tst); err != nil {
		t.Fatal(err)
	}
	if err := eng.Finish(c); err != nil {
		t.Fatal(err)
	}
	at := &c.Attempt
	if at.Outcome.Kind != Neither || at.Outcome.Succeeded || !at.Retry || at.NextPosition != Risky || at.Outcome.Severity != NoSeverity {
		t.Errorf("escalated controlled failure: %+v, retry %v at %q", at.Outcome, at.Retry, at.NextPosition)
	}
	if err := c.Clone().Check(); err != nil {
		t.Errorf("the escalated record does not check: %v", err)
	}
}

// lenient is a Director of the tests' own: every consequence but a
// complication is dropped.
type lenient struct{}

func (lenient) Name() string { return "lenient" }
func (lenient) Rule(v *DirectorView) Ruling {
	var out []Consequence
	for _, q := range v.Table.Consequences {
		if q.Kind == Complication {
			out = append(out, q)
		}
	}
	return Ruling{Severity: v.Table.Severity, Consequences: out}
}

// A Go caller plugs in a Director of its own with no registry: in an
// Engine's Policies, and in a Scenario's Directors (a saved game of it
// restores through a scenario holding it).
func TestDirectorOfYourOwnNeedsNoGlobal(t *testing.T) {
	c := newChar(t, DefaultRules())
	e := Engine{Policies: Table{Director: lenient{}}}
	if err := e.ActionTest(c, dice.Scripted(1, 1, 1, 1), Test{Action: "Prowl", Position: Desperate, Difficulty: 1}); err != nil {
		t.Fatal(err)
	}
	if harmHeld(c) != 0 || c.Attempt.HarmTaken {
		t.Errorf("the lenient Director dealt harm: %v", c.Harm)
	}
	s := DefaultScenario()
	s.Director, s.Directors = "lenient", []Director{lenient{}}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	g, err := s.newGame()
	if err != nil {
		t.Fatal(err)
	}
	r := dice.NewSeeded(4)
	for !g.Done() {
		if err := g.Step(r); err != nil {
			t.Fatal(err)
		}
	}
	if n := harmCount(g.State()); n != g.Pursuit().Metrics[metPushes] {
		t.Errorf("harm %d beyond the pushes' %d", n, g.Pursuit().Metrics[metPushes])
	}
	saved, _ := g.Save()
	if _, err := s.Restore(saved); err != nil {
		t.Errorf("restored through the scenario holding the Director: %v", err)
	}
	if _, err := DefaultScenario().Restore(saved); err == nil {
		t.Error("restored without the Director")
	}
}

// "Specific equipment may be required to perform an Action": a test that
// needs an item the sheet does not carry is refused, and changes nothing.
func TestRequiredEquipmentMustBeCarried(t *testing.T) {
	tst := Test{Action: "Finesse", Position: Risky, Difficulty: 1, Requires: "lockpicks", Equipment: 1}
	c := newChar(t, DefaultRules())
	before := c.Clone()
	if err := eng.Begin(c, dice.Scripted(6, 6, 6), tst); !errors.Is(err, ErrEquipment) {
		t.Errorf("no lockpicks: %v", err)
	}
	if err := eng.CanBegin(c, tst); !errors.Is(err, ErrEquipment) {
		t.Errorf("CanBegin without lockpicks: %v", err)
	}
	if c.Attempt.Stage != before.Attempt.Stage {
		t.Error("a refused test changed the state")
	}
	sh := testSheet
	sh.Equipment = []string{"rope", "lockpicks"}
	c, err := NewState(DefaultRules(), sh)
	if err != nil {
		t.Fatal(err)
	}
	if err := eng.Begin(c, dice.Scripted(6, 6, 6), tst); err != nil {
		t.Errorf("with lockpicks: %v", err)
	}
}

// Buyable says what the finished action's extra successes can buy now,
// and CanSpend why a purchase would be refused.
func TestBuyableSaysWhatExtraSuccessesCanBuy(t *testing.T) {
	c := newChar(t, DefaultRules())
	if got := eng.Buyable(c); len(got) != 0 {
		t.Errorf("nothing finished, yet buyable %v", got)
	}
	if err := eng.ActionTest(c, dice.Scripted(6, 6, 1, 1), Test{Action: "Prowl", Position: Risky, Difficulty: 1, NoHarm: true}); err != nil {
		t.Fatal(err)
	}
	if got, want := eng.Buyable(c), []string{"help_ally", "bonus_die"}; !slices.Equal(got, want) {
		t.Errorf("unhurt, one extra: buyable %v, want %v", got, want)
	}
	if err := eng.CanSpend(c, "heal_harm"); !errors.Is(err, ErrNoHarm) {
		t.Errorf("CanSpend heal with no harm: %v", err)
	}
	if err := eng.CanSpend(c, "bonus_die", "bonus_die"); !errors.Is(err, ErrExtra) {
		t.Errorf("CanSpend two with one extra: %v", err)
	}
	if err := eng.Spend(c, "bonus_die"); err != nil {
		t.Fatal(err)
	}
	if got := eng.Buyable(c); len(got) != 0 {
		t.Errorf("all spent, yet buyable %v", got)
	}
}

// A scenario whose tests need equipment the character lacks is refused.
func TestScenarioRequiresCarriedEquipment(t *testing.T) {
	s := DefaultScenario()
	s.Requires = "climbing claws"
	if err := s.Validate(); !errors.Is(err, ErrEquipment) {
		t.Errorf("without the claws: %v", err)
	}
	s.Character.Equipment = []string{"climbing claws"}
	if err := s.Validate(); err != nil {
		t.Errorf("with the claws: %v", err)
	}
}

// A flashback played with ActionTest during an action's Worse Position
// retry ends with its own roll: the retry waits for its own step.
func TestFlashbackActionTestLeavesTheRetryWaiting(t *testing.T) {
	c := newChar(t, DefaultRules())
	tst := Test{Action: "Prowl", Position: Risky, Difficulty: 1, Escalate: true, NoHarm: true}
	if err := eng.Begin(c, dice.Scripted(1, 1, 1, 1), tst); err != nil {
		t.Fatal(err)
	}
	if err := eng.Finish(c); err != nil || !c.Attempt.Retry {
		t.Fatalf("finish: %v, retry %v", err, c.Attempt.Retry)
	}
	fb := Test{Action: "Prowl", Position: Controlled, Difficulty: 1, Flashback: true}
	r := dice.Scripted(6, 1, 1, 1)
	if err := eng.ActionTest(c, r, fb); err != nil {
		t.Fatal(err)
	}
	if c.Flashback.Stage != Finished || c.Attempt.Stage != Finished || !c.Attempt.Retry || r.Remaining() != 0 {
		t.Errorf("flashback %s, action %s retry %v, %d dice left", c.Flashback.Stage, c.Attempt.Stage, c.Attempt.Retry, r.Remaining())
	}
	if c.Done() {
		t.Error("the retry is no longer waiting")
	}
}
