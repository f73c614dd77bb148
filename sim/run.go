package sim

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"sync/atomic"
	"time"
)

// tally is the exact integer record of some trials: a count per category
// and a histogram per metric. Everything a Report says is computed from it.
type tally struct {
	n     int64
	cats  []int64
	hists []Histogram
}

func newTally(ncat, nmet int) *tally {
	return &tally{cats: padded(ncat), hists: make([]Histogram, nmet)}
}

// reset empties t but keeps its storage (and histogram ranges), so a
// worker's next chunk allocates nothing.
func (t *tally) reset() {
	t.n = 0
	clear(t.cats)
	for i := range t.hists {
		clear(t.hists[i].Counts)
	}
}

func (t *tally) merge(src *tally) error {
	for i := range t.hists {
		if err := t.hists[i].Merge(src.hists[i]); err != nil {
			return fmt.Errorf("sim: merging metric %d: %w", i, err)
		}
	}
	t.n += src.n
	for i, c := range src.cats {
		t.cats[i] += c
	}
	return nil
}

// record counts one outcome. It is the harness's whole per-trial work.
func (t *tally) record(o *Outcome) error {
	c := o.Category
	if uint(c) >= uint(len(t.cats)) {
		return fmt.Errorf("category %d is out of range 0..%d", c, len(t.cats)-1)
	}
	t.cats[c]++
	for k := range t.hists {
		h := &t.hists[k]
		v := o.Metrics[k]
		if i := v - h.Min; uint(i) < uint(len(h.Counts)) {
			h.Counts[i]++
		} else if err := h.addSlow(v); err != nil {
			return fmt.Errorf("metric %d: %w", k, err)
		}
	}
	return nil
}

// precise reports whether every interval the tally's report would show is
// narrower than ±target.
func (t *tally) precise(target, meanTarget float64) bool {
	for _, c := range t.cats {
		lo, hi := wilson(c, t.n)
		if (hi-lo)/2 >= target {
			return false
		}
	}
	for _, h := range t.hists {
		if z95*h.SE() >= meanLimit(target, meanTarget, h.Mean()) {
			return false
		}
	}
	return true
}

// meanLimit is the half-width a metric's mean must fall below: target in
// the metric's own units, or, with a relative meanTarget, that share of
// the mean's magnitude (of at least 1, so a mean near 0 is not held to a
// vanishing interval).
func meanLimit(target, meanTarget float64, means ...float64) float64 {
	if meanTarget <= 0 {
		return target
	}
	m := 1.0
	for _, x := range means {
		m = max(m, math.Abs(x))
	}
	return meanTarget * m
}

// Run runs opt.Trials trials of spec (or the chunk range opt selects) and
// reports. Bad input is an error wrapping ErrInvalid, returned before any
// trial runs; so is an error from spec.New.
//
// A trial that fails (returns an error, reports a category or a metric
// value out of range, or panics) stops the run with no report and an error
// naming the spec, the chunk and the trial in it, both counted from 0
// ("sim: contest: trial 36 of chunk 2: ..."): rerun that chunk alone with
// ChunkSource to see it again. A trial's own error is wrapped, so
// errors.Is and errors.As reach it. When trials fail on several workers
// at once, the error is the first one handed in.
//
// If ctx is cancelled, Run returns promptly (each worker finishes the trial
// it is playing, then abandons its chunk) with the prefix of chunks counted
// so far, marked partial (Provenance.Stop is StopCancelled), and a nil
// error. Resume it by running chunks from Provenance.ChunkHi on and merging.
func Run(ctx context.Context, spec Spec, opt Options) (*Report, error) {
	if ctx == nil {
		return nil, fmt.Errorf("%w: nil context (use context.Background())", ErrInvalid)
	}
	if err := spec.validate(); err != nil {
		return nil, err
	}
	cfg, err := opt.resolve()
	if err != nil {
		return nil, err
	}
	nw := cfg.workersFor()
	base := mix64(cfg.Seed)
	ncat, nmet := len(spec.Categories), len(spec.Metrics)
	p := &plan[*tally]{
		cfg:     cfg,
		workers: nw,
		start: func(int) (chunkFunc[*tally], error) {
			trial, err := newTrial(spec)
			if err != nil {
				return nil, err
			}
			return runChunks(trial, newStream(cfg.Generator, base)), nil
		},
		newAcc: func() *tally { return newTally(ncat, nmet) },
		reset:  (*tally).reset,
		merge:  (*tally).merge,
		total:  newTally(ncat, nmet),
	}
	if cfg.Precision > 0 {
		p.enough = func(t *tally, _ int64) bool { return t.precise(cfg.Precision, cfg.MeanPrecision) }
	}
	start := time.Now()
	end, stop, err := p.execute(ctx)
	if se := (*startError)(nil); errors.As(err, &se) {
		return nil, se.err
	}
	if err != nil {
		return nil, fmt.Errorf("sim: %s: %w", clipped(spec.Name), err)
	}
	rep := newReport(spec.Name, spec.Categories, spec.Metrics, p.total, provenance(spec.Settings, cfg, nw, cfg.lo, end, stop))
	rep.Elapsed = time.Since(start)
	return rep, nil
}

