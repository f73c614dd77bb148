package dramadeck

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func combatGame(t *testing.T) *game {
	g := testGame(t)
	if err := g.StartCombat(false); err != nil {
		t.Fatal(err)
	}
	g.State.Round = 1
	stackCard(t, g, Line{First: Heroes}, [2]Act{Attack, Taunt})
	g.State.Phase = Declaring // as after BeginRound's flip
	return g
}

// Every immediate and deferred card played from the pool changes the
// state as its section 1.1/1.2 entry says.
func TestCardEffects(t *testing.T) {
	tests := []struct {
		name  Name
		setup func(g *game, pl *Play)
		check func(t *testing.T, g *game)
	}{
		{Action, nil, func(t *testing.T, g *game) { want(t, g.State.Heroes[0].Status.RoundBonus, 3) }},
		{Adrenalin, nil, func(t *testing.T, g *game) { want(t, g.State.Heroes[0].Status.Next[Physical], 3) }},
		{Willpower, nil, func(t *testing.T, g *game) { want(t, g.State.Heroes[0].Status.Next[Intellectual], 3) }},
		{Presence, nil, func(t *testing.T, g *game) { want(t, g.State.Heroes[0].Status.Next[Interpersonal], 3) }},
		{Supporter, func(g *game, pl *Play) { pl.Target = OnHero(1) }, func(t *testing.T, g *game) { want(t, g.State.Heroes[1].Status.Support, 3) }},
		{CoupDeGrace, nil, func(t *testing.T, g *game) { want(t, g.State.Heroes[0].Status.Coup, 1) }},
		{Drama, nil, func(t *testing.T, g *game) { want(t, g.State.Heroes[0].Status.CardPoss, 1) }},
		{Hero, nil, func(t *testing.T, g *game) { want(t, g.State.Heroes[0].Status.CardPoss, 1) }},
		{Escape, nil, func(t *testing.T, g *game) { want(t, int(g.State.Outcome), int(Escaped)) }},
		{Glory, func(g *game, pl *Play) { g.State.Heroes[0].Status.Crit = true }, func(t *testing.T, g *game) { want(t, g.State.Glory, 1) }},
		{Haste, nil, func(t *testing.T, g *game) { want(t, g.State.Heroes[0].Status.Extra, 1) }},
		{Idea, nil, func(t *testing.T, g *game) { want(t, g.State.Players[0].Ideas, 1) }},
		{Monologue, nil, func(t *testing.T, g *game) {
			want(t, b2i(g.State.Monologue), 1)
			if err := g.CheckChoice(2, Choice{Act: Attack, Target: 0}); err == nil {
				t.Error("a villain acted during a Monologue")
			}
		}},
		{OpponentFails, nil, func(t *testing.T, g *game) { want(t, g.State.Heroes[0].Status.Fails, 1) }},
		{SecondChance, nil, func(t *testing.T, g *game) { want(t, g.State.Heroes[0].Status.Luck, 1) }},
		{SeizeInitiative, nil, func(t *testing.T, g *game) { want(t, b2i(g.State.Retain), 1) }},
		{Alertness, nil, func(t *testing.T, g *game) {
			want(t, g.State.Heroes[0].Status.Alert, 1)
			res, err := g.Search(fixed(), 0, 3)
			if err != nil || !res.Success || g.State.Heroes[0].Status.Alert != 0 {
				t.Errorf("Alertness search = %+v, %v; want automatic success", res, err)
			}
		}},
		{Connection, nil, func(t *testing.T, g *game) { want(t, g.State.Heroes[0].Status.Connections, 1) }},
	}
	for _, tt := range tests {
		t.Run(tt.name.String(), func(t *testing.T) {
			g := combatGame(t)
			id := give(t, g, 0, tt.name, true)
			pl := Play{Card: id}
			if tt.setup != nil {
				tt.setup(g, &pl)
			}
			declaring(g)
			if err := g.Declare(fixed(), 0, []Play{pl}); err != nil {
				t.Fatal(err)
			}
			if g.State.Discard[len(g.State.Discard)-1] != id || len(g.State.Players[0].Pool) != 0 {
				t.Errorf("played card not on the discards")
			}
			tt.check(t, g)
			if err := g.CheckCards(); err != nil {
				t.Error(err)
			}
		})
	}
}

