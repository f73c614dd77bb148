package gof_test

import (
	"testing"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/dice/gof"
)

// A fair d6 passes, a biased one is caught, and counts that cannot be
// tested are refused with a reason.
func TestChiSquareRejectsBias(t *testing.T) {
	exact, _ := dice.Uniform(dice.D6)
	r := dice.NewSeeded(3)
	fair, biased := map[int]int64{}, map[int]int64{}
	for range 60000 {
		f := r.Roll(6)
		fair[f]++
		if f == 1 && r.IntN(20) == 0 { // one 1 in twenty becomes a 6
			f = 6
		}
		biased[f]++
	}
	fit, err := gof.ChiSquare(exact, fair)
	if err != nil || fit.PValue < 1e-4 || fit.DF != 5 || fit.Cells != 6 || fit.N != 60000 {
		t.Errorf("a fair d6: %+v, %v", fit, err)
	}
	fit, err = gof.ChiSquare(exact, biased)
	if err != nil {
		t.Fatal(err)
	}
	if fit.PValue > 1e-6 {
		t.Errorf("a 5%% bias on 1s went unnoticed: p = %v", fit.PValue)
	}
	if _, err := gof.ChiSquare(exact, map[int]int64{7: 3}); err == nil {
		t.Error("an impossible outcome was accepted")
	}
	if _, err := gof.ChiSquare(exact, nil); err == nil {
		t.Error("no observations accepted")
	}
	if _, err := gof.ChiSquare(exact, map[int]int64{1: -1}); err == nil {
		t.Error("a negative count accepted")
	}
}

// Sparse outcomes pool until each cell expects 5: 3d6 rolled 40 times has
// few cells, and a point distribution one cell and p = 1.
func TestChiSquarePools(t *testing.T) {
	d, _ := dice.SumOf([]dice.Die{dice.D6, dice.D6, dice.D6})
	obs := map[int]int64{}
	r := dice.NewSeeded(1)
	for range 40 {
		obs[r.SumN(3, 6)]++
	}
	fit, err := gof.ChiSquare(d, obs)
	if err != nil || fit.Cells >= 16 || fit.Cells < 2 || fit.DF != fit.Cells-1 {
		t.Errorf("40 rolls of 3d6: %+v, %v", fit, err)
	}
	fit, err = gof.ChiSquare(dice.Point(4), map[int]int64{4: 10})
	if err != nil || fit.Cells != 1 || fit.PValue != 1 {
		t.Errorf("a point: %+v, %v", fit, err)
	}
}
