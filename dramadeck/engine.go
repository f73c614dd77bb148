package dramadeck

import (
	"errors"

	"github.com/stakesrpg/stakes/dice"
)

// Table is who answers the choices the text leaves to the people at the
// table: Heroes for the players (moving, trading, declaring and playing
// cards, their heroes' actions, Possibilities, Player's Call, task work,
// end-of-scene discards) and GM for the GM and his villains (their
// actions and Possibilities, which card to strip from a pool).
type Table struct {
	Heroes Policy
	GM     Policy
}

// check refuses a table missing a policy.
func (t Table) check() error {
	if t.Heroes == nil || t.GM == nil {
		return errors.New("Engine.Policies needs a Heroes policy and a GM policy")
	}
	return nil
}

// of returns the policy of character ci's side and the other side's.
func (t Table) of(s *State, ci int) (pol, other Policy) {
	if ci >= len(s.Heroes) {
		return t.GM, t.Heroes
	}
	return t.Heroes, t.GM
}

// Engine takes the steps of an encounter on a State. It holds the
// policies that answer every choice (Policies, the one way they reach the
// engine) and its Sink; copies of it may run on other goroutines, each
// with its own State (what a step lends its policies, the views and answer
// buffers, lives in the State it shows).
type Engine struct {
	// Policies answer the players' and the GM's choices.
	Policies Table
	// Sink, when non-nil, receives every event; nil builds none.
	Sink func(Event)
	// Ask, by side (Heroes: the players; Villains: the GM), holds the
	// questions Step asks as steps of their own rather than of the
	// policies: Step stops at such a question with the game as the step
	// found it and the question in State.Question, and the next step is
	// its answer (Reply); every other step is refused while it waits.
	// The zero value asks none. Only Step asks: Play, Round and the steps
	// called by name ask the policies.
	Ask [2]AskSet
}

// NewEngine returns an Engine under policies, refusing a missing policy.
// (The rules travel with the State, which State.Check validates whole.)
func NewEngine(policies Table) (Engine, error) {
	if err := policies.check(); err != nil {
		return Engine{}, err
	}
	return Engine{Policies: policies}, nil
}

var errNilState = errors.New("dramadeck: nil *State")

// game is an Engine at work on one State for the length of a step: the
// rules are its methods.
type game struct {
	State *State
	Sink  func(Event)
	// calls, when set, is callsOf(State.Rules.Margins), read once at the
	// start of a Runner's trial rather than on every contest.
	calls *[Maneuver + 1]bool
	// guard: an answer given once the step has begun may still refuse it
	// (see undo.go), so the step keeps what it changes where such an
	// answer can come; hold: the step's events wait in State's held until
	// it is taken.
	guard, hold bool
	// asks: the step is taken in Engine.Ask's way, or through a Chooser,
	// so once it has stopped at a question or taken a refused answer
	// (halted), what follows is undone and goes no further.
	asks bool
}

func (e Engine) game(s *State) *game { return &game{State: s, Sink: e.Sink} }

// rolls refuses a step that may roll without a Roller, or without a
// State, or while a question waits for its answer.
func rolls(s *State, r *dice.Roller) error {
	switch {
	case r == nil:
		return dice.ErrNilRoller
	case s == nil:
		return errNilState
	}
	return pending(s)
}

// ready refuses a step under policies without a Roller, a State or its
// two policies.
func (e Engine) ready(s *State, r *dice.Roller) error {
	if err := rolls(s, r); err != nil {
		return err
	}
	return e.Policies.check()
}

// Act resolves character ci's action ch, taken on its turn (Turn). The
// acting side's policy (Engine.Policies) spends its Possibilities, and its
// answers that the action may need (the GM's card to strip, the actor's
// Player's Call) are asked and checked before any die is rolled, so that a
// refused action changes nothing. The target's side's policy may spend a
// Possibility on the defence or resistance and chooses whether a waiting
// Opponent Fails cancels this success.
func (e Engine) Act(s *State, r *dice.Roller, ci int, ch Choice) error {
	if err := e.ready(s, r); err != nil {
		return err
	}
	pol, other := e.Policies.of(s, ci)
	return e.game(s).Act(r, ci, ch, pol, other)
}

