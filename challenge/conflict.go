package challenge

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/named"
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

var phaseNames = named.Enum[Phase]{"cast", "cast_rolled", "challenge", "interfere", "answer", "answered",
	"stance", "consequence", "done"}

// String returns the phase name.
func (p Phase) String() string { return phaseNames.String(p) }

// MarshalText writes the phase name.
func (p Phase) MarshalText() ([]byte, error) { return phaseNames.Marshal(p) }

// UnmarshalText reads a phase name.
func (p *Phase) UnmarshalText(b []byte) error { return phaseNames.Unmarshal(b, p) }

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

var statusNames = named.Enum[Status]{"in", "injured", "settled", "gave", "dropped", "out"}

// String returns the status name.
func (s Status) String() string { return statusNames.String(s) }

// MarshalText writes the status name.
func (s Status) MarshalText() ([]byte, error) { return statusNames.Marshal(s) }

// UnmarshalText reads a status name.
func (s *Status) UnmarshalText(b []byte) error { return statusNames.Unmarshal(b, s) }

// Debt is one entry on the owe list: a character's name and its player.
type Debt struct {
	Name   string `json:"name"`
	Player string `json:"player"`
	// Fresh: the name went on the list in this conflict (see
	// Rules.OweWaitsForNextConflict).
	Fresh bool `json:"fresh,omitempty"`
}

