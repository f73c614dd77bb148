package contest

import (
	"fmt"

	"github.com/stakesrpg/stakes/dice"
)

// Scene is the whole visible state of a scene: the characters, the scene's
// Aspects, the Trouble Pool, the GM's Plot Points, and the action or timed
// action under way. It is plain data and saves and restores as JSON.
type Scene struct {
	Characters   []Character `json:"characters"`
	Aspects      []Trait     `json:"aspects,omitempty"`
	Trouble      []dice.Die  `json:"trouble"`
	GMPlotPoints int         `json:"gm_plot_points"`
	Action       *Action     `json:"action,omitempty"`
	Timed        *Timed      `json:"timed,omitempty"`
}

// Check validates the scene's characters, aspects and Trouble Pool.
func (s *Scene) Check() error {
	if len(s.Characters) > 100 {
		return fmt.Errorf("contest: %d characters: at most 100", len(s.Characters))
	}
	for i := range s.Characters {
		if err := s.Characters[i].Check(); err != nil {
			return fmt.Errorf("characters[%d]: %w", i, err)
		}
	}
	for i, a := range s.Aspects {
		if err := a.Check(); err != nil {
			return fmt.Errorf("aspects[%d]: %w", i, err)
		}
		if a.Kind != Aspect {
			return fmt.Errorf("contest: aspects[%d] %q has kind %q: scene traits must be aspects", i, a.Name, a.Kind)
		}
	}
	if len(s.Trouble) > 100 {
		return fmt.Errorf("contest: a Trouble Pool of %d dice: at most 100", len(s.Trouble))
	}
	for i, d := range s.Trouble {
		if err := d.CheckLadder(); err != nil {
			return fmt.Errorf("contest: trouble[%d]: %w", i, err)
		}
	}
	if s.GMPlotPoints < 0 {
		return fmt.Errorf("contest: gm_plot_points %d must not be negative", s.GMPlotPoints)
	}
	return nil
}

func (s *Scene) char(i int) (*Character, error) {
	if i < 0 || i >= len(s.Characters) {
		return nil, fmt.Errorf("contest: no character %d (the scene has %d)", i, len(s.Characters))
	}
	return &s.Characters[i], nil
}

// trait returns the trait a pick names.
func (s *Scene) trait(p Pick) (Trait, error) {
	if p.Owner == SceneOwner {
		if p.Trait < 0 || p.Trait >= len(s.Aspects) {
			return Trait{}, fmt.Errorf("contest: no aspect %d (the scene has %d)", p.Trait, len(s.Aspects))
		}
		return s.Aspects[p.Trait], nil
	}
	c, err := s.char(p.Owner)
	if err != nil {
		return Trait{}, err
	}
	if p.Trait < 0 || p.Trait >= len(c.Traits) {
		return Trait{}, fmt.Errorf("contest: %s has no trait %d (it has %d)", c.Name, p.Trait, len(c.Traits))
	}
	return c.Traits[p.Trait], nil
}

// dieOf returns the rating of the trait a pick names, Gone if there is
// none: traitPtr for the loops that only read ratings, with the
// character's traits looked up before the scene's Aspects.
func (s *Scene) dieOf(p Pick) dice.Die {
	if uint(p.Owner) < uint(len(s.Characters)) {
		if ts := s.Characters[p.Owner].Traits; uint(p.Trait) < uint(len(ts)) {
			return ts[p.Trait].Die
		}
		return dice.Gone
	}
	if p.Owner == SceneOwner && uint(p.Trait) < uint(len(s.Aspects)) {
		return s.Aspects[p.Trait].Die
	}
	return dice.Gone
}

// traitPtr returns the trait a pick names, or nil if there is none.
func (s *Scene) traitPtr(p Pick) *Trait {
	if p.Owner == SceneOwner {
		if uint(p.Trait) < uint(len(s.Aspects)) {
			return &s.Aspects[p.Trait]
		}
		return nil
	}
	if uint(p.Owner) >= uint(len(s.Characters)) {
		return nil
	}
	c := &s.Characters[p.Owner]
	if uint(p.Trait) < uint(len(c.Traits)) {
		return &c.Traits[p.Trait]
	}
	return nil
}

// Clone returns a deep copy of the scene.
func (s *Scene) Clone() *Scene {
	c := *s
	c.Characters = make([]Character, len(s.Characters))
	for i, ch := range s.Characters {
		ch.Traits = append([]Trait(nil), ch.Traits...)
		c.Characters[i] = ch
	}
	c.Aspects = append([]Trait(nil), s.Aspects...)
	c.Trouble = append([]dice.Die(nil), s.Trouble...)
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
		t.Helpers = append([]Helper(nil), s.Timed.Helpers...)
		for i := range t.Helpers {
			t.Helpers[i].Picks = append([]Pick(nil), t.Helpers[i].Picks...)
		}
		c.Timed = &t
	}
	return &c
}

// copyFrom makes s a deep copy of src, reusing s's slices (no allocation
// once capacities suffice). Only the parts a Runner resets are copied.
func (s *Scene) copyFrom(src *Scene) {
	if cap(s.Characters) < len(src.Characters) {
		s.Characters = make([]Character, len(src.Characters))
	}
	s.Characters = s.Characters[:len(src.Characters)]
	for i := range src.Characters {
		tr := s.Characters[i].Traits
		if need := len(src.Characters[i].Traits) + 16; cap(tr) < need {
			// Room for the Complications and Trauma a trial may add.
			tr = make([]Trait, 0, need)
		}
		s.Characters[i] = src.Characters[i]
		s.Characters[i].Traits = append(tr[:0], src.Characters[i].Traits...)
	}
	s.Aspects = append(s.Aspects[:0], src.Aspects...)
	s.Trouble = append(s.Trouble[:0], src.Trouble...)
	s.GMPlotPoints = src.GMPlotPoints
}

// resetFrom puts s back to src after s was made a copy of it (copyFrom)
// and changed only as the engine changes a scene during an action:
// ratings and the ratings traits were lowered from, points, knockouts, new
// Complications and Trauma appended, the Trouble Pool. It writes just
// those fields, no strings or slice headers, and falls back to copyFrom
// when the shapes no longer match.
func (s *Scene) resetFrom(src *Scene) {
	if len(s.Characters) != len(src.Characters) || len(s.Aspects) != len(src.Aspects) {
		s.copyFrom(src)
		return
	}
	for i := range src.Characters {
		c, o := &s.Characters[i], &src.Characters[i]
		if len(c.Traits) < len(o.Traits) {
			s.copyFrom(src)
			return
		}
		c.PlotPoints, c.Reflection, c.KnockedOut, c.OutOfStory = o.PlotPoints, o.Reflection, o.KnockedOut, o.OutOfStory
		c.Traits = c.Traits[:len(o.Traits)]
		// Both slices of one length in the loop's sight: no bounds checks.
		ct, ot := c.Traits, o.Traits[:len(c.Traits)]
		for j := range ct {
			ct[j].Die, ct[j].Original = ot[j].Die, ot[j].Original
		}
	}
	if n := len(src.Trouble); n <= cap(s.Trouble) {
		// A few dice: a loop costs less than a call to memmove.
		st := s.Trouble[:n]
		for i, d := range src.Trouble[:len(st)] {
			st[i] = d
		}
		s.Trouble = st
	} else {
		s.Trouble = append(s.Trouble[:0], src.Trouble...)
	}
	s.GMPlotPoints = src.GMPlotPoints
}
