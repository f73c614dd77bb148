package contest

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/named"
)

// ActionKind is the kind of an Action. It reads and writes as its name.
type ActionKind uint8

// Action kinds ("Actions").
const (
	kindNone ActionKind = iota // the zero ActionKind: no kind, never valid
	// Basic: the opposition (side 0) sets the stakes, the actor (side 1)
	// rolls once to beat them.
	Basic
	// Contested: sides raise the stakes in turn until one cannot or Gives In.
	Contested
)

var actionKindNames = named.Enum[ActionKind]{"none", "basic", "contested"}

// String returns the kind's name.
func (k ActionKind) String() string { return actionKindNames.String(k) }

// MarshalText writes the kind's name.
func (k ActionKind) MarshalText() ([]byte, error) { return actionKindNames.Marshal(k) }

// UnmarshalText reads a kind's name.
func (k *ActionKind) UnmarshalText(b []byte) error { return actionKindNames.Unmarshal(b, k) }

// Phase is where an Action stands, and so which step comes next. It reads
// and writes as its name; the zero Phase ("none") is never a valid phase
// of an action, so a saved action without one is refused by Check.
type Phase uint8

// Phases of an Action.
const (
	phaseNone      Phase = iota // the zero Phase: never valid
	PhaseOpen                   // side Turn rolls to set the stakes (or every side rolls)
	PhaseTurn                   // side Turn Gives In or rolls to beat the stakes
	PhasePush                   // side Turn lost by an Extraordinary margin: Final Push or not
	PhaseInflict                // Harms[0] is to be rated and applied
	PhaseInterfere              // interference beat the stakes: each side pays to go on or not
	PhaseBrawl                  // both paid: the three-way roll
	PhaseDone
)

var phaseNames = named.Enum[Phase]{"none", "open", "turn", "push", "inflict", "interfere", "brawl", "done"}

// String returns the phase's name.
func (p Phase) String() string { return phaseNames.String(p) }

// MarshalText writes the phase's name.
func (p Phase) MarshalText() ([]byte, error) { return phaseNames.Marshal(p) }

// UnmarshalText reads a phase's name.
func (p *Phase) UnmarshalText(b []byte) error { return phaseNames.Unmarshal(b, p) }

// End says how an action ended. It reads and writes as its name; the zero
// End is "none", not ended.
type End uint8

// Ways an action ends.
const (
	endNone          End = iota // the zero End: not ended
	EndGaveIn                   // the last loser Gave In: "gave_in"
	EndBeaten                   // the last loser failed by less than the Extraordinary margin: "beaten"
	EndExtraordinary            // the last loser failed by the Extraordinary margin or more: "extraordinary"
	EndStopped                  // an interferer stopped the contest: "stopped"
	EndBrawl                    // decided by the three-way roll after interference: "brawl"
)

var endNames = named.Enum[End]{"none", "gave_in", "beaten", "extraordinary", "stopped", "brawl"}

// String returns the end's name.
func (x End) String() string { return endNames.String(x) }

// MarshalText writes the end's name.
func (x End) MarshalText() ([]byte, error) { return endNames.Marshal(x) }

// UnmarshalText reads an end's name.
func (x *End) UnmarshalText(b []byte) error { return endNames.Unmarshal(b, x) }

// Payment is how a side pays to Give In. It reads and writes as its name.
type Payment uint8

// Ways to pay for Giving In ("Giving In").
const (
	PayNothing      Payment = iota // only before rolling any dice: "nothing"
	PayPlotPoint                   // Plot Points to the opposition: "plot_point"
	PayComplication                // take a d6 Complication: "complication"
)

var paymentNames = named.Enum[Payment]{"nothing", "plot_point", "complication"}

// String returns the payment's name.
func (p Payment) String() string { return paymentNames.String(p) }

// MarshalText writes the payment's name.
func (p Payment) MarshalText() ([]byte, error) { return paymentNames.Marshal(p) }

// UnmarshalText reads a payment's name.
func (p *Payment) UnmarshalText(b []byte) error { return paymentNames.Unmarshal(b, p) }

