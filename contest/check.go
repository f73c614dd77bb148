package contest

import (
	"fmt"
	"slices"

	"github.com/stakesrpg/stakes/dice"
)

// maxCount bounds the counters and totals of a saved action (rolls,
// raises, stakes, beats): far beyond any game, far below overflow.
const maxCount = 1 << 20

// checkAction validates s.Action against every bound a step of it relies
// on: its kind and phase, each side's character, pools and last roll, the
// turn, the holder, the harms waiting and the interference, and that the
// phase has a next step (so that Play always ends).
func (s *State) checkAction() error {
	a := s.Action
	if !actionKindNames.Valid(a.Kind) || a.Kind == kindNone {
		return fmt.Errorf("contest: action kind %v: use basic or contested", a.Kind)
	}
	if !phaseNames.Valid(a.Phase) || a.Phase == phaseNone {
		return fmt.Errorf("contest: action phase %v: use one of %v", a.Phase, phaseNames[1:])
	}
	if !endNames.Valid(a.End) {
		return fmt.Errorf("contest: action end %v unknown", a.End)
	}
	n := len(a.Sides)
	if n < 2 || n > maxSides || (a.Kind == Basic && n != 2) {
		return fmt.Errorf("contest: a %v action with %d sides: basic has 2, contested 2..%d", a.Kind, n, maxSides)
	}
	if a.AllRoll && a.Kind == Basic {
		return fmt.Errorf("contest: a basic action has no all-roll opening")
	}
	for i := range a.Sides {
		if err := s.checkSide(a, i); err != nil {
			return fmt.Errorf("action side %d: %w", i, err)
		}
	}
	for _, v := range [...]struct {
		name   string
		v, min int
	}{{"turn", a.Turn, 0}, {"holder", a.Holder, -1}, {"winner", a.Winner, -1}, {"ones_side", a.OnesSide, 0}} {
		if v.v < v.min || v.v >= n {
			return fmt.Errorf("contest: action %s %d: must be %d..%d", v.name, v.v, v.min, n-1)
		}
	}
	for _, v := range [...]struct {
		name string
		v    int
	}{{"stakes", a.Stakes}, {"rolls", a.Rolls}, {"raises", a.Raises}, {"margin", a.Margin}, {"push_floor", a.PushFloor},
		{"pushes", a.Pushes}, {"bought", a.Bought}, {"ones", a.Ones}, {"itotal", a.ITotal}, {"interfered", a.Interfered}} {
		if v.v < 0 || v.v > maxCount {
			return fmt.Errorf("contest: action %s %d: must be 0..%d", v.name, v.v, maxCount)
		}
	}
	if a.Reflecting < 0 || a.Reflecting > 2*n || a.Reflecting > 0 && (a.Phase != PhaseDone || a.Ones > 0) {
		return fmt.Errorf("contest: action reflecting %d: 0, or 1..%d once the action is done and its last 1s answered", a.Reflecting, 2*n)
	}
	if c, ok := a.OnesChar.Get(); ok {
		if ch, err := s.char(c); err != nil || ch.GM || a.Ones > maxDice {
			return fmt.Errorf("contest: action ones %d of character %d: only a player character's roll leaves 1s to buy", a.Ones, c)
		}
	} else if os := &a.Sides[a.OnesSide]; a.Ones > 0 && (a.Ones > len(os.Faces) || os.Char == TroublePool || s.Characters[os.Char].GM) {
		return fmt.Errorf("contest: action ones %d: only a player character's side leaves 1s to buy, at most as many as it rolled (side %d rolled %d dice)", a.Ones, a.OnesSide, len(os.Faces))
	}
	if err := s.checkInterference(a); err != nil {
		return err
	}
	if len(a.Harms) > 4*maxChars {
		return fmt.Errorf("contest: %d harms waiting: at most %d", len(a.Harms), 4*maxChars)
	}
	for i, h := range a.Harms {
		if err := s.checkHarm(a, h); err != nil {
			return fmt.Errorf("action harms[%d]: %w", i, err)
		}
	}
	return s.checkPhase(a)
}

