package edge

import (
	"fmt"
	"reflect"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stakesrpg/stakes/dice"
)

// TestStyleRound: the Styles' direct round (styleRound) lists exactly the
// checks, modifiers and flags that compiling the Styles' own Declaration
// lists, in the same order, at every step of random interactions; and it
// covers most rounds of them.
func TestStyleRound(t *testing.T) {
	scenarios, trials := 60, 10
	if testing.Short() || raceOn {
		scenarios = 40
	}
	gen := dice.NewSeeded(7)
	r := dice.NewSeeded(70)
	fast, slow, fastGroups, fastLone := 0, 0, 0, 0
	for i := range scenarios {
		s := randomScenario(gen)
		if i%5 == 1 {
			// One member a side, both active.
			s.Parties = s.Parties[:2]
			for p := range s.Parties {
				s.Parties[p].Passive = false
				s.Parties[p].Members = s.Parties[p].Members[:1]
			}
			if s.Type == "temptation" {
				s.Parties[0].Tempter = true
			}
		}
		if i%3 == 0 {
			// Without groups, so the direct round applies.
			for p := range s.Parties {
				for m := range s.Parties[p].Members {
					s.Parties[p].Members[m].Size = 0
				}
			}
		}
		in, err := s.New()
		if err != nil {
			t.Fatalf("scenario %d: %v", i, err)
		}
		for range trials {
			in.Reset()
			for steps := 0; !in.Outcome().Done(); steps++ {
				if in.st.started {
					got, ok := in.styleRound()
					if ok {
						fast++
						if in.lone {
							fastLone++
						}
						if in.groups {
							fastGroups++
						}
						got = append([]participant(nil), got...)
						nA, nS := in.nAct, in.nStaked
						want, err := in.declare()
						if err != nil {
							t.Fatalf("scenario %d step %d: direct round but declare refuses: %v", i, steps, err)
						}
						if d := cmp.Diff(want, got, cmp.AllowUnexported(participant{})); d != "" || nA != in.nAct || nS != in.nStaked {
							t.Fatalf("scenario %d step %d: direct round differs (-declare +direct, nAct %d/%d, nStaked %d/%d):\n%s",
								i, steps, in.nAct, nA, in.nStaked, nS, d)
						}
					} else {
						slow++
					}
				}
				if err := in.Step(r); err != nil {
					t.Fatalf("scenario %d step %d: %v", i, steps, err)
				}
			}
		}
	}
	t.Logf("direct rounds %d (%d with groups, %d lone), declared %d", fast, fastGroups, fastLone, slow)
	if fast < 1000 || slow < 100 || fastGroups < 100 || fastLone < 300 {
		t.Errorf("direct rounds %d (%d with groups, %d lone), declared %d: the test misses a path", fast, fastGroups, fastLone, slow)
	}
}

// TestStyleRoundEvents: whole interactions under each registered policy
// give the same events through the direct round as through the Policy
// interface (which always declares), for five members a side without
// groups, against a passive party and with several targets.
func TestStyleRoundEvents(t *testing.T) {
	for _, name := range Policies() {
		for _, extra := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/third=%v", name, extra), func(t *testing.T) {
				s := five()
				s.Parties[0].Policy, s.Parties[1].Policy = name, name
				s.Factors = []Factor{{After: 2, Every: 3, Skill: "endurance", DC: 12, Penalty: -1}}
				if extra {
					s.Type = "social"
					s.Parties = append(s.Parties, Party{Name: "crowd", Passive: true, BonusEdge: 3,
						Members: []Member{{Name: "c", Skills: map[string]int{"insight": 2}}}})
				}
				direct, iface := eventsOf(t, s, name, 12, 0), eventsOf(t, s, name, 12, 2)
				if len(direct) < 20 {
					t.Fatalf("only %d events", len(direct))
				}
				if d := cmp.Diff(iface, direct); d != "" {
					t.Errorf("direct round diverges from the interface (-interface +direct):\n%s", d)
				}
			})
		}
	}
}

