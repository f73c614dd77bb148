package contest

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/stakesrpg/stakes/dice"
)

// TestTableRollsAsRollDice rolls random pools through the tables and by
// RollDice from two Rollers with the same seed: the faces must agree draw
// for draw, and the reading must be read's, under the shipped rules and
// others.
func TestTableRollsAsRollDice(t *testing.T) {
	pick := rand.New(rand.NewPCG(3, 4))
	for _, rules := range []Rules{DefaultRules(), {Keep: 3, ExcludeOnes: true}, {Keep: 2}, {Keep: 1, ExcludeOnes: true}} {
		e := &Engine{Rules: rules}
		fast, slow := dice.NewSeeded(11), dice.NewSeeded(11)
		var ff, sf []int
		tabled := 0
		for range 4000 {
			ds := make([]dice.Die, 1+pick.IntN(fastDice+1))
			for i := range ds {
				if pick.IntN(4) == 0 {
					ds[i] = dice.Die(2 + pick.IntN(15))
				} else {
					ds[i] = dice.Ladder[pick.IntN(len(dice.Ladder))]
				}
			}
			for range 3 {
				if e.layoutOf(fast, ds) != nil {
					tabled++
				}
				var ft, fo int
				ff, ft, fo = e.rollRead(fast, ds, ff)
				sf = slow.RollDice(ds, sf)
				st, so := e.total(sf), countOnes(sf)
				if !slices.Equal(ff, sf) || ft != st || fo != so {
					t.Fatalf("rules %+v, pool %v: tables %v (total %d, 1s %d), RollDice %v (total %d, 1s %d)", rules, ds, ff, ft, fo, sf, st, so)
				}
			}
		}
		if tabled < 4000 {
			t.Errorf("rules %+v: only %d of 12000 rolls came from the tables", rules, tabled)
		}
	}
}

// TestTableRatesAsRollDice rates random Complication Pools through the
// tables and by RollDice from two Rollers with the same seed: the rating
// (the size of the die that rolls highest, the larger on a tie) must agree
// draw for draw, pools of one chunk and of several alike.
func TestTableRatesAsRollDice(t *testing.T) {
	pick := rand.New(rand.NewPCG(5, 6))
	e := &Engine{Rules: DefaultRules()}
	fast, slow := dice.NewSeeded(13), dice.NewSeeded(13)
	var sf []int
	tabled, multi := 0, 0
	for range 4000 {
		ds := make([]dice.Die, 1+pick.IntN(fastDice))
		for i := range ds {
			// Small dice often, so that ties in value are common.
			ds[i] = dice.Ladder[pick.IntN(len(dice.Ladder))]
			if pick.IntN(3) == 0 {
				ds[i] = dice.Die(2 + pick.IntN(3))
			}
		}
		for range 3 {
			var got dice.Die
			if l := e.layoutOf(fast, ds); l != nil {
				tabled++
				if l.nch > 1 {
					multi++
				}
				got = l.rate(fast, ds)
			} else {
				got = rateFaces(ds, fast.RollDice(ds, nil))
			}
			sf = slow.RollDice(ds, sf)
			if want := rateFaces(ds, sf); got != want {
				t.Fatalf("pool %v, faces %v: tables rate d%d, RollDice d%d", ds, sf, got, want)
			}
		}
	}
	if tabled < 4000 || multi < 1000 {
		t.Errorf("only %d of 12000 ratings came from the tables, %d from several chunks", tabled, multi)
	}
}

// rateFaces is ratePool's reading of faces ds rolled, written out plainly.
func rateFaces(ds []dice.Die, faces []int) dice.Die {
	best, size := 0, dice.Gone
	for i, f := range faces {
		if f > best || f == best && ds[i] > size {
			best, size = f, ds[i]
		}
	}
	return size
}

