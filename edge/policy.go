package edge

import (
	"fmt"
	"maps"
	"math"
	"math/bits"
	"slices"
)

// Policy makes one party's choices. The engine asks it through a View and
// validates every answer: an illegal choice makes Step fail, it is never
// silently fixed. Policies used for Scenario.Exact must be deterministic
// functions of the view's edge dice, initiative and skill history (not of
// the round number); every registered policy is.
type Policy interface {
	// Concede is asked of every active party before each round.
	Concede(v View, p int) Concession
	// Act fills a (Party already set, Targets and Checks empty) with the
	// action of p, which holds the initiative.
	Act(v View, p int, a *Action)
	// React fills r (Party set, Checks empty) with p's answer to a.
	React(v View, p int, a *Action, r *Reaction)
	// Seize says whether p, not targeted this round, rolls to seize the
	// initiative (it risks nothing).
	Seize(v View, p int) bool
	// Abandon says whether group member m of p abandons its stragglers
	// before an endurance-type check.
	Abandon(v View, p, m int) bool
}

// Style is a configurable policy covering the choices the text gives a
// party. The registered policies are Styles.
type Style struct {
	// Wager is how many members act or react, each wagering a die; 0 is
	// every member. Never more than the pool holds.
	Wager int `json:"wager"`
	// BehindWager replaces Wager while the party holds fewer dice than its
	// strongest opponent; 0 keeps Wager.
	BehindWager int `json:"behind_wager"`
	// IgnoreRepetition picks skills by their plain modifier, ignoring the
	// Can't Fool Me Twice penalty.
	IgnoreRepetition bool `json:"ignore_repetition"`
	// SurrenderAt surrenders before a round when the party holds this many
	// dice or fewer; 0 never surrenders.
	SurrenderAt int `json:"surrender_at"`
	// WalkLead walks away (where the type allows it) once the party leads
	// every opponent by this many dice; 0 never walks away.
	WalkLead int `json:"walk_lead"`
	// TargetAll targets every opponent at once when the rules allow it;
	// otherwise the opponent with fewest dice is the target.
	TargetAll bool `json:"target_all"`
	// NoSeize never rolls to seize the initiative.
	NoSeize bool `json:"no_seize"`
	// Shed abandons stragglers before the first endurance-type check.
	Shed bool `json:"shed"`
}

var registry = map[string]Style{
	// steady: everyone acts, skills are varied to dodge repetition, never
	// gives up. The default.
	"steady": {},
	// cautious: risks one die a round, walks away two dice ahead where
	// allowed, surrenders on its last die.
	"cautious": {Wager: 1, SurrenderAt: 1, WalkLead: 2},
	// reckless: everyone always wagers, the favourite skill every time,
	// targets everyone at once, sheds stragglers.
	"reckless": {IgnoreRepetition: true, TargetAll: true, Shed: true},
	// canny: everyone acts while level or ahead, one member while behind;
	// walks away three dice ahead where allowed.
	"canny": {BehindWager: 1, WalkLead: 3, Shed: true},
}

// DefaultPolicy is the name of the policy a party gets when it names none.
const DefaultPolicy = "steady"

// Policies returns the registered policy names, sorted.
func Policies() []string { return slices.Sorted(maps.Keys(registry)) }

// PolicyByName returns a registered policy.
func PolicyByName(name string) (Policy, error) {
	if name == "" {
		name = DefaultPolicy
	}
	s, ok := registry[name]
	if !ok {
		return nil, fmt.Errorf("edge: unknown policy %q: want one of %v", name, Policies())
	}
	// A pointer keeps interface calls from copying the Style each time.
	return &s, nil
}

// strongest returns the most dice any other party still in holds.
func strongest(in *Interaction, p int) int {
	most := 0
	for q := range in.parties {
		if q != p && !in.st.out[q] {
			most = max(most, in.st.edge[q])
		}
	}
	return most
}

// The Policy methods take the Style by value so a Style (or a struct
// embedding one) is a Policy; the engine calls the pointer methods below
// directly for registered policies, skipping the interface and the copy.

// Concede implements Policy.
func (s Style) Concede(v View, p int) Concession { return s.concede(v.in, p) }

// Act implements Policy: the best members by their best legal skill.
func (s Style) Act(v View, p int, a *Action) { s.act(v.in, p, a) }

