package workbench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// stakes runs the command in-process and returns its exit code, stdout and
// stderr.
func stakes(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Run(context.Background(), args, &out, &errb, testMechanics...)
	return code, out.String(), errb.String()
}

func TestUsageAndErrors(t *testing.T) {
	tests := []struct {
		args    []string
		code    int
		errWant string
	}{
		{[]string{"nonsense"}, 2, `unknown command "nonsense"`},
		{[]string{"roll"}, 2, "give dice notation"},
		{[]string{"roll", "d7x"}, 2, `"d7x"`},
		{[]string{"roll", "3d6", "--times", "0"}, 2, "--times 0"},
		{[]string{"roll", "3d6", "--bogus"}, 2, "roll: unknown flag --bogus (see stakes roll --help)"},
		{[]string{"sim", "edge", "--trails", "5"}, 2, "unknown flag --trails; did you mean --trials?"},
		{[]string{"odds", "edge", "--trials", "5"}, 2, "odds: unknown flag --trials"},
		{[]string{"odds", "edge", "--csv"}, 2, "odds: unknown flag --csv"},
		{[]string{"odds", "contest", "d8", "vs", "d6", "--plot", "x.png"}, 2, "odds: --plot draws a scenario's exact odds"},
		{[]string{"run", "x.jsonc", "--file", "y"}, 2, "run: unknown flag --file"},
		{[]string{"--set", "x=1"}, 2, "unknown flag --set"},
		{[]string{"sim", "coin", "--trials", "1000000000001"}, 2, "--trials 1000000000001: allowed"},
		{[]string{"sim", "coin", "--workers", "5000"}, 2, "--workers 5000: allowed"},
		{[]string{"sim", "coin", "--precision", "NaN"}, 2, "--precision NaN"},
		{[]string{"odds", "contest", "d12 d10", "vs", "9223372036854775807"}, 2, "stakes 9223372036854775807: allowed"},
		{[]string{"odds", "contest", "d12 d10", "vs", "99999999999999999999999"}, 2, "allowed -1000000..1000000"},
		{[]string{"roll", "10000d1000000", "--times", "10000"}, 2, "at most 1000000"},
		{[]string{"roll", "d6", "--times", "1000001"}, 2, "--times 1000001: allowed 1..1000000"},
		{[]string{"odds", "--bogus", "d6"}, 2, "odds: unknown flag --bogus"},
		{[]string{"simm", "coin"}, 2, `unknown command "simm"; did you mean "sim"?`},
		{[]string{"sim"}, 2, "name one mechanic"},
		{[]string{"sim", "nosuch"}, 2, `unknown mechanic "nosuch"`},
		{[]string{"sim", "coin", "--trials", "0"}, 2, "--trials 0"},
		{[]string{"sim", "coin", "--workers", "-1"}, 2, "--workers -1"},
		{[]string{"sim", "coin", "--json", "--csv"}, 2, "exclusive"},
		{[]string{"sim", "coin", "--plot", "x.gif"}, 2, ".png or .svg"},
		{[]string{"sim", "coin", "--set", "target"}, 2, "want key=value"},
		{[]string{"sim", "coin", "--set", "nokey=3"}, 2, `--set nokey: unknown key`},
		{[]string{"sim", "coin", "--set", "targt=3"}, 2, `--set targt: unknown key; did you mean target?`},
		{[]string{"sim", "coin", "--set", "bonus=[1]"}, 2, `did you mean one of inner.bonus, teams.0.bonus, teams.1.bonus?`},
		{[]string{"sim", "coin", "--set", "target=six"}, 2, `key "target" takes a whole number, not text`},
		{[]string{"sim", "coin", "--set", "target", "3"}, 2, `write a setting as one word, key=value: --set target=3`},
		{[]string{"sweep", "coin", "--axis", "target=1-3"}, 2, `for a range write 1..3`},
		{[]string{"solve", "coin", "--goal", "a_win"}, 2, `the scenario has no outcome "a_win"; did you mean a_wins?`},
		{[]string{"sim", "coin", "--set", "target=abc"}, 2, `key "target"`},
		{[]string{"sim", "coin", "--set", "target=99"}, 2, "target 99: allowed 1..50"},
		{[]string{"sim", "coin", "--set", "inner.bonus=[1]", "--set", "inner.bonus.3=1"}, 2, "not an index"},
		{[]string{"sim", "coin", "--set", "label.x=1"}, 2, "not an object or list"},
		{[]string{"sim", "coin", "--generator", "mt"}, 2, `--generator "mt": allowed pcg or chacha8`},
		{[]string{"compare", "coin"}, 2, "at least one --a or --b"},
		{[]string{"sweep", "coin"}, 2, "at least one --axis"},
		{[]string{"sweep", "coin", "--axis", "target=5..2"}, 2, "lo <= hi"},
		{[]string{"sweep", "coin", "--axis", "target"}, 2, "want key=lo..hi"},
		{[]string{"run"}, 2, "give one scenario file"},
		{[]string{"run", "/nonexistent.jsonc"}, 1, "no such file"},
		{[]string{"mechanics", "nosuch"}, 2, "unknown mechanic"},
		{[]string{"--trials", "-5"}, 2, "--trials -5"},
	}
	for _, tt := range tests {
		code, _, errOut := stakes(t, tt.args...)
		if code != tt.code || !strings.Contains(errOut, tt.errWant) {
			t.Errorf("stakes %q: exit %d, stderr %q; want exit %d mentioning %q", tt.args, code, errOut, tt.code, tt.errWant)
		}
		if strings.Count(strings.TrimSpace(errOut), "\n") > 0 {
			t.Errorf("stakes %q: error is not one line: %q", tt.args, errOut)
		}
	}
}

