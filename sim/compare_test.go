package sim

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stakesrpg/stakes/dice"
)

// bonusSpec is diceSpec with a flat bonus on the total and, optionally, an
// extra die rolled (and ignored) after the three that count.
func bonusSpec(bonus int, extraDie bool) Spec {
	s := diceSpec()
	s.Name = "3d6+bonus"
	s.New = func() (Trial, error) {
		buf := make([]int, 0, 3)
		return func(r *dice.Roller, o *Outcome) error {
			buf = r.RollN(3, 6, buf)
			total := dice.Sum(buf) + bonus
			switch {
			case total <= 9:
				o.Category = 0
			case total <= 11:
				o.Category = 1
			default:
				o.Category = 2
			}
			o.Metrics[0] = total
			o.Metrics[1] = dice.Highest(buf)
			if extraDie {
				r.Roll(20)
			}
			return nil
		}, nil
	}
	return s
}

func TestCompareCommonRandomNumbers(t *testing.T) {
	opt := Options{Seed: 11, Trials: 40_000, ChunkSize: 1000}
	c, err := Compare(context.Background(), diceSpec(), bonusSpec(1, true), opt)
	if err != nil {
		t.Fatal(err)
	}
	d := c.Diff
	if d.Trials != 40_000 || c.A.Trials != 40_000 || c.B.Trials != 40_000 {
		t.Fatalf("trials %d %d %d", d.Trials, c.A.Trials, c.B.Trials)
	}
	// Every trial sees the same three dice on both sides, even though B
	// also rolls a d20 afterwards: the total differs by exactly -1 and the
	// highest die never differs.
	total, highest := d.Metrics[0], d.Metrics[1]
	if d := cmp.Diff(Histogram{Min: -1, Counts: []int64{40_000}}, total.Hist); d != "" {
		t.Errorf("A-B total (-want +got):\n%s", d)
	}
	if total.Mean != -1 || total.SE != 0 || highest.Mean != 0 || highest.SE != 0 {
		t.Errorf("differences: total %v±%v highest %v±%v", total.Mean, total.SE, highest.Mean, highest.SE)
	}
	// With +1 a trial moves up at most one category: the joint table is
	// zero below the diagonal, and the moves are the totals 9 and 11 exactly.
	tot := c.A.Metrics[0].Hist
	wantJoint := [][]int64{
		{c.A.Categories[0].Count - tot.Count(9), tot.Count(9), 0},
		{0, c.A.Categories[1].Count - tot.Count(11), tot.Count(11)},
		{0, 0, c.A.Categories[2].Count},
	}
	if d := cmp.Diff(wantJoint, d.Joint); d != "" {
		t.Errorf("joint (-want +got):\n%s", d)
	}
	// P_A(high) - P_B(high) = -P(3d6 = 11) = -27/216 exactly.
	exact := -27.0 / 216
	hi := d.Categories[2]
	if hi.AOnly != 0 || hi.BOnly != tot.Count(11) || math.Abs(hi.Diff-exact) > 4*hi.SE {
		t.Errorf("high: %+v, exact %v", hi, exact)
	}
	// The paired interval is much tighter than two independent runs'.
	indep := math.Hypot(c.A.Categories[2].Hi-c.A.Categories[2].Lo, c.B.Categories[2].Hi-c.B.Categories[2].Lo) / 2
	if paired := (hi.Hi - hi.Lo) / 2; paired > indep/1.5 {
		t.Errorf("paired half-width %v not well below independent %v", paired, indep)
	}
	// Identical variants: no difference at all.
	same, err := Compare(context.Background(), diceSpec(), diceSpec(), opt)
	if err != nil {
		t.Fatal(err)
	}
	for _, pc := range same.Diff.Categories {
		if pc.AOnly != 0 || pc.BOnly != 0 || pc.Diff != 0 || pc.Lo != 0 || pc.Hi != 0 {
			t.Errorf("identical variants differ: %+v", pc)
		}
	}
	if d := cmp.Diff(same.A.Categories, same.B.Categories); d != "" {
		t.Errorf("identical variants' reports differ:\n%s", d)
	}
	// Per-trial streams make the numbers independent of the chunk size too.
	o2 := opt
	o2.ChunkSize = 700
	c2, err := Compare(context.Background(), diceSpec(), bonusSpec(1, true), o2)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(c.Diff, c2.Diff); d != "" {
		t.Errorf("chunk size changed the paired numbers:\n%s", d)
	}
	// The same bits for any number of workers.
	for _, w := range []int{1, 3} {
		opt.Workers = w
		again, err := Compare(context.Background(), diceSpec(), bonusSpec(1, true), opt)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(c, again, sameNumbers); d != "" {
			t.Errorf("%d workers differ:\n%s", w, d)
		}
	}
}