// React implements Policy: the best members by their best legal reaction.
func (s Style) React(v View, p int, a *Action, r *Reaction) { s.react(v.in, p, a, r) }

// Seize implements Policy.
func (s Style) Seize(View, int) bool { return !s.NoSeize }

// Abandon implements Policy.
func (s Style) Abandon(View, int, int) bool { return s.Shed }

func (s *Style) concede(in *Interaction, p int) Concession {
	st := &in.st
	if s.SurrenderAt > 0 && st.edge[p] <= s.SurrenderAt {
		return Surrender
	}
	if s.WalkLead > 0 && in.typ.WalkAway && st.edge[p]-strongest(in, p) >= s.WalkLead {
		return WalkAway
	}
	return Continue
}

// count is how many members of p, which has members members, act or
// react this round.
func (s *Style) count(in *Interaction, p int, members int) int {
	return wagerCount(s.wager(in, p), members, in.st.edge[p])
}

// wager is Wager, or BehindWager while p holds fewer dice than its
// strongest opponent.
func (s *Style) wager(in *Interaction, p int) int {
	if s.BehindWager > 0 && in.st.edge[p] < strongest(in, p) {
		return s.BehindWager
	}
	return s.Wager
}

// wagerCount turns a Style's wager n (0 for everyone) into a count of
// members, at most members and at most the party's edge dice.
func wagerCount(n, members, edge int) int {
	if uint(n-1) >= uint(members) { // n <= 0 or n > members
		n = members
	}
	return min(n, edge)
}

// ranked collects (member, skill) choices best first; ties keep member
// order.
type ranked struct {
	c [MaxMembers]struct {
		val           int32
		member, skill uint8
	}
	n int
}

func (r *ranked) add(m, sk, val int) {
	i := r.n
	for i > 0 && int(r.c[i-1].val) < val {
		r.c[i] = r.c[i-1]
		i--
	}
	r.c[i].val, r.c[i].member, r.c[i].skill = int32(val), uint8(m), uint8(sk)
	r.n++
}

// take appends the best k choices to us.
func (r *ranked) take(us []Use, k int) []Use {
	for i := range min(k, r.n) {
		us = append(us, Use{Member: int(r.c[i].member), Skill: int(r.c[i].skill)})
	}
	return us
}

// bestSkill returns the skill among global member g's candidates for
// acting or reacting (actCand or reactCand; and, when react, the actor's
// skills in mask not among them) that gives g the highest modifier this
// round, the earliest in that order on ties, and that modifier:
// Interaction.base plus the pairing modifier when reacting and, unless
// ignoreRep, the repetition penalty. It returns -1 when no candidate is
// legal. The member's state is loaded once for all the skills it weighs.
func (in *Interaction) bestSkill(g int, react bool, mask uint64, ignoreRep bool) (int, int) {
	st := &in.st
	m := &st.mem[g]
	if m.rank > 0 {
		return in.bestRanked(g, react, mask, ignoreRep)
	}
	list, set := in.actList[g], uint64(0)
	if react {
		list, set = in.reactList[g], in.reactSet[g]
	}
	ns := len(in.skills)
	uses := st.uses[g*ns : g*ns+ns]
	pen := m.penalty
	last, streak := -1, 0
	if m.lastRound == st.round {
		last, streak = m.last, m.streak
	}
	ignoreRep = ignoreRep || in.passiveM[g]
	safeMask := in.safeMask
	rep := &in.repTab
	// Each skill is ranked by its modifier and, on equal modifiers, its
	// position among the candidates, in one score (see cand). Without a
	// group rank a skill's modifier is its static one plus the member's
	// penalty, at most: the pairing and repetition modifiers are never
	// bonuses. list is by descending static key, so once a skill's bound
	// falls below the best score so far, no later one can win.
	best, score := -1, math.MinInt
	bias := pen * tieSpan
	for _, c := range list {
		x := int(c.key) + bias
		if x < score {
			break
		}
		sk := int(c.skill)
		bit := uint64(1) << (uint(sk) & 63)
		if react {
			extra, ok := in.reactMod(sk, mask)
			if !ok {
				continue
			}
			x += extra * tieSpan
		}
		if !ignoreRep {
			x += int(rep[repCount(safeMask&bit != 0, sk, last, streak, uses)]) * tieSpan
		}
		if x > score {
			best, score = sk, x
		}
	}
	val := score >> tieShift // the modifier: the score's floor over tieSpan
	if best < 0 {
		val = 0
	}
	if !react {
		return best, val
	}
	return in.bestOfRest(g, mask&^set, pen, ignoreRep, uses, last, streak, best, val)
}