// CharRef names a character who may not be there: an aider, a planned
// interferer, the interferer. Its zero value, NoOne, names nobody; Ref(i)
// names character i. It writes to JSON as the index, or null for nobody.
type CharRef struct {
	Index int  // the character's index, when Set
	Set   bool // whether a character is named at all
}

// NoOne is the CharRef naming nobody (the zero value).
var NoOne = CharRef{}

// Ref names character i.
func Ref(i int) CharRef { return CharRef{Index: i, Set: true} }

// Get returns the character's index and whether one is named.
func (c CharRef) Get() (int, bool) { return c.Index, c.Set }

// Is reports whether c names character i.
func (c CharRef) Is(i int) bool { return c.Set && c.Index == i }

// IsZero reports whether c names nobody.
func (c CharRef) IsZero() bool { return !c.Set }

// MarshalJSON writes the index, or null.
func (c CharRef) MarshalJSON() ([]byte, error) {
	if !c.Set {
		return []byte("null"), nil
	}
	return json.Marshal(c.Index)
}

// UnmarshalJSON reads an index, or null for nobody.
func (c *CharRef) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*c = NoOne
		return nil
	}
	var i int
	if err := json.Unmarshal(b, &i); err != nil {
		return fmt.Errorf("contest: a character reference is an index or null: %w", err)
	}
	*c = Ref(i)
	return nil
}

// Side is one side of an action as it stands.
type Side struct {
	// Char is the acting character's index, or TroublePool.
	Char int `json:"char"`
	// Gang holds the extra opponents' dice, smallest first; raises knock
	// them off (the largest first, by Rules.MookOffLargest).
	Gang []dice.Die `json:"gang,omitempty"`
	// Base and Extra are the side's planned pool: the free picks, and the
	// picks it may buy with Plot Points, in order of preference. Play uses
	// them; a tool may roll any picks.
	Base  []Pick `json:"base,omitempty"`
	Extra []Pick `json:"extra,omitempty"`
	// Label names the Complications this side inflicts.
	Label string `json:"label"`
	// Aider and AidPicks plan an aiding character for the side's first
	// roll. Aiders lists everyone who has aided it.
	Aider    CharRef `json:"aider,omitzero"`
	AidPicks []Pick  `json:"aid_picks,omitempty"`
	Aiders   []int   `json:"aiders,omitempty"`
	// Aid is the aiding die waiting to be added to the next total.
	Aid    int  `json:"aid,omitempty"`
	Rolled bool `json:"rolled,omitempty"`
	Out    bool `json:"out,omitempty"`
	GaveIn bool `json:"gave_in,omitempty"`
	// Continue records the side's answer to interference (Decided says it
	// has answered).
	Continue bool `json:"continue,omitempty"`
	Decided  bool `json:"decided,omitempty"`
	// The side's last roll: picks, dice (picks then gang), faces, total.
	Picks []Pick     `json:"picks,omitempty"`
	Dice  []dice.Die `json:"dice,omitempty"`
	Faces []int      `json:"faces,omitempty"`
	Total int        `json:"total"`
}

// Harm is a Complication or Trauma waiting to be rated and applied to
// character To by side From's last pool (or, with Fixed set, at that
// size); To is TroublePool for a die off the Trouble Pool.
type Harm struct {
	From   int      `json:"from"`
	To     int      `json:"to"`
	Trauma bool     `json:"trauma,omitempty"`
	Fixed  dice.Die `json:"fixed,omitempty"`
}

