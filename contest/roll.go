package contest

import (
	"fmt"

	"github.com/stakesrpg/stakes/dice"
)

// Roll is side Turn rolling the given picks (ignored for the Trouble Pool;
// nil: the side's planned pool, Side.Base, as TimedRoll's nil is the
// timed action's): it opens the stakes, raises them, or fails to. Plot
// Points for extra or repeated traits are spent from the character first
// ("Plot Points must be spent and the pool must be completely built before
// the dice are rolled").
func (e *Engine) Roll(s *State, r *dice.Roller, picks []Pick) error {
	if r == nil {
		return fmt.Errorf("contest: roll: %w", dice.ErrNilRoller)
	}
	a, err := e.action(s, "roll", PhaseOpen, PhaseTurn)
	if err != nil {
		return err
	}
	c := a.Sides[a.Turn].Char
	if c == TroublePool {
		e.roll(s, r, nil, nil, nil, 0)
		return nil
	}
	if picks == nil {
		picks = a.Sides[a.Turn].Base
	}
	cost, ds, err := s.price(c, picks, s.buf.pool[:0])
	s.buf.pool = ds
	if err == nil {
		err = s.canPay(c, cost)
	}
	if err != nil {
		return err
	}
	e.roll(s, r, picks, nil, ds, cost)
	return nil
}

// roll is Roll once its picks (picks, then more) are checked: ds are the
// dice they roll and cost what they cost (the Trouble Pool rolls its own
// dice).
func (e *Engine) roll(s *State, r *dice.Roller, picks, more []Pick, ds []dice.Die, cost int) {
	a := s.Action
	t := a.Turn
	sd := &a.Sides[t]
	if sd.Char == TroublePool {
		sd.Picks, sd.Dice = sd.Picks[:0], append(sd.Dice[:0], s.Trouble...)
	} else {
		e.spend(s, t, sd.Char, cost)
		sd.Picks = append(append(sd.Picks[:0], picks...), more...)
		sd.Dice = append(append(sd.Dice[:0], ds...), sd.Gang...)
	}
	sd.Faces = r.RollDice(sd.Dice, sd.Faces)
	e.rolled(s, t)
}

// spend has side t's character c pay cost Plot Points (checked).
func (e *Engine) spend(s *State, t, c, cost int) {
	if cost == 0 {
		return
	}
	s.Characters[c].PlotPoints -= cost
	if e.Sink != nil {
		e.emit(s, Event{Kind: EvPlotPoints, Side: t, Char: c, Value: -cost})
	}
}

// rolled finishes side t's roll once its faces are in.
func (e *Engine) rolled(s *State, t int) {
	a := s.Action
	sd := &a.Sides[t]
	sd.Total = s.Rules.total(sd.Faces) + sd.Aid
	if !s.Rules.AidLasts {
		sd.Aid = 0 // the aiding die counts on this total only
	}
	sd.Rolled = true
	a.Rolls++
	a.Ones, a.OnesChar = 0, NoOne
	if sd.Char != TroublePool && !s.Characters[sd.Char].GM {
		a.Ones, a.OnesSide = countOnes(sd.Faces), t
	}
	if e.Sink != nil {
		e.emit(s, Event{Kind: EvRolled, Side: t, Char: sd.Char, Value: sd.Total, Dice: sd.Dice, Faces: sd.Faces})
	}
	if a.Phase == PhaseOpen {
		e.opened(s, t)
		return
	}
	e.answer(s, t)
}

// opened handles an opening roll.
func (e *Engine) opened(s *State, t int) {
	a := s.Action
	if !a.AllRoll {
		e.setStakes(s, a, t)
		return
	}
	if t+1 < len(a.Sides) {
		a.Turn = t + 1
		return
	}
	// Everyone has rolled: the highest sets the stakes. A tie for highest
	// means everyone rolls again (Rules.AllRollTieReroll), or else the
	// first of the tied sides sets them. [ours]
	best, who, tie := -1, -1, false
	for i := range a.Sides {
		switch v := a.Sides[i].Total; {
		case v > best:
			best, who, tie = v, i, false
		case v == best:
			tie = true
		}
	}
	if tie && s.Rules.AllRollTieReroll {
		a.Turn = 0
		return
	}
	if s.Rules.AllRollGiveInFree {
		// The others may Give In right away, as if they had never
		// picked up dice.
		for i := range a.Sides {
			a.Sides[i].Rolled = i == who
		}
	}
	e.setStakes(s, a, who)
}

