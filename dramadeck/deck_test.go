package dramadeck

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestDefaultDeckComposition(t *testing.T) {
	d, err := DefaultDeck()
	if err != nil {
		t.Fatal(err)
	}
	if d.Len() != 156 {
		t.Fatalf("default deck has %d cards, want 156", d.Len())
	}
	for _, c := range DefaultComposition() {
		if got := d.Count(c.Name); got != c.Count {
			t.Errorf("%v: %d cards, want %d", c.Name, got, c.Count)
		}
	}
	// GM-side proportions of RULINGS.
	var stdHeroes, draVillains, effects, bars, special, one int
	for _, c := range d.Cards {
		if c.Standard.First == Heroes {
			stdHeroes++
		}
		if c.Dramatic.First == Villains {
			draVillains++
		}
		for _, l := range []Line{c.Standard, c.Dramatic} {
			if l.Hero != NoEffect || l.Villain != NoEffect {
				effects++
			}
			if l.Hero == Break {
				t.Error("Break on the hero side")
			}
		}
		if c.Bar.Special() {
			special++
		} else {
			bars++
		}
		if c.Approved[1] == NoAct {
			one++
		}
	}
	want(t, stdHeroes, 104)
	want(t, draVillains, 104)
	want(t, effects, 104)
	want(t, bars, 125)
	want(t, special, 31)
	want(t, one, 78)
}