// checkSide validates side i of a.
func (s *State) checkSide(a *Action, i int) error {
	sd := &a.Sides[i]
	if sd.Char == TroublePool {
		if (a.Kind == Contested && !s.Rules.TroubleInContests) || (a.Kind == Basic && i != 0) || sd.Aider.Set {
			return fmt.Errorf("contest: the Trouble Pool is a side only as a basic action's opposition (or in a contest under rules.trouble_in_contests), unaided")
		}
	} else if _, err := s.char(sd.Char); err != nil {
		return err
	}
	for j := range i {
		if a.Sides[j].Char == sd.Char {
			return fmt.Errorf("contest: character %d is also side %d", sd.Char, j)
		}
	}
	if c, ok := sd.Aider.Get(); ok {
		if _, err := s.char(c); err != nil {
			return fmt.Errorf("aider: %w", err)
		}
	}
	if len(sd.Aiders) > maxChars {
		return fmt.Errorf("contest: %d aiders: at most %d", len(sd.Aiders), maxChars)
	}
	for _, c := range sd.Aiders {
		if _, err := s.char(c); err != nil {
			return fmt.Errorf("aiders: %w", err)
		}
	}
	if err := checkDice("gang", sd.Gang, maxGang); err != nil {
		return err
	}
	if !slices.IsSorted(sd.Gang) {
		return fmt.Errorf("contest: the gang %v must be sorted, smallest first", sd.Gang)
	}
	for _, ps := range [...][]Pick{sd.Base, sd.Extra, sd.AidPicks, sd.Picks} {
		if err := s.checkPicks(ps); err != nil {
			return err
		}
	}
	if err := checkDice("dice", sd.Dice, maxDice); err != nil {
		return err
	}
	if len(sd.Faces) != len(sd.Dice) {
		return fmt.Errorf("contest: %d faces for %d dice", len(sd.Faces), len(sd.Dice))
	}
	for k, f := range sd.Faces {
		if f < 1 || f > int(sd.Dice[k]) {
			return fmt.Errorf("contest: face %d of a %v", f, sd.Dice[k])
		}
	}
	if sd.Aid < 0 || sd.Aid > maxCount || sd.Total < 0 || sd.Total > maxCount {
		return fmt.Errorf("contest: aid %d and total %d must be 0..%d", sd.Aid, sd.Total, maxCount)
	}
	return nil
}

// checkPicks validates that each pick names a trait.
func (s *State) checkPicks(ps []Pick) error {
	if len(ps) > maxPicks {
		return fmt.Errorf("contest: a pool of %d picks: at most %d", len(ps), maxPicks)
	}
	for _, p := range ps {
		if _, err := s.trait(p); err != nil {
			return err
		}
	}
	return nil
}

// checkDice validates at most limit dice, each on the ladder.
func checkDice(what string, ds []dice.Die, limit int) error {
	if len(ds) > limit {
		return fmt.Errorf("contest: %s of %d dice: at most %d", what, len(ds), limit)
	}
	for i, d := range ds {
		if err := d.CheckLadder(); err != nil {
			return fmt.Errorf("contest: %s, die %d: %w", what, i+1, err)
		}
	}
	return nil
}

// checkInterference validates the planned interferer and the interferer.
func (s *State) checkInterference(a *Action) error {
	for _, ref := range [...]CharRef{a.Planned, a.Interferer} {
		c, ok := ref.Get()
		if !ok {
			continue
		}
		if _, err := s.char(c); err != nil {
			return fmt.Errorf("interferer: %w", err)
		}
		for i := range a.Sides {
			if a.Sides[i].Char == c {
				return fmt.Errorf("contest: interferer %d is side %d", c, i)
			}
		}
	}
	if err := s.checkPicks(a.IPicks); err != nil {
		return fmt.Errorf("interferer's pool: %w", err)
	}
	if a.Interferer.Set != (a.Interfered > 0) {
		return fmt.Errorf("contest: interfered %d times with interferer %v: an interferer is named once someone has interfered", a.Interfered, a.Interferer.Set)
	}
	if a.Interferer.Set || a.Phase == PhaseInterfere || a.Phase == PhaseBrawl {
		if len(a.Sides) != 2 || a.Sides[0].Char == TroublePool || a.Sides[1].Char == TroublePool || !a.Interferer.Set {
			return fmt.Errorf("contest: interference needs an interferer and a contest between two characters")
		}
	}
	return nil
}

// checkHarm validates one harm waiting in a.
func (s *State) checkHarm(a *Action, h Harm) error {
	if h.From < 0 || h.From >= len(a.Sides) {
		return fmt.Errorf("contest: from side %d: the action has sides 0..%d", h.From, len(a.Sides)-1)
	}
	if h.To != TroublePool {
		if _, err := s.char(h.To); err != nil {
			return err
		}
	}
	if h.Fixed != dice.Gone {
		return h.Fixed.CheckLadder()
	}
	return nil
}

