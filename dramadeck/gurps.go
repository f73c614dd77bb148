package dramadeck

import (
	"github.com/stakesrpg/stakes/dice"
)

// Result is one GURPS success roll: 3d6 against an effective skill.
type Result struct {
	Roll     int  `json:"roll"`     // the 3d6 total
	Skill    int  `json:"skill"`    // effective skill rolled against
	Margin   int  `json:"margin"`   // skill - roll: of success if >= 0, of failure if < 0
	Success  bool `json:"success"`  // the roll succeeded
	Critical bool `json:"critical"` // critical success (if Success) or failure
}

// Judge reads a 3d6 total against effective skill by the GURPS limits:
// succeed if roll <= skill, always on AlwaysSucceed or less, never on
// AlwaysFail or more; criticals as in DefaultCriticals.
func (c *Criticals) Judge(roll, skill int) Result {
	r := Result{Roll: roll, Skill: skill, Margin: skill - roll}
	switch {
	case roll <= c.AlwaysSucceed:
		r.Success = true
	case roll >= c.AlwaysFail:
		r.Success = false
	default:
		r.Success = roll <= skill
	}
	if r.Success {
		r.Critical = roll <= c.CritSuccess || (roll == 5 && skill >= c.Crit5At) || (roll == 6 && skill >= c.Crit6At)
	} else {
		r.Critical = roll >= c.CritFail || (roll == 17 && skill <= c.Crit17AtOrBelow) || roll-skill >= c.CritFailBy
	}
	return r
}

// judgeTable is a Criticals unrolled by 3d6 total and effective skill, so
// that the engine's success rolls read one byte instead of walking Judge's
// rules: flags[roll][skill-judgeLo] holds judgeOK and judgeCrit. Skills
// outside judgeLo..judgeLo+judgeSpan-1 (far beyond any character's) fall
// back to Judge. It gives exactly Judge's results (tested for every total and
// a wide range of skills). from is the Criticals it was built for: the
// engine rebuilds it when a designer changes Game.Rules.Criticals.
type judgeTable struct {
	from  Criticals
	ok    bool
	flags [32][judgeSpan]uint8 // totals 3..18 used; 32 so that a masked index needs no bounds check
	// okBits[skill-judgeLo] has bit v set when the 3d6 whose faces less
	// one are the base-6 digits of v succeed at that skill: one load
	// from the kept faces to the success, where flags needs the total
	// first (the quiet round's attacks branch on it).
	okBits [judgeSpan][4]uint64
}

const (
	judgeLo   = -64
	judgeSpan = 128 // a power of two, so an index masked to it needs no bounds check
	judgeOK   = 1
	judgeCrit = 2
)

func (t *judgeTable) build(c Criticals) {
	for roll := range t.flags {
		for i := range t.flags[roll] {
			r := c.Judge(roll, i+judgeLo)
			f := uint8(0)
			if r.Success {
				f |= judgeOK
			}
			if r.Critical {
				f |= judgeCrit
			}
			t.flags[roll][i] = f
		}
	}
	for i := range t.okBits {
		t.okBits[i] = [4]uint64{}
		for v, roll := range sum3d6 {
			if t.flags[roll][i]&judgeOK != 0 {
				t.okBits[i][v>>6] |= 1 << (v & 63)
			}
		}
	}
	t.from, t.ok = c, true
}

// judge is Judge by table. roll is a 3d6 total; anything else (impossible
// from Roll3d6), or a skill off the table, falls back to Judge.
func (t *judgeTable) judge(roll, skill int) Result {
	i := uint(skill - judgeLo)
	if uint(roll) >= uint(len(t.flags)) || i >= judgeSpan {
		return t.from.Judge(roll, skill)
	}
	f := t.flags[roll][i&(judgeSpan-1)]
	return Result{Roll: roll, Skill: skill, Margin: skill - roll, Success: f&judgeOK != 0, Critical: f&judgeCrit != 0}
}

// outcome is a judged success roll inside the engine: Result without its
// Skill (which is Roll + Margin). Four fields keep it small enough for the
// compiler to hold in registers, where the five of Result go through memory
// at every step of the hot path.
type outcome struct {
	Roll, Margin      int
	Success, Critical bool
}

func (o outcome) result() Result {
	return Result{Roll: o.Roll, Skill: o.Roll + o.Margin, Margin: o.Margin, Success: o.Success, Critical: o.Critical}
}

// better is Better for outcomes.
func better(a, b outcome) bool {
	if a.Success != b.Success {
		return a.Success
	}
	return a.Margin > b.Margin
}

