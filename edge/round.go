package edge

import (
	"errors"
	"fmt"
	"slices"

	"github.com/stakesrpg/stakes/dice"
)

// Use is one member's check in a round: which member (numbered within its
// party) and which skill (its number, Engine.Skill).
type Use struct {
	// Member is the member's index within its party.
	Member int `json:"member"`
	// Skill is the skill's number (Engine.Skill), from 1; 0 names no
	// skill, so an empty Use is refused rather than read as a skill.
	Skill int `json:"skill"`
	// Mod is a bonus (or, negative, a penalty) for this check alone, as
	// circumstance dictates ("Resolving a Wager": a slick roof for the
	// acrobatics check just declared); within ±MaxModifier.
	Mod int `json:"mod,omitempty"`
}

// Action is what the party holding the initiative declares: whom it
// targets and which members check with which skills, each wagering one edge
// die from the party's pool.
type Action struct {
	// Party is the acting party, the one holding the initiative.
	Party int `json:"party"`
	// Targets are the parties it acts against: one, or several when the
	// rules allow it.
	Targets []int `json:"targets"`
	// Checks are its involved members, one edge die each.
	Checks []Use `json:"checks"`
}

// Reaction is a targeted party's answer: which members check with which
// skills, each wagering one edge die.
type Reaction struct {
	// Party is the targeted party reacting.
	Party int `json:"party"`
	// Checks are its involved members, one edge die each.
	Checks []Use `json:"checks"`
}

// Declaration is everything declared for one round: the action, one
// reaction per targeted party that is not passive (passive parties react by
// themselves), and the parties that were not targeted but roll to seize the
// initiative without wagering.
type Declaration struct {
	// Action is the initiative holder's action.
	Action Action `json:"action"`
	// Reactions has one entry per targeted party that is not passive.
	Reactions []Reaction `json:"reactions"`
	// Seize lists untargeted parties rolling to seize the initiative.
	Seize []int `json:"seize,omitempty"`
}

// participant is one check of a round.
type participant struct {
	party   int          // the party checking
	member  int          // its member, numbered across all parties
	state   *MemberState // the member's state
	skill   int
	mod     int  // every modifier of the check
	total   int  // the roll plus mod, once rolled
	staked  bool // wagered an edge die (unset for seizing checks)
	actor   bool // of the acting party
	passive bool // of a passive party
}

// outranks reports whether check a ranks above check b ("Resolving a
// Wager"): the higher total; on equal totals, by Rules.TieBreak, the higher
// modifier. Checks that rank level move no die between them.
func (in *game) outranks(a, b *participant) bool {
	return in.rules.outranks(a.total, a.mod, b.total, b.mod)
}

// outranks reports whether a check with total ta and modifier ma ranks
// above one with tb and mb.
func (r *Rules) outranks(ta, ma, tb, mb int) bool {
	if ta != tb || r.TieBreak == Level {
		return ta > tb
	}
	return ma > mb
}

// ErrOver is returned by steps taken after the interaction has ended.
var ErrOver = errors.New("edge: the interaction is over")

// ErrInFlight is returned by steps that need a round's start while an
// action declared with Act awaits its reactions (React).
var ErrInFlight = errors.New("edge: an action awaits its reactions: call React (or Step) first")

// ErrNotStarted is returned by round steps before Start.
var ErrNotStarted = errors.New("edge: the interaction has not started: call Start first")

// starting makes the starting checks and sets the order of action ("Beginning
// a Dramatic Interaction"): each active party's best member rolls the
// type's starting skill, highest first (ties: the higher modifier, then the
// party listed first); in a temptation the tempters go first, in listing
// order. Passive parties never act and take no place in the order.
func (in *game) starting(r *dice.Roller) error {
	st := in.s
	if st.Started {
		return errors.New("edge: the interaction has already started")
	}
	st.Order = st.Order[:0]
	if in.startSkill < 0 {
		for pass := 0; pass < 2; pass++ {
			for p, pi := range in.parties {
				if !pi.passive && pi.tempter == (pass == 0) {
					st.Order = append(st.Order, p)
				}
			}
		}
	} else {
		var totals, mods [MaxParties]int
		for p, pi := range in.parties {
			if pi.passive {
				continue
			}
			g, mod := in.leader(p, in.startSkill)
			v := in.roll(r)
			totals[p], mods[p] = v+mod, mod
			if in.Sink != nil {
				in.emit(event{Kind: EvStart, Round: 0, Party: p, Member: g - pi.lo, Skill: in.startSkill,
					Roll: v, Mod: mod, Total: v + mod, To: -1, ToMember: -1})
			}
			// Insert p in order, descending.
			i := len(st.Order)
			st.Order = append(st.Order, p)
			for i > 0 {
				q := st.Order[i-1]
				if !in.rules.outranks(totals[p], mods[p], totals[q], mods[q]) {
					break
				}
				st.Order[i] = q
				i--
			}
			st.Order[i] = p
		}
	}
	st.Started = true
	st.Initiative = st.Order[0]
	if in.Sink != nil {
		in.emit(event{Kind: EvInitiative, Party: st.Initiative, Member: -1, Skill: -1, To: -1, ToMember: -1})
	}
	return nil
}

// compile checks a declaration against the rules and the state and lists
// its checks with their modifiers in in.w.parts, changing no state: the
// actor's checks, then each target's staked checks in the order the action
// names the targets, then the seizing checks. Dice are rolled in this order.
// Its callers have made sure a round may be played now (ready).
func (in *game) compile(d *Declaration) ([]participant, error) {
	st := in.s
	a := &d.Action
	ps := in.w.parts[:cap(in.w.parts)]
	n, acted, targeted, err := in.compileAction(ps, a)
	if err != nil {
		return nil, err
	}
	if err := in.matchReactions(a, targeted, d.Reactions); err != nil {
		return nil, err
	}
	in.w.nAct = n
	for _, t := range a.Targets {
		if in.parties[t].passive {
			n = in.passiveStakes(ps, n, t)
			continue
		}
		if n, _, err = in.uses(ps, n, t, reactionOf(d.Reactions, t), false, acted); err != nil {
			return nil, err
		}
	}
	in.w.nStaked = n
	if len(d.Seize) > 0 && in.rules.Turns == EveryParty {
		return nil, errors.New("edge: every party acts in turn (rules.turns every_party): nobody seizes the initiative")
	}
	var seizing [MaxParties]bool
	for _, p := range d.Seize {
		switch {
		case p < 0 || p >= len(in.parties):
			return nil, fmt.Errorf("edge: seize by party %d, which does not exist", p)
		case p == a.Party || targeted.has(p):
			return nil, fmt.Errorf("edge: %s is in the exchange and cannot also seize the initiative", in.pname(p))
		case in.parties[p].passive:
			return nil, fmt.Errorf("edge: %s is passive and never takes the initiative", in.pname(p))
		case st.Parties[p].Out:
			return nil, fmt.Errorf("edge: %s is out of the interaction", in.pname(p))
		case seizing[p]:
			return nil, fmt.Errorf("edge: %s seizes twice", in.pname(p))
		}
		seizing[p] = true
		n = in.seizeCheck(ps, n, p)
	}
	return ps[:n], nil
}

