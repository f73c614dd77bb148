package dramadeck

import (
	"errors"
	"fmt"

	"github.com/stakesrpg/stakes/dice"
)

// CheckChoice is State.CheckChoice on g.State.
func (g *game) CheckChoice(ci int, ch Choice) error {
	if err := g.checkTurn(ci); err != nil {
		return err
	}
	if ch.Act == Work {
		if err := g.checkWork(ci, ch.Target); err != nil {
			return err
		}
		return g.checkTaskRound(ch.Target)
	}
	return g.checkChoice(ci, ch)
}

// checkChoice is CheckChoice without the turn: is ch an action ci could
// take against its target.
func (g *game) checkChoice(ci int, ch Choice) error {
	switch g.choiceFault(ci, ch) {
	case notAnAction:
		return fmt.Errorf("%v is not a combat action (Attack, All-Out Attack, Defend, Trick, Test, Taunt, Intimidate, Maneuver)", ch.Act)
	case setBack:
		return fmt.Errorf("the %v suffer Setback: no action that would harm the opponents this round (Defend)", g.side(ci))
	case noSuchTarget:
		return fmt.Errorf("target: %w", g.checkChar(ch.Target))
	case notAnOpponent:
		return fmt.Errorf("target %d is not an active opponent", ch.Target)
	}
	return nil
}

// choiceFault is what rules an action out (checkChoice says it in words).
type choiceFault uint8

const (
	noFault choiceFault = iota
	notAnAction
	setBack
	noSuchTarget
	notAnOpponent
)

// choiceFault is what rules out action ch of character ci, or noFault:
// a combat action, none that would harm the opponents under Setback, and
// but for Defend an active opponent as its target.
func (g *game) choiceFault(ci int, ch Choice) choiceFault {
	switch ch.Act {
	case Attack, AllOutAttack, Defend, Trick, Test, Taunt, Intimidate, Maneuver:
	default:
		return notAnAction
	}
	side := g.side(ci)
	switch {
	case harmful(ch.Act) && g.State.Setback[side]:
		return setBack
	case ch.Act == Defend:
		return noFault
	case ch.Target < 0 || ch.Target >= len(g.State.Heroes)+len(g.State.Villains):
		return noSuchTarget
	case g.side(ch.Target) == side || !g.char(ch.Target).Active():
		return notAnOpponent
	}
	return noFault
}

// Choices is State.Choices on g.State.
func (g *game) Choices(ci int, buf []Choice) []Choice {
	if g.checkTurn(ci) != nil {
		return buf
	}
	if g.choiceFault(ci, Choice{Act: Defend}) == noFault {
		buf = append(buf, Choice{Act: Defend})
	}
	if i := g.State.openTask(ci); i >= 0 && g.State.Combat && len(g.State.Stack) > 0 {
		buf = append(buf, Choice{Act: Work, Target: i})
	}
	for a := Attack; a <= AllOutAttack; a++ {
		if a == Defend {
			continue
		}
		for t := range len(g.State.Heroes) + len(g.State.Villains) {
			if ch := (Choice{Act: a, Target: t}); g.choiceFault(ci, ch) == noFault {
				buf = append(buf, ch)
			}
		}
	}
	return buf
}

// Declarable is State.Declarable on g.State.
func (g *game) Declarable(p int, buf []Play) []Play {
	if g.checkDeclare(p, nil, nil, false) != nil {
		return buf
	}
	for _, id := range g.State.Players[p].Pool {
		if pl := (Play{Card: id}); g.checkPlay(p, &pl, true, nil) == nil {
			buf = append(buf, pl)
		}
	}
	return buf
}

// Movable is State.Movable on g.State.
func (g *game) Movable(p int, buf []int) []int {
	if g.checkPlayer(p) != nil {
		return buf
	}
	for _, id := range g.State.Players[p].Hand {
		if _, err := g.checkMove(p, id); err == nil {
			buf = append(buf, id)
		}
	}
	return buf
}

