package main

import (
	"fmt"

	"github.com/stakesrpg/stakes/dramadeck"
	"github.com/stakesrpg/stakes/sim"
)

func init() {
	register(mechanicInfo{
		name:    "dramadeck",
		summary: "the Drama Deck over GURPS 3d6 checks (GURPS adaptation of the Torg Drama Deck)",
		fresh: func() scenario {
			s := dramadeck.DefaultScenario()
			return adapt(sim.Adapt[*dramadeck.Runner]("dramadeck", &s), func() string {
				line := "Standard"
				if s.Dramatic {
					line = "Dramatic"
				}
				return fmt.Sprintf("%d heroes against %d villains, %s lines, heroes play %s, GM plays %s",
					len(s.Heroes), len(s.Villains), line, s.HeroPolicy, s.GMPolicy)
			})
		},
		odds: dramadeckOdds,
	})
}

// dramadeckOdds prints exact card odds for an opening hand and the exact
// chance to finish a Dramatic Skill Resolution of the rules' steps by skill,
// on the scenario's own deck.
func dramadeckOdds(e *env, sc scenario, a oddsArgs) error {
	s := *sc.ptr().(*dramadeck.Scenario)
	comp := s.Deck
	if len(comp) == 0 {
		comp = dramadeck.DefaultComposition()
	}
	hand := s.Rules.HandSize
	if hand <= 0 {
		hand = 4
	}
	type cardRow struct {
		Card string  `json:"card"`
		P    float64 `json:"p_in_opening_hand"`
	}
	var cards []cardRow
	for _, c := range comp {
		d, err := dramadeck.NameOdds(comp, c.Name, hand)
		if err != nil {
			return err
		}
		cards = append(cards, cardRow{c.Name.String(), d.AtLeast(1)})
	}
	deck, err := s.MakeDeck() // the scenario's own deck, whose skill bars the task rolls against
	if err != nil {
		return usageError{err.Error()}
	}
	pol, err := dramadeck.PolicyByName(s.HeroPolicy)
	if err != nil {
		return usageError{err.Error()}
	}
	type taskRow struct {
		Skill    int     `json:"skill"`
		Within6  float64 `json:"within_6_rounds"`
		Within10 float64 `json:"within_10_rounds"`
		P        float64 `json:"with_last_ditch"`
	}
	var tasks []taskRow
	for skill := 10; skill <= 16; skill++ {
		t := dramadeck.Task{Skill: skill, Alternate: skill - 2, Rounds: 10}
		te, err := dramadeck.TaskChance(s.Rules, t, deck.BarOdds(), pol)
		if err != nil {
			return err
		}
		tasks = append(tasks, taskRow{skill, te.Within(6), te.Within(10), te.P})
	}
	if a.json {
		return writeJSON(e.stdout, map[string]any{"mechanic": "dramadeck", "hand_size": hand,
			"cards": cards, "task_steps": s.Rules.TaskSteps, "four_step_task_10_rounds": tasks})
	}
	fmt.Fprintf(e.stdout, "dramadeck: P(at least one in an opening hand of %d), exact (hypergeometric)\n", hand)
	for i, c := range cards {
		fmt.Fprintf(e.stdout, "  %-18s %.4f", c.Card, c.P)
		if i%3 == 2 || i == len(cards)-1 {
			fmt.Fprintln(e.stdout)
		}
	}
	fmt.Fprintf(e.stdout, "\n%d-step Dramatic Skill Resolution, 10-round limit, policy %s (exact chain)\n", s.Rules.TaskSteps, s.HeroPolicy)
	fmt.Fprintf(e.stdout, "  %5s %10s %11s %16s\n", "skill", "within 6", "within 10", "with last ditch")
	for _, t := range tasks {
		fmt.Fprintf(e.stdout, "  %5d %10.4f %11.4f %16.4f\n", t.Skill, t.Within6, t.Within10, t.P)
	}
	return nil
}
