package main

import (
	"fmt"
	"strings"

	"github.com/stakesrpg/stakes/challenge"
	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim"
)

func init() {
	register(mechanicInfo{
		name:    "challenge",
		summary: "challenger and answerer: stat dice, high die, doubling, advantage die (Art, Grace & Guts)",
		fresh: func() scenario {
			s := challenge.DefaultScenario()
			return adapt(sim.Adapt[*challenge.Runner]("challenge", &s), func() string { return describeChallenge(s) })
		},
		odds: challengeOdds,
	})
}

func describeChallenge(s challenge.Scenario) string {
	var parts []string
	for _, sd := range s.Sides {
		var ms []string
		for _, m := range sd.Members {
			ms = append(ms, fmt.Sprintf("%s (%s: %s)", m.Character.Name, m.Endeavor, rollDice(m)))
		}
		parts = append(parts, strings.Join(ms, " + "))
	}
	return strings.Join(parts, " vs ")
}

// rollDice returns the dice an entry rolls for its endeavor, as notation.
func rollDice(m challenge.Entry) string {
	ds := entryDice(m)
	p, err := dice.NewPool(ds...)
	if err != nil || len(ds) == 0 {
		return "no dice"
	}
	return p.String()
}

func entryDice(m challenge.Entry) []dice.Die {
	stat, err := m.Character.EndeavorStat(m.Endeavor)
	if err != nil {
		return nil
	}
	return m.Character.Stats[stat].Dice()
}

// challengeOdds prints the exact odds of one exchange each way between the
// first members of the first two sides, with and without the advantage
// die, then the conflict's exact answer.
func challengeOdds(e *env, sc scenario, a oddsArgs) error {
	s := *sc.ptr().(*challenge.Scenario)
	type row struct {
		Challenger string         `json:"challenger"`
		Answerer   string         `json:"answerer"`
		Advantage  bool           `json:"challenger_advantage"`
		Odds       challenge.Odds `json:"odds"`
	}
	var rows []row
	if len(s.Sides) >= 2 && len(s.Sides[0].Members) > 0 && len(s.Sides[1].Members) > 0 {
		x, y := s.Sides[0].Members[0], s.Sides[1].Members[0]
		for _, pair := range [][2]challenge.Entry{{x, y}, {y, x}} {
			for _, adv := range []bool{false, true} {
				o, err := challenge.ExchangeOdds(s.Rules, entryDice(pair[0]), entryDice(pair[1]), adv, false)
				if err != nil {
					return err
				}
				rows = append(rows, row{pair[0].Character.Name, pair[1].Character.Name, adv, o})
			}
		}
	}
	ex, exErr := sc.exact(e.ctx)
	if a.json {
		out := map[string]any{"mechanic": "challenge", "scenario": sc.describe(), "exchanges": rows}
		if exErr == nil {
			out["exact"] = ex
		} else {
			out["no_exact"] = exErr.Error()
		}
		return writeJSON(e.stdout, out)
	}
	fmt.Fprintf(e.stdout, "challenge: one exchange against a standing challenge (exact)\n")
	fmt.Fprintf(e.stdout, "  %-22s %-10s %8s %8s %8s %8s\n", "challenger > answerer", "advantage", "blocked", "tie", "hang/give", "doubled")
	for _, r := range rows {
		adv := "no"
		if r.Advantage {
			adv = "d6"
		}
		fmt.Fprintf(e.stdout, "  %-22s %-10s %8.4f %8.4f %8.4f %8.4f\n", r.Challenger+" > "+r.Answerer, adv,
			r.Odds.Block, r.Odds.Tie, r.Odds.Over, r.Odds.Double)
	}
	fmt.Fprintln(e.stdout)
	if exErr != nil {
		fmt.Fprintf(e.stdout, "conflict: no exact answer (%v)\n", exErr)
		return nil
	}
	writeExact(e, sc, ex)
	return nil
}
