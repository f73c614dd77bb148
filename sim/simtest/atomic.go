package simtest

import (
	"bytes"
	"fmt"
	"math/rand/v2"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim"
)

// chaosTally counts, over all the games of the atomic check, the answers
// the kit mutated and the steps that refused them.
type chaosTally struct {
	asked, mutated, refused, steps int
}

// atomic plays each game once more, and before about one step in three
// sets the kit's chaos Chooser for that one step: a step it made fail must
// leave the game's save and the Roller's bytes as they were; one that
// succeeded must leave a game that saves and restores. One shortfall is
// reported per game.
func (k *kit) atomic(s *shortfalls) {
	var tally chaosTally
	for g := range k.opt.Games {
		rng := rand.New(rand.NewPCG(k.opt.Seed, uint64(g)^0x5eed_c4a05))
		if err := guard(func() error { return k.chaosGame(g, rng, &tally) }); err != nil {
			s.add("%v", err)
		}
	}
	if tally.asked == 0 && tally.steps > 0 && !k.opt.NoChoices {
		s.add("no policy answer reached the Chooser in %d steps of %d games: Intercept must hand every answer of the scenario's policies to it (set Options.NoChoices for a mechanic whose games ask nothing)",
			tally.steps, k.opt.Games)
	}
	if tally.mutated > 0 && tally.refused == 0 {
		s.add("%d policy answers were mutated over %d steps of %d games and no step refused one: illegal answers are never refused",
			tally.mutated, tally.steps, k.opt.Games)
	}
}

func (k *kit) chaosGame(g int, rng *rand.Rand, tally *chaosTally) error {
	game, r, err := k.start(g)
	if err != nil {
		return err
	}
	for i := 0; !game.Done(); i++ {
		if i == k.opt.MaxSteps {
			return fmt.Errorf("game %d is still going after %d steps (Options.MaxSteps)", g, i)
		}
		if rng.IntN(3) == 0 {
			if err := k.chaosStep(game, r, rng, tally); err != nil {
				return fmt.Errorf("game %d before step %d: %w", g, i, err)
			}
			if game.Done() { // a mutated answer that was legal ended it
				break
			}
		}
		if err := game.Step(r); err != nil {
			return fmt.Errorf("game %d step %d: Step failed: %w", g, i, err)
		}
	}
	return nil
}

// chaosStep takes one step under the chaos Chooser and checks what it
// left.
func (k *kit) chaosStep(game sim.Game, r *dice.Roller, rng *rand.Rand, tally *chaosTally) error {
	before, rb, err := snapshot(game, r)
	if err != nil {
		return err
	}
	c := &chaos{rng: rng, wrong: rng.IntN(4) == 0}
	heard := 0
	game.Listen(func(sim.Event) { heard++ })
	game.Intercept(c.choose)
	stepErr := game.Step(r)
	game.Intercept(nil)
	game.Listen(nil)
	if stepErr != nil && heard > 0 {
		return fmt.Errorf("a step refused (%s: %v), but a listener heard %d of its events: a refused step must not be heard", c.last, stepErr, heard)
	}
	tally.steps++
	tally.asked += c.asked
	tally.mutated += c.mutated
	switch {
	case c.wrong && c.asked > 0 && stepErr == nil:
		return fmt.Errorf("the step took %s: an answer of another type than the policy's must be refused", c.last)
	case c.wrong && c.asked > 0:
		return unchanged(game, r, before, rb, fmt.Sprintf("a step refused (%s: %v)", c.last, stepErr))
	case c.mutated == 0 && stepErr != nil:
		return fmt.Errorf("a step under a Chooser that handed back every answer as it was failed: %w", stepErr)
	case stepErr != nil:
		tally.refused++
		return unchanged(game, r, before, rb, fmt.Sprintf("a step refused (%s: %v)", c.last, stepErr))
	case c.mutated > 0:
		return restorable(k.m, game, c.last)
	}
	return nil
}

// snapshot saves game and r.
func snapshot(game sim.Game, r *dice.Roller) (state, roller []byte, err error) {
	if state, err = game.Save(); err != nil {
		return nil, nil, fmt.Errorf("saving the game: %w", err)
	}
	if roller, err = r.MarshalBinary(); err != nil {
		return nil, nil, fmt.Errorf("saving the Roller: %w", err)
	}
	return state, roller, nil
}

// unchanged reports how a refused step, what, changed game or r from
// their saved bytes.
func unchanged(game sim.Game, r *dice.Roller, state, roller []byte, what string) error {
	after, rb, err := snapshot(game, r)
	if err != nil {
		return fmt.Errorf("after %s: %w", what, err)
	}
	if !bytes.Equal(after, state) {
		return fmt.Errorf("%s changed the game: %s", what, diff(after, state))
	}
	if !bytes.Equal(rb, roller) {
		return fmt.Errorf("%s drew from the Roller", what)
	}
	return nil
}

// restorable reports how a game that took a mutated answer, what, fails
// to save or to restore from its save.
func restorable(m sim.Mechanic, game sim.Game, what string) error {
	b, err := game.Save()
	if err != nil {
		return fmt.Errorf("a step took %s and succeeded, but the game no longer saves: %w", what, err)
	}
	fresh, err := m.Restore(b)
	if err != nil {
		return fmt.Errorf("a step took %s and succeeded, but Restore refuses the game it left: %w\n\tstate: %s", what, err, clip(b))
	}
	if fresh == nil {
		return fmt.Errorf("a step took %s; restoring the game it left gave a nil Game and no error", what)
	}
	return nil
}
