package actiontest

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/stakesrpg/stakes/dice"
)

var testSheet = Sheet{Name: "Vex",
	Attributes: map[string]int{"Dexterity": 2, "Strength": 1, "Presence": 3},
	Actions:    map[string]int{"Prowl": 2, "Persuade": 1},
}

func newChar(t *testing.T, rl Rules) *State {
	t.Helper()
	c, err := NewState(rl, testSheet)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// restart clears what s holds from play: no harm, no flashbacks used,
// nothing carried or in flight.
func restart(t *testing.T, s *State) {
	t.Helper()
	fresh, err := NewState(s.Rules, s.Sheet)
	if err != nil {
		t.Fatal(err)
	}
	s.copyPlay(fresh)
}

// harmOf builds a state harm table for the default two tracks.
func harmOf(phys, ment [3]int) []TrackHarm {
	return []TrackHarm{{Track: "physical", Rows: phys[:]}, {Track: "mental", Rows: ment[:]}}
}

// eng is the tests' Engine, hearing nothing; a test that listens makes
// its own.
var eng Engine

// restoreState reads a state as JSON and checks it whole.
func restoreState(b []byte) (*State, error) {
	s := &State{}
	if err := json.Unmarshal(b, s); err != nil {
		return nil, err
	}
	if err := s.Check(); err != nil {
		return nil, err
	}
	return s, nil
}

// play plays one whole action test with p making the player's choices.
func play(s *State, r *dice.Roller, t Test, p Policy) error {
	return Engine{Policies: Table{Player: p}}.ActionTest(s, r, t)
}

// spendWith has p spend the finished action's extra successes.
func spendWith(s *State, p Policy) error {
	return Engine{Policies: Table{Player: p}}.SpendExtra(s)
}

// chances is the exact odds of t for s with p choosing.
func chances(s *State, t Test, p Policy) (Chances, error) {
	return Engine{Policies: Table{Player: p}}.Chances(s, t)
}

var cmpAttempt = cmpopts.IgnoreUnexported(Attempt{})

// cmpState compares states by what they save.
var cmpState = cmpopts.IgnoreUnexported(State{})

// The text's "Adding Dice" example: a +2 talent and a push's +2 are four
// extra dice; one harm takes one away, three extra in all.
func TestAddingDiceExample(t *testing.T) {
	c := newChar(t, DefaultRules())
	c.Harm[0].Rows[0] = 1 // one lesser harm: -1 die
	r := dice.Scripted(6, 1, 2, 3, 4, 6, 6, 1, 1, 1, 1)
	at := &c.Attempt
	if err := eng.Begin(c, r, Test{Action: "Prowl", Position: Risky, Difficulty: 2, Bonus: 2}); err != nil {
		t.Fatal(err)
	}
	wantPool := Pool{Action: 2, Attribute: 2, Bonus: 2, Penalty: 1, Dice: 5}
	if d := cmp.Diff(wantPool, at.Pool); d != "" {
		t.Errorf("pool (-want +got):\n%s", d)
	}
	if at.Successes != 1 {
		t.Errorf("first roll successes = %d, want 1", at.Successes)
	}
	if err := eng.Push(c, r, "physical"); err != nil {
		t.Fatal(err)
	}
	if err := eng.Finish(c); err != nil {
		t.Fatal(err)
	}
	if err := r.Err(); err != nil || r.Remaining() != 0 {
		t.Fatalf("script: err %v, %d faces left", err, r.Remaining())
	}
	// 4 non-sixes re-rolled plus 2: the kept six plus 6 new dice = base 4 + 3.
	if d := cmp.Diff([]int{6, 6, 1, 1, 1, 1}, at.Rerolled); d != "" {
		t.Errorf("rerolled (-want +got):\n%s", d)
	}
	if got := 1 + len(at.Rerolled); got != 4+3 {
		t.Errorf("dice in play %d, want 7", got)
	}
	if at.Successes != 3 || at.Band != BandMultiple || at.Extra != 1 || at.Outcome.Kind != SuccessBonus {
		t.Errorf("got %d successes, band %v, extra %d, kind %v; want 3, multiple, 1, success_with_bonus",
			at.Successes, at.Band, at.Extra, at.Outcome.Kind)
	}
	// The push's level 1 harm found the lesser row with one free slot.
	if d := cmp.Diff(harmOf([3]int{2, 0, 0}, [3]int{}), c.Harm); d != "" {
		t.Errorf("harm (-want +got):\n%s", d)
	}
}

// "BandMultiple Successes": a challenging test with 2 successes gives no extra.
func TestExtraSuccesses(t *testing.T) {
	for _, tc := range []struct {
		faces      []int
		difficulty int
		band       Band
		extra      int
	}{
		{[]int{6, 6, 1, 2}, 2, BandSuccess, 0},
		{[]int{6, 6, 6, 2}, 2, BandMultiple, 1},
		{[]int{6, 6, 6, 6}, 1, BandMultiple, 3},
		{[]int{6, 5, 1, 2}, 2, BandFailure, 0},
		{[]int{6, 6, 6, 1}, 3, BandSuccess, 0},
	} {
		c := newChar(t, DefaultRules())
		at := &c.Attempt
		if err := eng.Begin(c, dice.Scripted(tc.faces...), Test{Action: "Prowl", Position: Risky, Difficulty: tc.difficulty, NoHarm: true}); err != nil {
			t.Fatal(err)
		}
		if err := eng.Finish(c); err != nil {
			t.Fatal(err)
		}
		if at.Band != tc.band || at.Extra != tc.extra {
			t.Errorf("%v at difficulty %d: band %v extra %d, want %v %d", tc.faces, tc.difficulty, at.Band, at.Extra, tc.band, tc.extra)
		}
	}
}

// The position x outcome table, cell by cell.
func TestOutcomeTable(t *testing.T) {
	type want struct {
		kind      Kind
		succeeded bool
		bonus     int
		harm      []TrackHarm
		lost      bool
	}
	none := harmOf([3]int{}, [3]int{})
	for _, tc := range []struct {
		pos   Position
		faces []int
		want  want
	}{
		{Controlled, []int{6, 6, 1, 1}, want{SuccessBonus, true, 0, none, false}},
		{Controlled, []int{6, 2, 1, 1}, want{SuccessBonus, true, 1, none, false}},
		{Controlled, []int{5, 2, 1, 1}, want{SuccessConsequence, true, 0, harmOf([3]int{1, 0, 0}, [3]int{}), false}},
		{Risky, []int{6, 6, 1, 1}, want{SuccessBonus, true, 0, none, false}},
		{Risky, []int{6, 2, 1, 1}, want{Success, true, 0, none, false}},
		{Risky, []int{5, 2, 1, 1}, want{Badly, false, 0, harmOf([3]int{0, 1, 0}, [3]int{}), true}},
		{Desperate, []int{6, 6, 1, 1}, want{Success, true, 0, none, false}},
		{Desperate, []int{6, 2, 1, 1}, want{SuccessConsequence, true, 0, none, false}},
		{Desperate, []int{5, 2, 1, 1}, want{Worst, false, 0, harmOf([3]int{0, 0, 1}, [3]int{}), true}},
	} {
		c := newChar(t, DefaultRules())
		at := &c.Attempt
		if err := eng.Begin(c, dice.Scripted(tc.faces...), Test{Action: "Prowl", Position: tc.pos, Difficulty: 1}); err != nil {
			t.Fatal(err)
		}
		if err := eng.Finish(c); err != nil {
			t.Fatal(err)
		}
		lost := false
		for _, q := range at.Outcome.Consequences {
			lost = lost || q.Kind == LostOpportunity
		}
		got := want{at.Outcome.Kind, at.Outcome.Succeeded, c.Bonus, c.Harm, lost}
		if d := cmp.Diff(tc.want, got, cmp.AllowUnexported(want{})); d != "" {
			t.Errorf("position %s %v (-want +got):\n%s", tc.pos, tc.faces, d)
		}
	}
}

// "+1 to your next roll" is carried and spent by the next roll.
func TestCarriedBonus(t *testing.T) {
	c := newChar(t, DefaultRules())
	at := &c.Attempt
	tst := Test{Action: "Prowl", Position: Controlled, Difficulty: 1}
	if err := eng.Begin(c, dice.Scripted(6, 1, 1, 1), tst); err != nil {
		t.Fatal(err)
	}
	if err := eng.Finish(c); err != nil {
		t.Fatal(err)
	}
	if c.Bonus != 1 {
		t.Fatalf("bonus = %d, want 1", c.Bonus)
	}
	if err := eng.Begin(c, dice.Scripted(1, 1, 1, 1, 1), tst); err != nil {
		t.Fatal(err)
	}
	if at.Pool.Carried != 1 || at.Pool.Dice != 5 || c.Bonus != 0 {
		t.Errorf("carried %d, dice %d, bonus left %d; want 1, 5, 0", at.Pool.Carried, at.Pool.Dice, c.Bonus)
	}
}

func TestHarmOverflow(t *testing.T) {
	c := newChar(t, DefaultRules())
	rows := []int{}
	for range 6 {
		row, err := eng.TakeHarm(c, 1, "physical")
		if err != nil {
			t.Fatal(err)
		}
		rows = append(rows, row)
	}
	// lesser, lesser, moderate, moderate, severe, critical.
	if d := cmp.Diff([]int{0, 0, 1, 1, 2, -1}, rows); d != "" {
		t.Errorf("rows (-want +got):\n%s", d)
	}
	if c.Harm[0].Critical != 1 || !c.Incapacitated() || c.Penalty() != 6 {
		t.Errorf("critical %d, incapacitated %v, penalty %d; want 1, true, 6", c.Harm[0].Critical, c.Incapacitated(), c.Penalty())
	}
	if row, _ := eng.TakeHarm(c, 2, "mental"); row != 1 {
		t.Errorf("level 2 on an empty track filled row %d, want 1", row)
	}
	if _, err := eng.TakeHarm(c, 4, "physical"); err == nil {
		t.Error("harm level 4 accepted")
	}
	if _, err := eng.TakeHarm(c, 1, "astral"); err == nil {
		t.Error("harm track \"astral\" accepted")
	}
}

func TestMinimumOneDie(t *testing.T) {
	c := newChar(t, DefaultRules())
	c.Harm[0].Rows = []int{2, 2, 0}
	c.Harm[1].Rows = []int{2, 2, 0}
	at := &c.Attempt
	if err := eng.Begin(c, dice.Scripted(6), Test{Action: "Prowl", Position: Risky, Difficulty: 1}); err != nil {
		t.Fatal(err)
	}
	if at.Pool.Dice != 1 || at.Pool.Penalty != 12 || len(at.Dice) != 1 {
		t.Errorf("pool %+v, dice %v; want 1 die against a penalty of 12", at.Pool, at.Dice)
	}
}

func TestHelpAndEquipment(t *testing.T) {
	c := newChar(t, DefaultRules())
	at := &c.Attempt
	faces := make([]int, 20)
	for i := range faces {
		faces[i] = 1
	}
	for _, tc := range []struct{ helpers, equip, help, dice int }{
		{0, 0, 0, 4}, {1, 1, 1, 6}, {3, 0, 3, 7}, {5, 3, 3, 10},
	} {
		if err := eng.Begin(c, dice.Scripted(faces...), Test{Action: "Prowl", Position: Risky, Difficulty: 1, Helpers: tc.helpers, Equipment: tc.equip}); err != nil {
			t.Fatal(err)
		}
		if at.Pool.Help != tc.help || at.Pool.Dice != tc.dice {
			t.Errorf("helpers %d equipment %d: help %d dice %d, want %d %d", tc.helpers, tc.equip, at.Pool.Help, at.Pool.Dice, tc.help, tc.dice)
		}
		restart(t, c) // abandon the roll: each case starts afresh
	}
}

func TestPushSpace(t *testing.T) {
	for _, tc := range []struct {
		rule  SpaceRule
		phys  [3]int
		ok    bool
		after [3]int
	}{
		{SpaceTrack, [3]int{2, 0, 0}, true, [3]int{2, 1, 0}},
		{SpaceBottomRow, [3]int{2, 0, 0}, false, [3]int{2, 0, 0}},
		{SpaceBottomRow, [3]int{1, 0, 0}, true, [3]int{2, 0, 0}},
		{SpaceTrack, [3]int{2, 2, 0}, true, [3]int{2, 2, 1}},
		{SpaceTrack, [3]int{2, 2, 1}, false, [3]int{2, 2, 1}},
	} {
		rl := DefaultRules()
		rl.PushSpace = tc.rule
		c := newChar(t, rl)
		c.Harm[0].Rows = tc.phys[:]
		r := dice.Scripted(1, 1, 1, 1, 6, 1, 1, 1, 1, 1)
		if err := eng.Begin(c, r, Test{Action: "Prowl", Position: Risky, Difficulty: 1, Helpers: 1}); err != nil {
			t.Fatal(err)
		}
		err := eng.Push(c, r, "physical")
		if tc.ok != (err == nil) || (!tc.ok && !errors.Is(err, ErrNoSpace)) {
			t.Errorf("%s %v: push error %v, want ok=%v", tc.rule, tc.phys, err, tc.ok)
		}
		if d := cmp.Diff(tc.after[:], c.Harm[0].Rows); d != "" {
			t.Errorf("%s %v: harm after (-want +got):\n%s", tc.rule, tc.phys, d)
		}
	}
}

// Every rejected step leaves the character's state exactly as it was and
// draws nothing from the Roller.
func TestRejectedStepsChangeNothing(t *testing.T) {
	base := Test{Action: "Prowl", Position: Risky, Difficulty: 1}
	type step func(c *State, r *dice.Roller) error
	begin := func(tst Test) step {
		return func(c *State, r *dice.Roller) error { return eng.Begin(c, r, tst) }
	}
	push := func(track string) step {
		return func(c *State, r *dice.Roller) error { return eng.Push(c, r, track) }
	}
	finish := func(c *State, _ *dice.Roller) error { return eng.Finish(c) }
	with := func(f func(*Test)) Test { x := base; f(&x); return x }
	for _, tc := range []struct {
		name  string
		setup func(c *State)
		step  step
		is    error
	}{
		{name: "unknown action", step: begin(with(func(x *Test) { x.Action = "Juggle" }))},
		{name: "difficulty 0", step: begin(with(func(x *Test) { x.Difficulty = 0 }))},
		{name: "negative helpers", step: begin(with(func(x *Test) { x.Helpers = -1 }))},
		{name: "equipment 4", step: begin(with(func(x *Test) { x.Equipment = 4 }))},
		{name: "unknown position", step: begin(with(func(x *Test) { x.Position = "comfy" }))},
		{name: "position by number", step: begin(with(func(x *Test) { x.Position = "2" }))},
		{name: "harm track", step: begin(with(func(x *Test) { x.HarmTrack = "spiritual" }))},
		{name: "peril harm 4", step: begin(with(func(x *Test) { x.Peril, x.PerilHarm = true, 4 }))},
		{name: "peril harm below moderate", step: begin(with(func(x *Test) { x.Peril, x.PerilHarm = true, 1 }))},
		{name: "negative flashback difficulty", step: begin(with(func(x *Test) { x.Flashback, x.Difficulty = true, -1 }))},
		{name: "flashbacks used", setup: func(c *State) { c.FlashbacksUsed = 1 },
			step: begin(with(func(x *Test) { x.Flashback = true })), is: ErrFlashbacks},
		{name: "severe, peril, no help", setup: func(c *State) { c.Harm[0].Rows[2] = 1 },
			step: begin(with(func(x *Test) { x.Peril = true })), is: ErrIncapacitated},
		{name: "severe, no space", setup: func(c *State) {
			c.Harm = harmOf([3]int{2, 2, 1}, [3]int{2, 2, 1})
		}, step: begin(base), is: ErrIncapacitated},
		{name: "begin over a roll in flight", setup: func(c *State) {
			_ = eng.Begin(c, dice.Scripted(1, 1, 1, 1), base)
		}, step: begin(base), is: ErrInFlight},
		{name: "flashback over a roll in flight", setup: func(c *State) {
			_ = eng.Begin(c, dice.Scripted(1, 1, 1, 1), base)
		}, step: begin(with(func(x *Test) { x.Flashback = true })), is: ErrInFlight},
		{name: "push twice", setup: func(c *State) {
			r := dice.Scripted(1, 1, 1, 1, 1, 1, 1, 1, 1, 1)
			_ = eng.Begin(c, r, base)
			_ = eng.Push(c, r, "physical")
		}, step: push("physical"), is: ErrPushTwice},
		{name: "push without space", setup: func(c *State) {
			c.Harm[0].Rows = []int{2, 2, 1}
			_ = eng.Begin(c, dice.Scripted(1, 1, 1, 1), with(func(x *Test) { x.Helpers = 1 }))
		}, step: push("physical"), is: ErrNoSpace},
		{name: "push a peril roll", setup: func(c *State) {
			_ = eng.Begin(c, dice.Scripted(1, 1, 1, 1, 1, 1, 1), with(func(x *Test) { x.Peril = true }))
		}, step: push("physical"), is: ErrPerilPush},
		{name: "push bad track", setup: func(c *State) { _ = eng.Begin(c, dice.Scripted(1, 1, 1, 1), base) },
			step: push("spiritual")},
		{name: "push before roll", step: push("physical"), is: ErrStage},
		{name: "finish twice", setup: func(c *State) {
			_ = eng.Begin(c, dice.Scripted(1, 1, 1, 1), base)
			_ = eng.Finish(c)
		}, step: finish, is: ErrStage},
		{name: "finish without the needed push", setup: func(c *State) {
			c.Harm[1].Rows[2] = 1
			_ = eng.Begin(c, dice.Scripted(1, 1, 1, 1), base)
		}, step: finish, is: ErrMustPush},
		{name: "retry without a worse position", setup: func(c *State) {
			_ = play(c, dice.Scripted(6, 1, 1, 1), base, Never{})
		}, step: func(c *State, r *dice.Roller) error { return eng.Retry(c, r, base.At(Desperate)) }, is: ErrStage},
		{name: "retry at the wrong position", setup: func(c *State) {
			_ = play(c, dice.Scripted(1, 1, 1, 1), with(func(x *Test) { x.Escalate = true }), Never{})
		}, step: func(c *State, r *dice.Roller) error { return eng.Retry(c, r, base) }, is: ErrStage},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newChar(t, DefaultRules())
			if tc.setup != nil {
				tc.setup(c)
			}
			before := c.Clone()
			r := dice.Scripted(6, 6, 6, 6, 6, 6, 6, 6, 6, 6)
			err := tc.step(c, r)
			if err == nil {
				t.Fatal("step accepted")
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Errorf("error %v, want %v", err, tc.is)
			}
			if d := cmp.Diff(before, c, cmpState, cmpopts.EquateEmpty()); d != "" {
				t.Errorf("state changed (-before +after):\n%s", d)
			}
			if r.Remaining() != 10 {
				t.Errorf("the step drew %d dice", 10-r.Remaining())
			}
		})
	}
}

