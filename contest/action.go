package contest

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/stakesrpg/stakes/dice"
)

// ActionKind is the kind of an Action. It is a small integer (compared at
// every step) that reads and writes as its name in JSON and text; the
// zero ActionKind, no kind, reads as "".
type ActionKind uint8

// Action kinds ("Actions").
const (
	kindNone ActionKind = iota // the zero ActionKind: no kind
	// Basic: the opposition (side 0) sets the stakes, the actor (side 1)
	// rolls once to beat them.
	Basic
	// Contested: sides raise the stakes in turn until one cannot or Gives In.
	Contested
)

var actionKindText = [...]string{"", "basic", "contested"}

// String returns the kind's name.
func (k ActionKind) String() string { return nameOf(actionKindText[:], int(k), "ActionKind") }

// MarshalText writes the kind's name.
func (k ActionKind) MarshalText() ([]byte, error) {
	return marshalName(actionKindText[:], int(k), "action kind")
}

// UnmarshalText reads a kind's name.
func (k *ActionKind) UnmarshalText(b []byte) error {
	i, err := unmarshalName(actionKindText[:], b, "action kind")
	if err == nil {
		*k = ActionKind(i)
	}
	return err
}

// nameOf, marshalName and unmarshalName are the text of the small
// integer types that read and write as names: names[i] is the name of
// value i, names[0] that of the zero value.
func nameOf(names []string, i int, typ string) string {
	if uint(i) < uint(len(names)) {
		return names[i]
	}
	return fmt.Sprintf("%s(%d)", typ, i)
}

func marshalName(names []string, i int, what string) ([]byte, error) {
	if uint(i) >= uint(len(names)) {
		return nil, fmt.Errorf("contest: %s %d: no such %s", what, i, what)
	}
	return []byte(names[i]), nil
}

func unmarshalName(names []string, b []byte, what string) (int, error) {
	for i, s := range names {
		if s == string(b) {
			return i, nil
		}
	}
	return 0, fmt.Errorf("contest: unknown %s %q: known are %s", what, b, strings.Join(names[1:], ", "))
}

// Phase is where an Action stands, and so which step comes next. It is a
// small integer (compared and stored at every step) that reads and writes
// as its name in JSON and text; the zero Phase, before any action is laid
// out, reads as "".
type Phase uint8

// Phases of an Action.
const (
	phaseNone      Phase = iota // the zero Phase: no action laid out
	PhaseOpen                   // side Turn rolls to set the stakes (or every side rolls)
	PhaseTurn                   // side Turn Gives In or rolls to beat the stakes
	PhasePush                   // side Turn lost by an Extraordinary margin: Final Push or not
	PhaseInflict                // Harms[0] is to be rated and applied
	PhaseInterfere              // interference beat the stakes: each side pays to go on or not
	PhaseBrawl                  // both paid: the three-way roll
	PhaseDone
)

var phaseText = [...]string{"", "open", "turn", "push", "inflict", "interfere", "brawl", "done"}

// String returns the phase's name.
func (p Phase) String() string {
	if int(p) < len(phaseText) {
		return phaseText[p]
	}
	return fmt.Sprintf("Phase(%d)", int(p))
}

// MarshalText writes the phase's name.
func (p Phase) MarshalText() ([]byte, error) {
	if int(p) >= len(phaseText) {
		return nil, fmt.Errorf("contest: phase %d: no such phase", int(p))
	}
	return []byte(phaseText[p]), nil
}

// UnmarshalText reads a phase's name.
func (p *Phase) UnmarshalText(b []byte) error {
	for i, s := range phaseText {
		if s == string(b) {
			*p = Phase(i)
			return nil
		}
	}
	return fmt.Errorf("contest: unknown phase %q: known are %s", b, strings.Join(phaseText[1:], ", "))
}

// End says how an action ended. It is a small integer that reads and
// writes as its name in JSON and text; the zero End, not ended, reads as
// "".
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

var endText = [...]string{"", "gave_in", "beaten", "extraordinary", "stopped", "brawl"}

// String returns the end's name.
func (x End) String() string { return nameOf(endText[:], int(x), "End") }

// MarshalText writes the end's name.
func (x End) MarshalText() ([]byte, error) { return marshalName(endText[:], int(x), "end") }

// UnmarshalText reads an end's name.
func (x *End) UnmarshalText(b []byte) error {
	i, err := unmarshalName(endText[:], b, "end")
	if err == nil {
		*x = End(i)
	}
	return err
}

// Payment is how a side pays to Give In after it has rolled.
type Payment string

// Ways to pay for Giving In ("Giving In").
const (
	PayNothing      Payment = ""             // only before rolling any dice
	PayPlotPoint    Payment = "plot_point"   // Plot Points to the opposition
	PayComplication Payment = "complication" // take a d6 Complication
)

// Side is one side of an action as it stands.
type Side struct {
	// Char is the acting character's index, or TroublePool.
	Char int `json:"char"`
	// Gang holds the extra opponents' dice, smallest first; raises knock
	// the largest off.
	Gang []dice.Die `json:"gang,omitempty"`
	// Base and Extra are the side's planned pool: the free picks, and the
	// picks it may buy with Plot Points, in order of preference. Play uses
	// them; a tool may roll any picks.
	Base  []Pick `json:"base,omitempty"`
	Extra []Pick `json:"extra,omitempty"`
	// Label names the Complications this side inflicts.
	Label string `json:"label"`
	// Aider and AidPicks plan an aiding character for the side's first
	// roll (Aider -1: none). Aiders lists everyone who has aided it.
	Aider    int    `json:"aider"`
	AidPicks []Pick `json:"aid_picks,omitempty"`
	Aiders   []int  `json:"aiders,omitempty"`
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
// character To by side From's last pool (or, with Fixed set, at that size).
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
	// Escalated: the last step was an escalating roll, so a character may
	// Interfere now.
	Escalated bool `json:"escalated,omitempty"`
	// Planned is the character Play lets interfere when its policy says so
	// (-1: none), rolling IPicks. Set it after Begin.
	Planned int `json:"planned"`
	// Interferer is the interfering character (-1: none yet); IPicks its
	// pool and ITotal its result.
	Interferer int    `json:"interferer"`
	IPicks     []Pick `json:"ipicks,omitempty"`
	ITotal     int    `json:"itotal,omitempty"`
	Harms      []Harm `json:"harms,omitempty"`
	Winner     int    `json:"winner"` // -1: nobody (yet)
	End        End    `json:"end,omitempty"`
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
	Aider    int        `json:"aider"` // -1: none
	AidPicks []Pick     `json:"aid_picks,omitempty"`
	Label    string     `json:"label,omitempty"`
}

// Engine runs actions on scenes under a set of Rules. Its steps validate
// everything first and leave the scene untouched when they fail. An Engine
// keeps scratch buffers, so give each goroutine its own.
type Engine struct {
	Rules Rules
	// Sink receives events; nil turns them off (and costs nothing).
	Sink Sink

	pool  []dice.Die
	faces []int
	// The sides' plans (see sidePlan), worked out for the action of scene
	// planFor.
	plans   []sidePlan
	planFor *Scene
	planAct *Action
	// trustPlans: the plans are those of the sides as they stand, so
	// turnView need not check (a Runner's relayed trial).
	trustPlans bool
	// The plan turnView checked: see there.
	planLo, planHi int
	planDice       []dice.Die
	planCost       []int
	picks          []Pick
	steps          []Pick
	opts           []PushOption
	comp           []dice.Die
	cfac           []int
	// loud turns the quiet pass off, general rollBasic (tests play the
	// two ways).
	loud    bool
	general bool
	// basicRolls counts rollBasic's rolls (so a test knows it ran).
	basicRolls int
	quiet      quietMemo
	// tabs rolls pools the Engine has rolled before from tables (see
	// fastroll.go).
	tabs tables
}

