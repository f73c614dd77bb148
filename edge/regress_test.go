package edge

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim/markov"
)

// rollerBytes is r's saved state, to show a refused step drew nothing.
func rollerBytes(t *testing.T, r *dice.Roller) []byte {
	t.Helper()
	b, err := r.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// started is s built and started with the given starting rolls.
func started(t *testing.T, s Scenario, faces ...int) *session {
	t.Helper()
	in, err := newSession(s)
	if err != nil {
		t.Fatal(err)
	}
	if err := in.Start(dice.Scripted(faces...)); err != nil {
		t.Fatal(err)
	}
	return in
}

// thiefChase is a thief against a guard on foot, athletics both ways.
func thiefChase(factors ...Factor) Scenario {
	return Scenario{Rules: DefaultRules(), Type: "chase", Factors: factors, Parties: []Party{
		{Name: "thief", Members: []Member{{Name: "thief", Skills: map[string]int{"athletics": 5, "reflex": 2}}}},
		{Name: "guard", Members: []Member{{Name: "guard", Skills: map[string]int{"athletics": 3}}}},
	}}
}

// athletics is the round's declaration: the holder of the initiative
// against the other party, athletics both ways.
func athletics(t *testing.T, in *session) *Declaration {
	t.Helper()
	ath := skill(t, in, "athletics")
	a := in.Initiative()
	return &Declaration{Action: Action{Party: a, Targets: []int{1 - a}, Checks: []Use{{Member: 0, Skill: ath}}},
		Reactions: []Reaction{{Party: 1 - a, Checks: []Use{{Member: 0, Skill: ath}}}}}
}

func TestPlayWithoutADeclarationIsRefused(t *testing.T) {
	in := started(t, thiefChase(), 20, 1)
	before := in.State()
	r := dice.NewSeeded(1)
	rb := rollerBytes(t, r)
	if err := in.Round(r, nil); err == nil || !strings.Contains(err.Error(), "no declaration") {
		t.Errorf("Play(r, nil) = %v, want a refusal", err)
	}
	if d := cmp.Diff(before, in.State()); d != "" {
		t.Errorf("refused Play changed the state:\n%s", d)
	}
	if !cmp.Equal(rb, rollerBytes(t, r)) {
		t.Error("refused Play drew from the Roller")
	}
}

// TestScheduledFactorMadeByHandIsNotAppliedTwice: an outside factor of
// the scenario made by hand with Outside used to stay due, so the next
// Step made it again (-2 for a -1 penalty). Outside now refuses it while it
// is due; Factors makes it once and marks it made.
func TestScheduledFactorMadeByHandIsNotAppliedTwice(t *testing.T) {
	f := Factor{After: 0, Skill: "endurance", DC: 30, Penalty: -1} // DC 30 always fails
	in := started(t, thiefChase(f), 20, 1)
	r := dice.NewSeeded(2)
	before, rb := in.State(), rollerBytes(t, r)
	if err := in.Outside(r, f); err == nil || !strings.Contains(err.Error(), "Factors") {
		t.Fatalf("Outside of a scheduled factor that is due = %v, want a refusal naming Factors", err)
	}
	if d := cmp.Diff(before, in.State()); d != "" || !cmp.Equal(rb, rollerBytes(t, r)) {
		t.Fatalf("refused Outside changed the state or the Roller:\n%s", d)
	}
	if err := in.Factors(r); err != nil {
		t.Fatal(err)
	}
	if err := in.Factors(r); err == nil {
		t.Error("Factors made the same factors twice")
	}
	for range 3 {
		if err := in.Step(r); err != nil {
			t.Fatal(err)
		}
	}
	for p, ps := range in.State().Parties {
		if got := ps.Members[0].Penalty; got != -1 {
			t.Errorf("party %d penalty %d, want -1: the factor is made once", p, got)
		}
	}
}

// TestHandPlayedRoundWaitsForDueFactors: Play follows the scenario's
// schedule as Step does: while a factor is due it refuses the round.
func TestHandPlayedRoundWaitsForDueFactors(t *testing.T) {
	in := started(t, thiefChase(Factor{After: 1, Skill: "endurance", DC: 30, Penalty: -1}), 20, 1)
	if err := in.Round(dice.Scripted(10, 10), athletics(t, in)); err != nil {
		t.Fatalf("round 1 (no factor due yet): %v", err)
	}
	r := dice.NewSeeded(3)
	before, rb := in.State(), rollerBytes(t, r)
	if err := in.Round(r, athletics(t, in)); err == nil || !strings.Contains(err.Error(), "outside factors are due") {
		t.Fatalf("round 2 with a factor due = %v, want a refusal", err)
	}
	if d := cmp.Diff(before, in.State()); d != "" || !cmp.Equal(rb, rollerBytes(t, r)) {
		t.Fatalf("refused Play changed the state or the Roller:\n%s", d)
	}
	if err := in.Factors(r); err != nil {
		t.Fatal(err)
	}
	if err := in.Round(r, athletics(t, in)); err != nil {
		t.Errorf("round 2 after the factor: %v", err)
	}
}

// TestHandPlayedRoundsHonourMaxRounds: Play ends the interaction at the
// round limit, as Step does.
func TestHandPlayedRoundsHonourMaxRounds(t *testing.T) {
	s := thiefChase()
	s.Rules.MaxRounds = 2
	in := started(t, s, 20, 1)
	// Two level rounds (10+5 against 12+3: equal totals and the thief's
	// higher modifier moves one die each round).
	for round := 1; round <= 2; round++ {
		if err := in.Round(dice.Scripted(10, 12), athletics(t, in)); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
	}
	o := in.Outcome()
	if o.End != TimeUp || o.Winner != 0 || !o.Partial {
		t.Errorf("after max_rounds: %+v, want time_up with the thief (7 dice to 3) a partial winner", o)
	}
	if err := in.Round(dice.Scripted(10, 12), athletics(t, in)); !errors.Is(err, ErrOver) {
		t.Errorf("a third round: %v, want ErrOver", err)
	}
}

func TestTooManyOutsideFactorsAreRefused(t *testing.T) {
	var fs []Factor
	for range MaxFactors + 1 {
		fs = append(fs, Factor{After: 1, Skill: "endurance", DC: 10, Penalty: -1})
	}
	if err := thiefChase(fs...).Validate(); err == nil || !strings.Contains(err.Error(), "outside_factors") {
		t.Errorf("%d factors: %v, want a refusal", len(fs), err)
	}
	if err := thiefChase(fs[:MaxFactors]...).Validate(); err != nil {
		t.Errorf("%d factors: %v", MaxFactors, err)
	}
	late := Factor{After: MaxRoundLimit + 1, Skill: "endurance", DC: 10, Penalty: -1}
	if err := thiefChase(late).Validate(); err == nil {
		t.Error("a factor after more rounds than any interaction lasts was accepted")
	}
}

// hugeChain is the d447 check with 100 edge dice a side: far too
// many states and results to enumerate.
func hugeChain(t *testing.T) Scenario {
	s := thiefChase()
	pool, err := dice.ParsePool("d447")
	if err != nil {
		t.Fatal(err)
	}
	s.Rules.Check = pool
	s.Rules.StartEdge = 100
	return s
}

func TestExactOfAHugeChainIsRefusedAsTooLarge(t *testing.T) {
	_, err := hugeChain(t).Exact(context.Background())
	if !errors.Is(err, markov.ErrTooLarge) || !errors.Is(err, markov.ErrNoExact) {
		t.Errorf("Exact of a d447 chase with 100 dice a side: %v, want ErrTooLarge and ErrNoExact", err)
	}
}

func TestExactStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for name, s := range map[string]Scenario{"default": DefaultScenario(), "huge": hugeChain(t)} {
		if _, err := s.Exact(ctx); !errors.Is(err, context.Canceled) {
			t.Errorf("%s: Exact with a cancelled context: %v, want context.Canceled", name, err)
		}
	}
}

