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
func never(Scenario) bool  { return false }

// fights: a study with combat (all but a task worked out of combat).
func fights(s Scenario) bool { return s.Study != StudyTask || s.TaskInCombat }

// tasks: a study with a Dramatic Skill Resolution.
func tasks(s Scenario) bool { return s.Study == StudyTask || s.Study == StudyScene }

// adventures: a study past one scene, with Acts and an adventure's end.
func adventures(s Scenario) bool { return s.Study == StudyAdventure }

// composed: a deck given as a composition, whose GM faces the seed makes.
func composed(s Scenario) bool { return len(s.Deck) > 0 && len(s.Cards) == 0 }

// uses lists every setting and where it acts. No critical failure has a
// consequence in the model (the text gives none), so the thresholds that
// make one act nowhere.
var uses = []use{
	{"study", always, "every study"},
	{"rules.criticals.always_succeed", always, "every study"},
	{"rules.criticals.always_fail", always, "every study"},
	{"rules.criticals.crit_success", fights, "studies with a fight (Glory, defences)"},
	{"rules.criticals.crit5_at", fights, "studies with a fight"},
	{"rules.criticals.crit6_at", fights, "studies with a fight"},
	{"rules.criticals.crit_fail", never, "none: no critical failure has a consequence"},
	{"rules.criticals.crit17_at_or_below", never, "none: no critical failure has a consequence"},
	{"rules.criticals.crit_fail_by", never, "none: no critical failure has a consequence"},
	{"rules.hand_size", always, "every study"},
	{"rules.bonus", fights, "studies with a fight"},
	{"rules.coup_percent", fights, "studies with a fight"},
	{"rules.drama_worth", adventures, "adventure"},
	{"rules.glory_award", adventures, "adventure"},
	{"rules.subplot_award", adventures, "adventure"},
	{"rules.luck_rolls", fights, "studies with a fight (Second Chance is declared in combat)"},
	{"rules.fatigue_fp", fights, "studies with a fight"},
	{"rules.multi_step", tasks, "task, task in combat, scene"},
	{"rules.last_ditch", tasks, "task, task in combat, scene"},
	{"rules.task_steps", tasks, "task, task in combat, scene"},
	{"rules.complication", tasks, "task, task in combat, scene"},
	{"rules.defend_bonus", fights, "studies with a fight"},
	{"rules.all_out_attack_bonus", fights, "studies with a fight"},
	{"rules.margins", fights, "studies with a fight"},
	{"rules.contest.criticals_decide", fights, "studies with a fight"},
	{"rules.max_leadership", fights, "studies with a fight"},
	{"rules.task_draws_out_of_combat", tasks, "task, task in combat, scene (the work out of combat)"},
	{"rules.defence_takes_cards", fights, "studies with a fight"},
	{"rules.inspiration_revives", fights, "studies with a fight"},
	{"rules.defend_rolls", fights, "studies with a fight"},
	{"rules.stun_percent", fights, "studies with a fight"},
	{"rules.collapse_fp", fights, "studies with a fight"},
	{"rules.effects_outlast_scene", adventures, "adventure (a scene follows the scene's end)"},
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
