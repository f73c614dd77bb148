package contest

import (
	"fmt"

	"github.com/stakesrpg/stakes/dice"
)

// Rules holds every number the scenes-and-actions text (or our rulings on
// it) fixes. DefaultRules gives the shipped values; a designer may change any
// field to test a house rule. Each field's comment says where its default
// comes from: [text] the rule text, [src] the original Gotham Reborn /
// Smallville material, [ours] our ruling where both are silent.
type Rules struct {
	// Keep is how many dice make a total (the two highest). [src]
	Keep int `json:"keep"`
	// ExcludeOnes leaves dice showing 1 out of totals. [src]
	ExcludeOnes bool `json:"exclude_ones"`
	// Extraordinary is the margin that makes a win Extraordinary: Knocked
	// Out and Trauma instead of a Complication, two mooks knocked off
	// instead of one, no beat lost in a timed action. [text: 5]
	Extraordinary int `json:"extraordinary"`
	// PushBonus is what one Final Push step adds to a total. [text: 5]
	PushBonus int `json:"push_bonus"`
	// FreeTraits is how many different traits a pool holds before each
	// further die costs ExtraDieCost (Value + Relationship + Distinction
	// or Ability). [ours: 3]
	FreeTraits int `json:"free_traits"`
	// ExtraDieCost is the Plot Points one die beyond FreeTraits costs.
	// [text: 1]
	ExtraDieCost int `json:"extra_die_cost"`
	// ReuseCost is the Plot Points for using a trait already in the pool.
	// [text: 1]
	ReuseCost int `json:"reuse_cost"`
	// GiveInPlotPoints is what Giving In after rolling costs when paid in
	// Plot Points (to the opposition). [text: 1]
	GiveInPlotPoints int `json:"give_in_plot_points"`
	// GiveInComplication is the Complication taken instead. [text: d6]
	GiveInComplication dice.Die `json:"give_in_complication"`
	// KnockoutTrauma is the Trauma a character gets when a Complication
	// passes d12. [src: d6]
	KnockoutTrauma dice.Die `json:"knockout_trauma"`
	// TroubleStart is the Trouble Pool a scene starts with (NewState and a
	// scenario without its own Trouble use it). [src: 2d6]
	TroubleStart []dice.Die `json:"trouble_start"`
	// TroubleDie is the die the GM adds to the Trouble Pool when buying a
	// 1, and when turning a GM character's Reflection Point into trouble.
	// [src/text: d6]
	TroubleDie dice.Die `json:"trouble_die"`
	// TroubleOffOnWin is how many dice a win against the Trouble Pool
	// removes, each the winner's choice (Policy.TroubleOff). [text: 1;
	// ours for the count]
	TroubleOffOnWin int `json:"trouble_off_on_win"`
	// TroubleOffOnExtraordinary replaces TroubleOffOnWin for an
	// Extraordinary win against the Trouble Pool. [ours: 1]
	TroubleOffOnExtraordinary int `json:"trouble_off_on_extraordinary"`
	// StartPlotPoints is what each player character gets at the start of
	// an episode, on top of the Plot Points its sheet holds: NewState and a
	// Scenario's start give them to every character the GM does not run.
	// [ours: 1]
	StartPlotPoints int `json:"start_plot_points"`
	// ReflectionOnLoss is the Reflection Points a loser who did not Give
	// In earns. [text: 1]
	ReflectionOnLoss int `json:"reflection_on_loss"`
	// RebuyCost is the Reflection Points that buy back one step of a trait
	// a Final Push lowered. The text says lowered traits must be re-bought
	// with Reflection Points but sets no price; one point a step matches
	// one step given up for one +5, and one point is what a loss fought to
	// the end earns, so a character who pushes once and loses can win that
	// step back from the loss itself, but a push of two or more steps costs
	// more than one lost contest repays. [ours: 1]
	RebuyCost int `json:"rebuy_cost"`
	// InterfereCost is the Plot Points an interferer pays the GM. [text: 1]
	InterfereCost int `json:"interfere_cost"`
	// ContinueCost is what each side pays the interferer to go on. [text: 1]
	ContinueCost int `json:"continue_cost"`
	// MookOff and MookOffExtraordinary are how many gang dice a raise (or
	// an Extraordinary raise) knocks off the side that held the stakes.
	// [text: 1 and 2]
	MookOff              int `json:"mook_off"`
	MookOffExtraordinary int `json:"mook_off_extraordinary"`
	// BeatsPerRoll, BeatsOnFailure and BeatsOnExtraordinary are what one
	// step of a timed action costs: a roll, the extra beat a failure
	// loses, and the cost of an Extraordinary success. [text: 1, 1, 0]
	BeatsPerRoll         int `json:"beats_per_roll"`
	BeatsOnFailure       int `json:"beats_on_failure"`
	BeatsOnExtraordinary int `json:"beats_on_extraordinary"`
	// BuyTime and BuyTimeExtraordinary are the beats a helper's success
	// (or Extraordinary success) gives back, never above the starting
	// count while BuyTimeCapped. [text: 1 and 2]
	BuyTime              int `json:"buy_time"`
	BuyTimeExtraordinary int `json:"buy_time_extraordinary"`
	// ComplicationKeptOnly, when set, builds the Complication Pool from the
	// dice that made the total only; by default it is every die of the
	// winning pool except those that showed 1 or were knocked off. [ours]
	ComplicationKeptOnly bool `json:"complication_kept_only"`
	// EmptyComplication is the rating when the Complication Pool has no
	// dice left (every die showed 1). [ours: d4]
	EmptyComplication dice.Die `json:"empty_complication"`
	// TiesToHolder: a total equal to the stakes does not beat them, so a
	// tie goes to whoever holds the stakes (each raise must be strictly
	// higher; in a basic action "ties go to the active party", the GM who
	// set the stakes). Off, a tie beats the stakes. [src: on]
	TiesToHolder bool `json:"ties_to_holder"`
	// RateTiesLarger: when two dice of the Complication Pool tie for the
	// highest face, the larger size is the rating; off, the smaller. [ours: on]
	RateTiesLarger bool `json:"rate_ties_larger"`
	// AlwaysStepUp: a Complication (or Trauma) landing on an existing one
	// steps it up whatever the new die; off, a larger new die replaces
	// the rating and a smaller or equal one steps it up. [ours: off]
	AlwaysStepUp bool `json:"always_step_up"`
	// OnePlotPoints is the Plot Points the GM gives a player for each 1
	// it buys. [src: 1]
	OnePlotPoints int `json:"one_plot_points"`
	// FailedLastStepCompletes: a failed last step of a timed action still
	// moves on, so with beats left the action is complete; off, the last
	// obstacle must be beaten, tried again while beats last. [ours: on]
	FailedLastStepCompletes bool `json:"failed_last_step_completes"`
	// AiderHarmedOnGiveIn: an aider shares the Complication when the side
	// it aided Gives In, as when it loses; off, only a loss harms aiders
	// (the text: "If the side you Aid loses"). [ours: off]
	AiderHarmedOnGiveIn bool `json:"aider_harmed_on_give_in"`
	// MookOffLargest: a raise against a gang knocks off its largest die;
	// off, its smallest. [ours: on]
	MookOffLargest bool `json:"mook_off_largest"`
	// TroubleInContests lets the Trouble Pool be a side of a contested
	// action; off, it opposes basic actions only ("If there's no other
	// character involved at all, the GM rolls the Trouble pool"). [ours: off]
	TroubleInContests bool `json:"trouble_in_contests"`
	// AllRollTieReroll: when every side rolls to open and several tie for
	// the highest, everyone rolls again; off, the first of them (in side
	// order) sets the stakes. [ours: on]
	AllRollTieReroll bool `json:"all_roll_tie_reroll"`
	// AllRollGiveInFree: after an opening where every side rolled, the
	// sides that did not set the stakes may Give In "right away"
	// ("Contested Actions") for free, their opening roll not yet
	// committing them; off, that roll is dice picked up, and Giving In
	// costs as after any roll ("Giving In"). [ours: off]
	AllRollGiveInFree bool `json:"all_roll_give_in_free"`
	// PushTieLoses: a Final Push that brings the pusher level with the
	// other side still loses (a push "can never win an Action"), so a
	// stakes holder beaten by exactly a multiple of PushBonus (the GM's
	// character beaten by exactly 5 in a basic action) may push to the
	// tie and take a Complication; off, a push may not reach a total that
	// would win the tie, and such a holder takes the Trauma. [ours: off]
	PushTieLoses bool `json:"push_tie_loses"`
	// BrawlTieToHolder: a tie in the three-way roll after interference
	// goes to the stakes holder; off, to the other side. [ours: on]
	BrawlTieToHolder bool `json:"brawl_tie_to_holder"`
	// RaiseAnsweredByBeaten: with more than two sides, after a raise the
	// side whose stakes were just beaten answers first (then the turn goes
	// on round the table); off, the turn passes round the table from the
	// raiser. A side that cannot beat the stakes is beaten by their holder
	// and leaves either way ("you've come out on top"). With two sides
	// both orders are the same. [ours: off]
	RaiseAnsweredByBeaten bool `json:"raise_answered_by_beaten"`
	// GiveInPointToHolder: the Plot Point paid to Give In goes to the side
	// holding the stakes (the GM when the Trouble Pool holds them; "give
	// the Plot Point to your opposition"); off, it goes to the GM whoever
	// holds them. [ours: on]
	GiveInPointToHolder bool `json:"give_in_point_to_holder"`
	// AidLasts: an aider's die adds to every total its side rolls for the
	// rest of the action; off, only to the side's next total ("She can add
	// that die to her total"). [ours: off]
	AidLasts bool `json:"aid_lasts"`
	// Interferences is how many times a contest may be interfered with;
	// an interference that beats the stakes stops the contest (or starts
	// the brawl), so only interferences that failed leave room for the
	// next. 0 forbids interfering. [ours: 1]
	Interferences int `json:"interferences"`
	// BrawlTrauma: the brawl after interference deals Trauma, not a
	// Complication, to whoever it beats by the Extraordinary margin, as any
	// other win; off, the brawl deals Complications only ("whoever has the
	// highest result inflicts Complications on the other side"). The brawl
	// offers no Final Push either way. [ours: off]
	BrawlTrauma bool `json:"brawl_trauma"`
	// OnesOfEveryRoll: the GM may buy the 1s of a player character's aid
	// and interference rolls too; off, only those of an action roll (a
	// side's roll, a timed action's step or a helper's attempt to buy
	// time). [ours: off]
	OnesOfEveryRoll bool `json:"ones_of_every_roll"`
	// BuyTimeCapped: time bought back never takes the beats above the
	// count the timed action started with ("give you back one of the beats
	// you've lost"); off, bought time may exceed it (up to 1000 beats).
	// [ours: on]
	BuyTimeCapped bool `json:"buy_time_capped"`
	// TimedTroubleOff: a step of a timed action won against the Trouble
	// Pool reduces it as a basic action won against it does
	// (TroubleOffOnWin dice, TroubleOffOnExtraordinary on an Extraordinary
	// success), each die the actor's choice (Policy.TroubleOff) once the
	// GM has answered the roll's 1s. The text makes a timed action "a
	// series of Basic Actions" and a Basic Action won "reduce[s] the
	// Trouble Pool", but speaks only of beats within a timed action; off,
	// a timed step takes no die off. A pool emptied so sets stakes of 0
	// for the steps and helpers still to roll against it. [ours: off]
	TimedTroubleOff bool `json:"timed_trouble_off"`
	// HelpersRollTrouble: a helper buying time rolls against the Trouble
	// Pool ("If there's no other character involved at all, the GM rolls
	// the Trouble pool"); off, against the dice of the step the actor
	// faces next. [ours: off]
	HelpersRollTrouble bool `json:"helpers_roll_trouble"`
	// OutOfTimeComplication is the rating of the Complication for running
	// out of time; Gone (the default, written 0) rates it from the GM's
	// last stakes roll, as a win's Complication is rated from the winning
	// pool. [ours: rated]
	OutOfTimeComplication dice.Die `json:"out_of_time_complication,omitzero"`
	// MaxTrouble bounds the Trouble Pool: buying 1s and cashing
	// Reflection Points never grow it past this many dice (at most 128).
	// [ours: 100]
	MaxTrouble int `json:"max_trouble"`
}

