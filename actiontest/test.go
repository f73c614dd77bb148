package actiontest

import (
	"errors"
	"fmt"

	"github.com/stakesrpg/stakes/dice"
)

// Test is what the table decides before an action test is rolled.
type Test struct {
	// Action is the name of the Action used.
	Action string `json:"action"`
	// Position is set by the Director; a worse position has a larger index.
	Position Position `json:"position"`
	// Difficulty is the successes required: normal 1, challenging 2,
	// difficult 3; any n >= 1 is allowed. A flashback allows 0 (no roll).
	Difficulty int `json:"difficulty"`
	// Helpers is how many characters help (+HelpDice each, at most MaxHelp).
	Helpers int `json:"helpers,omitempty"`
	// Equipment is the equipment bonus, 0..MaxEquipment.
	Equipment int `json:"equipment,omitempty"`
	// Bonus is any other dice (a talent, say; negative for penalties).
	Bonus int `json:"bonus,omitempty"`
	// Peril accepts a Risk Peril deal: +PerilDice, the cost paid whatever
	// happens, and the roll may not be pushed. PerilOffered lets Play ask
	// the policy instead; PerilHarm is the deal's harm level (0: a cost that
	// is not harm).
	Peril        bool `json:"peril,omitempty"`
	PerilOffered bool `json:"peril_offered,omitempty"`
	PerilHarm    int  `json:"peril_harm,omitempty"`
	// NoHarm says the test risks no harm: the table's harm is not taken.
	NoHarm bool `json:"no_harm,omitempty"`
	// HarmTrack is the track the table's harm lands on; "" means the
	// Attribute's natural track.
	HarmTrack string `json:"harm_track,omitempty"`
	// Escalate says the Director answers a failure with Worse Position: the
	// character re-rolls at the next worse position instead of suffering the
	// failure's consequences (not at the worst position). The re-roll is a
	// new test, so it may be pushed again [ours].
	Escalate bool `json:"escalate,omitempty"`
	// Flashback marks a flashback test (see Character.Begin).
	Flashback bool `json:"flashback,omitempty"`
}

// Worse returns the test one position worse, as a re-roll after a Worse
// Position consequence.
func (t Test) Worse() Test {
	t.Position++
	return t
}

// Pool is how the dice of a test were counted: every term, and the total.
type Pool struct {
	Action    int `json:"action"`
	Attribute int `json:"attribute"`
	Help      int `json:"help"`
	Equipment int `json:"equipment"`
	Peril     int `json:"peril"`
	Carried   int `json:"carried"`
	Bonus     int `json:"bonus"`
	Penalty   int `json:"penalty"`
	// Dice is the sum, but never fewer than MinDice.
	Dice int `json:"dice"`
}

// Stage is how far an Attempt has come; its JSON form is "", "rolled" or
// "finished".
type Stage uint8

// Stages of an Attempt.
const (
	NotBegun Stage = iota
	Rolled
	Finished
)

var stageNames = [...]string{"", "rolled", "finished"}

// String returns the stage's name.
func (s Stage) String() string {
	if int(s) >= len(stageNames) {
		return fmt.Sprintf("stage(%d)", s)
	}
	return stageNames[s]
}

// MarshalText writes the stage's name.
func (s Stage) MarshalText() ([]byte, error) {
	if int(s) >= len(stageNames) {
		return nil, fmt.Errorf("actiontest: unknown stage %d", s)
	}
	return []byte(stageNames[s]), nil
}

// UnmarshalText reads a stage name.
func (s *Stage) UnmarshalText(b []byte) error {
	for i, n := range stageNames {
		if n == string(b) {
			*s = Stage(i)
			return nil
		}
	}
	return fmt.Errorf("actiontest: unknown stage %q (allowed: \"\", rolled, finished)", b)
}