// compileAction checks the action a against the rules and the state and
// writes its checks into ps, returning how many, the skills they use and
// the parties targeted.
func (in *game) compileAction(ps []participant, a *Action) (int, skillSet, partySet, error) {
	targeted, err := in.checkTargets(a)
	if err != nil {
		return 0, 0, 0, err
	}
	n, acted, err := in.uses(ps, 0, a.Party, a.Checks, true, 0)
	return n, acted, targeted, err
}

// checkTargets checks that the initiative holder acts, against one party
// still in (or several, where the rules allow it), each named once, and
// returns the parties targeted.
func (in *game) checkTargets(a *Action) (partySet, error) {
	st := in.s
	if actor := in.actor(); a.Party != actor {
		return 0, fmt.Errorf("edge: action by party %d, but it is %s's turn to act", a.Party, in.pname(actor))
	}
	if len(a.Targets) == 0 {
		return 0, fmt.Errorf("edge: %s's action names no target: name one party still in", in.pname(a.Party))
	}
	if len(a.Targets) > 1 && !in.rules.MultiTarget {
		return 0, fmt.Errorf("edge: %s targets %d parties, but rules.multi_target is off: one target", in.pname(a.Party), len(a.Targets))
	}
	np := len(in.parties)
	var targeted partySet
	for _, t := range a.Targets {
		switch {
		case t < 0 || t >= np:
			return 0, fmt.Errorf("edge: target %d does not exist: parties are 0..%d", t, np-1)
		case t == a.Party:
			return 0, fmt.Errorf("edge: %s targets itself: target another party", in.pname(t))
		case st.Parties[t].Out:
			return 0, fmt.Errorf("edge: %s is out of the interaction and cannot be targeted", in.pname(t))
		case targeted.has(t):
			return 0, fmt.Errorf("edge: %s is targeted twice", in.pname(t))
		}
		targeted.add(t)
	}
	return targeted, nil
}

// matchReactions checks that every target that is not passive reacts once
// and nobody else does.
func (in *game) matchReactions(a *Action, targeted partySet, rs []Reaction) error {
	var reacted partySet
	for i := range rs {
		p := rs[i].Party
		switch {
		case p < 0 || p >= len(in.parties):
			return fmt.Errorf("edge: reaction by party %d, which does not exist", p)
		case !targeted.has(p):
			return fmt.Errorf("edge: %s reacts but was not targeted", in.pname(p))
		case in.parties[p].passive:
			return fmt.Errorf("edge: %s is passive and reacts by itself: give no reaction for it", in.pname(p))
		case reacted.has(p):
			return fmt.Errorf("edge: %s reacts twice", in.pname(p))
		}
		reacted.add(p)
	}
	for _, t := range a.Targets {
		if !reacted.has(t) && !in.parties[t].passive {
			return fmt.Errorf("edge: %s was targeted and must react", in.pname(t))
		}
	}
	return nil
}

// reactionOf returns the checks of party t's reaction in rs (matchReactions
// has made sure there is exactly one).
func reactionOf(rs []Reaction, t int) []Use {
	for i := range rs {
		if rs[i].Party == t {
			return rs[i].Checks
		}
	}
	return nil
}

// passiveStakes writes passive party t's checks into ps from n on and
// returns the new end: it stakes one die against each of the in.w.nAct
// checks of the actor, as far as its pool goes, its members taking turns,
// each with its best skill ("Passive Parties").
func (in *game) passiveStakes(ps []participant, n, t int) int {
	pi := &in.parties[t]
	stakes := in.w.nAct
	if in.rules.PassiveStake == PerRound {
		stakes = 1
	}
	for i := range min(stakes, in.s.Parties[t].Edge) {
		g := pi.lo + i%(pi.hi-pi.lo)
		s := in.passSkill[g]
		ms := in.mem(g)
		ps[n] = participant{party: t, member: g, state: ms, skill: s, mod: in.base(g, ms, s), staked: true, passive: true}
		n++
	}
	return n
}

// seizeCheck writes party p's check to seize the initiative into ps at n
// and returns n+1: its leader on the type's seize skill, wagering nothing.
func (in *game) seizeCheck(ps []participant, n, p int) int {
	g, mod := in.leader(p, in.seizeSkill)
	ps[n] = participant{party: p, member: g, state: in.mem(g), skill: in.seizeSkill, mod: mod}
	return n + 1
}

// uses validates one party's checks (1..its edge dice distinct members,
// legal skills: any appropriate or safe one when acting, a legal reaction
// to the skills in acted otherwise) and writes them with their modifiers
// into ps from n on. It returns the new end and the skills used; the
// reason for a refusal is written by usesError.
func (in *game) uses(ps []participant, n, p int, us []Use, acting bool, acted skillSet) (int, skillSet, error) {
	members := in.s.Parties[p].Members
	if len(us) == 0 && !acting && !in.fresh(p) {
		// Everyone of the target has checked this round (Rules.OnceARound):
		// it stakes nothing.
		return n, 0, nil
	}
	if len(us) == 0 || (len(us) > in.s.Parties[p].Edge && !in.rules.WagerBeyondPool) {
		return n, 0, in.usesError(p, us, acting, acted)
	}
	lo := in.parties[p].lo
	var seen [MaxMembers]bool
	var used skillSet
	for _, u := range us {
		m, s := u.Member, u.Skill
		if m < 0 || m >= len(members) || seen[m] || s < 1 || s >= len(in.skills) || u.Mod < -MaxModifier || u.Mod > MaxModifier {
			return n, 0, in.usesError(p, us, acting, acted)
		}
		seen[m] = true
		mod, ok := in.checkMod(lo+m, &members[m], s, acting, acted)
		if !ok {
			return n, 0, in.usesError(p, us, acting, acted)
		}
		used.add(s)
		c := &ps[n]
		c.party, c.member, c.state, c.skill, c.mod, c.total = p, lo+m, &members[m], s, mod+u.Mod, 0
		c.staked, c.actor, c.passive = true, acting, false
		n++
	}
	return n, used, nil
}