// checkPhase validates that a's phase has a step to take: the side to act
// is in and there is stakes to answer, a push has a loser, an inflict a
// harm, interference an answer still to give.
func (s *State) checkPhase(a *Action) error {
	in := 0
	for i := range a.Sides {
		if !a.Sides[i].Out {
			in++
		}
	}
	if (a.End == endNone) != (a.Winner < 0) && a.End != EndStopped {
		return fmt.Errorf("contest: action end %v with winner %d: an ended action has a winner (but a stopped one), one under way none", a.End, a.Winner)
	}
	if a.Phase == PhaseInflict && len(a.Harms) == 0 {
		return fmt.Errorf("contest: phase inflict with no harm waiting")
	}
	phase := a.Phase
	if phase == PhaseInflict && a.End == endNone {
		phase = PhaseTurn // once the harms are dealt the turn passes on
	}
	switch phase {
	case PhaseOpen, PhaseTurn:
		if a.Sides[a.Turn].Out || in < 2 {
			return fmt.Errorf("contest: phase %v with side %d to act: it must be in, and another side with it", a.Phase, a.Turn)
		}
		if phase == PhaseTurn && (a.Holder < 0 || a.Holder == a.Turn || a.Sides[a.Holder].Out) {
			return fmt.Errorf("contest: phase turn: the stakes holder %d must be a side still in other than side %d to act", a.Holder, a.Turn)
		}
	case PhasePush:
		if a.Holder < 0 || a.Sides[a.Turn].Char == TroublePool || a.Margin < 1 || a.PushFloor > 1 {
			return fmt.Errorf("contest: phase push: a character's side losing to a stakes holder by a margin, with a floor of 0 or 1")
		}
	case PhaseInterfere:
		if a.Sides[0].Decided && a.Sides[1].Decided {
			return fmt.Errorf("contest: phase interfere with both sides decided")
		}
		if a.Holder < 0 {
			return fmt.Errorf("contest: phase interfere before any stakes")
		}
	case PhaseBrawl:
		if a.Holder < 0 {
			return fmt.Errorf("contest: phase brawl before any stakes")
		}
	}
	return nil
}

// checkTimed validates s.Timed: the actor and its pool, beats and steps,
// the step to take next, the helpers and the last stakes roll.
func (s *State) checkTimed() error {
	t := s.Timed
	if !timedPhaseNames.Valid(t.Phase) || t.Phase == timedNone {
		return fmt.Errorf("contest: timed phase %v: use one of %v", t.Phase, timedPhaseNames[1:])
	}
	if !outcomeNames.Valid(t.Outcome) {
		return fmt.Errorf("contest: timed outcome %v unknown", t.Outcome)
	}
	if _, err := s.char(t.Actor); err != nil {
		return fmt.Errorf("timed actor: %w", err)
	}
	if err := s.checkPicks(t.Picks); err != nil {
		return fmt.Errorf("timed pool: %w", err)
	}
	if t.Start < 1 || t.Start > maxBeats || t.Beats < -maxBeats || t.Beats > s.Rules.beatsCap(t.Start) {
		return fmt.Errorf("contest: timed start %d and beats %d: start 1..%d, beats at most %d (start, unless rules.buy_time_capped is off)", t.Start, t.Beats, maxBeats, s.Rules.beatsCap(t.Start))
	}
	if len(t.Steps) < 1 || len(t.Steps) > maxSteps || t.Step < 0 || t.Step > len(t.Steps) {
		return fmt.Errorf("contest: timed step %d of %d: 1..%d steps", t.Step, len(t.Steps), maxSteps)
	}
	if (t.Phase == TimedStepPhase || t.Phase == TimedGap) && t.Step == len(t.Steps) {
		return fmt.Errorf("contest: timed phase %v with every step taken", t.Phase)
	}
	if err := s.checkTimedOff(t); err != nil {
		return err
	}
	for i, st := range t.Steps {
		if err := checkDice("stakes", st.Stakes, maxDice); err != nil {
			return fmt.Errorf("timed steps[%d]: %w", i, err)
		}
	}
	if len(t.Helpers) > maxHelpers {
		return fmt.Errorf("contest: %d helpers: at most %d", len(t.Helpers), maxHelpers)
	}
	// Under rules.timed_trouble_off the actor's wins may have emptied the
	// pool: helpers then roll against nothing (stakes 0).
	if s.Rules.HelpersRollTrouble && !s.Rules.TimedTroubleOff && len(s.Trouble) == 0 && t.Phase != TimedDone && slices.ContainsFunc(t.Helpers, func(h Helper) bool { return !h.Out }) {
		return fmt.Errorf("contest: helpers roll against the Trouble Pool (rules.helpers_roll_trouble), which is empty")
	}
	for i, h := range t.Helpers {
		if _, err := s.char(h.Char); err != nil {
			return fmt.Errorf("helpers[%d]: %w", i, err)
		}
		if err := s.checkPicks(h.Picks); err != nil {
			return fmt.Errorf("helpers[%d]: %w", i, err)
		}
	}
	if err := checkDice("sdice", t.SDice, maxDice); err != nil {
		return err
	}
	if len(t.SFaces) != len(t.SDice) {
		return fmt.Errorf("contest: %d stakes faces for %d dice", len(t.SFaces), len(t.SDice))
	}
	for k, f := range t.SFaces {
		if f < 1 || f > int(t.SDice[k]) {
			return fmt.Errorf("contest: stakes face %d of a %v", f, t.SDice[k])
		}
	}
	if t.Ones > 0 {
		if c, err := s.char(t.OnesChar); err != nil || c.GM || t.Ones > maxDice {
			return fmt.Errorf("contest: timed ones %d of character %d: only a player character's roll leaves 1s to buy", t.Ones, t.OnesChar)
		}
	}
	for _, v := range [...]int{t.Rolls, t.Ones, t.OnesBought, t.Stakes, t.Total} {
		if v < 0 || v > maxCount {
			return fmt.Errorf("contest: a timed count of %d: must be 0..%d", v, maxCount)
		}
	}
	return nil
}

