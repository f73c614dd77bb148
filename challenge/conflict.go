package challenge

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/bits"
	"strings"

	"github.com/stakesrpg/stakes/dice"
)

// Phase is where a conflict stands: which step comes next.
type Phase uint8

// Phases. Each names the step the conflict waits for.
const (
	PhaseCast        Phase = iota // Roll: every side still in makes the initial cast
	PhaseCastRolled               // CrossOff (optional), then Resolve: who challenges
	PhaseChallenge                // Challenge (name an answerer) or Drop, by the Challenger
	PhaseInterfere                // Interfere: a side whose roll beats the named answerer may answer instead
	PhaseAnswer                   // Roll: the Answerer re-rolls
	PhaseAnswered                 // CrossOff (optional), then Resolve: compare answer and standing roll
	PhaseStance                   // Stance: the Answerer hangs in or gives
	PhaseConsequence              // Injure or Settle: the Challenger won outright
	PhaseDone                     // the conflict is over
)

var phaseText = [...]string{"cast", "cast_rolled", "challenge", "interfere", "answer", "answered",
	"stance", "consequence", "done"}

// String returns the phase name.
func (p Phase) String() string {
	if int(p) < len(phaseText) {
		return phaseText[p]
	}
	return fmt.Sprintf("Phase(%d)", int(p))
}

// MarshalText writes the phase name.
func (p Phase) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// UnmarshalText reads a phase name.
func (p *Phase) UnmarshalText(b []byte) error {
	for i, s := range phaseText {
		if s == string(b) {
			*p = Phase(i)
			return nil
		}
	}
	return fmt.Errorf("challenge: unknown phase %q: known are %s", b, strings.Join(phaseText[:], ", "))
}

// Status is whether a side is still in the conflict, and if not, how it
// went out.
type Status uint8

// Statuses.
const (
	StatusIn      Status = iota // still in the conflict
	StatusInjured               // beaten outright: exhausted or injured
	StatusSettled               // beaten outright, and accepted a negotiated outcome
	StatusGave                  // gave: out with no injury
	StatusDropped               // dropped out (its answerer was gone, or it chose to)
	StatusOut                   // could not roll: every member's stat for the endeavor was empty
)

var statusText = [...]string{"in", "injured", "settled", "gave", "dropped", "out"}

// String returns the status name.
func (s Status) String() string {
	if int(s) < len(statusText) {
		return statusText[s]
	}
	return fmt.Sprintf("Status(%d)", int(s))
}

// MarshalText writes the status name.
func (s Status) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads a status name.
func (s *Status) UnmarshalText(b []byte) error {
	for i, t := range statusText {
		if t == string(b) {
			*s = Status(i)
			return nil
		}
	}
	return fmt.Errorf("challenge: unknown status %q: known are %s", b, strings.Join(statusText[:], ", "))
}

// Debt is one entry on the owe list: a character's name and its player.
type Debt struct {
	Name   string `json:"name"`
	Player string `json:"player"`
}

// Entry is one character entering a conflict: the sheet, the endeavor it
// acts by and, optionally, the specialization it declares.
type Entry struct {
	Character      Character `json:"character"`
	Endeavor       string    `json:"endeavor"`
	Specialization string    `json:"specialization,omitempty"`
}

// Party is one side as it enters a conflict: a character, or a character
// and helpers rolling together ("the third character is helping"). Target
// optionally names the party it acts against, which target policies use.
type Party struct {
	Name    string  `json:"name"`
	Members []Entry `json:"members"`
	Target  string  `json:"target,omitempty"`
}

// Member is a character's state inside a conflict: its sheet's stats (a
// copy, which consequences change) and the dice it rolls.
type Member struct {
	Name   string `json:"name"`
	Player string `json:"player"`
	// Stats holds the character's stats in Rules.Stats order.
	Stats [MaxStats]Stat `json:"stats"`
	// InjuryStats marks, by Rules.Stats position, the stats exhaustion or
	// injury may take from (those of Rules.InjuryEndeavors).
	InjuryStats [MaxStats]bool `json:"injury_stats"`
	Endeavor    string         `json:"endeavor"`
	// Specialization is the one declared, if any; Cancelled when an
	// opponent has the specialization it is vulnerable to.
	Specialization *Specialization `json:"specialization,omitempty"`
	Cancelled      bool            `json:"cancelled,omitempty"`
	// Dice is what the member rolls: the endeavor's stat, plus the
	// specialization's stat unless cancelled.
	Dice []dice.Die `json:"dice"`
	// Out: the endeavor's stat was empty, so the character cannot roll.
	Out bool `json:"out,omitempty"`
}

// Side is one side's state in a conflict.
type Side struct {
	Name    string   `json:"name"`
	Members []Member `json:"members"`
	// Target is the side this one acts against (-1: any).
	Target int    `json:"target"`
	Status Status `json:"status"`
	// Dice is every member's dice together, and Of the member who rolls
	// each; TotalSides their sides (the owe list compares these).
	Dice       []dice.Die `json:"dice"`
	Of         []int      `json:"of"`
	TotalSides int        `json:"total_sides"`
	// Faces and Bonus are the roll showing: the last cast or answer, and
	// the advantage dice added to its high die. Speaker rolled the high die.
	Faces   []int `json:"faces"`
	Bonus   int   `json:"bonus"`
	Speaker int   `json:"speaker"`
	// Advantage: the side rolls an advantage die this round. Next: it has
	// won one for the next round.
	Advantage bool `json:"advantage"`
	Next      bool `json:"next"`
	// Turned: the side has challenged or answered this round. Crossed: it
	// has crossed a name off in the current comparison.
	Turned  bool `json:"turned"`
	Crossed bool `json:"crossed"`

	// key packs Faces and Bonus for fast comparison (see pack); 0 when
	// not yet computed, noKey when the roll is too big to pack.
	key uint64
	// two is set up with the conflict (see prep) for a side that rolls
	// exactly two dice, the common case, which roll takes on its fast path.
	two pair
}

// pair is a two-dice side's roll, worked out once: the second size, the
// product of the two, the reciprocal of each (see div) and the member who
// rolls each die. n is 0 when the side does not roll exactly two dice of
// at most maxPairDie sides.
type pair struct {
	n, b, recN, recB uint64
	of               [2]int
}

// maxPairDie bounds the dice of the two-dice path, so faces fit the packed
// key's six bits and the products stay small.
const maxPairDie = 63

// faces returns the two faces a number v below n stands for: its digits
// in the mixed radix of the two sizes.
func (t *pair) faces(v uint64) (int, int) {
	q := div(v, t.recB)
	return int(q) + 1, int(v-q*t.b) + 1
}

// reciprocal returns ceil(2^64 / d) for d >= 2, for div.
func reciprocal(d uint64) uint64 { return ^uint64(0)/d + 1 }

