package challenge

import (
	"slices"
	"testing"

	"github.com/stakesrpg/stakes/dice"
)

func threeD6(n, player string) Character {
	c := Standard(n, MustStat(dice.D6, dice.D6), MustStat(dice.D8, dice.D4), MustStat(dice.D10, dice.D6),
		[5]string{Art, Grace, Guts, Grace, Art})
	c.Player = player
	return c
}

// TestPolicyChoices checks each built-in policy's choice on a known
// position: a, b and c cast 6 1, 4 1 and 2 1; a challenges c.
func TestPolicyChoices(t *testing.T) {
	newC := func() *State {
		c, err := NewState(DefaultRules(), []Party{
			{Name: "a", Members: []Entry{{Character: threeD6("A", "ann"), Endeavor: Asserting}}},
			{Name: "b", Members: []Entry{{Character: threeD6("B", "bob"), Endeavor: Asserting}}, Target: "a"},
			{Name: "c", Members: []Entry{{Character: threeD6("C", "cy"), Endeavor: Asserting}}},
		}, []Debt{{Name: "A", Player: "ann"}, {Name: "C", Player: "cy"}})
		must(t, err)
		r := dice.Scripted(6, 1, 4, 1, 2, 1)
		must(t, Engine{}.Roll(c, r))
		must(t, Engine{}.Resolve(c))
		return c
	}
	c := newC()
	if got := (Strongest{}).Target(&View{c}, 0); got != 1 {
		t.Errorf("strongest: %d, want b", got)
	}
	if got := (Weakest{}).Target(&View{c}, 0); got != 2 {
		t.Errorf("weakest: %d, want c", got)
	}
	if got := (Sworn{}).Target(&View{c}, 1); got != 0 {
		t.Errorf("sworn b: %d, want its target a", got)
	}
	// Before the challenge is made, a bot can preview who may interfere
	// with each answerer it might name.
	if got := (Engine{}).Interferers(c, 2); !slices.Equal(got, []int{1}) {
		t.Errorf("interferers with c, previewed: %v, want [1]", got)
	}
	if got := (Engine{}).Interferers(c, 1); len(got) != 0 {
		t.Errorf("interferers with b, previewed: %v, want none", got)
	}
	if got := (Engine{}).Answerers(c); !slices.Equal(got, []int{1, 2}) {
		t.Errorf("answerers: %v, want [1 2]", got)
	}
	must(t, Engine{}.Challenge(c, 2))
	wantPhase(t, c, PhaseInterfere)
	if got := (Engine{}).Interferers(c, 2); !slices.Equal(got, []int{1}) {
		t.Errorf("interferers with c: %v, want [1]", got)
	}
	if !(Meddle{}).Interfere(&View{c}, 1) || (Aloof{}).Interfere(&View{c}, 1) || !(Guard{}).Interfere(&View{c}, 1) {
		t.Error("interfere policies")
	}
	must(t, Engine{}.Interfere(c, -1))

	cases := []struct {
		name   string
		answer []int
		side   int
		want   int
	}{
		// Answer 3 1 against 6 1: a d6 on the 3 could beat 6; c crosses C
		// off (entry 1).
		{"answerer behind within a die", []int{3, 1}, 2, 1},
		// Answer 4 1: 6 does not double it, 6 + a d6 could reach 8; a
		// crosses A off (entry 0).
		{"challenger could double", []int{4, 1}, 0, 0},
		// Answer 6 1 truly ties the standing 6 1: the challenger has
		// nothing to gain.
		{"true tie", []int{6, 1}, 0, -1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := newC()
			must(t, Engine{}.Challenge(c, 2))
			must(t, Engine{}.Interfere(c, -1))
			must(t, Engine{}.Roll(c, dice.Scripted(tc.answer...)))
			got := (WhenClose{}).CrossOff(&View{c}, tc.side)
			if got != tc.want {
				t.Errorf("when_close for side %d: %d, want %d", tc.side, got, tc.want)
			}
			if (Never{}).CrossOff(&View{c}, tc.side) != -1 {
				t.Error("never crossed")
			}
			if got := (Eager{}).CrossOff(&View{c}, 1); got != -1 {
				t.Errorf("eager for a side not comparing: %d", got)
			}
		})
	}

	// Losses: C exerts with Grace d8 d4 and endures with Guts d10 d6.
	c = newC()
	for _, tc := range []struct {
		p    LossPolicy
		want Loss
	}{
		{Deepest{}, Loss{Stat: Guts, Sizes: [MaxDice]int{2}}},
		{Spread{}, Loss{Stat: Guts, Sizes: [MaxDice]int{1, 1}}},
		{Finish{}, Loss{Stat: Grace, Sizes: [MaxDice]int{1, 1}}},
	} {
		var got Loss
		if tc.p.Loss(&View{c}, 2, 0, &got); got != tc.want {
			t.Errorf("%T: %+v, want %+v", tc.p, got, tc.want)
		}
	}
}

// TestViewAnswersForAnySideWithoutPanic: a policy asking the View about a
// side that does not exist gets no side, a zero read and no comparison,
// never a panic.
func TestViewAnswersForAnySideWithoutPanic(t *testing.T) {
	g, err := DefaultScenario().Start(dice.NewSeeded(0))
	must(t, err)
	v := &View{s: g.(*Game).State()}
	for _, i := range []int{-1, 2, 1 << 40} {
		if sd, ok := v.Side(i); ok || sd.Name != "" {
			t.Errorf("Side(%d) = %q, %v", i, sd.Name, ok)
		}
		if v.Read(i) != 0 || v.Compare(i, 0) != 0 || v.Compare(0, i) != 0 || v.In(i) {
			t.Errorf("side %d: read %d, compare %d", i, v.Read(i), v.Compare(i, 0))
		}
	}
	if sd, ok := v.Side(1); !ok || sd.Name != "irin" {
		t.Errorf("Side(1) = %q, %v", sd.Name, ok)
	}
}
