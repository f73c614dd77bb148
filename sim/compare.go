package sim

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync/atomic"
	"time"
)

// Comparison is the result of Compare: each variant's own report and the
// paired difference A - B.
//
// JSON: a, b (Reports), diff (Paired).
type Comparison struct {
	A    *Report `json:"a"`
	B    *Report `json:"b"`
	Diff Paired  `json:"diff"`
}

// Paired is the trial-by-trial difference between two variants run on
// common random numbers. Its intervals are normal (mean ± 1.96 SE of the
// paired differences), which is sound at the trial counts a study uses.
//
// JSON: trials, categories, metrics, joint.
type Paired struct {
	Trials     int64            `json:"trials"`
	Categories []PairedCategory `json:"categories"`
	Metrics    []PairedMetric   `json:"metrics"`
	// Joint[i][j] counts the trials where A ended in category i and B in
	// category j: the diagonal is where the variants agreed.
	Joint [][]int64 `json:"joint"`
}

// PairedCategory is the difference P_A - P_B for one category.
//
// JSON: name, a_only, b_only, diff, se, lo, hi.
type PairedCategory struct {
	Name  string  `json:"name"`
	AOnly int64   `json:"a_only"` // trials where A ended here and B did not
	BOnly int64   `json:"b_only"` // trials where B ended here and A did not
	Diff  float64 `json:"diff"`   // (AOnly - BOnly) / Trials = P_A - P_B
	SE    float64 `json:"se"`
	Lo    float64 `json:"lo"`
	Hi    float64 `json:"hi"`
}

// PairedMetric is the difference A - B of one metric, trial by trial.
//
// JSON: name, mean, se, lo, hi, hist (the distribution of A - B).
type PairedMetric struct {
	Name string    `json:"name"`
	Mean float64   `json:"mean"`
	SE   float64   `json:"se"`
	Lo   float64   `json:"lo"`
	Hi   float64   `json:"hi"`
	Hist Histogram `json:"hist"`
}

// maxTableBytes bounds the memory Compare's joint tables may take.
const maxTableBytes = 1 << 30

// pairTally is the exact record of paired trials.
type pairTally struct {
	a, b  *tally
	joint []int64     // ncat x ncat, row = A's category
	diff  []Histogram // per metric, A - B
}

func newPairTally(ncat, nmet int) *pairTally {
	return &pairTally{a: newTally(ncat, nmet), b: newTally(ncat, nmet),
		joint: padded(ncat * ncat), diff: make([]Histogram, nmet)}
}

func (t *pairTally) reset() {
	t.a.reset()
	t.b.reset()
	clear(t.joint)
	for i := range t.diff {
		clear(t.diff[i].Counts)
	}
}

func (t *pairTally) merge(src *pairTally) error {
	for i := range t.diff {
		if err := t.diff[i].Merge(src.diff[i]); err != nil {
			return fmt.Errorf("sim: merging difference of metric %d: %w", i, err)
		}
	}
	if err := t.a.merge(src.a); err != nil {
		return err
	}
	if err := t.b.merge(src.b); err != nil {
		return err
	}
	for i, c := range src.joint {
		t.joint[i] += c
	}
	return nil
}

func (t *pairTally) record(oa, ob *Outcome) error {
	if err := t.a.record(oa); err != nil {
		return fmt.Errorf("variant A: %w", err)
	}
	if err := t.b.record(ob); err != nil {
		return fmt.Errorf("variant B: %w", err)
	}
	t.joint[oa.Category*len(t.a.cats)+ob.Category]++
	for k := range t.diff {
		if err := t.diff[k].Add(oa.Metrics[k] - ob.Metrics[k]); err != nil {
			return fmt.Errorf("difference of metric %d: %w", k, err)
		}
	}
	return nil
}

func (t *pairTally) paired(cats, mets []string) Paired {
	n := t.a.n
	nc := len(cats)
	p := Paired{Trials: n, Categories: make([]PairedCategory, nc), Metrics: make([]PairedMetric, len(mets)), Joint: make([][]int64, nc)}
	for i := range nc {
		p.Joint[i] = slices.Clone(t.joint[i*nc : (i+1)*nc])
	}
	for c, name := range cats {
		pc := PairedCategory{Name: name}
		for j := range nc {
			if j != c {
				pc.AOnly += t.joint[c*nc+j]
				pc.BOnly += t.joint[j*nc+c]
			}
		}
		if n > 0 {
			// D is +1 on AOnly trials, -1 on BOnly trials, else 0.
			nf := float64(n)
			pc.Diff = float64(pc.AOnly-pc.BOnly) / nf
			if n > 1 {
				v := (float64(pc.AOnly+pc.BOnly) - nf*pc.Diff*pc.Diff) / (nf - 1)
				pc.SE = math.Sqrt(max(v, 0) / nf)
			}
		}
		pc.Lo, pc.Hi = max(pc.Diff-z95*pc.SE, -1), min(pc.Diff+z95*pc.SE, 1)
		p.Categories[c] = pc
	}
	for k, name := range mets {
		h := t.diff[k].canonical()
		pm := PairedMetric{Name: name, Hist: h, Mean: h.Mean(), SE: h.SE()}
		pm.Lo, pm.Hi = pm.Mean-z95*pm.SE, pm.Mean+z95*pm.SE
		p.Metrics[k] = pm
	}
	return p
}

