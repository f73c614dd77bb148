package dramadeck

import (
	"fmt"
	"math"
)

// Policy makes every choice the Drama Deck leaves to a player or the GM.
// The engine checks what a policy returns and fails with an error on an
// illegal choice rather than fixing it.
type Policy interface {
	Name() string
	// Critical returns hand cards to move to the pool for a Critical
	// Moment this round (appended to buf), or none.
	Critical(g *Game, p int, buf []int) []int
	// Declare appends the pool cards player p plays this round; moved are
	// the cards a Critical Moment is bringing into the pool.
	Declare(g *Game, p int, buf []Play, moved []int) []Play
	// Move picks a hand card to move to the pool, or -1.
	Move(g *Game, p int) int
	// Choose picks character ci's action.
	Choose(g *Game, ci int) Choice
	// Spend reports whether ci spends a Possibility to re-roll failure r.
	Spend(g *Game, ci int, r Result) bool
	// Strip picks which card (index in the pool) the GM removes from
	// player target's pool after a villain's approved success.
	Strip(g *Game, target int) int
	// Call picks the result of a Player's Call.
	Call(g *Game, actor, target int, a Act) Effect
	// Discard picks a hand index to discard at the end of a scene; when
	// must is false (exactly four cards) -1 keeps them all.
	Discard(g *Game, p int, must bool) int
	// Steps picks how many task steps to attempt at once (1..v.Avail).
	Steps(v TaskView) int
	// Switch answers a Critical Problem: true switches to the other skill,
	// false starts the task again.
	Switch(v TaskView) bool
	// LastDitch reports whether to make the last-ditch effort.
	LastDitch(v TaskView) bool
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
	// SpendPossibilities on failed rolls.
	SpendPossibilities bool
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

var registry = []Style{
	{Label: "default", PlayCards: true, KeepDrama: true, CriticalMoment: true, SpendPossibilities: true, Contests: true, MultiStep: true, DefendBelow: 0},
	{Label: "passive"},
	{Label: "aggressive", PlayCards: true, CriticalMoment: true, SpendPossibilities: true, AllOut: true, MultiStep: true},
	{Label: "cautious", PlayCards: true, KeepDrama: true, SpendPossibilities: true, DefendBelow: 34, Contests: true},
}

// Policies lists the registered policy names.
func Policies() []string {
	out := make([]string, len(registry))
	for i, s := range registry {
		out[i] = s.Label
	}
	return out
}

// PolicyByName returns a registered policy: "default" (plays combat cards,
// saves Drama, Critical Moment when it can, spends Possibilities, uses
// approved contests it is good at, attempts task steps together),
// "passive" (plays no cards, spends nothing, attacks, one step at a time),
// "aggressive" (All-Out Attacks, plays everything) or "cautious" (defends
// when hurt, one step at a time).
func PolicyByName(name string) (Policy, error) {
	for i := range registry {
		if registry[i].Label == name {
			s := registry[i]
			return &s, nil
		}
	}
	return nil, fmt.Errorf("unknown policy %q (known: %v)", name, Policies())
}

// Name returns the registry name.
func (s *Style) Name() string { return s.Label }

// value ranks hand cards for moving to the pool (high first) and, reversed,
// for discarding. It reads a table made from cardValue, since a switch over
// card names compiles to a jump the processor mispredicts on every new card.
func (s *Style) value(n Name) int {
	if n >= numNames {
		return cardValue(n, s.KeepDrama)
	}
	if s.KeepDrama {
		return valueKeep[n]
	}
	return valueSpend[n]
}

// valueKeep and valueSpend are cardValue for every name, holding Drama
// cards or not.
var valueKeep, valueSpend = func() (k, sp [numNames]int) {
	for n := range numNames {
		k[n], sp[n] = cardValue(n, true), cardValue(n, false)
	}
	return k, sp
}()

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
	case Willpower, Presence:
		return 6
	}
	return 3
}

