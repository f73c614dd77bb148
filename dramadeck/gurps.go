package dramadeck

import (
	"github.com/stakesrpg/stakes/dice"
)

// Result is one GURPS success roll: 3d6 against an effective skill. Its
// margin is worked out from the two (Margin), so it cannot disagree with
// them.
type Result struct {
	Roll     int  `json:"roll"`     // the 3d6 total
	Skill    int  `json:"skill"`    // effective skill rolled against
	Success  bool `json:"success"`  // the roll succeeded
	Critical bool `json:"critical"` // critical success (if Success) or failure
}

// Margin is skill - roll: the margin of success if >= 0, of failure if < 0.
func (r Result) Margin() int { return r.Skill - r.Roll }

// Judge reads a 3d6 total against effective skill by the GURPS limits:
// succeed if roll <= skill, always on AlwaysSucceed or less, never on
// AlwaysFail or more; criticals as in DefaultCriticals.
func (c *Criticals) Judge(roll, skill int) Result {
	success := roll <= c.AlwaysSucceed || (roll < c.AlwaysFail && roll <= skill)
	return Result{Roll: roll, Skill: skill, Success: success, Critical: c.critical(roll, skill, success)}
}

// critical reports whether a success, or a failure, of roll against
// skill is critical (GURPS Basic Set, "Critical Success", "Critical
// Failure").
func (c *Criticals) critical(roll, skill int, success bool) bool {
	if success {
		return roll <= c.CritSuccess || (roll == 5 && skill >= c.Crit5At) || (roll == 6 && skill >= c.Crit6At)
	}
	return roll >= c.CritFail || (roll == 17 && skill <= c.Crit17AtOrBelow) || roll-skill >= c.CritFailBy
}

// successRoll rolls 3d6 against effective skill under the game's
// criticals (GURPS Basic Set, "Success Rolls").
func (g *game) successRoll(r *dice.Roller, skill int) Result {
	return g.State.Rules.Criticals.SuccessRoll(r, skill)
}

// Roll3d6 rolls three six-sided dice and returns the total.
func Roll3d6(r *dice.Roller) int { return r.SumN(3, 6) }

// SuccessRoll rolls 3d6 against effective skill.
func (c *Criticals) SuccessRoll(r *dice.Roller, skill int) Result { return c.Judge(Roll3d6(r), skill) }

// Better reports whether a is a better result than b: a success beats a
// failure, then the larger margin wins.
func Better(a, b Result) bool {
	if a.Success != b.Success {
		return a.Success
	}
	return a.Margin() > b.Margin()
}

// LuckRoll rolls n times (n >= 1) and keeps the best, "in the manner of
// Luck" (GURPS Basic Set, Luck advantage): Second Chance uses n = 3.
func (c *Criticals) LuckRoll(r *dice.Roller, skill, n int) Result {
	best := c.SuccessRoll(r, skill)
	for i := 1; i < n; i++ {
		if x := c.SuccessRoll(r, skill); Better(x, best) {
			best = x
		}
	}
	return best
}

// QuickContest decides a GURPS Quick Contest between a and b: a success
// beats a failure; otherwise the larger margin wins (for two failures, the
// smaller failure); equal margins are a tie. Criticals do not decide
// contests [src]. It returns winner 0 (a), 1 (b) or -1 (nobody) and the
// margin of victory, the difference of the margins (never below 0).
func QuickContest(a, b Result) (winner, mov int) {
	switch {
	case a.Success && !b.Success:
		winner = 0
	case b.Success && !a.Success:
		winner = 1
	case a.Margin() > b.Margin():
		winner = 0
	case b.Margin() > a.Margin():
		winner = 1
	default:
		return -1, 0
	}
	if winner == 0 {
		mov = a.Margin() - b.Margin()
	} else {
		mov = b.Margin() - a.Margin()
	}
	return winner, max(mov, 0)
}

// ContestRules are the settings of the Quick Contest (GURPS Basic Set,
// "Quick Contests"); the zero value is the rule as published [src]. (A
// tie and a win of the resister both leave the actor's contest failed,
// so no setting for ties would change play.)
type ContestRules struct {
	// CriticalsDecide: a critical success beats any roll that is not one,
	// and a critical failure loses to any roll that is not one, before
	// margins are compared (false: criticals do not decide contests [src]).
	CriticalsDecide bool `json:"criticals_decide,omitempty"`
}

// Decide is QuickContest between the actor's roll a and the resistance b
// under these settings.
func (c ContestRules) Decide(a, b Result) (winner, mov int) {
	if c.CriticalsDecide {
		switch ca, cb := critRank(a), critRank(b); {
		case ca > cb:
			return 0, max(a.Margin()-b.Margin(), 0)
		case cb > ca:
			return 1, max(b.Margin()-a.Margin(), 0)
		}
	}
	return QuickContest(a, b)
}

// critRank orders a roll for CriticalsDecide: a critical success 1, a
// critical failure -1, any other 0.
func critRank(r Result) int {
	switch {
	case r.Critical && r.Success:
		return 1
	case r.Critical:
		return -1
	}
	return 0
}

// Dist3d6 returns the exact distribution of a 3d6 total.
func Dist3d6() dice.Dist {
	d, _ := dice.SumOf([]dice.Die{dice.D6, dice.D6, dice.D6})
	return d
}

// SuccessChance returns the exact probability that a success roll against
// skill succeeds.
func (c *Criticals) SuccessChance(skill int) float64 {
	p := 0.0
	for roll := 3; roll <= 18; roll++ {
		if c.Judge(roll, skill).Success {
			p += roll3d6P[roll]
		}
	}
	return p
}

// LuckChance returns the exact probability that the best of n rolls succeeds.
func (c *Criticals) LuckChance(skill, n int) float64 {
	q := 1 - c.SuccessChance(skill)
	f := 1.0
	for i := 0; i < n; i++ {
		f *= q
	}
	return 1 - f
}

// roll3d6P[t] is P(3d6 = t).
var roll3d6P = func() [19]float64 {
	var p [19]float64
	for a := 1; a <= 6; a++ {
		for b := 1; b <= 6; b++ {
			for c := 1; c <= 6; c++ {
				p[a+b+c] += 1.0 / 216
			}
		}
	}
	return p
}()
