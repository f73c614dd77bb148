package contest

import (
	"fmt"

	"github.com/stakesrpg/stakes/dice"
)

// Table says who decides: a Policy per character (by index; nil or missing
// means the default) and the GM's policy (buying 1s, the Trouble Pool's
// choices, waiving, the out-of-time Complication, cashing Reflection).
type Table struct {
	Chars []Policy
	GM    Policy
}

// of returns character c's policy (the GM's for the Trouble Pool).
func (tb *Table) of(c int) Policy {
	if c >= 0 && c < len(tb.Chars) && tb.Chars[c] != nil {
		return tb.Chars[c]
	}
	if c == TroublePool {
		return tb.gm()
	}
	return Sensible{}
}

func (tb *Table) gm() Policy {
	if tb.GM != nil {
		return tb.GM
	}
	return Sensible{}
}

// maxPlaySteps bounds the steps Play takes: far more than any action
// needs (each raise must beat the last), so that no state can make Play
// run forever. [ours]
const maxPlaySteps = 10000

// Play checks s whole, then plays the action under way in it (a basic or
// contested Action, or a Timed action: the state says which) to its end
// under e.Policies, one Step at a time, the same steps a tool would take;
// an illegal answer from a policy stops it with an error naming the
// policy. After an Action each side may buy back traits a Final Push
// lowered, then the GM may turn its characters' Reflection Points into
// Trouble (a step for each question; see Step). A nil r is
// dice.ErrNilRoller.
func (e *Engine) Play(s *State, r *dice.Roller) error {
	if r == nil {
		return fmt.Errorf("contest: play: %w", dice.ErrNilRoller)
	}
	if err := s.Check(); err != nil {
		return err
	}
	return e.play(s, r)
}

// play is Play on a state known to be whole (a Runner's, which it built
// itself from a validated scenario).
func (e *Engine) play(s *State, r *dice.Roller) error {
	if s.Done() {
		return e.doneErr(s, "play")
	}
	for n := 0; !s.Done(); n++ {
		if n == maxPlaySteps {
			return fmt.Errorf("contest: the action has not ended after %d steps", maxPlaySteps)
		}
		if err := e.step(s, r); err != nil {
			return err
		}
	}
	return nil
}

// Done reports whether nothing is left to play in s: no Action or Timed
// action is under way, or the one under way has ended with nothing left
// to decide (the GM has answered its last roll's 1s, and no one is left
// to spend Reflection Points after it: Action.Reflecting).
func (s *State) Done() bool { return !s.timedLive() && !s.actionLive() }

// actionLive reports whether s's Action still has a step to take.
func (s *State) actionLive() bool { return s.Action != nil && !actionOver(s.Action) }

// timedLive reports whether s's Timed action still has a step to take.
func (s *State) timedLive() bool { return s.Timed != nil && !timedOver(s.Timed) }

// doneErr says why a step cannot be taken on a state with nothing left to
// play.
func (e *Engine) doneErr(s *State, what string) error {
	if s.Action == nil && s.Timed == nil {
		return fmt.Errorf("%w: cannot %s: no action is under way (Begin or BeginTimed one)", ErrPhase, what)
	}
	return fmt.Errorf("%w: cannot %s: the action has ended", ErrPhase, what)
}

// actionOver reports whether a has ended with nothing left to decide: the
// GM has answered the last roll's 1s, and the spending of Reflection
// Points that follows the action is over (Action.Reflecting).
func actionOver(a *Action) bool { return a.Phase == PhaseDone && a.Ones == 0 && a.Reflecting == 0 }

// Step takes the next step of the action under way in s (its Timed action
// if one is, else its Action), asking e.Policies: exactly one of the
// engine's steps, every answer checked before anything changes, so that a
// refused one changes nothing. Once an Action has ended, each of its sides
// in turn may buy back traits a Final Push lowered, then the GM may turn
// its characters' Reflection Points into Trouble: a step for each question
// (Action.Reflecting), taken only while someone has the points to spend.
// A nil r is dice.ErrNilRoller.
func (e *Engine) Step(s *State, r *dice.Roller) error {
	if r == nil {
		return fmt.Errorf("contest: step: %w", dice.ErrNilRoller)
	}
	return e.step(s, r)
}

