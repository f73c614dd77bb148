package edge

import (
	"fmt"
	"strings"
)

// Member is one character (or one crowd acting as a single participant) in
// a party.
type Member struct {
	// Name identifies the member in events and narration.
	Name string `json:"name"`
	// Skills maps skill names to check modifiers; a skill the member does
	// not list has modifier 0.
	Skills map[string]int `json:"skills,omitempty"`
	// Size is the head count of a group acting as one member ("Large
	// Parties"): its rank on the progression table is a bonus on its checks
	// and a penalty on endurance-type checks. 0 or 1 is a lone individual.
	Size int `json:"size,omitempty"`
}

// Party is one side of a dramatic interaction with its own pool of edge
// dice.
type Party struct {
	// Name identifies the party; names are unique within an interaction.
	Name string `json:"name"`
	// Members act and wager for the party, one edge die each per round.
	Members []Member `json:"members"`
	// BonusEdge are extra edge dice the GM grants for favourable starting
	// conditions ("Favorable or Unfavorable Starting Conditions").
	BonusEdge int `json:"bonus_edge,omitempty"`
	// Bonus is a modifier on every check of the party, for favourable (or,
	// negative, unfavourable) circumstances.
	Bonus int `json:"bonus,omitempty"`
	// Passive parties make no choices: they stake dice against the checks
	// made against them (Rules.PassiveStake), never act, never take the
	// initiative and never suffer repetition penalties ("Passive Parties").
	Passive bool `json:"passive,omitempty"`
	// Tempter parties act first in interaction types with TempterFirst.
	Tempter bool `json:"tempter,omitempty"`
	// Policy names the registered policy that makes the party's choices
	// (see PolicyNames); empty means the default, "steady". Passive parties
	// make no choices and ignore it.
	Policy string `json:"policy,omitempty"`
}

// Factor is an outside factor ("Outside Factors"): a check the GM asks of
// some parties between rounds, wagering nothing; each member who fails it
// takes a penalty on later checks (Rules.FactorPenalty says how long).
type Factor struct {
	// After is the round after which the check is made first (>= 0; 0 is
	// before the first round).
	After int `json:"after"`
	// Every repeats the check every this many rounds after that; 0 is once.
	Every int `json:"every,omitempty"`
	// Skill is the skill checked, such as endurance.
	Skill string `json:"skill"`
	// DC is the result a member needs to pass.
	DC int `json:"dc"`
	// Penalty (0 or negative) is added to every later check of a member who
	// fails; penalties from several failures add up.
	Penalty int `json:"penalty"`
	// Parties names the parties that must check; empty means every party
	// still in the interaction.
	Parties []string `json:"parties,omitempty"`
}

// due reports whether f is checked before the round numbered next (1-based).
func (f Factor) due(next int) bool {
	done := next - 1
	if done < f.After {
		return false
	}
	if done == f.After {
		return true
	}
	return f.Every > 0 && (done-f.After)%f.Every == 0
}

// checkName refuses a name longer than MaxName bytes, quoting its start.
func checkName(field, name string) error {
	if len(name) > MaxName {
		return fmt.Errorf("edge: %s is %d bytes long (%q...): names are at most %d bytes", field, len(name), name[:24], MaxName)
	}
	return nil
}

// checkNames refuses the first name of names longer than MaxName bytes.
func checkNames(field string, names []string) error {
	for i, n := range names {
		if err := checkName(fmt.Sprintf("%s[%d]", field, i), n); err != nil {
			return err
		}
	}
	return nil
}

func checkMod(field string, v int) error {
	if v > MaxModifier || v < -MaxModifier {
		return fmt.Errorf("edge: %s = %d: modifiers are within ±%d", field, v, MaxModifier)
	}
	return nil
}

// slug turns a party name into a snake_case word for category names.
func slug(name string) string {
	var b strings.Builder
	under := false
	for _, c := range strings.ToLower(name) {
		if (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') {
			b.WriteRune(c)
			under = false
		} else if !under && b.Len() > 0 {
			b.WriteByte('_')
			under = true
		}
	}
	return strings.TrimSuffix(b.String(), "_")
}
