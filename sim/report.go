package sim

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
	"time"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/dice/gof"
)

// z95 is the standard normal quantile for a two-sided 95% interval.
const z95 = 1.959963984540054

// quantileLevels are the quantiles every Metric reports.
var quantileLevels = [...]float64{0.05, 0.25, 0.5, 0.75, 0.95}

// Report is the result of a run. Its numbers are computed from exact
// integer counts (Category.Count and Metric.Hist), which is all Merge needs;
// the floating-point fields are derived from them and are the same bits
// whichever way the counts were gathered. Only Elapsed varies between
// identical runs (and Provenance.Workers between machines when
// Options.Workers is 0).
//
// JSON field names (stable): name, trials, categories, metrics, provenance,
// elapsed_ns (omitted when zero); see Category, Metric and Provenance.
type Report struct {
	Name       string     `json:"name"`       // Spec.Name
	Trials     int64      `json:"trials"`     // trials counted
	Categories []Category `json:"categories"` // in Spec.Categories order
	Metrics    []Metric   `json:"metrics"`    // in Spec.Metrics order
	Provenance Provenance `json:"provenance"`
	// Elapsed is the wall-clock time of the run (summed over merged parts).
	// It is the only field that differs between identical runs; set it to 0
	// for a reproducible encoding (it is then omitted from JSON and CSV).
	Elapsed time.Duration `json:"elapsed_ns,omitempty"`
}

// Provenance records what produced a report, so it can be reproduced.
//
// JSON: seed, planned_trials, chunk_size, chunks, chunk_lo, chunk_hi,
// workers, generator, precision (omitted when 0), settings, version, stop,
// partial.
type Provenance struct {
	Seed      uint64 `json:"seed"`
	Planned   int64  `json:"planned_trials"` // Options.Trials: the whole study (the cap with Precision)
	ChunkSize int    `json:"chunk_size"`
	Chunks    int64  `json:"chunks"` // chunks in the whole study
	// ChunkLo and ChunkHi are the chunks [ChunkLo, ChunkHi) the report
	// counts: a run, a shard of one, or a merge of shards.
	ChunkLo int64 `json:"chunk_lo"`
	ChunkHi int64 `json:"chunk_hi"`
	// Workers is how many goroutines ran (the most among merged parts). It
	// never changes the numbers.
	Workers   int     `json:"workers"`
	Generator string  `json:"generator"`
	Precision float64 `json:"precision,omitempty"` // Options.Precision
	// MeanPrecision is Options.MeanPrecision (omitted when 0).
	MeanPrecision float64           `json:"mean_precision,omitempty"`
	Settings      map[string]string `json:"settings"` // Spec.Settings
	Version       string            `json:"version"`  // the library Version
	// Stop says why the run ended: StopDone, StopPrecision or
	// StopCancelled.
	Stop string `json:"stop"`
	// Partial is true when the run was cancelled before it covered the
	// chunks it was asked for. A merge that covers the whole study is never
	// partial.
	Partial bool `json:"partial"`
}

// Category is how often trials ended in one outcome category.
//
// JSON: name, count, p, lo, hi.
type Category struct {
	Name  string  `json:"name"`
	Count int64   `json:"count"`
	P     float64 `json:"p"`  // Count / Trials (0 with no trials)
	Lo    float64 `json:"lo"` // Wilson 95% score interval for P
	Hi    float64 `json:"hi"`
}

