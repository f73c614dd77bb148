package challenge

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim"
)

func wantErr(t *testing.T, err error, want string) {
	t.Helper()
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error %v, want one containing %q", err, want)
	}
}

func TestStat(t *testing.T) {
	if _, err := NewStat(dice.D20); err == nil {
		t.Error("d20 accepted")
	}
	if _, err := NewStat(dice.D4, dice.D4, dice.D4, dice.D4, dice.D4); err == nil {
		t.Error("5 dice accepted")
	}
	s := MustStat(dice.D12, dice.D6)
	if s.Len() != 2 || s.Sizes() != 7 || s.Sides() != 18 || s.String() != "d12 d6" {
		t.Errorf("d12 d6: len %d sizes %d sides %d %q", s.Len(), s.Sizes(), s.Sides(), s)
	}
	if (Stat{}).String() != "-" {
		t.Errorf("empty stat prints %q", Stat{})
	}
	for _, tc := range []struct {
		in   string
		want Stat
		err  string
	}{
		{`"d12 d6"`, MustStat(dice.D12, dice.D6), ""},
		{`"2d6"`, MustStat(dice.D6, dice.D6), ""},
		{`""`, Stat{}, ""},
		{`"d20"`, Stat{}, "not a ladder size"},
		{`"d6+1"`, Stat{}, "no modifier"},
		{`"5d4"`, Stat{}, "at most 4"},
		{`"x"`, Stat{}, "unexpected"},
	} {
		var got Stat
		err := json.Unmarshal([]byte(tc.in), &got)
		if tc.err != "" {
			wantErr(t, err, tc.err)
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%s: %v %v", tc.in, got, err)
		}
	}
}

func TestCharacterChecks(t *testing.T) {
	r := DefaultRules()
	cases := []struct {
		name string
		edit func(*Character)
		want string
	}{
		{"no name", func(c *Character) { c.Name = "" }, "needs a name"},
		{"unknown stat", func(c *Character) { c.Stats["wit"] = Stat{} }, "unknown stat \"wit\""},
		{"missing stat", func(c *Character) { delete(c.Stats, Art) }, "stat \"art\" is missing"},
		{"off-ladder die", func(c *Character) { c.Stats[Art] = Stat{dice.D20} }, "allowed d4, d6, d8, d10, d12"},
		{"core endeavor unmapped", func(c *Character) { delete(c.Endeavors, Enduring) }, "core endeavor \"enduring_duress\""},
		{"endeavor to unknown stat", func(c *Character) { c.Endeavors["sing"] = "voice" }, "unknown stat \"voice\""},
		{"specialization endeavor", func(c *Character) {
			c.Specializations = []Specialization{{Name: "x", Endeavor: "nope", Stat: Art}}
		}, "unknown endeavor \"nope\""},
		{"three dice in a stat", func(c *Character) { c.Stats[Art] = MustStat(dice.D8, dice.D6, dice.D4) }, "holds 3 dice"},
		{"not the allotment", func(c *Character) { c.Stats[Art] = MustStat(dice.D12, dice.D6) }, "not the standard allotment"},
	}
	for _, tc := range cases {
		c := irin()
		tc.edit(&c)
		wantErr(t, c.CheckStandard(r), tc.want)
	}
	c := irin()
	if _, err := c.EndeavorStat("juggling"); err == nil || !strings.Contains(err.Error(), `known are ["asserting_myself"`) {
		t.Errorf("unknown endeavor: %v", err)
	}
}

