#!/bin/sh
# run.sh: a stakes study as N shards in N separate processes, then merged
# into the report one process prints for the same seed. Each pass of the
# loop below is what one task of a batch system's array job runs; as an
# array job of 8 tasks:
#
#   Slurm:  sbatch --array=1-8 task.sh         (K is $SLURM_ARRAY_TASK_ID)
#   SGE:    qsub -t 1-8 -cwd task.sh           (K is $SGE_TASK_ID)
#
# where task.sh is
#
#   #!/bin/sh
#   K=${SLURM_ARRAY_TASK_ID:-$SGE_TASK_ID}
#   stakes sim contest --trials 100000000 --seed 7 --shard "$K/8" --json > "shards/sim-$K-of-8.json"
#
# and, once every task is done (Slurm: sbatch --dependency=afterok:JOBID;
# SGE: qsub -hold_jid JOBID), one job runs
#
#   stakes merge shards/sim-*-of-8.json
#
# Every task gives the same study, seed and trials; only K in --shard K/N
# changes. Usage, from the repository's root:
#
#   [N=4] [STAKES=path/to/stakes] [DIR=shards] examples/shards/run.sh [STUDY...]
#
# STUDY is a stakes command line (sim, run, compare or sweep); the default is
# "sim contest --trials 2000000 --seed 1". Without STAKES the script builds
# cmd/stakes with go build; without DIR the shards' files go to a new
# temporary directory. Exit status: merge's (1 when a shard failed or the
# merge is PARTIAL, 2 when the files do not fit together).
set -eu

N=${N:-4}
if [ -z "${STAKES:-}" ]; then
  STAKES=$(mktemp -d)/stakes
  go build -o "$STAKES" github.com/stakesrpg/stakes/cmd/stakes
fi
DIR=${DIR:-$(mktemp -d)}
mkdir -p "$DIR"
[ $# -gt 0 ] || set -- sim contest --trials 2000000 --seed 1

pids=
k=1
while [ "$k" -le "$N" ]; do
  "$STAKES" "$@" --shard "$k/$N" --json > "$DIR/$1-$k-of-$N.json" &
  pids="$pids $!"
  k=$((k + 1))
done
failed=0
for pid in $pids; do
  wait "$pid" || failed=1
done
if [ "$failed" -ne 0 ]; then
  echo "run.sh: a shard failed (its complaint is above)" >&2
  exit 1
fi
echo "run.sh: the $N shards' files are in $DIR" >&2

"$STAKES" merge "$DIR/$1"-*-of-"$N".json
