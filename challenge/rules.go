package challenge

import (
	"fmt"

	"github.com/stakesrpg/stakes/dice"
)

// Limits on the shapes the engine keeps in fixed-size state. They bound
// memory, not the rules: a designer may change any number in Rules within
// them.
const (
	MaxStats   = 6  // stats on a character sheet
	MaxDice    = 4  // dice in one stat
	MaxMembers = 4  // characters rolling together on one side (a character and helpers)
	MaxSides   = 8  // sides in one conflict
	maxPool    = 32 // dice one side rolls: MaxMembers characters, two stats each

	maxBonusDice = 8 // advantage dice carried, or names crossed off at one comparison
)

// The stats and core endeavors of Art, Grace & Guts ("Action & Consequence"
// and the character sheet).
const (
	Art   = "art"
	Grace = "grace"
	Guts  = "guts"

	Asserting   = "asserting_myself"
	Defending   = "defending_myself"
	Enduring    = "enduring_duress"
	Exerting    = "exerting_myself"
	Influencing = "influencing_others"
)

// Rules holds every number and name the rule text or our rulings fix.
// maxTrialRolls bounds the rolls one conflict may take before it must
// end (Rules.Validate): about a tenth of a second of play, so that a
// simulation stops soon after it is asked to.
const maxTrialRolls = 1 << 19

// DefaultRules gives the game as written; change any field to try a house
// rule. Tags: [text] stated in the rule text, [src] from the original game's
// published material, [ours] our ruling where both are silent.
type Rules struct {
	// Stats names the stats on a character sheet, in sheet order. [src]
	// Art, Grace, Guts.
	Stats []string `json:"stats"`
	// DicePerStat is how many dice each stat holds on a standard
	// character; a stat may hold fewer after losses. [src] 2.
	DicePerStat int `json:"dice_per_stat"`
	// Allotment is the dice a standard character spreads across its stats,
	// each stat getting DicePerStat of them. [src] d12 d10 d8 d6 d6 d4.
	Allotment []dice.Die `json:"allotment"`
	// Endeavors are the core endeavors every standard character maps to a
	// stat; characters may add free-form endeavors of their own. [src]
	Endeavors []string `json:"endeavors"`
	// InjuryEndeavors are the endeavors whose stats an outright win
	// exhausts or injures. [src] exerting myself, enduring duress.
	InjuryEndeavors []string `json:"injury_endeavors"`
	// InjurySizes is how many die sizes exhaustion or injury takes. [text] 2.
	InjurySizes int `json:"injury_sizes"`
	// AdvantageDie is the die added to the high die by an advantage, and
	// rolled for an owe-list name crossed off. [text] d6.
	AdvantageDie dice.Die `json:"advantage_die"`
	// DoubleFactor: an answer is beaten outright when
	// DoubleFactor x answer <= challenge ("half or less"). [text] 2.
	DoubleFactor int `json:"double_factor"`
	// RecastTies: an initial cast whose two highest rolls truly tie is
	// rolled again. [ours] true. With false, the earlier-listed side
	// challenges.
	RecastTies bool `json:"recast_ties"`
	// MaxRecasts bounds recasts of one round before the earlier-listed
	// side challenges anyway, so a round always ends. [ours] 40: a tie
	// that many times running is below 1e-50 for the text's dice.
	MaxRecasts int `json:"max_recasts"`
	// MaxExchanges ends a conflict as a stalemate after this many
	// exchanges, so a run always terminates. [ours] 10000. Validate
	// keeps (MaxExchanges+1) x (MaxRecasts+1) + MaxExchanges, the most
	// rolls a conflict may take, within 2^19, and Scenario.Validate the
	// dice its conflict may roll (every side's at each of up to
	// MaxExchanges + sides rounds of MaxRecasts + 1 casts, and each
	// answer's) within 2^23.
	MaxExchanges int `json:"max_exchanges"`
	// ShortRollTies: a tie is broken only by the dice both rolls have, so
	// an extra die does not win it. [ours] false: a missing die counts 0
	// and an extra die wins a tie. The exact answers need false.
	ShortRollTies bool `json:"short_roll_ties,omitempty"`
	// OweOnEqualSides: a name goes on the owe list also when the
	// opponent's dice have as many sides in total as its own and the
	// side answered the pair's first exchange without being doubled.
	// [ours] false: only strictly more, the text's rule over its own
	// example; true follows the example, where Althesa's 18 sides against
	// Irin's 18 put Irin, who answered, on the list, and not Althesa.
	OweOnEqualSides bool `json:"owe_on_equal_sides,omitempty"`
	// OweWaitsForNextConflict: a name put on the owe list during a
	// conflict may be crossed off only in a later one. [ours] false: the
	// text sets no wait ("whenever you're comparing dice with an
	// opponent"), so it may be crossed off at the next comparison of the
	// same conflict, which nearly doubles a d4's odds against a d6 under
	// best play (0.153 to 0.287); true keeps the list for "the long-term
	// game".
	OweWaitsForNextConflict bool `json:"owe_waits_for_next_conflict,omitempty"`
	// CrossOffsPerComparison is how many names one side may cross off the
	// owe list at one comparison, each rolling an advantage die. [ours] 1.
	CrossOffsPerComparison int `json:"cross_offs_per_comparison"`
	// AdvantageDice is the most advantage dice a side carries into a
	// round: seizing the advantage again in the same round (possible with
	// more than two sides) adds dice up to this many. [ours] 1: they do
	// not stack.
	AdvantageDice int `json:"advantage_dice"`
	// TieEndsRound: with more than two sides, a true tie between
	// challenger and answerer starts a new round for everyone, as it does
	// with two ("We continue the conflict into a new round"). [ours]
	// false: it ends that pair's exchange and play goes on down the line.
	TieEndsRound bool `json:"tie_ends_round,omitempty"`
	// VulnerableToTarget: a declared specialization is cancelled only when
	// the side it acts against (its declared target) holds the
	// specialization it is vulnerable to. [ours] false: any other side's
	// sheet cancels it.
	VulnerableToTarget bool `json:"vulnerable_to_target,omitempty"`
	// EmptyStatReadsZero: a character whose stat for the endeavor holds
	// no dice stays in and reads 0 (any challenge doubles it). [ours]
	// false: a character who must roll an empty stat is out of the
	// conflict.
	EmptyStatReadsZero bool `json:"empty_stat_reads_zero,omitempty"`
	// GainCost is the die sizes a loser must lose in a settlement for each
	// specialization it gains there: a consequence takes things from a
	// sheet, and may give something only in exchange ("loses three Guts
	// and gains a specialization"). [ours] 1; 0 lets a gain come free.
	GainCost int `json:"gain_cost"`
	// D4Stays: a d4 has no size to lose, so losses step dice down to d4
	// and no further and a die is never gone. [ours] false: a d4 that
	// loses a size is gone.
	D4Stays bool `json:"d4_stays,omitempty"`
}