// div returns v / d given rec = reciprocal(d), exactly whenever v * (rec *
// d - 2^64) < 2^64, which holds for every v below 2^40 and d below 2^24:
// far beyond any two dice, or two sides' pairs, here.
func div(v, rec uint64) uint64 {
	q, _ := bits.Mul64(v, rec)
	return q
}

// prep sets up the fast path of a side's roll from its dice. The dice are
// fixed when the conflict is made (consequences change only the sheets'
// stats), so this runs when a conflict is made or restored.
func (s *Side) prep() {
	s.two = pair{}
	if len(s.Dice) != 2 || len(s.Of) != 2 {
		return
	}
	a, b := s.Dice[0], s.Dice[1]
	if a < 2 || b < 2 || a > maxPairDie || b > maxPairDie {
		return
	}
	n := uint64(a) * uint64(b)
	s.two = pair{n: n, b: uint64(b), recN: reciprocal(n), recB: reciprocal(uint64(b)), of: [2]int{s.Of[0], s.Of[1]}}
}

const noKey = ^uint64(0)

// pack returns the showing roll as one number whose order is the rules'
// reading: the high die plus advantage in the top 16 bits, then up to
// eight lower dice, 6 bits each, high to low, a missing die 0. Rolls of
// more than nine dice, or faces over 63, do not pack.
func (s *Side) pack() uint64 {
	n := len(s.Faces)
	if n == 0 || n > 9 || s.Bonus < 0 || s.Bonus > 1<<14 {
		return noKey
	}
	var f [9]int
	for i, v := range s.Faces {
		if v < 1 || v > 63 {
			return noKey
		}
		j := i
		for j > 0 && f[j-1] < v {
			f[j] = f[j-1]
			j--
		}
		f[j] = v
	}
	k := uint64(f[0]+s.Bonus) << 48
	for i := 1; i < n; i++ {
		k |= uint64(f[i]) << uint(48-6*i)
	}
	return k
}

// Read returns the side's read roll: its high die plus advantage.
func (s *Side) Read() int { return dice.Highest(s.Faces) + s.Bonus }

// Consequence records how a side went out. The dice an injury took show in
// the members' Stats and in EvLoss events.
type Consequence struct {
	Side   int    `json:"side"`
	By     int    `json:"by"` // the winner, -1 for a drop
	Status Status `json:"status"`
	Note   string `json:"note,omitempty"`
	// Settlement is the negotiated outcome, for StatusSettled.
	Settlement *Settlement `json:"settlement,omitempty"`
}

// Conflict is the whole state of one conflict: the rules, the sides, the
// owe list, and where play stands. Drive it step by step (Roll, CrossOff,
// Resolve, Challenge, Drop, Interfere, Stance, Injure, Settle), or with
// policies through Step and Run. A step that returns an error leaves the
// state unchanged. It saves and restores as JSON.
type Conflict struct {
	Rules Rules  `json:"rules"`
	Sides []Side `json:"sides"`
	Owe   []Debt `json:"owe"`

	Phase     Phase `json:"phase"`
	Round     int   `json:"round"`
	Exchanges int   `json:"exchanges"`
	Recasts   int   `json:"recasts"`
	// Challenger and Answerer are the sides in the current exchange (-1
	// when none).
	Challenger int `json:"challenger"`
	Answerer   int `json:"answerer"`
	// Met marks pairs of sides that have already had an exchange (bit
	// i*MaxSides+j): the owe list looks only at a pair's first.
	Met uint64 `json:"met"`
	// First: the current exchange is its pair's first.
	First bool `json:"first"`
	// CrossOffs and Owed count the names crossed off and put on the owe
	// list in this conflict; SizesLost the die sizes consequences took.
	CrossOffs int `json:"cross_offs"`
	Owed      int `json:"owed"`
	SizesLost int `json:"sizes_lost"`
	// Winner is the last side in when the conflict is over (-1: none, as
	// in a stalemate). Stalemate: Rules.MaxExchanges ran out.
	Winner       int           `json:"winner"`
	Stalemate    bool          `json:"stalemate,omitempty"`
	Consequences []Consequence `json:"consequences"`

	// Trace, when set, receives every event. Nil costs nothing.
	Trace func(Event) `json:"-"`

	losses [MaxMembers]Loss // scratch for Step
}

// ErrPhase is wrapped by errors for a step taken in the wrong phase.
var ErrPhase = errors.New("challenge: step not allowed now")

// NewConflict sets up a conflict between parties. Every character must be
// valid under r and every endeavor known to its character; a character
// whose stat for the endeavor is empty is out ("a character who must roll
// an empty stat"), and at least two sides must be able to roll. owe is the
// owe list as it stands (copied).
func NewConflict(r Rules, parties []Party, owe []Debt) (*Conflict, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	if len(parties) < 2 || len(parties) > MaxSides {
		return nil, fmt.Errorf("challenge: %d sides: a conflict needs 2..%d", len(parties), MaxSides)
	}
	c := &Conflict{Rules: r, Challenger: -1, Answerer: -1, Winner: -1, Round: 1,
		Owe: append([]Debt{}, owe...), Consequences: []Consequence{}}
	// Every specialization name held by each side, for vulnerability.
	held := make([]map[string]bool, len(parties))
	for i, p := range parties {
		held[i] = map[string]bool{}
		for _, e := range p.Members {
			for _, sp := range e.Character.Specializations {
				held[i][sp.Name] = true
			}
		}
	}
	in := 0
	for i, p := range parties {
		if p.Name == "" {
			return nil, fmt.Errorf("challenge: side %d needs a name", i+1)
		}
		for _, q := range parties[:i] {
			if q.Name == p.Name {
				return nil, fmt.Errorf("challenge: two sides are named %q", p.Name)
			}
		}
		if len(p.Members) < 1 || len(p.Members) > MaxMembers {
			return nil, fmt.Errorf("challenge: side %s has %d characters: allowed 1..%d", p.Name, len(p.Members), MaxMembers)
		}
		s := Side{Name: p.Name, Target: -1}
		if p.Target != "" {
			s.Target = -2
			for j, q := range parties {
				if q.Name == p.Target && j != i {
					s.Target = j
				}
			}
			if s.Target == -2 {
				return nil, fmt.Errorf("challenge: side %s targets %q, which is not another side", p.Name, p.Target)
			}
		}
		for _, e := range p.Members {
			m, err := newMember(r, e, held, i)
			if err != nil {
				return nil, fmt.Errorf("challenge: side %s: %w", p.Name, err)
			}
			mi := len(s.Members)
			s.Members = append(s.Members, m)
			for _, d := range m.Dice {
				s.Dice = append(s.Dice, d)
				s.Of = append(s.Of, mi)
				s.TotalSides += int(d)
			}
		}
		if len(s.Dice) == 0 {
			s.Status = StatusOut
		} else {
			in++
		}
		s.Faces = make([]int, 0, len(s.Dice))
		s.prep()
		c.Sides = append(c.Sides, s)
	}
	if in < 2 {
		return nil, fmt.Errorf("challenge: only %d side can roll: a character whose stat for the endeavor is empty is out", in)
	}
	return c, nil
}

