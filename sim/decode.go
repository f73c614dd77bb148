package sim

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
)

// Decoding. Reports, comparisons and sweeps come back from files other
// processes wrote (shards to Merge, results to print), so decoding bounds
// every list by what a run can produce, one element at a time, before it
// allocates for more: at most MaxCategories categories, MaxMetrics
// metrics, maxQuantiles quantiles, MaxSpan histogram counts and at_most
// entries, MaxCells sweep cells. A histogram's counts must be
// non-negative and its values within ±MaxMetricValue, and a report's
// histograms may count no more values than its trials. A file past a
// bound is refused with an error naming it, having allocated about what
// the bound allows, whatever its size.

// maxQuantiles bounds a decoded metric's quantiles (a run writes
// len(quantileLevels) of them).
const maxQuantiles = 64

// decodeList decodes the JSON array data (or null) into *list, refusing
// more than limit elements before it allocates for them. The elements are
// decoded from data in place, not copied.
func decodeList[T any](data []byte, list *[]T, limit int, what string) error {
	elems, null, err := elements(data, limit, what)
	if err != nil || null {
		*list = nil
		return err
	}
	out := make([]T, len(elems))
	for k, e := range elems {
		if err := json.Unmarshal(e, &out[k]); err != nil {
			return fmt.Errorf("%s %d: %w", what, k, err)
		}
	}
	*list = out
	return nil
}

// elements splits the JSON array data into its elements (subslices of
// data), or reports null; more than limit elements is an error.
func elements(data []byte, limit int, what string) (elems [][]byte, null bool, err error) {
	i := skipSpace(data, 0)
	if bytes.HasPrefix(data[i:], []byte("null")) {
		return nil, true, nil
	}
	if i == len(data) || data[i] != '[' {
		return nil, false, fmt.Errorf("%s: want an array", what)
	}
	i = skipSpace(data, i+1)
	for i < len(data) && data[i] != ']' {
		if len(elems) == limit {
			return nil, false, fmt.Errorf("%s: more than %d", what, limit)
		}
		end, err := skipValue(data, i)
		if err != nil {
			return nil, false, fmt.Errorf("%s: %w", what, err)
		}
		elems = append(elems, data[i:end])
		if i = skipSpace(data, end); i < len(data) && data[i] == ',' {
			i = skipSpace(data, i+1)
		} else if i == len(data) || data[i] != ']' {
			return nil, false, fmt.Errorf("%s: malformed array", what)
		}
	}
	if i == len(data) {
		return nil, false, fmt.Errorf("%s: unterminated array", what)
	}
	return elems, false, nil
}

func skipSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}

// skipValue returns where the JSON value starting at data[i] ends.
func skipValue(data []byte, i int) (int, error) {
	depth := 0
	for i < len(data) {
		switch data[i] {
		case '"':
			end, err := skipString(data, i)
			if err != nil {
				return 0, err
			}
			i = end
		case '{', '[':
			depth++
			i++
		case '}', ']':
			if depth == 0 {
				return i, nil
			}
			depth--
			i++
		case ',', ' ', '\t', '\n', '\r':
			if depth == 0 {
				return i, nil
			}
			i++
		default:
			i++
		}
		if depth == 0 && i < len(data) && (data[i-1] == '}' || data[i-1] == ']' || data[i-1] == '"') {
			return i, nil
		}
	}
	if depth != 0 {
		return 0, errors.New("unterminated value")
	}
	return i, nil
}

// skipString returns where the JSON string starting at data[i] ends.
func skipString(data []byte, i int) (int, error) {
	for i++; i < len(data); i++ {
		switch data[i] {
		case '\\':
			i++
		case '"':
			return i + 1, nil
		}
	}
	return 0, errors.New("unterminated string")
}

// decodeInts decodes the JSON array of integers data (or null) into
// *list, counting them first: more than limit is refused before anything
// is allocated, and the list takes exactly 8 bytes a count.
func decodeInts(data []byte, list *[]int64, limit int, what string) error {
	n, err := scanInts(data, nil, limit, what)
	if err != nil || n < 0 {
		*list = nil
		return err
	}
	out := make([]int64, n)
	if _, err := scanInts(data, out, limit, what); err != nil {
		return err
	}
	*list = out
	return nil
}