// TestExactAnswersPinned pins exact answers to 1e-12. The engine rebuilt
// on one rules engine gave the old answers exactly; these differ from them
// only by the initiative following Rules.TieBreak (a check that wins a die
// on the modifier tie-break now also takes the initiative).
func TestExactAnswersPinned(t *testing.T) {
	rules := DefaultRules()
	rules.Types["search"] = Type{Start: "perception", Seize: "perception", Skills: []string{"perception"}}
	d6, err := dice.ParsePool("d6")
	if err != nil {
		t.Fatal(err)
	}
	rules.Check = d6
	tests := []struct {
		name string
		s    Scenario
		p    []float64
		mean float64
	}{
		{"default", DefaultScenario(), []float64{0.28635866102560037, 0.7136413389743839, 0, 0, 0}, 22.217341960617357},
		{"walk away", Scenario{Rules: DefaultRules(), Type: "social", Parties: []Party{
			{Name: "diplomat", Policy: "cautious", Members: []Member{{Name: "d", Skills: map[string]int{"persuasion": 4, "perception": 2}}}},
			{Name: "rival", Policy: "canny", Members: []Member{{Name: "r", Skills: map[string]int{"deception": 5, "insight": 3, "wits": 2}}}},
		}}, []float64{0, 0, 0.59800757335829746, 0.40199242664170109, 0}, 1.9533511050080479},
		{"temptation", Scenario{Rules: DefaultRules(), Type: "temptation", Parties: []Party{
			{Name: "hero", Policy: "canny", Members: []Member{{Name: "h", Skills: map[string]int{"willpower": 4, "insight": 2}}}},
			{Name: "devil", Tempter: true, Policy: "reckless", BonusEdge: 2, Members: []Member{{Name: "d", Skills: map[string]int{"persuasion": 6, "deception": 5}}}},
		}}, []float64{0.068250654000723637, 0.9317493459992412, 0, 0, 0}, 23.70398507357762},
		{"passive", Scenario{Rules: rules, Type: "search", Parties: []Party{
			{Name: "squad", Policy: "steady", Members: []Member{{Name: "a", Skills: map[string]int{"perception": 3}}, {Name: "b", Skills: map[string]int{"perception": 1}}}},
			{Name: "bombs", Passive: true, Members: []Member{{Name: "bomb", Skills: map[string]int{"stealth": 1}}}},
		}}, []float64{0.026210580271684998, 0.9737894197283334, 0, 0, 0}, 7.7113382234017633},
		{"lone", lone(), []float64{0.3934874918002365, 0.6065125081997655, 0, 0, 0}, 25.221615600471125},
	}
	for _, tc := range tests {
		ex, err := tc.s.Exact(context.Background())
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		for i := range tc.p {
			if math.Abs(ex.P[i]-tc.p[i]) > 1e-12 {
				t.Errorf("%s: P[%d] = %.17g, want %.17g", tc.name, i, ex.P[i], tc.p[i])
			}
		}
		if math.Abs(ex.MeanRounds-tc.mean) > 1e-12*tc.mean {
			t.Errorf("%s: mean rounds %.17g, want %.17g", tc.name, ex.MeanRounds, tc.mean)
		}
	}
}

