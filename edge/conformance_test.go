package edge

import (
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim"
	"github.com/stakesrpg/stakes/sim/simtest"
)

// conformance hands the conformance kit a scenario of this package.
type conformance struct{ s Scenario }

var _ simtest.Mechanic = conformance{}

// kitScenarios are the scenarios the kit checks: the text's car chase
// (exact answers exist), the same with a crowd among the pursuers and a
// scheduled outside factor, and a court of three where every party acts
// in turn, so that every kind of step is taken.
func kitScenarios() map[string]Scenario {
	factors := DefaultScenario()
	factors.Parties[1].Members = append(factors.Parties[1].Members, Member{Name: "bikers", Size: 12, Skills: map[string]int{"vehicles": 2}})
	factors.Factors = []Factor{{After: 2, Every: 4, Skill: "endurance", DC: 11, Penalty: -1}}
	court := Scenario{Rules: DefaultRules(), Type: "social", Parties: []Party{
		{Name: "duke", Policy: "canny", Members: []Member{{Name: "duke", Skills: map[string]int{"persuasion": 4, "wits": 2}}, {Name: "page", Skills: map[string]int{"insight": 1}}}},
		{Name: "envoy", Policy: "cautious", Members: []Member{{Name: "envoy", Skills: map[string]int{"deception": 3, "perception": 2}}}},
		{Name: "jester", Policy: "reckless", Members: []Member{{Name: "jester", Skills: map[string]int{"performance": 5}}}},
	}}
	court.Rules.Turns = EveryParty
	return map[string]Scenario{"chase": DefaultScenario(), "crowd and factors": factors, "every party": court}
}

func (c conformance) Scenario() sim.Mechanic { return sim.Adapt[*Runner]("edge", &c.s) }

func (c conformance) NewGame(*dice.Roller) (simtest.Game, error) {
	in, err := newSession(c.s)
	if err != nil {
		return nil, err
	}
	return &kitGame{in: in}, nil
}

func (conformance) Restore(state []byte) (simtest.Game, error) {
	var st State
	if err := json.Unmarshal(state, &st); err != nil {
		return nil, err
	}
	in, err := restoreSession(st)
	if err != nil {
		return nil, err
	}
	return &kitGame{in: in}, nil
}

// kitGame is one interaction played step by step for the kit.
type kitGame struct {
	in  *session
	rec Recorder
}

func (g *kitGame) Done() bool { return g.in.Outcome().Done() }

func (g *kitGame) Step(r *dice.Roller) ([]any, error) {
	g.rec.Events = g.rec.Events[:0]
	g.in.Sink = g.rec.Record
	defer func() { g.in.Sink = nil }()
	if err := g.in.Step(r); err != nil {
		return nil, err
	}
	return simtest.Events(g.rec.Events), nil
}

// StepIllegal plays the next round with every active party answering
// through chaosPolicy, when the next step is a round (not the starting
// checks or outside factors, which ask no choice that can be wrong).
func (g *kitGame) StepIllegal(r *dice.Roller, chaos *rand.Rand) (bool, error) {
	in := g.in
	if in.Outcome().Done() || !in.s.Started || in.game().factorsDue() {
		return false, nil
	}
	saved := in.pol
	defer func() { in.pol = saved }()
	first := 0
	if in.s.Pending != nil || len(in.s.Acted) > 0 {
		first = 1 // concessions are asked only before a round
	}
	for p := range in.parties {
		if !in.parties[p].passive {
			if err := in.SetPolicy(p, chaosPolicy{how: first + chaos.IntN(5-first)}); err != nil {
				return false, err
			}
		}
	}
	return true, in.Step(r)
}

func (g *kitGame) Save() ([]byte, error) { return json.Marshal(g.in.s) }

// chaosPolicy answers one of the round's choices illegally, in the way how
// picks: an unknown concession, a target that is itself, a member that
// does not exist, a skill that does not exist, or more dice than it holds.
type chaosPolicy struct{ how int }

func (c chaosPolicy) Concede(*View, int) Concession {
	if c.how == 0 {
		return Concession(7)
	}
	return Continue
}

func (c chaosPolicy) Act(v *View, p int, a *Action) {
	(&Style{}).Act(v, p, a)
	switch c.how {
	case 1:
		a.Targets = append(a.Targets[:0], p)
	case 2:
		a.Checks = append(a.Checks, Use{Member: 99})
	case 3:
		a.Checks[0].Skill = -1
	case 4:
		for range v.Edge(p) + 1 {
			a.Checks = append(a.Checks, a.Checks[0])
		}
	}
}

func (c chaosPolicy) React(v *View, p int, a *Action, r *Reaction) { (&Style{}).React(v, p, a, r) }
func (c chaosPolicy) Seize(*View, int) bool                        { return true }
func (c chaosPolicy) Abandon(*View, int, int) bool                 { return false }

// TestConformance runs the conformance kit, every check of it.
func TestConformance(t *testing.T) {
	for name, s := range kitScenarios() {
		t.Run(name, func(t *testing.T) {
			if err := simtest.TestMechanic(conformance{s}, simtest.Options{}); err != nil {
				t.Error(err)
			}
		})
	}
}
