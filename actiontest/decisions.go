package actiontest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim/markov"
)

// A pursuit as a decision process (Scenario.Optimal): between two of the
// Runner's steps the character stands in some situation, and the next step
// either asks the player a question or is a plain roll of the dice. The
// questions are the text's: take the Risk Peril deal offered before a roll;
// push a roll (the action's or a flashback's) or keep it, and, pushing,
// which track the harm goes on ("You can choose the type of Harm"); call
// the day's flashback after a worsening failure or keep it; and how to
// spend a finished roll's extra successes (each effect one success, the
// rest filling the clock). The process is built by playing the Runner's own
// steps from every situation, with every legal answer (found with the
// checks the legal-choice queries make) and every count of successes the
// dice can show, so it follows the same rules as a trial.

// situation is where a pursuit stands between two steps, as the decision
// process sees it: the pursuit's progress, position, hurt and pending
// retry or flashback (or how it ended), the character's harm, carried dice
// and flashbacks used, and what is under way.
type situation struct {
	progress, pos, bonus, flash int8
	hurt, retry, pushed, due    bool
	// end is the category + 1 once the pursuit has ended (every other
	// field is then zero).
	end int8
	// fly is what is under way: 0 nothing (a test, or the due flashback,
	// comes next), 1 the action's roll in flight, 2 a flashback's roll in
	// flight, 3 the action's roll finished with extra successes to spend.
	fly int8
	// track says the player has chosen to push the roll in flight and
	// now chooses the track its harm goes on.
	track bool
	// The roll in flight: its Risk Peril deal, whether it must be pushed,
	// whether the action was pushed before a retry, its dice, its
	// successes and (opposed) the opponent's. A finished roll (fly 3)
	// keeps in hits its extra successes, in pushed whether the action was
	// pushed, and in outcome what it brought.
	peril, must, actionPushed bool
	dice, hits, opp           int8
	outcome                   int8
	harm                      [maxHarmCells]int8
}

// What a finished roll brought, as situation.outcome holds it.
const (
	outSucceeded = 1 << iota
	outRetry
	outLost
)

// maxModelDice bounds the dice of one roll the process models (a
// situation counts them in an int8).
const maxModelDice = 120

// situationOf reads the situation of a pursuit g played on st.
func situationOf(st *State, g *Pursuit) situation {
	if g.Ended {
		return situation{end: int8(g.Category) + 1}
	}
	rl := &st.Rules
	k := situation{progress: int8(g.Progress), pos: int8(rl.positionAt(g.Position)), bonus: int8(st.Bonus),
		flash: int8(st.FlashbacksUsed), hurt: g.Hurt, retry: g.Retry, due: g.FlashbackDue}
	nr := len(rl.HarmRows)
	for i, h := range st.Harm {
		for j, n := range h.Rows {
			if i*nr+j < maxHarmCells {
				k.harm[i*nr+j] = int8(n)
			}
		}
	}
	if g.Retry {
		k.pushed = st.Attempt.Pushed || st.Attempt.ActionPushed
	}
	at := &st.Attempt
	switch {
	case st.Attempt.Stage == Rolled:
		k.fly = 1
	case st.Flashback.Stage == Rolled:
		k.fly, at = 2, &st.Flashback
	default:
		return k
	}
	k.peril, k.must, k.actionPushed = at.Test.Peril, at.MustPush, at.ActionPushed
	k.dice, k.hits, k.opp = int8(at.Pool.Dice), int8(at.Successes), int8(at.Opponent)
	return k
}

// spendSituation reads the situation of a pursuit g whose action's roll
// on st has just finished, its extra successes not yet spent.
func spendSituation(st *State, g *Pursuit) situation {
	k := situationOf(st, g)
	at := &st.Attempt
	k.fly, k.hits, k.pushed = 3, int8(at.Extra-at.Spent), at.Pushed || at.ActionPushed
	if at.Outcome.Succeeded {
		k.outcome |= outSucceeded
	}
	if at.Retry {
		k.outcome |= outRetry
	}
	if hasKind(at.Outcome.Consequences, LostOpportunity) {
		k.outcome |= outLost
	}
	return k
}

