package main

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestCtrlCEndsTheProgramWithinASecondUnderLoad sends the real program an
// interrupt in the middle of heavy work while another stakes process keeps
// both cores busy, as on a designer's loaded machine: each command exits
// within a second of the signal (the program's own aim is 100 ms; the
// second leaves room for a starved scheduler), with status 1, says it was
// interrupted, and marks what it printed as partial.
func TestCtrlCEndsTheProgramWithinASecondUnderLoad(t *testing.T) {
	bin := stakesBinary(t)
	load := exec.Command(bin, "sim", "contest", "--trials", "100000000", "--workers", "2")
	if err := load.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = load.Process.Kill(); _ = load.Wait() }()
	for _, c := range []struct {
		args    []string
		partial bool // stdout must say PARTIAL
	}{
		{[]string{"sim", "edge", "--trials", "100000000"}, true},
		{[]string{"sweep", "contest", "--axis", "cast.0.plot_points=0..3", "--trials", "50000000"}, true},
		{[]string{"odds", "edge", "--set", "rules.start_edge=45", "--set", "rules.max_rounds=0"}, false},
		{[]string{"solve", "dramadeck/adventure"}, false},
	} {
		var out, errb bytes.Buffer
		cmd := exec.Command(bin, c.args...)
		cmd.Stdout, cmd.Stderr = &out, &errb
		cmd.Env = append(os.Environ(), "NO_COLOR=1")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(700 * time.Millisecond)
		if err := cmd.Process.Signal(os.Interrupt); err != nil {
			t.Fatalf("%q: %v (it ended before the interrupt: %s %s)", c.args, err, out.String(), errb.String())
		}
		sent := time.Now()
		err := cmd.Wait()
		took := time.Since(sent)
		t.Logf("%q: exited %v after the interrupt", c.args, took)
		if took > time.Second {
			t.Errorf("%q: took %v to exit after the interrupt", c.args, took)
		}
		if code := cmd.ProcessState.ExitCode(); code != 1 || !strings.Contains(errb.String(), "interrupted") {
			t.Errorf("%q: exit %d (%v), stderr %q; want 1 and interrupted", c.args, code, err, errb.String())
		}
		if c.partial != strings.Contains(out.String(), "PARTIAL") {
			t.Errorf("%q: PARTIAL in the output is %v, want %v:\n%s", c.args, !c.partial, c.partial, out.String())
		}
	}
}
