package challenge

import (
	"context"
	"fmt"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim/markov"
)

// ScenarioSide is one side of a simulated conflict: its characters (a
// character and any helpers), whom it acts against, and its policies by
// registry name.
type ScenarioSide struct {
	Name    string     `json:"name"`
	Members []Entry    `json:"members"`
	Target  string     `json:"target,omitempty"`
	Play    StyleNames `json:"play"`
}

// Scenario is everything a designer sets for one simulated conflict: the
// rules, the sides, their policies and the owe list as it stands.
type Scenario struct {
	Rules Rules          `json:"rules"`
	Sides []ScenarioSide `json:"sides"`
	Owe   []Debt         `json:"owe,omitempty"`
}

// DefaultScenario is the text's own match-up: Althesa, a warrior-priestess
// rolling Art d10 d8, against Irin defending himself with Guts d12 d6, both
// hanging in whenever they may. Same total sides, different shapes: the
// balance question is what the shape is worth.
func DefaultScenario() Scenario {
	a := Standard("Althesa", MustStat(dice.D10, dice.D8), MustStat(dice.D6, dice.D6), MustStat(dice.D12, dice.D4),
		[5]string{Art, Grace, Guts, Guts, Art})
	a.Endeavors["warrior_priestessing"] = Art
	i := Standard("Irin", MustStat(dice.D8, dice.D6), MustStat(dice.D10, dice.D4), MustStat(dice.D12, dice.D6),
		[5]string{Art, Guts, Grace, Grace, Art})
	return Scenario{
		Rules: DefaultRules(),
		Sides: []ScenarioSide{
			{Name: "althesa", Members: []Entry{{Character: a, Endeavor: "warrior_priestessing"}}, Target: "irin"},
			{Name: "irin", Members: []Entry{{Character: i, Endeavor: Defending}}, Target: "althesa"},
		},
	}
}

// OweScenario is DefaultScenario with both names on the owe list, as
// earlier conflicts left them: Althesa crosses hers off at the first
// comparison she can, Irin his when one advantage die could change the
// comparison (cross_off "eager" and "when_close"). Exact and Optimal
// follow the cross-offs.
func OweScenario() Scenario {
	s := DefaultScenario()
	s.Owe = []Debt{{Name: "Althesa", Player: "Althesa"}, {Name: "Irin", Player: "Irin"}}
	s.Sides[0].Play.CrossOff, s.Sides[1].Play.CrossOff = "eager", "when_close"
	return s
}

// build validates the scenario and returns its starting conflict and
// policies.
func (s Scenario) build() (*State, []Policy, error) {
	if err := s.Rules.Validate(); err != nil {
		return nil, nil, fmt.Errorf("scenario: rules: %w", err)
	}
	if len(s.Sides) < 2 || len(s.Sides) > MaxSides {
		return nil, nil, fmt.Errorf("scenario: sides: %d sides: allowed 2..%d", len(s.Sides), MaxSides)
	}
	parties := make([]Party, len(s.Sides))
	policies := make([]Policy, len(s.Sides))
	for i, sd := range s.Sides {
		p, err := sd.Play.Style()
		if err != nil {
			return nil, nil, fmt.Errorf("scenario: sides[%d].play: %w", i, err)
		}
		policies[i] = &p
		parties[i] = Party{Name: sd.Name, Members: sd.Members, Target: sd.Target}
	}
	for i, d := range s.Owe {
		if d.Name == "" || d.Player == "" {
			return nil, nil, fmt.Errorf("scenario: owe[%d]: an entry needs a name and a player", i)
		}
	}
	c, err := NewState(s.Rules, parties, s.Owe)
	if err != nil {
		return nil, nil, fmt.Errorf("scenario: sides: %w", err)
	}
	if err := checkWork(c); err != nil {
		return nil, nil, err
	}
	return c, policies, nil
}

// maxTrialDice bounds the dice one conflict may roll before it must end
// (Scenario.Validate): some tenths of a second of play, so that a
// simulation stops soon after it is asked to, whatever the scenario.
const maxTrialDice = 1 << 23

