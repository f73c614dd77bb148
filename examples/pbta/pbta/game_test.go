package pbta_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/examples/pbta/pbta"
	"github.com/stakesrpg/stakes/sim"
)

func start(t *testing.T, sc pbta.Scenario) *pbta.Game {
	t.Helper()
	g, err := sc.Start(nil)
	if err != nil {
		t.Fatal(err)
	}
	return g.(*pbta.Game)
}

// TestWorkedFight plays the built-in fight on scripted dice: Rook
// (adaptive) goes in hard at +1 with a 2-harm knife and +1 terrible harm
// against the unarmored raider: 3 harm a hit. The raider's 4 harm against
// Rook's 1 armor marks 3 a blow, so at 3/6 one more blow would take Rook
// out, and adaptive play turns to playing it cool (+2, 2 harm) and
// holding back (1 harm less) on a 7-9.
func TestWorkedFight(t *testing.T) {
	g := start(t, pbta.DefaultScenario())
	var said []string
	g.Listen(func(ev sim.Event) { said = append(said, ev.String()) })
	r := dice.Scripted(4, 5, 1, 2, 3, 3, 5, 4)
	for !g.Done() {
		if err := g.Step(r); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{
		"Exchange 1: Rook goes in hard, rolling 4+5+1 = 10, a full success: the raider takes 3 harm (3/5); Rook takes nothing.",
		"Exchange 2: Rook goes in hard, rolling 1+2+1 = 4, a miss: the GM makes a hard move.",
		"The GM has the raider strike: Rook takes 3 harm (3/6).",
		"Exchange 3: Rook plays it cool, rolling 3+3+2 = 8, a success at a cost.",
		"Rook holds back: the raider takes 1 harm (4/5); Rook takes nothing.",
		"Exchange 4: Rook plays it cool, rolling 5+4+2 = 11, a full success: the raider takes 1 harm (5/5) and is out of the fight; Rook takes nothing.",
	}
	if strings.Join(said, "\n") != strings.Join(want, "\n") {
		t.Errorf("narration:\n%s\nwant:\n%s", strings.Join(said, "\n"), strings.Join(want, "\n"))
	}
	m := make([]int, 4)
	k, err := g.Outcome(m)
	if err != nil || k != pbta.Victory || m[0] != 4 || m[1] != 3 || m[2] != 5 || m[3] != 1 {
		t.Errorf("outcome %d %v %v; want victory, [4 3 5 1]", k, m, err)
	}
	if r.Remaining() != 0 || r.Err() != nil {
		t.Errorf("dice left %d, err %v", r.Remaining(), r.Err())
	}
}

// TestLastBlow: adaptive play holds back once one more blow would take Rook
// out, and the merciful GM regroups rather than strike it.
func TestLastBlow(t *testing.T) {
	sc := pbta.DefaultScenario()
	sc.GM = "merciful"
	g := start(t, sc)
	s := g.State()
	s.Exchanges, s.PCHarm, s.ThreatHarm = 3, 4, 2
	e := g.Engine()
	r := dice.Scripted(2, 4, 1, 1) // play it cool at +2: 8, a cost; then 4, a miss
	if err := e.Step(s, r); err != nil || s.Phase != pbta.AwaitCost || s.Move != pbta.PlayItCool {
		t.Fatalf("step: %v, phase %s, move %s", err, s.Phase, s.Move)
	}
	if err := e.Step(s, r); err != nil || s.PCHarm != 4 || s.ThreatHarm != 3 {
		t.Fatalf("held back 1 of 2 harm: pc %d threat %d, %v", s.PCHarm, s.ThreatHarm, err)
	}
	if err := e.Step(s, r); err != nil || s.Phase != pbta.AwaitHardMove {
		t.Fatalf("miss: %v, phase %s", err, s.Phase)
	}
	if err := e.Step(s, r); err != nil || s.PCHarm != 4 || s.ThreatHarm != 2 || s.Phase != pbta.AwaitMove {
		t.Fatalf("regroup: pc %d threat %d phase %s, %v", s.PCHarm, s.ThreatHarm, s.Phase, err)
	}
}

func TestLegalChoices(t *testing.T) {
	g := start(t, pbta.DefaultScenario())
	e, s := g.Engine(), g.State()
	if ms, err := e.Moves(s); err != nil || len(ms) != 2 {
		t.Errorf("moves at the start: %v, %v", ms, err)
	}
	if _, err := e.Costs(s); !errors.Is(err, pbta.ErrIllegal) {
		t.Errorf("costs with no 7-9: %v", err)
	}
	if err := e.Exchange(s, dice.Scripted(1, 1), pbta.GoInHard); err != nil {
		t.Fatal(err)
	}
	hs, err := e.HardMoves(s)
	if err != nil || len(hs) != 1 || hs[0] != pbta.InflictHarm {
		t.Errorf("hard moves against an unhurt threat: %v, %v", hs, err)
	}
	before := *s
	if err := e.HardMove(s, pbta.Regroup); !errors.Is(err, pbta.ErrIllegal) || *s != before {
		t.Errorf("regroup unhurt: %v", err)
	}
	if err := e.HardMove(s, pbta.HardMove(9)); !errors.Is(err, pbta.ErrIllegal) || *s != before {
		t.Errorf("hard move 9: %v", err)
	}
	if err := e.PayCost(s, pbta.TradeBlows); !errors.Is(err, pbta.ErrIllegal) || *s != before {
		t.Errorf("a cost after a miss: %v", err)
	}
}

// TestChooserRefusals: every answer a Chooser gives passes the steps'
// checks, and a refused one changes neither the game nor the dice.
func TestChooserRefusals(t *testing.T) {
	for _, c := range []struct {
		name   string
		answer func(view, answer any) any
	}{
		{"wrong type", func(_, _ any) any { return "go_in_hard" }},
		{"nil", func(_, _ any) any { return nil }},
		{"move out of range", func(_, a any) any {
			if _, ok := a.(pbta.Move); ok {
				return pbta.Move(-1)
			}
			return a
		}},
		{"a cost for a move", func(_, _ any) any { return pbta.HoldBack }},
	} {
		g := start(t, pbta.DefaultScenario())
		asked := 0
		g.Intercept(func(v, a any) any {
			if _, ok := v.(*pbta.View); !ok {
				t.Errorf("%s: view %T", c.name, v)
			}
			asked++
			return c.answer(v, a)
		})
		r := dice.NewSeeded(5)
		saved, _ := g.Save()
		dice0, _ := r.MarshalBinary()
		err := g.Step(r)
		after, _ := g.Save()
		dice1, _ := r.MarshalBinary()
		if !errors.Is(err, pbta.ErrIllegal) || asked != 1 || !bytes.Equal(saved, after) || !bytes.Equal(dice0, dice1) {
			t.Errorf("%s: err %v, asked %d, game changed %v, dice changed %v", c.name, err, asked,
				!bytes.Equal(saved, after), !bytes.Equal(dice0, dice1))
		}
	}
}

// TestChooserDecides: a Chooser's legal answer is the one played.
func TestChooserDecides(t *testing.T) {
	g := start(t, pbta.DefaultScenario())
	g.Intercept(func(_, a any) any {
		if _, ok := a.(pbta.Move); ok {
			return pbta.PlayItCool
		}
		return a
	})
	if err := g.Step(dice.Scripted(1, 1)); err != nil {
		t.Fatal(err)
	}
	if s := g.State(); s.Move != pbta.PlayItCool || s.Total != 4 {
		t.Errorf("move %s total %d; want play_it_cool, 1+1+2", s.Move, s.Total)
	}
	g.Intercept(nil)
	if err := g.Step(dice.Scripted()); err != nil || g.State().PCHarm != 3 {
		t.Errorf("the GM strikes: %v, pc harm %d", err, g.State().PCHarm)
	}
}

func TestStepErrors(t *testing.T) {
	g := start(t, pbta.DefaultScenario())
	e, s := g.Engine(), g.State()
	if _, err := g.Outcome(nil); !errors.Is(err, pbta.ErrIllegal) {
		t.Errorf("outcome of a fight still going: %v", err)
	}
	if err := e.Step(s, nil); !errors.Is(err, dice.ErrNilRoller) {
		t.Errorf("nil Roller: %v", err)
	}
	if err := e.Exchange(s, nil, pbta.GoInHard); !errors.Is(err, dice.ErrNilRoller) {
		t.Errorf("Exchange, nil Roller: %v", err)
	}
	if err := e.Play(s, nil); !errors.Is(err, dice.ErrNilRoller) {
		t.Errorf("Play, nil Roller: %v", err)
	}
	other := *s
	other.PC.Hard = 3
	if err := e.Step(&other, dice.NewSeeded(1)); !errors.Is(err, pbta.ErrInvalid) {
		t.Errorf("a state of another fight: %v", err)
	}
	if err := e.Step(nil, dice.NewSeeded(1)); !errors.Is(err, pbta.ErrInvalid) {
		t.Errorf("nil state: %v", err)
	}
	s.ThreatHarm, s.Exchanges = 5, 2
	if err := e.Step(s, dice.NewSeeded(1)); !errors.Is(err, pbta.ErrIllegal) {
		t.Errorf("a finished fight: %v", err)
	}
	e.Policies.GM = nil
	s.ThreatHarm = 0
	_ = e.Exchange(s, dice.Scripted(1, 1), pbta.GoInHard)
	if err := e.Step(s, dice.NewSeeded(1)); !errors.Is(err, pbta.ErrInvalid) {
		t.Errorf("no GM policy: %v", err)
	}
}

func TestValidate(t *testing.T) {
	for name, change := range map[string]func(*pbta.Scenario){
		"no dice":            func(sc *pbta.Scenario) { sc.Rules.Dice = 0 },
		"5 dice":             func(sc *pbta.Scenario) { sc.Rules.Dice = 5 },
		"d1":                 func(sc *pbta.Scenario) { sc.Rules.Sides = 1 },
		"full below partial": func(sc *pbta.Scenario) { sc.Rules.FullAt = 6 },
		"partial 0":          func(sc *pbta.Scenario) { sc.Rules.PartialAt = 0 },
		"track 13":           func(sc *pbta.Scenario) { sc.Rules.Track = 13 },
		"negative hold back": func(sc *pbta.Scenario) { sc.Rules.HoldBack = -1 },
		"no exchanges":       func(sc *pbta.Scenario) { sc.Rules.MaxExchanges = 0 },
		"huge stat":          func(sc *pbta.Scenario) { sc.PC.Hard = 1 << 40 },
		"no name":            func(sc *pbta.Scenario) { sc.PC.Name = "" },
		"threat capacity 0":  func(sc *pbta.Scenario) { sc.Threat.Capacity = 0 },
		"unknown policy":     func(sc *pbta.Scenario) { sc.Player = "berserk" },
		"unknown GM":         func(sc *pbta.Scenario) { sc.GM = "" },
	} {
		sc := pbta.DefaultScenario()
		change(&sc)
		if err := sc.Validate(); !errors.Is(err, pbta.ErrInvalid) {
			t.Errorf("%s: %v", name, err)
		}
		if _, err := sc.NewRunner(); err == nil {
			t.Errorf("%s: a runner", name)
		}
	}
	if err := pbta.DefaultScenario().Validate(); err != nil {
		t.Error(err)
	}
}

func TestRestore(t *testing.T) {
	g := start(t, pbta.DefaultScenario())
	if err := g.Step(dice.Scripted(3, 3)); err != nil { // 7: waits for a cost
		t.Fatal(err)
	}
	saved, err := g.Save()
	if err != nil {
		t.Fatal(err)
	}
	back, err := pbta.Scenario{}.Restore(saved)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := back.Save()
	if !bytes.Equal(saved, again) {
		t.Errorf("saved again:\n%s\nwant\n%s", again, saved)
	}
	text := string(saved)
	for name, bad := range map[string]string{
		"unknown field":    strings.Replace(text, `"gm"`, `"gm2"`, 1),
		"trailing data":    text + "{}",
		"total not a 7-9":  strings.Replace(text, `"total":7`, `"total":10`, 1),
		"impossible total": strings.Replace(text, `"total":7`, `"total":6`, 1),
		"misses > rolls":   strings.Replace(text, `"misses":0`, `"misses":2`, 1),
		"unknown phase":    strings.Replace(text, `"phase":"cost"`, `"phase":"later"`, 1),
		"unknown policy":   strings.Replace(text, `"adaptive"`, `"bold"`, 1),
		"harm over track":  strings.Replace(text, `"pc_harm":0`, `"pc_harm":7`, 1),
		"not JSON":         "{",
	} {
		if bad == text && name != "not JSON" {
			t.Fatalf("%s: the test changed nothing", name)
		}
		if _, err := (pbta.Scenario{}).Restore([]byte(bad)); err == nil {
			t.Errorf("%s: restored", name)
		}
	}
}
