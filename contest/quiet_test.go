package contest

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/stakesrpg/stakes/dice"
)

// randomScenario is a basic or contested scenario drawn from rng: the
// default cast with random ratings, Plot Points, pools, extras, gangs,
// policies and rules, now and then with an aider, an interferer or a
// policy of the test's own (which the quiet pass leaves to decide).
func randomScenario(rng *rand.Rand) Scenario {
	sc := DefaultScenario()
	die := func() dice.Die { return dice.Ladder[rng.IntN(len(dice.Ladder))] }
	pols := append(Policies(), "")
	for i := range sc.Cast {
		m := &sc.Cast[i]
		m.PlotPoints = rng.IntN(4)
		m.Reflection = rng.IntN(2)
		for j := range m.Traits {
			m.Traits[j].Die = die()
		}
		m.Policy = pols[rng.IntN(len(pols))]
	}
	sc.GMPolicy = pols[rng.IntN(len(pols))]
	vil, det := &sc.Sides[0], &sc.Sides[1]
	vil.Extra = [][]string{nil, {"Fear Gas"}, {"Fear Gas", "Madness"}}[rng.IntN(3)]
	det.Extra = [][]string{nil, {"Gadgets"}, {"Gadgets", "Justice"}}[rng.IntN(3)]
	if rng.IntN(4) == 0 {
		det.Pool = append(det.Pool, "Gadgets") // a base pool that costs
	}
	vil.Gang = nil
	for range rng.IntN(4) {
		vil.Gang = append(vil.Gang, dice.Ladder[rng.IntN(3)])
	}
	if rng.IntN(4) == 0 {
		det.Gang = []dice.Die{dice.D6}
	}
	switch rng.IntN(4) {
	case 0:
		sc.Kind = KindBasic
	case 1:
		sc.Initiator = 1
	case 2:
		sc.Initiator = -1
	}
	if rng.IntN(3) == 0 {
		sc.Rules.Keep = 3
	}
	if rng.IntN(4) == 0 {
		sc.Rules.ExcludeOnes = false
	}
	if rng.IntN(3) == 0 {
		sc.Rules.ComplicationKeptOnly = true
	}
	switch rng.IntN(8) {
	case 0:
		sc.Cast = append(sc.Cast, Member{Character: Character{Name: "Robin", PlotPoints: 1, Traits: []Trait{{Name: "Loyal", Kind: Value, Die: die()}}}})
		det.Aider, det.AidPool = "Robin", []string{"Loyal"}
	case 1:
		if sc.Kind == KindContested {
			sc.Cast = append(sc.Cast, Member{Character: Character{Name: "Joker", GM: true, PlotPoints: 2, Traits: []Trait{{Name: "Mayhem", Kind: Value, Die: die()}}}})
			sc.Interferer, sc.InterferePool = "Joker", []string{"Mayhem"}
		}
	}
	return sc
}

// TestQuietAsDecide plays random scenarios trial after trial with the
// quiet pass and with every step through decide, from Rollers of the same
// seed: each trial must end the same way with the same metrics, leave the
// same scene, and draw the same numbers.
func TestQuietAsDecide(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	quietRuns := 0
	for k := range 300 {
		sc := randomScenario(rng)
		if sc.Validate() != nil {
			continue
		}
		quiet, err := sc.NewRunner()
		must(t, err)
		loud, err := sc.NewRunner()
		must(t, err)
		loud.e.loud = true
		if rng.IntN(5) == 0 {
			// A policy of the test's own, which the quiet pass declines.
			for _, rn := range []*Runner{quiet, loud} {
				rn.b.table.Chars[1] = overridesGiveIn{}
			}
		}
		seed := rng.Uint64()
		rq, rl := dice.NewSeeded(seed), dice.NewSeeded(seed)
		mq, ml := make([]int, 6), make([]int, 6)
		for i := range 60 {
			cq, cl := quiet.Trial(rq, mq), loud.Trial(rl, ml)
			if cq != cl || !slices.Equal(mq, ml) {
				t.Fatalf("scenario %d trial %d: quiet ends %d %v (%v), decide %d %v (%v)", k, i, cq, mq, quiet.Err(), cl, ml, loud.Err())
			}
			if d := cmp.Diff(&loud.s, &quiet.s); d != "" {
				t.Fatalf("scenario %d trial %d: scenes differ (-decide +quiet):\n%s", k, i, d)
			}
			if a, b := rq.IntN(1<<30), rl.IntN(1<<30); a != b {
				t.Fatalf("scenario %d trial %d: the Rollers part ways", k, i)
			}
		}
		// Did the quiet pass take steps in this scenario?
		if took, _ := quiet.e.quietTurns(&quiet.s, rq, &quiet.b.table); took || quiet.s.Action.Phase == PhaseDone {
			quiet.s.resetFrom(&quiet.b.scene)
			quiet.e.relay(quiet.s.Action, quiet.b.sides, quiet.s.Action.Kind, quiet.b.init)
			if took, _ := quiet.e.quietTurns(&quiet.s, rq, &quiet.b.table); took {
				quietRuns++
			}
		}
	}
	t.Logf("quiet pass took steps in %d scenarios", quietRuns)
	if quietRuns < 100 {
		t.Errorf("the quiet pass took steps in only %d scenarios", quietRuns)
	}
}

