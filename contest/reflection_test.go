package contest

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stakesrpg/stakes/dice"
)

// pushAt returns the test scene with the hero losing a contest to the
// villain by margin 11 (villain 10+6 = 16 against the hero's 2+3 = 5, a
// 1 left out) or 16 (villain 10+8 = 18 against 2), in the Final Push phase.
func pushAt(t *testing.T, e *Engine, margin int) *State {
	t.Helper()
	s := testScene()
	must(t, e.Begin(s, Contested, []SideSetup{side(villain, villainPool()), side(hero, heroPool())}, 0))
	r := dice.Scripted(10, 6, 3, 2, 1, 3)
	if margin == 16 {
		r = dice.Scripted(10, 6, 8, 2, 1, 1)
	}
	must(t, e.Roll(s, r, villainPool()))
	must(t, e.Roll(s, r, heroPool()))
	must(t, e.BuyOnes(s, 0)) // the GM's answer to the hero's 1s
	if s.Action.Phase != PhasePush || s.Action.Margin != margin {
		t.Fatalf("phase %s margin %d, want push at %d", s.Action.Phase, s.Action.Margin, margin)
	}
	return s
}

// pushOnly lowers trait k every step, whatever the options say.
type pushOnly struct {
	hoarder
	k int
}

func (p pushOnly) PushStep(*View, []PushOption) int { return p.k }

// Which rolled trait a Final Push lowers is the pusher's policy's choice:
// Sensible gives up its smallest trait (a Value last), PushLargest its
// largest non-Value; the engine offers only traits of its own it rolled.
func TestPushStepPolicy(t *testing.T) {
	e := mustEngine(t)
	for _, c := range []struct {
		p    Policy
		want []Pick
		dies [3]dice.Die // Justice, Gordon, Detective afterwards
	}{
		// The two named policies then buy one step back with the
		// Reflection Point the loss earned (Gordon gone -> d4, Detective
		// d6 -> d8); pushOnly hoards it.
		{Sensible{}, []Pick{{hero, gordon}, {hero, gordon}}, [3]dice.Die{dice.D8, dice.D4, dice.D10}},
		{PushLargest{}, []Pick{{hero, detective}, {hero, detective}}, [3]dice.Die{dice.D8, dice.D6, dice.D8}},
		{pushOnly{k: justice}, []Pick{{hero, justice}, {hero, justice}}, [3]dice.Die{dice.D4, dice.D6, dice.D10}},
	} {
		s := pushAt(t, e, 11)
		rec := &Recorder{}
		heard := *e
		heard.Sink = rec.Record
		// Villain's Complication Pool (d10 d6 d8) rolls 1, 1, 2.
		must(t, playWith(&heard, s, dice.Scripted(1, 1, 2), &Table{Chars: []Policy{c.p}}))
		var steps []Pick
		for _, ev := range rec.Events {
			if ev.Kind == EvPushed {
				steps = append(steps, Pick{ev.Char, s.Characters[ev.Char].Find(ev.Name)})
			}
		}
		if d := diff(c.want, steps); d != "" {
			t.Errorf("%s: push steps (-want +got):\n%s", c.p.Name(), d)
		}
		h := s.Characters[hero]
		got := [3]dice.Die{h.Traits[justice].Die, h.Traits[gordon].Die, h.Traits[detective].Die}
		if got != c.dies || h.KnockedOut || s.Action.Pushes != 2 {
			t.Errorf("%s: traits %v knocked out %v pushes %d, want %v", c.p.Name(), got, h.KnockedOut, s.Action.Pushes, c.dies)
		}
		// Each lowered trait remembers what it was lowered from.
		for i, d := range got {
			orig := h.Traits[i].Original
			if lowered := d != [3]dice.Die{dice.D8, dice.D6, dice.D10}[i]; lowered != (orig != dice.Gone) {
				t.Errorf("%s: trait %d at %v has original %v", c.p.Name(), i, d, orig)
			}
		}
	}
	// Illegal choices are errors naming the policy, and change nothing.
	for _, c := range []struct {
		k      int
		margin int
		why    string
	}{
		{gadgets, 11, "not a trait"},    // not rolled
		{cave, 11, "not a trait"},       // not rolled either
		{-1, 11, "not a trait"},         // no trait
		{gordon, 16, "already gone"},    // d6, d4, then gone for the third step
		{chaos + 40, 11, "not a trait"}, // out of range
	} {
		s := pushAt(t, e, c.margin)
		before := s.Clone()
		err := playWith(e, s, dice.Scripted(1, 1, 2), &Table{Chars: []Policy{pushOnly{k: c.k}}})
		if err == nil || !strings.Contains(err.Error(), c.why) || !strings.Contains(err.Error(), "policy default") {
			t.Errorf("push on trait %d at margin %d: %v", c.k, c.margin, err)
		}
		if d := diff(before, s); d != "" {
			t.Errorf("rejected push on %d changed the scene (-want +got):\n%s", c.k, d)
		}
	}
}

