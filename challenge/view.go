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

// Side returns a copy of side i (0 <= i < Sides()); its slices are the
// state's own and must not be changed.
func (v *View) Side(i int) Side { return v.s.Sides[i] }

// In reports whether side i is still in the conflict.
func (v *View) In(i int) bool { return v.s.In(i) }

// Read returns side i's read roll: its high die plus advantage.
func (v *View) Read(i int) int { return v.s.Sides[i].Read() }

// Compare compares the showing rolls of sides i and j as the rules read
// them: 1 when i's is higher, -1 when lower, 0 for a true tie.
func (v *View) Compare(i, j int) int { return v.s.cmp(i, j) }

// Owe returns a copy of the owe list.
func (v *View) Owe() []Debt { return append([]Debt(nil), v.s.Owe...) }

// Answerers, Interferers, Crossables and Losses are the State's
// legal-choice queries.
func (v *View) Answerers() []int { return v.s.Answerers() }

// Interferers: see State.Interferers.
func (v *View) Interferers(answerer int) []int { return v.s.Interferers(answerer) }

// Crossables: see State.Crossables.
func (v *View) Crossables(i int) []int { return v.s.Crossables(i) }

// Losses: see State.Losses.
func (v *View) Losses(m int) ([]Loss, error) { return v.s.Losses(m) }
