package dramadeck

import (
	"errors"
	"fmt"
	"slices"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/named"
)

// Phase is where a combat round stands (GM Side: each round the GM turns a
// card, the players declare their cards, then the characters act).
type Phase uint8

// Phases of a round.
const (
	// Between is out of combat, or in combat between two rounds:
	// BeginRound comes next.
	Between Phase = iota
	// Declaring: the card is turned; each player with a hero in the fight
	// declares his round's cards (Declare, CriticalMoment) or none.
	Declaring
	// Acting: the characters act in turn (Turn, Act); EndRound closes the
	// round once nobody is left to act.
	Acting
)

var phaseNames = named.Enum[Phase]{"between", "declaring", "acting"}

func (p Phase) String() string                { return phaseNames.String(p) }
func (p Phase) MarshalText() ([]byte, error)  { return phaseNames.Marshal(p) }
func (p *Phase) UnmarshalText(b []byte) error { return phaseNames.Unmarshal(b, p) }

// checkStep refuses a step while the rules are broken: a designer may
// change State.Rules between steps. Each step checks, for what it does,
// the numbers the steps index or count by (checkPlayable), so that no
// change can make one panic or loop; State.Check checks the rules whole.
func (g *game) checkStep() error { return g.State.Rules.checkPlayable() }

// checkPlayable reports a rule a step would index or count by out of its
// range: the hand size, Second Chance's rolls, Leadership's cards, the
// task's steps.
func (r *Rules) checkPlayable() error {
	switch {
	case r.HandSize < 1 || r.HandSize > 20:
		return fmt.Errorf("rules changed since the last step: hand_size %d, must be 1..20", r.HandSize)
	case r.LuckRolls < 1 || r.LuckRolls > 10:
		return fmt.Errorf("rules changed since the last step: luck_rolls %d, must be 1..10", r.LuckRolls)
	case r.MaxLeadership < 1 || r.MaxLeadership > 2:
		return fmt.Errorf("rules changed since the last step: max_leadership %d, must be 1..2", r.MaxLeadership)
	case r.TaskSteps < 1 || r.TaskSteps > 4:
		return fmt.Errorf("rules changed since the last step: task_steps %d, must be 1..4", r.TaskSteps)
	}
	return nil
}

// BeginRound is Engine.BeginRound on g.State.
func (g *game) BeginRound(r *dice.Roller) error {
	s := g.State
	if err := g.checkStep(); err != nil {
		return err
	}
	switch {
	case !s.Combat || s.Outcome != Ongoing:
		return errors.New("no encounter in progress (call StartCombat)")
	case s.Phase != Between:
		return fmt.Errorf("round %d is still %v (EndRound closes it)", s.Round, s.Phase)
	}
	s.Round++
	for p := range s.Players {
		pl := &s.Players[p]
		pl.Declared, pl.Moved, pl.MayMove, pl.Traded = false, false, false, false
	}
	newRound(s.Heroes)
	newRound(s.Villains)
	g.clearFlags()
	if s.Retain && len(s.Stack) > 0 {
		s.Retain = false
		s.Line = g.State.Deck.Cards[s.Stack[len(s.Stack)-1]].Line(s.Dramatic)
	} else {
		g.flip(r)
	}
	g.applyLine()
	s.Phase = Declaring
	g.closeDeclarations()
	return nil
}

// newRound lapses the per-round bonuses of cs.
func newRound(cs []Character) {
	for i := range cs {
		st := &cs[i].Status
		st.RoundBonus, st.Up, st.Harmed, st.Extra = 0, 0, false, 0
	}
}

// closeDeclarations ends the declarations once every player whose hero
// is in the fight has declared (or the encounter is over), and sets the
// acting order of the characters in the fight: the side the line names
// first, each side by decreasing Speed (equal speeds in index order),
// twice over for a Flurry side (GM Side, "Effects": all act normally,
// then all act again).
func (g *game) closeDeclarations() {
	s := g.State
	if s.Phase != Declaring || g.nextDeclarer() >= 0 {
		return
	}
	s.Phase = Acting
	s.Queue = g.appendTurns(s.lend.turns[:0], s.Line.First)
	s.Queue = g.appendTurns(s.Queue, s.Line.First.Other())
	s.lend.turns = s.Queue
}

