package dramadeck

import (
	"errors"

	"github.com/stakesrpg/stakes/dice"
)

// Choice is what a character does with an action: an Act and its target
// (a character index on the other side; ignored for Defend).
type Choice struct {
	Act    Act `json:"act"`
	Target int `json:"target"`
}

// StartCombat is Engine.StartCombat on g.State.
func (g *game) StartCombat(dramatic bool) error {
	if g.State.Combat {
		return errors.New("already in combat")
	}
	s := g.State
	s.Combat, s.Dramatic, s.Round, s.Outcome = true, dramatic, 0, Ongoing
	for p := range s.Players {
		pl := &s.Players[p]
		pl.Pooled, pl.Moved = 0, false
		pl.MayMove = s.holds(pl.Hand, Escape)
	}
	g.checkOutcome()
	return nil
}

func (g *game) endCombat() {
	s := g.State
	s.Discard = append(s.Discard, s.Stack...)
	s.Stack = s.Stack[:0]
	s.Combat, s.Retain = false, false
	s.Phase, s.Queue = Between, s.Queue[:0]
	g.clearFlags()
}

func (g *game) clearFlags() {
	s := g.State
	s.Flurry, s.Setback, s.Break = [2]bool{}, [2]bool{}, [2]bool{}
	s.Confused, s.Monologue = false, false
	s.Line = Line{}
}

// flip turns the next card onto the action stack. When the draw pile and
// discards are both empty the older action stack cards (all but the top)
// are shuffled back [ours]; with no card at all the current card stays.
func (g *game) flip(r *dice.Roller) {
	s := g.State
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
		s.Line = g.State.Deck.Cards[s.Stack[len(s.Stack)-1]].Line(s.Dramatic)
	}
}

// applyLine sets the round's flags and applies the immediate effects of the
// current line to each side (GM Side, "Effects").
func (g *game) applyLine() {
	s := g.State
	for side := Heroes; side <= Villains; side++ {
		e := s.Line.Effect(side)
		switch e {
		case Flurry:
			s.Flurry[side] = true
		case Break:
			s.Break[side] = true
		case Confused:
			// Confused players may not activate pool cards: only the
			// heroes hold pools.
			s.Confused = s.Confused || side == Heroes
		case Setback:
			// A prepared event fires instead, if the GM has one.
			if s.Planned > 0 {
				s.Planned--
				if g.Sink != nil {
					g.emit(Event{Kind: EvEffect, Who: -1, Target: -1, Card: -1, Effect: Setback, Value: 1})
				}
			} else {
				s.Setback[side] = true
			}
			continue
		case NoEffect:
			continue
		}
		lo, hi := 0, len(s.Heroes)
		if side == Villains {
			lo, hi = hi, hi+len(s.Villains)
		}
		for ci := lo; ci < hi; ci++ {
			c := g.char(ci)
			if !c.Active() && !(e == Inspiration && g.revives(c)) {
				continue
			}
			switch e {
			case Inspiration:
				c.Status.Stunned = false
				c.FP = c.MaxFP
				c.HP = max(c.HP, c.MaxHP/2)
				c.Status.Out = c.HP <= 0 // back in the fight if out of it (revives)
			case Up:
				c.Status.Up++
			case Fatigued:
				g.loseFP(ci, g.State.Rules.FatigueFP)
			case Stymied:
				c.Status.StymiedPoss = true
			}
			if g.Sink != nil {
				g.emit(Event{Kind: EvEffect, Who: -1, Target: ci, Card: -1, Effect: e})
			}
		}
	}
}

// revives reports whether Inspiration brings c back into the fight:
// with Rules.InspirationRevives, one out of it (not fled, not dead).
func (g *game) revives(c *Character) bool {
	return g.State.Rules.InspirationRevives && c.Status.Out && !c.Status.Fled && !c.Status.Dead
}

func (g *game) loseFP(ci, n int) {
	c := g.char(ci)
	c.FP -= n
	if c.FP <= g.State.Rules.CollapseFP {
		c.Status.Out = true // collapse (Rules.CollapseFP)
		g.checkOutcome()
	}
}

// reflip is Seize Initiative's "flip another card immediately".
func (g *game) reflip(r *dice.Roller) {
	// The new line replaces the old line's effects, not the round's
	// declarations: a Monologue already declared still holds.
	mono := g.State.Monologue
	g.clearFlags()
	g.State.Monologue = mono
	g.flip(r)
	g.applyLine()
}