// checkWork refuses a conflict that may roll more than maxTrialDice dice
// before it must end. Every round has an answer or a side dropping out, so
// a conflict has at most Rules.MaxExchanges + sides rounds, each of up to
// Rules.MaxRecasts + 1 casts in which every side rolls its dice and its
// advantage dice; then up to MaxExchanges answers of one side's, and a die
// for each name crossed off (those on the list, and each side's
// characters going on it once against each other side).
func checkWork(c *State) error {
	r := &c.Rules
	cast, answer, names := 0, 0, len(c.Owe)
	for i := range c.Sides {
		d := len(c.Sides[i].Dice) + r.AdvantageDice
		cast += d
		answer = max(answer, d)
		names += len(c.Sides[i].Members) * (len(c.Sides) - 1)
	}
	// Rules.Validate keeps casts within maxTrialRolls, so none of this
	// wraps.
	casts := (r.MaxExchanges + len(c.Sides)) * (r.MaxRecasts + 1)
	if n := casts*cast + r.MaxExchanges*answer + names; n > maxTrialDice {
		return fmt.Errorf("scenario: a conflict may roll %d dice before it must end (%d casts of %d dice, %d answers of up to %d): allowed at most %d; lower rules.max_exchanges or rules.max_recasts, or roll fewer dice",
			n, casts, cast, r.MaxExchanges, answer, maxTrialDice)
	}
	return nil
}

// Validate reports the first problem, naming the offending field.
func (s Scenario) Validate() error {
	_, _, err := s.build()
	return err
}

// Categories returns the outcome names: for each side, "<side>_outright"
// (it won by doubling, or a settlement in its place) and "<side>_given"
// (the last opponent gave); with more than two sides also "<side>_by_drop"
// (the last opponent dropped out); then "stalemate" (Rules.MaxExchanges
// ran out).
func (s Scenario) Categories() []string {
	var out []string
	for _, sd := range s.Sides {
		out = append(out, sd.Name+"_outright", sd.Name+"_given")
		if len(s.Sides) > 2 {
			out = append(out, sd.Name+"_by_drop")
		}
	}
	return append(out, "stalemate")
}

// Metrics returns the per-trial measures: rounds, exchanges (answers
// rolled), die sizes lost by the losers, owe-list names crossed off, and
// names put on it.
func (s Scenario) Metrics() []string {
	return []string{"rounds", "exchanges", "sizes_lost", "cross_offs", "owed"}
}

// Runner plays one scenario's conflict over and over without allocating.
// One Runner per goroutine.
type Runner struct {
	start *State
	c     State
	eng   Engine
	per   int // categories per side
}

// NewRunner validates the scenario and preallocates a Runner.
func (s Scenario) NewRunner() (*Runner, error) {
	start, policies, err := s.build()
	if err != nil {
		return nil, err
	}
	rn := &Runner{start: start, eng: Engine{Policies: policies}, per: perSide(len(s.Sides))}
	rn.c = *start
	rn.c.Sides = make([]Side, len(start.Sides))
	for i := range start.Sides {
		rn.c.Sides[i] = start.Sides[i]
		rn.c.Sides[i].Members = append([]Member(nil), start.Sides[i].Members...)
		rn.c.Sides[i].Faces = make([]int, 0, len(start.Sides[i].Dice))
	}
	rn.c.Owe = make([]Debt, 0, len(start.Owe)+64)
	rn.c.Consequences = make([]Consequence, 0, MaxSides)
	return rn, nil
}

// perSide is how many outcome categories each side has (Categories).
func perSide(sides int) int {
	if sides > 2 {
		return 3
	}
	return 2
}

// reset restores what play changes to the starting state, reusing the
// working conflict's buffers; the rules and the sides' make-up stay as
// they are. (TestRunnerTrialsAreFresh holds every trial to a conflict
// built afresh, and TestRunnerResetKnowsEveryField has a field added to
// State, Side or Member placed here or among those play leaves alone.)
func (rn *Runner) reset() {
	c, s := &rn.c, rn.start
	c.Owe, c.Consequences = append(c.Owe[:0], s.Owe...), c.Consequences[:0]
	c.Phase, c.Round, c.Exchanges, c.Recasts = s.Phase, s.Round, s.Exchanges, s.Recasts
	c.Challenger, c.Answerer, c.Met, c.First = s.Challenger, s.Answerer, s.Met, s.First
	c.CrossOffs, c.Owed, c.SizesLost = s.CrossOffs, s.Owed, s.SizesLost
	c.Winner, c.Stalemate = s.Winner, s.Stalemate
	for i := range c.Sides {
		d, o := &c.Sides[i], &s.Sides[i]
		// Of a member, play changes only the stats.
		for m := range d.Members {
			d.Members[m].Stats = o.Members[m].Stats
		}
		d.Status, d.Faces, d.Bonus, d.Speaker = o.Status, append(d.Faces[:0], o.Faces...), o.Bonus, o.Speaker
		d.Advantage, d.Next, d.Turned, d.Crossed, d.Asked = o.Advantage, o.Next, o.Turned, o.Crossed, o.Asked
	}
}

