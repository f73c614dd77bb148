package workbench

import (
	"bytes"
	"fmt"
	"image/color"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// A figure is what --plot writes: a title over one or more panels stacked
// top to bottom, each panel a plot with its legend in a column at its
// right, outside the data, so that the legend never hides a bar or the
// title. Sizes are for a page: 9 inches wide, about 3.4 inches a panel.
const (
	figureWidth = 9 * vg.Inch
	panelHeight = 3.4 * vg.Inch
	figurePad   = 8 // points around the figure and between panels
)

// palette holds colours that stay distinct for colour-blind readers (the
// Okabe-Ito set) and in grey print.
var palette = [...]color.RGBA{
	{R: 0, G: 114, B: 178, A: 255},   // blue
	{R: 213, G: 94, B: 0, A: 255},    // vermillion
	{R: 0, G: 158, B: 115, A: 255},   // bluish green
	{R: 204, G: 121, B: 167, A: 255}, // reddish purple
	{R: 230, G: 159, B: 0, A: 255},   // orange
	{R: 86, G: 180, B: 233, A: 255},  // sky blue
	{R: 0, G: 0, B: 0, A: 255},       // black
	{R: 153, G: 153, B: 153, A: 255}, // grey
}

// maxSeries is how many coloured series one panel may hold.
const maxSeries = len(palette)

func colour(i int) color.RGBA { return palette[i%len(palette)] }

// lighter returns c mixed half with white, for sampled bars under exact
// marks of the full colour.
func lighter(c color.RGBA) color.RGBA {
	mix := func(v uint8) uint8 { return uint8((int(v) + 255*2) / 3) }
	return color.RGBA{R: mix(c.R), G: mix(c.G), B: mix(c.B), A: 255}
}

// panel is one plot of a figure and its legend.
type panel struct {
	p      *plot.Plot
	legend plot.Legend
	height vg.Length // panelHeight when 0
}

func (pn *panel) size() vg.Length {
	if pn.height == 0 {
		return panelHeight
	}
	return pn.height
}

// newPanel returns an empty panel with a light grid and ticks dense enough
// to read values off (about ten a side).
func newPanel(title, xLabel, yLabel string) *panel {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font.Size = vg.Points(11)
	p.X.Label.Text = xLabel
	p.Y.Label.Text = yLabel
	p.X.Tick.Marker = numberTicks{n: 12}
	p.Y.Tick.Marker = numberTicks{n: 8}
	grid := plotter.NewGrid()
	grid.Vertical.Color = color.Gray{Y: 225}
	grid.Horizontal.Color = color.Gray{Y: 225}
	p.Add(grid)
	l := plot.NewLegend()
	l.Top, l.Left = true, true
	l.TextStyle.Font.Size = vg.Points(9)
	l.Padding = vg.Points(3)
	return &panel{p: p, legend: l}
}

// saveFigure writes the panels under the title to file, as PNG or SVG by
// the file name's extension.
func saveFigure(file, title string, panels []*panel) error {
	var buf bytes.Buffer
	if err := writeFigure(&buf, strings.TrimPrefix(filepath.Ext(file), "."), title, panels); err != nil {
		return fmt.Errorf("--plot %s: %v", file, err)
	}
	return os.WriteFile(file, buf.Bytes(), 0o644)
}

// writeFigure draws the titled panels one above the other in format (png
// or svg) to w.
func writeFigure(w io.Writer, format, title string, panels []*panel) error {
	titleStyle := text.Style{Font: font.From(plot.DefaultFont, vg.Points(13)),
		XAlign: draw.XCenter, YAlign: draw.YTop, Handler: plot.DefaultTextHandler}
	title = wrapTo(titleStyle, title, figureWidth-2*figurePad)
	titleH := titleStyle.Rectangle(title).Size().Y + 2*figurePad
	height := titleH
	for _, pn := range panels {
		height += pn.size()
	}
	cw, err := draw.NewFormattedCanvas(figureWidth, height, format)
	if err != nil {
		return err
	}
	dc := draw.New(cw)
	dc.SetColor(color.White)
	dc.Fill(dc.Rectangle.Path())
	dc.FillText(titleStyle, vg.Point{X: figureWidth / 2, Y: height - figurePad}, title)
	legendW := vg.Length(0)
	for _, pn := range panels {
		legendW = max(legendW, pn.legend.Rectangle(dc).Size().X)
	}
	if legendW > 0 {
		legendW += 2 * figurePad
	}
	top := height - titleH
	for _, pn := range panels {
		c := draw.Canvas{Canvas: dc.Canvas, Rectangle: vg.Rectangle{
			Min: vg.Point{X: figurePad, Y: top - pn.size() + figurePad},
			Max: vg.Point{X: figureWidth - figurePad, Y: top - figurePad}}}
		pn.p.Draw(draw.Crop(c, 0, -legendW, 0, 0))
		// The legend starts level with the top of the data area, below the
		// panel's own title.
		below := pn.p.Title.TextStyle.Rectangle(pn.p.Title.Text).Size().Y + pn.p.Title.Padding
		pn.legend.Draw(draw.Crop(c, c.Size().X-legendW+figurePad, 0, 0, -below))
		top -= pn.size()
	}
	_, err = cw.WriteTo(w)
	return err
}

// numberTicks marks about n labelled ticks at 1, 2 or 5 times a power of
// ten, with an unlabelled tick between each two; whole keeps the ticks on
// whole numbers (rounds, dice, settings).
type numberTicks struct {
	n     int
	whole bool
}

func (t numberTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) || math.IsInf(hi-lo, 0) {
		return []plot.Tick{{Value: lo, Label: strconv.FormatFloat(lo, 'g', 4, 64)}}
	}
	raw := (hi - lo) / float64(max(t.n, 2))
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := 10 * mag
	for _, m := range []float64{1, 2, 5} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	if t.whole {
		step = max(step, 1)
	}
	decimals := max(0, int(-math.Floor(math.Log10(step)+1e-9)))
	first := math.Ceil(lo/step-1e-9) * step
	var ts []plot.Tick
	for i := 0; i <= 4*t.n; i++ {
		v := first + float64(i)*step
		if v > hi+step*1e-9 {
			break
		}
		ts = append(ts, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', decimals, 64)})
		if half := v + step/2; half <= hi && (!t.whole || step >= 2) {
			ts = append(ts, plot.Tick{Value: half})
		}
	}
	return ts
}

// nameTicks labels the whole positions 0, 1, ... with names, for an axis
// of outcomes or of settings that are not numbers.
type nameTicks []string

func (t nameTicks) Ticks(lo, hi float64) []plot.Tick {
	var ts []plot.Tick
	for i, n := range t {
		if v := float64(i); v >= lo && v <= hi {
			ts = append(ts, plot.Tick{Value: v, Label: n})
		}
	}
	return ts
}

// bars draws one bar a value with its width in data units, so that bars
// of neighbouring values never merge however many there are, and the
// first and last bars are drawn whole. Bars stand on 0 and rise to val, or
// with horizontal set lie along the x axis. Where lo and hi are set, a
// whisker marks each bar's 95% interval.
type bars struct {
	at, val    []float64
	lo, hi     []float64
	width      float64
	offset     float64
	horizontal bool
	color      color.Color
}

func (b *bars) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	pt := func(along, v float64) vg.Point {
		if b.horizontal {
			return vg.Point{X: trX(v), Y: trY(along)}
		}
		return vg.Point{X: trX(along), Y: trY(v)}
	}
	whisker := draw.LineStyle{Color: color.Gray{Y: 40}, Width: vg.Points(0.8)}
	for i, a := range b.at {
		a += b.offset
		p0, p1 := pt(a-b.width/2, 0), pt(a+b.width/2, b.val[i])
		c.SetColor(b.color)
		c.Fill(rectPath(p0, p1))
		if b.lo != nil {
			c.StrokeLine2(whisker, pt(a, b.lo[i]).X, pt(a, b.lo[i]).Y, pt(a, b.hi[i]).X, pt(a, b.hi[i]).Y)
		}
	}
}

