package actiontest

import (
	"errors"
	"fmt"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/named"
)

// Sentinel errors for rejected steps; the returned errors wrap them and say
// more.
var (
	ErrStage         = errors.New("actiontest: step out of order")
	ErrInFlight      = errors.New("actiontest: a roll is in flight; finish it first")
	ErrPushTwice     = errors.New("actiontest: a push is once per action")
	ErrNoSpace       = errors.New("actiontest: no space for the push's harm")
	ErrPerilPush     = errors.New("actiontest: a roll that risked peril cannot be pushed")
	ErrIncapacitated = errors.New("actiontest: cannot act with severe harm unless helped or pushing")
	ErrFlashbacks    = errors.New("actiontest: no flashbacks left today")
	ErrMustPush      = errors.New("actiontest: this roll must be pushed before it is finished")
	ErrEquipment     = errors.New("actiontest: the action needs equipment the character does not carry")
)

// checkTest says what is wrong with t under the rules.
func (rl *Rules) checkTest(t *Test) error {
	if _, _, err := rl.Subject(t.Action); err != nil {
		return err
	}
	return rl.checkFields(t)
}

// checkFields says what is wrong with t's numbers and flags under the
// rules (its Action's name aside).
func (rl *Rules) checkFields(t *Test) error {
	if t.Position != DefaultPosition && rl.positionAt(t.Position) < 0 {
		return rl.unknownPosition(t.Position)
	}
	switch {
	case t.Opposed && (t.Flashback || t.Escalate || t.Difficulty != 0):
		return fmt.Errorf("actiontest: an opposed roll has difficulty 0 (not %d), no escalation and is no flashback; the opponent's successes decide it", t.Difficulty)
	case t.Opponent < 0 || t.Opponent > maxDice/4 || (!t.Opposed && (t.Opponent != 0 || t.NPC)):
		return fmt.Errorf("actiontest: opponent pool %d (npc %v): allowed 0..%d, and only on an opposed roll", t.Opponent, t.NPC, maxDice/4)
	case len(t.Requires) > maxName:
		return fmt.Errorf("actiontest: required equipment name of %d bytes, at most %d", len(t.Requires), maxName)
	case t.Flashback && t.Difficulty < 0:
		return fmt.Errorf("actiontest: flashback difficulty %d, must be >= 0 (0 or 1 ordinary, 2 complex, 3 or more elaborate)", t.Difficulty)
	case !t.Flashback && !t.Opposed && t.Difficulty < 1:
		return fmt.Errorf("actiontest: difficulty %d, must be >= 1 (normal 1, challenging 2, difficult 3)", t.Difficulty)
	case t.Difficulty > maxDice:
		return fmt.Errorf("actiontest: difficulty %d, at most %d", t.Difficulty, maxDice)
	case t.Helpers < 0 || t.Helpers > maxDice:
		return fmt.Errorf("actiontest: helpers %d, allowed 0..%d", t.Helpers, maxDice)
	case t.Equipment < 0 || t.Equipment > rl.MaxEquipment:
		return fmt.Errorf("actiontest: equipment bonus %d, allowed 0..%d", t.Equipment, rl.MaxEquipment)
	case t.Bonus < -maxDice/4 || t.Bonus > maxDice/4:
		return fmt.Errorf("actiontest: bonus %d, allowed %d..%d", t.Bonus, -maxDice/4, maxDice/4)
	case t.PerilHarm != 0 && (t.PerilHarm < rl.MinPerilHarm || t.PerilHarm > len(rl.HarmRows)):
		return fmt.Errorf("actiontest: peril harm level %d, allowed 0 (a price that is not harm) or %d..%d", t.PerilHarm, rl.MinPerilHarm, len(rl.HarmRows))
	}
	if t.HarmTrack != "" {
		if _, err := rl.TrackIndex(t.HarmTrack); err != nil {
			return err
		}
	}
	return nil
}

