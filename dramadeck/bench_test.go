package dramadeck

import (
	"math/rand/v2"
	"testing"

	"github.com/stakesrpg/stakes/dice"
)

// BenchmarkCombatRound: one call of PlayRound, the engine's combat-round
// step, on the default encounter: three heroes against four villains (seven
// characters), both sides on the default policy. A round is the action
// stack flip and its line's effects, every player's declaration (or
// Critical Moment) and card plays, each character's action in the line's
// order (twice for a Flurry side) with its policy choice, rolls and card
// moves, and the end-of-round Break check. HP are made huge so rounds keep
// coming. After 20 rounds (or an early end by Break, Fatigue or Escape) the
// state is restored from one of 16 freshly dealt encounters prepared before
// the timer starts (a copy of the piles and characters, about 1/20 of the
// figure at most), so the figure is rounds at the hand and pool sizes of
// the first 20 rounds of a fight.
func BenchmarkCombatRound(b *testing.B) { benchRound(b, DefaultScenario()) }

// BenchmarkCombatRoundDuel: the same step with one hero against one villain
// (two characters): the fixed cost of the action stack, the declaration and
// two actions per round.
func BenchmarkCombatRoundDuel(b *testing.B) {
	s := DefaultScenario()
	s.Heroes, s.Villains = s.Heroes[:1], s.Villains[:1]
	benchRound(b, s)
}

