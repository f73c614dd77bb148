package contest

import (
	"fmt"
	"slices"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/named"
)

// Bounds on a timed action. [ours]
const (
	maxBeats   = 1000
	maxSteps   = 100
	maxHelpers = 32
)

// TimedPhase is where a timed action stands. It reads and writes as its
// name; the zero TimedPhase ("none") is never valid.
type TimedPhase uint8

// Phases of a timed action ("Timed Actions").
const (
	timedNone         TimedPhase = iota // the zero TimedPhase: never valid
	TimedStepPhase                      // the actor rolls the next step: "step"
	TimedGap                            // between steps: one helper may buy time, then the next step: "gap"
	TimedChoose                         // finished with zero beats: getaway or objective: "choose"
	TimedInflictPhase                   // out of time: the GM deals a Complication: "inflict"
	TimedDone                           // "done"
	// TimedTroublePhase: a step won against the Trouble Pool
	// (Rules.TimedTroubleOff); the actor takes dice off it: "trouble".
	TimedTroublePhase
)

var timedPhaseNames = named.Enum[TimedPhase]{"none", "step", "gap", "choose", "inflict", "done", "trouble"}

// String returns the phase's name.
func (p TimedPhase) String() string { return timedPhaseNames.String(p) }

// MarshalText writes the phase's name.
func (p TimedPhase) MarshalText() ([]byte, error) { return timedPhaseNames.Marshal(p) }

// UnmarshalText reads a phase's name.
func (p *TimedPhase) UnmarshalText(b []byte) error { return timedPhaseNames.Unmarshal(b, p) }

// TimedOutcome is how a timed action ended. It reads and writes as its
// name; the zero TimedOutcome is "none", not ended.
type TimedOutcome uint8

// Outcomes of a timed action.
const (
	timedNoOutcome TimedOutcome = iota // not ended: "none"
	TimedCompleted                     // every step done with beats left: objective and clean getaway
	TimedGetaway                       // done with zero beats, chose the clean getaway
	TimedObjective                     // done with zero beats, chose the objective
	TimedOutOfTime                     // ran out of beats: caught, objective missed, a Complication
)

var outcomeNames = named.Enum[TimedOutcome]{"none", "completed", "getaway", "objective", "out_of_time"}

// String returns the outcome's name.
func (o TimedOutcome) String() string { return outcomeNames.String(o) }

// MarshalText writes the outcome's name.
func (o TimedOutcome) MarshalText() ([]byte, error) { return outcomeNames.Marshal(o) }

// UnmarshalText reads an outcome's name.
func (o *TimedOutcome) UnmarshalText(b []byte) error { return outcomeNames.Unmarshal(b, o) }

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
	Outcome TimedOutcome `json:"outcome,omitzero"`
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
	// Off counts the dice the actor still takes off the Trouble Pool in
	// TimedTroublePhase.
	Off int `json:"off,omitempty"`
}

// BeginTimed starts a timed action: actor rolls picks against each step in
// turn with beats on the clock; helpers may buy time between steps. Only
// one action, plain or timed, runs at a time.
func (e *Engine) BeginTimed(s *State, actor int, picks []Pick, beats int, steps []TimedStep, helpers []Helper) error {
	if s.Timed != nil && s.Timed.Phase != TimedDone {
		return fmt.Errorf("%w: a timed action is already under way (phase %s)", ErrPhase, s.Timed.Phase)
	}
	if s.Action != nil && s.Action.Phase != PhaseDone {
		return fmt.Errorf("%w: an action is under way (phase %s): one action at a time", ErrPhase, s.Action.Phase)
	}
	c, err := s.char(actor)
	if err != nil {
		return fmt.Errorf("actor: %w", err)
	}
	if c.Out() {
		return fmt.Errorf("contest: %s is out of the scene", c.Name)
	}
	// The planned pools are free picks holding a Value, the rule
	// State.Check holds a timed action to.
	if err := s.checkFree(actor, picks, "actor pool"); err != nil {
		return err
	}
	if beats < 1 || beats > maxBeats {
		return fmt.Errorf("contest: %d beats: a timed action needs 1..%d", beats, maxBeats)
	}
	if len(steps) < 1 || len(steps) > maxSteps {
		return fmt.Errorf("contest: %d steps: a timed action needs 1..%d", len(steps), maxSteps)
	}
	for i, st := range steps {
		if len(st.Stakes) == 0 && len(s.Trouble) == 0 {
			return fmt.Errorf("contest: step %d rolls the Trouble Pool, which is empty", i)
		}
		if err := checkDice("stakes", st.Stakes, maxDice); err != nil {
			return fmt.Errorf("step %d: %w", i, err)
		}
	}
	if len(helpers) > maxHelpers {
		return fmt.Errorf("contest: %d helpers: at most %d", len(helpers), maxHelpers)
	}
	if len(helpers) > 0 && s.Rules.HelpersRollTrouble && len(s.Trouble) == 0 {
		return fmt.Errorf("contest: helpers roll against the Trouble Pool (rules.helpers_roll_trouble), which is empty")
	}
	for i, h := range helpers {
		if h.Char == actor {
			return fmt.Errorf("contest: helper %d is the actor", i)
		}
		if _, err := s.char(h.Char); err != nil {
			return fmt.Errorf("helper %d: %w", i, err)
		}
		if err := s.checkFree(h.Char, h.Picks, fmt.Sprintf("helper %d pool", i)); err != nil {
			return err
		}
	}
	if err := s.timedEnds(picks, steps, helpers); err != nil {
		return err
	}
	e.setupTimed(s, actor, picks, beats, steps, helpers)
	return nil
}

