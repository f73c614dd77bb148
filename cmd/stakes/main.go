// Command stakes is the designers' face of the stakes library over its
// five mechanics: balance reports, exact odds, Monte Carlo studies,
// comparisons, sweeps, optimal play and shards. Every command lives in
// package workbench; this main only names the mechanics it offers, in the
// order the balance report runs them. Run "stakes --help" for the commands.
package main

import (
	"github.com/stakesrpg/stakes/actiontest"
	"github.com/stakesrpg/stakes/challenge"
	"github.com/stakesrpg/stakes/contest"
	"github.com/stakesrpg/stakes/dramadeck"
	"github.com/stakesrpg/stakes/edge"
	"github.com/stakesrpg/stakes/workbench"
)

func main() {
	workbench.Main(
		workbench.Of[*edge.Runner]("edge", edge.DefaultScenario),
		workbench.Of[*challenge.Runner]("challenge", challenge.DefaultScenario),
		workbench.Of[*dramadeck.Runner]("dramadeck", dramadeck.DefaultScenario),
		workbench.Of[*actiontest.Runner]("actiontest", actiontest.DefaultScenario),
		workbench.Of[*contest.Runner]("contest", contest.DefaultScenario),
	)
}