// Action is one Basic or Contested action under way.
type Action struct {
	Kind   ActionKind `json:"kind"`
	Sides  []Side     `json:"sides"`
	Phase  Phase      `json:"phase"`
	Turn   int        `json:"turn"`
	Holder int        `json:"holder"` // side holding the stakes, -1 before
	Stakes int        `json:"stakes"`
	// AllRoll: every side rolls to open and the highest sets the stakes.
	AllRoll bool `json:"all_roll,omitempty"`
	Rolls   int  `json:"rolls"`
	Raises  int  `json:"raises"`
	// Margin is how far side Turn is losing by in PhasePush; PushFloor is
	// the least margin a push may leave (0 for a challenger, whose tie
	// loses; 1 for the stakes holder, whose tie would win).
	Margin    int `json:"margin,omitempty"`
	PushFloor int `json:"push_floor,omitempty"`
	Pushes    int `json:"pushes,omitempty"`
	// Bought counts the 1s the GM has bought in this action.
	Bought int `json:"bought,omitempty"`
	// Ones counts the 1s of the last roll the GM may still buy (a player
	// character's roll); OnesSide is the side that rolled them.
	Ones     int `json:"ones,omitempty"`
	OnesSide int `json:"ones_side,omitempty"`
	// OnesChar, when set, names the aider or interferer whose roll left
	// the 1s on offer instead (Rules.OnesOfEveryRoll).
	OnesChar CharRef `json:"ones_char,omitzero"`
	// Escalated: the last step was an escalating roll, so a character may
	// Interfere now.
	Escalated bool `json:"escalated,omitempty"`
	// Planned is the character Play lets interfere when its policy says
	// so, rolling IPicks. Set it after Begin.
	Planned CharRef `json:"planned,omitzero"`
	// Interferer is the interfering character (once one has); IPicks its
	// pool and ITotal its result; Interfered counts the interferences so
	// far (Rules.Interferences bounds them).
	Interferer CharRef `json:"interferer,omitzero"`
	Interfered int     `json:"interfered,omitempty"`
	IPicks     []Pick  `json:"ipicks,omitempty"`
	ITotal     int     `json:"itotal,omitempty"`
	Harms      []Harm  `json:"harms,omitempty"`
	Winner     int     `json:"winner"` // -1: nobody (yet)
	End        End     `json:"end,omitzero"`
	// Reflecting is where the spending of Reflection Points after the
	// ended action stands, one question a step (Engine.Step): 0 when none
	// is left to ask; 1+i when side i's character may next buy back traits
	// a Final Push lowered, 1+len(Sides)+i when the GM may next turn side
	// i's GM character's Reflection Points into Trouble. Step sets it when
	// the action ends, and only for questions someone has the points for;
	// the named steps leave it alone.
	Reflecting int `json:"reflecting,omitempty"`
}

func (a *Action) clone() *Action {
	c := *a
	c.Sides = make([]Side, len(a.Sides))
	for i, sd := range a.Sides {
		sd.Gang = slices.Clone(sd.Gang)
		sd.Base = slices.Clone(sd.Base)
		sd.Extra = slices.Clone(sd.Extra)
		sd.AidPicks = slices.Clone(sd.AidPicks)
		sd.Aiders = slices.Clone(sd.Aiders)
		sd.Picks = slices.Clone(sd.Picks)
		sd.Dice = slices.Clone(sd.Dice)
		sd.Faces = slices.Clone(sd.Faces)
		c.Sides[i] = sd
	}
	c.IPicks = slices.Clone(a.IPicks)
	c.Harms = slices.Clone(a.Harms)
	return &c
}

// reset puts a, an action played from a copy of start, back to start, an
// action just begun, reusing a's buffers. It sets back only what play
// changes: a side's character, label, aider and planned pools stay as they
// are, and a side of an action just begun has no aiders and no roll yet.
func (a *Action) reset(start *Action) {
	sides, ipicks, harms := a.Sides, a.IPicks, a.Harms
	*a = *start
	a.Sides = sides
	a.IPicks = append(ipicks[:0], start.IPicks...)
	a.Harms = append(harms[:0], start.Harms...)
	for i := range a.Sides {
		sd, st := &a.Sides[i], &start.Sides[i]
		sd.Gang = append(sd.Gang[:0], st.Gang...)
		sd.Aiders, sd.Aid = sd.Aiders[:0], 0
		sd.Rolled, sd.Out, sd.GaveIn, sd.Continue, sd.Decided = false, false, false, false, false
		sd.Picks, sd.Dice, sd.Faces, sd.Total = sd.Picks[:0], sd.Dice[:0], sd.Faces[:0], 0
	}
}

// Errors wrapped by rejected steps.
var (
	ErrPhase       = errors.New("contest: not allowed now")
	ErrNoValue     = errors.New("contest: a pool needs the character's Value")
	ErrPlotPoints  = errors.New("contest: not enough Plot Points")
	ErrPayRequired = errors.New("contest: Giving In after rolling costs a Plot Point or a d6 Complication")
	ErrPushWins    = errors.New("contest: a Final Push may never win the action")
)

