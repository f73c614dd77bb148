package dramadeck

import (
	"github.com/google/go-cmp/cmp"
	"math/rand/v2"
	"testing"

	"github.com/stakesrpg/stakes/dice"
)

func countActions(tr *Trace) map[int]int {
	m := map[int]int{}
	for _, e := range tr.Events {
		if e.Kind == EvAction {
			m[e.Who]++
		}
	}
	return m
}

// nextLine makes the top of the draw pile carry line l.
func nextLine(g *game, l Line) {
	id := g.State.Draw[len(g.State.Draw)-1]
	g.State.Deck.Cards[id].Standard = l
}

func TestFlurryGivesExtraActions(t *testing.T) {
	for _, side := range []Side{Heroes, Villains} {
		g := testGame(t)
		for i := range g.State.Villains {
			g.State.Villains[i].MaxHP, g.State.Villains[i].HP = 500, 500
		}
		for i := range g.State.Heroes {
			g.State.Heroes[i].MaxHP, g.State.Heroes[i].HP = 500, 500
		}
		var tr Trace
		g.Sink = tr.Add
		_ = g.StartCombat(false)
		l := Line{First: Heroes}
		if side == Heroes {
			l.Hero = Flurry
		} else {
			l.Villain = Flurry
		}
		nextLine(g, l)
		pol := mustPolicy(t, "passive")
		if err := g.Round(dice.NewSeeded(3), pol, pol); err != nil {
			t.Fatal(err)
		}
		got := countActions(&tr)
		h, v := 1, 1
		if side == Heroes {
			h = 2
		} else {
			v = 2
		}
		if got[0] != h || got[1] != h || got[2] != v {
			t.Errorf("Flurry on %v: actions %v, want heroes %d villain %d", side, got, h, v)
		}
		want(t, g.State.FlurryRounds, 1)
	}
}

func TestLineEffects(t *testing.T) {
	g := combatGame(t)
	h := &g.State.Heroes[0]
	h.HP, h.FP, h.Status.Stunned = 2, 1, true
	g.State.Line = Line{First: Villains, Hero: Inspiration, Villain: Fatigued}
	g.applyLine()
	want(t, h.HP, h.MaxHP/2)
	want(t, h.FP, h.MaxFP)
	want(t, b2i(h.Status.Stunned), 0)
	want(t, g.State.Villains[0].FP, g.State.Villains[0].MaxFP-2)

	g.State.Line = Line{Hero: Up, Villain: Stymied}
	g.applyLine()
	want(t, g.State.Heroes[1].Status.Up, 1)
	want(t, b2i(g.State.Villains[0].Status.StymiedPoss), 1)

	g.State.Line = Line{Hero: Setback, Villain: Break}
	g.applyLine()
	turnOf(g, 0)
	if err := g.CheckChoice(0, Choice{Act: Attack, Target: 2}); err == nil {
		t.Error("Setback side attacked")
	}
	if err := g.CheckChoice(0, Choice{Act: Defend}); err != nil {
		t.Errorf("Setback side may still Defend: %v", err)
	}
	// Break: a wounded villain who does no harm this round flees.
	g.State.Villains[0].HP--
	g.State.Queue = nil // everyone has acted
	if err := g.EndRound(); err != nil {
		t.Fatal(err)
	}
	if !g.State.Villains[0].Status.Fled || g.State.Outcome != HeroesWin {
		t.Errorf("Break: fled %v outcome %v", g.State.Villains[0].Status.Fled, g.State.Outcome)
	}

	g = combatGame(t)
	id := give(t, g, 0, Action, true)
	g.State.Line = Line{Hero: Confused}
	g.applyLine()
	mustFail(t, g, "Confused heroes activate a card", func() error { return g.Declare(fixed(), 0, []Play{{Card: id}}) })
}

