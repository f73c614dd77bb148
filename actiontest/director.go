package actiontest

import (
	"fmt"
	"slices"

	"github.com/stakesrpg/stakes/named"
)

// DirectorView is what a Director sees when it rules on one cell of the
// position x outcome table.
type DirectorView struct {
	Position Position
	Band     Band
	// Table is the rules' own cell (read-only).
	Table *Outcome
	// Rules are the rules in force (read-only).
	Rules *Rules
}

// Ruling is the Director's choice for a cell: which consequences follow
// and how severe they are. Whether the character succeeded, the outcome's
// kind and the dice carried to the next roll stay the table's.
type Ruling struct {
	Severity     Severity
	Consequences []Consequence
}

// Director makes the Director's choice where the outcome table leaves one
// ("Types of Consequences": the Director picks a complication, a lost
// opportunity, a worse position or harm, and how bad). It is the other
// role at the table, beside the player's Policy: the player chooses
// whether to risk peril, push and spend, the Director rules on what a roll
// costs. A State names its Director (State.Director) among the shipped
// ones (DirectorByName), so that a saved game keeps it; a step asks it
// for the one cell a finished roll reads (a Runner asks it once per cell
// when its scenario is built). A Director must be deterministic in its
// view, which it must not change, and must not change the table's
// consequences it is shown. A worse position asked for by Test.Escalate
// still replaces a failure's consequences whatever the Director ruled.
type Director interface {
	Name() string
	Rule(v *DirectorView) Ruling
}

// TableDirector gives every cell's consequences exactly as the table lists
// them (the default).
type TableDirector struct{}

// Name returns "table".
func (TableDirector) Name() string { return "table" }

// Rule returns the table's cell. Its consequences are the table's own
// (clipped, so that a Director building on them appends to a copy).
func (TableDirector) Rule(v *DirectorView) Ruling {
	return Ruling{Severity: v.Table.Severity, Consequences: slices.Clip(v.Table.Consequences)}
}

// HarshDirector deals harm whenever a cell has consequences at all: a cell
// that lists none keeps none, a cell with harm keeps it, and a cell with
// consequences but no harm adds a harm of the level its severity names
// (minor 1, moderate 2, severe 3; none: 1), at most the top harm row. A
// test marked NoHarm still takes none.
type HarshDirector struct{}

// Name returns "harsh".
func (HarshDirector) Name() string { return "harsh" }

// Rule adds harm to every consequence cell without any.
func (HarshDirector) Rule(v *DirectorView) Ruling {
	r := TableDirector{}.Rule(v)
	if len(r.Consequences) == 0 || hasKind(r.Consequences, Harm) {
		return r
	}
	level := min(max(severityLevel(r.Severity), 1), len(v.Rules.HarmRows))
	r.Consequences = append(r.Consequences, Consequence{Kind: Harm, Level: level})
	return r
}

// GentleDirector never deals the table's harm: it drops every harm and
// makes sure a complication stands in its place (a serious one for harm of
// level 3 or more), keeping the cell's other consequences (a lost
// opportunity stays lost).
type GentleDirector struct{}

// Name returns "gentle".
func (GentleDirector) Name() string { return "gentle" }

// Rule replaces harm with a complication.
func (GentleDirector) Rule(v *DirectorView) Ruling {
	r := TableDirector{}.Rule(v)
	serious, dropped := false, false
	var out []Consequence // r's consequences are the table's: build anew
	for _, q := range r.Consequences {
		if q.Kind == Harm {
			dropped = true
			serious = serious || q.Level >= 3
			continue
		}
		out = append(out, q)
	}
	r.Consequences = out
	if !dropped {
		return r
	}
	for i, q := range out {
		if q.Kind == Complication {
			out[i].Serious = q.Serious || serious
			return r
		}
	}
	r.Consequences = append([]Consequence{{Kind: Complication, Serious: serious}}, out...)
	return r
}

// severityLevel is the harm level a severity names: minor 1, moderate 2,
// severe 3, none 0 [ours, as the default table's harm].
func severityLevel(s Severity) int {
	switch s {
	case Minor:
		return 1
	case Moderate:
		return 2
	case Severe:
		return 3
	}
	return 0
}

// directors are the shipped Directors by name.
var directors = named.Registry[Director]{Kind: "director", Make: map[string]func() Director{
	"table":  func() Director { return TableDirector{} },
	"harsh":  func() Director { return HarshDirector{} },
	"gentle": func() Director { return GentleDirector{} },
}}

// DirectorByName returns a shipped Director; "" is "table".
func DirectorByName(name string) (Director, error) {
	if name == "" {
		name = "table"
	}
	d, err := directors.ByName(name)
	if err != nil {
		return nil, fmt.Errorf("actiontest: %w", clipErr(err))
	}
	return d, nil
}