// Metric summarises one integer metric over the trials.
//
// JSON: name, mean, se, sd, lo, hi, min, max, quantiles ([{q, value}]),
// hist ({min, counts}), at_most (P(value <= hist.min+i) per slot).
type Metric struct {
	Name   string  `json:"name"`
	Mean   float64 `json:"mean"`
	SE     float64 `json:"se"` // standard error of Mean (0 below two trials)
	StdDev float64 `json:"sd"` // sample standard deviation
	Lo     float64 `json:"lo"` // Mean - 1.96 SE
	Hi     float64 `json:"hi"` // Mean + 1.96 SE
	Min    int     `json:"min"`
	Max    int     `json:"max"`
	// Quantiles holds the 5%, 25%, 50%, 75% and 95% quantiles: for each q,
	// the smallest value v with P(X <= v) >= q.
	Quantiles []Quantile `json:"quantiles"`
	// Hist is the exact distribution of the metric (trimmed).
	Hist Histogram `json:"hist"`
	// AtMost[i] is the observed P(X <= Hist.Min+i): for rounds, the chance
	// of having finished by that round.
	AtMost []float64 `json:"at_most"`
}

// Quantile is one quantile of a metric.
type Quantile struct {
	Q     float64 `json:"q"`
	Value int     `json:"value"`
}

// wilson returns the Wilson score 95% interval for k successes in n
// trials; [0, 1] when n is 0. Unlike the normal interval it stays inside
// [0, 1] and behaves at p near 0 or 1 and small n.
func wilson(k, n int64) (lo, hi float64) { return wilsonZ(k, n, z95) }

// wilsonZ is the Wilson score interval at the normal quantile z (1.96 for
// 95%).
func wilsonZ(k, n int64, z float64) (lo, hi float64) {
	if n <= 0 {
		return 0, 1
	}
	nf := float64(n)
	p := float64(k) / nf
	z2 := z * z
	den := 1 + z2/nf
	center := (p + z2/(2*nf)) / den
	half := z / den * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf))
	lo, hi = max(center-half, 0), min(center+half, 1)
	// At the edges the interval is closed exactly at 0 or 1.
	if k == 0 {
		lo = 0
	}
	if k == n {
		hi = 1
	}
	return lo, hi
}

func newCategories(names []string, counts []int64, n int64) []Category {
	cs := make([]Category, len(names))
	for i, name := range names {
		c := Category{Name: name, Count: counts[i]}
		if n > 0 {
			c.P = float64(c.Count) / float64(n)
		}
		c.Lo, c.Hi = wilson(c.Count, n)
		cs[i] = c
	}
	return cs
}

func newMetric(name string, h Histogram) Metric {
	h = h.canonical()
	m := Metric{Name: name, Hist: h, Quantiles: make([]Quantile, len(quantileLevels)), AtMost: make([]float64, len(h.Counts))}
	n := h.N()
	for i, q := range quantileLevels {
		m.Quantiles[i] = Quantile{Q: q, Value: h.Quantile(q)}
	}
	if n == 0 {
		return m
	}
	m.Mean, m.SE, m.StdDev = h.Mean(), h.SE(), math.Sqrt(h.Variance())
	m.Lo, m.Hi = m.Mean-z95*m.SE, m.Mean+z95*m.SE
	m.Min, m.Max = h.Min, h.Max()
	var s int64
	for i, c := range h.Counts {
		s += c
		m.AtMost[i] = float64(s) / float64(n)
	}
	return m
}

func newReport(name string, cats, mets []string, t *tally, p Provenance) *Report {
	if p.Settings == nil {
		p.Settings = map[string]string{}
	}
	r := &Report{Name: name, Trials: t.n, Provenance: p, Metrics: make([]Metric, len(mets))}
	r.Categories = newCategories(cats, t.cats, t.n)
	for i, m := range mets {
		r.Metrics[i] = newMetric(m, t.hists[i])
	}
	return r
}

// Category returns the category named name, if the report has it.
func (r *Report) Category(name string) (Category, bool) {
	for _, c := range r.Categories {
		if c.Name == name {
			return c, true
		}
	}
	return Category{}, false
}

// Metric returns the metric named name, if the report has it.
func (r *Report) Metric(name string) (Metric, bool) {
	for _, m := range r.Metrics {
		if m.Name == name {
			return m, true
		}
	}
	return Metric{}, false
}

