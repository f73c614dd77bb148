package markov

import (
	"fmt"
	"math"
	"slices"

	"github.com/stakesrpg/stakes/named"
)

// Goal is what the deciding side of a scenario plays for: to end in one of
// the named outcomes.
type Goal struct {
	// Outcomes are category names of the scenario; the goal is the
	// probability of ending in any of them.
	Outcomes []string `json:"outcomes"`
	// Side names who decides (a party, side or character, as the mechanic
	// names them); "" is the mechanic's default. Every other side plays the
	// scenario's own policies.
	Side string `json:"side,omitempty"`
	// Ties is how the best play chooses among equally good choices, by
	// name (TiesNames): "cheapest" (the default, "" too) takes the one
	// that spends least (harm, Trauma, points or dice, as each mechanic's
	// doc says), "first" the first the mechanic lists.
	Ties string `json:"ties,omitempty"`
}

// TieBreak returns g.Ties as a Ties; a name Resolve would refuse is
// Cheapest.
func (g Goal) TieBreak() Ties {
	if k := slices.Index(TiesNames, g.Ties); k > 0 {
		return Ties(k)
	}
	return Cheapest
}

// Resolve checks g against a scenario whose sides that may decide are
// named sides and whose outcome categories are categories: Side names one
// of sides ("" is the first) and each outcome a category. It returns the
// deciding side's index and the goal filled in: Side by name, and the
// outcomes wins(side) gives when g names none. Errors begin with mechanic
// and list what is allowed.
func (g Goal) Resolve(mechanic string, sides, categories []string, wins func(side int) []string) (int, Goal, error) {
	side := 0
	if g.Side != "" {
		if side = slices.Index(sides, g.Side); side < 0 {
			return 0, Goal{}, fmt.Errorf("%s: goal side %q: allowed %s", mechanic, g.Side, named.Allowed(sides))
		}
	}
	if g.Ties != "" && !slices.Contains(TiesNames, g.Ties) {
		return 0, Goal{}, fmt.Errorf("%s: goal ties %q: allowed %s", mechanic, named.Clip(g.Ties), named.Allowed(TiesNames))
	}
	out := Goal{Side: sides[side], Outcomes: slices.Clone(g.Outcomes), Ties: g.Ties}
	if len(out.Outcomes) == 0 {
		out.Outcomes = wins(side)
	}
	for _, o := range out.Outcomes {
		if !slices.Contains(categories, o) {
			return 0, Goal{}, fmt.Errorf("%s: goal outcome %q: allowed %s", mechanic, o, named.Allowed(categories))
		}
	}
	return side, out, nil
}

// Solved is how much decisions matter in one scenario: the goal's value
// under the best play, the worst play and each shipped policy, with the
// best play's most consequential decisions in words. A mechanic's Solve
// returns it.
type Solved struct {
	Goal Goal `json:"goal"`
	// Side is who decided, as the mechanic names it.
	Side string `json:"side"`
	// Method says how the values were found: "exact" for a solved decision
	// process, "exact: " and what the options were where a mechanic solves
	// over a chosen set of them (edge: "every legal skill" or "each
	// member's best skills"), or how a search was made where the state
	// space is too large.
	Method string `json:"method"`
	// States and Choices are the size of the solved process (states, and
	// choices summed over them).
	States  int `json:"states"`
	Choices int `json:"choices"`
	// Best is optimal play, or where Bound is set the best play found;
	// Worst the play that makes the goal least likely.
	Best  PolicyValue `json:"best"`
	Worst PolicyValue `json:"worst"`
	// Bound is set where Best is the best play found over some of the
	// choices rather than proved the best of all: a value no play can
	// pass (at least Best's), so the optimum lies between Best and it.
	Bound *float64 `json:"bound,omitempty"`
	// Own is the deciding side's own play, the policy the scenario gives
	// it; Worth is Best.Value - Own.Value, what playing well is worth over
	// how the side plays now: the number a designer means by "how much
	// does playing well matter".
	Own   PolicyValue `json:"own"`
	Worth float64     `json:"worth"`
	// Policies are the shipped policies, each played by the deciding side.
	Policies []PolicyValue `json:"policies"`
	// Gap is Best.Value - Worst.Value: how far apart the best and the worst
	// play lie, comparable across house rules (the worst play often
	// concedes at once, so Worth is the number to read first).
	Gap float64 `json:"gap"`
	// Advice is the best play's decisions in words, the line worth most
	// first (see Advice.Worth).
	Advice []Advice `json:"advice,omitempty"`
}

// SetOwn records v as the deciding side's own play and what playing well
// is worth over it (rounding below 1e-12 read as nothing).
func (s *Solved) SetOwn(v PolicyValue) {
	s.Own, s.Worth = v, s.Best.Value-v.Value
	if math.Abs(s.Worth) < 1e-12 {
		s.Worth = 0
	}
}

// SetOwnPolicy records the shipped policy named name, one of s.Policies,
// as the deciding side's own play (SetOwn).
func (s *Solved) SetOwnPolicy(name string) error {
	k := slices.IndexFunc(s.Policies, func(v PolicyValue) bool { return v.Name == name })
	if k < 0 {
		names := make([]string, len(s.Policies))
		for i, v := range s.Policies {
			names[i] = v.Name
		}
		return fmt.Errorf("markov: own policy %q is not among the policies valued: %s", named.Clip(name), named.Allowed(names))
	}
	s.SetOwn(s.Policies[k])
	return nil
}

