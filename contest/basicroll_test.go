package contest

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/dice/gof"
)

// TestBasicRollOdds holds BasicRoll's margins to the exact distribution the
// two pools' totals make (PBeat's), by chi-square at a fixed seed, and its
// win and Extraordinary rates to the exact ones; a margin distribution a
// few points off must fail the same test.
func TestBasicRollOdds(t *testing.T) {
	rules := DefaultRules()
	stakes, ds := []dice.Die{dice.D10, dice.D8, dice.D6}, []dice.Die{dice.D8, dice.D6, dice.D10}
	sd, err := TotalDist(stakes, rules)
	must(t, err)
	ad, err := TotalDist(ds, rules)
	must(t, err)
	// Exact margin distribution: P(total - stakes = k).
	lo := ad.Min - (sd.Min + len(sd.P) - 1)
	exact := make([]float64, len(ad.P)+len(sd.P)-1)
	for i, pa := range ad.P {
		for j, ps := range sd.P {
			exact[i+(len(sd.P)-1-j)] += pa * ps
		}
	}
	margins := dice.Dist{Min: lo, P: exact}
	pWin, err := PBeat(ds, stakes, 0, rules)
	must(t, err)
	pXO := margins.AtLeast(rules.Extraordinary) + (1 - margins.AtLeast(-rules.Extraordinary+1))
	if math.Abs(margins.AtLeast(1)-pWin) > 1e-12 {
		t.Fatalf("exact margins give P(win) %v, PBeat %v", margins.AtLeast(1), pWin)
	}
	e := &rules
	r := dice.NewSeeded(99)
	var res BasicResult
	const n = 200000
	seen := map[int]int64{}
	wins, xos := 0, 0
	for range n {
		must(t, e.BasicRoll(r, ds, stakes, &res))
		seen[res.Margin]++
		if res.Won {
			wins++
		}
		if res.Extraordinary {
			xos++
		}
	}
	if fit, err := gof.ChiSquare(margins, seen); err != nil || fit.PValue < 1e-4 {
		t.Errorf("margins %v: chi-square p = %v (%v)", seen, fit.PValue, err)
	}
	for _, c := range []struct {
		name      string
		got, want float64
	}{{"win", float64(wins) / n, pWin}, {"Extraordinary", float64(xos) / n, pXO}} {
		if se := math.Sqrt(c.want * (1 - c.want) / n); math.Abs(c.got-c.want) > 5*se {
			t.Errorf("%s rate %v, exact %v (5 SE = %v)", c.name, c.got, c.want, 5*se)
		}
	}
	// The test can fail: move three points of margin from the likeliest
	// margin to the one after it.
	wrong := slices.Clone(exact)
	hi := 0
	for i := range wrong {
		if wrong[i] > wrong[hi] {
			hi = i
		}
	}
	wrong[hi] -= 0.03
	wrong[hi+1] += 0.03
	if fit, _ := gof.ChiSquare(dice.Dist{Min: lo, P: wrong}, seen); fit.PValue > 1e-4 {
		t.Errorf("a margin distribution 3 points off passed (p = %v)", fit.PValue)
	}
}

// TestBasicRollRejects: each bad argument is an error that says why, and
// then nothing is drawn and the result is left as it was.
func TestBasicRollRejects(t *testing.T) {
	e := ptr(DefaultRules())
	ok := []dice.Die{dice.D8, dice.D6}
	for _, c := range []struct {
		name          string
		nilRoller     bool
		nilOut        bool
		stakes, pool  []dice.Die
		want          string
		wantWrapsDice bool
	}{
		{name: "no roller", nilRoller: true, stakes: ok, pool: ok, want: "nil *Roller"},
		{name: "no result", nilOut: true, stakes: ok, pool: ok, want: "needs a BasicResult"},
		{name: "empty pool", stakes: ok, pool: nil, want: "actor's pool is empty"},
		{name: "empty pool, bad stakes", stakes: []dice.Die{7}, pool: []dice.Die{}, want: "actor's pool is empty"},
		{name: "d5 in the stakes", stakes: []dice.Die{dice.D8, 5}, pool: ok, want: "the stakes pool, die 2", wantWrapsDice: true},
		{name: "d20 in the pool", stakes: ok, pool: []dice.Die{dice.D6, dice.D20}, want: "the actor's pool, die 2", wantWrapsDice: true},
		{name: "d2 in the pool", stakes: ok, pool: []dice.Die{2}, want: "the actor's pool, die 1", wantWrapsDice: true},
		{name: "a lost trait in the stakes", stakes: []dice.Die{dice.Gone}, pool: ok, want: "the stakes pool, die 1", wantWrapsDice: true},
		{name: "a negative size", stakes: ok, pool: []dice.Die{dice.D4, -4}, want: "the actor's pool, die 2", wantWrapsDice: true},
		{name: "d14 in the stakes", stakes: []dice.Die{14, dice.D4}, pool: ok, want: "the stakes pool, die 1", wantWrapsDice: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, twin := dice.NewSeeded(5), dice.NewSeeded(5)
			before := BasicResult{StakesFaces: []int{9, 9}, Faces: []int{9}, Stakes: 7, Total: 3, Margin: -4, Ones: 2}
			res := before
			res.StakesFaces, res.Faces = slices.Clone(before.StakesFaces), slices.Clone(before.Faces)
			out, roller := &res, r
			if c.nilOut {
				out = nil
			}
			if c.nilRoller {
				roller = nil
			}
			err := e.BasicRoll(roller, c.pool, c.stakes, out)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one saying %q", err, c.want)
			}
			if len(c.pool) == 0 && !errors.Is(err, errNoActorDice) {
				t.Errorf("error %v is not errNoActorDice", err)
			}
			if c.wantWrapsDice && !strings.Contains(err.Error(), "not a ladder size") {
				t.Errorf("error %v does not say which sizes are allowed", err)
			}
			if d := diff(before, res); d != "" {
				t.Errorf("the result changed (-before +after):\n%s", d)
			}
			if r.Uint64() != twin.Uint64() {
				t.Error("a rejected BasicRoll drew from the Roller")
			}
		})
	}
	// A refused call leaves no error behind: the next good one works.
	var res BasicResult
	if err := e.BasicRoll(dice.NewSeeded(1), ok, ok, &res); err != nil || len(res.Faces) != 2 {
		t.Fatalf("after refusals: %v, %+v", err, res)
	}
}