func TestHelpEverywhere(t *testing.T) {
	for _, c := range append(commands(), command{name: ""}) {
		args := []string{"--help"}
		if c.name != "" {
			args = []string{c.name, "--help"}
		}
		code, out, errOut := stakes(t, args...)
		if code != 0 || !strings.Contains(out, "Usage: stakes") && !strings.Contains(out, "Usage:") || errOut != "" {
			t.Errorf("stakes %q: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
		if c.name != "" && c.name != "mechanics" && !strings.Contains(out, "Examples:") {
			t.Errorf("stakes %s --help shows no examples", c.name)
		}
	}
}

func TestRoll(t *testing.T) {
	code, out, _ := stakes(t, "roll", "d12", "d8", "d6", "--seed", "7", "--times", "2")
	if code != 0 || !strings.HasPrefix(out, "d12 d8 d6 (seed 7)\n") || strings.Count(out, "total") != 2 {
		t.Fatalf("roll: exit %d\n%s", code, out)
	}
	_, again, _ := stakes(t, "roll", "d12 d8 d6", "--seed", "7", "--times", "2")
	if again != out {
		t.Errorf("same seed, different rolls:\n%s\n%s", out, again)
	}
	code, out, _ = stakes(t, "roll", "4d6+2", "--seed", "3", "--json")
	var v struct {
		Pool  string
		Seed  uint64
		Rolls []struct {
			Faces []int
			Total int
		}
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil || code != 0 {
		t.Fatalf("roll --json: %v\n%s", err, out)
	}
	if v.Pool != "4d6+2" || len(v.Rolls) != 1 || len(v.Rolls[0].Faces) != 4 {
		t.Fatalf("roll --json: %+v", v)
	}
	sum := 2
	for _, f := range v.Rolls[0].Faces {
		sum += f
	}
	if sum != v.Rolls[0].Total {
		t.Errorf("total %d, faces+2 = %d", v.Rolls[0].Total, sum)
	}
	// Without --seed, a random seed is printed.
	code, out, _ = stakes(t, "roll", "d20")
	if code != 0 || !strings.Contains(out, "(seed ") {
		t.Errorf("roll without seed: %q", out)
	}
}

// The same seed gives byte-identical JSON for any number of workers.
func TestSimDeterministicAcrossWorkers(t *testing.T) {
	var first string
	for _, w := range []string{"1", "2", "7"} {
		code, out, errOut := stakes(t, "sim", "coin", "--trials", "20000", "--seed", "5", "--workers", w, "--json", "--no-time")
		if code != 0 {
			t.Fatalf("workers %s: exit %d %s", w, code, errOut)
		}
		if first == "" {
			first = out
		} else if out != first {
			t.Errorf("workers %s: output differs", w)
		}
	}
	var res result
	if err := json.Unmarshal([]byte(first), &res); err != nil {
		t.Fatal(err)
	}
	if res.Exact == nil || res.Report.Trials != 20000 {
		t.Fatalf("result: %+v", res)
	}
	for i, c := range res.Report.Categories {
		if p := res.Exact.P[i]; p < c.Lo || p > c.Hi {
			t.Errorf("%s: exact %v outside [%v, %v]", c.Name, p, c.Lo, c.Hi)
		}
	}
}

func TestSetAndNoExact(t *testing.T) {
	code, out, errOut := stakes(t, "sim", "coin", "--trials", "2000", "--set", "target=3", "--set", "sides=6", "--set", "inner.bonus=[1,2]")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "race to 3 heads on d6") || !strings.Contains(out, "exact: none (no exact answer for this scenario: coin: sides other than 2)") {
		t.Errorf("output:\n%s", out)
	}
}

func TestScenarioFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("good.jsonc", `// A race to two heads.
{
  "mechanic": "coin", /* the test mechanic */
  "name": "two heads",
  "seed": 9,
  "trials": 3000,
  "scenario": {
    "target": 2, // heads needed
    "label": "a // not a comment"
  }
}
`)
	code, out, errOut := stakes(t, "run", good)
	if code != 0 || !strings.Contains(out, "race to 2 heads") || !strings.Contains(out, "3000 trials, seed 9") {
		t.Fatalf("run good: exit %d %s\n%s", code, errOut, out)
	}
	// --seed and --trials win over the file.
	_, out, _ = stakes(t, "run", good, "--seed", "4", "--trials", "500")
	if !strings.Contains(out, "500 trials, seed 4") {
		t.Errorf("flags did not override the file:\n%s", out)
	}
	bad := []struct {
		text, want string
	}{
		{"{\n  \"mechanic\": \"coin\",\n  \"scenario\": {\n    \"target\": 2,\n    \"bogus\": 1\n  }\n}", `line 5: unknown key "bogus"`},
		{"{\n  \"mechanic\": \"coin\",\n  \"scenario\": {\n    \"target\": \"two\"\n  }\n}", `line 4: key "target"`},
		{"{\n  \"mechanic\": \"coin\",\n  \"extra\": 1\n}", `line 3: unknown key "extra"`},
		{"{\n  \"mechanic\": \"coin\",\n  \"scenario\": {\"target\": 0}\n}", "target 0: allowed 1..50"},
		{"{\"scenario\": {}}", `missing key "mechanic"`},
		{"{\"mechanic\": \"chess\"}", `unknown mechanic "chess"`},
		{"{\n\"mechanic\": \"coin\",\n\n  oops\n}", "line 4: syntax error"},
		{"{\"mechanic\": \"coin\"} /* open", "never closed"},
		{"{\"mechanic\": \"coin\", \"trials\": -3}", "must be positive"},
		{"{\"mechanic\": \"coin\"} {}", "unexpected data"},
	}
	for i, b := range bad {
		p := write("bad.jsonc", b.text)
		code, _, errOut := stakes(t, "run", p)
		if code != 2 || !strings.Contains(errOut, b.want) {
			t.Errorf("bad file %d: exit %d, stderr %q; want exit 2 and %q", i, code, errOut, b.want)
		}
	}
	// --file with the wrong mechanic is a usage error.
	if code, _, errOut := stakes(t, "sim", "nosuch", "--file", good); code != 2 {
		t.Errorf("sim nosuch --file: exit %d %s", code, errOut)
	}
}

func TestCompareAndSweep(t *testing.T) {
	code, out, errOut := stakes(t, "compare", "coin", "--trials", "4000", "--a", "target=1", "--b", "target=2")
	if code != 0 || !strings.Contains(out, "A-B") || !strings.Contains(out, "rounds") {
		t.Fatalf("compare: exit %d %s\n%s", code, errOut, out)
	}
	code, out, errOut = stakes(t, "sweep", "coin", "--trials", "2000", "--axis", "target=1..3", "--axis", "sides=2,4")
	if code != 0 {
		t.Fatalf("sweep: exit %d %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 12 || !strings.HasPrefix(lines[4], "target  sides") || !strings.Contains(out, "- no exact answer for 5 cells (1,4, 2,2, 2,4, 3,2, 3,4): ") {
		t.Errorf("sweep table:\n%s", out)
	}
	code, out, _ = stakes(t, "sweep", "coin", "--trials", "2000", "--axis", "target=1..2", "--csv")
	if code != 0 || !strings.HasPrefix(out, "target,") {
		t.Errorf("sweep csv:\n%s", out)
	}
}

func TestPlot(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"r.png", "r.svg"} {
		p := filepath.Join(dir, name)
		code, _, errOut := stakes(t, "sim", "coin", "--trials", "2000", "--plot", p)
		if code != 0 {
			t.Fatalf("plot %s: %s", name, errOut)
		}
		st, err := os.Stat(p)
		if err != nil || st.Size() < 500 {
			t.Errorf("plot %s: %v size %v", name, err, st)
		}
	}
}

func TestMechanics(t *testing.T) {
	code, out, _ := stakes(t, "mechanics")
	for _, m := range reportOrder {
		if code != 0 || !strings.Contains(out, m+" ") {
			t.Errorf("mechanics: exit %d, %s missing:\n%s", code, m, out)
		}
	}
	for _, m := range reportOrder {
		code, out, errOut := stakes(t, "mechanics", m, "--json")
		var v map[string]any
		if code != 0 || json.Unmarshal([]byte(out), &v) != nil || v["rules"] == nil {
			t.Errorf("mechanics %s: exit %d %s\n%.200s", m, code, errOut, out)
		}
	}
}

// Without --no-time only elapsed_ns differs between worker counts.
func TestOnlyTimingDiffers(t *testing.T) {
	strip := func(s string) string {
		var lines []string
		for _, l := range strings.Split(s, "\n") {
			if !strings.Contains(l, "elapsed_ns") {
				lines = append(lines, l)
			}
		}
		return strings.Join(lines, "\n")
	}
	_, a, _ := stakes(t, "sim", "coin", "--json", "--trials", "3000", "--workers", "1")
	_, b, _ := stakes(t, "sim", "coin", "--json", "--trials", "3000", "--workers", "3")
	if strip(a) != strip(b) || !strings.Contains(a, "elapsed_ns") {
		t.Errorf("outputs differ beyond elapsed_ns:\n%s\n%s", a, b)
	}
}

// The progress bar never writes unless stderr is a terminal.
func TestProgressQuietWhenPiped(t *testing.T) {
	var errb bytes.Buffer
	e := &env{stderr: &errb, terminal: false}
	p := newProgress(e, "x")
	p.start = p.start.Add(-time.Hour) // as if the run were long
	p.update(5, 10)
	p.finish()
	if errb.Len() != 0 {
		t.Errorf("progress wrote %q to a non-terminal", errb.String())
	}
	e.terminal = true
	p = newProgress(e, "x")
	p.start = p.start.Add(-time.Hour)
	p.update(5, 10)
	if !strings.Contains(errb.String(), "50%") {
		t.Errorf("progress on a terminal wrote %q", errb.String())
	}
	p.finish()
}

// Every example in every command's --help runs (with few trials, in a
// temporary directory so plots land there).
func TestHelpExamplesRun(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every help example")
	}
	dir := t.TempDir()
	abs, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	if err := os.Symlink(filepath.Join(abs, "examples"), filepath.Join(dir, "examples")); err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, c := range append(commands(), command{name: ""}) {
		args := []string{"--help"}
		if c.name != "" {
			args = []string{c.name, "--help"}
		}
		_, out, _ := stakes(t, args...)
		if _, ex, ok := strings.Cut(out, "Examples:\n"); ok {
			for _, l := range strings.Split(ex, "\n") {
				if l = strings.TrimSpace(l); strings.HasPrefix(l, "stakes") {
					lines = append(lines, l)
				}
			}
		}
	}
	if len(lines) < 15 {
		t.Fatalf("only %d help examples found", len(lines))
	}
	// The merge examples read shards, as the reader's machines would have
	// written them.
	if err := os.Mkdir("results", 0o755); err != nil {
		t.Fatal(err)
	}
	for k := 1; k <= 3; k++ {
		_, out, _ := stakes(t, "sim", "coin", "--trials", "20000", "--shard", fmt.Sprintf("%d/3", k))
		for _, f := range []string{fmt.Sprintf("shard-%d.json", k), fmt.Sprintf("results/%d.json", k)} {
			if err := os.WriteFile(f, []byte(out), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, l := range lines {
		args := splitArgs(strings.TrimPrefix(l, "stakes"))
		if slices.Contains(args, "my.jsonc") || len(args) > 0 && args[0] == "serve" {
			continue // a placeholder for the reader's own file; a server that runs until stopped
		}
		args = shellWords(t, args)
		if len(args) > 0 && !slices.Contains([]string{"roll", "mechanics", "odds", "merge", "solve", "play"}, args[0]) {
			args = append(args, "--trials", "300")
		}
		if code, _, errOut := stakes(t, args...); code != 0 {
			t.Errorf("help example %q: exit %d: %s", l, code, errOut)
		}
	}
}

// shellWords does what a shell would to the examples' words: it expands
// globs and drops a redirection of stdout.
func shellWords(t *testing.T, args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == ">":
			i++
		case strings.Contains(a, "*"):
			m, err := filepath.Glob(a)
			if err != nil || len(m) == 0 {
				t.Fatalf("glob %q: %v", a, err)
			}
			out = append(out, m...)
		default:
			out = append(out, a)
		}
	}
	return out
}

// splitArgs splits a command line on spaces, keeping double-quoted parts
// together (enough for the help examples).
func splitArgs(s string) []string {
	var out []string
	var cur strings.Builder
	inQ, have := false, false
	for _, r := range s {
		switch {
		case r == '"':
			inQ, have = !inQ, true
		case r == ' ' && !inQ:
			if have {
				out = append(out, cur.String())
				cur.Reset()
				have = false
			}
		default:
			cur.WriteRune(r)
			have = true
		}
	}
	if have {
		out = append(out, cur.String())
	}
	return out
}