// step is Step once r is known.
func (e *Engine) step(s *State, r *dice.Roller) error {
	tb := &e.Policies
	switch {
	case s.timedLive():
		return e.decideTimed(s, r, tb)
	case !s.actionLive():
		return e.doneErr(s, "take a step")
	case s.Action.Reflecting > 0:
		return e.decideReflection(s, tb)
	}
	if err := e.decide(s, r, tb); err != nil {
		return err
	}
	if a := s.Action; a.Phase == PhaseDone && a.Ones == 0 {
		a.Reflecting = s.reflectionNext(0) + 1
	}
	return nil
}

// reflectionNext is the position, from k on, of the next question of the
// spending of Reflection Points after s's action (see Action.Reflecting),
// or -1 when none is left: side i's character buying back lowered traits
// (k = i) while it holds the points for a step, then the GM cashing side
// i's GM character's points (k = len(Sides)+i) while it holds any.
func (s *State) reflectionNext(k int) int {
	a := s.Action
	n := len(a.Sides)
	for ; k < 2*n; k++ {
		cash, i := k >= n, k
		if cash {
			i -= n
		}
		c := a.Sides[i].Char
		if c < 0 || c >= len(s.Characters) {
			continue
		}
		ch := &s.Characters[c]
		if cash && ch.GM && ch.Reflection > 0 || !cash && ch.Reflection >= s.Rules.RebuyCost && ch.lowered() {
			return k
		}
	}
	return -1
}

// decideReflection asks the question of the spending after the action
// that Action.Reflecting names (or the next one still to ask, should the
// state have changed since) and moves on: to the same character while it
// buys traits back, else to the next question.
func (e *Engine) decideReflection(s *State, tb *Table) error {
	a := s.Action
	n := len(a.Sides)
	k := s.reflectionNext(a.Reflecting - 1)
	if k < 0 {
		a.Reflecting = 0
		return nil
	}
	next := k + 1
	if k < n {
		bought, err := e.rebuyOne(s, a.Sides[k].Char, tb)
		if err != nil {
			return err
		}
		if bought {
			next = k
		}
	} else if err := e.cashOne(s, k-n, a.Sides[k-n].Char, tb); err != nil {
		return err
	}
	a.Reflecting = s.reflectionNext(next) + 1
	return nil
}

// rebuyOne asks character c's policy which lowered trait to buy back, and
// by how many steps; it reports whether it bought any.
func (e *Engine) rebuyOne(s *State, c int, tb *Table) (bool, error) {
	ch := &s.Characters[c]
	p := tb.of(c)
	v := s.view()
	v.Side, v.Char, v.Target = -1, c, -1
	v.Reflection, v.RebuyCost = ch.Reflection, s.Rules.RebuyCost
	i, n := p.Rebuy(v, ch)
	if err := refused(p); err != nil || n == 0 {
		return false, err
	}
	if err := e.Rebuy(s, c, i, n); err != nil {
		return false, fmt.Errorf("policy %s buying back a trait: %w", p.Name(), err)
	}
	return true, nil
}

// cashOne asks the GM how many of side t's GM character c's Reflection
// Points to turn into Trouble.
func (e *Engine) cashOne(s *State, t, c int, tb *Table) error {
	g := tb.gm()
	v := s.view()
	v.Kind, v.Side, v.Char, v.Target = s.Action.Kind, t, c, -1
	v.Reflection, v.TroubleRoom = s.Characters[c].Reflection, s.troubleRoom()
	n := g.Cash(v)
	if err := refused(g); err != nil {
		return err
	}
	if err := e.CashReflection(s, c, n); err != nil {
		return fmt.Errorf("policy %s cashing Reflection: %w", g.Name(), err)
	}
	return nil
}