// count checks t (already checked against the rules) against the
// character's state — flashbacks left, pool size, Severe harm — and fills
// p with its pool ("Adding Dice and Altering the Outcome": every term is
// added together, but at least MinDice dice are rolled). It returns
// whether the character may act only by pushing. pushed says the action
// was pushed before a Worse Position retry.
func (c *game) count(p *Pool, t *Test, s subject, pushed bool) (must bool, err error) {
	rl := c.rules
	pen, incap := c.harmLoad()
	p.Action, p.Attribute, p.Equipment, p.Bonus = s.action, s.attribute, t.Equipment, t.Bonus
	p.Help, p.Carried, p.Penalty, p.Peril = min(t.Helpers*rl.HelpDice, rl.MaxHelp), c.State.Bonus, pen, 0
	if t.Peril {
		p.Peril = rl.PerilDice
	}
	p.Dice = max(p.Action+p.Attribute+p.Help+p.Equipment+p.Peril+p.Carried+p.Bonus-p.Penalty, rl.MinDice)
	if t.Flashback && c.State.FlashbacksUsed >= rl.FlashbacksPerDay {
		return false, fmt.Errorf("%w (%d of %d used)", ErrFlashbacks, c.State.FlashbacksUsed, rl.FlashbacksPerDay)
	}
	if p.Dice+rl.PushDice > maxDice {
		return false, fmt.Errorf("actiontest: a pool of %d dice is too large (at most %d with a push)", p.Dice, maxDice)
	}
	// "Severe: cannot act unless helped or pushing" [ours, Blades-like].
	if !incap || t.Helpers > 0 || c.noRoll(t) {
		return false, nil
	}
	switch {
	case t.Peril:
		return false, fmt.Errorf("%w: risking peril forbids the push that would let the character act", ErrIncapacitated)
	case pushed && !rl.RetryMayPush:
		return false, fmt.Errorf("%w: the action was pushed already", ErrIncapacitated)
	case c.pushTrack(s.track) < 0:
		return false, fmt.Errorf("%w: no harm space left to push", ErrIncapacitated)
	}
	return true, nil
}

// noRoll says whether t is a flashback that rolls no dice: difficulty 0
// under the default ruling.
func (c *game) noRoll(t *Test) bool {
	return t.Flashback && t.Difficulty == 0 && !c.rules.ZeroFlashbackRolls
}

// inFlight returns the roll in flight, the action's or a flashback's, or
// nil.
func (c *game) inFlight() *Attempt {
	switch {
	case c.State.Attempt.Stage == Rolled:
		return &c.State.Attempt
	case c.State.Flashback.Stage == Rolled:
		return &c.State.Flashback
	}
	return nil
}

// slot is the record a test of this kind is played into.
func (c *game) slot(t *Test) *Attempt {
	if t.Flashback {
		return &c.State.Flashback
	}
	return &c.State.Attempt
}

// Begin starts an action test, or a flashback (Test.Flashback): it checks
// the test, pays a Risk Peril cost, spends the carried bonus dice (and a
// flashback, for a flashback test) and rolls the pool into State.Attempt
// (or State.Flashback). A flashback of difficulty 0 rolls nothing and will
// succeed. A roll already in flight must be finished first (ErrInFlight):
// beginning again would be a free re-roll. On error nothing changes.
func (c *game) Begin(r *dice.Roller, t Test) error {
	s, err := c.canBegin(&t)
	if err != nil {
		return err
	}
	return c.countAndRoll(r, &t, s, false)
}

// countAndRoll counts t's pool and, if the count allows the roll, rolls it:
// the last two steps of Begin and Retry. Nothing changes on an error.
func (c *game) countAndRoll(r *dice.Roller, t *Test, s subject, pushed bool) error {
	var pool Pool
	must, err := c.count(&pool, t, s, pushed)
	if err != nil {
		return err
	}
	c.roll(r, t, s, &pool, must, pushed)
	return nil
}

// CanBegin reports why Begin would refuse t now, or nil: the checks Begin
// makes, for menus and bots, rolling nothing and changing nothing.
func (c *game) CanBegin(t Test) error {
	s, err := c.canBegin(&t)
	if err != nil {
		return err
	}
	var pool Pool
	_, err = c.count(&pool, &t, s, false)
	return err
}

// CanRetry reports why Retry would refuse t now, or nil.
func (c *game) CanRetry(t Test) error {
	pushed, err := c.canRetry(&t)
	if err != nil {
		return err
	}
	s, _ := c.subjectOf(t.Action)
	var pool Pool
	_, err = c.count(&pool, &t, s, pushed)
	return err
}

// canBegin says why no test can begin now, or what is wrong with t.
func (c *game) canBegin(t *Test) (subject, error) {
	s, err := c.subjectOf(t.Action)
	if err != nil {
		return s, err
	}
	return s, c.canBeginAs(t)
}

