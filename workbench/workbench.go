// Package workbench is the designer's face of stakes: the balance report,
// exact odds, Monte Carlo studies, comparisons, sweeps, optimal play,
// shards and the settings listing, over any mechanic handed to it. The
// stakes command is a main that names our five mechanics; a main in
// another module names its own beside them and gets every command:
//
//	func main() {
//		workbench.Main(
//			workbench.Of[*edge.Runner]("edge", edge.DefaultScenario),
//			workbench.Of[*pbta.Runner]("pbta", pbta.DefaultScenario),
//		)
//	}
//
// Everything the commands say about a mechanic (its summary, the scenario
// in a line, what each outcome, metric and setting means) comes from the
// mechanic's own Describe, so the workbench holds no list of mechanics.
//
// Run with no arguments the command line prints a balance report over
// every mechanic from its built-in scenario. Commands:
//
//	stakes roll NOTATION          roll dice and show every die
//	stakes odds MECHANIC [flags]  exact answers
//	stakes solve MECHANIC [flags] best and worst play: how much decisions matter
//	stakes sim MECHANIC [flags]   Monte Carlo of a scenario
//	stakes compare MECHANIC ...   two variants with common random numbers
//	stakes sweep MECHANIC ...     a grid over settings, as a table
//	stakes run FILE               a scenario file
//	stakes merge FILE...          shards combined into one report
//	stakes play MECHANIC [flags]  sample games, narrated step by step
//	stakes mechanics [MECHANIC]   the mechanics and their settings
//	stakes serve                  the same, as a local web page
//
// Every command takes --help. Exit status is 0 on success, 2 on a usage
// error and 1 on a runtime error; errors go to stderr on one line.
package workbench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"time"

	"github.com/stakesrpg/stakes/sim"
)

// Mechanic is one mechanic offered on the workbench: its name, as the
// commands take it, and its built-in scenario, made fresh for each use.
type Mechanic struct {
	// Name is how commands name the mechanic ("stakes sim NAME").
	Name string
	// New returns the mechanic's built-in scenario, adapted with
	// sim.Adapt, as a new value each call (commands change it with --set).
	New func() sim.Mechanic
}

// Of makes the Mechanic named name whose built-in scenario builtin
// returns; name the runner type and let the scenario's be inferred:
//
//	workbench.Of[*contest.Runner]("contest", contest.DefaultScenario)
func Of[R sim.Runner, S any, P interface {
	*S
	sim.Scenario[R]
}](name string, builtin func() S) Mechanic {
	return Mechanic{Name: name, New: func() sim.Mechanic {
		s := builtin()
		return sim.Adapt[R](name, P(&s))
	}}
}

// Main runs the command line over mechs with the process's arguments and
// streams, stops on Ctrl-C, and exits with the command's status.
func Main(mechs ...Mechanic) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	done := make(chan int, 1)
	go func() { done <- Run(ctx, os.Args[1:], os.Stdout, os.Stderr, mechs...) }()
	os.Exit(awaitOrInterrupt(ctx, stop, done, os.Stderr))
}

// interruptGrace is how long a command may take, after Ctrl-C, to stop on
// its own and mark what it printed as partial.
const interruptGrace = 100 * time.Millisecond

// awaitOrInterrupt returns the command's exit code, or, when Ctrl-C comes
// and the command has not stopped within interruptGrace (a computation
// that cannot look at the context between its steps, such as one large
// matrix solve), says so and returns 1 without waiting for it.
func awaitOrInterrupt(ctx context.Context, stop func(), done <-chan int, stderr io.Writer) int {
	defer stop()
	select {
	case code := <-done:
		return code
	case <-ctx.Done():
	}
	select {
	case code := <-done:
		return code
	case <-time.After(interruptGrace):
		fmt.Fprintln(stderr, "stakes: interrupted")
		return 1
	}
}

// usageError marks an error in how the command was called (exit status 2).
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return usageError{fmt.Sprintf(format, args...)} }

// errHelp is returned when --help was asked for and printed (exit 0).
var errHelp = errors.New("help shown")

// env is what a subcommand runs with: its streams, and whether stderr is a
// terminal (for the progress bar).
type env struct {
	mechs []Mechanic // in the order the balance report runs them
	args  []string   // the command line, for reports that show it
	// onProgress, when set, hears the progress of long runs (the page's
	// live progress), whether or not stderr is a terminal.
	onProgress func(done, total int64)
	ctx        context.Context
	stdout     io.Writer
	stderr     io.Writer
	terminal   bool
}

type command struct {
	name    string
	summary string
	run     func(e *env, args []string) error
}