func newMember(r Rules, e Entry, held []map[string]bool, side int) (Member, error) {
	ch := &e.Character
	if err := ch.Validate(r); err != nil {
		return Member{}, err
	}
	stat, err := ch.EndeavorStat(e.Endeavor)
	if err != nil {
		return Member{}, err
	}
	m := Member{Name: ch.Name, Player: ch.owner(), Endeavor: e.Endeavor}
	for i, name := range r.Stats {
		m.Stats[i] = ch.Stats[name]
	}
	for _, ie := range r.InjuryEndeavors {
		if st, ok := ch.Endeavors[ie]; ok {
			m.InjuryStats[r.statIndex(st)] = true
		}
	}
	base := ch.Stats[stat]
	if base.Len() == 0 {
		m.Out = true
		m.Dice = []dice.Die{}
		return m, nil
	}
	m.Dice = base.Dice()
	if e.Specialization != "" {
		sp, err := ch.Specialization(e.Specialization)
		if err != nil {
			return Member{}, err
		}
		if sp.Endeavor != e.Endeavor {
			return Member{}, fmt.Errorf("%s: specialization %q applies to %q, not %q", ch.Name, sp.Name, sp.Endeavor, e.Endeavor)
		}
		m.Specialization = &sp
		for j, h := range held {
			if j != side && sp.VulnerableTo != "" && h[sp.VulnerableTo] {
				m.Cancelled = true
			}
		}
		if !m.Cancelled {
			m.Dice = append(m.Dice, ch.Stats[sp.Stat].Dice()...)
		}
	}
	return m, nil
}

// note emits an event that names only its kind and sides. It is kept out
// of line so the steps that call it stay small.
//
//go:noinline
func (c *Conflict) note(k EventKind, side, other int) {
	c.emit(Event{Kind: k, Side: side, Other: other})
}

func (c *Conflict) emit(e Event) {
	e.Round, e.Exchange = c.Round, c.Exchanges
	c.Trace(e)
}

func (c *Conflict) phaseErr(step string) error {
	return fmt.Errorf("%w: %s in phase %v", ErrPhase, step, c.Phase)
}

// In reports whether side i is still in the conflict.
func (c *Conflict) In(i int) bool { return i >= 0 && i < len(c.Sides) && c.Sides[i].Status == StatusIn }

// Done reports whether the conflict is over.
func (c *Conflict) Done() bool { return c.Phase == PhaseDone }

func (c *Conflict) checkSide(i int, what string) error {
	if i < 0 || i >= len(c.Sides) {
		return fmt.Errorf("challenge: %s: side %d does not exist: sides are 0..%d", what, i, len(c.Sides)-1)
	}
	if s := c.Sides[i].Status; s != StatusIn {
		return fmt.Errorf("challenge: %s: side %s is out of the conflict (%v)", what, c.Sides[i].Name, s)
	}
	return nil
}

// roll rolls side i's dice and its advantage die into its showing roll,
// and reads it: the speaker (the member whose die shows the highest face,
// the first such) and the packed key.
//
// Two dice (the common case) come from one uniform number below the
// product of their sizes, whose two mixed-radix digits are the faces: one
// draw, every pair exactly as likely. A scripted roller with faces left
// takes the general path, which rolls one die at a time, so a script
// still gives one face per die (an exhausted script shows 1s either way).
func (c *Conflict) roll(r *dice.Roller, s *Side, i int) {
	n := s.two.n
	if n == 0 || r.Remaining() != 0 {
		c.rollMany(r, s, i)
		return
	}
	c.show(r, s, i, uint64(r.IntN(int(n))))
}

// show sets side i's showing roll from v, a uniform number below its
// pair's n, and rolls its advantage die.
func (c *Conflict) show(r *dice.Roller, s *Side, i int, v uint64) {
	t := &s.two
	x, y := t.faces(v)
	f := s.Faces
	if len(f) != 2 {
		f = append(f[:0], 0, 0)
		s.Faces = f
	}
	f = f[:2]
	f[0], f[1] = x, y
	s.Speaker = t.of[b2i(y > x)&1]
	s.key = uint64(max(x, y))<<48 | uint64(min(x, y))<<42
	s.Bonus = 0
	s.Crossed = false
	if s.Advantage {
		c.advantage(r, s)
	}
	if c.Trace != nil {
		c.traceRoll(s, i)
	}
}

// traceRoll emits side i's roll.
func (c *Conflict) traceRoll(s *Side, i int) {
	c.emit(Event{Kind: EvRoll, Side: i, Other: -1, Member: s.Speaker, Faces: s.Faces, Bonus: s.Bonus, Value: dice.Highest(s.Faces) + s.Bonus})
}

// advantage rolls a side's advantage die onto its two-die roll.
func (c *Conflict) advantage(r *dice.Roller, s *Side) {
	v := r.Roll(int(c.Rules.AdvantageDie))
	s.Bonus = v
	if uint(v) <= 1<<14 {
		s.key += uint64(v) << 48
	} else {
		s.key = noKey
	}
}

// rollMany is roll for any number of dice, and for scripted rolls.
func (c *Conflict) rollMany(r *dice.Roller, s *Side, i int) {
	s.Faces = r.RollDice(s.Dice, s.Faces[:0])
	s.Bonus = 0
	if s.Advantage {
		s.Bonus = r.Roll(int(c.Rules.AdvantageDie))
	}
	s.Crossed = false
	c.readMany(s, i)
}

// readMany is roll's reading of any number of dice: one pass finds the
// speaker and sorts the faces, high first, for the packed key.
func (c *Conflict) readMany(s *Side, i int) {
	n := len(s.Faces)
	hi, at := 0, 0
	var f [9]int
	for k, v := range s.Faces {
		if v > hi {
			hi, at = v, k
		}
		if k < len(f) {
			j := k
			for j > 0 && f[j-1] < v {
				f[j] = f[j-1]
				j--
			}
			f[j] = v
		}
	}
	if at < len(s.Of) {
		s.Speaker = s.Of[at]
	}
	if n == 0 || n > len(f) || hi > 63 || uint(s.Bonus) > 1<<14 {
		s.key = noKey
	} else {
		k := uint64(f[0]+s.Bonus) << 48
		for j := 1; j < n; j++ {
			k |= uint64(f[j]) << uint(48-6*j)
		}
		s.key = k
	}
	if c.Trace != nil {
		c.traceRoll(s, i)
	}
}

// read is Read, from the packed key when there is one.
func (s *Side) read() int {
	if s.key != 0 && s.key != noKey {
		return int(s.key >> 48)
	}
	return s.Read()
}

