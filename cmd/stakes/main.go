// Command stakes is the designers' face of the stakes library: balance
// reports, exact odds, Monte Carlo studies, comparisons and sweeps over the
// five mechanics.
//
// Run with no arguments it prints a balance report over all five mechanics
// from built-in scenarios. Subcommands:
//
//	stakes roll NOTATION          roll dice and show every die
//	stakes odds MECHANIC [flags]  exact answers
//	stakes sim MECHANIC [flags]   Monte Carlo of a scenario
//	stakes compare MECHANIC ...   two variants with common random numbers
//	stakes sweep MECHANIC ...     a grid over settings, as a table
//	stakes run FILE               a scenario file
//	stakes mechanics              the mechanics and their settings
//
// Every subcommand takes --help. Exit status is 0 on success, 2 on a usage
// error and 1 on a runtime error; errors go to stderr on one line.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"time"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	done := make(chan int, 1)
	go func() { done <- run(ctx, os.Args[1:], os.Stdout, os.Stderr) }()
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
	ctx      context.Context
	stdout   io.Writer
	stderr   io.Writer
	terminal bool
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
		{"sim", "Monte Carlo of a mechanic's scenario", cmdSim},
		{"compare", "two variants of a scenario with common random numbers", cmdCompare},
		{"sweep", "a grid over scenario settings, one report per cell", cmdSweep},
		{"run", "run a scenario file", cmdRun},
		{"merge", "combine the reports of shards (--shard K/N) into one", cmdMerge},
		{"mechanics", "list the mechanics and print a scenario's settings", cmdMechanics},
	}
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) (code int) {
	defer func() {
		// A panic is a bug, but a designer should still get one clear line.
		if p := recover(); p != nil {
			fmt.Fprintf(stderr, "stakes: internal error: %v\n", p)
			code = 1
		}
	}()
	e := &env{ctx: ctx, stdout: stdout, stderr: stderr, terminal: isTerminal(stderr)}
	var err error
	switch {
	case len(args) == 0:
		err = cmdReport(e, nil)
	case args[0] == "help" && len(args) > 1:
		// "stakes help CMD" is "stakes CMD --help".
		err = runCommand(e, []string{args[1], "--help"})
	case args[0] == "-h" || args[0] == "--help" || args[0] == "help":
		printUsage(stdout)
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

func printUsage(w io.Writer) {
	fmt.Fprint(w, `stakes: balance reports, exact odds and simulations of tabletop RPG resolution mechanics.

Usage:
  stakes                      balance report over all five mechanics (built-in scenarios)
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
`, strings.Join(mechanicNames(), ", "))
}
