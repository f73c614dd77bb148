package contest

import (
	"slices"
	"strings"
	"testing"

	"github.com/stakesrpg/stakes/dice"
)

// Each ruling is a setting: the default reproduces the shipped behaviour,
// and changing it changes the outcome of the same dice.
func TestRulingSettingsChangeOutcomes(t *testing.T) {
	for _, c := range []struct {
		name string
		set  func(*Rules)
		play func(t *testing.T, e *Engine, rules Rules) any
		def  any // the outcome under DefaultRules
		alt  any // the outcome with set applied
	}{
		{"ties_to_holder", func(r *Rules) { r.TiesToHolder = false }, func(t *testing.T, e *Engine, rules Rules) any {
			// Villain 5+3 = 8 stakes; the hero ties at 4+4.
			s := testScene()
			s.Rules = rules
			must(t, e.Begin(s, Basic, []SideSetup{side(villain, villainPool()), side(hero, heroPool())}, 0))
			r := dice.Scripted(5, 3, 1, 4, 4, 1)
			must(t, e.Roll(s, r, villainPool()))
			must(t, e.Roll(s, r, heroPool()))
			return s.Action.Winner
		}, 0, 1},
		{"all_roll_give_in_free", func(r *Rules) { r.AllRollGiveInFree = true }, func(t *testing.T, e *Engine, rules Rules) any {
			// Both roll to open: the villain 5+3 = 8, the hero 8+3 = 11
			// sets the stakes; may the villain Give In right away for free?
			s := testScene()
			s.Rules = rules
			must(t, e.Begin(s, Contested, []SideSetup{side(villain, villainPool()), side(hero, heroPool())}, -1))
			r := dice.Scripted(5, 3, 1, 8, 3, 1)
			must(t, e.Roll(s, r, nil))
			must(t, e.Roll(s, r, nil))
			gc, err := e.GiveInCost(s)
			must(t, err)
			return []any{s.Action.Holder, s.Action.Turn, gc.Free}
		}, []any{1, 0, false}, []any{1, 0, true}},
		{"push_tie_loses", func(r *Rules) { r.PushTieLoses = true }, func(t *testing.T, e *Engine, rules Rules) any {
			// The villain sets the stakes at 5+3 = 8 and the hero beats
			// them by exactly 5 (9+4 = 13): a push of +5 ties.
			s := testScene()
			s.Rules = rules
			must(t, e.Begin(s, Basic, []SideSetup{side(villain, villainPool()), side(hero, heroPool())}, 0))
			r := dice.Scripted(5, 3, 1, 8, 5, 1)
			must(t, e.Roll(s, r, nil))
			must(t, e.Roll(s, r, nil))
			phase := s.Action.Phase
			if phase == PhasePush {
				must(t, e.Push(s, []Pick{{villain, chaos}}))
			}
			return []any{phase, s.Action.Winner, s.Action.Harms[0].Trauma}
		}, []any{PhaseInflict, 1, true}, []any{PhasePush, 1, false}},
		{"rate_ties_larger", func(r *Rules) { r.RateTiesLarger = false }, func(t *testing.T, e *Engine, rules Rules) any {
			s := testScene()
			s.Rules = rules
			sd := &Side{Char: villain, Dice: []dice.Die{dice.D6, dice.D10}, Faces: []int{2, 2}}
			return e.ratePool(s, dice.Scripted(5, 5), sd, nil)
		}, dice.D10, dice.D6},
		{"always_step_up", func(r *Rules) { r.AlwaysStepUp = true }, func(t *testing.T, e *Engine, rules Rules) any {
			d, _ := rules.rating(dice.D6, dice.D10)
			return d
		}, dice.D10, dice.D8},
		{"one_plot_points", func(r *Rules) { r.OnePlotPoints = 2 }, func(t *testing.T, e *Engine, rules Rules) any {
			s := testScene()
			s.Rules = rules
			must(t, e.Begin(s, Basic, []SideSetup{side(villain, villainPool()), side(hero, heroPool())}, 0))
			r := dice.Scripted(5, 3, 1, 1, 4, 9)
			must(t, e.Roll(s, r, villainPool()))
			must(t, e.Roll(s, r, heroPool()))
			must(t, e.BuyOnes(s, 1))
			return s.Characters[hero].PlotPoints
		}, 3, 4},
		{"failed_last_step_completes", func(r *Rules) { r.FailedLastStepCompletes = false }, func(t *testing.T, e *Engine, rules Rules) any {
			s := testScene()
			s.Rules = rules
			must(t, e.BeginTimed(s, hero, heroPool(), 3, []TimedStep{{Stakes: []dice.Die{dice.D10}}}, nil))
			must(t, e.TimedRoll(s, dice.Scripted(9, 2, 2, 2), nil)) // 9 against 4: failed, 2 beats lost
			return []any{s.Timed.Phase, s.Timed.Step, s.Timed.Outcome}
		}, []any{TimedDone, 1, TimedCompleted}, []any{TimedGap, 0, timedNoOutcome}},
		{"aider_harmed_on_give_in", func(r *Rules) { r.AiderHarmedOnGiveIn = true }, func(t *testing.T, e *Engine, rules Rules) any {
			s := testScene()
			s.Rules = rules
			hs := side(hero, heroPool())
			hs.Aider, hs.AidPicks = Ref(sidekick), []Pick{{sidekick, 0}}
			must(t, e.Begin(s, Contested, []SideSetup{side(villain, villainPool()), hs}, 0))
			r := dice.Scripted(5, 3, 1, 4)
			must(t, e.Roll(s, r, villainPool()))
			must(t, e.Aid(s, r, 1, sidekick, []Pick{{sidekick, 0}}))
			must(t, e.GiveIn(s, PayNothing))
			return len(s.Action.Harms)
		}, 0, 1},
		{"mook_off_largest", func(r *Rules) { r.MookOffLargest = false }, func(t *testing.T, e *Engine, rules Rules) any {
			s := testScene()
			s.Rules = rules
			vs := side(villain, villainPool())
			vs.Gang = []dice.Die{dice.D10, dice.D6}
			must(t, e.Begin(s, Contested, []SideSetup{vs, side(hero, heroPool())}, 0))
			r := dice.Scripted(2, 2, 2, 1, 1, 5, 1, 3) // villain 4 (the gang shows 1s); hero 8 raises by 4
			must(t, e.Roll(s, r, villainPool()))
			must(t, e.Roll(s, r, heroPool()))
			return s.Action.Sides[0].Gang
		}, []dice.Die{dice.D6}, []dice.Die{dice.D10}},
		{"trouble_in_contests", func(r *Rules) { r.TroubleInContests = true }, func(t *testing.T, e *Engine, rules Rules) any {
			s := testScene()
			s.Rules = rules
			return e.Begin(s, Contested, []SideSetup{{Char: TroublePool}, side(hero, heroPool())}, 0) == nil
		}, false, true},
		{"all_roll_tie_reroll", func(r *Rules) { r.AllRollTieReroll = false }, func(t *testing.T, e *Engine, rules Rules) any {
			s := testScene()
			s.Rules = rules
			must(t, e.Begin(s, Contested, []SideSetup{side(villain, villainPool()), side(hero, heroPool())}, -1))
			r := dice.Scripted(5, 3, 1, 5, 3, 1)
			must(t, e.Roll(s, r, villainPool()))
			must(t, e.Roll(s, r, heroPool()))
			return []any{s.Action.Phase, s.Action.Holder}
		}, []any{PhaseOpen, -1}, []any{PhaseTurn, 0}},
		{"brawl_tie_to_holder", func(r *Rules) { r.BrawlTieToHolder = false }, func(t *testing.T, e *Engine, rules Rules) any {
			s := brawlReady(t, e, rules)
			// Villain 4+4, hero 4+4: a tie; the bystander rolls 1+1.
			must(t, e.Brawl(s, dice.Scripted(4, 4, 1, 4, 4, 1, 1, 1)))
			return s.Action.Winner
		}, 0, 1},
		{"raise_answered_by_beaten", func(r *Rules) { r.RaiseAnsweredByBeaten = true }, func(t *testing.T, e *Engine, rules Rules) any {
			// Three sides: the villain sets 5, the hero raises to 9; who
			// answers next, the sidekick round the table or the villain
			// whose stakes were beaten?
			s := testScene()
			s.Rules = rules
			must(t, e.Begin(s, Contested, []SideSetup{side(villain, villainPool()), side(hero, heroPool()), side(sidekick, []Pick{{sidekick, 0}})}, 0))
			r := dice.Scripted(3, 2, 1, 5, 4, 1)
			must(t, e.Roll(s, r, villainPool()))
			must(t, e.Roll(s, r, heroPool()))
			return s.Action.Turn
		}, 2, 0},
		{"give_in_point_to_holder", func(r *Rules) { r.GiveInPointToHolder = false }, func(t *testing.T, e *Engine, rules Rules) any {
			// The villain sets 5, the hero raises to 9, the villain Gives
			// In paying a Plot Point: to the hero, or to the GM.
			s := testScene()
			s.Rules = rules
			must(t, e.Begin(s, Contested, []SideSetup{side(villain, villainPool()), side(hero, heroPool())}, 0))
			r := dice.Scripted(3, 2, 1, 5, 4, 1)
			must(t, e.Roll(s, r, villainPool()))
			must(t, e.Roll(s, r, heroPool()))
			must(t, e.GiveIn(s, PayPlotPoint))
			return []int{s.Characters[hero].PlotPoints, s.GMPlotPoints}
		}, []int{3, 0}, []int{2, 1}},
		{"aid_lasts", func(r *Rules) { r.AidLasts = true }, func(t *testing.T, e *Engine, rules Rules) any {
			// The sidekick's 4 helps the hero to 13 against 5; the villain
			// raises to 14; the hero's 6+5 is 11, or 15 with the aid again.
			s := testScene()
			s.Rules = rules
			must(t, e.Begin(s, Contested, []SideSetup{side(villain, villainPool()), side(hero, heroPool())}, 0))
			r := dice.Scripted(3, 2, 1, 4, 5, 4, 1, 9, 5, 1, 6, 5, 1)
			must(t, e.Roll(s, r, villainPool()))
			must(t, e.Aid(s, r, 1, sidekick, []Pick{{sidekick, 0}}))
			must(t, e.Roll(s, r, heroPool()))
			must(t, e.Roll(s, r, villainPool()))
			must(t, e.Roll(s, r, heroPool()))
			return []int{s.Action.Sides[1].Total, s.Action.Holder}
		}, []int{11, 0}, []int{15, 1}},
		{"interferences", func(r *Rules) { r.Interferences = 2 }, func(t *testing.T, e *Engine, rules Rules) any {
			// The bystander's 4 fails to beat the villain's 8 and is
			// ignored; after the hero's raise it tries again.
			s := testScene()
			s.Rules = rules
			must(t, e.Begin(s, Contested, []SideSetup{side(villain, villainPool()), side(hero, heroPool())}, 0))
			must(t, e.Roll(s, dice.Scripted(5, 3, 1), villainPool()))
			must(t, e.Interfere(s, dice.Scripted(2, 2), bystander, []Pick{{bystander, 0}, {bystander, 1}}))
			must(t, e.Roll(s, dice.Scripted(5, 4, 1), heroPool()))
			err := e.Interfere(s, dice.Scripted(6, 6), bystander, []Pick{{bystander, 0}, {bystander, 1}})
			return []any{err == nil, s.Action.Interfered}
		}, []any{false, 1}, []any{true, 2}},
		{"brawl_trauma", func(r *Rules) { r.BrawlTrauma = true }, func(t *testing.T, e *Engine, rules Rules) any {
			// The villain's 14 beats the hero's 4 by 10 in the brawl.
			s := brawlReady(t, e, rules)
			must(t, e.Brawl(s, dice.Scripted(9, 5, 1, 2, 2, 1, 1, 1)))
			return s.Action.Harms[0]
		}, Harm{From: 0, To: hero}, Harm{From: 0, To: hero, Trauma: true}},
		{"ones_of_every_roll", func(r *Rules) { r.OnesOfEveryRoll = true }, func(t *testing.T, e *Engine, rules Rules) any {
			// The sidekick's aid die shows 1: may the GM buy it?
			s := testScene()
			s.Rules = rules
			must(t, e.Begin(s, Contested, []SideSetup{side(villain, villainPool()), side(hero, heroPool())}, 0))
			r := dice.Scripted(3, 2, 1, 1)
			must(t, e.Roll(s, r, villainPool()))
			must(t, e.Aid(s, r, 1, sidekick, []Pick{{sidekick, 0}}))
			ones := s.Action.Ones
			bought := e.BuyOnes(s, 1) == nil
			return []any{ones, bought, s.Characters[sidekick].PlotPoints, len(s.Trouble)}
		}, []any{0, false, 1, 2}, []any{1, true, 2, 3}},
		{"buy_time_capped", func(r *Rules) { r.BuyTimeCapped = false }, func(t *testing.T, e *Engine, rules Rules) any {
			// An Extraordinary first step costs no beat (3 of 3 left); the
			// sidekick's 5 against 2 buys one more, past the start or not.
			s := timedWithHelper(t, e, rules, 3)
			must(t, e.TimedRoll(s, dice.Scripted(1, 8, 6, 1), nil))
			must(t, e.BuyTime(s, dice.Scripted(2, 5), 0))
			return s.Timed.Beats
		}, 3, 4},
		{"helpers_roll_trouble", func(r *Rules) { r.HelpersRollTrouble = true }, func(t *testing.T, e *Engine, rules Rules) any {
			// The sidekick rolls 5 against the next step's d4 (3), or
			// against the Trouble Pool's 2d6 (3+5).
			s := timedWithHelper(t, e, rules, 3)
			must(t, e.TimedRoll(s, dice.Scripted(1, 8, 6, 1), nil))
			must(t, e.BuyTime(s, dice.Scripted(3, 5, 5), 0))
			return []any{s.Timed.SDice, s.Timed.Helpers[0].Out}
		}, []any{[]dice.Die{dice.D4}, false}, []any{[]dice.Die{dice.D6, dice.D6}, true}},
		{"timed_trouble_off", func(r *Rules) { r.TimedTroubleOff = true }, func(t *testing.T, e *Engine, rules Rules) any {
			// A step against the Trouble Pool (2d6: 3+2 = 5), the hero
			// 8+6 = 14: won by 9, the largest die off, or none.
			s := testScene()
			s.Rules = rules
			must(t, e.BeginTimed(s, hero, heroPool(), 2, []TimedStep{{}, {}}, nil))
			must(t, playWith(e, s, dice.Scripted(3, 2, 8, 6, 2, 3, 3, 8, 6, 2), &Table{GM: Frugal{}}))
			return []any{s.Timed.Outcome, len(s.Trouble)}
		}, []any{TimedCompleted, 2}, []any{TimedCompleted, 0}},
		{"out_of_time_complication", func(r *Rules) { r.OutOfTimeComplication = dice.D12 }, func(t *testing.T, e *Engine, rules Rules) any {
			// One beat; the hero's 0 fails the d4's 4: out of time. The
			// d4 rates the Complication, or the rules fix it at d12.
			s := timedWithHelper(t, e, rules, 1)
			r := dice.Scripted(4, 1, 1, 1, 2)
			must(t, e.TimedRoll(s, r, nil))
			must(t, e.TimedInflict(s, r, -1))
			h := s.Characters[hero]
			return h.Traits[len(h.Traits)-1]
		}, Trait{Name: "out of time", Kind: Complication, Die: dice.D4}, Trait{Name: "out of time", Kind: Complication, Die: dice.D12}},
		{"max_trouble", func(r *Rules) { r.MaxTrouble = 2 }, func(t *testing.T, e *Engine, rules Rules) any {
			s := testScene()
			s.Rules = rules
			s.Characters[villain].Reflection = 3
			return e.CashReflection(s, villain, 1) == nil
		}, true, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := mustEngine(t)
			if got := c.play(t, e, DefaultRules()); !equalAny(got, c.def) {
				t.Errorf("default: %v, want %v", got, c.def)
			}
			rules := DefaultRules()
			c.set(&rules)
			must(t, rules.Validate())
			if got := c.play(t, e, rules); !equalAny(got, c.alt) {
				t.Errorf("changed: %v, want %v", got, c.alt)
			}
		})
	}
}

