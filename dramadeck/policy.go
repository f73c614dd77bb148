package dramadeck

import (
	"slices"

	"github.com/stakesrpg/stakes/named"
)

// View is what a policy is shown when asked for a decision: the whole
// state, to read and never to change, and Who is asked: a player (his
// hero is the character of the same number), a character (Choose, Spend,
// Call), or the player whose pool the GM strips (Strip). The engine
// refills one View for each question; a policy must not keep it.
type View struct {
	*State
	Who int
	// Resisting: Spend is asked about a defence or a resistance roll,
	// not the character's own action.
	Resisting bool
}

// Policy makes every choice the Drama Deck leaves to a player or the GM.
// The engine checks what a policy returns and fails with an error on an
// illegal choice rather than fixing it.
type Policy interface {
	Name() string
	// Critical returns hand cards to move to the pool for a Critical
	// Moment this round (appended to buf), or none.
	Critical(v *View, buf []int) []int
	// Declare appends the pool cards player v.Who plays this round; moved
	// are the cards a Critical Moment is bringing into the pool.
	Declare(v *View, buf []Play, moved []int) []Play
	// Trade proposes player v.Who's one-for-one swap of pool cards with
	// another player before he declares (in combat cards are traded
	// between pools), or Swap{With: -1} for none.
	Trade(v *View) Swap
	// Haste picks a Haste card in player v.Who's pool to play now, as
	// character next's action comes up, or -1 for none: the hero takes
	// his extra action at once, before next's (Immediate Effects: Haste
	// can be played during someone else's action).
	Haste(v *View, next int) int
	// Move picks a hand card to move to the pool, or -1 for none.
	Move(v *View) int
	// Choose picks character v.Who's action.
	Choose(v *View) Choice
	// Spend reports whether v.Who spends a Possibility to re-roll failure r.
	Spend(v *View, r Result) bool
	// Cancel reports whether character v.Who spends a waiting Opponent
	// Fails on this success of actor's action a against him.
	Cancel(v *View, actor int, a Act) bool
	// Strip picks which card (index in the pool) the GM removes from
	// player v.Who's pool after a villain's approved success, or -1.
	Strip(v *View) int
	// Call picks the result of actor v.Who's Player's Call on target.
	Call(v *View, target int, a Act) Effect
	// Discard picks a hand index to discard at the end of a scene; when
	// must is false (exactly four cards) -1 keeps them all.
	Discard(v *View, must bool) int
	// Steps picks how many task steps to attempt at once (1..v.Avail).
	Steps(v *TaskView) int
	// Switch answers a Critical Problem: true switches to the other skill,
	// false starts the task again.
	Switch(v *TaskView) bool
	// LastDitch reports whether to make the last-ditch effort.
	LastDitch(v *TaskView) bool
	// SideRoll reports whether to make the task's extra approved action,
	// the roll that may draw a card, when the bar shows neither the next
	// step nor a special case (the text: the player "may").
	SideRoll(v *TaskView) bool
}

// Style is the configurable Policy the registry's policies are built from.
type Style struct {
	// Label is the registry name.
	Label string
	// PlayCards: activate pool cards and move cards to the pool.
	PlayCards bool
	// KeepDrama: hold Drama cards for their end-of-adventure worth.
	KeepDrama bool
	// Critical: declare a Critical Moment once two combat cards are in hand.
	CriticalMoment bool
	// SpendPossibilities on failed rolls of the character's actions, and
	// with SpendOnDefence on failed defences and resistances too.
	SpendPossibilities bool
	SpendOnDefence     bool
	// AllOut attacks in the All-Out Attack posture.
	AllOut bool
	// DefendBelow: Defend when own HP falls below this fraction (percent).
	DefendBelow int
	// Contests: use an approved Trick/Test/Taunt/Intimidate/Maneuver when
	// the skill is at least the attack skill.
	Contests bool
	// MultiStep: attempt every task step shown at once; otherwise one at a
	// time unless the rounds left are fewer than the steps left.
	MultiStep bool
}

