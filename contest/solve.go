package contest

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/stakesrpg/stakes/named"
	"github.com/stakesrpg/stakes/sim/markov"
)

// Optimal play. The exact chain of a two-sided action (chain.go) asks each
// side's policy when to Give In, how many extra dice to buy and whether to
// make a Final Push. A decision process leaves one side's choices open
// instead: in every state where that side is to act it may Give In (once
// the stakes are set) or roll with any number of the extra picks it can
// afford, and the transitions of each choice are the chain's own. Solving
// it gives the play that makes a goal most (or least) likely.
//
// A Final Push ends the action either way, so the best push is read off
// the goal: push when the outcome pushed is the better one. The choices
// that come in the middle of a step are states of their own: the GM,
// deciding, buys any number of a player's 1s the engine allows
// (Engine.OnesToBuy); the interferer, deciding, steps in or stays out
// after each escalating roll; a side, deciding, pays to go on after an
// interference or stops the contest.

// Optimal is the best (or worst) play of one side of a scenario for a
// goal, and its exact answer.
type Optimal struct {
	// Optimum: the goal, the deciding side's character name, the value,
	// the exact answer under this play (its rounds are the rolls, as
	// Exact counts them) and the size of the solved process.
	markov.Optimum

	scenario Scenario
	plan     *markov.Plan[xstate]
	model    *chainModel
	tplan    *markov.Plan[tstate] // a timed action's, with tmodel
	tmodel   *timedChain
	aim      markov.Aim
	reward   func(xstate) float64
	base     Policy
	decider  int
	wins     []int // the goal's categories
}

// Optimal solves the decision process of the scenario's two-sided action
// for goal and aim (markov.Maximize for the best play, Minimize for the
// worst). goal.Side names the deciding side's character ("" is the first
// side's); goal.Outcomes are category names ("" : the side's wins).
func (s Scenario) Optimal(ctx context.Context, goal markov.Goal, aim markov.Aim) (*Optimal, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if s.Kind == KindTimed {
		return s.optimalTimed(ctx, goal, aim)
	}
	m, start, err := s.chainModel(ctx)
	if err != nil {
		return nil, err
	}
	o := &Optimal{scenario: s, model: m, aim: aim}
	if o.decider, o.Side, err = s.deciding(m, goal.Side); err != nil {
		return nil, err
	}
	m.decider = o.decider
	outcomes := goal.Outcomes
	if o.decider == interferer && len(outcomes) == 0 {
		outcomes = []string{"stopped"} // the interferer's aim
	}
	wins, err := s.goalCategories(outcomes, o.Side)
	if err != nil {
		return nil, err
	}
	o.wins = wins
	o.Goal = markov.Goal{Outcomes: s.categoryNames(wins), Side: o.Side}
	o.reward = func(st xstate) float64 {
		if st.done && slices.Contains(wins, int(st.cat)) {
			return 1
		}
		return 0
	}
	m.push = func(pushed, not int8) bool {
		a, b := o.reward(xstate{done: true, cat: pushed}), o.reward(xstate{done: true, cat: not})
		return aim.Prefers(a, b)
	}
	o.base = m.b.table.of(m.deciderChar())
	return o, o.solve(ctx, start, len(s.Categories()))
}

// deciding returns the deciding side and its character's name: the side
// of the character named side, or the first side that has a character.
// The interferer of a contest may decide too (side interferer).
func (s Scenario) deciding(m *chainModel, side string) (int, string, error) {
	var names []string
	for i, sd := range m.b.sides {
		if sd.Char == TroublePool {
			continue
		}
		name := m.sc.Characters[sd.Char].Name
		if side == "" || side == name {
			return i, name, nil
		}
		names = append(names, name)
	}
	if m.inter != nil {
		name := m.sc.Characters[m.b.iChar].Name
		if side == name {
			return interferer, name, nil
		}
		names = append(names, name)
	}
	return 0, "", fmt.Errorf("contest: deciding side %q: allowed %s", side, named.Allowed(names))
}

