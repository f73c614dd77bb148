package actiontest

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/stakesrpg/stakes/dice"
)

var sinkInt int

// benchSetup is the benchmarks' character, roller, test (Prowl 2 +
// Dexterity 2, Risky, normal difficulty, no harm at stake so the state stays
// put) and attempt.
func benchSetup(b *testing.B) (*State, *dice.Roller, Test, *Attempt) {
	c, err := NewState(DefaultRules(), testSheet)
	if err != nil {
		b.Fatal(err)
	}
	t := Test{Action: "Prowl", Position: Risky, Difficulty: 1, NoHarm: true}
	at := &Attempt{Dice: make([]int, 0, maxDice), Rerolled: make([]int, 0, maxDice)}
	return c, dice.NewSeeded(1), t, at
}

// One complete test with no push: begin the test (roll 4 dice) and read
// the outcome table.
func BenchmarkTest(b *testing.B) {
	c, r, t, at := benchSetup(b)
	b.ReportAllocs()
	for b.Loop() {
		_ = eng.Begin(c, r, t)
		_ = eng.Finish(c)
		sinkInt += int(at.Outcome.Kind)
	}
}

// The same test, pushed every time (the push's harm is healed each time so
// the state stays put).
func BenchmarkTestPush(b *testing.B) {
	c, r, t, at := benchSetup(b)
	b.ReportAllocs()
	for b.Loop() {
		_ = eng.Begin(c, r, t)
		_ = eng.Push(c, r, "physical")
		_ = eng.Finish(c)
		_ = eng.Heal(c, "physical", 1)
		sinkInt += int(at.Outcome.Kind)
	}
}

// naiveTest is the same work written plainly on math/rand/v2.
func naiveTest(rng *rand.Rand, n, required int, push bool) Kind {
	table := [3]Kind{SuccessBonus, Success, Badly}
	s := 0
	for range n {
		if rng.IntN(6)+1 == 6 {
			s++
		}
	}
	if push {
		for range n - s + 2 {
			if rng.IntN(6)+1 == 6 {
				s++
			}
		}
	}
	switch {
	case s > required:
		return table[0]
	case s == required:
		return table[1]
	}
	return table[2]
}

func BenchmarkTestNaive(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	b.ReportAllocs()
	for b.Loop() {
		sinkInt += int(naiveTest(rng, 4, 1, false))
	}
}

func BenchmarkTestPushNaive(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	b.ReportAllocs()
	for b.Loop() {
		sinkInt += int(naiveTest(rng, 4, 1, true))
	}
}

// One whole pursuit of the default scenario.
func BenchmarkTrial(b *testing.B) {
	rn, _ := DefaultScenario().NewRunner()
	r := dice.NewSeeded(1)
	m := make([]int, 6)
	b.ReportAllocs()
	for b.Loop() {
		c, _ := rn.Trial(r, m)
		sinkInt += c
	}
}

func BenchmarkScenarioExact(b *testing.B) {
	s := DefaultScenario()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Exact(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
}

// One step of the default pursuit played by hand through the Game, the
// pursuit started again when it ends; steps/trial says how many steps a
// pursuit takes, so ns/op x steps/trial compares with BenchmarkTrial.
func BenchmarkStepGame(b *testing.B) {
	g, err := DefaultScenario().newGame()
	if err != nil {
		b.Fatal(err)
	}
	r := dice.NewSeeded(1)
	steps, trials := 0, 0
	b.ReportAllocs()
	for b.Loop() {
		if g.Done() {
			g.rn.reset()
			trials++
		}
		if err := g.Step(r); err != nil {
			b.Fatal(err)
		}
		steps++
	}
	if trials > 0 {
		b.ReportMetric(float64(steps)/float64(trials), "steps/trial")
	}
}

// One step of an action test played by hand on a bare State under an
// Engine (Begin, then Step until done: push or finish), what a bot or a
// server pays a step; compare with BenchmarkTrial's share of a step
// (ns/op of BenchmarkTrial over BenchmarkStepGame's steps/trial).
func BenchmarkStep(b *testing.B) {
	c, r, t, _ := benchSetup(b)
	e := Engine{Policies: Table{Player: WhenFailed{}}}
	b.ReportAllocs()
	for b.Loop() {
		if c.Done() {
			c.Harm[0].Rows[0] = 0 // the push's harm, healed so the state stays put
			if err := e.Begin(c, r, t); err != nil {
				b.Fatal(err)
			}
			continue
		}
		if err := e.Step(c, r); err != nil {
			b.Fatal(err)
		}
	}
}

// One step of the default pursuit through a Game whose every answer passes
// through a Chooser (as the page and a bot that vets its answers play it).
func BenchmarkStepChooser(b *testing.B) {
	g, err := DefaultScenario().newGame()
	if err != nil {
		b.Fatal(err)
	}
	g.Intercept(func(_ any, answer any) any { return answer })
	r := dice.NewSeeded(1)
	b.ReportAllocs()
	for b.Loop() {
		if g.Done() {
			g.rn.reset()
		}
		if err := g.Step(r); err != nil {
			b.Fatal(err)
		}
	}
}
