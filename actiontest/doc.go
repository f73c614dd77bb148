// Package actiontest implements the action test of Einfelst Wilds, a d6
// dice-pool game in the style of Blades in the Dark (chapter "Action Tests"
// and its sections "Position and Outcome", "Types of Consequences", "Levels
// of Difficulty", "Opposed Rolls" and "Adding Dice and Altering the
// Outcome").
//
// # The mechanic, in our words
//
// A character has five Attributes and thirteen Actions, each Action tied to
// one Attribute, all rated 0 to 5. To act, they add the Action's rating to
// its Attribute's and roll that many six-sided dice; every six is a success.
// Something no Action covers rolls the relevant Attribute alone. Help (one
// die a helper, three at most), equipment (usually one die, three at most),
// a Risk Peril deal (three dice, paid for whatever happens; priced in harm,
// Moderate or worse), dice carried from an earlier roll and other bonuses
// add dice; harm takes dice away; but at least one die is always rolled.
//
// A normal test needs one success, a challenging one two, a difficult one
// three. Before the roll the Director sets the position — Controlled, Risky
// (the default) or Desperate — and the position and the roll together pick
// a cell of the outcome table: from a success with a bonus (and, for a
// plain success when in control, a die carried to the next roll) down to
// the worst outcome: a serious complication, severe harm, and the chance
// gone. Successes beyond the requirement are extra successes to spend.
// Instead of a failed roll's consequences the Director may worsen the
// position, and the character rolls again from there: the same action,
// not yet won or lost.
//
// Once per action, after seeing the roll (even a success), a character may
// push: they take a level 1 harm of their choice and re-roll every die that
// is not a six with two more dice. A roll that took a Risk Peril deal cannot
// be pushed, and a character with no room left for the harm cannot push.
// Harm sits on a Physical and a Mental track with Lesser, Moderate and
// Severe rows; a full row passes harm up, and harm past the top is a
// critical injury. A character with Severe harm acts only when helped or by
// pushing. Once a day a character may play a flashback: a test set in the
// past, of difficulty 0 or 1 (ordinary), 2 (complex) or 3 or more
// (elaborate), which, if it goes well, adds dice to the next roll. In an
// opposed roll both sides roll and the most successes prevail; a tie means
// neither side succeeds nor fails, and against an NPC the Director may add
// a consequence.
//
// # Rules and rulings
//
// Every number and table above is a field of [Rules]; [DefaultRules]
// gives the published values, and each field's comment marks its default
// as the rule text's [text], the original game's [src], or our ruling
// [ours]. The rulings where the text is silent are settings:
//
//   - Rules.RetryMayPush, false [text]: a push is once per action, and the
//     Worse Position retry is the same action.
//   - Rules.PushHarmShrinks, false [ours]: the push's own harm does not
//     take dice from the re-roll.
//   - Rules.ZeroFlashbackRolls, false [ours]: a flashback of difficulty 0
//     calls for no roll and succeeds.
//   - Rules.MultipleOver, 1 [ours]: any success beyond the requirement
//     reads the table's "multiple successes" row.
//   - Rules.PushSpace, "track" [ours]: no room for a push's harm means the
//     harm would overflow the whole track.
//   - Rules.DefaultPosition, Risky [text]; Rules.MinPerilHarm, Moderate
//     [text].
//   - Rules.Opposed, the outcomes of an opposed roll: the most successes
//     prevail [text]; a tie between player characters is neither side's
//     [text]; a tie against an NPC is "You get what you want, but
//     something goes wrong", a success with a complication [text]; a loss
//     loses the opportunity [ours].
//   - A Worse Position retry the Director asks for instead of a failure's
//     consequences (Test.Escalate) records the outcome as neither won nor
//     lost (Kind neither, not succeeded): "You haven't failed, but you
//     haven't succeeded yet" [text], whatever the cell said [ours].
//   - Test.Requires, equipment the action needs, refuses a test whose
//     sheet does not carry it (Sheet.Equipment) [text].
//
// # Playing a test
//
// A [State] is a character in play as one saveable value (plain JSON):
// the rules, the sheet (ratings by name), the shipped Director it names,
// harm, flashbacks used, carried dice, and the roll in flight with what it
// recorded ([State.Attempt] for the action's roll, [State.Flashback] for a
// flashback's). [NewState] makes one; [State.Check] validates one read
// back (or edited by hand) whole before any step reads it. An [Engine]
// holds its [Engine.Policies], a [Table] of the player's [Policy] and the
// [Director] (the one way either reaches the steps), and a Sink; the zero
// Engine is ready (Never playing, the state's Director ruling). Its steps
// take a *State, each checking everything before it changes anything, so
// a refused step changes neither the state nor the [dice.Roller], and
// each refuses a nil Roller with dice.ErrNilRoller:
//
//   - [Engine.ActionTest] plays one whole action test, the text's word:
//     begin, push or not, read the table, retry at a worse position,
//     spend the extra successes, every choice asked of the policies;
//   - [Engine.Step] takes the next step of the action under way (push or
//     finish the roll in flight, roll a Worse Position retry), and
//     [Engine.Play] steps until [State.Done];
//   - [Engine.Begin] rolls a test (a roll already in flight must be
//     finished first: beginning again would be a free re-roll);
//   - [Engine.Push] pushes the roll in flight, its harm on a named track;
//   - [Engine.Finish] reads the table and applies it;
//   - [Engine.Retry] re-rolls the action at the worse position its
//     outcome asked for, [Engine.RetryTest] giving the retry's test;
//   - [Engine.FinishOpposed] reads an opposed roll against the
//     opponent's successes;
//   - [Engine.Spend] and [Engine.SpendExtra] buy effects with extra
//     successes ([Rules.Effects]).
//
// The legal-choice queries [Engine.CanBegin], [Engine.CanRetry],
// [Engine.CanPush], [Engine.PushTrack], [Engine.Buyable] and
// [Engine.CanSpend] answer what may be done now, from the same checks.
// The player's choices — risk peril, push, spend, and (in a scenario)
// call the flashback — are a [Policy] shown a read-only [View]; the
// shipped policies are found by [PolicyByName] and [PolicyNames], and
// [Spending] gives one a way of spending ([SpendOrderByName]).
//
// The Director is the other role at the table, its own interface
// [Director] rather than a fourth method of Policy: the player chooses
// during a test, the Director rules on what a roll costs. A state names a
// shipped one ([DirectorByName]: "table", "harsh", "gentle") so that a
// saved state keeps it; a Director of your own goes in
// Engine.Policies.Director, or in a Scenario's Directors, named by the
// scenario's Director: no registry, no global.
//
// Saved values name what they refer to, as the rules name it: a
// [Position] is the name of one of Rules.Positions ("" the default), harm
// sits on named tracks ([TrackHarm]) in named rows, each row of the
// outcome table names its position and its columns, and outcome kinds,
// bands, stages, effects and metrics write as names. The numbers left are
// counts, dice faces and harm levels (Level 1 harm is the text's own
// word); an unknown name is refused with a few of the names allowed. A
// Sink, a func([Event]), hears every roll, push, harm and outcome; a nil
// Sink builds no event. Events write as JSON and read back, and
// [Event.String] narrates each as a sentence ("Vex pushes the roll, paying
// with physical harm, and re-rolls 6 dice: 6 4 2 6 1 3, 2 successes in
// all.").
//
// There is one rules engine: a simulated trial, the exact odds and a test
// played by hand go through these steps, and every die is rolled by the
// dice package.
//
// # Exact odds
//
// With a pool of n dice each die succeeds with chance 1/6, so the successes
// of an unpushed roll are Binomial(n, 1/6). A push keeps the s successes
// and re-rolls the other n-s dice with two more, so the final count is s
// plus a fresh Binomial(n-s+2, 1/6); summing over the first roll, with the
// policy deciding for each s whether to push, gives the exact distribution
// ([Rules.SuccessDist]). [Engine.Chances] and [Rules.Odds] read it
// through the outcome table by walking the same steps a real test takes,
// and [Rules.OpposedOdds] compares two binomials.
//
// # Scenario
//
// [Scenario] is the simulation face: a character pursuing a goal — a
// progress clock — over repeated tests, each success filling a segment (and
// one more per extra success not spent on effects), each failure either
// worsening the position for another try or losing the chance, with harm
// accumulating from the table, pushes and peril. [Scenario.NewRunner]
// makes a [Runner] whose Trial plays a pursuit without allocating;
// [Scenario.Start] and [Scenario.Restore] make a [Game], the sim.Game
// contract: a pursuit a step at a time, saved as JSON (scenario, state and
// [Pursuit]) and read back strictly and checked whole. [Scenario.Exact]
// solves the pursuit as an absorbing Markov chain, and
// [Scenario.Describe] says what its outcomes and metrics mean.
//
// A Game's Chooser ([Game.Intercept]) is handed each answer of the
// player's policy with the *[View] it was asked from, and returns the
// answer the step takes, of the same type:
//
//	question    when                                   answer type
//	peril       before a roll whose test offers a deal  bool (take the deal)
//	push        after a roll that can be pushed         PushAnswer{Push, Track}
//	spend       after a test with extra successes       []int (indices into Rules.Effects)
//	flashback   after a failure that worsened the       bool (call it now)
//	            position, with one left today
//
// An answer of another type, or an illegal one (a Risk Peril deal that
// forbids the push a character with severe harm needs to act, keeping a
// roll that must be pushed, a push onto an unknown track or one without
// room, spending on an effect the test cannot buy), refuses the step, and
// the game and the Roller are then as they were. The *View, and the
// spending the Chooser is handed, are the game's, good only during the
// call.
//
// # Optimal play
//
// [Scenario.Optimal] solves the pursuit as a decision process: in every
// situation where the character chooses, it finds the choice that makes a
// goal (some of the Categories) most likely, or least likely, and returns
// the odds with a [Policy] that plays the plan in a game of the scenario
// ([Game.SetPlayer]). The choices are the text's:
//
//   - take the Risk Peril deal offered before a roll, or decline it;
//   - keep a roll (the action's or a flashback's) or push it, and then
//     which track the push's harm goes on ("You can choose the type of
//     Harm");
//   - call the day's flashback after a worsening failure, or keep it for
//     a later one;
//   - spend a finished roll's extra successes on heals ("the Director may
//     deem your surge in confidence so great that you heal a Harm"), or let
//     them fill the clock.
//
// The process is built by playing the Runner's own steps from every
// situation, with every answer the legal-choice queries allow and every
// count of successes the dice can show (the opponent's too, in an opposed
// pursuit). The solver explores at most 65,536 situations, playing at
// most 2^20 steps to find them, and refuses a pursuit that needs more
// (markov.ErrTooLarge) once it passes either bound, in about a second: the
// rooftop chase has 9,078 situations, the same chase to a clock of 8
// segments 38,131.
//
// [Scenario.Solve] sets the best play beside the worst and each shipped
// policy's exact odds, and says first what playing well is worth over the
// scenario's own policy. In the rooftop chase the thief reaches
// the clock with chance 0.782 playing best, 0.490 playing as the scenario
// does ("threshold": playing well is worth 29.2 points) and 0.133 playing
// worst; the decision worth most is to decline the Risk Peril deal before
// a Risky test, then to push a Desperate roll that fell one success short.
//
// Among equally good choices the plan takes the cheapest
// (markov.Choice.Cost, here in harm levels), then the first listed; a goal
// whose Ties is "first" takes the first listed whatever it costs. What
// each choice costs, each listed after the cheaper:
//
//   - keeping a roll, declining a deal, keeping the flashback and every
//     way of spending extra successes cost nothing (the successes are the
//     clock's, which the goal counts; the scenario's own way of spending is
//     listed first, then buying nothing);
//   - calling the flashback costs the day's flashback: half a harm level
//     [ours];
//   - a push costs the level of the row its harm fills on the track it
//     goes on (a full row passes harm up: 1 for a Lesser slot, 2 Moderate,
//     3 Severe, 4 a critical injury under the default rows), the Action's
//     own track listed first;
//   - a Risk Peril deal costs the level of the row its harm fills, or, for
//     a price that is not harm (collateral damage, an item, a friend), the
//     least level a deal may cost (Rules.MinPerilHarm) [ours].
//
// So the plan never pushes, takes a deal or calls the flashback where
// doing without does as well, and puts a push's harm where it fills the
// lowest row when either track does as well. (By listing order alone, the
// best play of the rooftop chase took such needless harm 0.029 times a
// game.)
//
// What the process leaves to the scenario, and why:
//
//   - The Action and the position: "Based on the Action, the Director sets
//     the Position", from the fiction, so a scenario is one approach at one
//     position (sweep Scenario.Action and Position to compare approaches).
//     The text has no effect level to trade against position, as Blades in
//     the Dark has.
//   - Help: each helper adds a die at no cost to them in this text (Blades
//     in the Dark's helper takes stress), so helping is never worse than
//     not: it is Scenario.Helpers.
//   - Resistance rolls: the text has none; the consequences the Director
//     rules stand ([Director], Scenario.Escalate).
//   - The flashback's difficulty: the Director sets it
//     (Scenario.FlashbackDifficulty).
//   - Extra successes spent on effects other than heals: only as the
//     scenario's way buys them (Scenario.Spend). Help for an ally and
//     narrative effects do nothing the pursuit tracks (their worth lies
//     outside it), so in a pursuit they only take successes from the
//     clock. A bonus die [ours] makes the next roll bigger and its extra
//     successes more, so the dice a roll can hold, and the situations with
//     them, grow with every success: weighing bonus dice in the rooftop
//     chase takes 42,150 situations and 1.7 s of work against 9,078 and
//     0.12 s, for the same best play (0.782012), and with help for an
//     ally as well a roll's extra successes can be spent more than 256
//     ways.
package actiontest
