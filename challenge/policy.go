package challenge

import (
	"fmt"
	"slices"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/named"
)

// StancePolicy decides, for an answerer whose answer is lower than the
// challenge but more than half, whether to hang in (true) or give.
type StancePolicy interface {
	HangIn(v *View, side int) bool
}

// CrossPolicy decides whether a side crosses a name off the owe list at the
// comparison now pending: it returns the owe-list index, or -1 for none.
type CrossPolicy interface {
	CrossOff(v *View, side int) int
}

// LossPolicy is the winner's choice of which die sizes member m of the
// losing side loses to exhaustion or injury, written into l (which
// arrives empty).
type LossPolicy interface {
	Loss(v *View, loser, m int, l *Loss)
}

// TargetPolicy is the current challenger's choice of answerer: a side
// index, or Drop to drop out of the conflict.
type TargetPolicy interface {
	Target(v *View, challenger int) int
}

// Drop is what a TargetPolicy returns to drop out instead of challenging.
const Drop = -1

// InterferePolicy decides whether a side whose roll beats the named
// answerer's interferes and answers the challenge instead.
type InterferePolicy interface {
	Interfere(v *View, side int) bool
}

// Negotiator is the hook for negotiated consequences: the winner proposes
// an outcome in place of exhaustion or injury (nil proposes none) and the
// loser accepts or not. Either may fall back on the standard, so a
// settlement needs both.
type Negotiator interface {
	Propose(v *View) *Settlement
	Accept(v *View, s *Settlement) bool
}

// Policy makes every choice the rules give one side. Each method receives
// a pointer to a read-only View of the conflict and the side (or sides)
// concerned; an answer the rules do not allow is an error of the step that
// asked, never silently fixed.
type Policy interface {
	// HangIn: the side answered lower than the challenge but more than
	// half; hang in (true) or give.
	HangIn(v *View, side int) bool
	// CrossOff: an owe-list index to cross off at the pending comparison,
	// or -1 for none.
	CrossOff(v *View, side int) int
	// Target: the side's answerer as challenger, or Drop.
	Target(v *View, challenger int) int
	// Interfere: whether the side, whose roll beats the named answerer's,
	// answers instead.
	Interfere(v *View, side int) bool
	// Loss: as winner, the loss member m of the losing side takes,
	// written into l (which arrives empty).
	Loss(v *View, loser, m int, l *Loss)
	// Propose: as winner, a negotiated outcome in place of exhaustion or
	// injury, or nil to propose none.
	Propose(v *View) *Settlement
	// Accept: as loser, whether to accept the winner's proposal.
	Accept(v *View, s *Settlement) bool
}

// Style is a Policy (as a *Style) made of one choice of each kind. Nil
// parts, and a nil *Style, use the defaults: hang in, never cross off,
// deepest loss, sworn target, never interfere, no negotiation.
type Style struct {
	Stance       StancePolicy
	Cross        CrossPolicy
	Losses       LossPolicy
	Targets      TargetPolicy
	Interference InterferePolicy
	Negotiator   Negotiator
}

var _ Policy = (*Style)(nil)

// HangIn implements Policy with the Stance part.
func (s *Style) HangIn(v *View, side int) bool {
	if s == nil || s.Stance == nil {
		return HangIn{}.HangIn(v, side)
	}
	return s.Stance.HangIn(v, side)
}

// CrossOff implements Policy with the Cross part.
func (s *Style) CrossOff(v *View, side int) int {
	if s == nil || s.Cross == nil {
		return Never{}.CrossOff(v, side)
	}
	return s.Cross.CrossOff(v, side)
}

// Target implements Policy with the Targets part.
func (s *Style) Target(v *View, challenger int) int {
	if s == nil || s.Targets == nil {
		return Sworn{}.Target(v, challenger)
	}
	return s.Targets.Target(v, challenger)
}

// Interfere implements Policy with the Interference part.
func (s *Style) Interfere(v *View, side int) bool {
	return s != nil && s.Interference != nil && s.Interference.Interfere(v, side)
}

// Loss implements Policy with the Losses part.
func (s *Style) Loss(v *View, loser, m int, l *Loss) {
	if s == nil || s.Losses == nil {
		Deepest{}.Loss(v, loser, m, l)
		return
	}
	s.Losses.Loss(v, loser, m, l)
}

// Propose implements Policy with the Negotiator part.
func (s *Style) Propose(v *View) *Settlement {
	if s == nil || s.Negotiator == nil {
		return nil
	}
	return s.Negotiator.Propose(v)
}

