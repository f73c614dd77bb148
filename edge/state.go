package edge

import (
	"errors"
	"fmt"
	"slices"
)

// State is everything that changes in one interaction, with the scenario
// it belongs to (rules, type, parties, factors): plain data that the steps
// work on directly and that reads and writes as JSON, so what is saved is
// what is played. Its Scenario.NewEngine builds the Engine that plays on
// from it. In Go,
// parties, members and skills are numbers (places in Scenario: parties and
// members in listing order, skills from 1 in the order the scenario first
// names them, Engine.Skill); in JSON every one of them is written by name, and a
// name the scenario lacks is refused with the names allowed. A State
// copied by value shares its slices with the original: Clone makes one
// that shares nothing.
type State struct {
	// Scenario is the interaction's setup, the same for every state of it;
	// a step refuses a State whose Scenario is not its Engine's.
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
	// Acted lists the parties that took their turn this round, in the
	// order they took it, when every party acts (Rules.Turns every_party).
	Acted []int `json:"acted,omitempty"`
	// RoundBest is the round's highest check so far while Acted is not
	// empty (some party has taken its turn this round).
	RoundBest BestCheck `json:"round_best"`
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
	// Uses counts earlier uses of each skill that is not safe here, by
	// skill number: one count for every skill of the scenario (JSON names
	// the skills used).
	Uses []int `json:"uses"`
	// Last is the skill last used (-1 for none), in round LastRound, the
	// Streak-th round running.
	Last      int `json:"last"`
	LastRound int `json:"last_round"`
	Streak    int `json:"streak,omitempty"`
	// Penalty sums the outside-factor penalties taken.
	Penalty int `json:"penalty,omitempty"`
	// Rank is a group's current rank; Abandoned, whether it has shed its
	// stragglers.
	Rank      int  `json:"rank,omitempty"`
	Abandoned bool `json:"abandoned,omitempty"`
}

// Clone returns a deep copy of s, which shares nothing with it.
func (s *State) Clone() State {
	c := *s
	c.Scenario = s.Scenario.clone()
	c.Order = slices.Clone(s.Order)
	c.Acted = slices.Clone(s.Acted)
	if s.Pending != nil {
		a := s.Pending.clone()
		c.Pending = &a
	}
	c.Parties = slices.Clone(s.Parties)
	for p := range c.Parties {
		ms := slices.Clone(c.Parties[p].Members)
		for m := range ms {
			ms[m].Uses = slices.Clone(ms[m].Uses)
		}
		c.Parties[p].Members = ms
	}
	return c
}

// resetTo makes s's changing part equal to t's (a state of the same
// engine) without allocating, sharing t's pending action (never changed in
// place, only replaced): a Runner's trials start over this way.
func (s *State) resetTo(t *State) {
	s.Round, s.Started, s.Initiative, s.Factored = t.Round, t.Started, t.Initiative, t.Factored
	s.Order = append(s.Order[:0], t.Order...)
	s.Outcome, s.Transfers, s.InitiativeChanges = t.Outcome, t.Transfers, t.InitiativeChanges
	s.Pending = t.Pending
	s.Acted = append(s.Acted[:0], t.Acted...)
	s.RoundBest = t.RoundBest
	for p := range s.Parties {
		sp, tp := &s.Parties[p], &t.Parties[p]
		sp.Edge, sp.Out = tp.Edge, tp.Out
		for m := range sp.Members {
			uses := sp.Members[m].Uses
			copy(uses, tp.Members[m].Uses)
			sp.Members[m] = tp.Members[m]
			sp.Members[m].Uses = uses
		}
	}
}

// Check reports the first thing wrong with a saved state: a scenario that
// does not validate, or a changing part that does not fit it or is out of
// bounds. A state that passes can be played on by its scenario's engine
// (Scenario.NewEngine).
func (s *State) Check() error {
	if s == nil {
		return errors.New("edge: no state")
	}
	e, err := s.Scenario.NewEngine()
	if err != nil {
		return fmt.Errorf("edge: state.scenario: %w", err)
	}
	return e.lend(s).check()
}

// Done reports whether the interaction has ended (State.Outcome says how).
func (s *State) Done() bool { return s.Outcome.Done() }

