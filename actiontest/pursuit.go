package actiontest

import (
	"errors"
	"fmt"
	"reflect"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/named"
)

// Pursuit is where a pursuit of a Scenario stands, beside the character's
// State: the clock's progress, the position of the next test, whether that
// test is the Worse Position retry of the last one, whether the day's
// flashback is due, and the metrics so far. It saves as JSON with the
// scenario and the state (see Game.Save).
type Pursuit struct {
	Progress int      `json:"progress"`
	Position Position `json:"position"`
	// Retry says the next test is the retry of the last, at Position.
	Retry bool `json:"retry,omitempty"`
	// FlashbackDue says the flashback is called before the retry.
	FlashbackDue bool `json:"flashback_due,omitempty"`
	// Hurt says the character held more harm than StartHarm after some
	// test.
	Hurt      bool `json:"hurt,omitempty"`
	StartHarm int  `json:"start_harm"`
	// Metrics are the scenario's Metrics so far.
	Metrics Tally `json:"metrics"`
	// Ended says the pursuit is over, in Category.
	Ended    bool     `json:"ended,omitempty"`
	Category Category `json:"category"`
}

// Runner plays pursuits of a scenario a trial at a time (a Game plays one
// a step at a time over a Runner); every step is one of the character's
// steps, so a trial, a game stepped by hand and the exact model play the
// same rules. One Runner per goroutine.
type Runner struct {
	s Scenario
	// c is the pursuit's state at work (g, on state), with its
	// Director's table ruled once.
	c     *game
	g     game
	state State
	st    *State // the scenario's starting state
	// startHarm is the harms st holds.
	startHarm int
	// test is the pursuit's test at its starting position; fb the
	// flashback's.
	test, fb Test
	policy   Policy
	// sub is what the pursuit's tests roll (the flashback's Action is
	// theirs), resolved once from the character's rules.
	sub subject
	// allowed are the effects the pursuit's Action allows (see allowedBy).
	allowed uint64
	// Pursuit is where the pursuit in play stands.
	Pursuit Pursuit
}

// NewRunner validates the scenario and preallocates a Runner, ready to
// play pursuits from its start.
func (s Scenario) NewRunner() (*Runner, error) {
	c, t, fb, err := s.build()
	if err != nil {
		return nil, err
	}
	p, err := s.policy()
	if err != nil {
		return nil, err
	}
	rn := &Runner{s: s, st: c.State.Clone(), test: t, fb: fb, policy: p}
	// The runner keeps its game and state beside it.
	rn.state, rn.g = *c.State, *c
	rn.g.State, rn.g.rules = &rn.state, &rn.state.Rules
	rn.g.pursuit = &rn.Pursuit
	rn.c = &rn.g
	rn.startHarm = harmCount(rn.st)
	if rn.sub, err = c.subjectOf(t.Action); err != nil {
		return nil, err
	}
	rn.allowed = c.allowedBy(rn.sub)
	for _, at := range []*Attempt{&rn.st.Attempt, &rn.st.Flashback} {
		at.Dice = make([]int, 0, maxDice)
		at.Rerolled = make([]int, 0, maxDice)
	}
	rn.reset()
	return rn, nil
}

// reset starts a new pursuit from the scenario's start.
func (rn *Runner) reset() {
	rn.c.State.copyPlay(rn.st)
	rn.Pursuit = Pursuit{Position: rn.test.Position, StartHarm: rn.startHarm}
}

// Trial plays one pursuit from the scenario's start and returns its
// category, filling metrics (Metrics order; len(metrics) may be shorter),
// or the error that stopped it (a nil Roller, a policy's illegal answer):
// a trial that failed has no category.
func (rn *Runner) Trial(r *dice.Roller, metrics []int) (int, error) {
	if r == nil {
		return -1, dice.ErrNilRoller
	}
	rn.reset()
	for !rn.Pursuit.Ended {
		if err := rn.step(r, rn.policy); err != nil {
			return -1, err
		}
	}
	copy(metrics, rn.Pursuit.Metrics[:])
	return int(rn.Pursuit.Category), nil
}

