#!/usr/bin/env bash
# Runs a spidersolve study as N shards with GNU parallel, then merges them into DIR/all.sqlite.
#
#   deploy/parallel/shards.sh N DIR <spidersolve batch options…>
#   deploy/parallel/shards.sh 4 shards --game spiderette --suits 1,2 --seeds 1-1000 --max-positions 100000
#
# On this machine by default (JOBS shards at once, default N). With PARALLEL_HOSTS=host1,host2 (GNU
# parallel's --sshlogin list; `:` is this machine) the shards run over ssh on those hosts, each in a
# temporary folder there: each shard's database is sent there from DIR before it starts
# (--transferfile; an empty one the first time) and comes back into DIR after (--return, then
# --cleanup), so a shard retried or run again resumes over ssh as it does here. The hosts need
# spidersolve installed as SPIDERSOLVE names it, and the study's files (--deals) at the same absolute
# paths. A shard that fails is tried again (RETRIES times, default 1) and resumes where it stopped; if
# one still fails, nothing is merged and the script exits 1 — run it again: finished shards are skipped
# in seconds (every deal settled) and the rest resume. When the shards failed by refusing the options
# (spidersolve's exit 2: bad input), running again is no use: the script says so and exits 2. Stopped
# by Ctrl-C or SIGTERM, it says so and exits 130 (each shard keeps what it solved). DIR remembers N
# (DIR/.shard-count): another N on the same DIR is refused, exit 2.
#
# Settings: SPIDERSOLVE (default `spidersolve`; e.g. "node /path/bin/spidersolve.js"), JOBS, RETRIES,
# PARALLEL_HOSTS, WORKERS (worker threads a shard, default 1). The script gives each shard --workers,
# --shard and --db itself, and refuses those options (and --shard-count, --no-shard) among the batch
# options, exit 2.
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
# N: the shard count, as batch's --shard K/N takes it (checked here: passed on to parallel, a bad one
# would print parallel's whole usage)
if ! [[ $n =~ ^[1-9][0-9]{0,5}$ ]] || (( n > 100000 )); then
  echo "$0: N \"$n\": the number of shards must be a whole number from 1 to 100000; nothing was run" >&2
  exit 2
fi
# RETRIES: tries after the first (GNU parallel's --retries counts every try, and takes 0 for "forever")
retries=${RETRIES:-1}
if ! [[ $retries =~ ^[0-9]{1,3}$ ]]; then
  echo "$0: RETRIES \"$retries\": the number of tries again of a failed shard must be a whole number from 0 to 999; nothing was run" >&2
  exit 2
fi
# JOBS: shards at once (parallel printed its whole usage, then "run the same command again")
if [[ -n ${JOBS:-} ]] && ! [[ $JOBS =~ ^[0-9]{1,5}$ ]]; then
  echo "$0: JOBS \"$JOBS\": the number of shards at once must be a whole number (0: all at once); nothing was run" >&2
  exit 2
fi
# the options the script gives each shard itself (spidersolve would refuse them as given twice, every
# shard exiting 2, in words that do not say the script gave the other)
for a in "$@"; do
  case $a in
    --workers | --workers=*) echo "$0: option --workers: the script gives each shard --workers itself; set WORKERS instead (default 1); nothing was run" >&2; exit 2 ;;
    --db | --db=* | --shard | --shard=* | --shard-count | --shard-count=* | --no-shard)
      echo "$0: option ${a%%=*}: the script gives each shard --shard K/N and --db DIR/shard-K.sqlite itself; leave it out; nothing was run" >&2; exit 2 ;;
  esac
done
read -ra spidersolve <<<"${SPIDERSOLVE:-spidersolve}"
# (checked here for this machine; remote hosts are checked by the shards themselves)
if [[ -z ${PARALLEL_HOSTS:-} ]] && ! command -v "${spidersolve[0]:-}" >/dev/null 2>&1; then
  echo "$0: cannot run \"${SPIDERSOLVE:-spidersolve}\" (not found); set SPIDERSOLVE, e.g. SPIDERSOLVE=\"node $(cd "$(dirname "$0")/../.." && pwd)/bin/spidersolve.js\", or put spidersolve on the PATH (npm link); nothing was run" >&2
  exit 2
fi
# DIR: a folder (a file of that name made mkdir print "File exists" and the script exit 1, its "run
# again")
if [[ -e $dir && ! -d $dir ]]; then
  echo "$0: DIR \"$dir\" is not a folder; give a folder for the shards' databases (made if absent); nothing was run" >&2
  exit 2
fi
if ! mkdir -p "$dir" 2>/dev/null; then
  echo "$0: DIR \"$dir\": cannot make the folder; give a folder that can be made or written; nothing was run" >&2
  exit 2
