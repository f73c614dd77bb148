package actiontest

import (
	"encoding/json"
	"errors"
	"testing"

	"slices"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/stakesrpg/stakes/dice"
)

// A prepared test started again and again plays exactly as Begin does, and
// Start still checks what depends on the state.
func TestPlanStartMatchesBegin(t *testing.T) {
	tst := Test{Action: "Prowl", Position: Risky, Difficulty: 1}
	a, b := newChar(t, DefaultRules()), newChar(t, DefaultRules())
	p, err := b.Prepare(tst)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(tst, p.Test()); d != "" {
		t.Errorf("plan's test (-want +got):\n%s", d)
	}
	ra, rb := dice.NewSeeded(7), dice.NewSeeded(7)
	var ata, atb Attempt
	for i := range 200 {
		errA := a.Begin(ra, tst, &ata)
		errB := b.Start(rb, &p, &atb)
		if (errA == nil) != (errB == nil) {
			t.Fatalf("test %d: Begin error %v, Start error %v", i, errA, errB)
		}
		if errA != nil {
			break // both characters are out of action the same way
		}
		if ata.MustPush {
			tr := a.pushTrack(0)
			errA, errB := a.Push(ra, &ata, tr), b.Push(rb, &atb, tr)
			if (errA == nil) != (errB == nil) {
				t.Fatalf("test %d: push errors %v and %v", i, errA, errB)
			}
			if errA != nil {
				break
			}
		}
		if err := a.Finish(&ata); err != nil {
			t.Fatal(err)
		}
		if err := b.Finish(&atb); err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(ata, atb, cmpopts.IgnoreUnexported(Attempt{})); d != "" {
			t.Fatalf("test %d: attempts differ (-Begin +Start):\n%s", i, d)
		}
		if d := cmp.Diff(a.State, b.State); d != "" {
			t.Fatalf("test %d: states differ (-Begin +Start):\n%s", i, d)
		}
	}
	if harmCount(&b.State) == 0 {
		t.Error("200 risky tests and no harm: the loop tested nothing state-dependent")
	}
}

func TestPlanErrors(t *testing.T) {
	c, d := newChar(t, DefaultRules()), newChar(t, DefaultRules())
	if _, err := c.Prepare(Test{Action: "Juggle", Position: Risky, Difficulty: 1}); err == nil {
		t.Error("Prepare accepted an unknown action")
	}
	p, err := d.Prepare(Test{Action: "Prowl", Position: Risky, Difficulty: 1, Flashback: true})
	if err != nil {
		t.Fatal(err)
	}
	var at Attempt
	before := c.State.Clone()
	if err := c.Start(dice.Scripted(6, 6, 6, 6), &p, &at); !errors.Is(err, ErrStage) {
		t.Errorf("another character's plan: error %v, want ErrStage", err)
	}
	if err := c.Start(dice.Scripted(6, 6, 6, 6), &Plan{}, &at); !errors.Is(err, ErrStage) {
		t.Errorf("zero plan: error %v, want ErrStage", err)
	}
	d.State.FlashbacksUsed = 1
	if err := d.Start(dice.Scripted(6, 6, 6, 6), &p, &at); !errors.Is(err, ErrFlashbacks) {
		t.Errorf("flashback with none left: error %v, want ErrFlashbacks", err)
	}
	if d := cmp.Diff(before, c.State); d != "" {
		t.Errorf("rejected Start changed the state (-before +after):\n%s", d)
	}
	if d := cmp.Diff(Attempt{}, at, cmpopts.IgnoreUnexported(Attempt{})); d != "" {
		t.Errorf("rejected Start changed the attempt:\n%s", d)
	}
}

