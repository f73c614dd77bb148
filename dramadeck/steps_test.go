package dramadeck

import (
	"bytes"
	"encoding/json"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stakesrpg/stakes/dice"
)

// mustFailRoller is mustFail that also wants the scripted Roller r
// untouched: a refused step rolls nothing.
func mustFailRoller(t *testing.T, g *game, r *dice.Roller, what string, op func() error) {
	t.Helper()
	left := r.Remaining()
	mustFail(t, g, what, op)
	if r.Remaining() != left {
		t.Errorf("%s: a refused step rolled %d dice", what, left-r.Remaining())
	}
}

// A card passed by Leadership may not also be played, or passed again, in
// the same declaration: it used to panic with the state half applied.
func TestDeclareRefusesACardUsedTwiceByLeadership(t *testing.T) {
	g := combatGame(t)
	lead := give(t, g, 0, Leadership, true)
	act := give(t, g, 0, Action, true)
	pass := Play{Card: lead, Cards: [2]int{act}, N: 1, ToPlayer: 1, Why: "take this"}
	mustFail(t, g, "pass and play one card", func() error {
		return g.Declare(fixed(), 0, []Play{pass, {Card: act}})
	})
	mustFail(t, g, "play and pass one card", func() error {
		return g.Declare(fixed(), 0, []Play{{Card: act}, pass})
	})
	if err := g.Declare(fixed(), 0, []Play{pass}); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]int{act}, g.State.Players[1].Hand[len(g.State.Players[1].Hand)-1:]); d != "" {
		t.Errorf("Leadership's card (-want +got in player 1's hand):\n%s", d)
	}
}

// badMoment is a custom policy whose Critical Moment names cards that are
// not in the hand.
type badMoment struct {
	Style
	ids []int
}

func (b *badMoment) Critical(v *View, buf []int) []int { return append(buf, b.ids...) }

// A custom policy's Critical Moment of cards not in hand (999, -1) is an
// error at the declaration, with nothing changed: it used to panic inside
// the built-in Declare.
func TestCriticalMomentOfCardsNotInHandIsRefused(t *testing.T) {
	for _, ids := range [][]int{{999}, {-1}, {1 << 40}} {
		g := combatGame(t)
		g.State.Players[0].Traded = true // past the trade, at the declaration
		bad := &badMoment{Style: Style{Label: "bad", PlayCards: true}, ids: ids}
		r := fixed(1, 2, 3)
		mustFailRoller(t, g, r, "Critical Moment of "+string(rune('0'+len(ids))), func() error {
			return g.Step(r, bad, mustPolicy(t, "passive"))
		})
	}
}

// callOf answers every Player's Call with e.
type callOf struct {
	Style
	e Effect
}

func (c *callOf) Call(v *View, target int, a Act) Effect { return c.e }

// The actor's Player's Call is asked and checked before the contest is
// rolled: an illegal answer used to be found after the roll, with the
// waiting bonus spent and a critical success recorded.
func TestPlayersCallAnswerIsCheckedBeforeTheRoll(t *testing.T) {
	g := combatGame(t)
	g.State.Heroes[1].Status.Next[Interpersonal] = 3 // a Presence waiting
	turnOf(g, 1)
	r := fixed(1, 1, 1, 6, 6, 5)
	for _, e := range []Effect{PlayersCall, Flurry, Effect(99)} {
		mustFailRoller(t, g, r, "Player's Call of "+e.String(), func() error {
			return g.Act(r, 1, Choice{Act: Taunt, Target: 2}, &callOf{Style: Style{Label: "call"}, e: e}, nil)
		})
	}
	if err := g.Act(r, 1, Choice{Act: Taunt, Target: 2}, &callOf{Style: Style{Label: "call"}, e: Setback}, nil); err != nil {
		t.Fatal(err)
	}
	// Influence 15 + 3 against Will 14: 3 against 16, won by 17: the call.
	want(t, b2i(g.State.Villains[0].Status.LoseAction), 1)
}

// stripAt answers every strip with index i.
type stripAt struct {
	Style
	i int
}