func TestParseDeck(t *testing.T) {
	full := "# a two-card deck\n2 Coup de Grace | S: Heroes Flurry - | D: Villains - Break Taunt | Act: Attack, Trick | Bar: Possible Setback\n"
	d, err := ParseDeck(strings.NewReader(full), 0)
	if err != nil {
		t.Fatal(err)
	}
	c := Card{Name: CoupDeGrace, Standard: Line{First: Heroes, Hero: Flurry},
		Dramatic: Line{First: Villains, Villain: Break, VillainAction: Taunt}, Approved: [2]Act{Attack, Trick}, Bar: PossibleSetback}
	if diff := cmp.Diff(&Deck{Cards: []Card{c, c}}, d); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	// Format writes what ParseDeck reads.
	def, _ := DefaultDeck()
	var buf bytes.Buffer
	if err := def.Format(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := ParseDeck(&buf, 0)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(def, back); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
	// A composition file gets generated GM sides.
	d, err = ParseDeck(strings.NewReader("3 Hero\n2 willpower\n1 Hero\n"), 42)
	if err != nil {
		t.Fatal(err)
	}
	want(t, d.Len(), 6)
	want(t, d.Count(Hero), 4)
}

func TestParseDeckErrors(t *testing.T) {
	for _, text := range []string{
		"",
		"3 Bogus Card\n",
		"0 Hero\n",
		"-2 Hero\n",
		"x Hero\n",
		"Hero\n",
		"2000 Hero\n",
		"1 Hero\n1 Drama | S: Heroes - - | D: Heroes - - | Act: Attack | Bar: A\n",
		"1 Drama | S: Heroes - - | D: Heroes - - | Act: Attack\n",
		"1 Drama | S: Heroes Frenzy - | D: Heroes - - | Act: Attack | Bar: A\n",
		"1 Drama | S: Sideways - - | D: Heroes - - | Act: Attack | Bar: A\n",
		"1 Drama | S: Heroes - - | D: Heroes - - | Act: Attack, Attack | Bar: A\n",
		"1 Drama | S: Heroes - - | D: Heroes - - | Act: Work | Bar: A\n",
		"1 Drama | S: Heroes - - | D: Heroes - - | Act: Attack | Bar: E\n",
		"1 Drama | S: Heroes - - Unskilled | D: Heroes - - | Act: Attack | Bar: A\n",
		"1 Drama | S: Heroes Unskilled - | D: Heroes - - | Act: Attack | Bar: A\n",
	} {
		if _, err := ParseDeck(strings.NewReader(text), 0); err == nil {
			t.Errorf("ParseDeck(%q): no error", text)
		} else {
			t.Logf("%q: %v", text, err)
		}
	}
	if _, err := Generate([]Count{{Hero, 1}, {Hero, 2}}, 0); err == nil {
		t.Error("duplicate composition row accepted")
	}
	if _, err := Generate(nil, 0); err == nil {
		t.Error("empty composition accepted")
	}
}

// roundTrip writes every value of an enum as text and reads it back,
// and refuses the first value past the end and a lower-case name.
func roundTrip[T interface {
	~uint8
	MarshalText() ([]byte, error)
}](t *testing.T, n int, read func(*T, []byte) error) {
	t.Helper()
	for i := range n {
		v := T(i)
		b, err := v.MarshalText()
		if err != nil {
			t.Fatalf("%T %d: %v", v, i, err)
		}
		var back T
		if err := read(&back, b); err != nil || back != v {
			t.Errorf("%T %d -> %q -> %d, %v", v, i, b, back, err)
		}
		if s := fmt.Sprint(v); s != string(b) {
			t.Errorf("%T %d: String %q, MarshalText %q", v, i, s, b)
		}
		if low := strings.ToLower(string(b)); low != string(b) {
			if err := read(&back, []byte(low)); err == nil {
				t.Errorf("%T: %q read as %v (names are read exactly as written)", v, low, back)
			}
		}
	}
	if _, err := T(n).MarshalText(); err == nil {
		t.Errorf("%T %d past the end written", T(n), n)
	}
}

// Every enum writes and reads its name one way (internal/named's Enum).
func TestEnumsRoundTrip(t *testing.T) {
	roundTrip(t, int(numNames), (*Name).UnmarshalText)
	roundTrip(t, 3, (*Kind).UnmarshalText)
	roundTrip(t, 2, (*Side).UnmarshalText)
	roundTrip(t, int(numEffects), (*Effect).UnmarshalText)
	roundTrip(t, int(numActs), (*Act).UnmarshalText)
	roundTrip(t, int(numBars), (*Bar).UnmarshalText)
}

// A deck file names cards leniently (case, spaces, underscores, hyphens,
// apostrophes aside), and "-" or a near miss is no card.
func TestDeckFileReadsCardNamesLeniently(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Name
	}{
		{"coup de grace", CoupDeGrace}, {"Opponent_Fails", OpponentFails}, {" SECOND-CHANCE ", SecondChance},
		{"Coup de Grace", CoupDeGrace}, {"-", NoName}, {"", NoName}, {"Heroes", NoName},
	} {
		got, err := readCardName(tc.in)
		if got != tc.want || (err == nil) != (tc.want != NoName) {
			t.Errorf("readCardName(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
	d, err := ParseDeck(strings.NewReader("2 coup de grace\n1 opponent fails\n"), 1)
	if err != nil {
		t.Fatal(err)
	}
	want(t, len(d.Cards), 3)
}

func TestNameKinds(t *testing.T) {
	want(t, int(Alertness.Kind()), int(Deferred))
	want(t, int(Romance.Kind()), int(Subplot))
	want(t, int(Haste.Kind()), int(Immediate))
}

// A scenario describes its deck fully: the default composition spelled
// out is the shipped deck (deck_seed 0 reads DefaultSeed, and the default
// proportions are the shipped deck's), a whole deck may be given card by
// card, and the GM faces' proportions are settings.
func TestScenarioDescribesItsDeckFully(t *testing.T) {
	shipped, err := DefaultDeck()
	if err != nil {
		t.Fatal(err)
	}
	spelled := DefaultScenario()
	spelled.Deck = DefaultComposition()
	whole := DefaultScenario()
	whole.Cards = shipped.Clone().Cards
	for name, sc := range map[string]Scenario{"composition": spelled, "cards": whole} {
		d, err := sc.MakeDeck()
		if err != nil {
			t.Fatal(name, err)
		}
		if !slices.Equal(d.Cards, shipped.Cards) {
			t.Errorf("%s: not the shipped deck", name)
		}
	}
	// Proportions: every line heroes-first, none with an effect, every
	// card approving two actions, every bar a special case.
	faces := Faces{MinorityFirst: Share{0, 1}, Effects: Share{0, 1}, VillainActions: Share{0, 1}, Steps: Share{0, 1}, TwoApproved: Share{1, 1}}
	d, err := GenerateFaces(DefaultComposition(), 5, faces)
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range d.Cards {
		if c.Standard.First != Heroes || c.Dramatic.First != Villains || c.Standard.Hero != NoEffect ||
			c.Standard.Villain != NoEffect || c.Approved[1] == NoAct || !c.Bar.Special() {
			t.Fatalf("card %d: %+v", i, c)
		}
	}
	bad := map[string]func(*Scenario){
		"cards and deck":     func(s *Scenario) { s.Cards, s.Deck = shipped.Cards, DefaultComposition() },
		"seed without deck":  func(s *Scenario) { s.DeckSeed = 3 },
		"faces without deck": func(s *Scenario) { s.Faces = DefaultFaces() },
		"share over one":     func(s *Scenario) { s.Deck, s.Faces = DefaultComposition(), faces; s.Faces.Steps = Share{3, 2} },
		"effects and actions": func(s *Scenario) {
			s.Deck, s.Faces = DefaultComposition(), faces
			s.Faces.Effects, s.Faces.VillainActions = Share{2, 3}, Share{1, 2}
		},
		"a card with no name": func(s *Scenario) { s.Cards = []Card{{}} },
		"zero denominator":    func(s *Scenario) { s.Deck, s.Faces = DefaultComposition(), faces; s.Faces.Effects = Share{0, 0} },
	}
	for name, f := range bad {
		sc := DefaultScenario()
		f(&sc)
		if err := sc.Validate(); err == nil {
			t.Errorf("%s: valid", name)
		}
	}
}

// A line's approved villain action lets the GM strip a card on its
// success; Defend never could, so no line approves it (8 of the shipped
// deck's 52 used to): the other six share the villain actions.
func TestNoLineApprovesDefendForTheVillains(t *testing.T) {
	d, err := DefaultDeck()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[Act]int{}
	for _, c := range d.Cards {
		for _, l := range [2]Line{c.Standard, c.Dramatic} {
			if l.VillainAction != NoAct {
				seen[l.VillainAction]++
			}
		}
	}
	if seen[Defend] != 0 || len(seen) != 6 {
		t.Errorf("villain actions %v: want the six other than Defend", seen)
	}
}
