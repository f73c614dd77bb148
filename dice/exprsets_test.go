package dice

import (
	"strings"
	"testing"
)

// u re-rolls a die while it shows a face an earlier die kept; the
// breakdown shows the re-rolled face.
func TestUniqueRoll(t *testing.T) {
	e, err := ParseExpr("3d6u")
	if err != nil {
		t.Fatal(err)
	}
	var res ExprResult
	if err := e.Roll(Scripted(4, 4, 4, 2, 2, 6), &res); err != nil {
		t.Fatal(err)
	}
	if got := res.String(); got != "3d6u: [4, 4r, 4r, 2, 2r, 6] = 12" {
		t.Errorf("3d6u rolls %s", got)
	}
	once, _ := ParseExpr("3d6uo")
	if err := once.Roll(Scripted(4, 4, 4, 2), &res); err != nil {
		t.Fatal(err)
	}
	if got := res.String(); got != "3d6uo: [4, 4r, 4, 2] = 10" {
		t.Errorf("3d6uo rolls %s", got)
	}
	point, _ := ParseExpr("4d6u=5")
	if err := point.Roll(Scripted(5, 5, 3, 3, 5, 2), &res); err != nil {
		t.Fatal(err)
	}
	if got := res.String(); got != "4d6u5: [5, 5r, 3, 3, 5r, 2] = 13" {
		t.Errorf("4d6u=5 rolls %s", got)
	}
}

// Full uniqueness: the sum of 3d6u is the sum of a uniform 3-subset of
// 1..6, up to the mass cut off at the depth.
func TestUniqueDist(t *testing.T) {
	e, err := Parser{Depth: 60}.Parse("3d6u")
	if err != nil {
		t.Fatal(err)
	}
	d, cut, err := e.Dist()
	if err != nil {
		t.Fatal(err)
	}
	want := map[int]float64{}
	for a := 1; a <= 6; a++ {
		for b := a + 1; b <= 6; b++ {
			for c := b + 1; c <= 6; c++ {
				want[a+b+c] += 1.0 / 20
			}
		}
	}
	for v := d.Min; v <= d.Max(); v++ {
		if diff := d.Prob(v) - want[v]; diff > 1e-9 || diff < -1e-9 {
			t.Errorf("3d6u: P(%d) = %v, want %v", v, d.Prob(v), want[v])
		}
	}
	if cut <= 0 || cut > 1e-9 {
		t.Errorf("3d6u at depth 60 cuts %v", cut)
	}
}

// mt counts sets of equal dice and marks the dice of each counted set.
func TestMatchRoll(t *testing.T) {
	e, err := Parser{Dialect: Roll20}.Parse("5d6mt>3")
	if err != nil {
		t.Fatal(err)
	}
	var res ExprResult
	if err := e.Roll(Scripted(2, 5, 2, 5, 4), &res); err != nil {
		t.Fatal(err)
	}
	if got := res.String(); got != "5d6mt>=3: [2, 5*, 2, 5*, 4] = 1" {
		t.Errorf("5d6mt>3 rolls %s", got)
	}
	three, _ := ParseExpr("5d6mt3")
	if err := three.Roll(Scripted(2, 5, 2, 5, 2), &res); err != nil {
		t.Fatal(err)
	}
	if got := res.String(); got != "5d6mt3: [2*, 5, 2*, 5, 2*] = 1" {
		t.Errorf("5d6mt3 rolls %s", got)
	}
}

func TestSetsRefused(t *testing.T) {
	for _, c := range []struct {
		d          Dialect
		text, want string
	}{
		{Stakes, "4d3u", "can never finish"},
		{Stakes, "4dFu", "4dF u can never finish"},
		{Stakes, "4dFmt>1", "no face of a dF"},
		{Stakes, "d6u", "never acts"},
		{Stakes, "3d6u>6", "never acts"},
		{Avrae, "4d6mt", "not in Avrae"},
		{Stakes, "2d6mt3", "never counts"},
		{Stakes, "4d6mt1", "2 or more"},
		{Stakes, "4d6umt", "do not combine"},
		{Stakes, "4d6ukh3", "does not combine"},
		{Stakes, "2d6 2d8mt", "one size"},
		{Stakes, "3d{1,1,2}u", "custom faces"},
		{Roll20, "{2d4, d6}u", "put them on the dice inside"},
		{Avrae, "(d6, d6)uo", "put them on the dice inside"},
		{Roll20, "{2d4, d6}mt", "put them on the dice inside"},
	} {
		_, err := Parser{Dialect: c.d}.Parse(c.text)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v %q: %v, want an error saying %q", c.d, c.text, err, c.want)
		}
	}
	// A pool that re-rolls duplicates or counts sets is not merged into
	// the dice added to it.
	for _, s := range []string{"4d6u+2d6", "2d6+4d6mt", "{4d6}u"} {
		e, err := Parser{Dialect: Roll20}.Parse(s)
		if err != nil || e.Dice() != 4+2*strings.Count(s, "2d6") {
			t.Errorf("%q: %v, %v", s, e, err)
		}
	}
	// 4d3u=1 can finish: only a second 1 re-rolls.
	if _, err := ParseExpr("4d3u=1"); err != nil {
		t.Errorf("4d3u=1: %v", err)
	}
	// Past the work bounds, an error wrapping ErrTooLarge.
	e, err := ParseExpr("40d100u")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := e.Dist(); err == nil || !strings.Contains(err.Error(), "too large") {
		t.Errorf("40d100u: %v", err)
	}
}
