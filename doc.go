// Package stakes is a library and simulation harness for the resolution
// mechanics of tabletop role-playing games: the rules that decide who wins
// a chase, an argument, a knife fight or a bomb disposal.
//
// This package holds no code; it is the map. Packages, from the bottom up:
//
//   - dice: the random seam (a Roller over your math/rand/v2 Source), dice
//     sizes and the d4-d12 step ladder, pools in dice notation, readings of
//     rolled faces, and exact distributions. Start here.
//   - sim/markov: an exact solver for absorbing Markov chains, on which rule
//     packages build exact answers to multi-round mechanics.
//   - sim: Monte Carlo batches (deterministic for a seed on any number of
//     cores, shardable, cancellable) with reports, comparisons and sweeps.
//   - edge: dramatic interaction with edge dice wagered on opposed d20
//     checks (d20 Advanced, Dramatic Interaction).
//   - challenge: challenger and answerer with stat dice, doubling and the
//     advantage die (Art, Grace & Guts, Action & Consequence).
//   - dramadeck: the Drama Deck over GURPS 3d6 checks (Roger Bell_West's
//     GURPS adaptation of the Torg Drama Deck).
//   - actiontest: d6 pools where sixes succeed, position, push and risk
//     peril (Einfelst Wilds action tests).
//   - contest: Cortex-style pools totalling their two highest dice (Gotham
//     Reborn, Scenes and Actions).
//   - cmd/stakes: the command line designers run; examples: runnable
//     programs, one per mechanic.
//
// Every rule package keeps the numbers and tables of its game in a rules
// value a designer can change, asks small policy interfaces wherever a
// player has a choice, and exposes its state as a value that saves to JSON.
package stakes
