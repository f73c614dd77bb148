package edge

import (
	"errors"
	"fmt"
	"iter"
	"maps"
	"math/bits"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/named"
)

// End says how an interaction ended.
type End int

// The ways an interaction ends ("Winning a Dramatic Interaction", "Walking
// Away").
const (
	// Running: the interaction has not ended.
	Running End = iota
	// RanOut: every party but one ran out of edge dice; the last one wins.
	RanOut
	// Surrendered: a party handed over its dice, leaving one party in.
	Surrendered
	// WalkedAway: a party walked away; the party holding the most dice is
	// the partial winner.
	WalkedAway
	// TimeUp: the round limit was reached; judged as a walk-away.
	TimeUp
)

var endNames = named.Enum[End]{"running", "ran_out", "surrendered", "walked_away", "time_up"}

func (e End) String() string                { return endNames.String(e) }
func (e End) MarshalText() ([]byte, error)  { return endNames.Marshal(e) }
func (e *End) UnmarshalText(b []byte) error { return endNames.Unmarshal(b, e) }

// Outcome is how an interaction ended.
type Outcome struct {
	// End is how it ended; Running while it goes on.
	End End `json:"end"`
	// Winner is the winning party, or -1 when nobody won (a walk-away with
	// the most dice tied, or still running).
	Winner int `json:"winner"`
	// Partial is set when the winner merely held the most dice as the
	// interaction was abandoned (walk-away or time up), not all of them.
	Partial bool `json:"partial,omitempty"`
	// By is the party that surrendered or walked away, or -1.
	By int `json:"by"`
}

// Done reports whether the interaction has ended.
func (o Outcome) Done() bool { return o.End != Running }

// Concession is a party's choice at the start of a round.
type Concession int

// The choices a party has before each round.
const (
	// Continue plays on.
	Continue Concession = iota
	// Surrender hands all the party's edge dice over and leaves.
	Surrender
	// WalkAway ends the interaction; the party with most dice partly wins.
	WalkAway
)

var concessionNames = named.Enum[Concession]{"continue", "surrender", "walk_away"}

func (c Concession) String() string                { return concessionNames.String(c) }
func (c Concession) MarshalText() ([]byte, error)  { return concessionNames.Marshal(c) }
func (c *Concession) UnmarshalText(b []byte) error { return concessionNames.Unmarshal(b, c) }

// party is the fixed part of a party.
type party struct {
	name    string
	lo, hi  int // global member numbers [lo, hi)
	bonus   int
	passive bool
	tempter bool
	start   int // starting edge dice
}

// Engine plays the rules of one Scenario on States of it. Build one with
// Scenario.NewEngine: it holds what is worked out once from the scenario
// (skills numbered and classified, members numbered across parties, their
// modifiers and the skills each weighs), the parties' policies and the
// Sink, and nothing that changes in play. Every step takes the State it
// works on, and first checks that the State belongs to the engine's
// scenario (rules included) and is whole (State.Check): a State of another
// scenario, or one whose scenario was changed since, is refused rather than
// played by tables that no longer fit it. An Engine copied by value may be
// used from another goroutine with its own State.
type Engine struct {
	// Sink hears every event; nil builds none.
	Sink func(Event)
	// Policies answer the text's choices for Step and Play, one for each
	// party in listing order: the one way policies reach the engine.
	// NewEngine fills it with the parties' registered policies; put another
	// in a party's place to play it (assign a new slice to leave copies of
	// the Engine made before alone).
	Policies []Policy

	scenario Scenario // a private copy, compared with each State's
	rules    Rules
	typ      Type
	typeName string
	factors  []factor

	// Skills are numbered in the order the scenario first names them.
	skills     []string
	skillIdx   map[string]int
	startSkill int // -1 when the tempter goes first
	seizeSkill int
	// What the type and the rules make of each skill: safe in this type
	// ("Can't Fool Me Twice!"), appropriate to it, endurance-type (a
	// group's modifier is a penalty, "Large Parties"), and the skills
	// naturally opposed to each.
	safe, appropriate, endurance skillSet
	opposed                      []skillSet
	repPen                       []int // the Can't Fool Me Twice penalty by repeats, 0..maxCount
	once                         bool  // a character checks once a round (Rules.OnceARound, every party acting)

	// Rules.Check as checkDice dice of checkSides sides plus checkBonus;
	// checkSides is 0 when its dice differ in size.
	checkDice, checkSides, checkBonus int

	// Members are numbered across all parties, party by party.
	parties   []party
	memberOf  []int  // member -> party
	passive   []bool // member of a passive party
	names     []string
	size      []int
	mods      []int      // member*skills+skill: skill, circumstance and party bonus
	known     [][]int    // skills each member lists
	actCand   [][]int    // skills each member may act with (known ones, or all legal)
	reactCand [][]int    // skills each member weighs first when reacting: known and safe ones
	reactSet  []skillSet // the skills in reactCand
	passSkill []int      // a passive member's one skill
	groups    bool       // some member is a group with stragglers to abandon

	initial State // the state before Start
	// scratches holds working spaces for steps taken by hand (begin,
	// release); copies of the engine share it.
	scratches *sync.Pool
	// sealed is the State last stepped by hand (or made by NewState),
	// known to be of the engine's scenario; copies of the engine share it.
	sealed *atomic.Pointer[sealed]
}

