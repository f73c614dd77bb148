package sim

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func smallReport(t *testing.T) *Report {
	t.Helper()
	r := mustRun(t, diceSpec(), Options{Seed: 1, Trials: 2000, ChunkSize: 500, Workers: 2})
	r.Elapsed = 0
	return r
}

func keys(m map[string]any) []string {
	var k []string
	for key := range m {
		k = append(k, key)
	}
	slices.Sort(k)
	return k
}

// The JSON field names are a stable interface: this test pins them.
func TestJSONFieldNames(t *testing.T) {
	r := smallReport(t)
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"categories", "metrics", "name", "provenance", "trials"}, keys(m)); d != "" {
		t.Errorf("report keys (-want +got):\n%s", d)
	}
	prov := m["provenance"].(map[string]any)
	wantProv := []string{"chunk_hi", "chunk_lo", "chunk_size", "chunks", "generator", "partial", "planned_trials", "seed", "settings", "stop", "version", "workers"}
	if d := cmp.Diff(wantProv, keys(prov)); d != "" {
		t.Errorf("provenance keys (-want +got):\n%s", d)
	}
	cat := m["categories"].([]any)[0].(map[string]any)
	if d := cmp.Diff([]string{"count", "hi", "lo", "name", "p"}, keys(cat)); d != "" {
		t.Errorf("category keys (-want +got):\n%s", d)
	}
	met := m["metrics"].([]any)[0].(map[string]any)
	wantMet := []string{"at_most", "hi", "hist", "lo", "max", "mean", "min", "name", "quantiles", "sd", "se"}
	if d := cmp.Diff(wantMet, keys(met)); d != "" {
		t.Errorf("metric keys (-want +got):\n%s", d)
	}
	// Elapsed and precision appear only when set.
	r.Elapsed = 3 * time.Millisecond
	r.Provenance.Precision = 0.01
	b, _ = json.Marshal(r)
	if !strings.Contains(string(b), `"elapsed_ns":3000000`) || !strings.Contains(string(b), `"precision":0.01`) {
		t.Errorf("elapsed or precision missing: %s", b)
	}
}

func decodeStrict(t *testing.T, b []byte, v any) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		t.Fatal(err)
	}
}

func TestJSONRoundTrip(t *testing.T) {
	r := smallReport(t)
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var back Report
	decodeStrict(t, b, &back)
	if d := cmp.Diff(r, &back); d != "" {
		t.Errorf("report round trip (-want +got):\n%s", d)
	}
	c, err := Compare(context.Background(), diceSpec(), bonusSpec(2, false), Options{Trials: 1000})
	if err != nil {
		t.Fatal(err)
	}
	c.A.Elapsed, c.B.Elapsed = 0, 0
	b, _ = json.Marshal(c)
	var cb Comparison
	decodeStrict(t, b, &cb)
	if d := cmp.Diff(c, &cb); d != "" {
		t.Errorf("comparison round trip (-want +got):\n%s", d)
	}
	sr, err := Sweep(context.Background(), []Axis{IntAxis("dice", 1, 2), IntAxis("target", 5, 5)}, buildHit, Options{Trials: 500})
	if err != nil {
		t.Fatal(err)
	}
	for _, cell := range sr.Cells {
		cell.Report.Elapsed = 0
	}
	b, _ = json.Marshal(sr)
	var sb SweepReport
	decodeStrict(t, b, &sb)
	if d := cmp.Diff(sr, &sb); d != "" {
		t.Errorf("sweep round trip (-want +got):\n%s", d)
	}
}

func readCSV(t *testing.T, write func(*bytes.Buffer) error) [][]string {
	t.Helper()
	var buf bytes.Buffer
	if err := write(&buf); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

func TestReportCSV(t *testing.T) {
	r := smallReport(t)
	recs := readCSV(t, func(b *bytes.Buffer) error { return r.WriteCSV(b) })
	if d := cmp.Diff(CSVHeader(), recs[0]); d != "" {
		t.Errorf("header (-want +got):\n%s", d)
	}
	kinds := map[string]int{}
	byKey := map[string][]string{}
	for _, rec := range recs[1:] {
		if len(rec) != len(CSVHeader()) {
			t.Fatalf("row %v has %d columns", rec, len(rec))
		}
		kinds[rec[0]]++
		if rec[0] == "provenance" || rec[0] == "setting" {
			byKey[rec[0]+"/"+rec[1]] = rec
		} else {
			byKey[rec[0]+"/"+rec[1]+"/"+rec[2]] = rec
		}
	}
	wantKinds := map[string]int{
		"provenance": 12, "setting": 1, "category": 3, "metric": 2, "quantile": 10,
		"hist": len(r.Metrics[0].Hist.Counts) + len(r.Metrics[1].Hist.Counts),
	}
	if d := cmp.Diff(wantKinds, kinds); d != "" {
		t.Errorf("row kinds (-want +got):\n%s", d)
	}
	for key, want := range map[string]string{"provenance/seed": "1", "provenance/trials": "2000", "provenance/stop": "done", "provenance/partial": "false", "setting/pool": "3d6"} {
		if rec, ok := byKey[key]; !ok || rec[2] != want {
			t.Errorf("%s: %v, want value %q", key, rec, want)
		}
	}
	// Numbers read back to the same float64.
	mid := byKey["category/mid/"]
	c := r.Categories[1]
	if mid[3] != strconv.FormatInt(c.Count, 10) || mid[4] != ftoa(c.P) || mid[5] != ftoa(c.Lo) || mid[6] != ftoa(c.Hi) {
		t.Errorf("mid row %v, category %+v", mid, c)
	}
	if lo, _ := strconv.ParseFloat(mid[5], 64); lo != c.Lo {
		t.Errorf("lo %v read back as %v", c.Lo, lo)
	}
	last := byKey["hist/total/"+strconv.Itoa(r.Metrics[0].Max)]
	if last == nil || last[9] != "1" {
		t.Errorf("last total hist row %v: at_most should be 1", last)
	}
	mrow := byKey["metric/total/"]
	if mrow[7] != ftoa(r.Metrics[0].Mean) || mrow[8] != ftoa(r.Metrics[0].SE) {
		t.Errorf("metric row %v", mrow)
	}
}

func TestComparisonCSV(t *testing.T) {
	c, err := Compare(context.Background(), diceSpec(), bonusSpec(1, false), Options{Trials: 1000})
	if err != nil {
		t.Fatal(err)
	}
	recs := readCSV(t, func(b *bytes.Buffer) error { return c.WriteCSV(b) })
	if recs[0][0] != "side" || len(recs[0]) != len(CSVHeader())+1 {
		t.Errorf("header %v", recs[0])
	}
	sides := map[string]int{}
	var joint, diffHist int
	for _, rec := range recs[1:] {
		sides[rec[0]]++
		if rec[0] == "diff" && rec[1] == "joint" {
			joint++
		}
		if rec[0] == "diff" && rec[1] == "hist" && rec[2] == "total" {
			diffHist++
			if rec[3] != "-1" || rec[4] != "1000" {
				t.Errorf("difference of totals row %v", rec)
			}
		}
	}
	if joint != 9 || diffHist != 1 || sides["a"] != sides["b"] || sides["a"] == 0 {
		t.Errorf("joint rows %d, diff hist rows %d, sides %v", joint, diffHist, sides)
	}
}
