package edge

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim"
)

// duel2 is two parties of two members in a chase, started, each with
// plenty of dice so rounds never end the interaction.
func duel2(b *testing.B) (*session, *Declaration) {
	s := Scenario{Rules: DefaultRules(), Type: "chase", Parties: []Party{
		{Name: "lead", BonusEdge: 500, Members: []Member{
			{Name: "Becky", Skills: map[string]int{"vehicles": 6, "reflex": 3}},
			{Name: "Bob", Skills: map[string]int{"ranged attack": 5, "reflex": 2}}}},
		{Name: "chase", BonusEdge: 500, Members: []Member{
			{Name: "Joe", Skills: map[string]int{"vehicles": 7, "reflex": 4}},
			{Name: "Vic", Skills: map[string]int{"ranged attack": 3, "defense": 4}}}},
	}}
	in, err := newSession(s)
	if err != nil {
		b.Fatal(err)
	}
	if err := in.Start(dice.Scripted(20, 1)); err != nil {
		b.Fatal(err)
	}
	veh, _ := in.Skill("vehicles")
	ra, _ := in.Skill("ranged attack")
	def, _ := in.Skill("defense")
	return in, &Declaration{
		Action:    Action{Party: 0, Targets: []int{1}, Checks: []Use{{Member: 0, Skill: veh}, {Member: 1, Skill: ra}}},
		Reactions: []Reaction{{Party: 1, Checks: []Use{{Member: 0, Skill: veh}, {Member: 1, Skill: def}}}},
	}
}

// BenchmarkRound resolves one declared round of two 2-member parties:
// validation, modifiers, four d20 checks, the exchange and the initiative.
func BenchmarkRound(b *testing.B) {
	in, d := duel2(b)
	snap := in.State()
	r := dice.NewSeeded(1)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if i&255 == 0 {
			in.s.resetTo(&snap) // keep the initiative where d expects it
		}
		if in.s.Initiative != 0 {
			in.s.Initiative = 0
		}
		if err := in.Round(r, d); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStep is one round of the same parties with the policies choosing
// members, skills, targets and reactions.
func BenchmarkStep(b *testing.B) {
	in, _ := duel2(b)
	for p := range in.Policies {
		in.Policies[p], _ = PolicyByName("steady")
	}
	snap := in.State()
	r := dice.NewSeeded(1)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if i&255 == 0 {
			in.s.resetTo(&snap)
		}
		if err := in.Step(r); err != nil {
			b.Fatal(err)
		}
	}
}

// naiveCheck is the straightforward version's check.
type naiveCheck struct {
	party, total, mod int
}

// naiveRound is a straightforward math/rand/v2 round: build the checks,
// sort them, pass each die to the next higher opposing check.
func naiveRound(rng *rand.Rand, edge map[int]int, mods [][]int) int {
	var cs []naiveCheck
	for p, ms := range mods {
		for _, m := range ms {
			cs = append(cs, naiveCheck{party: p, total: rng.IntN(20) + 1 + m, mod: m})
		}
	}
	sort.Slice(cs, func(i, j int) bool {
		if cs[i].total != cs[j].total {
			return cs[i].total < cs[j].total
		}
		return cs[i].mod < cs[j].mod
	})
	moves := map[int]int{}
	for i, c := range cs {
		for _, d := range cs[i+1:] {
			if d.party != c.party && (d.total > c.total || d.mod > c.mod) {
				moves[c.party]--
				moves[d.party]++
				break
			}
		}
	}
	for p, n := range moves {
		edge[p] += n
	}
	return cs[len(cs)-1].party
}

func BenchmarkRoundNaive(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	edge := map[int]int{0: 505, 1: 505}
	mods := [][]int{{6, 5}, {7, 4}}
	b.ReportAllocs()
	for b.Loop() {
		naiveRound(rng, edge, mods)
	}
}

