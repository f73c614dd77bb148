package challenge

import (
	"testing"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim/simtest"
)

// The questions a Chooser sees in a conflict's steps (the package doc's
// table), told apart by the answer's type and the phase.
const (
	askStance = iota
	askCross
	askTarget
	askInterfere
	askLoss
	askPropose
	askAccept
	askKinds
)

var askNames = [askKinds]string{"stance", "cross-off", "target", "interfere", "loss", "proposal", "acceptance"}

// kindOf is the kind of the question answered ans, asked from v.
func kindOf(v *View, ans any) int {
	switch ans.(type) {
	case *Settlement:
		return askPropose
	case Loss:
		return askLoss
	case int:
		if v.Phase() == PhaseChallenge {
			return askTarget
		}
		return askCross
	}
	switch v.Phase() {
	case PhaseStance:
		return askStance
	case PhaseInterfere:
		return askInterfere
	}
	return askAccept
}

// badAnswer is one way of answering a question wrongly: give turns the
// policy's answer ans, asked from v, into the bad one, or says it does not
// apply there. accept, when set, answers the acceptance the bad proposal
// brings (a settlement is taken only once the loser accepts it).
type badAnswer struct {
	kind   int
	name   string
	give   func(v *View, ans any) (any, bool)
	accept any
}

// always is a bad answer that applies at every question of its kind.
func always(a any) func(*View, any) (any, bool) {
	return func(*View, any) (any, bool) { return a, true }
}

// asked is the side the cross-off question now put goes to.
func asked(v *View) int { return v.s.toAsk() }

// loser is the losing side of the consequence now settled.
func loser(v *View) *Side { return &v.s.Sides[v.s.Answerer] }