// TestBasicRollScripted: a scripted Roller plays BasicRoll die by die, the
// stakes first, so a worked example reads as the table would.
func TestBasicRollScripted(t *testing.T) {
	e := ptr(DefaultRules())
	stakes, pool := []dice.Die{dice.D10, dice.D8, dice.D6}, []dice.Die{dice.D8, dice.D6, dice.D10}
	for _, c := range []struct {
		faces  []int
		stakes int
		total  int
		won    bool
		xo     bool
		ones   int
	}{
		// 7+5 stakes; 1 out, 4+9 = 13 beats 12.
		{[]int{7, 5, 2, 1, 4, 9}, 12, 13, true, false, 1},
		// A tie loses.
		{[]int{7, 5, 2, 8, 4, 4}, 12, 12, false, false, 0},
		// 2 stakes (two 1s out), 8+10 wins by 16: Extraordinary.
		{[]int{1, 1, 2, 8, 6, 10}, 2, 18, true, true, 0},
		// 10+8 stakes against all 1s: lost by 18, Extraordinary.
		{[]int{10, 8, 6, 1, 1, 1}, 18, 0, false, true, 3},
		// Lost by exactly the Extraordinary margin.
		{[]int{10, 8, 6, 6, 6, 7}, 18, 13, false, true, 0},
		// Won by exactly the Extraordinary margin, and by one less.
		{[]int{4, 4, 4, 8, 4, 5}, 8, 13, true, true, 0},
		{[]int{4, 4, 4, 8, 4, 4}, 8, 12, true, false, 0},
	} {
		r := dice.Scripted(c.faces...)
		var res BasicResult
		must(t, e.BasicRoll(r, pool, stakes, &res))
		must(t, r.Err())
		if !slices.Equal(res.StakesFaces, c.faces[:3]) || !slices.Equal(res.Faces, c.faces[3:]) ||
			res.Stakes != c.stakes || res.Total != c.total || res.Margin != c.total-c.stakes || res.Won != c.won || res.Extraordinary != c.xo || res.Ones != c.ones {
			t.Errorf("faces %v: got %+v, want stakes %d, total %d, won %v, Extraordinary %v, 1s %d", c.faces, res, c.stakes, c.total, c.won, c.xo, c.ones)
		}
	}
}

// TestBasicRollAllocs: with a BasicResult reused, BasicRoll allocates
// nothing, for pools of three dice and of nine.
func TestBasicRollAllocs(t *testing.T) {
	e := ptr(DefaultRules())
	r := dice.NewSeeded(3)
	var res BasicResult
	for _, c := range [][2][]dice.Die{
		{{dice.D10, dice.D8, dice.D6}, {dice.D8, dice.D6, dice.D10}},
		{{dice.D6, dice.D6}, {dice.D12, dice.D12, dice.D12, dice.D12, dice.D12, dice.D12, dice.D12, dice.D12, dice.D12}},
	} {
		must(t, e.BasicRoll(r, c[1], c[0], &res))
		if n := testing.AllocsPerRun(200, func() { _ = e.BasicRoll(r, c[1], c[0], &res) }); n != 0 {
			t.Errorf("%v against %v: %v allocations a roll", c[1], c[0], n)
		}
	}
}
