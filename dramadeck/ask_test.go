package dramadeck

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim"
)

// answerOf is a policy's answer, as a Chooser sees it, written as the
// Reply to a question of kind.
func answerOf(t *testing.T, kind Ask, v any) Reply {
	t.Helper()
	a := Reply{Ask: kind}
	switch x := v.(type) {
	case []int:
		a.Cards = slices.Clone(x)
	case []Play:
		a.Plays = slices.Clone(x)
	case Swap:
		a.Swap = x
	case Choice:
		a.Choice = x
	case int:
		a.Index = x
	case bool:
		a.Yes = x
	case Effect:
		a.Effect = x
	default:
		t.Fatalf("an answer of type %T", v)
	}
	if err := a.check(); err != nil {
		t.Fatalf("the policy's %T answer does not answer %v: %v", v, kind, err)
	}
	return a
}

// retorted changes some of the policies' answers, legally, so that the
// games below do not follow the policies alone: every third yes-or-no
// answer the other way, every fourth move to the pool declined, every
// fifth action a Defend where Setback allows it.
func retorted(log *[]any) sim.Chooser {
	n := 0
	return func(view, ans any) any {
		n++
		switch x := ans.(type) {
		case bool:
			if n%3 == 0 {
				ans = !x
			}
		case Choice:
			if v := view.(*View); n%5 == 0 && !v.Setback[v.side(v.Who)] {
				ans = Choice{Act: Defend}
			}
		case int:
			if _, ok := view.(*View); ok && n%4 == 0 && x >= 0 && isMove(view.(*View), x) {
				ans = -1
			}
		}
		// The answer may lend the engine's buffer: keep a copy.
		switch x := ans.(type) {
		case []int:
			*log = append(*log, slices.Clone(x))
		case []Play:
			*log = append(*log, slices.Clone(x))
		default:
			*log = append(*log, ans)
		}
		return ans
	}
}

// isMove reports whether id is a card of player v.Who's hand: the answer
// to Move (Haste's, Strip's and Discard's are a pool card or an index).
func isMove(v *View, id int) bool {
	return v.Who < len(v.Players) && slices.Contains(v.Players[v.Who].Hand, id) && v.Combat && v.Players[v.Who].MayMove
}

// played plays sc from seed to its end through the callback path, each
// answer passing through chooser, and returns its save and its events.
func played(t *testing.T, sc Scenario, seed uint64, chooser sim.Chooser) ([]byte, []byte) {
	t.Helper()
	g, r := startGame(t, sc, seed)
	var events []Event
	g.Listen(func(e sim.Event) { events = append(events, e.(Event)) })
	g.Intercept(chooser)
	for n := 0; !g.Done(); n++ {
		if err := g.Step(r); err != nil || n > 1e5 {
			t.Fatalf("seed %d step %d: %v", seed, n, err)
		}
	}
	save, err := g.Save()
	if err != nil {
		t.Fatal(err)
	}
	ev, _ := json.Marshal(events)
	return save, ev
}

// askedGame plays sc from seed to its end with the questions in asks of
// both sides asked as steps, answered by answer; at each question (every
// fourth with -short) the game is saved with its Roller, read back, saved
// again to the same bytes, and played on from what was read back. It
// returns the save, the events and the questions asked.
func askedGame(t *testing.T, sc Scenario, seed uint64, asks AskSet, answer func(q *Question, s *State) Reply) ([]byte, []byte, int) {
	t.Helper()
	g, r := startGame(t, sc, seed)
	var events []Event
	listen := func(g *Game) {
		g.Ask(Heroes, asks)
		g.Ask(Villains, asks)
		g.Listen(func(e sim.Event) { events = append(events, e.(Event)) })
	}
	listen(g)
	asked := 0
	for n := 0; !g.Done(); n++ {
		if n > 1e5 {
			t.Fatal("no end")
		}
		q := g.Question()
		if q == nil {
			if err := g.Step(r); err != nil {
				t.Fatalf("seed %d step %d: %v", seed, n, err)
			}
			continue
		}
		asked++
		if !testing.Short() || asked%4 == 0 {
			g, r = reread(t, sc, g, r)
			listen(g)
		}
		if err := g.Reply(r, answer(g.Question(), g.State())); err != nil {
			t.Fatalf("seed %d, question %d (%v of the %v): %v", seed, asked, q.Ask, q.Side, err)
		}
	}
	save, err := g.Save()
	if err != nil {
		t.Fatal(err)
	}
	ev, _ := json.Marshal(events)
	return save, ev, asked
}

