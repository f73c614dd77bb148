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
	out := Goal{Side: sides[side], Outcomes: slices.Clone(g.Outcomes)}
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
	// Best is optimal play; Worst the play that makes the goal least likely.
	Best  PolicyValue `json:"best"`
	Worst PolicyValue `json:"worst"`
	// Policies are the shipped policies, each played by the deciding side.
	Policies []PolicyValue `json:"policies"`
	// Gap is Best.Value - Worst.Value: one number for how much decisions
	// matter, comparable across house rules.
	Gap float64 `json:"gap"`
	// Advice is the best play's decisions in words, most consequential
	// first.
	Advice []Advice `json:"advice,omitempty"`
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

// Advice is one line of optimal play in words.
type Advice struct {
	// When is the situation: "1 success short, Level 2 harm has room".
	When string `json:"when"`
	// Do is the optimal choice; Else the best alternative, in words.
	Do   string `json:"do"`
	Else string `json:"else,omitempty"`
	// Gain is the goal's value of Do minus that of the worst choice there.
	Gain float64 `json:"gain"`
	// Reach is how often play comes to this situation (expected visits)
	// under optimal play.
	Reach float64 `json:"reach"`
}

// Check reports whether s is consistent: values are probabilities, the
// best is at least and the worst at most every policy's value (to 1e-9,
// beyond the half-width of sampled ones), and Gap is Best minus Worst.
func (s Solved) Check() error {
	all := append([]PolicyValue{s.Best, s.Worst}, s.Policies...)
	for _, v := range all {
		if !(v.Value >= -1e-12 && v.Value <= 1+1e-12) || !(v.HalfWidth >= 0) {
			return fmt.Errorf("markov: %s's value %v (half-width %v) is not a probability", v.Name, v.Value, v.HalfWidth)
		}
	}
	for _, v := range s.Policies {
		slack := 1e-9 + v.HalfWidth + s.Best.HalfWidth + s.Worst.HalfWidth
		if v.Value > s.Best.Value+slack || v.Value < s.Worst.Value-slack {
			return fmt.Errorf("markov: %s's value %v lies outside best %v and worst %v", v.Name, v.Value, s.Best.Value, s.Worst.Value)
		}
	}
	if math.Abs(s.Gap-(s.Best.Value-s.Worst.Value)) > 1e-12 {
		return fmt.Errorf("markov: gap %v is not best %v minus worst %v", s.Gap, s.Best.Value, s.Worst.Value)
	}
	return nil
}
