package dramadeck

import (
	"errors"
	"fmt"
	"slices"

	"github.com/stakesrpg/stakes/dice"
)

// asker answers the questions of one step taken in Engine.Ask's way: the
// answers given before (replayed, in order), then the policies, stopping
// the step at the first question its side asks as a step. It is the
// State's, reused from step to step.
type asker struct {
	asks  [2]AskSet
	given []Reply // answers to give again, in order
	reply *Reply  // and after them this one, if set
	next  int     // the next of given and reply
	// live: the first question past the given ones is the pending one,
	// which the policy answers (Engine.Step with a question pending).
	live bool
	// reach: the step, taken again without the whole game kept, must
	// come to its question, every answer given taken, before it acts
	// (mustStop, Engine.retake).
	reach bool
	log   []Reply   // every answer the step received, until it stopped
	stop  *Question // the question the step stopped at, or nil
	err   error     // a given answer that does not fit the step
	// cards and plays hold the cards and plays of the answers the
	// policies gave (log).
	cards []int
	plays []Play
	// qs are where the questions a step stops at are written, in turn:
	// never into pend, the question pending, whose answers the step is
	// given and which stays pending if the step is refused.
	qs   [2]qbuf
	pend *Question
}

// reset readies a for a step asking asks as steps, given the answers
// given and then reply (nil: none), live as asker.live says, with pend
// pending.
func (a *asker) reset(asks [2]AskSet, given []Reply, reply *Reply, live bool, pend *Question) {
	clear(a.log)
	a.asks, a.given, a.reply, a.next, a.live, a.reach = asks, given, reply, 0, live, false
	a.log, a.stop, a.err, a.pend = a.log[:0], nil, nil, pend
	a.cards, a.plays = a.cards[:0], a.plays[:0]
}

// qbuf is a question a step stopped at, and what it lists, written into
// buffers reused from step to step: State.Question is good until the
// step after the next (Engine.Reply and Engine.Step write the next
// question into the other buffer).
type qbuf struct {
	q     Question
	opts  []Reply
	given []Reply
	cards []int
	plays []Play
	task  TaskView
	// choices are the actions listed (Choose).
	choices []Choice
}

// add lists an answer to kind, its other fields zero, for the caller to
// fill in.
func (b *qbuf) add(kind Ask) *Reply {
	b.opts = append(b.opts, Reply{})
	o := &b.opts[len(b.opts)-1]
	o.Ask = kind
	return o
}

// yesNo lists the answers to a yes-or-no question.
func (b *qbuf) yesNo(kind Ask) {
	b.add(kind)
	b.add(kind).Yes = true
}

// cardsOf is a copy of cards in b's buffer (nil for none).
func (b *qbuf) cardsOf(cards []int) []int {
	b.cards, cards = appendOwn(b.cards, cards)
	return cards
}

// playsOf is a copy of plays in b's buffer (nil for none).
func (b *qbuf) playsOf(plays []Play) []Play {
	b.plays, plays = appendOwn(b.plays, plays)
	return plays
}

// appendOwn appends src to buf and returns buf and the copy, capped so
// that appending to it leaves the rest of buf alone (nil for none).
func appendOwn[E any](buf, src []E) ([]E, []E) {
	if len(src) == 0 {
		return buf, nil
	}
	n := len(buf)
	buf = append(buf, src...)
	return buf, buf[n:len(buf):len(buf)]
}

// free is the buffer the next question is written into: not the one
// pending.
func (a *asker) free() *qbuf {
	if a.pend == &a.qs[0].q {
		return &a.qs[1]
	}
	return &a.qs[0]
}

// replay returns the next given answer, if one is left, for question
// kind.
func (a *asker) replay(kind Ask) (Reply, bool) {
	var ans Reply
	switch n := len(a.given); {
	case a.next < n:
		ans = a.given[a.next]
	case a.next == n && a.reply != nil:
		ans = *a.reply
	default:
		return Reply{}, false
	}
	a.next++
	if ans.Ask != kind {
		if a.err == nil {
			a.err = fmt.Errorf("the answers given to the pending step do not fit it: answer %d is to %v, the step asks %v (restore the Roller saved with the game)", a.next-1, ans.Ask, kind)
		}
		return Reply{}, false
	}
	a.log = append(a.log, ans)
	return ans, true
}