// reread saves g and r, reads them back, checks the read game saves to
// the same bytes, and returns it with its Roller.
func reread(t *testing.T, sc Scenario, g *Game, r *dice.Roller) (*Game, *dice.Roller) {
	t.Helper()
	b, err := g.Save()
	if err != nil {
		t.Fatal(err)
	}
	rb, _ := r.MarshalBinary()
	h, err := sc.Restore(b)
	if err != nil {
		t.Fatalf("a game waiting on a question does not restore: %v", err)
	}
	if b2, _ := h.Save(); !bytes.Equal(b, b2) {
		t.Fatal("a game waiting on a question saves, restored, to other bytes")
	}
	r2 := dice.NewSeeded(0)
	if err := r2.UnmarshalBinary(rb); err != nil {
		t.Fatal(err)
	}
	return h.(*Game), r2
}

// studies are the scenarios the question tests play: every built-in, so
// that every question is asked somewhere (discards at a scene's end, task
// questions, the GM's strip in a fight).
func studies() map[string]Scenario { return Builtins() }

// Every question of both sides asked as a step, answered as the callback
// path's Chooser answered it (the policies, some answers turned): the game
// ends in the same bytes, its events the same bytes, whichever way the
// questions were answered, saved and read back at every question.
func TestQuestionsAsStepsPlayAsTheCallbacks(t *testing.T) {
	seeds := uint64(6)
	if testing.Short() {
		seeds = 1
	}
	kinds := map[Ask]int{}
	for name, sc := range studies() {
		for seed := uint64(1); seed <= seeds; seed++ {
			var log []any
			want, wantEv := played(t, sc, seed, retorted(&log))
			k := 0
			got, gotEv, asked := askedGame(t, sc, seed, AskAll, func(q *Question, _ *State) Reply {
				if k >= len(log) {
					t.Fatalf("%s seed %d: question %d asked, the callbacks answered %d", name, seed, k+1, len(log))
				}
				kinds[q.Ask]++
				a := answerOf(t, q.Ask, log[k])
				k++
				return a
			})
			if asked != len(log) {
				t.Errorf("%s seed %d: %d questions asked, %d answered by the callbacks", name, seed, asked, len(log))
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s seed %d: the game asked its questions as steps ends elsewhere", name, seed)
			}
			if !bytes.Equal(gotEv, wantEv) {
				t.Errorf("%s seed %d: the game asked its questions as steps tells other events", name, seed)
			}
		}
	}
	t.Logf("questions asked: %v", kinds)
	for a := range numAsks {
		if kinds[a] == 0 && !testing.Short() {
			t.Errorf("no %v question was asked", a)
		}
	}
}

// judge is a Style whose in-step answers follow rules a person could
// apply reading the question alone, so that the same rules answer the
// questions asked as steps (judgeAnswer).
type judge struct{ *Style }

func (j judge) Spend(v *View, r Result) bool { return r.Roll <= 13 }
func (j judge) Cancel(v *View, actor int, a Act) bool {
	return a != Attack || actor%2 == 0
}
func (j judge) Strip(v *View) int { return highest(v.State, v.Players[v.Who].Pool, true) }
func (j judge) Call(v *View, target int, a Act) Effect {
	return callResults[(target+int(a))%len(callResults)]
}
func (j judge) Discard(v *View, must bool) int {
	if !must {
		return -1
	}
	return highest(v.State, v.Players[v.Who].Hand, false)
}

// highest is the index in pile of its highest card id, subplots left out
// if abilities (-1 if none).
func highest(s *State, pile []int, abilities bool) int {
	best := -1
	for i, id := range pile {
		if abilities && s.Deck.Cards[id].Name.Kind() == Subplot {
			continue
		}
		if best < 0 || id > pile[best] {
			best = i
		}
	}
	return best
}

