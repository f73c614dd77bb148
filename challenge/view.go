package challenge

// View is what a policy sees of a conflict: read-only questions about the
// State it is asked from. It is valid only during the policy's call.
type View struct{ s *State }

// Rules returns the conflict's rules.
func (v *View) Rules() Rules { return v.s.Rules }

// Phase returns the phase, which says what is being asked.
func (v *View) Phase() Phase { return v.s.Phase }

// Round returns the round, counting from 1.
func (v *View) Round() int { return v.s.Round }

// Challenger and Answerer return the sides of the current exchange (-1
// when none).
func (v *View) Challenger() int { return v.s.Challenger }

// Answerer: see Challenger.
func (v *View) Answerer() int { return v.s.Answerer }

// Sides returns how many sides the conflict has.
func (v *View) Sides() int { return len(v.s.Sides) }

// Side returns a copy of side i and true, or the zero Side and false
// when there is no side i (sides are 0..Sides()-1). The copy's slices are
// the state's own and must not be changed.
func (v *View) Side(i int) (Side, bool) {
	if i < 0 || i >= len(v.s.Sides) {
		return Side{}, false
	}
	return v.s.Sides[i], true
}

// In reports whether side i is still in the conflict.
func (v *View) In(i int) bool { return v.s.In(i) }

// Read returns side i's read roll: its high die plus advantage (0 for a
// side that does not exist).
func (v *View) Read(i int) int {
	if i < 0 || i >= len(v.s.Sides) {
		return 0
	}
	return v.s.Sides[i].Read()
}

// Compare compares the showing rolls of sides i and j as the rules read
// them: 1 when i's is higher, -1 when lower, 0 for a true tie (and for a
// side that does not exist).
func (v *View) Compare(i, j int) int {
	if i < 0 || i >= len(v.s.Sides) || j < 0 || j >= len(v.s.Sides) {
		return 0
	}
	return v.s.cmp(i, j)
}

// Owe returns a copy of the owe list.
func (v *View) Owe() []Debt { return append([]Debt(nil), v.s.Owe...) }

// Answerers, Interferers, Crossables and Losses are the Engine
// legal-choice queries.
func (v *View) Answerers() []int { return v.s.answerers() }

// Interferers: see Engine.Interferers.
func (v *View) Interferers(answerer int) []int { return v.s.interferers(answerer) }

// Crossables: see Engine.Crossables.
func (v *View) Crossables(i int) []int { return v.s.crossables(i) }

// Losses: see Engine.Losses.
func (v *View) Losses(m int) ([]Loss, error) { return v.s.lossChoices(m) }
