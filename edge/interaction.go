package edge

import (
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/stakesrpg/stakes/dice"
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

var endNames = [...]string{"running", "ran_out", "surrendered", "walked_away", "time_up"}

// String returns the snake_case name of e.
func (e End) String() string {
	if e < 0 || int(e) >= len(endNames) {
		return fmt.Sprintf("End(%d)", int(e))
	}
	return endNames[e]
}

// MarshalText writes e by name.
func (e End) MarshalText() ([]byte, error) {
	if e < 0 || int(e) >= len(endNames) {
		return nil, fmt.Errorf("edge: unknown end %d", int(e))
	}
	return []byte(endNames[e]), nil
}

// UnmarshalText reads an end by name.
func (e *End) UnmarshalText(b []byte) error {
	i := slices.Index(endNames[:], string(b))
	if i < 0 {
		return fmt.Errorf("edge: unknown end %q: want one of %v", b, endNames)
	}
	*e = End(i)
	return nil
}

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

// String returns the name of c.
func (c Concession) String() string {
	switch c {
	case Continue:
		return "continue"
	case Surrender:
		return "surrender"
	case WalkAway:
		return "walk_away"
	}
	return fmt.Sprintf("Concession(%d)", int(c))
}

// dyn is the changing part of an interaction; everything else is fixed at
// setup. Member slices are indexed by global member number, uses by
// member*skills+skill.
type dyn struct {
	round      int
	started    bool
	initiative int
	factored   int // the round before which outside factors were last checked
	order      []int
	edge       []int
	out        []bool
	outcome    Outcome
	uses       []int8
	mem        []memberDyn
	transfers  int
	changes    int
}

func (d *dyn) alloc(parties, members, skills int) {
	d.order = make([]int, 0, parties)
	d.edge = make([]int, parties)
	d.out = make([]bool, parties)
	d.uses = make([]int8, members*skills)
	d.mem = make([]memberDyn, members)
}

// copyFrom makes d equal to s without allocating (both from alloc with the
// same sizes).
func (d *dyn) copyFrom(s *dyn) {
	d.round, d.started, d.initiative, d.factored = s.round, s.started, s.initiative, s.factored
	d.order = append(d.order[:0], s.order...)
	copy(d.edge, s.edge)
	copy(d.out, s.out)
	d.outcome = s.outcome
	copy(d.uses, s.uses)
	copy(d.mem, s.mem)
	d.transfers, d.changes = s.transfers, s.changes
}

// memberDyn is the changing state of one member, kept together so a check
// touches one cache line.
type memberDyn struct {
	last      int // skill last used, -1 for none
	lastRound int // the round it was used in
	streak    int // rounds running it was used
	penalty   int // outside-factor penalties
	rank      int // group rank on the progression table
	abandoned bool
}

// party is the fixed part of a party.
type party struct {
	name    string
	lo, hi  int // global member numbers [lo, hi)
	bonus   int
	passive bool
	tempter bool
	start   int // starting edge dice
}

// Interaction is one dramatic interaction: the fixed setup (rules, type,
// parties, policies) and its changing state, advanced by step functions.
// Build one with Scenario.New. An Interaction is not safe for concurrent use.
type Interaction struct {
	rules    Rules
	typ      Type
	typeName string
	factors  []factor

	skills      []string
	skillIdx    map[string]int
	safe        []bool
	appropriate []bool
	endurance   []bool
	opp         []uint64 // opp[s]: skills naturally opposed to s
	startSkill  int      // -1 when the tempter goes first
	seizeSkill  int
	circ        []int

	parties     []party
	memberOf    []int // global member -> party
	names       []string
	mods        []int      // member*skills+skill
	stat        []int      // mods plus circumstance and party bonus
	passiveM    []bool     // member of a passive party
	groups      bool       // some member is a group with stragglers to abandon
	safeMask    uint64     // skills safe in this type
	apprMask    uint64     // skills appropriate to this type
	endMask     uint64     // endurance-type skills
	repTab      [128]int32 // repTab[n]: penalty after n uses (0 for none); counts stop at 100
	known       [][]int    // skills each member lists
	actCand     [][]int    // skills each member may act with (known ones, or all legal)
	reactCand   [][]int    // skills each member might react with, besides the actor's
	actList     [][]cand   // actCand by descending static modifier
	reactList   [][]cand   // reactCand by descending static modifier
	reactSet    []uint64   // the skills in reactCand
	passSkill   []int      // a passive member's one skill
	size        []int
	checkDice   []dice.Die
	checkMod    int
	checkD      int // sides when the check is a single die, else 0
	batch       int // checks rolled from one IntN (d^batch <= 2^32), 0 for none
	batchPow    [maxBatch + 1]int
	batchC      uint64 // ceil(2^64 / checkD)
	repLen      int
	pol         []Policy
	sink        Sink
	st, start   dyn
	saved       dyn
	decl        Declaration
	parts       []participant
	nAct        int // checks of the acting party at the front of parts
	nStaked     int // staked checks at the front of parts
	faceBuf     []int
	passiveMask uint32           // passive parties
	duel        bool             // two parties, neither passive
	lone        bool             // a duel of one member a side
	reactOf     [MaxParties]int8 // reaction of each targeted party in that declaration
	orderBuf    []int
	rk          ranked // styleChecks' scratch
}

type factor struct {
	Factor
	skill   int
	parties []bool
}

// maxBatch bounds the checks rolled from one draw (a power of two less
// one, for a mask).
const maxBatch = 15

// maxPenalty bounds the outside-factor penalties a member accumulates.
const maxPenalty = 100 * MaxModifier

// View is a read-only look at an interaction, given to policies.
type View struct{ in *Interaction }

// View returns a read-only view of in.
func (in *Interaction) View() View { return View{in} }

// SetPolicy sets the policy that decides for party p in Step and Run.
func (in *Interaction) SetPolicy(p int, pol Policy) error {
	if p < 0 || p >= len(in.parties) {
		return fmt.Errorf("edge: party %d does not exist: there are %d", p, len(in.parties))
	}
	if pol == nil {
		return fmt.Errorf("edge: nil policy for party %q", in.parties[p].name)
	}
	in.pol[p] = pol
	return nil
}

// SetSink sets where events go; nil turns them off (at no cost).
func (in *Interaction) SetSink(s Sink) { in.sink = s }

// Rules returns the interaction's rules.
func (in *Interaction) Rules() Rules { return in.rules }

// Skill returns the index of a skill name, for Use.
func (in *Interaction) Skill(name string) (int, bool) {
	i, ok := in.skillIdx[name]
	return i, ok
}

// SkillName returns the name of skill s.
func (in *Interaction) SkillName(s int) string {
	if s < 0 || s >= len(in.skills) {
		return fmt.Sprintf("skill#%d", s)
	}
	return in.skills[s]
}

// Outcome returns how the interaction ended (End is Running until it has).
func (in *Interaction) Outcome() Outcome { return in.st.outcome }

// Edge returns the edge dice party p holds.
func (in *Interaction) Edge(p int) int {
	if p < 0 || p >= len(in.parties) {
		return 0
	}
	return in.st.edge[p]
}

// Initiative returns the party holding the initiative (-1 before Start).
func (in *Interaction) Initiative() int { return in.st.initiative }

// Round returns the number of rounds played.
func (in *Interaction) Round() int { return in.st.round }

// Reset returns the interaction to its state before Start.
func (in *Interaction) Reset() { in.st.copyFrom(&in.start) }

// build validates s and sets up an interaction (without policies).
func build(s Scenario) (*Interaction, error) {
	r := s.Rules
	if err := r.Validate(); err != nil {
		return nil, err
	}
	typ, ok := r.Types[s.Type]
	if !ok {
		return nil, fmt.Errorf("edge: type %q is not in rules.types: want one of %v", s.Type, slices.Sorted(maps.Keys(r.Types)))
	}
	if len(s.Parties) < 2 || len(s.Parties) > MaxParties {
		return nil, fmt.Errorf("edge: parties: %d given; an interaction needs 2..%d parties", len(s.Parties), MaxParties)
	}
	in := &Interaction{rules: r, typ: typ, typeName: s.Type, skillIdx: map[string]int{}}
	add := func(name string) {
		if _, ok := in.skillIdx[name]; !ok && name != "" {
			in.skillIdx[name] = len(in.skills)
			in.skills = append(in.skills, name)
		}
	}
	add(typ.Start)
	add(typ.Seize)
	for _, k := range typ.Skills {
		add(k)
	}
	for _, k := range typ.Safe {
		add(k)
	}
	for _, k := range r.Endurance {
		add(k)
	}
	for _, pr := range r.Opposed {
		add(pr[0])
		add(pr[1])
	}
	names := map[string]bool{}
	slugs := map[string]string{}
	active, tempters := 0, 0
	for i, p := range s.Parties {
		field := fmt.Sprintf("parties[%d]", i)
		if p.Name == "" {
			return nil, fmt.Errorf("edge: %s.name is empty: every party needs a name", field)
		}
		if names[p.Name] {
			return nil, fmt.Errorf("edge: %s.name %q is used twice: party names are unique", field, p.Name)
		}
		names[p.Name] = true
		sl := slug(p.Name)
		if sl == "" {
			return nil, fmt.Errorf("edge: %s.name %q has no letters or digits", field, p.Name)
		}
		if o, ok := slugs[sl]; ok {
			return nil, fmt.Errorf("edge: %s.name %q reads the same as %q in outcome names", field, p.Name, o)
		}
		slugs[sl] = p.Name
		if len(p.Members) == 0 {
			return nil, fmt.Errorf("edge: %s (%q) has no members: a party needs 1..%d", field, p.Name, MaxMembers)
		}
		if len(p.Members) > MaxMembers {
			return nil, fmt.Errorf("edge: %s (%q) has %d members: at most %d (make a crowd one member with a size)", field, p.Name, len(p.Members), MaxMembers)
		}
		if p.BonusEdge < 0 {
			return nil, fmt.Errorf("edge: %s.bonus_edge = %d: edge dice cannot be negative (give the other side bonus dice instead)", field, p.BonusEdge)
		}
		if r.StartEdge+p.BonusEdge > MaxEdge {
			return nil, fmt.Errorf("edge: %s.bonus_edge = %d: at most %d edge dice in all", field, p.BonusEdge, MaxEdge)
		}
		if err := checkMod(field+".bonus", p.Bonus); err != nil {
			return nil, err
		}
		if p.Passive && p.Tempter {
			return nil, fmt.Errorf("edge: %s (%q) is both passive and tempter: a passive party never acts", field, p.Name)
		}
		if !p.Passive {
			active++
		}
		if p.Tempter {
			tempters++
		}
		for j, m := range p.Members {
			mf := fmt.Sprintf("%s.members[%d]", field, j)
			if m.Name == "" {
				return nil, fmt.Errorf("edge: %s.name is empty", mf)
			}
			if m.Size < 0 {
				return nil, fmt.Errorf("edge: %s.size = %d: a group's size is 0, 1 or more", mf, m.Size)
			}
			for _, k := range slices.Sorted(maps.Keys(m.Skills)) {
				if k == "" {
					return nil, fmt.Errorf("edge: %s.skills has an empty skill name", mf)
				}
				if err := checkMod(mf+".skills["+k+"]", m.Skills[k]); err != nil {
					return nil, err
				}
				add(k)
			}
		}
	}
	if active == 0 {
		return nil, errors.New("edge: parties: every party is passive; at least one must act")
	}
	if typ.TempterFirst && tempters == 0 {
		return nil, fmt.Errorf("edge: type %q gives the tempter the first action but no party has tempter set", s.Type)
	}
	for _, k := range slices.Sorted(maps.Keys(s.Circumstances)) {
		if err := checkMod("circumstances["+k+"]", s.Circumstances[k]); err != nil {
			return nil, err
		}
		add(k)
	}
	for i, f := range s.Factors {
		field := fmt.Sprintf("outside_factors[%d]", i)
		if f.Skill == "" {
			return nil, fmt.Errorf("edge: %s.skill is empty: name the skill the GM asks for", field)
		}
		if f.After < 0 || f.Every < 0 {
			return nil, fmt.Errorf("edge: %s: after %d and every %d must not be negative", field, f.After, f.Every)
		}
		if f.Penalty > 0 || f.Penalty < -MaxModifier {
			return nil, fmt.Errorf("edge: %s.penalty = %d: a penalty is 0 or negative", field, f.Penalty)
		}
		if err := checkMod(field+".dc", f.DC); err != nil {
			return nil, err
		}
		for _, n := range f.Parties {
			if !names[n] {
				return nil, fmt.Errorf("edge: %s.parties names %q, which is not a party", field, n)
			}
		}
		add(f.Skill)
	}
	ns := len(in.skills)
	if ns > MaxSkills {
		return nil, fmt.Errorf("edge: %d distinct skills: at most %d", ns, MaxSkills)
	}
	in.safe = make([]bool, ns)
	in.appropriate = make([]bool, ns)
	in.endurance = make([]bool, ns)
	in.opp = make([]uint64, ns)
	in.circ = make([]int, ns)
	for _, k := range typ.Safe {
		in.safe[in.skillIdx[k]] = true
	}
	for i := range in.appropriate {
		in.appropriate[i] = len(typ.Skills) == 0
	}
	for _, k := range typ.Skills {
		in.appropriate[in.skillIdx[k]] = true
	}
	for _, k := range r.Endurance {
		in.endurance[in.skillIdx[k]] = true
	}
	for _, pr := range r.Opposed {
		a, b := in.skillIdx[pr[0]], in.skillIdx[pr[1]]
		in.opp[a] |= 1 << b
		in.opp[b] |= 1 << a
	}
	for k, v := range s.Circumstances {
		in.circ[in.skillIdx[k]] = v
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

	// Members, global numbering.
	nm := 0
	for _, p := range s.Parties {
		nm += len(p.Members)
	}
	in.mods = make([]int, nm*ns)
	in.start.alloc(len(s.Parties), nm, ns)
	for i, p := range s.Parties {
		pi := party{name: p.Name, lo: len(in.names), bonus: p.Bonus, passive: p.Passive, tempter: p.Tempter,
			start: r.StartEdge + p.BonusEdge}
		for _, m := range p.Members {
			g := len(in.names)
			in.names = append(in.names, m.Name)
			in.memberOf = append(in.memberOf, i)
			in.size = append(in.size, m.Size)
			var known []int
			for _, k := range slices.Sorted(maps.Keys(m.Skills)) {
				s := in.skillIdx[k]
				in.mods[g*ns+s] = m.Skills[k]
				known = append(known, s)
			}
			slices.Sort(known)
			in.known = append(in.known, known)
			var act []int
			for _, s := range known {
				if in.appropriate[s] || in.safe[s] {
					act = append(act, s)
				}
			}
			if len(act) == 0 {
				for s := range ns {
					if in.appropriate[s] || in.safe[s] {
						act = append(act, s)
					}
				}
			}
			in.actCand = append(in.actCand, act)
			react := slices.Clone(known)
			for s := range ns {
				if in.safe[s] && !slices.Contains(react, s) {
					react = append(react, s)
				}
			}
			in.reactCand = append(in.reactCand, react)
			best := in.seizeSkill
			for _, s := range known {
				if in.mods[g*ns+s] > in.mods[g*ns+best] {
					best = s
				}
			}
			in.passSkill = append(in.passSkill, best)
			in.start.mem[g].rank = r.GroupRank(m.Size)
			in.groups = in.groups || m.Size > 1
			in.start.mem[g].last = -1
			in.start.mem[g].lastRound = -1
		}
		pi.hi = len(in.names)
		in.parties = append(in.parties, pi)
		in.start.edge[i] = pi.start
	}
	in.start.initiative = -1
	in.start.outcome = Outcome{Winner: -1, By: -1}
	in.stat = make([]int, len(in.mods))
	for g := range in.names {
		in.passiveM = append(in.passiveM, in.parties[in.memberOf[g]].passive)
		if in.parties[in.memberOf[g]].passive {
			in.passiveMask |= 1 << in.memberOf[g]
		}
		for s := range ns {
			in.stat[g*ns+s] = in.mods[g*ns+s] + in.circ[s] + in.parties[in.memberOf[g]].bonus
		}
	}
	for g := range in.names {
		row := in.stat[g*ns : g*ns+ns]
		in.actList = append(in.actList, byStat(in.actCand[g], row, in.safe))
		in.reactList = append(in.reactList, byStat(in.reactCand[g], row, in.safe))
		var set uint64
		for _, s := range in.reactCand[g] {
			set |= 1 << s
		}
		in.reactSet = append(in.reactSet, set)
	}
	in.st.alloc(len(s.Parties), nm, ns)
	in.saved.alloc(len(s.Parties), nm, ns)
	in.st.copyFrom(&in.start)

	in.checkDice = r.Check.Dice()
	in.checkMod = r.Check.Modifier()
	if len(in.checkDice) == 1 {
		in.checkD = int(in.checkDice[0])
	}
	if d := in.checkD; d >= 2 {
		in.batchC = ^uint64(0)/uint64(d) + 1
		in.batchPow[0] = 1
		for in.batch < maxBatch && in.batchPow[in.batch]*d <= 1<<32 {
			in.batchPow[in.batch+1] = in.batchPow[in.batch] * d
			in.batch++
		}
	}
	in.repLen = len(r.Repetition)
	for n := 1; n < len(in.repTab); n++ {
		if k := min(n, in.repLen); k > 0 {
			in.repTab[n] = int32(r.Repetition[k-1])
		}
	}
	for i := range ns {
		bit := uint64(1) << i
		if in.safe[i] {
			in.safeMask |= bit
		}
		if in.appropriate[i] {
			in.apprMask |= bit
		}
		if in.endurance[i] {
			in.endMask |= bit
		}
	}
	in.pol = make([]Policy, len(s.Parties))
	in.duel = len(s.Parties) == 2 && in.passiveMask == 0
	in.lone = in.duel && len(in.names) == 2

	// Scratch for one round: at most every member of every party checks,
	// plus one passive check per actor check per passive party and one
	// seize check per party.
	maxParts := nm*2 + len(s.Parties)*MaxMembers
	in.parts = make([]participant, 0, maxParts)
	in.faceBuf = make([]int, 0, len(in.checkDice))
	in.orderBuf = make([]int, 0, len(s.Parties))
	in.decl.Action.Targets = make([]int, 0, MaxParties)
	in.decl.Action.Checks = make([]Use, 0, MaxMembers)
	in.decl.Reactions = make([]Reaction, 0, MaxParties)
	for range MaxParties {
		in.decl.Reactions = append(in.decl.Reactions, Reaction{Checks: make([]Use, 0, MaxMembers)})
	}
	in.decl.Reactions = in.decl.Reactions[:0]
	in.decl.Seize = make([]int, 0, MaxParties)
	return in, nil
}

// cand is a candidate skill of a member with its static modifier and its
// position among the member's candidates, in one ranking key: the
// modifier times 256 plus 255 less the position, so a higher key is a
// higher modifier or, equal, an earlier candidate.
type cand struct {
	key   int32
	skill uint8
	safe  bool // the skill is safe in this type
}

// tieSpan scales a modifier in a candidate's key (at most 256 candidates,
// MaxSkills).
const (
	tieShift = 8
	tieSpan  = 1 << tieShift
)

// byStat returns cands with their static modifiers in row as cand keys,
// highest key first.
func byStat(cands []int, row []int, safe []bool) []cand {
	out := make([]cand, len(cands))
	for i, s := range cands {
		out[i] = cand{key: int32(row[s]*tieSpan + tieSpan - 1 - i), skill: uint8(s), safe: safe[s]}
	}
	slices.SortFunc(out, func(a, b cand) int { return int(b.key) - int(a.key) })
	return out
}

// member converts a party-local member to a global one, or -1.
func (in *Interaction) member(p, m int) int {
	if p < 0 || p >= len(in.parties) || m < 0 || m >= in.parties[p].hi-in.parties[p].lo {
		return -1
	}
	return in.parties[p].lo + m
}

// base is the modifier of global member g on skill s before repetition and
// pairing: skill, circumstance, party bonus, outside-factor penalties and the
// group modifier ("Large Parties").
func (in *Interaction) base(g, s int) int {
	m := &in.st.mem[g]
	mod := in.stat[g*len(in.skills)+s] + m.penalty
	if r := m.rank; r > 0 {
		if in.endMask&(1<<(uint(s)&63)) == 0 {
			mod += r
		} else if !m.abandoned {
			mod -= r
		}
	}
	return mod
}

// repetition is the Can't Fool Me Twice penalty for g using s in the next
// round: by the number of earlier uses, or for a safe skill by the length of
// the run of consecutive rounds just before.
func (in *Interaction) repetition(g, s int) int {
	if in.passiveM[g] {
		return 0
	}
	return in.activeRep(g, s)
}

// activeRep is repetition for a member of an active party.
func (in *Interaction) activeRep(g, s int) int {
	st := &in.st
	var n int
	if in.safeMask&(1<<(uint(s)&63)) == 0 {
		n = int(st.uses[g*len(in.skills)+s])
	} else if m := &st.mem[g]; m.last == s && m.lastRound == st.round {
		n = m.streak
	}
	return int(in.repTab[uint(n)&127])
}

// actLegal reports whether an acting member may use s.
func (in *Interaction) actLegal(s int) bool { return (in.apprMask|in.safeMask)&(1<<(uint(s)&63)) != 0 }

// reactMod returns the extra modifier of reacting with s against an action
// using the skills in mask, and whether that is legal ("Wagering Edge Dice"):
// the same skill, a naturally opposed one or a safe one at no cost, another
// appropriate skill at the Unpaired penalty.
func (in *Interaction) reactMod(s int, mask uint64) (int, bool) {
	bit := uint64(1) << (uint(s) & 63)
	switch {
	case (mask|in.safeMask)&bit != 0, in.opp[s]&mask != 0:
		return 0, true
	case in.apprMask&bit != 0:
		return in.rules.Unpaired, true
	}
	return 0, false
}

// leader returns the member of p with the best base modifier on s (the
// first on ties) and that modifier: the party's voice in starting and
// seizing checks.
func (in *Interaction) leader(p, s int) (int, int) {
	best, mod := in.parties[p].lo, in.base(in.parties[p].lo, s)
	for g := best + 1; g < in.parties[p].hi; g++ {
		if m := in.base(g, s); m > mod {
			best, mod = g, m
		}
	}
	return best, mod
}

// roll makes one check roll before modifiers.
func (in *Interaction) roll(r *dice.Roller) int {
	if in.checkD > 0 {
		return r.Roll(in.checkD) + in.checkMod
	}
	in.faceBuf = r.RollDice(in.checkDice, in.faceBuf)
	return dice.Sum(in.faceBuf) + in.checkMod
}

func (in *Interaction) emit(e Event) {
	if in.sink != nil {
		in.sink.Event(e)
	}
}
