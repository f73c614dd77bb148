package workbench

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./workbench -run TestGolden -update to create it)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs from the golden file; if the change is intended, run go test ./workbench -run TestGolden -update\n--- got:\n%s", name, got)
	}
}

// The output formats at a fixed seed, for every subcommand and mechanic.
func TestGolden(t *testing.T) {
	if testing.Short() {
		t.Skip("golden runs simulate every mechanic")
	}
	fixed := []string{"--seed", "7", "--trials", "3000", "--workers", "2", "--no-time"}
	cases := []struct {
		name string
		args []string
	}{
		{"report.txt", append([]string{}, fixed...)},
		{"report.csv", append([]string{"--csv"}, fixed...)},
		{"roll.txt", []string{"roll", "d12 d8 d6+1", "--seed", "9", "--times", "3"}},
		{"roll.json", []string{"roll", "4d6", "--seed", "9", "--json"}},
		{"odds-actiontest.txt", []string{"odds", "actiontest", "--set", "pool=3"}},
		{"odds-contest.txt", []string{"odds", "contest", "d10 d8 d6", "vs", "d8 d8"}},
		{"odds-contest.json", []string{"odds", "contest", "d10 d6", "vs", "7", "--json"}},
		{"odds-challenge.txt", []string{"odds", "challenge"}},
		{"odds-edge.json", []string{"odds", "edge", "--json"}},
		{"odds-dramadeck.txt", []string{"odds", "dramadeck"}},
		{"compare-edge.txt", append([]string{"compare", "edge", "--a", "rules.start_edge=5", "--b", "rules.start_edge=6"}, fixed...)},
		{"sweep-actiontest.csv", append([]string{"sweep", "actiontest", "--axis", "pool=2..4", "--csv"}, fixed...)},
		{"sweep-edge.txt", append([]string{"sweep", "edge", "--axis", "rules.start_edge=4..6"}, fixed...)},
		{"sweep-actiontest.txt", append([]string{"sweep", "actiontest", "--axis", "pool=2..3", "--axis", "difficulty=1,2"}, fixed...)},
	}
	for _, m := range reportOrder {
		cases = append(cases,
			struct {
				name string
				args []string
			}{"sim-" + m + ".json", append([]string{"sim", m, "--json"}, fixed...)},
			struct {
				name string
				args []string
			}{"sim-" + m + ".csv", append([]string{"sim", m, "--csv"}, fixed...)})
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := stakes(t, tc.args...)
			if code != 0 {
				t.Fatalf("stakes %s: exit %d: %s", strings.Join(tc.args, " "), code, errOut)
			}
			golden(t, tc.name, out)
		})
	}
}

// Every example scenario file runs.
func TestExampleScenarioFiles(t *testing.T) {
	files, err := filepath.Glob("../examples/scenarios/*.jsonc")
	if err != nil || len(files) < 5 {
		t.Fatalf("example scenarios: %v %v", files, err)
	}
	for _, f := range files {
		code, out, errOut := stakes(t, "run", f, "--trials", "2000", "--no-time")
		if code != 0 {
			t.Errorf("%s: exit %d: %s", f, code, errOut)
			continue
		}
		if !strings.Contains(out, "2000 trials") {
			t.Errorf("%s: output:\n%s", f, out)
		}
	}
}

// With --json, the same seed gives byte-identical output for any
// --workers, on every real mechanic.
func TestWorkersDoNotChangeNumbers(t *testing.T) {
	if testing.Short() {
		t.Skip("simulates every mechanic twice")
	}
	for _, m := range reportOrder {
		a := []string{"sim", m, "--json", "--seed", "3", "--trials", "5000", "--no-time"}
		_, one, _ := stakes(t, append(a, "--workers", "1")...)
		code, many, errOut := stakes(t, append(a, "--workers", "5")...)
		if code != 0 || one != many {
			t.Errorf("%s: 1 and 5 workers differ (exit %d %s)", m, code, errOut)
		}
	}
}
