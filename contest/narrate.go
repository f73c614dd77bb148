package contest

import (
	"fmt"
	"strings"

	"github.com/stakesrpg/stakes/dice"
)

// emit hands ev to the Sink (the caller has checked there is one) with the
// names of its character and side filled in from s, so that an event read
// on its own says who did what.
func (e *Engine) emit(s *State, ev Event) {
	switch {
	case ev.Char >= 0 && ev.Char < len(s.Characters):
		ev.Who = s.Characters[ev.Char].Name
	case ev.Char == TroublePool && ev.Side >= 0 && s.Action != nil && !s.timedLive():
		ev.Who = "the Trouble Pool"
	}
	if a := s.Action; a != nil && !s.timedLive() && ev.Side >= 0 && ev.Side < len(a.Sides) {
		ev.SideName = a.Sides[ev.Side].Label
		if a.Sides[ev.Side].Char == TroublePool {
			ev.SideName = "the Trouble Pool"
		}
	}
	e.Sink(ev)
}

// String narrates the event as a sentence a player understands, naming
// the characters (by Who and SideName, or by index when those are empty).
func (e Event) String() string {
	who, side := e.who(), e.side()
	switch e.Kind {
	case EvRolled:
		return fmt.Sprintf("%s rolled %s for a total of %d.", who, rolled(e.Dice, e.Faces), e.Value)
	case EvStakes:
		if e.Char < 0 && e.SideName == "" {
			return fmt.Sprintf("The GM set the stakes at %d%s.", e.Value, rolledBy(e.Dice, e.Faces))
		}
		return fmt.Sprintf("%s set the stakes at %d.", side, e.Value)
	case EvRaised:
		return fmt.Sprintf("%s raised the stakes to %d.", side, e.Value)
	case EvFailed:
		return fmt.Sprintf("%s failed to beat the stakes, %d short, and is beaten.", side, e.Value)
	case EvGaveIn:
		if e.Value > 0 {
			return fmt.Sprintf("%s gave in, paying %s to the opposition.", side, count(e.Value, "Plot Point"))
		}
		return fmt.Sprintf("%s gave in.", side)
	case EvAided:
		return fmt.Sprintf("%s aided %s with a die showing %d%s.", who, side, e.Value, rolledBy(e.Dice, e.Faces))
	case EvInterfered:
		return fmt.Sprintf("%s interfered with a result of %d%s.", who, e.Value, rolledBy(e.Dice, e.Faces))
	case EvStopped:
		return fmt.Sprintf("%s's interference stopped the contest: nobody takes a Complication.", who)
	case EvContinued:
		return fmt.Sprintf("%s paid %s to fight on despite the interference.", side, count(e.Value, "Plot Point"))
	case EvPushed:
		if e.Die == dice.Gone {
			return fmt.Sprintf("%s made a Final Push, giving up %s for good.", side, e.Name)
		}
		return fmt.Sprintf("%s made a Final Push, stepping %s down to %v.", side, e.Name, e.Die)
	case EvMookOff:
		return fmt.Sprintf("%s lost a %v from the gang.", side, e.Die)
	case EvComplication:
		return fmt.Sprintf("%s now has the Complication %q at %v.", who, e.Name, e.Die)
	case EvTrauma:
		return fmt.Sprintf("%s now has the Trauma %q at %v.", who, e.Name, e.Die)
	case EvKnockedOut:
		return fmt.Sprintf("%s was Knocked Out.", who)
	case EvOutOfStory:
		return fmt.Sprintf("%s's Trauma passed d12: %s is out of the story.", who, who)
	case EvReflection:
		if e.Value < 0 {
			return fmt.Sprintf("%s spent %s.", who, count(-e.Value, "Reflection Point"))
		}
		return fmt.Sprintf("%s earned %s for losing without giving in.", who, count(e.Value, "Reflection Point"))
	case EvPlotPoints:
		if e.Value < 0 {
			return fmt.Sprintf("%s spent %s on the pool.", who, count(-e.Value, "Plot Point"))
		}
		return fmt.Sprintf("%s got %s.", who, count(e.Value, "Plot Point"))
	case EvBoughtOnes:
		if e.Value == 1 {
			return fmt.Sprintf("The GM bought a 1 %s rolled, giving %s a Plot Point.", who, who)
		}
		return fmt.Sprintf("The GM bought %d 1s %s rolled, giving %s %d Plot Points.", e.Value, who, who, e.Value)
	case EvTrouble:
		if e.Value < 0 {
			return fmt.Sprintf("The Trouble Pool lost a %v.", e.Die)
		}
		if e.Value == 1 {
			return fmt.Sprintf("The Trouble Pool grew by a %v.", e.Die)
		}
		return fmt.Sprintf("The Trouble Pool grew by %d %vs.", e.Value, e.Die)
	case EvBeats:
		switch {
		case e.Value < 0:
			return fmt.Sprintf("%s lost %s.", who, count(-e.Value, "beat"))
		case e.Value > 0:
			return fmt.Sprintf("%s bought back %s.", who, count(e.Value, "beat"))
		}
		return fmt.Sprintf("%s found a shortcut and lost no time.", who)
	case EvTimedStep:
		return fmt.Sprintf("%s finished step %d of the timed action.", who, e.Value+1)
	case EvWon:
		return fmt.Sprintf("%s won the action.", side)
	case EvRebought:
		return fmt.Sprintf("%s bought %s back up to %v for %s.", who, e.Name, e.Die, count(e.Value, "Reflection Point"))
	case EvWaived:
		return fmt.Sprintf("%s let %s off the Complication of the failed action.", side, who)
	}
	return fmt.Sprintf("Event %v (side %d, character %d, value %d).", e.Kind, e.Side, e.Char, e.Value)
}

// who names the event's character.
func (e Event) who() string {
	switch {
	case e.Who != "":
		return e.Who
	case e.Char >= 0:
		return fmt.Sprintf("character %d", e.Char)
	}
	return "the GM"
}

// side names the event's side by its character (or label).
func (e Event) side() string {
	switch {
	case e.SideName != "":
		return e.SideName
	case e.Who != "":
		return e.Who
	case e.Side >= 0:
		return fmt.Sprintf("side %d", e.Side)
	}
	return "the GM"
}

// count is n of a thing, plural when n is not 1.
func count(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// rolled shows dice and their faces: "d8 d6 (5, 1)".
func rolled(ds []dice.Die, faces []int) string {
	if len(ds) == 0 {
		return "no dice"
	}
	var b strings.Builder
	for i, d := range ds {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(d.String())
	}
	if len(faces) == len(ds) {
		b.WriteString(" (")
		for i, f := range faces {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprint(&b, f)
		}
		b.WriteByte(')')
	}
	return b.String()
}

// rolledBy is ", rolling ..." when there are dice to show.
func rolledBy(ds []dice.Die, faces []int) string {
	if len(ds) == 0 {
		return ""
	}
	return " (rolling " + rolled(ds, faces) + ")"
}
