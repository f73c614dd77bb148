package dramadeck

import (
	"context"
	"fmt"

	"github.com/stakesrpg/stakes/named"
	"github.com/stakesrpg/stakes/sim"
)

// Tables answers "stakes odds dramadeck": exact card odds for an opening
// hand (hypergeometric, on the scenario's own composition) and the exact
// chance to finish a Dramatic Skill Resolution of the rules' steps within a
// ten-round limit by skill, on the scenario's own deck's skill bars, played
// by the heroes' policy. It takes no words after the mechanic's name.
func (s Scenario) Tables(ctx context.Context, args []string) ([]sim.Table, error) {
	if len(args) > 0 {
		return nil, fmt.Errorf("%w: dramadeck takes no words after its name (got %q); change the deck or rules with --set", sim.ErrInvalid, named.Clip(args[0]))
	}
	cards, err := s.handTable()
	if err != nil {
		return nil, err
	}
	tasks, err := s.taskTable(ctx)
	if err != nil {
		return nil, err
	}
	return []sim.Table{cards, tasks}, nil
}

// handTable is each card's chance to be in an opening hand.
func (s Scenario) handTable() (sim.Table, error) {
	comp := s.Deck
	if len(comp) == 0 {
		comp = DefaultComposition()
	}
	t := sim.Table{Title: fmt.Sprintf("P(at least one in an opening hand of %d), exact (hypergeometric)", s.Rules.HandSize),
		Columns: []string{"card", "P"}}
	for _, c := range comp {
		d, err := NameOdds(comp, c.Name, s.Rules.HandSize)
		if err != nil {
			return t, err
		}
		t.Rows = append(t.Rows, []any{c.Name.String(), d.AtLeast(1)})
	}
	return t, nil
}

// taskTable is a task's exact chance to be finished by skill.
func (s Scenario) taskTable(ctx context.Context) (sim.Table, error) {
	t := sim.Table{Title: fmt.Sprintf("%d-step Dramatic Skill Resolution, 10-round limit, policy %s (exact chain)", s.Rules.TaskSteps, s.HeroPolicy),
		Columns: []string{"skill", "within 6 rounds", "within 10", "with last ditch"}}
	deck, err := s.MakeDeck()
	if err != nil {
		return t, err
	}
	pol, err := PolicyByName(s.HeroPolicy)
	if err != nil {
		return t, err
	}
	for skill := 10; skill <= 16; skill++ {
		if err := ctx.Err(); err != nil {
			return t, err
		}
		te, err := TaskChance(s.Rules, Task{Skill: skill, Alternate: skill - 2, Rounds: 10}, deck.BarOdds(), pol)
		if err != nil {
			return t, err
		}
		t.Rows = append(t.Rows, []any{skill, te.Within(6), te.Within(10), te.P})
	}
	return t, nil
}

// BuiltinNames are the names of Builtins, in a fixed order: the encounter
// first, then the task out of combat and under fire, the scene and the
// adventure.
func (s Scenario) BuiltinNames() []string {
	return []string{"encounter", "task", "task_in_combat", "scene", "adventure"}
}

// Builtin returns the built-in scenario named name (see Builtins).
func (s Scenario) Builtin(name string) (any, bool) {
	b, ok := Builtins()[name]
	return b, ok
}