// step takes the pursuit's next step with p making the choices: finish or
// push the roll in flight, begin the due flashback, or begin the next test
// (a retry, or a new one) — or end the pursuit when no test is left to
// take. A policy's illegal answer to a question asked before the step
// changes anything (peril, flashback, push) is an error, and nothing
// changes; its illegal spending is an error once the test it spends on is
// finished, before the pursuit moves on (nothing is bought): Game.Step
// puts the character's play back.
func (rn *Runner) step(r *dice.Roller, p Policy) error {
	g, c := &rn.Pursuit, rn.c
	switch at := c.inFlight(); {
	case g.Ended:
		return fmt.Errorf("%w: the pursuit has ended (%s)", ErrStage, g.Category)
	case at != nil:
		return rn.resolve(r, at, p)
	case g.FlashbackDue:
		return rn.flashback(r, p)
	case g.Metrics[metTests] >= rn.s.MaxTests:
		rn.end(catStalled)
		return nil
	}
	var err error
	if g.Retry {
		err = rn.retry(r, p)
	} else {
		// The scenario's test was checked when the runner was built, and
		// the position with the pursuit; nothing is in flight.
		t := rn.test
		t.Position = g.Position
		err = rn.begin(r, &t, rn.sub, false, p)
	}
	if errors.Is(err, ErrIncapacitated) && !errors.Is(err, errPeril) {
		rn.end(catOut) // no help and no push: the character is out
		return nil
	}
	return err
}

// begin begins test t (checked) with p's choice of a Risk Peril deal.
func (rn *Runner) begin(r *dice.Roller, t *Test, s subject, pushed bool, p Policy) error {
	if err := rn.c.beginWith(r, t, s, pushed, p); err != nil {
		return err
	}
	if !t.Flashback {
		rn.Pursuit.Retry = false
	}
	return nil
}

// retry begins the Worse Position retry of the finished test.
func (rn *Runner) retry(r *dice.Roller, p Policy) error {
	// The retry is the finished roll's own test at its next position
	// (checked when the roll began, or with a restored state), so only
	// the record's asking for it is checked again; nothing is in flight.
	last := &rn.c.State.Attempt
	if last.Stage != Finished || !last.Retry {
		return fmt.Errorf("%w: a retry follows a finished roll whose outcome asks for one", ErrStage)
	}
	t := rn.c.retryTest()
	return rn.begin(r, &t, rn.subjectOf(&t), last.Pushed || last.ActionPushed, p)
}

// subjectOf resolves what test t (checked) rolls: the pursuit's own
// subject for its Action, which every test of a pursuit uses unless a
// restored state says otherwise.
func (rn *Runner) subjectOf(t *Test) subject {
	if t.Action == rn.test.Action {
		return rn.sub
	}
	s, _ := rn.c.subjectOf(t.Action)
	return s
}

// allowedFor is the effects test t's Action allows: the pursuit's own,
// worked out once, unless a restored state says otherwise.
func (rn *Runner) allowedFor(t *Test) uint64 {
	if t.Action == rn.test.Action {
		return rn.allowed
	}
	return rn.c.allowedBy(rn.subjectOf(t))
}

// flashback offers p the due flashback and begins it if p calls it; a
// character who cannot act goes on without it. The flashback test was
// checked when the runner was built, and Step calls it with nothing in
// flight.
func (rn *Runner) flashback(r *dice.Roller, p Policy) error {
	fb := rn.fb
	call, err := rn.c.callsFlashback(&fb, rn.sub, p)
	if rerr := refused(p); rerr != nil {
		return rerr
	}
	if err == nil && call {
		err = rn.begin(r, &fb, rn.sub, false, p)
	}
	if err != nil && !errors.Is(err, ErrIncapacitated) {
		return err
	}
	rn.Pursuit.FlashbackDue = false
	return nil
}

