package dramadeck

import (
	"errors"
	"fmt"
)

// Criticals fixes the GURPS success-roll limits (GURPS Basic Set, "Success
// Rolls" and "Critical Success and Failure"). All defaults are [src].
type Criticals struct {
	// AlwaysSucceed: a 3d6 total at or below it always succeeds (4).
	AlwaysSucceed int `json:"always_succeed"`
	// AlwaysFail: a total at or above it always fails (17).
	AlwaysFail int `json:"always_fail"`
	// CritSuccess: totals at or below it are critical successes (4).
	CritSuccess int `json:"crit_success"`
	// Crit5At and Crit6At: effective skill at which 5 (15) and 6 (16) also
	// become critical successes.
	Crit5At int `json:"crit5_at"`
	Crit6At int `json:"crit6_at"`
	// CritFail: totals at or above it are critical failures (18).
	CritFail int `json:"crit_fail"`
	// Crit17AtOrBelow: 17 is a critical failure at effective skill up to it (15).
	Crit17AtOrBelow int `json:"crit17_at_or_below"`
	// CritFailBy: a roll at least this far above effective skill is a
	// critical failure (10).
	CritFailBy int `json:"crit_fail_by"`
}

// DefaultCriticals returns the GURPS 4e limits [src].
func DefaultCriticals() Criticals {
	return Criticals{AlwaysSucceed: 4, AlwaysFail: 17, CritSuccess: 4, Crit5At: 15, Crit6At: 16,
		CritFail: 18, Crit17AtOrBelow: 15, CritFailBy: 10}
}

// Band is one row of the margin table: margins of victory From..To
// (To < 0 means "and above") give the listed results.
type Band struct {
	From int `json:"from"`
	To   int `json:"to"`
	// Target is what the loser suffers; Actor is what the winner gains
	// (the Up of "Up/Setback"). Each holds up to two effects.
	Target []Effect `json:"target"`
	Actor  []Effect `json:"actor,omitempty"`
}

// MarginTable maps the margin of victory of a Trick, Test, Taunt,
// Intimidate or Maneuver to its effects, one band list per column of the
// Drama Deck's table (GM Side, "Approved Actions").
type MarginTable struct {
	IntimidateTest []Band `json:"intimidate_test"`
	TauntTrick     []Band `json:"taunt_trick"`
	Maneuver       []Band `json:"maneuver"`
}

// DefaultMargins returns the table with the text's literal bands 0-4, 5-9,
// 10-14, 15, 16+ [text]. The 15 / 16+ rows are probably a typo
// for 15-19 / 20+; shipping the literal bands is [ours]. "Up/Setback" gives
// the actor Up and the target Setback [ours].
func DefaultMargins() MarginTable {
	row := func(a, b, c, d []Effect, dActor []Effect) []Band {
		return []Band{
			{From: 0, To: 4, Target: a},
			{From: 5, To: 9, Target: b},
			{From: 10, To: 14, Target: c},
			{From: 15, To: 15, Target: d, Actor: dActor},
			{From: 16, To: -1, Target: []Effect{PlayersCall}},
		}
	}
	e := func(x ...Effect) []Effect { return x }
	return MarginTable{
		IntimidateTest: row(e(Stymied), e(Unskilled), e(Setback), e(Break), nil),
		TauntTrick:     row(e(Stymied), e(Unskilled), e(Setback), e(Setback), e(Up)),
		Maneuver:       row(e(Fatigued), e(Stymied), e(Unskilled), e(Setback, Fatigued), nil),
	}
}

// Column returns the band list used for an approved action (nil for Attack
// and Defend, which do not use the table).
func (m MarginTable) Column(a Act) []Band {
	switch a {
	case Intimidate, Test:
		return m.IntimidateTest
	case Taunt, Trick:
		return m.TauntTrick
	case Maneuver:
		return m.Maneuver
	}
	return nil
}

// Lookup returns the band for margin of victory mov in column a.
func (m MarginTable) Lookup(a Act, mov int) (Band, bool) {
	for _, b := range m.Column(a) {
		if mov >= b.From && (b.To < 0 || mov <= b.To) {
			return b, true
		}
	}
	return Band{}, false
}

