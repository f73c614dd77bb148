package edge

import (
	"errors"
	"fmt"
	"maps"
	"slices"
)

// State is an interaction saved between steps: its scenario (rules, type,
// parties, factors) and everything that changed in play, as plain data that
// reads and writes as JSON. Restore plays on from it. In Go, parties,
// members and skills are numbers (places in Scenario: parties and members
// in listing order, skills in the order the scenario first names them); in
// JSON every one of them is written by name, and a name the scenario lacks
// is refused with the names allowed.
type State struct {
	// Scenario is the interaction's setup, the same for every state of it.
	Scenario Scenario `json:"scenario"`
	// Round is the number of rounds played.
	Round int `json:"round"`
	// Started is set once the starting checks are made.
	Started bool `json:"started"`
	// Initiative is the party holding the initiative (-1 before Start).
	Initiative int `json:"initiative"`
	// Order is the order of action set by the starting checks.
	Order []int `json:"order"`
	// Factored is the round before which outside factors were last checked.
	Factored int `json:"factored,omitempty"`
	// Parties are the parties' states in listing order.
	Parties []PartyState `json:"parties"`
	// Outcome is how the interaction ended, if it has.
	Outcome Outcome `json:"outcome"`
	// Transfers counts edge dice that changed hands so far.
	Transfers int `json:"transfers"`
	// InitiativeChanges counts how often the initiative moved.
	InitiativeChanges int `json:"initiative_changes"`
	// Pending is the action declared this round (Act) that awaits the
	// targets' reactions (React), if any.
	Pending *Action `json:"pending,omitempty"`
	// Acted lists the parties that took their turn this round, in
	// listing order, when every party acts (Rules.Turns every_party).
	Acted []int `json:"acted,omitempty"`
	// RoundBest is the round's highest check so far, when every party
	// acts and some has.
	RoundBest *BestCheck `json:"round_best,omitempty"`
}

// BestCheck is the highest check of a round so far: its party, total and
// modifier.
type BestCheck struct {
	Party int `json:"party"`
	Total int `json:"total"`
	Mod   int `json:"mod"`
}

// PartyState is one party's changing state.
type PartyState struct {
	Name    string        `json:"name"`          // must match the party
	Edge    int           `json:"edge"`          // edge dice held
	Out     bool          `json:"out,omitempty"` // out of the interaction
	Members []MemberState `json:"members"`
}

// MemberState is one member's changing state: its skill history for Can't
// Fool Me Twice, outside-factor penalties and group rank.
type MemberState struct {
	Name string `json:"name"` // must match the member
	// Uses counts earlier uses of each skill that is not safe here.
	Uses map[string]int `json:"uses,omitempty"`
	// Last is the skill last used, in round LastRound, the Streak-th round
	// running.
	Last      string `json:"last,omitempty"`
	LastRound int    `json:"last_round"`
	Streak    int    `json:"streak,omitempty"`
	// Penalty sums the outside-factor penalties taken.
	Penalty int `json:"penalty,omitempty"`
	// Rank is a group's current rank; Abandoned, whether it has shed its
	// stragglers.
	Rank      int  `json:"rank,omitempty"`
	Abandoned bool `json:"abandoned,omitempty"`
}

// State returns a copy of the interaction's state, its scenario included.
func (in *Interaction) State() State {
	st := &in.st
	s := State{Scenario: in.scenario.clone(), Round: st.round, Started: st.started, Initiative: st.initiative, Order: slices.Clone(st.order),
		Factored: st.factored, Outcome: st.outcome, Transfers: st.transfers, InitiativeChanges: st.changes}
	if s.Order == nil {
		s.Order = []int{}
	}
	if a, ok := in.Pending(); ok {
		s.Pending = &a
	}
	for p, acted := range st.acted {
		if acted {
			s.Acted = append(s.Acted, p)
		}
	}
	if st.hasBest {
		b := st.roundBest
		s.RoundBest = &BestCheck{Party: b.party, Total: b.total, Mod: b.mod}
	}
	ns := len(in.skills)
	for p, pi := range in.parties {
		ps := PartyState{Name: pi.name, Edge: st.edge[p], Out: st.out[p]}
		for g := pi.lo; g < pi.hi; g++ {
			ms := MemberState{Name: in.names[g], LastRound: st.mem[g].lastRound, Streak: st.mem[g].streak,
				Penalty: st.mem[g].penalty, Rank: st.mem[g].rank, Abandoned: st.mem[g].abandoned}
			if st.mem[g].last >= 0 {
				ms.Last = in.skills[st.mem[g].last]
			}
			for s := range ns {
				if n := st.uses[g*ns+s]; n > 0 {
					if ms.Uses == nil {
						ms.Uses = map[string]int{}
					}
					ms.Uses[in.skills[s]] = int(n)
				}
			}
			ps.Members = append(ps.Members, ms)
		}
		s.Parties = append(s.Parties, ps)
	}
	return s
}