// Roll makes the roll the phase calls for: in PhaseCast every side still in
// casts; in PhaseAnswer the answerer re-rolls. Each side with an advantage
// this round rolls its advantage die with its dice.
func (c *Conflict) Roll(r *dice.Roller) error {
	if c.Phase != PhaseAnswer {
		return c.rollOther(r)
	}
	if c.Exchanges >= c.Rules.MaxExchanges {
		c.Stalemate = true
		c.finish()
		return nil
	}
	c.Exchanges++
	sides, an := c.Sides, c.Answerer
	// roll and show, written out for two calls less on the commonest
	// roll (TestFastRollsReadAsScripted holds the copies to one reading).
	if s := &sides[an]; s.two.n != 0 && r.Remaining() == 0 {
		v := uint64(r.IntN(int(s.two.n)))
		t := &s.two
		x, y := t.faces(v)
		f := s.Faces
		if len(f) != 2 {
			f = append(f[:0], 0, 0)
			s.Faces = f
		}
		f = f[:2]
		f[0], f[1] = x, y
		s.Speaker = t.of[b2i(y > x)&1]
		s.key = uint64(max(x, y))<<48 | uint64(min(x, y))<<42
		s.Bonus = 0
		s.Crossed = false
		if s.Advantage {
			c.advantage(r, s)
		}
		if c.Trace != nil {
			c.traceRoll(s, an)
		}
	} else {
		c.rollMany(r, s, an)
	}
	// A new comparison: only its two sides may cross a name off, and
	// roll has cleared the answerer's mark.
	sides[c.Challenger].Crossed = false
	c.Phase = PhaseAnswered
	return nil
}

// rollOther is Roll outside PhaseAnswer.
func (c *Conflict) rollOther(r *dice.Roller) error {
	if c.Phase != PhaseCast {
		return c.phaseErr("Roll")
	}
	c.cast(r)
	return nil
}

// cast is Roll in PhaseCast.
func (c *Conflict) cast(r *dice.Roller) {
	sides := c.Sides
	if len(sides) == 2 && sides[0].Status == StatusIn && sides[1].Status == StatusIn {
		s0, s1 := &sides[0], &sides[1]
		if n0, n1 := s0.two.n, s1.two.n; n0 != 0 && n1 != 0 && r.Remaining() == 0 {
			// Both pairs from one number below n0*n1: its two digits in
			// the mixed radix of n0 and n1.
			v := uint64(r.IntN(int(n0 * n1)))
			q := div(v, s0.two.recN)
			c.show(r, s0, 0, v-q*n0)
			c.show(r, s1, 1, q)
		} else {
			c.roll(r, s0, 0)
			c.roll(r, s1, 1)
		}
	} else {
		for i := range sides {
			if s := &sides[i]; s.Status == StatusIn {
				c.roll(r, s, i)
			}
		}
	}
	c.Phase = PhaseCastRolled
}

// Crossable reports whether side i may cross owe-list entry k off now: a
// comparison is pending, the side has not crossed one off in it, and the
// entry is a character of one of the side's players.
func (c *Conflict) Crossable(i, k int) bool { return c.crossBar(i, k) == barNone }

// Reasons a cross-off is barred, checked without allocating.
const (
	barNone = iota
	barPhase
	barSide
	barNotComparing
	barCrossed
	barEntry
	barPlayer
)

func (c *Conflict) crossBar(i, k int) int {
	switch {
	case c.Phase != PhaseCastRolled && c.Phase != PhaseAnswered:
		return barPhase
	case !c.In(i):
		return barSide
	case c.Phase == PhaseAnswered && i != c.Challenger && i != c.Answerer:
		return barNotComparing
	case c.Sides[i].Crossed:
		return barCrossed
	case k < 0 || k >= len(c.Owe):
		return barEntry
	}
	for m := range c.Sides[i].Members {
		if c.Sides[i].Members[m].Player == c.Owe[k].Player {
			return barNone
		}
	}
	return barPlayer
}

func (c *Conflict) checkCross(i, k int) error {
	switch c.crossBar(i, k) {
	case barNone:
		return nil
	case barPhase:
		return c.phaseErr("CrossOff")
	case barSide:
		return c.checkSide(i, "CrossOff")
	case barNotComparing:
		return fmt.Errorf("challenge: CrossOff: side %s is not comparing dice now", c.Sides[i].Name)
	case barCrossed:
		return fmt.Errorf("challenge: CrossOff: side %s already crossed a name off in this comparison (one per comparison)", c.Sides[i].Name)
	case barEntry:
		return fmt.Errorf("challenge: CrossOff: owe entry %d does not exist: the list has %d", k, len(c.Owe))
	}
	return fmt.Errorf("challenge: CrossOff: %s on the owe list belongs to player %q, not to side %s", c.Owe[k].Name, c.Owe[k].Player, c.Sides[i].Name)
}

// CrossOff crosses owe-list entry k off for side i and rolls an advantage
// die onto the side's showing roll at once ("What do we do with the we owe
// list?"). At most one per side per comparison.
func (c *Conflict) CrossOff(r *dice.Roller, i, k int) error {
	if err := c.checkCross(i, k); err != nil {
		return err
	}
	name := c.Owe[k].Name
	c.Owe = append(c.Owe[:k], c.Owe[k+1:]...)
	s := &c.Sides[i]
	v := r.Roll(int(c.Rules.AdvantageDie))
	s.Bonus += v
	s.key = s.pack()
	s.Crossed = true
	c.CrossOffs++
	if c.Trace != nil {
		c.emit(Event{Kind: EvCrossOff, Side: i, Other: -1, Name: name, Value: v})
	}
	return nil
}

// Resolve reads the comparison the last Roll set up. After a cast the
// highest roll challenges (a true tie at the top recasts, per
// Rules.RecastTies). After an answer: a higher answer blocks and the roles
// swap; a true tie blocks and ends the exchange; half or less is an
// outright win (PhaseConsequence); otherwise the answerer must choose
// (PhaseStance).
func (c *Conflict) Resolve() error {
	if c.Phase != PhaseAnswered {
		return c.resolveOther()
	}
	// Compare the answer with the challenger's standing roll.
	sides, ch, an := c.Sides, c.Challenger, c.Answerer
	sc, sa := &sides[ch], &sides[an]
	ka, kc := sa.key, sc.key
	if max(ka-1, kc-1) >= noKey-1 {
		// Not both packed: compare the long way, and read the rolls.
		c.verdict(cmpSlow(sa, sc), sa.read(), sc.read())
		return nil
	}
	if ka > kc {
		c.block()
		return nil
	}
	// The reads are the packed keys' top bits.
	c.verdict(b2i(ka == kc)-1, int(ka>>48), int(kc>>48))
	return nil
}

// resolveOther is Resolve outside PhaseAnswered.
func (c *Conflict) resolveOther() error {
	if c.Phase != PhaseCastRolled {
		return c.phaseErr("Resolve")
	}
	c.resolveCast()
	return nil
}

