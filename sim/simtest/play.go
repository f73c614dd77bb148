package simtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"runtime/debug"
	"strings"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim"
)

// sameEvents is how the kit compares events: field by field, unexported
// fields included, a nil slice or map equal to an empty one (JSON's
// omitempty cannot tell them apart), and a type's own Equal method used
// where it has one.
func sameEvents() cmp.Options {
	return cmp.Options{cmpopts.EquateEmpty(), cmp.Exporter(func(reflect.Type) bool { return true })}
}

// playthrough is one game played uninterrupted: the events of each step,
// whether the game was done after it, and the game's save at its end.
type playthrough struct {
	game   int
	ok     bool          // the game was played to its end
	done0  bool          // Done before the first step
	events [][]sim.Event // events[i] are the events of step i
	done   []bool        // done[i] is Done after step i
	final  []byte        // Save at the end
}

// start makes game g: its own Roller, a PCG seeded with (Seed, g) so that
// it saves, and the mechanic's new game on it.
func (k *kit) start(g int) (sim.Game, *dice.Roller, error) {
	r, err := dice.NewRoller(rand.NewPCG(k.opt.Seed, uint64(g)))
	if err != nil {
		return nil, nil, err
	}
	game, err := k.m.Start(r)
	if err != nil {
		return nil, nil, fmt.Errorf("game %d: Start: %w", g, err)
	}
	if game == nil {
		return nil, nil, fmt.Errorf("game %d: Start returned a nil Game and no error", g)
	}
	return game, r, nil
}

// recorder hears a game's events (Game.Listen) and hands them over step
// by step.
type recorder struct{ evs []sim.Event }

func (rc *recorder) listen(game sim.Game) {
	game.Listen(func(e sim.Event) { rc.evs = append(rc.evs, e) })
}

// take returns the events heard since the last take.
func (rc *recorder) take() []sim.Event {
	evs := rc.evs
	rc.evs = nil
	return evs
}

// guard runs f and turns a panic in it into an error with the start of
// the stack, so that one panicking game does not end the whole check.
func guard(f func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("the mechanic panicked: %v %s", p, panicSite(debug.Stack()))
		}
	}()
	return f()
}

// play plays game g uninterrupted to its end, hearing every step.
func (k *kit) play(g int) (playthrough, error) {
	p := playthrough{game: g}
	game, r, err := k.start(g)
	if err != nil {
		return p, err
	}
	var rc recorder
	rc.listen(game)
	p.done0 = game.Done()
	for i := 0; !game.Done(); i++ {
		if i == k.opt.MaxSteps {
			return p, fmt.Errorf("game %d is still going after %d steps (Options.MaxSteps)", g, i)
		}
		if err := game.Step(r); err != nil {
			return p, fmt.Errorf("game %d step %d: Step failed in play by the scenario's policies: %w", g, i, err)
		}
		p.events = append(p.events, rc.take())
		p.done = append(p.done, game.Done())
	}
	if p.final, err = game.Save(); err != nil {
		return p, fmt.Errorf("game %d at its end: Save: %w", g, err)
	}
	p.ok = true
	return p, nil
}

// saveRestore checks that every game, saved and restored after every step,
// plays exactly as it did uninterrupted. It also plays the games the events
// check reads.
func (k *kit) saveRestore(s *shortfalls) {
	for g := range k.opt.Games {
		var p playthrough
		err := guard(func() (err error) {
			p, err = k.play(g)
			return err
		})
		k.played = append(k.played, p)
		if err != nil {
			s.add("%v", err)
			continue
		}
		if err := guard(func() error { return k.replay(p) }); err != nil {
			s.add("%v", err)
		}
	}
}

// replay plays game p.game again, saving the state and the Roller before
// the first step and after every step and going on from fresh values
// restored from the saved bytes, and returns the first way it differs
// from p.
func (k *kit) replay(p playthrough) error {
	game, r, err := k.start(p.game)
	if err != nil {
		return err
	}
	if game.Done() != p.done0 {
		return fmt.Errorf("game %d: a second Start with the same Roller gives Done %v, the first %v", p.game, game.Done(), p.done0)
	}
	var rc recorder
	if game, r, err = k.saveAndRestore(game, r); err != nil {
		return fmt.Errorf("game %d before step 0: %w", p.game, err)
	}
	for i, want := range p.events {
		rc.listen(game)
		if err := game.Step(r); err != nil {
			return fmt.Errorf("game %d step %d: Step failed after restoring (uninterrupted it succeeded): %w", p.game, i, err)
		}
		if got := rc.take(); !cmp.Equal(got, want, sameEvents()) {
			return fmt.Errorf("game %d step %d: after restoring, the step's events differ from the uninterrupted game's:\n\trestored:      %s\n\tuninterrupted: %s", p.game, i, show(got), show(want))
		}
		if game.Done() != p.done[i] {
			return fmt.Errorf("game %d step %d: after restoring, Done is %v; uninterrupted it was %v", p.game, i, game.Done(), p.done[i])
		}
		if game, r, err = k.saveAndRestore(game, r); err != nil {
			return fmt.Errorf("game %d after step %d: %w", p.game, i, err)
		}
	}
	return nil
}

