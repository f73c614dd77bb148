package sim

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
)

// MaxCells bounds the number of cells in a Sweep grid.
const MaxCells = 10_000

// Axis is one parameter of a sweep and the values it takes, as text (a
// scenario field, a policy name, a number).
//
// JSON: name, values.
type Axis struct {
	Name   string   `json:"name"`
	Values []string `json:"values"`
}

// IntAxis returns the axis name = lo, lo+1, ..., hi (empty when hi < lo).
func IntAxis(name string, lo, hi int) Axis {
	a := Axis{Name: name}
	for v := lo; v <= hi && len(a.Values) <= MaxCells; v++ {
		a.Values = append(a.Values, strconv.Itoa(v))
	}
	return a
}

// Cell is one point of a sweep grid: axis name -> value.
type Cell map[string]string

// Int returns the value of axis name as an integer.
func (c Cell) Int(name string) (int, error) {
	s, ok := c[name]
	if !ok {
		return 0, fmt.Errorf("sim: the sweep has no axis %s", brief(name))
	}
	v, err := strconv.Atoi(s)
	if err != nil {
		return 0, fmt.Errorf("sim: axis %s value %s is not an integer", brief(name), brief(s))
	}
	return v, nil
}

// SweepReport holds one report per cell of a grid, in row-major order (the
// last axis varies fastest).
//
// JSON: axes, cells ([{values, report}]), partial.
type SweepReport struct {
	Axes  []Axis      `json:"axes"`
	Cells []SweepCell `json:"cells"`
	// Partial is true when the sweep was cancelled: the last cell's report
	// is partial and the cells after it are missing.
	Partial bool `json:"partial"`
}

// SweepCell is one cell of a sweep: its axis values (aligned with
// SweepReport.Axes) and its report.
type SweepCell struct {
	Values []string `json:"values"`
	Report *Report  `json:"report"`
}

// Sweep runs one Spec per cell of the grid the axes span: build turns a
// Cell into a Spec, and each cell is run with opt (the same seed, so
// neighbouring cells share random streams and their differences are not
// swamped by noise). The axis values are added to each report's settings.
// Every cell must have the same categories and metrics, so the results
// form one table (see WriteCSV).
//
// All cells are built and checked before any trial runs. Progress, if set,
// counts trials across the whole sweep. A trial that fails stops the sweep
// as it stops Run, its error naming the cell too.
func Sweep(ctx context.Context, axes []Axis, build func(Cell) (Spec, error), opt Options) (*SweepReport, error) {
	if ctx == nil {
		return nil, fmt.Errorf("%w: nil context (use context.Background())", ErrInvalid)
	}
	if build == nil {
		return nil, fmt.Errorf("%w: nil build function for the sweep", ErrInvalid)
	}
	cells, err := gridCells(axes)
	if err != nil {
		return nil, err
	}
	cfg, err := opt.resolve()
	if err != nil {
		return nil, err
	}
	specs := make([]Spec, len(cells))
	for i, vals := range cells {
		cell := make(Cell, len(axes))
		for j, a := range axes {
			cell[a.Name] = vals[j]
		}
		s, err := build(cell)
		if err != nil {
			return nil, fmt.Errorf("sim: sweep cell %s: %w", brief(cell), err)
		}
		if err := s.validate(); err != nil {
			return nil, fmt.Errorf("sweep cell %s: %w", brief(cell), err)
		}
		if i > 0 && (!slices.Equal(s.Categories, specs[0].Categories) || !slices.Equal(s.Metrics, specs[0].Metrics)) {
			return nil, fmt.Errorf("%w: sweep cell %s has categories %s and metrics %s, but the first cell has %s and %s; every cell must match",
				ErrInvalid, brief(cell), brief(s.Categories), brief(s.Metrics), brief(specs[0].Categories), brief(specs[0].Metrics))
		}
		settings := maps.Clone(s.Settings)
		if settings == nil {
			settings = map[string]string{}
		}
		maps.Copy(settings, cell)
		s.Settings = settings
		specs[i] = s
	}
	perCell := cfg.trialsIn(cfg.lo, cfg.hi)
	grand := perCell * int64(len(cells))
	sr := &SweepReport{Axes: cloneAxes(axes)}
	var before int64
	for i, s := range specs {
		o := opt
		if opt.Progress != nil {
			base := before
			o.Progress = func(done, _ int64) { opt.Progress(base+done, grand) }
		}
		r, err := Run(ctx, s, o)
		if err != nil {
			return nil, fmt.Errorf("sweep cell %s: %w", brief(cells[i]), err)
		}
		sr.Cells = append(sr.Cells, SweepCell{Values: cells[i], Report: r})
		before += r.Trials
		if r.Provenance.Partial {
			sr.Partial = true
			break
		}
	}
	return sr, nil
}