func newTrial(spec Spec) (Trial, error) {
	trial, err := spec.New()
	if err != nil {
		return nil, fmt.Errorf("sim: %s: New: %w", clipped(spec.Name), err)
	}
	if trial == nil {
		return nil, fmt.Errorf("%w: spec %s: New returned a nil Trial", ErrInvalid, brief(spec.Name))
	}
	return trial, nil
}

// runChunks returns the chunk function of one Run worker: reseed the
// worker's stream for the chunk, then play and record its trials in order.
func runChunks(trial Trial, s *stream) chunkFunc[*tally] {
	o := &s.out[0] // lives with the worker: no allocation per chunk
	return func(chunk int64, n int, t *tally, stop *atomic.Bool) (bool, error) {
		s.reseed(chunk)
		r := &s.roller
		// tally.record, written out so the per-trial work inlines.
		cats, hists := t.cats, t.hists
		// Only the category and this spec's metrics are ever read, so only
		// they are cleared before each trial: the metrics as they are
		// recorded, ready for the next trial (one pass instead of two), and
		// all of them once here, in case a trial of the last chunk stopped
		// with an error before they were.
		ms := o.Metrics[:len(hists)]
		clear(ms)
		for i := range n {
			if stop.Load() {
				return false, nil
			}
			o.Category = 0
			if err := trial(r, o); err != nil {
				return false, fmt.Errorf("trial %d of chunk %d: %w", i, chunk, err)
			}
			c := o.Category
			if uint(c) >= uint(len(cats)) {
				return false, fmt.Errorf("trial %d of chunk %d: category %d is out of range 0..%d", i, chunk, c, len(cats)-1)
			}
			cats[c]++
			for k, v := range ms {
				ms[k] = 0
				h := &hists[k]
				if j := v - h.Min; uint(j) < uint(len(h.Counts)) {
					h.Counts[j]++
				} else if err := h.addSlow(v); err != nil {
					return false, fmt.Errorf("trial %d of chunk %d: metric %d: %w", i, chunk, k, err)
				}
			}
		}
		t.n += int64(n)
		return true, nil
	}
}

func provenance(settings map[string]string, cfg config, workers int, lo, hi int64, stop string) Provenance {
	return Provenance{
		Seed:          cfg.Seed,
		Planned:       cfg.Trials,
		ChunkSize:     cfg.ChunkSize,
		Chunks:        cfg.chunks,
		ChunkLo:       lo,
		ChunkHi:       hi,
		Workers:       workers,
		Generator:     cfg.Generator,
		Precision:     cfg.Precision,
		MeanPrecision: cfg.MeanPrecision,
		Settings:      maps.Clone(settings),
		Version:       Version,
		Stop:          stop,
		Partial:       stop == StopCancelled,
	}
}
