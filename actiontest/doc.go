// Package actiontest implements the action test of Einfelst Wilds, a d6
// dice-pool game in the style of Blades in the Dark (chapter "Action Tests"
// and its sections "Position and Outcome", "Types of Consequences", "Levels
// of Difficulty" and "Adding Dice and Altering the Outcome").
//
// # The mechanic, in our words
//
// A character has five Attributes and thirteen Actions, each Action tied to
// one Attribute, all rated 0 to 5. To act, they add the Action's rating to
// its Attribute's and roll that many six-sided dice; every six is a success.
// Help (one die a helper, three at most), equipment (usually one die, three
// at most), a Risk Peril deal (three dice, paid for whatever happens), dice
// carried from an earlier roll and other bonuses add dice; harm takes dice
// away; but at least one die is always rolled.
//
// A normal test needs one success, a challenging one two, a difficult one
// three. Before the roll the Director sets the position — Controlled, Risky
// or Desperate — and the position and the roll together pick a cell of the
// outcome table: from a success with a bonus (and, for a plain success when
// in control, a die carried to the next roll) down to the worst outcome: a
// serious complication, severe harm, and the chance gone. Successes beyond
// the requirement are extra successes to spend. Instead of a failure's
// consequences the Director may worsen the position, and the character
// rolls again from there.
//
// Once per action, after seeing the roll (even a success), a character may
// push: they take a level 1 harm of their choice and re-roll every die that
// is not a six with two more dice. A roll that took a Risk Peril deal cannot
// be pushed, and a character with no room left for the harm cannot push.
// Harm sits on a Physical and a Mental track with Lesser, Moderate and
// Severe rows; a full row passes harm up, and harm past the top is a
// critical injury. A character with Severe harm acts only when helped or by
// pushing. Once a day a character may play a flashback: a test of
// difficulty 0 to 3 set in the past, which, if it goes well, adds dice to
// the next roll. In an opposed test both sides roll and the most successes
// win; a tie means neither side gets what it wanted.
//
// # Using the package
//
// Every number and table above is a field of [Rules]; [DefaultRules] marks
// each as taken from the rule text, the original game, or our own ruling.
// A [Character] holds the ratings and a [State] (harm, flashbacks used,
// carried dice) that saves and restores as JSON. A test is played in steps —
// [Character.Begin] rolls, [Character.Push] optionally pushes,
// [Character.Finish] reads the table and applies it — each recorded in an
// [Attempt] that lists the dice rolled, re-rolled and why. [Character.Play]
// runs the same steps with a [Policy] making the choices; policies are
// named in a registry ([PolicyByName], [Policies]) so scenario files can
// pick them. There is one rules engine: a simulated trial, the exact odds
// and a test played by hand all go through these steps, and every die is
// rolled by the dice package.
//
// Extra successes can buy effects ([Rules.Effects], one success each by
// default: help an ally who failed the same Action, heal the lowest harm,
// carry a die to the next roll); [Character.Spend] buys named effects on a
// finished test and [Character.SpendWith] lets a [Spender] choose
// ([SpenderByName]: "none", "heal_first", "bonus_dice").
//
// Where the table leaves the Director a choice — which consequences
// follow a roll (a complication, a lost opportunity, a worse position,
// harm) and how severe — a [Director] rules ([Character.SetDirector],
// [DirectorByName]): "table" deals the table's consequences as listed (the
// default), "harsh" adds harm to every cell with consequences, "gentle"
// turns the table's harm into complications. A Director rules once per
// table cell when it is set, so it costs nothing per test.
//
// An optional [Sink] (such as a [Recorder]) hears every roll, push, harm
// and outcome; without one the steps allocate nothing.
//
// # Exact odds
//
// With a pool of n dice each die succeeds with chance 1/6, so the successes
// of an unpushed roll are Binomial(n, 1/6). A push keeps the s successes
// and re-rolls the other n-s dice with two more, so the final count is s
// plus a fresh Binomial(n-s+2, 1/6); summing over the first roll, with the
// policy deciding for each s whether to push, gives the exact distribution
// ([Rules.SuccessDist]). [Character.Chances] and [Rules.Odds] read it
// through the outcome table by walking the same engine steps a real test
// takes, and [Rules.OpposedOdds] compares two binomials.
//
// # Scenario
//
// [Scenario] is the simulation face: a character pursuing a goal — a
// progress clock — over repeated tests, each success filling a segment (and
// one more per extra success not spent on effects), each failure either
// worsening the position for another try or losing the chance, with harm
// accumulating from the table, pushes and peril. [Scenario.Exact] solves it
// as an absorbing Markov chain; [Runner] samples it without allocating.
package actiontest
