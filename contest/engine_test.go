package contest

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/stakesrpg/stakes/dice"
)

// Character indices and trait indices of the test scene.
const (
	hero, villain, sidekick, bystander        = 0, 1, 2, 3
	justice, gordon, detective, gadgets, cave = 0, 1, 2, 3, 4
	chaos, henchmen, mad                      = 0, 1, 2
)

func testScene() *State {
	return &State{
		Rules: DefaultRules(),
		Characters: []Character{
			{Name: "Hero", PlotPoints: 2, Traits: []Trait{
				{Name: "Justice", Kind: Value, Die: dice.D8},
				{Name: "Gordon", Kind: Relationship, Die: dice.D6},
				{Name: "Detective", Kind: Distinction, Die: dice.D10},
				{Name: "Gadgets", Kind: Ability, Die: dice.D8},
				{Name: "Cave", Kind: Resource, Die: dice.D6},
			}},
			{Name: "Villain", GM: true, PlotPoints: 1, Traits: []Trait{
				{Name: "Chaos", Kind: Value, Die: dice.D10},
				{Name: "Henchmen", Kind: Relationship, Die: dice.D6},
				{Name: "Mad", Kind: Distinction, Die: dice.D8},
			}},
			{Name: "Sidekick", PlotPoints: 1, Traits: []Trait{
				{Name: "Loyalty", Kind: Value, Die: dice.D6},
				{Name: "Hero", Kind: Relationship, Die: dice.D8},
			}},
			{Name: "Bystander", PlotPoints: 3, Traits: []Trait{
				{Name: "Peace", Kind: Value, Die: dice.D6},
				{Name: "Crowd", Kind: Relationship, Die: dice.D6},
			}},
		},
		Aspects: []Trait{{Name: "Rooftops", Kind: Aspect, Die: dice.D6}},
		Trouble: []dice.Die{dice.D6, dice.D6},
	}
}

func heroPool() []Pick    { return []Pick{{hero, justice}, {hero, gordon}, {hero, detective}} }
func villainPool() []Pick { return []Pick{{villain, chaos}, {villain, henchmen}, {villain, mad}} }

func side(c int, base []Pick) SideSetup { return SideSetup{Char: c, Base: base} }

