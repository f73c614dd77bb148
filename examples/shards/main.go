// Command shards runs a stakes study the way a batch system runs an array
// job: as N shards, each a separate process of
//
//	stakes STUDY... --shard K/N --json > DIR/COMMAND-K-of-N.json
//
// with the same seed and trials, all started at once; then "stakes merge"
// combines the N files into the report one process prints for that seed.
// A study's trials fall into fixed chunks whose random streams depend only
// on the seed and the chunk, so the shards may run on any machines, in any
// order, on any number of cores, and the merge is exact.
//
//	go run ./examples/shards                  # a sim and a sweep of contest, 4 shards each
//	go run ./examples/shards -n 8 sim edge --trials 1000000 --seed 7
//	go run ./examples/shards -stakes ./stakes -dir results -json \
//	    sweep contest --axis rules.extraordinary=3..7 --trials 200000
//
// Without -stakes it builds cmd/stakes with "go build", so run it inside
// the module. The shards' progress (one line each: its wall and CPU time)
// goes to stderr, the merged reports to stdout. run.sh does the same with
// a shell loop, the form to paste into an array job.
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"
)

// demo is what runs when no study is given: a Monte Carlo study of the
// contest mechanic, and a sweep of its Extraordinary margin.
var demo = [][]string{
	{"sim", "contest", "--trials", "2000000", "--seed", "1"},
	{"sweep", "contest", "--axis", "rules.extraordinary=3..7", "--trials", "200000", "--seed", "1"},
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run is the whole program. It returns the exit status: 0, 1 when a shard
// or the merge failed (a merge with shards missing prints its report
// marked PARTIAL and exits 1), 2 for bad flags or shards that do not fit
// together.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("shards", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: shards [-n N] [-stakes BIN] [-dir DIR] [-json] [STUDY...]")
		fmt.Fprintln(stderr, "STUDY is a stakes command line (sim, run, compare or sweep) with its seed and trials.")
		fs.PrintDefaults()
	}
	n := fs.Int("n", 4, "how many shards, each a separate process")
	bin := fs.String("stakes", "", "the stakes binary (default: go build one from this module)")
	dir := fs.String("dir", "", "where the shards' JSON files go (default: a temporary directory, removed at the end)")
	asJSON := fs.Bool("json", false, "print the merged report as JSON")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *n < 1 {
		fmt.Fprintln(stderr, "shards: -n must be at least 1")
		return 2
	}
	studies := demo
	if fs.NArg() > 0 {
		studies = [][]string{fs.Args()}
	}
	if *dir == "" {
		tmp, err := os.MkdirTemp("", "shards")
		if err != nil {
			fmt.Fprintln(stderr, "shards:", err)
			return 1
		}
		defer os.RemoveAll(tmp)
		*dir = tmp
	} else if err := os.MkdirAll(*dir, 0o755); err != nil {
		fmt.Fprintln(stderr, "shards:", err)
		return 1
	}
	if *bin == "" {
		built, err := build(ctx, *dir)
		if err != nil {
			fmt.Fprintln(stderr, "shards:", err)
			return 1
		}
		*bin = built
	}
	for _, study := range studies {
		files, err := runShards(ctx, *bin, *dir, *n, study, stderr)
		if err != nil {
			fmt.Fprintln(stderr, "shards:", err)
			return 1
		}
		if code := merge(ctx, *bin, files, *asJSON, stdout, stderr); code != 0 {
			return code
		}
	}
	return 0
}

// build compiles cmd/stakes into dir and returns the binary's path.
func build(ctx context.Context, dir string) (string, error) {
	bin := filepath.Join(dir, "stakes")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	out, err := exec.CommandContext(ctx, "go", "build", "-o", bin, "github.com/stakesrpg/stakes/cmd/stakes").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("go build: %v\n%s", err, out)
	}
	return bin, nil
}

// runShards starts the n shards of study at once, each a separate process
// writing its JSON report to its own file in dir, as the tasks of an array
// job do, and waits for them all. It says on log how long each took, and
// returns the files in shard order and every shard's failure with what
// that shard wrote to stderr.
func runShards(ctx context.Context, bin, dir string, n int, study []string, log io.Writer) ([]string, error) {
	if len(study) == 0 {
		return nil, errors.New("no study to run")
	}
	files := make([]string, n)
	times := make([]string, n)
	errs := make([]error, n)
	start := time.Now()
	var wg sync.WaitGroup
	for k := 1; k <= n; k++ {
		files[k-1] = filepath.Join(dir, fmt.Sprintf("%s-%d-of-%d.json", study[0], k, n))
		args := append(slices.Clip(study), "--shard", fmt.Sprintf("%d/%d", k, n), "--json")
		wg.Go(func() { times[k-1], errs[k-1] = runShard(ctx, bin, args, files[k-1]) })
	}
	wg.Wait()
	fmt.Fprintf(log, "%d shards of %q: %.2f s wall\n", n, strings.Join(study, " "), time.Since(start).Seconds())
	for k, t := range times {
		if errs[k] == nil {
			fmt.Fprintf(log, "  %s: %s\n", filepath.Base(files[k]), t)
		}
	}
	return files, errors.Join(errs...)
}

// runShard runs one shard's process with its standard output in file, and
// returns how long it took.
func runShard(ctx context.Context, bin string, args []string, file string) (string, error) {
	f, err := os.Create(file)
	if err != nil {
		return "", err
	}
	defer f.Close()
	var stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Stdout, cmd.Stderr = f, &stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("stakes %s: %v\n%s", strings.Join(args, " "), err, bytes.TrimSpace(stderr.Bytes()))
	}
	ps := cmd.ProcessState
	took := fmt.Sprintf("pid %d, %.2f s wall, %.2f s CPU", ps.Pid(), time.Since(start).Seconds(), (ps.UserTime() + ps.SystemTime()).Seconds())
	return took, f.Close()
}

// merge runs "stakes merge" over the shards' files, its report to stdout
// and its complaints to stderr, and returns its exit status: 0; 1 when
// shards are missing at either end (the report then says PARTIAL); 2 when
// the files do not fit together (different studies, seeds or trials,
// overlapping shards, a gap).
func merge(ctx context.Context, bin string, files []string, asJSON bool, stdout, stderr io.Writer) int {
	args := append([]string{"merge"}, files...)
	if asJSON {
		args = append(args, "--json")
	}
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &exit) && exit.ExitCode() > 0:
		return exit.ExitCode()
	}
	fmt.Fprintln(stderr, "shards:", err)
	return 1
}
