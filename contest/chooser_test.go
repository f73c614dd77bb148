package contest

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim/simtest"
)

// asking is a Policy that answers as p does and logs, in *log, each
// question it is asked before it answers: a Chooser standing behind it
// (chosen asks the policy first) reads there which question its answer
// is to.
type asking struct {
	p   Policy
	log *[]string
}

func (a asking) ask(q string) Policy { *a.log = append(*a.log, q); return a.p }

func (a asking) Name() string           { return a.p.Name() }
func (a asking) GiveIn(v *View) bool    { return a.ask("GiveIn").GiveIn(v) }
func (a asking) Pay(v *View) Payment    { return a.ask("Pay").Pay(v) }
func (a asking) Extras(v *View) int     { return a.ask("Extras").Extras(v) }
func (a asking) Push(v *View) bool      { return a.ask("Push").Push(v) }
func (a asking) BuyOnes(v *View) int    { return a.ask("BuyOnes").BuyOnes(v) }
func (a asking) Waive(v *View) bool     { return a.ask("Waive").Waive(v) }
func (a asking) Continue(v *View) bool  { return a.ask("Continue").Continue(v) }
func (a asking) Interfere(v *View) bool { return a.ask("Interfere").Interfere(v) }
func (a asking) BuyTime(v *View) bool   { return a.ask("BuyTime").BuyTime(v) }
func (a asking) Objective(v *View) bool { return a.ask("Objective").Objective(v) }
func (a asking) Cash(v *View) int       { return a.ask("Cash").Cash(v) }
func (a asking) Onto(v *View, c *Character) int {
	return a.ask("Onto").Onto(v, c)
}
func (a asking) UseEffect(v *View, t *Trait) bool {
	return a.ask("UseEffect").UseEffect(v, t)
}
func (a asking) PushStep(v *View, opts []PushOption) int {
	return a.ask("PushStep").PushStep(v, opts)
}
func (a asking) TroubleOff(v *View, trouble []dice.Die) int {
	return a.ask("TroubleOff").TroubleOff(v, trouble)
}
func (a asking) Rebuy(v *View, c *Character) (int, int) {
	return a.ask("Rebuy").Rebuy(v, c)
}

// logging is tb with each policy logging its questions in *log.
func logging(tb Table, n int, log *[]string) Table {
	out := Table{Chars: make([]Policy, n), GM: asking{tb.gm(), log}}
	for i := range out.Chars {
		out.Chars[i] = asking{tb.of(i), log}
	}
	return out
}

// asked makes g's policies log each question they are asked in *log
// (before g's first Intercept).
func asked(g *Game, log *[]string) {
	g.table = logging(g.table, len(g.s.Characters), log)
	g.e.Policies = g.table
}

// lastOf is the question last logged.
func lastOf(log []string) string {
	if len(log) == 0 {
		return ""
	}
	return log[len(log)-1]
}

// badAnswer is one way of answering a question of a step (a Policy
// method, by name) that the step must refuse: give turns the policy's
// answer ans, asked from v in game g, into the bad one, or says it does
// not apply there.
type badAnswer struct {
	question, name string
	give           func(g *Game, v *View, ans any) (any, bool)
}

// otherType is an answer of another type than ans, the question's:
// a Payment's number, say, is not a Payment.
func otherType(_ *Game, _ *View, ans any) (any, bool) {
	switch a := ans.(type) {
	case bool:
		return 1, true
	case int:
		return int64(a), true
	case Payment:
		return int(a), true
	case RebuyChoice:
		return &a, true
	}
	return "bogus", true
}

// always is a bad answer that applies wherever its question is asked.
func always(a any) func(*Game, *View, any) (any, bool) {
	return func(*Game, *View, any) (any, bool) { return a, true }
}

// questions are the Policy methods a step asks through a Chooser.
var questions = []string{"GiveIn", "Pay", "Extras", "Push", "BuyOnes", "Onto", "UseEffect", "Waive",
	"Continue", "Interfere", "BuyTime", "Objective", "Cash", "PushStep", "TroubleOff", "Rebuy"}