func (s *stripAt) Strip(v *View) int { return s.i }

// The GM's choice of card to strip is asked and checked before the
// villain's attack is rolled: an illegal answer used to be found after the
// damage was dealt.
func TestGMStripAnswerIsCheckedBeforeTheRoll(t *testing.T) {
	g := combatGame(t)
	g.State.Line.VillainAction = Attack
	give(t, g, 1, Action, true)
	turnOf(g, 2)
	r := fixed(3, 3, 3, 6, 6, 6, 1, 1, 1)
	for _, i := range []int{1, 7, -2} {
		mustFailRoller(t, g, r, "strip index", func() error {
			return g.Act(r, 2, Choice{Act: Attack, Target: 1}, &stripAt{Style: Style{Label: "strip"}, i: i}, nil)
		})
	}
	if err := g.Act(r, 2, Choice{Act: Attack, Target: 1}, &stripAt{Style: Style{Label: "strip"}, i: -1}, nil); err != nil {
		t.Fatal(err)
	}
	want(t, len(g.State.Players[1].Pool), 1) // -1: the GM strips nothing
}

// The shipped GM never strips a subplot (its doc says so): a pool of only
// subplots loses nothing, a mixed pool its best other card.
func TestDefaultGMDoesNotStripSubplots(t *testing.T) {
	g := combatGame(t)
	sp := mustPolicy(t, "default")
	give(t, g, 1, Romance, true)
	give(t, g, 1, Nemesis, true)
	want(t, sp.Strip(g.view(1)), -1)
	give(t, g, 1, Action, true)
	want(t, sp.Strip(g.view(1)), 2)
}

// discardAt answers every discard with index i.
type discardAt struct {
	Style
	i int
}

func (d *discardAt) Discard(v *View, must bool) int { return d.i }

// EndScene asks for every discard before it changes anything: an illegal
// index used to be found with the pools already back in the hands.
func TestEndSceneRefusedDiscardChangesNothing(t *testing.T) {
	g := combatGame(t)
	for _, n := range []Name{Idea, Connection, Haste} {
		give(t, g, 0, n, false)
		give(t, g, 0, n, true)
	}
	r := fixed()
	mustFailRoller(t, g, r, "discard index 99", func() error { return g.EndScene(r, &discardAt{Style: Style{Label: "d"}, i: 99}) })
	mustFailRoller(t, g, r, "discard index -1 over the hand size", func() error {
		return g.EndScene(r, &discardAt{Style: Style{Label: "d"}, i: -1})
	})
}

// moveOf answers every offer to move a card to the pool with id.
type moveOf struct {
	Style
	id int
}

func (m *moveOf) Move(v *View) int { return m.id }

// Only -1 declines the move to the pool: -7 used to be taken as "none".
func TestMoveAnswerOtherThanMinusOneIsAnError(t *testing.T) {
	g := combatGame(t)
	g.State.Players[0].MayMove = true
	turnOf(g, 0)
	mustFail(t, g, "move -7", func() error { return g.Step(fixed(), &moveOf{Style: Style{Label: "m"}, id: -7}, &Style{}) })
	if err := g.Step(fixed(), &moveOf{Style: Style{Label: "m"}, id: -1}, &Style{}); err != nil {
		t.Fatal(err)
	}
	want(t, b2i(g.State.Players[0].MayMove), 0)
}

// A play's zero value aims at the player's own hero, not hero 0.
func TestZeroValuePlayAimsAtOwnHero(t *testing.T) {
	g := combatGame(t)
	id := give(t, g, 1, Action, true)
	if err := g.Declare(fixed(), 1, []Play{{Card: id}}); err != nil {
		t.Fatal(err)
	}
	want(t, g.State.Heroes[1].Status.RoundBonus, 3)
	want(t, g.State.Heroes[0].Status.RoundBonus, 0)
}

