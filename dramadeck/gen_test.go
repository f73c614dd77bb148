package dramadeck

import (
	"bytes"
	"flag"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "regenerate deck.txt from DefaultComposition and DefaultSeed")

// TestShippedDeck is the generator program: with -update it writes deck.txt
// once from the fixed seed; without, it checks the shipped file still equals
// that generation, so the default deck never drifts.
func TestShippedDeck(t *testing.T) {
	gen, err := Generate(DefaultComposition(), DefaultSeed)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := gen.Format(&buf); err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile("deck.txt", buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	shipped, err := DefaultDeck()
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(gen, shipped); d != "" {
		t.Errorf("shipped deck differs from generation (-gen +shipped):\n%s", d)
	}
}
