package dramadeck

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/stakesrpg/stakes/sim"
)

// Bounds a saved state must keep, so that no step can loop, overflow or
// allocate without end on a state edited by hand.
const (
	// MaxHeroes and MaxVillains bound each side of a game.
	MaxHeroes   = 16
	MaxVillains = 32
	// maxTrack bounds HP and FP (and their maxima) either way.
	maxTrack = 1_000_000
	// maxCount bounds a count kept in the state: bonuses, cards waiting,
	// Possibilities, rounds, counters.
	maxCount = 1_000_000
	// maxTasks bounds the Dramatic Skill Resolutions a state holds.
	maxTasks = 64
	// maxCounter bounds the counters for reports (cards played and drawn,
	// flips, Glory played, a study's tallies), which only ever grow by
	// one or by a bounded award: far beyond any game, far below overflow.
	maxCounter = 1 << 40
	// maxName bounds a character's name, which errors and events print.
	maxName = 200
)

// Save returns the state as JSON. It holds no dice: a game saved to play
// on identically also needs the dice.Roller's bytes (Roller.MarshalBinary),
// and the policies by name; Game.Save writes the scenario and the state
// together, which Scenario.Restore reads back.
func (s *State) Save() ([]byte, error) { return json.Marshal(s) }

// restoreState reads a state Save wrote, strictly (an unknown field is an
// error), and checks it whole (State.Check): a state the rules cannot play
// is an error, never a later panic. A rule whose key the save lacks, as a
// game saved before that rule became a setting does, reads its default
// (DefaultRules): such a save plays on as it was played, not with the rule
// at zero (stun_percent 0 would have every blow stun).
func restoreState(data []byte) (*State, error) {
	s := &State{}
	if err := sim.DecodeStrict(data, s); err != nil {
		return nil, fmt.Errorf("dramadeck: reading a saved game: %w", err)
	}
	var saved struct {
		Rules map[string]json.RawMessage `json:"rules"`
	}
	if err := json.Unmarshal(data, &saved); err != nil {
		return nil, fmt.Errorf("dramadeck: reading a saved game's rules: %w", err)
	}
	takeDefaults(reflect.ValueOf(&s.Rules).Elem(), reflect.ValueOf(DefaultRules()), saved.Rules)
	if err := s.Check(); err != nil {
		return nil, fmt.Errorf("dramadeck: saved game refused: %w", err)
	}
	return s, nil
}

// takeDefaults sets each field of the struct v whose JSON key the saved
// object lacks to the same field of def, and does the same inside each
// struct field that is there (the criticals, the margin table). A key
// written with omitempty is left out of a save when its value is zero,
// so its absence means zero and the field is left as it is.
func takeDefaults(v, def reflect.Value, saved map[string]json.RawMessage) {
	for i := range v.NumField() {
		key, opts, _ := strings.Cut(v.Type().Field(i).Tag.Get("json"), ",")
		raw, ok := saved[key]
		switch {
		case !ok && opts != "omitempty":
			v.Field(i).Set(def.Field(i))
		case ok && v.Field(i).Kind() == reflect.Struct:
			var inner map[string]json.RawMessage
			if json.Unmarshal(raw, &inner) == nil {
				takeDefaults(v.Field(i), def.Field(i), inner)
			}
		}
	}
}

// Check validates the state whole, before any step reads it: the rules,
// the deck, every card in exactly one place, one player per hero, every
// character, the round's phase and acting order, and the tasks. It
// reports the first problem, naming the field and what is allowed.
func (s *State) Check() error {
	if err := s.Rules.Validate(); err != nil {
		return err
	}
	if err := s.Deck.check(); err != nil {
		return err
	}
	if err := s.checkCounts(); err != nil {
		return err
	}
	if err := s.checkCast(); err != nil {
		return err
	}
	if err := s.checkRound(); err != nil {
		return err
	}
	if err := s.checkTasks(); err != nil {
		return err
	}
	if s.Plan != nil {
		if err := s.Plan.check(s); err != nil {
			return err
		}
	}
	if err := s.checkCards(); err != nil {
		return err
	}
	if s.Question != nil {
		return s.Question.check(s)
	}
	return nil
}

// check validates a deck: 1..MaxCards cards, each with a player-side name
// and GM lines, approved actions and a skill bar the rules know.
func (d *Deck) check() error {
	if len(d.Cards) == 0 || len(d.Cards) > MaxCards {
		return fmt.Errorf("deck: %d cards, need 1..%d", len(d.Cards), MaxCards)
	}
	for i := range d.Cards {
		if err := d.Cards[i].check(); err != nil {
			return fmt.Errorf("deck.cards[%d]: %w", i, err)
		}
	}
	return nil
}