// usesError says why uses refuses party p's checks us.
func (in *game) usesError(p int, us []Use, acting bool, acted skillSet) error {
	verb := "react"
	if acting {
		verb = "act"
	}
	if len(us) == 0 {
		return fmt.Errorf("edge: %s must %s with at least one member", in.pname(p), verb)
	}
	if e := in.s.Parties[p].Edge; len(us) > e && !in.rules.WagerBeyondPool {
		return fmt.Errorf("edge: %s wagers %d edge dice but holds %d: one member per die", in.pname(p), len(us), e)
	}
	size := in.parties[p].hi - in.parties[p].lo
	var seen [MaxMembers]bool
	for _, u := range us {
		m, s := u.Member, u.Skill
		if m < 0 || m >= size {
			return fmt.Errorf("edge: %s has no member %d: members are 0..%d", in.pname(p), m, size-1)
		}
		g := in.parties[p].lo + m
		if seen[m] {
			return fmt.Errorf("edge: %s (%s) checks twice in one round: each character acts once", in.names[g], in.pname(p))
		}
		seen[m] = true
		if s == 0 {
			return fmt.Errorf("edge: %s's check names no skill (skill 0 is none): number one with Engine.Skill", in.names[g])
		}
		if s < 0 || s >= len(in.skills) {
			return fmt.Errorf("edge: skill %d does not exist: skills are 1..%d", s, len(in.skills)-1)
		}
		if u.Mod < -MaxModifier || u.Mod > MaxModifier {
			return fmt.Errorf("edge: %s's modifier for this check is %d: within ±%d", in.names[g], u.Mod, MaxModifier)
		}
		if in.checked(&in.s.Parties[p].Members[m]) {
			return fmt.Errorf("edge: %s (%s) has made its one check this round (rules.once_a_round): each character acts once in each round", in.names[g], in.pname(p))
		}
		if _, ok := in.pairing(s, acting, acted); ok {
			continue
		}
		if acting {
			return fmt.Errorf("edge: %s cannot act with %s: not a skill of a %s (want one of %v)", in.names[g], in.skills[s], in.typeName, in.typ.Skills)
		}
		return fmt.Errorf("edge: %s cannot react with %s: a reaction uses the same skill, a naturally opposed one, a safe one or an appropriate one of a %s", in.names[g], in.skills[s], in.typeName)
	}
	return errors.New("edge: checks refused") // not reached: uses refuses only what is found above
}

// checkMod returns the modifier of a wagered check of member g (in state
// m) with skill s, acting or reacting to an action using the skills in acted, and
// whether the rules allow that check ("Wagering Edge Dice", "Can't Fool Me
// Twice!"). Policies choose with it, and steps validate with it.
func (in *game) checkMod(g int, m *MemberState, s int, acting bool, acted skillSet) (int, bool) {
	extra, ok := in.pairing(s, acting, acted)
	if !ok || in.checked(m) {
		return 0, false
	}
	return in.base(g, m, s) + in.repetition(g, m, s) + extra, true
}

// checked reports whether member m has made its one check of the round in
// progress (Rules.OnceARound).
func (in *game) checked(m *MemberState) bool { return in.once && m.LastRound > in.s.Round }

// fresh reports whether some member of party p may still check this round
// (always, unless Rules.OnceARound).
func (in *game) fresh(p int) bool {
	if !in.once {
		return true
	}
	for m := range in.s.Parties[p].Members {
		if !in.checked(&in.s.Parties[p].Members[m]) {
			return true
		}
	}
	return false
}

// pairing returns the extra modifier of a wagered check with skill s and
// whether the rules allow it: acting, any appropriate or safe skill;
// reacting to an action using the skills in acted, see reactMod.
func (in *game) pairing(s int, acting bool, acted skillSet) (int, bool) {
	if acting {
		return 0, in.actLegal(s)
	}
	return in.reactMod(s, acted)
}

func (in *Engine) pname(p int) string {
	if p < 0 || p >= len(in.parties) {
		return fmt.Sprintf("party %d", p)
	}
	return fmt.Sprintf("%q", in.parties[p].name)
}

// act declares the round's action ("Wagering Edge Dice"): the party
// holding the initiative names its targets and its members' checks, each
// wagering a die. Nothing is rolled: the action waits in the state for the
// targets' reactions (React), so a saved game can wait for the reacting
// player. An illegal action returns an error and changes nothing.
func (in *game) act(a *Action) error {
	st := in.s
	if a == nil {
		return errors.New("edge: no action: give the acting party, its targets and its checks")
	}
	if err := in.underWay(); err != nil {
		return err
	}
	switch {
	case st.Pending != nil:
		return ErrInFlight
	case in.factorsDue():
		return fmt.Errorf("edge: outside factors are due before round %d: make them first (Factors)", st.Round+1)
	}
	if _, _, _, err := in.compileAction(in.w.parts[:cap(in.w.parts)], a); err != nil {
		return err
	}
	if len(a.Targets) > MaxParties || len(a.Checks) > MaxMembers {
		return fmt.Errorf("edge: an action names at most %d targets and %d checks", MaxParties, MaxMembers)
	}
	pending := a.clone()
	st.Pending = &pending
	return nil
}

// clone returns a copy of a that shares nothing with it.
func (a *Action) clone() Action {
	return Action{Party: a.Party, Targets: slices.Clone(a.Targets), Checks: slices.Clone(a.Checks)}
}

// react answers the pending action (Act) and resolves the round: one
// reaction per targeted party that is not passive, and the untargeted
// parties that roll to seize the initiative. An illegal answer returns an
// error and changes neither the state nor the Roller.
func (in *game) react(r *dice.Roller, reactions []Reaction, seize []int) error {
	st := in.s
	if st.Pending == nil {
		if st.Outcome.Done() {
			return ErrOver
		}
		return errors.New("edge: no action awaits reactions: call Act first")
	}
	if err := in.ready(); err != nil {
		return err
	}
	d := Declaration{Action: *st.Pending, Reactions: reactions, Seize: seize}
	ps, err := in.compile(&d)
	if err != nil {
		return err
	}
	in.resolve(r, ps)
	return nil
}

// resolve rolls and settles a compiled round and applies the round limit.
func (in *game) resolve(r *dice.Roller, ps []participant) {
	in.s.Pending = nil
	in.rollAll(r, ps)
	in.timeUp()
}

// play resolves one round with the given declaration ("Wagering Edge Dice",
// "Resolving a Wager", "Multiple Parties") under the same rules as Step:
// outside factors due must be made first (Factors), and the round limit
// (Rules.MaxRounds) ends the interaction. Concessions are the caller's,
// through Concede. An illegal declaration returns an error and changes
// nothing.
func (in *game) play(r *dice.Roller, d *Declaration) error {
	if d == nil {
		return errors.New("edge: no declaration: give the round's action and reactions")
	}
	if in.s.Pending != nil {
		return ErrInFlight
	}
	if err := in.ready(); err != nil {
		return err
	}
	ps, err := in.compile(d)
	if err != nil {
		return err
	}
	in.resolve(r, ps)
	return nil
}

// rollAll rolls every check of a prepared round and settles it.
func (in *game) rollAll(r *dice.Roller, ps []participant) {
	for i := range ps {
		ps[i].total = in.roll(r) + ps[i].mod
	}
	in.settle(ps)
}