// five is a chase of five members a side, five edge dice each (the
// default start), under the steady policy: every member is involved and
// wagers a die while the pool lasts.
func five() Scenario {
	s := Scenario{Rules: DefaultRules(), Type: "chase"}
	for p := range 2 {
		pt := Party{Name: fmt.Sprintf("side %d", p), Policy: "steady"}
		for m := range 5 {
			pt.Members = append(pt.Members, Member{Name: fmt.Sprintf("m%d", m),
				Skills: map[string]int{"vehicles": 2 + m, "athletics": 3, "acrobatics": m, "reflex": 2}})
		}
		s.Parties = append(s.Parties, pt)
	}
	return s
}

// lone is the 5-against-5 read as edge dice: five edge dice a side
// (the default start), one member a side, under the steady policy.
func lone() Scenario {
	return Scenario{Rules: DefaultRules(), Type: "chase", Parties: []Party{
		{Name: "a", Members: []Member{{Name: "a", Skills: map[string]int{"vehicles": 5, "athletics": 3, "acrobatics": 4}}}},
		{Name: "b", Members: []Member{{Name: "b", Skills: map[string]int{"vehicles": 4, "athletics": 5, "acrobatics": 2}}}},
	}}
}

// benchTrials plays whole interactions of s with its policies, from the
// starting checks to the end, and reports the mean rounds and the time per
// round.
func benchTrials(b *testing.B, s Scenario) {
	rn, err := s.NewRunner()
	if err != nil {
		b.Fatal(err)
	}
	r := dice.NewSeeded(1)
	metrics := make([]int, 8)
	rounds, steps := 0, 0
	rn.in.Sink = nil
	b.ReportAllocs()
	for b.Loop() {
		if _, err := rn.Trial(r, metrics); err != nil {
			b.Fatal(err)
		}
		rounds += metrics[0]
	}
	b.StopTimer()
	// The steps of the first trials again (the same ones, replayed), to
	// give a trial's share of a step.
	r = dice.NewSeeded(1)
	n := min(b.N, 1000)
	for range n {
		in := rn.in
		in.s.resetTo(&in.initial)
		for !in.s.Done() {
			if err := in.step(r); err != nil {
				b.Fatal(err)
			}
			steps++
		}
	}
	perTrial := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
	b.ReportMetric(float64(rounds)/float64(b.N), "rounds/op")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(max(rounds, 1)), "ns/round")
	b.ReportMetric(perTrial*float64(n)/float64(max(steps, 1)), "ns/step")
}

// naiveTrials plays naive interactions of two parties starting with start
// dice each; mods[p] are party p's members' modifiers, best first, of which it wagers
// at most wager[p] (0: all) while its pool lasts; a party holding
// surrender[p] dice or fewer gives up.
func naiveTrials(b *testing.B, start [2]int, mods [2][]int, wager, surrender [2]int) {
	rng := rand.New(rand.NewPCG(1, 2))
	rounds := 0
	b.ReportAllocs()
	for b.Loop() {
		edge := map[int]int{0: start[0], 1: start[1]}
		for edge[0] > surrender[0] && edge[1] > surrender[1] {
			var ms [][]int
			for p := range 2 {
				n := len(mods[p])
				if wager[p] > 0 {
					n = min(n, wager[p])
				}
				ms = append(ms, mods[p][:min(n, edge[p])])
			}
			naiveRound(rng, edge, ms)
			rounds++
		}
	}
	b.ReportMetric(float64(rounds)/float64(b.N), "rounds/op")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(max(rounds, 1)), "ns/round")
}

// BenchmarkInteraction5v5Dice is the issue's "full 5-against-5
// interaction": five edge dice against five, one member a side, with the
// policies (a fair one-die-a-side walk from 5 to 0 or 10 lasts about 25
// rounds).
func BenchmarkInteraction5v5Dice(b *testing.B) { benchTrials(b, lone()) }