// goalCategories returns the categories named, or the deciding side's
// wins (every way) when none are.
func (s Scenario) goalCategories(outcomes []string, side string) ([]int, error) {
	cats := s.Categories()
	if len(outcomes) == 0 {
		prefix := label(side) + "_wins"
		if s.Kind == KindBasic {
			prefix = "success" // the actor's; "extraordinary" is added below
		}
		for k, c := range cats {
			if strings.HasPrefix(c, prefix) || s.Kind == KindBasic && c == "extraordinary" {
				outcomes = append(outcomes, cats[k])
			}
		}
	}
	var out []int
	for _, o := range outcomes {
		k := slices.Index(cats, o)
		if k < 0 {
			return nil, fmt.Errorf("contest: goal outcome %q: allowed %s", o, named.Allowed(cats))
		}
		out = append(out, k)
	}
	return out, nil
}

// solve explores the decision process from start, solves it for the aim
// and reads the plan's chain as an exact answer.
func (o *Optimal) solve(ctx context.Context, start xstate, categories int) error {
	m := o.model
	p, err := markov.ExploreProcess(ctx, start, m.choices)
	if m.err != nil {
		return m.err
	}
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return noExact("%v", err)
	}
	o.States, o.Choices = p.Len(), p.Choices()
	if o.plan, err = p.Solve(ctx, o.reward, o.aim); err != nil {
		return err
	}
	o.Answer, err = o.plan.Answer(ctx, categories, func(st xstate) int { return int(st.cat) }, o.rolls)
	if err != nil {
		return err
	}
	if _, name, _ := o.plan.Choice(start); name == aidChoice {
		// The decider's aider rolls before its opening roll: the
		// answer counts that step as the first round, and it is no
		// roll of the action's.
		o.Answer.Rounds = o.Answer.Rounds[1:]
		o.Answer.MeanRounds--
	}
	for k, q := range o.Answer.P {
		o.Value += q * o.reward(xstate{done: true, cat: int8(k)})
	}
	return nil
}

// rolls reports whether the step the plan takes from st is a roll of the
// action, as Exact counts rounds: not a Give In, nor the decider's aid
// rolled before its extras are bought, nor a choice made in the middle of
// a step.
func (o *Optimal) rolls(st xstate) bool {
	if st.ask != askNone {
		return false
	}
	_, name, ok := o.plan.Choice(st)
	return ok && name != giveInChoice && name != aidChoice
}

// The names of the process's choices.
const (
	giveInChoice    = "give in"
	aidChoice       = "the aider rolls"
	interfereChoice = "interfere"
	stayOutChoice   = "stay out"
	goOnChoice      = "pay to go on"
	stopChoice      = "let the contest stop"
)

func buyChoice(k int) string {
	if k == 1 {
		return "buy 1 of the 1s"
	}
	return fmt.Sprintf("buy %d of the 1s", k)
}

func rollChoice(n int) string {
	if n == 1 {
		return "roll with 1 extra die"
	}
	return fmt.Sprintf("roll with %d extra dice", n)
}

// choices are the options of state st: the decider's when it is to act,
// else the chain's one step.
func (m *chainModel) choices(st xstate) []markov.Choice[xstate] {
	if st.done || m.err != nil {
		return nil
	}
	if err := m.ctx.Err(); err != nil {
		m.fail(err)
		return nil
	}
	if st.ask != askNone {
		return m.asked(st)
	}
	t := int(st.turn)
	if st.brawl > 0 || t != m.decider {
		return []markov.Choice[xstate]{{Steps: m.next(st, nil)}}
	}
	if m.aids[t] != nil && st.open && st.aided&(1<<t) == 0 {
		return []markov.Choice[xstate]{{Name: aidChoice, Steps: m.next(st, nil)}}
	}
	var cs []markov.Choice[xstate]
	if !st.open {
		cs = append(cs, markov.Choice[xstate]{Name: giveInChoice, Steps: []markov.Step[xstate]{{To: m.gaveIn(st), P: 1}}})
	}
	m.mirror(st)
	var v View
	m.e.turnView(m.sc, t, &v)
	for n := 0; n <= v.Affordable; n++ {
		m.extras = n
		cs = append(cs, markov.Choice[xstate]{Name: rollChoice(n), Steps: m.next(st, nil)})
	}
	return cs
}

