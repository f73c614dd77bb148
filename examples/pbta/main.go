// Command pbta is the stakes command line over six mechanics: the five of
// stakes and a Powered by the Apocalypse fight (package pbta beside this
// main), written as a Go programmer outside the library would write a
// mechanic of their own. Every command of stakes runs it: the balance
// report, odds, solve, sim, compare, sweep, run, merge and mechanics.
//
//	go run ./examples/pbta                 the balance report over all six
//	go run ./examples/pbta mechanics pbta  the fight's settings and terms
//	go run ./examples/pbta solve pbta      how much the player's choices matter
package main

import (
	"github.com/stakesrpg/stakes/actiontest"
	"github.com/stakesrpg/stakes/challenge"
	"github.com/stakesrpg/stakes/contest"
	"github.com/stakesrpg/stakes/dramadeck"
	"github.com/stakesrpg/stakes/edge"
	"github.com/stakesrpg/stakes/examples/pbta/pbta"
	"github.com/stakesrpg/stakes/workbench"
)

func main() {
	workbench.Main(
		workbench.Of[*edge.Runner]("edge", edge.DefaultScenario),
		workbench.Of[*challenge.Runner]("challenge", challenge.DefaultScenario),
		workbench.Of[*dramadeck.Runner]("dramadeck", dramadeck.DefaultScenario),
		workbench.Of[*actiontest.Runner]("actiontest", actiontest.DefaultScenario),
		workbench.Of[*contest.Runner]("contest", contest.DefaultScenario),
		workbench.Of[*pbta.Runner]("pbta", pbta.DefaultScenario),
	)
}
