package workbench

import (
	"flag"
	"fmt"
	"github.com/stakesrpg/stakes/dice"
	"io"
	"math"
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
	html      string
	dialect   dice.Dialect // how dice notation reads forms the references read differently
	view      string       // what a plot of a distribution draws
	file      string
	shard     string
	explain   bool
	seedSet   bool
	trialsSet bool
}

// multi is a repeatable string flag.
type multi []string

func (m *multi) String() string     { return strings.Join(*m, " ") }
func (m *multi) Set(s string) error { *m = append(*m, s); return nil }

// flagGroup selects which of the common flags a command takes: a command
// accepts only the flags that do something for it.
type flagGroup uint

const (
	// runFlags drive a simulation: --seed, --trials, --workers,
	// --precision, --generator and --no-time.
	runFlags flagGroup = 1 << iota
	// outFlags choose the output: --json and --csv.
	outFlags
	// plotFlag is --plot.
	plotFlag
	// setFlag is --set, which changes the scenario.
	setFlag
	// fileFlag is --file, which starts from a scenario file.
	fileFlag
	// jsonFlag is --json alone.
	jsonFlag
	// shardFlag is --shard K/N.
	shardFlag
	// explainFlag is --explain, a legend after the report.
	explainFlag
	// htmlFlag is --html FILE, the study as one self-contained page.
	htmlFlag
)

func (c *common) register(fs *flag.FlagSet, defTrials int64, groups flagGroup) {
	if groups&runFlags != 0 {
		fs.Uint64Var(&c.seed, "seed", 1, "seed for the random streams (same seed, same numbers, any --workers)")
		fs.Int64Var(&c.trials, "trials", defTrials, "Monte Carlo trials (the cap when --precision is set)")
		fs.IntVar(&c.workers, "workers", 0, "worker goroutines (0 = one per CPU); never changes the numbers")
		fs.Float64Var(&c.precision, "precision", 0, "stop once every outcome's 95% interval is within ±P and every mean's within ±P×mean (0.005: odds ±0.005, means ±0.5%; 0 = off)")
		fs.StringVar(&c.generator, "generator", sim.PCG, "random generator: pcg or chacha8")
		fs.BoolVar(&c.zeroTime, "no-time", false, "omit the elapsed time, the one field that differs between runs of the same seed")
	} else {
		c.trials = defTrials
	}
	if groups&(outFlags|jsonFlag) != 0 {
		fs.BoolVar(&c.json, "json", false, "print JSON (stable field names)")
	}
	if groups&outFlags != 0 {
		fs.BoolVar(&c.csv, "csv", false, "print CSV")
	}
	if groups&plotFlag != 0 {
		fs.StringVar(&c.plot, "plot", "", "also draw the outcome odds and the rounds distribution to `FILE` (.png or .svg)")
	}
	if groups&setFlag != 0 {
		fs.Var(&c.sets, "set", "override a scenario setting: `key=value` (repeatable), e.g. rules.start_edge=6")
	}
	if groups&shardFlag != 0 {
		fs.StringVar(&c.shard, "shard", "", "run part `K/N` of the study's chunks and print it as JSON, for stakes merge")
	}
	if groups&htmlFlag != 0 {
		fs.StringVar(&c.html, "html", "", "also write the study as one self-contained HTML page to `FILE` (tables and figure inline)")
	}
	if groups&explainFlag != 0 {
		fs.BoolVar(&c.explain, "explain", false, "after the report, say what each outcome and metric means")
	}
	if groups&fileFlag != 0 {
		fs.StringVar(&c.file, "file", "", "start from the scenario in `FILE` instead of the built-in one")
	}
}

func (c *common) check(fs *flags) error {
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
	if c.explain && (c.json || c.csv || c.shard != "") {
		return usagef("--explain adds text to the table: drop --json, --csv and --shard (\"stakes mechanics NAME\" prints the same legend)")
	}
	if c.shard != "" {
		if _, err := parseShard(c.shard); err != nil {
			return err
		}
		if c.csv || c.plot != "" || c.precision != 0 {
			return usagef("--shard prints JSON for stakes merge: drop --csv, --plot and --precision (a precision stop is decided over the whole study)")
		}
		c.json = true
	}
	if c.trials <= 0 || c.trials > sim.MaxTrials {
		return usagef("--trials %d: allowed 1..%d", c.trials, int64(sim.MaxTrials))
	}
	if c.workers < 0 || c.workers > sim.MaxWorkers {
		return usagef("--workers %d: allowed 0 (one per CPU) .. %d", c.workers, sim.MaxWorkers)
	}
	if !(c.precision >= 0) || math.IsInf(c.precision, 0) {
		return usagef("--precision %v: must be 0 (off) or a positive half-width", c.precision)
	}
	if c.generator != "" && c.generator != sim.PCG && c.generator != sim.ChaCha8 {
		return usagef("--generator %q: allowed %s or %s", clip(c.generator), sim.PCG, sim.ChaCha8)
	}
	if c.plot != "" && !strings.HasSuffix(c.plot, ".png") && !strings.HasSuffix(c.plot, ".svg") {
		return usagef("--plot %q: the file name must end in .png or .svg", c.plot)
	}
	return nil
}

