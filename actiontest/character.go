package actiontest

import (
	"fmt"
	"sort"
)

// Sheet is a character as a designer writes it: ratings by name. Missing
// names rate 0.
type Sheet struct {
	Name       string         `json:"name,omitempty"`
	Attributes map[string]int `json:"attributes"`
	Actions    map[string]int `json:"actions"`
}

// Character is a rated character under a set of Rules, with its State: the
// package's engine. The steps (Begin, Retry, Push, Finish, FinishOpposed,
// Spend) change the State; a refused step returns an error and leaves the
// State and the dice.Roller exactly as they were. A Character copied by
// value and given its own State (SetState) may play in another goroutine.
type Character struct {
	rules *Rules
	sheet Sheet
	Name  string
	attr  []int // rating by attribute index
	act   []int // rating by action index
	harm  []int // natural harm track of each attribute
	// subjects resolves every name a test may roll — each Action and each
	// Attribute — worked out once from the character's own rules.
	subjects map[string]subject

	allowed []uint64 // bit i of allowed[a]: Action a allows Effects[i]
	// spendBuf holds a Spender's choices; an array, so that a copied
	// Character has its own.
	spendBuf [16]int
	director Director
	table    [][3]Outcome // the outcome table as the Director rules it
	// seen is the View a Policy is shown, kept here so that showing it
	// costs nothing; a copied Character has its own.
	seen View
	// spendSeen is the SpendView a Spender is shown, likewise.
	spendSeen SpendView

	// State is the character's harm, flashbacks and carried dice.
	State State
	// Sink, when non-nil, hears an Event for everything that happens; nil
	// builds none.
	Sink func(Event)
}

// NewCharacter checks the rules and the sheet (unknown names, ratings
// outside 0..MaxRating) and returns a character with no harm. The character
// keeps its own copies of rl and s.
func NewCharacter(rl Rules, s Sheet) (*Character, error) {
	if err := rl.Validate(); err != nil {
		return nil, err
	}
	rl = rl.clone()
	c := &Character{rules: &rl, sheet: s.clone(), Name: s.Name,
		attr: make([]int, len(rl.Attributes)), act: make([]int, len(rl.Actions)),
		harm: make([]int, len(rl.Attributes))}
	for _, name := range sortedKeys(s.Attributes) {
		i, err := rl.AttributeIndex(name)
		if err != nil {
			return nil, fmt.Errorf("sheet attributes: %w", err)
		}
		if v := s.Attributes[name]; v < 0 || v > rl.MaxRating {
			return nil, fmt.Errorf("sheet attributes: %s rated %d, allowed 0..%d", name, v, rl.MaxRating)
		}
		c.attr[i] = s.Attributes[name]
	}
	for _, name := range sortedKeys(s.Actions) {
		i, err := rl.ActionIndex(name)
		if err != nil {
			return nil, fmt.Errorf("sheet actions: %w", err)
		}
		if v := s.Actions[name]; v < 0 || v > rl.MaxRating {
			return nil, fmt.Errorf("sheet actions: %s rated %d, allowed 0..%d", name, v, rl.MaxRating)
		}
		c.act[i] = s.Actions[name]
	}
	for i, a := range rl.Attributes {
		c.harm[i], _ = rl.TrackIndex(a.Harm)
	}
	c.subjects = make(map[string]subject, len(rl.Actions)+len(rl.Attributes))
	for _, name := range rl.actionNames() {
		act, attr, _ := rl.Subject(name)
		c.subjects[name] = subject{action: c.act[act], attribute: c.attr[attr], attr: attr, track: c.harm[attr]}
	}
	for i, a := range rl.Attributes {
		c.subjects[a.Name] = subject{attribute: c.attr[i], attr: i, track: c.harm[i]}
	}
	c.allowed = allowedEffects(c.rules)
	if err := c.SetDirector(nil); err != nil {
		return nil, err
	}
	c.State = c.FreshState()
	return c, nil
}

