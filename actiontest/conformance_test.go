package actiontest

import (
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim"
	"github.com/stakesrpg/stakes/sim/simtest"
)

// conformance hands the built-in rooftop chase to the conformance kit: a
// confGame is a pursuit played a step at a time by a Runner, saved as a
// SavedGame.
type conformance struct{ s Scenario }

func (m conformance) Scenario() sim.Mechanic { return sim.Adapt[*Runner]("actiontest", &m.s) }

func (m conformance) NewGame(*dice.Roller) (simtest.Game, error) {
	rn, err := m.s.NewRunner()
	if err != nil {
		return nil, err
	}
	return newConfGame(rn), nil
}

func (m conformance) Restore(state []byte) (simtest.Game, error) {
	var g SavedGame
	if err := json.Unmarshal(state, &g); err != nil {
		return nil, err
	}
	rn, err := RestoreGame(g)
	if err != nil {
		return nil, err
	}
	return newConfGame(rn), nil
}

// confGame is a Runner whose steps report their events.
type confGame struct {
	rn  *Runner
	evs []Event
}

func newConfGame(rn *Runner) *confGame {
	g := &confGame{rn: rn}
	rn.SetSink(func(e Event) {
		e.Dice = append([]int(nil), e.Dice...)
		g.evs = append(g.evs, e)
	})
	return g
}

func (g *confGame) Done() bool { return g.rn.Done() }

func (g *confGame) Step(r *dice.Roller) ([]any, error) {
	g.evs = g.evs[:0]
	err := g.rn.Step(r, nil)
	return simtest.Events(g.evs), err
}

// StepIllegal answers a push question with a track that does not exist,
// or declines a push the roll needs.
func (g *confGame) StepIllegal(r *dice.Roller, chaos *rand.Rand) (bool, error) {
	c := g.rn.State()
	v, ok := c.View()
	if !ok || g.rn.Done() {
		return false, nil
	}
	at := &c.Attempt
	if c.Flashback.Stage == Rolled {
		at = &c.Flashback
	}
	var p Policy
	switch {
	case v.PushTrack != "" && chaos.IntN(2) == 0:
		p = pushOn{"bogus"}
	case at.MustPush && !at.Pushed:
		p = declines{}
	case v.PushTrack != "":
		p = pushOn{"bogus"}
	default:
		return false, nil
	}
	g.evs = g.evs[:0]
	return true, g.rn.Step(r, p)
}

func (g *confGame) Save() ([]byte, error) { return json.Marshal(g.rn.Save()) }

// pushOn always pushes, on the named track.
type pushOn struct{ track string }

func (pushOn) Name() string                 { return "push_on" }
func (pushOn) Peril(*View) bool             { return false }
func (p pushOn) Push(*View) (bool, string)  { return true, p.track }
func (pushOn) Spend(_ *View, b []int) []int { return b }
func (pushOn) Flashback(*View) bool         { return true }

// declines never pushes, not even a roll that must be pushed.
type declines struct{}

func (declines) Name() string                 { return "declines" }
func (declines) Peril(*View) bool             { return false }
func (declines) Push(*View) (bool, string)    { return false, "" }
func (declines) Spend(_ *View, b []int) []int { return b }
func (declines) Flashback(*View) bool         { return true }

func TestConformance(t *testing.T) {
	if err := simtest.TestMechanic(conformance{DefaultScenario()}, simtest.Options{}); err != nil {
		t.Fatal(err)
	}
}
