package challenge

import "fmt"

// Legal-choice queries: what a side may do now, for bots and menus. Each
// is built from the same checks the steps validate with, so a choice they
// list is one the step takes. A State whose turn does not hold together
// (edited by hand since its last Check) has no legal choices.

// Answerers returns the sides the current challenger may name as its
// answerer (PhaseChallenge): every other side still in. Empty outside
// PhaseChallenge, or when no one is left to answer (the challenger can
// only drop out).
func (Engine) Answerers(s *State) []int {
	if s.checkTurn() != nil {
		return nil
	}
	return s.answerers()
}

// Interferers returns the sides that may interfere, and answer instead,
// when the current challenger names answerer. In PhaseChallenge it
// previews any answerer the challenger might name; in PhaseInterfere it
// lists those who may interfere with the answerer named (answerer must be
// that side). Empty in other phases.
func (Engine) Interferers(s *State, answerer int) []int {
	if s.checkTurn() != nil {
		return nil
	}
	return s.interferers(answerer)
}

// Crossables returns the owe-list entries side i may cross off now: a
// comparison is pending, the side is in it and has not crossed one off in
// it yet, and the entry is a character of one of the side's players.
func (Engine) Crossables(s *State, i int) []int {
	if s.checkTurn() != nil {
		return nil
	}
	return s.crossables(i)
}

// Losses returns every loss exhaustion or injury may take from member m of
// the losing side (PhaseConsequence): for each of its injury stats, every
// way to spread the sizes Injure asks over that stat's dice. The winner
// picks one per member and passes them to Injure. Empty for a member who
// was out; an error outside PhaseConsequence or for no such member.
func (Engine) Losses(s *State, m int) ([]Loss, error) {
	if err := s.checkTurn(); err != nil {
		return nil, err
	}
	return s.lossChoices(m)
}

// answerers is Engine.Answerers once the turn is checked.
func (c *State) answerers() []int {
	var out []int
	if c.Phase != PhaseChallenge {
		return out
	}
	for j := range c.Sides {
		if c.canAnswer(j) == nil {
			out = append(out, j)
		}
	}
	return out
}

// interferers is Engine.Interferers once the turn is checked.
func (c *State) interferers(answerer int) []int {
	var out []int
	switch {
	case c.Phase == PhaseChallenge && c.canAnswer(answerer) == nil:
	case c.Phase == PhaseInterfere && answerer == c.Answerer:
	default:
		return out
	}
	for k := range c.Sides {
		if c.mayInterfere(k, answerer) {
			out = append(out, k)
		}
	}
	return out
}

// crossables is Engine.Crossables once the turn is checked.
func (c *State) crossables(i int) []int {
	var out []int
	for k := range c.Owe {
		if c.crossBar(i, k) == barNone {
			out = append(out, k)
		}
	}
	return out
}

// lossChoices is Engine.Losses once the turn is checked.
func (c *State) lossChoices(m int) ([]Loss, error) {
	if c.Phase != PhaseConsequence {
		return nil, c.phaseErr("Losses")
	}
	mem := c.Sides[c.Answerer].Members
	if m < 0 || m >= len(mem) {
		return nil, fmt.Errorf("challenge: Losses: member %d: side %s has members 0..%d", m, c.Sides[c.Answerer].Name, len(mem)-1)
	}
	var out []Loss
	if mem[m].Out {
		return out, nil
	}
	for st, injury := range mem[m].InjuryStats[:len(c.Rules.Stats)] {
		if !injury {
			continue
		}
		l := Loss{Stat: c.Rules.Stats[st]}
		c.spread(&out, l, mem[m].Stats[st], 0, c.InjuryLimit(c.Answerer, m, st))
	}
	// Keep those Injure takes: an empty stat is no choice while another
	// injury stat has dice.
	kept := out[:0]
	for i := range out {
		var after Stat
		if _, err := c.checkInjury(c.Answerer, m, &out[i], &after); err == nil {
			kept = append(kept, out[i])
		}
	}
	return kept, nil
}

// spread appends to out every way to take left sizes from the dice of s
// from position i on, each die giving at most the sizes it has.
func (c *State) spread(out *[]Loss, l Loss, s Stat, i, left int) {
	if i == s.Len() || i == MaxDice {
		if left == 0 {
			*out = append(*out, l)
		}
		return
	}
	for n := range min(left, c.Rules.sizes(s[i])) + 1 {
		l.Sizes[i] = n
		c.spread(out, l, s, i+1, left-n)
	}
}