func checkBands(name string, bs []Band) error {
	if len(bs) == 0 {
		return fmt.Errorf("%s: no bands (need bands covering margins 0 and up)", name)
	}
	next := 0
	for i, b := range bs {
		if b.From != next {
			return fmt.Errorf("%s[%d]: band starts at %d, want %d (bands must be contiguous from 0)", name, i, b.From, next)
		}
		if b.To >= 0 && b.To < b.From {
			return fmt.Errorf("%s[%d]: to %d below from %d", name, i, b.To, b.From)
		}
		if len(b.Target) > 2 || len(b.Actor) > 2 {
			return fmt.Errorf("%s[%d]: at most two effects per side", name, i)
		}
		for _, es := range [2][]Effect{b.Target, b.Actor} {
			for _, e := range es {
				if !e.marginResult() {
					return fmt.Errorf("%s[%d]: %v is not a margin result (allowed: Stymied, Unskilled, Setback, Break, Up, Fatigued, Player's Call)", name, i, e)
				}
			}
		}
		if b.To < 0 {
			if i != len(bs)-1 {
				return fmt.Errorf("%s[%d]: open-ended band must be last", name, i)
			}
			return nil
		}
		next = b.To + 1
	}
	return fmt.Errorf("%s: last band must be open-ended (to -1)", name)
}