// Up re-rolls a failure and cannot be cancelled; GM Stymied cancels the
// next Possibility (here a Hero card's).
func TestUpAndStymied(t *testing.T) {
	g := combatGame(t)
	pol := mustPolicy(t, "passive")
	h := &g.State.Heroes[0]
	h.Status.Up, h.Status.StymiedPoss = 1, true
	// 6,6,6 fails; Up re-rolls 2,2,2 and succeeds.
	res := g.skillRoll(fixed(6, 6, 6, 2, 2, 2), 0, Physical, 10, pol)
	if !res.Success || h.Status.Up != 0 || !h.Status.StymiedPoss {
		t.Errorf("Up: %+v up=%d stymied=%v", res, h.Status.Up, h.Status.StymiedPoss)
	}
	h.Status.CardPoss = 2
	// Fail; the first card Possibility is cancelled by Stymied; the second re-rolls.
	r := fixed(6, 6, 6, 1, 1, 1)
	res = g.skillRoll(r, 0, Physical, 10, pol)
	if !res.Success || h.Status.CardPoss != 0 || h.Status.StymiedPoss || r.Remaining() != 0 {
		t.Errorf("Stymied: %+v %+v", res, h.Status)
	}
	// Second Chance: best of three.
	h.Status.Luck = 1
	r = fixed(6, 6, 6, 6, 6, 5, 3, 3, 3)
	res = g.skillRoll(r, 0, Physical, 10, pol)
	if !res.Success || res.Roll != 9 || h.Status.Luck != 0 {
		t.Errorf("Second Chance: %+v", res)
	}
	// Bonuses: Action this round, Adrenalin next physical roll, Supporter;
	// margin Stymied cancels one bonus card.
	h.Status = Status{RoundBonus: 3, Support: 3, StymiedNext: true}
	h.Status.Next[Physical] = 3
	res = g.skillRoll(fixed(5, 5, 6), 0, Physical, 10, pol)
	if res.Roll+res.Margin() != 16 || !res.Success || h.Status.Next[Physical] != 0 || h.Status.Support != 0 {
		t.Errorf("bonuses: %+v %+v", res, h.Status)
	}
	// Possibilities: spent by the default policy, not by passive.
	h.Status = Status{}
	h.Possibilities = 1
	res = g.skillRoll(fixed(6, 6, 6), 0, Physical, 10, pol)
	if res.Success || h.Possibilities != 1 {
		t.Errorf("passive spent a Possibility")
	}
	res = g.skillRoll(fixed(6, 6, 6, 1, 1, 1), 0, Physical, 10, mustPolicy(t, "default"))
	if !res.Success || h.Possibilities != 0 {
		t.Errorf("default did not spend: %+v", res)
	}
}

// A hero's success at an approved action draws a card and opens the move to
// pool; a villain's success at the line's villain action strips a card.
func TestApprovedActions(t *testing.T) {
	g := combatGame(t) // approved: Attack, Taunt
	pol := mustPolicy(t, "passive")
	hand := len(g.State.Players[0].Hand)
	// Brick attacks (14): 3,3,3 hits; Boss defends (10): 6,6,6 fails; 2d+1 = 1+1+1 - DR 2 = 1.
	r := fixed(3, 3, 3, 6, 6, 6, 1, 1)
	turnOf(g, 0)
	if err := g.Act(r, 0, Choice{Act: Attack, Target: 2}, pol, nil); err != nil {
		t.Fatal(err)
	}
	want(t, g.State.Villains[0].HP, g.State.Villains[0].MaxHP-1)
	want(t, len(g.State.Players[0].Hand), hand+1)
	want(t, b2i(g.State.Players[0].MayMove), 1)
	id := g.State.Players[0].Hand[0]
	if err := g.MoveToPool(0, id); err != nil {
		t.Fatal(err)
	}
	give(t, g, 0, Idea, false)
	mustFail(t, g, "second move in a round", func() error {
		g.State.Players[0].MayMove = true
		defer func() { g.State.Players[0].MayMove = false }()
		return g.MoveToPool(0, g.State.Players[0].Hand[0])
	})

	// Villain strip.
	g.State.Line.VillainAction = Attack
	give(t, g, 1, Hero, true)
	pool := len(g.State.Players[1].Pool)
	disc := len(g.State.Discard)
	r = fixed(3, 3, 3, 6, 6, 6, 1, 1, 1)
	g.State.Villains[0].Status.LoseAction = false // the 18 he defended with above was a critical failure
	turnOf(g, 2)
	if err := g.Act(r, 2, Choice{Act: Attack, Target: 1}, mustPolicy(t, "default"), nil); err != nil {
		t.Fatal(err)
	}
	want(t, len(g.State.Players[1].Pool), pool-1)
	want(t, len(g.State.Discard), disc+1)

	// Opponent Fails turns the villain's success into a failure.
	hp := g.State.Heroes[1].HP
	g.State.Heroes[1].Status.Fails = 1
	turnOf(g, 2)
	if err := g.Act(fixed(3, 3, 3, 6, 6, 6), 2, Choice{Act: Attack, Target: 1}, pol, nil); err != nil {
		t.Fatal(err)
	}
	want(t, g.State.Heroes[1].HP, hp)
	want(t, g.State.Heroes[1].Status.Fails, 0)
	if err := g.CheckCards(); err != nil {
		t.Error(err)
	}
}