// styles are the shipped policies.
var styles = named.Registry[Policy]{Kind: "policy", Make: map[string]func() Policy{
	"default": func() Policy {
		return &Style{Label: "default", PlayCards: true, KeepDrama: true, CriticalMoment: true, SpendPossibilities: true, Contests: true, MultiStep: true}
	},
	"passive": func() Policy { return &Style{Label: "passive"} },
	"aggressive": func() Policy {
		return &Style{Label: "aggressive", PlayCards: true, CriticalMoment: true, SpendPossibilities: true, AllOut: true, MultiStep: true}
	},
	"cautious": func() Policy {
		return &Style{Label: "cautious", PlayCards: true, KeepDrama: true, SpendPossibilities: true, SpendOnDefence: true, DefendBelow: 34, Contests: true}
	},
}}

// PolicyNames lists the shipped policies' names, sorted.
func PolicyNames() []string { return styles.Names() }

// PolicyByName returns a fresh shipped policy: "default" (plays its
// cards, saves Drama, Critical Moment when it can, spends Possibilities,
// uses approved contests it is good at, attempts task steps together),
// "passive" (plays no cards, spends nothing, attacks, one step at a time),
// "aggressive" (All-Out Attacks, plays everything, Drama included) or
// "cautious" (defends when hurt, spends Possibilities on defence too, one
// step at a time).
func PolicyByName(name string) (Policy, error) { return styles.ByName(name) }

// Name returns the registry name.
func (s *Style) Name() string { return s.Label }

// value ranks hand cards for moving to the pool (high first) and, reversed,
// for discarding.
func (s *Style) value(n Name) int { return cardValue(n, s.KeepDrama) }

// cardValue is the ranking behind Style.value.
func cardValue(n Name, keepDrama bool) int {
	switch n {
	case Escape:
		return 20
	case Action, CoupDeGrace:
		return 15
	case Adrenalin, SecondChance:
		return 14
	case OpponentFails, Haste, Hero:
		return 12
	case Supporter, Rally, MasterPlan, SeizeInitiative:
		return 10
	case Drama:
		if keepDrama {
			return 1
		}
		return 12
	case Martyr, MistakenIdentity, Nemesis, PersonalStake, Romance, Suspicion, TrueIdentity:
		return 9
	case Glory, Monologue:
		return 8
	case Leadership, Campaign:
		return 7
	case Willpower, Presence:
		return 6
	}
	return 3
}

// Critical declares a Critical Moment once two combat cards (Action,
// Adrenalin, Coup de Grace, Second Chance) are in hand.
func (s *Style) Critical(v *View, buf []int) []int {
	p := v.Who
	st := v.State
	if !s.CriticalMoment || st.Players[p].CriticalAct == st.Act || st.Confused {
		return buf
	}
	start := len(buf)
	for _, id := range st.Players[p].Hand {
		if combatCard(st.Deck.Cards[id].Name) {
			buf = append(buf, id)
		}
	}
	if len(buf)-start < 2 {
		return buf[:start] // one combat card is not worth the Act's moment
	}
	return buf
}

// combatCard reports the cards Style.Critical pours into the pool.
func combatCard(n Name) bool {
	switch n {
	case Action, Adrenalin, CoupDeGrace, SecondChance:
		return true
	}
	return false
}

// Declare plays the pool cards that help this round: bonuses, re-rolls,
// Supporter on a friend, Rally when a hand is short, Monologue or
// Escape when badly hurt, Seize Initiative (flip when the line is bad).
// moved are the hand cards a Critical Moment brings into the pool.
func (s *Style) Declare(v *View, buf []Play, moved []int) []Play {
	p := v.Who
	st := v.State
	if !s.PlayCards || st.Confused {
		return buf
	}
	var kinds rollKinds
	for _, pile := range [2][]int{st.Players[p].Pool, moved} {
		for _, id := range pile {
			if id < 0 || id >= len(st.Deck.Cards) {
				continue // not a card: the engine refuses such a move
			}
			if pl := (Play{Card: id}); s.declareCard(st, p, &pl, len(moved) > 0, &kinds) && checkUsedOnce(buf, &pl) == nil {
				buf = append(buf, pl)
			}
		}
	}
	return buf
}

