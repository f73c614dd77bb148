//go:generate go run github.com/stakesrpg/stakes/cmd/settingsdoc

package contest

import (
	"fmt"
	"strings"

	"github.com/stakesrpg/stakes/sim"
)

// Summary is the mechanic in one line, with the game it comes from.
const Summary = "Cortex-style pools totalling the two highest dice: basic, contested and timed actions (Gotham Reborn, Scenes and Actions)"

// Describe says what the mechanic is, the scenario as it is set now (its
// sides or timed action, their pools and policies) and what each outcome
// category and metric means.
func (s Scenario) Describe() sim.Description {
	return sim.Description{Summary: Summary, Title: s.title(), Terms: terms(), Docs: fieldDocs}
}

// title is the scenario in one line.
func (s Scenario) title() string {
	if s.Kind == KindTimed && s.Timed != nil {
		t := s.Timed
		out := fmt.Sprintf("timed action: %s (%s) against %d steps in %d beats", s.who(t.Actor), strings.Join(t.Pool, "+"), len(t.Steps), t.Beats)
		var hs []string
		for _, h := range t.Helpers {
			hs = append(hs, fmt.Sprintf("%s (%s)", s.who(h.Character), strings.Join(h.Pool, "+")))
		}
		if len(hs) > 0 {
			out += ", helped by " + strings.Join(hs, ", ")
		}
		return out
	}
	var parts []string
	for _, sd := range s.Sides {
		if sd.Character == "trouble" {
			parts = append(parts, "the Trouble Pool")
			continue
		}
		p := strings.Join(sd.Pool, "+")
		if len(sd.Extra) > 0 {
			p += ", extra " + strings.Join(sd.Extra, "+")
		}
		if len(sd.Gang) > 0 {
			p += fmt.Sprintf(", with %d extra mooks", len(sd.Gang))
		}
		if sd.Aider != "" {
			p += ", aided by " + s.who(sd.Aider)
		}
		parts = append(parts, fmt.Sprintf("%s (%s)", s.who(sd.Character), p))
	}
	out := fmt.Sprintf("%s action: %s", s.Kind, strings.Join(parts, " vs "))
	if s.Kind == KindContested && s.Initiator < 0 {
		out += ", all rolling to open"
	}
	if s.Interferer != "" {
		out += fmt.Sprintf("; %s may interfere (%s)", s.who(s.Interferer), strings.Join(s.InterferePool, "+"))
	}
	if s.GMPolicy != "" && s.GMPolicy != "default" {
		out += "; the GM plays " + s.GMPolicy
	}
	return out
}

// who names a cast member with the Plot Points it starts with (as Start
// deals them: see Scenario.Cast) and its policy.
func (s Scenario) who(name string) string {
	i := s.member(name)
	if i < 0 {
		return name
	}
	m := s.Cast[i]
	pol := m.Policy
	if pol == "" {
		pol = "default"
	}
	return fmt.Sprintf("%s [%d PP, %s]", name, s.plotPoints(i), pol)
}

// terms says what each category and metric of any contest scenario
// means; "*" stands for a side's character.
func terms() []sim.Term {
	return []sim.Term{
		{Key: "*_wins", Text: "* wins the contested action: the last loser was beaten by less than the Extraordinary margin, or after a Final Push"},
		{Key: "*_wins_extraordinary", Text: "* wins by the Extraordinary margin (rules.extraordinary) or more: the loser is Knocked Out and takes Trauma"},
		{Key: "*_wins_give_in", Text: "* wins because the other side Gave In"},
		{Key: "stopped", Text: "the interferer beat the stakes and nobody paid to go on: the contest stopped"},
		{Key: "success", Text: "the basic action beat the stakes"},
		{Key: "extraordinary", Text: "the basic action beat the stakes by the Extraordinary margin (the opposition Knocked Out, or a Trouble die off)"},
		{Key: "failure", Text: "the basic action fell short of the stakes"},
		{Key: "knocked_out", Text: "in a basic action, the actor lost by the margin and is Knocked Out; as a metric, characters Knocked Out at the end"},
		{Key: "gave_in", Text: "the actor Gave In"},
		{Key: "completed", Text: "every step of the timed action was done with beats left: the objective and a clean getaway"},
		{Key: "getaway", Text: "the steps were done with zero beats left and the actor chose the clean getaway over the objective"},
		{Key: "objective", Text: "the steps were done with zero beats left and the actor chose the objective over a clean getaway"},
		{Key: "out_of_time", Text: "the beats ran out before the steps were done: caught in the act, with a Complication"},
		{Key: "rolls", Text: "action rolls of the sides (not aid or interference), or steps rolled in a timed action"},
		{Key: "raises", Text: "rolls that raised the stakes (each must be strictly higher)"},
		{Key: "push_steps", Text: "Final Push steps taken (each adds rules.push_bonus to a total)"},
		{Key: "ones_bought", Text: "dice showing 1 the GM bought: a Plot Point to the player and a d6 to the Trouble Pool"},
		{Key: "trouble", Text: "dice in the Trouble Pool at the end"},
		{Key: "beats_left", Text: "beats left when the timed action ended"},
		{Key: "helpers_out", Text: "helpers who failed to buy time and could help no more"},
	}
}

// plotPoints is what cast member i holds when the scenario starts: its
// sheet's plot_points, and for a player character Rules.StartPlotPoints
// on top (the same rule as NewState).
func (s Scenario) plotPoints(i int) int {
	m := s.Cast[i]
	if m.GM {
		return m.PlotPoints
	}
	return m.PlotPoints + s.Rules.StartPlotPoints
}