// block: the answer beat the challenge; the answerer blocks and the roles
// swap.
func (c *Conflict) block() {
	ch, an := c.Challenger, c.Answerer
	if c.Trace != nil {
		c.note(EvBlock, an, ch)
	}
	c.Challenger, c.Answerer, c.Phase = an, ch, PhaseAnswer
}

// verdict settles an answer that did not beat the challenge (d is 0 for
// a true tie, -1 for lower; 1 blocks) from the two reads.
func (c *Conflict) verdict(d, answer, challenge int) {
	ch, an := c.Challenger, c.Answerer
	switch {
	case d > 0:
		c.block()
	case d == 0:
		c.owe(false)
		if c.Trace != nil {
			c.note(EvTie, an, ch)
		}
		c.endExchange()
	case c.Rules.DoubleFactor*answer <= challenge:
		c.owe(true)
		if c.Trace != nil {
			c.note(EvDouble, an, ch)
		}
		c.Phase = PhaseConsequence
	default:
		c.owe(false)
		c.Phase = PhaseStance
	}
}

// resolveCast is Resolve in PhaseCastRolled.
func (c *Conflict) resolveCast() {
	var a, b int
	if sides := c.Sides; len(sides) == 2 && sides[0].Status == StatusIn && sides[1].Status == StatusIn {
		// Two sides, both in: a new round, so the higher roll
		// challenges (the first side on a true tie, if not recast).
		a, b = 0, 1
		var d int
		if k1, k0 := sides[1].key, sides[0].key; max(k1-1, k0-1) < noKey-1 {
			d = cmpKey(k1, k0)
		} else {
			d = cmpSlow(&sides[1], &sides[0])
		}
		if d > 0 {
			a, b = 1, 0
		}
		if d == 0 && c.Rules.RecastTies && c.Recasts < c.Rules.MaxRecasts {
			c.Recasts++
			if c.Trace != nil {
				c.note(EvRecast, a, b)
			}
			c.Phase = PhaseCast
			return
		}
		c.Challenger, c.Answerer = a, -1
		c.Phase = PhaseChallenge
		return
	}
	a, b = c.topTwo()
	if b >= 0 && c.Rules.RecastTies && c.Recasts < c.Rules.MaxRecasts && c.cmp(a, b) == 0 {
		c.Recasts++
		if c.Trace != nil {
			c.note(EvRecast, a, b)
		}
		c.Phase = PhaseCast
		return
	}
	c.nextTurn()
}

func (c *Conflict) cmp(i, j int) int { return c.cmpSides(&c.Sides[i], &c.Sides[j]) }

// cmpSides compares two sides' showing rolls: 1, 0 or -1.
func (c *Conflict) cmpSides(a, b *Side) int {
	// Both packed (neither 0, not computed, nor noKey): compare numbers.
	if ka, kb := a.key, b.key; max(ka-1, kb-1) < noKey-1 {
		return cmpKey(ka, kb)
	}
	return cmpSlow(a, b)
}

// cmpKey compares two packed keys: 1, 0 or -1, without branches.
func cmpKey(a, b uint64) int { return b2i(a > b) - b2i(a < b) }

// cmpSlow packs keys not yet computed and compares rolls too big to pack
// with dice.CompareBonus.
func cmpSlow(a, b *Side) int {
	if a.key == 0 {
		a.key = a.pack()
	}
	if b.key == 0 {
		b.key = b.pack()
	}
	if a.key == noKey || b.key == noKey {
		return dice.CompareBonus(a.Faces, a.Bonus, b.Faces, b.Bonus)
	}
	return cmpKey(a.key, b.key)
}

// topTwo returns the two highest showing rolls among sides in (earlier
// side first on true ties); b is -1 when only one side is in.
func (c *Conflict) topTwo() (a, b int) {
	a, b = -1, -1
	for i := range c.Sides {
		if c.Sides[i].Status != StatusIn {
			continue
		}
		switch {
		case a < 0 || c.cmp(i, a) > 0:
			a, b = i, a
		case b < 0 || c.cmp(i, b) > 0:
			b = i
		}
	}
	return a, b
}

// nextTurn finds the next challenger: the highest showing roll among sides
// in that have not yet challenged or answered this round. With none left,
// a new round begins.
func (c *Conflict) nextTurn() {
	c.Challenger, c.Answerer = -1, -1
	best := -1
	for i := range c.Sides {
		s := &c.Sides[i]
		if s.Status != StatusIn || s.Turned {
			continue
		}
		if best < 0 || c.cmp(i, best) > 0 {
			best = i
		}
	}
	if best < 0 {
		c.newRound()
		return
	}
	c.Challenger = best
	c.Phase = PhaseChallenge
}

func (c *Conflict) newRound() {
	c.Round++
	c.Recasts = 0
	sides := c.Sides
	for i := range sides {
		s := &sides[i]
		s.Advantage, s.Next, s.Turned = s.Next, false, false
	}
	if c.Trace != nil {
		c.emit(Event{Kind: EvRound, Side: -1, Other: -1})
	}
	c.Phase = PhaseCast
}

// canAnswer returns an error unless side j may be named as answerer by
// the current challenger.
func (c *Conflict) canAnswer(j int) error {
	if err := c.checkSide(j, "Challenge"); err != nil {
		return err
	}
	if j == c.Challenger {
		return fmt.Errorf("challenge: Challenge: side %s cannot answer its own challenge", c.Sides[j].Name)
	}
	return nil
}

// Interferes reports whether side k may interfere with the current
// challenge against the named answerer: it is in, has not yet challenged
// or answered this round, and its showing roll is higher than the
// answerer's.
func (c *Conflict) Interferes(k int) bool {
	if c.Phase != PhaseInterfere && c.Phase != PhaseChallenge {
		return false
	}
	return c.mayInterfere(k, c.Answerer)
}

func (c *Conflict) mayInterfere(k, named int) bool {
	if !c.In(k) || k == c.Challenger || k == named || c.Sides[k].Turned || named < 0 {
		return false
	}
	return c.cmp(k, named) > 0
}

// Challenge has the current challenger name side j as its answerer. If
// another side's showing roll beats j's, the conflict waits in
// PhaseInterfere; otherwise j answers.
func (c *Conflict) Challenge(j int) error {
	if c.Phase != PhaseChallenge {
		return c.phaseErr("Challenge")
	}
	if uint(j) >= uint(len(c.Sides)) || c.Sides[j].Status != StatusIn || j == c.Challenger {
		return c.canAnswer(j) // says which
	}
	c.challenge(j)
	return nil
}

// challenge is Challenge once j is known to be a side in other than the
// challenger.
func (c *Conflict) challenge(j int) {
	c.Answerer = j
	if c.Trace != nil {
		c.traceChallenge()
	}
	c.Phase = PhaseAnswer
	// With two sides no one else can interfere.
	if len(c.Sides) > 2 {
		c.interference()
	}
	c.startExchange()
}