// judgeAnswer answers q by judge's rules, reading the question (and the
// deck's names) only.
func judgeAnswer(q *Question, s *State) Reply {
	a := Reply{Ask: q.Ask}
	switch q.Ask {
	case AskSpend:
		a.Yes = q.Result.Roll <= 13
	case AskCancel:
		a.Yes = q.Act != Attack || q.Actor%2 == 0
	case AskStrip:
		a.Index = highest(s, q.Cards, true)
	case AskCall:
		a.Effect = callResults[(q.Target+int(q.Act))%len(callResults)]
	case AskDiscard:
		a.Index = -1
		if q.Must {
			a.Index = highest(s, q.Cards, false)
		}
	}
	return a
}

// The questions the issue names (spending Possibilities, cancelling, the
// GM's strip, Player's Call, discards) asked as steps of both sides,
// answered from the question by the rules judge answers from its view
// with: the engine's game and events are those of the callback path,
// byte for byte, and a saved state waiting on a question resumes exactly.
func TestInStepQuestionsCarryWhatTheyAskAbout(t *testing.T) {
	in := Asking(AskSpend, AskCancel, AskStrip, AskCall, AskDiscard)
	def, _ := PolicyByName("default")
	pol := Table{Heroes: judge{def.(*Style)}, GM: judge{def.(*Style)}}
	kinds := map[Ask]int{}
	for name, sc := range studies() {
		for seed := uint64(1); seed <= 3; seed++ {
			want, wantEv := engineGame(t, sc, seed, Engine{Policies: pol}, nil)
			got, gotEv := engineGame(t, sc, seed, Engine{Policies: pol, Ask: [2]AskSet{in, in}}, func(q *Question, s *State) Reply {
				kinds[q.Ask]++
				return judgeAnswer(q, s)
			})
			if !bytes.Equal(got, want) || !bytes.Equal(gotEv, wantEv) {
				t.Errorf("%s seed %d: the questions answered as steps play otherwise than the callbacks", name, seed)
			}
		}
	}
	for a := range numAsks {
		if in.Has(a) != (kinds[a] > 0) {
			t.Errorf("%v asked %d times", a, kinds[a])
		}
	}
}

// engineGame plays sc from seed through Engine e's steps, answering each
// question asked with answer after saving the state and the Roller and
// reading both back; it returns the final state's save and the events.
func engineGame(t *testing.T, sc Scenario, seed uint64, e Engine, answer func(*Question, *State) Reply) ([]byte, []byte) {
	t.Helper()
	g, r := startGame(t, sc, seed)
	s := g.State()
	var events []Event
	e.Sink = func(ev Event) { events = append(events, ev) }
	for n := 0; !s.Done(); n++ {
		if n > 1e5 {
			t.Fatal("no end")
		}
		if s.Question == nil {
			if err := e.Step(s, r); err != nil {
				t.Fatal(err)
			}
			continue
		}
		b, err := s.Save()
		if err != nil {
			t.Fatal(err)
		}
		rb, _ := r.MarshalBinary()
		if s, err = restoreState(b); err != nil {
			t.Fatalf("a state waiting on a question does not restore: %v", err)
		}
		if b2, _ := s.Save(); !bytes.Equal(b, b2) {
			t.Fatal("a state waiting on a question saves, restored, to other bytes")
		}
		r = dice.NewSeeded(0)
		_ = r.UnmarshalBinary(rb)
		if err := e.Reply(s, r, answer(s.Question, s)); err != nil {
			t.Fatalf("%v: %v", s.Question.Ask, err)
		}
	}
	b, _ := s.Save()
	ev, _ := json.Marshal(events)
	return b, ev
}

// Step with a question pending has its policy answer it: a game whose
// every question is asked and then left to Step plays as the policies
// alone play it.
func TestStepAnswersAPendingQuestionByThePolicy(t *testing.T) {
	sc := Builtins()["scene"]
	want, wantEv := played(t, sc, 3, func(_, a any) any { return a })
	g, r := startGame(t, sc, 3)
	var events []Event
	g.Listen(func(e sim.Event) { events = append(events, e.(Event)) })
	g.Ask(Heroes, AskAll)
	g.Ask(Villains, AskAll)
	questions := 0
	for !g.Done() {
		if g.Question() != nil {
			questions++
		}
		if err := g.Step(r); err != nil {
			t.Fatal(err)
		}
	}
	got, _ := g.Save()
	gotEv, _ := json.Marshal(events)
	if questions == 0 || !bytes.Equal(got, want) || !bytes.Equal(gotEv, wantEv) {
		t.Errorf("%d questions left to the policies: the game ends otherwise than the policies' own", questions)
	}
}