// resolve pushes or finishes the roll in flight as p chooses and, once
// it is finished, moves the pursuit on.
func (rn *Runner) resolve(r *dice.Roller, at *Attempt, p Policy) error {
	c := rn.c
	if err := c.resolveWith(r, at, rn.subjectOf(&at.Test), p); err != nil || at.Stage != Finished {
		return err
	}
	if at == &c.State.Flashback {
		rn.flashbackDone(at)
		return nil
	}
	return rn.testDone(at, p)
}

// testDone has p spend a finished test's extra successes, counts it and
// applies the pursuit's rules. An illegal spending is an error before the
// pursuit moves on.
func (rn *Runner) testDone(at *Attempt, p Policy) error {
	c, g, m := rn.c, &rn.Pursuit, &rn.Pursuit.Metrics
	if at.Extra > at.Spent { // the policy is asked only with something to spend
		if err := c.spendWith(p, rn.allowedFor(&at.Test)); err != nil {
			return err
		}
	}
	m[metTests]++
	m[metSuccesses] += at.Successes
	if at.Pushed {
		m[metPushes]++
	}
	if at.Test.Peril {
		m[metPerils]++
	}
	held, out := harmTally(c.State)
	m[metHarm] = held - g.StartHarm
	g.Hurt = g.Hurt || m[metHarm] > 0
	if cat, ended := rn.s.after(out, at, g, rn.test.Position); ended {
		rn.end(cat)
		return nil
	}
	if g.Retry {
		m[metEscalations]++
		g.FlashbackDue = rn.s.wantsFlashback(c.State)
	}
	return nil
}

// flashbackDone counts a finished flashback.
func (rn *Runner) flashbackDone(at *Attempt) {
	c, g, m := rn.c, &rn.Pursuit, &rn.Pursuit.Metrics
	m[metFlashbacks]++
	if at.Pushed {
		m[metPushes]++
	}
	held, out := harmTally(c.State)
	m[metHarm] = held - g.StartHarm
	g.Hurt = g.Hurt || m[metHarm] > 0
	if out {
		rn.end(catOut)
	}
}

// end ends the pursuit in category cat.
func (rn *Runner) end(cat Category) {
	g := &rn.Pursuit
	g.Ended, g.Category, g.Retry, g.FlashbackDue = true, cat, false, false
	g.Metrics[metHarm] = harmCount(rn.c.State) - g.StartHarm
}

// after applies the pursuit's rules to a finished test, out saying the
// character has taken a critical injury: it says whether the pursuit
// ended, and in which category, and moves g on — progress,
// the next position (start after a success when ResetPosition), and
// whether the next test is the Worse Position retry of this one.
func (s *Scenario) after(out bool, at *Attempt, g *Pursuit, start Position) (Category, bool) {
	g.Retry = false
	if out {
		return catOut, true
	}
	switch {
	case at.Outcome.Succeeded:
		g.Progress += 1 + at.Extra - at.Spent
		if g.Progress >= s.Goal {
			g.Progress = s.Goal
			if g.Hurt {
				return catHurt, true
			}
			return catClean, true
		}
		if s.ResetPosition {
			g.Position = start
		}
	case at.Retry:
		g.Position, g.Retry = at.NextPosition, true
	case hasKind(at.Outcome.Consequences, LostOpportunity):
		return catLost, true
	}
	return 0, false
}

// harmCount is the number of harms a state holds, criticals included.
func harmCount(s *State) int {
	n, _ := harmTally(s)
	return n
}

// harmTally is the number of harms a state holds, criticals included, and
// whether any is a critical injury (which takes the character out).
func harmTally(s *State) (n int, critical bool) {
	for t := range s.Harm {
		h := &s.Harm[t]
		for _, k := range h.Rows {
			n += k
		}
		n += h.Critical
		critical = critical || h.Critical > 0
	}
	return n, critical
}

