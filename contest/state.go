package contest

import (
	"fmt"
	"slices"
	"strings"

	"github.com/stakesrpg/stakes/dice"
)

// Bounds on a State, so that no input, saved states included, makes a
// step allocate without limit. [ours]
const (
	maxChars  = 100     // characters in a state
	maxTraits = 200     // traits on one character
	maxAspect = 100     // the scene's Aspects
	maxSides  = 16      // sides of a contested action
	maxPicks  = 50      // picks in one pool
	maxGang   = 50      // extra opponents of one side
	maxDice   = 128     // dice in one roll: picks, gang, or the Trouble Pool
	maxPoints = 1000000 // Plot Points or Reflection Points one character holds
	maxName   = 100     // bytes in the name of a character or trait
)

// State is the whole of a scene as one saveable value: the rules it is
// played under, the characters, the scene's Aspects, the Trouble Pool, the
// GM's Plot Points, and the one action (plain or timed) under way with its
// phase and whose turn it is. It is plain data and saves and restores as
// JSON; Check validates a restored one whole before any step reads it.
// Steps read the Rules as they stand, so a designer may change them
// between steps. A State's steps reuse scratch space inside it, so give
// each goroutine its own (Clone).
type State struct {
	Rules        Rules       `json:"rules"`
	Characters   []Character `json:"characters"`
	Aspects      []Trait     `json:"aspects,omitempty"`
	Trouble      []dice.Die  `json:"trouble"`
	GMPlotPoints int         `json:"gm_plot_points"`
	Action       *Action     `json:"action,omitempty"`
	Timed        *Timed      `json:"timed,omitempty"`

	buf scratch
}

// scratch is the space steps roll and rate dice in, kept between steps so
// that a trial allocates nothing once warmed up. It is never saved.
type scratch struct {
	pool  []dice.Die
	faces []int
	comp  []dice.Die
	picks []Pick
	steps []Pick
	opts  []PushOption
	plan  pricedPool
	view  View // what a policy is shown (State.view)
}

// NewState returns a State of the given characters and Aspects at the start
// of an episode, under rules r: each player character (not a GM one) gets
// r.StartPlotPoints on top of the Plot Points its sheet holds (the same
// rule as a Scenario's start), and the Trouble Pool is r.TroubleStart.
func NewState(r Rules, chars []Character, aspects []Trait) (*State, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	r.TroubleStart = slices.Clone(r.TroubleStart)
	s := &State{
		Rules:      r,
		Characters: make([]Character, len(chars)),
		Aspects:    slices.Clone(aspects),
		Trouble:    slices.Clone(r.TroubleStart),
	}
	for i, c := range chars {
		c.Traits = slices.Clone(c.Traits)
		if !c.GM && c.PlotPoints >= 0 && c.PlotPoints <= maxPoints {
			c.PlotPoints += r.StartPlotPoints
		}
		s.Characters[i] = c
	}
	if err := s.Check(); err != nil {
		return nil, err
	}
	return s, nil
}

// Check validates the whole state: its rules, the characters, aspects and
// Trouble Pool, and the action or timed action under way, against every
// bound a step relies on, and that every pool Play will roll from it is
// one its character may roll. A state that passes plays to its end under
// any legal policies.
func (s *State) Check() error {
	if err := s.Rules.Validate(); err != nil {
		return err
	}
	if len(s.Characters) > maxChars {
		return fmt.Errorf("contest: %d characters: at most %d", len(s.Characters), maxChars)
	}
	for i := range s.Characters {
		if err := s.Characters[i].Check(); err != nil {
			return fmt.Errorf("characters[%d]: %w", i, err)
		}
	}
	if len(s.Aspects) > maxAspect {
		return fmt.Errorf("contest: %d aspects: at most %d", len(s.Aspects), maxAspect)
	}
	for i, a := range s.Aspects {
		if err := a.Check(); err != nil {
			return fmt.Errorf("aspects[%d]: %w", i, err)
		}
		if a.Kind != Aspect {
			return fmt.Errorf("contest: aspects[%d] %q has kind %v: scene traits must be aspects", i, a.Name, a.Kind)
		}
	}
	if len(s.Trouble) > maxDice {
		return fmt.Errorf("contest: a Trouble Pool of %d dice: at most %d", len(s.Trouble), maxDice)
	}
	for i, d := range s.Trouble {
		if err := d.CheckLadder(); err != nil {
			return fmt.Errorf("contest: trouble[%d]: %w", i, err)
		}
	}
	if s.GMPlotPoints < 0 || s.GMPlotPoints > maxPoints {
		return fmt.Errorf("contest: gm_plot_points %d: must be 0..%d", s.GMPlotPoints, maxPoints)
	}
	if s.Action != nil && s.Action.Phase != PhaseDone && s.Timed != nil && s.Timed.Phase != TimedDone {
		return fmt.Errorf("contest: an action (phase %s) and a timed action (phase %s) are both under way: one at a time", s.Action.Phase, s.Timed.Phase)
	}
	if s.Action != nil {
		if err := s.checkAction(); err != nil {
			return err
		}
	}
	if s.Timed != nil {
		if err := s.checkTimed(); err != nil {
			return err
		}
	}
	return s.checkPools()
}