// badAnswers are, beside an answer of another type to each question,
// the illegal answers of each type a question can be given.
var badAnswers = append(func() []badAnswer {
	var out []badAnswer
	for _, q := range questions {
		out = append(out, badAnswer{q, "another type", otherType})
	}
	return out
}(), []badAnswer{
	{"Pay", "nothing, having rolled", always(PayNothing)},
	{"Pay", "no such payment", always(Payment(7))},
	{"Pay", "a Plot Point it does not hold", func(_ *Game, v *View, _ any) (any, bool) {
		return PayPlotPoint, v.PlotPoints < v.Price
	}},
	{"Extras", "fewer than none", always(-1)},
	{"Extras", "more than it can afford", func(_ *Game, v *View, _ any) (any, bool) { return v.Affordable + 1, true }},
	{"BuyOnes", "fewer than none", always(-1)},
	{"BuyOnes", "more than were rolled", func(_ *Game, v *View, _ any) (any, bool) { return v.Ones + 1, true }},
	{"BuyOnes", "more than the Trouble Pool has room for", func(_ *Game, v *View, _ any) (any, bool) {
		return v.TroubleRoom + 1, v.TroubleRoom < v.Ones
	}},
	{"Onto", "no such trait", always(-2)},
	{"Onto", "past the target's traits", func(g *Game, v *View, _ any) (any, bool) {
		return len(g.s.Characters[v.Target].Traits), true
	}},
	{"Onto", "a trait of another kind", func(g *Game, v *View, _ any) (any, bool) {
		return 0, g.s.Characters[v.Target].Traits[0].Kind == Value // every sheet starts with its Value
	}},
	{"Cash", "fewer than none", always(-1)},
	{"Cash", "more than it holds", func(_ *Game, v *View, _ any) (any, bool) { return v.Reflection + 1, true }},
	{"Cash", "more than the Trouble Pool has room for", func(_ *Game, v *View, _ any) (any, bool) {
		return v.TroubleRoom + 1, v.TroubleRoom < v.Reflection
	}},
	{"PushStep", "a trait it did not roll", always(-1)},
	{"PushStep", "a trait already gone", func(g *Game, _ *View, _ any) (any, bool) {
		for _, o := range g.s.buf.opts {
			if o.Die == dice.Gone {
				return o.Trait, true
			}
		}
		return nil, false
	}},
	{"TroubleOff", "no die", always(-1)},
	{"TroubleOff", "past the pool's dice", func(g *Game, _ *View, _ any) (any, bool) { return len(g.s.Trouble), true }},
	{"Rebuy", "no such trait", func(_ *Game, v *View, _ any) (any, bool) { return RebuyChoice{Trait: -1, Steps: 1}, true }},
	{"Rebuy", "a trait not lowered", func(g *Game, v *View, _ any) (any, bool) {
		i := slices.IndexFunc(g.s.Characters[v.Char].Traits, func(t Trait) bool { return !t.Lowered() })
		return RebuyChoice{Trait: i, Steps: 1}, i >= 0
	}},
	{"Rebuy", "fewer steps than none", func(g *Game, v *View, _ any) (any, bool) {
		return RebuyChoice{Trait: loweredTrait(g, v), Steps: -1}, true
	}},
	{"Rebuy", "more steps than were lost", func(g *Game, v *View, _ any) (any, bool) {
		i := loweredTrait(g, v)
		t := g.s.Characters[v.Char].Traits[i]
		return RebuyChoice{Trait: i, Steps: stepsLeft(t.Original) - stepsLeft(t.Die) + 1}, true
	}},
	{"Rebuy", "more than its points buy", func(g *Game, v *View, _ any) (any, bool) {
		i := loweredTrait(g, v)
		t := g.s.Characters[v.Char].Traits[i]
		n := v.Reflection/max(v.RebuyCost, 1) + 1
		return RebuyChoice{Trait: i, Steps: n}, v.RebuyCost > 0 && n <= stepsLeft(t.Original)-stepsLeft(t.Die)
	}},
}...)

// loweredTrait is the first lowered trait of the character a Rebuy is
// asked of (there is one whenever it is asked).
func loweredTrait(g *Game, v *View) int {
	return slices.IndexFunc(g.s.Characters[v.Char].Traits, func(t Trait) bool { return t.Lowered() })
}

// questionsOf lists, for each question the next step of the game saved as
// saved (with the Roller saved as rb) asks, which of badAnswers apply
// there: it plays the step on a copy of the game and the Roller.
func questionsOf(t *testing.T, sc Scenario, saved, rb []byte) [][]int {
	t.Helper()
	g := restored(t, sc, saved)
	r := dice.NewSeeded(0)
	must(t, r.UnmarshalBinary(rb))
	var log []string
	asked(g, &log)
	var out [][]int
	g.Intercept(func(view, ans any) any {
		ways := []int{}
		for j, b := range badAnswers {
			if b.question != lastOf(log) {
				continue
			}
			if _, ok := b.give(g, view.(*View), ans); ok {
				ways = append(ways, j)
			}
		}
		out = append(out, ways)
		return ans
	})
	must(t, g.Step(r))
	return out
}

// restored is the game sc.Restore reads back from saved.
func restored(t *testing.T, sc Scenario, saved []byte) *Game {
	t.Helper()
	g, err := sc.Restore(saved)
	if err != nil {
		t.Fatal(err)
	}
	return g.(*Game)
}

