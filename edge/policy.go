package edge

import (
	"fmt"
	"math"

	"github.com/stakesrpg/stakes/named"
)

// Policy makes one party's choices. The engine asks it through a View and
// validates every answer: an illegal choice makes Step fail, it is never
// silently fixed. Policies used for Scenario.Exact must be deterministic
// functions of the view's edge dice, initiative and skill history (not of
// the round number); every registered policy is.
type Policy interface {
	// Concede is asked of every active party before each round.
	Concede(v *View, p int) Concession
	// Act fills a (Party already set, Targets and Checks empty) with the
	// action of p, which holds the initiative.
	Act(v *View, p int, a *Action)
	// React fills r (Party set, Checks empty) with p's answer to a.
	React(v *View, p int, a *Action, r *Reaction)
	// Seize says whether p, not targeted this round, rolls to seize the
	// initiative (it risks nothing).
	Seize(v *View, p int) bool
	// Abandon says whether group member m of p abandons its stragglers
	// before an endurance-type check.
	Abandon(v *View, p, m int) bool
}

// Style is a configurable policy covering the choices the text gives a
// party; a *Style is a Policy. The registered policies are Styles.
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

// styles are the shipped policies.
var styles = map[string]Style{
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

var policies = named.Registry[Policy]{Kind: "policy", Make: makers(styles)}

func makers(styles map[string]Style) map[string]func() Policy {
	out := map[string]func() Policy{}
	for name, s := range styles {
		out[name] = func() Policy { c := s; return &c }
	}
	return out
}

// DefaultPolicy is the name of the policy a party gets when it names none.
const DefaultPolicy = "steady"

// PolicyNames returns the registered policy names, sorted.
func PolicyNames() []string { return policies.Names() }

// PolicyByName returns a registered policy; the empty name is
// DefaultPolicy.
func PolicyByName(name string) (Policy, error) {
	if name == "" {
		name = DefaultPolicy
	}
	pol, err := policies.ByName(name)
	if err != nil {
		return nil, fmt.Errorf("edge: %w", err)
	}
	return pol, nil
}

// strongest returns the most dice any other party still in holds.
func strongest(in *game, p int) int {
	most := 0
	for q := range in.parties {
		if q != p && !in.s.Parties[q].Out {
			most = max(most, in.s.Parties[q].Edge)
		}
	}
	return most
}

// Concede implements Policy: surrender at SurrenderAt dice or fewer, walk
// away WalkLead dice ahead of every opponent where the type allows it.
func (s *Style) Concede(v *View, p int) Concession {
	in := v.in
	if s.SurrenderAt > 0 && in.s.Parties[p].Edge <= s.SurrenderAt {
		return Surrender
	}
	if s.WalkLead > 0 && in.typ.WalkAway && in.s.Parties[p].Edge-strongest(in, p) >= s.WalkLead {
		return WalkAway
	}
	return Continue
}

// Act implements Policy: the opponent with fewest dice as the target (or
// every opponent, with TargetAll where the rules allow it), and the best
// members by their best legal skill.
func (s *Style) Act(v *View, p int, a *Action) {
	in := v.in
	a.Targets = s.targets(in, p, a.Targets)
	var rk ranked
	members, lo := in.s.Parties[p].Members, in.parties[p].lo
	for m := range members {
		if best, mod := in.bestSkill(lo+m, &members[m], false, 0, s.IgnoreRepetition); best >= 0 {
			rk.add(m, best, mod)
		}
	}
	a.Checks = rk.take(a.Checks, s.count(in, p))
}

// targets appends the parties s's party p acts against.
func (s *Style) targets(in *game, p int, out []int) []int {
	st := in.s
	if s.TargetAll && in.rules.MultiTarget {
		for q := range in.parties {
			if q != p && !st.Parties[q].Out {
				out = append(out, q)
			}
		}
		return out
	}
	t := -1
	for q := range in.parties {
		if q != p && !st.Parties[q].Out && (t < 0 || st.Parties[q].Edge < st.Parties[t].Edge) {
			t = q
		}
	}
	if t >= 0 {
		out = append(out, t)
	}
	return out
}

// React implements Policy: the best members by their best legal reaction.
func (s *Style) React(v *View, p int, a *Action, r *Reaction) {
	in := v.in
	acted := in.skillsOf(a)
	var rk ranked
	members, lo := in.s.Parties[p].Members, in.parties[p].lo
	for m := range members {
		if best, mod := in.bestSkill(lo+m, &members[m], true, acted, s.IgnoreRepetition); best >= 0 {
			rk.add(m, best, mod)
		}
	}
	r.Checks = rk.take(r.Checks, s.count(in, p))
}

// Seize implements Policy.
func (s *Style) Seize(*View, int) bool { return !s.NoSeize }

// Abandon implements Policy.
func (s *Style) Abandon(*View, int, int) bool { return s.Shed }

// count is how many members of p act or react this round: Wager (or
// BehindWager while behind), every member for 0, and never more members
// than p has or dice than it holds.
func (s *Style) count(in *game, p int) int {
	n := s.Wager
	if s.BehindWager > 0 && in.s.Parties[p].Edge < strongest(in, p) {
		n = s.BehindWager
	}
	members := in.parties[p].hi - in.parties[p].lo
	if n <= 0 || n > members {
		n = members
	}
	return min(n, in.s.Parties[p].Edge)
}

// ranked collects (member, skill) choices best first; ties keep member
// order.
type ranked struct {
	c [MaxMembers]struct {
		mod           int32
		member, skill uint8 // < MaxMembers, < MaxSkills
	}
	n int
}

func (r *ranked) add(m, sk, mod int) {
	i := r.n
	for i > 0 && int(r.c[i-1].mod) < mod {
		r.c[i] = r.c[i-1]
		i--
	}
	r.c[i].mod, r.c[i].member, r.c[i].skill = int32(mod), uint8(m), uint8(sk)
	r.n++
}

// take appends the best k choices to us.
func (r *ranked) take(us []Use, k int) []Use {
	for i := range min(k, r.n) {
		us = append(us, Use{Member: int(r.c[i].member), Skill: int(r.c[i].skill)})
	}
	return us
}

// bestSkill returns the skill that gives member g (in state m) the
// highest modifier this round, acting or (react) reacting to an action
// using the skills in acted, and that modifier; -1 when no skill is legal.
// It weighs the member's candidates in order (actCand, or reactCand and
// then the actor's other skills), the first winning ties. With ignoreRep
// the choice leaves the repetition penalty out, and so does the modifier
// returned.
func (in *game) bestSkill(g int, m *MemberState, react bool, acted skillSet, ignoreRep bool) (int, int) {
	best, bestMod := -1, math.MinInt
	if in.checked(m) {
		return best, bestMod
	}
	pays := !ignoreRep && !in.passive[g] // the repetition penalty (passive parties never pay it)
	run := in.runOf(m)
	// weigh weighs sk, whose pairing costs extra, against the best so far.
	weigh := func(sk, extra int) {
		mod := in.base(g, m, sk) + extra
		if pays {
			mod += in.repPen[repeats(m, sk, run)]
		}
		if mod > bestMod {
			best, bestMod = sk, mod
		}
	}
	if !react {
		// Every candidate for acting is legal, at no extra cost.
		for _, sk := range in.actCand[g] {
			weigh(sk, 0)
		}
		return best, bestMod
	}
	for _, sk := range in.reactCand[g] {
		if extra, ok := in.reactMod(sk, acted); ok {
			weigh(sk, extra)
		}
	}
	// The actor's other skills are legal reactions as the same skill, at
	// no extra cost.
	for sk := range (acted &^ in.reactSet[g]).all() {
		weigh(sk, 0)
	}
	return best, bestMod
}

// Parties returns the number of parties.
func (v *View) Parties() int { return len(v.in.parties) }

// Name returns party p's name ("" for a party that does not exist; so
// for every question below, a party or member out of range gets the zero
// answer).
func (v *View) Name(p int) string {
	if !v.party(p) {
		return ""
	}
	return v.in.parties[p].name
}

func (v *View) party(p int) bool { return p >= 0 && p < len(v.in.parties) }

// Passive reports whether party p is passive.
func (v *View) Passive(p int) bool { return v.party(p) && v.in.parties[p].passive }

// Members returns the number of members of party p.
func (v *View) Members(p int) int {
	if !v.party(p) {
		return 0
	}
	return v.in.parties[p].hi - v.in.parties[p].lo
}

// Edge returns the edge dice party p holds.
func (v *View) Edge(p int) int {
	if !v.party(p) {
		return 0
	}
	return v.in.s.Parties[p].Edge
}

// Out reports whether party p is out.
func (v *View) Out(p int) bool { return v.party(p) && v.in.s.Parties[p].Out }

// Initiative returns the party holding the initiative.
func (v *View) Initiative() int { return v.in.s.Initiative }

// Round returns the number of rounds played.
func (v *View) Round() int { return v.in.s.Round }

// Skills returns the number of skills; skills are numbered 1..Skills()
// (0 is none).
func (v *View) Skills() int { return len(v.in.skills) - 1 }

// SkillName returns the name of skill s.
func (v *View) SkillName(s int) string { return v.in.SkillName(s) }

// Known returns the skills member m of party p lists. The slice is shared:
// do not modify it.
func (v *View) Known(p, m int) []int {
	g := v.in.member(p, m)
	if g < 0 {
		return nil
	}
	return v.in.known[g]
}

// CanWalkAway reports whether this type of interaction allows walking away.
func (v *View) CanWalkAway() bool { return v.in.typ.WalkAway }

// ActMod returns the modifier member m of party p would have acting with
// skill s this round, repetition penalty included, and whether acting with
// s is legal.
func (v *View) ActMod(p, m, s int) (int, bool) {
	g := v.in.member(p, m)
	if g < 0 || s < 0 || s >= len(v.in.skills) {
		return 0, false
	}
	return v.in.checkMod(g, v.in.mem(g), s, true, 0)
}

// ReactMod returns the modifier member m of party p would have reacting
// with skill s to a, unpaired and repetition penalties included, and
// whether that reaction is legal.
func (v *View) ReactMod(p, m, s int, a *Action) (int, bool) {
	g := v.in.member(p, m)
	if g < 0 || s < 0 || s >= len(v.in.skills) {
		return 0, false
	}
	return v.in.checkMod(g, v.in.mem(g), s, false, v.in.skillsOf(a))
}

// Choice is one legal skill for a member's check, with the modifier the
// check would have (repetition and pairing included).
type Choice struct {
	Skill int    `json:"skill"`
	Name  string `json:"name"`
	Mod   int    `json:"mod"`
}

// LegalActs lists the skills member m of party p may act with in s this
// round, in skill order, with their modifiers: what Act accepts. It is
// empty for a member that does not exist; a State that does not belong to
// the engine gets an error.
func (e *Engine) LegalActs(s *State, p, m int) ([]Choice, error) {
	in, err := e.begin(s)
	if err != nil {
		return nil, err
	}
	defer e.release(in)
	return in.choices(p, m, true, 0), nil
}

// LegalReactions lists the skills member m of party p may answer the
// action a with in s, in skill order, with their modifiers: what React
// accepts ("Wagering Edge Dice": the same skill, a naturally opposed or a
// safe one, or another appropriate one at rules.unpaired).
func (e *Engine) LegalReactions(s *State, p, m int, a *Action) ([]Choice, error) {
	in, err := e.begin(s)
	if err != nil {
		return nil, err
	}
	defer e.release(in)
	return in.choices(p, m, false, e.skillsOf(a)), nil
}

// skillsOf returns the skills a's checks use (those that exist).
func (e *Engine) skillsOf(a *Action) skillSet {
	var acted skillSet
	for _, u := range a.Checks {
		if u.Skill > 0 && u.Skill < len(e.skills) {
			acted.add(u.Skill)
		}
	}
	return acted
}

func (in *game) choices(p, m int, acting bool, acted skillSet) []Choice {
	g := in.member(p, m)
	if g < 0 {
		return nil
	}
	var out []Choice
	for s, name := range in.skills[1:] {
		s++
		if mod, ok := in.checkMod(g, in.mem(g), s, acting, acted); ok {
			out = append(out, Choice{Skill: s, Name: name, Mod: mod})
		}
	}
	return out
}

// LegalTargets lists the parties party p may target in s while it holds
// the initiative: every other party still in.
func (e *Engine) LegalTargets(s *State, p int) ([]int, error) {
	if err := e.Check(s); err != nil {
		return nil, err
	}
	var out []int
	for q := range e.parties {
		if q != p && !s.Parties[q].Out {
			out = append(out, q)
		}
	}
	return out, nil
}
