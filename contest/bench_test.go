package contest

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim"
)

// basic3v3 is a basic action: the villain's three dice set the stakes, the
// detective's three dice try to beat them; nobody spends or buys.
func basic3v3() Scenario {
	sc := DefaultScenario()
	sc.Kind = KindBasic
	sc.Sides[0].Gang, sc.Sides[0].Extra, sc.Sides[1].Extra = nil, nil, nil
	sc.GMPolicy = "frugal"
	sc.Cast[1].Policy = "frugal"
	return sc
}

func benchTrial(b *testing.B, sc Scenario) {
	rn, err := sc.NewRunner()
	if err != nil {
		b.Fatal(err)
	}
	r := dice.NewSeeded(1)
	m := make([]int, 8)
	b.ReportAllocs()
	for b.Loop() {
		rn.Trial(r, m)
	}
}

// begunBasic3v3 is basic3v3's action begun on its scene: the engine, the
// scene and the two sides' picks.
func begunBasic3v3(tb testing.TB) (*Engine, *State, []Pick, []Pick) {
	tb.Helper()
	sc := basic3v3()
	bt, err := sc.build()
	if err != nil {
		tb.Fatal(err)
	}
	e := &Engine{}
	s := bt.scene.Clone()
	if err := e.Begin(s, Basic, bt.sides, 0); err != nil {
		tb.Fatal(err)
	}
	return e, s, bt.sides[0].Base, bt.sides[1].Base
}

// rewindBasic puts a basic action back where Begin left it, keeping its
// buffers, so a benchmark can replay the action without timing its setup
// (TestRewindBasic checks it against a fresh Begin).
func rewindBasic(a *Action) {
	a.Phase, a.Turn, a.Holder, a.Stakes, a.Rolls = PhaseOpen, 0, -1, 0, 0
	a.Margin, a.PushFloor, a.Ones, a.OnesSide, a.Escalated = 0, 0, 0, 0, false
	a.Harms, a.Winner, a.End = a.Harms[:0], -1, endNone
	for i := range a.Sides {
		sd := &a.Sides[i]
		sd.Picks, sd.Dice, sd.Faces = sd.Picks[:0], sd.Dice[:0], sd.Faces[:0]
		sd.Total, sd.Rolled, sd.Out = 0, false, false
	}
}

// A basic action, 3 dice against 3: the opposition's roll sets the stakes
// and the actor's roll resolves them (win or loss, its Complication queued),
// through the engine's Roll step on a begun action.
func BenchmarkBasic3v3(b *testing.B) {
	e, s, opp, act := begunBasic3v3(b)
	r := dice.NewSeeded(1)
	b.ReportAllocs()
	for b.Loop() {
		rewindBasic(s.Action)
		if err := e.Roll(s, r, opp); err != nil {
			b.Fatal(err)
		}
		if err := e.Roll(s, r, act); err != nil {
			b.Fatal(err)
		}
	}
}

// The whole basic-action trial of a scenario: the scene reset, the action
// laid out, both rolls with the policies asked, the Complication rated.
func BenchmarkBasic3v3Trial(b *testing.B) { benchTrial(b, basic3v3()) }

// twoHighest is the naive reading: sort-free top two, 1s out.
func twoHighest(faces []int) int {
	a, c := 0, 0
	for _, f := range faces {
		if f == 1 {
			continue
		}
		if f > a {
			a, c = f, a
		} else if f > c {
			c = f
		}
	}
	return a + c
}

// The same basic action written straight on math/rand/v2.
func BenchmarkBasic3v3Naive(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	opp, act := []int{10, 8, 6}, []int{8, 6, 10}
	var f [3]int
	wins := 0
	b.ReportAllocs()
	for b.Loop() {
		for i, d := range opp {
			f[i] = rng.IntN(d) + 1
		}
		s := twoHighest(f[:])
		for i, d := range act {
			f[i] = rng.IntN(d) + 1
		}
		if twoHighest(f[:]) > s {
			wins++
		}
	}
	_ = wins
}

// The default scenario's contest (a villain with two thugs against the
// detective, policies, Plot Points, 1s bought, Final Push, Complications)
// played to its end.
func BenchmarkContested(b *testing.B) { benchTrial(b, DefaultScenario()) }

// contested3v3 is the default contest stripped to what the naive loop
// does: three dice a side, no gang, nobody spends Plot Points, buys 1s or
// pushes. The engine still rates the loser's Complication and Gives In for
// a side that cannot win.
func contested3v3() Scenario {
	sc := DefaultScenario()
	sc.Sides[0].Gang, sc.Sides[0].Extra, sc.Sides[1].Extra = nil, nil, nil
	sc.GMPolicy, sc.Cast[0].Policy, sc.Cast[1].Policy = "frugal", "frugal", "frugal"
	return sc
}

// A contest of three dice a side to its end (a trial: the scene reset, the
// action laid out, played out by the policies), the same work as
// BenchmarkContestedNaive plus the engine's bookkeeping.
func BenchmarkContested3v3(b *testing.B) { benchTrial(b, contested3v3()) }

