package contest

import (
	"fmt"

	"github.com/stakesrpg/stakes/dice"
)

// Inflict rates and applies the first waiting Harm to a character
// ("Winning an Action"). onto chooses which of the target's existing
// Complications (or Trauma) it lands on, by trait index; -1 means the
// inflicting side's own Label (a new trait, or the existing one of that
// name). use lists the Distinctions with an Effect that the inflicting
// side rolled in its last pool and chooses to use on its Complication Pool
// (nil: none); each must be one of EffectOptions. A harm to the Trouble
// Pool is dealt by TakeTrouble instead.
func (e *Engine) Inflict(s *State, r *dice.Roller, onto int, use []Pick) error {
	if r == nil {
		return fmt.Errorf("contest: inflict: %w", dice.ErrNilRoller)
	}
	a, err := e.action(s, "inflict a Complication", PhaseInflict)
	if err != nil {
		return err
	}
	h := a.Harms[0]
	if h.To == TroublePool {
		return fmt.Errorf("%w: the harm waiting is a die off the Trouble Pool: use TakeTrouble", ErrPhase)
	}
	kind := Complication
	if h.Trauma {
		kind = Trauma
	}
	tc := &s.Characters[h.To]
	if onto != -1 && (onto < 0 || onto >= len(tc.Traits) || tc.Traits[onto].Kind != kind) {
		return fmt.Errorf("contest: trait %d of %s is not a %s: pick one of its %ss or -1 for a new one", onto, tc.Name, kind, kind)
	}
	from := &a.Sides[h.From]
	if err := e.checkEffects(s, from, h, use); err != nil {
		return err
	}
	nd := h.Fixed
	if nd == dice.Gone {
		nd = e.ratePool(s, r, from, use)
	}
	if onto == -1 {
		onto = tc.findKind(from.Label, kind)
	}
	e.apply(s, h.To, onto, from.Label, kind, nd)
	e.harmDone(a)
	return nil
}

// TakeTrouble deals the first waiting Harm when it is a win against the
// Trouble Pool: die k of s.Trouble comes off, the winner's choice. [ours:
// the text says only "reduce the Trouble Pool"] An empty pool has nothing
// to take; k must then be -1. In a timed action's TimedTroublePhase
// (Rules.TimedTroubleOff) it takes die k off for the actor, one of the
// dice owed (Timed.Off).
func (e *Engine) TakeTrouble(s *State, k int) error {
	if t := s.Timed; t != nil && t.Phase == TimedTroublePhase {
		return e.timedTakeTrouble(s, k)
	}
	a, err := e.action(s, "take a die off the Trouble Pool", PhaseInflict)
	if err != nil {
		return err
	}
	if a.Harms[0].To != TroublePool {
		return fmt.Errorf("%w: the harm waiting lands on a character: use Inflict", ErrPhase)
	}
	switch {
	case len(s.Trouble) == 0 && k != -1:
		return fmt.Errorf("contest: Trouble Pool die %d: the pool is empty, so -1 (nothing to take)", k)
	case len(s.Trouble) > 0 && (k < 0 || k >= len(s.Trouble)):
		return fmt.Errorf("contest: Trouble Pool die %d: the pool has dice 0..%d", k, len(s.Trouble)-1)
	}
	if k >= 0 {
		d := s.Trouble[k]
		s.Trouble = append(s.Trouble[:k], s.Trouble[k+1:]...)
		if e.Sink != nil {
			e.emit(s, Event{Kind: EvTrouble, Side: -1, Char: -1, Value: -1, Die: d})
		}
	}
	e.harmDone(a)
	return nil
}

// Waive is the GM letting a failed basic action go without its
// Complication: "if the GM wins ... you may take the Complication". Only
// that Complication may be waived, not Trauma and not a harm of a contest.
func (e *Engine) Waive(s *State) error {
	a, err := e.action(s, "waive a Complication", PhaseInflict)
	if err != nil {
		return err
	}
	if !e.CanWaive(s) {
		return fmt.Errorf("%w: only the Complication of a failed basic action may be waived", ErrPhase)
	}
	if e.Sink != nil {
		e.emit(s, Event{Kind: EvWaived, Side: a.Harms[0].From, Char: a.Harms[0].To})
	}
	e.harmDone(a)
	return nil
}

// harmDone drops the harm just dealt and moves on when none is left.
func (e *Engine) harmDone(a *Action) {
	a.Harms = append(a.Harms[:0], a.Harms[1:]...)
	if len(a.Harms) == 0 {
		a.Phase = PhaseTurn
		if a.End != endNone {
			a.Phase = PhaseDone
		}
	}
}

func (c *Character) findKind(name string, k Kind) int {
	for i := range c.Traits {
		if t := &c.Traits[i]; t.Kind == k && t.Name == name {
			return i
		}
	}
	return -1
}

// ratePool rolls side sd's Complication Pool ("Winning an Action"): its
// last pool without the dice that showed 1 (and, with
// ComplicationKeptOnly, without the dice the total left out); then the
// Distinction effects of the traits it rolled. The rating is the size of
// the die that rolls highest, ties in value going by Rules.RateTiesLarger.
func (e *Engine) ratePool(s *State, r *dice.Roller, sd *Side, use []Pick) dice.Die {
	comp := s.buf.comp[:0]
	switch {
	case s.Rules.ComplicationKeptOnly:
		comp = keptDice(sd.Dice, sd.Faces, s.Rules.Keep, s.Rules.excl(), comp)
	case s.Rules.ExcludeOnes:
		comp = dropOnes(sd.Dice, sd.Faces, comp)
	default:
		comp = append(comp, sd.Dice...)
	}
	for _, p := range use {
		t := &s.Characters[p.Owner].Traits[p.Trait]
		comp = t.Effect.apply(comp, t.Die)
	}
	s.buf.comp = comp
	if len(comp) == 0 {
		return s.Rules.EmptyComplication
	}
	s.buf.faces = r.RollDice(comp, s.buf.faces)
	best, size, larger := 0, dice.Gone, s.Rules.RateTiesLarger
	for i, f := range s.buf.faces {
		if f > best || (f == best && (comp[i] > size) == larger) {
			best, size = f, comp[i]
		}
	}
	return size
}