// SideSetup describes one side when an action begins.
type SideSetup struct {
	Char     int        `json:"char"` // a character index, or TroublePool
	Gang     []dice.Die `json:"gang,omitempty"`
	Base     []Pick     `json:"base,omitempty"`
	Extra    []Pick     `json:"extra,omitempty"`
	Aider    CharRef    `json:"aider,omitzero"` // NoOne: no aider
	AidPicks []Pick     `json:"aid_picks,omitempty"`
	Label    string     `json:"label,omitempty"`
}

// Engine runs the steps of actions on states, each under the state's own
// Rules. Its steps validate everything first and leave the state and the
// Roller untouched when they fail. An Engine holds only its Policies and
// its Sink: the zero Engine is ready to use (every character and the GM
// playing Sensible), and copies of it may run on other goroutines, each
// with its own State.
type Engine struct {
	// Policies answer every choice Step and Play ask about: the one way
	// policies reach the engine. The named steps (Roll, GiveIn, ...) take
	// their choices as arguments and ask nobody.
	Policies Table
	// Sink hears every event; nil builds none.
	Sink func(Event)
}

// onesOnly is the face set of 1s. It is never changed.
var onesOnly = dice.Faces(1)

// excl is the set of faces totals leave out: the 1s, by the rules.
func (r *Rules) excl() dice.FaceSet {
	if r.ExcludeOnes {
		return onesOnly
	}
	return dice.FaceSet{}
}

// total reads faces the way the rules do: the Keep highest, 1s excluded.
func (r *Rules) total(faces []int) int { return dice.SumHighest(faces, r.Keep, r.excl()) }

// countOnes counts the faces showing 1: the opportunities the GM may buy.
func countOnes(faces []int) int { return len(faces) - dice.CountAtLeast(faces, 2) }

// Begin starts an action on s. A basic action has exactly two sides: the
// opposition (a character or the Trouble Pool) first, then the actor. A
// contested action has two or more character sides (the Trouble Pool may
// be one when Rules.TroubleInContests allows); initiator is the side that
// rolls first, or -1 when every side rolls and the highest sets the stakes
// ("Contested Actions"). Only one action, plain or timed, runs at a time.
func (e *Engine) Begin(s *State, kind ActionKind, sides []SideSetup, initiator int) error {
	if err := e.checkBegin(s, kind, sides, initiator); err != nil {
		return err
	}
	e.setup(s, kind, sides, initiator)
	return nil
}

// checkBegin is Begin's validation.
func (e *Engine) checkBegin(s *State, kind ActionKind, sides []SideSetup, initiator int) error {
	if s.Action != nil && s.Action.Phase != PhaseDone {
		return fmt.Errorf("%w: an action is already under way (phase %s)", ErrPhase, s.Action.Phase)
	}
	if s.Timed != nil && s.Timed.Phase != TimedDone {
		return fmt.Errorf("%w: a timed action is under way (phase %s): one action at a time", ErrPhase, s.Timed.Phase)
	}
	switch kind {
	case Basic:
		if len(sides) != 2 {
			return fmt.Errorf("contest: a basic action has 2 sides (opposition, actor), not %d", len(sides))
		}
		if sides[1].Char == TroublePool {
			return errors.New("contest: the actor of a basic action must be a character, not the Trouble Pool")
		}
	case Contested:
		if len(sides) < 2 || len(sides) > maxSides {
			return fmt.Errorf("contest: a contested action has 2..%d sides, not %d", maxSides, len(sides))
		}
		if initiator < -1 || initiator >= len(sides) {
			return fmt.Errorf("contest: initiator %d: must be -1 (all roll) or a side 0..%d", initiator, len(sides)-1)
		}
	default:
		return fmt.Errorf("contest: action kind %v: use %v or %v", kind, Basic, Contested)
	}
	for i, sd := range sides {
		if err := e.checkSideSetup(s, kind, sides, i); err != nil {
			return err
		}
		for _, ps := range [...][]Pick{sd.Base, sd.Extra, sd.AidPicks} {
			if len(ps) > maxPicks {
				return fmt.Errorf("contest: side %d: a pool of %d picks: at most %d", i, len(ps), maxPicks)
			}
			for _, p := range ps {
				if _, err := s.trait(p); err != nil {
					return fmt.Errorf("side %d pool: %w", i, err)
				}
			}
		}
		if err := s.checkPlanned(sd, i); err != nil {
			return err
		}
	}
	return nil
}

