#!/usr/bin/env bash
# The Slurm recipe, for real, on a one-node cluster on this machine (root; Debian slurm-wlm + munge):
# starts the cluster (cluster.sh), runs a small study once without Slurm, submits the same study as a
# job array of shards (shard.sbatch) with a merge job after it (merge.sbatch, --dependency=afterok,
# --kill-on-invalid-dep=yes), waits, compares the merged database with the single run
# (deploy/compare.mjs: the same results row for row, the same report), and stops the cluster if it
# started it (one already running is left running). Exit 0 when they are equal.
#
#   deploy/slurm/check.sh                 # 4 shards: --array=0-3
#   SHARDS=8 deploy/slurm/check.sh
#   deploy/slurm/check.sh --game spiderette --suits 1,2,4 --seeds 1-100 --max-positions 50000
#
# Needs the build (npm ci, or npx tsc -p tsconfig.json). Leaves its files in $WORK (printed). Not run
# by CI: it needs root, two daemons and about a minute (see docs/cluster.md).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
shards=${SHARDS:-4}
study=("$@")
[[ ${#study[@]} -gt 0 ]] || study=(--game spiderette --suits 1,2 --seeds 1-40 --max-positions 20000)
export SPIDERSOLVE="node $root/bin/spidersolve.js"
read -ra ss <<<"$SPIDERSOLVE"
work=${WORK:-$(mktemp -d /tmp/spidersolve-slurm-check.XXXXXX)}
mkdir -p "$work"
export SHARD_DIR=$work/shards

eval "$("$root/deploy/slurm/cluster.sh" env)"
# the cluster first: sbatch reads the slurm.conf that `start` writes (asked before it, a first run
# waited 60 s for the file and printed Slurm's errors)
if "$root/deploy/slurm/cluster.sh" running; then
  echo "slurm: the cluster in ${SPIDERSOLVE_SLURM_DIR:-/tmp/spidersolve-slurm} is running already: using it, and leaving it running"
else
  "$root/deploy/slurm/cluster.sh" start
  trap '"$root/deploy/slurm/cluster.sh" stop' EXIT
fi
echo "== spidersolve Slurm check, $(date -u '+%Y-%m-%d %H:%M:%S UTC'), $(sbatch --version), $(hostname), $(nproc) CPUs"
echo "study: ${study[*]}; $shards shards; files in $work"

ms() { echo $(( $(date +%s%N) / 1000000 )); }
secs() { printf '%d.%d' $(( $1 / 1000 )) $(( $1 % 1000 / 100 )); }
t0=$(ms)
"${ss[@]}" batch "${study[@]}" --workers 1 --no-shard --db "$work/single.sqlite" >/dev/null
t1=$(ms)
echo "single run (1 worker, no Slurm): $(secs $((t1 - t0))) s"

cd "$work"
jid=$(sbatch --parsable --array=0-$((shards - 1)) --cpus-per-task=1 --output="$work/shard-%a.out" \
  "$root/deploy/slurm/shard.sbatch" "${study[@]}")
mid=$(sbatch --parsable --dependency=afterok:"$jid" --kill-on-invalid-dep=yes --output="$work/merge.out" "$root/deploy/slurm/merge.sbatch")
echo "submitted: array job $jid (--array=0-$((shards - 1))), merge job $mid (--dependency=afterok:$jid --kill-on-invalid-dep=yes)"
for _ in $(seq 1 600); do
  left=$(squeue -h -j "$jid,$mid" 2>/dev/null | wc -l)
  [[ $left -eq 0 ]] && break
  sleep 1
done
t2=$(ms)
if [[ $left -ne 0 ]]; then
  echo "jobs still queued after 600 s:"; squeue; exit 1
fi
if [[ ! -s $SHARD_DIR/all.sqlite ]]; then
  echo "the merge did not run (a task failed: its merge job was cancelled, --kill-on-invalid-dep=yes):"
  tail -n 3 "$work"/shard-*.out
  exit 1
fi
echo "array and merge done in $(secs $((t2 - t1))) s"
for f in "$work"/shard-*.out; do
  echo "-- $(basename "$f"):"
  grep -E '^spidersolve: shard|^  deals' "$f" | sed 's/^/   /'
done
echo "-- merge.out:"
sed 's/^/   /' "$work/merge.out"
echo "-- compare merged with the single run:"
node "$root/deploy/compare.mjs" "$SHARD_DIR/all.sqlite" "$work/single.sqlite"
echo "== OK: the job array's merged results equal the single run"
