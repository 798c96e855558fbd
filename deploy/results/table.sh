#!/usr/bin/env bash
# The whole win-rate table on a Slurm cluster: one job array a row (row.sbatch), a merge job a row
# once its array has finished well (merge.sbatch), and `npm run results -- table` once every merge
# has (a last job). Run from the project's folder, built (`npm run build`):
#
#   deploy/results/table.sh              # shards a row: SHARDS (default 32)
#   SHARDS=64 LIMIT=1000 deploy/results/table.sh spider4 spiderette4   # some rows only
#
# Each row's deals are split among SHARDS tasks of sbatch's default CPUs (row.sbatch asks 2 a task);
# sbatch options for every job go in SBATCH_OPTS (e.g. "--partition=long --time=12:00:00").
set -euo pipefail
shards=${SHARDS:-32}
if ! [[ $shards =~ ^[1-9][0-9]{0,4}$ ]]; then
  echo "table.sh: SHARDS \"$shards\": give a whole number from 1; nothing was submitted" >&2
  exit 2
fi
rows=("$@")
[[ ${#rows[@]} -gt 0 ]] || rows=(spider4 spider2 spider1 spiderette4 spiderette2 spiderette1)
here=$(cd "$(dirname "$0")" && pwd)
read -ra opts <<<"${SBATCH_OPTS:-}"
merges=()
for row in "${rows[@]}"; do
  jid=$(sbatch --parsable "${opts[@]}" --array=0-$((shards - 1)) "$here/row.sbatch" "$row")
  merges+=("$(sbatch --parsable "${opts[@]}" --dependency=afterok:"$jid" --kill-on-invalid-dep=yes "$here/merge.sbatch" "$row")")
  echo "row $row: shards job $jid, merge job ${merges[-1]}"
done
dep=$(IFS=:; echo "${merges[*]}")
sbatch --parsable "${opts[@]}" --dependency=afterok:"$dep" --kill-on-invalid-dep=yes --job-name=spidersolve-table \
  --wrap "node $PWD/dist/src/results/cli.js table"
