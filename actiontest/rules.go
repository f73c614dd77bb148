package actiontest

import (
	"errors"
	"fmt"

	"github.com/stakesrpg/stakes/named"
)

// Attribute is one of a character's five core ratings. Harm names the harm
// track a test with this Attribute naturally risks ("Pushing the Roll": a
// Strength or Dexterity action usually costs Physical harm, an Intuition,
// Reason or Presence action Mental harm).
type Attribute struct {
	Name string `json:"name"`
	Harm string `json:"harm"`
}

// ActionDef names an Action and the Attribute it is linked to.
type ActionDef struct {
	Name      string `json:"name"`
	Attribute string `json:"attribute"`
}

// HarmRow is one row of a harm track: the harm Level it holds, how many
// slots it has, the dice each filled slot costs, and whether a filled slot
// stops the character acting unless helped or pushing.
type HarmRow struct {
	Name          string `json:"name"`
	Slots         int    `json:"slots"`
	Penalty       int    `json:"penalty"`
	Incapacitates bool   `json:"incapacitates"`
}

// SpaceRule says when a character has "no space to take a Level 1 Harm" and
// so cannot push.
type SpaceRule string

const (
	// SpaceTrack forbids a push only when a Level 1 harm would overflow the
	// whole track into a critical injury (the default ruling).
	SpaceTrack SpaceRule = "track"
	// SpaceBottomRow forbids a push as soon as the Level 1 row is full
	// (the stricter reading).
	SpaceBottomRow SpaceRule = "bottom_row"
)

// Band is where a roll's successes fall against the requirement.
type Band int

const (
	// BandMultiple means more successes than required.
	BandMultiple Band = iota
	// BandSuccess means exactly the successes required.
	BandSuccess
	// BandFailure means fewer successes than required.
	BandFailure
)

var bandNames = named.Enum[Band]{"multiple", "success", "failure"}

// String returns "multiple", "success" or "failure".
func (b Band) String() string { return bandNames.String(b) }

// MarshalText writes the band's name.
func (b Band) MarshalText() ([]byte, error) { return bandNames.Marshal(b) }

// UnmarshalText reads a band name.
func (b *Band) UnmarshalText(text []byte) error { return bandNames.Unmarshal(text, b) }

// Kind is the headline of an outcome-table cell.
type Kind int

const (
	// SuccessBonus is "success with a bonus".
	SuccessBonus Kind = iota
	// Success is a plain success.
	Success
	// SuccessConsequence is "success with a consequence".
	SuccessConsequence
	// Badly is "things go badly".
	Badly
	// Worst is "the worst outcome".
	Worst
	// Neither is an opposed roll's tie: "you have neither succeeded nor
	// failed".
	Neither
	numKinds
)

var kindNames = named.Enum[Kind]{"success_with_bonus", "success", "success_with_consequence", "things_go_badly", "worst_outcome", "neither"}

// Kinds returns the outcome kind names in Kind order.
func Kinds() []string { return append([]string(nil), kindNames...) }

// String returns the kind's snake_case name.
func (k Kind) String() string { return kindNames.String(k) }

// MarshalText writes the kind's name.
func (k Kind) MarshalText() ([]byte, error) { return kindNames.Marshal(k) }

// UnmarshalText reads a kind name.
func (k *Kind) UnmarshalText(b []byte) error { return kindNames.Unmarshal(b, k) }

// Severity grades a consequence: minor, moderate or severe.
type Severity string

// Severities used by the default table.
const (
	NoSeverity Severity = ""
	Minor      Severity = "minor"
	Moderate   Severity = "moderate"
	Severe     Severity = "severe"
)

// ConsequenceKind is one of the text's types of consequences.
type ConsequenceKind string

// The text's four types of consequences.
const (
	Complication    ConsequenceKind = "complication"
	LostOpportunity ConsequenceKind = "lost_opportunity"
	WorsePosition   ConsequenceKind = "worse_position"
	Harm            ConsequenceKind = "harm"
)

