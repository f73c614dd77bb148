package edge

import (
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/stakesrpg/stakes/dice"
)

// Limits that keep every input bounded, so no scenario file can ask for an
// interaction that exhausts memory or time.
const (
	// MaxParties is the most parties one interaction may hold.
	MaxParties = 8
	// MaxMembers is the most members one party may hold (a crowd is one
	// member with a Size, see Member).
	MaxMembers = 16
	// MaxSkills is the most distinct skill names one interaction may use
	// (numbered 1..MaxSkills, 0 being none).
	MaxSkills = 63
	// MaxEdge bounds the edge dice a party may start with.
	MaxEdge = 1000
	// MaxModifier bounds every skill modifier and bonus.
	MaxModifier = 1000
	// MaxTypes is the most interaction types the rules may define.
	MaxTypes = 64
	// MaxFactors is the most outside factors one scenario may schedule.
	MaxFactors = 32
	// MaxRoundLimit bounds Rules.MaxRounds and the rounds outside factors
	// are scheduled by.
	MaxRoundLimit = 1_000_000
	// MaxName bounds the bytes of every name: parties, members, skills,
	// types and policies.
	MaxName = 64
)

// Type describes one kind of dramatic interaction (a chase, a social
// battle, a temptation): how it starts, how bystanders grab the initiative,
// which skills suit it and which of those are safe from repetition.
type Type struct {
	// Start is the skill of the opposed starting check that sets the order
	// of action ("Beginning a Dramatic Interaction"). Ignored when
	// TempterFirst is set.
	Start string `json:"start,omitempty"`
	// TempterFirst gives the first action to the parties marked Tempter
	// (temptations and interrogations) instead of a starting check.
	TempterFirst bool `json:"tempter_first,omitempty"`
	// Seize is the skill a party that was not targeted rolls to seize the
	// initiative ("Multiple Parties": Reflex when physical, Wits when social).
	Seize string `json:"seize"`
	// Skills are the skills appropriate to this interaction. An acting party
	// must use one of them (or a safe skill); a reacting party may use one
	// that is neither the same, nor naturally opposed, nor safe, at the
	// Unpaired penalty. Empty means every skill is appropriate.
	Skills []string `json:"skills,omitempty"`
	// Safe skills may always be used to react, and suffer the repetition
	// penalty only when used in consecutive rounds ("Can't Fool Me Twice!").
	Safe []string `json:"safe,omitempty"`
	// WalkAway says whether the GM accepts a party walking away before
	// anyone has all the dice ("Walking Away").
	WalkAway bool `json:"walk_away,omitempty"`
}