// settle resolves a round of rolled checks: dice pass, usage is recorded,
// the initiative moves and parties that ran out leave.
func (in *game) settle(ps []participant) {
	st := in.s
	round := st.Round + 1
	if in.Sink != nil {
		in.emitChecks(ps, round)
	}
	moved, drained := in.exchange(ps, in.w.nAct, min(in.w.nStaked, len(ps)), round)
	st.Transfers += moved
	for i := range ps {
		if ps[i].staked && !ps[i].passive {
			in.recordUse(&ps[i], round)
		}
	}
	best := in.highest(ps)
	if in.rules.Turns == EveryParty {
		if drained {
			in.eliminate(-1)
		}
		if !st.Outcome.Done() {
			in.endTurn(ps, best)
		}
		return
	}
	st.Round = round
	in.penaltiesServed()
	if best >= 0 {
		in.setInitiative(ps[best].party)
	}
	if drained {
		// Only a party that lost its last die this round can leave: a
		// party holds no dice exactly when it is out (State.Check checks it).
		in.eliminate(-1)
	}
}

// endTurn closes a party's turn when every party acts (Rules.Turns
// EveryParty), once the parties it drained are out: the turn's best check
// competes for the round's, and after the last turn the round ends and its
// best check's party takes the initiative.
func (in *game) endTurn(ps []participant, best int) {
	st := in.s
	first := len(st.Acted) == 0
	st.Acted = append(st.Acted, ps[0].party) // the acting party's checks come first
	if best >= 0 {
		b, rb := &ps[best], &st.RoundBest
		if first || in.rules.outranks(b.total, b.mod, rb.Total, rb.Mod) ||
			(!in.rules.outranks(rb.Total, rb.Mod, b.total, b.mod) && in.before(b.party, rb.Party)) {
			*rb = BestCheck{Party: b.party, Total: b.total, Mod: b.mod}
		}
	}
	if in.actor() >= 0 {
		return
	}
	in.endRound()
}

// endRound ends a round where every party acted in turn: the round's best
// check's party takes the initiative.
func (in *game) endRound() {
	st := in.s
	st.Round++
	in.penaltiesServed()
	if len(st.Acted) > 0 && !st.Parties[st.RoundBest.Party].Out {
		// A party that went out since its best check cannot take the
		// initiative: it stays where it is (our ruling).
		in.setInitiative(st.RoundBest.Party)
	}
	st.Acted = st.Acted[:0]
	st.RoundBest = BestCheck{}
}

// penaltiesServed clears the outside-factor penalties once a round has
// been played, when they last the next round only (Rules.FactorPenalty
// NextRound): with every party acting in turn, after the round's last
// turn, so a member acting late in the round still carries it.
func (in *game) penaltiesServed() {
	if in.rules.FactorPenalty != NextRound {
		return
	}
	for p := range in.s.Parties {
		for m := range in.s.Parties[p].Members {
			in.s.Parties[p].Members[m].Penalty = 0
		}
	}
}

// actor returns the party whose turn it is to act: the initiative holder;
// with Rules.Turns EveryParty, each active party still in once a round,
// the holder first and then the order of action (-1 when all have).
func (in *game) actor() int {
	st := in.s
	if in.rules.Turns == HolderActs {
		return st.Initiative
	}
	if !slices.Contains(st.Acted, st.Initiative) && !st.Parties[st.Initiative].Out && in.fresh(st.Initiative) {
		return st.Initiative
	}
	for _, p := range st.Order {
		if !slices.Contains(st.Acted, p) && !st.Parties[p].Out && in.fresh(p) {
			return p
		}
	}
	return -1
}

// recordUse counts a wagered check for Can't Fool Me Twice: the member's
// run of rounds with the skill and, unless the skill is safe, its uses.
func (in *game) recordUse(p *participant, round int) {
	m, s := p.state, p.skill
	switch {
	case m.Last != s:
		m.Streak = 1
	case m.LastRound == round:
		// Again this round (every party acting in turn): the run goes on.
	case m.LastRound == round-1:
		m.Streak = min(m.Streak+1, maxCount)
	default:
		m.Streak = 1
	}
	m.Last, m.LastRound = s, round
	if u := &m.Uses[s]; !in.safe.has(s) && *u < maxCount {
		*u++
	}
}

// highest returns the check with the highest single result of the round,
// ranked as in the exchange, whose party takes the initiative ("Resolving a
// Wager"), or -1 when every check is passive (passive parties never take
// it). Between level checks of two parties Rules.InitiativeTie decides.
func (in *game) highest(ps []participant) int {
	best := -1
	for i := range ps {
		p := &ps[i]
		if p.passive {
			continue
		}
		if best < 0 || in.outranks(p, &ps[best]) ||
			(!in.outranks(&ps[best], p) && p.party != ps[best].party && in.before(p.party, ps[best].party)) {
			best = i
		}
	}
	return best
}

// exchange passes the dice of the staked checks ps[:nS], the actor's
// ps[:nA] against the targets' ps[nA:nS]: each to the lowest opposing check
// that outranks it (the first of level ones), if any. Every move is decided
// from the checks alone, so dice won this round are never at risk again.
// It returns how many moved and whether a party lost its last die.
func (in *game) exchange(ps []participant, nA, nS, round int) (int, bool) {
	parties := in.s.Parties
	actor, targets := ps[:nA], ps[nA:nS]
	moved, drained := 0, false
	for i := range nS {
		p, opposing := &ps[i], targets
		if i >= nA {
			opposing = actor
		}
		var q *participant
		for j := range opposing {
			if o := &opposing[j]; in.outranks(o, p) && (q == nil || in.outranks(q, o)) {
				q = o
			}
		}
		if q == nil || parties[p.party].Edge == 0 {
			// Nothing outranks it, or (rules.wager_beyond_pool) its party
			// has no die left to pay.
			continue
		}
		parties[p.party].Edge--
		parties[q.party].Edge++
		drained = drained || parties[p.party].Edge == 0
		moved++
		if in.Sink != nil {
			in.emitTransfer(p, q, round)
		}
	}
	return moved, drained
}

// emitChecks reports a round's checks.
func (in *game) emitChecks(ps []participant, round int) {
	for i := range ps {
		p := &ps[i]
		if in.Sink != nil {
			in.emit(event{Kind: EvCheck, Round: round, Party: p.party, Member: p.member - in.parties[p.party].lo,
				Skill: p.skill, Roll: p.total - p.mod, Mod: p.mod, Total: p.total, Staked: p.staked, To: -1, ToMember: -1})
		}
	}
}

// emitTransfer reports a die passing from check p to check q.
func (in *game) emitTransfer(p, q *participant, round int) {
	if in.Sink != nil {
		in.emit(event{Kind: EvTransfer, Round: round, Party: p.party, Member: p.member - in.parties[p.party].lo,
			Skill: -1, To: q.party, ToMember: q.member - in.parties[q.party].lo, Dice: 1})
	}
}

// before reports whether party p wins an initiative tie against q: the
// holder first (HolderKeeps), then the order of action.
func (in *game) before(p, q int) bool {
	st := in.s
	if in.rules.InitiativeTie == HolderKeeps && (p == st.Initiative || q == st.Initiative) {
		return p == st.Initiative
	}
	for _, o := range st.Order {
		if o == p || o == q {
			return o == p
		}
	}
	return false
}