// Attempt is one action test in progress and, once finished, its result.
// It saves and restores as JSON. Its fields are a record the steps write,
// not inputs; reuse one Attempt across tests and its dice buffers are
// reused too.
type Attempt struct {
	Test  Test  `json:"test"`
	Stage Stage `json:"stage"`
	// Pool is how many dice were rolled and why.
	Pool Pool `json:"pool"`
	// Dice are the faces first rolled.
	Dice []int `json:"dice"`
	// Pushed says the roll was pushed: the Kept successes of Dice stayed,
	// every other die was re-rolled with PushDice more dice into Rerolled,
	// and a harm was paid on PushTrack.
	Pushed    bool   `json:"pushed,omitempty"`
	PushTrack string `json:"push_track,omitempty"`
	Kept      int    `json:"kept,omitempty"`
	Rerolled  []int  `json:"rerolled,omitempty"`
	// MustPush says the character may act only by pushing (Severe harm and
	// no help).
	MustPush bool `json:"must_push,omitempty"`
	// Successes counts successes kept from Dice plus those in Rerolled.
	Successes int `json:"successes"`

	// Result, filled by Finish.
	Required int     `json:"required"`
	Extra    int     `json:"extra"`
	Band     Band    `json:"band"`
	Outcome  Outcome `json:"outcome"`
	// Retry says the Director chose Worse Position: re-roll at
	// NextPosition.
	Retry        bool     `json:"retry,omitempty"`
	NextPosition Position `json:"next_position,omitempty"`
	// HarmRow is the row the table's harm filled (-1 critical), when
	// HarmTaken.
	HarmTaken bool `json:"harm_taken,omitempty"`
	HarmRow   int  `json:"harm_row,omitempty"`
	// Spent is the extra successes spent on effects, Bought the effects
	// (see Character.Spend).
	Spent  int      `json:"spent,omitempty"`
	Bought []Bought `json:"bought,omitempty"`
}

// Sentinel errors for rejected steps; the returned errors wrap them and say
// more.
var (
	ErrStage         = errors.New("actiontest: step out of order")
	ErrPushTwice     = errors.New("actiontest: a roll may be pushed only once")
	ErrNoSpace       = errors.New("actiontest: no space for the push's harm")
	ErrPerilPush     = errors.New("actiontest: a roll that risked peril cannot be pushed")
	ErrIncapacitated = errors.New("actiontest: cannot act with severe harm unless helped or pushing")
	ErrFlashbacks    = errors.New("actiontest: no flashbacks left today")
	ErrMustPush      = errors.New("actiontest: this roll must be pushed before it is finished")
)

// checkTest says what is wrong with t under the rules and the character's
// sheet (not its state, which count checks).
func (c *Character) checkTest(t *Test) error {
	rl := c.rules
	if _, err := rl.ActionIndex(t.Action); err != nil {
		return err
	}
	switch {
	case t.Position < 0 || int(t.Position) >= len(rl.Positions):
		return fmt.Errorf("actiontest: position %d, allowed 0..%d (%v)", t.Position, len(rl.Positions)-1, rl.Positions)
	case t.Flashback && (t.Difficulty < 0 || t.Difficulty > rl.MaxFlashbackDifficulty):
		return fmt.Errorf("actiontest: flashback difficulty %d, allowed 0..%d", t.Difficulty, rl.MaxFlashbackDifficulty)
	case !t.Flashback && t.Difficulty < 1:
		return fmt.Errorf("actiontest: difficulty %d, must be >= 1 (normal 1, challenging 2, difficult 3)", t.Difficulty)
	case t.Difficulty > maxDice:
		return fmt.Errorf("actiontest: difficulty %d, at most %d", t.Difficulty, maxDice)
	case t.Helpers < 0 || t.Helpers > maxDice:
		return fmt.Errorf("actiontest: helpers %d, allowed 0..%d", t.Helpers, maxDice)
	case t.Equipment < 0 || t.Equipment > rl.MaxEquipment:
		return fmt.Errorf("actiontest: equipment bonus %d, allowed 0..%d", t.Equipment, rl.MaxEquipment)
	case t.Bonus < -maxDice/4 || t.Bonus > maxDice/4:
		return fmt.Errorf("actiontest: bonus %d, allowed %d..%d", t.Bonus, -maxDice/4, maxDice/4)
	case t.PerilHarm < 0 || t.PerilHarm > len(rl.HarmRows):
		return fmt.Errorf("actiontest: peril harm level %d, allowed 0..%d", t.PerilHarm, len(rl.HarmRows))
	}
	if t.HarmTrack != "" {
		if _, err := rl.TrackIndex(t.HarmTrack); err != nil {
			return err
		}
	}
	return nil
}

