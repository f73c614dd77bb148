package challenge

import (
	"fmt"
	"slices"
	"strings"

	"github.com/stakesrpg/stakes/dice"
)

// Stat is the dice one stat holds: up to MaxDice ladder dice (d4..d12),
// those present first, then dice.Gone. It is a plain array value, so copying
// a character's stats allocates nothing. In JSON it is dice notation such as
// "d12 d6"; an empty stat is "".
type Stat [MaxDice]dice.Die

// NewStat returns the stat holding ds, or an error if a size is off the
// ladder d4..d12 or there are more than MaxDice dice.
func NewStat(ds ...dice.Die) (Stat, error) {
	var s Stat
	if len(ds) > MaxDice {
		return s, fmt.Errorf("challenge: %d dice in one stat: at most %d", len(ds), MaxDice)
	}
	for i, d := range ds {
		if err := d.CheckLadder(); err != nil {
			return Stat{}, fmt.Errorf("challenge: die %d of a stat: %w", i+1, err)
		}
		s[i] = d
	}
	return s, nil
}

// MustStat is NewStat for fixed, known-good dice in examples and tests; it
// panics on an error.
func MustStat(ds ...dice.Die) Stat {
	s, err := NewStat(ds...)
	if err != nil {
		panic(err)
	}
	return s
}

// Len returns how many dice the stat holds.
func (s Stat) Len() int {
	n := 0
	for n < MaxDice && s[n] != dice.Gone {
		n++
	}
	return n
}

// Dice returns the dice as a new slice.
func (s Stat) Dice() []dice.Die { return slices.Clone(s[:s.Len()]) }

// rung returns a die's position on the ladder counting from 1 (d4 = 1,
// d12 = 5): the number of sizes it can lose before it is gone.
func rung(d dice.Die) int {
	switch d {
	case dice.D4:
		return 1
	case dice.D6:
		return 2
	case dice.D8:
		return 3
	case dice.D10:
		return 4
	case dice.D12:
		return 5
	}
	return 0
}

// Sides returns the total sides of the stat's dice (d12 d6 is 18), the
// measure the owe list compares.
func (s Stat) Sides() int {
	t := 0
	for _, d := range s {
		t += int(d)
	}
	return t
}

// Sizes returns the total die sizes in the stat (d4 = 1, d6 = 2 ... d12 =
// 5): the most it can lose. Moving sizes never changes a character's total.
func (s Stat) Sizes() int {
	t := 0
	for _, d := range s {
		t += rung(d)
	}
	return t
}

// String returns dice notation, "d12 d6"; an empty stat is "-".
func (s Stat) String() string {
	if s.Len() == 0 {
		return "-"
	}
	return string(s.text())
}

func (s Stat) text() []byte {
	var b []byte
	for i, d := range s[:s.Len()] {
		if i > 0 {
			b = append(b, ' ')
		}
		b = append(b, d.String()...)
	}
	return b
}

// MarshalText writes the dice in notation ("d12 d6"; "" when empty).
func (s Stat) MarshalText() ([]byte, error) { return s.text(), nil }

// UnmarshalText reads dice notation such as "d12 d6" or "2d6"; "" or "-" is
// an empty stat. Sizes must be d4..d12 and modifiers are not allowed. The
// dice keep the order they are written in, term by term, so a stat reads
// back as it was written ("d4 d6" stays d4 then d6: a Loss names dice by
// position).
func (s *Stat) UnmarshalText(b []byte) error {
	t := strings.TrimSpace(string(b))
	if t == "" || t == "-" {
		*s = Stat{}
		return nil
	}
	if len(t) > maxStatText {
		return fmt.Errorf("challenge: stat of %d bytes: a stat holds at most %d dice", len(t), MaxDice)
	}
	var ds []dice.Die
	for _, term := range strings.Fields(t) {
		p, err := dice.ParsePool(term)
		if err != nil {
			return fmt.Errorf("challenge: stat %q: %w", t, err)
		}
		if p.Modifier() != 0 {
			return fmt.Errorf("challenge: stat %q: a stat holds dice only, no modifier", t)
		}
		if ds = append(ds, p.Dice()...); len(ds) > MaxDice {
			break // NewStat says how many a stat holds
		}
	}
	v, err := NewStat(ds...)
	if err != nil {
		return fmt.Errorf("challenge: stat %q: %w", t, err)
	}
	*s = v
	return nil
}

