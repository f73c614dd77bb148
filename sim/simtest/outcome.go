package simtest

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim"
)

// outcome plays each game once more, without a listener, and checks what
// Outcome and a refused Step give along the way and at the end. One
// shortfall is reported per game.
func (k *kit) outcome(s *shortfalls) {
	for g := range k.opt.Games {
		if err := guard(func() error { return k.outcomeGame(g) }); err != nil {
			s.add("%v", err)
		}
	}
}

func (k *kit) outcomeGame(g int) error {
	game, r, err := k.start(g)
	if err != nil {
		return err
	}
	metrics := make([]int, len(k.m.Metrics()))
	for i := 0; !game.Done(); i++ {
		if i == k.opt.MaxSteps {
			return fmt.Errorf("game %d is still going after %d steps (Options.MaxSteps)", g, i)
		}
		if c, err := game.Outcome(metrics); err == nil {
			return fmt.Errorf("game %d before step %d: Outcome of a game still going gave category %d and no error", g, i, c)
		}
		if i&(i-1) == 0 { // 0 and the powers of two: each save costs
			if err := refusesStep(game, r, nil, "with a nil Roller"); err != nil {
				return fmt.Errorf("game %d before step %d: %w", g, i, err)
			}
		}
		if err := game.Step(r); err != nil {
			return fmt.Errorf("game %d step %d: Step failed: %w", g, i, err)
		}
	}
	if err := k.ended(game, r, metrics); err != nil {
		return fmt.Errorf("game %d at its end: %w", g, err)
	}
	if g < len(k.played) && k.played[g].ok {
		b, err := game.Save()
		if err != nil {
			return fmt.Errorf("game %d at its end: Save: %w", g, err)
		}
		if want := k.played[g].final; !bytes.Equal(b, want) {
			return fmt.Errorf("game %d ends in another game without a listener than with one (Game.Listen must change no play): %s", g, diff(b, want))
		}
	}
	return nil
}

// ended checks a finished game: its Outcome, the same on every length of
// metrics and after a restore, and the steps it refuses.
func (k *kit) ended(game sim.Game, r *dice.Roller, metrics []int) error {
	cat, err := game.Outcome(metrics)
	if err != nil {
		return fmt.Errorf("its Outcome: %w", err)
	}
	if n := len(k.m.Categories()); cat < 0 || cat >= n {
		return fmt.Errorf("its Outcome gave category %d; the scenario has %d (0..%d)", cat, n, n-1)
	}
	for n := range len(metrics) {
		short := make([]int, n)
		c, err := game.Outcome(short)
		if err != nil || c != cat || !slices.Equal(short, metrics[:n]) {
			return fmt.Errorf("its Outcome with %d metric slots gave category %d, metrics %v, error %v; with all %d: category %d, metrics %v",
				n, c, short, err, len(metrics), cat, metrics)
		}
	}
	if err := refusesStep(game, r, r, "on a finished game"); err != nil {
		return err
	}
	if err := refusesStep(game, r, nil, "on a finished game with a nil Roller"); err != nil {
		return err
	}
	b, err := game.Save()
	if err != nil {
		return fmt.Errorf("saving it: %w", err)
	}
	fresh, err := k.m.Restore(b)
	if err != nil || fresh == nil {
		return fmt.Errorf("restoring its save gave game %v, error %v", fresh, err)
	}
	again := make([]int, len(metrics))
	if c, err := fresh.Outcome(again); err != nil || c != cat || !slices.Equal(again, metrics) {
		return fmt.Errorf("restored, the finished game's Outcome is category %d, metrics %v, error %v; before the save, category %d, metrics %v",
			c, again, err, cat, metrics)
	}
	return nil
}

// refusesStep steps game with roller (r, or nil), which must be refused
// and change neither the game nor r.
func refusesStep(game sim.Game, r, roller *dice.Roller, what string) error {
	before, rb, err := snapshot(game, r)
	if err != nil {
		return err
	}
	if err := game.Step(roller); err == nil {
		return fmt.Errorf("a Step %s returned no error", what)
	}
	return unchanged(game, r, before, rb, "a Step "+what)
}

// describe checks that the scenario says what it is and what each of its
// categories and metrics means.
func (k *kit) describe(s *shortfalls) {
	d := k.m.Describe()
	line := func(field, text string) {
		switch {
		case strings.TrimSpace(text) == "":
			s.add("Description.%s is empty", field)
		case strings.ContainsAny(text, "\n\r"):
			s.add("Description.%s runs over more than one line: %q", field, clipString(text))
		}
	}
	line("Summary", d.Summary)
	line("Title", d.Title)
	for i, t := range d.Terms {
		if t.Key == "" || t.Key == "*" || strings.TrimSpace(t.Text) == "" {
			s.add("Term %d (%q: %q) needs a Key naming an outcome or metric and a Text saying what it means", i, t.Key, clipString(t.Text))
		}
	}
	for _, kind := range []struct {
		what  string
		names []string
	}{{"category", k.m.Categories()}, {"metric", k.m.Metrics()}} {
		for _, name := range kind.names {
			if !slices.ContainsFunc(d.Terms, func(t sim.Term) bool { return covers(t.Key, name) }) {
				s.add("no Term says what %s %q means (a Key %q, or \"*suffix\" matching it)", kind.what, name, name)
			}
		}
	}
}

// covers reports whether a Term's key names name: the name itself, or
// "*" and a suffix that a longer name ends in.
func covers(key, name string) bool {
	if suffix, ok := strings.CutPrefix(key, "*"); ok {
		return suffix != "" && len(name) > len(suffix) && strings.HasSuffix(name, suffix)
	}
	return key == name
}
