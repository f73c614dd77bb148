package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/stakesrpg/stakes/sim"
)

// result is one simulated scenario, with its exact answer where there is
// one: the unit the report, sim and run subcommands print.
type result struct {
	Mechanic string      `json:"mechanic"`
	Scenario string      `json:"scenario"`
	Report   *sim.Report `json:"report"`
	Exact    *exactView  `json:"exact,omitempty"`
	// NoExact says why there is no exact answer.
	NoExact string `json:"no_exact,omitempty"`
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// writeText prints a result as a human table: outcomes with their 95%
// intervals and exact odds beside, the metrics, and a small histogram of
// the first metric.
func writeText(w io.Writer, r result) {
	rep := r.Report
	fmt.Fprintf(w, "%s: %s\n", r.Mechanic, r.Scenario)
	partial := ""
	if rep.Provenance.Partial {
		partial = ", PARTIAL (cancelled)"
	}
	fmt.Fprintf(w, "  %d trials, seed %d%s\n", rep.Trials, rep.Provenance.Seed, partial)
	wd := nameWidth(rep.Categories)
	fmt.Fprintf(w, "  %-*s %8s  %-19s", wd, "outcome", "sampled", "95% interval")
	if r.Exact != nil {
		fmt.Fprintf(w, " %8s", "exact")
	}
	fmt.Fprintln(w)
	for i, c := range rep.Categories {
		fmt.Fprintf(w, "  %-*s %8.4f  [%.4f, %.4f]", wd, c.Name, c.P, c.Lo, c.Hi)
		if r.Exact != nil && i < len(r.Exact.P) {
			mark := ""
			if p := r.Exact.P[i]; p < c.Lo || p > c.Hi {
				mark = " (outside)"
			}
			fmt.Fprintf(w, " %8.4f%s", r.Exact.P[i], mark)
		}
		fmt.Fprintln(w)
	}
	for i, m := range rep.Metrics {
		fmt.Fprintf(w, "  %s: mean %.3f ± %.3f", m.Name, m.Mean, 1.96*m.SE)
		if i == 0 && r.Exact != nil && r.Exact.MeanRounds != 0 {
			fmt.Fprintf(w, " (exact %.3f)", r.Exact.MeanRounds)
		}
		fmt.Fprintf(w, "; median %d, 90%% at most %d, range %d..%d\n",
			m.Hist.Quantile(0.5), m.Hist.Quantile(0.9), m.Min, m.Max)
	}
	if len(rep.Metrics) > 0 {
		var exact []float64
		if r.Exact != nil {
			exact = r.Exact.Rounds
		}
		writeHistogram(w, rep.Metrics[0], exact)
	}
	if r.Exact == nil && r.NoExact != "" {
		fmt.Fprintf(w, "  exact: none (%s)\n", r.NoExact)
	}
}

// writeHistogram draws a metric's distribution as text bars, at most 12
// rows; the tail beyond is folded into the last row.
func writeHistogram(w io.Writer, m sim.Metric, exact []float64) {
	h := m.Hist
	n := h.N()
	if n == 0 || len(h.Counts) == 0 {
		return
	}
	const rows, width = 12, 30
	type row struct {
		label string
		p, ex float64
	}
	var rs []row
	for i, c := range h.Counts {
		v := h.Min + i
		p := float64(c) / float64(n)
		ex := math.NaN()
		if exact != nil && v >= 0 && v < len(exact) {
			ex = exact[v]
		}
		if len(rs) == rows-1 && i < len(h.Counts)-1 {
			// Fold the rest.
			tail, extail := 0.0, 0.0
			for j := i; j < len(h.Counts); j++ {
				tail += float64(h.Counts[j]) / float64(n)
				if u := h.Min + j; exact != nil && u >= 0 && u < len(exact) {
					extail += exact[u]
				}
			}
			if exact != nil {
				for u := h.Min + len(h.Counts); u < len(exact); u++ {
					extail += exact[u]
				}
				ex = extail
			}
			rs = append(rs, row{fmt.Sprintf(">=%d", v), tail, ex})
			break
		}
		rs = append(rs, row{fmt.Sprint(v), p, ex})
	}
	top := 0.0
	for _, r := range rs {
		top = math.Max(top, r.p)
	}
	fmt.Fprintf(w, "  %s distribution:\n", m.Name)
	for _, r := range rs {
		bar := int(math.Round(float64(width) * r.p / top))
		fmt.Fprintf(w, "  %6s | %-*s %.4f", r.label, width, strings.Repeat("#", bar), r.p)
		if !math.IsNaN(r.ex) {
			fmt.Fprintf(w, "  exact %.4f", r.ex)
		}
		fmt.Fprintln(w)
	}
}

// nameWidth is the width of the widest category name (at least 16).
func nameWidth(cs []sim.Category) int {
	w := 16
	for _, c := range cs {
		w = max(w, len(c.Name))
	}
	return w
}