// The names of the choices, as a person reads them.
const (
	choiceTakePeril     = "take the Risk Peril deal"
	choiceDeclinePeril  = "decline the Risk Peril deal"
	choiceRoll          = "roll"
	choiceCannotAct     = "cannot act"
	choiceFlashback     = "call the flashback"
	choiceKeepFlashback = "keep the flashback for later"
	choiceNoFlashback   = "cannot call the flashback"
	choiceKeep          = "keep the roll"
	choicePush          = "push the roll"
	choiceHarmOn        = "take the push's harm on "
	choiceBuyNothing    = "buy nothing (the extra successes fill the clock)"
	choiceBuy           = "buy "
)

// The costs of the choices (markov.Choice.Cost), in harm levels: what a
// choice spends that the goal does not count, so that among equally good
// choices the plan takes the one that spends least (see the package doc).
const (
	// flashbackCost is the day's flashback spent: less than any harm.
	flashbackCost = 0.5
)

// landing is the cost of a harm of the given level on track t of st: the
// level of the row it fills (a full row passes it up), the rows plus one
// for a critical injury.
func landing(rl *Rules, st *State, level, t int) float64 {
	rows := st.Harm[t].Rows
	for i := level - 1; i < len(rows); i++ {
		if rows[i] < rl.HarmRows[i].Slots {
			return float64(i + 1)
		}
	}
	return float64(len(rows) + 1)
}

// answer is what the solver answers the step it plays.
type answer struct {
	peril, push, flashback bool
	track                  string
	// spends says spend holds the effects to buy (else the scenario's
	// way of spending answers).
	spends bool
	spend  []int
}

// forced is the policy the solver plays the Runner's steps with: it gives
// the answer being explored, and spends as the scenario does where the
// answer says nothing of spending.
type forced struct {
	a     answer
	order SpendOrder
}

// Name returns "solver".
func (forced) Name() string { return "solver" }

// Peril answers as explored.
func (f forced) Peril(*View) bool { return f.a.peril }

// Push answers as explored.
func (f forced) Push(*View) (bool, string) { return f.a.push, f.a.track }

// Spend buys what the answer says, or spends as the scenario does.
func (f forced) Spend(v *View, buf []int) []int {
	if f.a.spends {
		return append(buf, f.a.spend...)
	}
	return f.order.Choose(v, buf)
}

// Flashback answers as explored.
func (f forced) Flashback(*View) bool { return f.a.flashback }

// model is a scenario's decision process under construction: a Runner
// whose state the situations are loaded into, and what exploring found.
type model struct {
	s     *Scenario
	rn    *Runner
	order SpendOrder // how the scenario spends extra successes
	hit   float64    // the chance of a success on one die
	// trans holds each situation's choices, tests whether its step begins
	// an action's test (a test counted in the mean).
	trans map[situation][]markov.Choice[situation]
	tests map[situation]bool
	// paused says the step played last stopped at a finished roll whose
	// extra successes are the player's to spend.
	paused bool
	// plays counts the steps played exploring, under ctx.
	plays int
	ctx   context.Context
	// fails are the faces of a roll with no success, to count a step's
	// dice; faces those of the roll being played.
	fails, faces []int
	// noPause has a step played whole, as the Runner plays it, never
	// stopping to spend (for the tests).
	noPause bool
	err     error
}

// newModel validates the scenario for the decision process: within the
// exact model's bounds (as Exact).
func (s *Scenario) newModel() (*model, error) {
	rn, err := s.NewRunner()
	if err != nil {
		return nil, err
	}
	rl := rn.c.rules
	if err := s.exactBounds(rl, rn.st); err != nil {
		return nil, err
	}
	order, _ := SpendOrderByName(s.Spend)
	return &model{s: s, rn: rn, order: order, hit: rl.hitChance(), fails: rl.faces(nil, maxDice, 0), ctx: context.Background(),
		trans: map[situation][]markov.Choice[situation]{}, tests: map[situation]bool{}}, nil
}

