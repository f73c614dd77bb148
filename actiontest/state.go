package actiontest

import (
	"fmt"
	"maps"
	"slices"
	"sort"

	"github.com/stakesrpg/stakes/named"
)

// State is a character in play as one saveable value: the rules it plays
// by, its sheet, the Director ruling on the outcome table (by name), and
// what changes in play — harm, flashbacks used today, dice carried to the
// next roll, and the action test in flight. It saves and restores as JSON
// (Save, Restore); Check validates a restored (or hand-edited) state whole
// before any step reads it. NewState makes a fresh one.
type State struct {
	// Rules are the rules of play. A state whose rules or sheet are
	// edited by hand is checked again (Check) before the next step.
	Rules Rules `json:"rules"`
	// Sheet is the character's ratings.
	Sheet Sheet `json:"sheet"`
	// Director names the shipped Director ruling on the outcome table's
	// consequences ("" is "table"; see Directors).
	Director string `json:"director"`
	// Harm is the harm on each track, one entry a track in
	// Rules.HarmTracks order, each naming its track.
	Harm []TrackHarm `json:"harm"`
	// FlashbacksUsed counts flashbacks since the last NewDay.
	FlashbacksUsed int `json:"flashbacks_used"`
	// Bonus is dice carried to the next roll (a Controlled success's +1, a
	// successful flashback).
	Bonus int `json:"bonus"`
	// Attempt is the action's roll: in flight (stage "rolled"), the last
	// one finished, or none yet (stage ""). A finished roll that asks for
	// a Worse Position retry keeps the action going (see Engine.Retry).
	Attempt Attempt `json:"attempt"`
	// Flashback is the last flashback test, or the one in flight. A
	// flashback is called during an action ("Flashbacks"), so it has its
	// own record beside the action's roll.
	Flashback Attempt `json:"flashback"`

	// What a step lends the policy and the Director it asks, refilled for
	// each question and not saved: the views they are shown and the buffer
	// the policy's spending is written into (so that asking allocates
	// nothing).
	v        View
	dv       DirectorView
	ruled    Outcome
	spendBuf [16]int
	// undo keeps the play before a step whose last question may be
	// refused (Engine.Step's spending), made on first use.
	undo *State
	// ruledBy is the outcome table as the shipped Director rules it,
	// worked out when the state is made or checked (see shipped);
	// resolved the last name a test rolled (see subjectOf).
	ruledBy  *ruledBy
	resolved resolvedName
}

// NewState checks the rules and the sheet (unknown names, ratings outside
// 0..MaxRating) and returns a character with no harm, ruled by the
// "table" Director. The state keeps its own copies of rl and sh.
func NewState(rl Rules, sh Sheet) (*State, error) {
	if err := rl.Validate(); err != nil {
		return nil, err
	}
	if err := rl.checkSheet(&sh); err != nil {
		return nil, err
	}
	s := &State{Rules: rl.clone(), Sheet: sh.clone(), Director: "table"}
	s.Harm = make([]TrackHarm, len(rl.HarmTracks))
	for i, name := range rl.HarmTracks {
		s.Harm[i] = TrackHarm{Track: name, Rows: make([]int, len(rl.HarmRows))}
	}
	if _, err := s.shipped(); err != nil {
		return nil, err
	}
	return s, nil
}