// canBeginAs is canBegin for a test whose name resolved.
func (c *game) canBeginAs(t *Test) error {
	if at := c.inFlight(); at != nil {
		return fmt.Errorf("%w (a roll of %s, flashback %v)", ErrInFlight, at.Test.Action, at.Test.Flashback)
	}
	if err := c.rules.checkFields(t); err != nil {
		return err
	}
	return c.equipped(t)
}

// equipped says whether the character carries the equipment t requires.
func (c *game) equipped(t *Test) error {
	if t.Requires == "" || containsName(c.State.Sheet.Equipment, t.Requires) {
		return nil
	}
	return fmt.Errorf("%w: %s needs %.40q (carried: %s)", ErrEquipment, t.Action, t.Requires, named.Allowed(c.State.Sheet.Equipment))
}

// Retry re-rolls the action at the worse position its last roll's Worse
// Position consequence set ("Worse Position": you haven't failed, but you
// haven't succeeded yet; try again, re-rolling at the new, worse
// position). t is the re-roll's test: the same Action and difficulty at
// State.Attempt.NextPosition (Test.At of the last one, or changed as
// the table rules: help, equipment, a new Risk Peril deal). The re-roll
// belongs to the same action, so a push made before it counts (see
// Rules.RetryMayPush). On error nothing changes.
func (c *game) Retry(r *dice.Roller, t Test) error {
	pushed, err := c.canRetry(&t)
	if err != nil {
		return err
	}
	s, _ := c.subjectOf(t.Action)
	return c.countAndRoll(r, &t, s, pushed)
}

// canRetry says why t cannot be the re-roll now, or whether the action
// was pushed already.
func (c *game) canRetry(t *Test) (pushed bool, err error) {
	if c.inFlight() != nil {
		return false, fmt.Errorf("%w: a retry follows a finished roll", ErrInFlight)
	}
	return c.retryOf(t)
}

// retryOf says why t cannot be the re-roll of the last roll (in flight or
// not), or whether the action was pushed already.
func (c *game) retryOf(t *Test) (pushed bool, err error) {
	last := &c.State.Attempt
	switch {
	case last.Stage != Finished || !last.Retry:
		return false, fmt.Errorf("%w: a retry follows a finished roll whose outcome asks for one", ErrStage)
	case t.Flashback || t.Action != last.Test.Action || t.Difficulty != last.Test.Difficulty || t.Position != last.NextPosition:
		return false, fmt.Errorf("%w: the retry is %s at difficulty %d and position %.40q, not a flashback", ErrStage, last.Test.Action, last.Test.Difficulty, last.NextPosition)
	}
	return last.Pushed || last.ActionPushed, c.rules.checkFields(t)
}

// roll applies a checked, counted test: it records it, pays what starting
// it costs and rolls.
func (c *game) roll(r *dice.Roller, t *Test, s subject, pool *Pool, must, pushed bool) {
	at := c.slot(t)
	if !c.start(at, t, s, pool, must, pushed) {
		return
	}
	at.Dice, at.Successes = r.RollCount(pool.Dice, c.rules.Sides, c.rules.SuccessFace, at.Dice[:0])
	if c.Sink != nil {
		c.emit(Event{Kind: EvRoll, Dice: at.Dice, Successes: at.Successes, Pool: at.Pool.Dice, Action: t.Action, Position: at.Test.Position, Flashback: t.Flashback})
	}
	if t.Opposed && t.Opponent > 0 {
		// "You and your opponent each make a roll": the opponent's dice
		// pass through the re-roll buffer, empty until a push.
		var opp []int
		opp, at.Opponent = r.RollCount(t.Opponent, c.rules.Sides, c.rules.SuccessFace, at.Rerolled[:0])
		if c.Sink != nil {
			c.emit(Event{Kind: EvOpponent, Dice: opp, Successes: at.Opponent, Pool: t.Opponent, NPC: t.NPC})
		}
		at.Rerolled = opp[:0]
	}
}