// load puts the runner in situation k: the scenario's start with k's
// harm, dice and flashbacks, k's pursuit, and the records the next step
// reads — the finished roll a retry follows, the roll in flight or just
// finished.
func (m *model) load(k situation) {
	rn := m.rn
	rn.reset()
	st, rl, g := rn.c.State, rn.c.rules, &rn.Pursuit
	nr := len(rl.HarmRows)
	for i, h := range st.Harm {
		for j := range h.Rows {
			h.Rows[j] = int(k.harm[i*nr+j])
		}
	}
	st.Bonus, st.FlashbacksUsed = int(k.bonus), int(k.flash)
	g.Progress, g.Position, g.Hurt = int(k.progress), Position(rl.Positions[k.pos]), k.hurt
	g.Retry, g.FlashbackDue = k.retry, k.due
	if k.retry {
		last := rn.test
		last.Position = Position(rl.Positions[k.pos-1])
		st.Attempt = Attempt{Test: last, Stage: Finished, Retry: true, NextPosition: g.Position, ActionPushed: k.pushed}
	}
	switch k.fly {
	case 0:
		return
	case 3:
		m.loadFinished(k)
		return
	}
	t, at := rn.test, &st.Attempt
	t.Position, t.Peril = g.Position, k.peril
	if k.fly == 2 {
		t, at = rn.fb, &st.Flashback
	}
	faces := rl.faces(at.Dice[:0], int(k.dice), int(k.hits))
	*at = Attempt{Test: t, Stage: Rolled, Pool: Pool{Dice: int(k.dice)}, Dice: faces,
		Successes: int(k.hits), Opponent: int(k.opp), MustPush: k.must, ActionPushed: k.actionPushed}
}

// loadFinished records the action's roll of situation k (fly 3) as
// finished, with what the pursuit reads of it: its extra successes, its
// outcome, whether the action was pushed.
func (m *model) loadFinished(k situation) {
	rn := m.rn
	rl, at := rn.c.rules, &rn.c.State.Attempt
	t := rn.test
	t.Position = rn.Pursuit.Position
	need := max(t.Difficulty, 1)
	cons := at.Outcome.Consequences[:0]
	*at = Attempt{Test: t, Stage: Finished, Successes: need + int(k.hits), Required: need, Extra: int(k.hits),
		Band: rl.BandOf(need+int(k.hits), need), Pushed: k.pushed, Retry: k.outcome&outRetry != 0}
	at.Outcome.Succeeded = k.outcome&outSucceeded != 0
	at.Outcome.Consequences = cons
	if k.outcome&outLost != 0 {
		at.Outcome.Consequences = append(cons, Consequence{Kind: LostOpportunity})
	}
	if at.Retry {
		at.NextPosition = Position(rl.Positions[k.pos+1])
	}
}

// option is one legal answer in a situation: its name, the answer the
// step is played with (or, with to set, where it leads without a step)
// and its cost.
type option struct {
	name string
	a    answer
	cost float64
	to   []markov.Step[situation]
}

// maxSituations bounds the situations of a decision process the solver
// explores (each costs a kilobyte or two), and maxPlays the steps it plays
// to explore them (each some microseconds): a pursuit that needs more is
// refused, wrapping markov.ErrNoExact and markov.ErrTooLarge, when
// exploring passes either.
const (
	maxSituations = 1 << 16
	maxPlays      = 1 << 20
)

// choices explores situation k: the step's legal answers, each with where
// the dice take it. Past maxSituations, or once the model has failed, it
// explores nothing more (what is left to explore ends at once).
func (m *model) choices(k situation) []markov.Choice[situation] {
	if k.end != 0 || m.err != nil {
		return nil
	}
	if cs, ok := m.trans[k]; ok {
		return cs
	}
	if len(m.trans) >= maxSituations {
		m.fail(fmt.Errorf("%w: %w: the decision process passes %d situations", markov.ErrNoExact, markov.ErrTooLarge, maxSituations))
		return nil
	}
	// The legal answers are found first, on the situation loaded once;
	// playing each then moves the runner on.
	m.load(k)
	var opts []option
	switch {
	case k.fly == 3:
		opts = m.spendOptions()
	case k.fly != 0 && k.track:
		opts = m.trackOptions()
	case k.fly != 0:
		opts = m.pushOptions(k)
	case k.due:
		opts = m.flashbackOptions()
	default:
		opts = m.testOptions()
		m.tests[k] = opts[0].name != choiceCannotAct
	}
	cs := make([]markov.Choice[situation], len(opts))
	for i, o := range opts {
		steps := o.to
		if steps == nil {
			steps = m.play(k, o.a)
		}
		cs[i] = markov.Choice[situation]{Name: o.name, Steps: steps, Cost: o.cost}
	}
	m.trans[k] = cs
	return cs
}