// checkSheet says what is wrong with a sheet under rl: a name that is no
// Attribute or Action, or a rating outside 0..MaxRating.
func (rl *Rules) checkSheet(s *Sheet) error {
	switch {
	case len(s.Name) > maxName:
		return fmt.Errorf("sheet name of %d bytes, at most %d", len(s.Name), maxName)
	case len(s.Attributes) > len(rl.Attributes) || len(s.Actions) > len(rl.Actions):
		return fmt.Errorf("sheet rates %d attributes and %d actions; the rules have %d and %d",
			len(s.Attributes), len(s.Actions), len(rl.Attributes), len(rl.Actions))
	case len(s.Equipment) > maxList:
		return fmt.Errorf("sheet equipment: %d items, at most %d", len(s.Equipment), maxList)
	}
	for i, e := range s.Equipment {
		if e == "" || len(e) > maxName {
			return fmt.Errorf("sheet equipment[%d]: a name of 1..%d bytes, not %d", i, maxName, len(e))
		}
	}
	for _, name := range sortedKeys(s.Attributes) {
		if _, err := rl.AttributeIndex(name); err != nil {
			return fmt.Errorf("sheet attributes: %w", err)
		}
		if v := s.Attributes[name]; v < 0 || v > rl.MaxRating {
			return fmt.Errorf("sheet attributes: %s rated %d, allowed 0..%d", name, v, rl.MaxRating)
		}
	}
	for _, name := range sortedKeys(s.Actions) {
		if _, err := rl.ActionIndex(name); err != nil {
			return fmt.Errorf("sheet actions: %w", err)
		}
		if v := s.Actions[name]; v < 0 || v > rl.MaxRating {
			return fmt.Errorf("sheet actions: %s rated %d, allowed 0..%d", name, v, rl.MaxRating)
		}
	}
	return nil
}