// TestTableLayouts checks how pools are cut into chunks and that a table
// lists every combination of faces exactly once.
func TestTableLayouts(t *testing.T) {
	e := &Engine{Rules: DefaultRules()}
	r := dice.NewSeeded(1)
	cases := []struct {
		ds     []dice.Die
		chunks []int
	}{
		{[]dice.Die{10, 8, 6}, []int{3}},
		{[]dice.Die{10, 8, 6, 6, 6, 6}, []int{4, 2}},
		{[]dice.Die{12, 12, 12, 12, 12, 12, 12}, []int{3, 3, 1}},
		{[]dice.Die{16, 16, 16, 16}, []int{3, 1}},
		{[]dice.Die{4}, []int{1}},
	}
	for _, c := range cases {
		if l := e.layoutOf(r, c.ds); l != nil {
			t.Fatalf("%v: built on first sight", c.ds)
		}
		l := e.layoutOf(r, c.ds)
		if l == nil {
			t.Fatalf("%v: not built on second sight", c.ds)
		}
		var got []int
		for _, ch := range l.ch[:l.nch] {
			got = append(got, ch.n)
		}
		if !slices.Equal(got, c.chunks) {
			t.Errorf("%v: chunks %v, want %v", c.ds, got, c.chunks)
		}
		off := 0
		for _, ch := range l.ch[:l.nch] {
			seen := map[uint32]bool{}
			for _, ent := range ch.tab {
				f := ent & 0xffff
				if seen[f] {
					t.Fatalf("%v: faces %x twice", c.ds, f)
				}
				seen[f] = true
				for i := range ch.n {
					if x := int(f>>(4*i)&15) + 1; x > int(c.ds[off+i]) {
						t.Fatalf("%v: face %d on a d%d", c.ds, x, c.ds[off+i])
					}
				}
			}
			off += ch.n
		}
	}
	for _, ds := range [][]dice.Die{{}, {4, 4, 4, 4, 4, 4, 4, 4}, {20}, {12, 1}} {
		e.layoutOf(r, ds)
		if e.layoutOf(r, ds) != nil {
			t.Errorf("%v: rolled from tables", ds)
		}
	}
	if e.layoutOf(dice.Scripted(1, 2, 3), []dice.Die{10, 8, 6}) != nil {
		t.Error("a scripted roller with faces left rolls from tables")
	}
}

// TestTablesPlayAsRollDice plays the same trials of the shipped scenarios
// with the tables and with every pool rolled by RollDice, from Rollers of
// the same seed: every trial must end the same way, with the same metrics
// and the same scene.
func TestTablesPlayAsRollDice(t *testing.T) {
	for name, sc := range map[string]Scenario{"default": DefaultScenario(), "contested3v3": contested3v3(), "basic3v3": basic3v3()} {
		fast, err := sc.NewRunner()
		must(t, err)
		slow, err := sc.NewRunner()
		must(t, err)
		slow.e.tabs.off = true
		rf, rs := dice.NewSeeded(5), dice.NewSeeded(5)
		mf, ms := make([]int, 6), make([]int, 6)
		for i := range 20000 {
			cf, cs := fast.Trial(rf, mf), slow.Trial(rs, ms)
			if cf != cs || !slices.Equal(mf, ms) {
				t.Fatalf("%s trial %d: tables end %d %v, RollDice %d %v", name, i, cf, mf, cs, ms)
			}
			if i%1000 == 0 {
				if d := cmp.Diff(&slow.s, &fast.s); d != "" {
					t.Fatalf("%s trial %d: scenes differ (-RollDice +tables):\n%s", name, i, d)
				}
			}
		}
		if fast.e.tabs.entries == 0 || slow.e.tabs.entries != 0 {
			t.Errorf("%s: tables hold %d entries, with tables off %d", name, fast.e.tabs.entries, slow.e.tabs.entries)
		}
	}
}

