package dice

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
	//lint:ignore SA1019 deprecated upstream, but its sources must still plug in (the random seam accepts them)
	exprand "golang.org/x/exp/rand"
)

// Every kind of Source plugs in unchanged: math/rand/v2's PCG and ChaCha8,
// and golang.org/x/exp/rand's PCGSource.
func TestSourcesPlugIn(t *testing.T) {
	xs := &exprand.PCGSource{}
	xs.Seed(7)
	var seed [32]byte
	sources := map[string]Source{
		"PCG":             rand.NewPCG(1, 2),
		"ChaCha8":         rand.NewChaCha8(seed),
		"x/exp PCGSource": xs,
	}
	for name, src := range sources {
		r, err := NewRoller(src)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		seen := map[int]int{}
		for i := 0; i < 6000; i++ {
			f := r.Roll(6)
			if f < 1 || f > 6 {
				t.Fatalf("%s: face %d", name, f)
			}
			seen[f]++
		}
		if len(seen) != 6 {
			t.Errorf("%s: only faces %v appeared", name, seen)
		}
	}
}

func TestNilSource(t *testing.T) {
	if _, err := NewRoller(nil); !errors.Is(err, ErrNilSource) {
		t.Errorf("NewRoller(nil) error = %v, want ErrNilSource", err)
	}
}

// Same seed, same rolls, through every method.
func TestDeterministic(t *testing.T) {
	roll := func() []int {
		r := NewSeeded(42)
		var out []int
		for i := 0; i < 50; i++ {
			out = append(out, r.Roll(6), r.Roll(20), r.IntN(1000))
		}
		out = append(out, r.RollDice([]Die{D12, D10, D8, D6, D4}, nil)...)
		out = append(out, r.RollN(30, 6, nil)...)
		return out
	}
	if d := cmp.Diff(roll(), roll()); d != "" {
		t.Errorf("same seed differs (-first +second):\n%s", d)
	}
}

func TestScripted(t *testing.T) {
	r := Scripted(4, 8, 2, 6, 6)
	got := []int{r.Roll(6)}
	got = append(got, r.RollDice([]Die{D10, D4}, nil)...)
	got = append(got, r.RollN(2, 6, nil)...)
	if d := cmp.Diff([]int{4, 8, 2, 6, 6}, got); d != "" {
		t.Errorf("scripted faces (-want +got):\n%s", d)
	}
	if r.Err() != nil || r.Remaining() != 0 {
		t.Errorf("Err = %v, Remaining = %d", r.Err(), r.Remaining())
	}
	if f := r.Roll(6); f != 1 || r.Err() == nil {
		t.Errorf("exhausted script gave %d, Err %v", f, r.Err())
	}
	r = Scripted(9)
	if f := r.Roll(6); f != 6 || r.Err() == nil {
		t.Errorf("impossible face clamped to %d, Err %v", f, r.Err())
	}
}

func TestDegenerate(t *testing.T) {
	r := NewSeeded(1)
	for _, n := range []int{1, 0, -3} {
		if f := r.Roll(n); f != 1 {
			t.Errorf("Roll(%d) = %d, want 1", n, f)
		}
		if v := r.IntN(n); v != 0 {
			t.Errorf("IntN(%d) = %d, want 0", n, v)
		}
	}
	if got := r.RollN(-1, 6, nil); len(got) != 0 {
		t.Errorf("RollN(-1) = %v", got)
	}
	if got := r.RollDice([]Die{Gone, D6, 1}, nil); got[0] != 1 || got[2] != 1 || got[1] < 1 || got[1] > 6 {
		t.Errorf("RollDice with non-dice = %v", got)
	}
}

func TestSumN(t *testing.T) {
	// SumN totals exactly the faces RollN would have given.
	for _, tc := range []struct{ n, sides int }{{3, 6}, {4, 6}, {5, 6}, {7, 6}, {12, 6}, {25, 6}, {70, 6}, {2, 20}, {5, 20}, {3, 100}, {7, 256}, {5, 1000}, {3, 1}, {0, 6}, {-2, 6}} {
		a, b := NewSeeded(11), NewSeeded(11)
		for i := 0; i < 50; i++ {
			want := Sum(a.RollN(tc.n, tc.sides, nil))
			if tc.sides < 2 && tc.n > 0 {
				want = tc.n
			}
			if got := b.SumN(tc.n, tc.sides); got != want {
				t.Fatalf("SumN(%d, %d) = %d, RollN summed %d", tc.n, tc.sides, got, want)
			}
		}
	}
	if s := Scripted(6, 5, 4).SumN(3, 6); s != 15 {
		t.Errorf("scripted SumN = %d", s)
	}
}
