package dramadeck

import (
	"fmt"
	"slices"

	"github.com/stakesrpg/stakes/sim"
)

// The answers every step refuses where they are given, before it changes
// anything or rolls a die: a Chooser's answer of the wrong type is read as
// one of them, and so is a question a step stops at to ask it as a step
// of its own (asked.go). The yes-or-no questions have no such answer:
// those that come after the dice keep what their step changes to put it
// back (undo.go).
const (
	refusedIndex = -2 // a card id or an index: -1 is "none"
	refusedSteps = 0  // task steps attempted at once: 1 or more
	refusedCall  = PlayersCall
)

var (
	refusedSwap   = Swap{With: -2}
	refusedChoice = Choice{Act: NoAct, Target: -1}
)

// refusedCards and refusedPlays are a Critical Moment of a card no hand
// holds and a declaration of a card no pool holds, appended to buf.
func refusedCards(buf []int) []int   { return append(buf, -1) }
func refusedPlays(buf []Play) []Play { return append(buf, Play{Card: -1}) }

// asking is the Chooser a Game's policies answer through. It hands the
// Chooser the answers it is handed most boxed once per game (a card or an
// index, an action, no trade, the cards and plays written into the
// state's buffers), so that passing them on allocates nothing; a slice it
// hands over is the game's buffer, good only during the call. An answer of
// the wrong type refuses the step: it is recorded in the State played on
// (lent.refused), which the step reads once it is over.
type asking struct {
	c  sim.Chooser
	st *State
	// ints[i+1] is i boxed, for -1 up to the deck's size.
	ints []any
	// choices[a*stride+t] is Choice{a, t} boxed, for every action and
	// every character or task t.
	choices []any
	stride  int
	noSwap  any
	moves   boxes[int]
	plays   boxes[Play]
}

// newAsking is the Chooser c answering for the game in st, its boxes
// made: every card id and index up to the deck's size (and -1), every
// action against every character or task.
func newAsking(c sim.Chooser, st *State) *asking {
	stride := max(len(st.Heroes)+len(st.Villains), len(st.Tasks), 1)
	q := &asking{c: c, st: st, ints: make([]any, len(st.Deck.Cards)+2),
		choices: make([]any, int(numActs)*stride), stride: stride, noSwap: Swap{With: -1}}
	for i := range q.ints {
		q.ints[i] = i - 1
	}
	for k := range q.choices {
		q.choices[k] = Choice{Act: Act(k / stride), Target: k % stride}
	}
	return q
}

// boxes are the slices of one buffer, boxed by length: each length boxed
// the first time it is handed over, and again only once the buffer has
// moved (grown), so a game boxes only the lengths it hands over.
type boxes[E any] struct {
	base []E
	box  []any
}

// of is s boxed, from the boxes of its buffer.
func (b *boxes[E]) of(s []E) any {
	if cap(s) == 0 {
		return s
	}
	if cap(s) != cap(b.base) || &s[:1][0] != &b.base[:1][0] {
		b.base = s[:0]
		b.box = slices.Grow(b.box[:0], cap(s)+1)[:cap(s)+1]
		clear(b.box)
	}
	if b.box[len(s)] == nil {
		b.box[len(s)] = b.base[:len(s)]
	}
	return b.box[len(s)]
}

func (q *asking) int(i int) any {
	if i < -1 || i+1 >= len(q.ints) {
		return i
	}
	return q.ints[i+1]
}

func (q *asking) choice(ch Choice) any {
	if ch.Act >= numActs || ch.Target < 0 || ch.Target >= q.stride {
		return ch
	}
	return q.choices[int(ch.Act)*q.stride+ch.Target]
}

// swap is sw boxed: no trade is the common answer, boxed once; a trade
// of two cards is boxed as it is handed over.
func (q *asking) swap(sw Swap) any {
	if sw == (Swap{With: -1}) {
		return q.noSwap
	}
	return sw
}

// pass hands the Chooser the view and the policy's answer ans, boxed as
// box, and returns the Chooser's answer; one of another type is recorded,
// refusing the step, and pass returns ans and false.
func pass[T any](q *asking, question string, view any, ans T, box any) (T, bool) {
	got := q.c(view, box)
	if a, ok := got.(T); ok {
		return a, true
	}
	if q.st.lend.refused == nil {
		q.st.lend.refused = fmt.Errorf("dramadeck: the answer to %s is a %T, not a %T", question, got, ans)
	}
	return ans, false
}

