package workbench

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestInterruptedCommandsSayPartialAndExit1: with the context already
// cancelled (Ctrl-C), every command stops, marks what it printed as
// partial or prints nothing, says so on stderr, and exits 1.
func TestInterruptedCommandsSayPartialAndExit1(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		args    []string
		outWant string // in stdout, when the command prints a partial result
	}{
		{[]string{"sim", "edge", "--trials", "100000", "--plot", "PLOT"}, "PARTIAL"},
		{[]string{"compare", "edge", "--a", "rules.start_edge=6", "--plot", "PLOT"}, "PARTIAL"},
		{[]string{"sweep", "edge", "--axis", "rules.start_edge=3..5", "--plot", "PLOT"}, "PARTIAL"},
		{[]string{"odds", "edge", "--plot", "PLOT"}, ""},
		{[]string{"roll", "3d6", "--times", "10"}, ""},
		{[]string{"--trials", "100000"}, ""},
	} {
		// An interrupted command draws nothing.
		plot := filepath.Join(t.TempDir(), "p.png")
		if i := slices.Index(tc.args, "PLOT"); i >= 0 {
			tc.args[i] = plot
		}
		var out, errb bytes.Buffer
		code := Run(ctx, tc.args, &out, &errb, testMechanics...)
		if _, err := os.Stat(plot); err == nil {
			t.Errorf("%q: drew a plot after the interrupt", tc.args)
		}
		if code != 1 || !strings.Contains(errb.String(), "interrupted") {
			t.Errorf("%q: exit %d, stderr %q; want exit 1 and interrupted", tc.args, code, errb.String())
		}
		if !strings.Contains(out.String(), tc.outWant) {
			t.Errorf("%q: output not marked %q:\n%s", tc.args, tc.outWant, out.String())
		}
		if strings.Contains(out.String(), "exact:") && !strings.Contains(out.String(), "not computed") {
			t.Errorf("%q: an exact answer was computed after the interrupt:\n%s", tc.args, out.String())
		}
	}
}

// TestCtrlCStopsAComputationThatCannotLook: a command stuck in work that
// never looks at the context (here: never returns) still ends with exit 1
// and one line once Ctrl-C comes, after the grace period, not when the
// work would have finished.
func TestCtrlCStopsAComputationThatCannotLook(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	stuck := make(chan int) // a command that never finishes
	var errb bytes.Buffer
	got := make(chan int, 1)
	go func() { got <- awaitOrInterrupt(ctx, func() {}, stuck, &errb) }()
	cancel()
	if code := <-got; code != 1 || errb.String() != "stakes: interrupted\n" {
		t.Errorf("exit %d, stderr %q", code, errb.String())
	}
	// A command that stops on its own keeps its own exit code.
	ctx2, cancel2 := context.WithCancel(context.Background())
	finished := make(chan int, 1)
	finished <- 0
	cancel2()
	if code := awaitOrInterrupt(ctx2, func() {}, finished, &errb); code != 0 {
		t.Errorf("a finished command's code became %d", code)
	}
}