func (c *Card) check() error {
	if !c.Name.Valid() {
		return fmt.Errorf("name %v is not a card", c.Name)
	}
	for _, l := range [2]Line{c.Standard, c.Dramatic} {
		if err := l.check(); err != nil {
			return err
		}
	}
	for _, a := range c.Approved {
		if a != NoAct && !a.Approved() {
			return fmt.Errorf("approved action %v (allowed: Attack, Defend, Trick, Test, Taunt, Intimidate, Maneuver or none)", a)
		}
	}
	if c.Bar >= numBars {
		return fmt.Errorf("bar %v is not a skill bar entry", c.Bar)
	}
	return nil
}

func (l Line) check() error {
	switch {
	case l.First > Villains:
		return fmt.Errorf("line: first %v (allowed: Heroes, Villains)", l.First)
	case !l.Hero.gmEffect() || !l.Villain.gmEffect():
		return fmt.Errorf("line: effects %v, %v (allowed: a GM effect or none)", l.Hero, l.Villain)
	case l.VillainAction != NoAct && !l.VillainAction.Approved():
		return fmt.Errorf("line: villain action %v is not an approved action", l.VillainAction)
	}
	return nil
}

// checkCounts bounds the state's own numbers.
func (s *State) checkCounts() error {
	for _, f := range []struct {
		name        string
		v, min, max int
	}{
		{"act", s.Act, 1, maxCount}, {"scene", s.Scene, 1, maxCount}, {"round", s.Round, 0, maxCount},
		{"planned", s.Planned, 0, maxCount}, {"max_rounds", s.MaxRounds, 0, maxCount},
		{"glory", s.Glory, 0, maxCounter}, {"flips", s.Flips, 0, maxCounter},
		{"flurry_rounds", s.FlurryRounds, 0, maxCounter}, {"cards_played", s.CardsPlayed, 0, maxCounter},
		{"cards_drawn", s.CardsDrawn, 0, maxCounter},
	} {
		if f.v < f.min || f.v > f.max {
			return fmt.Errorf("%s: %d, must be %d..%d", f.name, f.v, f.min, f.max)
		}
	}
	if s.Outcome > TimedOut {
		return fmt.Errorf("outcome %v is not an outcome", s.Outcome)
	}
	return s.Line.check()
}

// checkCast: one player per hero, every character and player in bounds.
func (s *State) checkCast() error {
	switch {
	case len(s.Heroes) == 0 || len(s.Heroes) > MaxHeroes:
		return fmt.Errorf("heroes: %d, need 1..%d", len(s.Heroes), MaxHeroes)
	case len(s.Villains) > MaxVillains:
		return fmt.Errorf("villains: %d, at most %d", len(s.Villains), MaxVillains)
	case len(s.Players) != len(s.Heroes):
		return fmt.Errorf("players: %d for %d heroes (player i plays hero i)", len(s.Players), len(s.Heroes))
	}
	for i := range s.Heroes {
		if err := s.Heroes[i].checkInPlay(fmt.Sprintf("heroes[%d]", i)); err != nil {
			return err
		}
	}
	for i := range s.Villains {
		if err := s.Villains[i].checkInPlay(fmt.Sprintf("villains[%d]", i)); err != nil {
			return err
		}
	}
	for p := range s.Players {
		pl := &s.Players[p]
		for _, f := range []struct {
			name string
			v    int
		}{{"pooled", pl.Pooled}, {"critical_act", pl.CriticalAct}, {"ideas", pl.Ideas}, {"award", pl.Award}} {
			if f.v < 0 || f.v > maxCount {
				return fmt.Errorf("players[%d].%s: %d, must be 0..%d", p, f.name, f.v, maxCount)
			}
		}
		if pl.CriticalAct > s.Act {
			return fmt.Errorf("players[%d].critical_act: %d, after the current act %d", p, pl.CriticalAct, s.Act)
		}
	}
	return nil
}

// checkInPlay is check for a character in play: its HP and FP may have
// fallen below zero, within bounds, and its status counts are bounded.
func (c *Character) checkInPlay(field string) error {
	if c.HP < -maxTrack || c.FP < -maxTrack {
		return fmt.Errorf("%s: hp/fp below %d", field, -maxTrack)
	}
	hp, fp := c.HP, c.FP
	c.HP, c.FP = max(hp, 0), max(fp, 0)
	err := c.check(field)
	c.HP, c.FP = hp, fp
	if err != nil {
		return err
	}
	st := &c.Status
	switch st.Posture {
	case NoAct, Defend, AllOutAttack:
	default:
		return fmt.Errorf("%s.status.posture: %v (allowed: none, Defend, All-Out Attack)", field, st.Posture)
	}
	for _, v := range []int{st.RoundBonus, st.Next[0], st.Next[1], st.Next[2], st.Support, st.Coup, st.Up,
		st.CardPoss, st.Luck, st.Fails, st.Extra, st.Alert, st.Connections} {
		if v < 0 || v > maxCount {
			return fmt.Errorf("%s.status: a count of %d, counts must be 0..%d", field, v, maxCount)
		}
	}
	if st.Extra > MaxCards {
		return fmt.Errorf("%s.status.extra: %d Haste actions owed, at most %d", field, st.Extra, MaxCards)
	}
	return nil
}

