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

// chunkFunc runs the n trials of one chunk into a (empty beforehand). It
// looks at stop before every trial, so that even a run of slow trials
// stops promptly, and returns finished=false, abandoning the chunk, once
// stop is set.
type chunkFunc[A any] func(chunk int64, n int, a A, stop *atomic.Bool) (finished bool, err error)

// plan is one run of the chunk engine over accumulators of type A (a tally
// for Run, a paired tally for Compare).
type plan[A any] struct {
	cfg     config
	workers int
	// start makes worker w's chunk function and everything it writes per
	// trial (the trial's scratch, the stream, the outcomes). Each worker
	// calls it on its own goroutine, one worker at a time, before any
	// trial runs: what a worker writes is then allocated by the worker
	// itself, not next to the other workers' scratch in one goroutine's
	// run of allocations, where two workers writing to one cache line
	// would take turns at it.
	start  func(w int) (chunkFunc[A], error)
	newAcc func() A
	reset  func(A)
	merge  func(dst, src A) error
	total  A
	// enough reports whether the precision target is met; nil when
	// Options.Precision is 0.
	enough func(total A, trials int64) bool
}

// windowFor is how many chunks, from the lowest one not yet counted, may
// be handed out at once on this many workers. Chunks finish in any order
// but are counted in order, so a chunk that finishes early waits, with its
// accumulator, until the chunks before it are counted; the window bounds
// how many wait. It is wide enough that a worker descheduled for a few
// chunks' time does not fill it.
func windowFor(workers int) int64 { return 4 * int64(workers) }

// maxAccumulators is the most accumulators a run on this many workers ever
// holds: one per chunk of the window, one more per worker (a worker
// rerunning a late chunk holds its own), and the total.
func maxAccumulators(workers int) int64 { return windowFor(workers) + int64(workers) + 1 }

// execute runs the chunks [cfg.lo, cfg.hi) on len(runners) goroutines and
// merges their accumulators into total strictly in chunk order, so that
// total always covers a prefix [cfg.lo, end) of the range. It stops early on
// cancellation (end is then whatever prefix was counted), on reaching the
// precision target (checked after each counted chunk, so the stopping point
// does not depend on scheduling), or on the first error.
//
// No worker waits for another or for the count while fresh chunks remain
// in the window; see engine.take for what a worker does when the window is
// full. If the Progress callback panics, the workers are stopped and the
// panic is raised again here, on the caller's goroutine.
func (p *plan[A]) execute(ctx context.Context) (end int64, stop string, err error) {
	e := newEngine(p, ctx)
	var wg sync.WaitGroup
	e.started.Add(p.workers)
	for w := range p.workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			run, ok := e.begin(w)
			e.started.Wait()
			if ok && e.startErr == nil {
				e.work(&e.workers[w], run)
			}
		}()
	}
	finished := make(chan struct{})
	go func() {
		wg.Wait()
		close(finished)
	}()
	select {
	case <-ctx.Done():
		e.mu.Lock()
		e.halt(StopCancelled, nil)
		e.mu.Unlock()
		<-finished
	case <-finished:
	}
	if e.panicked {
		panic(e.panicValue)
	}
	return e.result()
}

// engine is the shared state of one execute call.
type engine[A any] struct {
	*plan[A]
	ctx     context.Context
	window  int64
	workers []worker

	// Starting: every worker makes its chunk function (plan.start), one
	// at a time under starting, and waits on started for all the others;
	// startErr, the first start that failed, is read only after that.
	starting sync.Mutex
	started  sync.WaitGroup
	startErr error
	spacers  [][]any // see newSpacer

	// Counting: touched only by the worker that is folding (see fold), and
	// read by execute once every worker has returned.
	done       int64 // trials in the counted chunks [lo, end)
	panicked   bool  // the Progress callback panicked with panicValue
	panicValue any

	mu      sync.Mutex // guards everything below
	moved   sync.Cond  // broadcast when a chunk finishes or is counted, or the run halts
	next    int64      // the lowest chunk not yet handed out
	end     int64      // chunks [lo, end) are counted into total
	slots   []slot[A]  // the handed-out chunks not yet counted (see slot)
	free    []A        // empty accumulators ready for reuse
	folding bool       // a worker is counting finished chunks (see fold)
	halted  bool
	stop    string
	err     error
}

// slot is the engine's record of one handed-out chunk of the window.
type slot[A any] struct {
	acc    A    // the chunk's accumulator, once full
	full   bool // the chunk finished and waits to be counted
	shared bool // a second worker reruns it (see late)
}

// worker is the engine's record of one worker goroutine.
type worker struct {
	// abandon tells the worker to drop its chunk: the run halted, or
	// another worker finished the chunk first. The worker looks at it
	// before every trial.
	abandon atomic.Bool
	chunk   int64 // the chunk it runs, or -1; guarded by engine.mu
}

