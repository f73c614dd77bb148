package dice

import (
	"math"
	"math/big"
	"testing"
)

// rao, Avrae's re-roll and add, adds one roll a pool: the mean is the
// pool's plus the chance that some die is on the point times the added
// roll's mean, and both ends of a hundred dice keep their digits against
// exact rationals: 100d6rao6 totals 100 only when every die shows 1, and
// 606 only when every die shows 6 and the added roll does too.
func TestAddOnce(t *testing.T) {
	for _, c := range []struct {
		text string
		mean float64
	}{
		{"2d6rao6", 7 + (1-25.0/36)*3.5},
		{"20d6rao6", 70 + (1-math.Pow(5.0/6, 20))*3.5},
		{"10d8rao>=7", 45 + (1-math.Pow(6.0/8, 10))*4.5},
		{"d20rao20", 10.5 + 10.5/20},
	} {
		e, err := ParseExpr(c.text)
		if err != nil {
			t.Fatal(err)
		}
		d, cut, err := e.Dist()
		if err != nil || cut != 0 || !near(d.Mean(), c.mean) || !near(d.Total(), 1) {
			t.Errorf("%s: mean %v, want %v (cut %v, total %v, %v)", c.text, d.Mean(), c.mean, cut, d.Total(), err)
		}
	}
	e, _ := Parser{Dialect: Avrae}.Parse("100d6ra6")
	d, _, err := e.Dist()
	if err != nil {
		t.Fatal(err)
	}
	p100, _ := new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Exp(big.NewInt(6), big.NewInt(100), nil)).Float64()
	for _, c := range []struct {
		v    int
		want float64
	}{{100, p100}, {606, p100 / 6}} {
		if g := d.Prob(c.v); math.Abs(g-c.want) > 1e-12*c.want {
			t.Errorf("100d6rao6: P(%d) = %v, exactly %v", c.v, g, c.want)
		}
	}
	if d.Min != 100 || d.Max() != 606 {
		t.Errorf("100d6rao6 spans %d..%d, want 100..606", d.Min, d.Max())
	}
}