func want(t *testing.T, got, w int) {
	t.Helper()
	if got != w {
		t.Errorf("got %d, want %d", got, w)
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func TestLeadershipMasterPlanRally(t *testing.T) {
	g := combatGame(t)
	lead := give(t, g, 0, Leadership, true)
	a := give(t, g, 0, Action, false)
	b := give(t, g, 0, Hero, true)
	// Leadership: two cards to player 1's pool, then refill to four.
	r := fixed()
	declaring(g)
	err := g.Declare(r, 0, []Play{{Card: lead, Cards: [2]int{a, b}, N: 2, ToPlayer: 1, ToPool: true, Why: "rally to the captain"}})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]int{a, b}, g.State.Players[1].Pool); d != "" {
		t.Errorf("player 1 pool (-want +got):\n%s", d)
	}
	want(t, len(g.State.Players[0].Hand), 4)

	// Master Plan takes the top discard (the Leadership) into hand.
	g.State.Round++
	g.State.Players[0].Declared = false
	mp := give(t, g, 0, MasterPlan, true)
	declaring(g)
	if err := g.Declare(r, 0, []Play{{Card: mp}}); err != nil {
		t.Fatal(err)
	}
	if h := g.State.Players[0].Hand; h[len(h)-1] != lead {
		t.Errorf("Master Plan took %d, want the Leadership %d", h[len(h)-1], lead)
	}
	if d := g.State.Discard; d[len(d)-1] != mp {
		t.Errorf("Master Plan should be the top discard now")
	}
	// Rally: every hand refilled to four.
	g.State.Players[0].Declared = false
	rally := give(t, g, 0, Rally, true)
	declaring(g)
	if err := g.Declare(r, 0, []Play{{Card: rally}}); err != nil {
		t.Fatal(err)
	}
	for p := range g.State.Players {
		if n := len(g.State.Players[p].Hand); n < 4 {
			t.Errorf("player %d hand %d after Rally, want >= 4", p, n)
		}
	}
	if err := g.CheckCards(); err != nil {
		t.Error(err)
	}
}

func TestSubplotsCampaignMartyrAndAwards(t *testing.T) {
	g := combatGame(t)
	rom := give(t, g, 0, Romance, true)
	camp := give(t, g, 0, Campaign, true)
	give(t, g, 1, Drama, false)
	give(t, g, 1, Drama, true)
	declaring(g)
	if err := g.Declare(fixed(), 0, []Play{{Card: camp, Cards: [2]int{rom}, N: 1}}); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]int{rom}, g.State.Players[0].Permanent); d != "" {
		t.Errorf("permanent (-want +got):\n%s", d)
	}
	// End of Act: the subplot in play pays one Possibility.
	before := g.State.Heroes[0].Possibilities
	g.EndAct()
	want(t, g.State.Heroes[0].Possibilities, before+1)
	want(t, g.State.Act, 2)
	// End of scene: the subplot stays in the pool.
	if err := g.EndScene(fixed(), mustPolicy(t, "passive")); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]int{rom}, g.State.Players[0].Pool); d != "" {
		t.Errorf("subplot left the pool at scene end (-want +got):\n%s", d)
	}
	// Glory played once: everyone gets 3; player 1 holds two Drama worth 3 each.
	g.State.Glory = 1
	aw := g.EndAdventure()
	if d := cmp.Diff([]int{3, 9}, aw); d != "" {
		t.Errorf("awards (-want +got):\n%s", d)
	}
	// Martyr: victory at the cost of the PC's life.
	g2 := combatGame(t)
	m := give(t, g2, 1, Martyr, true)
	if err := g2.Declare(fixed(), 1, []Play{{Card: m}}); err != nil {
		t.Fatal(err)
	}
	if g2.State.Outcome != HeroesWin || !g2.State.Heroes[1].Status.Dead {
		t.Errorf("Martyr: outcome %v, dead %v", g2.State.Outcome, g2.State.Heroes[1].Status.Dead)
	}
}

