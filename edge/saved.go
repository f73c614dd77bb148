package edge

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/stakesrpg/stakes/named"
	"github.com/stakesrpg/stakes/sim"
)

// savedState is State as JSON writes it: parties, members and skills by
// name, so a person reads a save without counting. The numbers a State
// holds in Go are places in its own Scenario: parties and members in
// listing order, skills as skillNames lists them.
type savedState struct {
	Scenario          Scenario     `json:"scenario"`
	Round             int          `json:"round"`
	Started           bool         `json:"started"`
	Initiative        string       `json:"initiative,omitempty"`
	Order             []string     `json:"order"`
	Factored          int          `json:"factored,omitempty"`
	Parties           []savedParty `json:"parties"`
	Outcome           savedOutcome `json:"outcome"`
	Transfers         int          `json:"transfers"`
	InitiativeChanges int          `json:"initiative_changes"`
	Pending           *savedAction `json:"pending,omitempty"`
	Acted             []string     `json:"acted,omitempty"`
	RoundBest         *savedBest   `json:"round_best,omitempty"`
}

type savedParty struct {
	Name    string        `json:"name"`
	Edge    int           `json:"edge"`
	Out     bool          `json:"out,omitempty"`
	Members []savedMember `json:"members"`
}

type savedMember struct {
	Name      string         `json:"name"`
	Uses      map[string]int `json:"uses,omitempty"`
	Last      string         `json:"last,omitempty"`
	LastRound int            `json:"last_round"`
	Streak    int            `json:"streak,omitempty"`
	Penalty   int            `json:"penalty,omitempty"`
	Rank      int            `json:"rank,omitempty"`
	Abandoned bool           `json:"abandoned,omitempty"`
}

type savedOutcome struct {
	End     End    `json:"end"`
	Winner  string `json:"winner,omitempty"`
	Partial bool   `json:"partial,omitempty"`
	By      string `json:"by,omitempty"`
}

type savedAction struct {
	Party   string     `json:"party"`
	Targets []string   `json:"targets"`
	Checks  []savedUse `json:"checks"`
}

type savedUse struct {
	Member string `json:"member"`
	Skill  string `json:"skill"`
	Mod    int    `json:"mod,omitempty"`
}

type savedBest struct {
	Party string `json:"party"`
	Total int    `json:"total"`
	Mod   int    `json:"mod"`
}

// namer turns a scenario's party, member and skill numbers into names and
// back; field names the State field in errors.
type namer struct {
	parties []string
	members [][]string
	skills  []string
}

func namerOf(s Scenario) namer {
	n := namer{skills: skillNames(s)}
	for _, p := range s.Parties {
		n.parties = append(n.parties, p.Name)
		var ms []string
		for _, m := range p.Members {
			ms = append(ms, m.Name)
		}
		n.members = append(n.members, ms)
	}
	return n
}

// name returns names[i], "" for none (-1), or an error naming field.
func name(field, what string, names []string, i int) (string, error) {
	switch {
	case i == -1:
		return "", nil
	case i < 0 || i >= len(names):
		return "", fmt.Errorf("edge: %s: %s %d does not exist: there are %d", field, what, i, len(names))
	}
	return names[i], nil
}

// index returns the place of n in names, -1 for "" (none), or an error
// naming field and the names allowed.
func index(field, what string, names []string, n string) (int, error) {
	if n == "" {
		return -1, nil
	}
	for i, k := range names {
		if k == n {
			return i, nil
		}
	}
	if len(names) > 0 && names[0] == "" {
		names = names[1:] // skill 0 is none, never a name to give
	}
	return 0, fmt.Errorf("edge: %s: %s %q does not exist: want one of %s", field, what, clip(n), named.Allowed(names))
}

// clip shortens a name quoted back in an error to at most MaxName bytes.
func clip(n string) string {
	if len(n) > MaxName {
		return n[:MaxName] + "..."
	}
	return n
}