func newEngine[A any](p *plan[A], ctx context.Context) *engine[A] {
	e := &engine[A]{
		plan:    p,
		ctx:     ctx,
		window:  windowFor(p.workers),
		workers: make([]worker, p.workers),
		next:    p.cfg.lo,
		end:     p.cfg.lo,
		// Chunks [end, min(end+window, hi)) are the most in flight at once.
		slots: make([]slot[A], min(windowFor(p.workers), p.cfg.hi-p.cfg.lo)),
	}
	e.moved.L = &e.mu
	for k := range e.workers {
		e.workers[k].chunk = -1
	}
	return e
}

// startError is an error of plan.start, which Run and Compare return as
// it is: no trial ran.
type startError struct{ err error }

func (e *startError) Error() string { return e.err.Error() }
func (e *startError) Unwrap() error { return e.err }

// begin makes worker w's chunk function on the worker's goroutine, one
// worker at a time, and records the first failure (an error, a panic, a
// runtime.Goexit) in startErr. Every worker calls it exactly once.
func (e *engine[A]) begin(w int) (run chunkFunc[A], ok bool) {
	defer e.started.Done()
	e.starting.Lock()
	defer e.starting.Unlock()
	var err error
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("sim: making worker %d's trial panicked: %v", w, v)
		} else if !ok && err == nil {
			err = fmt.Errorf("sim: making worker %d's trial ended its goroutine (runtime.Goexit)", w)
		}
		if err != nil && e.startErr == nil {
			e.startErr = &startError{err}
		}
	}()
	if e.startErr != nil {
		return nil, true // another worker failed: this one will not run
	}
	run, err = e.start(w)
	e.spacers = append(e.spacers, newSpacer())
	return run, err == nil
}

// spacerReach is how far apart, in bytes, the spacer keeps the small
// objects of two workers: two cache lines, since a core may fetch lines
// in pairs.
const spacerReach = 128

// spacerSizes are sizes of small objects, one in each of Go's size
// classes up to 1 KiB.
var spacerSizes = [...]int{8, 16, 24, 32, 48, 64, 80, 96, 112, 128, 144, 160, 176, 192, 208, 224, 240, 256,
	288, 320, 352, 384, 416, 448, 480, 512, 576, 640, 704, 768, 896, 1024}

// newSpacer allocates, for every small size, enough objects of that size
// to cover spacerReach bytes, with pointers and without (Go keeps the two
// kinds apart). Go hands out small objects of one size one after another
// from the same block, so two workers' scratch made one after another
// (even on their own goroutines, which may share a processor) would lie
// side by side and the workers would fight over one cache line on every
// trial; a spacer made between them keeps them apart. It is kept until
// the run ends, so that nothing else takes its place. About 14 KiB.
func newSpacer() []any {
	var keep []any
	for _, size := range spacerSizes {
		for range spacerReach/size + 1 {
			keep = append(keep, make([]byte, size), make([]*byte, size/8))
		}
	}
	return keep
}

// result is what execute returns once every worker has stopped.
func (e *engine[A]) result() (end int64, stop string, err error) {
	switch {
	case e.startErr != nil:
		return e.end, StopCancelled, e.startErr
	case e.err != nil:
		return e.end, StopCancelled, e.err
	case e.end == e.cfg.hi:
		return e.end, StopDone, nil // every chunk counted, even if a cancel came last
	case !e.halted:
		// Cannot happen: workers only quit once every chunk is counted or the run halted.
		return e.end, StopCancelled, fmt.Errorf("sim: internal error: run ended at chunk %d of %d", e.end, e.cfg.hi)
	}
	return e.end, e.stop, nil
}

// work is one worker goroutine: take a chunk, run it, hand it in, until
// take says there is nothing left to do.
func (e *engine[A]) work(wk *worker, run chunkFunc[A]) {
	returned := false
	defer func() {
		if !returned {
			// A trial or the Progress callback called runtime.Goexit: the
			// chunk will never be handed in, so nothing more can be counted.
			e.mu.Lock()
			if wk.chunk >= 0 {
				e.halt(StopCancelled, fmt.Errorf("sim: a trial in chunk %d ended its goroutine (runtime.Goexit)", wk.chunk))
			} else {
				e.halt(StopCancelled, fmt.Errorf("sim: the Progress callback ended its goroutine (runtime.Goexit) after chunk %d", e.end))
			}
			e.mu.Unlock()
		}
	}()
	e.mu.Lock()
	for {
		i, a, ok := e.take(wk)
		if !ok {
			break
		}
		e.mu.Unlock()
		finished, err := guard(run, i, int(e.cfg.trialsIn(i, i+1)), a, &wk.abandon)
		e.mu.Lock()
		e.hand(wk, i, a, finished, err)
	}
	e.mu.Unlock()
	returned = true
}