// count checks t (already checked against the rules) against the
// character's state — flashbacks left, pool size, Severe harm — and
// returns its pool and whether the character may act only by pushing
// ("Adding Dice and Altering the Outcome": every term is added together,
// but at least MinDice dice are rolled).
func (c *Character) count(t *Test) (Pool, bool, error) {
	rl := c.rules
	act, _ := rl.ActionIndex(t.Action)
	attr := c.link[act]
	p := Pool{Action: c.act[act], Attribute: c.attr[attr], Equipment: t.Equipment, Bonus: t.Bonus,
		Help: min(t.Helpers*rl.HelpDice, rl.MaxHelp), Carried: c.State.Bonus, Penalty: c.Penalty()}
	if t.Peril {
		p.Peril = rl.PerilDice
	}
	p.Dice = max(p.Action+p.Attribute+p.Help+p.Equipment+p.Peril+p.Carried+p.Bonus-p.Penalty, rl.MinDice)
	if t.Flashback && c.State.FlashbacksUsed >= rl.FlashbacksPerDay {
		return Pool{}, false, fmt.Errorf("%w (%d of %d used)", ErrFlashbacks, c.State.FlashbacksUsed, rl.FlashbacksPerDay)
	}
	if p.Dice+rl.PushDice > maxDice {
		return Pool{}, false, fmt.Errorf("actiontest: a pool of %d dice is too large (at most %d with a push)", p.Dice, maxDice)
	}
	// "Severe: cannot act unless helped or pushing" [ours, Blades-like].
	if !c.Incapacitated() || t.Helpers > 0 || (t.Flashback && t.Difficulty == 0) {
		return p, false, nil
	}
	if t.Peril {
		return Pool{}, false, fmt.Errorf("%w: risking peril forbids the push that would let the character act", ErrIncapacitated)
	}
	if c.pushTrack(c.harm[attr]) < 0 {
		return Pool{}, false, fmt.Errorf("%w: no harm space left to push", ErrIncapacitated)
	}
	return p, true, nil
}

// Begin starts an action test: it checks the test, pays a Risk Peril cost,
// spends the carried bonus dice (and a flashback, for a flashback test) and
// rolls the pool into at. A flashback of difficulty 0 rolls nothing and
// will succeed. On error nothing changes.
func (c *Character) Begin(r *dice.Roller, t Test, at *Attempt) error {
	if err := c.checkTest(&t); err != nil {
		return err
	}
	pool, must, err := c.count(&t)
	if err != nil {
		return err
	}
	c.begin(r, &t, pool, must, at)
	return nil
}

// begin applies a checked, counted test: it records it on at, pays what
// starting it costs and rolls.
func (c *Character) begin(r *dice.Roller, t *Test, pool Pool, must bool, at *Attempt) {
	if !c.start(t, pool, must, at) {
		return
	}
	at.Dice, at.Successes = r.RollCount(pool.Dice, c.rules.Sides, c.rules.SuccessFace, at.Dice[:0])
	if c.Sink != nil {
		c.emit(Event{Kind: EvRoll, Dice: at.Dice, Successes: at.Successes, Pool: at.Pool.Dice})
	}
}

// start records a checked, counted test on at, marked rolled, and pays
// what starting it costs: a flashback, the carried dice, a Risk Peril
// deal's harm. It reports whether the test has dice to roll (a flashback
// of difficulty 0 has none).
func (c *Character) start(t *Test, pool Pool, must bool, at *Attempt) (roll bool) {
	at.reset(t, pool, must)
	at.Stage = Rolled
	if t.Flashback {
		c.State.FlashbacksUsed++
		c.emit(Event{Kind: EvFlashback, Level: t.Difficulty})
		if t.Difficulty == 0 {
			return false // no roll, so the carried dice wait for the next one
		}
	}
	c.State.Bonus = 0
	if t.Peril {
		c.emit(Event{Kind: EvPeril, Level: t.PerilHarm, Pool: c.rules.PerilDice})
		if t.PerilHarm > 0 {
			c.takeHarm(t.PerilHarm, c.harmTrack(t))
		}
	}
	return true
}

// reset makes at a freshly counted test, keeping its dice buffers.
func (at *Attempt) reset(t *Test, pool Pool, must bool) {
	*at = Attempt{Test: *t, Pool: pool, MustPush: must,
		Dice: at.Dice[:0], Rerolled: at.Rerolled[:0], Bought: at.Bought[:0]}
}