// declareCard decides whether to play pool card pl.Card this round, and
// how, filling in pl; critical: a Critical Moment is under way.
func (s *Style) declareCard(st *State, p int, pl *Play, critical bool, kinds *rollKinds) bool {
	switch n := st.Deck.Cards[pl.Card].Name; n {
	case Adrenalin, Willpower, Presence:
		return s.aimBonus(st, p, pl, bonusKind(n), critical, kinds)
	case Action, CoupDeGrace, SecondChance, OpponentFails, Hero,
		Alertness, Connection, Idea:
		// Bonuses wait on the hero's Status for the roll they help.
		return true
	case Drama, Supporter, Glory, MasterPlan, Rally, Monologue, Escape, SeizeInitiative:
		return s.declareCheck(st, p, pl, n, critical)
	case Leadership, Campaign, Martyr:
		return s.declareSubplot(st, p, pl, n, critical)
	}
	return false
}

// bonusKind is the kind of roll Adrenalin, Willpower or Presence helps.
func bonusKind(n Name) RollKind {
	switch n {
	case Willpower:
		return Intellectual
	case Presence:
		return Interpersonal
	}
	return Physical
}

// aimBonus plays a next-roll bonus of kind on a hero whose action this
// round rolls that kind, as this style will choose it: the player's own
// hero first, else another (the card is aimed, Play.Target); a Critical
// Moment's cards all go to the player's own. With no such hero the card
// waits in the pool: a Willpower on a hero who only fights would wait on
// his Status, unused, until the scene ends.
func (s *Style) aimBonus(st *State, p int, pl *Play, kind RollKind, critical bool, kinds *rollKinds) bool {
	if kind != Physical && !s.mayRoll(st, kind) {
		return false // no hero's action this round can roll it
	}
	if k, ok := kinds.of(s, st, p); ok && k == kind {
		return true
	}
	if critical {
		return false
	}
	for h := range st.Heroes {
		if k, ok := kinds.of(s, st, h); h != p && ok && k == kind {
			pl.Target = OnHero(h)
			return true
		}
	}
	return false
}

// mayRoll reports whether an action this style may choose this round
// could roll kind, other than physical: a contest the card approves of
// that kind, or work on a task of that kind.
func (s *Style) mayRoll(st *State, kind RollKind) bool {
	a0, a1 := s.contests(st, Heroes)
	for _, a := range [2]Act{a0, a1} {
		if a != NoAct && a != Attack && a != Defend && a != Maneuver && contestKind(a) == kind {
			return true
		}
	}
	for i := range st.Tasks {
		if ts := &st.Tasks[i]; !ts.Finished && !ts.Failed && ts.Task.Kind == kind {
			return true
		}
	}
	return false
}

// contestKind is the kind of roll contest a makes (contestSkills).
func contestKind(a Act) RollKind {
	switch a {
	case Trick, Test:
		return Intellectual
	case Taunt, Intimidate:
		return Interpersonal
	}
	return Physical
}

// rollKinds holds, for one declaration, each hero's rollKind once asked
// (0: not yet; 1 + kind; -1: no roll), so that several bonus cards in a
// pool ask each hero's choice once.
type rollKinds [MaxHeroes]int8

// of is rollKind for hero h, asked once per declaration.
func (ks *rollKinds) of(s *Style, st *State, h int) (RollKind, bool) {
	if h >= len(ks) {
		return s.rollKind(st, h)
	}
	if ks[h] == 0 {
		ks[h] = -1
		if k, ok := s.rollKind(st, h); ok {
			ks[h] = 1 + int8(k)
		}
	}
	return RollKind(ks[h] - 1), ks[h] > 0
}

// rollKind is the kind of roll hero h's action makes this round as this
// style chooses it now, and whether it makes one.
func (s *Style) rollKind(st *State, h int) (RollKind, bool) {
	if !st.Heroes[h].Active() {
		return 0, false
	}
	v := View{State: st, Who: h}
	switch ch := s.Choose(&v); ch.Act {
	case Attack, AllOutAttack, Maneuver:
		return Physical, true
	case Defend:
		return Physical, st.Rules.DefendRolls
	case Trick, Test:
		return Intellectual, true
	case Taunt, Intimidate:
		return Interpersonal, true
	case Work:
		return st.Tasks[ch.Target].Task.Kind, true
	}
	return 0, false
}

