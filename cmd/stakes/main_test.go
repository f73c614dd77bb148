package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// stakesBinary builds the stakes command once into a temporary directory,
// so the tests run it as a designer does: as a program, with arguments,
// reading its output and exit status.
func stakesBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs the binary; skipped with -short")
	}
	bin := filepath.Join(t.TempDir(), "stakes")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// TestBinaryOffersEveryMechanic runs the built command: the balance report,
// the list of mechanics, one narrated game and the settings of each of the
// five, each described in the mechanic's own words.
func TestBinaryOffersEveryMechanic(t *testing.T) {
	bin := stakesBinary(t)
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Env = append(os.Environ(), "NO_COLOR=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("stakes %q: %v\n%s", args, err, out)
		}
		return string(out)
	}
	mechs := []string{"edge", "challenge", "dramadeck", "actiontest", "contest"}
	report := run("--trials", "2000", "--workers", "2")
	list := run("mechanics")
	for _, m := range mechs {
		if !strings.Contains(report, "\n"+m+": ") && !strings.HasPrefix(report, m+": ") {
			t.Errorf("the balance report leaves out %s:\n%s", m, report)
		}
		if !strings.Contains(list, m+" ") || strings.Contains(list, "no description") {
			t.Errorf("mechanics does not describe %s:\n%s", m, list)
		}
		if out := run("play", m, "--seed", "3"); !strings.Contains(out, "outcome: ") {
			t.Errorf("play %s tells no outcome:\n%s", m, out)
		}
		if out := run("mechanics", m); !strings.Contains(out, "What the "+m+" numbers mean:") {
			t.Errorf("mechanics %s explains no numbers:\n%s", m, out)
		}
	}
	cmd := exec.Command(bin, "sim", "edge", "--set", "start_edge=6")
	out, err := cmd.CombinedOutput()
	if code := cmd.ProcessState.ExitCode(); err == nil || code != 2 || !strings.Contains(string(out), "did you mean rules.start_edge?") {
		t.Errorf("a mistyped key: exit %d, %q", code, out)
	}
}
