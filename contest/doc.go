// Package contest implements the scenes-and-actions resolution of Gotham
// Reborn, a Smallville / Cortex Plus hack: dice pools built from rated
// traits, stakes set and raised, Complications and Trauma, and the
// countdown of a timed action.
//
// # Traits and pools
//
// The rules are those of "Scenes and Actions" in Gotham Reborn: its
// sections "Managing Traits", "Basic Actions", "Contested Actions", "Timed
// Actions", "Winning an Action", "Giving In", "Final Push", "Ganging Up",
// "Aiding" and "Interfering" are cited by name below and in the code.
//
// Everything a character can roll is a Trait rated d4 to d12: its Values,
// Relationships, Distinctions, Abilities and Resources, the scene's
// Aspects, and the Complications and Trauma an opponent carries. Ratings
// step up and down the ladder d4, d6, d8, d10, d12; a trait stepped below d4
// is lost. A pool always holds one of the roller's Values. The first few
// different traits are free (Rules.FreeTraits, three by our ruling: Value,
// Relationship, Distinction or Ability); every further die and every
// repeated trait costs a Plot Point, spent before the dice hit the table.
//
// A roll is read as the sum of its two highest dice, with any die showing 1
// left out (so one die on its own counts alone and a roll of all 1s is 0).
// Each 1 a player character rolls is an opportunity the GM may buy: the
// player gets a Plot Point and the Trouble Pool gets a d6.
//
// # Actions
//
// In a Basic action the opposition (a GM character, or the Trouble Pool
// when no character stands in the way) rolls first to set the stakes and
// the actor must roll strictly higher. In a Contested action the sides take
// turns raising the stakes; a side that cannot beat them has lost, and one
// that would rather not risk it Gives In: free before it has rolled
// anything, afterwards at the price of a Plot Point to the opposition or a
// d6 Complication. With more than two sides everyone rolls and the highest
// sets the stakes.
//
// Losing by less than five earns a Complication; by five or more the loser
// is Knocked Out and takes Trauma, unless it makes a Final Push: each of
// its rolled traits it steps down adds five, but only to get under the
// five-point line, never to win. A lowered trait stays lowered until its
// owner buys the lost steps back with Reflection Points (Engine.Rebuy).
// The winner rates a Complication by re-rolling its last pool without the
// dice that showed 1, after any Distinction effects it chooses (such as
// Vicious, which steps up the lowest die): the size of the die that comes
// up highest is the rating. An existing Complication takes a larger die or
// steps up; past d12 the character is Knocked Out
// with d6 Trauma, and Trauma past d12 takes it out of the story. A loser
// who did not Give In earns a Reflection Point; the GM may turn a GM
// character's Reflection Points into d6s for the Trouble Pool.
//
// Extra opponents gang up by adding one die each; every raise against them
// knocks one off (two on an Extraordinary raise of five or more), down to a
// single opponent. An aiding character adds its highest die to a side's
// total and shares its Complication if the side loses. An outsider may pay
// the GM a Plot Point to Interfere: beating the stakes stops the contest
// unless both sides pay the interferer to go on, when a three-way roll
// decides it. A timed action is a run of basic actions against a countdown
// of beats, where friends may buy back time between steps.
//
// # Using the package
//
// The package has the parts every rule package of stakes has:
//
//   - Rules, DefaultRules and Rules.Validate: every number and ruling, each
//     field marked [text], [src] or [ours] (below).
//   - State: the Rules it is played under, the characters, the scene's
//     Aspects, the Trouble Pool and the one action (Action) or timed action
//     (Timed) under way, with its phase and whose turn it is; plain data
//     that saves and restores as JSON.
//     NewState starts an episode (Rules.StartPlotPoints, Rules.TroubleStart;
//     see Plot Points below).
//     State.Check validates a restored state whole, down to every pool
//     Play will roll from it being one its character may roll; steps read
//     only states that passed.
//   - Engine and its steps: Begin, Roll, GiveIn, Push, Inflict, TakeTrouble,
//     Waive, Aid, Interfere, Continue, Brawl, BuyOnes, CashReflection,
//     Rebuy, and for a timed action BeginTimed, TimedRoll, BuyTime, Choose
//     and TimedInflict. Each checks everything first and changes neither the
//     State nor the dice.Roller when it refuses; each that rolls returns
//     dice.ErrNilRoller for a nil Roller. Engine.Sink, a func(Event),
//     hears every event; a nil Sink builds none. Engine.Policies (a Table:
//     a Policy per character and the GM's) answers every choice Step and
//     Play ask; the zero Engine is ready (everyone Sensible), and a copy
//     may run on another goroutine with its own State. There is no
//     NewEngine: an Engine holds no rules (each State carries its own,
//     which Check validates), so there is nothing to validate or prepare
//     before its first step.
//   - Engine.Step takes exactly one of those steps, asking the policies,
//     on whichever action is under way in the State (a basic or contested
//     Action, or a Timed action), every answer checked before the step
//     changes anything or rolls a die; Engine.Play checks the State whole
//     and steps until State.Done. Once an Action has ended, its sides'
//     buying back lowered traits and the GM's cashing of Reflection Points
//     are steps of their own, one question each (Action.Reflecting), taken
//     only while someone holds the points. PolicyByName and PolicyNames
//     give the shipped styles. A policy's illegal answer is an error,
//     never fixed.
//     A side's turn checks and prices its planned pool once, in the walk
//     its View (and the Affordable query) is read from, and rolls the pool
//     its policy picks through the rest of Roll.
//   - Legal-choice queries, Engine methods taking the *State, from the
//     code the steps validate with: GiveInCost, Affordable, PoolCost,
//     PushNeed, PushOptions, EffectOptions, CanWaive; State.Pick and
//     State.Picks name traits by name.
//   - Event: one JSON-tagged type; Event.String narrates it as a sentence
//     naming the characters (Who, SideName).
//   - Scenario: the mechanic contract of sim (Validate, Categories,
//     Metrics, NewRunner, Exact, Start, Restore, Describe). A Runner begins
//     the scenario's action once, when it is built; each trial starts from
//     that state, set back where play changed it, plays through the same
//     steps, and returns its category or the error that stopped it.
//     Scenario.Exact solves a basic or two-sided contested action (gangs,
//     free aid and interference, Plot Points, 1s bought and every policy
//     included) or a timed action with free pools as an absorbing Markov
//     chain, and answers markov.ErrNoExact otherwise. TotalDist, PBeat and
//     PBeatValue read pools exactly.
//   - Game: a game in progress (sim.Game), made by Scenario.Start and
//     Scenario.Restore; it saves as JSON of the scenario and the state,
//     and Restore reads that back strictly and checks it whole and against
//     its scenario. Game.Intercept sets a sim.Chooser that is handed each
//     policy answer with the *View it was asked from, and each answer it
//     gives is checked where it is given: a step refused for it changes
//     neither the state nor the Roller, and no listener hears it. The
//     questions, by Policy method, and the type of each answer: GiveIn,
//     Push, Waive, Continue, Interfere, BuyTime, Objective and UseEffect a
//     bool; Pay a Payment; Extras, BuyOnes, Cash, Onto, PushStep and
//     TroubleOff an int; Rebuy a RebuyChoice. An answer of another type is
//     refused as illegal.
//
// Plot Points have one meaning: Character.PlotPoints is what the character
// holds. At the start of an episode (NewState, and a Scenario's start) a
// player character gets Rules.StartPlotPoints on top of what its sheet
// holds; a GM character gets none. Scenario.Describe shows each cast
// member's Plot Points as it starts to play.
//
// A caller that keeps no State can roll a basic action between two bare
// pools with Rules.BasicRoll, the actor's pool first as in PBeat.
//
// # Rulings where the text is silent
//
// Each is a field of Rules; the text's own numbers are marked [text] there
// and the original Smallville / Cortex Plus material's [src]. Ours [ours]:
// three traits are free (FreeTraits); each player character starts an
// episode with one Plot Point (StartPlotPoints); a tie for the highest
// opening roll means everyone rolls again (AllRollTieReroll); with more
// than two sides the turn passes round the table from the raiser
// (RaiseAnsweredByBeaten sends it first to the side whose stakes were just
// beaten), and a side that fails is beaten by the holder and leaves (the
// text's "you've come out on top" allows no other reading: a side that
// stayed in after failing would let a contest run for ever); the Trouble Pool only opposes basic
// actions (TroubleInContests) and, when beaten, loses the die its beater
// picks (Policy.TroubleOff; Sensible takes the largest), but a timed
// step won against it takes no die off unless TimedTroubleOff (then the
// actor picks, once the GM has answered the roll's 1s); a tie in the
// Complication Pool's highest face goes to the larger die (RateTiesLarger),
// and a new die lands on an existing rating by replacing a smaller one or
// stepping it up (AlwaysStepUp off); a Plot Point paid to Give In goes to
// the stakes holder (GiveInPointToHolder; off, to the GM); a Final Push is offered only when it can get the
// loser under the Extraordinary margin, lowers only the pusher's own
// traits that it rolled, one at a time as its policy picks them
// (Policy.PushStep), no more steps than needed, and a stakes holder
// pushing must still lose; a lowered trait remembers its rating
// (Trait.Original) and buying back a step costs RebuyCost Reflection
// Points, between actions, never above that rating; the Complication Pool
// is the whole winning pool less its 1s (ComplicationKeptOnly keeps only
// the two dice of the total), an empty one rates d4, and a Complication is
// named after whoever inflicted it unless the policy piles it onto an
// existing one; a Distinction's effect (Effect) works only when the
// Distinction was in the winning pool and its owner chooses it
// (Policy.UseEffect); an aider's die adds to the side's next total only
// (AidLasts: to every one), a 1 adding nothing, and aiders share the harm
// when their side is beaten but not when it Gives In
// (AiderHarmedOnGiveIn); a raise knocks the largest gang die off
// (MookOffLargest); one interference a contest (Interferences), between two
// characters only as the text says; unless both pay nobody does; the brawl
// rerolls each side's last pool at no cost, a tie going to the stakes
// holder (BrawlTieToHolder), and deals Complications only (BrawlTrauma:
// Trauma by the Extraordinary margin), with no Final Push; the GM answers
// each roll's 1s once, buying each for OnePlotPoints, only of an action
// roll by a player character, not of aid or interference
// (OnesOfEveryRoll), and the Trouble Pool never grows past MaxTrouble
// dice; the GM may waive the Complication of a failed basic action, not
// Trauma (Waive); in a timed action a failed step still moves on and
// finishing every step with beats left is full success
// (FailedLastStepCompletes; off, a last step the actor's pool can never
// beat, while helpers may buy back what each failure costs, is refused as
// an action that might never end), bought time never exceeds the starting beats
// (BuyTimeCapped), a helper rolls against the next step's stakes
// (HelpersRollTrouble: against the Trouble Pool), and the out-of-time
// Complication is rated from the last stakes roll (OutOfTimeComplication
// fixes a rating instead). Scenario.Exact follows every one of these
// settings or, for AidLasts, more than one interference and
// OnesOfEveryRoll with aid or interference, answers markov.ErrNoExact
// naming it. After an opening
// where every side rolled, the others' opening roll commits them, so
// Giving In "right away" costs as after any roll (AllRollGiveInFree makes
// it free); a Final Push may not bring a stakes holder level, since the
// tie would win (PushTieLoses lets it push to the tie and lose all the
// same, so the GM's character beaten by exactly 5 in a basic action may
// push). Stated rulings, not settings: a failed step of a timed action
// costs beats and deals no Complication (the Complication comes when time
// runs out), and an aider's die adds to its side's total but never joins
// the Complication Pool, which is the side's own last pool. From the
// source [src]:
// ties go to the stakes holder, so each raise must be strictly higher
// (TiesToHolder).
//
// # Optimal play
//
// Scenario.Optimal solves a basic, two-sided contested or timed action as a
// decision process (sim/markov): one side (Goal.Side, by character name;
// the first side by default), playing for its own wins by default (a
// basic action's opposition: the actor's failure, Knocked Out or Giving
// In), chooses at each of its turns whether to Give
// In (once the stakes are set) or to roll with any number of the extra
// picks it can afford, every transition being the exact chain's own. The
// choices that come in the middle of a step are the decider's too, each a
// state of its own: beaten by the Extraordinary margin where a Final Push
// would save it, it makes the push or takes the Trauma (the action ends
// either way); a GM's character deciding buys any number of a player's 1s
// Engine.OnesToBuy allows; the interferer, named as the deciding side (its
// goal is "stopped" by default), steps in or stays out after each
// escalating roll; a side deciding pays to go on after an interference
// that beat the stakes, or lets the contest stop.
//
// Among choices equally good for the goal the plan takes the cheapest
// (Goal.Ties "first": the first listed, as the plan did before it weighed
// costs). What counts as dearer, our ruling: Trauma, then each step of a
// Final Push (a trait lowered for good), then a Complication, then each
// Plot Point spent or handed over (extra dice, a paid Give In, stepping
// in, going on, each 1 the GM buys). A roll costs the Plot Points of its
// pool and the harm it risks at once, each harm times its chance: losing
// (a Complication), losing by the margin (Trauma, or the push's
// Complication and steps). Giving In costs nothing before the side has
// rolled and its cheaper price after. So a side that can no longer win
// Gives In rather than roll into a certain loss, and one the goal does not
// care how it loses pushes rather than take Trauma: the Detective's best
// play in the built-in scenario never takes Trauma where, weighing the
// goal alone, it did in 14.2% of games. Listed first where the costs are
// equal: Giving In, then fewer extra dice; buying fewer 1s; stepping in,
// paying to go on, taking the Trauma (each the dearer, so "first" keeps
// the old play).
//
// In a timed action the actor's side decides (the actor, with its
// helpers; Goal.Side its name or ""): in each gap whether the first helper
// still able tries to buy time (the one Play asks: Policy.BuyTime answers
// for that helper, and Play asks no other, so the plan does not choose
// among them); under TimedTroubleOff, which size of die each step won
// against the Trouble Pool takes off it (listed largest first, costing
// nothing); and, finished with zero beats left, between the objective and
// a clean getaway; its goal is the action's successes by default. Or the
// GM decides (Goal.Side GMSide, "GM"; its goal is out_of_time by default):
// how many of each roll's 1s to buy, each adding a Rules.TroubleDie to a
// Trouble Pool that a later step or helper rolls against. The timed chain
// follows the Trouble Pool wherever a roll to come reads it, so the GM's
// 1s (any policy's, in totals of at most two dice; past that, refused
// unless the GM buys none) and the dice taken off are exact; a policy
// choosing which die comes off is shown the pool largest first, whatever
// order the engine holds it in (every shipped policy picks by size).
//
// Left to the policies, because they cannot change the goal's probability
// within an action: which Trouble die comes off a beaten Trouble Pool in a
// basic action, where a Complication lands, whether the GM waives it and
// which Distinction effects the winner uses (all come once the action has
// ended, and its outcome is the goal); the 1s of a roll that ends the
// action; which traits a Final Push lowers (any that may be lowered avoid
// the same Trauma); the GM cashing Reflection Points and a side buying
// back lowered traits (between actions); in a timed action the
// Complication for running out of time (after the end) and the Plot Points
// the GM's 1s hand the roller (free pools never spend them). The Trouble
// Pool's side of a basic action or contest is no deciding side: it never
// Gives In, buys no extras and makes no Final Push. Not modelled, and so
// refused (markov.ErrNoExact): 1s the GM buys that would grow a Trouble
// Pool that contests (the contest's chain holds that pool fixed), the 1s
// of aid and interference rolls (OnesOfEveryRoll), a paid aid or
// interference pool, more than one interference, and timed pools that
// cost Plot Points. The chain of a basic action or contest follows the
// Trouble Pool's room (MaxTrouble) as the GM's 1s fill it wherever an
// action whose every raise beats the stakes could fill it; where ties beat
// the stakes or a tied opening is rolled again, only a run of ties could
// make an action longer, and a room past that bound is taken as never
// filling.
//
// Optimal.Policy plays the plan (through View.State) in Play and in
// Optimal.NewRunner's trials (in a timed action NewRunner gives the plan
// to the helpers too, or to the GM where it decides); Optimal.Answer is
// the plan's own (Plan.Answer), with its distribution of rounds counted
// as Exact counts them: the rolls. Scenario.Solve sets the best and the
// worst play beside each shipped policy in the side's place (the GM's,
// where the GM decides), the side's own policy as Own and what playing
// well is worth over it as Worth. In the built-in scenario the
// Detective wins 0.3817 with best play (0 if he Gives In at once); the
// Villain wins 0.6657 at best against 0.6654 with its stubborn policy,
// the difference being which of the Detective's 1s the GM buys; for the
// Detective the decision that matters most is to buy the extra die while
// he has a Plot Point and the Villain's gang stands: see ExampleScenario_Solve.
package contest