// Inspiration restores "all characters on that side": those still in the
// fight always, those out of it only with Rules.InspirationRevives.
func TestInspirationRevivesIsASetting(t *testing.T) {
	for _, revive := range []bool{false, true} {
		g := combatGame(t)
		g.State.Rules.InspirationRevives = revive
		h := &g.State.Heroes[0]
		h.HP, h.Status.Out = -2, true
		g.State.Line = Line{Hero: Inspiration}
		g.applyLine()
		if h.Status.Out == revive || (h.HP == h.MaxHP/2) != revive {
			t.Errorf("revive %v: out %v, HP %d", revive, h.Status.Out, h.HP)
		}
	}
}

// Events read back from JSON into the same values.
func TestEventsReadBackFromJSON(t *testing.T) {
	g, r := startedGame(t, 8)
	var tr Trace
	g.Sink = tr.Add
	if err := g.Round(r, mustPolicy(t, "default"), mustPolicy(t, "default")); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(tr.Events)
	if err != nil {
		t.Fatal(err)
	}
	var back []Event
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(tr.Events, back); d != "" || len(back) == 0 {
		t.Errorf("%d events (-written +read):\n%s", len(back), d)
	}
}

// Cards waiting on a character help its defence (Rules.DefenceTakesCards,
// the default): Brick's Adrenalin (+3, defence 9 to 12) and Second Chance
// turn a failed defence (13) into a success (3) and the Boss's hit into a
// miss; without the setting the defence fails and the blow lands.
func TestDefenceTakesCardsIsASetting(t *testing.T) {
	for _, takes := range []bool{true, false} {
		g := combatGame(t)
		g.State.Rules.DefenceTakesCards = takes
		h := &g.State.Heroes[0]
		h.Status.Next[Physical], h.Status.Luck = 3, 1
		hp := h.HP
		turnOf(g, 2)
		r := fixed(3, 3, 3, 5, 5, 3, 1, 1, 1, 6, 6, 6, 2, 2)
		if err := g.Act(r, 2, Choice{Act: Attack, Target: 0}, mustPolicy(t, "passive"), nil); err != nil {
			t.Fatal(err)
		}
		if hit := h.HP < hp; hit == takes {
			t.Errorf("defence takes cards %v: HP %d -> %d", takes, hp, h.HP)
		}
		if spent := h.Status.Next[Physical] == 0 && h.Status.Luck == 0; spent != takes {
			t.Errorf("defence takes cards %v: Adrenalin %d, Second Chance %d left", takes, h.Status.Next[Physical], h.Status.Luck)
		}
	}
}

// Players trade pool cards one for one before declaring (The Player Side:
// in combat cards are traded between pools): the default policy hands
// each bonus card to the hero who rolls best with it.
func TestPlayersTradeBonusCardsToTheirBestUser(t *testing.T) {
	g := combatGame(t)
	will := give(t, g, 0, Willpower, true)  // Face (Trick 15) uses it best
	adren := give(t, g, 1, Adrenalin, true) // Brick (Attack 14) uses it best
	if err := g.Step(fixed(), mustPolicy(t, "default"), mustPolicy(t, "default")); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(g.State.Players[0].Pool, adren) || !slices.Contains(g.State.Players[1].Pool, will) {
		t.Errorf("pools after the trade: %v, %v", g.State.Players[0].Pool, g.State.Players[1].Pool)
	}
	want(t, b2i(g.State.Players[0].Traded), 1)
	mustFail(t, g, "an unequal trade", func() error { return g.Trade(0, 1, []int{adren}, nil) })
}

// A player joins mid-adventure: his hero enters play with a hand of four,
// declares with the others, and the villains still to act keep their turns
// under their new numbers.
func TestAddPlayerMidRound(t *testing.T) {
	g := roundGame(t, Line{First: Villains})
	if err := g.BeginRound(fixed()); err != nil {
		t.Fatal(err)
	}
	p, err := g.AddPlayer(dice.NewSeeded(3), DefaultScenario().Heroes[2])
	if err != nil {
		t.Fatal(err)
	}
	want(t, p, 2)
	want(t, len(g.State.Players[p].Hand), 4)
	declareNothing(t, g)
	want(t, g.Turn(), 3) // the Boss, villain 0, now character 3
	if err := g.State.Check(); err != nil {
		t.Error(err)
	}
	if _, err := g.AddPlayer(fixed(), Character{Name: "nobody"}); err == nil {
		t.Error("a hero with no HP joined")
	}
}

