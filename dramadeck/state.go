package dramadeck

import (
	"errors"
	"fmt"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/named"
)

// Skill is a skill level and the default used when Unskilled strikes.
type Skill struct {
	Level   int `json:"level"`
	Default int `json:"default"`
}

// Damage is a GURPS damage roll: Dice d6 plus Add.
type Damage struct {
	Dice int `json:"dice"`
	Add  int `json:"add"`
}

// Kind of roll "for card purposes": Adrenalin boosts physical rolls,
// Willpower intellectual ones, Presence interpersonal ones.
type RollKind uint8

// Roll kinds.
const (
	Physical RollKind = iota
	Intellectual
	Interpersonal
)

// Status is a character's changing condition in play.
type Status struct {
	Out     bool `json:"out,omitempty"`     // HP or FP at 0: out of the fight
	Fled    bool `json:"fled,omitempty"`    // fled or conceded (Break)
	Dead    bool `json:"dead,omitempty"`    // Martyr
	Stunned bool `json:"stunned,omitempty"` // loses the next action; Inspiration clears it
	// Posture is Defend (All-Out Defence) or AllOutAttack, held until the
	// character acts again (GM Side, postures).
	Posture Act `json:"posture,omitempty"`
	// RoundBonus: Action cards, to every action this round.
	RoundBonus int `json:"round_bonus,omitempty"`
	// Next: Adrenalin/Willpower/Presence bonus to the next roll of each kind.
	Next [3]int `json:"next,omitempty"`
	// Support: Supporter bonus to the next roll.
	Support int `json:"support,omitempty"`
	// Coup: Coup de Grace cards waiting for the next damage total.
	Coup int `json:"coup,omitempty"`
	// Up: free Possibility-equivalents, spent this round or lost.
	Up int `json:"up,omitempty"`
	// CardPoss: Drama and Hero cards played, each an extra Possibility
	// spent on the next failed roll.
	CardPoss int `json:"card_poss,omitempty"`
	// Luck: Second Chance cards waiting for a failed action.
	Luck int `json:"luck,omitempty"`
	// Fails: Opponent Fails cards waiting for a success against the character.
	Fails int `json:"fails,omitempty"`
	// StymiedPoss: the GM's Stymied, cancels the next Possibility spend.
	StymiedPoss bool `json:"stymied_poss,omitempty"`
	// StymiedNext: the margin table's Stymied: cancels the next Possibility
	// or bonus card; lapses at the end of the character's next action.
	StymiedNext bool `json:"stymied_next,omitempty"`
	Unskilled   bool `json:"unskilled,omitempty"`   // next action at default
	LoseAction  bool `json:"lose_action,omitempty"` // Setback: loses the next action
	Broken      bool `json:"broken,omitempty"`      // Break: flees unless the next action harms
	Harmed      bool `json:"harmed,omitempty"`      // did HP damage to an opponent this round
	Extra       int  `json:"extra,omitempty"`       // Haste: extra actions owed now
	Crit        bool `json:"crit,omitempty"`        // rolled a critical success this scene (Glory)
	Alert       int  `json:"alert,omitempty"`       // Alertness: automatic successes at finding things
	Connections int  `json:"connections,omitempty"` // Connection cards played
}

// Character is one combatant of the simulation model: GURPS-style skills,
// an attack, an active defence and HP/FP tracks.
type Character struct {
	Name  string `json:"name"`
	Speed int    `json:"speed"` // order within a side, highest first (Basic Speed x 4, say)
	MaxHP int    `json:"max_hp"`
	HP    int    `json:"hp"`
	MaxFP int    `json:"max_fp"`
	FP    int    `json:"fp"`
	// Attack is the attack skill; Defense the best active defence.
	Attack  Skill  `json:"attack"`
	Defense int    `json:"defense"`
	Damage  Damage `json:"damage"`
	DR      int    `json:"dr"`
	IQ      int    `json:"iq"`
	Will    int    `json:"will"`
	// Contest skills: Trick (IQ or Fast-Talk), Influence (Taunt),
	// Intimidation, Maneuver (a DX-based skill).
	Trick        Skill `json:"trick"`
	Influence    Skill `json:"influence"`
	Intimidation Skill `json:"intimidation"`
	Maneuver     Skill `json:"maneuver"`
	// Possibilities the character may spend: each re-rolls a failed roll,
	// keeping the better result [ours].
	Possibilities int    `json:"possibilities"`
	Status        Status `json:"status"`
}