func (g *game) finish(o Outcome) {
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

func (g *game) checkOutcome() {
	s := g.State
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
// round's Action bonus if the roll is an action, the next roll's of that
// kind, a Supporter's) and returns their sum, less one card bonus (up to
// cardBonus) if the character was Stymied, which it also spends; stymied
// says whether it was.
func (st *Status) takeBonus(kind RollKind, action bool, cardBonus int) (bonus int, stymied bool) {
	bonus = st.Next[kind] + st.Support
	if action {
		bonus += st.RoundBonus
	}
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
func (g *game) skillRollOf(r *dice.Roller, ci int, c *Character, kind RollKind, base int, pol Policy) Result {
	st := &c.Status
	eff := base
	bonus, stymied := st.takeBonus(kind, true, g.State.Rules.Bonus)
	if stymied && g.Sink != nil {
		g.emit(Event{Kind: EvEffect, Who: -1, Target: ci, Card: -1, Effect: Stymied})
	}
	eff += bonus
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
	if !c.mayReroll() {
		return res
	}
	return g.reroll(r, ci, c, eff, res, pol, false)
}

// resistRoll is character ti's defence or resistance against actor ci's
// action, at skill base: with Rules.DefenceTakesCards the cards waiting on
// ti's Status help it as they help any roll of its kind (Adrenalin,
// Willpower, Presence, Supporter; Second Chance, Up, Drama and Hero
// re-roll a failure), though not the round's Action bonus, which is for
// actions; a Possibility too if its side's policy other (nil: none)
// spends one.
func (g *game) resistRoll(r *dice.Roller, ti, ci int, kind RollKind, base int, other Policy) Result {
	if !g.State.Rules.DefenceTakesCards {
		d := g.successRoll(r, base)
		if g.Sink != nil {
			g.emit(Event{Kind: EvRoll, Who: ti, Target: ci, Card: -1, Roll: d.Roll, Value: base, Success: d.Success})
		}
		return d
	}
	t := g.char(ti)
	bonus, stymied := t.Status.takeBonus(kind, false, g.State.Rules.Bonus)
	if stymied && g.Sink != nil {
		g.emit(Event{Kind: EvEffect, Who: -1, Target: ti, Card: -1, Effect: Stymied})
	}
	eff := base + bonus
	d := g.successRoll(r, eff)
	if g.Sink != nil {
		g.emit(Event{Kind: EvRoll, Who: ti, Target: ci, Card: -1, Roll: d.Roll, Value: eff, Success: d.Success})
	}
	if d.Success || !t.mayReroll() {
		return d
	}
	return g.reroll(r, ti, t, eff, d, other, true)
}

// resisting is the view of character ci asked about a roll, marked as a
// defence or resistance when it is one.
func (g *game) resisting(ci int, resisting bool) *View {
	v := g.view(ci)
	v.Resisting = resisting
	return v
}

// opponentFails asks whether character ti (t) spends a waiting Opponent
// Fails on actor ci's success against it (Immediate Effects: one
// successful action against the PC fails), and spends it: other is ti's
// side's policy, which chooses the success; with none the card takes the
// first.
func (g *game) opponentFails(t *Character, ti, ci int, a Act, other Policy) bool {
	return t.Status.Fails > 0 && g.spendFails(t, ti, ci, a, other)
}

// spendFails is opponentFails for a character with an Opponent Fails
// waiting.
func (g *game) spendFails(t *Character, ti, ci int, a Act, other Policy) bool {
	if other != nil && !other.Cancel(g.view(ti), ci, a) {
		return false
	}
	t.Status.Fails--
	if g.Sink != nil {
		g.emit(Event{Kind: EvEffect, Who: ci, Target: ti, Card: -1, Effect: NoEffect, Value: int(OpponentFails)})
	}
	return true
}

// skillRoll is skillRollOf for character ci.
func (g *game) skillRoll(r *dice.Roller, ci int, kind RollKind, base int, pol Policy) Result {
	return g.skillRollOf(r, ci, g.char(ci), kind, base, pol)
}

// reroll is skillRollOf after a failure: Second Chance, then Up, Drama/Hero
// and Possibilities, each re-rolling and keeping the better result.

// mayReroll reports whether c holds anything to re-roll a failure with:
// a Second Chance, an Up, a Drama or Hero card, a Possibility.
func (c *Character) mayReroll() bool {
	st := &c.Status
	return st.Luck > 0 || st.Up > 0 || st.CardPoss > 0 || c.Possibilities > 0
}

// reroll is skillRollOf after a failure, for a character who may
// re-roll it (mayReroll): Second Chance, then Up, Drama/Hero and
// Possibilities, each re-rolling and keeping the better result.
func (g *game) reroll(r *dice.Roller, ci int, c *Character, eff int, res Result, pol Policy, resisting bool) Result {
	st := &c.Status
	if st.Luck > 0 {
		st.Luck--
		for i := 1; i < g.State.Rules.LuckRolls; i++ {
			if x := g.successRoll(r, eff); Better(x, res) {
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
		case c.Possibilities > 0 && pol != nil && pol.Spend(g.resisting(ci, resisting), res):
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
		if x := g.successRoll(r, eff); Better(x, res) {
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

// strip is the GM's removal of pool card i (an index asked and checked
// before the roll by askStrip) from player p's pool after a villain's
// success at the line's villain action; i < 0 removes nothing.
func (g *game) strip(p, i int) {
	if i < 0 {
		return
	}
	s := g.State
	id := s.Players[p].Pool[i]
	s.Players[p].Pool = remove(s.Players[p].Pool, i)
	s.Discard = append(s.Discard, id)
	if g.Sink != nil {
		g.emit(Event{Kind: EvStrip, Who: p, Target: -1, Card: id})
	}
}

// afterAction closes character ci's action; st is its Status.
func (g *game) afterAction(ci int, st *Status, harmed bool) {
	st.Harmed = st.Harmed || harmed
	st.StymiedNext = false // lapses at the end of the next action
	if st.Broken {
		g.broken(ci, harmed)
	}
}

// broken resolves the margin table's Break after character ci's action.
func (g *game) broken(ci int, harmed bool) {
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
func (g *game) defense(t *Character) int {
	def := t.Defense
	if t.Status.Posture == Defend {
		def += g.State.Rules.DefendBonus
	}
	if t.FP*3 < t.MaxFP {
		def /= 2
	}
	return def
}

// attack resolves an Attack or All-Out Attack by character ci (c) on t.
func (g *game) attack(r *dice.Roller, ci int, c, t *Character, ch Choice, unskilled bool, pol, other Policy) (success, harmed bool) {
	base := level(c.Attack, unskilled)
	if ch.Act == AllOutAttack {
		base += g.State.Rules.AllOutAttackBonus
		c.Status.Posture = AllOutAttack
	}
	res := g.skillRollOf(r, ci, c, Physical, base, pol)
	hit := res.Success
	if !hit && res.Critical {
		g.fumble(ci, -1, ch.Act)
	}
	if hit && !res.Critical && t.Status.Posture != AllOutAttack {
		d := g.resistRoll(r, ch.Target, ci, Physical, g.defense(t), other)
		hit = !d.Success
		if hit && d.Critical {
			g.fumble(ch.Target, ci, ch.Act)
		}
	}
	// A hit that would reach the damage roll is a success; Opponent Fails
	// may turn it into a failure.
	if hit && g.opponentFails(t, ch.Target, ci, ch.Act, other) {
		hit = false
	}
	if !hit {
		return false, false
	}
	dmg := c.Damage.Add + r.SumN(c.Damage.Dice, 6)
	if c.Status.Coup > 0 {
		dmg += dmg * g.State.Rules.CoupPercent * c.Status.Coup / 100
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
	case dmg*100 > t.MaxHP*g.State.Rules.StunPercent:
		t.Status.Stunned = true // a major wound stuns (Rules.StunPercent)
	}
	return true, dmg > 0
}

func (g *game) contest(r *dice.Roller, ci int, c, t *Character, ch Choice, unskilled bool, call Effect, pol, other Policy) (success, harmed bool) {
	sk, resist, kind := contestSkills(ch.Act, c, t, unskilled)
	a := g.skillRollOf(r, ci, c, kind, sk, pol)
	d := g.resistRoll(r, ch.Target, ci, kind, resist, other)
	w, mov := g.State.Rules.Contest.Decide(a, d)
	if w == 0 && g.opponentFails(t, ch.Target, ci, ch.Act, other) {
		w = -1
	}
	if g.Sink != nil {
		g.emit(Event{Kind: EvContest, Who: ci, Target: ch.Target, Card: -1, Act: ch.Act, Value: mov, Success: w == 0})
	}
	if w != 0 {
		return false, false
	}
	band, ok := g.State.Rules.Margins.Lookup(ch.Act, mov)
	if !ok {
		return true, false
	}
	for _, e := range band.Target {
		if e == PlayersCall {
			// The actor specifies the result (asked before the roll).
			if call == Up {
				g.inflict(ci, Up)
				continue
			}
			e = call
		}
		g.inflict(ch.Target, e)
	}
	for _, e := range band.Actor {
		g.inflict(ci, e)
	}
	return true, true
}

// inflict applies a margin-table result to character ci.
func (g *game) inflict(ci int, e Effect) {
	g.suffer(ci, e)
	if g.Sink != nil {
		g.emit(Event{Kind: EvEffect, Who: -1, Target: ci, Card: -1, Effect: e})
	}
}

// costs reports the effects a critical failure may cost (Rules.CriticalMiss).
func (e Effect) costs() bool {
	switch e {
	case NoEffect, Setback, Stymied, Unskilled, Fatigued:
		return true
	}
	return false
}

// fumble is the cost of character ci's critical failure on the roll of
// action a, or (from -1: attacker) of his active defence against from's
// action a (Rules.CriticalMiss).
func (g *game) fumble(ci, from int, a Act) {
	e := g.State.Rules.CriticalMiss
	if e == NoEffect || !e.costs() {
		return
	}
	if g.Sink != nil {
		g.emit(Event{Kind: EvFumble, Who: ci, Target: from, Card: -1, Act: a, Effect: e})
	}
	g.suffer(ci, e)
}

// suffer puts margin-table result e on character ci.
func (g *game) suffer(ci int, e Effect) {
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
		g.loseFP(ci, g.State.Rules.FatigueFP)
	}
}

// breakSide: the side's characters (cs[i] is character off+i) who were
// hurt and did no harm this round flee.
func (g *game) breakSide(cs []Character, off int) {
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
