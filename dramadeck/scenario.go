//go:generate go run github.com/stakesrpg/stakes/cmd/settingsdoc

package dramadeck

import (
	"context"
	"errors"
	"fmt"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim"
	"github.com/stakesrpg/stakes/sim/markov"
)

// Scenario is one simulated study: rules, deck, the two sides, the
// policies by registry name, and what is played (Study): one encounter,
// a Dramatic Skill Resolution, a scene or an adventure.
type Scenario struct {
	// Study is what a trial plays, from the deal to its end (the default:
	// one encounter).
	Study Study `json:"study,omitempty"`
	Rules Rules `json:"rules"`
	// Deck is a player-side composition; empty means the shipped default
	// deck. A composition's GM sides are generated from DeckSeed (0:
	// DefaultSeed, so that the default composition spelled out is the
	// shipped deck) in the proportions Faces (zero: DefaultFaces).
	Deck     []Count `json:"deck,omitempty"`
	DeckSeed uint64  `json:"deck_seed,omitempty"`
	Faces    Faces   `json:"faces,omitzero"`
	// Cards is a whole deck, both faces of every card given (as ParseDeck
	// reads a deck file); it replaces Deck, DeckSeed and Faces.
	Cards []Card `json:"cards,omitempty"`
	// Dramatic reads the D: lines of the action stack (a Dramatic scene).
	Dramatic  bool        `json:"dramatic"`
	Heroes    []Character `json:"heroes"`
	Villains  []Character `json:"villains"`
	MaxRounds int         `json:"max_rounds"`
	// HeroPolicy and GMPolicy name shipped policies (PolicyNames).
	HeroPolicy string `json:"hero_policy"`
	GMPolicy   string `json:"gm_policy"`
	// Task is hero 0's Dramatic Skill Resolution in a task or a scene
	// study; TaskInCombat works it during a fight (a task study; a scene
	// always does).
	Task         Task `json:"task,omitzero"`
	TaskInCombat bool `json:"task_in_combat,omitempty"`
	// Acts and ScenesPerAct shape an adventure study.
	Acts         int `json:"acts,omitempty"`
	ScenesPerAct int `json:"scenes_per_act,omitempty"`
}

// BombDisposal is the Dramatic Skill Resolution the text suggests: a bomb
// to make safe in four steps, each harder than the last, against a
// ten-round clock, with Explosives 14 and Electronics Repair 12 to switch
// to on a Critical Problem; an intellectual task, for the cards.
func BombDisposal() Task {
	return Task{Skill: 14, Alternate: 12, Modifiers: [4]int{0, -1, -2, -3}, Rounds: 10, Kind: Intellectual}
}

