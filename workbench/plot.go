package workbench

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"strconv"

	"github.com/stakesrpg/stakes/sim"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
)

// plotResult draws a simulated scenario: its outcome odds with their 95%
// intervals and the distribution of its first metric (rounds), each with
// the exact answer beside where there is one, to a PNG or SVG file (by the
// file name's extension).
func plotResult(file string, r result) error {
	title, panels, err := resultFigure(r)
	if err != nil {
		return err
	}
	return saveFigure(file, title, panels)
}

// resultFigure is the title and panels of plotResult's figure.
func resultFigure(r result) (string, []*panel, error) {
	rep := r.Report
	if rep.Trials == 0 {
		return "", nil, fmt.Errorf("--plot: no trials to draw")
	}
	s := side{rep: rep, exact: r.Exact, color: colour(0)}
	panels := []*panel{outcomePanel([]side{s})}
	if len(rep.Metrics) > 0 {
		panels = append(panels, distPanels([]side{s})...)
	}
	return fmt.Sprintf("%s: %s\n%d trials, seed %d", r.Mechanic, r.Scenario, rep.Trials, rep.Provenance.Seed), panels, nil
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
	if err := plotFits(len(cols.cats), sr.Axes); err != nil {
		return err
	}
	x := sweepX(sr.Axes[0])
	var panels []*panel
	if len(sr.Axes) == 1 {
		panels, err = sweepOneAxis(sr, cols.cats, x)
	} else {
		panels, err = sweepTwoAxes(sr, cols.cats, x)
	}
	if err != nil {
		return err
	}
	title := fmt.Sprintf("%s: %s\nodds against %s, %d trials a cell", sr.Mechanic, sr.Scenario, x.name, first.Provenance.Planned)
	return saveFigure(file, title, panels)
}

// plotFits says whether a sweep plot can tell its lines apart: at most
// maxSeries outcomes on one axis; with two, at most maxSeries values of
// the second and 6 outcomes (one panel each).
func plotFits(outcomes int, axes []sim.Axis) error {
	switch {
	case outcomes == 0:
		return usagef("--plot: choose at least one outcome with --outcomes (metrics are not drawn)")
	case len(axes) > 2:
		return usagef("sweep: --plot draws one or two axes; this sweep has %d", len(axes))
	case len(axes) == 1 && outcomes > maxSeries:
		return usagef("--plot: %d outcomes are more than one plot can tell apart (%d); choose with --outcomes", outcomes, maxSeries)
	case len(axes) == 2 && (len(axes[1].Values) > maxSeries || outcomes > 6):
		return usagef("--plot: draws at most %d values of the second axis and 6 outcomes; narrow the axis or choose with --outcomes", maxSeries)
	}
	return nil
}

// sweepAxis is the swept setting along a plot's x axis.
type sweepAxis struct {
	name  string
	xs    []float64 // each value's position
	ticks plot.Ticker
}

// sweepX places an axis's values on the x axis: at their values when all
// are numbers (with whole-number ticks when all are whole), else at 0, 1,
// ... labelled with the values.
func sweepX(a sim.Axis) sweepAxis {
	x := sweepAxis{name: a.Name, xs: make([]float64, len(a.Values))}
	whole := true
	for i, v := range a.Values {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			for k := range x.xs {
				x.xs[k] = float64(k)
			}
			x.ticks = nameTicks(a.Values)
			return x
		}
		x.xs[i] = f
		whole = whole && f == math.Trunc(f)
	}
	x.ticks = numberTicks{n: 12, whole: whole}
	return x
}

func sweepOneAxis(sr sweepResult, cats []int, x sweepAxis) ([]*panel, error) {
	pn := sweepPanel("", x)
	for s, j := range cats {
		all := func(int) bool { return true }
		if err := addSweepSeries(pn, sr, x.xs, j, all, sr.Cells[0].Report.Categories[j].Name, colour(s), 0); err != nil {
			return nil, err
		}
	}
	finishSweepPanel(pn, sr, cats, x)
	return []*panel{pn}, nil
}

func sweepTwoAxes(sr sweepResult, cats []int, x sweepAxis) ([]*panel, error) {
	g := sr.Axes[1]
	var panels []*panel
	for _, j := range cats {
		pn := sweepPanel(sr.Cells[0].Report.Categories[j].Name, x)
		for s, v := range g.Values {
			in := func(i int) bool { return sr.Cells[i].Values[1] == v }
			// Lines that coincide would hide each other's points: each
			// line's points stand a little aside (the exact lines do not).
			dodge := (float64(s) - float64(len(g.Values)-1)/2) * 0.01 * (slices.Max(x.xs) - slices.Min(x.xs))
			if err := addSweepSeries(pn, sr, x.xs, j, in, g.Name+" = "+v, colour(s), dodge); err != nil {
				return nil, err
			}
		}
		finishSweepPanel(pn, sr, []int{j}, x)
		panels = append(panels, pn)
	}
	return panels, nil
}

