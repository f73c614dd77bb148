package edge

import (
	"encoding/binary"
	"slices"

	"github.com/stakesrpg/stakes/sim/markov"
)

// The bound. Where the full set of options is too large to solve (every
// way of spreading uses over a dozen skills is a state of its own), Solve
// gives the best play found over a smaller set, and beside it an upper
// bound on the best play over every legal choice: the value of a
// relaxation, a process in which the deciding party may do everything it
// may do in play and more.
//
// In the relaxation the state leaves out the deciding party's history for
// Can't Fool Me Twice, and each of its checks pays whichever repetition
// penalty the party picks, among none and rules.repetition's steps (so a
// skill used three times may still be checked fresh, or at -3). Every other
// part of the state and of the round is the process's own. Any play of the
// party in the interaction is a play of the relaxation (at each check it
// picks the penalty its history would make it pay, and the opponent, who
// never reads the party's history, answers alike), so the best play of the
// relaxation wins at least as often as the best play in the interaction.
// Because the party may pick any penalty rather than the smallest, the
// bound holds for any goal, including one the party reaches by doing
// badly.
//
// Options that lead to the same states with the same chances are one
// option: in a round the checks of one party are read only by their
// modifiers (the exchange and the initiative go by party), so options are
// told apart by the modifiers of the party's checks and by the checks its
// opponent answers with, and the opponent's policy answers alike to any
// two skills it cannot tell apart (respond).

// optionSet names a set of the deciding party's options.
type optionSet int

const (
	setBest  optionSet = iota // each member's best skills (the bounded set)
	setEvery                  // every legal choice
	setBound                  // the relaxation whose value bounds setEvery's
)

// respond holds which skills of the deciding party its opponent's policy
// answers alike, in any action: class[s] is the least skill like s.
type respond struct {
	class []int
}

// newRespond finds, for party p's skills, which its opponent o's policy
// cannot tell apart: two skills it never checks with itself (unseen) and
// to which the same of its listed skills that are not safe are naturally
// opposed (so a reaction it may make against one it may make against the
// other, at the same cost). A passive opponent answers every action alike.
func (in *game) newRespond(p, o int) *respond {
	ns := len(in.skills)
	r := &respond{class: make([]int, ns)}
	_, style := in.Policies[o].(*Style)
	sig := make([]skillSet, ns)
	for s := 1; s < ns; s++ {
		r.class[s] = s
		if in.parties[o].passive {
			r.class[s] = 1
			continue
		}
		if !style || !in.unseen(o, s) {
			continue
		}
		for g := in.parties[o].lo; g < in.parties[o].hi; g++ {
			for _, k := range in.known[g] {
				if !in.safe.has(k) && in.opposed[k].has(s) {
					sig[s].add(k)
				}
			}
		}
		for t := 1; t < s; t++ {
			if r.class[t] == t && in.unseen(o, t) && sig[t] == sig[s] {
				r.class[s] = t
				break
			}
		}
	}
	return r
}

