package sim

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stakesrpg/stakes/dice"
)

// hitSpec rolls n d6 and succeeds if the highest meets target; metric 0
// counts the dice that meet it.
func hitSpec(n, target int) Spec {
	return Spec{
		Name:       "hit",
		Categories: []string{"hit", "miss"},
		Metrics:    []string{"successes"},
		Settings:   map[string]string{"die": "d6"},
		New: func() (Trial, error) {
			buf := make([]int, 0, n)
			return func(r *dice.Roller, o *Outcome) error {
				buf = r.RollN(n, 6, buf)
				o.Metrics[0] = dice.CountAtLeast(buf, target)
				if o.Metrics[0] == 0 {
					o.Category = 1
				}
				return nil
			}, nil
		},
	}
}

func buildHit(c Cell) (Spec, error) {
	n, err := c.Int("dice")
	if err != nil {
		return Spec{}, err
	}
	t, err := c.Int("target")
	if err != nil {
		return Spec{}, err
	}
	return hitSpec(n, t), nil
}

func TestSweepGrid(t *testing.T) {
	axes := []Axis{IntAxis("dice", 1, 3), {Name: "target", Values: []string{"4", "6"}}}
	var last, grand int64
	opt := Options{Seed: 4, Trials: 20_000, Progress: func(done, total int64) {
		if done < last {
			t.Errorf("progress went back from %d to %d", last, done)
		}
		last, grand = done, total
	}}
	sr, err := Sweep(context.Background(), axes, buildHit, opt)
	if err != nil {
		t.Fatal(err)
	}
	if last != 6*20_000 || grand != 6*20_000 {
		t.Errorf("progress ended at %d of %d", last, grand)
	}
	var gotCells [][]string
	for _, c := range sr.Cells {
		gotCells = append(gotCells, c.Values)
		n, _ := strconv.Atoi(c.Values[0])
		target, _ := strconv.Atoi(c.Values[1])
		exact := 1 - math.Pow(float64(target-1)/6, float64(n))
		nearExact(t, fmt.Sprint(c.Values), c.Report.Categories[0].P, exact, c.Report.Trials)
		st := c.Report.Provenance.Settings
		if st["dice"] != c.Values[0] || st["target"] != c.Values[1] || st["die"] != "d6" {
			t.Errorf("cell %v settings %v", c.Values, st)
		}
		// Each cell is exactly the Run of its spec with the same options.
		o := opt
		o.Progress = nil
		spec := hitSpec(n, target)
		spec.Settings = st
		if d := cmp.Diff(mustRun(t, spec, o), c.Report, sameNumbers); d != "" {
			t.Errorf("cell %v differs from its own run:\n%s", c.Values, d)
		}
	}
	wantCells := [][]string{{"1", "4"}, {"1", "6"}, {"2", "4"}, {"2", "6"}, {"3", "4"}, {"3", "6"}}
	if d := cmp.Diff(wantCells, gotCells); d != "" {
		t.Errorf("cells (-want +got):\n%s", d)
	}
	wantHeader := []string{"dice", "target", "trials", "stop", "hit_p", "hit_lo", "hit_hi", "miss_p", "miss_lo", "miss_hi", "successes_mean", "successes_se"}
	if d := cmp.Diff(wantHeader, sr.Header()); d != "" {
		t.Errorf("header (-want +got):\n%s", d)
	}
	var buf bytes.Buffer
	if err := sr.WriteCSV(&buf); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 7 || recs[4][0] != "2" || recs[4][1] != "6" || recs[4][2] != "20000" {
		t.Fatalf("csv rows %v", recs)
	}
	if p, _ := strconv.ParseFloat(recs[4][4], 64); p != sr.Cells[3].Report.Categories[0].P {
		t.Errorf("csv hit_p %v, report %v", p, sr.Cells[3].Report.Categories[0].P)
	}
}

func TestSweepCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	opt := Options{Trials: 50_000, ChunkSize: 100, Workers: 2, Progress: func(done, _ int64) {
		if done > 60_000 {
			cancel()
		}
	}}
	sr, err := Sweep(ctx, []Axis{IntAxis("dice", 1, 4), IntAxis("target", 6, 6)}, buildHit, opt)
	cancel()
	if err != nil {
		t.Fatal(err)
	}
	if !sr.Partial || len(sr.Cells) != 2 || !sr.Cells[1].Report.Provenance.Partial || sr.Cells[0].Report.Provenance.Partial {
		t.Errorf("partial %v with %d cells", sr.Partial, len(sr.Cells))
	}
}

