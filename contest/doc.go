// Package contest implements the scenes-and-actions resolution of Gotham
// Reborn, a Smallville / Cortex Plus hack: dice pools built from rated
// traits, stakes set and raised, Complications and Trauma, and the
// countdown of a timed action.
//
// # Traits and pools
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
// its rolled traits it steps down (for good) adds five, but only to get
// under the five-point line, never to win. The winner rates a Complication
// by re-rolling its last pool without the dice that showed 1: the size of
// the die that comes up highest is the rating. An existing Complication
// takes a larger die or steps up; past d12 the character is Knocked Out
// with d6 Trauma, and Trauma past d12 takes it out of the story. A loser
// who did not Give In earns a Reflection Point.
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
// A Scene is plain data (JSON) holding characters, aspects, the Trouble
// Pool and the action under way. An Engine applies the steps (Begin, Roll,
// GiveIn, Push, Inflict, Aid, Interfere, Continue, Brawl, BuyOnes and the
// timed-action steps); each checks everything before changing anything.
// Play and PlayTimed run an action to its end asking Policy values at each
// choice. Scenario, Runner and Exact give designers simulated and exact
// odds. Every number lives in Rules; the field docs say which come from
// the text, which from the original game and which are our rulings.
package contest