// Restore returns the interaction saved as s, with each party's
// registered policy, after checking s whole (see State.Check).
func Restore(s State) (*Interaction, error) {
	in, err := s.Scenario.New()
	if err != nil {
		return nil, fmt.Errorf("edge: state.scenario: %w", err)
	}
	if err := in.SetState(s); err != nil {
		return nil, err
	}
	return in, nil
}

// Check reports the first thing wrong with a saved state: a scenario that
// does not validate, or a changing part that does not fit it or is out of
// bounds. A state that passes can be restored and played on.
func (s *State) Check() error {
	_, err := Restore(*s)
	return err
}

// SetState restores a state saved from an interaction of the same
// scenario. A state that does not fit returns an error and changes nothing.
func (in *Interaction) SetState(s State) error {
	same, err := in.scenario.equal(s.Scenario)
	if err != nil {
		return err
	}
	if !same {
		return errors.New("edge: state.scenario is not this interaction's scenario: use Restore to play a saved state of another")
	}
	var d dyn
	d.alloc(len(in.parties), len(in.names), len(in.skills))
	if err := in.load(&d, s); err != nil {
		return err
	}
	in.saved.copyFrom(&in.st)
	in.st.copyFrom(&d)
	if err := in.checkPending(); err != nil {
		in.st.copyFrom(&in.saved)
		return err
	}
	return nil
}

// checkPending checks a restored pending action as Act would have, and
// that a round where every party acts has a turn left.
func (in *Interaction) checkPending() error {
	st := &in.st
	if st.started && !st.outcome.Done() && in.actor() < 0 {
		return errors.New("edge: state.acted: every party has taken its turn, yet the round has not ended")
	}
	switch {
	case !st.inFlight:
		return nil
	case !st.started || st.outcome.Done():
		return errors.New("edge: state.pending: an action awaits reactions only while the interaction runs")
	case in.factorsDue():
		return errors.New("edge: state.pending: an action cannot await reactions while outside factors are due")
	}
	if _, _, _, err := in.compileAction(in.parts[:cap(in.parts)], &st.pending); err != nil {
		return fmt.Errorf("edge: state.pending: %w", err)
	}
	return nil
}

// load checks a saved state against the interaction and its bounds and
// writes it into d.
func (in *Interaction) load(d *dyn, s State) error {
	np := len(in.parties)
	if len(s.Parties) != np {
		return fmt.Errorf("edge: state has %d parties, the interaction %d", len(s.Parties), np)
	}
	steps := []func(*dyn, State) error{in.loadOrder, in.loadTurns, in.loadPending, in.loadOutcome}
	for _, step := range steps {
		if err := step(d, s); err != nil {
			return err
		}
	}
	for p, ps := range s.Parties {
		if err := in.loadParty(d, p, ps); err != nil {
			return err
		}
	}
	return in.checkRunning(d)
}