// Rules holds every number the Drama Deck text and our rulings fix. Change any
// field to try a house rule; DefaultRules documents the sources.
type Rules struct {
	Criticals Criticals `json:"criticals"`
	// HandSize: cards dealt on entering play and the refill target (4) [text].
	HandSize int `json:"hand_size"`
	// Bonus: Action, Adrenalin, Willpower, Presence and Supporter add it (3) [text].
	Bonus int `json:"bonus"`
	// CoupPercent: Coup de Grace adds this percent to a damage total (50) [text].
	CoupPercent int `json:"coup_percent"`
	// DramaWorth: Possibilities a Drama card held at the end of an adventure is worth (3) [text].
	DramaWorth int `json:"drama_worth"`
	// GloryAward: Possibilities every character gets per Glory played (3) [text].
	GloryAward int `json:"glory_award"`
	// SubplotAward: Possibilities per subplot in play at the end of an Act (1) [text].
	SubplotAward int `json:"subplot_award"`
	// LuckRolls: Second Chance keeps the best of this many rolls (3) [src].
	LuckRolls int `json:"luck_rolls"`
	// FatigueFP: FP lost to Fatigued (2) [text].
	FatigueFP int `json:"fatigue_fp"`
	// MultiStep: penalty per Dramatic Skill Resolution step beyond the first (-2) [text].
	MultiStep int `json:"multi_step"`
	// LastDitch: extra modifier on the last-ditch effort (-4) [text].
	LastDitch int `json:"last_ditch"`
	// TaskSteps: steps in a Dramatic Skill Resolution (4, A to D) [text].
	TaskSteps int `json:"task_steps"`
	// Complication: how much worse each Complication makes the modifiers (1) [text].
	Complication int `json:"complication"`
	// DefendBonus: All-Out Defence bonus to active defences (2) [src];
	// AllOutAttackBonus: All-Out Attack (Determined) bonus to hit (4) [src].
	DefendBonus       int `json:"defend_bonus"`
	AllOutAttackBonus int `json:"all_out_attack_bonus"`
	// Contest: how a Quick Contest is decided (the published rule [src]).
	Contest ContestRules `json:"contest,omitzero"`
	// Margins is the margin-of-victory table (literal bands) [text]/[ours].
	Margins MarginTable `json:"margins"`
	// MaxLeadership: Leadership moves at most this many cards (2) [text].
	MaxLeadership int `json:"max_leadership"`
	// TaskDrawsOutOfCombat: a Dramatic Skill Resolution's extra approved
	// action may draw a card out of combat too. The text's player side
	// says no additional cards are drawn out of combat, its skill
	// resolution that the roll draws one; false lets the player side win
	// [ours].
	TaskDrawsOutOfCombat bool `json:"task_draws_out_of_combat,omitempty"`
	// DefenceTakesCards: the cards waiting on a character (Adrenalin,
	// Willpower, Presence, Supporter, Second Chance, Up, Drama, Hero) help
	// its active defence and its resistance in a contest, not only its
	// actions (true) [ours]; false is the engine's earlier reading, where
	// only the actor's rolls took them.
	DefenceTakesCards bool `json:"defence_takes_cards"`
	// InspirationRevives: Inspiration restores "all characters on that
	// side", those already out of the fight included, who come back if
	// their HP and FP are then above 0. False (the default, as before)
	// restores only those still in the fight [ours].
	InspirationRevives bool `json:"inspiration_revives,omitempty"`
	// DefendRolls: a Defend action (All-Out Defence) counts as a success,
	// for the card an approved action draws, only on a success roll
	// against the character's Defense; false (the default) takes it as a
	// success without a roll [ours]. The posture is taken either way.
	DefendRolls bool `json:"defend_rolls,omitempty"`
	// StunPercent: a blow of more than this percent of the target's
	// maximum HP stuns it, so that it loses its next action (50: GURPS's
	// major wound, more than half the HP [src], stunning without the HT
	// roll [ours, simplified]); 100: no blow stuns.
	StunPercent int `json:"stun_percent"`
	// CollapseFP: a character whose FP fall to it or below is out of the
	// fight (0: FP at 0 takes a character out [ours, simplified]; GURPS
	// lets a character go on below 0 FP, down to minus its FP, at a risk
	// the simulation does not model). Above 0 it is a house rule that
	// exhaustion ends a fight sooner: a character worn down to it leaves.
	CollapseFP int `json:"collapse_fp"`
	// CriticalMiss is what a critical failure costs the character who
	// rolled it, on an attack or on an active defence against one:
	// Setback, his next action (the default), or Stymied, Unskilled or
	// Fatigued as the margin table has them, or none ("-"). The text
	// gives a critical failure no consequence; GURPS rolls on its
	// Critical Miss Table, whose commonest results (lost balance, a weapon
	// turned in the hand or dropped) cost the next turn [src]; the whole
	// table read as that one result is [ours].
	CriticalMiss Effect `json:"critical_miss,omitempty"`
	// EffectsOutlastScene: card effects still waiting on a hero at the
	// end of a scene (Adrenalin, Willpower, Presence, Supporter, Coup de
	// Grace, Drama and Hero, Second Chance, Opponent Fails) wait on into
	// the next scene; false (the default) lets them lapse with the scene
	// [ours]. The text is silent; the round's bonuses, postures, Up and
	// the GM's effects end with the combat either way.
	EffectsOutlastScene bool `json:"effects_outlast_scene,omitempty"`
}

// DefaultRules returns the rules as the text and our rulings give them.
func DefaultRules() Rules {
	return Rules{
		Criticals: DefaultCriticals(), HandSize: 4, Bonus: 3, CoupPercent: 50,
		DramaWorth: 3, GloryAward: 3, SubplotAward: 1, LuckRolls: 3, FatigueFP: 2,
		MultiStep: -2, LastDitch: -4, TaskSteps: 4, Complication: 1,
		DefendBonus: 2, AllOutAttackBonus: 4, Margins: DefaultMargins(), MaxLeadership: 2,
		DefenceTakesCards: true, StunPercent: 50, CriticalMiss: Setback,
	}
}