// start records a checked, counted test on at, marked rolled, and pays
// what starting it costs: a flashback, the carried dice, a Risk Peril
// deal's harm. It reports whether the test has dice to roll.
func (c *game) start(at *Attempt, t *Test, s subject, pool *Pool, must, pushed bool) (roll bool) {
	dice, rerolled, bought, cons := at.Dice[:0], at.Rerolled[:0], at.Bought[:0], at.Outcome.Consequences[:0]
	*at = Attempt{}
	at.Test, at.Stage, at.Pool, at.MustPush, at.ActionPushed = *t, Rolled, *pool, must, pushed
	at.Dice, at.Rerolled, at.Bought, at.Outcome.Consequences = dice, rerolled, bought, cons
	at.Test.Position = c.rules.position(t.Position)
	if t.Flashback {
		c.State.FlashbacksUsed++
		c.emit(Event{Kind: EvFlashback, Level: t.Difficulty})
		if c.noRoll(t) {
			return false // no roll, so the carried dice wait for the next one
		}
	}
	c.State.Bonus = 0
	if t.Peril {
		c.emit(Event{Kind: EvPeril, Level: t.PerilHarm, Pool: c.rules.PerilDice})
		if t.PerilHarm > 0 {
			c.takeHarm(t.PerilHarm, c.harmTrackOf(t, s))
		}
	}
	return true
}

// harmTrackOf is the track the table's harm lands on for t (checked),
// which rolls s: its HarmTrack, or s's natural track.
func (c *game) harmTrackOf(t *Test, s subject) int {
	switch {
	case t.HarmTrack != "":
		return c.rules.trackAt(t.HarmTrack)
	case s.track < 0:
		s, _ = c.subjectOf(t.Action)
	}
	return s.track
}

// unresolved stands for the subject of a test finished by hand: what it
// rolls is resolved only if the table's harm needs its natural track.
func unresolved() subject { return subject{act: -1, track: -1} }

// CanPush reports why the roll in flight may not be pushed now with the
// push's harm on the named track, or nil. It is the check Push makes, for
// menus and bots.
func (c *game) CanPush(track string) error {
	at := c.inFlight()
	if at == nil {
		return fmt.Errorf("%w: push needs a rolled, unfinished test", ErrStage)
	}
	t, err := c.rules.TrackIndex(track)
	if err != nil {
		return err
	}
	return c.canPush(at, t)
}

// pushBar is why a roll may not be pushed; noBar means it may.
type pushBar uint8

const (
	noBar pushBar = iota
	barStage
	barPushed
	barActionPushed
	barPeril
	barNoRoll
	barTrack
	barSpace
	barCorrupt
)

// pushBarOf says whether attempt at may be pushed with its harm on track
// t. It is the one rule behind Push, CanPush and the policies' View.
func (c *game) pushBarOf(at *Attempt, t int) pushBar {
	if bar := attemptBar(at, c.rules); bar != noBar {
		return bar
	}
	if bar := c.testBar(&at.Test, at.ActionPushed); bar != noBar {
		return bar
	}
	return c.trackBar(t)
}

// attemptBar is the part of pushBarOf about the roll itself: rolled, not
// pushed, its successes among its dice.
func attemptBar(at *Attempt, rl *Rules) pushBar {
	switch {
	case at.Stage != Rolled:
		return barStage
	case at.Pushed:
		return barPushed
	case at.Successes < 0 || at.Successes > len(at.Dice) || len(at.Dice) > maxDice-rl.PushDice:
		return barCorrupt
	}
	return noBar
}

// testBar is the part of pushBarOf about the test: whether a roll of test
// t, in an action pushed already or not, may be pushed at all.
func (c *game) testBar(t *Test, actionPushed bool) pushBar {
	switch {
	case actionPushed && !c.rules.RetryMayPush:
		return barActionPushed
	case t.Peril:
		return barPeril
	case c.noRoll(t):
		return barNoRoll
	}
	return noBar
}

// trackBar is the part of pushBarOf about the harm: track t must exist
// and have room for the push's harm.
func (c *game) trackBar(t int) pushBar {
	switch {
	case t < 0 || t >= len(c.rules.HarmTracks):
		return barTrack
	case !hasSpace(c.rules, c.State, t):
		return barSpace
	}
	return noBar
}

