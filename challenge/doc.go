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
//     scenario's of two sides (cross-offs included) or three as a
//     markov.Answer.
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
// is refused, changes nothing, and a listener hears none of it):
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
// With three sides ("legitimately more than two sides to the conflict")
// the deciding side has three more kinds of choice, and the model of
// three sides makes every one: at its turn to challenge, whom to name or
// whether to drop out (asked at the round's first challenge when its
// cast is highest, and at its later turn when two others are left or its
// declared target is gone); whether to interfere when another challenges
// and its cast beats the named side's; and, answering lower but over
// half, whether to hang in or give. A round runs as the text has it: every
// side casts, the highest challenges (a true tie at the top is recast),
// the side not named may interfere, the two play their exchange out, then
// the side yet to challenge or answer challenges with its cast standing,
// and a new round begins; with two left a round is one exchange.
// Inside an exchange nobody chooses until it ends (in a tie, an outright
// win or an answer over half), and how it ends hangs only on the roll it
// began with, so each exchange is solved once for every standing roll and
// the model's states are the points where someone chooses or a turn
// begins. They hold the rolls the rest of the round reads whole: every
// cast at the round's first challenge, later only the cast of the side
// yet to challenge, and how the other two rolls compare (what the
// shipped target parts read of them). The other sides' policies are asked
// on a State set up as play would have it; a stance once for an
// exchange's end, without the rolls, which no shipped stance reads.
// Exact answers a conflict of three sides the same way, every side
// playing its policies (the text's match-up with a third character of two
// dice, in about a third of a second). A brute force over the Engine's
// own steps, the deciding side choosing with the whole State in view,
// agrees with the model to 1e-9.
//
// The goal names outcome categories (the deciding side's wins by default).
// Optimal returns the plan's value, its exact Answer (read with the plan's
// walk of play, rounds and their distribution included; the models with
// cross-offs and of three sides give no mean exchanges) and a Policy that
// plays it in Play or in a Runner (Runner.SetPolicy); Solve sets the best
// and the worst play beside each shipped part that acts (the stances;
// with cross-offs the cross-off parts; with three sides the target and
// interference parts) and the side's own play, named by those parts with
// the defaults spelled out ("stance/hang_in, cross_off/eager"), with what
// playing well is worth over it, the gap between best and worst and the
// plan's decisions in words. The deciding side reads by its characters'
// names ("Irin and Mitch"), as play narrates it; a goal names it by the
// scenario's side name.
//
// Among equally good choices the plan takes the cheapest (Goal.Ties
// "cheapest", the default), and with Goal.Ties "first" the first listed.
// A choice that keeps the side in the conflict or puts it into an
// exchange, where an outright loss takes Rules.InjurySizes die sizes,
// costs those sizes: hanging in, challenging, interfering. Giving,
// dropping out and letting the named side answer cost nothing; crossing a
// name off costs the name (one), keeping the names nothing. So where
// hanging in gains nothing the plan gives, sparing the dice. The options
// are listed hang in before give, keep the names before crossing one off,
// each side that may be challenged in order before dropping out, and
// interfere before letting the named side answer.
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
// Of three sides worn to one die each (Althesa d10, Irin d8, Mitch d6,
// who meddles), Irin wins 0.3121 by his own play and 0.3568 by his best:
// it never interferes when Althesa challenges Mitch (interfering would
// cost 0.0891 a game), and challenging first it names Althesa when her
// cast is above Mitch's, where his own play names the lower roll.
//
// Out of the exact models, refused with an error wrapping
// markov.ErrNoExact that says why:
//
//   - more than three sides: a later turn of a round may be interfered
//     with by every side yet to challenge or answer, so a state would hold
//     all their casts whole (some 50 readings each for two dice a side:
//     50^3 situations and more at every turn);
//   - with three sides, names to cross off (the deciding side's, or
//     another's whose policy crosses them off): a cross-off at a cast is
//     asked with every side's roll showing, and at every answer with the
//     standing roll, the answer and the cast still waiting, all whole,
//     which the model keeps only at the round's first challenge;
//     Rules.OweWaitsForNextConflict, or sides no other side's dice
//     outclass, keep names for a later conflict;
//   - with three sides, a deciding side that chooses at the round's first
//     challenge in more situations than markov.MaxProcessStates: it
//     chooses there with every cast showing, so the model has a state for
//     each (some 10^5 for two dice a side, for every way the advantage
//     dice may lie); sides of one die, or of two small ones (d6 d4), fit,
//     and Exact answers such scenarios all the same; casts of three sides
//     that read more than 2^21 ways together;
//   - a player with characters on both sides of a duel with cross-offs (a
//     name either may cross off), more than 64 names for one side, sides
//     whose two rolls read more than 2^20 ways together, a process past
//     markov.MaxProcessStates;
//   - a side's policy that reads more of a roll than the rules do (the
//     high die with its advantage dice and the dice below it) or the round
//     number; Rules.ShortRollTies;
//   - a Rules.MaxExchanges the conflict may reach with a chance over
//     1e-12: a Chernoff bound on the answers rolled, taken as if both
//     sides hung in for two sides, and over every play for three (a round
//     that keeps every side in weighs at most the casts' likeliest
//     exchange and the heaviest last turn);
//   - with cross-offs or three sides, a Rules.MaxRecasts whose last recast
//     ties with a chance over 1e-15 (those models recast without limit).
//     Without them, Exact follows MaxRecasts exactly: after the last
//     recast the earlier-listed side challenges, as in play.
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
