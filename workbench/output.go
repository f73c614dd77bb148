package workbench

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
	// File is the scenario file it came from, if any; Changed lists the
	// --set settings laid over it.
	File    string   `json:"file,omitempty"`
	Changed []string `json:"changed,omitempty"`
	// Inert names the settings that cannot change any number of this
	// scenario, as the mechanic says (sim.Description's Inert).
	Inert []string `json:"inert,omitempty"`
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// writeText prints a result as a human table: where the scenario came
// from, outcomes with their 95% intervals and exact odds beside, the
// metrics, and the distribution of the first metric.
func writeText(w io.Writer, r result) {
	rep := r.Report
	fmt.Fprintf(w, "%s: %s\n", r.Mechanic, r.Scenario)
	fmt.Fprintf(w, "  scenario: %s\n", r.source())
	partial := ""
	if rep.Provenance.Partial {
		partial = ", PARTIAL"
	}
	fmt.Fprintf(w, "  %d trials, seed %d, generator %s%s\n", rep.Trials, rep.Provenance.Seed, rep.Provenance.Generator, partial)
	if line := precisionLine(rep); line != "" {
		fmt.Fprintf(w, "  %s\n", line)
	}
	writeOutcomes(w, r)
	var constant []string
	for i, m := range rep.Metrics {
		if i > 0 && m.Min == m.Max {
			constant = append(constant, fmt.Sprintf("%s %d", m.Name, m.Min))
			continue
		}
		fmt.Fprintf(w, "  %s: mean %.3f (95%% half-width %.3f)", m.Name, m.Mean, 1.96*m.SE)
		if i == 0 && r.Exact != nil && r.Exact.MeanRounds != 0 {
			fmt.Fprintf(w, ", exact %.3f", r.Exact.MeanRounds)
		}
		fmt.Fprintf(w, "; half of trials %d or less, nine in ten %d or less; range %d..%d\n",
			m.Hist.Quantile(0.5), m.Hist.Quantile(0.9), m.Min, m.Max)
	}
	if len(constant) > 0 {
		fmt.Fprintf(w, "  the same in every trial: %s\n", strings.Join(constant, ", "))
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
	writeInert(w, r.Inert)
}

// writeInert names the settings that do not act in the scenario.
func writeInert(w io.Writer, inert []string) {
	if len(inert) > 0 {
		fmt.Fprintf(w, "  these settings do not act in this scenario: %s\n", strings.Join(inert, ", "))
	}
}

// precisionLine says whether a run with a precision target reached it.
func precisionLine(rep *sim.Report) string {
	pv := rep.Provenance
	if pv.Precision == 0 {
		return ""
	}
	target := fmt.Sprintf("odds within ±%g", pv.Precision)
	if pv.MeanPrecision > 0 {
		target += fmt.Sprintf(", means within ±%g%%", 100*pv.MeanPrecision)
	}
	switch pv.Stop {
	case sim.StopPrecision:
		return fmt.Sprintf("precision target (%s): reached after %d trials", target, rep.Trials)
	case sim.StopCancelled:
		return fmt.Sprintf("precision target (%s): not reached before the interrupt", target)
	}
	return fmt.Sprintf("precision target (%s): NOT reached within the %d trials allowed; raise --trials", target, rep.Trials)
}

// source says where the scenario came from: built in or a file, and the
// settings changed on the command line.
func (r result) source() string {
	from := "built-in"
	if r.File != "" {
		from = "from " + r.File
	}
	if len(r.Changed) > 0 {
		from += ", changed: " + strings.Join(r.Changed, " ")
	}
	return from
}

// writeOutcomes prints the outcome table. Outcomes that never happened in
// the sample and cannot happen by the exact answer (or have none) are left
// out and counted, so that the table shows what can happen.
func writeOutcomes(w io.Writer, r result) {
	rep := r.Report
	wd := nameWidth(rep.Categories)
	fmt.Fprintf(w, "  %-*s %8s  %-19s", wd, "outcome", "sampled", "95% interval")
	if r.Exact != nil {
		fmt.Fprintf(w, " %8s", "exact")
	}
	fmt.Fprintln(w)
	var hidden []string
	for i, c := range rep.Categories {
		var ex float64
		if r.Exact != nil && i < len(r.Exact.P) {
			ex = r.Exact.P[i]
		}
		if c.Count == 0 && ex == 0 {
			hidden = append(hidden, c.Name)
			continue
		}
		fmt.Fprintf(w, "  %-*s %8.4f  [%.4f, %.4f]", wd, c.Name, c.P, c.Lo, c.Hi)
		if r.Exact != nil && i < len(r.Exact.P) {
			mark := ""
			if outsideInterval(ex, c) {
				mark = " (outside)"
			}
			fmt.Fprintf(w, " %8.4f%s", ex, mark)
		}
		fmt.Fprintln(w)
	}
	if len(hidden) > 0 {
		fmt.Fprintf(w, "  (%s never happened and %s hidden: %s)\n", count(len(hidden), "outcome"), isAre(len(hidden)), strings.Join(hidden, ", "))
	}
}

// maxBins is how many rows a text histogram has at most.
const maxBins = 12

// writeHistogram draws a metric's distribution as text bars, at most
// maxBins rows. Values share a row when there are more than that, the row
// width chosen so that the rows span the middle 98% of the trials; the few
// below and above gather in a first and a last row.
func writeHistogram(w io.Writer, m sim.Metric, exact []float64) {
	h := m.Hist
	n := h.N()
	if n == 0 || len(h.Counts) == 0 {
		return
	}
	bins := histBins(h)
	const width = 30
	top := 0.0
	for i := range bins {
		bins[i].p = float64(countIn(h, bins[i].lo, bins[i].hi)) / float64(n)
		bins[i].ex = math.NaN()
		if exact != nil {
			// The first and last rows take the exact tails beyond the
			// sample's range too.
			lo, hi := bins[i].lo, bins[i].hi
			if i == 0 {
				lo = 0
			}
			if i == len(bins)-1 {
				hi = len(exact)
			}
			bins[i].ex = massIn(exact, lo, hi)
		}
		top = math.Max(top, bins[i].p)
	}
	fmt.Fprintf(w, "  %s distribution:\n", m.Name)
	for _, b := range bins {
		bar := int(math.Round(float64(width) * b.p / top))
		fmt.Fprintf(w, "  %9s | %-*s %.4f", b.label(h), width, strings.Repeat("#", bar), b.p)
		if !math.IsNaN(b.ex) {
			fmt.Fprintf(w, "  exact %.4f", b.ex)
		}
		fmt.Fprintln(w)
	}
}

// bin is one row of a text histogram: the values lo..hi.
type bin struct {
	lo, hi int
	p, ex  float64
}

func (b bin) label(h sim.Histogram) string {
	switch {
	case b.lo == b.hi:
		return fmt.Sprint(b.lo)
	case b.lo <= h.Min:
		return fmt.Sprintf("<=%d", b.hi)
	case b.hi >= h.Max():
		return fmt.Sprintf(">=%d", b.lo)
	}
	return fmt.Sprintf("%d-%d", b.lo, b.hi)
}

// histBins chooses the rows: one a value when the values fit, otherwise
// rows of equal width over the 1st to 99th percentile, with the tails in
// a first and a last row.
func histBins(h sim.Histogram) []bin {
	lo, hi := h.Min, h.Max()
	if hi-lo+1 <= maxBins {
		bs := make([]bin, 0, hi-lo+1)
		for v := lo; v <= hi; v++ {
			bs = append(bs, bin{lo: v, hi: v})
		}
		return bs
	}
	q1, q99 := h.Quantile(0.01), h.Quantile(0.99)
	inner := maxBins - 2
	step := max(1, (q99-q1+inner)/inner)
	var bs []bin
	if q1 > lo {
		bs = append(bs, bin{lo: lo, hi: q1 - 1})
	}
	v := q1
	for ; v <= q99 && len(bs) < maxBins-1; v += step {
		bs = append(bs, bin{lo: v, hi: min(v+step-1, hi)})
	}
	if v <= hi {
		bs = append(bs, bin{lo: v, hi: hi})
	}
	return bs
}

// countIn returns the trials with values lo..hi.
func countIn(h sim.Histogram, lo, hi int) int64 {
	var c int64
	for v := max(lo, h.Min); v <= min(hi, h.Max()); v++ {
		c += h.Count(v)
	}
	return c
}

// massIn returns the exact probability of values lo..hi.
func massIn(exact []float64, lo, hi int) float64 {
	p := 0.0
	for v := max(lo, 0); v < len(exact) && v <= hi; v++ {
		p += exact[v]
	}
	return p
}

// nameWidth is the width of the widest category name (at least 16).
func nameWidth(cs []sim.Category) int {
	w := 16
	for _, c := range cs {
		w = max(w, len(c.Name))
	}
	return w
}

// isAre agrees a verb with a count.
func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}