// An attempt reused across plans, characters and a JSON restore always
// records the test it was last started with.
func TestAttemptReuse(t *testing.T) {
	a := newChar(t, DefaultRules())
	b := newChar(t, DefaultRules())
	t1 := Test{Action: "Prowl", Position: Risky, Difficulty: 1, NoHarm: true}
	t2 := Test{Action: "Persuade", Position: Desperate, Difficulty: 2, Helpers: 1, NoHarm: true}
	p1, err := a.Prepare(t1)
	if err != nil {
		t.Fatal(err)
	}
	p2, _ := a.Prepare(t2)
	q1, _ := b.Prepare(t2)
	var at Attempt
	r := dice.NewSeeded(2)
	check := func(step string, c *Character, p *Plan, want Test) {
		t.Helper()
		if err := c.Start(r, p, &at); err != nil {
			t.Fatal(err)
		}
		act, attr, _, _ := c.Rating(want.Action)
		if d := cmp.Diff(want, at.Test); d != "" || at.Pool.Action != act || at.Pool.Attribute != attr {
			t.Errorf("%s: test (-want +got):\n%s pool %+v", step, d, at.Pool)
		}
		if err := c.Finish(&at); err != nil {
			t.Fatal(err)
		}
	}
	check("first", a, &p1, t1)
	check("again", a, &p1, t1)
	check("other plan", a, &p2, t2)
	check("back", a, &p1, t1)
	check("other character", b, &q1, t2)
	check("first character again", a, &p1, t1)
	// A plan variable prepared anew in place is a new plan.
	p1, _ = a.Prepare(t2)
	check("re-prepared", a, &p1, t2)
	// A restored attempt holds the saved test until started again.
	saved, _ := json.Marshal(&at)
	check("before restore", a, &p2, t2)
	p1, _ = a.Prepare(t1)
	check("plan 1", a, &p1, t1)
	if err := json.Unmarshal(saved, &at); err != nil {
		t.Fatal(err)
	}
	if at.Test != t2 {
		t.Fatalf("restored test %+v", at.Test)
	}
	check("after restore", a, &p1, t1)
}

// A zero Attempt rolls a small pool and its push into its own storage:
// no allocation.
func TestZeroAttemptAllocs(t *testing.T) {
	c := newChar(t, DefaultRules())
	p, err := c.Prepare(Test{Action: "Prowl", Position: Risky, Difficulty: 1, NoHarm: true})
	if err != nil {
		t.Fatal(err)
	}
	r := dice.NewSeeded(1)
	at := new(Attempt)
	allocs := testing.AllocsPerRun(100, func() {
		*at = Attempt{}
		_ = c.Start(r, &p, at)
		if err := c.Push(r, at, 0); err != nil {
			t.Fatal(err)
		}
		_ = c.Finish(at)
		_ = c.Heal(0, 0)
		sinkInt += at.Successes
	})
	if allocs != 0 {
		t.Errorf("%v allocations a test", allocs)
	}
}