// checkRound: the phase and the acting order agree with combat.
func (s *State) checkRound() error {
	n := len(s.Heroes) + len(s.Villains)
	switch {
	case s.Phase > Acting:
		return fmt.Errorf("phase %v is not a phase", s.Phase)
	case !s.Combat && s.Phase != Between:
		return fmt.Errorf("phase %v out of combat (allowed: between)", s.Phase)
	case s.Phase != Acting && len(s.Queue) > 0:
		return fmt.Errorf("queue: %d characters to act while %v", len(s.Queue), s.Phase)
	case len(s.Queue) > 2*n:
		return fmt.Errorf("queue: %d turns, at most %d (every character twice)", len(s.Queue), 2*n)
	}
	for i, ci := range s.Queue {
		if ci < 0 || ci >= n {
			return fmt.Errorf("queue[%d]: character %d does not exist (have 0..%d)", i, ci, n-1)
		}
	}
	for p := range s.Players {
		if s.Phase == Declaring && s.Players[p].MayMove {
			return fmt.Errorf("players[%d].may_move while the players declare: a move to the pool is offered after the hero's action or as the encounter begins, never during the declarations", p)
		}
	}
	return nil
}

func (s *State) checkTasks() error {
	if len(s.Tasks) > maxTasks {
		return fmt.Errorf("tasks: %d, at most %d", len(s.Tasks), maxTasks)
	}
	for i := range s.Tasks {
		ts := &s.Tasks[i]
		if err := ts.Task.Check(); err != nil {
			return fmt.Errorf("tasks[%d]: %w", i, err)
		}
		switch {
		case ts.Player < 0 || ts.Player >= len(s.Players):
			return fmt.Errorf("tasks[%d].player: %d does not exist (have 0..%d)", i, ts.Player, len(s.Players)-1)
		case ts.Done < 0 || ts.Done > s.Rules.TaskSteps:
			return fmt.Errorf("tasks[%d].done: %d, must be 0..%d", i, ts.Done, s.Rules.TaskSteps)
		case ts.Round < 0 || ts.Round > ts.Task.Rounds:
			return fmt.Errorf("tasks[%d].round: %d, must be 0..%d", i, ts.Round, ts.Task.Rounds)
		case ts.Using < 0 || ts.Using >= ts.Task.skills():
			return fmt.Errorf("tasks[%d].using: %d, must be 0..%d", i, ts.Using, ts.Task.skills()-1)
		case ts.Worse < 0 || ts.Worse > maxCount || ts.Restarts < 0 || ts.Restarts > maxCount:
			return fmt.Errorf("tasks[%d]: worse and restarts must be 0..%d", i, maxCount)
		}
	}
	return nil
}

// checkCards verifies that every card of the deck is in exactly one
// place, and that subplots made permanent are cards.
func (s *State) checkCards() error {
	n := len(s.Deck.Cards)
	seen := make([]int, n)
	count := func(pile []int, name string) error {
		for _, c := range pile {
			if c < 0 || c >= n {
				return fmt.Errorf("%s holds card %d, deck has 0..%d", name, c, n-1)
			}
			seen[c]++
		}
		return nil
	}
	if err := errors.Join(count(s.Draw, "draw"), count(s.Discard, "discard"), count(s.Stack, "stack")); err != nil {
		return err
	}
	for p := range s.Players {
		if err := errors.Join(count(s.Players[p].Hand, fmt.Sprintf("players[%d].hand", p)),
			count(s.Players[p].Pool, fmt.Sprintf("players[%d].pool", p))); err != nil {
			return err
		}
		for _, id := range s.Players[p].Permanent {
			if id < 0 || id >= n {
				return fmt.Errorf("players[%d].permanent: card %d does not exist", p, id)
			}
		}
	}
	for c, k := range seen {
		if k != 1 {
			return fmt.Errorf("card %d (%v) is in %d places, must be in exactly one", c, s.Deck.Cards[c].Name, k)
		}
	}
	return nil
}
