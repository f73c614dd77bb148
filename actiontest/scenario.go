package actiontest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"

	"github.com/stakesrpg/stakes/named"
	"github.com/stakesrpg/stakes/sim/markov"
)

// Scenario is a character pursuing a goal over repeated action tests: each
// success fills 1 segment of a progress clock plus 1 per extra success; a
// failure may worsen the position (the Director's Worse Position, so the
// character tries again from there) or lose the opportunity; harm from the
// table, pushes and peril accumulates and costs dice, and a critical injury
// or Severe harm with no way to push takes the character out.
//
// It answers questions such as: how often does a rooftop chase end with the
// quarry caught unhurt, and what does pushing for extra successes cost?
type Scenario struct {
	Name  string `json:"name"`
	Rules Rules  `json:"rules"`
	// Character is the sheet. State is the starting state's play (nil:
	// unharmed): its harm, flashbacks used, carried dice and attempts; its
	// rules, sheet and Director are the scenario's, so those fields are
	// left empty.
	Character Sheet  `json:"character"`
	State     *State `json:"state,omitempty"`
	// Action, Position, Difficulty, Helpers and Equipment describe every
	// test of the pursuit; Position names one of Rules.Positions, ""
	// meaning Rules.DefaultPosition.
	Action     string   `json:"action"`
	Position   Position `json:"position"`
	Difficulty int      `json:"difficulty"`
	Helpers    int      `json:"helpers"`
	Equipment  int      `json:"equipment"`
	// Requires names equipment every test of the pursuit needs ("specific
	// equipment may be required to perform an Action"); the character must
	// carry it (Character.Equipment) [text].
	Requires string `json:"requires,omitempty"`
	// Pool, when above 0, replaces Action + Attribute as the base dice of
	// every test (help, equipment, harm and the rest still count), so a
	// designer can sweep pool sizes without editing the sheet.
	Pool int `json:"pool,omitempty"`
	// Goal is the progress segments needed.
	Goal int `json:"goal"`
	// Escalate: the Director answers a failure with Worse Position while a
	// worse position exists.
	Escalate bool `json:"escalate"`
	// ResetPosition: after a success the next test is back at Position;
	// otherwise the position stays where escalation left it.
	ResetPosition bool `json:"reset_position"`
	// PerilOffered: each test offers a Risk Peril deal whose price is a
	// harm of level PerilHarm (0: a price that is not harm).
	PerilOffered bool `json:"peril_offered"`
	PerilHarm    int  `json:"peril_harm"`
	// Flashback: after a failure that worsens the position, the character
	// is offered a flashback if one is left today (the policy decides;
	// the shipped ones call it) — a test of the same Action at
	// FlashbackPosition ("" means Position) with difficulty
	// FlashbackDifficulty (0: no roll), whose success adds dice to the next
	// test. Its harm counts; a lost opportunity in the past is ignored
	// [ours].
	Flashback           bool     `json:"flashback"`
	FlashbackPosition   Position `json:"flashback_position,omitempty"`
	FlashbackDifficulty int      `json:"flashback_difficulty"`
	// Policy names the registered policy making the character's choices.
	Policy string `json:"policy"`
	// Director names the Director ruling on the outcome table's
	// consequences: one of Directors, or a shipped one: "table" (as the
	// table lists them; also ""), "harsh" (harm whenever a cell has
	// consequences) or "gentle" (a complication instead of harm).
	Director string `json:"director,omitempty"`
	// Directors are Directors of the caller's own that Director may name
	// (by their Name), besides the shipped ones; JSON does not carry them,
	// so a saved game is restored through a Scenario holding them.
	Directors []Director `json:"-"`
	// Spend names the shipped way (SpendOrderByName) the scenario's policy
	// spends each test's extra successes on effects (Rules.Effects) before
	// the clock is filled: "none" (also ""), "heal_first" or "bonus_dice";
	// see SpendOrders and Spending. Only unspent extra successes fill
	// segments. A flashback's extras are not
	// spent [ours].
	Spend string `json:"spend,omitempty"`
	// Opponent, when above 0, makes every test of the pursuit an opposed
	// roll ("Opposed Rolls") against an opponent rolling that many dice:
	// the most successes prevail, read through Rules.Opposed (a win fills
	// the clock like a success; a tie against an NPC is a success with a
	// complication; a loss as Rules.Opposed.Lose says). An opposed roll
	// has no difficulty and no Worse Position, so Difficulty, Escalate and
	// the flashback are not read. OpponentPC says the opponent is a player
	// character (a tie is then neither side's; false: an NPC).
	Opponent   int  `json:"opponent,omitempty"`
	OpponentPC bool `json:"opponent_pc,omitempty"`
	// MaxTests stops a pursuit that has not ended ("stalled"): 1 to
	// 100,000, so that a trial, at most that many tests of at most 256
	// dice and a push each, ends in bounded work.
	MaxTests int `json:"max_tests"`
}