func TestBadSheets(t *testing.T) {
	for _, s := range []Sheet{
		{Attributes: map[string]int{"Luck": 1}},
		{Attributes: map[string]int{"Strength": 6}},
		{Attributes: map[string]int{"Strength": -1}},
		{Actions: map[string]int{"Juggle": 1}},
		{Actions: map[string]int{"Prowl": 6}},
	} {
		if _, err := NewState(DefaultRules(), s); err == nil {
			t.Errorf("sheet %+v accepted", s)
		}
	}
	rl := DefaultRules()
	rl.Actions[0].Attribute = "Luck"
	if _, err := NewState(rl, testSheet); !errors.Is(err, ErrRules) {
		t.Errorf("action linked to an unknown attribute: %v", err)
	}
}

func TestRulesCheck(t *testing.T) {
	for name, f := range map[string]func(*Rules){
		"no attributes": func(r *Rules) { r.Attributes = nil },
		"dup track":     func(r *Rules) { r.HarmTracks = []string{"a", "a"} },
		"attr harm":     func(r *Rules) { r.Attributes[0].Harm = "x" },
		"no actions":    func(r *Rules) { r.Actions = nil },
		"sides":         func(r *Rules) { r.Sides = 1 },
		"success face":  func(r *Rules) { r.SuccessFace = 7 },
		"push harm":     func(r *Rules) { r.PushHarm = 0 },
		"push space":    func(r *Rules) { r.PushSpace = "loose" },
		"rows":          func(r *Rules) { r.HarmRows = nil },
		"row slots":     func(r *Rules) { r.HarmRows[0].Slots = 0 },
		"table rows":    func(r *Rules) { r.Table = r.Table[:2] },
		"table order":   func(r *Rules) { r.Table[0], r.Table[1] = r.Table[1], r.Table[0] },
		"row position":  func(r *Rules) { r.Table[2].Position = "dire" },
		"dup position":  func(r *Rules) { r.Positions[1] = "controlled" },
		"severity":      func(r *Rules) { r.Table[0].Multiple.Severity = "mild" },
		"consequence":   func(r *Rules) { r.Table[0].Multiple.Consequences = []Consequence{{Kind: "doom"}} },
		"harm level":    func(r *Rules) { r.Table[0].Multiple.Consequences = []Consequence{{Kind: Harm, Level: 4}} },
		"kind":          func(r *Rules) { r.Table[0].Multiple.Kind = 9 },
	} {
		rl := DefaultRules()
		f(&rl)
		if err := rl.Validate(); !errors.Is(err, ErrRules) {
			t.Errorf("%s: Check = %v", name, err)
		}
	}
	rl := DefaultRules()
	if err := rl.Validate(); err != nil {
		t.Fatal(err)
	}
}

