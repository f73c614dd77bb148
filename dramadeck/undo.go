package dramadeck

import (
	"bytes"
	"fmt"

	"github.com/stakesrpg/stakes/dice"
)

// A step is taken whole or not at all. It asks the answers it needs, and
// checks them, before it changes anything or rolls a die, except four
// that the rules place after the dice: a Possibility to re-roll a failed
// roll (Spend), an Opponent Fails against a success (Cancel), the answer
// to a task's Critical Problem (Switch) and the last-ditch effort
// (LastDitch). Each is a yes or a no, which no policy can give illegally;
// but a Chooser may answer one with a value of another type, which
// refuses the step, and a question asked as a step of its own
// (Engine.Ask) stops its step where it is asked. So a step that can come
// to one of them keeps, before it changes anything, what it may change
// (its mark, in buffers reused from step to step), puts it back with the
// Roller when it is refused or stopped, and holds its events until it is
// taken. Only the steps that can come to one keep a mark: a character's
// action that rolls, when the actor or his target holds a Possibility or
// the target an Opponent Fails (asksLate), and a round of work on a task.
// Where a step begins to act, past its first questions, it asks
// game.mustStop, which stops a question's step taken again that has gone
// astray before it changes anything (Engine.retake).

// mark is what a step kept before it began to change the game.
type mark struct {
	kept bool
	// who are the characters the step acts on (-1: none); char, player
	// and pool are them, their players and their players' pools as they
	// were.
	who    [2]int
	char   [2]Character
	player [2]Player
	pool   [2][]int
	queue  []int
	// The piles as they were, and their cards too (piles) when the step's
	// draws may empty the draw pile, which shuffles the discards back in.
	draw, discard, stack          []int
	piles                         bool
	drawBuf, discardBuf, stackBuf []int
	task                          int // the task worked on, or -1
	taskState                     TaskState
	plan                          Plan
	outcome                       Outcome
	line                          Line
	flips, drawn                  int
}

// asksLate reports whether character ci's action ch may come to a
// question after its dice: a Possibility to re-roll the action (the
// actor's, Spend) or the defence or resistance against it (the target's,
// with Rules.DefenceTakesCards), or an Opponent Fails against its success
// (the target's, Cancel).
func (g *game) asksLate(ci int, ch Choice) bool {
	s := g.State
	if (ch.Act != Defend || s.Rules.DefendRolls) && g.char(ci).Possibilities > 0 {
		return true
	}
	if ch.Act == Defend {
		return false
	}
	t := g.char(ch.Target)
	return t.Status.Fails > 0 || s.Rules.DefenceTakesCards && t.Possibilities > 0
}

// keep marks the game before a step acting on characters a and b (-1:
// none) and task (-1: none), drawing at most draws cards, begins to
// change it; its events wait from then on until it is taken. It fails,
// having changed nothing, when the Roller cannot save itself: a step that
// may be refused after its dice must put them back.
func (g *game) keep(r *dice.Roller, a, b, task, draws int) error {
	s := g.State
	m := &s.lend.mark
	if err := s.lend.keepRoller(r); err != nil {
		return err
	}
	m.who = [2]int{a, b}
	for k, ci := range m.who {
		if ci < 0 {
			continue
		}
		m.char[k] = *s.char(ci)
		if ci < len(s.Players) {
			m.player[k] = s.Players[ci]
			m.pool[k] = keepPile(m.pool[k], s.Players[ci].Pool, len(s.Deck.Cards))
		}
	}
	m.queue, m.draw, m.discard, m.stack = s.Queue, s.Draw, s.Discard, s.Stack
	m.piles = len(s.Draw) < draws
	if m.piles {
		m.drawBuf = keepPile(m.drawBuf, s.Draw, len(s.Deck.Cards))
		m.discardBuf = keepPile(m.discardBuf, s.Discard, len(s.Deck.Cards))
		m.stackBuf = keepPile(m.stackBuf, s.Stack, len(s.Deck.Cards))
	}
	m.task = task
	if task >= 0 {
		m.taskState = s.Tasks[task]
	}
	if s.Plan != nil {
		m.plan = *s.Plan
	}
	m.outcome, m.line, m.flips, m.drawn = s.Outcome, s.Line, s.Flips, s.CardsDrawn
	m.kept = true
	g.hold = g.Sink != nil
	return nil
}