// pushOptions are the answers to a roll in flight (situation k): keep it
// (first, so that where pushing gains nothing the plan keeps it) unless it
// must be pushed, or push it, the track chosen next.
func (m *model) pushOptions(k situation) []option {
	var opts []option
	at := m.rn.c.inFlight()
	if !at.MustPush {
		opts = append(opts, option{name: choiceKeep})
	}
	if tracks := m.pushTracks(at); len(tracks) > 0 {
		cost := landing(m.rn.c.rules, m.rn.c.State, m.rn.c.rules.PushHarm, tracks[0])
		for _, t := range tracks[1:] {
			cost = min(cost, landing(m.rn.c.rules, m.rn.c.State, m.rn.c.rules.PushHarm, t))
		}
		to := k
		to.track = true
		opts = append(opts, option{name: choicePush, cost: cost, to: []markov.Step[situation]{{To: to, P: 1}}})
	}
	return opts
}

// trackOptions are the tracks a push of the roll in flight may put its
// harm on, the Action's natural track first ("choose the one that is most
// appropriate to the Action"), each costing the level of the row it fills.
func (m *model) trackOptions() []option {
	c := m.rn.c
	var opts []option
	for _, t := range m.pushTracks(c.inFlight()) {
		tr := c.rules.HarmTracks[t]
		opts = append(opts, option{name: choiceHarmOn + tr, a: answer{push: true, track: tr},
			cost: landing(c.rules, c.State, c.rules.PushHarm, t)})
	}
	return opts
}

// pushTracks lists the tracks roll at may be pushed onto, its natural
// track first.
func (m *model) pushTracks(at *Attempt) []int {
	c := m.rn.c
	natural := m.rn.subjectOf(&at.Test).track
	var out []int
	if c.canPush(at, natural) == nil {
		out = append(out, natural)
	}
	for t := range c.rules.HarmTracks {
		if t != natural && c.canPush(at, t) == nil {
			out = append(out, t)
		}
	}
	return out
}

// flashbackOptions are the answers when the day's flashback is offered:
// keep it (first) or call it, which spends it.
func (m *model) flashbackOptions() []option {
	rn := m.rn
	if _, err := rn.c.callsFlashback(&rn.fb, rn.sub, forced{}); err != nil {
		return []option{{name: choiceNoFlashback}}
	}
	return []option{{name: choiceKeepFlashback}, {name: choiceFlashback, a: answer{flashback: true}, cost: flashbackCost}}
}

// testOptions are the answers before the next test: decline (first) or
// take the Risk Peril deal it offers, or simply roll; a character who
// cannot act has one option, which ends the pursuit.
func (m *model) testOptions() []option {
	rn := m.rn
	var opts []option
	for _, peril := range []bool{false, true} {
		if (peril && !rn.test.PerilOffered) || m.refused(peril) != nil {
			continue
		}
		switch {
		case !rn.test.PerilOffered:
			opts = append(opts, option{name: choiceRoll})
		case peril:
			opts = append(opts, option{name: choiceTakePeril, a: answer{peril: true}, cost: m.perilCost()})
		default:
			opts = append(opts, option{name: choiceDeclinePeril})
		}
	}
	if len(opts) == 0 {
		opts = append(opts, option{name: choiceCannotAct})
	}
	return opts
}

// perilCost is what the pursuit's Risk Peril deal costs: the level of the
// row its harm fills on the test's track, or, for a price that is not
// harm, the least harm level a deal may cost (Rules.MinPerilHarm).
func (m *model) perilCost() float64 {
	rn := m.rn
	if rn.test.PerilHarm == 0 {
		return float64(rn.c.rules.MinPerilHarm)
	}
	return landing(rn.c.rules, rn.c.State, rn.test.PerilHarm, rn.sub.track)
}

// spendOptions are the ways of spending the finished roll's extra
// successes (spendWays), which cost nothing the goal does not count.
func (m *model) spendOptions() []option {
	rn := m.rn
	at := &rn.c.State.Attempt
	ways, err := spendWays(rn.c.spendView(at, rn.allowedFor(&at.Test)), m.order)
	if err != nil {
		m.fail(err)
		return []option{{name: choiceBuyNothing, a: answer{spends: true}}}
	}
	opts := make([]option, len(ways))
	for i, w := range ways {
		opts[i] = option{name: wayName(rn.c.rules, w), a: answer{spends: true, spend: w}}
	}
	return opts
}

