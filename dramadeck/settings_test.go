package dramadeck

import (
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// jsonKeys lists the JSON keys of struct type t, with prefix, descending
// into the struct fields named in into.
func jsonKeys(t reflect.Type, prefix string, into ...string) []string {
	var out []string
	for i := range t.NumField() {
		key, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if key == "" || key == "-" {
			continue
		}
		if slices.Contains(into, key) {
			out = append(out, jsonKeys(t.Field(i).Type, prefix+key+".", into...)...)
			continue
		}
		out = append(out, prefix+key)
	}
	return out
}

// Every setting of a Scenario (its rules' criticals one by one) is in the
// settings table, and in the table of the package doc.
func TestEverySettingHasAPlaceInTheTable(t *testing.T) {
	keys := jsonKeys(reflect.TypeFor[Scenario](), "", "rules", "criticals", "contest")
	var listed []string
	for _, u := range uses {
		listed = append(listed, u.key)
	}
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range keys {
		if !slices.Contains(listed, k) {
			t.Errorf("setting %s is not in the settings table", k)
		}
	}
	for _, k := range listed {
		if !slices.Contains(keys, k) {
			t.Errorf("the settings table lists %s, which is no setting", k)
		}
		if !strings.Contains(string(doc), "//\t"+k+" ") {
			t.Errorf("the package doc's table lacks %s", k)
		}
	}
}

// perturb changes each setting to another value a scenario of any study
// accepts.
var perturb = map[string]func(*Scenario){
	"study":                              func(s *Scenario) { s.Study = (s.Study + 1) % numStudies },
	"rules.criticals.always_succeed":     func(s *Scenario) { s.Rules.Criticals.AlwaysSucceed = 10 },
	"rules.criticals.always_fail":        func(s *Scenario) { s.Rules.Criticals.AlwaysFail = 14 },
	"rules.criticals.crit_success":       func(s *Scenario) { s.Rules.Criticals.CritSuccess = 8 },
	"rules.criticals.crit5_at":           func(s *Scenario) { s.Rules.Criticals.Crit5At = 8 },
	"rules.criticals.crit6_at":           func(s *Scenario) { s.Rules.Criticals.Crit6At = 8 },
	"rules.criticals.crit_fail":          func(s *Scenario) { s.Rules.Criticals.CritFail = 10 },
	"rules.criticals.crit17_at_or_below": func(s *Scenario) { s.Rules.Criticals.Crit17AtOrBelow = 3 },
	"rules.criticals.crit_fail_by":       func(s *Scenario) { s.Rules.Criticals.CritFailBy = 2 },
	"rules.hand_size":                    func(s *Scenario) { s.Rules.HandSize = 6 },
	"rules.bonus":                        func(s *Scenario) { s.Rules.Bonus = 8 },
	"rules.coup_percent":                 func(s *Scenario) { s.Rules.CoupPercent = 300 },
	"rules.drama_worth":                  func(s *Scenario) { s.Rules.DramaWorth = 10 },
	"rules.glory_award":                  func(s *Scenario) { s.Rules.GloryAward = 10 },
	"rules.subplot_award":                func(s *Scenario) { s.Rules.SubplotAward = 10 },
	"rules.luck_rolls":                   func(s *Scenario) { s.Rules.LuckRolls = 1 },
	"rules.fatigue_fp":                   func(s *Scenario) { s.Rules.FatigueFP = 9 },
	"rules.multi_step":                   func(s *Scenario) { s.Rules.MultiStep = -8 },
	"rules.last_ditch":                   func(s *Scenario) { s.Rules.LastDitch = 0 },
	"rules.task_steps":                   func(s *Scenario) { s.Rules.TaskSteps = 2 },
	"rules.complication":                 func(s *Scenario) { s.Rules.Complication = 8 },
	"rules.defend_bonus":                 func(s *Scenario) { s.Rules.DefendBonus = 9 },
	"rules.all_out_attack_bonus":         func(s *Scenario) { s.Rules.AllOutAttackBonus = 0 },
	"rules.margins":                      func(s *Scenario) { s.Rules.Margins.TauntTrick = s.Rules.Margins.Maneuver },
	"rules.contest.criticals_decide":     func(s *Scenario) { s.Rules.Contest.CriticalsDecide = true },
	"rules.max_leadership":               func(s *Scenario) { s.Rules.MaxLeadership = 1 },
	"rules.task_draws_out_of_combat":     func(s *Scenario) { s.Rules.TaskDrawsOutOfCombat = !s.Rules.TaskDrawsOutOfCombat },
	"rules.defence_takes_cards":          func(s *Scenario) { s.Rules.DefenceTakesCards = !s.Rules.DefenceTakesCards },
	"rules.inspiration_revives":          func(s *Scenario) { s.Rules.InspirationRevives = !s.Rules.InspirationRevives },
	"rules.defend_rolls":                 func(s *Scenario) { s.Rules.DefendRolls = !s.Rules.DefendRolls },
	"rules.stun_percent":                 func(s *Scenario) { s.Rules.StunPercent = 10 },
	"rules.collapse_fp":                  func(s *Scenario) { s.Rules.CollapseFP = 6 },
	"rules.critical_miss":                func(s *Scenario) { s.Rules.CriticalMiss = NoEffect },
	"rules.effects_outlast_scene":        func(s *Scenario) { s.Rules.EffectsOutlastScene = !s.Rules.EffectsOutlastScene },
	"deck":                               func(s *Scenario) { s.Deck = deckOf(2) },
	"deck_seed":                          func(s *Scenario) { s.DeckSeed++ },
	"faces":                              func(s *Scenario) { s.Faces = DefaultFaces(); s.Faces.Effects, s.Faces.Steps = Share{2, 3}, Share{1, 2} },
	"cards":                              func(s *Scenario) { d, _ := Generate(deckOf(2), 9); s.Cards = d.Cards },
	"dramatic":                           func(s *Scenario) { s.Dramatic = !s.Dramatic },
	"heroes":                             func(s *Scenario) { s.Heroes = s.Heroes[:2] },
	"villains":                           func(s *Scenario) { s.Villains = s.Villains[:2] },
	"max_rounds":                         func(s *Scenario) { s.MaxRounds = 2 },
	"hero_policy":                        func(s *Scenario) { s.HeroPolicy = "passive" },
	"gm_policy":                          func(s *Scenario) { s.GMPolicy = "aggressive" },
	"task":                               func(s *Scenario) { s.Task.Skill, s.Task.Modifiers = 9, [4]int{-3, -3, -3, -3} },
	"task_in_combat":                     func(s *Scenario) { s.TaskInCombat = !s.TaskInCombat },
	"acts":                               func(s *Scenario) { s.Acts++ },
	"scenes_per_act":                     func(s *Scenario) { s.ScenesPerAct++ },
}

// results is the categories and metrics of n trials of sc, all in one
// slice, or nil if sc is refused.
func results(t *testing.T, sc Scenario, n int) []int {
	t.Helper()
	if sc.Validate() != nil {
		return nil
	}
	counts, ms := trials(t, sc, 5, n)
	for _, m := range ms {
		counts = append(counts, m...)
	}
	return counts
}

// A setting the table says cannot act in a built-in scenario changes no
// number of it (or the scenario refuses it); every setting changes some
// number of some built-in scenario.
func TestSettingsActWhereTheTableSays(t *testing.T) {
	n := 150
	if testing.Short() {
		n = 40
	}
	acted := map[string][]string{}
	scenarios := Builtins()
	// The players' policy playing no cards, the cards' rules are inert.
	for _, name := range []string{"encounter", "adventure"} {
		sc := scenarios[name]
		sc.HeroPolicy = "passive"
		scenarios["passive "+name] = sc
	}
	for name, sc := range scenarios {
		base := results(t, sc, n)
		for _, u := range uses {
			changed := sc
			changed.Heroes, changed.Villains = slices.Clone(sc.Heroes), slices.Clone(sc.Villains)
			perturb[u.key](&changed)
			got := results(t, changed, n)
			same := got == nil || slices.Equal(got, base)
			if !u.acts(sc) && !same {
				t.Errorf("%s: %s is listed inert, yet changes the trials", name, u.key)
			}
			if u.acts(sc) && !same && !strings.HasPrefix(name, "passive") {
				acted[u.key] = append(acted[u.key], name)
			}
		}
	}
	for _, u := range uses {
		slices.Sort(acted[u.key])
		t.Logf("%-35s acts in %v", u.key, acted[u.key])
		if len(acted[u.key]) == 0 {
			t.Errorf("%s changes no number of any built-in scenario", u.key)
		}
	}
}
