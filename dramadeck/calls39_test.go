package dramadeck

import (
	"slices"
	"testing"

	"github.com/stakesrpg/stakes/dice"
)

// callVariants are margin tables that give Player's Call in different
// places: the text's (16+ in every column), only on a Maneuver, nowhere,
// and at every margin of a Taunt or Trick (so a contest won reaches it at
// once).
func callVariants() map[string]MarginTable {
	none := DefaultMargins()
	none.IntimidateTest[4].Target = []Effect{Break}
	none.TauntTrick[4].Target = []Effect{Setback}
	none.Maneuver[4].Target = []Effect{Setback, Fatigued}
	only := DefaultMargins()
	only.IntimidateTest[4].Target = []Effect{Break}
	only.TauntTrick[4].Target = []Effect{Setback}
	early := DefaultMargins()
	for i := range early.TauntTrick {
		early.TauntTrick[i].Target = []Effect{PlayersCall}
	}
	return map[string]MarginTable{"text": DefaultMargins(), "maneuver_only": only, "none": none, "taunt_trick_always": early}
}

// seededTrials plays seeds 1..n on rn and returns each trial's category and
// metrics, one after the other.
func seededTrials(t *testing.T, rn *Runner, n int, metrics int) []int {
	t.Helper()
	var out []int
	for seed := uint64(1); seed <= uint64(n); seed++ {
		m := make([]int, metrics)
		out = append(append(out, mustTrial(t, rn, dice.NewSeeded(seed), m)), m...)
	}
	return out
}

// Whether a contest may reach a Player's Call, which the Runner reads
// from the margin table once per trial, follows the table: a game played
// through the contract (which reads the table at each contest) ends as
// the Runner's trial on the same seed under each table, and a table
// reaching it at every margin gives other trials than the text's.
func TestRunnerCallsFollowTheMarginTable(t *testing.T) {
	var base []int
	for _, name := range []string{"text", "maneuver_only", "none", "taunt_trick_always"} {
		sc := DefaultScenario()
		sc.Rules.Margins = callVariants()[name]
		rn, err := sc.NewRunner()
		if err != nil {
			t.Fatal(name, err)
		}
		nm := len(sc.Metrics())
		for seed := uint64(1); seed <= 20; seed++ {
			g, r := startGame(t, sc, seed)
			for !g.Done() {
				if err := g.Step(r); err != nil {
					t.Fatal(name, err)
				}
			}
			got, want := make([]int, nm), make([]int, nm)
			k, err := g.Outcome(got)
			if err != nil {
				t.Fatal(name, err)
			}
			if wk := mustTrial(t, rn, dice.NewSeeded(seed), want); k != wk || !slices.Equal(got, want) {
				t.Errorf("%s seed %d: game %d %v, trial %d %v", name, seed, k, got, wk, want)
			}
		}
		all := seededTrials(t, rn, 40, nm)
		if name == "text" {
			base = all
		} else if name == "taunt_trick_always" && slices.Equal(all, base) {
			t.Errorf("%s: the same 40 trials as the text's table: the table is not read", name)
		}
	}
}

// A table changed on the Runner's state between trials holds from the
// next trial on: the trials are those of a Runner made with that table.
// The runner starts under a table with no Player's Call, so a contest
// would never reach one were the old table still read.
func TestRunnerCallsFollowAChangedTable(t *testing.T) {
	sc := DefaultScenario()
	sc.Rules.Margins = callVariants()["none"]
	rn, err := sc.NewRunner()
	if err != nil {
		t.Fatal(err)
	}
	nm := len(sc.Metrics())
	seededTrials(t, rn, 3, nm)
	early := callVariants()["taunt_trick_always"]
	rn.State().Rules.Margins = early
	sc.Rules.Margins = early
	fresh, err := sc.NewRunner()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := seededTrials(t, rn, 40, nm), seededTrials(t, fresh, 40, nm); !slices.Equal(got, want) {
		t.Errorf("trials after the change:\n%v\nwant those of a runner made with the table:\n%v", got, want)
	}
}