// asked are the options of a choice made in the middle of a step.
func (m *chainModel) asked(st xstate) []markov.Choice[xstate] {
	y := st
	y.ask, y.ones = askNone, 0
	switch st.ask {
	case askOnes:
		// Side 1-turn rolled the 1s; the GM buys as many as the engine
		// allows, then play goes on as it would have.
		a := m.mirror(y)
		a.Ones, a.OnesSide, a.OnesChar = int(st.ones), 1-int(st.turn), NoOne
		most, err := m.e.OnesToBuy(m.sc)
		a.Ones = 0
		if err != nil {
			m.fail(err)
			return nil
		}
		cs := make([]markov.Choice[xstate], 0, most+1)
		for k := range most + 1 {
			z := y
			z.pp[1-st.turn] = m.bought(z.pp[1-st.turn], k)
			steps := []markov.Step[xstate]{{To: z, P: 1}}
			if !z.open {
				steps = m.fold(z, 1, nil)
			}
			cs = append(cs, markov.Choice[xstate]{Name: buyChoice(k), Steps: steps})
		}
		return cs
	case askInterfere:
		return []markov.Choice[xstate]{
			{Name: interfereChoice, Steps: m.interfere(y, 1, nil)},
			{Name: stayOutChoice, Steps: m.aidGiveIn(y, 1, nil)},
		}
	case askGoOn:
		return []markov.Choice[xstate]{
			{Name: goOnChoice, Steps: []markov.Step[xstate]{{To: m.brawls(y), P: 1}}},
			{Name: stopChoice, Steps: []markov.Step[xstate]{{To: m.stopped(), P: 1}}},
		}
	}
	m.fail(fmt.Errorf("contest: chain state asks %d", st.ask))
	return nil
}

// deciderChar is the deciding side's character (the interferer's).
func (m *chainModel) deciderChar() int {
	if m.decider == interferer {
		return m.b.iChar
	}
	return m.b.sides[m.decider].Char
}

// Solve reports how much decisions matter in the scenario for goal: the
// exact odds of the goal under the deciding side's best and worst play,
// under each shipped policy in its place, and the best play's most
// consequential decisions in words.
func (s Scenario) Solve(ctx context.Context, goal markov.Goal) (markov.Solved, error) {
	best, err := s.Optimal(ctx, goal, markov.Maximize)
	if err != nil {
		return markov.Solved{}, err
	}
	worst, err := s.Optimal(ctx, goal, markov.Minimize)
	if err != nil {
		return markov.Solved{}, err
	}
	in := make([]bool, len(s.Categories()))
	for _, k := range best.wins {
		in[k] = true
	}
	out := markov.ExactSolved(best.Goal, best.Side, best.States, best.Choices,
		markov.PolicyValue{Value: best.Value, Answer: best.Answer}, markov.PolicyValue{Value: worst.Value, Answer: worst.Answer})
	for _, name := range PolicyNames() {
		alt := s
		alt.Cast = slices.Clone(s.Cast)
		alt.Cast[s.member(best.Side)].Policy = name
		if s.Kind == KindTimed {
			for _, h := range s.Timed.Helpers {
				alt.Cast[s.member(h.Character)].Policy = name // they decide with the actor
			}
		}
		a, err := alt.Exact(ctx)
		if err != nil {
			return markov.Solved{}, fmt.Errorf("contest: policy %s in %s's place: %w", name, best.Side, err)
		}
		out.Policies = append(out.Policies, markov.ValueOf(name, a, in))
	}
	own := cmp.Or(s.Cast[s.member(best.Side)].Policy, "default")
	if err := out.SetOwnPolicy(own); err != nil {
		return markov.Solved{}, fmt.Errorf("contest: %w", err)
	}
	if s.Kind == KindTimed {
		out.Advice, err = best.timedAdvice(ctx)
	} else {
		out.Advice, err = best.advice(ctx)
	}
	return out, err
}

// situation is a group of the plan's decision states that read alike: the
// same choice against the same alternative, with the same holder, Plot
// Points, gang and aid, over a range of stakes.
type situation struct {
	open, holding, aided bool
	outside              bool // the decider is the interferer
	holder               int
	pp, gang             int
	ask                  int8
	do, alt              string
}

