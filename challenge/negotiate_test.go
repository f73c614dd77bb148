package challenge

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stakesrpg/stakes/dice"
)

// deafen is the text's bargain: deaf in one ear, one size of Guts, left
// for dead; and, for the test, Irin defends with Grace from now on and
// gains a specialization.
type deafen struct{ accept bool }

func (deafen) Propose(c *View) *Settlement {
	return &Settlement{
		Note:    "deaf in one ear; left for dead",
		Changes: []Change{{Member: 0, Lose: Loss{Stat: Guts, Sizes: [MaxDice]int{1}}}},
		Remaps:  []Remap{{Member: 0, Endeavor: Defending, Stat: Grace}},
		Gains:   []Gain{{Member: 0, Specialization: Specialization{Name: "one-eared", Endeavor: Enduring, Stat: Guts}}},
	}
}

func (d deafen) Accept(*View, *Settlement) bool { return d.accept }

func TestNegotiatedConsequences(t *testing.T) {
	for _, accept := range []bool{true, false} {
		cp := &Campaign{Rules: DefaultRules(), Characters: []Character{althesa(), irin()}}
		c, err := cp.Start(
			Enlist{Name: "althesa", Members: []Role{{Character: "Althesa", Endeavor: "warrior_priestessing"}}},
			Enlist{Name: "irin", Members: []Role{{Character: "Irin", Endeavor: Defending}}})
		must(t, err)
		r := dice.Scripted(8, 3, 4, 2, 7, 5, 9, 4, 6, 11, 3, 6, 1)
		must(t, Engine{Policies: []Policy{&Style{Negotiator: deafen{}}, &Style{Negotiator: deafen{accept: accept}}}}.Play(c, r))
		shared := cp.Characters[1].Endeavors // a saved copy of the sheet may share it
		must(t, cp.Finish(c))
		irin := cp.Characters[1]
		if !accept {
			// Either side may fall back on the standard: two sizes of Grace.
			if c.Sides[1].Status != StatusInjured || irin.Stats[Grace] != MustStat(dice.D6, dice.D4) || irin.Endeavors[Defending] != Guts {
				t.Errorf("declined: %v, grace %v, defends with %s", c.Sides[1].Status, irin.Stats[Grace], irin.Endeavors[Defending])
			}
			continue
		}
		if c.Sides[1].Status != StatusSettled {
			t.Fatalf("status %v", c.Sides[1].Status)
		}
		if irin.Stats[Guts] != MustStat(dice.D10, dice.D6) || irin.Stats[Grace] != MustStat(dice.D10, dice.D4) {
			t.Errorf("stats %v", irin.Stats)
		}
		if irin.Endeavors[Defending] != Grace {
			t.Errorf("Irin defends with %s, want grace", irin.Endeavors[Defending])
		}
		if d := cmp.Diff([]Specialization{{Name: "one-eared", Endeavor: Enduring, Stat: Guts}}, irin.Specializations); d != "" {
			t.Errorf("specializations (-want +got):\n%s", d)
		}
		if err := irin.Validate(cp.Rules); err != nil {
			t.Error(err)
		}
		// Finish builds a new endeavor map rather than writing into one
		// that copies of the sheet share.
		if shared[Defending] != Guts {
			t.Error("Finish changed a shared endeavor map")
		}
	}
}

// TestAdvantageLastsTheRound: a side that won an advantage rolls its
// advantage die on the cast and on every re-roll of the round, and loses
// it when the round ends.
func TestAdvantageLastsTheRound(t *testing.T) {
	c := duel(t, althesa(), irin(), "warrior_priestessing", Defending)
	var log Log
	eng := Engine{Sink: log.Record}
	r := dice.Scripted(
		8, 3, 4, 2, 7, 5, // round 1: Irin hangs in; Althesa has the advantage in round 2
		2, 1, 4 /* adv */, 9, 1, // round 2 cast: Althesa 2 1 + 4 = 6, Irin 9 1 challenges
		9, 2, 1, /* adv */ // Althesa answers 9 2 + 1 = 10 > 9: blocks
		6, 2, // Irin answers 6 2 against 10: over half, he hangs in (Althesa again)
		1, 1, 2 /* adv */, 12, 1, // round 3: Althesa 1 1 + 2 = 3; Irin 12 challenges
		8, 1, 1, /* adv */ // Althesa 8 1 + 1 = 9 against 12: over half, she hangs in
		// round 4: only Irin has an advantage
		5, 1, 3, 3, 6, // Althesa 5 1; Irin 3 3 + 6 = 9 challenges
		2, 1, // Althesa 2 1 against 9: doubled
	)
	must(t, eng.with([]Policy{&Style{}, &Style{}}).Play(c, r))
	if r.Remaining() != 0 || r.Err() != nil {
		t.Fatalf("script: %d left, %v", r.Remaining(), r.Err())
	}
	var bonus []int
	for _, e := range log.Events {
		if e.Kind == EvRoll {
			bonus = append(bonus, e.Bonus)
		}
	}
	want := []int{0, 0, 0, 4, 0, 1, 0, 2, 0, 1, 0, 6, 0}
	if d := cmp.Diff(want, bonus); d != "" {
		t.Errorf("advantage dice by roll (-want +got):\n%s", d)
	}
	if c.Winner != 1 || c.Round != 4 {
		t.Errorf("winner %d round %d", c.Winner, c.Round)
	}
}
