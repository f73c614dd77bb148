package pbta_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/stakesrpg/stakes/examples/pbta/pbta"
	"github.com/stakesrpg/stakes/sim"
	"github.com/stakesrpg/stakes/sim/markov"
)

func TestSolvePlayer(t *testing.T) {
	sc := pbta.DefaultScenario()
	sv, err := sc.Solve(context.Background(), markov.Goal{})
	if err != nil {
		t.Fatal(err)
	}
	if err := sv.Check(); err != nil {
		t.Fatal(err)
	}
	if sv.Side != "player" || len(sv.Goal.Outcomes) != 1 || sv.Goal.Outcomes[0] != "victory" {
		t.Errorf("side %q goal %v; want the player playing for victory", sv.Side, sv.Goal.Outcomes)
	}
	// Each shipped policy's value is its exact answer's P(victory).
	for _, pv := range sv.Policies {
		alt := sc
		alt.Player = pv.Name
		a := exact(t, alt)
		if !near(pv.Value, a.P[pbta.Victory]) {
			t.Errorf("%s: %v, exact %v", pv.Name, pv.Value, a.P[pbta.Victory])
		}
	}
	// Best play is an exact answer too: its P(victory) is the plan's value.
	if !near(sv.Best.Answer.P[pbta.Victory], sv.Best.Value) || sv.Best.Value <= sv.Policies[0].Value {
		t.Errorf("best %v (answer %v), adaptive %v", sv.Best.Value, sv.Best.Answer.P, sv.Policies[0].Value)
	}
	if sv.Gap < 0.3 || len(sv.Advice) == 0 || !strings.Contains(sv.Advice[0].When, "Rook at") {
		t.Errorf("gap %v, advice %v", sv.Gap, sv.Advice)
	}
}

// TestSolveOneBlow: in one exchange where a hit of 1 harm takes the
// threat out and one blow takes Rook out, going in hard (+0, 2 harm with
// terrible harm) and holding back on a 7-9 (2 - 1 = 1 harm, no blow
// taken) wins on 7+: 21/36. Playing it cool (+2) wins only on 8+ (a 7-9
// held back deals nothing; traded, both go down): 15/36. The worst play
// goes in hard and trades blows: 10+ only, 6/36.
func TestSolveOneBlow(t *testing.T) {
	sc := oneBlow()
	sc.PC.Cool = 2
	sc.Rules.MaxExchanges = 1
	sv, err := sc.Solve(context.Background(), markov.Goal{Side: "player"})
	if err != nil {
		t.Fatal(err)
	}
	if !near(sv.Best.Value, 21.0/36) || !near(sv.Worst.Value, 6.0/36) {
		t.Errorf("best %v worst %v; want 21/36, 6/36", sv.Best.Value, sv.Worst.Value)
	}
	// The advice: hold back on a 7-9 (a sure victory against a sure draw,
	// reached 15/36 of the time: worth 15/36 a game), then go in hard (6/36
	// better than cool, reached once: worth 6/36).
	want := []struct {
		do          string
		worth, each float64
	}{{"hold_back", 15.0 / 36, 15.0 / 36}, {"go_in_hard", 6.0 / 36, 1}}
	if len(sv.Advice) != len(want) {
		t.Fatalf("advice %+v", sv.Advice)
	}
	for i, w := range want {
		if a := sv.Advice[i]; a.Do != w.do || !near(a.Worth, w.worth) || !near(a.Reach, w.each) {
			t.Errorf("advice %d: %+v; want %s worth %v, reached %v", i, a, w.do, w.worth, w.each)
		}
	}
}

func TestSolveGM(t *testing.T) {
	sv, err := pbta.DefaultScenario().Solve(context.Background(), markov.Goal{Side: "gm"})
	if err != nil {
		t.Fatal(err)
	}
	if err := sv.Check(); err != nil {
		t.Fatal(err)
	}
	if sv.Goal.Outcomes[0] != "defeat" || len(sv.Policies) != 3 {
		t.Errorf("goal %v, %d policies", sv.Goal.Outcomes, len(sv.Policies))
	}
	for _, bad := range []markov.Goal{{Side: "raider"}, {Outcomes: []string{"win"}}} {
		if _, err := pbta.DefaultScenario().Solve(context.Background(), bad); err == nil {
			t.Errorf("goal %v solved", bad)
		}
	}
	if _, err := longFight().Solve(context.Background(), markov.Goal{}); !errors.Is(err, markov.ErrNoExact) {
		t.Errorf("a fight too long to solve: %v", err)
	}
}

func TestTables(t *testing.T) {
	ts, err := pbta.DefaultScenario().Tables(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(ts) != 1 || len(ts[0].Rows) != 2 {
		t.Fatalf("tables %v", ts)
	}
	// go_in_hard at +1: 10/36 full, 16/36 at a cost, 10/36 miss; 3 harm a
	// hit (2 + 1 terrible, no armor), 3 back (4 - 1 armor).
	row := ts[0].Rows[0]
	if row[0] != "go_in_hard" || !near(row[2].(float64), 10.0/36) || !near(row[3].(float64), 16.0/36) ||
		!near(row[4].(float64), 10.0/36) || row[5] != 3 || row[6] != 3 {
		t.Errorf("go_in_hard row %v", row)
	}
	if _, err := pbta.DefaultScenario().Tables(context.Background(), []string{"x"}); !errors.Is(err, sim.ErrInvalid) {
		t.Errorf("words after the name: %v", err)
	}
}

func TestDescribe(t *testing.T) {
	sc := pbta.DefaultScenario()
	d := sc.Describe()
	if !strings.Contains(d.Summary, "Apocalypse World") {
		t.Errorf("summary %q", d.Summary)
	}
	keys := map[string]bool{}
	for _, term := range d.Terms {
		keys[term.Key] = true
	}
	for _, n := range append(sc.Categories(), sc.Metrics()...) {
		if !keys[n] {
			t.Errorf("no term for %q", n)
		}
	}
	for _, f := range []string{"Rules.Dice", "Rules.MaxExchanges", "Character.Hard", "Threat.Capacity", "Scenario.GM"} {
		if d.Docs["github.com/stakesrpg/stakes/examples/pbta/pbta."+f] == "" {
			t.Errorf("no doc for %s", f)
		}
	}
	sc.PC.Hard = 3
	if sc.Describe().Title == d.Title || !strings.Contains(sc.Describe().Title, "hard +3") {
		t.Errorf("title %q does not follow the settings", sc.Describe().Title)
	}
}