// Consequence is one consequence of an outcome. Serious marks a serious
// complication; Level is the harm level of a Harm consequence.
type Consequence struct {
	Kind    ConsequenceKind `json:"kind"`
	Serious bool            `json:"serious,omitempty"`
	Level   int             `json:"level,omitempty"`
}

// Outcome is one cell of the position x outcome table.
type Outcome struct {
	Kind Kind `json:"kind"`
	// Succeeded says whether the character gets what they were after.
	Succeeded bool `json:"succeeded"`
	// NextBonus is dice carried to the character's next roll ("+1 to your
	// next roll").
	NextBonus    int           `json:"next_bonus,omitempty"`
	Severity     Severity      `json:"severity,omitempty"`
	Consequences []Consequence `json:"consequences,omitempty"`
}

// Position is where a test stands, by name: an entry of Rules.Positions,
// which lists them best first, so a later entry is a worse position. The
// zero Position, "", is the rules' DefaultPosition ("Usually, Risky is the
// default"), which a test begun records resolved. A Position writes as its
// name in JSON, and the steps and State.Check refuse a name the rules do
// not list. The default rules name Controlled, Risky and Desperate.
type Position string

// The default positions.
const (
	DefaultPosition Position = ""
	Controlled      Position = "controlled"
	Risky           Position = "risky"
	Desperate       Position = "desperate"
)

