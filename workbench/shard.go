package workbench

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/stakesrpg/stakes/sim"
)

// A study too big for one machine runs as N shards: "--shard K/N" runs the
// K-th of N equal parts of the study's chunks and prints its report as
// JSON, and "stakes merge" combines the shards' files into exactly the
// report one run with the same seed prints (the wall time aside). The
// chunks fix the random streams, so the parts can run anywhere, in any
// order, on any number of cores.

// shardPart is a parsed --shard K/N: part K (1-based) of N.
type shardPart struct{ k, n int64 }

// maxShards bounds N in --shard K/N.
const maxShards = 100_000

func parseShard(s string) (shardPart, error) {
	ks, ns, ok := strings.Cut(s, "/")
	k, err1 := strconv.ParseInt(ks, 10, 64)
	n, err2 := strconv.ParseInt(ns, 10, 64)
	if !ok || err1 != nil || err2 != nil || n < 1 || n > maxShards || k < 1 || k > n {
		return shardPart{}, usagef("--shard %q: want K/N with 1 <= K <= N <= %d, such as 2/8", clip(s), maxShards)
	}
	return shardPart{k, n}, nil
}

// chunks returns the chunk range [lo, hi) of part K of N over a study of
// the given number of chunks: the parts are as equal as whole chunks allow.
func (p shardPart) chunks(total int64) (lo, hi int64, err error) {
	if total < p.n {
		return 0, 0, usagef("--shard %d/%d: the study has only %d chunks of trials; use at most %d shards or more --trials", p.k, p.n, total, total)
	}
	return (p.k - 1) * total / p.n, p.k * total / p.n, nil
}

// applyShard narrows o to this shard's chunks, when --shard is set.
func (c *common) applyShard(o *sim.Options) error {
	if c.shard == "" {
		return nil
	}
	part, err := parseShard(c.shard)
	if err != nil {
		return err
	}
	total, err := o.Chunks()
	if err != nil {
		return usageError{err.Error()}
	}
	o.ChunkLo, o.ChunkHi, err = part.chunks(total)
	return err
}

// maxShardFile bounds one shard file read by merge.
const maxShardFile = 256 << 20

// shardFile is one file given to merge, decoded as whichever of the three
// kinds of report it holds.
type shardFile struct {
	path  string
	res   *result           // from sim or run
	cmp   *comparisonResult // from compare
	sweep *sweepResult      // from sweep
	kind  string            // "sim", "compare" or "sweep"
	raw   map[string]json.RawMessage
}

func readShard(path string) (*shardFile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxShardFile+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxShardFile {
		return nil, usagef("%s: larger than a shard report can be (%d MiB)", path, maxShardFile>>20)
	}
	sf := &shardFile{path: path}
	if err := json.Unmarshal(data, &sf.raw); err != nil {
		return nil, usagef("%s: not a stakes JSON report: %v", path, err)
	}
	dec := func(v any) error {
		d := json.NewDecoder(bytes.NewReader(data))
		d.DisallowUnknownFields()
		return d.Decode(v)
	}
	switch {
	case sf.raw["report"] != nil:
		sf.kind, sf.res = "sim", new(result)
		err = dec(sf.res)
	case sf.raw["diff"] != nil:
		sf.kind, sf.cmp = "compare", new(comparisonResult)
		err = dec(sf.cmp)
	case sf.raw["cells"] != nil:
		sf.kind, sf.sweep = "sweep", new(sweepResult)
		err = dec(sf.sweep)
	default:
		return nil, usagef("%s: not the --json report of sim, run, compare or sweep", path)
	}
	if err != nil {
		return nil, usagef("%s: %v", path, err)
	}
	return sf, nil
}