// Rules holds every number and table of the dramatic interaction rules.
// DefaultRules gives the defaults; each field says where its default comes
// from: [text] the rule text, [src] the published d20 Advanced material,
// [ours] our ruling where both are silent.
type Rules struct {
	// Check is the roll of every check before modifiers: d20 [src].
	Check dice.Pool `json:"check"`
	// StartEdge is the edge dice each party starts with: 5 [text].
	StartEdge int `json:"start_edge"`
	// Repetition is the penalty for the first, second and third-or-later
	// repetition of a skill: -1, -2, -3 [src] (the text lost the signs).
	Repetition []int `json:"repetition"`
	// Unpaired is the extra modifier of an appropriate but unpaired
	// reaction skill: -1 [text].
	Unpaired int `json:"unpaired"`
	// Opposed lists naturally opposed skill pairs, usable both ways:
	// persuasion/perception, infiltration/perception, attack/defense [text];
	// the rest [ours].
	Opposed [][2]string `json:"opposed"`
	// Types are the interaction types by name: chase [text: Reflex start],
	// social [text: Perception start], temptation and interrogation
	// [text: tempter first]; their skill lists and safe skills are [ours].
	Types map[string]Type `json:"types"`
	// Progression is the value column of the Time and Value Progression
	// table, ranks 1..20: the Cinematic column [src]. A group's modifier is
	// the largest rank whose value is at most its size [ours].
	Progression []int `json:"progression"`
	// Endurance lists the skills on which a group's modifier is a penalty
	// instead of a bonus, as stragglers slow it down: endurance [text].
	Endurance []string `json:"endurance"`
	// MultiTarget lets one action target several parties at once: true
	// [text: "the GM may allow"].
	MultiTarget bool `json:"multi_target"`
	// MaxRounds ends an interaction that has lasted this many rounds as if
	// every party walked away (the GM calls time), so simulations always
	// end; 0 sets no limit of the designer's, and the GM still calls time
	// after MaxRoundLimit rounds (1,000,000), so that every interaction,
	// and every simulated trial, ends in bounded work. Default 1000 [ours].
	MaxRounds int `json:"max_rounds"`

	// The rulings where the text is silent; each zero value is the
	// default, and each is [ours].

	// TieBreak ranks checks with equal totals, for the exchange, the
	// initiative and the starting checks alike: the higher modifier ranks
	// higher, equal modifiers rank level (ByModifier).
	TieBreak TieBreak `json:"tie_break,omitempty"`
	// InitiativeTie gives the initiative when the round's best checks of
	// several parties rank level: the holder keeps it (HolderKeeps).
	InitiativeTie InitiativeTie `json:"initiative_tie,omitempty"`
	// PassiveStake is how many dice a targeted passive party stakes: one
	// against each check made against it (PerCheck).
	PassiveStake PassiveStake `json:"passive_stake,omitempty"`
	// SurrenderTo is who receives a surrendering party's dice: the
	// initiative holder (ToInitiative).
	SurrenderTo SurrenderTo `json:"surrender_to,omitempty"`
	// PartyCheck is which member makes a party's starting and seizing
	// checks: its best (BestMember).
	PartyCheck PartyCheck `json:"party_check,omitempty"`
	// FactorPenalty is how long an outside factor's penalty lasts: the rest
	// of the interaction (Lasting).
	FactorPenalty FactorPenalty `json:"factor_penalty,omitempty"`
	// Turns is who acts in a round: only the initiative holder
	// (HolderActs), or every party in turn (EveryParty).
	Turns Turns `json:"turns,omitempty"`
	// WagerBeyondPool lets a party wager one die for each involved member
	// even beyond the dice it holds; a die it no longer holds when it
	// loses is not paid. Off by default: a party wagers at most the dice
	// it holds (the text's "wager a single Edge Die from the party's
	// pool").
	WagerBeyondPool bool `json:"wager_beyond_pool,omitempty"`
	// LoneRank reads the Time and Value Progression table for a lone
	// individual too (size 0 or 1: rank 1, +1 where the first value is 1).
	// Off by default: a lone individual has no modifier, the table being
	// for groups ("Large Parties").
	LoneRank bool `json:"lone_rank,omitempty"`
	// OnceARound, when every party acts in turn (Turns EveryParty), lets a
	// character make one wagered check a round, acting or reacting ("Each
	// character may act once in each round"): a party with nobody left to
	// check passes its turn, and a targeted party with nobody left stakes
	// nothing. Off by default [ours]: a character acts once, in its party's
	// turn, and may also react in the others' turns.
	OnceARound bool `json:"once_a_round,omitempty"`
}

// DefaultRules returns the rules as the text gives them, with our rulings
// where it is silent (each field says which).
func DefaultRules() Rules {
	d20, _ := dice.NewPool(dice.D20)
	return Rules{
		Check:      d20,
		StartEdge:  5,
		Repetition: []int{-1, -2, -3},
		Unpaired:   -1,
		Opposed: [][2]string{
			{"persuasion", "perception"}, {"infiltration", "perception"}, {"attack", "defense"},
			{"ranged attack", "defense"}, {"melee attack", "defense"}, {"stealth", "perception"},
			{"deception", "insight"}, {"intimidation", "willpower"}, {"persuasion", "willpower"},
		},
		Types: map[string]Type{
			"chase": {
				Start: "reflex", Seize: "reflex",
				Skills: []string{"acrobatics", "athletics", "vehicles", "ride", "stealth", "infiltration",
					"perception", "might", "ranged attack", "melee attack", "defense", "endurance", "reflex"},
				Safe: []string{"athletics", "vehicles", "ride"},
			},
			"social": {
				Start: "perception", Seize: "wits",
				Skills: []string{"persuasion", "deception", "intimidation", "perception", "insight",
					"knowledge", "performance", "willpower", "wits"},
				Safe:     []string{"perception", "wits"},
				WalkAway: true,
			},
			"temptation": {
				TempterFirst: true, Seize: "wits",
				Skills: []string{"persuasion", "deception", "intimidation", "perception", "insight", "willpower", "wits"},
				Safe:   []string{"willpower"},
			},
			"interrogation": {
				TempterFirst: true, Seize: "wits",
				Skills: []string{"persuasion", "deception", "intimidation", "perception", "insight", "willpower", "wits"},
				Safe:   []string{"insight", "willpower"},
			},
		},
		Progression: []int{1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000,
			25000, 50000, 100000, 250000, 500000, 1000000, 2500000},
		Endurance:   []string{"endurance"},
		MultiTarget: true,
		MaxRounds:   1000,
	}
}