// DefaultScenario is a rooftop chase: a thief with Prowl 2 and Dexterity 2
// must fill a 4-segment clock at a Risky start; failures push the chase
// from Risky to Desperate, where the thief calls the day's flashback (a
// Controlled, normal-difficulty test of planning ahead) for an extra die; the thief pushes for a bonus
// success while barely hurt (the "threshold" policy) and may take a Risk
// Peril deal worth a moderate harm (which "threshold" declines; "daring"
// takes it).
func DefaultScenario() Scenario {
	return Scenario{
		Name:  "rooftop chase",
		Rules: DefaultRules(),
		Character: Sheet{Name: "Vex",
			Attributes: map[string]int{"Dexterity": 2, "Strength": 1, "Intuition": 1, "Reason": 1, "Presence": 1},
			Actions:    map[string]int{"Prowl": 2, "Athletics": 1}},
		Action:              "Prowl",
		Position:            "risky",
		Difficulty:          1,
		Goal:                4,
		Escalate:            true,
		ResetPosition:       true,
		PerilOffered:        true,
		PerilHarm:           2,
		Flashback:           true,
		FlashbackPosition:   "controlled",
		FlashbackDifficulty: 1,
		Policy:              "threshold",
		Director:            "table",
		MaxTests:            100,
	}
}

// Category is how a pursuit ended; it writes as its name.
type Category uint8

// The categories, in Categories order.
const (
	catClean Category = iota
	catHurt
	catLost
	catOut
	catStalled
)

var categoryNames = named.Enum[Category]{"clean", "hurt", "lost", "out", "stalled"}

// String returns the category's name.
func (c Category) String() string { return categoryNames.String(c) }

// MarshalText writes the category's name.
func (c Category) MarshalText() ([]byte, error) { return categoryNames.Marshal(c) }

// UnmarshalText reads a category name.
func (c *Category) UnmarshalText(b []byte) error { return categoryNames.Unmarshal(b, c) }

// Categories returns "clean" (goal reached without harm), "hurt" (reached
// after holding more harm than at the start after some test, even if extra
// successes healed it since), "lost" (the opportunity was lost), "out" (a
// critical injury, or Severe harm with no help and no room to push) and
// "stalled" (MaxTests reached).
func (s Scenario) Categories() []string { return slices.Clone(categoryNames) }

// Metric indices, in Metrics order.
const (
	metTests = iota
	metPushes
	metHarm
	metSuccesses
	metEscalations
	metPerils
	metFlashbacks
	numMetrics
)

// Metrics returns "tests" (tests rolled), "pushes", "harm" (harms taken,
// critical injuries included, less harms healed with extra successes: the
// harm held at the end less that at the start), "successes" (summed over the tests),
// "escalations" (Worse Position re-rolls), "perils" (deals taken) and
// "flashbacks". Pushes and harm include the flashbacks'; tests and
// successes do not.
func (s Scenario) Metrics() []string { return metricNames() }

// metricNames names the metrics, in Metrics order.
func metricNames() []string {
	return []string{"tests", "pushes", "harm", "successes", "escalations", "perils", "flashbacks"}
}