func TestLoseAndMove(t *testing.T) {
	r := DefaultRules()
	cases := []struct {
		name string
		do   func(c *Character) error
		want string // error, or "" with the stats below
		art  Stat
		gr   Stat
	}{
		{"lose two from the d10", func(c *Character) error {
			return c.Lose(r, Loss{Stat: Grace, Sizes: [MaxDice]int{2}})
		}, "", MustStat(dice.D8, dice.D6), MustStat(dice.D6, dice.D4)},
		{"d4 below the ladder is gone", func(c *Character) error {
			return c.Lose(r, Loss{Stat: Grace, Sizes: [MaxDice]int{0, 1}})
		}, "", MustStat(dice.D8, dice.D6), MustStat(dice.D10)},
		{"lose too much", func(c *Character) error {
			return c.Lose(r, Loss{Stat: Grace, Sizes: [MaxDice]int{5}})
		}, "has only 4 sizes", Stat{}, Stat{}},
		{"lose from a missing die", func(c *Character) error {
			return c.Lose(r, Loss{Stat: Grace, Sizes: [MaxDice]int{0, 0, 1}})
		}, "holds only 2 dice", Stat{}, Stat{}},
		{"lose from unknown stat", func(c *Character) error {
			return c.Lose(r, Loss{Stat: "luck", Sizes: [MaxDice]int{1}})
		}, "unknown stat", Stat{}, Stat{}},
		{"negative loss", func(c *Character) error {
			return c.Lose(r, Loss{Stat: Art, Sizes: [MaxDice]int{-1}})
		}, "must be >= 0", Stat{}, Stat{}},
		{"move between stats", func(c *Character) error {
			return c.Move(r, Move{From: Grace, FromDie: 0, To: Art, ToDie: 1, Sizes: 2})
		}, "", MustStat(dice.D8, dice.D10), MustStat(dice.D6, dice.D4)},
		{"move within a stat", func(c *Character) error {
			return c.Move(r, Move{From: Art, FromDie: 1, To: Art, ToDie: 0, Sizes: 2})
		}, "", MustStat(dice.D12), MustStat(dice.D10, dice.D4)},
		{"move past d12", func(c *Character) error {
			return c.Move(r, Move{From: Grace, FromDie: 0, To: Art, ToDie: 0, Sizes: 3})
		}, "would pass d12", Stat{}, Stat{}},
		{"move into a third die", func(c *Character) error {
			return c.Move(r, Move{From: Grace, FromDie: 0, To: Art, ToDie: 2, Sizes: 1})
		}, "allowed 1..2", Stat{}, Stat{}},
		{"move nothing", func(c *Character) error {
			return c.Move(r, Move{From: Grace, To: Art, Sizes: 0})
		}, "at least 1", Stat{}, Stat{}},
		{"move onto itself", func(c *Character) error {
			return c.Move(r, Move{From: Art, To: Art, Sizes: 1})
		}, "to itself", Stat{}, Stat{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := irin()
			before := c.TotalSizes()
			orig := map[string]Stat{}
			for k, v := range c.Stats {
				orig[k] = v
			}
			err := tc.do(&c)
			if tc.want != "" {
				wantErr(t, err, tc.want)
				if d := cmp.Diff(orig, c.Stats); d != "" {
					t.Errorf("rejected change altered the sheet (-want +got):\n%s", d)
				}
				return
			}
			must(t, err)
			if c.Stats[Art] != tc.art || c.Stats[Grace] != tc.gr {
				t.Errorf("art %v grace %v, want %v %v", c.Stats[Art], c.Stats[Grace], tc.art, tc.gr)
			}
			if strings.HasPrefix(tc.name, "move") && c.TotalSizes() != before {
				t.Errorf("a move changed the total sizes %d -> %d", before, c.TotalSizes())
			}
		})
	}
}

// TestMovesConserveSizes: random legal moves never add or lose a size.
func TestMovesConserveSizes(t *testing.T) {
	r := DefaultRules()
	rng := dice.NewSeeded(5)
	c := irin()
	total := c.TotalSizes()
	ok := 0
	for range 2000 {
		m := Move{From: r.Stats[rng.IntN(3)], FromDie: rng.IntN(2), To: r.Stats[rng.IntN(3)], ToDie: rng.IntN(2), Sizes: 1 + rng.IntN(3)}
		if c.Move(r, m) == nil {
			ok++
		}
		if c.TotalSizes() != total {
			t.Fatalf("after %+v total %d, want %d", m, c.TotalSizes(), total)
		}
		for _, s := range c.Stats {
			for _, d := range s {
				if d != dice.Gone && !d.OnLadder() {
					t.Fatalf("die %v off the ladder", d)
				}
			}
		}
	}
	if ok < 100 {
		t.Errorf("only %d legal moves", ok)
	}
}