// appendTurns appends side's turns of the round: its characters by
// Speed (appendBySpeed), then, for a Flurry side, the same again.
func (g *game) appendTurns(q []int, side Side) []int {
	start := len(q)
	q = g.appendBySpeed(q, side)
	if g.State.Flurry[side] {
		q = append(q, q[start:]...)
	}
	return q
}

// appendBySpeed appends side's characters in the fight in decreasing
// Speed, equal speeds in index order.
func (g *game) appendBySpeed(q []int, side Side) []int {
	cs, off := g.State.Heroes, 0
	if side == Villains {
		cs, off = g.State.Villains, len(g.State.Heroes)
	}
	start := len(q)
	for i := range cs {
		if !cs[i].Active() {
			continue // out of the fight: no action to take
		}
		// Insert character off+i after every character at least as fast.
		k := len(q)
		q = append(q, off+i)
		for ; k > start && cs[q[k-1]-off].Speed < cs[i].Speed; k-- {
			q[k] = q[k-1]
		}
		q[k] = off + i
	}
	return q
}

// Turn is State.Turn on g.State.
func (g *game) Turn() int {
	ci, _ := g.turn()
	return ci
}

// turn is Turn, with where the turn comes from: at is -1 for a Haste
// action owed, else ci's place in the acting order (Queue).
func (g *game) turn() (ci, at int) {
	s := g.State
	if s.Phase != Acting || s.Outcome != Ongoing || s.Monologue {
		return -1, -1
	}
	for p := range s.Heroes {
		if s.Heroes[p].Status.Extra > 0 && s.Heroes[p].Active() {
			return p, -1
		}
	}
	for i, ci := range s.Queue {
		if g.char(ci).Active() {
			return ci, i
		}
	}
	return -1, -1
}

// checkTurn reports why character ci may not act now, or nil.
func (g *game) checkTurn(ci int) error {
	s := g.State
	if err := g.checkChar(ci); err != nil {
		return err
	}
	switch {
	case !s.Combat || s.Outcome != Ongoing:
		return errors.New("no encounter in progress")
	case !g.char(ci).Active():
		return fmt.Errorf("character %d (%s) is out of the fight", ci, g.char(ci).Name)
	case s.Phase != Acting:
		return fmt.Errorf("round %d is %v: characters act once the declarations are made", s.Round, s.Phase)
	case s.Monologue:
		return errors.New("a Monologue is under way: nobody else may act this round")
	}
	if t := g.Turn(); t != ci {
		if t < 0 {
			return fmt.Errorf("every character has acted in round %d (EndRound)", s.Round)
		}
		return fmt.Errorf("it is character %d's turn, not %d's (one action each a round, in the line's order)", t, ci)
	}
	return nil
}

// takeTurn spends the turn of ci, which Turn named: a Haste action owed,
// else its place in the acting order (and the places of those before it,
// who are out of the fight).
func (g *game) takeTurn(ci int) {
	if ci < len(g.State.Heroes) && g.State.Heroes[ci].Status.Extra > 0 {
		g.spendTurn(ci, -1)
	} else {
		g.spendTurn(ci, slices.Index(g.State.Queue, ci))
	}
}

// spendTurn spends the turn of ci that turn found at at: the acting
// order goes on from the next place.
func (g *game) spendTurn(ci, at int) {
	s := g.State
	if at < 0 {
		s.Heroes[ci].Status.Extra--
		return
	}
	s.Queue = s.Queue[at+1:]
}

// EndRound is Engine.EndRound on g.State.
func (g *game) EndRound() error {
	s := g.State
	switch {
	case !s.Combat || s.Phase == Between:
		return errors.New("no round under way (BeginRound starts one)")
	case s.Outcome == Ongoing && s.Phase == Declaring:
		return fmt.Errorf("round %d: the players are still declaring", s.Round)
	case g.Turn() >= 0:
		return fmt.Errorf("round %d: character %d has yet to act", s.Round, g.Turn())
	}
	g.endRound()
	return nil
}