// Fresh returns c with HP and FP of 0 read as full, the way a designer
// leaves them out of a scenario file.
func (c Character) Fresh() Character {
	if c.HP == 0 {
		c.HP = c.MaxHP
	}
	if c.FP == 0 {
		c.FP = c.MaxFP
	}
	return c
}

// Active reports whether the character can still act.
func (c *Character) Active() bool {
	st := &c.Status
	return !st.Out && !st.Fled && !st.Dead
}

func (c *Character) check(field string) error {
	switch {
	case len(c.Name) > maxName:
		return fmt.Errorf("%s.name: %d bytes, at most %d", field, len(c.Name), maxName)
	case c.MaxHP < 1:
		return fmt.Errorf("%s.max_hp: %d, must be >= 1", field, c.MaxHP)
	case c.MaxFP < 1:
		return fmt.Errorf("%s.max_fp: %d, must be >= 1", field, c.MaxFP)
	case c.HP > c.MaxHP || c.FP > c.MaxFP:
		return fmt.Errorf("%s: hp/fp above max", field)
	case c.Damage.Dice < 0 || c.Damage.Dice > 20:
		return fmt.Errorf("%s.damage.dice: %d, must be 0..20", field, c.Damage.Dice)
	case c.DR < 0:
		return fmt.Errorf("%s.dr: must be >= 0", field)
	case c.MaxHP > maxTrack || c.MaxFP > maxTrack:
		return fmt.Errorf("%s: max_hp and max_fp must be at most %d", field, maxTrack)
	case c.HP < 0 || c.FP < 0:
		return fmt.Errorf("%s: hp and fp must be >= 0 (0 reads as full)", field)
	case c.Damage.Add < -maxCount || c.Damage.Add > maxCount || c.DR > maxCount:
		return fmt.Errorf("%s: damage.add and dr must be within %d", field, maxCount)
	case c.Possibilities < 0 || c.Possibilities > maxCount:
		return fmt.Errorf("%s.possibilities: must be 0..%d", field, maxCount)
	}
	for _, s := range []struct {
		n string
		v int
	}{{"attack.level", c.Attack.Level}, {"defense", c.Defense}, {"iq", c.IQ}, {"will", c.Will},
		{"trick.level", c.Trick.Level}, {"influence.level", c.Influence.Level},
		{"intimidation.level", c.Intimidation.Level}, {"maneuver.level", c.Maneuver.Level}} {
		if s.v < -10 || s.v > 40 {
			return fmt.Errorf("%s.%s: %d, must be -10..40", field, s.n, s.v)
		}
	}
	return nil
}

// Player holds one player's cards; player i plays hero i.
type Player struct {
	Hand []int `json:"hand"`
	Pool []int `json:"pool"`
	// MayMove: the hero took a scene-moving action this round and the
	// player has not yet moved a card from hand to pool.
	MayMove  bool `json:"may_move,omitempty"`
	Moved    bool `json:"moved,omitempty"`    // moved a card to pool this round
	Declared bool `json:"declared,omitempty"` // declared this round's plays
	// Pooled counts cards moved to pool since the encounter began (Escape
	// must be the first).
	Pooled int `json:"pooled,omitempty"`
	// CriticalAct is the Act in which a Critical Moment was declared (0 = none).
	CriticalAct int `json:"critical_act,omitempty"`
	// Traded: the player made (or declined) his trade this round.
	Traded    bool  `json:"traded,omitempty"`
	Ideas     int   `json:"ideas,omitempty"`     // Idea cards played
	Permanent []int `json:"permanent,omitempty"` // subplots made permanent by Campaign
	Award     int   `json:"award,omitempty"`     // Possibilities earned for the adventure's end
}

// Outcome of an encounter.
type Outcome uint8

// Encounter outcomes (Scenario categories, in this order).
const (
	Ongoing Outcome = iota
	HeroesWin
	VillainsWin
	Escaped
	TimedOut
)

var outcomeNames = named.Enum[Outcome]{"ongoing", "heroes_win", "villains_win", "escaped", "timed_out"}

func (o Outcome) String() string { return outcomeNames.String(o) }

// MarshalText writes the outcome name.
func (o Outcome) MarshalText() ([]byte, error) { return outcomeNames.Marshal(o) }

// UnmarshalText reads an outcome name.
func (o *Outcome) UnmarshalText(b []byte) error { return outcomeNames.Unmarshal(b, o) }

