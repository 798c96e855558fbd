#!/usr/bin/env bash
# The GNU parallel recipe over ssh, for real, without a second machine: starts an sshd of its own on
# 127.0.0.1:2222 (its own host and client keys in a temporary folder; the system's sshd and ~/.ssh
# are left alone), runs deploy/parallel/shards.sh with PARALLEL_HOSTS naming two ssh "hosts" that
# both reach it, so every shard is started over ssh in a temporary folder and its database comes
# back by rsync (--return, --cleanup); compares the merged database with a single run
# (deploy/compare.mjs); runs the script again, where every shard must resume with all its deals
# settled (its database sent to the host and back); and stops the sshd. Exit 0 when all holds.
#
# Needs root, Debian's openssh-server, openssh-client, rsync and parallel, and the build (npm ci).
# Not run by CI (it starts a daemon); anyone can run it. The same-machine recipe is tested by
# test/cluster.slow.test.ts.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
for c in /usr/sbin/sshd ssh rsync parallel; do
  command -v "$c" >/dev/null || { echo "ssh-check.sh: $c not found: apt-get install -y openssh-server openssh-client rsync parallel" >&2; exit 1; }
done
study=(--game spiderette --suits 1,2 --seeds 1-40 --max-positions 20000)
work=$(mktemp -d /tmp/spidersolve-ssh-check.XXXXXX)
chmod 700 "$work"
ssh-keygen -q -t ed25519 -N '' -f "$work/host_key"
ssh-keygen -q -t ed25519 -N '' -f "$work/client_key"
cp "$work/client_key.pub" "$work/authorized_keys"
mkdir -p /run/sshd
cat >"$work/sshd_config" <<CONF
Port ${SSH_CHECK_PORT:-2222}
ListenAddress 127.0.0.1
HostKey $work/host_key
AuthorizedKeysFile $work/authorized_keys
PermitRootLogin prohibit-password
PasswordAuthentication no
PidFile $work/sshd.pid
StrictModes no
UsePAM no
CONF
cat >"$work/ssh_config" <<CONF
Host node-a node-b
  HostName 127.0.0.1
  Port ${SSH_CHECK_PORT:-2222}
  User $(id -un)
  IdentityFile $work/client_key
  StrictHostKeyChecking no
  UserKnownHostsFile /dev/null
  LogLevel ERROR
CONF
/usr/sbin/sshd -f "$work/sshd_config"
trap 'kill "$(cat "$work/sshd.pid")" 2>/dev/null || true' EXIT
sleep 1

echo "== spidersolve GNU parallel over ssh check, $(date -u '+%Y-%m-%d %H:%M:%S UTC'), $(parallel --version | head -1), files in $work"
export SPIDERSOLVE="node $root/bin/spidersolve.js"
read -ra ss <<<"$SPIDERSOLVE"
"${ss[@]}" batch "${study[@]}" --workers 1 --no-shard --db "$work/single.sqlite" >/dev/null
cd "$work"
PARALLEL_SSH="ssh -F $work/ssh_config" PARALLEL_HOSTS=node-a,node-b \
  "$root/deploy/parallel/shards.sh" 4 shards "${study[@]}" 2>&1 | grep -E '^spidersolve: shard|shard-[0-9]|^merged|in all' || true
echo "-- compare merged with the single run:"
node "$root/deploy/compare.mjs" "$work/shards/all.sqlite" "$work/single.sqlite"
echo "-- run again: every shard's database goes to its host and back, so each resumes with all its deals settled:"
again=$(PARALLEL_SSH="ssh -F $work/ssh_config" PARALLEL_HOSTS=node-a,node-b \
  "$root/deploy/parallel/shards.sh" 4 shards "${study[@]}" 2>&1)
settled=$(grep -cE 'deals 20: 20 already settled, 0 run now' <<<"$again" || true)
echo "$settled of 4 shards: deals 20: 20 already settled, 0 run now"
[[ $settled -eq 4 ]] || { echo "== FAILED: a shard did not resume over ssh" >&2; exit 1; }
node "$root/deploy/compare.mjs" "$work/shards/all.sqlite" "$work/single.sqlite"
echo "== OK: shards run over ssh, merged, equal the single run, and resume over ssh"