// canPush is CanPush for attempt at and track index t.
func (c *game) canPush(at *Attempt, t int) error {
	rl := c.rules
	switch c.pushBarOf(at, t) {
	case barStage:
		return fmt.Errorf("%w: push needs a rolled, unfinished test (stage %.40q)", ErrStage, at.Stage.String())
	case barPushed:
		return ErrPushTwice
	case barActionPushed:
		return fmt.Errorf("%w: the action was pushed before its Worse Position retry", ErrPushTwice)
	case barPeril:
		return ErrPerilPush
	case barNoRoll:
		return fmt.Errorf("%w: a flashback of difficulty 0 has no roll to push", ErrStage)
	case barTrack:
		return fmt.Errorf("actiontest: push harm track %d, allowed 0..%d (%s)", t, len(rl.HarmTracks)-1, named.Allowed(rl.HarmTracks))
	case barSpace:
		return fmt.Errorf("%w: the %s track has no room for a level %d harm (rule %.40q)", ErrNoSpace, rl.HarmTracks[t], rl.PushHarm, rl.PushSpace)
	case barCorrupt:
		return fmt.Errorf("actiontest: %d successes of %d dice cannot be pushed (the state is corrupt)", at.Successes, len(at.Dice))
	}
	return nil
}

// Push pushes the roll in flight ("Pushing the Roll"): the character takes
// a level PushHarm harm on the named track, and every die of the first
// roll that is not a success is re-rolled together with PushDice more
// dice; the successes stay. It may follow a success, but only once per
// action. By default the push's own harm does not shrink the re-roll
// (Rules.PushHarmShrinks). On error nothing changes.
func (c *game) Push(r *dice.Roller, track string) error {
	at := c.inFlight()
	if at == nil {
		return fmt.Errorf("%w: push needs a rolled, unfinished test", ErrStage)
	}
	t, err := c.rules.TrackIndex(track)
	if err != nil {
		return err
	}
	if err := c.canPush(at, t); err != nil {
		return err
	}
	kept, n := c.payPush(at, t)
	var hit int
	at.Rerolled, hit = r.RollCount(n, c.rules.Sides, c.rules.SuccessFace, at.Rerolled[:0])
	at.Successes = kept + hit
	if c.Sink != nil {
		c.emit(Event{Kind: EvPush, Dice: at.Rerolled, Successes: at.Successes, Pool: len(at.Rerolled), Track: at.PushTrack})
	}
	return nil
}

// payPush marks the push and its harm on track t and returns the
// successes kept and the dice to re-roll: every die that is not a
// success, PushDice more, less what the new harm costs when the rules
// say it shrinks the re-roll (but at least MinDice).
func (c *game) payPush(at *Attempt, t int) (kept, n int) {
	rl := c.rules
	at.Pushed = true
	at.PushTrack = rl.HarmTracks[t]
	at.Kept = at.Successes
	n = len(at.Dice) - at.Kept + rl.PushDice
	if !rl.PushHarmShrinks {
		c.takeHarm(rl.PushHarm, t)
		return at.Kept, n
	}
	before := c.Penalty()
	c.takeHarm(rl.PushHarm, t)
	n = max(n-(c.Penalty()-before), rl.MinDice)
	return at.Kept, n
}

// Finish reads the roll in flight against the position x outcome table
// and applies it: the table's harm, dice carried to the next roll, a
// successful flashback's bonus, or a Worse Position retry. On error
// nothing changes.
func (c *game) Finish() error {
	at := c.inFlight()
	if at == nil {
		return fmt.Errorf("%w: finish needs a rolled, unfinished test", ErrStage)
	}
	if at.MustPush && !at.Pushed {
		return ErrMustPush
	}
	return c.finish(at, unresolved())
}

// FinishOpposed reads the opposed roll in flight against the opponent's
// final successes ("Opposed Rolls": the most successes prevail; as many
// means neither succeeds nor fails, and against an NPC, npc, the Director
// may use a Consequence) and applies Rules.Opposed's outcome. Successes
// beyond the opponent's plus one are extra successes [ours]. On error
// nothing changes.
func (c *game) FinishOpposed(opponent int, npc bool) error {
	at := c.inFlight()
	switch {
	case at == nil:
		return fmt.Errorf("%w: finish needs a rolled, unfinished test", ErrStage)
	case !at.Test.Opposed:
		return fmt.Errorf("%w: the roll in flight is not opposed (Finish reads it)", ErrStage)
	case at.Test.Opponent > 0:
		return fmt.Errorf("%w: the engine rolled this opposed roll's opponent (Finish reads it)", ErrStage)
	case opponent < 0 || opponent > maxDice:
		return fmt.Errorf("actiontest: opponent's successes %d, allowed 0..%d", opponent, maxDice)
	case at.MustPush && !at.Pushed:
		return ErrMustPush
	}
	return c.finishOpposed(at, unresolved(), opponent, npc)
}

