package edge

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"testing"
)

// brute is an independent solver of a duel (two parties of one member
// each, only the initiative holder acting, no outside factors, no groups,
// a d20 check) for the best play of one party, written from the rule text
// and the package's rulings without the engine: every state is the whole
// history as the rules state it (each skill's uses, the last skill and its
// run of consecutive rounds), every option is a legal skill, and every pair
// of d20 results is weighed. Tests set Solve's answers beside it.
type brute struct {
	skills              []string
	safe, appropriate   []bool
	opposed             [][]bool
	rep                 []int
	unpaired            int
	walk                bool
	base                [2][]int  // skill, circumstance and party bonus
	known               [2][]bool // the skills the member lists
	style               [2]Style  // the parties' styles (the decider's unused)
	edge                [2]int
	decider             int
	goal                func(winner int, partial bool) bool
	firstP              float64 // the chance party 0 acts first
	states              map[string]int
	keys                []bstate
	moves               [][][]bstep // by state, option: where it leads
	terminal            []float64   // by state: its value when absorbing (-1 when not)
	optionNames         [][]string
	maxStates, maxSweep int
}

// bstate is a duel at the start of a round: edge dice, initiative, the
// party first in the order of action, and each member's history.
type bstate struct {
	edge       [2]int
	init, head int
	uses       [2][]int // capped at len(rep): past that the penalty stays
	last       [2]int   // -1 for none
	streak     [2]int
}

type bstep struct {
	to int
	p  float64
}