// State is the whole game as one saveable value: the rules and the deck
// it is played with, every pile, every character, the round's phase and
// acting order, the tasks under way and the study's Plan. It is JSON as
// it is (State.Save; Game.Save and Scenario.Restore save and read it with
// its scenario); Check validates a restored state whole. Cards are
// indices into Deck; each is in exactly one of Draw, Discard, Stack, a
// Hand or a Pool.
type State struct {
	// Rules are the rules of play; a designer may change them between
	// steps (BeginRound and the task and scene steps check them again).
	Rules Rules `json:"rules"`
	// Deck is the deck in play: piles hold indices into Deck.Cards.
	Deck Deck `json:"deck"`

	Act    int  `json:"act"`
	Scene  int  `json:"scene"`
	Round  int  `json:"round"`
	Combat bool `json:"combat"`
	// Phase is where the combat round stands; Queue the characters yet to
	// take their action this round, in order (Turn).
	Phase    Phase `json:"phase"`
	Queue    []int `json:"queue"`
	Dramatic bool  `json:"dramatic"` // read the D: line rather than S:

	Draw    []int `json:"draw"`    // top is last
	Discard []int `json:"discard"` // top is last
	Stack   []int `json:"stack"`   // the action stack; the current card is last

	Players  []Player    `json:"players"`
	Heroes   []Character `json:"heroes"`
	Villains []Character `json:"villains"`

	// Line is the current action stack line (S: or D: of the top card).
	Line Line `json:"line"`
	// Retain: Seize Initiative kept the current card for the next round.
	Retain bool `json:"retain,omitempty"`
	// Per-round flags set by the line: Flurry and Setback per side,
	// Confused (heroes' pools locked), Break (villains), Monologue.
	Flurry    [2]bool `json:"flurry"`
	Setback   [2]bool `json:"setback"`
	Confused  bool    `json:"confused,omitempty"`
	Break     [2]bool `json:"break"`
	Monologue bool    `json:"monologue,omitempty"`

	// Planned counts events the GM has prepared (allies waver, the
	// opposition is reinforced, equipment fails...): a Setback line fires
	// one instead of barring the side's harmful actions.
	Planned int `json:"planned,omitempty"`

	Outcome Outcome `json:"outcome"`
	// MaxRounds ends the encounter as TimedOut once that many rounds
	// have passed (0: no limit).
	MaxRounds int `json:"max_rounds,omitempty"`
	Glory     int `json:"glory"` // Glory cards played this adventure

	// Tasks are the Dramatic Skill Resolutions started (StartTask), in
	// progress or over.
	Tasks []TaskState `json:"tasks,omitempty"`
	// Plan is the play beyond one encounter Engine.Step follows (a task, a
	// scene, an adventure: Scenario.Study); nil plays one encounter.
	Plan *Plan `json:"plan,omitempty"`
	// Question is the choice a step stopped at, asked as a step of its
	// own (Engine.Ask), until it is answered (Engine.Reply); the state
	// is the game as that step found it. A question a step writes, and
	// what it lists, live in buffers the State keeps and reuses: good
	// until the step after the one that answers it (Save it, or copy it
	// with its slices, to keep it longer).
	Question *Question `json:"question,omitempty"`

	// Counters for reports.
	Flips        int `json:"flips"`
	FlurryRounds int `json:"flurry_rounds"`
	CardsPlayed  int `json:"cards_played"`
	CardsDrawn   int `json:"cards_drawn"`

	// lend is what the steps lend and keep, not saved (see lent).
	lend lent
}

// lent is what the steps taken on a State lend the policies they ask and
// keep for themselves, refilled for each question or step and never
// saved: the views policies are shown and the buffers their answers are
// written into, what a step that may still be refused keeps to put back
// (undo.go), and how questions asked as steps are answered (asked.go).
// It is reused from step to step, so that playing allocates nothing.
type lent struct {
	moveBuf []int    // Critical Moment moves
	hands   hands    // a scene's end's hands as it found them
	turns   []int    // the round's acting order as set; Queue is what is left of it
	playBuf []Play   // declarations
	v       View     // what a policy is shown (see view)
	tv      TaskView // what a policy is shown of a task (see taskView)

	// What a step that may be refused once begun keeps to put back: its
	// mark, or the whole game while a question's step is taken again; the
	// Roller's bytes; the events it holds until it is taken.
	mark   mark
	whole  *State
	roller []byte
	held   []Event
	// rollerNow is the Roller's bytes once the step is undone, to compare;
	// wholeRoller its bytes before a question's step is taken again.
	rollerNow, wholeRoller []byte
	// refused is an answer a step took that refuses it, found where it was
	// given: a Chooser's of the wrong type.
	refused error
	ask     asker
	asked   [2]asked
	reply   Reply // the answer Engine.Reply was given
}

// view shows the state to a policy asking about who (a player, or a
// character): a View the engine refills for each question.
func (g *game) view(who int) *View {
	g.State.lend.v = View{State: g.State, Who: who}
	return &g.State.lend.v
}