func benchRound(b *testing.B, s Scenario) {
	s = unkillable(s)
	rn, err := s.NewRunner()
	if err != nil {
		b.Fatal(err)
	}
	g := rn.g
	r := dice.NewSeeded(1)
	pol := rn.pol.Heroes
	var starts [16]State
	for i := range starts {
		rn.reset()
		g.Shuffle(r)
		for p := range g.State.Players {
			_ = g.EnterPlay(r, p)
		}
		if err := g.StartCombat(false); err != nil {
			b.Fatal(err)
		}
		starts[i].copyFrom(g.State)
	}
	next := 0
	b.ReportAllocs()
	for b.Loop() {
		if g.State.Outcome != Ongoing || g.State.Round >= 20 {
			g.State.copyFrom(&starts[next%len(starts)])
			next++
		}
		if err := g.Round(r, pol, pol); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCombatRoundNaive: the same work as BenchmarkCombatRound written
// plainly with math/rand/v2 for its seven characters: flip a card, then each
// character rolls 3d6 to hit, the target 3d6 to defend, and a hit 2d6 damage.
func BenchmarkCombatRoundNaive(b *testing.B) { naiveRound(b, 7) }

// BenchmarkCombatRoundDuelNaive: the naive round for two characters, beside
// BenchmarkCombatRoundDuel.
func BenchmarkCombatRoundDuelNaive(b *testing.B) { naiveRound(b, 2) }

func naiveRound(b *testing.B, n int) {
	rng := rand.New(rand.NewPCG(1, 2))
	deck := make([]int, 156)
	for i := range deck {
		deck[i] = i
	}
	hp := make([]int, n)
	top := 0
	b.ReportAllocs()
	for b.Loop() {
		top = deck[rng.IntN(len(deck))]
		for c := range hp {
			roll := rng.IntN(6) + rng.IntN(6) + rng.IntN(6) + 3
			if roll <= 13+top%2 {
				def := rng.IntN(6) + rng.IntN(6) + rng.IntN(6) + 3
				if def > 10 {
					hp[(c+1)%n] -= rng.IntN(6) + rng.IntN(6) + 2
				}
			}
		}
	}
}

// BenchmarkTaskTenRounds: a ten-round Dramatic Skill Resolution at a skill
// so low it nearly always runs its ten rounds and the last-ditch effort,
// each round flipping a card from the deck.
func BenchmarkTaskTenRounds(b *testing.B) {
	d, _ := DefaultDeck()
	g, err := newGame(DefaultRules(), d, DefaultScenario().Heroes[:1], nil)
	if err != nil {
		b.Fatal(err)
	}
	g.State.Heroes[0].Possibilities = 0
	r := dice.NewSeeded(1)
	g.Shuffle(r)
	pol, _ := PolicyByName("passive")
	task := Task{Skill: 3, Alternate: 3, Rounds: 10}
	b.ReportAllocs()
	for b.Loop() {
		pl := &g.State.Players[0]
		g.State.Discard = append(g.State.Discard, pl.Hand...)
		pl.Hand = pl.Hand[:0]
		g.State.Tasks = append(g.State.Tasks[:0], TaskState{Task: task})
		for ts := &g.State.Tasks[0]; !ts.Finished && !ts.Failed; {
			if err := g.TaskRound(r, 0, pol); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkTaskTenRoundsNaive: ten rounds of "pick a random bar, roll 3d6"
// with math/rand/v2.
func BenchmarkTaskTenRoundsNaive(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	var bars [156]Bar
	d, _ := DefaultDeck()
	for i, c := range d.Cards {
		bars[i] = c.Bar
	}
	done := 0
	b.ReportAllocs()
	for b.Loop() {
		done = 0
		for range 10 {
			bar := bars[rng.IntN(len(bars))]
			roll := rng.IntN(6) + rng.IntN(6) + rng.IntN(6) + 3
			if first, n := bar.Steps(); n > 0 && done >= first && done < first+n && roll <= 3 {
				done++
			}
		}
	}
	_ = done
}

// BenchmarkTrial: a whole default encounter from a fresh shuffle.
func BenchmarkTrial(b *testing.B) {
	s := DefaultScenario()
	rn, _ := s.NewRunner()
	r := dice.NewSeeded(1)
	m := make([]int, len(s.Metrics()))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := rn.Trial(r, m); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStepGame: one Game.Step of the built-in encounter, hand-played
// through the game contract (no Chooser, no listener); a game that ends is
// put back in place to the deal it started from, untimed work of no
// allocation. Beside BenchmarkTrial and the steps a trial takes (reported
// as steps/trial), it gives a step's share of a trial: a hand-played step
// should cost at most twice that share and allocate nothing.
func BenchmarkStepGame(b *testing.B) { benchStep(b, nil) }

// BenchmarkStepChooser: BenchmarkStepGame with every answer handed to a
// Chooser that gives it back (Game.Intercept), as a bot that vets the
// policies' answers or puts them to a person plays.
func BenchmarkStepChooser(b *testing.B) {
	benchStep(b, func(g *Game) { g.Intercept(func(_, a any) any { return a }) })
}

// BenchmarkStepReply: a hand-played step of the built-in encounter with
// every question of both sides asked as a step of its own (Game.Ask):
// the step that comes to a question stops at it, and the next is its
// answer (Game.Reply), here the option the question lists in the middle
// (a yes, an attack, no cards for the questions that combine them). It
// reports the questions answered a game as replies/trial.
func BenchmarkStepReply(b *testing.B) {
	benchStep(b, func(g *Game) {
		g.Ask(Heroes, AskAll)
		g.Ask(Villains, AskAll)
	})
}

// benchStep times one hand-played step of games of the built-in encounter
// set up by set (nil: as started), replying to every question asked as a
// step (replyOf).
func benchStep(b *testing.B, set func(g *Game)) {
	r := dice.NewSeeded(1)
	gm, err := DefaultScenario().Start(r)
	if err != nil {
		b.Fatal(err)
	}
	g := gm.(*Game)
	if set != nil {
		set(g)
	}
	var start State
	start.copyFrom(g.State())
	steps, replies, games := 0, 0, 0
	played, answered := 0, 0 // by the games played to their end
	b.ReportAllocs()
	for b.Loop() {
		if g.Done() {
			g.State().copyFrom(&start)
			games++
			played, answered = steps, replies
		}
		if q := g.Question(); q != nil {
			err = g.Reply(r, replyOf(q))
			replies++
		} else {
			err = g.Step(r)
		}
		if err != nil {
			b.Fatal(err)
		}
		steps++
	}
	if games > 0 {
		b.ReportMetric(float64(played)/float64(games), "steps/trial")
	}
	if games > 0 && answered > 0 {
		b.ReportMetric(float64(answered)/float64(games), "replies/trial")
	}
}

// replyOf is a legal answer to q: none for the questions whose answer
// combines options, else the option listed in the middle.
func replyOf(q *Question) Reply {
	if q.Many || len(q.Options) == 0 {
		return Reply{Ask: q.Ask}
	}
	return q.Options[len(q.Options)/2]
}

// BenchmarkGameQuestionsAsSteps: a whole game of the built-in encounter
// through the game contract with every question of both sides asked as a
// step of its own and then left to its policy (Step), against
// BenchmarkGameQuestionsInline, the same game with the policies answering
// inside the steps: the price of stopping at each question and taking
// the step again. It reports the questions asked a game.
func BenchmarkGameQuestionsAsSteps(b *testing.B) { benchGame(b, AskAll) }

// BenchmarkGameQuestionsInline: see BenchmarkGameQuestionsAsSteps.
func BenchmarkGameQuestionsInline(b *testing.B) { benchGame(b, 0) }

func benchGame(b *testing.B, asks AskSet) {
	sc := DefaultScenario()
	r := dice.NewSeeded(1)
	questions, games := 0, 0
	for b.Loop() {
		gm, err := sc.Start(r)
		if err != nil {
			b.Fatal(err)
		}
		g := gm.(*Game)
		g.Ask(Heroes, asks)
		g.Ask(Villains, asks)
		for !g.Done() {
			if g.Question() != nil {
				questions++
			}
			if err := g.Step(r); err != nil {
				b.Fatal(err)
			}
		}
		games++
	}
	b.ReportMetric(float64(questions)/float64(games), "questions/game")
}