// pickTrouble takes Trouble die k.
type pickTrouble struct {
	Sensible
	k int
}

func (p pickTrouble) TroubleOff(*View, []dice.Die) int { return p.k }

// Which die a win takes off the Trouble Pool is the winner's choice:
// Sensible the largest, TroubleSmallest the smallest; an Extraordinary win
// takes TroubleOffOnExtraordinary dice, each chosen in turn.
func TestTroubleOffPolicy(t *testing.T) {
	for _, c := range []struct {
		p     Policy
		rules func(*Rules)
		hero  []int // the hero's faces (Justice d8, Gordon d6, Detective d10)
		want  []dice.Die
	}{
		{Sensible{}, nil, []int{5, 1, 4}, []dice.Die{dice.D6, dice.D4}},
		{TroubleSmallest{}, nil, []int{5, 1, 4}, []dice.Die{dice.D6, dice.D8}},
		{pickTrouble{k: 0}, nil, []int{5, 1, 4}, []dice.Die{dice.D8, dice.D4}},
		// Won by 14 with two dice off an Extraordinary win.
		{Sensible{}, func(r *Rules) { r.TroubleOffOnExtraordinary = 2 }, []int{8, 1, 10}, []dice.Die{dice.D4}},
		{TroubleSmallest{}, func(r *Rules) { r.TroubleOffOnExtraordinary = 2 }, []int{8, 1, 10}, []dice.Die{dice.D8}},
		// More dice off than the pool holds: it empties.
		{Sensible{}, func(r *Rules) { r.TroubleOffOnExtraordinary = 5 }, []int{8, 1, 10}, []dice.Die{}},
	} {
		rules := DefaultRules()
		if c.rules != nil {
			c.rules(&rules)
		}
		e := mustEngine(t)
		s := testScene()
		s.Rules = rules
		s.Trouble = []dice.Die{dice.D6, dice.D8, dice.D4}
		must(t, e.Begin(s, Basic, []SideSetup{side(TroublePool, nil), side(hero, heroPool())}, 0))
		// The Trouble Pool: 3, 1, 1 = 3.
		r := dice.Scripted(append([]int{3, 1, 1}, c.hero...)...)
		must(t, playWith(e, s, r, &Table{Chars: []Policy{c.p}, GM: Frugal{}}))
		if d := diff(c.want, s.Trouble, cmpEmpty); d != "" {
			t.Errorf("%s %v: trouble left (-want +got):\n%s", c.p.Name(), c.hero, d)
		}
		if s.Action.Phase != PhaseDone || s.Action.Winner != 1 {
			t.Errorf("phase %s winner %d", s.Action.Phase, s.Action.Winner)
		}
	}
	// A choice outside the pool is an error, and changes nothing.
	e := mustEngine(t)
	for _, k := range []int{3, -1, -5} {
		s := testScene()
		s.Trouble = []dice.Die{dice.D6, dice.D8, dice.D4}
		must(t, e.Begin(s, Basic, []SideSetup{side(TroublePool, nil), side(hero, heroPool())}, 0))
		r := dice.Scripted(3, 1, 1, 5, 1, 4)
		must(t, e.Roll(s, r, nil))
		must(t, e.Roll(s, r, heroPool()))
		must(t, e.BuyOnes(s, 0)) // the GM's answer to the hero's 1
		before := s.Clone()
		err := playWith(e, s, r, &Table{Chars: []Policy{pickTrouble{k: k}}, GM: Frugal{}})
		if err == nil || !strings.Contains(err.Error(), "Trouble Pool die") {
			t.Errorf("Trouble die %d: %v", k, err)
		}
		if d := diff(before, s); d != "" {
			t.Errorf("rejected Trouble die %d changed the scene (-want +got):\n%s", k, d)
		}
	}
}

