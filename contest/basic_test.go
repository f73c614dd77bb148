package contest

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/stakesrpg/stakes/dice"
)

// TestRollBasicAsGeneral holds Roll's straight line for a basic action
// (rollBasic) to the general way (Engine.general set): two engines play
// the same basic actions on copies of one scene from Rollers of the same
// seed, through Push and Inflict to their end, while between steps the
// same hand edits land on both: ratings stepped or gone, traits cut off a
// sheet, Plot Points moved, aid waiting, the GM flag, a side out, the
// winner, the picks rolled changed, an aspect or another character's
// Complication in the pool, gangs and the Trouble Pool as opposition.
// Every step must give the same error and leave the same scene, and the
// two Rollers must stay in step.
func TestRollBasicAsGeneral(t *testing.T) {
	pick := rand.New(rand.NewPCG(11, 12))
	fast, slow := mustEngine(t), mustEngine(t)
	slow.general = true
	es := [2]*Engine{fast, slow}
	var ss [2]*Scene
	rs := [2]*dice.Roller{dice.NewSeeded(5), dice.NewSeeded(5)}
	base := testScene()
	base.Characters[hero].Traits = append(base.Characters[hero].Traits, Trait{Name: "Hurt", Kind: Complication, Die: dice.D6})
	base.Characters[villain].Traits = append(base.Characters[villain].Traits, Trait{Name: "Shaken", Kind: Complication, Die: dice.D8})
	begin := func() {
		base := base.Clone()
		opp := side(villain, villainPool())
		act := side(hero, heroPool())
		switch pick.IntN(8) {
		case 0:
			opp = side(TroublePool, nil)
		case 1:
			opp.Gang = []dice.Die{dice.D6}
		case 2:
			act.Base = append(act.Base, Pick{SceneOwner, 0})
		case 3:
			act.Base = append(act.Base, Pick{villain, 3}) // the villain's Complication
		case 4:
			act.Base = act.Base[:2]
		case 5:
			opp.Base = append(opp.Base, opp.Base[0]) // a repeat costs a Plot Point
		}
		fresh := pick.IntN(3) == 0
		for i := range ss {
			if ss[i] == nil || fresh {
				ss[i] = base.Clone()
			} else {
				// The same scene again, as a Runner does.
				a := ss[i].Action
				*ss[i] = *base.Clone()
				ss[i].Action = a
				ss[i].Action.Phase = PhaseDone
			}
		}
		for i, e := range es {
			must(t, e.Begin(ss[i], Basic, []SideSetup{opp, act}, 0))
		}
	}
	begin()
	var fastRolls, refused, actions int
	for step := range 15000 {
		a := ss[0].Action
		switch a.Phase {
		case PhasePush:
			var steps []Pick
			if pick.IntN(2) == 0 && a.Margin-fast.Rules.PushBonus >= max(a.PushFloor, fast.Rules.Extraordinary-fast.Rules.PushBonus) {
				sd := &a.Sides[a.Turn]
				for _, p := range sd.Picks {
					if p.Owner == sd.Char && ss[0].Characters[p.Owner].Traits[p.Trait].Kind.Own() {
						steps = append(steps, p)
						break
					}
				}
			}
			for i, e := range es {
				_ = e.Push(ss[i], rs[i], steps)
			}
			continue
		case PhaseInflict:
			for i, e := range es {
				must(t, e.Inflict(ss[i], rs[i], -1))
			}
			continue
		case PhaseDone:
			actions++
			begin()
			continue
		}
		// The same hand edit to both scenes.
		c := pick.IntN(2)
		k := pick.IntN(len(ss[0].Characters[c].Traits) + 1)
		if k == len(ss[0].Characters[c].Traits) {
			k = -1 // no trait to edit
		}
		d := dice.Ladder[pick.IntN(len(dice.Ladder))]
		edit, v := pick.IntN(40), pick.IntN(4)
		if k < 0 && (edit <= 2 || edit == 8 || edit == 9 || edit == 11) {
			edit = 3
		}
		for _, s := range ss {
			a := s.Action
			switch edit {
			case 0:
				s.Characters[c].Traits[k].Die = d
			case 1:
				s.Characters[c].Traits[k].Die = dice.Gone
			case 2:
				s.Characters[c].Traits = s.Characters[c].Traits[:k]
			case 3:
				s.Characters[c].PlotPoints = v
			case 4:
				a.Sides[a.Turn].Aid = v
			case 5:
				s.Characters[c].GM = !s.Characters[c].GM
			case 6:
				a.Sides[1-a.Turn].Out = true
			case 7:
				a.Winner = v - 1
			case 8:
				s.Characters[c].Traits[k].Die = dice.Die(20) // a size no table covers
			case 9:
				s.Characters[c].Traits[k].Kind = Complication
			case 10:
				s.Characters[c].Reflection = v
			case 11:
				// Another size no table covers, whose key would pass for
				// a pool's of two dice more than one size apart.
				s.Characters[c].Traits[k].Die = dice.Die(18)
			case 12:
				a.Ones, a.OnesSide = v, 1-a.Turn
			}
		}
		sd := &a.Sides[a.Turn]
		picks := append([]Pick(nil), sd.Base...)
		switch pick.IntN(10) {
		case 0:
			if len(picks) > 1 {
				picks = picks[:len(picks)-1]
			}
		case 1:
			if len(picks) > 1 {
				picks[0], picks[1] = picks[1], picks[0]
			}
		case 2:
			picks = append(picks, Pick{sd.Char, 0})
		case 3:
			if len(picks) > 0 {
				picks[len(picks)-1].Trait = 7
			}
		case 4:
			picks = nil
		}
		var errs [2]error
		for i, e := range es {
			errs[i] = e.Roll(ss[i], rs[i], picks)
		}
		if errs[0] != nil {
			refused++
		}
		if (errs[0] == nil) != (errs[1] == nil) || errs[0] != nil && errs[0].Error() != errs[1].Error() {
			t.Fatalf("step %d, picks %v: straight line says %v, general way %v", step, picks, errs[0], errs[1])
		}
		if diff := cmp.Diff(ss[1], ss[0]); diff != "" {
			t.Fatalf("step %d, picks %v: scenes differ (-general +straight line):\n%s", step, picks, diff)
		}
		if x, y := rs[0].IntN(1<<20), rs[1].IntN(1<<20); x != y {
			t.Fatalf("step %d: the Rollers are out of step", step)
		}
		if errs[0] != nil && pick.IntN(2) == 0 {
			begin() // a pool a hand edit spoilt for good
		}
	}
	fastRolls = fast.basicRolls
	if fastRolls < 1000 || refused < 500 || actions < 1000 {
		t.Errorf("%d straight-line rolls, %d refused, %d actions: the test sees too little", fastRolls, refused, actions)
	}
}