// Rules holds every number and table of an action test. DefaultRules gives
// the published values; designers may change any field, and Validate says what
// is wrong with a changed set. Each field's comment marks its default as
// [text] (the rule text), [src] (the original game's material) or [ours]
// (our ruling where both are silent). Every list is bounded, and Validate
// counts each before it reads one: at most 200 attributes, actions, harm
// tracks, positions (and table rows), and Actions named by one effect; at
// most 8 harm rows, 64 effects and 16 consequences in one outcome; every
// name at most 64 bytes.
type Rules struct {
	// Attributes are the five core ratings [src]: Strength, Dexterity
	// (Physical harm), Intuition, Reason, Presence (Mental harm) [text].
	Attributes []Attribute `json:"attributes"`
	// Actions are the thirteen Actions and their Attributes: thirteen,
	// each linked to one Attribute [src]; the names and links below are
	// ours, stand-ins a designer replaces with the game's own list [ours].
	Actions []ActionDef `json:"actions"`
	// MaxRating is the highest Action or Attribute rating, 5 [src].
	MaxRating int `json:"max_rating"`
	// Sides is the die size, 6 [text]; SuccessFace the lowest face that
	// counts as a success, 6 [text].
	Sides       int `json:"sides"`
	SuccessFace int `json:"success_face"`
	// MinDice is the fewest dice ever rolled, 1 [src].
	MinDice int `json:"min_dice"`
	// HelpDice per helper, 1, at most MaxHelp, 3 [text].
	HelpDice int `json:"help_dice"`
	MaxHelp  int `json:"max_help"`
	// MaxEquipment is the largest equipment bonus, 3 [text].
	MaxEquipment int `json:"max_equipment"`
	// PerilDice is the bonus for risking peril, 3 [text]. MinPerilHarm is
	// the least harm level a Risk Peril deal may cost when its price is
	// harm: "Suffer Harm (Moderate or greater)", 2 [text].
	PerilDice    int `json:"peril_dice"`
	MinPerilHarm int `json:"min_peril_harm"`
	// PushDice is the bonus on a push re-roll, 2 [text]; PushHarm the harm
	// level a push costs, 1 [text].
	PushDice int `json:"push_dice"`
	PushHarm int `json:"push_harm"`
	// PushSpace is when a push is refused for lack of harm space: "track"
	// by default [ours], "bottom_row" the stricter reading.
	PushSpace SpaceRule `json:"push_space"`
	// RetryMayPush lets the re-roll after a Worse Position consequence be
	// pushed though the action's first roll was: false, a push is "once
	// per action" and the re-roll is the same action [text].
	RetryMayPush bool `json:"retry_may_push,omitempty"`
	// PushHarmShrinks makes the push's own harm cost the re-roll its
	// penalty dice: false, the pool was counted before the roll and the
	// re-roll is every non-six plus PushDice [ours].
	PushHarmShrinks bool `json:"push_harm_shrinks,omitempty"`
	// FlashbacksPerDay, 1 [text]; FlashbackBonus, the dice a successful
	// flashback adds to the next test, 1 [ours] (the text says only that it
	// may add dice). A flashback's difficulty is 0 or more, 3 "or more"
	// being an elaborate one [text].
	FlashbacksPerDay int `json:"flashbacks_per_day"`
	FlashbackBonus   int `json:"flashback_bonus"`
	// ZeroFlashbackRolls makes a flashback of difficulty 0 roll like any
	// test (and, needing no success, never fail): false, it calls for no
	// roll at all and succeeds [ours, from "sometimes a flashback won't
	// call for a roll at all because of the Level of Difficulty"].
	ZeroFlashbackRolls bool `json:"zero_flashback_rolls,omitempty"`
	// MultipleOver is how many successes beyond the requirement make the
	// "multiple successes" row of the outcome table: 1, any more than
	// required [ours]; the text's "extra successes" are always the
	// successes beyond the requirement.
	MultipleOver int `json:"multiple_over"`
	// HarmTracks are the harm types, Physical and Mental [src].
	HarmTracks []string `json:"harm_tracks"`
	// HarmRows are the rows of every track, lowest level first: Lesser
	// (level 1), Moderate (2), Severe (3) [src]; 2/2/1 slots, -1/-2 dice a
	// slot, a Severe harm incapacitates [ours, as in Blades in the Dark].
	HarmRows []HarmRow `json:"harm_rows"`
	// Positions names the positions, best first: Controlled, Risky,
	// Desperate [text]. DefaultPosition is the position of a test that
	// names none (Position ""): Risky [text].
	Positions       []string `json:"positions"`
	DefaultPosition Position `json:"default_position"`
	// Table gives, for each position, in Positions order and naming it,
	// the outcome of multiple successes, of exactly the required successes,
	// and of a failure [text]. The consequence of a Desperate success,
	// which the text leaves open, is a complication [ours]; harm levels
	// follow minor/moderate/severe = 1/2/3 [ours].
	Table []TableRow `json:"table"`
	// Opposed gives the outcomes of an opposed roll ("Opposed Rolls"): the
	// side with the most successes prevails and the other does not [text];
	// a tie between player characters means neither succeeds nor fails
	// [text]; a tie against an NPC is "You get what you want, but something
	// goes wrong": a success with a complication [text]. A loss loses the
	// opportunity: the other side prevailed [ours]. No harm follows by
	// default [ours].
	Opposed OpposedTable `json:"opposed"`
	// Effects are what extra successes can buy, one success each [text]:
	// see DefaultEffects for the defaults and their sources.
	Effects []Effect `json:"effects,omitempty"`
}

// TableRow is one position's row of the outcome table ("Position and
// Outcome"): what multiple successes, exactly the successes required, and
// a failure bring at that position.
type TableRow struct {
	Position Position `json:"position"`
	Multiple Outcome  `json:"multiple"`
	Success  Outcome  `json:"success"`
	Failure  Outcome  `json:"failure"`
}

// Cell returns the row's outcome for band b (nil for a band that is none).
func (r *TableRow) Cell(b Band) *Outcome {
	switch b {
	case BandMultiple:
		return &r.Multiple
	case BandSuccess:
		return &r.Success
	case BandFailure:
		return &r.Failure
	}
	return nil
}

// OpposedTable is the outcome of an opposed roll for the side that wins,
// ties a player character, ties an NPC, or loses.
type OpposedTable struct {
	Win    Outcome `json:"win"`
	Tie    Outcome `json:"tie"`
	TieNPC Outcome `json:"tie_npc"`
	Lose   Outcome `json:"lose"`
}