// MarshalJSON writes s with parties, members and skills by name.
func (s State) MarshalJSON() ([]byte, error) {
	nm := namerOf(s.Scenario)
	party := func(field string, p int) (string, error) { return name(field, "party", nm.parties, p) }
	j := savedState{Scenario: s.Scenario, Round: s.Round, Started: s.Started, Factored: s.Factored,
		Transfers: s.Transfers, InitiativeChanges: s.InitiativeChanges, Order: []string{}}
	var err error
	errs := func(e error) {
		if err == nil {
			err = e
		}
	}
	var e error
	j.Initiative, e = party("state.initiative", s.Initiative)
	errs(e)
	j.Order, e = names("state.order", nm.parties, s.Order)
	errs(e)
	j.Acted, e = names("state.acted", nm.parties, s.Acted)
	errs(e)
	j.Outcome = savedOutcome{End: s.Outcome.End, Partial: s.Outcome.Partial}
	j.Outcome.Winner, e = party("state.outcome.winner", s.Outcome.Winner)
	errs(e)
	j.Outcome.By, e = party("state.outcome.by", s.Outcome.By)
	errs(e)
	if b := s.RoundBest; len(s.Acted) > 0 {
		j.RoundBest = &savedBest{Total: b.Total, Mod: b.Mod}
		j.RoundBest.Party, e = party("state.round_best.party", b.Party)
		errs(e)
	}
	j.Parties, e = nm.saveParties(s.Parties)
	errs(e)
	if a := s.Pending; a != nil {
		j.Pending, e = nm.saveAction(a)
		errs(e)
	}
	if err != nil {
		return nil, err
	}
	return json.Marshal(j)
}

// names returns the names of the numbers ps (nil for none).
func names(field string, all []string, ps []int) ([]string, error) {
	out := make([]string, 0, len(ps))
	for _, p := range ps {
		n, err := name(field, "party", all, p)
		if err != nil || n == "" {
			return nil, fmt.Errorf("edge: %s: party %d does not exist: there are %d", field, p, len(all))
		}
		out = append(out, n)
	}
	return out, nil
}

// saveAction writes a pending action by name.
func (nm namer) saveAction(a *Action) (*savedAction, error) {
	party, err := name("state.pending.party", "party", nm.parties, a.Party)
	if err != nil || party == "" {
		return nil, fmt.Errorf("edge: state.pending.party %d does not exist: there are %d", a.Party, len(nm.parties))
	}
	j := &savedAction{Party: party, Checks: []savedUse{}}
	if j.Targets, err = names("state.pending.targets", nm.parties, a.Targets); err != nil {
		return nil, err
	}
	for _, u := range a.Checks {
		m, err := name("state.pending.checks", "member", nm.members[a.Party], u.Member)
		if err != nil || m == "" {
			return nil, fmt.Errorf("edge: state.pending.checks: %q has no member %d", party, u.Member)
		}
		s, err := name("state.pending.checks", "skill", nm.skills, u.Skill)
		if err != nil || s == "" {
			return nil, fmt.Errorf("edge: state.pending.checks: skill %d does not exist: there are %d", u.Skill, len(nm.skills))
		}
		j.Checks = append(j.Checks, savedUse{Member: m, Skill: s, Mod: u.Mod})
	}
	return j, nil
}

// UnmarshalJSON reads a state written by MarshalJSON, strictly: a field
// no State has is refused, and every name must be one of its scenario's
// parties, members or skills.
func (s *State) UnmarshalJSON(b []byte) error {
	var j savedState
	if err := sim.DecodeStrict(b, &j); err != nil {
		return err
	}
	nm := namerOf(j.Scenario)
	t := State{Scenario: j.Scenario, Round: j.Round, Started: j.Started, Factored: j.Factored,
		Transfers: j.Transfers, InitiativeChanges: j.InitiativeChanges}
	var err error
	if t.Initiative, err = index("state.initiative", "party", nm.parties, j.Initiative); err != nil {
		return err
	}
	if t.Order, err = indices("state.order", nm.parties, j.Order); err != nil {
		return err
	}
	if t.Acted, err = indices("state.acted", nm.parties, j.Acted); err != nil {
		return err
	}
	if len(t.Acted) == 0 {
		t.Acted = nil
	}
	t.Outcome = Outcome{End: j.Outcome.End, Partial: j.Outcome.Partial}
	if t.Outcome.Winner, err = index("state.outcome.winner", "party", nm.parties, j.Outcome.Winner); err != nil {
		return err
	}
	if t.Outcome.By, err = index("state.outcome.by", "party", nm.parties, j.Outcome.By); err != nil {
		return err
	}
	if (j.RoundBest != nil) != (len(t.Acted) > 0) {
		return errors.New("edge: state.acted and state.round_best go together: the round's best check is known once a party has acted")
	}
	if b := j.RoundBest; b != nil {
		t.RoundBest = BestCheck{Total: b.Total, Mod: b.Mod}
		if t.RoundBest.Party, err = index("state.round_best.party", "party", nm.parties, b.Party); err != nil {
			return err
		}
	}
	if t.Parties, err = nm.loadParties(j.Parties); err != nil {
		return err
	}
	if j.Pending != nil {
		if t.Pending, err = nm.loadAction(j.Pending); err != nil {
			return err
		}
	}
	*s = t
	return nil
}