func (in *game) setInitiative(p int) {
	if p != in.s.Initiative {
		in.s.Initiative = p
		in.s.InitiativeChanges++
		if in.Sink != nil {
			in.emit(event{Kind: EvInitiative, Round: in.s.Round, Party: p, Member: -1, Skill: -1, To: -1, ToMember: -1})
		}
	}
}

// eliminate marks parties without edge dice as out and ends the interaction
// when only one party is left holding dice ("Winning a Dramatic
// Interaction").
//
// by is the party whose surrender emptied its pool, or -1: an interaction
// it leaves with one party holding dice ends as Surrendered, by it.
func (in *game) eliminate(by int) {
	st := in.s
	left, last, acting := 0, -1, 0
	for p := range in.parties {
		if !st.Parties[p].Out && st.Parties[p].Edge == 0 {
			st.Parties[p].Out = true
			if in.Sink != nil {
				in.emit(event{Kind: EvOut, Round: st.Round, Party: p, Member: -1, Skill: -1, To: -1, ToMember: -1})
			}
		}
		if !st.Parties[p].Out {
			left++
			last = p
			if !in.parties[p].passive {
				acting++
			}
		}
	}
	switch {
	case left <= 1 && by >= 0:
		in.finish(Outcome{End: Surrendered, Winner: last, By: by})
		return
	case left <= 1:
		in.finish(Outcome{End: RanOut, Winner: last, By: -1})
		return
	case acting == 0:
		// Only passive parties hold dice: nobody can act any more.
		o := in.judge(RanOut, -1)
		if by >= 0 {
			o.End, o.By = Surrendered, by
		}
		in.finish(o)
		return
	}
	if st.Parties[st.Initiative].Out {
		for _, p := range st.Order {
			if !st.Parties[p].Out {
				in.setInitiative(p)
				break
			}
		}
	}
}

// judge is the outcome of an interaction abandoned before anyone has all
// the dice: the party with strictly the most dice wins partially.
func (in *game) judge(e End, by int) Outcome {
	st := in.s
	o := Outcome{End: e, Winner: -1, By: by}
	most, tied := -1, false
	for p := range st.Parties {
		n := st.Parties[p].Edge
		switch {
		case n > most:
			most, o.Winner, tied = n, p, false
		case n == most:
			tied = true
		}
	}
	if tied {
		o.Winner = -1
	}
	o.Partial = o.Winner >= 0
	return o
}

func (in *game) finish(o Outcome) {
	in.s.Outcome = o
	if in.Sink != nil {
		in.emit(event{Kind: EvEnd, Round: in.s.Round, Party: o.Winner, Member: -1, Skill: -1, To: o.By, ToMember: -1, End: o.End})
	}
}

// concede applies party p's choice before a round: Surrender hands all its
// dice to the party holding the initiative (or, if p holds it, to the
// party with most dice, earlier in the order on ties) and takes p out;
// WalkAway ends the interaction with the party holding most dice as partial
// winner, if the type allows it.
func (in *game) concede(p int, c Concession) error {
	st := in.s
	if err := in.underWay(); err != nil {
		return err
	}
	switch {
	case p < 0 || p >= len(in.parties):
		return fmt.Errorf("edge: party %d does not exist: parties are 0..%d", p, len(in.parties)-1)
	case st.Parties[p].Out:
		return fmt.Errorf("edge: %s is already out", in.pname(p))
	case in.parties[p].passive && c != Continue:
		return fmt.Errorf("edge: %s is passive and makes no choices", in.pname(p))
	case st.Pending != nil && c != Continue:
		return ErrInFlight
	}
	switch c {
	case Continue:
		return nil
	case Surrender:
		in.surrender(p)
		return nil
	case WalkAway:
		if !in.typ.WalkAway {
			return fmt.Errorf("edge: %s cannot walk away: the GM does not allow it in a %s (rules.types[%q].walk_away)", in.pname(p), in.typeName, in.typeName)
		}
		if in.Sink != nil {
			in.emit(event{Kind: EvConcede, Round: st.Round, Party: p, Member: -1, Skill: -1, To: -1, ToMember: -1, Concession: WalkAway})
		}
		in.finish(in.judge(WalkedAway, p))
		return nil
	}
	return fmt.Errorf("edge: unknown concession %d: want continue, surrender or walk_away", int(c))
}

// surrender hands all of party p's dice over (Rules.SurrenderTo says to
// whom) and takes it out of the interaction.
func (in *game) surrender(p int) {
	st := in.s
	to := st.Initiative
	if in.rules.SurrenderTo == ToMostDice || to == p || to < 0 || st.Parties[to].Out {
		to = -1
		for _, q := range in.byOrder() {
			if q != p && !st.Parties[q].Out && (to < 0 || st.Parties[q].Edge > st.Parties[to].Edge) {
				to = q
			}
		}
	}
	n := st.Parties[p].Edge
	st.Parties[to].Edge += n
	st.Parties[p].Edge = 0
	st.Transfers += n
	if in.Sink != nil {
		in.emit(event{Kind: EvConcede, Round: st.Round, Party: p, Member: -1, Skill: -1, To: to, ToMember: -1, Dice: n, Concession: Surrender})
	}
	in.eliminate(p)
	if !st.Outcome.Done() && in.midRound() && in.actor() < 0 {
		// The last party yet to act this round surrendered.
		in.endRound()
	}
}

// byOrder lists every party: the order of action first, then the rest
// (passive parties) in listing order. It uses scratch space.
func (in *game) byOrder() []int {
	out := append(in.w.ordered[:0], in.s.Order...)
	for p := range in.parties {
		if in.parties[p].passive {
			out = append(out, p)
		}
	}
	return out
}

// abandon has group member m of party p abandon its stragglers ("Large
// Parties"): from now on its modifier is one rank lower and it no longer
// suffers that modifier as a penalty on endurance-type checks.
func (in *game) abandon(p, m int) error {
	g := in.member(p, m)
	switch {
	case in.s.Outcome.Done():
		return ErrOver
	case g < 0:
		return fmt.Errorf("edge: party %d has no member %d", p, m)
	case in.size[g] <= 1:
		return fmt.Errorf("edge: %s is not a group (size %d) and has no stragglers", in.names[g], in.size[g])
	case in.mem(g).Abandoned:
		return fmt.Errorf("edge: %s has already abandoned its stragglers", in.names[g])
	}
	ms := in.mem(g)
	ms.Abandoned = true
	ms.Rank = max(ms.Rank-1, 0)
	if in.Sink != nil {
		in.emit(event{Kind: EvAbandon, Round: in.s.Round, Party: p, Member: m, Skill: -1, To: -1, ToMember: -1})
	}
	return nil
}