// view returns the View a policy is shown next, cleared: the engine fills
// in only the fields that matter for the question.
func (s *State) view() *View {
	s.buf.view = View{}
	return &s.buf.view
}

func (s *State) char(i int) (*Character, error) {
	if i < 0 || i >= len(s.Characters) {
		return nil, fmt.Errorf("contest: no character %d (the state has %d)", i, len(s.Characters))
	}
	return &s.Characters[i], nil
}

// traitAt returns the trait a pick names, or nil if it names none.
func (s *State) traitAt(p Pick) *Trait {
	if p.Owner == SceneOwner {
		if p.Trait >= 0 && p.Trait < len(s.Aspects) {
			return &s.Aspects[p.Trait]
		}
		return nil
	}
	if p.Owner < 0 || p.Owner >= len(s.Characters) {
		return nil
	}
	if ts := s.Characters[p.Owner].Traits; p.Trait >= 0 && p.Trait < len(ts) {
		return &ts[p.Trait]
	}
	return nil
}

// trait returns the trait a pick names, or an error saying why none.
func (s *State) trait(p Pick) (*Trait, error) {
	if t := s.traitAt(p); t != nil {
		return t, nil
	}
	if p.Owner == SceneOwner {
		return nil, fmt.Errorf("contest: no aspect %d (the scene has %d)", p.Trait, len(s.Aspects))
	}
	c, err := s.char(p.Owner)
	if err != nil {
		return nil, err
	}
	return nil, fmt.Errorf("contest: %s has no trait %d (it has %d)", c.Name, p.Trait, len(c.Traits))
}

// Pick names a trait for a pool of character owner's: a name alone is one
// of its own traits, "aspect:Name" one of the scene's Aspects, and
// "Other:Name" another character's (its Complications and Trauma may join
// a pool).
func (s *State) Pick(owner int, name string) (Pick, error) {
	c, err := s.char(owner)
	if err != nil {
		return Pick{}, err
	}
	switch {
	case strings.HasPrefix(name, "aspect:"):
		a := strings.TrimPrefix(name, "aspect:")
		for k := range s.Aspects {
			if s.Aspects[k].Name == a {
				return Pick{SceneOwner, k}, nil
			}
		}
		return Pick{}, fmt.Errorf("contest: no aspect %q", clip(a))
	case strings.Contains(name, ":"):
		o, t, _ := strings.Cut(name, ":")
		for i := range s.Characters {
			if s.Characters[i].Name == o {
				if ti := s.Characters[i].Find(t); ti >= 0 {
					return Pick{i, ti}, nil
				}
				return Pick{}, fmt.Errorf("contest: %s has no trait %q", clip(o), clip(t))
			}
		}
		return Pick{}, fmt.Errorf("contest: %q: no character %q", clip(name), clip(o))
	}
	if ti := c.Find(name); ti >= 0 {
		return Pick{owner, ti}, nil
	}
	return Pick{}, fmt.Errorf("contest: %s has no trait %q", c.Name, clip(name))
}

