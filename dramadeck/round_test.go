package dramadeck

import (
	"slices"
	"testing"

	"github.com/stakesrpg/stakes/dice"
)

// roundGame is testGame in combat with every character too tough to fall,
// the next flip showing line l.
func roundGame(t *testing.T, l Line) *game {
	t.Helper()
	g := testGame(t)
	for ci := range len(g.State.Heroes) + len(g.State.Villains) {
		g.char(ci).MaxHP, g.char(ci).HP = 500, 500
	}
	if err := g.StartCombat(false); err != nil {
		t.Fatal(err)
	}
	nextLine(g, l)
	return g
}

// declareNothing has every player declare no cards.
func declareNothing(t *testing.T, g *game) {
	t.Helper()
	for p := range g.State.Players {
		if err := g.Declare(fixed(), p, nil); err != nil {
			t.Fatal(err)
		}
	}
}

// The acting order (GM Side): the side the line names first, each side by
// decreasing Speed, a Flurry side twice over ("all act normally in
// decreasing order of Basic Speed, then all act normally again").
func TestActingOrderFollowsLineSpeedAndFlurry(t *testing.T) {
	for _, tc := range []struct {
		line Line
		want []int
	}{
		// Speeds: hero 0 (Brick) 22, hero 1 (Face) 24, villain 2 (Boss) 26.
		{Line{First: Heroes}, []int{1, 0, 2}},
		{Line{First: Villains}, []int{2, 1, 0}},
		{Line{First: Villains, Hero: Flurry}, []int{2, 1, 0, 1, 0}},
		{Line{First: Heroes, Villain: Flurry}, []int{1, 0, 2, 2}},
	} {
		g := roundGame(t, tc.line)
		if err := g.BeginRound(fixed()); err != nil {
			t.Fatal(err)
		}
		if g.State.Phase != Declaring || g.Turn() != -1 {
			t.Fatalf("%+v: after the flip phase %v, turn %d; want declaring, nobody", tc.line, g.State.Phase, g.Turn())
		}
		declareNothing(t, g)
		var got []int
		for ci := g.Turn(); ci >= 0; ci = g.Turn() {
			got = append(got, ci)
			if err := g.Act(fixed(), ci, Choice{Act: Defend}, mustPolicy(t, "passive"), nil); err != nil {
				t.Fatal(err)
			}
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%+v: acted %v, want %v", tc.line, got, tc.want)
		}
	}
}

// Queue holds, in order, the characters yet to act this round: each turn
// taken moves it on by one, and a game saved between two actions restores
// to the same turns to come (a Flurry side's second pass included).
func TestSavedQueueListsThoseYetToAct(t *testing.T) {
	want := []int{2, 1, 0, 1, 0} // villains first, the heroes' Flurry twice
	g := roundGame(t, Line{First: Villains, Hero: Flurry})
	if err := g.BeginRound(fixed()); err != nil {
		t.Fatal(err)
	}
	declareNothing(t, g)
	for k := range want {
		if !slices.Equal(g.State.Queue, want[k:]) {
			t.Fatalf("after %d actions the queue is %v, want %v", k, g.State.Queue, want[k:])
		}
		b, err := g.State.Save()
		if err != nil {
			t.Fatal(err)
		}
		h, err := restoreGame(b)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(h.State.Queue, want[k:]) || h.Turn() != want[k] {
			t.Fatalf("after %d actions the restored queue is %v, turn %d; want %v", k, h.State.Queue, h.Turn(), want[k:])
		}
		if err := g.Act(fixed(), want[k], Choice{Act: Defend}, mustPolicy(t, "passive"), nil); err != nil {
			t.Fatal(err)
		}
	}
	if len(g.State.Queue) != 0 || g.Turn() != -1 {
		t.Errorf("after every action the queue is %v, turn %d; want empty, nobody", g.State.Queue, g.Turn())
	}
}

