package sim

import (
	"errors"
	"fmt"
	"runtime"

	"github.com/stakesrpg/stakes/dice"
)

// Version is the library version recorded in every report's provenance, so
// a saved report says which code produced it.
const Version = "0.1.0"

// Limits. Each guards memory or exact integer arithmetic; input past a limit
// is an error, never a crash.
const (
	// MaxMetrics is how many integer metrics one trial may report.
	MaxMetrics = 8
	// MaxCategories bounds the outcome categories of a Spec (a comparison
	// keeps a categories x categories table).
	MaxCategories = 256
	// MaxTrials caps the trials of one run. With metric values within
	// MaxMetricValue, every count and sum stays exact in 128-bit integers.
	MaxTrials = 1_000_000_000_000
	// DefaultChunkSize is the chunk size used when Options.ChunkSize is 0.
	DefaultChunkSize = 4096
	// MaxChunkSize bounds Options.ChunkSize.
	MaxChunkSize = 1 << 24
	// MaxWorkers bounds Options.Workers.
	MaxWorkers = 4096
	// MaxMetricValue bounds the magnitude of a metric value.
	MaxMetricValue = 1<<31 - 1
	// MaxSpan bounds the width (largest minus smallest value, plus one) of one
	// metric's histogram; a trial whose values spread wider fails the run.
	// A run keeps at most 5*workers+1 histograms per metric (usually far
	// fewer), each 8 bytes per value of the span, and grows them only as far
	// as the values reach.
	MaxSpan = 1 << 20
	// MinPrecisionTrials is how many trials a run with Options.Precision set
	// completes before it may stop early: a standard error estimated from
	// fewer trials is itself too rough to trust.
	MinPrecisionTrials = 1000
)

// ErrInvalid is wrapped by every error about bad input to Run, Merge,
// Compare and Sweep (check with errors.Is). Such errors are returned before
// any trial runs.
var ErrInvalid = errors.New("sim: invalid input")

// Outcome is what one trial reports: the index of the outcome category it
// ended in, and up to MaxMetrics integer metrics (metric 0 is usually the
// number of rounds). Integers keep every count and sum exact, so merges give
// the same bits in any order.
type Outcome struct {
	Category int             // index into Spec.Categories
	Metrics  [MaxMetrics]int // Metrics[i] is the value of Spec.Metrics[i]
}

// Trial plays one complete trial with r and fills o. The runner zeroes o
// before each call. A Trial may keep scratch state between calls (it is
// never called concurrently), but must not carry game state from one trial
// to the next: every trial starts from the same situation. A trial that
// cannot be played to its end returns the error that stopped it, and the
// run stops with it, naming the chunk and the trial.
type Trial func(r *dice.Roller, o *Outcome) error

// Spec describes what to simulate: the trial, the names of its outcome
// categories and metrics, and the settings that produced it (for
// provenance). sim knows nothing else about the mechanic.
type Spec struct {
	// Name labels the report (for example "contest/default").
	Name string
	// Categories names the outcome categories, e.g. "a_wins", "b_wins",
	// "walked_away"; Outcome.Category indexes it.
	Categories []string
	// Metrics names the integer metrics (at most MaxMetrics).
	Metrics []string
	// New is called once per worker, on the worker's own goroutine (so
	// the scratch it allocates lies apart from the other workers'), one
	// call at a time, before any trial runs, and returns a Trial with its
	// own scratch state. An error or a panic in New stops the run before
	// any trial.
	New func() (Trial, error)
	// Settings records the settings that produced the run (rules, policies,
	// sides); it is copied into the report's provenance.
	Settings map[string]string
}

func (s Spec) validate() error {
	if s.New == nil {
		return fmt.Errorf("%w: spec %s has a nil New function (it must return a Trial)", ErrInvalid, brief(s.Name))
	}
	if len(s.Categories) == 0 || len(s.Categories) > MaxCategories {
		return fmt.Errorf("%w: spec %s has %d categories; allowed 1..%d", ErrInvalid, brief(s.Name), len(s.Categories), MaxCategories)
	}
	if len(s.Metrics) > MaxMetrics {
		return fmt.Errorf("%w: spec %s has %d metrics; allowed 0..%d", ErrInvalid, brief(s.Name), len(s.Metrics), MaxMetrics)
	}
	if err := uniqueNames("category", s.Name, s.Categories); err != nil {
		return err
	}
	return uniqueNames("metric", s.Name, s.Metrics)
}

func uniqueNames(kind, spec string, names []string) error {
	seen := make(map[string]bool, len(names))
	for i, n := range names {
		if n == "" {
			return fmt.Errorf("%w: spec %s: %s %d has an empty name", ErrInvalid, brief(spec), kind, i)
		}
		if seen[n] {
			return fmt.Errorf("%w: spec %s: %s name %s appears twice; names must be unique", ErrInvalid, brief(spec), kind, brief(n))
		}
		seen[n] = true
	}
	return nil
}

// Generators that Options.Generator accepts.
const (
	PCG     = "pcg"     // math/rand/v2 PCG (the default): fast, 128-bit state
	ChaCha8 = "chacha8" // math/rand/v2 ChaCha8: cryptographically strong, slower
)