// declareSubplot decides on Leadership (pass the best hand cards to the
// player shortest of cards, as many as he is short of the hand size and
// the card allows, then refill), Campaign (make a subplot in play
// permanent) and Martyr (a badly hurt hero on an outnumbered side buys
// the victory with his life).
func (s *Style) declareSubplot(st *State, p int, pl *Play, n Name, critical bool) bool {
	me := &st.Players[p]
	switch n {
	case Leadership:
		q := -1
		for o := range st.Players {
			if o != p && st.Heroes[o].Active() && len(st.Players[o].Hand) < st.Rules.HandSize &&
				(q < 0 || len(st.Players[o].Hand) < len(st.Players[q].Hand)) {
				q = o
			}
		}
		if q < 0 || critical {
			return false
		}
		short := min(st.Rules.HandSize-len(st.Players[q].Hand), st.Rules.MaxLeadership, len(pl.Cards))
		pl.N, pl.ToPlayer, pl.Why = s.bestInHand(st, me.Hand, &pl.Cards, short), q, "you need them more than I do"
		return pl.N > 0
	case Campaign:
		for _, id := range me.Pool {
			if st.Deck.Cards[id].Name.Kind() == Subplot && st.Deck.Cards[id].Name != Martyr && !slices.Contains(me.Permanent, id) {
				pl.Cards, pl.N = [2]int{id}, 1
				return true
			}
		}
	case Martyr:
		hero := &st.Heroes[p]
		return hero.HP*3 < hero.MaxHP && countActive(st.Villains) > countActive(st.Heroes)
	}
	return false
}

// bestInHand fills cards with the (at most n) most valuable cards of
// hand, the best first, and returns how many it took.
func (s *Style) bestInHand(st *State, hand []int, cards *[2]int, n int) int {
	took := 0
	for took < n {
		best := -1
		for _, id := range hand {
			if (took == 0 || id != cards[0]) && (best < 0 || s.value(st.Deck.Cards[id].Name) > s.value(st.Deck.Cards[best].Name)) {
				best = id
			}
		}
		if best < 0 {
			break
		}
		cards[took] = best
		took++
	}
	return took
}

// countActive counts the characters of cs still in the fight.
func countActive(cs []Character) int {
	n := 0
	for i := range cs {
		if cs[i].Active() {
			n++
		}
	}
	return n
}

// declareCheck decides on a card whose play depends on the situation,
// filling in its play; critical: a Critical Moment is under way.
func (s *Style) declareCheck(st *State, p int, pl *Play, n Name, critical bool) bool {
	me := &st.Heroes[p]
	switch n {
	case Drama:
		return !s.KeepDrama
	case Supporter:
		t := -1
		for h := range st.Heroes {
			if h != p && st.Heroes[h].Active() {
				t = h
			}
		}
		pl.Target = OnHero(t)
		return t >= 0 && !critical
	case Glory:
		return me.Status.Crit
	case MasterPlan:
		return len(st.Discard) > 0
	case Rally:
		for q := range st.Players {
			if len(st.Players[q].Hand) < st.Rules.HandSize {
				return true
			}
		}
		return false
	case Monologue, Escape:
		return me.HP*3 < me.MaxHP
	case SeizeInitiative:
		if len(st.Stack) == 0 {
			return false // no card turned yet to keep or replace
		}
		good := st.Line.First == Heroes && st.Line.Hero != Setback && st.Line.Hero != Confused && st.Line.Hero != Fatigued
		pl.Flip = !good
		return true
	}
	return false
}

// Haste keeps Haste out of the declarations and plays it as an
// opponent's action comes up: the hero acts first, perhaps taking that
// opponent out before it can act.
func (s *Style) Haste(v *View, next int) int {
	if !s.PlayCards || v.side(next) == Heroes {
		return -1
	}
	for _, id := range v.Players[v.Who].Pool {
		if v.Deck.Cards[id].Name == Haste {
			return id
		}
	}
	return -1
}

