package contest

import (
	"fmt"

	"github.com/stakesrpg/stakes/dice"
)

// TimedPhase is where a timed action stands.
type TimedPhase string

// Phases of a timed action ("Timed Actions").
const (
	TimedStepPhase    TimedPhase = "step"    // the actor rolls the next step
	TimedGap          TimedPhase = "gap"     // between steps: one helper may buy time, then the next step
	TimedChoose       TimedPhase = "choose"  // finished with zero beats: getaway or objective
	TimedInflictPhase TimedPhase = "inflict" // out of time: the GM deals a Complication
	TimedDone         TimedPhase = "done"
)

// TimedOutcome is how a timed action ended.
type TimedOutcome string

// Outcomes of a timed action.
const (
	TimedCompleted TimedOutcome = "completed"   // every step done with beats left: objective and clean getaway
	TimedGetaway   TimedOutcome = "getaway"     // done with zero beats, chose the clean getaway
	TimedObjective TimedOutcome = "objective"   // done with zero beats, chose the objective
	TimedOutOfTime TimedOutcome = "out_of_time" // ran out of beats: caught, objective missed, a Complication
)

// TimedStep is one obstacle of a timed action: the GM's dice that set the
// stakes, or the Trouble Pool when Stakes is empty.
type TimedStep struct {
	Stakes []dice.Die `json:"stakes,omitempty"`
}

// Helper is a character who may buy time between steps; Out marks one who
// failed and can help no more.
type Helper struct {
	Char  int    `json:"char"`
	Picks []Pick `json:"picks"`
	Out   bool   `json:"out,omitempty"`
}

// Timed is a timed action under way: a countdown of beats over a series of
// basic actions.
type Timed struct {
	Actor   int          `json:"actor"`
	Picks   []Pick       `json:"picks"`
	Start   int          `json:"start"`
	Beats   int          `json:"beats"`
	Steps   []TimedStep  `json:"steps"`
	Step    int          `json:"step"` // index of the next step
	Phase   TimedPhase   `json:"phase"`
	Bought  bool         `json:"bought,omitempty"` // a helper tried this gap
	Helpers []Helper     `json:"helpers,omitempty"`
	Rolls   int          `json:"rolls"`
	Outcome TimedOutcome `json:"outcome,omitempty"`
	// The last stakes roll, the GM's Complication Pool when time runs out.
	SDice  []dice.Die `json:"sdice,omitempty"`
	SFaces []int      `json:"sfaces,omitempty"`
	Stakes int        `json:"stakes"`
	Total  int        `json:"total"`
	// Ones counts the 1s of the last roll by a player character (OnesChar)
	// the GM may still buy; OnesBought how many it has bought.
	Ones       int `json:"ones,omitempty"`
	OnesChar   int `json:"ones_char,omitempty"`
	OnesBought int `json:"ones_bought,omitempty"`
}

// BeginTimed starts a timed action: actor rolls picks against each step in
// turn with beats on the clock; helpers may buy time between steps.
func (e *Engine) BeginTimed(s *Scene, actor int, picks []Pick, beats int, steps []TimedStep, helpers []Helper) error {
	if s.Timed != nil && s.Timed.Phase != TimedDone {
		return fmt.Errorf("%w: a timed action is already under way (phase %s)", ErrPhase, s.Timed.Phase)
	}
	c, err := s.char(actor)
	if err != nil {
		return fmt.Errorf("actor: %w", err)
	}
	if c.Out() {
		return fmt.Errorf("contest: %s is out of the scene", c.Name)
	}
	if _, err := e.cost(s, actor, picks); err != nil {
		return fmt.Errorf("actor pool: %w", err)
	}
	if beats < 1 || beats > 1000 {
		return fmt.Errorf("contest: %d beats: a timed action needs 1..1000", beats)
	}
	if len(steps) < 1 || len(steps) > 100 {
		return fmt.Errorf("contest: %d steps: a timed action needs 1..100", len(steps))
	}
	for i, st := range steps {
		if len(st.Stakes) == 0 && len(s.Trouble) == 0 {
			return fmt.Errorf("contest: step %d rolls the Trouble Pool, which is empty", i)
		}
		if len(st.Stakes) > 50 {
			return fmt.Errorf("contest: step %d has %d dice: at most 50", i, len(st.Stakes))
		}
		for j, d := range st.Stakes {
			if err := d.CheckLadder(); err != nil {
				return fmt.Errorf("contest: step %d die %d: %w", i, j, err)
			}
		}
	}
	for i, h := range helpers {
		if h.Char == actor {
			return fmt.Errorf("contest: helper %d is the actor", i)
		}
		if _, err := e.cost(s, h.Char, h.Picks); err != nil {
			return fmt.Errorf("helper %d pool: %w", i, err)
		}
	}
	t := s.Timed
	if t == nil {
		t = &Timed{}
	}
	*t = Timed{Actor: actor, Start: beats, Beats: beats, Phase: TimedStepPhase,
		Picks: append(t.Picks[:0], picks...), Steps: append(t.Steps[:0], steps...),
		Helpers: append(t.Helpers[:0], helpers...), SDice: t.SDice[:0], SFaces: t.SFaces[:0]}
	s.Timed = t
	return nil
}