// DefaultRules returns the rules as the text and our rulings give them.
func DefaultRules() Rules {
	return Rules{
		Stats:           []string{Art, Grace, Guts},
		DicePerStat:     2,
		Allotment:       []dice.Die{dice.D12, dice.D10, dice.D8, dice.D6, dice.D6, dice.D4},
		Endeavors:       []string{Asserting, Defending, Enduring, Exerting, Influencing},
		InjuryEndeavors: []string{Exerting, Enduring},
		InjurySizes:     2,
		AdvantageDie:    dice.D6,
		DoubleFactor:    2,
		RecastTies:      true,
		MaxRecasts:      40,
		MaxExchanges:    10000,

		CrossOffsPerComparison: 1,
		AdvantageDice:          1,
		GainCost:               1,
	}
}

// MaxName bounds, in bytes, every name a scenario or a saved conflict
// holds (sides, characters, players, stats, endeavors, specializations,
// the owe list's entries), so that no name makes an error or a label long.
const MaxName = 100

// checkName refuses a name longer than MaxName, without quoting it.
func checkName(what, name string) error {
	if len(name) > MaxName {
		return fmt.Errorf("challenge: %s of %d bytes: a name is at most %d", what, len(name), MaxName)
	}
	return nil
}

// few lists at most five names, then how many more there are, so that an
// error naming what is allowed stays short.
func few(names []string) string {
	if len(names) <= 5 {
		return fmt.Sprintf("%q", names)
	}
	return fmt.Sprintf("%q and %d more", names[:5], len(names)-5)
}

