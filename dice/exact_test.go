package dice

import (
	"fmt"
	"math"
	"testing"
)

// enumerate calls f for every roll of ds, with its probability. Only for
// small pools: it is the brute force the exact constructors are checked
// against.
func enumerate(ds []Die, f func(faces []int, p float64)) {
	faces := make([]int, len(ds))
	p := 1.0
	for _, d := range ds {
		p /= float64(d)
	}
	var rec func(i int)
	rec = func(i int) {
		if i == len(ds) {
			f(faces, p)
			return
		}
		for v := 1; v <= int(ds[i]); v++ {
			faces[i] = v
			rec(i + 1)
		}
	}
	rec(0)
}

func bruteDist(ds []Die, read func([]int) int) map[int]float64 {
	m := map[int]float64{}
	enumerate(ds, func(faces []int, p float64) { m[read(faces)] += p })
	return m
}

func assertDist(t *testing.T, name string, got Dist, want map[int]float64) {
	t.Helper()
	if math.Abs(got.Total()-1) > 1e-12 {
		t.Errorf("%s: total %v", name, got.Total())
	}
	for x, p := range want {
		if math.Abs(got.Prob(x)-p) > 1e-12 {
			t.Errorf("%s: P(%d) = %.15f, brute force %.15f", name, x, got.Prob(x), p)
		}
	}
	for i, p := range got.P {
		if _, ok := want[got.Min+i]; !ok && p > 1e-15 {
			t.Errorf("%s: P(%d) = %v, brute force has none", name, got.Min+i, p)
		}
	}
}

var smallPools = [][]Die{
	{D6},
	{D6, D6},
	{D4, D6, D8},
	{D12, D10, D8, D6, D4},
	{D6, D6, D6, D6},
	{D3, D20},
	{D4, D4, D12, D2},
}

func TestExactAgainstBruteForce(t *testing.T) {
	for _, ds := range smallPools {
		name := fmt.Sprint(ds)
		got, err := SumOf(ds)
		if err != nil {
			t.Fatal(err)
		}
		assertDist(t, name+" sum", got, bruteDist(ds, Sum))
		got, err = HighestOf(ds)
		if err != nil {
			t.Fatal(err)
		}
		assertDist(t, name+" highest", got, bruteDist(ds, Highest))
		for _, target := range []int{1, 4, 6, 7} {
			got, err = SuccessesOf(ds, target)
			if err != nil {
				t.Fatal(err)
			}
			assertDist(t, fmt.Sprintf("%s successes>=%d", name, target), got,
				bruteDist(ds, func(f []int) int { return CountAtLeast(f, target) }))
		}
		for k := 1; k <= len(ds); k++ {
			for _, ex := range []FaceSet{{}, Faces(1), Faces(1, 2), Faces(4, 6), Faces(3)} {
				got, err = KeepHighestOf(ds, k, ex)
				if err != nil {
					t.Fatal(err)
				}
				assertDist(t, fmt.Sprintf("%s keep %d excl %v", name, k, ex), got,
					bruteDist(ds, func(f []int) int { return SumHighest(f, k, ex) }))
				got, err = KeepLowestOf(ds, k, ex)
				if err != nil {
					t.Fatal(err)
				}
				assertDist(t, fmt.Sprintf("%s keep lowest %d excl %v", name, k, ex), got,
					bruteDist(ds, func(f []int) int { return SumLowest(f, k, ex) }))
			}
		}
	}
}