// TestExchangeOneOnOne: a round of one check against one passes the
// lower check's die to the higher, on equal totals to the higher
// modifier, and nothing on a full tie, with or without a party seizing
// the initiative besides.
func TestExchangeOneOnOne(t *testing.T) {
	cases := []struct {
		a, b       int // d20 faces: party 0 checks at +5, party 1 at +4
		e0, e1     int // edge after the round
		initiative int
	}{
		{10, 3, 6, 4, 0},  // 15 beats 7
		{3, 10, 4, 6, 1},  // 8 loses to 14
		{10, 11, 6, 4, 0}, // 15 ties 15: the higher modifier wins; the holder keeps the initiative
		{12, 14, 4, 6, 1}, // 17 loses to 18
	}
	for _, third := range []bool{false, true} {
		for i, c := range cases {
			s := lone()
			s.Parties[0].Members[0].Skills = map[string]int{"vehicles": 5}
			s.Parties[1].Members[0].Skills = map[string]int{"vehicles": 4}
			starts := []int{20, 1}
			if third {
				s.Parties = append(s.Parties, Party{Name: "c", Members: []Member{{Name: "c", Skills: map[string]int{"reflex": -30}}}})
				starts = append(starts, 1)
			}
			in, err := s.New()
			if err != nil {
				t.Fatal(err)
			}
			if err := in.Start(dice.Scripted(starts...)); err != nil {
				t.Fatal(err)
			}
			veh, _ := in.Skill("vehicles")
			d := &Declaration{
				Action:    Action{Party: 0, Targets: []int{1}, Checks: []Use{{0, veh}}},
				Reactions: []Reaction{{Party: 1, Checks: []Use{{0, veh}}}},
			}
			faces := []int{c.a, c.b}
			if third {
				d.Seize = []int{2}
				faces = append(faces, 1)
			}
			if err := in.Play(dice.Scripted(faces...), d); err != nil {
				t.Fatal(err)
			}
			if in.Edge(0) != c.e0 || in.Edge(1) != c.e1 || in.Initiative() != c.initiative {
				t.Errorf("third=%v case %d: edge %d/%d, initiative %d; want %d/%d, %d", third, i,
					in.Edge(0), in.Edge(1), in.Initiative(), c.e0, c.e1, c.initiative)
			}
		}
	}
}

// TestExchangeShortcut: settle's one-against-one shortcut moves exactly
// what the general exchange moves, over every pair of ranks near a tie.
func TestExchangeShortcut(t *testing.T) {
	s := lone()
	s.Parties[0].BonusEdge, s.Parties[1].BonusEdge = 50, 50
	in, err := s.New()
	if err != nil {
		t.Fatal(err)
	}
	if err := in.Start(dice.Scripted(20, 1)); err != nil {
		t.Fatal(err)
	}
	snap := in.State()
	ps := make([]participant, 2)
	for tot0 := int32(8); tot0 <= 12; tot0++ {
		for mod0 := int32(3); mod0 <= 5; mod0++ {
			for tot1 := int32(8); tot1 <= 12; tot1++ {
				for mod1 := int32(3); mod1 <= 5; mod1++ {
					ps[0] = participant{party: 0, member: 0, mod: mod0, flags: pStaked | pActor}
					ps[1] = participant{party: 1, member: 1, mod: mod1, flags: pStaked}
					ps[0].score(tot0 - mod0)
					ps[1].score(tot1 - mod1)
					if err := in.SetState(snap); err != nil {
						t.Fatal(err)
					}
					in.nAct, in.nStaked = 1, 2
					moved, _ := in.exchange(ps, 1, 2, 1)
					want := [2]int{in.Edge(0), in.Edge(1)}
					if err := in.SetState(snap); err != nil {
						t.Fatal(err)
					}
					in.settle(ps)
					got := [2]int{in.Edge(0), in.Edge(1)}
					if got != want || in.st.transfers-snap.Transfers != moved {
						t.Fatalf("%d%+d against %d%+d: shortcut edge %v (%d moved), general %v (%d moved)",
							tot0-mod0, mod0, tot1-mod1, mod1, got, in.st.transfers-snap.Transfers, want, moved)
					}
				}
			}
		}
	}
}

