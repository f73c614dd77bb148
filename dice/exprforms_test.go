package dice

import (
	"errors"
	"math/big"
	"os"
	"strings"
	"testing"
)

// forms is the table of the package documentation: every form of the
// Roll20 Dice Reference and Avrae's d20 grammar this package reads, in the
// dialect that reads it, with its canonical print. Each row's exact
// distribution is checked against a brute-force enumeration of every roll.
var forms = []struct {
	dialect Dialect
	text    string
	canon   string
}{
	{Stakes, "3d6", "3d6"},
	{Stakes, "d%", "d100"},
	{Stakes, "4dF", "4dF"},
	{Stakes, "d6 d4", "d6 d4"},
	{Stakes, "4d6kh3", "4d6kh3"},
	{Roll20, "4d6k3", "4d6kh3"},
	{Avrae, "4d6k3", "4d6k=3"},
	{Stakes, "3d6kl2", "3d6kl2"},
	{Stakes, "4d6dl1", "4d6dl1"},
	{Roll20, "4d6d1", "4d6dl1"},
	{Stakes, "3d6dh1", "3d6dh1"},
	{Avrae, "4d6ph1", "4d6dh1"},
	{Avrae, "4d6pl1", "4d6dl1"},
	{Avrae, "4d4k>2", "4d4k>2"},
	{Stakes, "4d4k>2", "4d4k>2"},
	{Avrae, "4d4p<2", "4d4p<2"},
	{Avrae, "4d4p1", "4d4p=1"},
	{Stakes, "2d6!", "2d6!"},
	{Stakes, "2d6!>4", "2d6!>4"},
	{Roll20, "2d6!>4", "2d6!>=4"},
	{Avrae, "2d6e6", "2d6!6"},
	{Stakes, "2d6!!", "2d6!!"},
	{Stakes, "2d6!p", "2d6!p"},
	{Stakes, "3d6r1", "3d6r1"},
	{Avrae, "3d6rr1", "3d6r1"},
	{Roll20, "2d8r1r3", "2d8r1r3"},
	{Roll20, "2d6r<2", "2d6r<=2"},
	{Stakes, "3d6ro1", "3d6ro1"},
	{Avrae, "2d6ra6", "2d6rao6"},
	{Stakes, "3d4rao4", "3d4rao4"},
	{Avrae, "3d4ro1ra4", "3d4ro1rao4"},
	{Roll20, "2d4rao>3", "2d4rao>=3"},
	{Avrae, "3d6mi2", "3d6mi2"},
	{Avrae, "3d6ma5", "3d6ma5"},
	{Stakes, "3d6min2max5", "3d6mi2ma5"},
	{Stakes, "5d6>=5", "5d6>=5"},
	{Roll20, "5d6>5", "5d6>=5"},
	{Roll20, "4d6>4f1", "4d6>=4f1"},
	{Avrae, "3d6>=10", "(3d6)>=10"},
	{Stakes, "(3d6)>=10", "(3d6)>=10"},
	{Stakes, "d20+5>=15", "d20+5>=15"},
	{Roll20, "d20+5>15", "d20+5>=15"},
	{Stakes, "2d6+1 tiers 6,9", "2d6+1 tiers 6,9"},
	{Stakes, "(2d6+2d4)kh2", "2d6 2d4kh2"},
	{Stakes, "floor(d20/3)", "floor(d20/3)"},
	{Stakes, "ceil(d20/3)", "ceil(d20/3)"},
	{Stakes, "-d20/3", "-d20/3"},
	{Roll20, "3d6sd", "3d6sd"},
	{Roll20, "4d6m", "4d6m"},
	{Roll20, "4d6m3", "4d6m3"},
	{Roll20, "d20cs>19cf1", "d20cs>=19cf1"},
	{Roll20, "2d6[fire]+d4[cold]", "2d6[fire]+d4[cold]"},
	{Avrae, "d20+5 # to hit", "d20+5 # to hit"},
	{Roll20, "{2d4+2d3}k3", "2d4 2d3kh3"},
	{Roll20, "{2d4, d6+1}kh1", "{2d4, d6+1}kh1"},
	{Roll20, "{2d4, d6+1}d1", "{2d4, d6+1}dl1"},
	{Roll20, "{3d4+1}>8", "{3d4+1}>=8"},
	{Roll20, "{2d4, 2d4, d6}>5", "{2d4, 2d4, d6}>=5"},
	{Roll20, "{d6, d4, 3}>3f1", "{d6, d4, 3}>=3f1"},
	{Avrae, "(1d20, 1d20)kh1", "{d20, d20}kh1"},
	{Avrae, "(d6, d4, 2)k>2", "{d6, d4, 2}k>2"},
	{Stakes, "3d{0,0,1,2}", "3d{0,0,1,2}"},
	{Stakes, "3d{1,1,2,3}kh2", "3d{1,1,2,3}kh2"},
	{Stakes, "2d{1,2,5}r1>=2", "2d{1,2,5}r1>=2"},
	{Stakes, "3dF.1", "3d{-1,0,0,0,0,1}"},
	{Stakes, "2dF.2", "2dF"},
	{Stakes, "4d10>=8>=10", "4d10>=8>=10"},
	{Stakes, "3d10>=8>=10f1kh2", "3d10kh2>=8>=10f1"},
	{Stakes, "2d10! >=8>=10", "2d10! >=8>=10"},
	{Avrae, "d20//3", "floor(d20/3)"},
	{Avrae, "-d20//3", "floor(-d20/3)"},
	{Avrae, "d20 != 1", "(d20)!=1"},
	{Avrae, "+d20+5 == 8", "d20+5=8"},
	{Stakes, "d20%7", "d20%7"},
	{Stakes, "-d8%3", "-d8%3"},
	{Stakes, "d6^2", "d6^2"},
	{Stakes, "(d4-2)**3", "(d4-2)^3"},
	{Stakes, "-2^d3", "-2^d3"},
	{Stakes, "d4^d3", "d4^d3"},
	{Stakes, "(2d6+3)*2", "(2d6+3)*2"},
	{Stakes, "d6*d4", "d6*d4"},
	{Stakes, "3d4u", "3d4u"},
	{Roll20, "3d4uo", "3d4uo"},
	{Avrae, "3d4u=4", "3d4u4"},
	{Roll20, "4d3u>2", "4d3u>=2"},
	{Roll20, "4d6mt", "4d6mt"},
	{Stakes, "5d4mt3", "5d4mt3"},
	{Roll20, "4d6mt>3", "4d6mt>=3"},
	{Stakes, "4dFmt=0", "4dFmt=0"},
}

