package challenge

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim"
	"github.com/stakesrpg/stakes/sim/simtest"
)

// mechanic is the package's adapter for the conformance kit: games of one
// scenario played step by step with its shipped policies.
type mechanic struct{ s Scenario }

var _ simtest.Mechanic = mechanic{}

func (m mechanic) Scenario() sim.Mechanic {
	s := m.s
	return sim.Adapt[*Runner]("challenge", &s)
}

func (m mechanic) NewGame(*dice.Roller) (simtest.Game, error) {
	c, plays, err := m.s.build()
	if err != nil {
		return nil, err
	}
	return &game{c: c, plays: plays}, nil
}

// Restore decodes a saved conflict (UnmarshalJSON runs State.Check) and
// plays it on with the scenario's policies, side by side; a side the
// scenario does not have plays by the defaults.
func (m mechanic) Restore(state []byte) (simtest.Game, error) {
	var c State
	if err := json.Unmarshal(state, &c); err != nil {
		return nil, err
	}
	_, plays, err := m.s.build()
	if err != nil {
		return nil, err
	}
	ps := make([]Policy, len(c.Sides))
	copy(ps, plays)
	return &game{c: &c, plays: ps}, nil
}

type game struct {
	c      *State
	plays  []Policy
	events []any
}

func (g *game) Done() bool { return g.c.Done() }

func (g *game) Step(r *dice.Roller) ([]any, error) {
	g.events = nil
	eng := Engine{Sink: func(e Event) { g.events = append(g.events, e) }}
	err := eng.with(g.plays).Step(g.c, r)
	return g.events, err
}

func (g *game) Save() ([]byte, error) { return json.Marshal(g.c) }

// Policies that answer illegally, as chaos picks.
type (
	targetAt struct{ k int }
	lossOf   struct{ l Loss }
)

func (p targetAt) Target(*View, int) int         { return p.k }
func (p lossOf) Loss(_ *View, _, _ int, l *Loss) { *l = p.l }

// restyle changes one part of side i's Style.
func restyle(policies []Policy, i int, change func(*Style)) {
	var s Style
	if p, ok := policies[i].(*Style); ok {
		s = *p
	}
	change(&s)
	policies[i] = &s
}

// StepIllegal answers the next choice illegally: an owe-list entry that
// does not exist or an answer below -1; an answerer that is the challenger
// itself or no side at all; a loss from no stat, or of more sizes than the
// rules take. A stance or interference is a yes or no, never illegal.
func (g *game) StepIllegal(r *dice.Roller, chaos *rand.Rand) (bool, error) {
	c := g.c
	plays := slices.Clone(g.plays)
	switch c.Phase {
	case PhaseCastRolled, PhaseAnswered:
		i := c.toAsk()
		if len(c.Owe) == 0 || i < 0 {
			return false, nil
		}
		restyle(plays, i, func(s *Style) { s.Cross = crossAt{[]int{-5, -2, len(c.Owe), len(c.Owe) + 7}[chaos.IntN(4)]} })
	case PhaseChallenge:
		if _, sole := c.soleAnswerer(); sole {
			return false, nil
		}
		restyle(plays, c.Challenger, func(s *Style) { s.Targets = targetAt{[]int{c.Challenger, -3, len(c.Sides), 1 << 40}[chaos.IntN(4)]} })
	case PhaseConsequence:
		bad := []Loss{{Stat: "luck", Sizes: [MaxDice]int{1}}, {Stat: c.Rules.Stats[0], Sizes: [MaxDice]int{-1}},
			{Stat: c.Rules.Stats[0], Sizes: [MaxDice]int{99}}}[chaos.IntN(3)]
		restyle(plays, c.Challenger, func(s *Style) { s.Losses, s.Negotiator = lossOf{bad}, nil })
	default:
		return false, nil
	}
	return true, Engine{Policies: plays}.Step(c, r)
}

// TestConformance runs the conformance kit on the default scenario, on
// one where both sides cross names off the owe list, and on the
// three-sided conflict with helpers and interference.
func TestConformance(t *testing.T) {
	owe := OweScenario()
	for name, s := range map[string]Scenario{"default": DefaultScenario(), "owe": owe, "three_way": threeWay()} {
		t.Run(name, func(t *testing.T) {
			if err := simtest.TestMechanic(mechanic{s}, simtest.Options{}); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestConformanceAdapter plays games through the adapter the way the kit
// does, saving and restoring after every step and answering choices
// illegally, and checks what the kit does not: that the illegal answers
// are tried at cross-offs, choices of answerer and consequences alike.
func TestConformanceAdapter(t *testing.T) {
	owe := OweScenario()
	chaos := rand.New(rand.NewPCG(1, 2))
	for name, s := range map[string]Scenario{"default": DefaultScenario(), "owe": owe, "three_way": threeWay()} {
		m := mechanic{s}
		kinds := map[Phase]int{}
		for seed := range uint64(20) {
			r := dice.NewSeeded(seed)
			g, err := m.NewGame(r)
			must(t, err)
			for steps := 0; !g.Done(); steps++ {
				if steps > 10_000 {
					t.Fatalf("%s seed %d: no end after 10,000 steps", name, seed)
				}
				state, err := g.Save()
				must(t, err)
				rb := rollerBytes(t, r)
				phase := g.(*game).c.Phase
				if tried, err := g.StepIllegal(r, chaos); tried {
					kinds[phase]++
					if err == nil {
						t.Fatalf("%s seed %d: an illegal answer in phase %v was taken", name, seed, phase)
					}
					after, _ := g.Save()
					if !bytes.Equal(after, state) || !bytes.Equal(rollerBytes(t, r), rb) {
						t.Fatalf("%s seed %d: a refused step in phase %v changed the game or drew dice", name, seed, phase)
					}
				}
				if g, err = m.Restore(state); err != nil {
					t.Fatalf("%s seed %d: restoring %s: %v", name, seed, state, err)
				}
				r = dice.NewSeeded(0)
				must(t, r.UnmarshalBinary(rb))
				events, err := g.Step(r)
				must(t, err)
				for _, e := range events {
					checkEventJSON(t, e.(Event))
				}
			}
		}
		if name != "default" && (kinds[PhaseConsequence] == 0 || len(kinds) < 2) {
			t.Errorf("%s: illegal answers tried only in %v", name, kinds)
		}
	}
}

// checkEventJSON checks that an event survives a JSON round trip.
func checkEventJSON(t *testing.T, e Event) {
	t.Helper()
	b, err := json.Marshal(e)
	must(t, err)
	var back Event
	must(t, json.Unmarshal(b, &back))
	if fmt.Sprint(back) != fmt.Sprint(e) || !slices.Equal(back.Faces, e.Faces) {
		t.Fatalf("event %v came back from %s as %v", e, b, back)
	}
}
