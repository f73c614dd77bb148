package challenge

import (
	"fmt"
	"slices"
	"strings"

	"github.com/stakesrpg/stakes/dice"
)

// StancePolicy decides, for an answerer whose answer is lower than the
// challenge but more than half, whether to hang in (true) or give.
type StancePolicy interface {
	HangIn(c *State, side int) bool
}

// CrossPolicy decides whether a side crosses a name off the owe list at the
// comparison now pending: it returns the owe-list index, or -1 for none.
type CrossPolicy interface {
	CrossOff(c *State, side int) int
}

// LossPolicy is the winner's choice of which die sizes member m of the
// losing side loses to exhaustion or injury.
type LossPolicy interface {
	Loss(c *State, loser, m int) Loss
}

// TargetPolicy is the current challenger's choice of answerer: a side
// index, or Drop to drop out of the conflict.
type TargetPolicy interface {
	Target(c *State, challenger int) int
}

// Drop is what a TargetPolicy returns to drop out instead of challenging.
const Drop = -1

// InterferePolicy decides whether a side whose roll beats the named
// answerer's interferes and answers the challenge instead.
type InterferePolicy interface {
	Interfere(c *State, side int) bool
}

// Negotiator is the hook for negotiated consequences: the winner proposes
// an outcome in place of exhaustion or injury and the loser accepts or
// not. Either may fall back on the standard, so a settlement needs both.
type Negotiator interface {
	Propose(c *State) (Settlement, bool)
	Accept(c *State, s Settlement) bool
}