// DefaultRules returns the rules of Einfelst Wilds' "Action Tests" chapter
// with our rulings where it is silent.
func DefaultRules() Rules {
	return Rules{
		Attributes: []Attribute{
			{"Strength", "physical"}, {"Dexterity", "physical"},
			{"Intuition", "mental"}, {"Reason", "mental"}, {"Presence", "mental"},
		},
		Actions: []ActionDef{
			{"Athletics", "Strength"}, {"Force", "Strength"}, {"Survival", "Strength"},
			{"Finesse", "Dexterity"}, {"Prowl", "Dexterity"}, {"Shoot", "Dexterity"},
			{"Notice", "Intuition"}, {"Insight", "Intuition"}, {"Tinker", "Reason"},
			{"Study", "Reason"}, {"Lore", "Reason"}, {"Persuade", "Presence"}, {"Command", "Presence"},
		},
		MaxRating:        5,
		Sides:            6,
		SuccessFace:      6,
		MinDice:          1,
		HelpDice:         1,
		MaxHelp:          3,
		MaxEquipment:     3,
		PerilDice:        3,
		PushDice:         2,
		PushHarm:         1,
		PushSpace:        SpaceTrack,
		FlashbacksPerDay: 1,
		FlashbackBonus:   1,
		MultipleOver:     1,
		MinPerilHarm:     2,
		HarmTracks:       []string{"physical", "mental"},
		HarmRows: []HarmRow{
			{Name: "lesser", Slots: 2, Penalty: 1},
			{Name: "moderate", Slots: 2, Penalty: 2},
			{Name: "severe", Slots: 1, Incapacitates: true},
		},
		Positions:       []string{"controlled", "risky", "desperate"},
		DefaultPosition: Risky,
		Effects:         DefaultEffects(),
		Opposed: OpposedTable{
			Win:    Outcome{Kind: Success, Succeeded: true},
			Tie:    Outcome{Kind: Neither},
			TieNPC: Outcome{Kind: SuccessConsequence, Succeeded: true, Consequences: []Consequence{{Kind: Complication}}},
			Lose:   Outcome{Kind: Badly, Consequences: []Consequence{{Kind: LostOpportunity}}},
		},
		Table: []TableRow{
			{Position: Controlled,
				Multiple: Outcome{Kind: SuccessBonus, Succeeded: true},
				Success:  Outcome{Kind: SuccessBonus, Succeeded: true, NextBonus: 1},
				Failure: Outcome{Kind: SuccessConsequence, Succeeded: true, Severity: Minor, Consequences: []Consequence{
					{Kind: Complication}, {Kind: Harm, Level: 1}}},
			},
			{Position: Risky,
				Multiple: Outcome{Kind: SuccessBonus, Succeeded: true},
				Success:  Outcome{Kind: Success, Succeeded: true},
				Failure: Outcome{Kind: Badly, Severity: Moderate, Consequences: []Consequence{
					{Kind: Complication}, {Kind: Harm, Level: 2}, {Kind: LostOpportunity}}},
			},
			{Position: Desperate,
				Multiple: Outcome{Kind: Success, Succeeded: true},
				Success: Outcome{Kind: SuccessConsequence, Succeeded: true, Severity: Moderate, Consequences: []Consequence{
					{Kind: Complication}}},
				Failure: Outcome{Kind: Worst, Severity: Severe, Consequences: []Consequence{
					{Kind: Complication, Serious: true}, {Kind: Harm, Level: 3}, {Kind: LostOpportunity}}},
			},
		},
	}
}

// ErrRules is wrapped by every error about an invalid Rules value.
var ErrRules = errors.New("actiontest: invalid rules")

func rulesErr(format string, a ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrRules}, a...)...)
}

// maxDice bounds every pool so buffers can be sized once.
const maxDice = 256