func (c *Conflict) traceChallenge() {
	c.emit(Event{Kind: EvChallenge, Side: c.Challenger, Other: c.Answerer, Member: c.Sides[c.Challenger].Speaker})
}

// interference moves to PhaseInterfere when a side may interfere with
// the challenge just made.
func (c *Conflict) interference() {
	for k := range c.Sides {
		if c.mayInterfere(k, c.Answerer) {
			c.Phase = PhaseInterfere
			return
		}
	}
}

func (c *Conflict) startExchange() {
	c.First = c.Met&pairBit(c.Challenger, c.Answerer) == 0
}

func pairBit(i, j int) uint64 {
	// Sides are below MaxSides (8), so the bit is below 64: the mask
	// changes nothing but spares the shift its overflow check.
	const _ uint = 64 - MaxSides*MaxSides
	return 1 << (uint(min(i, j)*MaxSides+max(i, j)) & 63)
}

// Interfere settles interference with the named answerer: k >= 0 is the
// side that answers instead; -1 lets the named answerer answer.
func (c *Conflict) Interfere(k int) error {
	if c.Phase != PhaseInterfere {
		return c.phaseErr("Interfere")
	}
	if k >= 0 {
		if !c.mayInterfere(k, c.Answerer) {
			return fmt.Errorf("challenge: Interfere: side %d may not interfere: it must be in, not yet have challenged or answered this round, and show a roll higher than the answerer's", k)
		}
		if c.Trace != nil {
			c.note(EvInterfere, k, c.Challenger)
		}
		c.Answerer = k
		c.startExchange()
	} else if k != -1 {
		return fmt.Errorf("challenge: Interfere: side %d: give a side index or -1 for none", k)
	}
	c.Phase = PhaseAnswer
	return nil
}

// Drop takes the current challenger out of the conflict instead of
// challenging ("you can drop out of the conflict yourself").
func (c *Conflict) Drop() error {
	if c.Phase != PhaseChallenge {
		return c.phaseErr("Drop")
	}
	i := c.Challenger
	c.Sides[i].Status = StatusDropped
	c.Consequences = append(c.Consequences, Consequence{Side: i, By: -1, Status: StatusDropped})
	if c.Trace != nil {
		c.note(EvDrop, i, -1)
	}
	c.afterOut()
	return nil
}

// Stance is the answerer's choice when its answer is lower than the
// challenge but more than half: hang in (the challenger carries an
// advantage die into the next round) or give (out, no injury).
func (c *Conflict) Stance(hangIn bool) error {
	if c.Phase != PhaseStance {
		return c.phaseErr("Stance")
	}
	c.stance(hangIn)
	return nil
}

// stance is Stance in its phase.
func (c *Conflict) stance(hangIn bool) {
	ch, an := c.Challenger, c.Answerer
	if hangIn {
		sides := c.Sides
		sides[ch].Next = true
		if c.Trace != nil {
			c.note(EvHangIn, an, ch)
		}
		if len(sides) == 2 {
			// endExchange, shortened: both sides have had their turn,
			// and the new round clears the marks it would set.
			c.Challenger, c.Answerer = -1, -1
			c.newRound()
			return
		}
		c.endExchange()
		return
	}
	c.Sides[an].Status = StatusGave
	c.Consequences = append(c.Consequences, Consequence{Side: an, By: ch, Status: StatusGave})
	if c.Trace != nil {
		c.note(EvGive, an, ch)
	}
	c.afterExchangeOut()
}

// InjuryLimit returns how many sizes exhaustion or injury takes from stat
// position st of member m of the losing side: Rules.InjurySizes, or all
// the stat holds if less.
func (c *Conflict) InjuryLimit(loser, m, st int) int {
	return min(c.Rules.InjurySizes, c.Sides[loser].Members[m].Stats[st].Sizes())
}

// checkInjury validates a standard exhaustion-or-injury loss for member m
// of the losing side and returns the member's stat position (-1 for an out
// member) and the stat after the loss.
func (c *Conflict) checkInjury(loser, m int, l Loss) (int, Stat, error) {
	mem := &c.Sides[loser].Members[m]
	if mem.Out {
		if l.Total() != 0 {
			return 0, Stat{}, fmt.Errorf("challenge: Injure: %s was out of the conflict and loses nothing", mem.Name)
		}
		return -1, Stat{}, nil
	}
	st := c.Rules.statIndex(l.Stat)
	if st < 0 || !mem.InjuryStats[st] {
		var allowed []string
		for k, ok := range mem.InjuryStats {
			if ok {
				allowed = append(allowed, c.Rules.Stats[k])
			}
		}
		return 0, Stat{}, fmt.Errorf("challenge: Injure: %s cannot lose from %q: exhaustion or injury takes from %v (the stats of %v)",
			mem.Name, l.Stat, allowed, c.Rules.InjuryEndeavors)
	}
	want := c.InjuryLimit(loser, m, st)
	if want == 0 {
		for k, ok := range mem.InjuryStats {
			if ok && mem.Stats[k].Sizes() > 0 {
				return 0, Stat{}, fmt.Errorf("challenge: Injure: %s's %s is empty; take from %s, which still has dice", mem.Name, l.Stat, c.Rules.Stats[k])
			}
		}
	}
	if got := l.Total(); got != want {
		return 0, Stat{}, fmt.Errorf("challenge: Injure: %s must lose %d sizes from %s (%v), not %d", mem.Name, want, l.Stat, mem.Stats[st], got)
	}
	after, err := l.apply(mem.Stats[st])
	if err != nil {
		return 0, Stat{}, fmt.Errorf("challenge: Injure: %s: %w", mem.Name, err)
	}
	return st, after, nil
}

// Injure applies the standard consequence of an outright win: each member
// of the losing side (all of them, helpers too: "I can exhaust or injure
// you both") loses losses[m], Rules.InjurySizes sizes from one of its
// injury stats, as the winner chooses.
func (c *Conflict) Injure(losses []Loss) error {
	if c.Phase != PhaseConsequence {
		return c.phaseErr("Injure")
	}
	an := c.Answerer
	mem := c.Sides[an].Members
	if len(losses) != len(mem) {
		return fmt.Errorf("challenge: Injure: %d losses for side %s's %d characters: give one each", len(losses), c.Sides[an].Name, len(mem))
	}
	var sts [MaxMembers]int
	var after [MaxMembers]Stat
	for m, l := range losses {
		st, a, err := c.checkInjury(an, m, l)
		if err != nil {
			return err
		}
		sts[m], after[m] = st, a
	}
	for m, l := range losses {
		if sts[m] < 0 {
			continue
		}
		mem[m].Stats[sts[m]] = after[m]
		c.SizesLost += l.Total()
		if c.Trace != nil {
			l := l
			c.emit(Event{Kind: EvLoss, Side: an, Other: c.Challenger, Member: m, Loss: &l})
		}
	}
	c.Consequences = append(c.Consequences, Consequence{Side: an, By: c.Challenger, Status: StatusInjured})
	c.Sides[an].Status = StatusInjured
	c.afterExchangeOut()
	return nil
}

