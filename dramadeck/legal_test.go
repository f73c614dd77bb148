package dramadeck

import (
	"slices"
	"strings"
	"testing"

	"github.com/stakesrpg/stakes/dice"
)

// emptyDraw moves every card of the draw pile to the discards.
func emptyDraw(g *game) {
	s := g.State
	s.Discard = append(s.Discard, s.Draw...)
	s.Draw = s.Draw[:0]
}

// A Rally earlier in the same declaration shuffles the discards into an
// empty draw pile, leaving nothing beneath the Master Plan played after
// it: the Master Plan takes nothing, with an event saying so, and every
// card is still in exactly one place (it used to panic).
func TestMasterPlanAfterAReshuffleInTheSameDeclarationTakesNothing(t *testing.T) {
	g := combatGame(t)
	rally := give(t, g, 0, Rally, true)
	mp := give(t, g, 0, MasterPlan, true)
	emptyDraw(g)
	var tr Trace
	g.Sink = tr.Add
	declaring(g)
	hand := len(g.State.Players[0].Hand)
	if err := g.Declare(dice.NewSeeded(1), 0, []Play{{Card: rally}, {Card: mp}}); err != nil {
		t.Fatal(err)
	}
	if err := g.State.checkCards(); err != nil {
		t.Fatal(err)
	}
	if d := g.State.Discard; len(d) != 1 || d[0] != mp {
		t.Errorf("discards %v, want only the Master Plan %d", d, mp)
	}
	if got := len(g.State.Players[0].Hand); got != g.State.Rules.HandSize || got < hand {
		t.Errorf("hand of %d after Rally, want %d", got, g.State.Rules.HandSize)
	}
	last := tr.Events[len(tr.Events)-1]
	if last.Kind != EvMasterPlan || last.Card != -1 || !strings.Contains(last.String(), "no discard") {
		t.Errorf("last event %v: %s", last.Kind, last)
	}
}

// Rules may change between steps: a MaxLeadership raised past what a Play
// can carry after the round began refuses the declaration (it used to
// index past Play.Cards), and changes nothing.
func TestDeclareAfterMaxLeadershipRaisedIsRefused(t *testing.T) {
	g := combatGame(t)
	lead := give(t, g, 0, Leadership, true)
	a := give(t, g, 0, Action, false)
	declaring(g)
	g.State.Rules.MaxLeadership = 3
	mustFail(t, g, "Leadership of 3 cards", func() error {
		return g.Declare(fixed(), 0, []Play{{Card: lead, Cards: [2]int{a}, N: 3, ToPlayer: 1, Why: "go"}})
	})
	mustFail(t, g, "any declaration under broken rules", func() error { return g.Declare(fixed(), 0, nil) })
	g.State.Rules.MaxLeadership = 2
	if err := g.Declare(fixed(), 0, []Play{{Card: lead, Cards: [2]int{a}, N: 1, ToPlayer: 1, Why: "go"}}); err != nil {
		t.Fatal(err)
	}
}

// Every step under policies refuses to play under rules changed out of
// their range since the last step, changing nothing.
func TestStepRefusesRulesBrokenBetweenSteps(t *testing.T) {
	sc := DefaultScenario()
	gm, err := sc.Start(dice.NewSeeded(1))
	if err != nil {
		t.Fatal(err)
	}
	s := gm.(*Game).State()
	g := &game{State: s}
	for _, broken := range []func(*Rules){
		func(r *Rules) { r.MaxLeadership = 9 },
		func(r *Rules) { r.HandSize = 0 },
		func(r *Rules) { r.LuckRolls = 1 << 40 },
		func(r *Rules) { r.TaskSteps = -1 },
	} {
		keep := s.Rules
		broken(&s.Rules)
		pol := mustPolicy(t, "default")
		mustFail(t, g, "step", func() error { return g.Step(dice.NewSeeded(1), pol, pol) })
		s.Rules = keep
	}
}