// newBrute reads the duel s; the deciding party is side.
func newBrute(t *testing.T, s Scenario, side int) *brute {
	t.Helper()
	r := s.Rules
	typ := r.Types[s.Type]
	b := &brute{rep: r.Repetition, unpaired: r.Unpaired, walk: typ.WalkAway, decider: side, maxStates: 400_000, maxSweep: 200_000}
	if len(s.Parties) != 2 || len(s.Factors) > 0 || r.Turns != HolderActs || r.Check.String() != "d20" {
		t.Fatal("brute: a duel of two parties, holder acting, no factors, a d20")
	}
	// Skills are numbered in the order the scenario first names them (the
	// package doc), which settles a style's ties.
	seen := map[string]bool{}
	add := func(k string) {
		if k != "" && !seen[k] {
			seen[k] = true
			b.skills = append(b.skills, k)
		}
	}
	add(typ.Start)
	add(typ.Seize)
	for _, l := range [][]string{typ.Skills, typ.Safe, r.Endurance} {
		for _, k := range l {
			add(k)
		}
	}
	for _, pr := range r.Opposed {
		add(pr[0])
		add(pr[1])
	}
	for _, p := range s.Parties {
		if len(p.Members) != 1 || p.Passive || p.Members[0].Size > 1 {
			t.Fatal("brute: one active lone member a side")
		}
		for _, k := range slices.Sorted(maps.Keys(p.Members[0].Skills)) {
			add(k)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(s.Circumstances)) {
		add(k)
	}
	n := len(b.skills)
	b.safe, b.appropriate = make([]bool, n), make([]bool, n)
	b.opposed = make([][]bool, n)
	for i, k := range b.skills {
		b.safe[i] = slices.Contains(typ.Safe, k)
		b.appropriate[i] = len(typ.Skills) == 0 || slices.Contains(typ.Skills, k)
		b.opposed[i] = make([]bool, n)
		for _, pr := range r.Opposed {
			for j, o := range b.skills {
				if pr == [2]string{k, o} || pr == [2]string{o, k} {
					b.opposed[i][j] = true
				}
			}
		}
	}
	for p, pt := range s.Parties {
		b.edge[p] = r.StartEdge + pt.BonusEdge
		b.base[p], b.known[p] = make([]int, n), make([]bool, n)
		for i, k := range b.skills {
			v, ok := pt.Members[0].Skills[k]
			b.base[p][i], b.known[p][i] = v+s.Circumstances[k]+pt.Bonus, ok
		}
		pol := pt.Policy
		if pol == "" {
			pol = DefaultPolicy
		}
		b.style[p] = styles[pol]
	}
	switch {
	case typ.TempterFirst && s.Parties[0].Tempter == s.Parties[1].Tempter:
		b.firstP = 1
	case typ.TempterFirst && s.Parties[0].Tempter:
		b.firstP = 1
	case typ.TempterFirst:
		b.firstP = 0
	default:
		k := slices.Index(b.skills, typ.Start)
		m0, m1 := b.base[0][k], b.base[1][k]
		for x := 1; x <= 20; x++ {
			for y := 1; y <= 20; y++ {
				if !(y+m1 > x+m0 || y+m1 == x+m0 && m1 > m0) {
					b.firstP += 1.0 / 400
				}
			}
		}
	}
	b.goal = func(w int, _ bool) bool { return w == side }
	return b
}

// penalty is Can't Fool Me Twice for party p using skill k from x: a safe
// skill pays for its run of consecutive rounds, another for its uses.
func (b *brute) penalty(x *bstate, p, k int) int {
	n := x.uses[p][k]
	if b.safe[k] {
		n = 0
		if x.last[p] == k {
			n = x.streak[p]
		}
	}
	if n == 0 || len(b.rep) == 0 {
		return 0
	}
	return b.rep[min(n, len(b.rep))-1]
}

// reactExtra is the extra modifier of reacting with k to an action with
// a, and whether it is legal.
func (b *brute) reactExtra(k, a int) (int, bool) {
	switch {
	case k == a || b.safe[k] || b.opposed[k][a]:
		return 0, true
	case b.appropriate[k]:
		return b.unpaired, true
	}
	return 0, false
}

// styleAct is the skill the style of party p acts with: its best listed
// skill fit to act with (every such skill if it lists none), the first on
// ties.
func (b *brute) styleAct(x *bstate, p int) int {
	var cand []int
	for k := range b.skills {
		if b.known[p][k] && (b.appropriate[k] || b.safe[k]) {
			cand = append(cand, k)
		}
	}
	if len(cand) == 0 {
		for k := range b.skills {
			if b.appropriate[k] || b.safe[k] {
				cand = append(cand, k)
			}
		}
	}
	best, bm := -1, math.MinInt
	for _, k := range cand {
		m := b.base[p][k]
		if !b.style[p].IgnoreRepetition {
			m += b.penalty(x, p, k)
		}
		if m > bm {
			best, bm = k, m
		}
	}
	return best
}

// styleReact is the skill the style of party p reacts to a with: its
// listed skills, then the safe ones, then the actor's skill, the best
// legal one, the first on ties.
func (b *brute) styleReact(x *bstate, p, a int) int {
	var cand []int
	for k := range b.skills {
		if b.known[p][k] {
			cand = append(cand, k)
		}
	}
	for k := range b.skills {
		if b.safe[k] && !b.known[p][k] {
			cand = append(cand, k)
		}
	}
	if !slices.Contains(cand, a) {
		cand = append(cand, a)
	}
	best, bm := -1, math.MinInt
	for _, k := range cand {
		extra, ok := b.reactExtra(k, a)
		if !ok {
			continue
		}
		m := b.base[p][k] + extra
		if !b.style[p].IgnoreRepetition {
			m += b.penalty(x, p, k)
		}
		if m > bm {
			best, bm = k, m
		}
	}
	return best
}

// styleConcedes is the style's choice before a round: 0 play on, 1
// surrender, 2 walk away.
func (b *brute) styleConcedes(x *bstate, p int) int {
	st := b.style[p]
	switch {
	case st.SurrenderAt > 0 && x.edge[p] <= st.SurrenderAt:
		return 1
	case st.WalkLead > 0 && b.walk && x.edge[p]-x.edge[1-p] >= st.WalkLead:
		return 2
	}
	return 0
}

func (x *bstate) key() string {
	k := []byte{byte(x.edge[0]), byte(x.edge[1]), byte(x.init), byte(x.head)}
	for p := range 2 {
		k = append(k, byte(x.last[p]+1), byte(x.streak[p]))
		for _, u := range x.uses[p] {
			k = append(k, byte(u))
		}
	}
	return string(k)
}

func (x *bstate) clone() bstate {
	c := *x
	c.uses = [2][]int{slices.Clone(x.uses[0]), slices.Clone(x.uses[1])}
	return c
}

// used records that party p checked with k this round.
func (b *brute) used(x *bstate, p, k int) {
	if x.last[p] == k {
		x.streak[p] = min(x.streak[p]+1, len(b.rep))
	} else {
		x.streak[p] = 1
	}
	x.last[p] = k
	if !b.safe[k] {
		x.uses[p][k] = min(x.uses[p][k]+1, len(b.rep))
	}
}

// end is the value of an interaction ending with winner (-1: nobody).
func (b *brute) end(winner int, partial bool) int {
	k := fmt.Sprintf("#%d %v", winner, partial)
	if i, ok := b.states[k]; ok {
		return i
	}
	v := 0.0
	if winner >= 0 && b.goal(winner, partial) {
		v = 1
	}
	return b.number(k, bstate{}, v)
}

func (b *brute) number(k string, x bstate, terminal float64) int {
	if i, ok := b.states[k]; ok {
		return i
	}
	i := len(b.keys)
	b.states[k] = i
	b.keys = append(b.keys, x)
	b.terminal = append(b.terminal, terminal)
	b.moves = append(b.moves, nil)
	b.optionNames = append(b.optionNames, nil)
	return i
}

// conceded is where party p's concession c (1 surrender, 2 walk away)
// leads from x.
func (b *brute) conceded(x *bstate, p, c int) int {
	if c == 1 {
		return b.end(1-p, false)
	}
	switch {
	case x.edge[0] > x.edge[1]:
		return b.end(0, true)
	case x.edge[1] > x.edge[0]:
		return b.end(1, true)
	}
	return b.end(-1, false)
}

// round is where a round leads from x with party 0 checking k0 and party
// 1 k1 (the holder acting): every pair of d20 results weighed.
func (b *brute) round(x *bstate, ks [2]int, out []bstep) []bstep {
	h := x.init
	var mod [2]int
	for p := range 2 {
		mod[p] = b.base[p][ks[p]] + b.penalty(x, p, ks[p])
	}
	if a := ks[h]; true {
		extra, _ := b.reactExtra(ks[1-h], a)
		mod[1-h] += extra
	}
	// The higher check wins the other's die; equal totals rank by the
	// modifier; level moves nothing and the holder keeps the initiative.
	var win [2]float64
	for r0 := 1; r0 <= 20; r0++ {
		for r1 := 1; r1 <= 20; r1++ {
			t0, t1 := r0+mod[0], r1+mod[1]
			switch {
			case t0 > t1 || t0 == t1 && mod[0] > mod[1]:
				win[0] += 1.0 / 400
			case t1 > t0 || t0 == t1 && mod[1] > mod[0]:
				win[1] += 1.0 / 400
			}
		}
	}
	next := x.clone()
	b.used(&next, 0, ks[0])
	b.used(&next, 1, ks[1])
	for w := range 2 {
		y := next.clone()
		y.edge[w]++
		y.edge[1-w]--
		y.init = w
		to := -1
		if y.edge[1-w] == 0 {
			to = b.end(w, false)
		} else {
			to = b.number(y.key(), y, -1)
		}
		out = append(out, bstep{to, win[w]})
	}
	if level := 1 - win[0] - win[1]; level > 0 {
		out = append(out, bstep{b.number(next.key(), next, -1), level})
	}
	return out
}

// options lists the decider's options in state i with where each leads.
func (b *brute) options(i int) {
	x := b.keys[i]
	d, o := b.decider, 1-b.decider
	order := [2]int{x.head, 1 - x.head}
	if order[0] == o {
		if c := b.styleConcedes(&x, o); c > 0 {
			b.moves[i] = [][]bstep{{{b.conceded(&x, o, c), 1}}}
			b.optionNames[i] = []string{"-"}
			return
		}
	}
	add := func(name string, steps []bstep) {
		b.moves[i] = append(b.moves[i], steps)
		b.optionNames[i] = append(b.optionNames[i], name)
	}
	add("surrender", []bstep{{b.conceded(&x, d, 1), 1}})
	if b.walk {
		add("walk away", []bstep{{b.conceded(&x, d, 2), 1}})
	}
	if order[1] == o {
		if c := b.styleConcedes(&x, o); c > 0 {
			add("play on", []bstep{{b.conceded(&x, o, c), 1}})
			return
		}
	}
	var ks [2]int
	if x.init == d {
		for k := range b.skills {
			if b.appropriate[k] || b.safe[k] {
				ks[d] = k
				ks[o] = b.styleReact(&x, o, k)
				add(b.skills[k], b.round(&x, ks, nil))
			}
		}
		return
	}
	ks[o] = b.styleAct(&x, o)
	for k := range b.skills {
		if _, ok := b.reactExtra(k, ks[o]); ok {
			ks[d] = k
			add(b.skills[k], b.round(&x, ks, nil))
		}
	}
}

// solve returns the best chance of the goal from the start, and the
// number of round-start states.
func (b *brute) solve(t *testing.T) (float64, int) {
	t.Helper()
	b.states = map[string]int{}
	var starts []bstep
	for head, p := range map[int]float64{0: b.firstP, 1: 1 - b.firstP} {
		if p == 0 {
			continue
		}
		x := bstate{edge: b.edge, init: head, head: head, last: [2]int{-1, -1}}
		x.uses = [2][]int{make([]int, len(b.skills)), make([]int, len(b.skills))}
		starts = append(starts, bstep{b.number(x.key(), x, -1), p})
	}
	for i := 0; i < len(b.keys); i++ {
		if b.terminal[i] < 0 {
			b.options(i)
		}
		if len(b.keys) > b.maxStates {
			t.Fatalf("brute: more than %d states", b.maxStates)
		}
	}
	v := make([]float64, len(b.keys))
	for i, tv := range b.terminal {
		v[i] = max(tv, 0)
	}
	for sweep := 0; ; sweep++ {
		moved := 0.0
		for i := len(v) - 1; i >= 0; i-- {
			if b.terminal[i] >= 0 {
				continue
			}
			best := math.Inf(-1)
			for _, steps := range b.moves[i] {
				q := 0.0
				for _, s := range steps {
					q += s.p * v[s.to]
				}
				best = max(best, q)
			}
			moved = max(moved, math.Abs(best-v[i]))
			v[i] = best
		}
		if moved < 1e-16 {
			break
		}
		if sweep == b.maxSweep {
			t.Fatalf("brute: values still moving by %g", moved)
		}
	}
	val, rounds := 0.0, 0
	for _, s := range starts {
		val += s.p * v[s.to]
	}
	for i := range b.keys {
		if b.terminal[i] < 0 {
			rounds++
		}
	}
	return val, rounds
}