func commands() []command {
	return []command{
		{"roll", "roll dice in notation and show every die", cmdRoll},
		{"odds", "exact answers for a mechanic", cmdOdds},
		{"solve", "best and worst play for a goal: how much decisions matter", cmdSolve},
		{"play", "sample games of a scenario, narrated step by step", cmdPlay},
		{"sim", "Monte Carlo of a mechanic's scenario", cmdSim},
		{"compare", "two variants of a scenario with common random numbers", cmdCompare},
		{"sweep", "a grid over scenario settings, one report per cell", cmdSweep},
		{"run", "run a scenario file", cmdRun},
		{"serve", "the workbench: a local web page for every question the command line answers", cmdServe},
		{"merge", "combine the reports of shards (--shard K/N) into one", cmdMerge},
		{"mechanics", "list the mechanics and print a scenario's settings", cmdMechanics},
	}
}

// Run runs one command line (args without the program's name) over mechs,
// writing to stdout and stderr, and returns its exit status: 0 on success,
// 2 on a usage error, 1 on a runtime error or when ctx ends first. Two
// mechanics of the same name, or one with no name or no New, is a usage
// error.
func Run(ctx context.Context, args []string, stdout, stderr io.Writer, mechs ...Mechanic) (code int) {
	defer func() {
		// A panic is a bug, but a designer should still get one clear line.
		if p := recover(); p != nil {
			fmt.Fprintf(stderr, "stakes: internal error: %v\n", p)
			code = 1
		}
	}()
	e := &env{ctx: ctx, stdout: stdout, stderr: stderr, terminal: isTerminal(stderr), mechs: mechs}
	err := checkMechanics(mechs)
	switch {
	case err != nil:
	case len(args) == 0:
		err = cmdReport(e, nil)
	case args[0] == "help" && len(args) > 1:
		// "stakes help CMD" is "stakes CMD --help".
		err = runCommand(e, []string{args[1], "--help"})
	case args[0] == "-h" || args[0] == "--help" || args[0] == "help":
		printUsage(stdout, mechs)
		return 0
	case strings.HasPrefix(args[0], "-"):
		err = cmdReport(e, args)
	default:
		err = runCommand(e, args)
	}
	switch {
	case err == nil, errors.Is(err, errHelp):
		return 0
	case errors.Is(err, context.Canceled) || ctx.Err() != nil:
		// Whatever a cancelled computation reports, the user pressed Ctrl-C.
		fmt.Fprintln(stderr, "stakes: interrupted")
		return 1
	case errors.As(err, new(usageError)):
		fmt.Fprintf(stderr, "stakes: %s\n", oneLine(err.Error()))
		return 2
	default:
		fmt.Fprintf(stderr, "stakes: %s\n", oneLine(err.Error()))
		return 1
	}
}

// runCommand runs the command args[0] with the rest of args.
func runCommand(e *env, args []string) error {
	e.args = args
	for _, c := range commands() {
		if c.name == args[0] {
			return c.run(e, args[1:])
		}
	}
	hint := ""
	var names []string
	for _, c := range commands() {
		names = append(names, c.name)
	}
	if near := nearest(args[0], names); near != "" {
		hint = fmt.Sprintf("; did you mean %q?", near)
	}
	return usagef("unknown command %q%s (commands: %s; see stakes --help)", clip(args[0]), hint, commandNames())
}

func commandNames() string {
	var ns []string
	for _, c := range commands() {
		ns = append(ns, c.name)
	}
	return strings.Join(ns, ", ")
}

// maxMessage bounds an error line: a message that echoes a huge input or
// lists a long table is cut, so stderr always gets one readable line.
const maxMessage = 300

// oneLine folds an error message onto one line of at most maxMessage bytes.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > maxMessage {
		s = s[:maxMessage] + "... (cut)"
	}
	return s
}

// checkMechanics refuses a list of mechanics the commands could not tell
// apart.
func checkMechanics(mechs []Mechanic) error {
	var seen []string
	for i, m := range mechs {
		switch {
		case m.Name == "" || m.New == nil:
			return usagef("mechanic %d has no name or no built-in scenario", i+1)
		case slices.Contains(seen, m.Name):
			return usagef("two mechanics are named %q", clip(m.Name))
		}
		seen = append(seen, m.Name)
	}
	return nil
}

func printUsage(w io.Writer, mechs []Mechanic) {
	fmt.Fprint(w, `stakes: balance reports, exact odds and simulations of tabletop RPG resolution mechanics.

Usage:
  stakes                      balance report over every mechanic (built-in scenarios)
  stakes COMMAND [flags] ...

Commands:
`)
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintf(w, `
Mechanics: %s

Examples:
  stakes roll "d12 d8 d6"
  stakes odds actiontest --set pool=4 --set position=risky
  stakes sim edge --trials 200000 --set rules.start_edge=6
  stakes sweep edge --axis rules.start_edge=3..8 --csv
  stakes run examples/scenarios/edge.jsonc --json

Run "stakes help COMMAND" (or "stakes COMMAND --help") for a command's flags.
`, strings.Join(mechanicNames(mechs), ", "))
}