// Start's path for an ordinary test is count and roll written out: on the
// same dice it leaves the same attempt and state as the general steps,
// test after test, whatever the last test left (a result, a push, harm,
// carried dice).
func TestStartFastPathMatchesSteps(t *testing.T) {
	a := newChar(t, DefaultRules())
	b := newChar(t, DefaultRules())
	ra, rb := dice.NewSeeded(8), dice.NewSeeded(8)
	pick := dice.NewSeeded(9)
	var ata, atb Attempt
	tests := []Test{
		{Action: "Prowl", Position: Controlled, Difficulty: 1},
		{Action: "Prowl", Position: Risky, Difficulty: 2, Helpers: 1},
		{Action: "Persuade", Position: Desperate, Difficulty: 1, Equipment: 2, Escalate: true},
		{Action: "Force", Position: Risky, Difficulty: 1, NoHarm: true, Bonus: 2},
	}
	// Plans prepared once, so the attempts keep or change the plan they
	// hold.
	plansA, plansB := make([]Plan, len(tests)), make([]Plan, len(tests))
	for i, tst := range tests {
		var errA, errB error
		plansA[i], errA = a.Prepare(tst)
		plansB[i], errB = b.Prepare(tst)
		if errA != nil || errB != nil {
			t.Fatal(errA, errB)
		}
	}
	for i := range 3000 {
		k := pick.IntN(len(tests))
		errA := a.Start(ra, &plansA[k], &ata)
		errB := b.count(&plansB[k], &atb)
		if errB == nil {
			b.roll(rb, &atb)
		}
		if (errA == nil) != (errB == nil) {
			t.Fatalf("test %d: Start %v, count %v", i, errA, errB)
		}
		if errA != nil {
			// Out of action: heal both and go on.
			healBoth(a, b)
			continue
		}
		if d := cmp.Diff(&atb, &ata, cmpAttempt); d != "" {
			t.Fatalf("test %d: attempt (-steps +Start):\n%s", i, d)
		}
		if ata.MustPush || pick.IntN(3) == 0 {
			tr := a.pushTrack(0)
			if tr >= 0 {
				if err := a.Push(ra, &ata, tr); err != nil {
					t.Fatal(err)
				}
				if err := b.Push(rb, &atb, tr); err != nil {
					t.Fatal(err)
				}
			}
		}
		errA, errB = a.Finish(&ata), b.Finish(&atb)
		if (errA == nil) != (errB == nil) {
			t.Fatalf("test %d: finish errors %v and %v", i, errA, errB)
		}
		if d := cmp.Diff(b.State, a.State); d != "" {
			t.Fatalf("test %d: state (-steps +Start):\n%s", i, d)
		}
		if harmHeld(&a.State) > 6 {
			healBoth(a, b)
		}
	}
}

// Push's path for a harm that fits its own row, with no sink, is the
// general push written out: on the same dice it leaves the same attempt,
// state and worked-out harm cost as pushSlow, push after push, whatever
// the harm already taken (rows full, Severe harm, tracks without room),
// the track chosen and the size of the re-roll; and under rules whose
// push harm row incapacitates, which the fast path leaves to pushSlow.
func TestPushFastPathMatchesSlow(t *testing.T) {
	incap := DefaultRules()
	incap.HarmRows = slices.Clone(incap.HarmRows)
	incap.HarmRows[0].Incapacitates = true
	for _, rl := range []Rules{DefaultRules(), incap} {
		testPushFastPath(t, rl)
	}
}

func testPushFastPath(t *testing.T, rl Rules) {
	a := newChar(t, rl)
	b := newChar(t, rl)
	ra, rb := dice.NewSeeded(12), dice.NewSeeded(12)
	pick := dice.NewSeeded(13)
	var ata, atb Attempt
	tests := []Test{
		{Action: "Prowl", Position: Risky, Difficulty: 1, NoHarm: true},
		{Action: "Prowl", Position: Desperate, Difficulty: 2, Helpers: 2},
		{Action: "Persuade", Position: Risky, Difficulty: 1, Equipment: 3, Bonus: 3},
		{Action: "Force", Position: Controlled, Difficulty: 1, Bonus: 1},
		{Action: "Prowl", Position: Risky, Difficulty: 1, Peril: true},
	}
	fast, slow := 0, 0
	for i := range 4000 {
		tst := tests[pick.IntN(len(tests))]
		var errA, errB error
		if !beginBoth(t, i, tst, a, b, ra, rb, &ata, &atb) {
			continue
		}
		// Now and then the harm's cost is to be worked out again.
		if pick.IntN(5) == 0 {
			a.HarmChanged()
		}
		tr := pick.IntN(3) - pick.IntN(2) // -1..2: bad tracks too
		before := -1                      // the push harm's row, filled so far
		if tr >= 0 && tr < len(a.State.Harm) {
			before = a.State.Harm[tr][0]
		}
		errA, errB = a.Push(ra, &ata, tr), b.pushSlow(rb, &atb, tr)
		if (errA == nil) != (errB == nil) || (errA != nil && errA.Error() != errB.Error()) {
			t.Fatalf("test %d: push errors %v and %v", i, errA, errB)
		}
		if errA == nil {
			if before >= 0 && before < 2 {
				fast++
			} else {
				slow++
			}
		}
		sameAsSlow(t, i, a, b, &ata, &atb)
		pa, ia := a.load()
		pb, ib := b.load()
		if pa != pb || ia != ib || !slices.Equal(a.free, b.free) {
			t.Fatalf("test %d: harm cost %d %v %v, slow %d %v %v", i, pa, ia, a.free, pb, ib, b.free)
		}
		if err := a.Finish(&ata); (err == nil) != (b.Finish(&atb) == nil) {
			t.Fatalf("test %d: finish errors differ", i)
		}
		if harmHeld(&a.State) > 7 {
			healBoth(a, b)
		}
	}
	if fast < 500 || slow < 200 {
		t.Errorf("%d pushes with room in the lowest row, %d without: the loop missed a path", fast, slow)
	}
}