// advice writes the plan's decisions in words (markov.Lines), gathered by
// situation.
func (o *Optimal) advice(ctx context.Context) ([]markov.Advice, error) {
	ds, err := o.plan.Decisions(ctx)
	if err != nil {
		return nil, err
	}
	key := func(d markov.Decision[xstate], do, alt markov.Option) situation {
		st := d.State
		k := situation{open: st.open, holding: int(st.holder) == o.decider, aided: st.aid > 0, ask: st.ask,
			do: do.Name, alt: alt.Name, outside: o.decider == interferer, holder: int(st.holder)}
		if o.decider < 2 {
			k.pp, k.gang = int(st.pp[o.decider]), int(st.gang[1-o.decider])
		} else {
			k.pp = int(o.model.sc.Characters[o.model.b.iChar].PlotPoints)
		}
		return k
	}
	say := func(k situation, group []markov.Decision[xstate]) markov.Said {
		lo, hi := int(group[0].State.stakes), int(group[0].State.stakes)
		for _, d := range group {
			lo, hi = min(lo, int(d.State.stakes)), max(hi, int(d.State.stakes))
		}
		return markov.Said{When: k.describe(lo, hi), Do: k.do, Else: k.alt}
	}
	return markov.Lines(ds, o.aim, key, say), nil
}

// describe says what the deciding side sees in situation k.
func (k situation) describe(lo, hi int) string {
	var b strings.Builder
	switch k.ask {
	case askOnes:
		b.WriteString("the other side rolled 1s; ")
	case askInterfere:
		b.WriteString("the contest escalated; ")
	case askGoOn:
		b.WriteString("an interference beat the stakes; ")
	}
	switch {
	case k.open:
		b.WriteString("opening the action")
	case k.outside:
		fmt.Fprintf(&b, "side %d holds the stakes", k.holder)
	case k.holding:
		b.WriteString("you hold the stakes")
	default:
		b.WriteString("the other side holds the stakes")
	}
	if !k.open {
		if lo == hi {
			fmt.Fprintf(&b, " at %d", lo)
		} else {
			fmt.Fprintf(&b, " at %d to %d", lo, hi)
		}
	}
	if k.pp == 1 {
		b.WriteString(", 1 Plot Point")
	} else {
		fmt.Fprintf(&b, ", %d Plot Points", k.pp)
	}
	if k.gang > 0 {
		fmt.Fprintf(&b, ", %d gang dice against you", k.gang)
	}
	if k.aided {
		b.WriteString(", an aid waiting")
	}
	return b.String()
}

// Policy returns a Policy that plays the solved side as the plan says
// (Giving In, extra dice, the Final Push) and leaves every other choice to
// the side's own policy in the scenario. Other sides keep their policies.
func (o *Optimal) Policy() Policy { return &planned{o: o, Policy: o.base} }

// NewRunner returns a Runner of the scenario in which the deciding side
// plays the plan (Policy) and every other side its own policy: the
// sampled odds of the plan, to set beside its exact Value.
func (o *Optimal) NewRunner() (*Runner, error) {
	rn, err := o.scenario.NewRunner()
	if err != nil {
		return nil, err
	}
	if o.tmodel != nil {
		// The actor's helpers decide with it, each keeping its own
		// policy for the rest.
		tb := &rn.b.table
		for _, h := range o.tmodel.b.helper {
			tb.Chars[h.Char] = &planned{o: o, Policy: tb.of(h.Char)}
		}
		tb.Chars[o.tmodel.b.actor] = o.Policy()
		return rn, nil
	}
	rn.b.table.Chars[o.model.deciderChar()] = o.Policy()
	return rn, nil
}

// planned plays a solved plan. It reads the state the engine shows it
// (View.State) as the plan's state; where the plan does not know the state
// it follows the side's own policy.
type planned struct {
	o *Optimal
	Policy
}

func (p *planned) Name() string { return "optimal" }

// choice is the plan's choice where the deciding side sees v.
func (p *planned) choice(v *View) (string, bool) {
	if p.o.plan == nil || v.State == nil || v.State.Action == nil || v.Side != p.o.decider {
		return "", false
	}
	_, name, ok := p.o.plan.Choice(p.o.model.stateOf(v.State))
	return name, ok
}

func (p *planned) GiveIn(v *View) bool {
	if name, ok := p.choice(v); ok {
		return name == giveInChoice
	}
	return p.Policy.GiveIn(v)
}