// setStakes has side t's last total set the stakes.
func (e *Engine) setStakes(s *State, a *Action, t int) {
	a.Holder, a.Stakes, a.Phase, a.Escalated = t, a.Sides[t].Total, PhaseTurn, true
	a.Turn = a.next(t)
	if e.Sink != nil {
		e.emit(s, Event{Kind: EvStakes, Side: t, Char: a.Sides[t].Char, Value: a.Stakes})
	}
}

// beats reports whether a total beats the stakes: strictly higher, a tie
// going to the stakes holder (Rules.TiesToHolder).
func (r *Rules) beats(total, stakes int) bool {
	return total > stakes || (!r.TiesToHolder && total == stakes)
}

// floors returns the least margin a Final Push may leave a losing
// challenger and a losing holder: the margin at which each still loses.
func (r *Rules) floors() (challenger, holder int) {
	if r.PushTieLoses {
		return 0, 0 // a tie reached by pushing loses all the same
	}
	if r.TiesToHolder {
		return 0, 1
	}
	return 1, 0
}

// answer handles side t's roll against the stakes.
func (e *Engine) answer(s *State, t int) {
	a := s.Action
	sd := &a.Sides[t]
	cf, hf := s.Rules.floors()
	if !s.Rules.beats(sd.Total, a.Stakes) {
		a.Escalated = false
		if e.Sink != nil {
			e.emit(s, Event{Kind: EvFailed, Side: t, Char: sd.Char, Value: a.Stakes - sd.Total})
		}
		e.lose(s, t, a.Stakes-sd.Total, cf)
		return
	}
	m := sd.Total - a.Stakes
	h := a.Holder
	if a.Kind == Basic {
		// The actor beat the stakes; the opposition has no answer.
		e.lose(s, h, m, hf)
		return
	}
	// A raise whittles down the gang of the side that held the stakes
	// ("Ganging Up").
	off := s.Rules.MookOff
	if m >= s.Rules.Extraordinary {
		off = s.Rules.MookOffExtraordinary
	}
	e.mooksOff(s, h, off)
	a.Holder, a.Stakes, a.Escalated = t, sd.Total, true
	a.Raises++
	a.Turn = a.next(t)
	if s.Rules.RaiseAnsweredByBeaten {
		a.Turn = h // the side whose stakes were beaten answers first
	}
	if e.Sink != nil {
		e.emit(s, Event{Kind: EvRaised, Side: t, Char: sd.Char, Value: sd.Total})
	}
}

// mooksOff knocks up to n dice off side h's gang: the largest first, or
// the smallest (Rules.MookOffLargest).
func (e *Engine) mooksOff(s *State, h, n int) {
	hs := &s.Action.Sides[h]
	for ; n > 0 && len(hs.Gang) > 0; n-- {
		var d dice.Die
		if s.Rules.MookOffLargest {
			d = hs.Gang[len(hs.Gang)-1]
			hs.Gang = hs.Gang[:len(hs.Gang)-1]
		} else {
			d = hs.Gang[0]
			hs.Gang = append(hs.Gang[:0], hs.Gang[1:]...)
		}
		if e.Sink != nil {
			e.emit(s, Event{Kind: EvMookOff, Side: h, Char: hs.Char, Die: d})
		}
	}
}

// lose puts side t on the losing end by margin m: a Final Push if one can
// save it from Trauma, else the loss itself. floor is the least margin a
// push may leave.
func (e *Engine) lose(s *State, t, m, floor int) {
	a := s.Action
	if _, ok := e.pushReach(s, t, m, floor); ok {
		a.Phase, a.Turn, a.Margin, a.PushFloor = PhasePush, t, m, floor
		return
	}
	e.settle(s, t, m)
}