// decide takes one step of s's action by asking the policies: the GM's
// answer to the 1s of the last roll first, then the step of the phase.
func (e *Engine) decide(s *State, r *dice.Roller, tb *Table) error {
	a := s.Action
	if a.Ones > 0 {
		return e.decideOnes(s, tb)
	}
	switch a.Phase {
	case PhaseOpen, PhaseTurn:
		return e.decideTurn(s, r, tb)
	case PhasePush:
		return e.decidePush(s, tb)
	case PhaseInflict:
		return e.decideInflict(s, r, tb)
	case PhaseInterfere:
		for t := range a.Sides {
			sd := &a.Sides[t]
			if sd.Decided {
				continue
			}
			p := tb.of(sd.Char)
			ch := &s.Characters[sd.Char]
			v := s.view()
			v.Kind, v.Side, v.Char, v.Target = a.Kind, t, sd.Char, -1
			v.Stakes, v.Holder, v.Rolled = a.Stakes, a.Holder, sd.Rolled
			v.PlotPoints, v.Price, v.State = ch.PlotPoints, s.Rules.ContinueCost, s
			// A side that cannot pay has no choice to make.
			pay := false
			if ch.PlotPoints >= s.Rules.ContinueCost {
				pay = p.Continue(v)
				if err := refused(p); err != nil {
					return err
				}
			}
			if err := e.Continue(s, t, pay); err != nil {
				return fmt.Errorf("policy %s answering interference: %w", p.Name(), err)
			}
			return nil
		}
	case PhaseBrawl:
		return e.Brawl(s, r)
	}
	return fmt.Errorf("%w: no step to take in phase %s", ErrPhase, a.Phase)
}

// decideOnes asks the GM how many of the last roll's 1s to buy.
func (e *Engine) decideOnes(s *State, tb *Table) error {
	a := s.Action
	g := tb.gm()
	v := s.view()
	v.Kind, v.Side, v.Char, v.Target = a.Kind, a.OnesSide, -1, -1
	v.Ones, v.TroubleRoom, v.State = a.Ones, s.troubleRoom(), s
	n := g.BuyOnes(v)
	if err := refused(g); err != nil {
		return err
	}
	if err := e.BuyOnes(s, n); err != nil {
		return fmt.Errorf("policy %s buying 1s: %w", g.Name(), err)
	}
	return nil
}

// decideTurn takes the step of the side to act: a planned interferer may
// step in first; else the side's aider rolls (once); else the side Gives
// In or rolls.
func (e *Engine) decideTurn(s *State, r *dice.Roller, tb *Table) error {
	a := s.Action
	if in, err := e.decideInterfere(s, r, tb); in || err != nil {
		return err
	}
	t := a.Turn
	sd := &a.Sides[t]
	if c, ok := sd.Aider.Get(); ok && len(sd.Aiders) == 0 && !s.Characters[c].Out() {
		if err := e.Aid(s, r, t, c, sd.AidPicks); err != nil {
			return fmt.Errorf("aid for side %d: %w", t, err)
		}
		return nil
	}
	p := tb.of(sd.Char)
	v := &s.buf.view
	e.turnView(s, t, v)
	if sd.Char == TroublePool {
		e.roll(s, r, nil, nil, nil, 0)
		return nil
	}
	if a.Phase == PhaseTurn {
		if gave, err := e.decideGiveIn(s, p, v, sd.Rolled); gave || err != nil {
			return err
		}
	}
	// The side rolls its planned pool with the extras its policy buys,
	// priced when its view was (turnView).
	n := p.Extras(v)
	if err := refused(p); err != nil {
		return err
	}
	// What the side can afford is read from its priced pool, not from
	// the view a policy or Chooser was handed.
	pl := &s.buf.plan
	if most := len(pl.costs) - 1; n < 0 || n > most {
		return fmt.Errorf("policy %s: %d extra dice: %s can afford 0..%d", p.Name(), n, s.Characters[sd.Char].Name, most)
	}
	if n == 0 && pl.err != nil {
		return fmt.Errorf("policy %s rolling: %w", p.Name(), pl.err)
	}
	e.roll(s, r, sd.Base, sd.Extra[:n], pl.dice[:len(sd.Base)+n], pl.costs[n])
	return nil
}

// decideInterfere lets a planned interferer step in, when it may and its
// policy says so; it reports whether it did.
func (e *Engine) decideInterfere(s *State, r *dice.Roller, tb *Table) (bool, error) {
	a := s.Action
	ic, ok := a.Planned.Get()
	if !ok || a.Phase != PhaseTurn || !a.Escalated || a.Interfered >= s.Rules.Interferences {
		return false, nil
	}
	ch := &s.Characters[ic]
	cost, err := s.cost(ic, a.IPicks)
	if err != nil || e.canInterfere(s, a, ic) != nil || ch.PlotPoints < cost+s.Rules.InterfereCost {
		return false, nil
	}
	p := tb.of(ic)
	v := s.view()
	v.Kind, v.Side, v.Char, v.Target = a.Kind, -1, ic, -1
	v.Stakes, v.Holder, v.PlotPoints, v.State = a.Stakes, a.Holder, ch.PlotPoints, s
	in := p.Interfere(v)
	if err := refused(p); err != nil || !in {
		return false, err
	}
	if err := e.Interfere(s, r, ic, a.IPicks); err != nil {
		return false, fmt.Errorf("policy %s interfering: %w", p.Name(), err)
	}
	return true, nil
}