// NewEngine returns an Engine with the given rules, after checking them.
func NewEngine(r Rules) (*Engine, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	return &Engine{Rules: r}, nil
}

// ones is the face set of 1s, built once.
var ones = dice.Faces(1)

func (e *Engine) excl() dice.FaceSet {
	if e.Rules.ExcludeOnes {
		return ones
	}
	return dice.FaceSet{}
}

// total reads faces the way the rules do: the Keep highest, 1s excluded.
func (e *Engine) total(faces []int) int { return dice.SumHighest(faces, e.Rules.Keep, e.excl()) }

// read is total and countOnes in one pass for the shipped reading (the two
// highest, 1s out), which every roll of an action makes; other rules read
// through total. Faces are 1..sides, so f-1 clipped to 0..1 is 0 for a 1
// and 1 otherwise: the loop runs without branches on the (random) faces.
func (e *Engine) read(faces []int) (total, ones int) {
	if e.Rules.Keep != 2 || !e.Rules.ExcludeOnes {
		return e.total(faces), countOnes(faces)
	}
	a, b := 0, 0
	for _, f := range faces {
		k := min(max(f-1, 0), 1)
		x := f * k // a 1 counts as 0
		ones += 1 - k
		b = max(b, min(a, x))
		a = max(a, x)
	}
	return a + b, ones
}