// refused says why the next test, with or without a Risk Peril deal,
// cannot begin now (the runner loaded with a situation between tests).
func (m *model) refused(peril bool) error {
	rn := m.rn
	if rn.Pursuit.Retry {
		t := rn.c.retryTest()
		t.Peril = peril
		return rn.c.CanRetry(t)
	}
	t := rn.test
	t.Position, t.Peril = rn.Pursuit.Position, peril
	return rn.c.CanBegin(t)
}

// play takes the runner's next step from situation k with answer a, every
// way the dice can fall: first with dice that all fail, to learn how many
// it rolls (the opponent's among them when it begins an opposed roll),
// then once for each count of successes, with its chance.
func (m *model) play(k situation, a answer) []markov.Step[situation] {
	rl := m.rn.c.rules
	if m.plays > maxPlays {
		m.fail(fmt.Errorf("%w: %w: exploring the decision process plays more than %d steps", markov.ErrNoExact, markov.ErrTooLarge, maxPlays))
	}
	if err := m.ctx.Err(); err != nil {
		m.fail(err)
	}
	if m.err != nil {
		return []markov.Step[situation]{{To: situation{end: int8(catStalled) + 1}, P: 1}}
	}
	// Most steps roll a few dice: a short probe first, the longest only
	// when it runs out.
	n, ok := m.probe(k, a, m.fails[:shortProbe])
	if !ok {
		n, _ = m.probe(k, a, m.fails)
	}
	opp := 0
	if k.fly == 0 && !k.due && m.rn.test.Opposed {
		opp = min(m.rn.test.Opponent, n)
	}
	if n-opp > maxModelDice {
		m.fail(fmt.Errorf("%w: a roll of %d dice; the solver models at most %d", markov.ErrNoExact, n-opp, maxModelDice))
		return []markov.Step[situation]{{To: situation{end: int8(catStalled) + 1}, P: 1}}
	}
	var out []markov.Step[situation]
	for hits, p := range binom(n-opp, m.hit) {
		for against, q := range binom(opp, m.hit) {
			if p*q == 0 {
				continue
			}
			m.plays++
			m.load(k)
			m.faces = rl.faces(rl.faces(m.faces[:0], n-opp, hits), opp, against)
			r := dice.Scripted(m.faces...)
			m.step(k, r, a)
			if r.Remaining() != 0 || r.Err() != nil {
				m.fail(fmt.Errorf("actiontest: solver: a step from %+v rolled differently from its probe", k))
			}
			out = append(out, markov.Step[situation]{To: m.reached(), P: p * q})
		}
	}
	return out
}

// shortProbe is the dice play probes a step with first.
const shortProbe = 24

// probe plays the step from situation k with answer a on the faces given
// (none a success) and says how many it rolled, and whether they sufficed.
func (m *model) probe(k situation, a answer, faces []int) (n int, ok bool) {
	m.plays++
	m.load(k)
	r := dice.Scripted(faces...)
	m.step(k, r, a)
	return len(faces) - r.Remaining(), r.Err() == nil
}

// reached is the situation the step played last left the runner in.
func (m *model) reached() situation {
	if m.paused {
		return spendSituation(m.rn.c.State, &m.rn.Pursuit)
	}
	return situationOf(m.rn.c.State, &m.rn.Pursuit)
}

// step takes one Runner step from situation k (loaded) with answer a,
// then finishes a roll left in flight that offers no choice (one that
// cannot be pushed, or was), stopping where the player has extra
// successes to spend.
func (m *model) step(k situation, r *dice.Roller, a answer) {
	rn := m.rn
	m.paused = false
	var err error
	switch {
	case k.fly == 3:
		err = rn.testDone(&rn.c.State.Attempt, forced{a, m.order})
	case k.fly != 0:
		err = m.resolve(r, a)
	default:
		err = rn.step(r, forced{a, m.order})
	}
	for err == nil && !m.paused && !rn.Pursuit.Ended {
		at := rn.c.inFlight()
		if at == nil || (at.MustPush && !at.Pushed) || rn.c.PushTrack() != "" {
			break
		}
		err = m.resolve(r, answer{})
	}
	if err != nil {
		m.fail(err)
	}
}