// Critical declares a Critical Moment once two combat cards (Action,
// Adrenalin, Coup de Grace, Second Chance) are in hand.
func (s *Style) Critical(g *Game, p int, buf []int) []int {
	hand := g.State.Players[p].Hand
	if !s.CriticalMoment || len(hand) < 2 || g.State.Players[p].CriticalAct == g.State.Act || g.State.Confused {
		return buf
	}
	// Count first, by table and without a branch: most hands hold fewer
	// than two, and which cards they hold is the deal's.
	n := 0
	for _, id := range hand {
		n += int(combatCard[g.Deck.Cards[id].Name])
	}
	if n < 2 {
		return buf[:0]
	}
	for _, id := range hand {
		if combatCard[g.Deck.Cards[id].Name] != 0 {
			buf = append(buf, id)
		}
	}
	return buf
}

// combatCard is 1 for the cards Style.Critical pours into the pool (by
// name; 256 entries, so a Name indexes it unchecked).
var combatCard = func() (t [256]uint8) {
	for _, n := range []Name{Action, Adrenalin, CoupDeGrace, SecondChance} {
		t[n] = 1
	}
	return t
}()

// Declare plays the pool cards that help this round: bonuses, re-rolls,
// Haste, Supporter on a friend, Rally when a hand is short, Monologue or
// Escape when badly hurt, Seize Initiative (flip when the line is bad).
func (s *Style) Declare(g *Game, p int, buf []Play, moved []int) []Play {
	st := &g.State
	if !s.PlayCards || st.Confused {
		return buf
	}
	cards, pool := g.Deck.Cards, st.Players[p].Pool
	// Most pools hold only cards that stay there (Willpower, Presence,
	// subplots): a branch-free look through the table says so before the
	// loop that decides on each.
	play := uint8(0)
	for _, id := range pool {
		play |= declarable[cards[id].Name]
	}
	for _, id := range moved {
		play |= declarable[cards[id].Name]
	}
	if play == 0 {
		return buf
	}
	for k := range len(pool) + len(moved) {
		id := 0
		if k < len(pool) {
			id = pool[k]
		} else {
			id = moved[k-len(pool)]
		}
		// Most cards stay in the pool (Willpower, Presence, subplots);
		// the table says so without a look at the state.
		n := cards[id].Name
		if n >= numNames || declareKind[n] == declNever {
			continue
		}
		pl := Play{Card: id, Target: -1}
		if declareKind[n] == declCheck {
			var ok bool
			if pl, ok = s.declareCheck(g, p, pl, n, len(moved) > 0); !ok {
				continue
			}
		}
		buf = append(buf, pl)
	}
	return buf
}

// declaresNothing reports that Critical and Declare both return nothing
// for player p this round, as they do for most players in most rounds:
// their quick refusals and table looks in one call, with no buffer (a
// false answer leaves the question to them).
func (s *Style) declaresNothing(g *Game, p int) bool {
	st := &g.State
	if st.Confused {
		return true
	}
	pl, cards := &st.Players[p], g.Deck.Cards
	if s.PlayCards {
		play := uint8(0)
		for _, id := range pl.Pool {
			play |= declarable[cards[id].Name]
		}
		if play != 0 {
			return false
		}
	}
	if s.CriticalMoment && len(pl.Hand) >= 2 && pl.CriticalAct != st.Act {
		n := 0
		for _, id := range pl.Hand {
			n += int(combatCard[cards[id].Name])
		}
		return n < 2
	}
	return true
}

// declareCheck decides on a card whose play depends on the situation,
// filling in its play; critical: a Critical Moment is under way.
func (s *Style) declareCheck(g *Game, p int, pl Play, n Name, critical bool) (Play, bool) {
	st := &g.State
	me := &st.Heroes[p]
	switch n {
	case Drama:
		return pl, !s.KeepDrama
	case Supporter:
		t := -1
		for h := range st.Heroes {
			if h != p && st.Heroes[h].Active() {
				t = h
			}
		}
		pl.Target = t
		return pl, t >= 0 && !critical
	case Glory:
		return pl, me.Status.Crit
	case MasterPlan:
		return pl, len(st.Discard) > 0
	case Rally:
		for q := range st.Players {
			if len(st.Players[q].Hand) < g.Rules.HandSize {
				return pl, true
			}
		}
		return pl, false
	case Monologue, Escape:
		return pl, me.HP*3 < me.MaxHP
	case SeizeInitiative:
		good := st.Line.First == Heroes && st.Line.Hero != Setback && st.Line.Hero != Confused && st.Line.Hero != Fatigued
		pl.Flip = !good
		return pl, true
	}
	return pl, false
}

