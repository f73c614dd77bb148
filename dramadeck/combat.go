package dramadeck

import (
	"errors"
	"fmt"

	"github.com/stakesrpg/stakes/dice"
)

// Choice is what a character does with an action: an Act and its target
// (a character index on the other side; ignored for Defend).
type Choice struct {
	Act    Act `json:"act"`
	Target int `json:"target"`
}

// StartCombat begins an encounter: combat time, round 0, no outcome yet.
// Dramatic selects the D: line of the action stack rather than S:.
func (g *Game) StartCombat(dramatic bool) error {
	if g.State.Combat {
		return errors.New("already in combat")
	}
	s := &g.State
	s.Combat, s.Dramatic, s.Round, s.Outcome = true, dramatic, 0, Ongoing
	for p := range s.Players {
		s.Players[p].Pooled = 0
	}
	g.checkOutcome()
	return nil
}

func (g *Game) endCombat() {
	s := &g.State
	s.Discard = append(s.Discard, s.Stack...)
	s.Stack = s.Stack[:0]
	s.Combat, s.Retain = false, false
	g.clearFlags()
}

func (g *Game) clearFlags() {
	s := &g.State
	s.Flurry, s.Setback, s.Break = [2]bool{}, [2]bool{}, [2]bool{}
	s.Confused, s.Monologue = false, false
	s.Line = Line{}
}

// flip turns the next card onto the action stack. When the draw pile and
// discards are both empty the older action stack cards (all but the top)
// are shuffled back [ours]; with no card at all the current card stays.
func (g *Game) flip(r *dice.Roller) {
	s := &g.State
	if len(s.Draw) == 0 && len(s.Discard) == 0 && len(s.Stack) > 1 {
		top := s.Stack[len(s.Stack)-1]
		s.Draw = append(s.Draw, s.Stack[:len(s.Stack)-1]...)
		s.Stack = append(s.Stack[:0], top)
		g.Shuffle(r)
		if g.Sink != nil {
			g.emit(Event{Kind: EvReshuffle, Who: -1, Target: -1, Card: -1, Value: len(s.Draw)})
		}
	}
	c, ok := g.draw(r)
	if ok {
		s.Stack = append(s.Stack, c)
		s.Flips++
		if g.Sink != nil {
			g.emit(Event{Kind: EvFlip, Who: -1, Target: -1, Card: c})
		}
	}
	if len(s.Stack) > 0 {
		s.Line = g.Deck.Cards[s.Stack[len(s.Stack)-1]].Line(s.Dramatic)
	}
}

// applyLine sets the round's flags and applies the immediate effects of the
// current line to each side (GM Side, "Effects").
func (g *Game) applyLine() {
	s := &g.State
	for side := Heroes; side <= Villains; side++ {
		e := s.Line.Effect(side)
		// The round's flags are set with no branch on the effect, which
		// is the card's and so beyond the processor's foresight.
		s.Flurry[side] = b2u(s.Flurry[side])|b2u(e == Flurry) != 0
		s.Break[side] = b2u(s.Break[side])|b2u(e == Break) != 0
		s.Confused = b2u(s.Confused)|b2u(e == Confused)&b2u(side == Heroes) != 0
		if e == Setback {
			// A prepared event fires instead, if the GM has one.
			if s.Planned > 0 {
				s.Planned--
				if g.Sink != nil {
					g.emit(Event{Kind: EvEffect, Who: -1, Target: -1, Card: -1, Effect: Setback, Value: 1})
				}
				e = NoEffect
			} else {
				s.Setback[side] = true
			}
		}
		// Only some effects act on the characters; the others are seen
		// there only by a Sink, which hears of them character by
		// character.
		if e == NoEffect || (g.Sink == nil && !effectOnCharacters[e&15]) {
			continue // most lines leave a side alone
		}
		lo, hi := 0, len(s.Heroes)
		if side == Villains {
			lo, hi = hi, hi+len(s.Villains)
		}
		for ci := lo; ci < hi; ci++ {
			c := g.char(ci)
			if !c.Active() {
				continue
			}
			switch e {
			case Inspiration:
				c.Status.Stunned = false
				c.FP = c.MaxFP
				c.HP = max(c.HP, c.MaxHP/2)
			case Up:
				c.Status.Up++
			case Fatigued:
				g.loseFP(ci, g.Rules.FatigueFP)
			case Stymied:
				c.Status.StymiedPoss = true
			}
			if e != NoEffect {
				if g.Sink != nil {
					g.emit(Event{Kind: EvEffect, Who: -1, Target: ci, Card: -1, Effect: e})
				}
			}
		}
	}
}