// Finish's path for a test that is no flashback and need not be pushed
// is finishSlow written out: the same attempt, state, events and errors,
// test after test, across positions, difficulties, harm, escalation,
// flashbacks, must-push rolls and steps out of order.
func TestFinishFastPathMatchesSlow(t *testing.T) {
	a := newChar(t, DefaultRules())
	b := newChar(t, DefaultRules())
	var ea, eb Recorder
	a.Sink, b.Sink = &ea, &eb
	ra, rb := dice.NewSeeded(14), dice.NewSeeded(14)
	pick := dice.NewSeeded(15)
	var ata, atb Attempt
	tests := []Test{
		{Action: "Prowl", Position: Controlled, Difficulty: 1},
		{Action: "Prowl", Position: Risky, Difficulty: 2, NoHarm: true},
		{Action: "Persuade", Position: Desperate, Difficulty: 1, Escalate: true},
		{Action: "Force", Position: Risky, Difficulty: 1, Bonus: 2},
		{Action: "Prowl", Position: Risky, Difficulty: 1, Flashback: true},
		{Action: "Prowl", Position: Controlled, Difficulty: 0, Flashback: true},
	}
	for i := range 3000 {
		if pick.IntN(3) == 0 {
			a.Sink, b.Sink = nil, nil
		} else {
			a.Sink, b.Sink = &ea, &eb
		}
		a.NewDay()
		b.NewDay()
		tst := tests[pick.IntN(len(tests))]
		var errA, errB error
		if !beginBoth(t, i, tst, a, b, ra, rb, &ata, &atb) {
			continue
		}
		if ata.MustPush && pick.IntN(2) == 0 {
			if tr := a.pushTrack(0); tr >= 0 {
				if err := a.Push(ra, &ata, tr); err != nil {
					t.Fatal(err)
				}
				if err := b.Push(rb, &atb, tr); err != nil {
					t.Fatal(err)
				}
			}
		}
		// Now and then finish twice: a step out of order.
		for range 1 + b2i(pick.IntN(8) == 0) {
			errA, errB = a.Finish(&ata), b.finishSlow(&atb)
			if (errA == nil) != (errB == nil) || (errA != nil && errA.Error() != errB.Error()) {
				t.Fatalf("test %d: finish errors %v and %v", i, errA, errB)
			}
			sameAsSlow(t, i, a, b, &ata, &atb)
		}
		if harmHeld(&a.State) > 6 {
			healBoth(a, b)
		}
	}
	if d := cmp.Diff(eb.Events, ea.Events); d != "" || len(ea.Events) < 1000 {
		t.Errorf("events (-slow +fast), %d events:\n%s", len(ea.Events), d)
	}
}

// A state given more harm tracks by hand than the rules have is refused a
// push on the extra track, not met with a panic.
func TestPushExtraTrack(t *testing.T) {
	c := newChar(t, DefaultRules())
	c.State = State{Harm: [][]int{{0, 0, 0}, {0, 0, 0}, {0, 0, 0}}, Critical: []int{0, 0, 0}}
	c.HarmChanged()
	p, err := c.Prepare(Test{Action: "Prowl", Position: Risky, Difficulty: 1, NoHarm: true})
	if err != nil {
		t.Fatal(err)
	}
	at := &Attempt{Dice: make([]int, 0, 8), Rerolled: make([]int, 0, 8)}
	if err := c.Start(dice.NewSeeded(3), &p, at); err != nil {
		t.Fatal(err)
	}
	if err := c.Push(dice.NewSeeded(4), at, 2); err == nil {
		t.Error("push on a track the rules do not have: no error")
	}
}