// How Style.Declare treats a card in the pool: never play it, always play
// it, or look at the situation (declareKind by name; a table rather than a
// switch, which compiles to a jump mispredicted on nearly every card).
const (
	declNever uint8 = iota
	declAlways
	declCheck
)

// declarable is 1 for a name Style.Declare may play (declareKind not
// declNever), by name with 256 entries so a Name indexes it unchecked.
var declarable = func() (t [256]uint8) {
	for n := range numNames {
		if declareKind[n] != declNever {
			t[n] = 1
		}
	}
	return t
}()

var declareKind = func() (k [numNames]uint8) {
	for _, n := range []Name{Action, Adrenalin, CoupDeGrace, SecondChance, OpponentFails, Hero, Haste, Alertness, Connection, Idea} {
		k[n] = declAlways
	}
	for _, n := range []Name{Drama, Supporter, Glory, MasterPlan, Rally, Monologue, Escape, SeizeInitiative} {
		k[n] = declCheck
	}
	return k
}()

// Move picks the most valuable hand card for the pool (Escape only first).
func (s *Style) Move(g *Game, p int) int {
	if !s.PlayCards {
		return -1
	}
	me := &g.State.Players[p]
	vals, cards := &valueSpend, g.Deck.Cards
	if s.KeepDrama {
		vals = &valueKeep
	}
	// Escape counts for nothing once a card has gone to the pool (Pooled).
	noEscape := me.Pooled > 0
	best, bv := -1, 0
	for _, id := range me.Hand {
		n := cards[id].Name
		v := 0
		if n < numNames {
			v = vals[n]
		} else {
			v = s.value(n)
		}
		v &^= -int(b2u(n == Escape && noEscape))
		// The best card so far selects by a mask, not a branch: which
		// card wins depends on the deal.
		m := -int(b2u(v > bv))
		best ^= (best ^ id) & m
		bv = max(bv, v)
	}
	if bv < 5 {
		return -1
	}
	return best
}

// Choose defends under Setback or when hurt past DefendBelow; otherwise it
// attacks the weakest opponent, or uses an approved contest it is good at.
func (s *Style) Choose(g *Game, ci int) Choice {
	ch, _, _ := s.choose(g, ci)
	return ch
}

// choose is Choose with the characters it picked: the actor (nil only for
// no such character) and the target (nil for Defend).
func (s *Style) choose(g *Game, ci int) (Choice, *Character, *Character) {
	st := &g.State
	nh := len(st.Heroes)
	if uint(ci) >= uint(nh+len(st.Villains)) {
		return Choice{Act: Defend}, nil, nil // no such character: the engine reports it
	}
	c, opp, off, side := (*Character)(nil), st.Villains, nh, Heroes
	if ci < nh {
		c = &st.Heroes[ci]
	} else {
		c, opp, off, side = &st.Villains[ci-nh], st.Heroes, 0, Villains
	}
	if st.Setback[side] || (s.DefendBelow > 0 && c.HP*100 < c.MaxHP*s.DefendBelow) {
		return Choice{Act: Defend}, c, nil
	}
	t := weakest(opp)
	if t < 0 {
		return Choice{Act: Defend}, c, nil
	}
	ch := Choice{Act: Attack, Target: t + off}
	if s.AllOut {
		ch.Act = AllOutAttack
	}
	tc := &opp[t]
	if a := s.contest(g, side, c, tc); a != NoAct {
		ch.Act = a
	}
	return ch, c, tc
}

