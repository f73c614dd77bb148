package workbench

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// shardsMergeToOneRun runs a command whole and as n shards, merges the
// shards, and checks the merge prints exactly what the whole run prints,
// as JSON and as text.
func shardsMergeToOneRun(t *testing.T, n int, args ...string) {
	t.Helper()
	dir := t.TempDir()
	common := append(args, "--seed", "11", "--no-time")
	var files []string
	for k := n; k >= 1; k-- { // any order
		code, out, errOut := stakes(t, append(common, "--shard", fmt.Sprintf("%d/%d", k, n))...)
		if code != 0 {
			t.Fatalf("shard %d/%d of %q: exit %d: %s", k, n, args, code, errOut)
		}
		f := filepath.Join(dir, fmt.Sprintf("s%d.json", k))
		if err := os.WriteFile(f, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	for _, format := range [][]string{{"--json"}, nil} {
		_, whole, _ := stakes(t, append(common, format...)...)
		code, merged, errOut := stakes(t, append(append([]string{"merge", "--no-time"}, files...), format...)...)
		if code != 0 {
			t.Fatalf("merge of %q: exit %d: %s", args, code, errOut)
		}
		if merged != whole {
			t.Errorf("merge of %d shards of %q %v differs from one run:\n--- one run\n%s\n--- merged\n%s", n, args, format, whole, merged)
		}
	}
}

func TestShardsMergeToOneRun(t *testing.T) {
	shardsMergeToOneRun(t, 3, "sim", "coin", "--trials", "30000")
	shardsMergeToOneRun(t, 2, "compare", "coin", "--trials", "20000", "--b", "sides=3")
	shardsMergeToOneRun(t, 2, "sweep", "coin", "--trials", "10000", "--axis", "target=1..3")
}

func TestMergeRefusesMismatchedShards(t *testing.T) {
	dir := t.TempDir()
	save := func(name string, args ...string) string {
		code, out, errOut := stakes(t, args...)
		if code != 0 {
			t.Fatalf("%q: exit %d %s", args, code, errOut)
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	a1 := save("a1", "sim", "coin", "--trials", "20000", "--shard", "1/2")
	a2 := save("a2", "sim", "coin", "--trials", "20000", "--shard", "2/2")
	seed := save("seed", "sim", "coin", "--trials", "20000", "--shard", "2/2", "--seed", "9")
	other := save("other", "sim", "coin", "--trials", "20000", "--shard", "2/2", "--set", "target=2")
	cmp := save("cmp", "compare", "coin", "--trials", "20000", "--b", "sides=3", "--shard", "2/2")
	for _, tc := range []struct {
		files []string
		want  string
	}{
		{[]string{a1, seed}, "seed"},
		{[]string{a1, other}, "race to 2 heads"},
		{[]string{a1, cmp}, "is a sim report and"},
		{[]string{a1, a1}, "overlap"},
	} {
		code, _, errOut := stakes(t, append([]string{"merge"}, tc.files...)...)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("merge %v: exit %d, %q; want exit 2 and %q", tc.files, code, errOut, tc.want)
		}
	}
	// A missing last shard: the merge prints what it has, marked, and exits 1.
	code, out, _ := stakes(t, "merge", a1)
	if code != 1 || !strings.Contains(out, "PARTIAL") {
		t.Errorf("merge of shard 1 of 2: exit %d\n%s", code, out)
	}
	if code, _, _ := stakes(t, "merge", a1, a2); code != 0 {
		t.Errorf("merge of both shards: exit %d", code)
	}
}

func TestShardFlagErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"sim", "coin", "--shard", "0/3"}, "1 <= K <= N"},
		{[]string{"sim", "coin", "--shard", "4/3"}, "1 <= K <= N"},
		{[]string{"sim", "coin", "--shard", "x"}, "want K/N"},
		{[]string{"sim", "coin", "--shard", "1/3", "--csv"}, "drop --csv"},
		{[]string{"sim", "coin", "--trials", "5000", "--shard", "1/3"}, "only 2 chunks"},
		{[]string{"odds", "coin", "--shard", "1/2"}, "unknown flag --shard"},
		{[]string{"merge"}, "give the shards"},
	} {
		code, _, errOut := stakes(t, tc.args...)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%q: exit %d, %q; want exit 2 and %q", tc.args, code, errOut, tc.want)
		}
	}
}

// A merged sweep prints and draws like the sweep that ran the shards, with
// the columns --outcomes chooses.
func TestMergeDrawsAndChoosesColumns(t *testing.T) {
	dir := t.TempDir()
	var files []string
	for k := 1; k <= 2; k++ {
		code, out, errOut := stakes(t, "sweep", "coin", "--trials", "10000", "--axis", "target=1..3", "--shard", fmt.Sprintf("%d/2", k))
		if code != 0 {
			t.Fatalf("shard %d: exit %d %s", k, code, errOut)
		}
		files = append(files, filepath.Join(dir, fmt.Sprintf("s%d.json", k)))
		if err := os.WriteFile(files[k-1], []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	plot := filepath.Join(dir, "m.png")
	code, out, errOut := stakes(t, append([]string{"merge", "--outcomes", "tie", "--plot", plot}, files...)...)
	if code != 0 || !strings.Contains(out, "target     tie   95% interval") || strings.Contains(out, "a_wins") {
		t.Errorf("merge --outcomes tie: exit %d %s\n%s", code, errOut, out)
	}
	if st, err := os.Stat(plot); err != nil || st.Size() < 2000 {
		t.Errorf("merge --plot: %v %v", err, st)
	}
	simFile := filepath.Join(dir, "sim.json")
	_, out, _ = stakes(t, "sim", "coin", "--trials", "2000", "--shard", "1/1")
	if err := os.WriteFile(simFile, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut = stakes(t, "merge", "--outcomes", "tie", simFile)
	if code != 2 || !strings.Contains(errOut, "--outcomes chooses a sweep's columns") {
		t.Errorf("merge --outcomes of sim shards: exit %d %q", code, errOut)
	}
}
