package sim

import (
	"context"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stakesrpg/stakes/dice"
)

// trivialTrial does almost nothing, so a Run of it measures the harness.
func trivialTrial(r *dice.Roller, o *Outcome) error {
	o.Category = 1
	o.Metrics[0] = 3
	return nil
}

func trivialSpec() Spec {
	return Spec{Name: "trivial", Categories: []string{"a", "b"}, Metrics: []string{"m"},
		New: func() (Trial, error) { return trivialTrial, nil }}
}

// busyTrial takes about 200 ns: sixty d6 one at a time.
func busyTrial(r *dice.Roller, o *Outcome) error {
	s := 0
	for range 60 {
		s += r.Roll(6)
	}
	o.Category = s & 1
	o.Metrics[0] = s
	return nil
}

func busySpec() Spec {
	return Spec{Name: "busy", Categories: []string{"even", "odd"}, Metrics: []string{"sum"},
		New: func() (Trial, error) { return busyTrial, nil }}
}

func runBench(b *testing.B, spec Spec, workers int) {
	b.Helper()
	b.ReportAllocs()
	start := time.Now()
	r, err := Run(context.Background(), spec, Options{Seed: 1, Trials: int64(b.N), Workers: workers})
	if err != nil {
		b.Fatal(err)
	}
	if r.Trials != int64(b.N) {
		b.Fatalf("ran %d of %d", r.Trials, b.N)
	}
	b.ReportMetric(float64(time.Since(start).Nanoseconds())/float64(b.N), "ns/trial")
}

// BenchmarkDirectTrivial calls the trivial trial in a bare loop: the floor
// the harness overhead is measured from.
func BenchmarkDirectTrivial(b *testing.B) {
	b.ReportAllocs()
	r := dice.NewSeeded(1)
	o := new(Outcome)
	for b.Loop() {
		trivialTrial(r, o)
	}
	sink = int64(o.Category)
}

var sink int64

// BenchmarkRunTrivial runs the trivial trial through Run on one worker.
func BenchmarkRunTrivial(b *testing.B) { runBench(b, trivialSpec(), 1) }

// BenchmarkOverhead measures the harness cost per trial beyond the trial
// itself (target: at most 5 ns): each iteration times 4M trivial trials
// called in a bare loop and 4M run through Run on one worker, back to back
// so machine noise hits both alike, and reports the difference.
func BenchmarkOverhead(b *testing.B) {
	const n = 1 << 22
	var direct, run time.Duration
	r := dice.NewSeeded(1)
	o := new(Outcome)
	trial, _ := trivialSpec().New() // called through a func value, as Run does
	for b.Loop() {
		start := time.Now()
		for range n {
			trial(r, o)
		}
		direct += time.Since(start)
		start = time.Now()
		if _, err := Run(context.Background(), trivialSpec(), Options{Trials: n, Workers: 1}); err != nil {
			b.Fatal(err)
		}
		run += time.Since(start)
	}
	per := float64(int64(b.N) * n)
	b.ReportMetric(float64(direct.Nanoseconds())/per, "ns/trial-bare")
	b.ReportMetric(float64(run.Nanoseconds())/per, "ns/trial-run")
	b.ReportMetric(float64((run-direct).Nanoseconds())/per, "ns/trial-overhead")
}

// BenchmarkNaiveTrivial is the straightforward math/rand/v2 harness: one
// generator, a map of category counts and a map histogram.
func BenchmarkNaiveTrivial(b *testing.B) {
	b.ReportAllocs()
	rng := rand.New(rand.NewPCG(1, 2))
	cats := map[int]int64{}
	hist := map[int]int64{}
	for b.Loop() {
		_ = rng.IntN(6)
		cats[1]++
		hist[3]++
	}
	sink = cats[1] + hist[3]
}

// BenchmarkRunBusy1 and BenchmarkRunBusy2 run a ~200 ns trial on one and
// two workers; BenchmarkSpeedup reports the ratio directly.
func BenchmarkRunBusy1(b *testing.B) { runBench(b, busySpec(), 1) }