// Characters are addressed by one index: heroes 0..len(Heroes)-1 (hero i is
// player i's character), then villains.
func (g *game) char(ci int) *Character { return g.State.char(ci) }

// char is character ci, heroes first, then villains.
func (s *State) char(ci int) *Character {
	if ci < len(s.Heroes) {
		return &s.Heroes[ci]
	}
	return &s.Villains[ci-len(s.Heroes)]
}

// Char is State.Char on g.State.
func (g *game) Char(ci int) (*Character, error) {
	if err := g.checkChar(ci); err != nil {
		return nil, err
	}
	return g.char(ci), nil
}

func (g *game) checkChar(ci int) error {
	if n := len(g.State.Heroes) + len(g.State.Villains); ci < 0 || ci >= n {
		return fmt.Errorf("character %d does not exist (have 0..%d)", ci, n-1)
	}
	return nil
}

func (g *game) side(ci int) Side { return g.State.side(ci) }

// side is the side of character ci.
func (s *State) side(ci int) Side {
	if ci < len(s.Heroes) {
		return Heroes
	}
	return Villains
}

func (g *game) checkPlayer(p int) error {
	if p < 0 || p >= len(g.State.Players) {
		return fmt.Errorf("player %d does not exist (have 0..%d)", p, len(g.State.Players)-1)
	}
	return nil
}

// NewState seats one player per hero, puts the whole deck in the draw pile
// in deck order (call Engine.Shuffle, then EnterPlay) and starts Act 1,
// Scene 1.
func NewState(rules Rules, deck *Deck, heroes, villains []Character) (*State, error) {
	if err := rules.Validate(); err != nil {
		return nil, err
	}
	if deck == nil || len(deck.Cards) == 0 {
		return nil, errors.New("dramadeck: empty deck")
	}
	if len(heroes) == 0 {
		return nil, errors.New("dramadeck: no heroes (need at least one player)")
	}
	for i := range heroes {
		if err := heroes[i].check(fmt.Sprintf("heroes[%d]", i)); err != nil {
			return nil, err
		}
	}
	for i := range villains {
		if err := villains[i].check(fmt.Sprintf("villains[%d]", i)); err != nil {
			return nil, err
		}
	}
	s := &State{Rules: rules, Deck: *deck.Clone()}
	n := len(deck.Cards)
	s.Draw = make([]int, n)
	for i := range s.Draw {
		s.Draw[i] = i
	}
	s.Discard = make([]int, 0, n)
	s.Stack = make([]int, 0, n)
	s.Players = make([]Player, len(heroes))
	for i := range s.Players {
		s.Players[i].Hand = make([]int, 0, n)
		s.Players[i].Pool = make([]int, 0, n)
	}
	s.Heroes = make([]Character, len(heroes))
	for i := range heroes {
		s.Heroes[i] = heroes[i].Fresh()
	}
	s.Villains = make([]Character, len(villains))
	for i := range villains {
		s.Villains[i] = villains[i].Fresh()
	}
	s.Act, s.Scene = 1, 1
	s.lend.turns = make([]int, 0, 2*(len(heroes)+len(villains)))
	s.Queue = s.lend.turns
	s.lend.moveBuf = make([]int, 0, n)
	s.lend.playBuf = make([]Play, 0, n)
	return s, nil
}

// Shuffle is Engine.Shuffle on g.State.
func (g *game) Shuffle(r *dice.Roller) {
	r.ShuffleInts(g.State.Draw)
}

// Where is State.Where on g.State.
func (g *game) Where(id int) (string, error) {
	var at []string
	look := func(name string, pile []int) {
		for _, c := range pile {
			if c == id {
				at = append(at, name)
			}
		}
	}
	s := g.State
	look("draw", s.Draw)
	look("discard", s.Discard)
	look("stack", s.Stack)
	for i := range s.Players {
		look(fmt.Sprintf("hand %d", i), s.Players[i].Hand)
		look(fmt.Sprintf("pool %d", i), s.Players[i].Pool)
	}
	if len(at) != 1 {
		return "", fmt.Errorf("card %d is in %d places %v", id, len(at), at)
	}
	return at[0], nil
}

// CheckCards is State.CheckCards on g.State.
func (g *game) CheckCards() error { return g.State.checkCards() }

func indexOf(pile []int, id int) int {
	for i, c := range pile {
		if c == id {
			return i
		}
	}
	return -1
}

// remove deletes pile[i] keeping order.
func remove(pile []int, i int) []int {
	return append(pile[:i], pile[i+1:]...)
}