// stopAt plays sc under e from seed until a question of kind is pending.
func stopAt(t *testing.T, sc Scenario, seed uint64, e Engine, kind Ask) (*State, *dice.Roller) {
	t.Helper()
	g, r := startGame(t, sc, seed)
	s := g.State()
	for n := 0; n < 1e5 && !s.Done(); n++ {
		if q := s.Question; q != nil && q.Ask == kind {
			return s, r
		}
		if err := e.Step(s, r); err != nil {
			t.Fatal(err)
		}
	}
	t.Fatalf("no %v question in seed %d", kind, seed)
	return nil, nil
}

// The question says what is asked, of whom, and its legal answers: the
// GM's strip lists the pool as it stands and never a subplot, a discard
// over the hand size offers no "none", a Player's Call every result but
// itself, a task's steps 1 to the steps shown; an answer outside them,
// or to another question, or setting another question's field, is
// refused and changes nothing.
func TestQuestionsListTheirLegalAnswers(t *testing.T) {
	pol := Table{Heroes: mustPolicy(t, "default"), GM: mustPolicy(t, "default")}
	all := Engine{Policies: pol, Ask: [2]AskSet{AskAll, AskAll}}
	s, r := stopAt(t, DefaultScenario(), 1, all, AskChoose)
	q := s.Question
	if len(q.Options) == 0 || q.Side != s.side(q.Who) {
		t.Fatalf("choose: %+v", q)
	}
	for _, o := range q.Options {
		if err := all.CheckChoice(s, q.Who, o.Choice); o.Choice.Act != Work && err != nil && s.Turn() >= 0 {
			t.Errorf("option %v: %v", o.Choice, err)
		}
	}
	before, _ := s.Save()
	rb, _ := r.MarshalBinary()
	for _, bad := range []Reply{
		{Ask: AskChoose, Choice: Choice{Act: Attack, Target: q.Who}},
		{Ask: AskSpend, Yes: true},
		{Ask: AskChoose, Choice: q.Options[0].Choice, Yes: true},
		{Ask: numAsks},
	} {
		if err := all.Reply(s, r, bad); err == nil {
			t.Errorf("answer %+v accepted", bad)
		}
		after, _ := s.Save()
		ra, _ := r.MarshalBinary()
		if !bytes.Equal(before, after) || !bytes.Equal(rb, ra) {
			t.Fatalf("a refused answer %+v changed the game", bad)
		}
	}
	if err := all.Act(s, r, q.Who, q.Options[0].Choice); err == nil || !strings.Contains(err.Error(), "pending") {
		t.Errorf("a step by name while a question waits: %v", err)
	}
	if err := all.StartCombat(s, false); err == nil {
		t.Error("StartCombat while a question waits: no error")
	}
	if err := all.EndAct(s); err == nil {
		t.Error("EndAct while a question waits: no error")
	}

	adv := Builtins()["adventure"]
	for seed := uint64(1); seed <= 40; seed++ {
		s, _ := stopAt(t, adv, seed, Engine{Policies: pol, Ask: [2]AskSet{0, Asking(AskStrip)}}, AskStrip)
		q := s.Question
		for _, o := range q.Options {
			if o.Index >= 0 && s.Deck.Cards[q.Cards[o.Index]].Name.Kind() == Subplot {
				t.Errorf("seed %d: strip offers the subplot %v", seed, s.Deck.Cards[q.Cards[o.Index]].Name)
			}
		}
		if q.Side != Villains || q.Options[0].Index != -1 || !slices.Equal(q.Cards, s.Players[q.Who].Pool) {
			t.Errorf("seed %d: strip %+v", seed, q)
		}
		if hasSubplot(s, q.Cards) {
			break
		}
	}
	s, _ = stopAt(t, adv, 2, Engine{Policies: pol, Ask: [2]AskSet{Asking(AskDiscard), 0}}, AskDiscard)
	if q := s.Question; q.Must == (q.Options[0].Index == -1) || len(q.Cards) < DefaultRules().HandSize {
		t.Errorf("discard %+v", q)
	}
	s, _ = stopAt(t, Builtins()["task"], 1, Engine{Policies: pol, Ask: [2]AskSet{Asking(AskSteps), 0}}, AskSteps)
	if q := s.Question; q.Task == nil || len(q.Options) != q.Task.Avail || q.Options[len(q.Options)-1].Index != q.Task.Avail {
		t.Errorf("steps %+v", q)
	}
}