// TestKindAndEndText: ActionKind and End write and read as their old
// string values, so scenes in JSON are unchanged, and unknown names are
// refused when read.
func TestKindAndEndText(t *testing.T) {
	kinds := map[ActionKind]string{kindNone: "", Basic: "basic", Contested: "contested"}
	ends := map[End]string{endNone: "", EndGaveIn: "gave_in", EndBeaten: "beaten", EndExtraordinary: "extraordinary",
		EndStopped: "stopped", EndBrawl: "brawl"}
	for k, name := range kinds {
		b, err := json.Marshal(Action{Kind: k})
		must(t, err)
		if want := `"kind":"` + name + `"`; !strings.Contains(string(b), want) {
			t.Errorf("%v: JSON %s, want %s in it", k, b, want)
		}
		var a Action
		must(t, json.Unmarshal(b, &a))
		if a.Kind != k || fmt.Sprintf("%v %s %q", k, k, k) != name+" "+name+" "+strconv.Quote(name) {
			t.Errorf("%q: read back as %v", name, a.Kind)
		}
	}
	for x, name := range ends {
		b, err := json.Marshal(Action{End: x})
		must(t, err)
		want := `"end":"` + name + `"`
		if name == "" {
			// omitempty, as for the empty string it was.
			if strings.Contains(string(b), `"end"`) {
				t.Errorf("no end: JSON %s has one", b)
			}
		} else if !strings.Contains(string(b), want) {
			t.Errorf("%v: JSON %s, want %s in it", x, b, want)
		}
		var a Action
		must(t, json.Unmarshal(b, &a))
		if a.End != x || fmt.Sprintf("%v %s %q", x, x, x) != name+" "+name+" "+strconv.Quote(name) {
			t.Errorf("%q: read back as %v", name, a.End)
		}
	}
	for _, bad := range []string{`{"kind":"brawl"}`, `{"kind":"hat"}`, `{"end":"won"}`} {
		var a Action
		if err := json.Unmarshal([]byte(bad), &a); err == nil {
			t.Errorf("%s was read", bad)
		}
	}
	for _, a := range []Action{{Kind: Contested + 1}, {End: EndBrawl + 1}} {
		if _, err := json.Marshal(a); err == nil {
			t.Errorf("kind %v, end %v out of range was written", a.Kind, a.End)
		}
	}
	if got := fmt.Sprint(Contested+1, EndBrawl+1); got != "ActionKind(3) End(6)" {
		t.Errorf("out of range: %s", got)
	}
}

// TestRollBasicOddSizes: a rating over d16 in the middle of a pool would
// pack the same table key as a pool of other sizes (d9 d18 d8 as d10 d2
// d8); rollBasic must leave such a pool to the general way, which rolls
// it die by die, even when the tables know the other pool.
func TestRollBasicOddSizes(t *testing.T) {
	fast, slow := mustEngine(t), mustEngine(t)
	slow.general = true
	es := [2]*Engine{fast, slow}
	rs := [2]*dice.Roller{dice.NewSeeded(9), dice.NewSeeded(9)}
	var ss [2]*Scene
	for round := range 6 {
		base := testScene()
		vt := base.Characters[villain].Traits
		vt[chaos].Die, vt[henchmen].Die, vt[mad].Die = dice.D10, dice.Die(2), dice.D8
		if round >= 3 {
			vt[chaos].Die, vt[henchmen].Die = dice.Die(9), dice.Die(18)
		}
		var errs [2]error
		for i, e := range es {
			// The same scene again, its action's buffers kept, as a
			// Runner does.
			var a *Action
			if ss[i] != nil {
				a = ss[i].Action
				a.Phase = PhaseDone
			}
			ss[i] = base.Clone()
			ss[i].Action = a
			must(t, e.Begin(ss[i], Basic, []SideSetup{side(villain, villainPool()), side(hero, heroPool())}, 0))
			errs[i] = e.Roll(ss[i], rs[i], villainPool())
		}
		if errs[0] != nil || errs[1] != nil {
			t.Fatalf("round %d: %v, %v", round, errs[0], errs[1])
		}
		if diff := cmp.Diff(ss[1], ss[0]); diff != "" {
			t.Fatalf("round %d: scenes differ (-general +straight line):\n%s", round, diff)
		}
	}
	if fast.basicRolls == 0 {
		t.Error("the straight line never ran")
	}
}