// cmpEmpty compares Die slices by their elements, so a nil slice equals an
// empty one.
var cmpEmpty = cmp.Comparer(slices.Equal[[]dice.Die])

// lowered returns the test scene with the hero's Justice (d8) pushed down
// to d4 and Gordon (d6) gone, as two Final Pushes would leave them, and
// four Reflection Points: enough for all four steps.
func lowered() *State {
	s := testScene()
	h := &s.Characters[hero]
	h.Traits[justice].Die, h.Traits[justice].Original = dice.D4, dice.D8
	h.Traits[gordon].Die, h.Traits[gordon].Original = dice.Gone, dice.D6
	h.Reflection = 4
	return s
}

// Lowered traits are bought back with Reflection Points, RebuyCost a step,
// up to the rating they were lowered from; every bad request is refused
// with the scene unchanged.
func TestRebuy(t *testing.T) {
	e := mustEngine(t)
	rec := &Recorder{}
	e.Sink = rec.Record
	s := lowered()
	before := s.Clone()
	for _, c := range []struct {
		c, i, n int
		why     string
	}{
		{hero, detective, 1, "not lowered"},
		{hero, justice, 3, "1..2"}, // above d8
		{hero, gordon, 3, "1..2"},  // above d6
		{hero, justice, 0, "1..2"},
		{hero, 9, 1, "no trait"},
		{9, justice, 1, "no character"},
		{villain, chaos, 1, "not lowered"},
	} {
		if err := e.Rebuy(s, c.c, c.i, c.n); err == nil || !strings.Contains(err.Error(), c.why) {
			t.Errorf("rebuy %d of %d/%d: %v, want %q", c.n, c.c, c.i, err, c.why)
		}
	}
	// Not enough points: two steps cost 6 at 3 a step.
	s.Rules.RebuyCost = 3
	if err := e.Rebuy(s, hero, justice, 2); err == nil || !strings.Contains(err.Error(), "costs 6") {
		t.Errorf("rebuy beyond the points: %v", err)
	}
	s.Rules.RebuyCost = 1
	// Not while an action is under way.
	must(t, e.Begin(s, Basic, []SideSetup{side(TroublePool, nil), side(hero, []Pick{{hero, justice}})}, 0))
	if err := e.Rebuy(s, hero, justice, 1); !errors.Is(err, ErrPhase) {
		t.Errorf("rebuy mid-action: %v", err)
	}
	s.Action = nil
	must(t, e.BeginTimed(s, hero, []Pick{{hero, justice}, {hero, detective}}, 3, []TimedStep{{}}, nil))
	if err := e.Rebuy(s, hero, justice, 1); !errors.Is(err, ErrPhase) {
		t.Errorf("rebuy mid timed action: %v", err)
	}
	s.Timed = nil
	if d := diff(before, s); d != "" {
		t.Fatalf("rejected rebuys changed the scene (-want +got):\n%s", d)
	}
	rec.Events = nil
	must(t, e.Rebuy(s, hero, justice, 1))
	h := &s.Characters[hero]
	if h.Traits[justice].Die != dice.D6 || h.Traits[justice].Original != dice.D8 || h.Reflection != 3 {
		t.Errorf("after one step: %+v, reflection %d", h.Traits[justice], h.Reflection)
	}
	must(t, e.Rebuy(s, hero, justice, 1))
	must(t, e.Rebuy(s, hero, gordon, 2))
	want := testScene().Characters[hero].Traits
	if d := diff(want, h.Traits); d != "" || h.Reflection != 0 {
		t.Errorf("all bought back, reflection %d (-want +got):\n%s", h.Reflection, d)
	}
	if err := e.Rebuy(s, hero, justice, 1); err == nil {
		t.Error("bought back a trait already whole")
	}
	kinds := rec.Kinds()
	wantKinds := []EventKind{EvReflection, EvRebought, EvReflection, EvRebought, EvReflection, EvRebought}
	if d := diff(wantKinds, kinds); d != "" {
		t.Errorf("events (-want +got):\n%s", d)
	}
	if ev := rec.Events[1]; ev.Char != hero || ev.Name != "Justice" || ev.Die != dice.D6 || ev.Value != 1 || rec.Events[0].Value != -1 {
		t.Errorf("rebuy events %+v %+v", rec.Events[0], ev)
	}
	if ev := rec.Events[5]; ev.Name != "Gordon" || ev.Die != dice.D6 || ev.Value != 2 || rec.Events[4].Value != -2 {
		t.Errorf("rebuy events %+v %+v", rec.Events[4], ev)
	}
}

