package actiontest

import (
	"fmt"
	"slices"
	"sort"
)

// Sheet is a character as a designer writes it: ratings by name. Missing
// names rate 0.
type Sheet struct {
	Name       string         `json:"name,omitempty"`
	Attributes map[string]int `json:"attributes"`
	Actions    map[string]int `json:"actions"`
}

// State is what changes about a character in play: harm, flashbacks used
// today and dice carried to the next roll. It saves and restores as JSON.
type State struct {
	// Harm[t][row] is how many slots of harm track t's row are filled, in
	// Rules.HarmTracks and Rules.HarmRows order.
	Harm [][]int `json:"harm"`
	// Critical[t] counts critical injuries: harm that overflowed track t.
	Critical []int `json:"critical"`
	// FlashbacksUsed counts flashbacks since the last NewDay.
	FlashbacksUsed int `json:"flashbacks_used"`
	// Bonus is dice carried to the next roll (a Controlled success's +1, a
	// successful flashback).
	Bonus int `json:"bonus"`
}

// Clone returns a deep copy.
func (s State) Clone() State {
	out := s
	out.Harm = make([][]int, len(s.Harm))
	for i, h := range s.Harm {
		out.Harm[i] = slices.Clone(h)
	}
	out.Critical = slices.Clone(s.Critical)
	return out
}

// copyFrom overwrites s with src, reusing s's slices when they fit.
func (s *State) copyFrom(src *State) {
	if len(s.Harm) != len(src.Harm) {
		s.Harm = make([][]int, len(src.Harm))
	}
	for i, h := range src.Harm {
		if len(s.Harm[i]) != len(h) {
			s.Harm[i] = make([]int, len(h))
		}
		copy(s.Harm[i], h)
	}
	if len(s.Critical) != len(src.Critical) {
		s.Critical = make([]int, len(src.Critical))
	}
	copy(s.Critical, src.Critical)
	s.FlashbacksUsed = src.FlashbacksUsed
	s.Bonus = src.Bonus
}

// Character is a rated character under a set of Rules, with its State. The
// step functions (Begin, Push, Finish, Flashback) change the State; a
// rejected step returns an error and leaves it exactly as it was.
type Character struct {
	rules *Rules
	Name  string
	attr  []int // rating by attribute index
	act   []int // rating by action index
	link  []int // attribute index of each action
	harm  []int // natural harm track of each attribute

	// pen and incap are what the harm in State costs, worked out by load
	// when loaded is false; every change to the harm clears loaded.
	pen    int
	incap  bool
	loaded bool
	// ready is loaded && !incap, kept beside them so that Start's fast
	// path checks both at once; every write of loaded or incap sets it.
	ready bool
	free  []int // free[t]: the free slots of track t that count as room for a push's harm
	// spaceRows has bit i set when a free slot in harm row i counts as
	// room for a push's harm (every row from PushHarm up, or that row
	// alone under the stricter reading).
	spaceRows uint

	minDice, maxPool int    // the fewest dice, the most before a push
	gens             uint64 // plans prepared

	rowPen    []int     // HarmRows[i].Penalty, compact for the hot path
	rowSlots  []int     // HarmRows[i].Slots, likewise
	incapRows uint      // bit i: HarmRows[i].Incapacitates
	cells     [][3]cell // each outcome-table cell as the Director rules it, worked out
	era       uint64    // names cells: a number no other SetDirector call got (never 0)

	allowed  []uint64 // bit i of allowed[a]: Action a allows Effects[i]
	spendBuf []int    // a Spender's choices, reused
	director Director
	table    [][3]Outcome // the outcome table as the Director rules it

	sides, successFace int // the rules', at hand for the roll
	pushRow, pushDice  int // the rules' PushHarm-1 and PushDice, likewise for the push
	// pushSlots and pushPen are row pushRow's slots and penalty; but
	// pushSlots is 0 when the row incapacitates, so that Push's fast path,
	// which does not set c.incap, finds no room and leaves such harm to
	// pushSlow. healRow is pushRow, or -1 when the row incapacitates, for
	// Heal's fast path alike.
	pushSlots, pushPen int
	healRow            int
	draws              draws
	// quadPool is quad when one draw holds a pool of four, else -1 (no
	// pool's size): Start's one check for its common case.
	quadPool int

	// State is the character's harm, flashbacks and carried dice. The
	// character keeps what its harm costs worked out between changes: after
	// changing State.Harm or replacing State by hand (rather than through
	// SetState, TakeHarm, Heal and the steps), call HarmChanged.
	State State
	// Sink, when non-nil, receives an Event for everything that happens.
	Sink Sink

	lastName string
	lastIdx  int
	// last is the test Begin or Play prepared last (a copy of the
	// character has its own: last.c tells).
	last Plan
}

