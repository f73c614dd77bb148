package dramadeck

import (
	"math/rand/v2"
	"testing"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim"
	"github.com/stakesrpg/stakes/sim/simtest"
)

// conformance is the adapter the conformance kit plays: the built-in
// scenario's encounter, step by step.
type conformance struct{ s Scenario }

func (m conformance) Scenario() sim.Mechanic {
	s := m.s
	return sim.Adapt[*Runner]("dramadeck", &s)
}

func (m conformance) NewGame(r *dice.Roller) (simtest.Game, error) {
	s, err := m.s.NewState(r)
	if err != nil {
		return nil, err
	}
	return m.wrap(s)
}

func (m conformance) Restore(state []byte) (simtest.Game, error) {
	s, err := Restore(state)
	if err != nil {
		return nil, err
	}
	return m.wrap(s)
}

func (m conformance) wrap(s *State) (simtest.Game, error) {
	heroes, gm, err := m.s.Policies()
	if err != nil {
		return nil, err
	}
	return &stepGame{g: &game{State: s}, heroes: heroes, gm: gm}, nil
}

// stepGame is one encounter played by Engine.Step (g, a game over the
// same State, answers the questions StepIllegal asks).
type stepGame struct {
	g          *game
	heroes, gm Policy
}

func (sg *stepGame) Done() bool            { return sg.g.Over() }
func (sg *stepGame) Save() ([]byte, error) { return sg.g.State.Save() }

func (sg *stepGame) Step(r *dice.Roller) ([]any, error) {
	var evs []any
	e := Engine{Sink: func(e Event) { evs = append(evs, e) }}
	err := e.Step(sg.g.State, r, sg.heroes, sg.gm)
	return evs, err
}

// StepIllegal answers the next step's choice illegally: a declaration of
// a card not in the pool or a Critical Moment of cards not in hand, a move
// to the pool of a card not in hand, an action on a friend or nobody, the
// GM stripping a pool card that is not there, or a Haste that is not in
// the pool.
func (sg *stepGame) StepIllegal(r *dice.Roller, chaos *rand.Rand) (bool, error) {
	g := sg.g
	s := g.State
	bad := &illegal{Style: Style{Label: "illegal"}, chaos: chaos}
	heroes, gm := sg.heroes, sg.gm
	switch {
	case g.Over() || !s.Combat || s.Phase == Between:
		return false, nil
	case s.Phase == Declaring:
		p := g.nextDeclarer()
		switch {
		case p < 0:
			return false, nil
		case !s.Players[p].Traded && chaos.IntN(2) == 0:
			bad.mode = 5 // a trade of cards not held
		default:
			bad.mode = chaos.IntN(2) // declare or Critical Moment
		}
		heroes = bad
	case g.moveOffered() >= 0:
		bad.mode = 2
		heroes = bad
	case g.Turn() < 0:
		return false, nil
	case hasteNext(g, sg.heroes):
		bad.mode = 6
		heroes = bad
	case g.side(g.Turn()) == Heroes:
		bad.mode = 3
		heroes = bad
	default:
		ci := g.Turn()
		ch := sg.gm.Choose(g.view(ci))
		bad.mode = 3
		if _, ok := g.mayStrip(ci, ch); ok && chaos.IntN(2) == 0 {
			bad.mode, bad.choice = 4, ch
		}
		gm = bad
	}
	return true, g.Step(r, heroes, gm)
}

// hasteNext reports whether the next step plays Haste under pol (a
// player holding it plays it as the next action comes up).
func hasteNext(g *game, pol Policy) bool {
	p, _ := g.hasteOffer(g.Turn(), pol)
	return p >= 0
}

// illegal is a policy answering one kind of choice illegally.
type illegal struct {
	Style
	chaos  *rand.Rand
	mode   int // 0 declare, 1 Critical Moment, 2 move, 3 action, 4 strip, 5 trade, 6 Haste
	choice Choice
}

func (b *illegal) notHeld(st *State) int {
	return []int{-1, len(st.Deck.Cards), 1 << 40, -7}[b.chaos.IntN(4)]
}

func (b *illegal) Critical(v *View, buf []int) []int {
	if b.mode == 1 {
		return append(buf, b.notHeld(v.State))
	}
	return buf
}

func (b *illegal) Declare(v *View, buf []Play, moved []int) []Play {
	return append(buf, Play{Card: b.notHeld(v.State)})
}

// Trade offers a card not held, or trades with a player who is not there.
func (b *illegal) Trade(v *View) Swap {
	if b.mode != 5 {
		return Swap{With: -1} // on to the declaration
	}
	other := (v.Who + 1) % len(v.Players)
	return []Swap{{With: other, Give: b.notHeld(v.State), Take: b.notHeld(v.State)}, {With: v.Who, Give: 0, Take: 0},
		{With: len(v.Players), Give: 0, Take: 0}, {With: -5}}[b.chaos.IntN(4)]
}

// Move answers a card not in hand (-1 would decline, which is legal).
func (b *illegal) Move(v *View) int {
	return []int{-7, len(v.Deck.Cards), 1 << 40, -2}[b.chaos.IntN(4)]
}

func (b *illegal) Choose(v *View) Choice {
	if b.mode == 4 {
		return b.choice
	}
	n := len(v.Heroes) + len(v.Villains)
	friend := 0
	if v.side(v.Who) == Villains {
		friend = len(v.Heroes)
	}
	return []Choice{{Act: Attack, Target: -1}, {Act: Attack, Target: n}, {Act: Trick, Target: friend}, {Act: Work}}[b.chaos.IntN(4)]
}

// Haste answers a card that is not a Haste in the pool.
func (b *illegal) Haste(v *View, next int) int {
	if b.mode != 6 {
		return -1
	}
	return []int{-7, len(v.Deck.Cards), 1 << 40, -2}[b.chaos.IntN(4)] // -1 would play none, which is legal
}

func (b *illegal) Strip(v *View) int {
	return []int{-2, len(v.Players[v.Who].Pool), 1 << 40}[b.chaos.IntN(3)]
}

func TestConformance(t *testing.T) {
	if err := simtest.TestMechanic(conformance{DefaultScenario()}, simtest.Options{}); err != nil {
		t.Fatal(err)
	}
}