// A contest to its end written straight on math/rand/v2: raise until one
// side fails, no choices, no gang, no bookkeeping.
func BenchmarkContestedNaive(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	pools := [2][]int{{10, 8, 6}, {8, 6, 10}}
	var f [3]int
	roll := func(p []int) int {
		for i, d := range p {
			f[i] = rng.IntN(d) + 1
		}
		return twoHighest(f[:len(p)])
	}
	b.ReportAllocs()
	for b.Loop() {
		stakes, t := roll(pools[0]), 1
		for {
			v := roll(pools[t])
			if v <= stakes {
				break
			}
			stakes, t = v, 1-t
		}
	}
}

// A timed action of four steps with a helper.
func BenchmarkTimed(b *testing.B) { benchTrial(b, timedScenario()) }

// Exact answers: a pool's total distribution and the contest's chain.
func BenchmarkTotalDist5(b *testing.B) {
	ds := []dice.Die{dice.D12, dice.D10, dice.D8, dice.D6, dice.D4}
	r := DefaultRules()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := TotalDist(ds, r); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkExactContested(b *testing.B) {
	sc := DefaultScenario()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := sc.Exact(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
}

// TestRewindBasic checks that rewindBasic, which BenchmarkBasic3v3 uses to
// replay the action, leaves exactly what a fresh Begin does, whatever the
// rolls did in between.
func TestRewindBasic(t *testing.T) {
	e, s, opp, act := begunBasic3v3(t)
	fresh := s.Action.clone()
	r := dice.NewSeeded(7)
	for i := range 50 {
		must(t, e.Roll(s, r, opp))
		must(t, e.Roll(s, r, act))
		if s.Action.Phase == PhaseOpen {
			t.Fatalf("round %d: the action did not move", i)
		}
		rewindBasic(s.Action)
		if d := diff(fresh, s.Action, cmpopts.EquateEmpty()); d != "" {
			t.Fatalf("round %d: rewound action differs from a fresh one (-fresh +rewound):\n%s", i, d)
		}
	}
}

// The same basic action as BenchmarkBasic3v3 (the same two pools, read
// off its scene) through BasicRoll: both rolls, their reading and the
// outcome, with no scene to keep.
func BenchmarkBasicRoll3v3(b *testing.B) {
	_, s, opp, act := begunBasic3v3(b)
	od, ad := poolDice(s, opp), poolDice(s, act)
	e := ptr(DefaultRules())
	r := dice.NewSeeded(1)
	var res BasicResult
	wins := 0
	b.ReportAllocs()
	for b.Loop() {
		if err := e.BasicRoll(r, ad, od, &res); err != nil {
			b.Fatal(err)
		}
		if res.Won {
			wins++
		}
	}
	_ = wins
}

// poolDice is the ratings picks name in s.
func poolDice(s *State, picks []Pick) []dice.Die {
	return s.poolDice(picks, nil)
}

// stepper plays games of sc one Game.Step at a time, through the sim.Game
// contract; restart starts the game over where a trial starts, reusing its
// buffers as a trial does.
type stepper struct {
	bt *built
	g  *Game
	sg sim.Game // g
}

func newStepper(tb testing.TB, sc Scenario) *stepper {
	tb.Helper()
	bt, err := sc.build()
	if err != nil {
		tb.Fatal(err)
	}
	g, err := sc.Start(dice.NewSeeded(0))
	if err != nil {
		tb.Fatal(err)
	}
	return &stepper{bt: bt, g: g.(*Game), sg: g}
}

func (st *stepper) restart() {
	s, b := st.g.s, st.bt
	if s.Timed == nil {
		s.reset(b.start)
		return
	}
	s.reset(&b.scene)
	s.Timed.Phase = TimedDone
	st.g.e.setupTimed(s, b.actor, b.picks, b.beats, b.steps, b.helper)
}

// step takes the game's next step, starting it over first when it has
// ended; it reports whether a new game began.
func (st *stepper) step(tb testing.TB, r *dice.Roller) bool {
	fresh := st.sg.Done()
	if fresh {
		st.restart()
	}
	if err := st.sg.Step(r); err != nil {
		tb.Fatal(err)
	}
	return fresh
}

// benchStep times one hand-played step of sc (Game.Step through the
// sim.Game contract, no listener), under the scenario's policies or, with
// chooser, through a Chooser that hands every answer back, and reports the
// steps a game takes: a hand-played step should cost at most twice a
// trial's share of a step (the trial's ns/op over steps/trial).
func benchStep(b *testing.B, sc Scenario, chooser bool) {
	st := newStepper(b, sc)
	if chooser {
		st.g.Intercept(func(_, answer any) any { return answer })
	}
	r := dice.NewSeeded(1)
	games, steps := 1, 0
	b.ReportAllocs()
	for b.Loop() {
		if st.step(b, r) {
			games++
		}
		steps++
	}
	b.ReportMetric(float64(steps)/float64(games), "steps/trial")
}

// One step of the default scenario's game, as BenchmarkContested plays
// its trials; BenchmarkStepChooser the same through a Chooser, as a bot
// vetting answers or a person asked plays it.
func BenchmarkStepGame(b *testing.B)    { benchStep(b, DefaultScenario(), false) }
func BenchmarkStepChooser(b *testing.B) { benchStep(b, DefaultScenario(), true) }

func BenchmarkStepBasic3v3(b *testing.B)     { benchStep(b, basic3v3(), false) }
func BenchmarkStepTimed(b *testing.B)        { benchStep(b, timedScenario(), false) }
func BenchmarkStepContested3v3(b *testing.B) { benchStep(b, contested3v3(), false) }