// NewCharacter checks the rules and the sheet (unknown names, ratings
// outside 0..MaxRating) and returns a character with no harm. The character
// keeps a copy of rl; the caller must not change rl's slices afterwards.
func NewCharacter(rl Rules, s Sheet) (*Character, error) {
	if err := rl.Check(); err != nil {
		return nil, err
	}
	c := &Character{rules: &rl, Name: s.Name,
		attr: make([]int, len(rl.Attributes)), act: make([]int, len(rl.Actions)),
		link: make([]int, len(rl.Actions)), harm: make([]int, len(rl.Attributes)), lastIdx: -1}
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
	for i, a := range rl.Actions {
		c.link[i], _ = rl.AttributeIndex(a.Attribute)
	}
	for i, a := range rl.Attributes {
		c.harm[i], _ = rl.TrackIndex(a.Harm)
	}
	for i := range rl.HarmRows {
		if i == rl.PushHarm-1 || (i > rl.PushHarm-1 && rl.PushSpace == SpaceTrack) {
			c.spaceRows |= 1 << i
		}
	}
	for i, row := range rl.HarmRows {
		c.rowPen = append(c.rowPen, row.Penalty)
		c.rowSlots = append(c.rowSlots, row.Slots)
		if row.Incapacitates {
			c.incapRows |= 1 << i
		}
	}
	c.allowed = allowedEffects(c.rules)
	if err := c.SetDirector(nil); err != nil {
		return nil, err
	}
	c.sides, c.successFace = rl.Sides, rl.SuccessFace
	c.pushRow, c.pushDice = rl.PushHarm-1, rl.PushDice
	c.pushSlots, c.pushPen = c.rowSlots[c.pushRow], c.rowPen[c.pushRow]
	c.healRow = c.pushRow
	if rowBit(c.incapRows, c.pushRow) {
		c.pushSlots, c.healRow = 0, -1
	}
	c.draws.setDraws(rl.Sides, rl.SuccessFace)
	c.quadPool = -1
	if c.draws.most >= quad {
		c.quadPool = quad
	}
	c.minDice, c.maxPool = rl.MinDice, maxDice-rl.PushDice
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
	s := State{Harm: make([][]int, len(c.rules.HarmTracks)), Critical: make([]int, len(c.rules.HarmTracks))}
	for i := range s.Harm {
		s.Harm[i] = make([]int, len(c.rules.HarmRows))
	}
	return s
}

// SetState checks s against the rules (shape, slot counts, counters) and
// installs a copy of it; on error the state is unchanged.
func (c *Character) SetState(s State) error {
	rl := c.rules
	if len(s.Harm) != len(rl.HarmTracks) || len(s.Critical) != len(rl.HarmTracks) {
		return fmt.Errorf("actiontest: state has %d harm tracks and %d critical counts, rules have %d tracks",
			len(s.Harm), len(s.Critical), len(rl.HarmTracks))
	}
	for t, rows := range s.Harm {
		if len(rows) != len(rl.HarmRows) {
			return fmt.Errorf("actiontest: state harm[%d] has %d rows, rules have %d", t, len(rows), len(rl.HarmRows))
		}
		for i, n := range rows {
			if n < 0 || n > rl.HarmRows[i].Slots {
				return fmt.Errorf("actiontest: state harm[%d][%d] = %d, allowed 0..%d", t, i, n, rl.HarmRows[i].Slots)
			}
		}
		if s.Critical[t] < 0 {
			return fmt.Errorf("actiontest: state critical[%d] = %d, must be >= 0", t, s.Critical[t])
		}
	}
	if s.FlashbacksUsed < 0 || s.FlashbacksUsed > rl.FlashbacksPerDay {
		return fmt.Errorf("actiontest: state flashbacks_used %d, allowed 0..%d", s.FlashbacksUsed, rl.FlashbacksPerDay)
	}
	if s.Bonus < 0 || s.Bonus > maxDice/4 {
		return fmt.Errorf("actiontest: state bonus %d, allowed 0..%d", s.Bonus, maxDice/4)
	}
	c.setFrom(&s)
	return nil
}

// setFrom overwrites the state with a copy of s.
func (c *Character) setFrom(s *State) {
	c.State.copyFrom(s)
	c.loaded, c.ready = false, false
}

