package dice

import (
	"slices"
	"testing"
)

func TestReadings(t *testing.T) {
	faces := []int{1, 6, 3, 6, 2, 1}
	if Highest(faces) != 6 || Highest(nil) != 0 {
		t.Error("Highest")
	}
	if Sum(faces) != 19 {
		t.Error("Sum")
	}
	if CountAtLeast(faces, 6) != 2 || CountAtLeast(faces, 3) != 3 || CountAtLeast(faces, 7) != 0 {
		t.Error("CountAtLeast")
	}
	tests := []struct {
		faces []int
		k     int
		ex    FaceSet
		want  int
	}{
		{faces, 2, Faces(1), 12},
		{faces, 3, Faces(1), 15},
		{faces, 4, Faces(1), 17},
		{faces, 5, Faces(1), 17},
		{faces, 6, FaceSet{}, 19},
		{faces, 1, Faces(6), 3},
		{faces, 2, Faces(6), 5},
		{[]int{1, 1, 1}, 2, Faces(1), 0},
		{[]int{1, 4, 1}, 2, Faces(1), 4},
		{[]int{5, 5, 5, 5}, 3, FaceSet{}, 15},
		{faces, 0, FaceSet{}, 0},
		{nil, 2, FaceSet{}, 0},
	}
	for _, tt := range tests {
		if got := SumHighest(tt.faces, tt.k, tt.ex); got != tt.want {
			t.Errorf("SumHighest(%v, %d, %v) = %d, want %d", tt.faces, tt.k, tt.ex, got, tt.want)
		}
	}
	s := Faces(1, 64, 65, 128, 0, 129)
	for f, want := range map[int]bool{1: true, 64: true, 65: true, 128: true, 2: false, 0: false, 129: false, -1: false} {
		if s.Has(f) != want {
			t.Errorf("Has(%d) = %v", f, !want)
		}
	}
	if !(FaceSet{}).Empty() || s.Empty() {
		t.Error("Empty")
	}
}

func TestCompare(t *testing.T) {
	tests := []struct {
		a, b   []int
		ba, bb int
		want   int
	}{
		{[]int{8, 3}, []int{4, 6}, 0, 0, 1},
		{[]int{6, 2}, []int{6, 3}, 0, 0, -1},
		{[]int{6, 3}, []int{3, 6}, 0, 0, 0},
		{[]int{6}, []int{6, 1}, 0, 0, -1}, // an extra die wins a tie
		{[]int{6, 6}, []int{6, 5, 4}, 0, 0, 1},
		{[]int{6, 5, 4}, []int{6, 5, 4}, 0, 0, 0},
		{nil, nil, 0, 0, 0},
		{nil, []int{1}, 0, 0, -1},
		// Advantage die added to the high die: Althesa 8 + advantage 4 beats 11.
		{[]int{8, 5}, []int{11, 2}, 4, 0, 1},
		{[]int{6, 6}, []int{8, 6}, 2, 0, 0},
		{[]int{6, 6}, []int{8, 5}, 2, 0, 1},
		{[]int{5}, nil, 0, 3, 1},
		{nil, nil, 2, 2, 0},
	}
	for _, tt := range tests {
		got := CompareBonus(tt.a, tt.ba, tt.b, tt.bb)
		if got != tt.want {
			t.Errorf("CompareBonus(%v+%d, %v+%d) = %d, want %d", tt.a, tt.ba, tt.b, tt.bb, got, tt.want)
		}
		if rev := CompareBonus(tt.b, tt.bb, tt.a, tt.ba); rev != -tt.want {
			t.Errorf("reversed CompareBonus(%v, %v) = %d, want %d", tt.b, tt.a, rev, -tt.want)
		}
	}
	if Compare([]int{4}, []int{3}) != 1 {
		t.Error("Compare")
	}
}