func TestSeizeInitiativeFlip(t *testing.T) {
	g := combatGame(t)
	id := give(t, g, 0, SeizeInitiative, true)
	n := len(g.State.Stack)
	declaring(g)
	if err := g.Declare(fixed(), 0, []Play{{Card: id, Flip: true}}); err != nil {
		t.Fatal(err)
	}
	want(t, len(g.State.Stack), n+1)
	top := g.State.Stack[len(g.State.Stack)-1]
	if g.State.Line != g.State.Deck.Cards[top].Standard {
		t.Errorf("line not read from the new card")
	}
	// Retain: the next round keeps the same card.
	g2 := combatGame(t)
	id = give(t, g2, 0, SeizeInitiative, true)
	if err := g2.Declare(fixed(), 0, []Play{{Card: id}}); err != nil {
		t.Fatal(err)
	}
	n = len(g2.State.Stack)
	passive := mustPolicy(t, "passive")
	if err := g2.Round(fixed(), passive, passive); err != nil { // the rest of the round
		t.Fatal(err)
	}
	if err := g2.BeginRound(fixed()); err != nil {
		t.Fatal(err)
	}
	want(t, len(g2.State.Stack), n)
	want(t, b2i(g2.State.Retain), 0)
}

// End of a Scene: pool (not subplots) to hand, discard down to four, or one
// at exactly four if wished, then draw up to four.
func TestEndScene(t *testing.T) {
	g := combatGame(t)
	for _, n := range []Name{Action, Adrenalin, Idea} {
		give(t, g, 0, n, false)
	}
	for _, n := range []Name{Hero, Haste, Nemesis} {
		give(t, g, 0, n, true)
	}
	for _, n := range []Name{Willpower, Presence, Alertness, Connection} {
		give(t, g, 1, n, false)
	}
	if err := g.EndScene(fixed(), mustPolicy(t, "default")); err != nil {
		t.Fatal(err)
	}
	p0, p1 := g.State.Players[0], g.State.Players[1]
	want(t, len(p0.Hand), 4)
	want(t, len(p0.Pool), 1) // Nemesis stays
	want(t, len(p1.Hand), 4) // exactly four: discarded a weak card, drew one
	if indexOf(g.State.Discard, p1.Hand[0]) >= 0 {
		t.Error("card in hand and discards")
	}
	if g.State.Combat || len(g.State.Stack) != 0 {
		t.Error("combat should end with the scene, action stack discarded")
	}
	want(t, g.State.Scene, 2)
	want(t, len(g.State.Discard), 3) // the stack card, one of five from player 0, one optional from player 1
	if err := g.CheckCards(); err != nil {
		t.Error(err)
	}
}

func TestReshuffleWhenDrawRunsOut(t *testing.T) {
	g := testGame(t)
	s := g.State
	s.Discard = append(s.Discard, s.Draw[2:]...)
	s.Draw = s.Draw[:2]
	var tr Trace
	g.Sink = tr.Add
	r := fixed(make([]int, 200)...)
	_ = r
	rr := fixed()
	for range 3 {
		if err := g.Draw(rr, 0); err != nil {
			t.Fatal(err)
		}
	}
	want(t, len(s.Players[0].Hand), 3)
	want(t, len(s.Discard), 0)
	found := false
	for _, e := range tr.Events {
		found = found || e.Kind == EvReshuffle
	}
	if !found {
		t.Error("no reshuffle event")
	}
	if err := g.CheckCards(); err != nil {
		t.Error(err)
	}
}

// Out of combat: play from hand, trade between hands in equal numbers.
func TestOutOfCombat(t *testing.T) {
	g := testGame(t)
	a := give(t, g, 0, Willpower, false)
	b := give(t, g, 1, Presence, false)
	c := give(t, g, 0, Connection, false)
	if err := g.Trade(0, 1, []int{a}, []int{b}); err != nil {
		t.Fatal(err)
	}
	if indexOf(g.State.Players[0].Hand, b) < 0 || indexOf(g.State.Players[1].Hand, a) < 0 {
		t.Error("trade did not swap")
	}
	n := len(g.State.Draw)
	if err := g.PlayFromHand(fixed(), 0, Play{Card: c}); err != nil {
		t.Fatal(err)
	}
	want(t, len(g.State.Draw), n) // no draws out of combat
	want(t, g.State.Heroes[0].Status.Connections, 1)
}