// Escape goes into the pool as the encounter begins, before its first
// round (the text: the first card played into the pool when the
// encounter begins), and at no other time.
func TestEscapeGoesIntoThePoolAsTheEncounterBegins(t *testing.T) {
	g := testGame(t)
	esc := give(t, g, 0, Escape, false)
	act := give(t, g, 0, Action, false)
	if err := g.StartCombat(false); err != nil {
		t.Fatal(err)
	}
	mustFail(t, g, "another card as the encounter begins", func() error { return g.MoveToPool(0, act) })
	pol := mustPolicy(t, "default")
	if err := g.Step(fixed(), pol, pol); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(g.State.Players[0].Pool, esc) || g.State.Round != 0 {
		t.Fatalf("round %d, pool %v: want Escape in the pool before round 1", g.State.Round, g.State.Players[0].Pool)
	}
	// Later in the encounter, Escape may not go in.
	g2 := combatGame(t)
	esc2 := give(t, g2, 0, Escape, false)
	g2.State.Players[0].MayMove = true
	mustFail(t, g2, "Escape in round 1", func() error { return g2.MoveToPool(0, esc2) })
}

// cancelFrom spends Opponent Fails only on successes from round from on.
type cancelFrom struct {
	Style
	from int
}

func (c *cancelFrom) Cancel(v *View, actor int, a Act) bool { return v.Round >= c.from }

// Opponent Fails cancels the success its player chooses (the target's
// side's policy is asked), not simply the first.
func TestOpponentFailsChoosesTheSuccessItCancels(t *testing.T) {
	g := combatGame(t)
	g.State.Rules.DefenceTakesCards = false
	h := &g.State.Heroes[0]
	h.Status.Fails = 1
	mine := &cancelFrom{Style: Style{Label: "mine"}, from: 2}
	hp := h.HP
	turnOf(g, 2)
	// Boss hits (3,3,3), Brick's defence fails (6,6,6), 2d+2 = 1+1+2.
	if err := g.Act(fixed(3, 3, 3, 6, 6, 6, 1, 1), 2, Choice{Act: Attack, Target: 0}, mustPolicy(t, "passive"), mine); err != nil {
		t.Fatal(err)
	}
	if h.HP >= hp || h.Status.Fails != 1 {
		t.Fatalf("round 1: HP %d -> %d, Opponent Fails %d; want the blow to land, the card kept", hp, h.HP, h.Status.Fails)
	}
	hp = h.HP
	g.State.Round = 2
	turnOf(g, 2)
	if err := g.Act(fixed(3, 3, 3, 6, 6, 6, 1, 1), 2, Choice{Act: Attack, Target: 0}, mustPolicy(t, "passive"), mine); err != nil {
		t.Fatal(err)
	}
	if h.HP != hp || h.Status.Fails != 0 {
		t.Errorf("round 2: HP %d -> %d, Opponent Fails %d; want the blow cancelled", hp, h.HP, h.Status.Fails)
	}
}

// A Possibility may save a failed defence when the defender's policy
// spends one there: the cautious policy does, the default keeps them for
// its own actions.
func TestPossibilityOnDefenceIsThePolicysChoice(t *testing.T) {
	for _, tc := range []struct {
		policy string
		spent  bool
	}{{"cautious", true}, {"default", false}} {
		g := combatGame(t)
		h := &g.State.Heroes[0]
		h.Possibilities = 1
		turnOf(g, 2)
		// Boss hits (3,3,3); Brick's defence 9 fails (6,6,6); the
		// Possibility re-rolls it (1,1,1), or the damage takes those.
		r := fixed(3, 3, 3, 6, 6, 6, 1, 1, 1, 1, 1)
		if err := g.Act(r, 2, Choice{Act: Attack, Target: 0}, mustPolicy(t, "passive"), mustPolicy(t, tc.policy)); err != nil {
			t.Fatal(err)
		}
		if spent := h.Possibilities == 0; spent != tc.spent || (h.HP == h.MaxHP) != tc.spent {
			t.Errorf("%s: Possibilities left %d, HP %d of %d", tc.policy, h.Possibilities, h.HP, h.MaxHP)
		}
	}
}

