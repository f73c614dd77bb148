package contest

import (
	"fmt"
	"slices"
	"strings"

	"github.com/stakesrpg/stakes/dice"
)

// Scenario kinds.
const (
	KindBasic     = "basic"
	KindContested = "contested"
	KindTimed     = "timed"
)

// Member is a character in a scenario with the policy (by registry name)
// that plays it; "" is the default.
type Member struct {
	Character
	Policy string `json:"policy,omitempty"`
}

// SideSpec is one side of a scenario's action. Pools name traits: a name
// alone is one of the character's own traits, "aspect:Name" one of the
// scene's Aspects, and "Other:Name" another character's Complication or
// Trauma.
type SideSpec struct {
	// Character is a member's name, or "trouble" for the Trouble Pool
	// (only as a basic action's opposition).
	Character string     `json:"character"`
	Pool      []string   `json:"pool,omitempty"`
	Extra     []string   `json:"extra,omitempty"`
	Gang      []dice.Die `json:"gang,omitempty"`
	Aider     string     `json:"aider,omitempty"`
	AidPool   []string   `json:"aid_pool,omitempty"`
}

// HelperSpec is a character who may buy time in a timed action.
type HelperSpec struct {
	Character string   `json:"character"`
	Pool      []string `json:"pool"`
}

// TimedSpec describes a timed action: the actor's pool, the beats, each
// step's stakes dice (empty: the Trouble Pool) and the helpers.
type TimedSpec struct {
	Actor   string       `json:"actor"`
	Pool    []string     `json:"pool"`
	Beats   int          `json:"beats"`
	Steps   []TimedStep  `json:"steps"`
	Helpers []HelperSpec `json:"helpers,omitempty"`
}

// Scenario is one simulated situation: the rules, the cast, the action and
// the policies. It decodes from JSON with unknown fields disallowed.
type Scenario struct {
	Rules   Rules    `json:"rules"`
	Kind    string   `json:"kind"`
	Cast    []Member `json:"cast"`
	Aspects []Trait  `json:"aspects,omitempty"`
	// Trouble is the starting Trouble Pool; nil means Rules.TroubleStart.
	Trouble []dice.Die `json:"trouble,omitempty"`
	// Sides of a basic (opposition, actor) or contested action.
	Sides []SideSpec `json:"sides,omitempty"`
	// Initiator is the side that rolls first in a contest; -1: all roll.
	Initiator int `json:"initiator"`
	// Interferer may step into a two-sided contest, rolling InterferePool.
	Interferer    string     `json:"interferer,omitempty"`
	InterferePool []string   `json:"interfere_pool,omitempty"`
	Timed         *TimedSpec `json:"timed,omitempty"`
	// GMPolicy plays the GM: buying 1s, the Trouble Pool's Complications.
	GMPolicy string `json:"gm_policy,omitempty"`
}

// DefaultScenario is the built-in balance scenario: a detective with one
// Plot Point against a villain with two thugs, the villain opening; the
// detective plays the default policy, the villain is stubborn, and the GM
// buys one 1 a roll.
func DefaultScenario() Scenario {
	return Scenario{
		Rules: DefaultRules(),
		Kind:  KindContested,
		Cast: []Member{
			{Character: Character{Name: "Detective", Traits: []Trait{
				{Name: "Justice", Kind: Value, Die: dice.D8},
				{Name: "Gotham", Kind: Relationship, Die: dice.D6},
				{Name: "World's Greatest", Kind: Distinction, Die: dice.D10},
				{Name: "Gadgets", Kind: Ability, Die: dice.D8},
			}}},
			{Character: Character{Name: "Villain", GM: true, PlotPoints: 1, Traits: []Trait{
				{Name: "Chaos", Kind: Value, Die: dice.D10},
				{Name: "Henchmen", Kind: Relationship, Die: dice.D8},
				{Name: "Madness", Kind: Distinction, Die: dice.D6},
				{Name: "Fear Gas", Kind: Resource, Die: dice.D6},
			}}, Policy: "stubborn"},
		},
		Sides: []SideSpec{
			{Character: "Villain", Pool: []string{"Chaos", "Henchmen", "Madness"}, Extra: []string{"Fear Gas"}, Gang: []dice.Die{dice.D6, dice.D6}},
			{Character: "Detective", Pool: []string{"Justice", "Gotham", "World's Greatest"}, Extra: []string{"Gadgets"}},
		},
		Initiator: 0,
	}
}