// clone returns a deep copy of r, which shares nothing with it (a
// dice.Pool is an immutable value).
func (r Rules) clone() Rules {
	c := r
	c.Repetition = slices.Clone(r.Repetition)
	c.Opposed = slices.Clone(r.Opposed)
	c.Types = maps.Clone(r.Types)
	for name, t := range c.Types {
		t.Skills, t.Safe = slices.Clone(t.Skills), slices.Clone(t.Safe)
		c.Types[name] = t
	}
	c.Progression = slices.Clone(r.Progression)
	c.Endurance = slices.Clone(r.Endurance)
	return c
}

// GroupRank returns the modifier of a group of size members: the largest
// rank of the progression whose value is at most size ("Large Parties"). A
// lone individual (size 0 or 1) has no modifier unless Rules.LoneRank reads
// the table for it as size 1.
func (r Rules) GroupRank(size int) int {
	if size <= 1 {
		if !r.LoneRank {
			return 0
		}
		size = 1
	}
	rank := 0
	for i, v := range r.Progression {
		if v <= size {
			rank = i + 1
		}
	}
	return rank
}

// Validate reports the first thing wrong with the rules, naming the field.
func (r Rules) Validate() error {
	for _, check := range []func() error{r.validNumbers, r.validPairs, r.validTypes, r.validProgression, r.validRulings} {
		if err := check(); err != nil {
			return err
		}
	}
	return nil
}

// validNumbers checks the check, the starting dice, the penalties and the
// round limit.
func (r *Rules) validNumbers() error {
	if r.Check.Len() == 0 {
		return errors.New("edge: rules.check: the check needs at least one die, such as d20")
	}
	if r.Check.Len() > 10 || r.Check.Sides() > 1000 {
		return fmt.Errorf("edge: rules.check %s: at most 10 dice of at most 1000 sides", r.Check)
	}
	if r.StartEdge < 1 || r.StartEdge > MaxEdge {
		return fmt.Errorf("edge: rules.start_edge %d: each party starts with 1..%d edge dice", r.StartEdge, MaxEdge)
	}
	if len(r.Repetition) > 10 {
		return fmt.Errorf("edge: rules.repetition has %d steps: at most 10", len(r.Repetition))
	}
	for i, p := range r.Repetition {
		if p > 0 || p < -MaxModifier {
			return fmt.Errorf("edge: rules.repetition[%d] = %d: repetition penalties are 0 or negative", i, p)
		}
	}
	if r.Unpaired > 0 || r.Unpaired < -MaxModifier {
		return fmt.Errorf("edge: rules.unpaired = %d: the unpaired modifier is 0 or negative", r.Unpaired)
	}
	if r.MaxRounds < 0 || r.MaxRounds > MaxRoundLimit {
		return fmt.Errorf("edge: rules.max_rounds %d: 0 (no limit) to %d", r.MaxRounds, MaxRoundLimit)
	}
	return nil
}

// validPairs checks the naturally opposed pairs and the endurance skills.
func (r *Rules) validPairs() error {
	if len(r.Opposed) > MaxSkills*MaxSkills/2 {
		return fmt.Errorf("edge: rules.opposed has %d pairs: at most %d", len(r.Opposed), MaxSkills*MaxSkills/2)
	}
	for i, p := range r.Opposed {
		if err := checkNames(fmt.Sprintf("rules.opposed[%d]", i), p[:]); err != nil {
			return err
		}
		if p[0] == "" || p[1] == "" || p[0] == p[1] {
			return fmt.Errorf("edge: rules.opposed[%d] %q: a pair names two different skills", i, p)
		}
	}
	if len(r.Endurance) > MaxSkills {
		return fmt.Errorf("edge: rules.endurance lists %d skills: at most %d", len(r.Endurance), MaxSkills)
	}
	if err := checkNames("rules.endurance", r.Endurance); err != nil {
		return err
	}
	return nil
}

