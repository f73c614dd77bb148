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
// one die from the party pool. The target answers the same way, but its
// skills are limited: the same skill, a naturally opposed one, a skill
// that is safe in this kind of interaction, or another fitting skill at -1
// ("Wagering Edge Dice"). Everyone rolls a check (d20 plus modifiers, a
// setting in Rules). All checks are ranked; each staked die goes to the
// opposing check with the next higher result, and a die moves at most once
// a round, so dice just won are never at risk again. The highest single
// result takes the initiative ("Resolving a Wager"). In the rule text's
// car chase Joe (19) wins Bob's die (14) and loses his own to Becky (21),
// and Becky's car keeps the lead.
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
// Where the text is silent the package follows the project's rulings:
// exact ties go to the higher modifier and otherwise move nothing, the
// initiative holder keeps the initiative on a tie, and so on. Rules
// documents every default as [text] (the rule text), [src] (the published
// game) or [ours].
//
// Our own rulings beyond those, each a choice a designer can see in the code:
// with several parties only the initiative holder acts each round, the
// others react or try to seize; a party's starting and seizing checks are
// made by its member with the best modifier; the targets of one action
// oppose the actor, not each other; a passive party's checks rotate through
// its members, each with its best skill; a surrendering party's dice go to
// the initiative holder (or, if it held the initiative, to the party with
// most dice); abandoning stragglers is done once and lasts; outside-factor
// penalties last the rest of the interaction; only wagered checks count as
// uses for Can't Fool Me Twice (starting, seizing and outside checks do
// not); and Rules.MaxRounds ends an
// endless interaction as a walk-away.
//
// # Using it
//
// A Scenario (JSON) holds the Rules, the interaction Type, the Parties and
// their policies by name. Scenario.New gives an Interaction: explicit state
// driven by steps. Start makes the starting checks; Play resolves one
// declared round; Concede, Abandon and Outside apply the other choices and
// the GM's checks; Step does the next of these with the parties' Policy
// values deciding, and Run steps to the end. State and SetState save and
// restore the state as JSON; a Sink (such as a Recorder) receives events,
// and Describe narrates them.
//
// For simulation a Runner plays whole trials without allocating, and
// Scenario.Exact solves a two-party scenario exactly as an absorbing Markov
// chain over edge dice, initiative and skill history.
package edge