// harmTrack is the track the table's harm lands on for t (checked): its
// HarmTrack, or its Attribute's natural track.
func (c *Character) harmTrack(t *Test) int {
	if t.HarmTrack != "" {
		i, _ := c.rules.TrackIndex(t.HarmTrack)
		return i
	}
	act, _ := c.rules.ActionIndex(t.Action)
	return c.harm[c.link[act]]
}

// CanPush reports why at may not be pushed now, or nil.
func (c *Character) CanPush(at *Attempt, track int) error {
	rl := c.rules
	switch {
	case at.Stage != Rolled:
		return fmt.Errorf("%w: push needs a rolled, unfinished test (stage %q)", ErrStage, at.Stage.String())
	case at.Pushed:
		return ErrPushTwice
	case at.Test.Peril:
		return ErrPerilPush
	case at.Test.Flashback && at.Test.Difficulty == 0:
		return fmt.Errorf("%w: a flashback of difficulty 0 has no roll to push", ErrStage)
	case track < 0 || track >= len(rl.HarmTracks):
		return fmt.Errorf("actiontest: push harm track %d, allowed 0..%d (%v)", track, len(rl.HarmTracks)-1, rl.HarmTracks)
	case !c.HasSpace(track):
		return fmt.Errorf("%w: the %s track has no room for a level %d harm (rule %q)", ErrNoSpace, rl.HarmTracks[track], rl.PushHarm, rl.PushSpace)
	}
	return nil
}

// Push pushes the roll ("Pushing the Roll"): the character takes a level
// PushHarm harm on the chosen track, and every die of the first roll that
// is not a success is re-rolled together with PushDice more dice; the
// successes stay. It may follow a success. The push's own harm does not
// shrink the re-roll: the pool was counted before the roll [ours]. On
// error nothing changes.
func (c *Character) Push(r *dice.Roller, at *Attempt, track int) error {
	if err := c.CanPush(at, track); err != nil {
		return err
	}
	kept := c.payPush(at, track)
	n := len(at.Dice) - kept + c.rules.PushDice
	var hit int
	at.Rerolled, hit = r.RollCount(n, c.rules.Sides, c.rules.SuccessFace, at.Rerolled[:0])
	at.Successes = kept + hit
	if c.Sink != nil {
		c.emit(Event{Kind: EvPush, Dice: at.Rerolled, Successes: at.Successes, Pool: len(at.Rerolled), Track: at.PushTrack})
	}
	return nil
}

// payPush marks the push and its harm and returns the successes kept.
func (c *Character) payPush(at *Attempt, track int) int {
	at.Pushed = true
	at.PushTrack = c.rules.HarmTracks[track]
	at.Kept = at.Successes
	c.takeHarm(c.rules.PushHarm, track)
	return at.Successes
}

// Finish reads the roll against the position x outcome table and applies
// it: the table's harm, dice carried to the next roll, a successful
// flashback's bonus, or a Worse Position retry. On error nothing changes.
func (c *Character) Finish(at *Attempt) error {
	t := &at.Test
	switch {
	case at.Stage != Rolled:
		return fmt.Errorf("%w: finish needs a rolled, unfinished test (stage %q)", ErrStage, at.Stage.String())
	case at.MustPush && !at.Pushed:
		return ErrMustPush
	}
	if err := c.checkTest(t); err != nil {
		return err
	}
	if t.Flashback && t.Difficulty == 0 {
		at.Successes = 0
	}
	band := BandOf(at.Successes, t.Difficulty)
	o := &c.table[t.Position][band]
	at.Stage, at.Required, at.Band = Finished, t.Difficulty, band
	at.Extra = max(at.Successes-t.Difficulty, 0)
	at.Outcome = *o
	// "Worse Position": a table that lists it, or a Director who answers
	// a failure with it (Test.Escalate), asks for a re-roll one position
	// worse; an escalated failure trades its consequences for the re-roll.
	notWorst := int(t.Position) < len(c.rules.Positions)-1
	escalate := t.Escalate && !o.Succeeded && notWorst
	if escalate {
		at.Outcome = Outcome{Kind: o.Kind, Severity: o.Severity, Consequences: worseOnly}
	}
	if at.Retry = escalate || (notWorst && hasKind(o.Consequences, WorsePosition)); at.Retry {
		at.NextPosition = t.Position + 1
	}
	c.State.Bonus += o.NextBonus
	if t.Flashback && o.Succeeded {
		c.State.Bonus += c.rules.FlashbackBonus
	}
	if !escalate && !t.NoHarm {
		for _, q := range o.Consequences {
			if q.Kind == Harm {
				at.HarmTaken = true
				at.HarmRow = c.takeHarm(q.Level, c.harmTrack(t))
			}
		}
	}
	if c.Sink != nil {
		c.emit(Event{Kind: EvOutcome, Successes: at.Successes, Level: at.Required, Outcome: at.Outcome.Kind, Retry: at.Retry})
	}
	return nil
}