// TestTrialMatchesSteps: a Runner's trial, which skips Step's per-round
// checks when only Styles choose, plays exactly what stepping with Run
// plays on the same dice, over random scenarios.
func TestTrialMatchesSteps(t *testing.T) {
	gen := dice.NewSeeded(31)
	direct, timeUp, lone := 0, 0, 0
	for i := range 120 {
		s := randomScenario(gen)
		if i%2 == 0 {
			s.Factors = nil
		}
		if i%4 == 1 {
			// One member a side, both active.
			s.Parties = s.Parties[:2]
			for p := range s.Parties {
				s.Parties[p].Passive = false
				s.Parties[p].Members = s.Parties[p].Members[:1]
			}
			// Policies that never concede, one of them ignoring repetition.
			s.Parties[0].Policy, s.Parties[1].Policy = "reckless", "steady"
			if i%8 == 5 {
				s.Parties[0].Policy, s.Parties[1].Policy = "steady", "reckless"
			}
		}
		rn, err := s.NewRunner()
		if err != nil {
			t.Fatal(err)
		}
		in, err := s.New()
		if err != nil {
			t.Fatal(err)
		}
		if styled, quiet := in.styled(); styled {
			direct++
			if quiet && in.lone {
				lone++
			}
		}
		metrics := make([]int, len(s.Metrics()))
		for trial := range 5 {
			seed := uint64(1000*i + trial)
			c := rn.Trial(dice.NewSeeded(seed), metrics)
			in.Reset()
			o, err := in.Run(dice.NewSeeded(seed))
			if err != nil {
				t.Fatalf("scenario %d: %v", i, err)
			}
			want := []int{in.Round(), in.st.transfers, in.st.changes}
			for p := range min(len(s.Parties), maxEdgeMetrics) {
				want = append(want, in.Edge(p))
			}
			if wc := category(o, len(s.Parties)); c != wc || !slices.Equal(metrics, want) {
				t.Fatalf("scenario %d trial %d: Trial gives category %d, metrics %v; Run gives %d, %v", i, trial, c, metrics, wc, want)
			}
			if o.End == TimeUp {
				timeUp++
			}
		}
	}
	t.Logf("%d scenarios only Styles choose (%d lone, quiet), %d trials ran out of time", direct, lone, timeUp)
	if direct < 30 || timeUp == 0 || lone < 15 {
		t.Errorf("%d scenarios only Styles choose (%d lone, quiet), %d trials ran out of time: the test misses a path", direct, lone, timeUp)
	}
}