// Accept implements Policy with the Negotiator part.
func (s *Style) Accept(v *View, st *Settlement) bool {
	return s != nil && s.Negotiator != nil && s.Negotiator.Accept(v, st)
}

// Built-in policies.
type (
	// HangIn always hangs in. The default: giving concedes the challenge.
	HangIn struct{}
	// Give always gives, taking no injury.
	Give struct{}
	// Outclassed gives when the challenger's dice have more sides in total
	// than the answerer's, and hangs in otherwise.
	Outclassed struct{}

	// Never never crosses a name off. The default.
	Never struct{}
	// WhenClose crosses a name off when one advantage die could change the
	// comparison: an answer that is not higher could become higher, or a
	// challenger's roll could come to double the answer.
	WhenClose struct{}
	// Eager crosses a name off at every comparison while it can.
	Eager struct{}

	// Deepest takes the sizes from the injury stat with the biggest die,
	// from its biggest die first. The default: it cuts the loser's best
	// roll.
	Deepest struct{}
	// Spread takes one size from each die of the injury stat with the most
	// sizes in turn, biggest first.
	Spread struct{}
	// Finish takes from the injury stat with the fewest sizes, smallest
	// die first, to remove dice (and empty stats) outright.
	Finish struct{}

	// Sworn challenges the side's declared target; with the target out it
	// drops out; with no target it challenges the lowest roll showing. The
	// default.
	Sworn struct{}
	// Turncoat is Sworn but turns on the lowest roll showing when its
	// target is out ("stab your friend").
	Turncoat struct{}
	// Weakest always challenges the lowest roll showing.
	Weakest struct{}
	// Strongest always challenges the highest roll showing.
	Strongest struct{}

	// Aloof never interferes. The default.
	Aloof struct{}
	// Meddle interferes whenever it may.
	Meddle struct{}
	// Guard interferes when the challenger is the side's declared target.
	Guard struct{}
)

// HangIn implements StancePolicy.
func (HangIn) HangIn(*View, int) bool { return true }

// HangIn implements StancePolicy.
func (Give) HangIn(*View, int) bool { return false }

// HangIn implements StancePolicy.
func (Outclassed) HangIn(v *View, side int) bool {
	c := v.s
	return c.Sides[c.Challenger].TotalSides <= c.Sides[side].TotalSides
}

// CrossOff implements CrossPolicy.
func (Never) CrossOff(*View, int) int { return -1 }

// CrossOff implements CrossPolicy.
func (Eager) CrossOff(v *View, side int) int { return v.s.firstCrossable(side) }

// CrossOff implements CrossPolicy.
func (WhenClose) CrossOff(v *View, side int) int {
	c := v.s
	if c.Phase != PhaseAnswered {
		return -1
	}
	adv := int(c.Rules.AdvantageDie)
	ch, an := &c.Sides[c.Challenger], &c.Sides[c.Answerer]
	switch side {
	case c.Answerer:
		if c.cmp(c.Answerer, c.Challenger) <= 0 && an.Read()+adv >= ch.Read() {
			return c.firstCrossable(side)
		}
	case c.Challenger:
		need := c.Rules.DoubleFactor * an.Read()
		if c.cmp(c.Answerer, c.Challenger) < 0 && ch.Read() < need && ch.Read()+adv >= need {
			return c.firstCrossable(side)
		}
	}
	return -1
}

// firstCrossable returns the first owe-list entry side may cross off now,
// or -1.
func (c *State) firstCrossable(side int) int {
	for k := range c.Owe {
		if c.crossBar(side, k) == barNone {
			return k
		}
	}
	return -1
}

// injuryStat picks among member m's injury stats with a score (higher
// wins; ties go to the earlier stat); it returns -1 if all are empty.
func injuryStat(c *State, loser, m int, score func(Stat) int) int {
	mem := &c.Sides[loser].Members[m]
	best, bs := -1, 0
	for k, ok := range mem.InjuryStats {
		if !ok {
			continue
		}
		s := mem.Stats[k]
		if c.Rules.statSizes(&s) == 0 {
			if best < 0 {
				best, bs = k, -1<<30
			}
			continue
		}
		if v := score(s); best < 0 || v > bs {
			best, bs = k, v
		}
	}
	return best
}