func TestPostureAndCoupDeGrace(t *testing.T) {
	g := combatGame(t)
	pol := mustPolicy(t, "passive")
	var tr Trace
	g.Sink = tr.Add
	turnOf(g, 1)
	if err := g.Act(fixed(), 1, Choice{Act: Defend}, pol, nil); err != nil {
		t.Fatal(err)
	}
	// Boss attacks Face in All-Out Defence: defence 10+2 = 12 rolled.
	turnOf(g, 2)
	if err := g.Act(fixed(3, 3, 3, 6, 6, 6, 1, 1), 2, Choice{Act: Attack, Target: 1}, pol, nil); err != nil {
		t.Fatal(err)
	}
	var def int
	for _, e := range tr.Events {
		if e.Kind == EvRoll && e.Who == 1 {
			def = e.Value
		}
	}
	want(t, def, 12)
	want(t, int(g.State.Heroes[1].Status.Posture), int(Defend))
	// Face acts again: the posture ends.
	turnOf(g, 1)
	if err := g.Act(fixed(6, 6, 6), 1, Choice{Act: Attack, Target: 2}, pol, nil); err != nil {
		t.Fatal(err)
	}
	want(t, int(g.State.Heroes[1].Status.Posture), int(NoAct))
	// Coup de Grace: 2d+1 = 6+6+1 = 13, +50% = 19, - DR 2 = 17.
	g.State.Heroes[0].Status.Coup = 1
	hp := g.State.Villains[0].HP
	turnOf(g, 0)
	if err := g.Act(fixed(3, 3, 3, 6, 6, 6, 6, 6), 0, Choice{Act: Attack, Target: 2}, pol, nil); err != nil {
		t.Fatal(err)
	}
	want(t, hp-g.State.Villains[0].HP, 17)
}