// TestSettleDuel: the two-party settle leaves exactly the state the
// general one leaves (edge dice, transfers, initiative, rounds, usage,
// runs and who is out) for rounds of one to five checks a side with
// totals and modifiers close enough to tie often, on every kind of skill.
func TestSettleDuel(t *testing.T) {
	s := five()
	s.Parties[0].Members[1].Skills["reflex"] = 2
	in, err := s.New()
	if err != nil {
		t.Fatal(err)
	}
	if err := in.Start(dice.Scripted(20, 1)); err != nil {
		t.Fatal(err)
	}
	if !in.duel {
		t.Fatal("five a side is not a duel")
	}
	gen := dice.NewSeeded(11)
	ns := len(in.skills)
	ps := make([]participant, 10)
	var moved, drained, flips int
	var before, want dyn
	before.alloc(2, len(in.names), ns)
	want.alloc(2, len(in.names), ns)
	for round := range 20000 {
		// A random state: each side 1..6 dice (sometimes 1, so it can
		// run out), the initiative with either, some history.
		in.Reset()
		st := &in.st
		st.started, st.order = true, append(st.order[:0], 0, 1)
		st.initiative = gen.IntN(2)
		st.round = gen.IntN(4)
		for p := range 2 {
			st.edge[p] = 1 + gen.IntN(6)
		}
		for g := range st.mem {
			st.mem[g].last, st.mem[g].lastRound, st.mem[g].streak = gen.IntN(ns), gen.IntN(4), 1+gen.IntN(3)
		}
		for i := range st.uses {
			st.uses[i] = int8(gen.IntN(3))
		}
		if round%50 == 0 {
			st.uses[gen.IntN(len(st.uses))] = 100
		}
		a, b := st.initiative, 1-st.initiative
		na, nb := 1+gen.IntN(min(5, st.edge[a])), 1+gen.IntN(min(5, st.edge[b]))
		n := 0
		for k, side := range [2]struct{ p, n int }{{a, na}, {b, nb}} {
			lo := in.parties[side.p].lo
			for m := range side.n {
				g, sk := lo+m, gen.IntN(ns)
				f := uint8(pStaked)
				if k == 0 {
					f |= pActor
				}
				if in.safeMask&(1<<sk) != 0 {
					f |= pSafe
				}
				ps[n] = participant{mod: int32(gen.IntN(7) - 3), use: uint16(g*ns + sk), party: uint8(side.p), member: uint8(g), skill: uint8(sk), flags: f}
				ps[n].score(int32(8 + gen.IntN(6)))
				n++
			}
		}
		in.nAct, in.nStaked = na, n
		before.copyFrom(st)
		in.settleAll(ps[:n])
		want.copyFrom(st)
		st.copyFrom(&before)
		in.settle(ps[:n])
		if !reflect.DeepEqual(want, *st) {
			st.copyFrom(&want)
			w := in.State()
			st.copyFrom(&before)
			in.settle(ps[:n])
			t.Fatalf("round %d (%d against %d): duel settle differs (-general +duel):\n%s", round, na, nb, cmp.Diff(w, in.State()))
		}
		moved += want.transfers - before.transfers
		if want.outcome.Done() {
			drained++
		}
		if want.initiative != before.initiative {
			flips++
		}
	}
	t.Logf("%d dice moved, %d rounds drained a side, %d moved the initiative", moved, drained, flips)
	if moved < 20000 || drained < 500 || flips < 2000 {
		t.Errorf("%d dice moved, %d rounds drained a side, %d moved the initiative: the test misses cases", moved, drained, flips)
	}
}

