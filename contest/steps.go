package contest

import (
	"fmt"
	"slices"

	"github.com/stakesrpg/stakes/dice"
)

// BuyOnes is the GM's answer to the 1s of the last player character's roll
// in the action under way (or, when none is, the last one): it buys n of
// them, each giving that character Rules.OnePlotPoints and adding a
// TroubleDie to the Trouble Pool, and the rest go unbought (the GM answers
// once a roll).
func (e *Engine) BuyOnes(s *State, n int) error {
	left, bought, c, err := e.onesOnOffer(s)
	if err != nil {
		return err
	}
	have := 0
	if left != nil {
		have = *left
	}
	if n < 0 || n > have {
		return fmt.Errorf("contest: buying %d 1s: the last roll has %d to buy", n, have)
	}
	if room := s.troubleRoom(); n > room {
		return fmt.Errorf("contest: buying %d 1s: the Trouble Pool has room for %d more dice (rules.max_trouble %d)", n, room, s.Rules.MaxTrouble)
	}
	if n == 0 {
		if left != nil {
			*left = 0 // answered: none bought
		}
		return nil
	}
	*left = 0 // answered: the rest go unbought
	*bought += n
	s.Characters[c].PlotPoints = min(s.Characters[c].PlotPoints+n*s.Rules.OnePlotPoints, maxPoints)
	for range n {
		s.Trouble = append(s.Trouble, s.Rules.TroubleDie)
	}
	if e.Sink != nil {
		e.emit(s, Event{Kind: EvBoughtOnes, Side: -1, Char: c, Value: n})
		e.emit(s, Event{Kind: EvTrouble, Side: -1, Char: -1, Value: n, Die: s.Rules.TroubleDie})
	}
	return nil
}

// onesOnOffer returns the counters of the 1s the GM may buy now, and the
// character who rolled them; nil counters when there are none.
func (e *Engine) onesOnOffer(s *State) (left, bought *int, c int, err error) {
	a, t := s.Action, s.Timed
	timedFirst := t != nil && (t.Phase != TimedDone || a == nil)
	switch {
	case timedFirst:
		if t.Ones > 0 {
			return &t.Ones, &t.OnesBought, t.OnesChar, nil
		}
	case a != nil:
		if c, ok := a.OnesChar.Get(); ok && a.Ones > 0 {
			return &a.Ones, &a.Bought, c, nil // an aider's or interferer's 1s
		}
		if a.Ones > 0 && a.Sides[a.OnesSide].Char != TroublePool {
			return &a.Ones, &a.Bought, a.Sides[a.OnesSide].Char, nil
		}
	default:
		return nil, nil, -1, e.phaseErr(nil, "buy 1s")
	}
	return nil, nil, -1, nil
}

// troubleRoom is how many dice the Trouble Pool may still grow by.
func (s *State) troubleRoom() int {
	return max(0, min(s.Rules.MaxTrouble, maxDice)-len(s.Trouble))
}

// CashReflection turns n of GM character c's Reflection Points into
// TroubleDie dice for the Trouble Pool: the text lets the GM save them like
// a player or spend them this way ("Winning an Action"). The pool never
// grows past Rules.MaxTrouble dice.
func (e *Engine) CashReflection(s *State, c, n int) error {
	ch, err := s.char(c)
	if err != nil {
		return err
	}
	switch room := s.troubleRoom(); {
	case !ch.GM:
		return fmt.Errorf("contest: %s is not a GM character: only those turn Reflection Points into Trouble", ch.Name)
	case n < 0 || n > ch.Reflection:
		return fmt.Errorf("contest: cashing %d Reflection Points: %s has %d", n, ch.Name, ch.Reflection)
	case n > room:
		return fmt.Errorf("contest: cashing %d Reflection Points: the Trouble Pool has room for %d more dice (rules.max_trouble %d)", n, room, s.Rules.MaxTrouble)
	case n == 0:
		return nil
	}
	ch.Reflection -= n
	for range n {
		s.Trouble = append(s.Trouble, s.Rules.TroubleDie)
	}
	if e.Sink != nil {
		e.emit(s, Event{Kind: EvReflection, Side: -1, Char: c, Value: -n})
		e.emit(s, Event{Kind: EvTrouble, Side: -1, Char: c, Value: n, Die: s.Rules.TroubleDie})
	}
	return nil
}

