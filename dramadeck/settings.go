package dramadeck

// use is where one setting of a Scenario acts: its key (as a scenario
// file writes it, and the command line's --set names it), whether it can
// change any number of a given scenario, and the studies where it does,
// in words.
type use struct {
	key   string
	acts  func(s Scenario) bool
	where string
}

// The studies a setting acts in.
func always(Scenario) bool { return true }

// fights: a study with combat (all but a task worked out of combat).
func fights(s Scenario) bool { return s.Study != StudyTask || s.TaskInCombat }

// tasks: a study with a Dramatic Skill Resolution.
func tasks(s Scenario) bool { return s.Study == StudyTask || s.Study == StudyScene }

// adventures: a study past one scene, with Acts and an adventure's end.
func adventures(s Scenario) bool { return s.Study == StudyAdventure }

// composed: a deck given as a composition, whose GM faces the seed makes.
func composed(s Scenario) bool { return len(s.Deck) > 0 && len(s.Cards) == 0 }

// fumbles: a fight in which a critical failure costs something, on an
// attack or a defence (Rules.CriticalMiss), or decides a contest
// (Rules.Contest.CriticalsDecide).
func fumbles(s Scenario) bool {
	return fights(s) && (s.Rules.CriticalMiss != NoEffect || s.Rules.Contest.CriticalsDecide)
}

// playing: the players' policy plays its cards, so that the rules of
// the cards played (their bonus, Coup de Grace, Second Chance,
// Leadership, Glory) may act.
func playing(s Scenario) bool {
	p, err := PolicyByName(s.HeroPolicy)
	st, ok := p.(*Style)
	return err != nil || !ok || st.PlayCards
}

// allOut: a fight in which a side's policy makes All-Out Attacks.
func allOut(s Scenario) bool {
	for _, name := range [2]string{s.HeroPolicy, s.GMPolicy} {
		if p, err := PolicyByName(name); err == nil {
			if st, ok := p.(*Style); ok && st.AllOut {
				return fights(s)
			}
		}
	}
	return false
}

// uses lists every setting and where it acts.
var uses = []use{
	{"study", always, "every study"},
	{"rules.criticals.always_succeed", always, "every study"},
	{"rules.criticals.always_fail", always, "every study"},
	{"rules.criticals.crit_success", fights, "studies with a fight (Glory, defences)"},
	{"rules.criticals.crit5_at", fights, "studies with a fight"},
	{"rules.criticals.crit6_at", fights, "studies with a fight"},
	{"rules.criticals.crit_fail", fumbles, "studies with a fight, while a critical failure costs something (critical_miss) or decides contests"},
	{"rules.criticals.crit17_at_or_below", fumbles, "studies with a fight, while a critical failure costs something (critical_miss) or decides contests"},
	{"rules.criticals.crit_fail_by", fumbles, "studies with a fight, while a critical failure costs something (critical_miss) or decides contests"},
	{"rules.hand_size", always, "every study"},
	{"rules.bonus", func(s Scenario) bool { return fights(s) && playing(s) }, "studies with a fight where the players play cards"},
	{"rules.coup_percent", func(s Scenario) bool { return fights(s) && playing(s) }, "studies with a fight where the players play cards"},
	{"rules.drama_worth", adventures, "adventure"},
	{"rules.glory_award", func(s Scenario) bool { return adventures(s) && playing(s) }, "adventure, where the players play cards"},
	{"rules.subplot_award", adventures, "adventure"},
	{"rules.luck_rolls", func(s Scenario) bool { return fights(s) && playing(s) }, "studies with a fight where the players play cards (Second Chance is declared in combat)"},
	{"rules.fatigue_fp", fights, "studies with a fight"},
	{"rules.multi_step", tasks, "task, task in combat, scene"},
	{"rules.last_ditch", tasks, "task, task in combat, scene"},
	{"rules.task_steps", tasks, "task, task in combat, scene"},
	{"rules.complication", tasks, "task, task in combat, scene"},
	{"rules.defend_bonus", fights, "studies with a fight"},
	{"rules.all_out_attack_bonus", allOut, "studies with a fight in which a side's policy attacks all-out (the scene's GM)"},
	{"rules.margins", fights, "studies with a fight"},
	{"rules.contest.criticals_decide", fights, "studies with a fight"},
	{"rules.max_leadership", func(s Scenario) bool { return fights(s) && playing(s) }, "studies with a fight where the players play cards"},
	{"rules.task_draws_out_of_combat", tasks, "task, task in combat, scene (the work out of combat)"},
	{"rules.defence_takes_cards", fights, "studies with a fight"},
	{"rules.inspiration_revives", fights, "studies with a fight"},
	{"rules.defend_rolls", fights, "studies with a fight"},
	{"rules.stun_percent", fights, "studies with a fight"},
	{"rules.collapse_fp", fights, "studies with a fight"},
	{"rules.critical_miss", fights, "studies with a fight"},
	{"rules.effects_outlast_scene", func(s Scenario) bool { return adventures(s) && playing(s) }, "adventure (a scene follows the scene's end), where the players play cards"},
	{"deck", always, "every study"},
	{"deck_seed", composed, "every study whose deck is a composition"},
	{"faces", composed, "every study whose deck is a composition"},
	{"cards", always, "every study"},
	{"dramatic", fights, "studies with a fight"},
	{"heroes", always, "every study"},
	{"villains", fights, "studies with a fight"},
	{"max_rounds", fights, "studies with a fight"},
	{"hero_policy", always, "every study"},
	{"gm_policy", fights, "studies with a fight"},
	{"task", tasks, "task, task in combat, scene"},
	{"task_in_combat", func(s Scenario) bool { return s.Study == StudyTask }, "task"},
	{"acts", adventures, "adventure"},
	{"scenes_per_act", adventures, "adventure"},
}

// Inert lists the settings that cannot change any number of this
// scenario (a study without a fight has no use for the margin table; only
// an adventure pays Drama held), by key, in the order of the settings
// table in the package doc. A report names them ("these settings do not
// act in this scenario: ..."), so that a sweep over one of them is not
// read as the setting's effect.
func (s Scenario) Inert() []string {
	var out []string
	for _, u := range uses {
		if !u.acts(s) {
			out = append(out, u.key)
		}
	}
	return out
}