func TestRulesValidate(t *testing.T) {
	cases := []struct {
		edit func(*Rules)
		want string
	}{
		{func(r *Rules) { r.Stats = nil }, "rules.stats"},
		{func(r *Rules) { r.Stats = []string{Art, Art, Guts} }, "listed twice"},
		{func(r *Rules) { r.DicePerStat = 5 }, "rules.dice_per_stat"},
		{func(r *Rules) { r.Allotment = r.Allotment[:5] }, "rules.allotment has 5 dice"},
		{func(r *Rules) { r.Allotment[0] = dice.D20 }, "rules.allotment[0]"},
		{func(r *Rules) { r.InjuryEndeavors = nil }, "rules.injury_endeavors is empty"},
		{func(r *Rules) { r.InjuryEndeavors = []string{"dancing"} }, "not a core endeavor"},
		{func(r *Rules) { r.InjurySizes = -1 }, "rules.injury_sizes"},
		{func(r *Rules) { r.AdvantageDie = 1 }, "rules.advantage_die"},
		{func(r *Rules) { r.DoubleFactor = 0 }, "rules.double_factor"},
		{func(r *Rules) { r.MaxRecasts = -1 }, "rules.max_recasts"},
		{func(r *Rules) { r.MaxExchanges = 0 }, "rules.max_exchanges"},
	}
	for _, tc := range cases {
		r := DefaultRules()
		tc.edit(&r)
		wantErr(t, r.Validate(), tc.want)
	}
	must(t, DefaultRules().Validate())
}

func TestNewConflictErrors(t *testing.T) {
	r := DefaultRules()
	one := func(c Character, e string) []Entry { return []Entry{{Character: c, Endeavor: e}} }
	empty := irin()
	empty.Stats[Guts] = Stat{}
	withSpec := althesa()
	withSpec.Specializations = []Specialization{{Name: "blade", Endeavor: Asserting, Stat: Guts}}
	cases := []struct {
		name    string
		parties []Party
		want    string
	}{
		{"one side", []Party{{Name: "a", Members: one(irin(), Defending)}}, "1 sides"},
		{"unnamed", []Party{{Members: one(irin(), Defending)}, {Name: "b", Members: one(althesa(), Asserting)}}, "needs a name"},
		{"same names", []Party{{Name: "a", Members: one(irin(), Defending)}, {Name: "a", Members: one(althesa(), Asserting)}}, "two sides are named"},
		{"no members", []Party{{Name: "a"}, {Name: "b", Members: one(althesa(), Asserting)}}, "0 characters"},
		{"unknown endeavor", []Party{{Name: "a", Members: one(irin(), "juggling")}, {Name: "b", Members: one(althesa(), Asserting)}}, "no endeavor \"juggling\""},
		{"empty stat is out", []Party{{Name: "a", Members: one(empty, Defending)}, {Name: "b", Members: one(althesa(), Asserting)}}, "only 1 side can roll"},
		{"unknown specialization", []Party{{Name: "a", Members: []Entry{{Character: irin(), Endeavor: Defending, Specialization: "x"}}}, {Name: "b", Members: one(althesa(), Asserting)}}, "no specialization \"x\""},
		{"specialization off its endeavor", []Party{{Name: "a", Members: one(irin(), Defending)}, {Name: "b", Members: []Entry{{Character: withSpec, Endeavor: Defending, Specialization: "blade"}}}}, "applies to \"asserting_myself\""},
	}
	for _, tc := range cases {
		_, err := NewState(r, tc.parties, nil)
		wantErr(t, err, tc.want)
	}
	// An out helper does not stop its side.
	c, err := NewState(r, []Party{{Name: "a", Members: []Entry{{Character: empty, Endeavor: Defending}, {Character: althesa(), Endeavor: Asserting}}},
		{Name: "b", Members: one(irin(), Defending)}}, nil)
	must(t, err)
	if !c.Sides[0].Members[0].Out || len(c.Sides[0].Dice) != 2 {
		t.Errorf("out helper: %+v", c.Sides[0].Members[0])
	}
}

