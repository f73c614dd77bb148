package dramadeck

import (
	"bytes"
	"testing"

	"github.com/stakesrpg/stakes/dice"
)

// FuzzRestore reads any bytes as a saved game: never a panic; a game that
// restores saves to bytes that restore to the same bytes, and plays on
// without a step refusing the state its check accepted.
func FuzzRestore(f *testing.F) {
	s := DefaultScenario()
	r := dice.NewSeeded(1)
	g, err := s.Start(r)
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
		g, err := s.Restore(b)
		if err != nil {
			return
		}
		saved, err := g.Save()
		if err != nil {
			t.Fatal(err)
		}
		back, err := s.Restore(saved)
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
