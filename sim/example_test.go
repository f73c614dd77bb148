package sim_test

import (
	"context"
	"fmt"
	"os"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim"
)

// duel is a tiny contest: each round both sides roll their die and the
// higher roll takes a point; ties are rerolled. First to three points wins.
// Metric 0 counts rounds, metric 1 the winner's margin in points.
func duel(a, b dice.Die) sim.Spec {
	return sim.Spec{
		Name:       "duel",
		Categories: []string{"a_wins", "b_wins"},
		Metrics:    []string{"rounds", "margin"},
		Settings:   map[string]string{"a": a.String(), "b": b.String()},
		New: func() (sim.Trial, error) {
			return func(r *dice.Roller, o *sim.Outcome) error {
				pa, pb, rounds := 0, 0, 0
				for pa < 3 && pb < 3 {
					rounds++
					x, y := r.Roll(int(a)), r.Roll(int(b))
					switch {
					case x > y:
						pa++
					case y > x:
						pb++
					}
				}
				if pb == 3 {
					o.Category = 1
				}
				o.Metrics[0], o.Metrics[1] = rounds, max(pa-pb, pb-pa)
				return nil
			}, nil
		},
	}
}

func ExampleRun() {
	rep, err := sim.Run(context.Background(), duel(dice.D8, dice.D6), sim.Options{Seed: 1, Trials: 100_000})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range rep.Categories {
		fmt.Printf("%-7s %.3f  95%% [%.3f, %.3f]\n", c.Name, c.P, c.Lo, c.Hi)
	}
	rounds, _ := rep.Metric("rounds")
	fmt.Printf("rounds  %.2f ± %.2f, median %d, P(done by round 4) %.3f\n",
		rounds.Mean, 1.96*rounds.SE, rounds.Quantiles[2].Value, rounds.Hist.AtMost(4))
	// Output:
	// a_wins  0.753  95% [0.750, 0.755]
	// b_wins  0.247  95% [0.245, 0.250]
	// rounds  4.57 ± 0.01, median 4, P(done by round 4) 0.506
}

// A study split into shards (one per job of a batch system) merges into
// exactly the report of one whole run.
func ExampleMerge() {
	opt := sim.Options{Seed: 7, Trials: 50_000, ChunkSize: 1000}
	n, _ := opt.Chunks()
	var shards []*sim.Report
	for lo := int64(0); lo < n; lo += 20 {
		o := opt
		o.ChunkLo, o.ChunkHi = lo, min(lo+20, n)
		r, err := sim.Run(context.Background(), duel(dice.D8, dice.D6), o)
		if err != nil {
			fmt.Println(err)
			return
		}
		shards = append(shards, r)
	}
	merged, _ := sim.Merge(shards...)
	whole, _ := sim.Run(context.Background(), duel(dice.D8, dice.D6), opt)
	fmt.Println(len(shards), "shards:", merged.Categories[0].Count, "A wins; whole run:", whole.Categories[0].Count)
	// Output:
	// 3 shards: 37807 A wins; whole run: 37807
}

// Compare a house rule (A rolls a d10 instead of a d8) on common random
// numbers: the paired difference is far tighter than two separate runs.
func ExampleCompare() {
	c, err := sim.Compare(context.Background(), duel(dice.D10, dice.D6), duel(dice.D8, dice.D6), sim.Options{Seed: 3, Trials: 100_000})
	if err != nil {
		fmt.Println(err)
		return
	}
	d := c.Diff.Categories[0]
	fmt.Printf("P(A wins): d10 %.3f, d8 %.3f, difference %+.3f [%+.3f, %+.3f]\n",
		c.A.Categories[0].P, c.B.Categories[0].P, d.Diff, d.Lo, d.Hi)
	// Output:
	// P(A wins): d10 0.864, d8 0.753, difference +0.111 [+0.109, +0.113]
}

// Sweep A's die over the ladder against a fixed d8.
func ExampleSweep() {
	axes := []sim.Axis{{Name: "a", Values: []string{"d4", "d6", "d8", "d10", "d12"}}}
	build := func(c sim.Cell) (sim.Spec, error) {
		p, err := dice.ParsePool(c["a"])
		if err != nil {
			return sim.Spec{}, err
		}
		return duel(p.Die(0), dice.D8), nil
	}
	sr, err := sim.Sweep(context.Background(), axes, build, sim.Options{Seed: 5, Trials: 20_000})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, cell := range sr.Cells {
		a := cell.Report.Categories[0]
		fmt.Printf("%-4s vs d8: A wins %.2f\n", cell.Values[0], a.P)
	}
	// Output:
	// d4   vs d8: A wins 0.07
	// d6   vs d8: A wins 0.24
	// d8   vs d8: A wins 0.49
	// d10  vs d8: A wins 0.71
	// d12  vs d8: A wins 0.81
}