// Trial plays one whole conflict from the scenario's start and returns
// its category; metrics (if long enough) gets each metric's value. A
// trial stopped by an error (a policy's illegal answer, a nil Roller)
// returns it, and no category.
func (rn *Runner) Trial(r *dice.Roller, metrics []int) (int, error) {
	if r == nil {
		return -1, nilRoller("Trial")
	}
	rn.reset()
	if err := rn.eng.Play(&rn.c, r); err != nil {
		return -1, err
	}
	return outcome(&rn.c, rn.per, metrics), nil
}

// outcome is the category of a finished conflict (Categories' order,
// per categories to a side), with metrics written into metrics.
func outcome(c *State, per int, metrics []int) int {
	cat := per * len(c.Sides) // stalemate
	if c.Winner >= 0 && len(c.Consequences) > 0 {
		cat = c.Winner * per
		switch c.Consequences[len(c.Consequences)-1].Status {
		case StatusGave:
			cat++
		case StatusDropped:
			cat += 2
		}
	}
	if len(metrics) >= 5 {
		metrics = metrics[:5]
		metrics[0], metrics[1], metrics[2], metrics[3], metrics[4] = c.Round, c.Exchanges, c.SizesLost, c.CrossOffs, c.Owed
		return cat
	}
	vals := [...]int{c.Round, c.Exchanges, c.SizesLost, c.CrossOffs, c.Owed}
	copy(metrics, vals[:])
	return cat
}

// Exact solves a two-sided scenario exactly (at most 8 dice a side): by
// Duel's chain over rounds when neither side would cross a name off (none
// of its players' names on the list, nor its own going on it after the
// first exchange, or its cross-off policy "never"), and otherwise by the
// model with cross-offs, each side's policy asked at every comparison (see
// the package doc; its Answer has no mean exchanges). A scenario of three
// sides in which nobody crosses a name off is solved by the model of
// three sides, every side playing its policies (no mean exchanges
// either). Other scenarios return an error wrapping markov.ErrNoExact
// that says why.
func (s Scenario) Exact(ctx context.Context) (markov.Answer, error) {
	c, policies, err := s.build()
	if err != nil {
		return markov.Answer{}, err
	}
	if err := exactSides(len(c.Sides)); err != nil {
		return markov.Answer{}, err
	}
	if len(c.Sides) == 3 {
		m, err := s.newThreeModel(ctx, c, policies, -1)
		if err != nil {
			return markov.Answer{}, err
		}
		return m.answer(ctx)
	}
	for i := range 2 {
		if s.crossing(c, i, false) != "" {
			return s.crossExact(ctx, c, policies, s.nevers())
		}
	}
	hang := stances(c, policies)
	d, err := duelOdds(ctx, s.Rules, c.Sides[0].Dice, c.Sides[1].Dice, hang[0], hang[1])
	if err != nil {
		return markov.Answer{}, err
	}
	return duelAnswer(d), nil
}

// duelAnswer reads Duel's odds as a two-sided scenario's Answer, its
// categories in Categories' order.
func duelAnswer(d DuelOdds) markov.Answer {
	return markov.Answer{
		P:          []float64{d.P[AOutright], d.P[AGiven], d.P[BOutright], d.P[BGiven], 0},
		MeanRounds: d.MeanRounds,
		Rounds:     d.Rounds,
		Tail:       d.Tail,
		Means:      map[string]float64{"exchanges": d.MeanExchanges},
	}
}

// SetPolicy has side i play p in the Runner's trials instead of the
// scenario's policy for it (an Optimal's Policy, say). A nil p plays the
// defaults.
func (rn *Runner) SetPolicy(i int, p Policy) error {
	if i < 0 || i >= len(rn.eng.Policies) {
		return fmt.Errorf("challenge: SetPolicy: side %d: the scenario has sides 0..%d", i, len(rn.eng.Policies)-1)
	}
	rn.eng.Policies[i] = p
	return nil
}
