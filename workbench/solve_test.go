package workbench

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestSolvePrintsTheValueOfDecisions(t *testing.T) {
	code, out, errOut := stakes(t, "solve", "coin")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"coin: race to 1 heads on d2",
		"goal: end in a_wins, decided by a\nsolved exactly over 5 states and 4 choices",
		"best: optimal  0.400000",
		"policy timid   0.307692",
		"worst: worst   0.307692",
		"value of decisions (best - worst): 0.0923, 9.2 points of P(goal)",
		"  - holding 2 coins: stake 2 [else stake 1: 0.3520]; gain 0.0480, reached 1\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestSolveJSON(t *testing.T) {
	code, out, errOut := stakes(t, "solve", "coin", "--goal", "a_wins", "--side", "a", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r solveResult
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.Mechanic != "coin" || r.Best.Value != 0.4 || r.Gap < 0.092 || r.Gap > 0.093 || len(r.Advice) != 1 {
		t.Errorf("decoded %+v", r)
	}
}

func TestSolveErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"solve"}, 2, "solve: name one mechanic"},
		{[]string{"solve", "coin", "--goal", "b_wins"}, 1, "goal [b_wins]: allowed a_wins"},
		{[]string{"solve", "coin", "--side", "b"}, 1, `side "b": allowed a`},
		{[]string{"solve", "coin", "--set", "target=0"}, 2, "target 0: allowed 1..50"},
		{[]string{"solve", "coin", "--trials", "5"}, 2, "unknown flag --trials"},
		{[]string{"sweep", "coin", "--axis", "target=1..2", "--goal", "a_wins"}, 2, "--goal and --side go with --solve"},
		{[]string{"sweep", "coin", "--axis", "target=1..2", "--solve", "--shard", "1/2"}, 2, "leave out --shard"},
	} {
		code, _, errOut := stakes(t, c.args...)
		if code != c.code || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, %q; want %d and %q", c.args, code, errOut, c.code, c.want)
		}
	}
}

func TestSweepSolveAddsTheValueOfDecisionsPerCell(t *testing.T) {
	code, out, errOut := stakes(t, "sweep", "coin", "--axis", "target=1..2", "--trials", "200", "--solve")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "value of decisions per cell") || strings.Count(out, "0.4000  0.3077  0.0923") != 2 {
		t.Errorf("sweep --solve:\n%s", out)
	}
	code, out, _ = stakes(t, "sweep", "coin", "--axis", "target=1..2", "--trials", "200", "--solve", "--json")
	var sr struct {
		Solve []cellSolve `json:"solve"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &sr) != nil || len(sr.Solve) != 2 || sr.Solve[1].Best != 0.4 {
		t.Errorf("sweep --solve --json: %d %+v", code, sr)
	}
}
