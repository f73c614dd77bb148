package dramadeck

import (
	"slices"
	"testing"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim"
	"github.com/stakesrpg/stakes/sim/simtest"
)

// FuzzRestore reads any bytes as a saved game of the built-in scenario
// (the kit's target: never a panic; what restores saves and plays on),
// games waiting on a question asked as a step among its seeds.
func FuzzRestore(f *testing.F) {
	sc := DefaultScenario()
	atQuestions(f, sc, 3, 60, 6, func(gm *Game) { addSave(f, gm) })
	simtest.FuzzRestore(f, sim.Adapt[*Runner]("dramadeck", &sc))
}

// atQuestions plays a game of sc from seed with every question asked as
// a step, for steps steps at most, calling at with the game at every
// step-th step (counting from 0) that waits on a question.
func atQuestions(f *testing.F, sc Scenario, seed uint64, steps, every int, at func(gm *Game)) {
	r := dice.NewSeeded(seed)
	g, err := sc.Start(r)
	if err != nil {
		f.Fatal(err)
	}
	gm := g.(*Game)
	gm.Ask(Heroes, AskAll)
	gm.Ask(Villains, AskAll)
	for i := 0; i < steps && !gm.Done(); i++ {
		if gm.Question() != nil && i%every == 0 {
			at(gm)
		}
		if err := gm.Step(r); err != nil {
			f.Fatal(err)
		}
	}
}

// addSave adds gm's save to f's seeds.
func addSave(f *testing.F, gm *Game) {
	b, err := gm.Save()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
}

// FuzzReply reads any bytes as a saved game of the built-in scenario and,
// if one restores with a question pending, replies to it with each answer
// it lists: each reply is taken, or refused leaving no trace. A saved
// question's answers given before it are the save's to say, so a reply
// whose step, taken again, does not come to its question from the state
// as saved is refused before the step acts (game.mustStop). Among the
// seeds, each question is also saved with its reply given before it,
// which takes its step past the question with an answer left over.
func FuzzReply(f *testing.F) {
	sc := DefaultScenario()
	for _, name := range []string{"encounter", "task", "scene"} {
		atQuestions(f, Builtins()[name], 5, 80, 5, func(gm *Game) {
			// The question as asked, and with its reply given before it.
			q := gm.Question()
			ahead := *q
			ahead.Given = append(slices.Clip(q.Given), replyOf(q))
			for _, asked := range []*Question{q, &ahead} {
				gm.State().Question = asked
				addSave(f, gm)
			}
			gm.State().Question = q
		})
	}
	m := sim.Adapt[*Runner]("dramadeck", &sc)
	f.Fuzz(func(t *testing.T, b []byte) {
		g, err := m.Restore(b)
		if err != nil {
			return
		}
		gm := g.(*Game)
		q := gm.Question()
		if q == nil {
			return
		}
		opts := q.Options
		if len(opts) == 0 || q.Many {
			opts = []Reply{{Ask: q.Ask}}
		}
		for _, a := range slices.Clone(opts) {
			again, err := m.Restore(b)
			if err != nil {
				t.Fatal(err)
			}
			r := dice.NewSeeded(2)
			var replyErr error
			check := simtest.Refused(again, r, func() error {
				replyErr = again.(*Game).Reply(r, a)
				return replyErr
			})
			if replyErr != nil && check != nil {
				t.Fatalf("reply %+v: %v", a, check)
			}
		}
	})
}