// fromEarlier copies an owe list carried in from earlier conflicts: no
// entry is fresh.
func fromEarlier(owe []Debt) []Debt {
	out := make([]Debt, len(owe))
	for i, d := range owe {
		out[i] = Debt{Name: d.Name, Player: d.Player}
	}
	return out
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
	// Endeavors lists, sorted, every endeavor on the character's sheet: a
	// settlement may remap or specialize only these.
	Endeavors []string `json:"endeavors"`
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
	// Advantage is how many advantage dice the side rolls this round;
	// Next, how many it has won for the next round.
	Advantage int `json:"advantage"`
	Next      int `json:"next"`
	// Turned: the side has challenged or answered this round. Crossed:
	// the names it has crossed off in the current comparison. Asked: Step
	// is done asking its policy whether to cross one off in it.
	Turned  bool `json:"turned"`
	Crossed int  `json:"crossed"`
	Asked   bool `json:"asked"`
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

// State is the whole state of one conflict: the rules, the sides, the
// owe list, and where play stands (phase, round, challenger and answerer).
// An Engine drives it step by step (Roll, CrossOff, Resolve, Challenge,
// Drop, Interfere, Stance, Injure, Settle), or with policies through Step
// and Play; a step that returns an error leaves it unchanged. It saves
// and restores as JSON, checked whole by Check as it is decoded.
type State struct {
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

	// sink is the Engine's Sink and view the policies' view of the
	// state, both lent for the length of one step (Engine.begin).
	sink func(Event)
	view View
	// losses holds the winner's choice of loss for each member of the
	// losing side while Step asks for them and Injure checks them.
	losses [MaxMembers]Loss
}

// ErrPhase is wrapped by errors for a step taken in the wrong phase.
var ErrPhase = errors.New("challenge: step not allowed now")

// NewState sets up a conflict between parties. Every character must be
// valid under r and every endeavor known to its character; a character
// whose stat for the endeavor is empty is out ("a character who must roll
// an empty stat"), and at least two sides must be able to roll. owe is the
// owe list as it stands (copied).
func NewState(r Rules, parties []Party, owe []Debt) (*State, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	if len(parties) < 2 || len(parties) > MaxSides {
		return nil, fmt.Errorf("challenge: %d sides: a conflict needs 2..%d", len(parties), MaxSides)
	}
	if len(owe) > maxOwe {
		return nil, fmt.Errorf("challenge: an owe list of %d entries: allowed up to %d", len(owe), maxOwe)
	}
	for k, d := range owe {
		if len(d.Name) > MaxName || len(d.Player) > MaxName {
			return nil, fmt.Errorf("challenge: owe entry %d: a name is at most %d bytes", k, MaxName)
		}
	}
	c := &State{Rules: r, Challenger: -1, Answerer: -1, Winner: -1, Round: 1,
		Owe: fromEarlier(owe), Consequences: []Consequence{}}
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
		if err := checkName(fmt.Sprintf("side %d's name", i+1), p.Name); err != nil {
			return nil, err
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
			m, err := newMember(r, e, held, i, s.Target)
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
		if len(s.Dice) == 0 && !r.EmptyStatReadsZero {
			s.Status = StatusOut
		} else {
			in++
		}
		s.Faces = make([]int, 0, len(s.Dice))
		c.Sides = append(c.Sides, s)
	}
	if in < 2 {
		return nil, fmt.Errorf("challenge: only %d side can roll: a character whose stat for the endeavor is empty is out", in)
	}
	return c, nil
}

func newMember(r Rules, e Entry, held []map[string]bool, side, target int) (Member, error) {
	ch := &e.Character
	if err := ch.Validate(r); err != nil {
		return Member{}, err
	}
	stat, err := ch.EndeavorStat(e.Endeavor)
	if err != nil {
		return Member{}, err
	}
	m := Member{Name: ch.Name, Player: ch.owner(), Endeavor: e.Endeavor}
	m.Endeavors = slices.Sorted(maps.Keys(ch.Endeavors))
	for i, name := range r.Stats {
		m.Stats[i] = ch.Stats[name]
	}
	for _, ie := range r.InjuryEndeavors {
		if st, ok := ch.Endeavors[ie]; ok {
			m.InjuryStats[r.statIndex(st)] = true
		}
	}
	base := ch.Stats[stat]
	if base.Len() == 0 && !r.EmptyStatReadsZero {
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
		// "Unless I'm using the specialization your specialization is
		// vulnerable to - which you can suppose I will be, if I've got it
		// on my character sheet": any other side, or only the target.
		for j, h := range held {
			opponent := j != side && (!r.VulnerableToTarget || j == target)
			if opponent && sp.VulnerableTo != "" && h[sp.VulnerableTo] {
				m.Cancelled = true
			}
		}
		if !m.Cancelled {
			m.Dice = append(m.Dice, ch.Stats[sp.Stat].Dice()...)
		}
	}
	return m, nil
}

// note emits an event that names only its kind and sides.
func (c *State) note(k EventKind, side, other int) {
	c.emit(Event{Kind: k, Side: side, Other: other})
}

// emit hands e to the sink with the round, the exchange and the names
// of its sides (and of the member it concerns) filled in, so that it
// narrates without the State.
func (c *State) emit(e Event) {
	e.Round, e.Exchange = c.Round, c.Exchanges
	e.Who, e.Whom = c.label(e.Side), c.label(e.Other)
	if (e.Kind == EvRoll || e.Kind == EvLoss) && e.Side >= 0 && e.Side < len(c.Sides) {
		if ms := c.Sides[e.Side].Members; e.Member >= 0 && e.Member < len(ms) && len(ms) > 1 {
			e.Name = ms[e.Member].Name
		}
	}
	c.sink(e)
}

// label names side i as a player would: its characters' names ("Althesa",
// "Althesa and Bran"); "" for no side.
func (c *State) label(i int) string {
	if i < 0 || i >= len(c.Sides) {
		return ""
	}
	ms := c.Sides[i].Members
	switch len(ms) {
	case 0:
		return c.Sides[i].Name
	case 1:
		return ms[0].Name
	}
	names := make([]string, len(ms))
	for m := range ms {
		names[m] = ms[m].Name
	}
	return andList(names)
}

// andList joins names as a sentence does: "A", "A and B", "A, B and C".
func andList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

func (c *State) phaseErr(step string) error {
	return fmt.Errorf("%w: %s in phase %v", ErrPhase, step, c.Phase)
}

// In reports whether side i is still in the conflict.
func (c *State) In(i int) bool { return i >= 0 && i < len(c.Sides) && c.Sides[i].Status == StatusIn }

// Done reports whether the conflict is over.
func (c *State) Done() bool { return c.Phase == PhaseDone }

func (c *State) checkSide(i int, what string) error {
	if i < 0 || i >= len(c.Sides) {
		return fmt.Errorf("challenge: %s: side %d does not exist: sides are 0..%d", what, i, len(c.Sides)-1)
	}
	if s := c.Sides[i].Status; s != StatusIn {
		return fmt.Errorf("challenge: %s: side %s is out of the conflict (%v)", what, c.Sides[i].Name, s)
	}
	return nil
}

// roll is the step behind Engine.Roll.
func (c *State) roll(r *dice.Roller) error {
	switch c.Phase {
	case PhaseCast:
		c.cast(r)
		return nil
	case PhaseAnswer:
		c.answer(r)
		return nil
	}
	return c.phaseErr("Roll")
}

// cast is Roll in PhaseCast: every side still in casts.
func (c *State) cast(r *dice.Roller) {
	for i := range c.Sides {
		if c.Sides[i].Status == StatusIn {
			c.rollSide(r, i)
		}
	}
	c.Phase = PhaseCastRolled
}

// answer is Roll in PhaseAnswer: the answerer re-rolls, unless
// Rules.MaxExchanges answers have been rolled (a stalemate).
func (c *State) answer(r *dice.Roller) {
	if c.Exchanges >= c.Rules.MaxExchanges {
		c.Stalemate = true
		c.finish()
		return
	}
	c.Exchanges++
	c.rollSide(r, c.Answerer)
	// A new comparison: only its two sides may cross a name off, and
	// rollSide has cleared the answerer's mark.
	ch := &c.Sides[c.Challenger]
	ch.Crossed, ch.Asked = 0, false
	c.Phase = PhaseAnswered
}

// roll rolls side i's dice, plus its advantage die when it carries one
// this round ("An advantage die lasts for a whole round"), into its
// showing roll. The member whose die shows the highest face (the first
// such) speaks for the side ("Whichever of the two of you rolled the high
// die").
func (c *State) rollSide(r *dice.Roller, i int) {
	s := &c.Sides[i]
	s.Faces = r.RollDice(s.Dice, s.Faces[:0])
	s.Bonus = 0
	for range s.Advantage {
		s.Bonus += r.Roll(int(c.Rules.AdvantageDie))
	}
	s.Crossed, s.Asked = 0, false
	// A side of one character speaks through it whatever it rolled.
	if len(s.Members) > 1 && len(s.Faces) > 0 {
		s.Speaker = s.Of[highAt(s.Faces)]
	}
	if c.sink != nil {
		c.emit(Event{Kind: EvRoll, Side: i, Other: -1, Member: s.Speaker, Faces: slices.Clone(s.Faces), Bonus: s.Bonus, Value: s.Read()})
	}
}

// highAt returns the position of the first highest face (0 for none).
func highAt(faces []int) int {
	at := 0
	for k, v := range faces {
		if v > faces[at] {
			at = k
		}
	}
	return at
}

// Reasons a cross-off is barred, checked without allocating.
const (
	barNone = iota
	barPhase
	barSide
	barNotComparing
	barCrossed
	barEntry
	barPlayer
	barFresh
)

func (c *State) crossBar(i, k int) int {
	switch {
	case c.Phase != PhaseCastRolled && c.Phase != PhaseAnswered:
		return barPhase
	case !c.In(i):
		return barSide
	case c.Phase == PhaseAnswered && i != c.Challenger && i != c.Answerer:
		return barNotComparing
	case c.Sides[i].Crossed >= c.Rules.CrossOffsPerComparison:
		return barCrossed
	case k < 0 || k >= len(c.Owe):
		return barEntry
	case c.Owe[k].Fresh && c.Rules.OweWaitsForNextConflict:
		return barFresh
	}
	for m := range c.Sides[i].Members {
		if c.Sides[i].Members[m].Player == c.Owe[k].Player {
			return barNone
		}
	}
	return barPlayer
}

func (c *State) checkCross(i, k int) error {
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
		return fmt.Errorf("challenge: CrossOff: side %s already crossed %d names off in this comparison: rules.cross_offs_per_comparison allows %d",
			c.Sides[i].Name, c.Sides[i].Crossed, c.Rules.CrossOffsPerComparison)
	case barEntry:
		return fmt.Errorf("challenge: CrossOff: owe entry %d does not exist: the list has %d", k, len(c.Owe))
	case barFresh:
		return fmt.Errorf("challenge: CrossOff: %s went on the owe list in this conflict: rules.owe_waits_for_next_conflict keeps it for a later one", c.Owe[k].Name)
	}
	return fmt.Errorf("challenge: CrossOff: %s on the owe list belongs to player %q, not to side %s", c.Owe[k].Name, c.Owe[k].Player, c.Sides[i].Name)
}

