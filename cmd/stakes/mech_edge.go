package main

import (
	"fmt"
	"strings"

	"github.com/stakesrpg/stakes/edge"
	"github.com/stakesrpg/stakes/sim"
)

func init() {
	register(mechanicInfo{
		name:    "edge",
		summary: "dramatic interaction: parties wager edge dice on opposed d20 checks (d20 Advanced)",
		fresh: func() scenario {
			s := edge.DefaultScenario()
			return adapt(sim.Adapt[*edge.Runner]("edge", &s), func() string { return describeEdge(s) })
		},
	})
}

func describeEdge(s edge.Scenario) string {
	var parts []string
	for _, p := range s.Parties {
		var names []string
		for _, m := range p.Members {
			names = append(names, m.Name)
		}
		pol := p.Policy
		if pol == "" {
			pol = "steady"
		}
		extra := ""
		if p.BonusEdge > 0 {
			extra = fmt.Sprintf(", +%d edge", p.BonusEdge)
		}
		if p.Passive {
			extra += ", passive"
		}
		parts = append(parts, fmt.Sprintf("%s (%s; %s%s)", p.Name, strings.Join(names, ", "), pol, extra))
	}
	return fmt.Sprintf("%s, %d edge dice each: %s", s.Type, s.Rules.StartEdge, strings.Join(parts, " vs "))
}