// TestQuietPolicies holds the quiet pass's decisions for the shipped
// policies to their Policy methods over many views, and checks that a
// policy of any other type is left to decide.
func TestQuietPolicies(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for _, name := range Policies() {
		p, _ := PolicyByName(name)
		k := codeOf(p)
		if k == polOther {
			t.Fatalf("shipped policy %s has no code", name)
		}
		for range 5000 {
			v := View{Stakes: rng.IntN(30), Best: rng.IntN(30), BestAll: rng.IntN(40), Affordable: rng.IntN(4), Ones: rng.IntN(4), PlotPoints: rng.IntN(3)}
			if a, b := k.giveIn(v.Stakes, v.Best, v.BestAll), p.GiveIn(v); a != b {
				t.Fatalf("%s GiveIn(%+v): quiet %v, method %v", name, v, a, b)
			}
			if a, b := k.extras(v.Stakes, v.Best, v.Affordable), p.Extras(v); a != b {
				t.Fatalf("%s Extras(%+v): quiet %v, method %v", name, v, a, b)
			}
			if a, b := k.buyOnes(v.Ones), p.BuyOnes(v); a != b {
				t.Fatalf("%s BuyOnes(%+v): quiet %v, method %v", name, v, a, b)
			}
		}
	}
	if codeOf(overridesGiveIn{}) != polOther {
		t.Error("a policy embedding Sensible but deciding for itself is taken for a shipped one")
	}
}

// TestOwnLabel: the policies decide skips asking where a Complication
// lands answer -1 (the inflicter's own label) for any character and view;
// PileOn and policies of other types are asked.
func TestOwnLabel(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	for _, name := range Policies() {
		p, _ := PolicyByName(name)
		if !ownLabel(p) {
			continue
		}
		for range 2000 {
			c := lowered().Characters[hero]
			c.Traits = append(c.Traits, Trait{Name: "X", Kind: Complication, Die: dice.D8}, Trait{Name: "Y", Kind: Trauma, Die: dice.D6})
			c.Traits[rng.IntN(len(c.Traits))].Die = dice.Ladder[rng.IntN(5)]
			v := View{Target: hero, Trauma: rng.IntN(2) == 0, Stakes: rng.IntN(30)}
			if got := p.Onto(v, &c); got != -1 {
				t.Fatalf("%s Onto(%+v) = %d: not its own label", name, v, got)
			}
		}
	}
	if ownLabel(PileOn{}) || ownLabel(overridesGiveIn{}) {
		t.Error("a policy that may pile on is not asked")
	}
}

// TestStepsLeft counts the steps down to Gone along the ladder.
func TestStepsLeft(t *testing.T) {
	for d := dice.Die(-2); d <= 20; d++ {
		want := 0
		for x := d; slices.Contains(dice.Ladder[:], x); want++ {
			x, _ = x.StepDown()
		}
		if got := stepsLeft(d); got != want {
			t.Errorf("stepsLeft(%v) = %d, want %d", d, got, want)
		}
	}
}

