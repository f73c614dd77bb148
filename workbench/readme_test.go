package workbench

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadmeCommandsRun runs every "go run ./cmd/stakes ..." line of the
// README's examples on one machine (the cluster example needs hosts), in order, in-process (with fewer trials,
// in a temporary directory so files land there), and requires each to
// succeed: the README never shows a command that fails.
func TestReadmeCommandsRun(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the README's examples")
	}
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	abs, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.Symlink(filepath.Join(abs, "examples"), filepath.Join(dir, "examples")); err != nil {
		t.Fatal(err)
	}
	// The examples of one machine; those of a cluster come after this.
	text, _, _ := strings.Cut(string(readme), "### A study bigger than one machine")
	ran := 0
	for _, line := range strings.Split(text, "\n") {
		rest, ok := strings.CutPrefix(line, "go run ./cmd/stakes")
		if !ok {
			continue
		}
		if i := strings.Index(rest, "  #"); i >= 0 {
			rest = rest[:i] // a comment
		}
		args := splitArgs(rest)
		if len(args) > 0 && args[0] == "serve" {
			continue // a server runs until stopped; TestPageWalk drives it
		}
		out := ""
		if i := indexOf(args, ">"); i >= 0 {
			out, args = args[i+1], args[:i]
		}
		args = fewerTrials(args)
		code, stdout, errOut := stakes(t, args...)
		if code != 0 {
			t.Errorf("README: stakes %s: exit %d: %s", rest, code, errOut)
			continue
		}
		if out != "" {
			if err := os.WriteFile(out, []byte(stdout), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		ran++
	}
	if ran < 12 {
		t.Errorf("only %d README commands found", ran)
	}
}

func indexOf(args []string, s string) int {
	for i, a := range args {
		if a == s {
			return i
		}
	}
	return -1
}

// fewerTrials cuts a --trials value to 20000 (keeping shards possible) or
// adds --trials 2000 to a simulating command that has none.
func fewerTrials(args []string) []string {
	if len(args) == 0 {
		return []string{"--trials", "2000"}
	}
	if i := indexOf(args, "--trials"); i >= 0 && i+1 < len(args) {
		args[i+1] = "20000"
		return args
	}
	switch args[0] {
	case "sim", "compare", "sweep", "run":
		return append(args, "--trials", "2000")
	}
	return args
}
