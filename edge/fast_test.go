package edge

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stakesrpg/stakes/dice"
)

// TestStyleRound: the Styles' direct round (styleRound) lists exactly the
// checks, modifiers and flags that compiling the Styles' own Declaration
// lists, in the same order, at every step of random interactions; and it
// covers most rounds of them.
func TestStyleRound(t *testing.T) {
	scenarios, trials := 60, 10
	if testing.Short() || raceOn {
		scenarios = 40
	}
	gen := dice.NewSeeded(7)
	r := dice.NewSeeded(70)
	fast, slow := 0, 0
	for i := range scenarios {
		s := randomScenario(gen)
		if i%2 == 0 {
			// Without groups, so the direct round applies.
			for p := range s.Parties {
				for m := range s.Parties[p].Members {
					s.Parties[p].Members[m].Size = 0
				}
			}
		}
		in, err := s.New()
		if err != nil {
			t.Fatalf("scenario %d: %v", i, err)
		}
		for range trials {
			in.Reset()
			for steps := 0; !in.Outcome().Done(); steps++ {
				if in.st.started {
					got, ok := in.styleRound()
					if ok {
						fast++
						got = append([]participant(nil), got...)
						nA, nS := in.nAct, in.nStaked
						want, err := in.declare()
						if err != nil {
							t.Fatalf("scenario %d step %d: direct round but declare refuses: %v", i, steps, err)
						}
						if d := cmp.Diff(want, got, cmp.AllowUnexported(participant{})); d != "" || nA != in.nAct || nS != in.nStaked {
							t.Fatalf("scenario %d step %d: direct round differs (-declare +direct, nAct %d/%d, nStaked %d/%d):\n%s",
								i, steps, in.nAct, nA, in.nStaked, nS, d)
						}
					} else {
						slow++
					}
				}
				if err := in.Step(r); err != nil {
					t.Fatalf("scenario %d step %d: %v", i, steps, err)
				}
			}
		}
	}
	t.Logf("direct rounds %d, declared %d", fast, slow)
	if fast < 1000 || slow < 100 {
		t.Errorf("direct rounds %d, declared %d: the test misses a path", fast, slow)
	}
}

// TestStyleRoundEvents: whole interactions under each registered policy
// give the same events through the direct round as through the Policy
// interface (which always declares), for five members a side without
// groups, against a passive party and with several targets.
func TestStyleRoundEvents(t *testing.T) {
	for _, name := range Policies() {
		for _, extra := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/third=%v", name, extra), func(t *testing.T) {
				s := five()
				s.Parties[0].Policy, s.Parties[1].Policy = name, name
				s.Factors = []Factor{{After: 2, Every: 3, Skill: "endurance", DC: 12, Penalty: -1}}
				if extra {
					s.Type = "social"
					s.Parties = append(s.Parties, Party{Name: "crowd", Passive: true, BonusEdge: 3,
						Members: []Member{{Name: "c", Skills: map[string]int{"insight": 2}}}})
				}
				play := func(wrap bool) []Event {
					in, err := s.New()
					if err != nil {
						t.Fatal(err)
					}
					if wrap {
						for p := range 2 {
							if err := in.SetPolicy(p, viaInterface{registry[name]}); err != nil {
								t.Fatal(err)
							}
						}
					}
					rec := &Recorder{}
					in.SetSink(rec)
					if _, err := in.Run(dice.NewSeeded(12)); err != nil {
						t.Fatal(err)
					}
					return rec.Events
				}
				direct, iface := play(false), play(true)
				if len(direct) < 20 {
					t.Fatalf("only %d events", len(direct))
				}
				if d := cmp.Diff(iface, direct); d != "" {
					t.Errorf("direct round diverges from the interface (-interface +direct):\n%s", d)
				}
			})
		}
	}
}
