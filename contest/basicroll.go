package contest

import (
	"errors"
	"fmt"

	"github.com/stakesrpg/stakes/dice"
)

// BasicResult is what Rules.BasicRoll reports of a basic action rolled
// between two bare pools. BasicRoll keeps the storage of the two face
// slices from call to call, so a caller that passes the same BasicResult
// each time allocates nothing once the slices are big enough.
type BasicResult struct {
	// StakesFaces and Faces are the opposition's and the actor's faces, in
	// the order of their pools.
	StakesFaces []int `json:"stakes_faces"`
	Faces       []int `json:"faces"`
	// Stakes and Total are the two rolls read as the rules read them (the
	// Keep highest, 1s left out).
	Stakes int `json:"stakes"`
	Total  int `json:"total"`
	// Margin is Total less Stakes: above 0 when the actor wins. A tie
	// (Margin 0) is a loss, as the actor must beat the stakes (unless
	// Rules.TiesToHolder is off).
	Margin int `json:"margin"`
	// Won reports whether the actor beat the stakes.
	Won bool `json:"won"`
	// Extraordinary reports that the winner won by Rules.Extraordinary or
	// more: the losing character is Knocked Out and takes Trauma, unless
	// it makes a Final Push (a step of Engine's scene actions).
	Extraordinary bool `json:"extraordinary"`
	// Ones counts the 1s the actor rolled, opportunities the GM may buy
	// when the actor is a player character.
	Ones int `json:"ones"`
}

// errNoActorDice is BasicRoll's answer to an empty actor's pool.
var errNoActorDice = errors.New("contest: the actor's pool is empty: a pool always holds one of the roller's Values")

// BasicRoll rolls a basic action between two pools of trait dice under
// these rules, with no state behind it: the opposition rolls stakes first (an empty stakes
// pool, such as an emptied Trouble Pool, sets stakes of 0), then the actor
// rolls actor and must beat them ("Basic Actions"). The actor's pool comes
// first, as in PBeat. It is the resolution alone, for a caller that keeps
// its own characters, such as a chat bot rolling "d10 d8 d6 against d8 d6
// d10": Plot Points, aid, the Final Push and the Complication the loser
// takes are steps of a State's action (Begin, Roll, Push, Inflict), which
// roll the same faces from the same Roller state.
//
// Each die must be on the ladder d4..d12; an empty actor's pool or a die
// off the ladder is an error, and then nothing is drawn and out is left as
// it was.
func (rules *Rules) BasicRoll(r *dice.Roller, actor, stakes []dice.Die, out *BasicResult) error {
	switch {
	case r == nil:
		return fmt.Errorf("contest: basic roll: %w", dice.ErrNilRoller)
	case out == nil:
		return errors.New("contest: BasicRoll needs a BasicResult to fill")
	case len(actor) == 0:
		return errNoActorDice
	}
	if err := checkDice("the actor's pool", actor, maxDice); err != nil {
		return err
	}
	if err := checkDice("the stakes pool", stakes, maxDice); err != nil {
		return err
	}
	out.StakesFaces = r.RollDice(stakes, out.StakesFaces)
	out.Faces = r.RollDice(actor, out.Faces)
	out.Stakes, out.Total = rules.total(out.StakesFaces), rules.total(out.Faces)
	out.Margin, out.Ones = out.Total-out.Stakes, countOnes(out.Faces)
	out.Won = rules.beats(out.Total, out.Stakes)
	out.Extraordinary = out.Margin >= rules.Extraordinary || -out.Margin >= rules.Extraordinary
	return nil
}