// StartCombat begins an encounter: combat time, round 0, no outcome yet.
// Dramatic selects the D: line of the action stack rather than S:. A
// player holding Escape may put it into his pool now, as the encounter
// begins, before its first round (Immediate Effects: Escape must be the
// first card played into the pool when the encounter begins).
func (e Engine) StartCombat(s *State, dramatic bool) error {
	if err := pending(s); err != nil {
		return err
	}
	return e.game(s).StartCombat(dramatic)
}

// EnterPlay deals a new PC's player their starting hand (The Player Side:
// four cards when a PC enters play).
func (e Engine) EnterPlay(s *State, r *dice.Roller, p int) error {
	if err := rolls(s, r); err != nil {
		return err
	}
	return e.game(s).EnterPlay(r, p)
}

// AddPlayer seats a new player whose hero c enters play mid-adventure, and
// deals him his hand (The Player Side: four cards when a new PC enters
// play). It returns his player number, which is his hero's index; the
// villains' character indices move up by one. In a round under way he
// declares with the others if they are still declaring, and acts from the
// next round.
func (e Engine) AddPlayer(s *State, r *dice.Roller, c Character) (int, error) {
	if err := rolls(s, r); err != nil {
		return -1, err
	}
	return e.game(s).AddPlayer(r, c)
}

// Draw gives player p one card from the deck (the reward for an approved
// action or a Dramatic Skill Resolution side roll).
func (e Engine) Draw(s *State, r *dice.Roller, p int) error {
	if err := rolls(s, r); err != nil {
		return err
	}
	return e.game(s).Draw(r, p)
}

// MoveToPool moves card id from player p's hand to pool: in combat, once
// per round, after the hero took a scene-moving action. Escape goes in
// only as the first card of the encounter, as it begins (before its first
// round), and then nothing else may.
func (e Engine) MoveToPool(s *State, p, id int) error {
	if err := pending(s); err != nil {
		return err
	}
	return e.game(s).MoveToPool(p, id)
}

// DeclineMove is player p's choice to keep his hand this round when his
// hero's action would let him move a card to the pool.
func (e Engine) DeclineMove(s *State, p int) error {
	if err := pending(s); err != nil {
		return err
	}
	return e.game(s).DeclineMove(p)
}

// Trade swaps cards between players p and q: hand to hand out of combat,
// pool to pool in combat, the same number each way.
func (e Engine) Trade(s *State, p, q int, give, take []int) error {
	if err := pending(s); err != nil {
		return err
	}
	return e.game(s).Trade(p, q, give, take)
}

// PlayFromHand plays a card out of combat (The Player Side: out of combat,
// cards are played from the hand and nothing is drawn). A subplot played
// so comes into play: it goes to the pool, where it stays for the
// adventure (Subplot Cards).
func (e Engine) PlayFromHand(s *State, r *dice.Roller, p int, pl Play) error {
	if err := rolls(s, r); err != nil {
		return err
	}
	return e.game(s).PlayFromHand(r, p, pl)
}

// Declare plays, all at once, the cards player p activates from the pool
// this round (The Player Side: all cards played in a round are declared
// together). Each player declares at most once a round; a Confused side may
// not activate pool cards. Every play is checked before any takes effect.
//
// Declarations come at the start of the round, after the flip [ours]:
// cards whose moment comes later (Second Chance, Opponent Fails, Drama and
// Hero, the next-roll bonuses) wait on the character's Status until it
// does, and Haste's extra action is taken right after the declarations.
func (e Engine) Declare(s *State, r *dice.Roller, p int, plays []Play) error {
	if err := rolls(s, r); err != nil {
		return err
	}
	return e.game(s).Declare(r, p, plays)
}

// PlayHaste plays Haste from player p's pool while the characters act,
// outside the declarations (Immediate Effects: Haste can be played during
// someone else's action): his hero takes the extra action at once, next.
func (e Engine) PlayHaste(s *State, r *dice.Roller, p, id int) error {
	if err := rolls(s, r); err != nil {
		return err
	}
	return e.game(s).PlayHaste(r, p, id)
}

// CriticalMoment is the once-per-Act combat declaration: move any cards from
// hand to pool and play them (with any pool cards) on one character.
func (e Engine) CriticalMoment(s *State, r *dice.Roller, p int, move []int, plays []Play) error {
	if err := rolls(s, r); err != nil {
		return err
	}
	return e.game(s).CriticalMoment(r, p, move, plays)
}

