package actiontest

import (
	"fmt"
	"reflect"
)

// Sheet is a character as a designer writes it: ratings by name. Missing
// names rate 0.
type Sheet struct {
	Name       string         `json:"name,omitempty"`
	Attributes map[string]int `json:"attributes"`
	Actions    map[string]int `json:"actions"`
	// Equipment names the items the character carries, for tests that
	// require one (Test.Requires).
	Equipment []string `json:"equipment,omitempty"`
}

// game is an Engine at work on one State for the length of a step (or a
// Runner's pursuit): the rules are its methods. rules is &State.Rules.
// table, when not nil, is the outcome table as the State's Director rules
// it, worked out once by a Runner when its scenario is built; nil rules
// each cell when a test is finished.
type game struct {
	State *State
	rules *Rules
	Sink  func(Event)
	table [][3]Outcome
	// director rules each cell when table is nil: the Engine's, or
	// (nil) the shipped one the State names.
	director Director
	// player answers the player's choices: the Engine's policy.
	player Policy
	// pursuit is the Runner's pursuit the steps play in, shown to the
	// policy; nil outside one.
	pursuit *Pursuit
}

// on returns the engine at work on s.
func (e Engine) on(s *State) *game {
	return &game{State: s, rules: &s.Rules, Sink: e.Sink, director: e.Policies.Director, player: e.player()}
}

// Rating returns the named Action's rating, its Attribute's rating, and the
// Attribute's name; for an Attribute's name (a roll no Action covers), 0,
// the Attribute's rating and its name.
func (c *game) Rating(action string) (act, attr int, attribute string, err error) {
	act, attr, a, err := c.ratings(action)
	if err != nil {
		return 0, 0, "", err
	}
	return act, attr, c.rules.Attributes[a].Name, nil
}

// ratings returns what a test of name rolls: the Action's rating (0 for a
// roll of an Attribute alone), the Attribute's rating, and the Attribute's
// index.
func (c *game) ratings(name string) (action, attribute, attr int, err error) {
	s, err := c.subjectOf(name)
	return s.action, s.attribute, s.attr, err
}

// subject is what a test of one name rolls: the Action's index (-1 for
// an Attribute rolled alone) and rating (0 then), the Attribute's rating
// and index, and the harm track it naturally risks.
type subject struct{ act, action, attribute, attr, track int }

// subjectOf resolves the name a test rolls, from the rules and the sheet
// (a name the sheet leaves out rates 0). The state keeps the last name
// resolved, so that the steps of one action resolve it once.
func (c *game) subjectOf(name string) (subject, error) {
	last := &c.State.resolved
	if last.name == name && last.of(c.rules, &c.State.Sheet) {
		return last.subject, nil
	}
	s, err := c.resolve(name)
	if err == nil {
		*last = resolvedName{name: name, subject: s}
		last.from(c.rules, &c.State.Sheet)
	}
	return s, err
}

// resolvedName is a name a test rolled and what it rolls, with the lists
// and ratings it was resolved from: the rules' Actions, Attributes and
// harm tracks (where they lie, and how many), and the sheet's ratings.
type resolvedName struct {
	name string
	subject
	actions      *ActionDef
	attributes   *Attribute
	tracks       *string
	nact, nattr  int
	ntracks      int
	sheetActions uintptr
	sheetAttrs   uintptr
}

// from records the lists of rl and sh a name was resolved from.
func (r *resolvedName) from(rl *Rules, sh *Sheet) {
	r.actions, r.nact = first(rl.Actions), len(rl.Actions)
	r.attributes, r.nattr = first(rl.Attributes), len(rl.Attributes)
	r.tracks, r.ntracks = first(rl.HarmTracks), len(rl.HarmTracks)
	r.sheetActions, r.sheetAttrs = mapOf(sh.Actions), mapOf(sh.Attributes)
}

// of says whether r was resolved from the lists of rl and sh (the same
// lists, not lists alike: a rating or name edited in place is read again
// only when the state is checked, see Engine).
func (r *resolvedName) of(rl *Rules, sh *Sheet) bool {
	return r.actions == first(rl.Actions) && r.nact == len(rl.Actions) &&
		r.attributes == first(rl.Attributes) && r.nattr == len(rl.Attributes) &&
		r.tracks == first(rl.HarmTracks) && r.ntracks == len(rl.HarmTracks) &&
		r.sheetActions == mapOf(sh.Actions) && r.sheetAttrs == mapOf(sh.Attributes)
}