// Compare against a sort-based reference over every pair of small rolls.
func TestCompareExhaustive(t *testing.T) {
	ref := func(a, b []int) int {
		sa, sb := sortedDesc(a), sortedDesc(b)
		for i := 0; i < max(len(sa), len(sb)); i++ {
			x, y := 0, 0
			if i < len(sa) {
				x = sa[i]
			}
			if i < len(sb) {
				y = sb[i]
			}
			if x != y {
				return sign(x - y)
			}
		}
		return 0
	}
	var rolls [][]int
	enumerate([]Die{D4, D4, D4}, func(f []int, _ float64) { rolls = append(rolls, append([]int(nil), f...)) })
	enumerate([]Die{D4, D4}, func(f []int, _ float64) { rolls = append(rolls, append([]int(nil), f...)) })
	for _, a := range rolls {
		for _, b := range rolls {
			if got, want := Compare(a, b), ref(a, b); got != want {
				t.Fatalf("Compare(%v, %v) = %d, want %d", a, b, got, want)
			}
		}
	}
}

func sortedDesc(a []int) []int {
	s := append([]int(nil), a...)
	for i := range s {
		for j := i + 1; j < len(s); j++ {
			if s[j] > s[i] {
				s[i], s[j] = s[j], s[i]
			}
		}
	}
	return s
}

func TestLadder(t *testing.T) {
	tests := []struct {
		d    Die
		k    int
		want Die
		ok   bool
	}{
		{D4, 1, D6, true},
		{D12, 1, D12, false},
		{D10, 1, D12, true},
		{D4, -1, Gone, true},
		{D6, -2, Gone, true},
		{D8, -2, D4, true},
		{D12, -4, D4, true},
		{D6, 3, D12, true},
		{D6, 4, D6, false},
		{D20, 1, D20, false},
		{Gone, 1, Gone, false},
		{D8, 0, D8, true},
	}
	for _, tt := range tests {
		got, ok := tt.d.Step(tt.k)
		if got != tt.want || ok != tt.ok {
			t.Errorf("%v.Step(%d) = %v, %v; want %v, %v", tt.d, tt.k, got, ok, tt.want, tt.ok)
		}
	}
	if u, ok := D6.StepUp(); u != D8 || !ok {
		t.Error("StepUp")
	}
	if d, ok := D4.StepDown(); d != Gone || !ok {
		t.Error("StepDown")
	}
	if D20.CheckLadder() == nil || D10.CheckLadder() != nil || D10.OnLadder() != true {
		t.Error("CheckLadder")
	}
	if _, err := NewDie(1); err == nil {
		t.Error("NewDie(1)")
	}
	if d, err := NewDie(7); err != nil || d.String() != "d7" || d.Sides() != 7 {
		t.Error("NewDie(7)")
	}
	if Gone.String() != "gone" || Die(MaxSides+1).Valid() {
		t.Error("Gone / MaxSides")
	}
}

// SumHighest against the obvious sort-based reading, over random rolls
// that cross the 64-face word (the fast path for faces 1..64 and the
// general one), with duplicates, exclusions on both sides of 64 and odd
// faces (0, negative) a caller might pass.
func TestSumHighestMatchesSort(t *testing.T) {
	r := NewSeeded(9)
	sets := []FaceSet{{}, Faces(1), Faces(1, 2), Faces(64), Faces(6, 65), Faces(1, 64, 65, 128)}
	for i := 0; i < 50000; i++ {
		faces := make([]int, r.IntN(8))
		top := []int{6, 12, 64, 65, 130}[r.IntN(5)]
		for j := range faces {
			faces[j] = 1 + r.IntN(top)
		}
		if i%50 == 0 && len(faces) > 0 {
			faces[r.IntN(len(faces))] = []int{0, -3}[r.IntN(2)]
		}
		k := r.IntN(5)
		ex := sets[r.IntN(len(sets))]
		kept := []int{}
		for _, f := range faces {
			if !ex.Has(f) && f >= 1 { // a face below 1 is no face and never counts
				kept = append(kept, f)
			}
		}
		slices.Sort(kept)
		slices.Reverse(kept)
		want := 0
		for j := 0; j < k && j < len(kept); j++ {
			want += kept[j]
		}
		if got := SumHighest(faces, k, ex); got != want {
			t.Fatalf("SumHighest(%v, %d, %v) = %d, want %d", faces, k, ex, got, want)
		}
	}
}
