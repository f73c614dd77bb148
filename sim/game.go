package sim

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"

	"github.com/stakesrpg/stakes/dice"
)

// Game is one game of any mechanic in progress: the contract through which
// code that knows no rule package (the conformance kit, the command line's
// sample games, a bot framework, a game server) starts, steps, saves,
// restores, narrates and scores a game. A mechanic's Scenario makes games
// with Start and Restore; every rule package's game satisfies Game without
// an adapter.
//
// A Game is used by one goroutine at a time. Its randomness comes only from
// the Roller handed to Step, so a game saved with Save, together with the
// Roller's MarshalBinary bytes, plays on identically once restored.
type Game interface {
	// Step plays the game's next step, the scenario's policies answering
	// every question it asks (or the Chooser set with Intercept, given each
	// of their answers first). A step validates everything, then applies: a
	// refused step returns an error, changes neither the game nor r, and
	// is heard by no listener. Step on a finished game is an error, as is
	// a nil r. Under the scenario's policies, with no listener, a step
	// allocates nothing once the game's buffers have grown to its size
	// (the first steps of a fresh game may still size them).
	Step(r *dice.Roller) error
	// Done reports whether the game has ended.
	Done() bool
	// Outcome reports how a finished game ended, as sim counts a trial: the
	// index of its category in the scenario's Categories, and its metrics
	// written into metrics (one slot per name of the scenario's Metrics;
	// a shorter slice gets the first ones). Outcome of a game still going
	// is an error.
	Outcome(metrics []int) (category int, err error)
	// Save returns the whole game as JSON: the scenario it plays (rules and
	// policies by name) and its state. The scenario's Restore reads it
	// back; saving the restored game gives the same bytes.
	Save() ([]byte, error)
	// Listen sets the function that hears every event the game's steps
	// produce from now on; nil hears none (and no event is built).
	Listen(sink func(Event))
	// Intercept sets a Chooser that sees every answer a policy gives
	// during a step and returns the answer the step uses; nil leaves the
	// scenario's policies alone.
	Intercept(c Chooser)
}

// Event is what a game's steps report: a value of the rule package's own
// event type (JSON-tagged, round-tripping through encoding/json) whose
// String narrates it as one sentence a player understands.
type Event interface {
	String() string
}

// Chooser stands between a game's policies and its steps: it is handed
// each answer a policy gives, together with the view the policy was asked
// from (the package's own view type, read-only), and returns the answer the
// step takes in its place, of the same type. It lets a bot put a question
// to a person, a test script a game, and the conformance kit answer
// illegally. An answer of another type than the policy's is refused by the
// step as an illegal answer. The view and the answer a Chooser is handed
// may be the game's own, good only during the call (so that handing them
// over allocates nothing): a Chooser that keeps one keeps a copy. Each rule
// package's doc lists its questions and the type of each answer.
type Chooser func(view, answer any) any

// Starter is the part of a Scenario that makes games: Start begins a game
// at the scenario's start (it may roll with r: a shuffle, a deal), and
// Restore reads a game that Game.Save wrote, checks it whole (a saved game
// that no step could have reached is refused with the reason) and returns
// it ready to play on. Restore never panics and bounds its work by the size
// of what it reads.
type Starter interface {
	Start(r *dice.Roller) (Game, error)
	Restore(saved []byte) (Game, error)
}

// Description is what a mechanic says about itself, so that every face
// (the command line, the web page, a bot's help text) shows it without a
// list of its own: the mechanic in a line, the scenario as it is set now,
// and what each outcome and metric means.
type Description struct {
	// Summary is the mechanic in one line, with the game it comes from.
	Summary string `json:"summary"`
	// Title is the scenario as it is set now, in one line: the sides, their
	// pools or dice and policies, so a title changes with the settings.
	Title string `json:"title"`
	// Terms say what each outcome category and metric means.
	Terms []Term `json:"terms"`
	// Docs holds the doc comment of each field of the scenario's types,
	// keyed by import path, type and field
	// ("github.com/stakesrpg/stakes/edge.Rules.StartEdge"): the faces walk
	// the scenario and explain each setting with its field's doc. The
	// command github.com/stakesrpg/stakes/cmd/settingsdoc generates the
	// map from a package's source (run it with go generate).
	Docs map[string]string `json:"-"`
	// Inert names, by key, the settings that cannot change any number of
	// the scenario as it is set now (a study without a fight has no use for
	// its margin table): the faces say so beside every result, so that a
	// sweep over one is not read as the setting's effect.
	Inert []string `json:"inert,omitempty"`
}

// Term says what one outcome or metric means. Names often carry a party's
// or side's name from the scenario ("lead_car_wins"), so a Key may begin
// with "*", matching any name that ends in the rest ("*_wins"); in Text,
// "*" stands for the name's start read as words ("lead car").
type Term struct {
	Key  string `json:"key"`
	Text string `json:"text"`
}

// Describer is a scenario that describes itself.
type Describer interface {
	Describe() Description
}

// Table is a titled table of exact figures a mechanic offers beside its
// exact answer: one exchange's odds each way, a card's chance to be in an
// opening hand, a pool's totals against a number. Each cell of a row is a
// string, an int or a float64 (a probability or a mean); Rows line up with
// Columns.
type Table struct {
	Title   string   `json:"title"`
	Columns []string `json:"columns"`
	Rows    [][]any  `json:"rows"`
}

// Tabler is a scenario that answers questions of its own with exact
// tables ("stakes odds NAME ARGS..."). args are the words a designer typed
// after the mechanic's name, none for the scenario's own tables; words it
// cannot read are an error wrapping ErrInvalid that says what it takes.
// Tables stops with ctx's error when ctx ends, and bounds its work before
// it allocates.
type Tabler interface {
	Tables(ctx context.Context, args []string) ([]Table, error)
}

// Builtins is a scenario that offers named built-in variants of itself (a
// task, a scene, an adventure beside the default encounter). Builtin
// returns a fresh value of the scenario's own type; the faces run one as
// "MECHANIC/NAME" ("stakes sim dramadeck/adventure").
type Builtins interface {
	BuiltinNames() []string
	Builtin(name string) (any, bool)
}

// DecodeStrict decodes one JSON value from data into v the way every
// mechanic's Restore reads a save: a field that v's type lacks is an
// error, and so is anything after the value. The caller bounds the size
// of data first, and checks what it read whole after.
func DecodeStrict(data []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(data))
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		return err
	}
	if _, err := d.Token(); !errors.Is(err, io.EOF) {
		return errors.New("data after the JSON value")
	}
	return nil
}