// sortedKeys returns m's keys, sorted.
func sortedKeys(m map[string]int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// TrackHarm is the harm on one harm track ("Harm"): the track's name, how
// many slots of each row are filled (Rows[i] for Rules.HarmRows[i], level
// i+1: lesser, moderate, severe by default), and the critical injuries
// harm past its top row has caused.
type TrackHarm struct {
	Track    string `json:"track"`
	Rows     []int  `json:"rows"`
	Critical int    `json:"critical"`
}

// Clone returns a deep copy, sharing nothing with s.
func (s *State) Clone() *State {
	out := &State{Rules: s.Rules.clone(), Sheet: s.Sheet.clone(), Director: s.Director}
	out.copyPlay(s)
	return out
}

// playClone returns a copy of what changes in play (see copyPlay), with
// no rules, sheet or Director: scratch for the exact odds.
func (s *State) playClone() *State {
	out := &State{}
	out.copyPlay(s)
	return out
}

// copyPlay overwrites what changes in play — harm, counters, the attempts
// — with src's, reusing s's slices when they fit. The rules, the sheet and
// the Director are left as they are.
func (s *State) copyPlay(src *State) {
	if len(s.Harm) != len(src.Harm) {
		s.Harm = make([]TrackHarm, len(src.Harm))
	}
	for i, h := range src.Harm {
		rows := s.Harm[i].Rows
		if len(rows) != len(h.Rows) {
			rows = make([]int, len(h.Rows))
		}
		copy(rows, h.Rows)
		s.Harm[i] = TrackHarm{Track: h.Track, Rows: rows, Critical: h.Critical}
	}
	s.FlashbacksUsed = src.FlashbacksUsed
	s.Bonus = src.Bonus
	s.Attempt.copyFrom(&src.Attempt)
	s.Flashback.copyFrom(&src.Flashback)
}

// copyFrom overwrites at with a deep copy of src, reusing at's slices.
func (at *Attempt) copyFrom(src *Attempt) {
	dice, rerolled, bought, cons := at.Dice[:0], at.Rerolled[:0], at.Bought[:0], at.Outcome.Consequences[:0]
	*at = *src
	at.Dice = append(dice, src.Dice...)
	at.Rerolled = append(rerolled, src.Rerolled...)
	at.Bought = append(bought, src.Bought...)
	at.Outcome.Consequences = append(cons, src.Outcome.Consequences...)
}

// maxCritical bounds the critical injuries a saved state may count.
const maxCritical = 1 << 20

// Check validates the state whole, before any step reads it: the rules,
// the sheet against them, the Director's name and its ruling on every
// cell of the outcome table, the harm tracks' shape and slot counts, the
// counters, and both attempts whole. A state that passes can be played on
// by every step, which read what Check worked out (the Director's ruling,
// what a name rolls) rather than look it up again. Every list is counted
// before it is read: the rules' (see Rules), one harm entry a track and
// one count a harm row, at most 200 items of equipment, at most 256 dice
// a roll (a push's among them) and no more effects bought than successes
// spent.
func (s *State) Check() error { return s.check(nil) }

// check is Check with d, when not nil, the Director the state must name
// (a scenario's own); nil looks the state's Director up among the shipped.
func (s *State) check(d Director) error {
	s.resolved = resolvedName{} // names are resolved afresh from what is checked
	rl := &s.Rules
	if err := rl.Validate(); err != nil {
		return err
	}
	if err := rl.checkSheet(&s.Sheet); err != nil {
		return fmt.Errorf("actiontest: %w", err)
	}
	if err := s.checkDirector(d); err != nil {
		return err
	}
	if len(s.Harm) != len(rl.HarmTracks) {
		return fmt.Errorf("actiontest: state has %d harm tracks, rules have %d (%s)",
			len(s.Harm), len(rl.HarmTracks), named.Allowed(rl.HarmTracks))
	}
	for t, h := range s.Harm {
		if h.Track != rl.HarmTracks[t] {
			return fmt.Errorf("actiontest: state harm[%d] is track %.40q, the rules' track %d is %.40q (tracks in the rules' order: %s)",
				t, h.Track, t, rl.HarmTracks[t], named.Allowed(rl.HarmTracks))
		}
		if len(h.Rows) != len(rl.HarmRows) {
			return fmt.Errorf("actiontest: state %s harm has %d rows, rules have %d (%s)", h.Track, len(h.Rows), len(rl.HarmRows), rowNames(rl))
		}
		for i, n := range h.Rows {
			if n < 0 || n > rl.HarmRows[i].Slots {
				return fmt.Errorf("actiontest: state %s harm, %s row: %d, allowed 0..%d", h.Track, rl.HarmRows[i].Name, n, rl.HarmRows[i].Slots)
			}
		}
		if h.Critical < 0 || h.Critical > maxCritical {
			return fmt.Errorf("actiontest: state %s harm: %d critical injuries, allowed 0..%d", h.Track, h.Critical, maxCritical)
		}
	}
	if s.FlashbacksUsed < 0 || s.FlashbacksUsed > rl.FlashbacksPerDay {
		return fmt.Errorf("actiontest: state flashbacks_used %d, allowed 0..%d", s.FlashbacksUsed, rl.FlashbacksPerDay)
	}
	if s.Bonus < 0 || s.Bonus > maxDice/4 {
		return fmt.Errorf("actiontest: state bonus %d, allowed 0..%d", s.Bonus, maxDice/4)
	}
	if err := s.Attempt.check(rl, false); err != nil {
		return fmt.Errorf("actiontest: state attempt: %w", err)
	}
	if err := s.Flashback.check(rl, true); err != nil {
		return fmt.Errorf("actiontest: state flashback: %w", err)
	}
	if s.Attempt.Stage == Rolled && s.Flashback.Stage == Rolled {
		return fmt.Errorf("actiontest: state has both an action roll and a flashback in flight; one roll is in flight at a time")
	}
	return nil
}

// check says what is wrong with a saved attempt under rl: its test, its
// pool, its dice and the result it records must agree with each other and
// with the rules. flashback says which record it is.
func (at *Attempt) check(rl *Rules, flashback bool) error {
	if !stageNames.Valid(at.Stage) {
		return fmt.Errorf("stage %d, allowed %s", at.Stage, named.Allowed(stageNames))
	}
	if at.Stage == NotBegun {
		if len(at.Dice) != 0 || len(at.Rerolled) != 0 || at.Pushed || at.Successes != 0 || len(at.Bought) != 0 {
			return fmt.Errorf("an attempt not begun records dice or a result")
		}
		return nil
	}
	if at.Test.Flashback != flashback {
		return fmt.Errorf("test flashback %v, this record holds flashback %v", at.Test.Flashback, flashback)
	}
	if err := rl.checkTest(&at.Test); err != nil {
		return fmt.Errorf("test: %w", err)
	}
	if at.Test.Position == DefaultPosition {
		return fmt.Errorf("test: a begun test records its position resolved, not \"\" (allowed: %s)", named.Allowed(rl.Positions))
	}
	if err := at.checkDice(rl); err != nil {
		return err
	}
	if at.Opponent < 0 || at.Opponent > at.Test.Opponent {
		return fmt.Errorf("opponent's successes %d, allowed 0..%d (the opponent's pool)", at.Opponent, at.Test.Opponent)
	}
	if at.Stage == Rolled {
		if at.Required != 0 || at.Extra != 0 || at.Band != 0 || at.Retry || at.HarmTaken || at.Spent != 0 || len(at.Bought) != 0 {
			return fmt.Errorf("a rolled, unfinished attempt records a result")
		}
		return nil
	}
	return at.checkResult(rl)
}

// checkDice checks the pool, the faces and the successes counted.
func (at *Attempt) checkDice(rl *Rules) error {
	p := &at.Pool
	if p.Dice < 0 || p.Dice > maxDice-rl.PushDice {
		return fmt.Errorf("pool of %d dice, allowed 0..%d", p.Dice, maxDice-rl.PushDice)
	}
	for _, n := range [...]int{p.Action, p.Attribute, p.Help, p.Equipment, p.Peril, p.Carried, p.Bonus, p.Penalty} {
		if n < -maxDice || n > maxDice {
			return fmt.Errorf("a pool term of %d dice, allowed %d..%d", n, -maxDice, maxDice)
		}
	}
	noRoll := at.Test.Flashback && at.Test.Difficulty == 0 && !rl.ZeroFlashbackRolls
	want := p.Dice
	if noRoll {
		want = 0
	}
	if len(at.Dice) != want {
		return fmt.Errorf("%d dice rolled, the pool has %d", len(at.Dice), want)
	}
	hits, err := countFaces(rl, at.Dice)
	if err != nil {
		return fmt.Errorf("dice: %w", err)
	}
	if !at.Pushed {
		if at.Kept != 0 || len(at.Rerolled) != 0 || at.PushTrack != "" {
			return fmt.Errorf("an attempt not pushed records a push")
		}
		if at.Successes != hits {
			return fmt.Errorf("successes %d, the dice show %d", at.Successes, hits)
		}
		return nil
	}
	if _, err := rl.TrackIndex(at.PushTrack); err != nil {
		return fmt.Errorf("push_track: %w", err)
	}
	if at.Kept != hits || len(at.Rerolled) != len(at.Dice)-hits+rl.PushDice {
		return fmt.Errorf("push kept %d of %d successes and re-rolled %d dice, allowed %d", at.Kept, hits, len(at.Rerolled), len(at.Dice)-hits+rl.PushDice)
	}
	more, err := countFaces(rl, at.Rerolled)
	if err != nil {
		return fmt.Errorf("rerolled: %w", err)
	}
	if at.Successes != hits+more {
		return fmt.Errorf("successes %d, the dice show %d", at.Successes, hits+more)
	}
	return nil
}

// countFaces counts the successes among faces, or says which face is not
// a face of the rules' die.
func countFaces(rl *Rules, faces []int) (int, error) {
	n := 0
	for i, f := range faces {
		if f < 1 || f > rl.Sides {
			return 0, fmt.Errorf("face %d at %d, allowed 1..%d", f, i, rl.Sides)
		}
		if f >= rl.SuccessFace {
			n++
		}
	}
	return n, nil
}

// checkResult checks what Finish and Spend recorded on a finished attempt.
func (at *Attempt) checkResult(rl *Rules) error {
	t := &at.Test
	switch {
	case at.MustPush && !at.Pushed:
		return fmt.Errorf("finished without the push it needed")
	case !t.Opposed && at.Required != t.Difficulty:
		return fmt.Errorf("required %d, the test's difficulty is %d", at.Required, t.Difficulty)
	case t.Opposed && (at.Required < 1 || at.Required > maxDice+1 || at.Retry):
		return fmt.Errorf("an opposed roll requires %d (1..%d, one more than the opponent's successes) and retries %v", at.Required, maxDice+1, at.Retry)
	case t.Opposed && t.Opponent > 0 && at.Required != at.Opponent+1:
		return fmt.Errorf("an opposed roll requires %d, one more than the opponent's %d successes", at.Required, at.Opponent)
	case at.Band != rl.BandOf(at.Successes, at.Required):
		return fmt.Errorf("band %s, the roll's is %s", at.Band, rl.BandOf(at.Successes, at.Required))
	case at.Extra != max(at.Successes-at.Required, 0):
		return fmt.Errorf("extra %d, the roll has %d", at.Extra, max(at.Successes-at.Required, 0))
	case at.Spent < 0 || at.Spent > at.Extra:
		return fmt.Errorf("spent %d of %d extra successes", at.Spent, at.Extra)
	case len(at.Bought) > at.Spent:
		return fmt.Errorf("%d effects bought with %d successes", len(at.Bought), at.Spent)
	case !at.Retry && at.NextPosition != DefaultPosition:
		return fmt.Errorf("next position %.40q without a retry", at.NextPosition)
	case at.Retry && t.Flashback:
		return fmt.Errorf("a flashback has no retry")
	case !at.HarmTaken && (at.HarmRow != "" || at.HarmCritical):
		return fmt.Errorf("harm row %.40q or a critical injury recorded with no harm taken", at.HarmRow)
	case at.HarmTaken && at.HarmCritical != (at.HarmRow == ""):
		return fmt.Errorf("harm taken: name the row it filled (%s) or mark it critical, one of the two", rowNames(rl))
	case at.HarmTaken && !at.HarmCritical && rl.rowAt(at.HarmRow) < 0:
		return fmt.Errorf("harm row %.40q, allowed %s", at.HarmRow, rowNames(rl))
	}
	if at.Retry {
		if next, err := rl.Worse(t.Position); err != nil || at.NextPosition != next {
			return fmt.Errorf("retry at position %.40q after position %.40q, allowed only the next worse position (positions, best first: %s)",
				at.NextPosition, t.Position, named.Allowed(rl.Positions))
		}
	}
	if err := checkOutcome(rl, &at.Outcome); err != nil {
		return fmt.Errorf("outcome: %w", err)
	}
	for i, b := range at.Bought {
		if _, err := rl.EffectIndex(b.Effect); err != nil {
			return fmt.Errorf("bought[%d]: %w", i, err)
		}
		if b.Track != "" || b.Row != "" {
			if _, err := rl.TrackIndex(b.Track); err != nil {
				return fmt.Errorf("bought[%d]: %w", i, err)
			}
			if rl.rowAt(b.Row) < 0 {
				return fmt.Errorf("bought[%d]: harm row %.40q, allowed %s", i, b.Row, rowNames(rl))
			}
		}
	}
	return nil
}

// rowNames lists the harm rows' names for an error message.
func rowNames(rl *Rules) string {
	names := make([]string, len(rl.HarmRows))
	for i, r := range rl.HarmRows {
		names[i] = r.Name
	}
	return named.Allowed(names)
}

// clone returns a copy of the sheet with its own maps.
func (s Sheet) clone() Sheet {
	out := s
	out.Attributes, out.Actions = maps.Clone(s.Attributes), maps.Clone(s.Actions)
	out.Equipment = slices.Clone(s.Equipment)
	return out
}

// clone returns a deep copy of the rules.
func (rl *Rules) clone() Rules {
	out := *rl
	out.Attributes = slices.Clone(rl.Attributes)
	out.Actions = slices.Clone(rl.Actions)
	out.HarmTracks = slices.Clone(rl.HarmTracks)
	out.HarmRows = slices.Clone(rl.HarmRows)
	out.Positions = slices.Clone(rl.Positions)
	out.Table = slices.Clone(rl.Table)
	for i := range out.Table {
		for b := BandMultiple; b <= BandFailure; b++ {
			o := out.Table[i].Cell(b)
			o.Consequences = slices.Clone(o.Consequences)
		}
	}
	out.Effects = slices.Clone(rl.Effects)
	for i := range out.Effects {
		out.Effects[i].Actions = slices.Clone(out.Effects[i].Actions)
	}
	return out
}
