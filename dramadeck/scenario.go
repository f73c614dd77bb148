package dramadeck

import (
	"context"
	"fmt"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim"
	"github.com/stakesrpg/stakes/sim/markov"
)

// Scenario is one simulated encounter: rules, deck, the two sides and the
// policies by registry name.
type Scenario struct {
	Rules Rules `json:"rules"`
	// Deck is a player-side composition; empty means the shipped default
	// deck. A composition's GM sides are generated from DeckSeed.
	Deck     []Count `json:"deck,omitempty"`
	DeckSeed uint64  `json:"deck_seed,omitempty"`
	// Dramatic reads the D: lines of the action stack (a Dramatic scene).
	Dramatic  bool        `json:"dramatic"`
	Heroes    []Character `json:"heroes"`
	Villains  []Character `json:"villains"`
	MaxRounds int         `json:"max_rounds"`
	// HeroPolicy and GMPolicy name shipped policies (PolicyNames).
	HeroPolicy string `json:"hero_policy"`
	GMPolicy   string `json:"gm_policy"`
}

func pc(name string, speed, hp, fp int, atk, def int, dmg Damage, dr, iq, will int, trick, infl, intim, man int, poss int) Character {
	sk := func(l int) Skill { return Skill{Level: l, Default: l - 5} }
	return Character{Name: name, Speed: speed, MaxHP: hp, HP: hp, MaxFP: fp, FP: fp,
		Attack: sk(atk), Defense: def, Damage: dmg, DR: dr, IQ: iq, Will: will,
		Trick: sk(trick), Influence: sk(infl), Intimidation: sk(intim), Maneuver: sk(man), Possibilities: poss}
}

// DefaultScenario is three pulp heroes against a boss and three thugs in a
// Standard scene, both sides on the default policy.
func DefaultScenario() Scenario {
	return Scenario{
		Rules: DefaultRules(),
		Heroes: []Character{
			pc("Brick", 22, 14, 12, 14, 9, Damage{2, 1}, 2, 10, 12, 10, 10, 14, 13, 2),
			pc("Face", 24, 11, 11, 12, 10, Damage{1, 2}, 1, 13, 13, 15, 15, 13, 12, 2),
			pc("Ace", 28, 12, 10, 15, 11, Damage{2, 0}, 1, 11, 11, 11, 10, 10, 15, 2),
		},
		Villains: []Character{
			pc("Boss", 26, 16, 12, 14, 10, Damage{2, 2}, 2, 12, 14, 13, 12, 14, 13, 2),
			pc("Thug 1", 20, 11, 10, 12, 8, Damage{1, 3}, 1, 9, 10, 9, 9, 12, 11, 0),
			pc("Thug 2", 20, 11, 10, 12, 8, Damage{1, 3}, 1, 9, 10, 9, 9, 12, 11, 0),
			pc("Thug 3", 20, 11, 10, 12, 8, Damage{1, 3}, 1, 9, 10, 9, 9, 12, 11, 0),
		},
		MaxRounds:  30,
		HeroPolicy: "default",
		GMPolicy:   "default",
	}
}

// Validate reports the first problem, naming the field.
func (s Scenario) Validate() error {
	if err := s.Rules.Validate(); err != nil {
		return err
	}
	if len(s.Deck) > 0 {
		if _, err := checkComposition(s.Deck); err != nil {
			return fmt.Errorf("deck: %w", err)
		}
	}
	if len(s.Heroes) == 0 || len(s.Heroes) > 16 {
		return fmt.Errorf("heroes: %d, need 1..16", len(s.Heroes))
	}
	if len(s.Villains) == 0 || len(s.Villains) > 32 {
		return fmt.Errorf("villains: %d, need 1..32", len(s.Villains))
	}
	for i := range s.Heroes {
		if err := s.Heroes[i].check(fmt.Sprintf("heroes[%d]", i)); err != nil {
			return err
		}
	}
	for i := range s.Villains {
		if err := s.Villains[i].check(fmt.Sprintf("villains[%d]", i)); err != nil {
			return err
		}
	}
	if s.MaxRounds < 1 || s.MaxRounds > 1000 {
		return fmt.Errorf("max_rounds: %d, must be 1..1000", s.MaxRounds)
	}
	if _, err := PolicyByName(s.HeroPolicy); err != nil {
		return fmt.Errorf("hero_policy: %w", err)
	}
	if _, err := PolicyByName(s.GMPolicy); err != nil {
		return fmt.Errorf("gm_policy: %w", err)
	}
	return nil
}