// checkPlanned checks side i's planned pools by the rule State.Check
// holds every state to, so that an action Begin accepts can be saved,
// restored and played: a character's Base is a pool of free picks holding
// one of its Values (the extras it pays for are Extra), and an aider's
// pool is one it may roll and holds the Plot Points for.
func (s *State) checkPlanned(sd SideSetup, i int) error {
	if sd.Char != TroublePool {
		if err := s.checkFree(sd.Char, sd.Base, fmt.Sprintf("side %d base", i)); err != nil {
			return err
		}
	}
	if c, ok := sd.Aider.Get(); ok {
		return s.checkAid(c, sd.AidPicks, i)
	}
	return nil
}

// checkSideSetup checks side i's character, gang and aider.
func (e *Engine) checkSideSetup(s *State, kind ActionKind, sides []SideSetup, i int) error {
	sd := sides[i]
	if sd.Char == TroublePool {
		if (kind == Contested && !s.Rules.TroubleInContests) || (kind == Basic && i != 0) {
			return fmt.Errorf("contest: side %d: the Trouble Pool opposes only basic actions (rules.trouble_in_contests is off), as their opposition", i)
		}
		if len(s.Trouble) == 0 {
			return fmt.Errorf("contest: side %d: the Trouble Pool is empty", i)
		}
		if sd.Aider.Set {
			return fmt.Errorf("contest: side %d: nobody aids the Trouble Pool", i)
		}
	} else {
		c, err := s.char(sd.Char)
		if err != nil {
			return fmt.Errorf("side %d: %w", i, err)
		}
		if c.Out() {
			return fmt.Errorf("contest: side %d: %s is out of the scene", i, c.Name)
		}
		for j := 0; j < i; j++ {
			if sides[j].Char == sd.Char {
				return fmt.Errorf("contest: side %d: %s is already side %d", i, c.Name, j)
			}
		}
	}
	if len(sd.Gang) > maxGang {
		return fmt.Errorf("contest: side %d: a gang of %d extra dice: at most %d", i, len(sd.Gang), maxGang)
	}
	for g, d := range sd.Gang {
		if err := d.CheckLadder(); err != nil {
			return fmt.Errorf("contest: side %d gang[%d]: %w", i, g, err)
		}
	}
	if c, ok := sd.Aider.Get(); ok {
		ch, err := s.char(c)
		if err != nil {
			return fmt.Errorf("side %d aider: %w", i, err)
		}
		for _, o := range sides {
			if o.Char == c {
				return fmt.Errorf("contest: side %d: %s cannot aid, being a side", i, ch.Name)
			}
		}
	}
	return nil
}

// setup lays out a new action on s from sides Begin has checked, reusing
// the buffers of a finished one.
func (e *Engine) setup(s *State, kind ActionKind, sides []SideSetup, initiator int) {
	if kind == Basic {
		initiator = 0
	}
	a := s.Action
	if a == nil {
		a = &Action{}
	}
	old, ip, hs := a.Sides[:0], a.IPicks[:0], a.Harms[:0]
	*a = Action{Sides: old, IPicks: ip, Harms: hs}
	a.Kind, a.Phase, a.Turn, a.AllRoll = kind, PhaseOpen, max(initiator, 0), initiator < 0
	a.Holder, a.Winner = -1, -1
	for i := range sides {
		if len(a.Sides) < cap(a.Sides) {
			a.Sides = a.Sides[:i+1]
		} else {
			a.Sides = append(a.Sides, Side{})
		}
		side, sd := &a.Sides[i], &sides[i]
		*side = Side{
			Char: sd.Char, Label: sd.Label, Aider: sd.Aider,
			Gang:     append(side.Gang[:0], sd.Gang...),
			Base:     append(side.Base[:0], sd.Base...),
			Extra:    append(side.Extra[:0], sd.Extra...),
			AidPicks: append(side.AidPicks[:0], sd.AidPicks...),
			Aiders:   side.Aiders[:0], Picks: side.Picks[:0], Dice: side.Dice[:0], Faces: side.Faces[:0],
		}
		slices.Sort(side.Gang)
		if side.Label == "" {
			side.Label = "trouble"
			if sd.Char >= 0 {
				side.Label = s.Characters[sd.Char].Name
			}
		}
	}
	s.Action = a
}