// BenchmarkRunBusy2 is BenchmarkRunBusy1 on two workers.
func BenchmarkRunBusy2(b *testing.B) { runBench(b, busySpec(), 2) }

// BenchmarkNaiveBusy is the busy trial written with math/rand/v2 in a
// plain loop.
func BenchmarkNaiveBusy(b *testing.B) {
	b.ReportAllocs()
	rng := rand.New(rand.NewPCG(1, 2))
	var counts [2]int64
	hist := map[int]int64{}
	for b.Loop() {
		s := 0
		for range 60 {
			s += rng.IntN(6) + 1
		}
		counts[s&1]++
		hist[s]++
	}
	sink = counts[0]
}

// BenchmarkSpeedup measures, in the same run, the busy trial through Run on
// one worker and on N workers (N = GOMAXPROCS, at least 2), and the same
// trial in bare loops on one goroutine and on N goroutines without sim. It
// reports the harness's scaling "x" = t(Run, 1) / t(Run, N), the machine's
// ceiling "x-bare" = t(bare, 1) / t(bare, N), and "of-ceiling" = x / x-bare
// (target at least 0.95), each from the fastest of the benchmark's
// iterations; "of-ceiling-median" is the same ratio from the median times,
// which shows runs that a stalled worker slowed down. The four are timed in
// turn in every iteration, so that a disturbance of a shared machine hits
// the harness and the bare loop alike: run it with -benchtime 10x or more.
func BenchmarkSpeedup(b *testing.B) {
	const trials = 2_000_000
	n := max(runtime.GOMAXPROCS(0), 2)
	var run1, runN, bare1, bareN []time.Duration
	for b.Loop() {
		run1 = append(run1, timeRun(b, busySpec(), trials, 1))
		bare1 = append(bare1, timeBare(busyTrial, trials, 1))
		runN = append(runN, timeRun(b, busySpec(), trials, n))
		bareN = append(bareN, timeBare(busyTrial, trials, n))
	}
	ratio := func(pick func([]time.Duration) time.Duration) (x, ceiling float64) {
		return float64(pick(run1)) / float64(pick(runN)), float64(pick(bare1)) / float64(pick(bareN))
	}
	x, ceiling := ratio(slices.Min)
	b.ReportMetric(x, "x")
	b.ReportMetric(ceiling, "x-bare")
	b.ReportMetric(x/ceiling, "of-ceiling")
	xm, cm := ratio(median)
	b.ReportMetric(xm/cm, "of-ceiling-median")
	b.ReportMetric(float64(slices.Min(run1).Nanoseconds())/trials, "ns/trial-1w")
	b.ReportMetric(float64(slices.Min(runN).Nanoseconds())/trials, "ns/trial-Nw")
}

// median returns the median of ds (the upper one of an even count).
func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

// BenchmarkOverheadBusy measures the harness's cost on the busy trial as a
// share of the trial itself (target: at most 5%): each iteration times the
// trial in a bare loop and through Run on one worker, back to back, and the
// fastest of each is kept.
func BenchmarkOverheadBusy(b *testing.B) {
	const trials = 1 << 20
	var run, bare time.Duration
	for b.Loop() {
		fastest(&bare, timeBare(busyTrial, trials, 1))
		fastest(&run, timeRun(b, busySpec(), trials, 1))
	}
	b.ReportMetric(float64(bare.Nanoseconds())/trials, "ns/trial-bare")
	b.ReportMetric(float64(run.Nanoseconds())/trials, "ns/trial-run")
	b.ReportMetric(100*(float64(run)/float64(bare)-1), "%-overhead")
}

// fastest keeps in *d the shortest time seen.
func fastest(d *time.Duration, t time.Duration) {
	if *d == 0 || t < *d {
		*d = t
	}
}

