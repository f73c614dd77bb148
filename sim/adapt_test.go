package sim

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/stakesrpg/stakes/dice"
)

// pairRunner is shaped like a rule package's Runner: roll 2d6; category 0
// on doubles; metrics are the two faces.
type pairRunner struct{ buf []int }

func (p *pairRunner) Trial(r *dice.Roller, metrics []int) (int, error) {
	if r == nil {
		return 0, dice.ErrNilRoller
	}
	p.buf = r.RollN(2, 6, p.buf)
	metrics[0], metrics[1] = p.buf[0], p.buf[1]
	if p.buf[0] == p.buf[1] {
		return 0, nil
	}
	return 1, nil
}

func TestFromRunner(t *testing.T) {
	built := 0
	newRunner := func() (*pairRunner, error) { built++; return &pairRunner{buf: make([]int, 0, 2)}, nil }
	spec := Spec{Name: "pair", Categories: []string{"doubles", "other"}, Metrics: []string{"first", "second"},
		New: FromRunner(newRunner, 2)}
	r, err := Run(context.Background(), spec, Options{Seed: 1, Trials: 36_000, Workers: 3, ChunkSize: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if built != 3 {
		t.Errorf("built %d runners for 3 workers", built)
	}
	d := r.Categories[0]
	if se := math.Sqrt(5.0 / 36 / 36_000); math.Abs(d.P-1.0/6) > 4*se {
		t.Errorf("doubles %v, want 1/6 within 4 SE (%v)", d.P, se)
	}
	d6, _ := dice.Uniform(dice.D6)
	for _, m := range r.Metrics {
		if fit, err := m.Hist.Fit(d6); err != nil || fit.PValue < 1e-4 {
			t.Errorf("%s: %+v %v", m.Name, fit, err)
		}
	}
	for _, tc := range []struct {
		name string
		new  func() (Trial, error)
		want string
	}{
		{"metrics", FromRunner(newRunner, MaxMetrics+1), "9 metrics"},
		{"nil", FromRunner[*pairRunner](nil, 2), "nil runner constructor"},
		{"fails", FromRunner(func() (*pairRunner, error) { return nil, errors.New("bad scenario") }, 2), "bad scenario"},
	} {
		spec.New = tc.new
		if _, err := Run(context.Background(), spec, Options{Trials: 10}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}
