// Package dramadeck implements the Drama Deck: Roger Bell_West's adaptation
// of the Torg Drama Deck (West End Games, 1990) to GURPS Fourth Edition
// (Steve Jackson Games), together with the small part of GURPS it leans on.
//
// # The GURPS core
//
// A success roll is 3d6 against an effective skill; the margin is skill
// minus roll. Totals of 3 or 4 always succeed and 17 or 18 always fail;
// criticals follow the Basic Set (Criticals, Judge). A Quick Contest compares
// two rolls: a success beats a failure, otherwise the larger margin wins, and
// the margin of victory is the difference (QuickContest). A roll "in the
// manner of Luck" is rolled three times, keeping the best (LuckRoll).
//
// # The deck
//
// Every card has two faces. The player face carries one ability: an
// immediate effect (section 1.1 of the text: Action, Adrenalin, Willpower,
// Presence, Coup de Grace, Drama, Escape, Glory, Haste, Hero, Idea,
// Leadership, Master Plan, Monologue, Opponent Fails, Second Chance, Seize
// Initiative, Supporter, Rally), a deferred one (1.2: Alertness,
// Connection) or a subplot (1.3: Campaign, Martyr, Mistaken Identity,
// Nemesis, Personal Stake, Romance, Suspicion, True Identity). The GM face
// is read when the card is turned onto the action stack: a Standard and a
// Dramatic line (who acts first, an effect on either side, perhaps an
// approved action for the villains), the Act: line of approved actions,
// and a skill bar for Dramatic Skill Resolution (Card, Line, Bar).
//
// The player-side composition of the default 156-card deck comes from the
// published counts where known and from our rulings otherwise
// (DefaultComposition). No published table of GM faces exists, so the GM
// faces were generated once, from DefaultSeed, in the proportions our
// rulings set (Generate), and shipped as the data file deck.txt, embedded in
// the package (DefaultDeck). ParseDeck reads that format, or a bare
// composition ("<count> <Name>" per line) whose GM faces it generates;
// unknown names and bad counts are errors. A Scenario describes its deck
// fully: a composition (Deck) whose GM faces come from DeckSeed in the
// proportions Faces (GenerateFaces; the default composition with the
// default seed and proportions is the shipped deck), or a whole deck card
// by card (Cards). A deck file reads card names
// leniently (case, spaces, hyphens, underscores and apostrophes aside);
// everywhere else (saved states, scenarios, events) cards, effects,
// actions, skill bars and sides read and write as the names printed here.
//
// # Players
//
// A player gets four cards when his character enters play (EnterPlay; a
// player joining mid-adventure: AddPlayer). Out of combat he plays from
// his hand and draws nothing (PlayFromHand; a subplot so played comes into
// play in his pool); hands trade cards one for one (Trade). In combat,
// after each action that could move the scene on, one card may go from
// hand to pool (MoveToPool, or DeclineMove); abilities work only from the
// pool, pools trade one for one, and all of a round's cards are declared
// at once (Declare). Escape goes into the pool only as the encounter
// begins, as its first card. Haste alone may also be played while others
// act (PlayHaste): Step offers it as each character's action comes up
// (Policy.Haste), and the shipped policies keep it out of the
// declarations to play it as an opponent's action comes up, so that the
// hero acts first. Once per Act a Critical Moment pours any number of hand
// cards into the pool to act on one character (CriticalMoment). At the
// end of a scene pool cards other than subplots go back to the hand, the
// hand is cut to four (or one card may go at exactly four) and refilled
// (EndScene); an empty draw pile is refilled by shuffling the discards.
// Subplots pay a Possibility each Act (EndAct); Drama held and Glory
// played pay at the adventure's end (EndAdventure). A subplot in play stays
// in the pool for the adventure: the GM may not strip it. Leadership may
// not put Escape into a pool from a hand (Escape enters a pool only as the
// encounter begins). Master Plan takes the discard beneath it; when a
// Rally, Leadership or Seize Initiative earlier in the same declaration
// has shuffled the discards into the draw pile, nothing is beneath it and
// it takes nothing [ours]. The plays of a declaration are checked together
// first and then applied in the order declared.
//
// A card is played as a Play, one declaration type for every card rather
// than a type per card kind: a bot or a menu fills one value (the zero
// value of each field is the obvious choice, so Play{Card: id} plays most
// cards on the player's own hero), declarations are lists of one type,
// and the engine validates each Play against the card it names,
// refusing a field that card does not read (Play lists which cards read
// which fields).
//
// Effects that wait for a moment (Second Chance on the next failed roll,
// Opponent Fails on a success against the character that its player
// chooses, Drama and Hero as a Possibility on the next failure, Adrenalin
// and its kin on the next roll of their kind) are recorded on the
// character's Status when declared and spent when the moment comes. With
// Rules.DefenceTakesCards [ours] they help the character's defences and
// resistances too. Spending a Possibility re-rolls a failed roll and keeps
// the better result; this is our reading, as the text does not define
// Possibilities for GURPS [ours].
//
// # The GM side and the round
//
// Each combat round has three phases, which State records (Phase, Queue)
// and the steps enforce. BeginRound: the GM turns a card; its line says
// who acts first and applies Flurry, Inspiration, Up, Break, Confused,
// Fatigued, Setback or Stymied. Declaring: each player with a hero in the
// fight may trade, then declares his round's cards (or none). Acting:
// each character acts once (Turn, Act), the line's first side first, each
// side by decreasing Speed, a Flurry side twice over; a Haste action owed
// comes first; a Monologue stops all action. EndRound closes the round
// (Break). A hero's success at an approved action draws a card; a
// villain's success at the line's villain action lets the GM strip a card
// from the target's pool. Trick, Test, Taunt, Intimidate and Maneuver are
// Quick Contests whose margin of victory is looked up in the margin table
// (Rules.Margins; the text's literal bands by default [text]/[ours]).
// All-Out Defence and All-Out Attack last until the character acts again.
// The combat model around the cards is deliberately small [ours]: attack
// skill against one active defence, dice of damage less DR, HP and FP
// tracks. Its rulings are settings: All-Out Defence is taken without a
// roll (Rules.DefendRolls, [ours]); a blow of more than half the HP, the
// GURPS major wound [src], stuns without the HT roll (Rules.StunPercent,
// [ours]); FP at 0 takes a character out (Rules.CollapseFP, [ours]; GURPS
// lets him go on below 0 at a risk not modelled; a designer may set it
// above 0, so that exhaustion ends fights sooner). A critical failure on
// an attack, or on an active defence against one, costs the roller his
// next action (Rules.CriticalMiss): the text gives a critical failure no
// consequence, GURPS rolls on its Critical Miss Table, whose commonest
// results (lost balance, a weapon turned or dropped) cost a turn [src];
// the table read as that one result is [ours]. Card effects still
// waiting at the end of a scene lapse with it (Rules.EffectsOutlastScene,
// [ours]; the text is silent).
//
// A Dramatic Skill Resolution (StartTask, TaskRound, TaskStep,
// AttemptSteps; the tasks live in State.Tasks) works through steps A to D
// in order, only when the turned card's skill bar shows the next step (two
// adjacent steps may be tried together at -2 each), under a time limit;
// special cases threaten a step, worsen the difficulty, or force a change
// of skill or a restart; when neither step nor special case shows, the
// player may roll to draw a card (Policy.SideRoll; out of combat only with
// Rules.TaskDrawsOutOfCombat [ours], as the player side draws nothing out
// of combat); when time runs out, one last-ditch roll may still finish the
// task. In combat, work on the task is the hero's action for the round,
// and, as any hero's action other than All-Out Defence, one that may move
// the scene onwards: a round of work that rolls (a step, a special case or
// the extra approved action, whether or not it succeeds) lets the player
// move a card from hand to pool; a round whose action was lost does not.
// TaskChance solves it exactly as a Markov chain.
//
// # State, steps and policies
//
// State is the whole game as one value: the Rules and the Deck it is
// played with, every pile and character, the round's phase and acting
// order, the tasks (NewState). State.Save writes it as JSON (without the
// dice: a dice.Roller saves itself); State.Check validates a state whole,
// and State.Done says whether the encounter is over. The steps are the
// methods of an Engine, which holds the policies (Engine.Policies, a
// Table: Heroes for the players, GM for the GM and his villains; the only
// way policies reach the engine) and its Sink: copies of one may play on
// other goroutines, each on its own State. Every step validates first and
// changes neither the State nor the dice.Roller when it refuses; a
// policy's answers a step needs are asked and checked before any die is
// rolled; a step handed a nil Roller returns dice.ErrNilRoller.
// Engine.Step takes the next step of an encounter under the policies;
// Engine.Round plays the rest of a combat round (the text's round: flip,
// declarations, actions), Engine.Play the encounter to its end, and the
// Runner's trials are Play, so there is one rules engine. The legal-choice
// queries are Engine methods taking the State: Choices lists the actions
// a character may take now, from the checks Act makes (CheckChoice,
// Declarable and Movable likewise); State.Turn says whose action is next.
// The Engine's optional Sink receives Events, each of which narrates
// itself (Event.String). Encounters have no exact model
// (markov.ErrNoExact), but single draws (DrawOdds, Hypergeometric) and
// tasks (TaskChance) do.
//
// # The game contract
//
// Scenario is the face the stakes CLI, the simulator and the conformance
// kit use (sim.Scenario): Start deals a game (a *Game, the sim.Game of
// this package) and Scenario.Restore reads back what Game.Save wrote (the
// scenario and the state, decoded strictly and checked whole); Describe
// says what each outcome and metric means. Game.Intercept sets a
// sim.Chooser through which every policy answer passes; it is handed the
// view the policy was asked from and the policy's answer, and returns an
// answer of the same type. The questions, by Policy method, with the view,
// the answer's type, and the Ask and Reply field that name it as a step:
//
//	Critical   *View      []int   AskCritical  Cards   hand cards moved to the pool for a Critical Moment
//	Declare    *View      []Play  AskDeclare   Plays   the pool cards a player plays this round
//	Trade      *View      Swap    AskTrade     Swap    a one-for-one swap before declaring (With -1: none)
//	Haste      *View      int     AskHaste     Index   a Haste card in the pool to play now, or -1
//	Move       *View      int     AskMove      Index   a hand card to move to the pool, or -1
//	Choose     *View      Choice  AskChoose    Choice  a character's action (a hero's Work on his task included)
//	Spend      *View      bool    AskSpend     Yes     spend a Possibility to re-roll a failure
//	Cancel     *View      bool    AskCancel    Yes     spend a waiting Opponent Fails on a success
//	Strip      *View      int     AskStrip     Index   the pool index the GM strips, or -1
//	Call       *View      Effect  AskCall      Effect  the result of a Player's Call
//	Discard    *View      int     AskDiscard   Index   a hand index to discard at a scene's end, or -1
//	Steps      *TaskView  int     AskSteps     Index   task steps to attempt at once
//	Switch     *TaskView  bool    AskSwitch    Yes     switch skill (true) or restart on a Critical Problem
//	LastDitch  *TaskView  bool    AskLastDitch Yes     make the last-ditch effort
//	SideRoll   *TaskView  bool    AskSideRoll  Yes     roll the task's extra approved action
//
// An answer of another type refuses the step, as an illegal one does: the
// game and the Roller are left as they were and no listener hears the
// step. Every answer is checked where it is given, before the step
// changes anything or rolls a die, but for the yes-or-no questions the
// rules place after the dice (Spend, Cancel, Switch, LastDitch): a step
// that may come to one keeps what it changes, and the Roller's bytes, to
// put back. The view a Chooser is handed, and a slice answer (Critical's
// cards, Declare's plays), are the game's, good only during the call: a
// Chooser keeps copies; the slice it returns stays its own.
//
// # Questions as steps
//
// A Chooser answers while the step waits for it. A bot that puts the
// questions to a person, who may answer tomorrow, asks them as steps of
// their own instead: Engine.Ask (Game.Ask) names, for each side, the
// questions Step stops at. Many come in the middle of an action (a
// Possibility to re-roll a failed attack, an Opponent Fails against a
// hit, the GM's strip and a Player's Call before the roll) or of a
// scene's end (the discards). Step then stops with the game as the step
// found it and the question in State.Question: what is asked, of which
// side and about whom, what it is about (the failed roll, the success,
// the pool or the hand as they stand), the legal answers, and the answers
// the step received before it. The state saves and restores as any other
// (with the Roller's bytes). The next step is the answer (Engine.Reply,
// Game.Reply): checked against the question, then the step is taken
// again from where it stood, its dice falling and its earlier questions
// answered as before, this answer given to this question, and played on
// to its end or its next question asked as a step. A game whose
// questions are asked as steps and answered as its policies (or a
// Chooser) would answer them plays the same game, byte for byte, as the
// one whose policies answer inline, and tells the same events: there is
// one rules engine. Every other step is refused while a question waits;
// Step has the question's policy answer it. A question whose step, taken
// again, does not come to it (the Roller is not the one saved with the
// game, or the state was changed by hand) refuses a reply with the
// reason, and Step lets it lapse and takes the step afresh.
//
// # Studies and where each setting acts
//
// A Scenario plays one Study from the deal to its end: one encounter (the
// default, DefaultScenario), a Dramatic Skill Resolution out of combat or
// worked in a fight, a scene (a fight with the task in it, then the
// scene's end), or an adventure of Acts of scenes with its awards
// (Builtins names one of each). Each has its own categories and metrics
// (Categories, Metrics, Describe). Not every setting can act in every
// study; Scenario.Inert lists those that cannot in a given scenario, and
// this table says where each acts (TestSettingsActWhereTheTableSays holds
// it to the trials):
//
//	study                              every study
//	rules.criticals.always_succeed     every study
//	rules.criticals.always_fail        every study
//	rules.criticals.crit_success       studies with a fight (Glory, defences)
//	rules.criticals.crit5_at           studies with a fight
//	rules.criticals.crit6_at           studies with a fight
//	rules.criticals.crit_fail          studies with a fight, while a critical failure costs something
//	rules.criticals.crit17_at_or_below studies with a fight, while a critical failure costs something
//	rules.criticals.crit_fail_by       studies with a fight, while a critical failure costs something
//	rules.hand_size                    every study
//	rules.bonus                        studies with a fight where the players play cards
//	rules.coup_percent                 studies with a fight where the players play cards
//	rules.drama_worth                  adventure
//	rules.glory_award                  adventure, where the players play cards
//	rules.subplot_award                adventure
//	rules.luck_rolls                   studies with a fight where the players play cards
//	rules.fatigue_fp                   studies with a fight
//	rules.multi_step                   task, task in combat, scene
//	rules.last_ditch                   task, task in combat, scene
//	rules.task_steps                   task, task in combat, scene
//	rules.complication                 task, task in combat, scene
//	rules.defend_bonus                 studies with a fight
//	rules.all_out_attack_bonus         studies with a fight where a side attacks all-out (the scene)
//	rules.margins                      studies with a fight
//	rules.contest.criticals_decide     studies with a fight
//	rules.max_leadership               studies with a fight where the players play cards
//	rules.task_draws_out_of_combat     task, task in combat, scene (the work out of combat)
//	rules.defence_takes_cards          studies with a fight
//	rules.inspiration_revives          studies with a fight
//	rules.defend_rolls                 studies with a fight
//	rules.stun_percent                 studies with a fight
//	rules.collapse_fp                  studies with a fight
//	rules.critical_miss                studies with a fight
//	rules.effects_outlast_scene        adventure, where the players play cards
//	deck                               every study
//	deck_seed                          every study whose deck is a composition (the task)
//	faces                              every study whose deck is a composition (the task)
//	cards                              every study
//	dramatic                           studies with a fight
//	heroes                             every study
//	villains                           studies with a fight
//	max_rounds                         studies with a fight
//	hero_policy                        every study
//	gm_policy                          studies with a fight
//	task                               task, task in combat, scene
//	task_in_combat                     task
//	acts                               adventure
//	scenes_per_act                     adventure
//
// Sources of each default are marked in the documentation of Rules and
// DefaultComposition: [text] the rule text, [src] the published games,
// [ours] this project's rulings.
package dramadeck