// Directors returns the shipped Directors' names, sorted.
func Directors() []string { return directors.Names() }

// ruling is the Director d's ruling on the cell of position i and band b
// of the rules' outcome table, shown to d in v: the cell with d's
// severity and consequences.
func ruling(rl *Rules, d Director, i int, b Band, v *DirectorView) Outcome {
	cell := rl.Table[i].Cell(b)
	o := *cell
	*v = DirectorView{Position: rl.Table[i].Position, Band: b, Table: cell, Rules: rl}
	r := d.Rule(v)
	o.Severity, o.Consequences = r.Severity, r.Consequences
	return o
}

// ruledTable asks d for its ruling on every cell of the outcome table. A
// ruling the rules cannot carry out (an unknown consequence kind, a harm
// level outside the rows) is an error.
func ruledTable(rl *Rules, d Director) ([][3]Outcome, error) {
	table := make([][3]Outcome, len(rl.Table))
	var v DirectorView
	for i := range rl.Table {
		for b := BandMultiple; b <= BandFailure; b++ {
			o := ruling(rl, d, i, b, &v)
			if err := checkOutcome(rl, &o); err != nil {
				return nil, fmt.Errorf("actiontest: director %s on %s %s: %w", d.Name(), rl.Positions[i], Band(b), err)
			}
			o.Consequences = slices.Clone(o.Consequences)
			table[i][b] = o
		}
	}
	return table, nil
}

// checkDirector says whether the state's Director is d (when not nil) or
// a shipped one, whose ruling on every cell the rules can carry out.
func (s *State) checkDirector(d Director) error {
	if d == nil {
		s.ruledBy = nil // ruled afresh from what was checked
		_, err := s.shipped()
		return err
	}
	if s.Director != d.Name() {
		return fmt.Errorf("actiontest: director %.40q, the scenario's is %.40q", s.Director, d.Name())
	}
	_, err := ruledTable(&s.Rules, d)
	return err
}

// directorOf returns the Director named name: one of extra (a
// scenario's own, found by Name) or else a shipped one; "" is "table".
func directorOf(name string, extra []Director) (Director, error) {
	for _, d := range extra {
		if d != nil && d.Name() == name && name != "" {
			return d, nil
		}
	}
	d, err := DirectorByName(name)
	if err != nil && len(extra) > 0 {
		return nil, fmt.Errorf("%w, nor among the scenario's %d Directors", err, len(extra))
	}
	return d, err
}

// cell is the outcome of band b at position index pos, as the Director
// rules it: from the table a Runner worked out when its scenario was
// built, or the one the state's shipped Director ruled when the state was
// made or checked (State.shipped), or, for a Director of the Engine's
// own, asked of it now into the state's lent record. A ruling the rules
// cannot carry out is an error.
func (c *game) cell(pos int, b Band) (*Outcome, error) {
	if c.table != nil {
		return &c.table[pos][b], nil
	}
	d := c.director
	if d == nil {
		table, err := c.State.shipped()
		if err != nil {
			return nil, err
		}
		return &table[pos][b], nil
	}
	c.State.ruled = ruling(c.rules, d, pos, b, &c.State.dv)
	if err := checkOutcome(c.rules, &c.State.ruled); err != nil {
		return nil, fmt.Errorf("actiontest: director %.40s on %s %s: %w", d.Name(), c.rules.Positions[pos], b, err)
	}
	return &c.State.ruled, nil
}

// ruledBy is the outcome table as a state's shipped Director rules it,
// and what it was ruled from: the Director's name and the rules' table.
type ruledBy struct {
	director string
	rows     *TableRow
	table    [][3]Outcome
}

// shipped returns the outcome table as the state's shipped Director
// (State.Director) rules it. It is ruled when the state is made or
// checked (NewState, Check), and again only when the state has since been
// given another Director or other rules (a state edited by hand is checked
// again before the next step; see Engine), so a step asks no Director and
// looks up no name.
func (s *State) shipped() ([][3]Outcome, error) {
	rl := &s.Rules
	if len(rl.Table) == 0 {
		return nil, fmt.Errorf("%w: table: no rows (see State.Check)", ErrRules)
	}
	if r := s.ruledBy; r != nil && r.director == s.Director && r.rows == &rl.Table[0] && len(r.table) == len(rl.Table) {
		return r.table, nil
	}
	d, err := DirectorByName(s.Director)
	if err != nil {
		return nil, err
	}
	table, err := ruledTable(rl, d)
	if err != nil {
		return nil, err
	}
	s.ruledBy = &ruledBy{director: s.Director, rows: &rl.Table[0], table: table}
	return table, nil
}