// enumerateRolls returns the exact distribution of e's total by walking every
// roll: it rolls with a script of the faces chosen so far, and where the
// roll asks for one more die it branches on each of its faces, each with
// probability one over its sides.
func enumerateRolls(t *testing.T, e *Expr) map[int]*big.Rat {
	t.Helper()
	out := map[int]*big.Rat{}
	leaves := 0
	var walk func(prefix []int, p *big.Rat)
	walk = func(prefix []int, p *big.Rat) {
		r := Scripted(prefix...)
		var sizes []int
		r.script.sizes = &sizes
		var res ExprResult
		if err := e.Roll(r, &res); err != nil {
			t.Fatal(err)
		}
		if len(sizes) > len(prefix) {
			s := sizes[len(prefix)]
			q := new(big.Rat).Mul(p, big.NewRat(1, int64(s)))
			for f := 1; f <= s; f++ {
				walk(append(prefix[:len(prefix):len(prefix)], f), q)
			}
			return
		}
		if leaves++; leaves > 1<<20 {
			t.Fatalf("%s: too many rolls to enumerate", e)
		}
		if out[res.Total] == nil {
			out[res.Total] = new(big.Rat)
		}
		out[res.Total].Add(out[res.Total], p)
	}
	walk(nil, big.NewRat(1, 1))
	return out
}