// TestRestoreNeedsOnlyTheState: a state saved as JSON beside the Roller's
// bytes restores with nothing else and plays on exactly as the game that
// was not interrupted.
func TestRestoreNeedsOnlyTheState(t *testing.T) {
	s := DefaultScenario()
	s.Factors = []Factor{{After: 2, Every: 3, Skill: "endurance", DC: 12, Penalty: -1}}
	whole, err := newSession(s)
	if err != nil {
		t.Fatal(err)
	}
	var want Recorder
	whole.Sink = want.Record
	if _, err := whole.Play(dice.NewSeeded(5)); err != nil {
		t.Fatal(err)
	}
	in, err := newSession(s)
	if err != nil {
		t.Fatal(err)
	}
	var got Recorder
	r := dice.NewSeeded(5)
	for !in.Outcome().Done() {
		in.Sink = got.Record
		if err := in.Step(r); err != nil {
			t.Fatal(err)
		}
		saved, err := json.Marshal(in.State())
		if err != nil {
			t.Fatal(err)
		}
		rb := rollerBytes(t, r)
		var st State
		if err := json.Unmarshal(saved, &st); err != nil {
			t.Fatal(err)
		}
		if err := st.Check(); err != nil {
			t.Fatalf("round %d: the saved state fails its check: %v", in.Played(), err)
		}
		if in, err = restoreSession(st); err != nil {
			t.Fatal(err)
		}
		r = dice.NewSeeded(0)
		if err := r.UnmarshalBinary(rb); err != nil {
			t.Fatal(err)
		}
	}
	if len(want.Events) < 20 {
		t.Fatalf("only %d events", len(want.Events))
	}
	if d := cmp.Diff(want.Events, got.Events); d != "" {
		t.Errorf("restored game diverges (-whole +restored):\n%s", d)
	}
}