// TestPushedAsPush: the Final Push steps pushSteps works out pass every
// check Push makes, so decide lowers them straight away (pushed): over
// random scenarios its step leaves the scene Push of the same steps does.
func TestPushedAsPush(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 18))
	pushes := 0
	for k := range 400 {
		sc := randomScenario(rng)
		if sc.Kind != KindContested || sc.Validate() != nil {
			continue
		}
		bt, err := sc.build()
		must(t, err)
		e, err := NewEngine(sc.Rules)
		must(t, err)
		s := bt.scene.Clone()
		if err := e.Begin(s, Contested, bt.sides, bt.init); err != nil {
			continue
		}
		r := dice.NewSeeded(rng.Uint64())
		for step := 0; s.Action.Phase != PhaseDone && step < 100; step++ {
			if a := s.Action; a.Phase == PhasePush {
				p := bt.table.of(a.Sides[a.Turn].Char)
				steps, err := e.pushPlan(s, a.Turn, p)
				must(t, err)
				if !p.Push(View{Kind: a.Kind, Side: a.Turn, Char: a.Sides[a.Turn].Char, Stakes: a.Stakes, Holder: a.Holder, Rolled: true, Margin: a.Margin, Target: -1}) {
					steps = nil
				}
				if len(steps) > 0 {
					pushes++
				}
				// decide's step, against Push of the same steps.
				checked, decided := s.Clone(), s.Clone()
				must(t, e.Push(checked, dice.NewSeeded(1), steps))
				must(t, e.decide(decided, dice.NewSeeded(1), &bt.table))
				if d := cmp.Diff(checked, decided); d != "" {
					t.Fatalf("scenario %d: Push and decide differ (-Push +decide):\n%s", k, d)
				}
			}
			if err := e.decide(s, r, &bt.table); err != nil {
				break // a policy's illegal choice: nothing to compare
			}
		}
	}
	t.Logf("%d pushes", pushes)
	if pushes < 30 {
		t.Errorf("only %d Final Pushes seen", pushes)
	}
}

// TestRelayResetsEveryField: relay sets Action's fields one by one, so a
// field it forgot would carry one trial's value into the next. Every
// scalar field is spoiled, then relay must leave what setup does.
func TestRelayResetsEveryField(t *testing.T) {
	rn, err := DefaultScenario().NewRunner()
	must(t, err)
	m := make([]int, 6)
	rn.Trial(dice.NewSeeded(1), m)
	a := rn.s.Action
	v := reflect.ValueOf(a).Elem()
	for i := range v.NumField() {
		switch f := v.Field(i); f.Kind() {
		case reflect.Int:
			f.SetInt(7)
		case reflect.Bool:
			f.SetBool(true)
		case reflect.String:
			f.SetString("spoilt")
		}
	}
	want := rn.s.Clone()
	var e Engine
	want.Action.Phase = PhaseDone
	e.setup(want, Contested, rn.b.sides, rn.b.init)
	rn.e.relay(a, rn.b.sides, Contested, rn.b.init)
	if d := cmp.Diff(want.Action, a, cmpopts.EquateEmpty()); d != "" {
		t.Fatalf("relay leaves fields as they were (-setup +relay):\n%s", d)
	}
}

// TestPhaseText: a Phase reads and writes as the name it had when it was a
// string, so scenes in JSON are unchanged; an unknown name is an error.
func TestPhaseText(t *testing.T) {
	names := map[Phase]string{phaseNone: "", PhaseOpen: "open", PhaseTurn: "turn", PhasePush: "push", PhaseInflict: "inflict",
		PhaseInterfere: "interfere", PhaseBrawl: "brawl", PhaseDone: "done"}
	for p, name := range names {
		b, err := json.Marshal(Action{Phase: p})
		must(t, err)
		if want := `"phase":"` + name + `"`; !strings.Contains(string(b), want) {
			t.Errorf("%v: JSON %s, want %s in it", p, b, want)
		}
		var a Action
		must(t, json.Unmarshal(b, &a))
		if a.Phase != p || p.String() != name || fmt.Sprintf("%v %q", p, p) != name+" "+strconv.Quote(name) {
			t.Errorf("%q: read back as %v", name, a.Phase)
		}
	}
	var a Action
	if err := json.Unmarshal([]byte(`{"phase":"sideways"}`), &a); err == nil {
		t.Error("an unknown phase was read")
	}
	if _, err := json.Marshal(Action{Phase: PhaseDone + 1}); err == nil {
		t.Error("a phase out of range was written")
	}
}