// levels are the repetition penalties a check of the relaxation may pay:
// none, and each step of rules.repetition.
func (r *Rules) levels() []int {
	out := []int{0}
	for _, p := range r.Repetition {
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// relaxedCheck is one check the deciding party's member may make in the
// relaxation: its Use (Mod carrying the penalty picked), its modifier, the
// class of its skill for the opponent's answer, and whether who makes it
// changes the state (a group about to shed its stragglers).
type relaxedCheck struct {
	u          Use
	mod, class int
	marked     bool
}

// relaxed lists the deciding party's options in the relaxation from the
// state x.in holds, acting or reacting to an action with the skills in
// acted: every choice of members up to its dice, each with each legal
// skill at each penalty, one option for all that lead alike (relaxedSig).
func (m *optimalModel) relaxed(acting bool, acted skillSet) [][]Use {
	in := m.x.in
	p := m.side
	members := in.s.Parties[p].Members
	cands := make([][]relaxedCheck, len(members))
	levels := in.rules.levels()
	for mb := range members {
		g := in.parties[p].lo + mb
		seen := map[[2]int]bool{}
		for _, c := range in.choices(p, mb, acting, acted) {
			class := 0
			if acting {
				class = m.respond.class[c.Skill]
			}
			marked := in.size[g] > 1 && in.endurance.has(c.Skill) && !members[mb].Abandoned
			for _, pen := range levels {
				k := [2]int{c.Mod + pen, class}
				if marked {
					k[1] = -c.Skill - 1 // told apart by its skill
				}
				if !seen[k] {
					seen[k] = true
					cands[mb] = append(cands[mb], relaxedCheck{Use{Member: mb, Skill: c.Skill, Mod: pen}, c.Mod + pen, class, marked})
				}
			}
		}
	}
	r := relaxation{m: m, acting: acting, sigs: map[string]bool{}, answers: map[skillSet]string{}}
	r.walk(cands, 0, in.s.Parties[p].Edge)
	return r.options
}

// maxRelaxed bounds the options of one state of the relaxation: past it
// the relaxation is refused as too large (markov.MaxChoices would be).
const maxRelaxed = markov.MaxChoices

// relaxation is the scratch space of one state's relaxed options.
type relaxation struct {
	m       *optimalModel
	acting  bool
	options [][]Use
	sigs    map[string]bool
	answers map[skillSet]string // the opponent's answers by the classes acted with
	checks  []relaxedCheck
	mods    []int
	sig     []byte
}

// walk adds the options made of r.checks and a check (or none) of each
// member from mb on, up to edge checks in all.
func (r *relaxation) walk(cands [][]relaxedCheck, mb, edge int) {
	if len(r.options) > maxRelaxed {
		return
	}
	if mb == len(cands) {
		if len(r.checks) > 0 && !r.seen() {
			us := make([]Use, len(r.checks))
			for i, c := range r.checks {
				us[i] = c.u
			}
			r.options = append(r.options, us)
		}
		return
	}
	r.walk(cands, mb+1, edge)
	if len(r.checks) == edge {
		return
	}
	for _, c := range cands[mb] {
		r.checks = append(r.checks, c)
		r.walk(cands, mb+1, edge)
		r.checks = r.checks[:len(r.checks)-1]
	}
}

// seen reports whether an option leading as r.checks do was listed, and
// notes r.checks' if not. What tells options apart: the modifiers of the
// party's checks (sorted: the exchange and the initiative read a party's
// checks only by them), each marked check with its member and skill, and,
// acting, the opponent's answer.
func (r *relaxation) seen() bool {
	b := r.sig[:0]
	r.mods = r.mods[:0]
	var cls skillSet
	for _, c := range r.checks {
		cls.add(c.class)
		if c.marked {
			b = append(b, 'g', byte(c.u.Member), byte(c.u.Skill))
			b = binary.AppendVarint(b, int64(c.mod))
			continue
		}
		r.mods = append(r.mods, c.mod)
	}
	slices.Sort(r.mods)
	b = append(b, 'm')
	for _, mod := range r.mods {
		b = binary.AppendVarint(b, int64(mod))
	}
	if r.acting {
		b = append(b, 'a')
		b = append(b, r.answer(cls)...)
	}
	r.sig = b
	if r.sigs[string(b)] {
		return true
	}
	r.sigs[string(b)] = true
	return false
}

// answer returns the opponent's answer to the deciding party acting with
// r.checks, whose skills are of the classes cls: its checks and their
// modifiers.
func (r *relaxation) answer(cls skillSet) string {
	if a, ok := r.answers[cls]; ok {
		return a
	}
	in := r.m.x.in
	p, o := r.m.side, 1-r.m.side
	out := ""
	if !in.parties[o].passive {
		a := Action{Party: p, Targets: []int{o}}
		for _, c := range r.checks {
			a.Checks = append(a.Checks, c.u)
		}
		rc := Reaction{Party: o}
		in.Policies[o].React(&in.w.view, o, &a, &rc)
		acted := in.skillsOf(&a)
		var b []byte
		for _, u := range rc.Checks {
			mod := 0
			if g := in.member(o, u.Member); g >= 0 && u.Skill > 0 && u.Skill < len(in.skills) {
				mod, _ = in.checkMod(g, in.mem(g), u.Skill, false, acted)
			}
			b = binary.AppendVarint(b, int64(u.Member))
			b = binary.AppendVarint(b, int64(u.Skill))
			b = binary.AppendVarint(b, int64(mod+u.Mod))
		}
		out = string(b)
	}
	r.answers[cls] = out
	return out
}