// effectOnCharacters marks the line effects applyLine applies to each
// active character of the side (16 entries, so a masked Effect indexes it
// unchecked).
var effectOnCharacters = [16]bool{Inspiration: true, Up: true, Fatigued: true, Stymied: true}

func (g *Game) loseFP(ci, n int) {
	c := g.char(ci)
	c.FP -= n
	if c.FP <= 0 {
		c.Status.Out = true // collapse [ours, simplified]
		g.checkOutcome()
	}
}

// BeginRound starts a combat round: per-round bonuses lapse, and the GM
// turns a card onto the action stack (or keeps the current one after
// Seize Initiative) and applies its line.
func (g *Game) BeginRound(r *dice.Roller) error {
	s := &g.State
	if !s.Combat || s.Outcome != Ongoing {
		return errors.New("no encounter in progress (call StartCombat)")
	}
	s.Round++
	for p := range s.Players {
		pl := &s.Players[p]
		pl.Declared, pl.Moved, pl.MayMove = false, false, false
	}
	newRound(s.Heroes)
	newRound(s.Villains)
	g.clearFlags()
	if s.Retain && len(s.Stack) > 0 {
		s.Retain = false
		s.Line = g.Deck.Cards[s.Stack[len(s.Stack)-1]].Line(s.Dramatic)
	} else {
		g.flip(r)
	}
	g.applyLine()
	return nil
}

// newRound lapses the per-round bonuses of cs.
func newRound(cs []Character) {
	for i := range cs {
		st := &cs[i].Status
		st.RoundBonus, st.Up, st.Harmed = 0, 0, false
	}
}

// reflip is Seize Initiative's "flip another card immediately".
func (g *Game) reflip(r *dice.Roller) {
	g.clearFlags()
	g.flip(r)
	g.applyLine()
}

func (g *Game) finish(o Outcome) {
	if g.State.Outcome == Ongoing {
		g.State.Outcome = o
		if g.Sink != nil {
			g.emit(Event{Kind: EvOutcome, Who: -1, Target: -1, Card: -1, Value: int(o)})
		}
	}
}

// anyActive reports whether any of cs can still act.
func anyActive(cs []Character) bool {
	for i := range cs {
		if cs[i].Active() {
			return true
		}
	}
	return false
}

func (g *Game) checkOutcome() {
	s := &g.State
	if s.Outcome != Ongoing || !s.Combat {
		return
	}
	switch {
	case !anyActive(s.Villains):
		g.finish(HeroesWin)
	case !anyActive(s.Heroes):
		g.finish(VillainsWin)
	}
}

// takeBonus spends the bonuses waiting for a roll of the given kind (the
// round's, the next roll's of that kind, a Supporter's) and returns their
// sum, less one card bonus (up to cardBonus) if the character was Stymied,
// which it also spends; stymied says whether it was.
func (st *Status) takeBonus(kind RollKind, cardBonus int) (bonus int, stymied bool) {
	bonus = st.RoundBonus + st.Next[kind] + st.Support
	st.Next[kind], st.Support = 0, 0
	if bonus > 0 && st.StymiedNext {
		st.StymiedNext = false
		bonus -= min(bonus, cardBonus)
		stymied = true
	}
	return bonus, stymied
}