// Check reports whether s belongs to this engine (its scenario is the
// engine's, rules included) and is whole, as every step does first: a
// state saved from an engine of the same scenario passes.
func (e *Engine) Check(s *State) error {
	if s == nil {
		return errors.New("edge: no state: start one with NewState")
	}
	in, err := e.enter(s, checkWhole)
	e.release(in)
	return err
}

// begin checks that s belongs to e and is whole, and sets e to work on s
// for one step.
func (e *Engine) begin(s *State) (*game, error) { return e.enter(s, checkQuery) }

// beginStep is begin for a step: it remembers s as the engine's (sealed),
// so that the engine's next steps on s compare s's scenario with its own
// only where it has been replaced since.
func (e *Engine) beginStep(s *State) (*game, error) { return e.enter(s, checkStep) }

// How enter checks a State's scenario: checkQuery and checkStep compare it
// in full unless it is the State the engine last stepped (or made) with
// the scenario unreplaced, and checkStep then remembers the State;
// checkWhole always compares it in full.
const (
	checkQuery = iota
	checkStep
	checkWhole
)

// sealed is a State its engine found to be of its scenario, with that
// scenario as it was then (a shallow copy: the same lists and maps).
type sealed struct {
	s        *State
	scenario Scenario
}

// enter checks that s belongs to e and is whole, as begin, comparing its
// scenario as how says.
func (e *Engine) enter(s *State, how int) (*game, error) {
	if s == nil {
		return nil, errors.New("edge: no state: start one with NewState")
	}
	var last *sealed
	if e.sealed != nil && how != checkWhole {
		last = e.sealed.Load()
	}
	if last == nil || last.s != s || !last.scenario.kept(&s.Scenario) {
		if !e.scenario.same(&s.Scenario) {
			return nil, errors.New("edge: state.scenario is not this engine's scenario (another scenario, or changed since): build an engine for it with its Scenario.NewEngine")
		}
		if how == checkStep && e.sealed != nil {
			e.sealed.Store(&sealed{s: s, scenario: s.Scenario})
		}
	}
	in := e.borrow(s)
	if err := in.check(); err != nil {
		e.release(in)
		return nil, err
	}
	return in, nil
}

// borrow returns e at work on s with a working space from the engine's
// pool (shared by its copies, safe for concurrent use), so that a step by
// hand allocates nothing; release gives it back.
func (e *Engine) borrow(s *State) *game {
	if e.scratches == nil {
		return e.lend(s)
	}
	w := e.scratches.Get().(*scratch)
	w.g = game{Engine: e, s: s, w: w}
	return &w.g
}

// release gives the working space of in (from begin) back to the pool;
// in is not used again.
func (e *Engine) release(in *game) {
	if in == nil || e.scratches == nil {
		return
	}
	w := in.w // in is &w.g
	w.g = game{}
	e.scratches.Put(w)
}

// lend returns e at work on s with a working space of its own; a Runner
// keeps one for all its trials.
func (e *Engine) lend(s *State) *game {
	w := e.newScratch()
	w.g = game{Engine: e, s: s, w: w}
	return &w.g
}

// check checks the state against the engine and its bounds, part by part,
// the pending action last (as Act would have checked it).
func (in *game) check() error {
	e, s := in.Engine, in.s
	np := len(e.parties)
	if len(s.Parties) != np {
		return fmt.Errorf("edge: state has %d parties, the interaction %d", len(s.Parties), np)
	}
	for _, step := range []func(*State) error{e.checkOrder, e.checkTurns, e.checkOutcome} {
		if err := step(s); err != nil {
			return err
		}
	}
	for p, ps := range s.Parties {
		if err := e.checkParty(p, &ps, s.Round); err != nil {
			return err
		}
	}
	if err := e.checkRunning(s); err != nil {
		return err
	}
	return in.checkPending()
}

