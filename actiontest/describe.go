//go:generate go run github.com/stakesrpg/stakes/cmd/settingsdoc

package actiontest

import (
	"fmt"

	"github.com/stakesrpg/stakes/sim"
)

// summary is the mechanic in one line, with the game it comes from.
const summary = "d6 pools where sixes succeed: position, push, risk peril, harm (Einfelst Wilds, Action Tests)"

// terms say what each category and metric means.
var terms = []sim.Term{
	{Key: "clean", Text: "the goal's progress clock filled without the character ending more harmed than at the start"},
	{Key: "hurt", Text: "the clock filled, but the character held more harm than at the start after some test"},
	{Key: "lost", Text: "a failure lost the opportunity before the clock filled"},
	{Key: "out", Text: "the character was taken out: a critical injury, or Severe harm with no help and no room to push"},
	{Key: "stalled", Text: "the pursuit reached its limit of tests (max_tests) without ending"},
	{Key: "tests", Text: "action tests rolled (flashbacks not counted)"},
	{Key: "pushes", Text: "times the character pushed: a level 1 harm for a re-roll of every non-six with two more dice (flashbacks' pushes included)"},
	{Key: "harm", Text: "harm held at the end less harm held at the start: harm taken, critical injuries included, less harm healed with extra successes"},
	{Key: "successes", Text: "sixes rolled, summed over the tests"},
	{Key: "escalations", Text: "failures the Director answered with Worse Position, so the character tried again from there"},
	{Key: "perils", Text: "Risk Peril deals taken (three more dice, paid for whatever happens)"},
	{Key: "flashbacks", Text: "flashbacks played (once a day)"},
}

// Describe says what the mechanic is, the scenario as it is set now (the
// character, the test, the goal and the policies) and what each outcome
// and metric means.
func (s Scenario) Describe() sim.Description {
	return sim.Description{Summary: summary, Title: s.title(), Terms: append([]sim.Term(nil), terms...), Docs: fieldDocs}
}

// title is the scenario in one line.
func (s Scenario) title() string {
	who := s.Character.Name
	if who == "" {
		who = "the character"
	}
	pool := "the sheet's pool"
	if s.Pool > 0 {
		pool = fmt.Sprintf("%d dice", s.Pool)
	}
	pos := string(s.Position)
	if pos == "" {
		pos = string(s.Rules.DefaultPosition)
	}
	director := s.Director
	if director == "" {
		director = "table"
	}
	t := fmt.Sprintf("%.60s: %.40s rolls %.40s with %s at %.40s, difficulty %d, goal %d, policy %.40s, director %.40s",
		s.Name, who, s.Action, pool, pos, s.Difficulty, s.Goal, s.Policy, director)
	if s.Opponent > 0 {
		opp := "an NPC"
		if s.OpponentPC {
			opp = "a player character"
		}
		t += fmt.Sprintf(", opposed by %s rolling %d dice", opp, s.Opponent)
	}
	return t
}