fi
# the shard count DIR was first run with: its databases hold shards of that count, and another count
# would solve other deals into them (3 shards on a 4-shard folder re-solved 111 of
# 150 deals)
count_file="$dir/.shard-count"
made_count=''
if [[ -s $count_file ]]; then
  was=$(<"$count_file")
  if [[ $was != "$n" ]]; then
    echo "$0: DIR \"$dir\" holds the shards of a run with N=$was ($count_file), not $n: run it with N=$was to resume, or give another DIR; nothing was run" >&2
    exit 2
  fi
else
  # (a folder from before the count was kept: a database of a shard past N-1 tells a larger count)
  for f in "$dir"/shard-*.sqlite; do
    k=${f##*/shard-}
    k=${k%.sqlite}
    if [[ $k =~ ^[0-9]+$ ]] && (( k >= n )); then
      echo "$0: DIR \"$dir\" holds $f, of a run with more than $n shards: run it with its N to resume, or give another DIR; nothing was run" >&2
      exit 2
    fi
  done
  if ! { echo "$n" >"$count_file"; } 2>/dev/null; then
    echo "$0: DIR \"$dir\": cannot write in it ($count_file); give a folder that can be written; nothing was run" >&2
    exit 2
  fi
  made_count=1
fi
remote=() wrap=()
if [[ -n ${PARALLEL_HOSTS:-} ]]; then
  # each job runs in a temporary folder on its host: its shard database is sent there with its
  # write-ahead log (-wal, which holds what a shard killed on its host had not yet folded into the
  # database), fetched back the same way, then removed there. Both files always exist, so that both
  # travel each way: empty ones (a new database) the first time, and an empty log after a shard that
  # ended cleanly (it folds its log in and removes it), so that an older log fetched back before is
  # never left beside a newer database.
  for ((k = 0; k < n; k++)); do
    [[ -e $dir/shard-$k.sqlite ]] || : >"$dir/shard-$k.sqlite"
    [[ -e $dir/shard-$k.sqlite-wal ]] || : >"$dir/shard-$k.sqlite-wal"
  done
  remote=(--sshlogin "$PARALLEL_HOSTS" --workdir ... --cleanup
    --transferfile "$dir/shard-{}.sqlite" --transferfile "$dir/shard-{}.sqlite-wal"
    --return "$dir/shard-{}.sqlite" --return "$dir/shard-{}.sqlite-wal")
  wrap=(sh -c 'db=$1; shift; "$@"; rc=$?; [ -e "$db-wal" ] || : >"$db-wal"; exit $rc' sh "$dir/shard-{}.sqlite")
fi
# DIR's count, given by this run, is taken back when the run wrote no shard database (a SPIDERSOLVE
# that cannot start, say): the folder holds no shards of it
unpin() {
  [[ -n $made_count ]] || return 0
  local f
  for f in "$dir"/shard-*.sqlite; do [[ -s $f ]] && return 0; done
  rm -f "$count_file"
}
joblog="$dir/.shards-joblog"
rm -f "$joblog"
# Ctrl-C (SIGINT) or SIGTERM: each shard writes what it has and stops (exit 130); say so and exit 130,
# not 1 with "some shards failed"
stopped=''
trap 'stopped=INT' INT
trap 'stopped=TERM' TERM
# -q: every argument passed as it is (quoted for the shell parallel runs each job in)
if ! parallel -q --jobs "${JOBS:-$n}" --retries "$((retries + 1))" --joblog "$joblog" --tag --line-buffer "${remote[@]}" \
  "${wrap[@]}" "${spidersolve[@]}" batch "$@" --workers "${WORKERS:-1}" --shard "{}/$n" --db "$dir/shard-{}.sqlite" \
  ::: $(seq 0 $((n - 1))); then
  # (a run that wrote no shard database leaves DIR's count as it found it)
  unpin
  if [[ -n $stopped ]]; then
    echo "$0: stopped by SIG$stopped; each shard keeps what it solved; nothing merged — run the same command again to resume" >&2
    exit 130
  fi
  # every shard that failed refused its options (exit 2, the last try of each): trying again is no use
  if awk -F'\t' 'NR > 1 { last[$1] = $7 } END { for (k in last) if (last[k] != 0) { bad++; if (last[k] != 2) other++ } exit !(bad > 0 && other == 0) }' "$joblog"; then
    echo "$0: the shards refused their input (exit 2, see above: the batch options, or a database under DIR); nothing merged — correct the command, then run it again" >&2
    exit 2
  fi
  echo "$0: some shards failed (see above); nothing merged — run the same command again to resume them" >&2
  exit 1
fi
# a SIGTERM sent to this script alone (not to its process group) waits, as bash does, for parallel to
# end: the shards ran on; nothing is merged then either
if [[ -n $stopped ]]; then
  echo "$0: stopped by SIG$stopped, after the shards ended (a signal to this script alone does not reach them: send it to the process group, kill -$stopped -- -PGID); nothing merged — run the same command again to merge" >&2
  exit 130
fi
exec "${spidersolve[@]}" merge --into "$dir/all.sqlite" "$dir"/shard-*.sqlite