var badAnswers = []badAnswer{
	{kind: askStance, name: "nil", give: always(nil)},
	{kind: askStance, name: "a string", give: always("hang in")},
	{kind: askInterfere, name: "nil", give: always(nil)},
	{kind: askInterfere, name: "an int", give: always(1)},
	{kind: askCross, name: "nil", give: always(nil)},
	{kind: askCross, name: "a bool", give: always(true)},
	{kind: askCross, name: "below -1", give: always(-2)},
	{kind: askCross, name: "past the owe list", give: func(v *View, _ any) (any, bool) { return len(v.s.Owe), true }},
	{kind: askCross, name: "another player's name", give: func(v *View, _ any) (any, bool) {
		i := asked(v)
		for k := range v.s.Owe {
			if v.s.crossBar(i, k) == barPlayer {
				return k, true
			}
		}
		return nil, false
	}},
	{kind: askCross, name: "a name put on the list in this conflict", give: func(v *View, _ any) (any, bool) {
		i := asked(v)
		for k := range v.s.Owe {
			if v.s.crossBar(i, k) == barFresh {
				return k, true
			}
		}
		return nil, false
	}},
	{kind: askTarget, name: "nil", give: always(nil)},
	{kind: askTarget, name: "a side's name", give: always("irin")},
	{kind: askTarget, name: "below Drop", give: always(Drop - 1)},
	{kind: askTarget, name: "no such side", give: func(v *View, _ any) (any, bool) { return len(v.s.Sides), true }},
	{kind: askTarget, name: "the challenger itself", give: func(v *View, _ any) (any, bool) { return v.s.Challenger, true }},
	{kind: askTarget, name: "a side out of the conflict", give: func(v *View, _ any) (any, bool) {
		for j := range v.s.Sides {
			if !v.s.In(j) {
				return j, true
			}
		}
		return nil, false
	}},
	{kind: askLoss, name: "nil", give: always(nil)},
	{kind: askLoss, name: "a pointer to the loss", give: func(_ *View, ans any) (any, bool) { l := ans.(Loss); return &l, true }},
	{kind: askLoss, name: "no stat of the rules", give: func(_ *View, ans any) (any, bool) {
		l := ans.(Loss)
		l.Stat = "Luck"
		return l, true
	}},
	{kind: askLoss, name: "a stat injury does not take from", give: func(v *View, ans any) (any, bool) {
		l := ans.(Loss)
		for k, name := range v.s.Rules.Stats {
			injured := false
			for _, m := range loser(v).Members {
				injured = injured || m.InjuryStats[k]
			}
			if !injured {
				l.Stat = name
				return l, true
			}
		}
		return nil, false
	}},
	{kind: askLoss, name: "a size more", give: func(_ *View, ans any) (any, bool) {
		l := ans.(Loss)
		l.Sizes[0]++
		return l, true
	}},
	{kind: askLoss, name: "a size fewer", give: func(_ *View, ans any) (any, bool) {
		l := ans.(Loss)
		for d := range l.Sizes {
			if l.Sizes[d] > 0 {
				l.Sizes[d]--
				return l, true
			}
		}
		return nil, false
	}},
	{kind: askLoss, name: "negative sizes", give: func(_ *View, ans any) (any, bool) {
		l := ans.(Loss)
		l.Sizes[0], l.Sizes[1] = -1, l.Sizes[0]+l.Sizes[1]+1
		return l, true
	}},
	{kind: askPropose, name: "nil", give: always(nil)},
	{kind: askPropose, name: "a settlement, not its pointer", give: always(Settlement{Note: "yields"})},
	{kind: askPropose, name: "a legal settlement, accepted with a string", give: always(&Settlement{Note: "yields"}), accept: "yes"},
	{kind: askPropose, name: "a legal settlement, accepted with nil", give: always(&Settlement{Note: "yields"}), accept: nil},
	{kind: askPropose, name: "a change to no member", give: func(v *View, _ any) (any, bool) {
		return &Settlement{Changes: []Change{{Member: len(loser(v).Members), Lose: Loss{Stat: Guts, Sizes: [MaxDice]int{1}}}}}, true
	}, accept: true},
	{kind: askPropose, name: "a loss from no stat of the rules", give: always(&Settlement{Changes: []Change{{Lose: Loss{Stat: "Luck", Sizes: [MaxDice]int{1}}}}}), accept: true},
	{kind: askPropose, name: "a loss of more sizes than a die has", give: always(&Settlement{Changes: []Change{{Lose: Loss{Stat: Art, Sizes: [MaxDice]int{9}}}}}), accept: true},
	{kind: askPropose, name: "a remap to no stat of the rules", give: always(&Settlement{Remaps: []Remap{{Endeavor: Defending, Stat: "Luck"}}}), accept: true},
	{kind: askPropose, name: "a remap of an endeavor not on the sheet", give: always(&Settlement{Remaps: []Remap{{Endeavor: "juggling", Stat: Art}}}), accept: true},
	{kind: askPropose, name: "a specialization gained unpaid", give: always(&Settlement{
		Gains: []Gain{{Specialization: Specialization{Name: "demon-marked", Endeavor: Enduring, Stat: Guts}}},
	}), accept: true},
}

// freshOwe is the owe scenario under Rules.OweWaitsForNextConflict, Irin
// defending with fewer sides than Althesa's dice, so that his name goes
// on the list in the conflict, where he may not cross it off.
func freshOwe() Scenario {
	s := OweScenario()
	s.Rules.OweWaitsForNextConflict = true
	s.Sides[1].Members[0].Character.Stats[Guts] = MustStat(dice.D10, dice.D6)
	return s
}

// applicable lists, for each question the game's next step asks, which
// of badAnswers apply there: it plays the step on a copy of the game (its
// save) and of r (its bytes).
func applicable(t *testing.T, s Scenario, saved, rb []byte) [][]int {
	t.Helper()
	sg, err := s.Restore(saved)
	must(t, err)
	r := dice.NewSeeded(0)
	must(t, r.UnmarshalBinary(rb))
	var out [][]int
	sg.Intercept(func(view, ans any) any {
		v := view.(*View)
		var ways []int
		for j, b := range badAnswers {
			if b.kind != kindOf(v, ans) {
				continue
			}
			if _, ok := b.give(v, ans); ok {
				ways = append(ways, j)
			}
		}
		out = append(out, ways)
		return ans
	})
	must(t, sg.Step(r))
	return out
}