// Move picks the most valuable hand card for the pool (Escape only first),
// any but a Drama card it keeps: Idea, Alertness and Connection too, whose
// moment comes out of combat, since a pool card is played, not held.
func (s *Style) Move(v *View) int {
	p := v.Who
	st := v.State
	if !s.PlayCards {
		return -1
	}
	me := &st.Players[p]
	best, bv := -1, 0
	for _, id := range me.Hand {
		if !st.poolable(p, id) {
			continue // Escape only as the encounter begins, nothing else then
		}
		if val := s.value(st.Deck.Cards[id].Name); val > bv {
			best, bv = id, val
		}
	}
	if bv < 3 {
		return -1 // only a Drama card kept for its worth
	}
	return best
}

// Choose works on the hero's Dramatic Skill Resolution while it goes on
// (the bomb does not wait for the fight); otherwise it defends under
// Setback or when hurt past DefendBelow, else attacks the weakest
// opponent, or uses an approved contest it is good at.
func (s *Style) Choose(v *View) Choice {
	ci := v.Who
	st := v.State
	if ci < 0 || ci >= len(st.Heroes)+len(st.Villains) {
		return Choice{Act: Defend} // no such character: the engine reports it
	}
	if i := st.openTask(ci); i >= 0 {
		return Choice{Act: Work, Target: i}
	}
	c, side := st.char(ci), st.side(ci)
	opp, off := st.Villains, len(st.Heroes)
	if side == Villains {
		opp, off = st.Heroes, 0
	}
	if st.Setback[side] || (s.DefendBelow > 0 && c.HP*100 < c.MaxHP*s.DefendBelow) {
		return Choice{Act: Defend}
	}
	t := weakest(opp)
	if t < 0 {
		return Choice{Act: Defend}
	}
	ch := Choice{Act: Attack, Target: t + off}
	if s.AllOut {
		ch.Act = AllOutAttack
	}
	if a := s.contest(st, side, c, &opp[t]); a != NoAct {
		ch.Act = a
	}
	return ch
}

// contest is the approved contest c of side takes against tc instead of
// an attack, or NoAct. The card's contests are weighed only when c
// outclasses tc at some contest (outclasses): most characters never do,
// and then no contest the card approves is worth taking.
func (s *Style) contest(st *State, side Side, c, tc *Character) Act {
	if !outclasses(c, tc) {
		return NoAct
	}
	a0, a1 := s.contests(st, side)
	return s.contestOf(a0, a1, c, tc)
}

// outclasses reports whether c's best contest skill (Trick, Will,
// Influence, Intimidation, Maneuver) is four or more above t's weakest
// resistance (IQ, Will, Maneuver): the least a contest worth taking
// needs (contestBetter), whichever contest it is.
func outclasses(c, t *Character) bool {
	best := max(c.Trick.Level, c.Will, c.Influence.Level, c.Intimidation.Level, c.Maneuver.Level)
	return best-min(t.IQ, t.Will, t.Maneuver.Level) >= 4
}

// contests are the contests open to side, in order of preference, when
// Contests (NoAct where none): for heroes the card's approved actions, for
// villains the line's villain action. They change only with the card.
func (s *Style) contests(st *State, side Side) (a0, a1 Act) {
	if !s.Contests || len(st.Stack) == 0 {
		return NoAct, NoAct
	}
	a0, a1 = st.Line.VillainAction, NoAct
	if side == Heroes {
		card := &st.Deck.Cards[st.Stack[len(st.Stack)-1]]
		a0, a1 = card.Approved[0], card.Approved[1]
	}
	return a0, a1
}

// contestOf is the first of a0, a1 that is a contest worth taking by c
// against tc, or NoAct.
func (s *Style) contestOf(a0, a1 Act, c, tc *Character) Act {
	if a0.Contest() && s.contestBetter(a0, c, tc) {
		return a0
	}
	if a1.Contest() && s.contestBetter(a1, c, tc) {
		return a1
	}
	return NoAct
}

// contestBetter: contest a is worth taking against t, four or more above
// the resistance and no worse than the attack skill.
func (s *Style) contestBetter(a Act, c, t *Character) bool {
	sk, resist, _ := contestSkills(a, c, t, false)
	return sk-resist >= 4 && sk >= c.Attack.Level
}

