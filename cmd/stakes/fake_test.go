package main

import (
	"context"
	"fmt"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim"
	"github.com/stakesrpg/stakes/sim/markov"
)

// coinScenario is a test-only mechanic: two sides race to a number of
// heads, one coin each per round. It has the same face as the rule
// packages' scenarios, so the CLI's plumbing is tested on it alone.
type coinScenario struct {
	Target int     `json:"target"`
	Sides  int     `json:"sides"` // die size; a head is the top face
	Label  string  `json:"label"`
	Inner  coinSub `json:"inner"`
	// Fields of every other kind a setting can have, for the --set and
	// --file tests; the race ignores them.
	Weight float64        `json:"weight,omitempty"`
	Loud   bool           `json:"loud,omitempty"`
	Tags   map[string]int `json:"tags,omitempty"`
	Big    int64          `json:"big,omitempty"`
	Teams  []coinTeam     `json:"teams,omitempty"`
}

type coinSub struct {
	Bonus []int `json:"bonus"`
}

type coinTeam struct {
	Name  string `json:"name"`
	Bonus int    `json:"bonus,omitempty"`
	Size  int    `json:"size,omitempty"`
}

var errNoExactCoin = fmt.Errorf("%w: coin: sides other than 2", markov.ErrNoExact)

func (s coinScenario) Validate() error {
	if s.Target < 1 || s.Target > 50 {
		return fmt.Errorf("coin: target %d: allowed 1..50", s.Target)
	}
	if s.Sides < 2 {
		return fmt.Errorf("coin: sides %d: at least 2", s.Sides)
	}
	return nil
}
func (s coinScenario) Categories() []string { return []string{"a_wins", "b_wins", "tie"} }
func (s coinScenario) Metrics() []string    { return []string{"rounds"} }
func (s coinScenario) NewRunner() (*coinRunner, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return &coinRunner{s: s}, nil
}

type coinRunner struct{ s coinScenario }

func (c *coinRunner) Trial(r *dice.Roller, m []int) int {
	a, b, rounds := 0, 0, 0
	for a < c.s.Target && b < c.s.Target {
		rounds++
		if r.Roll(c.s.Sides) == c.s.Sides {
			a++
		}
		if r.Roll(c.s.Sides) == c.s.Sides {
			b++
		}
	}
	m[0] = rounds
	switch {
	case a > b:
		return 0
	case b > a:
		return 1
	}
	return 2
}

func (s coinScenario) Exact(context.Context) (markov.Answer, error) {
	if s.Sides != 2 || s.Target != 1 {
		return markov.Answer{}, errNoExactCoin
	}
	// Target 1 with fair coins: each round ends with probability 3/4,
	// split 1/3 each way.
	return markov.Answer{P: []float64{1.0 / 3, 1.0 / 3, 1.0 / 3}, MeanRounds: 4.0 / 3}, nil
}

func init() {
	register(mechanicInfo{
		name:    "coin",
		summary: "test-only: two sides race to a number of heads",
		fresh: func() scenario {
			s := coinScenario{Target: 1, Sides: 2, Label: "race", Weight: 0.5, Loud: true,
				Tags: map[string]int{"a": 1, "b": 2}, Big: 7,
				Teams: []coinTeam{{Name: "reds", Bonus: 1, Size: 3}, {Name: "blues", Bonus: 2, Size: 4}}}
			return adapt(sim.Adapt[*coinRunner]("coin", &s), func() string {
				return fmt.Sprintf("race to %d heads on d%d", s.Target, s.Sides)
			})
		},
	})
}