func TestPolicyRegistry(t *testing.T) {
	names := PolicyNames()
	if len(names) != 16 {
		t.Errorf("%d policies: %v", len(names), names)
	}
	for _, n := range names {
		p, err := PolicyByName(n)
		must(t, err)
		kind := n[:strings.Index(n, "/")]
		// The named part, and only it, is set.
		st := p.(*Style)
		parts := map[string]bool{KindStance: st.Stance != nil, KindCross: st.Cross != nil, KindLoss: st.Losses != nil,
			KindTarget: st.Targets != nil, KindInterfere: st.Interference != nil}
		ok := parts[kind]
		for k, set := range parts {
			ok = ok && (k == kind || !set)
		}
		if !ok {
			t.Errorf("%s is not a Style of its kind alone", n)
		}
	}
	_, err := PolicyByName("stance/sulk")
	wantErr(t, err, `unknown policy "stance/sulk"; allowed "cross_off/eager"`)
	for _, pn := range []StyleNames{{Stance: "x"}, {CrossOff: "x"}, {Loss: "x"}, {Target: "x"}, {Interfere: "x"}} {
		if _, err := pn.Style(); err == nil {
			t.Errorf("%+v accepted", pn)
		}
	}
}

func TestCampaignErrors(t *testing.T) {
	cp := &Campaign{Rules: DefaultRules(), Characters: []Character{althesa(), irin()}}
	_, err := cp.Start(Enlist{Name: "a", Members: []Role{{Character: "Nobody", Endeavor: Asserting}}},
		Enlist{Name: "b", Members: []Role{{Character: "Irin", Endeavor: Defending}}})
	wantErr(t, err, "no character \"Nobody\"")
	_, err = cp.Start(Enlist{Name: "a", Members: []Role{{Character: "Irin", Endeavor: Asserting}}},
		Enlist{Name: "b", Members: []Role{{Character: "Irin", Endeavor: Defending}}})
	wantErr(t, err, "on two sides")
	c, err := cp.Start(Enlist{Name: "a", Members: []Role{{Character: "Althesa", Endeavor: Asserting}}},
		Enlist{Name: "b", Members: []Role{{Character: "Irin", Endeavor: Defending}}})
	must(t, err)
	wantErr(t, cp.Finish(c), "not over")
	bad := *cp
	bad.Owe = []Debt{{Name: "Irin", Player: "someone"}}
	wantErr(t, bad.Validate(), "belongs to player \"Irin\"")
	bad.Characters = []Character{irin(), irin()}
	bad.Owe = nil
	wantErr(t, bad.Validate(), "two characters are named")
}

func TestEventText(t *testing.T) {
	for k := EvRound; k <= EvEnd; k++ {
		b, _ := k.MarshalText()
		var back EventKind
		if err := back.UnmarshalText(b); err != nil || back != k {
			t.Errorf("%v: %v %v", k, back, err)
		}
	}
	var k EventKind
	wantErr(t, k.UnmarshalText([]byte("nap")), `unknown challenge.EventKind "nap"; allowed "round"`)
	var p Phase
	wantErr(t, p.UnmarshalText([]byte("nap")), `unknown challenge.Phase "nap"; allowed "cast"`)
	var s Status
	wantErr(t, s.UnmarshalText([]byte("nap")), `unknown challenge.Status "nap"; allowed "in"`)
}

