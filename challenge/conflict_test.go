package challenge

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/stakesrpg/stakes/dice"
)

// irin and althesa are the characters of the text's example ("An
// example"): Irin defends himself with Guts d12 d6 and exerts and endures
// with Grace; Althesa's free-form "warrior-priestessing" uses Art d10 d8.
func irin() Character {
	return Standard("Irin", MustStat(dice.D8, dice.D6), MustStat(dice.D10, dice.D4), MustStat(dice.D12, dice.D6),
		[5]string{Art, Guts, Grace, Grace, Art})
}

func althesa() Character {
	c := Standard("Althesa", MustStat(dice.D10, dice.D8), MustStat(dice.D6, dice.D6), MustStat(dice.D12, dice.D4),
		[5]string{Art, Grace, Guts, Guts, Art})
	c.Endeavors["warrior_priestessing"] = Art
	return c
}

func duel(t *testing.T, a, b Character, ea, eb string) *State {
	t.Helper()
	c, err := NewState(DefaultRules(), []Party{
		{Name: a.Name, Members: []Entry{{Character: a, Endeavor: ea}}},
		{Name: b.Name, Members: []Entry{{Character: b, Endeavor: eb}}},
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func wantPhase(t *testing.T, c *State, p Phase) {
	t.Helper()
	if c.Phase != p {
		t.Fatalf("phase %v, want %v", c.Phase, p)
	}
}

func TestStandardCharacters(t *testing.T) {
	r := DefaultRules()
	for _, ch := range []Character{irin(), althesa()} {
		if err := ch.CheckStandard(r); err != nil {
			t.Errorf("%s: %v", ch.Name, err)
		}
	}
}

// TestAlthesaAndIrin plays the text's example step by step with the dice
// it names: Althesa's 8 against Irin's 4, Irin's answer of 7 (over half:
// he hangs in), then 15 (11 + a 6 on the advantage die) against his 11,
// and his answer of 6, which she doubles.
func TestAlthesaAndIrin(t *testing.T) {
	c := duel(t, althesa(), irin(), "warrior_priestessing", Defending)
	var log Log
	eng := Engine{Sink: log.Record}
	// Initial cast: Althesa d10 d8 shows 8 3; Irin d12 d6 shows 4 2.
	r := dice.Scripted(8, 3, 4, 2, 7, 5, 9, 4, 6, 11, 3, 6, 1)
	must(t, eng.Roll(c, r))
	must(t, eng.Resolve(c))
	wantPhase(t, c, PhaseChallenge)
	if c.Challenger != 0 {
		t.Fatalf("challenger %d, want Althesa (0)", c.Challenger)
	}
	must(t, eng.Challenge(c, 1))
	// Irin rerolls: 7 against 8, more than half: he chooses.
	must(t, eng.Roll(c, r))
	if got := c.Sides[1].Read(); got != 7 {
		t.Fatalf("Irin's answer reads %d, want 7", got)
	}
	must(t, eng.Resolve(c))
	wantPhase(t, c, PhaseStance)
	must(t, eng.Stance(c, true))
	wantPhase(t, c, PhaseCast)
	if c.Sides[0].Advantage != 1 || c.Round != 2 {
		t.Fatalf("round %d, Althesa advantage %v: want round 2 with her advantage die", c.Round, c.Sides[0].Advantage)
	}
	// 18 sides against 18: the rule text, not its example, decides, so
	// Irin does not go on the owe list.
	if len(c.Owe) != 0 {
		t.Errorf("owe list %v, want empty (18 sides against 18)", c.Owe)
	}
	// Round two: Althesa 9 4 + advantage 6 = 15; Irin 11 3.
	must(t, eng.Roll(c, r))
	if a, b := c.Sides[0].Read(), c.Sides[1].Read(); a != 15 || b != 11 {
		t.Fatalf("reads %d and %d, want 15 and 11", a, b)
	}
	must(t, eng.Resolve(c))
	if c.Challenger != 0 {
		t.Fatalf("challenger %d, want Althesa", c.Challenger)
	}
	must(t, eng.Challenge(c, 1))
	// Irin rerolls a 6: 2 x 6 <= 15, she totally wins.
	must(t, eng.Roll(c, r))
	must(t, eng.Resolve(c))
	wantPhase(t, c, PhaseConsequence)
	// They negotiate: deaf in one ear, one size of Guts, left for dead.
	must(t, eng.Settle(c, Settlement{Note: "deaf in one ear; left for dead",
		Changes: []Change{{Member: 0, Lose: Loss{Stat: Guts, Sizes: [MaxDice]int{1}}}}}))
	wantPhase(t, c, PhaseDone)
	if c.Winner != 0 || c.Sides[1].Status != StatusSettled {
		t.Errorf("winner %d, Irin %v; want Althesa, settled", c.Winner, c.Sides[1].Status)
	}
	if got := c.Sides[1].Members[0].Stats[2]; got != MustStat(dice.D10, dice.D6) {
		t.Errorf("Irin's Guts %v, want d10 d6", got)
	}
	if r.Remaining() != 0 || r.Err() != nil {
		t.Errorf("script: %d faces left, err %v", r.Remaining(), r.Err())
	}
	want := []EventKind{EvRoll, EvRoll, EvChallenge, EvRoll, EvHangIn, EvRound, EvRoll, EvRoll,
		EvChallenge, EvRoll, EvDouble, EvSettle, EvEnd}
	if d := cmp.Diff(want, log.Kinds()); d != "" {
		t.Errorf("events (-want +got):\n%s", d)
	}
}

// TestAlthesaAndIrinPolicies replays the example with policies: the
// standard consequence takes two sizes from Irin's Grace, and with
// Althesa's dice bigger than Irin's his name goes on the owe list.
func TestAlthesaAndIrinPolicies(t *testing.T) {
	cases := []struct {
		name    string
		art     Stat
		loss    LossPolicy
		grace   Stat
		owe     []Debt
		winners int
	}{
		{"deepest", MustStat(dice.D10, dice.D8), Deepest{}, MustStat(dice.D6, dice.D4), nil, 0},
		{"spread", MustStat(dice.D10, dice.D8), Spread{}, MustStat(dice.D8), nil, 0},
		{"finish", MustStat(dice.D10, dice.D8), Finish{}, MustStat(dice.D8), nil, 0},
		{"bigger dice owe", MustStat(dice.D12, dice.D8), Deepest{}, MustStat(dice.D6, dice.D4),
			[]Debt{{Name: "Irin", Player: "Irin", Fresh: true}}, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a := althesa()
			a.Stats[Art] = tc.art
			c := duel(t, a, irin(), "warrior_priestessing", Defending)
			r := dice.Scripted(8, 3, 4, 2, 7, 5, 9, 4, 6, 11, 3, 6, 1)
			must(t, Engine{Policies: []Policy{&Style{Losses: tc.loss}, &Style{}}}.Play(c, r))
			if c.Winner != tc.winners || c.Sides[1].Status != StatusInjured {
				t.Fatalf("winner %d status %v", c.Winner, c.Sides[1].Status)
			}
			if got := c.Sides[1].Members[0].Stats[1]; got != tc.grace {
				t.Errorf("Irin's Grace %v, want %v", got, tc.grace)
			}
			if d := cmp.Diff(tc.owe, c.Owe, cmpopts.EquateEmpty()); d != "" {
				t.Errorf("owe (-want +got):\n%s", d)
			}
		})
	}
}

// TestEveryOutcome is the overall example the text lacks: a conflict that
// recasts a true tie, blocks, truly ties an answer, hangs in, and ends in
// an outright win with the standard injury.
func TestEveryOutcome(t *testing.T) {
	// Mara: Grace d12 d6 for Defending. Corvin: Art d10 d8 for Asserting.
	mara := Standard("Mara", MustStat(dice.D8, dice.D4), MustStat(dice.D12, dice.D6), MustStat(dice.D10, dice.D6),
		[5]string{Art, Grace, Guts, Guts, Art})
	corvin := Standard("Corvin", MustStat(dice.D10, dice.D8), MustStat(dice.D6, dice.D4), MustStat(dice.D12, dice.D6),
		[5]string{Art, Grace, Guts, Grace, Art})
	c := duel(t, mara, corvin, Defending, Asserting)
	var log Log
	eng := Engine{Sink: log.Record}
	r := dice.Scripted(
		7, 3, 7, 3, // round 1 cast: true tie, recast
		9, 2, 6, 5, // Mara 9 2 against Corvin 6 5: Mara challenges
		10, 1, // Corvin answers 10 1: higher, he blocks and challenges
		8, 6, // Mara answers 8 6 against 10: over half, she hangs in
		4, 4, 3, 2, 2, // round 2: Mara 4 4; Corvin 3 2 + advantage 2 = 5 2: he challenges
		5, 2, // Mara answers 5 2: a true tie with 5 2 - blocked, no advantage
		6, 1, 2, 2, // round 3: Mara 6 1 challenges Corvin 2 2
		3, 1, // Corvin answers 3 1: 2 x 3 <= 6, Mara wins outright
	)
	must(t, eng.with([]Policy{&Style{}, &Style{}}).Play(c, r))
	if r.Remaining() != 0 || r.Err() != nil {
		t.Fatalf("script: %d faces left, err %v", r.Remaining(), r.Err())
	}
	want := []EventKind{
		EvRoll, EvRoll, EvRecast, EvRoll, EvRoll, EvChallenge, EvRoll, EvBlock, EvRoll, EvHangIn,
		EvRound, EvRoll, EvRoll, EvChallenge, EvRoll, EvTie,
		EvRound, EvRoll, EvRoll, EvChallenge, EvRoll, EvDouble, EvLoss, EvEnd}
	if d := cmp.Diff(want, log.Kinds()); d != "" {
		t.Fatalf("events (-want +got):\n%s", d)
	}
	if c.Winner != 0 || c.Round != 3 || c.Exchanges != 4 {
		t.Errorf("winner %d round %d exchanges %d; want Mara, 3, 4", c.Winner, c.Round, c.Exchanges)
	}
	// Corvin exerts with Grace d6 d4 and endures with Guts d12 d6: the
	// deepest loss takes two sizes from the d12.
	if got := c.Sides[1].Members[0].Stats[2]; got != MustStat(dice.D8, dice.D6) {
		t.Errorf("Corvin's Guts %v, want d8 d6", got)
	}
	// Both have 18 sides: nobody owes.
	if len(c.Owe) != 0 {
		t.Errorf("owe %v, want none", c.Owe)
	}
}

// TestGive: an answerer who gives goes out with no injury.
func TestGive(t *testing.T) {
	c := duel(t, althesa(), irin(), "warrior_priestessing", Defending)
	r := dice.Scripted(8, 3, 4, 2, 7, 5)
	must(t, Engine{Policies: []Policy{&Style{}, &Style{Stance: Give{}}}}.Play(c, r))
	if c.Winner != 0 || c.Sides[1].Status != StatusGave {
		t.Fatalf("winner %d, Irin %v", c.Winner, c.Sides[1].Status)
	}
	if got := c.Sides[1].Members[0].Stats[1]; got != MustStat(dice.D10, dice.D4) {
		t.Errorf("Irin's Grace %v changed", got)
	}
}

func TestReadingTies(t *testing.T) {
	// Sides are given dice of equal size so faces can be scripted freely.
	cases := []struct {
		name   string
		a, b   Stat
		faces  []int
		winner int // challenger after the cast
		recast bool
	}{
		{"high die", MustStat(dice.D6, dice.D6), MustStat(dice.D6, dice.D6), []int{5, 1, 4, 4}, 0, false},
		{"second die breaks a tie", MustStat(dice.D6, dice.D6), MustStat(dice.D6, dice.D6), []int{5, 1, 5, 2}, 1, false},
		{"extra die wins a tie", MustStat(dice.D6, dice.D6), MustStat(dice.D6), []int{5, 1, 5}, 0, false},
		{"true tie recasts", MustStat(dice.D6, dice.D6), MustStat(dice.D6, dice.D6), []int{3, 2, 2, 3, 1, 1, 6, 1}, 1, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a := Standard("A", tc.a, tc.a, tc.a, [5]string{Art, Art, Art, Art, Art})
			b := Standard("B", tc.b, tc.b, tc.b, [5]string{Art, Art, Art, Art, Art})
			c := duel(t, a, b, Asserting, Asserting)
			r := dice.Scripted(tc.faces...)
			for c.Phase != PhaseChallenge {
				must(t, Engine{Policies: []Policy{&Style{}, &Style{}}}.Step(c, r))
			}
			if c.Challenger != tc.winner || (c.Recasts > 0) != tc.recast {
				t.Errorf("challenger %d recasts %d", c.Challenger, c.Recasts)
			}
		})
	}
}

// TestHelpers: two characters roll together; the high die speaks; a total
// loss injures both.
func TestHelpers(t *testing.T) {
	mitch := Standard("Mitch", MustStat(dice.D6, dice.D4), MustStat(dice.D12, dice.D10), MustStat(dice.D8, dice.D6),
		[5]string{Art, Grace, Guts, Guts, Art})
	c, err := NewState(DefaultRules(), []Party{
		{Name: "Althesa", Members: []Entry{{Character: althesa(), Endeavor: "warrior_priestessing"}}},
		{Name: "Irin & Mitch", Members: []Entry{{Character: irin(), Endeavor: Defending}, {Character: mitch, Endeavor: Enduring}}},
	}, nil)
	must(t, err)
	if got := c.Sides[1].TotalSides; got != 18+14 {
		t.Fatalf("helper side sides %d, want 32", got)
	}
	var log Log
	eng := Engine{Sink: log.Record}
	// Cast: Althesa 9 2; Irin 3 2, Mitch (guts d8 d6) 7 1: Mitch speaks.
	r := dice.Scripted(9, 2, 3, 2, 7, 1,
		// Althesa challenges; the pair answers 2 1 1 1: doubled.
		2, 1, 1, 1)
	must(t, eng.with([]Policy{&Style{}, &Style{}}).Play(c, r))
	if c.Winner != 0 {
		t.Fatalf("winner %d", c.Winner)
	}
	if log.Events[1].Member != 1 {
		t.Errorf("speaker %d, want Mitch (1)", log.Events[1].Member)
	}
	// Both lose two sizes: Irin's Grace d10 d4 -> d6 d4; Mitch's Guts d8 d6 -> d6 d4? (deepest: d8 -> d4).
	if got := c.Sides[1].Members[0].Stats[1]; got != MustStat(dice.D6, dice.D4) {
		t.Errorf("Irin's Grace %v", got)
	}
	if got := c.Sides[1].Members[1].Stats[2]; got != MustStat(dice.D4, dice.D6) {
		t.Errorf("Mitch's Guts %v", got)
	}
	// The helper side's 32 sides beat Althesa's 18 and she was not doubled:
	// Althesa owes.
	if d := cmp.Diff([]Debt{{Name: "Althesa", Player: "Althesa", Fresh: true}}, c.Owe); d != "" {
		t.Errorf("owe (-want +got):\n%s", d)
	}
}

// TestSpecialization: a specialization adds its stat's dice unless the
// opponent holds the one it is vulnerable to.
func TestSpecialization(t *testing.T) {
	a := althesa()
	a.Specializations = []Specialization{{Name: "blade", Endeavor: "warrior_priestessing", Stat: Guts,
		VulnerableTo: "ward", Challenges: []string{"open the throat"}, OpponentChallenges: []string{"disarm"}}}
	i := irin()
	parties := func(ic Character) []Party {
		return []Party{
			{Name: "A", Members: []Entry{{Character: a, Endeavor: "warrior_priestessing", Specialization: "blade"}}},
			{Name: "I", Members: []Entry{{Character: ic, Endeavor: Defending}}},
		}
	}
	c, err := NewState(DefaultRules(), parties(i), nil)
	must(t, err)
	if d := cmp.Diff([]dice.Die{dice.D10, dice.D8, dice.D12, dice.D4}, c.Sides[0].Dice); d != "" {
		t.Errorf("dice (-want +got):\n%s", d)
	}
	c.Challenger, c.Answerer = 0, 1
	if d := cmp.Diff([]string{"open the throat"}, c.Challenges()); d != "" {
		t.Errorf("challenges (-want +got):\n%s", d)
	}
	i.Specializations = []Specialization{{Name: "ward", Endeavor: Defending, Stat: Art}}
	c, err = NewState(DefaultRules(), parties(i), nil)
	must(t, err)
	if !c.Sides[0].Members[0].Cancelled || len(c.Sides[0].Dice) != 2 {
		t.Errorf("vulnerable specialization still adds dice: %v", c.Sides[0].Dice)
	}
}

// TestThreeSides follows the text's three-way walk-through: the highest
// roll challenges and names an answerer, a higher roll may interfere, then
// the next highest who has not had a turn challenges.
func TestThreeSides(t *testing.T) {
	mk := func(n string) Character {
		return Standard(n, MustStat(dice.D6, dice.D6), MustStat(dice.D6, dice.D6), MustStat(dice.D6, dice.D6),
			[5]string{Art, Grace, Guts, Guts, Art})
	}
	c, err := NewState(DefaultRules(), []Party{
		{Name: "you", Members: []Entry{{Character: mk("You"), Endeavor: Asserting}}, Target: "me"},
		{Name: "me", Members: []Entry{{Character: mk("Me"), Endeavor: Asserting}}, Target: "mitch"},
		{Name: "mitch", Members: []Entry{{Character: mk("Mitch"), Endeavor: Asserting}}, Target: "me"},
	}, nil)
	must(t, err)
	var log Log
	eng := Engine{Sink: log.Record}
	r := dice.Scripted(
		6, 1, 2, 1, 4, 1, // cast: you 6, me 2, mitch 4
		5, 1, // you challenge me; mitch (4 > 2) could interfere but is aloof; I answer 5: over half, I hang in
		3, 1, // mitch challenges me (my 5 showing): I answer 3 1 - wait: mitch's 4 vs 3: over half; hang in
		// round 2: you and mitch carry advantage dice
		6, 5, 4, 1, 1, 6, 1, 1, // cast: you 6 5 + 4 = 10; me 1 1; mitch 6 1 + 1 = 7
		3, 3, // you challenge me: 3 3, 2 x 3 <= 10: outright
		// I am out; mitch's turn: his target (me) is gone; he drops, you win.
	)
	plays := []Policy{&Style{}, &Style{}, &Style{}}
	must(t, eng.with(plays).Play(c, r))
	if r.Remaining() != 0 || r.Err() != nil {
		t.Fatalf("script: %d left, %v", r.Remaining(), r.Err())
	}
	want := []EventKind{EvRoll, EvRoll, EvRoll, EvChallenge, EvRoll, EvHangIn, EvChallenge, EvRoll, EvHangIn,
		EvRound, EvRoll, EvRoll, EvRoll, EvChallenge, EvRoll, EvDouble, EvLoss, EvDrop, EvEnd}
	if d := cmp.Diff(want, log.Kinds()); d != "" {
		t.Fatalf("events (-want +got):\n%s", d)
	}
	if c.Winner != 0 || c.Sides[1].Status != StatusInjured || c.Sides[2].Status != StatusDropped {
		t.Errorf("winner %d, statuses %v %v", c.Winner, c.Sides[1].Status, c.Sides[2].Status)
	}
}

// TestInterfereAndTurncoat: a side whose roll beats the named answerer
// interferes; a turncoat whose target is gone turns on its ally.
func TestInterfereAndTurncoat(t *testing.T) {
	mk := func(n string) Character {
		return Standard(n, MustStat(dice.D6, dice.D6), MustStat(dice.D6, dice.D6), MustStat(dice.D6, dice.D6),
			[5]string{Art, Grace, Guts, Guts, Art})
	}
	c, err := NewState(DefaultRules(), []Party{
		{Name: "a", Members: []Entry{{Character: mk("A"), Endeavor: Asserting}}, Target: "c"},
		{Name: "b", Members: []Entry{{Character: mk("B"), Endeavor: Asserting}}, Target: "a"},
		{Name: "c", Members: []Entry{{Character: mk("C"), Endeavor: Asserting}}, Target: "a"},
	}, nil)
	must(t, err)
	var log Log
	eng := Engine{Sink: log.Record}
	r := dice.Scripted(
		6, 2, 4, 1, 2, 1, // cast: a 6 challenges c (2); b (4, targets a) interferes
		1, 1, // b answers 1 1: doubled, b is out
		6, 3, // c challenges a; a answers 6 3 > 2 1: blocks and challenges
		1, 1, // c answers 1 1 against 6: doubled, c is out; a wins
	)
	must(t, eng.with([]Policy{&Style{}, &Style{Interference: Guard{}}, &Style{}}).Play(c, r))
	want := []EventKind{EvRoll, EvRoll, EvRoll, EvChallenge, EvInterfere, EvRoll, EvDouble, EvLoss,
		EvChallenge, EvRoll, EvBlock, EvRoll, EvDouble, EvLoss, EvEnd}
	if d := cmp.Diff(want, log.Kinds()); d != "" {
		t.Fatalf("events (-want +got):\n%s", d)
	}
	if c.Winner != 0 {
		t.Errorf("winner %d", c.Winner)
	}

	// A turncoat whose target went out challenges its former ally.
	c, err = NewState(DefaultRules(), []Party{
		{Name: "a", Members: []Entry{{Character: mk("A"), Endeavor: Asserting}}, Target: "c"},
		{Name: "b", Members: []Entry{{Character: mk("B"), Endeavor: Asserting}}, Target: "c"},
		{Name: "c", Members: []Entry{{Character: mk("C"), Endeavor: Asserting}}, Target: "a"},
	}, nil)
	must(t, err)
	log = Log{}
	eng = Engine{Sink: log.Record}
	r = dice.Scripted(
		6, 1, 5, 1, 1, 1, // cast: a 6 challenges c
		1, 1, // c doubled, out
		1, 1, // b's turn: target c gone; turncoat challenges a, who answers 1 1 against 5: doubled
	)
	must(t, eng.with([]Policy{&Style{}, &Style{Targets: Turncoat{}}, &Style{}}).Play(c, r))
	if c.Winner != 1 || c.Sides[0].Status != StatusInjured {
		t.Errorf("winner %d, a %v; want b, a injured", c.Winner, c.Sides[0].Status)
	}
}

func TestOweAcrossConflicts(t *testing.T) {
	small := Standard("Pip", MustStat(dice.D8, dice.D4), MustStat(dice.D6, dice.D6), MustStat(dice.D12, dice.D10),
		[5]string{Art, Art, Grace, Grace, Art})
	small.Player = "ann"
	big := Standard("Brute", MustStat(dice.D6, dice.D4), MustStat(dice.D8, dice.D6), MustStat(dice.D12, dice.D10),
		[5]string{Guts, Guts, Grace, Grace, Art})
	big.Player = "gm"
	cp := &Campaign{Rules: DefaultRules(), Characters: []Character{small, big}}
	sides := []Enlist{
		{Name: "pip", Members: []Role{{Character: "Pip", Endeavor: Asserting}}},
		{Name: "brute", Members: []Role{{Character: "Brute", Endeavor: Asserting}}},
	}
	// State 1: Pip (art d8 d4, 12 sides) against Brute (guts d12 d10,
	// 22). Brute challenges, Pip hangs in: Pip goes on the list. Then
	// Brute doubles Pip in round 2.
	c, err := cp.Start(sides...)
	must(t, err)
	r := dice.Scripted(2, 1, 9, 1, 6, 1 /* round 2 */, 1, 1, 10, 3, 5 /* adv */, 2, 1)
	must(t, Engine{Policies: []Policy{&Style{}, &Style{}}}.Play(c, r))
	must(t, cp.Finish(c))
	if d := cmp.Diff([]Debt{{Name: "Pip", Player: "ann"}}, cp.Owe); d != "" {
		t.Fatalf("owe after conflict 1 (-want +got):\n%s", d)
	}
	// Pip exerts and endures with Grace d6 d6: two sizes take a d6 away.
	if got := cp.Characters[0].Stats[Grace]; got != MustStat(dice.D6) {
		t.Errorf("Pip's Grace after injury %v, want d6", got)
	}
	// State 2: Pip crosses herself off at her first comparison (eager)
	// and adds an advantage die; the name comes off the campaign's list.
	c, err = cp.Start(sides...)
	must(t, err)
	var log Log
	eng := Engine{Sink: log.Record}
	r = dice.Scripted(4, 1, 9, 2, 6 /* Pip's cross-off die: 4+6 = 10 > 9 */, 8, 4, /* Brute answers 8 vs 10: hangs in */
		/* round 2 */ 8, 1, 5 /* adv */, 1, 1, 1 /* Pip crosses off again: 8+5+1 = 14 */, 1, 1 /* Brute doubled */)
	must(t, eng.with([]Policy{&Style{Cross: Eager{}}, &Style{}}).Play(c, r))
	must(t, cp.Finish(c))
	if r.Remaining() != 0 || r.Err() != nil {
		t.Fatalf("script: %d left, %v", r.Remaining(), r.Err())
	}
	if c.Winner != 0 {
		t.Errorf("winner %d, want Pip", c.Winner)
	}
	// Pip crossed herself off at the cast, went back on the list at the
	// end of the first exchange (12 sides against 22, not doubled), and
	// crossed herself off again at the next cast.
	if len(cp.Owe) != 0 {
		t.Errorf("owe after conflict 2: %v, want empty", cp.Owe)
	}
	var got []int
	for _, e := range log.Events {
		if e.Kind == EvCrossOff {
			got = append(got, e.Value)
		}
		if e.Kind == EvOwe && e.Name != "Pip" {
			t.Errorf("owe event %v", e)
		}
	}
	if d := cmp.Diff([]int{6, 1}, got); d != "" {
		t.Errorf("cross-off dice (-want +got):\n%s", d)
	}
}

func snapshot(t *testing.T, c *State) string {
	t.Helper()
	b, err := json.Marshal(c)
	must(t, err)
	return string(b)
}

// TestRejectedStepsLeaveStateUnchanged drives every step with bad input and
// checks the error and that the state is byte-for-byte the same.
func TestRejectedStepsLeaveStateUnchanged(t *testing.T) {
	type step struct {
		name string
		do   func(c *State) error
		want string
	}
	at := func(phase Phase, faces ...int) *State {
		c := duel(t, althesa(), irin(), "warrior_priestessing", Defending)
		c.Owe = []Debt{{Name: "Irin", Player: "Irin"}}
		r := dice.Scripted(faces...)
		for c.Phase != phase {
			must(t, Engine{Policies: []Policy{&Style{}, &Style{}}}.Step(c, r))
		}
		return c
	}
	r := dice.Scripted(1, 1, 1)
	cases := []struct {
		phase Phase
		faces []int
		steps []step
	}{
		{PhaseCast, nil, []step{
			{"resolve before roll", func(c *State) error { return Engine{}.Resolve(c) }, "not allowed"},
			{"challenge before roll", func(c *State) error { return Engine{}.Challenge(c, 1) }, "not allowed"},
			{"stance", func(c *State) error { return Engine{}.Stance(c, true) }, "not allowed"},
			{"injure", func(c *State) error { return Engine{}.Injure(c, nil) }, "not allowed"},
		}},
		{PhaseCastRolled, []int{8, 3, 4, 2}, []step{
			{"cross another player's name", func(c *State) error { return Engine{}.CrossOff(c, r, 0, 0) }, "belongs to player"},
			{"cross a missing entry", func(c *State) error { return Engine{}.CrossOff(c, r, 1, 3) }, "does not exist"},
			{"cross for a missing side", func(c *State) error { return Engine{}.CrossOff(c, r, 5, 0) }, "does not exist"},
		}},
		{PhaseChallenge, []int{8, 3, 4, 2}, []step{
			{"challenge self", func(c *State) error { return Engine{}.Challenge(c, 0) }, "its own challenge"},
			{"challenge nobody", func(c *State) error { return Engine{}.Challenge(c, 7) }, "does not exist"},
			{"roll", func(c *State) error { return Engine{}.Roll(c, r) }, "not allowed"},
			{"interfere", func(c *State) error { return Engine{}.Interfere(c, 1) }, "not allowed"},
			{"bad plays", func(c *State) error { return Engine{Policies: []Policy{&Style{}}}.Step(c, r) }, "1 policies for 2 sides"},
		}},
		{PhaseConsequence, []int{8, 3, 4, 2, 1, 1}, []step{
			{"loss from guts", func(c *State) error {
				return Engine{}.Injure(c, []Loss{{Stat: Guts, Sizes: [MaxDice]int{2}}})
			}, "takes from [grace]"},
			{"one size only", func(c *State) error {
				return Engine{}.Injure(c, []Loss{{Stat: Grace, Sizes: [MaxDice]int{1}}})
			}, "must lose 2 sizes"},
			{"too deep", func(c *State) error {
				return Engine{}.Injure(c, []Loss{{Stat: Grace, Sizes: [MaxDice]int{0, 2}}})
			}, "has only 1 sizes"},
			{"wrong count", func(c *State) error { return Engine{}.Injure(c, nil) }, "0 losses"},
			{"settle adding sizes", func(c *State) error {
				return Engine{}.Settle(c, Settlement{Changes: []Change{{Member: 0, Move: Move{From: Guts, To: Guts, ToDie: 0, FromDie: 1, Sizes: 1}}}})
			}, "pass d12"},
			{"settle unknown member", func(c *State) error {
				return Engine{}.Settle(c, Settlement{Changes: []Change{{Member: 3}}})
			}, "members 0..0"},
			{"loss policy illegal", func(c *State) error {
				return Engine{Policies: []Policy{&Style{Losses: badLoss{}}, &Style{}}}.Step(c, r)
			}, "loss policy"},
		}},
	}
	for _, tc := range cases {
		for _, s := range tc.steps {
			t.Run(tc.phase.String()+"/"+s.name, func(t *testing.T) {
				c := at(tc.phase, tc.faces...)
				before := snapshot(t, c)
				err := s.do(c)
				if err == nil || !strings.Contains(err.Error(), s.want) {
					t.Fatalf("error %v, want one containing %q", err, s.want)
				}
				if after := snapshot(t, c); after != before {
					t.Errorf("state changed:\n%s\n%s", before, after)
				}
			})
		}
	}
	// The phase errors wrap ErrPhase.
	c := at(PhaseCast)
	if err := (Engine{}).Resolve(c); !errors.Is(err, ErrPhase) {
		t.Errorf("Resolve in cast: %v does not wrap ErrPhase", err)
	}
}

type badLoss struct{}

func (badLoss) Loss(c *View, loser, m int, l *Loss) { *l = Loss{Stat: Art, Sizes: [MaxDice]int{2}} }

func TestChallengeOut(t *testing.T) {
	mk := func(n string) Character {
		return Standard(n, MustStat(dice.D6, dice.D6), MustStat(dice.D6, dice.D6), MustStat(dice.D6, dice.D6),
			[5]string{Art, Grace, Guts, Guts, Art})
	}
	c, err := NewState(DefaultRules(), []Party{
		{Name: "a", Members: []Entry{{Character: mk("A"), Endeavor: Asserting}}},
		{Name: "b", Members: []Entry{{Character: mk("B"), Endeavor: Asserting}}},
		{Name: "c", Members: []Entry{{Character: mk("C"), Endeavor: Asserting}}},
	}, nil)
	must(t, err)
	// Play until side c is out and side b challenges.
	r := dice.Scripted(6, 1, 5, 1, 1, 1, 1, 1)
	pl := []Policy{&Style{Targets: Weakest{}}, &Style{}, &Style{}}
	for c.Sides[2].Status == StatusIn {
		must(t, Engine{Policies: pl}.Step(c, r))
	}
	wantPhase(t, c, PhaseChallenge)
	before := snapshot(t, c)
	err = Engine{}.Challenge(c, 2)
	if err == nil || !strings.Contains(err.Error(), "out of the conflict") {
		t.Fatalf("challenging an out side: %v", err)
	}
	if snapshot(t, c) != before {
		t.Error("state changed")
	}
}

func TestConflictJSONRoundTrip(t *testing.T) {
	c := duel(t, althesa(), irin(), "warrior_priestessing", Defending)
	r := dice.Scripted(8, 3, 4, 2, 7, 5, 9, 4, 6, 11, 3, 6, 1)
	// Save at every step, restore, and continue from the restored copy.
	for !c.Done() {
		b, err := json.Marshal(c)
		must(t, err)
		var back State
		dec := json.NewDecoder(strings.NewReader(string(b)))
		dec.DisallowUnknownFields()
		must(t, dec.Decode(&back))
		if d := cmp.Diff(c, &back, cmpopts.IgnoreUnexported(State{}, Side{}), cmpopts.EquateEmpty()); d != "" {
			t.Fatalf("round trip (-want +got):\n%s", d)
		}
		c = &back
		must(t, Engine{Policies: []Policy{&Style{}, &Style{}}}.Step(c, r))
	}
	if c.Winner != 0 {
		t.Errorf("winner %d", c.Winner)
	}
}

func TestCampaignJSONRoundTrip(t *testing.T) {
	cp := Campaign{Rules: DefaultRules(), Characters: []Character{althesa(), irin()},
		Owe: []Debt{{Name: "Irin", Player: "Irin"}}}
	b, err := json.Marshal(cp)
	must(t, err)
	if !strings.Contains(string(b), `"guts":"d12 d6"`) {
		t.Errorf("stats not in dice notation: %s", b)
	}
	var back Campaign
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	must(t, dec.Decode(&back))
	if d := cmp.Diff(cp, back); d != "" {
		t.Errorf("round trip (-want +got):\n%s", d)
	}
	must(t, back.Validate())
}

// TestDamagedSave: a saved conflict that breaks the engine's invariants is
// refused on load.
func TestDamagedSave(t *testing.T) {
	c := duel(t, althesa(), irin(), "warrior_priestessing", Defending)
	r := dice.Scripted(8, 3, 4, 2)
	must(t, Engine{}.Roll(c, r))
	must(t, Engine{}.Resolve(c))
	good, err := json.Marshal(c)
	must(t, err)
	var back State
	must(t, json.Unmarshal(good, &back))
	for _, tc := range []struct{ from, to, want string }{
		{`"of":[0,0]`, `"of":[0]`, "owners"},
		{`"of":[0,0]`, `"of":[0,7]`, "allowed d4..d12 of a member"},
		{`"challenger":0`, `"challenger":5`, "challenger 5"},
		{`"phase":"challenge"`, `"phase":"stance"`, "different answerer"},
		{`"faces":[8,3]`, `"faces":[8,3,1]`, "3 faces for 2 dice"},
		{`"speaker":0`, `"speaker":4`, "speaker"},
		{`"double_factor":2`, `"double_factor":0`, "double_factor"},
	} {
		bad := strings.Replace(string(good), tc.from, tc.to, 1)
		if bad == string(good) {
			t.Fatalf("%s not in the save", tc.from)
		}
		err := json.Unmarshal([]byte(bad), &back)
		wantErr(t, err, tc.want)
	}
}

// TestScriptedRollsOneDieAtATime checks that a scripted roller gives each
// die of a two-dice roll its own face, and that once the script runs out
// the dice show 1 and the roller reports it, as with any roll.
func TestScriptedRollsOneDieAtATime(t *testing.T) {
	c, _, err := DefaultScenario().build()
	must(t, err)
	r := dice.Scripted(7, 2, 11, 5)
	must(t, Engine{}.Roll(c, r))
	if got := [][]int{c.Sides[0].Faces, c.Sides[1].Faces}; !cmp.Equal(got, [][]int{{7, 2}, {11, 5}}) {
		t.Fatalf("cast shows %v, want [[7 2] [11 5]]", got)
	}
	must(t, Engine{}.Resolve(c)) // Irin's 11 beats Althesa's 7: Irin challenges
	must(t, Engine{Policies: make([]Policy, 2)}.Step(c, r))
	if c.Phase != PhaseAnswer || c.Answerer != 0 {
		t.Fatalf("phase %v answerer %d, want Althesa to answer", c.Phase, c.Answerer)
	}
	must(t, Engine{}.Roll(c, r))
	if got := c.Sides[0].Faces; !cmp.Equal(got, []int{1, 1}) || r.Err() == nil {
		t.Fatalf("after the script ran out: faces %v, roller error %v; want [1 1] and an error", got, r.Err())
	}
}

// with is e playing policies.
func (e Engine) with(policies []Policy) Engine {
	e.Policies = policies
	return e
}