// Out of combat a subplot played from the hand comes into play: it goes to
// the pool, stays through the scene's end and pays its Possibility at the
// end of the Act.
func TestSubplotEntersPlayOutOfCombat(t *testing.T) {
	g := testGame(t)
	rom := give(t, g, 0, Romance, false)
	if err := g.PlayFromHand(fixed(), 0, Play{Card: rom}); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(g.State.Players[0].Pool, rom) || slices.Contains(g.State.Discard, rom) {
		t.Fatalf("pool %v: want the Romance in play", g.State.Players[0].Pool)
	}
	poss := g.State.Heroes[0].Possibilities
	g.EndAct()
	want(t, g.State.Heroes[0].Possibilities, poss+1)
	mustFail(t, g, "a subplot played again", func() error { return g.PlayFromHand(fixed(), 0, Play{Card: rom}) })
}

// Haste may be played while others act, outside the declarations: the
// hero's extra action comes next, before the rest of the acting order.
func TestHasteDuringAnothersTurn(t *testing.T) {
	g := roundGame(t, Line{First: Villains})
	if err := g.BeginRound(fixed()); err != nil {
		t.Fatal(err)
	}
	haste := give(t, g, 0, Haste, true)
	mustFail(t, g, "Haste while declaring", func() error { return g.PlayHaste(fixed(), 0, haste) })
	declareNothing(t, g)
	want(t, g.Turn(), 2) // the Boss acts first
	if err := g.PlayHaste(fixed(), 0, haste); err != nil {
		t.Fatal(err)
	}
	want(t, g.Turn(), 0) // Brick's extra action, at once
	act := give(t, g, 1, Action, true)
	mustFail(t, g, "a card that is not Haste", func() error { return g.PlayHaste(fixed(), 1, act) })
}

// The shipped policies play Haste as the text times it (Immediate
// Effects: Haste gives one additional action immediately, and can be
// played during someone else's action): not declared with the round's
// cards, but played from the pool as an opponent's action comes up, so
// that the hero's extra action comes before it.
func TestShippedPoliciesPlayHasteAsAnOpponentActs(t *testing.T) {
	for _, name := range []string{"default", "aggressive", "cautious"} {
		g := roundGame(t, Line{First: Heroes})
		haste := give(t, g, 0, Haste, true)
		var tr Trace
		g.Sink = tr.Add
		pol := mustPolicy(t, name)
		r := dice.NewSeeded(1)
		for g.State.Phase != Acting {
			if err := g.Step(r, pol, pol); err != nil {
				t.Fatal(err)
			}
		}
		if where, _ := g.Where(haste); where != "pool 0" {
			t.Fatalf("%s: Haste declared with the round's cards (now in %s)", name, where)
		}
		for !g.Over() && g.State.Phase == Acting {
			if err := g.Step(r, pol, pol); err != nil {
				t.Fatal(err)
			}
		}
		// Face (Speed 24) and Brick (22) act, then the villain's action
		// comes up: Brick's Haste is played and he acts again first.
		var order []int
		played := -1
		for _, e := range tr.Events {
			switch {
			case e.Kind == EvAction:
				order = append(order, e.Who)
			case e.Kind == EvPlay && e.Card == haste:
				played = len(order)
			}
		}
		if want := []int{1, 0, 0, 2}; !slices.Equal(order, want) || played != 2 {
			t.Errorf("%s: actions %v, Haste played after %d of them; want %v, Haste after 2", name, order, played, want)
		}
	}
	// The passive policy plays no cards: Haste stays in the pool.
	g := roundGame(t, Line{First: Heroes})
	haste := give(t, g, 0, Haste, true)
	pol := mustPolicy(t, "passive")
	if err := g.Round(dice.NewSeeded(1), pol, pol); err != nil {
		t.Fatal(err)
	}
	if where, _ := g.Where(haste); where != "pool 0" {
		t.Errorf("passive: Haste went to %s", where)
	}
}