// checkPending checks a restored pending action as Act would have, and
// that a round where every party acts has a turn left; the rest of s is
// checked already.
func (in *game) checkPending() error {
	s := in.s
	if s.Started && !s.Outcome.Done() && in.actor() < 0 {
		return errors.New("edge: state.acted: every party has taken its turn, yet the round has not ended")
	}
	a := s.Pending
	switch {
	case a == nil:
		return nil
	case !s.Started || s.Outcome.Done():
		return errors.New("edge: state.pending: an action awaits reactions only while the interaction runs")
	case in.factorsDue():
		return errors.New("edge: state.pending: an action cannot await reactions while outside factors are due")
	case len(a.Targets) > MaxParties || len(a.Checks) > MaxMembers:
		return fmt.Errorf("edge: state.pending names %d targets and %d checks: at most %d and %d", len(a.Targets), len(a.Checks), MaxParties, MaxMembers)
	}
	if _, _, _, err := in.compileAction(in.w.parts[:cap(in.w.parts)], a); err != nil {
		return fmt.Errorf("edge: state.pending: %w", err)
	}
	return nil
}

// maxCounter bounds the counts a restored State may hold (rounds played,
// dice moved, initiative changes), far beyond any game played, so that no
// step can push one past the largest int.
const maxCounter = 1 << 48

// checkOrder checks the counts, the order of action and the initiative.
func (e *Engine) checkOrder(s *State) error {
	np := len(e.parties)
	if s.Round < 0 || s.Transfers < 0 || s.InitiativeChanges < 0 || s.Factored < 0 ||
		s.Round > maxCounter || s.Transfers > maxCounter || s.InitiativeChanges > maxCounter || s.Factored > s.Round+1 {
		return fmt.Errorf("edge: state: round %d, transfers %d, initiative_changes %d and factored %d: counts are 0..%d, factored at most round+1",
			s.Round, s.Transfers, s.InitiativeChanges, s.Factored, maxCounter)
	}
	if len(s.Order) > np {
		return fmt.Errorf("edge: state.order lists %d parties: the interaction has %d", len(s.Order), np)
	}
	var seen [MaxParties]bool
	for i, p := range s.Order {
		if p < 0 || p >= np || seen[p] || e.parties[p].passive {
			return fmt.Errorf("edge: state.order[%d] = %d: each active party once", i, p)
		}
		seen[p] = true
	}
	if !s.Started {
		if len(s.Order) != 0 || s.Initiative != -1 || s.Round != 0 {
			return fmt.Errorf("edge: state: not started, so order must be empty, initiative -1 and round 0")
		}
		return nil
	}
	for p := range e.parties {
		if !e.parties[p].passive && !seen[p] {
			return fmt.Errorf("edge: state.order leaves out %s", e.pname(p))
		}
	}
	if s.Initiative < 0 || s.Initiative >= np || e.parties[s.Initiative].passive {
		return fmt.Errorf("edge: state.initiative %d: an active party", s.Initiative)
	}
	return nil
}

// checkOutcome checks how the interaction ended, if it has.
func (e *Engine) checkOutcome(s *State) error {
	o, np := s.Outcome, len(e.parties)
	if o.End < Running || o.End > TimeUp || o.Winner < -1 || o.Winner >= np || o.By < -1 || o.By >= np {
		return fmt.Errorf("edge: state.outcome %+v is not a possible outcome", o)
	}
	if !o.Done() && (o.Winner != -1 || o.By != -1 || o.Partial) {
		return fmt.Errorf("edge: state.outcome %+v: a running interaction has winner and by -1", o)
	}
	if lim := e.rules.roundLimit(); !o.Done() && s.Round >= lim {
		return fmt.Errorf("edge: state.round %d: a running interaction ends at round %d (rules.max_rounds %d)", s.Round, lim, e.rules.MaxRounds)
	}
	return nil
}

// checkParty checks party p's dice and its members.
func (e *Engine) checkParty(p int, ps *PartyState, round int) error {
	pi := e.parties[p]
	if ps.Name != pi.name {
		return fmt.Errorf("edge: state.parties[%d] is %q, the interaction's is %q", p, clip(ps.Name), pi.name)
	}
	if ps.Edge < 0 || ps.Edge > 2*MaxEdge*MaxParties {
		return fmt.Errorf("edge: state.parties[%d].edge = %d: 0..%d edge dice", p, ps.Edge, 2*MaxEdge*MaxParties)
	}
	if (ps.Edge == 0) != ps.Out {
		return fmt.Errorf("edge: state.parties[%d]: edge %d with out %v: a party is out exactly when it holds no edge dice", p, ps.Edge, ps.Out)
	}
	if len(ps.Members) != pi.hi-pi.lo {
		return fmt.Errorf("edge: state.parties[%d] has %d members, the party %d", p, len(ps.Members), pi.hi-pi.lo)
	}
	for m := range ps.Members {
		if err := e.checkMember(pi.lo+m, &ps.Members[m], round); err != nil {
			return fmt.Errorf("edge: state.parties[%d].members[%d]%w", p, m, err)
		}
	}
	return nil
}