// skillRollOf rolls character ci against base with every pending bonus and
// re-roll: Action (all actions this round), Adrenalin/Willpower/Presence
// (next roll of the kind), Supporter; Stymied (margin) cancels one bonus
// card; then Second Chance (best of LuckRolls), Up, Drama/Hero and
// Possibilities (pol decides) re-roll a failure, keeping the better.
// c is character ci (skillRoll looks it up).
func (g *Game) skillRollOf(r *dice.Roller, ci int, c *Character, kind RollKind, base int, pol Policy) outcome {
	st := &c.Status
	eff := base
	// Most rolls have no bonus: all of them zero (which needs no index)
	// skips the block, which changes nothing when those it reads are zero.
	if st.RoundBonus|st.Next[0]|st.Next[1]|st.Next[2]|st.Support != 0 {
		bonus, stymied := st.takeBonus(kind, g.Rules.Bonus)
		if stymied && g.Sink != nil {
			g.emit(Event{Kind: EvEffect, Who: -1, Target: ci, Card: -1, Effect: Stymied})
		}
		eff += bonus
	}
	res := g.successRoll(r, eff)
	if g.Sink != nil {
		g.emit(Event{Kind: EvRoll, Who: ci, Target: -1, Card: -1, Roll: res.Roll, Value: eff, Success: res.Success})
	}
	if res.Success {
		if res.Critical {
			st.Crit = true
		}
		return res
	}
	if st.Luck|st.Up|st.CardPoss|c.Possibilities == 0 {
		return res // nothing to re-roll with (reroll would only look)
	}
	return g.reroll(r, ci, c, eff, res, pol)
}

// skillRoll is skillRollOf for character ci.
func (g *Game) skillRoll(r *dice.Roller, ci int, kind RollKind, base int, pol Policy) outcome {
	return g.skillRollOf(r, ci, g.char(ci), kind, base, pol)
}

// reroll is skillRollOf after a failure: Second Chance, then Up, Drama/Hero
// and Possibilities, each re-rolling and keeping the better result.
func (g *Game) reroll(r *dice.Roller, ci int, c *Character, eff int, res outcome, pol Policy) outcome {
	st := &c.Status
	if st.Luck > 0 {
		st.Luck--
		for i := 1; i < g.Rules.LuckRolls; i++ {
			if x := g.successRoll(r, eff); better(x, res) {
				res = x
			}
		}
		if g.Sink != nil {
			g.emit(Event{Kind: EvReroll, Who: ci, Target: -1, Card: -1, Roll: res.Roll, Value: eff, Success: res.Success})
		}
	}
	for !res.Success {
		cancellable := true
		switch {
		case st.Up > 0:
			st.Up-- // Up cannot be countered
			cancellable = false
		case st.CardPoss > 0:
			st.CardPoss--
		case c.Possibilities > 0 && pol != nil && pol.Spend(g, ci, res.result()):
			c.Possibilities--
		default:
			return res
		}
		if cancellable && (st.StymiedPoss || st.StymiedNext) {
			if st.StymiedPoss {
				st.StymiedPoss = false
			} else {
				st.StymiedNext = false
			}
			if g.Sink != nil {
				g.emit(Event{Kind: EvEffect, Who: -1, Target: ci, Card: -1, Effect: Stymied})
			}
			continue
		}
		if x := g.successRoll(r, eff); better(x, res) {
			res = x
		}
		if g.Sink != nil {
			g.emit(Event{Kind: EvReroll, Who: ci, Target: -1, Card: -1, Roll: res.Roll, Value: eff, Success: res.Success})
		}
	}
	if res.Critical {
		st.Crit = true
	}
	return res
}

func level(s Skill, unskilled bool) int {
	if unskilled {
		return s.Default
	}
	return s.Level
}

// contestSkills gives the actor's skill, the target's resistance and the
// roll kind for card purposes (GM Side, "Approved Actions").
func contestSkills(a Act, c, t *Character, unskilled bool) (int, int, RollKind) {
	switch a {
	case Trick:
		return level(c.Trick, unskilled), t.IQ, Intellectual
	case Test:
		return c.Will, t.Will, Intellectual
	case Taunt:
		return level(c.Influence, unskilled), t.Will, Interpersonal
	case Intimidate:
		return level(c.Intimidation, unskilled), t.Will, Interpersonal
	}
	return level(c.Maneuver, unskilled), t.Maneuver.Level, Physical
}

