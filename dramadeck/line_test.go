package dramadeck

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// TestApplyLineEveryEffect: applyLine, whose flags are set without a
// branch and whose character loop is skipped with no Sink for the effects
// that change nobody, sets Flurry, Break and Setback for the side whose
// line shows them and Confused only for the heroes, and leaves the same
// state with a Sink as without, for every effect on either side.
func TestApplyLineEveryEffect(t *testing.T) {
	for side := Heroes; side <= Villains; side++ {
		for e := NoEffect; e < numEffects; e++ {
			var states [2]State
			for k := range states {
				g := combatGame(t)
				var tr Trace
				if k == 1 {
					g.Sink = tr.Add
				}
				for ci := range len(g.State.Heroes) + len(g.State.Villains) {
					c := g.char(ci)
					c.HP, c.FP, c.Status.Stunned = 2, 9, true
				}
				l := Line{First: Villains}
				if side == Heroes {
					l.Hero = e
				} else {
					l.Villain = e
				}
				g.State.Line = l
				g.applyLine()
				s := g.State
				if s.Flurry[side] != (e == Flurry) || s.Break[side] != (e == Break) || s.Setback[side] != (e == Setback) || s.Confused != (e == Confused && side == Heroes) {
					t.Errorf("%v on the %v: Flurry %v, Break %v, Setback %v, Confused %v", e, side, s.Flurry, s.Break, s.Setback, s.Confused)
				}
				if o := side.Other(); s.Flurry[o] || s.Break[o] || s.Setback[o] {
					t.Errorf("%v on the %v set a flag of the %v", e, side, o)
				}
				states[k] = *s
			}
			if d := cmp.Diff(states[1], states[0], cmpopts.IgnoreUnexported(State{})); d != "" {
				t.Errorf("%v on the %v: state (-Sink +no Sink):\n%s", e, side, d)
			}
		}
	}
}