// cost returns the Plot Points a pool of picks costs for character c and
// checks it (see poolTally).
func (s *State) cost(c int, picks []Pick) (int, error) {
	if len(picks) > maxPicks {
		return 0, fmt.Errorf("contest: a pool of %d picks: at most %d", len(picks), maxPicks)
	}
	pt := poolTally{c: c}
	for i, p := range picks {
		if s.take(&pt, p, slices.Contains(picks[:i], p)) == nil {
			return 0, s.unusable(p, c)
		}
	}
	return s.tallied(&pt)
}

// price is cost, also appending the dice the picks roll to dst.
func (s *State) price(c int, picks []Pick, dst []dice.Die) (int, []dice.Die, error) {
	if len(picks) > maxPicks {
		return 0, dst, fmt.Errorf("contest: a pool of %d picks: at most %d", len(picks), maxPicks)
	}
	pt := poolTally{c: c}
	for i, p := range picks {
		t := s.take(&pt, p, slices.Contains(picks[:i], p))
		if t == nil {
			return 0, dst, s.unusable(p, c)
		}
		dst = append(dst, t.Die)
	}
	cost, err := s.tallied(&pt)
	return cost, dst, err
}

// poolTally prices a pool pick by pick ("Choosing Character Traits"): it
// holds at least one of character c's Values, its own traits other than
// Complications and Trauma, other characters' traits only their
// Complications and Trauma, the scene's Aspects; a repeated trait costs
// ReuseCost, and each different trait past FreeTraits ExtraDieCost.
type poolTally struct {
	c        int  // the character whose pool it is
	n        int  // how many picks are taken
	reused   int  // how many of them repeat an earlier one
	hasValue bool // whether one of them is one of c's Values
}

// take adds p, the next pick of the pool (a repeat of one taken before it
// if repeat), to the tally and returns the trait it names; nil, taking
// nothing, when it is not a trait the character may roll (unusable says
// why).
func (s *State) take(pt *poolTally, p Pick, repeat bool) *Trait {
	t := s.traitAt(p)
	if t == nil || !mayRoll(p, pt.c, t) {
		return nil
	}
	pt.add(p, t, repeat)
	return t
}

// add counts p, a pick naming trait t that the character may roll (a
// repeat of one taken before it if repeat).
func (pt *poolTally) add(p Pick, t *Trait, repeat bool) {
	pt.hasValue = pt.hasValue || (p.Owner == pt.c && t.Kind == Value)
	if repeat {
		pt.reused++
	}
	pt.n++
}

// tallied returns what the picks taken cost, or why they are not a pool
// (an empty one holds no Value either).
func (s *State) tallied(pt *poolTally) (int, error) {
	if !pt.hasValue {
		return 0, s.noValue(pt)
	}
	return pt.cost(&s.Rules), nil
}

// cost is what the picks taken cost under rules r: ReuseCost for each
// repeat, ExtraDieCost for each different trait past FreeTraits.
func (pt *poolTally) cost(r *Rules) int {
	distinct := pt.n - pt.reused
	return pt.reused*r.ReuseCost + max(0, distinct-r.FreeTraits)*r.ExtraDieCost
}

// noValue says why the picks taken, holding none of the character's
// Values, are not a pool.
func (s *State) noValue(pt *poolTally) error {
	if pt.n == 0 {
		return fmt.Errorf("%w: the pool is empty", ErrNoValue)
	}
	return fmt.Errorf("%w (%s's pool has none)", ErrNoValue, s.Characters[pt.c].Name)
}

// canPay returns an error unless character c holds cost Plot Points.
func (s *State) canPay(c, cost int) error {
	if cost > s.Characters[c].PlotPoints {
		return s.cannotPay(c, cost)
	}
	return nil
}