// harmful reports whether an act would harm the opponents (barred by Setback).
func harmful(a Act) bool { return a != Defend }

// CheckChoice reports why character ci may not take choice now, or nil.
func (g *Game) CheckChoice(ci int, ch Choice) error {
	if c, _ := g.legal(ci, ch); c != nil {
		return nil
	}
	return g.choiceError(ci, ch)
}

// legal is CheckChoice's verdict in one pass over its rules (combat acts
// are Attack..AllOutAttack): the actor and the target (nil for Defend) if
// the choice is legal, else a nil actor. choiceError finds the first broken
// rule for the message.
func (g *Game) legal(ci int, ch Choice) (c, t *Character) {
	s := &g.State
	nh := len(s.Heroes)
	n := nh + len(s.Villains)
	if uint(ci) >= uint(n) || !s.Combat || s.Outcome != Ongoing || s.Monologue || ch.Act-Attack > AllOutAttack-Attack {
		return nil, nil
	}
	side := Heroes
	if ci < nh {
		c = &s.Heroes[ci]
	} else {
		c, side = &s.Villains[ci-nh], Villains
	}
	if !c.Active() {
		return nil, nil
	}
	if ch.Act == Defend {
		return c, nil
	}
	ti := ch.Target
	if uint(ti) >= uint(n) || (ti >= nh) == (side == Villains) || s.Setback[side] {
		return nil, nil
	}
	if ti < nh {
		t = &s.Heroes[ti]
	} else {
		t = &s.Villains[ti-nh]
	}
	if !t.Active() {
		return nil, nil
	}
	return c, t
}

// choiceError is CheckChoice's rules in order, for the message.
func (g *Game) choiceError(ci int, ch Choice) error {
	s := &g.State
	nh := len(s.Heroes)
	n := nh + len(s.Villains)
	if uint(ci) >= uint(n) {
		return g.checkChar(ci)
	}
	c := g.char(ci)
	switch {
	case !s.Combat || s.Outcome != Ongoing:
		return errors.New("no encounter in progress")
	case !c.Active():
		return fmt.Errorf("character %d (%s) is out of the fight", ci, c.Name)
	case s.Monologue:
		return errors.New("a Monologue is under way: nobody else may act this round")
	}
	switch ch.Act {
	case Attack, AllOutAttack, Defend, Trick, Test, Taunt, Intimidate, Maneuver:
	default:
		return fmt.Errorf("%v is not a combat action (Attack, All-Out Attack, Defend, Trick, Test, Taunt, Intimidate, Maneuver)", ch.Act)
	}
	side := g.side(ci)
	if harmful(ch.Act) && s.Setback[side] {
		return fmt.Errorf("the %v suffer Setback: no action that would harm the opponents this round (Defend)", side)
	}
	if ch.Act == Defend {
		return nil
	}
	if uint(ch.Target) >= uint(n) {
		return g.checkChar(ch.Target)
	}
	if (ch.Target >= nh) == (ci >= nh) || !g.char(ch.Target).Active() {
		return fmt.Errorf("target %d is not an active opponent", ch.Target)
	}
	return nil
}

// Act resolves one action by character ci. pol is the acting side's policy
// (Possibility spends, the GM's card removal, Player's Call).
func (g *Game) Act(r *dice.Roller, ci int, ch Choice, pol Policy) error {
	g.syncCriticals()
	return g.act(r, ci, ch, pol)
}

// act is Act for PlayRound, which syncs the success-roll table once for
// the whole round.
func (g *Game) act(r *dice.Roller, ci int, ch Choice, pol Policy) error {
	c, t := g.legal(ci, ch)
	if c == nil {
		return g.choiceError(ci, ch)
	}
	if pol == nil {
		return errors.New("Act needs a policy")
	}
	return g.actOn(r, ci, c, t, ch, pol)
}

