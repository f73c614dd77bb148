package edge

import (
	"errors"
	"fmt"
	"math"
	"math/bits"

	"github.com/stakesrpg/stakes/dice"
)

// Use is one member's check in a round: which member (numbered within its
// party) and which skill (an index from Interaction.Skill).
type Use struct {
	// Member is the member's index within its party.
	Member int `json:"member"`
	// Skill is the skill's index (Interaction.Skill).
	Skill int `json:"skill"`
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

// participant is one check of a round, kept small so a round's checks
// share a cache line or two.
type participant struct {
	key        int64 // total<<32 + mod: the exchange's ranking (set by score)
	mod, total int32
	use        uint16 // index of (member, skill) in the uses table
	party      uint8  // < MaxParties
	member     uint8  // global member number, < MaxParties*MaxMembers
	skill      uint8  // < MaxSkills
	flags      uint8  // pStaked, pActor, pPassive, pSafe
}

// participant flags.
const (
	pStaked  = 1 << iota // wagered an edge die (unset for seizing checks)
	pActor               // of the acting party
	pPassive             // of a passive party
	pSafe                // the skill is safe in this type
)

// score sets the check's total: its die roll plus its modifier. A check's
// rank in the exchange is its total, then its modifier (our ruling: ties go to
// the higher modifier; a full tie moves nothing).
func (p *participant) score(roll int32) {
	p.total = roll + p.mod
	p.key = int64(p.total)<<32 + int64(p.mod)
}

// ErrOver is returned by steps taken after the interaction has ended.
var ErrOver = errors.New("edge: the interaction is over")

// ErrNotStarted is returned by round steps before Start.
var ErrNotStarted = errors.New("edge: the interaction has not started: call Start first")

// Start makes the starting checks and sets the order of action ("Beginning
// a Dramatic Interaction"): each active party's best member rolls the
// type's starting skill, highest first (ties: the higher modifier, then the
// party listed first); in a temptation the tempters go first, in listing
// order. Passive parties never act and take no place in the order.
func (in *Interaction) Start(r *dice.Roller) error {
	st := &in.st
	if st.started {
		return errors.New("edge: the interaction has already started")
	}
	st.order = st.order[:0]
	if in.startSkill < 0 {
		for pass := 0; pass < 2; pass++ {
			for p, pi := range in.parties {
				if !pi.passive && pi.tempter == (pass == 0) {
					st.order = append(st.order, p)
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
			in.emit(Event{Kind: EvStart, Round: 0, Party: p, Member: g - pi.lo, Skill: in.startSkill,
				Roll: v, Mod: mod, Total: v + mod, To: -1, ToMember: -1})
			// Insert p in order, descending.
			i := len(st.order)
			st.order = append(st.order, p)
			for i > 0 {
				q := st.order[i-1]
				if totals[q] > totals[p] || (totals[q] == totals[p] && mods[q] >= mods[p]) {
					break
				}
				st.order[i] = q
				i--
			}
			st.order[i] = p
		}
	}
	st.started = true
	st.initiative = st.order[0]
	in.emit(Event{Kind: EvInitiative, Party: st.initiative, Member: -1, Skill: -1, To: -1, ToMember: -1})
	return nil
}

// compile checks a declaration against the rules and the state and lists
// its checks with their modifiers in in.parts, changing no state: the
// actor's checks, then each target's staked checks in the order the action
// names the targets, then the seizing checks. Dice are rolled in this order.
// Each check is validated and priced in one pass.
func (in *Interaction) compile(d *Declaration) ([]participant, error) {
	st := &in.st
	if st.outcome.Done() {
		return nil, ErrOver
	}
	if !st.started {
		return nil, ErrNotStarted
	}
	a := &d.Action
	if a.Party != st.initiative {
		return nil, fmt.Errorf("edge: action by party %d, but %s holds the initiative", a.Party, in.pname(st.initiative))
	}
	if len(a.Targets) == 0 {
		return nil, fmt.Errorf("edge: %s's action names no target: name one party still in", in.pname(a.Party))
	}
	if len(a.Targets) > 1 && !in.rules.MultiTarget {
		return nil, fmt.Errorf("edge: %s targets %d parties, but rules.multi_target is off: one target", in.pname(a.Party), len(a.Targets))
	}
	np := len(in.parties)
	var tmask uint32
	for _, t := range a.Targets {
		switch {
		case uint(t) >= uint(np):
			return nil, fmt.Errorf("edge: target %d does not exist: parties are 0..%d", t, np-1)
		case t == a.Party:
			return nil, fmt.Errorf("edge: %s targets itself: target another party", in.pname(t))
		case st.out[t]:
			return nil, fmt.Errorf("edge: %s is out of the interaction and cannot be targeted", in.pname(t))
		case tmask&(1<<t) != 0:
			return nil, fmt.Errorf("edge: %s is targeted twice", in.pname(t))
		}
		tmask |= 1 << t
	}
	ps := in.parts[:cap(in.parts)]
	n, mask, err := in.uses(ps, 0, a.Party, a.Checks, true, 0)
	if err != nil {
		return nil, err
	}
	in.nAct = n
	var rmask uint32
	for i := range d.Reactions {
		p := d.Reactions[i].Party
		switch {
		case uint(p) >= uint(np):
			return nil, fmt.Errorf("edge: reaction by party %d, which does not exist", p)
		case tmask&(1<<p) == 0:
			return nil, fmt.Errorf("edge: %s reacts but was not targeted", in.pname(p))
		case in.parties[p].passive:
			return nil, fmt.Errorf("edge: %s is passive and reacts by itself: give no reaction for it", in.pname(p))
		case rmask&(1<<p) != 0:
			return nil, fmt.Errorf("edge: %s reacts twice", in.pname(p))
		}
		rmask |= 1 << p
		in.reactOf[p] = int8(i)
	}
	if rmask != tmask&^in.passiveMask {
		for _, t := range a.Targets {
			if rmask&(1<<t) == 0 && !in.parties[t].passive {
				return nil, fmt.Errorf("edge: %s was targeted and must react", in.pname(t))
			}
		}
	}
	for _, t := range a.Targets {
		if in.parties[t].passive {
			n = in.passiveStakes(ps, n, t)
			continue
		}
		if n, _, err = in.uses(ps, n, t, d.Reactions[in.reactOf[t]].Checks, false, mask); err != nil {
			return nil, err
		}
	}
	in.nStaked = n
	var smask uint32
	for _, p := range d.Seize {
		switch {
		case uint(p) >= uint(np):
			return nil, fmt.Errorf("edge: seize by party %d, which does not exist", p)
		case p == a.Party || tmask&(1<<p) != 0:
			return nil, fmt.Errorf("edge: %s is in the exchange and cannot also seize the initiative", in.pname(p))
		case in.parties[p].passive:
			return nil, fmt.Errorf("edge: %s is passive and never takes the initiative", in.pname(p))
		case st.out[p]:
			return nil, fmt.Errorf("edge: %s is out of the interaction", in.pname(p))
		case smask&(1<<p) != 0:
			return nil, fmt.Errorf("edge: %s seizes twice", in.pname(p))
		}
		smask |= 1 << p
		n = in.seizeCheck(ps, n, p)
	}
	return ps[:n], nil
}

// passiveStakes writes passive party t's checks into ps from n on and
// returns the new end: it stakes one die against each of the in.nAct
// checks of the actor, as far as its pool goes, its members taking turns,
// each with its best skill ("Passive Parties").
func (in *Interaction) passiveStakes(ps []participant, n, t int) int {
	pi := &in.parties[t]
	k := min(in.nAct, in.st.edge[t])
	for i := range k {
		g := pi.lo + i%(pi.hi-pi.lo)
		q := &ps[n]
		q.mod, q.use = int32(in.base(g, in.passSkill[g])), 0
		q.party, q.member, q.skill, q.flags = uint8(t), uint8(g), uint8(in.passSkill[g]), pStaked|pPassive
		n++
	}
	return n
}

// seizeCheck writes party p's check to seize the initiative into ps at n
// and returns n+1: its leader on the type's seize skill, wagering nothing.
func (in *Interaction) seizeCheck(ps []participant, n, p int) int {
	g, mod := in.leader(p, in.seizeSkill)
	q := &ps[n]
	q.mod, q.use = int32(mod), 0
	q.party, q.member, q.skill, q.flags = uint8(p), uint8(g), uint8(in.seizeSkill), 0
	return n + 1
}

// uses validates one party's checks (1..its edge dice distinct members,
// legal skills: any appropriate or safe one when acting, a legal reaction
// to the skills in actMask otherwise) and writes them with their modifiers
// into ps from n on. It returns the new end and the mask of skills used.
// The loop only detects a problem; usesErr says what it is.
func (in *Interaction) uses(ps []participant, n, p int, us []Use, acting bool, actMask uint64) (int, uint64, error) {
	if len(us) == 0 || len(us) > in.st.edge[p] {
		return n, 0, in.usesErr(p, us, acting, actMask)
	}
	lo, size, ns := in.parties[p].lo, in.parties[p].hi-in.parties[p].lo, len(in.skills)
	flags := uint8(pStaked)
	legal := in.apprMask | in.safeMask
	if acting {
		flags |= pActor
	}
	var seen uint32
	var mask uint64
	for _, u := range us {
		m, s := u.Member, u.Skill
		if uint(m) >= uint(size) || seen&(1<<(uint(m)&31)) != 0 || uint(s) >= uint(ns) {
			return n, 0, in.usesErr(p, us, acting, actMask)
		}
		seen |= 1 << (uint(m) & 31)
		bit := uint64(1) << (uint(s) & 63)
		extra := 0
		if acting {
			if legal&bit == 0 {
				return n, 0, in.usesErr(p, us, acting, actMask)
			}
		} else {
			var ok bool
			if extra, ok = in.reactMod(s, actMask); !ok {
				return n, 0, in.usesErr(p, us, acting, actMask)
			}
		}
		mask |= bit
		f := flags
		if in.safeMask&bit != 0 {
			f |= pSafe
		}
		g := lo + m
		q := &ps[n]
		q.mod = int32(in.base(g, s) + in.activeRep(g, s) + extra)
		q.use = uint16(g*ns + s)
		q.party, q.member, q.skill, q.flags = uint8(p), uint8(g), uint8(s), f
		n++
	}
	return n, mask, nil
}

// usesErr explains why uses refused a party's checks: the first problem,
// in the order uses meets them.
func (in *Interaction) usesErr(p int, us []Use, acting bool, actMask uint64) error {
	if len(us) == 0 {
		verb := "react"
		if acting {
			verb = "act"
		}
		return fmt.Errorf("edge: %s must %s with at least one member", in.pname(p), verb)
	}
	if e := in.st.edge[p]; len(us) > e {
		return fmt.Errorf("edge: %s wagers %d edge dice but holds %d: one member per die", in.pname(p), len(us), e)
	}
	size := in.parties[p].hi - in.parties[p].lo
	var seen uint32
	for _, u := range us {
		m, s := u.Member, u.Skill
		if m < 0 || m >= size {
			return fmt.Errorf("edge: %s has no member %d: members are 0..%d", in.pname(p), m, size-1)
		}
		g := in.parties[p].lo + m
		if seen&(1<<m) != 0 {
			return fmt.Errorf("edge: %s (%s) checks twice in one round: each character acts once", in.names[g], in.pname(p))
		}
		seen |= 1 << m
		if s < 0 || s >= len(in.skills) {
			return fmt.Errorf("edge: skill %d does not exist: skills are 0..%d", s, len(in.skills)-1)
		}
		if acting {
			if !in.actLegal(s) {
				return fmt.Errorf("edge: %s cannot act with %s: not a skill of a %s (want one of %v)", in.names[g], in.skills[s], in.typeName, in.typ.Skills)
			}
		} else if _, ok := in.reactMod(s, actMask); !ok {
			return fmt.Errorf("edge: %s cannot react with %s: a reaction uses the same skill, a naturally opposed one, a safe one or an appropriate one of a %s", in.names[g], in.skills[s], in.typeName)
		}
	}
	return fmt.Errorf("edge: %s's checks were refused", in.pname(p)) // not reached
}

func (in *Interaction) pname(p int) string {
	if p < 0 || p >= len(in.parties) {
		return fmt.Sprintf("party %d", p)
	}
	return fmt.Sprintf("%q", in.parties[p].name)
}

// Play resolves one round with the given declaration ("Wagering Edge Dice",
// "Resolving a Wager", "Multiple Parties"). An illegal declaration returns an
// error and changes nothing.
func (in *Interaction) Play(r *dice.Roller, d *Declaration) error {
	ps, ok := in.compileDuel(d)
	if ok && in.sink == nil {
		in.rollChecks(r, ps)
		in.settleDuel(ps)
		return nil
	}
	if !ok {
		var err error
		if ps, err = in.compile(d); err != nil {
			return err
		}
	}
	in.rollAll(r, ps)
	return nil
}

// compileDuel is compile for the commonest declaration: two active
// parties, the holder of the initiative acting against the other, which
// reacts. It lists the same checks as compile. On any other declaration, or
// anything wrong with this one, it reports false and compile lists the
// checks or says what is wrong.
func (in *Interaction) compileDuel(d *Declaration) ([]participant, bool) {
	st := &in.st
	a := &d.Action
	ap := a.Party
	if !in.duel || st.outcome.Done() || !st.started || ap != st.initiative ||
		len(a.Targets) != 1 || len(d.Reactions) != 1 || len(d.Seize) != 0 {
		return nil, false
	}
	tp := a.Targets[0]
	if uint(ap) > 1 || tp != ap^1 || d.Reactions[0].Party != tp || st.out[tp] {
		return nil, false
	}
	ps := in.parts[:cap(in.parts)]
	n, mask, ok := in.side(ps, 0, ap, a.Checks, pStaked|pActor, in.apprMask|in.safeMask, ^uint64(0))
	if !ok {
		return nil, false
	}
	// A reaction is free with the same skill, a safe one or one naturally
	// opposed to one of the actor's (the pairing is symmetric), else an
	// appropriate skill at the Unpaired modifier (reactMod).
	free := mask | in.safeMask
	for m := mask; m != 0; m &= m - 1 {
		free |= in.opp[bits.TrailingZeros64(m)&63]
	}
	k, _, ok := in.side(ps, n, tp, d.Reactions[0].Checks, pStaked, free|in.apprMask, free)
	if !ok {
		return nil, false
	}
	in.nAct, in.nStaked = n, k
	return ps[:k], true
}

// side is uses for compileDuel: it writes party p's checks us into ps
// from n on, with the given flags, if each names a distinct member of p
// and a skill in legal (checks with a skill not in free take the Unpaired
// modifier) and p holds a die for each. It returns the new end, the mask
// of skills used and whether all was well.
func (in *Interaction) side(ps []participant, n, p int, us []Use, flags uint8, legal, free uint64) (int, uint64, bool) {
	st := &in.st
	if len(us) == 0 || len(us) > st.edge[p] || len(us) > len(ps)-n {
		return n, 0, false
	}
	lo, size := in.parties[p].lo, uint(in.parties[p].hi-in.parties[p].lo)
	ns := uint(len(in.skills))
	unpaired := in.rules.Unpaired
	var seen uint32
	var mask uint64
	for i, u := range us {
		m, s := uint(u.Member), uint(u.Skill)
		if m >= size || s >= ns {
			return n, 0, false
		}
		bit, mb := uint64(1)<<(s&63), uint32(1)<<(m&31)
		if seen&mb != 0 || legal&bit == 0 {
			return n, 0, false
		}
		seen |= mb
		mask |= bit
		g := lo + int(m)
		mod := in.base(g, int(s)) + in.activeRep(g, int(s))
		if free&bit == 0 {
			mod += unpaired
		}
		f := flags
		if in.safeMask&bit != 0 {
			f |= pSafe
		}
		q := &ps[n+i]
		q.mod, q.use = int32(mod), uint16(g*int(ns)+int(s))
		q.party, q.member, q.skill, q.flags = uint8(p), uint8(g), uint8(s), f
	}
	return n + len(us), mask, true
}

// rollAll rolls every check of a prepared round and settles it.
func (in *Interaction) rollAll(r *dice.Roller, ps []participant) {
	in.rollChecks(r, ps)
	in.settle(ps)
}

// rollChecks rolls every check of a prepared round.
func (in *Interaction) rollChecks(r *dice.Roller, ps []participant) {
	if d := in.checkD; d > 0 {
		// One die (the d20) a check.
		cm := int32(in.checkMod)
		if n := len(ps); n >= 3 && n <= in.batch && r.Remaining() == 0 {
			// Three checks or more: one uniform number below d^n, its
			// base-d digits (digits), costs less than n rolls. A
			// scripted roller takes its faces die by die.
			in.digits(uint64(r.IntN(in.batchPow[n&maxBatch])), ps, cm)
		} else {
			for i := range ps {
				ps[i].score(int32(r.Roll(d)) + cm)
			}
		}
	} else {
		for i := range ps {
			ps[i].score(int32(in.roll(r)))
		}
	}
}

// digits scores the checks ps (len(ps) <= in.batch) from v, a uniform
// number below d^len(ps) for the check's d-sided die: check i rolls digit i
// of v in base d, plus one. The digits of a uniform number are uniform and
// independent. Division by d is a multiply by in.batchC, ceil(2^64/d),
// exact for v below 2^32 (Lemire, Kaser and Kurz, "Faster remainder by
// direct computation", 2019): the high word of c*v is v/d and the high
// word of (c*v mod 2^64)*d is v%d.
func (in *Interaction) digits(v uint64, ps []participant, cm int32) {
	c, d := in.batchC, uint64(in.checkD)
	for i := range ps {
		q, frac := bits.Mul64(c, v)
		f, _ := bits.Mul64(frac, d)
		ps[i].score(int32(f) + 1 + cm)
		v = q
	}
}

// nextAbove returns the index in [lo, hi) of the lowest key above k (the
// first on equal keys), or -1. It is written so the compiler can use
// conditional moves: outcomes are random, so branches would mispredict.
func nextAbove(ps []participant, k int64, lo, hi int) int {
	to, best := -1, int64(math.MaxInt64)
	for j := lo; j < hi; j++ {
		c := ps[j].key
		if c <= k {
			c = math.MaxInt64
		}
		t := to
		if c < best {
			t = j
		}
		to, best = t, min(best, c)
	}
	return to
}

// settle resolves a round of scored checks: dice pass, usage is recorded,
// the initiative moves and parties that ran out leave.
func (in *Interaction) settle(ps []participant) {
	if nA := in.nAct; in.duel && in.sink == nil && len(ps) == in.nStaked && nA > 0 && nA < len(ps) {
		in.settleDuel(ps)
		return
	}
	in.settleAll(ps)
}

// settleAll is settle for any round: with events, seizing checks,
// passive parties or more than two parties.
func (in *Interaction) settleAll(ps []participant) {
	st := &in.st
	round := st.round + 1
	if in.sink != nil {
		in.emitChecks(ps, round)
	}
	// Each wagered die passes once, to the opposing check with the next
	// higher rank (see score); dice won this round are never at risk
	// again, so every move is decided from the checks alone. Actor checks
	// oppose target checks; seizing checks stake nothing and take nothing.
	// compile lists the actor's checks first, then the targets' staked
	// checks, then the seizing ones, so each side scans only the other.
	nA, nS := in.nAct, min(in.nStaked, len(ps))
	edge := st.edge
	moved, drained := 0, false
	if nA == 1 && nS == 2 {
		// One check against one, the commonest round: only the lower
		// can pass its die, to the higher.
		i, j := 0, 1
		if ps[1].key < ps[0].key {
			i, j = 1, 0
		}
		nS = 0 // skip the general loop
		if ps[i].key != ps[j].key {
			p, q := &ps[i], &ps[j]
			edge[p.party]--
			edge[q.party]++
			drained = edge[p.party] == 0
			moved = 1
			if in.sink != nil {
				in.emitTransfer(p, q, round)
			}
		}
	}
	if nS > 0 {
		m, d := in.exchange(ps, nA, nS, round)
		moved, drained = m, d
	}
	st.transfers += moved
	// Wagered checks count for Can't Fool Me Twice. The highest single
	// result takes the initiative; on a tie for it the holder keeps it,
	// else the party earlier in the order of action.
	mem, uses := st.mem, st.uses
	best := -1
	for i := range ps {
		p := &ps[i]
		if p.flags&pPassive != 0 {
			continue
		}
		if p.flags&pStaked != 0 {
			m := &mem[p.member]
			s := int(p.skill)
			if m.last == s && m.lastRound == st.round {
				m.streak = min(m.streak+1, 100)
			} else {
				m.streak = 1
			}
			m.last, m.lastRound = s, round
			if p.flags&pSafe == 0 && int(p.use) < len(uses) && uses[p.use] < 100 {
				uses[p.use]++
			}
		}
		if best < 0 || p.total > ps[best].total ||
			(p.total == ps[best].total && p.party != ps[best].party && in.before(int(p.party), int(ps[best].party))) {
			best = i
		}
	}
	st.round = round
	if best >= 0 {
		in.setInitiative(int(ps[best].party))
	}
	if drained {
		// Only a party that lost its last die this round can leave: a
		// party holds no dice exactly when it is out (SetState checks it).
		in.eliminate()
	}
}

// settleDuel is settle for two active parties and no events, the
// commonest case, in two passes over the checks (both sides check:
// 0 < in.nAct < len(ps)). The actor's checks are
// a = ps[:nAct], the target's b = ps[nAct:]. A die passes to the opposing
// check with the next higher rank, if there is one, so how many dice a
// side loses is how many of its checks rank below the other side's best;
// which check takes each die only matters for the events. The actor holds
// the initiative, so it keeps it unless the target's best total is higher.
func (in *Interaction) settleDuel(ps []participant) {
	st := &in.st
	round := st.round + 1
	a, b := ps[:in.nAct], ps[in.nAct:]
	// la, lb: dice a and b lose. Keys are far from overflow, so the sign
	// of a difference orders them.
	ka, kb := a[0].key, b[0].key
	la, lb := int(uint64(ka-kb)>>63), int(uint64(kb-ka)>>63)
	if len(a) > 1 || len(b) > 1 {
		for i := 1; i < len(a); i++ {
			ka = max(ka, a[i].key)
		}
		for i := 1; i < len(b); i++ {
			kb = max(kb, b[i].key)
		}
		la, lb = 0, 0
		for i := range a {
			la += int(uint64(a[i].key-kb) >> 63)
		}
		for i := range b {
			lb += int(uint64(b[i].key-ka) >> 63)
		}
	}
	pa, pb := int(a[0].party), int(b[0].party)
	edge := st.edge
	ea, eb := edge[pa]+lb-la, edge[pb]+la-lb
	edge[pa], edge[pb] = ea, eb
	st.transfers += la + lb
	// Every check counts for Can't Fool Me Twice (all are staked and
	// active here): the member's run with its skill and, unless the skill
	// is safe, the skill's uses.
	mem, uses, prev := st.mem, st.uses, st.round
	for _, p := range ps {
		m := &mem[p.member]
		s := int(p.skill)
		streak := 1
		if m.last == s && m.lastRound == prev {
			streak = min(m.streak+1, 100)
		}
		m.last, m.lastRound, m.streak = s, round, streak
		if p.flags&pSafe == 0 {
			if u := &uses[p.use]; *u < 100 {
				*u++
			}
		}
	}
	st.round = round
	// A key's total is its top half, rounded (the modifier may be
	// negative). Who wins is a coin flip, so no branch: moved is 1 when
	// the target's best total is higher, and the parties are 0 and 1.
	moved := int(uint64((ka+1<<31)>>32-(kb+1<<31)>>32) >> 63)
	st.initiative = pa ^ moved
	st.changes += moved
	if ea == 0 || eb == 0 {
		in.eliminate()
	}
}

// exchange passes the dice of the staked checks ps[:nS], the actor's
// ps[:nA] against the targets' ps[nA:nS]: each to the opposing check with
// the next higher rank, if any. It returns how many moved and whether a
// party lost its last die.
func (in *Interaction) exchange(ps []participant, nA, nS, round int) (int, bool) {
	edge := in.st.edge
	moved, drained := 0, false
	for i := range nS {
		lo, hi := nA, nS
		if i >= nA {
			lo, hi = 0, nA
		}
		j := nextAbove(ps, ps[i].key, lo, hi)
		if j < 0 {
			continue
		}
		p, q := &ps[i], &ps[j]
		edge[p.party]--
		edge[q.party]++
		drained = drained || edge[p.party] == 0
		moved++
		if in.sink != nil {
			in.emitTransfer(p, q, round)
		}
	}
	return moved, drained
}

// emitChecks reports a round's checks (kept out of settle, whose loops
// run faster without the events' registers).
func (in *Interaction) emitChecks(ps []participant, round int) {
	for i := range ps {
		p := &ps[i]
		in.emit(Event{Kind: EvCheck, Round: round, Party: int(p.party), Member: int(p.member) - in.parties[p.party].lo,
			Skill: int(p.skill), Roll: int(p.total - p.mod), Mod: int(p.mod), Total: int(p.total), Staked: p.flags&pStaked != 0, To: -1, ToMember: -1})
	}
}

// emitTransfer reports a die passing from check p to check q.
func (in *Interaction) emitTransfer(p, q *participant, round int) {
	in.emit(Event{Kind: EvTransfer, Round: round, Party: int(p.party), Member: int(p.member) - in.parties[p.party].lo,
		Skill: -1, To: int(q.party), ToMember: int(q.member) - in.parties[q.party].lo, Dice: 1})
}

// before reports whether party p wins an initiative tie against q: the
// holder first, then the order of action.
func (in *Interaction) before(p, q int) bool {
	st := &in.st
	if p == st.initiative || q == st.initiative {
		return p == st.initiative
	}
	for _, o := range st.order {
		if o == p || o == q {
			return o == p
		}
	}
	return false
}

func (in *Interaction) setInitiative(p int) {
	if p != in.st.initiative {
		in.st.initiative = p
		in.st.changes++
		if in.sink != nil {
			in.emit(Event{Kind: EvInitiative, Round: in.st.round, Party: p, Member: -1, Skill: -1, To: -1, ToMember: -1})
		}
	}
}

// eliminate marks parties without edge dice as out and ends the interaction
// when only one party is left holding dice ("Winning a Dramatic
// Interaction").
func (in *Interaction) eliminate() {
	st := &in.st
	left, last, acting := 0, -1, 0
	for p := range in.parties {
		if !st.out[p] && st.edge[p] == 0 {
			st.out[p] = true
			if in.sink != nil {
				in.emit(Event{Kind: EvOut, Round: st.round, Party: p, Member: -1, Skill: -1, To: -1, ToMember: -1})
			}
		}
		if !st.out[p] {
			left++
			last = p
			if !in.parties[p].passive {
				acting++
			}
		}
	}
	switch {
	case left <= 1:
		in.finish(Outcome{End: RanOut, Winner: last, By: -1})
		return
	case acting == 0:
		// Only passive parties hold dice: nobody can act any more.
		in.finish(in.judge(RanOut, -1))
		return
	}
	if st.out[st.initiative] {
		for _, p := range st.order {
			if !st.out[p] {
				in.setInitiative(p)
				break
			}
		}
	}
}

// judge is the outcome of an interaction abandoned before anyone has all
// the dice: the party with strictly the most dice wins partially.
func (in *Interaction) judge(e End, by int) Outcome {
	st := &in.st
	o := Outcome{End: e, Winner: -1, By: by}
	most, tied := -1, false
	for p, n := range st.edge {
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

func (in *Interaction) finish(o Outcome) {
	in.st.outcome = o
	if in.sink != nil {
		in.emit(Event{Kind: EvEnd, Round: in.st.round, Party: o.Winner, Member: -1, Skill: -1, To: o.By, ToMember: -1, End: o.End})
	}
}

// Concede applies party p's choice before a round: Surrender hands all its
// dice to the party holding the initiative (or, if p holds it, to the
// party with most dice, earlier in the order on ties) and takes p out;
// WalkAway ends the interaction with the party holding most dice as partial
// winner, if the type allows it.
func (in *Interaction) Concede(p int, c Concession) error {
	st := &in.st
	switch {
	case st.outcome.Done():
		return ErrOver
	case !st.started:
		return ErrNotStarted
	case p < 0 || p >= len(in.parties):
		return fmt.Errorf("edge: party %d does not exist: parties are 0..%d", p, len(in.parties)-1)
	case st.out[p]:
		return fmt.Errorf("edge: %s is already out", in.pname(p))
	case in.parties[p].passive && c != Continue:
		return fmt.Errorf("edge: %s is passive and makes no choices", in.pname(p))
	}
	switch c {
	case Continue:
		return nil
	case Surrender:
		to := st.initiative
		if to == p || to < 0 || st.out[to] {
			to = -1
			for _, q := range in.byOrder() {
				if q != p && !st.out[q] && (to < 0 || st.edge[q] > st.edge[to]) {
					to = q
				}
			}
		}
		n := st.edge[p]
		st.edge[to] += n
		st.edge[p] = 0
		st.transfers += n
		in.emit(Event{Kind: EvConcede, Round: st.round, Party: p, Member: -1, Skill: -1, To: to, ToMember: -1, Dice: n, Concession: Surrender})
		in.eliminate()
		if st.outcome.End == RanOut {
			st.outcome.End = Surrendered
			st.outcome.By = p
		}
		return nil
	case WalkAway:
		if !in.typ.WalkAway {
			return fmt.Errorf("edge: %s cannot walk away: the GM does not allow it in a %s (rules.types[%q].walk_away)", in.pname(p), in.typeName, in.typeName)
		}
		in.emit(Event{Kind: EvConcede, Round: st.round, Party: p, Member: -1, Skill: -1, To: -1, ToMember: -1, Concession: WalkAway})
		in.finish(in.judge(WalkedAway, p))
		return nil
	}
	return fmt.Errorf("edge: unknown concession %d: want continue, surrender or walk_away", int(c))
}

// byOrder lists every party: the order of action first, then the rest
// (passive parties) in listing order. It uses scratch space.
func (in *Interaction) byOrder() []int {
	out := append(in.orderBuf[:0], in.st.order...)
	for p := range in.parties {
		if in.parties[p].passive {
			out = append(out, p)
		}
	}
	return out
}

// Abandon has group member m of party p abandon its stragglers ("Large
// Parties"): from now on its modifier is one rank lower and it no longer
// suffers that modifier as a penalty on endurance-type checks.
func (in *Interaction) Abandon(p, m int) error {
	g := in.member(p, m)
	switch {
	case in.st.outcome.Done():
		return ErrOver
	case g < 0:
		return fmt.Errorf("edge: party %d has no member %d", p, m)
	case in.size[g] <= 1:
		return fmt.Errorf("edge: %s is not a group (size %d) and has no stragglers", in.names[g], in.size[g])
	case in.st.mem[g].abandoned:
		return fmt.Errorf("edge: %s has already abandoned its stragglers", in.names[g])
	}
	in.st.mem[g].abandoned = true
	in.st.mem[g].rank = max(in.st.mem[g].rank-1, 0)
	in.emit(Event{Kind: EvAbandon, Round: in.st.round, Party: p, Member: m, Skill: -1, To: -1, ToMember: -1})
	return nil
}

// Outside makes the GM's outside-factor check f between rounds ("Outside
// Factors"): every member of the parties it names (all parties still in
// when it names none) rolls f.Skill against f.DC, wagering nothing; each who
// fails takes f.Penalty on every later check.
func (in *Interaction) Outside(r *dice.Roller, f Factor) error {
	st := &in.st
	if st.outcome.Done() {
		return ErrOver
	}
	s, ok := in.skillIdx[f.Skill]
	if !ok {
		return fmt.Errorf("edge: outside factor skill %q is not a skill of this interaction", f.Skill)
	}
	if f.Penalty > 0 || f.Penalty < -MaxModifier {
		return fmt.Errorf("edge: outside factor penalty %d: a penalty is 0 or negative", f.Penalty)
	}
	if err := checkMod("outside factor dc", f.DC); err != nil {
		return err
	}
	for _, n := range f.Parties {
		if in.partyIndex(n) < 0 {
			return fmt.Errorf("edge: outside factor names %q, which is not a party", n)
		}
	}
	for p := range in.parties {
		if st.out[p] || (len(f.Parties) > 0 && !in.named(f.Parties, p)) {
			continue
		}
		in.outside(r, p, s, f.DC, f.Penalty)
	}
	return nil
}

func (in *Interaction) named(names []string, p int) bool {
	for _, n := range names {
		if n == in.parties[p].name {
			return true
		}
	}
	return false
}

func (in *Interaction) partyIndex(name string) int {
	for p := range in.parties {
		if in.parties[p].name == name {
			return p
		}
	}
	return -1
}

func (in *Interaction) outside(r *dice.Roller, p, s, dc, pen int) {
	for g := in.parties[p].lo; g < in.parties[p].hi; g++ {
		mod := in.base(g, s)
		v := in.roll(r)
		fail := v+mod < dc
		if fail {
			// Bounded so a check's modifier always fits the exchange's ranking.
			in.st.mem[g].penalty = max(in.st.mem[g].penalty+pen, -maxPenalty)
		}
		in.emit(Event{Kind: EvOutside, Round: in.st.round, Party: p, Member: g - in.parties[p].lo, Skill: s,
			Roll: v, Mod: mod, Total: v + mod, Failed: fail, Dice: pen, To: -1, ToMember: -1})
	}
}

// Step advances the interaction by one decision point using the parties'
// policies: the starting checks if not yet made; otherwise any outside
// factors due, each party's chance to surrender or walk away, and one
// round. A policy's illegal choice returns an error naming it and leaves
// the state unchanged.
func (in *Interaction) Step(r *dice.Roller) error {
	st := &in.st
	if st.outcome.Done() {
		return ErrOver
	}
	if !st.started {
		return in.Start(r)
	}
	for p := range in.pol {
		if in.pol[p] == nil && !in.parties[p].passive {
			return fmt.Errorf("edge: %s has no policy: use SetPolicy", in.pname(p))
		}
	}
	next := st.round + 1
	if st.factored < next && len(in.factors) > 0 {
		// Outside factors change the state before the policies choose; a
		// later refusal must undo them.
		in.saved.copyFrom(st)
		if err := in.applyFactors(r, next); err != nil {
			st.copyFrom(&in.saved)
			return err
		}
		if err := in.choose(r); err != nil {
			st.copyFrom(&in.saved)
			return err
		}
		return nil
	}
	return in.choose(r)
}

// choose lets the policies concede or declare a round, and plays it.
func (in *Interaction) choose(r *dice.Roller) error {
	if conceded, err := in.concessions(); err != nil || conceded {
		return err
	}
	ps, ok := in.styleRound()
	if !ok {
		var err error
		if ps, err = in.declare(); err != nil {
			return err
		}
	}
	in.rollAll(r, ps)
	in.timeUp()
	return nil
}

// timeUp ends the interaction once it has lasted rules.max_rounds.
func (in *Interaction) timeUp() {
	st := &in.st
	if mr := in.rules.MaxRounds; mr > 0 && st.round >= mr && !st.outcome.Done() {
		in.finish(in.judge(TimeUp, -1))
	}
}

// styled reports whether Step would only ever choose through Styles: no
// outside factors, and every active party follows a Style. quiet adds that
// none of them ever concedes. Policies change only between steps, so a
// Runner asks once a trial.
func (in *Interaction) styled() (styled, quiet bool) {
	if len(in.factors) > 0 {
		return false, false
	}
	quiet = true
	for p := range in.parties {
		if in.parties[p].passive {
			continue
		}
		s, ok := in.pol[p].(*Style)
		if !ok {
			return false, false
		}
		if s.SurrenderAt > 0 || (s.WalkLead > 0 && in.typ.WalkAway) {
			quiet = false
		}
	}
	return true, quiet
}

// concessions asks each active party, in the order of action, whether it
// surrenders or walks away, and applies the first that does.
func (in *Interaction) concessions() (bool, error) {
	st := &in.st
	v := View{in}
	for _, p := range st.order {
		if st.out[p] {
			continue
		}
		var c Concession
		if sp, ok := in.pol[p].(*Style); ok {
			if sp.SurrenderAt <= 0 && sp.WalkLead <= 0 {
				continue // it never concedes
			}
			c = sp.concede(in, p)
		} else {
			c = in.pol[p].Concede(v, p)
		}
		if c != Continue {
			if err := in.Concede(p, c); err != nil {
				return false, fmt.Errorf("edge: policy of %s: %w", in.pname(p), err)
			}
			return true, nil
		}
	}
	return false, nil
}

// declare fills in.decl from the policies, validates it, lets groups about
// to make endurance-type checks abandon their stragglers, and returns the
// round's checks.
func (in *Interaction) declare() ([]participant, error) {
	st := &in.st
	v := View{in}
	d := &in.decl
	a := &d.Action
	a.Party = st.initiative
	a.Targets = a.Targets[:0]
	a.Checks = a.Checks[:0]
	if sp, ok := in.pol[a.Party].(*Style); ok {
		sp.act(in, a.Party, a)
	} else {
		in.pol[a.Party].Act(v, a.Party, a)
	}
	// Reactions are asked only of valid targets; validate catches the rest.
	d.Reactions = d.Reactions[:0]
	d.Seize = d.Seize[:0]
	var tmask uint32
	for _, t := range a.Targets {
		if t >= 0 && t < len(in.parties) {
			tmask |= 1 << t
		}
	}
	for _, t := range a.Targets {
		if t < 0 || t >= len(in.parties) || t == a.Party || in.parties[t].passive || st.out[t] || len(d.Reactions) == cap(d.Reactions) {
			continue
		}
		d.Reactions = d.Reactions[:len(d.Reactions)+1]
		rc := &d.Reactions[len(d.Reactions)-1]
		rc.Party = t
		rc.Checks = rc.Checks[:0]
		if sp, ok := in.pol[t].(*Style); ok {
			sp.react(in, t, a, rc)
		} else {
			in.pol[t].React(v, t, a, rc)
		}
	}
	for _, p := range st.order {
		if p != a.Party && tmask&(1<<p) == 0 && !st.out[p] && in.pol[p].Seize(v, p) {
			d.Seize = append(d.Seize, p)
		}
	}
	ps, err := in.compile(d)
	if err != nil {
		return nil, fmt.Errorf("edge: policies declared an illegal round: %w", err)
	}
	if in.groups && in.abandons(v, d) {
		// Abandoning changes the groups' modifiers; legality is unchanged.
		if ps, err = in.compile(d); err != nil {
			return nil, fmt.Errorf("edge: policies declared an illegal round: %w", err)
		}
	}
	return ps, nil
}

// abandons asks each group about to make an endurance-type check whether
// it abandons its stragglers first, and reports whether any did.
func (in *Interaction) abandons(v View, d *Declaration) bool {
	shed := false
	ask := func(p int, us []Use) {
		for _, u := range us {
			g := in.parties[p].lo + u.Member
			if in.size[g] > 1 && in.endurance[u.Skill] && !in.st.mem[g].abandoned && in.pol[p].Abandon(v, p, u.Member) {
				_ = in.Abandon(p, u.Member) // legal: checked above
				shed = true
			}
		}
	}
	ask(d.Action.Party, d.Action.Checks)
	for i := range d.Reactions {
		ask(d.Reactions[i].Party, d.Reactions[i].Checks)
	}
	return shed
}

// applyFactors makes the outside-factor checks due before round next.
func (in *Interaction) applyFactors(r *dice.Roller, next int) error {
	st := &in.st
	v := View{in}
	for _, f := range in.factors {
		if !f.due(next) {
			continue
		}
		for p := range in.parties {
			if st.out[p] || !f.parties[p] {
				continue
			}
			if in.endurance[f.skill] && !in.parties[p].passive {
				for g := in.parties[p].lo; g < in.parties[p].hi; g++ {
					if in.size[g] > 1 && !st.mem[g].abandoned && in.pol[p].Abandon(v, p, g-in.parties[p].lo) {
						if err := in.Abandon(p, g-in.parties[p].lo); err != nil {
							return err
						}
					}
				}
			}
			in.outside(r, p, f.skill, f.DC, f.Penalty)
		}
	}
	st.factored = next
	return nil
}

// Run steps with the policies until the interaction ends and returns the
// outcome.
func (in *Interaction) Run(r *dice.Roller) (Outcome, error) {
	for !in.st.outcome.Done() {
		if err := in.Step(r); err != nil {
			return in.st.outcome, err
		}
	}
	return in.st.outcome, nil
}
