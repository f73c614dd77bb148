package workbench

import (
	"fmt"
	"image/color"
	"math"
	"strconv"

	"github.com/stakesrpg/stakes/dice"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// Colours of the two sides of odds EXPR vs EXPR; one expression is drawn
// in the first.
var (
	sideColor = [2]color.RGBA{{R: 70, G: 110, B: 170, A: 255}, {R: 215, G: 120, B: 40, A: 255}}
	meanColor = [2]color.RGBA{{R: 20, G: 40, B: 90, A: 255}, {R: 150, G: 60, B: 0, A: 255}}
)

// maxBars bounds the bars a side draws: past it, each bar covers several
// values and shows their average P(= value).
const maxBars = 150

// drawnShare is the smallest P(X = x), as a share of the most likely
// outcome's, that the plot draws: a rarer bar would be under a quarter of
// a point high, and drawing it would only stretch the axis.
const drawnShare = 1e-3

// plotExprDist draws the exact distribution of one expression as bars of
// P(X = x), its mean as a dashed line, to a PNG or SVG file (by the file
// name's extension).
func plotExprDist(file string, s exprSide) error {
	p := newExprPlot(fmt.Sprintf("%s: exact distribution%s", s.expr, truncNote(s.expr, s.trunc)))
	if l := s.viewLabel(); l != "" {
		p.Y.Label.Text = l
	}
	lo, hi, hidden := drawnRange([]dice.Dist{s.dist})
	top := addSide(p, s, 0, 1, lo, hi)
	finishExprPlot(p, lo, hi, hidden, top, 1)
	return p.Save(7*vg.Inch, 4*vg.Inch, file)
}

// plotExprVersus draws both expressions' exact distributions side by side
// at each value, each with its mean, to a PNG or SVG file.
func plotExprVersus(file string, a, b exprSide) error {
	trunc := 1 - (1-a.trunc)*(1-b.trunc)
	p := newExprPlot(fmt.Sprintf("A = %s vs B = %s%s", a.expr, b.expr, truncNote(a.expr, trunc)))
	if l := a.viewLabel(); l != "" {
		p.Y.Label.Text = l
	}
	lo, hi, hidden := drawnRange([]dice.Dist{a.dist, b.dist})
	top := max(addSide(p, a, 0, 2, lo, hi), addSide(p, b, 1, 2, lo, hi))
	finishExprPlot(p, lo, hi, hidden, top, 2)
	return p.Save(7*vg.Inch, 4*vg.Inch, file)
}

func newExprPlot(title string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Y.Label.Text = "P(= value)"
	p.Y.Min = 0
	p.X.Tick.Marker = integerTicks{}
	p.Legend.Top = true
	return p
}

// truncNote says, in a title, how much chance the depth bound cuts off.
func truncNote(x *dice.Expr, trunc float64) string {
	if trunc == 0 {
		return ""
	}
	return fmt.Sprintf(" (depth %d, %.2g cut off)", x.Depth(), trunc)
}

// drawnRange returns the values the plot shows: from the least to the
// greatest outcome of any of ds drawn at all, and how many outcomes with
// some chance are too rare to draw.
func drawnRange(ds []dice.Dist) (lo, hi, hidden int) {
	lo, hi = math.MaxInt, math.MinInt
	for _, d := range ds {
		floor := maxP(d) * drawnShare
		for i, q := range d.P {
			switch {
			case q >= floor:
				lo, hi = min(lo, d.Min+i), max(hi, d.Min+i)
			case q > 0:
				hidden++
			}
		}
	}
	return lo, hi, hidden
}

func maxP(d dice.Dist) float64 {
	m := 0.0
	for _, q := range d.P {
		m = max(m, q)
	}
	return m
}

// addSide adds side number i of n: a bar a value (each side taking its
// share of the value's width), and a dashed line at its mean, both in the
// legend. It returns the tallest bar.
func addSide(p *plot.Plot, s exprSide, i, n, lo, hi int) float64 {
	per := barWidth(lo, hi)
	gap := 0.15 * float64(per) // of a bar's room, left empty on each side
	w := (float64(per) - 2*gap) / float64(n)
	h := &plotter.Histogram{FillColor: sideColor[i]}
	h.LineStyle.Width = 0
	for v := lo; v <= hi; v += per {
		q := 0.0
		for x := v; x < v+per; x++ {
			q += s.value(x)
		}
		if q > 0 {
			x0 := float64(v) - 0.5 + gap + float64(i)*w
			h.Bins = append(h.Bins, plotter.HistogramBin{Min: x0, Max: x0 + w, Weight: q / float64(per)})
		}
	}
	name := s.expr.String()
	if n == 2 {
		name = [2]string{"A ", "B "}[i] + name
	}
	top := 0.0
	for _, b := range h.Bins {
		top = max(top, b.Weight)
	}
	mean := s.dist.Mean()
	line, _ := plotter.NewLine(plotter.XYs{{X: mean, Y: 0}, {X: mean, Y: top * 1.05}})
	line.Color = meanColor[i]
	line.Width = vg.Points(1.5)
	line.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
	p.Add(h, line)
	p.Legend.Add(name, h)
	p.Legend.Add(fmt.Sprintf("mean %.2f", mean), line)
	return top
}

// barWidth returns how many values one bar covers: 1, unless lo..hi
// holds more than maxBars values.
func barWidth(lo, hi int) int {
	return (hi-lo)/maxBars + 1
}

// finishExprPlot sets the axes: half a value's room beyond the outermost
// bars, and headroom above the tallest for the legend's entries (two a
// side), so that it never covers a bar.
func finishExprPlot(p *plot.Plot, lo, hi, hidden int, top float64, sides int) {
	p.X.Min, p.X.Max = float64(lo)-0.75, float64(hi+barWidth(lo, hi)-1)+0.75
	p.X.Label.Text = "value"
	if per := barWidth(lo, hi); per > 1 {
		p.X.Label.Text += fmt.Sprintf("; a bar is the average of %d values", per)
		p.Y.Label.Text = "P(= value), averaged"
	}
	if hidden > 0 {
		p.X.Label.Text += fmt.Sprintf("; %d rarer outcomes (under 1/%d of the likeliest) not drawn", hidden, int(1/drawnShare))
	}
	p.Y.Max = top * (1.2 + 0.15*float64(sides))
}

// integerTicks marks whole values only, at most about ten labelled, at a
// round step (1, 2, 5, 10, 20, 50, ...), with unlabelled ticks between.
type integerTicks struct{}

func (integerTicks) Ticks(lo, hi float64) []plot.Tick {
	first, last := int(math.Ceil(lo)), int(math.Floor(hi))
	step := roundStep(last - first)
	minor := max(step/5, 1)
	var ts []plot.Tick
	for v := first - first%minor; v <= last; v += minor {
		switch {
		case v < first:
		case v%step == 0:
			ts = append(ts, plot.Tick{Value: float64(v), Label: strconv.Itoa(v)})
		default:
			ts = append(ts, plot.Tick{Value: float64(v)})
		}
	}
	return ts
}

// roundStep returns the least of 1, 2, 5, 10, 20, 50, ... that cuts span
// into at most ten steps.
func roundStep(span int) int {
	for base := 1; ; base *= 10 {
		for _, m := range [3]int{1, 2, 5} {
			if step := base * m; (span+step-1)/step <= 10 {
				return step
			}
		}
	}
}
