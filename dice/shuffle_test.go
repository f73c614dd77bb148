package dice

import (
	"slices"
	"testing"
)

// ShuffleInts takes the same draws and makes the same permutation as
// Shuffle with a swap, for seeded and scripted rollers, and leaves the
// roller where Shuffle leaves it.
func TestShuffleIntsIsShuffle(t *testing.T) {
	for seed := range uint64(20) {
		for _, n := range []int{0, 1, 2, 3, 7, 52, 156} {
			a, b := NewSeeded(seed), NewSeeded(seed)
			x, y := make([]int, n), make([]int, n)
			for i := range x {
				x[i], y[i] = i, i
			}
			a.ShuffleInts(x)
			b.Shuffle(n, func(i, j int) { y[i], y[j] = y[j], y[i] })
			if !slices.Equal(x, y) {
				t.Fatalf("seed %d, %d cards: ShuffleInts %v, Shuffle %v", seed, n, x, y)
			}
			if u, v := a.Uint64(), b.Uint64(); u != v {
				t.Fatalf("seed %d, %d cards: the rollers part after shuffling (%d, %d)", seed, n, u, v)
			}
		}
	}
	// Scripted: swap 2 with 0 (face 1 of a d3), then 1 with 1 (face 2 of a d2).
	x := []int{10, 20, 30}
	Scripted(1, 2).ShuffleInts(x)
	if want := []int{30, 20, 10}; !slices.Equal(x, want) {
		t.Errorf("scripted shuffle: got %v, want %v", x, want)
	}
}