// rebuyWhat buys back steps of trait k.
type rebuyWhat struct {
	Sensible
	k, n int
}

func (p rebuyWhat) Rebuy(*View, *Character) (int, int) { return p.k, p.n }

// After an action Play asks each side's policy which lowered traits to buy
// back: Sensible its Values first while points last, Frugal nothing; an
// illegal purchase is an error naming the policy.
func TestPlayRebuys(t *testing.T) {
	e := mustEngine(t)
	play := func(p Policy) (*State, error) {
		s := lowered()
		s.Characters[hero].Reflection = 3
		must(t, e.Begin(s, Basic, []SideSetup{side(TroublePool, nil), side(hero, []Pick{{hero, justice}, {hero, detective}})}, 0))
		// Trouble 3+3 = 6, hero 4+9 = 13: Extraordinary, a die off.
		return s, playWith(e, s, dice.Scripted(3, 3, 4, 9), &Table{Chars: []Policy{p}, GM: Frugal{}})
	}
	s, err := play(Sensible{})
	must(t, err)
	h := s.Characters[hero]
	// Three points: Justice d4 -> d6 -> d8 (a Value first), Gordon gone -> d4.
	if h.Traits[justice].Die != dice.D8 || h.Traits[justice].Original != dice.Gone ||
		h.Traits[gordon].Die != dice.D4 || h.Traits[gordon].Original != dice.D6 || h.Reflection != 0 {
		t.Errorf("Sensible: Justice %+v Gordon %+v reflection %d", h.Traits[justice], h.Traits[gordon], h.Reflection)
	}
	s, err = play(Frugal{})
	must(t, err)
	want := lowered().Characters[hero]
	want.Reflection = 3
	if d := diff(want, s.Characters[hero]); d != "" {
		t.Errorf("Frugal bought something back (-want +got):\n%s", d)
	}
	for _, p := range []rebuyWhat{{k: detective, n: 1}, {k: justice, n: 3}, {k: justice, n: -1}} {
		if _, err := play(p); err == nil || !strings.Contains(err.Error(), "policy default buying back") {
			t.Errorf("rebuy %d of trait %d: %v", p.n, p.k, err)
		}
	}
}

