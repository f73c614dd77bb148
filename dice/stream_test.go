package dice

import (
	"hash/fnv"
	"strconv"
	"testing"
)

// The random stream is part of the contract: a saved game, a golden file
// and a bot's replay all depend on the same seed giving the same faces.
// This pins a digest of every faces-from-words path (single dice of every
// kind of size, batches, mixed pools with dice too large to share a draw,
// SumN, RollCount, IntN and shuffles) over a few thousand draws.
func TestStreamPinned(t *testing.T) {
	h := fnv.New64a()
	put := func(v int) { h.Write(strconv.AppendInt(nil, int64(v), 10)); h.Write([]byte{' '}) }
	r := NewSeeded(2026)
	var buf []int
	mixed := []Die{D20, D12, 300, D10, D8, 1 << 19, D6, D4, D6, 1000, D100}
	small := []Die{D12, D10, D8, D6, D4}
	deck := make([]int, 52)
	for i := range deck {
		deck[i] = i
	}
	pool, err := ParsePool("d12 d8 2d6")
	if err != nil {
		t.Fatal(err)
	}
	e, err := ParseExpr("4d6!kh3+d1000r1+2d20kl1+8d10>=7")
	if err != nil {
		t.Fatal(err)
	}
	var res ExprResult
	for i := range 400 {
		for _, f := range pool.Roll(r, buf) {
			put(f)
		}
		if err := e.Roll(r, &res); err != nil {
			t.Fatal(err)
		}
		put(res.Total)
		for _, s := range []int{2, 3, 6, 20, 100, 256, 257, 1000, 999_983, MaxSides} {
			put(r.Roll(s))
		}
		for _, f := range r.RollN(1+i%30, 6, buf) {
			put(f)
		}
		for _, f := range r.RollN(1+i%5, 1000, buf) {
			put(f)
		}
		for _, f := range r.RollDice(mixed, buf) {
			put(f)
		}
		for _, f := range r.RollDice(small, buf) {
			put(f)
		}
		put(r.SumN(3+i%20, 6))
		put(r.SumN(2, 1000))
		_, c := r.RollCount(10, 10, 8, buf)
		put(c)
		for _, n := range []int{2, 7, 52, 1 << 20, 1<<40 + 1, 1<<62 + 1} {
			put(r.IntN(n))
		}
		r.ShuffleInts(deck)
		put(deck[0])
		put(deck[51])
	}
	const want = 0x4d35cfe7fdcf93a
	if got := h.Sum64(); got != want {
		t.Errorf("the stream changed: digest %#x, want %#x", got, want)
	}
}