// actOn is act after its checks: c is character ci, t the target (nil for
// Defend).
func (g *Game) actOn(r *dice.Roller, ci int, c, t *Character, ch Choice, pol Policy) error {
	s := &g.State
	st := &c.Status
	st.Posture = NoAct // a posture lasts until the character acts again
	if g.Sink != nil {
		g.emit(Event{Kind: EvAction, Who: ci, Target: ch.Target, Card: -1, Act: ch.Act})
	}
	hero := ci < len(s.Heroes)
	if st.Stunned || st.LoseAction {
		st.Stunned, st.LoseAction = false, false
		g.afterAction(ci, st, false)
		return nil
	}
	unskilled := st.Unskilled
	st.Unskilled = false
	success, harmed := false, false
	var err error
	switch ch.Act {
	case Defend:
		st.Posture = Defend
		success = true // All-Out Defence is taken, not rolled [ours]
	case Attack, AllOutAttack:
		success, harmed = g.attack(r, ci, c, t, ch, unskilled, pol)
	default:
		success, harmed, err = g.contest(r, ci, c, t, ch, unskilled, pol)
		if err != nil {
			return err
		}
	}
	if success && s.Outcome == Ongoing && len(s.Stack) > 0 {
		card := &g.Deck.Cards[s.Stack[len(s.Stack)-1]]
		if hero && card.Approves(ch.Act) {
			g.drawTo(r, ci, EvDraw)
		}
		if !hero && ch.Act != Defend && s.Line.VillainAction == ch.Act.base() && ch.Target < len(s.Heroes) {
			if err := g.strip(ch.Target, pol); err != nil {
				return err
			}
		}
	}
	if hero && ch.Act != Defend && !s.Players[ci].Moved {
		s.Players[ci].MayMove = true
	}
	g.afterAction(ci, st, harmed)
	return nil
}

// strip is the GM's removal of a card from player p's pool after a
// villain's success at the line's villain action (none if the pool is
// empty); pol picks the card.
func (g *Game) strip(p int, pol Policy) error {
	s := &g.State
	pool := s.Players[p].Pool
	if len(pool) == 0 {
		return nil
	}
	i := pol.Strip(g, p)
	if i < 0 || i >= len(pool) {
		return fmt.Errorf("policy %s: strip index %d, pool of player %d has 0..%d", pol.Name(), i, p, len(pool)-1)
	}
	id := pool[i]
	s.Players[p].Pool = remove(pool, i)
	s.Discard = append(s.Discard, id)
	if g.Sink != nil {
		g.emit(Event{Kind: EvStrip, Who: p, Target: -1, Card: id})
	}
	return nil
}

// afterAction closes character ci's action; st is its Status.
func (g *Game) afterAction(ci int, st *Status, harmed bool) {
	st.Harmed = st.Harmed || harmed
	st.StymiedNext = false // lapses at the end of the next action
	if st.Broken {
		g.broken(ci, harmed)
	}
}

// broken resolves the margin table's Break after character ci's action.
func (g *Game) broken(ci int, harmed bool) {
	st := &g.char(ci).Status
	st.Broken = false
	if !harmed {
		st.Fled = true
		if g.Sink != nil {
			g.emit(Event{Kind: EvEffect, Who: -1, Target: ci, Card: -1, Effect: Break})
		}
		g.checkOutcome()
	}
}

// defense is the skill t defends with against an attack: its Defense, the
// Defend posture's bonus, halved below a third of its FP (GURPS: a tired
// fighter's Dodge is halved).
func (g *Game) defense(t *Character) int {
	def := t.Defense
	if t.Status.Posture == Defend {
		def += g.Rules.DefendBonus
	}
	if t.FP*3 < t.MaxFP {
		def /= 2
	}
	return def
}