// tally rebuilds the exact counts behind r, checking they are consistent.
func (r *Report) tally() (*tally, error) {
	t := newTally(len(r.Categories), len(r.Metrics))
	var n int64
	for i, c := range r.Categories {
		if c.Count < 0 {
			return nil, fmt.Errorf("category %s has negative count %d", brief(c.Name), c.Count)
		}
		t.cats[i] = c.Count
		n += c.Count
	}
	if n != r.Trials {
		return nil, fmt.Errorf("category counts sum to %d but trials is %d", n, r.Trials)
	}
	for i, m := range r.Metrics {
		if err := t.hists[i].Merge(m.Hist); err != nil {
			return nil, fmt.Errorf("metric %s: %w", brief(m.Name), err)
		}
		if got := t.hists[i].N(); got != r.Trials {
			return nil, fmt.Errorf("metric %s histogram counts %d values but trials is %d", brief(m.Name), got, r.Trials)
		}
	}
	t.n = r.Trials
	return t, nil
}

// Merge combines reports of disjoint chunk ranges of one study (the same
// name, categories, metrics, seed, planned trials, chunk size, generator,
// settings and version) into the report of their union, which must be a
// contiguous range. The numbers are exactly those one run over that range
// would give, in whatever order the parts are passed. Parts are typically
// shards run by separate processes (Options.ChunkLo/ChunkHi) and saved as
// JSON, or a cancelled run and the run that resumed it.
func Merge(parts ...*Report) (*Report, error) {
	if len(parts) == 0 {
		return nil, fmt.Errorf("%w: Merge needs at least one report", ErrInvalid)
	}
	for i, p := range parts {
		if p == nil {
			return nil, fmt.Errorf("%w: report %d is nil", ErrInvalid, i)
		}
		pv := p.Provenance
		if pv.ChunkLo < 0 || pv.ChunkLo > pv.ChunkHi || pv.ChunkHi > pv.Chunks {
			return nil, fmt.Errorf("%w: report %d covers chunks [%d, %d), not a range within 0..%d", ErrInvalid, i, pv.ChunkLo, pv.ChunkHi, pv.Chunks)
		}
	}
	ps := slices.Clone(parts)
	slices.SortStableFunc(ps, func(a, b *Report) int {
		return cmp.Compare(a.Provenance.ChunkLo, b.Provenance.ChunkLo)
	})
	first := ps[0]
	total, err := first.tally()
	if err != nil {
		return nil, fmt.Errorf("%w: report for chunks [%d, %d): %v", ErrInvalid, first.Provenance.ChunkLo, first.Provenance.ChunkHi, err)
	}
	prov := first.Provenance
	prov.Settings = maps.Clone(prov.Settings)
	elapsed := first.Elapsed
	anyPartial, anyPrecision := prov.Partial, prov.Stop == StopPrecision
	for _, p := range ps[1:] {
		if err := sameStudy(first, p); err != nil {
			return nil, err
		}
		if p.Provenance.ChunkLo != prov.ChunkHi {
			if p.Provenance.ChunkLo < prov.ChunkHi {
				return nil, fmt.Errorf("%w: chunk ranges overlap: [%d, %d) and one from %d", ErrInvalid, first.Provenance.ChunkLo, prov.ChunkHi, p.Provenance.ChunkLo)
			}
			return nil, fmt.Errorf("%w: chunks [%d, %d) are missing between the parts", ErrInvalid, prov.ChunkHi, p.Provenance.ChunkLo)
		}
		t, err := p.tally()
		if err != nil {
			return nil, fmt.Errorf("%w: report for chunks [%d, %d): %v", ErrInvalid, p.Provenance.ChunkLo, p.Provenance.ChunkHi, err)
		}
		if err := total.merge(t); err != nil {
			return nil, fmt.Errorf("%w: %v", ErrInvalid, err)
		}
		prov.ChunkHi = p.Provenance.ChunkHi
		prov.Workers = max(prov.Workers, p.Provenance.Workers)
		elapsed += p.Elapsed
		anyPartial = anyPartial || p.Provenance.Partial
		anyPrecision = anyPrecision || p.Provenance.Stop == StopPrecision
	}
	whole := prov.ChunkLo == 0 && prov.ChunkHi == prov.Chunks
	prov.Partial = anyPartial && !whole
	switch {
	case prov.Partial:
		prov.Stop = StopCancelled
	case anyPrecision:
		prov.Stop = StopPrecision
	default:
		prov.Stop = StopDone
	}
	cats := make([]string, len(first.Categories))
	for i, c := range first.Categories {
		cats[i] = c.Name
	}
	mets := make([]string, len(first.Metrics))
	for i, m := range first.Metrics {
		mets[i] = m.Name
	}
	r := newReport(first.Name, cats, mets, total, prov)
	r.Elapsed = elapsed
	return r, nil
}