// TestRefusedAnswersLeaveNoTrace: at every kind of question a conflict's
// steps put through a Chooser (stance, cross-off, target, interference,
// each member's loss, the proposal and its acceptance), an answer of
// another type and each kind of illegal answer make the step an error
// that leaves the game's save and the Roller's bytes as they were, and
// that a listener never hears (the questions before it in the step
// answered as the policies answer them).
func TestRefusedAnswersLeaveNoTrace(t *testing.T) {
	hits := map[int]int{}
	games := uint64(30)
	if testing.Short() {
		games = 8
	}
	for name, s := range map[string]Scenario{"default": DefaultScenario(), "three_way": threeWay(), "fresh_owe": freshOwe()} {
		for seed := range games {
			g, r := start(t, s), dice.NewSeeded(seed)
			for !g.Done() {
				saved, rb := save(t, g), rollerBytes(t, r)
				for at, ways := range applicable(t, s, saved, rb) {
					for _, j := range ways {
						refuse(t, g, r, name, at, badAnswers[j])
						hits[j]++
					}
				}
				must(t, g.Step(r))
			}
		}
	}
	for j, b := range badAnswers {
		if hits[j] == 0 {
			t.Errorf("%s, %s: never asked", askNames[b.kind], b.name)
		}
	}
}

// refuse takes a step of g whose at-th question is answered with b, which
// the step must refuse leaving no trace (simtest.Refused).
func refuse(t *testing.T, g *Game, r *dice.Roller, shape string, at int, b badAnswer) {
	t.Helper()
	what := shape + ": " + askNames[b.kind] + ", " + b.name
	n := 0
	g.Intercept(func(view, ans any) any {
		n++
		switch {
		case n-1 == at:
			ans, _ = b.give(view.(*View), ans)
		case n-1 == at+1 && b.kind == askPropose:
			if kindOf(view.(*View), ans) != askAccept {
				t.Fatalf("%s: the proposal was followed by a %T answer", what, ans)
			}
			return b.accept
		}
		return ans
	})
	err := simtest.Refused(g, r, func() error { return g.Step(r) })
	g.Intercept(nil)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// TestStepsAllocateNothing: a game's steps allocate nothing, under the
// scenario's policies or through a Chooser, which is handed the game's
// own *View and answers boxed once per game (-1 for no cross-off and
// Drop, and each member's loss): the default duel, the duel crossing
// names off, and three sides with helpers, target choices and
// interference.
func TestStepsAllocateNothing(t *testing.T) {
	for name, s := range map[string]Scenario{"default": DefaultScenario(), "owe": OweScenario(), "three_way": threeWay()} {
		for _, through := range []bool{false, true} {
			g, rn := benchGame(t, s)
			var kinds [askKinds]int
			if through {
				g.Intercept(func(view, ans any) any {
					kinds[kindOf(view.(*View), ans)]++
					return ans
				})
			}
			r := dice.NewSeeded(39)
			// AllocsPerRun rounds down: each run takes 100 steps, so that
			// one allocation in a hundred steps shows.
			a := testing.AllocsPerRun(50, func() {
				for range 100 {
					if g.Done() {
						rn.reset()
					}
					must(t, g.Step(r))
				}
			})
			if a != 0 {
				t.Errorf("%s (Chooser: %v): 100 steps allocate %v times", name, through, a)
			}
			if through && (kinds[askStance] == 0 || kinds[askLoss] == 0 || kinds[askPropose] == 0) {
				t.Errorf("%s: the Chooser was asked %v", name, kinds)
			}
			if through && name != "default" && kinds[askCross] == 0 {
				t.Errorf("%s: no cross-off reached the Chooser: %v", name, kinds)
			}
			if through && name == "three_way" && (kinds[askTarget] == 0 || kinds[askInterfere] == 0) {
				t.Errorf("%s: the Chooser was asked %v", name, kinds)
			}
		}
	}
}