// built is a scenario resolved into engine terms.
type built struct {
	scene State
	// start is scene with the scenario's action (or timed action) begun,
	// where every trial starts.
	start  *State
	sides  []SideSetup
	iPicks []Pick
	iChar  int
	helper []Helper
	actor  int
	picks  []Pick
	beats  int
	steps  []TimedStep
	init   int
	table  Table
}

// member is the index of the cast member named name, or -1.
func (s Scenario) member(name string) int {
	for i := range s.Cast {
		if s.Cast[i].Name == name {
			return i
		}
	}
	return -1
}

// resolve resolves names (see SideSpec) into character owner's picks on
// the scenario's start state, naming field in errors.
func (b *built) resolve(field string, owner int, names []string) ([]Pick, error) {
	ps, err := b.scene.Picks(owner, names...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", field, err)
	}
	return ps, nil
}

func (s Scenario) build() (*built, error) {
	if err := s.Rules.Validate(); err != nil {
		return nil, fmt.Errorf("rules: %w", err)
	}
	if err := s.bounds(); err != nil {
		return nil, err
	}
	b := &built{iChar: -1, init: s.Initiator}
	b.scene.Rules = s.Rules
	b.scene.Rules.TroubleStart = slices.Clone(s.Rules.TroubleStart)
	if len(s.Cast) == 0 {
		return nil, fmt.Errorf("contest: cast: a scenario needs characters")
	}
	b.table.Chars = make([]Policy, len(s.Cast))
	for i, m := range s.Cast {
		if s.member(m.Name) != i {
			return nil, fmt.Errorf("contest: cast[%d]: the name %q is used twice", i, clip(m.Name))
		}
		if strings.Contains(m.Name, ":") || m.Name == "trouble" {
			return nil, fmt.Errorf("contest: cast[%d]: the name %q may not contain ':' or be \"trouble\"", i, clip(m.Name))
		}
		p, err := PolicyByName(m.Policy)
		if err != nil {
			return nil, fmt.Errorf("cast[%d].policy: %w", i, err)
		}
		b.table.Chars[i] = p
		c := m.Character
		c.Traits = append(make([]Trait, 0, len(c.Traits)+16), c.Traits...)
		if !c.GM {
			// A player character starts the episode with
			// Rules.StartPlotPoints, and the cast's plot_points on top.
			c.PlotPoints += s.Rules.StartPlotPoints
		}
		b.scene.Characters = append(b.scene.Characters, c)
	}
	g, err := PolicyByName(s.GMPolicy)
	if err != nil {
		return nil, fmt.Errorf("gm_policy: %w", err)
	}
	b.table.GM = g
	b.scene.Aspects = append([]Trait(nil), s.Aspects...)
	b.scene.Trouble = append(make([]dice.Die, 0, 64), s.Rules.TroubleStart...)
	if s.Trouble != nil {
		b.scene.Trouble = append(b.scene.Trouble[:0], s.Trouble...)
	}
	if err := b.scene.Check(); err != nil {
		return nil, fmt.Errorf("cast: %w", err)
	}
	switch s.Kind {
	case KindBasic, KindContested:
		if s.Timed != nil {
			return nil, fmt.Errorf("contest: timed: only a timed scenario has one")
		}
		for i, sd := range s.Sides {
			field := fmt.Sprintf("sides[%d]", i)
			ss := SideSetup{Char: TroublePool, Gang: sd.Gang}
			if sd.Character != "trouble" {
				if ss.Char = s.member(sd.Character); ss.Char < 0 {
					return nil, fmt.Errorf("contest: %s.character: no member %q", field, clip(sd.Character))
				}
				if ss.Base, err = b.resolve(field+".pool", ss.Char, sd.Pool); err != nil {
					return nil, err
				}
				if ss.Extra, err = b.resolve(field+".extra", ss.Char, sd.Extra); err != nil {
					return nil, err
				}
				if cost, err := b.scene.cost(ss.Char, ss.Base); err != nil {
					return nil, fmt.Errorf("%s.pool: %w", field, err)
				} else if cost > 0 {
					return nil, fmt.Errorf("contest: %s.pool costs %d Plot Points a roll (a repeated trait, or more than rules.free_traits %d): the pool holds the free picks; put the others in %s.extra", field, cost, s.Rules.FreeTraits, field)
				}
			} else if len(sd.Pool) > 0 || len(sd.Extra) > 0 {
				return nil, fmt.Errorf("contest: %s: the Trouble Pool takes no pool", field)
			}
			if sd.Aider != "" {
				c := s.member(sd.Aider)
				if c < 0 {
					return nil, fmt.Errorf("contest: %s.aider: no member %q", field, clip(sd.Aider))
				}
				ss.Aider = Ref(c)
				if ss.AidPicks, err = b.resolve(field+".aid_pool", c, sd.AidPool); err != nil {
					return nil, err
				}
				if cost, err := b.scene.cost(c, ss.AidPicks); err != nil {
					return nil, fmt.Errorf("%s.aid_pool: %w", field, err)
				} else if cost > b.scene.Characters[c].PlotPoints {
					return nil, fmt.Errorf("contest: %s.aid_pool costs %d Plot Points and %s has %d", field, cost, sd.Aider, b.scene.Characters[c].PlotPoints)
				}
			}
			b.sides = append(b.sides, ss)
		}
		seen := map[string]int{}
		for i, sd := range s.Sides {
			l := label(sd.Character)
			if j, ok := seen[l]; ok {
				return nil, fmt.Errorf("contest: sides[%d]: %q and sides[%d] share the category label %q", i, clip(sd.Character), j, l)
			}
			seen[l] = i
		}
		kind := Basic
		if s.Kind == KindContested {
			kind = Contested
		}
		var e Engine
		sc := b.scene.Clone()
		if err := e.Begin(sc, kind, b.sides, s.Initiator); err != nil {
			return nil, fmt.Errorf("sides: %w", err)
		}
		if s.Interferer != "" {
			if b.iChar = s.member(s.Interferer); b.iChar < 0 {
				return nil, fmt.Errorf("contest: interferer: no member %q", clip(s.Interferer))
			}
			if s.Kind != KindContested || len(s.Sides) != 2 {
				return nil, fmt.Errorf("contest: interferer: only a two-sided contest can be interfered with")
			}
			for _, sd := range b.sides {
				if sd.Char == b.iChar || sd.Aider.Is(b.iChar) {
					return nil, fmt.Errorf("contest: interferer: %s is part of the contest", s.Interferer)
				}
			}
			if b.iPicks, err = b.resolve("interfere_pool", b.iChar, s.InterferePool); err != nil {
				return nil, err
			}
			if _, err := b.scene.cost(b.iChar, b.iPicks); err != nil {
				return nil, fmt.Errorf("interfere_pool: %w", err)
			}
			sc.Action.Planned, sc.Action.IPicks = Ref(b.iChar), b.iPicks
		} else if len(s.InterferePool) > 0 {
			return nil, fmt.Errorf("contest: interfere_pool without an interferer")
		}
		b.start = sc
	case KindTimed:
		if s.Timed == nil {
			return nil, fmt.Errorf("contest: timed: a timed scenario needs one")
		}
		if len(s.Sides) > 0 || s.Interferer != "" {
			return nil, fmt.Errorf("contest: sides/interferer: a timed scenario has none")
		}
		t := s.Timed
		if b.actor = s.member(t.Actor); b.actor < 0 {
			return nil, fmt.Errorf("contest: timed.actor: no member %q", clip(t.Actor))
		}
		if b.picks, err = b.resolve("timed.pool", b.actor, t.Pool); err != nil {
			return nil, err
		}
		for i, h := range t.Helpers {
			c := s.member(h.Character)
			if c < 0 {
				return nil, fmt.Errorf("contest: timed.helpers[%d]: no member %q", i, clip(h.Character))
			}
			ps, err := b.resolve(fmt.Sprintf("timed.helpers[%d].pool", i), c, h.Pool)
			if err != nil {
				return nil, err
			}
			b.helper = append(b.helper, Helper{Char: c, Picks: ps})
		}
		var e Engine
		b.beats, b.steps = t.Beats, t.Steps
		sc := b.scene.Clone()
		if err := e.BeginTimed(sc, b.actor, b.picks, t.Beats, t.Steps, b.helper); err != nil {
			return nil, fmt.Errorf("timed: %w", err)
		}
		if err := sc.Check(); err != nil {
			return nil, fmt.Errorf("timed: %w", err)
		}
		b.start = sc
	default:
		return nil, fmt.Errorf("contest: kind %q: use %q, %q or %q", clip(s.Kind), KindBasic, KindContested, KindTimed)
	}
	return b, nil
}

