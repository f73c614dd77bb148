package edge

import (
	"cmp"
	"slices"
)

// Interchangeable skills. In a chase a character who lists three skills
// can still act with ten others at the same modifier (0, plus the party's
// bonus), and each has its own count for Can't Fool Me Twice: the decision
// process would tell apart every way of spreading uses over them, though
// nothing in play tells one from another. Two skills are twins for a
// member of the deciding party when the rules and the opponent cannot tell
// them apart:
//
//   - the member has the same modifier on both, and both are safe or
//     neither, appropriate or neither, endurance-type or neither;
//   - every other skill is naturally opposed to both or to neither, so a
//     reaction is legal against one exactly when it is against the other;
//   - the opponent's policy never checks with either: no member of the
//     opponent acts with them (they are not among the skills it picks
//     from), lists them, or passively stakes with them, and each of its
//     members lists a skill it may always react with whose worst modifier
//     is at least either's best, weighed first (so a twin never wins its
//     choice of reaction, and the rest of its choice is legal or not alike).
//
// Then swapping the uses of two twins changes nothing in play but which
// of the two is used later, and the process keeps only how many uses each
// class of twins holds, sorted (a state and its swaps are one state); of
// twins with equal histories the member is offered only the first.

// twins holds the classes of twin skills of the deciding party's members,
// by member (numbered within the party): each class lists its skills in
// increasing order, with at least two.
type twins struct {
	lo      int       // the deciding party's first member, numbered across parties
	classes [][][]int // by member of the party
	of      [][]int   // by member: the class (index into classes) of each skill, -1 for none
}

// newTwins finds the twin skills of each member of party p, whose opponent
// is party o.
func (in *game) newTwins(p, o int) *twins {
	if _, ok := in.Policies[o].(*Style); !ok {
		return nil // a policy of unknown ways might tell any two skills apart
	}
	ns := len(in.skills)
	pi := in.parties[p]
	tw := &twins{lo: pi.lo}
	any := false
	for g := pi.lo; g < pi.hi; g++ {
		of := make([]int, ns)
		for s := range of {
			of[s] = -1
		}
		var classes [][]int
		for s := 1; s < ns; s++ {
			if of[s] >= 0 || !in.unseen(o, s) {
				continue
			}
			class := []int{s}
			for t := s + 1; t < ns; t++ {
				if of[t] < 0 && in.unseen(o, t) && in.alike(g, s, t) {
					class = append(class, t)
				}
			}
			if len(class) < 2 {
				continue
			}
			for _, t := range class {
				of[t] = len(classes)
			}
			classes = append(classes, class)
			any = true
		}
		tw.classes = append(tw.classes, classes)
		tw.of = append(tw.of, of)
	}
	if !any {
		return nil
	}
	return tw
}

// alike reports whether member g's checks with s and t are alike by the
// rules: the same modifier, the same kind of skill, the same natural
// opposites.
func (in *game) alike(g, s, t int) bool {
	ns := len(in.skills)
	if in.mods[g*ns+s] != in.mods[g*ns+t] || in.safe.has(s) != in.safe.has(t) ||
		in.appropriate.has(s) != in.appropriate.has(t) || in.endurance.has(s) != in.endurance.has(t) {
		return false
	}
	var both skillSet
	both.add(s)
	both.add(t)
	return in.opposed[s]&^both == in.opposed[t]&^both
}

// unseen reports whether party o's policy never checks with skill s (see
// above): it neither acts, reacts nor stakes with it, whatever it is shown.
func (in *game) unseen(o, s int) bool {
	pi := in.parties[o]
	for g := pi.lo; g < pi.hi; g++ {
		if slices.Contains(in.known[g], s) || slices.Contains(in.actCand[g], s) || (pi.passive && in.passSkill[g] == s) {
			return false
		}
		if !pi.passive && !in.shielded(g, s) {
			return false
		}
	}
	return true
}