// Heal's path for a push's harm (row PushHarm-1, its cost at hand) is heal
// written out: the same errors, state and harm cost, heal after heal, over
// random harm, bad tracks and rows, and costs to be worked out again; and
// under rules where that row incapacitates, where Heal must not take it.
func TestHealFastPathMatchesSlow(t *testing.T) {
	incap := DefaultRules()
	incap.HarmRows = slices.Clone(incap.HarmRows)
	incap.HarmRows[0].Incapacitates = true
	for _, rl := range []Rules{DefaultRules(), incap} {
		a, b := newChar(t, rl), newChar(t, rl)
		pick := dice.NewSeeded(16)
		fast := 0
		for i := range 6000 {
			if i%8 == 0 {
				var s State
				s.Harm = harmOf([3]int{pick.IntN(3), pick.IntN(3), pick.IntN(2)}, [3]int{pick.IntN(3), pick.IntN(3), pick.IntN(2)})
				s.Critical = []int{0, 0}
				if err := a.SetState(s); err != nil {
					t.Fatal(err)
				}
				if err := b.SetState(s); err != nil {
					t.Fatal(err)
				}
				// Both with their costs worked out, as play leaves them.
				a.load()
				b.load()
			}
			if pick.IntN(6) == 0 {
				a.HarmChanged()
			}
			tr, row := pick.IntN(4)-1, pick.IntN(5)-1 // -1..2 and -1..3: bad ones too
			if pick.IntN(2) == 0 {
				row = 0
			}
			wasFast := a.loaded && row == 0 && tr >= 0 && tr < 2 && a.State.Harm[tr][0] > 0
			errA, errB := a.Heal(tr, row), b.heal(tr, row)
			if (errA == nil) != (errB == nil) || (errA != nil && errA.Error() != errB.Error()) {
				t.Fatalf("heal %d (%d, %d): errors %v and %v", i, tr, row, errA, errB)
			}
			if errA == nil && wasFast {
				fast++
			}
			if d := cmp.Diff(b.State, a.State); d != "" {
				t.Fatalf("heal %d: state (-slow +fast):\n%s", i, d)
			}
			if a.loaded && b.loaded && (a.pen != b.pen || a.incap != b.incap || !slices.Equal(a.free, b.free)) {
				t.Fatalf("heal %d: harm cost %d %v %v, slow %d %v %v", i, a.pen, a.incap, a.free, b.pen, b.incap, b.free)
			}
			pa, ia := a.load()
			pb, ib := b.load()
			if pa != pb || ia != ib || !slices.Equal(a.free, b.free) {
				t.Fatalf("heal %d: harm cost %d %v %v, slow %d %v %v", i, pa, ia, a.free, pb, ib, b.free)
			}
		}
		if fast < 500 {
			t.Errorf("%d heals of a push's harm with its cost at hand: the loop missed the path", fast)
		}
	}
}