// settle applies side t's loss by margin m: the winner (the stakes holder,
// or in a basic action the actor) deals a Complication or, by the
// Extraordinary margin, Knocked Out and Trauma; the Trouble Pool loses dice
// instead; the loser earns a Reflection Point and its aiders take harm.
func (e *Engine) settle(s *State, t, m int) {
	a := s.Action
	w := a.Holder
	if w == t {
		w = 1 // a basic action's actor beat the opposition
	}
	sd := &a.Sides[t]
	sd.Out = true
	xo := m >= s.Rules.Extraordinary
	if sd.Char == TroublePool {
		// Each die off the Trouble Pool is the winner's choice, made as
		// the harm is dealt.
		off := s.Rules.TroubleOffOnWin
		if xo {
			off = s.Rules.TroubleOffOnExtraordinary
		}
		for range off {
			a.Harms = append(a.Harms, Harm{From: w, To: TroublePool})
		}
	} else {
		a.Harms = append(a.Harms, Harm{From: w, To: sd.Char, Trauma: xo})
		e.reflect(s, sd.Char)
	}
	for _, c := range sd.Aiders {
		a.Harms = append(a.Harms, Harm{From: w, To: c})
	}
	end := EndBeaten
	if xo {
		end = EndExtraordinary
	}
	e.afterLoss(s, t, end)
}

// afterLoss ends the action when one side is left, and otherwise passes the
// turn on; harms queued are applied first.
func (e *Engine) afterLoss(s *State, t int, end End) {
	a := s.Action
	in, last := 0, -1
	for i := range a.Sides {
		if !a.Sides[i].Out {
			in, last = in+1, i
		}
	}
	if in <= 1 {
		a.Winner, a.End = last, end
		if e.Sink != nil && last >= 0 {
			e.emit(s, Event{Kind: EvWon, Side: last, Char: a.Sides[last].Char})
		}
	} else {
		a.Turn = a.next(t)
		if a.Turn == a.Holder {
			a.Turn = a.next(a.Turn)
		}
	}
	switch {
	case len(a.Harms) > 0:
		a.Phase = PhaseInflict
	case in <= 1:
		a.Phase = PhaseDone
	default:
		a.Phase = PhaseTurn
	}
}

func (e *Engine) reflect(s *State, c int) {
	if s.Rules.ReflectionOnLoss == 0 {
		return
	}
	s.Characters[c].Reflection += s.Rules.ReflectionOnLoss
	if e.Sink != nil {
		e.emit(s, Event{Kind: EvReflection, Side: -1, Char: c, Value: s.Rules.ReflectionOnLoss})
	}
}

// GiveIn is side Turn Giving In. Before it has rolled any dice it is free
// (pay PayNothing); after, it costs a Plot Point to the stakes holder or a
// d6 Complication ("Giving In"); the Plot Point goes to the GM instead
// unless Rules.GiveInPointToHolder. It earns no Reflection Point.
func (e *Engine) GiveIn(s *State, pay Payment) error {
	a, err := e.action(s, "give in", PhaseTurn)
	if err != nil {
		return err
	}
	gc, err := e.GiveInCost(s)
	if err != nil {
		return err
	}
	if err := gc.allows(pay); err != nil {
		return err
	}
	t := a.Turn
	sd := &a.Sides[t]
	h := a.Holder
	paid := 0
	switch pay {
	case PayPlotPoint:
		paid = gc.PlotPoints
		s.Characters[sd.Char].PlotPoints -= paid
		if hc := a.Sides[h].Char; hc != TroublePool && s.Rules.GiveInPointToHolder {
			s.Characters[hc].PlotPoints = min(s.Characters[hc].PlotPoints+paid, maxPoints)
		} else {
			s.GMPlotPoints = min(s.GMPlotPoints+paid, maxPoints)
		}
	case PayComplication:
		a.Harms = append(a.Harms, Harm{From: h, To: sd.Char, Fixed: gc.Complication})
	}
	if s.Rules.AiderHarmedOnGiveIn {
		for _, c := range sd.Aiders {
			a.Harms = append(a.Harms, Harm{From: h, To: c})
		}
	}
	sd.Out, sd.GaveIn = true, true
	a.Escalated = false
	if e.Sink != nil {
		e.emit(s, Event{Kind: EvGaveIn, Side: t, Char: sd.Char, Value: paid})
	}
	e.afterLoss(s, t, EndGaveIn)
	return nil
}