// Search resolves finding something: Alertness gives an automatic success
// (Deferred Effects), with no dice rolled (Roll 0); otherwise hero p rolls
// against skill.
func (e Engine) Search(s *State, r *dice.Roller, p, skill int) (Result, error) {
	if err := rolls(s, r); err != nil {
		return Result{}, err
	}
	return e.game(s).Search(r, p, skill)
}

// EndScene returns pool cards (not subplots) to hands, lets each player
// discard down to the hand size (or one card at exactly that size), and
// refills hands (The Player Side, end of a Scene). Combat ends; the action
// stack goes to the discards; pending card effects lapse unless
// Rules.EffectsOutlastScene [ours].
func (e Engine) EndScene(s *State, r *dice.Roller) error {
	if err := e.ready(s, r); err != nil {
		return err
	}
	return e.game(s).EndScene(r, e.Policies.Heroes)
}

// EndAct pays each subplot in play its Possibility (Subplot Cards) and
// starts the next Act, which allows a new Critical Moment.
func (e Engine) EndAct(s *State) error {
	if err := pending(s); err != nil {
		return err
	}
	e.game(s).EndAct()
	return nil
}

// EndAdventure works out each player's Possibility award: Drama cards held
// (hand or pool) are worth DramaWorth each and every Glory played gives
// every character GloryAward. Subplots leave play (permanent ones stay
// recorded in Permanent). It returns the awards by player.
func (e Engine) EndAdventure(s *State) ([]int, error) {
	if err := pending(s); err != nil {
		return nil, err
	}
	return e.game(s).EndAdventure(), nil
}

// BeginRound starts a combat round: per-round bonuses lapse, and the GM
// turns a card onto the action stack (or keeps the current one after
// Seize Initiative) and applies its line. The players then declare.
func (e Engine) BeginRound(s *State, r *dice.Roller) error {
	if err := rolls(s, r); err != nil {
		return err
	}
	return e.game(s).BeginRound(r)
}

// EndRound closes the round once nobody is left to act (or the encounter
// is over): Break (characters of the broken side, normally the villains,
// who took HP damage and did no harm this round flee or concede), then the
// end of the encounter.
func (e Engine) EndRound(s *State) error {
	if err := pending(s); err != nil {
		return err
	}
	return e.game(s).EndRound()
}

// Step takes the next step of the encounter under Engine.Policies (the
// Heroes policy answers the players' choices, GM the GM's and his
// villains'): StartCombat when out of combat; between rounds BeginRound,
// or the end of the encounter as TimedOut once State.MaxRounds rounds have
// passed; the next player's trade or declaration; a player's offer to move
// a card to the pool after his hero's action; as a character's action
// comes up, a Haste a player plays from his pool (Policy.Haste,
// PlayHaste), else that action; the close of the round once everyone has
// acted. A state with a Plan (a task, a scene, an adventure) goes on past
// the fight as its study says: a round of the task out of combat, the
// scene's end (EndScene), the Act's end and the next scene, the
// adventure's end. Round, Play and Runner.Trial are this step over and
// over. A refused step changes nothing.
//
// With questions asked as steps (Engine.Ask), Step stops at the first
// such question its step reaches: the step is undone, state and Roller,
// and the question waits in State.Question for Reply. Step with a
// question pending takes that step again, its policy answering the
// question.
func (e Engine) Step(s *State, r *dice.Roller) error {
	if err := e.readyToAsk(s, r); err != nil {
		return err
	}
	return e.step(s, r, false)
}

// Round plays the rest of the current combat round (all of it, from
// Between) by Step: the flip, each player's declaration, each character's
// action in turn with the offer to move a card to the pool, and the end
// of the round (GM Side: each round the GM turns a card, the players
// declare, the characters act). A policy's illegal answer stops it with
// an error at the step that refused it, which changed nothing: the round
// resumes from there.
func (e Engine) Round(s *State, r *dice.Roller) error {
	if err := e.ready(s, r); err != nil {
		return err
	}
	return e.game(s).Round(r, e.Policies.Heroes, e.Policies.GM)
}

// Play plays the encounter to its end by Step (beginning it if it has not
// begun): until State.Done, the encounter ending as TimedOut once
// State.MaxRounds rounds have passed. A state with no round limit
// (MaxRounds 0) is refused, as an encounter need not end by itself.
func (e Engine) Play(s *State, r *dice.Roller) error {
	if err := e.ready(s, r); err != nil {
		return err
	}
	return e.game(s).Play(r, e.Policies.Heroes, e.Policies.GM)
}