// Categories are the encounter outcomes.
func (s Scenario) Categories() []string {
	return []string{"heroes_win", "villains_win", "escaped", "timed_out"}
}

// Metrics are the integer measures of a trial.
func (s Scenario) Metrics() []string {
	return []string{"rounds", "flurry_rounds", "cards_played", "cards_drawn", "heroes_down", "villains_down", "flips"}
}

// Exact is not available for an encounter: card plays, targets and damage
// make the state space far too large. Use DrawOdds, Hypergeometric and
// TaskChance for the exact parts.
func (s Scenario) Exact(ctx context.Context) (markov.Answer, error) {
	if err := s.Validate(); err != nil {
		return markov.Answer{}, err
	}
	return markov.Answer{}, fmt.Errorf("%w: an encounter under the cards (hands, pools, targets, damage) has no small exact model; see DrawOdds and TaskChance", markov.ErrNoExact)
}

// Runner plays trials of one scenario. One Runner per goroutine.
type Runner struct {
	s        Scenario
	g        *game // the trials' state, played with no Sink
	heroes   []Character
	villains []Character
	pol      Table
}

// MakeDeck returns the scenario's deck: the shipped default, or its
// composition with GM faces generated from DeckSeed.
func (s Scenario) MakeDeck() (*Deck, error) { return s.deck() }

func (s Scenario) deck() (*Deck, error) {
	if len(s.Deck) == 0 {
		return DefaultDeck()
	}
	return Generate(s.Deck, s.DeckSeed)
}

// NewRunner validates the scenario and preallocates everything a trial needs.
func (s Scenario) NewRunner() (*Runner, error) {
	st, err := s.newState()
	if err != nil {
		return nil, err
	}
	g := &game{State: st}
	pol, err := s.Policies()
	if err != nil {
		return nil, err
	}
	rn := &Runner{s: s, g: g, pol: pol,
		heroes: append([]Character(nil), g.State.Heroes...), villains: append([]Character(nil), g.State.Villains...)}
	return rn, nil
}

// newState validates the scenario and lays out its game before the deal:
// the deck built, the heroes and villains placed.
func (s Scenario) newState() (*State, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	d, err := s.deck()
	if err != nil {
		return nil, err
	}
	return NewState(s.Rules, d, s.Heroes, s.Villains)
}

// begin starts the encounter of game g, at the scenario's start with
// every card in the draw pile: the deck shuffled, each player dealt his
// hand as his hero enters play, combat begun.
func (s Scenario) begin(g *game, r *dice.Roller) {
	g.Shuffle(r)
	for p := range g.State.Players {
		_ = g.EnterPlay(r, p) // a player short of cards plays with fewer
	}
	_ = g.StartCombat(s.Dramatic) // a fresh game is out of combat
	g.State.MaxRounds = s.MaxRounds
}

// Policies returns the scenario's policies: HeroPolicy for the players,
// GMPolicy for the GM.
func (s Scenario) Policies() (Table, error) {
	heroes, err := PolicyByName(s.HeroPolicy)
	if err != nil {
		return Table{}, fmt.Errorf("hero_policy: %w", err)
	}
	gm, err := PolicyByName(s.GMPolicy)
	if err != nil {
		return Table{}, fmt.Errorf("gm_policy: %w", err)
	}
	return Table{Heroes: heroes, GM: gm}, nil
}

// State exposes the runner's game (its state after the last trial).
func (rn *Runner) State() *State { return rn.g.State }