func BenchmarkInteraction5v5DiceNaive(b *testing.B) {
	naiveTrials(b, [2]int{5, 5}, [2][]int{{5}, {5}}, [2]int{}, [2]int{})
}

// BenchmarkInteraction5v5Members is five members a side, five edge dice
// each, every member wagering while the pool lasts (the steady policy):
// about ten checks a round, and dice pass both ways in the exchange, so the
// net swing is small and the interaction runs about 60 rounds.
func BenchmarkInteraction5v5Members(b *testing.B) { benchTrials(b, five()) }

func BenchmarkInteraction5v5MembersNaive(b *testing.B) {
	naiveTrials(b, [2]int{5, 5}, [2][]int{{6, 5, 4, 3, 2}, {6, 5, 4, 3, 2}}, [2]int{}, [2]int{})
}

// BenchmarkInteractionDefault plays DefaultScenario: the lead car (two
// members, cautious: one die a round, surrenders on its last die) against
// Joe (reckless, six dice).
func BenchmarkInteractionDefault(b *testing.B) { benchTrials(b, DefaultScenario()) }

func BenchmarkInteractionDefaultNaive(b *testing.B) {
	naiveTrials(b, [2]int{5, 6}, [2][]int{{6}, {7}}, [2]int{1, 0}, [2]int{1, 0})
}

// BenchmarkExact solves the built-in chase exactly under its policies.
func BenchmarkExact(b *testing.B) {
	s := DefaultScenario()
	for b.Loop() {
		if _, err := s.Exact(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStepGame plays the built-in chase by hand, one Game.Step at a
// time (the state checked once, when the game was made), starting over
// when it ends. steps/trial says how many steps an interaction takes, so
// ns/op x steps/trial sets a hand-played step beside a trial's share of
// one (BenchmarkInteractionDefault's ns/op, and its ns/step).
func BenchmarkStepGame(b *testing.B) { benchGameSteps(b, nil) }

// BenchmarkStepChooser is BenchmarkStepGame with every answer of the
// policies handed to a Chooser that gives it back (as the page and a bot
// that vets answers play).
func BenchmarkStepChooser(b *testing.B) {
	benchGameSteps(b, func(_, answer any) any { return answer })
}

// benchGameSteps times single Game.Steps of the built-in chase under
// Chooser c (nil for none), no listener, the game put back to its start
// in place when it ends.
func benchGameSteps(b *testing.B, c sim.Chooser) {
	sg, err := DefaultScenario().Start(dice.NewSeeded(1))
	if err != nil {
		b.Fatal(err)
	}
	g := sg.(*Game)
	g.Intercept(c)
	r := dice.NewSeeded(1)
	steps, trials := 0, 0
	b.ReportAllocs()
	for b.Loop() {
		if g.Done() {
			g.in.s.resetTo(&g.in.initial)
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

// BenchmarkStepTrial is BenchmarkStep's round as a Runner's trial plays it:
// the same step on a State the Runner built itself, unchecked. A step by
// hand (BenchmarkStep) should cost at most twice as much.
func BenchmarkStepTrial(b *testing.B) {
	in, _ := duel2(b)
	for p := range in.Policies {
		in.Policies[p], _ = PolicyByName("steady")
	}
	snap := in.State()
	g := in.lend(in.s)
	r := dice.NewSeeded(1)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if i&255 == 0 {
			in.s.resetTo(&snap)
		}
		if err := g.step(r); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPlay plays whole interactions of the built-in chase by hand
// (Engine.Play on a State from NewState), to set beside a Runner's trials
// (BenchmarkInteractionDefault).
func BenchmarkPlay(b *testing.B) {
	e, err := DefaultScenario().NewEngine()
	if err != nil {
		b.Fatal(err)
	}
	s := e.NewState()
	initial := s.Clone()
	r := dice.NewSeeded(1)
	b.ReportAllocs()
	for b.Loop() {
		s.resetTo(&initial)
		if err := e.Play(s, r); err != nil {
			b.Fatal(err)
		}
	}
}