// takeLoss spreads n sizes over s's dice in the given order into sz, each
// die giving at most what it has (so all the stat has, when that is fewer
// than n: State.InjuryLimit); byOne takes one size per die per pass.
func takeLoss(r *Rules, s *Stat, n int, order []int, byOne bool, sz *[MaxDice]int) {
	for n > 0 {
		moved := false
		for _, i := range order {
			left := r.sizes(s[i]) - sz[i]
			if left <= 0 || n == 0 {
				continue
			}
			k := left
			if byOne {
				k = 1
			}
			k = min(k, n)
			sz[i] += k
			n -= k
			moved = true
		}
		if !moved {
			break
		}
	}
}

// diceOrder writes the indexes of s's dice into o, biggest first (or
// smallest first), and returns how many there are.
func diceOrder(s *Stat, smallest bool, o *[MaxDice]int) int {
	n := s.Len()
	for i := range n {
		o[i] = i
	}
	for i := 1; i < n; i++ {
		for j := i; j > 0; j-- {
			a, b := s[o[j-1]], s[o[j]]
			if (!smallest && b > a) || (smallest && b < a) {
				o[j-1], o[j] = o[j], o[j-1]
			}
		}
	}
	return n
}

// lossFrom writes into l the loss of Rules.InjurySizes sizes from stat
// position k of member m, taken from its dice in size order (biggest
// first, or smallest first), whole dice or byOne size per die in turn.
func lossFrom(c *State, loser, m, k int, smallest, byOne bool, l *Loss) {
	s := &c.Sides[loser].Members[m].Stats[k]
	l.Stat = c.Rules.Stats[k]
	var o [MaxDice]int
	n := diceOrder(s, smallest, &o)
	takeLoss(&c.Rules, s, c.Rules.InjurySizes, o[:n], byOne, &l.Sizes)
}

// lossBy writes into l the loss from the injury stat score picks (none
// when every injury stat is empty).
func lossBy(c *State, loser, m int, score func(Stat) int, smallest, byOne bool, l *Loss) {
	if k := injuryStat(c, loser, m, score); k >= 0 {
		lossFrom(c, loser, m, k, smallest, byOne, l)
	}
}

// Loss implements LossPolicy: the injury stat whose biggest die is
// biggest (then the one with more sizes, then the earlier), biggest die
// first.
func (Deepest) Loss(v *View, loser, m int, l *Loss) {
	c := v.s
	mem := &c.Sides[loser].Members[m]
	best, bestTop, bestSizes := -1, dice.Gone, 0
	for k, injury := range mem.InjuryStats[:len(c.Rules.Stats)] {
		if !injury {
			continue
		}
		// A stat with no size left to lose is the choice only when every
		// injury stat is so.
		top, sizes := slices.Max(mem.Stats[k][:]), c.Rules.statSizes(&mem.Stats[k])
		if best < 0 || sizes > 0 && (bestSizes == 0 || top > bestTop || top == bestTop && sizes > bestSizes) {
			best, bestTop, bestSizes = k, top, sizes
		}
	}
	if best >= 0 {
		lossFrom(c, loser, m, best, false, false, l)
	}
}

// Loss implements LossPolicy.
func (Spread) Loss(v *View, loser, m int, l *Loss) {
	lossBy(v.s, loser, m, Stat.Sizes, false, true, l)
}

// Loss implements LossPolicy.
func (Finish) Loss(v *View, loser, m int, l *Loss) {
	lossBy(v.s, loser, m, func(s Stat) int { return -s.Sizes() }, true, false, l)
}

// extreme returns the side in (other than self) with the lowest or highest
// showing roll, or -1.
func extreme(c *State, self int, highest bool) int {
	best := -1
	for i := range c.Sides {
		if i == self || c.Sides[i].Status != StatusIn {
			continue
		}
		if best < 0 {
			best = i
			continue
		}
		if d := c.cmp(i, best); (highest && d > 0) || (!highest && d < 0) {
			best = i
		}
	}
	return best
}

// Target implements TargetPolicy.
func (Sworn) Target(v *View, ch int) int {
	c := v.s
	switch t := c.Sides[ch].Target; {
	case t < 0:
		return extreme(c, ch, false)
	case c.In(t):
		return t
	}
	return Drop
}

// Target implements TargetPolicy.
func (Turncoat) Target(v *View, ch int) int {
	c := v.s
	if t := c.Sides[ch].Target; t >= 0 && c.In(t) {
		return t
	}
	return extreme(c, ch, false)
}

