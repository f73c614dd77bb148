package challenge

import (
	"math/rand/v2"
	"testing"

	"github.com/stakesrpg/stakes/dice"
)

// BenchmarkExchange times one exchange through the engine: the answerer
// (Irin, d12 d6) re-rolls and the answer is read against Althesa's
// standing roll (d10 d8).
func BenchmarkExchange(b *testing.B) {
	s := DefaultScenario()
	c, _, err := s.build()
	if err != nil {
		b.Fatal(err)
	}
	r := dice.NewSeeded(1)
	c.Sides[0].Faces = append(c.Sides[0].Faces[:0], 8, 3)
	c.Sides[1].Faces = append(c.Sides[1].Faces[:0], 4, 2)
	c.Met = ^uint64(0) // the owe list is settled
	b.ReportAllocs()
	for b.Loop() {
		// Restore the exchange's starting point. (Turned needs no reset:
		// a tie's new round clears it, and nothing else sets it.)
		c.Phase, c.Challenger, c.Answerer, c.Exchanges = PhaseAnswer, 0, 1, 0
		if err := (Engine{}).Roll(c, r); err != nil {
			b.Fatal(err)
		}
		if err := (Engine{}).Resolve(c); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkExchangeNaive is the same exchange written plainly on
// math/rand/v2.
func BenchmarkExchangeNaive(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	var n [4]int
	b.ReportAllocs()
	for b.Loop() {
		x, y := rng.IntN(12)+1, rng.IntN(6)+1
		hi, lo := max(x, y), min(x, y)
		switch {
		case hi > 8 || hi == 8 && lo > 3:
			n[0]++
		case hi == 8 && lo == 3:
			n[1]++
		case 2*hi <= 8:
			n[2]++
		default:
			n[3]++
		}
	}
	_ = n
}

// BenchmarkConflict times a whole two-sided conflict (the default
// scenario) through the Runner.
func BenchmarkConflict(b *testing.B) { benchTrial(b, DefaultScenario()) }

// benchTrial times whole conflicts of s through its Runner.
func benchTrial(b *testing.B, s Scenario) {
	rn, err := s.NewRunner()
	if err != nil {
		b.Fatal(err)
	}
	r := dice.NewSeeded(1)
	m := make([]int, len(s.Metrics()))
	b.ReportAllocs()
	for b.Loop() {
		rn.Trial(r, m)
	}
}

// naiveDuel plays Althesa (d10 d8) against Irin (d12 d6), both hanging
// in, written plainly on math/rand/v2: no events, no policies, no state
// to save.
func naiveDuel(rng *rand.Rand) int {
	sides := [2][2]int{{10, 8}, {12, 6}}
	roll := func(s int, adv bool) (hi, lo int) {
		x, y := rng.IntN(sides[s][0])+1, rng.IntN(sides[s][1])+1
		hi, lo = max(x, y), min(x, y)
		if adv {
			hi += rng.IntN(6) + 1
		}
		return hi, lo
	}
	cmp := func(h1, l1, h2, l2 int) int {
		switch {
		case h1 != h2:
			if h1 > h2 {
				return 1
			}
			return -1
		case l1 != l2:
			if l1 > l2 {
				return 1
			}
			return -1
		}
		return 0
	}
	advantage := -1
	for {
		var h, l [2]int
		for {
			h[0], l[0] = roll(0, advantage == 0)
			h[1], l[1] = roll(1, advantage == 1)
			if cmp(h[0], l[0], h[1], l[1]) != 0 {
				break
			}
		}
		ch := 0
		if cmp(h[0], l[0], h[1], l[1]) < 0 {
			ch = 1
		}
		next := -1
		for {
			an := 1 - ch
			h[an], l[an] = roll(an, advantage == an)
			c := cmp(h[an], l[an], h[ch], l[ch])
			if c > 0 {
				ch = an
				continue
			}
			if c < 0 && 2*h[an] <= h[ch] {
				return ch
			}
			if c < 0 {
				next = ch
			}
			break
		}
		advantage = next
	}
}

// BenchmarkConflictNaive is the same conflict written plainly.
func BenchmarkConflictNaive(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	w := 0
	b.ReportAllocs()
	for b.Loop() {
		w += naiveDuel(rng)
	}
	_ = w
}

// BenchmarkThreeWay times a whole three-sided conflict with helpers,
// interference and the owe list.
func BenchmarkThreeWay(b *testing.B) { benchTrial(b, threeWay()) }

// BenchmarkDuelExact times the exact solution of the default duel.
func BenchmarkDuelExact(b *testing.B) {
	r := DefaultRules()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Duel(r, []dice.Die{dice.D10, dice.D8}, []dice.Die{dice.D12, dice.D6}, true, true); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStepGame times one step of a game played by hand through the
// game contract (Game.Step under the scenario's policies), the default
// scenario's games played over and over. steps/trial is how many steps a
// conflict takes, so that ns/op times steps/trial compares with
// BenchmarkConflict, a trial: a hand-played step should cost at most
// twice a trial's share of it, and allocate nothing.
func BenchmarkStepGame(b *testing.B) { benchStep(b, DefaultScenario(), false) }

// BenchmarkStepChooser is BenchmarkStepGame with every answer handed to a
// Chooser that gives it back (as the workbench page and a bot that vets
// its answers play).
func BenchmarkStepChooser(b *testing.B) { benchStep(b, DefaultScenario(), true) }

// BenchmarkStepOwe is BenchmarkStepGame with both names on the owe list,
// so that the sides are asked whether to cross one off.
func BenchmarkStepOwe(b *testing.B) { benchStep(b, OweScenario(), false) }

// BenchmarkStepOweChooser is BenchmarkStepOwe through a Chooser.
func BenchmarkStepOweChooser(b *testing.B) { benchStep(b, OweScenario(), true) }

func benchStep(b *testing.B, s Scenario, chooser bool) {
	g, rn := benchGame(b, s)
	if chooser {
		g.Intercept(func(_, a any) any { return a })
	}
	r := dice.NewSeeded(1)
	steps, trials := 0, 0
	b.ReportAllocs()
	for b.Loop() {
		if g.Done() {
			rn.reset()
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

// benchGame starts a game of s that plays on a Runner's conflict, which
// the Runner's reset puts back to the start in place, as a trial does, so
// that a new game costs no allocation and no stopped timer.
func benchGame(tb testing.TB, s Scenario) (*Game, *Runner) {
	sg, err := s.Start(dice.NewSeeded(0))
	if err != nil {
		tb.Fatal(err)
	}
	rn, err := s.NewRunner()
	if err != nil {
		tb.Fatal(err)
	}
	g := sg.(*Game)
	rn.reset()
	g.s = &rn.c
	return g, rn
}
