package main

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"strconv"

	"github.com/stakesrpg/stakes/sim"

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

// plotSweep draws each chosen outcome's odds against the sweep's first
// axis: sampled points with 95% intervals and the exact line. With one
// axis the outcomes share a panel, one colour each; with a second axis
// each outcome has its panel and each value of the second axis a colour.
func plotSweep(file string, sr sweepResult, outcomes string) error {
	first := sr.Cells[0].Report
	cats, mets := names(first)
	cols, err := chooseColumns(outcomes, cats, mets, sr.zeroEverywhere)
	if err != nil {
		return err
	}
	if len(cols.cats) == 0 {
		return usagef("--plot: choose at least one outcome with --outcomes (metrics are not drawn)")
	}
	xAxis := sr.Axes[0]
	xs, ticks := axisPositions(xAxis.Values)
	var groups []sim.Axis // the second axis's values, one a line
	if len(sr.Axes) == 2 {
		groups = sr.Axes[1:]
	}
	hasExact := slices.ContainsFunc(sr.Exact, func(x cellExact) bool { return x.Exact != nil })
	var panels []*panel
	if groups == nil {
		if len(cols.cats) > maxSeries {
			return usagef("--plot: %d outcomes are more than one plot can tell apart (%d); choose with --outcomes", len(cols.cats), maxSeries)
		}
		pn := sweepPanel("", xAxis.Name, ticks)
		for s, j := range cols.cats {
			if err := addSweepSeries(pn, sr, xs, j, func(i int) bool { return true }, cats[j], colour(s)); err != nil {
				return err
			}
		}
		styleKey(&pn.legend, hasExact)
		panels = append(panels, pn)
	} else {
		g := groups[0]
		if len(g.Values) > maxSeries || len(cols.cats) > 6 {
			return usagef("--plot: draws at most %d values of the second axis and 6 outcomes; narrow the axis or choose with --outcomes", maxSeries)
		}
		for _, j := range cols.cats {
			pn := sweepPanel(cats[j], xAxis.Name, ticks)
			for s, v := range g.Values {
				in := func(i int) bool { return sr.Cells[i].Values[1] == v }
				if err := addSweepSeries(pn, sr, xs, j, in, g.Name+" = "+v, colour(s)); err != nil {
					return err
				}
			}
			styleKey(&pn.legend, hasExact)
			panels = append(panels, pn)
		}
	}
	for _, pn := range panels {
		margin(pn.p, xs, 0.03)
	}
	title := fmt.Sprintf("%s: %s\nodds against %s, %d trials a cell", sr.Mechanic, sr.Scenario, xAxis.Name, first.Provenance.Planned)
	return saveFigure(file, title, panels)
}

func sweepPanel(title, xName string, ticks nameTicks) *panel {
	pn := newPanel(title, xName, "probability")
	if ticks != nil {
		pn.p.X.Tick.Marker = ticks
	} else {
		pn.p.X.Tick.Marker = numberTicks{n: 12, whole: true}
	}
	pn.p.Y.Min = 0
	return pn
}

// axisPositions places an axis's values on the x axis: at their values
// when all are numbers, else at 0, 1, ... labelled with the values.
func axisPositions(vals []string) ([]float64, nameTicks) {
	xs := make([]float64, len(vals))
	for i, v := range vals {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			for k := range xs {
				xs[k] = float64(k)
			}
			return xs, nameTicks(vals)
		}
		xs[i] = f
	}
	return xs, nil
}

// addSweepSeries adds outcome j of the cells in(i) to the panel, in
// colour c: sampled points, their intervals and the exact line.
func addSweepSeries(pn *panel, sr sweepResult, axisXs []float64, j int, in func(int) bool, name string, c color.Color) error {
	var xs, p, lo, hi, ex []float64
	for i, cell := range sr.Cells {
		if !in(i) {
			continue
		}
		k := slices.Index(sr.Axes[0].Values, cell.Values[0])
		cat := cell.Report.Categories[j]
		xs = append(xs, axisXs[k])
		p, lo, hi = append(p, cat.P), append(lo, cat.Lo), append(hi, cat.Hi)
		v, ok := exactP(sr.exactAt(i), j)
		if !ok {
			v = math.NaN()
		}
		ex = append(ex, v)
	}
	pts, thumb, err := sampledPoints(xs, p, lo, hi, c)
	if err != nil {
		return err
	}
	pn.p.Add(pts...)
	line, err := exactLine(xs, ex, c)
	if err != nil {
		return err
	}
	if line != nil {
		pn.p.Add(line)
		pn.legend.Add(name, line, thumb)
	} else {
		pn.legend.Add(name, thumb)
	}
	return nil
}
