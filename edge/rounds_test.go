package edge

import (
	"context"
	"errors"
	"testing"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim/markov"
)

// seesaw is an interaction that never ends by itself: each party acts with
// a skill the other answers with its natural opposite at +1000, so the
// actor always loses a die and the initiative, and the dice go back and
// forth for ever. rules.max_rounds is 0: no limit of the designer's.
func seesaw() Scenario {
	s := duel()
	s.Rules.MaxRounds = 0
	s.Rules.Opposed = [][2]string{{"feint", "parry"}, {"taunt", "ignore"}}
	s.Rules.Types["social"] = Type{Start: "feint", Seize: "feint", Skills: []string{"feint", "taunt"}}
	s.Parties[0].Members[0].Skills = map[string]int{"feint": 0, "ignore": 1000}
	s.Parties[1].Members[0].Skills = map[string]int{"taunt": 0, "parry": 1000}
	return s
}

// TestNoRoundLimitStillEndsInBoundedWork: with rules.max_rounds 0 the
// seesaw would run for ever; the GM calls time after MaxRoundLimit rounds,
// so Play ends (a time-up, here a draw after an even number of rounds),
// a restored state past that round is refused, and Exact refuses rather
// than solving a chain that never ends.
func TestNoRoundLimitStillEndsInBoundedWork(t *testing.T) {
	s := seesaw()
	e, err := s.NewEngine()
	if err != nil {
		t.Fatal(err)
	}
	st := e.NewState()
	r := dice.NewSeeded(1)
	if err := e.Start(st, r); err != nil {
		t.Fatal(err)
	}
	// Late in a game that has gone nowhere: 2 dice each.
	st.Round = MaxRoundLimit - 4
	if err := e.Play(st, r); err != nil {
		t.Fatal(err)
	}
	if st.Round != MaxRoundLimit || st.Outcome.End != TimeUp || st.Outcome.Winner != -1 {
		t.Errorf("after round %d the outcome is %+v; want time up after round %d, a draw", st.Round, st.Outcome, MaxRoundLimit)
	}
	late := e.NewState()
	if err := e.Start(late, r); err != nil {
		t.Fatal(err)
	}
	late.Round = MaxRoundLimit
	if err := e.Check(late); err == nil {
		t.Error("a running interaction at the round limit passes Check")
	}
	if _, err := s.Exact(context.Background()); !errors.Is(err, markov.ErrNoExact) {
		t.Errorf("Exact: %v, want markov.ErrNoExact", err)
	}
	if testing.Short() {
		return
	}
	// A whole simulated trial: a million rounds, then time.
	rn, err := s.NewRunner()
	if err != nil {
		t.Fatal(err)
	}
	metrics := make([]int, len(s.Metrics()))
	c, err := rn.Trial(r, metrics)
	if err != nil || s.Categories()[c] != "draw" || metrics[0] != MaxRoundLimit {
		t.Errorf("trial: %v, outcome %d, %d rounds; want a draw after %d", err, c, metrics[0], MaxRoundLimit)
	}
}