// injureDeepest is Injure with Deepest's choice for every member of the
// losing side, applied without Injure's checks: Deepest chooses a legal
// loss by construction (the sizes InjuryLimit asks, from an injury stat,
// no die losing more than it has). It returns false, changing nothing,
// when a member has no injury stat; Injure then says why.
func (c *Conflict) injureDeepest() bool {
	an := c.Answerer
	mem := c.Sides[an].Members
	if len(mem) == 1 && !mem[0].Out {
		// One character, the common case: choose and apply.
		k, sz := c.deepest(&mem[0])
		if k < 0 {
			return false
		}
		c.loseDeepest(an, 0, k, &sz)
		c.injured()
		return true
	}
	if len(mem) > MaxMembers {
		return false
	}
	var ks [MaxMembers]int
	var szs [MaxMembers][MaxDice]int
	for m := range mem {
		ks[m] = -1
		if mem[m].Out {
			continue
		}
		k, sz := c.deepest(&mem[m])
		if k < 0 {
			return false
		}
		ks[m], szs[m] = k, sz
	}
	for m := range mem {
		if k := ks[m]; k >= 0 {
			c.loseDeepest(an, m, k, &szs[m])
		}
	}
	c.injured()
	return true
}

// loseDeepest takes sz from stat k of member m of side an, as Deepest
// chose it.
func (c *Conflict) loseDeepest(an, m, k int, sz *[MaxDice]int) {
	st := &c.Sides[an].Members[m].Stats[k]
	gone, t := false, 0
	for i, n := range sz {
		if n == 0 {
			continue
		}
		st[i], _ = st[i].Step(-n)
		gone = gone || st[i] == dice.Gone
		t += n
	}
	if gone {
		st.compact()
	}
	c.SizesLost += t
	if c.Trace != nil {
		l := Loss{Stat: c.Rules.Stats[k], Sizes: *sz}
		c.emit(Event{Kind: EvLoss, Side: an, Other: c.Challenger, Member: m, Loss: &l})
	}
}

// injured puts the answerer out, exhausted or injured.
func (c *Conflict) injured() {
	an := c.Answerer
	c.Consequences = append(c.Consequences, Consequence{Side: an, By: c.Challenger, Status: StatusInjured})
	c.Sides[an].Status = StatusInjured
	c.afterExchangeOut()
}

// Change is one part of a negotiated outcome for member Member of the
// losing side: a loss of sizes from any stat, a move of sizes, or both
// (zero parts are skipped).
type Change struct {
	Member int  `json:"member"`
	Lose   Loss `json:"lose"`
	Move   Move `json:"move"`
}

// Remap has member Member of the losing side use Stat for an endeavor it
// already has from now on ("now you defend yourself with Grace instead").
type Remap struct {
	Member   int    `json:"member"`
	Endeavor string `json:"endeavor"`
	Stat     string `json:"stat"`
}

// Gain gives member Member of the losing side a specialization (the text's
// "demon-marked", which adds Guts to demonology).
type Gain struct {
	Member         int            `json:"member"`
	Specialization Specialization `json:"specialization"`
}

// Settlement is a negotiated outcome in place of exhaustion or injury
// ("Negotiating consequences"): what happens to the characters in words,
// with any die penalties or moved sizes as Changes, endeavors moved to
// other stats as Remaps and specializations as Gains. Sizes can be lost or
// moved, never added. Remaps and Gains reach the sheets when a Campaign
// finishes the conflict.
type Settlement struct {
	Note    string   `json:"note"`
	Changes []Change `json:"changes,omitempty"`
	Remaps  []Remap  `json:"remaps,omitempty"`
	Gains   []Gain   `json:"gains,omitempty"`
}

// Settle applies a negotiated outcome instead of Injure.
func (c *Conflict) Settle(s Settlement) error {
	if c.Phase != PhaseConsequence {
		return c.phaseErr("Settle")
	}
	an := c.Answerer
	mem := c.Sides[an].Members
	stats := make([][MaxStats]Stat, len(mem))
	for m := range mem {
		stats[m] = mem[m].Stats
	}
	for _, ch := range s.Changes {
		if ch.Member < 0 || ch.Member >= len(mem) {
			return fmt.Errorf("challenge: Settle: member %d: side %s has members 0..%d", ch.Member, c.Sides[an].Name, len(mem)-1)
		}
		tmp := Character{Name: mem[ch.Member].Name, Stats: map[string]Stat{}}
		for k, name := range c.Rules.Stats {
			tmp.Stats[name] = stats[ch.Member][k]
		}
		if ch.Lose.Total() != 0 || ch.Lose.Stat != "" {
			if err := tmp.Lose(c.Rules, ch.Lose); err != nil {
				return fmt.Errorf("challenge: Settle: %w", err)
			}
		}
		if ch.Move.Sizes != 0 {
			if err := tmp.Move(c.Rules, ch.Move); err != nil {
				return fmt.Errorf("challenge: Settle: %w", err)
			}
		}
		for k, name := range c.Rules.Stats {
			stats[ch.Member][k] = tmp.Stats[name]
		}
	}
	for _, rm := range s.Remaps {
		if rm.Member < 0 || rm.Member >= len(mem) {
			return fmt.Errorf("challenge: Settle: remap for member %d: side %s has members 0..%d", rm.Member, c.Sides[an].Name, len(mem)-1)
		}
		if rm.Endeavor == "" || c.Rules.statIndex(rm.Stat) < 0 {
			return fmt.Errorf("challenge: Settle: remap %q to %q: name an endeavor and a stat of %v", rm.Endeavor, rm.Stat, c.Rules.Stats)
		}
	}
	for _, g := range s.Gains {
		if g.Member < 0 || g.Member >= len(mem) {
			return fmt.Errorf("challenge: Settle: gain for member %d: side %s has members 0..%d", g.Member, c.Sides[an].Name, len(mem)-1)
		}
		if g.Specialization.Name == "" || g.Specialization.Endeavor == "" || c.Rules.statIndex(g.Specialization.Stat) < 0 {
			return fmt.Errorf("challenge: Settle: a gained specialization needs a name, an endeavor and a stat of %v", c.Rules.Stats)
		}
	}
	for m := range mem {
		mem[m].Stats = stats[m]
	}
	for _, ch := range s.Changes {
		c.SizesLost += ch.Lose.Total()
	}
	kept := s
	kept.Changes = append([]Change(nil), s.Changes...)
	kept.Remaps = append([]Remap(nil), s.Remaps...)
	kept.Gains = append([]Gain(nil), s.Gains...)
	c.Consequences = append(c.Consequences, Consequence{Side: an, By: c.Challenger, Status: StatusSettled, Note: s.Note, Settlement: &kept})
	c.Sides[an].Status = StatusSettled
	if c.Trace != nil {
		c.emit(Event{Kind: EvSettle, Side: an, Other: c.Challenger, Name: s.Note})
	}
	c.afterExchangeOut()
	return nil
}

