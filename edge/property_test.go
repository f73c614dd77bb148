package edge

import (
	"fmt"
	"testing"

	"github.com/stakesrpg/stakes/dice"
)

// randomScenario draws a scenario: 2-4 parties of 1-4 members, random
// skills, crowds, passive parties, bonus dice, policies and outside factors.
func randomScenario(r *dice.Roller) Scenario {
	s := Scenario{Rules: DefaultRules()}
	// Mean-reverting policy pairs (one wagers more when ahead) can trade
	// dice for hundreds of rounds; a lower cap keeps the test quick.
	s.Rules.MaxRounds = 150
	types := []string{"chase", "social", "temptation"}
	s.Type = types[r.IntN(len(types))]
	s.Rules.MultiTarget = r.IntN(2) == 0
	typ := s.Rules.Types[s.Type]
	pool := append(append([]string{typ.Seize, "endurance"}, typ.Skills...), typ.Safe...)
	if typ.Start != "" {
		pool = append(pool, typ.Start)
	}
	pols := PolicyNames()
	n := 2 + r.IntN(3)
	for p := range n {
		pt := Party{Name: fmt.Sprintf("p%d", p), BonusEdge: r.IntN(4), Bonus: r.IntN(3) - 1, Policy: pols[r.IntN(len(pols))]}
		pt.Passive = p > 0 && r.IntN(5) == 0
		pt.Tempter = p == 0 && typ.TempterFirst
		for m := range 1 + r.IntN(4) {
			mem := Member{Name: fmt.Sprintf("m%d.%d", p, m), Skills: map[string]int{}}
			for range 1 + r.IntN(4) {
				mem.Skills[pool[r.IntN(len(pool))]] = r.IntN(11) - 2
			}
			if r.IntN(4) == 0 {
				mem.Size = 2 + r.IntN(100)
			}
			pt.Members = append(pt.Members, mem)
		}
		s.Parties = append(s.Parties, pt)
	}
	if r.IntN(3) == 0 {
		s.Factors = []Factor{{After: r.IntN(3), Every: r.IntN(3), Skill: "endurance", DC: 8 + r.IntN(10), Penalty: -r.IntN(3)}}
	}
	return s
}

// conservation sums a recorder's transfers per round.
type conservation struct {
	t     *testing.T
	in    *session
	total int
}

func (c *conservation) check(when string) {
	c.t.Helper()
	in := c.in
	sum := 0
	for p := range in.parties {
		e := in.s.Parties[p].Edge
		if e < 0 {
			c.t.Fatalf("%s: %s holds %d edge dice", when, in.pname(p), e)
		}
		if in.s.Parties[p].Out != (e == 0) && !(in.s.Outcome.Done() && e == 0) {
			c.t.Fatalf("%s: %s out=%v with %d dice", when, in.pname(p), in.s.Parties[p].Out, e)
		}
		sum += e
	}
	if sum != c.total {
		c.t.Fatalf("%s: %d edge dice in play, started with %d", when, sum, c.total)
	}
	if ini := in.s.Initiative; in.s.Started && !in.s.Outcome.Done() && (in.parties[ini].passive || in.s.Parties[ini].Out) {
		c.t.Fatalf("%s: initiative with %s (passive %v, out %v)", when, in.pname(ini), in.parties[ini].passive, in.s.Parties[ini].Out)
	}
}

// TestConservation: edge dice are conserved in every round of 10^4 random
// interactions, and every interaction ends.
func TestConservation(t *testing.T) {
	scenarios, trials := 200, 50
	if testing.Short() || raceOn {
		scenarios = 50
	}
	gen := dice.NewSeeded(2026)
	r := dice.NewSeeded(99)
	ends := map[End]int{}
	for i := range scenarios {
		s := randomScenario(gen)
		in, err := newSession(s)
		if err != nil {
			t.Fatalf("scenario %d: %v", i, err)
		}
		c := &conservation{t: t, in: in}
		for p := range in.parties {
			c.total += in.s.Parties[p].Edge
		}
		for range trials {
			in.Reset()
			for steps := 0; !in.Outcome().Done(); steps++ {
				if err := in.Step(r); err != nil {
					t.Fatalf("scenario %d step %d: %v", i, steps, err)
				}
				c.check(fmt.Sprintf("scenario %d round %d", i, in.Played()))
			}
			o := in.Outcome()
			ends[o.End]++
			if (o.End == RanOut || o.End == Surrendered) && !o.Partial && o.Winner >= 0 {
				if o.Winner < 0 || in.s.Parties[o.Winner].Edge != c.total {
					t.Fatalf("scenario %d: %+v but the winner holds %d of %d", i, o, in.s.Parties[max(o.Winner, 0)].Edge, c.total)
				}
			}
		}
	}
	t.Logf("endings: %v", ends)
	for _, e := range []End{RanOut, Surrendered, WalkedAway} {
		if ends[e] == 0 {
			t.Errorf("no interaction ended %v: the generator misses a case", e)
		}
	}
}