// weakest is the index of the weakest active character of opp (the first
// of equals), or -1 if none is active.
func weakest(opp []Character) int {
	// Who is weakest changes with every wound, so the comparison selects
	// by a mask rather than a branch (which the compiler made of an if,
	// and the processor mispredicted).
	t, thp := -1, math.MaxInt
	for i := range opp {
		if x := &opp[i]; x.Active() {
			hp := x.HP
			m := -int(b2u(hp < thp)) // all ones when x is weaker
			t ^= (t ^ i) & m
			thp = min(thp, hp)
		}
	}
	if t < 0 {
		// None active, or every active one at math.MaxInt HP.
		t = firstActive(opp)
	}
	return t
}

// contest is the approved contest c of side takes against tc instead of
// an attack, or NoAct.
func (s *Style) contest(g *Game, side Side, c, tc *Character) Act {
	a0, a1 := s.contests(g, side)
	return s.contestOf(a0, a1, c, tc)
}

// contests are the contests open to side, in order of preference, when
// Contests (NoAct where none): for heroes the card's approved actions, for
// villains the line's villain action. They change only with the card.
func (s *Style) contests(g *Game, side Side) (a0, a1 Act) {
	st := &g.State
	if !s.Contests || len(st.Stack) == 0 {
		return NoAct, NoAct
	}
	a0, a1 = st.Line.VillainAction, NoAct
	if side == Heroes {
		card := &g.Deck.Cards[st.Stack[len(st.Stack)-1]]
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

// firstActive returns the index of the first active character of cs, or -1.
func firstActive(cs []Character) int {
	for i := range cs {
		if cs[i].Active() {
			return i
		}
	}
	return -1
}

// contestBetter: contest a is worth taking against t, four or more above
// the resistance and no worse than the attack skill.
// The skills are contestSkills' for a skilled actor, written out (no call,
// no Unskilled test).
func (s *Style) contestBetter(a Act, c, t *Character) bool {
	var sk, resist int
	switch a {
	case Trick:
		sk, resist = c.Trick.Level, t.IQ
	case Test:
		sk, resist = c.Will, t.Will
	case Taunt:
		sk, resist = c.Influence.Level, t.Will
	case Intimidate:
		sk, resist = c.Intimidation.Level, t.Will
	default:
		sk, resist = c.Maneuver.Level, t.Maneuver.Level
	}
	return sk-resist >= 4 && sk >= c.Attack.Level
}

// Spend spends Possibilities on every failure when SpendPossibilities.
func (s *Style) Spend(g *Game, ci int, r Result) bool { return s.SpendPossibilities }

// Strip removes the most valuable non-subplot card.
func (s *Style) Strip(g *Game, target int) int {
	pool := g.State.Players[target].Pool
	best, bv := 0, -1
	for i, id := range pool {
		n := g.Deck.Cards[id].Name
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
func (s *Style) Call(g *Game, actor, target int, a Act) Effect {
	if t := g.char(target); t.HP < t.MaxHP {
		return Break
	}
	return Setback
}

// Discard drops the least valuable card; at exactly four, only a weak one.
func (s *Style) Discard(g *Game, p int, must bool) int {
	hand := g.State.Players[p].Hand
	worst, wv := -1, 1<<30
	for i, id := range hand {
		if v := s.value(g.Deck.Cards[id].Name); v < wv {
			worst, wv = i, v
		}
	}
	if !must && wv > 3 {
		return -1
	}
	return worst
}

// Steps attempts every shown step with MultiStep, else one unless time is short.
func (s *Style) Steps(v TaskView) int {
	if s.MultiStep || v.RoundsLeft < v.Steps-v.Done {
		return v.Avail
	}
	return 1
}

// Switch changes skill when steps are done or the other skill is no worse.
func (s *Style) Switch(v TaskView) bool { return v.Done > 0 || v.Alternate >= v.Skill }

// LastDitch always makes the last-ditch effort.
func (s *Style) LastDitch(v TaskView) bool { return true }
