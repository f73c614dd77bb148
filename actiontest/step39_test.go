package actiontest

import (
	"testing"

	"github.com/stakesrpg/stakes/dice"
)

// The steps by name allocate nothing either (Begin and Finish, Push, an
// Engine's Play), nor a Game's Step under a policy of the caller's, which
// may be refused, so the game keeps itself to put back (it once saved its
// Roller too, every step).
func TestNamedStepsAndCallersPoliciesAllocateNothing(t *testing.T) {
	c := newChar(t, DefaultRules())
	r := dice.NewSeeded(39)
	test := Test{Action: "Prowl", Position: Risky, Difficulty: 1, NoHarm: true}
	e := Engine{Policies: Table{Player: WhenFailed{}}}
	g, err := DefaultScenario().newGame()
	if err != nil {
		t.Fatal(err)
	}
	custom, err := DefaultScenario().newGame()
	if err != nil {
		t.Fatal(err)
	}
	custom.SetPlayer(WhenFailed{})
	step := func(g *Game) func() {
		return func() {
			if g.Done() {
				g.rn.reset()
			}
			if err := g.Step(r); err != nil {
				t.Fatal(err)
			}
		}
	}
	for name, f := range map[string]func(){
		"begin and finish": func() {
			if err := eng.Begin(c, r, test); err != nil {
				t.Fatal(err)
			}
			if err := eng.Finish(c); err != nil {
				t.Fatal(err)
			}
		},
		"begin, push, finish": func() {
			c.Harm[0].Rows[0] = 0
			if err := eng.Begin(c, r, test); err != nil {
				t.Fatal(err)
			}
			if err := eng.Push(c, r, "physical"); err != nil {
				t.Fatal(err)
			}
			if err := eng.Finish(c); err != nil {
				t.Fatal(err)
			}
		},
		"engine steps": func() {
			c.Harm[0].Rows[0] = 0
			if err := e.Begin(c, r, test); err != nil {
				t.Fatal(err)
			}
			if err := e.Play(c, r); err != nil {
				t.Fatal(err)
			}
		},
		"game steps":                  step(g),
		"game steps, caller's policy": step(custom),
	} {
		f() // the state's records grow to size once
		if n := testing.AllocsPerRun(200, f); n != 0 {
			t.Errorf("%s: %v allocations", name, n)
		}
	}
}

// The steps read the Director's ruling worked out when the state was made
// or checked, and the name a test rolls resolved once: naming another
// Director, giving the state other rules or another sheet takes effect at
// the next step, and so does a rating edited in place once the state is
// checked again.
func TestPreparedRulingsAndNamesFollowTheState(t *testing.T) {
	c := newChar(t, DefaultRules())
	fail := func() *Attempt {
		t.Helper()
		if err := eng.Begin(c, dice.Scripted(1, 1, 1, 1, 1, 1, 1, 1, 1, 1), Test{Action: "Prowl", Position: Risky, Difficulty: 1}); err != nil {
			t.Fatal(err)
		}
		if err := eng.Finish(c); err != nil {
			t.Fatal(err)
		}
		return &c.Attempt
	}
	if at := fail(); !at.HarmTaken || at.Pool.Dice != 4 {
		t.Fatalf("a Risky failure under the table: %+v", at)
	}
	c.Harm = harmOf([3]int{}, [3]int{})
	c.Director = "gentle"
	if at := fail(); at.HarmTaken {
		t.Errorf("the gentle Director named after the state was made: harm %+v", at)
	}
	c.Director = "table"
	rl := DefaultRules()
	rl.Table[1].Failure.Consequences = []Consequence{{Kind: LostOpportunity}}
	c.Rules = rl
	if at := fail(); at.HarmTaken {
		t.Errorf("new rules with a Risky failure that does no harm: %+v", at)
	}
	c.Sheet.Actions = map[string]int{"Prowl": 4}
	if at := fail(); at.Pool.Dice != 6 {
		t.Errorf("another sheet rating Prowl 4: %d dice", at.Pool.Dice)
	}
	c.Sheet.Actions["Prowl"] = 1
	if err := c.Check(); err != nil {
		t.Fatal(err)
	}
	if at := fail(); at.Pool.Dice != 3 {
		t.Errorf("Prowl rated 1 in place, checked: %d dice", at.Pool.Dice)
	}
}
