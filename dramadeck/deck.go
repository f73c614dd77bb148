package dramadeck

import (
	"bufio"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/named"
)

// MaxCards bounds the size of a deck read from a file.
const MaxCards = 1024

// Count is one row of a deck composition: how many cards of a name.
type Count struct {
	Name  Name `json:"name"`
	Count int  `json:"count"`
}

// DefaultComposition returns the 156-card player-side composition of
// our rulings: Adrenalin 16, Action 8, Haste 10, Master Plan 6, Hero 10, Drama
// 13, Alertness 4, Connection 4, Idea 4, Glory 4, Monologue 1, Campaign 1,
// Coup de Grace 5, Leadership 5, Escape 1 [src]; Willpower 16, Presence 16,
// Opponent Fails 4, Second Chance 6, Supporter 10, Rally 1, Seize Initiative
// 1, Romance 2, Nemesis 2, Personal Stake 2, Martyr 1, Mistaken Identity 1,
// Suspicion 1, True Identity 1 [ours].
func DefaultComposition() []Count {
	return []Count{
		{Adrenalin, 16}, {Action, 8}, {Haste, 10}, {MasterPlan, 6}, {Hero, 10}, {Drama, 13},
		{Alertness, 4}, {Connection, 4}, {Idea, 4}, {Glory, 4}, {Monologue, 1}, {Campaign, 1},
		{CoupDeGrace, 5}, {Leadership, 5}, {Escape, 1},
		{Willpower, 16}, {Presence, 16}, {OpponentFails, 4}, {SecondChance, 6}, {Supporter, 10},
		{Rally, 1}, {SeizeInitiative, 1},
		{Romance, 2}, {Nemesis, 2}, {PersonalStake, 2}, {Martyr, 1}, {MistakenIdentity, 1},
		{Suspicion, 1}, {TrueIdentity, 1},
	}
}

// DefaultSeed is the seed the default deck's GM sides were generated from.
const DefaultSeed = 0x0d7a_3a_dec4

// Deck is an ordered list of cards; a card's index is its identity in a
// game (piles hold indices).
type Deck struct {
	Cards []Card `json:"cards"`
}

// Len returns the number of cards.
func (d *Deck) Len() int { return len(d.Cards) }

// Count returns how many cards carry name n.
func (d *Deck) Count(n Name) int {
	k := 0
	for i := range d.Cards {
		if d.Cards[i].Name == n {
			k++
		}
	}
	return k
}

// Composition returns the deck's player-side counts in first-seen order.
func (d *Deck) Composition() []Count {
	var out []Count
	for _, c := range d.Cards {
		i := slices.IndexFunc(out, func(x Count) bool { return x.Name == c.Name })
		if i < 0 {
			out = append(out, Count{c.Name, 1})
		} else {
			out[i].Count++
		}
	}
	return out
}

// Clone returns an independent copy.
func (d *Deck) Clone() *Deck { return &Deck{Cards: slices.Clone(d.Cards)} }

func checkComposition(comp []Count) (int, error) {
	total := 0
	seen := map[Name]bool{}
	for i, c := range comp {
		if !c.Name.Valid() {
			return 0, fmt.Errorf("composition[%d]: unknown card %d", i, int(c.Name))
		}
		if seen[c.Name] {
			return 0, fmt.Errorf("composition[%d]: %v listed twice", i, c.Name)
		}
		seen[c.Name] = true
		if c.Count < 1 || c.Count > MaxCards {
			return 0, fmt.Errorf("composition[%d]: %v count %d, must be 1..%d", i, c.Name, c.Count, MaxCards)
		}
		total += c.Count
	}
	if total == 0 {
		return 0, errors.New("composition: no cards")
	}
	if total > MaxCards {
		return 0, fmt.Errorf("composition: %d cards, at most %d allowed", total, MaxCards)
	}
	return total, nil
}