// healed clears one harm from row of track t, which holds some, and keeps
// what the harm costs up to date.
func (c *Character) healed(t, row int) {
	c.State.Harm[t][row]--
	if !c.loaded {
		return // worked out afresh when next needed
	}
	c.pen -= c.rowPen[row]
	c.freed(t, row, 1)
	if rowBit(c.incapRows, row) {
		c.loaded, c.ready = false, false // another track may still hold harm in the row
	}
}

// rowBit reports whether bit row of a row set is set. Rules.Check allows
// at most 8 rows, so row&7 is row, and the shift needs no check for
// counts of 64 or more.
func rowBit(set uint, row int) bool {
	return set>>(uint(row)&7)&1 != 0
}

// HarmChanged tells the character its State.Harm (or its whole State) was
// changed by hand, so what the harm costs is worked out again. SetState,
// TakeHarm, Heal and the test steps need no such call.
func (c *Character) HarmChanged() { c.loaded, c.ready = false, false }

// NewDay restores the day's flashbacks.
func (c *Character) NewDay() {
	c.State.FlashbacksUsed = 0
	c.emit(Event{Kind: EvNewDay})
}

// Rating returns the named Action's rating, its Attribute's rating, and the
// Attribute's name.
func (c *Character) Rating(action string) (act, attr int, attribute string, err error) {
	i, err := c.rules.ActionIndex(action)
	if err != nil {
		return 0, 0, "", err
	}
	a := c.link[i]
	return c.act[i], c.attr[a], c.rules.Attributes[a].Name, nil
}

// NaturalTrack returns the harm track an Action naturally risks.
func (c *Character) NaturalTrack(action string) (int, error) {
	i, err := c.rules.ActionIndex(action)
	if err != nil {
		return 0, err
	}
	return c.harm[c.link[i]], nil
}

// Penalty returns the dice the character's harm costs.
func (c *Character) Penalty() int {
	p, _ := c.load()
	return p
}

// Incapacitated reports whether a filled incapacitating row (Severe harm)
// stops the character acting unless helped or pushing.
func (c *Character) Incapacitated() bool {
	_, inc := c.load()
	return inc
}

// load returns the dice the harm costs and whether it incapacitates,
// worked out only after the harm changed.
func (c *Character) load() (penalty int, incapacitated bool) {
	if !c.loaded {
		c.reload()
	}
	return c.pen, c.incap
}

// reload works out what the harm costs and where a push's harm has room.
func (c *Character) reload() {
	c.pen, c.incap = c.loadHarm()
	if len(c.free) != len(c.State.Harm) {
		c.free = make([]int, len(c.State.Harm))
	}
	for t, rows := range c.State.Harm {
		c.free[t] = 0
		for i, n := range rows {
			if i < len(c.rules.HarmRows) && c.spaceRows&(1<<i) != 0 {
				c.free[t] += c.rules.HarmRows[i].Slots - n
			}
		}
	}
	c.loaded, c.ready = true, !c.incap
}

// loadSnap is what a state's harm costs, saved to be put back with the
// state (see Runner).
type loadSnap struct {
	pen   int
	incap bool
	free  []int
}

// snapLoad saves what the current state's harm costs.
func (c *Character) snapLoad() loadSnap {
	c.load0()
	return loadSnap{pen: c.pen, incap: c.incap, free: slices.Clone(c.free)}
}

// setFromSnap overwrites the state with a copy of s, whose harm costs l.
func (c *Character) setFromSnap(s *State, l *loadSnap) {
	c.State.copyFrom(s)
	c.pen, c.incap = l.pen, l.incap
	copy(c.free, l.free)
	c.loaded = len(c.free) == len(l.free)
	c.ready = c.loaded && !c.incap
}

// freed notes k more free slots in row of track t (k < 0: filled).
func (c *Character) freed(t, row, k int) {
	if rowBit(c.spaceRows, row) {
		c.free[t] += k
	}
}

// loadHarm works out what the harm costs.
func (c *Character) loadHarm() (penalty int, incapacitated bool) {
	pen := c.rowPen
	filled := uint(0) // bit i: some track has harm in row i
	for _, rows := range c.State.Harm {
		if len(rows) > len(pen) {
			rows = rows[:len(pen)]
		}
		for i, n := range rows {
			penalty += n * pen[i]
			if n != 0 {
				filled |= 1 << i
			}
		}
	}
	return penalty, filled&c.incapRows != 0
}

// HasSpace reports whether track t can take a level-1 harm under the
// rules' PushSpace reading.
func (c *Character) HasSpace(t int) bool {
	if uint(t) >= uint(len(c.State.Harm)) {
		return false
	}
	c.load0()
	return c.free[t] > 0
}

