package workbench

import (
	"strings"
	"testing"
)

// TestHelpOnceAndByName: every command prints its help once, on stdout,
// and "stakes help CMD" prints the same.
func TestHelpOnceAndByName(t *testing.T) {
	for _, c := range commands() {
		code, out, errOut := stakes(t, c.name, "--help")
		if code != 0 || errOut != "" {
			t.Errorf("%s --help: exit %d, stderr %q", c.name, code, errOut)
		}
		if n := strings.Count(out, "Usage: stakes "+c.name); n != 1 {
			t.Errorf("%s --help prints its usage %d times", c.name, n)
		}
		_, byName, _ := stakes(t, "help", c.name)
		if byName != out {
			t.Errorf("stakes help %s differs from stakes %s --help", c.name, c.name)
		}
	}
}

// TestBadFlagIsOneLine: a mistyped flag gives one line on stderr, nothing
// on stdout (so --json > file stays clean), and exit 2.
func TestBadFlagIsOneLine(t *testing.T) {
	code, out, errOut := stakes(t, "sim", "edge", "--json", "--seeed", "3")
	if code != 2 || out != "" || strings.Count(errOut, "\n") != 1 {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if !strings.Contains(errOut, "did you mean --seed?") {
		t.Errorf("no suggestion: %q", errOut)
	}
}

func TestNearest(t *testing.T) {
	names := []string{"seed", "trials", "workers", "json", "csv", "plot"}
	for in, want := range map[string]string{
		"trails": "trials", "sed": "seed", "work": "workers", "jsn": "json", "zzzzzz": "", "tri": "trials",
	} {
		if got := nearest(in, names); got != want {
			t.Errorf("nearest(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestErrorLineIsShort: an error that echoes a huge input stays one short
// line.
func TestErrorLineIsShort(t *testing.T) {
	code, _, errOut := stakes(t, "sim", "edge", "--set", "type="+strings.Repeat("x", 200000))
	if code != 2 || len(errOut) > maxMessage+40 || strings.Count(errOut, "\n") != 1 {
		t.Errorf("exit %d, %d bytes of stderr", code, len(errOut))
	}
}