// DefaultRules returns the rules as the text and our rulings give them.
func DefaultRules() Rules {
	return Rules{
		Keep:                      2,
		ExcludeOnes:               true,
		Extraordinary:             5,
		PushBonus:                 5,
		FreeTraits:                3,
		ExtraDieCost:              1,
		ReuseCost:                 1,
		GiveInPlotPoints:          1,
		GiveInComplication:        dice.D6,
		KnockoutTrauma:            dice.D6,
		TroubleStart:              []dice.Die{dice.D6, dice.D6},
		TroubleDie:                dice.D6,
		TroubleOffOnWin:           1,
		TroubleOffOnExtraordinary: 1,
		StartPlotPoints:           1,
		ReflectionOnLoss:          1,
		RebuyCost:                 1,
		InterfereCost:             1,
		ContinueCost:              1,
		MookOff:                   1,
		MookOffExtraordinary:      2,
		BeatsPerRoll:              1,
		BeatsOnFailure:            1,
		BeatsOnExtraordinary:      0,
		BuyTime:                   1,
		BuyTimeExtraordinary:      2,
		EmptyComplication:         dice.D4,
		TiesToHolder:              true,
		RateTiesLarger:            true,
		OnePlotPoints:             1,
		FailedLastStepCompletes:   true,
		MookOffLargest:            true,
		AllRollTieReroll:          true,
		BrawlTieToHolder:          true,
		GiveInPointToHolder:       true,
		Interferences:             1,
		BuyTimeCapped:             true,
		MaxTrouble:                100,
	}
}

