package main

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCommandLine builds this main and runs the stakes commands over it,
// checking that the sixth mechanic, pbta, is in each and described: its
// summary, the terms of its outcomes and metrics, its settings' docs.
func TestCommandLine(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a binary")
	}
	bin := filepath.Join(t.TempDir(), "pbta")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	run := func(args ...string) string {
		t.Helper()
		var stdout, stderr bytes.Buffer
		cmd := exec.Command(bin, args...)
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("pbta %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
		}
		return stdout.String()
	}
	title := "Rook (hard +1, cool +2, 2-harm, 1-armor, adaptive) vs the raider (4-harm, 0-armor, out at 5; GM ruthless)"
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"--trials", "500", "--explain"}, []string{
			"pbta: " + title, "victory", "defeat", "standoff", "exchanges distribution",
			"What the pbta numbers mean:", "the threat took its capacity of harm while the character stood",
			"moves that missed (6-), each answered by a hard move of the GM"}},
		{[]string{"mechanics"}, []string{
			"pbta        a Powered by the Apocalypse fight", "(Apocalypse World, by Vincent and Meguey Baker)",
			"built-in: " + title}},
		{[]string{"mechanics", "pbta"}, []string{
			"rules.max_exchanges = 20", "max_exchanges is the most exchanges the fight lasts",
			"pc.cool = 2", "threat.capacity = 5", `gm = "ruthless"`, "ruthless, merciful or tactical",
			"both went down in the same exchange, trading blows"}},
		{[]string{"odds", "pbta"}, []string{
			"one exchange of Rook against the raider: 2d6 plus the move's stat",
			"go_in_hard", "play_it_cool", "full success (10+)", "at a cost (7-9)", "miss (6-)",
			"exact odds of the scenario's outcomes", "victory          0.745025"}},
		{[]string{"sweep", "pbta", "--axis", "rules.max_exchanges=1..3", "--trials", "500"}, []string{
			"swept: rules.max_exchanges=1..3", "rules.max_exchanges", "victory", "standoff", "mean exchanges"}},
		{[]string{"solve", "pbta"}, []string{
			"goal: end in victory, decided by player", "policy adaptive (own)  0.745025", "playing well is worth +9.2 points of P(goal) over how player plays now",
			"policy careful", "policy aggressive", "best: optimal          0.836575", "hold_back"}},
		{[]string{"solve", "pbta", "--side", "gm"}, []string{
			"goal: end in defeat, decided by gm", "policy merciful", "policy tactical"}},
	} {
		out := run(c.args...)
		for _, w := range c.want {
			if !strings.Contains(out, w) {
				t.Errorf("pbta %s: no %q in\n%s", strings.Join(c.args, " "), w, out)
			}
		}
		if strings.Contains(out, "(no description yet)") {
			t.Errorf("pbta %s: something undescribed:\n%s", strings.Join(c.args, " "), out)
		}
	}
	// The five mechanics of stakes are there beside it.
	list := run("mechanics")
	for _, m := range []string{"edge", "challenge", "dramadeck", "actiontest", "contest", "pbta"} {
		if !strings.Contains(list, "\n"+m+" ") && !strings.HasPrefix(list, m+" ") {
			t.Errorf("mechanics: no %s in\n%s", m, list)
		}
	}
}
