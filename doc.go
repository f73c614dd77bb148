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
//     packages build exact answers to multi-round mechanics, and for Markov
//     decision processes, on which they find the best and the worst play.
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
// # One skeleton
//
// Every rule package has the same parts with the same names, so a reader
// who knows one knows where everything is in the other four:
//
//   - doc.go: the mechanic in our words, the game and section cited, and
//     each ruling marked as the text's, the source game's or ours.
//   - Rules, DefaultRules and Rules.Validate: every number, table and
//     ruling, each a documented setting.
//   - State: everything that changes during play, plain exported data that
//     saves to JSON as one value with the rules, phase and turn it needs to
//     resume; State.Check validates a restored state whole before any step
//     reads it.
//   - Engine and its steps: one step for each point where the rules have
//     something happen or someone choose. A step validates everything, then
//     applies; a refused step returns an error and changes neither the
//     State nor the dice.Roller.
//   - Play: a loop over those same steps that asks a Policy, one interface
//     whose methods receive a pointer to a read-only view; shipped styles
//     are looked up with PolicyByName (and listed by PolicyNames).
//   - Legal-choice queries: what a side may do now, for bots and menus,
//     from the same code the steps validate with.
//   - Event: one JSON-tagged struct per package whose Kind writes as a
//     name; the Engine's Sink field, a func(Event), hears every event, and a
//     nil Sink builds none.
//   - Scenario: the mechanic contract of sim (sim.Scenario): Validate,
//     Categories, Metrics, NewRunner and Exact, whose answer is a
//     markov.Answer or an error wrapping markov.ErrNoExact; and, where the
//     mechanic can answer how much decisions matter, Solve (sim.Solver):
//     the goal's odds under the best play, each shipped policy and the
//     worst play, from a markov decision process over the exact model's
//     own transitions, with Optimal returning a Policy that plays the plan.
//
// Enums read and write as names, and policy registries look up by name,
// through one small internal package, so saved states and scenario files
// read alike in every package.
//
// # Adding a sixth mechanic
//
//  1. Write the package on the skeleton above. It imports dice (all dice go
//     through a *dice.Roller: dice is the only package that turns random
//     words into faces) and sim/markov for its exact answer, never sim's
//     runner or another rule package.
//  2. Give its Scenario the methods of sim.Scenario; its Runner's Trial
//     plays one game from the scenario's start through Play, the same steps
//     a game played by hand takes.
//  3. Where the exact model enumerates a policy's choices, let it enumerate
//     every legal choice instead and give the Scenario a Solve (the stakes
//     solve command then answers for it).
//  4. Run the conformance kit, sim/simtest, from its tests: determinism on
//     any number of workers, save and restore at every step, atomic steps,
//     mutated saved states, sampled against exact, events through JSON.
//  5. Register it with the command line: one call in cmd/stakes naming the
//     mechanic, a summary, and its built-in scenario adapted with
//     sim.Adapt. Every command, the balance report included, then runs it.
package stakes