// Target implements TargetPolicy.
func (Weakest) Target(v *View, ch int) int { return extreme(v.s, ch, false) }

// Target implements TargetPolicy.
func (Strongest) Target(v *View, ch int) int { return extreme(v.s, ch, true) }

// Interfere implements InterferePolicy.
func (Aloof) Interfere(*View, int) bool { return false }

// Interfere implements InterferePolicy.
func (Meddle) Interfere(*View, int) bool { return true }

// Interfere implements InterferePolicy.
func (Guard) Interfere(v *View, side int) bool { return v.s.Sides[side].Target == v.s.Challenger }

// The kinds of policy part, as they prefix registry names.
const (
	KindStance    = "stance"
	KindCross     = "cross_off"
	KindLoss      = "loss"
	KindTarget    = "target"
	KindInterfere = "interfere"
)

// policies names every shipped part as "kind/name"; each makes a Style of
// that part and the defaults.
var policies = named.Registry[Policy]{Kind: "policy", Make: map[string]func() Policy{
	"stance/hang_in":       func() Policy { return &Style{Stance: HangIn{}} },
	"stance/give":          func() Policy { return &Style{Stance: Give{}} },
	"stance/outclassed":    func() Policy { return &Style{Stance: Outclassed{}} },
	"cross_off/never":      func() Policy { return &Style{Cross: Never{}} },
	"cross_off/when_close": func() Policy { return &Style{Cross: WhenClose{}} },
	"cross_off/eager":      func() Policy { return &Style{Cross: Eager{}} },
	"loss/deepest":         func() Policy { return &Style{Losses: Deepest{}} },
	"loss/spread":          func() Policy { return &Style{Losses: Spread{}} },
	"loss/finish":          func() Policy { return &Style{Losses: Finish{}} },
	"target/sworn":         func() Policy { return &Style{Targets: Sworn{}} },
	"target/turncoat":      func() Policy { return &Style{Targets: Turncoat{}} },
	"target/weakest":       func() Policy { return &Style{Targets: Weakest{}} },
	"target/strongest":     func() Policy { return &Style{Targets: Strongest{}} },
	"interfere/aloof":      func() Policy { return &Style{Interference: Aloof{}} },
	"interfere/meddle":     func() Policy { return &Style{Interference: Meddle{}} },
	"interfere/guard":      func() Policy { return &Style{Interference: Guard{}} },
}}

// PolicyNames returns the registered policy names, "kind/name", sorted.
func PolicyNames() []string { return policies.Names() }

// PolicyByName returns the Style of the named part ("kind/name", see
// PolicyNames) with the defaults for every other kind. StyleNames
// combines one part of each kind.
func PolicyByName(name string) (Policy, error) {
	p, err := policies.ByName(name)
	if err != nil {
		return nil, fmt.Errorf("challenge: %w", err)
	}
	return p, nil
}

// StyleNames names a side's policy parts by registry name without the kind
// prefix ("hang_in", not "stance/hang_in"); empty fields take the defaults.
type StyleNames struct {
	Stance    string `json:"stance,omitempty"`
	CrossOff  string `json:"cross_off,omitempty"`
	Loss      string `json:"loss,omitempty"`
	Target    string `json:"target,omitempty"`
	Interfere string `json:"interfere,omitempty"`
}

// part looks up the Style of the named part of a kind (the default name
// when empty).
func part(kind, name, def string) (*Style, error) {
	if name == "" {
		name = def
	}
	p, err := PolicyByName(kind + "/" + name)
	if err != nil {
		return nil, err
	}
	return p.(*Style), nil
}

// Style returns the Style the names choose.
func (n StyleNames) Style() (Style, error) {
	var s Style
	for _, k := range []struct {
		kind, name, def string
		set             func(*Style)
	}{
		{KindStance, n.Stance, "hang_in", func(p *Style) { s.Stance = p.Stance }},
		{KindCross, n.CrossOff, "never", func(p *Style) { s.Cross = p.Cross }},
		{KindLoss, n.Loss, "deepest", func(p *Style) { s.Losses = p.Losses }},
		{KindTarget, n.Target, "sworn", func(p *Style) { s.Targets = p.Targets }},
		{KindInterfere, n.Interfere, "aloof", func(p *Style) { s.Interference = p.Interference }},
	} {
		p, err := part(k.kind, k.name, k.def)
		if err != nil {
			return Style{}, err
		}
		k.set(p)
	}
	return s, nil
}
