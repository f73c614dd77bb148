package workbench

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestVerdict(t *testing.T) {
	nan := math.NaN()
	tests := []struct {
		diff, lo, hi, exact float64
		unit                string
		decimals            int
		want                string
	}{
		{4.1, 3.4, 4.8, nan, "points", 1, "B raises x by 4.1 points (95% interval 3.4 to 4.8)"},
		{-4.1, -4.8, -3.4, nan, "points", 1, "B lowers x by 4.1 points (95% interval 3.4 to 4.8)"},
		{-4.1, -4.8, -3.4, -5, "points", 1, "B lowers x by 4.1 points (95% interval 3.4 to 4.8; exact 5.0)"},
		{2.5, 1, 4, 2.25, "", 2, "B raises x by 2.50 (95% interval 1.00 to 4.00; exact 2.25)"},
		{0.3, -0.2, 0.8, nan, "points", 1, "x: no difference detectable at this many trials (the interval -0.2 to 0.8 points spans 0)"},
		{0, 0, 0, 0, "points", 1, "x: no difference detectable at this many trials (the interval 0.0 to 0.0 points spans 0; exact +0.0)"},
	}
	for _, tt := range tests {
		if got := verdict("x", tt.diff, tt.lo, tt.hi, tt.exact, tt.unit, tt.decimals); got != tt.want {
			t.Errorf("verdict(%v, %v, %v, %v):\n got %q\nwant %q", tt.diff, tt.lo, tt.hi, tt.exact, got, tt.want)
		}
	}
}

// Both sides exact (the coin race to 1 head on d2, relabelled on B): the
// exact columns show 1/3 on each side and a difference of 0, and common
// random numbers make the sampled difference exactly 0 too.
func TestCompareExactColumns(t *testing.T) {
	code, out, errOut := stakes(t, "compare", "coin", "--trials", "2000", "--b", "label=other")
	if code != 0 {
		t.Fatalf("exit %d %s", code, errOut)
	}
	for _, want := range []string{
		"exact A  exact B  exact A-B",
		"0.3333   0.3333    +0.0000",
		"coin: race to 1 heads on d2\n  scenario: built-in\n  A: unchanged\n  B: label=other\n",
		"+0.000  [+0.000, +0.000]        1.333    1.333     +0.000\n",
		"verdict (B against A):",
		"a_wins: no difference detectable at this many trials (the interval 0.0 to 0.0 points spans 0; exact +0.0)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("compare output lacks %q:\n%s", want, out)
		}
	}
	code, out, _ = stakes(t, "compare", "coin", "--trials", "2000", "--b", "sides=3")
	if code != 0 || strings.Contains(out, "exact A") || !strings.Contains(out, "exact: none for B (") ||
		!strings.Contains(out, "B raises a_wins by") {
		t.Errorf("B without an exact answer: exit %d\n%s", code, out)
	}
}

func TestCompareMachineOutputsCarryExact(t *testing.T) {
	args := []string{"compare", "coin", "--trials", "2000", "--b", "label=other"}
	_, out, _ := stakes(t, append(args, "--csv")...)
	for _, want := range []string{
		"exact_a,category,a_wins,,,0.3333333333333333,,,,,\n",
		"exact_b,metric,rounds,,,,,,1.3333333333333333,,\n",
		"exact_diff,category,tie,,,0,,,,,\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("csv lacks %q", want)
		}
	}
	_, out, _ = stakes(t, append(args, "--json")...)
	var cr comparisonResult
	if err := json.Unmarshal([]byte(out), &cr); err != nil || cr.Mechanic != "coin" || cr.ExactA == nil ||
		cr.ExactB.MeanRounds != 4.0/3 || cr.A.Trials != 2000 {
		t.Errorf("json: %v %+v", err, cr)
	}
}

func TestComparePlot(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ file, b string }{{"c.png", "label=x"}, {"c.svg", "target=9"}} {
		p := filepath.Join(dir, tc.file)
		code, _, errOut := stakes(t, "compare", "coin", "--trials", "2000", "--b", tc.b, "--plot", p)
		if code != 0 {
			t.Fatalf("exit %d %s", code, errOut)
		}
		if st, err := os.Stat(p); err != nil || st.Size() < 2000 {
			t.Errorf("%s: %v %v", tc.file, err, st)
		}
	}
}