// attack resolves an Attack or All-Out Attack by character ci (c) on t.
func (g *Game) attack(r *dice.Roller, ci int, c, t *Character, ch Choice, unskilled bool, pol Policy) (success, harmed bool) {
	base := level(c.Attack, unskilled)
	if ch.Act == AllOutAttack {
		base += g.Rules.AllOutAttackBonus
		c.Status.Posture = AllOutAttack
	}
	res := g.skillRollOf(r, ci, c, Physical, base, pol)
	hit := res.Success
	if hit && !res.Critical && t.Status.Posture != AllOutAttack {
		def := g.defense(t)
		d := g.successRoll(r, def)
		if g.Sink != nil {
			g.emit(Event{Kind: EvRoll, Who: ch.Target, Target: ci, Card: -1, Roll: d.Roll, Value: def, Success: d.Success})
		}
		hit = !d.Success
	}
	// A hit that would reach the damage roll is a success; Opponent Fails
	// turns it into a failure.
	if hit && t.Status.Fails > 0 {
		t.Status.Fails--
		hit = false
		if g.Sink != nil {
			g.emit(Event{Kind: EvEffect, Who: ci, Target: ch.Target, Card: -1, Effect: NoEffect, Value: int(OpponentFails)})
		}
	}
	if !hit {
		return false, false
	}
	dmg := c.Damage.Add + g.rollD6(r, c.Damage.Dice)
	if c.Status.Coup > 0 {
		dmg += dmg * g.Rules.CoupPercent * c.Status.Coup / 100
		c.Status.Coup = 0
	}
	dmg = max(dmg-t.DR, 0)
	t.HP -= dmg
	if g.Sink != nil {
		g.emit(Event{Kind: EvDamage, Who: ci, Target: ch.Target, Card: -1, Value: dmg})
	}
	switch {
	case t.HP <= 0:
		t.Status.Out = true
		g.checkOutcome()
	case dmg*2 > t.MaxHP:
		t.Status.Stunned = true // a major wound stuns [ours, simplified]
	}
	return true, dmg > 0
}

func (g *Game) contest(r *dice.Roller, ci int, c, t *Character, ch Choice, unskilled bool, pol Policy) (success, harmed bool, err error) {
	sk, resist, kind := contestSkills(ch.Act, c, t, unskilled)
	a := g.skillRollOf(r, ci, c, kind, sk, pol)
	d := g.successRoll(r, resist)
	if g.Sink != nil {
		g.emit(Event{Kind: EvRoll, Who: ch.Target, Target: ci, Card: -1, Roll: d.Roll, Value: resist, Success: d.Success})
	}
	w, mov := QuickContest(a.result(), d.result())
	if w == 0 && t.Status.Fails > 0 {
		t.Status.Fails--
		w = -1
	}
	if g.Sink != nil {
		g.emit(Event{Kind: EvContest, Who: ci, Target: ch.Target, Card: -1, Act: ch.Act, Value: mov, Success: w == 0})
	}
	if w != 0 {
		return false, false, nil
	}
	band, ok := g.Rules.Margins.Lookup(ch.Act, mov)
	if !ok {
		return true, false, nil
	}
	for _, e := range band.Target {
		if e == PlayersCall {
			e = pol.Call(g, ci, ch.Target, ch.Act)
			if !e.marginResult() || e == PlayersCall {
				return false, false, fmt.Errorf("policy %s: Player's Call gave %v (allowed: Stymied, Unskilled, Setback, Break, Fatigued, Up)", pol.Name(), e)
			}
			if e == Up {
				g.inflict(ci, Up)
				continue
			}
		}
		g.inflict(ch.Target, e)
	}
	for _, e := range band.Actor {
		g.inflict(ci, e)
	}
	return true, true, nil
}

// inflict applies a margin-table result to character ci.
func (g *Game) inflict(ci int, e Effect) {
	st := &g.char(ci).Status
	switch e {
	case Stymied:
		st.StymiedNext = true
	case Unskilled:
		st.Unskilled = true
	case Setback:
		st.LoseAction = true
	case Break:
		st.Broken = true
	case Up:
		st.Up++
	case Fatigued:
		g.loseFP(ci, g.Rules.FatigueFP)
	}
	if g.Sink != nil {
		g.emit(Event{Kind: EvEffect, Who: -1, Target: ci, Card: -1, Effect: e})
	}
}

// EndRound resolves Break (characters of the broken side, normally the
// villains, who took HP damage and did no harm this round flee or concede) and checks for the end of the encounter.
func (g *Game) EndRound() {
	s := &g.State
	if s.Flurry[Heroes] || s.Flurry[Villains] {
		s.FlurryRounds++
	}
	if s.Break[Heroes] {
		g.breakSide(s.Heroes, 0)
	}
	if s.Break[Villains] {
		g.breakSide(s.Villains, len(s.Heroes))
	}
	g.checkOutcome()
}