// successRoll rolls 3d6 against effective skill under g.Rules.Criticals:
// the result of Criticals.SuccessRoll, read from the table that
// syncCriticals keeps up to date. Every step that rolls (PlayRound, Act,
// the task steps, Search) syncs before its first roll, so the table is
// always built here, and a designer's change to Rules.Criticals takes
// effect from the next step.
func (g *Game) successRoll(r *dice.Roller, skill int) outcome {
	// The common case inline: three faces kept, no log, a skill on the
	// table (roll3d6 and judgeRoll written out).
	k := &g.kd
	i := uint(skill - judgeLo)
	if k.n < 3 || k.log != nil || i >= judgeSpan {
		if !k.on {
			return g.jt.check(r, skill) // outside PlayRound: SumN, as ever
		}
		if (k.n < 3 && !k.refill(r)) || k.log != nil || i >= judgeSpan {
			return g.jt.judgeRoll(g.roll3d6(r), skill)
		}
	}
	v := k.x % 216
	k.x /= 216
	k.n -= 3
	roll := int(sum3d6[v])
	f := g.jt.flags[roll&31][i&(judgeSpan-1)]
	return outcome{roll, skill - roll, f&judgeOK != 0, f&judgeCrit != 0}
}

// syncCriticals rebuilds the success-roll table if Rules.Criticals changed
// since it was built (once per step rather than once per roll).
func (g *Game) syncCriticals() {
	if c := &g.Rules.Criticals; !g.jt.ok || !c.same(&g.jt.from) {
		g.jt.build(*c)
	}
}

// check rolls 3d6 and judges the total: judge written out, so that the
// engine's success roll is one call around SumN(3, 6). (SumN takes its
// three dice from the roller's kept draw when it holds three, else from a
// fresh draw, so its stream is not that of three Roll(6) calls.)
func (t *judgeTable) check(r *dice.Roller, skill int) outcome {
	roll := r.SumN(3, 6)
	i := uint(skill - judgeLo)
	if uint(roll) >= uint(len(t.flags)) || i >= judgeSpan {
		res := t.from.Judge(roll, skill)
		return outcome{roll, res.Margin, res.Success, res.Critical}
	}
	f := t.flags[roll][i&(judgeSpan-1)]
	return outcome{roll, skill - roll, f&judgeOK != 0, f&judgeCrit != 0}
}

// judgeRoll judges a 3d6 total against skill.
func (t *judgeTable) judgeRoll(roll, skill int) outcome {
	i := uint(skill - judgeLo)
	if uint(roll) >= uint(len(t.flags)) || i >= judgeSpan {
		res := t.from.Judge(roll, skill)
		return outcome{roll, res.Margin, res.Success, res.Critical}
	}
	f := t.flags[roll][i&(judgeSpan-1)]
	return outcome{roll, skill - roll, f&judgeOK != 0, f&judgeCrit != 0}
}

// roll is check as a Result.
func (t *judgeTable) roll(r *dice.Roller, skill int) Result { return t.check(r, skill).result() }

// same is c == d written out field by field, which compiles to a few
// inline comparisons rather than a call to a memory compare.
func (c *Criticals) same(d *Criticals) bool {
	return c.AlwaysSucceed == d.AlwaysSucceed && c.AlwaysFail == d.AlwaysFail &&
		c.CritSuccess == d.CritSuccess && c.Crit5At == d.Crit5At && c.Crit6At == d.Crit6At &&
		c.CritFail == d.CritFail && c.Crit17AtOrBelow == d.Crit17AtOrBelow && c.CritFailBy == d.CritFailBy
}

// Roll3d6 rolls three six-sided dice and returns the total.
func Roll3d6(r *dice.Roller) int { return r.Roll(6) + r.Roll(6) + r.Roll(6) }

// SuccessRoll rolls 3d6 against effective skill.
func (c *Criticals) SuccessRoll(r *dice.Roller, skill int) Result { return c.Judge(Roll3d6(r), skill) }

// Better reports whether a is a better result than b: a success beats a
// failure, then the larger margin wins.
func Better(a, b Result) bool {
	if a.Success != b.Success {
		return a.Success
	}
	return a.Margin > b.Margin
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
	case a.Margin > b.Margin:
		winner = 0
	case b.Margin > a.Margin:
		winner = 1
	default:
		return -1, 0
	}
	if winner == 0 {
		mov = a.Margin - b.Margin
	} else {
		mov = b.Margin - a.Margin
	}
	return winner, max(mov, 0)
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
