package main

import (
	"fmt"

	"github.com/stakesrpg/stakes/actiontest"
	"github.com/stakesrpg/stakes/sim"
)

func init() {
	register(mechanicInfo{
		name:    "actiontest",
		summary: "d6 pools where sixes succeed: position, push, risk peril, harm (Einfelst Wilds)",
		fresh: func() scenario {
			s := actiontest.DefaultScenario()
			return adapt(sim.Adapt[*actiontest.Runner]("actiontest", &s), func() string {
				pool := "the sheet's pool"
				if s.Pool > 0 {
					pool = fmt.Sprintf("%d dice", s.Pool)
				}
				return fmt.Sprintf("%s: %s with %s, %s, difficulty %d, goal %d, policy %s",
					s.Name, s.Action, pool, s.Position, s.Difficulty, s.Goal, s.Policy)
			})
		},
		odds: actiontestOdds,
	})
}

// actiontestOdds prints one test's exact outcome odds by position for the
// scenario's pool, difficulty and policy, then the scenario's exact answer.
func actiontestOdds(e *env, sc scenario, a oddsArgs) error {
	s := *sc.ptr().(*actiontest.Scenario)
	pol, err := actiontest.PolicyByName(s.Policy)
	if err != nil {
		return usageError{err.Error()}
	}
	pool := s.Pool
	if pool == 0 {
		// Action + its Attribute, plus help and equipment, as the test
		// itself would count them (harm and carried dice aside).
		i, err := s.Rules.ActionIndex(s.Action)
		if err != nil {
			return usageError{err.Error()}
		}
		pool = s.Character.Attributes[s.Rules.Actions[i].Attribute] + s.Character.Actions[s.Action] + min(s.Helpers, 3) + s.Equipment
	}
	type row struct {
		Position  string             `json:"position"`
		Pool      int                `json:"pool"`
		Succeeded float64            `json:"succeeded"`
		Pushed    float64            `json:"pushed"`
		Kinds     map[string]float64 `json:"kinds"`
	}
	var rows []row
	for _, name := range s.Rules.Positions {
		ch, err := s.Rules.Odds(pool, actiontest.Position(name), s.Difficulty, pol)
		if err != nil {
			return err
		}
		r := row{Position: name, Pool: ch.Pool, Succeeded: ch.Succeeded, Pushed: ch.Pushed, Kinds: map[string]float64{}}
		for _, k := range tableKinds() {
			r.Kinds[k.String()] = ch.Kind[k]
		}
		rows = append(rows, r)
	}
	ex, exErr := sc.exact(e.ctx)
	if a.json {
		out := map[string]any{"mechanic": "actiontest", "scenario": sc.describe(), "pool": pool,
			"difficulty": s.Difficulty, "policy": s.Policy, "one_test": rows}
		if exErr == nil {
			out["exact"] = ex
		} else {
			out["no_exact"] = exErr.Error()
		}
		return writeJSON(e.stdout, out)
	}
	fmt.Fprintf(e.stdout, "actiontest: one test of %d dice, difficulty %d, policy %s (exact)\n", pool, s.Difficulty, s.Policy)
	fmt.Fprintf(e.stdout, "  %-11s %9s %7s", "position", "succeeds", "pushed")
	for _, k := range tableKinds() {
		fmt.Fprintf(e.stdout, " %s", k)
	}
	fmt.Fprintln(e.stdout)
	for _, r := range rows {
		fmt.Fprintf(e.stdout, "  %-11s %9.4f %7.4f", r.Position, r.Succeeded, r.Pushed)
		for _, k := range tableKinds() {
			fmt.Fprintf(e.stdout, " %*.4f", len(k.String()), r.Kinds[k.String()])
		}
		fmt.Fprintln(e.stdout)
	}
	fmt.Fprintln(e.stdout)
	if exErr != nil {
		fmt.Fprintf(e.stdout, "scenario: no exact answer (%v)\n", exErr)
		return nil
	}
	writeExact(e, sc, ex)
	return nil
}

// tableKinds are the outcome kinds of the position x outcome table: every
// kind but an opposed roll's tie, which one test never reads.
func tableKinds() []actiontest.Kind {
	var out []actiontest.Kind
	for i := range actiontest.Kinds() {
		if k := actiontest.Kind(i); k != actiontest.Neither {
			out = append(out, k)
		}
	}
	return out
}