// timedEnds refuses a timed action that might never end: its last step
// is one the actor's pool can never beat, tried again after each failure
// (Rules.FailedLastStepCompletes off), while helpers may buy back as many
// beats as a failure costs. Otherwise every step's failure moves on or
// costs beats for good, and a step the actor may beat ends its retries.
func (s *State) timedEnds(picks []Pick, steps []TimedStep, helpers []Helper) error {
	r := &s.Rules
	cost := r.BeatsPerRoll + r.BeatsOnFailure
	if r.FailedLastStepCompletes || len(helpers) == 0 || max(r.BuyTime, r.BuyTimeExtraordinary) < cost {
		return nil
	}
	ds := slices.Sorted(slices.Values(s.poolDice(picks, nil)))
	most := 0
	for _, d := range ds[max(0, len(ds)-r.Keep):] {
		most += int(d)
	}
	n := len(steps[len(steps)-1].Stakes)
	if n == 0 {
		n = max(len(s.Trouble), r.MaxTrouble) // the Trouble Pool, as large as 1s may make it
	}
	least := 0 // every die a 1, left out
	if !r.ExcludeOnes {
		least = min(r.Keep, n)
	}
	if most > least || (most == least && !r.TiesToHolder) {
		return nil
	}
	return fmt.Errorf("contest: the last step cannot be beaten (the actor's pool makes at most %d, its stakes at least %d), and with rules.failed_last_step_completes off it is tried again for as long as helpers buy back the %d beats a failure costs: the timed action might never end", most, least, cost)
}

// setupTimed lays out a timed action BeginTimed has checked, reusing the
// buffers of a finished one.
func (e *Engine) setupTimed(s *State, actor int, picks []Pick, beats int, steps []TimedStep, helpers []Helper) {
	t := s.Timed
	if t == nil {
		t = &Timed{}
	}
	*t = Timed{Actor: actor, Start: beats, Beats: beats, Phase: TimedStepPhase,
		Picks: append(t.Picks[:0], picks...), Steps: append(t.Steps[:0], steps...),
		Helpers: append(t.Helpers[:0], helpers...), SDice: t.SDice[:0], SFaces: t.SFaces[:0]}
	for i := range t.Helpers {
		t.Helpers[i].Out = false
	}
	s.Timed = t
}

// timed returns s's timed action when it is in one of the given phases,
// for the step named what. As with action, the state is one Check has
// accepted; timed checks the step to take is there.
func (e *Engine) timed(s *State, what string, phases ...TimedPhase) (*Timed, error) {
	t := s.Timed
	if t == nil || !slices.Contains(phases, t.Phase) {
		return nil, e.timedErr(t, what)
	}
	if t.Step < 0 || t.Step >= len(t.Steps) && t.Phase != TimedChoose && t.Phase != TimedInflictPhase && t.Phase != TimedTroublePhase {
		return nil, fmt.Errorf("contest: timed step %d of %d: run Check on a restored state", t.Step, len(t.Steps))
	}
	return t, nil
}

// affordable returns an error unless character c may roll picks and has
// the Plot Points they cost; cost is that price.
func (e *Engine) affordable(s *State, c int, picks []Pick) (cost int, err error) {
	if cost, err = s.cost(c, picks); err == nil {
		err = s.canPay(c, cost)
	}
	if err != nil {
		return 0, err
	}
	return cost, nil
}

