// Package sim runs Monte Carlo studies of any resolution mechanic and
// reports numbers a designer can trust: outcome odds with Wilson 95%
// intervals, means with standard errors, and exact integer distributions
// (rounds, margins, dice left), together with the seed and settings that
// produced them.
//
// sim knows no rule package. A Spec names the outcome categories and
// integer metrics and supplies a Trial, a function that plays one complete
// situation with a *dice.Roller and fills an Outcome, or returns the error
// that stopped it. Rule packages expose a runner with a
// Trial(roller, metrics) (category, error) method; FromRunner turns its
// constructor into a Spec's New.
//
// # One contract for every mechanic
//
// A rule package's Scenario satisfies Scenario: it validates, names its
// outcomes and metrics, makes runners, answers exactly, describes itself,
// and starts and restores games. A game in progress is a Game: code that
// knows no rule package steps it under the scenario's policies (or a
// Chooser standing in front of them), saves and restores it, hears its
// events as sentences and reads how it ended. Adapt puts the runner type
// away, so scenarios of several mechanics sit side by side as Mechanics;
// the conformance kit, sim/simtest, checks any Mechanic through that
// contract alone.
//
// # Reproducible in parallel
//
// Each worker makes its own trial (Spec.New), stream and tallies on its
// own goroutine, apart in memory from the other workers', so that two
// workers never write to one cache line and two cores do twice the work.
//
// Run splits the trials into fixed chunks (Options.ChunkSize, default 4096).
// Chunk i draws from its own generator seeded from (Seed, i) by SplitMix64
// (see ChunkSource), and chunk results are merged in index order. Everything
// a report counts is an integer (a count per category, a histogram per
// metric), and every interval is computed from those integers, so the same
// seed gives the same bits on one core or sixty-four.
//
// The same property makes a study shardable: run chunk ranges in separate
// processes (Options.ChunkLo and ChunkHi), save each Report as JSON, and
// Merge them; the merged report equals the report of one whole run. A run
// cancelled through its context returns the prefix of chunks it finished,
// marked partial, and can be resumed by running the remaining range and
// merging. With Options.Precision a run stops at the first chunk boundary
// where every interval is narrower than the target; chunks are examined in
// order, so that point too is independent of scheduling.
//
// # Reports
//
// A Report gives each category's count, share and Wilson 95% score
// interval; each metric's mean, standard error, standard deviation,
// quantiles, exact histogram and P(value <= k) (for rounds: the chance of
// having finished by round k); and its provenance (seed, trials, chunk
// size and range, workers, generator, the Spec's settings, the library
// Version, and why and whether the run stopped early). Reports, comparisons
// and sweeps encode to JSON with stable snake_case names (documented on
// each type) and to CSV (see CSVHeader). Only Report.Elapsed differs
// between identical runs.
//
// # Bad input
//
// Invalid options or specs (no trials, negative workers, a nil New, a
// negative precision, an unknown generator, a chunk range outside the run,
// more than MaxTrials trials, too many categories or metrics) give an error
// wrapping ErrInvalid before anything runs.
//
// A trial that cannot be played to its end returns the error that stopped
// it (a policy's illegal answer, a nil Roller), never a plausible outcome:
// Run, Compare and Sweep then stop with that error, naming the spec, the
// chunk and the trial (and the variant or the cell), and wrapping it so
// that errors.Is and errors.As reach it. A trial that reports a category
// out of range, a metric value beyond MaxMetricValue or spreading wider
// than MaxSpan, or that panics, stops the run the same way.
//
// Reports, comparisons and sweeps decoded from JSON (shards to merge,
// results to print) are bounded while they decode: no list longer than a
// run writes (MaxCategories, MaxMetrics, MaxSpan histogram counts,
// MaxCells), no histogram with a negative count, values past
// ±MaxMetricValue or more values than its report's trials; a file past a
// bound is refused having allocated about what the bound allows. The
// writers return an error, never a panic, for a decoded value that lacks
// a part, and errors quote at most a hundred-odd bytes of any name.
//
// # Comparing and sweeping
//
// Compare runs two variants with common random numbers: trial k of A and
// trial k of B start from the same random stream, so a house rule's effect
// shows up in the paired difference with a far tighter interval than two
// independent runs would give. Sweep runs one Spec per cell of a grid of
// parameters and lays the reports out as a table. Both shard like Run
// (MergeComparisons, MergeSweeps).
//
// # Exact answers
//
// Exact answers for multi-round mechanics come from the absorbing Markov
// chain solver in sim/markov, which rule packages use directly. Its
// answers have the same bits on every call (a sum over a chain's end
// states runs in the chain's state order, markov.Solution.All), which the
// conformance kit checks. A report's
// histograms check against an exact distribution with Histogram.Fit
// (Pearson's chi-square via gof.ChiSquare).
package sim