// Validate reports the first field that is out of range.
func (r Rules) Validate() error {
	if len(r.Stats) == 0 || len(r.Stats) > MaxStats {
		return fmt.Errorf("challenge: rules.stats: %d stats; allowed 1..%d", len(r.Stats), MaxStats)
	}
	if len(r.Endeavors) > maxEndeavors || len(r.InjuryEndeavors) > maxEndeavors {
		return fmt.Errorf("challenge: rules.endeavors and rules.injury_endeavors: at most %d each", maxEndeavors)
	}
	for _, names := range [][]string{r.Stats, r.Endeavors, r.InjuryEndeavors} {
		for _, n := range names {
			if err := checkName("rules: a stat or endeavor name", n); err != nil {
				return err
			}
		}
	}
	for i, s := range r.Stats {
		if s == "" {
			return fmt.Errorf("challenge: rules.stats[%d] is empty", i)
		}
		for _, t := range r.Stats[:i] {
			if t == s {
				return fmt.Errorf("challenge: rules.stats: %q listed twice", s)
			}
		}
	}
	if r.DicePerStat < 1 || r.DicePerStat > MaxDice {
		return fmt.Errorf("challenge: rules.dice_per_stat %d: allowed 1..%d", r.DicePerStat, MaxDice)
	}
	if len(r.Allotment) != r.DicePerStat*len(r.Stats) {
		return fmt.Errorf("challenge: rules.allotment has %d dice; %d stats of %d dice need %d",
			len(r.Allotment), len(r.Stats), r.DicePerStat, r.DicePerStat*len(r.Stats))
	}
	for i, d := range r.Allotment {
		if err := d.CheckLadder(); err != nil {
			return fmt.Errorf("challenge: rules.allotment[%d]: %w", i, err)
		}
	}
	for i, e := range r.Endeavors {
		if e == "" {
			return fmt.Errorf("challenge: rules.endeavors[%d] is empty", i)
		}
	}
	if len(r.InjuryEndeavors) == 0 {
		return fmt.Errorf("challenge: rules.injury_endeavors is empty: name the endeavors whose stats injury takes from")
	}
	for i, e := range r.InjuryEndeavors {
		if !r.coreEndeavor(e) {
			return fmt.Errorf("challenge: rules.injury_endeavors[%d] %q is not a core endeavor %s", i, e, few(r.Endeavors))
		}
	}
	if r.InjurySizes < 0 || r.InjurySizes > 5*MaxDice {
		return fmt.Errorf("challenge: rules.injury_sizes %d: allowed 0..%d", r.InjurySizes, 5*MaxDice)
	}
	if !r.AdvantageDie.Valid() || r.AdvantageDie > 100 {
		return fmt.Errorf("challenge: rules.advantage_die %v: allowed d2..d100", r.AdvantageDie)
	}
	if r.DoubleFactor < 1 || r.DoubleFactor > 100 {
		return fmt.Errorf("challenge: rules.double_factor %d: allowed 1..100", r.DoubleFactor)
	}
	if r.MaxRecasts < 0 || r.MaxRecasts > 1_000_000 {
		return fmt.Errorf("challenge: rules.max_recasts %d: allowed 0..1000000", r.MaxRecasts)
	}
	if r.MaxExchanges < 1 || r.MaxExchanges > 100_000_000 {
		return fmt.Errorf("challenge: rules.max_exchanges %d: allowed 1..100000000", r.MaxExchanges)
	}
	// Each of up to MaxExchanges+1 rounds may recast MaxRecasts times
	// (two sides that read nothing always tie), so a trial's rolls are
	// bounded by this product; past maxTrialRolls a trial could run for
	// long enough that a simulation would not stop when asked.
	if rolls := (r.MaxExchanges+1)*(r.MaxRecasts+1) + r.MaxExchanges; rolls > maxTrialRolls {
		return fmt.Errorf("challenge: rules.max_exchanges %d with rules.max_recasts %d: a conflict may take %d rolls before it must end; allowed at most %d (lower either)",
			r.MaxExchanges, r.MaxRecasts, rolls, maxTrialRolls)
	}
	if r.CrossOffsPerComparison < 0 || r.CrossOffsPerComparison > maxBonusDice {
		return fmt.Errorf("challenge: rules.cross_offs_per_comparison %d: allowed 0..%d", r.CrossOffsPerComparison, maxBonusDice)
	}
	if r.GainCost < 0 || r.GainCost > 5*MaxDice*MaxStats {
		return fmt.Errorf("challenge: rules.gain_cost %d: allowed 0..%d", r.GainCost, 5*MaxDice*MaxStats)
	}
	if r.AdvantageDice < 0 || r.AdvantageDice > maxBonusDice {
		return fmt.Errorf("challenge: rules.advantage_dice %d: allowed 0..%d", r.AdvantageDice, maxBonusDice)
	}
	return nil
}

// sizes returns how many sizes die d can lose: its rung on the ladder
// (d4 1 ... d12 5), one fewer when Rules.D4Stays.
func (r *Rules) sizes(d dice.Die) int {
	if n := rung(d); r.D4Stays && n > 0 {
		return n - 1
	}
	return rung(d)
}

// statSizes returns how many sizes stat s can lose in all.
func (r *Rules) statSizes(s *Stat) int {
	t := 0
	for _, d := range s {
		if d == dice.Gone {
			break // a stat holds its dice first, then Gone
		}
		t += r.sizes(d)
	}
	return t
}

func (r *Rules) coreEndeavor(e string) bool {
	for _, c := range r.Endeavors {
		if c == e {
			return true
		}
	}
	return false
}

// statIndex returns the position of stat name in r.Stats, or -1.
func (r *Rules) statIndex(name string) int {
	for i, s := range r.Stats {
		if s == name {
			return i
		}
	}
	return -1
}
