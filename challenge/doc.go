// Package challenge implements the conflict rules of Vincent Baker's 2006
// playtest game Art, Grace & Guts (the ancestor of In a Wicked Age), from
// its chapter "Action & Consequence".
//
// A character has stats (Art, Grace and Guts by default), each holding dice
// from d4 to d12; a standard character spreads one d12, one d10, one d8,
// two d6 and one d4 across them, two to a stat. Each endeavor a character
// undertakes (asserting itself, defending itself, enduring duress, exerting
// itself, influencing others, and any the player adds) is tied to a stat,
// and acting by an endeavor means rolling that stat's dice. A
// specialization adds a second stat's dice on its endeavor, unless the
// opponent holds the specialization it is vulnerable to.
//
// A roll is read by its highest die, plus any advantage die; ties look at
// the next dice down, a missing die counting as nothing, and only rolls
// equal in every die truly tie (dice.Compare implements this reading).
//
// A conflict opens with everyone casting. The higher roll challenges; the
// answerer rolls again and the new roll meets the challenger's standing
// roll. A higher answer blocks and turns the tables, so the answerer now
// challenges. An answer of half the challenge or less loses outright: the
// winner takes two die sizes from the loser's stat for exerting or for
// enduring (or the two negotiate something else), and the conflict ends.
// An answer in between leaves the answerer a choice: hang in, so that the
// challenger rolls an advantage die (a d6 added to the high die) through
// the whole next round, or give, ending the conflict without injury. A
// true tie blocks and starts a new round with no advantage.
//
// Helpers roll with the character they help as one side: only the highest
// die matters, its roller speaks for them, and an outright loss injures
// them all. With more than two sides, the highest roll challenges first
// and names an answerer; a side showing a higher roll than that answerer
// may interfere and answer instead; then the highest roll yet to challenge
// or answer goes next, turning on someone else or dropping out if its
// answerer is gone. When everyone has had a turn, a new round begins.
//
// The owe list outlives conflicts: a character goes on it when its
// opponents' dice have more sides in total and do not double it in their
// first exchange, and a player may cross one of their characters off at
// any comparison to roll an advantage die at once.
//
// # Using the package
//
// Rules holds every number as data (DefaultRules is the game as written).
// State is the whole state of one conflict, driven by step functions
// (Roll, CrossOff, Resolve, Challenge, Interfere, Drop, Stance, Injure,
// Settle) or by policies through Step and Run; it saves and restores as
// JSON and reports Events through an optional Trace (a Log records them).
// A negotiated outcome (Settlement, through the Negotiator hook) may take
// or move die sizes, tie an endeavor to another stat, or give a
// specialization; either side may refuse and fall back on exhaustion or
// injury. Campaign carries
// sheets and the owe list from one conflict to the next. Every choice the
// rules give a player is a policy (StancePolicy, CrossPolicy, LossPolicy,
// TargetPolicy, InterferePolicy, Negotiator) with built-in alternatives
// named in a registry (Policies, PolicyByName).
//
// ExchangeOdds and Duel give exact probabilities for one exchange and a
// whole two-sided conflict. Scenario, Runner and Exact are the face the
// simulator and CLI use.
//
// # Rulings
//
// Where the text is silent the package follows the project's rulings, all
// settings in Rules: [src] three stats of two dice each and the standard
// allotment; [src] the five core endeavors, and exhaustion or injury
// taking from the stats of exerting and enduring; [ours] ties read down
// the dice, an extra die winning; [text] "half or less" means
// 2 x answer <= challenge; [ours] a true tie on the initial cast is
// recast; [ours] a die stepped below d4 is gone and a character whose
// stat for the endeavor is empty is out; [ours] the owe list follows the
// text, not its example, which compares 18 sides with 18; [ours] at most
// one name is crossed off per side per comparison. Further choices of
// ours: the owe list compares a side's dice in total (helpers included)
// and looks at the first exchange between each pair of sides; advantage
// dice do not stack, and a crossed-off name's die adds to the roll it is
// rolled for. With more than two sides, a cast whose two highest rolls
// truly tie is recast by everyone; a hang-in or true tie ends that pair's
// exchange and play goes on down the line; when several sides may
// interfere, the highest roll among those willing answers; giving or an
// outright loss puts a side out.
package challenge
