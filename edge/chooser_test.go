package edge

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim"
	"github.com/stakesrpg/stakes/sim/simtest"
)

// askingScenarios are shapes in which a Game asks every question a
// Chooser can see: the built-in chase (concessions, actions, reactions);
// a crowd before endurance-type outside factors (abandoning before the
// factors, and two crowds of one party, one shedding before the other is
// asked); three sides (seizing the initiative, several targets, and a
// crowd of porters that acts with endurance, so abandoning before a
// round); and every party acting in turn, once a round.
func askingScenarios() map[string]Scenario {
	kit := kitScenarios()
	three := Scenario{Rules: DefaultRules(), Type: "chase", Parties: []Party{
		{Name: "smugglers", Policy: "steady", Members: []Member{
			{Name: "Vee", Skills: map[string]int{"vehicles": 5, "reflex": 3}},
			{Name: "porters", Size: 30, Skills: map[string]int{"endurance": 6}}}},
		{Name: "customs", Policy: "cautious", Members: []Member{
			{Name: "Ida", Skills: map[string]int{"vehicles": 4, "perception": 3}}}},
		{Name: "rivals", Policy: "reckless", Members: []Member{
			{Name: "Rex", Skills: map[string]int{"vehicles": 3, "ranged attack": 4}},
			{Name: "Sal", Skills: map[string]int{"athletics": 4}}}},
	}}
	// Two crowds of a party that sheds its stragglers at once, checking
	// nothing but endurance, so that one group has answered (and shed)
	// before the other is asked, in a round and before the factors.
	crowds := Scenario{Rules: DefaultRules(), Type: "chase", Parties: []Party{
		{Name: "mob", Policy: "reckless", Members: []Member{
			{Name: "rioters", Size: 20, Skills: map[string]int{"endurance": 5}},
			{Name: "looters", Size: 8, Skills: map[string]int{"endurance": 4}}}},
		{Name: "police", Policy: "steady", Members: []Member{
			{Name: "Sgt", Skills: map[string]int{"perception": 4, "athletics": 3}},
			{Name: "squad", Size: 6, Skills: map[string]int{"athletics": 2}}}},
	}, Factors: []Factor{{After: 1, Every: 3, Skill: "endurance", DC: 10, Penalty: -1}}}
	return map[string]Scenario{
		"chase":                     kit["chase"],
		"crowds":                    crowds,
		"crowd and factors":         kit["crowd and factors"],
		"three sides":               three,
		"every party, once a round": kit["every party, once a round"],
	}
}

// The kinds of question a Chooser sees.
const (
	askConcede = "concede"
	askAct     = "act"
	askReact   = "react"
	askSeize   = "seize"
	askAbandon = "abandon"
)

// kindOf is the kind of question q, answered ans.
func kindOf(q *Question, ans any) string {
	switch ans.(type) {
	case Concession:
		return askConcede
	case Action:
		return askAct
	case Reaction:
		return askReact
	}
	if q.Member >= 0 {
		return askAbandon
	}
	return askSeize
}

// badAnswer is one way of answering a kind of question that the step must
// refuse: give turns the answer ans to q into the bad one, or says it does
// not apply there. typed says the bad answer is of the question's type
// (the others are refused as of another type).
type badAnswer struct {
	kind, name string
	typed      bool
	give       func(q *Question, ans any) (any, bool)
}

// anyType are the bad answers of another type to a kind of question.
func anyType(kind string) []badAnswer {
	return []badAnswer{
		{kind, "another type", false, func(*Question, any) (any, bool) { return "bogus", true }},
		{kind, "nil", false, func(*Question, any) (any, bool) { return nil, true }},
	}
}

