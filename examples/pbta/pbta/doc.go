// Package pbta is a fight in the manner of Powered by the Apocalypse
// games, the family of Apocalypse World (Vincent Baker and Meguey Baker,
// 2010; second edition 2016): a mechanic of stakes written from outside
// its rule packages, with the exported API only, to show how a sixth
// mechanic joins the library and the designer's command line.
//
// # The moves
//
// Apocalypse World plays as a conversation in which the players' characters
// make moves: when a character does something the move names, the player
// rolls 2d6 and adds one of the character's stats [text]. The total reads
// in three bands, the structure every game of the family shares:
//
//   - 10 or more: a full success; the character does it, cleanly.
//   - 7 to 9: a success at a cost; the player chooses what it costs.
//   - 6 or less: a miss; the MC (here the GM) makes a move "as hard as
//     they like" [text].
//
// Harm is counted on a clock of six segments for a player character, the
// character out of the fight when it fills; armor takes its value off
// every harm suffered; a threat the GM plays has a harm it deals and a
// harm it can take [text, simplified: no clock times, no debilities].
//
// This package plays one character against one threat, exchange by
// exchange, until one of them is out or the fight breaks off (each number
// is a setting of Rules, Character or Threat; [ours] marks our own):
//
//   - The player picks a move: go in hard (roll + Hard; a hit deals the
//     character's harm plus Rules.TerribleHarm, Apocalypse World's
//     "inflict terrible harm") or play it cool (roll + Cool; a hit deals
//     the character's harm) [ours, after seize by force and do something
//     under fire].
//   - 10+: the threat takes the harm; the character takes none.
//   - 7-9: the player pays a cost: trade blows (the threat takes the harm,
//     the character takes the threat's) or hold back (the character takes
//     nothing, the threat Rules.HoldBack less) [ours].
//   - 6-: the GM's hard move: inflict harm (the threat's harm, as
//     established) or regroup (the threat shakes off Rules.Regroup harm;
//     open once it is hurt) [ours].
//   - A character whose clock fills, and a threat that has taken its
//     capacity, are out. The fight ends between exchanges: victory,
//     defeat, both_down (both out in one exchange of traded blows) or,
//     after Rules.MaxExchanges exchanges, standoff [ours].
//
// # The skeleton
//
// The parts have the names every mechanic of stakes shares: Rules with
// DefaultRules and Validate; State (plain JSON) with Check and Done;
// NewEngine, whose Engine takes one step under its Policies (a Table of a
// player Policy and a GMPolicy) with Step and plays to the end with Play;
// the steps the rules name, Exchange (the roll), PayCost and HardMove;
// the legal-choice queries Moves, Costs and HardMoves; Event, whose String
// narrates a step; Scenario, which satisfies sim.Scenario (Start and
// Restore make a Game, sim.Game's fight in progress), answers exactly
// (Exact, an absorbing chain of sim/markov over the harm on both sides and
// the exchanges rolled) and finds the best and the worst play of either
// role (Solve, a decision process over the same steps). Shipped policies
// are found by name: PolicyByName, GMPolicyByName.
//
// The questions a sim.Chooser sees, each with the engine's *View: the
// player's move (a Move), the player's cost after a 7-9 (a Cost), and the
// GM's hard move after a miss (a HardMove). Every step validates the answer
// before it rolls or changes anything, so a refused answer leaves the
// State and the Roller as they were.
package pbta