// Risk Peril: +3 dice, its price paid even on a success, and no push.
func TestRiskPeril(t *testing.T) {
	c := newChar(t, DefaultRules())
	at := &c.Attempt
	r := dice.Scripted(6, 6, 1, 1, 1, 1, 1)
	if err := eng.Begin(c, r, Test{Action: "Prowl", Position: Risky, Difficulty: 1, Peril: true, PerilHarm: 2}); err != nil {
		t.Fatal(err)
	}
	if at.Pool.Peril != 3 || at.Pool.Dice != 7 {
		t.Errorf("pool %+v, want 3 peril dice, 7 in all", at.Pool)
	}
	if err := eng.Finish(c); err != nil {
		t.Fatal(err)
	}
	if !at.Outcome.Succeeded || c.Harm[0].Rows[1] != 1 {
		t.Errorf("succeeded %v, moderate physical harm %d; want true, 1", at.Outcome.Succeeded, c.Harm[0].Rows[1])
	}
}

// Severe harm: a character acts alone only by pushing; help lets them act.
func TestSevereHarm(t *testing.T) {
	c := newChar(t, DefaultRules())
	c.Harm[0].Rows[2] = 1
	at := &c.Attempt
	r := dice.Scripted(1, 1, 1, 1, 6, 1, 1, 1, 1, 1)
	if err := eng.Begin(c, r, Test{Action: "Prowl", Position: Risky, Difficulty: 1}); err != nil {
		t.Fatal(err)
	}
	if !at.MustPush {
		t.Fatal("must push not set")
	}
	if err := eng.Push(c, r, "physical"); err != nil {
		t.Fatal(err)
	}
	if err := eng.Finish(c); err != nil {
		t.Fatal(err)
	}
	if err := play(c, dice.Scripted(1, 1, 1, 1, 1, 1, 1), Test{Action: "Prowl", Position: Risky, Difficulty: 1}, Never{}); err != nil {
		t.Fatalf("Never must still push when it is the only way to act: %v", err)
	}
	if err := eng.Begin(c, dice.Scripted(1, 1, 1, 1, 1, 1, 1, 1), Test{Action: "Prowl", Position: Risky, Difficulty: 1, Helpers: 1}); err != nil || at.MustPush {
		t.Fatalf("helped: err %v, must push %v", err, at.MustPush)
	}
}

