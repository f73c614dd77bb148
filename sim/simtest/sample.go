package simtest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/dice/gof"
	"github.com/stakesrpg/stakes/sim"
	"github.com/stakesrpg/stakes/sim/markov"
)

// The determinism check runs at most this many trials on each worker count,
// in chunks of detChunk so that even a small run spreads over every worker.
const (
	detTrials = 2_000
	detChunk  = 64
)

// determinism runs the scenario's Spec on 1, 2 and 7 workers with one seed
// and compares the reports' JSON, with the run's wall time and worker count
// (which say how, not what, it counted) set to zero.
func (k *kit) determinism(s *shortfalls) {
	spec, err := k.m.Spec("simtest")
	if err != nil {
		s.add("Spec: %v", err)
		return
	}
	var first []byte
	for _, w := range [...]int{1, 2, 7} {
		b, err := k.runJSON(spec, w)
		if err != nil {
			s.add("%d workers: %v", w, err)
			return
		}
		if first == nil {
			first = b
			continue
		}
		if !bytes.Equal(b, first) {
			s.add("seed %d, %d trials: the report on %d workers differs from the one on 1 worker: %s",
				k.opt.Seed, min(k.opt.Trials, detTrials), w, diff(b, first))
		}
	}
}

func (k *kit) runJSON(spec sim.Spec, workers int) ([]byte, error) {
	rep, err := sim.Run(context.Background(), spec, sim.Options{
		Seed:      k.opt.Seed,
		Trials:    min(k.opt.Trials, detTrials),
		Workers:   workers,
		ChunkSize: detChunk,
	})
	if err != nil {
		return nil, err
	}
	rep.Elapsed = 0
	rep.Provenance.Workers = 0
	return json.Marshal(rep)
}

// exactP is the p-value below which a sample fails against the exact
// answer. The seed is fixed, so the check never flakes; a correct
// mechanic fails it for one seed in 10,000.
const exactP = 1e-4

// exactSE is how many standard errors the sampled mean of the rounds may
// lie from the exact mean.
const exactSE = 5

// exact samples the scenario and tests the categories, and the rounds when
// the answer gives them, against its Exact answer. A scenario outside the
// exact model (markov.ErrNoExact) is skipped.
func (k *kit) exact(s *shortfalls) {
	ctx := context.Background()
	ans, err := k.m.Exact(ctx)
	if errors.Is(err, markov.ErrNoExact) {
		return
	}
	if err != nil {
		s.add("Exact: %v", err)
		return
	}
	k.exactBits(s, ans)
	spec, err := k.m.Spec("simtest")
	if err != nil {
		s.add("Spec: %v", err)
		return
	}
	rep, err := sim.Run(ctx, spec, sim.Options{Seed: k.opt.Seed, Trials: k.opt.Trials})
	if err != nil {
		s.add("sampling: %v", err)
		return
	}
	if fit, err := rep.FitCategories(ans.P); err != nil || fit.PValue < exactP {
		s.add("the categories of %d trials (seed %d) do not fit the exact answer (%s):\n\t%s",
			rep.Trials, k.opt.Seed, fitString(fit, err), categoryTable(rep, ans.P))
	}
	if len(rep.Metrics) > 0 {
		k.exactRounds(s, rep.Metrics[0], ans)
	}
}

// exactCalls is how many times in all the exact check asks for Exact.
const exactCalls = 3

// exactBits asks Exact again and wants the very bits of its first answer,
// first: an answer summed in an order that changes from call to call (a
// map's) differs in its last bits, and the same numbers on any number of
// workers would then depend on the call.
func (k *kit) exactBits(s *shortfalls, first markov.Answer) {
	want := floatBits(reflect.ValueOf(first), "", nil)
	for call := 2; call <= exactCalls; call++ {
		ans, err := k.m.Exact(context.Background())
		if err != nil {
			s.add("Exact call %d: %v (call 1 answered)", call, err)
			return
		}
		got := floatBits(reflect.ValueOf(ans), "", nil)
		if d := firstBitDiff(got, want); d != "" {
			s.add("Exact call %d answers with other bits than call 1: %s", call, d)
			return
		}
	}
}