// badUses are the bad check lists of a party acting (kind askAct) or
// reacting: checks reads the checks of an answer, and with returns a copy
// of an answer with other checks.
func badUses(kind string, checks func(ans any) []Use, with func(ans any, us []Use) any) []badAnswer {
	first := func(q *Question, ans any, change func(u *Use) bool) (any, bool) {
		us := slices.Clone(checks(ans))
		if len(us) == 0 || !change(&us[0]) {
			return nil, false
		}
		return with(ans, us), true
	}
	legal := func(q *Question, p, m, s int) bool {
		if kind == askAct {
			_, ok := q.View.ActMod(p, m, s)
			return ok
		}
		_, ok := q.View.ReactMod(p, m, s, q.Action)
		return ok
	}
	return []badAnswer{
		{kind, "no checks", true, func(q *Question, ans any) (any, bool) {
			return with(ans, nil), len(checks(ans)) > 0
		}},
		{kind, "more checks than dice", true, func(q *Question, ans any) (any, bool) {
			n := q.View.Members(q.Party)
			us := make([]Use, n)
			for m := range us {
				us[m] = Use{Member: m, Skill: 1}
			}
			return with(ans, us), n > q.View.Edge(q.Party)
		}},
		{kind, "a member twice", true, func(q *Question, ans any) (any, bool) {
			us := checks(ans)
			if len(us) == 0 {
				return nil, false
			}
			return with(ans, []Use{us[0], us[0]}), q.View.Edge(q.Party) >= 2
		}},
		{kind, "no such member", true, func(q *Question, ans any) (any, bool) {
			return first(q, ans, func(u *Use) bool { u.Member = q.View.Members(q.Party); return true })
		}},
		{kind, "no skill", true, func(q *Question, ans any) (any, bool) {
			return first(q, ans, func(u *Use) bool { u.Skill = 0; return true })
		}},
		{kind, "no such skill", true, func(q *Question, ans any) (any, bool) {
			return first(q, ans, func(u *Use) bool { u.Skill = q.View.Skills() + 1; return true })
		}},
		{kind, "a skill the rules forbid here", true, func(q *Question, ans any) (any, bool) {
			return first(q, ans, func(u *Use) bool {
				for s := 1; s <= q.View.Skills(); s++ {
					if !legal(q, q.Party, u.Member, s) {
						u.Skill = s
						return true
					}
				}
				return false
			})
		}},
		{kind, "a modifier past the bound", true, func(q *Question, ans any) (any, bool) {
			return first(q, ans, func(u *Use) bool { u.Mod = MaxModifier + 1; return true })
		}},
		{kind, "a member that has made its one check this round", true, func(q *Question, ans any) (any, bool) {
			// Its one check, with a skill that would be legal otherwise.
			in := q.View.in
			var acted skillSet
			if q.Action != nil {
				acted = in.skillsOf(q.Action)
			}
			for m := range q.View.Members(q.Party) {
				if !in.checked(&in.s.Parties[q.Party].Members[m]) {
					continue
				}
				for sk := 1; sk <= q.View.Skills(); sk++ {
					if _, ok := in.pairing(sk, kind == askAct, acted); ok {
						return with(ans, []Use{{Member: m, Skill: sk}}), true
					}
				}
			}
			return nil, false
		}},
	}
}

// withTargets returns a copy of the Action ans (the game's, good only
// during the call) with targets ts.
func withTargets(ans any, ts []int) any {
	a := ans.(Action)
	return Action{Party: a.Party, Targets: ts, Checks: slices.Clone(a.Checks)}
}