// Tally is a pursuit's metrics so far, in Scenario.Metrics order. It
// writes as a JSON object keyed by the metrics' names, and reads back only
// an object naming every metric once.
type Tally [numMetrics]int

// MarshalJSON writes the tally as {"tests": n, "pushes": n, ...}.
func (m Tally) MarshalJSON() ([]byte, error) {
	out := make(map[string]int, numMetrics)
	for i, name := range metricNames() {
		out[name] = m[i]
	}
	return json.Marshal(out)
}

// UnmarshalJSON reads a tally written by MarshalJSON, refusing an unknown
// or missing metric.
func (m *Tally) UnmarshalJSON(b []byte) error {
	var in map[string]int
	if err := json.Unmarshal(b, &in); err != nil {
		return fmt.Errorf("actiontest: metrics: %w", err)
	}
	names := metricNames()
	var t Tally
	for name, n := range in {
		i := slices.Index(names, name)
		if i < 0 {
			return fmt.Errorf("actiontest: metrics: unknown metric %.40q (allowed: %s)", name, named.Allowed(names))
		}
		t[i] = n
	}
	if len(in) != numMetrics {
		return fmt.Errorf("actiontest: metrics: %d of %d named; each of %s is needed", len(in), numMetrics, named.Allowed(names))
	}
	*m = t
	return nil
}

// Validate checks the scenario; errors name the offending field.
func (s Scenario) Validate() error {
	_, _, _, err := s.build()
	return err
}

// build checks the scenario and returns its character at the start, with
// the Director's ruled table, and the pursuit's test and flashback test.
func (s Scenario) build() (*game, Test, Test, error) {
	fail := func(format string, a ...any) (*game, Test, Test, error) {
		return nil, Test{}, Test{}, fmt.Errorf(format, a...)
	}
	st, err := NewState(s.Rules, s.Character)
	if err != nil {
		if errors.Is(err, ErrRules) {
			return fail("rules: %w", err)
		}
		return fail("character: %w", err)
	}
	st.Director = s.Director
	if st.Director == "" {
		st.Director = "table"
	}
	d, err := directorOf(s.Director, s.Directors)
	if err != nil {
		return fail("director: %w", err)
	}
	st.Director = d.Name()
	c := Engine{}.on(st)
	c.director = d
	if c.table, err = ruledTable(c.rules, d); err != nil {
		return fail("director: %w", err)
	}
	if s.State != nil {
		if err := s.startFrom(st); err != nil {
			return fail("state: %w", err)
		}
	}
	rl := c.rules
	act, attr, _, err := c.Rating(s.Action)
	if err != nil {
		return fail("action: %w", err)
	}
	bonus := 0
	if s.Pool != 0 {
		if s.Pool < 1 || s.Pool > maxDice/8 {
			return fail("pool %d: allowed 1..%d (0: Action + Attribute)", s.Pool, maxDice/8)
		}
		bonus = s.Pool - act - attr
	}
	if _, err := rl.PositionIndex(s.Position); err != nil {
		return fail("position: %w", err)
	}
	pos, fbPos := rl.position(s.Position), rl.position(s.Position)
	if s.FlashbackPosition != DefaultPosition {
		if _, err := rl.PositionIndex(s.FlashbackPosition); err != nil {
			return fail("flashback_position: %w", err)
		}
		fbPos = s.FlashbackPosition
	}
	switch {
	case len(s.Name) > 4*maxName:
		return fail("name of %d bytes: at most %d", len(s.Name), 4*maxName)
	case s.Difficulty < 1 || s.Difficulty > 20:
		return fail("difficulty %d: allowed 1..20", s.Difficulty)
	case s.Helpers < 0 || s.Helpers > 20:
		return fail("helpers %d: allowed 0..20", s.Helpers)
	case s.Equipment < 0 || s.Equipment > rl.MaxEquipment:
		return fail("equipment %d: allowed 0..%d", s.Equipment, rl.MaxEquipment)
	case s.Goal < 1 || s.Goal > 100:
		return fail("goal %d: allowed 1..100", s.Goal)
	case s.PerilHarm < 0 || s.PerilHarm > len(rl.HarmRows):
		return fail("peril_harm %d: allowed 0..%d", s.PerilHarm, len(rl.HarmRows))
	case s.MaxTests < 1 || s.MaxTests > 100000:
		return fail("max_tests %d: allowed 1..100000", s.MaxTests)
	case s.Opponent < 0 || s.Opponent > maxDice/8:
		return fail("opponent %d: allowed 0..%d (0: no opponent)", s.Opponent, maxDice/8)
	case s.FlashbackDifficulty < 0 || s.FlashbackDifficulty > 20:
		return fail("flashback_difficulty %d: allowed 0..20", s.FlashbackDifficulty)
	case s.PerilHarm != 0 && s.PerilHarm < rl.MinPerilHarm:
		return fail("peril_harm %d: allowed 0 (a price that is not harm) or %d..%d (min_peril_harm)", s.PerilHarm, rl.MinPerilHarm, len(rl.HarmRows))
	}
	if _, err := PolicyByName(s.Policy); err != nil {
		return fail("policy: %w", err)
	}
	if _, err := SpendOrderByName(s.Spend); err != nil {
		return fail("spend: %w", err)
	}
	t := Test{Action: s.Action, Position: pos, Difficulty: s.Difficulty, Helpers: s.Helpers,
		Equipment: s.Equipment, PerilOffered: s.PerilOffered, PerilHarm: s.PerilHarm, Escalate: s.Escalate,
		Bonus: bonus, Requires: s.Requires}
	if err := c.equipped(&t); err != nil {
		return fail("requires: %w", err)
	}
	fb := t
	fb.Flashback, fb.Position, fb.Difficulty = true, fbPos, s.FlashbackDifficulty
	fb.PerilOffered, fb.PerilHarm, fb.Escalate = false, 0, false
	if s.Opponent > 0 {
		t.Opposed, t.Opponent, t.NPC, t.Difficulty, t.Escalate = true, s.Opponent, !s.OpponentPC, 0, false
	}
	return c, t, fb, nil
}

