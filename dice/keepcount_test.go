package dice

import (
	"math"
	"testing"
)

// Counting patterns gives the table sweeps' answers, to 1e-12, for keeps
// of the highest and the lowest, one size or mixed, faces excluded or
// not; and 1000d6 keep lowest 3, past the sweep's bounds, fits and
// matches its closed form.
func TestKeepCountedMatchesSweep(t *testing.T) {
	pools := [][]Die{
		{D6, D6, D6, D6},
		{D20, D20},
		{D12, D10, D8, D6, D4},
		{D10, D10, D10, D10, D10, D10, D10, D10, D10, D10},
		{D12, D12, D8, D8, D8, D6},
	}
	for _, ds := range pools {
		for k := 1; k <= len(ds); k++ {
			for _, ex := range []FaceSet{{}, Faces(1), Faces(1, 2)} {
				for _, high := range []bool{true, false} {
					keep := KeepHighestOf
					if !high {
						keep = KeepLowestOf
					}
					countPatterns = false
					want, err1 := keep(ds, k, ex)
					countPatterns = true
					got, ok, err2 := keepCounted(groups(ds), k, ex, high, math.MaxInt)
					if err1 != nil || err2 != nil || !ok {
						t.Fatalf("%v k=%d: %v, %v, %v", ds, k, err1, err2, ok)
					}
					for v := min(want.Min, got.Min); v <= max(want.Max(), got.Max()); v++ {
						if math.Abs(want.Prob(v)-got.Prob(v)) > 1e-12 {
							t.Fatalf("%v k=%d exclude %v high %v: P(%d) = %v, sweep %v", ds, k, ex, high, v, got.Prob(v), want.Prob(v))
						}
					}
				}
			}
		}
	}
	ds := make([]Die, 1000)
	for i := range ds {
		ds[i] = D6
	}
	d, err := KeepLowestOf(ds, 3, FaceSet{})
	if err != nil {
		t.Fatal(err)
	}
	// The lowest three are 1s unless fewer than three 1s show.
	b, _ := Binomial(1000, 1.0/6)
	if want := 1 - b.Prob(0) - b.Prob(1) - b.Prob(2); math.Abs(d.Prob(3)-want) > 1e-12 || math.Abs(d.Total()-1) > 1e-12 {
		t.Errorf("1000d6 keep lowest 3: P(3) = %v, want %v (total %v)", d.Prob(3), want, d.Total())
	}
}
