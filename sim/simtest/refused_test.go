package simtest_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim"
	"github.com/stakesrpg/stakes/sim/simtest"
)

// Refused passes a step refused cleanly, and names each trace a refused
// step can leave: taken after all, the game changed, the Roller drawn
// from, a listener told.
func TestRefused(t *testing.T) {
	illegal := func(_, ans any) any { return -1 }
	for _, tc := range []struct {
		broken, want string
		step         func(g *game, r *dice.Roller) error
	}{
		{fine, "", nil},
		{fine, "taken", func(g *game, r *dice.Roller) error { g.Intercept(nil); return g.Step(r) }},
		{refusedWrites, "changed the game", nil},
		{refusedRolls, "drew from the Roller", nil},
		{fine, "a listener heard 1 events", func(g *game, r *dice.Roller) error {
			g.sink(faulty{note: "heard"})
			return errors.New("refused")
		}},
	} {
		sg, err := newScenario(tc.broken).Start(dice.NewSeeded(1))
		if err != nil {
			t.Fatal(err)
		}
		g := sg.(*game)
		g.Intercept(illegal)
		r := dice.NewSeeded(2)
		step := func() error { return g.Step(r) }
		if tc.step != nil {
			step = func() error { return tc.step(g, r) }
		}
		got := simtest.Refused(g, r, step)
		switch {
		case tc.want == "" && got != nil:
			t.Errorf("%q: a clean refusal: %v", tc.broken, got)
		case tc.want != "" && (got == nil || !strings.Contains(got.Error(), tc.want)):
			t.Errorf("%q: %v, want an error saying %q", tc.broken, got, tc.want)
		}
		if g.sink != nil {
			t.Errorf("%q: Refused left a listener", tc.broken)
		}
	}
	var _ sim.Game = (*game)(nil)
}
