package contest

import (
	"encoding/json"
	"errors"
	"slices"
	"testing"

	"github.com/stakesrpg/stakes/dice"
)

// A scenario's start state gives every player character
// Rules.StartPlotPoints (with its cast plot_points on top) and the Trouble
// Pool Rules.TroubleStart; GM characters keep their own points. So
// --set rules.start_plot_points=5 changes the game.
func TestScenarioStartAppliesStartPlotPointsAndTrouble(t *testing.T) {
	sc := DefaultScenario()
	sc.Rules.StartPlotPoints = 5
	sc.Rules.TroubleStart = []dice.Die{dice.D8, dice.D8, dice.D8}
	b, err := sc.build()
	must(t, err)
	if det, vil := b.scene.Characters[0].PlotPoints, b.scene.Characters[1].PlotPoints; det != 5 || vil != 1 {
		t.Errorf("detective %d, villain %d Plot Points; want 5 and 1", det, vil)
	}
	if !equalAny(b.scene.Trouble, sc.Rules.TroubleStart) {
		t.Errorf("trouble %v", b.scene.Trouble)
	}
	// The sampled outcome moves: with five points a stubborn detective
	// buys Gadgets for every roll.
	count := func(sc Scenario) []int {
		sc.Cast[0].Policy = "stubborn"
		rn, err := sc.NewRunner()
		must(t, err)
		r, n := dice.NewSeeded(1), make([]int, len(sc.Categories()))
		for range 2000 {
			n[trial(t, rn, r, nil)]++
		}
		return n
	}
	if a, b := count(DefaultScenario()), count(sc); equalAny(a, b) {
		t.Errorf("start_plot_points 5 changed nothing: %v", a)
	}
	s, err := NewState(sc.Rules, []Character{sc.Cast[0].Character, sc.Cast[1].Character}, nil)
	must(t, err)
	if s.Characters[0].PlotPoints != 5 || s.Characters[1].PlotPoints != 1 || len(s.Trouble) != 3 {
		t.Errorf("NewState: %d and %d Plot Points, trouble %v", s.Characters[0].PlotPoints, s.Characters[1].PlotPoints, s.Trouble)
	}
}

// Leaving a side's aider out means nobody aids, and an action's planned
// interferer out means nobody interferes: the zero values are "none".
func TestNoAiderAndNoInterfererAreTheZeroValue(t *testing.T) {
	e := mustEngine(t)
	rec := &Recorder{}
	e.Sink = rec.Record
	s := testScene()
	must(t, e.Begin(s, Contested, []SideSetup{{Char: villain, Base: villainPool()}, {Char: hero, Base: heroPool()}}, 0))
	if s.Action.Sides[1].Aider.Set || s.Action.Planned.Set || s.Action.Interferer.Set {
		t.Fatalf("zero values name someone: %+v", s.Action)
	}
	must(t, playWith(e, s, dice.NewSeeded(4), &Table{}))
	for _, ev := range rec.Events {
		if ev.Kind == EvAided || ev.Kind == EvInterfered {
			t.Errorf("event %v with nobody planned", ev.Kind)
		}
	}
	b, err := json.Marshal(SideSetup{Char: hero})
	must(t, err)
	var back SideSetup
	must(t, json.Unmarshal(b, &back))
	if back.Aider.Set || string(b) != `{"char":0}` {
		t.Errorf("%s decodes to aider %+v", b, back.Aider)
	}
}

