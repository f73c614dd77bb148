package sim

import (
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stakesrpg/stakes/dice"
)

// smallScratch is the per-worker scratch of a small trial, the size of a
// contest runner's hot fields: 48 bytes, written on every roll. Two of
// them made one after another share a cache line.
type smallScratch struct {
	faces [4]int
	best  int
	n     int
}

// scratchSpec's trial takes about 120 ns on a quiet machine: four rounds
// of four d6 into its scratch, keeping the two highest of each round.
func scratchSpec() Spec {
	return Spec{Name: "scratch", Categories: []string{"low", "high"}, Metrics: []string{"total"},
		New: func() (Trial, error) {
			sc := new(smallScratch)
			return func(r *dice.Roller, o *Outcome) error {
				sc.n = 0
				for range 4 {
					hi, next := 0, 0
					for i := range sc.faces {
						f := r.Roll(6)
						sc.faces[i] = f
						if f > hi {
							hi, next = f, hi
						} else if f > next {
							next = f
						}
					}
					sc.best = hi + next
					sc.n += sc.best
				}
				if sc.n > 36 {
					o.Category = 1
				}
				o.Metrics[0] = sc.n
				return nil
			}, nil
		}}
}

// scaleTrials is the trials of one timing of the scaling benchmarks: long
// enough that starting the goroutines is noise, short enough to repeat.
const scaleTrials = 1 << 20

// timeBareNew times trials trials of spec split over g goroutines, each
// making its own trial (spec.New), kept apart from the others' by a
// spacer, and padded stream on its own goroutine: the loop a careful user
// would write by hand, with no harness at all.
func timeBareNew(b *testing.B, spec Spec, trials int64, g int) time.Duration {
	start := time.Now()
	var wg sync.WaitGroup
	for k := range g {
		wg.Add(1)
		go func() {
			defer wg.Done()
			trial, err := spec.New()
			if err != nil {
				b.Error(err)
				return
			}
			spacer := newSpacer()
			defer runtime.KeepAlive(spacer)
			s := newStream(PCG, uint64(k))
			for range trials / int64(g) {
				if err := trial(&s.roller, &s.out[0]); err != nil {
					b.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	return time.Since(start)
}

// BenchmarkScaleRun2 runs the small-scratch trial through Run on two
// workers; BenchmarkScaleBare2 runs it in a bare two-goroutine loop. Run
// them together (-bench Scale, -count 8 or more) and compare ns/trial:
// the harness on two workers should cost at most 1/0.95 of the bare loop.
func BenchmarkScaleRun2(b *testing.B) {
	for b.Loop() {
		timeRun(b, scratchSpec(), scaleTrials, 2)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(int64(b.N)*scaleTrials), "ns/trial")
}

// BenchmarkScaleBare2 is the bare loop BenchmarkScaleRun2 is held to.
func BenchmarkScaleBare2(b *testing.B) {
	for b.Loop() {
		timeBareNew(b, scratchSpec(), scaleTrials, 2)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(int64(b.N)*scaleTrials), "ns/trial")
}

// BenchmarkScaleRun1 is the small-scratch trial through Run on one worker,
// for the trial's own cost.
func BenchmarkScaleRun1(b *testing.B) {
	for b.Loop() {
		timeRun(b, scratchSpec(), scaleTrials, 1)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(int64(b.N)*scaleTrials), "ns/trial")
}

// BenchmarkScaling times, in turn in every iteration, the small-scratch
// trial through Run on two workers and in the bare two-goroutine loop, so
// that a disturbance of a shared machine hits both alike, and reports
// "of-bare" = t(bare) / t(Run) from the fastest of each (target at least
// 0.95) and from the medians. Run it with -benchtime 10x or more.
func BenchmarkScaling(b *testing.B) {
	var run, bare []time.Duration
	for b.Loop() {
		run = append(run, timeRun(b, scratchSpec(), scaleTrials, 2))
		bare = append(bare, timeBareNew(b, scratchSpec(), scaleTrials, 2))
	}
	b.ReportMetric(float64(slices.Min(bare))/float64(slices.Min(run)), "of-bare")
	b.ReportMetric(float64(median(bare))/float64(median(run)), "of-bare-median")
	b.ReportMetric(float64(slices.Min(run).Nanoseconds())/scaleTrials, "ns/trial-run")
	b.ReportMetric(float64(slices.Min(bare).Nanoseconds())/scaleTrials, "ns/trial-bare")
}