// repCount is how many times skill sk counts as repeated for the
// repetition penalty (an index into repTab): its uses by the member's side,
// or, for a safe skill, the member's streak when sk was its last skill.
func repCount(safe bool, sk, last, streak int, uses []int8) uint {
	n := 0
	if !safe {
		n = int(uses[sk])
	} else if sk == last {
		n = streak
	}
	return uint(n) & 127
}

// bestOfRest weighs the actor's skills in rest, those not among member
// g's candidates (always legal as the same skill), after the candidates'
// best so far (best, val; best -1 for none), and returns the new best.
func (in *Interaction) bestOfRest(g int, rest uint64, pen int, ignoreRep bool, uses []int8, last, streak, best, val int) (int, int) {
	ns := len(in.skills)
	stat := in.stat[g*ns : g*ns+ns]
	safeMask, rep := in.safeMask, &in.repTab
	for ; rest != 0; rest &= rest - 1 {
		sk := bits.TrailingZeros64(rest)
		if sk >= ns {
			break
		}
		x := stat[sk] + pen
		if best >= 0 && x <= val {
			continue
		}
		if !ignoreRep {
			x += int(rep[repCount(safeMask&(1<<uint(sk)) != 0, sk, last, streak, uses)])
		}
		if best < 0 || x > val {
			best, val = sk, x
		}
	}
	return best, val
}

// best is bestAct or bestReact.
func (in *Interaction) best(g int, react bool, mask uint64, ignoreRep bool) (int, int) {
	if react {
		return in.bestReact(g, mask, ignoreRep)
	}
	return in.bestAct(g, ignoreRep)
}

// bestAct is bestSkill acting, written for the common member: active and
// not a group (others go to bestSkill). Ignoring repetition, its first
// candidate is its best.
func (in *Interaction) bestAct(g int, ignoreRep bool) (int, int) {
	st := &in.st
	m := &st.mem[g]
	if m.rank > 0 || in.passiveM[g] {
		return in.bestSkill(g, false, 0, ignoreRep)
	}
	list := in.actList[g]
	if len(list) == 0 {
		return -1, 0
	}
	bias := m.penalty * tieSpan
	if ignoreRep {
		return int(list[0].skill), (int(list[0].key) + bias) >> tieShift
	}
	last, streak := -1, 0
	if m.lastRound == st.round {
		last, streak = m.last, m.streak
	}
	uses := st.uses[g*len(in.skills):]
	rep := &in.repTab
	best, score := -1, math.MinInt
	for _, c := range list {
		x := int(c.key) + bias
		if x < score {
			break
		}
		sk := int(c.skill)
		x += int(rep[repCount(c.safe, sk, last, streak, uses)]) * tieSpan
		if x > score {
			best, score = sk, x
		}
	}
	return best, score >> tieShift
}

// bestReact is bestSkill reacting to the actor's skills in mask, for the
// members bestAct handles itself.
func (in *Interaction) bestReact(g int, mask uint64, ignoreRep bool) (int, int) {
	st := &in.st
	m := &st.mem[g]
	if m.rank > 0 || in.passiveM[g] {
		return in.bestSkill(g, true, mask, ignoreRep)
	}
	last, streak := -1, 0
	if m.lastRound == st.round {
		last, streak = m.last, m.streak
	}
	ns := len(in.skills)
	uses := st.uses[g*ns:]
	rep := &in.repTab
	pen := m.penalty
	bias := pen * tieSpan
	best, score := -1, math.MinInt
	for _, c := range in.reactList[g] {
		x := int(c.key) + bias
		if x < score {
			break
		}
		sk := int(c.skill)
		extra, ok := in.reactMod(sk, mask)
		if !ok {
			continue
		}
		x += extra * tieSpan
		if !ignoreRep {
			x += int(rep[repCount(c.safe, sk, last, streak, uses)]) * tieSpan
		}
		if x > score {
			best, score = sk, x
		}
	}
	val := score >> tieShift
	if best < 0 {
		val = 0
	}
	// The actor's skills not among the candidates, always legal as the
	// same skill, come after every candidate.
	rest := mask &^ in.reactSet[g]
	if rest == 0 {
		return best, val
	}
	return in.bestOfRest(g, rest, pen, ignoreRep, uses, last, streak, best, val)
}