// answers is how many answers were given to the step taken again.
func (a *asker) answers() int {
	if a.reply != nil {
		return len(a.given) + 1
	}
	return len(a.given)
}

// halt reports whether the step stops at question kind of side: it has
// stopped already (or a given answer did not fit it), or side asks the
// question as a step, when fill writes what the question is about and
// its options. The pending question, live, is the policy's to answer.
// A step stopped at a question goes no further: the question gets an
// answer the step refuses where it is given (choose.go), or, a yes-or-no
// question, a no, the step then putting back what it did (undo.go).
func (a *asker) halt(side Side, kind Ask, fill func(q *Question, b *qbuf)) bool {
	switch {
	case a.stop != nil || a.err != nil:
		return true
	case a.live:
		a.live = false
		return false
	case a.asks[side].Has(kind):
		b := a.free()
		b.opts, b.given, b.cards, b.plays = b.opts[:0], b.given[:0], b.cards[:0], b.plays[:0]
		for _, ans := range a.log {
			ans.Cards, ans.Plays = b.cardsOf(ans.Cards), b.playsOf(ans.Plays)
			b.given = append(b.given, ans)
		}
		q := &b.q
		*q = Question{Ask: kind, Side: side, Given: b.given}
		fill(q, b)
		if len(b.opts) > 0 {
			q.Options = b.opts
		}
		a.stop = q
		return true
	}
	return false
}

// record notes the answer a policy gave.
func (a *asker) record(ans Reply) {
	a.cards, ans.Cards = appendOwn(a.cards, ans.Cards)
	a.plays, ans.Plays = appendOwn(a.plays, ans.Plays)
	a.log = append(a.log, ans)
}

// asked is a side's Policy answering through an asker.
type asked struct {
	Policy
	side Side
	a    *asker
}

// asking has heroes and gm answer through l's asker.
func (l *lent) asking(heroes, gm Policy) (Policy, Policy) {
	l.asked[0] = asked{Policy: heroes, side: Heroes, a: &l.ask}
	l.asked[1] = asked{Policy: gm, side: Villains, a: &l.ask}
	return &l.asked[0], &l.asked[1]
}

func (p *asked) Critical(v *View, buf []int) []int {
	if ans, ok := p.a.replay(AskCritical); ok {
		return append(buf, ans.Cards...)
	}
	if p.a.halt(p.side, AskCritical, func(q *Question, b *qbuf) {
		q.Who, q.Cards, q.Many = v.Who, b.cardsOf(v.Players[v.Who].Hand), true
		criticalOptions(v, b)
	}) {
		return refusedCards(buf)
	}
	out := p.Policy.Critical(v, buf)
	p.a.record(Reply{Ask: AskCritical, Cards: out[len(buf):]})
	return out
}

func (p *asked) Declare(v *View, buf []Play, moved []int) []Play {
	if ans, ok := p.a.replay(AskDeclare); ok {
		return append(buf, ans.Plays...)
	}
	if p.a.halt(p.side, AskDeclare, func(q *Question, b *qbuf) {
		q.Who, q.Cards, q.Many = v.Who, b.cardsOf(moved), true
		declareOptions(v, moved, b)
	}) {
		return refusedPlays(buf)
	}
	out := p.Policy.Declare(v, buf, moved)
	p.a.record(Reply{Ask: AskDeclare, Plays: out[len(buf):]})
	return out
}

func (p *asked) Trade(v *View) Swap {
	if ans, ok := p.a.replay(AskTrade); ok {
		return ans.Swap
	}
	if p.a.halt(p.side, AskTrade, func(q *Question, b *qbuf) { q.Who = v.Who; tradeOptions(v, b) }) {
		return refusedSwap
	}
	sw := p.Policy.Trade(v)
	p.a.record(Reply{Ask: AskTrade, Swap: sw})
	return sw
}

func (p *asked) Haste(v *View, next int) int {
	if ans, ok := p.a.replay(AskHaste); ok {
		return ans.Index
	}
	if p.a.halt(p.side, AskHaste, func(q *Question, b *qbuf) {
		q.Who, q.Next = v.Who, next
		cardOptions(b, AskHaste, v.Players[v.Who].Pool, func(id int) bool { return v.Deck.Cards[id].Name == Haste })
	}) {
		return refusedIndex
	}
	id := p.Policy.Haste(v, next)
	p.a.record(Reply{Ask: AskHaste, Index: id})
	return id
}

