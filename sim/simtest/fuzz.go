package simtest

import (
	"bytes"
	"testing"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim"
)

// FuzzRestore fuzzes a mechanic's Restore through the game contract: it
// seeds f with the saves of the first steps of a game of m, then reads any
// bytes as a save. Restore never panics; a game it accepts saves to bytes
// that restore to the same bytes, and plays on without a step refusing
// the state its check accepted. A mechanic's fuzz target is one call:
//
//	func FuzzRestore(f *testing.F) { simtest.FuzzRestore(f, sim.Adapt[*Runner]("name", &scenario)) }
func FuzzRestore(f *testing.F, m sim.Mechanic) {
	r := dice.NewSeeded(1)
	g, err := m.Start(r)
	if err != nil {
		f.Fatal(err)
	}
	for i := 0; !g.Done() && i < 40; i++ {
		b, err := g.Save()
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
		if err := g.Step(r); err != nil {
			f.Fatal(err)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		g, err := m.Restore(b)
		if err != nil {
			return
		}
		saved, err := g.Save()
		if err != nil {
			t.Fatal(err)
		}
		back, err := m.Restore(saved)
		if err != nil {
			t.Fatalf("a restored game's save does not restore: %v", err)
		}
		if again, _ := back.Save(); !bytes.Equal(saved, again) {
			t.Fatal("save(restore(save)) differs")
		}
		r := dice.NewSeeded(2)
		for i := 0; i < 200 && !back.Done(); i++ {
			if err := back.Step(r); err != nil {
				t.Fatalf("a restored game cannot step: %v", err)
			}
		}
	})
}