// bestRanked is bestSkill for a group with a rank, whose modifier moves
// up on most skills and down on endurance-type ones, so every candidate is
// weighed in order.
func (in *Interaction) bestRanked(g int, react bool, mask uint64, ignoreRep bool) (int, int) {
	cands, set := in.actCand[g], uint64(0)
	if react {
		cands, set = in.reactCand[g], in.reactSet[g]
	}
	best, val := -1, 0
	try := func(sk int) {
		x := in.base(g, sk)
		if react {
			extra, ok := in.reactMod(sk, mask)
			if !ok {
				return
			}
			x += extra
		}
		if !ignoreRep {
			x += in.repetition(g, sk)
		}
		if best < 0 || x > val {
			best, val = sk, x
		}
	}
	for _, sk := range cands {
		try(sk)
	}
	if react {
		for rest := mask &^ set; rest != 0; rest &= rest - 1 {
			if sk := bits.TrailingZeros64(rest); sk < len(in.skills) {
				try(sk)
			}
		}
	}
	return best, val
}

func (s *Style) act(in *Interaction, p int, a *Action) {
	st := &in.st
	if s.TargetAll && in.rules.MultiTarget {
		for q := range in.parties {
			if q != p && !st.out[q] {
				a.Targets = append(a.Targets, q)
			}
		}
	} else {
		t := -1
		for q := range in.parties {
			if q != p && !st.out[q] && (t < 0 || st.edge[q] < st.edge[t]) {
				t = q
			}
		}
		if t >= 0 {
			a.Targets = append(a.Targets, t)
		}
	}
	var rk ranked
	lo, hi := in.parties[p].lo, in.parties[p].hi
	for g := lo; g < hi; g++ {
		if best, val := in.bestSkill(g, false, 0, s.IgnoreRepetition); best >= 0 {
			rk.add(g-lo, best, val)
		}
	}
	a.Checks = rk.take(a.Checks, s.count(in, p, hi-lo))
}

func (s *Style) react(in *Interaction, p int, a *Action, r *Reaction) {
	var mask uint64
	for _, u := range a.Checks {
		if u.Skill >= 0 && u.Skill < len(in.skills) {
			mask |= 1 << (uint(u.Skill) & 63)
		}
	}
	var rk ranked
	lo, hi := in.parties[p].lo, in.parties[p].hi
	for g := lo; g < hi; g++ {
		// The member's own and safe skills, then the actor's skills.
		if best, val := in.bestSkill(g, true, mask, s.IgnoreRepetition); best >= 0 {
			rk.add(g-lo, best, val)
		}
	}
	r.Checks = rk.take(r.Checks, s.count(in, p, hi-lo))
}

// Parties returns the number of parties.
func (v View) Parties() int { return len(v.in.parties) }

// Name returns party p's name.
func (v View) Name(p int) string { return v.in.parties[p].name }

// Passive reports whether party p is passive.
func (v View) Passive(p int) bool { return v.in.parties[p].passive }

// Members returns the number of members of party p.
func (v View) Members(p int) int { return v.in.parties[p].hi - v.in.parties[p].lo }

// Edge returns the edge dice party p holds.
func (v View) Edge(p int) int { return v.in.st.edge[p] }

// Out reports whether party p is out.
func (v View) Out(p int) bool { return v.in.st.out[p] }

// Initiative returns the party holding the initiative.
func (v View) Initiative() int { return v.in.st.initiative }

// Round returns the number of rounds played.
func (v View) Round() int { return v.in.st.round }

// Skills returns the number of skills; skills are numbered 0..Skills()-1.
func (v View) Skills() int { return len(v.in.skills) }

// SkillName returns the name of skill s.
func (v View) SkillName(s int) string { return v.in.SkillName(s) }