// Optimum is what every mechanic's Optimal holds beside its Policy: one
// side's best (or worst) play of a scenario for a goal, solved exactly.
type Optimum struct {
	// Goal is the goal solved for, its outcomes filled in when the goal
	// left them out; Side the deciding side's name, as the mechanic names
	// it.
	Goal Goal
	Side string
	// Value is the goal's probability under this play.
	Value float64
	// Answer is the scenario's exact behaviour under this play, every
	// other side playing its own policies: P per category, MeanRounds and
	// the distribution of Rounds, counted as the mechanic's Exact counts
	// them.
	Answer Answer
	// States and Choices are the size of the solved decision process.
	States, Choices int
}

// PolicyValue is the goal's value under one way of playing.
type PolicyValue struct {
	Name string `json:"name"`
	// Value is the probability of the goal.
	Value float64 `json:"value"`
	// HalfWidth is the 95% half-width of a sampled value; 0 when exact.
	HalfWidth float64 `json:"half_width,omitempty"`
	// Answer is the exact answer under this play (zero when sampled).
	Answer Answer `json:"answer"`
}

// ExactSolved is the Solved of a decision process solved exactly for goal
// by side (states and choices its size): best and worst play, named
// "optimal" and "worst", and the gap between them. The caller adds each
// shipped policy's value (ValueOf) and the advice.
func ExactSolved(goal Goal, side string, states, choices int, best, worst PolicyValue) Solved {
	best.Name, worst.Name = "optimal", "worst"
	return Solved{Goal: goal, Side: side, Method: "exact", States: states, Choices: choices,
		Best: best, Worst: worst, Gap: best.Value - worst.Value}
}

// ValueOf is the goal's value under an exact answer a: the probability of
// the categories k with in[k].
func ValueOf(name string, a Answer, in []bool) PolicyValue {
	v := 0.0
	for k, p := range a.P {
		if k < len(in) && in[k] {
			v += p
		}
	}
	return PolicyValue{Name: name, Value: v, Answer: a}
}

// Advice is one line of the best play in words: in situation When, do Do
// rather than Else, which is worth Worth per game.
type Advice struct {
	// When is the situation: "1 success short, Level 2 harm has room".
	When string `json:"when"`
	// Do is the best play's choice; Else the best of the other choices
	// there, in words.
	Do   string `json:"do"`
	Else string `json:"else"`
	// Worth is what Do is worth over Else in P(goal) per game: summed over
	// the line's situations, how often best play comes to each (expected
	// visits per game) times the goal's value of Do minus that of Else
	// there, the rest of play being best. It is what the goal loses, to
	// first order, if Else is taken every time instead. A sampled search
	// gives the measured difference of the two plays.
	Worth float64 `json:"worth"`
	// Reach is how often play comes to the line's situations (expected
	// visits per game, summed) under best play; 0 where it is not
	// counted. States is how many situations the line gathers.
	Reach  float64 `json:"reach"`
	States int     `json:"states"`
}

// Check reports whether s is consistent: values are probabilities, the
// best is at least and the worst at most every policy's value (to 1e-9,
// beyond the half-width of sampled ones), a Bound at least the best, Gap
// Best minus Worst and Worth Best minus Own.
func (s Solved) Check() error {
	all := append([]PolicyValue{s.Best, s.Worst}, s.Policies...)
	for _, v := range all {
		if !(v.Value >= -1e-12 && v.Value <= 1+1e-12) || !(v.HalfWidth >= 0) {
			return fmt.Errorf("markov: %s's value %v (half-width %v) is not a probability", v.Name, v.Value, v.HalfWidth)
		}
	}
	valued := s.Policies
	if s.Own.Name != "" {
		valued = append(slices.Clip(valued), s.Own)
	}
	for _, v := range valued {
		slack := 1e-9 + v.HalfWidth + s.Best.HalfWidth + s.Worst.HalfWidth
		if v.Value > s.Best.Value+slack || v.Value < s.Worst.Value-slack {
			return fmt.Errorf("markov: %s's value %v lies outside best %v and worst %v", v.Name, v.Value, s.Best.Value, s.Worst.Value)
		}
	}
	if math.Abs(s.Gap-(s.Best.Value-s.Worst.Value)) > 1e-12 {
		return fmt.Errorf("markov: gap %v is not best %v minus worst %v", s.Gap, s.Best.Value, s.Worst.Value)
	}
	if s.Own.Name != "" && math.Abs(s.Worth-(s.Best.Value-s.Own.Value)) > 1e-12 {
		return fmt.Errorf("markov: worth %v is not best %v minus own %v", s.Worth, s.Best.Value, s.Own.Value)
	}
	if s.Bound != nil && !(*s.Bound >= s.Best.Value-1e-9-s.Best.HalfWidth) {
		return fmt.Errorf("markov: bound %v lies below the best found %v", *s.Bound, s.Best.Value)
	}
	return nil
}
