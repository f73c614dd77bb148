package contest

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim"
)

// maxStakes bounds a numeric stakes: far beyond any pool's total, and small
// enough that no margin arithmetic can overflow.
const maxStakes = 1_000_000

// Tables answers "stakes odds contest POOL vs STAKES": the exact total of a
// pool (its two highest dice, 1s excluded, under the scenario's rules)
// against stakes that are a number or another pool, with the chances to
// beat them, to beat them by the Extraordinary margin, and to fall that far
// short. With no words it offers no table: the scenario's exact answer is
// the odds.
func (s Scenario) Tables(ctx context.Context, args []string) ([]sim.Table, error) {
	if len(args) == 0 {
		return nil, nil
	}
	if len(args) == 3 && args[1] == "vs" {
		args = []string{args[0], args[2]}
	}
	if len(args) != 2 || args[1] == "vs" {
		return nil, fmt.Errorf(`%w: give POOL vs STAKES, such as "d10 d8 d6" vs "d8 d8" or "d10 d8 d6" vs 9`, sim.ErrInvalid)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	pool, err := ladderPool(args[0])
	if err != nil {
		return nil, err
	}
	total, err := TotalDist(pool.Dice(), s.Rules)
	if err != nil {
		return nil, err
	}
	stakes, err := stakesDist(args[1], s.Rules)
	if err != nil {
		return nil, err
	}
	extra := s.Rules.Extraordinary
	odds := sim.Table{Title: fmt.Sprintf("%s (two highest, 1s excluded) against %s (exact)", pool, clip(args[1])),
		Columns: []string{"chance", "P"},
		Rows: [][]any{
			{"beat the stakes", total.Greater(stakes)},
			{fmt.Sprintf("beat them by %d or more", extra), total.BeatsBy(stakes, extra)},
			{fmt.Sprintf("fall %d or more short: Trauma", extra), stakes.BeatsBy(total, extra)},
			{"mean total", total.Mean()},
		}}
	dist := sim.Table{Title: fmt.Sprintf("%s: total", pool), Columns: []string{"total", "P(= total)", "P(>= total)"}}
	for v := total.Min; v <= total.Max(); v++ {
		dist.Rows = append(dist.Rows, []any{v, total.Prob(v), total.AtLeast(v)})
	}
	return []sim.Table{odds, dist}, nil
}

// ladderPool reads a Cortex pool: dice of the d4..d12 ladder, no modifier.
func ladderPool(text string) (dice.Pool, error) {
	p, err := dice.ParsePool(text)
	if err != nil {
		return p, fmt.Errorf("%w: %v", sim.ErrInvalid, err)
	}
	for _, d := range p.Dice() {
		if err := d.CheckLadder(); err != nil {
			return p, fmt.Errorf("%w: %v", sim.ErrInvalid, err)
		}
	}
	if p.Modifier() != 0 {
		return p, fmt.Errorf("%w: %s: a Cortex pool has no flat modifier", sim.ErrInvalid, p)
	}
	return p, nil
}

// stakesDist reads stakes: a number within ±maxStakes, or a pool whose
// total sets them.
func stakesDist(text string, rl Rules) (dice.Dist, error) {
	v, err := strconv.ParseInt(text, 10, 64)
	if err == nil || errors.Is(err, strconv.ErrRange) {
		if v < -maxStakes || v > maxStakes || err != nil {
			return dice.Dist{}, fmt.Errorf("%w: stakes %s: allowed -%d..%d", sim.ErrInvalid, clip(text), maxStakes, maxStakes)
		}
		return dice.Point(int(v)), nil
	}
	p, err := ladderPool(text)
	if err != nil {
		return dice.Dist{}, err
	}
	return TotalDist(p.Dice(), rl)
}
