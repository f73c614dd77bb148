package main

import (
	"testing"

	"gonum.org/v1/plot/plotter"
)

// TestChartIsReadable: on odds that fall with more dice, as the chase's
// do, the chart labels every starting count, leaves room so no point or
// whisker is clipped, and keeps its lower-left legend clear of the data.
func TestChartIsReadable(t *testing.T) {
	exact := plotter.XYs{{X: 3, Y: 0.31}, {X: 4, Y: 0.32}, {X: 5, Y: 0.285}, {X: 6, Y: 0.236}, {X: 7, Y: 0.188}, {X: 8, Y: 0.146}}
	sampled := plotter.XYs{{X: 3, Y: 0.312}, {X: 4, Y: 0.322}, {X: 5, Y: 0.278}, {X: 6, Y: 0.235}, {X: 7, Y: 0.189}, {X: 8, Y: 0.145}}
	errs := make(plotter.YErrors, len(sampled))
	for i := range errs {
		errs[i].Low, errs[i].High = 0.006, 0.006
	}
	p, err := chart(exact, sampled, errs, 20000)
	if err != nil {
		t.Fatal(err)
	}
	ticks := p.X.Tick.Marker.Ticks(p.X.Min, p.X.Max)
	labelled := map[float64]string{}
	for _, tk := range ticks {
		labelled[tk.Value] = tk.Label
	}
	for start := 3; start <= 8; start++ {
		if labelled[float64(start)] == "" {
			t.Errorf("starting count %d has no labelled tick: %v", start, ticks)
		}
	}
	if p.X.Min >= 3 || p.X.Max <= 8 {
		t.Errorf("x axis %v..%v clips the first or last point", p.X.Min, p.X.Max)
	}
	for i, pt := range sampled {
		if pt.Y-errs[i].Low < p.Y.Min || pt.Y+errs[i].High > p.Y.Max || exact[i].Y < p.Y.Min || exact[i].Y > p.Y.Max {
			t.Errorf("point %v or its whisker lies outside the y axis %v..%v", pt, p.Y.Min, p.Y.Max)
		}
	}
	if p.Legend.Top || !p.Legend.Left {
		t.Errorf("the legend is not in the lower left")
	}
	// The legend's corner: the lowest quarter of the left half holds no data.
	floor := p.Y.Min + (p.Y.Max-p.Y.Min)/4
	for i, pt := range sampled {
		if pt.X <= (p.X.Min+p.X.Max)/2 && pt.Y-errs[i].Low < floor {
			t.Errorf("point %v reaches into the legend's corner (below %v)", pt, floor)
		}
	}
}
