// Package gof tests samples against exact distributions: Pearson's
// chi-square goodness of fit, the check every sampler of stakes is held to
// in its tests. It lives apart from dice so that a program that only rolls
// dice links no statistics library.
package gof

import (
	"errors"
	"fmt"
	"math"

	"github.com/stakesrpg/stakes/dice"
	"gonum.org/v1/gonum/stat/distuv"
)

// Fit is the result of a chi-square goodness-of-fit test of observed
// counts against an exact distribution.
type Fit struct {
	Stat   float64 // Pearson's chi-square statistic
	DF     int     // degrees of freedom: cells - 1
	PValue float64 // P(chi-square(DF) >= Stat)
	Cells  int     // cells after pooling sparse outcomes
	N      int64   // total observations
}

// ChiSquare tests observed counts of integer outcomes against d. observed
// maps outcome to count; outcomes d gives no probability make the fit fail
// with PValue 0. Adjacent outcomes are pooled until every cell expects at
// least 5 observations, the usual validity condition for Pearson's test.
func ChiSquare(d dice.Dist, observed map[int]int64) (Fit, error) {
	var n int64
	for x, c := range observed {
		if c < 0 {
			return Fit{}, fmt.Errorf("gof: negative count %d for outcome %d", c, x)
		}
		n += c
		if c > 0 && d.Prob(x) == 0 {
			return Fit{Stat: math.Inf(1), PValue: 0, N: n},
				fmt.Errorf("gof: outcome %d was observed %d times but has probability 0", x, c)
		}
	}
	if n == 0 {
		return Fit{}, errors.New("gof: no observations")
	}
	// Pool cells left to right so each expects >= 5; the remainder joins
	// the last cell.
	type cell struct{ exp, obs float64 }
	var cells []cell
	var acc cell
	for i, p := range d.P {
		acc.exp += p * float64(n)
		acc.obs += float64(observed[d.Min+i])
		if acc.exp >= 5 {
			cells = append(cells, acc)
			acc = cell{}
		}
	}
	if acc.exp > 0 || acc.obs > 0 {
		if len(cells) == 0 {
			cells = append(cells, acc)
		} else {
			cells[len(cells)-1].exp += acc.exp
			cells[len(cells)-1].obs += acc.obs
		}
	}
	if len(cells) < 2 {
		return Fit{Cells: len(cells), N: n, PValue: 1}, nil
	}
	stat := 0.0
	for _, c := range cells {
		dlt := c.obs - c.exp
		stat += dlt * dlt / c.exp
	}
	df := len(cells) - 1
	pv := distuv.ChiSquared{K: float64(df)}.Survival(stat)
	return Fit{Stat: stat, DF: df, PValue: pv, Cells: len(cells), N: n}, nil
}