// maxStatText bounds a stat's notation before it is read: MaxDice terms
// of a count and a size each, with room to spare.
const maxStatText = 16 * MaxDice

// compact moves Gone dice to the end, keeping the order of the others.
func (s *Stat) compact() {
	j := 0
	for _, d := range s {
		if d != dice.Gone {
			s[j] = d
			j++
		}
	}
	for ; j < MaxDice; j++ {
		s[j] = dice.Gone
	}
}

// Specialization is an extra line on a character sheet ("Someone uses a
// specialization"): used on its endeavor, it adds the dice of another stat
// to the roll, unless the opponent uses the specialization it is
// vulnerable to. Its formal challenges change no dice; they are data for
// the people at the table.
type Specialization struct {
	Name string `json:"name"`
	// Endeavor is the endeavor the specialization applies to.
	Endeavor string `json:"endeavor"`
	// Stat is the stat whose dice it adds.
	Stat string `json:"stat"`
	// VulnerableTo names the opposing specialization that cancels it.
	VulnerableTo string `json:"vulnerable_to,omitempty"`
	// Challenges are its formal challenges, for its user as challenger.
	Challenges []string `json:"challenges,omitempty"`
	// OpponentChallenges are challenges an opponent may use against it.
	OpponentChallenges []string `json:"opponent_challenges,omitempty"`
}

// Character is a character sheet: stats holding dice, endeavors mapped to
// stats, and specializations.
type Character struct {
	Name string `json:"name"`
	// Player owns the character; owe-list names may be crossed off by any
	// character of the same player. Empty means the character is its own
	// player. [ours]
	Player string `json:"player,omitempty"`
	// Stats maps each stat name in Rules.Stats to its dice.
	Stats map[string]Stat `json:"stats"`
	// Endeavors maps each endeavor, core and free-form, to a stat.
	Endeavors       map[string]string `json:"endeavors"`
	Specializations []Specialization  `json:"specializations,omitempty"`
}

// Standard returns a character with the given stats and the core endeavors
// mapped as in the arguments: asserting, defending, enduring, exerting,
// influencing (in the order of DefaultRules().Endeavors).
func Standard(name string, art, grace, guts Stat, core [5]string) Character {
	c := Character{
		Name:      name,
		Stats:     map[string]Stat{Art: art, Grace: grace, Guts: guts},
		Endeavors: map[string]string{},
	}
	for i, e := range DefaultRules().Endeavors {
		c.Endeavors[e] = core[i]
	}
	return c
}

// owner is the player who may cross the character's name off.
func (c *Character) owner() string {
	if c.Player != "" {
		return c.Player
	}
	return c.Name
}

// Validate checks the sheet against the rules: every stat present and
// known, dice on the ladder, every core endeavor and every endeavor mapped
// to a known stat, specializations well formed.
func (c *Character) Validate(r Rules) error {
	if c.Name == "" {
		return fmt.Errorf("challenge: a character needs a name")
	}
	if err := checkName("a character's name", c.Name); err != nil {
		return err
	}
	if err := checkName(c.Name+"'s player", c.Player); err != nil {
		return err
	}
	if len(c.Endeavors) > maxEndeavors || len(c.Specializations) > maxEndeavors {
		return fmt.Errorf("challenge: %s: at most %d endeavors and %d specializations", c.Name, maxEndeavors, maxEndeavors)
	}
	for e := range c.Endeavors {
		if err := checkName(c.Name+": an endeavor", e); err != nil {
			return err
		}
	}
	for _, sp := range c.Specializations {
		if err := checkName(c.Name+": a specialization", sp.Name); err != nil {
			return err
		}
	}
	for name, s := range c.Stats {
		if r.statIndex(name) < 0 {
			return fmt.Errorf("challenge: %s: unknown stat %q: allowed %v", c.Name, name, r.Stats)
		}
		for i, d := range s {
			if d != dice.Gone && !d.OnLadder() {
				return fmt.Errorf("challenge: %s: stat %s die %d is %v: allowed d4, d6, d8, d10, d12", c.Name, name, i+1, d)
			}
		}
	}
	for _, name := range r.Stats {
		if _, ok := c.Stats[name]; !ok {
			return fmt.Errorf("challenge: %s: stat %q is missing (use \"\" for an empty stat)", c.Name, name)
		}
	}
	for _, e := range r.Endeavors {
		if _, ok := c.Endeavors[e]; !ok {
			return fmt.Errorf("challenge: %s: core endeavor %q is not mapped to a stat", c.Name, e)
		}
	}
	for e, s := range c.Endeavors {
		if e == "" {
			return fmt.Errorf("challenge: %s: an endeavor needs a name", c.Name)
		}
		if r.statIndex(s) < 0 {
			return fmt.Errorf("challenge: %s: endeavor %q maps to unknown stat %q: allowed %v", c.Name, e, s, r.Stats)
		}
	}
	for i, sp := range c.Specializations {
		if sp.Name == "" {
			return fmt.Errorf("challenge: %s: specialization %d needs a name", c.Name, i+1)
		}
		if _, ok := c.Endeavors[sp.Endeavor]; !ok {
			return fmt.Errorf("challenge: %s: specialization %q applies to unknown endeavor %q", c.Name, sp.Name, sp.Endeavor)
		}
		if r.statIndex(sp.Stat) < 0 {
			return fmt.Errorf("challenge: %s: specialization %q adds unknown stat %q: allowed %v", c.Name, sp.Name, sp.Stat, r.Stats)
		}
	}
	return nil
}