func TestFlashback(t *testing.T) {
	c := newChar(t, DefaultRules())
	at := &c.Flashback
	fb := Test{Action: "Persuade", Position: Risky, Flashback: true}
	if err := eng.Begin(c, dice.Scripted(), fb); err != nil {
		t.Fatal(err)
	}
	if err := eng.Finish(c); err != nil {
		t.Fatal(err)
	}
	if !at.Outcome.Succeeded || len(at.Dice) != 0 || c.Bonus != 1 || c.FlashbacksUsed != 1 {
		t.Errorf("difficulty 0 flashback: succeeded %v, dice %v, bonus %d, used %d", at.Outcome.Succeeded, at.Dice, c.Bonus, c.FlashbacksUsed)
	}
	if err := eng.Begin(c, dice.Scripted(6, 6, 6, 6, 6), fb); !errors.Is(err, ErrFlashbacks) {
		t.Errorf("second flashback today: %v", err)
	}
	eng.NewDay(c)
	fb.Difficulty = 2
	// Persuade 1 + Presence 3 + carried 1 = 5 dice; one six fails a
	// difficulty-2 flashback: no bonus, and the carried die is spent.
	if err := eng.Begin(c, dice.Scripted(6, 1, 1, 1, 1), fb); err != nil {
		t.Fatal(err)
	}
	if err := eng.Finish(c); err != nil {
		t.Fatal(err)
	}
	if at.Pool.Dice != 5 || at.Outcome.Succeeded || c.Bonus != 0 {
		t.Errorf("difficulty 2 flashback: dice %d, succeeded %v, bonus %d; want 5, false, 0", at.Pool.Dice, at.Outcome.Succeeded, c.Bonus)
	}
}