// decideGiveIn asks side Turn's policy p, shown v, whether to Give In, and
// how to pay when the side has rolled; it reports whether the side gave
// in.
func (e *Engine) decideGiveIn(s *State, p Policy, v *View, rolled bool) (bool, error) {
	give := p.GiveIn(v)
	if err := refused(p); err != nil || !give {
		return false, err
	}
	pay := PayNothing
	if rolled {
		pay = p.Pay(v)
		if err := refused(p); err != nil {
			return false, err
		}
	}
	if err := e.GiveIn(s, pay); err != nil {
		return false, fmt.Errorf("policy %s giving in: %w", p.Name(), err)
	}
	return true, nil
}

// decidePush asks the loser whether to make a Final Push, and which traits
// each step lowers.
func (e *Engine) decidePush(s *State, tb *Table) error {
	a := s.Action
	t := a.Turn
	sd := &a.Sides[t]
	p := tb.of(sd.Char)
	v := s.view()
	v.Kind, v.Side, v.Char, v.Target = a.Kind, t, sd.Char, -1
	v.Stakes, v.Holder, v.Rolled, v.Margin = a.Stakes, a.Holder, true, a.Margin
	var steps []Pick
	if need, ok := e.pushReach(s, t, a.Margin, a.PushFloor); ok {
		push := p.Push(v)
		if err := refused(p); err != nil {
			return err
		}
		if push {
			var err error
			if steps, err = e.choosePush(s, sd, p, v, need); err != nil {
				return err
			}
		}
	}
	if err := e.Push(s, steps); err != nil {
		return fmt.Errorf("policy %s pushing: %w", p.Name(), err)
	}
	return nil
}

// choosePush asks policy p, shown v, for each of the need steps of side
// sd's Final Push, in scratch space.
func (e *Engine) choosePush(s *State, sd *Side, p Policy, v *View, need int) ([]Pick, error) {
	opts := pushOpts(s, sd, s.buf.opts[:0])
	s.buf.opts = opts
	steps := s.buf.steps[:0]
	for len(steps) < need {
		v.Pushes = len(steps)
		k := p.PushStep(v, opts)
		if err := refused(p); err != nil {
			return nil, err
		}
		i := -1
		for j := range opts {
			if opts[j].Trait == k {
				i = j
			}
		}
		switch {
		case i < 0:
			return nil, fmt.Errorf("policy %s: Final Push step %d lowers trait %d: not a trait of %s's own that it rolled", p.Name(), len(steps)+1, k, s.Characters[sd.Char].Name)
		case opts[i].Die == dice.Gone:
			return nil, fmt.Errorf("policy %s: Final Push step %d lowers %q, already gone", p.Name(), len(steps)+1, s.Characters[sd.Char].Traits[k].Name)
		}
		opts[i].Die, _ = opts[i].Die.StepDown()
		v.Margin -= s.Rules.PushBonus
		steps = append(steps, Pick{sd.Char, k})
	}
	s.buf.steps = steps
	return steps, nil
}

// decideInflict asks the side dealing the first waiting harm where it
// lands (and the GM whether to waive a basic action's Complication).
func (e *Engine) decideInflict(s *State, r *dice.Roller, tb *Table) error {
	a := s.Action
	h := a.Harms[0]
	p := tb.of(a.Sides[h.From].Char)
	v := s.view()
	v.Kind, v.Side, v.Char = a.Kind, h.From, a.Sides[h.From].Char
	v.Target, v.Trauma = h.To, h.Trauma
	if h.To == TroublePool {
		return e.decideTroubleOff(s, p, v)
	}
	if e.CanWaive(s) {
		waive := p.Waive(v)
		if err := refused(p); err != nil {
			return err
		}
		if waive {
			if err := e.Waive(s); err != nil {
				return fmt.Errorf("policy %s waiving: %w", p.Name(), err)
			}
			return nil
		}
	}
	onto := p.Onto(v, &s.Characters[h.To])
	if err := refused(p); err != nil {
		return err
	}
	opts := effectOptions(s, a, s.buf.steps[:0])
	s.buf.steps = opts
	use := opts[:0]
	for _, o := range opts {
		ok := p.UseEffect(v, &s.Characters[o.Owner].Traits[o.Trait])
		if err := refused(p); err != nil {
			return err
		}
		if ok {
			use = append(use, o)
		}
	}
	if err := e.Inflict(s, r, onto, use); err != nil {
		return fmt.Errorf("policy %s inflicting: %w", p.Name(), err)
	}
	return nil
}