// Picks is Pick for each of names.
func (s *State) Picks(owner int, names ...string) ([]Pick, error) {
	out := make([]Pick, 0, len(names))
	for _, n := range names {
		p, err := s.Pick(owner, n)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// Clone returns a deep copy of the state (with scratch space of its own).
func (s *State) Clone() *State {
	c := *s
	c.buf = scratch{}
	c.Rules.TroubleStart = slices.Clone(s.Rules.TroubleStart)
	c.Characters = make([]Character, len(s.Characters))
	for i, ch := range s.Characters {
		ch.Traits = append([]Trait(nil), ch.Traits...)
		c.Characters[i] = ch
	}
	c.Aspects = append([]Trait(nil), s.Aspects...)
	c.Trouble = slices.Clone(s.Trouble) // an emptied pool saves as it did before the copy
	if s.Action != nil {
		c.Action = s.Action.clone()
	}
	if s.Timed != nil {
		t := *s.Timed
		t.Steps = append([]TimedStep(nil), s.Timed.Steps...)
		for i := range t.Steps {
			t.Steps[i].Stakes = append([]dice.Die(nil), t.Steps[i].Stakes...)
		}
		t.Picks = append([]Pick(nil), s.Timed.Picks...)
		t.SDice = slices.Clone(s.Timed.SDice)
		t.SFaces = slices.Clone(s.Timed.SFaces)
		t.Helpers = append([]Helper(nil), s.Timed.Helpers...)
		for i := range t.Helpers {
			t.Helpers[i].Picks = append([]Pick(nil), t.Helpers[i].Picks...)
		}
		c.Timed = &t
	}
	return &c
}

// reset puts s, a state played from a copy of start, back to start,
// reusing its slices. It copies back only what playing an action changes:
// the characters' ratings, points and standing, the Trouble Pool, the GM's
// Plot Points and the action (see Action.reset). The Rules, the scene's
// Aspects and the names of characters and their traits stay as they are.
func (s *State) reset(start *State) {
	for i := range s.Characters {
		c, sc := &s.Characters[i], &start.Characters[i]
		// Play adds Complications and Trauma after the traits a character
		// starts with, and changes only the ratings of those.
		ts, st := c.Traits[:len(sc.Traits)], sc.Traits
		for k := range st {
			ts[k].Die, ts[k].Original = st[k].Die, st[k].Original
		}
		c.Traits = ts
		c.PlotPoints, c.Reflection = sc.PlotPoints, sc.Reflection
		c.KnockedOut, c.OutOfStory = sc.KnockedOut, sc.OutOfStory
	}
	s.Trouble = append(s.Trouble[:0], start.Trouble...)
	s.GMPlotPoints = start.GMPlotPoints
	if start.Action != nil {
		s.Action.reset(start.Action)
	}
}

// reserve grows the slices the steps of s's action (or timed action) fill
// to the most those steps can put in them, so that playing it on from here
// (a Game's steps, fresh from Start or Restore) allocates nothing: the
// sides' rolls, the harms waiting, the Trouble Pool, the traits harm may
// add, and the scratch space. Its sizes are bounded by s's own.
func (s *State) reserve() {
	s.Trouble = grown(s.Trouble, min(s.Rules.MaxTrouble, maxDice))
	nd, np := cap(s.Trouble), 0 // the most dice of a roll, and of picks
	if a := s.Action; a != nil {
		d, p := s.reserveAction(a)
		nd, np = max(nd, d), max(np, p)
	}
	if t := s.Timed; t != nil {
		np = max(np, len(t.Picks))
		for _, h := range t.Helpers {
			np = max(np, len(h.Picks))
		}
		for _, st := range t.Steps {
			nd = max(nd, len(st.Stakes))
		}
		t.SDice, t.SFaces = grown(t.SDice, nd), grown(t.SFaces, nd)
	}
	// A harm adds at most two traits (a Complication past d12 knocks out
	// with Trauma); no one takes more harm in one action than there are
	// sides, and an interferer two more.
	extra := 2
	if s.Action != nil {
		extra = 2 * (len(s.Action.Sides) + 2)
	}
	for i := range s.Characters {
		c := &s.Characters[i]
		c.Traits = grown(c.Traits, min(len(c.Traits)+extra, maxTraits))
	}
	s.buf.reserve(max(nd, np), np)
}

// reserveAction grows the buffers of a's sides and harms, and returns the
// most dice one of its rolls may roll and the most picks of a pool.
func (s *State) reserveAction(a *Action) (nd, np int) {
	np = len(a.IPicks)
	aiders := 0
	for i := range a.Sides {
		sd := &a.Sides[i]
		p := max(len(sd.Base)+len(sd.Extra), len(sd.Picks))
		d := p + len(sd.Gang)
		if sd.Char == TroublePool {
			d = cap(s.Trouble)
		}
		sd.Picks, sd.Dice, sd.Faces = grown(sd.Picks, p), grown(sd.Dice, d), grown(sd.Faces, d)
		n := len(sd.Aiders)
		if sd.Aider.Set {
			n++ // Play's aider, when it aids
		}
		sd.Aiders = grown(sd.Aiders, n)
		aiders += n
		nd, np = max(nd, d), max(np, p, len(sd.AidPicks))
	}
	// Harms come a loss at a time: the loser's (or the dice off a beaten
	// Trouble Pool), its aiders', and in a brawl the interferer's twice.
	off := max(s.Rules.TroubleOffOnWin, s.Rules.TroubleOffOnExtraordinary, 1)
	a.Harms = grown(a.Harms, len(a.Harms)+off+aiders+2)
	return nd, np
}

// reserve grows the scratch space for rolls of up to nd dice (a
// Complication Pool adds a die for each effect) from pools of up to np
// picks.
func (b *scratch) reserve(nd, np int) {
	nc := min(nd+np, maxDice)
	b.pool, b.comp = grown(b.pool, nd), grown(b.comp, nc)
	b.faces = grown(b.faces, nc)
	b.picks, b.opts = grown(b.picks, np), grown(b.opts, np)
	// A Final Push steps each rolled trait down at most four times.
	b.steps = grown(b.steps, 4*np)
	b.plan.dice, b.plan.costs = grown(b.plan.dice, np), grown(b.plan.costs, np+1)
}

// grown is xs with room for n elements in all.
func grown[T any](xs []T, n int) []T {
	if n <= cap(xs) {
		return xs
	}
	return slices.Grow(xs, n-len(xs))
}