// The legal-choice queries answer from the same checks the steps make.
func TestLegalChoiceQueries(t *testing.T) {
	e := mustEngine(t)
	s := testScene()
	hs := side(hero, heroPool())
	hs.Extra = []Pick{{hero, gadgets}, {hero, cave}, {hero, justice}}
	must(t, e.Begin(s, Contested, []SideSetup{side(villain, villainPool()), hs}, 0))
	if _, err := e.GiveInCost(s); !errors.Is(err, ErrPhase) {
		t.Errorf("GiveInCost before the stakes: %v", err)
	}
	must(t, e.Roll(s, dice.Scripted(5, 3, 1), villainPool()))
	gc, err := e.GiveInCost(s)
	must(t, err)
	if !gc.Free {
		t.Errorf("the hero has not rolled, yet Giving In costs %+v", gc)
	}
	// The hero holds 2 Plot Points: Gadgets and Cave (one each) it can
	// buy, Justice again would be a third.
	if n, err := e.Affordable(s); err != nil || n != 2 {
		t.Errorf("Affordable = %d, %v; want 2", n, err)
	}
	if c, err := e.PoolCost(s, hero, append(heroPool(), Pick{hero, justice})); err != nil || c != 1 {
		t.Errorf("PoolCost with Justice twice = %d, %v", c, err)
	}
	if _, err := e.PoolCost(s, hero, []Pick{{hero, gordon}}); !errors.Is(err, ErrNoValue) {
		t.Errorf("PoolCost without a Value: %v", err)
	}
	must(t, e.Roll(s, dice.Scripted(5, 4, 2), heroPool())) // 9 raises
	must(t, e.Roll(s, dice.Scripted(6, 4, 2), villainPool()))
	gc, err = e.GiveInCost(s)
	must(t, err)
	if want := (GiveInCost{PlotPoints: 1, CanPayPoints: true, Complication: dice.D6}); gc != want {
		t.Errorf("GiveInCost after rolling %+v, want %+v", gc, want)
	}
	if err := e.GiveIn(s, PayNothing); !errors.Is(err, ErrPayRequired) {
		t.Errorf("free Give In after rolling: %v", err)
	}
	if e.CanWaive(s) {
		t.Error("a contest's turn offers a waiver")
	}
}

// Picks name traits by name: own, "aspect:", and another character's.
func TestPicksByName(t *testing.T) {
	s := testScene()
	s.Characters[villain].Traits = append(s.Characters[villain].Traits, Trait{Name: "Scared", Kind: Complication, Die: dice.D6})
	ps, err := s.Picks(hero, "Justice", "aspect:Rooftops", "Villain:Scared")
	must(t, err)
	if want := []Pick{{hero, justice}, {SceneOwner, 0}, {villain, 3}}; !equalAny(ps, want) {
		t.Errorf("picks %v, want %v", ps, want)
	}
	for _, bad := range []string{"Nothing", "aspect:Sea", "Nobody:Scared", "Villain:Calm"} {
		if _, err := s.Pick(hero, bad); err == nil {
			t.Errorf("%q named a trait", bad)
		}
	}
	if _, err := s.Pick(42, "Justice"); err == nil {
		t.Error("character 42 picked a trait")
	}
}

// BasicRoll and PBeat take the actor's pool first: a d12 pair against a
// d4 wins nearly always, in both.
func TestBasicRollAndPBeatTakeTheActorFirst(t *testing.T) {
	actor, stakes := []dice.Die{dice.D12, dice.D12}, []dice.Die{dice.D4}
	rules := DefaultRules()
	p, err := PBeat(actor, stakes, 0, rules)
	must(t, err)
	r, won := dice.NewSeeded(2), 0
	var res BasicResult
	for range 1000 {
		must(t, rules.BasicRoll(r, actor, stakes, &res))
		if res.Won {
			won++
		}
	}
	if p < 0.95 || won < 900 {
		t.Errorf("PBeat %v, BasicRoll won %d of 1000: the actor's pool is not first", p, won)
	}
}

