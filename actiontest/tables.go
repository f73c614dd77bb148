package actiontest

import (
	"context"
	"fmt"

	"github.com/stakesrpg/stakes/named"
	"github.com/stakesrpg/stakes/sim"
)

// Tables answers "stakes odds actiontest": one action test's exact odds
// at each position, for the scenario's pool, difficulty and policy, each
// outcome kind beside whether the character gets what they were after and
// how often the policy pushes. It takes no words after the mechanic's name.
func (s Scenario) Tables(ctx context.Context, args []string) ([]sim.Table, error) {
	if len(args) > 0 {
		return nil, fmt.Errorf("%w: actiontest takes no words after its name (got %q); change the test with --set pool=4 --set difficulty=2", sim.ErrInvalid, named.Clip(args[0]))
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	pol, err := s.policy()
	if err != nil {
		return nil, err
	}
	pool, err := s.testPool()
	if err != nil {
		return nil, err
	}
	kinds := tableKinds()
	t := sim.Table{Title: fmt.Sprintf("one test of %d dice, difficulty %d, policy %s (exact), by position", pool, s.Difficulty, s.Policy),
		Columns: []string{"position", "succeeds", "pushed"}}
	for _, k := range kinds {
		t.Columns = append(t.Columns, k.String())
	}
	for _, name := range s.Rules.Positions {
		ch, err := s.Rules.Odds(pool, Position(name), s.Difficulty, pol)
		if err != nil {
			return nil, err
		}
		row := []any{name, ch.Succeeded, ch.Pushed}
		for _, k := range kinds {
			row = append(row, ch.Kind[k])
		}
		t.Rows = append(t.Rows, row)
	}
	return []sim.Table{t}, nil
}

// testPool is the dice the scenario's test rolls: Pool, or the Action and
// its Attribute plus help and equipment as the test counts them (harm and
// carried dice aside).
func (s Scenario) testPool() (int, error) {
	if s.Pool > 0 {
		return s.Pool, nil
	}
	i, err := s.Rules.ActionIndex(s.Action)
	if err != nil {
		return 0, err
	}
	return s.Character.Attributes[s.Rules.Actions[i].Attribute] + s.Character.Actions[s.Action] + min(s.Helpers, 3) + s.Equipment, nil
}

// tableKinds are the outcome kinds of the position table: every kind but
// an opposed roll's tie, which one test never reads.
func tableKinds() []Kind {
	var out []Kind
	for i := range Kinds() {
		if k := Kind(i); k != Neither {
			out = append(out, k)
		}
	}
	return out
}
