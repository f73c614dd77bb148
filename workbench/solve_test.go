package workbench

import (
	"encoding/json"

	"github.com/stakesrpg/stakes/sim/markov"
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
		"playing well is worth +9.2 points of P(goal) over how a plays now\n(the best play 0.4000 against its own play, timid, 0.3077)",
		"best: optimal       0.400000",
		"policy timid (own)  0.307692",
		"worst: worst        0.307692",
		"best against worst: 9.2 points of P(goal)",
		"  - holding 2 coins: stake 2 rather than stake 1: worth 0.0480 a game (1 visit a game)\n",
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
	if r.Mechanic != "coin" || r.Best.Value != 0.4 || r.Gap < 0.092 || r.Gap > 0.093 || len(r.Advice) != 1 ||
		r.Own.Name != "timid" || r.Worth != r.Best.Value-r.Own.Value || r.Advice[0].Worth <= 0 {
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
		{[]string{"sweep", "coin", "--axis", "target=1..2", "--goal", "a_wins"}, 2, "--goal, --side and --ties go with --solve"},
		{[]string{"solve", "coin", "--ties", "dearest"}, 2, `--ties dearest: allowed cheapest, first`},
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
	if !strings.Contains(out, "value of decisions per cell") || strings.Count(out, "+0.0923  0.4000  0.3077  0.3077  0.0923") != 2 {
		t.Errorf("sweep --solve:\n%s", out)
	}
	code, out, _ = stakes(t, "sweep", "coin", "--axis", "target=1..2", "--trials", "200", "--solve", "--json")
	var sr struct {
		Solve []cellSolve `json:"solve"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &sr) != nil || len(sr.Solve) != 2 || sr.Solve[1].Best != 0.4 ||
		sr.Solve[1].Own != 1.25/4.0625 || sr.Solve[1].Worth != sr.Solve[1].Best-sr.Solve[1].Own {
		t.Errorf("sweep --solve --json: %d %+v", code, sr)
	}
}

// TestSolvedSaysWhereTheBestIsOnlyTheBestFound: with a bound, the report
// says "the best play found" and the range the optimum lies in, never that
// the best found is optimal.
func TestSolvedSaysWhereTheBestIsOnlyTheBestFound(t *testing.T) {
	bound := 0.5687
	var out strings.Builder
	e := testEnv()
	e.stdout = &out
	sv := markov.Solved{Goal: markov.Goal{Outcomes: []string{"a_wins"}}, Side: "a", Method: "exact: each member's best skills",
		Best: markov.PolicyValue{Name: "best found", Value: 0.5366}, Worst: markov.PolicyValue{Name: "worst", Value: 0.1},
		Bound: &bound, Policies: []markov.PolicyValue{{Name: "steady", Value: 0.5}}, Gap: 0.4366}
	sv.SetOwn(sv.Policies[0])
	writeSolved(e, solveResult{Mechanic: "coin", Scenario: "s", Solved: sv})
	for _, want := range []string{"(the best play found 0.5366 against its own play, steady, 0.5000)",
		"no play passes 0.5687, so the optimum lies between 0.5366 and 0.5687", "policy steady (own)"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	if strings.Contains(out.String(), "optimal") {
		t.Errorf("a bounded best called optimal:\n%s", out.String())
	}
}