func TestComparePrecisionAndCancel(t *testing.T) {
	opt := Options{Seed: 2, Trials: 1_000_000, ChunkSize: 500, Precision: 0.02}
	a, b := diceSpec(), bonusSpec(0, true)
	a.Metrics, b.Metrics = a.Metrics[1:], b.Metrics[1:]
	c, err := Compare(context.Background(), a, b, opt)
	if err != nil {
		t.Fatal(err)
	}
	if c.A.Provenance.Stop != StopPrecision || c.Diff.Trials >= opt.Trials {
		t.Errorf("stop %q after %d trials", c.A.Provenance.Stop, c.Diff.Trials)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	opt.Precision = 0
	c, err = Compare(ctx, a, b, opt)
	if err != nil {
		t.Fatal(err)
	}
	if !c.A.Provenance.Partial || !c.B.Provenance.Partial || c.Diff.Trials == opt.Trials {
		t.Errorf("cancelled compare: %+v, %d trials", c.A.Provenance, c.Diff.Trials)
	}
}

func TestCompareErrors(t *testing.T) {
	other := diceSpec()
	other.Categories = []string{"low", "high", "mid"}
	fewer := diceSpec()
	fewer.Metrics = fewer.Metrics[:1]
	broken := diceSpec()
	broken.New = nil
	for _, tc := range []struct {
		name string
		a, b Spec
		opt  Options
		want string
	}{
		{"categories", diceSpec(), other, Options{Trials: 10}, "same categories"},
		{"metrics", diceSpec(), fewer, Options{Trials: 10}, "same metrics"},
		{"nil New", diceSpec(), broken, Options{Trials: 10}, "nil New"},
		{"trials", diceSpec(), diceSpec(), Options{}, "trials 0"},
		{"tables", manyCats(), manyCats(), Options{Trials: 1 << 30, ChunkSize: 1, Workers: MaxWorkers}, "MiB of joint tables"},
	} {
		_, err := Compare(context.Background(), tc.a, tc.b, tc.opt)
		if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want an ErrInvalid mentioning %q", tc.name, err, tc.want)
		}
	}
	//lint:ignore SA1012 a nil context is the bad input under test
	if _, err := Compare(nil, diceSpec(), diceSpec(), Options{Trials: 1}); !errors.Is(err, ErrInvalid) {
		t.Errorf("nil context: %v", err)
	}
	bad := bonusSpec(0, false)
	bad.New = func() (Trial, error) {
		return func(r *dice.Roller, o *Outcome) error { o.Category = 7; return nil }, nil
	}
	if _, err := Compare(context.Background(), diceSpec(), bad, Options{Trials: 10}); err == nil || !strings.Contains(err.Error(), "variant B: category 7") {
		t.Errorf("bad variant B: %v", err)
	}
}

func TestMergeComparisons(t *testing.T) {
	opt := Options{Seed: 8, Trials: 9_000, ChunkSize: 1000}
	whole, err := Compare(context.Background(), diceSpec(), bonusSpec(1, true), opt)
	if err != nil {
		t.Fatal(err)
	}
	var parts []*Comparison
	for _, rg := range [][2]int64{{4, 9}, {0, 4}} {
		o := opt
		o.ChunkLo, o.ChunkHi = rg[0], rg[1]
		c, err := Compare(context.Background(), diceSpec(), bonusSpec(1, true), o)
		if err != nil {
			t.Fatal(err)
		}
		parts = append(parts, c)
	}
	merged, err := MergeComparisons(parts...)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(whole, merged, sameNumbers); d != "" {
		t.Errorf("merged comparison differs (-whole +merged):\n%s", d)
	}
	bad := *parts[1]
	bad.Diff.Joint = [][]int64{{1}}
	for _, tc := range []struct {
		name  string
		parts []*Comparison
		want  string
	}{
		{"none", nil, "at least one"},
		{"nil", []*Comparison{parts[0], nil}, "comparison 1 is nil"},
		{"overlap", []*Comparison{parts[0], parts[0]}, "overlap"},
		{"joint", []*Comparison{parts[0], &bad}, "does not match"},
	} {
		if _, err := MergeComparisons(tc.parts...); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an ErrInvalid mentioning %q", tc.name, err, tc.want)
		}
	}
}

func manyCats() Spec {
	s := diceSpec()
	s.Categories = nil
	for i := range MaxCategories {
		s.Categories = append(s.Categories, fmt.Sprint("c", i))
	}
	return s
}