func equalAny(a, b any) bool { return diff(a, b) == "" }

// brawlReady is the test scene with a contest between the villain (holding
// the stakes at 8) and the hero, interfered with by the bystander, both
// sides having paid to go on.
func brawlReady(t *testing.T, e *Engine, rules Rules) *State {
	t.Helper()
	s := testScene()
	s.Rules = rules
	s.Characters[villain].PlotPoints = 2
	must(t, e.Begin(s, Contested, []SideSetup{side(villain, villainPool()), side(hero, heroPool())}, 0))
	must(t, e.Roll(s, dice.Scripted(5, 3, 1), villainPool()))
	must(t, e.Interfere(s, dice.Scripted(6, 6), bystander, []Pick{{bystander, 0}, {bystander, 1}}))
	must(t, e.Continue(s, 0, true))
	must(t, e.Continue(s, 1, true))
	if s.Action.Phase != PhaseBrawl {
		t.Fatalf("phase %s, want brawl", s.Action.Phase)
	}
	return s
}

// timedWithHelper is the test scene with the hero starting a timed action
// of two d4 steps with the given beats, the sidekick ready to buy time.
func timedWithHelper(t *testing.T, e *Engine, rules Rules, beats int) *State {
	t.Helper()
	s := testScene()
	s.Rules = rules
	steps := []TimedStep{{Stakes: []dice.Die{dice.D4}}, {Stakes: []dice.Die{dice.D4}}}
	must(t, e.BeginTimed(s, hero, heroPool(), beats, steps, []Helper{{Char: sidekick, Picks: []Pick{{sidekick, 0}}}}))
	return s
}