// Events write their kind as a name and survive a JSON round trip.
func TestEventsRoundTripJSON(t *testing.T) {
	e, s := midContest(t)
	rec := &Recorder{}
	e.Sink = rec.Record
	must(t, playWith(e, s, dice.NewSeeded(8), &Table{}))
	if len(rec.Events) < 3 {
		t.Fatalf("%d events", len(rec.Events))
	}
	b, err := json.Marshal(rec.Events)
	must(t, err)
	var back []Event
	must(t, json.Unmarshal(b, &back))
	if d := diff(rec.Events, back); d != "" {
		t.Errorf("round trip (-want +got):\n%s", d)
	}
	var one struct{ Kind string }
	must(t, json.Unmarshal(b[1 : len(b)-1][:len(mustJSON(t, rec.Events[0]))], &one))
	if one.Kind != rec.Events[0].Kind.String() || one.Kind == "" {
		t.Errorf("kind %q", one.Kind)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	must(t, err)
	return b
}

// A nil Sink builds no event: a trial allocates nothing.
func TestTrialsAllocateNothing(t *testing.T) {
	for _, sc := range []Scenario{DefaultScenario(), basic3v3(), timedScenario()} {
		rn, err := sc.NewRunner()
		must(t, err)
		r, m := dice.NewSeeded(1), make([]int, len(sc.Metrics()))
		for range 100 {
			rn.Trial(r, m)
		}
		if n := testing.AllocsPerRun(500, func() { rn.Trial(r, m) }); n != 0 {
			t.Errorf("%s: %v allocations a trial", sc.Kind, n)
		}
	}
}

// The view of the side to act reads its planned pool: Affordable is how
// many of its extras (in order) it may roll and pay for, Best the highest
// total its free picks, gang and waiting aid could make, BestAll the same
// with the affordable extras; under Keep 3 three dice count.
func TestTurnViewReadsThePlannedPool(t *testing.T) {
	all := []Pick{{hero, detective}, {hero, gadgets}, {hero, cave}}
	for _, c := range []struct {
		name                      string
		base, extra               []Pick
		gang                      []dice.Die
		pp, keep, aid             int
		affordable, best, bestAll int
	}{
		{"three free, two bought", []Pick{{hero, justice}, {hero, gordon}}, all, nil, 2, 2, 0, 3, 14, 18},
		{"only the free extra", []Pick{{hero, justice}, {hero, gordon}}, all, nil, 0, 2, 0, 1, 14, 18},
		{"a gang die", []Pick{{hero, justice}, {hero, gordon}}, all, []dice.Die{dice.D12}, 2, 2, 0, 3, 20, 22},
		{"keep three", []Pick{{hero, justice}, {hero, gordon}}, all, nil, 2, 3, 0, 3, 14, 26},
		{"aid waiting", []Pick{{hero, justice}, {hero, gordon}}, all, nil, 2, 2, 3, 3, 17, 21},
		{"a repeat costs", []Pick{{hero, justice}, {hero, gordon}}, []Pick{{hero, justice}, {hero, detective}}, nil, 0, 2, 0, 0, 14, 14},
	} {
		t.Run(c.name, func(t *testing.T) {
			var e Engine
			s := testScene()
			s.Rules.Keep = c.keep
			s.Characters[hero].PlotPoints = c.pp
			hs := SideSetup{Char: hero, Base: c.base, Extra: c.extra, Gang: c.gang}
			must(t, e.Begin(s, Contested, []SideSetup{side(villain, villainPool()), hs}, 0))
			s.Action.Sides[1].Aid = c.aid
			var v View
			e.turnView(s, 1, &v)
			if v.Affordable != c.affordable || v.Best != c.best || v.BestAll != c.bestAll {
				t.Errorf("affordable %d, best %d, best with extras %d; want %d, %d, %d", v.Affordable, v.Best, v.BestAll, c.affordable, c.best, c.bestAll)
			}
		})
	}
}

// One rule for a planned pool in Begin, BeginTimed, Check, Affordable and
// PoolCost: over random plans, Begin accepts exactly the plans whose Base
// PoolCost prices at 0 (a pool holding a Value) and whose aid pool the
// aider can pay for; every state Begin makes passes Check; and Affordable
// is the most extras n for which PoolCost accepts Base + Extra[:n] at a
// price the side holds. BeginTimed accepts the pools Check does.
func TestPlannedPoolsOneRule(t *testing.T) {
	r := dice.NewSeeded(35)
	picks := func(c, n int) []Pick {
		out := make([]Pick, n)
		for i := range out {
			out[i] = Pick{c, r.IntN(5)}
			if c == villain {
				out[i].Trait = r.IntN(3)
			}
		}
		return out
	}
	begun := 0
	for i := range 3000 {
		var e Engine
		s := testScene()
		s.Characters[hero].PlotPoints = r.IntN(4)
		hs := SideSetup{Char: hero, Base: picks(hero, r.IntN(5)), Extra: picks(hero, r.IntN(4))}
		if r.IntN(4) == 0 {
			hs.Aider, hs.AidPicks = Ref(sidekick), []Pick{{sidekick, 0}, {sidekick, 1}}
		}
		cost, costErr := e.PoolCost(s, hero, hs.Base)
		err := e.Begin(s, Contested, []SideSetup{hs, side(villain, villainPool())}, 0)
		if (err == nil) != (costErr == nil && cost == 0) {
			t.Fatalf("plan %d %+v: Begin %v, PoolCost %d %v", i, hs, err, cost, costErr)
		}
		if err != nil {
			continue
		}
		begun++
		if err := s.Check(); err != nil {
			t.Fatalf("plan %d %+v: Begin accepted a state Check refuses: %v", i, hs, err)
		}
		want := 0
		for n := 1; n <= len(hs.Extra); n++ {
			c, err := e.PoolCost(s, hero, append(slices.Clone(hs.Base), hs.Extra[:n]...))
			if err != nil || c > s.Characters[hero].PlotPoints {
				break
			}
			want = n
		}
		if got, err := e.Affordable(s); err != nil || got != want {
			t.Fatalf("plan %d %+v: Affordable %d %v, PoolCost says %d", i, hs, got, err, want)
		}
		ts := testScene()
		tp := picks(hero, 1+r.IntN(4))
		terr := e.BeginTimed(ts, hero, tp, 3, []TimedStep{{Stakes: []dice.Die{dice.D6}}}, nil)
		if cost, err := e.PoolCost(ts, hero, tp); (terr == nil) != (err == nil && cost == 0) {
			t.Fatalf("timed plan %v: BeginTimed %v, PoolCost %d %v", tp, terr, cost, err)
		}
		if terr == nil {
			must(t, ts.Check())
		}
	}
	if begun < 300 {
		t.Errorf("only %d of 3000 plans begun", begun)
	}
}

// Roll with nil picks rolls the side's planned pool, as TimedRoll with nil
// rolls the timed action's; an empty pool is no pool.
func TestRollNilRollsThePlannedPool(t *testing.T) {
	var e Engine
	s := testScene()
	must(t, e.Begin(s, Contested, []SideSetup{side(hero, heroPool()), side(villain, villainPool())}, 0))
	must(t, e.Roll(s, dice.Scripted(5, 4, 3), nil))
	if got := s.Action.Sides[0].Picks; !slices.Equal(got, heroPool()) {
		t.Errorf("rolled %v, want the planned %v", got, heroPool())
	}
	if err := e.Roll(s, dice.Scripted(5, 4, 3), []Pick{}); !errors.Is(err, ErrNoValue) {
		t.Errorf("an empty pool: %v", err)
	}
	ts := testScene()
	must(t, e.BeginTimed(ts, hero, heroPool(), 3, []TimedStep{{Stakes: []dice.Die{dice.D6}}}, nil))
	rec := &Recorder{}
	e.Sink = rec.Record
	must(t, e.TimedRoll(ts, dice.Scripted(2, 5, 4, 3), nil))
	if i := slices.IndexFunc(rec.Events, func(ev Event) bool { return ev.Kind == EvRolled }); i < 0 || len(rec.Events[i].Dice) != 3 {
		t.Errorf("the timed roll rolled %v", rec.Events)
	}
}