// CheckStandard checks that the character is a legal new standard
// character: valid, each stat holding exactly Rules.DicePerStat dice, and
// the dice together exactly Rules.Allotment.
func (c *Character) CheckStandard(r Rules) error {
	if err := c.Validate(r); err != nil {
		return err
	}
	var all []dice.Die
	for _, name := range r.Stats {
		s := c.Stats[name]
		if n := s.Len(); n != r.DicePerStat {
			return fmt.Errorf("challenge: %s: stat %s holds %d dice (%v); a standard character has %d in each",
				c.Name, name, n, s, r.DicePerStat)
		}
		all = append(all, s[:s.Len()]...)
	}
	want := slices.Clone(r.Allotment)
	slices.Sort(all)
	slices.Sort(want)
	if !slices.Equal(all, want) {
		return fmt.Errorf("challenge: %s: dice %v are not the standard allotment %v", c.Name, all, want)
	}
	return nil
}

// EndeavorStat returns the stat the character uses for an endeavor, or an
// error naming the endeavors the character has.
func (c *Character) EndeavorStat(endeavor string) (string, error) {
	s, ok := c.Endeavors[endeavor]
	if !ok {
		known := make([]string, 0, len(c.Endeavors))
		for e := range c.Endeavors {
			known = append(known, e)
		}
		slices.Sort(known)
		return "", fmt.Errorf("challenge: %s has no endeavor %q: known are %s", c.Name, clip(endeavor), few(known))
	}
	return s, nil
}

// Specialization returns the named specialization.
func (c *Character) Specialization(name string) (Specialization, error) {
	for _, sp := range c.Specializations {
		if sp.Name == name {
			return sp, nil
		}
	}
	return Specialization{}, fmt.Errorf("challenge: %s has no specialization %q", c.Name, name)
}

// Loss is a number of die sizes taken from the dice of one stat: Sizes[i]
// steps the stat's i-th die down that many rungs (a d4 stepped down is
// gone). The exhaustion-or-injury loss of the text is InjurySizes sizes
// from one stat, either all from one die or spread.
type Loss struct {
	Stat  string       `json:"stat"`
	Sizes [MaxDice]int `json:"sizes"`
}

// Total returns the number of sizes the loss takes.
func (l *Loss) Total() int {
	t := 0
	for _, n := range l.Sizes {
		t += n
	}
	return t
}

// apply takes the loss from s, or returns an error if a die would lose
// more sizes than it has (s is then part-changed: apply to a copy). Sizes
// index the dice the stat holds before the loss: a d4 that goes does not
// move the dice after it.
func (l *Loss) apply(r *Rules, s *Stat) error {
	gone, held := false, s.Len()
	for i, n := range l.Sizes {
		if n < 0 {
			return fmt.Errorf("challenge: loss of %d sizes from die %d of %s: sizes must be >= 0", n, i+1, l.Stat)
		}
		if n == 0 {
			continue
		}
		if i >= held {
			return fmt.Errorf("challenge: loss from die %d of %s, which holds only %d dice (%v)", i+1, l.Stat, held, *s)
		}
		if n > r.sizes(s[i]) {
			return fmt.Errorf("challenge: %d sizes from the %v of %s: a %v has only %d sizes to lose", n, s[i], l.Stat, s[i], r.sizes(s[i]))
		}
		s[i], _ = s[i].Step(-n)
		gone = gone || s[i] == dice.Gone
	}
	if gone {
		s.compact()
	}
	return nil
}