// sameStudy checks that b can be merged with a.
func sameStudy(a, b *Report) error {
	pa, pb := a.Provenance, b.Provenance
	diff := func(what string, x, y any) error {
		return fmt.Errorf("%w: cannot merge reports of different studies: %s %s vs %s", ErrInvalid, what, brief(x), brief(y))
	}
	switch {
	case a.Name != b.Name:
		return diff("name", a.Name, b.Name)
	case pa.Seed != pb.Seed:
		return diff("seed", pa.Seed, pb.Seed)
	case pa.Planned != pb.Planned:
		return diff("planned trials", pa.Planned, pb.Planned)
	case pa.ChunkSize != pb.ChunkSize:
		return diff("chunk size", pa.ChunkSize, pb.ChunkSize)
	case pa.Chunks != pb.Chunks:
		return diff("chunks", pa.Chunks, pb.Chunks)
	case pa.Generator != pb.Generator:
		return diff("generator", pa.Generator, pb.Generator)
	case pa.Version != pb.Version:
		return diff("version", pa.Version, pb.Version)
	case pa.Precision != pb.Precision:
		return diff("precision", pa.Precision, pb.Precision)
	case pa.MeanPrecision != pb.MeanPrecision:
		return diff("mean precision", pa.MeanPrecision, pb.MeanPrecision)
	case !maps.Equal(pa.Settings, pb.Settings):
		return diff("settings", pa.Settings, pb.Settings)
	case !slices.EqualFunc(a.Categories, b.Categories, func(x, y Category) bool { return x.Name == y.Name }):
		return diff("categories", names(a.Categories), names(b.Categories))
	case !slices.EqualFunc(a.Metrics, b.Metrics, func(x, y Metric) bool { return x.Name == y.Name }):
		return diff("metrics", metricNames(a.Metrics), metricNames(b.Metrics))
	}
	return nil
}

func names(cs []Category) []string {
	s := make([]string, len(cs))
	for i, c := range cs {
		s[i] = c.Name
	}
	return s
}

func metricNames(ms []Metric) []string {
	s := make([]string, len(ms))
	for i, m := range ms {
		s[i] = m.Name
	}
	return s
}

// FitCategories checks the category counts against exact probabilities p
// (aligned with Categories, as a rule package's Exact().P is) with
// Pearson's chi-square test via gof.ChiSquare. A category p gives no
// probability but that was observed fails the fit with an error.
func (r *Report) FitCategories(p []float64) (gof.Fit, error) {
	if len(p) != len(r.Categories) {
		return gof.Fit{}, fmt.Errorf("%w: %d probabilities for %d categories", ErrInvalid, len(p), len(r.Categories))
	}
	obs := make(map[int]int64, len(p))
	for i, c := range r.Categories {
		obs[i] = c.Count
	}
	return gof.ChiSquare(dice.Dist{Min: 0, P: p}, obs)
}