// Rebuy spends character c's Reflection Points to buy back steps of its
// trait i that a Final Push lowered ("Final Push": lowered traits are lost
// until re-bought with Reflection Points), RebuyCost a step, never above
// the rating the trait was lowered from. It is a step between actions (or
// after one): not while an action is under way.
func (e *Engine) Rebuy(s *State, c, i, steps int) error {
	if s.Action != nil && s.Action.Phase != PhaseDone {
		return fmt.Errorf("%w: cannot buy traits back during an action (phase %s)", ErrPhase, s.Action.Phase)
	}
	if s.Timed != nil && s.Timed.Phase != TimedDone {
		return fmt.Errorf("%w: cannot buy traits back during a timed action (phase %s)", ErrPhase, s.Timed.Phase)
	}
	ch, err := s.char(c)
	if err != nil {
		return err
	}
	if i < 0 || i >= len(ch.Traits) {
		return fmt.Errorf("contest: %s has no trait %d (it has %d)", ch.Name, i, len(ch.Traits))
	}
	tr := &ch.Traits[i]
	if !tr.Lowered() {
		return fmt.Errorf("contest: %s's %q (%v) was not lowered by a Final Push: only lowered traits are bought back", ch.Name, tr.Name, tr.Die)
	}
	left := stepsLeft(tr.Original) - stepsLeft(tr.Die)
	if steps < 1 || steps > left {
		return fmt.Errorf("contest: buying %s's %q back %d steps: it is %v, lowered from %v, so 1..%d", ch.Name, tr.Name, steps, tr.Die, tr.Original, left)
	}
	cost := steps * s.Rules.RebuyCost
	if cost > ch.Reflection {
		return fmt.Errorf("contest: buying %s's %q back %d steps costs %d Reflection Points and %s has %d", ch.Name, tr.Name, steps, cost, ch.Name, ch.Reflection)
	}
	ch.Reflection -= cost
	tr.Die = dice.Ladder[stepsLeft(tr.Die)+steps-1]
	if tr.Die == tr.Original {
		tr.Original = dice.Gone
	}
	if e.Sink != nil {
		e.emit(s, Event{Kind: EvReflection, Side: -1, Char: c, Value: -cost})
		e.emit(s, Event{Kind: EvRebought, Side: -1, Char: c, Name: tr.Name, Die: tr.Die, Value: cost})
	}
	return nil
}

// Aid is character c helping side t: c rolls its picks and the highest die
// (1s excluded) is added to the side's next total ("Aiding"). If the side
// loses, c takes a Complication too.
func (e *Engine) Aid(s *State, r *dice.Roller, t, c int, picks []Pick) error {
	if r == nil {
		return fmt.Errorf("contest: aid: %w", dice.ErrNilRoller)
	}
	a, err := e.action(s, "aid", PhaseOpen, PhaseTurn)
	if err != nil {
		return err
	}
	if t < 0 || t >= len(a.Sides) || a.Sides[t].Out || a.Sides[t].Char == TroublePool {
		return fmt.Errorf("contest: side %d cannot be aided: no such character's side still in the action", t)
	}
	ch, err := s.char(c)
	if err != nil {
		return err
	}
	if ch.Out() {
		return fmt.Errorf("contest: %s is out of the scene and cannot aid", ch.Name)
	}
	for i := range a.Sides {
		if a.Sides[i].Char == c {
			return fmt.Errorf("contest: %s is side %d and cannot aid", ch.Name, i)
		}
	}
	if a.Interferer.Is(c) {
		return fmt.Errorf("contest: %s interfered and cannot aid", ch.Name)
	}
	cost, err := e.affordable(s, c, picks)
	if err != nil {
		return err
	}
	e.spend(s, t, c, cost)
	s.buf.pool = s.poolDice(picks, s.buf.pool)
	s.buf.faces = r.RollDice(s.buf.pool, s.buf.faces)
	v := dice.SumHighest(s.buf.faces, 1, s.Rules.excl())
	e.helperOnes(s, a, c)
	sd := &a.Sides[t]
	sd.Aid += v
	if !slices.Contains(sd.Aiders, c) {
		sd.Aiders = append(sd.Aiders, c)
	}
	if e.Sink != nil {
		e.emit(s, Event{Kind: EvAided, Side: t, Char: c, Value: v, Dice: s.buf.pool, Faces: s.buf.faces})
	}
	return nil
}