// Generate builds a deck with the given player-side composition and GM
// sides drawn from seed in the proportions of our rulings [ours]: Standard lines
// heroes-first on 2/3 of cards, Dramatic lines villains-first on 2/3; 1/3 of
// lines carry an effect on one side, alternating sides, each side's seven
// effects in equal shares (Break only for villains, Confused only for
// heroes, since villains hold no pools); 1/6 of lines give the villains an
// approved action instead, the six other than Defend in equal shares (Defend, never stripping a card, would approve nothing); half the cards approve one action, half two;
// 80% of skill bars show a step or adjacent pair (A, B, C, D, AB, BC, CD in
// equal shares), 20% a special case (equal shares). Proportions are exact
// up to rounding; only their placement is random. The same composition and
// seed always give the same deck.
func Generate(comp []Count, seed uint64) (*Deck, error) {
	return GenerateFaces(comp, seed, DefaultFaces())
}

// Share is a proportion of the deck's cards, Num in Den, rounded half up.
type Share struct {
	Num int `json:"num"`
	Den int `json:"den"`
}

// of is the share's count of n cards.
func (sh Share) of(n int) int { return (n*sh.Num + sh.Den/2) / sh.Den }

// Faces are the proportions Generate gives the GM faces of a composition
// (no published distribution exists: all [ours]): the lines on which the
// minority side acts first (heroes-first Standard lines are the majority,
// villains-first Dramatic ones), the lines carrying an effect, the lines
// giving the villains an approved action, the skill bars showing a step
// or an adjacent pair (the rest a special case), and the cards approving
// two actions (the rest one).
type Faces struct {
	MinorityFirst  Share `json:"minority_first"`
	Effects        Share `json:"effects"`
	VillainActions Share `json:"villain_actions"`
	Steps          Share `json:"steps"`
	TwoApproved    Share `json:"two_approved"`
}

// DefaultFaces returns the proportions the shipped deck was generated
// with: 1/3, 1/3, 1/6, 4/5, 1/2 [ours].
func DefaultFaces() Faces {
	return Faces{MinorityFirst: Share{1, 3}, Effects: Share{1, 3}, VillainActions: Share{1, 6},
		Steps: Share{4, 5}, TwoApproved: Share{1, 2}}
}

// Check reports a proportion that is no proportion, or effects and
// villain actions that together take more than every line.
func (f Faces) Check() error {
	for _, sh := range [...]struct {
		name string
		s    Share
	}{{"minority_first", f.MinorityFirst}, {"effects", f.Effects}, {"villain_actions", f.VillainActions},
		{"steps", f.Steps}, {"two_approved", f.TwoApproved}} {
		if sh.s.Den < 1 || sh.s.Den > 1000 || sh.s.Num < 0 || sh.s.Num > sh.s.Den {
			return fmt.Errorf("faces.%s: %d/%d, need 0 <= num <= den, den 1..1000", sh.name, sh.s.Num, sh.s.Den)
		}
	}
	if f.Effects.Num*f.VillainActions.Den+f.VillainActions.Num*f.Effects.Den > f.Effects.Den*f.VillainActions.Den {
		return errors.New("faces: effects and villain_actions together exceed every line")
	}
	return nil
}

// GenerateFaces is Generate in the proportions faces.
func GenerateFaces(comp []Count, seed uint64, faces Faces) (*Deck, error) {
	n, err := checkComposition(comp)
	if err != nil {
		return nil, err
	}
	if err := faces.Check(); err != nil {
		return nil, err
	}
	r := dice.NewSeeded(seed)
	d := &Deck{Cards: make([]Card, 0, n)}
	for _, c := range comp {
		for range c.Count {
			d.Cards = append(d.Cards, Card{Name: c.Name})
		}
	}
	std := generateLines(r, n, Heroes, faces)
	dra := generateLines(r, n, Villains, faces)
	bars := generateBars(r, n, faces.Steps.of(n))
	two := faces.TwoApproved.of(n)
	for k, i := range perm(r, n) {
		c := &d.Cards[i]
		c.Standard, c.Dramatic, c.Bar = std[i], dra[i], bars[i]
		c.Approved = generateApproved(r, k >= n-two)
	}
	return d, nil
}