// Validate reports the first field outside its allowed range.
func (r Rules) Validate() error {
	c := r.Criticals
	switch {
	case c.AlwaysSucceed < 3 || c.AlwaysSucceed > 18:
		return errors.New("rules.criticals.always_succeed: must be 3..18")
	case c.AlwaysFail < 3 || c.AlwaysFail > 19:
		return errors.New("rules.criticals.always_fail: must be 3..19")
	case c.CritFail < 3 || c.CritFail > 19:
		return errors.New("rules.criticals.crit_fail: must be 3..19")
	case c.CritFailBy < 1:
		return errors.New("rules.criticals.crit_fail_by: must be >= 1")
	case c.AlwaysSucceed >= c.AlwaysFail:
		return fmt.Errorf("rules.criticals: always_succeed %d must be below always_fail %d", c.AlwaysSucceed, c.AlwaysFail)
	case c.CritSuccess < 3 || c.CritSuccess >= c.AlwaysFail:
		return fmt.Errorf("rules.criticals.crit_success: %d, must be 3..%d (a critical success is a success, below always_fail)", c.CritSuccess, c.AlwaysFail-1)
	case c.CritFail <= c.AlwaysSucceed:
		return fmt.Errorf("rules.criticals.crit_fail: %d, must be above always_succeed %d (a critical failure is a failure)", c.CritFail, c.AlwaysSucceed)
	case r.HandSize < 1 || r.HandSize > 20:
		return fmt.Errorf("rules.hand_size: %d, must be 1..20", r.HandSize)
	case r.Bonus < 0:
		return errors.New("rules.bonus: must be >= 0")
	case r.CoupPercent < 0:
		return errors.New("rules.coup_percent: must be >= 0")
	case r.LuckRolls < 1 || r.LuckRolls > 10:
		return fmt.Errorf("rules.luck_rolls: %d, must be 1..10", r.LuckRolls)
	case r.FatigueFP < 0:
		return errors.New("rules.fatigue_fp: must be >= 0")
	case r.MultiStep > 0:
		return errors.New("rules.multi_step: must be <= 0 (a penalty)")
	case r.LastDitch > 0:
		return errors.New("rules.last_ditch: must be <= 0 (a penalty)")
	case r.TaskSteps < 1 || r.TaskSteps > 4:
		return fmt.Errorf("rules.task_steps: %d, must be 1..4 (the skill bar names steps A to D)", r.TaskSteps)
	case r.Complication < 0:
		return errors.New("rules.complication: must be >= 0")
	case r.MaxLeadership < 1 || r.MaxLeadership > 2:
		return fmt.Errorf("rules.max_leadership: %d, must be 1..2 (the text: one or two cards)", r.MaxLeadership)
	case r.DefendBonus < 0 || r.AllOutAttackBonus < 0:
		return errors.New("rules: defend_bonus and all_out_attack_bonus must be >= 0 (bonuses)")
	case r.Bonus > maxCount || r.CoupPercent > maxCount || r.FatigueFP > maxCount || r.Complication > maxCount ||
		r.DramaWorth > maxCount || r.GloryAward > maxCount || r.SubplotAward > maxCount ||
		r.DefendBonus > maxCount || r.AllOutAttackBonus > maxCount || r.MultiStep < -maxCount || r.LastDitch < -maxCount:
		return fmt.Errorf("rules: every number must be within %d", maxCount)
	case r.StunPercent < 0 || r.StunPercent > 100:
		return fmt.Errorf("rules.stun_percent: %d, must be 0..100 (percent of the HP a blow must exceed to stun; 100: never)", r.StunPercent)
	case r.CollapseFP < -maxTrack || r.CollapseFP > maxTrack:
		return fmt.Errorf("rules.collapse_fp: %d, must be within %d (the FP at or below which a character is out)", r.CollapseFP, maxTrack)
	case !r.CriticalMiss.costs():
		return fmt.Errorf("rules.critical_miss: %v (allowed: Setback, Stymied, Unskilled, Fatigued, or - for none)", r.CriticalMiss)
	case r.DramaWorth < 0 || r.GloryAward < 0 || r.SubplotAward < 0:
		return errors.New("rules: awards (drama_worth, glory_award, subplot_award) must be >= 0")
	}
	if err := checkBands("rules.margins.intimidate_test", r.Margins.IntimidateTest); err != nil {
		return err
	}
	if err := checkBands("rules.margins.taunt_trick", r.Margins.TauntTrick); err != nil {
		return err
	}
	return checkBands("rules.margins.maneuver", r.Margins.Maneuver)
}
