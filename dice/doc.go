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
// Draws are exact. Every face, IntN and shuffle comes from one bounded
// draw, Lemire's multiply-and-reject method (as math/rand/v2's uint64n;
// roller.go explains it once), so every face has probability exactly 1/s.
// Several dice may share one 64-bit draw (21 d6, 12 d20) because
// multiplying through a batch of sizes is the same method over the
// product of the sizes. For the size rolled last the Roller keeps the
// unused part of its draw and takes later dice from it, one multiply a
// die. SumN totals such dice without writing them out (a 3d6 check), and
// RollCount rolls them and counts successes in one pass; a Pool of mixed
// sizes knows from when it was made whether one draw holds it all.
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
// binomial counts, so 100d6 keep 3 and the three highest of twenty mixed
// d4..d12 take a few microseconds. Nothing is built when a program
// starts: the roller's tables are literals in the program, and the
// exact constructors make their tables on each call, as small as the
// call needs. Binomial (successes in n trials)
// and Hypergeometric (marked cards in a hand drawn without replacement)
// are the counting distributions the rule packages need; rule packages
// take them from here rather than computing their own. Package dice/gof
// tests sampled counts against a Dist (Pearson's chi-square), as the rule
// packages check their samplers; it lives apart so that dice links no
// statistics library.
//
// Every exact constructor bounds its memory and work before it allocates
// and returns an error wrapping ErrTooLarge, saying what was too large,
// past the limits: MaxOutcomes (2^24 outcomes in one distribution),
// MaxCells (2^22 probabilities in a keep-highest or keep-lowest table) and
// MaxWork (2^31 multiply-adds, a few seconds). 10000d6 summed, 10000d6
// keep 3 and 1000d6 keep lowest 3 fit; 100 d4096 keep 100 or the sum of
// 10000 d1677 are refused at once.
//
// # Dice expressions
//
// ParseExpr reads the notation players type into chat bots and table
// tools, rolls it with a caller's Roller (Expr.Roll, into a reusable
// ExprResult that records every die) and gives its exact distribution
// (Expr.Dist). Letters are case-insensitive; spaces may stand between
// terms, operators and modifiers, but not inside a number or between a
// modifier and its compare point.
//
//	form            meaning                                        example
//	NdS, dS         N dice of S sides (2..1000000), summed         3d6, d20
//	d%              a d100                                         d%, 2d%
//	NdF, dF         Fudge (FATE) dice: faces -1, 0, +1             4dF, 4dF.2
//	dF.1            a Fudge die of one -1, four 0s and one +1       4dF.1
//	d{a,b,...}      a die of custom faces, each equally likely     d{1,1,2,3}, 10d{0,0,1,2}
//	dice dice       a mixed pool: dice joined by spaces            d12 d8 d6
//	(pool)mods      a pool of plain dice kept as a whole           (2d6+2d8)kh2, {4d6+3d8}k4
//	{x, y}mods      a group: keep, drop or count successes over    {3d6, 4d4+1}kh1, {3d20+5}>=21
//	(x, y)mods      its expressions' totals (Avrae's set)          (1d20, 1d20)kh1
//	khN, kN, klN    keep the N highest (kN is khN), the N lowest   4d6kh3, 2d20kl1
//	dhN, dlN        drop the N highest, the N lowest               4d6dl1
//	phN, plN        Avrae's drops: dhN, dlN                        4d6pl1
//	kP, pP          keep, drop the dice on a compare point P       4d6k>3, 4d6p<2
//	!               explode: a die's top face adds another roll   3d6!, d8 d6!
//	!P, eP          explode on a compare point P                   3d6!>=5, d10!9, d6e6
//	!!              compound: the extra rolls add into one value  d6!!
//	!p              penetrate (HackMaster): each extra roll       d6!p
//	                counts one less
//	raP             re-roll and add: a die on P adds one roll      d20ra20
//	raoP            Avrae's ra: the first die on P adds one roll,  2d6rao6
//	                once a pool (dice of one size, summed)
//	rP, rrP         re-roll while on P (up to the depth); several  4d6r1, 2d8r1r3
//	                points re-roll on any of them
//	roP             re-roll once on P                              4d6ro1
//	miN, maN        a roll below N reads N, above N reads N        4d6mi2, 4d6ma5
//	(min, max)
//	P               count successes: dice on P                     8d10>=7
//	P P2 ...        a die counts one more success for each         10d10>=8>=10
//	                further point it meets (10s count twice)
//	P fQ            successes less failures (dice on Q)            8d10>=7f1
//	s, sa, sd       sort marks (Roll20): no change in odds         4d6sd
//	csP, cfP        critical marks (Roll20): no change in odds     d20cs>=19
//	m, mN           match marks (Roll20): no change in odds        4d6m
//	u, uP           unique (rpg-dice-roller): a die showing a      4d6u, 4d6u=5
//	                face already rolled in its pool re-rolls
//	                until it is unique; with P only faces on P
//	uo, uoP         unique once: a duplicate re-rolls once         4d6uo
//	mt, mtN, mtNP   match target (Roll20 and Stakes): the total    4d6mt, 6d6mt3,
//	                counts the sets of 2 (N) or more equal dice,   4d6mt>3
//	                with P only sets whose face is on P
//	[label]         a label, kept in the breakdown                 2d6[fire]+d4[cold]
//	x P y           a whole check: 1 if it holds, else 0; P may    d20+5>=15, d20+5 != 6
//	                also be == or != (and unary + is accepted)
//	x tiers a,b     the tier of x: 0 up to a, 1 up to b, then 2    2d6+1 tiers 6,9
//	+ - * /         arithmetic; / rounds toward zero               (2d6+3)*2, d20/2
//	%               the remainder of / (the sign of the left)      d20%7
//	^, **           a power, from the right, above minus signs:    d6^2, 2^3^2 (512),
//	                -2^2 is -4; the exponent cannot be negative    -2^2
//	floor(x/y)      a division rounded down, up; Avrae's // is     floor(d20/3), d20//3
//	ceil(x/y)       floor(x/y)
//	N, -x, (x)      numbers, negation, parentheses                 -d4, 2*(d6+1)
//	# text          a comment, kept in the breakdown               d20+5 # to hit
//
// Parser reads an expression in a Dialect: Stakes (the default, what
// ParseExpr reads), Roll20 or Avrae. They differ only where the
// references do: > and < (inclusive in Roll20, strict elsewhere), a bare
// number after k (Avrae: the dice showing it), dN (Roll20's drop lowest;
// an error elsewhere that names the form to write), a comparison right
// after a pool (Avrae: a whole check; elsewhere a success count), and ra
// (Avrae: one roll added a pool, rao; elsewhere one a die). The
// Dialect type's documentation holds the table of these readings; the
// canonical form spells every reading out and reads the same in every
// dialect, and the breakdown of a roll starts with it. Every form of
// the references, and its canonical reading in each dialect ("error"
// where the dialect refuses it, saying what to write); a test checks that
// this table is what the parser reads, and every reading in it against an
// enumeration of every roll:
//
//	text                    stakes                  roll20                  avrae
//	3d6                     3d6                     3d6                     3d6
//	d%                      d100                    d100                    d100
//	4dF                     4dF                     4dF                     4dF
//	d6 d4                   d6 d4                   d6 d4                   d6 d4
//	4d6kh3                  4d6kh3                  4d6kh3                  4d6kh3
//	4d6k3                   4d6kh3                  4d6kh3                  4d6k=3
//	3d6kl2                  3d6kl2                  3d6kl2                  3d6kl2
//	4d6dl1                  4d6dl1                  4d6dl1                  4d6dl1
//	4d6d1                   error                   4d6dl1                  error
//	3d6dh1                  3d6dh1                  3d6dh1                  3d6dh1
//	4d6ph1                  4d6dh1                  4d6dh1                  4d6dh1
//	4d6pl1                  4d6dl1                  4d6dl1                  4d6dl1
//	4d4k>2                  4d4k>2                  4d4k>=2                 4d4k>2
//	4d4p<2                  4d4p<2                  4d4p<=2                 4d4p<2
//	4d4p1                   4d4p=1                  4d4p=1                  4d4p=1
//	2d6!                    2d6!                    2d6!                    2d6!
//	2d6!>4                  2d6!>4                  2d6!>=4                 2d6!>4
//	2d6e6                   2d6!6                   2d6!6                   2d6!6
//	2d6!!                   2d6!!                   2d6!!                   2d6!!
//	2d6!p                   2d6!p                   2d6!p                   2d6!p
//	3d6r1                   3d6r1                   3d6r1                   3d6r1
//	3d6rr1                  3d6r1                   3d6r1                   3d6r1
//	2d8r1r3                 2d8r1r3                 2d8r1r3                 2d8r1r3
//	2d6r<2                  2d6r<2                  2d6r<=2                 2d6r<2
//	3d6ro1                  3d6ro1                  3d6ro1                  3d6ro1
//	2d6ra6                  2d6ra6                  2d6ra6                  2d6rao6
//	3d4rao4                 3d4rao4                 3d4rao4                 3d4rao4
//	3d4ro1ra4               3d4ro1ra4               3d4ro1ra4               3d4ro1rao4
//	2d4rao>3                2d4rao>3                2d4rao>=3               2d4rao>3
//	3d6mi2                  3d6mi2                  3d6mi2                  3d6mi2
//	3d6ma5                  3d6ma5                  3d6ma5                  3d6ma5
//	3d6min2max5             3d6mi2ma5               3d6mi2ma5               3d6mi2ma5
//	5d6>=5                  5d6>=5                  5d6>=5                  error
//	5d6>5                   5d6>5                   5d6>=5                  (5d6)>5
//	4d6>4f1                 4d6>4f1                 4d6>=4f1                error
//	3d6>=10                 error                   error                   (3d6)>=10
//	(3d6)>=10               (3d6)>=10               (3d6)>=10               (3d6)>=10
//	d20+5>=15               d20+5>=15               d20+5>=15               d20+5>=15
//	d20+5>15                d20+5>15                d20+5>=15               d20+5>15
//	2d6+1 tiers 6,9         2d6+1 tiers 6,9         2d6+1 tiers 6,9         2d6+1 tiers 6,9
//	(2d6+2d4)kh2            2d6 2d4kh2              2d6 2d4kh2              2d6 2d4kh2
//	floor(d20/3)            floor(d20/3)            floor(d20/3)            floor(d20/3)
//	ceil(d20/3)             ceil(d20/3)             ceil(d20/3)             ceil(d20/3)
//	-d20/3                  -d20/3                  -d20/3                  -d20/3
//	3d6sd                   3d6sd                   3d6sd                   3d6sd
//	4d6m                    4d6m                    4d6m                    4d6m
//	4d6m3                   4d6m3                   4d6m3                   4d6m3
//	d20cs>19cf1             d20cs>19cf1             d20cs>=19cf1            d20cs>19cf1
//	2d6[fire]+d4[cold]      2d6[fire]+d4[cold]      2d6[fire]+d4[cold]      2d6[fire]+d4[cold]
//	d20+5 # to hit          d20+5 # to hit          d20+5 # to hit          d20+5 # to hit
//	{2d4+2d3}k3             2d4 2d3kh3              2d4 2d3kh3              2d4 2d3k=3
//	{2d4, d6+1}kh1          {2d4, d6+1}kh1          {2d4, d6+1}kh1          {2d4, d6+1}kh1
//	{2d4, d6+1}d1           error                   {2d4, d6+1}dl1          error
//	{3d4+1}>8               {3d4+1}>8               {3d4+1}>=8              ({3d4+1})>8
//	{2d4, 2d4, d6}>5        {2d4, 2d4, d6}>5        {2d4, 2d4, d6}>=5       ({2d4, 2d4, d6})>5
//	{d6, d4, 3}>3f1         {d6, d4, 3}>3f1         {d6, d4, 3}>=3f1        error
//	(1d20, 1d20)kh1         {d20, d20}kh1           {d20, d20}kh1           {d20, d20}kh1
//	(d6, d4, 2)k>2          {d6, d4, 2}k>2          {d6, d4, 2}k>=2         {d6, d4, 2}k>2
//	3d{0,0,1,2}             3d{0,0,1,2}             3d{0,0,1,2}             3d{0,0,1,2}
//	3d{1,1,2,3}kh2          3d{1,1,2,3}kh2          3d{1,1,2,3}kh2          3d{1,1,2,3}kh2
//	2d{1,2,5}r1>=2          2d{1,2,5}r1>=2          2d{1,2,5}r1>=2          error
//	3dF.1                   3d{-1,0,0,0,0,1}        3d{-1,0,0,0,0,1}        3d{-1,0,0,0,0,1}
//	2dF.2                   2dF                     2dF                     2dF
//	4d10>=8>=10             4d10>=8>=10             4d10>=8>=10             error
//	3d10>=8>=10f1kh2        3d10kh2>=8>=10f1        3d10kh2>=8>=10f1        error
//	2d10! >=8>=10           2d10! >=8>=10           2d10! >=8>=10           error
//	d20//3                  floor(d20/3)            floor(d20/3)            floor(d20/3)
//	-d20//3                 floor(-d20/3)           floor(-d20/3)           floor(-d20/3)
//	d20 != 1                error                   error                   (d20)!=1
//	+d20+5 == 8             d20+5=8                 d20+5=8                 d20+5=8
//	d20%7                   d20%7                   d20%7                   d20%7
//	-d8%3                   -d8%3                   -d8%3                   -d8%3
//	d6^2                    d6^2                    d6^2                    d6^2
//	(d4-2)**3               (d4-2)^3                (d4-2)^3                (d4-2)^3
//	-2^d3                   -2^d3                   -2^d3                   -2^d3
//	d4^d3                   d4^d3                   d4^d3                   d4^d3
//	(2d6+3)*2               (2d6+3)*2               (2d6+3)*2               (2d6+3)*2
//	d6*d4                   d6*d4                   d6*d4                   d6*d4
//	3d4u                    3d4u                    3d4u                    3d4u
//	3d4uo                   3d4uo                   3d4uo                   3d4uo
//	3d4u=4                  3d4u4                   3d4u4                   3d4u4
//	4d3u>2                  4d3u>2                  4d3u>=2                 4d3u>2
//	4d6mt                   4d6mt                   4d6mt                   error
//	5d4mt3                  5d4mt3                  5d4mt3                  error
//	4d6mt>3                 4d6mt>3                 4d6mt>=3                error
//	4dFmt=0                 4dFmt=0                 4dFmt=0                 error
//
// A group's expressions roll in order, each with its own dice; a group
// takes keep, drop, selectors, success and failure counts, and no
// re-rolls, explosions or mi, ma (put them on the dice inside). Custom
// faces and Fudge dice do not explode.
//
// A modifier that can never act is an error that says why: d6!>=7 never
// explodes, d6ro7 and d6mi1 never act, 3d6>=10 counts no die (and says to
// write (3d6)>=10 for the total), floor(3d6) rounds nothing.
// rpg-dice-roller's u re-rolls each die, in order, while it shows a face
// an earlier die of its pool kept (and is on P, if given): at most the
// depth times, and a die still on a duplicate then takes a face drawn
// evenly from those that are not, the face re-rolling without end would
// stop on, so u never keeps a duplicate and nothing is cut off; uo
// re-rolls a duplicate once and may keep it. With no P, dice that can
// never all differ (4d3u) are an error: the roll could never finish.
// Roll20's mt totals the sets of matching dice; the breakdown marks each
// die of a counted set as a success (4d6mt: [3*, 5, 3*, 1] = 1), and a
// re-rolled duplicate as 1r. Avrae has no mt, and refuses it. u, uo and
// mt take dice of one size, numbered or Fudge, with no keep, explosion,
// re-roll, success count, mi or ma. Their exact odds, within the work
// bounds below: for u, a count of the sets of faces kept by their sum
// (8d20u is cheap); for uo, the dice one at a time over the sets of
// faces rolled; for mt, face by face over the count of each face. Min and max
// do not combine with explosions (a clamped die's top face is ambiguous),
// nor does a keep by selector with ! counting every roll.
//
// A compare point P is =N, >N, >=N, <N or <=N; after r, ro, f and the
// explosions a bare N means =N. A point written right after an explosion
// is the explosion's: 3d6!>=5 explodes on 5 and 6, while 3d6! >=5 (with a
// space) explodes on 6 and counts the dice showing 5 or more. Modifiers
// may come in any order, each once; they act in one order: re-roll, then
// explode, then keep or drop, then count, and each acts on every die of
// the pool (d8 d6! explodes the d8 on 8 and the d6 on 6). A keep of as
// many dice as the pool holds, or a drop of none, never acts and is an
// error; a drop of more dice than the pool holds keeps none. "N" after kh,
// kl, dh and dl may be left out for 1.
//
// A die that re-rolls or explodes is still one die: keep and drop compare
// dice by their totals (a 6 that exploded into a 4 is a 10), and a success
// count compares a die's total too, except with ! (explode), where every
// roll counts on its own, as in World of Darkness's ten-again (d10! >=8).
// A keep of such dice keeps dice, not rolls: 4d10! >=8kh2 keeps the two
// dice with the highest totals and counts every roll of those two.
// Of dice with equal totals the earlier one as the term prints (the
// larger die) is kept, so d10 d6! >=5kh1 keeps the d10 on a tie.
// Re-rolling applies to a die's first roll, not to its extra rolls.
//
// String prints an expression canonically (dice largest first, modifiers
// in the order above, d% as d100), and ParseExpr reads the canonical form
// back to the same expression. Everything ParsePool reads means the same
// as an expression and prints as the Pool prints: plain pools and numbers
// joined by +, - or spaces fold into one pool and a modifier, so
// "2d6 + d4 - 1" is "2d6 d4-1" and "1+2" is 3.
//
// Limits are checked while parsing, before any work: at most MaxExprLen
// (1000) bytes, MaxNesting (32) parentheses and signs deep, MaxDice dice
// in all, dice of 2..MaxSides sides, numbers and compare points within
// ±MaxModifier, every value an expression or any part of it can take
// within ±MaxValue (2^53), and no divisor that can be 0 (a divisor's
// possible values, worked out from its parts, must not include 0: d6/(d6-1)
// is refused). An exploding die makes at most Depth extra rolls and a die
// re-rolls at most Depth times (DefaultDepth 10, up to MaxDepth 100 with
// WithDepth), so a roll always ends. Explosions that would go on forever
// (d6!>=1) and re-rolls that no face escapes (d6r<7) are errors.
//
// Where stakes differs from common bot conventions (Roll20, Avrae,
// rpg-dice-roller) whatever the dialect:
//
//	form         common bots                         stakes
//	4d6!kh3      bots that list extra rolls as dice  keeps 3 dice, each by its
//	             of their own may keep 3 rolls       total, extra rolls included
//	4d10! >=8kh2 the same split: 2 rolls, or 2 dice  the 2 dice of highest total,
//	                                                 every roll of theirs counted
//	3d6!>=5      explode on 5+ (same)                same; 3d6! >=5 counts 5+
//	d20/3        some give decimals                  rounds toward zero: -7/2 is -3;
//	                                                 floor() and ceil() round down, up
//	r, !         some re-roll or explode without     at most Depth (10) times;
//	             bound, or to a fixed cap            the exact answer says how
//	                                                 much chance the bound cuts off
//	d12 d8 d6    most want + between the dice        a mixed pool (as ParsePool),
//	                                                 so d12 d8 d6kh2 keeps 2 of 3
//	2d20ra20     Avrae adds at most one die a set    each die on the point adds one
//	                                                 roll of its own; Avrae's reading
//	                                                 is rao, which the Avrae dialect
//	                                                 reads ra as
//	4dF!         some allow                          an error: Fudge dice do not explode
//
// # Exact distributions of expressions
//
// Expr.Dist gives the distribution of exactly what Roll rolls, explosions
// and re-rolls bounded at the expression's depth, and beside it the
// truncated mass: the chance that a roll reaches a bound. No outcome is
// dropped for being unlikely: every probability down to float64's least
// normal number (2.2e-308) keeps its relative precision, and the
// truncated mass is carried as itself, never as one less its complement
// (tested against exact rationals: 3d6!!kh2 rolls 132 with chance
// 2.28e-17, d100! cuts off 1e-22, d6!! at depth 100 cuts off 6^-101). The unbounded
// game's P(X = x) differs from the answer by at most that much (about
// 8e-9 for 3d6! at depth 10). Re-rolls with ro are exact mixtures and
// never truncate; with r, a face off the re-roll point stands with
// chance (1 + q + ... + q^depth)/S for a point covering q of the faces, so
// at depth 10 the answer is the conditional distribution (uniform over
// the faces off the point) but for the reported q^(depth+1).
//
// Expr.Fractions gives the same answer as exact fractions (math/big)
// over one common denominator, for expressions whose denominator fits in
// MaxDenominator (2^36): 4d6kh3, advantage, 10d10, 8d10>=7 and every row
// of the forms table at depth 2; 3d6! at depth 10 (6^33) is refused.
//
// Keep and drop over numbered pools, mixed or not, are KeepHighestOf and
// KeepLowestOf. Over dice that re-roll, explode, are Fudge dice or count
// successes, the same face-by-face sweep with binomial counts runs over
// each size's own distribution, its state the number of dice of each size
// kept so far, so it is cheap when few dice are kept (d12 d8 d6!kh2) and
// bounded by MaxCells and MaxWork when many are. Where every roll of an
// exploding die counts (4d10! >=8kh2), a die's successes do not follow
// from its total, so each size carries the joint distribution of a die's
// total and its successes, and a kept die adds its successes given its
// total. Sums of independent dice and terms are convolutions, success
// counts binomials or convolutions, a term times or divided by a number a
// map, and the product or quotient of two random terms an enumeration over
// their outcomes, bounded by MaxWork. Past those bounds Dist returns an
// error wrapping ErrTooLarge that says what was too large, and the
// expression still rolls.
package dice