func (t *pairTally) precise(target, meanTarget float64, cats, mets []string) bool {
	if !t.a.precise(target, meanTarget) || !t.b.precise(target, meanTarget) {
		return false
	}
	p := t.paired(cats, mets)
	for _, c := range p.Categories {
		if z95*c.SE >= target {
			return false
		}
	}
	for i, m := range p.Metrics {
		if z95*m.SE >= meanLimit(target, meanTarget, t.a.hists[i].Mean(), t.b.hists[i].Mean()) {
			return false
		}
	}
	return true
}

// Compare runs variants a and b (which must have the same categories and
// metrics, in the same order) on common random numbers and reports each
// side and their paired difference. Trial k of the run (counting across
// chunks) starts both variants from the same stream, seeded from
// (Seed, k), so whatever the variants share they roll identically and only
// the rule change shows in the difference. Because of that per-trial
// seeding, the numbers do not depend on ChunkSize (except where a Precision
// stop falls), and A's report differs from Run(a) with the same options: it
// is an equally valid sample from other streams. Each trial costs two
// reseeds on top of the two variants' trials (cheap for PCG; ChaCha8's key
// setup makes it slower).
//
// Options mean what they mean for Run; a Precision target applies to every
// interval of A, B and the difference. Bad input is an ErrInvalid error
// and nothing runs. A trial of either variant that fails stops the
// comparison as it stops Run, its error naming the variant too.
func Compare(ctx context.Context, a, b Spec, opt Options) (*Comparison, error) {
	if ctx == nil {
		return nil, fmt.Errorf("%w: nil context (use context.Background())", ErrInvalid)
	}
	if err := a.validate(); err != nil {
		return nil, err
	}
	if err := b.validate(); err != nil {
		return nil, err
	}
	if !slices.Equal(a.Categories, b.Categories) {
		return nil, fmt.Errorf("%w: variants %s and %s must have the same categories in the same order: %s vs %s", ErrInvalid, brief(a.Name), brief(b.Name), brief(a.Categories), brief(b.Categories))
	}
	if !slices.Equal(a.Metrics, b.Metrics) {
		return nil, fmt.Errorf("%w: variants %s and %s must have the same metrics in the same order: %s vs %s", ErrInvalid, brief(a.Name), brief(b.Name), brief(a.Metrics), brief(b.Metrics))
	}
	cfg, err := opt.resolve()
	if err != nil {
		return nil, err
	}
	nw := cfg.workersFor()
	// Each accumulator holds a categories x categories table.
	if need := maxAccumulators(nw) * int64(len(a.Categories)*len(a.Categories)) * 8; need > maxTableBytes {
		return nil, fmt.Errorf("%w: comparing %d categories on %d workers needs %d MiB of joint tables (limit %d MiB); use fewer workers",
			ErrInvalid, len(a.Categories), nw, need>>20, maxTableBytes>>20)
	}
	base := mix64(mix64(cfg.Seed))
	ncat, nmet := len(a.Categories), len(a.Metrics)
	p := &plan[*pairTally]{
		cfg:     cfg,
		workers: nw,
		start: func(int) (chunkFunc[*pairTally], error) {
			ta, err := newTrial(a)
			if err != nil {
				return nil, err
			}
			tb, err := newTrial(b)
			if err != nil {
				return nil, err
			}
			return pairChunks(ta, tb, newStream(cfg.Generator, base), cfg.chunkSize), nil
		},
		newAcc: func() *pairTally { return newPairTally(ncat, nmet) },
		reset:  (*pairTally).reset,
		merge:  (*pairTally).merge,
		total:  newPairTally(ncat, nmet),
	}
	if cfg.Precision > 0 {
		p.enough = func(t *pairTally, _ int64) bool {
			return t.precise(cfg.Precision, cfg.MeanPrecision, a.Categories, a.Metrics)
		}
	}
	start := time.Now()
	end, stop, err := p.execute(ctx)
	if se := (*startError)(nil); errors.As(err, &se) {
		return nil, se.err
	}
	if err != nil {
		return nil, fmt.Errorf("sim: compare %s vs %s: %w", clipped(a.Name), clipped(b.Name), err)
	}
	elapsed := time.Since(start)
	c := &Comparison{
		A:    newReport(a.Name, a.Categories, a.Metrics, p.total.a, provenance(a.Settings, cfg, nw, cfg.lo, end, stop)),
		B:    newReport(b.Name, b.Categories, b.Metrics, p.total.b, provenance(b.Settings, cfg, nw, cfg.lo, end, stop)),
		Diff: p.total.paired(a.Categories, a.Metrics),
	}
	c.A.Elapsed, c.B.Elapsed = elapsed, elapsed
	return c, nil
}