// keepPile is pile copied into buf, which is made once large enough for
// every card of the deck (n).
func keepPile(buf, pile []int, n int) []int {
	if cap(buf) < n {
		buf = make([]int, 0, max(n, len(pile)))
	}
	return append(buf[:0], pile...)
}

// keepRoller saves r's state, to put back if the step is refused.
func (l *lent) keepRoller(r *dice.Roller) error {
	b, err := r.AppendBinary(l.roller[:0])
	if err != nil {
		return fmt.Errorf("an answer may come after this step's dice, so the step keeps the Roller to put back: %w", err)
	}
	l.roller = b
	return nil
}

// putBackRoller puts r back as keepRoller saved it, if a die was rolled
// since: a Roller that saves itself into the same bytes is the same.
func (l *lent) putBackRoller(r *dice.Roller, saved []byte) {
	now, err := r.AppendBinary(l.rollerNow[:0])
	l.rollerNow = now
	if err == nil && bytes.Equal(now, saved) {
		return
	}
	_ = r.UnmarshalBinary(saved) // the bytes AppendBinary wrote before
}

// unmark puts back what the step kept (keep), the Roller included, and
// drops the events it held: a refused step leaves no trace.
func (s *State) unmark(r *dice.Roller) {
	s.dropHeld()
	m := &s.lend.mark
	if !m.kept {
		return
	}
	m.kept = false
	for k, ci := range m.who {
		if ci < 0 {
			continue
		}
		*s.char(ci) = m.char[k]
		if ci < len(s.Players) {
			s.Players[ci] = m.player[k]
			copy(s.Players[ci].Pool, m.pool[k])
		}
	}
	s.Queue, s.Draw, s.Discard, s.Stack = m.queue, m.draw, m.discard, m.stack
	if m.piles {
		copy(s.Draw, m.drawBuf)
		copy(s.Discard, m.discardBuf)
		copy(s.Stack, m.stackBuf)
	}
	if m.task >= 0 {
		s.Tasks[m.task] = m.taskState
	}
	if s.Plan != nil {
		*s.Plan = m.plan
	}
	s.Outcome, s.Line, s.Flips, s.CardsDrawn = m.outcome, m.line, m.flips, m.drawn
	s.lend.putBackRoller(r, s.lend.roller)
}

// taken ends a step that was taken: sink hears the events it held, and
// its mark is dropped.
func (s *State) taken(sink func(Event)) {
	s.lend.mark.kept = false
	for _, e := range s.lend.held {
		sink(e)
	}
	s.dropHeld()
}

func (s *State) dropHeld() {
	clear(s.lend.held)
	s.lend.held = s.lend.held[:0]
}

// keepWhole keeps the Roller, and the whole game if whole, before a
// question's step is taken again (Engine.Reply, or Step with a question
// pending): taken again, the step may come to another end than the one it
// was asked at (the Roller is not the one saved with the game, or the
// state was changed by hand). A question asked before the step acts needs
// only the Roller kept: the step stops before it acts if it does not come
// to the question (game.mustStop). For a late one (Ask.late), what the
// step may change before it finds it has gone astray is not known before
// it is taken, so the whole game is kept, and put back if the step is
// refused; a step that stops at its next question puts back only what it
// kept (keep), as a step stopped at its first question does.
func (s *State) keepWhole(r *dice.Roller, whole bool) error {
	b, err := r.AppendBinary(s.lend.wholeRoller[:0])
	if err != nil {
		return fmt.Errorf("a question's step is taken again, so it keeps the Roller to put back: %w", err)
	}
	s.lend.wholeRoller = b
	if !whole {
		return nil
	}
	if s.lend.whole == nil {
		s.lend.whole = new(State)
	}
	s.lend.whole.copyFrom(s)
	return nil
}

