package dramadeck

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim/simtest"
)

// noted is a Policy that notes the kind of every question it is asked, in
// order, before its own policy answers it: a Chooser handed its answers
// (through chosen, around it) learns what it is asked.
type noted struct {
	Policy
	log *[]Ask
}

func (p *noted) note(a Ask) { *p.log = append(*p.log, a) }

func (p *noted) Critical(v *View, buf []int) []int {
	p.note(AskCritical)
	return p.Policy.Critical(v, buf)
}
func (p *noted) Declare(v *View, buf []Play, moved []int) []Play {
	p.note(AskDeclare)
	return p.Policy.Declare(v, buf, moved)
}
func (p *noted) Trade(v *View) Swap { p.note(AskTrade); return p.Policy.Trade(v) }
func (p *noted) Haste(v *View, next int) int {
	p.note(AskHaste)
	return p.Policy.Haste(v, next)
}
func (p *noted) Move(v *View) int             { p.note(AskMove); return p.Policy.Move(v) }
func (p *noted) Choose(v *View) Choice        { p.note(AskChoose); return p.Policy.Choose(v) }
func (p *noted) Spend(v *View, r Result) bool { p.note(AskSpend); return p.Policy.Spend(v, r) }
func (p *noted) Cancel(v *View, actor int, a Act) bool {
	p.note(AskCancel)
	return p.Policy.Cancel(v, actor, a)
}
func (p *noted) Strip(v *View) int { p.note(AskStrip); return p.Policy.Strip(v) }
func (p *noted) Call(v *View, target int, a Act) Effect {
	p.note(AskCall)
	return p.Policy.Call(v, target, a)
}
func (p *noted) Discard(v *View, must bool) int {
	p.note(AskDiscard)
	return p.Policy.Discard(v, must)
}
func (p *noted) Steps(v *TaskView) int      { p.note(AskSteps); return p.Policy.Steps(v) }
func (p *noted) Switch(v *TaskView) bool    { p.note(AskSwitch); return p.Policy.Switch(v) }
func (p *noted) LastDitch(v *TaskView) bool { p.note(AskLastDitch); return p.Policy.LastDitch(v) }
func (p *noted) SideRoll(v *TaskView) bool  { p.note(AskSideRoll); return p.Policy.SideRoll(v) }

// badAnswer is one way of answering a question of a step that the step
// must refuse: give turns the policy's answer ans, asked from view, into
// the bad one, or says it does not apply there.
type badAnswer struct {
	kind Ask
	name string
	give func(view, ans any) (any, bool)
}

