package dice

import (
	"errors"
	"math/big"
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
// 1..6, exactly, at any depth: a die still on a duplicate after its
// re-rolls takes a face drawn from those not yet kept.
func TestUniqueDist(t *testing.T) {
	for _, depth := range []int{1, 10} {
		e, err := Parser{Depth: depth}.Parse("3d6u")
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
			if !near(d.Prob(v), want[v]) {
				t.Errorf("3d6u at depth %d: P(%d) = %v, want %v", depth, v, d.Prob(v), want[v])
			}
		}
		if cut != 0 {
			t.Errorf("3d6u at depth %d cuts %v", depth, cut)
		}
	}
}

// 8d20u, too large for the sets of faces rolled, is the count of
// 8-subsets of 1..20 by sum over C(20, 8), fraction for fraction; and
// with a point, 6d10u>7 (only 8, 9 and 10 may not repeat) matches a
// walk over every sequence of kept faces, each die even over the faces
// it may keep.
func TestUniqueLarge(t *testing.T) {
	e, err := ParseExpr("8d20u")
	if err != nil {
		t.Fatal(err)
	}
	count := map[int]int64{}
	var pick func(from, left, sum int)
	pick = func(from, left, sum int) {
		if left == 0 {
			count[sum]++
			return
		}
		for f := from; f <= 20; f++ {
			pick(f+1, left-1, sum+f)
		}
	}
	pick(1, 8, 0)
	fr, err := e.Fractions()
	if err != nil {
		t.Fatal(err)
	}
	d, cut, err := e.Dist()
	if err != nil || cut != 0 {
		t.Fatalf("8d20u: cut %v, %v", cut, err)
	}
	for v, c := range count {
		want := big.NewRat(c, 125970)
		if fr.Rat(v).Cmp(want) != 0 {
			t.Errorf("8d20u: P(%d) = %v, want %v", v, fr.Rat(v), want)
		}
		if w, _ := want.Float64(); !nearRel(d.Prob(v), w) {
			t.Errorf("8d20u: P(%d) = %v, want %v", v, d.Prob(v), w)
		}
	}
	for _, c := range []struct {
		text      string
		n, s, top int // n dice of s sides, faces above top unique
		fractions bool
	}{{"6d10u>7", 6, 10, 7, false}, {"4d6u>4", 4, 6, 4, true}} {
		e, err := ParseExpr(c.text)
		if err != nil {
			t.Fatal(err)
		}
		want := uniqueWalk(c.n, c.s, c.top)
		d, _, err := e.Dist()
		if err != nil {
			t.Fatal(err)
		}
		var fr Fractions
		if c.fractions {
			if fr, err = e.Fractions(); err != nil {
				t.Fatal(err)
			}
		}
		for v, p := range want {
			if w, _ := p.Float64(); !nearRel(d.Prob(v), w) {
				t.Errorf("%s: P(%d) = %v, want %v", c.text, v, d.Prob(v), p)
			}
			if c.fractions && fr.Rat(v).Cmp(p) != 0 {
				t.Errorf("%s: P(%d) = %v, want %v", c.text, v, fr.Rat(v), p)
			}
		}
	}
}

// uniqueWalk returns the distribution of the sum of n dice of s sides,
// faces above top never repeated, walking every sequence of kept faces:
// each die even over the faces it may keep.
func uniqueWalk(n, s, top int) map[int]*big.Rat {
	out := map[int]*big.Rat{}
	var walk func(die, sum int, used uint64, p *big.Rat)
	walk = func(die, sum int, used uint64, p *big.Rat) {
		if die == n {
			if out[sum] == nil {
				out[sum] = new(big.Rat)
			}
			out[sum].Add(out[sum], p)
			return
		}
		ok := 0
		for f := 1; f <= s; f++ {
			if f <= top || used&(1<<f) == 0 {
				ok++
			}
		}
		q := new(big.Rat).Mul(p, big.NewRat(1, int64(ok)))
		for f := 1; f <= s; f++ {
			if f <= top || used&(1<<f) == 0 {
				walk(die+1, sum+f, used|1<<f, q)
			}
		}
	}
	walk(0, 0, 0, big.NewRat(1, 1))
	return out
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
	// Past the work bounds, an error wrapping ErrTooLarge: uo follows the
	// sets of faces rolled, u the sets of faces kept by sum.
	for _, s := range []string{"40d100uo", "1000d2000u"} {
		e, err := ParseExpr(s)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := e.Dist(); !errors.Is(err, ErrTooLarge) {
			t.Errorf("%s: %v", s, err)
		}
	}
}