func TestFormsTable(t *testing.T) {
	for _, f := range forms {
		e, err := Parser{Dialect: f.dialect, Depth: 2}.Parse(f.text)
		if err != nil {
			t.Errorf("%v %q: %v", f.dialect, f.text, err)
			continue
		}
		canon := e.String()
		if canon != f.canon {
			t.Errorf("%v %q prints %q, want %q", f.dialect, f.text, canon, f.canon)
		}
		d, _, err := e.Dist()
		if err != nil {
			t.Errorf("%v %q: %v", f.dialect, f.text, err)
			continue
		}
		exact := enumerateRolls(t, e)
		total := new(big.Rat)
		for v, p := range exact {
			total.Add(total, p)
			want, _ := p.Float64()
			if got := d.Prob(v); !nearRel(got, want) {
				t.Errorf("%v %q: P(%d) = %v, enumerated %v", f.dialect, f.text, v, got, want)
			}
		}
		if total.Cmp(big.NewRat(1, 1)) != 0 {
			t.Errorf("%v %q: enumerated mass %v", f.dialect, f.text, total)
		}
		for i, p := range d.P {
			if p != 0 && exact[d.Min+i] == nil {
				t.Errorf("%v %q: P(%d) = %v, never rolled", f.dialect, f.text, d.Min+i, p)
			}
		}
	}
}

// nearRel reports whether a is b to 1e-12, relative to b where b is tiny.
func nearRel(a, b float64) bool {
	d := a - b
	if d < 0 {
		d = -d
	}
	return d <= 1e-12*max(b, 1e-300) || d <= 1e-15
}

// Tails far below 1e-16 are kept, against exact rationals: three d6!! at
// depth 10 keep the two highest at 132 (both of two dice at 66, each
// 6^-11), and d100! cuts off exactly 100^-11 (the chance its last
// allowed roll is 100 again).
func TestTailsKept(t *testing.T) {
	e, _ := ParseExpr("3d6!!kh2")
	d, _, err := e.Dist()
	if err != nil {
		t.Fatal(err)
	}
	p := new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Exp(big.NewInt(6), big.NewInt(11), nil))
	one := big.NewRat(1, 1)
	// 3 p^2 (1-p) + p^3
	q := new(big.Rat).Mul(big.NewRat(3, 1), new(big.Rat).Mul(p, p))
	q.Mul(q, new(big.Rat).Sub(one, p))
	q.Add(q, new(big.Rat).Mul(p, new(big.Rat).Mul(p, p)))
	want, _ := q.Float64()
	if got := d.Prob(132); !nearRel(got, want) || d.Max() != 132 {
		t.Errorf("3d6!!kh2: P(132) = %v (max %d), want %v", got, d.Max(), want)
	}
	e, _ = ParseExpr("d100!")
	_, cut, _ := e.Dist()
	w := new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Exp(big.NewInt(100), big.NewInt(11), nil))
	if want, _ := w.Float64(); !nearRel(cut, want) {
		t.Errorf("d100!: truncated %v, want %v", cut, want)
	}
	// Depth 100: the chance a d6!! is still exploding is 6^-101 (3e-79).
	e, _ = Parser{Depth: 100}.Parse("d6!!")
	_, cut, _ = e.Dist()
	w = new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Exp(big.NewInt(6), big.NewInt(101), nil))
	if want, _ := w.Float64(); !nearRel(cut, want) {
		t.Errorf("d6!! at depth 100: truncated %v, want %v", cut, want)
	}
}

// The dialect reads by name, refuses unknown ones, and a Parser of an
// unknown dialect or depth refuses to parse.
func TestDialectNames(t *testing.T) {
	for _, d := range []Dialect{Stakes, Roll20, Avrae} {
		var back Dialect
		b, err := d.MarshalText()
		if err != nil || back.Set(string(b)) != nil || back != d {
			t.Errorf("%v: %s, %v -> %v", d, b, err, back)
		}
	}
	var d Dialect
	if err := d.Set("foundry"); err == nil || d != Stakes {
		t.Errorf("an unknown dialect: %v, %v", d, err)
	}
	if _, err := (Parser{Dialect: 7}).Parse("d6"); err == nil {
		t.Error("dialect 7 parsed")
	}
	if _, err := (Parser{Depth: MaxDepth + 1}).Parse("d6"); err == nil {
		t.Error("a depth past MaxDepth parsed")
	}
	if _, err := Dialect(9).MarshalText(); err == nil || Dialect(9).String() != "Dialect(9)" {
		t.Error("dialect 9 printed")
	}
}