// Push answers a Final Push: each pick in steps is a trait of the loser's
// last pool stepped down one rung for +PushBonus ("Final Push"). Each step
// must be taken while still losing by the Extraordinary margin, the steps
// must bring the loss under it (a push is only to avoid Trauma), and they
// may never turn the loss into a win. No steps means no push: the loss,
// and its Trauma, stand.
func (e *Engine) Push(s *State, steps []Pick) error {
	a, err := e.action(s, "make a Final Push", PhasePush)
	if err != nil {
		return err
	}
	t := a.Turn
	sd := &a.Sides[t]
	m := a.Margin
	if len(steps) > maxPicks {
		return fmt.Errorf("contest: a Final Push of %d steps: at most %d", len(steps), maxPicks)
	}
	for i, p := range steps {
		if m < s.Rules.Extraordinary {
			return fmt.Errorf("contest: Final Push step %d: the side is losing by %d, less than %d: no Trauma to avoid", i+1, m, s.Rules.Extraordinary)
		}
		if m-s.Rules.PushBonus < a.PushFloor {
			return fmt.Errorf("%w: step %d would bring the margin to %d", ErrPushWins, i+1, m-s.Rules.PushBonus)
		}
		if p.Owner != sd.Char || !containsPick(sd.Picks, p) {
			return fmt.Errorf("contest: Final Push step %d: only a trait of the character's own that it rolled may be lowered", i+1)
		}
		tr := &s.Characters[p.Owner].Traits[p.Trait]
		if !tr.Kind.Own() {
			return fmt.Errorf("contest: Final Push step %d: %q is a %s, not the character's own trait", i+1, tr.Name, tr.Kind)
		}
		k := 0
		for _, q := range steps[:i+1] {
			if q == p {
				k++
			}
		}
		if stepsLeft(tr.Die) < k {
			return fmt.Errorf("contest: Final Push step %d: %q (%v) cannot be lowered %d times", i+1, tr.Name, tr.Die, k)
		}
		m -= s.Rules.PushBonus
	}
	if len(steps) > 0 && m >= s.Rules.Extraordinary {
		return fmt.Errorf("contest: a Final Push of %d steps leaves the side losing by %d, still %d or more: it avoids no Trauma; push further or not at all", len(steps), m, s.Rules.Extraordinary)
	}
	e.pushed(s, steps, m)
	return nil
}

func containsPick(ps []Pick, p Pick) bool {
	for _, q := range ps {
		if q == p {
			return true
		}
	}
	return false
}

// pushed is Push once its steps are checked: it lowers the traits, and
// settles side Turn's loss, now by margin m.
func (e *Engine) pushed(s *State, steps []Pick, m int) {
	a := s.Action
	t := a.Turn
	sd := &a.Sides[t]
	for _, p := range steps {
		tr := &s.Characters[p.Owner].Traits[p.Trait]
		if tr.Original == dice.Gone {
			tr.Original = tr.Die // lost for good until bought back
		}
		tr.Die, _ = tr.Die.StepDown()
		if e.Sink != nil {
			e.emit(s, Event{Kind: EvPushed, Side: t, Char: p.Owner, Name: tr.Name, Die: tr.Die})
		}
	}
	a.Pushes += len(steps)
	if t != a.Holder {
		sd.Total += len(steps) * s.Rules.PushBonus
	}
	e.settle(s, t, m)
}

// stepsLeft is how many times d can step down before it is gone.
func stepsLeft(d dice.Die) int {
	// The ladder is d4, d6, ... d12: the even sizes from 4 to 12, d4
	// stepping down once.
	if d >= dice.D4 && d <= dice.D12 && d%2 == 0 {
		return int(d)/2 - 1
	}
	return 0
}
