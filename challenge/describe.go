//go:generate go run github.com/stakesrpg/stakes/cmd/settingsdoc

package challenge

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/stakesrpg/stakes/sim"
)

// Summary is the mechanic in one line, with the game it comes from.
const Summary = "challenger and answerer: stat dice, high die, doubling, advantage die (Art, Grace & Guts)"

// terms says what each outcome category and metric means; "*" stands for
// a side's name.
var terms = []sim.Term{
	{Key: "*_outright", Text: "* wins outright: an answer half the challenge or less (or a negotiated settlement in its place) ended the conflict (Action & Consequence)"},
	{Key: "*_given", Text: "* wins because the last opponent chose to give rather than hang in"},
	{Key: "*_by_drop", Text: "* wins because the last opponent dropped out (conflicts of more than two sides)"},
	{Key: "stalemate", Text: "nobody won before the conflict reached the rules' limit of exchanges (rules.max_exchanges)"},
	{Key: "rounds", Text: "rounds of the conflict: a new one begins when every side has had its turn (with two sides, after each exchange that did not end it)"},
	{Key: "exchanges", Text: "answers rolled: each exchange is a challenge met by an answer"},
	{Key: "sizes_lost", Text: "die sizes the losers' stats lost to exhaustion or injury (two a loss by default; a die below d4 is gone)"},
	{Key: "cross_offs", Text: "names crossed off the owe list for an advantage die"},
	{Key: "owed", Text: "names put on the owe list: a character facing more total sides who was not doubled in the first exchange"},
}

// Describe says what the mechanic is, the scenario as it is set (each
// side's characters, the endeavor each acts by with the dice it rolls, and
// the side's policies), and what each outcome and metric means.
func (s Scenario) Describe() sim.Description {
	return sim.Description{Summary: Summary, Title: s.title(), Terms: append([]sim.Term(nil), terms...), Docs: fieldDocs}
}

// title is the scenario in one line: "Althesa (warrior priestessing: d10
// d8) vs Irin (defending myself: d12 d6) [stance give]".
func (s Scenario) title() string {
	var b strings.Builder
	for i, sd := range s.Sides {
		if i > 0 {
			b.WriteString(" vs ")
		}
		for m, e := range sd.Members {
			if m > 0 {
				b.WriteString(" + ")
			}
			fmt.Fprintf(&b, "%s (%s: %s)", e.Character.Name, strings.ReplaceAll(e.Endeavor, "_", " "), entryDice(e))
		}
		if p := sd.Play.String(); p != "" {
			fmt.Fprintf(&b, " [%s]", p)
		}
	}
	if len(s.Owe) > 0 {
		names := make([]string, len(s.Owe))
		for i, d := range s.Owe {
			names[i] = d.Name
		}
		fmt.Fprintf(&b, "; owe list: %s", strings.Join(names, ", "))
	}
	return b.String()
}

// entryDice is the dice an entry rolls for its endeavor, in notation.
func entryDice(e Entry) string {
	stat, err := e.Character.EndeavorStat(e.Endeavor)
	if err != nil {
		return "no dice"
	}
	d := e.Character.Stats[stat]
	if d.Len() == 0 {
		return "no dice"
	}
	return d.String()
}

// String names the parts a side plays, those set only ("stance
// give, cross_off eager"); "" when every part is the default.
func (n StyleNames) String() string {
	var parts []string
	for _, p := range [...][2]string{{"stance", n.Stance}, {"cross_off", n.CrossOff}, {"loss", n.Loss},
		{"target", n.Target}, {"interfere", n.Interfere}} {
		if p[1] != "" {
			parts = append(parts, p[0]+" "+p[1])
		}
	}
	return strings.Join(parts, ", ")
}

// label names side i as play narrates it and the scenario's title spells
// it: its characters' names ("Althesa", "Irin and Mitch"). Solve's
// deciding side and its advice read so; goals name sides by Name.
func (s Scenario) label(i int) string {
	names := make([]string, len(s.Sides[i].Members))
	for m, e := range s.Sides[i].Members {
		names[m] = e.Character.Name
	}
	return cmp.Or(andList(names), s.Sides[i].Name)
}