// The whole check and tiers read as the table says, with their errors.
func TestChecksAndTiers(t *testing.T) {
	for _, c := range []struct {
		text string
		p    map[int]float64
	}{
		{"d20+5>=15", map[int]float64{1: 11.0 / 20, 0: 9.0 / 20}},
		{"d6 tiers 2,4", map[int]float64{0: 2.0 / 6, 1: 2.0 / 6, 2: 2.0 / 6}},
		{"floor(-d4/3)", map[int]float64{-1: 3.0 / 4, -2: 1.0 / 4}},
		{"ceil(-d4/3)", map[int]float64{0: 2.0 / 4, -1: 2.0 / 4}},
		{"-d4/3", map[int]float64{0: 2.0 / 4, -1: 2.0 / 4}},
		// A base of -1, 0 or 1 may take an exponent near MaxValue: the
		// power is by squaring, not one multiply a unit of the exponent.
		{"(d3-2)^(1000000*1000000+1)", map[int]float64{-1: 1.0 / 3, 0: 1.0 / 3, 1: 1.0 / 3}},
		{"(d3-2)^(1000000*1000000)", map[int]float64{0: 1.0 / 3, 1: 2.0 / 3}},
		{"2^d3", map[int]float64{2: 1.0 / 3, 4: 1.0 / 3, 8: 1.0 / 3}},
	} {
		e, err := ParseExpr(c.text)
		if err != nil {
			t.Fatal(err)
		}
		d, _, _ := e.Dist()
		for v, p := range c.p {
			if !near(d.Prob(v), p) {
				t.Errorf("%s: P(%d) = %v, want %v", c.text, v, d.Prob(v), p)
			}
		}
	}
	for text, want := range map[string]string{
		"d6>=7+0":        "never acts",
		"d6+1>=1":        "the check >= never changes",
		"d6 tiers 4,3":   "must rise",
		"d6 tiers 6":     "never change",
		"floor(d6)":      "never acts on a whole number",
		"floor d6":       "unexpected",
		"-(d6+1>3)":      "cannot be negated",
		"(d6+1)kh1":      "modifiers after ')'",
		"2d6[fire":       "no ']' closes",
		"2d6[a][b]":      "a second label",
		"2d6sasd":        "a second sort",
		"4d6kh1p1":       "a second keep",
		"4d6p":           "p drops the dice on a selector",
		"4d6mi3ma2":      "no roll could read both",
		"d6!ra6":         "a pool explodes one way",
		"4d6e6ra6":       "a pool explodes one way",
		"4d10!>=8kh1k>5": "a second keep",
		"4d10! >=8k>5":   "selector with successes counted on every exploded roll",
		"4dFra1":         "Fudge dice do not explode",
		"4d6rao6kh3":     "does not combine with a keep",
		"4d6rao6>=5":     "does not combine with a keep, a drop, a success count",
		"d6 d4rao4":      "mixed sizes",
		"d6rao6rao5":     "a pool explodes one way",
		"2d4rao5":        "never acts",
		"4dFe1":          "Fudge dice do not explode",
		"4d6e7":          "never acts",
		"2d6r1rr1ro1":    "one way",
		"d6mi2mi3":       "a second mi",
		"d6 tiers x":     "a tier's upper bound",
	} {
		if _, err := ParseExpr(text); err == nil || !contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", text, err, want)
		}
	}
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }

// Exact fractions agree with the enumeration of every roll, fraction for
// fraction, for every row of the forms table; past the bound they are
// refused.
func TestFractions(t *testing.T) {
	for _, f := range forms {
		e, err := Parser{Dialect: f.dialect, Depth: 2}.Parse(f.text)
		if err != nil {
			t.Fatal(err)
		}
		fr, err := e.Fractions()
		if err != nil {
			t.Errorf("%v %q: %v", f.dialect, f.text, err)
			continue
		}
		exact := enumerateRolls(t, e)
		for v, p := range exact {
			if got := fr.Rat(v); got.Cmp(p) != 0 {
				t.Errorf("%v %q: P(%d) = %v, enumerated %v", f.dialect, f.text, v, got, p)
			}
		}
		for i, n := range fr.Num {
			if n != 0 && exact[fr.Min+i] == nil {
				t.Errorf("%v %q: P(%d) = %d/%d, never rolled", f.dialect, f.text, fr.Min+i, n, fr.Den)
			}
		}
	}
	// Closed forms: advantage rolls a 20 39 times in 400, 4d6 keep 3
	// rolls 18 21 times in 1296, and 10d10's denominator is 10^10.
	for _, c := range []struct {
		text string
		v    int
		p    *big.Rat
		den  int64
	}{{"2d20kh1", 20, big.NewRat(39, 400), 400}, {"4d6kh3", 18, big.NewRat(21, 1296), 1296}, {"10d10kh3", 3, big.NewRat(1, 10_000_000_000), 10_000_000_000}} {
		e, _ := ParseExpr(c.text)
		fr, err := e.Fractions()
		if err != nil || fr.Den != c.den || fr.Rat(c.v).Cmp(c.p) != 0 {
			t.Errorf("%s: P(%d) = %v over %d, %v; want %v", c.text, c.v, fr.Rat(c.v), fr.Den, err, c.p)
		}
	}
	for _, s := range []string{"3d6!", "20d6"} {
		e, _ := ParseExpr(s)
		if _, err := e.Fractions(); !errors.Is(err, ErrTooLarge) {
			t.Errorf("%s: %v", s, err)
		}
	}
	if _, err := (&Expr{}).Fractions(); err == nil {
		t.Error("an empty Expr answered")
	}
	if (Fractions{}).Rat(3).Sign() != 0 {
		t.Error("the zero Fractions has mass")
	}
}

// formsText returns the table of the package documentation: every text of
// forms with its canonical reading in each dialect ("error" where the
// dialect refuses it), at the default depth.
func formsText() string {
	var b strings.Builder
	row := func(cells ...string) {
		b.WriteString("//\t")
		for i, c := range cells {
			if i < len(cells)-1 {
				c += strings.Repeat(" ", max(24-len(c), 1))
			}
			b.WriteString(c)
		}
		b.WriteString("\n")
	}
	row("text", "stakes", "roll20", "avrae")
	seen := map[string]bool{}
	for _, f := range forms {
		if seen[f.text] {
			continue
		}
		seen[f.text] = true
		cells := []string{f.text}
		for _, d := range []Dialect{Stakes, Roll20, Avrae} {
			e, err := Parser{Dialect: d}.Parse(f.text)
			if err != nil {
				cells = append(cells, "error")
				continue
			}
			cells = append(cells, e.String())
		}
		row(cells...)
	}
	return b.String()
}

// The documentation's table is formsText: every form, its reading in
// each dialect; and every reading in it is checked by enumeration.
func TestFormsDoc(t *testing.T) {
	src, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	want := formsText()
	if !strings.Contains(string(src), want) {
		t.Errorf("doc.go does not hold the forms table; it should read:\n%s", want)
	}
	for _, f := range forms {
		for _, d := range []Dialect{Stakes, Roll20, Avrae} {
			e, err := Parser{Dialect: d, Depth: 2}.Parse(f.text)
			if err != nil {
				continue
			}
			dist, _, err := e.Dist()
			if err != nil {
				t.Fatalf("%v %q: %v", d, f.text, err)
			}
			for v, p := range enumerateRolls(t, e) {
				if want, _ := p.Float64(); !nearRel(dist.Prob(v), want) {
					t.Errorf("%v %q: P(%d) = %v, enumerated %v", d, f.text, v, dist.Prob(v), want)
				}
			}
		}
	}
}