// putBackWhole puts back what keepWhole kept, dropping the events held:
// the game kept whole, or else what the step kept (unmark), and the
// Roller.
func (s *State) putBackWhole(r *dice.Roller, whole bool) {
	if !whole {
		s.unmark(r)
		s.lend.putBackRoller(r, s.lend.wholeRoller)
		return
	}
	s.dropHeld()
	s.lend.mark.kept = false
	s.copyFrom(s.lend.whole)
	s.lend.putBackRoller(r, s.lend.wholeRoller)
}

// copyFrom makes s a copy of src in s's own buffers (allocating nothing
// once they are large enough), keeping what s lends. Afterwards s shares
// with src only what no step changes: the rules, the deck, the tasks'
// skills, an adventure's villains as they began, a question pending
// (written in src's buffers: State.Question). It copies field by field,
// leaving out what s lends, which is most of a State's bytes: a question's
// step taken again keeps the whole game this way (keepWhole).
// TestCopyFromCopiesEveryField holds the list to State's fields.
func (s *State) copyFrom(src *State) {
	s.Rules, s.Deck = src.Rules, src.Deck
	s.Act, s.Scene, s.Round, s.Combat = src.Act, src.Scene, src.Round, src.Combat
	s.Phase, s.Dramatic, s.Line, s.Retain = src.Phase, src.Dramatic, src.Line, src.Retain
	s.Flurry, s.Setback, s.Confused, s.Break = src.Flurry, src.Setback, src.Confused, src.Break
	s.Monologue, s.Planned, s.Outcome = src.Monologue, src.Planned, src.Outcome
	s.MaxRounds, s.Glory, s.Question = src.MaxRounds, src.Glory, src.Question
	s.Flips, s.FlurryRounds = src.Flips, src.FlurryRounds
	s.CardsPlayed, s.CardsDrawn = src.CardsPlayed, src.CardsDrawn
	s.Queue = copyOf(s.lend.turns, src.Queue)
	if s.Queue != nil {
		s.lend.turns = s.Queue
	}
	s.Draw = copyOf(s.Draw, src.Draw)
	s.Discard = copyOf(s.Discard, src.Discard)
	s.Stack = copyOf(s.Stack, src.Stack)
	s.Heroes = copyOf(s.Heroes, src.Heroes)
	s.Villains = copyOf(s.Villains, src.Villains)
	s.Tasks = copyOf(s.Tasks, src.Tasks)
	s.copyPlayers(src.Players)
	switch {
	case src.Plan == nil:
		s.Plan = nil
	case s.Plan == nil:
		s.Plan = new(Plan)
		fallthrough
	default:
		*s.Plan = *src.Plan
	}
}

// copyPlayers makes s's players a copy of players, each player's piles
// in the buffers his place held before.
func (s *State) copyPlayers(players []Player) {
	old := s.Players
	s.Players = copyOf(old[:0], players[:0])
	for p := range players {
		var hand, pool, perm []int
		if p < cap(old) {
			was := &old[:p+1][p]
			hand, pool, perm = was.Hand, was.Pool, was.Permanent
		}
		s.Players = append(s.Players, players[p])
		q := &s.Players[p]
		q.Hand, q.Pool, q.Permanent = copyOf(hand, q.Hand), copyOf(pool, q.Pool), copyOf(perm, q.Permanent)
	}
}

// copyOf is src copied into buf's array: nil for nil, as a save tells an
// empty pile from none.
func copyOf[E any](buf, src []E) []E {
	if src == nil {
		return nil
	}
	if buf == nil {
		buf = make([]E, 0, len(src))
	}
	return append(buf[:0], src...)
}