func TestRestoredStateOfAnotherScenarioIsRefused(t *testing.T) {
	in, err := newSession(DefaultScenario())
	if err != nil {
		t.Fatal(err)
	}
	st := in.State()
	st.Scenario.Parties[1].BonusEdge = 3
	before := in.State()
	if err := in.SetState(st); err == nil || !strings.Contains(err.Error(), "scenario") {
		t.Errorf("SetState with another scenario = %v, want a refusal", err)
	}
	if d := cmp.Diff(before, in.State()); d != "" {
		t.Errorf("refused SetState changed the interaction:\n%s", d)
	}
	st.Scenario.Type = "no such type"
	if err := st.Check(); err == nil || !strings.Contains(err.Error(), "state.scenario") {
		t.Errorf("Check of a state whose scenario does not validate = %v", err)
	}
}

// TestStepAfterFactorsWithIllegalPolicyDrawsNothing: outside factors are a
// step of their own, so a policy's illegal answer in the round after them
// leaves both the state and the Roller as they were (before, the factors'
// dice had been drawn when the round was refused).
func TestStepAfterFactorsWithIllegalPolicyDrawsNothing(t *testing.T) {
	in := started(t, thiefChase(Factor{After: 0, Skill: "endurance", DC: 12, Penalty: -1}), 20, 1)
	for p := range 2 {
		in.Policies[p] = badPolicy{&Style{}}
	}
	r := dice.NewSeeded(4)
	if err := in.Step(r); err != nil {
		t.Fatalf("the factors' step: %v", err)
	}
	before, rb := in.State(), rollerBytes(t, r)
	if err := in.Step(r); err == nil {
		t.Fatal("an illegal action was played")
	}
	if d := cmp.Diff(before, in.State()); d != "" || !cmp.Equal(rb, rollerBytes(t, r)) {
		t.Errorf("refused step changed the state or drew from the Roller:\n%s", d)
	}
}

// TestEventsRoundTripThroughJSON: every event of a played interaction
// writes with its kind, end and concession by name and reads back equal.
func TestEventsRoundTripThroughJSON(t *testing.T) {
	s := DefaultScenario()
	s.Factors = []Factor{{After: 1, Every: 2, Skill: "endurance", DC: 12, Penalty: -1}}
	in, err := newSession(s)
	if err != nil {
		t.Fatal(err)
	}
	var rec Recorder
	in.Sink = rec.Record
	if _, err := in.Play(dice.NewSeeded(8)); err != nil {
		t.Fatal(err)
	}
	kinds := map[EventKind]bool{}
	for _, e := range rec.Events {
		kinds[e.Kind] = true
		b, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), `"kind":"`+e.Kind.String()+`"`) {
			t.Errorf("%s does not name its kind", b)
		}
		var back Event
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		again, err := json.Marshal(back)
		if err != nil {
			t.Fatal(err)
		}
		if string(again) != string(b) {
			t.Errorf("%s read back as %s", b, again)
		}
	}
	if len(kinds) < 6 {
		t.Errorf("only %d kinds of events: %v", len(kinds), kinds)
	}
	if b, _ := json.Marshal(Event{Kind: EvEnd, End: WalkedAway}); !strings.Contains(string(b), `"end":"walked_away"`) {
		t.Errorf("end written as %s", b)
	}
	var e Event
	if err := json.Unmarshal([]byte(`{"kind":"explosion"}`), &e); err == nil {
		t.Error("an unknown event kind was read")
	}
}