// checkTimedOff checks the Trouble dice t's actor still owes: some (no
// more than a win takes off, nor than the pool holds) in
// TimedTroublePhase, which only Rules.TimedTroubleOff reaches, and none
// in any other phase.
func (s *State) checkTimedOff(t *Timed) error {
	if t.Phase != TimedTroublePhase {
		if t.Off != 0 {
			return fmt.Errorf("contest: timed off %d in phase %v: dice come off the Trouble Pool only in phase %v", t.Off, t.Phase, TimedTroublePhase)
		}
		return nil
	}
	most := min(max(s.Rules.TroubleOffOnWin, s.Rules.TroubleOffOnExtraordinary), len(s.Trouble))
	if !s.Rules.TimedTroubleOff || t.Off < 1 || t.Off > most {
		return fmt.Errorf("contest: timed phase %v owing %d Trouble dice: needs rules.timed_trouble_off and 1..%d (what a win takes off, within the pool's %d dice)", t.Phase, t.Off, most, len(s.Trouble))
	}
	return nil
}

// checkPools checks that every pool Play will roll from s is one its
// character may roll under s.Rules: for free where it is the free part of
// a plan (a side's Base, a timed action's pools), within the aider's Plot
// Points for an aid still to come, so that a state that passes Check plays
// to its end under any legal policies.
func (s *State) checkPools() error {
	if a := s.Action; a != nil && a.Phase != PhaseDone {
		if err := s.checkActionPools(a); err != nil {
			return err
		}
	}
	if t := s.Timed; t != nil && t.Phase != TimedDone {
		if err := s.checkFree(t.Actor, t.Picks, "timed pool"); err != nil {
			return err
		}
		for i, h := range t.Helpers {
			if !h.Out {
				if err := s.checkFree(h.Char, h.Picks, fmt.Sprintf("helpers[%d] pool", i)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// checkActionPools checks the pools a's sides, aiders and planned
// interferer will roll.
func (s *State) checkActionPools(a *Action) error {
	for i := range a.Sides {
		sd := &a.Sides[i]
		if sd.Out || sd.Char == TroublePool {
			continue
		}
		if err := s.checkFree(sd.Char, sd.Base, fmt.Sprintf("side %d base", i)); err != nil {
			return err
		}
		if c, ok := sd.Aider.Get(); ok && len(sd.Aiders) == 0 {
			if err := s.checkAid(c, sd.AidPicks, i); err != nil {
				return err
			}
		}
	}
	if c, ok := a.Planned.Get(); ok && a.Interfered < s.Rules.Interferences {
		if _, err := s.cost(c, a.IPicks); err != nil {
			return fmt.Errorf("planned interferer's pool: %w", err)
		}
	}
	return nil
}

// checkAid returns an error unless aider c may roll picks for side i and
// holds the Plot Points they cost.
func (s *State) checkAid(c int, picks []Pick, i int) error {
	cost, err := s.cost(c, picks)
	if err == nil && cost > s.Characters[c].PlotPoints {
		err = fmt.Errorf("%w: it costs %d", ErrPlotPoints, cost)
	}
	if err != nil {
		return fmt.Errorf("side %d aid pool: %w", i, err)
	}
	return nil
}

// checkFree returns an error unless character c may roll picks for free.
func (s *State) checkFree(c int, picks []Pick, what string) error {
	cost, err := s.cost(c, picks)
	if err == nil && cost > 0 {
		err = fmt.Errorf("contest: it costs %d Plot Points a roll: a planned pool holds only free picks", cost)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
}
