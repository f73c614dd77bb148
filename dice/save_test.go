package dice

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	//lint:ignore SA1019 deprecated upstream, but its sources must still plug in (the random seam accepts them)
	exprand "golang.org/x/exp/rand"
)

// op is one call on a Roller, recording everything the call returned.
type op func(r *Roller) []int

// randomOps returns n calls chosen by g: every rolling method, die sizes
// d2..d1000 (and some sizes a die cannot have), counts that fit in the kept
// draw and counts that do not.
func randomOps(g *rand.Rand, n int) []op {
	ops := make([]op, n)
	sides := 6
	for i := range ops {
		// Half the calls roll the size rolled last, from its kept draw.
		switch g.IntN(4) {
		case 0:
			sides = 2 + g.IntN(999)
		case 1:
			sides = []int{2, 3, 4, 6, 8, 10, 12, 20}[g.IntN(8)]
		}
		sides := sides
		k := g.IntN(40) - 2
		switch g.IntN(9) {
		case 0:
			ops[i] = func(r *Roller) []int { return []int{r.Roll(sides)} }
		case 1:
			ops[i] = func(r *Roller) []int { return slices.Clone(r.RollN(k, sides, nil)) }
		case 2:
			buf := make([]int, 0, 64)
			ops[i] = func(r *Roller) []int { return slices.Clone(r.RollN(k, sides, buf)) }
		case 3:
			ds := make([]Die, max(k, 0))
			for j := range ds {
				ds[j] = Die(2 + g.IntN(999))
				if g.IntN(2) == 0 {
					ds[j] = Die(2 + g.IntN(20))
				}
			}
			ops[i] = func(r *Roller) []int { return slices.Clone(r.RollDice(ds, nil)) }
		case 4:
			target := 1 + g.IntN(sides)
			ops[i] = func(r *Roller) []int {
				faces, c := r.RollCount(k, sides, target, make([]int, 0, 64))
				return append(slices.Clone(faces), c)
			}
		case 5:
			ops[i] = func(r *Roller) []int { return []int{r.SumN(k, sides)} }
		case 6:
			ops[i] = func(r *Roller) []int { return []int{r.IntN(sides * 1000)} }
		case 7:
			ops[i] = func(r *Roller) []int {
				p := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
				r.Shuffle(len(p), func(a, b int) { p[a], p[b] = p[b], p[a] })
				return p
			}
		case 8:
			ops[i] = func(r *Roller) []int { return []int{int(r.Uint64() >> 1)} }
		}
	}
	return ops
}

func run(r *Roller, ops []op) [][]int {
	out := make([][]int, len(ops))
	for i, o := range ops {
		out[i] = o(r)
	}
	return out
}

// restored saves r and restores it into into (a zero Roller when nil).
func restored(t *testing.T, r *Roller, into *Roller) *Roller {
	t.Helper()
	b, err := r.MarshalBinary()
	if err != nil {
		t.Fatalf("MarshalBinary: %v", err)
	}
	if into == nil {
		into = new(Roller)
	}
	if err := into.UnmarshalBinary(b); err != nil {
		t.Fatalf("UnmarshalBinary: %v", err)
	}
	return into
}

// A Roller saved after any call and restored into a fresh Roller rolls the
// rest of the stream exactly as the uninterrupted one does, for every kind
// of Source and every rolling call.
func TestSaveRestoreReplays(t *testing.T) {
	var seed [32]byte
	seed[3] = 9
	sources := []struct {
		name string
		make func() *Roller
		into func() *Roller // nil: a zero Roller
	}{
		{"PCG", func() *Roller { r, _ := NewRoller(rand.NewPCG(3, 4)); return r }, nil},
		{"ChaCha8", func() *Roller { r, _ := NewRoller(rand.NewChaCha8(seed)); return r }, nil},
		{"NewSeeded", func() *Roller { return NewSeeded(77) }, nil},
		{"x/exp PCGSource", func() *Roller {
			xs := &exprand.PCGSource{}
			xs.Seed(5)
			r, _ := NewRoller(xs)
			return r
		}, func() *Roller { r, _ := NewRoller(&exprand.PCGSource{}); return r }},
	}
	for _, src := range sources {
		t.Run(src.name, func(t *testing.T) {
			ops := randomOps(rand.New(rand.NewPCG(1, 1)), 160)
			want := run(src.make(), ops)
			r := src.make()
			for i := range ops {
				var into *Roller
				if src.into != nil {
					into = src.into()
				}
				rest := restored(t, r, into)
				if d := cmp.Diff(want[i:], run(rest, ops[i:])); d != "" {
					t.Fatalf("restored after %d calls, the rest differs (-uninterrupted +restored):\n%s", i, d)
				}
				ops[i](r)
			}
		})
	}
}

