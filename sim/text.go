package sim

import (
	"fmt"
	"io"
	"text/tabwriter"
)

// WriteText writes r as a short human-readable table: a provenance line,
// each category's share with its Wilson 95% interval, and each metric's
// mean ± 1.96 SE, standard deviation, range and quantiles.
func (r *Report) WriteText(w io.Writer) error {
	if r == nil {
		return fmt.Errorf("sim: writing a report: %w", errNoReport)
	}
	p := r.Provenance
	status := p.Stop
	if p.Partial {
		status = "partial (cancelled)"
	}
	if _, err := fmt.Fprintf(w, "%s: %d trials, seed %d, %s, chunks [%d, %d) of %d, %s\n",
		r.Name, r.Trials, p.Seed, p.Generator, p.ChunkLo, p.ChunkHi, p.Chunks, status); err != nil {
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "category\tp\t95% lo\t95% hi\t")
	for _, c := range r.Categories {
		fmt.Fprintf(tw, "%s\t%.4f\t%.4f\t%.4f\t\n", c.Name, c.P, c.Lo, c.Hi)
	}
	if err := tw.Flush(); err != nil || len(r.Metrics) == 0 {
		return err
	}
	fmt.Fprintln(w)
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "metric\tmean\t±95%\tsd\tmin\tq05\tq25\tmedian\tq75\tq95\tmax\t")
	for _, m := range r.Metrics {
		fmt.Fprintf(tw, "%s\t%.3f\t%.3f\t%.3f\t%d\t", m.Name, m.Mean, z95*m.SE, m.StdDev, m.Min)
		// One column per quantile a run reports, whatever a decoded
		// report holds.
		for i := range quantileLevels {
			if i < len(m.Quantiles) {
				fmt.Fprintf(tw, "%d", m.Quantiles[i].Value)
			}
			fmt.Fprint(tw, "\t")
		}
		fmt.Fprintf(tw, "%d\t\n", m.Max)
	}
	return tw.Flush()
}