// startFrom installs the play of the scenario's starting state on st, the
// scenario's character, and checks the result whole.
func (s *Scenario) startFrom(st *State) error {
	start := s.State
	if !reflect.ValueOf(start.Rules).IsZero() || !reflect.ValueOf(start.Sheet).IsZero() || start.Director != "" {
		return fmt.Errorf("a scenario's starting state plays by the scenario's rules, character and director: leave its rules, sheet and director empty")
	}
	st.copyPlay(start)
	return st.Check()
}

// policy returns the scenario's policy, spending as its Spend says.
func (s *Scenario) policy() (Policy, error) {
	p, err := PolicyByName(s.Policy)
	if err != nil {
		return nil, err
	}
	order, err := SpendOrderByName(s.Spend)
	if err != nil {
		return nil, err
	}
	if len(order.Order) == 0 {
		return p, nil
	}
	return Spending{Policy: p, Order: order}, nil
}

// wantsFlashback says whether the scenario calls a flashback now.
func (s *Scenario) wantsFlashback(st *State) bool {
	return s.Flashback && st.FlashbacksUsed < s.Rules.FlashbacksPerDay
}

// maxHarmCells bounds tracks x rows for the exact model's compact state.
const maxHarmCells = 16

// node is a state of the pursuit's Markov chain; pos is the index of its
// position in Rules.Positions. end is 0 while the pursuit goes on, else its
// category + 1; a node with end 0 and no
// transitions is a character who cannot act ("out").
type node struct {
	progress int8
	pos      int8
	bonus    int8
	hurt     bool
	end      int8
	flash    int8
	// retry says the next test is the Worse Position retry of the last,
	// pushed that the action was pushed already.
	retry, pushed bool
	harm          [maxHarmCells]int8
}