// Every die size d2..d1000, saved part way through its kept draw, rolls
// on exactly as before.
func TestSaveRestoreEverySize(t *testing.T) {
	r := NewSeeded(2)
	for s := 2; s <= 1000; s++ {
		for taken := range 3 {
			for range taken {
				r.Roll(s)
			}
			rest := restored(t, r, nil)
			want := []int{r.Roll(s), r.SumN(2, s), r.Roll(s)}
			want = append(want, r.RollN(30, s, nil)...)
			got := []int{rest.Roll(s), rest.SumN(2, s), rest.Roll(s)}
			got = append(got, rest.RollN(30, s, nil)...)
			if !slices.Equal(want, got) {
				t.Fatalf("d%d after %d rolls: restored rolls %v, want %v", s, taken, got, want)
			}
		}
	}
}

// The kept draw is part of the save: a Roller holding half a draw of d6
// restores with the same faces left, not a fresh draw.
func TestSaveKeepsDraw(t *testing.T) {
	r := NewSeeded(4)
	r.Roll(6)
	b, _ := r.MarshalBinary()
	if got, want := int(b[saveHeader+8]), batchSize[6]-1; got != want {
		t.Fatalf("saved %d faces left of the d6 draw, want %d", got, want)
	}
	if got := int(b[saveHeader+10]); got != 6 {
		t.Fatalf("saved draw size d%d, want d6", got)
	}
}