// Shuffle shuffles the draw pile.
func (e Engine) Shuffle(s *State, r *dice.Roller) error {
	if r == nil {
		return dice.ErrNilRoller
	}
	if s == nil {
		return errNilState
	}
	e.game(s).Shuffle(r)
	return nil
}

// StartTask begins a Dramatic Skill Resolution for player p's hero and
// returns its index in State.Tasks.
func (e Engine) StartTask(s *State, p int, t Task) (int, error) {
	if err := pending(s); err != nil {
		return -1, err
	}
	return e.game(s).StartTask(p, t)
}

// TaskRound plays one round of task i: out of combat the GM turns a new
// card; in combat the round's action stack card is read and the work
// takes the hero's action, on his turn. Then TaskStep.
func (e Engine) TaskRound(s *State, r *dice.Roller, i int) error {
	if err := e.ready(s, r); err != nil {
		return err
	}
	return e.game(s).TaskRound(r, i, e.Policies.Heroes)
}

// TaskStep plays one round of task i with the skill bar bar (a tool with
// a physical deck may call it directly): attempt the next step(s) if shown
// (-2 per extra step, on each roll, in order), else roll against a special
// case, else the extra approved action (a roll to draw a card, if the
// policy takes it). When the time runs out the policy may make the
// last-ditch effort.
func (e Engine) TaskStep(s *State, r *dice.Roller, i int, bar Bar) error {
	if err := e.ready(s, r); err != nil {
		return err
	}
	return e.game(s).TaskStep(r, i, bar, e.Policies.Heroes)
}

// AttemptSteps is TaskStep with the player naming the steps: k steps from
// step from (0 for A). Attempting a step out of order (C before B), or steps
// the bar does not show, is an error and changes nothing.
func (e Engine) AttemptSteps(s *State, r *dice.Roller, i int, bar Bar, from, k int) error {
	if err := e.ready(s, r); err != nil {
		return err
	}
	return e.game(s).AttemptSteps(r, i, bar, from, k, e.Policies.Heroes)
}

// CheckChoice reports why character ci may not take choice ch now, or nil.
// It is the check Act makes before anything happens.
func (e Engine) CheckChoice(s *State, ci int, ch Choice) error {
	return (&game{State: s}).CheckChoice(ci, ch)
}

// Choices appends to buf every choice character ci may take now: Defend,
// and each action against each active opponent (none when it is not ci's
// turn). It uses the checks Act makes.
func (e Engine) Choices(s *State, ci int, buf []Choice) []Choice {
	return (&game{State: s}).Choices(ci, buf)
}

// Declarable appends to buf the plays player p could declare now, one
// card at a time with its obvious choices (on his own hero, no cards
// passed or named): the checks Declare makes. Leadership and Campaign,
// which need their cards named, are left out.
func (e Engine) Declarable(s *State, p int, buf []Play) []Play {
	return (&game{State: s}).Declarable(p, buf)
}

// Movable appends to buf the hand cards player p could move to the pool
// now: the checks MoveToPool makes.
func (e Engine) Movable(s *State, p int, buf []int) []int {
	return (&game{State: s}).Movable(p, buf)
}

// Turn returns the character whose action comes next, or -1 when nobody
// may act (not in the Acting phase, the encounter over, a Monologue under
// way, or everyone has acted). A hero owed a Haste action takes it first,
// immediately (Immediate Effects: Haste); otherwise the first character
// of the acting order still in the fight.
func (s *State) Turn() int {
	return (&game{State: s}).Turn()
}

// Done reports whether the game has ended: its one encounter, the last
// round closed, or the study of its Plan (a task, a scene, an adventure).
func (s *State) Done() bool {
	return (&game{State: s}).done()
}

// Char returns character ci (heroes first, then villains), or an error.
func (s *State) Char(ci int) (*Character, error) {
	return (&game{State: s}).Char(ci)
}

// Where reports where card id is: "draw", "discard", "stack", "hand P" or
// "pool P", or an error if it is nowhere or in two places.
func (s *State) Where(id int) (string, error) {
	return (&game{State: s}).Where(id)
}

// CheckCards verifies that every card of the deck is in exactly one place.
func (s *State) CheckCards() error {
	return (&game{State: s}).CheckCards()
}