func (p *asked) Move(v *View) int {
	if ans, ok := p.a.replay(AskMove); ok {
		return ans.Index
	}
	if p.a.halt(p.side, AskMove, func(q *Question, b *qbuf) {
		g := &game{State: v.State}
		q.Who = v.Who
		cardOptions(b, AskMove, v.Players[v.Who].Hand, func(id int) bool { _, err := g.checkMoveCard(v.Who, id); return err == nil })
	}) {
		return refusedIndex
	}
	id := p.Policy.Move(v)
	p.a.record(Reply{Ask: AskMove, Index: id})
	return id
}

func (p *asked) Choose(v *View) Choice {
	if ans, ok := p.a.replay(AskChoose); ok {
		return ans.Choice
	}
	if p.a.halt(p.side, AskChoose, func(q *Question, b *qbuf) {
		q.Who = v.Who
		b.choices = (&game{State: v.State}).Choices(v.Who, b.choices[:0])
		for _, ch := range b.choices {
			b.add(AskChoose).Choice = ch
		}
	}) {
		return refusedChoice
	}
	ch := p.Policy.Choose(v)
	p.a.record(Reply{Ask: AskChoose, Choice: ch})
	return ch
}

func (p *asked) Spend(v *View, r Result) bool {
	if ans, ok := p.a.replay(AskSpend); ok {
		return ans.Yes
	}
	if p.a.halt(p.side, AskSpend, func(q *Question, b *qbuf) {
		q.Who, q.Result, q.Resisting = v.Who, r, v.Resisting
		b.yesNo(AskSpend)
	}) {
		return false
	}
	yes := p.Policy.Spend(v, r)
	p.a.record(Reply{Ask: AskSpend, Yes: yes})
	return yes
}

func (p *asked) Cancel(v *View, actor int, a Act) bool {
	if ans, ok := p.a.replay(AskCancel); ok {
		return ans.Yes
	}
	if p.a.halt(p.side, AskCancel, func(q *Question, b *qbuf) {
		q.Who, q.Actor, q.Act = v.Who, actor, a
		b.yesNo(AskCancel)
	}) {
		return false
	}
	yes := p.Policy.Cancel(v, actor, a)
	p.a.record(Reply{Ask: AskCancel, Yes: yes})
	return yes
}

func (p *asked) Strip(v *View) int {
	if ans, ok := p.a.replay(AskStrip); ok {
		return ans.Index
	}
	if p.a.halt(p.side, AskStrip, func(q *Question, b *qbuf) {
		pool := v.Players[v.Who].Pool
		q.Who, q.Cards = v.Who, b.cardsOf(pool)
		indexOptions(b, AskStrip, len(pool), true, func(i int) bool { return v.Deck.Cards[pool[i]].Name.Kind() != Subplot })
	}) {
		return refusedIndex
	}
	i := p.Policy.Strip(v)
	p.a.record(Reply{Ask: AskStrip, Index: i})
	return i
}

func (p *asked) Call(v *View, target int, a Act) Effect {
	if ans, ok := p.a.replay(AskCall); ok {
		return ans.Effect
	}
	if p.a.halt(p.side, AskCall, func(q *Question, b *qbuf) {
		q.Who, q.Target, q.Act = v.Who, target, a
		for _, e := range callResults {
			b.add(AskCall).Effect = e
		}
	}) {
		return refusedCall
	}
	e := p.Policy.Call(v, target, a)
	p.a.record(Reply{Ask: AskCall, Effect: e})
	return e
}

func (p *asked) Discard(v *View, must bool) int {
	if ans, ok := p.a.replay(AskDiscard); ok {
		return ans.Index
	}
	if p.a.halt(p.side, AskDiscard, func(q *Question, b *qbuf) {
		hand := v.Players[v.Who].Hand
		q.Who, q.Must, q.Cards = v.Who, must, b.cardsOf(hand)
		indexOptions(b, AskDiscard, len(hand), !must, func(int) bool { return true })
	}) {
		return refusedIndex
	}
	i := p.Policy.Discard(v, must)
	p.a.record(Reply{Ask: AskDiscard, Index: i})
	return i
}