// shielded reports whether member g (of a party that is not passive) lists
// a skill it may react with against any action whose worst modifier is at
// least its best with s: then its policy, which weighs listed skills first
// and keeps the first of equal ones, never reacts with s.
func (in *game) shielded(g int, s int) bool {
	ns := len(in.skills)
	lo, hi := in.rankRange(g)
	worst := 0
	if st, ok := in.Policies[in.memberOf[g]].(*Style); !ok || !st.IgnoreRepetition {
		for _, r := range in.rules.Repetition {
			worst = min(worst, r)
		}
	}
	top := in.mods[g*ns+s] + groupMod(in.endurance.has(s), hi)
	if in.endurance.has(s) {
		top = in.mods[g*ns+s] // an abandoning group pays nothing on it
	}
	for _, k := range in.known[g] {
		extra, always := 0, in.safe.has(k)
		if !always && in.appropriate.has(k) {
			extra, always = in.rules.Unpaired, true
		}
		if !always {
			continue
		}
		floor := in.mods[g*ns+k] + extra + worst + groupMod(in.endurance.has(k), lo)
		if in.endurance.has(k) {
			floor = in.mods[g*ns+k] + extra + worst - hi
		}
		if floor >= top {
			return true
		}
	}
	return false
}

// rankRange is the lowest and highest group rank member g may have in
// play: its rank, or one less once it abandons its stragglers.
func (in *game) rankRange(g int) (int, int) {
	r := in.mem(g).Rank
	if in.size[g] > 1 && !in.mem(g).Abandoned {
		return max(r-1, 0), r
	}
	return r, r
}

// groupMod is a group's modifier at rank r on a skill (see base): a bonus,
// or on an endurance-type skill a penalty.
func groupMod(endurance bool, r int) int {
	if endurance {
		return -r
	}
	return r
}

// history is what member m's next checks read of its skill s: its uses
// (capped where the penalty stops growing) for a skill that is not safe,
// and for a safe one 0 if it is the skill of the run the next round may
// go on (runOf), else 1.
func (in *game) history(m *MemberState, s, run int) int {
	if in.safe.has(s) {
		if s == run {
			return 0
		}
		return 1
	}
	return min(m.Uses[s], len(in.rules.Repetition))
}

// canonical returns, for member mb of the deciding party (in state m),
// the skill of each class's place in the state's canonical form: order[c]
// lists class c's skills sorted by their history, so the one at place i
// plays the part of the class's i-th skill in the canonical state.
func (tw *twins) canonical(in *game, mb int, m *MemberState, order [][]int) [][]int {
	run := in.runOf(m)
	for c, class := range tw.classes[mb] {
		if c >= len(order) {
			order = append(order, nil)
		}
		o := append(order[c][:0], class...)
		slices.SortStableFunc(o, func(a, b int) int { return cmp.Compare(in.history(m, a, run), in.history(m, b, run)) })
		order[c] = o
	}
	return order[:len(tw.classes[mb])]
}

// histories estimates from above how many histories for Can't Fool Me
// Twice the members of party p (whose opponent is o) can come to, as the
// full set's process keeps them (twins in canonical form): for each
// member, the uses of each skill it may check with that is not safe
// (0 up to the last penalty step; a class of twins counts its sorted
// uses), times the runs of a safe skill the next round may go on.
func (in *game) histories(p, o int, tw *twins) float64 {
	ns := len(in.skills)
	steps := len(in.rules.Repetition)
	var usable skillSet
	for s := 1; s < ns; s++ {
		if in.actLegal(s) {
			usable.add(s)
		}
	}
	for g := in.parties[o].lo; g < in.parties[o].hi; g++ {
		for _, s := range in.actCand[g] {
			usable.add(s)
			usable |= in.opposed[s]
		}
	}
	total := 1.0
	for mb := range in.parties[p].hi - in.parties[p].lo {
		n, runs := 1.0, 1.0
		counted := map[int]bool{}
		for s := range usable.all() {
			c := -1
			if tw != nil {
				c = tw.of[mb][s]
			}
			switch {
			case c >= 0 && counted[c]:
			case c >= 0:
				counted[c] = true
				k := 0
				for _, t := range tw.classes[mb][c] {
					if usable.has(t) {
						k++
					}
				}
				if in.safe.has(s) {
					runs += float64(steps)
				} else {
					n *= binomial(k+steps, steps)
				}
			case in.safe.has(s):
				runs += float64(steps)
			default:
				n *= float64(steps + 1)
			}
		}
		total *= n * runs
	}
	return total
}

// binomial is n choose k, as a float.
func binomial(n, k int) float64 {
	b := 1.0
	for i := range k {
		b = b * float64(n-i) / float64(i+1)
	}
	return b
}
