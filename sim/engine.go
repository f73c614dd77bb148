package sim

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
)

// Why a run stopped, as recorded in Provenance.Stop.
const (
	StopDone      = "done"      // every requested chunk ran
	StopPrecision = "precision" // Options.Precision was reached
	StopCancelled = "cancelled" // the context was cancelled; the report is partial
)

// checkEvery is how many trials a worker runs between looks at the stop
// flag: often enough that cancellation is prompt, rarely enough to cost
// nothing.
const checkEvery = 64

// chunkFunc runs the n trials of one chunk into a (reset beforehand). It
// returns finished=false if it saw stop and abandoned the chunk.
type chunkFunc[A any] func(chunk int64, n int, a A, stop *atomic.Bool) (finished bool, err error)

// plan is one run of the chunk engine over accumulators of type A (a tally
// for Run, a paired tally for Compare).
type plan[A any] struct {
	cfg     config
	runners []chunkFunc[A] // one per worker
	newAcc  func() A
	reset   func(A)
	merge   func(dst, src A) error
	total   A
	// enough reports whether the precision target is met; nil when
	// Options.Precision is 0.
	enough func(total A, trials int64) bool
}

type chunkResult[A any] struct {
	chunk    int64
	acc      A
	finished bool
	err      error
}

// execute runs the chunks [cfg.lo, cfg.hi) on len(runners) goroutines and
// merges their accumulators into total strictly in chunk order, so that
// total always covers a prefix [cfg.lo, end) of the range. It stops early on
// cancellation (end is then whatever prefix was merged), on reaching the
// precision target (checked after each merged chunk, so the stopping point
// does not depend on scheduling), or on the first error.
func (p *plan[A]) execute(ctx context.Context) (end int64, stop string, err error) {
	cfg := p.cfg
	// Enough accumulators that workers rarely wait for the merger; a worker
	// takes one before it takes a chunk index, so the lowest unmerged chunk
	// always has one and the merge can never deadlock.
	nacc := int(min(int64(2*len(p.runners)+2), cfg.hi-cfg.lo))
	free := make(chan A, nacc)
	for range nacc {
		free <- p.newAcc()
	}
	results := make(chan chunkResult[A], nacc)
	quit := make(chan struct{})
	var halt atomic.Bool
	var next atomic.Int64
	next.Store(cfg.lo)

	var wg sync.WaitGroup
	for _, run := range p.runners {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				var a A
				select {
				case a = <-free:
				case <-quit:
					return
				}
				if halt.Load() {
					return
				}
				i := next.Add(1) - 1
				if i >= cfg.hi {
					return
				}
				n := int(cfg.trialsIn(i, i+1))
				ok, err := guard(run, i, n, a, &halt)
				results <- chunkResult[A]{i, a, ok, err}
			}
		}()
	}
	go func() {
		wg.Wait()
		close(results)
	}()

	end, stop = cfg.lo, StopDone
	total := cfg.trialsIn(cfg.lo, cfg.hi)
	var done int64
	pending := make(map[int64]A)
	stopped := false
	halt1 := func(why string) {
		if !stopped {
			stopped, stop = true, why
			halt.Store(true)
			close(quit)
		}
	}
	// If the caller's Progress callback panics, stop the workers before the
	// panic leaves this frame.
	defer func() {
		if !stopped {
			stopped = true
			halt.Store(true)
			close(quit)
		}
	}()
	ctxDone := ctx.Done()
	for {
		select {
		case <-ctxDone:
			ctxDone = nil
			halt1(StopCancelled)
		case r, ok := <-results:
			if !ok {
				if err == nil && !stopped && end < cfg.hi {
					// Cannot happen: workers only quit once every chunk is taken.
					err = fmt.Errorf("sim: internal error: run ended at chunk %d of %d", end, cfg.hi)
				}
				return end, stop, err
			}
			if stopped {
				continue // drain: nothing past the stop is counted
			}
			if r.err != nil {
				err = r.err
				halt1(StopCancelled)
				continue
			}
			if !r.finished {
				continue
			}
			pending[r.chunk] = r.acc
			for {
				a, ok := pending[end]
				if !ok {
					break
				}
				delete(pending, end)
				if merr := p.merge(p.total, a); merr != nil {
					err = merr
					halt1(StopCancelled)
					break
				}
				p.reset(a)
				free <- a
				done += cfg.trialsIn(end, end+1)
				end++
				if cfg.Progress != nil {
					cfg.Progress(done, total)
				}
				if p.enough != nil && done >= MinPrecisionTrials && end < cfg.hi && p.enough(p.total, done) {
					halt1(StopPrecision)
					break
				}
			}
		}
	}
}

// guard runs one chunk, turning a panic in the trial into an error so a
// faulty trial function cannot crash the caller's program.
func guard[A any](run chunkFunc[A], chunk int64, n int, a A, stop *atomic.Bool) (ok bool, err error) {
	defer func() {
		if v := recover(); v != nil {
			ok, err = false, fmt.Errorf("sim: a trial in chunk %d panicked: %v", chunk, v)
		}
	}()
	return run(chunk, n, a, stop)
}
