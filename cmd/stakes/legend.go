package main

import (
	"fmt"
	"io"
	"strings"
)

// A legend entry says what one outcome or metric of a mechanic's scenario
// means, for --explain and "stakes mechanics NAME". Outcome names often
// carry a party's or side's name from the scenario ("lead_car_wins"), so a
// key "*_wins" matches any name ending in "_wins", and the "*" of the text
// stands for the name's start, read as words ("lead car").
type legendEntry struct {
	key, text string
}

// legendOf returns the entries of a mechanic, nil for one it does not know.
// The texts follow each rule package's Scenario (Categories, Metrics) and
// Runner.Trial.
func legendOf(mech string) []legendEntry {
	switch mech {
	case "edge":
		return []legendEntry{
			{"*_wins", "the * party wins the dramatic interaction outright: every other party is out of edge dice or surrendered (Winning a Dramatic Interaction)"},
			{"*_partial", "the interaction ended in a walk-away, or ran out of rounds (rules.max_rounds), with the * party holding the most edge dice: a partial win (Walking Away)"},
			{"draw", "the interaction ended without a winner: a walk-away or time-up with no party holding the most dice"},
			{"rounds", "rounds of wagering played until the interaction ended"},
			{"transfers", "edge dice that changed hands over the interaction: each wagered die won by an opposing check with the next higher result (Resolving a Wager)"},
			{"initiative_changes", "times the initiative passed to another party (the highest single result of a round takes it)"},
			{"*_edge", "edge dice the * party holds at the end"},
		}
	case "challenge":
		return []legendEntry{
			{"*_outright", "* wins outright: an answer half the challenge or less (or a negotiated settlement in its place) ended the conflict (Action & Consequence)"},
			{"*_given", "* wins because the last opponent chose to give rather than hang in"},
			{"*_by_drop", "* wins because the last opponent dropped out (conflicts of more than two sides)"},
			{"stalemate", "nobody won before the conflict reached rules.max_exchanges exchanges"},
			{"rounds", "rounds of the conflict: a new one begins when every side has had its turn (with two sides, after each exchange that did not end it)"},
			{"exchanges", "answers rolled: each exchange is a challenge met by an answer"},
			{"sizes_lost", "die sizes the losers' stats lost to exhaustion or injury (two a loss by default; a die below d4 is gone)"},
			{"cross_offs", "names crossed off the owe list for an advantage die"},
			{"owed", "names put on the owe list: a character facing more total sides who was not doubled in the first exchange"},
		}
	case "dramadeck":
		return []legendEntry{
			{"heroes_win", "the villains are all down (out, fled or dead): the heroes win the encounter"},
			{"villains_win", "the heroes are all down: the villains win"},
			{"escaped", "a hero played the Escape card and the heroes got away"},
			{"timed_out", "the encounter reached max_rounds without an end (or a policy erred)"},
			{"rounds", "combat rounds played"},
			{"flurry_rounds", "rounds in which the Drama Card gave a side a Flurry (a second pass of actions)"},
			{"cards_played", "cards the players played from their hands and pools"},
			{"cards_drawn", "cards the players drew into their hands"},
			{"heroes_down", "heroes out, fled or dead at the end"},
			{"villains_down", "villains out, fled or dead at the end"},
			{"flips", "Drama Cards flipped from the deck onto the action stack: one a round (unless the last is retained), one more each time Seize Initiative flips another"},
		}
	case "actiontest":
		return []legendEntry{
			{"clean", "the goal's progress clock filled without the character ending more harmed than at the start"},
			{"hurt", "the clock filled, but the character held more harm than at the start after some test"},
			{"lost", "a failure lost the opportunity before the clock filled"},
			{"out", "the character was taken out: a critical injury, or Severe harm with no help and no room to push"},
			{"stalled", "the pursuit reached max_tests tests without ending"},
			{"tests", "action tests rolled (flashbacks not counted)"},
			{"pushes", "times the character pushed: a level 1 harm for a re-roll of every non-six with two more dice (flashbacks' pushes included)"},
			{"harm", "harm held at the end less harm held at the start: harm taken, critical injuries included, less harm healed with extra successes"},
			{"successes", "sixes rolled, summed over the tests"},
			{"escalations", "failures the Director answered with Worse Position, so the character tried again from there"},
			{"perils", "Risk Peril deals taken (three more dice, paid for whatever happens)"},
			{"flashbacks", "flashbacks played (once a day)"},
		}
	case "contest":
		return []legendEntry{
			{"*_wins", "* wins the contested action: the last loser was beaten by less than the Extraordinary margin, or after a Final Push"},
			{"*_wins_extraordinary", "* wins by the Extraordinary margin (rules.extraordinary) or more: the loser is Knocked Out and takes Trauma"},
			{"*_wins_give_in", "* wins because the other side Gave In after rolling (paying a Complication or a Plot Point)"},
			{"stopped", "the interferer stopped the action"},
			{"success", "the basic action beat the stakes"},
			{"extraordinary", "the basic action beat the stakes by the Extraordinary margin"},
			{"failure", "the basic action fell short of the stakes"},
			{"knocked_out", "in a basic action, the actor lost by the margin and is Knocked Out; as a metric, characters Knocked Out at the end"},
			{"gave_in", "the actor Gave In"},
			{"completed", "the timed action's steps were all done in time"},
			{"getaway", "the timed action ended with the opposition getting away"},
			{"objective", "the timed action's opposition reached its objective"},
			{"out_of_time", "the beats ran out before the steps were done"},
			{"rolls", "action rolls of the sides (not aid or interference), or steps rolled in a timed action"},
			{"raises", "rolls that raised the stakes (each must be strictly higher)"},
			{"push_steps", "Final Push steps taken (each adds rules.push_bonus to a total)"},
			{"ones_bought", "dice showing 1 the GM bought: a Plot Point to the player and a d6 to the Trouble Pool"},
			{"trouble", "dice in the Trouble Pool at the end"},
			{"beats_left", "beats left when the timed action ended"},
			{"helpers_out", "helpers taken out during the timed action"},
		}
	}
	return nil
}

// explain returns what the outcome or metric name of mechanic mech means.
// An exact key wins over a "*" key; among "*" keys the longest ending wins.
func explain(mech, name string) (string, bool) {
	best, bestLen := "", -1
	for _, e := range legendOf(mech) {
		if e.key == name {
			return e.text, true
		}
		end, ok := strings.CutPrefix(e.key, "*")
		if !ok || len(end) <= bestLen {
			continue
		}
		if who, ok := strings.CutSuffix(name, end); ok && who != "" {
			best, bestLen = strings.ReplaceAll(e.text, "*", strings.ReplaceAll(who, "_", " ")), len(end)
		}
	}
	return best, bestLen >= 0
}

// writeLegend prints what each of the outcomes and metrics means.
func writeLegend(w io.Writer, mech string, cats, mets []string) {
	fmt.Fprintf(w, "What the %s numbers mean:\n", mech)
	group := func(title string, names []string) {
		fmt.Fprintf(w, "  %s\n", title)
		for _, n := range names {
			text, ok := explain(mech, n)
			if !ok {
				text = "(no description yet)"
			}
			lines := wrap(text, 76)
			fmt.Fprintf(w, "    %s\n", n)
			for _, l := range lines {
				fmt.Fprintf(w, "        %s\n", l)
			}
		}
	}
	group("outcomes (each trial ends in exactly one):", cats)
	group("metrics (counted in each trial):", mets)
}