// TestEventsNarrateAsSentences plays the default scenario on scripted
// dice and reads its events as a player would: the characters by name,
// the dice, and what the rules made of them.
func TestEventsNarrateAsSentences(t *testing.T) {
	g, err := DefaultScenario().Start(dice.Scripted(8, 3, 4, 2, 7, 5, 9, 4, 6, 11, 3, 6, 1))
	must(t, err)
	var got []string
	g.Listen(func(e sim.Event) { got = append(got, e.String()) })
	r := dice.Scripted(8, 3, 4, 2, 7, 5, 9, 4, 6, 11, 3, 6, 1)
	for !g.Done() {
		must(t, g.Step(r))
	}
	want := []string{
		"Althesa rolls 8 and 3, reading 8.",
		"Irin rolls 4 and 2, reading 4.",
		"Althesa challenges Irin.",
		"Irin rolls 7 and 5, reading 7.",
		"Irin hangs in: Althesa rolls an advantage die through the next round.",
		"Round 2 begins.",
		"Althesa rolls 9 and 4, plus 6 on the advantage die, reading 15.",
		"Irin rolls 11 and 3, reading 11.",
		"Althesa challenges Irin.",
		"Irin rolls 6 and 1, reading 6.",
		"Irin's answer is half Althesa's roll or less: Althesa wins outright.",
		"Irin loses 2 die sizes of grace to Althesa, exhausted or injured.",
		"The conflict is over: Althesa wins.",
	}
	if !slices.Equal(got, want) {
		t.Errorf("narration:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestEnumsWriteAsNames: every enum of the package writes as its name and
// reads back, and an unknown name is an error naming the allowed ones.
func TestEnumsWriteAsNames(t *testing.T) {
	for _, v := range []interface {
		MarshalText() ([]byte, error)
	}{PhaseStance, StatusGave, EvHangIn, BGiven} {
		b, err := v.MarshalText()
		must(t, err)
		if string(b) != fmt.Sprint(v) {
			t.Errorf("%v writes as %q", v, b)
		}
	}
	var e Ending
	must(t, e.UnmarshalText([]byte("b_given")))
	if e != BGiven {
		t.Errorf("b_given reads as %v", e)
	}
	wantErr(t, e.UnmarshalText([]byte("draw")), `unknown challenge.Ending "draw"; allowed "a_outright"`)
	if _, err := Ending(9).MarshalText(); err == nil {
		t.Error("Ending(9) wrote a name")
	}
}

// TestLossTakingAD4BeforeAnotherDieIsAccepted checks that a loss's sizes
// index the dice the stat held before it: the d4 listed first going does
// not put the d6 after it out of reach (it was refused as "holds only 0
// dice").
func TestLossTakingAD4BeforeAnotherDieIsAccepted(t *testing.T) {
	c := Standard("X", MustStat(dice.D4, dice.D6), MustStat(dice.D6, dice.D6), MustStat(dice.D8, dice.D6),
		[5]string{Art, Grace, Guts, Guts, Art})
	must(t, c.Lose(DefaultRules(), Loss{Stat: Art, Sizes: [MaxDice]int{1, 1}}))
	if c.Stats[Art] != MustStat(dice.D4) {
		t.Errorf("art after losing a size from each of d4 d6: %v, want d4", c.Stats[Art])
	}
}

// TestEveryEventKindNarrates: each kind reads as a sentence naming its
// sides, never a fallback or a formatting error.
func TestEveryEventKindNarrates(t *testing.T) {
	for k := EvRound; k <= EvEnd; k++ {
		e := Event{Kind: k, Side: 0, Other: 1, Who: "Althesa", Whom: "Irin", Name: "Bran", Faces: []int{5, 2}, Value: 5,
			Loss: &Loss{Stat: "guts", Sizes: [MaxDice]int{1, 1}}}
		got := e.String()
		if !strings.HasSuffix(got, ".") || strings.Contains(got, "%!") || strings.HasPrefix(got, "Event") {
			t.Errorf("%v: %q", k, got)
		}
		if k != EvRound && k != EvOwe && !strings.Contains(got, "Althesa") && !strings.Contains(got, "Bran") {
			t.Errorf("%v: %q names nobody", k, got)
		}
	}
}