// TestRelayAsSetup checks that relay, which lays a Runner's action out for
// its next trial, leaves exactly what setup does, whatever the trial
// before did, and that the plans the Runner then trusts are the ones a
// fresh Engine works out: with a gang, an aider, an interferer, all rolling, and a
// basic action against the Trouble Pool.
func TestRelayAsSetup(t *testing.T) {
	helpers := func(sc Scenario) Scenario {
		sc.Cast = append(sc.Cast,
			Member{Character: Character{Name: "Robin", PlotPoints: 2, Traits: []Trait{{Name: "Loyal", Kind: Value, Die: dice.D8}, {Name: "Acrobat", Kind: Ability, Die: dice.D10}}}},
			Member{Character: Character{Name: "Joker", GM: true, PlotPoints: 3, Traits: []Trait{{Name: "Mayhem", Kind: Value, Die: dice.D12}}}})
		sc.Sides[1].Aider, sc.Sides[1].AidPool = "Robin", []string{"Loyal", "Acrobat"}
		sc.Interferer, sc.InterferePool = "Joker", []string{"Mayhem"}
		return sc
	}
	allRoll := DefaultScenario()
	allRoll.Initiator = -1
	trouble := basic3v3()
	trouble.Sides[0] = SideSpec{Character: "trouble"}
	unsorted := DefaultScenario()
	unsorted.Sides[0].Gang = []dice.Die{dice.D10, dice.D4, dice.D8}
	for name, sc := range map[string]Scenario{"default": DefaultScenario(), "helpers": helpers(DefaultScenario()),
		"all roll": allRoll, "basic3v3": basic3v3(), "trouble": trouble, "unsorted gang": unsorted} {
		rn, err := sc.NewRunner()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		kind := Contested
		if rn.basic {
			kind = Basic
		}
		r := dice.NewSeeded(9)
		m := make([]int, 6)
		ends := map[End]bool{}
		for i := range 500 {
			if rn.Trial(r, m) < 0 {
				t.Fatalf("%s trial %d: %v", name, i, rn.Err())
			}
			ends[rn.s.Action.End] = true
			want := rn.s.Clone()
			var e Engine
			want.Action.Phase = PhaseDone
			e.setup(want, kind, rn.b.sides, rn.b.init)
			rn.e.relay(rn.s.Action, rn.b.sides, kind, rn.b.init)
			if d := cmp.Diff(want.Action, rn.s.Action, cmpopts.EquateEmpty()); d != "" {
				t.Fatalf("%s trial %d: relay differs from setup (-setup +relay):\n%s", name, i, d)
			}
			// The plans a relayed trial trusts are those the sides have.
			if i > 0 {
				e.Rules = rn.e.Rules
				e.prepare(want)
				if d := cmp.Diff(e.plans, rn.e.plans, cmp.AllowUnexported(sidePlan{}), cmpopts.EquateEmpty()); d != "" {
					t.Fatalf("%s trial %d: the Runner's plans differ from fresh ones (-fresh +Runner):\n%s", name, i, d)
				}
			}
		}
		if len(ends) < 2 {
			t.Errorf("%s: every trial ended the same way (%v): the test sees too little", name, ends)
		}
	}
}

// TestScriptedAfterTables: once an Engine rolls a pool from its tables, a
// scripted Roller with faces left still gives its faces die by die, and
// an exhausted one shows 1s and reports it, as RollDice does.
func TestScriptedAfterTables(t *testing.T) {
	e, s, opp, act := begunBasic3v3(t)
	r := dice.NewSeeded(3)
	for range 3 {
		rewindBasic(s.Action)
		must(t, e.Roll(s, r, opp))
		must(t, e.Roll(s, r, act))
	}
	if e.tabs.entries == 0 {
		t.Fatal("no tables built")
	}
	rewindBasic(s.Action)
	sr := dice.Scripted(7, 1, 5, 2, 6, 8)
	must(t, e.Roll(s, sr, opp))
	must(t, e.Roll(s, sr, act))
	a := s.Action
	if f := a.Sides[0].Faces; !slices.Equal(f, []int{7, 1, 5}) || a.Stakes != 12 {
		t.Errorf("opposition rolled %v for stakes %d, want [7 1 5] for 12", f, a.Stakes)
	}
	if f := a.Sides[1].Faces; !slices.Equal(f, []int{2, 6, 8}) || a.Sides[1].Total != 14 {
		t.Errorf("actor rolled %v for %d, want [2 6 8] for 14", f, a.Sides[1].Total)
	}
	if sr.Err() != nil {
		t.Errorf("script: %v", sr.Err())
	}
	rewindBasic(s.Action)
	must(t, e.Roll(s, sr, opp))
	if f := a.Sides[0].Faces; !slices.Equal(f, []int{1, 1, 1}) || a.Stakes != 0 || sr.Err() == nil {
		t.Errorf("exhausted script: faces %v, stakes %d, err %v; want 1s, 0 and an error", f, a.Stakes, sr.Err())
	}
}