// generateLines makes n lines of the action stack, the majority side
// first on 2/3 of them; a third carry an effect, alternating sides, and
// the next sixth a villain approved action (Generate's proportions).
func generateLines(r *dice.Roller, n int, majority Side, faces Faces) []Line {
	minority, third := faces.MinorityFirst.of(n), faces.Effects.of(n)
	firsts := make([]Side, n)
	for i := range firsts {
		firsts[i] = majority
		if i >= n-minority {
			firsts[i] = majority.Other()
		}
	}
	r.Shuffle(n, func(i, j int) { firsts[i], firsts[j] = firsts[j], firsts[i] })
	ls := make([]Line, n)
	for i, f := range firsts {
		ls[i].First = f
	}
	heroFX := []Effect{Flurry, Inspiration, Up, Confused, Fatigued, Setback, Stymied}
	villainFX := []Effect{Flurry, Inspiration, Up, Break, Fatigued, Setback, Stymied}
	// Positions 0..third-1 of a shuffled order carry an effect; the next
	// sixth carries a villain approved action.
	sixth := min(faces.VillainActions.of(n), n-third)
	for k, i := range perm(r, n) {
		switch {
		case k < third && k%2 == 0:
			ls[i].Hero = heroFX[(k/2)%len(heroFX)]
		case k < third:
			ls[i].Villain = villainFX[(k/2)%len(villainFX)]
		case k < third+sixth:
			// An approved villain action lets the GM strip a card on its
			// success, which Defend never has: the other six in turn.
			ls[i].VillainAction = villainActs[(k-third)%len(villainActs)]
		}
	}
	return ls
}

// villainActs are the actions a line may approve for the villains.
var villainActs = [...]Act{Attack, Trick, Test, Taunt, Intimidate, Maneuver}

// generateBars makes n skill bars, 80% a step or adjacent pair and 20% a
// special case, each kind in equal shares, shuffled.
func generateBars(r *dice.Roller, n, steps int) []Bar {
	bars := make([]Bar, n)
	for i := range bars {
		if i < steps {
			bars[i] = Bar(i % 7)
		} else {
			bars[i] = PossibleSetback + Bar((i-steps)%3)
		}
	}
	r.Shuffle(n, func(i, j int) { bars[i], bars[j] = bars[j], bars[i] })
	return bars
}

// generateApproved draws a card's approved action, and with two a second,
// different one.
func generateApproved(r *dice.Roller, two bool) [2]Act {
	var a [2]Act
	a[0] = Act(int(Attack) + r.IntN(int(Maneuver-Attack)+1))
	for two {
		if b := Act(int(Attack) + r.IntN(int(Maneuver-Attack)+1)); b != a[0] {
			a[1] = b
			break
		}
	}
	return a
}

// perm is a uniform permutation of 0..n-1 drawn from the roller.
func perm(r *dice.Roller, n int) []int {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	r.Shuffle(n, func(i, j int) { p[i], p[j] = p[j], p[i] })
	return p
}

//go:embed deck.txt
var defaultDeckText string

var defaultDeck = sync.OnceValues(func() (*Deck, error) {
	return ParseDeck(strings.NewReader(defaultDeckText), DefaultSeed)
})

// DefaultDeck returns a copy of the shipped 156-card deck: the composition of
// DefaultComposition with GM sides generated once by Generate from
// DefaultSeed and stored as the package's deck.txt data file.
func DefaultDeck() (*Deck, error) {
	d, err := defaultDeck()
	if err != nil {
		return nil, fmt.Errorf("dramadeck: shipped deck is corrupt: %w", err)
	}
	return d.Clone(), nil
}