// game is an Engine at work on one State for the length of a step (or of
// a Runner's trials): the rules are its methods.
type game struct {
	*Engine
	s *State
	w *scratch
}

// scratch is the working space of one State's rounds, rewritten before it
// is read each round; it holds nothing of the game.
type scratch struct {
	g       game
	view    View
	decl    Declaration
	parts   []participant
	nAct    int // checks of the acting party at the front of parts
	nStaked int // staked checks at the front of parts
	faces   []int
	ordered []int
	// The declaration's lists, at their largest.
	targets, seize [MaxParties]int
	checks         [MaxMembers]Use
	reactions      [MaxParties]Reaction
	reactionChecks [MaxParties][MaxMembers]Use // by the reacting party
	// shed lists the groups (numbered across parties) whose parties chose
	// to abandon their stragglers this step, abandoned once every group
	// asked has answered.
	shed  [MaxParties * MaxMembers]int
	nShed int
	// refused is the refusal of the answer just given through a Game's
	// Chooser (one of another type than the question's): the step stops
	// where it was given, before it changes anything.
	refused error
}

// skillSet is a set of the skills of one interaction (numbered 1..MaxSkills;
// skill 0, none, is never added to a set).
type skillSet uint64

func (k skillSet) has(s int) bool { return k&(1<<uint(s)) != 0 }
func (k *skillSet) add(s int)     { *k |= 1 << uint(s) }

// all yields the skills of k in increasing order.
func (k skillSet) all() iter.Seq[int] {
	return func(yield func(int) bool) {
		for ; k != 0; k &= k - 1 {
			if !yield(bits.TrailingZeros64(uint64(k))) {
				return
			}
		}
	}
}

// partySet is a set of the parties of one interaction (at most MaxParties).
type partySet uint16

func (k partySet) has(p int) bool { return k&(1<<uint(p)) != 0 }
func (k *partySet) add(p int)     { *k |= 1 << uint(p) }

type factor struct {
	Factor
	skill   int
	parties []bool
}

// maxCount bounds the uses and streaks counted for Can't Fool Me Twice;
// beyond the last penalty step more no longer matters.
const maxCount = 100

// maxPenalty bounds the outside-factor penalties a member accumulates.
const maxPenalty = 100 * MaxModifier

// View is a read-only look at a State under its Engine, given to
// policies.
type View struct{ in *game }

// View returns a read-only view of s, for calling a policy by hand. A
// State that does not belong to the engine gets an error.
func (e *Engine) View(s *State) (*View, error) {
	in, err := e.begin(s)
	if err != nil {
		return nil, err
	}
	return &in.w.view, nil
}

// Rules returns a copy of the engine's rules.
func (e *Engine) Rules() Rules { return e.rules.clone() }

// Scenario returns a copy of the engine's scenario.
func (e *Engine) Scenario() Scenario { return e.scenario.clone() }

