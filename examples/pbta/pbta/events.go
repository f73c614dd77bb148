package pbta

import (
	"fmt"
	"strings"
)

// Event is what a step reports, JSON-tagged; String narrates it. Kind is
// "roll" (the move rolled, and a full success's harm), "cost" (a 7-9
// paid for) or "hard_move" (the GM's answer to a miss).
type Event struct {
	Kind     string `json:"kind"`
	Exchange int    `json:"exchange"`
	PC       string `json:"pc"`
	Threat   string `json:"threat"`
	// Move, its Stat, the Dice faces, their Total with the stat, and the
	// Band it reads as.
	Move  Move  `json:"move"`
	Stat  int   `json:"stat"`
	Dice  []int `json:"dice,omitempty"`
	Total int   `json:"total"`
	Band  Band  `json:"band"`
	// Cost paid for a 7-9 (Kind "cost"); Hard the GM's move (Kind
	// "hard_move").
	Cost Cost     `json:"cost"`
	Hard HardMove `json:"hard"`
	// Dealt is the harm the threat took, Taken the harm the character
	// took, Cleared the harm the threat shook off.
	Dealt   int `json:"dealt"`
	Taken   int `json:"taken"`
	Cleared int `json:"cleared"`
	// The harm marked after the step, of Track and Capacity.
	PCHarm     int `json:"pc_harm"`
	Track      int `json:"track"`
	ThreatHarm int `json:"threat_harm"`
	Capacity   int `json:"capacity"`
}

// String narrates the event as one sentence.
func (e Event) String() string {
	switch e.Kind {
	case "roll":
		return e.rollText()
	case "cost":
		if e.Cost == TradeBlows {
			return fmt.Sprintf("%s trades blows: %s; %s.", e.PC, e.dealtText(), e.takenText())
		}
		return fmt.Sprintf("%s holds back: %s; %s takes nothing.", e.PC, e.dealtText(), e.PC)
	case "hard_move":
		if e.Hard == Regroup {
			return fmt.Sprintf("The GM has %s regroup: it shakes off %d harm (%d/%d).", e.Threat, e.Cleared, e.ThreatHarm, e.Capacity)
		}
		return fmt.Sprintf("The GM has %s strike: %s.", e.Threat, e.takenText())
	}
	return fmt.Sprintf("(an event of unknown kind %q)", e.Kind)
}

func (e Event) rollText() string {
	faces := make([]string, len(e.Dice))
	for i, f := range e.Dice {
		faces[i] = fmt.Sprint(f)
	}
	roll := fmt.Sprintf("%s%+d = %d", strings.Join(faces, "+"), e.Stat, e.Total)
	head := fmt.Sprintf("Exchange %d: %s %s, rolling %s", e.Exchange, e.PC, e.Move.words(), roll)
	switch e.Band {
	case Full:
		return fmt.Sprintf("%s, a full success: %s; %s takes nothing.", head, e.dealtText(), e.PC)
	case Partial:
		return head + ", a success at a cost."
	}
	return head + ", a miss: the GM makes a hard move."
}

func (e Event) dealtText() string {
	s := fmt.Sprintf("%s takes %d harm (%d/%d)", e.Threat, e.Dealt, e.ThreatHarm, e.Capacity)
	if e.ThreatHarm >= e.Capacity {
		s += " and is out of the fight"
	}
	return s
}

func (e Event) takenText() string {
	s := fmt.Sprintf("%s takes %d harm (%d/%d)", e.PC, e.Taken, e.PCHarm, e.Track)
	if e.PCHarm >= e.Track {
		s += " and is taken out"
	}
	return s
}
