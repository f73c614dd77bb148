package challenge

import (
	"fmt"
	"maps"
	"slices"
)

// Campaign is what outlives one conflict: the rules, the characters'
// sheets, and the owe list, "the backbone of the long-term game". It saves
// and restores as JSON.
type Campaign struct {
	Rules      Rules       `json:"rules"`
	Characters []Character `json:"characters"`
	// Owe is the owe list, oldest first. A character may be on it more
	// than once; each entry is one advantage die for its player. [ours]
	Owe []Debt `json:"owe"`
}

// Role is one character of a campaign taking part in a conflict.
type Role struct {
	Character      string `json:"character"`
	Endeavor       string `json:"endeavor"`
	Specialization string `json:"specialization,omitempty"`
}

// Enlist names a side of a conflict from a campaign's characters.
type Enlist struct {
	Name    string `json:"name"`
	Members []Role `json:"members"`
	Target  string `json:"target,omitempty"`
}

// Character returns the index of the named character, or an error.
func (cp *Campaign) Character(name string) (int, error) {
	for i := range cp.Characters {
		if cp.Characters[i].Name == name {
			return i, nil
		}
	}
	return -1, fmt.Errorf("challenge: the campaign has no character %q", name)
}

// Validate checks the rules, every character, unique names, and that every
// owe-list name is a character of the campaign.
func (cp *Campaign) Validate() error {
	if err := cp.Rules.Validate(); err != nil {
		return err
	}
	seen := map[string]bool{}
	for i := range cp.Characters {
		ch := &cp.Characters[i]
		if err := ch.Validate(cp.Rules); err != nil {
			return err
		}
		if seen[ch.Name] {
			return fmt.Errorf("challenge: two characters are named %q", ch.Name)
		}
		seen[ch.Name] = true
	}
	for i, d := range cp.Owe {
		k, err := cp.Character(d.Name)
		if err != nil {
			return fmt.Errorf("challenge: owe[%d]: %w", i, err)
		}
		if p := cp.Characters[k].owner(); p != d.Player {
			return fmt.Errorf("challenge: owe[%d]: %s belongs to player %q, not %q", i, d.Name, p, d.Player)
		}
	}
	return nil
}

// Start sets up a conflict between the enlisted sides with the campaign's
// rules, sheets and owe list. A character may be on only one side.
func (cp *Campaign) Start(sides ...Enlist) (*State, error) {
	if err := cp.Validate(); err != nil {
		return nil, err
	}
	used := map[string]bool{}
	parties := make([]Party, len(sides))
	for i, s := range sides {
		parties[i] = Party{Name: s.Name, Target: s.Target}
		for _, role := range s.Members {
			k, err := cp.Character(role.Character)
			if err != nil {
				return nil, fmt.Errorf("challenge: side %s: %w", s.Name, err)
			}
			if used[role.Character] {
				return nil, fmt.Errorf("challenge: %s is on two sides or twice on one", role.Character)
			}
			used[role.Character] = true
			parties[i].Members = append(parties[i].Members, Entry{
				Character: cp.Characters[k], Endeavor: role.Endeavor, Specialization: role.Specialization})
		}
	}
	return NewState(cp.Rules, parties, cp.Owe)
}