func sortedKeys(m map[string]int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Rules returns the character's rules (a shared pointer: do not modify).
func (c *Character) Rules() *Rules { return c.rules }

// FreshState returns a state with no harm, no flashbacks used, no bonus.
func (c *Character) FreshState() State {
	s := State{Harm: make([]TrackHarm, len(c.rules.HarmTracks))}
	for i, name := range c.rules.HarmTracks {
		s.Harm[i] = TrackHarm{Track: name, Rows: make([]int, len(c.rules.HarmRows))}
	}
	return s
}

// SetState checks s whole against the rules (State.Check) and installs a
// copy of it, sharing nothing with s or with the state it replaces (so a
// copied Character given its own state plays apart from the original); on
// error the state is unchanged.
func (c *Character) SetState(s State) error {
	if err := s.Check(c.rules); err != nil {
		return err
	}
	c.State = s.Clone()
	return nil
}

// setFrom overwrites the state with a copy of s.
func (c *Character) setFrom(s *State) {
	c.State.copyFrom(s)
}

// healed clears one harm from row of track t, which holds some.
func (c *Character) healed(t, row int) {
	c.State.Harm[t].Rows[row]--
}

// NewDay restores the day's flashbacks.
func (c *Character) NewDay() {
	c.State.FlashbacksUsed = 0
	c.emit(Event{Kind: EvNewDay})
}

// Rating returns the named Action's rating, its Attribute's rating, and the
// Attribute's name; for an Attribute's name (a roll no Action covers), 0,
// the Attribute's rating and its name.
func (c *Character) Rating(action string) (act, attr int, attribute string, err error) {
	act, attr, a, err := c.ratings(action)
	if err != nil {
		return 0, 0, "", err
	}
	return act, attr, c.rules.Attributes[a].Name, nil
}

// ratings returns what a test of name rolls: the Action's rating (0 for a
// roll of an Attribute alone), the Attribute's rating, and the Attribute's
// index.
func (c *Character) ratings(name string) (action, attribute, attr int, err error) {
	s, err := c.subjectOf(name)
	return s.action, s.attribute, s.attr, err
}

// subject is what a test of one name rolls: the Action's rating (0 for an
// Attribute rolled alone), the Attribute's rating and index, and the harm
// track it naturally risks.
type subject struct{ action, attribute, attr, track int }

// subjectOf resolves the name a test rolls.
func (c *Character) subjectOf(name string) (subject, error) {
	s, ok := c.subjects[name]
	if !ok {
		_, _, err := c.rules.Subject(name)
		return subject{}, err
	}
	return s, nil
}

// NaturalTrack returns the harm track an Action (or an Attribute rolled
// alone) naturally risks.
func (c *Character) NaturalTrack(action string) (string, error) {
	_, _, a, err := c.ratings(action)
	if err != nil {
		return "", err
	}
	return c.rules.HarmTracks[c.harm[a]], nil
}

// naturalTrack is the track test t (checked) naturally risks.
func (c *Character) naturalTrack(t *Test) int {
	s, _ := c.subjectOf(t.Action)
	return s.track
}

// Penalty returns the dice the character's harm costs: each filled slot
// costs its row's Penalty.
func (c *Character) Penalty() int {
	pen, _ := c.harmLoad()
	return pen
}

// Incapacitated reports whether a filled incapacitating row (Severe harm)
// stops the character acting unless helped or pushing.
func (c *Character) Incapacitated() bool {
	_, incap := c.harmLoad()
	return incap
}

// harmLoad is what the harm held costs: the dice, and whether it stops
// the character acting unless helped or pushing.
func (c *Character) harmLoad() (penalty int, incapacitated bool) {
	for _, h := range c.State.Harm {
		for i, n := range h.Rows {
			if i < len(c.rules.HarmRows) && n > 0 {
				penalty += n * c.rules.HarmRows[i].Penalty
				incapacitated = incapacitated || c.rules.HarmRows[i].Incapacitates
			}
		}
	}
	return penalty, incapacitated
}

// HasSpace reports whether track t can take a level PushHarm harm under
// the rules' PushSpace reading: under "track", a free slot in its row or
// any row above (the harm would not overflow the track); under
// "bottom_row", a free slot in its own row.
func (c *Character) HasSpace(track string) bool {
	t, err := c.rules.TrackIndex(track)
	return err == nil && hasSpace(c.rules, &c.State, t)
}

func hasSpace(rl *Rules, s *State, t int) bool {
	if t < 0 || t >= len(s.Harm) {
		return false
	}
	rows := s.Harm[t].Rows
	lo := rl.PushHarm - 1
	if lo >= len(rows) {
		return false
	}
	if rl.PushSpace == SpaceBottomRow {
		return rows[lo] < rl.HarmRows[lo].Slots
	}
	for i := lo; i < len(rows) && i < len(rl.HarmRows); i++ {
		if rows[i] < rl.HarmRows[i].Slots {
			return true
		}
	}
	return false
}

// pushTrack returns the natural track if it has space, else the first track
// with space, else -1.
func (c *Character) pushTrack(natural int) int {
	if hasSpace(c.rules, &c.State, natural) {
		return natural
	}
	for t := range c.State.Harm {
		if hasSpace(c.rules, &c.State, t) {
			return t
		}
	}
	return -1
}

// TakeHarm marks harm of the given level on the named track: a full row passes it up
// a row, and harm past the top row is a critical injury. It returns the row
// filled (-1 for a critical injury).
func (c *Character) TakeHarm(level int, track string) (row int, err error) {
	if level < 1 || level > len(c.rules.HarmRows) {
		return 0, fmt.Errorf("actiontest: harm level %d, allowed 1..%d", level, len(c.rules.HarmRows))
	}
	t, err := c.rules.TrackIndex(track)
	if err != nil {
		return 0, err
	}
	return c.takeHarm(level, t), nil
}

func (c *Character) takeHarm(level, t int) int {
	row := c.addHarm(level, t)
	if c.Sink != nil {
		e := Event{Kind: EvHarm, Track: c.rules.HarmTracks[t], Level: level, Critical: row < 0}
		if row >= 0 {
			e.Row = c.rules.HarmRows[row].Name
		}
		c.emit(e)
	}
	return row
}

// addHarm marks the harm in the lowest row from level up with a free slot
// and returns the row, or counts a critical injury and returns -1 ("Harm":
// a full row passes harm up; past the top row it is a critical injury).
func (c *Character) addHarm(level, t int) int {
	rows := c.State.Harm[t].Rows
	for i := level - 1; i < len(rows); i++ {
		if rows[i] < c.rules.HarmRows[i].Slots {
			rows[i]++
			return i
		}
	}
	c.State.Harm[t].Critical++
	return -1
}

// Heal clears one harm of the given level (1: the bottom row) on the named track (the Director may let a
// surge of confidence heal a harm).
func (c *Character) Heal(track string, level int) error {
	t, err := c.rules.TrackIndex(track)
	if err != nil {
		return err
	}
	if level < 1 || level > len(c.rules.HarmRows) {
		return fmt.Errorf("actiontest: heal level %d, allowed 1..%d", level, len(c.rules.HarmRows))
	}
	if c.State.Harm[t].Rows[level-1] == 0 {
		return fmt.Errorf("actiontest: heal %s %s: no harm there", track, c.rules.HarmRows[level-1].Name)
	}
	c.healed(t, level-1)
	return nil
}

func (c *Character) emit(e Event) {
	if c.Sink != nil {
		c.Sink(e)
	}
}