// outsideCheck makes the GM's outside-factor check f between rounds ("Outside
// Factors"): every member of the parties it names (all parties still in
// when it names none) rolls f.Skill against f.DC, wagering nothing; each who
// fails takes f.Penalty on every later check.
func (in *game) outsideCheck(r *dice.Roller, f Factor) error {
	st := in.s
	if st.Outcome.Done() {
		return ErrOver
	}
	s, ok := in.skillIdx[f.Skill]
	if !ok {
		return fmt.Errorf("edge: outside factor skill %q is not a skill of this interaction", clip(f.Skill))
	}
	if f.Penalty > 0 || f.Penalty < -MaxModifier {
		return fmt.Errorf("edge: outside factor penalty %d: a penalty is 0 or negative", f.Penalty)
	}
	if err := checkMod("outside factor dc", f.DC); err != nil {
		return err
	}
	if len(f.Parties) > MaxParties {
		return fmt.Errorf("edge: outside factor names %d parties: at most %d", len(f.Parties), MaxParties)
	}
	for _, n := range f.Parties {
		if in.partyIndex(n) < 0 {
			return fmt.Errorf("edge: outside factor names %q, which is not a party", clip(n))
		}
	}
	if in.factorsDue() && in.scheduled(f) {
		return fmt.Errorf("edge: outside factor %s DC %d is scheduled before round %d: make it with Factors, which marks it made", f.Skill, f.DC, st.Round+1)
	}
	for p := range in.parties {
		if st.Parties[p].Out || (len(f.Parties) > 0 && !in.named(f.Parties, p)) {
			continue
		}
		in.outside(r, p, s, f.DC, f.Penalty)
	}
	return nil
}

// scheduled reports whether f is one of the scenario's outside factors
// due before the next round.
func (in *game) scheduled(f Factor) bool {
	for _, g := range in.factors {
		if g.due(in.s.Round+1) && g.After == f.After && g.Every == f.Every && g.Skill == f.Skill &&
			g.DC == f.DC && g.Penalty == f.Penalty && slices.Equal(g.Parties, f.Parties) {
			return true
		}
	}
	return false
}

func (in *Engine) named(names []string, p int) bool {
	for _, n := range names {
		if n == in.parties[p].name {
			return true
		}
	}
	return false
}

func (in *Engine) partyIndex(name string) int {
	for p := range in.parties {
		if in.parties[p].name == name {
			return p
		}
	}
	return -1
}

func (in *game) outside(r *dice.Roller, p, s, dc, pen int) {
	for g := in.parties[p].lo; g < in.parties[p].hi; g++ {
		m := in.mem(g)
		mod := in.base(g, m, s)
		v := in.roll(r)
		fail := v+mod < dc
		if fail {
			// Bounded so a check's modifier always fits the exchange's ranking.
			m.Penalty = max(m.Penalty+pen, -maxPenalty)
		}
		if in.Sink != nil {
			in.emit(event{Kind: EvOutside, Round: in.s.Round, Party: p, Member: g - in.parties[p].lo, Skill: s,
				Roll: v, Mod: mod, Total: v + mod, Failed: fail, Dice: pen, To: -1, ToMember: -1})
		}
	}
}

// step advances the interaction by one decision point using the parties'
// policies: the starting checks if not yet made; else the outside factors
// due before the next round, if any (groups about to check an
// endurance-type skill may abandon their stragglers first); else each
// party's chance to surrender or walk away, and one round. A policy's
// illegal choice returns an error naming it and changes neither the state
// nor the Roller.
func (in *game) step(r *dice.Roller) error {
	st := in.s
	if st.Outcome.Done() {
		return ErrOver
	}
	if !st.Started {
		return in.starting(r)
	}
	if in.factorsDue() {
		return in.makeFactors(r, true)
	}
	return in.choose(r)
}

// factorsDue reports whether scheduled outside factors are due before the
// next round and not yet made.
func (in *game) factorsDue() bool {
	next := in.s.Round + 1
	if in.s.Factored >= next {
		return false
	}
	for _, f := range in.factors {
		if f.due(next) {
			return true
		}
	}
	return false
}

// factorsStep makes the scheduled outside-factor checks due before the next
// round ("Outside Factors"), as Step does; a round cannot be played while
// they are due. A group that should abandon its stragglers before an
// endurance-type check calls Abandon first.
func (in *game) factorsStep(r *dice.Roller) error {
	if err := in.underWay(); err != nil {
		return err
	}
	if !in.factorsDue() {
		return fmt.Errorf("edge: no outside factors are due before round %d", in.s.Round+1)
	}
	return in.makeFactors(r, false)
}

// choose lets the policies concede or declare a round, and plays it; an
// action declared by hand (Act) is answered by the targets' policies.
func (in *game) choose(r *dice.Roller) error {
	if in.s.Pending == nil && !in.midRound() {
		if conceded, err := in.concessions(); err != nil || conceded {
			return err
		}
	}
	ps, err := in.declare()
	if err != nil {
		return err
	}
	in.resolve(r, ps)
	return nil
}

// midRound reports whether some party has taken its turn this round
// (every party acting in turn).
func (in *game) midRound() bool { return len(in.s.Acted) > 0 }

// timeUp ends the interaction once it has lasted rules.max_rounds (or
// MaxRoundLimit rounds, where it sets no limit).
func (in *game) timeUp() {
	st := in.s
	if st.Round >= in.rules.roundLimit() && !st.Outcome.Done() {
		in.finish(in.judge(TimeUp, -1))
	}
}

// concessions asks each active party, in the order of action, whether it
// surrenders or walks away, and applies the first that does.
func (in *game) concessions() (bool, error) {
	st := in.s
	v := &in.w.view
	for _, p := range st.Order {
		if st.Parties[p].Out {
			continue
		}
		c := in.Policies[p].Concede(v, p)
		if err := in.refusal(); err != nil {
			return false, err
		}
		if c != Continue {
			if err := in.concede(p, c); err != nil {
				return false, fmt.Errorf("edge: policy of %s: %w", in.pname(p), err)
			}
			return true, nil
		}
	}
	return false, nil
}