// Subplot Cards: a subplot stays in the pool for the adventure, so a GM
// policy's answer to strip one is refused, and the action changes nothing.
func TestStripOfASubplotIsRefused(t *testing.T) {
	g := combatGame(t)
	g.State.Line.VillainAction = Attack
	give(t, g, 1, Romance, true)
	give(t, g, 1, Action, true)
	turnOf(g, 2)
	r := fixed(3, 3, 3, 6, 6, 6, 1, 1, 1)
	mustFailRoller(t, g, r, "strip a subplot", func() error {
		return g.Act(r, 2, Choice{Act: Attack, Target: 1}, &stripAt{Style: Style{Label: "strip"}, i: 0}, nil)
	})
	if err := g.Act(r, 2, Choice{Act: Attack, Target: 1}, &stripAt{Style: Style{Label: "strip"}, i: 1}, nil); err != nil {
		t.Fatal(err)
	}
	if pool := g.State.Players[1].Pool; len(pool) != 1 || g.State.Deck.Cards[pool[0]].Name != Romance {
		t.Errorf("pool after the strip: %v, want the Romance alone", pool)
	}
}

// Immediate Effects: Escape goes into a pool only as the first card of the
// encounter; Leadership may not pass it from a hand into a pool later.
func TestLeadershipMayNotPutEscapeInAPool(t *testing.T) {
	g := combatGame(t)
	lead := give(t, g, 0, Leadership, true)
	esc := give(t, g, 0, Escape, false)
	declaring(g)
	mustFail(t, g, "Escape passed into a pool", func() error {
		return g.Declare(fixed(), 0, []Play{{Card: lead, Cards: [2]int{esc}, N: 1, ToPlayer: 1, ToPool: true, Why: "run"}})
	})
	// Into his hand it may go.
	if err := g.Declare(fixed(), 0, []Play{{Card: lead, Cards: [2]int{esc}, N: 1, ToPlayer: 1, Why: "run"}}); err != nil {
		t.Fatal(err)
	}
}

// The event log tells what Leadership passed, what Master Plan took, the
// awards of an Act's end and of the adventure's, and a task's setbacks.
func TestEventsTellPassesMasterPlanAwardsAndSetbacks(t *testing.T) {
	g := combatGame(t)
	var tr Trace
	g.Sink = tr.Add
	lead := give(t, g, 0, Leadership, true)
	a := give(t, g, 0, Action, false)
	declaring(g)
	if err := g.Declare(fixed(), 0, []Play{{Card: lead, Cards: [2]int{a}, N: 1, ToPlayer: 1, ToPool: true, Why: "go"}}); err != nil {
		t.Fatal(err)
	}
	mp := give(t, g, 0, MasterPlan, true)
	declaring(g)
	if err := g.Declare(fixed(), 0, []Play{{Card: mp}}); err != nil {
		t.Fatal(err)
	}
	give(t, g, 1, Romance, true)
	give(t, g, 1, Drama, false)
	g.EndAct()
	g.EndAdventure()
	kinds := map[EventKind]Event{}
	for _, e := range tr.Events {
		kinds[e.Kind] = e
	}
	checks := []struct {
		k     EventKind
		value int
		text  string
	}{
		{EvPass, 0, "passes Action by Leadership"},
		{EvMasterPlan, 0, "Master Plan takes Leadership"},
		{EvSubplotAward, g.State.Rules.SubplotAward, "subplots pay"},
		{EvAward, g.State.Rules.DramaWorth, "awarded"},
	}
	for _, c := range checks {
		e, ok := kinds[c.k]
		if !ok {
			t.Errorf("no %v event", c.k)
			continue
		}
		if c.value != 0 && e.Value != c.value {
			t.Errorf("%v: value %d, want %d", c.k, e.Value, c.value)
		}
		if !strings.Contains(e.String(), c.text) {
			t.Errorf("%v: %q lacks %q", c.k, e, c.text)
		}
	}
	// A failed Complication is told, and makes the task harder.
	h := testGame(t)
	var tt Trace
	h.Sink = tt.Add
	i, err := h.StartTask(0, Task{Skill: 12, Rounds: 5})
	if err != nil {
		t.Fatal(err)
	}
	if err := h.TaskStep(fixed(6, 6, 6), i, Complication, mustPolicy(t, "passive")); err != nil {
		t.Fatal(err)
	}
	last := tt.Events[len(tt.Events)-1]
	if last.Kind != EvSetback || Bar(last.Value) != Complication || !strings.Contains(last.String(), "harder") {
		t.Errorf("last event %v %s", last.Kind, last)
	}
}

