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
// The package has the parts every rule package of stakes has:
//
//   - Rules holds every number and ruling as data; DefaultRules is the game
//     as written, with our rulings where it is silent.
//   - State is the whole state of one conflict (NewState sets one up): plain
//     exported data that saves and restores as JSON, checked whole by
//     Check when a save is decoded.
//   - Engine takes the steps: Roll, CrossOff, Resolve, Challenge,
//     Interfere, Drop, Stance, Injure and Settle by hand, or Step (one step)
//     and Play (to the end) asking Engine.Policies, one Policy per side,
//     the only way policies reach the engine. A step checks everything
//     first; a refused step changes neither the State nor the dice.Roller,
//     and a nil Roller is dice.ErrNilRoller. Its Sink hears every Event,
//     whose String narrates it; a nil Sink builds none.
//   - Policy is every choice the rules give a side, asked with a read-only
//     View. Style builds one from a part of each kind (stance, cross-off,
//     loss, target, interference, negotiation); PolicyByName and
//     PolicyNames look the shipped parts up by "kind/name".
//   - Legal-choice queries (Engine.Answerers, Interferers, Crossables,
//     Losses, each taking the *State) say what a side may do now, from the
//     checks the steps use.
//   - A negotiated outcome (Settlement) may take or move die sizes, tie an
//     endeavor to another stat, or give a specialization; either side may
//     refuse and fall back on exhaustion or injury. Campaign carries sheets
//     and the owe list from one conflict to the next, and NextChapter adds
//     to a sheet at a new chapter's setup.
//   - Scenario is the mechanic contract of sim (DefaultScenario is the
//     text's match-up, OweScenario the same with both names on the owe
//     list); ExchangeOdds and Duel give exact probabilities of one exchange
//     and a whole two-sided conflict, and Scenario.Exact returns a
//     two-sided scenario's as a markov.Answer, cross-offs included.
//   - Scenario.Optimal and Scenario.Solve find the best and the worst play
//     for a goal (see below).
//   - Scenario.Start and Scenario.Restore make a Game, this package's
//     sim.Game: a conflict played step by step under the scenario's
//     policies, saved as JSON (the scenario and the State) and restored
//     strictly and checked whole. Scenario.Describe says what the
//     scenario and each outcome and metric mean.
//
// # Questions a Chooser sees
//
// Game.Intercept sets a sim.Chooser that sees each answer a side's policy
// gives, with the *View it was asked from, and returns the answer the step
// takes, of the same type (any other type is an illegal answer: the step
// is refused and changes nothing):
//
//	question (phase)                           method     answer type
//	hang in or give (stance)                   HangIn     bool (true: hang in)
//	cross a name off (cast_rolled, answered)   CrossOff   int (owe-list index; -1: none)
//	name an answerer (challenge)               Target     int (side index; Drop: drop out)
//	interfere instead (interfere)              Interfere  bool
//	each member's loss (consequence)           Loss       Loss
//	propose a settlement (consequence)         Propose    *Settlement (nil: none)
//	accept it, as loser (consequence)          Accept     bool
//
// # Optimal play
//
// Two choices change how a two-sided conflict ends: the answerer's, to
// hang in or give, and each side's, to cross a name off the owe list at a
// comparison. Which die sizes an injury takes changes the sheet for later
// conflicts, not this one (the conflict is over once it is taken), and
// target and interference are no choices with two sides; so the solver
// leaves those to the side's own policy.
//
// Without names to cross off, what follows a stance does not hang on the
// dice showing (a hang-in starts the next round with the challenger's
// advantage die, a give ends the conflict), so Optimal solves Duel's chain
// over rounds as a decision process: in each round, by who carries the
// advantage die into it, the deciding side hangs in or gives whenever it
// must choose there. A cross-off does hang on the dice showing, so with
// names to cross off (a name of one of the side's players on the list, or
// its own going on it after the pair's first exchange because the other
// side's dice have more sides) the model follows the conflict as the
// Engine plays it: each cast and each answer with both rolls showing, the
// sides asked in turn whether to cross a name off (at a cast side A then
// side B, at an answer the answerer then the challenger), the comparison
// read, and the standing roll of whoever challenges next. Its states hold
// the rolls as the rules read them (the high die with its advantage dice,
// then the other dice), the names each side may still cross off and
// whether the pair's first exchange has had its say on the owe list; once
// no name is left to cross off, the rest is Duel's chain over rounds. The
// other side's policy is asked on a State set up as play would have it
// (its rolls showing as read: the high face carries the advantage dice), so
// Exact follows every shipped cross-off part, and the deciding side's
// cross-offs and stances are the solver's. Where the deciding side is the
// last asked, the model keeps of the standing roll only what the answer
// still meets: its high die and how its lower dice compare.
//
// The goal names outcome categories (the deciding side's wins by default).
// Optimal returns the plan's value, its exact Answer (read with the plan's
// walk of play, rounds included; the model with cross-offs gives no mean
// exchanges) and a Policy that plays it in Play or in a Runner
// (Runner.SetPolicy); Solve sets the best and the worst play beside each
// shipped stance (and, with cross-offs, each shipped cross-off part), with
// the gap between best and worst and the plan's decisions in words.
//
// For the default scenario and the goal "Althesa wins", hanging in always
// is best (0.3648) and giving always worst (0.2988): a gap of 6.6 points.
// Play to stay unhurt and giving becomes the best play. OweScenario puts
// both names on the owe list: Althesa crossing hers off eagerly wins
// 0.3967, when close 0.4123, never 0.1886 (Irin crosses his off when
// close); her best play wins 0.4922 and her worst 0.1410, a gap of 35
// points, solved over 42,805 states. The best play keeps her name at a
// cast she already leads and when her answer already blocks, and crosses
// it off when her answer is lower but over half (96% of the time) or half
// or less (always): a comparison she would lose or have to hang in from.
//
// Out of the exact model: three or more sides (the order of challenges,
// interference and who may cross off at each comparison make the state
// the whole table's rolls and turns; Exact and Optimal refuse them,
// wrapping markov.ErrNoExact), a player with characters on both sides (a
// name either may cross off), more than 64 names for one side, sides
// whose two rolls read more than 2^20 ways together, a process past
// markov.MaxProcessStates, a side's
// policy that reads more of a roll than the rules do (the high die with
// its advantage dice and the dice below it) or the round number,
// Rules.ShortRollTies, a Rules.MaxExchanges the conflict may reach with a
// chance over 1e-12 (a Chernoff bound on the exchanges, taken as if both
// sides hung in), and, with cross-offs, a Rules.MaxRecasts whose last
// recast ties with a chance over 1e-15. Without cross-offs, Exact follows
// MaxRecasts exactly: after the last recast the earlier-listed side
// challenges, as in play.
//
// # Rulings
//
// Where the text is silent the package follows the project's rulings,
// every one a setting of Rules:
//
//   - [src] three stats of two dice each and the standard allotment
//     (Stats, DicePerStat, Allotment); the five core endeavors, and
//     exhaustion or injury taking from the stats of exerting and enduring
//     (Endeavors, InjuryEndeavors).
//   - [text] two sizes for exhaustion or injury (InjurySizes), a d6
//     advantage die (AdvantageDie), "half or less" meaning
//     2 x answer <= challenge (DoubleFactor).
//   - [ours] ties read down the dice, a missing die counting 0 so an extra
//     die wins (ShortRollTies false; true breaks ties only with the dice
//     both rolls have).
//   - [ours] a true tie on the initial cast is recast (RecastTies, at most
//     MaxRecasts times a round); a conflict still going after MaxExchanges
//     answers is a stalemate.
//   - [ours] a die stepped below d4 is gone (D4Stays true: a d4 has no size
//     to lose); a character whose stat for the endeavor is empty is out
//     (EmptyStatReadsZero true keeps it in, reading 0).
//   - [ours] the owe list follows the text, not its example, which compares
//     18 sides with 18: a name goes on only when the opponent's dice have
//     strictly more sides (OweOnEqualSides true follows the example: with
//     sides equal in total, the side that answered the first exchange
//     goes on, Irin and not Althesa). It
//     compares a side's dice in total, helpers included, and looks at the
//     first exchange between each pair of sides.
//   - [ours] a name put on the owe list may be crossed off at the next
//     comparison of the same conflict: the text sets no wait
//     (OweWaitsForNextConflict true keeps it for a later conflict).
//   - [ours] one name crossed off per side per comparison
//     (CrossOffsPerComparison), its die added to the roll it is rolled for.
//   - [ours] advantage dice do not stack (AdvantageDice 1).
//   - [ours] with more than two sides: a cast whose two highest rolls truly
//     tie is recast by everyone; a hang-in or true tie ends that pair's
//     exchange and play goes on down the line (TieEndsRound true starts a
//     new round on a tie); any other side's sheet cancels a vulnerable
//     specialization (VulnerableToTarget true: only the declared target's);
//     when several sides may interfere, the highest roll among those
//     willing answers; giving or an outright loss puts a side out.
//   - [ours] a settlement's remaps and gained specializations must name an
//     endeavor on the loser's sheet, and each specialization gained is paid
//     for with a die size lost in the same settlement (GainCost): "you
//     can't add things to your character sheet" as a consequence. A sheet
//     grows only at the setup of its next chapter (Campaign.NextChapter),
//     and never by die sizes, which may only be moved.
package challenge
