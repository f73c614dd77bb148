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
// its rolled traits it steps down adds five, but only to get under the
// five-point line, never to win. A lowered trait stays lowered until its
// owner buys the lost steps back with Reflection Points (Engine.Rebuy). The winner rates a Complication
// by re-rolling its last pool without the dice that showed 1: the size of
// the die that comes up highest is the rating. An existing Complication
// takes a larger die or steps up; past d12 the character is Knocked Out
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
// A Scene is plain data (JSON) holding characters, aspects, the Trouble
// Pool and the action under way. An Engine applies the steps (Begin, Roll,
// GiveIn, Push, Inflict, Aid, Interfere, Continue, Brawl, BuyOnes and the
// timed-action steps); each checks everything before changing anything.
// A caller that keeps no Scene can roll a basic action between two bare
// pools with Engine.BasicRoll, which reads the same faces from the same
// Roller state as the scene's two Roll steps.
// Play and PlayTimed run an action to its end asking Policy values at each
// choice. Scenario, Runner and Exact give designers simulated and exact
// odds: TotalDist, PBeat and PBeatValue read pools exactly, and
// Scenario.Exact solves a basic or two-sided contested action (gangs, aid,
// interference, Plot Points, 1s bought and every policy included) or a
// timed action as an absorbing Markov chain over the stakes, whose turn it
// is and what the policies can see. Every number lives in Rules; the field
// docs say which come from the text, which from the original game and
// which are our rulings.
//
// # Rulings where the text is silent
//
// These are ours (Rules marks each number as from the text, the source or
// us): three traits are free; a tie for the highest opening roll
// means everyone rolls again; with more than two sides the turn passes
// round the table and a side that fails is beaten by the holder and leaves;
// the Trouble Pool only opposes basic actions and, when beaten, loses the
// die its beater picks (Policy.TroubleOff; Sensible takes the largest); a
// Plot Point paid to Give In goes to the stakes holder; a Final Push
// lowers only the pusher's own traits that it rolled, one at a time as its
// policy picks them (Policy.PushStep; Sensible lowers the smallest first
// and a Value last), no more steps than needed, and a stakes holder
// pushing must still lose; a lowered trait remembers its rating
// (Trait.Original) and buying back a step costs Rules.RebuyCost Reflection
// Points (one), between actions, never above that rating, Play offering
// each side's policy the chance (Policy.Rebuy) before the GM cashes; the Complication Pool is
// the whole winning pool less its 1s (Rules.ComplicationKeptOnly keeps only
// the two dice of the total), an empty one rates d4, and a Complication is
// named after whoever inflicted it unless the policy piles it onto an
// existing one; an aider's die adds to the side's next total, a 1 adding
// nothing, and aiders share the harm when their side is beaten but not
// when it Gives In; one interference a contest, between two sides only;
// unless both pay nobody does; the brawl rerolls each side's last pool at
// no cost, a tie going to the stakes holder, and deals Complications only;
// the GM may buy each 1 of an action roll by a player character (not of
// aid or interference); in a timed action a failed step still moves on,
// finishing every step with beats left is full success, bought time never
// exceeds the starting beats, a helper rolls against the next step's
// stakes, and the out-of-time Complication is rated from the last stakes
// roll.
package contest