// Distinction effects fiddle the Complication Pool only when the
// Distinction was rolled in the winning pool and its owner chooses to use
// it; each effect does what its name says.
func TestDistinctionEffects(t *testing.T) {
	for _, c := range []struct {
		effect Effect
		comp   []dice.Die
		want   []dice.Die
	}{
		{StepUpLowest, []dice.Die{dice.D8, dice.D4, dice.D6}, []dice.Die{dice.D8, dice.D6, dice.D6}},
		{StepBackHighest, []dice.Die{dice.D8, dice.D4}, []dice.Die{dice.D6, dice.D4}},
		{StepBackHighest, []dice.Die{dice.D4}, []dice.Die{}},
		{AddDie, []dice.Die{dice.D4}, []dice.Die{dice.D4, dice.D10}},
		{RemoveLowest, []dice.Die{dice.D8, dice.D4}, []dice.Die{dice.D8}},
		{RemoveLowest, []dice.Die{dice.D8}, []dice.Die{dice.D8}},
	} {
		if got := c.effect.apply(slices.Clone(c.comp), dice.D10); !slices.Equal(got, c.want) {
			t.Errorf("%v on %v: %v, want %v", c.effect, c.comp, got, c.want)
		}
	}
	// The hero's Detective (d10) carries Vicious. Rolled and used, the
	// lowest die of the pool (Gordon's d6) steps up to d8 before the
	// rating roll; not rolled, or not chosen, it does nothing.
	for _, c := range []struct {
		name  string
		pool  []Pick
		use   bool
		faces []int // the hero's roll, then the Complication Pool's
		want  dice.Die
	}{
		{"rolled and used", heroPool(), true, []int{5, 5, 5, 2, 8, 1}, dice.D8},
		{"rolled, not used", heroPool(), false, []int{5, 5, 5, 2, 6, 1}, dice.D6},
		{"not rolled", []Pick{{hero, justice}, {hero, gordon}}, true, []int{5, 5, 2, 6}, dice.D6},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := mustEngine(t)
			s := testScene()
			s.Characters[hero].Traits[detective].Effect = StepUpLowest
			must(t, e.Begin(s, Basic, []SideSetup{side(villain, villainPool()), side(hero, c.pool)}, 0))
			r := dice.Scripted(append([]int{3, 3, 1}, c.faces...)...)
			must(t, e.Roll(s, r, villainPool()))
			must(t, e.Roll(s, r, c.pool))
			opts, err := e.EffectOptions(s)
			must(t, err)
			var use []Pick
			if c.use {
				use = opts
			}
			if rolled := slices.Contains(c.pool, Pick{hero, detective}); rolled != (len(opts) == 1) {
				t.Fatalf("effect options %v with the Distinction rolled %v", opts, rolled)
			}
			must(t, e.Inflict(s, r, -1, use))
			v := s.Characters[villain]
			if got := v.Traits[len(v.Traits)-1].Die; got != c.want {
				t.Errorf("villain's Complication %v, want %v", got, c.want)
			}
			if err := e.Inflict(s, r, -1, []Pick{{hero, gordon}}); err == nil {
				t.Error("an effect of a trait with none was accepted")
			}
		})
	}
}

