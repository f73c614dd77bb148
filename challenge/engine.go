package challenge

import (
	"fmt"

	"github.com/stakesrpg/stakes/dice"
)

// Engine takes the steps of a conflict. It holds no state of play: one
// Engine, or copies of it, may drive any number of States, each from one
// goroutine at a time.
type Engine struct {
	// Policies answer the rules' choices in Step and Play, one per side
	// (Policies[i] for side i; a nil entry plays the default Style). They
	// reach the engine only here. An empty Policies plays every side by
	// the defaults; any other length than the conflict's sides is refused.
	Policies []Policy
	// Sink, when set, hears every event a step produces. Nil builds none.
	Sink func(Event)
}

// begin checks whose turn it is against the phase (State.checkTurn: the
// sides a step reads exist, are in and show a roll), so that a State
// edited by hand since its last Check is refused rather than indexed out
// of range, and lends the state the Engine's sink and its policies' view
// of it for the length of the step, which defers unlend.
func (e Engine) begin(s *State) error {
	if err := s.checkTurn(); err != nil {
		return err
	}
	s.sink, s.view.s = e.Sink, s
	return nil
}

func (s *State) unlend() { s.sink, s.view.s = nil, nil }

// Roll makes the roll the phase calls for ("What do we do with our dice
// after we've rolled them?"): in PhaseCast every side still in casts; in
// PhaseAnswer the answerer re-rolls. Each side with an advantage this round
// rolls its advantage dice with its dice. Once Rules.MaxExchanges answers
// have been rolled, the conflict ends as a stalemate instead.
func (e Engine) Roll(s *State, r *dice.Roller) error {
	if r == nil {
		return nilRoller("Roll")
	}
	if err := e.begin(s); err != nil {
		return err
	}
	defer s.unlend()
	return s.roll(r)
}

// CrossOff crosses owe-list entry k off for side i and rolls an advantage
// die onto the side's showing roll at once ("What do we do with the we owe
// list?"): at a cast (PhaseCastRolled) any side in may, at an answer
// (PhaseAnswered) the two sides comparing, each up to
// Rules.CrossOffsPerComparison names.
func (e Engine) CrossOff(s *State, r *dice.Roller, i, k int) error {
	if r == nil {
		return nilRoller("CrossOff")
	}
	if err := e.begin(s); err != nil {
		return err
	}
	defer s.unlend()
	return s.crossOff(r, i, k)
}

// Resolve reads the comparison the last Roll set up. After a cast the
// highest roll challenges (a true tie at the top recasts, per
// Rules.RecastTies). After an answer: a higher answer blocks and the roles
// swap; a true tie blocks and ends the exchange; half or less is an
// outright win (PhaseConsequence); otherwise the answerer must choose
// (PhaseStance).
func (e Engine) Resolve(s *State) error {
	if err := e.begin(s); err != nil {
		return err
	}
	defer s.unlend()
	return s.resolve()
}

// Challenge has the current challenger name side j as its answerer. If
// another side's showing roll beats j's, the conflict waits in
// PhaseInterfere; otherwise j answers.
func (e Engine) Challenge(s *State, j int) error {
	if err := e.begin(s); err != nil {
		return err
	}
	defer s.unlend()
	return s.challenge(j)
}

// Interfere settles interference with the named answerer: k >= 0 is the
// side that answers instead; -1 lets the named answerer answer.
func (e Engine) Interfere(s *State, k int) error {
	if err := e.begin(s); err != nil {
		return err
	}
	defer s.unlend()
	return s.interfere(k)
}

// Drop takes the current challenger out of the conflict instead of
// challenging ("you can drop out of the conflict yourself").
func (e Engine) Drop(s *State) error {
	if err := e.begin(s); err != nil {
		return err
	}
	defer s.unlend()
	return s.drop()
}

// Stance is the answerer's choice when its answer is lower than the
// challenge but more than half: hang in (the challenger carries an
// advantage die into the next round) or give (out, no injury).
func (e Engine) Stance(s *State, hangIn bool) error {
	if err := e.begin(s); err != nil {
		return err
	}
	defer s.unlend()
	return s.stance(hangIn)
}