// ParseDeck reads a deck file. The format is line based; blank lines and
// lines starting with # are ignored. Each card line is
//
//	<count> <Name> | S: <first> <hero> <villain> [<villain action>] | D: <first> <hero> <villain> [<villain action>] | Act: <action>[, <action>] | Bar: <bar>
//
// where <count> copies of that card are made, <first> is Heroes or Villains,
// <hero> and <villain> are an effect name or "-", the optional villain
// action is an approved action, and <bar> is A, B, C, D, AB, BC, CD,
// Possible Setback, Complication or Critical Problem. A file may instead
// give only "<count> <Name>" on every line: a composition, whose GM sides
// are then made by Generate with seed. Unknown names, counts below 1, more
// than MaxCards cards, and mixing the two forms are errors naming the line.
func ParseDeck(rd io.Reader, seed uint64) (*Deck, error) {
	sc := bufio.NewScanner(rd)
	var f deckFile
	for lineNo := 1; sc.Scan(); lineNo++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		if err := f.add(text); err != nil {
			return nil, fmt.Errorf("deck line %d: %w", lineNo, err)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("deck: reading: %w", err)
	}
	switch f.form {
	case 0:
		return nil, errors.New("deck: no cards")
	case compositionLines:
		return Generate(f.comp, seed)
	}
	return &Deck{Cards: f.cards}, nil
}

// The two forms of a deck file's lines.
const (
	cardLines        = 1 // "<count> <Name> | S: ... | D: ... | Act: ... | Bar: ..."
	compositionLines = 2 // "<count> <Name>"
)

// deckFile is a deck file read so far: its form (0 until a card line),
// the cards counted, and the cards or the composition they make.
type deckFile struct {
	form  int
	total int
	cards []Card
	comp  []Count
}

// add reads one card line of a deck file.
func (f *deckFile) add(text string) error {
	fields := strings.Split(text, "|")
	count, name, err := parseCardHead(strings.TrimSpace(fields[0]))
	if err != nil {
		return err
	}
	if count > MaxCards-f.total {
		return fmt.Errorf("more than %d cards", MaxCards)
	}
	f.total += count
	form := compositionLines
	if len(fields) > 1 {
		form = cardLines
	}
	if f.form != 0 && f.form != form {
		return errors.New("mixes full card lines and composition lines")
	}
	f.form = form
	if form == compositionLines {
		if i := slices.IndexFunc(f.comp, func(c Count) bool { return c.Name == name }); i >= 0 {
			f.comp[i].Count += count
		} else {
			f.comp = append(f.comp, Count{name, count})
		}
		return nil
	}
	c, err := parseGM(fields[1:])
	if err != nil {
		return err
	}
	c.Name = name
	for range count {
		f.cards = append(f.cards, c)
	}
	return nil
}

// parseCardHead reads "<count> <Name>", the head of every card line.
func parseCardHead(head string) (int, Name, error) {
	sp := strings.IndexByte(head, ' ')
	if sp < 0 {
		return 0, NoName, fmt.Errorf("want \"<count> <card name>\", got %q", head)
	}
	count, err := strconv.Atoi(head[:sp])
	if err != nil || count < 1 {
		return 0, NoName, fmt.Errorf("bad count %q (must be a whole number >= 1)", head[:sp])
	}
	name, err := readCardName(head[sp+1:])
	if err != nil {
		return 0, NoName, err
	}
	return count, name, nil
}

func parseGM(fields []string) (Card, error) {
	var c Card
	if len(fields) != 4 {
		return c, fmt.Errorf("want 4 fields after the name (S:, D:, Act:, Bar:), got %d", len(fields))
	}
	get := func(f, prefix string) (string, error) {
		f = strings.TrimSpace(f)
		if !strings.HasPrefix(f, prefix) {
			return "", fmt.Errorf("field %q must start with %q", f, prefix)
		}
		return strings.TrimSpace(f[len(prefix):]), nil
	}
	var err error
	for i, p := range []string{"S:", "D:"} {
		s, e := get(fields[i], p)
		if e != nil {
			return c, e
		}
		var l Line
		if l, err = parseLine(s); err != nil {
			return c, fmt.Errorf("%s %w", p, err)
		}
		if i == 0 {
			c.Standard = l
		} else {
			c.Dramatic = l
		}
	}
	s, err := get(fields[2], "Act:")
	if err != nil {
		return c, err
	}
	acts := strings.Split(s, ",")
	if len(acts) < 1 || len(acts) > 2 {
		return c, fmt.Errorf("Act: lists %d actions, want 1 or 2", len(acts))
	}
	for i, a := range acts {
		v, e := actNames.Parse(strings.TrimSpace(a))
		if e != nil {
			return c, fmt.Errorf("Act: %w", e)
		}
		if !v.Approved() {
			return c, fmt.Errorf("Act: %q is not an approved action (Attack, Defend, Trick, Test, Taunt, Intimidate, Maneuver)", a)
		}
		c.Approved[i] = v
	}
	if c.Approved[0] == c.Approved[1] {
		return c, fmt.Errorf("Act: %v listed twice", c.Approved[0])
	}
	s, err = get(fields[3], "Bar:")
	if err != nil {
		return c, err
	}
	c.Bar, err = barNames.Parse(s)
	return c, err
}