func mustEngine(t *testing.T) *Engine {
	t.Helper()
	return &Engine{}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestTotals(t *testing.T) {
	e := ptr(DefaultRules())
	for _, c := range []struct {
		faces []int
		want  int
	}{
		{[]int{1, 1, 1}, 0}, {[]int{5, 1}, 5}, {[]int{3, 7, 5}, 12}, {[]int{12, 12, 12}, 24},
		{[]int{4}, 4}, {[]int{1}, 0}, {nil, 0}, {[]int{2, 1, 2}, 4},
	} {
		if got := e.total(c.faces); got != c.want {
			t.Errorf("total(%v) = %d, want %d", c.faces, got, c.want)
		}
	}
}

// A basic action against the Trouble Pool: the GM's 2d6 set the stakes, the
// hero beats them and the Trouble Pool loses a die.
func TestBasicWinAgainstTrouble(t *testing.T) {
	e := mustEngine(t)
	rec := &Recorder{}
	e.Sink = rec.Record
	s := testScene()
	must(t, e.Begin(s, Basic, []SideSetup{side(TroublePool, nil), side(hero, heroPool())}, 0))
	r := dice.Scripted(4, 3, 5, 1, 4)
	must(t, e.Roll(s, r, nil)) // the Trouble Pool: 4+3 = 7
	if s.Action.Stakes != 7 || s.Action.Turn != 1 {
		t.Fatalf("stakes %d turn %d, want 7 and 1", s.Action.Stakes, s.Action.Turn)
	}
	must(t, e.Roll(s, r, heroPool())) // 5 + 4 (the 1 is out) = 9
	a := s.Action
	if a.Phase != PhaseInflict || a.Winner != 1 || a.End != EndBeaten {
		t.Fatalf("phase %s winner %d end %s", a.Phase, a.Winner, a.End)
	}
	// The die off the Trouble Pool is the winner's pick, taken with
	// TakeTrouble: Inflict is for characters.
	before := s.Clone()
	for _, bad := range []int{2, -2, -1} {
		if err := e.TakeTrouble(s, bad); err == nil {
			t.Errorf("took Trouble die %d of 2", bad)
		}
	}
	if err := e.Inflict(s, r, -1, nil); err == nil {
		t.Error("Inflict dealt a harm to the Trouble Pool")
	}
	if d := diff(before, s); d != "" {
		t.Fatalf("a rejected pick changed the scene (-want +got):\n%s", d)
	}
	must(t, e.TakeTrouble(s, 0))
	if a.Phase != PhaseDone {
		t.Fatalf("phase %s after the die came off", a.Phase)
	}
	if d := diff([]dice.Die{dice.D6}, s.Trouble); d != "" {
		t.Errorf("trouble (-want +got):\n%s", d)
	}
	if a.Ones != 1 {
		t.Errorf("ones to buy = %d, want 1", a.Ones)
	}
	must(t, e.BuyOnes(s, 1))
	if s.Characters[hero].PlotPoints != 3 || len(s.Trouble) != 2 {
		t.Errorf("after buying a 1: hero PP %d, trouble %v", s.Characters[hero].PlotPoints, s.Trouble)
	}
	if err := e.BuyOnes(s, 1); err == nil {
		t.Error("bought a 1 twice")
	}
	want := []EventKind{EvRolled, EvStakes, EvRolled, EvWon, EvTrouble, EvBoughtOnes, EvTrouble}
	if d := diff(want, rec.Kinds()); d != "" {
		t.Errorf("events (-want +got):\n%s", d)
	}
	if err := r.Err(); err != nil || r.Remaining() != 0 {
		t.Errorf("script: %v, %d left", err, r.Remaining())
	}
}

// A tie goes to the stakes: the hero fails, takes a Complication rated by
// the Trouble Pool, and earns a Reflection Point.
func TestBasicTieLoses(t *testing.T) {
	e := mustEngine(t)
	s := testScene()
	must(t, e.Begin(s, Basic, []SideSetup{side(TroublePool, nil), side(hero, heroPool())}, 0))
	// Trouble 4,3 = 7; hero 3,4,2 = 7; the Complication Pool re-rolls both
	// d6 (none showed 1): 2, 5.
	r := dice.Scripted(4, 3, 3, 4, 2, 2, 5)
	must(t, e.Roll(s, r, nil))
	must(t, e.Roll(s, r, heroPool()))
	if s.Action.Phase != PhaseInflict || s.Action.Winner != 0 {
		t.Fatalf("phase %s winner %d", s.Action.Phase, s.Action.Winner)
	}
	must(t, e.Inflict(s, r, -1, nil))
	h := s.Characters[hero]
	want := Trait{Name: "trouble", Kind: Complication, Die: dice.D6}
	if d := diff(want, h.Traits[len(h.Traits)-1]); d != "" {
		t.Errorf("complication (-want +got):\n%s", d)
	}
	if h.Reflection != 1 || s.Action.Phase != PhaseDone || s.Action.End != EndBeaten {
		t.Errorf("reflection %d phase %s end %s", h.Reflection, s.Action.Phase, s.Action.End)
	}
}

// Beating a GM character's stakes by 5 or more knocks it out with Trauma.
func TestBasicExtraordinaryKnocksOut(t *testing.T) {
	e := mustEngine(t)
	s := testScene()
	s.Characters[villain].Traits = s.Characters[villain].Traits[:1] // Chaos d10 alone: no Final Push below the floor
	must(t, e.Begin(s, Basic, []SideSetup{side(villain, []Pick{{villain, chaos}}), side(hero, heroPool())}, 0))
	// Villain rolls 3: stakes 3. Hero 8, 6, 10 = 18: wins by 15. A Final
	// Push of Chaos's two steps (d10 -> d6... gone) would leave 5, still
	// Extraordinary, and a third would reach a tie, which wins for the
	// holder: no push can save the villain, so none is offered.
	r := dice.Scripted(3, 8, 6, 10)
	must(t, e.Roll(s, r, []Pick{{villain, chaos}}))
	must(t, e.Roll(s, r, heroPool()))
	a := s.Action
	if a.Phase != PhaseInflict || !a.Harms[0].Trauma {
		t.Fatalf("phase %s harms %+v: want Trauma to inflict", a.Phase, a.Harms)
	}
	// Take the Trauma. The hero's Complication Pool: d8 d6 d10 roll 2, 7, 7:
	// the tie in value goes to the larger die, d10.
	r = dice.Scripted(2, 7, 7)
	must(t, e.Inflict(s, r, -1, nil))
	v := s.Characters[villain]
	if !v.KnockedOut || v.Traits[len(v.Traits)-1] != (Trait{Name: "Hero", Kind: Trauma, Die: dice.D10}) {
		t.Errorf("villain: %+v", v)
	}
	if a.End != EndExtraordinary || a.Winner != 1 {
		t.Errorf("end %s winner %d", a.End, a.Winner)
	}
}

// Final Push: a hero 11 under steps two traits down for +10 and takes a
// Complication instead of Trauma; lowered traits stay lowered.
func TestFinalPush(t *testing.T) {
	e := mustEngine(t)
	rec := &Recorder{}
	e.Sink = rec.Record
	s := testScene()
	must(t, e.Begin(s, Contested, []SideSetup{side(villain, villainPool()), side(hero, heroPool())}, 0))
	// Villain 10, 6, 3 = 16 sets the stakes; the hero rolls 2, 1, 3 = 5: 11 under.
	r := dice.Scripted(10, 6, 3, 2, 1, 3)
	must(t, e.Roll(s, r, villainPool()))
	if err := e.GiveIn(s, PayPlotPoint); err == nil {
		t.Error("paid to give in before rolling")
	}
	must(t, e.Roll(s, r, heroPool()))
	a := s.Action
	if a.Phase != PhasePush || a.Margin != 11 {
		t.Fatalf("phase %s margin %d", a.Phase, a.Margin)
	}
	before := s.Clone()
	for _, bad := range [][]Pick{
		{{hero, gordon}, {hero, gordon}, {hero, gordon}}, // a third step would win
		{{hero, gadgets}},  // not rolled
		{{villain, chaos}}, // not the hero's
		{{hero, gordon}, {hero, gordon}, {hero, detective}}, // same, past the limit
	} {
		if err := e.Push(s, bad); err == nil {
			t.Errorf("push %v accepted", bad)
		}
		if d := diff(before, s); d != "" {
			t.Fatalf("rejected push %v changed the scene (-want +got):\n%s", bad, d)
		}
	}
	tb := &Table{Chars: []Policy{hoarder{}}}
	if need, ok, err := e.PushNeed(s); err != nil || need != 2 || !ok {
		t.Errorf("PushNeed = %d, %v, %v; want 2 steps in reach", need, ok, err)
	}
	// The villain's Complication Pool d10 d6 d8 rolls 4, 6, 2: d6.
	r = dice.Scripted(4, 6, 2)
	must(t, playWith(e, s, r, tb))
	h := s.Characters[hero]
	if h.Traits[gordon].Die != dice.Gone || h.KnockedOut {
		t.Errorf("Gordon %v knocked out %v", h.Traits[gordon].Die, h.KnockedOut)
	}
	if got := h.Traits[len(h.Traits)-1]; got != (Trait{Name: "Villain", Kind: Complication, Die: dice.D6}) {
		t.Errorf("complication %+v", got)
	}
	if a.End != EndBeaten || a.Pushes != 2 || a.Sides[1].Total != 15 || h.Reflection != 1 {
		t.Errorf("end %s pushes %d total %d reflection %d", a.End, a.Pushes, a.Sides[1].Total, h.Reflection)
	}
	// Gordon is gone: the hero can no longer roll it.
	if err := e.Begin(s.Clone(), Basic, []SideSetup{side(TroublePool, nil), side(hero, heroPool())}, 0); err == nil || !strings.Contains(err.Error(), "gone") {
		t.Errorf("Begin planned a trait stepped below d4: %v", err)
	}
	must(t, e.Begin(s, Basic, []SideSetup{side(TroublePool, nil), side(hero, []Pick{{hero, justice}, {hero, detective}})}, 0))
	r = dice.Scripted(3, 3)
	must(t, e.Roll(s, r, nil))
	if err := e.Roll(s, r, heroPool()); err == nil {
		t.Error("rolled a trait stepped below d4")
	}
	// Not when less than 5 under: the loss goes straight to a Complication.
	s = testScene()
	must(t, e.Begin(s, Contested, []SideSetup{side(villain, villainPool()), side(hero, heroPool())}, 0))
	r = dice.Scripted(10, 6, 3, 6, 1, 6)
	must(t, e.Roll(s, r, villainPool()))
	must(t, e.Roll(s, r, heroPool()))
	if s.Action.Phase != PhaseInflict {
		t.Errorf("4 under: phase %s, want inflict", s.Action.Phase)
	}
	if err := e.Push(s, []Pick{{hero, justice}}); !errors.Is(err, ErrPhase) {
		t.Errorf("push at 4 under: %v", err)
	}
}

// hoarder plays Sensible but never buys lowered traits back.
type hoarder struct{ Sensible }

func (hoarder) Rebuy(*View, *Character) (int, int) { return -1, 0 }

// Contested back and forth: raises must be strictly higher; giving in after
// rolling costs a Plot Point to the holder or a d6 Complication.
func TestContestedGiveIn(t *testing.T) {
	for _, c := range []struct {
		pay    Payment
		heroPP int
		vilPP  int
		comp   bool
	}{
		{PayPlotPoint, 1, 2, false},
		{PayComplication, 2, 1, true},
	} {
		e := mustEngine(t)
		s := testScene()
		must(t, e.Begin(s, Contested, []SideSetup{side(villain, villainPool()), side(hero, heroPool())}, 0))
		// Villain 5+4 = 9; hero 6+5 = 11 raises; villain 8+6 = 14 raises.
		r := dice.Scripted(5, 4, 2, 6, 5, 3, 8, 6, 1)
		must(t, e.Roll(s, r, villainPool()))
		must(t, e.Roll(s, r, heroPool()))
		must(t, e.Roll(s, r, villainPool()))
		a := s.Action
		if a.Stakes != 14 || a.Holder != 0 || a.Raises != 2 || a.Turn != 1 {
			t.Fatalf("stakes %d holder %d raises %d turn %d", a.Stakes, a.Holder, a.Raises, a.Turn)
		}
		before := s.Clone()
		if err := e.GiveIn(s, PayNothing); !errors.Is(err, ErrPayRequired) {
			t.Errorf("free give in after rolling: %v", err)
		}
		if d := diff(before, s); d != "" {
			t.Fatalf("rejected give in changed the scene (-want +got):\n%s", d)
		}
		must(t, e.GiveIn(s, c.pay))
		if c.comp {
			if a.Phase != PhaseInflict {
				t.Fatalf("phase %s", a.Phase)
			}
			must(t, e.Inflict(s, dice.Scripted(), -1, nil))
		}
		h, v := s.Characters[hero], s.Characters[villain]
		if h.PlotPoints != c.heroPP || v.PlotPoints != c.vilPP || h.Reflection != 0 {
			t.Errorf("%s: PP hero %d villain %d, reflection %d", c.pay, h.PlotPoints, v.PlotPoints, h.Reflection)
		}
		hasComp := h.Traits[len(h.Traits)-1] == Trait{Name: "Villain", Kind: Complication, Die: dice.D6}
		if hasComp != c.comp || a.End != EndGaveIn || a.Winner != 0 || a.Phase != PhaseDone {
			t.Errorf("%s: complication %v end %s winner %d phase %s", c.pay, hasComp, a.End, a.Winner, a.Phase)
		}
	}
	// Giving in before ever rolling is free, and a basic action is always so.
	e := mustEngine(t)
	s := testScene()
	must(t, e.Begin(s, Basic, []SideSetup{side(villain, villainPool()), side(hero, heroPool())}, 0))
	must(t, e.Roll(s, dice.Scripted(5, 4, 2), villainPool()))
	must(t, e.GiveIn(s, PayNothing))
	if s.Action.End != EndGaveIn || s.Characters[hero].PlotPoints != 2 || len(s.Characters[hero].Traits) != 5 {
		t.Errorf("free give in: %+v", s.Action)
	}
}

// Complication ratings: a larger die replaces, a smaller or equal steps
// up, past d12 knocks out with d6 Trauma, Trauma past d12 ends the story.
func TestRatings(t *testing.T) {
	e := mustEngine(t)
	for _, c := range []struct {
		name     string
		old      dice.Die
		kind     Kind
		nd       dice.Die
		want     dice.Die
		ko, gone bool
		trauma   dice.Die
	}{
		{"new", dice.Gone, Complication, dice.D8, dice.D8, false, false, 0},
		{"larger replaces", dice.D6, Complication, dice.D10, dice.D10, false, false, 0},
		{"smaller steps up", dice.D8, Complication, dice.D6, dice.D10, false, false, 0},
		{"equal steps up", dice.D8, Complication, dice.D8, dice.D10, false, false, 0},
		{"past d12 knocks out", dice.D12, Complication, dice.D4, dice.D12, true, false, dice.D6},
		{"trauma knocks out", dice.Gone, Trauma, dice.D6, dice.D6, true, false, dice.D6},
		{"trauma past d12", dice.D12, Trauma, dice.D8, dice.D12, true, true, dice.D12},
	} {
		s := testScene()
		ch := &s.Characters[hero]
		idx := -1
		if c.old != dice.Gone {
			ch.Traits = append(ch.Traits, Trait{Name: "Hurt", Kind: c.kind, Die: c.old})
			idx = len(ch.Traits) - 1
		}
		e.apply(s, hero, idx, "Hurt", c.kind, c.nd)
		got := ch.Traits[ch.findKind("Hurt", c.kind)].Die
		if got != c.want || ch.KnockedOut != c.ko || ch.OutOfStory != c.gone {
			t.Errorf("%s: rating %v ko %v out %v", c.name, got, ch.KnockedOut, ch.OutOfStory)
		}
		if c.trauma != 0 {
			if i := ch.findKind("Hurt", Trauma); i < 0 || ch.Traits[i].Die != c.trauma {
				t.Errorf("%s: trauma %v", c.name, ch.Traits)
			}
		}
	}
}

// The Complication Pool leaves out dice that showed 1; Vicious steps its
// lowest die up; with every die a 1 the rating is d4; the kept-only
// option uses the two dice that made the total.
func TestComplicationPool(t *testing.T) {
	for _, c := range []struct {
		name    string
		dice    []dice.Die
		faces   []int
		vicious bool
		kept    bool
		script  []int
		want    dice.Die
	}{
		{"ones left out", []dice.Die{dice.D12, dice.D4, dice.D6}, []int{1, 3, 4}, false, false, []int{4, 4}, dice.D6},
		{"tie to larger", []dice.Die{dice.D8, dice.D10}, []int{3, 3}, false, false, []int{5, 5}, dice.D10},
		{"highest face", []dice.Die{dice.D12, dice.D4}, []int{3, 3}, false, false, []int{2, 4}, dice.D4},
		{"vicious", []dice.Die{dice.D8, dice.D4}, []int{3, 3}, true, false, []int{2, 6}, dice.D6},
		{"all ones", []dice.Die{dice.D8, dice.D4}, []int{1, 1}, false, false, nil, dice.D4},
		{"kept only", []dice.Die{dice.D12, dice.D4, dice.D6}, []int{2, 3, 4}, false, true, []int{1, 1}, dice.D6},
	} {
		e := mustEngine(t)
		s := testScene()
		s.Rules.ComplicationKeptOnly = c.kept
		if c.vicious {
			s.Characters[hero].Traits[detective].Effect = StepUpLowest
		}
		sd := &Side{Char: hero, Dice: c.dice, Faces: c.faces}
		r := dice.Scripted(c.script...)
		var use []Pick
		if c.vicious {
			use = []Pick{{hero, detective}}
			sd.Picks = use
		}
		if got := e.ratePool(s, r, sd, use); got != c.want {
			t.Errorf("%s: rating %v, want %v", c.name, got, c.want)
		}
		if r.Err() != nil || r.Remaining() != 0 {
			t.Errorf("%s: script %v, %d left", c.name, r.Err(), r.Remaining())
		}
	}
}

// Building pools: a Value is required; a trait twice, or more than three
// traits, costs Plot Points; others' traits only as Complications; the
// Plot Points are spent before the roll.
func TestPoolBuilding(t *testing.T) {
	e := mustEngine(t)
	s := testScene()
	s.Characters[villain].Traits = append(s.Characters[villain].Traits, Trait{Name: "Bruised", Kind: Complication, Die: dice.D8})
	for _, c := range []struct {
		name  string
		picks []Pick
		cost  int
		err   error
	}{
		{"value alone", []Pick{{hero, justice}}, 0, nil},
		{"three free", heroPool(), 0, nil},
		{"fourth costs", append(heroPool(), Pick{hero, gadgets}), 1, nil},
		{"aspect counts", append(heroPool(), Pick{SceneOwner, 0}), 1, nil},
		{"reuse costs", []Pick{{hero, justice}, {hero, justice}}, 1, nil},
		{"opposing complication", []Pick{{hero, justice}, {villain, 3}}, 0, nil},
		{"no value", []Pick{{hero, gordon}, {hero, detective}}, 0, ErrNoValue},
		{"empty", nil, 0, ErrNoValue},
		{"opposing value", []Pick{{hero, justice}, {villain, chaos}}, 0, errAny},
		{"no such trait", []Pick{{hero, 99}}, 0, errAny},
		{"no such aspect", []Pick{{hero, justice}, {SceneOwner, 3}}, 0, errAny},
	} {
		got, err := s.cost(hero, c.picks)
		switch {
		case c.err == nil && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.err == errAny && err == nil, c.err != nil && c.err != errAny && !errors.Is(err, c.err):
			t.Errorf("%s: err %v, want %v", c.name, err, c.err)
		case c.err == nil && got != c.cost:
			t.Errorf("%s: cost %d, want %d", c.name, got, c.cost)
		}
	}
	// Spending: 5 traits cost 2 (the hero has 2); a reuse on top is one too many.
	must(t, e.Begin(s, Basic, []SideSetup{side(TroublePool, nil), side(hero, heroPool())}, 0))
	r := dice.Scripted(2, 2, 3, 3, 3, 3, 3, 3)
	must(t, e.Roll(s, r, nil))
	before := s.Clone()
	six := append(heroPool(), Pick{hero, gadgets}, Pick{hero, cave}, Pick{hero, justice})
	if err := e.Roll(s, r, six); !errors.Is(err, ErrPlotPoints) {
		t.Errorf("unaffordable pool: %v", err)
	}
	if d := diff(before, s); d != "" {
		t.Fatalf("rejected roll changed the scene (-want +got):\n%s", d)
	}
	must(t, e.Roll(s, r, six[:5]))
	if s.Characters[hero].PlotPoints != 0 || len(s.Action.Sides[1].Dice) != 5 {
		t.Errorf("PP %d dice %v", s.Characters[hero].PlotPoints, s.Action.Sides[1].Dice)
	}
}

var errAny = errors.New("any error")

// Bad traits and scenes are rejected with errors naming the problem.
func TestBadInput(t *testing.T) {
	for _, tr := range []Trait{
		{Name: "x", Kind: Value, Die: dice.D20},
		{Name: "x", Kind: Value, Die: 7},
		{Name: "", Kind: Value, Die: dice.D6},
		{Name: "x", Kind: 77, Die: dice.D6},
		{Name: "x", Kind: Value, Die: dice.D6, Effect: StepUpLowest},
		{Name: "x", Kind: Distinction, Die: dice.D6, Effect: 99},
	} {
		if err := tr.Check(); err == nil {
			t.Errorf("trait %+v accepted", tr)
		}
	}
	s := testScene()
	s.Trouble = append(s.Trouble, dice.D20)
	if err := s.Check(); err == nil {
		t.Error("a d20 in the Trouble Pool accepted")
	}
	e := mustEngine(t)
	s = testScene()
	for _, c := range []struct {
		kind  ActionKind
		sides []SideSetup
		init  int
	}{
		{Basic, []SideSetup{side(TroublePool, nil)}, 0},
		{Basic, []SideSetup{side(hero, heroPool()), side(TroublePool, nil)}, 0},
		{Contested, []SideSetup{side(TroublePool, nil), side(hero, heroPool())}, 0},
		{Contested, []SideSetup{side(hero, heroPool()), side(hero, heroPool())}, 0},
		{Contested, []SideSetup{side(hero, heroPool()), side(9, nil)}, 0},
		{Contested, []SideSetup{side(hero, heroPool()), side(villain, villainPool())}, 5},
		{Contested + 1, []SideSetup{side(hero, heroPool()), side(villain, villainPool())}, 0},
		{kindNone, []SideSetup{side(hero, heroPool()), side(villain, villainPool())}, 0},
		{Contested, []SideSetup{side(hero, heroPool()), {Char: villain, Gang: []dice.Die{dice.D20}}}, 0},
		{Contested, []SideSetup{side(hero, heroPool()), {Char: villain, Aider: Ref(hero)}}, 0},
	} {
		if err := e.Begin(s, c.kind, c.sides, c.init); err == nil {
			t.Errorf("begin %s %+v accepted", c.kind, c.sides)
		}
		if s.Action != nil {
			t.Fatal("a rejected begin left an action")
		}
	}
	bad := testScene()
	bad.Rules.Keep = 0
	if err := bad.Check(); err == nil {
		t.Error("keep 0 accepted")
	}
	bad = testScene()
	bad.Rules.TroubleDie = dice.D20
	if _, err := NewState(bad.Rules, bad.Characters, nil); err == nil {
		t.Error("trouble d20 accepted")
	}
	// Steps out of phase.
	for name, f := range map[string]func() error{
		"roll":      func() error { return e.Roll(s, dice.Scripted(), heroPool()) },
		"give in":   func() error { return e.GiveIn(s, PayNothing) },
		"push":      func() error { return e.Push(s, nil) },
		"inflict":   func() error { return e.Inflict(s, dice.Scripted(), -1, nil) },
		"continue":  func() error { return e.Continue(s, 0, true) },
		"brawl":     func() error { return e.Brawl(s, dice.Scripted()) },
		"buy ones":  func() error { return e.BuyOnes(s, 1) },
		"timed":     func() error { return e.TimedRoll(s, dice.Scripted(), nil) },
		"buy time":  func() error { return e.BuyTime(s, dice.Scripted(), 0) },
		"choose":    func() error { return e.Choose(s, true) },
		"interfere": func() error { return e.Interfere(s, dice.Scripted(), bystander, nil) },
	} {
		if err := f(); !errors.Is(err, ErrPhase) {
			t.Errorf("%s with nothing under way: %v", name, err)
		}
	}
}

// Ganging up: six thugs d6 roll 6d6; each raise against them knocks off a
// die, an Extraordinary raise two, never the last thug.
func TestGangingUp(t *testing.T) {
	e := mustEngine(t)
	rec := &Recorder{}
	e.Sink = rec.Record
	s := testScene()
	s.Characters = append(s.Characters, Character{Name: "Thug", GM: true, Traits: []Trait{{Name: "Thug", Kind: Value, Die: dice.D6}}})
	thug := len(s.Characters) - 1
	gang := []dice.Die{dice.D6, dice.D6, dice.D6, dice.D6, dice.D6}
	tp := []Pick{{thug, 0}}
	must(t, e.Begin(s, Contested, []SideSetup{{Char: thug, Gang: gang, Base: tp}, side(hero, heroPool())}, 0))
	r := dice.Scripted(
		2, 3, 2, 4, 2, 2, // 6d6: 4+3 = 7
		6, 5, 2, // hero 11: raise by 4, one thug off
		6, 5, 6, 2, 2, // 5d6: 12
		8, 6, 10, // hero 18: raise by 6, two off
		6, 6, 6, // 3d6: 12 fails by 6 -> no push (Thug has only a d6 value ... it may push)
	)
	must(t, e.Roll(s, r, tp))
	if n := len(s.Action.Sides[0].Dice); n != 6 {
		t.Fatalf("the gang rolled %d dice, want 6", n)
	}
	must(t, e.Roll(s, r, heroPool()))
	if n := len(s.Action.Sides[0].Gang); n != 4 {
		t.Fatalf("after a raise the gang has %d extra dice, want 4", n)
	}
	must(t, e.Roll(s, r, tp))
	must(t, e.Roll(s, r, heroPool()))
	if n := len(s.Action.Sides[0].Gang); n != 2 {
		t.Fatalf("after an Extraordinary raise the gang has %d extra dice, want 2", n)
	}
	// Never below one opponent.
	s.Action.Sides[0].Gang = s.Action.Sides[0].Gang[:0]
	s.Action.Turn, s.Action.Holder, s.Action.Stakes = 1, 0, 3
	must(t, e.Roll(s, dice.Scripted(6, 6, 6), heroPool()))
	if s.Action.Sides[0].Out || len(s.Action.Sides[0].Gang) != 0 {
		t.Errorf("a lone thug was knocked off: %+v", s.Action.Sides[0])
	}
}

// Aiding: the aider's highest die joins the total; the aider takes a
// Complication when the side loses.
func TestAid(t *testing.T) {
	e := mustEngine(t)
	s := testScene()
	hs := side(hero, heroPool())
	hs.Aider, hs.AidPicks = Ref(sidekick), []Pick{{sidekick, 0}, {sidekick, 1}}
	must(t, e.Begin(s, Contested, []SideSetup{side(villain, villainPool()), hs}, 0))
	// Villain 10+8 = 18. Sidekick aids: d6 d8 show 4, 7 -> +7. Hero 5+4+7 = 16: fails by 2.
	r := dice.Scripted(10, 2, 8, 4, 7, 5, 1, 4)
	must(t, e.Roll(s, r, villainPool()))
	if err := e.Aid(s, r, 1, hero, heroPool()); err == nil {
		t.Error("a side aided itself")
	}
	must(t, e.Aid(s, r, 1, sidekick, hs.AidPicks))
	if s.Action.Sides[1].Aid != 7 {
		t.Fatalf("aid %d, want 7", s.Action.Sides[1].Aid)
	}
	must(t, e.Roll(s, r, heroPool()))
	a := s.Action
	if a.Sides[1].Total != 16 || a.Sides[1].Aid != 0 {
		t.Fatalf("total %d aid left %d", a.Sides[1].Total, a.Sides[1].Aid)
	}
	if d := diff([]Harm{{From: 0, To: hero}, {From: 0, To: sidekick}}, a.Harms); d != "" {
		t.Errorf("harms (-want +got):\n%s", d)
	}
	// Villain's pool d10 d6 d8 (2 is no 1, so all three) for each harm.
	r = dice.Scripted(9, 1, 1, 1, 1, 8)
	must(t, e.Inflict(s, r, -1, nil))
	must(t, e.Inflict(s, r, -1, nil))
	sk := s.Characters[sidekick]
	if got := sk.Traits[len(sk.Traits)-1]; got != (Trait{Name: "Villain", Kind: Complication, Die: dice.D8}) {
		t.Errorf("sidekick's complication %+v", got)
	}
	if s.Characters[hero].Traits[5].Die != dice.D10 || a.Phase != PhaseDone {
		t.Errorf("hero %+v phase %s", s.Characters[hero].Traits, a.Phase)
	}
}

// Interfering: a Plot Point to the GM; beating the stakes stops the
// contest unless both sides pay to go on; then the three-way roll.
func TestInterfere(t *testing.T) {
	begin := func() (*Engine, *State, *dice.Roller) {
		e := mustEngine(t)
		s := testScene()
		must(t, e.Begin(s, Contested, []SideSetup{side(villain, villainPool()), side(hero, heroPool())}, 0))
		r := dice.Scripted(5, 2, 2) // villain 7
		must(t, e.Roll(s, r, villainPool()))
		return e, s, r
	}
	bp := []Pick{{bystander, 0}, {bystander, 1}}
	// Ignored: 3+2 = 5 does not beat 7.
	e, s, _ := begin()
	must(t, e.Interfere(s, dice.Scripted(3, 2), bystander, bp))
	if s.Action.Phase != PhaseTurn || s.GMPlotPoints != 1 || s.Characters[bystander].PlotPoints != 2 {
		t.Errorf("ignored interference: phase %s GM PP %d", s.Action.Phase, s.GMPlotPoints)
	}
	if err := e.Interfere(s, dice.Scripted(3, 2), sidekick, []Pick{{sidekick, 0}}); err == nil {
		t.Error("interfered twice")
	}
	// Stopped: 6+4 = 10 beats 7; the hero will not pay.
	e, s, _ = begin()
	if err := e.Interfere(s, dice.Scripted(6, 4), hero, heroPool()); err == nil {
		t.Error("a side interfered with its own contest")
	}
	must(t, e.Interfere(s, dice.Scripted(6, 4), bystander, bp))
	must(t, e.Continue(s, 0, true))
	if err := e.Continue(s, 0, true); err == nil {
		t.Error("answered twice")
	}
	must(t, e.Continue(s, 1, false))
	if s.Action.Phase != PhaseDone || s.Action.End != EndStopped || s.Characters[villain].PlotPoints != 1 {
		t.Errorf("stopped: %+v", s.Action)
	}
	// Both pay: brawl. Villain 10+6 = 16, hero 8+6 = 14, bystander 5+5 = 10:
	// the villain complicates the hero; both complicate the bystander.
	e, s, _ = begin()
	must(t, e.Interfere(s, dice.Scripted(6, 4), bystander, bp))
	s.Characters[hero].PlotPoints = 1
	must(t, e.Continue(s, 0, true))
	must(t, e.Continue(s, 1, true))
	if s.Characters[bystander].PlotPoints != 4 || s.Characters[villain].PlotPoints != 0 || s.Characters[hero].PlotPoints != 0 {
		t.Errorf("continue payments: %d %d %d", s.Characters[bystander].PlotPoints, s.Characters[villain].PlotPoints, s.Characters[hero].PlotPoints)
	}
	must(t, e.Brawl(s, dice.Scripted(10, 6, 2, 8, 6, 3, 5, 5)))
	want := []Harm{{From: 0, To: hero}, {From: 0, To: bystander}, {From: 1, To: bystander}}
	if d := diff(want, s.Action.Harms); d != "" {
		t.Errorf("brawl harms (-want +got):\n%s", d)
	}
	must(t, playWith(e, s, dice.NewSeeded(1), &Table{}))
	if s.Action.End != EndBrawl || s.Action.Winner != 0 || s.Characters[hero].Reflection != 1 {
		t.Errorf("brawl end %s winner %d", s.Action.End, s.Action.Winner)
	}
}

// More than two sides: everyone rolls, the highest sets the stakes (a tie
// for highest rolls again); a side that fails is out, the rest go on.
func TestThreeSides(t *testing.T) {
	e := mustEngine(t)
	s := testScene()
	sk := []Pick{{sidekick, 0}, {sidekick, 1}}
	must(t, e.Begin(s, Contested, []SideSetup{side(villain, villainPool()), side(hero, heroPool()), side(sidekick, sk)}, -1))
	r := dice.Scripted(
		5, 4, 2, 5, 4, 3, 3, 2, // 9, 9, 5: tie for highest, again
		6, 4, 2, 2, 2, 2, 3, 2, // 10, 4, 5: the villain holds 10
	)
	must(t, e.Roll(s, r, villainPool()))
	must(t, e.Roll(s, r, heroPool()))
	must(t, e.Roll(s, r, sk))
	if s.Action.Phase != PhaseOpen || s.Action.Turn != 0 {
		t.Fatalf("after a tie: phase %s turn %d", s.Action.Phase, s.Action.Turn)
	}
	must(t, e.Roll(s, r, villainPool()))
	must(t, e.Roll(s, r, heroPool()))
	must(t, e.Roll(s, r, sk))
	a := s.Action
	if a.Holder != 0 || a.Stakes != 10 || a.Turn != 1 || a.Phase != PhaseTurn {
		t.Fatalf("holder %d stakes %d turn %d", a.Holder, a.Stakes, a.Turn)
	}
	// The hero fails by 3: out with a Complication; the sidekick is next.
	must(t, e.Roll(s, dice.Scripted(3, 4, 2), heroPool()))
	must(t, e.Inflict(s, dice.Scripted(1, 1, 1), -1, nil))
	if a.Phase != PhaseTurn || a.Turn != 2 || !a.Sides[1].Out {
		t.Fatalf("phase %s turn %d", a.Phase, a.Turn)
	}
	// The sidekick raises to 13; the villain fails; sidekick wins.
	must(t, e.Roll(s, dice.Scripted(6, 7), sk))
	must(t, e.Roll(s, dice.Scripted(2, 2, 2), villainPool()))
	must(t, playWith(e, s, dice.NewSeeded(3), &Table{}))
	if a.Winner != 2 || a.Phase != PhaseDone {
		t.Errorf("winner %d phase %s", a.Winner, a.Phase)
	}
}

// Timed actions: beats count down; Extraordinary costs none, failure one
// more; finishing on zero beats asks for a choice; running out inflicts a
// Complication; buying time gives beats back or puts the helper out.
func TestTimed(t *testing.T) {
	d6s := []dice.Die{dice.D6, dice.D6}
	steps := []TimedStep{{Stakes: d6s}, {Stakes: d6s}, {}}
	hp := []Helper{{Char: sidekick, Picks: []Pick{{sidekick, 0}, {sidekick, 1}}}, {Char: bystander, Picks: []Pick{{bystander, 0}}}}
	e := mustEngine(t)
	s := testScene()
	must(t, e.BeginTimed(s, hero, heroPool(), 4, steps, hp))
	tm := s.Timed
	// Step 0: stakes 2+2 = 4, hero 8+6 = 14: Extraordinary, no beat.
	must(t, e.TimedRoll(s, dice.Scripted(2, 2, 8, 6, 1), nil))
	if tm.Beats != 4 || tm.Phase != TimedGap {
		t.Fatalf("beats %d phase %s", tm.Beats, tm.Phase)
	}
	// Buy time at full beats: success gives nothing past the start.
	must(t, e.BuyTime(s, dice.Scripted(1, 1, 3, 3), 0))
	if tm.Beats != 4 {
		t.Errorf("bought past the start: %d", tm.Beats)
	}
	if err := e.BuyTime(s, dice.Scripted(1, 1, 3, 3), 1); err == nil {
		t.Error("two attempts in one gap")
	}
	// Step 1: stakes 6+5 = 11, hero 3+2+2 = 5: failure costs 2.
	must(t, e.TimedRoll(s, dice.Scripted(6, 5, 3, 2, 2), nil))
	if tm.Beats != 2 {
		t.Fatalf("beats %d, want 2", tm.Beats)
	}
	// The bystander fails to buy time and is out for good.
	must(t, e.BuyTime(s, dice.Scripted(6, 6, 2), 1))
	if !tm.Helpers[1].Out {
		t.Error("a failed helper is still in")
	}
	// Step 2 (Trouble Pool): 3+3 = 6, hero 5+4 = 9: costs 1; done with 1
	// beat. The GM buys the hero's 1.
	must(t, e.TimedRoll(s, dice.Scripted(3, 3, 5, 4, 1), nil))
	if tm.Ones != 1 {
		t.Errorf("timed 1s to buy: %d", tm.Ones)
	}
	must(t, e.BuyOnes(s, 1))
	if tm.OnesBought != 1 || len(s.Trouble) != 3 || s.Characters[hero].PlotPoints != 3 {
		t.Errorf("timed 1s bought %d, trouble %v, PP %d", tm.OnesBought, s.Trouble, s.Characters[hero].PlotPoints)
	}
	if tm.Phase != TimedDone || tm.Outcome != TimedCompleted || tm.Beats != 1 {
		t.Errorf("phase %s outcome %s beats %d", tm.Phase, tm.Outcome, tm.Beats)
	}

	// Zero beats at the end: choose.
	s = testScene()
	must(t, e.BeginTimed(s, hero, heroPool(), 1, steps[:1], nil))
	must(t, e.TimedRoll(s, dice.Scripted(2, 2, 3, 3, 1), nil))
	if s.Timed.Phase != TimedChoose {
		t.Fatalf("phase %s", s.Timed.Phase)
	}
	must(t, e.Choose(s, false))
	if s.Timed.Outcome != TimedGetaway {
		t.Errorf("outcome %s", s.Timed.Outcome)
	}
	// Out of time: caught, and a Complication rated from the stakes dice.
	s = testScene()
	must(t, e.BeginTimed(s, hero, heroPool(), 2, steps, hp))
	must(t, e.TimedRoll(s, dice.Scripted(6, 5, 3, 2, 2), nil))
	if s.Timed.Phase != TimedInflictPhase || s.Timed.Outcome != TimedOutOfTime {
		t.Fatalf("phase %s outcome %s", s.Timed.Phase, s.Timed.Outcome)
	}
	must(t, playWith(e, s, dice.Scripted(4, 2), &Table{}))
	h := s.Characters[hero]
	if got := h.Traits[len(h.Traits)-1]; got != (Trait{Name: "out of time", Kind: Complication, Die: dice.D6}) {
		t.Errorf("out of time complication %+v", got)
	}
	// Buying time when low: +1, +2 on Extraordinary, capped at the start.
	s = testScene()
	must(t, e.BeginTimed(s, hero, heroPool(), 5, steps, hp))
	must(t, e.TimedRoll(s, dice.Scripted(6, 5, 3, 2, 2), nil)) // 3 left
	must(t, e.BuyTime(s, dice.Scripted(2, 2, 6, 8), 0))        // 14 vs 4: +2
	if s.Timed.Beats != 5 {
		t.Errorf("beats %d after an Extraordinary buy, want 5", s.Timed.Beats)
	}
	if err := e.BeginTimed(s, hero, heroPool(), 0, steps, nil); err == nil {
		t.Error("began a timed action over one under way")
	}
	s = testScene()
	for _, bad := range []func() error{
		func() error { return e.BeginTimed(s, hero, heroPool(), 0, steps, nil) },
		func() error { return e.BeginTimed(s, hero, heroPool(), 3, nil, nil) },
		func() error { return e.BeginTimed(s, hero, []Pick{{hero, gordon}}, 3, steps, nil) },
		func() error { return e.BeginTimed(s, hero, heroPool(), 3, []TimedStep{{Stakes: []dice.Die{3}}}, nil) },
		func() error {
			return e.BeginTimed(s, hero, heroPool(), 3, steps, []Helper{{Char: hero, Picks: heroPool()}})
		},
	} {
		if err := bad(); err == nil || s.Timed != nil {
			t.Errorf("bad timed action accepted: %v", err)
		}
	}
}

// The scene, mid-contest, saves and restores as JSON and plays on the same.
func TestSceneJSON(t *testing.T) {
	e := mustEngine(t)
	s := testScene()
	must(t, e.Begin(s, Contested, []SideSetup{side(villain, villainPool()), side(hero, heroPool())}, 0))
	must(t, e.Roll(s, dice.Scripted(5, 4, 2), villainPool()))
	// One action at a time: no timed action begins beside this one.
	if err := e.BeginTimed(s, hero, heroPool(), 3, []TimedStep{{}}, nil); !errors.Is(err, ErrPhase) {
		t.Fatalf("a timed action began during a contest: %v", err)
	}
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var back State
	dec := json.NewDecoder(bytesReader(b))
	dec.DisallowUnknownFields()
	must(t, dec.Decode(&back))
	if d := diff(s, &back); d != "" {
		t.Fatalf("round trip (-want +got):\n%s", d)
	}
	r1, r2 := dice.NewSeeded(7), dice.NewSeeded(7)
	must(t, playWith(e, s, r1, &Table{}))
	must(t, playWith(e, &back, r2, &Table{}))
	if d := diff(s, &back); d != "" {
		t.Errorf("played on differently (-want +got):\n%s", d)
	}
}

// A GM character's Reflection Points may become Trouble, as the GM's
// policy decides; only GM characters, only points they have.
func TestCashReflection(t *testing.T) {
	for _, c := range []struct {
		gm      string
		trouble int
		refl    int
	}{{"default", 2, 1}, {"stubborn", 3, 0}} {
		e := mustEngine(t)
		s := testScene()
		must(t, e.Begin(s, Basic, []SideSetup{side(villain, villainPool()), side(hero, heroPool())}, 0))
		// Villain 2+2 = 4, hero 5+3 = 8: the villain loses by 4 and earns
		// a Reflection Point; its Complication Pool rolls 2, 2, 2.
		gm, _ := PolicyByName(c.gm)
		must(t, playWith(e, s, dice.Scripted(2, 2, 2, 5, 2, 3, 2, 2, 2), &Table{GM: gm, Chars: []Policy{nil, Frugal{}}}))
		if len(s.Trouble) != c.trouble || s.Characters[villain].Reflection != c.refl {
			t.Errorf("%s: trouble %v reflection %d", c.gm, s.Trouble, s.Characters[villain].Reflection)
		}
	}
	e := mustEngine(t)
	s := testScene()
	s.Characters[villain].Reflection = 1
	before := s.Clone()
	for _, bad := range []struct{ c, n int }{{hero, 0}, {villain, 2}, {villain, -1}, {9, 1}} {
		if err := e.CashReflection(s, bad.c, bad.n); err == nil {
			t.Errorf("cash %d of character %d accepted", bad.n, bad.c)
		}
	}
	if d := diff(before, s); d != "" {
		t.Errorf("rejected cash changed the scene (-want +got):\n%s", d)
	}
}