// endRound is EndRound once nobody is left to act.
func (g *game) endRound() {
	s := g.State
	if s.Flurry[Heroes] || s.Flurry[Villains] {
		s.FlurryRounds++
	}
	if s.Break[Heroes] {
		g.breakSide(s.Heroes, 0)
	}
	if s.Break[Villains] {
		g.breakSide(s.Villains, len(s.Heroes))
	}
	s.Phase, s.Queue = Between, s.Queue[:0]
	g.checkOutcome()
}

// Step is Engine.Step on g.State.
func (g *game) Step(r *dice.Roller, heroes, gm Policy) error {
	if r == nil {
		return dice.ErrNilRoller
	}
	if err := checkPolicies(heroes, gm); err != nil {
		return err
	}
	return g.step(r, heroes, gm)
}

// checkPolicies refuses a step without its two policies.
func checkPolicies(heroes, gm Policy) error {
	if heroes == nil || gm == nil {
		return errors.New("a step needs a hero policy and a GM policy")
	}
	return nil
}

// step is Step with its policies checked (Play checks them once).
func (g *game) step(r *dice.Roller, heroes, gm Policy) error {
	if err := g.checkStep(); err != nil {
		return err // the rules changed since the last step
	}
	switch {
	case g.State.Plan != nil:
		return g.stepPlan(r, heroes, gm)
	case g.Over():
		return fmt.Errorf("the encounter is over (%v)", g.State.Outcome)
	}
	return g.stepCombat(r, heroes, gm)
}

// stepCombat is step in an encounter not yet over.
func (g *game) stepCombat(r *dice.Roller, heroes, gm Policy) error {
	s := g.State
	if !s.Combat {
		if g.mustStop() {
			return errHalted
		}
		return g.StartCombat(s.Dramatic)
	}
	if s.Phase == Declaring {
		return g.declaringStep(r, heroes)
	}
	if p := g.moveOffered(); p >= 0 {
		// After a hero's action, or with Escape as the encounter begins:
		// never while the players declare (State.Check).
		return g.offerMove(p, heroes)
	}
	switch {
	case s.Phase == Between && g.mustStop():
		return errHalted
	case s.Phase == Between && s.MaxRounds > 0 && s.Round >= s.MaxRounds:
		g.finish(TimedOut)
		return nil
	case s.Phase == Between:
		return g.BeginRound(r)
	}
	if ci, at := g.turn(); ci >= 0 {
		if p, id := g.hasteOffer(ci, heroes); p >= 0 {
			if g.mustStop() {
				return errHalted
			}
			// A Haste played now is this step; ci's action waits.
			return policyErr(heroes, g.PlayHaste(r, p, id))
		}
		pol, other := heroes, gm
		if g.side(ci) == Villains {
			pol, other = gm, heroes
		}
		// Turn named ci: its turn needs no second check (Act's).
		ch := pol.Choose(g.view(ci))
		if g.halted() {
			return errHalted
		}
		return policyErr(pol, g.act(r, ci, at, ch, pol, other))
	}
	// Acting, and turn found nobody left to act.
	if g.mustStop() {
		return errHalted
	}
	g.endRound()
	return nil
}

// declaringStep is Step while the players declare: the next player's
// trade, if he makes one (a step of its own), else his declaration; once
// all have declared, the close of the declarations.
func (g *game) declaringStep(r *dice.Roller, heroes Policy) error {
	p := g.nextDeclarer()
	if p < 0 {
		if g.mustStop() {
			return errHalted
		}
		g.closeDeclarations()
		return nil
	}
	var err error
	if sw := g.tradeOffer(p, heroes); g.halted() || sw.With != -1 && g.mustStop() {
		return errHalted
	} else if sw.With != -1 {
		err = g.trade(p, sw)
	} else {
		err = g.declareBy(r, p, heroes)
	}
	return policyErr(heroes, err)
}

// hasteOffer asks each player holding Haste in his pool whose hero is in
// the fight, in order, whether he plays it as character next's action
// comes up (Immediate Effects: Haste can be played during someone else's
// action). It returns the first who does and his answer, or -1, -1. Step
// asks while a character is to act, a moment PlayHaste allows unless
// the heroes are Confused.
func (g *game) hasteOffer(next int, pol Policy) (p, id int) {
	s := g.State
	if s.Confused {
		return -1, -1
	}
	for p := range s.Players {
		if s.holds(s.Players[p].Pool, Haste) && s.Heroes[p].Active() {
			if id := pol.Haste(g.view(p), next); id != -1 {
				return p, id
			}
		}
	}
	return -1, -1
}