// indices returns the numbers of the party names ns.
func indices(field string, all []string, ns []string) ([]int, error) {
	out := make([]int, 0, len(ns))
	for _, n := range ns {
		p, err := index(field, "party", all, n)
		if err != nil {
			return nil, err
		}
		if p < 0 {
			return nil, fmt.Errorf("edge: %s: an empty party name: want one of %s", field, named.Allowed(all))
		}
		out = append(out, p)
	}
	return out, nil
}

// loadAction reads a pending action written by name; its counts are
// bounded by State.Check.
func (nm namer) loadAction(j *savedAction) (*Action, error) {
	p, err := index("state.pending.party", "party", nm.parties, j.Party)
	if err != nil {
		return nil, err
	}
	if p < 0 {
		return nil, fmt.Errorf("edge: state.pending.party is empty: want one of %s", named.Allowed(nm.parties))
	}
	a := &Action{Party: p, Checks: []Use{}}
	if a.Targets, err = indices("state.pending.targets", nm.parties, j.Targets); err != nil {
		return nil, err
	}
	for _, u := range j.Checks {
		field := "state.pending.checks"
		m, err := index(field, "member", nm.members[p], u.Member)
		if err != nil || m < 0 {
			return nil, fmt.Errorf("edge: %s: %q has no member %q: want one of %s", field, clip(j.Party), clip(u.Member), named.Allowed(nm.members[p]))
		}
		s, err := index(field, "skill", nm.skills, u.Skill)
		if err == nil && s < 0 {
			err = fmt.Errorf("edge: %s: an empty skill name: want one of %s", field, named.Allowed(nm.skills[1:]))
		}
		if err != nil {
			return nil, err
		}
		a.Checks = append(a.Checks, Use{Member: m, Skill: s, Mod: u.Mod})
	}
	return a, nil
}

// saveParties writes the parties' states with skills by name; a skill or
// member count that does not fit the scenario is an error.
func (nm namer) saveParties(ps []PartyState) ([]savedParty, error) {
	out := make([]savedParty, 0, len(ps))
	for p, ps := range ps {
		sp := savedParty{Name: ps.Name, Edge: ps.Edge, Out: ps.Out, Members: []savedMember{}}
		for m, ms := range ps.Members {
			field := fmt.Sprintf("state.parties[%d].members[%d]", p, m)
			sm := savedMember{Name: ms.Name, LastRound: ms.LastRound, Streak: ms.Streak, Penalty: ms.Penalty, Rank: ms.Rank, Abandoned: ms.Abandoned}
			var err error
			if sm.Last, err = name(field+".last", "skill", nm.skills, ms.Last); err != nil {
				return nil, err
			}
			if len(ms.Uses) > len(nm.skills) {
				return nil, fmt.Errorf("edge: %s.uses has %d counts: the scenario has %d skills", field, len(ms.Uses), len(nm.skills))
			}
			for s, n := range ms.Uses {
				if n != 0 {
					if sm.Uses == nil {
						sm.Uses = map[string]int{}
					}
					sm.Uses[nm.skills[s]] = n
				}
			}
			sp.Members = append(sp.Members, sm)
		}
		out = append(out, sp)
	}
	return out, nil
}

// loadParties reads the parties' states written by saveParties: every
// skill named must be one of the scenario's. Counts are bounded by
// State.Check.
func (nm namer) loadParties(sps []savedParty) ([]PartyState, error) {
	out := make([]PartyState, 0, len(sps))
	for p, sp := range sps {
		ps := PartyState{Name: sp.Name, Edge: sp.Edge, Out: sp.Out, Members: make([]MemberState, 0, len(sp.Members))}
		for m, sm := range sp.Members {
			field := fmt.Sprintf("state.parties[%d].members[%d]", p, m)
			ms := MemberState{Name: sm.Name, LastRound: sm.LastRound, Streak: sm.Streak, Penalty: sm.Penalty, Rank: sm.Rank,
				Abandoned: sm.Abandoned, Uses: make([]int, len(nm.skills))}
			var err error
			if ms.Last, err = index(field+".last", "skill", nm.skills, sm.Last); err != nil {
				return nil, err
			}
			for _, k := range slices.Sorted(maps.Keys(sm.Uses)) {
				s, err := index(field+".uses", "skill", nm.skills, k)
				if err != nil {
					return nil, err
				}
				if s < 0 {
					return nil, fmt.Errorf("edge: %s.uses: an empty skill name: want one of %s", field, named.Allowed(nm.skills[1:]))
				}
				ms.Uses[s] = sm.Uses[k]
			}
			ps.Members = append(ps.Members, ms)
		}
		out = append(out, ps)
	}
	return out, nil
}