// Builtins are the built-in scenarios by name: the encounter
// (DefaultScenario), the bomb disposal out of combat ("task") and under
// fire ("task_in_combat"), a scene of both ("scene"), and an adventure
// of two Acts of two scenes ("adventure").
//
// The task spells its deck out as the default composition, which with
// the default seed and proportions is the shipped deck card for card, so
// that deck_seed and faces reach it: a designer sweeping the seed sees
// how much the shipped deck's own skill bars matter to a task. In the
// scene the GM plays aggressive, his villains attacking all-out to stop
// the disposal.
func Builtins() map[string]Scenario {
	task, fire, scene, adv := DefaultScenario(), DefaultScenario(), DefaultScenario(), DefaultScenario()
	task.Study, task.Task, task.Deck = StudyTask, BombDisposal(), DefaultComposition()
	fire.Study, fire.Task, fire.TaskInCombat = StudyTask, BombDisposal(), true
	scene.Study, scene.Task, scene.GMPolicy = StudyScene, BombDisposal(), "aggressive"
	adv.Study, adv.Acts, adv.ScenesPerAct = StudyAdventure, 2, 2
	return map[string]Scenario{"encounter": DefaultScenario(), "task": task, "task_in_combat": fire, "scene": scene, "adventure": adv}
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
	if err := s.checkDeck(); err != nil {
		return err
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
	return s.checkStudy()
}

// checkStudy validates what the study needs and refuses settings of
// another study.
func (s Scenario) checkStudy() error {
	task := s.Study == StudyTask || s.Study == StudyScene
	switch {
	case s.Study >= numStudies:
		return fmt.Errorf("study: %d is not a study", s.Study)
	case task:
		if err := s.Task.Check(); err != nil {
			return err
		}
	case s.Task.Rounds != 0 || s.TaskInCombat:
		return fmt.Errorf("task: only a task or a scene study works a task, not %v", s.Study)
	}
	switch {
	case s.TaskInCombat && s.Study != StudyTask:
		return errors.New("task_in_combat: only a task study chooses (a scene always works its task in the fight)")
	case s.Study == StudyAdventure && (s.Acts < 1 || s.Acts > maxScenes || s.ScenesPerAct < 1 || s.ScenesPerAct > maxScenes):
		return fmt.Errorf("acts %d, scenes_per_act %d: each must be 1..%d", s.Acts, s.ScenesPerAct, maxScenes)
	case s.Study != StudyAdventure && (s.Acts != 0 || s.ScenesPerAct != 0):
		return fmt.Errorf("acts and scenes_per_act: only an adventure has them, not %v", s.Study)
	}
	return nil
}

// Categories are the outcomes of the study: an encounter's or a scene's
// fight, a task's end, an adventure's scenes.
func (s Scenario) Categories() []string {
	switch s.Study {
	case StudyTask:
		return []string{"finished", "last_ditch", "failed", "abandoned"}
	case StudyAdventure:
		return []string{"triumph", "mixed", "defeat"}
	}
	return []string{"heroes_win", "villains_win", "escaped", "timed_out"}
}

// Metrics are the integer measures of a trial of the study.
func (s Scenario) Metrics() []string {
	switch s.Study {
	case StudyTask:
		return []string{"task_rounds", "steps_done", "restarts", "switched", "complications", "combat_rounds", "cards_drawn"}
	case StudyScene:
		return []string{"rounds", "task_done", "task_rounds", "cards_played", "cards_drawn", "cards_held", "heroes_down", "villains_down"}
	case StudyAdventure:
		return []string{"rounds", "scenes_won", "scenes_lost", "possibilities_awarded", "drama_held", "glory_played", "subplots_in_play", "cards_played"}
	}
	return []string{"rounds", "flurry_rounds", "cards_played", "cards_drawn", "heroes_down", "villains_down", "flips"}
}

// Exact is not available for an encounter: card plays, targets and damage
// make the state space far too large. Use DrawOdds, Hypergeometric and
// TaskChance for the exact parts.
func (s Scenario) Exact(ctx context.Context) (markov.Answer, error) {
	if err := s.Validate(); err != nil {
		return markov.Answer{}, err
	}
	return markov.Answer{}, fmt.Errorf("%w: an encounter under the cards (hands, pools, targets, damage) has no small exact model; stakes odds dramadeck gives the exact card and task odds", markov.ErrNoExact)
}

// Runner plays trials of one scenario. One Runner per goroutine.
type Runner struct {
	s        Scenario
	g        *game // the trials' state, played with no Sink
	heroes   []Character
	villains []Character
	pol      Table
	calls    [Maneuver + 1]bool // callsOf the trial's rules
}

// MakeDeck returns the scenario's deck: the shipped default, or its
// composition with GM faces generated from DeckSeed.
func (s Scenario) MakeDeck() (*Deck, error) { return s.deck() }

func (s Scenario) deck() (*Deck, error) {
	switch {
	case len(s.Cards) > 0:
		return (&Deck{Cards: s.Cards}).Clone(), nil
	case len(s.Deck) == 0:
		return DefaultDeck()
	}
	seed, faces := s.DeckSeed, s.Faces
	if seed == 0 {
		seed = DefaultSeed
	}
	if faces == (Faces{}) {
		faces = DefaultFaces()
	}
	return GenerateFaces(s.Deck, seed, faces)
}

// checkDeck validates the deck settings: a composition (with its seed and
// proportions) or a whole deck, not both.
func (s Scenario) checkDeck() error {
	switch {
	case len(s.Cards) > 0 && (len(s.Deck) > 0 || s.DeckSeed != 0 || s.Faces != Faces{}):
		return errors.New("cards: a whole deck replaces deck, deck_seed and faces; give one or the other")
	case len(s.Cards) > 0:
		return (&Deck{Cards: s.Cards}).check()
	case len(s.Deck) == 0 && (s.DeckSeed != 0 || s.Faces != Faces{}):
		return errors.New("deck_seed and faces: they shape a composition's GM faces; the shipped deck (no deck given) has its own")
	case len(s.Deck) > 0:
		if _, err := checkComposition(s.Deck); err != nil {
			return fmt.Errorf("deck: %w", err)
		}
	}
	if s.Faces != (Faces{}) {
		return s.Faces.Check()
	}
	return nil
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
	st, err := NewState(s.Rules, d, s.Heroes, s.Villains)
	if err != nil {
		return nil, err
	}
	st.Plan = s.plan()
	return st, nil
}

// begin starts the encounter of game g, at the scenario's start with
// every card in the draw pile: the deck shuffled, each player dealt his
// hand as his hero enters play, combat begun.
func (s *Scenario) begin(g *game, r *dice.Roller) {
	g.Shuffle(r)
	for p := range g.State.Players {
		_ = g.EnterPlay(r, p) // a player short of cards plays with fewer
	}
	st := g.State
	st.MaxRounds, st.Dramatic = s.MaxRounds, s.Dramatic
	if p := st.Plan; p != nil {
		if s.Study == StudyAdventure {
			p.Villains = append(p.Villains[:0], st.Villains...)
		}
		if s.Study == StudyTask || s.Study == StudyScene {
			_, _ = g.StartTask(0, s.Task) // checked by Validate
		}
		if s.Study == StudyTask && !s.TaskInCombat {
			p.Stage = StageTask
			return
		}
	}
	_ = g.StartCombat(s.Dramatic) // a fresh game is out of combat
}

// plan is the Plan a trial of the study starts with (nil: one encounter).
func (s Scenario) plan() *Plan {
	if s.Study == StudyEncounter {
		return nil
	}
	p := &Plan{Study: s.Study, InCombat: s.TaskInCombat}
	if s.Study == StudyAdventure {
		p.Acts, p.Scenes = s.Acts, s.ScenesPerAct
	}
	return p
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
	plan := s.Plan
	if plan != nil {
		*plan = Plan{Study: rn.s.Study, InCombat: rn.s.TaskInCombat, Acts: plan.Acts, Scenes: plan.Scenes, Villains: plan.Villains}
	}
	*s = State{Rules: s.Rules, Deck: s.Deck, Act: 1, Scene: 1, MaxRounds: rn.s.MaxRounds,
		Draw: draw, Discard: s.Discard, Stack: s.Stack, Queue: s.Queue[:0],
		Players: s.Players, Heroes: s.Heroes, Villains: s.Villains, Tasks: s.Tasks[:0], Plan: plan,
		lend: s.lend}
	rn.calls, g.calls = callsOf(&s.Rules.Margins), &rn.calls
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

// trial is Trial under ctx: the same steps, the context looked at every
// 256 of them, so that a long study (an adventure of many
// scenes of many rounds) stops within milliseconds of a cancel.
func (rn *Runner) trial(ctx context.Context, r *dice.Roller, metrics []int) (int, error) {
	rn.reset()
	g := rn.g
	rn.s.begin(g, r)
	for n := 0; !g.done(); n++ {
		if n%256 == 0 {
			if err := ctx.Err(); err != nil {
				return 0, err
			}
		}
		if err := g.step(r, rn.pol.Heroes, rn.pol.GM); err != nil {
			return 0, err
		}
	}
	return outcome(g.State, metrics)
}

// outcome is a finished game's category index, its metrics written into
// metrics (as many as fit).
func outcome(s *State, metrics []int) (int, error) {
	if !s.Done() {
		return 0, errors.New("dramadeck: the game has not ended")
	}
	if s.Plan != nil {
		return s.Plan.outcome(s, metrics), nil
	}
	if s.Outcome == Ongoing || s.Outcome > TimedOut {
		return 0, fmt.Errorf("the encounter has not ended (outcome %v)", s.Outcome)
	}
	hd, vd := down(s)
	vals := [...]int{s.Round, s.FlurryRounds, s.CardsPlayed, s.CardsDrawn, hd, vd, s.Flips}
	copy(metrics, vals[:])
	return int(s.Outcome) - 1, nil
}

// down counts the heroes and the villains out of the fight.
func down(s *State) (heroes, villains int) {
	for i := range s.Heroes {
		if !s.Heroes[i].Active() {
			heroes++
		}
	}
	for i := range s.Villains {
		if !s.Villains[i].Active() {
			villains++
		}
	}
	return heroes, villains
}

// Describe says what the mechanic is, the scenario as it is set (the
// study, sides, line, policies), and what each outcome and metric of its
// study means.
func (s Scenario) Describe() sim.Description {
	d := sim.Description{
		Summary: "the Drama Deck over GURPS 3d6 checks (Roger Bell_West's GURPS adaptation of the Torg Drama Deck)",
		Title:   s.title(),
		Docs:    fieldDocs,
		Inert:   s.Inert(),
	}
	for _, n := range append(s.Categories(), s.Metrics()...) {
		d.Terms = append(d.Terms, sim.Term{Key: n, Text: s.term(n)})
	}
	return d
}

// title is the scenario as set, in a line.
func (s Scenario) title() string {
	line := "Standard"
	if s.Dramatic {
		line = "Dramatic"
	}
	fight := fmt.Sprintf("%d heroes against %d villains, %s lines, at most %d rounds a fight, heroes play %s, GM plays %s",
		len(s.Heroes), len(s.Villains), line, s.MaxRounds, s.HeroPolicy, s.GMPolicy)
	t := s.Task
	task := fmt.Sprintf("a %d-step task at skill %d (alternate %d) in %d rounds", s.Rules.TaskSteps, t.Skill, t.Alternate, t.Rounds)
	switch s.Study {
	case StudyTask:
		if s.TaskInCombat {
			return fmt.Sprintf("%s, worked in the fight: %s", task, fight)
		}
		return fmt.Sprintf("%s out of combat, heroes play %s", task, s.HeroPolicy)
	case StudyScene:
		return fmt.Sprintf("a scene: %s, and hero 0 works %s", fight, task)
	case StudyAdventure:
		return fmt.Sprintf("an adventure of %d Acts of %d scenes: %s", s.Acts, s.ScenesPerAct, fight)
	}
	return fight
}

// terms say what each category and metric of every study means.
var terms = map[string]string{
	"heroes_win":            "the villains are all down (out, fled or dead): the heroes win the fight",
	"villains_win":          "the heroes are all down: the villains win the fight",
	"escaped":               "a hero played the Escape card and the heroes got away",
	"timed_out":             "the fight reached its round limit (max_rounds) with neither side down",
	"rounds":                "combat rounds played",
	"flurry_rounds":         "rounds in which the action stack gave a side a Flurry (a second pass of actions)",
	"cards_played":          "cards the players played from their hands and pools",
	"cards_drawn":           "cards the players drew into their hands, the deal included",
	"heroes_down":           "heroes out, fled or dead at the end",
	"villains_down":         "villains out, fled or dead at the end",
	"flips":                 "cards the GM turned from the deck onto the action stack: one a round (unless Seize Initiative kept the last), one more each time Seize Initiative turns another",
	"finished":              "the task's steps were all done within its time limit",
	"last_ditch":            "the time ran out, and the last-ditch effort finished the task",
	"failed":                "the time ran out and the task was not finished (last-ditch effort made or not)",
	"abandoned":             "the fight ended with the task unfinished and its hero unable to go on (the heroes beaten, fled, or he is out)",
	"task_rounds":           "rounds of the task used",
	"steps_done":            "steps of the task done at the end",
	"restarts":              "times a Critical Problem made the hero start the task again",
	"switched":              "1 if a Critical Problem made the hero switch to another skill",
	"complications":         "how much worse failed Complications made the task's modifiers",
	"combat_rounds":         "combat rounds played while the task went on",
	"task_done":             "1 if the task was finished (in or after the fight)",
	"cards_held":            "cards in the players' hands after the scene's end (pools returned, discards made, hands refilled)",
	"triumph":               "the heroes won every scene of the adventure",
	"mixed":                 "the heroes won some scenes of the adventure, not all",
	"defeat":                "the heroes won no scene of the adventure",
	"scenes_won":            "scenes whose fight the heroes won",
	"scenes_lost":           "scenes whose fight the villains won",
	"possibilities_awarded": "Possibilities awarded: subplots in play at each Act's end, Drama cards held and Glory played at the adventure's end",
	"drama_held":            "Drama cards in the players' hands and pools at the adventure's end",
	"glory_played":          "Glory cards played in the adventure",
	"subplots_in_play":      "subplot cards in the players' pools at the adventure's end",
}

// term is what category or metric n means.
func (s Scenario) term(n string) string {
	if t, ok := terms[n]; ok {
		return t
	}
	return n
}