// finishOpposed applies an opposed roll's outcome.
func (c *game) finishOpposed(at *Attempt, s subject, opponent int, npc bool) error {
	op := &c.rules.Opposed
	o := &op.Lose
	switch {
	case at.Successes > opponent:
		o = &op.Win
	case at.Successes == opponent && npc:
		o = &op.TieNPC
	case at.Successes == opponent:
		o = &op.Tie
	}
	c.apply(at, s, opponent+1, o, false)
	if c.Sink != nil {
		c.emit(Event{Kind: EvOutcome, Successes: at.Successes, Level: at.Required, Outcome: at.Outcome.Kind, Opponent: opponent, Opposed: true})
	}
	return nil
}

// finish applies the outcome of a rolled attempt (checked by State.Check
// or written by the steps) from the position's row of the outcome table.
func (c *game) finish(at *Attempt, s subject) error {
	rl, t := c.rules, &at.Test
	if t.Opposed {
		if t.Opponent == 0 {
			return fmt.Errorf("%w: an opposed roll is finished against the opponent's successes (FinishOpposed)", ErrStage)
		}
		return c.finishOpposed(at, s, at.Opponent, t.NPC)
	}
	pos := rl.positionAt(t.Position)
	o, err := c.cell(pos, rl.BandOf(at.Successes, t.Difficulty))
	if err != nil {
		return err
	}
	// "Worse Position": a table that lists it, or a Director who answers
	// a failed roll with it (Test.Escalate), asks for a re-roll one
	// position worse; an escalated failure trades its consequences for
	// the re-roll. A flashback has no retry [ours].
	notWorst := pos+1 < len(rl.Positions) && !t.Flashback
	escalate := t.Escalate && at.Successes < t.Difficulty && notWorst
	c.apply(at, s, t.Difficulty, o, escalate)
	if at.Retry = escalate || (notWorst && hasKind(o.Consequences, WorsePosition)); at.Retry {
		at.NextPosition = Position(rl.Positions[pos+1])
	}
	if c.Sink != nil {
		c.emit(Event{Kind: EvOutcome, Successes: at.Successes, Level: at.Required, Outcome: at.Outcome.Kind, Retry: at.Retry, Position: at.NextPosition})
	}
	return nil
}

// apply records outcome o of a roll that needed required successes and
// applies it: dice carried to the next roll, a successful flashback's
// bonus, the outcome's harm — unless escalate trades the consequences
// for a Worse Position retry.
func (c *game) apply(at *Attempt, s subject, required int, o *Outcome, escalate bool) {
	rl, t := c.rules, &at.Test
	at.Stage, at.Required, at.Band = Finished, required, rl.BandOf(at.Successes, required)
	at.Extra = max(at.Successes-required, 0)
	// The attempt keeps its own copy of the consequences: the table is
	// the character's.
	cons := at.Outcome.Consequences[:0]
	at.Outcome = *o
	at.Outcome.Consequences = append(cons, o.Consequences...)
	if escalate {
		// "You haven't failed, but you haven't succeeded yet": whatever
		// the cell said, the action goes on undecided [ours].
		at.Outcome.Kind, at.Outcome.Succeeded, at.Outcome.NextBonus, at.Outcome.Severity = Neither, false, 0, NoSeverity
		at.Outcome.Consequences = append(cons, Consequence{Kind: WorsePosition})
	}
	c.State.Bonus = min(c.State.Bonus+o.NextBonus, maxDice/4)
	if t.Flashback && o.Succeeded {
		c.State.Bonus = min(c.State.Bonus+rl.FlashbackBonus, maxDice/4)
	}
	if !escalate && !t.NoHarm {
		for _, q := range o.Consequences {
			if q.Kind == Harm {
				at.HarmTaken, at.HarmRow, at.HarmCritical = true, "", false
				if row := c.takeHarm(q.Level, c.harmTrackOf(t, s)); row >= 0 {
					at.HarmRow = rl.HarmRows[row].Name
				} else {
					at.HarmCritical = true
				}
			}
		}
	}
}

func hasKind(qs []Consequence, k ConsequenceKind) bool {
	for _, q := range qs {
		if q.Kind == k {
			return true
		}
	}
	return false
}