// maxList bounds every list of the rules and the sheet (attributes,
// actions, tracks, positions, equipment, an effect's actions), and
// maxName every name in them, so that a rules value read from a file
// costs little to check and its errors stay short.
const (
	maxList     = 200
	maxName     = 64
	maxHarmRows = 8
)

// Validate reports the first problem with the rules, naming the field.
func (rl *Rules) Validate() error {
	if err := rl.checkSizes(); err != nil {
		return err
	}
	if len(rl.Attributes) == 0 {
		return rulesErr("attributes: need at least one")
	}
	if len(rl.HarmTracks) == 0 {
		return rulesErr("harm_tracks: need at least one")
	}
	seen := map[string]bool{}
	for i, t := range rl.HarmTracks {
		if t == "" || seen[t] {
			return rulesErr("harm_tracks[%d]: %.40q is empty or repeated", i, t)
		}
		seen[t] = true
	}
	seenA := map[string]bool{}
	for i, a := range rl.Attributes {
		if a.Name == "" || seenA[a.Name] {
			return rulesErr("attributes[%d]: name %.40q is empty or repeated", i, a.Name)
		}
		if !seen[a.Harm] {
			return rulesErr("attributes[%d].harm: %.40q is not a harm track (allowed: %s)", i, a.Harm, named.Allowed(rl.HarmTracks))
		}
		seenA[a.Name] = true
	}
	if len(rl.Actions) == 0 {
		return rulesErr("actions: need at least one")
	}
	seenX := map[string]bool{}
	for i, x := range rl.Actions {
		if x.Name == "" || seenX[x.Name] || seenA[x.Name] {
			return rulesErr("actions[%d]: name %.40q is empty, repeated or also an attribute", i, x.Name)
		}
		if !seenA[x.Attribute] {
			return rulesErr("actions[%d].attribute: %.40q is not an attribute", i, x.Attribute)
		}
		seenX[x.Name] = true
	}
	switch {
	case rl.MaxRating < 0 || rl.MaxRating > 50:
		return rulesErr("max_rating %d: must be 0..50", rl.MaxRating)
	case rl.Sides < 2 || rl.Sides > 100:
		return rulesErr("sides %d: must be 2..100", rl.Sides)
	case rl.SuccessFace < 1 || rl.SuccessFace > rl.Sides:
		return rulesErr("success_face %d: must be 1..sides (%d)", rl.SuccessFace, rl.Sides)
	case rl.MinDice < 0 || rl.MinDice > 20:
		return rulesErr("min_dice %d: must be 0..20", rl.MinDice)
	case rl.HelpDice < 0 || rl.MaxHelp < 0 || rl.MaxHelp > 20:
		return rulesErr("help_dice %d / max_help %d: must be >= 0 and max_help <= 20", rl.HelpDice, rl.MaxHelp)
	case rl.MaxEquipment < 0 || rl.MaxEquipment > 20:
		return rulesErr("max_equipment %d: must be 0..20", rl.MaxEquipment)
	case rl.PerilDice < 0 || rl.PerilDice > 20:
		return rulesErr("peril_dice %d: must be 0..20", rl.PerilDice)
	case rl.MinPerilHarm < 1 || rl.MinPerilHarm > len(rl.HarmRows):
		return rulesErr("min_peril_harm %d: must be a harm level 1..%d", rl.MinPerilHarm, len(rl.HarmRows))
	case rl.PushDice < 0 || rl.PushDice > 20:
		return rulesErr("push_dice %d: must be 0..20", rl.PushDice)
	case rl.PushHarm < 1 || rl.PushHarm > len(rl.HarmRows):
		return rulesErr("push_harm %d: must be a harm level 1..%d", rl.PushHarm, len(rl.HarmRows))
	case rl.PushSpace != SpaceTrack && rl.PushSpace != SpaceBottomRow:
		return rulesErr("push_space %.40q: must be %.40q or %.40q", rl.PushSpace, SpaceTrack, SpaceBottomRow)
	case rl.FlashbacksPerDay < 0 || rl.FlashbacksPerDay > 100:
		return rulesErr("flashbacks_per_day %d: must be 0..100", rl.FlashbacksPerDay)
	case rl.MultipleOver < 1 || rl.MultipleOver > 20:
		return rulesErr("multiple_over %d: must be 1..20", rl.MultipleOver)
	case rl.FlashbackBonus < 0 || rl.FlashbackBonus > 20:
		return rulesErr("flashback_bonus %d: must be 0..20", rl.FlashbackBonus)
	case len(rl.HarmRows) == 0:
		return rulesErr("harm_rows: need 1..%d rows, have none", maxHarmRows)
	case len(rl.Positions) == 0:
		return rulesErr("positions: need at least one")
	case len(rl.Table) != len(rl.Positions):
		return rulesErr("table: has %d rows, need one per position (%d)", len(rl.Table), len(rl.Positions))
	case rl.positionAt(rl.DefaultPosition) < 0:
		return rulesErr("default_position %.40q: must name a position (allowed: %s)", rl.DefaultPosition, named.Allowed(rl.Positions))
	}
	if err := checkEffects(rl); err != nil {
		return err
	}
	for i, r := range rl.HarmRows {
		if r.Slots < 1 || r.Slots > 20 || r.Penalty < 0 || r.Penalty > 20 {
			return rulesErr("harm_rows[%d]: slots %d must be 1..20 and penalty %d 0..20", i, r.Slots, r.Penalty)
		}
		if r.Name == "" || rl.rowAt(r.Name) != i {
			return rulesErr("harm_rows[%d]: name %.40q is empty or repeated; saved harm names its row", i, r.Name)
		}
	}
	for i, p := range rl.Positions {
		if p == "" {
			return rulesErr("positions[%d]: empty name", i)
		}
		for j := range i {
			if rl.Positions[j] == p {
				return rulesErr("positions[%d]: %.40q repeated", i, p)
			}
		}
	}
	for i := range rl.Table {
		row := &rl.Table[i]
		if row.Position != Position(rl.Positions[i]) {
			return rulesErr("table[%d]: position %.40q, but positions[%d] is %.40q; the rows follow the positions' order", i, row.Position, i, rl.Positions[i])
		}
		for b := BandMultiple; b <= BandFailure; b++ {
			if err := checkOutcome(rl, row.Cell(b)); err != nil {
				return rulesErr("table[%d].%s (%s): %v", i, b, row.Position, err)
			}
		}
	}
	for name, o := range map[string]*Outcome{"win": &rl.Opposed.Win, "tie": &rl.Opposed.Tie, "tie_npc": &rl.Opposed.TieNPC, "lose": &rl.Opposed.Lose} {
		if err := checkOutcome(rl, o); err != nil {
			return rulesErr("opposed.%s: %v", name, err)
		}
	}
	return nil
}