// stakesRoll rolls the GM's dice for step st into t.SDice/SFaces.
func (e *Engine) stakesRoll(s *Scene, r *dice.Roller, t *Timed, st TimedStep) int {
	if len(st.Stakes) == 0 {
		t.SDice = append(t.SDice[:0], s.Trouble...)
	} else {
		t.SDice = append(t.SDice[:0], st.Stakes...)
	}
	t.SFaces = r.RollDice(t.SDice, t.SFaces)
	t.Ones = 0
	if e.Sink != nil {
		e.Sink.Event(Event{Kind: EvStakes, Side: 0, Char: -1, Value: e.total(t.SFaces), Dice: t.SDice, Faces: t.SFaces})
	}
	return e.total(t.SFaces)
}

// actorRoll rolls character c's picks (paying for them) and returns the total.
func (e *Engine) actorRoll(s *Scene, r *dice.Roller, c int, picks []Pick) (int, error) {
	cost, err := e.cost(s, c, picks)
	if err != nil {
		return 0, err
	}
	ch := &s.Characters[c]
	if cost > ch.PlotPoints {
		return 0, fmt.Errorf("%w: this pool costs %d and %s has %d", ErrPlotPoints, cost, ch.Name, ch.PlotPoints)
	}
	ch.PlotPoints -= cost
	if cost > 0 {
		if e.Sink != nil {
			e.Sink.Event(Event{Kind: EvPlotPoints, Side: -1, Char: c, Value: -cost})
		}
	}
	e.faces = r.RollDice(e.pool, e.faces)
	v := e.total(e.faces)
	if t := s.Timed; t != nil && !ch.GM {
		t.Ones, t.OnesChar = countOnes(e.faces), c
	}
	if e.Sink != nil {
		e.Sink.Event(Event{Kind: EvRolled, Side: 1, Char: c, Value: v, Dice: e.pool, Faces: e.faces})
	}
	return v, nil
}

// TimedRoll plays the next step: the GM sets the stakes, the actor rolls
// picks (nil: the planned pool). Each roll costs BeatsPerRoll, an
// Extraordinary success BeatsOnExtraordinary instead, a failure
// BeatsOnFailure more; either way the action moves on to the next step.
func (e *Engine) TimedRoll(s *Scene, r *dice.Roller, picks []Pick) error {
	t := s.Timed
	if t == nil || (t.Phase != TimedStepPhase && t.Phase != TimedGap) {
		return e.timedErr(t, "roll a step")
	}
	if picks == nil {
		picks = t.Picks
	}
	if c, err := e.cost(s, t.Actor, picks); err != nil {
		return err
	} else if c > s.Characters[t.Actor].PlotPoints {
		return fmt.Errorf("%w: this pool costs %d and %s has %d", ErrPlotPoints, c, s.Characters[t.Actor].Name, s.Characters[t.Actor].PlotPoints)
	}
	t.Stakes = e.stakesRoll(s, r, t, t.Steps[t.Step])
	t.Total, _ = e.actorRoll(s, r, t.Actor, picks)
	t.Rolls++
	cost := e.Rules.BeatsPerRoll
	ok := t.Total > t.Stakes
	switch {
	case ok && t.Total-t.Stakes >= e.Rules.Extraordinary:
		cost = e.Rules.BeatsOnExtraordinary
	case !ok:
		cost += e.Rules.BeatsOnFailure
	}
	t.Beats -= cost
	if e.Sink != nil {
		e.Sink.Event(Event{Kind: EvBeats, Side: -1, Char: t.Actor, Value: -cost})
	}
	if e.Sink != nil {
		e.Sink.Event(Event{Kind: EvTimedStep, Side: -1, Char: t.Actor, Value: t.Step})
	}
	t.Step++
	t.Bought = false
	last := t.Step == len(t.Steps)
	switch {
	case t.Beats < 0 || (t.Beats == 0 && (!last || !ok)):
		t.Outcome, t.Phase = TimedOutOfTime, TimedInflictPhase
	case last && t.Beats == 0:
		t.Phase = TimedChoose
	case last:
		t.Outcome, t.Phase = TimedCompleted, TimedDone
	default:
		t.Phase = TimedGap
	}
	return nil
}