func rectPath(a, b vg.Point) vg.Path {
	var p vg.Path
	p.Move(a)
	p.Line(vg.Point{X: b.X, Y: a.Y})
	p.Line(b)
	p.Line(vg.Point{X: a.X, Y: b.Y})
	p.Close()
	return p
}

func (b *bars) DataRange() (xmin, xmax, ymin, ymax float64) {
	amin, amax, vmax := math.Inf(1), math.Inf(-1), 0.0
	for i, a := range b.at {
		amin = min(amin, a+b.offset-b.width/2)
		amax = max(amax, a+b.offset+b.width/2)
		vmax = max(vmax, b.val[i])
		if b.hi != nil {
			vmax = max(vmax, b.hi[i])
		}
	}
	if b.horizontal {
		return 0, vmax, amin, amax
	}
	return amin, amax, 0, vmax
}

func (b *bars) Thumbnail(c *draw.Canvas) {
	c.SetColor(b.color)
	c.Fill(c.Rectangle.Path())
}

// marks draws exact values as short strokes across the bars they belong
// to, so that an exact value reads against a sampled bar without hiding
// it, and neighbouring values stay apart.
type marks struct {
	bars
}

func (m *marks) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	sty := draw.LineStyle{Color: m.color, Width: vg.Points(2)}
	for i, a := range m.at {
		a += m.offset
		v := m.val[i]
		if math.IsNaN(v) {
			continue
		}
		if m.horizontal {
			c.StrokeLine2(sty, trX(v), trY(a-m.width/2), trX(v), trY(a+m.width/2))
		} else {
			c.StrokeLine2(sty, trX(a-m.width/2), trY(v), trX(a+m.width/2), trY(v))
		}
	}
}