// breakSide: the side's characters (cs[i] is character off+i) who were
// hurt and did no harm this round flee.
func (g *Game) breakSide(cs []Character, off int) {
	for i := range cs {
		c := &cs[i]
		if c.Active() && c.HP < c.MaxHP && !c.Status.Harmed {
			c.Status.Fled = true
			if g.Sink != nil {
				g.emit(Event{Kind: EvEffect, Who: -1, Target: off + i, Card: -1, Effect: Break})
			}
		}
	}
}

// sideOrder returns side's characters by decreasing Speed, equal speeds in
// index order. Speeds seldom change, so each side's order is kept with the
// speeds it was sorted by, and sorted again only when they differ from the
// state's (a length or any speed: one pass, no unpredictable branches).
func (g *Game) sideOrder(side Side) []int {
	s := &g.State
	cs, off := s.Heroes, 0
	if side == Villains {
		cs, off = s.Villains, len(s.Heroes)
	}
	side &= 1
	o, sp := g.order[side], g.speeds[side]
	if len(o) == len(cs) && len(sp) == len(cs) && off == g.orderOff[side] {
		same := true
		sp := sp[:len(cs)]
		for i := range cs {
			same = same && cs[i].Speed == sp[i]
		}
		if same {
			return o
		}
	}
	o, sp = o[:0], sp[:0]
	for i := range cs {
		sp = append(sp, cs[i].Speed)
		o = append(o, i+off)
		for k := len(o) - 1; k > 0 && cs[o[k]-off].Speed > cs[o[k-1]-off].Speed; k-- {
			o[k], o[k-1] = o[k-1], o[k]
		}
	}
	g.order[side], g.speeds[side], g.orderOff[side] = o, sp, off
	return o
}

// turn lets character ci act by its policy, then offers the player the
// move of a card from hand to pool.
func (g *Game) turn(r *dice.Roller, ci int, pol Policy) error {
	if sp, ok := pol.(*Style); ok {
		return g.styleTurn(r, ci, sp)
	}
	if !g.char(ci).Active() || g.State.Outcome != Ongoing {
		return nil
	}
	if err := g.act(r, ci, pol.Choose(g, ci), pol); err != nil {
		return fmt.Errorf("policy %s: %w", pol.Name(), err)
	}
	return g.offerMove(ci, pol)
}

// styleTurn is turn for the registry's policies: act(r, ci, sp.Choose(g,
// ci), sp), where choose hands over the characters it picked, so the
// checks of legal are made on those (the actor and target active, on
// opposite sides, no Setback for a harmful act) rather than after a second
// lookup, with the full check and its message if any fails.
func (g *Game) styleTurn(r *dice.Roller, ci int, sp *Style) error {
	s := &g.State
	if !g.char(ci).Active() || s.Outcome != Ongoing {
		return nil
	}
	ch, c, t := sp.choose(g, ci)
	ok := c != nil && s.Combat && !s.Monologue
	if ch.Act != Defend {
		// Choose attacks or contests only an opponent: t is character
		// ch.Target, on the other side.
		ok = ok && ch.Act-Attack <= AllOutAttack-Attack && t != nil && t.Active() && !s.Setback[g.side(ci)]
	}
	var err error
	if ok {
		err = g.actOn(r, ci, c, t, ch, sp)
	} else {
		err = g.act(r, ci, ch, sp)
	}
	if err != nil {
		return fmt.Errorf("policy %s: %w", sp.Name(), err)
	}
	if ci < len(s.Heroes) && s.Players[ci].MayMove {
		if id := sp.Move(g, ci); id >= 0 {
			if err := g.MoveToPool(ci, id); err != nil {
				return fmt.Errorf("policy %s: %w", sp.Name(), err)
			}
		}
	}
	return nil
}

