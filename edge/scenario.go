package edge

import (
	"fmt"
	"maps"
	"slices"

	"github.com/stakesrpg/stakes/dice"
)

// Scenario is everything a designer sets for one simulated interaction: the
// rules, the type, the parties (with their policies by registry name),
// circumstance modifiers and outside factors. It reads and writes as JSON
// with stable snake_case names.
type Scenario struct {
	// Rules are the numbers and tables (DefaultRules).
	Rules Rules `json:"rules"`
	// Type names the interaction type in Rules.Types, such as chase.
	Type string `json:"type"`
	// Parties are the sides, 2..MaxParties.
	Parties []Party `json:"parties"`
	// Circumstances are modifiers on every check with a skill, for
	// conditions that affect everyone (a slick roof for acrobatics).
	Circumstances map[string]int `json:"circumstances,omitempty"`
	// Factors are the GM's outside-factor checks between rounds.
	Factors []Factor `json:"outside_factors,omitempty"`
}

// DefaultScenario is the text's car chase as a balance question: Becky
// drives the lead car with Bob shooting from the window, under a cautious
// policy; Joe chases alone in a faster car (one bonus edge die) under a
// reckless one.
func DefaultScenario() Scenario {
	return Scenario{
		Rules: DefaultRules(),
		Type:  "chase",
		Parties: []Party{
			{Name: "lead car", Policy: "cautious", Members: []Member{
				{Name: "Becky", Skills: map[string]int{"vehicles": 6, "reflex": 3, "perception": 2}},
				{Name: "Bob", Skills: map[string]int{"ranged attack": 5, "vehicles": 1, "reflex": 2, "perception": 3}},
			}},
			{Name: "pursuer", Policy: "reckless", BonusEdge: 1, Members: []Member{
				{Name: "Joe", Skills: map[string]int{"vehicles": 7, "ranged attack": 2, "reflex": 4, "defense": 3}},
			}},
		},
	}
}

// clone returns a deep copy of s, which shares nothing with it.
func (s Scenario) clone() Scenario {
	c := s
	c.Rules = s.Rules.clone()
	c.Parties = slices.Clone(s.Parties)
	for i := range c.Parties {
		c.Parties[i].Members = slices.Clone(c.Parties[i].Members)
		for j := range c.Parties[i].Members {
			c.Parties[i].Members[j].Skills = maps.Clone(c.Parties[i].Members[j].Skills)
		}
	}
	c.Circumstances = maps.Clone(s.Circumstances)
	c.Factors = slices.Clone(s.Factors)
	for i := range c.Factors {
		c.Factors[i].Parties = slices.Clone(c.Factors[i].Parties)
	}
	return c
}

// same reports whether o is the same scenario as s, field by field (an
// empty list or map and none are the same, as in JSON).
func (s *Scenario) same(o *Scenario) bool {
	return s.Type == o.Type && s.Rules.same(&o.Rules) &&
		slices.EqualFunc(s.Parties, o.Parties, Party.same) &&
		maps.Equal(s.Circumstances, o.Circumstances) &&
		slices.EqualFunc(s.Factors, o.Factors, Factor.same)
}

// kept reports whether o is still s, a shallow copy of it made earlier
// (State.seal): its plain fields the same and each of its lists and maps
// the very one s holds. Entries of those lists and maps changed in place
// are not looked for (a State's steps play their engine's own scenario).
func (s *Scenario) kept(o *Scenario) bool {
	r, q := &s.Rules, &o.Rules
	return s.Type == o.Type && sameList(s.Parties, o.Parties) && sameList(s.Factors, o.Factors) &&
		len(s.Circumstances) == len(o.Circumstances) && r.Check.Equal(q.Check) && r.StartEdge == q.StartEdge &&
		sameList(r.Repetition, q.Repetition) && r.Unpaired == q.Unpaired && sameList(r.Opposed, q.Opposed) &&
		len(r.Types) == len(q.Types) && sameList(r.Progression, q.Progression) && sameList(r.Endurance, q.Endurance) &&
		r.MultiTarget == q.MultiTarget && r.MaxRounds == q.MaxRounds && r.TieBreak == q.TieBreak &&
		r.InitiativeTie == q.InitiativeTie && r.PassiveStake == q.PassiveStake && r.SurrenderTo == q.SurrenderTo &&
		r.PartyCheck == q.PartyCheck && r.FactorPenalty == q.FactorPenalty && r.Turns == q.Turns &&
		r.WagerBeyondPool == q.WagerBeyondPool && r.LoneRank == q.LoneRank && r.OnceARound == q.OnceARound
}