// loadOrder restores the counts, the order of action and the initiative.
func (in *Interaction) loadOrder(d *dyn, s State) error {
	np := len(in.parties)
	if s.Round < 0 || s.Transfers < 0 || s.InitiativeChanges < 0 || s.Factored < 0 {
		return fmt.Errorf("edge: state: round %d, transfers %d, initiative_changes %d and factored %d must not be negative",
			s.Round, s.Transfers, s.InitiativeChanges, s.Factored)
	}
	d.round, d.started, d.factored, d.transfers, d.changes = s.Round, s.Started, s.Factored, s.Transfers, s.InitiativeChanges
	var seen [MaxParties]bool
	for _, p := range s.Order {
		if p < 0 || p >= np || seen[p] || in.parties[p].passive {
			return fmt.Errorf("edge: state.order %v: each active party once", s.Order)
		}
		seen[p] = true
	}
	if !s.Started {
		if len(s.Order) != 0 || s.Initiative != -1 || s.Round != 0 {
			return fmt.Errorf("edge: state: not started, so order must be empty, initiative -1 and round 0")
		}
	} else {
		for p := range in.parties {
			if !in.parties[p].passive && !seen[p] {
				return fmt.Errorf("edge: state.order %v leaves out %s", s.Order, in.pname(p))
			}
		}
		if s.Initiative < 0 || s.Initiative >= np || in.parties[s.Initiative].passive {
			return fmt.Errorf("edge: state.initiative %d: an active party", s.Initiative)
		}
	}
	d.order = append(d.order[:0], s.Order...)
	d.initiative = s.Initiative
	return nil
}

// loadPending restores the action awaiting its reactions, bounded here
// and checked as Act checks one once the whole state is in (checkPending).
func (in *Interaction) loadPending(d *dyn, s State) error {
	a := s.Pending
	if a == nil {
		return nil
	}
	if len(a.Targets) > MaxParties || len(a.Checks) > MaxMembers {
		return fmt.Errorf("edge: state.pending names %d targets and %d checks: at most %d and %d", len(a.Targets), len(a.Checks), MaxParties, MaxMembers)
	}
	d.inFlight = true
	d.pending.Party = a.Party
	d.pending.Targets = append(d.pending.Targets[:0], a.Targets...)
	d.pending.Checks = append(d.pending.Checks[:0], a.Checks...)
	return nil
}

// loadOutcome restores how the interaction ended, if it has.
func (in *Interaction) loadOutcome(d *dyn, s State) error {
	o, np := s.Outcome, len(in.parties)
	if o.End < Running || o.End > TimeUp || o.Winner < -1 || o.Winner >= np || o.By < -1 || o.By >= np {
		return fmt.Errorf("edge: state.outcome %+v is not a possible outcome", o)
	}
	if !o.Done() && (o.Winner != -1 || o.By != -1 || o.Partial) {
		return fmt.Errorf("edge: state.outcome %+v: a running interaction has winner and by -1", o)
	}
	if !o.Done() && in.rules.MaxRounds > 0 && s.Round >= in.rules.MaxRounds {
		return fmt.Errorf("edge: state.round %d: a running interaction ends at rules.max_rounds %d", s.Round, in.rules.MaxRounds)
	}
	d.outcome = o
	return nil
}

// loadParty restores party p's dice and its members.
func (in *Interaction) loadParty(d *dyn, p int, ps PartyState) error {
	pi := in.parties[p]
	if ps.Name != pi.name {
		return fmt.Errorf("edge: state.parties[%d] is %q, the interaction's is %q", p, ps.Name, pi.name)
	}
	if ps.Edge < 0 || ps.Edge > 2*MaxEdge*MaxParties {
		return fmt.Errorf("edge: state.parties[%d].edge = %d: 0..%d edge dice", p, ps.Edge, 2*MaxEdge*MaxParties)
	}
	if (ps.Edge == 0) != ps.Out {
		return fmt.Errorf("edge: state.parties[%d]: edge %d with out %v: a party is out exactly when it holds no edge dice", p, ps.Edge, ps.Out)
	}
	d.edge[p], d.out[p] = ps.Edge, ps.Out
	if len(ps.Members) != pi.hi-pi.lo {
		return fmt.Errorf("edge: state.parties[%d] has %d members, the party %d", p, len(ps.Members), pi.hi-pi.lo)
	}
	for m, ms := range ps.Members {
		if err := in.loadMember(d, pi.lo+m, fmt.Sprintf("state.parties[%d].members[%d]", p, m), ms); err != nil {
			return err
		}
	}
	return nil
}

