package contest

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stakesrpg/stakes/dice"
)

// The plan worked out when an action begins judges and prices every pool
// Base + Extra[:n] exactly as cost does at a roll, over many random plans
// (own traits, others' Complications, aspects, repeats, gone traits,
// missing ones).
func TestPlanAgreesWithCost(t *testing.T) {
	e := mustEngine(t)
	s := testScene()
	s.Characters[villain].Traits = append(s.Characters[villain].Traits, Trait{Name: "Hero", Kind: Complication, Die: dice.D6})
	s.Characters[hero].Traits[cave].Die = dice.Gone
	rng := rand.New(rand.NewPCG(5, 6))
	pick := func() Pick {
		switch rng.IntN(6) {
		case 0:
			return Pick{SceneOwner, rng.IntN(2)} // aspect 1 is missing
		case 1:
			return Pick{villain, rng.IntN(5)} // its Complication, or its own traits, or missing
		}
		return Pick{hero, rng.IntN(6)} // trait 5 is missing, Cave is gone
	}
	var pl sidePlan
	checked := 0
	for range 3000 {
		sd := Side{Char: hero}
		for range rng.IntN(4) {
			sd.Base = append(sd.Base, pick())
		}
		for range rng.IntN(4) {
			sd.Extra = append(sd.Extra, pick())
		}
		pl.fill(s, &e.Rules, &sd)
		for n := 0; n <= len(sd.Extra); n++ {
			picks := append(append([]Pick(nil), sd.Base...), sd.Extra[:n]...)
			cost, err := e.cost(s, hero, picks)
			gone := false
			for _, p := range picks {
				if tr := s.traitPtr(p); tr != nil && tr.Die == dice.Gone {
					gone = true
				}
			}
			// The plan leaves "gone" to the roll; every other verdict and
			// every price must match.
			if want := err == nil; !gone && pl.valid(n) != want {
				t.Fatalf("%v: plan says %v, cost says %v", picks, pl.valid(n), err)
			}
			if gone && err == nil {
				t.Fatalf("%v: cost rolled a gone trait", picks)
			}
			if err == nil && (n >= len(pl.cost) || pl.cost[n] != cost) {
				t.Fatalf("%v: plan prices %v, cost %d", picks, pl.cost, cost)
			}
			checked++
		}
	}
	if checked < 5000 {
		t.Fatalf("only %d pools checked", checked)
	}
}

// A plan is not trusted past what it was made for: a tool's edit of the
// side's picks, a trait lost since the action began, and another Engine
// laying out a new action on the same value all go through the full
// checks.
func TestPlanNotStale(t *testing.T) {
	e := mustEngine(t)
	s := testScene()
	must(t, e.Begin(s, Contested, []SideSetup{side(villain, villainPool()), side(hero, heroPool())}, 0))
	must(t, e.Roll(s, dice.Scripted(5, 4, 2), villainPool()))
	// The hero's Justice is lost mid-action: its planned pool no longer rolls.
	s.Characters[hero].Traits[justice].Die = dice.Gone
	before := s.Clone()
	if err := e.Roll(s, dice.Scripted(5, 4, 2), heroPool()); err == nil {
		t.Fatal("rolled a gone Value through the plan")
	}
	if d := cmp.Diff(before, s); d != "" {
		t.Fatalf("rejected roll changed the scene (-want +got):\n%s", d)
	}
	s.Characters[hero].Traits[justice].Die = dice.D8
	// A tool edits the side's plan to a pool without a Value: Play must
	// not roll it.
	s.Action.Sides[1].Base = []Pick{{hero, gordon}, {hero, detective}}
	if err := e.Play(s, dice.NewSeeded(1), &Table{}); !errors.Is(err, ErrNoValue) {
		t.Fatalf("edited plan without a Value: %v", err)
	}
	// Another engine begins a new action on the same scene: the first
	// engine's plans belong to the old one (the hero alone, with two
	// Plot Points: its four-trait pool costs one).
	s = testScene()
	must(t, e.Begin(s, Contested, []SideSetup{side(villain, villainPool()), side(hero, heroPool())}, 0))
	s.Action.Phase = PhaseDone
	other := mustEngine(t)
	four := []Pick{{hero, justice}, {hero, gordon}, {hero, detective}, {hero, gadgets}}
	must(t, other.Begin(s, Basic, []SideSetup{side(villain, villainPool()), side(hero, four)}, 0))
	must(t, e.Roll(s, dice.Scripted(2, 2, 2), villainPool()))
	must(t, e.Roll(s, dice.Scripted(3, 3, 3, 3), four))
	if pp := s.Characters[hero].PlotPoints; pp != 1 {
		t.Errorf("four traits cost %d, want 1", 2-pp)
	}
}