// Interfere is character c stepping into a contest between two characters
// right after an escalating roll: c pays InterfereCost to the GM and
// rolls. If the result beats the stakes the contest stops, unless both
// sides pay to go on ("Interfering").
func (e *Engine) Interfere(s *State, r *dice.Roller, c int, picks []Pick) error {
	if r == nil {
		return fmt.Errorf("contest: interfere: %w", dice.ErrNilRoller)
	}
	a, err := e.action(s, "interfere (only right after an escalating roll of a contest)", PhaseTurn)
	if err != nil {
		return err
	}
	if err := e.canInterfere(s, a, c); err != nil {
		return err
	}
	ch := &s.Characters[c]
	cost, err := s.cost(c, picks)
	if err != nil {
		return err
	}
	if cost+s.Rules.InterfereCost > ch.PlotPoints {
		return fmt.Errorf("%w: interfering costs %d and this pool %d; %s has %d", ErrPlotPoints, s.Rules.InterfereCost, cost, ch.Name, ch.PlotPoints)
	}
	ch.PlotPoints -= s.Rules.InterfereCost
	s.GMPlotPoints = min(s.GMPlotPoints+s.Rules.InterfereCost, maxPoints)
	e.spend(s, -1, c, cost)
	a.Interferer = Ref(c)
	a.Interfered++
	a.IPicks = append(a.IPicks[:0], picks...)
	s.buf.pool = s.poolDice(picks, s.buf.pool)
	s.buf.faces = r.RollDice(s.buf.pool, s.buf.faces)
	a.ITotal = s.Rules.total(s.buf.faces)
	e.helperOnes(s, a, c)
	a.Escalated = false
	if e.Sink != nil {
		e.emit(s, Event{Kind: EvInterfered, Side: -1, Char: c, Value: a.ITotal, Dice: s.buf.pool, Faces: s.buf.faces})
	}
	if s.Rules.beats(a.ITotal, a.Stakes) {
		a.Phase = PhaseInterfere
	}
	return nil
}

// helperOnes offers the GM the 1s character c just rolled to aid or
// interfere, when Rules.OnesOfEveryRoll allows and c is a player
// character; by default only an action roll's 1s are bought.
func (e *Engine) helperOnes(s *State, a *Action, c int) {
	if s.Rules.OnesOfEveryRoll && !s.Characters[c].GM {
		a.Ones, a.OnesChar = countOnes(s.buf.faces), Ref(c)
	}
}

// canInterfere returns an error unless character c may interfere now.
func (e *Engine) canInterfere(s *State, a *Action, c int) error {
	switch {
	case a.Kind != Contested || !a.Escalated:
		return e.phaseErr(a, "interfere (only right after an escalating roll of a contest)")
	case len(a.Sides) != 2 || a.Sides[0].Char == TroublePool || a.Sides[1].Char == TroublePool:
		return fmt.Errorf("contest: interfering needs a contest between two characters")
	case a.Interfered >= s.Rules.Interferences:
		return fmt.Errorf("contest: the contest has been interfered with %d times: rules.interferences allows %d", a.Interfered, s.Rules.Interferences)
	}
	ch, err := s.char(c)
	if err != nil {
		return err
	}
	if ch.Out() {
		return fmt.Errorf("contest: %s is out of the scene and cannot interfere", ch.Name)
	}
	for i := range a.Sides {
		if a.Sides[i].Char == c || slices.Contains(a.Sides[i].Aiders, c) {
			return fmt.Errorf("contest: %s is part of the contest and cannot interfere", ch.Name)
		}
	}
	return nil
}

// Continue is side t's answer to an interference that beat the stakes:
// pay the interferer ContinueCost to go on, or not. When both have
// answered, the contest stops unless both paid; then comes the brawl.
func (e *Engine) Continue(s *State, t int, pay bool) error {
	a, err := e.action(s, "answer interference", PhaseInterfere)
	if err != nil {
		return err
	}
	if t < 0 || t >= len(a.Sides) {
		return fmt.Errorf("contest: side %d: the action has sides 0..%d", t, len(a.Sides)-1)
	}
	sd := &a.Sides[t]
	if sd.Decided {
		return fmt.Errorf("contest: side %d has already answered the interference", t)
	}
	if ch := &s.Characters[sd.Char]; pay && ch.PlotPoints < s.Rules.ContinueCost {
		return fmt.Errorf("%w: going on costs %d and %s has %d", ErrPlotPoints, s.Rules.ContinueCost, ch.Name, ch.PlotPoints)
	}
	sd.Decided, sd.Continue = true, pay
	o := &a.Sides[1-t]
	if !o.Decided {
		return nil
	}
	if !(sd.Continue && o.Continue) {
		a.Phase, a.End = PhaseDone, EndStopped
		if e.Sink != nil {
			e.emit(s, Event{Kind: EvStopped, Side: -1, Char: a.Interferer.Index})
		}
		return nil
	}
	ic := &s.Characters[a.Interferer.Index]
	for i := range a.Sides {
		c := a.Sides[i].Char
		s.Characters[c].PlotPoints -= s.Rules.ContinueCost
		ic.PlotPoints = min(ic.PlotPoints+s.Rules.ContinueCost, maxPoints)
		if e.Sink != nil {
			e.emit(s, Event{Kind: EvContinued, Side: i, Char: c, Value: s.Rules.ContinueCost})
		}
	}
	a.Phase = PhaseBrawl
	return nil
}

