package main

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/stakesrpg/stakes/contest"
	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim"
)

func init() {
	register(mechanicInfo{
		name:    "contest",
		summary: "Cortex-style pools totalling the two highest dice: basic, contested, timed actions (Gotham Reborn)",
		fresh: func() scenario {
			s := contest.DefaultScenario()
			return adapt(sim.Adapt[*contest.Runner]("contest", &s), func() string { return describeContest(s) })
		},
		odds: contestOdds,
	})
}

func describeContest(s contest.Scenario) string {
	var parts []string
	for _, sd := range s.Sides {
		p := strings.Join(sd.Pool, "+")
		if len(sd.Gang) > 0 {
			p += fmt.Sprintf(" with %d extra mooks", len(sd.Gang))
		}
		parts = append(parts, fmt.Sprintf("%s (%s)", sd.Character, p))
	}
	return fmt.Sprintf("%s action: %s", s.Kind, strings.Join(parts, " vs "))
}

// contestOdds answers "this pool against those stakes": with arguments
// POOL [vs] STAKES, where STAKES is a pool or a number, it prints the exact
// total distribution of the pool and the chances to beat the stakes and to
// beat them by the extraordinary margin. Without arguments it prints the
// scenario's exact answer.
func contestOdds(e *env, sc scenario, a oddsArgs) error {
	s := *sc.ptr().(*contest.Scenario)
	args := a.pos
	if len(args) > 0 && len(args) < 3 && args[len(args)-1] == "vs" {
		return usagef("odds contest: give the stakes after vs")
	}
	if len(args) == 3 && args[1] == "vs" {
		args = []string{args[0], args[2]}
	}
	if len(args) == 0 {
		ex, err := sc.exact(e.ctx)
		if err != nil {
			return err
		}
		if a.json {
			return writeJSON(e.stdout, map[string]any{"mechanic": "contest", "scenario": sc.describe(), "exact": ex})
		}
		writeExact(e, sc, ex)
		return nil
	}
	if len(args) != 2 {
		return usagef(`odds contest: give POOL vs STAKES, such as "d10 d8 d6" vs "d8 d8" or "d10 d8 d6" vs 9`)
	}
	pool, err := dice.ParsePool(args[0])
	if err != nil {
		return usageError{err.Error()}
	}
	if err := checkLadder(pool); err != nil {
		return err
	}
	total, err := contest.TotalDist(pool.Dice(), s.Rules)
	if err != nil {
		return err
	}
	extra := s.Rules.Extraordinary
	var stakes dice.Dist
	label := args[1]
	if v, err := strconv.ParseInt(args[1], 10, 64); err == nil || errors.Is(err, strconv.ErrRange) {
		if v < -maxStakes || v > maxStakes {
			return usagef("odds contest: stakes %s: allowed -%d..%d", clip(args[1]), maxStakes, maxStakes)
		}
		stakes = dice.Point(int(v))
	} else {
		sp, err := dice.ParsePool(args[1])
		if err != nil {
			return usageError{err.Error()}
		}
		if err := checkLadder(sp); err != nil {
			return err
		}
		if stakes, err = contest.TotalDist(sp.Dice(), s.Rules); err != nil {
			return err
		}
	}
	beat := total.Greater(stakes)
	extraordinary := total.BeatsBy(stakes, extra)
	lose5 := stakes.BeatsBy(total, extra)
	if a.json {
		return writeJSON(e.stdout, map[string]any{"mechanic": "contest", "pool": pool.String(), "stakes": label,
			"total": total, "p_beat": beat, "p_extraordinary": extraordinary, "p_lose_by_extraordinary": lose5,
			"mean_total": total.Mean()})
	}
	fmt.Fprintf(e.stdout, "contest: %s (two highest, 1s excluded) against %s (exact)\n", pool, label)
	fmt.Fprintf(e.stdout, "  P(beat the stakes)                 %.6f\n", beat)
	fmt.Fprintf(e.stdout, "  P(beat them by %d or more)          %.6f\n", extra, extraordinary)
	fmt.Fprintf(e.stdout, "  P(fall %d or more short: Trauma)    %.6f\n", extra, lose5)
	fmt.Fprintf(e.stdout, "  total: mean %.3f, median %d\n", total.Mean(), total.Quantile(0.5))
	for v := total.Min; v <= total.Max(); v++ {
		p := total.Prob(v)
		fmt.Fprintf(e.stdout, "  %4d %-40s %.4f\n", v, strings.Repeat("#", int(p*200+0.5)), p)
	}
	return nil
}

// maxStakes bounds a numeric stakes: far beyond any pool's total, and
// small enough that no margin arithmetic can overflow.
const maxStakes = 1_000_000

func checkLadder(p dice.Pool) error {
	for _, d := range p.Dice() {
		if err := d.CheckLadder(); err != nil {
			return usageError{err.Error()}
		}
	}
	if p.Modifier() != 0 {
		return usagef("odds contest: %s: a Cortex pool has no flat modifier", p)
	}
	return nil
}