// The GM may waive the Complication of a failed basic action ("you may
// take the Complication"), not Trauma nor a contest's harm.
func TestGMWaivesABasicActionsComplication(t *testing.T) {
	e := mustEngine(t)
	s := testScene()
	must(t, e.Begin(s, Basic, []SideSetup{side(villain, villainPool()), side(hero, heroPool())}, 0))
	r := dice.Scripted(5, 3, 1, 4, 2, 1) // 8 against 6: failed by 2
	must(t, e.Roll(s, r, villainPool()))
	must(t, e.Roll(s, r, heroPool()))
	if !e.CanWaive(s) {
		t.Fatal("the failed basic action's Complication cannot be waived")
	}
	must(t, e.Waive(s))
	if s.Action.Phase != PhaseDone || len(s.Characters[hero].Traits) != 5 {
		t.Errorf("phase %s, hero's traits %v", s.Action.Phase, s.Characters[hero].Traits)
	}
	// A policy that waives: Play asks the GM character's policy.
	s = testScene()
	must(t, e.Begin(s, Basic, []SideSetup{side(villain, villainPool()), side(hero, heroPool())}, 0))
	must(t, playWith(e, s, dice.Scripted(5, 3, 1, 4, 2, 1), &Table{Chars: []Policy{nil, waiver{}}}))
	if len(s.Characters[hero].Traits) != 5 {
		t.Errorf("the waiving GM's hero took %v", s.Characters[hero].Traits[5:])
	}
	// Not in a contest.
	s = testScene()
	must(t, e.Begin(s, Contested, []SideSetup{side(villain, villainPool()), side(hero, heroPool())}, 0))
	must(t, e.Roll(s, dice.Scripted(5, 3, 1), villainPool()))
	must(t, e.Roll(s, dice.Scripted(4, 2, 1), heroPool()))
	if e.CanWaive(s) || e.Waive(s) == nil {
		t.Error("a contest's Complication was waived")
	}
}

