//go:generate go run github.com/stakesrpg/stakes/cmd/settingsdoc

package edge

import (
	"fmt"
	"strings"

	"github.com/stakesrpg/stakes/sim"
)

// summary is the mechanic in one line, the game cited.
const summary = "dramatic interaction: parties wager edge dice on opposed d20 checks (d20 Advanced, Dramatic Interaction)"

// terms say what each outcome category and metric of a scenario means; a
// key "*_wins" matches every party's "<party>_wins".
var terms = []sim.Term{
	{Key: "*_wins", Text: "the * party wins the dramatic interaction outright: every other party ran out of edge dice or surrendered (Winning a Dramatic Interaction)"},
	{Key: "*_partial", Text: "the interaction ended in a walk-away, or reached the round limit (rules.max_rounds, or 1,000,000 rounds where it sets none), with the * party holding the most edge dice: a partial win (Walking Away)"},
	{Key: "draw", Text: "the interaction ended without a winner: a walk-away or the round limit with no party holding the most edge dice"},
	{Key: "rounds", Text: "rounds of wagering played until the interaction ended"},
	{Key: "transfers", Text: "edge dice that changed hands over the interaction: each wagered die won by an opposing check with the next higher result, and dice handed over in a surrender (Resolving a Wager)"},
	{Key: "initiative_changes", Text: "times the initiative passed to another party (the highest single result of a round takes it)"},
	{Key: "*_edge", Text: "edge dice the * party holds at the end"},
}

// Describe says what the mechanic is, the scenario as it is set now (its
// type, starting dice, and each party with its members, policy, bonus dice
// and whether it is passive) and what each outcome and metric means.
func (s Scenario) Describe() sim.Description {
	return sim.Description{Summary: summary, Title: s.title(), Terms: append([]sim.Term(nil), terms...), Docs: fieldDocs}
}

// title is the scenario in one line: "chase, 5 edge dice each: lead car
// (Becky, Bob; cautious) vs pursuer (Joe; reckless, +1 edge)".
func (s Scenario) title() string {
	parts := make([]string, 0, len(s.Parties))
	for _, p := range s.Parties {
		names := make([]string, 0, len(p.Members))
		for _, m := range p.Members {
			names = append(names, m.Name)
		}
		pol := p.Policy
		if pol == "" {
			pol = DefaultPolicy
		}
		extra := ""
		if p.BonusEdge > 0 {
			extra = fmt.Sprintf(", +%d edge", p.BonusEdge)
		}
		if p.Passive {
			extra += ", passive"
		}
		parts = append(parts, fmt.Sprintf("%s (%s; %s%s)", p.Name, strings.Join(names, ", "), pol, extra))
	}
	return fmt.Sprintf("%s, %d edge dice each: %s", s.Type, s.Rules.StartEdge, strings.Join(parts, " vs "))
}
