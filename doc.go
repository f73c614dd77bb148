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
//   - named: enums read and written as names, policy registries by name.
//   - workbench: the designer's face as a package: every command of the
//     command line over any mechanic handed to it.
//   - cmd/stakes: the command line designers run, a main naming our five
//     mechanics; examples: runnable programs, one per mechanic, and a sixth
//     mechanic written from outside (examples/pbta).
//
// # One skeleton
//
// Every rule package has the same parts with the same names, and each name
// means the same thing in all five, so a reader who knows one package knows
// the other four:
//
//	name                          meaning in every rule package
//	Rules, DefaultRules           every number, table and ruling of the text, each a documented setting
//	Rules.Validate                whether the rules are playable, with the reason when not
//	State                         everything that changes during play; plain data, JSON as is
//	State.Check                   validates a restored state whole, against bounds, before any step reads it
//	State.Done                    whether the game in the state has ended
//	Engine                        the steps; the rules travel with the State, so an Engine holds its policies and sink
//	NewEngine                     where a package has one: checks the policies and prepares what every step needs
//	Engine.Policies               the policies that answer the text's choices: the one way they reach the engine
//	Engine.Sink                   a func(Event) that hears every event; nil builds none
//	Engine.Step                   one step under Engine.Policies: validates everything, then applies
//	Engine.Play                   Step until State.Done: plays the game to its end
//	Engine.<query>                legal-choice queries (what may this side do now), from the code the steps validate with
//	Policy, PolicyByName, PolicyNames
//	                              the text's choices as one interface; shipped styles by name
//	Event, Event.String           one JSON-tagged event type; String narrates it as a sentence
//	Scenario, DefaultScenario     a whole study as data: rules, cast, policies
//	Scenario.Start, .Restore      begin a game, or read a saved one back checked whole (sim.Game)
//	Scenario.NewRunner, Runner.Trial
//	                              one trial from the start; Trial returns its category or the error that stopped it
//	Scenario.Exact                the exact answer (sim/markov), or an error wrapping markov.ErrNoExact
//	Scenario.Solve                best, worst and each policy's value of a goal (where the mechanic has one)
//	Scenario.Describe             the mechanic, the scenario as set, and what each outcome and metric means
//	Game                          the package's game in progress: sim.Game over an Engine and a State
//	State.Question, Reply         where a package asks a choice as a step of its own (dramadeck's Engine.Ask):
//	                              the question the game stopped at, saved with it, and the answer step
//
// Where a rule text names a part of play (edge's round, actiontest's action
// test), a step keeps that word as its own name; Play always means the
// whole game. Every step returns dice.ErrNilRoller for a nil Roller.
//
// The parts, more fully:
//
//   - doc.go: the mechanic in our words, the game and section cited, and
//     each ruling marked as the text's, the source game's or ours.
//   - Engine and its steps: one step for each point where the rules have
//     something happen or someone choose. A step validates everything, then
//     applies; a refused step returns an error and changes neither the
//     State nor the dice.Roller.
//   - Policy: one interface whose methods receive a pointer to a read-only
//     view; an illegal answer is an error, never silently fixed.
//   - Scenario: the mechanic contract of sim (sim.Scenario), which also
//     makes games through the game contract (sim.Game): code that knows no
//     rule package starts, steps, saves, restores, narrates and scores any
//     game through it, and the conformance kit (sim/simtest) checks every
//     mechanic through it alone.
//
// Enums read and write as names, and policy registries look up by name,
// through one small public package, named, so saved states and scenario
// files read alike in every package, ours or another module's.
//
// # Adding a sixth mechanic
//
// A mechanic is one package on the skeleton above, in this repository or
// in another module: it needs only exported API (dice, sim, sim/markov,
// named, sim/simtest for its tests). examples/pbta is one, written as an
// outside programmer would.
//
//  1. Write the package on the skeleton. It rolls every die through the
//     caller's *dice.Roller (dice is the only package that turns random
//     words into faces) and imports sim's contracts and sim/markov for its
//     exact answer, never another rule package.
//  2. Give its Scenario the methods of sim.Scenario: Validate, Categories,
//     Metrics, NewRunner (a Runner whose Trial plays one game through the
//     same steps a game played by hand takes), Exact, Start and Restore
//     (its Game satisfies sim.Game), and Describe (summary, title, what
//     each outcome and metric means, and its setting docs, generated with
//     "//go:generate go run github.com/stakesrpg/stakes/cmd/settingsdoc").
//     Where it can answer how much decisions matter, a Solve (sim.Solver);
//     where it has exact tables of its own, a Tables (sim.Tabler).
//  3. Run the conformance kit from its tests, one call per scenario shape:
//     simtest.TestMechanic(sim.Adapt[*Runner]("name", &scenario), simtest.Options{}).
//  4. Name it in a main beside ours, and every command of the designer's
//     face (the balance report, sim, odds, compare, sweep, solve, merge,
//     mechanics) runs it, described in its own words.
//
// The main of step 4:
//
//	workbench.Main(
//		workbench.Of[*edge.Runner]("edge", edge.DefaultScenario),
//		workbench.Of[*mine.Runner]("mine", mine.DefaultScenario),
//	)
//
// In this repository the main is cmd/stakes/main.go: one line more there.
package stakes
