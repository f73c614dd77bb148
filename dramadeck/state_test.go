package dramadeck

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"maps"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim/markov"
)

func startedGame(t *testing.T, seed uint64) (*game, *dice.Roller) {
	s := DefaultScenario()
	d, _ := DefaultDeck()
	g, err := newGame(s.Rules, d, s.Heroes, s.Villains)
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
		if err := g.Round(r, pol, pol); err != nil {
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
	if d := cmp.Diff(*g.State, st, cmpopts.IgnoreUnexported(State{})); d != "" {
		t.Fatalf("round trip (-want +got):\n%s", d)
	}
	h, _ := startedGame(t, 4)
	h.State = &st
	r1, r2 := dice.NewSeeded(77), dice.NewSeeded(77)
	g.State.MaxRounds, h.State.MaxRounds = 40, 40
	err1, err2 := g.Play(r1, pol, pol), h.Play(r2, pol, pol)
	o1, o2 := g.State.Outcome, h.State.Outcome
	if err1 != nil || err2 != nil || o1 != o2 {
		t.Fatalf("continuations differ: %v %v / %v %v", o1, err1, o2, err2)
	}
	if d := cmp.Diff(g.State, h.State, cmpopts.IgnoreUnexported(State{})); d != "" {
		t.Errorf("continued states differ (-saved +restored):\n%s", d)
	}
}

// The trace records flips, plays and rolls, consistent with the state.
func TestEventTrace(t *testing.T) {
	g, r := startedGame(t, 5)
	var tr Trace
	g.Sink = tr.Add
	pol := mustPolicy(t, "aggressive")
	g.State.MaxRounds = 30
	if err := g.Play(r, pol, pol); err != nil {
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

// A trial of every built-in study allocates nothing once its runner's
// buffers have grown: a scene's end keeps the hands it may put back, and
// an adventure's end its awards, in the State's buffers.
func TestTrialNoAllocs(t *testing.T) {
	for _, name := range slices.Sorted(maps.Keys(Builtins())) {
		s := Builtins()[name]
		rn, err := s.NewRunner()
		if err != nil {
			t.Fatal(err)
		}
		r := dice.NewSeeded(3)
		m := make([]int, len(s.Metrics()))
		for range 50 {
			mustTrial(t, rn, r, m)
		}
		if a := testing.AllocsPerRun(200, func() { mustTrial(t, rn, r, m) }); a != 0 {
			t.Errorf("%s: Trial allocates %v per run", name, a)
		}
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
		mustTrial(t, rn, r, m)
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

// TestShuffleMatchesRoller: Engine.Shuffle gives the order dice's
// Roller.Shuffle gives from the same seed (the same Fisher-Yates draws).
func TestShuffleMatchesRoller(t *testing.T) {
	g := testGame(t)
	want := append([]int(nil), g.State.Draw...)
	for seed := uint64(1); seed <= 5; seed++ {
		r := dice.NewSeeded(seed)
		r.Shuffle(len(want), func(i, j int) { want[i], want[j] = want[j], want[i] })
		g.Shuffle(dice.NewSeeded(seed))
		if d := cmp.Diff(want, g.State.Draw); d != "" {
			t.Fatalf("seed %d (-Roller.Shuffle +Engine.Shuffle):\n%s", seed, d)
		}
	}
}

// savedGame is a game in the middle of a round, saved as JSON.
func savedGame(t *testing.T) []byte {
	t.Helper()
	g := testGame(t)
	deal(t, g, dice.NewSeeded(5), false)
	if err := g.BeginRound(dice.NewSeeded(6)); err != nil {
		t.Fatal(err)
	}
	if _, err := g.StartTask(0, Task{Skill: 12, Rounds: 3}); err != nil {
		t.Fatal(err)
	}
	b, err := g.State.Save()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A saved game restores to the same game, rules, deck, phase and tasks
// included.
func TestSavedGameRestoresWhole(t *testing.T) {
	b := savedGame(t)
	g, err := restoreGame(b)
	if err != nil {
		t.Fatal(err)
	}
	b2, err := g.State.Save()
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != string(b2) {
		t.Error("a restored game saves differently")
	}
	if g.State.Phase != Declaring || len(g.State.Tasks) != 1 || len(g.State.Deck.Cards) == 0 {
		t.Errorf("restored phase %v, %d tasks, %d cards", g.State.Phase, len(g.State.Tasks), len(g.State.Deck.Cards))
	}
}

// A game saved before a rule became a setting lacks its key: Restore
// reads the rule's default, not zero (stun_percent 0 would have every
// blow stun, defence_takes_cards false would take the cards off the
// defences), inside the criticals and the margin table too. Keys that
// are there keep their values, and a key left out because its value is
// zero (omitempty) stays zero.
func TestRestoredSaveMissingRuleKeysReadsTheirDefaults(t *testing.T) {
	b := savedGame(t)
	var tree map[string]any
	if err := json.Unmarshal(b, &tree); err != nil {
		t.Fatal(err)
	}
	rules := tree["rules"].(map[string]any)
	delete(rules, "stun_percent")
	delete(rules, "defence_takes_cards")
	delete(rules, "hand_size")
	delete(rules["criticals"].(map[string]any), "crit_fail")
	delete(rules["margins"].(map[string]any), "maneuver")
	rules["bonus"] = 5
	rules["inspiration_revives"] = true
	old, err := json.Marshal(tree)
	if err != nil {
		t.Fatal(err)
	}
	g, err := restoreGame(old)
	if err != nil {
		t.Fatal(err)
	}
	got, def := g.State.Rules, DefaultRules()
	want(t, got.StunPercent, 50)
	want(t, b2i(got.DefenceTakesCards), 1)
	want(t, got.HandSize, def.HandSize)
	want(t, got.Criticals.CritFail, 18)
	want(t, len(got.Margins.Maneuver), len(def.Margins.Maneuver))
	want(t, got.Bonus, 5)
	want(t, b2i(got.InspirationRevives), 1)
	want(t, b2i(got.DefendRolls), 0) // omitted as false, read as false
	// With every key there, nothing is defaulted: stun_percent 0 stays 0.
	rules["stun_percent"] = 0
	zero, _ := json.Marshal(tree)
	if g, err = restoreGame(zero); err != nil {
		t.Fatal(err)
	}
	want(t, g.State.Rules.StunPercent, 0)
}

// Restored states that every card check passed but that the steps could
// not play are refused whole by Restore (State.Check): each used to panic
// or hang in a step.
func TestRestoredBrokenStatesAreRefused(t *testing.T) {
	for _, tc := range []struct {
		name   string
		mutate func(s *State)
	}{
		{"more heroes than players (drawTo panicked)", func(s *State) {
			s.Heroes = append(s.Heroes, s.Heroes[0])
		}},
		{"no heroes (Search panicked)", func(s *State) { s.Heroes, s.Players = nil, nil }},
		{"damage dice 2^53 (a damage roll would never end)", func(s *State) { s.Heroes[0].Damage.Dice = 1 << 53 }},
		{"a Haste debt of 2^53 actions", func(s *State) { s.Heroes[0].Status.Extra = 1 << 53 }},
		{"rules with six task steps", func(s *State) { s.Rules.TaskSteps = 6 }},
		{"a queue naming character 99", func(s *State) { s.Phase, s.Queue = Acting, []int{99} }},
		{"acting out of combat", func(s *State) { s.Combat = false }},
		{"a move to the pool offered while the players declare (Step would take the declarations first)", func(s *State) {
			s.Phase, s.Queue, s.Players[0].MayMove = Declaring, nil, true
		}},
		{"a task for player 7", func(s *State) { s.Tasks[0].Player = 7 }},
		{"a task past its steps", func(s *State) { s.Tasks[0].Done = 9 }},
		{"a card in two places", func(s *State) { s.Discard = append(s.Discard, s.Draw[0]) }},
		{"a card outside the deck", func(s *State) { s.Draw[0] = 999 }},
		{"an empty deck", func(s *State) { s.Deck.Cards = nil }},
		{"a card approving Work", func(s *State) { s.Deck.Cards[0].Approved[0] = Work }},
		{"HP of -2^53", func(s *State) { s.Villains[0].HP = -1 << 53 }},
		{"round 2^53", func(s *State) { s.Round = 1 << 53 }},
	} {
		var s State
		if err := json.Unmarshal(savedGame(t), &s); err != nil {
			t.Fatal(err)
		}
		tc.mutate(&s)
		b, err := json.Marshal(&s)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := restoreGame(b); err == nil {
			t.Errorf("%s: restored", tc.name)
		} else {
			t.Logf("%s: %v", tc.name, err)
		}
	}
}

// ParseDeck's card count cannot wrap: a second line of 2^63-1 cards is
// refused, where the sum once wrapped below the limit and the process
// ran out of memory.
func TestParseDeckCountCannotWrap(t *testing.T) {
	_, err := ParseDeck(strings.NewReader("2 Hero\n9223372036854775807 Drama\n"), 1)
	if err == nil {
		t.Fatal("a deck of 2^63+1 cards was read")
	}
	t.Log(err)
}

// Validate refuses criticals that contradict themselves and negative
// posture bonuses.
func TestValidateRefusesContradictoryRules(t *testing.T) {
	for _, tc := range []struct {
		name   string
		mutate func(r *Rules)
	}{
		{"crit_success 17 (a critical success that always fails)", func(r *Rules) { r.Criticals.CritSuccess = 17 }},
		{"crit_fail 4 (a critical failure that always succeeds)", func(r *Rules) { r.Criticals.CritFail = 4 }},
		{"always_succeed 17, always_fail 17", func(r *Rules) { r.Criticals.AlwaysSucceed = 17 }},
		{"negative defend bonus", func(r *Rules) { r.DefendBonus = -2 }},
		{"negative all-out attack bonus", func(r *Rules) { r.AllOutAttackBonus = -1 }},
		{"Leadership moving three cards", func(r *Rules) { r.MaxLeadership = 3 }},
		{"stun_percent -1", func(r *Rules) { r.StunPercent = -1 }},
		{"stun_percent 101", func(r *Rules) { r.StunPercent = 101 }},
		{"collapse_fp above the FP track", func(r *Rules) { r.CollapseFP = maxTrack + 1 }},
		{"a critical miss of Flurry", func(r *Rules) { r.CriticalMiss = Flurry }},
		{"collapse_fp below the FP track", func(r *Rules) { r.CollapseFP = -maxTrack - 1 }},
	} {
		r := DefaultRules()
		tc.mutate(&r)
		if err := r.Validate(); err == nil {
			t.Errorf("%s: accepted", tc.name)
		}
	}
}