// Cancel spends Opponent Fails on any success that would hurt: every
// attack that hits, every contest but a Maneuver won against a fresh
// character.
func (s *Style) Cancel(v *View, actor int, a Act) bool {
	t := v.char(v.Who)
	return a != Maneuver || t.FP*2 < t.MaxFP
}

// Spend spends Possibilities on every failure of an action when
// SpendPossibilities, and of a defence or resistance when SpendOnDefence.
func (s *Style) Spend(v *View, r Result) bool {
	return s.SpendPossibilities && (!v.Resisting || s.SpendOnDefence)
}

// Strip removes the most valuable card that is not a subplot, or none
// (-1) when the pool holds only subplots.
func (s *Style) Strip(v *View) int {
	target := v.Who
	st := v.State
	pool := st.Players[target].Pool
	best, bv := -1, -1
	for i, id := range pool {
		n := st.Deck.Cards[id].Name
		if n.Kind() == Subplot {
			continue
		}
		if v := s.value(n); v > bv {
			best, bv = i, v
		}
	}
	return best
}

// Call breaks a wounded target, else sets it back.
func (s *Style) Call(v *View, target int, a Act) Effect {
	if t := v.char(target); t.HP < t.MaxHP {
		return Break
	}
	return Setback
}

// Discard drops the least valuable card; at exactly four, only a weak one.
func (s *Style) Discard(v *View, must bool) int {
	p := v.Who
	st := v.State
	hand := st.Players[p].Hand
	worst, wv := -1, 1<<30
	for i, id := range hand {
		if val := s.value(st.Deck.Cards[id].Name); val < wv {
			worst, wv = i, val
		}
	}
	if !must && wv > 3 {
		return -1
	}
	return worst
}

// Steps attempts every shown step with MultiStep, else one unless time is short.
func (s *Style) Steps(v *TaskView) int {
	if s.MultiStep || v.RoundsLeft < v.Steps-v.Done {
		return v.Avail
	}
	return 1
}

// Switch changes skill when steps are done or the other skill is no worse.
func (s *Style) Switch(v *TaskView) bool { return v.Done > 0 || v.Alternate >= v.Skill }

// Trade swaps a bonus card in p's pool that another hero would use better
// (Adrenalin for the best attacker, Willpower for the best at Trick or
// Will, Presence for the best at Influence or Intimidation) for one in
// that hero's pool that p's hero would use best.
func (s *Style) Trade(v *View) Swap {
	p := v.Who
	st := v.State
	if !s.PlayCards {
		return Swap{With: -1}
	}
	for _, give := range st.Players[p].Pool {
		u := bestUser(st, st.Deck.Cards[give].Name)
		if u < 0 || u == p {
			continue
		}
		for _, take := range st.Players[u].Pool {
			if bestUser(st, st.Deck.Cards[take].Name) == p {
				return Swap{With: u, Give: give, Take: take}
			}
		}
	}
	return Swap{With: -1}
}

// bestUser is the active hero who rolls best with bonus card n, or -1
// for a card that is not a bonus to one kind of roll.
func bestUser(st *State, n Name) int {
	skill := func(c *Character) int {
		switch n {
		case Adrenalin:
			return c.Attack.Level
		case Willpower:
			return max(c.Trick.Level, c.Will)
		case Presence:
			return max(c.Influence.Level, c.Intimidation.Level)
		}
		return 0
	}
	if n != Adrenalin && n != Willpower && n != Presence {
		return -1
	}
	best := -1
	for h := range st.Heroes {
		c := &st.Heroes[h]
		if c.Active() && (best < 0 || skill(c) > skill(&st.Heroes[best])) {
			best = h
		}
	}
	return best
}

// SideRoll takes the extra approved action whenever PlayCards: the card
// it may draw is worth having.
func (s *Style) SideRoll(v *TaskView) bool { return s.PlayCards }

// LastDitch always makes the last-ditch effort.
func (s *Style) LastDitch(v *TaskView) bool { return true }

// weakest is the index of the weakest active character of opp (the first
// of equals), or -1 if none is active.
func weakest(opp []Character) int {
	t, hp := -1, 0
	for i := range opp {
		if c := &opp[i]; c.Active() && (t < 0 || c.HP < hp) {
			t, hp = i, c.HP
		}
	}
	return t
}