func TestWorsePosition(t *testing.T) {
	c := newChar(t, DefaultRules())
	at := &c.Attempt
	tst := Test{Action: "Prowl", Position: Risky, Difficulty: 1, Escalate: true}
	if err := eng.Begin(c, dice.Scripted(1, 1, 1, 1), tst); err != nil {
		t.Fatal(err)
	}
	if err := eng.Finish(c); err != nil {
		t.Fatal(err)
	}
	if !at.Retry || at.NextPosition != Desperate || at.HarmTaken || at.Outcome.Consequences[0].Kind != WorsePosition {
		t.Fatalf("risky failure with escalation: %+v", at)
	}
	if err := eng.Retry(c, dice.Scripted(1, 1, 1, 1), tst.At(at.NextPosition)); err != nil {
		t.Fatal(err)
	}
	if err := eng.Finish(c); err != nil {
		t.Fatal(err)
	}
	if at.Retry || at.Outcome.Kind != Worst || c.Harm[0].Rows[2] != 1 {
		t.Errorf("desperate failure cannot escalate: retry %v kind %v harm %v", at.Retry, at.Outcome.Kind, c.Harm)
	}
}

func TestOpposed(t *testing.T) {
	var a, b Attempt
	if _, err := Opposed(&a, &b); !errors.Is(err, ErrStage) {
		t.Errorf("unrolled opposed test: %v", err)
	}
	for _, tc := range []struct {
		fa, fb []int
		want   int
	}{
		{[]int{6, 6, 1, 1}, []int{6, 1, 1, 1}, 1},
		{[]int{6, 1, 1, 1}, []int{6, 1, 1, 1}, 0},
		{[]int{1, 1, 1, 1}, []int{6, 1, 1, 1}, -1},
	} {
		c, d := newChar(t, DefaultRules()), newChar(t, DefaultRules())
		if err := eng.Begin(c, dice.Scripted(tc.fa...), Test{Action: "Prowl", Position: Risky, Difficulty: 1}); err != nil {
			t.Fatal(err)
		}
		if err := eng.Begin(d, dice.Scripted(tc.fb...), Test{Action: "Prowl", Position: Risky, Difficulty: 1}); err != nil {
			t.Fatal(err)
		}
		if got, _ := Opposed(&c.Attempt, &d.Attempt); got != tc.want {
			t.Errorf("%v vs %v: %d, want %d", tc.fa, tc.fb, got, tc.want)
		}
	}
}

