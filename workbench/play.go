package workbench

import (
	"fmt"
	"io"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim"
)

// maxPlayGames and maxPlaySteps bound "stakes play": a sample is for
// reading, and a game that is still going after maxPlaySteps steps is cut
// off and said to be.
const (
	maxPlayGames = 100
	maxPlaySteps = 10_000
)

// playedGame is one narrated game as "stakes play --json" encodes it.
type playedGame struct {
	Seed    uint64         `json:"seed"`
	Events  []string       `json:"events"`
	Outcome string         `json:"outcome,omitempty"`
	Metrics map[string]int `json:"metrics,omitempty"`
	// CutOff says the game was still going after the step bound.
	CutOff bool `json:"cut_off,omitempty"`
}

func cmdPlay(e *env, args []string) error {
	var c common
	var games int
	fs := newFlags(e, "play", "MECHANIC [--games N] [--seed S] [flags]",
		"Plays sample games of a scenario step by step and narrates them: every event in words,\n"+
			"then how the game ended. Game g is played with the seed S+g, so a game can be\n"+
			"played again alone with --seed. Any mechanic plays through the same game contract.",
		`stakes play edge`, `stakes play contest --games 3 --seed 7`, `stakes play challenge --set rules.max_exchanges=3 --json`)
	c.register(fs.FlagSet, 1, jsonFlag|setFlag|fileFlag)
	fs.Uint64Var(&c.seed, "seed", 1, "the first game's seed")
	fs.IntVar(&games, "games", 1, "how many games to play (1..100)")
	mech, err := c.parseMechanic(fs, args, "play")
	if err != nil {
		return err
	}
	if games < 1 || games > maxPlayGames {
		return usagef("play: --games %d: allowed 1..%d", games, maxPlayGames)
	}
	sc, _, err := e.scenarioFor(mech, &c)
	if err != nil {
		return err
	}
	var out []playedGame
	for g := range games {
		pg, err := playOne(e, sc.sim(), c.seed+uint64(g))
		if err != nil {
			return fmt.Errorf("play: game with seed %d: %w", c.seed+uint64(g), err)
		}
		out = append(out, pg)
	}
	if c.json {
		return writeJSON(e.stdout, map[string]any{"mechanic": mech, "scenario": sc.describe(), "games": out})
	}
	fmt.Fprintf(e.stdout, "%s: %s\n", mech, sc.describe())
	for _, pg := range out {
		writePlayed(e.stdout, pg)
	}
	return nil
}

// playOne plays one game of m with the seed through the game contract,
// hearing its events.
func playOne(e *env, m sim.Mechanic, seed uint64) (playedGame, error) {
	pg := playedGame{Seed: seed}
	r := dice.NewSeeded(seed)
	g, err := m.Start(r)
	if err != nil {
		return pg, err
	}
	g.Listen(func(ev sim.Event) { pg.Events = append(pg.Events, ev.String()) })
	for steps := 0; !g.Done(); steps++ {
		if steps == maxPlaySteps {
			pg.CutOff = true
			return pg, nil
		}
		if err := e.ctx.Err(); err != nil {
			return pg, err
		}
		if err := g.Step(r); err != nil {
			return pg, err
		}
	}
	metrics := make([]int, len(m.Metrics()))
	cat, err := g.Outcome(metrics)
	if err != nil {
		return pg, err
	}
	pg.Outcome = m.Categories()[cat]
	pg.Metrics = map[string]int{}
	for i, name := range m.Metrics() {
		pg.Metrics[name] = metrics[i]
	}
	return pg, nil
}

// writePlayed prints one narrated game.
func writePlayed(w io.Writer, pg playedGame) {
	fmt.Fprintf(w, "\ngame with seed %d:\n", pg.Seed)
	for i, ev := range pg.Events {
		fmt.Fprintf(w, "  %3d. %s\n", i+1, ev)
	}
	if pg.CutOff {
		fmt.Fprintf(w, "  (cut off: still going after %d steps)\n", maxPlaySteps)
		return
	}
	fmt.Fprintf(w, "  outcome: %s\n", pg.Outcome)
}