// bounds refuses a scenario whose lists are past what any state may hold,
// before anything is built from them.
func (s Scenario) bounds() error {
	if len(s.Cast) > maxChars || len(s.Sides) > maxSides || len(s.Aspects) > maxAspect {
		return fmt.Errorf("contest: %d cast members, %d sides, %d aspects: at most %d, %d and %d", len(s.Cast), len(s.Sides), len(s.Aspects), maxChars, maxSides, maxAspect)
	}
	if len(s.Trouble) > maxDice {
		return fmt.Errorf("contest: a Trouble Pool of %d dice: at most %d", len(s.Trouble), maxDice)
	}
	pools := [][]string{s.InterferePool}
	for i, sd := range s.Sides {
		pools = append(pools, sd.Pool, sd.Extra, sd.AidPool)
		if len(sd.Gang) > maxGang {
			return fmt.Errorf("contest: sides[%d]: a gang of %d dice: at most %d", i, len(sd.Gang), maxGang)
		}
	}
	if t := s.Timed; t != nil {
		if len(t.Helpers) > maxHelpers || len(t.Steps) > maxSteps {
			return fmt.Errorf("contest: timed: %d helpers, %d steps: at most %d and %d", len(t.Helpers), len(t.Steps), maxHelpers, maxSteps)
		}
		for i, st := range t.Steps {
			if len(st.Stakes) > maxDice {
				return fmt.Errorf("contest: timed.steps[%d]: stakes of %d dice: at most %d", i, len(st.Stakes), maxDice)
			}
		}
		pools = append(pools, t.Pool)
		for _, h := range t.Helpers {
			pools = append(pools, h.Pool)
		}
	}
	for _, p := range pools {
		if len(p) > maxPicks {
			return fmt.Errorf("contest: a pool of %d picks: at most %d", len(p), maxPicks)
		}
	}
	return nil
}