func TestStateJSON(t *testing.T) {
	c := newChar(t, DefaultRules())
	at := &c.Attempt
	r := dice.Scripted(1, 2, 3, 4, 1, 1, 1, 1, 1, 1)
	if err := eng.Begin(c, r, Test{Action: "Persuade", Position: Desperate, Difficulty: 2}); err != nil {
		t.Fatal(err)
	}
	if err := eng.Push(c, r, "mental"); err != nil {
		t.Fatal(err)
	}
	c.FlashbacksUsed, c.Bonus = 1, 2
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	d, err := restoreState(b)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(c, d, cmpState); diff != "" {
		t.Errorf("state round trip (-want +got):\n%s", diff)
	}
	// The attempt in progress round-tripped with the state and can be
	// finished.
	if err := eng.Finish(d); err != nil {
		t.Fatal(err)
	}
	if err := eng.Finish(c); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(c.Attempt, d.Attempt); diff != "" || !at.Pushed {
		t.Errorf("restored attempt finishes differently (-want +got):\n%s", diff)
	}
	// Persuade is a Presence action: the worst outcome's severe harm lands
	// on the mental track, beside the push's lesser mental harm.
	if diff := cmp.Diff(c, d, cmpState); diff != "" || d.Harm[1].Rows[2] != 1 || d.Harm[1].Rows[0] != 1 {
		t.Errorf("restored finish: harm %v, original %v", d.Harm, c.Harm)
	}
	for _, bad := range []State{
		{Harm: harmOf([3]int{}, [3]int{})[:1]},
		{Harm: harmOf([3]int{3, 0, 0}, [3]int{})},
		{Harm: []TrackHarm{{Track: "physical", Rows: []int{0, 0, 0}}, {Track: "mental", Rows: []int{0, 0, 0}, Critical: -1}}},
		{Harm: harmOf([3]int{}, [3]int{}), FlashbacksUsed: 2},
		{Harm: []TrackHarm{{Track: "physical", Rows: []int{0, 0}}, {Track: "mental", Rows: []int{0, 0, 0}}}},
		{Harm: []TrackHarm{{Track: "mental", Rows: []int{0, 0, 0}}, {Track: "physical", Rows: []int{0, 0, 0}}}},
		{Harm: []TrackHarm{{Track: "physical", Rows: []int{0, 0, 0}}, {Track: "astral", Rows: []int{0, 0, 0}}}},
	} {
		bad.Rules, bad.Sheet, bad.Director = d.Rules, d.Sheet, d.Director
		b, err := json.Marshal(&bad)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := restoreState(b); err == nil {
			t.Errorf("restoreState(%+v) accepted", bad.Harm)
		}
	}
}