// Known returns the skills member m of party p lists. The slice is shared:
// do not modify it.
func (v View) Known(p, m int) []int { return v.in.known[v.in.parties[p].lo+m] }

// CanWalkAway reports whether this type of interaction allows walking away.
func (v View) CanWalkAway() bool { return v.in.typ.WalkAway }

// ActMod returns the modifier member m of party p would have acting with
// skill s this round, repetition penalty included, and whether acting with
// s is legal.
func (v View) ActMod(p, m, s int) (int, bool) {
	g := v.in.member(p, m)
	if g < 0 || s < 0 || s >= len(v.in.skills) || !v.in.actLegal(s) {
		return 0, false
	}
	return v.in.base(g, s) + v.in.repetition(g, s), true
}

// ReactMod returns the modifier member m of party p would have reacting
// with skill s to a, unpaired and repetition penalties included, and
// whether that reaction is legal.
func (v View) ReactMod(p, m, s int, a *Action) (int, bool) {
	g := v.in.member(p, m)
	if g < 0 || s < 0 || s >= len(v.in.skills) {
		return 0, false
	}
	var mask uint64
	for _, u := range a.Checks {
		if u.Skill >= 0 && u.Skill < len(v.in.skills) {
			mask |= 1 << u.Skill
		}
	}
	extra, ok := v.in.reactMod(s, mask)
	if !ok {
		return 0, false
	}
	return v.in.base(g, s) + v.in.repetition(g, s) + extra, true
}

// styleRound is declare for the common case where every party that
// chooses this round follows a Style: it lists the round's checks exactly
// as compile would list the Declaration the Styles' Act, React and Seize
// make, with the modifiers bestSkill already worked out, skipping the
// Declaration and its validation (a Style chooses only legal checks). It
// changes no state and reports false, leaving the round to declare, when
// a party has another policy, a group may abandon its stragglers (a Style
// that sheds them, in an interaction with groups), or a choice would be
// refused (declare then reports why).
func (in *Interaction) styleRound() ([]participant, bool) {
	if in.lone {
		s0, ok0 := in.pol[0].(*Style)
		s1, ok1 := in.pol[1].(*Style)
		if !ok0 || !ok1 {
			return nil, false
		}
		return in.loneRound(s0, s1)
	}
	st := &in.st
	ap := st.initiative
	sa, ok := in.pol[ap].(*Style)
	if !ok || (in.groups && sa.Shed) {
		return nil, false
	}
	var targets [MaxParties]uint8
	nt := 0
	np := len(in.parties)
	if np == 2 {
		// Two parties, the commonest case: the other one is the target
		// either way, and nobody is left to seize the initiative. (Who
		// acts is a coin flip for the branch predictor, which the general
		// loops below would ask about every party.)
		if t := 1 - ap; !st.out[t&1] {
			targets[0], nt = uint8(t), 1
		}
	} else if sa.TargetAll && in.rules.MultiTarget {
		for q := range np {
			if q != ap && !st.out[q] {
				targets[nt] = uint8(q)
				nt++
			}
		}
	} else {
		t := -1
		for q := range np {
			if q != ap && !st.out[q] && (t < 0 || st.edge[q] < st.edge[t]) {
				t = q
			}
		}
		if t >= 0 {
			targets[0] = uint8(t)
			nt = 1
		}
	}
	if nt == 0 {
		return nil, false
	}
	ps := in.parts[:cap(in.parts)]
	n, mask := in.styleChecks(sa, ap, ps, 0, false, 0)
	if n == 0 {
		return nil, false
	}
	in.nAct = n
	var tmask uint32
	for _, t := range targets[:nt] {
		tmask |= 1 << t
		if in.parties[t].passive {
			n = in.passiveStakes(ps, n, int(t))
			continue
		}
		s, ok := in.pol[t].(*Style)
		if !ok || (in.groups && s.Shed) {
			return nil, false
		}
		k, _ := in.styleChecks(s, int(t), ps, n, true, mask)
		if k == n {
			return nil, false
		}
		n = k
	}
	in.nStaked = n
	if np == 2 {
		return ps[:n], true
	}
	for _, p := range st.order {
		if p == ap || tmask&(1<<p) != 0 || st.out[p] {
			continue
		}
		s, ok := in.pol[p].(*Style)
		if !ok {
			return nil, false
		}
		if !s.NoSeize {
			n = in.seizeCheck(ps, n, p)
		}
	}
	return ps[:n], true
}

