package dramadeck

import (
	"bytes"
	"encoding/json"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/stakesrpg/stakes/dice"
)

// deal begins an encounter as a Runner's trial does: the deck shuffled,
// every player's hand dealt into play, combat started.
func deal(t testing.TB, g *game, r *dice.Roller, dramatic bool) {
	t.Helper()
	g.Shuffle(r)
	for p := range g.State.Players {
		if err := g.EnterPlay(r, p); err != nil {
			t.Fatal(err)
		}
	}
	if err := g.StartCombat(dramatic); err != nil {
		t.Fatal(err)
	}
}

// testGame: two heroes, one villain, a deck of two of every card with
// generated GM sides; all cards in the draw pile in deck order.
func testGame(t *testing.T) *game {
	t.Helper()
	var comp []Count
	for _, n := range Names() {
		comp = append(comp, Count{n, 2})
	}
	d, err := Generate(comp, 1)
	if err != nil {
		t.Fatal(err)
	}
	s := DefaultScenario()
	g, err := newGame(DefaultRules(), d, s.Heroes[:2], s.Villains[:1])
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// give moves a card of name n from the draw pile to player p's hand or pool.
func give(t *testing.T, g *game, p int, n Name, pool bool) int {
	t.Helper()
	for i, id := range g.State.Draw {
		if g.State.Deck.Cards[id].Name == n {
			g.State.Draw = remove(g.State.Draw, i)
			if pool {
				g.State.Players[p].Pool = append(g.State.Players[p].Pool, id)
			} else {
				g.State.Players[p].Hand = append(g.State.Players[p].Hand, id)
			}
			return id
		}
	}
	t.Fatalf("no %v left in the draw pile", n)
	return -1
}

// stackCard puts a card with the given line on the action stack.
func stackCard(t *testing.T, g *game, l Line, acts [2]Act) int {
	t.Helper()
	id := g.State.Draw[0]
	g.State.Draw = remove(g.State.Draw, 0)
	g.State.Deck.Cards[id].Standard = l
	g.State.Deck.Cards[id].Approved = acts
	g.State.Stack = append(g.State.Stack, id)
	g.State.Line = l
	return id
}

func snapshot(t testing.TB, s *State) State {
	t.Helper()
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var out State
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// mustFail runs op, wants an error, and checks the state did not change.
func mustFail(t *testing.T, g *game, what string, op func() error) {
	t.Helper()
	before := snapshot(t, g.State)
	err := op()
	if err == nil {
		t.Errorf("%s: no error", what)
		return
	}
	t.Logf("%s: %v", what, err)
	if d := stateDiff(t, before, g.State); d != "" {
		t.Errorf("%s: state changed on error (-before +after):\n%s", what, d)
	}
}

// stateDiff is the difference between two states as saved, "" if none:
// the JSON is compared first, the (slower) diff made only on a change.
func stateDiff(t testing.TB, a State, b *State) string {
	t.Helper()
	ja, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	jb, err := json.Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(ja, jb) {
		return ""
	}
	return cmp.Diff(a, *b, cmpopts.IgnoreUnexported(State{}))
}

func fixed(faces ...int) *dice.Roller { return dice.Scripted(faces...) }

func mustPolicy(t *testing.T, name string) Policy {
	t.Helper()
	p, err := PolicyByName(name)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// unkillable returns s with every character's HP (and its maximum) so high
// that no fight ends, on copies of its cast, so rounds can be played again
// and again.
func unkillable(s Scenario) Scenario {
	s.Heroes = append([]Character(nil), s.Heroes...)
	s.Villains = append([]Character(nil), s.Villains...)
	for i := range s.Heroes {
		s.Heroes[i].MaxHP, s.Heroes[i].HP = 1e6, 1e6
	}
	for i := range s.Villains {
		s.Villains[i].MaxHP, s.Villains[i].HP = 1e6, 1e6
	}
	return s
}

// declaring opens the declarations of a round on an encounter already
// begun, as BeginRound would after its flip (for tests that set the
// action stack by hand).
func declaring(g *game) {
	g.State.Phase = Declaring
	for p := range g.State.Players {
		g.State.Players[p].Declared = false
	}
}

// turnOf makes it character ci's turn to act, as though everyone before
// it had acted.
func turnOf(g *game, ci int) {
	g.State.Phase = Acting
	g.State.Queue = append(g.State.Queue[:0], ci)
}

// newGame is NewState with a game over it, for tests that take the
// steps by hand.
func newGame(rules Rules, d *Deck, heroes, villains []Character) (*game, error) {
	s, err := NewState(rules, d, heroes, villains)
	if err != nil {
		return nil, err
	}
	return &game{State: s}, nil
}

// mustTrial is rn.Trial, failing the test on an error.
func mustTrial(t testing.TB, rn *Runner, r *dice.Roller, m []int) int {
	t.Helper()
	k, err := rn.Trial(r, m)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// restoreGame is restoreState with a game over the state read.
func restoreGame(b []byte) (*game, error) {
	s, err := restoreState(b)
	if err != nil {
		return nil, err
	}
	return &game{State: s}, nil
}

// deckOf is a composition of count of every card but those named.
func deckOf(count int, except ...Name) []Count {
	var comp []Count
	for _, n := range Names() {
		if !slices.Contains(except, n) {
			comp = append(comp, Count{n, count})
		}
	}
	return comp
}