// checkSizes bounds every list of the rules and every name in them, before
// anything walks them (see maxList and maxName).
func (rl *Rules) checkSizes() error {
	for _, l := range [...]struct {
		field  string
		n, max int
	}{
		{"attributes", len(rl.Attributes), maxList}, {"actions", len(rl.Actions), maxList},
		{"harm_tracks", len(rl.HarmTracks), maxList}, {"positions", len(rl.Positions), maxList},
		{"table", len(rl.Table), maxList}, {"harm_rows", len(rl.HarmRows), maxHarmRows},
		{"effects", len(rl.Effects), maxEffects},
	} {
		if l.n > l.max {
			return rulesErr("%s: %d entries, at most %d", l.field, l.n, l.max)
		}
	}
	names := make([]string, 0, 2*len(rl.Attributes)+2*len(rl.Actions)+len(rl.HarmTracks)+len(rl.Positions)+len(rl.HarmRows)+len(rl.Effects))
	for _, a := range rl.Attributes {
		names = append(names, a.Name, a.Harm)
	}
	for _, a := range rl.Actions {
		names = append(names, a.Name, a.Attribute)
	}
	for _, r := range rl.HarmRows {
		names = append(names, r.Name)
	}
	for _, e := range rl.Effects {
		names = append(names, e.Name)
		if len(e.Actions) > maxList {
			return rulesErr("effects (%.40s): %d actions, at most %d", e.Name, len(e.Actions), maxList)
		}
	}
	names = append(append(names, rl.HarmTracks...), rl.Positions...)
	for _, n := range names {
		if len(n) > maxName {
			return rulesErr("a name of %d bytes (%.40q...), at most %d", len(n), n, maxName)
		}
	}
	for i := range rl.Table {
		for b := BandMultiple; b <= BandFailure; b++ {
			if n := len(rl.Table[i].Cell(b).Consequences); n > maxConsequences {
				return rulesErr("table[%d].%s: %d consequences, at most %d", i, b, n, maxConsequences)
			}
		}
	}
	for _, o := range []*Outcome{&rl.Opposed.Win, &rl.Opposed.Tie, &rl.Opposed.TieNPC, &rl.Opposed.Lose} {
		if len(o.Consequences) > maxConsequences {
			return rulesErr("opposed: %d consequences, at most %d", len(o.Consequences), maxConsequences)
		}
	}
	return nil
}