// loadMember restores member g's skill history, penalties and group rank;
// field names it in errors.
func (in *Interaction) loadMember(d *dyn, g int, field string, ms MemberState) error {
	if ms.Name != in.names[g] {
		return fmt.Errorf("edge: %s is %q, the interaction's is %q", field, ms.Name, in.names[g])
	}
	m := &d.mem[g]
	m.last = -1
	if ms.Last != "" {
		s, ok := in.skillIdx[ms.Last]
		if !ok {
			return fmt.Errorf("edge: %s.last %q is not a skill of this interaction", field, ms.Last)
		}
		m.last = s
	}
	if ms.Streak < 0 || ms.Streak > maxCount || ms.Rank < 0 || ms.Rank > len(in.rules.Progression) {
		return fmt.Errorf("edge: %s: streak %d (0..%d) or rank %d (0..%d) out of range", field, ms.Streak, maxCount, ms.Rank, len(in.rules.Progression))
	}
	if ms.Penalty > 0 || ms.Penalty < -maxPenalty {
		return fmt.Errorf("edge: %s.penalty = %d: outside-factor penalties sum to 0..%d", field, ms.Penalty, -maxPenalty)
	}
	if ms.Abandoned && in.size[g] <= 1 {
		return fmt.Errorf("edge: %s abandoned stragglers but is not a group", field)
	}
	m.lastRound, m.streak, m.penalty, m.rank, m.abandoned = ms.LastRound, ms.Streak, ms.Penalty, ms.Rank, ms.Abandoned
	ns := len(in.skills)
	for _, k := range slices.Sorted(maps.Keys(ms.Uses)) {
		s, ok := in.skillIdx[k]
		n := ms.Uses[k]
		if !ok || n < 0 || n > maxCount {
			return fmt.Errorf("edge: %s.uses[%q] = %d: a skill of this interaction, used 0..%d times", field, k, n, maxCount)
		}
		d.uses[g*ns+s] = int8(n)
	}
	return nil
}

// checkRunning checks that a restored interaction still running is one the
// steps would not already have ended: two parties or more hold dice, one
// of them active, and the initiative is with one of them.
func (in *Interaction) checkRunning(d *dyn) error {
	if !d.started || d.outcome.Done() {
		return nil
	}
	left, acting := 0, 0
	for p := range in.parties {
		if !d.out[p] {
			left++
			if !in.parties[p].passive {
				acting++
			}
		}
	}
	if left < 2 || acting == 0 {
		return fmt.Errorf("edge: state: running, but %d parties hold dice (%d of them active): the interaction has ended", left, acting)
	}
	if d.out[d.initiative] {
		return fmt.Errorf("edge: state.initiative %d is out of the interaction", d.initiative)
	}
	return nil
}

// loadTurns restores whose turns are taken this round, when every party
// acts: each active party at most once, with the round's best check so far
// exactly when some has.
func (in *Interaction) loadTurns(d *dyn, s State) error {
	if len(s.Acted) == 0 && s.RoundBest == nil {
		return nil
	}
	if in.rules.Turns != EveryParty || !s.Started {
		return errors.New("edge: state.acted and state.round_best belong to a started interaction where every party acts (rules.turns every_party)")
	}
	if len(s.Acted) == 0 || s.RoundBest == nil {
		return errors.New("edge: state.acted and state.round_best go together: the round's best check is known once a party has acted")
	}
	for _, p := range s.Acted {
		if p < 0 || p >= len(in.parties) || in.parties[p].passive || d.acted[p] {
			return fmt.Errorf("edge: state.acted %v: active parties, each once", s.Acted)
		}
		d.acted[p] = true
	}
	b := s.RoundBest
	bound := 10 * maxPenalty
	if b.Party < 0 || b.Party >= len(in.parties) || in.parties[b.Party].passive ||
		b.Total < -bound || b.Total > bound || b.Mod < -bound || b.Mod > bound {
		return fmt.Errorf("edge: state.round_best %+v: an active party's check, within ±%d", *b, bound)
	}
	d.roundBest, d.hasBest = participant{party: b.Party, total: b.Total, mod: b.Mod}, true
	return nil
}