// A lowered trait's original rating survives a JSON round trip, and a
// scene with a nonsensical one is refused.
func TestLoweredJSON(t *testing.T) {
	s := lowered()
	b, err := json.Marshal(s)
	must(t, err)
	if !strings.Contains(string(b), `"original":"d8"`) && !strings.Contains(string(b), `"original":8`) {
		t.Errorf("no original in %s", b)
	}
	var back State
	must(t, json.Unmarshal(b, &back))
	if d := diff(s, &back); d != "" {
		t.Errorf("round trip (-want +got):\n%s", d)
	}
	must(t, back.Check())
	for _, bad := range []func(*Trait){
		func(t *Trait) { t.Original = dice.D4 },  // not above the rating
		func(t *Trait) { t.Original = dice.D20 }, // off the ladder
		func(t *Trait) { t.Kind, t.Original = Complication, dice.D12 },
	} {
		s := testScene()
		bad(&s.Characters[hero].Traits[justice])
		if err := s.Check(); err == nil {
			t.Errorf("trait %+v accepted", s.Characters[hero].Traits[justice])
		}
	}
	// Rules carry the price.
	var r Rules
	b, err = json.Marshal(DefaultRules())
	must(t, err)
	must(t, json.Unmarshal(b, &r))
	if r.RebuyCost != 1 {
		t.Errorf("rebuy_cost after a round trip: %d", r.RebuyCost)
	}
	r.RebuyCost = -1
	if err := r.Validate(); err == nil || !strings.Contains(err.Error(), "rebuy_cost") {
		t.Errorf("negative rebuy cost: %v", err)
	}
}

// A GM character's Reflection Points turned into Trouble report both
// sides of the exchange.
func TestCashEvents(t *testing.T) {
	e := mustEngine(t)
	rec := &Recorder{}
	e.Sink = rec.Record
	s := testScene()
	s.Characters[villain].Reflection = 2
	must(t, e.CashReflection(s, villain, 2))
	want := []Event{
		{Kind: EvReflection, Side: -1, Char: villain, Value: -2, Who: "Villain"},
		{Kind: EvTrouble, Side: -1, Char: villain, Value: 2, Die: dice.D6, Who: "Villain"},
	}
	if d := diff(want, rec.Events); d != "" || len(s.Trouble) != 4 || s.Characters[villain].Reflection != 0 {
		t.Errorf("trouble %v reflection %d; events (-want +got):\n%s", s.Trouble, s.Characters[villain].Reflection, d)
	}
}

// stepLog takes one Engine.Step of s with e's policies logging into *log,
// and returns the questions the step asked.
func stepLog(t *testing.T, e *Engine, s *State, r *dice.Roller, log *[]string) []string {
	t.Helper()
	*log = (*log)[:0]
	must(t, e.Step(s, r))
	return slices.Clone(*log)
}

// After an action the spending of Reflection Points comes a question a
// step (Action.Reflecting): the hero, his Justice pushed down to d4 and
// Gordon gone, beats the Trouble Pool (3+3 against 4+9), takes a die off
// it, and only then buys his traits back, one step a step: Justice d4 to
// d6, d6 to d8, then Gordon back to d4 with his last point; then the game
// is done. A purchase refused at the second question leaves the first one
// made and changes nothing else.
func TestReflectionIsSpentAQuestionAStep(t *testing.T) {
	var log []string
	e := &Engine{Policies: logging(Table{Chars: []Policy{Sensible{}}, GM: Frugal{}}, 4, &log)}
	s := lowered()
	s.Characters[hero].Reflection = 3
	must(t, e.Begin(s, Basic, []SideSetup{side(TroublePool, nil), side(hero, []Pick{{hero, justice}, {hero, detective}})}, 0))
	r := dice.Scripted(3, 3, 4, 9)
	h := &s.Characters[hero]
	for i, want := range [][]string{nil, {"GiveIn", "Extras"}, {"TroubleOff"}} {
		if got := stepLog(t, e, s, r, &log); !slices.Equal(got, want) || s.Done() {
			t.Fatalf("step %d asked %q, want %q; done %v", i+1, got, want, s.Done())
		}
	}
	if a := s.Action; a.Phase != PhaseDone || a.Reflecting != 2 {
		t.Fatalf("the action ended in phase %v, reflecting %d: side 1 (the hero) buys back next, as 2", a.Phase, a.Reflecting)
	}
	b, err := json.Marshal(s.Action)
	must(t, err)
	if !strings.Contains(string(b), `"reflecting":2`) {
		t.Errorf("the saved action does not say whose question is next: %s", b)
	}
	steps := []struct {
		trait  int
		die    dice.Die
		points int
	}{{justice, dice.D6, 2}, {justice, dice.D8, 1}, {gordon, dice.D4, 0}}
	for i, st := range steps {
		if i == 1 {
			// An illegal purchase (Justice up three steps) is refused
			// and leaves the state as the first purchase left it.
			before := s.Clone()
			bad := &Engine{Policies: Table{Chars: []Policy{rebuyWhat{k: justice, n: 3}}, GM: Frugal{}}}
			if err := bad.Step(s, r); err == nil || !strings.Contains(err.Error(), "buying back") {
				t.Fatalf("rebuying Justice three steps: %v", err)
			}
			if d := diff(before, s); d != "" {
				t.Fatalf("the refused purchase changed the state (-before +after):\n%s", d)
			}
		}
		if got := stepLog(t, e, s, r, &log); !slices.Equal(got, []string{"Rebuy"}) {
			t.Fatalf("reflecting step %d asked %q", i+1, got)
		}
		if tr := h.Traits[st.trait]; tr.Die != st.die || h.Reflection != st.points || s.Done() != (i == len(steps)-1) {
			t.Fatalf("after reflecting step %d: %s %v, %d points, done %v", i+1, tr.Name, tr.Die, h.Reflection, s.Done())
		}
	}
	if err := e.Step(s, r); !errors.Is(err, ErrPhase) {
		t.Errorf("a step after the spending: %v", err)
	}
}