// scanInts reads the integers of the JSON array data into out (when out
// is not nil) and returns how many there are, -1 for null.
func scanInts(data []byte, out []int64, limit int, what string) (int, error) {
	i := skipSpace(data, 0)
	if bytes.HasPrefix(data[i:], []byte("null")) {
		return -1, nil
	}
	if i == len(data) || data[i] != '[' {
		return 0, fmt.Errorf("%s: want an array", what)
	}
	n := 0
	for i = skipSpace(data, i+1); i < len(data) && data[i] != ']'; n++ {
		if n == limit {
			return 0, fmt.Errorf("%s: more than %d", what, limit)
		}
		v, end, err := parseInt(data, i)
		if err != nil {
			return 0, fmt.Errorf("%s %d: %w", what, n, err)
		}
		if out != nil {
			out[n] = v
		}
		if i = skipSpace(data, end); i < len(data) && data[i] == ',' {
			i = skipSpace(data, i+1)
		} else if i == len(data) || data[i] != ']' {
			return 0, fmt.Errorf("%s %d: want an integer", what, n)
		}
	}
	if i == len(data) {
		return 0, fmt.Errorf("%s: unterminated array", what)
	}
	return n, nil
}

// parseInt reads a JSON integer at data[i].
func parseInt(data []byte, i int) (v int64, end int, err error) {
	neg := i < len(data) && data[i] == '-'
	if neg {
		i++
	}
	start := i
	for ; i < len(data) && data[i] >= '0' && data[i] <= '9'; i++ {
		d := int64(data[i] - '0')
		if v > (math.MaxInt64-d)/10 {
			return 0, 0, errors.New("integer overflows 64 bits")
		}
		v = v*10 + d
	}
	if i == start || i < len(data) && (data[i] == '.' || data[i] == 'e' || data[i] == 'E') {
		return 0, 0, errors.New("want an integer")
	}
	if neg {
		v = -v
	}
	return v, i, nil
}

type (
	categoryList       []Category
	metricList         []Metric
	quantileList       []Quantile
	probList           []float64
	countList          []int64
	pairedCategoryList []PairedCategory
	pairedMetricList   []PairedMetric
	jointRows          [][]int64
	sweepCellList      []SweepCell
)

func (l *categoryList) UnmarshalJSON(b []byte) error {
	return decodeList(b, (*[]Category)(l), MaxCategories, "categories")
}
func (l *metricList) UnmarshalJSON(b []byte) error {
	return decodeList(b, (*[]Metric)(l), MaxMetrics, "metrics")
}
func (l *quantileList) UnmarshalJSON(b []byte) error {
	return decodeList(b, (*[]Quantile)(l), maxQuantiles, "quantiles")
}
func (l *probList) UnmarshalJSON(b []byte) error {
	return decodeList(b, (*[]float64)(l), MaxSpan, "at_most")
}
func (l *countList) UnmarshalJSON(b []byte) error {
	return decodeInts(b, (*[]int64)(l), MaxSpan, "counts")
}
func (l *pairedCategoryList) UnmarshalJSON(b []byte) error {
	return decodeList(b, (*[]PairedCategory)(l), MaxCategories, "categories")
}
func (l *pairedMetricList) UnmarshalJSON(b []byte) error {
	return decodeList(b, (*[]PairedMetric)(l), MaxMetrics, "metrics")
}
func (l *sweepCellList) UnmarshalJSON(b []byte) error {
	return decodeList(b, (*[]SweepCell)(l), MaxCells, "cells")
}

// jointRow is one row of a comparison's joint table.
type jointRow []int64

func (l *jointRow) UnmarshalJSON(b []byte) error {
	return decodeInts(b, (*[]int64)(l), MaxCategories, "joint row")
}

func (l *jointRows) UnmarshalJSON(b []byte) error {
	var rows []jointRow
	if err := decodeList(b, &rows, MaxCategories, "joint"); err != nil {
		return err
	}
	*l = make([][]int64, len(rows))
	for i, r := range rows {
		(*l)[i] = r
	}
	return nil
}