// declare fills in.w.decl from the policies, checking each answer as it
// is given (the action, then each target's reaction, with the same checks
// as compile and in its order), lets groups about to make endurance-type
// checks abandon their stragglers, and returns the round's checks. It
// changes nothing before every answer is in and found legal.
func (in *game) declare() ([]participant, error) {
	st := in.s
	w := in.w
	v := &w.view
	d := &w.decl
	a := &d.Action
	a.Party = in.actor()
	a.Targets = w.targets[:0]
	a.Checks = w.checks[:0]
	if st.Pending != nil {
		a.Targets = append(a.Targets, st.Pending.Targets...)
		a.Checks = append(a.Checks, st.Pending.Checks...)
	} else {
		in.Policies[a.Party].Act(v, a.Party, a)
		if err := in.refusal(); err != nil {
			return nil, err
		}
	}
	ps := w.parts[:cap(w.parts)]
	n, acted, targeted, err := in.compileAction(ps, a)
	if err != nil {
		return nil, illegalRound(err)
	}
	in.w.nAct = n
	// The targets are distinct parties still in: one reaction each.
	d.Reactions = d.Reactions[:0]
	for _, t := range a.Targets {
		if in.parties[t].passive {
			n = in.passiveStakes(ps, n, t)
			continue
		}
		d.Reactions = d.Reactions[:len(d.Reactions)+1]
		rc := &d.Reactions[len(d.Reactions)-1]
		rc.Party, rc.Checks = t, w.reactionChecks[t][:0]
		in.Policies[t].React(v, t, a, rc)
		if err := in.refusal(); err != nil {
			return nil, err
		}
		if rc.Party != t {
			return nil, illegalRound(fmt.Errorf("edge: %s's reaction is given as party %d's", in.pname(t), rc.Party))
		}
		if n, _, err = in.uses(ps, n, t, rc.Checks, false, acted); err != nil {
			return nil, illegalRound(err)
		}
	}
	w.nStaked = n
	if n, err = in.seizers(ps, n, targeted); err != nil {
		return nil, err
	}
	ps = ps[:n]
	if !in.groups {
		return ps, nil
	}
	shed, err := in.abandons(d)
	if err != nil || !shed {
		return ps, err
	}
	// Abandoning changes the groups' modifiers; legality is unchanged.
	if ps, err = in.compile(d); err != nil {
		return nil, illegalRound(err)
	}
	return ps, nil
}

// seizers asks each party in the order of action that is neither acting
// nor targeted whether it rolls to seize the initiative (nobody does when
// every party acts in turn, nor when the actor and its targets are every
// party), lists it in in.w.decl.Seize and writes its check into ps from n
// on; it returns the new end.
func (in *game) seizers(ps []participant, n int, targeted partySet) (int, error) {
	st := in.s
	d := &in.w.decl
	d.Seize = d.Seize[:0]
	if in.rules.Turns == EveryParty || 1+len(d.Action.Targets) == len(in.parties) {
		return n, nil
	}
	for _, p := range st.Order {
		if p == d.Action.Party || targeted.has(p) || st.Parties[p].Out {
			continue
		}
		seize := in.Policies[p].Seize(&in.w.view, p)
		if err := in.refusal(); err != nil {
			return n, err
		}
		if seize {
			d.Seize = append(d.Seize, p)
			n = in.seizeCheck(ps, n, p)
		}
	}
	return n, nil
}

// illegalRound is the error of a round the policies declared against the
// rules.
func illegalRound(err error) error {
	return fmt.Errorf("edge: policies declared an illegal round: %w", err)
}

// abandons asks each group about to make an endurance-type check in the
// declared round whether it abandons its stragglers first, and once every
// one has answered abandons those that do; it reports whether any did.
func (in *game) abandons(d *Declaration) (bool, error) {
	in.w.nShed = 0
	if err := in.askShed(d.Action.Party, d.Action.Checks); err != nil {
		return false, err
	}
	for i := range d.Reactions {
		if err := in.askShed(d.Reactions[i].Party, d.Reactions[i].Checks); err != nil {
			return false, err
		}
	}
	return in.shedAsked(), nil
}

// askShed asks party p, for each of its checks us by a group that still
// has stragglers and checks an endurance-type skill, whether the group
// abandons them, and lists those that do in in.w.shed.
func (in *game) askShed(p int, us []Use) error {
	for _, u := range us {
		g := in.parties[p].lo + u.Member
		if in.endurance.has(u.Skill) {
			if err := in.askGroup(p, g); err != nil {
				return err
			}
		}
	}
	return nil
}

// askGroup asks party p whether its group g (numbered across parties), if
// it still has stragglers, abandons them, and lists it in in.w.shed if so.
func (in *game) askGroup(p, g int) error {
	if in.size[g] <= 1 || in.mem(g).Abandoned {
		return nil
	}
	shed := in.Policies[p].Abandon(&in.w.view, p, g-in.parties[p].lo)
	if err := in.refusal(); err != nil {
		return err
	}
	if shed {
		in.w.shed[in.w.nShed] = g // each group is asked once a step
		in.w.nShed++
	}
	return nil
}

// shedAsked has the groups listed in in.w.shed abandon their stragglers,
// in the order they were asked, and reports whether there were any.
func (in *game) shedAsked() bool {
	for _, g := range in.w.shed[:in.w.nShed] {
		p := in.memberOf[g]
		_ = in.abandon(p, g-in.parties[p].lo) // legal: askGroup asked only groups with stragglers
	}
	return in.w.nShed > 0
}

// makeFactors makes the outside-factor checks due before the next round.
// With ask, the policies are first asked whether the groups about to make
// an endurance-type one abandon their stragglers: each such group once,
// before any die of the factors is rolled, so that every answer is in
// before the step changes anything.
func (in *game) makeFactors(r *dice.Roller, ask bool) error {
	st := in.s
	next := st.Round + 1
	if ask && in.groups {
		if err := in.askFactorSheds(next); err != nil {
			return err
		}
	}
	for _, f := range in.factors {
		if !f.due(next) {
			continue
		}
		for p := range in.parties {
			if st.Parties[p].Out || !f.parties[p] {
				continue
			}
			in.outside(r, p, f.skill, f.DC, f.Penalty)
		}
	}
	st.Factored = next
	return nil
}

// askFactorSheds asks every active party still in that an endurance-type
// outside factor due before round next checks, for each of its groups
// that still has stragglers, whether it abandons them, and abandons those
// that do once every group has answered.
func (in *game) askFactorSheds(next int) error {
	in.w.nShed = 0
	for p := range in.parties {
		if in.s.Parties[p].Out || in.parties[p].passive || !in.enduresFactor(p, next) {
			continue
		}
		for g := in.parties[p].lo; g < in.parties[p].hi; g++ {
			if err := in.askGroup(p, g); err != nil {
				return err
			}
		}
	}
	in.shedAsked()
	return nil
}

// enduresFactor reports whether an outside factor due before round next
// has party p check an endurance-type skill.
func (in *game) enduresFactor(p, next int) bool {
	for _, f := range in.factors {
		if f.due(next) && f.parties[p] && in.endurance.has(f.skill) {
			return true
		}
	}
	return false
}

// refusal returns, and clears, the refusal of the answer just given
// through a Game's Chooser (Game.Intercept): the step stops at the
// question, before it changes anything or rolls a die.
func (in *game) refusal() error {
	err := in.w.refused
	in.w.refused = nil
	return err
}

// run steps with the policies until the interaction ends.
func (in *game) run(r *dice.Roller) error {
	for !in.s.Outcome.Done() {
		if err := in.step(r); err != nil {
			return err
		}
	}
	return nil
}

// The steps a caller takes: each checks that s belongs to the engine and is
// whole (Check), then the step checks its own input, and only then changes
// s or rolls. A step that rolls refuses a nil Roller (dice.ErrNilRoller).

// noRoller is the error of a step handed no Roller.
func noRoller(step string) error {
	return fmt.Errorf("edge: %s: %w", step, dice.ErrNilRoller)
}