// maxConsequences bounds the consequences of one outcome.
const maxConsequences = 16

// checkOutcome says what is wrong with one outcome-table cell.
func checkOutcome(rl *Rules, o *Outcome) error {
	if len(o.Consequences) > maxConsequences {
		return fmt.Errorf("%d consequences, at most %d", len(o.Consequences), maxConsequences)
	}
	if o.Kind < 0 || o.Kind >= numKinds {
		return fmt.Errorf("unknown kind %d", int(o.Kind))
	}
	if o.NextBonus < 0 || o.NextBonus > 20 {
		return fmt.Errorf("next_bonus %d must be 0..20", o.NextBonus)
	}
	switch o.Severity {
	case NoSeverity, Minor, Moderate, Severe:
	default:
		return fmt.Errorf("severity %.40q (allowed: minor, moderate, severe or empty)", o.Severity)
	}
	for k, c := range o.Consequences {
		switch c.Kind {
		case Complication, LostOpportunity, WorsePosition:
		case Harm:
			if c.Level < 1 || c.Level > len(rl.HarmRows) {
				return fmt.Errorf("consequences[%d]: harm level %d must be 1..%d", k, c.Level, len(rl.HarmRows))
			}
		default:
			return fmt.Errorf("consequences[%d]: unknown kind %.40q (allowed: complication, lost_opportunity, worse_position, harm)", k, c.Kind)
		}
	}
	return nil
}

// Subject resolves what a test rolls ("Action Tests": a character may use
// any Action, and for something no Action covers rolls the relevant
// Attribute alone): the named Action and its Attribute, or, when name is
// an Attribute, act -1 and that Attribute.
func (rl *Rules) Subject(name string) (act, attr int, err error) {
	if act, err = rl.ActionIndex(name); err == nil {
		attr, err = rl.AttributeIndex(rl.Actions[act].Attribute)
		return act, attr, err
	}
	if attr, err = rl.AttributeIndex(name); err == nil {
		return -1, attr, nil
	}
	return 0, 0, fmt.Errorf("actiontest: %.40q is neither an Action (%s) nor an Attribute", name, named.Allowed(rl.actionNames()))
}

// ActionIndex returns the index of the named Action, or an error listing the
// Actions.
func (rl *Rules) ActionIndex(name string) (int, error) {
	for i, a := range rl.Actions {
		if a.Name == name {
			return i, nil
		}
	}
	return 0, fmt.Errorf("actiontest: unknown action %.40q (allowed: %s)", name, named.Allowed(rl.actionNames()))
}