// styleChecks writes the checks s chooses for party p, acting or reacting
// to the actor's skills in mask, into ps from n on, as compile's uses would
// write them; it returns the new end and the mask of skills used.
func (in *Interaction) styleChecks(s *Style, p int, ps []participant, n int, react bool, mask uint64) (int, uint64) {
	rk := &in.rk // scratch: a local would be cleared on every call
	rk.n = 0
	lo, hi := in.parties[p].lo, in.parties[p].hi
	if hi-lo == 1 {
		// A lone member needs no ranking.
		if best, val := in.best(lo, react, mask, s.IgnoreRepetition); best >= 0 {
			rk.c[0].val, rk.c[0].member, rk.c[0].skill, rk.n = int32(val), 0, uint8(best), 1
		}
	} else {
		for g := lo; g < hi; g++ {
			if best, val := in.best(g, react, mask, s.IgnoreRepetition); best >= 0 {
				rk.add(g-lo, best, val)
			}
		}
	}
	flags := uint8(pStaked)
	if !react {
		flags |= pActor
	}
	ns := len(in.skills)
	var used uint64
	w := s.Wager
	if s.BehindWager > 0 {
		w = s.wager(in, p)
	}
	for i := range min(wagerCount(w, hi-lo, in.st.edge[p]), rk.n) {
		c := &rk.c[i]
		g, sk, mod := lo+int(c.member), int(c.skill), c.val
		if s.IgnoreRepetition {
			// bestSkill left the penalty out of the choice, not the check.
			mod += int32(in.activeRep(g, sk))
		}
		bit := uint64(1) << (uint(sk) & 63)
		f := flags
		if in.safeMask&bit != 0 {
			f |= pSafe
		}
		used |= bit
		// Field by field: a struct literal is built on the stack and
		// copied, and that copy stalls on the byte-sized stores.
		q := &ps[n]
		q.mod, q.use = mod, uint16(g*ns+sk)
		q.party, q.member, q.skill, q.flags = uint8(p), uint8(g), uint8(sk), f
		n++
	}
	return n, used
}

// loneRound is styleRound for two active parties of one member each: the
// actor's member checks with its best skill against the target's member
// with its best reaction, one die each (a Style's count of one member is
// one while the pool lasts), with no ranking or counting. s0 and s1 are
// the parties' policies.
func (in *Interaction) loneRound(s0, s1 *Style) ([]participant, bool) {
	st := &in.st
	ap := st.initiative & 1
	tp := ap ^ 1
	sa, sb := s0, s1
	if ap != 0 {
		sa, sb = s1, s0
	}
	if st.edge[ap] <= 0 || st.edge[tp] <= 0 || st.out[tp] || (in.groups && (sa.Shed || sb.Shed)) {
		return nil, false
	}
	ps := in.parts[:2]
	ns := len(in.skills)
	ga, gb := in.parties[ap].lo, in.parties[tp].lo
	sk, val := in.bestAct(ga, sa.IgnoreRepetition)
	if sk < 0 {
		return nil, false
	}
	if sa.IgnoreRepetition {
		val += in.activeRep(ga, sk)
	}
	bit := uint64(1) << (uint(sk) & 63)
	f := uint8(pStaked | pActor)
	if in.safeMask&bit != 0 {
		f |= pSafe
	}
	q := &ps[0]
	q.mod, q.use = int32(val), uint16(ga*ns+sk)
	q.party, q.member, q.skill, q.flags = uint8(ap), uint8(ga), uint8(sk), f
	sk, val = in.bestReact(gb, bit, sb.IgnoreRepetition)
	if sk < 0 {
		return nil, false
	}
	if sb.IgnoreRepetition {
		val += in.activeRep(gb, sk)
	}
	f = pStaked
	if in.safeMask&(1<<(uint(sk)&63)) != 0 {
		f |= pSafe
	}
	q = &ps[1]
	q.mod, q.use = int32(val), uint16(gb*ns+sk)
	q.party, q.member, q.skill, q.flags = uint8(tp), uint8(gb), uint8(sk), f
	in.nAct, in.nStaked = 1, 2
	return ps, true
}
