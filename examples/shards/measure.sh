#!/usr/bin/env bash
# measure.sh: the figures in README.md. Runs one study as one process, and
# through run.sh as 2 and as 4 shards in as many processes (and as 2 shards
# of one worker each), the four interleaved, REPEATS times; each process
# runs under /usr/bin/time for its CPU time and peak RSS, and /proc/stat
# says how busy the machine's cores were meanwhile, ours and others'.
# Linux only (/proc/stat, GNU time). From the repository's root:
#
#   [REPEATS=5] examples/shards/measure.sh [STUDY...]
#
# STUDY defaults to "sim contest --trials 10000000 --seed 1". A line a run:
# the configuration (one process; run.sh with N=2; N=4; N=2 and --workers
# 1), the wall time of the whole (shards and merge), the CPU seconds of all
# its processes and of the longest shard, the cores the rest of the machine
# kept busy meanwhile, the largest peak RSS of a shard (or of the one
# process), the merge's wall time and peak RSS. Then, per configuration,
# the median wall time and its range, over all runs and over the quiet ones
# (the rest of the machine busy for less than a quarter of a core).
set -euo pipefail

REPEATS=${REPEATS:-5}
[ $# -gt 0 ] || set -- sim contest --trials 10000000 --seed 1
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/stakes" github.com/stakesrpg/stakes/cmd/stakes

# Every stakes process, shard or merge, runs through this wrapper, which
# writes its wall, user and system seconds and peak RSS (KiB) to a file of
# its own: "merge" or "shard" first.
cat > "$work/timed" <<EOF
#!/bin/sh
kind=shard; [ "\$1" = merge ] && kind=merge
exec /usr/bin/time -o "$work/log/\$\$" -f "\$kind %e %U %S %M" "$work/stakes" "\$@"
EOF
chmod +x "$work/timed"

busy() { awk '/^cpu /{print $2+$3+$4+$7+$8+$9}' /proc/stat; }
hz=$(getconf CLK_TCK)

one() { "$work/timed" "$@" > /dev/null; }
two() { N=2 DIR="$work/out" STAKES="$work/timed" "$here/run.sh" "$@" > /dev/null; }
four() { N=4 DIR="$work/out" STAKES="$work/timed" "$here/run.sh" "$@" > /dev/null; }
two1() { two "$@" --workers 1; }

header() { printf '%-6s %3s %7s %6s %13s %13s %8s %9s %10s\n' config rep wall_s cpu_s shard_cpu_max others_cores rss_MiB merge_s merge_MiB; }
header
for rep in $(seq 1 "$REPEATS"); do
  for config in one two four two1; do
    rm -rf "$work/log" "$work/out"; mkdir -p "$work/log" "$work/out"
    b0=$(busy); t0=$(date +%s.%N)
    "$config" "$@"
    t1=$(date +%s.%N); b1=$(busy)
    cat "$work/log"/* | awk -v c="$config" -v r="$rep" -v w="$t1" -v t0="$t0" -v busy="$(( b1 - b0 ))" -v hz="$hz" '
      { cpu += $3 + $4 }
      $1 == "shard" && $3 + $4 > scpu { scpu = $3 + $4 }
      $1 == "shard" && $5 > rss { rss = $5 }
      $1 == "merge" { mwall = sprintf("%.2f", $2); mrss = sprintf("%.1f", $5/1024) }
      END {
        w -= t0
        printf "%-6s %3d %7.2f %6.2f %13.2f %13.2f %8.1f %9s %10s\n", c, r, w, cpu, scpu, (busy/hz - cpu)/w, rss/1024, mwall ? mwall : "-", mrss ? mrss : "-"
      }' | tee -a "$work/runs"
  done
done

# median and range of the wall times in column 3 of the lines read, per
# configuration
summary() {
  sort -k1,1 -k3,3n | awk '
    { w[$1, ++n[$1]] = $3 }
    END {
      split("one two four two1", order)
      for (i = 1; i <= 4; i++) {
        c = order[i]; k = n[c]
        if (!k) { printf "  %-6s no runs\n", c; continue }
        m = k % 2 ? w[c, (k+1)/2] : (w[c, k/2] + w[c, k/2+1]) / 2
        printf "  %-6s median %6.2f s, range %.2f-%.2f s, %d runs\n", c, m, w[c, 1], w[c, k], k
      }
    }'
}
echo "wall time, all runs:"
summary < "$work/runs"
echo "wall time, runs while the rest of the machine kept less than 0.25 cores busy:"
awk '$6 < 0.25' "$work/runs" | summary