func TestPlayerSideErrors(t *testing.T) {
	g := combatGame(t)
	inHand := give(t, g, 0, Action, false)
	inPool := give(t, g, 0, Adrenalin, true)
	other := give(t, g, 1, Hero, true)
	esc := give(t, g, 0, Escape, false)
	r := fixed()
	mustFail(t, g, "play a card not held", func() error { return g.Declare(r, 0, []Play{{Card: other}}) })
	mustFail(t, g, "play from hand in combat", func() error { return g.Declare(r, 0, []Play{{Card: inHand}}) })
	mustFail(t, g, "PlayFromHand in combat", func() error { return g.PlayFromHand(r, 0, Play{Card: inHand}) })
	mustFail(t, g, "unequal trade", func() error { return g.Trade(0, 1, []int{inPool}, nil) })
	mustFail(t, g, "trade hand card in combat", func() error { return g.Trade(0, 1, []int{inHand}, []int{other}) })
	mustFail(t, g, "move without a scene-moving action", func() error { return g.MoveToPool(0, inHand) })
	mustFail(t, g, "same card twice", func() error {
		return g.Declare(r, 0, []Play{{Card: inPool}, {Card: inPool}})
	})
	mustFail(t, g, "Supporter on self", func() error {
		id := g.State.Players[0].Pool[0]
		g.State.Deck.Cards[id].Name = Supporter
		defer func() { g.State.Deck.Cards[id].Name = Adrenalin }()
		return g.Declare(r, 0, []Play{{Card: id}})
	})
	if id := give(t, g, 0, Glory, true); true {
		mustFail(t, g, "Glory without a critical success", func() error { return g.Declare(r, 0, []Play{{Card: id}}) })
		takeBack(g, 0, id)
	}
	// A Critical Moment: once per Act.
	declaring(g)
	if err := g.CriticalMoment(r, 0, []int{inHand}, []Play{{Card: inHand}, {Card: inPool}}); err != nil {
		t.Fatal(err)
	}
	want(t, g.State.Heroes[0].Status.RoundBonus, 3)
	g.State.Players[0].Declared = false
	mustFail(t, g, "second Critical Moment in an Act", func() error { return g.CriticalMoment(r, 0, nil, nil) })
	mustFail(t, g, "declaring twice in a round", func() error {
		g.State.Players[0].Declared = true
		defer func() { g.State.Players[0].Declared = false }()
		return g.Declare(r, 0, nil)
	})
	g.State.Act++
	a, b := give(t, g, 0, Adrenalin, true), give(t, g, 0, Supporter, true)
	mustFail(t, g, "Critical Moment on two characters", func() error {
		return g.CriticalMoment(r, 0, nil, []Play{{Card: a}, {Card: b, Target: OnHero(1)}})
	})
	takeBack(g, 0, a)
	takeBack(g, 0, b)
	// Escape only as the first card into the pool.
	g.State.Players[0].MayMove = true
	g.State.Players[0].Pooled = 1
	mustFail(t, g, "Escape not first", func() error { return g.MoveToPool(0, esc) })
	g.State.Confused = true
	mustFail(t, g, "Confused", func() error { return g.Declare(r, 1, []Play{{Card: other}}) })
	g.State.Confused = false
	if id := give(t, g, 1, Leadership, true); true {
		mustFail(t, g, "Leadership without explanation", func() error { return g.Declare(r, 1, []Play{{Card: id, Cards: [2]int{other}, N: 1}}) })
		takeBack(g, 1, id)
	}
	if id := give(t, g, 1, Romance, true); true {
		mustFail(t, g, "subplot played", func() error { return g.Declare(r, 1, []Play{{Card: id}}) })
		takeBack(g, 1, id)
	}
	mustFail(t, g, "no such player", func() error { return g.Declare(r, 5, nil) })
	mustFail(t, g, "no such card", func() error { return g.Declare(r, 1, []Play{{Card: 9999}}) })
	if err := g.CheckCards(); err != nil {
		t.Error(err)
	}
}

func takeBack(g *game, p, id int) {
	pl := &g.State.Players[p]
	if i := indexOf(pl.Pool, id); i >= 0 {
		pl.Pool = remove(pl.Pool, i)
	} else if i := indexOf(pl.Hand, id); i >= 0 {
		pl.Hand = remove(pl.Hand, i)
	}
	g.State.Draw = append(g.State.Draw, id)
}