func critical(s *State) bool {
	for _, h := range s.Harm {
		if h.Critical > 0 {
			return true
		}
	}
	return false
}

// checkState says what is wrong with a saved pursuit's state s: it must
// pass Check and play by the scenario's rules, character and Director.
func (rn *Runner) checkState(s *State) error {
	if err := s.check(rn.c.director); err != nil {
		return err
	}
	start := rn.c.State
	switch {
	case !reflect.DeepEqual(s.Rules, start.Rules):
		return fmt.Errorf("its rules are not the scenario's")
	case !reflect.DeepEqual(s.Sheet, start.Sheet):
		return fmt.Errorf("its sheet is not the scenario's character")
	case s.Director != start.Director:
		return fmt.Errorf("director %.40q, the scenario's is %.40q", s.Director, start.Director)
	}
	return nil
}

// maxMetric bounds a saved metric.
const maxMetric = 1 << 30

// checkPursuit says what is wrong with a saved pursuit g for the runner's
// scenario and the character's (checked) state: its numbers must be in
// range, and the step it is waiting for must be one the steps can take.
func (rn *Runner) checkPursuit(g *Pursuit) error {
	s, c := &rn.s, rn.c
	switch {
	case g.Progress < 0 || g.Progress > s.Goal || (g.Progress == s.Goal && !g.Ended):
		return fmt.Errorf("progress %d, allowed 0..%d (the goal, once the pursuit has ended)", g.Progress, s.Goal)
	case c.rules.positionAt(g.Position) < 0:
		return fmt.Errorf("position %.40q, allowed %s", g.Position, named.Allowed(c.rules.Positions))
	case g.StartHarm < 0 || g.StartHarm > maxMetric:
		return fmt.Errorf("start_harm %d, allowed 0..%d", g.StartHarm, maxMetric)
	case g.Metrics[metTests] < 0 || g.Metrics[metTests] > s.MaxTests:
		return fmt.Errorf("tests %d, allowed 0..%d (max_tests)", g.Metrics[metTests], s.MaxTests)
	case !categoryNames.Valid(g.Category):
		return fmt.Errorf("category %d, allowed %s", g.Category, named.Allowed(categoryNames))
	}
	for i, m := range g.Metrics {
		if m < -maxMetric || m > maxMetric {
			return fmt.Errorf("metrics[%d] = %d, allowed %d..%d", i, m, -maxMetric, maxMetric)
		}
	}
	return rn.checkNext(g)
}

// checkNext says whether the step g waits for can be taken: a pursuit
// that ended has nothing in flight; a roll in flight can be finished (or
// pushed, when it must be); a retry follows a roll that asks for one; a
// due flashback can be called.
func (rn *Runner) checkNext(g *Pursuit) error {
	c := rn.c
	at := c.inFlight()
	switch {
	case g.Ended && (at != nil || g.Retry || g.FlashbackDue):
		return fmt.Errorf("an ended pursuit has a roll in flight, a retry or a flashback due")
	case at != nil && g.Retry != at.Test.Flashback:
		return fmt.Errorf("a roll in flight with retry %v: only a flashback comes between a test and its retry", g.Retry)
	case at != nil && g.FlashbackDue:
		return fmt.Errorf("a flashback is due while a roll is in flight")
	case at != nil && at.MustPush && !at.Pushed && c.pushBarOf(at, c.pushTrack(c.naturalTrack(&at.Test))) != noBar:
		return fmt.Errorf("the roll in flight must be pushed and cannot be")
	case g.FlashbackDue && (!g.Retry || !rn.s.wantsFlashback(c.State)):
		return fmt.Errorf("a flashback is due with retry %v and %d of %d used today", g.Retry, c.State.FlashbacksUsed, c.rules.FlashbacksPerDay)
	}
	if g.Retry {
		t := c.retryTest()
		if _, err := c.retryOf(&t); err != nil {
			return err
		}
	}
	return nil
}