// sameList reports whether a and b are the very same list: the same
// length and, if not empty, the same first element in memory.
func sameList[T any](a, b []T) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// same reports whether o is the same party as p.
func (p Party) same(o Party) bool {
	return p.Name == o.Name && p.BonusEdge == o.BonusEdge && p.Bonus == o.Bonus && p.Passive == o.Passive &&
		p.Tempter == o.Tempter && p.Policy == o.Policy && slices.EqualFunc(p.Members, o.Members, Member.same)
}

// same reports whether o is the same member as m.
func (m Member) same(o Member) bool {
	return m.Name == o.Name && m.Size == o.Size && maps.Equal(m.Skills, o.Skills)
}

// same reports whether o is the same outside factor as f.
func (f Factor) same(o Factor) bool {
	return f.After == o.After && f.Every == o.Every && f.Skill == o.Skill && f.DC == o.DC &&
		f.Penalty == o.Penalty && slices.Equal(f.Parties, o.Parties)
}

// Validate reports the first thing wrong with s; errors name the field.
func (s Scenario) Validate() error {
	_, err := s.NewEngine()
	return err
}

// NewEngine builds the engine of s with each party's registered policy;
// its NewState is the interaction before Start.
func (s Scenario) NewEngine() (*Engine, error) {
	in, err := build(s)
	if err != nil {
		return nil, err
	}
	for i, p := range s.Parties {
		pol, err := PolicyByName(p.Policy)
		if err != nil {
			return nil, fmt.Errorf("edge: parties[%d].policy: %w", i, err)
		}
		in.Policies[i] = pol
	}
	return in, nil
}

// Categories returns the outcome names: "<party>_wins" for each party,
// then "<party>_partial" for each (a walk-away or time-up with that party
// holding the most dice), then "draw" (nobody holding the most).
func (s Scenario) Categories() []string {
	var out []string
	for _, p := range s.Parties {
		out = append(out, slug(p.Name)+"_wins")
	}
	for _, p := range s.Parties {
		out = append(out, slug(p.Name)+"_partial")
	}
	return append(out, "draw")
}

// category maps an outcome to its index in Categories.
func category(o Outcome, parties int) int {
	switch {
	case o.Winner < 0:
		return 2 * parties
	case o.Partial:
		return parties + o.Winner
	}
	return o.Winner
}

// maxEdgeMetrics bounds the per-party edge metrics so there are at most 8.
const maxEdgeMetrics = 5

// Metrics returns the integer metric names: rounds played, edge dice that
// changed hands, changes of initiative, then the final edge dice of the
// first five parties.
func (s Scenario) Metrics() []string {
	out := []string{"rounds", "transfers", "initiative_changes"}
	for i, p := range s.Parties {
		if i == maxEdgeMetrics {
			break
		}
		out = append(out, slug(p.Name)+"_edge")
	}
	return out
}

// Runner plays trials of one scenario through the engine's steps. It is
// preallocated; give each goroutine its own.
type Runner struct {
	in      *game // the engine lent to the Runner's own state
	parties int
}

// NewRunner validates s and prepares a Runner.
func (s Scenario) NewRunner() (*Runner, error) {
	e, err := s.NewEngine()
	if err != nil {
		return nil, err
	}
	return &Runner{in: e.lend(e.NewState()), parties: len(s.Parties)}, nil
}

// Trial plays one complete interaction from the start under the
// scenario's policies, fills metrics (as many as both it and Metrics have)
// and returns the outcome category. A trial stopped by an error (a
// policy's illegal answer, a nil Roller) returns that error and -1: it has
// no outcome.
func (rn *Runner) Trial(r *dice.Roller, metrics []int) (int, error) {
	if r == nil {
		return -1, noRoller("Trial")
	}
	in := rn.in
	in.s.resetTo(&in.initial)
	for !in.s.Outcome.Done() {
		if err := in.step(r); err != nil {
			return -1, err
		}
	}
	rn.metrics(metrics)
	return category(in.s.Outcome, rn.parties), nil
}

// metrics writes the finished trial's metrics (as Metrics names them).
func (rn *Runner) metrics(metrics []int) {
	writeMetrics(rn.in.s, rn.parties, metrics)
}

// writeMetrics writes the metrics of finished state st of an interaction
// of parties parties: rounds, transfers, initiative changes and the first
// parties' edge dice.
func writeMetrics(st *State, parties int, metrics []int) {
	vals := [3 + maxEdgeMetrics]int{st.Round, st.Transfers, st.InitiativeChanges}
	for p := 0; p < parties && p < maxEdgeMetrics; p++ {
		vals[3+p] = st.Parties[p].Edge
	}
	copy(metrics, vals[:3+min(parties, maxEdgeMetrics)])
}