// Check a sampled distribution against the exact one.
func ExampleHistogram_Fit() {
	spec := sim.Spec{
		Name: "2d6", Categories: []string{"rolled"}, Metrics: []string{"total"},
		New: func() (sim.Trial, error) {
			return func(r *dice.Roller, o *sim.Outcome) error { o.Metrics[0] = r.Roll(6) + r.Roll(6); return nil }, nil
		},
	}
	rep, _ := sim.Run(context.Background(), spec, sim.Options{Seed: 9, Trials: 36_000})
	exact, _ := dice.SumOf([]dice.Die{dice.D6, dice.D6})
	fit, err := rep.Metrics[0].Hist.Fit(exact)
	fmt.Println("fits 2d6:", err == nil && fit.PValue > 1e-4, "cells:", fit.Cells)
	// Output:
	// fits 2d6: true cells: 11
}

func ExampleReport_WriteCSV() {
	d4 := sim.Spec{
		Name: "d4", Categories: []string{"low", "high"}, Metrics: []string{"face"},
		Settings: map[string]string{"die": "d4"},
		New: func() (sim.Trial, error) {
			return func(r *dice.Roller, o *sim.Outcome) error {
				o.Metrics[0] = r.Roll(4)
				if o.Metrics[0] > 2 {
					o.Category = 1
				}
				return nil
			}, nil
		},
	}
	rep, _ := sim.Run(context.Background(), d4, sim.Options{Seed: 2, Trials: 400, Workers: 1})
	rep.Elapsed = 0 // the one non-reproducible field
	if err := rep.WriteCSV(os.Stdout); err != nil {
		fmt.Println(err)
	}
	// Output:
	// kind,name,value,count,p,lo,hi,mean,se,at_most
	// provenance,trials,400,,,,,,,
	// provenance,seed,2,,,,,,,
	// provenance,planned_trials,400,,,,,,,
	// provenance,chunk_size,4096,,,,,,,
	// provenance,chunks,1,,,,,,,
	// provenance,chunk_lo,0,,,,,,,
	// provenance,chunk_hi,1,,,,,,,
	// provenance,workers,1,,,,,,,
	// provenance,generator,pcg,,,,,,,
	// provenance,version,0.1.0,,,,,,,
	// provenance,stop,done,,,,,,,
	// provenance,partial,false,,,,,,,
	// setting,die,d4,,,,,,,
	// category,low,,197,0.4925,0.44381128061271025,0.5413314038023042,,,
	// category,high,,203,0.5075,0.45866859619769573,0.5561887193872896,,,
	// metric,face,,400,,2.3966331682293016,2.623366831770698,2.51,0.05784128313832361,
	// quantile,face,1,,0.05,,,,,
	// quantile,face,1,,0.25,,,,,
	// quantile,face,3,,0.5,,,,,
	// quantile,face,4,,0.75,,,,,
	// quantile,face,4,,0.95,,,,,
	// hist,face,1,108,0.27,,,,,0.27
	// hist,face,2,89,0.2225,,,,,0.4925
	// hist,face,3,94,0.235,,,,,0.7275
	// hist,face,4,109,0.2725,,,,,1
}

func ExampleReport_WriteText() {
	rep, err := sim.Run(context.Background(), duel(dice.D8, dice.D6), sim.Options{Seed: 1, Trials: 20_000})
	if err != nil {
		fmt.Println(err)
		return
	}
	rep.WriteText(os.Stdout)
	// Output:
	// duel: 20000 trials, seed 1, pcg, chunks [0, 5) of 5, done
	//   category       p  95% lo  95% hi
	//     a_wins  0.7504  0.7444  0.7564
	//     b_wins  0.2495  0.2436  0.2556
	//
	//   metric   mean   ±95%     sd  min  q05  q25  median  q75  q95  max
	//   rounds  4.562  0.017  1.200    3    3    4       4    5    7   12
	//   margin  1.993  0.011  0.791    1    1    1       2    3    3    3
}
