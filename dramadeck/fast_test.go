package dramadeck

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stakesrpg/stakes/dice"
)

// TestDeclaresNothing: Style.declaresNothing, PlayRound's shortcut past a
// player's declaration, is true only when Critical and Declare both
// return nothing, and then always, unless the pool holds a card Declare
// must look at (one it turned down), for every registered policy over the
// states of many fights, with Confused and the Act of the last Critical
// Moment varied (so that each refusal comes up); both answers come up.
func TestDeclaresNothing(t *testing.T) {
	s := DefaultScenario()
	var yes, no, crit int
	for _, name := range Policies() {
		sp := mustPolicy(t, name).(*Style)
		for seed := range 40 {
			rn, err := s.NewRunner()
			if err != nil {
				t.Fatal(err)
			}
			g, r := rn.g, dice.NewSeeded(uint64(seed))
			deal(t, g, r, seed%2 == 1)
			for g.State.Outcome == Ongoing && g.State.Round < 12 {
				st := &g.State
				for p := range st.Players {
					for k := range 4 {
						confused, act := st.Confused, st.Players[p].CriticalAct
						st.Confused = k == 3
						if k == 2 {
							st.Players[p].CriticalAct = st.Act
						}
						move := sp.Critical(g, p, nil)
						plays := sp.Declare(g, p, nil, move)
						want := len(move) == 0 && len(plays) == 0
						looked := false
						for _, id := range st.Players[p].Pool {
							looked = looked || declareKind[g.Deck.Cards[id].Name] != declNever
						}
						if got := sp.declaresNothing(g, p); got != want && (got || !looked || !sp.PlayCards || st.Confused) {
							t.Fatalf("%s, seed %d, round %d, player %d, case %d: declaresNothing %v, Critical %v, Declare %v (hand %v, pool %v)", name, seed, st.Round, p, k, got, move, plays, st.Players[p].Hand, st.Players[p].Pool)
						}
						if want {
							yes++
						} else {
							no++
						}
						if len(move) > 0 {
							crit++
						}
						st.Confused, st.Players[p].CriticalAct = confused, act
					}
				}
				if err := g.PlayRound(r, sp, sp); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	if yes == 0 || no == 0 || crit == 0 {
		t.Errorf("nothing %d, something %d, Critical Moments %d: want some of each", yes, no, crit)
	}
	t.Logf("nothing %d, something %d, Critical Moments %d", yes, no, crit)
}

// TestRemove: remove's loop deletes pile[i] keeping the order, in place,
// as the copy it replaced did, for every index of piles of 1 to 40 cards,
// and an index past the end panics as it did (callers check first).
func TestRemove(t *testing.T) {
	func() {
		defer func() {
			if recover() == nil {
				t.Error("remove(pile, len(pile)) did not panic")
			}
		}()
		remove([]int{1, 2, 3}, 3)
	}()
	for n := 1; n <= 40; n++ {
		for i := range n {
			pile := make([]int, n)
			for k := range pile {
				pile[k] = 100 + k
			}
			want := append(append([]int(nil), pile[:i]...), pile[i+1:]...)
			got := remove(pile, i)
			if !slices.Equal(got, want) || (len(got) > 0 && &got[0] != &pile[0]) {
				t.Fatalf("remove(%d of %d) = %v, want %v in place", i, n, got, want)
			}
		}
	}
}

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
				s := &g.State
				if s.Flurry[side] != (e == Flurry) || s.Break[side] != (e == Break) || s.Setback[side] != (e == Setback) || s.Confused != (e == Confused && side == Heroes) {
					t.Errorf("%v on the %v: Flurry %v, Break %v, Setback %v, Confused %v", e, side, s.Flurry, s.Break, s.Setback, s.Confused)
				}
				if o := side.Other(); s.Flurry[o] || s.Break[o] || s.Setback[o] {
					t.Errorf("%v on the %v set a flag of the %v", e, side, o)
				}
				states[k] = *s
			}
			if d := cmp.Diff(states[1], states[0]); d != "" {
				t.Errorf("%v on the %v: state (-Sink +no Sink):\n%s", e, side, d)
			}
		}
	}
}