// Options controls a run. The zero value of each field except Trials picks
// a documented default.
type Options struct {
	// Seed selects the random streams; the same Seed (with the same
	// ChunkSize and Generator) always gives the same report.
	Seed uint64
	// Trials is the number of trials (1..MaxTrials). With Precision set it
	// is the cap.
	Trials int64
	// Workers is the number of goroutines; 0 means runtime.GOMAXPROCS(0).
	// It never changes the numbers, only the speed.
	Workers int
	// ChunkSize is the number of trials per chunk (0 means
	// DefaultChunkSize). Chunk i covers trials [i*ChunkSize, (i+1)*ChunkSize)
	// and draws from its own stream seeded from (Seed, i), so the ChunkSize
	// is part of what fixes the numbers.
	ChunkSize int
	// Generator names the generator: PCG ("pcg", default) or ChaCha8
	// ("chacha8").
	Generator string
	// Progress, if set, is called after each chunk is counted, in chunk
	// order and never concurrently (on whichever worker goroutine counts
	// the chunk), with the trials counted so far and the trials planned for
	// this run (its chunk range). Keep it cheap. If it panics, the run stops
	// and the panic is raised again on the goroutine that called Run.
	Progress func(done, total int64)
	// Precision, if > 0, stops the run at the first chunk boundary (after
	// MinPrecisionTrials) where every reported 95% interval is narrower than
	// ±Precision: each category's Wilson interval and each metric's
	// mean ± 1.96 SE (in the metric's own units). Trials is the cap. Chunks
	// are counted in index order, so the stopping point, and hence the
	// report, is the same for any number of workers.
	Precision float64
	// MeanPrecision, if > 0 (with Precision), makes the metrics' target
	// relative: a metric's 95% half-width must fall below MeanPrecision
	// times the magnitude of its mean (taken as at least 1), so 0.01
	// asks for means within about 1%. Precision then applies to the
	// outcome probabilities alone.
	MeanPrecision float64
	// ChunkLo and ChunkHi select the chunks [ChunkLo, ChunkHi) to run, for
	// sharding one study over several processes (merge the reports with
	// Merge). ChunkHi 0 means "to the last chunk"; both 0 run everything.
	ChunkLo, ChunkHi int64
}

// Chunks returns the number of chunks a run with these options has (the
// range ChunkLo and ChunkHi select from), or an error if the options are
// invalid.
func (o Options) Chunks() (int64, error) {
	c, err := o.resolve()
	if err != nil {
		return 0, err
	}
	return c.chunks, nil
}

// config is Options validated and with defaults filled in.
type config struct {
	Options
	chunkSize int64
	chunks    int64 // chunks in the whole study
	lo, hi    int64 // chunk range of this run
}

func (o Options) resolve() (config, error) {
	c := config{Options: o}
	if o.Trials <= 0 || o.Trials > MaxTrials {
		return c, fmt.Errorf("%w: trials %d; allowed 1..%d", ErrInvalid, o.Trials, int64(MaxTrials))
	}
	if o.Workers < 0 || o.Workers > MaxWorkers {
		return c, fmt.Errorf("%w: workers %d; allowed 0 (one per CPU) .. %d", ErrInvalid, o.Workers, MaxWorkers)
	}
	if o.Workers == 0 {
		c.Workers = runtime.GOMAXPROCS(0)
	}
	if o.ChunkSize < 0 || o.ChunkSize > MaxChunkSize {
		return c, fmt.Errorf("%w: chunk size %d; allowed 0 (default %d) .. %d", ErrInvalid, o.ChunkSize, DefaultChunkSize, MaxChunkSize)
	}
	if o.ChunkSize == 0 {
		c.ChunkSize = DefaultChunkSize
	}
	switch o.Generator {
	case "":
		c.Generator = PCG
	case PCG, ChaCha8:
	default:
		return c, fmt.Errorf("%w: unknown generator %s; allowed %q or %q", ErrInvalid, brief(o.Generator), PCG, ChaCha8)
	}
	if !(o.Precision >= 0) || o.Precision > 1e300 {
		return c, fmt.Errorf("%w: precision %v; allowed 0 (off) or a positive half-width", ErrInvalid, o.Precision)
	}
	if !(o.MeanPrecision >= 0) || o.MeanPrecision > 1e300 || (o.MeanPrecision > 0 && o.Precision == 0) {
		return c, fmt.Errorf("%w: mean precision %v; allowed 0 (off) or a positive share, with Precision set", ErrInvalid, o.MeanPrecision)
	}
	c.chunkSize = int64(c.ChunkSize)
	c.chunks = (o.Trials + c.chunkSize - 1) / c.chunkSize
	c.lo, c.hi = o.ChunkLo, o.ChunkHi
	if c.hi == 0 {
		c.hi = c.chunks
	}
	if c.lo < 0 || c.hi > c.chunks || c.lo >= c.hi {
		return c, fmt.Errorf("%w: chunk range [%d, %d); this run has chunks 0..%d, and the range must be non-empty",
			ErrInvalid, o.ChunkLo, o.ChunkHi, c.chunks-1)
	}
	return c, nil
}

// trialsIn returns the number of trials in chunks [lo, hi).
func (c config) trialsIn(lo, hi int64) int64 {
	if hi <= lo {
		return 0
	}
	return min(hi*c.chunkSize, c.Trials) - lo*c.chunkSize
}

// workersFor returns how many goroutines to start for this run.
func (c config) workersFor() int {
	return int(min(int64(c.Workers), c.hi-c.lo))
}
