package actiontest

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/bits"

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
// It saves and restores as JSON. Reuse one Attempt across tests to avoid
// allocation. Its fields are a record the steps write, not inputs: Start
// and Begin set Test and Pool from the plan (copying them only when the
// plan differs from the one the attempt last held), Finish reads the test
// as Start recorded it, and a copy of an Attempt shares its dice buffers.
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

	act, attr int // resolved indices, set by Begin

	// owner and gen name the Plan whose Test and fixed Pool terms the
	// attempt holds (gen 0: none), so starting the same plan again copies
	// neither.
	owner *Character
	gen   uint64
	// tidy says Retry, NextPosition, HarmTaken, HarmRow, Spent and Bought
	// are clear as Start left them: only Finish's common case, which
	// writes none of them, has run since. Start then need not clear them
	// again; every other writer of them (finishFlagged, Spend, JSON)
	// clears tidy.
	tidy bool
	// era and plainCells are what Finish's common case reads rather than
	// work out from Test, copied from the held plan: the outcome table the
	// plan was prepared against (its Character.era, or 0 for a flashback
	// or no plan held) and, from the plan's row of it, the cell of each
	// band b that has none of the flags its Test cares about (see
	// flagMask) as plainCells[b]; nil where it has some (or b is 3), and
	// finishSlow plays that cell.
	era        uint64
	plainCells [4]*cell
	// plain says the held plan is no flashback and no Risk Peril deal:
	// Push's common case checks it rather than both.
	plain bool
	// buf holds the dice of a small pool when Dice has no room (the
	// first smallPool), and of its push when Rerolled has none.
	buf [2 * smallPool]int
}

// smallPool is the largest pool an Attempt holds without a buffer of its
// own.
const smallPool = 16