type waiver struct{ Sensible }

func (waiver) Waive(*View) bool { return true }

// A Final Push whose steps leave the loser still losing by the
// Extraordinary margin avoids no Trauma: it is refused, changing nothing.
func TestFinalPushThatCannotAvoidTraumaIsRefused(t *testing.T) {
	e := mustEngine(t)
	s := pushAt(t, e, 11) // the hero loses by 11: two steps needed
	before := s.Clone()
	if err := e.Push(s, []Pick{{hero, gordon}}); err == nil {
		t.Fatal("a one-step push from 11 down to 6 was accepted")
	}
	if d := diff(before, s); d != "" {
		t.Errorf("the refused push changed the state:\n%s", d)
	}
	need, ok, err := e.PushNeed(s)
	must(t, err)
	opts, err := e.PushOptions(s)
	must(t, err)
	if need != 2 || !ok || len(opts) != 3 {
		t.Errorf("PushNeed %d %v, options %v", need, ok, opts)
	}
	must(t, e.Push(s, []Pick{{hero, gordon}, {hero, detective}}))
}

// Rules.Validate names the field out of range, the new rulings' included.
func TestRulesValidateNamesTheField(t *testing.T) {
	for _, c := range []struct {
		field string
		set   func(*Rules)
	}{
		{"interferences", func(r *Rules) { r.Interferences = -1 }},
		{"interferences", func(r *Rules) { r.Interferences = 101 }},
		{"out_of_time_complication", func(r *Rules) { r.OutOfTimeComplication = dice.D20 }},
		{"out_of_time_complication", func(r *Rules) { r.OutOfTimeComplication = 7 }},
		{"max_trouble", func(r *Rules) { r.MaxTrouble = maxDice + 1 }},
		{"keep", func(r *Rules) { r.Keep = 0 }},
	} {
		r := DefaultRules()
		c.set(&r)
		if err := r.Validate(); err == nil || !strings.Contains(err.Error(), "rules."+c.field) {
			t.Errorf("%s: %v, want an error naming rules.%s", c.field, err, c.field)
		}
	}
	r := DefaultRules()
	r.OutOfTimeComplication = dice.D4
	must(t, r.Validate())
}

