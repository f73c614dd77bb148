// Package dice is the random seam and the dice arithmetic under every rule
// package in stakes: exact die rolls from the caller's generator, dice
// sizes and the d4-d12 step ladder, pools in dice notation, readings of
// rolled faces, and exact probability distributions of those readings.
//
// # Randomness
//
// Everything random goes through a Roller built on a math/rand/v2 Source
// that the caller owns (rand.NewPCG, rand.NewChaCha8, or any type with a
// Uint64 method, golang.org/x/exp/rand's sources included). There is no
// package-level generator and nothing is seeded from the clock: the same
// Source state gives the same rolls. A Roller serves one goroutine.
//
// Draws are exact. A die of s sides uses Lemire's multiply-and-reject
// method, so every face has probability exactly 1/s; several dice may share
// one 64-bit draw (21 d6, 12 d20) because multiplying through a batch of
// sizes is the same method over the product of the sizes. For the size
// rolled last the Roller keeps the unused part of its draw and takes later
// dice from it, one multiply a die. SumN totals such dice without writing
// them out (a 3d6 check), and RollCount rolls them and counts successes in
// one pass; a Pool of mixed sizes knows from when it was made whether one
// draw holds it all.
//
// Scripted returns a Roller that plays back given faces, for worked examples,
// tests, and tools where people roll physical dice and type the results in.
//
// # Saving and restoring
//
// A Roller implements encoding.BinaryMarshaler and BinaryUnmarshaler, so a
// game saved as its state plus its Roller resumes exactly. The saved bytes
// hold the unused part of the last draw (how many faces of which size it
// still holds) and the Source's own saved state; for a scripted Roller,
// its faces, how many are used and the first problem it met. A Roller
// restored from them returns, from every method, exactly what the saved
// Roller would have returned next; nothing else about the past replays.
// Rollers over math/rand/v2's PCG (NewSeeded's included) and ChaCha8
// restore into a zero Roller (var r dice.Roller; r.UnmarshalBinary(b)),
// which recognises their saved forms. Any other Source that implements
// encoding.BinaryMarshaler saves too, and restores into a Roller made with
// NewRoller over a Source of the same kind. A Source that cannot save
// itself makes MarshalBinary fail rather than save a Roller that would not
// replay.
//
// # Pools and readings
//
// A Pool is a multiset of dice with a flat modifier that reads and writes as
// notation ("3d6", "d12 d6", "2d8 d4", "4d6+2"); it implements
// encoding.TextMarshaler and TextUnmarshaler and flag.Value. Limits
// (MaxDice, MaxSides, MaxModifier) keep hostile input from exhausting memory.
//
// Readings work on faces in a caller's buffer and allocate nothing: Highest,
// Sum, CountAtLeast (successes), SumHighest (the k highest, with faces such
// as 1s excluded, as Cortex-family games total a pool) and Compare (high die
// first, ties broken by the next dice, as Art, Grace & Guts reads a roll).
//
// # Exact distributions
//
// Dist holds the exact probability of each integer outcome, with its mean,
// variance, CDF, quantiles and comparisons between independent outcomes:
// Greater, AtLeastDist and BeatsBy (P(X - Y >= m), a designer's "win by 5
// or more"). No integer argument, however large, overflows: a query past
// the int range answers 0 or 1, and Shift or Add that would leave it is
// an error.
//
// SumOf, HighestOf, SuccessesOf, KeepHighestOf and KeepLowestOf build the
// distributions of the readings above for any mixed pool, never by
// enumerating rolls: keep-highest and keep-lowest work face by face with
// binomial counts, so 100d6 keep 3 and the two highest of twenty mixed
// d4..d12 take well under a millisecond. Binomial (successes in n trials)
// and Hypergeometric (marked cards in a hand drawn without replacement)
// are the counting distributions the rule packages need; rule packages
// take them from here rather than computing their own. ChiSquare tests
// sampled counts against a Dist, which the rule packages use to check
// their samplers.
//
// Every exact constructor bounds its memory and work before it allocates
// and returns an error wrapping ErrTooLarge, saying what was too large,
// past the limits: MaxOutcomes (2^24 outcomes in one distribution),
// MaxCells (2^22 probabilities in a keep-highest or keep-lowest table) and
// MaxWork (2^31 multiply-adds, a few seconds). 10000d6 summed, 10000d6
// keep 3 and 100d6 keep lowest 3 fit; 100 d4096 keep 100 or the sum of
// 10000 d1677 are refused at once.
package dice
