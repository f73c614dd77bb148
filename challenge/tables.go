package challenge

import (
	"context"
	"fmt"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim"
)

// Tables answers "stakes odds challenge": the exact odds of one exchange
// against a standing challenge, each way between the first members of the
// first two sides, with and without the advantage die: how often the
// answer blocks, ties, merely hangs in (lower but over half) or is
// doubled (half or less). It takes no words after the mechanic's name.
func (s Scenario) Tables(ctx context.Context, args []string) ([]sim.Table, error) {
	if len(args) > 0 {
		return nil, fmt.Errorf("%w: challenge takes no words after its name (got %q); change the characters with --set", sim.ErrInvalid, clip(args[0]))
	}
	if len(s.Sides) < 2 || len(s.Sides[0].Members) == 0 || len(s.Sides[1].Members) == 0 {
		return nil, nil
	}
	t := sim.Table{Title: "one exchange against a standing challenge (exact)",
		Columns: []string{"challenger > answerer", "advantage die", "blocked", "tie", "hangs in or gives", "doubled"}}
	x, y := s.Sides[0].Members[0], s.Sides[1].Members[0]
	for _, pair := range [][2]Entry{{x, y}, {y, x}} {
		for _, adv := range []bool{false, true} {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			o, err := ExchangeOdds(s.Rules, rolled(pair[0]), rolled(pair[1]), adv, false)
			if err != nil {
				return nil, err
			}
			die := "no"
			if adv {
				die = "yes"
			}
			t.Rows = append(t.Rows, []any{pair[0].Character.Name + " > " + pair[1].Character.Name, die, o.Block, o.Tie, o.Over, o.Double})
		}
	}
	return []sim.Table{t}, nil
}

// rolled are the dice an entry rolls for its endeavor; none when the
// endeavor names no stat.
func rolled(m Entry) []dice.Die {
	stat, err := m.Character.EndeavorStat(m.Endeavor)
	if err != nil {
		return nil
	}
	return m.Character.Stats[stat].Dice()
}