// Play is the set of policies one side plays by. Nil fields use the
// defaults: hang in, never cross off, deepest loss, sworn target, never
// interfere, no negotiation.
type Play struct {
	Stance    StancePolicy
	Cross     CrossPolicy
	Loss      LossPolicy
	Target    TargetPolicy
	Interfere InterferePolicy
	Negotiate Negotiator
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
func (HangIn) HangIn(*State, int) bool { return true }

// HangIn implements StancePolicy.
func (Give) HangIn(*State, int) bool { return false }

// HangIn implements StancePolicy.
func (Outclassed) HangIn(c *State, side int) bool {
	return c.Sides[c.Challenger].TotalSides <= c.Sides[side].TotalSides
}

// CrossOff implements CrossPolicy.
func (Never) CrossOff(*State, int) int { return -1 }

// CrossOff implements CrossPolicy.
func (Eager) CrossOff(c *State, side int) int { return c.firstCrossable(side) }

// CrossOff implements CrossPolicy.
func (WhenClose) CrossOff(c *State, side int) int {
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
		if s.Sizes() == 0 {
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

// takeLoss spreads n sizes over s's dice in the given order, each die
// giving at most what it has; byOne takes one size per die per pass.
func takeLoss(s Stat, n int, order []int, byOne bool) [MaxDice]int {
	var sz [MaxDice]int
	for n > 0 {
		moved := false
		for _, i := range order {
			left := rung(s[i]) - sz[i]
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
	return sz
}

// diceOrder returns the indexes of s's dice, biggest first (or smallest
// first), in a fixed array.
func diceOrder(s Stat, smallest bool) ([MaxDice]int, int) {
	var o [MaxDice]int
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
	return o, n
}

func lossBy(c *State, loser, m int, score func(Stat) int, smallest, byOne bool) Loss {
	k := injuryStat(c, loser, m, score)
	if k < 0 {
		return Loss{}
	}
	s := c.Sides[loser].Members[m].Stats[k]
	o, n := diceOrder(s, smallest)
	return Loss{Stat: c.Rules.Stats[k], Sizes: takeLoss(s, c.InjuryLimit(loser, m, k), o[:n], byOne)}
}

// Loss implements LossPolicy: the injury stat whose biggest die is
// biggest (then the one with more sizes, then the earlier), biggest die
// first.
func (Deepest) Loss(c *State, loser, m int) Loss {
	mem := &c.Sides[loser].Members[m]
	best, bestTop, bestSizes := -1, dice.Gone, 0
	for k, injury := range mem.InjuryStats[:len(c.Rules.Stats)] {
		if !injury {
			continue
		}
		top, sizes := slices.Max(mem.Stats[k][:]), mem.Stats[k].Sizes()
		if best < 0 || top > bestTop || top == bestTop && sizes > bestSizes {
			best, bestTop, bestSizes = k, top, sizes
		}
	}
	if best < 0 {
		return Loss{}
	}
	s := mem.Stats[best]
	o, n := diceOrder(s, false)
	return Loss{Stat: c.Rules.Stats[best], Sizes: takeLoss(s, c.InjuryLimit(loser, m, best), o[:n], false)}
}

// Loss implements LossPolicy.
func (Spread) Loss(c *State, loser, m int) Loss {
	return lossBy(c, loser, m, Stat.Sizes, false, true)
}

// Loss implements LossPolicy.
func (Finish) Loss(c *State, loser, m int) Loss {
	return lossBy(c, loser, m, func(s Stat) int { return -s.Sizes() }, true, false)
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
func (Sworn) Target(c *State, ch int) int {
	switch t := c.Sides[ch].Target; {
	case t < 0:
		return extreme(c, ch, false)
	case c.In(t):
		return t
	}
	return Drop
}

// Target implements TargetPolicy.
func (Turncoat) Target(c *State, ch int) int {
	if t := c.Sides[ch].Target; t >= 0 && c.In(t) {
		return t
	}
	return extreme(c, ch, false)
}

// Target implements TargetPolicy.
func (Weakest) Target(c *State, ch int) int { return extreme(c, ch, false) }

// Target implements TargetPolicy.
func (Strongest) Target(c *State, ch int) int { return extreme(c, ch, true) }

// Interfere implements InterferePolicy.
func (Aloof) Interfere(*State, int) bool { return false }

// Interfere implements InterferePolicy.
func (Meddle) Interfere(*State, int) bool { return true }

// Interfere implements InterferePolicy.
func (Guard) Interfere(c *State, side int) bool { return c.Sides[side].Target == c.Challenger }

// policy kinds, as they prefix registry names.
const (
	KindStance    = "stance"
	KindCross     = "cross_off"
	KindLoss      = "loss"
	KindTarget    = "target"
	KindInterfere = "interfere"
)

var registry = map[string]any{
	"stance/hang_in":       HangIn{},
	"stance/give":          Give{},
	"stance/outclassed":    Outclassed{},
	"cross_off/never":      Never{},
	"cross_off/when_close": WhenClose{},
	"cross_off/eager":      Eager{},
	"loss/deepest":         Deepest{},
	"loss/spread":          Spread{},
	"loss/finish":          Finish{},
	"target/sworn":         Sworn{},
	"target/turncoat":      Turncoat{},
	"target/weakest":       Weakest{},
	"target/strongest":     Strongest{},
	"interfere/aloof":      Aloof{},
	"interfere/meddle":     Meddle{},
	"interfere/guard":      Guard{},
}

// Policies returns the registered policy names, "kind/name", sorted.
func Policies() []string {
	out := make([]string, 0, len(registry))
	for k := range registry {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// PolicyByName returns a registered policy by its "kind/name" (see
// Policies); its type implements that kind's interface.
func PolicyByName(name string) (any, error) {
	if p, ok := registry[name]; ok {
		return p, nil
	}
	return nil, fmt.Errorf("challenge: unknown policy %q: known are %s", name, strings.Join(Policies(), ", "))
}

// PlayNames names a side's policies by registry name without the kind
// prefix ("hang_in", not "stance/hang_in"); empty fields take the defaults.
type PlayNames struct {
	Stance    string `json:"stance,omitempty"`
	CrossOff  string `json:"cross_off,omitempty"`
	Loss      string `json:"loss,omitempty"`
	Target    string `json:"target,omitempty"`
	Interfere string `json:"interfere,omitempty"`
}

func lookup[T any](kind, name, def string) (T, error) {
	var zero T
	if name == "" {
		name = def
	}
	p, err := PolicyByName(kind + "/" + name)
	if err != nil {
		return zero, err
	}
	return p.(T), nil
}

// Play returns the policies the names choose.
func (n PlayNames) Play() (Play, error) {
	var p Play
	var err error
	if p.Stance, err = lookup[StancePolicy](KindStance, n.Stance, "hang_in"); err != nil {
		return p, err
	}
	if p.Cross, err = lookup[CrossPolicy](KindCross, n.CrossOff, "never"); err != nil {
		return p, err
	}
	if p.Loss, err = lookup[LossPolicy](KindLoss, n.Loss, "deepest"); err != nil {
		return p, err
	}
	if p.Target, err = lookup[TargetPolicy](KindTarget, n.Target, "sworn"); err != nil {
		return p, err
	}
	if p.Interfere, err = lookup[InterferePolicy](KindInterfere, n.Interfere, "aloof"); err != nil {
		return p, err
	}
	return p, nil
}

// Step takes the next step with the sides' policies (plays[i] for side i):
// a roll, one side's choice whether to cross a name off the owe list, the
// resolution of a comparison, a choice of answerer, interference, stance,
// or consequence. An illegal policy choice
// is returned as an error and the state is unchanged.
func (c *State) Step(r *dice.Roller, plays []Play) error {
	if len(plays) != len(c.Sides) {
		return c.playsErr(plays)
	}
	return c.step(r, plays)
}

func (c *State) playsErr(plays []Play) error {
	return fmt.Errorf("challenge: %d plays for %d sides: give one per side", len(plays), len(c.Sides))
}

// step is Step once plays is known to hold one Play per side. The
// common steps come first and the rarer ones are kept in functions of
// their own, so the common path stays small.
func (c *State) step(r *dice.Roller, plays []Play) error {
	switch c.Phase {
	case PhaseCast, PhaseAnswer:
		return c.Roll(r)
	case PhaseAnswered, PhaseCastRolled:
		if len(c.Owe) > 0 {
			if i := c.toAsk(); i >= 0 {
				return c.askCross(r, plays, i)
			}
		}
		return c.Resolve()
	case PhaseChallenge:
		return c.challengeStep(plays)
	case PhaseStance:
		c.stanceStep(plays)
		return nil
	case PhaseConsequence:
		return c.consequenceStep(plays)
	case PhaseInterfere:
		return c.interfereStep(plays)
	}
	return c.phaseErr("Step")
}

// stanceStep asks the answerer's stance policy (HangIn, the default,
// without a call) and takes the stance.
func (c *State) stanceStep(plays []Play) {
	an := c.Answerer
	p := plays[an].Stance
	if p == nil {
		p = HangIn{}
	}
	c.stance(p.HangIn(c, an))
}

func (c *State) challengeStep(plays []Play) error {
	ch := c.Challenger
	if ch < 0 || ch >= len(c.Sides) {
		return c.Challenge(-1) // says why
	}
	t, sole := c.soleAnswerer()
	if !sole {
		p := plays[ch].Target
		if p == nil {
			p = Sworn{}
		}
		t = p.Target(c, ch)
		if t == Drop {
			return c.Drop()
		}
	}
	if err := c.Challenge(t); err != nil {
		return fmt.Errorf("challenge: side %s's target policy: %w", c.Sides[ch].Name, err)
	}
	return nil
}

// soleAnswerer returns the side the current challenger must name, and
// true, when it has no choice to make: exactly one other side is in, and
// it is the challenger's declared target or the challenger declared none.
// Otherwise Step asks the challenger's target policy.
func (c *State) soleAnswerer() (int, bool) {
	ch, t, n := c.Challenger, -1, 0
	for i := range c.Sides {
		if i != ch && c.Sides[i].Status == StatusIn {
			t, n = i, n+1
		}
	}
	if n != 1 || (c.Sides[ch].Target >= 0 && c.Sides[ch].Target != t) {
		return -1, false
	}
	return t, true
}

func (c *State) interfereStep(plays []Play) error {
	best := -1
	for k := range c.Sides {
		if !c.mayInterfere(k, c.Answerer) {
			continue
		}
		p := plays[k].Interfere
		if p == nil || !p.Interfere(c, k) {
			continue
		}
		if best < 0 || c.cmp(k, best) > 0 {
			best = k
		}
	}
	return c.Interfere(best)
}

func (c *State) consequenceStep(plays []Play) error {
	w, l := &plays[c.Challenger], &plays[c.Answerer]
	if w.Negotiate != nil && l.Negotiate != nil {
		if s, ok := w.Negotiate.Propose(c); ok && l.Negotiate.Accept(c, s) {
			if err := c.Settle(s); err != nil {
				return fmt.Errorf("challenge: side %s's settlement: %w", c.Sides[c.Challenger].Name, err)
			}
			return nil
		}
	}
	lp := w.Loss
	if lp == nil {
		lp = Deepest{}
	}
	n := len(c.Sides[c.Answerer].Members)
	for m := range n {
		c.losses[m] = Loss{}
		if !c.Sides[c.Answerer].Members[m].Out {
			c.losses[m] = lp.Loss(c, c.Answerer, m)
		}
	}
	if err := c.Injure(c.losses[:n]); err != nil {
		return fmt.Errorf("challenge: side %s's loss policy: %w", c.Sides[c.Challenger].Name, err)
	}
	return nil
}

// toAsk returns the next side Step asks whether to cross a name off in
// the pending comparison, or -1 when none is left: in an exchange the
// answerer, then the challenger; at a cast every side in order. A side is
// asked once a comparison, and only when it has a name it may cross off.
func (c *State) toAsk() int {
	ask := func(i int) bool { return !c.Sides[i].Asked && c.firstCrossable(i) >= 0 }
	if c.Phase == PhaseAnswered {
		for _, i := range [2]int{c.Answerer, c.Challenger} {
			if ask(i) {
				return i
			}
		}
		return -1
	}
	for i := range c.Sides {
		if c.In(i) && ask(i) {
			return i
		}
	}
	return -1
}

// askCross asks side i's cross-off policy, as one step: an owe-list index
// crosses that name off and rolls the advantage die; -1 passes. Any other
// answer, or an entry the side may not cross off, is an error and changes
// nothing.
func (c *State) askCross(r *dice.Roller, plays []Play, i int) error {
	p := plays[i].Cross
	if p == nil {
		p = Never{}
	}
	k := p.CrossOff(c, i)
	if k == -1 {
		c.Sides[i].Asked = true
		return nil
	}
	if k < -1 {
		return fmt.Errorf("challenge: side %s's cross-off policy answered %d: give an owe-list index 0..%d or -1 for none",
			c.Sides[i].Name, k, len(c.Owe)-1)
	}
	if err := c.CrossOff(r, i, k); err != nil {
		return fmt.Errorf("challenge: side %s's cross-off policy: %w", c.Sides[i].Name, err)
	}
	return nil
}

// Run plays the conflict to the end with the sides' policies: Step over
// and over.
func (c *State) Run(r *dice.Roller, plays []Play) error {
	if len(plays) != len(c.Sides) {
		return c.playsErr(plays)
	}
	for c.Phase != PhaseDone {
		if err := c.step(r, plays); err != nil {
			return err
		}
	}
	return nil
}