// crossOff is the step behind Engine.CrossOff.
func (c *State) crossOff(r *dice.Roller, i, k int) error {
	if err := c.checkCross(i, k); err != nil {
		return err
	}
	name := c.Owe[k].Name
	c.Owe = append(c.Owe[:k], c.Owe[k+1:]...)
	s := &c.Sides[i]
	v := r.Roll(int(c.Rules.AdvantageDie))
	s.Bonus += v
	s.Crossed++
	s.Asked = s.Crossed >= c.Rules.CrossOffsPerComparison
	c.CrossOffs++
	if c.sink != nil {
		c.emit(Event{Kind: EvCrossOff, Side: i, Other: -1, Name: name, Value: v})
	}
	return nil
}

// resolve is the step behind Engine.Resolve.
func (c *State) resolve() error {
	switch c.Phase {
	case PhaseCastRolled:
		c.resolveCast()
		return nil
	case PhaseAnswered:
		c.resolveAnswer()
		return nil
	}
	return c.phaseErr("Resolve")
}

// resolveAnswer compares the answerer's new roll with the challenger's
// standing roll ("Now we compare rolls").
func (c *State) resolveAnswer() {
	ch, an := c.Challenger, c.Answerer
	switch d := c.cmp(an, ch); {
	case d > 0:
		// "Maybe my reroll is higher than your roll": block, and the
		// answerer becomes the challenger.
		if c.sink != nil {
			c.note(EvBlock, an, ch)
		}
		c.Challenger, c.Answerer, c.Phase = an, ch, PhaseAnswer
	case d == 0:
		// "Maybe your roll and mine really tie": block, new round.
		c.owe(false)
		if c.sink != nil {
			c.note(EvTie, an, ch)
		}
		if c.Rules.TieEndsRound {
			c.Challenger, c.Answerer = -1, -1
			c.newRound()
			return
		}
		c.endExchange()
	case c.Rules.DoubleFactor*c.Sides[an].Read() <= c.Sides[ch].Read():
		// "Half of your roll or less": the challenger wins outright.
		c.owe(true)
		if c.sink != nil {
			c.note(EvDouble, an, ch)
		}
		c.Phase = PhaseConsequence
	default:
		// "Less than yours, but greater than half": hang in or give.
		c.owe(false)
		c.Phase = PhaseStance
	}
}

// resolveCast reads an initial cast: the highest roll challenges first
// ("Repeat this whole process down the line, highest roll to lowest"; at
// a cast no side has had its turn yet). A true tie at the top is recast
// when Rules.RecastTies allows, at most Rules.MaxRecasts times a round;
// otherwise the earlier-listed side goes first.
func (c *State) resolveCast() {
	top, tie := -1, -1 // the highest roll, and the first side truly tying it
	for i := range c.Sides {
		switch {
		case c.Sides[i].Status != StatusIn:
		case top < 0:
			top = i
		default:
			switch d := c.cmp(i, top); {
			case d > 0:
				top, tie = i, -1
			case d == 0 && tie < 0:
				tie = i
			}
		}
	}
	if tie >= 0 && c.Rules.RecastTies && c.Recasts < c.Rules.MaxRecasts {
		c.Recasts++
		if c.sink != nil {
			c.note(EvRecast, top, tie)
		}
		c.Phase = PhaseCast
		return
	}
	c.Challenger, c.Answerer, c.Phase = top, -1, PhaseChallenge
}

// cmp compares the showing rolls of sides i and j as the rules read them:
// 1, 0 or -1.
func (c *State) cmp(i, j int) int {
	a, b := &c.Sides[i], &c.Sides[j]
	if c.Rules.ShortRollTies {
		return compareShort(a.Faces, a.Bonus, b.Faces, b.Bonus)
	}
	return dice.CompareBonus(a.Faces, a.Bonus, b.Faces, b.Bonus)
}