// Injure applies the standard consequence of an outright win: each member
// of the losing side (all of them, helpers too: "I can exhaust or injure
// you both") loses losses[m], Rules.InjurySizes sizes from one of its
// injury stats, as the winner chooses (Engine.Losses lists the choices).
func (e Engine) Injure(s *State, losses []Loss) error {
	if err := e.begin(s); err != nil {
		return err
	}
	defer s.unlend()
	return s.injure(losses)
}

// Settle applies a negotiated outcome instead of Injure. It is checked in
// full first: every change legal for the sheet it changes, every remap and
// gained specialization naming an endeavor on the loser's sheet and a
// stat of the rules.
func (e Engine) Settle(s *State, st Settlement) error {
	if err := e.begin(s); err != nil {
		return err
	}
	defer s.unlend()
	return s.settle(&st)
}

// Step takes the next step, asking the sides' Policies for any choice it
// needs: a roll, one side's choice whether to cross a name off the owe
// list, the resolution of a comparison, a choice of answerer,
// interference, stance, or consequence. An illegal answer is returned as
// an error and changes neither the state nor the Roller.
func (e Engine) Step(s *State, r *dice.Roller) error {
	if err := e.ready(s, r, "Step"); err != nil {
		return err
	}
	defer s.unlend()
	return s.step(r, e.Policies)
}

// Play plays the conflict to its end under the sides' Policies: Step over
// and over until State.Done.
func (e Engine) Play(s *State, r *dice.Roller) error {
	if err := e.ready(s, r, "Play"); err != nil {
		return err
	}
	defer s.unlend()
	for s.Phase != PhaseDone {
		if err := s.step(r, e.Policies); err != nil {
			return err
		}
	}
	return nil
}

// ready is begin for Step and Play: a Roller to roll with and one policy
// per side (or none, for the defaults) come first.
func (e Engine) ready(s *State, r *dice.Roller, step string) error {
	if r == nil {
		return nilRoller(step)
	}
	if len(e.Policies) != 0 && len(e.Policies) != len(s.Sides) {
		return fmt.Errorf("challenge: %d policies for %d sides: give one per side, or none for the defaults",
			len(e.Policies), len(s.Sides))
	}
	return e.begin(s)
}

func nilRoller(step string) error {
	return fmt.Errorf("challenge: %s: %w", step, dice.ErrNilRoller)
}

// policy is side i's policy; a nil one, or none at all, plays the
// defaults, as a nil *Style.
func policy(policies []Policy, i int) Policy {
	if len(policies) == 0 || policies[i] == nil {
		return (*Style)(nil)
	}
	return policies[i]
}

// step is Step once policies holds one per side. The phase says which
// step comes, so step takes it without asking it to check the phase again.
func (c *State) step(r *dice.Roller, policies []Policy) error {
	switch c.Phase {
	case PhaseCast:
		c.cast(r)
	case PhaseAnswer:
		c.answer(r)
	case PhaseCastRolled, PhaseAnswered:
		// Each side with a name to cross off is asked first.
		if len(c.Owe) > 0 {
			if i := c.toAsk(); i >= 0 {
				return c.askCross(r, policies, i)
			}
		}
		if c.Phase == PhaseCastRolled {
			c.resolveCast()
		} else {
			c.resolveAnswer()
		}
	case PhaseChallenge:
		return c.askTarget(policies)
	case PhaseInterfere:
		return c.askInterfere(policies)
	case PhaseStance:
		return c.askStance(policies)
	case PhaseConsequence:
		return c.askConsequence(policies)
	default:
		return c.phaseErr("Step")
	}
	return nil
}

// askTarget asks the challenger's policy for its answerer, unless it has
// no choice to make (soleAnswerer), and names it or drops out.
func (c *State) askTarget(policies []Policy) error {
	ch := c.Challenger
	if t, sole := c.soleAnswerer(); sole {
		c.name(t)
		return nil
	}
	p := policy(policies, ch)
	t := p.Target(&c.view, ch)
	if err := refused(p); err != nil {
		return err
	}
	if t == Drop {
		return c.drop()
	}
	if err := c.challenge(t); err != nil {
		return fmt.Errorf("challenge: side %s's target policy: %w", c.Sides[ch].Name, err)
	}
	return nil
}

