package pbta

import (
	"context"
	"fmt"

	"github.com/stakesrpg/stakes/sim"
)

// Tables answers "stakes odds pbta": one exchange's odds, move by move,
// for the scenario's character: the chance of each band of the roll and
// the harm each side deals. It takes no words.
func (sc Scenario) Tables(ctx context.Context, args []string) ([]sim.Table, error) {
	if len(args) > 0 {
		return nil, fmt.Errorf("%w: pbta takes no words after its name (it gives one exchange's odds of each move); change the scenario with --set", sim.ErrInvalid)
	}
	if err := sc.Validate(); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	e, err := sc.NewEngine()
	if err != nil {
		return nil, err
	}
	rl := sc.Rules
	t := sim.Table{
		Title: fmt.Sprintf("one exchange of %s against %s: %dd%d plus the move's stat", sc.PC.Name, sc.Threat.Name, rl.Dice, rl.Sides),
		Columns: []string{"move", "stat", fmt.Sprintf("full success (%d+)", rl.FullAt),
			fmt.Sprintf("at a cost (%d-%d)", rl.PartialAt, rl.FullAt-1), fmt.Sprintf("miss (%d-)", rl.PartialAt-1),
			"harm dealt on a hit", "harm a blow deals back"},
	}
	for m := range numMoves {
		odds, err := rl.Odds(m.stat(&sc.PC))
		if err != nil {
			return nil, err
		}
		t.Rows = append(t.Rows, []any{m.String(), m.stat(&sc.PC), odds[Full], odds[Partial], odds[Miss], e.Outgoing(m), e.Incoming()})
	}
	return []sim.Table{t}, nil
}
