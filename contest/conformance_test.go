package contest

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim"
	"github.com/stakesrpg/stakes/sim/simtest"
)

// kit is the conformance kit's adapter for one scenario: a game is the
// scenario's start state with its action begun, played by the scenario's
// policies one engine step at a time.
type kit struct{ sc Scenario }

// saved is what a game saves: the scenario (its rules and policies) and
// the state.
type saved struct {
	Scenario Scenario `json:"scenario"`
	State    *State   `json:"state"`
}

type game struct {
	e  Engine
	tb Table
	sv saved
}

func (k kit) Scenario() sim.Mechanic {
	sc := k.sc
	return sim.Adapt[*Runner]("contest", &sc)
}

func (k kit) NewGame(*dice.Roller) (simtest.Game, error) {
	b, err := k.sc.build()
	if err != nil {
		return nil, err
	}
	g := &game{tb: b.table, sv: saved{Scenario: k.sc, State: b.scene.Clone()}}
	s := g.sv.State
	switch k.sc.Kind {
	case KindTimed:
		err = g.e.BeginTimed(s, b.actor, b.picks, b.beats, b.steps, b.helper)
	default:
		kind := Contested
		if k.sc.Kind == KindBasic {
			kind = Basic
		}
		if err = g.e.Begin(s, kind, b.sides, b.init); err == nil && b.iChar >= 0 {
			s.Action.Planned, s.Action.IPicks = Ref(b.iChar), b.iPicks
		}
	}
	return g, err
}

func (kit) Restore(state []byte) (simtest.Game, error) {
	var sv saved
	dec := json.NewDecoder(bytes.NewReader(state))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&sv); err != nil {
		return nil, err
	}
	b, err := sv.Scenario.build()
	if err != nil {
		return nil, err
	}
	if sv.State == nil || (sv.State.Action == nil) == (sv.State.Timed == nil) {
		return nil, errors.New("contest: a saved game holds one action or one timed action")
	}
	var e Engine
	if err := sv.State.Check(); err != nil {
		return nil, err
	}
	return &game{e: e, tb: b.table, sv: sv}, nil
}

func (g *game) Done() bool {
	if t := g.sv.State.Timed; t != nil {
		return timedOver(t)
	}
	return actionOver(g.sv.State.Action)
}

func (g *game) Step(r *dice.Roller) ([]any, error) {
	rec := &Recorder{}
	e := g.e
	e.Sink = rec.Record
	var err error
	if g.sv.State.Timed != nil {
		err = e.StepTimed(g.sv.State, r, &g.tb)
	} else {
		err = e.Step(g.sv.State, r, &g.tb)
	}
	return simtest.Events(rec.Events), err
}

func (g *game) Save() ([]byte, error) { return json.Marshal(g.sv) }

// StepIllegal takes the next step with every policy replaced by one whose
// answer to that step's question is out of range, where the step asks one.
func (g *game) StepIllegal(r *dice.Roller, chaos *rand.Rand) (bool, error) {
	s := g.sv.State
	if !g.asksIllegal() {
		return false, nil
	}
	bad := illegal{off: 1 + chaos.IntN(5)}
	tb := &Table{Chars: make([]Policy, len(s.Characters)), GM: bad}
	for i := range tb.Chars {
		tb.Chars[i] = bad
	}
	var err error
	if s.Timed != nil {
		err = g.e.StepTimed(s, r, tb)
	} else {
		err = g.e.Step(s, r, tb)
	}
	return true, err
}

// asksIllegal reports whether the next step asks a question illegal can
// answer out of range.
func (g *game) asksIllegal() bool {
	s := g.sv.State
	if t := s.Timed; t != nil {
		return t.Ones > 0 || t.Phase == TimedInflictPhase
	}
	a := s.Action
	switch {
	case a.Ones > 0:
		return true
	case a.Phase == PhaseOpen || a.Phase == PhaseTurn:
		sd := &a.Sides[a.Turn]
		c, aided := sd.Aider.Get()
		return sd.Char != TroublePool && !(aided && len(sd.Aiders) == 0 && !s.Characters[c].Out())
	case a.Phase == PhasePush:
		_, ok := g.e.pushReach(s, a.Turn, a.Margin, a.PushFloor)
		return ok
	case a.Phase == PhaseInflict:
		return a.Harms[0].To != TroublePool || len(s.Trouble) > 0
	}
	return false
}

// illegal answers every question with a choice the rules refuse: off past
// the allowed range.
type illegal struct {
	Sensible
	off int
}

func (illegal) Name() string                           { return "illegal" }
func (illegal) GiveIn(*View) bool                      { return false }
func (p illegal) Extras(v *View) int                   { return v.Affordable + p.off }
func (p illegal) BuyOnes(v *View) int                  { return v.Ones + p.off }
func (illegal) Interfere(*View) bool                   { return false }
func (illegal) Push(*View) bool                        { return true }
func (p illegal) PushStep(*View, []PushOption) int     { return -p.off }
func (illegal) Waive(*View) bool                       { return false }
func (p illegal) Onto(_ *View, c *Character) int       { return len(c.Traits) + p.off }
func (p illegal) TroubleOff(_ *View, t []dice.Die) int { return len(t) + p.off }

// The conformance kit passes for each scenario shape: the default
// contest, a basic action against the Trouble Pool, an interfered and an
// aided contest, a timed action, house rules (and the rulings the exact
// chain refuses), a contesting Trouble Pool and an all-roll opening.
func TestConformance(t *testing.T) {
	for name, sc := range map[string]Scenario{
		"contested": DefaultScenario(),
		"basic":     basicScenario("trouble"),
		"interfere": interfered("default", "stubborn"),
		"aided":     aided(KindContested, 0),
		"timed":     timedScenario(),
		"house":     houseRules(),
		"house past the chain": func() Scenario {
			sc := aided(KindContested, 0)
			cop := interfered("default", "default")
			sc.Cast = append(sc.Cast, cop.Cast[len(cop.Cast)-1])
			sc.Cast[len(sc.Cast)-1].PlotPoints = 3
			sc.Interferer, sc.InterferePool = cop.Interferer, cop.InterferePool
			sc.Rules.AidLasts, sc.Rules.Interferences, sc.Rules.OnesOfEveryRoll = true, 3, true
			return sc
		}(),
		"timed house": func() Scenario {
			sc := timedScenario()
			sc.Rules.BuyTimeCapped, sc.Rules.HelpersRollTrouble = false, true
			sc.Rules.OutOfTimeComplication = dice.D10
			return sc
		}(),
		"trouble":  troubleContest(),
		"all roll": threeWay(),
	} {
		t.Run(name, func(t *testing.T) {
			if err := simtest.TestMechanic(kit{sc}, simtest.Options{}); err != nil {
				t.Fatal(err)
			}
		})
	}
}