// soleAnswerer returns the side the current challenger must name, and
// true, when it has no choice to make: exactly one other side is in, and
// it is the challenger's declared target or the challenger declared none.
// Step names it at once (it is a side Challenge accepts). Otherwise Step
// asks the challenger's policy.
func (c *State) soleAnswerer() (int, bool) {
	ch, t, n := c.Challenger, -1, 0
	for i := range c.Sides {
		if i != ch && c.Sides[i].Status == StatusIn {
			t, n = i, n+1
		}
	}
	if n != 1 || (c.Sides[ch].Target >= 0 && c.Sides[ch].Target != t) {
		return -1, false
	}
	return t, true
}

// askInterfere asks every side that may interfere; the highest roll among
// those willing answers instead [ours].
func (c *State) askInterfere(policies []Policy) error {
	best := -1
	for k := range c.Sides {
		if !c.mayInterfere(k, c.Answerer) {
			continue
		}
		p := policy(policies, k)
		yes := p.Interfere(&c.view, k)
		if err := refused(p); err != nil {
			return err
		}
		if !yes {
			continue
		}
		if best < 0 || c.cmp(k, best) > 0 {
			best = k
		}
	}
	return c.interfere(best)
}

// askStance asks the answerer's policy whether to hang in or give.
func (c *State) askStance(policies []Policy) error {
	an := c.Answerer
	p := policy(policies, an)
	hangIn := p.HangIn(&c.view, an)
	if err := refused(p); err != nil {
		return err
	}
	c.takeStance(hangIn)
	return nil
}

// askConsequence settles an outright win: a negotiated outcome if the
// winner proposes one and the loser accepts ("either of us can, at any
// time, fall back on the standard"), otherwise the winner's choice of
// exhaustion or injury for each member of the losing side.
func (c *State) askConsequence(policies []Policy) error {
	w, l := policy(policies, c.Challenger), policy(policies, c.Answerer)
	v := &c.view
	s := w.Propose(v)
	if err := refused(w); err != nil {
		return err
	}
	accepted := s != nil && l.Accept(v, s)
	if err := refused(l); err != nil {
		return err
	}
	if accepted {
		if err := c.settle(s); err != nil {
			return fmt.Errorf("challenge: side %s's settlement: %w", c.Sides[c.Challenger].Name, err)
		}
		return nil
	}
	losses := c.losses[:len(c.Sides[c.Answerer].Members)]
	for m := range losses {
		losses[m] = Loss{}
		if !c.Sides[c.Answerer].Members[m].Out {
			w.Loss(v, c.Answerer, m, &losses[m])
			if err := refused(w); err != nil {
				return err
			}
		}
	}
	if err := c.injure(losses); err != nil {
		return fmt.Errorf("challenge: side %s's loss policy: %w", c.Sides[c.Challenger].Name, err)
	}
	return nil
}

// toAsk returns the next side Step asks whether to cross a name off in
// the pending comparison, or -1 when none is left: in an exchange the
// answerer, then the challenger; at a cast every side in order. A side is
// asked until it passes or reaches Rules.CrossOffsPerComparison, and only
// while it has a name it may cross off.
func (c *State) toAsk() int {
	ask := func(i int) bool { return !c.Sides[i].Asked && c.firstCrossable(i) >= 0 }
	if c.Phase == PhaseAnswered {
		for _, i := range [2]int{c.Answerer, c.Challenger} {
			if ask(i) {
				return i
			}
		}
		return -1
	}
	for i := range c.Sides {
		if c.In(i) && ask(i) {
			return i
		}
	}
	return -1
}

// askCross asks side i's policy whether to cross a name off, as one step:
// an owe-list index crosses that name off and rolls the advantage die; -1
// passes. Any other answer, or an entry the side may not cross off, is an
// error and changes nothing.
func (c *State) askCross(r *dice.Roller, policies []Policy, i int) error {
	p := policy(policies, i)
	k := p.CrossOff(&c.view, i)
	if err := refused(p); err != nil {
		return err
	}
	if k == -1 {
		c.Sides[i].Asked = true
		return nil
	}
	if k < -1 {
		return fmt.Errorf("challenge: side %s's cross-off policy answered %d: give an owe-list index 0..%d or -1 for none",
			c.Sides[i].Name, k, len(c.Owe)-1)
	}
	if err := c.crossOff(r, i, k); err != nil {
		return fmt.Errorf("challenge: side %s's cross-off policy: %w", c.Sides[i].Name, err)
	}
	return nil
}
