package actiontest

import "github.com/stakesrpg/stakes/named"

// Test is what the table decides before an action test is rolled.
type Test struct {
	// Action is the name of the Action used, or of an Attribute to roll it
	// alone: "you simply roll the number of dice indicated by the relevant
	// Attribute" when no Action covers what is attempted [text].
	Action string `json:"action"`
	// Position is set by the Director: the name of one of
	// Rules.Positions, "" meaning the rules' default (Risky).
	Position Position `json:"position"`
	// Difficulty is the successes required: normal 1, challenging 2,
	// difficult 3; any n >= 1 is allowed. A flashback allows 0 (an
	// ordinary action with easy opportunity; see Rules.ZeroFlashbackRolls)
	// and 3 or more for an elaborate one.
	Difficulty int `json:"difficulty"`
	// Helpers is how many characters help (+HelpDice each, at most MaxHelp).
	Helpers int `json:"helpers,omitempty"`
	// Equipment is the equipment bonus, 0..MaxEquipment.
	Equipment int `json:"equipment,omitempty"`
	// Bonus is any other dice (a talent, say; negative for penalties).
	Bonus int `json:"bonus,omitempty"`
	// Peril accepts a Risk Peril deal: +PerilDice, the cost paid whatever
	// happens, and the roll may not be pushed. PerilOffered lets Play ask
	// the policy instead; PerilHarm is the deal's harm level (0: a cost that
	// is not harm).
	Peril        bool `json:"peril,omitempty"`
	PerilOffered bool `json:"peril_offered,omitempty"`
	PerilHarm    int  `json:"peril_harm,omitempty"`
	// NoHarm says the test risks no harm: the table's harm is not taken.
	NoHarm bool `json:"no_harm,omitempty"`
	// HarmTrack is the track the table's harm lands on; "" means the
	// Attribute's natural track.
	HarmTrack string `json:"harm_track,omitempty"`
	// Escalate says the Director answers a failure with Worse Position: the
	// character re-rolls at the next worse position instead of suffering the
	// failure's consequences (not at the worst position). The re-roll
	// belongs to the same action (see Engine.Retry).
	Escalate bool `json:"escalate,omitempty"`
	// Flashback marks a flashback test (see Engine.Begin).
	Flashback bool `json:"flashback,omitempty"`
	// Opposed marks an opposed roll ("Opposed Rolls"): it has no
	// difficulty (0) and reads Rules.Opposed rather than the position's
	// row of the outcome table. With Opponent 0 it is finished against
	// successes rolled elsewhere (Engine.FinishOpposed); with Opponent
	// dice, the engine rolls the opponent's pool beside the character's
	// (Attempt.Opponent) and Finish reads one against the other. NPC says
	// the opponent is an NPC (a tie then reads Rules.Opposed.TieNPC).
	Opposed  bool `json:"opposed,omitempty"`
	Opponent int  `json:"opponent,omitempty"`
	NPC      bool `json:"npc,omitempty"`
	// Requires names the equipment the action needs ("specific equipment
	// may be required to perform an Action"): a test is refused unless
	// the sheet carries it (Sheet.Equipment) [text].
	Requires string `json:"requires,omitempty"`
}

// At returns the test at position p: as the re-roll after a Worse
// Position consequence, t.At(c.State.Attempt.NextPosition) (see
// Rules.Worse).
func (t Test) At(p Position) Test {
	t.Position = p
	return t
}

// Pool is how the dice of a test were counted: every term, and the total.
type Pool struct {
	Action    int `json:"action"`
	Attribute int `json:"attribute"`
	Help      int `json:"help"`
	Equipment int `json:"equipment"`
	Peril     int `json:"peril"`
	Carried   int `json:"carried"`
	Bonus     int `json:"bonus"`
	Penalty   int `json:"penalty"`
	// Dice is the sum, but never fewer than MinDice.
	Dice int `json:"dice"`
}

// Stage is how far an Attempt has come; its JSON form is "", "rolled" or
// "finished".
type Stage uint8

// Stages of an Attempt.
const (
	NotBegun Stage = iota
	Rolled
	Finished
)

var stageNames = named.Enum[Stage]{"", "rolled", "finished"}

// String returns the stage's name.
func (s Stage) String() string { return stageNames.String(s) }

// MarshalText writes the stage's name.
func (s Stage) MarshalText() ([]byte, error) { return stageNames.Marshal(s) }

// UnmarshalText reads a stage name.
func (s *Stage) UnmarshalText(b []byte) error { return stageNames.Unmarshal(b, s) }

// Attempt is one roll in progress and, once finished, its result: the
// State holds the action's (State.Attempt) and a flashback's
// (State.Flashback). It saves and restores as JSON with the State, which
// checks it whole. Its fields are a record the steps write, not inputs;
// the next roll reuses its dice buffers.
type Attempt struct {
	Test  Test  `json:"test"`
	Stage Stage `json:"stage"`
	// Pool is how many dice were rolled and why.
	Pool Pool `json:"pool"`
	// Dice are the faces first rolled.
	Dice []int `json:"dice,omitempty"`
	// Pushed says the roll was pushed: the Kept successes of Dice stayed,
	// every other die was re-rolled with PushDice more dice into Rerolled,
	// and a harm was paid on PushTrack.
	Pushed    bool   `json:"pushed,omitempty"`
	PushTrack string `json:"push_track,omitempty"`
	Kept      int    `json:"kept,omitempty"`
	Rerolled  []int  `json:"rerolled,omitempty"`
	// MustPush says the character may act only by pushing (Severe harm and
	// no help).
	MustPush bool `json:"must_push,omitempty"`
	// ActionPushed says an earlier roll of the same action, before a Worse
	// Position retry, was pushed: a push is once per action ("Pushing the
	// Roll"; see Rules.RetryMayPush).
	ActionPushed bool `json:"action_pushed,omitempty"`
	// Successes counts successes kept from Dice plus those in Rerolled.
	Successes int `json:"successes"`
	// Opponent is the successes of the opponent's roll, for an opposed
	// test whose opponent the engine rolls (Test.Opponent).
	Opponent int `json:"opponent,omitempty"`

	// Result, filled by Finish.
	Required int     `json:"required"`
	Extra    int     `json:"extra"`
	Band     Band    `json:"band"`
	Outcome  Outcome `json:"outcome"`
	// Retry says the Director chose Worse Position: re-roll at
	// NextPosition.
	Retry        bool     `json:"retry,omitempty"`
	NextPosition Position `json:"next_position,omitempty"`
	// HarmTaken says the table's harm was taken: HarmRow names the row of
	// Rules.HarmRows it filled, or HarmCritical says it overflowed the
	// track into a critical injury.
	HarmTaken    bool   `json:"harm_taken,omitempty"`
	HarmRow      string `json:"harm_row,omitempty"`
	HarmCritical bool   `json:"harm_critical,omitempty"`
	// Spent is the extra successes spent on effects, Bought the effects
	// (see Engine.Spend).
	Spent  int      `json:"spent,omitempty"`
	Bought []Bought `json:"bought,omitempty"`
}