// compareShort is dice.CompareBonus with a tie broken only by the dice
// both rolls have (Rules.ShortRollTies): high die plus bonus against high
// die plus bonus, then the next dice down in pairs while both rolls have
// one. This reading belongs in dice, beside CompareBonus.
func compareShort(a []int, bonusA int, b []int, bonusB int) int {
	var x, y [maxPool]int
	sa, sb := descending(a, x[:0]), descending(b, y[:0])
	if len(sa) == 0 || len(sb) == 0 {
		return sign(dice.Highest(a) + bonusA - (dice.Highest(b) + bonusB))
	}
	if d := sa[0] + bonusA - (sb[0] + bonusB); d != 0 {
		return sign(d)
	}
	for i := 1; i < min(len(sa), len(sb)); i++ {
		if sa[i] != sb[i] {
			return sign(sa[i] - sb[i])
		}
	}
	return 0
}

// descending appends faces to dst, highest first.
func descending(faces, dst []int) []int {
	dst = append(dst, faces...)
	slices.SortFunc(dst, func(p, q int) int { return q - p })
	return dst
}

func sign(d int) int {
	switch {
	case d > 0:
		return 1
	case d < 0:
		return -1
	}
	return 0
}

// nextTurn finds the next challenger: the highest showing roll among sides
// in that have not yet challenged or answered this round. With none left,
// a new round begins.
func (c *State) nextTurn() {
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

func (c *State) newRound() {
	c.Round++
	c.Recasts = 0
	sides := c.Sides
	for i := range sides {
		s := &sides[i]
		s.Advantage, s.Next, s.Turned = s.Next, 0, false
	}
	if c.sink != nil {
		c.emit(Event{Kind: EvRound, Side: -1, Other: -1})
	}
	c.Phase = PhaseCast
}

// canAnswer returns an error unless side j may be named as answerer by
// the current challenger.
func (c *State) canAnswer(j int) error {
	if err := c.checkSide(j, "Challenge"); err != nil {
		return err
	}
	if j == c.Challenger {
		return fmt.Errorf("challenge: Challenge: side %s cannot answer its own challenge", c.Sides[j].Name)
	}
	return nil
}

// mayInterfere reports whether side k may interfere with a challenge of
// the current challenger against side named ("any player whose roll is
// higher than mine can choose to interfere"): k is in, is neither of the
// two, has not yet challenged or answered this round, and shows a higher
// roll than named.
func (c *State) mayInterfere(k, named int) bool {
	if !c.In(k) || k == c.Challenger || k == named || c.Sides[k].Turned || named < 0 {
		return false
	}
	return c.cmp(k, named) > 0
}

// challenge is the step behind Engine.Challenge.
func (c *State) challenge(j int) error {
	if c.Phase != PhaseChallenge {
		return c.phaseErr("Challenge")
	}
	if uint(j) >= uint(len(c.Sides)) || c.Sides[j].Status != StatusIn || j == c.Challenger {
		return c.canAnswer(j) // says which
	}
	c.name(j)
	return nil
}

// challenge is Challenge once j is known to be a side in other than the
// challenger.
func (c *State) name(j int) {
	c.Answerer = j
	if c.sink != nil {
		c.traceChallenge()
	}
	c.Phase = PhaseAnswer
	c.interference()
	c.startExchange()
}

func (c *State) traceChallenge() {
	c.emit(Event{Kind: EvChallenge, Side: c.Challenger, Other: c.Answerer, Member: c.Sides[c.Challenger].Speaker})
}

// interference moves to PhaseInterfere when a side may interfere with
// the challenge just made.
func (c *State) interference() {
	// Only a side other than the challenger and the answerer may
	// interfere.
	if len(c.Sides) < 3 {
		return
	}
	for k := range c.Sides {
		if c.mayInterfere(k, c.Answerer) {
			c.Phase = PhaseInterfere
			return
		}
	}
}

func (c *State) startExchange() {
	c.First = c.Met&pairBit(c.Challenger, c.Answerer) == 0
}

// pairBit is the bit of Met for the pair of sides i and j. Sides number
// below MaxSides (8), so the bit is below 64.
func pairBit(i, j int) uint64 {
	return 1 << uint(min(i, j)*MaxSides+max(i, j))
}

// interfere is the step behind Engine.Interfere.
func (c *State) interfere(k int) error {
	if c.Phase != PhaseInterfere {
		return c.phaseErr("Interfere")
	}
	if k >= 0 {
		if !c.mayInterfere(k, c.Answerer) {
			return fmt.Errorf("challenge: Interfere: side %d may not interfere: it must be in, not yet have challenged or answered this round, and show a roll higher than the answerer's", k)
		}
		if c.sink != nil {
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

// drop is the step behind Engine.Drop.
func (c *State) drop() error {
	if c.Phase != PhaseChallenge {
		return c.phaseErr("Drop")
	}
	i := c.Challenger
	c.Sides[i].Status = StatusDropped
	c.record(i, -1, StatusDropped)
	if c.sink != nil {
		c.note(EvDrop, i, -1)
	}
	c.afterOut()
	return nil
}

// stance is the step behind Engine.Stance.
func (c *State) stance(hangIn bool) error {
	if c.Phase != PhaseStance {
		return c.phaseErr("Stance")
	}
	c.takeStance(hangIn)
	return nil
}

// stance is Stance in its phase.
func (c *State) takeStance(hangIn bool) {
	ch, an := c.Challenger, c.Answerer
	if hangIn {
		sides := c.Sides
		sides[ch].Next = min(sides[ch].Next+1, c.Rules.AdvantageDice)
		if c.sink != nil {
			c.note(EvHangIn, an, ch)
		}
		c.endExchange()
		return
	}
	c.Sides[an].Status = StatusGave
	c.record(an, ch, StatusGave)
	if c.sink != nil {
		c.note(EvGive, an, ch)
	}
	c.afterExchangeOut()
}

// InjuryLimit returns how many sizes exhaustion or injury takes from stat
// position st of member m of the losing side: Rules.InjurySizes, or all
// the stat holds if less.
func (c *State) InjuryLimit(loser, m, st int) int {
	return min(c.Rules.InjurySizes, c.Rules.statSizes(&c.Sides[loser].Members[m].Stats[st]))
}

// checkInjury validates a standard exhaustion-or-injury loss for member m
// of the losing side, writes the stat as it will be after the loss into
// after, and returns the member's stat position (-1 for an out member).
func (c *State) checkInjury(loser, m int, l *Loss, after *Stat) (int, error) {
	mem := &c.Sides[loser].Members[m]
	if mem.Out {
		if l.Total() != 0 {
			return 0, fmt.Errorf("challenge: Injure: %s was out of the conflict and loses nothing", mem.Name)
		}
		return -1, nil
	}
	st := c.Rules.statIndex(l.Stat)
	if st < 0 || !mem.InjuryStats[st] {
		var allowed []string
		for k, ok := range mem.InjuryStats {
			if ok {
				allowed = append(allowed, c.Rules.Stats[k])
			}
		}
		return 0, fmt.Errorf("challenge: Injure: %s cannot lose from %q: exhaustion or injury takes from %v (the stats of %v)",
			mem.Name, l.Stat, allowed, c.Rules.InjuryEndeavors)
	}
	*after = mem.Stats[st]
	if err := l.apply(&c.Rules, after); err != nil {
		return 0, fmt.Errorf("challenge: Injure: %s: %w", mem.Name, err)
	}
	// The loss takes Rules.InjurySizes sizes, or all the stat has if
	// fewer (InjuryLimit): with fewer, none may be left.
	got := l.Total()
	if got == c.Rules.InjurySizes {
		return st, nil
	}
	if got > c.Rules.InjurySizes || c.Rules.statSizes(after) > 0 {
		return 0, fmt.Errorf("challenge: Injure: %s must lose %d sizes from %s (%v), not %d",
			mem.Name, c.InjuryLimit(loser, m, st), l.Stat, mem.Stats[st], got)
	}
	if got > 0 {
		return st, nil
	}
	// An empty stat is no choice while another injury stat has dice.
	for k, ok := range mem.InjuryStats {
		if ok && c.Rules.statSizes(&mem.Stats[k]) > 0 {
			return 0, fmt.Errorf("challenge: Injure: %s's %s is empty; take from %s, which still has dice", mem.Name, l.Stat, c.Rules.Stats[k])
		}
	}
	return st, nil
}

// injure is the step behind Engine.Injure.
func (c *State) injure(losses []Loss) error {
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
	for m := range losses {
		st, err := c.checkInjury(an, m, &losses[m], &after[m])
		if err != nil {
			return err
		}
		sts[m] = st
	}
	for m := range losses {
		if sts[m] < 0 {
			continue
		}
		mem[m].Stats[sts[m]] = after[m]
		c.SizesLost += losses[m].Total()
		if c.sink != nil {
			l := losses[m]
			c.emit(Event{Kind: EvLoss, Side: an, Other: c.Challenger, Member: m, Loss: &l})
		}
	}
	c.injured()
	return nil
}

// record adds to Consequences how side went out, and by whose win (-1:
// none), and returns the record for any more it needs to say.
func (c *State) record(side, by int, status Status) *Consequence {
	c.Consequences = append(c.Consequences, Consequence{})
	rec := &c.Consequences[len(c.Consequences)-1]
	rec.Side, rec.By, rec.Status = side, by, status
	return rec
}

// injured puts the answerer out, exhausted or injured.
func (c *State) injured() {
	an := c.Answerer
	c.record(an, c.Challenger, StatusInjured)
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

// hasEndeavor returns an error unless the member's sheet has endeavor e.
func (m *Member) hasEndeavor(e string) error {
	if _, ok := slices.BinarySearch(m.Endeavors, e); !ok {
		return fmt.Errorf("%s has no endeavor %q: known are %s", m.Name, clip(e), few(m.Endeavors))
	}
	return nil
}

// settle is the step behind Engine.Settle.
func (c *State) settle(s *Settlement) error {
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
		if c.Rules.statIndex(rm.Stat) < 0 {
			return fmt.Errorf("challenge: Settle: remap %q to %q: name a stat of %v", rm.Endeavor, rm.Stat, c.Rules.Stats)
		}
		if err := mem[rm.Member].hasEndeavor(rm.Endeavor); err != nil {
			return fmt.Errorf("challenge: Settle: remap: %w", err)
		}
	}
	for _, g := range s.Gains {
		if g.Member < 0 || g.Member >= len(mem) {
			return fmt.Errorf("challenge: Settle: gain for member %d: side %s has members 0..%d", g.Member, c.Sides[an].Name, len(mem)-1)
		}
		if g.Specialization.Name == "" || c.Rules.statIndex(g.Specialization.Stat) < 0 {
			return fmt.Errorf("challenge: Settle: a gained specialization needs a name and a stat of %v", c.Rules.Stats)
		}
		if err := mem[g.Member].hasEndeavor(g.Specialization.Endeavor); err != nil {
			return fmt.Errorf("challenge: Settle: specialization %q: %w", g.Specialization.Name, err)
		}
	}
	if err := c.checkGainsPaid(s); err != nil {
		return err
	}
	for m := range mem {
		mem[m].Stats = stats[m]
	}
	for _, ch := range s.Changes {
		c.SizesLost += ch.Lose.Total()
	}
	kept := *s
	kept.Changes = append([]Change(nil), s.Changes...)
	kept.Remaps = append([]Remap(nil), s.Remaps...)
	kept.Gains = append([]Gain(nil), s.Gains...)
	rec := c.record(an, c.Challenger, StatusSettled)
	rec.Note, rec.Settlement = s.Note, &kept
	c.Sides[an].Status = StatusSettled
	if c.sink != nil {
		c.emit(Event{Kind: EvSettle, Side: an, Other: c.Challenger, Name: s.Note})
	}
	c.afterExchangeOut()
	return nil
}

// checkGainsPaid checks that each member gaining specializations in s
// loses Rules.GainCost die sizes for each in the same settlement: "you
// can lose things from your character sheet as consequences, you can't
// add things", but a loss may come with a gain ("your character loses
// three Guts and gains a specialization").
func (c *State) checkGainsPaid(s *Settlement) error {
	for m := range c.Sides[c.Answerer].Members {
		gained, lost := 0, 0
		for _, g := range s.Gains {
			gained += b2i(g.Member == m)
		}
		for _, ch := range s.Changes {
			if ch.Member == m {
				lost += ch.Lose.Total()
			}
		}
		if need := gained * c.Rules.GainCost; lost < need {
			return fmt.Errorf("challenge: Settle: %s gains %d specializations but loses %d die sizes: rules.gain_cost asks %d a specialization",
				c.Sides[c.Answerer].Members[m].Name, gained, lost, c.Rules.GainCost)
		}
	}
	return nil
}

// owe applies the owe-list rule at the end of a pair's first exchange: a
// side's characters go on the list when the other side's dice have
// strictly more sides in total and did not double it (our ruling: the text
// over its example).
func (c *State) owe(doubled bool) {
	if c.First {
		c.oweFirst(doubled)
	}
}

func (c *State) oweFirst(doubled bool) {
	ch, an := c.Challenger, c.Answerer
	c.Met |= pairBit(ch, an)
	c.First = false
	a, b := c.Sides[ch].TotalSides, c.Sides[an].TotalSides
	if c.outclasses(b, a, false) {
		c.addOwe(ch)
	}
	if c.outclasses(a, b, true) && !doubled {
		c.addOwe(an)
	}
}

// outclasses reports whether dice of theirs sides in total put a side
// whose dice have own sides on the owe list: strictly more; or, with
// Rules.OweOnEqualSides, as many when the side answered the pair's first
// exchange (the text's example: Althesa's d10 d8 and Irin's d12 d6 have
// 18 sides each, and only Irin, who answered, goes on: "because my dice
// are better than yours and I didn't double you out the gate").
func (c *State) outclasses(theirs, own int, answered bool) bool {
	return theirs > own || c.Rules.OweOnEqualSides && answered && theirs == own
}

func (c *State) addOwe(i int) {
	for m := range c.Sides[i].Members {
		mem := &c.Sides[i].Members[m]
		c.Owe = append(c.Owe, Debt{Name: mem.Name, Player: mem.Player, Fresh: true})
		c.Owed++
		if c.sink != nil {
			c.emit(Event{Kind: EvOwe, Side: i, Other: -1, Member: m, Name: mem.Name})
		}
	}
}

// endExchange closes an exchange both sides came through: both have had
// their turn this round.
func (c *State) endExchange() {
	c.Sides[c.Challenger].Turned = true
	c.Sides[c.Answerer].Turned = true
	c.nextTurn()
}

// afterExchangeOut closes an exchange that put the answerer out.
func (c *State) afterExchangeOut() {
	c.Sides[c.Challenger].Turned = true
	c.afterOut()
}

// afterOut ends the conflict when one side or none is left, and otherwise
// moves to the next turn.
func (c *State) afterOut() {
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

func (c *State) finish() {
	c.Winner = -1
	if !c.Stalemate {
		for i := range c.Sides {
			if c.Sides[i].Status == StatusIn {
				c.Winner = i
			}
		}
	}
	c.Phase = PhaseDone
	if c.sink != nil {
		c.note(EvEnd, c.Winner, -1)
	}
}

// Challenges returns the formal challenges open to the current challenger:
// those of its members' declared specializations, and the opponent's
// challenges of the answerer's ("Someone uses a specialization"). They
// change no dice.
func (c *State) Challenges() []string {
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

// UnmarshalJSON restores a saved conflict and checks it whole (Check), so
// a damaged or hand-edited save is an error rather than a crash later.
func (c *State) UnmarshalJSON(b []byte) error {
	type plain State
	var v plain
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	if err := (*State)(&v).Check(); err != nil {
		return err
	}
	*c = State(v)
	return nil
}

// Maximum counts a saved state may hold: far beyond any conflict played,
// they keep a damaged save from asking for absurd work.
const (
	maxOwe            = 1 << 16 // owe-list entries
	maxEndeavors      = 1 << 10 // endeavors on one sheet
	maxCounter        = 1 << 40 // rounds, cross-offs, names owed, sizes lost
	maxSpecChallenges = 1 << 10 // formal challenges of one specialization
)

// Check validates the state whole, against the rules and the bounds the
// steps rely on: the rules, every side and member, the owe list, the
// record of consequences, and the phase with whose turn it is. A state
// restored from JSON is checked as it is decoded; a State built or edited
// by hand must pass Check before any step reads it.
func (c *State) Check() error {
	if err := c.Rules.Validate(); err != nil {
		return fmt.Errorf("challenge: saved conflict: %w", err)
	}
	n := len(c.Sides)
	if n < 2 || n > MaxSides {
		return fmt.Errorf("challenge: saved conflict has %d sides: allowed 2..%d", n, MaxSides)
	}
	if err := c.checkCounters(); err != nil {
		return err
	}
	for i := range c.Sides {
		if err := c.checkSaved(i); err != nil {
			return err
		}
	}
	if len(c.Owe) > maxOwe {
		return fmt.Errorf("challenge: saved owe list has %d entries: allowed up to %d", len(c.Owe), maxOwe)
	}
	for k, d := range c.Owe {
		if d.Name == "" || d.Player == "" {
			return fmt.Errorf("challenge: saved owe entry %d needs a name and a player", k)
		}
		if len(d.Name) > MaxName || len(d.Player) > MaxName {
			return fmt.Errorf("challenge: saved owe entry %d: a name is at most %d bytes", k, MaxName)
		}
	}
	if len(c.Consequences) > n {
		return fmt.Errorf("challenge: saved conflict records %d consequences for %d sides", len(c.Consequences), n)
	}
	for k, cons := range c.Consequences {
		if cons.Side < 0 || cons.Side >= n || cons.By < -1 || cons.By >= n || !statusNames.Valid(cons.Status) {
			return fmt.Errorf("challenge: saved consequence %d: side %d, by %d, status %v: sides are 0..%d (by -1 for none)",
				k, cons.Side, cons.By, cons.Status, n-1)
		}
	}
	return c.checkTurn()
}

// checkCounters checks the phase and the counters of play.
func (c *State) checkCounters() error {
	if !phaseNames.Valid(c.Phase) {
		return fmt.Errorf("challenge: saved conflict has phase %d: allowed %s", c.Phase, named.Allowed(phaseNames))
	}
	for _, x := range []struct {
		name   string
		v, max int
	}{
		{"round", c.Round - 1, maxCounter},
		{"exchanges", c.Exchanges, c.Rules.MaxExchanges},
		{"recasts", c.Recasts, c.Rules.MaxRecasts},
		{"cross_offs", c.CrossOffs, maxCounter},
		{"owed", c.Owed, maxCounter},
		{"sizes_lost", c.SizesLost, maxCounter},
	} {
		if x.v < 0 || x.v > x.max {
			return fmt.Errorf("challenge: saved conflict: %s out of range: allowed up to %d", x.name, x.max)
		}
	}
	return nil
}

// checkTurn checks that whose turn it is fits the phase: the sides a step
// of this phase reads exist, are in, and show a roll. Every Engine step
// checks it before it reads the state.
func (c *State) checkTurn() error {
	n := len(c.Sides)
	if !turnIndex(c.Challenger, n) || !turnIndex(c.Answerer, n) || !turnIndex(c.Winner, n) {
		return c.turnIndexErr()
	}
	if c.Phase == PhaseDone {
		return nil
	}
	in, bare := 0, -1 // the sides in; the first side in showing no roll
	for i := range c.Sides {
		s := &c.Sides[i]
		if s.Status != StatusIn {
			continue
		}
		in++
		if bare < 0 && len(s.Faces) != len(s.Dice) {
			bare = i
		}
	}
	if in < 2 {
		return fmt.Errorf("challenge: conflict in phase %v has %d sides in: a conflict goes on while two are", c.Phase, in)
	}
	if c.Phase == PhaseCast {
		return nil
	}
	if bare >= 0 {
		s := &c.Sides[bare]
		return fmt.Errorf("challenge: side %s shows %d faces for %d dice in phase %v", s.Name, len(s.Faces), len(s.Dice), c.Phase)
	}
	switch c.Phase {
	case PhaseChallenge:
		if !c.In(c.Challenger) {
			return fmt.Errorf("challenge: conflict in phase %v needs a challenger still in", c.Phase)
		}
	case PhaseInterfere, PhaseAnswer, PhaseAnswered, PhaseStance, PhaseConsequence:
		if !c.In(c.Challenger) || !c.In(c.Answerer) || c.Challenger == c.Answerer {
			return fmt.Errorf("challenge: conflict in phase %v needs a challenger and a different answerer, both still in", c.Phase)
		}
	}
	return nil
}

// turnIndex reports whether v names one of n sides, or none (-1).
func turnIndex(v, n int) bool { return v >= -1 && v < n }

// turnIndexErr says which of challenger, answerer and winner names no
// side.
func (c *State) turnIndexErr() error {
	n := len(c.Sides)
	for _, x := range []struct {
		name string
		v    int
	}{{"challenger", c.Challenger}, {"answerer", c.Answerer}, {"winner", c.Winner}} {
		if !turnIndex(x.v, n) {
			return fmt.Errorf("challenge: conflict: %s %d: allowed -1..%d", x.name, x.v, n-1)
		}
	}
	return nil
}

// checkSaved checks side i of a saved state.
func (c *State) checkSaved(i int) error {
	s := &c.Sides[i]
	n := len(c.Sides)
	if s.Name == "" || len(s.Name) > MaxName {
		return fmt.Errorf("challenge: saved side %d needs a name of 1..%d bytes", i, MaxName)
	}
	if len(s.Members) < 1 || len(s.Members) > MaxMembers {
		return fmt.Errorf("challenge: saved side %s has %d characters: allowed 1..%d", s.Name, len(s.Members), MaxMembers)
	}
	for m := range s.Members {
		if err := c.checkMember(&s.Members[m]); err != nil {
			return fmt.Errorf("challenge: saved side %s: %w", s.Name, err)
		}
	}
	if s.Target < -1 || s.Target >= n || s.Target == i || !statusNames.Valid(s.Status) || s.Speaker < 0 || s.Speaker >= len(s.Members) {
		return fmt.Errorf("challenge: saved side %s: target %d, status %v, speaker %d: allowed another side or -1, a status of %s, a member",
			s.Name, s.Target, s.Status, s.Speaker, named.Allowed(statusNames))
	}
	if len(s.Dice) != len(s.Of) || len(s.Dice) > maxPool || (len(s.Dice) == 0 && s.Status == StatusIn && !c.Rules.EmptyStatReadsZero) {
		return fmt.Errorf("challenge: saved side %s: %d dice with %d owners: need as many, 1..%d", s.Name, len(s.Dice), len(s.Of), maxPool)
	}
	total := 0
	for k, d := range s.Dice {
		if !d.OnLadder() || s.Of[k] < 0 || s.Of[k] >= len(s.Members) {
			return fmt.Errorf("challenge: saved side %s: die %d (%v of member %d): allowed d4..d12 of a member", s.Name, k, d, s.Of[k])
		}
		total += int(d)
	}
	if total != s.TotalSides {
		return fmt.Errorf("challenge: saved side %s: total_sides %d, but its dice have %d", s.Name, s.TotalSides, total)
	}
	if len(s.Faces) > len(s.Dice) {
		return fmt.Errorf("challenge: saved side %s shows %d faces for %d dice", s.Name, len(s.Faces), len(s.Dice))
	}
	for k, f := range s.Faces {
		if f < 1 || f > int(s.Dice[k]) {
			return fmt.Errorf("challenge: saved side %s shows %d on a %v", s.Name, f, s.Dice[k])
		}
	}
	if s.Advantage < 0 || s.Advantage > c.Rules.AdvantageDice || s.Next < 0 || s.Next > c.Rules.AdvantageDice ||
		s.Crossed < 0 || s.Crossed > c.Rules.CrossOffsPerComparison {
		return fmt.Errorf("challenge: saved side %s: advantage %d, next %d, crossed %d: allowed 0..%d advantage dice and 0..%d names crossed off",
			s.Name, s.Advantage, s.Next, s.Crossed, c.Rules.AdvantageDice, c.Rules.CrossOffsPerComparison)
	}
	// A standing roll carries the round's advantage dice, the names
	// crossed off at the comparison that set it (a cast or an answer) and
	// those crossed off at the comparison it now meets.
	bonusDice := c.Rules.AdvantageDice + 2*c.Rules.CrossOffsPerComparison
	if most := bonusDice * int(c.Rules.AdvantageDie); s.Bonus < 0 || s.Bonus > most {
		return fmt.Errorf("challenge: saved side %s: bonus %d: allowed 0..%d (%d advantage dice and crossed-off names')", s.Name, s.Bonus, most, bonusDice)
	}
	return nil
}

// checkMember checks one member of a saved side.
func (c *State) checkMember(m *Member) error {
	if m.Name == "" || m.Player == "" || m.Endeavor == "" {
		return fmt.Errorf("a member needs a name, a player and an endeavor")
	}
	if len(m.Name) > MaxName || len(m.Player) > MaxName || len(m.Endeavor) > MaxName {
		return fmt.Errorf("a member's name, player and endeavor are at most %d bytes each", MaxName)
	}
	injury := false
	for k := range m.Stats {
		if err := c.checkStat(m, k); err != nil {
			return err
		}
		injury = injury || m.InjuryStats[k]
	}
	if !injury {
		return fmt.Errorf("%s has no stat exhaustion or injury may take from", m.Name)
	}
	if len(m.Endeavors) > maxEndeavors || !slices.IsSorted(m.Endeavors) || len(slices.Compact(slices.Clone(m.Endeavors))) != len(m.Endeavors) {
		return fmt.Errorf("%s: endeavors must be sorted, without repeats, at most %d", m.Name, maxEndeavors)
	}
	if len(m.Dice) > 2*MaxDice {
		return fmt.Errorf("%s rolls %d dice: at most %d", m.Name, len(m.Dice), 2*MaxDice)
	}
	if sp := m.Specialization; sp != nil && (c.Rules.statIndex(sp.Stat) < 0 ||
		len(sp.Challenges) > maxSpecChallenges || len(sp.OpponentChallenges) > maxSpecChallenges) {
		return fmt.Errorf("%s: specialization %q: needs a stat of %v and at most %d challenges each way", m.Name, sp.Name, c.Rules.Stats, maxSpecChallenges)
	}
	return nil
}

// checkStat checks stat position k of a saved member: the rules' stats hold
// ladder dice, present dice first; positions past the rules' stats are
// empty and never injured.
func (c *State) checkStat(m *Member, k int) error {
	s := m.Stats[k]
	if k >= len(c.Rules.Stats) {
		if s.Len() != 0 || m.InjuryStats[k] {
			return fmt.Errorf("%s: stat position %d is past the rules' %d stats", m.Name, k+1, len(c.Rules.Stats))
		}
		return nil
	}
	for j, d := range s {
		if j < s.Len() && !d.OnLadder() || j >= s.Len() && d != dice.Gone {
			return fmt.Errorf("%s: stat %s holds %v: allowed d4..d12, present dice first", m.Name, c.Rules.Stats[k], s)
		}
	}
	return nil
}