// UnmarshalJSON reads an Attempt saved as JSON, forgetting which Plan the
// attempt last held.
func (at *Attempt) UnmarshalJSON(b []byte) error {
	type plain Attempt // the same fields, without this method
	at.owner, at.gen, at.tidy = nil, 0, false
	at.era, at.plainCells, at.plain = 0, [4]*cell{}, false
	return json.Unmarshal(b, (*plain)(at))
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

func (c *Character) actionIndex(name string) (int, error) {
	if c.lastIdx >= 0 && name == c.lastName {
		return c.lastIdx, nil
	}
	i, err := c.rules.ActionIndex(name)
	if err != nil {
		return 0, err
	}
	c.lastName, c.lastIdx = name, i
	return i, nil
}

// Plan is a Test checked once against the rules and the character's sheet,
// with its Action resolved and the dice that do not depend on the state
// counted: Start begins it any number of times without checking it again,
// so a tool or runner that plays the same test over and over prepares it
// once. Begin is Prepare followed by Start. A Plan belongs to the character
// that prepared it and stays good for its life (a character's ratings and
// rules never change; what changes, its State, Start checks each time).
type Plan struct {
	test Test
	c    *Character
	// act and attr are the Action's and its Attribute's indices.
	act, attr int
	// pool has every term that does not depend on the state; base is
	// their sum.
	pool Pool
	base int
	// gen tells this plan from every other the character prepared (a copy
	// of a plan shares it).
	gen uint64
	// plain is c for a plan that is no flashback and no Risk Peril deal,
	// else nil: one check in Start that the plan is the character's own
	// and needs no special step.
	plain *Character
	// era and plainCells are what an Attempt holding the plan keeps for
	// Finish (see Attempt.plainCells), worked out once here.
	era        uint64
	plainCells [4]*cell
}

// Test returns the planned test.
func (p *Plan) Test() Test { return p.test }

// Prepare checks t against the rules and the character's sheet (not its
// state, which Start checks) and returns it ready to Start.
func (c *Character) Prepare(t Test) (Plan, error) {
	var p Plan
	err := c.prepare(&t, &p)
	return p, err
}

// prepare fills p from t, or says what is wrong with t.
func (c *Character) prepare(t *Test, p *Plan) error {
	rl := c.rules
	i, err := c.actionIndex(t.Action)
	if err != nil {
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
	case t.Helpers < 0:
		return fmt.Errorf("actiontest: helpers %d, must be >= 0", t.Helpers)
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
	a := c.link[i]
	*p = Plan{test: *t, c: c, act: i, attr: a,
		pool: Pool{Action: c.act[i], Attribute: c.attr[a], Equipment: t.Equipment, Bonus: t.Bonus}}
	p.pool.Help = min(min(t.Helpers, maxDice)*rl.HelpDice, rl.MaxHelp)
	if t.Peril {
		p.pool.Peril = rl.PerilDice
	}
	p.base = p.pool.Action + p.pool.Attribute + p.pool.Help + p.pool.Equipment + p.pool.Peril + p.pool.Bonus
	p.gen = c.nextGen()
	if !t.Flashback && !t.Peril {
		p.plain = c
	}
	// A Risk Peril deal (see withPeril) changes none of the cells: the
	// flags that matter depend on NoHarm and Escalate alone.
	if pos := t.Position; !t.Flashback && uint(pos) < uint(len(c.cells)) {
		p.era = c.era
		m, row := flagMask(t), &c.cells[pos]
		for b := range row {
			if row[b].flags&m == 0 {
				p.plainCells[b] = &row[b]
			}
		}
	}
	return nil
}

// nextGen numbers a newly prepared plan.
func (c *Character) nextGen() uint64 {
	c.gens++
	return c.gens
}

// withPeril turns p into the same test with the Risk Peril deal taken.
func (p *Plan) withPeril() {
	if p.test.Peril {
		return
	}
	p.test.Peril = true
	p.pool.Peril = p.c.rules.PerilDice
	p.base += p.pool.Peril
	p.gen = p.c.nextGen()
	p.plain = nil
}

// count checks a prepared test against the character's state (flashbacks
// left, pool size, Severe harm) and counts its pool into at, changing
// nothing else. The plan's Test and fixed Pool terms are copied only when
// at last held another plan.
func (c *Character) count(p *Plan, at *Attempt) error {
	pen := c.load0()
	n := max(p.base+c.State.Bonus-pen, c.minDice)
	must := false
	if p.c != c || n > c.maxPool || c.incap || p.test.Flashback {
		var err error
		if must, err = c.countCheck(p, n); err != nil {
			return err
		}
	}
	if at.gen != p.gen || at.owner != c {
		at.hold(c, p)
	}
	at.Pool.Carried, at.Pool.Penalty, at.Pool.Dice = c.State.Bonus, pen, n
	at.MustPush = must
	return nil
}

// holdOut is hold kept out of line for Start, where it runs only when the
// plan changes: inlined, it would give Start's common case a larger frame
// and more values to save across its calls.
//
//go:noinline
func (at *Attempt) holdOut(c *Character, p *Plan) { at.hold(c, p) }

// hold makes at hold p's Test and fixed Pool terms.
func (at *Attempt) hold(c *Character, p *Plan) {
	at.Test, at.Pool = p.test, p.pool
	at.act, at.attr = p.act, p.attr
	at.owner, at.gen = c, p.gen
	at.era, at.plainCells, at.plain = p.era, p.plainCells, p.plain == c
}

// load0 is the dice the harm costs, worked out again only after it
// changed; the incapacitation is then in c.incap.
func (c *Character) load0() int {
	if !c.loaded {
		c.reload()
	}
	return c.pen
}

// countCheck is count's part for the rare cases: a plan of another
// character, a flashback, a pool too large, Severe harm. It says whether
// the character may act only by pushing.
func (c *Character) countCheck(p *Plan, n int) (must bool, err error) {
	rl, t := c.rules, &p.test
	if p.c != c || (t.Flashback && c.State.FlashbacksUsed >= rl.FlashbacksPerDay) || n > c.maxPool {
		return false, c.countErr(p, n)
	}
	if c.incap && t.Helpers == 0 && !(t.Flashback && t.Difficulty == 0) {
		if t.Peril || c.pushTrack(c.harm[p.attr]) < 0 {
			return false, c.countErr(p, n)
		}
		return true, nil
	}
	return false, nil
}

// countErr says why count refused p (n dice counted so far). It is apart
// from count to keep the hot path small.
func (c *Character) countErr(p *Plan, n int) error {
	rl, t := c.rules, &p.test
	switch {
	case p.c != c:
		return fmt.Errorf("%w: the plan was not prepared by this character", ErrStage)
	case t.Flashback && c.State.FlashbacksUsed >= rl.FlashbacksPerDay:
		return fmt.Errorf("%w (%d of %d used)", ErrFlashbacks, c.State.FlashbacksUsed, rl.FlashbacksPerDay)
	case n+rl.PushDice > maxDice:
		return fmt.Errorf("actiontest: a pool of %d dice is too large (at most %d with a push)", n, maxDice)
	case t.Peril:
		return fmt.Errorf("%w: risking peril forbids the push that would let the character act", ErrIncapacitated)
	}
	return fmt.Errorf("%w: no harm space left to push", ErrIncapacitated)
}

// plan checks t against the rules and the character's state and counts the
// pool into at, changing nothing else.
func (c *Character) plan(t *Test, at *Attempt) error {
	var p Plan
	if err := c.prepare(t, &p); err != nil {
		return err
	}
	return c.count(&p, at)
}

// Begin starts an action test: it checks the test, pays a Risk Peril cost,
// spends the carried bonus dice (and a flashback, for a flashback test) and
// rolls the pool into at. A flashback of difficulty 0 rolls nothing and
// will succeed. On error nothing changes.
func (c *Character) Begin(r *dice.Roller, t Test, at *Attempt) error {
	p, err := c.recall(&t)
	if err != nil {
		return err
	}
	return c.Start(r, p, at)
}

// recall returns t prepared, reusing the last test Begin or Play prepared
// when t is the same (a character often makes the same test again).
func (c *Character) recall(t *Test) (*Plan, error) {
	if c.last.c == c && c.last.test == *t {
		return &c.last, nil
	}
	var p Plan
	if err := c.prepare(t, &p); err != nil {
		return nil, err
	}
	c.last = p
	return &c.last, nil
}

// Start begins a prepared test as Begin does, checking only what depends
// on the character's state. On error nothing changes.
func (c *Character) Start(r *dice.Roller, p *Plan, at *Attempt) error {
	// c.pen is stale when !c.loaded (so !c.ready), but then n is not used.
	n := max(p.base+c.State.Bonus-c.pen, c.minDice)
	if !c.ready || p.plain != c || n > c.maxPool {
		return c.startSlow(r, p, at)
	}
	// count and roll for an ordinary test of a character able to act.
	if at.gen != p.gen || at.owner != c {
		at.holdOut(c, p)
	}
	at.Pool.Carried, at.Pool.Penalty, at.Pool.Dice = c.State.Bonus, c.pen, n
	at.MustPush = false
	// at.reset(), written out: a call costs as much as what it does.
	if at.Stage != Rolled {
		at.Required, at.Extra, at.Band = 0, 0, 0
		at.Outcome = Outcome{}
		if !at.tidy {
			at.clearRest()
		}
	}
	if at.Pushed {
		at.clearPush()
	}
	at.Stage = Rolled
	c.State.Bonus = 0
	// c.rollPool(r, at, n), written out, and in it the common case of
	// c.rollCount: up to four dice from one draw.
	if d := &c.draws; n == c.quadPool && cap(at.Dice) >= quad {
		// Into at.Dice's own array: at.Dice = at.Dice[:quad] writes only
		// the length. Both are set before the draw, so that after it
		// neither is checked again.
		o := (*[quad]int)(at.Dice[:quad])
		at.Dice = at.Dice[:quad]
		if h, lo := bits.Mul64(r.Uint64(), d.pow[quad]); lo >= d.rej[quad] {
			q := &d.quads[h&(quadCells-1)]
			*o = q.faces
			at.Successes = q.all()
		} else {
			// quad, not n (the same): n then need not be kept across the
			// draw.
			at.Dice, at.Successes = r.RollCount(quad, c.sides, c.successFace, at.Dice[:0])
		}
	} else {
		buf := at.Dice
		if cap(buf) < n && n <= smallPool {
			buf = at.buf[:0:smallPool]
		}
		at.Dice, at.Successes = c.rollCount(r, n, buf[:0])
	}
	if c.Sink != nil {
		c.emitRoll(at)
	}
	return nil
}

// startSlow is Start for what its fast path leaves out: harm whose cost
// must be worked out again, another character's plan, a pool too large,
// Severe harm, a flashback or a Risk Peril deal. count says what is
// allowed.
func (c *Character) startSlow(r *dice.Roller, p *Plan, at *Attempt) error {
	if err := c.count(p, at); err != nil {
		return err
	}
	c.roll(r, at)
	return nil
}

// roll starts a counted test and rolls its pool.
func (c *Character) roll(r *dice.Roller, at *Attempt) {
	if c.start(at) {
		at.Dice = at.Dice[:0]
		at.Successes = 0
		return
	}
	c.rollPool(r, at, at.Pool.Dice)
}

// rollPool rolls n dice into at.Dice and counts the successes.
func (c *Character) rollPool(r *dice.Roller, at *Attempt, n int) {
	buf := at.Dice
	if cap(buf) < n && n <= smallPool {
		buf = at.buf[:0:smallPool]
	}
	at.Dice, at.Successes = c.rollCount(r, n, buf[:0])
	if c.Sink != nil {
		c.emitRoll(at)
	}
}

func (c *Character) emitRoll(at *Attempt) {
	c.emit(Event{Kind: EvRoll, Dice: at.Dice, Successes: at.Successes, Pool: at.Pool.Dice})
}

// start applies the state changes of beginning a planned test and reports
// whether it has no roll (a flashback of difficulty 0). It clears what the
// attempt's last test left: a result, a push.
func (c *Character) start(at *Attempt) (noRoll bool) {
	at.reset()
	if at.Test.Flashback || at.Test.Peril {
		return c.startSpecial(at)
	}
	c.State.Bonus = 0
	return false
}

// reset clears what the attempt's last test left — a result, a push —
// and marks it rolled.
func (at *Attempt) reset() {
	if at.Stage != Rolled {
		at.clearResult()
	}
	if at.Pushed {
		at.clearPush()
	}
	at.Stage = Rolled
}

func (at *Attempt) clearPush() {
	at.Pushed, at.Kept = false, 0
	at.PushTrack = ""
	at.Rerolled = at.Rerolled[:0]
}

// clearResult clears what Finish and Spend wrote.
func (at *Attempt) clearResult() {
	at.Required, at.Extra, at.Band = 0, 0, 0
	// Whole, not field by field: whether the last outcome had
	// consequences is a coin toss.
	at.Outcome = Outcome{}
	if !at.tidy {
		at.clearRest()
	}
}

// clearRest clears the result fields that only finishFlagged and Spend
// write, and marks them clear.
func (at *Attempt) clearRest() {
	at.Retry, at.NextPosition, at.HarmTaken, at.HarmRow = false, 0, false, 0
	if at.Spent != 0 || len(at.Bought) != 0 {
		at.Spent, at.Bought = 0, at.Bought[:0]
	}
	at.tidy = true
}

// startSpecial is start's part for a flashback or a Risk Peril deal.
func (c *Character) startSpecial(at *Attempt) (noRoll bool) {
	if at.Test.Flashback {
		c.State.FlashbacksUsed++
		if c.Sink != nil {
			c.emit(Event{Kind: EvFlashback, Level: at.Test.Difficulty})
		}
		if at.Test.Difficulty == 0 {
			return true // no roll, so the carried dice wait for the next one
		}
	}
	c.State.Bonus = 0
	if at.Test.Peril {
		if c.Sink != nil {
			c.emit(Event{Kind: EvPeril, Level: at.Test.PerilHarm, Pool: c.rules.PerilDice})
		}
		if at.Test.PerilHarm > 0 {
			// prepare checked the track's name.
			t, _ := c.harmTrack(at)
			c.takeHarm(at.Test.PerilHarm, t)
		}
	}
	return false
}

// harmTrack is the track the table's harm lands on for at (its Action
// resolved).
func (c *Character) harmTrack(at *Attempt) (int, error) {
	if at.Test.HarmTrack != "" {
		return c.rules.TrackIndex(at.Test.HarmTrack)
	}
	return c.harm[at.attr], nil
}

// resolve checks at's Action and sets its indices: an Attempt restored
// from JSON carries only the name, and a begun one its index already.
func (c *Character) resolve(at *Attempt) error {
	if i := at.act; i >= 0 && i < len(c.link) && c.rules.Actions[i].Name == at.Test.Action {
		at.attr = c.link[i]
		return nil
	}
	i, err := c.actionIndex(at.Test.Action)
	if err != nil {
		return err
	}
	at.act, at.attr = i, c.link[i]
	return nil
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

// Push pushes the roll: the character takes a level PushHarm harm on the
// chosen track, and every die of the first roll that is not a success is
// re-rolled together with PushDice more dice; the successes stay. It may
// follow a success. The push's own harm does not shrink the re-roll: the
// pool was counted before the roll [ours]. On error nothing changes.
func (c *Character) Push(r *dice.Roller, at *Attempt, track int) error {
	// The checks of CanPush, cheapest first, and the common case of the
	// push's harm: room for it in its own row, a row that does not
	// incapacitate (for rules whose does, c.pushSlots is 0 and the harm
	// goes to pushSlow, so the fast path need not set c.incap).
	// free and tracks are locals, so that free[track] and tracks[track]
	// below are not checked again.
	free, tracks := c.free, c.rules.HarmTracks
	if !c.loaded || at.Stage != Rolled || at.Pushed || !at.plain ||
		uint(track) >= uint(len(free)) || uint(track) >= uint(len(tracks)) || c.Sink != nil {
		return c.pushSlow(r, at, track)
	}
	// Room in row lv, checked next, is room for the push's harm: no need
	// to look at c.free[track].
	rows, lv := c.State.Harm[track], c.pushRow
	if uint(lv) >= uint(len(rows)) || rows[lv] >= c.pushSlots {
		return c.pushSlow(r, at, track)
	}
	// payPush and takeHarm, written out for a harm landing in row lv
	// (whose slots count as room for a push's harm).
	rows[lv]++
	c.pen += c.pushPen
	free[track]--
	kept := at.Successes
	at.Pushed, at.PushTrack, at.Kept = true, tracks[track], kept
	n := len(at.Dice) - kept + c.pushDice
	// c.rerollCount, written out for up to eight dice into at.Rerolled's
	// own array (at.Rerolled = at.Rerolled[:n] writes only the length).
	d := &c.draws
	if uint(n-1) >= 2*quad || d.most < 2*quad || cap(at.Rerolled) < 2*quad {
		buf := at.Rerolled
		if cap(buf) < n && n <= len(at.buf)-smallPool {
			buf = at.buf[smallPool:smallPool]
		}
		var hit int
		at.Rerolled, hit = c.rerollCount(r, n, buf[:0])
		at.Successes = kept + hit
		return nil
	}
	// The re-roll's length and array are set before the draw, so that
	// after it (when nothing is left in registers) neither is checked
	// again.
	o := (*[2 * quad]int)(at.Rerolled[:2*quad])
	at.Rerolled = at.Rerolled[:n]
	// The draw is accepted for eight dice, as rerollCount does: the low
	// word of the second run's product is the draw times sides^8.
	h, y := bits.Mul64(r.Uint64(), d.pow[quad])
	g, lo := bits.Mul64(y, d.pow[quad])
	if lo < d.rej[2*quad] {
		var hit int
		at.Rerolled, hit = r.RollCount(n, c.sides, c.successFace, at.Rerolled[:0])
		at.Successes = kept + hit
		return nil
	}
	q, u := &d.quads[h&(quadCells-1)], &d.quads[g&(quadCells-1)]
	*(*[quad]int)(o[:quad]) = q.faces
	*(*[quad]int)(o[quad:]) = u.faces
	at.Successes = kept + succ8(q, u, n)
	return nil
}

// pushSlow is Push in general: the harm's cost to be worked out again, a
// push CanPush refuses, a harm that passes up a row, an event sink.
func (c *Character) pushSlow(r *dice.Roller, at *Attempt, track int) error {
	if !c.loaded {
		c.reload()
	}
	if err := c.CanPush(at, track); err != nil {
		return err
	}
	kept := c.payPush(at, track)
	n, buf := len(at.Dice)-kept+c.rules.PushDice, at.Rerolled
	if cap(buf) < n && n <= len(at.buf)-smallPool {
		buf = at.buf[smallPool:smallPool]
	}
	var hit int
	at.Rerolled, hit = c.rerollCount(r, n, buf[:0])
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
// flashback's bonus, or a Worse Position retry. It looks the Action up
// (an Attempt restored from JSON carries only its name) only when the
// table's harm lands on the Action's natural track. On error nothing
// changes.
func (c *Character) Finish(at *Attempt) error {
	// The cells the held plan set are c's and still current when the eras
	// match (an attempt that holds a plan of another character, a plan
	// prepared before c's last SetDirector, a flashback, or that was
	// restored from JSON has another).
	if at.Stage != Rolled || at.MustPush || at.era != c.era {
		return c.finishSlow(at)
	}
	// finishSlow for a test that is no flashback and need not be pushed.
	required, n := at.Test.Difficulty, at.Successes
	band := BandOf(n, required)
	cl := at.plainCells[band&3]
	if cl == nil {
		return c.finishSlow(at) // a cell with harm or a re-roll
	}
	at.Stage, at.Required, at.Band, at.Extra = Finished, required, band, max(n-required, 0)
	at.Outcome = cl.o
	c.State.Bonus += cl.bonus
	if c.Sink != nil {
		c.emitOutcome(at)
	}
	return nil
}

// finishSlow is Finish in general, for a flashback, a roll that must be
// pushed, a cell with harm or a re-roll, an attempt whose cells are not
// c's current ones, or a step out of order.
func (c *Character) finishSlow(at *Attempt) error {
	pos := at.Test.Position
	if at.Stage != Rolled || (at.MustPush && !at.Pushed) || uint(pos) >= uint(len(c.cells)) {
		return c.finishErr(at)
	}
	required := at.Test.Difficulty
	if at.Test.Flashback && required == 0 {
		at.Successes = 0
	}
	band := BandOf(at.Successes, required)
	cl := &c.cells[pos][band]
	if fl := cl.flags & flagMask(&at.Test); fl != 0 {
		return c.finishFlagged(at, cl, fl)
	}
	at.Stage, at.Required, at.Band = Finished, required, band
	at.Extra = max(at.Successes-required, 0)
	at.Outcome = cl.o
	c.State.Bonus += cl.bonus
	if at.Test.Flashback && cl.o.Succeeded {
		c.State.Bonus += c.rules.FlashbackBonus
	}
	if c.Sink != nil {
		c.emitOutcome(at)
	}
	return nil
}

// flagMask is the cell flags that matter for test t: a harm only when the
// test risks harm, a failure's re-roll only when the Director escalates.
func flagMask(t *Test) cellFlags {
	return cellWorse | cellFlags(b2i(!t.NoHarm))*cellHarm | cellFlags(b2i(t.Escalate))*cellEscalates
}

// finishFlagged is Finish for a cell that deals harm or asks for a re-roll
// (fl, the cell's flags that matter).
func (c *Character) finishFlagged(at *Attempt, cl *cell, fl cellFlags) error {
	pos, required := at.Test.Position, at.Test.Difficulty
	o := &cl.o
	// An escalated failure trades its consequences for the re-roll.
	escalate := fl&cellEscalates != 0
	harm := fl&cellHarm != 0 && !escalate
	track := 0
	if harm {
		// Only the table's harm needs the Action: its natural track.
		if err := c.resolve(at); err != nil {
			return err
		}
		var err error
		if track, err = c.harmTrack(at); err != nil {
			return err
		}
	}
	at.Stage, at.Required, at.tidy = Finished, required, false
	at.Band = BandOf(at.Successes, required)
	at.Extra = max(at.Successes-required, 0)
	if escalate {
		at.Outcome = Outcome{Kind: o.Kind, Severity: o.Severity, Consequences: worseOnly}
	} else {
		at.Outcome = *o
	}
	// A table that lists Worse Position itself asks for the re-roll.
	at.Retry = escalate || fl&cellWorse != 0
	if at.Retry {
		at.NextPosition = pos + 1
	}
	c.State.Bonus += cl.bonus
	if at.Test.Flashback && o.Succeeded {
		c.State.Bonus += c.rules.FlashbackBonus
	}
	if harm {
		for _, q := range o.Consequences {
			if q.Kind == Harm {
				at.HarmTaken = true
				at.HarmRow = c.takeHarm(q.Level, track)
			}
		}
	}
	if c.Sink != nil {
		c.emitOutcome(at)
	}
	return nil
}

// finishErr says why at cannot be finished. It is apart from Finish to
// keep the hot path small.
func (c *Character) finishErr(at *Attempt) error {
	switch pos := at.Test.Position; {
	case at.Stage != Rolled:
		return fmt.Errorf("%w: finish needs a rolled, unfinished test (stage %q)", ErrStage, at.Stage.String())
	case at.MustPush && !at.Pushed:
		return ErrMustPush
	default:
		return fmt.Errorf("actiontest: position %d, allowed 0..%d", pos, len(c.cells)-1)
	}
}

func (c *Character) emitOutcome(at *Attempt) {
	c.emit(Event{Kind: EvOutcome, Successes: at.Successes, Level: at.Required, Outcome: at.Outcome.Kind, Retry: at.Retry})
}

// cell is an outcome-table cell with what Finish needs to know about it
// worked out once.
type cell struct {
	o     Outcome
	bonus int // o.NextBonus
	flags cellFlags
}

// cellFlags say what an outcome-table cell holds.
type cellFlags uint8

const (
	cellHarm      cellFlags = 1 << iota // a Harm consequence
	cellWorse                           // a Worse Position re-roll listed in the table (not at the worst position)
	cellEscalates                       // a failure that Escalate turns into a re-roll (not at the worst position)
)

// cellsOf works out every cell of a checked outcome table for rl.
func cellsOf(rl *Rules, table [][3]Outcome) [][3]cell {
	out := make([][3]cell, len(table))
	for i := range table {
		for b := range table[i] {
			o := &table[i][b]
			cl := cell{o: *o, bonus: o.NextBonus}
			if hasKind(o.Consequences, Harm) {
				cl.flags |= cellHarm
			}
			if i < len(rl.Positions)-1 {
				if hasKind(o.Consequences, WorsePosition) {
					cl.flags |= cellWorse
				}
				if !o.Succeeded {
					cl.flags |= cellEscalates
				}
			}
			out[i][b] = cl
		}
	}
	return out
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
	pl, err := c.recall(&t)
	if err != nil {
		return err
	}
	return c.play(r, pl, p, at)
}

// play is Play for a prepared test.
func (c *Character) play(r *dice.Roller, pl *Plan, p Policy, at *Attempt) error {
	if pl.test.PerilOffered && !pl.test.Peril {
		if err := c.count(pl, at); err != nil {
			return err
		}
		if p.Peril(c.view(at)) {
			risky := *pl
			risky.withPeril()
			if err := c.count(&risky, at); err != nil {
				return err
			}
		}
		c.roll(r, at)
	} else if err := c.Start(r, pl, at); err != nil {
		return err
	}
	if err := c.maybePush(r, at, p); err != nil {
		return err
	}
	return c.Finish(at)
}

func (c *Character) view(at *Attempt) View {
	return View{Pool: at.Pool.Dice, Required: at.Test.Difficulty, Successes: at.Successes,
		Position: at.Test.Position, Penalty: at.Pool.Penalty, MustPush: at.MustPush,
		PushTrack: c.pushTrack(c.harm[at.attr]), Rules: c.rules}
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
