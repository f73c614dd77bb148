package dramadeck

import (
	"github.com/stakesrpg/stakes/named"
)

// Name is the player side of a card: what it does when played (Drama Deck,
// "The Player Side", sections 1.1 to 1.3).
type Name uint8

// The player-side cards. Immediate effects (1.1) come first, then deferred
// effects (1.2), then subplots (1.3).
const (
	NoName Name = iota
	Action
	Adrenalin
	Willpower
	Presence
	CoupDeGrace
	Drama
	Escape
	Glory
	Haste
	Hero
	Idea
	Leadership
	MasterPlan
	Monologue
	OpponentFails
	SecondChance
	SeizeInitiative
	Supporter
	Rally
	Alertness
	Connection
	Campaign
	Martyr
	MistakenIdentity
	Nemesis
	PersonalStake
	Romance
	Suspicion
	TrueIdentity
	numNames
)

// nameNames are the card names as the text prints them; NoName is "-".
var nameNames = named.Enum[Name]{"-", "Action", "Adrenalin", "Willpower", "Presence", "Coup de Grace",
	"Drama", "Escape", "Glory", "Haste", "Hero", "Idea", "Leadership", "Master Plan", "Monologue",
	"Opponent Fails", "Second Chance", "Seize Initiative", "Supporter", "Rally", "Alertness",
	"Connection", "Campaign", "Martyr", "Mistaken Identity", "Nemesis", "Personal Stake", "Romance",
	"Suspicion", "True Identity"}

// Kind tells how a card's player side works.
type Kind uint8

// Kinds of player side (sections 1.1, 1.2, 1.3).
const (
	Immediate Kind = iota
	Deferred
	Subplot
)

var kindNames = named.Enum[Kind]{"immediate", "deferred", "subplot"}

func (k Kind) String() string { return kindNames.String(k) }

// MarshalText writes the kind name.
func (k Kind) MarshalText() ([]byte, error) { return kindNames.Marshal(k) }

// UnmarshalText reads a kind name.
func (k *Kind) UnmarshalText(b []byte) error { return kindNames.Unmarshal(b, k) }

// Kind reports whether n is an immediate, deferred or subplot card.
// Campaign is listed with the subplots but is played like an immediate card
// on a subplot already in play.
func (n Name) Kind() Kind {
	switch {
	case n == Alertness || n == Connection:
		return Deferred
	case n >= Martyr && n <= TrueIdentity:
		return Subplot
	}
	return Immediate
}

// Aimed reports whether card n takes effect on a hero, Play.Target: the
// cards whose effect waits on that hero's Status for its moment (Action,
// Adrenalin, Willpower, Presence, Supporter, Coup de Grace, Drama, Hero,
// Haste, Opponent Fails, Second Chance, Alertness, Connection).
func (n Name) Aimed() bool {
	switch n {
	case Action, Adrenalin, Willpower, Presence, Supporter, CoupDeGrace, Drama, Hero,
		Haste, OpponentFails, SecondChance, Alertness, Connection:
		return true
	}
	return false
}

// Valid reports whether n names a card.
func (n Name) Valid() bool { return n > NoName && n < numNames }

func (n Name) String() string { return nameNames.String(n) }

// Names returns every card name in order.
func Names() []Name {
	out := make([]Name, 0, numNames-1)
	for n := Action; n < numNames; n++ {
		out = append(out, n)
	}
	return out
}

// MarshalText writes the card name as the text prints it ("-" for NoName).
func (n Name) MarshalText() ([]byte, error) { return nameNames.Marshal(n) }

// UnmarshalText reads a card name written by MarshalText.
func (n *Name) UnmarshalText(b []byte) error { return nameNames.Unmarshal(b, n) }

// Side is one side of a fight.
type Side uint8

// The two sides.
const (
	Heroes Side = iota
	Villains
)

var sideNames = named.Enum[Side]{"Heroes", "Villains"}

func (s Side) String() string { return sideNames.String(s) }

// Other returns the opposing side.
func (s Side) Other() Side { return 1 - s }

// MarshalText writes "Heroes" or "Villains".
func (s Side) MarshalText() ([]byte, error) { return sideNames.Marshal(s) }

// UnmarshalText reads "Heroes" or "Villains".
func (s *Side) UnmarshalText(b []byte) error { return sideNames.Unmarshal(b, s) }

// Effect is a GM-side effect (GM Side, "Effects") or a margin-table result
// (GM Side, "Approved Actions").
type Effect uint8

// Effects. Unskilled and PlayersCall appear only in the margin table.
const (
	NoEffect Effect = iota
	Flurry
	Inspiration
	Up
	Break
	Confused
	Fatigued
	Setback
	Stymied
	Unskilled
	PlayersCall
	numEffects
)

// effectNames are the effects as the text prints them; NoEffect is "-".
var effectNames = named.Enum[Effect]{"-", "Flurry", "Inspiration", "Up", "Break", "Confused",
	"Fatigued", "Setback", "Stymied", "Unskilled", "Player's Call"}

func (e Effect) String() string { return effectNames.String(e) }