// Small and odd decks play every trial to its end under every shipped
// policy, with no panic and no error: one of each card (the discards run
// out and reshuffle often), and a deck without a Master Plan.
func TestSmallAndOddDecksPlayEveryTrial(t *testing.T) {
	one, noPlan := deckOf(1), deckOf(2, MasterPlan)
	n := 300
	if testing.Short() {
		n = 60
	}
	for _, deck := range [][]Count{one, noPlan, {{Rally, 3}, {MasterPlan, 3}, {Leadership, 3}, {SeizeInitiative, 3}}} {
		for _, pol := range PolicyNames() {
			sc := DefaultScenario()
			sc.Deck, sc.DeckSeed, sc.HeroPolicy = deck, 3, pol
			rn, err := sc.NewRunner()
			if err != nil {
				t.Fatal(err)
			}
			r := dice.NewSeeded(11)
			m := make([]int, len(sc.Metrics()))
			for range n {
				if _, err := rn.Trial(r, m); err != nil {
					t.Fatalf("deck of %d kinds, %s: %v", len(deck), pol, err)
				}
				if err := rn.g.State.Check(); err != nil {
					t.Fatalf("deck of %d kinds, %s: the state after a trial: %v", len(deck), pol, err)
				}
			}
		}
	}
}

// Glory may be played only after a critical success: a failed roll whose
// re-roll (a Possibility) still ends on a critical failure earns none.
func TestCriticalFailureEarnsNoGlory(t *testing.T) {
	g := combatGame(t)
	g.State.Heroes[0].Possibilities = 1
	r := fixed(6, 6, 5, 6, 6, 6) // 17 at skill 12: a critical failure; the re-roll 18 is no better
	res := g.skillRoll(r, 0, Physical, 12, mustPolicy(t, "default"))
	if res.Success || !res.Critical || r.Remaining() != 0 || r.Err() != nil {
		t.Fatalf("roll %+v, %d dice left: want a critical failure after a re-roll", res, r.Remaining())
	}
	if g.State.Heroes[0].Status.Crit {
		t.Error("a critical failure marked the hero as eligible for Glory")
	}
	if err := g.checkCard(0, &Play{}, Glory, true); err == nil {
		t.Error("Glory playable after a critical failure")
	}
}

// Awards at their largest settings never push a state past the bounds
// Check holds it to (a legal game's save must always restore): subplots
// paying the most each Act, Drama and Glory the most at the end.
func TestAwardsStayWithinTheStateBounds(t *testing.T) {
	sc := Builtins()["adventure"]
	sc.Deck = []Count{{Romance, 20}, {Nemesis, 20}, {Drama, 20}, {Glory, 20}, {Action, 40}, {Adrenalin, 40}}
	sc.Rules.SubplotAward, sc.Rules.DramaWorth, sc.Rules.GloryAward = maxCount, maxCount, maxCount
	sc.Acts, sc.ScenesPerAct = 5, 2
	rn, err := sc.NewRunner()
	if err != nil {
		t.Fatal(err)
	}
	r := dice.NewSeeded(4)
	m := make([]int, len(sc.Metrics()))
	most := 0
	for range 40 {
		mustTrial(t, rn, r, m)
		if err := rn.g.State.Check(); err != nil {
			t.Fatalf("the state after a legal adventure: %v", err)
		}
		most = max(most, m[3])
	}
	if most < maxCount {
		t.Errorf("at most %d Possibilities awarded: the awards did not reach their bound", most)
	}
}

// Errors stay a few hundred bytes whatever the input: a megabyte name, a
// megabyte policy name, a megabyte of garbage to restore.
func TestErrorsStayShort(t *testing.T) {
	big := strings.Repeat("x", 1<<20)
	named := DefaultScenario()
	named.Heroes = slices.Clone(named.Heroes)
	named.Heroes[0].Name = big
	policy := DefaultScenario()
	policy.HeroPolicy = big
	errs := map[string]error{"name": named.Validate(), "policy": policy.Validate()}
	_, errs["restore"] = DefaultScenario().Restore([]byte(`{"scenario":` + big + `}`))
	_, errs["restore name"] = DefaultScenario().Restore([]byte(`{"scenario":{"hero_policy":"` + big + `"}}`))
	for what, err := range errs {
		if err == nil {
			t.Errorf("%s: no error", what)
		} else if len(err.Error()) > 400 {
			t.Errorf("%s: an error of %d bytes", what, len(err.Error()))
		}
	}
}
