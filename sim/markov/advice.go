package markov

import (
	"cmp"
	"math"
	"slices"
)

// MaxAdvice is how many lines of advice Lines returns at most.
const MaxAdvice = 12

// Said is a line of advice in words: the situation as the deciding side
// sees it, and the chosen and the alternative option as a person reads
// them.
type Said struct {
	When, Do, Else string
}

// AsSaid is Lines' say for a key that is already the line's words: a
// mechanic whose situations need no summing up keys its lines by their
// Said.
func AsSaid[S comparable](k Said, _ []Decision[S]) Said { return k }

// Lines turns a plan's decisions (Plan.Decisions) into advice, the same way
// for every mechanic. In each decision the plan's choice is set against the
// best other option there (Decision.Rank). Decisions with the same key
// share a line; say puts a line in words from its key and its decisions,
// so that the words may sum up the group (a range of stakes, say). A line's
// Worth sums visits times the difference of the two options' values over
// its decisions (see Advice.Worth). Lines are ranked by Worth, largest
// first, and at most MaxAdvice are returned. Decisions where the
// alternative is as good as the choice (within 1e-12 per game), and states
// the plan visits without end, make no line. The key should hold the
// options' names, so that a line sets one choice against one alternative.
func Lines[S comparable, K comparable](ds []Decision[S], aim Aim, key func(d Decision[S], do, alt Option) K,
	say func(k K, group []Decision[S]) Said) []Advice {
	type line struct {
		key    K
		group  []Decision[S]
		advice Advice
	}
	byKey := map[K]int{}
	var lines []line
	for _, d := range ds {
		chosen, next, _ := d.Rank(aim)
		if next < 0 || math.IsInf(d.Visits, 0) {
			continue
		}
		do, alt := d.Options[chosen], d.Options[next]
		worth := d.Visits * math.Abs(do.Value-alt.Value)
		if worth <= 1e-12 {
			continue
		}
		k := key(d, do, alt)
		i, ok := byKey[k]
		if !ok {
			i = len(lines)
			byKey[k] = i
			lines = append(lines, line{key: k})
		}
		l := &lines[i]
		l.group = append(l.group, d)
		l.advice.Worth += worth
		l.advice.Reach += d.Visits
		l.advice.States++
	}
	slices.SortStableFunc(lines, func(a, b line) int { return cmp.Compare(b.advice.Worth, a.advice.Worth) })
	var out []Advice
	for _, l := range lines[:min(len(lines), MaxAdvice)] {
		w := say(l.key, l.group)
		l.advice.When, l.advice.Do, l.advice.Else = w.When, w.Do, w.Else
		out = append(out, l.advice)
	}
	return out
}
