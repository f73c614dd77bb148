package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// The studies the tests shard: small, so that each shard's process takes a
// few hundredths of a second. --no-time drops the elapsed time, the one
// field in which a merge (the shards' sum) and one run differ.
var (
	simStudy   = []string{"sim", "contest", "--trials", "30000", "--seed", "7", "--no-time"}
	sweepStudy = []string{"sweep", "contest", "--axis", "rules.extraordinary=4..6", "--trials", "20000", "--seed", "7", "--no-time"}
)

// binDir holds the stakes binary the tests build once and share.
var binDir string

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// built builds the stakes command once, for every test.
var built = sync.OnceValues(func() (string, error) {
	var err error
	if binDir, err = os.MkdirTemp("", "shards-test"); err != nil {
		return "", err
	}
	return build(context.Background(), binDir)
})

// stakesBinary returns the stakes command built into a temporary
// directory, so the tests run it as a batch system does: a program, in
// separate processes.
func stakesBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the stakes binary and runs it in many processes; skipped with -short")
	}
	bin, err := built()
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// oneRun is the report one unsharded process prints for the study.
func oneRun(t *testing.T, bin string, study []string, asJSON bool) string {
	t.Helper()
	if asJSON {
		study = append(study[:len(study):len(study)], "--json")
	}
	out, err := exec.Command(bin, study...).Output()
	if err != nil {
		t.Fatalf("stakes %s: %v", strings.Join(study, " "), err)
	}
	return string(out)
}

// TestShardsMergeToOneRun runs the program with 3 shards, each a separate
// process, and checks that the merged report is byte for byte the report
// one process prints for the same seed and trials, as text and as JSON,
// for a Monte Carlo study and for a sweep.
func TestShardsMergeToOneRun(t *testing.T) {
	bin := stakesBinary(t)
	for _, study := range [][]string{simStudy, sweepStudy} {
		for _, asJSON := range []bool{false, true} {
			dir := t.TempDir()
			args := []string{"-stakes", bin, "-n", "3", "-dir", dir}
			if asJSON {
				args = append(args, "-json")
			}
			var stdout, stderr bytes.Buffer
			if code := run(context.Background(), append(args, study...), &stdout, &stderr); code != 0 {
				t.Fatalf("shards %q: exit %d\n%s", args, code, stderr.String())
			}
			if want := oneRun(t, bin, study, asJSON); stdout.String() != want {
				t.Errorf("3 shards of %q (json %v) merge to a report other than one run's:\n--- one run\n%s\n--- merged\n%s",
					study, asJSON, want, stdout.String())
			}
			pids := map[string]bool{}
			for k := 1; k <= 3; k++ {
				name := fmt.Sprintf("%s-%d-of-3.json", study[0], k)
				if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
					t.Errorf("shard %d left no file: %v", k, err)
				}
				_, line, _ := strings.Cut(stderr.String(), name+": pid ")
				pid, _, _ := strings.Cut(line, ",")
				pids[pid] = true
			}
			if len(pids) != 3 || pids[""] {
				t.Errorf("the 3 shards did not each run in a process of their own: pids %v in\n%s", pids, stderr.String())
			}
		}
	}
}

// shardFiles runs the given shards of study (of n in all) and returns their
// files in the order given.
func shardFiles(t *testing.T, bin string, n int, study []string, ks ...int) []string {
	t.Helper()
	all, err := runShards(context.Background(), bin, t.TempDir(), n, study, new(bytes.Buffer))
	if err != nil {
		t.Fatal(err)
	}
	files := make([]string, len(ks))
	for i, k := range ks {
		files[i] = all[k-1]
	}
	return files
}

// TestMergeOfMissingOrOverlappingShards: shards missing at either end leave
// the merge marked PARTIAL with exit status 1; a gap between shards, a shard
// of another split of the study that overlaps others, and the same shard
// twice are refused with exit status 2 and the reason.
func TestMergeOfMissingOrOverlappingShards(t *testing.T) {
	bin := stakesBinary(t)
	third := shardFiles(t, bin, 3, simStudy, 1, 2, 3)
	half := shardFiles(t, bin, 2, simStudy, 1)
	for _, tc := range []struct {
		what  string
		files []string
		code  int
		want  string // in stdout when the merge prints, in stderr when it refuses
	}{
		{"the last shard missing", third[:2], 1, "PARTIAL"},
		{"the first shard missing", third[1:], 1, "PARTIAL"},
		{"the middle shard missing", []string{third[0], third[2]}, 2, "missing between"},
		{"shard 1/2 with shards 2/3 and 3/3", append(half, third[1:]...), 2, "overlap"},
		{"shard 1/3 twice", []string{third[0], third[0], third[1], third[2]}, 2, "overlap"},
	} {
		var stdout, stderr bytes.Buffer
		code := merge(context.Background(), bin, tc.files, false, &stdout, &stderr)
		said := stdout.String()
		if code == 2 {
			said = stderr.String()
		}
		if code != tc.code || !strings.Contains(said, tc.want) {
			t.Errorf("merge with %s: exit %d, %q; want exit %d and %q", tc.what, code, said, tc.code, tc.want)
		}
	}
}

// TestRunScript runs run.sh, the shell loop for array jobs, with 3 shards:
// its merged report is the report of one run.
func TestRunScript(t *testing.T) {
	bin := stakesBinary(t)
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh to run run.sh with")
	}
	cmd := exec.Command(sh, append([]string{"run.sh"}, simStudy...)...)
	cmd.Env = append(os.Environ(), "STAKES="+bin, "N=3", "DIR="+t.TempDir())
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("run.sh: %v\n%s", err, stderr.String())
	}
	if want := oneRun(t, bin, simStudy, false); string(out) != want {
		t.Errorf("run.sh's merge of 3 shards differs from one run:\n--- one run\n%s\n--- merged\n%s", want, out)
	}
}

// TestFlagErrors: bad flags exit 2 and say why, before any shard runs.
func TestFlagErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-n", "0"}, "-n must be at least 1"},
		{[]string{"-n", "x"}, "invalid value"},
		{[]string{"-shards", "3"}, "flag provided but not defined"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), tc.args, &stdout, &stderr)
		if code != 2 || !strings.Contains(stderr.String(), tc.want) || stdout.Len() != 0 {
			t.Errorf("shards %q: exit %d, %q; want exit 2 and %q", tc.args, code, stderr.String(), tc.want)
		}
	}
}

// TestFailingShard: a shard whose process fails makes the program exit 1
// with that shard's complaint, and merges nothing.
func TestFailingShard(t *testing.T) {
	bin := stakesBinary(t)
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"-stakes", bin, "-n", "2", "sim", "contest", "--trials", "10000", "--set", "rules.keep=-1"}, &stdout, &stderr)
	if code != 1 || !strings.Contains(stderr.String(), "rules.keep") || stdout.Len() != 0 {
		t.Errorf("a failing shard: exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}
}