func TestEvents(t *testing.T) {
	c := newChar(t, DefaultRules())
	var rec Recorder
	e := Engine{Sink: rec.Record, Policies: Table{Player: WhenFailed{}}}
	if err := e.ActionTest(c, dice.Scripted(1, 2, 3, 4, 6, 1, 1, 1, 1), Test{Action: "Prowl", Position: Risky, Difficulty: 1}); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"Vex rolls 4 dice for Prowl at a risky position: 1 2 3 4, 0 successes.",
		"Vex takes level 1 physical harm, marked in the lesser row.",
		"Vex pushes the roll, paying with physical harm, and re-rolls 6 dice: 6 1 1 1 1 1, 1 success in all.",
		"Vex has 1 success of the 1 needed: a success.",
	}
	if d := cmp.Diff(want, rec.Lines()); d != "" {
		t.Errorf("events (-want +got):\n%s", d)
	}
}

func TestPolicies(t *testing.T) {
	names := PolicyNames()
	if d := cmp.Diff([]string{"always_when_failed", "cautious", "daring", "never", "threshold"}, names); d != "" {
		t.Errorf("policies (-want +got):\n%s", d)
	}
	for _, n := range names {
		if _, err := PolicyByName(n); err != nil {
			t.Error(err)
		}
	}
	if _, err := PolicyByName("yolo"); err == nil {
		t.Error("unknown policy accepted")
	}
	v := View{Pool: 4, Required: 2, Successes: 2, PushTrack: "physical"}
	for _, tc := range []struct {
		p    Policy
		v    View
		push bool
	}{
		{Never{}, v, false},
		{WhenFailed{}, v, false},
		{WhenFailed{}, View{Required: 2, Successes: 1, PushTrack: "mental"}, true},
		{Threshold{Extra: 1, MaxPenalty: 1}, v, true},
		{Threshold{Extra: 1, MaxPenalty: 1}, View{Required: 2, Successes: 2, Penalty: 2, PushTrack: "physical"}, false},
		{Threshold{}, View{MustPush: true, Penalty: 9, PushTrack: "physical"}, true},
	} {
		if got, _ := tc.p.Push(&tc.v); got != tc.push {
			t.Errorf("%s on %+v: push %v, want %v", tc.p.Name(), tc.v, got, tc.push)
		}
	}
}