// bitsAt is one float of an answer: where it is, and its bits.
type bitsAt struct {
	path string
	bits uint64
}

// floatBits appends every float in v, found by reflection (map entries in
// the order of their keys), with its path from the root.
func floatBits(v reflect.Value, path string, out []bitsAt) []bitsAt {
	switch v.Kind() {
	case reflect.Float32, reflect.Float64:
		out = append(out, bitsAt{path, math.Float64bits(v.Float())})
	case reflect.Slice, reflect.Array:
		out = append(out, bitsAt{path + ".len", uint64(v.Len())})
		for i := range v.Len() {
			out = floatBits(v.Index(i), fmt.Sprintf("%s[%d]", path, i), out)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			out = floatBits(v.Field(i), path+"."+v.Type().Field(i).Name, out)
		}
	case reflect.Map:
		keys := v.MapKeys()
		slices.SortFunc(keys, func(a, b reflect.Value) int {
			return strings.Compare(fmt.Sprint(a), fmt.Sprint(b))
		})
		out = append(out, bitsAt{path + ".len", uint64(len(keys))})
		for _, key := range keys {
			out = floatBits(v.MapIndex(key), fmt.Sprintf("%s[%v]", path, key), out)
		}
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			out = floatBits(v.Elem(), path, out)
		}
	}
	return out
}

// firstBitDiff names the first float that differs between two answers'
// bits, or returns "".
func firstBitDiff(got, want []bitsAt) string {
	for i := range min(len(got), len(want)) {
		g, w := got[i], want[i]
		g.path, w.path = strings.TrimPrefix(g.path, "."), strings.TrimPrefix(w.path, ".")
		switch {
		case g.path != w.path:
			return fmt.Sprintf("%s where call 1 had %s", g.path, w.path)
		case g.bits != w.bits && strings.HasSuffix(g.path, ".len"):
			return fmt.Sprintf("%s is %d; call 1 gave %d", g.path, g.bits, w.bits)
		case g.bits != w.bits:
			return fmt.Sprintf("%s is %v (bits %#x); call 1 gave %v (bits %#x)",
				g.path, math.Float64frombits(g.bits), g.bits, math.Float64frombits(w.bits), w.bits)
		}
	}
	if len(got) != len(want) {
		return fmt.Sprintf("%d numbers; call 1 gave %d", len(got), len(want))
	}
	return ""
}

// exactRounds tests metric 0, the rounds, against the answer's mean and
// distribution of rounds, where it gives them.
func (k *kit) exactRounds(s *shortfalls, m sim.Metric, ans markov.Answer) {
	if ans.MeanRounds > 0 {
		if d := math.Abs(m.Mean - ans.MeanRounds); d > exactSE*m.SE && d > 1e-9 {
			s.add("metric %q: the sampled mean %.4f (SE %.4f) is %.1f standard errors from the exact mean of rounds %.4f",
				m.Name, m.Mean, m.SE, d/m.SE, ans.MeanRounds)
		}
	}
	if len(ans.Rounds) > 0 {
		fit, err := m.Hist.Fit(dice.Dist{Min: 0, P: ans.Rounds})
		if err != nil || fit.PValue < exactP {
			s.add("metric %q: the sampled rounds do not fit the exact distribution of rounds (%s)", m.Name, fitString(fit, err))
		}
	}
}

// categoryTable shows each category's sampled count against the count the
// exact answer expects.
func categoryTable(rep *sim.Report, p []float64) string {
	var b strings.Builder
	for i, c := range rep.Categories {
		want := math.NaN()
		if i < len(p) {
			want = p[i] * float64(rep.Trials)
		}
		fmt.Fprintf(&b, "%s: sampled %d, exact expects %.1f; ", c.Name, c.Count, want)
	}
	return strings.TrimSuffix(b.String(), "; ")
}

func fitString(fit gof.Fit, err error) string {
	if err != nil {
		return err.Error()
	}
	return fmt.Sprintf("chi-square %.1f on %d df, p = %.2g, below %g", fit.Stat, fit.DF, fit.PValue, exactP)
}
