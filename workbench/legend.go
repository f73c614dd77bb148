package workbench

import (
	"fmt"
	"github.com/stakesrpg/stakes/sim"
	"io"
	"strings"
)

// terms returns what the outcomes and metrics of the mechanic named name
// mean, as the mechanic describes them (sim.Description's Terms), or none
// for a mechanic the workbench does not offer.
func (e *env) terms(name string) []sim.Term {
	m, ok := e.mechanic(name)
	if !ok {
		return nil
	}
	return m.New().Describe().Terms
}

// explain returns what the outcome or metric name means among terms. An
// exact key wins over a "*" key; among "*" keys the longest ending wins.
func explain(terms []sim.Term, name string) (string, bool) {
	best, bestLen := "", -1
	for _, e := range terms {
		if e.Key == name {
			return e.Text, true
		}
		end, ok := strings.CutPrefix(e.Key, "*")
		if !ok || len(end) <= bestLen {
			continue
		}
		if who, ok := strings.CutSuffix(name, end); ok && who != "" {
			best, bestLen = strings.ReplaceAll(e.Text, "*", strings.ReplaceAll(who, "_", " ")), len(end)
		}
	}
	return best, bestLen >= 0
}

// writeLegend prints what each of the outcomes and metrics means.
func writeLegend(w io.Writer, mech string, terms []sim.Term, cats, mets []string) {
	fmt.Fprintf(w, "What the %s numbers mean:\n", mech)
	group := func(title string, names []string) {
		fmt.Fprintf(w, "  %s\n", title)
		for _, n := range names {
			text, ok := explain(terms, n)
			if !ok {
				text = "(no description yet)"
			}
			lines := wrap(text, 76)
			fmt.Fprintf(w, "    %s\n", n)
			for _, l := range lines {
				fmt.Fprintf(w, "        %s\n", l)
			}
		}
	}
	group("outcomes (each trial ends in exactly one):", cats)
	group("metrics (counted in each trial):", mets)
}
