package dice

import (
	"slices"
	"syscall"
	"testing"
	"time"
)

// cpuTime returns the process's CPU time so far (user and system).
func cpuTime() time.Duration {
	var u syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &u) != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}

// reportCPU reports CPU ns per op beside the wall time: on a machine
// shared with other work the wall time counts the waits for a core, the
// CPU time only the work.
func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
}

// The expressions of issue 23's speed targets: exact distributions, and
// rolls beside a hand-written math/rand/v2 loop for the same expression.

var benchExprs = []struct{ name, expr string }{
	{"4d6kh3", "4d6kh3"},
	{"20d6", "20d6"},
	{"8d10>=7", "8d10>=7"},
	{"3d6!", "3d6!"},
	{"10d10kh3", "10d10kh3"},
}

func BenchmarkExprExact(b *testing.B) {
	for _, bb := range benchExprs {
		e, err := ParseExpr(bb.expr)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(bb.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := e.Dist(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkExprRoll(b *testing.B) {
	for _, bb := range benchExprs {
		e, err := ParseExpr(bb.expr)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(bb.name, func(b *testing.B) {
			r := NewSeeded(1)
			var res ExprResult
			b.ReportAllocs()
			s := 0
			start := cpuTime()
			for b.Loop() {
				_ = e.Roll(r, &res)
				s += res.Total
			}
			reportCPU(b, start)
			sink = s
		})
	}
}

// The same rolls as a user would write them with math/rand/v2.
func BenchmarkExprRollNaive(b *testing.B) {
	naive := map[string]func(r interface{ IntN(int) int }) int{
		"4d6kh3": func(r interface{ IntN(int) int }) int {
			s, lo := 0, 7
			for range 4 {
				f := r.IntN(6) + 1
				s += f
				lo = min(lo, f)
			}
			return s - lo
		},
		"20d6": func(r interface{ IntN(int) int }) int {
			s := 0
			for range 20 {
				s += r.IntN(6) + 1
			}
			return s
		},
		"8d10>=7": func(r interface{ IntN(int) int }) int {
			n := 0
			for range 8 {
				if r.IntN(10)+1 >= 7 {
					n++
				}
			}
			return n
		},
		"3d6!": func(r interface{ IntN(int) int }) int {
			s := 0
			for range 3 {
				f := r.IntN(6) + 1
				s += f
				for extra := 0; f == 6 && extra < 10; extra++ {
					f = r.IntN(6) + 1
					s += f
				}
			}
			return s
		},
		"10d10kh3": func(r interface{ IntN(int) int }) int {
			var f [10]int
			for i := range f {
				f[i] = r.IntN(10) + 1
			}
			slices.Sort(f[:])
			return f[7] + f[8] + f[9]
		},
	}
	for _, bb := range benchExprs {
		roll := naive[bb.name]
		b.Run(bb.name, func(b *testing.B) {
			r := naiveRand()
			b.ReportAllocs()
			s := 0
			start := cpuTime()
			for b.Loop() {
				s += roll(r)
			}
			reportCPU(b, start)
			sink = s
		})
	}
}

// Exact keeps and drops over dice that re-roll, explode, are Fudge dice
// or count successes: the face-by-face sweep of keepOf.
func BenchmarkExprExactKeep(b *testing.B) {
	for _, s := range []string{"d12 d8!kh1", "4d6r1kh3", "d12 d8 d6>=5kh2", "5dFkh2", "4d10! >=8kh2", "10d10! >=8f1kh5"} {
		e, err := ParseExpr(s)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(s, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := e.Dist(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// Total: the same rolls as BenchmarkExprRoll, the total only (issue 39:
// as fast as the naive loop beside it).
func BenchmarkExprTotal(b *testing.B) {
	for _, bb := range benchExprs {
		e, err := ParseExpr(bb.expr)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(bb.name, func(b *testing.B) {
			r := NewSeeded(1)
			b.ReportAllocs()
			s := 0
			start := cpuTime()
			for b.Loop() {
				v, _ := e.Total(r)
				s += v
			}
			reportCPU(b, start)
			sink = s
		})
	}
}

// A bot's whole job: the text as typed, parsed (found in a Cache) and
// rolled for its total.
func BenchmarkCacheRoll(b *testing.B) {
	for _, bb := range benchExprs {
		var c Cache
		b.Run(bb.name, func(b *testing.B) {
			r := NewSeeded(1)
			b.ReportAllocs()
			s := 0
			start := cpuTime()
			for b.Loop() {
				v, err := c.Roll(r, bb.expr)
				if err != nil {
					b.Fatal(err)
				}
				s += v
			}
			reportCPU(b, start)
			sink = s
		})
	}
}

// Exact distributions of the forms issue 34 added: groups, custom faces,
// several success points, checks, tiers, powers and pattern-counted keeps.
func BenchmarkExprExactForms(b *testing.B) {
	for _, s := range []string{"{3d6, 4d4+1}kh1", "(1d20, 1d20)kh1", "10d{0,0,0,1,1,2}", "10d10>=8>=10", "d20+5>=15",
		"2d6+1 tiers 6,9", "d6^d4", "100d6kh3", "100d6kl3", "(2d6+2d8)kh2", "4d6r1r2kh3", "3d6!!kh2",
		"4d6u", "6d12u", "4d6uo", "6d6mt", "20d10mt3>=8"} {
		e, err := ParseExpr(s)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(s, func(b *testing.B) {
			b.ReportAllocs()
			start := cpuTime()
			for b.Loop() {
				if _, _, err := e.Dist(); err != nil {
					b.Fatal(err)
				}
			}
			reportCPU(b, start)
		})
	}
}

// A bot's whole job with the breakdown it shows: the text as typed, found
// in a Cache (parsed once), rolled with every die recorded into a reused
// ExprResult (text); beside it the same expression already parsed, rolled
// by Expr.Roll (roll). Issue 34: the text path allocates nothing and
// costs at most twice what Expr.Roll cost before.
func BenchmarkBotRoll(b *testing.B) {
	for _, s := range []string{"d20+5", "2d20kh1+7", "8d6 # fireball", "4d6kh3", "2d6+1d8+3", "d20+5>=15"} {
		var c Cache
		e, err := c.Parse(s)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(s+"/text", func(b *testing.B) {
			r := NewSeeded(1)
			var res ExprResult
			b.ReportAllocs()
			start := cpuTime()
			for b.Loop() {
				e, err := c.Parse(s)
				if err != nil {
					b.Fatal(err)
				}
				_ = e.Roll(r, &res)
			}
			reportCPU(b, start)
		})
		b.Run(s+"/roll", func(b *testing.B) {
			r := NewSeeded(1)
			var res ExprResult
			b.ReportAllocs()
			start := cpuTime()
			for b.Loop() {
				_ = e.Roll(r, &res)
			}
			reportCPU(b, start)
		})
	}
}
