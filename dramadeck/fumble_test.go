package dramadeck

import (
	"slices"
	"testing"
)

// A critical failure on an attack costs the attacker, and on an active
// defence the defender, what Rules.CriticalMiss says (by default his next
// action: GURPS's Critical Miss Table read as its commonest result); a
// failure that is not critical costs nothing more, and the thresholds
// decide which failures are critical.
func TestCriticalMissCostsTheNextAction(t *testing.T) {
	for _, tc := range []struct {
		name  string
		rules func(r *Rules)
		dice  []int
		who   int // the character who fumbles, or -1
		fp    int // FP he loses
	}{
		{"an 18 on the attack", nil, []int{6, 6, 6}, 0, 0},
		{"a 17 at skill 14", nil, []int{6, 6, 5}, 0, 0},
		{"a 17 once 17 is critical only up to skill 13", func(r *Rules) { r.Criticals.Crit17AtOrBelow = 13 }, []int{6, 6, 5}, -1, 0},
		{"a 16, failed by 2", nil, []int{6, 5, 5}, -1, 0},
		{"a 16, failed by 2, with crit_fail_by 2", func(r *Rules) { r.Criticals.CritFailBy = 2 }, []int{6, 5, 5}, 0, 0},
		{"an 18 with no cost", func(r *Rules) { r.CriticalMiss = NoEffect }, []int{6, 6, 6}, -1, 0},
		{"an 18 costing Fatigued", func(r *Rules) { r.CriticalMiss = Fatigued }, []int{6, 6, 6}, 0, 2},
		{"the Boss defends with an 18", nil, []int{3, 3, 4, 6, 6, 6, 1, 1}, 2, 0},
		{"the Boss defends with a 16", nil, []int{3, 3, 4, 6, 5, 5, 1, 1}, -1, 0},
	} {
		g := combatGame(t)
		if tc.rules != nil {
			tc.rules(&g.State.Rules)
		}
		var tr Trace
		g.Sink = tr.Add
		fp := [3]int{g.State.Heroes[0].FP, g.State.Heroes[1].FP, g.State.Villains[0].FP}
		turnOf(g, 0)
		if err := g.Act(fixed(tc.dice...), 0, Choice{Act: Attack, Target: 2}, mustPolicy(t, "passive"), nil); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		for ci := range 3 {
			c := g.char(ci)
			fumbled := ci == tc.who
			if c.Status.LoseAction != (fumbled && g.State.Rules.CriticalMiss == Setback) {
				t.Errorf("%s: character %d loses his next action: %v", tc.name, ci, c.Status.LoseAction)
			}
			if lost := fp[ci] - c.FP; lost != map[bool]int{true: tc.fp}[fumbled] {
				t.Errorf("%s: character %d lost %d FP", tc.name, ci, lost)
			}
		}
		i := slices.IndexFunc(tr.Events, func(e Event) bool { return e.Kind == EvFumble })
		if (i >= 0) != (tc.who >= 0) || i >= 0 && tr.Events[i].Who != tc.who {
			t.Errorf("%s: events %v", tc.name, tr.Events)
		}
	}
}

// The character a critical miss set back loses his next action: he takes
// his turn and rolls nothing.
func TestCriticalMissLosesTheTurnAfter(t *testing.T) {
	g := combatGame(t)
	turnOf(g, 0)
	if err := g.Act(fixed(6, 6, 6), 0, Choice{Act: Attack, Target: 2}, mustPolicy(t, "passive"), nil); err != nil {
		t.Fatal(err)
	}
	hp := g.State.Villains[0].HP
	var tr Trace
	g.Sink = tr.Add
	turnOf(g, 0)
	if err := g.Act(fixed(), 0, Choice{Act: Attack, Target: 2}, mustPolicy(t, "passive"), nil); err != nil {
		t.Fatal(err)
	}
	for _, e := range tr.Events {
		if e.Kind == EvRoll || e.Kind == EvDamage {
			t.Errorf("the lost action rolled: %v", e)
		}
	}
	if g.State.Heroes[0].Status.LoseAction || g.State.Villains[0].HP != hp {
		t.Error("the lost action was not lost")
	}
}

// The critical-failure thresholds act only while a critical failure
// costs something: the scenario says so (Inert).
func TestCriticalFailureThresholdsInertWithoutACost(t *testing.T) {
	sc := DefaultScenario()
	if slices.Contains(sc.Inert(), "rules.criticals.crit_fail") {
		t.Error("crit_fail inert while a critical miss costs the next action")
	}
	sc.Rules.CriticalMiss = NoEffect
	if !slices.Contains(sc.Inert(), "rules.criticals.crit_fail") {
		t.Error("crit_fail acting though no critical failure costs anything")
	}
	sc.Rules.Contest.CriticalsDecide = true
	if slices.Contains(sc.Inert(), "rules.criticals.crit_fail_by") {
		t.Error("crit_fail_by inert while criticals decide contests")
	}
}
