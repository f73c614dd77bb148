package sim

import (
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strconv"
)

// Reports encode to JSON with encoding/json through their struct tags (the
// names are listed on each type and are stable). The CSV encodings below
// are "long" tables that spreadsheets and data-frame libraries read
// directly.

// CSVHeader returns the header row of Report.WriteCSV. Each row has a kind:
//
//	kind        name          value    count    p         lo, hi            mean, se   at_most
//	provenance  field         its value
//	setting     setting key   its value
//	category    category      -        count    P         Wilson 95%        -          -
//	metric      metric        -        trials   -         mean ± 1.96 SE    mean, SE   -
//	quantile    metric        v        -        q         -                 -          -
//	hist        metric        v        count    P(X = v)  -                 -          P(X <= v)
//
// Provenance fields are those of Provenance's JSON (seed, planned_trials,
// chunk_size, chunks, chunk_lo, chunk_hi, workers, generator, precision,
// version, stop, partial) plus trials and elapsed_ns (left out when zero).
// Cells that do not apply are empty. Numbers are written so that they read
// back to the same float64.
func CSVHeader() []string {
	return []string{"kind", "name", "value", "count", "p", "lo", "hi", "mean", "se", "at_most"}
}

type csvRow [10]string

func ftoa(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
func itoa(i int64) string   { return strconv.FormatInt(i, 10) }

func (r *Report) csvRows() []csvRow {
	p := r.Provenance
	var rows []csvRow
	prov := func(name, value string) { rows = append(rows, csvRow{"provenance", name, value}) }
	prov("trials", itoa(r.Trials))
	prov("seed", strconv.FormatUint(p.Seed, 10))
	prov("planned_trials", itoa(p.Planned))
	prov("chunk_size", strconv.Itoa(p.ChunkSize))
	prov("chunks", itoa(p.Chunks))
	prov("chunk_lo", itoa(p.ChunkLo))
	prov("chunk_hi", itoa(p.ChunkHi))
	prov("workers", strconv.Itoa(p.Workers))
	prov("generator", p.Generator)
	if p.MeanPrecision != 0 {
		prov("mean_precision", ftoa(p.MeanPrecision))
	}
	if p.Precision != 0 {
		prov("precision", ftoa(p.Precision))
	}
	prov("version", p.Version)
	prov("stop", p.Stop)
	prov("partial", strconv.FormatBool(p.Partial))
	if r.Elapsed != 0 {
		prov("elapsed_ns", itoa(int64(r.Elapsed)))
	}
	keys := make([]string, 0, len(p.Settings))
	for k := range p.Settings {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		rows = append(rows, csvRow{"setting", k, p.Settings[k]})
	}
	for _, c := range r.Categories {
		rows = append(rows, csvRow{"category", c.Name, "", itoa(c.Count), ftoa(c.P), ftoa(c.Lo), ftoa(c.Hi)})
	}
	for _, m := range r.Metrics {
		rows = append(rows, csvRow{"metric", m.Name, "", itoa(r.Trials), "", ftoa(m.Lo), ftoa(m.Hi), ftoa(m.Mean), ftoa(m.SE)})
		for _, q := range m.Quantiles {
			rows = append(rows, csvRow{"quantile", m.Name, strconv.Itoa(q.Value), "", ftoa(q.Q)})
		}
		rows = append(rows, histRows(m.Name, m.Hist)...)
	}
	return rows
}

func histRows(name string, h Histogram) []csvRow {
	n := h.N()
	var rows []csvRow
	var s int64
	for i, c := range h.Counts {
		s += c
		rows = append(rows, csvRow{"hist", name, strconv.Itoa(h.Min + i), itoa(c),
			ftoa(float64(c) / float64(n)), "", "", "", "", ftoa(float64(s) / float64(n))})
	}
	return rows
}

func writeRows(w io.Writer, header []string, groups func(emit func(prefix []string, rows []csvRow))) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(header); err != nil {
		return err
	}
	var werr error
	groups(func(prefix []string, rows []csvRow) {
		for _, r := range rows {
			if werr == nil {
				werr = cw.Write(append(slices.Clone(prefix), r[:]...))
			}
		}
	})
	if werr != nil {
		return werr
	}
	cw.Flush()
	return cw.Error()
}

// WriteCSV writes r as a long table with the columns of CSVHeader.
func (r *Report) WriteCSV(w io.Writer) error {
	if r == nil {
		return fmt.Errorf("sim: writing a report: %w", errNoReport)
	}
	return writeRows(w, CSVHeader(), func(emit func([]string, []csvRow)) {
		emit(nil, r.csvRows())
	})
}