func hasSpace(rl *Rules, s *State, t int) bool {
	if t < 0 || t >= len(s.Harm) {
		return false
	}
	rows := s.Harm[t]
	lo := rl.PushHarm - 1
	if rl.PushSpace == SpaceBottomRow {
		return rows[lo] < rl.HarmRows[lo].Slots
	}
	for i := lo; i < len(rows); i++ {
		if rows[i] < rl.HarmRows[i].Slots {
			return true
		}
	}
	return false
}

// pushTrack returns the natural track if it has space, else the first track
// with space, else -1.
func (c *Character) pushTrack(natural int) int {
	c.load0()
	if c.free[natural] > 0 {
		return natural
	}
	for t, n := range c.free {
		if n > 0 {
			return t
		}
	}
	return -1
}

// TakeHarm marks harm of the given level on track t: a full row passes it up
// a row, and harm past the top row is a critical injury. It returns the row
// filled (-1 for a critical injury).
func (c *Character) TakeHarm(level, t int) (row int, err error) {
	if level < 1 || level > len(c.rules.HarmRows) {
		return 0, fmt.Errorf("actiontest: harm level %d, allowed 1..%d", level, len(c.rules.HarmRows))
	}
	if t < 0 || t >= len(c.rules.HarmTracks) {
		return 0, fmt.Errorf("actiontest: harm track %d, allowed 0..%d (%v)", t, len(c.rules.HarmTracks)-1, c.rules.HarmTracks)
	}
	return c.takeHarm(level, t), nil
}

func (c *Character) takeHarm(level, t int) int {
	row := c.addHarm(level, t)
	if row >= 0 && c.loaded {
		c.pen += c.rowPen[row]
		c.incap = c.incap || rowBit(c.incapRows, row)
		c.ready = !c.incap
		c.freed(t, row, -1)
	}
	if c.Sink != nil {
		c.emitHarm(level, t, row)
	}
	return row
}

// emitHarm tells the sink of a harm taken. It is apart from takeHarm so
// that the event's room is not set up on every harm.
func (c *Character) emitHarm(level, t, row int) {
	c.emit(Event{Kind: EvHarm, Track: c.rules.HarmTracks[t], Level: level, Row: row})
}

// addHarm marks the harm in the lowest row from level up with a free slot
// and returns the row, or counts a critical injury and returns -1.
func (c *Character) addHarm(level, t int) int {
	rows, slots := c.State.Harm[t], c.rowSlots
	if len(rows) > len(slots) {
		rows = rows[:len(slots)]
	}
	for i := level - 1; i < len(rows); i++ {
		if rows[i] < slots[i] {
			rows[i]++
			return i
		}
	}
	c.State.Critical[t]++
	return -1
}

// Heal clears one harm of the given row on track t (the Director may let a
// surge of confidence heal a harm).
func (c *Character) Heal(t, row int) error {
	// The common case, a push's harm healed, written out: its row always
	// counts as room for a push's harm, and its cost is at hand.
	// free is a local so that free[t] is not checked again after the
	// store to rows.
	free := c.free
	if row == c.healRow && c.loaded && uint(t) < uint(len(c.State.Harm)) && uint(t) < uint(len(free)) {
		if rows := c.State.Harm[t]; uint(row) < uint(len(rows)) && rows[row] != 0 {
			rows[row]--
			c.pen -= c.pushPen
			free[t]++
			return nil
		}
	}
	return c.heal(t, row)
}

// heal is Heal in general.
func (c *Character) heal(t, row int) error {
	if uint(t) >= uint(len(c.State.Harm)) || uint(row) >= uint(len(c.rowPen)) || uint(row) >= uint(len(c.State.Harm[t])) || c.State.Harm[t][row] == 0 {
		return c.healErr(t, row)
	}
	c.healed(t, row)
	return nil
}

// healErr says why Heal refused; it is apart from Heal to keep the hot
// path small.
func (c *Character) healErr(t, row int) error {
	if t < 0 || t >= len(c.State.Harm) || row < 0 || row >= len(c.rules.HarmRows) {
		return fmt.Errorf("actiontest: heal track %d row %d: out of range (%d tracks, %d rows)", t, row, len(c.State.Harm), len(c.rules.HarmRows))
	}
	return fmt.Errorf("actiontest: heal %s %s: no harm there", c.rules.HarmTracks[t], c.rules.HarmRows[row].Name)
}

func (c *Character) emit(e Event) {
	if c.Sink != nil {
		c.Sink.Event(e)
	}
}