// A policy's Haste answer that is not a Haste card in the player's pool
// (-7, a Haste in hand, another card of the pool) is refused, and the
// step changes nothing; -1 plays none and the action goes on.
func TestIllegalHasteAnswerIsRefused(t *testing.T) {
	for _, bad := range []string{"-7", "hand", "pool"} {
		g := roundGame(t, Line{First: Villains})
		give(t, g, 0, Haste, true)
		act := give(t, g, 0, Action, true)
		inHand := give(t, g, 0, Haste, false)
		if err := g.BeginRound(fixed()); err != nil {
			t.Fatal(err)
		}
		declareNothing(t, g)
		id := map[string]int{"-7": -7, "hand": inHand, "pool": act}[bad]
		before, _ := g.State.Save()
		err := g.Step(fixed(), &hasteAnswer{Style: Style{Label: "bad"}, id: id}, mustPolicy(t, "passive"))
		if err == nil {
			t.Fatalf("%s: Haste answer %d accepted", bad, id)
		}
		after, _ := g.State.Save()
		if !bytes.Equal(before, after) {
			t.Errorf("%s: refused Haste changed the state", bad)
		}
	}
	g := roundGame(t, Line{First: Villains})
	give(t, g, 0, Haste, true)
	if err := g.BeginRound(fixed()); err != nil {
		t.Fatal(err)
	}
	declareNothing(t, g)
	var tr Trace
	g.Sink = tr.Add
	if err := g.Step(dice.NewSeeded(1), &hasteAnswer{Style: Style{Label: "none"}, id: -1}, mustPolicy(t, "passive")); err != nil {
		t.Fatal(err)
	}
	if got := countActions(&tr); got[2] != 1 {
		t.Errorf("after Haste answered -1: actions %v, want the villain's", got)
	}
}

// hasteAnswer answers every Haste offer with id.
type hasteAnswer struct {
	Style
	id int
}

func (h *hasteAnswer) Haste(v *View, next int) int { return h.id }

// The legal-choice queries agree with the steps: what Declarable lists
// Declare accepts, what it leaves out Declare refuses; what Movable lists
// MoveToPool accepts.
func TestLegalChoiceQueriesAgreeWithTheSteps(t *testing.T) {
	g := combatGame(t)
	act := give(t, g, 0, Action, true)
	glory := give(t, g, 0, Glory, true) // no critical success yet: refused
	got := g.Declarable(0, nil)
	if len(got) != 1 || got[0].Card != act {
		t.Fatalf("declarable %+v, want the Action alone", got)
	}
	mustFail(t, g, "Glory left out", func() error { return g.Declare(fixed(), 0, []Play{{Card: glory}}) })
	if err := g.Declare(fixed(), 0, got); err != nil {
		t.Fatal(err)
	}
	if got := g.Declarable(0, nil); len(got) != 0 {
		t.Errorf("after declaring: declarable %+v", got)
	}
	idea := give(t, g, 1, Idea, false)
	if got := g.Movable(1, nil); len(got) != 0 {
		t.Errorf("movable before any action: %v", got)
	}
	g.State.Players[1].MayMove = true
	if got := g.Movable(1, nil); len(got) != 1 || got[0] != idea {
		t.Errorf("movable %v, want the Idea", got)
	}
	for _, ci := range []int{0, 1, 2} {
		turnOf(g, ci)
		for _, ch := range g.Choices(ci, nil) {
			if err := g.CheckChoice(ci, ch); err != nil {
				t.Errorf("character %d: listed %+v refused: %v", ci, ch, err)
			}
		}
	}
}