func (m *marks) Thumbnail(c *draw.Canvas) {
	sty := draw.LineStyle{Color: m.color, Width: vg.Points(2)}
	y := (c.Min.Y + c.Max.Y) / 2
	c.StrokeLine2(sty, c.Min.X, y, c.Max.X, y)
}

// sampledPoints returns points at xs with whiskers from lo to hi, in the
// colour c: sampled odds and their 95% intervals.
func sampledPoints(xs, p, lo, hi []float64, c color.Color) ([]plot.Plotter, plot.Thumbnailer, error) {
	pts := struct {
		plotter.XYs
		plotter.YErrors
	}{make(plotter.XYs, len(xs)), make(plotter.YErrors, len(xs))}
	for i := range xs {
		pts.XYs[i] = plotter.XY{X: xs[i], Y: p[i]}
		pts.YErrors[i].Low, pts.YErrors[i].High = p[i]-lo[i], hi[i]-p[i]
	}
	sc, err := plotter.NewScatter(pts.XYs)
	if err != nil {
		return nil, nil, err
	}
	sc.Color = c
	sc.Radius = vg.Points(2.5)
	sc.Shape = draw.CircleGlyph{}
	eb, err := plotter.NewYErrorBars(pts)
	if err != nil {
		return nil, nil, err
	}
	eb.Color = c
	eb.Width = vg.Points(1)
	eb.CapWidth = vg.Points(5)
	return []plot.Plotter{eb, sc}, sc, nil
}

// exactLine returns a line through the points (xs, ys) whose ys are not
// NaN: the exact odds where the mechanic has them.
func exactLine(xs, ys []float64, c color.Color) (*plotter.Line, error) {
	var pts plotter.XYs
	for i, y := range ys {
		if !math.IsNaN(y) {
			pts = append(pts, plotter.XY{X: xs[i], Y: y})
		}
	}
	if len(pts) == 0 {
		return nil, nil
	}
	l, err := plotter.NewLine(pts)
	if err != nil {
		return nil, err
	}
	l.Color = c
	l.Width = vg.Points(1.5)
	return l, nil
}

// styleKey adds the legend entries that say what points, whiskers and
// lines mean, in grey, after the coloured entries.
func styleKey(l *plot.Legend, withExact bool) {
	grey := colour(7)
	if _, thumb, err := sampledPoints([]float64{0}, []float64{0}, []float64{0}, []float64{0}, grey); err == nil {
		l.Add("sampled, with 95% interval", thumb)
	}
	if withExact {
		if line, err := exactLine([]float64{0}, []float64{0}, grey); err == nil && line != nil {
			l.Add("exact", line)
		}
	}
}

// margin widens the x axis by a fraction of its span on each side, so that
// the points at its ends and their whiskers are drawn whole.
func margin(p *plot.Plot, xs []float64, frac float64) {
	lo, hi := slices.Min(xs), slices.Max(xs)
	pad := max((hi-lo)*frac, 0.5)
	p.X.Min, p.X.Max = lo-pad, hi+pad
}

// wrapTo breaks each line of s at spaces so that no line is wider than width
// in the style.
func wrapTo(sty text.Style, s string, width vg.Length) string {
	var out []string
	for _, line := range strings.Split(s, "\n") {
		cur := ""
		for _, word := range strings.Fields(line) {
			next := strings.TrimSpace(cur + " " + word)
			if cur != "" && sty.Width(next) > width {
				out = append(out, cur)
				next = word
			}
			cur = next
		}
		out = append(out, cur)
	}
	return strings.Join(out, "\n")
}