// resolve is the Runner's resolve (push or finish the roll in flight, then
// move the pursuit on), except that a finished action's roll with extra
// successes the player may spend on a heal is left for the next choice
// (paused).
func (m *model) resolve(r *dice.Roller, a answer) error {
	rn := m.rn
	c := rn.c
	at := c.inFlight()
	if err := c.resolveWith(r, at, rn.subjectOf(&at.Test), forced{a, m.order}); err != nil || at.Stage != Finished {
		return err
	}
	if at == &c.State.Flashback {
		rn.flashbackDone(at)
		return nil
	}
	// A critical injury ends the pursuit whatever is bought: the
	// situations leave it out.
	if !m.noPause && at.Extra > at.Spent && !critical(c.State) && healable(c.spendView(at, rn.allowedFor(&at.Test))) {
		m.paused = true
		return nil
	}
	return rn.testDone(at, forced{order: m.order})
}

// healable says whether the extra successes v shows can buy a heal.
func healable(v *View) bool {
	for i := range v.Rules.Effects {
		e := &v.Rules.Effects[i]
		if e.Kind == EffectHeal && v.Allowed&(1<<i) != 0 && e.Cost <= v.Extra && v.Harm > 0 {
			return true
		}
	}
	return false
}

// spendWays lists the ways the player may spend the extra successes v
// shows, as effect indices: the scenario's own way (order) first, then
// every count of heals the successes afford and the harm held allows (one
// heal effect of each cost the Action allows), the rest filling the clock,
// buying nothing first. Other effects are bought as the scenario's way
// buys them (the package doc says why). More than markov.MaxChoices ways
// is an error wrapping markov.ErrNoExact.
func spendWays(v *View, order SpendOrder) ([][]int, error) {
	rl := v.Rules
	var heals []int // the first heal of each cost
	kindOf := func(i int) int {
		return slices.IndexFunc(heals, func(j int) bool { return rl.Effects[j].Cost == rl.Effects[i].Cost })
	}
	for i := range rl.Effects {
		if rl.Effects[i].Kind == EffectHeal && v.Allowed&(1<<i) != 0 && kindOf(i) < 0 {
			heals = append(heals, i)
		}
	}
	own := order.Choose(v, nil)
	ways := [][]int{own}
	var walk func(j, left, harm int, buf []int) error
	walk = func(j, left, harm int, buf []int) error {
		if j == len(heals) {
			if !slices.Equal(buf, own) {
				ways = append(ways, slices.Clone(buf))
			}
			if len(ways) > markov.MaxChoices {
				return fmt.Errorf("%w: more than %d ways to spend %d extra successes", markov.ErrNoExact, markov.MaxChoices, v.Extra)
			}
			return nil
		}
		for cost := rl.Effects[heals[j]].Cost; ; {
			if err := walk(j+1, left, harm, buf); err != nil {
				return err
			}
			if left, harm = left-cost, harm-1; left < 0 || harm < 0 {
				return nil
			}
			buf = append(buf, heals[j])
		}
	}
	return ways, walk(0, v.Extra, v.Harm, nil)
}

// wayName puts a way of spending in words: "buy heal_harm, 2 bonus_die".
func wayName(rl *Rules, way []int) string {
	if len(way) == 0 {
		return choiceBuyNothing
	}
	var parts []string
	for i := 0; i < len(way); {
		n := 1
		for i+n < len(way) && way[i+n] == way[i] {
			n++
		}
		name := rl.Effects[way[i]].Name
		if n > 1 {
			name = strconv.Itoa(n) + " " + name
		}
		parts = append(parts, name)
		i += n
	}
	return choiceBuy + strings.Join(parts, ", ")
}

// explore builds the scenario's decision process and checks that every
// play of it ends within MaxTests tests (else the stalled category would
// need the tests counted, which the situations leave out).
func (m *model) explore(ctx context.Context) (*markov.Process[situation], error) {
	root := situationOf(m.rn.st, &Pursuit{Position: m.rn.test.Position})
	m.ctx = ctx
	proc, err := markov.ExploreProcess(ctx, root, m.choices)
	if m.err != nil {
		return nil, m.err
	}
	if err != nil {
		if errors.Is(err, markov.ErrTooLarge) {
			return nil, fmt.Errorf("%w: %w", markov.ErrNoExact, err)
		}
		return nil, err
	}
	depth, err := m.longest(root)
	if err != nil {
		return nil, err
	}
	if depth > m.s.MaxTests {
		return nil, fmt.Errorf("%w: a pursuit can take %d tests, more than max_tests %d", markov.ErrNoExact, depth, m.s.MaxTests)
	}
	return proc, nil
}