// Validate reports the first field that is out of range, naming it.
func (r Rules) Validate() error {
	nonneg := []struct {
		name string
		v    int
	}{
		{"extra_die_cost", r.ExtraDieCost}, {"reuse_cost", r.ReuseCost},
		{"give_in_plot_points", r.GiveInPlotPoints}, {"free_traits", r.FreeTraits},
		{"trouble_off_on_win", r.TroubleOffOnWin}, {"trouble_off_on_extraordinary", r.TroubleOffOnExtraordinary},
		{"start_plot_points", r.StartPlotPoints}, {"reflection_on_loss", r.ReflectionOnLoss},
		{"rebuy_cost", r.RebuyCost},
		{"interfere_cost", r.InterfereCost}, {"continue_cost", r.ContinueCost},
		{"mook_off", r.MookOff}, {"mook_off_extraordinary", r.MookOffExtraordinary},
		{"beats_on_failure", r.BeatsOnFailure}, {"beats_on_extraordinary", r.BeatsOnExtraordinary},
		{"buy_time", r.BuyTime}, {"buy_time_extraordinary", r.BuyTimeExtraordinary},
		{"one_plot_points", r.OnePlotPoints}, {"interferences", r.Interferences},
	}
	for _, f := range nonneg {
		if f.v < 0 || f.v > 100 {
			return fmt.Errorf("contest: rules.%s = %d: must be 0..100", f.name, f.v)
		}
	}
	if r.Keep < 1 || r.Keep > 10 {
		return fmt.Errorf("contest: rules.keep = %d: must be 1..10", r.Keep)
	}
	if r.Extraordinary < 1 || r.Extraordinary > 100 {
		return fmt.Errorf("contest: rules.extraordinary = %d: must be 1..100", r.Extraordinary)
	}
	if r.PushBonus < 1 || r.PushBonus > 100 {
		return fmt.Errorf("contest: rules.push_bonus = %d: must be 1..100", r.PushBonus)
	}
	if r.BeatsPerRoll < 1 || r.BeatsPerRoll > 100 {
		return fmt.Errorf("contest: rules.beats_per_roll = %d: must be 1..100", r.BeatsPerRoll)
	}
	for _, f := range []struct {
		name string
		d    dice.Die
	}{
		{"give_in_complication", r.GiveInComplication}, {"knockout_trauma", r.KnockoutTrauma},
		{"trouble_die", r.TroubleDie}, {"empty_complication", r.EmptyComplication},
	} {
		if err := f.d.CheckLadder(); err != nil {
			return fmt.Errorf("contest: rules.%s: %w", f.name, err)
		}
	}
	if d := r.OutOfTimeComplication; d != dice.Gone {
		if err := d.CheckLadder(); err != nil {
			return fmt.Errorf("contest: rules.out_of_time_complication: %w (or 0: rated from the last stakes roll)", err)
		}
	}
	if r.MaxTrouble < 0 || r.MaxTrouble > maxDice {
		return fmt.Errorf("contest: rules.max_trouble = %d: must be 0..%d", r.MaxTrouble, maxDice)
	}
	if len(r.TroubleStart) > 50 {
		return fmt.Errorf("contest: rules.trouble_start has %d dice: at most 50", len(r.TroubleStart))
	}
	for i, d := range r.TroubleStart {
		if err := d.CheckLadder(); err != nil {
			return fmt.Errorf("contest: rules.trouble_start[%d]: %w", i, err)
		}
	}
	return nil
}