// Act is Engine.Act on g.State.
func (g *game) Act(r *dice.Roller, ci int, ch Choice, pol, other Policy) error {
	if pol == nil {
		return errors.New("Act needs a policy")
	}
	if err := g.checkTurn(ci); err != nil {
		return err
	}
	_, at := g.turn()
	return g.act(r, ci, at, ch, pol, other)
}

// act is Act for ci, whose turn it is (turn named it, coming from at): it
// checks the choice, asks the policy's answers the action may need, and
// acts.
func (g *game) act(r *dice.Roller, ci, at int, ch Choice, pol, other Policy) error {
	if ch.Act == Work {
		return g.work(r, ci, ch.Target, pol)
	}
	if err := g.checkChoice(ci, ch); err != nil {
		return err
	}
	strip, call := -1, NoEffect
	var err error
	if p, ok := g.mayStrip(ci, ch); ok {
		if strip, err = g.askStrip(p, pol); err != nil {
			return err
		}
	}
	if g.mayCall(ch) {
		if call, err = g.askCall(ci, ch, pol); err != nil {
			return err
		}
	}
	if g.mustStop() {
		return errHalted
	}
	if g.guard && g.asksLate(ci, ch) {
		target := -1
		if ch.Act != Defend {
			target = ch.Target
		}
		// One card at most is drawn: a hero's approved action.
		if err := g.keep(r, ci, target, -1, 1); err != nil {
			return err
		}
	}
	g.spendTurn(ci, at)
	g.actOn(r, ci, ch, strip, call, pol, other)
	return nil
}

// work is hero ci's action spent on his task i (Dramatic Skill
// Resolution: in combat the skill use is the hero's action): the round of
// the task TaskRound plays.
func (g *game) work(r *dice.Roller, ci, i int, pol Policy) error {
	if err := g.checkWork(ci, i); err != nil {
		return err
	}
	return g.TaskRound(r, i, pol)
}

// checkWork reports why character ci may not work on task i now, or nil.
func (g *game) checkWork(ci, i int) error {
	s := g.State
	switch {
	case i < 0 || i >= len(s.Tasks):
		return fmt.Errorf("work: task %d does not exist (have %d)", i, len(s.Tasks))
	case s.Tasks[i].Player != ci:
		return fmt.Errorf("work: task %d is player %d's, not character %d's", i, s.Tasks[i].Player, ci)
	}
	return nil
}

// openTask is the first task of character ci still going on with time
// left, or -1: the work a Choose may answer.
func (s *State) openTask(ci int) int {
	for i := range s.Tasks {
		ts := &s.Tasks[i]
		if ts.Player == ci && !ts.Finished && !ts.Failed && ts.Round < ts.Task.Rounds {
			return i
		}
	}
	return -1
}

// mayStrip reports whether a success of ci's action ch would let the GM
// strip a card from the target's pool (GM Side: a villain's success at
// the line's villain action), and which player's.
func (g *game) mayStrip(ci int, ch Choice) (int, bool) {
	s := g.State
	if g.side(ci) != Villains || ch.Act == Defend || len(s.Stack) == 0 || s.Line.VillainAction != ch.Act.base() {
		return 0, false
	}
	return ch.Target, ch.Target < len(s.Heroes) && len(s.Players[ch.Target].Pool) > 0
}

// askStrip asks the GM's policy, before the roll, which card of player
// p's pool a success would strip (-1: none; mayStrip names p) and checks
// the answer. Nothing in the action itself changes the target's pool.
func (g *game) askStrip(p int, pol Policy) (int, error) {
	i := pol.Strip(g.view(p))
	if g.halted() {
		return -1, errHalted
	}
	pool := g.State.Players[p].Pool
	if i < -1 || i >= len(pool) {
		return -1, fmt.Errorf("policy %s: strip index %d, pool of player %d has 0..%d (or -1 for none)", pol.Name(), i, p, len(pool)-1)
	}
	// Subplot Cards: a subplot stays in the pool, face up, for the
	// remainder of the adventure; the GM strips only ability cards.
	if i >= 0 && g.State.Deck.Cards[pool[i]].Name.Kind() == Subplot {
		return -1, fmt.Errorf("policy %s: strip index %d is the subplot %v, which stays in the pool for the adventure", pol.Name(), i, g.State.Deck.Cards[pool[i]].Name)
	}
	return i, nil
}