func (e Effect) marginResult() bool {
	switch e {
	case Stymied, Unskilled, Setback, Break, Up, Fatigued, PlayersCall:
		return true
	}
	return false
}

// MarshalText writes the effect name ("-" for NoEffect).
func (e Effect) MarshalText() ([]byte, error) { return effectNames.Marshal(e) }

// UnmarshalText reads an effect name written by MarshalText.
func (e *Effect) UnmarshalText(b []byte) error { return effectNames.Unmarshal(b, e) }

// Act is an approved action (GM Side, "Approved Actions"), or one of the
// other things a character can do in the combat model.
type Act uint8

// Approved actions, then the combat model's other actions.
const (
	NoAct Act = iota
	Attack
	Defend
	Trick
	Test
	Taunt
	Intimidate
	Maneuver
	// AllOutAttack is an Attack in the All-Out Attack posture (counts as Attack).
	AllOutAttack
	// Work is a roll on a Dramatic Skill Resolution task.
	Work
	numActs
)

// actNames are the actions as the text prints them; NoAct is "-".
var actNames = named.Enum[Act]{"-", "Attack", "Defend", "Trick", "Test", "Taunt", "Intimidate",
	"Maneuver", "All-Out Attack", "Work"}

func (a Act) String() string { return actNames.String(a) }

// Approved reports whether a can be listed as an approved action.
func (a Act) Approved() bool { return a >= Attack && a <= Maneuver }

// base folds All-Out Attack into Attack for approval checks.
func (a Act) base() Act {
	if a == AllOutAttack {
		return Attack
	}
	return a
}

// Contest reports whether a is resolved as a Quick Contest on the margin table.
func (a Act) Contest() bool { return a >= Trick && a <= Maneuver }

// MarshalText writes the action name ("-" for NoAct).
func (a Act) MarshalText() ([]byte, error) { return actNames.Marshal(a) }

// UnmarshalText reads an action name written by MarshalText.
func (a *Act) UnmarshalText(b []byte) error { return actNames.Unmarshal(b, a) }

// Bar is the skill bar in the centre of a card's GM side, used for Dramatic
// Skill Resolution: a step, an adjacent pair of steps, or a special case.
type Bar uint8

// Skill bar entries.
const (
	BarA Bar = iota
	BarB
	BarC
	BarD
	BarAB
	BarBC
	BarCD
	PossibleSetback
	Complication
	CriticalProblem
	numBars
)

var barNames = named.Enum[Bar]{"A", "B", "C", "D", "AB", "BC", "CD", "Possible Setback", "Complication", "Critical Problem"}

func (b Bar) String() string { return barNames.String(b) }

// Special reports whether b is a special case rather than steps.
func (b Bar) Special() bool { return b >= PossibleSetback && b < numBars }

// Steps returns the first step shown (0 for A) and how many steps (0 for a
// special case).
func (b Bar) Steps() (first, n int) {
	// A table, not a switch: bars come in random order, so branches on
	// them are mispredicted about every other card.
	if b < numBars {
		e := barSteps[b]
		return int(e[0]), int(e[1])
	}
	return 0, 0
}

// barSteps holds Bar.Steps by bar: first step, number of steps.
var barSteps = [numBars][2]uint8{BarA: {0, 1}, BarB: {1, 1}, BarC: {2, 1}, BarD: {3, 1},
	BarAB: {0, 2}, BarBC: {1, 2}, BarCD: {2, 2}}

// Bars returns every skill bar entry in order.
func Bars() []Bar {
	out := make([]Bar, numBars)
	for i := range out {
		out[i] = Bar(i)
	}
	return out
}

// MarshalText writes the bar entry.
func (b Bar) MarshalText() ([]byte, error) { return barNames.Marshal(b) }

// UnmarshalText reads a bar entry written by MarshalText.
func (b *Bar) UnmarshalText(t []byte) error { return barNames.Unmarshal(t, b) }

// Line is a Standard (S:) or Dramatic (D:) line of the action stack: who
// acts first and what happens to each side. An entry is an effect, or for
// the villains possibly an approved action whose success lets the GM strip a
// card from the target's pool.
type Line struct {
	First         Side   `json:"first"`
	Hero          Effect `json:"hero"`
	Villain       Effect `json:"villain"`
	VillainAction Act    `json:"villain_action"`
}

// Effect returns the effect on side s.
func (l Line) Effect(s Side) Effect {
	if s == Villains {
		return l.Villain
	}
	return l.Hero
}

// Card is one card: a player side and a GM side.
type Card struct {
	Name     Name   `json:"name"`
	Standard Line   `json:"standard"`
	Dramatic Line   `json:"dramatic"`
	Approved [2]Act `json:"approved"` // the Act: line; unused slots are NoAct
	Bar      Bar    `json:"bar"`
}

// Line returns the Dramatic or the Standard line.
func (c *Card) Line(dramatic bool) Line {
	if dramatic {
		return c.Dramatic
	}
	return c.Standard
}

// Approves reports whether a (All-Out Attack counting as Attack) is on the Act: line.
func (c *Card) Approves(a Act) bool {
	b := a.base()
	return b != NoAct && (c.Approved[0] == b || c.Approved[1] == b)
}
