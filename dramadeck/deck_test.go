package dramadeck

import (
	"bytes"
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

func TestNamesRoundTrip(t *testing.T) {
	for _, n := range Names() {
		b, err := n.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		var m Name
		if err := m.UnmarshalText(b); err != nil || m != n {
			t.Errorf("%v: %v %v", n, m, err)
		}
	}
	for _, b := range Bars() {
		v, err := ParseBar(b.String())
		if err != nil || v != b {
			t.Errorf("bar %v", b)
		}
	}
	for e := Flurry; e < numEffects; e++ {
		v, err := ParseEffect(e.String())
		if err != nil || v != e {
			t.Errorf("effect %v", e)
		}
	}
	want(t, int(Alertness.Kind()), int(Deferred))
	want(t, int(Romance.Kind()), int(Subplot))
	want(t, int(Haste.Kind()), int(Immediate))
}
