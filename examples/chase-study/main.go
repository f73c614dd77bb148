// Command chase-study is a balance study: how the odds of the built-in car
// chase (d20 Advanced, Dramatic Interaction) move as both sides start with
// more edge dice. For each starting count it prints the exact chance that
// the lead car escapes and the expected rounds, beside a Monte Carlo
// estimate with its 95% interval, and draws both to a plot.
//
//	go run ./examples/chase-study [-o chase-study.png] [-trials 20000]
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"image/color"
	"os"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/stakesrpg/stakes/edge"
	"github.com/stakesrpg/stakes/sim"
)

func main() {
	out := flag.String("o", "chase-study.png", "plot file (.png or .svg)")
	trials := flag.Int64("trials", 20000, "Monte Carlo trials per starting count")
	flag.Parse()

	var exactPts, simPts plotter.XYs
	var errs plotter.YErrors
	fmt.Printf("%-10s %10s %22s %14s\n", "start edge", "exact", "sampled (95%)", "exact rounds")
	for start := 3; start <= 8; start++ {
		sc := edge.DefaultScenario()
		sc.Rules.StartEdge = start
		ex, err := sc.Exact(context.Background())
		if err != nil {
			fail(err)
		}
		rep, err := sim.Run(context.Background(), spec(sc), sim.Options{Seed: 1, Trials: *trials})
		if err != nil {
			fail(err)
		}
		c := rep.Categories[0] // lead_car_wins
		fmt.Printf("%-10d %10.4f %8.4f [%.4f, %.4f] %14.2f\n", start, ex.P[0], c.P, c.Lo, c.Hi, ex.MeanRounds)
		exactPts = append(exactPts, plotter.XY{X: float64(start), Y: ex.P[0]})
		simPts = append(simPts, plotter.XY{X: float64(start), Y: c.P})
		errs = append(errs, struct{ Low, High float64 }{c.P - c.Lo, c.Hi - c.P})
	}

	p, err := chart(exactPts, simPts, errs, *trials)
	if err != nil {
		fail(err)
	}
	if err := p.Save(6*vg.Inch, 4*vg.Inch, *out); err != nil {
		fail(err)
	}
	fmt.Println("plot written to", *out)
}

// chart draws the exact odds as a line and the sampled ones as points
// with their 95% intervals.
func chart(exactPts, simPts plotter.XYs, errs plotter.YErrors, trials int64) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = "Car chase: P(lead car escapes) by starting edge dice"
	p.X.Label.Text = "edge dice each side starts with"
	p.Y.Label.Text = "P(lead car escapes)"
	line, err := plotter.NewLine(exactPts)
	if err != nil {
		return nil, err
	}
	line.Color = color.RGBA{R: 200, G: 60, B: 40, A: 255}
	pts, err := plotter.NewScatter(simPts)
	if err != nil {
		return nil, err
	}
	bars, err := plotter.NewYErrorBars(struct {
		plotter.XYer
		plotter.YErrorer
	}{simPts, errs})
	if err != nil {
		return nil, err
	}
	p.Add(line, pts, bars, plotter.NewGrid())
	p.Legend.Add("exact", line)
	p.Legend.Add(fmt.Sprintf("sampled, %d trials (95%%)", trials), pts)
	// The odds fall as both sides start with more dice, so the lower left
	// is clear of the data: the legend goes there. Every starting count is
	// a labelled tick, and the axes leave room around the first and last
	// points so no whisker is clipped.
	p.Legend.Top, p.Legend.Left = false, true
	p.Legend.XOffs, p.Legend.YOffs = vg.Points(8), vg.Points(8)
	var ticks []plot.Tick
	for start := 3; start <= 8; start++ {
		ticks = append(ticks, plot.Tick{Value: float64(start), Label: fmt.Sprint(start)})
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	p.X.Min, p.X.Max = 2.5, 8.5
	lo, hi := simPts[len(simPts)-1].Y-errs[len(errs)-1].Low, simPts[0].Y+errs[0].High
	for i, pt := range simPts {
		lo, hi = min(lo, pt.Y-errs[i].Low, exactPts[i].Y), max(hi, pt.Y+errs[i].High, exactPts[i].Y)
	}
	pad := (hi - lo) * 0.08
	p.Y.Min, p.Y.Max = max(0, lo-pad-(hi-lo)*0.25), hi+pad
	return p, nil
}

// spec turns a scenario into a sim.Spec: one Runner per worker.
func spec(sc edge.Scenario) sim.Spec {
	settings, _ := json.Marshal(sc)
	return sim.Spec{
		Name:       "chase",
		Categories: sc.Categories(),
		Metrics:    sc.Metrics(),
		Settings:   map[string]string{"scenario": string(settings)},
		New:        sim.FromRunner(sc.NewRunner, len(sc.Metrics())),
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, err)
	os.Exit(1)
}