// Trick, Test, Taunt, Intimidate and Maneuver by margin of victory.
func TestMarginTable(t *testing.T) {
	tests := []struct {
		act          Act
		actor, faces []int // actor 3d6, then target 3d6
		check        func(t *testing.T, g *game)
	}{
		// Face Taunt 15 (Influence) vs Boss Will 14: 1,1,1 (margin 12) vs 6,6,5 (margin -3): MoV 15: Up/Setback.
		{Taunt, []int{1, 1, 1}, []int{6, 6, 5}, func(t *testing.T, g *game) {
			want(t, g.State.Heroes[1].Status.Up, 1)
			want(t, b2i(g.State.Villains[0].Status.LoseAction), 1)
		}},
		// Intimidate 13 vs Will 14: 3,3,3 (4) vs 5,5,5 (-1): MoV 5: Unskilled.
		{Intimidate, []int{3, 3, 3}, []int{5, 5, 5}, func(t *testing.T, g *game) {
			want(t, b2i(g.State.Villains[0].Status.Unskilled), 1)
		}},
		// Test Will 13 vs 14: 2,2,2 (7) vs 4,4,5 (1): MoV 6 -> Unskilled; vs 6,6,6 (-4): MoV 11 Setback.
		{Test, []int{2, 2, 2}, []int{6, 6, 6}, func(t *testing.T, g *game) {
			want(t, b2i(g.State.Villains[0].Status.LoseAction), 1)
		}},
		// Trick 15 vs IQ 12: 4,4,4 (3) vs 5,5,4 (-2): MoV 5: Unskilled.
		{Trick, []int{4, 4, 4}, []int{5, 5, 4}, func(t *testing.T, g *game) {
			want(t, b2i(g.State.Villains[0].Status.Unskilled), 1)
		}},
		// Maneuver 12 vs 13: 3,4,3 (2) vs 4,4,4 (1): MoV 1: Fatigued.
		{Maneuver, []int{3, 4, 3}, []int{4, 4, 4}, func(t *testing.T, g *game) {
			want(t, g.State.Villains[0].FP, g.State.Villains[0].MaxFP-2)
		}},
		// Intimidate 13 vs 14: 1,1,1 (10) vs 6,6,6 (-4): MoV 14... Setback; 18 is 17+ so use 6,6,5: -3 -> 13 Setback.
		{Intimidate, []int{1, 1, 1}, []int{6, 6, 5}, func(t *testing.T, g *game) {
			want(t, b2i(g.State.Villains[0].Status.LoseAction), 1)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.act.String(), func(t *testing.T) {
			g := combatGame(t)
			faces := append(append([]int(nil), tt.actor...), tt.faces...)
			r := fixed(faces...)
			turnOf(g, 1)
			if err := g.Act(r, 1, Choice{Act: tt.act, Target: 2}, mustPolicy(t, "passive"), nil); err != nil {
				t.Fatal(err)
			}
			if r.Err() != nil || r.Remaining() != 0 {
				t.Fatalf("script: %v, %d left", r.Err(), r.Remaining())
			}
			tt.check(t, g)
		})
	}
}

func TestMarginEffectsOnNextAction(t *testing.T) {
	pol := mustPolicy(t, "passive")
	// Setback: the villain loses his next action (no dice rolled).
	g := combatGame(t)
	g.inflict(2, Setback)
	r := fixed()
	turnOf(g, 2)
	if err := g.Act(r, 2, Choice{Act: Attack, Target: 0}, pol, nil); err != nil || r.Err() != nil {
		t.Fatalf("%v %v", err, r.Err())
	}
	// Break: flees unless the next action harms; here it misses.
	g.inflict(2, Break)
	turnOf(g, 2)
	if err := g.Act(fixed(6, 6, 6), 2, Choice{Act: Attack, Target: 0}, pol, nil); err != nil {
		t.Fatal(err)
	}
	if !g.State.Villains[0].Status.Fled {
		t.Error("Broken villain who did no harm did not flee")
	}
	// Unskilled: the next attack rolls at default (14-5 = 9): 4,3,3 = 10 misses.
	g = combatGame(t)
	g.inflict(0, Unskilled)
	var tr Trace
	g.Sink = tr.Add
	turnOf(g, 0)
	if err := g.Act(fixed(4, 3, 3), 0, Choice{Act: Attack, Target: 2}, pol, nil); err != nil {
		t.Fatal(err)
	}
	if e := tr.Events[1]; e.Kind != EvRoll || e.Value != 9 || e.Success {
		t.Errorf("Unskilled roll %v", e)
	}
	// Player's Call: the default policy breaks a wounded target.
	g = combatGame(t)
	g.State.Villains[0].HP--
	g.State.Heroes[1].Influence.Level = 30
	turnOf(g, 1)
	if err := g.Act(fixed(1, 1, 1, 6, 6, 5), 1, Choice{Act: Taunt, Target: 2}, mustPolicy(t, "default"), nil); err != nil {
		t.Fatal(err)
	}
	want(t, b2i(g.State.Villains[0].Status.Broken), 1)
}

func TestHasteAndPlannedSetback(t *testing.T) {
	g := testGame(t)
	for i := range g.State.Villains {
		g.State.Villains[i].MaxHP, g.State.Villains[i].HP = 500, 500
	}
	var tr Trace
	g.Sink = tr.Add
	_ = g.StartCombat(false)
	g.State.Planned = 1
	nextLine(g, Line{First: Villains, Villain: Setback})
	r := dice.NewSeeded(4)
	if err := g.BeginRound(r); err != nil {
		t.Fatal(err)
	}
	g.State.Heroes[0].Status.Extra = 1 // as if Haste were declared
	pol := mustPolicy(t, "passive")
	if err := g.Round(r, pol, pol); err != nil {
		t.Fatal(err)
	}
	got := countActions(&tr)
	if got[0] != 2 || got[1] != 1 || got[2] != 1 {
		t.Errorf("actions %v: want Haste's extra action for hero 0, and the villain acting (planned event fired)", got)
	}
	want(t, g.State.Planned, 0)
	want(t, b2i(g.State.Setback[Villains]), 0)
	// Haste from the pool through a whole round.
	g2 := testGame(t)
	var tr2 Trace
	g2.Sink = tr2.Add
	_ = g2.StartCombat(false)
	give(t, g2, 1, Haste, true)
	if err := g2.Round(dice.NewSeeded(4), mustPolicy(t, "default"), pol); err != nil {
		t.Fatal(err)
	}
	if n := countActions(&tr2)[1]; n < 2 && g2.State.Outcome == Ongoing {
		t.Errorf("Haste from the pool gave %d actions", n)
	}
}

type friendlyFire struct{ Style }

func (f *friendlyFire) Choose(v *View) Choice {
	return Choice{Act: Attack, Target: (v.Who + 1) % len(v.Heroes)}
}

// A policy that picks an illegal action gets an error, not a silent fix.
func TestIllegalPolicyChoice(t *testing.T) {
	g := testGame(t)
	_ = g.StartCombat(false)
	nextLine(g, Line{First: Heroes})
	err := g.Round(dice.NewSeeded(1), &friendlyFire{Style{Label: "friendly"}}, mustPolicy(t, "passive"))
	if err == nil {
		t.Fatal("a hero attacked a hero")
	}
	t.Log(err)
}

// TestStyleDeclareByName: with every condition favourable, the default
// style declares exactly the combat-useful cards of its pool; with none
// favourable, only those it always plays (and Seize Initiative, and
// Supporter while a friend stands). Haste is never declared: it waits in
// the pool for an opponent's action (TestShippedPoliciesPlayHasteAsAnOpponentActs).
func TestStyleDeclareByName(t *testing.T) {
	always := map[Name]bool{Action: true, Adrenalin: true, CoupDeGrace: true, SecondChance: true,
		OpponentFails: true, Hero: true, Alertness: true, Connection: true, Idea: true,
		SeizeInitiative: true, Supporter: true}
	sometimes := map[Name]bool{Drama: true, Glory: true, MasterPlan: true, Rally: true, Monologue: true, Escape: true}
	for _, favourable := range []bool{true, false} {
		for _, n := range Names() {
			g := testGame(t)
			if err := g.StartCombat(false); err != nil {
				t.Fatal(err)
			}
			id := give(t, g, 0, n, true)
			st := &Style{PlayCards: true, KeepDrama: !favourable}
			if favourable {
				g.State.Heroes[0].Status.Crit = true
				g.State.Heroes[0].HP = 1
				give(t, g, 1, Action, false) // a card in a hand; hands stay short
				g.State.Discard = append(g.State.Discard, g.State.Draw[0])
				g.State.Draw = g.State.Draw[1:]
			} else {
				for p := range g.State.Players {
					for len(g.State.Players[p].Hand) < g.State.Rules.HandSize {
						g.State.Players[p].Hand = append(g.State.Players[p].Hand, g.State.Draw[0])
						g.State.Draw = g.State.Draw[1:]
					}
				}
			}
			stackCard(t, g, Line{First: Villains}, [2]Act{Attack}) // a turned card, for Seize Initiative
			plays := st.Declare(g.view(0), nil, nil)
			want := always[n] || (favourable && sometimes[n])
			if got := len(plays) == 1 && plays[0].Card == id; got != want || len(plays) > 1 {
				t.Errorf("favourable=%v: %v in the pool: declared %+v, want played=%v", favourable, n, plays, want)
			}
		}
	}
}

// Willpower and Presence help the next intellectual or interpersonal
// roll: the shipped style plays them on a hero whose action this round
// makes one (a Trick the card approves and he is good at), the player's
// own or another's, and keeps them in the pool when no hero's does
// (they used to go on the declaring hero, who mostly only fights, and
// wait unused: Willpower's bonus was rolled in 1% of its plays).
func TestStyleAimsBonusCardsAtHeroesWhoRollThatKind(t *testing.T) {
	g := testGame(t)
	if err := g.StartCombat(false); err != nil {
		t.Fatal(err)
	}
	will := give(t, g, 0, Willpower, true)
	give(t, g, 0, Presence, true) // no Taunt or Intimidate coming: it waits
	adr := give(t, g, 0, Adrenalin, true)
	stackCard(t, g, Line{First: Heroes}, [2]Act{Attack, Trick})
	g.State.Villains[0].IQ = 6 // Face's Trick 15 outclasses the Boss's IQ
	plays := mustPolicy(t, "default").Declare(g.view(0), nil, nil)
	want := []Play{{Card: will, Target: OnHero(1)}, {Card: adr}}
	if d := cmp.Diff(want, plays); d != "" {
		t.Errorf("declared (-want +got):\n%s", d)
	}
	// The Trick not approved, nobody rolls an intellectual roll: the
	// Willpower waits.
	g.State.Deck.Cards[g.State.Stack[len(g.State.Stack)-1]].Approved = [2]Act{Attack, Taunt}
	g.State.Line = Line{First: Heroes}
	for _, pl := range mustPolicy(t, "default").Declare(g.view(0), nil, nil) {
		if pl.Card == will {
			t.Errorf("Willpower declared with no intellectual roll coming: %+v", pl)
		}
	}
}

// Seize Initiative keeps or replaces the turned card: with no card turned
// (a small deck wholly in hands and pools) the shipped style does not
// declare it, which the engine would refuse.
func TestStyleDeclaresNoSeizeInitiativeWithoutATurnedCard(t *testing.T) {
	g := testGame(t)
	if err := g.StartCombat(false); err != nil {
		t.Fatal(err)
	}
	give(t, g, 0, SeizeInitiative, true)
	if plays := mustPolicy(t, "aggressive").Declare(g.view(0), nil, nil); len(plays) != 0 {
		t.Errorf("declared %+v with no card on the action stack", plays)
	}
}

// TestStyleCriticalAndMove: a Critical Moment is declared with two combat
// cards in hand or more (all of them poured), not with one, nor twice in an
// Act; Move picks the most valuable hand card (the first of equals) worth
// five or more, passing over Escape once a card has gone to the pool.
func TestStyleCriticalAndMove(t *testing.T) {
	st := &Style{PlayCards: true, CriticalMoment: true, KeepDrama: true}
	for k, tc := range []struct {
		hand []Name
		want int // combat cards poured
	}{
		{[]Name{Action, Willpower}, 0},
		{[]Name{Action, Willpower, Adrenalin}, 2},
		{[]Name{SecondChance, CoupDeGrace, Action, Presence}, 3},
		{[]Name{Romance, Glory}, 0},
	} {
		g := testGame(t)
		if err := g.StartCombat(false); err != nil {
			t.Fatal(err)
		}
		for _, n := range tc.hand {
			give(t, g, 0, n, false)
		}
		got := st.Critical(g.view(0), nil)
		if len(got) != tc.want {
			t.Errorf("case %d: %v in hand: poured %v, want %d cards", k, tc.hand, got, tc.want)
		}
		for _, id := range got {
			if !combatCard(g.State.Deck.Cards[id].Name) {
				t.Errorf("case %d: poured %v", k, g.State.Deck.Cards[id].Name)
			}
		}
		g.State.Players[0].CriticalAct = g.State.Act
		if got := st.Critical(g.view(0), nil); len(got) != 0 {
			t.Errorf("case %d: a second Critical Moment in the Act: %v", k, got)
		}
	}
	for k, tc := range []struct {
		hand   []Name
		round  int
		pooled int
		want   int // index in hand, or -1
	}{
		{[]Name{Willpower, Action, Escape}, 0, 0, 2}, // Escape as the encounter begins
		{[]Name{Willpower, Action, Escape}, 1, 0, 1}, // too late for Escape
		{[]Name{Action}, 0, 0, -1},                   // as it begins, only Escape
		{[]Name{Action, CoupDeGrace}, 1, 0, 0},
		{[]Name{Glory, Willpower}, 1, 0, 0},
		{[]Name{Idea, Drama}, 1, 0, 0},
		{[]Name{Drama}, 1, 0, -1},
		{[]Name{Escape}, 0, 1, -1},
	} {
		g := testGame(t)
		if err := g.StartCombat(false); err != nil {
			t.Fatal(err)
		}
		var ids []int
		for _, n := range tc.hand {
			ids = append(ids, give(t, g, 0, n, false))
		}
		g.State.Round = tc.round
		g.State.Players[0].Pooled = tc.pooled
		want := -1
		if tc.want >= 0 {
			want = ids[tc.want]
		}
		if got := st.Move(g.view(0)); got != want {
			t.Errorf("case %d: %v in hand, pooled %d: moved %d, want %d", k, tc.hand, tc.pooled, got, want)
		}
	}
}

// TestStyleTakesAContestOnlyWhenItOutclasses: the default policy takes an
// approved contest instead of its attack on the weakest opponent when it
// is four or more above the resistance and no worse than the attack
// skill; a character who outclasses nobody (outclasses) keeps attacking,
// whatever the card approves.
func TestStyleTakesAContestOnlyWhenItOutclasses(t *testing.T) {
	s := DefaultScenario()
	d, err := DefaultDeck()
	if err != nil {
		t.Fatal(err)
	}
	g, err := newGame(DefaultRules(), d, s.Heroes, s.Villains)
	if err != nil {
		t.Fatal(err)
	}
	if err := g.StartCombat(false); err != nil {
		t.Fatal(err)
	}
	pol := mustPolicy(t, "default")
	// Every villain is at full HP: the weakest is Thug 1 (11 HP, the
	// first of equals), character 4; Face (11 HP) is the heroes' weakest.
	for k, tc := range []struct {
		ci   int
		line Line
		acts [2]Act
		want Choice
	}{
		// Face: Trick 15 against Thug 1's IQ 9, and 15 >= his Attack 12.
		{1, Line{}, [2]Act{Trick, Attack}, Choice{Act: Trick, Target: 4}},
		// Face prefers the card's first contest worth taking.
		{1, Line{}, [2]Act{Taunt, Trick}, Choice{Act: Taunt, Target: 4}},
		// Brick: Trick 10 against IQ 9 is not four above.
		{0, Line{}, [2]Act{Trick, NoAct}, Choice{Act: Attack, Target: 4}},
		// Brick: Intimidation 14 against Will 10, and 14 >= Attack 14.
		{0, Line{}, [2]Act{Intimidate, NoAct}, Choice{Act: Intimidate, Target: 4}},
		// Ace: Maneuver 15 against 11, but Test (Will 11 against 10) is not.
		{2, Line{}, [2]Act{Test, Maneuver}, Choice{Act: Maneuver, Target: 4}},
		// Thug 1 against Face: his best, 12, is not four above Face's
		// weakest resistance (Maneuver 12): he attacks whatever the line.
		{4, Line{VillainAction: Intimidate}, [2]Act{}, Choice{Act: Attack, Target: 1}},
		{4, Line{VillainAction: Maneuver}, [2]Act{}, Choice{Act: Attack, Target: 1}},
		// The Boss too: Will 14 against Face's 13.
		{3, Line{VillainAction: Test}, [2]Act{}, Choice{Act: Attack, Target: 1}},
	} {
		stackCard(t, g, tc.line, tc.acts)
		if got := pol.Choose(g.view(tc.ci)); got != tc.want {
			t.Errorf("case %d: character %d chose %+v, want %+v", k, tc.ci, got, tc.want)
		}
	}
	if outclasses(&g.State.Villains[1], &g.State.Heroes[1]) || !outclasses(&g.State.Heroes[1], &g.State.Villains[1]) {
		t.Error("Thug 1 outclasses Face, or Face does not outclass Thug 1")
	}
}

// TestOutclassesIsNeededForEveryContestWorthTaking: over characters of
// every skill from 6 to 18 (a fixed seed), a contest worth taking
// (contestBetter) is never missed by outclasses.
func TestOutclassesIsNeededForEveryContestWorthTaking(t *testing.T) {
	rng := rand.New(rand.NewPCG(18, 1))
	sk := func() int { return 6 + rng.IntN(13) }
	char := func() Character {
		return Character{Attack: Skill{Level: sk()}, IQ: sk(), Will: sk(), Trick: Skill{Level: sk()},
			Influence: Skill{Level: sk()}, Intimidation: Skill{Level: sk()}, Maneuver: Skill{Level: sk()}}
	}
	st := &Style{Contests: true}
	worth := 0
	for range 20000 {
		c, tc := char(), char()
		for a := range numActs {
			if !a.Contest() || !st.contestBetter(a, &c, &tc) {
				continue
			}
			worth++
			if !outclasses(&c, &tc) {
				t.Fatalf("%v is worth taking for %+v against %+v, but outclasses says no", a, c, tc)
			}
		}
	}
	if worth == 0 {
		t.Fatal("no contest was ever worth taking: the sweep tests nothing")
	}
}

// Leadership passes the giver's best hand cards to the player shortest
// of cards: as many as he is short of the hand size, at most as many as
// Rules.MaxLeadership allows (the text: one or two).
func TestStyleLeadershipPassesWhatTheReceiverLacks(t *testing.T) {
	for _, tc := range []struct {
		max, held, want int
	}{{2, 2, 2}, {1, 2, 1}, {2, 3, 1}, {2, 4, 0}} {
		g := testGame(t)
		if err := g.StartCombat(false); err != nil {
			t.Fatal(err)
		}
		stackCard(t, g, Line{First: Heroes}, [2]Act{Attack, Taunt})
		g.State.Rules.MaxLeadership = tc.max
		lead := give(t, g, 0, Leadership, true)
		idea := give(t, g, 0, Idea, false)        // worth 3
		action := give(t, g, 0, Action, false)    // worth 15
		second := give(t, g, 0, Adrenalin, false) // worth 14
		for _, n := range []Name{Connection, Alertness, Glory, Monologue}[:tc.held] {
			give(t, g, 1, n, false)
		}
		var got *Play
		plays := mustPolicy(t, "default").Declare(g.view(0), nil, nil)
		for k := range plays {
			if plays[k].Card == lead {
				got = &plays[k]
			}
		}
		if tc.want == 0 {
			if got != nil {
				t.Errorf("max %d, receiver holding %d: passed %+v to a full hand", tc.max, tc.held, *got)
			}
			continue
		}
		wantCards := [2]int{action}
		if tc.want == 2 {
			wantCards[1] = second
		}
		if got == nil || got.N != tc.want || got.Cards != wantCards || got.ToPlayer != 1 {
			t.Errorf("max %d, receiver holding %d: %+v, want %d cards %v (not the Idea %d)", tc.max, tc.held, got, tc.want, wantCards, idea)
			continue
		}
		if err := g.checkPlays(0, []Play{*got}, nil, false); err != nil {
			t.Errorf("the engine refuses the style's Leadership: %v", err)
		}
	}
}