// mayCall reports whether action ch is a contest that may reach a
// Player's Call (a margin of its column gives one).
func (g *game) mayCall(ch Choice) bool {
	if !ch.Act.Contest() {
		return false
	}
	if g.calls != nil {
		return g.calls[ch.Act]
	}
	return g.State.Rules.Margins.mayCall(ch.Act)
}

// callsOf lists, by contest, whether some margin of its column in m
// gives Player's Call.
func callsOf(m *MarginTable) (calls [Maneuver + 1]bool) {
	for a := Trick; a <= Maneuver; a++ {
		calls[a] = m.mayCall(a)
	}
	return calls
}

// askCall asks the actor's policy, before the roll, for the result of a
// Player's Call should the contest reach it (mayCall), and checks the
// answer.
func (g *game) askCall(ci int, ch Choice, pol Policy) (Effect, error) {
	e := pol.Call(g.view(ci), ch.Target, ch.Act)
	if g.halted() {
		return NoEffect, errHalted
	}
	if !e.marginResult() || e == PlayersCall {
		return NoEffect, fmt.Errorf("policy %s: Player's Call gave %v (allowed: Stymied, Unskilled, Setback, Break, Fatigued, Up)", pol.Name(), e)
	}
	return e, nil
}

// mayCall reports whether some margin of a's column gives Player's Call.
func (m *MarginTable) mayCall(a Act) bool {
	for _, b := range m.Column(a) {
		for _, e := range b.Target {
			if e == PlayersCall {
				return true
			}
		}
	}
	return false
}

// actOn carries out a checked action: strip and call are the policy's
// answers given in advance.
func (g *game) actOn(r *dice.Roller, ci int, ch Choice, strip int, call Effect, pol, other Policy) {
	s := g.State
	c := g.char(ci)
	var t *Character
	if ch.Act != Defend {
		t = g.char(ch.Target)
	}
	st := &c.Status
	st.Posture = NoAct // a posture lasts until the character acts again
	if g.Sink != nil {
		g.emit(Event{Kind: EvAction, Who: ci, Target: ch.Target, Card: -1, Act: ch.Act})
	}
	hero := ci < len(s.Heroes)
	if st.Stunned || st.LoseAction {
		st.Stunned, st.LoseAction = false, false
		g.afterAction(ci, st, false)
		return
	}
	unskilled := st.Unskilled
	st.Unskilled = false
	success, harmed := false, false
	switch ch.Act {
	case Defend:
		st.Posture = Defend
		success = true // All-Out Defence is taken, not rolled (Rules.DefendRolls)
		if g.State.Rules.DefendRolls {
			success = g.skillRollOf(r, ci, c, Physical, c.Defense, pol).Success
		}
	case Attack, AllOutAttack:
		success, harmed = g.attack(r, ci, c, t, ch, unskilled, pol, other)
	default:
		success, harmed = g.contest(r, ci, c, t, ch, unskilled, call, pol, other)
	}
	if success && s.Outcome == Ongoing && len(s.Stack) > 0 {
		card := &g.State.Deck.Cards[s.Stack[len(s.Stack)-1]]
		if hero && card.Approves(ch.Act) {
			g.drawTo(r, ci, EvDraw)
		}
		g.strip(ch.Target, strip) // asked before the roll (askStrip)
	}
	if hero && ch.Act != Defend && !s.Players[ci].Moved {
		s.Players[ci].MayMove = true
	}
	g.afterAction(ci, st, harmed)
}
