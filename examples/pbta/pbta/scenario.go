package pbta

//go:generate go run github.com/stakesrpg/stakes/cmd/settingsdoc

import (
	"fmt"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/sim"
)

// Scenario is one fight as data: the rules, the character, the threat and
// the policies of both roles by name. It encodes to JSON as is.
type Scenario struct {
	// Rules are the numbers of the fight: the roll, its bands, the harm
	// clock and the harm moves.
	Rules Rules `json:"rules"`
	// PC is the player character: stats, weapon harm and armor.
	PC Character `json:"pc"`
	// Threat is the GM's fighter: harm, armor and the harm that takes it
	// out.
	Threat Threat `json:"threat"`
	// Player names the player's policy: aggressive, careful or adaptive.
	Player string `json:"player"`
	// GM names the GM's policy: ruthless, merciful or tactical.
	GM string `json:"gm"`
}

// DefaultScenario is the built-in fight: Rook (hard +1, cool +2, 2-harm
// knife, 1-armor jacket, adaptive) against a raider (4-harm, no armor, out
// at 5 harm) run by a ruthless GM, under DefaultRules.
func DefaultScenario() Scenario {
	return Scenario{
		Rules:  DefaultRules(),
		PC:     Character{Name: "Rook", Hard: 1, Cool: 2, Harm: 2, Armor: 1},
		Threat: Threat{Name: "the raider", Harm: 4, Armor: 0, Capacity: 5},
		Player: "adaptive",
		GM:     "ruthless",
	}
}

// Outcome categories, in the order of Categories.
const (
	Victory = iota
	Defeat
	BothDown
	Standoff
)

var categories = []string{"victory", "defeat", "both_down", "standoff"}

var metrics = []string{"exchanges", "pc_harm", "threat_harm", "misses"}

// Categories names how a fight ends: victory (the threat is out, the
// character standing), defeat (the character is out, the threat
// standing), both_down (both out in one exchange, trading blows) and
// standoff (both standing when the fight breaks off).
func (Scenario) Categories() []string { return categories }

// Metrics names what each fight counts: exchanges, the character's and the
// threat's harm at the end, and misses.
func (Scenario) Metrics() []string { return metrics }

// Validate reports whether the scenario can be played.
func (sc Scenario) Validate() error {
	_, err := sc.table()
	if err == nil {
		err = firstErr(sc.Rules.Validate(), sc.PC.Validate(), sc.Threat.Validate())
	}
	return err
}

func (sc Scenario) table() (Table, error) {
	p, err := PolicyByName(sc.Player)
	if err != nil {
		return Table{}, fmt.Errorf("%w: player: %v", ErrInvalid, err)
	}
	g, err := GMPolicyByName(sc.GM)
	if err != nil {
		return Table{}, fmt.Errorf("%w: gm: %v", ErrInvalid, err)
	}
	return Table{Player: p, GM: g}, nil
}

// NewEngine returns an engine for the scenario's fight under its
// policies.
func (sc Scenario) NewEngine() (*Engine, error) {
	t, err := sc.table()
	if err != nil {
		return nil, err
	}
	return NewEngine(sc.Rules, sc.PC, sc.Threat, t)
}

// Outcome is how a finished fight ended, by its category's index, and its
// metrics written into m (a shorter m gets the first ones).
func (s *State) Outcome(m []int) (int, error) {
	if !s.Done() {
		return 0, fmt.Errorf("%w: the fight is still going", ErrIllegal)
	}
	vals := [...]int{s.Exchanges, s.PCHarm, s.ThreatHarm, s.Misses}
	copy(m, vals[:])
	switch {
	case s.PCOut() && s.ThreatOut():
		return BothDown, nil
	case s.ThreatOut():
		return Victory, nil
	case s.PCOut():
		return Defeat, nil
	}
	return Standoff, nil
}

// Runner plays whole fights of one scenario, allocating nothing.
type Runner struct {
	e     *Engine
	start State
	s     State
}

// NewRunner returns a runner of the scenario's fights.
func (sc Scenario) NewRunner() (*Runner, error) {
	e, err := sc.NewEngine()
	if err != nil {
		return nil, err
	}
	return &Runner{e: e, start: *e.NewState()}, nil
}

// Trial plays one fight from the start and returns its category, its
// metrics written into m, or the error that stopped it.
func (rn *Runner) Trial(r *dice.Roller, m []int) (int, error) {
	rn.s = rn.start
	if err := rn.e.Play(&rn.s, r); err != nil {
		return 0, err
	}
	return rn.s.Outcome(m)
}

// Describe says what the mechanic, the scenario as set and each outcome
// and metric mean.
func (sc Scenario) Describe() sim.Description {
	return sim.Description{
		Summary: "a Powered by the Apocalypse fight: 2d6 + stat, 10+ a hit, 7-9 a hit at a cost, 6- the GM's hard move (Apocalypse World, by Vincent and Meguey Baker)",
		Title:   sc.title(),
		Terms: []sim.Term{
			{Key: "victory", Text: "the threat took its capacity of harm while the character stood"},
			{Key: "defeat", Text: "the character's harm clock filled while the threat stood"},
			{Key: "both_down", Text: "both went down in the same exchange, trading blows"},
			{Key: "standoff", Text: "both were still standing when the fight broke off at the most exchanges"},
			{Key: "exchanges", Text: "moves rolled, one an exchange"},
			{Key: "pc_harm", Text: "segments of the character's harm clock marked at the end"},
			{Key: "threat_harm", Text: "harm the threat had taken at the end"},
			{Key: "misses", Text: "moves that missed (6-), each answered by a hard move of the GM"},
		},
		Docs: fieldDocs,
	}
}

func (sc Scenario) title() string {
	rl, pc, th := sc.Rules, sc.PC, sc.Threat
	return fmt.Sprintf("%s (hard %+d, cool %+d, %d-harm, %d-armor, %s) vs %s (%d-harm, %d-armor, out at %d; GM %s); %dd%d, %d+ full, %d+ partial, harm clock %d, at most %d exchanges",
		pc.Name, pc.Hard, pc.Cool, pc.Harm, pc.Armor, sc.Player, th.Name, th.Harm, th.Armor, th.Capacity, sc.GM,
		rl.Dice, rl.Sides, rl.FullAt, rl.PartialAt, rl.Track, rl.MaxExchanges)
}