var badAnswers = slices.Concat(
	anyType(askConcede),
	[]badAnswer{
		{askConcede, "no such concession", true, func(*Question, any) (any, bool) { return Concession(3), true }},
		{askConcede, "walking away where the type forbids it", true, func(q *Question, _ any) (any, bool) {
			return WalkAway, !q.View.CanWalkAway()
		}},
	},
	anyType(askAct),
	[]badAnswer{
		{askAct, "another party's action", true, func(q *Question, ans any) (any, bool) {
			a := withTargets(ans, slices.Clone(ans.(Action).Targets)).(Action)
			a.Party = (a.Party + 1) % q.View.Parties()
			return a, true
		}},
		{askAct, "no target", true, func(_ *Question, ans any) (any, bool) { return withTargets(ans, nil), true }},
		{askAct, "itself as target", true, func(q *Question, ans any) (any, bool) {
			return withTargets(ans, []int{q.Party}), true
		}},
		{askAct, "no such party", true, func(q *Question, ans any) (any, bool) {
			return withTargets(ans, []int{q.View.Parties()}), true
		}},
		{askAct, "a target twice", true, func(_ *Question, ans any) (any, bool) {
			t := ans.(Action).Targets[0]
			return withTargets(ans, []int{t, t}), true
		}},
		{askAct, "a party that is out", true, func(q *Question, ans any) (any, bool) {
			for p := range q.View.Parties() {
				if q.View.Out(p) {
					return withTargets(ans, []int{p}), true
				}
			}
			return nil, false
		}},
	},
	badUses(askAct, func(ans any) []Use { return ans.(Action).Checks }, func(ans any, us []Use) any {
		a := withTargets(ans, slices.Clone(ans.(Action).Targets)).(Action)
		a.Checks = us
		return a
	}),
	anyType(askReact),
	[]badAnswer{
		{askReact, "the actor's reaction", true, func(q *Question, ans any) (any, bool) {
			return Reaction{Party: q.Action.Party, Checks: slices.Clone(ans.(Reaction).Checks)}, true
		}},
	},
	badUses(askReact, func(ans any) []Use { return ans.(Reaction).Checks }, func(ans any, us []Use) any {
		return Reaction{Party: ans.(Reaction).Party, Checks: us}
	}),
	anyType(askSeize),
	anyType(askAbandon),
)

// askedIn lists, for each question the next step of the game saved as
// saved (with the Roller at rb) asks, which of badAnswers apply there: it
// plays the step on a copy.
func askedIn(t *testing.T, s Scenario, saved, rb []byte) [][]int {
	t.Helper()
	g, err := s.Restore(saved)
	if err != nil {
		t.Fatal(err)
	}
	var r dice.Roller
	if err := r.UnmarshalBinary(rb); err != nil {
		t.Fatal(err)
	}
	var out [][]int
	g.Intercept(func(view, ans any) any {
		q := view.(*Question)
		var ways []int
		for j, b := range badAnswers {
			if b.kind != kindOf(q, ans) {
				continue
			}
			if _, ok := b.give(q, ans); ok {
				ways = append(ways, j)
			}
		}
		out = append(out, ways)
		return ans
	})
	if err := g.Step(&r); err != nil {
		t.Fatal(err)
	}
	return out
}

