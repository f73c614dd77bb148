package main

import (
	"fmt"
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// plotMetric draws a metric's sampled distribution as bars, with the exact
// distribution as points where there is one, to a PNG or SVG file (by the
// file name's extension).
func plotMetric(file string, r result) error {
	rep := r.Report
	if len(rep.Metrics) == 0 {
		return fmt.Errorf("--plot: the %s scenario reports no metrics to draw", r.Mechanic)
	}
	m := rep.Metrics[0]
	n := m.Hist.N()
	if n == 0 {
		return fmt.Errorf("--plot: no trials to draw")
	}
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s: %s", r.Mechanic, r.Scenario)
	p.X.Label.Text = m.Name
	p.Y.Label.Text = "probability"
	vals := make(plotter.Values, len(m.Hist.Counts))
	for i, c := range m.Hist.Counts {
		vals[i] = float64(c) / float64(n)
	}
	bars, err := plotter.NewBarChart(vals, vg.Points(8))
	if err != nil {
		return err
	}
	bars.XMin = float64(m.Hist.Min)
	bars.Color = color.RGBA{R: 70, G: 110, B: 170, A: 255}
	bars.LineStyle.Width = 0
	p.Add(bars)
	p.Legend.Add(fmt.Sprintf("sampled (%d trials)", n), bars)
	if r.Exact != nil && len(r.Exact.Rounds) > 0 {
		pts := make(plotter.XYs, 0, len(r.Exact.Rounds))
		for v, q := range r.Exact.Rounds {
			if v >= m.Hist.Min && v <= m.Hist.Max() {
				pts = append(pts, plotter.XY{X: float64(v), Y: q})
			}
		}
		sc, err := plotter.NewScatter(pts)
		if err != nil {
			return err
		}
		sc.Color = color.RGBA{R: 200, G: 60, B: 40, A: 255}
		sc.Radius = vg.Points(3)
		p.Add(sc)
		p.Legend.Add("exact", sc)
	}
	p.Legend.Top = true
	return p.Save(7*vg.Inch, 4*vg.Inch, file)
}