func (p *asked) Steps(v *TaskView) int {
	if ans, ok := p.a.replay(AskSteps); ok {
		return ans.Index
	}
	if p.a.halt(p.side, AskSteps, func(q *Question, b *qbuf) {
		b.task = *v
		q.Who, q.Task = v.Player, &b.task
		for k := 1; k <= v.Avail; k++ {
			b.add(AskSteps).Index = k
		}
	}) {
		return refusedSteps
	}
	k := p.Policy.Steps(v)
	p.a.record(Reply{Ask: AskSteps, Index: k})
	return k
}

func (p *asked) Switch(v *TaskView) bool {
	return p.taskYes(AskSwitch, v, p.Policy.Switch)
}

func (p *asked) LastDitch(v *TaskView) bool {
	return p.taskYes(AskLastDitch, v, p.Policy.LastDitch)
}

func (p *asked) SideRoll(v *TaskView) bool {
	return p.taskYes(AskSideRoll, v, p.Policy.SideRoll)
}

// taskYes is a yes-or-no question about a task, which pol answers live.
func (p *asked) taskYes(kind Ask, v *TaskView, pol func(*TaskView) bool) bool {
	if ans, ok := p.a.replay(kind); ok {
		return ans.Yes
	}
	if p.a.halt(p.side, kind, func(q *Question, b *qbuf) {
		b.task = *v
		q.Who, q.Task = v.Player, &b.task
		b.yesNo(kind)
	}) {
		return false
	}
	yes := pol(v)
	p.a.record(Reply{Ask: kind, Yes: yes})
	return yes
}

// callResults are the results a Player's Call may name: any of the
// margin table's but Player's Call itself.
var callResults = [...]Effect{Stymied, Unskilled, Setback, Break, Fatigued, Up}

// cardOptions lists none (-1) and each card id of pile that ok accepts.
func cardOptions(b *qbuf, kind Ask, pile []int, ok func(id int) bool) {
	b.add(kind).Index = -1
	for _, id := range pile {
		if ok(id) {
			b.add(kind).Index = id
		}
	}
}

// indexOptions lists none (-1) if none is allowed, and each index below
// n that ok accepts.
func indexOptions(b *qbuf, kind Ask, n int, none bool, ok func(i int) bool) {
	if none {
		b.add(kind).Index = -1
	}
	for i := range n {
		if ok(i) {
			b.add(kind).Index = i
		}
	}
}

// criticalOptions lists the hand cards player v.Who may pour into the
// pool for a Critical Moment: none once he has had his moment this Act,
// and never Escape.
func criticalOptions(v *View, b *qbuf) {
	if v.Players[v.Who].CriticalAct == v.State.Act {
		return
	}
	for _, id := range v.Players[v.Who].Hand {
		if v.Deck.Cards[id].Name != Escape {
			b.cards = append(b.cards, id)
			n := len(b.cards)
			b.add(AskCritical).Cards = b.cards[n-1 : n : n]
		}
	}
}

// declareOptions are the plays player v.Who could declare on their own,
// from his pool and the cards moved there: every card at every target it
// may take, Seize Initiative either way, Campaign on each subplot it may
// make permanent (Leadership, whose cards the player names, aside).
func declareOptions(v *View, moved []int, b *qbuf) {
	g := &game{State: v.State}
	p := v.Who
	try := func(pl Play) {
		// Checked where it is kept, so the option holds it as checked.
		n := len(b.plays)
		b.plays = append(b.plays, pl)
		if g.checkPlay(p, &b.plays[n], true, moved) != nil {
			b.plays = b.plays[:n]
			return
		}
		b.add(AskDeclare).Plays = b.plays[n : n+1 : n+1]
	}
	for _, pile := range [2][]int{v.Players[p].Pool, moved} {
		for _, id := range pile {
			if id < 0 || id >= len(v.Deck.Cards) {
				continue
			}
			switch n := v.Deck.Cards[id].Name; {
			case n.Aimed():
				for h := range v.Heroes {
					try(Play{Card: id, Target: aimAt(p, h)})
				}
			case n == SeizeInitiative:
				try(Play{Card: id})
				try(Play{Card: id, Flip: true})
			case n == Campaign:
				for _, sub := range v.Players[p].Pool {
					try(Play{Card: id, Cards: [2]int{sub}, N: 1})
				}
			default:
				try(Play{Card: id})
			}
		}
	}
}