// A scripted Roller saves its faces, its position and its first problem.
func TestSaveScripted(t *testing.T) {
	for _, tc := range []struct {
		name  string
		faces []int
		roll  int // dice of 6 sides rolled before saving
	}{
		{"fresh", []int{3, 4, 5}, 0},
		{"part way", []int{3, 4, 5}, 2},
		{"impossible face", []int{3, 9, -7, 5}, 3},
		{"ran out", []int{2}, 3},
		{"empty", nil, 1},
		{"huge faces", []int{1 << 62, -(1 << 62), 6}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := Scripted(tc.faces...)
			r.RollN(tc.roll, 6, nil)
			rest := restored(t, r, NewSeeded(1))
			if wantErr, gotErr := errString(r.Err()), errString(rest.Err()); wantErr != gotErr {
				t.Errorf("restored Err = %q, want %q", gotErr, wantErr)
			}
			if rest.Remaining() != r.Remaining() {
				t.Errorf("restored Remaining = %d, want %d", rest.Remaining(), r.Remaining())
			}
			want, got := r.RollN(5, 6, nil), rest.RollN(5, 6, nil)
			if !slices.Equal(want, got) || errString(r.Err()) != errString(rest.Err()) {
				t.Errorf("restored rolls %v (Err %v), want %v (Err %v)", got, rest.Err(), want, r.Err())
			}
		})
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// unsaveable is a Source that can neither save nor restore itself.
type unsaveable struct{ n uint64 }

func (u *unsaveable) Uint64() uint64 { u.n += 0x9e3779b97f4a7c15; return u.n }

// failing restores nothing and reports it.
type failing struct{ *rand.PCG }

func (failing) UnmarshalBinary([]byte) error { return errors.New("no") }

func TestSaveErrors(t *testing.T) {
	u, _ := NewRoller(&unsaveable{})
	if _, err := u.MarshalBinary(); err == nil || !strings.Contains(err.Error(), "unsaveable") {
		t.Errorf("saving over a Source without MarshalBinary: err = %v, want one naming the type", err)
	}
	var zero Roller
	if _, err := zero.MarshalBinary(); err == nil {
		t.Error("saving a zero Roller: no error")
	}

	pcg := NewSeeded(6)
	pcg.Roll(20)
	good, _ := pcg.MarshalBinary()
	ch, _ := NewRoller(rand.NewChaCha8([32]byte{}))
	chacha, _ := ch.MarshalBinary()
	mutate := func(i int, b byte) []byte {
		c := slices.Clone(good)
		c[i] = b
		return c
	}
	k := saveHeader
	for _, tc := range []struct {
		name string
		into func() *Roller
		data []byte
	}{
		{"empty", nil, nil},
		{"bad magic", nil, mutate(0, 'x')},
		{"version 2", nil, mutate(len(saveMagic), 2)},
		{"unknown kind", nil, mutate(saveHeader-1, 'Q')},
		{"truncated kept draw", nil, good[:k+5]},
		{"no source", nil, good[:k+keptLen]},
		{"truncated source", nil, good[:len(good)-1]},
		{"truncated source into a PCG Roller", func() *Roller { return NewSeeded(2) }, good[:len(good)-1]},
		{"bad source into a PCG Roller", func() *Roller { return NewSeeded(2) }, mutate(len(good)-17, 'x')},
		{"unknown source", nil, append(slices.Clone(good[:k+keptLen]), "xorshift"...)},
		{"d1 draw", nil, mutate(k+10, 1)},
		{"d257 draw", nil, append(append(slices.Clone(good[:k+9]), 1, 1), good[k+keptLen:]...)},
		{"too many faces left", nil, mutate(k+8, byte(batchSize[20]+1))},
		{"faces left of no die", nil, append(append(slices.Clone(good[:k+8]), 3, 0, 0), good[k+keptLen:]...)},
		{"PCG save into ChaCha8 Roller", func() *Roller { r, _ := NewRoller(rand.NewChaCha8([32]byte{})); return r }, good},
		{"ChaCha8 save into PCG Roller", func() *Roller { return NewSeeded(1) }, chacha},
		{"into a Source that cannot restore", func() *Roller { r, _ := NewRoller(&unsaveable{}); return r }, good},
		{"into a Source that refuses", func() *Roller { r, _ := NewRoller(failing{rand.NewPCG(1, 1)}); return r }, good},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := new(Roller)
			if tc.into != nil {
				r = tc.into()
			}
			before, _ := r.MarshalBinary()
			if err := r.UnmarshalBinary(tc.data); err == nil {
				t.Fatalf("restored %q without error", tc.data)
			}
			if after, _ := r.MarshalBinary(); !bytes.Equal(before, after) {
				t.Errorf("a refused restore changed the Roller: %q -> %q", before, after)
			}
		})
	}
}

func TestSaveScriptedErrors(t *testing.T) {
	s := Scripted(3, 9, 4)
	s.RollN(2, 6, nil) // 9 is impossible on a d6
	good, _ := s.MarshalBinary()
	body := good[saveHeader:] // next 2, 3 faces 3 9 4 (zig-zag 6 18 8), problem 2: face 9, number 2, d6
	if want := []byte{2, 3, 6, 18, 8, 2, 18, 2, 6}; !bytes.Equal(body, want) {
		t.Fatalf("scripted save body = %v, want %v", body, want)
	}
	with := func(b ...byte) []byte { return append(slices.Clone(good[:saveHeader]), b...) }
	for _, tc := range []struct {
		name string
		data []byte
	}{
		{"truncated", good[:len(good)-1]},
		{"trailing bytes", append(slices.Clone(good), 0)},
		{"no problem byte", with(0, 0)},
		{"position past the end", with(4, 3, 6, 18, 8, 0)},
		{"more faces than bytes", with(0, 100, 0)},
		{"huge count", with(0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, 0)},
		{"ran out early", with(1, 3, 6, 18, 8, 1)},
		{"unknown problem", with(2, 3, 6, 18, 8, 3)},
		{"problem on an unused face", with(1, 3, 6, 18, 8, 2, 18, 2, 6)},
		{"problem face is not the script's", with(2, 3, 6, 18, 8, 2, 16, 2, 6)},
		{"possible face", with(2, 3, 6, 18, 8, 2, 18, 2, 20)},
		{"problem on a d1", with(2, 3, 6, 18, 8, 2, 18, 2, 1)},
		{"problem number 0", with(2, 3, 6, 18, 8, 2, 18, 0, 6)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := Scripted(1, 2)
			if err := r.UnmarshalBinary(tc.data); err == nil {
				t.Fatalf("restored %v without error", tc.data)
			}
			if r.Remaining() != 2 || r.Err() != nil {
				t.Errorf("a refused restore changed the Roller")
			}
		})
	}
}

