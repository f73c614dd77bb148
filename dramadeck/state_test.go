package dramadeck

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim/markov"
)

func startedGame(t *testing.T, seed uint64) (*Game, *dice.Roller) {
	s := DefaultScenario()
	d, _ := DefaultDeck()
	g, err := NewGame(s.Rules, d, s.Heroes, s.Villains)
	if err != nil {
		t.Fatal(err)
	}
	r := dice.NewSeeded(seed)
	deal(t, g, r, false)
	return g, r
}

// Save mid-encounter, restore into a fresh game, and both continue identically.
func TestStateJSONRoundTrip(t *testing.T) {
	pol := mustPolicy(t, "default")
	g, _ := startedGame(t, 4)
	r := dice.NewSeeded(8)
	for range 3 {
		if err := g.PlayRound(r, pol, pol); err != nil {
			t.Fatal(err)
		}
	}
	b, err := json.Marshal(g.State)
	if err != nil {
		t.Fatal(err)
	}
	var st State
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&st); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(g.State, st); d != "" {
		t.Fatalf("round trip (-want +got):\n%s", d)
	}
	h, _ := startedGame(t, 4)
	h.State = st
	r1, r2 := dice.NewSeeded(77), dice.NewSeeded(77)
	o1, err1 := g.RunEncounter(r1, pol, pol, 40)
	o2, err2 := h.RunEncounter(r2, pol, pol, 40)
	if err1 != nil || err2 != nil || o1 != o2 {
		t.Fatalf("continuations differ: %v %v / %v %v", o1, err1, o2, err2)
	}
	if d := cmp.Diff(g.State, h.State); d != "" {
		t.Errorf("continued states differ (-saved +restored):\n%s", d)
	}
}

// The trace records flips, plays and rolls, consistent with the state.
func TestEventTrace(t *testing.T) {
	g, r := startedGame(t, 5)
	var tr Trace
	g.Sink = tr.Add
	pol := mustPolicy(t, "aggressive")
	if _, err := g.RunEncounter(r, pol, pol, 30); err != nil {
		t.Fatal(err)
	}
	kinds := map[EventKind]int{}
	for _, e := range tr.Events {
		kinds[e.Kind]++
	}
	want(t, kinds[EvFlip], g.State.Flips)
	want(t, kinds[EvPlay], g.State.CardsPlayed)
	want(t, kinds[EvOutcome], 1)
	if kinds[EvRoll] == 0 || kinds[EvAction] == 0 {
		t.Errorf("no rolls or actions traced: %v", kinds)
	}
	if _, err := json.Marshal(tr.Events); err != nil {
		t.Error(err)
	}
}

func TestScenarioFace(t *testing.T) {
	s := DefaultScenario()
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var back Scenario
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&back); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(s, back); d != "" {
		t.Errorf("scenario JSON (-want +got):\n%s", d)
	}
	if _, err := s.Exact(context.Background()); !errors.Is(err, markov.ErrNoExact) {
		t.Errorf("Exact: %v, want markov.ErrNoExact", err)
	}
	if len(s.Metrics()) > 8 || s.Metrics()[0] != "rounds" {
		t.Error("metrics")
	}
	bad := []func(*Scenario){
		func(s *Scenario) { s.Heroes = nil },
		func(s *Scenario) { s.Villains = nil },
		func(s *Scenario) { s.MaxRounds = 0 },
		func(s *Scenario) { s.HeroPolicy = "reckless" },
		func(s *Scenario) { s.GMPolicy = "" },
		func(s *Scenario) { s.Rules.HandSize = 0 },
		func(s *Scenario) { s.Rules.Margins.Maneuver = s.Rules.Margins.Maneuver[1:] },
		func(s *Scenario) { s.Deck = []Count{{Hero, 0}} },
		func(s *Scenario) { s.Heroes = append([]Character(nil), s.Heroes...); s.Heroes[0].MaxHP = 0 },
		func(s *Scenario) {
			s.Villains = append([]Character(nil), s.Villains...)
			s.Villains[0].Damage.Dice = -1
		},
	}
	for i, f := range bad {
		c := DefaultScenario()
		f(&c)
		if err := c.Validate(); err == nil {
			t.Errorf("bad scenario %d accepted", i)
		} else if _, err2 := c.NewRunner(); err2 == nil {
			t.Errorf("NewRunner accepted bad scenario %d", i)
		} else {
			t.Logf("%d: %v", i, err)
		}
	}
}

func TestTrialNoAllocs(t *testing.T) {
	s := DefaultScenario()
	rn, err := s.NewRunner()
	if err != nil {
		t.Fatal(err)
	}
	r := dice.NewSeeded(3)
	m := make([]int, len(s.Metrics()))
	for range 50 {
		rn.Trial(r, m)
	}
	if a := testing.AllocsPerRun(200, func() { rn.Trial(r, m) }); a != 0 {
		t.Errorf("Trial allocates %v per run", a)
	}
	if rn.Err() != nil {
		t.Errorf("policy error in trials: %v", rn.Err())
	}
}

// Expected Flurry rounds per encounter: sampled, and checked against the
// exact per-flip chance of a Flurry line times the flips made.
func TestFlurryRounds(t *testing.T) {
	s := DefaultScenario()
	s.HeroPolicy, s.GMPolicy = "passive", "passive" // no Seize Initiative re-flips
	rn, _ := s.NewRunner()
	d, _ := DefaultDeck()
	pf, _ := DrawOdds(d, func(c *Card) bool { return c.Standard.Hero == Flurry || c.Standard.Villain == Flurry }, 1)
	r := dice.NewSeeded(21)
	m := make([]int, len(s.Metrics()))
	n := 20000
	if testing.Short() {
		n = 4000
	}
	var fl, flips, rounds float64
	var sq float64
	for range n {
		rn.Trial(r, m)
		rounds += float64(m[0])
		fl += float64(m[1])
		flips += float64(m[6])
		sq += float64(m[1] * m[1])
	}
	mean := fl / float64(n)
	sd := math.Sqrt(sq/float64(n) - mean*mean)
	exp := pf.Prob(1) * flips / float64(n)
	t.Logf("expected Flurry rounds per encounter: %.3f (rounds %.2f; per-flip chance %.4f)", mean, rounds/float64(n), pf.Prob(1))
	if math.Abs(mean-exp) > 4*sd/math.Sqrt(float64(n)) {
		t.Errorf("Flurry rounds %.4f, per-flip chance x flips gives %.4f", mean, exp)
	}
}

// TestShuffleMatchesRoller: Game.Shuffle gives the order dice's
// Roller.Shuffle gives from the same seed (the same Fisher-Yates draws).
func TestShuffleMatchesRoller(t *testing.T) {
	g := testGame(t)
	want := append([]int(nil), g.State.Draw...)
	for seed := uint64(1); seed <= 5; seed++ {
		r := dice.NewSeeded(seed)
		r.Shuffle(len(want), func(i, j int) { want[i], want[j] = want[j], want[i] })
		g.Shuffle(dice.NewSeeded(seed))
		if d := cmp.Diff(want, g.State.Draw); d != "" {
			t.Fatalf("seed %d (-Roller.Shuffle +Game.Shuffle):\n%s", seed, d)
		}
	}
}