// Each question is answered with a value of another type; the others
// with the illegal answers of its type that the rules rule out.
var badAnswers = []badAnswer{
	{AskCritical, "another type", giving("a card")},
	{AskCritical, "a card not in his hand", inView(func(v *View, _ any) (any, bool) {
		return cardsOf(firstOf(v.Draw)), len(v.Draw) > 0 && open(v)
	})},
	{AskCritical, "one card twice", inView(func(v *View, _ any) (any, bool) {
		id := cardOf(v, v.Players[v.Who].Hand, func(n Name) bool { return n != Escape })
		return []int{id, id}, id >= 0 && open(v)
	})},
	{AskCritical, "Escape", inView(func(v *View, _ any) (any, bool) {
		id := cardOf(v, v.Players[v.Who].Hand, func(n Name) bool { return n == Escape })
		return cardsOf(id), id >= 0 && open(v)
	})},
	{AskCritical, "a second Critical Moment in the Act", inView(func(v *View, _ any) (any, bool) {
		return cardsOf(firstOf(v.Players[v.Who].Hand)), !open(v) && len(v.Players[v.Who].Hand) > 0
	})},
	{AskDeclare, "another type", giving([]string{"Action"})},
	{AskDeclare, "a card not in his pool", inView(func(v *View, _ any) (any, bool) {
		return []Play{{Card: firstOf(v.Draw)}}, len(v.Draw) > 0
	})},
	{AskDeclare, "one card played twice", inView(func(v *View, _ any) (any, bool) {
		if d := declarable(v); len(d) > 0 {
			return []Play{d[0], d[0]}, true
		}
		return nil, false
	})},
	{AskDeclare, "a field its card does not read", inView(func(v *View, _ any) (any, bool) {
		for _, pl := range declarable(v) {
			if v.Deck.Cards[pl.Card].Name != SeizeInitiative {
				pl.Flip = true
				return []Play{pl}, true
			}
		}
		return nil, false
	})},
	{AskDeclare, "a hero who is not there", inView(func(v *View, _ any) (any, bool) {
		for _, pl := range declarable(v) {
			if v.Deck.Cards[pl.Card].Name.Aimed() {
				pl.Target = OnHero(len(v.Heroes))
				return []Play{pl}, true
			}
		}
		return nil, false
	})},
	{AskDeclare, "a card while the heroes are Confused", inView(func(v *View, _ any) (any, bool) {
		pool := v.Players[v.Who].Pool
		return []Play{{Card: firstOf(pool)}}, v.Confused && len(pool) > 0
	})},
	{AskTrade, "another type", giving(1)},
	{AskTrade, "with himself", inView(func(v *View, _ any) (any, bool) {
		pile := tradePile(v, v.Who)
		return Swap{With: v.Who, Give: firstOf(pile), Take: firstOf(pile)}, len(pile) > 0
	})},
	{AskTrade, "with no such player", inView(func(v *View, _ any) (any, bool) {
		return Swap{With: len(v.Players), Give: firstOf(tradePile(v, v.Who))}, true
	})},
	{AskTrade, "a card he does not hold", inView(func(v *View, _ any) (any, bool) {
		for q := range v.Players {
			if q != v.Who && len(tradePile(v, q)) > 0 && len(v.Draw) > 0 {
				return Swap{With: q, Give: v.Draw[0], Take: tradePile(v, q)[0]}, true
			}
		}
		return nil, false
	})},
	{AskHaste, "another type", giving("haste")},
	{AskHaste, "a card that is not Haste", inView(func(v *View, _ any) (any, bool) {
		id := cardOf(v, v.Players[v.Who].Pool, func(n Name) bool { return n != Haste })
		return id, id >= 0
	})},
	{AskHaste, "no such card", inView(func(v *View, _ any) (any, bool) { return len(v.Deck.Cards), true })},
	{AskMove, "another type", giving(Choice{})},
	{AskMove, "a card not in his hand", inView(func(v *View, _ any) (any, bool) {
		return firstOf(v.Draw), len(v.Draw) > 0
	})},
	{AskMove, "Escape once the encounter is under way", inView(func(v *View, _ any) (any, bool) {
		id := cardOf(v, v.Players[v.Who].Hand, func(n Name) bool { return n == Escape })
		return id, id >= 0 && v.Round > 0
	})},
	{AskChoose, "another type", giving(3)},
	{AskChoose, "no combat action", giving(Choice{Act: NoAct})},
	{AskChoose, "work on no task", inView(func(v *View, _ any) (any, bool) {
		return Choice{Act: Work, Target: len(v.Tasks)}, true
	})},
	{AskChoose, "an attack on his own side", inView(func(v *View, _ any) (any, bool) {
		return Choice{Act: Attack, Target: v.Who}, true
	})},
	{AskChoose, "no such character", inView(func(v *View, _ any) (any, bool) {
		return Choice{Act: Trick, Target: len(v.Heroes) + len(v.Villains)}, true
	})},
	{AskChoose, "an attack under Setback", inView(func(v *View, _ any) (any, bool) {
		t := opponent(v, true)
		return Choice{Act: Attack, Target: t}, t >= 0 && v.Setback[v.side(v.Who)]
	})},
	{AskChoose, "an opponent out of the fight", inView(func(v *View, _ any) (any, bool) {
		t := opponent(v, false)
		return Choice{Act: Taunt, Target: t}, t >= 0
	})},
	{AskSpend, "another type", giving(1)},
	{AskCancel, "another type", giving("yes")},
	{AskStrip, "another type", giving(true)},
	{AskStrip, "no such pool index", inView(func(v *View, _ any) (any, bool) {
		return len(v.Players[v.Who].Pool), true
	})},
	{AskStrip, "below none", giving(-2)},
	{AskStrip, "a subplot", inView(func(v *View, _ any) (any, bool) {
		pool := v.Players[v.Who].Pool
		i := slices.IndexFunc(pool, func(id int) bool { return v.Deck.Cards[id].Name.Kind() == Subplot })
		return i, i >= 0
	})},
	{AskCall, "another type", giving("Break")},
	{AskCall, "Player's Call itself", giving(PlayersCall)},
	{AskCall, "no margin result", giving(Flurry)},
	{AskDiscard, "another type", giving(Swap{})},
	{AskDiscard, "no such index", inView(func(v *View, _ any) (any, bool) {
		return len(v.Players[v.Who].Hand), true
	})},
	{AskDiscard, "keeping all when a card must go", inView(func(v *View, _ any) (any, bool) {
		return -1, len(v.Players[v.Who].Hand) > v.Rules.HandSize
	})},
	{AskSteps, "another type", giving(false)},
	{AskSteps, "none", giving(0)},
	{AskSteps, "more than the bar shows", func(view, _ any) (any, bool) { return view.(*TaskView).Avail + 1, true }},
	{AskSwitch, "another type", giving(0)},
	{AskLastDitch, "another type", giving("no")},
	{AskSideRoll, "another type", giving(Effect(0))},
}