func (rl *Rules) actionNames() []string {
	out := make([]string, len(rl.Actions))
	for i, a := range rl.Actions {
		out[i] = a.Name
	}
	return out
}

// AttributeIndex returns the index of the named Attribute.
func (rl *Rules) AttributeIndex(name string) (int, error) {
	for i, a := range rl.Attributes {
		if a.Name == name {
			return i, nil
		}
	}
	names := make([]string, len(rl.Attributes))
	for i, a := range rl.Attributes {
		names[i] = a.Name
	}
	return 0, fmt.Errorf("actiontest: unknown attribute %.40q (allowed: %s)", name, named.Allowed(names))
}

// TrackIndex returns the index of the named harm track.
func (rl *Rules) TrackIndex(name string) (int, error) {
	for i, t := range rl.HarmTracks {
		if t == name {
			return i, nil
		}
	}
	return 0, fmt.Errorf("actiontest: unknown harm track %.40q (allowed: %s)", name, named.Allowed(rl.HarmTracks))
}

// position resolves p: the rules' DefaultPosition for "", else p.
func (rl *Rules) position(p Position) Position {
	if p == DefaultPosition {
		return rl.DefaultPosition
	}
	return p
}

// positionAt returns the index of the position named p in Rules.Positions,
// -1 when the rules list no such position ("" included).
func (rl *Rules) positionAt(p Position) int {
	for i, name := range rl.Positions {
		if Position(name) == p {
			return i
		}
	}
	return -1
}

// actionAt returns the index of the Action named name, -1 if none.
func (rl *Rules) actionAt(name string) int {
	for i, a := range rl.Actions {
		if a.Name == name {
			return i
		}
	}
	return -1
}

// attributeAt returns the index of the Attribute named name, -1 if none.
func (rl *Rules) attributeAt(name string) int {
	for i, a := range rl.Attributes {
		if a.Name == name {
			return i
		}
	}
	return -1
}

// trackAt returns the index of the harm track named name, -1 if none.
func (rl *Rules) trackAt(name string) int {
	for i, t := range rl.HarmTracks {
		if t == name {
			return i
		}
	}
	return -1
}

// rowAt returns the index of the harm row named name, -1 if none.
func (rl *Rules) rowAt(name string) int {
	for i, r := range rl.HarmRows {
		if r.Name == name {
			return i
		}
	}
	return -1
}

// PositionIndex returns where p stands in Rules.Positions (0 the best), ""
// meaning the rules' DefaultPosition, or an error listing the positions.
func (rl *Rules) PositionIndex(p Position) (int, error) {
	if i := rl.positionAt(rl.position(p)); i >= 0 {
		return i, nil
	}
	return 0, rl.unknownPosition(p)
}

// unknownPosition says that p names no position of the rules.
func (rl *Rules) unknownPosition(p Position) error {
	return fmt.Errorf("actiontest: unknown position %.40q (allowed: %s, or \"\" for the default, %.40q)",
		p, named.Allowed(rl.Positions), rl.DefaultPosition)
}

// Worse returns the position one worse than p ("" meaning the default),
// as a Worse Position consequence sets it, or an error when p is the worst
// position or names none.
func (rl *Rules) Worse(p Position) (Position, error) {
	i, err := rl.PositionIndex(p)
	if err != nil {
		return "", err
	}
	if i+1 >= len(rl.Positions) {
		return "", fmt.Errorf("actiontest: %.40q is the worst position; none is worse", rl.position(p))
	}
	return Position(rl.Positions[i+1]), nil
}

// BandOf places successes against the required number: MultipleOver or
// more beyond it is BandMultiple, at least the requirement BandSuccess,
// fewer BandFailure [ours].
func (rl *Rules) BandOf(successes, required int) Band {
	switch {
	case successes >= required+rl.MultipleOver:
		return BandMultiple
	case successes >= required:
		return BandSuccess
	}
	return BandFailure
}