// Skill returns the number of a skill name, for a Use.
func (e *Engine) Skill(name string) (int, bool) {
	i, ok := e.skillIdx[name]
	return i, ok
}

// SkillName returns the name of skill s.
func (e *Engine) SkillName(s int) string {
	if s < 1 || s >= len(e.skills) {
		return fmt.Sprintf("skill#%d", s)
	}
	return e.skills[s]
}

// NewState returns the state of a new interaction, before Start.
func (e *Engine) NewState() *State {
	s := e.initial.Clone()
	if e.sealed != nil {
		e.sealed.Store(&sealed{s: &s, scenario: s.Scenario})
	}
	return &s
}

// build validates s and sets up an interaction (without policies).
func build(s Scenario) (*Engine, error) {
	if err := s.check(); err != nil {
		return nil, err
	}
	s = s.clone()
	in := &Engine{scenario: s, rules: s.Rules, typ: s.Rules.Types[s.Type], typeName: s.Type}
	in.index(s)
	if ns := len(in.skills) - 1; ns > MaxSkills {
		return nil, fmt.Errorf("edge: %d distinct skills: at most %d", ns, MaxSkills)
	}
	in.classify(s)
	if c := s.Rules.Check; c.Die(0) == c.Die(c.Len()-1) {
		in.checkDice, in.checkSides, in.checkBonus = c.Len(), c.Die(0).Sides(), c.Modifier()
	}
	in.setMembers(s)
	in.Policies = make([]Policy, len(s.Parties))
	in.scratches = &sync.Pool{New: func() any { return in.newScratch() }}
	in.sealed = &atomic.Pointer[sealed]{}
	return in, nil
}

// check reports the first thing wrong with s, naming the field.
func (s Scenario) check() error {
	r := s.Rules
	if err := r.Validate(); err != nil {
		return err
	}
	if err := checkName("type", s.Type); err != nil {
		return err
	}
	if _, ok := r.Types[s.Type]; !ok {
		return fmt.Errorf("edge: type %q is not in rules.types: want one of %s", s.Type, named.Allowed(slices.Sorted(maps.Keys(r.Types))))
	}
	if len(s.Parties) < 2 || len(s.Parties) > MaxParties {
		return fmt.Errorf("edge: parties: %d given; an interaction needs 2..%d parties", len(s.Parties), MaxParties)
	}
	if err := s.checkParties(); err != nil {
		return err
	}
	if len(s.Circumstances) > MaxSkills {
		return fmt.Errorf("edge: circumstances: %d skills, at most %d", len(s.Circumstances), MaxSkills)
	}
	for _, k := range slices.Sorted(maps.Keys(s.Circumstances)) {
		if err := checkName("circumstances name", k); err != nil {
			return err
		}
		if err := checkMod("circumstances["+k+"]", s.Circumstances[k]); err != nil {
			return err
		}
	}
	if len(s.Factors) > MaxFactors {
		return fmt.Errorf("edge: outside_factors: %d given, at most %d", len(s.Factors), MaxFactors)
	}
	for i, f := range s.Factors {
		if err := s.checkFactor(fmt.Sprintf("outside_factors[%d]", i), f); err != nil {
			return err
		}
	}
	return nil
}

// checkParties reports the first thing wrong with the parties.
func (s Scenario) checkParties() error {
	names := map[string]bool{}
	slugs := map[string]string{}
	active, tempters := 0, 0
	for i, p := range s.Parties {
		field := fmt.Sprintf("parties[%d]", i)
		if err := checkName(field+".name", p.Name); err != nil {
			return err
		}
		if err := checkName(field+".policy", p.Policy); err != nil {
			return err
		}
		if p.Name == "" {
			return fmt.Errorf("edge: %s.name is empty: every party needs a name", field)
		}
		if names[p.Name] {
			return fmt.Errorf("edge: %s.name %q is used twice: party names are unique", field, p.Name)
		}
		names[p.Name] = true
		sl := slug(p.Name)
		if sl == "" {
			return fmt.Errorf("edge: %s.name %q has no letters or digits", field, p.Name)
		}
		if o, ok := slugs[sl]; ok {
			return fmt.Errorf("edge: %s.name %q reads the same as %q in outcome names", field, p.Name, o)
		}
		slugs[sl] = p.Name
		if err := s.checkParty(field, p); err != nil {
			return err
		}
		if !p.Passive {
			active++
		}
		if p.Tempter {
			tempters++
		}
	}
	if active == 0 {
		return errors.New("edge: parties: every party is passive; at least one must act")
	}
	if s.Rules.Types[s.Type].TempterFirst && tempters == 0 {
		return fmt.Errorf("edge: type %q gives the tempter the first action but no party has tempter set", s.Type)
	}
	return nil
}