// finishSweepPanel adds the legend's key to the styles and leaves room
// around the points: above the highest whisker, and at both ends.
func finishSweepPanel(pn *panel, sr sweepResult, cats []int, x sweepAxis) {
	hasExact := slices.ContainsFunc(sr.Exact, func(x cellExact) bool { return x.Exact != nil })
	styleKey(&pn.legend, hasExact)
	pn.p.Y.Max = highest(sr, cats) * 1.05
	margin(pn.p, x.xs, 0.03)
}

// highest returns the largest interval end or exact value of the outcomes
// over the cells, so that a panel's y axis leaves room above it.
func highest(sr sweepResult, cats []int) float64 {
	top := 0.0
	for i, cell := range sr.Cells {
		for _, j := range cats {
			top = max(top, cell.Report.Categories[j].Hi)
			if p, ok := exactP(sr.exactAt(i), j); ok {
				top = max(top, p)
			}
		}
	}
	return top
}

func sweepPanel(title string, x sweepAxis) *panel {
	pn := newPanel(title, x.name, "probability")
	pn.p.X.Tick.Marker = x.ticks
	pn.p.Y.Min = 0
	return pn
}

// addSweepSeries adds outcome j of the cells in(i) to the panel, in
// colour c: sampled points (moved dodge along x), their intervals and the
// exact line.
func addSweepSeries(pn *panel, sr sweepResult, axisXs []float64, j int, in func(int) bool, name string, c color.Color, dodge float64) error {
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
	moved := make([]float64, len(xs))
	for i, x := range xs {
		moved[i] = x + dodge
	}
	pts, thumb, err := sampledPoints(moved, p, lo, hi, c)
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

// plotComparison draws both sides of a comparison: the outcome odds of A
// and B side by side with their intervals and exact marks, and the
// distributions of the first metric (rounds) of A and B side by side.
func plotComparison(file string, cr comparisonResult) error {
	a, b := cr.A, cr.B
	sides := []side{
		{label: a.Name, rep: a, exact: cr.ExactA, color: colour(0)},
		{label: b.Name, rep: b, exact: cr.ExactB, color: colour(1)},
	}
	panels := []*panel{outcomePanel(sides)}
	if len(a.Metrics) > 0 {
		panels = append(panels, distPanels(sides)...)
	}
	title := fmt.Sprintf("%s: %s against %s\n%d paired trials", cr.Mechanic, a.Name, b.Name, a.Trials)
	return saveFigure(file, title, panels)
}

// side is one variant a figure draws: its sampled report (nil for exact
// odds alone) and its exact answer (nil when there is none).
type side struct {
	label  string
	metric string // the first metric's name, when rep is nil
	rep    *sim.Report
	exact  *exactView
	color  color.RGBA
}

// name returns the legend text of the side's sampled or exact values.
func (s side) name(what string) string {
	if s.label == "" {
		return what
	}
	return s.label + " " + what
}

// categories returns the side's outcome names.
func (s side) categories() []string {
	if s.rep != nil {
		cats, _ := names(s.rep)
		return cats
	}
	return s.exact.Categories
}

// outcomePanel draws the sides' outcome odds as horizontal bars, one row
// an outcome and the sides' bars next to each other: sampled bars with
// whiskers for their 95% intervals and the exact odds as a dark stroke
// across each bar, or the exact odds as bars when nothing was sampled.
// Outcomes that are zero on every side are left out.
func outcomePanel(sides []side) *panel {
	cats := sides[0].categories()
	var shown []int
	for j := range cats {
		if slices.ContainsFunc(sides, func(s side) bool { return !zeroOutcome(s, j) }) {
			shown = append(shown, j)
		}
	}
	pn := newPanel("outcomes", "probability", "")
	labels := make(nameTicks, len(shown))
	width := 0.8 / float64(len(sides))
	xmax := 0.0
	for k, j := range shown {
		labels[len(shown)-1-k] = cats[j]
	}
	pn.p.Y.Tick.Marker = labels
	pn.p.Y.Padding = 0
	pn.p.X.Min = 0
	pn.height = max(2.2*vg.Inch, vg.Length(len(shown)*len(sides))*0.22*vg.Inch+1.2*vg.Inch)
	for si, s := range sides {
		b := &bars{width: width, offset: (float64(len(sides)-1)/2 - float64(si)) * width, horizontal: true}
		m := &marks{bars: *b}
		m.color = s.color
		for k, j := range shown {
			at := float64(len(shown) - 1 - k)
			ex, hasEx := exactP(s.exact, j)
			if !hasEx {
				ex = math.NaN()
			}
			if s.rep != nil {
				c := s.rep.Categories[j]
				b.at, b.val = append(b.at, at), append(b.val, c.P)
				b.lo, b.hi = append(b.lo, c.Lo), append(b.hi, c.Hi)
				m.at, m.val = append(m.at, at), append(m.val, ex)
			} else {
				b.at, b.val = append(b.at, at), append(b.val, ex)
			}
		}
		for i := range b.val {
			xmax = max(xmax, b.val[i])
			if b.hi != nil {
				xmax = max(xmax, b.hi[i])
			}
		}
		for _, v := range m.val {
			if !math.IsNaN(v) {
				xmax = max(xmax, v)
			}
		}
		addBars(pn, s, b, m, s.rep != nil, s.exact != nil)
	}
	if sides[0].rep != nil {
		pn.legend.Add("whiskers: 95% intervals")
	}
	// Room right of the longest bar for its whisker and exact stroke.
	pn.p.X.Max = min(1, xmax*1.05+0.01)
	return pn
}

// zeroOutcome reports whether outcome j never happened on side s and has
// exact probability 0 or none.
func zeroOutcome(s side, j int) bool {
	if s.rep != nil && s.rep.Categories[j].Count > 0 {
		return false
	}
	p, ok := exactP(s.exact, j)
	return !ok || p == 0
}

// dist is a side's distribution of its first metric: P(value) from lo.
type dist struct {
	lo      int
	sampled []float64 // nil when nothing was sampled
	exact   []float64 // P(value = lo+i); nil when there is none
	name    string
}

// distOf returns side s's distribution of its first metric, sampled and
// exact (the exact answer's rounds, which is the first metric).
func distOf(s side) dist {
	d := dist{name: s.metric}
	if s.rep != nil {
		m := s.rep.Metrics[0]
		d.name, d.lo = m.Name, m.Hist.Min
		n := float64(m.Hist.N())
		for _, c := range m.Hist.Counts {
			d.sampled = append(d.sampled, float64(c)/n)
		}
	}
	if s.exact != nil && len(s.exact.Rounds) > 0 {
		if s.rep == nil {
			d.lo = 0
		}
		for v := d.lo; v < len(s.exact.Rounds); v++ {
			d.exact = append(d.exact, s.exact.Rounds[max(v, 0)])
		}
	}
	return d
}

// span returns the values lo..hi that hold all but the last 1% of the
// distribution (sampled, or exact when nothing was sampled), so that a
// long thin tail does not squeeze the bars where the mass is.
func (d dist) span() (lo, hi int) {
	ps := d.sampled
	if ps == nil {
		ps = d.exact
	}
	first, cum := -1, 0.0
	for i, p := range ps {
		if first < 0 && p > 0 {
			first = i
		}
		cum += p
		if cum >= 0.99 {
			return d.lo + max(first, 0), d.lo + i
		}
	}
	return d.lo + max(first, 0), d.lo + len(ps) - 1
}

// valueRange is a range lo..hi of values.
type valueRange struct{ lo, hi int }

// full returns the range of values with probability above 0 on any side.
func (dist) full(sides []side) valueRange {
	r := valueRange{lo: math.MaxInt, hi: math.MinInt}
	for _, s := range sides {
		d := distOf(s)
		for _, ps := range [][]float64{d.sampled, d.exact} {
			for i, p := range ps {
				if p > 0 {
					r.lo, r.hi = min(r.lo, d.lo+i), max(r.hi, d.lo+i)
				}
			}
		}
	}
	return r
}

// beyond returns the mass above value hi.
func (d dist) beyond(hi int) float64 {
	ps := d.sampled
	if ps == nil {
		ps = d.exact
	}
	m := 0.0
	for i := max(hi-d.lo+1, 0); i < len(ps); i++ {
		m += ps[i]
	}
	return m
}

// distPanels draws the sides' distributions of their first metric as
// vertical bars one a value: sampled bars with the exact probability as a
// dark stroke across each, or the exact probabilities as bars when nothing
// was sampled. Bars are narrower than a value's slot, so that neighbouring
// values (the odd and even rounds of a mechanic whose rounds alternate)
// stay apart. Few values put the sides' bars next to each other in one
// panel; many give each side its own panel, on the same scales, so that
// no bar gets too thin to see.
func distPanels(sides []side) []*panel {
	ds := make([]dist, len(sides))
	lo, hi := math.MaxInt, 0
	for i, s := range sides {
		ds[i] = distOf(s)
		l, h := ds[i].span()
		lo, hi = min(lo, l), max(hi, h)
	}
	if full := ds[0].full(sides); full.hi-full.lo < 40 {
		lo, hi = full.lo, full.hi
	}
	cut := 0.0
	for _, d := range ds {
		cut = max(cut, d.beyond(hi))
	}
	xLabel := ds[0].name
	if cut > 0 {
		xLabel += fmt.Sprintf(" (above %d not drawn: %.1f%% or less)", hi, 100*cut)
	}
	title := ds[0].name + " distribution"
	if len(sides) == 1 || (hi-lo+1)*len(sides) <= 60 {
		pn := newPanel(title, xLabel, "probability")
		top := 0.0
		for si, s := range sides {
			width := 0.7 / float64(len(sides))
			top = max(top, addDist(pn, s, ds[si], lo, hi, width, (float64(si)-float64(len(sides)-1)/2)*width))
		}
		// Room above the tallest bar, so that it and its exact stroke are
		// drawn whole.
		pn.p.Y.Max = top * 1.05
		pn.p.X.Min, pn.p.X.Max = float64(lo)-0.6, float64(hi)+0.6
		pn.p.X.Tick.Marker = numberTicks{n: 15, whole: true}
		return []*panel{pn}
	}
	var panels []*panel
	top := 0.0
	for si, s := range sides {
		pn := newPanel(title+", "+s.name(""), xLabel, "probability")
		top = max(top, addDist(pn, s, ds[si], lo, hi, 0.7, 0))
		pn.p.X.Min, pn.p.X.Max = float64(lo)-0.6, float64(hi)+0.6
		pn.p.X.Tick.Marker = numberTicks{n: 15, whole: true}
		panels = append(panels, pn)
	}
	for _, pn := range panels {
		pn.p.Y.Max = top * 1.05
	}
	return panels
}

// addDist adds side s's distribution d over lo..hi to the panel, bars of
// the given width shifted by offset, and returns the highest bar or mark.
func addDist(pn *panel, s side, d dist, lo, hi int, width, offset float64) float64 {
	b := &bars{width: width, offset: offset}
	m := &marks{bars: bars{width: width, offset: offset, color: s.color}}
	top := 0.0
	for v := lo; v <= hi; v++ {
		i := v - d.lo
		ex := math.NaN()
		if i >= 0 && i < len(d.exact) {
			ex = d.exact[i]
			top = max(top, ex)
		}
		switch {
		case d.sampled != nil && i >= 0 && i < len(d.sampled):
			b.at, b.val = append(b.at, float64(v)), append(b.val, d.sampled[i])
			m.at, m.val = append(m.at, float64(v)), append(m.val, ex)
			top = max(top, d.sampled[i])
		case d.sampled == nil && !math.IsNaN(ex):
			b.at, b.val = append(b.at, float64(v)), append(b.val, ex)
		case !math.IsNaN(ex):
			m.at, m.val = append(m.at, float64(v)), append(m.val, ex)
		}
	}
	addBars(pn, s, b, m, d.sampled != nil, d.exact != nil)
	return top
}

// plotOdds draws a scenario's exact answer to file, if file is set: the
// outcome odds as bars and the distribution of rounds.
func plotOdds(e *env, file string, sc scenario) error {
	if file == "" {
		return nil
	}
	ex, err := sc.exact(e.ctx)
	if err != nil {
		return fmt.Errorf("--plot: no exact answer to draw: %w", err)
	}
	s := side{exact: ex, metric: "rounds", color: colour(0)}
	if spec, err := sc.spec(sc.mechanic()); err == nil && len(spec.Metrics) > 0 {
		s.metric = spec.Metrics[0]
	}
	panels := []*panel{outcomePanel([]side{s})}
	if len(ex.Rounds) > 0 {
		panels = append(panels, distPanels([]side{s})...)
	}
	return saveFigure(file, fmt.Sprintf("%s: %s\nexact odds", sc.mechanic(), sc.describe()), panels)
}

// addBars adds a side's bars to the panel and its legend: sampled bars,
// lighter when the exact values are stroked across them, or the exact
// values as bars when nothing was sampled.
func addBars(pn *panel, s side, b *bars, m *marks, sampled, exact bool) {
	b.color = s.color
	switch {
	case sampled && exact:
		b.color = lighter(s.color)
		pn.p.Add(b, m)
		pn.legend.Add(s.name("sampled"), b)
		pn.legend.Add(s.name("exact"), m)
	case sampled:
		pn.p.Add(b)
		pn.legend.Add(s.name("sampled"), b)
	default:
		pn.p.Add(b)
		pn.legend.Add(s.name("exact"), b)
	}
}