// owe applies the owe-list rule at the end of a pair's first exchange: a
// side's characters go on the list when the other side's dice have
// strictly more sides in total and did not double it (our ruling: the text
// over its example).
func (c *Conflict) owe(doubled bool) {
	if c.First {
		c.oweFirst(doubled)
	}
}

func (c *Conflict) oweFirst(doubled bool) {
	ch, an := c.Challenger, c.Answerer
	c.Met |= pairBit(ch, an)
	c.First = false
	switch a, b := c.Sides[ch].TotalSides, c.Sides[an].TotalSides; {
	case b > a:
		c.addOwe(ch)
	case a > b && !doubled:
		c.addOwe(an)
	}
}

func (c *Conflict) addOwe(i int) {
	for m := range c.Sides[i].Members {
		mem := &c.Sides[i].Members[m]
		c.Owe = append(c.Owe, Debt{Name: mem.Name, Player: mem.Player})
		c.Owed++
		if c.Trace != nil {
			c.emit(Event{Kind: EvOwe, Side: i, Other: -1, Member: m, Name: mem.Name})
		}
	}
}

// endExchange closes an exchange both sides came through: both have had
// their turn this round.
func (c *Conflict) endExchange() {
	sides := c.Sides
	sides[c.Challenger].Turned = true
	sides[c.Answerer].Turned = true
	if len(sides) == 2 {
		// Both sides have had their turn: nextTurn would find no one.
		c.Challenger, c.Answerer = -1, -1
		c.newRound()
		return
	}
	c.nextTurn()
}

// afterExchangeOut closes an exchange that put the answerer out.
func (c *Conflict) afterExchangeOut() {
	c.Sides[c.Challenger].Turned = true
	c.afterOut()
}

// afterOut ends the conflict when one side or none is left, and otherwise
// moves to the next turn.
func (c *Conflict) afterOut() {
	if len(c.Sides) == 2 {
		// One side is out, so at most one is left.
		c.finish()
		return
	}
	n := 0
	for i := range c.Sides {
		if c.Sides[i].Status == StatusIn {
			n++
		}
	}
	if n <= 1 {
		c.finish()
		return
	}
	c.nextTurn()
}

func (c *Conflict) finish() {
	c.Winner = -1
	if !c.Stalemate {
		for i := range c.Sides {
			if c.Sides[i].Status == StatusIn {
				c.Winner = i
			}
		}
	}
	c.Phase = PhaseDone
	if c.Trace != nil {
		c.note(EvEnd, c.Winner, -1)
	}
}

// Challenges returns the formal challenges open to the current challenger:
// those of its members' declared specializations, and the opponent's
// challenges of the answerer's ("Someone uses a specialization"). They
// change no dice.
func (c *Conflict) Challenges() []string {
	var out []string
	if c.Challenger < 0 || c.Answerer < 0 {
		return out
	}
	for _, m := range c.Sides[c.Challenger].Members {
		if m.Specialization != nil && !m.Cancelled {
			out = append(out, m.Specialization.Challenges...)
		}
	}
	for _, m := range c.Sides[c.Answerer].Members {
		if m.Specialization != nil && !m.Cancelled {
			out = append(out, m.Specialization.OpponentChallenges...)
		}
	}
	return out
}

// UnmarshalJSON restores a saved conflict and checks that it is whole, so
// a damaged or hand-edited save is an error rather than a crash later.
func (c *Conflict) UnmarshalJSON(b []byte) error {
	type plain Conflict
	var v plain
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	if err := (*Conflict)(&v).check(); err != nil {
		return err
	}
	for i := range v.Sides {
		v.Sides[i].prep()
	}
	*c = Conflict(v)
	return nil
}

// check verifies the invariants the steps rely on.
func (c *Conflict) check() error {
	if err := c.Rules.Validate(); err != nil {
		return err
	}
	n := len(c.Sides)
	if n < 2 || n > MaxSides {
		return fmt.Errorf("challenge: saved conflict has %d sides: allowed 2..%d", n, MaxSides)
	}
	if int(c.Phase) >= len(phaseText) {
		return fmt.Errorf("challenge: saved conflict has phase %d", c.Phase)
	}
	for _, x := range []struct {
		name string
		v    int
	}{{"challenger", c.Challenger}, {"answerer", c.Answerer}, {"winner", c.Winner}} {
		if x.v < -1 || x.v >= n {
			return fmt.Errorf("challenge: saved conflict: %s %d: allowed -1..%d", x.name, x.v, n-1)
		}
	}
	switch c.Phase {
	case PhaseChallenge:
		if c.Challenger < 0 {
			return fmt.Errorf("challenge: saved conflict in phase %v has no challenger", c.Phase)
		}
	case PhaseInterfere, PhaseAnswer, PhaseAnswered, PhaseStance, PhaseConsequence:
		if c.Challenger < 0 || c.Answerer < 0 || c.Challenger == c.Answerer {
			return fmt.Errorf("challenge: saved conflict in phase %v needs a challenger and a different answerer", c.Phase)
		}
	}
	for i := range c.Sides {
		s := &c.Sides[i]
		if len(s.Members) < 1 || len(s.Members) > MaxMembers {
			return fmt.Errorf("challenge: saved side %s has %d characters: allowed 1..%d", s.Name, len(s.Members), MaxMembers)
		}
		if len(s.Dice) != len(s.Of) || len(s.Dice) > maxPool || (len(s.Dice) == 0 && s.Status == StatusIn) {
			return fmt.Errorf("challenge: saved side %s: %d dice with %d owners: need as many, 1..%d", s.Name, len(s.Dice), len(s.Of), maxPool)
		}
		for k, d := range s.Dice {
			if !d.Valid() || d > 1000 || s.Of[k] < 0 || s.Of[k] >= len(s.Members) {
				return fmt.Errorf("challenge: saved side %s: die %d (%v of member %d) is not valid", s.Name, k, d, s.Of[k])
			}
		}
		if len(s.Faces) > len(s.Dice) || (len(s.Faces) == 0 && c.Phase != PhaseCast && s.Status == StatusIn) {
			return fmt.Errorf("challenge: saved side %s shows %d faces for %d dice", s.Name, len(s.Faces), len(s.Dice))
		}
		for _, f := range s.Faces {
			if f < 1 || f > 1000 {
				return fmt.Errorf("challenge: saved side %s shows a face %d", s.Name, f)
			}
		}
		if s.Target < -1 || s.Target >= n || int(s.Status) >= len(statusText) || s.Speaker < 0 || s.Speaker >= len(s.Members) {
			return fmt.Errorf("challenge: saved side %s has a bad target, status or speaker", s.Name)
		}
	}
	return nil
}