// UnmarshalJSON reads a histogram, refusing more than MaxSpan counts, a
// negative count, and values beyond ±MaxMetricValue.
func (h *Histogram) UnmarshalJSON(b []byte) error {
	type plain Histogram
	var p struct {
		plain
		Counts countList `json:"counts"`
	}
	if err := json.Unmarshal(b, &p); err != nil {
		return fmt.Errorf("histogram: %w", err)
	}
	for i, c := range p.Counts {
		if c < 0 {
			return fmt.Errorf("histogram: count %d of value %d is negative", c, p.Min+i)
		}
	}
	if n := len(p.Counts); n > 0 && (p.Min < -MaxMetricValue || p.Min > MaxMetricValue-n+1) {
		return fmt.Errorf("histogram: values %d and %d more fall outside the allowed ±%d", p.Min, n-1, MaxMetricValue)
	}
	*h = Histogram(p.plain)
	h.Counts = p.Counts
	return nil
}

// UnmarshalJSON reads a metric, its lists bounded.
func (m *Metric) UnmarshalJSON(b []byte) error {
	type plain Metric
	var p struct {
		plain
		Quantiles quantileList `json:"quantiles"`
		AtMost    probList     `json:"at_most"`
	}
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	*m = Metric(p.plain)
	m.Quantiles, m.AtMost = p.Quantiles, p.AtMost
	return nil
}

// UnmarshalJSON reads a report, its lists bounded, and refuses a
// histogram that counts more values than the report's trials.
func (r *Report) UnmarshalJSON(b []byte) error {
	type plain Report
	var p struct {
		plain
		Categories categoryList `json:"categories"`
		Metrics    metricList   `json:"metrics"`
	}
	if err := json.Unmarshal(b, &p); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	if p.Trials < 0 {
		return fmt.Errorf("report %s: %d trials", brief(p.Name), p.Trials)
	}
	for _, m := range p.Metrics {
		if n := m.Hist.N(); n > p.Trials || n < 0 {
			return fmt.Errorf("report %s: metric %s counts %d values in %d trials", brief(p.Name), brief(m.Name), n, p.Trials)
		}
	}
	*r = Report(p.plain)
	r.Categories, r.Metrics = p.Categories, p.Metrics
	return nil
}

// UnmarshalJSON reads a paired difference, its lists bounded.
func (d *Paired) UnmarshalJSON(b []byte) error {
	type plain Paired
	var p struct {
		plain
		Categories pairedCategoryList `json:"categories"`
		Metrics    pairedMetricList   `json:"metrics"`
		Joint      jointRows          `json:"joint"`
	}
	if err := json.Unmarshal(b, &p); err != nil {
		return fmt.Errorf("paired difference: %w", err)
	}
	*d = Paired(p.plain)
	d.Categories, d.Metrics, d.Joint = p.Categories, p.Metrics, p.Joint
	return nil
}

// UnmarshalJSON reads a sweep, its cells bounded.
func (s *SweepReport) UnmarshalJSON(b []byte) error {
	type plain SweepReport
	var p struct {
		plain
		Cells sweepCellList `json:"cells"`
	}
	if err := json.Unmarshal(b, &p); err != nil {
		return fmt.Errorf("sweep: %w", err)
	}
	*s = SweepReport(p.plain)
	s.Cells = p.Cells
	return nil
}

// maxShown bounds a value quoted in an error, so that a hostile name or
// list of megabytes gives an error of a few hundred bytes.
const maxShown = 120

// clipped is s cut to maxShown bytes, with its whole length said.
func clipped(s string) string {
	if len(s) <= maxShown {
		return s
	}
	return strings.ToValidUTF8(s[:maxShown], "") + fmt.Sprintf("... (%d bytes)", len(s))
}

// brief formats v for an error message (strings and lists of strings
// quoted), cut as clipped cuts it.
func brief(v any) string {
	switch v.(type) {
	case string, []string:
		return clipped(fmt.Sprintf("%q", v))
	}
	return clipped(fmt.Sprint(v))
}

// errNoReport is returned by the writers of a comparison or sweep that
// lacks a report (as a decoded file may).
var errNoReport = errors.New("no report")