// Begin starts an action on s. A basic action has exactly two sides: the
// opposition (a character or the Trouble Pool) first, then the actor. A
// contested action has two or more character sides; initiator is the side
// that rolls first, or -1 when every side rolls and the highest sets the
// stakes ("Contested Actions").
//
// Begin also checks each side's planned pools (Base, then Base with the
// first Extra picks) once, so that rolling exactly one of them later (Roll
// with the side's Base, or Play) only re-reads the ratings: a trait lost
// since is still refused, and a side whose picks a tool changes is checked
// afresh, but a trait whose kind a tool changes in the middle of an action
// is not looked at again for those pools.
func (e *Engine) Begin(s *Scene, kind ActionKind, sides []SideSetup, initiator int) error {
	if s.Action != nil && s.Action.Phase != PhaseDone {
		return fmt.Errorf("%w: an action is already under way (phase %s)", ErrPhase, s.Action.Phase)
	}
	switch kind {
	case Basic:
		if len(sides) != 2 {
			return fmt.Errorf("contest: a basic action has 2 sides (opposition, actor), not %d", len(sides))
		}
		if sides[1].Char == TroublePool {
			return errors.New("contest: the actor of a basic action must be a character, not the Trouble Pool")
		}
		initiator = 0
	case Contested:
		if len(sides) < 2 || len(sides) > 16 {
			return fmt.Errorf("contest: a contested action has 2..16 sides, not %d", len(sides))
		}
		if initiator < -1 || initiator >= len(sides) {
			return fmt.Errorf("contest: initiator %d: must be -1 (all roll) or a side 0..%d", initiator, len(sides)-1)
		}
	default:
		return fmt.Errorf("contest: action kind %q: use %q or %q", kind, Basic, Contested)
	}
	for i, sd := range sides {
		if sd.Char == TroublePool {
			if kind == Contested || i != 0 {
				return fmt.Errorf("contest: side %d: only the opposition of a basic action may be the Trouble Pool", i)
			}
			if len(s.Trouble) == 0 {
				return fmt.Errorf("contest: side %d: the Trouble Pool is empty", i)
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
		if len(sd.Gang) > 50 {
			return fmt.Errorf("contest: side %d: a gang of %d extra dice: at most 50", i, len(sd.Gang))
		}
		for g, d := range sd.Gang {
			if err := d.CheckLadder(); err != nil {
				return fmt.Errorf("contest: side %d gang[%d]: %w", i, g, err)
			}
		}
		for _, ps := range [...][]Pick{sd.Base, sd.Extra, sd.AidPicks} {
			for _, p := range ps {
				if s.traitPtr(p) == nil {
					_, err := s.trait(p)
					return fmt.Errorf("side %d pool: %w", i, err)
				}
			}
		}
		if sd.Aider >= 0 {
			c, err := s.char(sd.Aider)
			if err != nil {
				return fmt.Errorf("side %d aider: %w", i, err)
			}
			for _, o := range sides {
				if o.Char == sd.Aider {
					return fmt.Errorf("contest: side %d: %s cannot aid, being a side", i, c.Name)
				}
			}
		} else if sd.Aider != -1 {
			return fmt.Errorf("contest: side %d: aider %d: use -1 for none", i, sd.Aider)
		}
	}
	e.setup(s, kind, sides, initiator)
	e.prepare(s)
	return nil
}

// setup lays out a new action on s from sides Begin has checked.
func (e *Engine) setup(s *Scene, kind ActionKind, sides []SideSetup, initiator int) {
	if kind == Basic {
		initiator = 0
	}
	a := s.Action
	if a == nil {
		a = &Action{}
	} else {
		// Reuse the finished action's buffers. Cleared, then set field by
		// field: a composite literal would be built aside and copied in.
		old, ip, hs := a.Sides[:0], a.IPicks[:0], a.Harms[:0]
		*a = Action{}
		a.Sides, a.IPicks, a.Harms = old, ip, hs
	}
	a.Kind, a.Phase, a.Turn, a.AllRoll = kind, PhaseOpen, max(initiator, 0), initiator < 0
	a.Holder, a.Interferer, a.Planned, a.Winner = -1, -1, -1, -1
	for i := range sides {
		sd := &sides[i]
		n := len(a.Sides)
		if n < cap(a.Sides) {
			a.Sides = a.Sides[:n+1]
		} else {
			a.Sides = append(a.Sides, Side{})
		}
		// Field by field, keeping every buffer: a trial allocates nothing.
		side := &a.Sides[n]
		side.Char, side.Label, side.Aider = sd.Char, sd.Label, sd.Aider
		side.Gang = append(side.Gang[:0], sd.Gang...)
		// A Runner lays out the same sides every trial: compare before
		// copying, which is cheaper than a copy call for a few picks.
		setPicks(&side.Base, sd.Base)
		setPicks(&side.Extra, sd.Extra)
		setPicks(&side.AidPicks, sd.AidPicks)
		side.Aiders, side.Picks, side.Dice, side.Faces = side.Aiders[:0], side.Picks[:0], side.Dice[:0], side.Faces[:0]
		side.Aid, side.Rolled, side.Out, side.GaveIn, side.Continue, side.Decided, side.Total = 0, false, false, false, false, false, 0
		if !slices.IsSorted(side.Gang) {
			slices.Sort(side.Gang)
		}
		if side.Label == "" {
			side.Label = "trouble"
			if sd.Char >= 0 {
				side.Label = s.Characters[sd.Char].Name
			}
		}
	}
	s.Action = a
}

// relay lays action a out again from the sides setup last laid it out
// from, as a Runner does trial after trial. Playing an action changes a
// side's gang and what it rolls, wins and loses, never its character,
// label, aider or planned picks, so those stay as they are; everything
// else is set as setup sets it (TestRelayAsSetup). The gangs in sides must
// be sorted, as setup keeps them.
func (e *Engine) relay(a *Action, sides []SideSetup, kind ActionKind, initiator int) {
	if kind == Basic {
		initiator = 0
	}
	// Field by field rather than clearing the whole Action: its slices
	// keep their buffers, and a store over each pointer of a cleared
	// heap object costs more than the few fields an action changes.
	ss := a.Sides[:len(sides)]
	a.Sides, a.IPicks, a.Harms = ss, a.IPicks[:0], a.Harms[:0]
	a.Kind, a.Phase, a.Turn, a.AllRoll = kind, PhaseOpen, max(initiator, 0), initiator < 0
	a.Holder, a.Interferer, a.Planned, a.Winner = -1, -1, -1, -1
	a.Stakes, a.Rolls, a.Raises, a.Margin, a.PushFloor, a.Pushes, a.Bought = 0, 0, 0, 0, 0, 0, 0
	a.Ones, a.OnesSide, a.Escalated, a.ITotal, a.End = 0, 0, false, 0, endNone
	for i := range ss {
		side := &ss[i]
		if g := sides[i].Gang; len(g) <= cap(side.Gang) {
			// A gang is a few dice: a loop costs less than memmove.
			sg := side.Gang[:len(g)]
			for j, d := range g[:len(sg)] {
				sg[j] = d
			}
			side.Gang = sg
		} else {
			side.Gang = append(side.Gang[:0], g...)
		}
		side.Aiders, side.Picks, side.Dice, side.Faces = side.Aiders[:0], side.Picks[:0], side.Dice[:0], side.Faces[:0]
		side.Aid, side.Rolled, side.Out, side.GaveIn, side.Continue, side.Decided, side.Total = 0, false, false, false, false, false, 0
	}
}

// setPicks makes *dst hold the picks of src, in its own buffer.
func setPicks(dst *[]Pick, src []Pick) {
	if !slices.Equal(*dst, src) {
		*dst = append((*dst)[:0], src...)
	}
}

// cost returns the Plot Points a pool of picks costs for character c and
// checks it ("Choosing Character Traits"): at least one of c's Values, own
// traits other than Complications and Trauma, other characters' traits only
// their Complications and Trauma, the scene's Aspects; a repeated trait
// costs ReuseCost, and each different trait past FreeTraits ExtraDieCost.
// On success e.pool holds the picks' dice, in order, so a step that goes on
// to roll them need not look the traits up again.
func (e *Engine) cost(s *Scene, c int, picks []Pick) (int, error) {
	if len(picks) == 0 {
		return 0, fmt.Errorf("%w: the pool is empty", ErrNoValue)
	}
	if len(picks) > 50 {
		return 0, fmt.Errorf("contest: a pool of %d picks: at most 50", len(picks))
	}
	hasValue, reused := false, 0
	seen := pickSet{c: c}
	pool := e.pool[:0]
	for i, p := range picks {
		t := s.traitPtr(p)
		if t == nil {
			_, err := s.trait(p)
			return 0, err
		}
		ok, value := usable(p, c, t)
		if !ok {
			switch {
			case t.Die == dice.Gone:
				return 0, fmt.Errorf("contest: %q is gone (stepped below d4) and cannot be rolled", t.Name)
			case p.Owner == c:
				return 0, fmt.Errorf("contest: %q is %s's own %s: a character rolls only its values, relationships, distinctions, abilities and resources", t.Name, s.Characters[c].Name, t.Kind)
			}
			return 0, fmt.Errorf("contest: %q is %s's %s: only another character's complications and trauma may join a pool", t.Name, s.Characters[p.Owner].Name, t.Kind)
		}
		hasValue = hasValue || value
		if dup, known := seen.add(p); dup || !known && slices.Contains(picks[:i], p) {
			reused++
		}
		pool = append(pool, t.Die)
	}
	e.pool = pool
	if !hasValue {
		return 0, fmt.Errorf("%w (%s's pool has none)", ErrNoValue, s.Characters[c].Name)
	}
	distinct := len(picks) - reused
	return reused*e.Rules.ReuseCost + max(0, distinct-e.Rules.FreeTraits)*e.Rules.ExtraDieCost, nil
}

// usable reports whether character c may roll trait t (named by pick p)
// in its pool, and whether it is one of c's Values: not gone; c's own
// traits other than Complications and Trauma; another character's
// Complications and Trauma; the scene's Aspects.
func usable(p Pick, c int, t *Trait) (ok, value bool) {
	if t.Die == dice.Gone {
		return false, false
	}
	return kindOK(p, c, t)
}

// kindOK is usable without the rating: whether c may roll a trait of
// t's kind and owner, and whether it is one of c's Values.
func kindOK(p Pick, c int, t *Trait) (ok, value bool) {
	switch {
	case p.Owner == SceneOwner:
		return true, false
	case p.Owner == c:
		if t.Kind == Value {
			return true, true
		}
		return t.Kind.Own(), false
	}
	return t.Kind == Complication || t.Kind == Trauma, false
}

// pickSet tells repeated picks apart as a pool is priced: a bit for each
// of character c's first 64 traits (the picks a pool is made of), a scan
// of the earlier picks for any other.
type pickSet struct {
	c   int
	own uint64
}

// add adds p and reports whether it was there already; known is false
// (and dup meaningless) for a pick the bit set does not cover, which the
// caller looks up among the earlier picks.
func (ps *pickSet) add(p Pick) (dup, known bool) {
	if p.Owner != ps.c || uint(p.Trait) >= 64 {
		return false, false
	}
	bit := uint64(1) << uint(p.Trait)
	dup = ps.own&bit != 0
	ps.own |= bit
	return dup, true
}

// sideDice appends the dice of a side's pool (picks then gang) to dst.
func (s *Scene) sideDice(sd *Side, picks []Pick, dst []dice.Die) []dice.Die {
	dst = dst[:0]
	if sd.Char == TroublePool {
		return append(dst, s.Trouble...)
	}
	for _, p := range picks {
		if t := s.traitPtr(p); t != nil {
			dst = append(dst, t.Die)
		}
	}
	return append(dst, sd.Gang...)
}

// Roll is side Turn rolling the given picks (ignored for the Trouble Pool):
// it opens the stakes, raises them, or fails to. Plot Points for extra or
// repeated traits are spent from the character first ("Plot Points must be
// spent and the pool must be completely built before the dice are rolled").
//
// Roll itself is the straight line for the usual step of a basic action
// (see basic.go); rollAny is the rest.
func (e *Engine) Roll(s *Scene, r *dice.Roller, picks []Pick) error {
	return e.rollBasic(s, r, picks)
}

// rollAny is Roll but for rollBasic's straight line.
func (e *Engine) rollAny(s *Scene, r *dice.Roller, picks []Pick) error {
	a := s.Action
	if a == nil || (a.Phase != PhaseOpen && a.Phase != PhaseTurn) {
		return e.phaseErr(a, "roll")
	}
	t := a.Turn
	sd := &a.Sides[t]
	if sd.Char == TroublePool {
		return e.roll(s, r, nil, nil, nil, 0)
	}
	// The side's planned pool was checked when the action began: only its
	// dice need reading.
	if e.planFor == s && e.planAct == a && t < len(e.plans) {
		if pl := &e.plans[t]; pl.char == sd.Char && pl.valid(0) && len(picks) == pl.base {
			if done, err := e.rollPlanned(s, r, t, sd, picks, pl); done {
				return err
			}
		}
	}
	cost, err := e.cost(s, sd.Char, picks)
	if err != nil {
		return err
	}
	return e.roll(s, r, picks, nil, e.pool, cost)
}

// rollPlanned is Roll for side t (character sd.Char) rolling picks, its
// planned base pool pl (whose checks Begin made). It reads the ratings and
// checks each trait is still there in one pass, and rolls a pool the
// tables cover in a straight line; any other pool goes through rollSide.
// It reports false, having changed nothing, when picks are not that plan
// or a trait is gone, which is for cost to report.
func (e *Engine) rollPlanned(s *Scene, r *dice.Roller, t int, sd *Side, picks []Pick, pl *sidePlan) (bool, error) {
	n := len(picks)
	if n > fastDice || n > len(pl.picks) || len(pl.cost) == 0 {
		return false, nil
	}
	var ds [fastDice]dice.Die
	key, all, ok := readPlanned(s, picks, pl.picks, &ds)
	if !ok {
		return false, nil
	}
	if cost := pl.cost[0]; cost != 0 {
		if err := e.spend(s, t, sd.Char, cost); err != nil {
			return true, err
		}
	}
	l := e.tabs.slot[slotOf(key)]
	if l == nil || l.key != key || all > 14 || l.nch != 1 || len(sd.Gang) > 0 || r.Remaining() != 0 ||
		cap(sd.Picks) < n || cap(sd.Dice) < n || cap(sd.Faces) < n || e.Rules.Keep != 2 || !e.Rules.ExcludeOnes {
		total, ones := e.rollSide(r, sd, picks, nil, ds[:n])
		e.rolled(s, r, t, total, ones)
		return true, nil
	}
	// The common case: rollSide and layout.roll for one chunk, written
	// out (TestRollPlannedAsRollSide holds them to each other).
	sd.Picks = sd.Picks[:n]
	sd.Dice = sd.Dice[:n]
	sd.Faces = sd.Faces[:n]
	dp, dd := sd.Picks[:n], sd.Dice[:n]
	for i, p := range picks {
		dp[i], dd[i] = p, ds[i]
	}
	ent := l.ch[0].tab[r.IntN(l.prod)]
	unpack(ent, sd.Faces)
	e.rolled(s, r, t, entTotal(ent), entOnesOf(ent))
	return true, nil
}

// readPlanned reads the ratings of picks into ds when picks are the first
// len(picks) (at most fastDice) of the planned picks plan and each still
// names a trait to roll, with their key for the tables as poolKey packs it
// (all is under 15 when the tables cover every size); otherwise ok is
// false.
func readPlanned(s *Scene, picks, plan []Pick, ds *[fastDice]dice.Die) (key uint64, all uint, ok bool) {
	if len(picks) > len(ds) || len(picks) > len(plan) {
		return 0, 0, false
	}
	plan = plan[:len(picks)]
	for i, p := range picks {
		if p != plan[i] {
			return 0, 0, false
		}
		d := s.dieOf(p)
		if d == dice.Gone {
			return 0, 0, false
		}
		ds[i] = d
		all |= uint(d - 2)
		key = key<<4 | uint64(d-1)
	}
	return key, all, true
}

// readDice fills e.pool with the ratings of picks and reports whether each
// names a trait that is still there to roll.
func (e *Engine) readDice(s *Scene, picks []Pick) bool {
	if cap(e.pool) < len(picks) {
		e.pool = make([]dice.Die, 0, len(picks)+8)
	}
	pool := e.pool[:len(picks)]
	for i, p := range picks {
		t := s.traitPtr(p)
		if t == nil || t.Die == dice.Gone {
			return false
		}
		pool[i] = t.Die
	}
	e.pool = pool
	return true
}

// errRecheck is roll's answer, changing nothing, when a pick it was to
// read the rating of no longer names a trait to roll.
var errRecheck = errors.New("contest: recheck the pool")

// roll is Roll once the picks (picks then more) are checked: ds are their
// dice and cost their price (all ignored for the Trouble Pool). A nil ds
// with no more picks has roll read the ratings of picks, returning
// errRecheck before changing anything if one names no trait or a gone one.
func (e *Engine) roll(s *Scene, r *dice.Roller, picks, more []Pick, ds []dice.Die, cost int) error {
	a := s.Action
	t := a.Turn
	sd := &a.Sides[t]
	if sd.Char == TroublePool {
		sd.Picks = sd.Picks[:0]
		sd.Dice = append(sd.Dice[:0], s.Trouble...)
		var total, ones int
		sd.Faces, total, ones = e.rollRead(r, sd.Dice, sd.Faces)
		e.rolled(s, r, t, total, ones)
		return nil
	}
	var read [fastDice]dice.Die
	if ds == nil {
		if len(picks) > len(read) {
			if !e.readDice(s, picks) {
				return errRecheck
			}
			ds = e.pool
		} else {
			ds = read[:len(picks)]
			if !readInto(s, picks, ds) {
				return errRecheck
			}
		}
	}
	if cost != 0 {
		if err := e.spend(s, t, sd.Char, cost); err != nil {
			return err
		}
	}
	total, ones := e.rollSide(r, sd, picks, more, ds)
	e.rolled(s, r, t, total, ones)
	return nil
}

// readInto writes the ratings of picks into ds (as long) and reports
// whether each names a trait that is still there to roll.
func readInto(s *Scene, picks []Pick, ds []dice.Die) bool {
	ds = ds[:len(picks)]
	for i, p := range picks {
		tr := s.traitPtr(p)
		if tr == nil || tr.Die == dice.Gone {
			return false
		}
		ds[i] = tr.Die
	}
	return true
}

// spend has side t's character c pay cost Plot Points for its pool, or
// says it cannot.
func (e *Engine) spend(s *Scene, t, c, cost int) error {
	ch := &s.Characters[c]
	if cost > ch.PlotPoints {
		return fmt.Errorf("%w: this pool costs %d and %s has %d", ErrPlotPoints, cost, ch.Name, ch.PlotPoints)
	}
	ch.PlotPoints -= cost
	if e.Sink != nil {
		e.Sink.Event(Event{Kind: EvPlotPoints, Side: t, Char: c, Value: -cost})
	}
	return nil
}

// rollSide makes picks then more (dice ds) side sd's last pool, with its
// gang after them, rolls it and returns what the rules read from the
// faces and the count of 1s.
func (e *Engine) rollSide(r *dice.Roller, sd *Side, picks, more []Pick, ds []dice.Die) (total, ones int) {
	// The buffers grow only when a side first rolls more dice than ever
	// before.
	np, n := len(picks), len(picks)+len(more)
	m := n + len(sd.Gang)
	if cap(sd.Picks) < n || cap(sd.Dice) < m || cap(sd.Faces) < m {
		// Out of line, so that the common case keeps its values in
		// registers.
		sd.grow(n, m)
		return e.rollSide(r, sd, picks, more, ds)
	}
	sd.Picks = sd.Picks[:n]
	sd.Dice = sd.Dice[:m]
	sd.Faces = sd.Faces[:m]
	// Loops rather than copy: a call to memmove costs more than a few
	// picks.
	dp := sd.Picks
	//lint:ignore S1001 a loop, as the comment above says
	for i, p := range picks {
		dp[i] = p
	}
	if len(more) > 0 {
		for i, p := range more {
			dp[np+i] = p
		}
	}
	// One pass copies the dice and packs their key for the tables (all
	// says whether every size is one they cover).
	dd := sd.Dice
	key, all := uint64(0), uint(0)
	for i, d := range ds[:n] {
		dd[i] = d
		all |= uint(d - 2)
		key = key<<4 | uint64(d-1)
	}
	if len(sd.Gang) > 0 {
		for i, d := range sd.Gang {
			dd[n+i] = d
			all |= uint(d - 2)
			key = key<<4 | uint64(d-1)
		}
	}
	if l := e.tabs.slot[slotOf(key)]; l != nil && l.key == key && all <= 14 && m <= fastDice && r.Remaining() == 0 {
		top2, ones := l.roll(r, sd.Faces)
		if e.Rules.Keep != 2 || !e.Rules.ExcludeOnes {
			top2 = e.total(sd.Faces)
		}
		return top2, ones
	}
	sd.Faces, total, ones = e.rollRead(r, sd.Dice, sd.Faces)
	return total, ones
}

// grow gives the side's roll buffers room for n picks and m dice.
func (sd *Side) grow(n, m int) {
	if cap(sd.Picks) < n {
		sd.Picks = make([]Pick, n, n+8)
	}
	if cap(sd.Dice) < m {
		sd.Dice = make([]dice.Die, m, m+8)
	}
	if cap(sd.Faces) < m {
		sd.Faces = make([]int, m, m+8)
	}
}

// rolled finishes side t's roll once its faces are in: total is what the
// rules read from them and ones the count of 1s.
func (e *Engine) rolled(s *Scene, r *dice.Roller, t, total, ones int) {
	a := s.Action
	sd := &a.Sides[t]
	sd.Total = total + sd.Aid
	sd.Aid = 0
	sd.Rolled = true
	a.Rolls++
	a.Ones = 0
	if sd.Char != TroublePool && !s.Characters[sd.Char].GM {
		a.Ones, a.OnesSide = ones, t
	}
	if e.Sink != nil {
		e.Sink.Event(Event{Kind: EvRolled, Side: t, Char: sd.Char, Value: sd.Total, Dice: sd.Dice, Faces: sd.Faces})
	}
	if a.Phase == PhaseOpen {
		e.opened(s, t)
		return
	}
	e.answer(s, r, t)
}

// countOnes counts the faces showing 1: the opportunities the GM may buy.
func countOnes(faces []int) int {
	n := 0
	for _, f := range faces {
		if f == 1 {
			n++
		}
	}
	return n
}

// opened handles an opening roll.
func (e *Engine) opened(s *Scene, t int) {
	a := s.Action
	if !a.AllRoll {
		a.Holder, a.Stakes, a.Phase, a.Escalated = t, a.Sides[t].Total, PhaseTurn, true
		a.Turn = a.next(t)
		if e.Sink != nil {
			e.Sink.Event(Event{Kind: EvStakes, Side: t, Char: a.Sides[t].Char, Value: a.Stakes})
		}
		return
	}
	if t+1 < len(a.Sides) {
		a.Turn = t + 1
		return
	}
	// Everyone has rolled: the highest sets the stakes; a tie for highest
	// means everyone rolls again. [ours]
	best, who, tie := -1, -1, false
	for i := range a.Sides {
		switch v := a.Sides[i].Total; {
		case v > best:
			best, who, tie = v, i, false
		case v == best:
			tie = true
		}
	}
	if tie {
		a.Turn = 0
		return
	}
	a.Holder, a.Stakes, a.Phase, a.Escalated = who, best, PhaseTurn, true
	a.Turn = a.next(who)
	if e.Sink != nil {
		e.Sink.Event(Event{Kind: EvStakes, Side: who, Char: a.Sides[who].Char, Value: best})
	}
}

// next returns the side after t (cyclically) that is still in and is not t.
func (a *Action) next(t int) int {
	i := t
	for range len(a.Sides) - 1 {
		if i++; i == len(a.Sides) {
			i = 0 // wrap without a division
		}
		if !a.Sides[i].Out {
			return i
		}
	}
	return t
}

// answer handles side t's roll against the stakes.
func (e *Engine) answer(s *Scene, r *dice.Roller, t int) {
	a := s.Action
	sd := &a.Sides[t]
	if sd.Total > a.Stakes {
		m := sd.Total - a.Stakes
		h := a.Holder
		if a.Kind == Basic {
			// The actor beat the stakes; the opposition has no answer.
			e.lose(s, r, h, m, 1)
			return
		}
		// A raise whittles down the gang of the side that held the stakes
		// ("Ganging Up").
		off := e.Rules.MookOff
		if m >= e.Rules.Extraordinary {
			off = e.Rules.MookOffExtraordinary
		}
		hs := &a.Sides[h]
		for ; off > 0 && len(hs.Gang) > 0; off-- {
			d := hs.Gang[len(hs.Gang)-1]
			hs.Gang = hs.Gang[:len(hs.Gang)-1]
			if e.Sink != nil {
				e.Sink.Event(Event{Kind: EvMookOff, Side: h, Char: hs.Char, Die: d})
			}
		}
		a.Holder, a.Stakes, a.Escalated = t, sd.Total, true
		a.Raises++
		a.Turn = a.next(t)
		if e.Sink != nil {
			e.Sink.Event(Event{Kind: EvRaised, Side: t, Char: sd.Char, Value: sd.Total})
		}
		return
	}
	a.Escalated = false
	if e.Sink != nil {
		e.Sink.Event(Event{Kind: EvFailed, Side: t, Char: sd.Char, Value: a.Stakes - sd.Total})
	}
	e.lose(s, r, t, a.Stakes-sd.Total, 0)
}

// canPush reports whether side t's last pool holds a trait of its own it
// could step down for a Final Push.
func (s *Scene) canPush(a *Action, t int) bool {
	sd := &a.Sides[t]
	if sd.Char == TroublePool {
		return false
	}
	ts := s.Characters[sd.Char].Traits
	for _, p := range sd.Picks {
		if p.Owner != sd.Char || uint(p.Trait) >= uint(len(ts)) {
			continue
		}
		if tr := &ts[p.Trait]; tr.Die != dice.Gone && tr.Kind.Own() {
			return true
		}
	}
	return false
}

// lose puts side t on the losing end by margin m: a Final Push if it may,
// else the loss itself. floor is the least margin a push may leave.
func (e *Engine) lose(s *Scene, r *dice.Roller, t, m, floor int) {
	a := s.Action
	if m >= e.Rules.Extraordinary && m-e.Rules.PushBonus >= floor && s.canPush(a, t) {
		a.Phase, a.Turn, a.Margin, a.PushFloor = PhasePush, t, m, floor
		return
	}
	e.settle(s, t, m)
}

// settle applies side t's loss by margin m: the winner (the stakes holder,
// or in a basic action the actor) deals a Complication or, by the
// Extraordinary margin, Knocked Out and Trauma; the Trouble Pool loses dice
// instead; the loser earns a Reflection Point and its aiders take harm.
func (e *Engine) settle(s *Scene, t, m int) {
	a := s.Action
	w := a.Holder
	if w == t {
		w = 1 // a basic action's actor beat the opposition
	}
	sd := &a.Sides[t]
	sd.Out = true
	xo := m >= e.Rules.Extraordinary
	if sd.Char == TroublePool {
		// Each die off the Trouble Pool is the winner's choice, made as
		// the harm is dealt.
		off := e.Rules.TroubleOffOnWin
		if xo {
			off = e.Rules.TroubleOffOnExtraordinary
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
func (e *Engine) afterLoss(s *Scene, t int, end End) {
	a := s.Action
	in, last := 0, -1
	for i := range a.Sides {
		if !a.Sides[i].Out {
			in, last = in+1, i
		}
	}
	if in <= 1 {
		if last >= 0 {
			a.Winner = last
		}
		a.End = end
		if e.Sink != nil {
			e.Sink.Event(Event{Kind: EvWon, Side: a.Winner, Char: a.Sides[a.Winner].Char})
		}
	} else {
		a.Turn = a.next(t)
		if a.Turn == a.Holder {
			a.Turn = a.next(a.Turn)
		}
	}
	a.Phase = PhaseTurn
	if a.Winner >= 0 {
		a.Phase = PhaseDone
	}
	if len(a.Harms) > 0 {
		a.Phase = PhaseInflict
	}
}

func (e *Engine) reflect(s *Scene, c int) {
	if e.Rules.ReflectionOnLoss == 0 {
		return
	}
	ch := &s.Characters[c]
	ch.Reflection += e.Rules.ReflectionOnLoss
	if e.Sink != nil {
		e.Sink.Event(Event{Kind: EvReflection, Side: -1, Char: c, Value: e.Rules.ReflectionOnLoss})
	}
}

// troubleOff removes die k of the Trouble Pool (checked by the caller).
func (e *Engine) troubleOff(s *Scene, k int) {
	d := s.Trouble[k]
	s.Trouble = append(s.Trouble[:k], s.Trouble[k+1:]...)
	if e.Sink != nil {
		e.Sink.Event(Event{Kind: EvTrouble, Side: -1, Char: -1, Value: -1, Die: d})
	}
}

// GiveIn is side Turn Giving In. Before it has rolled any dice it is free
// (pay PayNothing); after, it costs a Plot Point to the stakes holder or a
// d6 Complication ("Giving In"). It earns no Reflection Point.
func (e *Engine) GiveIn(s *Scene, pay Payment) error {
	a := s.Action
	if a == nil || a.Phase != PhaseTurn {
		return e.phaseErr(a, "give in")
	}
	t := a.Turn
	sd := &a.Sides[t]
	var ch *Character
	if sd.Char != TroublePool {
		ch = &s.Characters[sd.Char]
	}
	switch {
	case !sd.Rolled && pay != PayNothing:
		return fmt.Errorf("contest: payment %q: Giving In before rolling is free", pay)
	case sd.Rolled && pay == PayNothing:
		return ErrPayRequired
	case pay != PayNothing && ch == nil:
		return errors.New("contest: the Trouble Pool cannot pay to Give In")
	case pay == PayPlotPoint && ch.PlotPoints < e.Rules.GiveInPlotPoints:
		return fmt.Errorf("%w: Giving In costs %d and %s has %d", ErrPlotPoints, e.Rules.GiveInPlotPoints, ch.Name, ch.PlotPoints)
	case pay != PayNothing && pay != PayPlotPoint && pay != PayComplication:
		return fmt.Errorf("contest: payment %q: use %q or %q", pay, PayPlotPoint, PayComplication)
	}
	h := a.Holder
	paid := 0
	switch pay {
	case PayPlotPoint:
		paid = e.Rules.GiveInPlotPoints
		ch.PlotPoints -= paid
		if hc := a.Sides[h].Char; hc != TroublePool {
			s.Characters[hc].PlotPoints += paid
		} else {
			s.GMPlotPoints += paid
		}
	case PayComplication:
		a.Harms = append(a.Harms, Harm{From: h, To: sd.Char, Fixed: e.Rules.GiveInComplication})
	}
	sd.Out, sd.GaveIn = true, true
	a.Escalated = false
	if e.Sink != nil {
		e.Sink.Event(Event{Kind: EvGaveIn, Side: t, Char: sd.Char, Value: paid})
	}
	e.afterLoss(s, t, EndGaveIn)
	return nil
}

// Push answers a Final Push: each pick in steps is a trait of the loser's
// last pool stepped down one rung for +PushBonus ("Final Push"). Each step
// must be taken while still losing by the Extraordinary margin, and the
// pushes may never turn the loss into a win. No steps means no push: the
// loss, and its Trauma, stand.
func (e *Engine) Push(s *Scene, r *dice.Roller, steps []Pick) error {
	a := s.Action
	if a == nil || a.Phase != PhasePush {
		return e.phaseErr(a, "make a Final Push")
	}
	t := a.Turn
	sd := &a.Sides[t]
	m := a.Margin
	for i, p := range steps {
		if m < e.Rules.Extraordinary {
			return fmt.Errorf("contest: Final Push step %d: the side is losing by %d, less than %d: no Trauma to avoid", i+1, m, e.Rules.Extraordinary)
		}
		if m-e.Rules.PushBonus < a.PushFloor {
			return fmt.Errorf("%w: step %d would bring the margin to %d", ErrPushWins, i+1, m-e.Rules.PushBonus)
		}
		if p.Owner != sd.Char || !slices.Contains(sd.Picks, p) {
			return fmt.Errorf("contest: Final Push step %d: only a trait of the character's own that it rolled may be lowered", i+1)
		}
		tr := s.Characters[p.Owner].Traits[p.Trait]
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
		m -= e.Rules.PushBonus
	}
	e.pushed(s, steps, m)
	return nil
}

// pushed is Push once its steps are checked: it lowers the traits, and
// settles side Turn's loss, now by margin m.
func (e *Engine) pushed(s *Scene, steps []Pick, m int) {
	a := s.Action
	t := a.Turn
	sd := &a.Sides[t]
	for _, p := range steps {
		c := &s.Characters[p.Owner]
		if tr := &c.Traits[p.Trait]; tr.Original == dice.Gone {
			tr.Original = tr.Die // lost for good until bought back
		}
		c.Traits[p.Trait].Die, _ = c.Traits[p.Trait].Die.StepDown()
		if e.Sink != nil {
			e.Sink.Event(Event{Kind: EvPushed, Side: t, Char: p.Owner, Name: c.Traits[p.Trait].Name, Die: c.Traits[p.Trait].Die})
		}
	}
	a.Pushes += len(steps)
	if a.PushFloor == 0 {
		sd.Total += len(steps) * e.Rules.PushBonus
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

// BuyOnes is the GM buying n of the 1s of the last player character's roll
// (in the action or timed action under way): each gives that character a
// Plot Point and adds a TroubleDie to the Trouble Pool. The 1s can be
// bought until the next roll.
func (e *Engine) BuyOnes(s *Scene, n int) error {
	if s.Action == nil && s.Timed == nil {
		return e.phaseErr(nil, "buy 1s")
	}
	var left, bought *int
	c := -1
	switch {
	case s.Action != nil && s.Action.Ones > 0:
		a := s.Action
		left, bought, c = &a.Ones, &a.Bought, a.Sides[a.OnesSide].Char
	case s.Timed != nil && s.Timed.Ones > 0:
		t := s.Timed
		left, bought, c = &t.Ones, &t.OnesBought, t.OnesChar
	}
	have := 0
	if left != nil {
		have = *left
	}
	if n < 0 || n > have {
		return fmt.Errorf("contest: buying %d 1s: the last roll has %d to buy", n, have)
	}
	if n == 0 {
		return nil
	}
	s.Characters[c].PlotPoints += n
	for i := 0; i < n; i++ {
		s.Trouble = append(s.Trouble, e.Rules.TroubleDie)
	}
	*left -= n
	*bought += n
	if e.Sink != nil {
		e.Sink.Event(Event{Kind: EvBoughtOnes, Side: -1, Char: c, Value: n})
	}
	if e.Sink != nil {
		e.Sink.Event(Event{Kind: EvTrouble, Side: -1, Char: -1, Value: n, Die: e.Rules.TroubleDie})
	}
	return nil
}

// CashReflection turns n of GM character c's Reflection Points into
// TroubleDie dice for the Trouble Pool: the text lets the GM save them like
// a player or spend them this way ("Winning an Action").
func (e *Engine) CashReflection(s *Scene, c, n int) error {
	ch, err := s.char(c)
	if err != nil {
		return err
	}
	switch {
	case !ch.GM:
		return fmt.Errorf("contest: %s is not a GM character: only those turn Reflection Points into Trouble", ch.Name)
	case n < 0 || n > ch.Reflection:
		return fmt.Errorf("contest: cashing %d Reflection Points: %s has %d", n, ch.Name, ch.Reflection)
	case n == 0:
		return nil
	}
	ch.Reflection -= n
	for i := 0; i < n; i++ {
		s.Trouble = append(s.Trouble, e.Rules.TroubleDie)
	}
	if e.Sink != nil {
		e.Sink.Event(Event{Kind: EvReflection, Side: -1, Char: c, Value: -n})
		e.Sink.Event(Event{Kind: EvTrouble, Side: -1, Char: c, Value: n, Die: e.Rules.TroubleDie})
	}
	return nil
}

// Rebuy spends character c's Reflection Points to buy back steps of its
// trait i that a Final Push lowered ("Final Push": lowered traits are lost
// until re-bought with Reflection Points), RebuyCost a step, never above
// the rating the trait was lowered from. It is a step between actions (or
// after one): not while an action is under way.
func (e *Engine) Rebuy(s *Scene, c, i, steps int) error {
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
	cost := steps * e.Rules.RebuyCost
	if cost > ch.Reflection {
		return fmt.Errorf("contest: buying %s's %q back %d steps costs %d Reflection Points and %s has %d", ch.Name, tr.Name, steps, cost, ch.Name, ch.Reflection)
	}
	ch.Reflection -= cost
	tr.Die = dice.Ladder[stepsLeft(tr.Die)+steps-1]
	if tr.Die == tr.Original {
		tr.Original = dice.Gone
	}
	if e.Sink != nil {
		e.Sink.Event(Event{Kind: EvReflection, Side: -1, Char: c, Value: -cost})
		e.Sink.Event(Event{Kind: EvRebought, Side: -1, Char: c, Name: tr.Name, Die: tr.Die, Value: cost})
	}
	return nil
}

// Aid is character c helping side t: c rolls its picks and the highest die
// (1s excluded) is added to the side's next total ("Aiding"). If the side
// loses, c takes a Complication too.
func (e *Engine) Aid(s *Scene, r *dice.Roller, t, c int, picks []Pick) error {
	a := s.Action
	if a == nil || (a.Phase != PhaseTurn && a.Phase != PhaseOpen) {
		return e.phaseErr(a, "aid")
	}
	if t < 0 || t >= len(a.Sides) || a.Sides[t].Out {
		return fmt.Errorf("contest: side %d cannot be aided: no such side in the action", t)
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
	if c == a.Interferer {
		return fmt.Errorf("contest: %s interfered and cannot aid", ch.Name)
	}
	cost, err := e.cost(s, c, picks)
	if err != nil {
		return err
	}
	if cost > ch.PlotPoints {
		return fmt.Errorf("%w: this pool costs %d and %s has %d", ErrPlotPoints, cost, ch.Name, ch.PlotPoints)
	}
	ch.PlotPoints -= cost
	if cost > 0 {
		if e.Sink != nil {
			e.Sink.Event(Event{Kind: EvPlotPoints, Side: t, Char: c, Value: -cost})
		}
	}
	e.faces = r.RollDice(e.pool, e.faces)
	v := dice.SumHighest(e.faces, 1, e.excl())
	sd := &a.Sides[t]
	sd.Aid += v
	if !slices.Contains(sd.Aiders, c) {
		sd.Aiders = append(sd.Aiders, c)
	}
	if e.Sink != nil {
		e.Sink.Event(Event{Kind: EvAided, Side: t, Char: c, Value: v, Dice: e.pool, Faces: e.faces})
	}
	return nil
}

// Interfere is character c stepping into a contest between two sides right
// after an escalating roll: c pays InterfereCost to the GM and rolls. If
// the result beats the stakes the contest stops, unless both sides pay to
// go on ("Interfering").
func (e *Engine) Interfere(s *Scene, r *dice.Roller, c int, picks []Pick) error {
	a := s.Action
	if a == nil || a.Phase != PhaseTurn || !a.Escalated || a.Kind != Contested {
		return e.phaseErr(a, "interfere (only right after an escalating roll of a contest)")
	}
	if len(a.Sides) != 2 {
		return fmt.Errorf("contest: interfering needs a contest between two characters, not %d sides", len(a.Sides))
	}
	if a.Interferer >= 0 {
		return fmt.Errorf("contest: %s has already interfered", s.Characters[a.Interferer].Name)
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
	cost, err := e.cost(s, c, picks)
	if err != nil {
		return err
	}
	if cost+e.Rules.InterfereCost > ch.PlotPoints {
		return fmt.Errorf("%w: interfering costs %d and this pool %d; %s has %d", ErrPlotPoints, e.Rules.InterfereCost, cost, ch.Name, ch.PlotPoints)
	}
	ch.PlotPoints -= cost + e.Rules.InterfereCost
	s.GMPlotPoints += e.Rules.InterfereCost
	if cost > 0 {
		if e.Sink != nil {
			e.Sink.Event(Event{Kind: EvPlotPoints, Side: -1, Char: c, Value: -cost})
		}
	}
	a.Interferer = c
	a.IPicks = append(a.IPicks[:0], picks...)
	e.faces = r.RollDice(e.pool, e.faces)
	a.ITotal = e.total(e.faces)
	a.Escalated = false
	if e.Sink != nil {
		e.Sink.Event(Event{Kind: EvInterfered, Side: -1, Char: c, Value: a.ITotal, Dice: e.pool, Faces: e.faces})
	}
	if a.ITotal > a.Stakes {
		a.Phase = PhaseInterfere
	}
	return nil
}

// Continue is side t's answer to an interference that beat the stakes:
// pay the interferer ContinueCost to go on, or not. When both have
// answered, the contest stops unless both paid; then comes the brawl.
func (e *Engine) Continue(s *Scene, t int, pay bool) error {
	a := s.Action
	if a == nil || a.Phase != PhaseInterfere {
		return e.phaseErr(a, "answer interference")
	}
	if t < 0 || t >= len(a.Sides) {
		return fmt.Errorf("contest: side %d: the action has sides 0..%d", t, len(a.Sides)-1)
	}
	sd := &a.Sides[t]
	if sd.Decided {
		return fmt.Errorf("contest: side %d has already answered the interference", t)
	}
	if pay && s.Characters[sd.Char].PlotPoints < e.Rules.ContinueCost {
		return fmt.Errorf("%w: going on costs %d and %s has %d", ErrPlotPoints, e.Rules.ContinueCost, s.Characters[sd.Char].Name, s.Characters[sd.Char].PlotPoints)
	}
	sd.Decided, sd.Continue = true, pay
	o := &a.Sides[1-t]
	if !o.Decided {
		return nil
	}
	if !(sd.Continue && o.Continue) {
		a.Phase, a.End = PhaseDone, EndStopped
		if e.Sink != nil {
			e.Sink.Event(Event{Kind: EvStopped, Side: -1, Char: a.Interferer})
		}
		return nil
	}
	for i := range a.Sides {
		c := a.Sides[i].Char
		s.Characters[c].PlotPoints -= e.Rules.ContinueCost
		s.Characters[a.Interferer].PlotPoints += e.Rules.ContinueCost
		if e.Sink != nil {
			e.Sink.Event(Event{Kind: EvContinued, Side: i, Char: c, Value: e.Rules.ContinueCost})
		}
	}
	a.Phase = PhaseBrawl
	return nil
}

// Brawl is the three-way roll after both sides paid to go on: each rolls
// its last pool again at no further cost (a side that has not rolled yet,
// its planned pool), the interferer too. The higher
// side deals the other a Complication (a tie goes to the stakes holder);
// each side that beats the interferer deals it one. Nobody may Give In.
func (e *Engine) Brawl(s *Scene, r *dice.Roller) error {
	a := s.Action
	if a == nil || a.Phase != PhaseBrawl {
		return e.phaseErr(a, "brawl")
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
		sd.Total = e.total(sd.Faces) + sd.Aid
		sd.Aid = 0
		a.Rolls++
		if e.Sink != nil {
			e.Sink.Event(Event{Kind: EvRolled, Side: i, Char: sd.Char, Value: sd.Total, Dice: sd.Dice, Faces: sd.Faces})
		}
	}
	e.pool = s.sideDice(&Side{}, a.IPicks, e.pool)
	e.faces = r.RollDice(e.pool, e.faces)
	a.ITotal = e.total(e.faces)
	if e.Sink != nil {
		e.Sink.Event(Event{Kind: EvInterfered, Side: -1, Char: a.Interferer, Value: a.ITotal, Dice: e.pool, Faces: e.faces})
	}
	w := a.Holder
	if a.Sides[1-w].Total > a.Sides[w].Total {
		w = 1 - w
	}
	l := 1 - w
	a.Sides[l].Out = true
	a.Harms = append(a.Harms, Harm{From: w, To: a.Sides[l].Char})
	e.reflect(s, a.Sides[l].Char)
	for _, c := range a.Sides[l].Aiders {
		a.Harms = append(a.Harms, Harm{From: w, To: c})
	}
	for i := range a.Sides {
		if a.Sides[i].Total > a.ITotal {
			a.Harms = append(a.Harms, Harm{From: i, To: a.Interferer})
		}
	}
	a.Winner, a.End = w, EndBrawl
	if e.Sink != nil {
		e.Sink.Event(Event{Kind: EvWon, Side: w, Char: a.Sides[w].Char})
	}
	a.Phase = PhaseInflict
	return nil
}

// Inflict rates and applies the first waiting Harm ("Winning an Action").
// onto chooses which of the target's existing Complications (or Trauma) it
// lands on, by trait index; -1 means the inflicting side's own Label (a new
// trait, or the existing one of that name). A harm to the Trouble Pool
// (To is TroublePool) takes a die off it instead: onto is the index in
// s.Trouble of the die to remove, -1 meaning the largest. [ours: the text
// says only "a die off the Trouble Pool"]
func (e *Engine) Inflict(s *Scene, r *dice.Roller, onto int) error {
	a := s.Action
	if a == nil || a.Phase != PhaseInflict || len(a.Harms) == 0 {
		return e.phaseErr(a, "inflict a Complication")
	}
	h := a.Harms[0]
	if h.To == TroublePool {
		if len(s.Trouble) > 0 {
			if onto == -1 {
				onto = largest(s.Trouble)
			}
			if onto < 0 || onto >= len(s.Trouble) {
				return fmt.Errorf("contest: Trouble Pool die %d: the pool has dice 0..%d (or -1 for the largest)", onto, len(s.Trouble)-1)
			}
			e.troubleOff(s, onto)
		}
		e.harmDone(a)
		return nil
	}
	kind := Complication
	if h.Trauma {
		kind = Trauma
	}
	tc := &s.Characters[h.To]
	if onto != -1 {
		if onto < 0 || onto >= len(tc.Traits) || tc.Traits[onto].Kind != kind {
			return fmt.Errorf("contest: trait %d of %s is not a %s: pick one of its %ss or -1 for a new one", onto, tc.Name, kind, kind)
		}
	}
	from := &a.Sides[h.From]
	nd := h.Fixed
	if nd == dice.Gone {
		nd = e.ratePool(s, r, from)
	}
	if onto == -1 {
		onto = tc.findKind(from.Label, kind)
	}
	e.apply(s, h.To, onto, from.Label, kind, nd)
	e.harmDone(a)
	return nil
}

// harmDone drops the harm just dealt and moves on when none is left.
func (e *Engine) harmDone(a *Action) {
	if len(a.Harms) == 1 {
		a.Harms = a.Harms[:0] // the usual case: no call to memmove
	} else {
		a.Harms = append(a.Harms[:0], a.Harms[1:]...)
	}
	if len(a.Harms) == 0 {
		a.Phase = PhaseTurn
		if a.Winner >= 0 || a.End == EndStopped {
			a.Phase = PhaseDone
		}
	}
}

func (c *Character) findKind(name string, k Kind) int {
	for i := range c.Traits {
		// The name first: names seldom share a length, while
		// "relationship" and "complication" do; and their first bytes
		// before a call to compare the rest.
		if t := &c.Traits[i]; len(t.Name) == len(name) && (name == "" || t.Name[0] == name[0]) && t.Name == name && t.Kind == k {
			return i
		}
	}
	return -1
}

// ratePool rolls side sd's Complication Pool: its last pool without the
// dice that showed 1 (and, with ComplicationKeptOnly, without the dice the
// total left out); a Distinction with StepUpLowest steps the lowest die up
// first. The rating is the size of the die that rolls highest, the larger
// size on a tie in value.
func (e *Engine) ratePool(s *Scene, r *dice.Roller, sd *Side) dice.Die {
	e.comp = e.comp[:0]
	if e.Rules.ComplicationKeptOnly {
		e.comp = keptDice(sd.Dice, sd.Faces, e.Rules.Keep, e.excl(), e.comp)
	} else if e.Rules.ExcludeOnes {
		e.comp = dropOnes(sd.Dice, sd.Faces, e.comp)
	} else {
		e.comp = append(e.comp, sd.Dice...)
	}
	if sd.Char != TroublePool && len(e.comp) > 0 {
		ts := s.Characters[sd.Char].Traits
		for i := range ts {
			if t := &ts[i]; t.Effect == StepUpLowest && t.Die != dice.Gone {
				lo := 0
				for i, d := range e.comp {
					if d < e.comp[lo] {
						lo = i
					}
				}
				if up, ok := e.comp[lo].StepUp(); ok {
					e.comp[lo] = up
				}
				break
			}
		}
	}
	if len(e.comp) == 0 {
		return e.Rules.EmptyComplication
	}
	if l := e.layoutOf(r, e.comp); l != nil {
		return l.rate(r, e.comp)
	}
	e.cfac = r.RollDice(e.comp, e.cfac)
	best, size := 0, dice.Gone
	for i, f := range e.cfac {
		if f > best || (f == best && e.comp[i] > size) {
			best, size = f, e.comp[i]
		}
	}
	return size
}

// dropOnes appends to dst the dice ds whose faces did not show 1 (a die
// without a face counts as not 1).
func dropOnes(ds []dice.Die, faces []int, dst []dice.Die) []dice.Die {
	for i, d := range ds {
		if i < len(faces) && faces[i] == 1 {
			continue
		}
		dst = append(dst, d)
	}
	return dst
}

// keptDice appends to dst the dice whose faces make the total: the k
// highest faces not excluded.
func keptDice(ds []dice.Die, faces []int, k int, excl dice.FaceSet, dst []dice.Die) []dice.Die {
	used := uint64(0)
	for n := 0; n < k; n++ {
		bi := -1
		for i, f := range faces {
			if i >= 64 || used&(1<<uint(i)) != 0 || excl.Has(f) {
				continue
			}
			if bi < 0 || f > faces[bi] {
				bi = i
			}
		}
		if bi < 0 {
			break
		}
		used |= 1 << uint(bi)
		dst = append(dst, ds[bi])
	}
	return dst
}

// apply lands a die of size nd on character c's trait idx (or a new trait
// named name of kind k when idx is -1): a larger die replaces the rating,
// otherwise it steps up; a Complication past d12 knocks the character out
// with KnockoutTrauma, Trauma past d12 takes it out of the story.
func (e *Engine) apply(s *Scene, c, idx int, name string, k Kind, nd dice.Die) {
	ch := &s.Characters[c]
	if k == Trauma && !ch.KnockedOut {
		ch.KnockedOut = true
		if e.Sink != nil {
			e.Sink.Event(Event{Kind: EvKnockedOut, Side: -1, Char: c})
		}
	}
	old := dice.Gone
	if idx >= 0 {
		old = ch.Traits[idx].Die
	}
	nr, ok := rating(old, nd)
	if !ok {
		if k == Complication {
			e.apply(s, c, ch.findKind(name, Trauma), name, Trauma, e.Rules.KnockoutTrauma)
			return
		}
		if !ch.OutOfStory {
			ch.OutOfStory = true
			if e.Sink != nil {
				e.Sink.Event(Event{Kind: EvOutOfStory, Side: -1, Char: c})
			}
		}
		return
	}
	if idx < 0 {
		ch.Traits = append(ch.Traits, Trait{Name: name, Kind: k})
		idx = len(ch.Traits) - 1
	}
	ch.Traits[idx].Die = nr
	ek := EvComplication
	if k == Trauma {
		ek = EvTrauma
	}
	if e.Sink != nil {
		e.Sink.Event(Event{Kind: ek, Side: -1, Char: c, Name: ch.Traits[idx].Name, Die: nr})
	}
}

func (e *Engine) phaseErr(a *Action, what string) error {
	if a == nil {
		return fmt.Errorf("%w: cannot %s: no action under way", ErrPhase, what)
	}
	return fmt.Errorf("%w: cannot %s in phase %s", ErrPhase, what, a.Phase)
}