func hasKind(qs []Consequence, k ConsequenceKind) bool {
	for _, q := range qs {
		if q.Kind == k {
			return true
		}
	}
	return false
}

// worseOnly is the consequence list of an escalated failure; read-only.
var worseOnly = []Consequence{{Kind: WorsePosition}}

// Opposed compares two rolled (or finished) attempts: +1 if a has more
// successes, -1 if b has, 0 if equal (neither succeeds).
func Opposed(a, b *Attempt) (int, error) {
	if a.Stage == NotBegun || b.Stage == NotBegun {
		return 0, fmt.Errorf("%w: both sides must roll before an opposed test is read", ErrStage)
	}
	switch {
	case a.Successes > b.Successes:
		return 1, nil
	case a.Successes < b.Successes:
		return -1, nil
	}
	return 0, nil
}

// View is what a Policy sees when it decides.
type View struct {
	// Pool is the dice of the roll (before Risk Peril, when asked about it).
	Pool int
	// Required is the successes needed; Successes those rolled so far (0
	// before the roll).
	Required, Successes int
	Position            Position
	// Penalty is the dice the character's harm costs this roll.
	Penalty int
	// MustPush says the character can act only by pushing.
	MustPush bool
	// PushTrack is the natural harm track if it has room for a push's harm,
	// else another track with room, else -1 (no push possible).
	PushTrack int
	// Rules are the rules in force (read-only).
	Rules *Rules
}

// Failed reports whether the roll so far falls short.
func (v View) Failed() bool { return v.Successes < v.Required }

// Play runs one whole test with a policy: it may accept an offered Risk
// Peril, rolls, may push, and finishes. A policy's illegal choice is an
// error, and the state is then as the last legal step left it.
func (c *Character) Play(r *dice.Roller, t Test, p Policy, at *Attempt) error {
	if err := c.checkTest(&t); err != nil {
		return err
	}
	if t.PerilOffered && !t.Peril {
		pool, must, err := c.count(&t)
		if err != nil {
			return err
		}
		t.Peril = p.Peril(c.viewOf(&t, pool, must, 0))
	}
	pool, must, err := c.count(&t)
	if err != nil {
		return err
	}
	c.begin(r, &t, pool, must, at)
	if err := c.maybePush(r, at, p); err != nil {
		return err
	}
	return c.Finish(at)
}

func (c *Character) view(at *Attempt) View {
	return c.viewOf(&at.Test, at.Pool, at.MustPush, at.Successes)
}

// viewOf is the View of test t (checked) with its pool counted and s
// successes rolled so far.
func (c *Character) viewOf(t *Test, pool Pool, must bool, s int) View {
	act, _ := c.rules.ActionIndex(t.Action)
	return View{Pool: pool.Dice, Required: t.Difficulty, Successes: s,
		Position: t.Position, Penalty: pool.Penalty, MustPush: must,
		PushTrack: c.pushTrack(c.harm[c.link[act]]), Rules: c.rules}
}

// askPush asks p whether to push at's roll and on which track. When no
// track has room for the push's harm there is no choice to make, and p is
// not asked.
func (c *Character) askPush(p Policy, at *Attempt) (push bool, track int) {
	v := c.view(at)
	if v.PushTrack < 0 {
		return false, 0
	}
	return p.Push(v)
}

func (c *Character) maybePush(r *dice.Roller, at *Attempt, p Policy) error {
	if at.Test.Peril || (at.Test.Flashback && at.Test.Difficulty == 0) {
		return nil
	}
	push, track := c.askPush(p, at)
	if !push {
		if at.MustPush {
			return fmt.Errorf("policy %s: %w", p.Name(), ErrMustPush)
		}
		return nil
	}
	if err := c.Push(r, at, track); err != nil {
		return fmt.Errorf("policy %s: %w", p.Name(), err)
	}
	return nil
}