// Finish writes a finished conflict back into the campaign: each member's
// stats as the conflict left them, negotiated remaps and specializations,
// and the owe list with the names added and crossed off. The conflict must be over and its characters in the
// campaign; on an error the campaign is unchanged.
func (cp *Campaign) Finish(c *State) error {
	if c.Phase != PhaseDone {
		return fmt.Errorf("%w: Finish in phase %v: the conflict is not over", ErrPhase, c.Phase)
	}
	idx := map[int]*Member{}
	for i := range c.Sides {
		for m := range c.Sides[i].Members {
			mem := &c.Sides[i].Members[m]
			k, err := cp.Character(mem.Name)
			if err != nil {
				return err
			}
			idx[k] = mem
		}
	}
	// Negotiated remaps and specializations, checked before anything
	// changes.
	type edit struct {
		k  int
		rm *Remap
		g  *Gain
	}
	var edits []edit
	for _, cons := range c.Consequences {
		if cons.Settlement == nil || cons.Side < 0 || cons.Side >= len(c.Sides) {
			continue
		}
		side := &c.Sides[cons.Side]
		for i := range cons.Settlement.Remaps {
			rm := &cons.Settlement.Remaps[i]
			if rm.Member < 0 || rm.Member >= len(side.Members) {
				return fmt.Errorf("challenge: Finish: remap for member %d of side %s", rm.Member, side.Name)
			}
			k, _ := cp.Character(side.Members[rm.Member].Name)
			if _, err := cp.Characters[k].EndeavorStat(rm.Endeavor); err != nil {
				return fmt.Errorf("challenge: Finish: remap: %w", err)
			}
			edits = append(edits, edit{k: k, rm: rm})
		}
		for i := range cons.Settlement.Gains {
			g := &cons.Settlement.Gains[i]
			if g.Member < 0 || g.Member >= len(side.Members) {
				return fmt.Errorf("challenge: Finish: gain for member %d of side %s", g.Member, side.Name)
			}
			k, _ := cp.Character(side.Members[g.Member].Name)
			if _, err := cp.Characters[k].EndeavorStat(g.Specialization.Endeavor); err != nil {
				return fmt.Errorf("challenge: Finish: specialization %q: %w", g.Specialization.Name, err)
			}
			edits = append(edits, edit{k: k, g: g})
		}
	}
	for k, mem := range idx {
		ch := &cp.Characters[k]
		stats := make(map[string]Stat, len(cp.Rules.Stats))
		for j, name := range cp.Rules.Stats {
			stats[name] = mem.Stats[j]
		}
		ch.Stats = stats
	}
	for _, e := range edits {
		ch := &cp.Characters[e.k]
		if e.rm != nil {
			m := make(map[string]string, len(ch.Endeavors))
			for en, st := range ch.Endeavors {
				m[en] = st
			}
			m[e.rm.Endeavor] = e.rm.Stat
			ch.Endeavors = m
		}
		if e.g != nil {
			ch.Specializations = append(append([]Specialization(nil), ch.Specializations...), e.g.Specialization)
		}
	}
	cp.Owe = fromEarlier(c.Owe)
	return nil
}

// Chapter is what a character may add to its sheet at the setup of its
// next chapter, the one time the text lets a sheet grow ("You can add
// something to your character sheet only during setup for your
// character's next chapter"): endeavors, new or tied to another stat, and
// specializations. Die sizes are not added, then or ever [ours]: "you
// can't add die sizes to your character sheet, but you can completely
// move die sizes around", and Moves do that.
type Chapter struct {
	Character       string            `json:"character"`
	Endeavors       map[string]string `json:"endeavors,omitempty"`
	Specializations []Specialization  `json:"specializations,omitempty"`
	Moves           []Move            `json:"moves,omitempty"`
}

// NextChapter applies a chapter's additions to a character's sheet. The
// changed sheet must be valid under the campaign's rules, and a
// specialization's name must be new to it; on an error the campaign is
// unchanged.
func (cp *Campaign) NextChapter(ch Chapter) error {
	k, err := cp.Character(ch.Character)
	if err != nil {
		return err
	}
	old := &cp.Characters[k]
	sheet := *old
	sheet.Stats = maps.Clone(old.Stats)
	sheet.Endeavors = maps.Clone(old.Endeavors)
	maps.Copy(sheet.Endeavors, ch.Endeavors)
	for _, sp := range ch.Specializations {
		if _, err := sheet.Specialization(sp.Name); err == nil {
			return fmt.Errorf("challenge: NextChapter: %s already has a specialization %q", sheet.Name, sp.Name)
		}
		sheet.Specializations = append(slices.Clip(sheet.Specializations), sp)
	}
	for _, m := range ch.Moves {
		if err := sheet.Move(cp.Rules, m); err != nil {
			return fmt.Errorf("challenge: NextChapter: %w", err)
		}
	}
	if err := sheet.Validate(cp.Rules); err != nil {
		return fmt.Errorf("challenge: NextChapter: %w", err)
	}
	*old = sheet
	return nil
}