// Start makes the starting checks and sets the order of action ("Beginning
// a Dramatic Interaction"): each active party's best member rolls the
// type's starting skill, highest first (ties by Rules.TieBreak, then the
// party listed first); in a temptation the tempters go first, in listing
// order. Passive parties never act and take no place in the order.
func (e *Engine) Start(s *State, r *dice.Roller) error {
	if r == nil {
		return noRoller("Start")
	}
	in, err := e.beginStep(s)
	if err != nil {
		return err
	}
	defer e.release(in)
	return in.starting(r)
}

// Factors makes the scheduled outside-factor checks due before the next
// round ("Outside Factors"), as Step does; a round cannot be played while
// they are due (FactorsDue says when they are). A group that should
// abandon its stragglers before an endurance-type check calls Abandon
// first.
func (e *Engine) Factors(s *State, r *dice.Roller) error {
	if r == nil {
		return noRoller("Factors")
	}
	in, err := e.beginStep(s)
	if err != nil {
		return err
	}
	defer e.release(in)
	return in.factorsStep(r)
}

// FactorsDue reports whether scheduled outside factors are due before the
// next round and not yet made ("Outside Factors"): while they are, Act and
// Round refuse and Factors (or Step) makes them.
func (e *Engine) FactorsDue(s *State) (bool, error) {
	in, err := e.begin(s)
	if err != nil {
		return false, err
	}
	defer e.release(in)
	return in.underWay() == nil && in.factorsDue(), nil
}

// Act declares the round's action ("Wagering Edge Dice"): the party whose
// turn it is names its targets and its members' checks, each wagering a
// die. Nothing is rolled: the action waits in s.Pending for the targets'
// reactions (React), so a saved game can wait for the reacting player. An
// illegal action returns an error and changes nothing.
func (e *Engine) Act(s *State, a *Action) error {
	in, err := e.beginStep(s)
	if err != nil {
		return err
	}
	defer e.release(in)
	return in.act(a)
}

// React answers the pending action (Act) and resolves the round: one
// reaction per targeted party that is not passive, and the untargeted
// parties that roll to seize the initiative. An illegal answer returns an
// error and changes neither the state nor the Roller.
func (e *Engine) React(s *State, r *dice.Roller, reactions []Reaction, seize []int) error {
	if r == nil {
		return noRoller("React")
	}
	in, err := e.beginStep(s)
	if err != nil {
		return err
	}
	defer e.release(in)
	return in.react(r, reactions, seize)
}

// Round resolves one round with the given declaration ("Wagering Edge
// Dice", "Resolving a Wager", "Multiple Parties"), Act and React at once,
// under the same rules as Step: outside factors due must be made first
// (Factors), and the round limit (Rules.MaxRounds) ends the interaction.
// Concessions are the caller's, through Concede. An illegal declaration
// returns an error and changes nothing.
func (e *Engine) Round(s *State, r *dice.Roller, d *Declaration) error {
	if r == nil {
		return noRoller("Round")
	}
	in, err := e.beginStep(s)
	if err != nil {
		return err
	}
	defer e.release(in)
	return in.play(r, d)
}

// Concede applies party p's choice before a round: Surrender hands all its
// dice over (Rules.SurrenderTo says to whom) and takes p out; WalkAway
// ends the interaction with the party holding most dice as partial
// winner, if the type allows it.
func (e *Engine) Concede(s *State, p int, c Concession) error {
	in, err := e.beginStep(s)
	if err != nil {
		return err
	}
	defer e.release(in)
	return in.concede(p, c)
}

// Abandon has group member m of party p abandon its stragglers ("Large
// Parties"): from now on its modifier is one rank lower and it no longer
// suffers that modifier as a penalty on endurance-type checks.
func (e *Engine) Abandon(s *State, p, m int) error {
	in, err := e.beginStep(s)
	if err != nil {
		return err
	}
	defer e.release(in)
	return in.abandon(p, m)
}

// Outside makes the GM's ad hoc outside-factor check f between rounds
// ("Outside Factors"): every member of the parties it names (all parties
// still in when it names none) rolls f.Skill against f.DC, wagering
// nothing; each who fails takes f.Penalty on later checks. A factor the
// scenario schedules is made with Factors, which marks it made.
func (e *Engine) Outside(s *State, r *dice.Roller, f Factor) error {
	if r == nil {
		return noRoller("Outside")
	}
	in, err := e.beginStep(s)
	if err != nil {
		return err
	}
	defer e.release(in)
	return in.outsideCheck(r, f)
}

// Step advances s by one decision point under Engine.Policies: the
// starting checks if not yet made; else the outside factors due before
// the next round, if any (groups about to check an endurance-type skill
// may abandon their stragglers first); else each party's chance to
// surrender or walk away, and one round (or one party's turn, when every
// party acts). A policy's illegal choice returns an error naming it and
// changes neither the state nor the Roller.
func (e *Engine) Step(s *State, r *dice.Roller) error {
	if r == nil {
		return noRoller("Step")
	}
	if err := e.checkPolicies(); err != nil {
		return err
	}
	in, err := e.beginStep(s)
	if err != nil {
		return err
	}
	defer e.release(in)
	return in.step(r)
}

// Play steps s under Engine.Policies until the interaction ends
// (State.Done); s.Outcome says how it ended. s is checked once, before the
// first step: the policies see it through a read-only View, and neither
// they nor the Sink may change it while Play plays. A step that fails
// stops Play with its error, the state as that step found it.
func (e *Engine) Play(s *State, r *dice.Roller) error {
	if r == nil {
		return noRoller("Play")
	}
	if err := e.checkPolicies(); err != nil {
		return err
	}
	in, err := e.beginStep(s)
	if err != nil {
		return err
	}
	defer e.release(in)
	return in.run(r)
}

// checkPolicies checks that Engine.Policies holds one policy for each
// party.
func (e *Engine) checkPolicies() error {
	if len(e.Policies) != len(e.parties) {
		return fmt.Errorf("edge: Engine.Policies holds %d policies for %d parties: one a party", len(e.Policies), len(e.parties))
	}
	for p, pol := range e.Policies {
		if pol == nil {
			return fmt.Errorf("edge: Engine.Policies[%d] (%s) is nil", p, e.pname(p))
		}
	}
	return nil
}

// ready checks that a round may be played now: the interaction has
// started and is not over, and no outside factors are due before it.
func (in *game) ready() error {
	if err := in.underWay(); err != nil {
		return err
	}
	if in.factorsDue() {
		return fmt.Errorf("edge: outside factors are due before round %d: make them first (Factors)", in.s.Round+1)
	}
	return nil
}

// underWay checks that the interaction has started and is not over: no
// step plays before the start or after the end.
func (in *game) underWay() error {
	switch {
	case in.s.Outcome.Done():
		return ErrOver
	case !in.s.Started:
		return ErrNotStarted
	}
	return nil
}
