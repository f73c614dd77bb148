package workbench

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The sweep table: axis values, each outcome's odds, interval and exact
// odds where the scenario's Exact answers (the coin race has one for
// target 1 on d2 only), and the mean rounds.
func TestSweepTable(t *testing.T) {
	code, out, errOut := stakes(t, "sweep", "coin", "--trials", "3000", "--axis", "target=1..3")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if len(lines) < 8 || strings.Fields(lines[7])[0] != "3" {
		t.Fatalf("want 4 header lines, a column header and 3 rows:\n%s", out)
	}
	for _, want := range []string{"coin: race to 1 heads on d2", "swept: target=1..3", "3000 trials a cell, seed 1"} {
		if !strings.Contains(out, want) {
			t.Errorf("header lacks %q:\n%s", want, out)
		}
	}
	head := strings.Fields(lines[4])
	wantHead := []string{"target", "a_wins", "95%", "interval", "exact", "b_wins", "95%", "interval", "exact",
		"tie", "95%", "interval", "exact", "mean", "rounds", "±95%", "exact"}
	if strings.Join(head, " ") != strings.Join(wantHead, " ") {
		t.Errorf("column header %q, want %q", head, wantHead)
	}
	// Target 1: the exact odds are 1/3 each and the exact mean 4/3; the
	// other cells have no exact answer.
	row1 := strings.Fields(lines[5])
	if row1[0] != "1" || strings.TrimSuffix(row1[3], "*") != "0.3333" || row1[len(row1)-1] != "1.33" {
		t.Errorf("target 1 row: %q", row1)
	}
	for _, l := range lines[6:8] {
		f := strings.Fields(l)
		if f[3] != "-" || f[len(f)-1] != "-" {
			t.Errorf("a cell without an exact answer shows %q, want -", l)
		}
	}
}

func TestSweepOutcomes(t *testing.T) {
	code, out, errOut := stakes(t, "sweep", "coin", "--trials", "2000", "--axis", "target=1,2", "--outcomes", "tie,rounds")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	head := strings.Join(strings.Fields(lines[4]), " ")
	if head != "target tie 95% interval exact mean rounds ±95% exact" {
		t.Errorf("--outcomes tie,rounds: header %q", head)
	}
	for _, tc := range []struct {
		flag, want string
	}{
		{"a_win", `no outcome or metric "a_win"; did you mean "a_wins"?`},
		{"zzz", "the outcomes are a_wins, b_wins, tie"},
	} {
		code, _, errOut := stakes(t, "sweep", "coin", "--axis", "target=1,2", "--outcomes", tc.flag)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("--outcomes %s: exit %d %q, want 2 and %q", tc.flag, code, errOut, tc.want)
		}
	}
}

// CSV and JSON keep every number and add the exact ones.
func TestSweepMachineOutputsCarryExact(t *testing.T) {
	args := []string{"sweep", "coin", "--trials", "2000", "--axis", "target=1,2"}
	code, out, _ := stakes(t, append(args, "--csv")...)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) != 3 {
		t.Fatalf("csv: exit %d\n%s", code, out)
	}
	head := strings.Split(lines[0], ",")
	tail := strings.Join(head[len(head)-4:], ",")
	if tail != "a_wins_exact,b_wins_exact,tie_exact,exact_mean_rounds" {
		t.Errorf("csv exact columns: %q", tail)
	}
	if !strings.HasSuffix(lines[1], ",0.3333333333333333,0.3333333333333333,0.3333333333333333,1.3333333333333333") {
		t.Errorf("csv target 1 row: %q", lines[1])
	}
	if !strings.HasSuffix(lines[2], ",,,,") {
		t.Errorf("csv target 2 row has no exact answer: %q", lines[2])
	}
	code, out, _ = stakes(t, append(args, "--json")...)
	var sr sweepResult
	if err := json.Unmarshal([]byte(out), &sr); code != 0 || err != nil {
		t.Fatalf("json: exit %d %v", code, err)
	}
	if sr.Mechanic != "coin" || len(sr.Exact) != 2 || sr.Exact[0].Exact == nil || sr.Exact[0].Exact.P[2] != 1.0/3 {
		t.Errorf("json exact[0]: %+v", sr.Exact)
	}
	if sr.Exact[1].Exact != nil || !strings.Contains(sr.Exact[1].NoExact, "sides other than 2") ||
		strings.Join(sr.Exact[1].Values, ",") != "2" {
		t.Errorf("json exact[1]: %+v", sr.Exact[1])
	}
}

func TestSweepPlot(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		axes []string
	}{
		{"one.png", []string{"--axis", "target=1..3"}},
		{"two.svg", []string{"--axis", "target=1..3", "--axis", "sides=2,3"}},
		{"names.png", []string{"--axis", "label=x,y"}},
	} {
		p := filepath.Join(dir, tc.name)
		args := append([]string{"sweep", "coin", "--trials", "1000", "--plot", p}, tc.axes...)
		if code, _, errOut := stakes(t, args...); code != 0 {
			t.Fatalf("%q: exit %d %s", args, code, errOut)
		}
		if st, err := os.Stat(p); err != nil || st.Size() < 2000 {
			t.Errorf("%s: %v %v", tc.name, err, st)
		}
	}
	code, _, errOut := stakes(t, "sweep", "coin", "--plot", filepath.Join(dir, "x.png"),
		"--axis", "target=1,2", "--axis", "sides=2,3", "--axis", "label=a,b")
	if code != 2 || !strings.Contains(errOut, "--plot draws one or two axes") {
		t.Errorf("three axes: exit %d %q", code, errOut)
	}
	code, _, errOut = stakes(t, "sweep", "coin", "--plot", filepath.Join(dir, "x.png"), "--axis", "target=1,2", "--outcomes", "rounds")
	if code != 2 || !strings.Contains(errOut, "at least one outcome") {
		t.Errorf("metrics only: exit %d %q", code, errOut)
	}
}