// refusalShapes are the scenario shapes, with variants that ask what they
// do not: a Distinction's effect to use (either side's), a Final Push of
// many steps (a bonus of 1), a Trouble Pool with no room.
func refusalShapes() map[string]Scenario {
	out := shapes()
	effects := DefaultScenario()
	effects.Cast[0].Traits = slices.Clone(effects.Cast[0].Traits)
	effects.Cast[1].Traits = slices.Clone(effects.Cast[1].Traits)
	effects.Cast[0].Traits[2].Effect, effects.Cast[1].Traits[2].Effect = AddDie, StepUpLowest
	out["effects"] = effects
	pushes := DefaultScenario()
	pushes.Rules.PushBonus = 1
	pushes.Cast[0].Policy = "stubborn"
	out["long pushes"] = pushes
	full := DefaultScenario()
	full.Rules.MaxTrouble = len(full.Rules.TroubleStart)
	full.GMPolicy = "stubborn"
	out["no room"] = full
	return out
}

// A refused answer leaves no trace: at every question a step asks
// through a Chooser, an answer of another type and each kind of illegal
// answer make the step an error that leaves the game's save, the Roller's
// bytes and a listener as they were (the questions before it in the step
// answered as the policies answer them). Every such answer is given
// somewhere, so that none goes untested.
func TestRefusedAnswersLeaveNoTrace(t *testing.T) {
	games := uint64(60)
	if testing.Short() {
		games = 20
	}
	hits := map[string]int{}
	for name, sc := range refusalShapes() {
		for seed := range games {
			g, r := start(t, sc), dice.NewSeeded(seed)
			for !g.Done() {
				saved, _ := g.Save()
				rb, _ := r.MarshalBinary()
				for at, ways := range questionsOf(t, sc, saved, rb) {
					for _, j := range ways {
						b := badAnswers[j]
						what := fmt.Sprintf("%s seed %d: %s, %s", name, seed, b.question, b.name)
						refuse(t, g, r, what, at, b)
						hits[b.question+", "+b.name]++
					}
				}
				must(t, g.Step(r))
			}
		}
	}
	for _, b := range badAnswers {
		if hits[b.question+", "+b.name] == 0 {
			t.Errorf("%s, %s: never given", b.question, b.name)
		}
	}
}

// refuse takes a step whose at-th answer is bad answer b, checks that it
// is refused leaving no trace (simtest.Refused), and takes the Chooser
// away.
func refuse(t *testing.T, g *Game, r *dice.Roller, what string, at int, b badAnswer) {
	t.Helper()
	n := 0
	g.Intercept(func(view, ans any) any {
		if n++; n-1 == at {
			ans, _ = b.give(g, view.(*View), ans)
		}
		return ans
	})
	err := simtest.Refused(g, r, func() error { return g.Step(r) })
	g.Intercept(nil)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// A Game's steps allocate nothing, under the scenario's policies or
// through a Chooser, in every scenario shape, on games fresh from Start
// and from Restore (the buffers its steps fill are sized once, when the
// game is made): a step of a fresh game used to grow them. AllocsPerRun
// rounds down, so each run takes 100 steps, that one allocation in a
// hundred shows.
func TestGameStepsAllocateNothing(t *testing.T) {
	const runs, steps = 5, 100
	for name, sc := range shapes() {
		for _, chooser := range []bool{false, true} {
			// Every game takes two steps or more.
			pool := freshGames(t, sc, (runs+1)*steps/2, chooser)
			r := dice.NewSeeded(39)
			g := pool[0]
			a := testing.AllocsPerRun(runs, func() {
				for range steps {
					for g.Done() {
						if pool = pool[1:]; len(pool) == 0 {
							t.Fatal("out of fresh games")
						}
						g = pool[0]
					}
					must(t, g.Step(r))
				}
			})
			if a != 0 {
				t.Errorf("%s (Chooser %v): %v allocations in %d steps", name, chooser, a, steps)
			}
		}
	}
}

// freshGames are n games of sc, through an identity Chooser if chooser:
// every other one fresh from Start, the others restored from a game saved
// after none, one or two steps.
func freshGames(t *testing.T, sc Scenario, n int, chooser bool) []*Game {
	t.Helper()
	r := dice.NewSeeded(1)
	var out []*Game
	for i := range n {
		g := start(t, sc)
		if i%2 == 1 {
			for range i / 2 % 3 {
				if !g.Done() {
					must(t, g.Step(r))
				}
			}
			saved, err := g.Save()
			must(t, err)
			g = restored(t, sc, saved)
		}
		if chooser {
			g.Intercept(func(_, a any) any { return a })
		}
		out = append(out, g)
	}
	return out
}