// first is where list begins (nil when empty).
func first[T any](list []T) *T {
	if len(list) == 0 {
		return nil
	}
	return &list[0]
}

// mapOf is which map m is.
func mapOf(m map[string]int) uintptr {
	return reflect.ValueOf(m).Pointer()
}

// resolve resolves the name a test rolls (subjectOf), looking it up.
func (c *game) resolve(name string) (subject, error) {
	rl, sh := c.rules, &c.State.Sheet
	act := rl.actionAt(name)
	attr := -1
	if act >= 0 {
		attr = rl.attributeAt(rl.Actions[act].Attribute)
	} else {
		attr = rl.attributeAt(name)
	}
	if attr < 0 {
		_, _, err := rl.Subject(name)
		return subject{}, err
	}
	a := &rl.Attributes[attr]
	s := subject{act: act, attribute: sh.Attributes[a.Name], attr: attr, track: rl.trackAt(a.Harm)}
	if act >= 0 {
		s.action = sh.Actions[name]
	}
	return s, nil
}

// NaturalTrack returns the harm track an Action (or an Attribute rolled
// alone) naturally risks.
func (c *game) NaturalTrack(action string) (string, error) {
	s, err := c.subjectOf(action)
	if err != nil {
		return "", err
	}
	return c.rules.HarmTracks[s.track], nil
}

// naturalTrack is the track test t (checked) naturally risks.
func (c *game) naturalTrack(t *Test) int {
	s, _ := c.subjectOf(t.Action)
	return s.track
}

// Penalty returns the dice the character's harm costs: each filled slot
// costs its row's Penalty.
func (c *game) Penalty() int {
	pen, _ := c.harmLoad()
	return pen
}

// Incapacitated reports whether a filled incapacitating row (Severe harm)
// stops the character acting unless helped or pushing.
func (c *game) Incapacitated() bool {
	_, incap := c.harmLoad()
	return incap
}

// harmLoad is what the harm held costs: the dice, and whether it stops
// the character acting unless helped or pushing.
func (c *game) harmLoad() (penalty int, incapacitated bool) {
	rows := c.rules.HarmRows
	for t := range c.State.Harm {
		held := c.State.Harm[t].Rows
		for i := range min(len(held), len(rows)) {
			if held[i] > 0 {
				penalty += held[i] * rows[i].Penalty
				incapacitated = incapacitated || rows[i].Incapacitates
			}
		}
	}
	return penalty, incapacitated
}

// HasSpace reports whether track t can take a level PushHarm harm under
// the rules' PushSpace reading: under "track", a free slot in its row or
// any row above (the harm would not overflow the track); under
// "bottom_row", a free slot in its own row.
func (c *game) HasSpace(track string) bool {
	t, err := c.rules.TrackIndex(track)
	return err == nil && hasSpace(c.rules, c.State, t)
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
func (c *game) pushTrack(natural int) int {
	if hasSpace(c.rules, c.State, natural) {
		return natural
	}
	for t := range c.State.Harm {
		if hasSpace(c.rules, c.State, t) {
			return t
		}
	}
	return -1
}

// TakeHarm marks harm of the given level on the named track: a full row passes it up
// a row, and harm past the top row is a critical injury. It returns the row
// filled (-1 for a critical injury).
func (c *game) TakeHarm(level int, track string) (row int, err error) {
	if level < 1 || level > len(c.rules.HarmRows) {
		return 0, fmt.Errorf("actiontest: harm level %d, allowed 1..%d", level, len(c.rules.HarmRows))
	}
	t, err := c.rules.TrackIndex(track)
	if err != nil {
		return 0, err
	}
	return c.takeHarm(level, t), nil
}

func (c *game) takeHarm(level, t int) int {
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
func (c *game) addHarm(level, t int) int {
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
func (c *game) Heal(track string, level int) error {
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

// healed clears one harm from row of track t, which holds some.
func (c *game) healed(t, row int) {
	c.State.Harm[t].Rows[row]--
}

// NewDay restores the day's flashbacks.
func (c *game) NewDay() {
	c.State.FlashbacksUsed = 0
	c.emit(Event{Kind: EvNewDay})
}

// emit hands e, told of the character, to the Sink.
func (c *game) emit(e Event) {
	if c.Sink != nil {
		e.Who = c.State.Sheet.Name
		c.Sink(e)
	}
}