// holding is cs, each holding n Possibilities.
func holding(cs []Character, n int) []Character {
	cs = slices.Clone(cs)
	for i := range cs {
		cs[i].Possibilities = n
	}
	return cs
}

// withCount is the default composition with count cards named n.
func withCount(n Name, count int) []Count {
	deck := slices.Clone(DefaultComposition())
	for i := range deck {
		if deck[i].Name == n {
			deck[i].Count = count
		}
	}
	return deck
}

func giving(bad any) func(view, ans any) (any, bool) {
	return func(any, any) (any, bool) { return bad, true }
}

func inView(f func(v *View, ans any) (any, bool)) func(view, ans any) (any, bool) {
	return func(view, ans any) (any, bool) { return f(view.(*View), ans) }
}

// open: player v.Who may still have his Critical Moment in this Act.
func open(v *View) bool { return v.Players[v.Who].CriticalAct != v.Act }

func firstOf(pile []int) int {
	if len(pile) == 0 {
		return -1
	}
	return pile[0]
}

func cardsOf(id int) []int { return []int{id} }

// cardOf is the first card of pile whose name ok accepts, or -1.
func cardOf(v *View, pile []int, ok func(Name) bool) int {
	for _, id := range pile {
		if ok(v.Deck.Cards[id].Name) {
			return id
		}
	}
	return -1
}

func declarable(v *View) []Play { return (&game{State: v.State}).Declarable(v.Who, nil) }

// tradePile is the pile player q trades from: his pool in combat, his
// hand out of it.
func tradePile(v *View, q int) []int {
	if v.Combat {
		return v.Players[q].Pool
	}
	return v.Players[q].Hand
}

// opponent is an opponent of character v.Who in the fight (active) or out
// of it, or -1.
func opponent(v *View, active bool) int {
	for t := range len(v.Heroes) + len(v.Villains) {
		if v.side(t) != v.side(v.Who) && v.char(t).Active() == active {
			return t
		}
	}
	return -1
}

// asked39 is a question a step asked through a Chooser: its kind, the
// policy's answer (a copy) and each bad answer that applies there.
type asked39 struct {
	kind Ask
	ans  any
	bad  map[int]any // by index in badAnswers
}

// keepGame is the game's state and Roller, to take a step on and put back.
type keepGame struct {
	st State
	rb []byte
}

func keepOf(g *Game, r *dice.Roller) *keepGame {
	k := &keepGame{}
	k.st.copyFrom(g.state)
	k.rb, _ = r.MarshalBinary()
	return k
}

func (k *keepGame) putBack(t *testing.T, g *Game, r *dice.Roller) {
	t.Helper()
	g.state.copyFrom(&k.st)
	if err := r.UnmarshalBinary(k.rb); err != nil {
		t.Fatal(err)
	}
}

// questions takes g's next step through a Chooser that notes each
// question the step asks (log: the noted policies' record), and puts the
// game and r back.
func questions(t *testing.T, g *Game, r *dice.Roller, log *[]Ask) []asked39 {
	t.Helper()
	k := keepOf(g, r)
	var out []asked39
	*log = (*log)[:0]
	g.Intercept(func(view, ans any) any {
		q := asked39{kind: (*log)[len(*log)-1], ans: cloneAnswer(ans), bad: map[int]any{}}
		for j, b := range badAnswers {
			if b.kind == q.kind {
				if a, ok := b.give(view, ans); ok {
					q.bad[j] = cloneAnswer(a)
				}
			}
		}
		out = append(out, q)
		return ans
	})
	if err := g.Step(r); err != nil {
		t.Fatal(err)
	}
	g.Intercept(nil)
	k.putBack(t, g, r)
	return out
}