// stakesRoll rolls the GM's dice for step st into t.SDice/SFaces.
func (e *Engine) stakesRoll(s *State, r *dice.Roller, t *Timed, st TimedStep) int {
	if len(st.Stakes) == 0 {
		t.SDice = append(t.SDice[:0], s.Trouble...)
	} else {
		t.SDice = append(t.SDice[:0], st.Stakes...)
	}
	t.SFaces = r.RollDice(t.SDice, t.SFaces)
	t.Ones = 0
	v := s.Rules.total(t.SFaces)
	if e.Sink != nil {
		e.emit(s, Event{Kind: EvStakes, Side: 0, Char: -1, Value: v, Dice: t.SDice, Faces: t.SFaces})
	}
	return v
}

// actorRoll rolls character c's picks, which cost cost (checked), and
// returns the total.
func (e *Engine) actorRoll(s *State, r *dice.Roller, c int, picks []Pick, cost int) int {
	e.spend(s, -1, c, cost)
	s.buf.pool = s.poolDice(picks, s.buf.pool)
	s.buf.faces = r.RollDice(s.buf.pool, s.buf.faces)
	v := s.Rules.total(s.buf.faces)
	if t := s.Timed; !s.Characters[c].GM {
		t.Ones, t.OnesChar = countOnes(s.buf.faces), c
	}
	if e.Sink != nil {
		e.emit(s, Event{Kind: EvRolled, Side: 1, Char: c, Value: v, Dice: s.buf.pool, Faces: s.buf.faces})
	}
	return v
}

// TimedRoll plays the next step: the GM sets the stakes, the actor rolls
// picks (nil: the planned pool). Each roll costs BeatsPerRoll, an
// Extraordinary success BeatsOnExtraordinary instead, a failure
// BeatsOnFailure more; either way the action moves on to the next step
// (but a failed last step is tried again unless
// Rules.FailedLastStepCompletes).
func (e *Engine) TimedRoll(s *State, r *dice.Roller, picks []Pick) error {
	if r == nil {
		return fmt.Errorf("contest: timed roll: %w", dice.ErrNilRoller)
	}
	t, err := e.timed(s, "roll a step", TimedStepPhase, TimedGap)
	if err != nil {
		return err
	}
	if picks == nil {
		picks = t.Picks
	}
	cost, err := e.affordable(s, t.Actor, picks)
	if err != nil {
		return err
	}
	step := t.Steps[t.Step]
	t.Stakes = e.stakesRoll(s, r, t, step)
	t.Total = e.actorRoll(s, r, t.Actor, picks, cost)
	t.Rolls++
	beats := s.Rules.BeatsPerRoll
	ok := s.Rules.beats(t.Total, t.Stakes)
	xo := ok && t.Total-t.Stakes >= s.Rules.Extraordinary
	switch {
	case xo:
		beats = s.Rules.BeatsOnExtraordinary
	case !ok:
		beats += s.Rules.BeatsOnFailure
	}
	t.Beats = max(t.Beats-beats, -maxBeats)
	if e.Sink != nil {
		e.emit(s, Event{Kind: EvBeats, Side: -1, Char: t.Actor, Value: -beats})
		e.emit(s, Event{Kind: EvTimedStep, Side: -1, Char: t.Actor, Value: t.Step})
	}
	t.Step++
	if !ok && !s.Rules.FailedLastStepCompletes && t.Step == len(t.Steps) {
		t.Step-- // the last obstacle still stands
	}
	t.Bought = false
	if off := s.Rules.timedTroubleOff(ok, xo, step); off > 0 && len(s.Trouble) > 0 {
		t.Off, t.Phase = min(off, len(s.Trouble)), TimedTroublePhase
		return nil
	}
	t.moveOn(&s.Rules)
	return nil
}

// timedTroubleOff is how many dice a timed step against step's stakes
// takes off the Trouble Pool: won (ok) or won by the margin (xo) against
// the Trouble Pool under Rules.TimedTroubleOff, else none.
func (r *Rules) timedTroubleOff(ok, xo bool, step TimedStep) int {
	switch {
	case !r.TimedTroubleOff || !ok || len(step.Stakes) > 0:
		return 0
	case xo:
		return r.TroubleOffOnExtraordinary
	}
	return r.TroubleOffOnWin
}

// moveOn settles where timed action t goes after its last step's roll:
// out of time, the choice between objective and getaway, done, or the
// gap before the next step.
func (t *Timed) moveOn(r *Rules) {
	ok := r.beats(t.Total, t.Stakes)
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
}

