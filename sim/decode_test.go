package sim

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
)

// reportJSON is a real report of a few trials, as JSON.
func reportJSON(t testing.TB, name string) []byte {
	t.Helper()
	spec := diceSpec()
	spec.Name = name
	r, err := Run(context.Background(), spec, Options{Seed: 1, Trials: 200, ChunkSize: 50})
	if err != nil {
		t.Fatal(err)
	}
	r.Elapsed = 0
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// writeAll runs every writer of a decoded comparison, sweep or report and
// returns the first error; a panic fails the test.
func writeAll(v any) error {
	var errs []error
	switch v := v.(type) {
	case *Comparison:
		errs = append(errs, v.WriteCSV(io.Discard))
	case *SweepReport:
		_, _ = v.Header(), v.Table()
		errs = append(errs, v.WriteCSV(io.Discard))
	case *Report:
		errs = append(errs, v.WriteCSV(io.Discard), v.WriteText(io.Discard))
	}
	return errors.Join(errs...)
}

// TestWritersRefuseDecodedHoles: decoded comparisons and sweeps with a
// null report, a joint table wider than the categories, or short
// quantiles are refused by the CSV writers (or written), never a panic.
func TestWritersRefuseDecodedHoles(t *testing.T) {
	rep := string(reportJSON(t, "r"))
	shortQ := strings.Replace(rep, `"quantiles":[`, `"quantiles":[{"q":0.5,"value":3}],"x":[`, 1)
	for _, tc := range []struct {
		name, json string
		into       func() any
		want       string // "" when the writers succeed
	}{
		{"comparison of nulls", `{"a":null,"b":null}`, func() any { return new(Comparison) }, "variant A or B has no report"},
		{"comparison missing b", `{"a":` + rep + `}`, func() any { return new(Comparison) }, "variant A or B has no report"},
		{"joint wider than categories", `{"a":` + rep + `,"b":` + rep + `,"diff":{"categories":[{"name":"x"}],"joint":[[1,2]]}}`,
			func() any { return new(Comparison) }, "joint table row 0 has 2 entries for 1 categories"},
		{"joint longer than categories", `{"a":` + rep + `,"b":` + rep + `,"diff":{"joint":[[],[]]}}`,
			func() any { return new(Comparison) }, "the joint table has 2 rows for 0 categories"},
		{"sweep with a null report", `{"axes":[{"name":"n","values":["1"]}],"cells":[{"values":["1"],"report":null}]}`,
			func() any { return new(SweepReport) }, "cell 0 has no report"},
		{"sweep with a null first report", `{"axes":[{"name":"n","values":["1","2"]}],"cells":[{"values":["1"]},{"values":["2"],"report":` + rep + `}]}`,
			func() any { return new(SweepReport) }, "cell 0 has no report"},
		{"sweep cell short of values", `{"axes":[{"name":"n","values":["1"]}],"cells":[{"values":[],"report":` + rep + `}]}`,
			func() any { return new(SweepReport) }, "cell 0 has 0 values for 1 axes"},
		{"report with short quantiles", shortQ, func() any { return new(Report) }, ""},
		{"null report", `null`, func() any { return new(Report) }, ""},
	} {
		v := tc.into()
		if err := json.Unmarshal([]byte(tc.json), v); err != nil {
			t.Fatalf("%s: decoding: %v", tc.name, err)
		}
		err := writeAll(v)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
	var nilRep *Report
	var nilCmp *Comparison
	var nilSweep *SweepReport
	for _, v := range []any{nilRep, nilCmp, nilSweep} {
		if err := writeAll(v); err == nil || !strings.Contains(err.Error(), "no report") {
			t.Errorf("%T(nil): %v", v, err)
		}
	}
}

// TestTextKeepsQuantileColumns: a report with fewer quantiles than a run
// writes still prints one column per quantile, so the table lines up.
func TestTextKeepsQuantileColumns(t *testing.T) {
	var r Report
	if err := json.Unmarshal(reportJSON(t, "r"), &r); err != nil {
		t.Fatal(err)
	}
	var full, short bytes.Buffer
	if err := r.WriteText(&full); err != nil {
		t.Fatal(err)
	}
	r.Metrics[0].Quantiles = r.Metrics[0].Quantiles[:2]
	if err := r.WriteText(&short); err != nil {
		t.Fatal(err)
	}
	lines := func(b bytes.Buffer) []string { return strings.Split(b.String(), "\n") }
	fl, sl := lines(full), lines(short)
	if len(fl) != len(sl) || len(fl[len(fl)-3]) != len(sl[len(sl)-3]) {
		t.Errorf("short quantiles change the table's shape:\n%s\nvs\n%s", full.String(), short.String())
	}
}

// hugeCounts is a report whose one histogram has n zero counts and then
// a one, written straight into JSON.
func hugeCounts(t testing.TB, n int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"name":"big","trials":1,"categories":[{"name":"a","count":1}],"metrics":[{"name":"m","hist":{"min":0,"counts":[`)
	b.Write(bytes.Repeat([]byte("0,"), n))
	b.WriteString(`1]}}],"provenance":{"chunks":1,"chunk_hi":1}}`)
	return b.Bytes()
}

// TestDecodeRefusesPastTheBounds: every list a run writes is bounded on
// decoding, and a histogram that cannot come from a run is refused.
func TestDecodeRefusesPastTheBounds(t *testing.T) {
	rep := string(reportJSON(t, "r"))
	many := func(item string, n int) string { return strings.TrimSuffix(strings.Repeat(item+",", n), ",") }
	for _, tc := range []struct {
		name, json string
		into       any
		want       string
	}{
		{"counts past MaxSpan", string(hugeCounts(t, MaxSpan)), new(Report), fmt.Sprintf("counts: more than %d", MaxSpan)},
		{"negative count", `{"min":3,"counts":[1,-2]}`, new(Histogram), "count -2 of value 4 is negative"},
		{"values past the limit", fmt.Sprintf(`{"min":%d,"counts":[1,1]}`, MaxMetricValue), new(Histogram), "fall outside the allowed"},
		{"values below the limit", fmt.Sprintf(`{"min":%d,"counts":[1]}`, -MaxMetricValue-1), new(Histogram), "fall outside the allowed"},
		{"more values than trials", strings.Replace(rep, `"trials":200`, `"trials":199`, 1), new(Report), "counts 200 values in 199 trials"},
		{"negative trials", `{"trials":-1}`, new(Report), "-1 trials"},
		{"too many metrics", `{"metrics":[` + many(`{"name":"m"}`, MaxMetrics+1) + `]}`, new(Report), "metrics: more than 8"},
		{"too many categories", `{"categories":[` + many(`{}`, MaxCategories+1) + `]}`, new(Report), "categories: more than 256"},
		{"too many quantiles", `{"quantiles":[` + many(`{}`, maxQuantiles+1) + `]}`, new(Metric), "quantiles: more than 64"},
		{"at_most past MaxSpan", `{"at_most":[` + many(`0`, MaxSpan+1) + `]}`, new(Metric), "at_most: more than"},
		{"joint rows", `{"joint":[` + many(`[]`, MaxCategories+1) + `]}`, new(Paired), "joint: more than 256"},
		{"joint row", `{"joint":[[` + many(`0`, MaxCategories+1) + `]]}`, new(Paired), "joint row: more than 256"},
		{"sweep cells", `{"cells":[` + many(`{}`, MaxCells+1) + `]}`, new(SweepReport), "cells: more than 10000"},
		{"counts not an array", `{"counts":{}}`, new(Histogram), "want an array"},
	} {
		err := json.Unmarshal([]byte(tc.json), tc.into)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
		if err != nil && len(err.Error()) > 300 {
			t.Errorf("%s: an error of %d bytes", tc.name, len(err.Error()))
		}
	}
	// At the bounds, everything decodes.
	var h Histogram
	if err := json.Unmarshal([]byte(fmt.Sprintf(`{"min":%d,"counts":[1]}`, MaxMetricValue)), &h); err != nil || h.Min != MaxMetricValue {
		t.Errorf("a histogram at the largest value: %v, %+v", err, h)
	}
	var r Report
	if err := json.Unmarshal(hugeCounts(t, MaxSpan-1), &r); err != nil || len(r.Metrics[0].Hist.Counts) != MaxSpan {
		t.Errorf("a histogram of MaxSpan counts: %v", err)
	}
}

// allocated returns the bytes f allocates (the whole process's, so the
// test runs alone).
func allocated(f func()) uint64 {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	before := ms.TotalAlloc
	f()
	runtime.ReadMemStats(&ms)
	return ms.TotalAlloc - before
}

// TestDecodeAHugeShardAllocatesLittle: a shard whose histogram is 8 times
// longer than any run writes (16 MB of JSON) is refused having allocated
// about what the largest legal histogram takes, not a multiple of the
// file; and a shard at the bound decodes and merges within a small
// multiple of its size.
func TestDecodeAHugeShardAllocatesLittle(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 16 MB of JSON")
	}
	huge := hugeCounts(t, 8*MaxSpan)
	var r Report
	var err error
	used := allocated(func() { err = json.Unmarshal(huge, &r) })
	if err == nil {
		t.Fatal("a histogram of 8 million counts decoded")
	}
	t.Logf("refusing %d MB of JSON allocated %d MB", len(huge)>>20, used>>20)
	if used > 16<<20 {
		t.Errorf("refusing %d MB of JSON allocated %d MB", len(huge)>>20, used>>20)
	}
	legal := hugeCounts(t, MaxSpan-1)
	used = allocated(func() {
		var r Report
		if err = json.Unmarshal(legal, &r); err == nil {
			_, err = Merge(&r)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("decoding and merging %d MB of JSON allocated %d MB", len(legal)>>20, used>>20)
	if used > 40*uint64(len(legal)) {
		t.Errorf("decoding and merging %d MB of JSON allocated %d MB", len(legal)>>20, used>>20)
	}
}

// TestErrorsStayShort: names of a megabyte, in every error that quotes a
// name, give errors of a few hundred bytes.
func TestErrorsStayShort(t *testing.T) {
	long := strings.Repeat("x", 1<<20)
	a, b := reportJSON(t, long), reportJSON(t, long+"y")
	var ra, rb Report
	if err := json.Unmarshal(a, &ra); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &rb); err != nil {
		t.Fatal(err)
	}
	spec := diceSpec()
	spec.Name = long
	spec.Categories = []string{long, long}
	_, errMerge := Merge(&ra, &rb)
	_, errRun := Run(context.Background(), spec, Options{Trials: 10})
	_, errGen := Run(context.Background(), diceSpec(), Options{Trials: 10, Generator: long})
	_, errCmp := Compare(context.Background(), diceSpec(), spec, Options{Trials: 10})
	for i, err := range []error{errMerge, errRun, errGen, errCmp} {
		if err == nil || len(err.Error()) > 500 {
			t.Errorf("error %d: %d bytes: %.300v", i, len(fmt.Sprint(err)), err)
		}
	}
}

// FuzzDecodedWriters decodes anything as a report, a comparison and a
// sweep and hands what decodes to every writer and merge: none panics,
// and every error stays short.
func FuzzDecodedWriters(f *testing.F) {
	rep := string(reportJSON(f, "r"))
	f.Add(rep)
	f.Add(`{"a":` + rep + `,"b":` + rep + `,"diff":{"categories":[{"name":"x"}],"joint":[[1,2]]}}`)
	f.Add(`{"axes":[{"name":"n","values":["1"]}],"cells":[{"values":["1"],"report":null}]}`)
	f.Add(`{"min":3,"counts":[1,-2]}`)
	f.Fuzz(func(t *testing.T, s string) {
		short := func(err error) {
			if err != nil && len(err.Error()) > 2000 {
				t.Errorf("an error of %d bytes", len(err.Error()))
			}
		}
		var r Report
		if json.Unmarshal([]byte(s), &r) == nil {
			short(writeAll(&r))
			_, err := Merge(&r)
			short(err)
		}
		var c Comparison
		if json.Unmarshal([]byte(s), &c) == nil {
			short(writeAll(&c))
			_, err := MergeComparisons(&c)
			short(err)
		}
		var sw SweepReport
		if json.Unmarshal([]byte(s), &sw) == nil {
			short(writeAll(&sw))
			_, err := MergeSweeps(&sw)
			short(err)
		}
	})
}