// Under rules.helpers_roll_trouble helpers need a Trouble Pool to roll
// against: a timed action with helpers and none is refused, at BeginTimed
// and in a restored state.
func TestHelpersAgainstAnEmptyTroublePoolAreRefused(t *testing.T) {
	e := mustEngine(t)
	rules := DefaultRules()
	rules.HelpersRollTrouble = true
	s := testScene()
	s.Rules = rules
	s.Trouble = nil
	steps := []TimedStep{{Stakes: []dice.Die{dice.D4}}}
	helpers := []Helper{{Char: sidekick, Picks: []Pick{{sidekick, 0}}}}
	if err := e.BeginTimed(s, hero, heroPool(), 3, steps, helpers); err == nil || !strings.Contains(err.Error(), "helpers_roll_trouble") {
		t.Errorf("BeginTimed: %v", err)
	}
	s.Rules = DefaultRules()
	must(t, e.BeginTimed(s, hero, heroPool(), 3, steps, helpers))
	s.Rules = rules
	if err := s.Check(); err == nil || !strings.Contains(err.Error(), "helpers_roll_trouble") {
		t.Errorf("Check: %v", err)
	}
	s.Timed.Phase = TimedGap
	before := s.Clone()
	r := dice.Scripted(3, 5)
	if err := e.BuyTime(s, r, 0); err == nil {
		t.Error("BuyTime against an empty Trouble Pool was accepted")
	}
	if d := diff(before, s); d != "" {
		t.Errorf("the refused BuyTime changed the state:\n%s", d)
	}
	if f := r.Roll(6); f != 3 {
		t.Errorf("the refused BuyTime rolled dice: the next face is %d, not the script's first", f)
	}
}