// cannotPay says why character c cannot pay cost Plot Points.
func (s *State) cannotPay(c, cost int) error {
	ch := &s.Characters[c]
	return fmt.Errorf("%w: this pool costs %d and %s has %d", ErrPlotPoints, cost, ch.Name, ch.PlotPoints)
}

// mayRoll reports whether character c may roll trait t (named by pick p)
// in its pool: not gone; c's own traits other than Complications and
// Trauma; another character's Complications and Trauma; the scene's
// Aspects. usable says why not.
func mayRoll(p Pick, c int, t *Trait) bool {
	switch {
	case t.Die == dice.Gone:
		return false
	case p.Owner == SceneOwner:
		return true
	case p.Owner == c:
		return t.Kind.Own()
	}
	return t.Kind == Complication || t.Kind == Trauma
}

// unusable returns why pick p is not one character c may roll: it names
// no trait, or usable's reason.
func (s *State) unusable(p Pick, c int) error {
	t, err := s.trait(p)
	if err != nil {
		return err
	}
	return s.usable(p, c, t)
}

// usable returns an error unless character c may roll trait t (named by
// pick p) in its pool (see mayRoll).
func (s *State) usable(p Pick, c int, t *Trait) error {
	switch {
	case t.Die == dice.Gone:
		return fmt.Errorf("contest: %q is gone (stepped below d4) and cannot be rolled", t.Name)
	case p.Owner == SceneOwner:
		return nil
	case p.Owner == c && !t.Kind.Own():
		return fmt.Errorf("contest: %q is %s's own %s: a character rolls only its values, relationships, distinctions, abilities and resources", t.Name, s.Characters[c].Name, t.Kind)
	case p.Owner != c && t.Kind != Complication && t.Kind != Trauma:
		return fmt.Errorf("contest: %q is %s's %s: only another character's complications and trauma may join a pool", t.Name, s.Characters[p.Owner].Name, t.Kind)
	}
	return nil
}

// sideDice appends the dice of a side's pool (picks then gang) to dst[:0];
// the Trouble Pool rolls its dice.
func (s *State) sideDice(sd *Side, picks []Pick, dst []dice.Die) []dice.Die {
	dst = dst[:0]
	if sd.Char == TroublePool {
		return append(dst, s.Trouble...)
	}
	for _, p := range picks {
		if d, ok := s.die(p); ok && d != dice.Gone {
			dst = append(dst, d)
		}
	}
	return append(dst, sd.Gang...)
}

// die returns the rating of the trait p names, and whether it names one.
func (s *State) die(p Pick) (dice.Die, bool) {
	if t := s.traitAt(p); t != nil {
		return t.Die, true
	}
	return dice.Gone, false
}

// poolDice appends the ratings of picks to dst[:0].
func (s *State) poolDice(picks []Pick, dst []dice.Die) []dice.Die {
	return s.sideDice(&Side{}, picks, dst)
}

// next returns the side after t (cyclically) that is still in and is not
// t; t itself when no other is in.
func (a *Action) next(t int) int {
	i := t
	for range len(a.Sides) - 1 {
		if i++; i == len(a.Sides) {
			i = 0
		}
		if !a.Sides[i].Out {
			return i
		}
	}
	return t
}

func (e *Engine) phaseErr(a *Action, what string) error {
	if a == nil {
		return fmt.Errorf("%w: cannot %s: no action under way", ErrPhase, what)
	}
	return fmt.Errorf("%w: cannot %s in phase %s", ErrPhase, what, a.Phase)
}

// action returns s's action when it is in one of the given phases, for
// the step named what. Steps read a state Check has accepted (Play checks
// first; a tool restoring a saved state calls Check) and changed only by
// steps since; action makes the few checks that keep even a state changed
// by hand from sending a step out of bounds: the sides, the turn and the
// holder.
func (e *Engine) action(s *State, what string, phases ...Phase) (*Action, error) {
	a := s.Action
	if a == nil || !slices.Contains(phases, a.Phase) {
		return nil, e.phaseErr(a, what)
	}
	if n := len(a.Sides); n < 2 || a.Turn < 0 || a.Turn >= n || a.Holder < -1 || a.Holder >= n {
		return nil, fmt.Errorf("contest: action with %d sides, turn %d and holder %d: run Check on a restored state", n, a.Turn, a.Holder)
	}
	return a, nil
}