// A refused answer leaves no trace: at every kind of question a Game's
// step asks through a Chooser (a party's concession before a round, the
// action, each target's reaction, an untargeted party's seizing, a group
// abandoning its stragglers before a round or before the outside
// factors), an answer of another type and each illegal answer of the
// question's type make the step an error that leaves the game's save and
// the Roller's bytes as they were and that a listener never hears (the
// questions before it in the step answered as the policies answer them).
func TestRefusedAnswersLeaveNoTrace(t *testing.T) {
	seeds := uint64(12)
	if testing.Short() {
		seeds = 3
	}
	hits := map[string]int{}
	for name, s := range askingScenarios() {
		for seed := range seeds {
			g := startGame(t, s)
			r := dice.NewSeeded(seed)
			for !g.Done() {
				saved, err := g.Save()
				if err != nil {
					t.Fatal(err)
				}
				rb := rollerBytes(t, r)
				for at, ways := range askedIn(t, s, saved, rb) {
					for _, j := range ways {
						b := badAnswers[j]
						what := fmt.Sprintf("%s, seed %d, round %d: %s, %s", name, seed, g.State().Round, b.kind, b.name)
						refuses(t, g, r, what, at, b)
						hits[b.kind+", "+b.name]++
					}
				}
				if err := g.Step(r); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	for _, b := range badAnswers {
		if hits[b.kind+", "+b.name] == 0 {
			t.Errorf("%s, %s: never asked", b.kind, b.name)
		}
	}
}

// refuses steps g under a Chooser that answers its at-th question with
// b's bad answer, and checks that the step was refused leaving no trace
// (simtest.Refused), and, for an answer of another type, refused as one.
func refuses(t *testing.T, g *Game, r *dice.Roller, what string, at int, b badAnswer) {
	t.Helper()
	n := 0
	g.Intercept(func(view, ans any) any {
		if n++; n-1 == at {
			ans, _ = b.give(view.(*Question), ans)
		}
		return ans
	})
	var stepErr error
	err := simtest.Refused(g, r, func() error { stepErr = g.Step(r); return stepErr })
	g.Intercept(nil)
	switch {
	case err != nil:
		t.Fatalf("%s: %v", what, err)
	case !b.typed && !strings.Contains(stepErr.Error(), "want a"):
		t.Fatalf("%s: refused as %v, not as an answer of another type", what, stepErr)
	}
}

// A Chooser that hands every answer back plays the game the policies
// play, step for step (the same save after each, the same events), and
// is handed Questions that say what is asked: the party asked, the group
// for Abandon, and for React a copy of the action the step declared.
func TestIdentityChooserPlaysAsThePolicies(t *testing.T) {
	for name, s := range askingScenarios() {
		for seed := range uint64(5) {
			plain, chosen := startGame(t, s), startGame(t, s)
			var want, got []string
			plain.Listen(func(e sim.Event) { want = append(want, e.String()) })
			chosen.Listen(func(e sim.Event) { got = append(got, e.String()) })
			var acted Action
			chosen.Intercept(func(view, ans any) any {
				q := view.(*Question)
				switch a := ans.(type) {
				case Action:
					if q.Party != a.Party || q.Action != nil || q.Member != -1 {
						t.Fatalf("%s: the question of an action %+v is %+v", name, a, q)
					}
					acted = Action{Party: a.Party, Targets: slices.Clone(a.Targets), Checks: slices.Clone(a.Checks)}
				case Reaction:
					if q.Party != a.Party || q.Action == nil || q.Action.Party != acted.Party ||
						!slices.Equal(q.Action.Targets, acted.Targets) || !slices.Equal(q.Action.Checks, acted.Checks) {
						t.Fatalf("%s: the question of a reaction after %+v is %+v (action %+v)", name, acted, q, q.Action)
					}
				case bool:
					if q.Member >= q.View.Members(q.Party) {
						t.Fatalf("%s: the question of a bool is %+v", name, q)
					}
				}
				return ans
			})
			r1, r2 := dice.NewSeeded(seed), dice.NewSeeded(seed)
			for step := 0; !plain.Done(); step++ {
				if err := plain.Step(r1); err != nil {
					t.Fatal(err)
				}
				if err := chosen.Step(r2); err != nil {
					t.Fatal(err)
				}
				a, _ := plain.Save()
				b, _ := chosen.Save()
				if !bytes.Equal(a, b) || !slices.Equal(want, got) {
					t.Fatalf("%s seed %d step %d: the game under the Chooser is another game:\n%s\n%s\n%q\n%q", name, seed, step, a, b, want, got)
				}
			}
			if !chosen.Done() {
				t.Fatalf("%s seed %d: the game under the Chooser goes on", name, seed)
			}
		}
	}
}

// A Game's step allocates nothing, with no Chooser and through one that
// hands the answers back (the questions and the actions and reactions are
// the game's), in every shape that asks every kind of question.
// AllocsPerRun rounds down: each run takes 100 steps, so that one
// allocation in a hundred steps shows.
func TestChooserStepsAllocateNothing(t *testing.T) {
	if raceOn {
		t.Skip("the race detector allocates")
	}
	for name, s := range askingScenarios() {
		asked := map[string]int{}
		identity := func(view, ans any) any {
			asked[kindOf(view.(*Question), ans)]++
			return ans
		}
		for _, c := range []sim.Chooser{nil, identity} {
			g := startGame(t, s)
			g.Intercept(c)
			r := dice.NewSeeded(39)
			if a := testing.AllocsPerRun(20, func() {
				for range 100 {
					if g.Done() {
						g.in.s.resetTo(&g.in.initial)
					}
					if err := g.Step(r); err != nil {
						t.Fatal(err)
					}
				}
			}); a != 0 {
				t.Errorf("%s: 100 steps (Chooser %v) allocate %v times", name, c != nil, a)
			}
		}
		if asked[askAct] == 0 || asked[askReact] == 0 || asked[askConcede] == 0 {
			t.Errorf("%s: the Chooser was handed %v", name, asked)
		}
	}
}