// FuzzRollerUnmarshal: no bytes make UnmarshalBinary panic, and whatever
// it accepts rolls faces in range and saves and restores again.
func FuzzRollerUnmarshal(f *testing.F) {
	r := NewSeeded(1)
	r.Roll(6)
	b, _ := r.MarshalBinary()
	f.Add(b)
	c, _ := NewRoller(rand.NewChaCha8([32]byte{1}))
	c.Roll(20)
	b, _ = c.MarshalBinary()
	f.Add(b)
	s := Scripted(3, 9, 4)
	s.RollN(2, 6, nil)
	b, _ = s.MarshalBinary()
	f.Add(b)
	f.Fuzz(func(t *testing.T, data []byte) {
		var r Roller
		if err := r.UnmarshalBinary(data); err != nil {
			return
		}
		again, err := r.MarshalBinary()
		if err != nil {
			t.Fatalf("restored Roller does not save: %v", err)
		}
		var r2 Roller
		if err := r2.UnmarshalBinary(again); err != nil {
			t.Fatalf("a Roller's own save does not restore: %v", err)
		}
		for _, s := range []int{2, 6, 20, 256, r.wordSides} {
			for range 30 {
				if f := r.Roll(s); f < 1 || f > max(s, 1) {
					t.Fatalf("restored Roller rolled %d on a d%d", f, s)
				}
			}
			if sum := r.SumN(5, s); s >= 2 && (sum < 5 || sum > 5*s) {
				t.Fatalf("restored Roller's 5d%d totals %d", s, sum)
			}
		}
	})
}

// AppendBinary appends exactly MarshalBinary's bytes, for every kind of
// Roller, and into a buffer with room (the way a game keeps its Roller to
// put back) saves a PCG or ChaCha8 Roller without allocating.
func TestAppendBinary(t *testing.T) {
	ch, _ := NewRoller(rand.NewChaCha8([32]byte{7}))
	ex, _ := NewRoller(exprand.NewSource(3))
	for name, r := range map[string]*Roller{
		"pcg": NewSeeded(9), "chacha8": ch, "scripted": Scripted(1, 2, 3), "x/exp/rand": ex,
	} {
		r.Roll(20)
		want, err := r.MarshalBinary()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got, err := r.AppendBinary([]byte("prefix"))
		if err != nil || string(got[:6]) != "prefix" || !bytes.Equal(got[6:], want) {
			t.Errorf("%s: AppendBinary = %q, %v; want prefix then %q", name, got, err, want)
		}
		// ChaCha8 writes its state through a temporary that a build with
		// the race detector keeps on the heap.
		if name != "pcg" && (name != "chacha8" || raceEnabled) {
			continue
		}
		buf := make([]byte, 0, 256)
		if n := testing.AllocsPerRun(100, func() { buf, _ = r.AppendBinary(buf[:0]) }); n != 0 {
			t.Errorf("%s: AppendBinary into a buffer with room: %v allocations", name, n)
		}
	}
	// Restoring a PCG Roller's bytes into a PCG Roller allocates nothing.
	r, into := NewSeeded(5), NewSeeded(6)
	r.Roll(6)
	b, _ := r.MarshalBinary()
	if n := testing.AllocsPerRun(100, func() { _ = into.UnmarshalBinary(b) }); n != 0 {
		t.Errorf("restoring a PCG Roller: %v allocations", n)
	}
	u, _ := NewRoller(&unsaveable{})
	if _, err := u.AppendBinary(nil); err == nil || !strings.Contains(err.Error(), "unsaveable") {
		t.Errorf("appending a Roller over a Source without MarshalBinary: err = %v, want one naming the type", err)
	}
}