// TestRestoredFinishedGameWithOutcomeDroppedIsRefused: a game at its end
// whose saved outcome is dropped reads as running with one party left; the
// state check refuses it (the kit's mutation check found it let through).
func TestRestoredFinishedGameWithOutcomeDroppedIsRefused(t *testing.T) {
	in, err := newSession(DefaultScenario())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := in.Play(dice.NewSeeded(1)); err != nil {
		t.Fatal(err)
	}
	st := in.State()
	if st.Outcome.End != RanOut && st.Outcome.End != Surrendered {
		t.Fatalf("outcome %+v: want a party out of dice", st.Outcome)
	}
	st.Outcome = Outcome{}
	if err := st.Check(); err == nil {
		t.Error("a finished game with its outcome dropped was accepted")
	}
	st.Outcome = Outcome{Winner: -1, By: -1}
	if err := st.Check(); err == nil || !strings.Contains(err.Error(), "ended") {
		t.Errorf("running with one party holding dice: %v", err)
	}
}

func TestRestoredRunningStateAtMaxRoundsIsRefused(t *testing.T) {
	s := DefaultScenario()
	s.Rules.MaxRounds = 3
	in := started(t, s, 20, 1)
	st := in.State()
	st.Round = 3
	if err := st.Check(); err == nil || !strings.Contains(err.Error(), "max_rounds") {
		t.Errorf("a running state at round 3 of 3: %v", err)
	}
	st.Round = 2
	if err := st.Check(); err != nil {
		t.Errorf("round 2 of 3: %v", err)
	}
}

// TestRestoredPenaltyOfManyFactorsIsAccepted: penalties from many failed
// outside factors add up past one factor's bound; such a saved state
// restores.
func TestRestoredPenaltyOfManyFactorsIsAccepted(t *testing.T) {
	in := started(t, thiefChase(), 20, 1)
	st := in.State()
	st.Parties[0].Members[0].Penalty = -5 * MaxModifier
	if err := st.Check(); err != nil {
		t.Errorf("penalty %d: %v", -5*MaxModifier, err)
	}
	st.Parties[0].Members[0].Penalty = 1
	if err := st.Check(); err == nil {
		t.Error("a positive penalty was accepted")
	}
}

// TestChangingReturnedRulesChangesNothing: the rules an interaction hands
// out are a copy; changing them changes neither its play nor its saved
// scenario.
func TestChangingReturnedRulesChangesNothing(t *testing.T) {
	in, err := newSession(DefaultScenario())
	if err != nil {
		t.Fatal(err)
	}
	before := in.State()
	r := in.Rules()
	r.Types["chase"] = Type{Seize: "bogus"}
	r.Repetition[0] = -9
	if d := cmp.Diff(before, in.State()); d != "" {
		t.Errorf("changing the returned rules changed the interaction:\n%s", d)
	}
}

// TestViewOutOfRangeGivesZeroAnswers: a policy asking its view about a
// party or member that does not exist gets zero answers, not a panic.
func TestViewOutOfRangeGivesZeroAnswers(t *testing.T) {
	in, err := newSession(DefaultScenario())
	if err != nil {
		t.Fatal(err)
	}
	v := in.View()
	for _, p := range []int{-1, 2, 99} {
		if v.Name(p) != "" || v.Passive(p) || v.Members(p) != 0 || v.Edge(p) != 0 || v.Out(p) || v.Known(p, 0) != nil {
			t.Errorf("party %d: non-zero answers", p)
		}
	}
	if v.Known(0, 5) != nil || v.Name(0) != "lead car" || v.Edge(1) != 6 {
		t.Error("answers about real parties are wrong")
	}
}