// pairChunks returns the chunk function of one Compare worker.
func pairChunks(ta, tb Trial, s *stream, chunkSize int64) chunkFunc[*pairTally] {
	oa, ob := &s.out[0], &s.out[1]
	return func(chunk int64, n int, t *pairTally, stop *atomic.Bool) (bool, error) {
		first := chunk * chunkSize
		for i := range n {
			if stop.Load() {
				return false, nil
			}
			k := first + int64(i)
			s.reseed(k)
			*oa = Outcome{}
			if err := ta(&s.roller, oa); err != nil {
				return false, fmt.Errorf("trial %d of chunk %d, variant A: %w", i, chunk, err)
			}
			s.rewind()
			*ob = Outcome{}
			if err := tb(&s.roller, ob); err != nil {
				return false, fmt.Errorf("trial %d of chunk %d, variant B: %w", i, chunk, err)
			}
			if err := t.record(oa, ob); err != nil {
				return false, fmt.Errorf("trial %d of chunk %d: %w", i, chunk, err)
			}
		}
		t.a.n += int64(n)
		t.b.n += int64(n)
		return true, nil
	}
}

// MergeComparisons combines comparisons of disjoint chunk ranges of one
// study (shards run with Options.ChunkLo/ChunkHi), as Merge does for
// reports: the result is exactly the comparison one run over the union
// would give.
func MergeComparisons(parts ...*Comparison) (*Comparison, error) {
	if len(parts) == 0 {
		return nil, fmt.Errorf("%w: MergeComparisons needs at least one comparison", ErrInvalid)
	}
	as, bs := make([]*Report, len(parts)), make([]*Report, len(parts))
	for i, p := range parts {
		if p == nil || p.A == nil || p.B == nil {
			return nil, fmt.Errorf("%w: comparison %d is nil or lacks a side", ErrInvalid, i)
		}
		as[i], bs[i] = p.A, p.B
	}
	a, err := Merge(as...)
	if err != nil {
		return nil, fmt.Errorf("side A: %w", err)
	}
	b, err := Merge(bs...)
	if err != nil {
		return nil, fmt.Errorf("side B: %w", err)
	}
	cats, mets := names(a.Categories), metricNames(a.Metrics)
	if !slices.Equal(cats, names(b.Categories)) || !slices.Equal(mets, metricNames(b.Metrics)) {
		return nil, fmt.Errorf("%w: sides A and B have different categories or metrics", ErrInvalid)
	}
	total := newPairTally(len(cats), len(mets))
	if total.a, err = a.tally(); err != nil {
		return nil, fmt.Errorf("%w: side A: %v", ErrInvalid, err)
	}
	if total.b, err = b.tally(); err != nil {
		return nil, fmt.Errorf("%w: side B: %v", ErrInvalid, err)
	}
	for i, p := range parts {
		d := p.Diff
		if d.Trials != p.A.Trials || len(d.Joint) != len(cats) || len(d.Metrics) != len(mets) {
			return nil, fmt.Errorf("%w: comparison %d: the paired part does not match its sides", ErrInvalid, i)
		}
		var n int64
		for r, row := range d.Joint {
			if len(row) != len(cats) {
				return nil, fmt.Errorf("%w: comparison %d: joint table row %d has %d entries, want %d", ErrInvalid, i, r, len(row), len(cats))
			}
			for c, v := range row {
				if v < 0 {
					return nil, fmt.Errorf("%w: comparison %d: negative joint count", ErrInvalid, i)
				}
				total.joint[r*len(cats)+c] += v
				n += v
			}
		}
		if n != d.Trials {
			return nil, fmt.Errorf("%w: comparison %d: joint table counts %d trials, not %d", ErrInvalid, i, n, d.Trials)
		}
		for k, m := range d.Metrics {
			if m.Hist.N() != d.Trials {
				return nil, fmt.Errorf("%w: comparison %d: difference of %s counts %d trials, not %d", ErrInvalid, i, brief(m.Name), m.Hist.N(), d.Trials)
			}
			if err := total.diff[k].Merge(m.Hist); err != nil {
				return nil, fmt.Errorf("%w: comparison %d: difference of %s: %v", ErrInvalid, i, brief(m.Name), err)
			}
		}
	}
	return &Comparison{A: a, B: b, Diff: total.paired(cats, mets)}, nil
}
