package workbench

import (
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stakesrpg/stakes/sim"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
)

// Every command that draws writes a figure of the page width (9 inches at
// 96 dots an inch) as PNG, or SVG by the name.
func TestPlotsOfEveryCommand(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		file string
		args []string
	}{
		{"sim.png", []string{"sim", "coin", "--trials", "2000"}},
		{"sim.svg", []string{"sim", "coin", "--trials", "2000", "--set", "target=4"}},
		{"odds.png", []string{"odds", "coin"}},
		{"odds-edge.png", []string{"odds", "edge"}},
		{"compare.png", []string{"compare", "coin", "--trials", "2000", "--b", "target=3"}},
		{"sweep.png", []string{"sweep", "coin", "--trials", "500", "--axis", "target=1..3"}},
	} {
		p := filepath.Join(dir, tc.file)
		code, _, errOut := stakes(t, append(tc.args, "--plot", p)...)
		if code != 0 {
			t.Errorf("%q --plot: exit %d %s", tc.args, code, errOut)
			continue
		}
		f, err := os.Open(p)
		if err != nil {
			t.Error(err)
			continue
		}
		if strings.HasSuffix(tc.file, ".png") {
			cfg, err := png.DecodeConfig(f)
			if err != nil || cfg.Width != 864 || cfg.Height < 250 {
				t.Errorf("%s: %v %dx%d, want 864 wide", tc.file, err, cfg.Width, cfg.Height)
			}
		} else if st, _ := f.Stat(); st.Size() < 2000 {
			t.Errorf("%s: %d bytes", tc.file, st.Size())
		}
		f.Close()
	}
	// A scenario without an exact answer has nothing for odds to draw
	// (dramadeck prints its card odds, then says so).
	code, _, errOut := stakes(t, "odds", "dramadeck", "--plot", filepath.Join(dir, "none.png"))
	if code != 1 || !strings.Contains(errOut, "--plot: no exact answer to draw") {
		t.Errorf("odds without exact: exit %d %q", code, errOut)
	}
}

func TestNumberTicks(t *testing.T) {
	labels := func(ts []plot.Tick) (major, minor []string) {
		for _, tk := range ts {
			if tk.Label == "" {
				minor = append(minor, strconv.FormatFloat(tk.Value, 'g', 4, 64))
			} else {
				major = append(major, tk.Label)
			}
		}
		return major, minor
	}
	major, minor := labels(numberTicks{n: 8}.Ticks(0, 0.8))
	if strings.Join(major, " ") != "0.0 0.1 0.2 0.3 0.4 0.5 0.6 0.7 0.8" || len(minor) != 8 {
		t.Errorf("0..0.8: major %q minor %q", major, minor)
	}
	major, minor = labels(numberTicks{n: 12, whole: true}.Ticks(3.4, 8.6))
	if strings.Join(major, " ") != "4 5 6 7 8" || len(minor) != 0 {
		t.Errorf("whole 3.4..8.6: major %q minor %q", major, minor)
	}
	major, _ = labels(numberTicks{n: 15, whole: true}.Ticks(3.4, 111.6))
	if strings.Join(major, " ") != "10 20 30 40 50 60 70 80 90 100 110" {
		t.Errorf("whole 3.4..111.6: major %q", major)
	}
	if ts := (numberTicks{n: 8}).Ticks(1, 1); len(ts) != 1 {
		t.Errorf("empty range: %v", ts)
	}
}

func TestWrapTo(t *testing.T) {
	sty := text.Style{Font: font.From(plot.DefaultFont, vg.Points(13)), Handler: plot.DefaultTextHandler}
	long := "contest: contested action: Villain (Chaos+Henchmen+Madness with 2 extra mooks) vs Detective (Justice+Gotham+World's Greatest)\n20000 trials"
	got := wrapTo(sty, long, 6*vg.Inch)
	lines := strings.Split(got, "\n")
	if len(lines) < 3 || lines[len(lines)-1] != "20000 trials" || strings.Join(strings.Fields(got), " ") != strings.Join(strings.Fields(long), " ") {
		t.Errorf("wrap: %q", got)
	}
	for _, l := range lines {
		if sty.Width(l) > 6*vg.Inch {
			t.Errorf("line wider than 6 inches: %q", l)
		}
	}
}

func TestSweepX(t *testing.T) {
	tests := []struct {
		vals  []string
		xs    []float64
		ticks string // "whole", "fractions" or "names"
	}{
		{[]string{"3", "4", "6"}, []float64{3, 4, 6}, "whole"},
		{[]string{"0.5", "1", "1.5"}, []float64{0.5, 1, 1.5}, "fractions"},
		{[]string{"never", "always"}, []float64{0, 1}, "names"},
		{[]string{"1", "Inf"}, []float64{0, 1}, "names"},
	}
	for _, tt := range tests {
		x := sweepX(sim.Axis{Name: "k", Values: tt.vals})
		kind := "names"
		if nt, ok := x.ticks.(numberTicks); ok {
			kind = map[bool]string{true: "whole", false: "fractions"}[nt.whole]
		}
		if !slices.Equal(x.xs, tt.xs) || kind != tt.ticks || x.name != "k" {
			t.Errorf("sweepX(%q) = %v %s, want %v %s", tt.vals, x.xs, kind, tt.xs, tt.ticks)
		}
	}
}