// Exact solves the pursuit as an absorbing Markov chain over (progress,
// position, carried dice, harm, hurt so far): each test's outcomes — first
// roll, the policy's peril and push choices, the re-roll — are enumerated
// exactly through the same engine steps a trial uses. It fails, wrapping
// markov.ErrNoExact, when the rules let a pursuit loop (so MaxTests would decide),
// when MaxTests could cut a pursuit short, or when the state space is too
// large.
func (s Scenario) Exact(ctx context.Context) (markov.Answer, error) {
	c, t, fb, err := s.build()
	if err != nil {
		return markov.Answer{}, err
	}
	rl := c.rules
	if err := s.exactBounds(rl, c.State); err != nil {
		return markov.Answer{}, err
	}
	nr := len(rl.HarmRows)
	p, _ := s.policy()
	fsub, _ := c.subjectOf(fb.Action)
	start := c.State.playClone()
	harm0 := harmCount(start)
	encode := func(st *State, n *node) {
		for i, h := range st.Harm {
			for j, k := range h.Rows {
				n.harm[i*nr+j] = int8(k)
			}
		}
		n.bonus = int8(st.Bonus)
		n.flash = int8(st.FlashbacksUsed)
	}
	sc, fc := c.scratch(), c.scratch()
	decode := func(n node) {
		sc.State.copyPlay(start)
		for i, h := range sc.State.Harm {
			for j := range h.Rows {
				h.Rows[j] = int(n.harm[i*nr+j])
			}
		}
		sc.State.Bonus = int(n.bonus)
		sc.State.FlashbacksUsed = int(n.flash)
		if n.retry {
			// What a retry reads of the roll before it.
			last := t
			last.Position = Position(rl.Positions[n.pos-1])
			sc.State.Attempt = Attempt{Test: last, Stage: Finished, Retry: true,
				NextPosition: Position(rl.Positions[n.pos]), ActionPushed: n.pushed}
		}
	}
	var root node
	root.pos = int8(rl.positionAt(t.Position))
	encode(start, &root)

	var failure error
	fail := func(err error) {
		if failure == nil {
			failure = err
		}
	}
	next := func(n node, buf []markov.Step[node]) []markov.Step[node] {
		if n.end != 0 {
			return buf
		}
		decode(n)
		tt := t
		tt.Position = Position(rl.Positions[n.pos])
		mark := len(buf)
		err := sc.outcomes(tt, n.retry, p, func(q float64, st *State, a *Attempt) {
			if err := sc.SpendWith(p); err != nil {
				fail(err)
			}
			held, out := harmTally(st)
			g := Pursuit{Progress: int(n.progress), Position: tt.Position, Hurt: n.hurt || held > harm0}
			cat, ended := s.after(out, a, &g, t.Position)
			pushed := a.Pushed || a.ActionPushed
			emit := func(q float64, st *State) {
				var m node
				switch {
				case ended:
					m.end = int8(cat + 1) // ended states merge by category
				case critical(st): // a flashback's critical injury
					m.end = int8(catOut + 1)
				default:
					encode(st, &m)
					m.progress, m.pos, m.hurt = int8(g.Progress), int8(rl.positionAt(g.Position)), g.Hurt || harmCount(st) > harm0
					m.retry, m.pushed = g.Retry, g.Retry && pushed
				}
				buf = append(buf, markov.Step[node]{To: m, P: q})
			}
			if ended || !g.Retry || !s.wantsFlashback(st) {
				emit(q, st)
				return
			}
			// The flashback after a worsening failure, if the policy calls
			// it, every way it can go.
			fc.State.copyPlay(st)
			fmark := len(buf)
			call, err := fc.callsFlashback(&fb, fsub, p)
			switch {
			case err == nil && !call:
				emit(q, st)
				return
			case err == nil:
				err = fc.outcomes(fb, false, p, func(fq float64, fst *State, _ *Attempt) { emit(q*fq, fst) })
			}
			switch {
			case errors.Is(err, ErrIncapacitated): // cannot call it: go on without
				emit(q, st)
			case err != nil:
				buf = buf[:fmark]
				fail(err)
			}
		})
		switch {
		case errors.Is(err, ErrIncapacitated):
			return buf[:mark] // cannot act: absorbing, "out", no test
		case err != nil:
			fail(err)
			return buf[:mark]
		}
		return buf
	}
	chain, err := markov.Explore(ctx, root, next)
	switch {
	case errors.Is(err, markov.ErrTooLarge):
		return markov.Answer{}, fmt.Errorf("%w: %w", markov.ErrNoExact, err)
	case err != nil:
		return markov.Answer{}, err
	}
	if failure != nil {
		return markov.Answer{}, failure
	}
	end, err := walk(ctx, root, next)
	if err != nil {
		return markov.Answer{}, err
	}
	if end.depth > s.MaxTests {
		return markov.Answer{}, fmt.Errorf("%w: a pursuit can take %d tests, more than max_tests %d", markov.ErrNoExact, end.depth, s.MaxTests)
	}
	ex := markov.Answer{P: end.p[:], MeanRounds: end.mean}
	ex.Rounds, _, err = chain.StepDist(end.depth+1, 1e-300)
	if err != nil {
		return markov.Answer{}, fmt.Errorf("%w: %v", markov.ErrNoExact, err)
	}
	return ex, nil
}