// timeRun times one Run of trials trials on the given number of workers.
func timeRun(b *testing.B, spec Spec, trials int64, workers int) time.Duration {
	start := time.Now()
	r, err := Run(context.Background(), spec, Options{Seed: 1, Trials: trials, Workers: workers})
	if err != nil {
		b.Fatal(err)
	}
	if r.Trials != trials {
		b.Fatalf("ran %d of %d trials", r.Trials, trials)
	}
	return time.Since(start)
}

// timeBare times trials calls of trial split over g goroutines, each with
// its own padded stream and no harness at all: the most any harness could
// reach on this machine at this moment.
func timeBare(trial Trial, trials int64, g int) time.Duration {
	start := time.Now()
	var wg sync.WaitGroup
	for k := range g {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := newStream(PCG, uint64(k))
			for range trials / int64(g) {
				trial(&s.roller, &s.out[0])
			}
		}()
	}
	wg.Wait()
	return time.Since(start)
}

// BenchmarkCompare measures Compare's per-trial cost (two trials and two
// reseeds per paired trial).
func BenchmarkCompare(b *testing.B) {
	b.ReportAllocs()
	if _, err := Compare(context.Background(), diceSpec(), bonusSpec(1, false), Options{Trials: int64(b.N), Workers: 1}); err != nil {
		b.Fatal(err)
	}
}

// The hot path allocates nothing: a chunk, once its tally has grown to the
// values' range, costs zero allocations, including the reseed.
func TestChunkAllocatesNothing(t *testing.T) {
	for _, gen := range []string{PCG, ChaCha8} {
		trial, _ := diceSpec().New()
		run := runChunks(trial, newStream(gen, 1))
		tl := newTally(3, 2)
		var stop atomic.Bool
		if _, err := run(0, 2000, tl, &stop); err != nil {
			t.Fatal(err)
		}
		chunk := int64(1)
		allocs := testing.AllocsPerRun(20, func() {
			tl.reset()
			if ok, err := run(chunk, 2000, tl, &stop); !ok || err != nil {
				t.Fatal(ok, err)
			}
			chunk++
		})
		if allocs != 0 {
			t.Errorf("%s: %v allocations per chunk", gen, allocs)
		}
	}
}

// BenchmarkNaiveCompare is the straightforward common-random-numbers loop
// with math/rand/v2: a new generator per trial, seeded with the trial
// index, replayed for each variant.
func BenchmarkNaiveCompare(b *testing.B) {
	b.ReportAllocs()
	var joint [3][3]int64
	category := func(total int) int {
		switch {
		case total <= 9:
			return 0
		case total <= 11:
			return 1
		}
		return 2
	}
	k := uint64(0)
	for b.Loop() {
		k++
		ra := rand.New(rand.NewPCG(1, k))
		a := ra.IntN(6) + ra.IntN(6) + ra.IntN(6) + 3
		rb := rand.New(rand.NewPCG(1, k))
		bt := rb.IntN(6) + rb.IntN(6) + rb.IntN(6) + 3 + 1
		joint[category(a)][category(bt)]++
	}
	sink = joint[0][0]
}

// Compare's chunk loop allocates nothing either.
func TestPairChunkAllocatesNothing(t *testing.T) {
	ta, _ := diceSpec().New()
	tb, _ := bonusSpec(1, true).New()
	run := pairChunks(ta, tb, newStream(PCG, 1), 1000)
	pt := newPairTally(3, 2)
	var stop atomic.Bool
	if _, err := run(0, 1000, pt, &stop); err != nil {
		t.Fatal(err)
	}
	chunk := int64(1)
	allocs := testing.AllocsPerRun(20, func() {
		pt.reset()
		if ok, err := run(chunk, 1000, pt, &stop); !ok || err != nil {
			t.Fatal(ok, err)
		}
		chunk++
	})
	if allocs != 0 {
		t.Errorf("%v allocations per chunk", allocs)
	}
}