// Validate checks the scenario; errors name the offending field.
func (s Scenario) Validate() error {
	_, err := s.build()
	return err
}

func label(name string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			return r
		case r >= 'A' && r <= 'Z':
			return r + 'a' - 'A'
		}
		return '_'
	}, name)
}

// Categories returns the outcome names. Basic: success, extraordinary
// (won by the margin: the opposition Knocked Out or the Trouble Pool cut),
// failure, knocked_out (the actor lost by the margin), gave_in. Contested:
// for each side, <side>_wins (the last loser beaten by less than the
// margin, or after a Final Push or the brawl), <side>_wins_extraordinary,
// <side>_wins_give_in; then stopped if there is an interferer. Timed:
// completed, getaway, objective, out_of_time.
func (s Scenario) Categories() []string {
	switch s.Kind {
	case KindBasic:
		return []string{"success", "extraordinary", "failure", "knocked_out", "gave_in"}
	case KindTimed:
		return []string{"completed", "getaway", "objective", "out_of_time"}
	}
	var out []string
	for _, sd := range s.Sides {
		l := label(sd.Character)
		out = append(out, l+"_wins", l+"_wins_extraordinary", l+"_wins_give_in")
	}
	if s.Interferer != "" {
		out = append(out, "stopped")
	}
	return out
}