// aimAt is the Aim of player p's card at hero h: Self for his own.
func aimAt(p, h int) Aim {
	if h == p {
		return Self
	}
	return OnHero(h)
}

// tradeOptions lists none and every swap of a card of player v.Who's pool
// (his hand, out of combat) for one of another player's.
func tradeOptions(v *View, b *qbuf) {
	p := v.Who
	pile := func(q int) []int {
		if v.Combat {
			return v.Players[q].Pool
		}
		return v.Players[q].Hand
	}
	b.add(AskTrade).Swap = Swap{With: -1}
	for q := range v.Players {
		if q == p {
			continue
		}
		for _, give := range pile(p) {
			for _, take := range pile(q) {
				b.add(AskTrade).Swap = Swap{With: q, Give: give, Take: take}
			}
		}
	}
}

// errHalted ends a step that stopped at a question asked as a step, or
// took an answer that refuses it: what it did is undone, and the error
// it returns is the question or the refusal, so this one is never seen.
var errHalted = errors.New("the step stopped at a question")

// halted reports whether g's step stopped at a question asked as a step
// or took an answer that refuses it (a Chooser's of the wrong type, or a
// given answer that does not fit the step): its policies' answers since
// are the refused ones, which the step need not check.
func (g *game) halted() bool {
	a := &g.State.lend
	return g.asks && (a.ask.stop != nil || a.ask.err != nil || a.refused != nil)
}

// mustStop reports whether the step must stop where it is about to act
// (change the game or roll a die): it is halted, or it is a question's
// step taken again without the whole game kept (asker.reach) that has not
// yet come to the question, or not taken every answer given to it. Such a
// step is not the one the question was asked in: the game was changed
// since, so the answers do not fit it, and it stops having changed
// nothing. Every step calls mustStop where it begins to act, past the
// questions it asks first (all but the late ones: Ask.late).
func (g *game) mustStop() bool {
	if !g.asks {
		return false
	}
	a := &g.State.lend.ask
	if a.reach && a.err == nil && a.stop == nil && (a.live || a.next < a.answers()) {
		a.err = fmt.Errorf("the answers given to the pending step do not fit it: taken again, the step comes to act after %d of the %d answers given to it (the game was changed since the question was asked)", a.next, a.answers())
	}
	return g.halted()
}

// policyErr is err, a step's refusal of an answer of policy pol's, named
// as pol's.
func policyErr(pol Policy, err error) error {
	if err == nil || err == errHalted {
		return err
	}
	return fmt.Errorf("policy %s: %w", pol.Name(), err)
}

// pending refuses a step other than the answer while a question waits.
func pending(s *State) error {
	if s != nil && s.Question != nil {
		q := s.Question
		return fmt.Errorf("a question is pending (%v, of the %v about %d): Engine.Reply answers it, or Engine.Step has its policy answer it", q.Ask, q.Side, q.Who)
	}
	return nil
}

// Reply answers the question pending in s (State.Question): the answer
// is checked against the question, and the step that asked it is taken
// again from the state it stands in, its dice falling as before and its
// earlier questions answered as before (Question.Given), this answer
// given to the question, and the rest of the step played on under the
// policies, or up to the next question asked as a step (Engine.Ask). A
// refused answer changes nothing: the question stays pending. The Roller
// must be as it was when the question was asked (a game saved with its
// question is saved with the Roller's bytes).
func (e Engine) Reply(s *State, r *dice.Roller, a Reply) error {
	if err := e.readyToAsk(s, r); err != nil {
		return err
	}
	if s.Question == nil {
		return errors.New("no question is pending")
	}
	s.lend.reply = a
	if err := s.Question.accepts(&s.lend.reply); err != nil {
		return err
	}
	return e.stepAsking(s, r, &s.lend.reply)
}

// readyToAsk is ready for Step and Reply, which a pending question
// does not refuse.
func (e Engine) readyToAsk(s *State, r *dice.Roller) error {
	switch {
	case r == nil:
		return dice.ErrNilRoller
	case s == nil:
		return errNilState
	}
	return e.Policies.check()
}

// step is Step once ready. guard says a policy's answer may refuse the
// step once it has begun (a Chooser's: Game.Intercept).
func (e Engine) step(s *State, r *dice.Roller, guard bool) error {
	switch {
	case s.Question != nil:
		return e.stepAsking(s, r, nil)
	case !guard && e.Ask == [2]AskSet{}:
		return e.game(s).step(r, e.Policies.Heroes, e.Policies.GM)
	}
	return e.guarded(s, r, nil)
}