// badPolicy pushes onto a track that does not exist.
type badPolicy struct{}

func (badPolicy) Name() string                 { return "bad" }
func (badPolicy) Peril(*View) bool             { return false }
func (badPolicy) Push(*View) (bool, string)    { return true, "astral" }
func (badPolicy) Spend(_ *View, b []int) []int { return b }
func (badPolicy) Flashback(*View) bool         { return true }

func TestIllegalPolicyChoice(t *testing.T) {
	c := newChar(t, DefaultRules())
	if err := play(c, dice.Scripted(1, 1, 1, 1), Test{Action: "Prowl", Position: Risky, Difficulty: 1}, badPolicy{}); err == nil {
		t.Error("illegal push track accepted")
	}
	if _, err := chances(c, Test{Action: "Prowl", Position: Risky, Difficulty: 1}, badPolicy{}); err == nil {
		t.Error("Chances accepted an illegal push track")
	}
}

// A table cell that lists Worse Position asks for a re-roll without the
// Escalate flag; at the worst position it cannot.
func TestWorsePositionInTable(t *testing.T) {
	rl := DefaultRules()
	for p := range rl.Table {
		rl.Table[p].Failure = Outcome{Kind: Badly, Severity: Moderate, Consequences: []Consequence{{Kind: WorsePosition}, {Kind: Harm, Level: 1}}}
	}
	c := newChar(t, rl)
	at := &c.Attempt
	for _, tc := range []struct {
		pos, next Position
		retry     bool
	}{{Controlled, Risky, true}, {Risky, Desperate, true}, {Desperate, "", false}} {
		if err := eng.Begin(c, dice.Scripted(1, 1, 1, 1), Test{Action: "Prowl", Position: tc.pos, Difficulty: 1}); err != nil {
			t.Fatal(err)
		}
		if err := eng.Finish(c); err != nil {
			t.Fatal(err)
		}
		if at.Retry != tc.retry || at.NextPosition != tc.next || !at.HarmTaken {
			t.Errorf("position %s: retry %v next %q harm %v", tc.pos, at.Retry, at.NextPosition, at.HarmTaken)
		}
	}
}
