package simtest

import (
	"errors"
	"fmt"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim"
)

// Refused takes step, a step of game set up to be refused (a Chooser's
// illegal answer, say), and reports how it failed to be refused without
// a trace: the step must return an error and leave the game's Save bytes
// and r's MarshalBinary bytes as they were, and a listener must hear none
// of its events. It listens to game during the step and leaves it with no
// listener. Nil means the step was refused cleanly.
func Refused(game sim.Game, r *dice.Roller, step func() error) error {
	before, rb, err := snapshot(game, r)
	if err != nil {
		return err
	}
	heard := 0
	game.Listen(func(sim.Event) { heard++ })
	stepErr := step()
	game.Listen(nil)
	switch {
	case stepErr == nil:
		return errors.New("the step was taken")
	case heard != 0:
		return fmt.Errorf("a listener heard %d events of the refused step (%v)", heard, stepErr)
	}
	return unchanged(game, r, before, rb, fmt.Sprintf("the refused step (%v)", stepErr))
}