func cmdMerge(e *env, args []string) error {
	var c common
	fs := newFlags(e, "merge", "FILE... [flags]",
		"Combines the --json reports of shards (sim, run, compare or sweep with --shard K/N)\n"+
			"into the report one run with the same seed prints. Refuses shards of different\n"+
			"scenarios, seeds or trials, overlapping shards and gaps; a missing shard leaves the\n"+
			"merge marked partial.",
		`stakes merge shard-1.json shard-2.json shard-3.json`,
		`stakes merge results/*.json --json > study.json`, `stakes merge shard-*.json --plot study.png`)
	var outcomes string
	c.register(fs.FlagSet, 1, outFlags|plotFlag)
	fs.Lookup("plot").Usage = "also draw the merged report to `FILE` (.png or .svg), as the command that ran the shards draws it"
	fs.StringVar(&outcomes, "outcomes", "", "for a sweep, the outcomes and metrics the table and plot show: `a,b`")
	fs.BoolVar(&c.zeroTime, "no-time", false, "omit the elapsed time (the sum of the shards')")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if err := c.check(fs); err != nil {
		return err
	}
	if len(pos) == 0 {
		return usagef("merge: give the shards' JSON files")
	}
	var parts []*shardFile
	for _, p := range pos {
		sf, err := readShard(p)
		if err != nil {
			return err
		}
		if len(parts) > 0 && sf.kind != parts[0].kind {
			return usagef("merge: %s is a %s report and %s a %s report", parts[0].path, parts[0].kind, p, sf.kind)
		}
		parts = append(parts, sf)
	}
	if outcomes != "" && parts[0].kind != "sweep" {
		return usagef("merge: --outcomes chooses a sweep's columns; %s is a %s report", parts[0].path, parts[0].kind)
	}
	switch parts[0].kind {
	case "sim":
		return mergeResults(e, &c, parts)
	case "compare":
		return mergeComparisons(e, &c, parts)
	}
	return mergeSweeps(e, &c, parts, outcomes)
}

func mergeResults(e *env, c *common, parts []*shardFile) error {
	first := parts[0].res
	reps := make([]*sim.Report, len(parts))
	for i, p := range parts {
		if p.res.Mechanic != first.Mechanic || p.res.Scenario != first.Scenario {
			return usagef("merge: %s is %s (%s), %s is %s (%s)", parts[0].path, first.Mechanic, first.Scenario, p.path, p.res.Mechanic, p.res.Scenario)
		}
		reps[i] = p.res.Report
	}
	rep, err := sim.Merge(reps...)
	if err != nil {
		return usageError{"merge: " + err.Error()}
	}
	stripRunEnv(rep, c.zeroTime)
	markMissing(rep)
	res := *first
	res.Report = rep
	return emit(e, c, res)
}

// markMissing marks a merged report partial when shards are missing from
// either end of the study (sim.Merge refuses a gap between shards).
func markMissing(r *sim.Report) {
	pv := &r.Provenance
	if pv.ChunkLo != 0 || pv.ChunkHi != pv.Chunks {
		pv.Partial, pv.Stop = true, sim.StopCancelled
	}
}

func mergeComparisons(e *env, c *common, parts []*shardFile) error {
	first := parts[0].cmp
	cmps := make([]*sim.Comparison, len(parts))
	for i, p := range parts {
		if p.cmp.Mechanic != first.Mechanic || p.cmp.Scenario != first.Scenario || p.cmp.Comparison == nil {
			return usagef("merge: %s compares %s (%s), %s compares %s (%s)", parts[0].path, first.Mechanic, first.Scenario, p.path, p.cmp.Mechanic, p.cmp.Scenario)
		}
		cmps[i] = p.cmp.Comparison
	}
	cmp, err := sim.MergeComparisons(cmps...)
	if err != nil {
		return usageError{"merge: " + err.Error()}
	}
	stripRunEnv(cmp.A, c.zeroTime)
	stripRunEnv(cmp.B, c.zeroTime)
	markMissing(cmp.A)
	markMissing(cmp.B)
	// The exact answers depend on the scenarios alone, so every shard
	// carries the same ones.
	out := *first
	out.Comparison = cmp
	return emitComparison(e, c, out)
}

func mergeSweeps(e *env, c *common, parts []*shardFile, outcomes string) error {
	first := parts[0].sweep
	sws := make([]*sim.SweepReport, len(parts))
	for i, p := range parts {
		if p.sweep.Mechanic != first.Mechanic || p.sweep.Scenario != first.Scenario {
			return usagef("merge: %s is %s (%s), %s is %s (%s)", parts[0].path, first.Mechanic, first.Scenario, p.path, p.sweep.Mechanic, p.sweep.Scenario)
		}
		if p.sweep.SweepReport == nil {
			return usagef("merge: %s holds no sweep", p.path)
		}
		sws[i] = p.sweep.SweepReport
	}
	sw, err := sim.MergeSweeps(sws...)
	if err != nil {
		return usageError{"merge: " + err.Error()}
	}
	for i := range sw.Cells {
		stripRunEnv(sw.Cells[i].Report, c.zeroTime)
		markMissing(sw.Cells[i].Report)
		sw.Partial = sw.Partial || sw.Cells[i].Report.Provenance.Partial
	}
	// The exact answers depend on the scenario alone, so every shard
	// carries the same ones.
	out := *first
	out.SweepReport = sw
	return emitSweep(e, c, out, len(sw.Cells), outcomes)
}
