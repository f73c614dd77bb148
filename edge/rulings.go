package edge

import (
	"fmt"

	"github.com/stakesrpg/stakes/named"
)

// The rulings where the text is silent, each a setting of Rules whose zero
// value is the default. Each reads and writes as its name.

// TieBreak says how two checks with equal totals rank, in the exchange of
// dice, for the initiative and in the starting checks.
type TieBreak int

const (
	// ByModifier ranks the check with the higher total modifier higher;
	// equal modifiers too rank level, and no die moves between level
	// checks (never a reroll, so a round always ends). The default [ours].
	ByModifier TieBreak = iota
	// Level ranks equal totals level.
	Level
)

var tieBreakNames = named.Enum[TieBreak]{"modifier", "level"}

func (t TieBreak) String() string                { return tieBreakNames.String(t) }
func (t TieBreak) MarshalText() ([]byte, error)  { return tieBreakNames.Marshal(t) }
func (t *TieBreak) UnmarshalText(b []byte) error { return tieBreakNames.Unmarshal(b, t) }

// InitiativeTie says who takes the initiative when checks of several
// parties rank level at the top of a round.
type InitiativeTie int

const (
	// HolderKeeps: the party holding the initiative keeps it; between
	// others, the one earlier in the order of action takes it. The
	// default [ours].
	HolderKeeps InitiativeTie = iota
	// EarlierInOrder: the party earlier in the order of action takes it,
	// holder or not.
	EarlierInOrder
)

var initiativeTieNames = named.Enum[InitiativeTie]{"holder_keeps", "earlier_in_order"}

func (t InitiativeTie) String() string                { return initiativeTieNames.String(t) }
func (t InitiativeTie) MarshalText() ([]byte, error)  { return initiativeTieNames.Marshal(t) }
func (t *InitiativeTie) UnmarshalText(b []byte) error { return initiativeTieNames.Unmarshal(b, t) }

// PassiveStake says how many dice a passive party stakes when targeted.
type PassiveStake int

const (
	// PerCheck: one die against each check made against it, as far as its
	// pool goes, its members taking turns. The default [ours].
	PerCheck PassiveStake = iota
	// PerRound: one die a round, against all the checks made against it.
	PerRound
)

var passiveStakeNames = named.Enum[PassiveStake]{"per_check", "per_round"}

func (s PassiveStake) String() string                { return passiveStakeNames.String(s) }
func (s PassiveStake) MarshalText() ([]byte, error)  { return passiveStakeNames.Marshal(s) }
func (s *PassiveStake) UnmarshalText(b []byte) error { return passiveStakeNames.Unmarshal(b, s) }

// SurrenderTo says who receives the dice of a party that surrenders.
type SurrenderTo int

const (
	// ToInitiative: the party holding the initiative, or, if the
	// surrendering party holds it, the party with the most dice (earlier
	// in the order of action on ties). The default [ours].
	ToInitiative SurrenderTo = iota
	// ToMostDice: the party with the most dice (earlier in the order of
	// action on ties).
	ToMostDice
)

var surrenderToNames = named.Enum[SurrenderTo]{"initiative", "most_dice"}

func (s SurrenderTo) String() string                { return surrenderToNames.String(s) }
func (s SurrenderTo) MarshalText() ([]byte, error)  { return surrenderToNames.Marshal(s) }
func (s *SurrenderTo) UnmarshalText(b []byte) error { return surrenderToNames.Unmarshal(b, s) }

// PartyCheck says which member makes a party's starting and seizing
// checks.
type PartyCheck int

const (
	// BestMember: the member with the best modifier for the check (the
	// first listed on ties). The default [ours].
	BestMember PartyCheck = iota
	// FirstMember: the first member listed, the party's leader.
	FirstMember
)

var partyCheckNames = named.Enum[PartyCheck]{"best_member", "first_member"}

func (c PartyCheck) String() string                { return partyCheckNames.String(c) }
func (c PartyCheck) MarshalText() ([]byte, error)  { return partyCheckNames.Marshal(c) }
func (c *PartyCheck) UnmarshalText(b []byte) error { return partyCheckNames.Unmarshal(b, c) }

// FactorPenalty says how long an outside factor's penalty lasts.
type FactorPenalty int

const (
	// Lasting: every later check of the member, for the rest of the
	// interaction ("might impose penalties on future checks"). The
	// default [ours].
	Lasting FactorPenalty = iota
	// NextRound: the member's checks of the next round only.
	NextRound
)

var factorPenaltyNames = named.Enum[FactorPenalty]{"lasting", "next_round"}

func (f FactorPenalty) String() string                { return factorPenaltyNames.String(f) }
func (f FactorPenalty) MarshalText() ([]byte, error)  { return factorPenaltyNames.Marshal(f) }
func (f *FactorPenalty) UnmarshalText(b []byte) error { return factorPenaltyNames.Unmarshal(b, f) }

// Turns says who acts in a round when three or more parties take part (or
// two, read the second way).
type Turns int

const (
	// HolderActs: only the party holding the initiative acts; its targets
	// react, and the other parties may roll to seize the initiative
	// ("Multiple Parties"). The default [ours].
	HolderActs Turns = iota
	// EveryParty: every active party still in acts once a round, the
	// initiative holder first and then the order of action, each turn an
	// exchange of its own; the round's highest single result takes the
	// initiative for the next ("the parties ... announce actions in the
	// order of initiative"). Nobody needs to seize the initiative.
	EveryParty
)

var turnsNames = named.Enum[Turns]{"holder_acts", "every_party"}

func (t Turns) String() string                { return turnsNames.String(t) }
func (t Turns) MarshalText() ([]byte, error)  { return turnsNames.Marshal(t) }
func (t *Turns) UnmarshalText(b []byte) error { return turnsNames.Unmarshal(b, t) }

// validRulings reports the first ruling of r that is not one of its
// settings' values.
func (r *Rules) validRulings() error {
	switch {
	case !tieBreakNames.Valid(r.TieBreak):
		return rulingErr("tie_break", int(r.TieBreak), tieBreakNames)
	case !initiativeTieNames.Valid(r.InitiativeTie):
		return rulingErr("initiative_tie", int(r.InitiativeTie), initiativeTieNames)
	case !passiveStakeNames.Valid(r.PassiveStake):
		return rulingErr("passive_stake", int(r.PassiveStake), passiveStakeNames)
	case !surrenderToNames.Valid(r.SurrenderTo):
		return rulingErr("surrender_to", int(r.SurrenderTo), surrenderToNames)
	case !partyCheckNames.Valid(r.PartyCheck):
		return rulingErr("party_check", int(r.PartyCheck), partyCheckNames)
	case !factorPenaltyNames.Valid(r.FactorPenalty):
		return rulingErr("factor_penalty", int(r.FactorPenalty), factorPenaltyNames)
	case !turnsNames.Valid(r.Turns):
		return rulingErr("turns", int(r.Turns), turnsNames)
	}
	return nil
}

func rulingErr(field string, v int, names []string) error {
	return fmt.Errorf("edge: rules.%s = %d: want one of %s", field, v, named.Allowed(names))
}