// runOptions returns the options of a run: the flags, and this shard's
// chunks with --shard.
func (c *common) runOptions(p *progress) (sim.Options, error) {
	o := sim.Options{Seed: c.seed, Trials: c.trials, Workers: c.workers, Generator: c.generator,
		Precision: c.precision, MeanPrecision: c.precision}
	if p != nil {
		o.Progress = p.update
	}
	return o, c.applyShard(&o)
}

// flags is a command's flag set and its help text. The flag package calls
// Usage on every parse error, and a mistyped flag must give one line, not
// the whole help, so the help is printed by parse on --help alone.
type flags struct {
	*flag.FlagSet
	e    *env
	help func()
}

// newFlags returns a flag set for a command. Its errors are usage errors
// and its usage text is printed only when --help asks for it (see parse).
func newFlags(e *env, name, args, about string, examples ...string) *flags {
	fs := &flags{FlagSet: flag.NewFlagSet(strings.TrimSpace("stakes "+name), flag.ContinueOnError), e: e}
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	fs.help = func() {
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
// wrong as a usage error of one line. Flags may come before or after
// positional arguments.
func parse(fs *flags, args []string) ([]string, error) {
	var pos []string
	for len(args) > 0 {
		a := args[0]
		switch {
		case a == "--":
			return append(pos, args[1:]...), nil
		case !strings.HasPrefix(a, "-") || a == "-" || negativeOperand(fs, a):
			pos, args = append(pos, a), args[1:]
			continue
		}
		n := flagWords(fs, a, len(args))
		if err := fs.Parse(args[:n]); err != nil {
			if err == flag.ErrHelp {
				fs.help()
				return nil, errHelp
			}
			return nil, flagError(fs, err)
		}
		args = args[n:]
	}
	return pos, nil
}

// negativeOperand reports whether a word that begins with a dash is a
// negative number or dice expression ("-2", "-d4", "-(d6+1)") rather than
// a flag: it names no flag and reads as one of those.
func negativeOperand(fs *flags, a string) bool {
	name := strings.TrimLeft(a, "-")
	name, _, _ = strings.Cut(name, "=")
	if fs.Lookup(name) != nil || strings.HasPrefix(a, "--") {
		return false
	}
	return len(a) > 1 && (a[1] >= '0' && a[1] <= '9' || a[1] == 'd' || a[1] == 'D' || a[1] == '(')
}

// flagWords is how many words the flag a takes up: one for a boolean flag
// or name=value, two for a flag followed by its value.
func flagWords(fs *flags, a string, left int) int {
	name := strings.TrimLeft(a, "-")
	if strings.Contains(name, "=") || left < 2 {
		return 1
	}
	f := fs.Lookup(name)
	if f == nil {
		return 1 // unknown: fs.Parse says so
	}
	if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
		return 1
	}
	return 2
}

// flagError turns the flag package's error into one line: what was wrong,
// the flag the user most likely meant, and where the help is.
func flagError(fs *flags, err error) error {
	msg := err.Error()
	hint := ""
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: -"); ok {
		msg = "unknown flag --" + clip(name)
		if near := nearestFlag(fs, name); near != "" {
			hint = "; did you mean --" + near + "?"
		}
	}
	if fs.Name() == "stakes" {
		return usagef("%s%s (see stakes --help)", msg, hint)
	}
	cmd := strings.TrimPrefix(fs.Name(), "stakes ")
	return usagef("%s: %s%s (see %s --help)", cmd, msg, hint, fs.Name())
}

// nearestFlag returns the defined flag closest to name (see nearest).
func nearestFlag(fs *flags, name string) string {
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	return nearest(name, names)
}

// nearest returns the name closest to s in edit distance, if it is within
// two edits or s begins it; "" if none is that close.
func nearest(s string, names []string) string {
	best, bestD := "", 3
	for _, n := range names {
		d := editDistance(s, n)
		if len(s) >= 2 && strings.HasPrefix(n, s) {
			d = min(d, 1)
		}
		if d < bestD {
			best, bestD = n, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b, for names of
// a few dozen bytes.
func editDistance(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		return 64
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// parseMechanic parses a simulating subcommand's flags and its one
// positional argument, the mechanic's name.
func (c *common) parseMechanic(fs *flags, args []string, cmd string) (string, error) {
	pos, err := parse(fs, args)
	if err != nil {
		return "", err
	}
	if err := c.check(fs); err != nil {
		return "", err
	}
	for _, set := range c.sets {
		if !strings.Contains(set, "=") && len(pos) > 1 {
			return "", usagef("%s: --set %s %s: write a setting as one word, key=value: --set %s=%s", cmd, clip(set), clip(pos[1]), clip(set), clip(pos[1]))
		}
	}
	if len(pos) != 1 {
		return "", usagef("%s: name one mechanic (%s)", cmd, strings.Join(mechanicNames(fs.e.mechs), ", "))
	}
	return pos[0], nil
}