// EffectOptions lists the Distinctions with an Effect that the side
// dealing the first waiting harm rolled in its last pool: the effects it
// may choose to use on its Complication Pool. A harm of fixed size (a
// Give In's d6) or to the Trouble Pool has none.
func (e *Engine) EffectOptions(s *State) ([]Pick, error) {
	a, err := e.action(s, "list Distinction effects", PhaseInflict)
	if err != nil {
		return nil, err
	}
	return effectOptions(s, a, nil), nil
}

// effectOptions appends the effect options of a's first harm to dst.
func effectOptions(s *State, a *Action, dst []Pick) []Pick {
	h := a.Harms[0]
	sd := &a.Sides[h.From]
	if h.Fixed != dice.Gone || h.To == TroublePool || sd.Char == TroublePool {
		return dst
	}
	ts := s.Characters[sd.Char].Traits
	for i, p := range sd.Picks {
		if p.Owner != sd.Char {
			continue
		}
		if t := &ts[p.Trait]; t.Kind == Distinction && t.Effect != EffectNone && t.Die != dice.Gone && !containsPick(sd.Picks[:i], p) {
			dst = append(dst, p)
		}
	}
	return dst
}

// checkEffects returns an error unless each of use is one of the effect
// options of harm h, dealt by side sd, named once.
func (e *Engine) checkEffects(s *State, sd *Side, h Harm, use []Pick) error {
	if len(use) == 0 {
		return nil
	}
	opts := effectOptions(s, s.Action, s.buf.picks[:0])
	s.buf.picks = opts
	for i, p := range use {
		if !containsPick(opts, p) || containsPick(use[:i], p) {
			return fmt.Errorf("contest: Distinction effect %d (%v): use each of the inflicting side's rolled Distinctions with an effect at most once (%d of them)", i+1, p, len(opts))
		}
	}
	return nil
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
// highest faces not excluded, the first of equal faces first.
func keptDice(ds []dice.Die, faces []int, k int, excl dice.FaceSet, dst []dice.Die) []dice.Die {
	var used [maxDice]bool
	for n := 0; n < k; n++ {
		bi := -1
		for i, f := range faces {
			if i >= len(used) || i >= len(ds) || used[i] || excl.Has(f) {
				continue
			}
			if bi < 0 || f > faces[bi] {
				bi = i
			}
		}
		if bi < 0 {
			break
		}
		used[bi] = true
		dst = append(dst, ds[bi])
	}
	return dst
}

// rating returns the new rating when a die of size nd lands on an existing
// rating old (Gone for none): by default a larger die replaces it and any
// other steps it up (Rules.AlwaysStepUp steps it up whatever the new die);
// ok is false when it would pass d12. ("Winning an Action".)
func (r *Rules) rating(old, nd dice.Die) (dice.Die, bool) {
	if old == dice.Gone || (nd > old && !r.AlwaysStepUp) {
		return nd, true
	}
	return old.StepUp()
}

// apply lands a die of size nd on character c's trait idx (or a new trait
// named name of kind k when idx is -1): see rating; a Complication past
// d12 knocks the character out with KnockoutTrauma, Trauma past d12 takes
// it out of the story.
func (e *Engine) apply(s *State, c, idx int, name string, k Kind, nd dice.Die) {
	ch := &s.Characters[c]
	if k == Trauma && !ch.KnockedOut {
		ch.KnockedOut = true
		if e.Sink != nil {
			e.emit(s, Event{Kind: EvKnockedOut, Side: -1, Char: c})
		}
	}
	old := dice.Gone
	if idx >= 0 {
		old = ch.Traits[idx].Die
	}
	nr, ok := s.Rules.rating(old, nd)
	if !ok {
		if k == Complication {
			e.apply(s, c, ch.findKind(name, Trauma), name, Trauma, s.Rules.KnockoutTrauma)
			return
		}
		if !ch.OutOfStory {
			ch.OutOfStory = true
			if e.Sink != nil {
				e.emit(s, Event{Kind: EvOutOfStory, Side: -1, Char: c})
			}
		}
		return
	}
	if idx < 0 {
		if len(ch.Traits) >= maxTraits {
			// No room for another trait: the harm lands on the largest
			// of its kind instead, so that a sheet never grows past the
			// bound. [ours]
			idx = largestOfKind(ch, k)
			if idx < 0 {
				return
			}
			e.apply(s, c, idx, name, k, nd)
			return
		}
		ch.Traits = append(ch.Traits, Trait{Name: name, Kind: k})
		idx = len(ch.Traits) - 1
	}
	ch.Traits[idx].Die = nr
	ek := EvComplication
	if k == Trauma {
		ek = EvTrauma
	}
	if e.Sink != nil {
		e.emit(s, Event{Kind: ek, Side: -1, Char: c, Name: ch.Traits[idx].Name, Die: nr})
	}
}

// largestOfKind is the index of c's largest trait of kind k, -1 for none.
func largestOfKind(c *Character, k Kind) int {
	best := -1
	for i, t := range c.Traits {
		if t.Kind == k && (best < 0 || t.Die > c.Traits[best].Die) {
			best = i
		}
	}
	return best
}