// Start leaves no trace of the attempt's last result, whichever step wrote
// it: a finish with harm or a re-roll, extra successes spent, a restore
// from JSON, or the common finish after which Start skips clearing what it
// knows is clear.
func TestStartClearsResult(t *testing.T) {
	c := newChar(t, DefaultRules())
	r, pick := dice.NewSeeded(17), dice.NewSeeded(18)
	tests := []Test{
		{Action: "Prowl", Position: Risky, Difficulty: 1, NoHarm: true},
		{Action: "Prowl", Position: Controlled, Difficulty: 1, Bonus: 2, NoHarm: true},
		{Action: "Prowl", Position: Desperate, Difficulty: 2},
		{Action: "Persuade", Position: Risky, Difficulty: 1, Escalate: true, NoHarm: true},
		{Action: "Force", Position: Risky, Difficulty: 1, Bonus: 3},
	}
	var at Attempt
	var saved []byte
	flagged, spent, restored := 0, 0, 0
	for i := range 4000 {
		if err := c.Begin(r, tests[pick.IntN(len(tests))], &at); err != nil {
			c.setFrom(&State{Harm: harmOf([3]int{}, [3]int{}), Critical: []int{0, 0}})
			continue
		}
		var want Attempt
		want.Test, want.Stage, want.Pool, want.Dice, want.Successes = at.Test, Rolled, at.Pool, at.Dice, at.Successes
		want.MustPush = at.MustPush
		if d := cmp.Diff(&want, &at, cmpAttempt, cmpopts.EquateEmpty()); d != "" {
			t.Fatalf("start %d: attempt (-clear +got):\n%s", i, d)
		}
		if at.MustPush { // Severe harm: start afresh
			c.setFrom(&State{Harm: harmOf([3]int{}, [3]int{}), Critical: []int{0, 0}})
			continue
		}
		if err := c.Finish(&at); err != nil {
			t.Fatal(err)
		}
		if at.Retry || at.HarmTaken {
			flagged++
		}
		if at.Extra > 0 && pick.IntN(2) == 0 {
			e := "bonus_die"
			if harmHeld(&c.State) > 0 {
				e = "heal_harm"
			}
			if err := c.Spend(&at, e); err != nil {
				t.Fatal(err)
			}
			spent++
		}
		// Restore, into the same attempt, the last one that took harm or
		// asked for a re-roll.
		if at.Retry || at.HarmTaken {
			b, err := json.Marshal(&at)
			if err != nil {
				t.Fatal(err)
			}
			saved = b
		} else if saved != nil && pick.IntN(4) == 0 {
			if err := json.Unmarshal(saved, &at); err != nil {
				t.Fatal(err)
			}
			restored++
		}
		if harmHeld(&c.State) > 5 {
			c.setFrom(&State{Harm: harmOf([3]int{}, [3]int{}), Critical: []int{0, 0}})
		}
	}
	if flagged < 300 || spent < 100 || restored < 300 {
		t.Errorf("%d flagged finishes, %d spends, %d restores: the loop missed a path", flagged, spent, restored)
	}
}

// An attempt keeps the row of its plan's outcome table for Finish; when the
// character's Director changes between tests, or a copy of the character
// sets its own, Finish still plays the character's current rulings, as
// finishSlow does.
func TestFinishFollowsDirector(t *testing.T) {
	a, b := newChar(t, DefaultRules()), newChar(t, DefaultRules())
	ra, rb := dice.NewSeeded(19), dice.NewSeeded(19)
	pick := dice.NewSeeded(20)
	tests := []Test{
		{Action: "Prowl", Position: Desperate, Difficulty: 1},
		{Action: "Prowl", Position: Risky, Difficulty: 2},
		{Action: "Force", Position: Controlled, Difficulty: 3},
	}
	var pa, pb [3]Plan
	for i, tst := range tests {
		var err error
		if pa[i], err = a.Prepare(tst); err != nil {
			t.Fatal(err)
		}
		if pb[i], err = b.Prepare(tst); err != nil {
			t.Fatal(err)
		}
	}
	ds := []Director{TableDirector{}, HarshDirector{}, GentleDirector{}}
	var ata, atb Attempt
	changed := 0
	for i := range 3000 {
		if pick.IntN(4) == 0 {
			d := ds[pick.IntN(len(ds))]
			if err := a.SetDirector(d); err != nil {
				t.Fatal(err)
			}
			if err := b.SetDirector(d); err != nil {
				t.Fatal(err)
			}
			changed++
		}
		if pick.IntN(8) == 0 {
			// A copy's Director is its own.
			if err := a.scratch().SetDirector(ds[pick.IntN(len(ds))]); err != nil {
				t.Fatal(err)
			}
		}
		k := pick.IntN(len(tests))
		errA, errB := a.Start(ra, &pa[k], &ata), b.Start(rb, &pb[k], &atb)
		if (errA == nil) != (errB == nil) {
			t.Fatalf("test %d: start errors %v and %v", i, errA, errB)
		}
		if errA == nil {
			errA, errB = a.Finish(&ata), b.finishSlow(&atb)
			if (errA == nil) != (errB == nil) {
				t.Fatalf("test %d: finish errors %v and %v", i, errA, errB)
			}
		}
		sameAsSlow(t, i, a, b, &ata, &atb)
		if harmHeld(&a.State) > 3 {
			healBoth(a, b)
		}
	}
	if changed < 500 {
		t.Errorf("%d director changes: the loop missed its point", changed)
	}
}