// brawlTrauma reports whether a brawl result of won against lost deals
// Trauma: only under Rules.BrawlTrauma, by the Extraordinary margin.
func (r *Rules) brawlTrauma(won, lost int) bool {
	return r.BrawlTrauma && won-lost >= r.Extraordinary
}

// Brawl is the three-way roll after both sides paid to go on: each rolls
// its last pool again at no further cost (a side that has not rolled yet,
// its planned pool), the interferer too. The higher side deals the other a
// Complication (a tie going by Rules.BrawlTieToHolder); each side that
// beats the interferer deals it one. Nobody may Give In. Under
// Rules.BrawlTrauma a win by the Extraordinary margin deals Trauma.
func (e *Engine) Brawl(s *State, r *dice.Roller) error {
	if r == nil {
		return fmt.Errorf("contest: brawl: %w", dice.ErrNilRoller)
	}
	a, err := e.action(s, "brawl", PhaseBrawl)
	if err != nil {
		return err
	}
	for i := range a.Sides {
		sd := &a.Sides[i]
		if len(sd.Picks) == 0 && len(sd.Base) == 0 {
			return fmt.Errorf("contest: side %d has neither rolled nor planned a pool to brawl with", i)
		}
	}
	for i := range a.Sides {
		sd := &a.Sides[i]
		if len(sd.Picks) == 0 {
			// A side that never rolled brawls with its planned pool.
			sd.Picks = append(sd.Picks, sd.Base...)
		}
		sd.Dice = s.sideDice(sd, sd.Picks, sd.Dice)
		sd.Faces = r.RollDice(sd.Dice, sd.Faces)
		sd.Total = s.Rules.total(sd.Faces) + sd.Aid
		if !s.Rules.AidLasts {
			sd.Aid = 0
		}
		a.Rolls++
		if e.Sink != nil {
			e.emit(s, Event{Kind: EvRolled, Side: i, Char: sd.Char, Value: sd.Total, Dice: sd.Dice, Faces: sd.Faces})
		}
	}
	s.buf.pool = s.poolDice(a.IPicks, s.buf.pool)
	s.buf.faces = r.RollDice(s.buf.pool, s.buf.faces)
	a.ITotal = s.Rules.total(s.buf.faces)
	if e.Sink != nil {
		e.emit(s, Event{Kind: EvInterfered, Side: -1, Char: a.Interferer.Index, Value: a.ITotal, Dice: s.buf.pool, Faces: s.buf.faces})
	}
	w := a.Holder
	o := 1 - w
	if a.Sides[o].Total > a.Sides[w].Total || (a.Sides[o].Total == a.Sides[w].Total && !s.Rules.BrawlTieToHolder) {
		w = o
	}
	l := 1 - w
	a.Sides[l].Out = true
	a.Harms = append(a.Harms, Harm{From: w, To: a.Sides[l].Char, Trauma: s.Rules.brawlTrauma(a.Sides[w].Total, a.Sides[l].Total)})
	e.reflect(s, a.Sides[l].Char)
	for _, c := range a.Sides[l].Aiders {
		a.Harms = append(a.Harms, Harm{From: w, To: c})
	}
	for i := range a.Sides {
		if a.Sides[i].Total > a.ITotal {
			a.Harms = append(a.Harms, Harm{From: i, To: a.Interferer.Index, Trauma: s.Rules.brawlTrauma(a.Sides[i].Total, a.ITotal)})
		}
	}
	a.Winner, a.End = w, EndBrawl
	if e.Sink != nil {
		e.emit(s, Event{Kind: EvWon, Side: w, Char: a.Sides[w].Char})
	}
	a.Phase = PhaseInflict
	return nil
}
