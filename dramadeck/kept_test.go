package dramadeck

import (
	"testing"

	"github.com/stakesrpg/stakes/dice"
)

// TestKeptDiceTables: the totals the kept faces are read through are the
// sums of the faces the digits stand for.
func TestKeptDiceTables(t *testing.T) {
	for v := range 216 {
		if want := v%6 + 1 + v/6%6 + 1 + v/36 + 1; int(sum3d6[v]) != want {
			t.Fatalf("sum3d6[%d] = %d, want %d", v, sum3d6[v], want)
		}
	}
	for v := range 36 {
		for n, want := range []int{0, v%6 + 1, v%6 + 1 + v/6 + 1} {
			if int(sumFirst[n][v]) != want {
				t.Fatalf("sumFirst[%d][%d] = %d, want %d", n, v, sumFirst[n][v], want)
			}
		}
	}
}

// TestKeptDiceUniform: inside a round every ordered 3d6 comes up equally
// often (chi-square over the 216 triples the log shows, fixed seed, far
// from its bound), damage dice likewise, and the logged faces are the
// totals returned.
func TestKeptDiceUniform(t *testing.T) {
	var g Game
	var log []int
	g.kd.on, g.kd.log = true, &log
	r := dice.NewSeeded(7)
	const n = 216 * 200
	var count [216]int
	for range n {
		log = log[:0]
		tot := g.roll3d6(r)
		if len(log) != 3 || log[0]+log[1]+log[2] != tot {
			t.Fatalf("total %d from faces %v", tot, log)
		}
		count[log[0]-1+6*(log[1]-1)+36*(log[2]-1)]++
	}
	chi := 0.0
	for _, c := range count {
		d := float64(c) - n/216
		chi += d * d / (n / 216)
	}
	if chi > 300 { // 215 degrees of freedom: mean 215, sd 21
		t.Errorf("3d6 triples: chi-square %.1f", chi)
	}
	var faces [6]int
	for k := range 3000 {
		log = log[:0]
		nd := k % 4
		tot := g.rollD6(r, nd)
		sum := 0
		for _, f := range log {
			sum += f
			faces[f-1]++
		}
		if len(log) != nd || sum != tot {
			t.Fatalf("%d dice: total %d from faces %v", nd, tot, log)
		}
	}
	chi = 0
	for _, c := range faces {
		d := float64(c) - 750
		chi += d * d / 750
	}
	if chi > 25 { // 5 degrees of freedom
		t.Errorf("damage faces %v: chi-square %.1f", faces, chi)
	}
}

// TestKeptDiceOff: outside a round, and in a round for a script with
// faces left, dice come from the roller die by die as ever.
func TestKeptDiceOff(t *testing.T) {
	var g Game
	a, b := dice.NewSeeded(3), dice.NewSeeded(3)
	for range 100 {
		if x, y := g.roll3d6(a), b.SumN(3, 6); x != y {
			t.Fatalf("off: roll3d6 %d, SumN %d", x, y)
		}
		if x, y := g.rollD6(a, 2), b.Roll(6)+b.Roll(6); x != y {
			t.Fatalf("off: rollD6 %d, two Roll(6) %d", x, y)
		}
	}
	g.kd.on = true
	r := dice.Scripted(6, 6, 5, 1, 2, 3)
	if x := g.roll3d6(r); x != 17 {
		t.Errorf("scripted 6 6 5: %d", x)
	}
	if x := g.rollD6(r, 3); x != 6 {
		t.Errorf("scripted 1 2 3: %d", x)
	}
	if g.kd.n != 0 || r.Remaining() != 0 || r.Err() != nil {
		t.Errorf("kept %d, script %d left, err %v", g.kd.n, r.Remaining(), r.Err())
	}
	// A script already used up gives ones either way, with its error.
	if x := g.roll3d6(r); x != 3 || r.Err() == nil {
		t.Errorf("used-up script: %d, err %v", x, r.Err())
	}
}