// Over reports whether the encounter has ended and its last round is
// closed (State.Done for a state with no Plan).
func (g *game) Over() bool { return g.State.Outcome != Ongoing && g.State.Phase == Between }

// nextDeclarer is the first player yet to declare this round whose hero
// is in the fight, or -1.
func (g *game) nextDeclarer() int {
	s := g.State
	if s.Outcome != Ongoing {
		return -1
	}
	for p := range s.Players {
		if !s.Players[p].Declared && s.Heroes[p].Active() {
			return p
		}
	}
	return -1
}

// moveOffered is the first player who may move a card from hand to pool
// now (his hero took a scene-moving action this round), or -1.
func (g *game) moveOffered() int {
	s := g.State
	for p := range s.Players {
		if s.Players[p].MayMove && !s.Players[p].Moved {
			return p
		}
	}
	return -1
}

// Round is Engine.Round on g.State.
func (g *game) Round(r *dice.Roller, heroes, gm Policy) error {
	s := g.State
	if !s.Combat || g.Over() {
		return errors.New("no encounter in progress (call StartCombat)")
	}
	if err := checkPolicies(heroes, gm); err != nil {
		return err
	}
	for {
		if err := g.step(r, heroes, gm); err != nil {
			return err
		}
		if s.Phase == Between {
			return nil
		}
	}
}

// tradeOffer is player p's trade before he declares, asked of pol once a
// round (Swap{With: -1} for none, or once he has traded).
func (g *game) tradeOffer(p int, pol Policy) Swap {
	if g.State.Players[p].Traded {
		return Swap{With: -1}
	}
	return pol.Trade(g.view(p))
}

// trade makes player p's trade sw (Trade), his one for the round.
func (g *game) trade(p int, sw Swap) error {
	if err := g.Trade(p, sw.With, []int{sw.Give}, []int{sw.Take}); err != nil {
		return err
	}
	g.State.Players[p].Traded = true
	return nil
}

// declareBy asks pol for player p's declaration: a Critical Moment, or
// the pool cards he plays (perhaps none).
func (g *game) declareBy(r *dice.Roller, p int, pol Policy) error {
	move := pol.Critical(g.view(p), g.State.lend.moveBuf[:0])
	if g.halted() {
		return errHalted
	}
	if err := g.checkMoment(p, move); err != nil {
		return err
	}
	plays := pol.Declare(g.view(p), g.State.lend.playBuf[:0], move)
	if g.mustStop() {
		return errHalted
	}
	g.State.lend.moveBuf, g.State.lend.playBuf = move[:0], plays[:0] // keep what a policy grew
	if len(move) > 0 {
		return g.CriticalMoment(r, p, move, plays)
	}
	// nextDeclarer named p: only his plays need checking.
	if err := g.checkPlays(p, plays, nil, false); err != nil {
		return err
	}
	g.declare(r, p, plays)
	return nil
}

// offerMove asks player p's policy for the card to move from hand to
// pool (-1 for none) and moves it, or declines the move.
func (g *game) offerMove(p int, pol Policy) error {
	id := pol.Move(g.view(p))
	if g.mustStop() {
		return errHalted
	}
	if id == -1 {
		g.State.Players[p].MayMove = false // declined (DeclineMove)
		return nil
	}
	// moveOffered named p: only the card needs checking.
	i, err := g.checkMoveCard(p, id)
	if err != nil {
		return policyErr(pol, err)
	}
	g.moveToPool(p, i, id)
	return nil
}

// Play is Engine.Play on g.State.
func (g *game) Play(r *dice.Roller, heroes, gm Policy) error {
	s := g.State
	if s.MaxRounds < 1 && !g.done() {
		return errors.New("the encounter has no round limit (State.MaxRounds 0): Play needs one to end")
	}
	if err := checkPolicies(heroes, gm); err != nil {
		return err
	}
	for !g.done() {
		if err := g.step(r, heroes, gm); err != nil {
			return err
		}
	}
	return nil
}
