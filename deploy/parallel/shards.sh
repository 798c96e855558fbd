#!/usr/bin/env bash
# Runs a spidersolve study as N shards with GNU parallel, then merges them into DIR/all.sqlite.
#
#   deploy/parallel/shards.sh N DIR <spidersolve batch options…>
#   deploy/parallel/shards.sh 4 shards --game spiderette --suits 1,2 --seeds 1-1000 --max-positions 100000
#
# On this machine by default (JOBS shards at once, default N). With PARALLEL_HOSTS=host1,host2 (GNU
# parallel's --sshlogin list; `:` is this machine) the shards run over ssh on those hosts, each in a
# temporary folder there, and their databases come back into DIR (--return, then --cleanup): the
# hosts need spidersolve installed as SPIDERSOLVE names it. A shard that fails is retried (RETRIES,
# default 2) and resumes where it stopped; if one still fails, nothing is merged and the script exits 1
# — run it again: finished shards are skipped in seconds (every deal settled) and the rest resume.
#
# Settings: SPIDERSOLVE (default `spidersolve`; e.g. "node /path/bin/spidersolve.js"), JOBS, RETRIES,
# PARALLEL_HOSTS, WORKERS (worker threads a shard, default 1).
set -euo pipefail
if [[ $# -lt 3 ]]; then
  echo "usage: $0 N DIR <spidersolve batch options…>" >&2
  exit 2
fi
# GNU parallel, not moreutils' parallel of the same name (whose options differ)
if ! command -v parallel >/dev/null 2>&1; then
  echo "$0: GNU parallel is not installed (Debian: apt-get install parallel); nothing was run" >&2
  exit 2
fi
if ! parallel --version 2>/dev/null | grep -q 'GNU parallel'; then
  echo "$0: the parallel command here is not GNU parallel (moreutils has one of the same name; Debian: apt-get install parallel); nothing was run" >&2
  exit 2
fi
n=$1 dir=$2
shift 2
# N: the shard count, as batch's --shard K/N takes it (it was passed on to parallel, which printed its
# whole usage; found by helper-43)
if ! [[ $n =~ ^[1-9][0-9]{0,5}$ ]] || (( n > 100000 )); then
  echo "$0: N \"$n\": the number of shards must be a whole number from 1 to 100000; nothing was run" >&2
  exit 2
fi
read -ra spidersolve <<<"${SPIDERSOLVE:-spidersolve}"
# (checked here for this machine; remote hosts are checked by the shards themselves)
if [[ -z ${PARALLEL_HOSTS:-} ]] && ! command -v "${spidersolve[0]:-}" >/dev/null 2>&1; then
  echo "$0: cannot run \"${SPIDERSOLVE:-spidersolve}\" (not found); set SPIDERSOLVE, e.g. SPIDERSOLVE=\"node $(cd "$(dirname "$0")/../.." && pwd)/bin/spidersolve.js\", or put spidersolve on the PATH (npm link); nothing was run" >&2
  exit 2
fi
mkdir -p "$dir"
remote=()
if [[ -n ${PARALLEL_HOSTS:-} ]]; then
  # each job runs in a temporary folder on its host; its shard file is fetched back, then removed there
  remote=(--sshlogin "$PARALLEL_HOSTS" --workdir ... --return "$dir/shard-{}.sqlite" --cleanup)
fi
# -q: every argument passed as it is (quoted for the shell parallel runs each job in)
if ! parallel -q --jobs "${JOBS:-$n}" --retries "${RETRIES:-2}" --tag --line-buffer "${remote[@]}" \
  "${spidersolve[@]}" batch "$@" --workers "${WORKERS:-1}" --shard "{}/$n" --db "$dir/shard-{}.sqlite" \
  ::: $(seq 0 $((n - 1))); then
  echo "$0: some shards failed (see above); nothing merged — run the same command again to resume them" >&2
  exit 1
fi
exec "${spidersolve[@]}" merge --into "$dir/all.sqlite" "$dir"/shard-*.sqlite