// TestCompileDuel: Play's two-party shortcut lists exactly the checks,
// modifiers and flags compile lists, or leaves the declaration to compile,
// for random declarations, legal and not, at random points of random
// two-party interactions; and it takes most of the legal ones.
func TestCompileDuel(t *testing.T) {
	gen := dice.NewSeeded(23)
	r := dice.NewSeeded(24)
	took, legal, refused := 0, 0, 0
	for i := 0; took < 3000; i++ {
		if i > 10000 {
			t.Fatalf("only %d declarations took the shortcut", took)
		}
		s := randomScenario(gen)
		s.Parties = s.Parties[:2]
		s.Parties[1].Passive = false
		s.Factors = nil
		in, err := s.New()
		if err != nil {
			t.Fatal(err)
		}
		ns := len(in.skills)
		for steps := gen.IntN(6); steps >= 0 && !in.Outcome().Done(); steps-- {
			if err := in.Step(r); err != nil {
				t.Fatal(err)
			}
		}
		for range 20 {
			ap := in.st.initiative
			if gen.IntN(10) == 0 {
				ap = gen.IntN(3) - 1
			}
			d := &Declaration{Action: Action{Party: ap, Targets: []int{1 - ap}}, Reactions: []Reaction{{Party: 1 - ap}}}
			if gen.IntN(15) == 0 {
				d.Action.Targets = []int{gen.IntN(3)}
			}
			if gen.IntN(15) == 0 {
				d.Seize = []int{gen.IntN(2)}
			}
			for k := range 2 {
				p := (ap + k) & 1
				size := 1
				if p >= 0 && p < 2 {
					size = in.parties[p].hi - in.parties[p].lo
				}
				var us []Use
				for m := range min(size, 1+gen.IntN(4)) {
					if gen.IntN(3) == 0 {
						continue
					}
					u := Use{Member: m, Skill: gen.IntN(ns)}
					switch gen.IntN(30) {
					case 0:
						u.Member = size
					case 1:
						u.Skill = ns
					case 2:
						u.Member = -1
					case 3:
						us = append(us, u)
					}
					us = append(us, u)
				}
				if k == 0 {
					d.Action.Checks = us
				} else {
					d.Reactions[0].Checks = us
				}
			}
			got, ok := in.compileDuel(d)
			got = append([]participant(nil), got...)
			nA, nS := in.nAct, in.nStaked
			want, err := in.compile(d)
			if err == nil {
				legal++
			}
			if !ok {
				if err == nil {
					refused++
				}
				continue
			}
			took++
			if err != nil {
				t.Fatalf("scenario %d: shortcut took %+v, which compile refuses: %v", i, d, err)
			}
			if diff := cmp.Diff(want, got, cmp.AllowUnexported(participant{})); diff != "" || nA != in.nAct || nS != in.nStaked {
				t.Fatalf("scenario %d: %+v: shortcut differs (-compile +shortcut):\n%s", i, d, diff)
			}
		}
	}
	t.Logf("%d legal declarations, %d through the shortcut, %d left to compile", legal, took, refused)
	if refused > legal/10 {
		t.Errorf("the shortcut left %d of %d legal declarations to compile", refused, legal)
	}
}

// TestDigits: the round's checks rolled from one number read its base-d
// digits exactly as division would, for die sizes up to the largest
// rules.check allows, at the ends of the range and between, with the
// first check on the lowest digit. (The scripted rounds of the other
// tests take their faces check by check.)
func TestDigits(t *testing.T) {
	gen := dice.NewSeeded(5)
	var err error
	for _, d := range []int{2, 3, 6, 7, 10, 20, 64, 100, 999, 1000} {
		s := lone()
		if s.Rules.Check, err = dice.ParsePool(fmt.Sprintf("d%d", d)); err != nil {
			t.Fatal(err)
		}
		in, err := s.New()
		if err != nil {
			t.Fatal(err)
		}
		if in.batch < 1 || in.batchPow[in.batch] > 1<<32 || (in.batch < maxBatch && in.batchPow[in.batch]*d <= 1<<32) {
			t.Fatalf("d%d: batch %d, d^batch %d", d, in.batch, in.batchPow[in.batch])
		}
		ps := make([]participant, in.batch)
		for k := 1; k <= in.batch; k++ {
			p := uint64(in.batchPow[k])
			for _, v := range []uint64{0, 1, p / 2, p - 2, p - 1, gen.Uint64() % p, gen.Uint64() % p} {
				v = min(v, p-1)
				in.digits(v, ps[:k], 3)
				w := v
				for i := range k {
					if want := int32(w%uint64(d)) + 1 + 3; ps[i].total != want {
						t.Fatalf("d%d k=%d v=%d: check %d totals %d, want %d", d, k, v, i, ps[i].total, want)
					}
					w /= uint64(d)
				}
			}
		}
	}
	in, err := lone().New()
	if err != nil {
		t.Fatal(err)
	}
	ps := make([]participant, 4)
	in.digits(uint64(3+20*(19+20*(0+20*11))), ps, 0)
	want := []int32{4, 20, 1, 12}
	for i := range ps {
		if ps[i].total != want[i] {
			t.Errorf("check %d: %d, want %d", i, ps[i].total, want[i])
		}
	}
}