// WriteCSV writes the comparison as one long table: a first column "side"
// ("a", "b" or "diff") followed by the columns of CSVHeader. The a and b
// rows are each variant's report. The diff rows are:
//
//	category  name  -  trials  P_A - P_B       lo, hi  -     SE  -
//	metric    name  -  trials  -               lo, hi  mean  SE  -
//	hist      name  d  count   P(A - B = d)    -       -     -   P(A - B <= d)
//	joint     A's category  B's category  count
//
// A comparison that lacks a side, or whose joint table does not fit its
// categories (as a decoded file may), is an error and nothing is written.
func (c *Comparison) WriteCSV(w io.Writer) error {
	if err := c.writable(); err != nil {
		return err
	}
	header := append([]string{"side"}, CSVHeader()...)
	return writeRows(w, header, func(emit func([]string, []csvRow)) {
		emit([]string{"a"}, c.A.csvRows())
		emit([]string{"b"}, c.B.csvRows())
		d := c.Diff
		var rows []csvRow
		for _, pc := range d.Categories {
			rows = append(rows, csvRow{"category", pc.Name, "", itoa(d.Trials), ftoa(pc.Diff), ftoa(pc.Lo), ftoa(pc.Hi), "", ftoa(pc.SE)})
		}
		for _, pm := range d.Metrics {
			rows = append(rows, csvRow{"metric", pm.Name, "", itoa(d.Trials), "", ftoa(pm.Lo), ftoa(pm.Hi), ftoa(pm.Mean), ftoa(pm.SE)})
			rows = append(rows, histRows(pm.Name, pm.Hist)...)
		}
		for i, row := range d.Joint {
			for j, n := range row {
				rows = append(rows, csvRow{"joint", d.Categories[i].Name, d.Categories[j].Name, itoa(n)})
			}
		}
		emit([]string{"diff"}, rows)
	})
}

// writable reports why c cannot be written.
func (c *Comparison) writable() error {
	switch {
	case c == nil:
		return fmt.Errorf("sim: writing a comparison: %w", errNoReport)
	case c.A == nil || c.B == nil:
		return fmt.Errorf("sim: writing a comparison: variant A or B has %w", errNoReport)
	}
	n := len(c.Diff.Categories)
	if len(c.Diff.Joint) > n {
		return fmt.Errorf("sim: writing a comparison: the joint table has %d rows for %d categories", len(c.Diff.Joint), n)
	}
	for i, row := range c.Diff.Joint {
		if len(row) > n {
			return fmt.Errorf("sim: writing a comparison: joint table row %d has %d entries for %d categories", i, len(row), n)
		}
	}
	return nil
}

// Header returns the column names of Table: the axis names, then trials,
// stop, then <category>_p, <category>_lo, <category>_hi for each category
// and <metric>_mean, <metric>_se for each metric.
func (s *SweepReport) Header() []string {
	if s == nil {
		return nil
	}
	h := make([]string, 0, len(s.Axes)+2)
	for _, a := range s.Axes {
		h = append(h, a.Name)
	}
	h = append(h, "trials", "stop")
	if len(s.Cells) == 0 {
		return h
	}
	r := s.Cells[0].Report
	if r == nil {
		return h
	}
	for _, c := range r.Categories {
		h = append(h, c.Name+"_p", c.Name+"_lo", c.Name+"_hi")
	}
	for _, m := range r.Metrics {
		h = append(h, m.Name+"_mean", m.Name+"_se")
	}
	return h
}

// Table returns one row per cell, aligned with Header: the designer's view
// of a sweep. A cell without a report (as a decoded file may have) gives
// its values and nothing more.
func (s *SweepReport) Table() [][]string {
	if s == nil {
		return nil
	}
	rows := make([][]string, 0, len(s.Cells))
	for _, c := range s.Cells {
		r := c.Report
		if r == nil {
			rows = append(rows, slices.Clone(c.Values))
			continue
		}
		row := append(slices.Clone(c.Values), itoa(r.Trials), r.Provenance.Stop)
		for _, cat := range r.Categories {
			row = append(row, ftoa(cat.P), ftoa(cat.Lo), ftoa(cat.Hi))
		}
		for _, m := range r.Metrics {
			row = append(row, ftoa(m.Mean), ftoa(m.SE))
		}
		rows = append(rows, row)
	}
	return rows
}

// WriteCSV writes Header and Table as CSV: one row per cell. A sweep whose
// cells do not form one table (a cell without a report, or with other
// values, categories or metrics than the first) is an error and nothing is
// written.
func (s *SweepReport) WriteCSV(w io.Writer) error {
	if err := s.writable(); err != nil {
		return err
	}
	cw := csv.NewWriter(w)
	if err := cw.Write(s.Header()); err != nil {
		return err
	}
	if err := cw.WriteAll(s.Table()); err != nil {
		return err
	}
	return cw.Error()
}

// writable reports why s does not form one table.
func (s *SweepReport) writable() error {
	if s == nil {
		return fmt.Errorf("sim: writing a sweep: %w", errNoReport)
	}
	var first *Report
	for i, c := range s.Cells {
		switch {
		case c.Report == nil:
			return fmt.Errorf("sim: writing a sweep: cell %d has %w", i, errNoReport)
		case len(c.Values) != len(s.Axes):
			return fmt.Errorf("sim: writing a sweep: cell %d has %d values for %d axes", i, len(c.Values), len(s.Axes))
		case first == nil:
			first = c.Report
		case !slices.EqualFunc(c.Report.Categories, first.Categories, func(x, y Category) bool { return x.Name == y.Name }) ||
			!slices.EqualFunc(c.Report.Metrics, first.Metrics, func(x, y Metric) bool { return x.Name == y.Name }):
			return fmt.Errorf("sim: writing a sweep: cell %d has other categories or metrics than cell 0", i)
		}
	}
	return nil
}
