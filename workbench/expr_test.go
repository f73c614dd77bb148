package workbench

import (
	"bytes"
	"encoding/json"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRollExpr(t *testing.T) {
	code, out, errOut := stakes(t, "roll", "4d6kh3", "--seed", "9", "--times", "3")
	want := "4d6kh3 (seed 9)\n" +
		"  4d6kh3: [~~1~~, 2, 3, 6] = 11\n" +
		"  4d6kh3: [3, 3, 6, ~~3~~] = 12\n" +
		"  4d6kh3: [~~2~~, 3, 6, 4] = 13\n"
	if code != 0 || out != want {
		t.Errorf("exit %d, %s\n got %q\nwant %q", code, errOut, out, want)
	}
	// Words join into one expression, as pools do.
	_, again, _ := stakes(t, "roll", "4d6", "kh3", "--seed", "9", "--times", "3")
	if again != out {
		t.Errorf("words joined differently:\n%s", again)
	}
	// A plain pool prints as it always has.
	_, pool, _ := stakes(t, "roll", "4d6+2", "--seed", "9")
	if !strings.Contains(pool, "d6:") || strings.Contains(pool, "[") {
		t.Errorf("a plain pool prints as an expression:\n%s", pool)
	}
	code, out, _ = stakes(t, "roll", "3d6!", "--seed", "2", "--times", "2", "--json")
	var got struct {
		Expr  string
		Seed  uint64
		Rolls []struct {
			Total int
			Dice  []struct{ Face, Value int }
		}
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || code != 0 {
		t.Fatalf("JSON %v: %s", err, out)
	}
	if got.Expr != "3d6!" || got.Seed != 2 || len(got.Rolls) != 2 {
		t.Errorf("JSON %+v", got)
	}
	for _, r := range got.Rolls {
		sum := 0
		for _, d := range r.Dice {
			sum += d.Value
		}
		if sum != r.Total || len(r.Dice) < 3 {
			t.Errorf("a roll's dice add to %d, its total is %d", sum, r.Total)
		}
	}
}

func TestOddsExpr(t *testing.T) {
	code, out, errOut := stakes(t, "odds", "3d6")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"3d6: exact distribution\n",
		"  mean 10.5000  sd 2.9580\n",
		"      3  0.004630  1.000000  0.004630  1/216\n",
		"     10  0.125000  0.625000  0.500000  1/8\n",
		"     18  0.004630  0.004630  1.000000  1/216\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("odds 3d6 lacks %q:\n%s", want, out)
		}
	}
	_, out, _ = stakes(t, "odds", "d6!")
	if !strings.Contains(out, "stop at depth 10: the unbounded odds differ by at most 2.76e-09") {
		t.Errorf("odds d6! does not report the truncation:\n%s", out)
	}
	_, out, _ = stakes(t, "odds", "d6", "vs", "d6")
	for _, want := range []string{"P(A > B) 0.416667", "P(A = B) 0.166667", "P(A < B) 0.416667", "margin A-B: mean 0.0000",
		"      0  0.166667  0.583333  0.583333\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("odds d6 vs d6 lacks %q:\n%s", want, out)
		}
	}
	code, out, _ = stakes(t, "odds", "2d20kh1", "vs", "d20+5", "--json")
	var v struct {
		A, B      string
		AHigher   float64 `json:"a_higher"`
		Tie       float64
		BHigher   float64 `json:"b_higher"`
		Margin    struct{ Outcomes []struct{ Value int } }
		Truncated float64
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil || code != 0 {
		t.Fatalf("JSON %v: %s", err, out)
	}
	// Of the 8000 equally likely pairs of 2d20kh1's 400 rolls and d20+5's
	// 20, counted by hand, A wins 3185 and ties 375.
	near := func(x, y float64) bool { return math.Abs(x-y) < 1e-12 }
	if v.A != "2d20kh1" || v.B != "d20+5" || !near(v.AHigher, 3185.0/8000) || !near(v.Tie, 375.0/8000) ||
		!near(v.BHigher, 4440.0/8000) || len(v.Margin.Outcomes) != 39 || v.Margin.Outcomes[0].Value != -24 {
		t.Errorf("JSON %+v", v)
	}
}

func TestOddsExprErrors(t *testing.T) {
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"odds", "4d6kx3"}, 2, `at 4: unknown modifier "kx"`},
		{[]string{"odds", "xyz"}, 2, `unknown mechanic "xyz"`},
		{[]string{"odds", "3d6", "vs"}, 2, "give EXPR vs EXPR"},
		{[]string{"odds", "3d6", "--set", "x=1"}, 2, "a dice expression takes --json and --plot only"},
		{[]string{"odds", "3d6", "--plot", "x.gif"}, 2, "must end in .png or .svg"},
		{[]string{"odds", "3d6", "--plot", "/nonexistent-dir/x.png"}, 1, "--plot /nonexistent-dir/x.png"},
		{[]string{"odds", "d1000000*d1000000"}, 1, "too large"},
		{[]string{"roll", "4d6kh3", "--times", "0"}, 2, "--times 0"},
		{[]string{"roll", "5000d6kh1", "--times", "201"}, 2, "at most 1000000"},
	}
	for _, tt := range tests {
		code, _, errOut := stakes(t, tt.args...)
		if code != tt.code || !strings.Contains(errOut, tt.want) {
			t.Errorf("%q: exit %d, %q; want %d, %q", tt.args, code, errOut, tt.code, tt.want)
		}
	}
}