// chosen is a Policy whose every answer passes through a Chooser: the
// Chooser sees the view the question was asked from and the policy's
// answer, and its answer is the one the step takes. An answer of the wrong
// type is read as one the step refuses where it is given, or for a yes or
// no as the policy's, the step then putting back what it did.
type chosen struct {
	Policy
	ask *asking
}

func (p *chosen) Critical(v *View, buf []int) []int {
	ans := p.Policy.Critical(v, buf)
	if a, ok := pass(p.ask, "Critical", v, ans, p.ask.moves.of(ans)); ok {
		return append(buf[:0], a...) // the Chooser's slice stays its own
	}
	return refusedCards(buf)
}

func (p *chosen) Declare(v *View, buf []Play, moved []int) []Play {
	ans := p.Policy.Declare(v, buf, moved)
	if a, ok := pass(p.ask, "Declare", v, ans, p.ask.plays.of(ans)); ok {
		return append(buf[:0], a...) // the Chooser's slice stays its own
	}
	return refusedPlays(buf)
}

func (p *chosen) Trade(v *View) Swap {
	ans := p.Policy.Trade(v)
	if a, ok := pass(p.ask, "Trade", v, ans, p.ask.swap(ans)); ok {
		return a
	}
	return refusedSwap
}

func (p *chosen) Haste(v *View, next int) int {
	ans := p.Policy.Haste(v, next)
	if a, ok := pass(p.ask, "Haste", v, ans, p.ask.int(ans)); ok {
		return a
	}
	return refusedIndex
}

func (p *chosen) Move(v *View) int {
	ans := p.Policy.Move(v)
	if a, ok := pass(p.ask, "Move", v, ans, p.ask.int(ans)); ok {
		return a
	}
	return refusedIndex
}

func (p *chosen) Choose(v *View) Choice {
	ans := p.Policy.Choose(v)
	if a, ok := pass(p.ask, "Choose", v, ans, p.ask.choice(ans)); ok {
		return a
	}
	return refusedChoice
}

func (p *chosen) Spend(v *View, r Result) bool {
	ans := p.Policy.Spend(v, r)
	yes, _ := pass(p.ask, "Spend", v, ans, ans)
	return yes
}

func (p *chosen) Cancel(v *View, actor int, a Act) bool {
	ans := p.Policy.Cancel(v, actor, a)
	yes, _ := pass(p.ask, "Cancel", v, ans, ans)
	return yes
}

func (p *chosen) Strip(v *View) int {
	ans := p.Policy.Strip(v)
	if a, ok := pass(p.ask, "Strip", v, ans, p.ask.int(ans)); ok {
		return a
	}
	return refusedIndex
}

func (p *chosen) Call(v *View, target int, a Act) Effect {
	ans := p.Policy.Call(v, target, a)
	if e, ok := pass(p.ask, "Call", v, ans, ans); ok {
		return e
	}
	return refusedCall
}

func (p *chosen) Discard(v *View, must bool) int {
	ans := p.Policy.Discard(v, must)
	if a, ok := pass(p.ask, "Discard", v, ans, p.ask.int(ans)); ok {
		return a
	}
	return refusedIndex
}

func (p *chosen) Steps(v *TaskView) int {
	ans := p.Policy.Steps(v)
	if a, ok := pass(p.ask, "Steps", v, ans, p.ask.int(ans)); ok {
		return a
	}
	return refusedSteps
}

func (p *chosen) Switch(v *TaskView) bool {
	ans := p.Policy.Switch(v)
	yes, _ := pass(p.ask, "Switch", v, ans, ans)
	return yes
}

func (p *chosen) LastDitch(v *TaskView) bool {
	ans := p.Policy.LastDitch(v)
	yes, _ := pass(p.ask, "LastDitch", v, ans, ans)
	return yes
}

func (p *chosen) SideRoll(v *TaskView) bool {
	ans := p.Policy.SideRoll(v)
	yes, _ := pass(p.ask, "SideRoll", v, ans, ans)
	return yes
}