func hasSubplot(s *State, pile []int) bool {
	for _, id := range pile {
		if s.Deck.Cards[id].Name.Kind() == Subplot {
			return true
		}
	}
	return false
}

// A question the rules could not have asked fails State.Check (which
// Restore runs), with the reason.
func TestRestoreRefusesImpossibleQuestions(t *testing.T) {
	pol := Table{Heroes: mustPolicy(t, "default"), GM: mustPolicy(t, "default")}
	s, _ := stopAt(t, Builtins()["task"], 1, Engine{Policies: pol, Ask: [2]AskSet{AskAll, AskAll}}, AskSteps)
	good, _ := s.Save()
	if _, err := restoreState(good); err != nil {
		t.Fatal(err)
	}
	for name, edit := range map[string]func(q *Question){
		"no question":        func(q *Question) { q.Ask = numAsks },
		"no side":            func(q *Question) { q.Side = 7 },
		"no character":       func(q *Question) { q.Who = 99 },
		"no task":            func(q *Question) { q.Task = nil },
		"a task to spend on": func(q *Question) { q.Ask = AskSpend },
		"a foreign option":   func(q *Question) { q.Options[0].Ask = AskCall },
		"an answer of two":   func(q *Question) { q.Given = []Reply{{Ask: AskSpend, Index: 3}} },
		"a roll of 40":       func(q *Question) { q.Result.Roll = 40 },
	} {
		st, _ := restoreState(good)
		edit(st.Question)
		if err := st.Check(); err == nil {
			t.Errorf("%s: passes Check", name)
		} else if !strings.Contains(err.Error(), "question") {
			t.Errorf("%s: %v", name, err)
		}
	}
	done, _ := restoreState(good)
	done.Plan.Stage = StageDone
	b, _ := json.Marshal(done)
	if _, err := restoreState(b); err == nil || !strings.Contains(err.Error(), "over") {
		t.Errorf("a question on a finished game: %v", err)
	}
	// Answers given that do not fit the step (another Roller than the one
	// saved with the question, or a state changed by hand) refuse a
	// reply, which changes nothing; Step lets the question lapse and
	// takes the step afresh under the policies.
	bad, _ := restoreState(good)
	bad.Question.Given = append(bad.Question.Given, Reply{Ask: AskCall, Effect: Up})
	b, _ = json.Marshal(bad)
	st, err := restoreState(b)
	if err != nil {
		t.Fatal(err)
	}
	eng := Engine{Policies: pol}
	r := dice.NewSeeded(1)
	if err := eng.Reply(st, r, st.Question.Options[0]); err == nil || !strings.Contains(err.Error(), "do not fit") {
		t.Errorf("a reply to a step given answers it cannot take: %v", err)
	}
	if after, _ := st.Save(); !bytes.Equal(after, b) {
		t.Error("a refused reply changed the state")
	}
	if err := eng.Step(st, r); err != nil {
		t.Fatalf("Step on a question that lapsed: %v", err)
	}
	fresh, _ := restoreState(good)
	fresh.Question = nil
	if err := eng.Step(fresh, dice.NewSeeded(1)); err != nil {
		t.Fatal(err)
	}
	if got, want := mustSave(t, st), mustSave(t, fresh); st.Question != nil || !bytes.Equal(got, want) {
		t.Error("Step on a question that lapsed did not take the step afresh")
	}
}