// decideTroubleOff asks the winner's policy p, shown v, which die of the
// Trouble Pool comes off (none when it is empty), in an action or a timed
// action's TimedTroublePhase.
func (e *Engine) decideTroubleOff(s *State, p Policy, v *View) error {
	k := -1
	if len(s.Trouble) > 0 {
		k = p.TroubleOff(v, s.Trouble)
		if err := refused(p); err != nil {
			return err
		}
	}
	if err := e.TakeTrouble(s, k); err != nil {
		return fmt.Errorf("policy %s taking a Trouble die: %w", p.Name(), err)
	}
	return nil
}

// timedOver reports whether t has ended with nothing left to decide.
func timedOver(t *Timed) bool { return t.Phase == TimedDone && t.Ones == 0 }

// decideTimed takes one step of s's timed action by asking the
// policies: the GM's answer to the last roll's 1s first, then in a gap the
// first helper still able may try to buy time, then the next step.
func (e *Engine) decideTimed(s *State, r *dice.Roller, tb *Table) error {
	t := s.Timed
	if t.Ones > 0 {
		return e.timedOnes(s, tb)
	}
	v := s.view()
	v.Side, v.Char, v.Target = -1, t.Actor, -1
	v.Beats, v.StepsLeft, v.PlotPoints, v.State = t.Beats, len(t.Steps)-t.Step, s.Characters[t.Actor].PlotPoints, s
	switch t.Phase {
	case TimedGap:
		h, p, err := e.helperFor(s, tb, v)
		switch {
		case err != nil:
			return err
		case p == nil:
			return e.TimedRoll(s, r, nil)
		}
		if err := e.BuyTime(s, r, h); err != nil {
			return fmt.Errorf("policy %s buying time: %w", p.Name(), err)
		}
		return nil
	case TimedStepPhase:
		return e.TimedRoll(s, r, nil)
	case TimedChoose:
		p := tb.of(t.Actor)
		objective := p.Objective(v)
		if err := refused(p); err != nil {
			return err
		}
		return e.Choose(s, objective)
	case TimedTroublePhase:
		return e.decideTroubleOff(s, tb.of(t.Actor), v)
	case TimedInflictPhase:
		g := tb.gm()
		v.Target = t.Actor
		onto := g.Onto(v, &s.Characters[t.Actor])
		if err := refused(g); err != nil {
			return err
		}
		if err := e.TimedInflict(s, r, onto); err != nil {
			return fmt.Errorf("policy %s inflicting: %w", g.Name(), err)
		}
		return nil
	}
	return fmt.Errorf("%w: no step to take in timed phase %s", ErrPhase, t.Phase)
}

// helperFor returns the helper who tries to buy time in this gap, and its
// policy: the first one still able, if its policy says so; nil if none.
func (e *Engine) helperFor(s *State, tb *Table, v *View) (int, Policy, error) {
	t := s.Timed
	if t.Bought {
		return -1, nil, nil
	}
	for h := range t.Helpers {
		hp := &t.Helpers[h]
		if hp.Out || s.Characters[hp.Char].Out() {
			continue
		}
		p := tb.of(hp.Char)
		buy := p.BuyTime(v)
		if err := refused(p); err != nil || !buy {
			return -1, nil, err
		}
		return h, p, nil
	}
	return -1, nil, nil
}

// timedOnes asks the GM about the 1s of the timed action's last roll.
func (e *Engine) timedOnes(s *State, tb *Table) error {
	t := s.Timed
	if t.Ones == 0 {
		return nil
	}
	g := tb.gm()
	v := s.view()
	v.Side, v.Char, v.Target = -1, -1, -1
	v.Ones, v.TroubleRoom, v.State = t.Ones, s.troubleRoom(), s
	n := g.BuyOnes(v)
	if err := refused(g); err != nil {
		return err
	}
	if err := e.BuyOnes(s, n); err != nil {
		return fmt.Errorf("policy %s buying 1s: %w", g.Name(), err)
	}
	return nil
}
