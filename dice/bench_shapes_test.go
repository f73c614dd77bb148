package dice

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The shapes of issue 39's comparison with icepool: Cortex's five dice,
// 100d6 keep 3, twenty mixed Cortex dice keep 3, and expressions as typed.
// floor/d6, one d6's distribution, is the least exact answer there is:
// cold, it is what any first call pays in a fresh process (the code's
// pages mapped and cached for the first time), work aside.
// Each shape runs cold (the first call in a fresh process, with the
// package's initialisation, as a command line or a bot just started
// pays) and warm (called again in the same process).
type exactShape struct {
	name string
	dist func() (Dist, error)
}

// exactShapes is a function, not a variable, so that building it is no
// part of the package's initialisation, which a cold run measures.
func exactShapes() []exactShape {
	return []exactShape{
		{"floor/d6", func() (Dist, error) { return Uniform(D6) }},
		{"cortex5kh2", func() (Dist, error) { return KeepHighestOf([]Die{D4, D6, D8, D10, D12}, 2, Faces(1)) }},
		{"100d6kh3", func() (Dist, error) { return KeepHighestOf(shapeDice(100, D6), 3, FaceSet{}) }},
		{"mixed20kh3", func() (Dist, error) { return KeepHighestOf(mixed20(), 3, Faces(1)) }},
		{"expr/4dF", exprShape("4dF")},
		{"expr/4d6kh3", exprShape("4d6kh3")},
		{"expr/3d6", exprShape("3d6")},
		{"expr/2d20kh1+5", exprShape("2d20kh1+5")},
		{"expr/8d10>=7", exprShape("8d10>=7")},
		{"expr/3d6!", exprShape("3d6!")},
		{"expr/10d10kh3", exprShape("10d10kh3")},
		{"expr/100d6kh3", exprShape("100d6kh3")},
	}
}

func shapeDice(n int, d Die) []Die {
	ds := make([]Die, n)
	for i := range ds {
		ds[i] = d
	}
	return ds
}

// exprShape parses s and gives its exact distribution: what a bot asked
// for the odds of a text pays.
func exprShape(s string) func() (Dist, error) {
	return func() (Dist, error) {
		e, err := ParseExpr(s)
		if err != nil {
			return Dist{}, err
		}
		d, _, err := e.Dist()
		return d, err
	}
}

// coldShapeEnv names the shape a child process runs once (see TestMain).
const coldShapeEnv = "STAKES_DICE_COLD_SHAPE"

// TestMain runs one shape and exits when started by BenchmarkExactShapes
// as its cold child; otherwise it runs the tests.
func TestMain(m *testing.M) {
	if name := os.Getenv(coldShapeEnv); name != "" {
		os.Exit(runColdShape(name))
	}
	updateTables = flag.Bool("update-tables", false, "rewrite tables.go from the definitions in TestTables")
	os.Exit(m.Run())
}

// runColdShape times the first call of the named shape and prints its
// nanoseconds for the parent to read.
func runColdShape(name string) int {
	for _, s := range exactShapes() {
		if s.name != name {
			continue
		}
		start := time.Now()
		_, err := s.dist()
		ns := time.Since(start).Nanoseconds()
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		fmt.Printf("cold %d\n", ns)
		return 0
	}
	fmt.Fprintln(os.Stderr, "no shape", name)
	return 1
}

// initClock reads the runtime's line for this package's initialisation
// (GODEBUG=inittrace=1: "init <path> @<start> ms, <clock> ms clock, ...")
// and returns its wall time in nanoseconds, 0 if there is no such line.
func initClock(trace string) float64 {
	for line := range strings.Lines(trace) {
		f := strings.Fields(line)
		if len(f) >= 7 && f[0] == "init" && f[1] == "github.com/stakesrpg/stakes/dice" && f[6] == "clock," {
			ms, _ := strconv.ParseFloat(f[4], 64)
			return ms * 1e6
		}
	}
	return 0
}

// coldRun starts a fresh process of this test binary that runs the shape
// once, and returns the nanoseconds of the package's initialisation and
// of the call.
func coldRun(b *testing.B, exe, name string) (initNs, callNs float64) {
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), coldShapeEnv+"="+name, "GODEBUG=inittrace=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		b.Fatalf("cold %s: %v\n%s", name, err, stderr.String())
	}
	if _, err := fmt.Sscanf(stdout.String(), "cold %g", &callNs); err != nil {
		b.Fatalf("cold %s: %q: %v", name, stdout.String(), err)
	}
	return initClock(stderr.String()), callNs
}

// BenchmarkExactShapes: cold reports, as ns/op, the package's
// initialisation plus the first call in a fresh process (init-ns/op is
// the first part); warm calls again in one process, and reports CPU time
// beside wall time.
func BenchmarkExactShapes(b *testing.B) {
	exe, err := os.Executable()
	if err != nil {
		b.Skip("no path to this test binary:", err)
	}
	for _, s := range exactShapes() {
		b.Run(s.name+"/cold", func(b *testing.B) {
			var in, call float64
			for b.Loop() {
				i, c := coldRun(b, exe, s.name)
				in, call = in+i, call+c
			}
			n := float64(b.N)
			b.ReportMetric((in+call)/n, "ns/op")
			b.ReportMetric(in/n, "init-ns/op")
		})
		b.Run(s.name+"/warm", func(b *testing.B) {
			b.ReportAllocs()
			start := cpuTime()
			for b.Loop() {
				if _, err := s.dist(); err != nil {
					b.Fatal(err)
				}
			}
			reportCPU(b, start)
		})
	}
}