// Metrics returns the integer metrics a trial reports. Metric 0 is rolls:
// the action rolls of the sides (not aid or interference), or the steps
// rolled in a timed action.
func (s Scenario) Metrics() []string {
	if s.Kind == KindTimed {
		return []string{"rolls", "beats_left", "helpers_out", "trouble"}
	}
	return []string{"rolls", "raises", "push_steps", "ones_bought", "knocked_out", "trouble"}
}

// Runner plays trials of one scenario; it owns its state, so use one per
// goroutine.
type Runner struct {
	b     *built
	kind  string
	e     Engine
	s     State
	cats  int
	basic bool
}

// NewRunner validates the scenario and preallocates a Runner.
func (s Scenario) NewRunner() (*Runner, error) {
	b, err := s.build()
	if err != nil {
		return nil, err
	}
	rn := &Runner{b: b, kind: s.Kind, s: *b.start.Clone(), cats: len(s.Categories()), basic: s.Kind == KindBasic}
	rn.e.Policies = b.table
	return rn, nil
}

// Trial plays one complete action from the scenario's start (its action
// begun once, when the Runner was built) through Play's loop over the
// engine's steps, and returns its category, filling metrics (aligned with
// Metrics; shorter slices get what fits). It allocates nothing once warmed
// up. A trial the engine stops (a policy's illegal answer, a nil r)
// returns that error and no category.
func (rn *Runner) Trial(r *dice.Roller, metrics []int) (int, error) {
	s, e := &rn.s, &rn.e
	clear(metrics)
	if r == nil {
		return 0, fmt.Errorf("contest: trial: %w", dice.ErrNilRoller)
	}
	if rn.kind == KindTimed {
		// BeginTimed's checks passed on this very start state when the
		// scenario was built.
		b := rn.b
		s.reset(&b.scene)
		if s.Timed != nil {
			s.Timed.Phase = TimedDone
		}
		e.setupTimed(s, b.actor, b.picks, b.beats, b.steps, b.helper)
	} else {
		// Begin's checks passed on this very start state when the
		// scenario was built, and it laid the action out then: a trial
		// starts from it.
		s.reset(rn.b.start)
	}
	if err := e.play(s, r); err != nil {
		return 0, err
	}
	return outcome(s, rn.basic, rn.cats, metrics), nil
}

// outcome reads the category and metrics of s, whose action (or timed
// action) has ended, as Scenario.Categories and Scenario.Metrics name
// them; basic says the scenario is a basic action, ncat how many
// categories it has.
func outcome(s *State, basic bool, ncat int, metrics []int) int {
	if tm := s.Timed; tm != nil {
		out := 0
		for _, h := range tm.Helpers {
			if h.Out {
				out++
			}
		}
		put(metrics, tm.Rolls, tm.Beats, out, len(s.Trouble))
		switch tm.Outcome {
		case TimedCompleted:
			return 0
		case TimedGetaway:
			return 1
		case TimedObjective:
			return 2
		}
		return 3
	}
	a := s.Action
	ko := 0
	for i := range s.Characters {
		if s.Characters[i].KnockedOut {
			ko++
		}
	}
	put(metrics, a.Rolls, a.Raises, a.Pushes, a.Bought, ko, len(s.Trouble))
	return category(a, basic, ncat)
}

// put copies vs into m, as many as fit.
func put(m []int, vs ...int) {
	copy(m, vs)
}

// category maps an ended action to its category index.
func category(a *Action, basic bool, ncat int) int {
	if basic {
		switch {
		case a.End == EndGaveIn:
			return 4
		case a.Winner == 1 && a.End == EndExtraordinary:
			return 1
		case a.Winner == 1:
			return 0
		case a.End == EndExtraordinary:
			return 3
		}
		return 2
	}
	if a.End == EndStopped {
		return ncat - 1
	}
	k := 0
	switch a.End {
	case EndExtraordinary:
		k = 1
	case EndGaveIn:
		k = 2
	}
	return 3*a.Winner + k
}