func (p *planned) Extras(v *View) int {
	if name, ok := p.choice(v); ok {
		for n := 0; n <= v.Affordable; n++ {
			if name == rollChoice(n) {
				return n
			}
		}
	}
	return p.Policy.Extras(v)
}

// BuyOnes follows the plan where the deciding GM buys the 1s of a roll
// the chain follows (an action roll whose action goes on).
func (p *planned) BuyOnes(v *View) int {
	if a := actionOf(v); a != nil && p.o.model != nil && p.o.model.gmDecides() && !a.OnesChar.Set && (a.Phase == PhaseOpen || a.Phase == PhaseTurn) {
		st := p.o.model.stateOf(v.State)
		st.ask, st.ones = askOnes, int8(min(a.Ones, maxDice))
		if _, name, ok := p.o.plan.Choice(st); ok {
			for k := 0; k <= a.Ones; k++ {
				if name == buyChoice(k) {
					return k
				}
			}
		}
	}
	return p.Policy.BuyOnes(v)
}

// Interfere follows the plan where the interferer decides.
func (p *planned) Interfere(v *View) bool {
	if a := actionOf(v); a != nil && p.o.model != nil && p.o.decider == interferer {
		st := p.o.model.stateOf(v.State)
		st.ask = askInterfere
		if _, name, ok := p.o.plan.Choice(st); ok {
			return name == interfereChoice
		}
	}
	return p.Policy.Interfere(v)
}

// Continue follows the plan where the deciding side answers an
// interference that beat the stakes.
func (p *planned) Continue(v *View) bool {
	if a := actionOf(v); a != nil && p.o.model != nil && v.Side == p.o.decider && a.Phase == PhaseInterfere {
		st := p.o.model.stateOf(v.State)
		st.ask = askGoOn
		if _, name, ok := p.o.plan.Choice(st); ok {
			return name == goOnChoice
		}
	}
	return p.Policy.Continue(v)
}

// actionOf is the action under way that view v shows, or nil.
func actionOf(v *View) *Action {
	if v.State == nil || v.State.Action == nil || v.State.Action.Phase == PhaseDone {
		return nil
	}
	return v.State.Action
}

// Push reads the goal: the loser's push decides between winning and
// winning extraordinarily (a basic action's opposition) or between losing
// and taking Trauma.
func (p *planned) Push(v *View) bool {
	if p.o.model == nil || v.Side != p.o.decider {
		return p.Policy.Push(v)
	}
	w := 1 - v.Side // the winner of a two-sided contest
	pushed := int8(3 * w)
	if p.o.model.basic {
		pushed = 2 // the actor (side 1) failed
		if v.Side == 0 {
			pushed = 0 // the opposition was beaten
		}
	}
	return p.o.model.push(pushed, pushed+1)
}

// stateOf is the chain's state of action s: the inverse of mirror.
func (m *chainModel) stateOf(s *State) xstate {
	a := s.Action
	st := xstate{open: a.Phase == PhaseOpen, turn: int8(a.Turn), holder: int8(a.Holder), stakes: int16(a.Stakes), inter: a.Interfered > 0}
	if st.open {
		st.stakes = 0
		if a.AllRoll && a.Turn == 1 {
			st.v0 = int16(a.Sides[0].Total)
		}
	}
	for i := range 2 {
		sd := &a.Sides[i]
		st.gang[i] = int8(len(sd.Gang))
		if sd.Rolled {
			st.rolled |= 1 << i
			if sd.Char != TroublePool {
				st.n[i] = int8(len(sd.Picks) - len(sd.Base))
			}
		}
		if sd.Char >= 0 {
			st.pp[i] = int16(s.Characters[sd.Char].PlotPoints)
		}
		if m.aids[i] != nil && len(sd.Aiders) > 0 {
			st.aided |= 1 << i
		}
	}
	st.aid = int16(a.Sides[a.Turn].Aid)
	return st
}

// categoryNames names the outcome categories numbered cats.
func (s Scenario) categoryNames(cats []int) []string {
	all := s.Categories()
	names := make([]string, len(cats))
	for i, c := range cats {
		names[i] = all[c]
	}
	return names
}
