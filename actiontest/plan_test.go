package actiontest

import (
	"errors"
	"testing"

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
			tr := pushTrack(a.rules, &a.State, 0)
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