// Play rolls through the plans and a tool through Roll: on the same dice
// they leave the same scene.
func TestPlanPlayMatchesSteps(t *testing.T) {
	for seed := range uint64(200) {
		sc := DefaultScenario()
		bt, err := sc.build()
		must(t, err)
		e, err := NewEngine(sc.Rules)
		must(t, err)
		played := bt.scene.Clone()
		must(t, e.Begin(played, Contested, bt.sides, 0))
		must(t, e.Play(played, dice.NewSeeded(seed), &bt.table))
		// The same steps by a new engine each time, so every plan is
		// worked out afresh from the scene as it stands.
		stepped := bt.scene.Clone()
		must(t, e.Begin(stepped, Contested, bt.sides, 0))
		r := dice.NewSeeded(seed)
		for stepped.Action.Phase != PhaseDone {
			fresh, _ := NewEngine(sc.Rules)
			must(t, fresh.decide(stepped, r, &bt.table))
		}
		rebuy := func(s *Scene) {
			for i := range s.Action.Sides {
				must(t, e.rebuyAll(s, s.Action.Sides[i].Char, &bt.table))
			}
		}
		rebuy(stepped)
		g := bt.table.gm()
		for _, sd := range stepped.Action.Sides {
			c := sd.Char
			if stepped.Characters[c].GM && stepped.Characters[c].Reflection > 0 {
				must(t, e.CashReflection(stepped, c, g.Cash(View{Reflection: stepped.Characters[c].Reflection})))
			}
		}
		if d := cmp.Diff(played, stepped); d != "" {
			t.Fatalf("seed %d: Play and fresh steps differ (-play +steps):\n%s", seed, d)
		}
	}
}

// overridesGiveIn embeds Sensible but decides for itself: the engine must
// ask its own methods, not Sensible's.
type overridesGiveIn struct{ Sensible }

func (overridesGiveIn) GiveIn(View) bool { return true }
func (overridesGiveIn) Extras(View) int  { return 7 }
func (overridesGiveIn) BuyOnes(View) int { return 9 }