// take gives worker wk its next chunk and an empty accumulator, or
// ok=false when the worker should return: the run halted, or every chunk
// is handed out and none is late. Called with mu held.
//
// A worker takes the next fresh chunk while the window allows. When the
// window is full, the lowest unfinished chunk is late (its worker may be
// descheduled), and the worker reruns that chunk rather than wait: the
// chunk draws from its own stream, so either run gives the same
// accumulator, and the first one handed in counts. Only when that chunk
// already has a second runner, or is finished and being counted, does a
// worker wait for the window to move.
func (e *engine[A]) take(wk *worker) (chunk int64, a A, ok bool) {
	for !e.halted {
		fresh := e.next < e.cfg.hi
		switch {
		case fresh && e.next < e.end+e.window:
			chunk = e.next
			e.next++
		case e.next >= e.end+e.window && e.late(&chunk):
		case fresh:
			e.moved.Wait()
			continue
		default:
			return -1, a, false
		}
		wk.chunk = chunk
		wk.abandon.Store(false)
		return chunk, e.emptyAcc(), true
	}
	return -1, a, false
}

// late finds the lowest unfinished chunk of the window and, if no second
// worker runs it yet, marks it shared and sets *chunk to it.
func (e *engine[A]) late(chunk *int64) bool {
	for i := e.end; i < e.next; i++ {
		s := e.slot(i)
		if !s.full {
			if s.shared {
				return false
			}
			s.shared = true
			*chunk = i
			return true
		}
	}
	return false
}

// slot returns chunk i's slot; i must lie in [end, next).
func (e *engine[A]) slot(i int64) *slot[A] { return &e.slots[i%int64(len(e.slots))] }

// emptyAcc returns an empty accumulator, reusing a free one if there is
// one. Called with mu held.
func (e *engine[A]) emptyAcc() A {
	if n := len(e.free); n > 0 {
		a := e.free[n-1]
		e.free = e.free[:n-1]
		return a
	}
	return e.newAcc()
}

// hand takes back chunk i from worker wk. A finished chunk waits in its
// slot to be counted; an abandoned one, or one another worker handed in
// first, is emptied for reuse. Called with mu held.
func (e *engine[A]) hand(wk *worker, i int64, a A, finished bool, err error) {
	wk.chunk = -1
	switch {
	case err != nil:
		e.halt(StopCancelled, err)
	case e.halted || !finished || i < e.end || e.slot(i).full:
		e.reset(a)
		e.free = append(e.free, a)
	default:
		s := e.slot(i)
		s.acc, s.full = a, true
		if s.shared {
			e.abandonChunk(i)
		}
		if !e.folding {
			e.fold()
		}
	}
	e.moved.Broadcast()
}

// abandonChunk tells every worker still running chunk i to drop it.
func (e *engine[A]) abandonChunk(i int64) {
	for k := range e.workers {
		if e.workers[k].chunk == i {
			e.workers[k].abandon.Store(true)
		}
	}
}

// fold counts finished chunks into the total in chunk order, from end on,
// for as long as the next one is there. It runs on the worker that handed
// in the chunk the count was waiting for, and releases mu while it merges
// and calls Progress, so the other workers hand in and take chunks
// meanwhile. Called with mu held.
func (e *engine[A]) fold() {
	e.folding = true
	for !e.halted {
		s := e.slot(e.end)
		if !s.full {
			break
		}
		i, a := e.end, s.acc
		e.mu.Unlock()
		why, err := e.count(i, a)
		e.reset(a)
		e.mu.Lock()
		*s = slot[A]{}
		e.end++
		e.free = append(e.free, a)
		if why != "" || err != nil {
			e.halt(why, err)
		}
		e.moved.Broadcast()
	}
	e.folding = false
}

// count merges chunk i, the next in order, into the total, reports
// progress, and says whether the run stops here: why is StopPrecision or
// StopCancelled, or "" to go on.
func (e *engine[A]) count(i int64, a A) (why string, err error) {
	if err := e.merge(e.total, a); err != nil {
		return "", err
	}
	e.done += e.cfg.trialsIn(i, i+1)
	if e.cfg.Progress != nil && !e.progress() {
		return StopCancelled, nil
	}
	if i+1 == e.cfg.hi {
		return "", nil
	}
	if e.enough != nil && e.done >= MinPrecisionTrials && e.enough(e.total, e.done) {
		return StopPrecision, nil
	}
	if e.ctx.Err() != nil {
		// Cancelled, perhaps by Progress itself: nothing after this chunk counts.
		return StopCancelled, nil
	}
	return "", nil
}

// progress calls the Progress callback and reports whether it returned. If
// it panicked, the value is kept for execute to raise again.
func (e *engine[A]) progress() (returned bool) {
	defer func() {
		if v := recover(); v != nil {
			e.panicked, e.panicValue = true, v
		}
	}()
	e.cfg.Progress(e.done, e.cfg.trialsIn(e.cfg.lo, e.cfg.hi))
	return true
}

// halt stops the run: no chunk is handed out or counted after it, and every
// worker drops its chunk before its next trial. The first reason and error
// stand. Called with mu held.
func (e *engine[A]) halt(why string, err error) {
	if e.halted {
		return
	}
	e.halted, e.stop, e.err = true, why, err
	for k := range e.workers {
		e.workers[k].abandon.Store(true)
	}
	e.moved.Broadcast()
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