// saveAndRestore saves game and r and restores them into fresh values. The
// bytes handed to Restore are scribbled over once it returns, so a game
// that kept them rather than copying what it needs plays on from garbage.
func (k *kit) saveAndRestore(game sim.Game, r *dice.Roller) (sim.Game, *dice.Roller, error) {
	state, err := game.Save()
	if err != nil {
		return nil, nil, fmt.Errorf("saving the game: %w", err)
	}
	rb, err := r.MarshalBinary()
	if err != nil {
		return nil, nil, fmt.Errorf("saving the Roller: %w", err)
	}
	in := bytes.Clone(state)
	fresh, err := k.m.Restore(in)
	if err != nil {
		return nil, nil, fmt.Errorf("the state Save wrote was refused by Restore: %w\n\tstate: %s", err, clip(state))
	}
	if fresh == nil {
		return nil, nil, fmt.Errorf("restoring gave a nil Game and no error")
	}
	clear(in)
	again, err := fresh.Save()
	if err != nil {
		return nil, nil, fmt.Errorf("saving the restored game: %w", err)
	}
	if bytes.Equal(again, in) && !bytes.Equal(in, state) {
		return nil, nil, fmt.Errorf("the restored game's Save gives the bytes handed to Restore, overwritten since: the game kept them instead of copying what it needs")
	}
	if !bytes.Equal(again, state) {
		return nil, nil, fmt.Errorf("the restored game saves differently from the state it was restored from: %s", diff(again, state))
	}
	var nr dice.Roller
	if err := nr.UnmarshalBinary(rb); err != nil {
		return nil, nil, fmt.Errorf("restoring the Roller: %w", err)
	}
	return fresh, &nr, nil
}

// events checks that every event of the games played uninterrupted is a
// non-nil value whose String is one line, not empty, and that survives a
// JSON round trip into its own type. Each event type is reported once for
// each way it falls short.
func (k *kit) events(s *shortfalls) {
	if len(k.played) == 0 {
		s.add("no games were played (the save/restore check plays them)")
		return
	}
	type fault struct {
		t    reflect.Type
		text bool // String, not JSON
	}
	bad := map[fault]bool{}
	report := func(f fault, where string, err error) {
		if err != nil && !bad[f] {
			bad[f] = true
			s.add("%s: %v", where, err)
		}
	}
	for _, p := range k.played {
		for i, evs := range p.events {
			for j, ev := range evs {
				t := reflect.TypeOf(ev)
				where := fmt.Sprintf("game %d step %d event %d (%T)", p.game, i, j, ev)
				if ev == nil {
					report(fault{t: t}, where, fmt.Errorf("a nil event; events are values of the mechanic's event type"))
					continue
				}
				if f := (fault{t: t, text: true}); !bad[f] {
					report(f, where, narrates(ev))
				}
				if f := (fault{t: t}); !bad[f] {
					report(f, where, roundTrip(ev))
				}
			}
		}
	}
}

// narrates reports how ev's String falls short of one line of narration.
func narrates(ev sim.Event) error {
	text := ev.String()
	if strings.TrimSpace(text) == "" {
		return fmt.Errorf("String() is empty; it narrates the event as a sentence")
	}
	if strings.ContainsAny(text, "\n\r") {
		return fmt.Errorf("String() runs over more than one line: %q", clipString(text))
	}
	return nil
}

// roundTrip reports how ev fails to survive json.Marshal and a decode into
// a new value of its own dynamic type.
func roundTrip(ev sim.Event) error {
	b, err := json.Marshal(ev)
	if err != nil {
		return fmt.Errorf("json.Marshal: %w", err)
	}
	back := reflect.New(reflect.TypeOf(ev))
	if err := json.Unmarshal(b, back.Interface()); err != nil {
		return fmt.Errorf("decoding %s into a %T: %w", clip(b), ev, err)
	}
	if got := back.Elem().Interface(); !cmp.Equal(got, ev, sameEvents()) {
		return fmt.Errorf("decoded from %s it differs from the original (-original +decoded):\n%s", clip(b), cmp.Diff(ev, got, sameEvents()))
	}
	return nil
}

// show renders events for a report: as JSON when they encode, else with
// their Go syntax.
func show(evs []sim.Event) string {
	if b, err := json.Marshal(evs); err == nil {
		return clip(b)
	}
	return clipString(fmt.Sprintf("%#v", evs))
}

// The most characters of a value or diff a report shows.
const shown = 300

func clip(b []byte) string { return clipString(string(b)) }

func clipString(s string) string {
	if len(s) <= shown {
		return s
	}
	return s[:shown] + "..."
}

// diff shows where two encodings first differ, with some context.
func diff(got, want []byte) string {
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	lo := max(0, i-40)
	part := func(b []byte) string {
		hi := min(len(b), i+60)
		if lo >= hi {
			return "(ends here)"
		}
		return "..." + printable(b[lo:hi]) + "..."
	}
	return fmt.Sprintf("first difference at byte %d:\n\tgot:  %s\n\twant: %s", i, part(got), part(want))
}

// printable shows b as text, with each byte that is not printable ASCII
// shown as '?'.
func printable(b []byte) string {
	out := make([]byte, len(b))
	for i, c := range b {
		if c < ' ' || c > '~' {
			c = '?'
		}
		out[i] = c
	}
	return string(out)
}