func parseLine(s string) (Line, error) {
	var l Line
	tok := strings.Fields(s)
	if len(tok) < 3 || len(tok) > 4 {
		return l, fmt.Errorf("line %q: want <first> <hero effect> <villain effect> [<villain action>]", s)
	}
	var err error
	if l.First, err = sideNames.Parse(tok[0]); err != nil {
		return l, err
	}
	if l.Hero, err = effectNames.Parse(tok[1]); err != nil {
		return l, err
	}
	if l.Villain, err = effectNames.Parse(tok[2]); err != nil {
		return l, err
	}
	if !l.Hero.gmEffect() || !l.Villain.gmEffect() {
		return l, fmt.Errorf("line %q: line effects are Flurry, Inspiration, Up, Break, Confused, Fatigued, Setback, Stymied or -", s)
	}
	if len(tok) == 4 {
		if l.VillainAction, err = actNames.Parse(tok[3]); err != nil {
			return l, err
		}
		if !l.VillainAction.Approved() {
			return l, fmt.Errorf("line %q: villain action must be an approved action", s)
		}
	}
	return l, nil
}

// readCardName reads a card name in a deck file leniently, as people
// write them: case, spaces, underscores, hyphens and apostrophes aside
// ("coup de grace", "Opponent_Fails"). Everything else in the file, and
// every name in JSON, is read exactly as written.
func readCardName(s string) (Name, error) {
	k := squash(s)
	for n := Action; n < numNames; n++ {
		if squash(nameNames[n]) == k {
			return n, nil
		}
	}
	return NoName, fmt.Errorf("unknown card %q; allowed %s", s, named.Allowed(nameNames[1:]))
}

// squash folds a name for lenient matching: lower case, without spaces,
// underscores, hyphens or apostrophes.
func squash(s string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case ' ', '_', '-', '\'':
			return -1
		}
		return unicode.ToLower(r)
	}, strings.TrimSpace(s))
}

func (e Effect) gmEffect() bool { return e <= Stymied }

// Format writes d in the full-card form ParseDeck reads, merging runs of
// identical cards into one counted line.
func (d *Deck) Format(w io.Writer) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, "# dramadeck deck: <count> <Name> | S: <first> <hero> <villain> [<villain action>] | D: ... | Act: <actions> | Bar: <bar>")
	line := func(l Line) string {
		s := fmt.Sprintf("%v %v %v", l.First, l.Hero, l.Villain)
		if l.VillainAction != NoAct {
			s += " " + l.VillainAction.String()
		}
		return s
	}
	for i := 0; i < len(d.Cards); {
		j := i + 1
		for j < len(d.Cards) && d.Cards[j] == d.Cards[i] {
			j++
		}
		c := d.Cards[i]
		acts := c.Approved[0].String()
		if c.Approved[1] != NoAct {
			acts += ", " + c.Approved[1].String()
		}
		fmt.Fprintf(bw, "%d %v | S: %s | D: %s | Act: %s | Bar: %v\n", j-i, c.Name, line(c.Standard), line(c.Dramatic), acts, c.Bar)
		i = j
	}
	return bw.Flush()
}