// checkMember checks member g's skill history, penalties and group rank
// after round rounds; its errors go on from the member's field name
// (checkParty gives it).
func (e *Engine) checkMember(g int, ms *MemberState, round int) error {
	ns := len(e.skills)
	switch {
	case ms.LastRound < -1 || ms.LastRound > round+1:
		return fmt.Errorf(".last_round %d: -1 (never) up to the round in progress, %d", ms.LastRound, round+1)
	case ms.Name != e.names[g]:
		return fmt.Errorf(" is %q, the interaction's is %q", clip(ms.Name), e.names[g])
	case ms.Last < -1 || ms.Last == 0 || ms.Last >= ns:
		return fmt.Errorf(".last %d: a skill of this interaction (1..%d) or -1 for none", ms.Last, ns-1)
	case ms.Streak < 0 || ms.Streak > maxCount || ms.Rank < 0 || ms.Rank > len(e.rules.Progression):
		return fmt.Errorf(": streak %d (0..%d) or rank %d (0..%d) out of range", ms.Streak, maxCount, ms.Rank, len(e.rules.Progression))
	case ms.Penalty > 0 || ms.Penalty < -maxPenalty:
		return fmt.Errorf(".penalty = %d: outside-factor penalties sum to 0..%d", ms.Penalty, -maxPenalty)
	case ms.Abandoned && e.size[g] <= 1:
		return errors.New(" abandoned stragglers but is not a group")
	case len(ms.Uses) != ns:
		return fmt.Errorf(".uses has %d counts: one for each of the %d skills", len(ms.Uses), ns)
	}
	for s, n := range ms.Uses {
		if n < 0 || n > maxCount || (n > 0 && (s == 0 || e.safe.has(s))) {
			return fmt.Errorf(".uses[%q] = %d: 0..%d, and 0 for a skill safe here", e.skills[s], n, maxCount)
		}
	}
	return nil
}

// checkRunning checks that an interaction still running is one the steps
// would not already have ended: two parties or more hold dice, one of them
// active, and the initiative is with one of them.
func (e *Engine) checkRunning(s *State) error {
	if !s.Started || s.Outcome.Done() {
		return nil
	}
	left, acting := 0, 0
	for p := range e.parties {
		if !s.Parties[p].Out {
			left++
			if !e.parties[p].passive {
				acting++
			}
		}
	}
	if left < 2 || acting == 0 {
		return fmt.Errorf("edge: state: running, but %d parties hold dice (%d of them active): the interaction has ended", left, acting)
	}
	if s.Parties[s.Initiative].Out {
		return fmt.Errorf("edge: state.initiative %d is out of the interaction", s.Initiative)
	}
	return nil
}

// checkTurns checks whose turns are taken this round, when every party
// acts: each active party at most once, with the round's best check so far
// within bounds.
func (e *Engine) checkTurns(s *State) error {
	if len(s.Acted) == 0 {
		return nil
	}
	if e.rules.Turns != EveryParty || !s.Started {
		return errors.New("edge: state.acted belongs to a started interaction where every party acts (rules.turns every_party)")
	}
	if len(s.Acted) > len(e.parties) {
		return fmt.Errorf("edge: state.acted lists %d parties: the interaction has %d", len(s.Acted), len(e.parties))
	}
	var seen [MaxParties]bool
	for i, p := range s.Acted {
		if p < 0 || p >= len(e.parties) || e.parties[p].passive || seen[p] {
			return fmt.Errorf("edge: state.acted[%d] = %d: active parties, each once", i, p)
		}
		seen[p] = true
	}
	b := s.RoundBest
	bound := 10 * maxPenalty
	if b.Party < 0 || b.Party >= len(e.parties) || e.parties[b.Party].passive ||
		b.Total < -bound || b.Total > bound || b.Mod < -bound || b.Mod > bound {
		return fmt.Errorf("edge: state.round_best %+v: an active party's check, within ±%d", b, bound)
	}
	return nil
}