// timedTakeTrouble takes die k off the Trouble Pool in TimedTroublePhase,
// the actor's choice; once the dice owed are off (or the pool is empty)
// the timed action moves on.
func (e *Engine) timedTakeTrouble(s *State, k int) error {
	t, err := e.timed(s, "take a die off the Trouble Pool", TimedTroublePhase)
	if err != nil {
		return err
	}
	if k < 0 || k >= len(s.Trouble) {
		return fmt.Errorf("contest: Trouble Pool die %d: the pool has dice 0..%d", k, len(s.Trouble)-1)
	}
	d := s.Trouble[k]
	s.Trouble = append(s.Trouble[:k], s.Trouble[k+1:]...)
	if e.Sink != nil {
		e.emit(s, Event{Kind: EvTrouble, Side: -1, Char: -1, Value: -1, Die: d})
	}
	if t.Off--; t.Off == 0 || len(s.Trouble) == 0 {
		t.Off = 0
		t.moveOn(&s.Rules)
	}
	return nil
}

// BuyTime is helper h (an index into Helpers) trying to buy time between
// steps: a basic action against the next step's stakes (or the Trouble
// Pool, by Rules.HelpersRollTrouble); success gives back BuyTime beats
// (BuyTimeExtraordinary on an Extraordinary success), never above the
// start (by Rules.BuyTimeCapped); failure puts the helper out. One attempt
// per gap.
func (e *Engine) BuyTime(s *State, r *dice.Roller, h int) error {
	if r == nil {
		return fmt.Errorf("contest: buy time: %w", dice.ErrNilRoller)
	}
	t, err := e.timed(s, "buy time (only between steps)", TimedGap)
	if err != nil {
		return err
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
	cost, err := e.affordable(s, hp.Char, hp.Picks)
	if err != nil {
		return err
	}
	st := t.Steps[t.Step]
	if s.Rules.HelpersRollTrouble {
		// A pool the actor's wins emptied (rules.timed_trouble_off) sets
		// stakes of 0; one empty from the start is a mistake.
		if len(s.Trouble) == 0 && !s.Rules.TimedTroubleOff {
			return fmt.Errorf("contest: helpers roll against the Trouble Pool (rules.helpers_roll_trouble), which is empty")
		}
		st = TimedStep{} // the Trouble Pool sets the stakes
	}
	stakes := e.stakesRoll(s, r, t, st)
	v := e.actorRoll(s, r, hp.Char, hp.Picks, cost)
	t.Bought = true
	if !s.Rules.beats(v, stakes) {
		hp.Out = true
		return nil
	}
	gain := s.Rules.BuyTime
	if v-stakes >= s.Rules.Extraordinary {
		gain = s.Rules.BuyTimeExtraordinary
	}
	gain = max(0, min(gain, s.Rules.beatsCap(t.Start)-t.Beats))
	t.Beats += gain
	if e.Sink != nil {
		e.emit(s, Event{Kind: EvBeats, Side: -1, Char: hp.Char, Value: gain})
	}
	return nil
}

// beatsCap is the most beats buying time may bring a timed action that
// started with start: the start itself (Rules.BuyTimeCapped), or the bound
// on any timed action.
func (r *Rules) beatsCap(start int) int {
	if r.BuyTimeCapped {
		return start
	}
	return maxBeats
}

// Choose settles a timed action finished with zero beats left: the
// objective (true) or a clean getaway (false).
func (e *Engine) Choose(s *State, objective bool) error {
	t, err := e.timed(s, "choose getaway or objective", TimedChoose)
	if err != nil {
		return err
	}
	t.Outcome, t.Phase = TimedGetaway, TimedDone
	if objective {
		t.Outcome = TimedObjective
	}
	return nil
}

// TimedInflict is the GM's Complication for running out of time, rated
// from the last stakes roll (or Rules.OutOfTimeComplication when set);
// onto is as for Inflict, with "out of time" as the new trait's name.
func (e *Engine) TimedInflict(s *State, r *dice.Roller, onto int) error {
	if r == nil {
		return fmt.Errorf("contest: timed inflict: %w", dice.ErrNilRoller)
	}
	t, err := e.timed(s, "inflict the out-of-time Complication", TimedInflictPhase)
	if err != nil {
		return err
	}
	tc := &s.Characters[t.Actor]
	if onto != -1 && (onto < 0 || onto >= len(tc.Traits) || tc.Traits[onto].Kind != Complication) {
		return fmt.Errorf("contest: trait %d of %s is not a complication: pick one of its complications or -1 for a new one", onto, tc.Name)
	}
	nd := s.Rules.OutOfTimeComplication
	if nd == dice.Gone {
		sd := Side{Char: TroublePool, Dice: t.SDice, Faces: t.SFaces}
		nd = e.ratePool(s, r, &sd, nil)
	}
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