// offerMove offers the player of character ci, if a hero who may, the
// move of a card from hand to pool.
func (g *Game) offerMove(ci int, pol Policy) error {
	if ci < len(g.State.Heroes) && g.State.Players[ci].MayMove {
		if id := pol.Move(g, ci); id >= 0 {
			if err := g.MoveToPool(ci, id); err != nil {
				return fmt.Errorf("policy %s: %w", pol.Name(), err)
			}
		}
	}
	return nil
}

// PlayRound plays one whole combat round: the flip, every player's
// declaration (or Critical Moment), Haste actions, then each side in the
// line's order (twice for a Flurry side) by decreasing Speed, then EndRound.
func (g *Game) PlayRound(r *dice.Roller, heroes, gm Policy) error {
	// Dice are drawn ahead for this round only (see keptDice).
	g.kd.x, g.kd.n, g.kd.on = 0, 0, true
	err := g.playRound(r, heroes, gm)
	g.kd.x, g.kd.n, g.kd.on = 0, 0, false
	return err
}

func (g *Game) playRound(r *dice.Roller, heroes, gm Policy) error {
	if heroes == nil || gm == nil {
		return errors.New("PlayRound needs a hero policy and a GM policy")
	}
	if err := g.BeginRound(r); err != nil {
		return err
	}
	g.syncCriticals()
	s := &g.State
	hsp, _ := heroes.(*Style)
	for p := range s.Players {
		if !s.Heroes[p].Active() || s.Outcome != Ongoing {
			continue
		}
		if hsp != nil && hsp.declaresNothing(g, p) {
			// Critical and Declare would return nothing: as below.
			if !s.Confused {
				s.Players[p].Declared = true
			}
			continue
		}
		move := heroes.Critical(g, p, g.moveBuf[:0])
		plays := heroes.Declare(g, p, g.playBuf[:0], move)
		if cap(move) > cap(g.moveBuf) || cap(plays) > cap(g.playBuf) {
			g.moveBuf, g.playBuf = move[:0], plays[:0] // a policy grew them
		}
		var err error
		switch {
		case len(move) > 0:
			err = g.CriticalMoment(r, p, move, plays)
		case len(plays) > 0:
			err = g.Declare(r, p, plays)
		case !s.Confused:
			// Declare with nothing to play: its checks (a player, in
			// combat, not yet declared this round) hold here.
			s.Players[p].Declared = true
		}
		if err != nil {
			return fmt.Errorf("policy %s: %w", heroes.Name(), err)
		}
	}
	for p := range s.Players {
		for s.Heroes[p].Status.Extra > 0 && !s.Monologue {
			s.Heroes[p].Status.Extra--
			if err := g.turn(r, p, heroes); err != nil {
				return err
			}
		}
		s.Heroes[p].Status.Extra = 0
	}
	if !s.Monologue {
		first := s.Line.First
		for _, side := range [2]Side{first, first.Other()} {
			pol := heroes
			if side == Villains {
				pol = gm
			}
			passes := 1
			if s.Flurry[side] {
				passes = 2
			}
			sp, _ := pol.(*Style)
			for range passes {
				if sp != nil && g.Sink == nil && g.kd.log == nil {
					if err := g.quietPass(r, side, sp); err != nil {
						return err
					}
					continue
				}
				for _, ci := range g.sideOrder(side) {
					var err error
					if sp != nil {
						err = g.styleTurn(r, ci, sp)
					} else {
						err = g.turn(r, ci, pol)
					}
					if err != nil {
						return err
					}
				}
			}
		}
	}
	g.EndRound()
	return nil
}

// RunEncounter plays rounds until the encounter ends or maxRounds pass
// (TimedOut). Call StartCombat first.
func (g *Game) RunEncounter(r *dice.Roller, heroes, gm Policy, maxRounds int) (Outcome, error) {
	if maxRounds < 1 {
		return Ongoing, fmt.Errorf("max rounds %d, must be >= 1", maxRounds)
	}
	for g.State.Outcome == Ongoing {
		if g.State.Round >= maxRounds {
			g.finish(TimedOut)
			break
		}
		if err := g.PlayRound(r, heroes, gm); err != nil {
			return Ongoing, err
		}
	}
	return g.State.Outcome, nil
}