// Over four: discard down to four and no further, even if the policy would
// like to drop another weak card.
func TestEndSceneNoExtraDiscard(t *testing.T) {
	g := testGame(t)
	for _, n := range []Name{Idea, Idea, Connection, Alertness, Hero} {
		give(t, g, 0, n, false)
	}
	if err := g.EndScene(fixed(), mustPolicy(t, "default")); err != nil {
		t.Fatal(err)
	}
	want(t, len(g.State.Discard), 1)
	want(t, len(g.State.Players[0].Hand), 4)
}

// TestValueTable: the policies' card ranking read from the tables equals
// the ranking rules for every name, holding Drama or not.
func TestValueTable(t *testing.T) {
	keep, spend := &Style{KeepDrama: true}, &Style{}
	for n := Name(0); n <= numNames; n++ {
		if got, want := keep.value(n), cardValue(n, true); got != want {
			t.Errorf("value(%v) keeping Drama = %d, want %d", n, got, want)
		}
		if got, want := spend.value(n), cardValue(n, false); got != want {
			t.Errorf("value(%v) = %d, want %d", n, got, want)
		}
	}
	if keep.value(Drama) != 1 || spend.value(Drama) != 12 || keep.value(Escape) != 20 {
		t.Errorf("Drama %d/%d, Escape %d: want 1/12, 20", keep.value(Drama), spend.value(Drama), keep.value(Escape))
	}
}

// Play is one type for every card, validated against the card played: a
// field the card does not read (Target off the cards that wait on a hero,
// Flip off Seize Initiative, Cards and N off Leadership and Campaign or
// past N, ToPlayer, ToPool and Why off Leadership) is refused, naming it,
// and changes nothing.
func TestPlayFieldsACardDoesNotReadAreRefused(t *testing.T) {
	stray := []struct {
		field string
		set   func(*Play)
		reads func(Name) bool
	}{
		{"target", func(pl *Play) { pl.Target = OnHero(1) }, Name.Aimed},
		{"flip", func(pl *Play) { pl.Flip = true }, func(n Name) bool { return n == SeizeInitiative }},
		{"cards", func(pl *Play) { pl.Cards[0] = 3 }, func(Name) bool { return false }}, // N is 0
		{"n", func(pl *Play) { pl.N = 1 }, func(n Name) bool { return n == Leadership || n == Campaign }},
		{"to_player", func(pl *Play) { pl.ToPlayer = 1 }, func(n Name) bool { return n == Leadership }},
		{"to_pool", func(pl *Play) { pl.ToPool = true }, func(n Name) bool { return n == Leadership }},
		{"why", func(pl *Play) { pl.Why = "because" }, func(n Name) bool { return n == Leadership }},
	}
	for _, n := range Names() {
		for _, sf := range stray {
			g := combatGame(t)
			id := give(t, g, 0, n, true)
			pl := Play{Card: id}
			sf.set(&pl)
			before, _ := g.State.Save()
			err := g.Declare(fixed(), 0, []Play{pl})
			refused := err != nil && strings.Contains(err.Error(), "does not read")
			if refused == sf.reads(n) {
				t.Errorf("%v with %s set: %v (the card reads it: %v)", n, sf.field, err, sf.reads(n))
			}
			if after, _ := g.State.Save(); refused && string(before) != string(after) {
				t.Errorf("%v with %s set: refused, but the state changed", n, sf.field)
			}
		}
	}
	// Leadership's second card past N = 1.
	g := combatGame(t)
	lead, act := give(t, g, 0, Leadership, true), give(t, g, 0, Action, false)
	pass := Play{Card: lead, Cards: [2]int{act, 7}, N: 1, ToPlayer: 1, Why: "take this"}
	if err := g.Declare(fixed(), 0, []Play{pass}); err == nil || !strings.Contains(err.Error(), "past n") {
		t.Errorf("Leadership with a card past N: %v", err)
	}
}

// The cards a Play may aim (Name.Aimed) are exactly those whose effect
// waits on the target hero's Status (Rules.boost).
func TestAimedCardsAreTheCardsThatWaitOnAHero(t *testing.T) {
	r := DefaultRules()
	for _, n := range Names() {
		if got := r.boost(n, &Status{}); got != n.Aimed() {
			t.Errorf("%v: waits on a hero %v, Aimed %v", n, got, n.Aimed())
		}
	}
}