func TestSweepErrors(t *testing.T) {
	opt := Options{Trials: 10}
	mixed := func(c Cell) (Spec, error) {
		s, err := buildHit(c)
		if c["dice"] == "2" {
			s.Categories = []string{"yes", "no"}
		}
		return s, err
	}
	many := IntAxis("a", 1, 200)
	for _, tc := range []struct {
		name  string
		axes  []Axis
		build func(Cell) (Spec, error)
		opt   Options
		want  string
		inval bool
	}{
		{"no axes", nil, buildHit, opt, "at least one axis", true},
		{"nil build", []Axis{IntAxis("dice", 1, 2)}, nil, opt, "nil build", true},
		{"unnamed", []Axis{{Values: []string{"1"}}}, buildHit, opt, "axis 0 has no name", true},
		{"twice", []Axis{IntAxis("dice", 1, 2), IntAxis("dice", 3, 4)}, buildHit, opt, `"dice" appears twice`, true},
		{"empty", []Axis{IntAxis("dice", 2, 1)}, buildHit, opt, "no values", true},
		{"repeat value", []Axis{{Name: "dice", Values: []string{"1", "1"}}}, buildHit, opt, `lists "1" twice`, true},
		{"too many cells", []Axis{many, IntAxis("b", 1, 60)}, buildHit, opt, "more than 10000 cells", true},
		{"bad options", []Axis{IntAxis("dice", 1, 2)}, buildHit, Options{}, "trials 0", true},
		{"build error", []Axis{IntAxis("dice", 1, 2)}, buildHit, opt, `no axis "target"`, false},
		{"not an int", []Axis{{Name: "dice", Values: []string{"x"}}, IntAxis("target", 4, 4)}, buildHit, opt, `"x" is not an integer`, false},
		{"mismatch", []Axis{IntAxis("dice", 1, 2), IntAxis("target", 4, 4)}, mixed, opt, "every cell must match", true},
	} {
		_, err := Sweep(context.Background(), tc.axes, tc.build, tc.opt)
		if err == nil || !strings.Contains(err.Error(), tc.want) || errors.Is(err, ErrInvalid) != tc.inval {
			t.Errorf("%s: got %v, want an error mentioning %q (ErrInvalid %v)", tc.name, err, tc.want, tc.inval)
		}
	}
}

func TestMergeSweeps(t *testing.T) {
	axes := []Axis{IntAxis("dice", 1, 2), IntAxis("target", 5, 6)}
	opt := Options{Seed: 3, Trials: 5000, ChunkSize: 1000}
	whole, err := Sweep(context.Background(), axes, buildHit, opt)
	if err != nil {
		t.Fatal(err)
	}
	var parts []*SweepReport
	for _, rg := range [][2]int64{{0, 2}, {2, 5}} {
		o := opt
		o.ChunkLo, o.ChunkHi = rg[0], rg[1]
		sr, err := Sweep(context.Background(), axes, buildHit, o)
		if err != nil {
			t.Fatal(err)
		}
		parts = append(parts, sr)
	}
	merged, err := MergeSweeps(parts...)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(whole, merged, sameNumbers); d != "" {
		t.Errorf("merged sweep differs (-whole +merged):\n%s", d)
	}
	other, _ := Sweep(context.Background(), []Axis{IntAxis("dice", 1, 2), IntAxis("target", 4, 5)}, buildHit, opt)
	short := &SweepReport{Axes: axes, Cells: parts[1].Cells[:2]}
	for _, tc := range []struct {
		name  string
		parts []*SweepReport
		want  string
	}{
		{"none", nil, "at least one"},
		{"nil", []*SweepReport{parts[0], nil}, "sweep 1 is nil"},
		{"axes", []*SweepReport{parts[0], other}, "different axes"},
		{"cells", []*SweepReport{parts[0], short}, "has 2 cells"},
		{"overlap", []*SweepReport{parts[0], parts[0]}, "overlap"},
	} {
		if _, err := MergeSweeps(tc.parts...); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an ErrInvalid mentioning %q", tc.name, err, tc.want)
		}
	}
}