func mustSave(t *testing.T, s *State) []byte {
	t.Helper()
	b, err := s.Save()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A Reply names its question and reads the one field it names.
func TestAnswerReadsOneField(t *testing.T) {
	for a := range numAsks {
		if a.field() == "" || Asking(a) == 0 || !AskAll.Has(a) {
			t.Errorf("%v", a)
		}
	}
	if err := (&Reply{Ask: AskSpend, Yes: true}).check(); err != nil {
		t.Error(err)
	}
	if err := (&Reply{Ask: AskSpend, Index: 1}).check(); err == nil || !strings.Contains(err.Error(), "yes") {
		t.Errorf("spend answered by index: %v", err)
	}
	var got Reply
	b, _ := json.Marshal(Reply{Ask: AskTrade, Swap: Swap{With: -1}})
	if err := json.Unmarshal(b, &got); err != nil || got.Swap.With != -1 || string(b) != `{"ask":"trade","swap":{"with":-1,"give":0,"take":0}}` {
		t.Errorf("%s -> %+v %v", b, got, err)
	}
	if AskLastDitch.String() != "last_ditch" {
		t.Errorf("%v", AskLastDitch)
	}
	var k Ask
	if err := k.UnmarshalText([]byte("last_ditch")); err != nil || k != AskLastDitch {
		t.Errorf("last_ditch: %v %v", k, err)
	}
}

// What a question's step keeps, to go back to when it is taken again and
// refused or stopped (copyFrom), shares nothing a step changes with the
// state it was taken of: playing the state to its end (an adventure's,
// its piles, hands, characters, tasks and Plan all changing) leaves the
// copy as it was; and copying it back gives the state it was taken of.
func TestKeptGameSharesNothingAStepChanges(t *testing.T) {
	pol := Table{Heroes: mustPolicy(t, "default"), GM: mustPolicy(t, "default")}
	for _, name := range []string{"scene", "adventure"} {
		e := Engine{Policies: pol, Ask: [2]AskSet{Asking(AskSpend), 0}}
		s, r := stopAt(t, Builtins()[name], 2, e, AskSpend)
		var c State
		c.copyFrom(s)
		want := mustSave(t, s)
		if got := mustSave(t, &c); !bytes.Equal(got, want) {
			t.Fatalf("%s: the copy differs from the state", name)
		}
		s.Question, e.Ask = nil, [2]AskSet{}
		for n := 0; !s.Done() && n < 1e5; n++ {
			if err := e.Step(s, r); err != nil {
				t.Fatal(err)
			}
		}
		if got := mustSave(t, &c); !bytes.Equal(got, want) {
			t.Errorf("%s: playing the state on changed its copy", name)
		}
		s.copyFrom(&c)
		if got := mustSave(t, s); !bytes.Equal(got, want) {
			t.Errorf("%s: copied back, the state is not the one kept", name)
		}
	}
}

// copyFrom copies State field by field, leaving out what a State lends:
// each field set alone must arrive in the copy, so a field added to
// State and not to copyFrom fails here, even one no save would show.
func TestCopyFromCopiesEveryField(t *testing.T) {
	st := reflect.TypeFor[State]()
	for i := range st.NumField() {
		f := st.Field(i)
		if !f.IsExported() {
			continue
		}
		var src, dst State
		v := reflect.ValueOf(&src).Elem().Field(i)
		setNonZero(v, 4)
		if v.IsZero() {
			t.Fatalf("%s: the test cannot set it", f.Name)
		}
		dst.copyFrom(&src)
		if got := reflect.ValueOf(&dst).Elem().Field(i); !reflect.DeepEqual(got.Interface(), v.Interface()) {
			t.Errorf("copyFrom does not copy State.%s", f.Name)
		}
	}
}

// setNonZero gives v a value other than its zero, depth levels deep at most.
func setNonZero(v reflect.Value, depth int) {
	if depth == 0 {
		return
	}
	switch v.Kind() {
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(2)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(2)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(2)
	case reflect.String:
		v.SetString("x")
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		setNonZero(v.Index(0), depth-1)
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		setNonZero(v.Elem(), depth-1)
	case reflect.Array:
		setNonZero(v.Index(0), depth-1)
	case reflect.Struct:
		for i := range v.NumField() {
			if f := v.Field(i); f.CanSet() {
				setNonZero(f, depth-1)
				if !f.IsZero() {
					return
				}
			}
		}
	}
}