func cloneAnswer(a any) any {
	switch x := a.(type) {
	case []int:
		return slices.Clone(x)
	case []Play:
		return slices.Clone(x)
	}
	return a
}

// refused takes g's next step, which must be refused (what says how)
// leaving no trace (simtest.Refused).
func refused(t *testing.T, g *Game, r *dice.Roller, what string, step func() error) {
	t.Helper()
	if err := simtest.Refused(g, r, step); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// A refused answer leaves no trace. At every kind of question a step asks
// (the table of the package doc), each way of answering wrongly through a
// Chooser — a value of another type, and each illegal answer of its type
// — makes the step an error that leaves the game's save and the Roller's
// bytes as they were, and that no listener hears (the questions before it
// in the step answered as the policy answers them). And each question
// asked as a step of its own (Game.Ask) refuses the same way a reply to
// another question, setting a field its question does not read, outside
// its options, illegal where the answer combines options (the cards of a
// Critical Moment, a declaration), or given with a later question of its
// step answered by the Chooser with a value of another type.
func TestRefusedAnswersLeaveNoTrace(t *testing.T) {
	seeds := uint64(3)
	if testing.Short() {
		seeds = 1
	}
	// Each built-in study, and: an encounter whose deck holds many Escape
	// cards, so that one is often in a hand as a question comes, and where
	// All-Out Defence is rolled (cautious villains take it when hurt, with
	// Possibilities left to spend on it); one whose deck holds many Opponent Fails
	// and whose characters hold no Possibilities and take no cards on
	// their defences, so that Opponent Fails is the only question after
	// the dice; one with one card of each kind, whose draw pile runs out
	// (the discards are then shuffled back in); and a task with a deck of
	// 14 cards, whose turned cards are soon shuffled back to be turned.
	escapes, fails, small, tiny := DefaultScenario(), DefaultScenario(), DefaultScenario(), Builtins()["task"]
	escapes.Deck, escapes.Rules.DefendRolls, escapes.GMPolicy = withCount(Escape, 40), true, "cautious"
	fails.Deck, fails.Rules.DefenceTakesCards = withCount(OpponentFails, 40), false
	escapes.Heroes, escapes.Villains = holding(escapes.Heroes, 20), holding(escapes.Villains, 20)
	fails.Heroes, fails.Villains = holding(fails.Heroes, 0), holding(fails.Villains, 0)
	small.Deck = deckOf(1)
	tiny.Deck = []Count{{Adrenalin, 7}, {SecondChance, 7}}
	scenarios := []Scenario{escapes, fails, small, tiny}
	for _, name := range []string{"encounter", "task", "task_in_combat", "scene", "adventure"} {
		scenarios = append(scenarios, Builtins()[name])
	}
	hits := map[string]int{}
	for _, sc := range scenarios {
		for seed := uint64(1); seed <= seeds; seed++ {
			sc.HeroPolicy = PolicyNames()[int(seed)%len(PolicyNames())]
			refuseAll(t, sc, seed, hits)
		}
	}
	if testing.Short() {
		return // one game of each: not every question comes to every way
	}
	for _, b := range badAnswers {
		if key := "chooser, " + b.kind.String() + ", " + b.name; hits[key] == 0 {
			t.Errorf("%s: never asked", key)
		}
	}
	for a := range numAsks {
		for _, way := range replyWays {
			if key := "reply, " + a.String() + ", " + way; hits[key] == 0 && applies(a, way) {
				t.Errorf("%s: never asked", key)
			}
		}
	}
	if hits["reply, a later wrong type"] == 0 {
		t.Error("no reply was refused by a later question's wrong type")
	}
}

// refuseAll plays sc from seed to its end, refusing every bad answer at
// every question of every step before taking the step.
func refuseAll(t *testing.T, sc Scenario, seed uint64, hits map[string]int) {
	g, r := startGame(t, sc, seed)
	log := new([]Ask)
	g.pol = Table{Heroes: &noted{g.pol.Heroes, log}, GM: &noted{g.pol.GM, log}}
	g.eng.Policies = g.pol
	for n := 0; !g.Done(); n++ {
		if n > 1e5 {
			t.Fatal("no end")
		}
		if testing.Short() && n%3 != 0 {
			if err := g.Step(r); err != nil {
				t.Fatal(err)
			}
			continue
		}
		qs := questions(t, g, r, log)
		for at, q := range qs {
			for _, j := range slices.Sorted(maps.Keys(q.bad)) {
				bad := q.bad[j]
				key := fmt.Sprintf("chooser, %v, %s", q.kind, badAnswers[j].name)
				refused(t, g, r, fmt.Sprintf("%s seed %d step %d: %s", sc.Study, seed, n, key), func() error {
					k := 0
					g.Intercept(func(_, ans any) any {
						if k++; k-1 == at {
							return bad
						}
						return ans
					})
					defer g.Intercept(nil)
					return g.Step(r)
				})
				hits[key]++
			}
		}
		refuseReplies(t, g, r, qs, hits)
		if err := g.Step(r); err != nil {
			t.Fatal(err)
		}
		if err := g.state.Check(); err != nil {
			t.Fatalf("step %d: %v", n, err)
		}
	}
}

// The ways a reply is refused at every question of its kind: to another
// question, setting a field its question does not read, outside its
// options (where it has a value outside them: not a yes or no, not an
// answer combining options), illegal (an answer combining options:
// Critical's cards, Declare's plays).
var replyWays = []string{"to another question", "a field its question does not read", "outside its options", "illegal"}

// applies reports whether a reply to a question of kind a can be refused
// way.
func applies(a Ask, way string) bool {
	many := a == AskCritical || a == AskDeclare
	switch way {
	case "illegal":
		return many
	case "outside its options":
		return !many && a.field() != "yes"
	}
	return true
}

// refuseReplies asks each kind of question of the next step (qs) as a
// step of its own, and refuses every bad reply to it.
func refuseReplies(t *testing.T, g *Game, r *dice.Roller, qs []asked39, hits map[string]int) {
	t.Helper()
	seen := map[Ask]bool{}
	before, _ := g.Save()
	for at, q := range qs {
		if seen[q.kind] {
			continue
		}
		seen[q.kind] = true
		k := keepOf(g, r)
		g.Ask(Heroes, Asking(q.kind))
		g.Ask(Villains, Asking(q.kind))
		if err := g.Step(r); err != nil || g.Question() == nil || g.Question().Ask != q.kind {
			t.Fatalf("the step did not stop at its %v question (%v)", q.kind, err)
		}
		bad := badReplies(g.Question(), q)
		for _, way := range slices.Sorted(maps.Keys(bad)) {
			a := bad[way]
			later := way == "a later wrong type"
			if later && (at+1 >= len(qs) || qs[at+1].kind == q.kind) {
				continue
			}
			key := fmt.Sprintf("reply, %v, %s", q.kind, way)
			if strings.HasPrefix(way, "illegal") {
				hits[fmt.Sprintf("reply, %v, illegal", q.kind)]++
			}
			if later {
				hits["reply, a later wrong type"]++
			}
			refused(t, g, r, key, func() error {
				if later {
					g.Intercept(func(any, any) any { return struct{}{} })
					defer g.Intercept(nil)
				}
				return g.Reply(r, a)
			})
			hits[key]++
		}
		g.Ask(Heroes, 0)
		g.Ask(Villains, 0)
		k.putBack(t, g, r)
		if b, _ := g.Save(); !bytes.Equal(b, before) {
			t.Fatalf("after %v: not put back", q.kind)
		}
	}
}

// badReplies are the ways of replying wrongly to question q, asked as q
// was asked through a Chooser, by way.
func badReplies(q *Question, asked asked39) map[string]Reply {
	out := map[string]Reply{"to another question": {Ask: (q.Ask + 1) % numAsks}}
	if q.Ask.field() == "yes" {
		out["a field its question does not read"] = Reply{Ask: q.Ask, Index: 1}
	} else {
		out["a field its question does not read"] = Reply{Ask: q.Ask, Yes: true}
	}
	switch q.Ask {
	case AskCritical, AskDeclare:
		for _, j := range slices.Sorted(maps.Keys(asked.bad)) {
			switch x := asked.bad[j].(type) {
			case []int:
				out["illegal: "+badAnswers[j].name] = Reply{Ask: q.Ask, Cards: x}
			case []Play:
				out["illegal: "+badAnswers[j].name] = Reply{Ask: q.Ask, Plays: x}
			}
		}
	case AskTrade:
		out["outside its options"] = Reply{Ask: q.Ask, Swap: Swap{With: len(q.Options) + 99}}
	case AskChoose:
		out["outside its options"] = Reply{Ask: q.Ask, Choice: Choice{Act: Work, Target: 99}}
	case AskCall:
		out["outside its options"] = Reply{Ask: q.Ask, Effect: Flurry}
	case AskHaste, AskMove, AskStrip, AskDiscard, AskSteps:
		out["outside its options"] = Reply{Ask: q.Ask, Index: 9999}
	}
	var policy Reply
	switch x := asked.ans.(type) {
	case []int:
		policy = Reply{Ask: q.Ask, Cards: x}
	case []Play:
		policy = Reply{Ask: q.Ask, Plays: x}
	case Swap:
		policy = Reply{Ask: q.Ask, Swap: x}
	case Choice:
		policy = Reply{Ask: q.Ask, Choice: x}
	case int:
		policy = Reply{Ask: q.Ask, Index: x}
	case bool:
		policy = Reply{Ask: q.Ask, Yes: x}
	case Effect:
		policy = Reply{Ask: q.Ask, Effect: x}
	}
	out["a later wrong type"] = policy
	return out
}

// stepAllocs takes n steps of g, putting the game back in place to start
// when it ends.
func stepAllocs(t *testing.T, g *Game, r *dice.Roller, start *State, n int) func() {
	return func() {
		for range n {
			if g.Done() {
				g.state.copyFrom(start)
			}
			if err := g.Step(r); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// mallocs is the number of allocations f makes, counted as
// testing.AllocsPerRun counts them.
func mallocs(f func()) uint64 {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	before := m.Mallocs
	f()
	runtime.ReadMemStats(&m)
	return m.Mallocs - before
}

// A hand-played step allocates nothing, under the scenario's policies and
// through a Chooser, whose answers it hands over boxed once per game, but
// for two things: a trade of two cards, boxed as it is handed over (no
// trade, the common answer, is boxed once), and the Roller's bytes, which
// a step that may come to a question after its dice keeps to put back
// (undo.go): they allocate as long as a dice.Roller saves itself only
// into new bytes. Runs of 100 steps are measured whole, so that one
// allocation in a hundred steps shows; the Chooser counts the trades and
// the steps that keep the Roller (an action whose actor or target may be
// asked after its dice: asksLate).
func TestStepsAllocateNothing(t *testing.T) {
	r := dice.NewSeeded(39)
	plain, _ := startGame(t, DefaultScenario(), 39)
	var start State
	start.copyFrom(plain.state)
	run := stepAllocs(t, plain, r, &start, 100)
	run() // the buffers grow to size once
	if a := testing.AllocsPerRun(20, run); a != 0 {
		t.Errorf("100 steps under the scenario's policies allocate %v times", a)
	}

	g, _ := startGame(t, DefaultScenario(), 39)
	marks, trades := 0, 0
	g.Intercept(func(view, ans any) any {
		switch a := ans.(type) {
		case Choice:
			if v := view.(*View); (&game{State: v.State}).asksLate(v.Who, a) {
				marks++
			}
		case Swap:
			if a.With != -1 {
				trades++
			}
		}
		return ans
	})
	run = stepAllocs(t, g, r, &start, 100)
	run()
	perSave := uint64(testing.AllocsPerRun(20, func() { _ = g.state.lend.keepRoller(r) }))
	if perSave != 0 {
		t.Errorf("keeping the Roller to put back allocates %d times", perSave)
	}
	// As testing.AllocsPerRun, the count per run of 100 steps rounds down.
	const runs = 20
	marks, trades = 0, 0
	n := mallocs(func() {
		for range runs {
			run()
		}
	})
	if allowed := uint64(marks)*perSave + uint64(trades); n > allowed && (n-allowed)/runs > 0 {
		t.Errorf("%d runs of 100 steps through a Chooser allocate %d times: %d trades, %d saves of the Roller %d times each", runs, n, trades, marks, perSave)
	}
	if marks == 0 {
		t.Error("no action was kept to undo")
	}

	// Every question of both sides asked as a step and answered
	// (Game.Reply).
	asks, _ := startGame(t, DefaultScenario(), 39)
	asks.Ask(Heroes, AskAll)
	asks.Ask(Villains, AskAll)
	var begin State
	begin.copyFrom(asks.state)
	kr := dice.NewSeeded(39)
	replies := 0
	run = replyAllocs(t, asks, kr, &begin, 100, &replies)
	for range 30 {
		run() // the buffers grow to size over two games
	}
	replies = 0
	if a := testing.AllocsPerRun(20, run); a != 0 {
		t.Errorf("100 steps with every question asked as a step and replied to allocate %v times", a)
	}
	if replies < 100 {
		t.Errorf("%d replies in the steps measured: the questions are not asked as steps", replies)
	}
}

// replyAllocs takes n steps of g, replying to each question it asks as a
// step (replyOf) and counting the replies, putting the game back in place
// to start when it ends.
func replyAllocs(t *testing.T, g *Game, r *dice.Roller, start *State, n int, replies *int) func() {
	return func() {
		for range n {
			if g.Done() {
				g.state.copyFrom(start)
			}
			var err error
			if q := g.Question(); q != nil {
				err = g.Reply(r, replyOf(q))
				*replies++
			} else {
				err = g.Step(r)
			}
			if err != nil {
				t.Fatal(err)
			}
		}
	}
}

// A reply that stops at the step's next question leaves the game as the
// step found it, and the Roller where it stood, in every built-in
// scenario with every question of both sides asked as a step: the step
// taken again puts back what it changed before that question, as a step
// stopped at its first question does.
func TestReplyStoppedLeavesTheStepUntaken(t *testing.T) {
	stopped := 0
	for name, sc := range Builtins() {
		g, r := startGame(t, sc, 7)
		g.Ask(Heroes, AskAll)
		g.Ask(Villains, AskAll)
		for n := 0; !g.Done(); n++ {
			if n > 1e5 {
				t.Fatalf("%s: no end", name)
			}
			q := g.Question()
			if q == nil {
				if err := g.Step(r); err != nil {
					t.Fatalf("%s step %d: %v", name, n, err)
				}
				continue
			}
			g.state.Question = nil
			before, roller := mustSave(t, g.state), mustRoller(t, r)
			g.state.Question = q
			if err := g.Reply(r, replyOf(q)); err != nil {
				t.Fatalf("%s step %d: %v", name, n, err)
			}
			if next := g.Question(); next != nil {
				stopped++
				g.state.Question = nil
				if !bytes.Equal(mustSave(t, g.state), before) || !bytes.Equal(mustRoller(t, r), roller) {
					t.Fatalf("%s step %d: the reply stopped at %v, leaving a trace of its step", name, n, next.Ask)
				}
				g.state.Question = next
			}
		}
	}
	if stopped == 0 {
		t.Error("no reply stopped at a question")
	}
}

func mustRoller(t *testing.T, r *dice.Roller) []byte {
	t.Helper()
	b, err := r.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A reply to a game changed by hand since its question was asked is
// taken, or refused leaving no trace. A question asked before its step
// acts (all but the late ones) is answered without the whole game kept:
// the step, taken again, stops where it would act if it has not come to
// the question with every answer taken (game.mustStop), so each place a
// step begins to act must ask it. At every question of every step, the
// game is changed in ways that send the step taken again elsewhere (into
// each kind of step: the fight's start, a round's start and end, the
// declarations, a move, another character's action, a study's next
// stage), or the answers given before the question are changed, and the
// question answered with an option it lists.
func TestRepliesToAChangedGame(t *testing.T) {
	scenarios := []Scenario{DefaultScenario()}
	for _, name := range []string{"task", "task_in_combat", "scene", "adventure"} {
		scenarios = append(scenarios, Builtins()[name])
	}
	hits := map[string]int{}
	for _, sc := range scenarios {
		g, r := startGame(t, sc, 7)
		for n := 0; !g.Done(); n++ {
			if n > 1e5 {
				t.Fatal("no end")
			}
			if !testing.Short() || n%4 == 0 {
				replyChanged(t, g, r, fmt.Sprintf("%s step %d", sc.Study, n), hits)
			}
			if err := g.Step(r); err != nil {
				t.Fatal(err)
			}
		}
	}
	if hits["refused before acting"] == 0 || hits["taken"] == 0 {
		t.Errorf("replies to changed games: %v", hits)
	}
	t.Log(hits)
	if testing.Short() {
		return
	}
	for _, ch := range handChanges {
		if hits[ch.name] == 0 {
			t.Errorf("%s: never left a valid game to reply to", ch.name)
		}
	}
}

// handChanges change a game by hand while a question waits.
var handChanges = []struct {
	name   string
	change func(s *State)
}{
	{"out of combat", func(s *State) { s.Combat = !s.Combat }},
	{"between rounds", func(s *State) { s.Phase = Between }},
	{"declaring", func(s *State) { s.Phase = Declaring }},
	{"acting", func(s *State) { s.Phase = Acting }},
	{"all declared", func(s *State) {
		for p := range s.Players {
			s.Players[p].Declared = true
		}
	}},
	{"a move offered", func(s *State) {
		for p := range s.Players {
			s.Players[p].MayMove, s.Players[p].Moved = true, false
		}
	}},
	{"the next to act gone", func(s *State) {
		if len(s.Queue) > 0 {
			s.Queue = s.Queue[1:]
		}
	}},
	{"the fight over", func(s *State) { s.Outcome = HeroesWin }},
	{"the pools emptied, no Possibilities left", func(s *State) {
		for p := range s.Players {
			s.Discard = append(s.Discard, s.Players[p].Pool...)
			s.Players[p].Pool = s.Players[p].Pool[:0]
		}
		for ci := range len(s.Heroes) + len(s.Villains) {
			s.char(ci).Possibilities = 0
		}
	}},
	{"the next stage", func(s *State) {
		if s.Plan != nil && s.Plan.Stage < StageDone {
			s.Plan.Stage++
		}
	}},
	{"the action given a defence, no Possibilities left", func(s *State) {
		q := *s.Question
		q.Given = slices.Clone(q.Given)
		for i := range q.Given {
			if q.Given[i].Ask == AskChoose {
				q.Given[i].Choice = Choice{Act: Defend}
			}
		}
		s.Question = &q
		for ci := range len(s.Heroes) + len(s.Villains) {
			s.char(ci).Possibilities = 0
		}
	}},
	{"the reply given before it", func(s *State) {
		q := *s.Question
		q.Given = append(slices.Clip(q.Given), replyOf(&q))
		s.Question = &q
	}},
	{"an answer given dropped", func(s *State) {
		if q := *s.Question; len(q.Given) > 0 {
			q.Given = q.Given[:len(q.Given)-1]
			s.Question = &q
		}
	}},
	{"an answer given twice", func(s *State) {
		if q := *s.Question; len(q.Given) > 0 {
			q.Given = append(slices.Clip(q.Given), q.Given[len(q.Given)-1])
			s.Question = &q
		}
	}},
}

// replyChanged stops g's next step at each question it asks before it
// acts, changes the game by each of handChanges that leaves it a valid
// game, and replies; then puts the game back.
func replyChanged(t *testing.T, g *Game, r *dice.Roller, what string, hits map[string]int) {
	t.Helper()
	k := keepOf(g, r)
	defer k.putBack(t, g, r)
	g.Ask(Heroes, AskAll)
	g.Ask(Villains, AskAll)
	defer g.Ask(Heroes, 0)
	defer g.Ask(Villains, 0)
	for depth := 0; depth < 8; depth++ {
		if depth == 0 {
			if err := g.Step(r); err != nil {
				t.Fatal(err)
			}
		}
		q := g.Question()
		if q == nil || q.Ask.late() {
			return
		}
		// The question as asked, kept apart from the buffers the replies
		// write the next questions into.
		q = cloneQuestion(t, q)
		g.state.Question = q
		at := keepOf(g, r)
		for _, ch := range handChanges {
			ch.change(g.state)
			if g.state.Check() == nil {
				replyOnce(t, g, r, fmt.Sprintf("%s, %v, %s", what, q.Ask, ch.name), ch.name, hits)
			}
			at.putBack(t, g, r)
			g.state.Question = q
		}
		if err := g.Reply(r, replyOf(g.Question())); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
}

// replyOnce replies to g's question: taken, or refused leaving no trace.
func replyOnce(t *testing.T, g *Game, r *dice.Roller, what, change string, hits map[string]int) {
	t.Helper()
	var err error
	check := simtest.Refused(g, r, func() error {
		err = g.Reply(r, replyOf(g.Question()))
		return err
	})
	hits[change]++
	switch {
	case err == nil:
		hits["taken"]++
	case check != nil:
		t.Fatalf("%s: %v", what, check)
	case strings.Contains(err.Error(), "comes to act after"):
		hits["refused before acting"]++
		hits[what[strings.Index(what, ", ")+2:]]++
	}
}

// cloneQuestion is a copy of q sharing nothing with it.
func cloneQuestion(t *testing.T, q *Question) *Question {
	t.Helper()
	b, err := json.Marshal(q)
	if err != nil {
		t.Fatal(err)
	}
	c := new(Question)
	if err := json.Unmarshal(b, c); err != nil {
		t.Fatal(err)
	}
	return c
}