// Stated ruling [ours]: a failed step of a timed action costs beats and
// deals no Complication ("Timed Actions" charges only time for it; the
// Complication comes when time runs out).
func TestTimedStepDealsNoComplication(t *testing.T) {
	e := mustEngine(t)
	s := testScene()
	steps := []TimedStep{{Stakes: []dice.Die{dice.D10}}, {Stakes: []dice.Die{dice.D10}}}
	must(t, e.BeginTimed(s, hero, heroPool(), 5, steps, nil))
	traits := len(s.Characters[hero].Traits)
	// Stakes 9 on the d10; the hero's 2, 2, 2 make 4: failed.
	must(t, e.TimedRoll(s, dice.Scripted(9, 2, 2, 2), nil))
	if got := len(s.Characters[hero].Traits); got != traits || s.Timed.Phase != TimedGap || s.Timed.Beats != 3 {
		t.Errorf("after a failed step: %d traits (had %d), phase %s, %d beats; want no Complication, the gap, 3 beats", got, traits, s.Timed.Phase, s.Timed.Beats)
	}
}

// Stated ruling [ours]: an aider's die adds to the side's total but not
// to its Complication Pool, which is the side's own last pool less its 1s
// ("Aiding" gives the die to the total; "Winning an Action" rerolls "your
// last dice pool").
func TestAidersDieStaysOutOfTheComplicationPool(t *testing.T) {
	e := mustEngine(t)
	s := testScene()
	hs := side(hero, heroPool())
	hs.Aider, hs.AidPicks = Ref(sidekick), []Pick{{sidekick, 0}, {sidekick, 1}}
	must(t, e.Begin(s, Contested, []SideSetup{side(villain, villainPool()), hs}, 0))
	must(t, e.Roll(s, dice.Scripted(2, 2, 2), nil))                  // the villain sets 4
	must(t, e.Aid(s, dice.Scripted(6, 8), 1, sidekick, hs.AidPicks)) // the sidekick's d8 shows 8
	must(t, e.Roll(s, dice.Scripted(2, 2, 2), nil))                  // the hero: 4 + 8 = 12
	must(t, e.Roll(s, dice.Scripted(5, 5, 5), nil))                  // the villain's 10 fails by 2
	if a := s.Action; a.Phase != PhaseInflict || a.Harms[0].To != villain || a.Harms[0].Trauma {
		t.Fatalf("phase %s, harms %+v", a.Phase, a.Harms)
	}
	// The hero's d8 d6 d10 roll 3, 4, 2: the d6 is highest. With the
	// sidekick's d8 in the pool a fourth die would be rolled.
	r := dice.Scripted(3, 4, 2)
	must(t, e.Inflict(s, r, -1, nil))
	v := s.Characters[villain]
	if got := v.Traits[len(v.Traits)-1]; got.Die != dice.D6 || r.Remaining() != 0 {
		t.Errorf("complication %+v, %d scripted faces left", got, r.Remaining())
	}
}