// The GM cashes a GM character's Reflection Points in a step of its own:
// the Villain opens at 5+4 = 9, the Hero raises to 7+6 = 13, the Villain
// fails with 5+5 = 10 and earns a point; the Hero's Complication Pool (d8
// d6 d10 showing 1, 1, 9) rates its d10 Complication; a stubborn GM then
// turns the point into a d6 for the Trouble Pool, and the game is done.
func TestGMCashesInAStepOfItsOwn(t *testing.T) {
	var log []string
	e := &Engine{Policies: logging(Table{Chars: []Policy{Frugal{}, Stubborn{}}, GM: Stubborn{}}, 4, &log)}
	s := testScene()
	must(t, e.Begin(s, Contested, []SideSetup{side(villain, villainPool()), side(hero, heroPool())}, 0))
	r := dice.Scripted(5, 4, 3, 6, 2, 7, 5, 5, 2, 1, 1, 9)
	for i, want := range [][]string{{"Extras"}, {"GiveIn", "Extras"}, {"GiveIn", "Extras"}, {"Onto"}} {
		if got := stepLog(t, e, s, r, &log); !slices.Equal(got, want) || s.Done() {
			t.Fatalf("step %d asked %q, want %q; done %v", i+1, got, want, s.Done())
		}
	}
	v := &s.Characters[villain]
	if a := s.Action; a.Winner != 1 || a.Reflecting != 3 || v.Reflection != 1 || v.Traits[len(v.Traits)-1].Die != dice.D10 {
		t.Fatalf("winner %d, reflecting %d (want 3: the GM cashes side 0's), villain %+v", a.Winner, a.Reflecting, v)
	}
	// Should the points be gone by the time the question comes (a state
	// edited by hand), the step asks nothing and the spending is over.
	spent := s.Clone()
	spent.Characters[villain].Reflection = 0
	if got := stepLog(t, e, spent, r, &log); len(got) != 0 || !spent.Done() || len(spent.Trouble) != 2 {
		t.Errorf("with the points gone the step asked %q; done %v, trouble %v", got, spent.Done(), spent.Trouble)
	}
	if got := stepLog(t, e, s, r, &log); !slices.Equal(got, []string{"Cash"}) || !s.Done() || v.Reflection != 0 || len(s.Trouble) != 3 {
		t.Errorf("the cashing step asked %q; done %v, reflection %d, trouble %v", got, s.Done(), v.Reflection, s.Trouble)
	}
}
