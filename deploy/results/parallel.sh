#!/usr/bin/env bash
# A row of the win-rate table as N shards with GNU parallel, on this machine or over ssh, then merged
# into the row's database and exported:
#
#   deploy/results/parallel.sh ROW N          e.g. deploy/results/parallel.sh spider4 8
#
# Settings: JOBS (shards at once, default N), WORKERS (worker threads a shard, default 1), LIMIT (the
# row's first LIMIT deals only; give the same LIMIT every time), SHARD_DIR (default
# data/results/shards), RETRIES (tries again of a failed shard, default 1), PARALLEL_HOSTS (GNU
# parallel's --sshlogin list; the hosts need this project, built, at the same path, and SHARD_DIR on a
# shared file system). Stopped (Ctrl-C), each shard keeps what it finished; the same command resumes.
# Nothing is merged unless every shard finished.
set -euo pipefail
if [[ $# -ne 2 ]] || ! [[ $2 =~ ^[1-9][0-9]{0,4}$ ]]; then
  echo "parallel.sh: usage: deploy/results/parallel.sh ROW N (N shards, 1 or more); nothing was run" >&2
  exit 2
fi
row=$1 n=$2
if ! parallel --version 2>/dev/null | grep -q 'GNU parallel'; then
  echo "parallel.sh: GNU parallel is not installed (Debian: apt-get install parallel); nothing was run" >&2
  exit 2
fi
root=$(cd "$(dirname "$0")/../.." && pwd)
shard_dir=${SHARD_DIR:-data/results/shards}
mkdir -p "$shard_dir"
limit=()
[[ -n ${LIMIT:-} ]] && limit=(--limit "$LIMIT")
hosts=()
[[ -n ${PARALLEL_HOSTS:-} ]] && hosts=(--sshlogin "$PARALLEL_HOSTS" --workdir "$PWD")
parallel --halt never --retries $((${RETRIES:-1} + 1)) --jobs "${JOBS:-$n}" "${hosts[@]}" \
  node "$root/dist/src/results/cli.js" "$row" --shard {}/"$n" --db "$shard_dir/$row-{}.sqlite" \
  --workers "${WORKERS:-1}" "${limit[@]}" ::: $(seq 0 $((n - 1)))
files=()
for ((k = 0; k < n; k++)); do files+=("$shard_dir/$row-$k.sqlite"); done
exec node "$root/dist/src/results/cli.js" merge "$row" "${files[@]}"