// BuyTime is helper h (an index into Helpers) trying to buy time between
// steps: a basic action against the next step's stakes; success gives back
// BuyTime beats (BuyTimeExtraordinary on an Extraordinary success), never
// above the start; failure puts the helper out. One attempt per gap.
func (e *Engine) BuyTime(s *Scene, r *dice.Roller, h int) error {
	t := s.Timed
	if t == nil || t.Phase != TimedGap {
		return e.timedErr(t, "buy time (only between steps)")
	}
	if t.Bought {
		return fmt.Errorf("%w: only one attempt at buying time between steps", ErrPhase)
	}
	if h < 0 || h >= len(t.Helpers) {
		return fmt.Errorf("contest: helper %d: the timed action has helpers 0..%d", h, len(t.Helpers)-1)
	}
	hp := &t.Helpers[h]
	if hp.Out {
		return fmt.Errorf("contest: helper %d failed before and can help no more", h)
	}
	if s.Characters[hp.Char].Out() {
		return fmt.Errorf("contest: helper %d is out of the scene", h)
	}
	if c, err := e.cost(s, hp.Char, hp.Picks); err != nil {
		return err
	} else if c > s.Characters[hp.Char].PlotPoints {
		return fmt.Errorf("%w: this pool costs %d", ErrPlotPoints, c)
	}
	stakes := e.stakesRoll(s, r, t, t.Steps[t.Step])
	v, _ := e.actorRoll(s, r, hp.Char, hp.Picks)
	t.Bought = true
	if v <= stakes {
		hp.Out = true
		return nil
	}
	gain := e.Rules.BuyTime
	if v-stakes >= e.Rules.Extraordinary {
		gain = e.Rules.BuyTimeExtraordinary
	}
	gain = max(0, min(gain, t.Start-t.Beats))
	t.Beats += gain
	if e.Sink != nil {
		e.Sink.Event(Event{Kind: EvBeats, Side: -1, Char: hp.Char, Value: gain})
	}
	return nil
}

// Choose settles a timed action finished with zero beats left: the
// objective (true) or a clean getaway (false).
func (e *Engine) Choose(s *Scene, objective bool) error {
	t := s.Timed
	if t == nil || t.Phase != TimedChoose {
		return e.timedErr(t, "choose getaway or objective")
	}
	t.Outcome, t.Phase = TimedGetaway, TimedDone
	if objective {
		t.Outcome = TimedObjective
	}
	return nil
}

// TimedInflict is the GM's Complication for running out of time, rated
// from the last stakes roll; onto is as for Inflict, with "out of time" as
// the new trait's name.
func (e *Engine) TimedInflict(s *Scene, r *dice.Roller, onto int) error {
	t := s.Timed
	if t == nil || t.Phase != TimedInflictPhase {
		return e.timedErr(t, "inflict the out-of-time Complication")
	}
	tc := &s.Characters[t.Actor]
	if onto != -1 && (onto < 0 || onto >= len(tc.Traits) || tc.Traits[onto].Kind != Complication) {
		return fmt.Errorf("contest: trait %d of %s is not a complication: pick one of its complications or -1 for a new one", onto, tc.Name)
	}
	sd := Side{Char: TroublePool, Dice: t.SDice, Faces: t.SFaces}
	nd := e.ratePool(s, r, &sd)
	const name = "out of time"
	if onto == -1 {
		onto = tc.findKind(name, Complication)
	}
	e.apply(s, t.Actor, onto, name, Complication, nd)
	t.Phase = TimedDone
	return nil
}

func (e *Engine) timedErr(t *Timed, what string) error {
	if t == nil {
		return fmt.Errorf("%w: cannot %s: no timed action under way", ErrPhase, what)
	}
	return fmt.Errorf("%w: cannot %s in phase %s", ErrPhase, what, t.Phase)
}