// ready stays loaded && !incap through every step that changes the harm or
// what it costs: harm taken and healed, pushes, tests, states set or put
// back, costs dropped and worked out again, copies.
func TestReadyTracksHarm(t *testing.T) {
	c := newChar(t, DefaultRules())
	r, pick := dice.NewSeeded(21), dice.NewSeeded(22)
	var at Attempt
	snap, saved := c.snapLoad(), c.State.Clone()
	incap := 0
	for i := range 6000 {
		switch pick.IntN(9) {
		case 0:
			_, _ = c.TakeHarm(1+pick.IntN(3), pick.IntN(2))
		case 1:
			_ = c.Heal(pick.IntN(2), pick.IntN(3))
		case 2:
			if c.Begin(r, Test{Action: "Prowl", Position: Position(pick.IntN(3)), Difficulty: 1, Helpers: pick.IntN(2)}, &at) == nil {
				_ = c.Push(r, &at, pick.IntN(2))
				_ = c.Finish(&at)
			}
		case 3:
			c.HarmChanged()
		case 4:
			c.load()
		case 5:
			snap, saved = c.snapLoad(), c.State.Clone()
		case 6:
			c.setFromSnap(&saved, &snap)
		case 7:
			c = c.scratch()
		case 8:
			if pick.IntN(4) == 0 {
				c.setFrom(&State{Harm: harmOf([3]int{}, [3]int{}), Critical: []int{0, 0}})
			}
		}
		if c.ready != (c.loaded && !c.incap) {
			t.Fatalf("step %d: ready %v, loaded %v, incapacitated %v", i, c.ready, c.loaded, c.incap)
		}
		if c.loaded && c.incap {
			incap++
		}
	}
	if incap < 300 {
		t.Errorf("%d steps incapacitated with the cost worked out: the loop missed a path", incap)
	}
}

// sameAsSlow fails test i unless the fast path's attempt and character (a,
// ata) match the general path's (b, atb).
func sameAsSlow(t *testing.T, i int, a, b *Character, ata, atb *Attempt) {
	t.Helper()
	if d := cmp.Diff(atb, ata, cmpAttempt); d != "" {
		t.Fatalf("test %d: attempt (-slow +fast):\n%s", i, d)
	}
	if d := cmp.Diff(b.State, a.State); d != "" {
		t.Fatalf("test %d: state (-slow +fast):\n%s", i, d)
	}
}

// healBoth clears both characters' harm, so a long random run goes on.
func healBoth(a, b *Character) {
	for _, c := range []*Character{a, b} {
		c.setFrom(&State{Harm: harmOf([3]int{}, [3]int{}), Critical: []int{0, 0}})
	}
}

// beginBoth begins test tst for both characters (a on ra, b on rb) and
// fails test i unless both agree on whether it may begin. If it may not
// (the character is out of action), it heals both and reports false.
func beginBoth(t *testing.T, i int, tst Test, a, b *Character, ra, rb *dice.Roller, ata, atb *Attempt) bool {
	t.Helper()
	errA, errB := a.Begin(ra, tst, ata), b.Begin(rb, tst, atb)
	if (errA == nil) != (errB == nil) {
		t.Fatalf("test %d: begin errors %v and %v", i, errA, errB)
	}
	if errA != nil {
		healBoth(a, b)
		return false
	}
	return true
}