// guarded takes the next step, stopping at the first question asked as a
// step (Engine.Ask): stopped there, or refused by an answer once begun,
// it puts back what it kept (undo.go) and leaves no trace; stopped, it
// leaves the question pending. Taken, its events are heard.
func (e Engine) guarded(s *State, r *dice.Roller, pend *Question) error {
	ak := &s.lend.ask
	ak.reset(e.Ask, nil, nil, false, pend)
	heroes, gm := e.Policies.Heroes, e.Policies.GM
	if e.Ask != [2]AskSet{} {
		heroes, gm = s.lend.asking(heroes, gm)
	}
	s.lend.refused = nil
	g := &game{State: s, Sink: e.Sink, guard: true, asks: true}
	err := g.step(r, heroes, gm)
	if s.lend.refused != nil {
		err = s.lend.refused
	} else if ak.stop != nil {
		err = nil // the step up to the question was legal; the rest is undone
	}
	if ak.stop != nil || err != nil {
		s.unmark(r)
		if err == nil {
			s.Question = ak.stop
		}
		return err
	}
	s.taken(e.Sink)
	return nil
}

// stepAsking takes the step in Engine.Ask's way with a question pending:
// its answer a (nil: its policy's), the step stopping at the next
// question asked as a step. Stopped, the step is undone, state and
// Roller, and the question it stopped at is left pending, with the
// answers given before it; taken to its end, its events are heard.
//
// A step that, taken again, does not come to the question as it was
// asked (the Roller is not the one saved with it, or the state was
// changed) refuses the answer; Step, whose policy would answer it, then
// lets the question lapse and takes the step afresh.
func (e Engine) stepAsking(s *State, r *dice.Roller, a *Reply) error {
	q := s.Question
	err := e.retake(s, r, slices.Clip(q.Given), a, a == nil)
	if err != nil && a == nil {
		s.Question = nil
		if err = e.guarded(s, r, q); err != nil {
			s.Question = q
		}
	}
	return err
}

// retake takes the step from s, given the answers given in order, then
// reply (if not nil) and then, if live, its policy answering the first
// question past them.
//
// The step is taken again from where it stood, and may come to another
// end than the one it was asked at if the game or the Roller was changed
// since. A question asked before the step acts (all but the late ones)
// comes before the step changes anything, so the step, stopping where it
// would act before it comes to the question (mustStop), needs only what
// it keeps as any step does (undo.go); for a late question the whole
// game is kept to put back.
func (e Engine) retake(s *State, r *dice.Roller, given []Reply, reply *Reply, live bool) error {
	whole := s.Question.Ask.late()
	if err := s.keepWhole(r, whole); err != nil {
		return err
	}
	ak := &s.lend.ask
	ak.reset(e.Ask, given, reply, live, s.Question)
	ak.reach = !whole
	s.Question, s.lend.refused = nil, nil
	heroes, gm := s.lend.asking(e.Policies.Heroes, e.Policies.GM)
	g := &game{State: s, Sink: e.Sink, hold: e.Sink != nil, guard: true, asks: true}
	err := g.step(r, heroes, gm)
	switch {
	case s.lend.refused != nil:
		err = s.lend.refused
	case ak.err != nil:
		err = ak.err
	case ak.stop == nil && err == nil && ak.next < ak.answers():
		err = fmt.Errorf("the step, taken again, ends after %d of the %d answers given to it: its dice are not those it was asked with (restore the Roller saved with the game)", ak.next, ak.answers())
	case ak.stop != nil:
		err = nil // the step up to the question was legal; the rest is undone
	}
	switch {
	case err != nil:
		s.putBackWhole(r, whole)
		s.Question = ak.pend
		return err
	case ak.stop != nil:
		// Stopped at a question: as a step stopped at its first question
		// (guarded), it changed nothing before the question but what it
		// kept to put back (undo.go), and the Roller goes back to where
		// the step began. The whole game is put back only when the step
		// is refused.
		s.unmark(r)
		s.lend.putBackRoller(r, s.lend.wholeRoller)
		s.Question = ak.stop
		return nil
	}
	s.taken(e.Sink)
	return nil
}