// validTypes checks the interaction types, in name order.
func (r *Rules) validTypes() error {
	if len(r.Types) == 0 {
		return errors.New("edge: rules.types is empty: define at least one interaction type, such as chase")
	}
	if len(r.Types) > MaxTypes {
		return fmt.Errorf("edge: rules.types has %d types: at most %d", len(r.Types), MaxTypes)
	}
	for _, name := range slices.Sorted(maps.Keys(r.Types)) {
		t := r.Types[name]
		if err := checkName("rules.types name", name); err != nil {
			return err
		}
		for _, err := range []error{checkName("rules.types["+name+"].start", t.Start), checkName("rules.types["+name+"].seize", t.Seize),
			checkNames("rules.types["+name+"].skills", t.Skills), checkNames("rules.types["+name+"].safe", t.Safe)} {
			if err != nil {
				return err
			}
		}
		switch {
		case name == "":
			return errors.New("edge: rules.types has an empty name")
		case !t.TempterFirst && t.Start == "":
			return fmt.Errorf("edge: rules.types[%q].start is empty: name the starting check's skill or set tempter_first", name)
		case t.Seize == "":
			return fmt.Errorf("edge: rules.types[%q].seize is empty: name the skill used to seize the initiative", name)
		case len(t.Skills) > MaxSkills || len(t.Safe) > MaxSkills:
			return fmt.Errorf("edge: rules.types[%q] lists %d skills and %d safe ones: at most %d each", name, len(t.Skills), len(t.Safe), MaxSkills)
		case slices.Contains(t.Skills, "") || slices.Contains(t.Safe, ""):
			return fmt.Errorf("edge: rules.types[%q] lists an empty skill name", name)
		}
	}
	return nil
}

// validProgression checks the Time and Value Progression column.
func (r *Rules) validProgression() error {
	if len(r.Progression) == 0 || len(r.Progression) > 100 {
		return fmt.Errorf("edge: rules.progression has %d ranks: give 1..100 values", len(r.Progression))
	}
	if r.Progression[0] < 1 {
		return fmt.Errorf("edge: rules.progression[0] = %d: values start at 1 or more", r.Progression[0])
	}
	for i := 1; i < len(r.Progression); i++ {
		if r.Progression[i] <= r.Progression[i-1] {
			return fmt.Errorf("edge: rules.progression[%d] = %d: values must increase", i, r.Progression[i])
		}
	}
	return nil
}

// roundLimit is the round after which the GM calls time: rules.max_rounds,
// or MaxRoundLimit where it sets none (0). Some interactions would never
// end without it: two parties that each always lose when acting pass a
// die and the initiative back and forth for ever.
func (r *Rules) roundLimit() int {
	if r.MaxRounds == 0 {
		return MaxRoundLimit
	}
	return r.MaxRounds
}

// repetitionPenalty is the Can't Fool Me Twice penalty of a skill used n
// times before: none the first time, then Repetition's steps in turn, its
// last step for every later repetition.
func (r *Rules) repetitionPenalty(n int) int {
	if n <= 0 || len(r.Repetition) == 0 {
		return 0
	}
	return r.Repetition[min(n, len(r.Repetition))-1]
}

// same reports whether o are the same rules as r, field by field (an
// empty list or map and none are the same, as in JSON).
func (r *Rules) same(o *Rules) bool {
	return r.Check.Equal(o.Check) && r.StartEdge == o.StartEdge && slices.Equal(r.Repetition, o.Repetition) &&
		r.Unpaired == o.Unpaired && slices.Equal(r.Opposed, o.Opposed) && maps.EqualFunc(r.Types, o.Types, Type.same) &&
		slices.Equal(r.Progression, o.Progression) && slices.Equal(r.Endurance, o.Endurance) &&
		r.MultiTarget == o.MultiTarget && r.MaxRounds == o.MaxRounds && r.TieBreak == o.TieBreak &&
		r.InitiativeTie == o.InitiativeTie && r.PassiveStake == o.PassiveStake && r.SurrenderTo == o.SurrenderTo &&
		r.PartyCheck == o.PartyCheck && r.FactorPenalty == o.FactorPenalty && r.Turns == o.Turns &&
		r.WagerBeyondPool == o.WagerBeyondPool && r.LoneRank == o.LoneRank && r.OnceARound == o.OnceARound
}

// same reports whether o is the same interaction type as t.
func (t Type) same(o Type) bool {
	return t.Start == o.Start && t.TempterFirst == o.TempterFirst && t.Seize == o.Seize &&
		slices.Equal(t.Skills, o.Skills) && slices.Equal(t.Safe, o.Safe) && t.WalkAway == o.WalkAway
}