// Each character acts once a round, in turn: a second action, or an
// action out of turn or before the declarations close, is refused and
// changes nothing.
func TestOneActionPerCharacterPerRoundInTurn(t *testing.T) {
	g := roundGame(t, Line{First: Heroes})
	pol := mustPolicy(t, "passive")
	if err := g.BeginRound(fixed()); err != nil {
		t.Fatal(err)
	}
	mustFail(t, g, "act while declaring", func() error { return g.Act(fixed(), 1, Choice{Act: Defend}, pol, nil) })
	declareNothing(t, g)
	mustFail(t, g, "act out of turn", func() error { return g.Act(fixed(), 0, Choice{Act: Defend}, pol, nil) })
	if err := g.Act(fixed(), 1, Choice{Act: Defend}, pol, nil); err != nil {
		t.Fatal(err)
	}
	mustFail(t, g, "act twice", func() error { return g.Act(fixed(), 1, Choice{Act: Defend}, pol, nil) })
	mustFail(t, g, "end the round with a character yet to act", g.EndRound)
	mustFail(t, g, "declare after the declarations", func() error { return g.Declare(fixed(), 0, nil) })
}

// BeginRound twice would flip two cards and skip the Break check; EndRound
// twice would count a Flurry round twice. Both are refused.
func TestBeginRoundTwiceAndEndRoundTwiceAreRefused(t *testing.T) {
	g := roundGame(t, Line{First: Heroes, Hero: Flurry})
	if err := g.BeginRound(fixed()); err != nil {
		t.Fatal(err)
	}
	mustFail(t, g, "BeginRound twice", func() error { return g.BeginRound(fixed()) })
	if err := g.Round(fixed(), mustPolicy(t, "passive"), mustPolicy(t, "passive")); err != nil {
		t.Fatal(err)
	}
	want(t, g.State.FlurryRounds, 1)
	mustFail(t, g, "EndRound twice", g.EndRound)
	want(t, g.State.FlurryRounds, 1)
}

// A Seize Initiative flip replaces the line, not the round's
// declarations: a Monologue declared earlier still stops the action.
func TestSeizeInitiativeFlipKeepsDeclaredMonologue(t *testing.T) {
	g := roundGame(t, Line{First: Heroes})
	if err := g.BeginRound(fixed()); err != nil {
		t.Fatal(err)
	}
	mono := give(t, g, 0, Monologue, true)
	seize := give(t, g, 1, SeizeInitiative, true)
	if err := g.Declare(fixed(), 0, []Play{{Card: mono}}); err != nil {
		t.Fatal(err)
	}
	if err := g.Declare(fixed(), 1, []Play{{Card: seize, Flip: true}}); err != nil {
		t.Fatal(err)
	}
	if !g.State.Monologue || g.Turn() != -1 {
		t.Errorf("after the flip: Monologue %v, turn %d; want the Monologue to hold and nobody to act", g.State.Monologue, g.Turn())
	}
}

// PlayRound stops at a policy's illegal answer with the state as the
// refused step found it, and a second call resumes the round from there.
func TestPlayRoundResumesAfterRefusedAnswer(t *testing.T) {
	g := roundGame(t, Line{First: Heroes})
	passive := mustPolicy(t, "passive")
	bad := &badChoice{Style: Style{Label: "bad"}}
	r := dice.NewSeeded(3)
	if err := g.Round(r, bad, passive); err == nil {
		t.Fatal("an attack on a fellow hero was taken")
	}
	if g.State.Phase != Acting || g.Turn() != 1 {
		t.Fatalf("after the refusal: phase %v, turn %d; want acting, hero 1 still to act", g.State.Phase, g.Turn())
	}
	if err := g.Round(r, passive, passive); err != nil {
		t.Fatal(err)
	}
	if g.State.Phase != Between || g.State.Round != 1 {
		t.Errorf("after resuming: phase %v, round %d; want between, round 1", g.State.Phase, g.State.Round)
	}
}

// badChoice attacks a fellow hero.
type badChoice struct{ Style }

func (b *badChoice) Choose(v *View) Choice { return Choice{Act: Attack, Target: 1 - v.Who} }
