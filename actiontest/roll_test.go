package actiontest

import (
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stakesrpg/stakes/dice"
)

// chainFaces is the plain reading of an accepted draw x for n dice: one
// digit at a time, the top word of what is left of the draw times sides.
func chainFaces(x uint64, n, sides, success int) ([]int, int) {
	out, k := make([]int, n), 0
	for i := range out {
		var h uint64
		h, x = bits.Mul64(x, uint64(sides))
		out[i] = int(h) + 1
		if out[i] >= success {
			k++
		}
	}
	return out, k
}

// The table reading gives the faces and successes of the plain digit by
// digit reading, for every pool size one draw holds, whatever room out
// has, under the default rules and others.
func TestReadMatchesChain(t *testing.T) {
	src := rand.New(rand.NewPCG(3, 4))
	for _, die := range [][2]int{{6, 6}, {6, 5}, {5, 4}, {7, 7}, {3, 2}, {6, 1}} {
		var d draws
		d.setDraws(die[0], die[1])
		if d.most < 12 {
			t.Fatalf("d%d: one draw holds only %d dice", die[0], d.most)
		}
		for n := 1; n <= d.most; n++ {
			for range 300 {
				x := src.Uint64()
				want, wantK := chainFaces(x, n, die[0], die[1])
				for _, room := range []int{n, n + 3, 8, 16, 40} {
					if room < n {
						continue
					}
					got, k := d.read(x, n, make([]int, 0, room))
					if !slices.Equal(got, want) || k != wantK {
						t.Fatalf("d%d success %d, %d dice, room %d, draw %#x: read %v %d, want %v %d",
							die[0], die[1], n, room, x, got, k, want, wantK)
					}
				}
			}
		}
	}
}

// Dice whose size is a power of two or larger than a table serves roll
// through the dice package alone.
func TestDrawsOff(t *testing.T) {
	for _, die := range [][2]int{{2, 2}, {4, 3}, {8, 8}, {10, 8}, {20, 20}} {
		var d draws
		d.setDraws(die[0], die[1])
		if d.most != 0 {
			t.Errorf("d%d success %d: one draw holds %d dice, want 0", die[0], die[1], d.most)
		}
	}
}

// zeroFirst is a Source whose first value is first (0 unless set: a draw
// Lemire's method rejects for any power of 6), then a PCG's.
type zeroFirst struct {
	pcg   *rand.PCG
	first uint64
	used  bool
}

func (z *zeroFirst) Uint64() uint64 {
	if !z.used {
		z.used = true
		return z.first
	}
	return z.pcg.Uint64()
}

// inverse returns the inverse of odd a modulo 2^64 (Newton's iteration).
func inverse(a uint64) uint64 {
	x := a
	for range 6 {
		x *= 2 - a*x
	}
	return x
}

// A rejected draw hands the pool to RollCount, and a scripted roller
// plays its faces die by die.
func TestRollCountFallbacks(t *testing.T) {
	c := newChar(t, DefaultRules())
	r, err := dice.NewRoller(&zeroFirst{pcg: rand.NewPCG(5, 6)})
	if err != nil {
		t.Fatal(err)
	}
	ref, _ := dice.NewRoller(rand.NewPCG(5, 6))
	got, k := c.rollCount(r, 4, make([]int, 0, 8))
	want, wantK := ref.RollCount(4, 6, 6, nil)
	if !slices.Equal(got, want) || k != wantK {
		t.Errorf("after a rejected draw: %v %d, want RollCount's %v %d", got, k, want, wantK)
	}
	// A re-roll of three dice read as eight has its draw accepted for
	// eight: a draw x with x*6^8 = 256 (mod 2^64), below 2^64 mod 6^8 but
	// fine for 6^3, goes to RollCount, in Push and in rerollCount alike.
	x := inverse(6561) // 6^8 = 256*6561
	if lo := x * 1679616; lo != 256 || lo >= c.draws.rej[8] || x*216 < c.draws.rej[3] {
		t.Fatalf("draw %#x: times 6^8 %d (bound %d), times 6^3 %d (bound %d)", x, lo, c.draws.rej[8], x*216, c.draws.rej[3])
	}
	for _, push := range []bool{false, true} {
		r, _ := dice.NewRoller(&zeroFirst{pcg: rand.NewPCG(7, 8), first: x})
		ref, _ := dice.NewRoller(rand.NewPCG(7, 8))
		want, wantK := ref.RollCount(3, 6, 6, nil)
		if push {
			pc := newChar(t, DefaultRules())
			p, _ := pc.Prepare(Test{Action: "Prowl", Position: Risky, Difficulty: 1, NoHarm: true, Bonus: -3})
			at := &Attempt{Dice: make([]int, 0, 8), Rerolled: make([]int, 0, 8)}
			if err := pc.Start(dice.Scripted(1), &p, at); err != nil || len(at.Dice) != 1 {
				t.Fatalf("start: %v, dice %v", err, at.Dice)
			}
			if err := pc.Push(r, at, 0); err != nil {
				t.Fatal(err)
			}
			got, k = at.Rerolled, at.Successes
		} else {
			got, k = c.rerollCount(r, 3, make([]int, 0, 8))
		}
		if !slices.Equal(got, want) || k != wantK {
			t.Errorf("push %v, draw rejected for eight dice: %v %d, want RollCount's %v %d", push, got, k, want, wantK)
		}
	}
	got, k = c.rollCount(dice.Scripted(6, 1, 6, 2, 5), 5, make([]int, 0, 8))
	if !slices.Equal(got, []int{6, 1, 6, 2, 5}) || k != 2 {
		t.Errorf("scripted: %v %d, want [6 1 6 2 5] 2", got, k)
	}
	sr := dice.Scripted(3)
	got, k = c.rollCount(sr, 2, make([]int, 0, 8))
	if !slices.Equal(got, []int{3, 1}) || k != 0 || sr.Err() == nil {
		t.Errorf("short script: %v %d, error %v; want [3 1] 0 and an error", got, k, sr.Err())
	}
}

// Each face of each die of a pool comes up about a sixth of the time, and
// a six in one place says nothing of another (a coarse check of the
// reading; exactness is argued in rollCount).
func TestRollCountUniform(t *testing.T) {
	c := newChar(t, DefaultRules())
	r := dice.NewSeeded(11)
	const n, rolls = 7, 60000
	var count [n][7]int
	both := 0
	buf := make([]int, 0, 8)
	for range rolls {
		faces, k := c.rollCount(r, n, buf)
		six := 0
		for i, f := range faces {
			count[i][f]++
			if f == 6 {
				six++
			}
		}
		if six != k {
			t.Fatalf("%v counted %d sixes", faces, k)
		}
		if faces[0] == 6 && faces[n-1] == 6 {
			both++
		}
	}
	for i := range count {
		for f := 1; f <= 6; f++ {
			if got := count[i][f]; got < rolls/6-600 || got > rolls/6+600 {
				t.Errorf("die %d shows %d %d times in %d, want about %d", i, f, got, rolls, rolls/6)
			}
		}
	}
	if both < rolls/36-250 || both > rolls/36+250 {
		t.Errorf("first and last die both six %d times in %d, want about %d", both, rolls, rolls/36)
	}
}
