package contest

import (
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/stakesrpg/stakes/dice"
)

// TestRollPlannedAsRollSide holds Roll's straight line for a side's
// planned pool (rollPlanned) to the general way (cost, then roll and
// rollSide, as when the plan is not there to trust), and both to RollDice
// (tables off): three engines play the same actions on copies of one scene
// from Rollers of the same seed, while ratings are stepped, traits lost,
// Plot Points moved and pools changed between rolls. Every step must
// leave the same scene and give the same error.
func TestRollPlannedAsRollSide(t *testing.T) {
	pick := rand.New(rand.NewPCG(7, 8))
	base := testScene()
	fast, slow, off := mustEngine(t), mustEngine(t), mustEngine(t)
	off.tabs.off = true
	var ss [3]*Scene
	for i := range ss {
		ss[i] = base.Clone()
	}
	es := [3]*Engine{fast, slow, off}
	var rs [3]*dice.Roller
	for i := range rs {
		rs[i] = dice.NewSeeded(21)
	}
	begin := func() {
		kind, sides := Basic, []SideSetup{side(villain, villainPool()), side(hero, heroPool())}
		switch pick.IntN(4) {
		case 0:
			kind = Contested
		case 1:
			kind = Contested
			sides[0].Gang = []dice.Die{dice.D6, dice.D8}
		}
		for i, s := range ss {
			s.Action = nil
			*s = *base.Clone()
			must(t, es[i].Begin(s, kind, sides, 0))
		}
	}
	begin()
	rolls, fails := 0, 0
	for step := range 4000 {
		a := ss[0].Action
		if a.Phase != PhaseOpen && a.Phase != PhaseTurn {
			begin()
			a = ss[0].Action
		}
		// The same change to every copy of the scene.
		change := pick.IntN(12)
		c, k := pick.IntN(2), pick.IntN(3)
		d := dice.Ladder[pick.IntN(len(dice.Ladder))]
		if change == 0 && pick.IntN(3) == 0 {
			d = dice.Gone
		}
		pts := pick.IntN(3)
		for _, s := range ss {
			switch change {
			case 0, 1:
				s.Characters[c].Traits[k].Die = d
			case 2:
				s.Characters[c].PlotPoints = pts
			}
		}
		sd := &a.Sides[a.Turn]
		picks := append([]Pick(nil), sd.Base...)
		switch pick.IntN(8) {
		case 0:
			picks = append(picks, picks[0]) // a repeat costs a Plot Point
		case 1:
			picks = picks[:2]
		case 2:
			picks[1], picks[2] = picks[2], picks[1]
		}
		var errs [3]error
		for i, e := range es {
			if i == 1 {
				e.planAct = nil // no plan to trust: the general way
			}
			errs[i] = e.Roll(ss[i], rs[i], picks)
		}
		rolls++
		if errs[0] != nil {
			fails++
		}
		for i := 1; i < 3; i++ {
			if (errs[0] == nil) != (errs[i] == nil) || errs[0] != nil && errs[0].Error() != errs[i].Error() {
				t.Fatalf("step %d, picks %v: straight line says %v, engine %d %v", step, picks, errs[0], i, errs[i])
			}
			if diff := cmp.Diff(ss[i], ss[0]); diff != "" {
				t.Fatalf("step %d, picks %v: scenes differ (-engine %d +straight line):\n%s", step, picks, i, diff)
			}
		}
	}
	if fast.tabs.entries == 0 || fails == 0 || fails > rolls/2 {
		t.Errorf("%d rolls, %d refused, %d table entries: the test sees too little", rolls, fails, fast.tabs.entries)
	}
}