// exactBounds says whether the pursuit from st under rl fits the exact
// models' compact states (Exact's chain, Optimal's process), wrapping
// markov.ErrNoExact when it does not.
func (s *Scenario) exactBounds(rl *Rules, st *State) error {
	switch {
	case len(rl.HarmTracks)*len(rl.HarmRows) > maxHarmCells:
		return fmt.Errorf("%w: %d harm cells, the exact model holds %d", markov.ErrNoExact, len(rl.HarmTracks)*len(rl.HarmRows), maxHarmCells)
	case s.Goal > 100 || len(rl.Positions) > 100 || st.Bonus > 100 || rl.FlashbacksPerDay > 100:
		return fmt.Errorf("%w: goal, positions or carried bonus above 100", markov.ErrNoExact)
	case critical(st):
		return fmt.Errorf("%w: the character starts with a critical injury", markov.ErrNoExact)
	}
	for _, row := range rl.HarmRows {
		if row.Slots > 100 {
			return fmt.Errorf("%w: harm rows above 100 slots", markov.ErrNoExact)
		}
	}
	return nil
}

// ending is where a pursuit goes from one state of the chain: the chance
// of ending in each category, the tests it takes on average, and the most
// it can take.
type ending struct {
	p     [numCategories]float64
	mean  float64
	depth int
}

// numCategories counts the categories.
const numCategories = int(catStalled) + 1

// walk solves the pursuit's chain from root by a depth-first walk: a
// pursuit that cannot return to a state it left is a chain without
// cycles, whose chances and means add up from its ends back to root, in
// the transitions' order (so every call gives the same bits). A state the
// walk meets again before leaving it is a cycle: only max_tests would end
// such a pursuit, and the error wraps markov.ErrNoExact. The walk stops
// with ctx's error when ctx is done.
func walk(ctx context.Context, root node, next func(node, []markov.Step[node]) []markov.Step[node]) (*ending, error) {
	memo, open := map[node]*ending{}, map[node]bool{}
	var visit func(n node) (*ending, error)
	visit = func(n node) (*ending, error) {
		if r, ok := memo[n]; ok {
			return r, nil
		}
		if open[n] {
			return nil, fmt.Errorf("%w: the rules let a pursuit return to an earlier state, so only max_tests ends it", markov.ErrNoExact)
		}
		if len(memo)%64 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		open[n] = true
		steps := next(n, nil)
		r := &ending{}
		if len(steps) == 0 { // an end, or a character who cannot act: out
			cat := catOut
			if n.end != 0 {
				cat = Category(n.end - 1)
			}
			r.p[cat] = 1
		}
		for _, st := range steps {
			to, err := visit(st.To)
			if err != nil {
				return nil, err
			}
			for i, q := range to.p {
				r.p[i] += st.P * q
			}
			r.mean += st.P * (1 + to.mean)
			r.depth = max(r.depth, 1+to.depth)
		}
		delete(open, n)
		memo[n] = r
		return r, nil
	}
	return visit(root)
}
