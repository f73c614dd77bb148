package actiontest

import (
	"slices"
	"testing"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim/simtest"
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

// badAnswer is one way of answering a question of a pursuit's step that
// the step must refuse: give turns the policy's answer ans, asked from v,
// into the bad one, or says it does not apply there. typed says the bad
// answer has the question's type, so a policy of the caller's can give
// it too.
type badAnswer struct {
	kind, name string
	typed      bool
	give       func(v *View, ans any) (any, bool)
}

// The question kinds a Chooser sees in a pursuit's step.
const (
	askPeril     = "peril"
	askPush      = "push"
	askFlashback = "flashback"
	askSpend     = "spend"
)

var badAnswers = []badAnswer{
	{askPeril, "another type", false, func(*View, any) (any, bool) { return 7, true }},
	{askPeril, "a deal that leaves no way to act", true, func(v *View, ans any) (any, bool) {
		return true, v.MustPush && !ans.(bool)
	}},
	{askPush, "another type", false, func(*View, any) (any, bool) { return "push", true }},
	{askPush, "an unknown track", true, func(*View, any) (any, bool) { return PushAnswer{Push: true, Track: "bogus"}, true }},
	{askPush, "keeping a roll that must be pushed", true, func(v *View, _ any) (any, bool) {
		return PushAnswer{Track: v.PushTrack}, v.MustPush
	}},
	{askPush, "a track with no room", true, func(v *View, _ any) (any, bool) {
		for t, name := range v.Rules.HarmTracks {
			if !hasSpace(v.Rules, v.State, t) {
				return PushAnswer{Push: true, Track: name}, true
			}
		}
		return nil, false
	}},
	{askFlashback, "another type", false, func(*View, any) (any, bool) { return PushAnswer{}, true }},
	{askSpend, "another type", false, func(*View, any) (any, bool) { return []string{"bonus_die"}, true }},
	{askSpend, "no such effect", true, func(v *View, _ any) (any, bool) { return []int{len(v.Rules.Effects)}, true }},
	{askSpend, "a negative index", true, func(*View, any) (any, bool) { return []int{-1}, true }},
	{askSpend, "more than the extra successes", true, func(v *View, _ any) (any, bool) {
		return slices.Repeat([]int{2}, v.Extra+1), true
	}},
}

// kindOf is the kind of the i-th question of a step, answered ans; due
// says the flashback was due before the step (it is then asked first).
func kindOf(i int, ans any, due bool) string {
	switch ans.(type) {
	case PushAnswer:
		return askPush
	case []int:
		return askSpend
	}
	if i == 0 && due {
		return askFlashback
	}
	return askPeril
}

// wrongAt answers as Policy except its at-th question of the step,
// which it answers with bad.
type wrongAt struct {
	Policy
	n, at int
	bad   func(v *View, ans any) (any, bool)
}

func (p *wrongAt) answer(v *View, ans any) any {
	p.n++
	if p.n-1 != p.at {
		return ans
	}
	a, _ := p.bad(v, ans)
	return a
}

func (p *wrongAt) Peril(v *View) bool { return p.answer(v, p.Policy.Peril(v)).(bool) }
func (p *wrongAt) Push(v *View) (bool, string) {
	push, track := p.Policy.Push(v)
	a := p.answer(v, PushAnswer{Push: push, Track: track}).(PushAnswer)
	return a.Push, a.Track
}
func (p *wrongAt) Spend(v *View, buf []int) []int {
	return p.answer(v, p.Policy.Spend(v, buf)).([]int)
}
func (p *wrongAt) Flashback(v *View) bool { return p.answer(v, p.Policy.Flashback(v)).(bool) }

// applicable lists, for each question the game's next step asks, which of
// badAnswers apply there: it plays the step on a copy of the game and r.
func applicable(t *testing.T, s Scenario, saved, rb []byte) [][]int {
	t.Helper()
	g, err := s.restoreGame(saved)
	if err != nil {
		t.Fatal(err)
	}
	r := dice.NewSeeded(0)
	if err := r.UnmarshalBinary(rb); err != nil {
		t.Fatal(err)
	}
	due := g.rn.Pursuit.FlashbackDue
	var out [][]int
	g.Intercept(func(view, ans any) any {
		var ways []int
		for j, b := range badAnswers {
			if b.kind != kindOf(len(out), ans, due) {
				continue
			}
			if _, ok := b.give(view.(*View), ans); ok {
				ways = append(ways, j)
			}
		}
		out = append(out, ways)
		return ans
	})
	if err := g.Step(r); err != nil {
		t.Fatal(err)
	}
	return out
}

// A refused answer leaves no trace: at every kind of question a pursuit's
// step asks (the Risk Peril deal before a test, the push, the flashback,
// the spending after a finished test), each way of answering wrongly —
// another type through a Chooser; an illegal answer through a Chooser and
// through a policy of the caller's (SetPlayer) — makes the step an error
// that leaves the game's save and the Roller's bytes as they were (the
// questions before it in the step answered as the policy answers them).
func TestRefusedAnswersLeaveNoTrace(t *testing.T) {
	// The rooftop chase, pushing every failure; and a longer chase, to a
	// goal of 8, in which the harm grows severe (the roll must then be
	// pushed) and fills a track.
	s, long := DefaultScenario(), DefaultScenario()
	s.Policy, long.Policy, long.Goal = "always_when_failed", "always_when_failed", 8
	hits := map[string]int{}
	for seed := range uint64(280) {
		if seed == 80 { // 200 games of the long chase
			s = long
		}
		g, err := s.newGame()
		if err != nil {
			t.Fatal(err)
		}
		r := dice.NewSeeded(seed)
		for !g.Done() {
			saved, _ := g.Save()
			rb, _ := r.MarshalBinary()
			for at, ways := range applicable(t, s, saved, rb) {
				for _, j := range ways {
					b := badAnswers[j]
					refuse(t, g, r, "chooser, "+b.kind+", "+b.name, func() {
						n := 0
						g.Intercept(func(view, ans any) any {
							if n++; n-1 == at {
								ans, _ = b.give(view.(*View), ans)
							}
							return ans
						})
					})
					hits["chooser, "+b.kind+", "+b.name]++
					if b.typed {
						refuse(t, g, r, "policy, "+b.kind+", "+b.name, func() {
							g.SetPlayer(&wrongAt{Policy: g.rn.policy, at: at, bad: b.give})
						})
						hits["policy, "+b.kind+", "+b.name]++
					}
				}
			}
			if err := g.Step(r); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, b := range badAnswers {
		for _, via := range []string{"chooser", "policy"} {
			if key := via + ", " + b.kind + ", " + b.name; hits[key] == 0 && (via == "chooser" || b.typed) {
				t.Errorf("%s: never asked", key)
			}
		}
	}
}

// refuse sets a bad answer up (set), takes a step that must refuse it
// leaving no trace (simtest.Refused), and puts the game's player and
// Chooser back.
func refuse(t *testing.T, g *Game, r *dice.Roller, what string, set func()) {
	t.Helper()
	set()
	err := simtest.Refused(g, r, func() error { return g.Step(r) })
	g.Intercept(nil)
	g.SetPlayer(nil)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// A step through a Chooser allocates nothing either: the view is the
// game's, and the answers it is handed — a push on any track, the
// spending the policy wrote into the state's buffer — are boxed once per
// game.
func TestChooserStepsAllocateNothing(t *testing.T) {
	s := DefaultScenario()
	s.Spend = "bonus_dice"
	g, err := s.newGame()
	if err != nil {
		t.Fatal(err)
	}
	bought, pushes := 0, 0
	g.Intercept(func(_, ans any) any {
		switch a := ans.(type) {
		case []int:
			bought += len(a)
		case PushAnswer:
			pushes++
		}
		return ans
	})
	r := dice.NewSeeded(39)
	// AllocsPerRun rounds down: each run takes 100 steps, so that one
	// allocation in a hundred steps shows.
	if a := testing.AllocsPerRun(50, func() {
		for range 100 {
			if g.Done() {
				g.rn.reset()
			}
			if err := g.Step(r); err != nil {
				t.Fatal(err)
			}
		}
	}); a != 0 {
		t.Errorf("100 steps through a Chooser allocate %v times", a)
	}
	if bought == 0 || pushes == 0 {
		t.Errorf("the Chooser was handed %d bought effects and %d push answers", bought, pushes)
	}
}