// The engine's direct calls to the shipped policies' decisions answer as
// their Policy methods do, for every registered policy over many views;
// any other policy is asked through its own methods.
func TestFastPolicies(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, name := range Policies() {
		p, _ := PolicyByName(name)
		for range 2000 {
			v := View{Stakes: rng.IntN(30), Best: rng.IntN(30), BestAll: rng.IntN(40), Affordable: rng.IntN(3), Ones: rng.IntN(4), PlotPoints: rng.IntN(3)}
			if a, b := askGiveIn(p, &v), p.GiveIn(v); a != b {
				t.Fatalf("%s GiveIn(%+v): direct %v, method %v", name, v, a, b)
			}
			if a, b := askExtras(p, &v), p.Extras(v); a != b {
				t.Fatalf("%s Extras(%+v): direct %v, method %v", name, v, a, b)
			}
			if a, b := askBuyOnes(p, &v), p.BuyOnes(v); a != b {
				t.Fatalf("%s BuyOnes(%+v): direct %v, method %v", name, v, a, b)
			}
			v.Reflection, v.RebuyCost, v.Trauma = rng.IntN(3), rng.IntN(2), rng.IntN(2) == 0
			if a, b := askPush(p, &v), p.Push(v); a != b {
				t.Fatalf("%s Push(%+v): direct %v, method %v", name, v, a, b)
			}
			if a, b := askCash(p, &v), p.Cash(v); a != b {
				t.Fatalf("%s Cash(%+v): direct %v, method %v", name, v, a, b)
			}
			c := lowered().Characters[hero]
			c.Traits = append(c.Traits, Trait{Name: "X", Kind: Complication, Die: dice.D8}, Trait{Name: "Y", Kind: Trauma, Die: dice.D6})
			c.Traits[rng.IntN(len(c.Traits))].Die = dice.Ladder[rng.IntN(5)]
			if a, b := askOnto(p, &v, &c), p.Onto(v, &c); a != b {
				t.Fatalf("%s Onto(%+v): direct %v, method %v", name, v, a, b)
			}
			a1, a2 := askRebuy(p, &v, &c)
			if b1, b2 := p.Rebuy(v, &c); a1 != b1 || a2 != b2 {
				t.Fatalf("%s Rebuy(%+v): direct %v %v, method %v %v", name, v, a1, a2, b1, b2)
			}
			opts := make([]PushOption, 1+rng.IntN(4))
			for i := range opts {
				opts[i] = PushOption{Trait: rng.IntN(9), Kind: []Kind{Value, Relationship, Ability}[rng.IntN(3)], Die: dice.Die(2 * rng.IntN(7))}
			}
			if a, b := askPushStep(p, &v, opts), p.PushStep(v, opts); a != b {
				t.Fatalf("%s PushStep(%+v): direct %v, method %v", name, opts, a, b)
			}
		}
	}
	var v View
	if p := (overridesGiveIn{}); !askGiveIn(p, &v) || askExtras(p, &v) != 7 || askBuyOnes(p, &v) != 9 {
		t.Error("an embedding policy's own decisions were bypassed")
	}
}

// A Runner puts its scene back between trials by rewriting only what an
// action changes (resetFrom); after every kind of trial that must leave
// exactly the start scene a full copy gives.
func TestRunnerResetsScene(t *testing.T) {
	timed := timedScenario()
	stubborn := DefaultScenario()
	stubborn.Cast[0].Policy = "stubborn" // pushes, Complications and Trauma galore
	trouble := basic3v3()                // the Trouble Pool opposes, and loses dice
	trouble.Sides[0] = SideSpec{Character: "trouble"}
	trouble.Trouble = []dice.Die{dice.D6, dice.D8, dice.D6, dice.D10}
	for _, sc := range []Scenario{DefaultScenario(), stubborn, basic3v3(), timed, trouble} {
		rn, err := sc.NewRunner()
		must(t, err)
		r := dice.NewSeeded(3)
		m := make([]int, 8)
		for i := range 300 {
			if rn.Trial(r, m) < 0 {
				t.Fatalf("%s trial %d: %v", sc.Kind, i, rn.Err())
			}
			rn.s.resetFrom(&rn.b.scene)
			var want Scene
			want.copyFrom(&rn.b.scene)
			got := rn.s
			got.Action, got.Timed = nil, nil
			if d := cmp.Diff(&want, &got, cmpEmptyScene); d != "" {
				t.Fatalf("%s trial %d: reset scene differs from a fresh copy (-want +got):\n%s", sc.Kind, i, d)
			}
		}
	}
}

var cmpEmptyScene = cmp.Options{cmpEmpty, cmp.Comparer(slices.Equal[[]Trait])}

// bestSizes, which a turn's View reads its best totals from, is the sum of
// the keep largest sizes, checked against sorting for every keep.
func TestBestSizes(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for range 5000 {
		var ds, gang []dice.Die
		for range rng.IntN(6) {
			ds = append(ds, dice.Die(2*rng.IntN(7)))
		}
		for range rng.IntN(4) {
			gang = append(gang, dice.Ladder[rng.IntN(5)])
		}
		all := append(append([]dice.Die(nil), ds...), gang...)
		slices.Sort(all)
		slices.Reverse(all)
		for keep := 1; keep <= 8; keep++ {
			want := 0
			for _, d := range all[:min(keep, len(all))] {
				want += int(d)
			}
			if got := bestSizes(ds, gang, keep); got != want {
				t.Fatalf("bestSizes(%v, %v, %d) = %d, want %d", ds, gang, keep, got, want)
			}
		}
	}
}