// gridCells checks the axes and lists the cells' values in row-major order.
func gridCells(axes []Axis) ([][]string, error) {
	if len(axes) == 0 {
		return nil, fmt.Errorf("%w: a sweep needs at least one axis", ErrInvalid)
	}
	n := 1
	seen := map[string]bool{}
	for i, a := range axes {
		if a.Name == "" {
			return nil, fmt.Errorf("%w: sweep axis %d has no name", ErrInvalid, i)
		}
		if seen[a.Name] {
			return nil, fmt.Errorf("%w: sweep axis %s appears twice", ErrInvalid, brief(a.Name))
		}
		seen[a.Name] = true
		if len(a.Values) == 0 {
			return nil, fmt.Errorf("%w: sweep axis %s has no values", ErrInvalid, brief(a.Name))
		}
		vs := map[string]bool{}
		for _, v := range a.Values {
			if vs[v] {
				return nil, fmt.Errorf("%w: sweep axis %s lists %s twice", ErrInvalid, brief(a.Name), brief(v))
			}
			vs[v] = true
		}
		if len(a.Values) > MaxCells || n*len(a.Values) > MaxCells {
			return nil, fmt.Errorf("%w: the sweep grid has more than %d cells", ErrInvalid, MaxCells)
		}
		n *= len(a.Values)
	}
	cells := make([][]string, 0, n)
	idx := make([]int, len(axes))
	for range n {
		vals := make([]string, len(axes))
		for j, a := range axes {
			vals[j] = a.Values[idx[j]]
		}
		cells = append(cells, vals)
		for j := len(axes) - 1; j >= 0; j-- {
			idx[j]++
			if idx[j] < len(axes[j].Values) {
				break
			}
			idx[j] = 0
		}
	}
	return cells, nil
}

func cloneAxes(axes []Axis) []Axis {
	out := make([]Axis, len(axes))
	for i, a := range axes {
		out[i] = Axis{Name: a.Name, Values: slices.Clone(a.Values)}
	}
	return out
}

// MergeSweeps combines sweeps of the same grid run over disjoint chunk
// ranges of one study, merging each cell's reports with Merge. Every part
// must hold every cell.
func MergeSweeps(parts ...*SweepReport) (*SweepReport, error) {
	if len(parts) == 0 {
		return nil, fmt.Errorf("%w: MergeSweeps needs at least one sweep", ErrInvalid)
	}
	first := parts[0]
	if first == nil {
		return nil, fmt.Errorf("%w: sweep 0 is nil", ErrInvalid)
	}
	out := &SweepReport{Axes: cloneAxes(first.Axes)}
	for i, p := range parts {
		if p == nil {
			return nil, fmt.Errorf("%w: sweep %d is nil", ErrInvalid, i)
		}
		if !slices.EqualFunc(p.Axes, first.Axes, func(a, b Axis) bool { return a.Name == b.Name && slices.Equal(a.Values, b.Values) }) {
			return nil, fmt.Errorf("%w: sweep %d has different axes", ErrInvalid, i)
		}
		if len(p.Cells) != len(first.Cells) {
			return nil, fmt.Errorf("%w: sweep %d has %d cells, sweep 0 has %d (a cancelled sweep lacks cells)", ErrInvalid, i, len(p.Cells), len(first.Cells))
		}
	}
	for c, cell := range first.Cells {
		reps := make([]*Report, len(parts))
		for i, p := range parts {
			if !slices.Equal(p.Cells[c].Values, cell.Values) {
				return nil, fmt.Errorf("%w: sweep %d cell %d is %s, sweep 0 has %s", ErrInvalid, i, c, brief(p.Cells[c].Values), brief(cell.Values))
			}
			reps[i] = p.Cells[c].Report
		}
		r, err := Merge(reps...)
		if err != nil {
			return nil, fmt.Errorf("sweep cell %s: %w", brief(cell.Values), err)
		}
		out.Cells = append(out.Cells, SweepCell{Values: slices.Clone(cell.Values), Report: r})
		out.Partial = out.Partial || r.Provenance.Partial
	}
	return out, nil
}
