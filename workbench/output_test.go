package workbench

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stakesrpg/stakes/sim"
)

// TestReportNamesItsSourceAndHidesImpossibleRows: the header says where
// the scenario came from and what was changed; outcomes that neither
// happened nor can happen are counted, not printed.
func TestReportNamesItsSourceAndHidesImpossibleRows(t *testing.T) {
	_, out, _ := stakes(t, "sim", "edge", "--trials", "2000", "--set", "rules.start_edge=4", "--generator", "chacha8")
	for _, want := range []string{
		"scenario: built-in, changed: rules.start_edge=4",
		"2000 trials, seed 1, generator chacha8",
		"(3 outcomes never happened and are hidden: lead_car_partial, pursuer_partial, draw)",
		"95% half-width",
		"half of trials",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
	if strings.Contains(out, "  draw ") {
		t.Errorf("the impossible draw row is printed:\n%s", out)
	}
	p := filepath.Join(t.TempDir(), "s.jsonc")
	os.WriteFile(p, []byte(`{"mechanic": "coin", "scenario": {"target": 2}}`), 0o644)
	_, out, _ = stakes(t, "sim", "coin", "--trials", "500", "--file", p, "--set", "sides=3")
	if !strings.Contains(out, "scenario: from "+p+", changed: sides=3") {
		t.Errorf("file and change not named:\n%s", out)
	}
}

// TestHistogramRowsFollowTheDistribution: with many values, rows of equal
// width cover the middle 98% and the tails gather at the ends; the rows'
// shares, sampled and exact, each add up to the whole.
func TestHistogramRowsFollowTheDistribution(t *testing.T) {
	// A geometric-like spread over 1..200.
	h := sim.Histogram{Min: 1, Counts: make([]int64, 200)}
	exact := make([]float64, 202)
	for i := range h.Counts {
		h.Counts[i] = int64(1000 * math.Pow(0.97, float64(i)))
		exact[i+1] = float64(h.Counts[i])
	}
	total := 0.0
	for _, p := range exact {
		total += p
	}
	for i := range exact {
		exact[i] /= total
	}
	var b bytes.Buffer
	writeHistogram(&b, sim.Metric{Name: "rounds", Hist: h}, exact)
	rows := strings.Split(strings.TrimSpace(b.String()), "\n")[1:]
	if len(rows) > maxBins || len(rows) < maxBins-2 {
		t.Fatalf("%d rows:\n%s", len(rows), b.String())
	}
	if !strings.HasPrefix(strings.TrimSpace(rows[len(rows)-1]), ">=") {
		t.Errorf("the last row does not gather the tail: %q", rows[len(rows)-1])
	}
	var sampled, ex float64
	for _, r := range rows {
		f := strings.Fields(r)
		p, _ := strconv.ParseFloat(f[len(f)-3], 64)
		e, _ := strconv.ParseFloat(f[len(f)-1], 64)
		sampled += p
		ex += e
	}
	if math.Abs(sampled-1) > 0.002 || math.Abs(ex-1) > 0.002 {
		t.Errorf("rows add up to %v sampled, %v exact:\n%s", sampled, ex, b.String())
	}
}

// TestPrecisionTargetIsReportedReachedOrNot: --precision holds the odds to
// an absolute and the means to a relative half-width, and the report says
// whether the target was met.
func TestPrecisionTargetIsReportedReachedOrNot(t *testing.T) {
	_, out, _ := stakes(t, "sim", "coin", "--precision", "0.01", "--trials", "1000000")
	if !strings.Contains(out, "precision target (odds within ±0.01, means within ±1%): reached after") {
		t.Errorf("reached target not reported:\n%s", out)
	}
	_, out, _ = stakes(t, "sim", "coin", "--precision", "0.0001", "--trials", "2000")
	if !strings.Contains(out, "NOT reached within the 2000 trials allowed") {
		t.Errorf("missed target not reported:\n%s", out)
	}
}

// TestIllegalPolicyAnswerIsAnError: a trial whose policy answered what the
// rules refuse ends the command with exit 1 and the reason, never with odds.
func TestIllegalPolicyAnswerIsAnError(t *testing.T) {
	code, out, errOut := stakes(t, "sim", "coin", "--set", "label=illegal", "--trials", "500")
	if code != 1 || !strings.Contains(errOut, "trial 0 of chunk 0") || !strings.Contains(errOut, "side a's policy staked 7 coins; allowed 1..2") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
	if strings.Contains(out, "a_wins") {
		t.Errorf("odds were printed for a failed run:\n%s", out)
	}
}

// TestSimCSVCarriesTheExactAnswer: sim --csv adds the exact answer to sim's
// rows, each outcome's probability exactly as the mechanic computes it.
func TestSimCSVCarriesTheExactAnswer(t *testing.T) {
	_, out, _ := stakes(t, "sim", "coin", "--trials", "300", "--csv")
	for _, want := range []string{"exact,a_wins,,,0.3333333333333333,,,,,\n", "exact,tie,,,0.3333333333333333,,,,,\n",
		"exact,mean_rounds,,,,,,1.3333333333333333,,\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("sim --csv lacks %q:\n%s", want, out)
		}
	}
	_, out, _ = stakes(t, "sim", "coin", "--trials", "300", "--set", "sides=3", "--csv")
	if !strings.Contains(out, "no_exact,reason,no exact answer for this scenario: coin: sides other than 2") {
		t.Errorf("sim --csv without an exact answer says not why:\n%s", out)
	}
}

// TestMissingExactSaysWhatToSet: where the round limit stops edge's exact
// answer, odds says so and names the setting that gives it.
func TestMissingExactSaysWhatToSet(t *testing.T) {
	code, _, errOut := stakes(t, "odds", "edge", "--set", "rules.start_edge=11")
	if code != 1 || !strings.Contains(errOut, "outlasts rules.max_rounds") || !strings.Contains(errOut, "--set rules.max_rounds=0") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}
