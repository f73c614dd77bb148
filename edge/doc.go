// Package edge implements dramatic interaction with edge dice, the chase
// and social-battle rules of the d20 Advanced ruleset (a d20-family game),
// from its Action Module "Dramatic Interaction".
//
// # The mechanic
//
// Two or more parties (a car and its pursuer, a courtier and his rivals)
// each hold a pool of edge dice: tokens of advantage, five apiece unless
// the GM hands out bonus dice for favourable conditions. Opposed starting
// checks (Reflex for a chase, Perception for a battle of wits) set the
// order of action; in a temptation or interrogation the tempter simply
// goes first ("Beginning a Dramatic Interaction").
//
// Each round the party holding the initiative declares an action, a target
// and the skill each of its involved members uses; every such member stakes
// one die from the party pool. A check may carry a bonus or penalty of its
// own, as circumstance dictates ("Resolving a Wager"). The target answers
// the same way, but its skills are limited: the same skill, a naturally
// opposed one, a skill that is safe in this kind of interaction, or another
// fitting skill at -1 ("Wagering Edge Dice"). Everyone rolls a check (d20
// plus modifiers, a setting in Rules). All checks are ranked; each staked
// die goes to the opposing check with the next higher result, and a die
// moves at most once a round, so dice just won are never at risk again. The
// highest single result takes the initiative ("Resolving a Wager"). In the
// rule text's car chase Joe (19) wins Bob's die (14) and loses his own to
// Becky (21), and Becky's car keeps the lead.
//
// Repeating a skill costs -1, then -2, then -3 for the rest of the
// interaction; safe skills pay only when used in consecutive rounds
// ("Can't Fool Me Twice!"). Between rounds the GM may call for checks
// that wager nothing but leave penalties ("Outside Factors"). A crowd acts
// as one member whose rank on the Time and Value Progression table is a
// bonus, but a penalty on endurance-type checks unless it abandons its
// stragglers for good at one rank less ("Large Parties"). With more than
// two sides every party keeps its own pool, actions name targets, untargeted
// parties may roll to seize the initiative without staking anything, and
// one action may target several parties at once ("Multiple Parties").
// Passive opponents (a building full of hidden bombs) only react, staking
// one die per check against them ("Passive Parties").
//
// A party without dice loses; a party may also surrender its dice, or,
// where the GM allows, walk away, leaving the party with most dice a
// partial winner ("Winning a Dramatic Interaction", "Walking Away").
//
// # Rulings
//
// Where the text is silent the package follows the project's rulings, each
// a setting of Rules whose default is marked [ours]:
//
//   - Rules.TieBreak [ours]: checks with equal totals rank by their
//     modifiers, and equal modifiers rank level, moving no die (never a
//     reroll, so a round always ends). One ranking serves the exchange, the
//     initiative and the starting checks, so a check that wins a die on
//     the modifier also takes the initiative.
//   - Rules.InitiativeTie [ours]: when the round's best checks of several
//     parties rank level, the holder keeps the initiative; else the party
//     earlier in the order of action takes it.
//   - Rules.PassiveStake [ours]: a passive party stakes one die against
//     each check made against it, its members taking turns with their best
//     skill ("Passive Parties").
//   - Rules.SurrenderTo [ours]: a surrendering party's dice go to the
//     initiative holder (or, if it held the initiative, to the party with
//     most dice).
//   - Rules.PartyCheck [ours]: a party's starting and seizing checks are
//     made by its member with the best modifier.
//   - Rules.FactorPenalty [ours]: outside-factor penalties last the rest of
//     the interaction.
//   - Rules.Turns [ours]: only the initiative holder acts each round, its
//     targets react and the others may try to seize ("Multiple Parties");
//     the text also reads as every party acting in initiative order, which
//     EveryParty plays: each active party takes a turn, an exchange of its
//     own, and the round's highest single result takes the initiative.
//   - Rules.WagerBeyondPool [ours]: off, a party wagers at most the dice
//     it holds, one a member; on, every involved member wagers, and a die
//     the party no longer holds is not paid.
//   - Rules.LoneRank [ours]: off, a lone individual has no group modifier;
//     on, the progression table is read for it as a group of one.
//   - Rules.OnceARound [ours]: off, with every party acting in turn a
//     character acts in its party's turn and may react in the others'; on,
//     the text's "Each character may act once in each round" read
//     strictly: one wagered check a round, acting or reacting.
//
// Our rulings beyond those: the targets of one action oppose the actor, not
// each other; abandoning stragglers is done once and lasts, and is chosen
// before the dice are rolled: before a round, by each group about to check
// an endurance-type skill in it, once every declaration is in; before the
// outside factors due, once, by each group of a party that one of them
// has check an endurance-type skill, before the first of them is rolled;
// the groups asked abandon together once all have answered (the text sets
// no moment for the choice); only wagered checks count as uses for Can't
// Fool Me Twice (starting, seizing and outside checks do not); and
// Rules.MaxRounds ends an endless interaction as a walk-away. Set to 0 it sets no limit of the designer's, but the GM
// still calls time after MaxRoundLimit rounds: two parties that each
// always lose when acting pass a die and the initiative back and forth for
// ever, and a simulated trial must end in bounded work.
// Checks are a d20 plus modifiers and the repetition penalties are -1, -2,
// -3 [src]; the other numbers are the text's.
//
// # Using it
//
// A Scenario (JSON) holds the Rules, the interaction Type, the Parties and
// their policies by name. Scenario.NewEngine builds its Engine: what is
// worked out once from the scenario (skills numbered and classified,
// members numbered across parties, their modifiers and candidate skills),
// the parties' policies and the Sink. Engine.NewState gives the State of a
// new interaction: everything that changes, with the scenario it belongs
// to, as plain exported data that the steps work on directly.
//
// Every step takes the State (and the dice.Roller where it rolls; a nil
// Roller is dice.ErrNilRoller), checks first that the State belongs to the
// engine (its scenario, rules included, is the engine's) and is whole
// (State.Check), then checks its own input, and only then changes the
// State or rolls: a refused step changes neither. Start makes the starting
// checks; Factors makes the outside factors due (FactorsDue says when);
// Act declares the round's action and React answers it and resolves the
// round (Round does both at once); Concede, Abandon and Outside apply the
// other choices and the GM's ad hoc checks. Step takes the next step with
// Engine.Policies deciding (one Policy a party, the only way policies
// reach the engine), and Play steps to the end (State.Done), checking the
// State once before the first. LegalActs, LegalReactions and LegalTargets
// list what a side may do now, from the same checks the steps make.
//
// A State whose scenario is not the engine's (another scenario, or rules
// changed since) is refused, never played by tables built for other rules:
// its own Scenario.NewEngine builds the engine that plays it. A step
// compares the scenario in full only where the engine meets the State
// anew: the State it last stepped (or made with NewState) is known to it
// while its Scenario has not been replaced (nor its plain fields changed),
// so a step by hand costs little more than a round of a simulated trial.
// Lists and maps of a State's scenario edited in place are not looked for
// again until Check, which always compares in full; the engine plays its
// own scenario meanwhile. The State's changing part is checked whole at
// every step. An Engine's rules never change while it plays, so a copy of
// it may serve another goroutine with its own State (give the copy a
// Policies slice of its own before changing one).
//
// A State reads and writes as one JSON value that names every party,
// member and skill, so nobody counts to read a save, and what was saved is
// what is played. An Engine's Sink hears every Event, each naming its
// parties, members and skill, and Event.String narrates it as a sentence.
//
// # The game contract
//
// Scenario.Start and Scenario.Restore make a *Game (as a sim.Game): one
// interaction under the scenario's policies, stepped with Game.Step, saved
// as its State's JSON (Game.Save) and read back strictly and checked whole
// by Scenario.Restore. Game.Intercept puts a sim.Chooser between the
// policies and the steps; it is handed a *Question (the View asked from,
// the party asked, for Abandon the member and for React a copy of the
// action) and each answer, and returns the answer the step takes, of the
// same type:
//
//	question   asked of                               answer type
//	Concede    each active party before a round        Concession
//	Act        the party whose turn it is              Action
//	React      each targeted party that is not passive Reaction
//	Seize      each untargeted party (one actor only)  bool
//	Abandon    a group before an endurance-type check  bool
//
// An answer of another type, or an illegal one, fails the step where it
// is given: every question of a step is asked, and its answer checked,
// before the step changes anything or rolls a die, so a refused step
// leaves the State and the Roller as they were and is heard by no
// listener (groups choose to abandon their stragglers before any die is
// rolled, see the rulings above). The Question, and the Action or Reaction a Chooser is handed, are the
// game's, good only during the call (a Chooser keeps copies); handing
// them over allocates nothing.
//
// In Go, an Action and a Reaction carry small numbers for members (their
// place in the party) and skills (Engine.Skill, from 1: skill 0 is none,
// so an empty Use is refused), as the State does. We chose numbers over
// names because a bot picks its checks from the
// legal-choice queries, whose Choice carries both the number and the name,
// so it never counts or spells; Engine.UseOf and Engine.Party turn names
// into numbers for a caller that starts from names; and every round of a
// simulated trial would otherwise look names up for each check. Saved
// states and events name them.
//
// For simulation a Runner plays whole trials through the same steps, on a
// State it builds itself and so does not check before every step, and
// Scenario.Exact solves a two-party scenario exactly as an absorbing Markov
// chain over edge dice, initiative and skill history.
//
// # Optimal play
//
// Exact answers scenarios of at most 100 edge dice in all, and Optimal and
// Solve at most 22; larger pools are refused at once with
// markov.ErrTooLarge (their work would run to minutes, and at the default
// round limit the play would outlast it anyway).
//
// Scenario.Optimal solves what Exact covers (two parties, no outside
// factors, only the initiative holder acting; anything else answers an
// error wrapping markov.ErrNoExact) as a decision process (sim/markov):
// one party (Goal.Side, by name; the first by default) makes its own
// choices and the other plays its policy. Its states are Exact's, at the
// start of each round, with the order of action. There the deciding party,
// asked in its place in the order, may surrender, walk away where the type
// allows it, or play on; playing on it declares its action when it holds
// the initiative, and otherwise its reaction to the action the opponent's
// policy declares. Each option's round is Exact's own: the same
// declaration and settling code, every check result weighed. Because
// settling reads checks only by how they rank, the process settles one
// round for each way the checks can rank rather than for each combination
// of results (the same answers to rounding, many times faster).
//
// Which options: every legal declaration, where it fits. The deciding
// party may wager with any choice of its members, up to its edge dice,
// each member with any skill the engine's legal-choice query allows it
// (what LegalActs and LegalReactions answer: acting, an appropriate or a
// safe skill; reacting, the same skill, a naturally opposed or safe one,
// or another appropriate one at rules.unpaired), and a group about to
// check an endurance-type skill may first abandon its stragglers. So it
// may use a weaker skill now to spare a better one from Can't Fool Me
// Twice later, or answer with a naturally opposed skill it does not list,
// fresh at +0, rather than the actor's own skill again at a penalty.
// Skill histories multiply the states, and the process keeps no more of
// them than later play reads: a member's uses of each skill that is not
// safe (capped where the penalty stops growing) and the safe skill whose
// run the next round may go on, not the last skill of any other kind;
// and skills that are twins for a member (the same modifier, the same
// kind, the same natural opposites, and never checked by the opponent's
// policy, whose listed skills always outrank them) keep only their uses
// sorted, one option for twins of equal history. A duel of two skills
// under the default opposed pairs takes a few hundred to a few thousand
// states so, and an independent brute force over the whole histories
// agrees with it to 1e-12 (every_test.go).
//
// Where even that would not fit (markov's bounds, 2^19 options weighed,
// or histories estimated past markov.MaxProcessStates, as in both sides of
// the built-in chase: some 10^15 for the lead car), the process is solved
// over the bounded set instead: how many dice to wager (1 up to the
// party's members and dice), played by its best members each with its
// best skill, best by the modifier this round (as steady, cautious and
// canny choose) or by the plain modifier (as reckless does). That set
// contains every shipped policy's action and reaction, but its best is
// only the best found: Solved.Best and Worst are named "best found over
// each member's best skills", never optimal, and Solved.Bound holds a
// value no play over every legal choice passes, that of a relaxation in
// which the party picks the repetition penalty each of its checks pays
// (none, or any step of rules.repetition) and keeps no history. Every
// play in the interaction is a play of the relaxation (picking at each
// check the penalty its history imposes; the opponent's policy never reads
// that history), so the relaxation does at least as well, for any goal.
// It is loose where safe skills matter: in the built-in chase the lead
// car's best found is 0.3045 and the bound 0.8787, for it may check
// vehicles fresh every round. Solved.Method spells out both bounds (the
// worst too), and Optimal.Options and Optimal.Bound say which set was
// solved and the relaxation's value. Before issue 37 the full set was
// given up past 32,768 options, which the default opposed pairs passed:
// in a duel Bo answered persuasion with persuasion at -1 where an
// unlisted perception at +0 was his, 1.8e-4 of P(goal) short of the best
// (TestBestSkillsMissedUnlistedOpposedSkills). In a social duel with only
// persuasion and deception appropriate, Ann at +3 and +2 against Bo's
// persuasion +3, 2 edge dice each, every legal choice wins her 0.7075
// where each round's best skill wins 0.6934.
//
// Among equally good options the plan takes the one that spends least
// (markov.Goal.Ties; "first" takes the first listed, the best skills
// first): a die for each check wagered, every die held for a surrender,
// nothing to walk away or play on, and a rank for each group that
// abandons its stragglers.
//
// Seizing the initiative never arises: the model covers two parties, and
// the one without the initiative is always the target. Abandoning
// stragglers is offered where the engine asks it, before the group's
// endurance-type check; abandoning at another time (Engine.Abandon by
// hand) is not, for it only gives up the group's rank on its other checks
// until that check comes. The round limit is not modelled: as Exact does,
// a solve whose play would reach rules.max_rounds (with probability above
// 1e-9) is refused. The goal's outcomes are Categories' names (by default
// the deciding party's wins, outright or partial).
//
// Optimal.Policy plays the plan: it reads the State a View shows as the
// process's state, and falls back on the party's own policy where the plan
// does not know it (put it in its party's place in Engine.Policies for
// Play; Optimal.NewRunner for trials). Optimal.Answer is play under the plan read round by round
// (markov.Plan.Answer, no dense solve): the odds, the mean and the
// distribution of rounds played, as Exact gives them for a policy.
// Scenario.Solve sets the best and the worst play beside each shipped
// policy in the deciding party's place (exact), with what playing well is
// worth over the party's own policy and the decisions that matter most in
// words, grouped by the dice each side holds and who holds the
// initiative. In the built-in chase the lead car escapes with 0.3045
// under the best play found (0 if it surrenders at once), against 0.2864
// for its own cautious policy: wagering a single die a round whether
// acting or reacting, and never surrendering, is what matters (see
// ExampleScenario_Solve).
package edge