// Lose takes the loss from the character's stat. On an error the
// character is unchanged.
func (c *Character) Lose(r Rules, l Loss) error {
	if r.statIndex(l.Stat) < 0 {
		return fmt.Errorf("challenge: %s: unknown stat %q: allowed %v", c.Name, l.Stat, r.Stats)
	}
	s := c.Stats[l.Stat]
	if err := l.apply(&r, &s); err != nil {
		return fmt.Errorf("challenge: %s: %w", c.Name, err)
	}
	c.Stats[l.Stat] = s
	return nil
}

// Move moves die sizes between dice, within a stat or from one stat to
// another, without adding any: the source die steps down Sizes rungs and
// the destination steps up as many ("you can't add die sizes, but you can
// move them around"). ToDie may be the stat's next free slot, where the
// first size moved makes a d4.
type Move struct {
	From    string `json:"from"`
	FromDie int    `json:"from_die"`
	To      string `json:"to"`
	ToDie   int    `json:"to_die"`
	Sizes   int    `json:"sizes"`
}

// Move applies m to the character; on an error the character is unchanged.
func (c *Character) Move(r Rules, m Move) error {
	if r.statIndex(m.From) < 0 || r.statIndex(m.To) < 0 {
		return fmt.Errorf("challenge: %s: move from %q to %q: stats allowed are %v", c.Name, m.From, m.To, r.Stats)
	}
	if m.Sizes < 1 {
		return fmt.Errorf("challenge: %s: move of %d sizes: move at least 1", c.Name, m.Sizes)
	}
	src, dst := c.Stats[m.From], c.Stats[m.To]
	if m.FromDie < 0 || m.FromDie >= src.Len() {
		return fmt.Errorf("challenge: %s: move from die %d of %s, which holds %d dice (%v)", c.Name, m.FromDie+1, m.From, src.Len(), src)
	}
	if m.From == m.To && m.FromDie == m.ToDie {
		return fmt.Errorf("challenge: %s: move from a die to itself", c.Name)
	}
	if n := r.sizes(src[m.FromDie]); m.Sizes > n {
		return fmt.Errorf("challenge: %s: moving %d sizes from a %v, which has %d", c.Name, m.Sizes, src[m.FromDie], n)
	}
	if m.From == m.To {
		dst = src
	}
	limit := min(MaxDice, r.DicePerStat)
	if m.ToDie < 0 || m.ToDie > dst.Len() || m.ToDie >= limit {
		return fmt.Errorf("challenge: %s: move to die %d of %s: allowed 1..%d (the stat holds %d dice, at most %d)",
			c.Name, m.ToDie+1, m.To, min(dst.Len()+1, limit), dst.Len(), limit)
	}
	up := rung(dst[m.ToDie]) + m.Sizes
	if up > len(dice.Ladder) {
		return fmt.Errorf("challenge: %s: moving %d sizes onto a %v would pass d12", c.Name, m.Sizes, dst[m.ToDie])
	}
	var s Stat
	if m.From == m.To {
		s = src
		s[m.ToDie] = dice.Ladder[up-1]
		s[m.FromDie], _ = s[m.FromDie].Step(-m.Sizes)
		s.compact()
		c.Stats[m.From] = s
		return nil
	}
	dst[m.ToDie] = dice.Ladder[up-1]
	src[m.FromDie], _ = src[m.FromDie].Step(-m.Sizes)
	src.compact()
	c.Stats[m.From], c.Stats[m.To] = src, dst
	return nil
}

// TotalSizes returns the die sizes across all the character's stats; moves
// keep it, losses lower it.
func (c *Character) TotalSizes() int {
	t := 0
	for _, s := range c.Stats {
		t += s.Sizes()
	}
	return t
}

// clip shortens a name asked for, which no check has bounded, for an
// error.
func clip(s string) string {
	if len(s) > MaxName {
		return s[:MaxName] + "..."
	}
	return s
}
