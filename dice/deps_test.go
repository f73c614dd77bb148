package dice_test

import (
	"os/exec"
	"strings"
	"testing"
)

// A program that only rolls dice links no statistics library: dice
// depends on no gonum package (the chi-square test lives in dice/gof).
func TestNoGonum(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go is not on PATH")
	}
	out, err := exec.Command(gobin, "list", "-deps", "github.com/stakesrpg/stakes/dice").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 5 {
		t.Fatalf("go list -deps named only %v", deps)
	}
	for _, p := range deps {
		if strings.Contains(p, "gonum") {
			t.Errorf("dice depends on %s", p)
		}
	}
}