// checkParty reports the first thing wrong with one party and its members.
func (s Scenario) checkParty(field string, p Party) error {
	if len(p.Members) == 0 {
		return fmt.Errorf("edge: %s (%q) has no members: a party needs 1..%d", field, p.Name, MaxMembers)
	}
	if len(p.Members) > MaxMembers {
		return fmt.Errorf("edge: %s (%q) has %d members: at most %d (make a crowd one member with a size)", field, p.Name, len(p.Members), MaxMembers)
	}
	if p.BonusEdge < 0 {
		return fmt.Errorf("edge: %s.bonus_edge = %d: edge dice cannot be negative (give the other side bonus dice instead)", field, p.BonusEdge)
	}
	if p.BonusEdge > MaxEdge-s.Rules.StartEdge { // rules.start_edge is 1..MaxEdge
		return fmt.Errorf("edge: %s.bonus_edge = %d: at most %d edge dice in all", field, p.BonusEdge, MaxEdge)
	}
	if s.Rules.StartEdge+p.BonusEdge > MaxEdge {
		return fmt.Errorf("edge: %s.bonus_edge = %d: at most %d edge dice in all", field, p.BonusEdge, MaxEdge)
	}
	if err := checkMod(field+".bonus", p.Bonus); err != nil {
		return err
	}
	if p.Passive && p.Tempter {
		return fmt.Errorf("edge: %s (%q) is both passive and tempter: a passive party never acts", field, p.Name)
	}
	for j, m := range p.Members {
		mf := fmt.Sprintf("%s.members[%d]", field, j)
		if err := checkName(mf+".name", m.Name); err != nil {
			return err
		}
		if m.Name == "" {
			return fmt.Errorf("edge: %s.name is empty", mf)
		}
		if m.Size < 0 {
			return fmt.Errorf("edge: %s.size = %d: a group's size is 0, 1 or more", mf, m.Size)
		}
		if len(m.Skills) > MaxSkills {
			return fmt.Errorf("edge: %s.skills lists %d skills: at most %d", mf, len(m.Skills), MaxSkills)
		}
		for _, k := range slices.Sorted(maps.Keys(m.Skills)) {
			if err := checkName(mf+".skills name", k); err != nil {
				return err
			}
			if k == "" {
				return fmt.Errorf("edge: %s.skills has an empty skill name", mf)
			}
			if err := checkMod(mf+".skills["+k+"]", m.Skills[k]); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkFactor reports the first thing wrong with one outside factor.
func (s Scenario) checkFactor(field string, f Factor) error {
	if f.Skill == "" {
		return fmt.Errorf("edge: %s.skill is empty: name the skill the GM asks for", field)
	}
	if err := checkName(field+".skill", f.Skill); err != nil {
		return err
	}
	if f.After < 0 || f.Every < 0 || f.After > MaxRoundLimit || f.Every > MaxRoundLimit {
		return fmt.Errorf("edge: %s: after %d and every %d must be 0..%d", field, f.After, f.Every, MaxRoundLimit)
	}
	if f.Penalty > 0 || f.Penalty < -MaxModifier {
		return fmt.Errorf("edge: %s.penalty = %d: a penalty is 0 or negative", field, f.Penalty)
	}
	if err := checkMod(field+".dc", f.DC); err != nil {
		return err
	}
	if len(f.Parties) > MaxParties {
		return fmt.Errorf("edge: %s.parties names %d parties: at most %d", field, len(f.Parties), MaxParties)
	}
	if err := checkNames(field+".parties", f.Parties); err != nil {
		return err
	}
	for _, n := range f.Parties {
		if !slices.ContainsFunc(s.Parties, func(p Party) bool { return p.Name == n }) {
			return fmt.Errorf("edge: %s.parties names %q, which is not a party", field, n)
		}
	}
	return nil
}

// index numbers every skill the scenario names (skillNames).
func (in *Engine) index(s Scenario) {
	in.skills = skillNames(s)
	in.skillIdx = make(map[string]int, len(in.skills))
	for i, k := range in.skills {
		in.skillIdx[k] = i
	}
}

// skillNames lists every skill the scenario names, in the order it first
// names them: the type's, the rules', the members', the circumstances' and
// the outside factors'. A skill's number is its place in this list, which
// begins with "", skill 0: no skill, so that a Use left empty names none.
func skillNames(s Scenario) []string {
	names := []string{""}
	seen := map[string]bool{}
	add := func(name string) {
		if !seen[name] && name != "" {
			seen[name] = true
			names = append(names, name)
		}
	}
	typ, r := s.Rules.Types[s.Type], s.Rules
	add(typ.Start)
	add(typ.Seize)
	for _, lists := range [][]string{typ.Skills, typ.Safe, r.Endurance} {
		for _, k := range lists {
			add(k)
		}
	}
	for _, pr := range r.Opposed {
		add(pr[0])
		add(pr[1])
	}
	for _, p := range s.Parties {
		for _, m := range p.Members {
			for _, k := range slices.Sorted(maps.Keys(m.Skills)) {
				add(k)
			}
		}
	}
	for _, k := range slices.Sorted(maps.Keys(s.Circumstances)) {
		add(k)
	}
	for _, f := range s.Factors {
		add(f.Skill)
	}
	return names
}

// classify marks each skill safe, appropriate or endurance-type, pairs the
// naturally opposed ones, and resolves the type's and factors' skills.
func (in *Engine) classify(s Scenario) {
	ns, typ, r := len(in.skills), in.typ, s.Rules
	in.opposed = make([]skillSet, ns)
	for _, k := range typ.Safe {
		in.safe.add(in.skillIdx[k])
	}
	for sk := 1; sk < ns; sk++ {
		if len(typ.Skills) == 0 || slices.Contains(typ.Skills, in.skills[sk]) {
			in.appropriate.add(sk)
		}
	}
	for _, k := range r.Endurance {
		in.endurance.add(in.skillIdx[k])
	}
	for _, pr := range r.Opposed {
		a, b := in.skillIdx[pr[0]], in.skillIdx[pr[1]]
		in.opposed[a].add(b)
		in.opposed[b].add(a)
	}
	in.once = r.OnceARound && r.Turns == EveryParty
	in.repPen = make([]int, maxCount+1)
	for n := range in.repPen {
		in.repPen[n] = r.repetitionPenalty(n)
	}
	in.startSkill = -1
	if !typ.TempterFirst {
		in.startSkill = in.skillIdx[typ.Start]
	}
	in.seizeSkill = in.skillIdx[typ.Seize]
	for _, f := range s.Factors {
		ff := factor{Factor: f, skill: in.skillIdx[f.Skill], parties: make([]bool, len(s.Parties))}
		for i, p := range s.Parties {
			ff.parties[i] = len(f.Parties) == 0 || slices.Contains(f.Parties, p.Name)
		}
		in.factors = append(in.factors, ff)
	}
}

// setMembers numbers the members across parties, works out each one's
// modifiers and candidate skills, and sets the starting state.
func (in *Engine) setMembers(s Scenario) {
	ns, nm := len(in.skills), 0
	for _, p := range s.Parties {
		nm += len(p.Members)
	}
	in.mods = make([]int, nm*ns)
	st := &in.initial
	st.Scenario, st.Initiative, st.Order = s, -1, []int{}
	st.Outcome = Outcome{Winner: -1, By: -1}
	for i, p := range s.Parties {
		pi := party{name: p.Name, lo: len(in.names), bonus: p.Bonus, passive: p.Passive, tempter: p.Tempter,
			start: s.Rules.StartEdge + p.BonusEdge}
		ps := PartyState{Name: p.Name, Edge: pi.start}
		for _, m := range p.Members {
			g := len(in.names)
			in.names = append(in.names, m.Name)
			in.memberOf = append(in.memberOf, i)
			in.passive = append(in.passive, p.Passive)
			in.size = append(in.size, m.Size)
			for sk := range ns {
				in.mods[g*ns+sk] = m.Skills[in.skills[sk]] + s.Circumstances[in.skills[sk]] + p.Bonus
			}
			in.setCandidates(g, m)
			ps.Members = append(ps.Members, MemberState{Name: m.Name, Uses: make([]int, ns), Last: -1, LastRound: -1,
				Rank: s.Rules.GroupRank(m.Size)})
			in.groups = in.groups || m.Size > 1
		}
		pi.hi = len(in.names)
		in.parties = append(in.parties, pi)
		st.Parties = append(st.Parties, ps)
	}
}

// setCandidates lists the skills member g (m) weighs: the ones it knows
// that suit the type for acting (every legal one if it knows none), the
// ones it knows and the safe ones for reacting, and, for a passive member,
// its one best skill.
func (in *Engine) setCandidates(g int, m Member) {
	ns := len(in.skills)
	var known []int
	for _, k := range slices.Sorted(maps.Keys(m.Skills)) {
		known = append(known, in.skillIdx[k])
	}
	slices.Sort(known)
	in.known = append(in.known, known)
	var act []int
	for _, sk := range known {
		if in.actLegal(sk) {
			act = append(act, sk)
		}
	}
	if len(act) == 0 {
		for sk := 1; sk < ns; sk++ {
			if in.actLegal(sk) {
				act = append(act, sk)
			}
		}
	}
	in.actCand = append(in.actCand, act)
	react := slices.Clone(known)
	for sk := 1; sk < ns; sk++ {
		if in.safe.has(sk) && !slices.Contains(react, sk) {
			react = append(react, sk)
		}
	}
	in.reactCand = append(in.reactCand, react)
	var set skillSet
	for _, sk := range react {
		set.add(sk)
	}
	in.reactSet = append(in.reactSet, set)
	best := in.seizeSkill
	for _, sk := range known {
		if m.Skills[in.skills[sk]] > m.Skills[in.skills[best]] {
			best = sk
		}
	}
	in.passSkill = append(in.passSkill, best)
}

// newScratch sizes the working space of one round: at most every member
// of every party checks, plus one passive check per actor check per
// passive party and one seize check per party.
func (in *Engine) newScratch() *scratch {
	np, nm := len(in.parties), len(in.names)
	w := &scratch{}
	w.view.in = &w.g
	w.parts = make([]participant, 0, nm*2+np*MaxMembers)
	w.faces = make([]int, 0, in.rules.Check.Len())
	w.ordered = make([]int, 0, np)
	d := &w.decl
	d.Action.Targets = w.targets[:0]
	d.Action.Checks = w.checks[:0]
	d.Reactions = w.reactions[:0]
	d.Seize = w.seize[:0]
	return w
}

// member converts a party-local member to a global one, or -1.
func (in *Engine) member(p, m int) int {
	if p < 0 || p >= len(in.parties) || m < 0 || m >= in.parties[p].hi-in.parties[p].lo {
		return -1
	}
	return in.parties[p].lo + m
}

// base is the modifier of member g (numbered across parties, in state m)
// on skill s before repetition and pairing: skill, circumstance, party
// bonus, outside-factor penalties and the group modifier ("Large
// Parties").
func (in *game) base(g int, m *MemberState, s int) int {
	mod := in.mods[g*len(in.skills)+s] + m.Penalty
	switch {
	case m.Rank == 0:
	case !in.endurance.has(s):
		mod += m.Rank
	case !m.Abandoned:
		// A group is only as strong as its weakest member.
		mod -= m.Rank
	}
	return mod
}

// repetition is the Can't Fool Me Twice penalty for member g (in state m)
// using s in the next round. Passive parties never pay it.
func (in *game) repetition(g int, m *MemberState, s int) int {
	if in.passive[g] {
		return 0
	}
	return in.repPen[repeats(m, s, in.runOf(m))]
}

// runOf returns the safe skill member m used in the round just played, whose
// run of consecutive rounds the next round may go on, or -1.
func (in *game) runOf(m *MemberState) int {
	if m.LastRound == in.s.Round && m.Last >= 0 && in.safe.has(m.Last) {
		return m.Last
	}
	return -1
}

// repeats is how often member m has repeated s for Can't Fool Me Twice:
// its earlier uses (never counted for a safe skill), or for the safe skill
// of its run (runOf) the length of that run.
func repeats(m *MemberState, s, run int) int {
	n := m.Uses[s]
	if s == run {
		n = m.Streak
	}
	return n
}

// mem returns the state of member g (numbered across parties).
func (in *game) mem(g int) *MemberState {
	p := in.memberOf[g]
	return &in.s.Parties[p].Members[g-in.parties[p].lo]
}

// actLegal reports whether an acting member may use s: an appropriate or a
// safe skill.
func (in *Engine) actLegal(s int) bool { return in.appropriate.has(s) || in.safe.has(s) }

// reactMod returns the extra modifier of reacting with s against an action
// using the skills in acted, and whether that is legal ("Wagering Edge
// Dice"): the same skill, a naturally opposed one or a safe one at no cost,
// another appropriate skill at the Unpaired penalty.
func (in *Engine) reactMod(s int, acted skillSet) (int, bool) {
	switch {
	case acted.has(s), in.safe.has(s), in.opposed[s]&acted != 0:
		return 0, true
	case in.appropriate.has(s):
		return in.rules.Unpaired, true
	}
	return 0, false
}

// leader returns the member of p who makes its starting and seizing
// checks with skill s, and its modifier: by Rules.PartyCheck, the member
// with the best base modifier (the first on ties) or the first listed.
func (in *game) leader(p, s int) (int, int) {
	best := in.parties[p].lo
	mod := in.base(best, in.mem(best), s)
	if in.rules.PartyCheck == FirstMember {
		return best, mod
	}
	for g := best + 1; g < in.parties[p].hi; g++ {
		if m := in.base(g, in.mem(g), s); m > mod {
			best, mod = g, m
		}
	}
	return best, mod
}

// roll makes one check roll before modifiers (Rules.Check, a d20). A
// check of dice of one size is totalled as it is rolled (dice.Roller.SumN:
// the faces Pool.Roll would show, not written down).
func (in *game) roll(r *dice.Roller) int {
	switch {
	case in.checkDice == 1 && in.checkSides > 0:
		return r.Roll(in.checkSides) + in.checkBonus
	case in.checkSides > 0:
		return r.SumN(in.checkDice, in.checkSides) + in.checkBonus
	}
	check := &in.rules.Check
	return check.Total(check.Roll(r, in.w.faces))
}

// Party returns the number of the party named name.
func (in *Engine) Party(name string) (int, bool) {
	p := in.partyIndex(name)
	return p, p >= 0
}

// UseOf returns the check of the member named member of party p with the
// skill named skill, for an Action or a Reaction, so callers can name
// members and skills instead of numbering them.
func (in *Engine) UseOf(p int, member, skill string) (Use, error) {
	if p < 0 || p >= len(in.parties) {
		return Use{}, fmt.Errorf("edge: party %d does not exist: parties are 0..%d", p, len(in.parties)-1)
	}
	s, ok := in.skillIdx[skill]
	if !ok {
		return Use{}, fmt.Errorf("edge: skill %q is not a skill of this interaction: want one of %s", clip(skill), named.Allowed(in.skills[1:]))
	}
	pi := in.parties[p]
	i := slices.Index(in.names[pi.lo:pi.hi], member)
	if i < 0 {
		return Use{}, fmt.Errorf("edge: %s has no member %q: want one of %s", in.pname(p), clip(member), named.Allowed(in.names[pi.lo:pi.hi]))
	}
	return Use{Member: i, Skill: s}, nil
}