// The combat model's rulings are settings, and each changes the outcome
// of the same dice: a Defend rolled (Rules.DefendRolls) fails on 18 and
// draws no card for the approved action; a blow of 12 of Brick's 14 HP
// stuns at StunPercent 50, not at 100; Fatigued taking Brick to 0 FP puts
// him out at CollapseFP 0, not at -5, and to 6 FP out at 6, not at 0;
// Second Chance and Adrenalin waiting
// at the end of a scene lapse unless EffectsOutlastScene.
func TestCombatRulingsAreSettings(t *testing.T) {
	passive := func(t *testing.T) Policy { return mustPolicy(t, "passive") }
	tests := []struct {
		name   string
		rules  func(r *Rules)
		play   func(t *testing.T, g *game) error
		differ func(g *game) bool // true under the default rules
	}{
		{"defend_rolls", func(r *Rules) { r.DefendRolls = true },
			func(t *testing.T, g *game) error {
				stackCard(t, g, Line{First: Heroes}, [2]Act{Defend, Attack})
				turnOf(g, 0)
				return g.Act(fixed(6, 6, 6), 0, Choice{Act: Defend, Target: 0}, passive(t), nil)
			},
			func(g *game) bool { return len(g.State.Players[0].Hand) == 1 }},
		{"stun_percent", func(r *Rules) { r.StunPercent = 100 },
			func(t *testing.T, g *game) error {
				g.State.Rules.DefenceTakesCards = false
				turnOf(g, 2)
				// Boss hits (9), Brick's defence fails (18), 2d+2 = 12 less DR 2.
				return g.Act(fixed(3, 3, 3, 6, 6, 6, 6, 6), 2, Choice{Act: Attack, Target: 0}, passive(t), nil)
			},
			func(g *game) bool { return g.State.Heroes[0].HP == 2 && g.State.Heroes[0].Status.Stunned }},
		{"collapse_fp", func(r *Rules) { r.CollapseFP = -5 },
			func(t *testing.T, g *game) error {
				g.State.Heroes[0].FP = 2
				g.State.Line = Line{Hero: Fatigued}
				g.applyLine()
				return nil
			},
			func(g *game) bool { return g.State.Heroes[0].FP == 0 && g.State.Heroes[0].Status.Out }},
		{"collapse_fp above 0", func(r *Rules) { r.CollapseFP = 6 },
			func(t *testing.T, g *game) error {
				g.State.Heroes[0].FP = 8
				g.State.Line = Line{Hero: Fatigued}
				g.applyLine()
				return nil
			},
			func(g *game) bool { return g.State.Heroes[0].FP == 6 && !g.State.Heroes[0].Status.Out }},
		{"effects_outlast_scene", func(r *Rules) { r.EffectsOutlastScene = true },
			func(t *testing.T, g *game) error {
				st := &g.State.Heroes[0].Status
				st.Luck, st.Next[Physical], st.RoundBonus = 1, 3, 3
				return g.EndScene(fixed(), passive(t))
			},
			func(g *game) bool {
				st := g.State.Heroes[0].Status
				return st.Luck == 0 && st.Next[Physical] == 0 && st.RoundBonus == 0
			}},
	}
	for _, tc := range tests {
		for _, changed := range []bool{false, true} {
			g := combatGame(t)
			if changed {
				tc.rules(&g.State.Rules)
				if err := g.State.Rules.Validate(); err != nil {
					t.Fatalf("%s: %v", tc.name, err)
				}
			}
			if err := tc.play(t, g); err != nil {
				t.Fatalf("%s changed %v: %v", tc.name, changed, err)
			}
			if got := tc.differ(g); got == changed {
				t.Errorf("%s changed %v: the default's outcome %v", tc.name, changed, got)
			}
		}
	}
	// What outlasts the scene is the waiting cards, not the round's bonus.
	g := combatGame(t)
	g.State.Rules.EffectsOutlastScene = true
	st := &g.State.Heroes[0].Status
	st.Luck, st.Next[Physical], st.RoundBonus = 1, 3, 3
	if err := g.EndScene(fixed(), mustPolicy(t, "passive")); err != nil {
		t.Fatal(err)
	}
	if *st != (Status{Luck: 1, Next: [3]int{Physical: 3}}) {
		t.Errorf("after the scene: %+v", *st)
	}
}