// World of Darkness's ten-again under a keep has an exact answer: the two
// dice of highest total, every roll of theirs counted on 8+.
func TestOddsExprKeepEachRoll(t *testing.T) {
	code, out, errOut := stakes(t, "odds", "4d10! >=8kh2", "--json")
	var got struct {
		Truncated float64   `json:"truncated"`
		Mean      float64   `json:"mean"`
		Outcomes  []distRow `json:"outcomes"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &got) != nil {
		t.Fatalf("exit %d, %s\n%s", code, errOut, out)
	}
	total := 0.0
	for _, r := range got.Outcomes {
		total += r.P
	}
	// The kept dice are the two best, so they average more successes than
	// two dice taken at random: 2 x 0.3/0.9 (a d10 of ten-again counts 8+
	// on each roll, and rolls again on 10).
	if got.Outcomes[0].Value != 0 || got.Truncated <= 0 || math.Abs(total-1) > 1e-9 || got.Mean <= 2*0.3/0.9 || got.Mean > 22 {
		t.Errorf("odds 4d10! >=8kh2: %+v", got)
	}
}

// odds EXPR --plot and odds A vs B --plot write a valid PNG or SVG.
func TestOddsExprPlot(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		file string
		args []string
	}{
		{"one.png", []string{"odds", "4d6kh3"}},
		{"one.svg", []string{"odds", "3d6!"}},
		{"vs.png", []string{"odds", "2d20kh1", "vs", "d20+5"}},
		{"wide.png", []string{"odds", "d1000 d6"}},
	}
	for _, tt := range tests {
		p := filepath.Join(dir, tt.file)
		code, out, errOut := stakes(t, append(tt.args, "--plot", p)...)
		if code != 0 || !strings.Contains(out, "exact") {
			t.Fatalf("%q: exit %d, %s\n%s", tt.args, code, errOut, out)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(tt.file, ".svg") {
			if !bytes.Contains(b, []byte("<svg")) || !bytes.Contains(b, []byte("</svg>")) {
				t.Errorf("%s: not an SVG document (%d bytes)", tt.file, len(b))
			}
			continue
		}
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Errorf("%s: %v", tt.file, err)
			continue
		}
		if sz := img.Bounds().Size(); sz.X < 600 || sz.Y < 300 {
			t.Errorf("%s: %v pixels", tt.file, sz)
		}
	}
}

func TestRoundStep(t *testing.T) {
	for span, want := range map[int]int{0: 1, 10: 1, 11: 2, 20: 2, 25: 5, 50: 5, 51: 10, 1000: 100, 1001: 200} {
		if got := roundStep(span); got != want {
			t.Errorf("roundStep(%d) = %d, want %d", span, got, want)
		}
	}
}

// TestOddsReadsTheDialectAndGivesFractions: --dialect chooses how ">"
// reads (Roll20's "6d6>3" counts a 3), the table gives each chance as an
// exact fraction where the denominator fits, and --view chooses what the
// plot draws.
func TestOddsReadsTheDialectAndGivesFractions(t *testing.T) {
	_, strict, _ := stakes(t, "odds", "6d6>3", "--json")
	_, roll20, _ := stakes(t, "odds", "6d6>3", "--dialect", "roll20", "--json")
	var a, b struct {
		Expr string  `json:"expr"`
		Mean float64 `json:"mean"`
		Den  int64   `json:"denominator"`
		Rows []struct {
			Value    int    `json:"value"`
			Fraction string `json:"fraction"`
		} `json:"outcomes"`
	}
	if err := json.Unmarshal([]byte(strict), &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(roll20), &b); err != nil {
		t.Fatal(err)
	}
	if a.Mean != 3 || math.Abs(b.Mean-4) > 1e-12 || b.Expr != "6d6>=3" {
		t.Errorf("6d6>3: stakes mean %v, roll20 %q mean %v; want 3 and 6d6>=3 with 4", a.Mean, b.Expr, b.Mean)
	}
	if a.Den != 46656 || a.Rows[0].Value != 0 || a.Rows[0].Fraction != "1/64" {
		t.Errorf("6d6>3 fractions: denominator %d, first row %+v; want 6^6 and 0 at 1/64", a.Den, a.Rows[0])
	}
	code, _, errOut := stakes(t, "odds", "3d6", "--view", "sideways")
	if code != 2 || !strings.Contains(errOut, "allowed equal, at_least, at_most") {
		t.Errorf("--view sideways: exit %d %q", code, errOut)
	}
	code, _, errOut = stakes(t, "odds", "3d6", "--dialect", "hackmaster")
	if code != 2 || !strings.Contains(errOut, "dialect") {
		t.Errorf("--dialect hackmaster: exit %d %q", code, errOut)
	}
}
