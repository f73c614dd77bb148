package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/stakesrpg/stakes/sim"
)

// common holds the flags every simulating subcommand shares.
type common struct {
	seed      uint64
	trials    int64
	workers   int
	json      bool
	csv       bool
	plot      string
	precision float64
	generator string
	zeroTime  bool
	sets      multi
	file      string
	seedSet   bool
	trialsSet bool
}

// multi is a repeatable string flag.
type multi []string

func (m *multi) String() string     { return strings.Join(*m, " ") }
func (m *multi) Set(s string) error { *m = append(*m, s); return nil }

func (c *common) register(fs *flag.FlagSet, defTrials int64) {
	fs.Uint64Var(&c.seed, "seed", 1, "seed for the random streams (same seed, same numbers, any --workers)")
	fs.Int64Var(&c.trials, "trials", defTrials, "Monte Carlo trials (the cap when --precision is set)")
	fs.IntVar(&c.workers, "workers", 0, "worker goroutines (0 = one per CPU); never changes the numbers")
	fs.BoolVar(&c.json, "json", false, "print JSON (stable field names)")
	fs.BoolVar(&c.csv, "csv", false, "print CSV")
	fs.StringVar(&c.plot, "plot", "", "also draw the rounds distribution to `FILE` (.png or .svg)")
	fs.Float64Var(&c.precision, "precision", 0, "stop once every 95% interval half-width is below this (0 = off)")
	fs.StringVar(&c.generator, "generator", sim.PCG, "random generator: pcg or chacha8")
	fs.BoolVar(&c.zeroTime, "no-time", false, "omit the elapsed time, the one field that differs between runs of the same seed")
	fs.Var(&c.sets, "set", "override a scenario setting: `key=value` (repeatable), e.g. rules.start_edge=6")
	fs.StringVar(&c.file, "file", "", "start from the scenario in `FILE` instead of the built-in one")
}

func (c *common) check(fs *flag.FlagSet) error {
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "seed":
			c.seedSet = true
		case "trials":
			c.trialsSet = true
		}
	})
	if c.json && c.csv {
		return usagef("--json and --csv are exclusive: choose one")
	}
	if c.trials <= 0 {
		return usagef("--trials %d: must be at least 1", c.trials)
	}
	if c.workers < 0 {
		return usagef("--workers %d: must be 0 (one per CPU) or more", c.workers)
	}
	if c.precision < 0 {
		return usagef("--precision %v: must be 0 (off) or positive", c.precision)
	}
	if c.plot != "" && !strings.HasSuffix(c.plot, ".png") && !strings.HasSuffix(c.plot, ".svg") {
		return usagef("--plot %q: the file name must end in .png or .svg", c.plot)
	}
	return nil
}

func (c *common) options(p *progress) sim.Options {
	o := sim.Options{Seed: c.seed, Trials: c.trials, Workers: c.workers, Generator: c.generator, Precision: c.precision}
	if p != nil {
		o.Progress = p.update
	}
	return o
}

// newFlags returns a flag set whose --help prints usage and examples to
// stdout and whose errors are usage errors.
func newFlags(e *env, name, args, about string, examples ...string) *flag.FlagSet {
	fs := flag.NewFlagSet("stakes "+name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {
		w := e.stdout
		fmt.Fprintf(w, "Usage: stakes %s %s\n\n%s\n\nFlags:\n", name, args, about)
		fs.SetOutput(w)
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
		if len(examples) > 0 {
			fmt.Fprintf(w, "\nExamples:\n")
			for _, x := range examples {
				fmt.Fprintf(w, "  %s\n", x)
			}
		}
	}
	return fs
}

// parse parses flags, treating -h/--help as help shown and anything else
// wrong as a usage error. Flags may come before or after positional
// arguments.
func parse(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if err == flag.ErrHelp {
				fs.Usage()
				return nil, errHelp
			}
			return nil, usageError{fs.Name() + ": " + err.Error()}
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// parseMechanic parses a simulating subcommand's flags and its one
// positional argument, the mechanic's name.
func (c *common) parseMechanic(fs *flag.FlagSet, args []string, cmd string) (string, error) {
	pos, err := parse(fs, args)
	if err != nil {
		return "", err
	}
	if err := c.check(fs); err != nil {
		return "", err
	}
	if len(pos) != 1 {
		return "", usagef("%s: name one mechanic (%s)", cmd, strings.Join(mechanicNames(), ", "))
	}
	return pos[0], nil
}