// reset puts the game at the scenario's start: all cards in the draw pile.
func (rn *Runner) reset() {
	g := rn.g
	s := g.State
	draw := s.Draw[:len(s.Deck.Cards)]
	for i := range draw {
		draw[i] = i
	}
	s.Discard, s.Stack = s.Discard[:0], s.Stack[:0]
	for p := range s.Players {
		pl := &s.Players[p]
		*pl = Player{Hand: pl.Hand[:0], Pool: pl.Pool[:0], Permanent: pl.Permanent[:0]}
	}
	copy(s.Heroes, rn.heroes)
	copy(s.Villains, rn.villains)
	*s = State{Rules: s.Rules, Deck: s.Deck, Act: 1, Scene: 1, MaxRounds: rn.s.MaxRounds,
		Draw: draw, Discard: s.Discard, Stack: s.Stack, Queue: s.Queue[:0],
		Players: s.Players, Heroes: s.Heroes, Villains: s.Villains, Tasks: s.Tasks[:0],
		turns: s.turns, moveBuf: s.moveBuf, playBuf: s.playBuf}
}

// Trial plays one encounter from the start by Engine.Play and fills
// metrics (see Metrics); it returns the category index, or the error that
// stopped the trial (a policy's illegal answer, a nil Roller).
func (rn *Runner) Trial(r *dice.Roller, metrics []int) (int, error) {
	if r == nil {
		return 0, dice.ErrNilRoller
	}
	rn.reset()
	g := rn.g
	rn.s.begin(g, r)
	if err := g.Play(r, rn.pol.Heroes, rn.pol.GM); err != nil {
		return 0, err
	}
	return outcome(g.State, metrics)
}

// outcome is a finished encounter's category index, its metrics written
// into metrics (as many as fit).
func outcome(s *State, metrics []int) (int, error) {
	if s.Outcome == Ongoing || s.Outcome > TimedOut {
		return 0, fmt.Errorf("the encounter has not ended (outcome %v)", s.Outcome)
	}
	hd, vd := 0, 0
	for i := range s.Heroes {
		if !s.Heroes[i].Active() {
			hd++
		}
	}
	for i := range s.Villains {
		if !s.Villains[i].Active() {
			vd++
		}
	}
	vals := [...]int{s.Round, s.FlurryRounds, s.CardsPlayed, s.CardsDrawn, hd, vd, s.Flips}
	copy(metrics, vals[:])
	return int(s.Outcome) - 1, nil
}

// Describe says what the mechanic is, the scenario as it is set (sides,
// line, policies), and what each outcome and metric means.
func (s Scenario) Describe() sim.Description {
	line := "Standard"
	if s.Dramatic {
		line = "Dramatic"
	}
	return sim.Description{
		Summary: "the Drama Deck over GURPS 3d6 checks (Roger Bell_West's GURPS adaptation of the Torg Drama Deck)",
		Title: fmt.Sprintf("%d heroes against %d villains, %s lines, at most %d rounds, heroes play %s, GM plays %s",
			len(s.Heroes), len(s.Villains), line, s.MaxRounds, s.HeroPolicy, s.GMPolicy),
		Terms: []sim.Term{
			{Key: "heroes_win", Text: "the villains are all down (out, fled or dead): the heroes win the encounter"},
			{Key: "villains_win", Text: "the heroes are all down: the villains win"},
			{Key: "escaped", Text: "a hero played the Escape card and the heroes got away"},
			{Key: "timed_out", Text: "the encounter reached its round limit (max_rounds) with neither side down"},
			{Key: "rounds", Text: "combat rounds played"},
			{Key: "flurry_rounds", Text: "rounds in which the action stack gave a side a Flurry (a second pass of actions)"},
			{Key: "cards_played", Text: "cards the players played from their hands and pools"},
			{Key: "cards_drawn", Text: "cards the players drew into their hands"},
			{Key: "heroes_down", Text: "heroes out, fled or dead at the end"},
			{Key: "villains_down", Text: "villains out, fled or dead at the end"},
			{Key: "flips", Text: "cards the GM turned from the deck onto the action stack: one a round (unless Seize Initiative kept the last), one more each time Seize Initiative turns another"},
		},
	}
}