// longest returns the most tests any play takes; a situation play can
// return to is an error wrapping markov.ErrNoExact.
func (m *model) longest(root situation) (int, error) {
	const open, done = 1, 2
	color, depth := map[situation]int{}, map[situation]int{}
	var visit func(k situation) error
	visit = func(k situation) error {
		color[k] = open
		best := 0
		for _, c := range m.trans[k] {
			for _, st := range c.Steps {
				switch color[st.To] {
				case open:
					return fmt.Errorf("%w: the rules let a pursuit return to an earlier situation, so only max_tests ends it", markov.ErrNoExact)
				case 0:
					if err := visit(st.To); err != nil {
						return err
					}
				}
				best = max(best, depth[st.To])
			}
		}
		if m.tests[k] {
			best++
		}
		color[k], depth[k] = done, best
		return nil
	}
	if err := visit(root); err != nil {
		return 0, err
	}
	return depth[root], nil
}

// describe puts a situation with a choice in words: what is asked, the
// position, how the roll stands against what it needs, and what the harm
// held costs (the clock's progress is left out, so that alike situations
// share a line).
func (m *model) describe(k situation) string {
	m.load(k)
	st, rl := m.rn.c.State, m.rn.c.rules
	harm := harmWords(st)
	pos := rl.Positions[k.pos]
	switch {
	case k.fly == 3:
		return fmt.Sprintf("a %s roll with %d extra success%s to spend, %s", pos, k.hits, plural(int(k.hits)), harm)
	case k.fly == 0 && k.due:
		return fmt.Sprintf("a failure worsened the position to %s and the day's flashback is offered, %s", pos, harm)
	case k.fly == 0:
		return fmt.Sprintf("offered a Risk Peril deal before a %s test, %s", pos, harm)
	}
	roll := fmt.Sprintf("a %s roll %s", pos, short(int(k.hits), m.s.Difficulty))
	switch {
	case k.fly == 2:
		roll = fmt.Sprintf("a flashback roll %s", short(int(k.hits), m.rn.fb.Difficulty))
	case m.rn.test.Opposed:
		roll = fmt.Sprintf("a %s roll against %d success%s, %s", pos, k.opp, plural(int(k.opp)), short(int(k.hits), int(k.opp)+1))
	}
	if k.track {
		return fmt.Sprintf("pushing %s, harm held: %s", roll, heldWords(st))
	}
	return roll + ", " + harm
}

// harmWords says what the harm st holds costs.
func harmWords(st *State) string {
	switch pen := st.Penalty(); {
	case pen == 1:
		return "harm costing 1 die"
	case pen > 1:
		return fmt.Sprintf("harm costing %d dice", pen)
	case harmHeld(st) > 0:
		return "harm that costs no dice"
	}
	return "unhurt"
}

// heldWords says which harm each track holds: "physical 2 lesser, mental
// none".
func heldWords(st *State) string {
	var tracks []string
	for _, h := range st.Harm {
		var rows []string
		for i, n := range h.Rows {
			if n > 0 {
				rows = append(rows, fmt.Sprintf("%d %s", n, st.Rules.HarmRows[i].Name))
			}
		}
		if len(rows) == 0 {
			rows = append(rows, "none")
		}
		tracks = append(tracks, h.Track+" "+strings.Join(rows, " and "))
	}
	return strings.Join(tracks, ", ")
}

// short says how a roll's successes stand against what it needs.
func short(hits, need int) string {
	switch {
	case hits < need:
		return fmt.Sprintf("%d success%s short", need-hits, plural(need-hits))
	case hits == need:
		return "exactly made"
	}
	return fmt.Sprintf("made with %d to spare", hits-need)
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "es"
}

// fail records the first error exploring met.
func (m *model) fail(err error) {
	if m.err == nil {
		m.err = err
	}
}
